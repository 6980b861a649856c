"""Galaxy: the star map, the locations of the current system, travel and jumps.

The map (widgets/starmap.py) picks a system; the panel beside it shows the current system's
locations with what they offer, and the selected system: the jump to it (a neighbour) or the
quickest route (`travel.route_plan`) and its first jump. Costs and refusals come from the
engine (`travel.destinations`, `route_plan`, `travel_refusal`, `jump_refusal`).
"""

from __future__ import annotations

from attrs import define, field
from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.widgets import Static

from ...campaign.calendar import date_text
from ...campaign.commands import Jump, Travel
from ...campaign.common import campaign_refusal
from ...campaign.state import Campaign
from ...campaign.timeflow import daily_upkeep
from ...campaign.travel import (
    Destination,
    RoutePlan,
    current_system,
    destinations,
    jump_refusal,
    route_plan,
    travel_refusal,
)
from ...catalog import catalog
from ...game import Command
from ..glyphs import glyphs, is_ascii
from ..host import host
from ..widgets.dialogs import ChooseScreen, ConfirmScreen
from ..widgets.kept_strips import KeptStatic
from ..widgets.section import Section
from ..widgets.starmap import StarMap, faction_colour, faction_label, faction_marker

NARROW_PANEL, WIDE_PANEL = 30, 42


@define
class _Asked:
    """The engine's answers about one campaign state (a state is never changed: a command
    makes a new one), asked once: a cursor move on the map asks for the routes to every
    system (the Tab order), to the selected one (the map, the panel, the keys' legality) and
    for the trips from here several times over."""

    campaign: Campaign | None = None
    plans: dict[str, RoutePlan | None] = field(factory=dict)
    trips: list[Destination] | None = None
    order: list[str] | None = None
    panels: dict[tuple[str, bool], Text] = field(factory=dict)  # (selected, ascii) -> panel


_ASKED = _Asked()


def _asked(campaign: Campaign) -> _Asked:
    if _ASKED.campaign is not campaign:
        _ASKED.campaign, _ASKED.trips, _ASKED.order = campaign, None, None
        _ASKED.plans.clear()
        _ASKED.panels.clear()
    return _ASKED


def plan_to(campaign: Campaign, system: str) -> RoutePlan | None:
    """`travel.route_plan`, asked once per campaign state and system."""
    plans = _asked(campaign).plans
    if system not in plans:
        plans[system] = route_plan(campaign, system)
    return plans[system]


def trips_from(campaign: Campaign) -> list[Destination]:
    """`travel.destinations`, asked once per campaign state."""
    asked = _asked(campaign)
    if asked.trips is None:
        asked.trips = destinations(campaign)
    return asked.trips


def panel_of(campaign: Campaign, selected: str, ascii_glyphs: bool) -> Text:
    """`panel_text` in the glyphs asked for, made once per campaign state and selection (the
    same `Text` again: the panel finds it shown already, or its lines kept)."""
    panels = _asked(campaign).panels
    key = (selected, ascii_glyphs)
    if key not in panels:
        panels[key] = glyphs(ascii_glyphs).rich(panel_text(campaign, selected))
    return panels[key]


def offers(place_id: str) -> str:
    """What a location offers: market, hiring, the contract difficulty range."""
    p = catalog().places[place_id]
    parts = [w for w, has in (("market", p.market), ("hiring", p.hiring)) if has]
    return f"{', '.join(parts) or 'no market/hiring'}, diff {p.min_difficulty}-{p.max_difficulty}"


def days_text(days: int) -> str:
    return f"{days} day" if days == 1 else f"{days} days"


def system_heading(system_id: str, prefix: str) -> Text:
    """`@ Crossroads · - contested` and the system's description."""
    s = catalog().systems[system_id]
    colour = faction_colour(s.faction)
    text = Text()
    text.append(f"{prefix} {s.name}", style=f"bold {colour}")
    text.append(f" · {faction_marker(s.faction)} {faction_label(s.faction)}", style=colour)
    text.append(f"\n{s.description}", style="dim")
    return text


def next_hop(campaign: Campaign, target: str) -> str | None:
    """The system to jump to next on the way to `target`: itself when it is a neighbour, else
    the first jump of the quickest route; None for the current system or no route."""
    if target == current_system(campaign):
        return None
    plan = plan_to(campaign, target)
    return plan.hops[0].to if plan is not None and plan.hops else None


