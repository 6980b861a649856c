"""Text helpers of the battle panels: styles from the theme, token flow, bars, short forms.

Every helper draws to the width it is given and never relies on colour alone.
"""

from __future__ import annotations

from collections.abc import Iterable

from attrs import frozen
from rich.text import Text
from textual.widget import Widget

from ...catalog import catalog
from ...combat import stats
from ...combat.state import LOC_INDEX, Unit
from ..glyphs import Glyphs

BODY = ("left_arm", "left_torso", "center_torso", "right_torso", "right_arm")
HEAD, LEGS = "head", "legs"
WIDE = 46  # from this width on, the roomier forms are drawn
FULL_NAMES = 56  # from this width on, modifiers keep their full names
BAR_MAX = 20

#: Short names of the common hit-chance modifiers in a narrow panel (others keep their name).
SHORT = {
    "gunnery": "gun",
    "evasion": "eva",
    "range": "rng",
    "called shot": "called",
    "actuator": "act",
    "overwatch": "ow",
    "indirect": "indir",
    "moving": "mov",  # O5
    "fast target": "fast",
    "piloting": "pil",  # O7
    "stunned": "stun",
}


# ---- styles -----------------------------------------------------------------------------
@frozen
class Palette:
    warning: str = "bold yellow"
    error: str = "bold red"
    player: str = "bold"
    enemy: str = "bold"
    ally: str = "bold"  # O10's third parties
    neutral: str = "bold"

    def side(self, side: str) -> str:
        """The style of a frame of `side` (its mark differs by glyph too: `frame_label`)."""
        return {"player": self.player, "ally": self.ally, "neutral": self.neutral}.get(
            side, self.enemy
        )


def palette_of(widget: Widget) -> Palette:
    try:
        theme = widget.app.current_theme
    except Exception:  # no app yet (a panel drawn outside one)
        return Palette()
    return Palette(
        warning=f"bold {theme.warning}" if theme.warning else "bold",
        error=f"bold {theme.error}" if theme.error else "bold",
        player=f"bold {theme.secondary}" if theme.secondary else "bold",
        enemy=f"bold {theme.error}" if theme.error else "bold",
        ally=f"bold {theme.success}" if theme.success else "bold",
        neutral=f"bold {theme.warning}" if theme.warning else "bold",
    )


# ---- text helpers ------------------------------------------------------------------------
def flow(
    tokens: Iterable[Text | str], width: int, g: Glyphs, *, lead: Text | str = "", indent: int = 0
) -> list[Text]:
    """Tokens separated by spaces, wrapped to `width`; the first line starts with `lead`, the
    next ones with `indent` spaces. A token never splits (one too long is cut)."""
    lines: list[Text] = []
    line = Text(lead) if isinstance(lead, str) else lead.copy()
    fresh = True  # nothing but the lead or the indent on the line yet
    for tok in tokens:
        t = Text(tok) if isinstance(tok, str) else tok
        need = t.cell_len + (0 if fresh or line.plain.endswith(" ") else 1)
        if not fresh and line.cell_len + need > width:
            lines.append(line)
            line = Text(" " * indent)
            fresh = True
            need = t.cell_len
        if not fresh and not line.plain.endswith(" "):
            line.append(" ")
        line.append_text(t)
        fresh = False
    if line.plain.strip():
        lines.append(line)
    return [g.fit(x, width) for x in lines]


def first_fitting(width: int, *candidates: Text | str) -> Text | str:
    """The first candidate that fits in `width` (the last one otherwise)."""
    for c in candidates:
        if (c.cell_len if isinstance(c, Text) else len(c)) <= width:
            return c
    return candidates[-1]


def bar(value: int, mark: int, top: int, cells: int, g: Glyphs) -> Text:
    """`cells` cells from 0 to `top` with a mark at `mark`: the part up to `mark` in full
    blocks, the part past it in dark blocks (the overload, the shutdown zone)."""
    top = max(top, mark, 1)
    left = max(1, round(cells * mark / top)) if mark > 0 else 0
    left = min(left, cells)
    right = cells - left
    fill_left = min(left, round(left * min(value, mark) / mark)) if mark > 0 else 0
    if value > 0 and fill_left == 0 and left:
        fill_left = 1
    over = max(0, value - mark)
    fill_right = round(right * over / (top - mark)) if top > mark else 0
    if over > 0 and fill_right == 0 and right:
        fill_right = 1
    fill_right = min(right, fill_right)
    t = Text()
    t.append(g.eighths[-1] * fill_left)
    t.append(g.shade * (left - fill_left), style="dim")
    t.append(g.v, style="bold")
    t.append(g.dark * fill_right, style="bold")
    t.append(g.dot * (right - fill_right), style="dim")
    return t


def signed(value: int) -> str:
    return f"{value:+d}"


def hex_text(q: int, r: int) -> str:
    return f"{q},{r}"


def loc_abbrev(location: str) -> str:
    return catalog().location(location).abbrev


def location_style(unit: Unit, location: str, pal: Palette) -> str:
    i = LOC_INDEX[location]
    if unit.structure[i] <= 0:
        return f"{pal.error} strike"
    full = stats.full_structure(stats.chassis_of(unit))[i]
    if unit.structure[i] < full:
        return pal.warning
    if unit.armor[i] == 0:
        return "bold"
    return ""
