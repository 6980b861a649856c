"""The battle screen's layout and the small texts it draws beside the map and the panels.

head      InitiativeTrack, the battle's title
body      left: HexMap and the combat log under it; right: the lance (deployment),
          FramePanel or TargetPanel
#actions  the action bar (actions.py)
#message  the message line (a `TextLine`)
Footer
"""

from __future__ import annotations

from collections.abc import Iterable

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer, RichLog, Static

from ....catalog import catalog
from ....combat.setup import WITHDRAW_TEXT
from ....combat.state import Battle
from ....hexgrid import Hex
from ...glyphs import glyphs, plain
from ...widgets.battle_panels import FramePanel, InitiativeTrack, TargetPanel
from ...widgets.hexmap import HexMap, Layout, drawing_size, legend
from .actions import ACTIONS
from .modes import Deploying, Mode
from .moment import Moment

PANEL_WIDTH = 37  # the panel column at its narrowest, with its left padding
CHROME_LINES = 5  # head, action bar (2), message line, footer
MIN_LOG_LINES = 3
LEFT_MIN_WIDTH = 30  # the map and log column, for the smallest maps

CSS = """
BattleScreen { layout: vertical; }
BattleScreen #battle-head { height: 1; }
BattleScreen InitiativeTrack { width: 1fr; height: 1; }
BattleScreen #battle-title { width: auto; height: 1; padding: 0 1; color: $text-muted; }
BattleScreen #battle-body { height: 1fr; }
BattleScreen #battle-left { width: 42; height: 1fr; }
BattleScreen HexMap { width: auto; height: auto; }
BattleScreen #battle-log { height: 1fr; min-height: 3; border: none; scrollbar-size: 1 1; }
BattleScreen #battle-right { width: 1fr; min-width: 36; height: 1fr; padding: 0 0 0 1; }
BattleScreen #lance { height: auto; }
BattleScreen FramePanel, BattleScreen TargetPanel { height: 1fr; }
BattleScreen #actions { height: 2; padding: 0 1; background: $surface; }
BattleScreen #message { height: 1; padding: 0 1; color: $text-muted; }
BattleScreen #message.warning { color: $warning; text-style: bold; }
"""


class TextLine(Widget):
    """One line of plain text that repaints without asking for a new layout (a `Static`
    would), so the message line can follow the cursor cheaply."""

    DEFAULT_CSS = "TextLine { height: 1; }"

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.text = Text()

    def set(self, text: str) -> None:
        self.text = Text(text)
        self.refresh()

    def render(self) -> Text:
        return self.text


def compose(ascii_glyphs: bool) -> ComposeResult:
    with Horizontal(id="battle-head"):
        yield InitiativeTrack()
        yield TextLine(id="battle-title")
    with Horizontal(id="battle-body"):
        with Vertical(id="battle-left"):
            yield HexMap(ascii_glyphs=ascii_glyphs)
            log = RichLog(id="battle-log", wrap=True, markup=False, max_lines=3000, min_width=20)
            log.can_focus = False
            yield log
        with Vertical(id="battle-right"):
            yield Static("", id="lance")
            yield FramePanel()
            yield TargetPanel()
    yield Static("", id="actions")
    yield TextLine(id="message")
    yield Footer(compact=True)


def map_layout(battle: Battle, width: int, height: int) -> tuple[Layout, int]:
    """The roomy map drawing when it fits beside the panel column (with a few log lines
    under it), the compact one otherwise; and the width of the map and log column."""
    roomy = drawing_size(battle.map.width, battle.map.height, "roomy")
    room_w = width - PANEL_WIDTH
    room_h = height - CHROME_LINES - MIN_LOG_LINES
    layout: Layout = "roomy" if roomy.width <= room_w and roomy.height <= room_h else "compact"
    drawn = drawing_size(battle.map.width, battle.map.height, layout)
    return layout, max(drawn.width + 1, LEFT_MIN_WIDTH)


def title_text(battle: Battle, contract: str | None) -> str:
    place = catalog().landscape(battle.landscape).name
    if contract is not None:
        return f"Contract {contract} · {place}"
    return f"Quick battle · difficulty {battle.difficulty} · {place}"


def lance_text(battle: Battle, placing: str | None, ascii_glyphs: bool) -> str:
    """Deployment: the lance, where each frame stands, the one being placed marked."""
    mark = glyphs(ascii_glyphs).cursor
    lines = ["[b]Deploy your lance[/b]"]
    for u in battle.side_units("player"):
        where = f"at {u.pos.q},{u.pos.r}" if u.pos is not None else "not placed"
        cursor = mark if u.id == placing else " "
        chassis = catalog().chassis[u.chassis].designation
        lines.append(f"{cursor} {u.id} {u.label[:12]:<12} {chassis:<5} {where}")
    rule = WITHDRAW_TEXT[battle.side_info("enemy").withdrawal]  # D23: what the enemy does
    lines.append(f"The enemy {rule}.")
    return "\n".join(lines)


