"""The company hub: the status bar, the sections (roster, pilots, market...), a message line.

Number keys switch sections; `d` advances a day and shows the day report.
"""

from __future__ import annotations

import asyncio
from functools import cache

import attrs
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Container
from textual.content import Content
from textual.reactive import reactive
from textual.widget import Widget
from textual.widgets import Static

from ...campaign.commands import AdvanceDay
from ..config import Settings, server_game
from ..glyphs import glyphs_for
from ..internals import (
    BindingsWhenShown,
    KeepsPaddedLines,
    PaintsDirect,
    ParksChildren,
    SizedInItsLayout,
    focus_unparked,
)
from ..literal import literal
from ..widgets.footer import GameFooter, Same
from ..widgets.kept_strips import KeepsStrips
from ..widgets.message_line import MessageLine
from ..widgets.section import Section
from ..widgets.status import StatusBar
from ..widgets.uniform import UniformLines
from .base import GameScreen
from .sections import section_classes


class SectionTabs(PaintsDirect, KeepsStrips, Static):
    """One line naming the sections with their keys; the current one highlighted (a picture
    per section, whose strips `KeepsStrips` keeps: a section key draws no tab line anew),
    its repaint handed to the screen at once (`internals.PaintsDirect`)."""

    DEFAULT_CSS = """
    SectionTabs { height: 1; background: $surface; }
    """

    _shown: str | None = None

    def show(self, current: str) -> None:
        """The names with `current` highlighted (one line, as wide whichever it is: no new
        layout; the line is drawn again only when the section changes)."""
        if current == self._shown:
            return
        self._shown = current
        self.update(tabs_content(current), layout=False)


class HubMessageLine(PaintsDirect, KeepsPaddedLines, MessageLine):
    """The hub's message line, padded at the sides: its lines styled once and kept as the
    detail panes' are (`internals.KeepsPaddedLines`), so a section's hint coming back is
    not styled again; its repaint handed to the screen at once (`internals.PaintsDirect`:
    a section key's hint or `H`'s words cost no Prompt and Update round, lp15)."""


@cache
def tabs_content(current: str) -> Content:
    """The tabs' line with `current` highlighted, parsed once per section."""
    parts = []
    for cls in section_classes():
        label = f" {cls.KEY} {cls.TITLE} "
        if cls.__name__ == current:
            parts.append(f"[reverse bold]{label}[/]")
        else:
            parts.append(f"[@click=screen.section('{cls.__name__}')]{label}[/]")
    return Content.from_markup("".join(parts))


class SectionStack(SizedInItsLayout, ParksChildren, UniformLines, Container):
    """The hub's sections, the current one displayed and the others parked (`display`
    off: out of the layout, which so arranges one section, not seven). Parking and bringing
    back send no Hide, Show or Resize events (`internals.ParksChildren`: a section brought
    back at the size it had is only painted), and its tables keep the lines they rendered
    (`GameTable`), so a switch lays out and paints the section in front and nothing else.

    A section is built the first time it is shown (`open`), or before, in a pause of the
    input (`HubScreen._prebuild`): the hub opens with its first section only. Building all
    seven took most of the hub's 0.16 s of CPU as it opened (roster alone: 0.06 s), paid by
    every campaign started or loaded, on a server's shared cores; a section shown for the
    first time before it was built costs its own build (10-100 ms: the finances' year-long
    ledger) once, one built in a pause a first layout and paint (15-25 ms). A server's game
    builds none in pauses (`HubScreen._prebuild_later`)."""

    DEFAULT_CSS = """
    SectionStack { height: 1fr; }
    SectionStack > * { width: 100%; height: 100%; }
    """

    # The stack's own lines lie under the section in front: a switch lays out, not repaints.
    current: reactive[str | None] = reactive[str | None](None, init=False, repaint=False)

    def __init__(self, *, id: str | None = None, initial: str | None = None) -> None:
        super().__init__(id=id)
        self._initial = initial
        self._building: dict[str, asyncio.Future[None]] = {}  # sections being mounted

    def on_mount(self) -> None:
        self.set_reactive(SectionStack.current, self._initial)
        self._place(self._initial)

    def watch_current(self, new: str | None) -> None:
        self._place(new)

    def opened(self, name: str) -> bool:
        return any(child.id == name for child in self.children)

    async def open(self, name: str) -> None:
        """Build section `name` (parked) if it has not been yet (and wait for it to be
        mounted, should its build be under way: the hub's prebuild)."""
        building = self._building.get(name)
        if building is not None:
            await building
            return
        if self.opened(name):
            return
        for cls in section_classes():
            if cls.__name__ == name:
                section = cls(id=name)
                section.display = False
                section.can_focus_children = False
                self._building[name] = mounted = asyncio.ensure_future(self.mount(section)())
                try:
                    await mounted
                finally:
                    del self._building[name]

    def _place(self, current: str | None) -> None:
        for child in self.children:
            here = child.id == current
            if child.display != here:
                self.place(child, here)  # the screen's and the section's arrangements kept
                child.can_focus_children = here  # the parked ones are out of the focus chain


