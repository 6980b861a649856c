"""`mac-tui replay SAVE --watch`: a save's game played back in the terminal, read-only.

The save's commands are replayed from its seed (`session.Timeline`, in a worker thread: a
year's campaign takes about half a second) and walked one command at a time, forward and back
(back refolds from the nearest state the timeline keeps, every 64th), by day, by battle, or
animated at a chosen speed on the app's clock (`tui/pacing.py`: tests drive a `ManualClock`).
It draws with the game's own pieces: in a battle the hex map, the initiative track, the acting
frame's panel and the combat log lines of the command (`battle_text.log_lines`); between
battles the company's status bar and the day report of the command (its events, as the game's
day report shows them). It never changes the save: the file is read once, nothing is written.
Keys pressed while the log is still replaying are done, in order, once it has. Under optional
rule O8 it shows what the player's side knew (`combat.view`), unless `--truth` asks for every
frame where it is.

The command log of a save made under other rules is replayed under today's (the engine has
only today's): the screen says so ("made by ...: replayed under today's rules, it may part
from what happened"), where the replay parts from the save's checkpoints, and where a command
is refused today (the timeline ends there).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from rich.text import Text
from textual import work
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widgets import Footer, Static

from ..campaign.calendar import date_text
from ..combat.view import view_of, visible_events
from ..save import SaveFile
from ..session import Step, Timeline
from .battle_text import log_lines
from .config import Settings, load_settings
from .glyphs import apply_glyphs, glyphs, plain
from .literal import literal
from .pacing import Clock, Pending, SystemClock
from .screens.battle.moment import final_battle
from .themes import THEMES
from .widgets.battle_panels import FramePanel, InitiativeTrack
from .widgets.hexmap import HexMap, drawing_size
from .widgets.status import status_text

LEFT_WIDTH = 42  # the map's column at its narrowest (as the battle screen's)
SPEEDS = (0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0)  # commands a second when animated


class ReplayScreen(Screen[None]):
    """The played-back game at one command (see the module's text)."""

    BINDINGS = [
        Binding("right,l", "go(1)", "Next", id="replay.next"),
        Binding("left,h", "go(-1)", "Back", id="replay.back"),
        Binding("right_square_bracket,pagedown", "day(1)", "Next day", id="replay.next_day"),
        Binding("left_square_bracket,pageup", "day(-1)", "Prev day", id="replay.prev_day"),
        Binding("b", "battle(1)", "Next battle", id="replay.next_battle"),
        Binding("B", "battle(-1)", "Prev battle", id="replay.prev_battle", show=False),
        Binding("home", "to(0)", "Start", id="replay.start", show=False),
        Binding("end", "to(-1)", "End", id="replay.end", show=False),
        Binding("space", "play", "Play/pause", id="replay.play"),
        Binding("plus,equals_sign", "speed(1)", "Faster", id="replay.faster", show=False),
        Binding("minus", "speed(-1)", "Slower", id="replay.slower", show=False),
        Binding("q,escape", "app.quit", "Quit", id="replay.quit"),
    ]
    DEFAULT_CSS = """
    ReplayScreen #replay-head { height: 1; background: $panel; padding: 0 1; }
    ReplayScreen #replay-note { height: auto; color: $warning; padding: 0 1; }
    ReplayScreen #replay-body { height: 1fr; }
    ReplayScreen #replay-left { width: 42; height: 1fr; }
    ReplayScreen #replay-right { width: 1fr; height: 1fr; padding: 0 0 0 1; }
    ReplayScreen #replay-status { height: 2; background: $panel; padding: 0 1; }
    ReplayScreen #replay-events { height: 1fr; margin-top: 1; }
    ReplayScreen FramePanel { height: auto; }
    """

    def __init__(self, timeline: Timeline | None, name: str, *, truth: bool = False) -> None:
        super().__init__()
        self.timeline = timeline
        self.file = name
        self.truth = truth  # O8: every frame where it is, not the player's view
        self.index = 0
        self.playing = False
        self.speed_index = SPEEDS.index(2.0)
        self._pending: Pending | None = None
        self._waiting: list[Callable[[], None]] = []  # keys pressed while the log replays

    def compose(self) -> ComposeResult:
        yield Static("", id="replay-head")
        yield Static("", id="replay-note")
        yield Static("", id="replay-status")
        with Horizontal(id="replay-body"):
            with Vertical(id="replay-left"):
                yield InitiativeTrack()
                hexmap = HexMap(ascii_glyphs=self.ascii, layout_mode="compact")
                hexmap.can_focus = False  # its keys are the viewer's: nothing to point at
                yield hexmap
            with Vertical(id="replay-right"):
                yield FramePanel()
                yield Static("", id="replay-events")
        yield Footer(compact=True)

    @property
    def ascii(self) -> bool:
        settings = getattr(self.app, "settings", None)
        return getattr(settings, "glyphs", "unicode") == "ascii"

    def on_mount(self) -> None:
        self.draw()

    def loaded(self, timeline: Timeline) -> None:
        """The timeline is ready: draw its start, then do what was pressed meanwhile."""
        self.timeline = timeline
        self.index = 0
        self.draw()
        waiting, self._waiting = self._waiting, []
        for action in waiting:
            action()

    def _later(self, action: Callable[[], None]) -> bool:
        """While the log is still replaying, keep `action` for `loaded` (True); else False."""
        if self.timeline is None:
            self._waiting.append(action)
            return True
        return False

    # ---- moving ---------------------------------------------------------------------------
    def go_to(self, index: int) -> None:
        if self.timeline is None:
            return
        self.index = min(max(index, 0), self.timeline.end)
        self.draw()

    def action_go(self, step: int) -> None:
        if self._later(lambda: self.action_go(step)):
            return
        self.stop()
        self.go_to(self.index + step)

    def action_to(self, where: int) -> None:
        if self._later(lambda: self.action_to(where)):
            return
        self.stop()
        if self.timeline is not None:
            self.go_to(self.timeline.end if where < 0 else where)

    def _jump(self, marks: Sequence[int], step: int) -> None:
        self.stop()
        if self.timeline is not None:
            self.go_to(self.timeline.next_mark(marks, self.index, step > 0))

    def action_day(self, step: int) -> None:
        if not self._later(lambda: self.action_day(step)) and self.timeline is not None:
            self._jump(self.timeline.days, step)

    def action_battle(self, step: int) -> None:
        if not self._later(lambda: self.action_battle(step)) and self.timeline is not None:
            self._jump(self.timeline.battles, step)

    # ---- animated -------------------------------------------------------------------------
    @property
    def speed(self) -> float:
        return SPEEDS[self.speed_index]

    def clock(self) -> Clock:
        clock = getattr(self.app, "clock", None)
        return clock if clock is not None else SystemClock()

    def action_play(self) -> None:
        if self._later(self.action_play):
            return
        if self.playing:
            self.stop()
        elif self.timeline is not None and self.index < self.timeline.end:
            self.playing = True
            self._schedule()
        self.draw_head()

    def action_speed(self, step: int) -> None:
        self.speed_index = min(max(self.speed_index + step, 0), len(SPEEDS) - 1)
        if self.playing:
            self._cancel()
            self._schedule()
        self.draw_head()

    def _schedule(self) -> None:
        self._pending = self.clock().call_after(self, 1.0 / self.speed, self.tick)

    def _cancel(self) -> None:
        if self._pending is not None:
            self._pending.cancel()
            self._pending = None

    def stop(self) -> None:
        self.playing = False
        self._cancel()

    def tick(self) -> None:
        self._pending = None
        if not self.playing or self.timeline is None:
            return
        self.go_to(self.index + 1)
        if self.index >= self.timeline.end:
            self.playing = False
            self.draw_head()
        else:
            self._schedule()

    # ---- drawing --------------------------------------------------------------------------
    def draw_head(self) -> None:
        head = self.query_one("#replay-head", Static)
        timeline = self.timeline
        if timeline is None:
            head.update(literal(f"Replay of {self.file}: replaying its commands..."))
            return
        sep = glyphs(self.ascii).sep
        step = timeline.at(self.index)
        what = step.command.to_text() if step.command is not None else "the start"
        mode = f"playing x{self.speed:g}" if self.playing else f"paused (x{self.speed:g})"
        head.update(  # plain words: a command holds what the player typed (`rename F1 [/]`)
            literal(
                f"Replay of {self.file} {sep} command {self.index}/{timeline.end}: {what} {sep} "
                f"{mode}"
            )
        )

    def draw(self) -> None:
        timeline = self.timeline
        self.draw_head()
        note = self.query_one("#replay-note", Static)
        if timeline is None:
            note.update("")
            return
        text = timeline.notice()
        note.update(literal(plain(text) if self.ascii else text))
        note.display = bool(text)
        self.draw_step(timeline.at(self.index))

    def draw_step(self, step: Step) -> None:
        battle = step.state.battle
        if battle is None and step.before is not None and step.before.battle is not None:
            assert step.command is not None  # the battle's last command: its last picture
            battle = final_battle(step.before, step.command)
        hexmap = self.query_one(HexMap)
        track = self.query_one(InitiativeTrack)
        panel = self.query_one(FramePanel)
        status = self.query_one("#replay-status", Static)
        events = self.query_one("#replay-events", Static)
        left = self.query_one("#replay-left")
        left.display = panel.display = battle is not None
        status.display = battle is None
        shown_events = step.events
        if battle is not None and not self.truth:  # O8.10: the player's view
            shown_events = tuple(visible_events(battle, step.events, "player"))
            battle = view_of(battle, "player")
        if battle is not None:
            width = drawing_size(battle.map.width, battle.map.height, "compact").width
            left.styles.width = max(width + 1, LEFT_WIDTH)
            active = battle.active_unit
            hexmap.show(battle, active=active.id if active is not None else None)
            track.show(battle, ascii_glyphs=self.ascii)
            shown = active or next(iter(battle.side_units("player")), None)
            panel.show(battle, shown.id if shown is not None else None, ascii_glyphs=self.ascii)
            lines = log_lines(battle, shown_events, ascii_glyphs=self.ascii)
            events.update(literal("\n".join(lines)) or "(nothing to log)")  # as the log shows them
            return
        status.update(status_text(step.state, self.ascii))
        lines = [e.describe() for e in step.events]
        campaign = step.state.campaign
        if campaign is not None and self.timeline is not None and step.index in self.timeline.days:
            title = f"Day report, {date_text(campaign.day)}"
        else:
            title = "What it did" if step.command is not None else "The start"
        body = "\n".join(lines) or "(nothing to report)"
        events.update(Text(title + "\n", style="bold") + Text(plain(body) if self.ascii else body))


class ReplayApp(App[None]):
    """The viewer: one `ReplayScreen` over the save's timeline (folded in a thread)."""

    TITLE = "Mechanized Armour Commander: replay"

    def __init__(
        self,
        save: SaveFile,
        name: str,
        *,
        settings: Settings | None = None,
        clock: Clock | None = None,
        truth: bool = False,
    ) -> None:
        super().__init__()
        self.save = save
        self.file = name
        self.settings = settings if settings is not None else load_settings()[0]
        self.clock: Clock = clock or SystemClock()
        self.viewer = ReplayScreen(None, name, truth=truth)

    def on_mount(self) -> None:
        for theme in THEMES:
            self.register_theme(theme)
        names = {t.name for t in THEMES} | set(self.available_themes)
        self.theme = self.settings.theme if self.settings.theme in names else THEMES[0].name
        apply_glyphs(self, self.settings.glyphs == "ascii")
        self.push_screen(self.viewer)
        self.fold()

    @work(thread=True, exclusive=True)
    def fold(self) -> None:
        timeline = Timeline(self.save).fold()
        self.call_from_thread(self.viewer.loaded, timeline)


def run_replay(save: SaveFile, path: Path, *, truth: bool = False) -> None:
    """`truth`: under O8, every frame where it is (a spectator's view asked for the truth);
    else what the player's side knew."""
    ReplayApp(save, path.name, truth=truth).run()
