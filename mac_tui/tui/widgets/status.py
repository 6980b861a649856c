"""The always-visible company status at the top of every hub screen: who, when, money, where;
with optional module O11, a company in debt says so (R28's days below zero, and no XP: O11.6);
then fuel, reputation, standing, upkeep, the optional rules played (`Rules O2,O3`, none for the
core game) and the seed. Two lines at 80 columns; the parts are
packed to the width, so a long company name or place moves a part down a line instead of
being cut. The seed is shown where the last line has room for it (from about 100 columns; at
80 the help, ?, names it)."""

from __future__ import annotations

from rich.text import Text
from textual.events import Resize
from textual.widgets import Static

from ...campaign.calendar import date_text
from ...campaign.timeflow import daily_upkeep
from ...catalog import catalog
from ...model import GameState
from ...ruleset import format_ruleset
from ..glyphs import glyphs, is_ascii
from ..internals import laid_size


def status_parts(state: GameState) -> list[list[Text]]:
    """The status as groups of parts: each group starts a line, its parts follow one another
    (separated) while they fit."""
    c = state.campaign
    if c is None:
        return [[Text("No campaign")]]
    cat = catalog()
    place = cat.places[c.place]
    system = cat.systems[place.system]
    first = [
        Text(c.company, style="bold"),
        Text(date_text(c.day)),
        Text(f"{c.credits:,} cr", style="bold red" if c.credits < 0 else "bold"),
        Text(f"{place.name}, {system.name}"),
    ]
    if c.credits < 0 and "O11" in c.ruleset:  # O11.6: in words, with R28's clock
        limit = cat.economy.failure.negative_credit_days
        debt = f"IN DEBT day {c.negative_days}/{limit}: no XP"
        first.insert(3, Text(debt, style="bold red"))
    second = [
        Text(f"Fuel {c.fuel}/{cat.galaxy.travel.fuel_capacity}"),
        Text(f"Rep {c.reputation}"),
    ]
    for faction_id, value in c.standing:
        faction = cat.factions[faction_id]
        level = cat.standing_level(value)
        part = Text()
        part.append(faction.abbrev, style=f"bold {faction.colour}")
        part.append(f" {level.name[:3]} {value}")
        second.append(part)
    second.append(Text(f"Upkeep {daily_upkeep(c):,}/d"))
    if c.ruleset:  # the optional rules played (O0.1); nothing for the core game
        second.append(Text(f"Rules {format_ruleset(c.ruleset)}", style="bold"))
    if c.ended:
        second.append(Text("RUN OVER", style="bold red"))
    return [first, second, [Text(f"Seed {state.seed}", style="dim")]]


OPTIONAL = 2  # the groups from this one on are shown only where the last line has room


def pack(groups: list[list[Text]], width: int, sep: str) -> Text:
    """The parts joined by `sep`, wrapped between parts; a group starts a new line when the
    first line can hold the whole of the group before it."""
    lines: list[Text] = []
    line = Text()
    for n, group in enumerate(groups):
        if n >= OPTIONAL:
            room = width - line.cell_len - len(sep)
            if sum(p.cell_len + len(sep) for p in group) - len(sep) > room:
                break
        elif n and len(lines) == 0:
            lines.append(line)  # the first group fitted one line: the next one starts afresh
            line = Text()
        for part in group:
            if line.cell_len and line.cell_len + len(sep) + part.cell_len > width:
                lines.append(line)
                line = Text()
            if line.cell_len:
                line.append(sep)
            line.append_text(part)
    lines.append(line)
    return Text("\n").join(lines)


def status_text(state: GameState, ascii: bool = False, width: int = 78) -> Text:
    """Two lines at 80 columns (more only for the longest names and numbers)."""
    return pack(status_parts(state), width, f" {glyphs(ascii).sep} ")


class StatusBar(Static):
    DEFAULT_CSS = """
    StatusBar { height: auto; background: $panel; padding: 0 1; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__("", id=id)
        self._state: GameState | None = None
        self._shown: tuple[int, int, bool] | None = None
        self._lines = 0  # the lines of the text shown

    def show(self, state: GameState) -> None:
        # its last layout's width (no look-up of its region on every key: `laid_size`)
        width = max(20, (laid_size(self).width or self.app.size.width) - 2)
        key = (id(state), width, is_ascii(self))
        if key == self._shown:
            return  # the same state at the same width: nothing to redraw
        self._state, self._shown = state, key
        text = status_text(state, is_ascii(self), width)
        lines = len(text.plain.splitlines())
        # A new layout only for another number of lines (a day passing changes the words,
        # rarely their lines: the day report opens over the hub with no layout of the hub).
        self.update(text, layout=lines != self._lines)
        self._lines = lines

    def on_resize(self, event: Resize) -> None:
        if self._state is not None:
            self.show(self._state)
