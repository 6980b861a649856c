"""The report of a quick battle (a skirmish has no contract to settle): the result, the
rounds fought, and every frame of both sides with what is left of it."""

from __future__ import annotations

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.widgets import Static

from ...campaign.objectives import objective_lines
from ...catalog import LOCATION_ORDER, catalog
from ...combat.objectives import mission_costs
from ...combat.state import THIRD_PARTIES, Battle, Unit
from ...players import tutorial
from ...ruleset import describe_ruleset
from ..glyphs import is_ascii, plain
from ..widgets.footer import GameFooter
from ..widgets.hex_picture import frame_label
from .base import GameScreen
from .battle.layout import skirmish_name

RESULTS = {"victory": "VICTORY", "defeat": "DEFEAT", "withdrawal": "WITHDRAWAL"}
REPORT_WIDTH = 74  # the report's lines at 80 columns (its padding aside)


def left_the_field(battle: Battle, unit: Unit) -> bool:
    """A frame still standing on the side that lost (its side withdrew, §10.4, R14)."""
    if unit.left:  # O10.6: a third party that withdrew, or allies gone with the player
        return True
    if not unit.active:
        return False
    lost = {"victory": "enemy", "withdrawal": "player", "defeat": "player"}
    return lost.get(battle.result or "") == unit.side


def downer(battle: Battle, unit: Unit) -> str:
    """Who destroyed `unit` with O10's third parties about: "your lance", "the ally"..."""
    try:
        side = battle.unit(unit.downed_by or "").side
    except KeyError:
        return "?"
    return {"player": "you", "ally": "the ally", "neutral": "the neutrals"}.get(side, "the enemy")


def frame_line(battle: Battle, unit: Unit) -> str:
    """One frame: label, chassis, armour and structure left, destroyed locations, fate."""
    cat = catalog()
    armour = unit.total_armor * 100 // max(1, unit.start_armor)
    structure = unit.total_structure * 100 // max(1, unit.start_structure)
    lost = [
        cat.location(loc).abbrev for i, loc in enumerate(LOCATION_ORDER) if unit.structure[i] <= 0
    ]
    if unit.destroyed and unit.downed_by is not None and unit.side in ("enemy", "neutral"):
        fate = f"destroyed by {downer(battle, unit)}"
    elif unit.destroyed:
        fate = "destroyed"
    elif not unit.pilot_alive:
        fate = "pilot killed"
    elif left_the_field(battle, unit):
        fate = "withdrew"
    elif unit.damaged:
        fate = "damaged"
    else:
        fate = "unhurt"
    name = cat.chassis[unit.chassis].designation
    left = f"armour {armour:>3}% structure {structure:>3}%"
    line = f"  {frame_label(unit)} {unit.label[:12]:<12} {name:<6} {left}  {fate}"
    if lost and not unit.destroyed:
        where = f"lost {' '.join(lost)}"
        joined = f"{line} · {where}"
        line = joined if len(joined) <= REPORT_WIDTH else f"{line}\n{' ' * 24}{where}"
    return line


def objectives_section(battle: Battle) -> list[str]:
    """O11.8: a quick battle's objectives (met, missed, hidden-missed) and its mission costs,
    shown as a contract would settle them; nothing is paid."""
    if battle.tally is None:
        return []
    result = battle.result or ""
    return [
        "[b]Objectives and costs[/b] (a quick battle pays nothing)",
        *(f"  {line}" for line in objective_lines(battle.objectives, result)),
        f"  {mission_costs(battle).describe()}.",
        "",
    ]


def third_party_lines(battle: Battle) -> list[str]:
    """O10: the allied and neutral lances, each frame as the lances' are."""
    out: list[str] = []
    for side, title in zip(THIRD_PARTIES, ("Allied lance", "Neutral lance"), strict=True):
        frames = battle.side_units(side)
        if frames:
            out += [f"[b]{title}[/b]", *(frame_line(battle, u) for u in frames), ""]
    return out


def report_text(battle: Battle, seed: int, tutorial: bool = False) -> str:
    result = RESULTS.get(battle.result or "", "NOT OVER")
    rounds = f"{battle.round} round{'s' if battle.round != 1 else ''}"
    lines = [
        f"[b]{skirmish_name(tutorial)}: {result}[/b]",
        f"Difficulty {battle.difficulty} · {catalog().landscape(battle.landscape).name} · "
        f"{battle.map.width}x{battle.map.height} · {rounds} · seed {seed}",
        *([f"Optional rules: {describe_ruleset(battle.ruleset)}"] if battle.ruleset else []),
        "",
        "[b]Your lance[/b]",
        *(frame_line(battle, u) for u in battle.side_units("player")),
        "",
        "[b]Enemy force[/b]",
        *(frame_line(battle, u) for u in battle.side_units("enemy")),
        "",
        *third_party_lines(battle),
        *objectives_section(battle),
        "Enter: back to the title screen.",
    ]
    return "\n".join(lines)


class SkirmishReportScreen(GameScreen):
    HELP = "The quick battle's report. Enter or Escape goes back to the title screen."
    BINDINGS = [Binding("enter,escape", "done", "Title screen", id="skirmish.done")]
    DEFAULT_CSS = """
    SkirmishReportScreen #report { padding: 1 2; height: auto; }
    """

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static("", id="report", markup=True)
        yield GameFooter()

    def __init__(self) -> None:
        super().__init__()
        self.ready = False

    def on_mount(self) -> None:
        self.ready = True
        self.refresh_view()

    def refresh_view(self) -> None:
        session = self.game.session
        if session is None or session.state.battle is None or not self.ready:
            return
        taught = tutorial.is_tutorial(session.seed, session.commands)
        text = report_text(session.state.battle, session.state.seed, taught)
        self.query_one("#report", Static).update(plain(text) if is_ascii(self) else text)

    def action_done(self) -> None:
        self.game.show_title()