def panel_text(campaign: Campaign, selected: str) -> Text:
    """The side panel: this system's locations and travel, then the selected system."""
    cat = catalog()
    here = current_system(campaign)
    trips = {d.id: d for d in trips_from(campaign)}
    text = system_heading(here, "@")
    travel = [d for d in trips.values() if d.kind == "travel"]
    for place in cat.places_in(here):
        is_here = place.id == campaign.place
        text.append(f"\n{'@' if is_here else ' '} {place.name}", style="bold" if is_here else "")
        text.append(" (here)" if is_here else "", style="dim")
        text.append(f"\n  {offers(place.id)}", style="dim")
    if travel:
        t = travel[0]
        if all(d.affordable for d in travel):
            text.append(f"\nt travel: {t.fuel} fuel, {days_text(t.days)}")
        else:
            text.append(f"\nt: {travel[0].reason}", style="bold")
    text.append("\n")
    text.append_text(_selected_text(campaign, selected, trips))
    return text


def _selected_text(campaign: Campaign, selected: str, trips: dict[str, Destination]) -> Text:
    cat = catalog()
    text = Text()
    if selected == current_system(campaign) or selected not in cat.systems:
        neighbours = [d for d in trips.values() if d.kind == "jump"]
        text.append("\nJumps from here (Tab picks):", style="bold")
        for d in neighbours:
            text.append(f"\n  {d.name}: {d.fuel} fuel {d.days}d")
        return text
    text.append("\n")
    text.append_text(system_heading(selected, ">"))
    plan = plan_to(campaign, selected)
    if selected in trips:
        d = trips[selected]
        text.append(f"\nJump: {d.fuel} fuel, {days_text(d.days)}", style="bold")
        text.append(f"\narrive at {cat.places[d.arrival].name}")
    elif plan is not None:
        text.append(f"\nRoute: {plan.fuel} fuel, {days_text(plan.days)}", style="bold")
        for leg in plan.hops:
            text.append(f"\n {cat.systems[leg.to].name} {leg.fuel} fuel {leg.days}d")
        if not plan.fuel_enough:
            text.append(f"\n(fuel held: {campaign.fuel}; refuel on the way)")
    else:
        text.append("\nNo route from here.")
    hop = next_hop(campaign, selected)
    reason = jump_refusal(campaign, hop) if hop else None
    if reason:
        text.append(f"\nCannot jump: {reason}", style="bold")
    elif hop == selected:
        text.append("\nj or Enter: jump")
    elif hop:
        text.append(f"\nj: jump to {cat.systems[hop].name}")
    return text


def jump_order(campaign: Campaign) -> list[str]:
    """Tab order: the current system, its neighbours, then the rest by travel days."""
    asked = _asked(campaign)
    if asked.order is None:
        asked.order = _jump_order(campaign)
    return asked.order


def _jump_order(campaign: Campaign) -> list[str]:
    cat = catalog()
    here = current_system(campaign)
    neighbours = [other for other, _ in cat.routes_from(here)]
    rest = [s.id for s in cat.galaxy.system if s.id != here and s.id not in neighbours]

    def days(system: str) -> tuple[int, str]:
        plan = plan_to(campaign, system)
        return (plan.days if plan else 999, cat.systems[system].name)

    return [here, *neighbours, *sorted(rest, key=days)]


class GalaxyPanel(KeptStatic):
    """The side panel's text: as tall as its column while it fits, so a system whose panel
    has another number of lines than the last one's lays nothing out again
    (`KeptStatic.FILLS_HEIGHT`), and a new text writes only the rows that changed (the
    current system's lines above stay)."""

    FILLS_HEIGHT = True
    REPAINTS_CHANGED_ROWS = True


