"""`?`: help for the screen in front, with its keys (as remapped) and what they do."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Label, Static

from ...ruleset import describe_ruleset, format_ruleset
from ..glyphs import glyphs_for


class HelpScreen(ModalScreen[None]):
    BINDINGS = [Binding("escape,question_mark,enter", "close", "Close", id="help.close")]
    DEFAULT_CSS = """
    HelpScreen { align: center middle; }
    HelpScreen > Vertical {
        width: 76; height: auto; max-height: 22; border: thick $primary; background: $surface;
        padding: 0 1;
    }
    HelpScreen VerticalScroll { height: auto; max-height: 18; }
    """

    def __init__(self, under: Screen[object]) -> None:
        super().__init__()
        self.under = under

    def compose(self) -> ComposeResult:
        g = glyphs_for(self.app)
        with Vertical():
            yield Label(
                f"[b]Help[/b]  (Esc to close) {g.sep} F1: how to play {g.sep} ctrl+p: palette "
                f"{g.sep} ctrl+q: quit"
            )
            with VerticalScroll():
                yield Static(g.text(self.text()))

    def text(self) -> str:
        lines: list[str] = []
        section = None
        current = getattr(self.under, "current_section", None)
        if callable(current):
            section = current()
        if section is not None:
            lines.append(f"[b]{section.TITLE}[/b]: {section.HELP}")
            lines.append("")
        session = getattr(self.app, "session", None)
        if session is not None and getattr(self.under, "current_section", None) is not None:
            seed = session.state.seed
            ruleset = session.state.ruleset
            rules = f" --rules {format_ruleset(ruleset)}" if ruleset else ""
            lines.append(
                f"This game's seed is {seed}: mac-tui play --seed {seed}{rules} starts it again."
            )
            if ruleset:
                lines.append(f"Optional rules: {describe_ruleset(ruleset)}.")
            lines.append("")
        intro = getattr(self.under, "HELP", "")
        if intro:
            lines += [intro, ""]
        seen: set[tuple[str, str]] = set()
        shown = [b.binding for b in self.under.active_bindings.values()]
        # The screen's and the section's own keys first; a table's navigation keys are hidden.
        for binding in sorted(shown, key=lambda b: b.system):
            if not binding.description or not binding.show:
                continue
            key = (self.app.get_key_display(binding), binding.description)
            if key not in seen:
                seen.add(key)
                lines.append(f"  {key[0]:<12} {key[1]}")
        return "\n".join(lines)

    def action_close(self) -> None:
        self.dismiss(None)
