"""The refit bay section: staging, confirming, refusals and the reactor budget (pilot tests)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import attrs
import pytest
from rich.text import Text
from textual.widgets import Static

from mac_tui.campaign.refit import refit_refusal
from mac_tui.campaign.state import Campaign, Mount, add_count, count_of
from mac_tui.tui.app import MacApp
from mac_tui.tui.config import Settings
from mac_tui.tui.screens.refit import RefitSection
from mac_tui.tui.screens.refit_view import initials, occupants
from mac_tui.tui.widgets.dialogs import ConfirmScreen, TableChooseScreen
from mac_tui.tui.widgets.frame_diagram import Cell, FrameDiagram, cell_text

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


# ---- helpers -----------------------------------------------------------------------------
async def start(pilot: Any) -> None:
    await pilot.press("n", *"Iron", "enter")
    await pilot.pause()
    await pilot.press("enter")
    await pilot.pause()
    await pilot.press("4")
    await pilot.pause()


def camp(app: MacApp) -> Campaign:
    assert app.session is not None
    c = app.session.state.campaign
    assert c is not None
    return c


def change(app: MacApp, **changes: Any) -> None:
    """Edit the campaign under the running app (a test's shortcut to a market trip)."""
    assert app.session is not None
    state = app.session.state
    app.session.state = attrs.evolve(state, campaign=attrs.evolve(camp(app), **changes))
    app.redraw()


def give_weapon(app: MacApp, weapon: str, n: int = 1) -> None:
    change(app, weapons=add_count(camp(app).weapons, weapon, n))


def text_of(app: MacApp, selector: str) -> str:
    content = app.screen.query_one(selector, Static).content
    return content.plain if isinstance(content, Text) else str(content)


def section(app: MacApp) -> RefitSection:
    return app.screen.query_one(RefitSection)


def diagram_text(app: MacApp) -> str:
    d = app.screen.query_one(FrameDiagram)
    lines, _ = d.lines(d.content_size.width)
    return "\n".join(line.plain for line in lines)


async def raider_head(pilot: Any, app: MacApp, *weapons: str) -> None:
    """Give the company `weapons`, then press Enter on the Raider's (empty) head hardpoint."""
    for w in weapons:
        give_weapon(app, w)
    await pilot.press("right_square_bracket", "enter")
    await pilot.pause()


def new_app(tmp_path: Path) -> MacApp:
    return MacApp(saves=tmp_path, settings=Settings())


# ---- the section -------------------------------------------------------------------------
async def test_fit_a_weapon_from_the_inventory_and_confirm(tmp_path: Path) -> None:
    app = new_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await start(pilot)
        give_weapon(app, "light_laser")
        credits = camp(app).credits
        await pilot.press("right_square_bracket")  # F2, the Raider; the cursor on its head
        await pilot.pause()
        assert section(app).frame_id == "F2"
        assert "HD small hardpoint 1/1: empty" in text_of(app, "#refit-detail")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, TableChooseScreen)
        assert app.screen.options[0][0] == "w:light_laser"
        await pilot.press("enter")
        await pilot.pause()
        detail = text_of(app, "#refit-detail")
        assert "Staged: +Light Laser (Head) = 1 change(s): 500 cr, 1 day(s)" in detail
        assert "S LL  g1" in diagram_text(app)
        assert "(staged)" in text_of(app, "#refit-budget-text")
        assert camp(app).frame("F2").weapons == camp(app).frame("F2").weapons  # nothing yet
        assert count_of(camp(app).weapons, "light_laser") == 1
        await pilot.press("c")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        assert "install Light Laser (Head)" in app.screen.message
        assert "500 cr" in app.screen.message
        await pilot.press("y")
        await pilot.pause()
        raider = camp(app).frame("F2")
        assert Mount(weapon="light_laser", mount="head", group=1) in raider.weapons
        assert camp(app).credits == credits - 500
        assert raider.busy_days == 1
        assert count_of(camp(app).weapons, "light_laser") == 0
        assert "refit bay for 1 more day(s)" in text_of(app, "#refit-detail")
        # in the bay: bay work is greyed out, group changes are not
        assert section(app).check_action("install", ()) is None
        assert section(app).check_action("group", ()) is True


