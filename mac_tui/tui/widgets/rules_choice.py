"""Choosing the optional rules of a new campaign or quick battle (optional-rules O0.1, O0.3).

Every module of `data/modules.toml` is listed in module order with a mark: `[x]` on, `[ ]`
off and free to switch on, ` - ` off and refused beside the modules chosen: not playable in
this version of the game, or excluded with a chosen one (O0.3). A refused row is dimmed and
says why in a few words; the line under the list gives the highlighted module's summary and,
for a refused one, the whole reason (the engine's `ruleset_refusal`, the words the CLI and
the commands use). Space switches the highlighted module on or off, Enter keeps the choice,
Escape leaves it as it was. The marks and the words carry the meaning without colour.
"""

from __future__ import annotations

from attrs import frozen
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Vertical
from textual.screen import ModalScreen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ... import ruleset as modules_in_play  # PLAYABLE read when drawn (tests patch it)
from ...catalog import catalog
from ...catalog.load import module_order
from ...ruleset import Ruleset, describe_ruleset, format_ruleset, ruleset_refusal
from ..glyphs import glyphs_for
from .dialogs import DIALOG_CSS

NAME_WIDTH = 34  # the longest module name ("Objectives, mission costs and debt")


@frozen
class ModuleChoice:
    """One module as the chooser shows it: on or not, and why it cannot be switched on
    beside the modules chosen (`refusal`, the whole reason; `short`, a few words)."""

    id: str
    name: str
    summary: str
    on: bool
    refusal: str | None = None
    short: str = ""


def _sorted(modules: set[str]) -> Ruleset:
    return tuple(sorted(modules, key=module_order))


def module_choices(chosen: Ruleset) -> list[ModuleChoice]:
    """Every module in module order, as it stands beside `chosen`."""
    cat = catalog()
    out = []
    for m in sorted(cat.modules, key=module_order):
        record = cat.modules[m]
        if m in chosen:
            out.append(ModuleChoice(m, record.name, record.summary, True))
            continue
        refusal = ruleset_refusal(_sorted({*chosen, m}))
        short = ""
        if refusal is not None:
            rivals = [
                other
                for pair in cat.excluded_modules
                if m in pair.modules
                for other in pair.modules
                if other != m and other in chosen
            ]
            short = f"not with {rivals[0]}" if rivals else "not in this version"
        out.append(ModuleChoice(m, record.name, record.summary, False, refusal, short))
    return out


def toggle(chosen: Ruleset, module: str) -> Ruleset | str:
    """`chosen` with `module` switched off or on, or why it cannot be switched on."""
    if module in chosen:
        return tuple(m for m in chosen if m != module)
    candidate = _sorted({*chosen, module})
    return ruleset_refusal(candidate) or candidate


def ruleset_words(ruleset: Ruleset, width: int) -> str:
    """The ruleset in words (`O2 Elevation and falling`) where that fits `width`, else by
    its ids (`O2,O3`); `core rules` for none."""
    words = describe_ruleset(ruleset)
    return words if len(words) <= width else format_ruleset(ruleset)


class RulesetScreen(ModalScreen[Ruleset | None]):
    """The optional modules: space switches one, Enter keeps the choice, Escape cancels."""

    DEFAULT_CSS = (
        DIALOG_CSS.format(name="RulesetScreen")
        + """
    RulesetScreen > Vertical { width: 76; max-height: 24; padding: 0 1; }
    RulesetScreen OptionList { height: auto; max-height: 13; }
    RulesetScreen #module-detail { height: 3; width: 100%; }
    RulesetScreen #ruleset-keys { height: auto; width: 100%; color: $text-muted; }
    """
    )
    BINDINGS = [
        Binding("space", "switch", "On/off", id="rules_choice.toggle"),
        Binding("escape", "cancel", "Cancel", id="dialog.cancel"),
    ]

    def __init__(self, chosen: Ruleset = (), what: str = "this game") -> None:
        super().__init__()
        self.chosen: Ruleset = chosen
        self.what = what

    def compose(self) -> ComposeResult:
        with Vertical(classes="ascii-frame"):
            yield Static("", id="ruleset-head", classes="prompt")
            yield OptionList(id="modules")
            yield Static("", id="module-detail")
            yield Static("", id="ruleset-keys")

    def on_mount(self) -> None:
        self.draw()
        options = self.query_one(OptionList)
        free = [i for i, c in enumerate(self.choices) if c.refusal is None]
        options.highlighted = free[0] if free else 0  # the first that can be switched
        options.focus()

    # ---- drawing ------------------------------------------------------------------------
    def draw(self) -> None:
        g = glyphs_for(self)
        options = self.query_one(OptionList)
        at = options.highlighted
        options.clear_options()
        self.choices = module_choices(self.chosen)
        for c in self.choices:
            mark = "[x]" if c.on else ("[ ]" if c.refusal is None else " - ")
            line = Text(f"{mark} {c.id:<4}{c.name:<{NAME_WIDTH}} {c.short}".rstrip())
            if c.refusal is not None:
                line.stylize("dim")
            options.add_option(Option(line, id=c.id))
        options.highlighted = at
        self.query_one("#ruleset-head", Static).update(
            Text(g.text(f"Optional rules for {self.what}: {ruleset_words(self.chosen, 48)}"))
        )
        self.query_one("#ruleset-keys", Static).update(
            g.text(
                f"Space: on/off {g.sep} Enter: play with these {g.sep} Esc: leave as it was"
                + ("" if modules_in_play.PLAYABLE else f" {g.sep} no module is playable yet")
            )
        )
        self.show_detail()

    def show_detail(self) -> None:
        options = self.query_one(OptionList)
        i = options.highlighted
        text = ""
        if i is not None and 0 <= i < len(self.choices):
            c = self.choices[i]
            text = f"{c.id} {c.name}: {c.summary}"
            if c.refusal is not None:
                text += f" Refused: {c.refusal}."
        self.query_one("#module-detail", Static).update(Text(glyphs_for(self).text(text)))

    # ---- events and actions -------------------------------------------------------------
    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        self.show_detail()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        self.dismiss(self.chosen)

    def action_switch(self) -> None:
        i = self.query_one(OptionList).highlighted
        if i is None:
            return
        got = toggle(self.chosen, self.choices[i].id)
        if isinstance(got, str):
            self.app.bell()
            self.notify(glyphs_for(self).text(f"Refused: {got}."), severity="warning", markup=False)
            return
        self.chosen = got
        self.draw()

    def action_cancel(self) -> None:
        self.dismiss(None)
