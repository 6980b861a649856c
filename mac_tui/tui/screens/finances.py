"""Finances: the ledger (newest first), a chart of credits over time, the daily upkeep of each
frame and the money by category over the last 30 days. `l`, `c` and `u` switch the view."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.widget import Widget
from textual.widgets import ContentSwitcher, DataTable, Static

from ...campaign.calendar import date_text
from ...campaign.ledger import category_totals, daily_balances
from ...campaign.timeflow import daily_upkeep, frame_upkeep
from ...catalog import catalog
from ..glyphs import UNICODE, glyphs, glyphs_for
from ..internals import ParkingSwitcher, focus_in_place
from ..literal import rich_literal
from ..widgets.kept_strips import KeepsStrips
from ..widgets.section import Section
from ..widgets.status import pack
from ..widgets.table import GameTable
from ..widgets.view_line import ViewLine

VIEWS = (("ledger", "l", "Ledger"), ("chart", "c", "Chart"), ("upkeep", "u", "Upkeep & totals"))
TOTAL_DAYS = 30
EIGHTHS = UNICODE.eighths
ASCII_EIGHTHS = glyphs(True).eighths


def signed(amount: int) -> str:
    """Credits with their sign always shown: +1,500 / -1,500 / 0."""
    return f"{amount:+,}" if amount else "0"


def _columns(values: Sequence[int], width: int) -> list[int]:
    """`values` fitted to `width` columns: stretched when fewer, closing value per bucket when
    more."""
    n = len(values)
    if n >= width:
        return [values[min(n - 1, ((i + 1) * n) // width - 1)] for i in range(width)]
    return [values[(i * n) // width] for i in range(width)]


def chart_lines(
    points: Sequence[tuple[int, int]], width: int, height: int, ascii_only: bool = False
) -> list[str]:
    """A bar chart of (day, credits) in `width` x `height` characters: the credits axis on the
    left (top = most, bottom = least, 0 when in range, the middle when tall), the first and last
    dates below (and the middle one when wide)."""
    if not points or width < 20 or height < 4:
        return ["(no room for the chart)"]
    values = [v for _, v in points]
    lo, hi = min(values), max(values)
    if lo == hi:  # a flat line: draw it against zero
        lo, hi = (0, hi) if hi > 0 else (lo, 0) if lo < 0 else (0, 1)
    labels = [f"{hi:,}", f"{lo:,}"]
    label_w = max(len(s) for s in labels) + 1
    plot_w = width - label_w - 1
    rows = height - 2
    g = glyphs(ascii_only)
    blocks, tick, axis, corner, rule = g.eighths, g.t_left, g.v, g.bl, g.h
    cols = _columns(values, plot_w)
    # bar height in eighths of a row, at least one eighth so the lowest day still shows
    span = hi - lo
    heights = [max(1, round((v - lo) * rows * 8 / span)) for v in cols]
    zero_row = round((0 - lo) * rows / span) if lo < 0 < hi else None
    mid_row = rows // 2 if rows >= 7 else None
    if mid_row is not None and zero_row is not None and abs(rows - 1 - mid_row - zero_row) < 2:
        mid_row = None
    lines = []
    for r in range(rows):  # r = 0 is the top row
        base = (rows - 1 - r) * 8  # eighths below this row
        cells = "".join(blocks[min(8, max(0, h - base))] for h in heights)
        if r == 0:
            label = labels[0]
        elif r == rows - 1:
            label = labels[1]
        elif zero_row is not None and rows - 1 - r == zero_row:
            label = "0"
        elif r == mid_row:
            label = f"{round(lo + (rows - r - 0.5) * span / rows):,}"
        else:
            label = ""
        lines.append(f"{label:>{label_w - 1}} {tick if label else axis}{cells}")
    lines.append(" " * label_w + corner + rule * plot_w)
    first, last = date_text(points[0][0]), date_text(points[-1][0])
    dates = list(first.ljust(plot_w))
    if len(points) > 1 and plot_w >= 2 * len(last) + 2:
        dates[plot_w - len(last) :] = last
    if len(points) > 2 and plot_w >= 3 * len(first) + 4:
        middle = date_text(points[len(points) // 2][0])
        at = (plot_w - len(middle)) // 2
        dates[at : at + len(middle)] = middle
    lines.append(" " * (label_w + 1) + "".join(dates[:plot_w]).rstrip())
    return lines


class CreditChart(KeepsStrips, Widget):
    """Credits at the end of each day since day 1, sized to the room it has: the same
    picture while the points, the size and the glyphs are (its lines kept, `KeepsStrips`),
    so showing the chart again draws nothing anew."""

    can_focus = True  # so the section's keys still work while the chart is the view

    DEFAULT_CSS = """
    CreditChart { height: 1fr; color: $secondary; }
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.points: list[tuple[int, int]] = []
        self.ascii_only = False
        self._drawn: tuple[object, ...] | None = None  # (size, ascii) of `_picture`
        self._drawn_points: object = None  # and its points (the very list)
        self._picture = Text()

    def show(self, points: list[tuple[int, int]], ascii_only: bool) -> None:
        self.points = points
        self.ascii_only = ascii_only
        self.refresh()

    def render(self) -> Text:
        size = self.content_size
        drawn = (size, self.ascii_only)
        if drawn != self._drawn or self._drawn_points is not self.points:
            lines = chart_lines(self.points, size.width, size.height, self.ascii_only)
            self._picture = Text("\n".join(lines))
            self._drawn, self._drawn_points = drawn, self.points
        return self._picture


