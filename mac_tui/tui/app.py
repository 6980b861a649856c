"""The Textual application: owns the running `Session`, applies commands, autosaves.

Screens never change the game themselves: they call `app.act(command)`, which steps the engine,
shows a refusal's reason on screen, autosaves after every accepted command (a line of the
save's journal before the command's frame, the whole file once the frame is out: `record`),
and asks the screens to redraw. SIGHUP and SIGTERM save and exit, so a dropped SSH session
loses nothing; so does a terminal that goes away without a SIGHUP (`hangup`). Quitting with
progress that could not be saved asks first. A loaded save is checked by replay in a background
thread once its screen is open.
"""

from __future__ import annotations

import contextlib
import gc
import os
import re
import signal
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from attrs import frozen
from rich.console import RenderableType
from textual import events, work
from textual.app import App, SystemCommand
from textual.binding import Binding
from textual.command import Provider
from textual.dom import DOMNode
from textual.driver import Driver
from textual.geometry import Size
from textual.screen import Screen

from ..game import Accepted, Command, Event
from ..ruleset import Ruleset, format_ruleset
from ..save import SaveFile
from ..session import Session, Verdict, saves_dir, verify
from .config import GameOptions, Settings, load_settings, server_game
from .csscache import SharedStylesheet
from .gcpace import IdleCollector
from .host import GameHost
from .internals import screens_behind
from .pacing import Clock, SystemClock
from .pooled import PoolLink
from .screens.base import GameScreen
from .themes import THEMES

if TYPE_CHECKING:
    from ..server.store.report import SaveReporter

MIN_WIDTH, MIN_HEIGHT = 80, 24
MESSAGES_KEPT = 200  # the message log's length (reports are built from events, not from it)


HOLD_SETTLE = 0.1  # seconds the zygote's template waits, after its title, for Textual's work
HOLD_TRIES = 50  # ... this many times at most (template.py)


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "company"


def _command_line_provider() -> type[Provider]:
    """The palette's provider of typed game commands (`buy weapon light_laser 1`...)."""
    from .palette import CommandLineProvider

    return CommandLineProvider


@frozen
class NewGame:
    """`mac-tui play --seed N --name NAME [--rules O2,O3]`: a new campaign at once. The name
    missing, the company-name prompt comes up (the seed prompt is skipped); the seed missing,
    one is drawn; the optional rules are those given (the core game without --rules)."""

    name: str | None = None
    seed: int | None = None
    rules: Ruleset = ()  # `--rules`: the campaign's optional rules (O0.1)


def no_color() -> bool:
    """NO_COLOR (no-color.org): set and not empty, no colour is sent at all."""
    return bool(os.environ.get("NO_COLOR"))


