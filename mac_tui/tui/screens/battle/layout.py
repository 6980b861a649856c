"""The battle screen's layout and the small texts it draws beside the map and the panels.

head      InitiativeTrack, the battle's title
body      left: HexMap and the combat log under it; right: the lance (deployment),
          FramePanel or TargetPanel
#actions  the action bar (actions.py)
#message  the message line (a `TextLine`)
GameFooter  the footer (widgets/footer.py: one line of text, no widget per key)
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TypeVar

from rich.text import Text
from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import RichLog, Static

from ....catalog import catalog
from ....combat import track
from ....combat.setup import WITHDRAW_TEXT
from ....combat.state import Battle
from ....hexgrid import Hex
from ....ruleset import format_ruleset
from ...battle_text import objectives_line
from ...battle_words import first_fit, hex_name
from ...glyphs import glyphs, plain
from ...internals import PaintsDirect
from ...widgets.battle_panels import InitiativeTrack, SidePanel
from ...widgets.footer import GameFooter
from ...widgets.hex_picture import objective_hexes
from ...widgets.hexmap import HexMap, Layout, drawing_size, frame_label, legend
from ...widgets.kept_strips import KeepsStrips
from ...widgets.track_map import TrackMap, track_legend
from .actions import ACTIONS
from .modes import Aiming, Deploying, Mode, Threats
from .moment import Moment

W = TypeVar("W", bound=Widget)

PANEL_WIDTH = 36  # the panel column at its narrowest, with its left padding
CHROME_LINES = 6  # head, action bar (2), message line, footer; the log's head line
MIN_LOG_LINES = 3
LEFT_MIN_WIDTH = 30  # the map and log column, for the smallest maps
TEXTS_KEPT = 8  # a text line's last lines kept as `Text` (with their strips, KeepsStrips)
#: O1: the least terminal a range-band battle needs (the hex battle's is the app's 80x24)
TRACK_FLOOR = (60, 20)
TRACK_MIN_WIDTH = 24  # the track and log column: four positions of a label each
TRACK_MAX_WIDTH = 56  # four positions of two labels and a name each

CSS = """
BattleScreen { layout: vertical; }
BattleScreen #battle-head { height: 1; }
BattleScreen InitiativeTrack { width: 1fr; height: 1; }
BattleScreen #battle-title { width: auto; height: 1; padding: 0 1; color: $text-muted; }
BattleScreen #battle-body { height: 1fr; }
BattleScreen #battle-left { width: 42; height: 1fr; }
BattleScreen HexMap { width: auto; height: auto; }
BattleScreen #battle-log { height: 1fr; min-height: 3; border: none; scrollbar-size: 1 1; }
BattleScreen #log-head { color: $text-muted; text-style: bold; }
BattleScreen #battle-right { width: 1fr; min-width: 36; height: 1fr; padding: 0 0 0 1; }
BattleScreen #lance { height: auto; }
BattleScreen SidePanel { height: 1fr; }
BattleScreen #actions { height: 2; padding: 0 1; background: $surface; }
BattleScreen #message { height: 1; padding: 0 1; color: $text-muted; }
BattleScreen #message.warning { color: $warning; text-style: bold; }
"""


class TextLine(PaintsDirect, KeepsStrips, Widget):
    """One line of plain text that repaints without asking for a new layout (a `Static`
    would), so the message line can follow the cursor cheaply; the same words are the same
    `Text`, whose strips `KeepsStrips` keeps (a mode's prompt and the one before it again)."""

    DEFAULT_CSS = "TextLine { height: 1; }"

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.text = Text()
        self._texts: dict[str, Text] = {}  # the last few lines shown, by their words

    def set(self, text: str) -> None:
        """New text; a line sized by its text (the title) asks for a new layout when its
        length changes."""
        if text == self.text.plain:
            return  # the same words: nothing to repaint (the title is set on every draw)
        length = self.text.cell_len
        kept = self._texts.get(text)
        if kept is None:
            if len(self._texts) >= TEXTS_KEPT:
                del self._texts[next(iter(self._texts))]  # the oldest
            kept = self._texts[text] = Text(text)
        self.text = kept
        width = self.styles.width
        self.refresh(layout=width is not None and width.is_auto and len(text) != length)

    def render(self) -> Text:
        return self.text


def compose(ascii_glyphs: bool, on_track: bool = False) -> ComposeResult:
    """The widgets; a range-band battle (O1) has the track where the map goes."""
    with Horizontal(id="battle-head"):
        yield InitiativeTrack()
        yield TextLine(id="battle-title")
    with Horizontal(id="battle-body"):
        with Vertical(id="battle-left"):
            yield (
                TrackMap(ascii_glyphs=ascii_glyphs)
                if on_track
                else HexMap(ascii_glyphs=ascii_glyphs)
            )
            yield TextLine(id="log-head")
            log = RichLog(id="battle-log", wrap=True, markup=False, max_lines=3000, min_width=20)
            log.can_focus = False
            yield log
        with Vertical(id="battle-right"):
            yield Static("", id="lance")
            yield SidePanel()
    yield Static("", id="actions")
    yield TextLine(id="message")
    yield GameFooter()


def map_layout(battle: Battle, width: int, height: int) -> tuple[Layout, int]:
    """The roomy map drawing when it fits beside the panel column (with a few log lines
    under it), the compact one otherwise; and the width of the map and log column. The track
    (O1) takes what the panel column leaves, within its bounds."""
    if track.on(battle):
        return "compact", max(TRACK_MIN_WIDTH, min(TRACK_MAX_WIDTH, width - PANEL_WIDTH))
    roomy = drawing_size(battle.map.width, battle.map.height, "roomy")
    room_w = width - PANEL_WIDTH
    room_h = height - CHROME_LINES - MIN_LOG_LINES
    layout: Layout = "roomy" if roomy.width <= room_w and roomy.height <= room_h else "compact"
    drawn = drawing_size(battle.map.width, battle.map.height, layout)
    return layout, max(drawn.width, LEFT_MIN_WIDTH)


def title_forms(
    battle: Battle, contract: str | None, seed: int, tutorial: bool = False
) -> tuple[str, ...]:
    """The battle's title, longest first: what it is (a contract, the tutorial or a quick
    battle), where, the optional rules played (O0.1; none for the core game), and the game's
    seed."""
    place = catalog().landscape(battle.landscape).name
    what = skirmish_name(tutorial) if contract is None else f"Contract {contract}"
    long = (
        f"{what} · {place}"
        if contract is not None
        else f"{what} · difficulty {battle.difficulty} · {place}"
    )
    rules = f" · rules {format_ruleset(battle.ruleset)}" if battle.ruleset else ""
    return (
        f"{long}{rules} · seed {seed}",
        f"{what} · {place}{rules} · seed {seed}",
        f"{what}{rules} · seed {seed}",
        f"{what} · seed {seed}",
        f"seed {seed}",
    )


def skirmish_name(tutorial: bool) -> str:
    """What a battle outside a campaign is called on its screen and its report."""
    return "Tutorial" if tutorial else "Quick battle"


def title_text(battle: Battle, contract: str | None, seed: int, tutorial: bool = False) -> str:
    return title_forms(battle, contract, seed, tutorial)[0]


def lance_text(battle: Battle, placing: str | None, ascii_glyphs: bool) -> str:
    """Deployment: the lance, where each frame stands, the one being placed marked."""
    mark = glyphs(ascii_glyphs).cursor
    lines = ["[b]Deploy your lance[/b]"]
    for u in battle.side_units("player"):
        where = "not placed" if u.pos is None else f"at {hex_name(u.pos)}"
        if u.pos is not None and track.on(battle):
            where = f"at {u.pos.q}"  # O1.3: its start line
        cursor = mark if u.id == placing else " "
        chassis = catalog().chassis[u.chassis].designation
        lines.append(f"{cursor} {frame_label(u)} {u.label[:12]:<12} {chassis:<6} {where}")
    rule = WITHDRAW_TEXT[battle.side_info("enemy").withdrawal]  # D23: what the enemy does
    lines.append(f"The enemy {rule}.")
    return "\n".join(lines)


def shown_unit(battle: Battle, cursor: Hex, mode: Mode) -> str | None:
    """The frame the panel shows: the one under the cursor, else the one being placed, else
    the one acting (between activations or at the end: the first of the player's)."""
    here = battle.occupant(cursor)
    acting = battle.active_unit
    if here is not None and acting is not None and acting.pos == cursor and track.on(battle):
        return acting.id  # O1: several frames share a position; the acting one first
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
        self._title = ""
        self._lance = ""
        self._bar = ""
        self._focus: tuple[object, ...] = ()  # the (moment, mode, cursor) drawn last
        self._found: dict[object, Widget] = {}  # `one`'s widgets

    def one(self, selector: str | type[W], kind: type[W]) -> W:
        """`screen.query_one(selector, kind)`, looked for once while the widget found stays
        in the screen (a battle key draws some ten widgets: each query walks the screen)."""
        found = self._found.get(selector)
        if found is None or found.parent is None or not isinstance(found, kind):
            screen = self.screen
            if isinstance(selector, str):
                found = screen.query_one(selector, kind)
            else:
                found = screen.query_one(kind)
            self._found[selector] = found
        assert isinstance(found, kind)
        return found

    @property
    def hexmap(self) -> HexMap:
        return self.one(HexMap, HexMap)

    def start(self, battle: Battle | None, ascii_glyphs: bool, history_key: str) -> None:
        """Mounted: the log's head line, the legend in the log (and where a battle resumes),
        the cursor placed."""
        g = glyphs(ascii_glyphs)
        head = f"Log {g.sep} {history_key}: the whole battle"
        self.screen.query_one("#log-head", TextLine).set(g.text(head))
        self.restart_log([], battle, ascii_glyphs)
        start = start_hex(battle) if battle is not None else None
        if start is not None:
            self.hexmap.set_cursor(start)

    def fit(self, battle: Battle, width: int, height: int) -> None:
        """The map drawing and its column for a screen this size."""
        layout, left_width = map_layout(battle, width, height)
        self.hexmap.layout_mode = layout
        self.screen.query_one("#battle-left").styles.width = left_width

    def restart_log(self, lines: Iterable[str], battle: Battle | None, ascii_glyphs: bool) -> None:
        """The log pane anew: the legend, `lines`, and where a battle resumes."""
        log = self.screen.query_one(RichLog)
        log.clear()
        if battle is not None and track.on(battle):
            log.write(track_legend(ascii_glyphs))
        else:
            log.write(
                legend(
                    ascii_glyphs,
                    levels=battle is not None and bool(battle.map.levels),
                    features=battle is not None and battle.rule("O3"),
                    fog=battle is not None and battle.rule("O8"),
                    third=battle is not None and len(battle.sides) > 2,
                    facings=battle is not None and battle.rule("O4"),
                    objectives=battle is not None and bool(objective_hexes(battle)),
                    cones=battle is not None and battle.rule("O6"),
                    stun=battle is not None and battle.rule("O7"),
                )
            )
        if battle is not None and battle.objectives:  # O11: what the lance is asked to do
            log.write(objectives_line(battle, ascii_glyphs))
        for line in lines:
            log.write(line)
        if battle is not None and battle.phase == "combat":
            log.write(f"Resumed in round {battle.round}.")

    def title(self) -> str:
        return self._title

    def log(self, lines: Iterable[str]) -> None:
        log = self.screen.query_one(RichLog)
        for line in lines:
            log.write(line)

    def draw(self, m: Moment, mode: Mode) -> None:
        """The whole screen."""
        battle = m.shown
        if battle is None:
            return
        track = self.one(InitiativeTrack, InitiativeTrack)
        track.show(battle, ascii_glyphs=m.ascii)
        room = self.screen.size.width - track.natural_width() - 4
        self._title = title_text(battle, m.contract, m.seed, m.tutorial)
        title = first_fit(room, title_forms(battle, m.contract, m.seed, m.tutorial))
        self.one("#battle-title", TextLine).set(plain(title) if m.ascii else title)
        self.draw_map(battle, m, mode)
        bar = self.one("#actions", Static)
        width = bar.content_size.width or self.screen.size.width - 2
        markup = "Enter: the report" if m.phase == "over" else ACTIONS.bar_markup(mode, m, width)
        if markup != self._bar:
            self._bar = markup
            bar.update(markup, layout=False)  # two lines, always: no new layout
        self.draw_focus(m, mode, map_too=False)

    def draw_map(self, battle: Battle, m: Moment, mode: Mode) -> None:
        self.hexmap.numpad_digits = not isinstance(mode, Aiming)  # 1-4 pick a group there
        active = battle.active_unit.id if battle.active_unit is not None else None
        overlay = mode.overlay(m, self.hexmap.cursor)
        if isinstance(self.hexmap, TrackMap):  # O1: the target by its id, not its position
            self.hexmap.target_unit = mode.target if isinstance(mode, Aiming) else None
        self.hexmap.show(battle, active=active, overlay=overlay)

    def draw_focus(self, m: Moment, mode: Mode, map_too: bool = True) -> None:
        """What follows the cursor, the target and the group (not the whole screen): the
        map's overlay, the lance list, the panel column and the message line."""
        battle = m.shown
        if battle is None:
            return
        picture = (m, mode, self.hexmap.cursor)
        if map_too and picture == self._focus:
            return  # drawn already (a key, then the cursor's message for the same hex)
        self._focus = picture
        if map_too and mode.follows_cursor:
            self.draw_map(battle, m, mode)
        lance = self.one("#lance", Static)
        deploying = battle.phase == "deployment"
        if lance.display != deploying:
            lance.display = deploying
        if deploying:
            placing = mode.unit if isinstance(mode, Deploying) else None
            text = lance_text(battle, placing, m.ascii)
            if text != self._lance:
                self._lance = text
                lance.update(text)
        panel = self.one(SidePanel, SidePanel)
        fp = mode.shot_preview(m)
        if isinstance(mode, Threats) and m.battle is not None:
            panel.show_threat(battle, m.threats().report(), ascii_glyphs=m.ascii)
        elif fp is not None:
            panel.show_target(battle, fp, mode.shot_risk(m), ascii_glyphs=m.ascii)
        else:
            unit = shown_unit(battle, self.hexmap.cursor, mode)
            panel.show_frame(battle, unit, ascii_glyphs=m.ascii)
        self.draw_prompt(m, mode)

    def draw_prompt(self, m: Moment, mode: Mode) -> None:
        if m.shown is None:
            return
        text = mode.prompt(m, self.hexmap.cursor)
        if text is not None:
            self.say(text, mode.warns, m.ascii)

    def fitting(self, forms: str | tuple[str, ...]) -> str:
        """The first of the message's forms that fits the message line."""
        if isinstance(forms, str):
            return forms
        room = self.one("#message", TextLine).content_size.width
        room = room or self.screen.size.width - 2
        return first_fit(room, forms)

    def say(self, forms: str | tuple[str, ...], warning: bool, ascii_glyphs: bool) -> None:
        """The message line (repainted only when it changes): the first of its forms that
        fits."""
        text = self.fitting(forms)
        if self._message == (text, warning):
            return
        self._message = (text, warning)
        msg = self.one("#message", TextLine)
        msg.set(plain(text) if ascii_glyphs else text)
        msg.set_class(warning, "warning")
