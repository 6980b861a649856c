"""The golden recordings of `tests/golden/v1/` (see `tests/golden/make.py`).

Made by the code as it stood before the engine core and players layer were reshaped, they pin
the game's behaviour: the same seed gives the same battle log byte for byte, and every save's
command log, replayed from its seed, rebuilds the very same file. A refactoring that changes
one byte of a battle or a save fails here.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mac_tui import __version__
from mac_tui.game import parse_command
from mac_tui.save import FORMAT_VERSION, read_save, state_hash, to_json
from mac_tui.session import Session
from tests.golden import make

V1 = Path(__file__).parent / "golden" / "v1"
SAVES = sorted(p.stem for p in V1.glob("*.json"))


def test_the_golden_set_is_complete() -> None:
    assert SAVES == [
        "campaign-after-action",
        "campaign-mid-battle",
        "campaign-year",
        "skirmish-mid-battle",
    ]
    assert sorted(p.name for p in V1.glob("*.jsonl")) == [
        f"battle-d{d}.jsonl" for d in sorted(make.BATTLE_SEEDS)
    ]


@pytest.mark.parametrize("difficulty", sorted(make.BATTLE_SEEDS))
def test_battle_logs_are_byte_identical(difficulty: int) -> None:
    recorded = (V1 / f"battle-d{difficulty}.jsonl").read_text(encoding="utf-8")
    assert make.battle_log(difficulty) == recorded


@pytest.mark.parametrize("name", SAVES)
def test_saves_replay_byte_identically(name: str) -> None:
    path = V1 / f"{name}.json"
    recorded = path.read_text(encoding="utf-8")
    doc = json.loads(recorded)
    session = Session.new(doc["seed"])
    for line in doc["commands"]:
        assert session.apply(parse_command(line)).accepted, line
    rebuilt = json.loads(to_json(session.to_save()))
    # format 2 adds the rules version and the version whose rules made the log (rules
    # version 1: these files' own); apart from those, the game version is the only field
    # allowed to move on
    assert (rebuilt.pop("rules_version"), rebuilt.pop("made_by")) == (1, __version__)
    assert rebuilt["format"] == FORMAT_VERSION
    rebuilt["format"] = doc["format"]
    rebuilt["game_version"] = doc["game_version"]
    rebuilt["header"]["game_version"] = doc["header"]["game_version"]
    assert json.dumps(rebuilt, indent=1, sort_keys=True) + "\n" == recorded
    assert state_hash(read_save(path).state) == state_hash(session.state)


def test_the_saves_hold_what_their_names_say() -> None:
    mid = read_save(V1 / "campaign-mid-battle.json").state
    assert mid.campaign is not None and mid.battle is not None and mid.battle.phase == "combat"
    after = read_save(V1 / "campaign-after-action.json").state
    assert after.campaign is not None and after.campaign.after_action is not None
    year = read_save(V1 / "campaign-year.json").state
    assert year.campaign is not None and year.campaign.day > 365
    skirmish = read_save(V1 / "skirmish-mid-battle.json").state
    assert skirmish.campaign is None and skirmish.battle is not None
    assert skirmish.battle.phase == "combat"
