"""The command palette (ctrl+p) offers every game command a player can give from where he is.

* `binding_commands(screen)`: the keys of the screen in front, of its section and of the
  widget with the focus, that are legal now (the `check_action` that greys the footer: a
  greyed key is not offered), each with its key, running the same action.
* `CommandLineProvider`: a command typed in its one-line text form (the form of save logs and
  command files: `buy weapon light_laser 1`, `advance-day 3`, `jump avalon`) is offered as
  "Run: <command>" and goes through `app.act`, so a refusal shows its reason; a line that does
  not parse shows why when picked.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from functools import partial
from typing import Any

from textual.app import App, SystemCommand
from textual.command import (
    CommandInput,
    CommandPalette,
    DiscoveryHit,
    Hit,
    Hits,
    Provider,
    SearchIcon,
)
from textual.content import Content
from textual.screen import Screen

from ..campaign.commands import AdvanceDay, Jump, Travel
from ..game import Command, CommandSyntaxError, parse_command, verbs
from .glyphs import glyphs_for
from .literal import literal

# Keys that only move a cursor: hidden bindings on them are not offered as commands.
NAVIGATION_KEYS = {"up", "down", "left", "right", "shift+tab", "pageup", "pagedown", "home", "end"}
# Actions the palette leaves to others: Textual's own "Quit" and "Keys" entries are there.
LEFT_OUT = {"quit", "command_palette"}
EXAMPLES = ("buy-fuel 5", "advance-day 3", "buy weapon light_laser 1", "jump avalon")
TRIPS = (AdvanceDay, Travel, Jump)  # accepted, they show the day report, as their keys do


def _where(node: object) -> str:
    """The name of the screen or section a key belongs to, for the help line."""
    if isinstance(node, App):
        return "Anywhere"
    title = getattr(node, "TITLE", None)
    if isinstance(title, str) and title and not isinstance(node, Screen):
        return title
    name = type(node).__name__
    if name.endswith("Screen"):
        name = name[: -len("Screen")]
    return name


def binding_commands(screen: Screen[Any]) -> list[SystemCommand]:
    """A palette entry for every key of the game that is legal now where the player is."""
    app = screen.app
    skip = set(getattr(screen, "PALETTE_SKIP", ())) | LEFT_OUT
    seen: set[tuple[int, str]] = set()
    out: list[SystemCommand] = []
    for node, binding, enabled, _tooltip in screen.active_bindings.values():
        if not enabled or not binding.id or not binding.description:
            continue
        if binding.action.split("(")[0] in skip:
            continue
        if not binding.show and binding.key in NAVIGATION_KEYS:
            continue
        ident = (id(node), binding.action)
        if ident in seen:
            continue
        seen.add(ident)
        key = app.get_key_display(binding)
        out.append(
            SystemCommand(
                f"{binding.description} ({key})",
                f"{_where(node)}: key {key}",
                partial(app.run_action, binding.action, node),
            )
        )
    return out


# ---- commands typed in their text form -----------------------------------------------------
def _mode(app: Any) -> str:
    """Where the game stands: a battle, an after-action report, or the hub."""
    session = getattr(app, "session", None)
    state = session.state if session is not None else None
    if state is None or state.campaign is None:
        return "none"
    if state.battle is not None:
        return "battle"
    return "after_action" if state.campaign.after_action is not None else "hub"


def run_command(app: Any, command: Command) -> bool:
    """Apply a typed command through `app.act` (a refusal shows its reason). When it moves
    the game elsewhere (a mission starts, a report is done) the screens follow; a trip or a
    day passing shows the day report, as the keys do."""
    before = _mode(app)
    if not app.act(command):
        return False
    if _mode(app) != before:
        app.show_game()
    elif isinstance(command, TRIPS):
        from .screens.dayreport import show_day_report

        show_day_report(app, app.last_report())
    return True


def usage(verb: str) -> str:
    """`buy KIND ITEM QTY`: what a verb takes, from the parser's own complaint."""
    try:
        parse_command(verb)
    except CommandSyntaxError as exc:
        text = str(exc)
        return text.removeprefix("usage: ") if text.startswith("usage: ") else verb
    return verb


def command_hits(app: Any, query: str) -> Iterator[tuple[str, Callable[[], object], str]]:
    """(display, callback, help) for a query: "Run: ..." for a known verb, the usage of the
    verbs it begins otherwise."""
    line = query.strip()
    if not line or getattr(app, "session", None) is None:
        return
    verb = line.split()[0]
    if verb in verbs():  # run, or say why not (a module's verb in a game without it too)
        try:
            command = parse_command(line)
        except CommandSyntaxError as exc:
            reason = f"Refused: {exc}"
            yield f"Run: {line}", partial(app.say, reason, True), str(exc)
            return
        text = command.to_text()
        yield f"Run: {text}", partial(run_command, app, command), "Run this game command"
        return
    if " " not in line and len(line) >= 2:
        for name in verbs(app.session.state.ruleset):  # a module's verbs where it is played
            if name.startswith(line):
                form = usage(name)
                yield f"Type: {form}", partial(app.say, f"Type the command: {form}"), "A command"


class CommandLineProvider(Provider):
    """Game commands typed in their text form."""

    async def startup(self) -> None:
        """In ascii mode the palette's own search icon and placeholder become ASCII too."""
        g = glyphs_for(self.app)
        palette = self.app.screen
        if g.ascii and isinstance(palette, CommandPalette):
            palette.query_one(SearchIcon).icon = g.current
            field = palette.query_one(CommandInput)
            field.placeholder = g.text(field.placeholder)

    async def discover(self) -> Hits:
        """With nothing typed yet: how to type a command."""
        if getattr(self.app, "session", None) is not None:
            hint = f"Type a game command: {', '.join(EXAMPLES)}..."
            yield DiscoveryHit(
                "Type a game command",
                partial(self.app.notify, hint),
                help=f"{', '.join(EXAMPLES)}, any verb of a command file",
            )

    async def search(self, query: str) -> Hits:
        for display, callback, help_text in command_hits(self.app, query):
            score = 1.0 if display.startswith("Run:") else 0.5
            yield Hit(score, Content(display), callback, text=display, help=literal(help_text))
