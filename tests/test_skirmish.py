"""The quick battle (`new-skirmish`, `mac-tui skirmish`): a standalone battle that saves and
replays like a campaign."""

from __future__ import annotations

from pathlib import Path

import pytest

from mac_tui.cli import main
from mac_tui.combat.legal import legal_commands
from mac_tui.combat.skirmish import NewSkirmish
from mac_tui.game import Accepted, parse_command, replay, step
from mac_tui.model import initial_state
from mac_tui.players.ai import decide
from mac_tui.save import state_hash
from mac_tui.session import Session, header_for


def new_skirmish(seed: int, difficulty: int, landscape: str | None = None) -> Session:
    session = Session.new(seed)
    outcome = session.apply(NewSkirmish(difficulty, landscape))
    assert isinstance(outcome, Accepted), outcome
    return session


def test_skirmish_sets_up_the_starting_lance_against_the_difficulty_force() -> None:
    session = new_skirmish(7, 5, "station")
    battle = session.state.battle
    assert battle is not None and session.state.campaign is None
    assert battle.phase == "deployment" and battle.landscape == "station"
    # setup-facts.md: the starting lance is an Enforcer flown by Ghost and a Raider flown by
    # Falcon, not yet placed.
    players = battle.side_units("player")
    assert [(u.label, u.pos) for u in players] == [("Ghost", None), ("Falcon", None)]
    # §16.1 difficulty 5: a heavy and an assault frame, already in their zone (§6.3).
    enemies = battle.side_units("enemy")
    assert len(enemies) == 2 and all(battle.map.is_deployment(u.pos, "enemy") for u in enemies)
    # §6.1: difficulty 5 fights on the largest map, 20x14.
    assert (battle.map.width, battle.map.height) == (20, 14)
    # The player commands their own side; the enemy is the AI's.
    assert not battle.side_info("player").ai and battle.side_info("enemy").ai


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("new-skirmish 0", "difficulty must be 1 to 5, not 0"),
        ("new-skirmish 6", "difficulty must be 1 to 5, not 6"),
        ("new-skirmish 2 moon", "no landscape 'moon'"),
    ],
)
def test_bad_skirmish_settings_are_refused_with_a_reason(text: str, reason: str) -> None:
    state = initial_state(3)
    outcome = step(state, parse_command(text))
    assert not outcome.accepted and reason in (outcome.reason or "")


def test_a_skirmish_needs_a_new_game() -> None:
    session = new_skirmish(3, 1)
    again = session.apply(NewSkirmish(1))
    assert not again.accepted and "already under way" in (again.reason or "")
    campaign = Session.new(3)
    assert campaign.apply(parse_command("new-campaign Wolves")).accepted
    assert not campaign.apply(NewSkirmish(1)).accepted


def test_the_same_seed_gives_the_same_battle_and_a_played_skirmish_replays() -> None:
    a, b = new_skirmish(11, 3), new_skirmish(11, 3)
    assert state_hash(a.state) == state_hash(b.state)
    assert state_hash(new_skirmish(12, 3).state) != state_hash(a.state)
    # Play it to the end with the AI on both sides, as auto-resolve does.
    for _ in range(5000):
        battle = a.state.battle
        assert battle is not None
        if battle.phase == "over":
            break
        assert a.apply(decide(a.state).command).accepted
    assert a.state.battle is not None and a.state.battle.phase == "over"
    assert a.state.battle.result in ("victory", "defeat", "withdrawal")
    assert legal_commands(a.state) == []
    assert state_hash(replay(a.seed, a.commands)) == state_hash(a.state)


def test_a_skirmish_save_says_what_it_is(tmp_path: Path) -> None:
    session = new_skirmish(5, 2)
    header = header_for(session.state)
    assert header["kind"] == "skirmish" and header["date"] == "deployment"
    assert header["company"] == "Quick battle (difficulty 2)"
    path = tmp_path / "s.json"
    session.save(path)
    loaded = Session.load(path)
    assert state_hash(loaded.state) == state_hash(session.state)


def test_skirmish_cli_refuses_a_difficulty_the_tables_do_not_have(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["skirmish", "--difficulty", "9"]) == 2
    assert "difficulty must be 1 to 5, not 9" in capsys.readouterr().err
