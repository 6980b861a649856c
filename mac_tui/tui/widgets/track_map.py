"""The track of a range-band battle (optional module O1) in place of the hex map.

The same widget API as `HexMap` (it is one: `show`, the cursor, `CursorMoved`, `Picked`), so
the battle screen's modes, keys, previews and panels work unchanged; the cursor is a position
(the hex (p, 0), `combat/track.py`), stepped with the arrows / h l (and every east- or
west-going key), or clicked. The picture, as wide as its column, four columns of positions::

     0 your line    1          2          3 enemy line
    =+=============+==========+==========+=
     M1 L2                                 m1 h2
                                           m3
    ranges from M1: m1 3 Long, h2 3 Long, m3 3 Long

The header names each position (its number reversed under the cursor, `+` beside it where a
Move, Sprint or Thrust Pack can go: the reach mark); under it the frames standing there, the
player's (upper case) first; legal targets in brackets `[m1]`, the chosen one `>m1<`, the
acting frame bold and underlined. The last line gives the range from the acting frame (the
first of the player's between activations) to every enemy: O1.1's range and its band. Never
colour alone: every mark is a character too, and `--ascii` draws `=` and `+` for the track.
"""

from __future__ import annotations

from collections.abc import Iterable

from textual import events
from textual.geometry import Size

from ...combat import track
from ...combat.state import Battle, Unit
from ...hexgrid import Hex
from .hex_picture import MARKS, NO_OVERLAY, Overlay, frame_label
from .hexmap import HexMap

__all__ = ["TrackMap", "track_legend"]

MIN_COLUMN = 5  # a label in brackets and a space
MAX_COLUMN = 16
LABEL = 5  # cells a frame takes in a column: `[m1] `
#: The short forms of the bands, for narrow columns.
SHORT_BANDS = ("PB", "Short", "Med", "Long")

Run = tuple[str, tuple[str, ...]]


def track_legend(ascii_glyphs: bool) -> str:
    """The log's legend line for the track."""
    form = 0 if ascii_glyphs else 1
    return "  ".join(
        (
            "range = the positions' difference",
            "M1 yours",
            "m1 enemy",
            f"{MARKS['reach'][form]} reach",
            "[m1] target",
        )
    )


