"""The core game is unchanged by rulesets (optional-rules O0.2): every recording kept in the
repository (each save and battle log under `tests/` and `docs/`, whatever folder it sits in,
so a recording added later is checked too) has the empty ruleset, names none, and replays and
rewrites to the very same bytes with the optional-rules code in place.

- A save loads with the core ruleset; written again by this version it gains no `ruleset` key
  anywhere, and one already in the current save format comes out byte for byte as recorded
  (the game's own version fields aside). One made under the current rules version replays
  from its seed and commands to the state it holds, and each command line reads and writes
  back unchanged (a core command is written without `--rules`).
- A battle log names no ruleset on any line; one of the current rules version's set
  (`tests/golden/make.py`) opens with exactly the line this version writes for its battle
  (`test_golden.py` plays its battles again to the byte).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mac_tui.combat.skirmish import make_state
from mac_tui.game import RULES_VERSION, format_command, parse_command
from mac_tui.players import battlelog
from mac_tui.save import FORMAT_VERSION, MAGIC, read_save, state_hash, to_json
from mac_tui.session import Session
from tests.golden import make

ROOT = Path(__file__).resolve().parent.parent
VERSION_FIELDS = ("game_version", "made_by")


def recordings(suffix: str) -> list[Path]:
    found = [
        *ROOT.joinpath("tests").rglob(f"*{suffix}"),
        *ROOT.joinpath("docs").rglob(f"*{suffix}"),
    ]
    return sorted(p for p in found if "__snapshots__" not in p.parts)


def _is_save(path: Path) -> bool:
    doc = json.loads(path.read_text(encoding="utf-8"))
    return isinstance(doc, dict) and doc.get("magic") == MAGIC


SAVES = [p for p in recordings(".json") if _is_save(p)]
LOGS = recordings(".jsonl")


def keys_anywhere(value: Any) -> set[str]:
    """Every key of every object inside a JSON value."""
    if isinstance(value, dict):
        return set(value).union(*(keys_anywhere(v) for v in value.values()))
    if isinstance(value, list):
        return set().union(*(keys_anywhere(v) for v in value))
    return set()


def name(path: Path) -> str:
    return str(path.relative_to(ROOT))


def test_the_recordings_are_found() -> None:
    assert len(SAVES) >= 25 and len(LOGS) >= 15  # the golden sets of every version, and more
    assert ROOT / "tests/golden/v3/campaign-year.json" in SAVES


@pytest.mark.parametrize("path", SAVES, ids=name)
def test_a_recorded_save_is_a_core_game_and_rewrites_unchanged(path: Path) -> None:
    recorded = path.read_text(encoding="utf-8")
    assert "ruleset" not in keys_anywhere(json.loads(recorded))
    save = read_save(path)
    assert save.state.ruleset == ()
    rewritten = json.loads(to_json(save))
    assert "ruleset" not in keys_anywhere(rewritten)
    if save.format == FORMAT_VERSION:
        doc = json.loads(recorded)
        for key in VERSION_FIELDS:
            rewritten[key] = doc[key]
        if "game_version" in doc.get("header", {}):
            rewritten["header"]["game_version"] = doc["header"]["game_version"]
        assert json.dumps(rewritten, indent=1, sort_keys=True) + "\n" == recorded


# made under these rules by playing (a test fixture built as a bare snapshot has no commands)
CURRENT = [p for p in SAVES if (s := read_save(p)).rules_version == RULES_VERSION and s.commands]


@pytest.mark.parametrize("path", CURRENT, ids=name)
def test_a_recorded_save_of_these_rules_replays_to_its_state(path: Path) -> None:
    save = read_save(path)
    session = Session.new(save.seed)
    for command in save.commands:
        line = command.to_text()
        assert format_command(parse_command(line)) == line
        assert session.apply(parse_command(line)).accepted, line
    assert session.state.ruleset == ()
    assert state_hash(session.state) == state_hash(save.state)


@pytest.mark.parametrize("path", LOGS, ids=name)
def test_a_recorded_battle_log_names_no_ruleset(path: Path) -> None:
    lines = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    assert lines and lines[0]["type"] == "battle"
    assert not any("ruleset" in line for line in lines)
    if path.parent == make.HERE:
        first = dict(lines[0])
        first.pop("policies", None)
        battle = make_state(first["seed"], first["difficulty"]).battle
        assert battle is not None
        assert battlelog.header(battle, first["seed"]) == first
