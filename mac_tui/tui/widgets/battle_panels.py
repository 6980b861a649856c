"""The battle screen's side panels: the selected frame, the fire preview and the initiative.

* `FramePanel` — one frame: chassis, pilot, armour and structure by location (head on top,
  arms and torsos across, legs below), AP, energy and stress against their limits, status
  flags, weapons by group and equipment.
* `TargetPanel` — a `FirePreview` (combat/preview.py): the target, the line of sight hex by
  hex (§3.7), each weapon's chance with every modifier, expected damage, energy, the
  overload warning, the AP cost or the engine's refusal.
* `InitiativeTrack` — one line: the round and the order of play.
* `move_text` — one line describing a `MovePreview`, for the screen's message line.

The panels only draw: every number comes from the engine (combat/stats.py, combat/preview.py).
Each draws to the width it is given (38 columns at 80x24; a roomier form when wider) and
never relies on colour alone: words, marks and case carry every meaning. With
``ascii_glyphs`` only ASCII is drawn. Lines are built once per (data, width) and cached.
The lines themselves are built in `frame_lines.py` and `target_lines.py` with the helpers of
`panel_text.py`; the marks come from `tui/glyphs.py`.
"""

from __future__ import annotations

from rich.style import Style
from rich.text import Span, Text
from textual.geometry import Region, Size
from textual.scroll_view import ScrollView
from textual.strip import Strip
from textual.widget import Widget

from ...combat import stats
from ...combat.preview import FirePreview, MovePreview
from ...combat.state import Battle, Unit
from ..battle_words import engine_text, overload_text, place_name, spend_text
from ..glyphs import Glyphs, glyphs
from ..internals import KeepsStyledLines, PaintsDirect
from ..threat_view import ThreatReport, threat_lines
from .frame_lines import frame_lines
from .hex_picture import frame_label
from .panel_text import Palette, palette_of
from .target_lines import NO_RISK, ShotRisk, target_lines

__all__ = [
    "FramePanel",
    "InitiativeTrack",
    "SidePanel",
    "TargetPanel",
    "ThreatPanel",
    "move_text",
]


class BattlePanel(Widget):
    """A widget drawn from a list of lines built for its width (cached until `show`)."""

    DEFAULT_CSS = """
    BattlePanel { height: auto; width: 1fr; text-wrap: nowrap; text-overflow: clip; }
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.ascii_glyphs = False
        self._cache: tuple[int, list[Text]] | None = None

    def build(self, width: int) -> list[Text]:
        return []

    def lines(self, width: int) -> list[Text]:
        """The panel's lines at this width (each at most `width` columns)."""
        if self._cache is None or self._cache[0] != width:
            g = glyphs(self.ascii_glyphs)
            self._cache = (width, [g.fit(line, width) for line in self.build(width)])
        return self._cache[1]

    def text(self, width: int) -> str:
        return "\n".join(line.plain for line in self.lines(width))

    def _changed(self) -> None:
        self._cache = None
        height = self.styles.height
        # Only a panel sized by its content needs a new layout; a fixed one just repaints.
        self.refresh(layout=height is None or height.is_auto)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return max(1, len(self.lines(width)))

    def render(self) -> Text:
        return Text("\n").join(self.lines(self.content_size.width or self.size.width or 38))


Shown = tuple[object, ...]
LineKey = tuple[str, str, tuple[Span, ...]] | None
STRIPS_KEPT = 400  # drawn lines kept for the next pictures (a panel has a few dozen)
PICTURES_KEPT = 4  # built pictures kept: f then Esc, or Tab round the targets, builds none


def same_picture(a: Shown, b: Shown) -> bool:
    """Whether two pictures show the same things: the same battle, frame, preview and
    forecasts (the moment computes each once, so the same objects), by identity; the small
    values (kind, frame id, glyphs, the forecasts' holder) by value."""
    return len(a) == len(b) and all(
        x is y or (type(x) is type(y) and isinstance(x, str | bool | ShotRisk) and x == y)
        for x, y in zip(a, b, strict=True)
    )


def line_key(lines: list[Text], index: int) -> LineKey:
    """What a line looks like: its text and styles (None past the end)."""
    if not 0 <= index < len(lines):
        return None
    line = lines[index]
    return (line.plain, str(line.style), tuple(line.spans))


def _key_at(keys: list[LineKey], index: int) -> LineKey:
    return keys[index] if 0 <= index < len(keys) else None