class MacApp(App[None]):
    """Mechanized Armour Commander."""

    TITLE = "Mechanized Armour Commander"
    CSS_PATH = "app.tcss"
    COMMANDS = App.COMMANDS | {_command_line_provider}
    BINDINGS = [
        Binding("question_mark", "help", "Help", id="app.help"),
        Binding("f1", "how_to_play", "How to play", id="app.how_to_play", show=False),
        Binding("ctrl+q", "quit", "Quit", id="app.quit", priority=True),
    ]

    def __init__(
        self,
        *,
        saves: Path | None = None,
        settings: Settings | None = None,
        settings_problem: str | None = None,
        load: Path | None = None,
        skirmish: tuple[int, int, Ruleset] | None = None,
        clock: Clock | None = None,
        options: GameOptions | None = None,
        new: NewGame | None = None,
        held: bool = False,
    ) -> None:
        super().__init__()
        # The zygote's template (template.py): run to its title, then held there for clones.
        self.template = held
        self.held = False  # ... and it is there, its event loop paused
        self._hold_tries = 0
        self._drawn_at: Size | None = None  # a clone's size, drawn before its driver says it
        # settings changes to write once painted (`change_settings`); each writes once
        self.unsaved_settings: list[Callable[[], None]] = []
        self._unsized = False  # a clone not yet laid out at its terminal's size: draw nothing
        self._sized = False  # ... whose terminal's size has come
        self.stylesheet = SharedStylesheet(variables=self.get_css_variables())  # csscache.py
        self._honour_no_color()
        self.clock: Clock = clock or SystemClock()  # what the enemy's turns are paced by
        if settings is None:
            settings, settings_problem = load_settings()
        self.options = options or GameOptions()
        self.settings = self.options.apply(settings)
        self._settings_problem = settings_problem
        self.saves = saves or self.options.saves or saves_dir()
        self.session: Session | None = None
        self.save_path: Path | None = None
        self.messages: list[str] = []
        self.last_events: Sequence[Event] = ()
        self.save_problem: str | None = None  # why the last save failed; None once it works
        self._create = False  # the next save creates a new file (never replacing one)
        self._load_on_start = load
        self._skirmish_on_start = skirmish
        self._reporter: SaveReporter | None = None
        self._new_on_start = new
        self.collector = IdleCollector(self)  # full collections in the pauses (gcpace.py)
        # A game started ahead of its player (pooled.py): it draws nothing until it is theirs.
        self.pool = PoolLink.from_env(self.attach, self.repaint_all)

    def _honour_no_color(self) -> None:
        """With NO_COLOR no colour code is sent: Textual's own NO_COLOR filter only greys the
        colours (or keeps ANSI ones), so it gives way to one that takes every colour out,
        leaving bold, reverse and underline; cursors show in reverse (app.tcss, `:nocolor`)."""
        from textual.filter import Monochrome, NoColor

        from .nocolor import Colourless

        self._filters = [f for f in self._filters if not isinstance(f, Monochrome | NoColor)]
        self.no_color = no_color()
        if self.no_color:
            self._filters.append(Colourless())

    # ---- lifecycle ----------------------------------------------------------------------
    def on_mount(self) -> None:
        for theme in THEMES:
            self.register_theme(theme)
        self.apply_settings(self.settings)
        if not self.template:
            self._install_signal_handlers()
        from .screens.title import TitleScreen

        self.push_screen(TitleScreen())
        if self._load_on_start is not None:
            self.call_after_refresh(self.open_save, self._load_on_start)
        elif self._skirmish_on_start is not None:
            self.call_after_refresh(self.start_skirmish, *self._skirmish_on_start)
        elif self._new_on_start is not None:
            self.call_after_refresh(self.start_new, self._new_on_start)
        if self._settings_problem:
            self.notify(self._settings_problem, severity="warning", timeout=8, markup=False)
        self.check_size()
        self.collector.start()
        self._join_server()
        if self.template:
            self.set_timer(HOLD_SETTLE, self._hold)

    def _join_server(self) -> None:
        """A server's game: listen to the server's link; a game of the pool says when its
        title is drawn."""
        if self.pool is not None:
            pool = self.pool
            pool.gone = self.exit  # the server went before any player came: nothing to save
            pool.listen()
            if pool.waiting:
                self.call_after_refresh(lambda: pool.say({"ready": os.getpid()}))

    def _hold(self) -> None:
        """The template's title is drawn and nothing is left to do: pause here, its event
        loop stopped (template.py). Work that never ends (none is known) is left to the
        clones after `HOLD_TRIES` looks."""
        import asyncio

        from .internals import unsettled_app

        self._hold_tries += 1
        if unsettled_app(self) and self._hold_tries < HOLD_TRIES:
            self.set_timer(HOLD_SETTLE, self._hold)
            return
        self.held = True
        asyncio.get_running_loop().stop()

    def start_clone(self, repaint: bool = True) -> None:
        """In a game cloned from the template (template.py), with its terminal driver
        started: become this process's game, as a game started for it would be (its signal
        handlers, the server's link), then the player's (`take_player`); a game of the pool
        waits for its player instead. Without `repaint`, the cells are drawn by the layout at
        the terminal's own size once its driver has reported it, and no frame before (the
        template's size is not the terminal's). With it (the terminal has the
        template's size), every cell is drawn here, and the driver's report of that same size
        is let go (`on_event`): Textual would lay the screens out again for it and draw
        every cell a second time."""
        self.template = False
        self._install_signal_handlers()
        self.pool = PoolLink.from_env(self.attach, self.repaint_all)
        self._join_server()
        if self.pool is None or not self.pool.waiting:
            if repaint:
                self._drawn_at = self.size
            else:
                self._unsized = True  # no frame at the template's size until the terminal's
            self.take_player(repaint)

    def on_unmount(self) -> None:
        for save in list(self.unsaved_settings):  # a change whose frame never came (`H`, quit)
            save()
        self.collector.stop()
        from ..players.assess import give_up

        give_up()  # a board's threat assessment waited for elsewhere keeps the game no longer

    _drawn_settings: tuple[object, ...] | None = None  # (theme, keys, glyphs) last applied

    def apply_settings(self, settings: Settings) -> None:
        """Take `settings`; the theme, the keys and the glyphs only when one of them changed
        (the hub's hints on or off, `H`, or the enemy's pace redraw nothing of the app: the
        glyphs' redraw of every widget of every screen cost 10-20 ms)."""
        self.settings = settings
        names = {t.name for t in THEMES} | set(self.available_themes)
        theme = settings.theme if settings.theme in names else THEMES[0].name
        drawn = (theme, settings.keys, settings.glyphs)
        if drawn == self._drawn_settings and self.theme == theme:
            return
        self._drawn_settings = drawn
        self.theme = theme
        if settings.keys:
            self.set_keymap(dict(settings.keys))
        from .glyphs import apply_glyphs

        apply_glyphs(self, settings.glyphs == "ascii")  # the -ascii class, scrollbars, redraw

    def _install_signal_handlers(self) -> None:
        try:
            import asyncio

            loop = asyncio.get_running_loop()
            for sig in (signal.SIGHUP, signal.SIGTERM):
                loop.add_signal_handler(sig, self.save_and_exit)
        except (RuntimeError, NotImplementedError, AttributeError, ValueError):
            pass  # not on the main thread (tests) or no signals on this platform

    def attach(self, env: Mapping[str, str], cwd: str) -> None:
        """Become a player's game (a game started ahead of its player, `pooled.py`): their
        environment and folder, their settings, their terminal's colours; then every cell is
        drawn again for their terminal, which has seen none of it."""
        os.environ.clear()
        os.environ.update(env)
        with contextlib.suppress(OSError):
            os.chdir(cwd)
        self.take_player()

    def take_player(self, repaint: bool = True) -> None:
        """Become the game of the player whose environment this process has (`attach`, or
        a clone's: template.py): their saves, settings and terminal's colours, every cell
        drawn again. Settings the same as those the game is drawn with (the defaults, most
        players') are not applied again: nothing of the picture would change."""
        drawn_with = self.settings
        settings, problem = load_settings()
        self.settings = self.options.apply(settings)
        self.saves = self.options.saves or saves_dir()
        console = self.console
        console._environ = {k: v for k, v in os.environ.items() if k != "NO_COLOR"}
        console._color_system = console._detect_color_system()
        was_no_color = self.no_color
        self._honour_no_color()
        if self.settings != drawn_with:
            self.apply_settings(self.settings)
        if self.no_color != was_no_color:
            self.refresh_css(animate=False)
        if problem:
            self.notify(problem, severity="warning", timeout=8, markup=False)
        if repaint:
            self.repaint_all()

    def _display(self, screen: Screen[object], renderable: RenderableType | None) -> None:
        """Textual's writing of a frame to the terminal: none while the game waits for its
        player (their terminal gets every cell once the game is theirs, in their colours), nor
        while a clone waits for its terminal's size (`start_clone`)."""
        if self.template or (self.pool is not None and not self.pool.attached):
            return
        if self._unsized:
            if not self._sized or screen._compositor.size != self.size:
                return  # a frame laid out at the template's size, not the terminal's
            self._unsized = False
        super()._display(screen, renderable)

    @property
    def _background_screens(self) -> list[Screen[object]]:
        """Textual's screens showing through the one in front; none behind the day report,
        which hides them (`internals.HidesScreensBehind`)."""
        return screens_behind(self, super()._background_screens)

    def repaint_all(self) -> None:
        """Draw every cell of the screen again at the next refresh (a new terminal, or a
        spectator's copy of it, has none of them)."""
        self.screen.refresh(layout=True)

    def save_and_exit(self) -> None:
        self.autosave()
        self.exit()

    def get_driver_class(self) -> type[Driver]:
        """Textual's driver, made to save and exit when its terminal goes (see `hangup`)."""
        from .hangup import hangup_driver

        return hangup_driver(super().get_driver_class())

    # ---- size guard ---------------------------------------------------------------------
    async def on_event(self, event: events.Event) -> None:
        if isinstance(event, events.Key | events.MouseDown) and not event.is_forwarded:
            self.collector.touched()
        # A key back from the screen (no widget took it) meets the bindings here: a key
        # whose bindings are all greyed says why, asked before any binding runs.
        bubbled = isinstance(event, events.Key) and event.is_forwarded
        refused = self.refused_key(event.key) if isinstance(event, events.Key) and bubbled else None
        if isinstance(event, events.Resize):
            self._sized = True
        if isinstance(event, events.Resize) and self._drawn_at is not None:
            drawn_at, self._drawn_at = self._drawn_at, None
            if event.size == drawn_at:
                return  # a clone's first size report: drawn at that size (`start_clone`)
        # Textual's own resize handler stops the event before an `on_resize` here would see
        # it; look at every resize on its way in instead (shrinking below 80x24 included).
        await super().on_event(event)
        if isinstance(event, events.Resize):
            self.call_after_refresh(self.check_size)
        if refused is not None:
            self.explain(refused)

    def refused_key(self, key: str) -> str | None:
        """Why `key` does nothing on the screen in front: its bindings are all greyed (None:
        one of them runs, or it has none). The node owning the first greyed binding says why
        (`why_not`, screens/base.py), else its description does."""
        screen = self.screen
        greyed: tuple[DOMNode, Binding] | None = None
        for namespace, bindings in screen._modal_binding_chain:
            for binding in bindings.key_to_bindings.get(key, ()):
                state = self._check_action_state(binding.action, namespace)
                if state:
                    return None
                if state is None and greyed is None:
                    greyed = (namespace, binding)
        if greyed is None:
            return None
        namespace, binding = greyed
        target, name, parameters = self._parse_action(binding.action, namespace)
        why = getattr(target, "why_not", None)
        reason = why(name, tuple(parameters)) if callable(why) else None
        if isinstance(reason, str) and reason:
            return reason
        return f"{binding.description or name}: not possible now"

    def explain(self, text: str) -> None:
        """A refused key's reason: on the message line of the screen in front, else a note."""
        show = getattr(self.screen, "show_message", None)
        if callable(show):
            show(text, True)
        else:
            self.notify(text, severity="warning", timeout=4, markup=False)

    def size_floor(self) -> tuple[int, int]:
        """The least terminal the screen in front needs: 80x24, or less where a screen says
        so (`SIZE_FLOOR`: a range-band battle fits 60x20, optional rule O1)."""
        from .screens.too_small import TooSmallScreen

        shown = [s for s in self.screen_stack if not isinstance(s, TooSmallScreen)]
        floor = getattr(shown[-1], "size_floor", None) if shown else None
        found = floor() if callable(floor) else None
        return found if isinstance(found, tuple) else (MIN_WIDTH, MIN_HEIGHT)

    def too_small(self) -> bool:
        """Whether the terminal is below the size the screen in front is drawn for (80x24;
        a range-band battle's 60x20: `size_floor`)."""
        width, height = self.size_floor()
        return self.size.width < width or self.size.height < height

    def check_size(self) -> None:
        from .screens.too_small import TooSmallScreen

        small = self.too_small()
        showing = isinstance(self.screen, TooSmallScreen)
        if small and not showing:
            self.push_screen(TooSmallScreen())
        elif not small and showing:
            self.pop_screen()

    # ---- the game -----------------------------------------------------------------------
    def shown(self, path: Path) -> str:
        """A save's name for the player: relative to the saves folder (a remote player never
        sees the server's folders), else as given."""
        try:
            return str(path.relative_to(self.saves))
        except ValueError:
            return str(path)

    def start_session(self, session: Session, path: Path) -> None:
        """Play `session`, saved at `path` or beside it under a free name: a new game never
        replaces an existing save."""
        self.session = session
        self.save_path = path
        self._create = True  # the first save creates the file (see autosave)
        self.messages = []
        self.autosave()

    def new_save_path(self, company: str, seed: int) -> Path:
        return self.saves / f"{slug(company)}-{seed}.json"

    def open_save(self, path: Path) -> bool:
        """Load `path` (recovering it from its backup when it is missing or damaged, and
        saying so), go to where the game stands, and check it by replay in the background."""
        from ..save import FORMAT_VERSION, SaveError

        name = self.shown(path)
        try:
            session, loaded = Session.open(path, name)
        except SaveError as exc:
            self.notify(str(exc), severity="error", timeout=10, markup=False)
            return False
        self.session = session
        self.save_path = path
        self._create = False
        self.save_problem = None
        self.messages = []
        for note in loaded.notes:
            self.notify(note, severity="warning", timeout=12, markup=False)
        save = loaded.save
        if save.format < FORMAT_VERSION or not save.current_rules:
            what = [f"it is saved in format {FORMAT_VERSION} from now on"]
            if not save.current_rules:
                what.append("its commands were played under older rules, so no replay checks it")
            self.notify(
                f"{name} was made by {save.origin()}; {'; '.join(what)}.",
                timeout=8,
                markup=False,
            )
        self.show_game()
        self.check_save(save, name)
        return True

    @work(thread=True, exclusive=True, group="check-save")
    def check_save(self, save: SaveFile, name: str) -> Verdict:
        """Replay the save's log (a background thread: the screen is already open) and say so
        when the snapshot is not the state its commands rebuild."""
        verdict = verify(save)
        if not verdict.ok:
            with contextlib.suppress(RuntimeError):  # the game ended meanwhile
                self.call_from_thread(self.say_unverified, name, verdict)
        return verdict

    def say_unverified(self, name: str, verdict: Verdict) -> None:
        self.notify(
            f"{name}: the saved game does not follow from its commands ({verdict.message}): "
            "the file was edited or damaged. Play goes on from it as saved; the high scores "
            "count the game its commands rebuild.",
            severity="error",
            timeout=15,
            markup=False,
        )

    def show_game(self) -> None:
        """Go to where the game stands: the battle under way, the after-action report, or the
        hub; a quick battle (no campaign) has no hub under its battle.

        The game just opened (its state, the catalog, the screens' classes) lives as long as
        the game: it is moved out of the garbage collector's sight (`gc.freeze`), so the full
        collections Python makes now and then, mid key press, do not walk it again and again."""
        gc.freeze()
        from .screens.battle import BattleScreen
        from .screens.hub import HubScreen

        while len(self.screen_stack) > 1:
            self.pop_screen()
        state = self.session.state if self.session is not None else None
        campaign = state.campaign if state is not None else None
        if state is not None and campaign is None and state.battle is not None:
            self.push_screen(BattleScreen())
            return
        self.push_screen(HubScreen())
        if state is not None and state.battle is not None and campaign is not None:
            self.push_screen(BattleScreen())
        elif campaign is not None and campaign.after_action is not None:
            from .screens.afteraction import AfterActionScreen

            self.push_screen(AfterActionScreen())

    # ---- where the screens go: the app knows the screens, no screen imports another ------
    def show_title(self) -> None:
        from .screens.title import TitleScreen

        self.switch_screen(TitleScreen())

    def show_battle(self) -> None:
        """The battle just begun, over the screen in front (the hub stays under it)."""
        from .screens.battle import BattleScreen

        self.push_screen(BattleScreen())

    def show_report(self) -> None:
        """In place of the battle that ended: a contract's after-action report, or a quick
        battle's report."""
        from .screens.afteraction import AfterActionScreen
        from .screens.skirmish_report import SkirmishReportScreen

        campaign = self.session.state.campaign if self.session is not None else None
        self.switch_screen(AfterActionScreen() if campaign is not None else SkirmishReportScreen())

    def show_hub(self) -> None:
        """Back to the hub: the one under this screen, or a new one in its place."""
        from .screens.hub import HubScreen

        if any(isinstance(s, HubScreen) for s in self.screen_stack[:-1]):
            self.pop_screen()
        else:
            self.switch_screen(HubScreen())

    def show_debrief(self) -> None:
        """The end of the run, once, over whatever is in front."""
        from .screens.debrief import DebriefScreen

        if not any(isinstance(s, DebriefScreen) for s in self.screen_stack):
            self.push_screen(DebriefScreen())
            self.call_after_refresh(self.report_save)  # where and how it ended, for the scores

    def start_skirmish(self, seed: int, difficulty: int, rules: Ruleset = ()) -> bool:
        """A new quick battle with the starting lance, under the optional rules `rules`,
        saved as skirmish-<seed>.json."""
        from ..combat.skirmish import NewSkirmish

        session = Session.new(seed)
        outcome = session.apply(NewSkirmish(difficulty, rules=format_ruleset(rules)))
        if not isinstance(outcome, Accepted):
            self.notify(f"Refused: {outcome.reason}", severity="warning", markup=False)
            return False
        self.start_session(session, self.saves / f"skirmish-{seed}.json")
        self.show_game()
        return True

    def start_tutorial(self) -> bool:
        """The tutorial battle (players/tutorial.py), saved as tutorial.json (or beside it)."""
        from ..players import tutorial

        session = Session.new(tutorial.SEED)
        outcome = session.apply(tutorial.opening())
        if not isinstance(outcome, Accepted):
            self.notify(f"Refused: {outcome.reason}", severity="warning", markup=False)
            return False
        self.start_session(session, self.saves / tutorial.SAVE_NAME)
        self.show_game()
        return True

    def start_new(self, new: NewGame) -> None:
        """A new campaign from the command line, over the title screen."""
        from .screens.title import TitleScreen, random_seed

        title = self.screen
        if not isinstance(title, TitleScreen):
            return
        if new.name is None:
            title.new_campaign(seed=new.seed, rules=new.rules)
        else:
            title.start(new.name, random_seed() if new.seed is None else new.seed, new.rules)

    def act(self, command: Command, *, draw: bool = True) -> bool:
        """Apply a command for the player. Refusals show their reason; nothing changes. With
        `draw` False the outcome is left for `show_outcome` (the hub's day, hidden under its
        report until the report's frame is out)."""
        if self.session is None:
            return False
        outcome = self.session.apply(command)
        if not isinstance(outcome, Accepted):
            self.say(f"Refused: {outcome.reason}", warning=True)
            return False
        self.last_events = outcome.events
        self.record()
        self._outcome_due = True
        if draw:
            self.show_outcome()
        return True

    _outcome_due = False  # the last command's outcome is not on the screens yet

    def show_outcome(self) -> None:
        """The last command's outcome on the screens, unless it is there already: its last
        event on the message line, every screen redrawn."""
        if self._outcome_due:
            self._outcome_due = False
            self.report(self.last_events)
            self.redraw()

    def report(self, events: Sequence[Event]) -> None:
        lines = [e.describe() for e in events]
        self.messages.extend(lines)
        del self.messages[:-MESSAGES_KEPT]
        if lines:
            self.say(lines[-1])

    def last_report(self) -> list[str]:
        """What the last accepted command did, line by line, from its own events (the day
        and travel reports): never cut short by the capped message list."""
        return [e.describe() for e in self.last_events]

    def say(self, text: str, warning: bool = False) -> None:
        for screen in self.screen_stack:
            if hasattr(screen, "show_message"):
                screen.show_message(text, warning)
        if warning:
            self.notify(text, severity="warning", timeout=6, markup=False)

    def redraw(self) -> None:
        for screen in self.screen_stack:
            if isinstance(screen, GameScreen):
                screen.refresh_view()

    def autosave(self) -> bool:
        """Save the game (nothing is written when it has not changed since the last save);
        False, with the reason on screen and in `save_problem`, when it cannot be saved."""
        return self._write(whole=True)

    def record(self) -> bool:
        """Put the command just played on disk before its frame goes out: a line at the end
        of the save's journal, fsynced (`Session.record`, `journal.py`: some 0.1 ms of CPU
        where the whole file cost 1.5-2 ms and its checkpoint hash 0.5-0.7), and the whole
        file once the frame is out (`autosave`, which empties the journal); a quit, a
        hang-up or a crash before that finds the command in the journal. False, as
        `autosave`, when it cannot be written."""
        done = self._write(whole=False)
        session, path = self.session, self.save_path
        if done and session is not None and path is not None and session.unsaved(path):
            self.call_after_refresh(self.autosave)
        return done

    def _write(self, *, whole: bool) -> bool:
        if self.session is None or self.save_path is None:
            return True
        try:
            if self._create:
                self.save_path = self.session.create(self.save_path)
                self._create = False
                written = True
            elif whole:
                written = self.session.save(self.save_path)
            else:
                written = self.session.record(self.save_path)
        except OSError as exc:
            self.save_problem = (
                f"Could not save to {self.shown(self.save_path)}: {exc.strerror or exc}"
            )
            self.notify(self.save_problem, severity="error", markup=False)
            return False
        self.save_problem = None
        if written and not self.session.unsaved(self.save_path):  # the whole file
            self.report_save()
        return True

    def report_save(self) -> None:
        """In a server's game (`$MAC_TUI_STORE` set by the server): index the save just
        written, with its verified figures, in the server's store (`server.store.report`; in a
        thread of its own, so the game never waits for it)."""
        if self.session is None or self.save_path is None or not server_game():
            return
        if self._reporter is None:
            from ..server.store.report import SaveReporter

            self._reporter = SaveReporter.from_env()
        if self._reporter is not None:
            self._reporter.report(self.save_path, self.session.to_save())

    def unsaved(self) -> bool:
        """Is there progress that is not in the save file?"""
        if self.session is None or self.save_path is None:
            return False
        return self._create or self.session.unsaved(self.save_path)

    def request_quit(self) -> None:
        """Quit; with progress that cannot be saved (a read-only or full saves folder), ask
        first."""
        if not self.unsaved() or self.autosave():
            self.exit()
            return
        from rich.markup import escape

        from .widgets.dialogs import ConfirmScreen

        def answer(quit_anyway: bool | None) -> None:
            if quit_anyway:
                self.exit()

        self.push_screen(
            ConfirmScreen(
                f"{escape(self.save_problem or '')}.\n"
                "Quit anyway? The progress since the last save is lost.",
                yes="Quit",
                no="Stay",
            ),
            answer,
        )

    async def action_quit(self) -> None:
        self.request_quit()

    # ---- help and the command palette ---------------------------------------------------
    def action_help(self) -> None:
        from .screens.help import HelpScreen

        self.push_screen(HelpScreen(self.screen))

    def action_how_to_play(self) -> None:
        from .screens.howto import HowToPlayScreen

        if not isinstance(self.screen, HowToPlayScreen):
            self.push_screen(HowToPlayScreen())

    def get_key_display(self, binding: Binding) -> str:
        """Textual's form of a key; in ascii mode only ASCII (Enter, Esc, Left, ^q)."""
        from .glyphs import key_display

        shown = super().get_key_display(binding)
        return key_display(binding, shown, self.settings.glyphs == "ascii")

    def get_system_commands(self, screen: Screen[object]) -> Iterable[SystemCommand]:
        from .palette import binding_commands

        yield from super().get_system_commands(screen)
        yield from binding_commands(screen)  # every key legal now, with its key
        commands = getattr(screen, "palette_commands", None)
        if commands is not None:
            yield from commands()


_IS_A_HOST: type[GameHost] = MacApp  # the screens' view of the app (tui/host.py) holds


def run(
    load: Path | None = None,
    skirmish: tuple[int, int, Ruleset] | None = None,
    options: GameOptions | None = None,
    new: NewGame | None = None,
) -> None:
    MacApp(load=load, skirmish=skirmish, options=options, new=new).run()
