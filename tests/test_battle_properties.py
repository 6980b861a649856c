"""Properties of whole battles (§1, §2, §5, R6, R13): random legal play, refusals that change
nothing, invariants, the AI's choices, determinism, and the AI's strength.

Random play: from `make_state(seed, difficulty)` hypothesis draws indices into
`legal_commands`; every such command must be accepted. Between them it draws a command from a
broader candidate set that is *not* legal; that one must be refused and leave the state as it
was (R6). After every accepted command the state must stay within the rules' bounds.
"""

from __future__ import annotations

import copy
import json
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import attrs
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from mac_tui.bots.random_bot import random_policy
from mac_tui.catalog import LOCATION_ORDER, catalog
from mac_tui.combat import stats
from mac_tui.combat.commands import (
    AutoDeploy,
    Brace,
    CalledShot,
    Deploy,
    EndActivation,
    FireGroup,
    Move,
    Overwatch,
    ResetDeployment,
    Sprint,
    StartBattle,
    UseEquipment,
    Vent,
    Withdraw,
)
from mac_tui.combat.legal import legal_commands
from mac_tui.combat.skirmish import make_state
from mac_tui.combat.state import Battle, Side
from mac_tui.game import Accepted, Command, Refused, refusal, step
from mac_tui.hexgrid import Hex, within
from mac_tui.model import GameState
from mac_tui.players.ai import decide
from mac_tui.players.policy import Decision, Policy
from mac_tui.players.sim import play, run_battle

ROOT = Path(__file__).resolve().parents[1]
CAT = catalog()
ACTIVE_GEAR = sorted(e.id for e in CAT.equipment.values() if e.category == "active")
PROPERTY = settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)


def bat(state: GameState) -> Battle:
    assert state.battle is not None
    return state.battle


# --- the candidate commands -----------------------------------------------------------------
def candidates(state: GameState) -> list[Command]:
    """A broad set of well-formed commands for this moment, legal or not: every verb, with
    frames of both sides and a frame that does not exist, groups 0-5, hexes near the acting
    frame, in and out of the deployment zones and off the map."""
    battle = bat(state)
    ids = [u.id for u in battle.units] + ["nobody"]
    bmap = battle.map
    hexes: set[Hex] = {Hex(-1, 0), Hex(0, -1), Hex(bmap.width + 3, 0), Hex(0, bmap.height)}
    hexes.update(bmap.deployment_hexes("player")[::3])
    hexes.update(bmap.deployment_hexes("enemy")[::5])
    hexes.update(u.pos for u in battle.units if u.pos is not None)
    active = battle.active_unit
    if active is not None and active.pos is not None:
        hexes.update(within(active.pos, 9))
    out: list[Command] = [
        StartBattle(),
        AutoDeploy(),
        ResetDeployment(),
        Brace(),
        Vent(),
        EndActivation(),
        Withdraw(),
    ]
    for uid in ids:
        out.extend(
            Deploy(uid, x) for x in sorted(hexes) if x in set(bmap.deployment_hexes("player"))
        )
        out.append(Deploy(uid, Hex(5, 5)))
    for x in sorted(hexes):
        out += [Move(x), Sprint(x), UseEquipment("thrust_pack", None, x)]
    for group in range(6):
        out.append(Overwatch(group))
        for uid in ids:
            out.append(FireGroup(group, uid))
            out.extend(CalledShot(group, uid, loc) for loc in (*LOCATION_ORDER, "tail"))
    for item in (*ACTIVE_GEAR, "cooling_vents"):
        out.append(UseEquipment(item))
        out.extend(UseEquipment(item, uid) for uid in ids)
    return out


