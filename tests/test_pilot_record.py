"""The pilots' service records (ruling P2) and the pilot sheet (issue 14)."""

from __future__ import annotations

import json
from pathlib import Path

import attrs
import pytest

from mac_tui.campaign import mission
from mac_tui.campaign.state import Campaign, PilotRecord
from mac_tui.combat.events import Attacked
from mac_tui.combat.state import Battle
from mac_tui.dice import Dice
from mac_tui.players.ai import decide
from mac_tui.players.autorun import autoplay
from mac_tui.players.sim import make_state, play
from mac_tui.save import SaveError, read_save
from mac_tui.tui.app import MacApp
from mac_tui.tui.config import Settings
from mac_tui.tui.screens.pilot_sheet import PilotSheetScreen, sheet_lines

from .savefiles import dumps, rehash


def test_the_records_count_each_settled_mission_from_the_battle_itself(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every settled mission adds one mission to each pilot who flew it, a victory when it was
    won, the enemy frames whose `downed_by` names the pilot's frame, and the frame's name; an
    injury or an ejection when the pilot came home injured or without the frame."""
    checked = 0
    original = mission.bring_home

    def watched(
        campaign: Campaign,
        battle: Battle,
        result: str,
        difficulty: int,
        dice: Dice,
        *,
        xp: bool = True,  # O11.6: no XP while in debt
    ) -> tuple[Campaign, list[str]]:
        nonlocal checked
        home, lines = original(campaign, battle, result, difficulty, dice, xp=xp)
        assert campaign.mission is not None
        for unit_id, frame_id in campaign.mission.frames:
            unit = battle.unit(unit_id)
            frame = campaign.frame(frame_id)
            assert frame.pilot is not None
            old = campaign.pilot(frame.pilot).record
            pilot = home.pilot(frame.pilot)
            rec = pilot.record
            kills = [u.id for u in battle.side_units("enemy") if u.downed_by == unit.id]
            assert rec.missions == old.missions + 1
            assert rec.victories == old.victories + (result == "victory")
            assert rec.kills == old.kills + len(kills)
            assert rec.injuries == old.injuries + (pilot.status == "injured")
            assert rec.ejections == old.ejections + (unit.destroyed and pilot.status != "kia")
            assert rec.hired_day == old.hired_day
            assert frame.name in rec.frames and rec.frames[: len(old.frames)] == old.frames
            checked += 1
        return home, lines

    monkeypatch.setattr(mission, "bring_home", watched)
    run = autoplay(5, days=0, missions=4)
    c = run.state.campaign
    assert c is not None and c.missions_played >= 4
    assert checked >= 8  # two or more pilots a mission
    assert sum(p.record.kills for p in c.pilots) > 0  # the battles were won by someone's shots
    assert all(p.record.hired_day == 1 for p in c.pilots[:2])  # the starting pilots: day one


def test_a_shot_that_puts_a_frame_out_names_the_shooter() -> None:
    """`downed_by` is set by the shot that takes a frame out of the battle, and only then."""
    downed = 0
    for seed in range(1, 4):
        state, events = play(make_state(seed, 1), {"player": decide, "enemy": decide})
        assert state.battle is not None
        for e in events:
            if isinstance(e, Attacked) and e.result.damage is not None:
                target = state.battle.unit(e.result.target)
                if target.downed_by == e.result.attacker:
                    downed += 1
        for u in state.battle.units:
            if u.downed_by is not None:
                assert not u.active
                assert state.battle.unit(u.downed_by).side != u.side
    assert downed > 0


def campaign_with(record: PilotRecord, day: int = 40) -> Campaign:
    run = autoplay(5, days=0, missions=0)
    c = run.state.campaign
    assert c is not None
    pilot = attrs.evolve(c.pilots[0], record=record)
    return attrs.evolve(c.with_pilot(pilot), day=day)


def test_the_sheet_says_what_the_record_holds() -> None:
    rec = PilotRecord(
        hired_day=1, missions=3, victories=2, kills=4, injuries=1, ejections=0, frames=("Enforcer",)
    )
    c = campaign_with(rec)
    lines = sheet_lines(c, c.pilots[0])
    assert any("(39 days)" in line for line in lines)  # day 40, hired on day 1
    assert "Missions: 3 (2 victories, 1 other)" in lines
    assert "Kills: 4 · Injuries: 1 · Ejections: 0" in lines
    assert "Frames flown: Enforcer" in lines
    old = campaign_with(PilotRecord())
    lines = sheet_lines(old, old.pilots[0])
    assert "Service: joined before the record began (an older save)" in lines
    assert "Missions: 0" in lines and "Frames flown: none yet" in lines


async def test_s_opens_the_sheet_of_the_highlighted_pilot(tmp_path: Path) -> None:
    from tests.test_tui_app import new_campaign

    app = MacApp(saves=tmp_path, settings=Settings())
    async with app.run_test(size=(80, 24)) as pilot:
        await new_campaign(pilot)
        await pilot.press("2", "down", "s")
        await pilot.pause()
        assert isinstance(app.screen, PilotSheetScreen)
        assert app.session is not None
        state = app.session.state
        assert state.campaign is not None
        second = state.campaign.pilots[1]
        assert app.screen.lines == sheet_lines(state.campaign, second)
        shown = str(app.screen.query_one("#sheet").render())
        assert second.callsign in shown and "Missions: 0" in shown
        await pilot.press("escape")
        await pilot.pause()
        assert not isinstance(app.screen, PilotSheetScreen)


@pytest.mark.parametrize(
    ("field", "value", "why"),
    [
        ("kills", -1, "record.kills"),
        ("victories", 99, "record.victories"),
        ("hired_day", 0, "record.hired_day"),
    ],
)
def test_an_edited_record_is_refused_naming_the_field(
    field: str, value: int, why: str, tmp_path: Path
) -> None:
    path = Path(__file__).parent / "golden" / "format4" / "campaign-year.json"
    doc = json.loads(path.read_text(encoding="utf-8"))
    doc["snapshot"]["campaign"]["pilots"][0]["record"][field] = value
    broken = tmp_path / "edited.json"
    broken.write_bytes(dumps(rehash(doc)))
    with pytest.raises(SaveError, match=rf'edited.json: .*"snapshot.campaign.pilots\[0\]\.{why}'):
        read_save(broken)