class SidePanel(PaintsDirect, KeepsStyledLines, ScrollView, can_focus=False):
    """The panel column's one panel: a frame (`show_frame`), a shot's preview
    (`show_target`) or the threat view (`show_threat`), drawn with the line API from lines
    built for its width. Switching what it shows repaints it, never a new layout of the
    screen; lines past its height scroll (a scrollbar says so)."""

    DEFAULT_CSS = """
    SidePanel { height: 1fr; width: 1fr; overflow-x: hidden; scrollbar-size-vertical: 1; }
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.ascii_glyphs = False
        self.kind = ""  # "frame", "target", "threat" ("": nothing yet)
        self.battle: Battle | None = None
        self.unit_id: str | None = None
        self.preview: FirePreview | None = None
        self.risk = NO_RISK
        self.report: ThreatReport | None = None
        self._shown: Shown = ()
        self._cache: tuple[int, list[Text]] | None = None
        self._built: list[tuple[Shown, int, Palette, list[Text]]] = []  # the last built
        self._strips: dict[tuple[int, LineKey], Strip] = {}  # drawn lines, by their text
        self._keys: dict[int, tuple[list[Text], list[LineKey]]] = {}  # `_line_keys`
        self._kind_drawn = ""
        self._drawing: tuple[Style, int] | None = None  # style and width, while repainting

    # ---- what it shows ---------------------------------------------------------------------
    def show_frame(
        self, battle: Battle, unit_id: str | None, *, ascii_glyphs: bool = False
    ) -> None:
        shown = ("frame", battle, unit_id, ascii_glyphs)
        if shown != self._shown:
            self.battle, self.unit_id, self.ascii_glyphs = battle, unit_id, ascii_glyphs
            self._changed(shown)

    def show_target(
        self,
        battle: Battle,
        preview: FirePreview,
        risk: ShotRisk = NO_RISK,
        *,
        ascii_glyphs: bool = False,
    ) -> None:
        shown = ("target", battle, preview, risk, ascii_glyphs)
        if shown != self._shown:
            self.battle, self.preview, self.risk = battle, preview, risk
            self.ascii_glyphs = ascii_glyphs
            self._changed(shown)

    def show_threat(
        self, battle: Battle, report: ThreatReport, *, ascii_glyphs: bool = False
    ) -> None:
        shown = ("threat", battle, report, ascii_glyphs)
        if shown != self._shown:
            self.battle, self.report, self.ascii_glyphs = battle, report, ascii_glyphs
            self._changed(shown)

    def _changed(self, shown: Shown) -> None:
        """A new picture: the lines that differ from the last one's are repainted (a picture
        of another kind starts at its top: when the panel was scrolled, all of it is)."""
        kind = str(shown[0])
        before = self._cache
        self.kind, self._shown = kind, shown
        self._cache = None
        width = self.draw_width()
        if (
            before is None
            or before[0] != width
            or (kind != self._kind_drawn and self.scroll_y != 0)
        ):
            self.scroll_to(y=0, animate=False, immediate=True)
            self._resized()
            self.refresh()
            return
        lines = self.lines(width)
        self._resized()
        top = int(self.scroll_y)
        old = before[1]
        width, height = self.size
        old_keys, new_keys = self._line_keys(old), self._line_keys(lines)
        changed = [
            Region(0, y, width, 1)
            for y in range(height)
            if _key_at(old_keys, top + y) != _key_at(new_keys, top + y)
        ]
        if changed:
            self.refresh(*changed)  # one repaint asked for, of the lines that differ

    def _line_keys(self, lines: list[Text]) -> list[LineKey]:
        """What each line of a built picture looks like (`line_key`), worked out once per
        picture (the last few kept, as the pictures are)."""
        kept = self._keys.get(id(lines))
        if kept is not None and kept[0] is lines:
            return kept[1]
        keys = [line_key(lines, i) for i in range(len(lines))]
        if len(self._keys) >= PICTURES_KEPT * 2:
            del self._keys[next(iter(self._keys))]  # the oldest
        self._keys[id(lines)] = (lines, keys)  # the picture kept with them: its id is its own
        return keys

    # ---- its lines -------------------------------------------------------------------------
    def build(self, width: int) -> list[Text]:
        g, pal = glyphs(self.ascii_glyphs), palette_of(self)
        battle = self.battle
        if self.kind == "target" and battle is not None and self.preview is not None:
            return target_lines(battle, self.preview, width, g, pal, self.risk)
        if self.kind == "threat" and battle is not None and self.report is not None:
            return threat_lines(battle, self.report, width, g, pal)
        if battle is None or self.unit_id is None:
            return [Text("No frame selected", style="dim")]
        try:
            unit = battle.unit(self.unit_id)
        except KeyError:
            return [Text(f"No frame {self.unit_id}", style="dim")]
        return frame_lines(unit, width, g, pal, battle.phase, battle)

    def lines(self, width: int) -> list[Text]:
        """The panel's lines at this width (each at most `width` columns): built once per
        picture and width (the last few pictures are kept, so going back to one builds
        nothing)."""
        if self._cache is None or self._cache[0] != width:
            pal = palette_of(self)  # the theme's colours: a new theme builds anew
            built = next(
                (
                    lines
                    for shown, at, colours, lines in self._built
                    if at == width and colours == pal and same_picture(shown, self._shown)
                ),
                None,
            )
            if built is None:
                g = glyphs(self.ascii_glyphs)
                built = [g.fit(line, width) for line in self.build(width)]
                kept = self._built[: PICTURES_KEPT - 1]
                self._built = [(self._shown, width, pal, built), *kept]
            self._cache = (width, built)
            self._kind_drawn = self.kind
        return self._cache[1]

    def text(self, width: int) -> str:
        return "\n".join(line.plain for line in self.lines(width))

    def draw_width(self) -> int:
        """The width the lines are built for: the panel's, less the scrollbar's column
        while there is one."""
        return self.scrollable_content_region.width or self.size.width or 36

    def _resized(self) -> None:
        width = self.draw_width()
        size = Size(width, len(self.lines(width)))
        if size != self.virtual_size:
            # Not through the reactive, which would lay the whole screen out again: only the
            # scrollbar follows the new length (a new layout comes only if it shows or hides).
            self.set_reactive(Widget.virtual_size, size)
            self._scroll_update(size)

    def on_resize(self) -> None:
        self._strips.clear()
        self._resized()

    def render_lines(self, crop: Region) -> list[Strip]:
        # The panel's style and width are the same for every line of one repaint: found once
        # (each walks the widget's ancestors), not once a line.
        self._drawing = (self.rich_style, self.draw_width())
        try:
            return super().render_lines(crop)
        finally:
            self._drawing = None

    def render_line(self, y: int) -> Strip:
        style, width = self._drawing or (self.rich_style, self.draw_width())
        if width != self.virtual_size.width:  # a scrollbar came or went
            self.call_later(self._resized)
        index = y + int(self.scroll_y)
        lines = self.lines(width)
        key = (width, line_key(lines, index))
        strip = self._strips.get(key)
        if strip is None:
            if 0 <= index < len(lines):
                segments = lines[index].render(self.app.console)
                strip = Strip(segments).extend_cell_length(width).crop(0, width)
            else:
                strip = Strip.blank(width)
            if len(self._strips) > STRIPS_KEPT:
                self._strips.clear()
            self._strips[key] = strip
        return strip.apply_style(style)


class FramePanel(SidePanel):
    """The selected frame (or a hint when none is selected)."""

    def show(self, battle: Battle, unit_id: str | None, *, ascii_glyphs: bool = False) -> None:
        self.show_frame(battle, unit_id, ascii_glyphs=ascii_glyphs)


class TargetPanel(SidePanel):
    """A fire preview: the target, LOS, every weapon's chance and why, the cost."""

    def show(
        self,
        battle: Battle,
        preview: FirePreview,
        risk: ShotRisk = NO_RISK,
        *,
        ascii_glyphs: bool = False,
    ) -> None:
        self.show_target(battle, preview, risk, ascii_glyphs=ascii_glyphs)


