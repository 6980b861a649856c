"""`mac-tui duel`: run a duel with a progress bar and print its report (Rich, or JSON)."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from .duel import GameResult, Setup, report, run_duel

Progress = Callable[[int, int], None]


@contextmanager
def progress_bar(
    total: int, label: str, *, show: bool, unit: str = "battles"
) -> Iterator[Progress | None]:
    """A Rich progress bar (`unit`s done, throughput, ETA) on stderr, or None when `show` is
    False (not a terminal, JSON output, tests)."""
    if not show:
        yield None
        return
    from rich.console import Console
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TaskProgressColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )

    class Throughput(TextColumn):
        def __init__(self) -> None:
            super().__init__("")

        def render(self, task: Any) -> Any:
            from rich.text import Text

            speed = task.finished_speed or task.speed
            return Text(f"{speed:.1f} {unit}/s" if speed else f"… {unit}/s", style="cyan")

    bar = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TaskProgressColumn(),
        Throughput(),
        TimeElapsedColumn(),
        TextColumn("ETA"),
        TimeRemainingColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    task = bar.add_task(label, total=total)
    with bar:

        def advance(done: int, _total: int) -> None:
            bar.update(task, completed=done)

        yield advance


def play_duel(setup: Setup, jobs: int, *, show_progress: bool) -> list[GameResult]:
    """Every game of the duel, with a progress bar when `show_progress`."""
    total = len(setup.matches())
    with progress_bar(total, f"{setup.a} vs {setup.b}", show=show_progress) as advance:
        return run_duel(setup, jobs=jobs, progress=advance)


def run(setup: Setup, *, jobs: int, as_json: bool, log_path: str | None) -> int:
    show = not as_json and sys.stdout.isatty() and sys.stderr.isatty()
    games = play_duel(setup, jobs, show_progress=show)
    if log_path:
        lines = [line for g in games for line in g.log]
        Path(log_path).write_text("\n".join(lines) + "\n", encoding="utf-8")
    doc = report(setup, games)
    if as_json:
        print(json.dumps(doc, indent=1))
    else:
        print_report(doc)
    return 0


def _pct(r: dict[str, Any]) -> str:
    return f"{r['rate']:.1%} [{r['low']:.1%}, {r['high']:.1%}]"


def print_report(doc: dict[str, Any]) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console()
    a, b = doc["a"], doc["b"]
    lance = doc["lance"]
    what = f"{lance} frames a side" if isinstance(lance, int) else f"lance {lance or 'start'}"
    if doc.get("rules"):
        what += f", rules {doc['rules']}"
    table = Table(
        title=f"{a} (A) vs {b} (B): {doc['battles']} battles, {doc['mode']}, {what}, "
        f"seeds {doc['seeds']['first']}..{doc['seeds']['first'] + doc['seeds']['count'] - 1}",
        box=None,
    )
    table.add_column("", style="bold")
    table.add_column("battles", justify="right")
    table.add_column(f"A wins ({a})", justify="right")
    table.add_column(f"B wins ({b})", justify="right")
    table.add_column("draws", justify="right")
    rows = [("all", doc)]
    rows += (
        [(f"{size} map", t) for size, t in doc["by_map"].items()] if len(doc["by_map"]) > 1 else []
    )
    if doc["mode"] == "mirror":
        rows += [
            ("A as player", doc["by_seat"]["a_player"]),
            ("A as enemy", doc["by_seat"]["a_enemy"]),
        ]
    for name, t in rows:
        table.add_row(
            name,
            str(t["battles"]),
            _pct(t["win_rate"]["a"]),
            _pct(t["win_rate"]["b"]),
            str(t["draws"]),
        )
    console.print(table)
    side = Table(box=None)
    side.add_column("per battle", style="bold")
    side.add_column(f"A ({a})", justify="right")
    side.add_column(f"B ({b})", justify="right")
    for label, key in (
        ("frames lost", "frames_lost_per_battle"),
        ("pilots lost", "pilots_lost_per_battle"),
    ):
        side.add_row(label, f"{doc[key]['a']:.2f}", f"{doc[key]['b']:.2f}")
    pilot = doc["battles_with_a_pilot_lost"]
    side.add_row("a pilot lost", _pct(pilot["a"]), _pct(pilot["b"]))
    side.add_row("withdrew", str(doc["withdrawals"]["a"]), str(doc["withdrawals"]["b"]))
    ms = doc["decision_ms"]
    for label, figures in (
        ("ms/activation", ms),
        ("CPU ms/activation", {w: ms[w]["cpu"] for w in "ab"}),
    ):
        side.add_row(
            f"{label} mean·p95·worst",
            *(
                f"{figures[w]['mean']:.1f} · {figures[w]['p95']:.1f} · {figures[w]['worst']:.1f}"
                for w in "ab"
            ),
        )
    if "cover" in doc:
        side.add_row(
            "ends in cover / chance",
            *(
                f"{_pct(doc['cover'][w]['ended_in_cover'])} / {doc['cover'][w]['chance']:.1%}"
                for w in "ab"
            ),
        )
    console.print(side)
    reasons = ", ".join(f"{r}: {c}" for r, c in doc["draw_reasons"].items()) or "none"
    console.print(f"mean rounds {doc['mean_rounds']:.1f} · draws: {reasons}")
