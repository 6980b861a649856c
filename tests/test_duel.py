"""`mac-tui duel` (players/duel.py), its report, and `python -m mac_tui.bench ai`."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from mac_tui.bench import main as bench_main
from mac_tui.cli import main
from mac_tui.players.duel import (
    CoverTally,
    GameResult,
    Match,
    Setup,
    cover_use,
    mirror_lance,
    percentile,
    play_match,
    report,
    run_duel,
    wilson,
    without_timing,
)


# ---- Wilson intervals, against hand-computed values -------------------------------------------
@pytest.mark.parametrize(
    ("k", "n", "low", "high"),
    [
        # p = 1/2, n = 10: centre 0.5, half-width 1.96*sqrt(0.025 + 0.0096)/1.3841 = 0.2634
        (5, 10, 0.2366, 0.7634),
        # k = 0: [0, z^2/n / (1 + z^2/n)] = [0, 0.38415/1.38415]
        (0, 10, 0.0, 0.2775),
        (10, 10, 0.7225, 1.0),
        # p = 0.81, n = 100: centre (0.81 + 0.019207)/1.038415 = 0.798532,
        # half 1.96*sqrt(0.001539 + 0.000096)/1.038415 = 0.076321
        (81, 100, 0.7222, 0.8749),
        # 1 of 1: [1/(1 + z^2), 1]
        (1, 1, 0.2065, 1.0),
    ],
)
def test_wilson_interval_matches_hand_computed_values(
    k: int, n: int, low: float, high: float
) -> None:
    got = wilson(k, n)
    assert got == pytest.approx((low, high), abs=1e-4)


def test_wilson_with_no_trials_says_nothing() -> None:
    assert wilson(0, 0) == (0.0, 1.0)


def test_percentile_is_nearest_rank() -> None:
    values = [float(v) for v in range(1, 21)]  # 1..20
    assert percentile(values, 0.95) == 19.0
    assert percentile(values, 1.0) == 20.0
    assert percentile([], 0.95) == 0.0


def tally(activations: int, in_cover: int, chance: float) -> GameResult:
    return GameResult(
        seed=1,
        map="small",
        swapped=False,
        winner=None,
        result="withdrawal",
        reason="",
        rounds=1,
        withdrew=None,
        frames_lost=(0, 0),
        pilots_lost=(0, 0),
        activation_ms=((), ()),
        activation_cpu_ms=((), ()),
        cover=(CoverTally(activations, in_cover, chance), CoverTally()),
    )


def test_cover_use_compares_ending_in_cover_with_the_mean_share_within_reach() -> None:
    # 20 activations with cover in reach, 6 ended in it; the shares of cover sum to 3.0
    c = cover_use([tally(10, 4, 2.0), tally(10, 2, 1.0)], "a")
    assert c["activations"] == 20
    assert c["ended_in_cover"]["rate"] == 0.3
    assert c["chance"] == 0.15
    assert c["ratio"] == 2.0
    low, high = wilson(6, 20)
    assert c["ratio_low"] == round(low / 0.15, 3) and c["ratio_high"] == round(high / 0.15, 3)
    assert cover_use([], "b")["ratio"] == 0.0


# ---- the games ---------------------------------------------------------------------------------
def test_mirror_matches_field_the_same_lance_on_both_sides() -> None:
    assert mirror_lance(7, 4) == mirror_lance(7, 4)
    assert len(mirror_lance(7, 4)) == 4 and mirror_lance(7, 2) == mirror_lance(7, 4)[:2]
    setup = Setup("greedy", "random", 1, maps=("small",), frames=2)
    state = setup.start(Match(7, "small"))
    assert state.battle is not None
    player = state.battle.side_units("player")
    enemy = state.battle.side_units("enemy")
    assert [(u.chassis, u.weapons, u.pilot, u.stance) for u in player] == [
        (u.chassis, u.weapons, u.pilot, u.stance) for u in enemy
    ]
    assert (state.battle.map.width, state.battle.map.height) == (12, 10)
    assert all(s.withdrawal == "never" and s.ai for s in state.battle.sides)
    assert setup.start(Match(7, "small", swapped=True)) == state  # only the seats change


def test_the_same_policy_on_both_sides_wins_exactly_half() -> None:
    """Swapping the sides on the same map and forces replays the very same game, so a policy
    against itself wins each seed's pair once (a draw twice)."""
    setup = Setup("greedy", "greedy", 2, maps=("small",))
    games = run_duel(setup)
    assert len(games) == 4
    for first, second in zip(games[::2], games[1::2], strict=True):
        assert (first.seed, first.swapped, second.swapped) == (second.seed, False, True)
        assert first.rounds == second.rounds and first.reason == second.reason
        assert {first.winner, second.winner} in ({"a", "b"}, {None})
        assert first.frames_lost == second.frames_lost[::-1]


