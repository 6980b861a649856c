"""`mac-tui script FILE`: play a campaign headless from a file of commands, one per line.

Lines are commands in their text form (the same form the save log uses); blank lines and `#`
comments are skipped. `auto-battle` lets the AI fight the player's side until the battle ends;
`auto-battle careful` the same, ordering the withdrawal when a frame is in danger
(`players/careful.py`).
Enemy activations are always played by the AI as soon as it is their turn.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from attrs import frozen

from .core import Accepted, CommandSyntaxError, Event
from .game import parse_command
from .players.ai import decide
from .players.careful import careful
from .players.driver import battle_seats, drive
from .session import Session, header_for

AUTO_BATTLE = "auto-battle"
CAREFUL_BATTLE = "auto-battle careful"
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


def ai_turns(
    session: Session, *, player_too: bool = False, cautious: bool = False
) -> tuple[int, list[str]]:
    """Let the AI act while an AI-run side must act (every side with `player_too`), until the
    battle ends; the commands go through `session.apply`, so the log keeps them. With
    `cautious` the player's side is fought by `careful(decide)`."""
    battle = session.state.battle
    if battle is None:
        return 0, []
    seats = dict(battle_seats(battle, decide, everyone=player_too))
    if cautious and player_too:
        seats["player"] = careful(decide)
    driven = drive(
        session.state,
        seats,
        apply=lambda _state, command: session.apply(command),
        max_commands=MAX_AI_COMMANDS,
        until=lambda state: state.battle is None,
    )
    return driven.commands, _describe(driven.events)


def run_line(session: Session, number: int, text: str) -> LineResult | None:
    stripped = text.strip()
    if not stripped or stripped.startswith("#"):
        return None
    if stripped in (AUTO_BATTLE, CAREFUL_BATTLE):
        if session.state.battle is None:
            return LineResult(number, stripped, False, "there is no battle to fight", (), 0)
        count, notes = ai_turns(session, player_too=True, cautious=stripped == CAREFUL_BATTLE)
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
