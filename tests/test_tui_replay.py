"""`mac-tui replay SAVE --watch` on the golden saves: stepping forward and back (back refolds
from a kept state), jumping by battle and by day, the animation on a `ManualClock`, what it
says of saves made under other rules, that parted from their log or that today's rules
refuse, and that the save is never written."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import attrs
from textual.widgets import Static

from mac_tui.campaign.commands import NewCampaign
from mac_tui.game import RULES_VERSION, Accepted, step
from mac_tui.model import initial_state
from mac_tui.save import SaveFile, state_hash
from mac_tui.savefolder import load_save
from mac_tui.server.loadtest import PtyTerminal
from mac_tui.session import Timeline
from mac_tui.tui.config import Settings
from mac_tui.tui.pacing import ManualClock
from mac_tui.tui.replay import ReplayApp, ReplayScreen
from mac_tui.tui.widgets.battle_panels import FramePanel
from mac_tui.tui.widgets.hexmap import HexMap

GOLDEN = Path(__file__).parent / "golden"
V1, V3 = GOLDEN / "v1", GOLDEN / "v3"  # rules version 1 (older than today's), 3 (today's)
Pilot = Any


def folded(save: SaveFile, n: int) -> Any:
    """The state after the first `n` commands, stepped here without the viewer."""
    state = initial_state(save.seed)
    for command in save.commands[:n]:
        outcome = step(state, command)
        assert isinstance(outcome, Accepted)
        state = outcome.state
    return state


def text(screen: ReplayScreen, selector: str) -> str:
    return str(screen.query_one(selector, Static).render())


async def opened(pilot: Pilot) -> ReplayScreen:
    app: ReplayApp = pilot.app
    await app.workers.wait_for_complete()
    await pilot.pause()
    assert app.viewer.timeline is not None
    return app.viewer


def app_for(save: SaveFile, name: str = "save.json") -> ReplayApp:
    return ReplayApp(save, name, settings=Settings(), clock=ManualClock())


async def test_step_jump_and_back_through_a_battle() -> None:
    path = V3 / "campaign-after-action.json"
    before = path.read_bytes()
    save = load_save(path).save
    async with app_for(save, path.name).run_test(size=(100, 32)) as pilot:
        viewer = await opened(pilot)
        timeline = viewer.timeline
        assert timeline is not None and timeline.end == len(save.commands) == 40
        assert "command 0/40: the start" in text(viewer, "#replay-head")
        assert not viewer.query_one("#replay-note").display  # nothing to warn of
        await pilot.press("b")  # the next battle: the contract accepted
        assert viewer.index == timeline.battles[0] == 10
        assert "accept C2" in text(viewer, "#replay-head")
        hexmap = viewer.query_one(HexMap)
        left = viewer.query_one("#replay-left")  # the map's column: shown in battle only
        assert left.display and hexmap.battle == folded(save, 10).battle
        await pilot.press(*["right"] * 5, "left")
        assert viewer.index == 14
        assert hexmap.battle == folded(save, 14).battle
        shown = viewer.query_one(FramePanel)
        assert shown.battle == folded(save, 14).battle and shown.unit_id is not None
        assert "fire 1 E1" in text(viewer, "#replay-head")
        assert "Thunder fires group 1 at HARRIER-1" in text(viewer, "#replay-events")
        await pilot.press("end")
        assert viewer.index == 40
        assert state_hash(timeline.at(40).state) == state_hash(save.state)  # the snapshot
        assert "Battle over after round 4: VICTORY" in text(viewer, "#replay-events")
        assert left.display  # the battle's last picture, though the state has none
        assert hexmap.battle is not None and hexmap.battle.result == "victory"
        await pilot.press(*["left"] * 20)  # back: refolded from the kept state before it
        assert viewer.index == 20
        assert timeline.at(20).state == folded(save, 20)
        await pilot.press("home")
        assert viewer.index == 0 and not left.display
        await pilot.press("right_square_bracket")  # the next day
        assert viewer.index == timeline.days[0]
        assert "Day report" in text(viewer, "#replay-events")
        await pilot.press("left_square_bracket")
        assert viewer.index == 0
    assert path.read_bytes() == before  # read, never written


async def test_the_animation_runs_on_the_apps_clock() -> None:
    save = load_save(V3 / "skirmish-mid-battle.json").save
    app = app_for(save)
    async with app.run_test(size=(80, 24)) as pilot:
        viewer = await opened(pilot)
        clock = app.clock
        assert isinstance(clock, ManualClock)
        await pilot.press("space")
        assert viewer.playing and clock.waiting == [0.5]  # 2 commands a second
        clock.advance(0.5)
        await pilot.pause()
        assert viewer.index == 1
        await pilot.press("plus")
        assert viewer.speed == 4.0 and clock.waiting == [0.25]
        clock.advance(0.25)
        await pilot.pause()
        assert viewer.index == 2
        await pilot.press("space")  # pause
        assert not viewer.playing and clock.waiting == []
        await pilot.press("space")
        for _ in range(20):
            clock.advance_to_next()
            await pilot.pause()
        assert viewer.index == 9 and not viewer.playing  # the end stops it
        assert "paused" in text(viewer, "#replay-head")


class HeldApp(ReplayApp):
    """A viewer whose timeline the test hands over itself (`loaded`), so keys can come first."""

    def fold(self) -> Any:
        return None


async def test_keys_pressed_while_the_log_replays_are_done_once_it_has() -> None:
    save = load_save(V3 / "campaign-after-action.json").save
    app = HeldApp(save, "save.json", settings=Settings(), clock=ManualClock())
    async with app.run_test(size=(100, 32)) as pilot:
        viewer = app.viewer
        assert "replaying its commands" in text(viewer, "#replay-head")
        await pilot.press("b", "right", "right")  # nothing to move through yet: kept
        assert viewer.timeline is None and viewer.index == 0
        viewer.loaded(Timeline(save).fold())
        await pilot.pause()
        assert viewer.index == 12  # the first battle (command 10), then two steps
        assert "command 12/40" in text(viewer, "#replay-head")


async def test_saves_of_other_rules_or_parted_from_their_log_say_so() -> None:
    save = load_save(V3 / "campaign-mid-battle.json").save
    older = attrs.evolve(save, rules_version=RULES_VERSION + 1, made_by="9.9.9")
    async with app_for(older).run_test(size=(100, 32)) as pilot:
        viewer = await opened(pilot)
        note = text(viewer, "#replay-note")
        assert note.startswith("Made by mac-tui 9.9.9 (rules version")
        assert "replayed under today's rules" in note and "it may part from what happened" in note

    # A save of rules version 1 (R14 has changed since): today's rules refuse its 14th command.
    v1 = load_save(V1 / "campaign-mid-battle.json").save
    async with app_for(v1).run_test(size=(100, 32)) as pilot:
        viewer = await opened(pilot)
        note = text(viewer, "#replay-note")
        assert note.startswith("Made by mac-tui 0.1.0 (rules version 1, save format 1)"), note
        assert "It stops before command 14, refused today: fire 1 E2" in note
        await pilot.press("end")
        assert viewer.index == 13 and "command 13/13" in text(viewer, "#replay-head")

    edited = attrs.evolve(save, state=folded(save, 5))  # a snapshot its log does not make
    timeline = Timeline(edited).fold()
    assert timeline.parts_at is not None and timeline.end == len(save.commands)
    assert f"parts from the save after command {timeline.parts_at}" in timeline.notice()

    refused = attrs.evolve(save, commands=(*save.commands[:3], NewCampaign("Again")))
    timeline = Timeline(refused).fold()
    assert timeline.end == 3 and timeline.refused is not None and timeline.refused[0] == 4
    assert "It stops before command 4, refused today: new-campaign" in timeline.notice()


def test_replay_watch_from_the_command_line(tmp_path: Path) -> None:
    term = PtyTerminal(
        [
            sys.executable,
            "-m",
            "mac_tui",
            "replay",
            str(V3 / "skirmish-mid-battle.json"),
            "--watch",
        ],
        env={"HOME": str(tmp_path), "MAC_TUI_CONFIG": str(tmp_path / "config.toml")},
    )
    try:
        assert term.wait_for("command 0/9", 30), term.output()
        term.send("l")
        assert term.wait_for("command 1/9"), term.text()
        term.send("q")
        assert term.wait_exit() == 0
    finally:
        term.close()
