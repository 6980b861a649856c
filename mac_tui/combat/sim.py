"""Headless battles: AI against AI (or any two policies), with logs and a summary (`mac-tui sim`).

A policy maps a game state to a `Decision` (a command plus the options it weighed); the driver
steps the engine with it until the battle ends, writing every event to the battle log.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import attrs
from attrs import frozen

from ..catalog import catalog
from ..dice import Dice
from ..game import Accepted, Command, Event, step
from ..model import GameState, initial_state
from . import log as battle_log
from .commands import AutoDeploy, StartBattle
from .events import Attacked, BattleEnded
from .setup import FrameSpec
from .skirmish import build_skirmish
from .state import Battle, Side


@frozen
class Decision:
    command: Command
    options: tuple[tuple[str, float], ...] = ()
    note: str = ""


Policy = Callable[[GameState], Decision]


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


def make_state(
    seed: int,
    difficulty: int,
    lance: Sequence[FrameSpec] | None = None,
    landscape: str | None = None,
    player_ai: bool = True,
) -> GameState:
    """A game whose battle is set up and waiting for the player's deployment."""
    state = initial_state(seed)
    dice = Dice(state.rng)
    battle = build_skirmish(dice, difficulty, lance=lance, landscape=landscape, player_ai=player_ai)
    return attrs.evolve(state, battle=battle, rng=dice.state())


def _side_to_act(battle: Battle) -> Side:
    unit = battle.active_unit
    return unit.side if unit is not None else "player"


def play(
    state: GameState,
    policies: dict[Side, Policy],
    *,
    log: list[str] | None = None,
    max_commands: int = 20000,
) -> tuple[GameState, list[Event]]:
    """Drive a battle to its end with one policy per side; deployment is automatic."""
    assert state.battle is not None
    start = state.battle
    events: list[Event] = []
    if log is not None:
        log.append(battle_log.dumps(battle_log.header(start, state.seed)))
    for cmd in (AutoDeploy(), StartBattle()):
        if state.battle is not None and state.battle.phase == "deployment":
            out = step(state, cmd)
            if isinstance(out, Accepted):
                state = out.state
                events.extend(out.events)
                _log_events(log, out.events)
    count = 0
    while state.battle is not None and state.battle.phase == "combat" and count < max_commands:
        side = _side_to_act(state.battle)
        decision = policies[side](state)
        if log is not None:
            log.append(battle_log.dumps(_decision_record(state, side, decision)))
        out = step(state, decision.command)
        if not isinstance(out, Accepted):
            raise RuntimeError(f"policy for {side} chose a refused command: {out.reason}")
        state = out.state
        events.extend(out.events)
        _log_events(log, out.events)
        count += 1
    if log is not None and state.battle is not None:
        log.append(battle_log.dumps(battle_log.result_record(state.battle)))
    return state, events


def _decision_record(state: GameState, side: Side, decision: Decision) -> dict[str, Any]:
    battle = state.battle
    unit = battle.active_unit if battle else None
    return {
        "type": "AiDecision",
        "side": side,
        "unit": unit.id if unit else None,
        "command": decision.command.to_text(),
        "options": [{"command": c, "score": round(s, 2)} for c, s in decision.options],
        "note": decision.note,
    }


def _log_events(log: list[str] | None, events: Sequence[Event]) -> None:
    if log is not None:
        log.extend(battle_log.dumps(battle_log.event_record(e)) for e in events)


def summarise(state: GameState, events: Sequence[Event], commands: int) -> BattleSummary:
    battle = state.battle
    assert battle is not None
    shots = {"player": 0, "enemy": 0}
    hits = {"player": 0, "enemy": 0}
    damage = {"player": 0, "enemy": 0}
    for e in events:
        if isinstance(e, Attacked):
            side = battle.unit(e.result.attacker).side
            shots[side] += 1
            if e.result.hit and not e.result.intercepted:
                hits[side] += 1
                if e.result.damage is not None:
                    damage[side] += e.result.damage.total
    lost = {
        side: sum(1 for u in battle.side_units(side) if not u.active)
        for side in ("player", "enemy")
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


def lance_from_chassis(designations: Sequence[str]) -> tuple[FrameSpec, ...]:
    """`--lance`: frames of the named chassis with their first stock loadout and the starting
    pilots in order (Ghost, Falcon, Thunder, Shadow)."""
    from .setup import MountSpec
    from .state import PilotSkills

    cat = catalog()
    pilots = cat.pilots.starting_pilot
    most = cat.missions.lance.max_frames
    if not 1 <= len(designations) <= most:
        raise ValueError(f"a lance has 1 to {most} frames")
    out = []
    for i, name in enumerate(designations):
        key = name.upper()
        if key not in cat.chassis:
            known = ", ".join(cat.chassis)
            raise ValueError(f"no chassis {name!r} (known: {known})")
        loadout = cat.stock_loadouts(key)[0]
        p = pilots[i % len(pilots)]
        out.append(
            FrameSpec(
                chassis=key,
                pilot=PilotSkills(
                    callsign=p.callsign, gunnery=p.gunnery, piloting=p.piloting, tactics=p.tactics
                ),
                label=p.callsign,
                weapons=tuple(
                    MountSpec(weapon=e.weapon, mount=e.mount, group=e.group)
                    for e in loadout.weapons
                ),
                equipment=(
                    *((e, None) for e in loadout.equipment),
                    *((f.equipment, f.mount) for f in loadout.slots),
                ),
            )
        )
    return tuple(out)


def run_battle(
    seed: int,
    difficulty: int,
    lance: Sequence[FrameSpec] | None = None,
    *,
    policies: dict[Side, Policy] | None = None,
    log: list[str] | None = None,
) -> BattleSummary:
    """One AI-against-AI battle (or with the given policies), summarised."""
    from .ai import decide

    state = make_state(seed, difficulty, lance)
    chosen: dict[Side, Policy] = policies or {"player": decide, "enemy": decide}
    end, events = play(state, chosen, log=log)
    commands = end.commands_applied - state.commands_applied
    return summarise(end, events, commands)


def random_policy(state: GameState) -> Decision:
    """A player that picks uniformly among the legal commands (a baseline for the AI); it
    never orders the withdrawal, so it always fights the battle out."""
    from ..dice import raw
    from .actions import legal_commands
    from .commands import Withdraw

    options = [c for c in legal_commands(state) if not isinstance(c, Withdraw)]
    pick = raw(state.seed, "random-player", state.commands_applied) % len(options)
    return Decision(options[pick], note="random")