class ThreatPanel(SidePanel):
    """The threat view (tui/threat_view.py): each frame's threat, the acting one's options."""

    def show(self, battle: Battle, report: ThreatReport, *, ascii_glyphs: bool = False) -> None:
        self.show_threat(battle, report, ascii_glyphs=ascii_glyphs)


# ---- initiative --------------------------------------------------------------------------
def _unit_token(unit: Unit, long: bool, state: str, g: Glyphs, pal: Palette) -> Text:
    """`M2` (player, upper case) or `h1` (enemy, lower case), the map's marks; with the
    label when `long`.
    `state`: acting (bracketed, reversed), acted (dim), down (struck, marked), waiting."""
    ident = frame_label(unit)  # as the map marks it: M1 yours, m1 the enemy's
    if long:
        label = unit.label if unit.side in ("player", "ally") else unit.label.lower()
        ident = f"{ident} {label}" if label.lower() != ident.lower() else ident
    side = pal.side(unit.side)
    if state == "down":
        return Text(f"{ident}{g.no}", style="dim strike")
    if state == "acting":
        return Text(f"[{ident}]", style=f"{side} reverse")
    if unit.shutdown:
        ident += " off"
    if state == "acted":
        return Text(ident, style="dim")
    return Text(ident, style=side)


def track_line(battle: Battle, width: int, g: Glyphs, pal: Palette, fit: bool = True) -> Text:
    if battle.phase == "deployment":
        head = "Deployment"
    elif battle.phase == "over":
        return Text(f"Battle over: {(battle.result or 'over').upper()}", style="bold")
    else:
        head = f"Round {battle.round}"
    acting = battle.active_unit
    ids = list(battle.order) or [u.id for u in battle.units]
    down_before = [u.id for u in battle.units if u.id not in ids and not u.active]

    def build(long: bool) -> Text:
        t = Text(head, style="bold")
        t.append(f" {g.sep} ")
        for n, uid in enumerate(ids):
            u = battle.unit(uid)
            if not u.active:
                state = "down"
            elif acting is not None and u.id == acting.id:
                state = "acting"
            elif battle.phase == "combat" and n < battle.turn:
                state = "acted"
            else:
                state = "waiting"
            if n:
                t.append(f" {g.then} ")
            t.append_text(_unit_token(u, long, state, g, pal))
        if down_before:
            t.append(f" {g.sep} down: ")
            for n, uid in enumerate(down_before):
                if n:
                    t.append(" ")
                t.append_text(_unit_token(battle.unit(uid), False, "down", g, pal))
        return t

    long = build(True)
    if long.cell_len <= width:
        return long
    short = build(False)
    return g.fit(short, width) if fit else short


