"""Rulesets (optional-rules O0.1-O0.3): chosen when a game is created, kept in the state and the
save, replayed exactly; the empty ruleset is the core game, unchanged to the byte."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import attrs
import pytest

from mac_tui import ruleset as rs
from mac_tui.campaign.commands import NewCampaign
from mac_tui.catalog import catalog
from mac_tui.combat.skirmish import NewSkirmish, make_state
from mac_tui.game import Accepted, Refused, parse_command, replay, step
from mac_tui.model import initial_state
from mac_tui.save import SaveError, from_json, state_hash, state_to_data, to_json
from mac_tui.session import Session
from mac_tui.snapshot import problems


@pytest.fixture
def playable(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Pretend the engine plays O2, O3 and O5 (the modules land one by one; the mechanism
    must not wait for them)."""
    monkeypatch.setattr(rs, "PLAYABLE", frozenset({"O2", "O3", "O5"}))
    yield


def keys(data: Any) -> Iterator[str]:
    if isinstance(data, dict):
        for k, v in data.items():
            yield k
            yield from keys(v)
    elif isinstance(data, list):
        for v in data:
            yield from keys(v)


def test_the_modules_table_names_eleven_modules_and_the_o0_3_exclusions() -> None:
    cat = catalog()
    assert list(cat.modules) == [f"O{n}" for n in range(1, 12)]
    # O0.3's table: O1 excludes O2, O3, O4, O6 and O8 (the map modules), nothing else is excluded.
    pairs = {p.modules for p in cat.excluded_modules}
    assert pairs == {("O1", "O2"), ("O1", "O3"), ("O1", "O4"), ("O1", "O6"), ("O1", "O8")}
    assert all(p.reason for p in cat.excluded_modules)


@pytest.mark.usefixtures("playable")
@pytest.mark.parametrize(
    ("text", "expected"),
    [("", ()), ("core", ()), ("O2", ("O2",)), ("o3 o2", ("O2", "O3")), ("O5,O2", ("O2", "O5"))],
)
def test_a_ruleset_is_its_modules_in_module_order(text: str, expected: rs.Ruleset) -> None:
    assert rs.parse_ruleset(text) == expected
    assert rs.format_ruleset(expected) == ",".join(expected)


@pytest.mark.usefixtures("playable")
@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("O12", "no optional module O12"),
        ("O2,banana", "no optional module BANANA"),
        ("O2,O2", "a module is named twice"),
        ("O1,O2", "O1 and O2 cannot be played together: range-band battles have no map"),
        ("O4", "not playable in this version of the game: O4 Facing and arcs"),
    ],
)
def test_an_unknown_excluded_or_unplayable_ruleset_is_refused_with_the_reason(
    text: str, reason: str
) -> None:
    with pytest.raises(rs.RulesetError, match=reason):
        rs.parse_ruleset(text)
    state = initial_state(1)
    for command in (NewSkirmish(2, None, text), NewCampaign("Iron Wolves", text)):
        outcome = step(state, command)
        assert isinstance(outcome, Refused) and reason in outcome.reason


def test_each_module_alone_is_playable_exactly_when_the_engine_plays_it() -> None:
    # issue 17; 18 (O4-O7); 19 (O8, O9, O10, O11); 20 (O1)
    assert {"O1", "O2", "O3", "O4", "O5", "O6", "O7", "O8", "O9", "O10", "O11"} == rs.PLAYABLE
    for module in catalog().modules:
        reason = rs.rules_refusal(module)
        if module in rs.PLAYABLE:
            assert reason is None, module
        else:
            assert reason is not None and "not playable in this version" in reason, module


def test_the_rules_flag_is_written_only_when_a_module_is_on() -> None:
    # A core game's command lines are exactly what earlier versions wrote and read.
    assert NewSkirmish(3).to_text() == "new-skirmish 3 -"
    assert NewCampaign("Iron Wolves").to_text() == "new-campaign 'Iron Wolves'"
    assert NewSkirmish(3, "station", "O2,O3").to_text() == "new-skirmish 3 station --rules O2,O3"
    assert NewCampaign("Iron Wolves", "O3").to_text() == "new-campaign 'Iron Wolves' --rules O3"
    # and are read back, the flag anywhere after the verb (O0.1's examples)
    assert parse_command("new-skirmish 3 --rules O1") == NewSkirmish(3, None, "O1")
    assert parse_command("new-campaign 'Iron Wolves' --rules O2,O3,O4") == NewCampaign(
        "Iron Wolves", "O2,O3,O4"
    )
    assert parse_command("new-skirmish --rules O2 4 habitable") == NewSkirmish(4, "habitable", "O2")


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("new-skirmish 3 --rules", "--rules needs a value"),
        ("new-skirmish 3 --rules O2 --rules O3", "--rules given twice"),
        ("new-skirmish 3 - - -", "usage: new-skirmish DIFFICULTY LANDSCAPE [--rules RULES]"),
    ],
)
def test_a_malformed_rules_flag_is_a_syntax_error(text: str, reason: str) -> None:
    with pytest.raises(ValueError, match=reason):
        parse_command(text)