async def test_changing_a_group_is_free(tmp_path: Path) -> None:
    app = new_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await start(pilot)
        credits = camp(app).credits
        # the Enforcer's head carries its Light Laser in group 1
        await pilot.press("g")
        await pilot.pause()
        assert "S LL  g2" in diagram_text(app)
        assert "group changes only (free, instant)" in text_of(app, "#refit-detail")
        await pilot.press("G", "G")
        await pilot.pause()
        assert "S LL  g4" in diagram_text(app)  # 2 -> 1 -> 4: the groups wrap around
        await pilot.press("g", "g")
        await pilot.pause()
        await pilot.press("c")  # free: no dialog
        await pilot.pause()
        enforcer = camp(app).frame("F1")
        assert Mount(weapon="light_laser", mount="head", group=2) in enforcer.weapons
        assert camp(app).credits == credits
        assert enforcer.busy_days == 0
        assert "weapon groups reassigned (free)" in text_of(app, "#message")


async def test_no_matching_item_shows_the_reason(tmp_path: Path) -> None:
    app = new_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await start(pilot)
        await raider_head(pilot, app)  # nothing in the inventory
        assert not isinstance(app.screen, TableChooseScreen)
        message = text_of(app, "#message")
        assert message.startswith("Refused: no small weapon or small slot equipment")
        assert "buy one at a market" in message


async def test_a_staging_the_engine_refuses_shows_its_reason_and_greys_confirm(
    tmp_path: Path,
) -> None:
    app = new_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await start(pilot)
        await raider_head(pilot, app, "light_laser")
        await pilot.press("enter")
        await pilot.pause()
        # the laser leaves the inventory before the refit is confirmed
        change(app, weapons=add_count(camp(app).weapons, "light_laser", -1))
        await pilot.pause()
        detail = text_of(app, "#refit-detail")
        assert (
            "CANNOT CONFIRM: the refit needs 1 Light Laser from the inventory; it holds 0" in detail
        )
        assert section(app).check_action("confirm", ()) is None
        assert section(app).check_action("reset", ()) is True
        # the staged laser took the last one: the right arm's small hardpoint (down from the
        # head to the right torso, the nearest box with hardpoints, then right) has nothing
        await pilot.press("down", "right", "enter")
        await pilot.pause()
        assert "Refused: no small weapon" in text_of(app, "#message")
        await pilot.press("z")
        await pilot.pause()
        assert "Nothing staged" in text_of(app, "#refit-detail")


async def test_the_enforcers_group_1_with_a_move_is_over_the_output(tmp_path: Path) -> None:
    app = new_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await start(pilot)
        panel = text_of(app, "#refit-budget-text")
        assert "Output 17" in panel
        assert "Overload limit 25 · Move 5" in panel
        assert "WARNING: group 1 plus a Move needs 13+5 = 18 energy, more than the output 17" in (
            panel.replace("\n", " ")
        )
        assert " 1     13   23 ML AC5 LL" in panel