class TrackMap(HexMap):
    """The track of positions 0-3 with the frames on them (O1)."""

    DEFAULT_CSS = """
    TrackMap { width: 1fr; height: auto; }
    """

    def __init__(self, *, ascii_glyphs: bool = False, id: str | None = None) -> None:
        super().__init__(ascii_glyphs=ascii_glyphs, id=id)
        self._overlay: Overlay = NO_OVERLAY
        self._active: str | None = None
        self._lines: list[list[Run]] = []
        #: the chosen target's id while aiming (the overlay knows only its position)
        self.target_unit: str | None = None

    # ---- the HexMap API on the track -------------------------------------------------------
    def show(
        self, battle: Battle, *, active: str | None = None, overlay: Overlay = NO_OVERLAY
    ) -> None:
        first = self._battle is None
        self._battle, self._active, self._overlay = battle, active, overlay
        self._width, self._height = battle.map.width, battle.map.height
        if first:
            start = self._pending_cursor if self._contains(self._pending_cursor) else None
            self._pending_cursor = None
            unit = battle.unit(active) if active is not None else None
            if start is None and unit is not None and unit.pos is not None:
                start = unit.pos
            self._cursor = start if start is not None else track.at(0)
            self.moved(self._cursor)
        self._redraw()

    def set_cursor(self, h: Hex) -> None:
        if self._battle is None:
            self._pending_cursor = h
            return
        if not self._contains(h) or h == self._cursor:
            return
        self._cursor = h
        self._redraw()
        self.moved(h)

    def step_cursor(self, direction: str) -> None:
        step = {"e": 1, "ne": 1, "se": 1, "w": -1, "nw": -1, "sw": -1}.get(direction, 0)
        if step:
            self.set_cursor(track.at(self._cursor.q + step))

    def hex_at(self, x: int, y: int) -> Hex | None:
        if self._battle is None or not 0 <= y < len(self._lines):
            return None
        p = x // self._column()
        return track.at(p) if 0 <= p < self._width else None

    def cell_of(self, h: Hex) -> tuple[int, int]:
        return h.q * self._column(), 0

    def text(self) -> str:
        return "\n".join("".join(t for t, _ in line).rstrip() for line in self._lines)

    def _contains(self, h: Hex | None) -> bool:
        return h is not None and h.r == 0 and 0 <= h.q < self._width

    # ---- sizing ---------------------------------------------------------------------------
    def _column(self) -> int:
        width = self.content_size.width or self.size.width or 4 * MIN_COLUMN
        return max(MIN_COLUMN, min(MAX_COLUMN, width // max(1, self._width)))

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return container.width

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return max(4, len(self._lines))

    def _relayout(self, force: bool = False) -> None:
        self._redraw()

    def on_resize(self, event: events.Resize) -> None:
        self._redraw()

    def _set_hover(self, h: Hex | None) -> None:
        if h != self._hover:
            self._hover = h
            self._redraw()

    # ---- drawing --------------------------------------------------------------------------
    def _redraw(self, rows: Iterable[int] | None = None, *, full: bool = False) -> None:
        battle = self._battle
        if battle is None:
            return
        before = len(self._lines)
        self._lines = self._picture(battle)
        self._sigs = [tuple(line) for line in self._lines]
        self._strips.clear()
        self.refresh(layout=len(self._lines) != before)

    def _picture(self, battle: Battle) -> list[list[Run]]:
        cw = self._column()
        n = self._width
        form = 0 if self.ascii_glyphs else 1
        ov = self._overlay
        reach = {h.q for h in ov.reach}
        header: list[Run] = []
        rail: list[Run] = []
        for p in range(n):
            mark = MARKS["reach"][form] if p in reach else " "
            forms: tuple[str, ...] = ()  # the side's line, where it fits with a space after it
            if p == track.start_line("player"):
                forms = (" your line", " you")
            elif p == track.start_line("enemy"):
                forms = (" enemy line", " foe")
            name = next((f for f in forms if len(f) <= cw - 3), "")
            cursor = p == self._cursor.q
            header.append((mark, ("hexmap--reach",) if p in reach else ("hexmap--ruler",)))
            header.append((str(p), ("hexmap--cursor",) if cursor else ("hexmap--ruler",)))
            header.append((name.ljust(cw - 2), ("hexmap--ruler",)))
            dash = "=" if self.ascii_glyphs else "═"
            node = "+" if self.ascii_glyphs else "╪"
            tint = ("hexmap--reach",) if p in reach else ("hexmap--terrain",)
            if cursor:
                tint = ("hexmap--cursor",)
            rail.append((dash, ("hexmap--terrain",)))
            rail.append((node, tint))
            rail.append((dash * (cw - 2), ("hexmap--terrain",)))
        lines: list[list[Run]] = [header, rail]
        per_line = max(1, cw // LABEL)
        columns = [self._labels(battle, p) for p in range(n)]
        depth = max(1, *((len(c) + per_line - 1) // per_line for c in columns))
        for row in range(depth):
            line: list[Run] = []
            for col in columns:
                cell = col[row * per_line : (row + 1) * per_line]
                used = 0
                for text, classes in cell:
                    line.append((" " + text, classes))
                    used += 1 + len(text)
                line.append((" " * (cw - used), ("hexmap--base",)))
            lines.append(line)
        lines.append([(self._ranges(battle, n * cw), ("hexmap--ruler",))])
        return lines

    def _labels(self, battle: Battle, p: int) -> list[Run]:
        """The frames at position `p`, the player's first, each as a label and its classes."""
        here = [u for u in battle.units if u.active and u.pos is not None and u.pos.q == p]
        here.sort(key=lambda u: (u.side != "player", u.id))
        targets = {h.q for h in self._overlay.targets}
        out: list[Run] = []
        for u in here:
            label = frame_label(u)
            classes: tuple[str, ...] = (f"hexmap--{u.side}",)
            if u.id == self.target_unit:
                label, classes = f">{label}<", (*classes, "hexmap--target")
            elif u.side == "enemy" and p in targets and self.target_unit is not None:
                label, classes = f"[{label}]", (*classes, "hexmap--targetable")
            else:
                label = f" {label} "
            if u.id == self._active:
                classes = (*classes, "hexmap--active")
            out.append((label, classes))
        return out

    def _ranges(self, battle: Battle, width: int) -> str:
        """O1.1: the range and band from the acting frame to every enemy, the longest form
        that fits."""
        unit: Unit | None = battle.active_unit
        if unit is None or unit.side != "player":
            unit = next(iter(battle.living("player")), None)
        if unit is None or unit.pos is None:
            return ""
        foes = [e for e in battle.foes(unit.side) if e.pos is not None]
        if not foes:
            return ""
        head = f"ranges from {frame_label(unit)}:"
        spans = [(frame_label(e), abs(e.pos.q - unit.pos.q)) for e in foes if e.pos is not None]
        forms = (
            ", ".join(f"{label} {r} {track.band_name(r)}" for label, r in spans),
            " ".join(f"{label} {SHORT_BANDS[min(r, 3)]}" for label, r in spans),
            " ".join(f"{label} {r}" for label, r in spans),
        )
        for body in forms:
            if len(head) + 1 + len(body) <= width:
                return f"{head} {body}"
        return f"{frame_label(unit)}: {forms[-1]}"[:width]
