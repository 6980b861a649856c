"""The golden recordings of `tests/golden/` (see `tests/golden/make.py`).

`v3/` pins the game's behaviour under rules version 3: the same seed gives the same battle log
byte for byte, and every save's command log, replayed from its seed, rebuilds the very same
file. A refactoring that changes one byte of a battle or a save fails here.

`v1/` (rules version 1, save format 1) and `v2/` (rules version 2, save format 3) are kept for
ever: their saves must still load (v1's through the save-format migrations) and say which
version made them (here and in `test_save_formats.py`). Their battle logs are kept as a record
only: a later rules version may play other battles from their seeds (v2's logs, played by the
first AI, `ai_v1`, happen to be v3's too: rules version 3 changed the campaign and the planner's
skill ladder, not the first AI's battles), and the game has no reader of battle logs to check
them with.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mac_tui.game import RULES_VERSION, parse_command
from mac_tui.save import FORMAT_VERSION, read_save, state_hash, to_json
from mac_tui.session import Session, verify
from tests.golden import make

GOLDEN = Path(__file__).parent / "golden"
V1 = GOLDEN / "v1"
V2 = GOLDEN / "v2"
V3 = GOLDEN / "v3"
SAVES = [
    "campaign-after-action",
    "campaign-mid-battle",
    "campaign-year",
    "skirmish-mid-battle",
]


@pytest.mark.parametrize("folder", [V1, V2, V3], ids=["v1", "v2", "v3"])
def test_the_golden_sets_are_complete(folder: Path) -> None:
    assert sorted(p.stem for p in folder.glob("*.json")) == SAVES
    assert sorted(p.name for p in folder.glob("*.jsonl")) == [
        f"battle-d{d}.jsonl" for d in sorted(make.BATTLE_SEEDS)
    ]


def test_v3_is_the_current_rules_version() -> None:
    assert RULES_VERSION == 3 and make.HERE == V3
    for name in SAVES:
        save = read_save(V3 / f"{name}.json")
        assert (save.rules_version, save.format) == (RULES_VERSION, FORMAT_VERSION)


@pytest.mark.parametrize("difficulty", sorted(make.BATTLE_SEEDS))
def test_battle_logs_are_byte_identical(difficulty: int) -> None:
    recorded = (V3 / f"battle-d{difficulty}.jsonl").read_text(encoding="utf-8")
    assert make.battle_log(difficulty) == recorded


@pytest.mark.parametrize("name", SAVES)
def test_saves_replay_byte_identically(name: str) -> None:
    path = V3 / f"{name}.json"
    recorded = path.read_text(encoding="utf-8")
    doc = json.loads(recorded)
    session = Session.new(doc["seed"])
    for line in doc["commands"]:
        assert session.apply(parse_command(line)).accepted, line
    rebuilt = json.loads(to_json(session.to_save()))
    # the game version (and so `made_by`, the version of these rules that wrote the file) is
    # the only thing allowed to move on while the rules version stays 3
    assert rebuilt["rules_version"] == doc["rules_version"] == 3
    for key in ("game_version", "made_by"):
        rebuilt[key] = doc[key]
    rebuilt["header"]["game_version"] = doc["header"]["game_version"]
    assert json.dumps(rebuilt, indent=1, sort_keys=True) + "\n" == recorded
    assert state_hash(read_save(path).state) == state_hash(session.state)
    assert verify(read_save(path)).checked


@pytest.mark.parametrize("name", SAVES)
def test_v1_saves_load_and_name_who_made_them(name: str) -> None:
    save = read_save(V1 / f"{name}.json")
    assert (save.format, save.rules_version, save.made_by) == (1, 1, "0.1.0")
    verdict = verify(save)
    assert verdict.ok and not verdict.checked
    assert verdict.message.startswith("made by mac-tui 0.1.0 (rules version 1, save format 1)")


@pytest.mark.parametrize("name", SAVES)
def test_v2_saves_load_and_name_who_made_them(name: str) -> None:
    """Rules version 2's saves load from their snapshot under rules version 3 and say who made
    them; their logs are not checked by replay (version 3 plays other games from them)."""
    save = read_save(V2 / f"{name}.json")
    assert (save.format, save.rules_version, save.made_by) == (3, 2, "0.1.0")
    verdict = verify(save)
    assert verdict.ok and not verdict.checked
    assert verdict.message.startswith("made by mac-tui 0.1.0 (rules version 2, save format 3)")


@pytest.mark.parametrize("folder", [V1, V2, V3], ids=["v1", "v2", "v3"])
def test_the_saves_hold_what_their_names_say(folder: Path) -> None:
    mid = read_save(folder / "campaign-mid-battle.json").state
    assert mid.campaign is not None and mid.battle is not None and mid.battle.phase == "combat"
    after = read_save(folder / "campaign-after-action.json").state
    assert after.campaign is not None and after.campaign.after_action is not None
    year = read_save(folder / "campaign-year.json").state
    assert year.campaign is not None and year.campaign.day > 365
    assert year.campaign.ended is None
    skirmish = read_save(folder / "skirmish-mid-battle.json").state
    assert skirmish.campaign is None and skirmish.battle is not None
    assert skirmish.battle.phase == "combat"
