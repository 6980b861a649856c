"""The title screen: new campaign, continue, load, rules reference, settings, quit."""

from __future__ import annotations

import os
from collections.abc import Callable

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Center, Vertical
from textual.screen import Screen
from textual.widgets import OptionList, Static
from textual.widgets.option_list import Option

from ... import __version__
from ...campaign.commands import NewCampaign
from ...catalog import catalog
from ...combat.setup import withdrawal_choices_text
from ...game import Accepted
from ...ruleset import Ruleset, format_ruleset
from ...session import Session
from ..host import host
from ..widgets.dialogs import Aside, AskScreen, ChooseScreen
from ..widgets.footer import GameFooter
from ..widgets.rules_choice import RulesetScreen, ruleset_words
from .contracts import enemy_text

BANNER = r"""
 __  __    _    ____
|  \/  |  / \  / ___|   Mechanized
| |\/| | / _ \| |       Armour
| |  | |/ ___ \ |___    Commander
|_|  |_/_/   \_\____|
"""


def random_seed() -> int:
    return int.from_bytes(os.urandom(4), "big")


SEED_DIGITS = 20  # seeds are reduced modulo 2**64: no seed needs more digits


def continue_latest(screen: Screen[None]) -> None:
    """Open the newest campaign of the saves folder (recovered from its backup when its file
    is missing or damaged); a quick battle only when no campaign is left, and only one still
    being fought. One that cannot be loaded is named and the next newest opened."""
    from ...savefolder import list_saves

    game = host(screen)
    listings = list_saves(game.saves)
    campaigns = [x for x in listings if x.header.get("kind") != "skirmish"]
    battles = [
        x for x in listings if x.header.get("kind") == "skirmish" and x.header.get("in_battle")
    ]
    if not campaigns and not battles:
        screen.app.notify("No saved campaign yet: start a new one (n).", severity="warning")
        return
    for listing in (*campaigns, *battles):
        if game.open_save(listing.path):
            return