async def test_remove_equip_and_reset(tmp_path: Path) -> None:
    app = new_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await start(pilot)
        await pilot.press("x")  # the Enforcer's head laser
        await pilot.pause()
        assert "-Light Laser (Head) = 1 change(s): 500 cr" in text_of(app, "#refit-detail")
        assert "S  empty" in diagram_text(app)
        await pilot.press("down", "left")  # the centre torso, then the left arm (the left
        await pilot.pause()  # torso has no hardpoint: passed over)
        assert "LA medium hardpoint 1/1: Autocannon-5" in text_of(app, "#refit-detail")
        # the removed laser is offered again on the right arm's small hardpoint
        await pilot.press("right", "right", "right")
        await pilot.pause()
        assert "RA small hardpoint 1/1: empty" in text_of(app, "#refit-detail")
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, TableChooseScreen)
        assert app.screen.options[0][0] == "w:light_laser"
        await pilot.press("escape", "z")
        await pilot.pause()
        assert "Nothing staged" in text_of(app, "#refit-detail")
        assert section(app).check_action("confirm", ()) is None
        # passive and active equipment: e, listed under the diagram, counted in the budget
        change(app, equipment=add_count(camp(app).equipment, "cooling_vents", 1))
        await pilot.press("e")
        await pilot.pause()
        assert isinstance(app.screen, TableChooseScreen)
        await pilot.press("enter")
        await pilot.pause()
        assert "Equipment: ▸Cooling Vents" in diagram_text(app)
        assert "Output 20 (reactor 17 +3)" in text_of(app, "#refit-budget-text")
        assert "+Cooling Vents" in text_of(app, "#refit-detail")
        await pilot.press("x")
        await pilot.pause()
        assert "Equipment:  none" in diagram_text(app)


async def test_destroyed_frame_says_why_and_greys_out(tmp_path: Path) -> None:
    app = new_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await start(pilot)
        wreck = attrs.evolve(camp(app).frame("F1"), status="destroyed")
        change(app, frames=(wreck, camp(app).frame("F2")))
        await pilot.pause()
        detail = text_of(app, "#refit-detail")
        assert "CANNOT REFIT: Enforcer is destroyed: rebuild it first" in detail
        for action in ("install", "remove", "group", "add_equipment", "confirm"):
            assert section(app).check_action(action, ()) is None


async def test_the_diagram_is_deterministic_and_clickable(tmp_path: Path) -> None:
    app = new_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await start(pilot)
        await pilot.press("right_square_bracket")
        await pilot.pause()
        assert diagram_text(app).splitlines() == [
            "                     ┌HD───────┐",
            "                     │▸S  empty│",
            " ┌LA───────┬LT───────┼CT───────┼RT───────┬RA───────┐",
            " │ S  empty│   none  │   none  │ M  empty│ S LL  g1│",
            " │ M AC5 g2│         │         │         │ M ML  g1│",
            " └─────────┴─────────┼LG───────┼─────────┴─────────┘",
            "                     │   none  │",
            "                     └─────────┘",
            "Equipment:  none",
        ]
        first = app.export_screenshot()
        app.redraw()
        await pilot.pause()
        assert app.export_screenshot() == first
        # clicks: a slot takes the cursor, the frame bar's ◀ steps back to the Enforcer
        d = app.screen.query_one(FrameDiagram)
        _, hits = d.lines(d.content_size.width)
        (y, x, _, key) = next(h for h in hits if h[3] == ("slot", "right_arm", "medium", 0))
        await pilot.click(FrameDiagram, offset=(x + 1, y))
        await pilot.pause()
        assert section(app).cursor == key
        assert "RA medium hardpoint 1/1: Medium Laser" in text_of(app, "#refit-detail")
        await pilot.click("#refit-frame", offset=(2, 0))
        await pilot.pause()
        assert section(app).frame_id == "F1"


# ---- pieces ------------------------------------------------------------------------------
def test_cell_text_fits_the_room() -> None:
    assert cell_text(Cell("S LL  g1", "S Light Laser\tg1"), 8) == "S LL  g1"
    assert cell_text(Cell("S LL  g1", "S Light Laser\tg1"), 18) == "S Light Laser   g1"
    # a long name that does not fit whole gives way to the short form, never cut
    assert cell_text(Cell("M ML  g1", "M Medium Laser\tg1"), 16) == "M ML  g1        "
    assert cell_text(Cell("M ML  g1", "M Medium Laser\tg1"), 17) == "M Medium Laser g1"
    assert cell_text(Cell("none"), 6) == "none  "


