"""The `mac-tui` command line: version, help, and the rules tables."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from mac_tui import __version__
from mac_tui.catalog import catalog
from mac_tui.cli import main
from mac_tui.rules_view import TABLES


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "mac_tui", *args], capture_output=True, text=True, check=False
    )


def test_version() -> None:
    proc = run("--version")
    assert proc.returncode == 0
    assert proc.stdout.strip() == f"mac-tui {__version__}"


def test_help_and_version_do_not_import_textual_or_rich() -> None:
    code = (
        "import sys\n"
        "from mac_tui.cli import main\n"
        "try:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
        "bad = [m for m in ('textual', 'rich') if m in sys.modules]\n"
        "print('IMPORTED=' + ','.join(bad))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "usage: mac-tui" in proc.stdout
    assert proc.stdout.strip().splitlines()[-1] == "IMPORTED="


def test_rules_weapons_table_lists_every_weapon(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "weapons"]) == 0
    out = capsys.readouterr().out
    for weapon in catalog().weapons.values():
        assert weapon.name in out


def test_rules_weapons_json_shape(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "weapons", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    assert len(rows) == 16
    keys = {
        "name",
        "size",
        "type",
        "damage",
        "energy",
        "ammo_per_shot",
        "space",
        "range",
        "accuracy",
        "price",
        "faction",
        "exclusive",
    }
    for row in rows:
        assert keys <= set(row)
    ml = next(r for r in rows if r["name"] == "Medium Laser")
    assert (ml["size"], ml["type"], ml["damage"], ml["accuracy"], ml["range"]) == (
        "medium",
        "energy",
        10,
        80,
        "medium",
    )
    srm = next(r for r in rows if r["name"] == "Small Missile Rack")
    assert srm["faction"] == "outer_reach"
    assert isinstance(srm["price"], int)


def test_rules_chassis_json_shape(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "chassis", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    keys = {
        "designation",
        "name",
        "class",
        "faction",
        "tonnage",
        "armor",
        "reactor",
        "move_energy",
        "speed",
        "evasion",
        "space",
        "hardpoints",
        "price",
        "structure",
    }
    for row in rows:
        assert keys <= set(row)
        assert set(row["hardpoints"]) == {"small", "medium", "large"}
        assert set(row["structure"]) == {"head", "center_torso", "side_torso", "arm", "legs"}
        assert sum(row["armor_split"].values()) == row["armor"]
    scout = rows[0]
    assert scout["hardpoints"] == {"small": 4, "medium": 2, "large": 0}
    assert scout["price"] == 100000


def test_rules_equipment_json_shape(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "equipment", "--json"]) == 0
    rows = json.loads(capsys.readouterr().out)
    for row in rows:
        assert {"name", "category", "slot_size", "space", "energy", "price"} <= set(row)
    pds = next(r for r in rows if r["name"] == "Point Defense System")
    assert (pds["category"], pds["slot_size"]) == ("slot", "small")


@pytest.mark.parametrize("table", list(TABLES))
def test_every_table_prints_and_serialises(table: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", table]) == 0
    assert capsys.readouterr().out.strip()
    assert main(["rules", table, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)


def test_rules_without_table_lists_tables(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules"]) == 0
    out = capsys.readouterr().out
    assert "weapons" in out and "chassis" in out


def test_unknown_table_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["rules", "dragons"]) == 2
    assert "no table 'dragons'" in capsys.readouterr().err


def test_rules_weapons_fits_80_columns() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "mac_tui", "rules", "weapons"],
        capture_output=True,
        text=True,
        check=True,
        env={"COLUMNS": "80", "PATH": "/usr/bin:/bin"},
    )
    assert max(len(line) for line in proc.stdout.splitlines()) <= 80
    assert "Gauss Cannon (Heavy)" in proc.stdout


def test_sim_json_summary(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "--seed", "3", "--difficulty", "2", "--battles", "2", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["battles"] == 2
    assert report["wins"] + report["defeats"] + report["withdrawals"] == 2
    assert [b["seed"] for b in report["per_battle"]] == [3, 4]
    assert 0.0 <= report["hit_rate"]["player"] <= 1.0
    assert set(report["frames_lost"]) == {"player", "enemy"}


def test_sim_writes_a_log_that_opens_with_the_battle_and_ends_with_the_result(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    log = tmp_path / "b.jsonl"
    assert main(["sim", "--seed", "5", "--difficulty", "1", "--log", str(log)]) == 0
    lines = [json.loads(x) for x in log.read_text().splitlines()]
    assert lines[0]["type"] == "battle" and lines[-1]["type"] == "result"
    assert any(x["type"] == "Attacked" for x in lines)
    assert "victories" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--lance", "XX-1"], "no chassis 'XX-1'"),
        (["--battles", "0"], "at least 1"),
        (["--lance", "EN-50,EN-50,EN-50,EN-50,EN-50"], "1 to 4 frames"),
    ],
)
def test_sim_refuses_bad_arguments(
    args: list[str], message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["sim", *args]) == 2
    assert message in capsys.readouterr().err


def test_sim_lance_option(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["sim", "--seed", "2", "--lance", "sc-20,rg-55", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["battles"] == 1