class TitleScreen(Screen[None]):
    BINDINGS = [
        Binding("n", "choose('new')", "New", id="title.new"),
        Binding("c", "choose('continue')", "Continue", id="title.continue"),
        Binding("l", "choose('load')", "Load", id="title.load"),
        Binding("b", "choose('battle')", "Battle", id="title.battle"),
        Binding("t", "choose('tutorial')", "Tutorial", id="title.tutorial", show=False),
        Binding("h", "choose('scores')", "Scores", id="title.scores"),
        Binding("p", "choose('howto')", "How to play", id="title.howto", show=False),
        Binding("r", "choose('rules')", "Rules", id="title.rules"),
        Binding("s", "choose('settings')", "Settings", id="title.settings"),
        # ^q Quit is in the footer already: q keeps the footer within 80 columns
        Binding("q", "choose('quit')", "Quit", id="title.quit", show=False),
    ]
    DEFAULT_CSS = """
    TitleScreen { align: center middle; }
    TitleScreen #banner { width: auto; color: $primary; text-style: bold; }
    TitleScreen OptionList { width: 40; height: auto; margin-top: 1; }
    TitleScreen #version { width: auto; color: $text-muted; }
    """

    def __init__(self) -> None:
        super().__init__()
        self.rules: Ruleset = ()  # the optional rules of the next new game (O0.1)

    def compose(self) -> ComposeResult:
        with Vertical():
            with Center():
                yield Static(BANNER.strip("\n"), id="banner")
            with Center():
                yield OptionList(
                    Option("New campaign            n", id="new"),
                    Option("Continue                c", id="continue"),
                    Option("Load a save             l", id="load"),
                    Option("Quick battle            b", id="battle"),
                    Option("Tutorial battle         t", id="tutorial"),
                    Option("High scores             h", id="scores"),
                    Option("How to play             p", id="howto"),
                    Option("Rules reference         r", id="rules"),
                    Option("Settings                s", id="settings"),
                    Option("Quit                    q", id="quit"),
                )
            with Center():
                yield Static(f"mac-tui {__version__}", id="version")
        yield GameFooter()

    def on_mount(self) -> None:
        self.query_one(OptionList).focus()

    def on_screen_resume(self) -> None:
        self.query_one(OptionList).focus()

    def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        if event.option.id:
            self.action_choose(event.option.id)

    def action_choose(self, what: str) -> None:
        app = self.app
        if what == "new":
            self.new_campaign()
        elif what == "continue":
            continue_latest(self)
        elif what == "load":
            from .load import LoadScreen

            app.push_screen(LoadScreen())
        elif what == "battle":
            self.quick_battle()
        elif what == "tutorial":
            host(self).start_tutorial()
        elif what == "scores":
            from .scores import ScoresScreen

            app.push_screen(ScoresScreen())
        elif what == "howto":
            from .howto import HowToPlayScreen

            app.push_screen(HowToPlayScreen())
        elif what == "rules":
            from .rules import RulesScreen

            app.push_screen(RulesScreen())
        elif what == "settings":
            from .settings import SettingsScreen

            app.push_screen(SettingsScreen())
        elif what == "quit":
            host(self).request_quit()

    def rules_aside(self, what: str) -> Aside:
        """The button of the new game's dialogs that chooses its optional rules (Tab, Enter)."""

        def label() -> str:
            return f"Optional rules: {ruleset_words(self.rules, 30)} (Tab, Enter: change)"

        def press(done: Callable[[], None]) -> None:
            def chosen(rules: Ruleset | None) -> None:
                if rules is not None:
                    self.rules = rules
                    done()

            self.app.push_screen(RulesetScreen(self.rules, what), chosen)

        return Aside(label, press)

    def new_campaign(self, seed: int | None = None, rules: Ruleset | None = None) -> None:
        """Ask the company's name, then the seed (a random one offered) and the optional rules
        (the button under the seed); a seed given here (`mac-tui play --seed N`) is used
        without asking, and so are the rules then."""
        if rules is not None:
            self.rules = rules
        given = seed
        seed = random_seed() if seed is None else seed

        def named(name: str | None) -> None:
            if not name:
                return
            if given is not None:
                self.start(name, given)
                return

            def seeded(text: str | None) -> None:
                if text is None:
                    return
                text = text.strip()
                if text and not (text.isascii() and text.isdigit() and len(text) <= SEED_DIGITS):
                    self.app.notify(
                        f"A seed is a whole number of at most {SEED_DIGITS} digits.",
                        severity="warning",
                    )
                    return
                self.start(name, int(text) if text else seed)

            self.app.push_screen(
                AskScreen(
                    "Seed (Enter keeps this one; type another to replay a game):",
                    str(seed),
                    aside=self.rules_aside("this campaign"),
                ),
                seeded,
            )

        suggestion = "Iron Wolves"
        self.app.push_screen(
            AskScreen(
                f"Name your company (Enter keeps {suggestion}):",
                placeholder=suggestion,
                suggest=True,
            ),
            named,
        )

    def quick_battle(self) -> None:
        """A standalone battle with the starting lance: pick the difficulty (the enemy force
        and the map size), the seed is drawn."""
        cat = catalog()
        bounds = cat.missions.difficulty
        options = []
        for d in range(bounds.min, bounds.max + 1):
            size = cat.map_size(d)
            force = tuple(cat.classes[c].name for c in cat.enemy_force(d).classes)
            options.append(
                (
                    str(d),
                    f"Difficulty {d}: {enemy_text(force)}, {size.width}x{size.height} map, "
                    f"{withdrawal_choices_text(d)}",
                )
            )

        def chosen(value: str | None) -> None:
            if value:
                host(self).start_skirmish(random_seed(), int(value), self.rules)

        self.app.push_screen(
            ChooseScreen(
                "Quick battle: your starting lance against...",
                options,
                aside=self.rules_aside("this battle"),
            ),
            chosen,
        )

    def start(self, name: str, seed: int, rules: Ruleset | None = None) -> None:
        """A new campaign under the optional rules chosen (or `rules`, from the command line)."""
        if rules is not None:
            self.rules = rules
        app = host(self)
        session = Session.new(seed)
        outcome = session.apply(NewCampaign(name, rules=format_ruleset(self.rules)))
        if not isinstance(outcome, Accepted):
            self.app.notify(f"Refused: {outcome.reason}", severity="warning", markup=False)
            return
        path = app.new_save_path(name, seed)
        app.start_session(session, path)
        app.report(outcome.events)
        app.show_game()