def test_a_duel_is_deterministic_and_independent_of_the_number_of_jobs() -> None:
    setup = Setup("greedy", "random", 1, maps=("small", "medium"), cover=True, log=True)
    one = run_duel(setup, jobs=1)
    two = run_duel(setup, jobs=2)
    assert [g.key() for g in one] == [g.key() for g in two]
    assert without_timing(report(setup, one)) == without_timing(report(setup, two))
    assert [g.log for g in one] == [g.log for g in two]
    assert one[0].log and json.loads(one[0].log[0])["policies"] == {
        "player": "greedy",
        "enemy": "random",
    }
    # the report says who won and how, per game and in total
    doc = report(setup, one)
    assert doc["battles"] == 4
    assert doc["wins"]["a"] + doc["wins"]["b"] + doc["draws"] == 4
    assert set(doc["by_map"]) == {"small", "medium"}
    assert doc["decision_ms"]["a"]["activations"] > 0
    assert doc["cover"]["a"]["activations"] >= doc["cover"]["a"]["ended_in_cover"]["count"]


def test_difficulty_mode_plays_the_starting_lance_against_the_difficulty() -> None:
    setup = Setup("greedy", "ai", 1, difficulty=1)
    (game,) = [play_match(setup, m) for m in setup.matches()]
    assert (game.map, game.swapped) == ("small", False)
    state = setup.start(Match(1, "small"))
    assert state.battle is not None
    assert [u.label for u in state.battle.side_units("player")] == ["Ghost", "Falcon"]
    if game.winner is None:
        assert game.result == "withdrawal"
    else:
        assert game.winner == ("a" if game.result == "victory" else "b")


