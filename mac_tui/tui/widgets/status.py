"""The always-visible company status: two lines at the top of every hub screen."""

from __future__ import annotations

from rich.text import Text
from textual.widgets import Static

from ...campaign.calendar import date_text
from ...campaign.timeflow import daily_upkeep
from ...catalog import catalog
from ...model import GameState
from ..glyphs import glyphs, is_ascii


def status_text(state: GameState, ascii: bool = False) -> Text:
    """Two lines at 80 columns: who, when, money, where; then fuel, standing, upkeep."""
    sep = glyphs(ascii).sep
    c = state.campaign
    if c is None:
        return Text("No campaign")
    cat = catalog()
    place = cat.places[c.place]
    system = cat.systems[place.system]
    text = Text()
    text.append(c.company, style="bold")
    text.append(f" {sep} {date_text(c.day)} {sep} ")
    text.append(f"{c.credits:,} cr", style="bold red" if c.credits < 0 else "bold")
    text.append(f" {sep} {place.name}, {system.name}")
    text.append("\n")
    text.append(f"Fuel {c.fuel}/{cat.galaxy.travel.fuel_capacity} {sep} Rep {c.reputation}")
    for faction_id, value in c.standing:
        faction = cat.factions[faction_id]
        level = cat.standing_level(value)
        text.append(f" {sep} ")
        text.append(faction.abbrev, style=f"bold {faction.colour}")
        text.append(f" {level.name[:3]} {value}")
    text.append(f" {sep} Upkeep {daily_upkeep(c):,}/d")
    if c.ended:
        text.append(f" {sep} RUN OVER", style="bold red")
    return text


class StatusBar(Static):
    DEFAULT_CSS = """
    StatusBar { height: 2; background: $panel; padding: 0 1; }
    """

    def show(self, state: GameState) -> None:
        self.update(status_text(state, is_ascii(self)))
