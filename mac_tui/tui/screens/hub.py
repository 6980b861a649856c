"""The company hub: the status bar, the sections (roster, pilots, market...), a message line.

Number keys switch sections; `d` advances a day and shows the day report.
"""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import ContentSwitcher, Footer, Static

from ...campaign.commands import AdvanceDay
from ..glyphs import glyphs_for
from ..widgets.section import Section
from ..widgets.status import StatusBar
from .base import GameScreen
from .sections import section_classes


class SectionTabs(Static):
    """One line naming the sections with their keys; the current one highlighted."""

    DEFAULT_CSS = """
    SectionTabs { height: 1; background: $surface; }
    """

    def show(self, current: str) -> None:
        parts = []
        for cls in section_classes():
            label = f" {cls.KEY} {cls.TITLE} "
            if cls.__name__ == current:
                parts.append(f"[reverse bold]{label}[/]")
            else:
                parts.append(f"[@click=screen.section('{cls.__name__}')]{label}[/]")
        self.update("".join(parts))


class HubScreen(GameScreen):
    HELP = (
        "Keys 1-7 switch sections (or click their names); d lets a day pass, w a week; "
        "ctrl+p searches every command."
    )
    PALETTE_SKIP = ("section_number",)  # the palette offers "Go to <section>" instead
    BINDINGS = [
        *(
            Binding(str(i), f"section_number({i})", f"Section {i}", show=False, id=f"hub.{i}")
            for i in range(1, 10)
        ),
        Binding("d", "advance_day", "Next day", id="hub.advance_day"),
        Binding("w", "advance_week", "Wait 7 days", id="hub.advance_week", show=False),
        Binding("escape", "menu", "Menu", id="hub.menu"),
    ]

    DEFAULT_CSS = """
    HubScreen { layout: vertical; }
    HubScreen #sections { height: 1fr; }
    HubScreen #message { height: 1; padding: 0 1; color: $text-muted; }
    HubScreen #message.warning { color: $warning; text-style: bold; }
    """

    def compose(self) -> ComposeResult:
        yield StatusBar(id="status")
        yield SectionTabs(id="tabs")
        with ContentSwitcher(id="sections", initial=section_classes()[0].__name__):
            for cls in section_classes():
                yield cls(id=cls.__name__)
        yield Static("", id="message")
        yield Footer(compact=True)

    def on_mount(self) -> None:
        self.refresh_view()
        self.focus_section()

    # ---- drawing ------------------------------------------------------------------------
    def refresh_view(self) -> None:
        session = self.game.session
        if session is None:
            return
        self.query_one(StatusBar).show(session.state)
        switcher = self.query_one(ContentSwitcher)
        self.query_one(SectionTabs).show(switcher.current or "")
        current = self.current_section()
        if current is not None:
            current.refresh_view()
        if session.state.campaign is not None and session.state.campaign.ended:
            self.game.show_debrief()

    def show_message(self, text: str, warning: bool = False) -> None:
        msg = self.query_one("#message", Static)
        msg.update(glyphs_for(self).text(text))
        msg.set_class(warning, "warning")

    def current_section(self) -> Section | None:
        switcher = self.query_one(ContentSwitcher)
        if switcher.current is None:
            return None
        widget = switcher.get_child_by_id(switcher.current)
        return widget if isinstance(widget, Section) else None

    def focus_section(self) -> None:
        section = self.current_section()
        if section is not None:
            focusable = [w for w in section.query("*") if w.can_focus]
            (focusable[0] if focusable else section).focus()

    # ---- actions ------------------------------------------------------------------------
    def action_section_number(self, number: int) -> None:
        for cls in section_classes():
            if str(number) == cls.KEY:
                self.action_section(cls.__name__)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action == "section_number":
            return any(str(parameters[0]) == cls.KEY for cls in section_classes())
        if action in ("advance_day", "advance_week"):
            session = self.game.session
            c = session.state.campaign if session else None
            return True if c is not None and c.mission is None and not c.ended else None
        return True

    def action_section(self, name: str) -> None:
        switcher = self.query_one(ContentSwitcher)
        switcher.current = name
        self.refresh_view()
        self.focus_section()

    def action_advance_day(self) -> None:
        self._advance(1)

    def action_advance_week(self) -> None:
        self._advance(7)

    def _advance(self, days: int) -> None:
        session = self.game.session
        if session is None:
            return
        if self.game.act(AdvanceDay(days)):
            from .dayreport import DayReportScreen

            self.app.push_screen(DayReportScreen(self.game.last_report()))

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
