"""`mac-tui lab` (mac_tui/lab/, docs/lab.md): experiments, the store, the executors (a process
pool and Dask distributed on a LocalCluster started here), reports, mods layered over the
rules tables."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
import sys
from pathlib import Path
from typing import Any

import pytest

from mac_tui.catalog import DataError, catalog, installed_catalog, load_catalog
from mac_tui.cli import main
from mac_tui.lab import experiment, report, runs
from mac_tui.lab.experiment import ExperimentError
from mac_tui.lab.runs import catalog_for, end_kind
from mac_tui.lab.store import Store

from .conftest import ROOT

BATTLES = """
name = "tiny"
kind = "battle"
seeds = 2
[fixed]
b = "greedy"
difficulty = 1
[axes]
a = ["greedy", "random"]
"""


def lab(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(["lab", *argv])
    out = capsys.readouterr()
    return code, out.out, out.err


def stored(db: Path) -> list[tuple[Any, ...]]:
    """The rows that must not depend on the executor: everything but timing and when."""
    with sqlite3.connect(db) as con:
        return con.execute(
            "SELECT key, kind, config, seed, metrics FROM runs ORDER BY key"
        ).fetchall()


@pytest.fixture
def battles(tmp_path: Path) -> Path:
    path = tmp_path / "tiny.toml"
    path.write_text(BATTLES, encoding="utf-8")
    return path


# ---- the acceptance: pool and Dask give the same rows; a finished sweep replays nothing --------
def test_pool_and_dask_give_identical_rows_and_a_rerun_plays_nothing(
    battles: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from distributed import LocalCluster

    pool_db, dask_db = tmp_path / "pool.sqlite", tmp_path / "dask.sqlite"
    code, out, err = lab(capsys, "run", str(battles), "--db", str(pool_db), "--jobs", "2")
    assert code == 0, err
    assert "played 4 run(s) with 2 job(s)" in err
    assert "A wins" in out and "a=greedy" in out and "damage per battle by weapon" in out

    with LocalCluster(
        n_workers=1, threads_per_worker=1, processes=True, dashboard_address=None
    ) as cluster:
        address = cluster.scheduler_address
        code, _, err = lab(
            capsys, "run", str(battles), "--db", str(dask_db), "--scheduler", address
        )
        assert code == 0, err
        assert f"played 4 run(s) on {address}" in err
        code, _, err = lab(
            capsys, "run", str(battles), "--db", str(dask_db), "--scheduler", address
        )
        assert "played 0 run(s)" in err and "4 already stored" in err

    rows = stored(pool_db)
    assert len(rows) == 4
    assert rows == stored(dask_db)
    code, _, err = lab(capsys, "run", str(battles), "--db", str(pool_db), "--jobs", "1")
    assert code == 0 and "played 0 run(s)" in err


def test_more_seeds_play_only_the_new_runs_and_report_needs_no_replay(
    battles: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, _, err = lab(capsys, "run", str(battles), "--jobs", "1", "--no-charts")
    assert code == 0 and "played 4 run(s)" in err
    assert battles.with_suffix(".sqlite").exists()  # the default store sits beside the file
    code, _, err = lab(capsys, "run", str(battles), "--jobs", "1", "--seeds", "3", "--no-charts")
    assert code == 0 and "played 2 run(s)" in err and "4 already stored" in err
    code, out, _ = lab(capsys, "report", str(battles), "--seeds", "3", "--json")
    assert code == 0
    doc = json.loads(out)
    assert doc["runs"] == {"planned": 6, "stored": 6}
    assert [c["runs"] for c in doc["cells"]] == [3, 3]
    greedy = doc["cells"][0]
    assert greedy["cell"] == {"a": "greedy"}
    wins = greedy["win_rate"]["a"]
    assert wins["of"] == 3 and wins["low"] <= wins["rate"] <= wins["high"]
    assert set(greedy["damage_per_battle"]) == {"a", "b"}
    # the store alone knows the experiment: no file needed
    code, out, _ = lab(
        capsys, "report", "--db", str(battles.with_suffix(".sqlite")), "--name", "tiny", "--json"
    )
    assert code == 0 and json.loads(out)["runs"]["stored"] == 6  # as last run: 3 seeds


def test_every_row_replays_to_itself(battles: Path, capsys: pytest.CaptureFixture[str]) -> None:
    db = battles.with_suffix(".sqlite")
    lab(capsys, "run", str(battles), "--jobs", "1", "--seeds", "1")
    with Store(db) as store:
        keys = sorted(store.done_keys(r.key for r in experiment.load(battles).runs()))
    code, out, _ = lab(capsys, "repeat", keys[0][:10], "--db", str(db))
    assert code == 0 and "same metrics as the stored row" in out
    with sqlite3.connect(db) as con:  # a tampered row no longer matches what its run gives
        con.execute("UPDATE runs SET metrics = '{\"rounds\": -1}' WHERE key = ?", (keys[0],))
    code, out, _ = lab(capsys, "repeat", keys[0], "--db", str(db))
    assert code == 1 and "DIFFERENT" in out


def test_csv_has_a_line_per_run(battles: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out_csv = battles.parent / "runs.csv"
    lab(capsys, "run", str(battles), "--jobs", "1", "--csv", str(out_csv), "--no-charts")
    lines = list(csv.DictReader(io.StringIO(out_csv.read_text(encoding="utf-8"))))
    assert len(lines) == 4
    assert {line["a"] for line in lines} == {"greedy", "random"}
    assert {"key", "seed", "winner", "rounds", "frames_lost_a", "pilots_lost_b"} <= set(lines[0])


# ---- campaigns ---------------------------------------------------------------------------------
def test_campaign_sweep_measures_survival_money_missions_and_pilots(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    db = tmp_path / "camp.sqlite"
    code, out, err = lab(
        capsys,
        *("run", "--kind", "campaign", "--name", "camp", "--set", "days=12"),
        *("--axis", "strategy=sensible,reckless", "--seeds", "1", "--db", str(db), "--json"),
    )
    assert code == 0, err
    doc = json.loads(out)
    cells = {c["label"]: c for c in doc["cells"]}
    assert set(cells) == {"strategy=sensible", "strategy=reckless"}
    for c in cells.values():
        assert c["runs"] == 1 and c["days"] == 12
        assert c["survived"]["of"] == 1
        assert c["by_month"][0]["day"] == 1 and c["by_month"][0]["median_credits"] == 500_000
        assert c["credits_end"]["start"] == catalog().start.company.credits
        assert c["missions_per_run"] >= 1
        assert sum(c["missions_by_difficulty"].values()) == c["missions_per_run"]

    # the reckless company takes harder contracts than the sensible one
    def hardest(c: dict[str, Any]) -> int:
        return max(int(d) for d in c["missions_by_difficulty"])

    assert hardest(cells["strategy=reckless"]) >= hardest(cells["strategy=sensible"])
    code, out, _ = lab(capsys, "report", "--db", str(db))
    assert code == 0
    assert "companies alive by day" in out and "median credits by day" in out
    assert "pilots" in out and "by month" in out


def test_end_causes_are_grouped_without_their_figures() -> None:
    assert end_kind(
        "no frame can deploy (the cheapest fix costs 100,000), with 1 credits in hand"
    ) == ("no frame can deploy")
    assert (
        end_kind("credits stayed below zero for 30 days") == "credits stayed below zero for 30 days"
    )


# ---- experiments that cannot run say why -------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('kind = "war"', "kind: 'war' is not one of: battle, campaign"),
        ("[axes]\nspeed = [1]", "a battle has no 'speed'"),
        ('[axes]\na = ["ai", "chess"]', "unknown policy 'chess'"),
        ("[axes]\ndifficulty = [0, 1]", "difficulty must be 1 to 5, not 0"),
        ('[fixed]\nlandscape = "moon"', "no landscape 'moon'"),
        ("seeds = 0", "seeds: must be 1 to"),
        ('[axes]\na = ["ai", "ai"]', "axes.a: lists a value twice"),
        ('kind = "campaign"\n[fixed]\nstrategy = "bold"', "no strategy 'bold'"),
        ('[fixed]\ndata = "nowhere"', "is not a folder of data files"),
    ],
)
def test_a_bad_experiment_names_file_key_and_value(
    tmp_path: Path, text: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "bad.toml"
    path.write_text(text + "\n", encoding="utf-8")
    with pytest.raises(ExperimentError, match=str(path)) as caught:
        experiment.load(path)
    assert message in str(caught.value)
    code, _, err = lab(capsys, "run", str(path))
    assert code == 2 and message in err and "Traceback" not in err


def test_scheduler_without_the_lab_extra_says_how_to_get_it(
    battles: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setitem(sys.modules, "distributed", None)  # import distributed fails
    code, _, err = lab(capsys, "run", str(battles), "--scheduler", "tcp://127.0.0.1:1")
    assert code == 2
    assert "pip install 'mac-tui[lab]'" in err and "no module distributed" in err


# ---- mods --------------------------------------------------------------------------------------
def write_mod(folder: Path, weapons: str) -> Path:
    folder.mkdir(exist_ok=True)
    (folder / "weapons.toml").write_text(weapons, encoding="utf-8")
    return folder


def test_a_mod_changes_fields_of_a_row_and_adds_rows(tmp_path: Path) -> None:
    base = installed_catalog()
    laser = base.weapons["medium_laser"]
    mod = write_mod(
        tmp_path / "mod",
        '[[weapon]]\nid = "medium_laser"\ndamage = 11\n',
    )
    modded = load_catalog(mods=[mod])
    assert modded.weapons["medium_laser"].damage == 11
    assert modded.weapons["medium_laser"].range == laser.range  # untouched fields stay
    assert list(modded.weapons) == list(base.weapons)
    assert catalog() is base  # loading a mod puts nothing in force


def test_a_new_row_is_added_at_the_end(tmp_path: Path) -> None:
    base = installed_catalog()
    text = (base.root / "weapons.toml").read_text(encoding="utf-8")
    first = text[text.index("[[weapon]]") : text.index("[[weapon]]", text.index("[[weapon]]") + 1)]
    copy = first.replace(f'id = "{next(iter(base.weapons))}"', 'id = "copied_gun"', 1)
    modded = load_catalog(mods=[write_mod(tmp_path / "mod", copy)])
    assert list(modded.weapons)[-1] == "copied_gun"
    assert len(modded.weapons) == len(base.weapons) + 1


@pytest.mark.parametrize(
    ("text", "where", "problem"),
    [
        (
            '[[weapon]]\nid = "medium_laser"\ndamage = "ten"\n',
            'weapon "medium_laser"',
            'field "damage"',
        ),
        ("[[weapon]]\ndamage = 3\n", "weapon entry 1", 'needs its "id"'),
        ('[[weapon]]\nid = "new_gun"\ndamage = 3\n', 'weapon "new_gun"', "is missing"),
    ],
)
def test_a_broken_mod_names_its_file_row_and_field(
    tmp_path: Path, text: str, where: str, problem: str, capsys: pytest.CaptureFixture[str]
) -> None:
    mod = write_mod(tmp_path / "mod", text)
    with pytest.raises(DataError) as caught:
        load_catalog(mods=[mod])
    message = str(caught.value)
    assert str(mod / "weapons.toml") in message and where in message and problem in message
    code, _, err = lab(capsys, "mod", str(mod))
    assert code == 2 and str(mod / "weapons.toml") in err and "Traceback" not in err


def test_a_file_the_game_does_not_read_is_refused(tmp_path: Path) -> None:
    mod = write_mod(tmp_path / "mod", "")
    (mod / "weapon.toml").write_text("", encoding="utf-8")
    with pytest.raises(DataError, match=r"weapon\.toml: is not a rules table"):
        load_catalog(mods=[mod])


def test_the_lab_measures_a_mod_beside_the_base_game(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    mod = write_mod(tmp_path / "hot", '[[weapon]]\nid = "medium_laser"\ndamage = 30\n')
    code, out, _ = lab(capsys, "mod", str(mod))
    assert code == 0 and "weapons: added none; changed medium_laser" in out
    db = tmp_path / "mod.sqlite"
    args = ("run", "--set", "a=greedy", "--set", "difficulty=1", "--seeds", "2", "--db", str(db))
    code, out, err = lab(capsys, *args, "--data", str(mod), "--jobs", "2", "--json")
    assert code == 0, err
    doc = json.loads(out)
    base, hot = doc["cells"]
    assert base["cell"] == {"data": ""} and hot["cell"] == {"data": str(mod.resolve())}

    def per_hit(cell: dict[str, Any]) -> set[float]:
        return {cell["damage_per_battle"][w].get("medium_laser", 0) for w in "ab"}

    assert per_hit(base) != per_hit(hot)
    assert catalog() is installed_catalog()  # the lab's process is back on the base game
    # a changed mod is a new set of runs; the base game's rows are kept
    write_mod(mod, '[[weapon]]\nid = "medium_laser"\ndamage = 2\n')
    code, _, err = lab(capsys, *args, "--data", str(mod), "--jobs", "1", "--no-charts")
    assert code == 0 and "played 2 run(s)" in err and "2 already stored" in err


def test_catalog_for_switches_and_restores(tmp_path: Path) -> None:
    mod = write_mod(tmp_path / "mod", '[[weapon]]\nid = "medium_laser"\ndamage = 12\n')
    with catalog_for(str(mod)) as cat:
        assert catalog() is cat and cat.weapons["medium_laser"].damage == 12
    assert catalog() is installed_catalog()


# ---- report pieces -----------------------------------------------------------------------------
def test_campaign_stats_from_hand_made_rows() -> None:
    def row(survived: bool, credits: int, end_day: int, missions: list[int]) -> dict[str, Any]:
        return {
            "metrics": {
                "survived": survived,
                "end_day": end_day,
                "ended": None if survived else "no frame can deploy",
                "credits": credits,
                "start_credits": 100,
                "reputation": 5,
                "missions": len(missions),
                "pilots_lost": 1,
                "pilots_hired": 0,
                "months": [{"day": 1, "credits": 100, "reputation": 0}],
                "mission_log": [
                    {"day": 20 * i + 5, "difficulty": d} for i, d in enumerate(missions)
                ],
            }
        }

    rows = [row(True, 300, 61, [1, 2, 4]), row(True, 100, 61, [1]), row(False, 0, 20, [5])]
    stats = report.campaign_stats(rows, days=60)
    assert stats["survived"]["count"] == 2 and stats["survived"]["of"] == 3
    assert stats["ended"] == {"no frame can deploy": 1}
    assert stats["credits_end"]["p50"] == 100 and stats["credits_end"]["p90"] == 300
    assert stats["pilots_lost_per_mission"] == round(3 / 5, 3)
    assert stats["missions_by_difficulty"] == {1: 2, 2: 1, 4: 1, 5: 1}
    assert stats["second_half_d4_plus"]["count"] == 1  # the d4 on day 45; d5 was on day 5
    assert [m["alive"]["count"] for m in stats["by_month"]] == [3, 2]


@pytest.mark.parametrize("path", sorted((ROOT / "docs" / "experiments").glob("*.toml")), ids=str)
def test_the_shipped_experiments_are_valid(path: Path) -> None:
    loaded = experiment.load(path)
    assert loaded.name == path.stem and loaded.runs()


def test_bench_lab_prints_its_three_figures(capsys: pytest.CaptureFixture[str]) -> None:
    from mac_tui.bench import main as bench_main

    assert bench_main(["lab", "--seeds", "1", "--ai-seeds", "1"]) == 0
    out = capsys.readouterr().out
    assert "greedy vs greedy: 6 battles" in out and "battles/s/core (target >= 50)" in out
    assert "ai vs ai: 6 battles" in out
    assert "lab overhead: 6 greedy runs" in out and "(target <= 5%)" in out
    assert "lab bookkeeping outside the runs" in out


def test_values_derived_from_the_catalog_follow_a_switch(tmp_path: Path) -> None:
    from mac_tui.catalog import per_catalog

    calls: list[int] = []

    @per_catalog
    def laser_damage() -> int:
        calls.append(1)
        return catalog().weapons["medium_laser"].damage

    base = laser_damage()
    assert laser_damage() == base and len(calls) == 1  # cached
    mod = write_mod(tmp_path / "mod", '[[weapon]]\nid = "medium_laser"\ndamage = 13\n')
    with catalog_for(str(mod)):
        assert laser_damage() == 13
    assert laser_damage() == base and len(calls) == 3


def test_report_before_any_run_says_so(battles: Path, capsys: pytest.CaptureFixture[str]) -> None:
    Store(battles.with_suffix(".sqlite")).close()
    code, out, _ = lab(capsys, "report", str(battles))
    assert code == 0 and "0/4 runs stored" in out and "no run of this experiment" in out


def test_a_runs_key_names_the_rules_version(monkeypatch: pytest.MonkeyPatch) -> None:
    """A store made under older rules is not reused: the key hashes `RULES_VERSION` too."""
    config = {"strategy": "sensible", "days": 30, "data": ""}
    key = experiment.run_key("campaign", config, 1)
    assert key == experiment.run_key("campaign", dict(config), 1)
    monkeypatch.setattr(experiment, "RULES_VERSION", experiment.RULES_VERSION + 1)
    assert experiment.run_key("campaign", config, 1) != key


def test_a_runs_key_names_the_code_that_plays_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """A store made by other code (another autopilot, AI or rule) is not reused: the key
    hashes the digest of the code and tables that play a run, which the screens and servers
    do not enter."""
    config = {"strategy": "sensible", "days": 30, "data": ""}
    key = experiment.run_key("campaign", config, 1)
    digest = runs.code_digest()
    assert len(digest) == 16 and digest == runs.code_digest()
    monkeypatch.setattr(experiment, "code_digest", lambda: "0" * 16)
    assert experiment.run_key("campaign", config, 1) != key


def test_the_code_digest_follows_the_played_code_not_the_screens(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    package = tmp_path / "mac_tui"
    for name in ("players/autopilot.py", "tui/app.py", "lab/runs.py"):
        (package / name).parent.mkdir(parents=True, exist_ok=True)
        (package / name).write_text(f"# {name}\n")
    data = tmp_path / "data"
    data.mkdir()
    (data / "economy.toml").write_text("upkeep = 1\n")
    monkeypatch.setattr(runs, "__file__", str(package / "lab" / "runs.py"))
    monkeypatch.setattr(runs, "data_dir", lambda: data)

    def digest() -> str:
        runs.code_digest.cache_clear()
        return runs.code_digest()

    try:
        first = digest()
        (package / "tui" / "app.py").write_text("# a screen changed\n")
        assert digest() == first
        (package / "players" / "autopilot.py").write_text("# the strategy changed\n")
        second = digest()
        assert second != first
        (data / "economy.toml").write_text("upkeep = 2\n")
        assert digest() != second
    finally:
        runs.code_digest.cache_clear()  # the real package's digest again for later tests