def test_initials_and_occupants() -> None:
    assert initials("Point Defense System") == "PDS"
    from mac_tui.campaign.state import Fitting

    mounts = (
        Mount(weapon="light_laser", mount="right_arm", group=1),
        Mount(weapon="medium_laser", mount="right_arm", group=1),
    )
    fittings = (Fitting(equipment="sensor_array", mount="left_arm"), Fitting(equipment="ammo_bin"))
    spots = occupants("RD-30", mounts, fittings)
    assert spots == {
        ("slot", "right_arm", "small", 0): ("w", 0),
        ("slot", "right_arm", "medium", 0): ("w", 1),
        ("slot", "left_arm", "small", 0): ("e", 0),
    }


def test_refit_refusal() -> None:
    from mac_tui.campaign.commands import NewCampaign
    from mac_tui.game import step
    from mac_tui.model import initial_state

    outcome = step(initial_state(3), NewCampaign("Iron"))
    c = outcome.state.campaign  # type: ignore[union-attr]
    assert c is not None
    assert refit_refusal(c, "F1") is None
    assert refit_refusal(c, "F9") == "no frame F9"
    wreck = attrs.evolve(c.frame("F1"), status="destroyed")
    assert refit_refusal(c.with_frame(wreck), "F1") == (
        "Enforcer is destroyed: rebuild it first (repair F1)"
    )


# ---- the cursor over the picture, undo, the picker, the repair it blocks -------------------------
def test_the_arrows_move_over_the_frames_picture() -> None:
    """The Enforcer: head S; left arm M; centre and right torso L; right arm S over M; no
    hardpoint in the left torso or the legs."""
    from mac_tui.campaign.market import fresh_frame
    from mac_tui.tui.screens.refit_view import Staging, step_cursor

    frame = fresh_frame("F1", "EN-50", "Enforcer")
    s = Staging.of(frame)
    head = ("slot", "head", "small", 0)
    la = ("slot", "left_arm", "medium", 0)
    ct = ("slot", "center_torso", "large", 0)
    rt = ("slot", "right_torso", "large", 0)
    ra_s, ra_m = ("slot", "right_arm", "small", 0), ("slot", "right_arm", "medium", 0)

    def go(start: object, *steps: str) -> object:
        key = start
        for d in steps:
            key = step_cursor(frame, s, key, d)
        return key

    assert go(head, "down") == ct  # the box under the head
    assert go(ct, "up") == head
    assert go(ct, "left") == la  # the left torso has none: passed over
    assert go(ct, "right") == rt and go(rt, "right") == ra_s
    assert go(ra_s, "down") == ra_m and go(ra_m, "up") == ra_s
    assert go(ra_m, "left") == rt  # the same line as far as the box has one
    assert go(ra_m, "down") == ra_m  # no legs' slots, no equipment: nowhere to go
    assert go(la, "left") == la and go(ra_s, "right") == ra_s  # the edges hold
    assert go(head, "left") == la and go(head, "right") == rt  # down-left, down-right
    assert go(la, "up") == head
    # equipment without a hardpoint makes a row under the frame
    s.equipment.append(attrs_fitting("cooling_vents"))
    assert go(ra_m, "down") == ("eq", 0) and go(("eq", 0), "up") == ct


def attrs_fitting(equipment: str) -> Any:
    from mac_tui.campaign.state import Fitting

    return Fitting(equipment=equipment)


async def test_u_undoes_one_staged_change_at_a_time(tmp_path: Path) -> None:
    app = new_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await start(pilot)
        assert section(app).check_action("undo", ()) is None  # nothing staged
        await pilot.press("x")  # the head's Light Laser out
        await pilot.press("down", "left", "g")  # the left arm's autocannon to group 2
        await pilot.pause()
        s = section(app).staged(camp(app).frame("F1"))
        assert len(s.history) == 2
        assert next(m for m in s.weapons if m.weapon == "autocannon_5").group == 2
        await pilot.press("u")  # the group change goes back, the removal stays
        await pilot.pause()
        assert next(m for m in s.weapons if m.weapon == "autocannon_5").group == 1
        assert "-Light Laser (Head)" in text_of(app, "#refit-detail")
        await pilot.press("u")
        await pilot.pause()
        assert "Nothing staged" in text_of(app, "#refit-detail")
        assert section(app).check_action("undo", ()) is None  # greyed: nothing left