# ---- the command line --------------------------------------------------------------------------
def test_duel_json_through_the_command_line(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["duel", "greedy", "random", "--seeds", "1", "--map", "small", "--jobs", "1"]
    assert main([*args, "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert (doc["a"], doc["b"], doc["battles"], doc["mode"], doc["lance"]) == (
        "greedy",
        "random",
        2,
        "mirror",
        2,
    )
    assert [g["a_side"] for g in doc["games"]] == ["player", "enemy"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "greedy (A) vs random (B): 2 battles" in out and "ms/activation" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["ai", "nope"], "unknown policy 'nope'"),
        (["ai", "greedy", "--map", "huge"], "--map must be small, medium, large or all"),
        (["ai", "greedy", "--frames", "5"], "--frames must be 1 to 4"),
        (["ai", "greedy", "--frames", "2", "--lance", "EN-50"], "not both"),
        (["ai", "greedy", "--lance", "XX-1"], "no chassis 'XX-1'"),
        (["ai", "greedy", "--difficulty", "9"], "difficulty must be 1 to 5"),
        (["ai", "greedy", "--difficulty", "2", "--map", "small"], "--map follows --difficulty"),
        (["ai", "greedy", "--seeds", "0"], "--seeds must be at least 1"),
    ],
)
def test_duel_refuses_bad_arguments(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["duel", *args]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1


def test_a_failing_bot_stops_the_duel_with_where_it_failed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    bot = tmp_path / "bot.py"
    bot.write_text("def play(state):\n    raise RuntimeError('lost my way')\n")
    assert main(["duel", f"{bot}:play", "random", "--seeds", "1", "--map", "small"]) == 1
    err = capsys.readouterr().err
    assert "seed 1, small map" in err and "RuntimeError: lost my way" in err


def test_duel_in_a_subprocess_with_two_jobs_and_a_log(tmp_path: Path) -> None:
    log = tmp_path / "duel.jsonl"
    args = "greedy random --seeds 1 --map small --jobs 2 --json --log"
    proc = subprocess.run(
        [sys.executable, "-m", "mac_tui", "duel", *args.split(), str(log)],
        capture_output=True,
        text=True,
        check=True,
    )
    assert json.loads(proc.stdout)["battles"] == 2
    headers = [json.loads(x) for x in log.read_text().splitlines() if '"type":"battle"' in x]
    assert [h["policies"] for h in headers] == [
        {"player": "greedy", "enemy": "random"},
        {"player": "random", "enemy": "greedy"},
    ]


def test_bench_ai_runs_a_tiny_sample_and_prints_every_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    # every target, one seed each, the greedy bot under test (the fastest policy)
    args = ["ai", "--seeds", "1", "--jobs", "1", "--policy", "greedy"]
    assert bench_main(args) == 0  # never fails
    out = capsys.readouterr().out
    for what in (
        "vs greedy, 2 frames, small map",
        "vs greedy, 4 frames, large map",
        "vs random",
        "vs ai-v1, 4 frames",
        "difficulty 1",
        "difficulty 5",
        "ends in cover",
        "p95",
        "worst",
    ):
        assert what in out
    assert "$ mac-tui duel greedy random --frames 2 --map all --seeds 1" in out
    assert "$ mac-tui duel greedy ai --difficulty 1 --seeds 1" in out
    verdicts = [line.split()[0] for line in out.splitlines() if line and not line[0].isspace()]
    assert len(verdicts) == 16 and verdicts[-1] == "--"  # greedy under test: no info rows
    assert set(verdicts[:-1]) <= {"PASS", "FAIL", "PASS?", "FAIL?", "info"}


def test_bench_ai_refuses_an_unknown_target(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_main(["ai", "--only", "greedy,speed"]) == 2
    assert "no target speed" in capsys.readouterr().out


def test_bench_ai_measures_strength_at_full_skill_and_shows_the_pilots_as_flown() -> None:
    from mac_tui.players import aibench

    assert aibench.full_skill("ai") == "ai:tactics=6"
    assert aibench.full_skill("ai:tactics=3") == "ai:tactics=3"  # named: measured as named
    assert aibench.full_skill("greedy") == "greedy"
    # a cell passes only when it passes overall and in each seat
    assert aibench._worst(["PASS", "PASS?", "PASS"]) == "PASS?"
    assert aibench._worst(["PASS", "PASS", "FAIL?"]) == "FAIL?"
    lines = aibench.measure(["greedy"], policy="ai", seeds={"greedy": 1}, jobs=1)
    strength = [x for x in lines if x.verdict != "info"]
    flown = [x for x in lines if x.verdict == "info"]
    assert len(strength) == len(flown) == 6  # 2 and 4 frames on each map size
    assert all(x.what.startswith("ai:tactics=6 vs greedy") for x in strength)
    assert all(
        "--map" in x.command and x.command.startswith("mac-tui duel ai:tactics=6") for x in strength
    )
    assert all(x.what.startswith("ai vs greedy") and x.goal == "-" for x in flown)
    assert all("as enemy" in x.what and "goal" not in x.what for x in lines)
    times = aibench.measure(["time"], policy="ai", seeds={"time": 1}, jobs=1)
    # a target as flown and at full skill (difficulty 5's enemies decide with the full planner)
    assert [x.goal for x in times] == ["<= 20 ms", "<= 50 ms"] * 2
    assert all(x.verdict in ("PASS", "FAIL") for x in times)
    assert times[0].what.startswith("ai: ") and times[2].what.startswith("ai:tactics=6: ")