def shown_unit(battle: Battle, cursor: Hex, mode: Mode) -> str | None:
    """The frame the panel shows: the one under the cursor, else the one being placed, else
    the one acting (between activations or at the end: the first of the player's)."""
    here = battle.occupant(cursor)
    if here is not None:
        return here.id
    if isinstance(mode, Deploying):
        return mode.unit
    unit = battle.active_unit
    if unit is None:
        unit = next(iter(battle.side_units("player")), None)
    return unit.id if unit is not None else None


def start_hex(battle: Battle) -> Hex | None:
    """Where the cursor starts: on the acting frame, else in the middle of the zone."""
    unit = battle.active_unit
    if unit is not None and unit.pos is not None:
        return unit.pos
    if battle.phase == "deployment":
        zone = battle.map.deployment_hexes("player")
        return zone[len(zone) // 2] if zone else None
    return None


class BattleView:
    """The battle screen's widgets, drawn from a `Moment` and a mode (it changes nothing)."""

    def __init__(self, screen: Screen[None]) -> None:
        self.screen = screen
        self._message: tuple[str, bool] | None = None

    @property
    def hexmap(self) -> HexMap:
        return self.screen.query_one(HexMap)

    def start(self, battle: Battle | None, ascii_glyphs: bool) -> None:
        """Mounted: the legend in the log (and where a battle resumes), the cursor placed."""
        log = self.screen.query_one(RichLog)
        log.write(legend(ascii_glyphs))
        if battle is not None and battle.phase == "combat":
            log.write(f"Resumed in round {battle.round}.")
        start = start_hex(battle) if battle is not None else None
        if start is not None:
            self.hexmap.set_cursor(start)
        self.screen.query_one(TargetPanel).display = False

    def fit(self, battle: Battle, width: int, height: int) -> None:
        """The map drawing and its column for a screen this size."""
        layout, left_width = map_layout(battle, width, height)
        self.hexmap.layout_mode = layout
        self.screen.query_one("#battle-left").styles.width = left_width

    def log(self, lines: Iterable[str]) -> None:
        log = self.screen.query_one(RichLog)
        for line in lines:
            log.write(line)

    def draw(self, m: Moment, mode: Mode) -> None:
        """The whole screen."""
        battle = m.shown
        if battle is None:
            return
        self.screen.query_one(InitiativeTrack).show(battle, ascii_glyphs=m.ascii)
        title = title_text(battle, m.contract)
        self.screen.query_one("#battle-title", TextLine).set(plain(title) if m.ascii else title)
        self.draw_map(battle, m, mode)
        bar = self.screen.query_one("#actions", Static)
        bar.update("Enter: the report" if m.phase == "over" else ACTIONS.bar_markup(mode, m))
        self.draw_focus(m, mode, map_too=False)

    def draw_map(self, battle: Battle, m: Moment, mode: Mode) -> None:
        active = battle.active_unit.id if battle.active_unit is not None else None
        overlay = mode.overlay(m, self.hexmap.cursor)
        self.hexmap.show(battle, active=active, overlay=overlay)

    def draw_focus(self, m: Moment, mode: Mode, map_too: bool = True) -> None:
        """What follows the cursor, the target and the group (not the whole screen): the
        map's overlay, the lance list, the panel column and the message line."""
        battle = m.shown
        if battle is None:
            return
        if map_too and mode.follows_cursor:
            self.draw_map(battle, m, mode)
        lance = self.screen.query_one("#lance", Static)
        lance.display = battle.phase == "deployment"
        if lance.display:
            placing = mode.unit if isinstance(mode, Deploying) else None
            lance.update(lance_text(battle, placing, m.ascii))
        frame_panel = self.screen.query_one(FramePanel)
        target_panel = self.screen.query_one(TargetPanel)
        fp = mode.shot_preview(m)
        if fp is not None:
            target_panel.show(battle, fp, ascii_glyphs=m.ascii)
        else:
            unit = shown_unit(battle, self.hexmap.cursor, mode)
            frame_panel.show(battle, unit, ascii_glyphs=m.ascii)
        target_panel.display = fp is not None
        frame_panel.display = fp is None
        self.draw_prompt(m, mode)

    def draw_prompt(self, m: Moment, mode: Mode) -> None:
        if m.shown is None:
            return
        text = mode.prompt(m, self.hexmap.cursor)
        if text is not None:
            self.say(text, mode.warns, m.ascii)

    def say(self, text: str, warning: bool, ascii_glyphs: bool) -> None:
        """The message line (repainted only when it changes)."""
        if self._message == (text, warning):
            return
        self._message = (text, warning)
        msg = self.screen.query_one("#message", TextLine)
        msg.set(plain(text) if ascii_glyphs else text)
        msg.set_class(warning, "warning")
