"""Headless battles: AI against AI (or any two policies), with logs and a summary (`mac-tui sim`).

The battle is deployed automatically, then `players.driver.drive` lets the seated policies act
until it ends, writing every decision and event to the battle log (`docs/battle-log.md`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from attrs import frozen

from ..combat.commands import AutoDeploy, StartBattle
from ..combat.events import Attacked, BattleEnded
from ..combat.setup import FrameSpec
from ..combat.skirmish import make_state
from ..combat.state import Side
from ..core import Accepted, Event
from ..game import step
from ..model import GameState
from ..ruleset import Ruleset
from . import battlelog
from .ai import decide
from .driver import MAX_COMMANDS, OnDecision, drive
from .policy import Decision, Policy


@frozen
class BattleSummary:
    seed: int
    difficulty: int
    landscape: str
    result: str
    rounds: int
    shots: dict[str, int]
    hits: dict[str, int]
    damage: dict[str, int]
    frames_lost: dict[str, int]
    commands: int


def play(
    state: GameState,
    policies: Mapping[Side, Policy],
    *,
    log: list[str] | None = None,
    max_commands: int = MAX_COMMANDS,
    names: Mapping[Side, str] | None = None,
    observe: OnDecision | None = None,
) -> tuple[GameState, list[Event]]:
    """Drive a battle to its end with one policy per side; deployment is automatic. `names`
    (the policies' specs) go into the log's header; `observe` is told of every decision."""
    assert state.battle is not None
    start = state.battle
    events: list[Event] = []
    if log is not None:
        log.append(battlelog.dumps(battlelog.header(start, state.seed, names)))
    for cmd in (AutoDeploy(), StartBattle()):
        if state.battle is not None and state.battle.phase == "deployment":
            out = step(state, cmd)
            if isinstance(out, Accepted):
                state = out.state
                events.extend(out.events)
                _log_events(log, out.events)

    def record(before: GameState, decision: Decision, outcome: Accepted) -> None:
        if observe is not None:
            observe(before, decision, outcome)
        if log is not None:
            log.append(battlelog.dumps(_decision_record(before, decision)))
            _log_events(log, outcome.events)

    driven = drive(state, policies, max_commands=max_commands, on_decision=record)
    state = driven.state
    events.extend(driven.events)
    if log is not None and state.battle is not None:
        log.append(battlelog.dumps(battlelog.result_record(state.battle)))
    return state, events


def _decision_record(state: GameState, decision: Decision) -> dict[str, Any]:
    battle = state.battle
    unit = battle.active_unit if battle else None
    return {
        "type": "AiDecision",
        "side": unit.side if unit is not None else "player",
        "unit": unit.id if unit else None,
        "command": decision.command.to_text(),
        "options": [{"command": c, "score": round(s, 2)} for c, s in decision.options],
        **_why(decision),
        "note": decision.note,
    }


def _why(decision: Decision) -> dict[str, Any]:
    """The explained options of a policy that gives them (`Decision.why`); nothing otherwise, so
    the records of a policy without explanations stay as they were."""
    if not decision.why:
        return {}
    return {
        "why": [
            {
                "plan": list(o.plan),
                "value": round(o.value, 2),
                "parts": {name: round(v, 2) for name, v in o.parts},
            }
            for o in decision.why
        ]
    }


def _log_events(log: list[str] | None, events: Sequence[Event]) -> None:
    if log is not None:
        log.extend(battlelog.dumps(battlelog.event_record(e)) for e in events)


def summarise(state: GameState, events: Sequence[Event], commands: int) -> BattleSummary:
    battle = state.battle
    assert battle is not None
    sides: list[str] = [info.side for info in battle.sides]  # O10: the third parties' too
    shots = dict.fromkeys(sides, 0)
    hits = dict.fromkeys(sides, 0)
    damage = dict.fromkeys(sides, 0)
    for e in events:
        if isinstance(e, Attacked):
            side = battle.unit(e.result.attacker).side
            shots[side] += 1
            if e.result.hit and not e.result.intercepted:
                hits[side] += 1
                if e.result.damage is not None:
                    damage[side] += e.result.damage.total
    lost = {
        side: sum(1 for u in battle.units if u.side == side and not u.active and not u.left)
        for side in sides
    }
    result = battle.result or "unfinished"
    if any(isinstance(e, BattleEnded) for e in events) is False and battle.phase != "over":
        result = "unfinished"
    return BattleSummary(
        seed=state.seed,
        difficulty=battle.difficulty,
        landscape=battle.landscape,
        result=result,
        rounds=battle.round,
        shots=shots,
        hits=hits,
        damage=damage,
        frames_lost=lost,
        commands=commands,
    )


def run_battle(
    seed: int,
    difficulty: int,
    lance: Sequence[FrameSpec] | None = None,
    *,
    policies: Mapping[Side, Policy] | None = None,
    log: list[str] | None = None,
    names: Mapping[Side, str] | None = None,
    landscape: str | None = None,
    ruleset: Ruleset = (),
) -> BattleSummary:
    """One AI-against-AI battle (or with the given policies, named by `names` in the log),
    summarised; on `landscape` (default: drawn from the seed), under `ruleset` (O0.1)."""
    state = make_state(seed, difficulty, lance, landscape=landscape, ruleset=ruleset)
    chosen: Mapping[Side, Policy] = policies or {"player": decide, "enemy": decide}
    end, events = play(state, chosen, log=log, names=names)
    commands = end.commands_applied - state.commands_applied
    return summarise(end, events, commands)
