"""Saves survive new versions of the game (issue 11, item 13).

`tests/golden/v1/` holds format-1 saves (mac-tui 0.1.0, rules version 1: a year-long campaign,
a campaign in mid-battle, an open after-action report, a quick battle) and
`tests/golden/format2/`, `tests/golden/format3/` the same games in formats 2 and 3. They are
never regenerated: every version of the game must load every one of them, through the explicit
migrations, and say which version made them. Replay checks are exact under the rules version a
save was played with; a save of older rules is not replayed (the newer engine would part from
it) but named. (`tests/golden/v2/` holds the saves of rules version 2: `test_golden.py`.)
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from mac_tui import save as save_module
from mac_tui import session as session_module
from mac_tui.cli import main
from mac_tui.combat.setup import withdrawal_odds
from mac_tui.game import RULES_VERSION
from mac_tui.save import (
    FORMAT_VERSION,
    MIGRATIONS,
    V3_CONTRACT_RULE,
    SaveError,
    from_json,
    migrate,
    read_save,
    state_hash,
    to_json,
)
from mac_tui.session import Session, verify

from .savefiles import credits_edited, dumps, edited, golden_doc, rehash

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
    doc = json.loads((GOLDEN / "v1" / "campaign-mid-battle.json").read_text("utf-8"))
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
    newer = rf"x\.json: written by a newer mac-tui \(save format {FORMAT_VERSION + 1}"
    with pytest.raises(SaveError, match=newer):
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


@pytest.mark.parametrize("path", FIXTURES, ids=fixture_id)
def test_replay_verify_names_the_version_that_made_an_older_save(
    path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Rules version 2 and later play other games from these logs: `replay --verify` says who
    made each save and never reports a divergence."""
    assert RULES_VERSION >= 2
    assert main(["replay", "--verify", str(path)]) == 0
    out = capsys.readouterr().out
    fmt = json.loads(path.read_text(encoding="utf-8"))["format"]
    assert f"made by mac-tui 0.1.0 (rules version 1, save format {fmt})" in out
    assert "parts from" not in out and "differs" not in out


def test_an_edit_is_caught_under_the_current_rules() -> None:
    data = edited(golden_doc("campaign-after-action"), credits_edited)
    verdict = verify(from_json(data))
    assert not verdict.ok and verdict.checked
    n = len(golden_doc("campaign-after-action")["commands"])
    assert verdict.message == f"after all {n} commands the state differs from the snapshot"


def test_the_current_format_fixtures_are_what_the_writer_makes_of_format_1() -> None:
    """Pins the writer and the migrations: the same game in format 1, loaded and written again,
    gives the current format's fixture byte for byte (the game version aside)."""
    paths = sorted((GOLDEN / f"format{FORMAT_VERSION}").glob("*.json"))
    assert len(paths) == 4
    for path in paths:
        written = json.loads(to_json(read_save(GOLDEN / "v1" / path.name)))
        fixture = json.loads(path.read_text(encoding="utf-8"))
        written["game_version"] = fixture["game_version"]
        written["header"]["game_version"] = fixture["header"]["game_version"]
        assert json.dumps(written, indent=1, sort_keys=True) + "\n" == path.read_text("utf-8")


# ---- format 2 -> 3: the enemy's withdrawal rule on every contract (D23) ----------------------
def format2(name: str) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads((GOLDEN / "format2" / f"{name}.json").read_text("utf-8"))
    return doc


def test_format_2_contracts_get_the_rule_their_battle_uses_or_their_difficultys() -> None:
    doc = format2("campaign-mid-battle")
    migrated = MIGRATIONS[2](doc)
    assert migrated["format"] == 3 and migrated["rules_version"] == 1
    assert "enemy_withdrawal" not in json.dumps(doc)  # the document itself is not changed
    snap = migrated["snapshot"]
    fought = next(s for s in snap["battle"]["sides"] if s["side"] == "enemy")["withdrawal"]
    assert snap["campaign"]["mission"]["contract"]["enemy_withdrawal"] == fought == "never"
    for contract in snap["campaign"]["contracts"]:
        assert contract["enemy_withdrawal"] == V3_CONTRACT_RULE[contract["difficulty"]]
    # the snapshot changed and so did its hash, which matches it: the file loads
    assert migrated["snapshot_hash"] != doc["snapshot_hash"]
    assert migrated["snapshot_hash"] == rehash(migrated)["snapshot_hash"]
    save = read_save(GOLDEN / "format2" / "campaign-mid-battle.json")
    assert save.state.campaign is not None and save.state.campaign.mission is not None
    assert save.state.battle is not None
    assert save.state.campaign.mission.contract.enemy_withdrawal == (
        save.state.battle.side_info("enemy").withdrawal
    )
    # a report whose battle is gone takes its difficulty's rule
    after = migrate(format2("campaign-after-action"), 2)["snapshot"]["campaign"]["after_action"]
    assert (
        after["contract"]["enemy_withdrawal"] == V3_CONTRACT_RULE[after["contract"]["difficulty"]]
    )


