"""Why the AI did that, in words: a decision's best options, each with its value and what the
value is made of (`Decision.why`), for the battle screen and the log readers.

    HOSTILE-1 (balanced, focus fire, Tactics 4) chose: move to 3,4, then fire group 2 at
    FALCON (worth 16.6)
      damage dealt +21.3, fire it can bring next time +17.0, fire it will draw -18.9, ...
    It also weighed:
      brace, then overwatch with group 2 (12.3): fire it can bring next time +13.2, ...
"""

from __future__ import annotations

from typing import Final

from ...catalog import catalog
from ...combat import track
from ...combat.commands import (
    Brace,
    CalledShot,
    EndActivation,
    FireGroup,
    Hold,
    Move,
    Overwatch,
    ReactionFire,
    Sprint,
    Sweep,
    UseEquipment,
    Vent,
)
from ...combat.events import DIRECTION_NAMES
from ...combat.state import Battle
from ...core import Command
from ...game import parse_command
from ..policy import Decision, Option

#: Each part of a plan's value (`plans.PARTS`) in words.
PART_WORDS: Final[dict[str, str]] = {
    "damage": "damage dealt",
    "kill": "chance to destroy a frame",
    "pilot": "chance to kill a pilot",
    "wreck": "chance to wreck a weapon mount or the legs",
    "setup": "centre torso damage toward a called shot's kill",
    "stress": "reactor stress put on the target",
    "outlook": "fire it can bring next time from there",
    "band": "distance from its preferred range",
    "received": "fire it will draw before it acts again",
    "cover": "cover",
    "overwatch": "reaction fire expected",
    "support": "help to its side",
    "reactor": "its own reactor's risk",
    "cone": "armed enemy cones walked into (O6)",
    "objective": "distance from the objective hex (O11)",
}
SHOWN_PARTS: Final = 4  # parts named per runner-up
NEGLIGIBLE: Final = 0.05


def _label(battle: Battle | None, unit_id: str | None) -> str:
    if unit_id is None:
        return "-"
    if battle is not None:
        try:
            return battle.unit(unit_id).label
        except KeyError:
            pass
    return unit_id


def command_words(command: Command, battle: Battle | None = None) -> str:
    """One command as a player would say it ("fire group 2 at FALCON")."""
    on_track = battle is not None and track.on(battle)
    if isinstance(command, (Move, Sprint)):
        verb = "move" if isinstance(command, Move) else "sprint"
        if on_track:  # O1: the track's positions
            return f"{verb} to position {command.hex.q}"
        return f"{verb} to {command.hex.q},{command.hex.r}"
    if isinstance(command, FireGroup):
        return f"fire group {command.group} at {_label(battle, command.target)}"
    if isinstance(command, CalledShot):
        where = catalog().location(command.location).name.lower()
        return (
            f"called shot with group {command.group} at {_label(battle, command.target)}'s {where}"
        )
    if isinstance(command, Brace):
        return "brace"
    if isinstance(command, Overwatch):
        return f"overwatch with group {command.group}"
    if isinstance(command, ReactionFire):
        way = DIRECTION_NAMES[command.direction % 6]
        return f"arm a reaction cone {way} with group {command.group}"
    if isinstance(command, Sweep):
        return f"sweep with group {command.group} as it moves"
    if isinstance(command, Vent):
        return "vent the reactor"
    if isinstance(command, EndActivation):
        return "end its activation"
    if isinstance(command, Hold):
        return "hold its position"
    if isinstance(command, UseEquipment):
        item = catalog().equipment[command.equipment]
        if item.effect == "jump" and command.hex is not None and on_track:
            return f"thrust to position {command.hex.q} with its {item.name}"
        if item.effect == "jump" and command.hex is not None:
            return f"jump to {command.hex.q},{command.hex.r} with its {item.name}"
        if command.target is not None:
            verb = "designate" if item.effect == "designate" else "shield"
            return f"{verb} {_label(battle, command.target)} with its {item.name}"
        return f"switch on its {item.name}"
    return command.to_text()


def plan_words(plan: tuple[str, ...], battle: Battle | None = None) -> str:
    """A plan's commands (text form) in words, joined by "then"."""
    return ", then ".join(command_words(parse_command(text), battle) for text in plan)


def parts_words(option: Option, most: int | None = None) -> str:
    """The parts of an option's value, largest first ("damage dealt +21.3, ...")."""
    parts = sorted(
        (p for p in option.parts if abs(p[1]) >= NEGLIGIBLE), key=lambda p: (-abs(p[1]), p[0])
    )
    if most is not None:
        parts = parts[:most]
    return ", ".join(f"{PART_WORDS.get(name, name)} {value:+.1f}" for name, value in parts)


def describe(decision: Decision, battle: Battle | None = None, who: str | None = None) -> list[str]:
    """The decision in words: what the frame chose and why, then the other options it weighed.
    `who` names the frame ("HOSTILE-1 (balanced, focus fire, Tactics 4)"); by default the
    decision's note."""
    if not decision.why:
        head = who or decision.note or "The AI"
        return [f"{head} chose: {command_words(decision.command, battle)}"]
    chosen, *others = decision.why
    head = who or decision.note or "The AI"
    lines = [
        f"{head} chose: {plan_words(chosen.plan, battle)} (worth {chosen.value:.1f})",
        f"  {parts_words(chosen) or 'nothing to gain or lose'}",
    ]
    if others:
        lines.append("It also weighed:")
        for o in others:
            lines.append(
                f"  {plan_words(o.plan, battle)} ({o.value:.1f}): {parts_words(o, SHOWN_PARTS)}"
            )
    return lines


def who_words(battle: Battle, unit_id: str, tactics: int) -> str:
    """The frame, its stance and priority, and the Tactics it plays at."""
    u = battle.unit(unit_id)
    return f"{u.label} ({u.stance}, {u.priority.replace('_', ' ')}, Tactics {tactics})"
