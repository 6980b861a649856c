"""Terminal charts for the lab's reports, drawn as plain text (Rich prints them, and so does a
pipe): horizontal bars with their 95% interval, and point-and-line series on a character grid.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

#: One marker per series, in order (then they repeat).
MARKERS = "●■▲◆○□△◇"


def bars(
    title: str,
    items: Sequence[tuple[str, float, float, float]],
    *,
    width: int = 60,
) -> str:
    """One bar per (label, value, low, high), values 0..1: the bar to the value, the interval
    marked `├─┤` around its end."""
    if not items:
        return title
    name_w = min(28, max(len(label) for label, *_ in items))
    span = max(10, width - name_w - 10)
    lines = [title]
    for label, value, low, high in items:
        cells = [" "] * (span + 1)
        end = round(value * span)
        for i in range(end):
            cells[i] = "█"
        lo, hi = round(low * span), round(high * span)
        for i in range(lo, hi + 1):
            if cells[i] == " ":
                cells[i] = "─"
        for i, mark in ((lo, "├"), (hi, "┤")):
            if cells[i] == " " or cells[i] == "─":
                cells[i] = mark
        shown = label if len(label) <= name_w else label[: name_w - 1] + "…"
        lines.append(f"{shown:<{name_w}} │{''.join(cells)} {value:6.1%}")
    return "\n".join(lines)


def lines(
    title: str,
    series: Sequence[tuple[str, Sequence[tuple[float, float]]]],
    *,
    width: int = 60,
    height: int = 12,
    y_unit: str = "",
) -> str:
    """Each series' points on one grid (x to the right, y up), consecutive points joined by
    dots; the legend names each series' marker."""
    points = [p for _, pts in series for p in pts]
    if not points:
        return title
    x0, x1 = min(p[0] for p in points), max(p[0] for p in points)
    y0, y1 = min(0.0, min(p[1] for p in points)), max(p[1] for p in points)
    if y1 == y0:
        y1 = y0 + 1
    if x1 == x0:
        x1 = x0 + 1
    grid = [[" "] * (width + 1) for _ in range(height + 1)]

    def at(x: float, y: float) -> tuple[int, int]:
        return round((x - x0) / (x1 - x0) * width), height - round((y - y0) / (y1 - y0) * height)

    for n, (_, pts) in enumerate(series):
        mark = MARKERS[n % len(MARKERS)]
        ordered = sorted(pts)
        for (ax, ay), (bx, by) in itertools.pairwise(ordered):
            (c0, r0), (c1, r1) = at(ax, ay), at(bx, by)
            steps = max(abs(c1 - c0), abs(r1 - r0), 1)
            for s in range(1, steps):
                c, r = round(c0 + (c1 - c0) * s / steps), round(r0 + (r1 - r0) * s / steps)
                if grid[r][c] == " ":
                    grid[r][c] = "·"
        for x, y in ordered:
            c, r = at(x, y)
            grid[r][c] = mark
    label_w = max(len(_num(y0)), len(_num(y1)))
    out = [f"{title}" + (f" ({y_unit})" if y_unit else "")]
    for r, row in enumerate(grid):
        y = y1 - (y1 - y0) * r / height
        tick = _num(y) if r in (0, height // 2, height) else ""
        out.append(f"{tick:>{label_w}} ┤{''.join(row)}")
    out.append(" " * label_w + " └" + "─" * (width + 1))
    left, right = _num(x0), _num(x1)
    out.append(
        " " * (label_w + 2) + left + " " * max(1, width + 1 - len(left) - len(right)) + right
    )
    legend = "  ".join(f"{MARKERS[n % len(MARKERS)]} {name}" for n, (name, _) in enumerate(series))
    out.append(" " * (label_w + 2) + legend)
    return "\n".join(out)


def _num(value: float) -> str:
    if abs(value) >= 1_000_000:
        return f"{value / 1_000_000:.1f}M"
    if abs(value) >= 10_000:
        return f"{value / 1000:.0f}k"
    return f"{value:.0f}" if float(value).is_integer() or abs(value) >= 10 else f"{value:.1f}"