class ViewTabs(ViewLine):
    """One line naming the views with their keys; a click switches the view."""

    def action_view(self, view: str) -> None:
        self.query_ancestor(FinancesSection).action_view(view)


class FinancesSection(Section):
    TITLE = "Finances"
    KEY = "7"
    HINT = "Upkeep is paid every day, so idle days cost money; a battle's pay comes when it ends."
    HELP = (
        "Where the money goes. l shows the ledger (newest first; + is income, - is spending), "
        "c a chart of credits at the end of each day, u the daily upkeep of each frame and "
        f"the money by category over the last {TOTAL_DAYS} days. v cycles the views."
    )
    # priority: run as the key reaches the app (see `GameTable`'s keys)
    BINDINGS = [
        Binding("l", "view('ledger')", "Ledger", id="finances.ledger", priority=True),
        Binding("c", "view('chart')", "Chart", id="finances.chart", priority=True),
        Binding("u", "view('upkeep')", "Upkeep", id="finances.upkeep", priority=True),
        Binding("v", "cycle_view", "Next view", id="finances.cycle", show=False, priority=True),
    ]
    DEFAULT_CSS = """
    FinancesSection #fin-views { height: 1; background: $surface; }
    FinancesSection #fin-switcher { height: 1fr; }
    FinancesSection #chart-title { height: auto; padding: 0 1; }
    FinancesSection #upkeep > Vertical { width: 1fr; }
    FinancesSection #upkeep > Vertical#totals { width: 28; }
    FinancesSection #upkeep Static { height: 1; padding: 0 1; text-style: bold; }
    FinancesSection #fin-summary { height: auto; padding: 0 1; background: $surface; }
    """

    def compose(self) -> ComposeResult:
        yield ViewTabs(id="fin-views")
        with ParkingSwitcher(id="fin-switcher", initial="ledger"):
            yield GameTable(id="ledger", cursor_type="row", zebra_stripes=True)
            with Vertical(id="chart"):
                yield Static("", id="chart-title")
                yield CreditChart(id="credit-chart")
            with Horizontal(id="upkeep"):
                with Vertical():
                    yield Static("Daily upkeep by frame", id="upkeep-title")
                    yield GameTable(id="upkeep-table", cursor_type="row")
                with Vertical(id="totals"):
                    yield Static(f"Last {TOTAL_DAYS} days", id="totals-title")
                    yield GameTable(id="totals-table", cursor_type="row")
        yield Static("", id="fin-summary")

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._ledger_drawn: tuple[int, int] | None = None
        self._ledger_kept: object = None
        self._tabs: dict[tuple[str, str], str] = {}  # (view, marker) -> the tabs' markup
        self._focused: dict[str, Widget] = {}  # view -> the widget a view key focuses

    @cached_property
    def switcher(self) -> ContentSwitcher:
        """The views' switcher, found once (a view key asked for it four times)."""
        return self.query_one("#fin-switcher", ContentSwitcher)

    @cached_property
    def view_tabs(self) -> ViewTabs:
        return self.query_one(ViewTabs)

    def on_mount(self) -> None:
        self.query_one("#upkeep-table", DataTable).add_columns("Frame", "Class", "Upkeep/d")
        self.query_one("#totals-table", DataTable).add_columns("Category", "Net")

    # ---- drawing ------------------------------------------------------------------------
    @property
    def view(self) -> str:
        return self.switcher.current or "ledger"

    def refresh_view(self) -> None:
        session = getattr(self.app, "session", None)
        if session is None or session.state.campaign is None:
            return
        self._draw_tabs()
        self._draw_ledger()
        self._draw_chart()
        self._draw_upkeep()
        c = self.campaign
        net = sum(category_totals(c, TOTAL_DAYS).values())
        sep = glyphs_for(self).sep
        parts = [
            f"Credits {c.credits:,}",
            f"upkeep {daily_upkeep(c):,}/d",
            f"{TOTAL_DAYS}-day net {signed(net)}",
            f"{len(c.ledger)} entries",
            f"seed {self.state.seed}",
        ]
        summary = self.query_one("#fin-summary", Static)
        width = (summary.size.width or self.app.size.width) - 2
        summary.update(pack([[Text(p) for p in parts]], width, f" {sep} "))

    def _draw_tabs(self) -> None:
        """The views' line, its markup made once per view shown and glyphs."""
        shown, marker = self.view, glyphs_for(self).current
        markup = self._tabs.get((shown, marker))
        if markup is None:
            parts = []
            for view, key, label in VIEWS:
                text = f" {key} {label} "
                if view == shown:
                    parts.append(f"[reverse bold]{marker}{text}[/]")
                else:
                    parts.append(f"[@click=view('{view}')] {text}[/]")
            markup = self._tabs[(shown, marker)] = "".join(parts)
        self.view_tabs.show(markup)

    def _money(self, amount: int, text: str | None = None) -> Text:
        theme = self.app.current_theme
        colour = theme.success if amount > 0 else theme.error if amount < 0 else None
        return Text(text or signed(amount), style=colour or "", justify="right")

    def _draw_ledger(self) -> None:
        """The ledger, newest first, with every column that fits the width (Category, then
        Balance, give way first: the entry's words and the summary say them too). Drawn again
        only when the ledger or the width changed."""
        table = self.query_one("#ledger", DataTable)
        ledger = self.campaign.ledger
        room = (table.size.width or self.app.size.width) - 2  # a scrollbar's room kept
        key = (id(ledger), room)
        if key == self._ledger_drawn:
            return
        self._ledger_drawn = key
        self._ledger_kept = ledger  # (the id above stays this ledger's while it is kept)
        row = table.cursor_row
        entries = list(reversed(ledger))
        full: dict[str, list[str]] = {
            "Date": [date_text(e.day) for e in entries],
            "Category": [e.category.replace("_", " ") for e in entries],
            "Amount": [signed(e.amount) for e in entries],
            "Balance": [f"{e.balance:,}" for e in entries],
            "Entry": [e.text for e in entries],
        }
        widths = {k: max([len(k), *map(len, v)]) for k, v in full.items()}
        columns = list(full)
        for dropped in ("Category", "Balance"):
            if sum(widths[c] + 2 for c in columns) <= room:
                break
            columns.remove(dropped)
        table.clear(columns=True)
        for name in columns:
            table.add_column(name, width=widths[name], key=name)
        for i, e in enumerate(entries):
            cells: dict[str, object] = {
                "Date": full["Date"][i],
                "Category": full["Category"][i],
                "Amount": self._money(e.amount),
                "Balance": Text(
                    full["Balance"][i], justify="right", style="bold" if e.balance < 0 else ""
                ),
                "Entry": Text(e.text),
            }
            table.add_row(*(cells[c] for c in columns), key=str(i))
        if table.row_count:
            table.move_cursor(row=max(0, min(row, table.row_count - 1)))

    def on_resize(self) -> None:
        if getattr(self.app, "session", None) is not None and self.state.campaign is not None:
            self._draw_ledger()

    def _draw_chart(self) -> None:
        c = self.campaign
        points = daily_balances(c)
        start, end = points[0][1], points[-1][1]
        arrow = glyphs_for(self).right
        self.query_one("#chart-title", Static).update(
            f"Credits each day, {date_text(points[0][0])} {arrow} "
            f"{date_text(points[-1][0])}: {start:,} {arrow} {end:,} ({signed(end - start)})"
        )
        self.query_one(CreditChart).show(points, glyphs_for(self).ascii)

    def _draw_upkeep(self) -> None:
        cat = catalog()
        c = self.campaign
        table = self.query_one("#upkeep-table", DataTable)
        table.clear()
        for f in c.frames:
            cls = cat.classes[cat.chassis[f.chassis].class_]
            cost = frame_upkeep(f)
            table.add_row(
                rich_literal(f"{f.id} {f.name}"),
                cls.name if f.status != "destroyed" else "destroyed",
                self._money(-cost) if cost else Text("0", justify="right"),
                key=f.id,
            )
        table.add_row(Text("Total", style="bold"), "", self._money(-daily_upkeep(c)), key="total")
        totals = self.query_one("#totals-table", DataTable)
        totals.clear()
        sums = category_totals(c, TOTAL_DAYS)
        for category, amount in sums.items():
            totals.add_row(category.replace("_", " "), self._money(amount), key=category)
        income = sum(a for a in sums.values() if a > 0)
        spent = sum(a for a in sums.values() if a < 0)
        totals.add_row(Text("In", style="bold"), self._money(income), key="in")
        totals.add_row(Text("Out", style="bold"), self._money(spent), key="out")
        totals.add_row(Text("Net", style="bold"), self._money(income + spent), key="net")

    # ---- actions ------------------------------------------------------------------------
    def footer_token(self) -> object:
        return ()  # `check_action` reads the state only

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if getattr(self.app, "session", None) is None or self.state.campaign is None:
            return None
        return True

    def action_view(self, view: str) -> None:
        """Show `view`: every view is drawn from the state already (`refresh_view`, on every
        change of it), so only the tabs change, and the focus (without Textual's repaint of
        the whole screen, `internals.focus_in_place`)."""
        self.switcher.current = view
        self._draw_tabs()
        focused = self._focused.get(view)
        if focused is None:
            focus = {"ledger": "#ledger", "chart": "#credit-chart", "upkeep": "#upkeep-table"}
            focused = self._focused[view] = self.query_one(focus[view], Widget)
        focus_in_place(self.screen, focused)

    def action_cycle_view(self) -> None:
        names = [v for v, _, _ in VIEWS]
        self.action_view(names[(names.index(self.view) + 1) % len(names)])