# --- invariants ---------------------------------------------------------------------------
def check_invariants(before: GameState, after: GameState) -> None:
    old, new = bat(before), bat(after)
    for u in new.units:
        assert u.ap >= 0 and u.energy_used >= 0 and u.stress >= 0 and u.barrier >= 0, u
        assert u.ap <= CAT.combat.rounds.action_points
        assert all(a >= 0 for a in u.armor), u.armor
        assert all(s >= 0 for s in u.structure), u.structure
        assert all(w.ammo >= 0 for w in u.weapons), u.weapons
        prev = old.unit(u.id)
        if u.energy_used > prev.energy_used:
            # Whatever was spent came out of the 150% budget the frame had (§5.3).
            assert u.energy_used <= stats.overload_limit(prev), (u.id, u.energy_used)
    acting = new.active_unit
    if new.phase == "combat":
        assert acting is not None
        assert acting.active and acting.ap > 0 and not acting.shutdown
        assert acting.id in new.order
    else:
        assert acting is None
    if new.phase == "over":
        assert new.result in ("victory", "defeat", "withdrawal")
        assert legal_commands(after) == []
    assert new.round <= CAT.combat.rounds.round_limit


def texts(commands: list[Command]) -> set[str]:
    return {c.to_text() for c in commands}


@PROPERTY
@given(
    seed=st.integers(0, 2**32),
    difficulty=st.integers(1, 5),
    data=st.data(),
)
def test_random_legal_play(seed: int, difficulty: int, data: st.DataObject) -> None:
    play_randomly(make_state(seed, difficulty, player_ai=False), data)


def play_randomly(state: GameState, data: st.DataObject) -> None:
    """Random legal and illegal orders from `state` (a battle waiting for its deployment),
    checking the refusals, the legal list and the invariants at every step."""
    deploy_steps = data.draw(st.integers(0, 5), label="deployment steps")
    combat_steps = 45
    for n in range(deploy_steps + combat_steps):
        battle = bat(state)
        if battle.phase == "over":
            break
        if n == deploy_steps and battle.phase == "deployment":
            for cmd in (AutoDeploy(), StartBattle()):
                out = step(state, cmd)
                state = out.state if isinstance(out, Accepted) else state
            assert bat(state).phase != "deployment"
            continue
        legal = legal_commands(state)
        assert legal, "a battle under way always has something to do"
        legal_texts = texts(legal)
        assert len(legal_texts) == len(legal), "legal commands are listed once"

        # `game.refusal` (no stepping) agrees with the legal list on every candidate...
        for c in candidates(state):
            assert (refusal(state, c) is None) == (c.to_text() in legal_texts), c.to_text()

        # A command that is not legal is refused and changes nothing (R6)...
        illegal = [c for c in candidates(state) if c.to_text() not in legal_texts]
        pick = illegal[data.draw(st.integers(0, len(illegal) - 1), label="illegal")]
        before = copy.deepcopy(state)
        refused = step(state, pick)
        assert isinstance(refused, Refused), f"{pick.to_text()} is not legal but was accepted"
        assert refused.reason
        assert state == before
        # ...with the very reason `refusal` gives.
        assert refusal(state, pick) == refused.reason

        # The AI's choice is always one of the legal commands.
        if battle.phase == "combat" and n % 3 == 0:
            assert decide(state).command.to_text() in legal_texts

        command = legal[data.draw(st.integers(0, len(legal) - 1), label="legal")]
        out = step(state, command)
        assert isinstance(out, Accepted), f"{command.to_text()}: {getattr(out, 'reason', '')}"
        assert out.state.commands_applied == state.commands_applied + 1
        check_invariants(state, out.state)
        state = out.state


def checked(policy: Policy) -> Policy:
    """The policy, asserting before each choice that it is legal and that the state is sane."""

    def run(state: GameState) -> Decision:
        decision = policy(state)
        assert decision.command.to_text() in texts(legal_commands(state))
        return decision

    return run


@settings(max_examples=4, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), difficulty=st.integers(1, 5))
def test_ai_decisions_are_always_legal(seed: int, difficulty: int) -> None:
    # A whole battle of AI decisions for both sides; the wrapper checks every one.
    end, _ = play(
        make_state(seed, difficulty), {"player": checked(decide), "enemy": checked(decide)}
    )
    assert bat(end).phase == "over"