class GalaxySection(Section):
    TITLE = "Galaxy"
    KEY = "5"
    HINT = (
        "Other systems have other markets, employers and contracts; a jump costs fuel and "
        "days, and every day costs upkeep."
    )
    HELP = (
        "The star map: C Crucible, D Directorate, O Outer Reach, - contested; @ is the company. "
        "Arrows or Tab pick a system (or click it); the panel shows the jump or the quickest "
        "route. Enter on a neighbour jumps there; j jumps to it, or takes the first jump of the "
        "route to a distant system. t travels to another location in this system. Every trip "
        "costs fuel and days; the day report shows what happened on the way."
    )
    BINDINGS = [
        Binding("t", "travel", "Travel", id="galaxy.travel"),
        Binding("j", "jump", "Jump", id="galaxy.jump"),
    ]
    DEFAULT_CSS = f"""
    GalaxySection Horizontal {{ height: 1fr; }}
    GalaxySection #galaxy-side {{
        width: {NARROW_PANEL}; height: 1fr; background: $surface; padding: 0 1;
        scrollbar-size-vertical: 1;
    }}
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.selected = ""

    def compose(self) -> ComposeResult:
        with Horizontal():
            yield StarMap(id="starmap", on_selected=self.selected_on_map)
            with VerticalScroll(id="galaxy-side", can_focus=False):
                yield GalaxyPanel("", id="galaxy-panel")

    def on_resize(self, event: events.Resize) -> None:
        side = self.query_one("#galaxy-side")
        side.styles.width = WIDE_PANEL if event.size.width >= 110 else NARROW_PANEL

    # ---- drawing ------------------------------------------------------------------------
    def refresh_view(self) -> None:
        if getattr(self.app, "session", None) is None or self.state.campaign is None:
            return
        c = self.campaign
        here = current_system(c)
        if self.selected not in catalog().systems:
            self.selected = here
        plan = plan_to(c, self.selected) if self.selected != here else None
        route = plan.systems if plan else ()
        self.query_one(StarMap).show(here, self.selected, route, jump_order(c))
        panel = panel_of(c, self.selected, is_ascii(self))
        self.query_one("#galaxy-panel", Static).update(panel)
        self.refresh_bindings()

    def map_text(self) -> str:
        return self.query_one(StarMap).text()

    def selected_on_map(self, system: str) -> None:
        """The map's new selection, told at once (`StarMap(on_selected=...)`: no message
        climbing from the map through the row to the section)."""
        self.selected = system
        self.refresh_view()

    def on_star_map_activated(self, message: StarMap.Activated) -> None:
        self.selected = message.system
        c = self.campaign
        if message.system == current_system(c):
            self.action_travel()
        elif message.system in {other for other, _ in catalog().routes_from(current_system(c))}:
            self.action_jump()
        else:
            plan = plan_to(c, message.system)
            if plan is None:
                self.say(f"No route to {catalog().systems[message.system].name}.", warning=True)
                return
            cat = catalog()
            via = ", ".join(cat.systems[s].name for s in plan.systems[1:-1])
            self.say(
                f"To {cat.systems[message.system].name}: {len(plan.hops)} jumps via {via}, "
                f"{plan.fuel} fuel, {plan.days} days. j: jump to "
                f"{cat.systems[plan.hops[0].to].name}."
            )

    # ---- legality -----------------------------------------------------------------------
    def footer_token(self) -> object:
        """The one key whose legality follows the selection: j (the selection itself would
        have the footer read its keys on every cursor move)."""
        return ("jump", self.check_action("jump", ()))

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if action not in ("travel", "jump"):
            return True
        if getattr(self.app, "session", None) is None or campaign_refusal(self.state):
            return None
        c = self.campaign
        if action == "travel":
            trips = [d for d in trips_from(c) if d.kind == "travel"]
            return True if any(d.affordable for d in trips) else None
        hop = next_hop(c, self.selected)
        return True if hop and jump_refusal(c, hop) is None else None

    # ---- actions ------------------------------------------------------------------------
    def action_travel(self) -> None:
        c = self.campaign
        trips = [d for d in trips_from(c) if d.kind == "travel"]
        if not trips:
            self.say("Refused: there is no other location in this system", warning=True)
            return
        options = []
        for d in trips:
            cost = f"{d.fuel} fuel, {days_text(d.days)}" if d.affordable else f"({d.reason})"
            options.append((d.id, f"{d.name} · {offers(d.id)} · {cost}"))

        def chosen(place: str | None) -> None:
            if not place:
                return
            reason = travel_refusal(self.campaign, place)
            if reason:
                self.say(f"Refused: {reason}", warning=True)
                return
            self.trip(Travel(place))

        system = catalog().systems[current_system(c)].name
        self.app.push_screen(ChooseScreen(f"Travel within {system} to:", options), chosen)

    def action_jump(self) -> None:
        c = self.campaign
        hop = next_hop(c, self.selected)
        if hop is None:
            self.say("Pick another system on the map first (arrows, Tab or a click).")
            return
        reason = jump_refusal(c, hop)
        if reason:
            self.say(f"Refused: {reason}", warning=True)
            return
        cat = catalog()
        trip = next(d for d in trips_from(c) if d.kind == "jump" and d.id == hop)
        towards = ""
        if hop != self.selected:
            plan = plan_to(c, self.selected)
            jumps = len(plan.hops) if plan else 0
            towards = f" (1 of {jumps} to {cat.systems[self.selected].name})"
        text = "\n".join(
            (
                f"Jump to {trip.name}{towards}?",
                f"{trip.fuel} fuel, {days_text(trip.days)}; arrive at "
                f"{cat.places[trip.arrival].name}.",
                f"Fuel held: {c.fuel}. Upkeep {daily_upkeep(c):,} cr a day goes on.",
                f"Today is {date_text(c.day)}.",
            )
        )

        def done(ok: bool | None) -> None:
            if ok:
                self.trip(Jump(hop))

        self.app.push_screen(ConfirmScreen(text, yes="Jump"), done)

    def trip(self, command: Command) -> None:
        """Travel or jump, then show the day report of the way."""
        if self.act(command):
            from .dayreport import show_day_report

            show_day_report(self.app, host(self).last_report())