def test_the_core_game_stores_no_ruleset_anywhere() -> None:
    # O0.2: with every module off the state, its hash and its save are what they always were.
    session = Session.new(5)
    assert session.apply(NewCampaign("Iron Wolves")).accepted
    assert "ruleset" not in set(keys(state_to_data(session.state)))
    doc = json.loads(to_json(session.to_save()))
    assert "ruleset" not in doc and "ruleset" not in set(keys(doc))
    battle = make_state(5, 3)
    assert battle.ruleset == () and "ruleset" not in set(keys(state_to_data(battle)))


@pytest.mark.usefixtures("playable")
def test_a_skirmishs_ruleset_is_in_its_state_its_hash_and_its_save_and_replays() -> None:
    core = Session.new(11)
    core.apply(NewSkirmish(3, "station"))
    session = Session.new(11)
    outcome = session.apply(NewSkirmish(3, "station", "O3,O2"))
    assert isinstance(outcome, Accepted)
    assert session.state.ruleset == ("O2", "O3") and session.state.battle is not None
    assert session.state.battle.ruleset == ("O2", "O3") and session.state.battle.rule("O3")
    assert not session.state.battle.rule("O5")
    assert state_hash(session.state) != state_hash(core.state)
    text = to_json(session.to_save())
    doc = json.loads(text)
    assert doc["ruleset"] == "O2,O3" and doc["commands"] == ["new-skirmish 3 station --rules O3,O2"]
    loaded = from_json(text)
    assert loaded.state == session.state
    assert replay(11, loaded.commands) == session.state


@pytest.mark.usefixtures("playable")
def test_every_battle_of_a_campaign_is_played_under_the_campaigns_ruleset() -> None:
    state = step(initial_state(2), NewCampaign("Iron Wolves", "O2")).state  # type: ignore[union-attr]
    assert state.campaign is not None and state.campaign.ruleset == ("O2",)
    contract = state.campaign.contracts[0]
    frame = state.campaign.frames[0].id
    outcome = step(state, parse_command(f"accept {contract.id} 3 {frame}"))
    assert isinstance(outcome, Accepted), outcome
    assert outcome.state.battle is not None and outcome.state.battle.ruleset == ("O2",)


@pytest.mark.usefixtures("playable")
def test_a_save_naming_a_module_this_version_cannot_play_is_refused_naming_it() -> None:
    session = Session.new(4)
    session.apply(NewSkirmish(2, None, "O2"))
    doc = json.loads(to_json(session.to_save()))
    for ruleset, reason in [
        ("O2,O9", "not playable in this version of the game: O9"),
        ("O2,O99", "no optional module O99"),
        ("O3", 'field "ruleset" is O3 but the game\'s is O2'),
    ]:
        bad = dict(doc, ruleset=ruleset)
        with pytest.raises(SaveError, match=reason):
            from_json(json.dumps(bad), "slot1.json")
    assert from_json(json.dumps(doc)).state.ruleset == ("O2",)


@pytest.mark.usefixtures("playable")
def test_a_battle_under_other_rules_than_its_campaign_is_a_damaged_snapshot() -> None:
    state = step(initial_state(2), NewCampaign("Iron Wolves", "O2")).state  # type: ignore[union-attr]
    assert state.campaign is not None
    contract, frame = state.campaign.contracts[0], state.campaign.frames[0].id
    state = step(state, parse_command(f"accept {contract.id} 3 {frame}")).state  # type: ignore[union-attr]
    assert state.battle is not None and problems(state) == []
    mixed = attrs.evolve(state, battle=attrs.evolve(state.battle, ruleset=("O3",)))
    assert problems(mixed) == ['field "snapshot.battle.ruleset" is O3, not the campaign\'s O2']


def test_a_save_with_modules_this_version_does_not_play_is_refused(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(rs, "PLAYABLE", frozenset({"O2"}))
    session = Session.new(4)
    session.apply(NewSkirmish(2, None, "O2"))
    text = to_json(session.to_save())
    monkeypatch.setattr(rs, "PLAYABLE", frozenset())
    with pytest.raises(SaveError, match=r'slot1\.json: field "ruleset": not playable .* O2'):
        from_json(text, "slot1.json")