# --- determinism ----------------------------------------------------------------------------
def ai_battle(seed: int, difficulty: int) -> tuple[GameState, list[str]]:
    log: list[str] = []
    end, _ = play(make_state(seed, difficulty), {"player": decide, "enemy": decide}, log=log)
    return end, log


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), difficulty=st.integers(1, 5))
def test_same_seed_same_battle(seed: int, difficulty: int) -> None:
    first_state, first_log = ai_battle(seed, difficulty)
    second_state, second_log = ai_battle(seed, difficulty)
    assert first_state == second_state
    assert first_log == second_log
    assert json.loads(first_log[-1])["type"] == "result"


def without_seed(log: list[str]) -> list[Any]:
    records = [json.loads(line) for line in log]
    records[0].pop("seed")
    return records


@settings(max_examples=3, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31), delta=st.integers(1, 2**31), difficulty=st.integers(1, 5))
def test_different_seeds_different_battles(seed: int, delta: int, difficulty: int) -> None:
    _, a = ai_battle(seed, difficulty)
    _, b = ai_battle(seed + delta, difficulty)
    assert without_seed(a) != without_seed(b)


def test_same_log_in_separate_processes(tmp_path: Path) -> None:
    # Two fresh interpreters with different hash seeds, and this one, write the same bytes.
    files = []
    for hash_seed in ("1", "2"):
        path = tmp_path / f"log{hash_seed}.jsonl"
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        subprocess.run(
            [
                sys.executable,
                "-m",
                "mac_tui",
                "sim",
                "--seed",
                "7",
                "--difficulty",
                "4",
                "--log",
                str(path),
            ],
            check=True,
            cwd=ROOT,
            env=env,
            capture_output=True,
        )
        files.append(path.read_bytes())
    assert files[0] == files[1]
    log: list[str] = []
    run_battle(7, 4, log=log, names={"player": "ai", "enemy": "ai"})  # sim names the policies
    assert files[0] == ("\n".join(log) + "\n").encode("utf-8")
    assert json.loads(log[0])["seed"] == 7
    assert json.loads(log[0])["policies"] == {"player": "ai", "enemy": "ai"}


# --- the AI is a real opponent --------------------------------------------------------------
SEEDS = range(40)  # at least 90% wins over 40 seeds (20 left one seed's luck to decide it)


def fight_to_the_end(state: GameState) -> GameState:
    """Both sides on "never" (§10.4), so the result measures the fighting and not the
    enemy's randomly drawn retreat threshold."""
    battle = bat(state)
    player, enemy = (attrs.evolve(s, withdrawal="never") for s in battle.sides)
    sides = (player, enemy)
    return attrs.evolve(state, battle=attrs.evolve(battle, sides=sides))


def results(ai_side: Side, difficulty: int, prepare: Callable[[GameState], GameState]) -> list[str]:
    other: Side = "enemy" if ai_side == "player" else "player"
    out = []
    for seed in SEEDS:
        policies: dict[Side, Policy] = {ai_side: decide, other: random_policy}
        end, _ = play(prepare(make_state(seed, difficulty)), policies)
        out.append(str(bat(end).result))
    return out


def test_ai_as_the_player_beats_random_play() -> None:
    got = results("player", 2, fight_to_the_end)
    assert got.count("victory") >= 36, got


def test_ai_as_the_enemy_beats_random_play() -> None:
    got = results("enemy", 2, fight_to_the_end)
    assert got.count("defeat") >= 36, got


EVERY_HEX_MODULE = ("O2", "O3", "O4", "O5", "O6", "O7", "O8", "O9", "O10", "O11")
EVERY_TRACK_MODULE = ("O1", "O5", "O7", "O9", "O10", "O11")  # O1 with all it combines with


@settings(PROPERTY, max_examples=5)
@given(
    seed=st.integers(0, 2**32),
    difficulty=st.integers(1, 5),
    track=st.booleans(),
    data=st.data(),
)
def test_random_legal_play_with_every_module_together(
    seed: int, difficulty: int, track: bool, data: st.DataObject
) -> None:
    """O0.3: the modules together (every hex module, or O1 with every module it combines
    with): the same checks as the core game's random play, the AI's choices among them."""
    rules = EVERY_TRACK_MODULE if track else EVERY_HEX_MODULE
    play_randomly(make_state(seed, difficulty, player_ai=False, ruleset=rules), data)
