"""`mac-tui script FILE`: play a campaign headless from a file of commands, one per line.

Lines are commands in their text form (the same form the save log uses); blank lines and `#`
comments are skipped. `auto-battle` lets the AI fight the player's side until the battle ends.
Enemy activations are always played by the AI as soon as it is their turn.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from attrs import frozen

from .game import Accepted, CommandSyntaxError, Event, parse_command
from .session import Session

AUTO_BATTLE = "auto-battle"
MAX_AI_COMMANDS = 20000


@frozen
class LineResult:
    line: int
    text: str
    accepted: bool
    reason: str
    events: tuple[str, ...]
    commands: int  # how many engine commands the line became (AI turns included)


def _describe(events: Iterable[Event]) -> list[str]:
    return [e.describe() for e in events]


def ai_turns(session: Session, *, player_too: bool = False) -> tuple[int, list[str]]:
    """Let the AI act while an AI-run side has the turn (all sides with `player_too`)."""
    from .combat.ai import decide

    count = 0
    notes: list[str] = []
    while count < MAX_AI_COMMANDS:
        battle = session.state.battle
        if battle is None or battle.phase == "over":
            break
        if battle.phase == "deployment":
            if not player_too:
                break
        else:
            unit = battle.active_unit
            if unit is None:
                break
            if not (player_too or battle.side_info(unit.side).ai):
                break
        outcome = session.apply(decide(session.state).command)
        if not isinstance(outcome, Accepted):  # the AI only picks legal commands
            raise RuntimeError(f"the AI chose a refused command: {outcome.reason}")
        count += 1
        notes.extend(_describe(outcome.events))
    return count, notes


def run_line(session: Session, number: int, text: str) -> LineResult | None:
    stripped = text.strip()
    if not stripped or stripped.startswith("#"):
        return None
    if stripped == AUTO_BATTLE:
        if session.state.battle is None:
            return LineResult(number, stripped, False, "there is no battle to fight", (), 0)
        count, notes = ai_turns(session, player_too=True)
        return LineResult(number, stripped, True, "", tuple(notes), count)
    try:
        command = parse_command(stripped)
    except CommandSyntaxError as exc:
        return LineResult(number, stripped, False, str(exc), (), 0)
    outcome = session.apply(command)
    if not isinstance(outcome, Accepted):
        return LineResult(number, stripped, False, outcome.reason, (), 0)
    notes = _describe(outcome.events)
    count, more = ai_turns(session)
    return LineResult(number, stripped, True, "", tuple(notes + more), 1 + count)


def run_lines(session: Session, lines: Iterable[str]) -> list[LineResult]:
    results = []
    for number, text in enumerate(lines, start=1):
        result = run_line(session, number, text)
        if result is not None:
            results.append(result)
    return results


def summary(session: Session) -> dict[str, Any]:
    from .session import header_for

    out = header_for(session.state)
    out["commands"] = len(session.commands)
    c = session.state.campaign
    if c is not None:
        out["frames"] = [
            {"id": f.id, "name": f.name, "chassis": f.chassis, "status": f.status, "pilot": f.pilot}
            for f in c.frames
        ]
        out["pilots"] = [{"callsign": p.callsign, "status": p.status, "xp": p.xp} for p in c.pilots]
        out["fuel"] = c.fuel
        out["reputation"] = c.reputation
        out["standing"] = dict(c.standing)
        out["place"] = c.place
    return out