def test_the_migrations_rule_was_each_difficultys_most_likely_when_format_3_came() -> None:
    """D23's odds as rules version 2 brought them; if a later rules version changes the odds,
    this test goes and `V3_CONTRACT_RULE` stays (the migration must not change)."""
    for difficulty, rule in V3_CONTRACT_RULE.items():
        odds = withdrawal_odds(difficulty)
        assert max(odds, key=lambda pair: pair[1])[0] == rule, difficulty


def test_a_damaged_format_2_snapshot_stays_refused_after_the_migration() -> None:
    doc = format2("campaign-year")
    doc["snapshot"]["campaign"]["credits"] += 1  # edited without fixing the hash
    with pytest.raises(SaveError, match=r'x\.json: field "snapshot" does not match'):
        from_json(dumps(doc), "x.json")
    # edited with the hash fixed, as a careful editor would: the migration keeps it loadable
    # (only a replay could tell, and rules version 1 saves are not replayed)
    assert read_ok(dumps(rehash(doc)))


def read_ok(data: bytes) -> bool:
    return from_json(data, "x.json").rules_version == 1


@pytest.mark.parametrize(
    "snapshot",
    [
        None,
        [],
        {"campaign": None},
        {"campaign": {"contracts": "C1"}},
        {"campaign": {"contracts": [1, None, {"difficulty": "3"}, {"difficulty": 9}]}},
        {"campaign": {"mission": {"contract": []}}, "battle": {"sides": "enemy"}},
        {"campaign": {"mission": 1}, "battle": {"sides": [{"side": "enemy", "withdrawal": 2}]}},
    ],
)
def test_the_format_3_migration_takes_any_document_without_failing(snapshot: Any) -> None:
    """A hostile format-2 file: the migration leaves what it does not understand for the load
    to refuse, with the file's name and the field."""
    doc = {**format2("campaign-year"), "snapshot": snapshot}
    migrate(doc, 2)
    with pytest.raises(SaveError, match=r"^x\.json: "):
        from_json(dumps(doc), "x.json")


# ---- format 3 -> 4: the pilots' service records (P2) ------------------------------------------
def test_format_3_pilots_get_an_empty_record_of_unknown_start() -> None:
    doc: dict[str, Any] = json.loads(
        (GOLDEN / "format3" / "campaign-mid-battle.json").read_text("utf-8")
    )
    migrated = MIGRATIONS[3](doc)
    assert migrated["format"] == 4
    assert "record" not in json.dumps(doc) and "downed_by" not in json.dumps(doc)  # unchanged
    snap = migrated["snapshot"]
    assert snap["campaign"]["pilots"]
    for pilot in snap["campaign"]["pilots"]:
        assert pilot["record"] == {
            "hired_day": None,
            "missions": 0,
            "victories": 0,
            "kills": 0,
            "injuries": 0,
            "ejections": 0,
            "frames": [],
        }
    assert all(u["downed_by"] is None for u in snap["battle"]["units"])
    # the snapshot changed and so did its hash, which matches it: the file loads
    assert migrated["snapshot_hash"] != doc["snapshot_hash"]
    assert migrated["snapshot_hash"] == rehash(migrated)["snapshot_hash"]
    state = read_save(GOLDEN / "format3" / "campaign-mid-battle.json").state
    assert state.campaign is not None
    assert all(p.record.hired_day is None for p in state.campaign.pilots)


def test_a_damaged_format_3_snapshot_stays_refused_after_the_migration() -> None:
    doc: dict[str, Any] = json.loads((GOLDEN / "format3" / "campaign-year.json").read_text("utf-8"))
    doc["snapshot"]["campaign"]["credits"] += 1  # the hash no longer matches
    with pytest.raises(SaveError, match="does not match"):
        from_json(dumps(doc), "edited.json")
