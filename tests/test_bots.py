"""The bot API (`mac_tui.bots.api`), the reference bots built on it, and policy specs."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

from mac_tui.bots import api
from mac_tui.bots.greedy import greedy
from mac_tui.bots.random_bot import random_policy
from mac_tui.combat.commands import AutoDeploy, StartBattle
from mac_tui.combat.skirmish import make_state
from mac_tui.game import Accepted, step
from mac_tui.model import GameState
from mac_tui.players import ai
from mac_tui.players.sim import play
from mac_tui.players.specs import BUILTINS, SpecError, load_policy, parse_spec

ROOT = Path(__file__).resolve().parents[1]
BOTS = ROOT / "mac_tui" / "bots"


def started(seed: int = 3, difficulty: int = 1) -> GameState:
    state = make_state(seed, difficulty)
    for cmd in (AutoDeploy(), StartBattle()):
        out = step(state, cmd)
        assert isinstance(out, Accepted)
        state = out.state
    return state


def in_range(seed: int = 3, order: type[api.Command] = api.FireGroup) -> GameState:
    """A battle played by the greedy bot on both sides up to the first moment the acting
    frame can give a fire order (of class `order`)."""
    state = started(seed)
    for _ in range(200):
        if api.legal_commands(state, (order,)):
            return state
        out = step(state, greedy(state).command)
        assert isinstance(out, Accepted)
        state = out.state
    raise AssertionError("nobody came within range")


# ---- the reference bots use the public API only ---------------------------------------------
def imports_of(path: Path) -> set[str]:
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: resolve against mac_tui.bots
                base = ".".join(["mac_tui", "bots"][: 3 - node.level] + ([base] if base else []))
            found.update(f"{base}.{a.name}" if base == "mac_tui.bots" else base for a in node.names)
    return found


@pytest.mark.parametrize("bot", ["greedy.py", "random_bot.py"])
def test_reference_bots_import_only_the_public_api(bot: str) -> None:
    of_mac_tui = {m for m in imports_of(BOTS / bot) if m.split(".")[0] == "mac_tui"}
    assert of_mac_tui == {"mac_tui.bots.api"}
    others = {m for m in imports_of(BOTS / bot) if m.split(".")[0] != "mac_tui"}
    assert others <= {"__future__"}


def test_the_import_check_sees_a_private_import(tmp_path: Path) -> None:
    sneaky = tmp_path / "sneaky.py"
    sneaky.write_text("from mac_tui.bots import api\nfrom ..combat import stats\n")
    assert "mac_tui.combat" in imports_of(sneaky)


def test_every_promised_name_exists() -> None:
    missing = [name for name in api.__all__ if not hasattr(api, name)]
    assert missing == []
    assert api.API_VERSION == 1


# ---- the API's answers -----------------------------------------------------------------------
def test_frames_and_positions_are_read_only_copies_of_the_battle() -> None:
    state = started()
    battle = state.battle
    assert battle is not None
    views = api.frames(state)
    assert [f.id for f in views] == [u.id for u in battle.units]
    assert {f.side for f in api.frames(state, "enemy")} == {"enemy"}
    for view, unit in zip(views, battle.units, strict=True):
        assert view.hex == unit.pos and view.alive == unit.active
        assert view.total_armor == unit.total_armor
        assert list(view.armor) == list(api.LOCATIONS)
    me = api.acting(state)
    assert me is not None and battle.active_unit is not None
    assert me.id == battle.active_unit.id and me.ap == battle.active_unit.ap
    foes = api.enemies(state)
    assert foes and all(f.side != me.side for f in foes)
    assert me.hex is not None
    distances = [api.distance(me.hex, f.hex) for f in foes if f.hex is not None]
    assert distances == sorted(distances)
    width, height = api.map_size(state)
    assert (width, height) == (battle.map.width, battle.map.height)
    assert api.on_map(state, me.hex) and api.terrain(state, me.hex) == "open"
    assert api.cover(state, me.hex) == 0
    assert api.round_number(state) == 1


def test_previews_agree_with_the_engine() -> None:
    state = in_range()
    fires = [c for c in api.legal_commands(state) if isinstance(c, api.FireGroup)]
    moves = [c for c in api.legal_commands(state) if isinstance(c, api.Move)]
    assert fires and moves
    for cmd in fires:
        preview = api.fire_preview(state, cmd)
        assert preview.refusal is None and api.refusal(state, cmd) is None
        assert api.expected_damage(state, cmd) == pytest.approx(preview.expected)
        for w in preview.firing:
            assert w.chance is not None
            assert w.chance.chance == max(5, min(95, sum(m.value for m in w.chance.modifiers)))
    assert all(api.move_preview(state, m).refusal is None for m in moves)
    assert {m.hex for m in moves} == set(api.reach(state))
    assert api.to_act(state).unit == api.acting(state).id  # type: ignore[union-attr]


def test_forecast_of_fire_orders_agrees_with_the_preview() -> None:
    assert api.FORECAST_AVAILABLE
    state = in_range()
    fires = [c for c in api.legal_commands(state) if isinstance(c, api.FireGroup)]
    assert fires
    for cmd in fires:
        f = api.forecast(state, cmd)
        assert f.target == cmd.target
        assert set(f.p_destroyed) == set(api.LOCATIONS)
        assert 0.0 <= f.p_frame_destroyed <= f.p_destroyed["center_torso"] <= 1.0
        assert f.p_out == pytest.approx(f.p_frame_destroyed + f.p_pilot_killed)
        # the mean damage landed is the preview's expected damage while the target can
        # take the whole group (it cannot go down here, in the first round)
        if f.p_out == 0.0:
            assert f.expected_damage == pytest.approx(api.expected_damage(state, cmd))
    state = in_range(order=api.CalledShot)
    called = api.legal_commands(state, (api.CalledShot,))[0]
    assert isinstance(called, api.CalledShot)
    assert api.forecast(state, called).chances[0].called == called.location
    with pytest.raises(ValueError):
        api.forecast(state, api.FireGroup(99, fires[0].target))


def test_draw_is_a_pure_function_of_the_state() -> None:
    state = started()
    assert api.draw(state) == api.draw(state)
    assert api.draw(state, "a") != api.draw(state, "b")


@pytest.mark.parametrize("bot", [greedy, random_policy])
def test_reference_bots_play_legal_commands_to_the_end(bot: api.Policy) -> None:
    state = make_state(11, 1)
    end, _ = play(state, {"player": bot, "enemy": ai.decide})
    assert end.battle is not None and end.battle.phase == "over"


def test_greedy_fires_its_best_group_at_the_nearest_enemy_when_it_can() -> None:
    state = started()
    for _ in range(200):
        me = api.acting(state)
        if me is None:
            break
        decision = greedy(state)
        cmd = decision.command
        foes = api.enemies(state)
        shots = [
            c
            for c in api.legal_commands(state)
            if isinstance(c, api.FireGroup) and foes and c.target == foes[0].id
        ]
        best = max((api.expected_damage(state, c) for c in shots), default=0.0)
        if best > 0:
            assert isinstance(cmd, api.FireGroup) and cmd.target == foes[0].id
            assert api.expected_damage(state, cmd) == best
        else:
            assert isinstance(cmd, api.Move | api.EndActivation)
        out = step(state, cmd)
        assert isinstance(out, Accepted)
        state = out.state


# ---- specs -----------------------------------------------------------------------------------
def test_specs_parse_names_parameters_and_files() -> None:
    assert parse_spec("greedy").label == "greedy"
    spec = parse_spec(" ai:tactics=4 ")
    assert (spec.name, spec.params, spec.label) == ("ai", (("tactics", "4"),), "ai:tactics=4")
    file_spec = parse_spec("bots/mine.py:play")
    assert (file_spec.path, file_spec.function) == ("bots/mine.py", "play")
    assert set(BUILTINS) == {"ai", "ai-v1", "greedy", "random"}
    assert load_policy("greedy") is greedy and load_policy("random") is random_policy
    assert callable(load_policy("ai:tactics=3")) and callable(load_policy("ai-v1"))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("", "empty policy spec"),
        ("clever", "unknown policy 'clever': choose from ai, ai-v1, greedy, random"),
        ("ai:tactics", "parameters are KEY=VALUE, not 'tactics'"),
        ("ai:tactics=x", "tactics must be a whole number, not 'x'"),
        ("ai:tactics=99", "tactics must be 0 to 10, not 99"),
        ("ai:speed=2", "ai has no parameter 'speed' (it takes: tactics)"),
        ("greedy:depth=2", "greedy has no parameter 'depth' (it takes: none)"),
        ("ai:tactics=2,tactics=3", "tactics given twice"),
        ("mine.py", "name the policy function too, as mine.py:FUNCTION"),
        ("mine.py:not-a-name", "'not-a-name' is not a function name"),
    ],
)
def test_bad_specs_are_refused_in_one_line(text: str, message: str) -> None:
    with pytest.raises(SpecError) as caught:
        load_policy(text)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


BOT_FILE = """\
from mac_tui.bots import api

