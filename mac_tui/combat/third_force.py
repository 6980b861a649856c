"""Optional module O10.1: the third party a contract or a quick battle rolls, and its frames.

Each new contract (and each quick battle) with O10 on rolls d100 from the `missions` stream
(O0.6; the `contracts` stream of the core board is left as it is, so the board's other rolls do
not move): 01-25 an allied lance of the employer's faction, 26-40 a neutral lance of a third
faction (neither employer nor opponent), else none (`data/third_parties.toml`). Then, from the
same stream and in this order: the neutral faction; per frame its class (a neutral's, 50/50),
its chassis (`setup.pick_chassis`: R17, D12) and its stock loadout (R18). Pilots come from the
CORE §16.1 row the table names (`third_specs`), and the stance, target priority and withdrawal
from O10.5, so a stored contract needs only chassis, loadout and label.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, Literal, Protocol

from attrs import frozen

from ..catalog import catalog
from ..dice import Dice
from ..ruleset import Ruleset
from .setup import FrameSpec, loadout_spec, pick_chassis
from .state import PilotSkills

#: O0.6's `missions` stream: the third party of a contract or a quick battle (O10.1).
MISSIONS: Final = "missions"

ThirdKind = Literal["ally", "neutral"]


class StockFrame(Protocol):
    """A stored frame: a chassis, a stock loadout's name and a label (a contract's)."""

    @property
    def chassis(self) -> str: ...
    @property
    def loadout(self) -> str: ...
    @property
    def label(self) -> str: ...


@frozen(kw_only=True)
class ThirdFrame:
    """A third party's frame: chassis, stock loadout name (R18), label."""

    chassis: str
    loadout: str
    label: str


@frozen(kw_only=True)
class ThirdRoll:
    """O10.1's result: the d100, and the lance it gives (none: `kind` None)."""

    roll: int
    kind: ThirdKind | None = None
    faction: str | None = None
    frames: tuple[ThirdFrame, ...] = ()


def kind_of_roll(roll: int) -> ThirdKind | None:
    """O10.1's table: which third party a d100 roll gives."""
    gen = catalog().third_parties.generation
    if roll <= gen.ally_max:
        return "ally"
    if roll <= gen.neutral_max:
        return "neutral"
    return None


def ally_classes(difficulty: int) -> tuple[str, ...]:
    """O10.1: one Light while D <= 2; else two frames of the §16.1 row D - 2's classes."""
    cat = catalog()
    a = cat.third_parties.ally
    if difficulty <= a.small_max_difficulty:
        return (a.small_class,) * a.small_frames
    row = cat.enemy_force(difficulty - a.class_row_offset).classes
    return tuple(row[i % len(row)] for i in range(a.frames))


def neutral_count(difficulty: int) -> int:
    """O10.1: one neutral frame while D <= 3, else two."""
    n = catalog().third_parties.neutral
    return n.small_frames if difficulty <= n.small_max_difficulty else n.frames


def pilot_row(kind: ThirdKind, difficulty: int) -> int:
    """O10.1: the §16.1 row of the pilots: max(1, D - 1) for allies, D for neutrals."""
    third = catalog().third_parties
    offset = third.ally.pilot_row_offset if kind == "ally" else third.neutral.pilot_row_offset
    return max(1, difficulty - offset)


def roll_third_party(
    dice: Dice,
    difficulty: int,
    *,
    employer: str | None,
    opponent: str | None,
    ruleset: Ruleset = (),
) -> ThirdRoll:
    """O10.1: roll the third party of a contract (or a quick battle: no employer)."""
    cat = catalog()
    roll = dice.d100(MISSIONS)
    kind = kind_of_roll(roll)
    if kind is None or (kind == "neutral" and "O1" in ruleset):  # O1.12: allies only
        return ThirdRoll(roll=roll)
    if kind == "ally":
        faction = employer
        classes: Sequence[str] = ally_classes(difficulty)
    else:
        others = [f for f in cat.factions if f not in (employer, opponent)]
        faction = dice.choice(MISSIONS, others) if others else None
        pool = cat.third_parties.neutral.classes
        classes = [dice.choice(MISSIONS, pool) for _ in range(neutral_count(difficulty))]
    tag = "A" if kind == "ally" else "N"
    frames = []
    for i, frame_class in enumerate(classes, start=1):
        chassis = pick_chassis(dice, frame_class, faction, MISSIONS)
        loadout = dice.choice(MISSIONS, cat.drawn_loadouts(chassis.designation, ruleset))
        frames.append(
            ThirdFrame(
                chassis=chassis.designation,
                loadout=loadout.name,
                label=f"{chassis.name.upper()}-{tag}{i}",
            )
        )
    return ThirdRoll(roll=roll, kind=kind, faction=faction, frames=tuple(frames))


def third_specs(
    kind: ThirdKind, difficulty: int, frames: Sequence[StockFrame]
) -> tuple[FrameSpec, ...]:
    """The frames of a third party as they enter the battle: their stock loadouts, the pilots
    of O10.1's §16.1 row and O10.5's stance and target priority."""
    cat = catalog()
    force = cat.enemy_force(pilot_row(kind, difficulty))
    plays = cat.third_parties.ally_ai if kind == "ally" else cat.third_parties.neutral_ai
    callsign = "Ally" if kind == "ally" else "Neutral"
    out = []
    for i, f in enumerate(frames, start=1):
        loadout = next(lo for lo in cat.stock_loadouts(f.chassis) if lo.name == f.loadout)
        pilot = PilotSkills(
            callsign=f"{callsign}-{i}",
            gunnery=force.gunnery,
            piloting=force.piloting,
            tactics=force.tactics,
        )
        out.append(loadout_spec(f.chassis, loadout, pilot, f.label, plays.stance, plays.priority))
    return tuple(out)


def battle_lances(
    kind: ThirdKind | None, difficulty: int, frames: Sequence[StockFrame]
) -> tuple[tuple[FrameSpec, ...], tuple[FrameSpec, ...]]:
    """`new_battle`'s `allies` and `neutrals` for a rolled third party."""
    if kind is None or not frames:
        return (), ()
    specs = third_specs(kind, difficulty, frames)
    return (specs, ()) if kind == "ally" else ((), specs)


__all__ = [
    "MISSIONS",
    "ThirdFrame",
    "ThirdKind",
    "ThirdRoll",
    "ally_classes",
    "battle_lances",
    "kind_of_roll",
    "neutral_count",
    "pilot_row",
    "roll_third_party",
    "third_specs",
]
