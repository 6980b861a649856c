"""Rulesets in the tools (optional-rules O0.1, O0.3, O0.7): `--rules` of `mac-tui sim`, `duel`,
`skirmish` and `play`, the lab's `rules` axis, the battle log's `ruleset` field, and the rules
reference's optional modules and module tables (read from a module's own data file)."""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from mac_tui import ruleset as rs
from mac_tui.bots import api
from mac_tui.catalog import catalog, data_dir, load_catalog, use_catalog
from mac_tui.cli import main
from mac_tui.combat.skirmish import make_state
from mac_tui.lab.experiment import AXES, ExperimentError, build, run_key
from mac_tui.lab.runs import battle_setup
from mac_tui.players import aibench, battlelog
from mac_tui.players.autorun import autoplay
from mac_tui.players.duel import Match, Setup
from mac_tui.rules_view import TABLES, all_tables, module_tables, rows


@pytest.fixture
def playable(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Pretend the engine plays O2 and O3 (they land on their own branches)."""
    monkeypatch.setattr(rs, "PLAYABLE", frozenset({"O2", "O3"}))
    yield


# ---- the command line ------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("command", "rules", "why"),
    [
        ("sim", "O1,O2", "O1 and O2 cannot be played together: range-band battles have no map"),
        ("duel", "O12", "no optional module O12"),
        ("skirmish", "O4", "not playable in this version of the game: O4 Facing and arcs"),
        ("play", "O2,o2", "a module is named twice"),
    ],
)
def test_a_refused_ruleset_is_refused_with_its_reason(
    command: str, rules: str, why: str, playable: None, capsys: pytest.CaptureFixture[str]
) -> None:
    args = [command, *(["ai", "greedy"] if command == "duel" else []), "--rules", rules]
    assert main(args) == 2
    err = capsys.readouterr().err
    assert err.startswith(f"mac-tui {command}: --rules {rules}: ")
    assert why in err


def test_sim_plays_under_the_ruleset_and_logs_it(
    playable: None, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "o2.jsonl"
    assert main(["sim", "--rules", "o3 o2", "--difficulty", "1", "--log", str(log), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["rules"] == "O2,O3"
    first = json.loads(log.read_text(encoding="utf-8").splitlines()[0])
    assert first["type"] == "battle" and first["ruleset"] == "O2,O3"


def test_sim_of_the_core_game_names_no_ruleset(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "core.jsonl"
    assert main(["sim", "--difficulty", "1", "--landscape", "mining", "--log", str(log)]) == 0
    assert "rules" not in capsys.readouterr().out
    lines = [json.loads(line) for line in log.read_text(encoding="utf-8").splitlines()]
    assert lines[0]["landscape"] == "mining"
    assert not any("ruleset" in line for line in lines)


def test_sim_refuses_an_unknown_landscape(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "--landscape", "moon"]) == 2
    assert "no landscape 'moon'" in capsys.readouterr().err


def test_a_bot_reads_the_rules_of_its_battle(playable: None) -> None:
    assert api.rules(make_state(3, 1)) == ()
    assert api.rules(make_state(3, 1, ruleset=("O2", "O3"))) == ("O2", "O3")


def test_the_battle_log_names_the_ruleset_only_when_there_is_one(playable: None) -> None:
    core = make_state(3, 1).battle
    optional = make_state(3, 1, ruleset=("O2",)).battle
    assert core is not None and optional is not None
    assert "ruleset" not in battlelog.header(core, 3)
    assert battlelog.header(optional, 3)["ruleset"] == "O2"


@pytest.mark.parametrize("difficulty", [None, 2])
def test_a_duel_plays_both_kinds_of_match_under_its_ruleset(
    playable: None, difficulty: int | None
) -> None:
    setup = Setup(a="greedy", b="greedy", seeds=1, difficulty=difficulty, rules=("O3",))
    battle = setup.start(Match(1, "small")).battle
    assert battle is not None and battle.ruleset == ("O3",)


# ---- the lab -------------------------------------------------------------------------------------
def test_the_lab_takes_rules_as_an_axis_in_one_written_form(playable: None) -> None:
    experiment = build(
        {
            "kind": "battle",
            "seeds": 1,
            "fixed": {"b": "greedy", "a": "greedy", "map": "small"},
            "axes": {"rules": ["core", "o2", "O3+O2"]},
        },
        source="test",
    )
    assert [c["rules"] for c in experiment.cells()] == ["", "O2", "O2,O3"]
    assert [battle_setup(c).rules for c in experiment.cells()] == [(), ("O2",), ("O2", "O3")]


def test_a_lab_ruleset_that_cannot_be_played_names_the_reason(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(rs, "PLAYABLE", frozenset())  # a version that plays no module yet
    with pytest.raises(ExperimentError) as caught:
        build({"kind": "campaign", "axes": {"rules": ["", "O2"]}}, source="x.toml")
    message = str(caught.value)
    assert message.startswith("x.toml: axes.rules, item 2: rules 'O2': not playable")


def test_the_core_games_runs_keep_their_keys() -> None:
    """A run without optional rules hashes as it did before the axis existed."""
    config = {**AXES["battle"], "data_hash": ""}
    before = {k: v for k, v in config.items() if k != "rules"}
    assert run_key("battle", config, 7) == run_key("battle", before, 7)
    assert run_key("battle", {**config, "rules": "O2"}, 7) != run_key("battle", config, 7)


def test_an_autopilot_campaign_is_created_under_its_rules(playable: None) -> None:
    run = autoplay(4, days=0, missions=0, rules=("O2", "O3"))
    assert run.lines[0] == "new-campaign 'Autopilot Company' --rules O2,O3"
    assert run.state.campaign is not None and run.state.ruleset == ("O2", "O3")


# ---- the rules reference ---------------------------------------------------------------------
def test_the_modules_table_lists_every_module_with_what_excludes_it(playable: None) -> None:
    cat = catalog()
    table = rows(cat, "modules")
    assert [r["module"] for r in table] == [f"O{n}" for n in range(1, 12)]
    by_id = {r["module"]: r for r in table}
    assert {m for m, r in by_id.items() if r["playable"]} == {"O2", "O3"}
    for pair in cat.excluded_modules:
        a, b = pair.modules
        assert b in by_id[a]["excluded_with"] and a in by_id[b]["excluded_with"]
    assert by_id["O5"]["excluded_with"] == []
    assert by_id["O2"]["name"] == cat.modules["O2"].name
    assert by_id["O2"]["summary"] == cat.modules["O2"].summary


@pytest.fixture
def module_data(tmp_path: Path) -> Iterator[Path]:
    """A copy of the rules tables where O5 has a data file of made-up numbers and O7 names
    one that is not there, put in force."""
    root = tmp_path / "data"
    shutil.copytree(data_dir(), root)
    modules = (root / "modules.toml").read_text(encoding="utf-8")
    for module, file in (("O5", "fire.toml"), ("O7", "missing.toml")):
        # in place of the module's own file, when it has one
        modules = re.sub(f'(id = "{module}"\nname = "[^"]*"\n)data = "[^"]*"\n', r"\1", modules)
        modules = modules.replace(f'id = "{module}"\n', f'id = "{module}"\ndata = "{file}"\n')
    (root / "modules.toml").write_text(modules, encoding="utf-8")
    (root / "fire.toml").write_text(
        'note = "made up"\n\n[[landscape]]\nid = "hills"\nrule = "O5.2"\nlevels = [50, 30, 20]\n\n'
        '[[landscape]]\nid = "flat"\nrule = "O5.2"\nlevels = [90, 10, 0]\n\n'
        '[fall]\nrule = "O5.8"\ndamage = 5\n',
        encoding="utf-8",
    )
    previous = use_catalog(load_catalog(root))
    yield root
    use_catalog(previous)


def test_a_modules_own_file_gives_tables_of_its_own(module_data: Path) -> None:
    cat = catalog()
    tables = module_tables(cat)
    assert [t for t in tables if t.startswith(("o5", "o7"))] == ["o5-landscape", "o5"]
    assert tables["o5-landscape"][0] == "O5 Movement and fire: landscape"
    assert tables["o5"][0] == "O5 Movement and fire, data/fire.toml"
    assert rows(cat, "o5-landscape") == [
        {"id": "hills", "rule": "O5.2", "levels": [50, 30, 20]},
        {"id": "flat", "rule": "O5.2", "levels": [90, 10, 0]},
    ]
    assert rows(cat, "o5") == [
        {"section": "", "rule_id": "", "rule": "note", "setting": "made up"},
        {"section": "fall", "rule_id": "O5.8", "rule": "damage", "setting": 5},
    ]
    assert list(all_tables(cat))[: len(TABLES)] == list(TABLES)  # the core game's first
    assert list(TABLES)[-1] == "modules"


def test_mac_tui_rules_prints_the_modules_and_their_tables(
    module_data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["rules"]) == 0
    listing = capsys.readouterr().out
    assert "modules" in listing and "o5-landscape" in listing
    assert main(["rules", "o5-landscape", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)[0]["id"] == "hills"
    assert main(["rules", "modules"]) == 0
    printed = capsys.readouterr().out
    assert "Range-band battles" in printed and "O11" in printed


def test_a_lab_row_of_rules_no_longer_playable_is_refused_on_repeat(
    playable: None,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    db = tmp_path / "lab.sqlite"
    flags = ["--set", "a=greedy", "--set", "b=greedy", "--set", "difficulty=1"]
    assert main(["lab", "run", *flags, "--set", "rules=O2", "--seeds", "1", "--jobs", "1",
                 "--db", str(db)]) == 0  # fmt: skip
    with sqlite3.connect(db) as con:
        ((key, config),) = con.execute("SELECT key, config FROM runs").fetchall()
    assert json.loads(config)["rules"] == "O2"
    capsys.readouterr()
    monkeypatch.setattr(rs, "PLAYABLE", frozenset())
    assert main(["lab", "repeat", key, "--db", str(db)]) == 2
    assert "rules 'O2': not playable in this version" in capsys.readouterr().err


def test_bench_ai_plays_every_game_under_its_rules(playable: None) -> None:
    bench = aibench.Bench("greedy", {"difficulty": 1}, 1, False, ("O2",))
    lines = bench.difficulty(1, "difficulty", 1)
    assert lines and all(x.command.endswith("--rules O2") for x in lines)
    assert [s.rules for s in bench.runs] == [("O2",)]


def test_bench_ai_refuses_rules_it_cannot_play(capsys: pytest.CaptureFixture[str]) -> None:
    from mac_tui.bench import main as bench_main

    assert bench_main(["ai", "--rules", "O1,O3"]) == 2
    assert "O1 and O3 cannot be played together" in capsys.readouterr().out
