"""Saves survive new versions of the game (issue 11, item 13).

`tests/golden/v1/` holds format-1 saves (mac-tui 0.1.0: a year-long campaign, a campaign in
mid-battle, an open after-action report, a quick battle) and `tests/golden/format2/` the same
games in format 2. They are never regenerated: every version of the game must load every one
of them, through the explicit migrations, and say which version made them. Replay checks are
exact under the rules version a save was played with; a save of older rules is not replayed
(the newer engine would part from it) but named.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mac_tui import save as save_module
from mac_tui import session as session_module
from mac_tui.cli import main
from mac_tui.game import RULES_VERSION
from mac_tui.save import (
    FORMAT_VERSION,
    MIGRATIONS,
    SaveError,
    from_json,
    migrate,
    read_save,
    state_hash,
    to_json,
)
from mac_tui.session import Session, verify

from .savefiles import credits_edited, edited, golden_doc

GOLDEN = Path(__file__).parent / "golden"
FIXTURES = sorted([*GOLDEN.glob("v1/*.json"), *GOLDEN.glob("format*/*.json")])


def fixture_id(path: Path) -> str:
    return f"{path.parent.name}/{path.stem}"


def test_every_save_format_has_its_fixtures() -> None:
    formats = {json.loads(p.read_text(encoding="utf-8"))["format"] for p in FIXTURES}
    assert formats == set(range(1, FORMAT_VERSION + 1))
    assert set(MIGRATIONS) == set(range(1, FORMAT_VERSION))  # one step per older format
    for folder in {p.parent for p in FIXTURES}:
        assert sorted(p.stem for p in folder.glob("*.json")) == [
            "campaign-after-action",
            "campaign-mid-battle",
            "campaign-year",
            "skirmish-mid-battle",
        ]


@pytest.mark.parametrize("path", FIXTURES, ids=fixture_id)
def test_every_fixture_loads_for_ever(path: Path) -> None:
    doc = json.loads(path.read_text(encoding="utf-8"))
    save = read_save(path)
    assert save.format == doc["format"]
    assert save.made_by == "0.1.0" and save.rules_version == 1
    assert f"save format {doc['format']}" in save.origin()
    # every format of the same game gives the same state
    twin = read_save(GOLDEN / "v1" / path.name)
    assert state_hash(save.state) == state_hash(twin.state)
    assert save.commands == twin.commands
    verdict = verify(save)
    if save.rules_version == RULES_VERSION:
        assert verdict.ok and verdict.checked, verdict.message
    else:
        assert verdict.ok and not verdict.checked and "made by mac-tui 0.1.0" in verdict.message


def test_format_1_goes_through_its_migration_and_is_written_in_the_current_format(
    tmp_path: Path,
) -> None:
    doc = golden_doc("campaign-mid-battle")
    assert doc["format"] == 1 and "rules_version" not in doc
    migrated = migrate(doc, 1)
    assert migrated["format"] == FORMAT_VERSION
    assert (migrated["rules_version"], migrated["made_by"]) == (1, "0.1.0")
    assert doc["format"] == 1  # the document itself is not changed
    # loaded, played on and saved: the current format, the same game
    session, loaded = Session.open(GOLDEN / "v1" / "campaign-mid-battle.json")
    assert loaded.save.format == 1
    path = tmp_path / "mid.json"
    session.save(path)
    again = json.loads(path.read_text(encoding="utf-8"))
    assert again["format"] == FORMAT_VERSION and again["rules_version"] == 1
    assert state_hash(read_save(path).state) == state_hash(loaded.save.state)


def test_saves_of_newer_formats_or_rules_are_refused_with_the_reason() -> None:
    doc = json.loads((GOLDEN / "format2" / "campaign-after-action.json").read_text("utf-8"))
    with pytest.raises(SaveError, match=r"x\.json: written by a newer mac-tui \(save format 3"):
        from_json(json.dumps({**doc, "format": FORMAT_VERSION + 1}), "x.json")
    with pytest.raises(SaveError, match=r"x\.json: played under newer rules"):
        from_json(json.dumps({**doc, "rules_version": RULES_VERSION + 1}), "x.json")
    with pytest.raises(SaveError, match=r'x\.json: field "rules_version" must be a whole number'):
        from_json(json.dumps({**doc, "rules_version": "1"}), "x.json")
    with pytest.raises(SaveError, match=r'x\.json: field "made_by" must be a text'):
        from_json(json.dumps({**doc, "made_by": 1}), "x.json")


@pytest.fixture
def newer_rules(monkeypatch: pytest.MonkeyPatch) -> int:
    """This engine as a later version would be: its rules version one higher (the AI and the
    rulings changed), so the saves of today are of older rules."""
    newer = RULES_VERSION + 1
    monkeypatch.setattr(save_module, "RULES_VERSION", newer)
    monkeypatch.setattr(session_module, "RULES_VERSION", newer)
    return newer


def test_a_save_of_older_rules_says_who_made_it_instead_of_a_divergence(
    newer_rules: int, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    for folder in ("v1", "format2"):
        path = GOLDEN / folder / "campaign-year.json"
        save = read_save(path)
        assert not save.current_rules
        verdict = verify(save)
        assert verdict.ok and not verdict.checked
        assert verdict.message.startswith("made by mac-tui 0.1.0 (rules version 1, save format")
        assert f"plays rules version {newer_rules}" in verdict.message
        assert main(["replay", "--verify", str(path)]) == 0
        assert "made by mac-tui 0.1.0" in capsys.readouterr().out
    # played on by the newer engine, it keeps the rules version its log began under
    session = Session.load(GOLDEN / "v1" / "campaign-after-action.json")
    session.save(tmp_path / "later.json")
    later = json.loads((tmp_path / "later.json").read_text(encoding="utf-8"))
    assert (later["rules_version"], later["made_by"]) == (1, "0.1.0")


def test_an_edit_is_caught_under_the_current_rules() -> None:
    data = edited(golden_doc("campaign-after-action"), credits_edited)
    verdict = verify(from_json(data))
    assert not verdict.ok and verdict.checked
    n = len(golden_doc("campaign-after-action")["commands"])
    assert verdict.message == f"after all {n} commands the state differs from the snapshot"


def test_the_format_2_fixtures_are_what_the_writer_makes_of_format_1() -> None:
    """Pins the format-2 writer: the same game in format 1, loaded and written again, gives
    the fixture byte for byte (the game version aside)."""
    for path in sorted((GOLDEN / "format2").glob("*.json")):
        written = json.loads(to_json(read_save(GOLDEN / "v1" / path.name)))
        fixture = json.loads(path.read_text(encoding="utf-8"))
        written["game_version"] = fixture["game_version"]
        written["header"]["game_version"] = fixture["header"]["game_version"]
        assert json.dumps(written, indent=1, sort_keys=True) + "\n" == path.read_text("utf-8")
