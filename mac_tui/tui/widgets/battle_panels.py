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

from rich.text import Text
from textual.geometry import Size
from textual.widget import Widget

from ...combat.preview import FirePreview, MovePreview
from ...combat.state import Battle, Unit
from ..glyphs import Glyphs, glyphs
from .frame_lines import frame_lines
from .panel_text import Palette, hex_text, palette_of
from .target_lines import target_lines

__all__ = ["FramePanel", "InitiativeTrack", "TargetPanel", "move_text"]


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


class FramePanel(BattlePanel):
    """The selected frame (or a hint when none is selected)."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.battle: Battle | None = None
        self.unit_id: str | None = None

    def show(self, battle: Battle, unit_id: str | None, *, ascii_glyphs: bool = False) -> None:
        if (battle, unit_id, ascii_glyphs) == (self.battle, self.unit_id, self.ascii_glyphs):
            return  # the same picture: no repaint
        self.battle, self.unit_id, self.ascii_glyphs = battle, unit_id, ascii_glyphs
        self._changed()

    def build(self, width: int) -> list[Text]:
        g = glyphs(self.ascii_glyphs)
        if self.battle is None or self.unit_id is None:
            return [Text("No frame selected", style="dim")]
        try:
            unit = self.battle.unit(self.unit_id)
        except KeyError:
            return [Text(f"No frame {self.unit_id}", style="dim")]
        return frame_lines(unit, width, g, palette_of(self), self.battle.phase)


class TargetPanel(BattlePanel):
    """A fire preview: the target, LOS, every weapon's chance and why, the cost."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.battle: Battle | None = None
        self.preview: FirePreview | None = None

    def show(self, battle: Battle, preview: FirePreview, *, ascii_glyphs: bool = False) -> None:
        if (battle, preview, ascii_glyphs) == (self.battle, self.preview, self.ascii_glyphs):
            return  # the same picture: no repaint
        self.battle, self.preview, self.ascii_glyphs = battle, preview, ascii_glyphs
        self._changed()

    def build(self, width: int) -> list[Text]:
        if self.battle is None or self.preview is None:
            return [Text("No target", style="dim")]
        return target_lines(
            self.battle, self.preview, width, glyphs(self.ascii_glyphs), palette_of(self)
        )


# ---- initiative --------------------------------------------------------------------------
def _unit_token(unit: Unit, long: bool, state: str, g: Glyphs, pal: Palette) -> Text:
    """`P2` (player, upper case) or `e1` (enemy, lower case); with the label when `long`.
    `state`: acting (bracketed, reversed), acted (dim), down (struck, marked), waiting."""
    ident = unit.id.upper() if unit.side == "player" else unit.id.lower()
    if long:
        label = unit.label if unit.side == "player" else unit.label.lower()
        ident = f"{ident} {label}" if label.lower() != ident.lower() else ident
    side = pal.player if unit.side == "player" else pal.enemy
    if state == "down":
        return Text(f"{ident}{g.no}", style="dim strike")
    if state == "acting":
        return Text(f"[{ident}]", style=f"{side} reverse")
    if unit.shutdown:
        ident += " off"
    if state == "acted":
        return Text(ident, style="dim")
    return Text(ident, style=side)


def track_line(battle: Battle, width: int, g: Glyphs, pal: Palette) -> Text:
    if battle.phase == "deployment":
        head = "Deployment"
    elif battle.phase == "over":
        head = f"Battle over: {battle.result}"
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
    return long if long.cell_len <= width else g.fit(build(False), width)


class InitiativeTrack(BattlePanel):
    """One line: ``Round 3 · P2 › [P1] › e1 › e2``."""

    DEFAULT_CSS = """
    InitiativeTrack { height: 1; width: 1fr; text-wrap: nowrap; text-overflow: clip; }
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.battle: Battle | None = None

    def show(self, battle: Battle, *, ascii_glyphs: bool = False) -> None:
        if (battle, ascii_glyphs) == (self.battle, self.ascii_glyphs):
            return  # the same picture: no repaint
        self.battle, self.ascii_glyphs = battle, ascii_glyphs
        self._changed()

    def build(self, width: int) -> list[Text]:
        if self.battle is None:
            return [Text("")]
        return [track_line(self.battle, width, glyphs(self.ascii_glyphs), palette_of(self))]


# ---- the message line --------------------------------------------------------------------
def move_text(preview: MovePreview, *, ascii_glyphs: bool = False) -> str:
    """E.g. ``Move 3 hexes to 4,5 · 1 AP · energy 2 (14 -> 12)``, or why it cannot."""
    g = glyphs(ascii_glyphs)
    kind = "Sprint" if preview.sprint else "Move"
    where = hex_text(preview.hex.q, preview.hex.r)
    if preview.refusal is not None:
        return f"Cannot {kind.lower()} to {where}: {preview.refusal}"
    n = preview.hexes
    parts = [
        f"{kind} {n} hex{'es' if n != 1 else ''} to {where}",
        f"{preview.ap_cost} AP",
        f"energy {preview.energy} ({preview.energy_after + preview.energy} -> "
        f"{preview.energy_after})",
    ]
    if preview.pullback:
        parts.append("pulling back")
    if preview.warning:
        parts.append(f"{g.warn} {preview.warning}")
    return f" {g.sep} ".join(parts)