async def test_the_picker_shows_range_accuracy_energy_and_damage_per_energy(
    tmp_path: Path,
) -> None:
    from mac_tui.catalog import catalog
    from mac_tui.tui.screens.refit_view import WEAPON_COLUMNS

    app = new_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await start(pilot)
        await raider_head(pilot, app, "light_laser", "machine_gun")
        picker = app.screen
        assert isinstance(picker, TableChooseScreen)
        assert list(picker.columns) == list(WEAPON_COLUMNS)
        for col in ("Dmg", "En", "Dmg/en", "Range", "Acc"):
            assert col in picker.columns
        rows = dict(picker.rows)
        laser = catalog().weapons["light_laser"]
        rc = catalog().range_class(laser.range)
        assert tuple(rows["w:light_laser"]) == (
            "Light Laser",
            str(laser.damage),
            str(laser.energy),
            f"{laser.damage / laser.energy:.1f}",
            f"{rc.name} {rc.optimal_min}-{rc.optimal_max}/{rc.max_range}",
            f"{laser.accuracy}%",
            str(laser.space),
            "1",
        )
        assert rows["w:machine_gun"][3] == "free"  # no energy: ammo
        await pilot.press("down", "enter")  # the machine gun
        await pilot.pause()
        assert "+Machine Gun (Head)" in text_of(app, "#refit-detail")


async def test_a_refit_that_would_hold_up_a_repair_says_so(tmp_path: Path) -> None:
    app = new_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await start(pilot)
        f = camp(app).frame("F1")
        hurt = attrs.evolve(f, armor=tuple(a - a // 4 for a in f.armor), status="damaged")
        change(app, frames=(hurt, *camp(app).frames[1:]))
        await pilot.press("x")
        await pilot.pause()
        detail = text_of(app, "#refit-detail")
        assert "Enforcer is damaged and takes one job at a time" in detail
        assert "before its repair can start" in detail
        await pilot.press("c")
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        assert "Warning: Enforcer is damaged" in app.screen.message


@pytest.mark.parametrize("size", [(80, 24), (120, 40)])
async def test_a_cursor_move_whose_lines_wrap_to_another_count_lays_nothing_out(
    tmp_path: Path, size: tuple[int, int]
) -> None:
    """The lines under the diagram fill the room it leaves in the column: a stop whose text
    wraps to another number of rows repaints them and lays nothing out, and the screen is
    what Textual draws afresh, blank rows (the column's background) below the text (its
    padded rows narrowed to those that changed, `internals.RepaintsChangedRows`)."""
    from mac_tui.tui.screens.refit import RefitDetail

    from .terminal import afresh_in_a_terminal, cells, layouts_asked, played_on_a_terminal

    app = new_app(tmp_path)
    async with app.run_test(size=size) as pilot:
        await start(pilot)
        detail = app.screen.query_one(RefitDetail)
        terminal = played_on_a_terminal(app)
        app.screen.refresh()  # a whole frame first: the terminal starts blank
        await pilot.pause()
        asked = layouts_asked(detail)
        rows_seen = set()
        for _ in range(12):
            asked.clear()
            await pilot.press("right")
            await pilot.pause()
            rows = len(detail.render().wrap(app.console, detail.content_size.width))
            room = detail.content_size.height
            rows_seen.add(rows)
            assert rows <= room and not any(asked), (rows, room, asked)
            assert cells(terminal) == cells(afresh_in_a_terminal(app))
            region = detail.content_region
            background = terminal.buffer[region.y][region.x - 1].bg  # the padding's
            for y in range(region.y + rows, region.bottom):
                row = [terminal.buffer[y][x] for x in range(region.x, region.right)]
                assert all(c.data == " " and c.bg == background for c in row), y
        assert len(rows_seen) > 1  # the walk met texts of more than one height