PREBUILD_PAUSE = 0.5  # seconds without input before a section not shown yet is built
PREBUILD_NEXT = 0.05  # seconds between two such builds
PREBUILD_TIMED = True  # False: only when asked (`HubScreen._prebuild`: the tests)


class HubScreen(BindingsWhenShown, GameScreen):
    HELP = (
        "Keys 1-7 switch sections (or click their names); d lets a day pass, w a week; "
        "ctrl+p searches every command."
    )
    PALETTE_SKIP = ("section_number",)  # the palette offers "Go to <section>" instead
    BINDINGS = [
        *(
            # priority: run as the key reaches the app, not after it went down to the focused
            # table and climbed back through the section, the stack and the screen
            Binding(
                str(i),
                f"section_number({i})",
                f"Section {i}",
                show=False,
                id=f"hub.{i}",
                priority=True,
            )
            for i in range(1, 10)
        ),
        # priority too: the day's keys run as they reach the app, not after a trip down to
        # the focused table and back up through five message queues (0.4-0.5 ms of a day)
        Binding("d", "advance_day", "Next day", id="hub.advance_day", priority=True),
        Binding(
            "w", "advance_week", "Wait 7 days", id="hub.advance_week", show=False, priority=True
        ),
        Binding("escape", "menu", "Menu", id="hub.menu"),
        # priority: run as the key reaches the app, not after it went down to the focused
        # table and climbed back through five message queues (0.4 ms of H's 3.1; lp15)
        Binding("H", "toggle_hints", "Hints on/off", id="hub.hints", show=False, priority=True),
    ]

    DEFAULT_CSS = """
    HubScreen { layout: vertical; }
    HubScreen #sections { height: 1fr; }
    HubScreen #message { height: auto; padding: 0 1; color: $text-muted; }
    HubScreen #message.warning { color: $warning; text-style: bold; }
    """

    def compose(self) -> ComposeResult:
        yield StatusBar(id="status")
        yield SectionTabs(id="tabs")
        first = section_classes()[0]
        with SectionStack(id="sections", initial=first.__name__):
            yield first(id=first.__name__)  # the others as they are first shown
        yield HubMessageLine(id="message")
        yield GameFooter()

    @property
    def FOOTER_DROP(self) -> tuple[str, ...]:
        """What a narrow footer leaves to the help (?): quit, the menu, then what the section
        in front names."""
        section = self.current_section() if self.is_mounted else None
        own = getattr(section, "FOOTER_DROP", ()) if section is not None else ()
        return ("app.quit", "hub.menu", *own)

    def footer_token(self) -> object:
        """What the footer's keys follow (`GameFooter`): the section in front and what its
        `check_action` reads (`Section.footer_token`), the state (the sections' and the
        hub's `check_action`, compared as the very object) and the settings (the keys'
        names); None when the section does not say."""
        section = self.current_section() if self.is_mounted else None
        own = section.footer_token() if section is not None else None
        if section is None or own is None:
            return None
        session = self.game.session
        state = session.state if session is not None else None
        return (section.id, Same(state), self.game.settings, own)

    def on_mount(self) -> None:
        self.refresh_view()
        self.focus_section()
        self.show_hint()
        self._prebuild_later(PREBUILD_PAUSE)

    def _prebuild_later(self, delay: float) -> None:
        # Not in a server's game: its pauses are other players' keys on the host's shared
        # cores (six sections, some 155 ms of CPU a game, whether its player opens them or
        # not: 50 paced players' keys p95 rose by a few ms); a section costs its build once,
        # when first shown, as before.
        if PREBUILD_TIMED and not server_game():
            self.set_timer(delay, self._prebuild, name="hub-prebuild")

    _primed = False  # the session's save text worked out in a pause (`_prebuild`)

    async def _prebuild(self) -> None:
        """Build (and fill) the next section not built yet, parked, once no input has come for
        `PREBUILD_PAUSE` seconds, then look again shortly: the player reading the hub pays
        for the first showings, not a key. An input meanwhile puts the rest off to the next
        pause, so a key waits for one section's build at most."""
        if not self.is_attached:
            return
        collector = getattr(self.app, "collector", None)
        quiet = collector.now() - collector.last_input if collector is not None else 1e9
        if quiet < PREBUILD_PAUSE or not self.is_current:
            self._prebuild_later(PREBUILD_PAUSE)
            return
        session = self.game.session
        if session is not None and not self._primed:
            # The first: the save's text and the state's hash worked out ahead, so the first
            # day (d) after a load encodes only what it changes (`Session.prime`), and the
            # day report made.
            self._primed = True
            session.prime()
            from .dayreport import prepare_day_report

            await prepare_day_report(self.app)  # and the day report's screen, not shown
            self._prebuild_later(PREBUILD_NEXT)
            return
        stack = self.query_one(SectionStack)
        name = next((c.__name__ for c in section_classes() if not stack.opened(c.__name__)), None)
        if name is None:
            return  # all built
        await stack.open(name)
        section = stack.get_child_by_id(name)
        if isinstance(section, Section):
            section.redraw()
            section.display = True  # laid out once, below the section in front (out of sight)
            self.call_after_refresh(self._park, section)
        self._prebuild_later(PREBUILD_NEXT)

    def _park(self, section: Section) -> None:
        """Park a section built in a pause, once it has been laid out (unless a key brought
        it to the front meanwhile)."""
        if section.id != self.query_one(SectionStack).current:
            section.display = False

    # ---- drawing ------------------------------------------------------------------------
    def refresh_view(self) -> None:
        session = self.game.session
        if session is None:
            return
        self.query_one(StatusBar).show(session.state)
        switcher = self.query_one(SectionStack)
        self.query_one(SectionTabs).show(switcher.current or "")
        current = self.current_section()
        if current is not None:
            current.redraw()
        if session.state.campaign is not None and session.state.campaign.ended:
            self.game.show_debrief()

    def show_message(self, text: str, warning: bool = False) -> None:
        """The message line (`MessageLine`: a new layout only when the text takes another
        number of lines, the same words drawn once). `text` is plain words, shown as they are
        (a frame's or the company's name is the player's: never read as markup)."""
        self.query_one("#message", MessageLine).say(literal(glyphs_for(self).text(text)), warning)

    def show_hint(self) -> None:
        """The section's hint on the message line, while hints are on (settings, or H)."""
        settings = getattr(self.app, "settings", None)
        section = self.current_section()
        if isinstance(settings, Settings) and settings.hints and section and section.HINT:
            self.show_message(f"Hint: {section.HINT} (H: no hints)")

    def action_toggle_hints(self) -> None:
        from .settings import change_settings

        settings = getattr(self.app, "settings", None)
        current = settings if isinstance(settings, Settings) else Settings()
        # the file written once the message line is painted
        change_settings(
            self.app, attrs.evolve(current, hints=not current.hints), save_after_frame=True
        )
        if current.hints:
            self.show_message("Hints off (H, or the settings screen, turns them on again)")
        else:
            self.show_hint()

    def current_section(self) -> Section | None:
        switcher = self.query_one(SectionStack)
        if switcher.current is None:
            return None
        widget = switcher.get_child_by_id(switcher.current)
        return widget if isinstance(widget, Section) else None

    def focus_section(self) -> None:
        """Focus the section's first focusable widget now, not on the next tick (`focus()`
        waits one), so the switch and the focus are painted in one frame; the section just
        parked keeps its look of focus, and the one coming back has it still
        (`internals.focus_unparked`: no Blur and Focus round)."""
        section = self.current_section()
        if section is not None:
            first = next((w for w in section.walk_children(Widget) if w.can_focus), None)
            focus_unparked(self, first or section)

    # ---- actions ------------------------------------------------------------------------
    async def action_section_number(self, number: int) -> None:
        for cls in section_classes():
            if str(number) == cls.KEY:
                await self.action_section(cls.__name__)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "section_number":
            return any(str(parameters[0]) == cls.KEY for cls in section_classes())
        if action in ("advance_day", "advance_week"):
            session = self.game.session
            c = session.state.campaign if session else None
            return True if c is not None and c.mission is None and not c.ended else None
        return True

    async def action_section(self, name: str) -> None:
        switcher = self.query_one(SectionStack)
        if switcher.current == name:
            return
        await switcher.open(name)
        switcher.current = name
        self.refresh_view()
        self.focus_section()
        self.show_hint()
        # The switch lays the screen out again, which paints every widget; the repaint of
        # the whole screen that a focus change asks for would paint it all a second time.
        self._repaint_required = False

    def action_advance_day(self) -> None:
        self._advance(1)

    def action_advance_week(self) -> None:
        self._advance(7)

    def _advance(self, days: int) -> None:
        """Let `days` pass and show their report. The hub under the report (which hides it)
        shows the day once the report's frame is out (`show_day_report`'s `behind`), not on
        the key's path: the report is the whole picture."""
        session = self.game.session
        if session is None:
            return
        if self.game.act(AdvanceDay(days), draw=False):
            from .dayreport import show_day_report

            campaign = session.state.campaign
            if campaign is None or campaign.ended:
                self.game.show_outcome()  # the debrief comes first, under the report, as ever
            show_day_report(self.app, self.game.last_report(), behind=self.game.show_outcome)

    def action_menu(self) -> None:
        self.game.show_title()

    def palette_commands(self) -> list[object]:
        from textual.app import SystemCommand

        out: list[object] = []
        for cls in section_classes():
            out.append(
                SystemCommand(
                    f"Go to {cls.TITLE}",
                    f"Open the {cls.TITLE.lower()} section ({cls.KEY})",
                    lambda name=cls.__name__: self.action_section(name),
                )
            )
        return out  # the keys (Next day, Wait 7 days...) come from the app's binding commands