class InitiativeTrack(BattlePanel):
    """One line: ``Round 3 · L2 › [M1] › h1 › a2``."""

    DEFAULT_CSS = """
    InitiativeTrack { height: 1; width: 1fr; text-wrap: nowrap; text-overflow: clip; }
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.battle: Battle | None = None
        self._natural: tuple[Battle | None, bool, int] | None = None  # (battle, ascii, cells)

    def show(self, battle: Battle, *, ascii_glyphs: bool = False) -> None:
        if (battle, ascii_glyphs) == (self.battle, self.ascii_glyphs):
            return  # the same picture: no repaint
        self.battle, self.ascii_glyphs = battle, ascii_glyphs
        self._changed()

    def build(self, width: int) -> list[Text]:
        if self.battle is None:
            return [Text("")]
        return [track_line(self.battle, width, glyphs(self.ascii_glyphs), palette_of(self))]

    def natural_width(self) -> int:
        """The cells of the track in its short form (what it needs at the least)."""
        if self.battle is None:
            return 0
        known = self._natural
        if known is not None and known[0] is self.battle and known[1] == self.ascii_glyphs:
            return known[2]  # the same picture: measured already (the screen asks every draw)
        g = glyphs(self.ascii_glyphs)
        cells = track_line(self.battle, 0, g, Palette(), fit=False).cell_len
        self._natural = (self.battle, self.ascii_glyphs, cells)
        return cells


# ---- the message line --------------------------------------------------------------------
def move_text(preview: MovePreview, unit: Unit, *, ascii_glyphs: bool = False) -> tuple[str, ...]:
    """A Move's (or Sprint's) words, longest first (the message line takes the first that
    fits): ``Move 3 hexes to C7 · 1 AP · 4 energy: 13 of 17 left, 21 with overload``; or why
    it cannot."""
    g = glyphs(ascii_glyphs)
    kind = "Sprint" if preview.sprint else "Move"
    where = place_name(preview.hex, preview.on_track)
    if preview.refusal is not None:
        return (f"Cannot {kind.lower()} to {where}: {engine_text(None, preview.refusal)}",)
    n = preview.hexes
    head = f"{kind} {n} hex{'es' if n != 1 else ''} to {where}"
    if preview.on_track:  # O1: positions, not hexes
        head = f"{kind} to {where}"
    if preview.pullback:
        head += ", pulling back"
    spend = spend_text(unit, preview.energy)
    cost = f"{preview.energy} energy"
    over = overload_text(unit, preview.energy, g.right)
    added = preview.overload_after - max(0, unit.energy_used - stats.effective_output(unit))
    warn = f" {g.sep} {g.warn} {over}" if over else ""
    short_warn = f" {g.sep} {g.warn} overload +{added}" if over else ""
    sep = f" {g.sep} "
    left = spend.split(",")[0]  # "4 energy: 13 of 17 left"
    ap = f"{preview.ap_cost} AP"
    return (
        f"{head}{sep}{ap}{sep}{spend}{warn}",
        f"{head}{sep}{ap}{sep}{spend}{short_warn}",
        f"{head}{sep}{ap}{sep}{left}{short_warn}",
        f"{head}{sep}{ap}{sep}{cost}{short_warn}",
    )
