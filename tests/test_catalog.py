"""The catalog loads the shipped data and refuses broken data with a precise message."""

from __future__ import annotations

import shutil
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from mac_tui.catalog import DataError, catalog, data_dir, load_catalog

from .conftest import ROOT


def test_shipped_data_loads_with_every_table() -> None:
    cat = catalog()
    assert len(cat.weapons) == 16
    assert len(cat.chassis) == 12
    assert len([e for e in cat.equipment.values() if not e.module]) == 12
    assert [e.id for e in cat.equipment.values() if e.module] == ["smoke_launcher"]  # O3.10
    assert len(cat.systems) == 11
    assert len(cat.places) == 24
    assert len(cat.galaxy.route) == 16
    assert len(cat.factions) == 3
    assert data_dir() == ROOT / "data" or (data_dir() / "weapons.toml").exists()


def test_catalog_is_loaded_once() -> None:
    assert catalog() is catalog()


def test_standing_level_lookup_covers_the_scale() -> None:
    cat = catalog()
    assert cat.standing_level(-100).id == "hostile"
    assert cat.standing_level(-51).id == "hostile"
    assert cat.standing_level(-50).id == "neutral"
    assert cat.standing_level(99).id == "neutral"
    assert cat.standing_level(100).id == "friendly"
    assert cat.standing_level(399).id == "allied"
    assert cat.standing_level(500).id == "trusted"


def test_lookups_for_galaxy() -> None:
    cat = catalog()
    assert cat.controller("junction_station") is None
    assert cat.controller("foundry_station") == "crucible"
    assert cat.arrival_place("avalon").name == "Foundry Station"
    assert cat.route("sol", "terra_nova") is cat.route("terra_nova", "sol")
    assert cat.route("sol", "rimward") is None
    assert cat.map_size(3).width == 16


Edit = Callable[[str], str]


def _broken(tmp_path: Path, file: str, edit: Edit) -> Path:
    root = tmp_path / "data"
    shutil.copytree(ROOT / "data", root)
    path = root / file
    new = edit(path.read_text())
    assert new != path.read_text(), "the edit must change the file"
    path.write_text(new)
    return root


CASES: list[tuple[str, str, Edit, tuple[str, ...]]] = [
    (
        "typo in a key",
        "weapons.toml",
        lambda t: t.replace("damage = 10\n", "damge = 10\n", 1),
        ("data/weapons.toml", 'weapon "medium_laser"', 'unknown field "damge"'),
    ),
    (
        "text where a number belongs",
        "weapons.toml",
        lambda t: t.replace("damage = 10\n", 'damage = "ten"\n', 1),
        ("data/weapons.toml", 'weapon "medium_laser"', 'field "damage"', "whole number"),
    ),
    (
        "unknown faction",
        "chassis.toml",
        lambda t: t.replace('faction = "directorate"', 'faction = "directorat"', 1),
        ("data/chassis.toml", 'chassis "RD-30"', 'field "faction"', '"directorat"'),
    ),
    (
        "number out of range",
        "weapons.toml",
        lambda t: t.replace("accuracy = 85\n", "accuracy = 185\n", 1),
        ("data/weapons.toml", 'weapon "light_laser"', 'field "accuracy"', "out of range"),
    ),
    (
        "missing field",
        "equipment.toml",
        lambda t: t.replace("space = 4\n", "", 1),
        ("data/equipment.toml", 'equipment "cooling_vents"', 'field "space"', "missing"),
    ),
    (
        "dangling system in a route",
        "galaxy.toml",
        lambda t: t.replace('b = "terra_nova"', 'b = "terra_novo"', 1),
        ("data/galaxy.toml", "route sol-terra_novo", 'field "b"'),
    ),
    (
        "dangling weapon in the starting loadout",
        "start.toml",
        lambda t: t.replace('weapon = "heavy_laser"', 'weapon = "heavy_lazer"', 1),
        ("data/start.toml", 'frame "EN-50"', 'field "weapon"', '"heavy_lazer"'),
    ),
    (
        "hardpoint that does not exist",
        "start.toml",
        lambda t: t.replace(
            'weapon = "heavy_laser", mount = "right_torso"',
            'weapon = "heavy_laser", mount = "left_arm"',
            1,
        ),
        ("data/start.toml", 'field "mount"', "no free large hardpoint"),
    ),
    (
        "gap in the component table",
        "combat.toml",
        lambda t: t.replace("low = 43\n", "low = 44\n", 1),
        ("data/combat.toml", "component", "without gaps"),
    ),
    (
        "broken TOML",
        "terrain.toml",
        lambda t: t.replace('name = "Forest"', 'name = "Forest', 1),
        ("data/terrain.toml", "not valid TOML", "line"),
    ),
    (
        "no withdrawal rule left to draw",
        "missions.toml",
        lambda t: t.replace(
            "withdrawal = { never = 0, at_50 = 0, at_25 = 1 }",
            "withdrawal = { never = 0, at_50 = 0, at_25 = 0 }",
            1,
        ),
        ("data/missions.toml", "enemy_force (entry 1)", 'field "withdrawal"', "above 0"),
    ),
    (
        "wrong kind of choice",
        "chassis.toml",
        lambda t: t.replace('class = "light"', 'class = "lite"', 1),
        ("data/chassis.toml", 'chassis "SC-20"', 'field "class"', "not one of"),
    ),
]


@pytest.mark.parametrize(("label", "file", "edit", "expected"), CASES, ids=[c[0] for c in CASES])
def test_broken_data_names_file_entry_and_field(
    tmp_path: Path, label: str, file: str, edit: Edit, expected: tuple[str, ...]
) -> None:
    root = _broken(tmp_path, file, edit)
    with pytest.raises(DataError) as info:
        load_catalog(root)
    message = str(info.value)
    for part in expected:
        assert part in message, f"{label}: {part!r} not in {message!r}"
    assert "\n" not in message


def test_missing_file_is_named(tmp_path: Path) -> None:
    root = tmp_path / "data"
    shutil.copytree(ROOT / "data", root)
    (root / "pilots.toml").unlink()
    with pytest.raises(DataError, match=r"data/pilots\.toml: the file is missing"):
        load_catalog(root)


def test_cli_reports_broken_data_without_traceback(tmp_path: Path) -> None:
    root = _broken(tmp_path, "weapons.toml", lambda t: t.replace("damage = 10\n", 'damage = "x"\n'))
    proc = subprocess.run(
        [sys.executable, "-m", "mac_tui", "rules", "weapons"],
        capture_output=True,
        text=True,
        env={"MAC_TUI_DATA": str(root), "PATH": "/usr/bin:/bin"},
        check=False,
    )
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr
    assert 'data/weapons.toml, weapon "medium_laser" (entry 5), field "damage"' in proc.stderr
    assert proc.stdout == ""