COUNT = 3

def closer(state):
    \"\"\"Move toward the nearest enemy, else end the activation.\"\"\"
    me = api.acting(state)
    legal = api.legal_commands(state)
    if me is None:
        return legal[0]  # a bare command is fine too
    foes = api.enemies(state)
    moves = [c for c in legal if isinstance(c, api.Move)]
    if foes and moves:
        best = min(moves, key=lambda c: (api.distance(c.hex, foes[0].hex), c.to_text()))
        return api.Decision(best, note="closer")
    return api.Decision(api.EndActivation())

def broken(state):
    return 42
"""


@pytest.mark.parametrize(
    ("function", "message"),
    [
        ("nothing", "no function 'nothing' (it defines: broken, closer)"),
        ("COUNT", "'COUNT' is a int, not a function"),
    ],
)
def test_a_bot_file_with_a_wrong_function_is_refused(
    tmp_path: Path, function: str, message: str
) -> None:
    bot = tmp_path / "bot.py"
    bot.write_text(BOT_FILE)
    with pytest.raises(SpecError) as caught:
        load_policy(f"{bot}:{function}")
    assert str(caught.value) == f"{bot}: {message}"


def test_a_missing_or_broken_bot_file_is_refused(tmp_path: Path) -> None:
    with pytest.raises(SpecError, match="no such file"):
        load_policy(f"{tmp_path / 'nope.py'}:play")
    bad = tmp_path / "bad.py"
    bad.write_text("def play(state):\n    return (\n")
    with pytest.raises(SpecError, match="cannot load it: SyntaxError"):
        load_policy(f"{bad}:play")


def test_a_bot_answering_neither_decision_nor_command_is_named(tmp_path: Path) -> None:
    bot = tmp_path / "bot.py"
    bot.write_text(BOT_FILE)
    policy = load_policy(f"{bot}:broken")
    with pytest.raises(TypeError, match=r"bot.py:broken returned int, not a Decision"):
        policy(started())


def test_sim_plays_a_bot_from_a_file_end_to_end(tmp_path: Path) -> None:
    bot = tmp_path / "bot.py"
    bot.write_text(BOT_FILE)
    log = tmp_path / "battle.jsonl"
    args = ["--seed", "4", "--difficulty", "1", "--json", "--log", str(log)]
    proc = subprocess.run(
        [sys.executable, "-m", "mac_tui", "sim", *args, "--player-policy", f"{bot}:closer"],
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path,
    )
    report = json.loads(proc.stdout)
    assert report["policies"] == {"player": f"{bot}:closer", "enemy": "ai"}
    lines = [json.loads(x) for x in log.read_text().splitlines()]
    assert lines[0]["policies"] == {"player": f"{bot}:closer", "enemy": "ai"}
    notes = {x["note"] for x in lines if x["type"] == "AiDecision" and x["side"] == "player"}
    assert "closer" in notes


SIM_ARGS = "--seed 2 --difficulty 1 --json --battles 2 --player-policy greedy --enemy-policy random"


def test_sim_policy_flags_end_to_end() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "mac_tui", "sim", *SIM_ARGS.split()],
        capture_output=True,
        text=True,
        check=True,
    )
    report = json.loads(proc.stdout)
    assert report["policies"] == {"player": "greedy", "enemy": "random"}
    assert report["battles"] == 2
    bad = subprocess.run(
        [sys.executable, "-m", "mac_tui", "sim", "--enemy-policy", "ai:depth=3"],
        capture_output=True,
        text=True,
    )
    assert bad.returncode == 2
    assert bad.stderr.strip().splitlines() == [
        "mac-tui sim: ai:depth=3: ai has no parameter 'depth' (it takes: tactics)"
    ]


def test_the_example_bot_of_docs_bots_md_plays_a_duel(tmp_path: Path) -> None:
    text = (ROOT / "docs" / "bots.md").read_text(encoding="utf-8")
    example = text.split("```python\n", 1)[1].split("```", 1)[0]
    bot = tmp_path / "skirmisher.py"
    bot.write_text(example)
    assert {m for m in imports_of(bot) if m.startswith("mac_tui")} == {"mac_tui.bots.api"}
    from mac_tui.players.duel import Setup, run_duel

    games = run_duel(Setup(f"{bot}:skirmisher", "random", 1, maps=("small",)))
    assert len(games) == 2 and all(g.rounds >= 1 for g in games)


@pytest.mark.parametrize(
    "only",
    [
        (api.FireGroup, api.Move),
        (api.CalledShot,),
        (api.Sprint, api.Brace, api.EndActivation),
        (api.AutoDeploy, api.StartBattle),
    ],
)
def test_asking_for_some_classes_gives_exactly_those_of_the_full_list(
    only: tuple[type[api.Command], ...],
) -> None:
    state = make_state(5, 3)
    for _ in range(40):
        full = api.legal_commands(state)
        assert api.legal_commands(state, only) == [c for c in full if isinstance(c, only)]
        if api.to_act(state).side is None:
            break
        out = step(state, random_policy(state).command)
        assert isinstance(out, Accepted)
        state = out.state
