"""From rows to figures: each cell's statistics (rates with 95% Wilson intervals, means,
percentiles), printed as Rich tables and plotext charts, or written as JSON and CSV.

Everything here is a pure function of the rows' metrics, except the decision times and run
seconds (wall clock), which are reported apart.
"""

from __future__ import annotations

import csv
import io
from collections import Counter
from collections.abc import Mapping, Sequence
from statistics import median
from typing import Any

from ..players.duel import percentile, rate
from .experiment import Experiment, Run

Row = Mapping[str, Any]


def cell_rows(experiment: Experiment, runs: Sequence[Run], rows: Mapping[str, Row]) -> list[Any]:
    """[(cell label, its rows in run order)] for every cell of the experiment."""
    cells: dict[tuple[tuple[str, Any], ...], list[Row]] = {}
    for config in experiment.cells():
        cells[experiment.cell_label(config)] = []
    for run in runs:
        if run.key in rows:
            cells[run.cell].append(rows[run.key])
    return list(cells.items())


def label_text(cell: Sequence[tuple[str, Any]]) -> str:
    return " ".join(f"{k}={_short(v, k)}" for k, v in cell) or "all"


def _short(value: Any, key: str = "") -> str:
    if value == "":
        return "core" if key == "rules" else "base"  # no optional rules; no mod
    if isinstance(value, str) and "/" in value:
        return value.rstrip("/").rsplit("/", 1)[-1]
    return str(value)


def _mean(values: Sequence[float]) -> float:
    return round(sum(values) / len(values), 3) if values else 0.0


# ---- battles -----------------------------------------------------------------------------------
def battle_stats(rows: Sequence[Row]) -> dict[str, Any]:
    n = len(rows)
    ms = [r["metrics"] for r in rows]
    wins = Counter(m["winner"] for m in ms)
    damage: dict[str, dict[str, int]] = {"a": {}, "b": {}}
    for m in ms:
        for who in "ab":
            for weapon, amount in m["damage"][who].items():
                damage[who][weapon] = damage[who].get(weapon, 0) + amount

    def decision(who: str) -> dict[str, float]:
        parts = [r["timing"]["decision_ms"][who] for r in rows]
        count = sum(p["n"] for p in parts)
        return {
            "mean": round(sum(p["sum"] for p in parts) / count, 3) if count else 0.0,
            "worst": max((p["max"] for p in parts), default=0.0),
        }

    return {
        "runs": n,
        "win_rate": {"a": rate(wins["a"], n), "b": rate(wins["b"], n)},
        "draws": n - wins["a"] - wins["b"],
        "mean_rounds": _mean([m["rounds"] for m in ms]),
        "frames_lost": {w: _mean([m["frames_lost"][i] for m in ms]) for i, w in enumerate("ab")},
        "pilots_lost": {w: _mean([m["pilots_lost"][i] for m in ms]) for i, w in enumerate("ab")},
        "damage_per_battle": {
            w: {k: round(v / n, 2) for k, v in sorted(damage[w].items())} if n else {} for w in "ab"
        },
        "reasons": dict(sorted(Counter(m["reason"] for m in ms).items())),
        "decision_ms": {"a": decision("a"), "b": decision("b")},
    }


# ---- campaigns ---------------------------------------------------------------------------------
def campaign_stats(rows: Sequence[Row], days: int) -> dict[str, Any]:
    n = len(rows)
    ms = [r["metrics"] for r in rows]
    alive = [m for m in ms if m["survived"]]
    start = ms[0]["start_credits"] if ms else 0
    credits = [m["credits"] for m in alive]
    missions = sum(m["missions"] for m in ms)
    lost = sum(m["pilots_lost"] for m in ms)
    months = max(1, -(-days // 30))
    by_month: list[dict[str, Any]] = []
    for k in range(months):
        at = [m["months"][k] for m in ms if len(m["months"]) > k]
        taken = [
            x["difficulty"]
            for m in ms
            for x in m["mission_log"]
            if k * 30 < x["day"] <= k * 30 + 30
        ]
        by_month.append(
            {
                "month": k + 1,
                "day": k * 30 + 1,
                "alive": rate(sum(1 for m in ms if m["survived"] or m["end_day"] > k * 30 + 1), n),
                "median_credits": round(median(a["credits"] for a in at)) if at else None,
                "median_reputation": round(median(a["reputation"] for a in at)) if at else None,
                "missions": len(taken),
                "by_difficulty": dict(sorted(Counter(taken).items())),
                "mean_difficulty": _mean(taken),
            }
        )
    half = days // 2
    late = [x for m in ms for x in m["mission_log"] if x["day"] > half]
    return {
        "runs": n,
        "days": days,
        "survived": rate(len(alive), n),
        "ended": dict(sorted(Counter(m["ended"] for m in ms if m["ended"]).items())),
        "end_day_median": round(median(m["end_day"] for m in ms)) if ms else None,
        "credits_end": {
            "start": start,
            "p10": percentile(credits, 0.10),
            "p50": percentile(credits, 0.50),
            "p90": percentile(credits, 0.90),
            "p50_x_start": round(percentile(credits, 0.5) / start, 3) if start else 0.0,
        },
        "missions_per_run": _mean([m["missions"] for m in ms]),
        "missions_by_difficulty": dict(
            sorted(Counter(x["difficulty"] for m in ms for x in m["mission_log"]).items())
        ),
        "second_half_d4_plus": rate(sum(1 for x in late if x["difficulty"] >= 4), len(late)),
        "pilots_lost_per_mission": round(lost / missions, 3) if missions else 0.0,
        "pilots_lost_per_run": _mean([m["pilots_lost"] for m in ms]),
        "pilots_hired_per_run": _mean([m["pilots_hired"] for m in ms]),
        "reputation_median": round(median(m["reputation"] for m in ms)) if ms else None,
        "by_month": by_month,
    }


# ---- the whole report --------------------------------------------------------------------------
def summarise(
    experiment: Experiment, runs: Sequence[Run], rows: Mapping[str, Row]
) -> dict[str, Any]:
    """The report (a JSON-ready dict): the experiment, how many runs have rows, each cell."""
    cells = []
    for label, got in cell_rows(experiment, runs, rows):
        if experiment.kind == "battle":
            stats = battle_stats(got) if got else {"runs": 0}
        else:
            days = int(dict(label).get("days", experiment.fixed.get("days", 365)))
            stats = campaign_stats(got, days) if got else {"runs": 0}
        cells.append({"cell": dict(label), "label": label_text(label), **stats})
    seconds = [r["timing"]["seconds"] for r in rows.values()]
    return {
        "experiment": experiment.to_json(),
        "runs": {"planned": len({r.key for r in runs}), "stored": len(rows)},
        "run_seconds": {"mean": _mean(seconds), "total": round(sum(seconds), 3)},
        "cells": cells,
    }


def _pct(r: Mapping[str, Any]) -> str:
    return f"{r['rate']:.1%} [{r['low']:.1%}, {r['high']:.1%}]"


def print_report(doc: Mapping[str, Any], *, charts: bool = True, width: int | None = None) -> None:
    from rich.console import Console
    from rich.table import Table

    console = Console(width=width)
    exp = doc["experiment"]
    title = (
        f"{exp['name']}: {exp['kind']}s, {exp['seeds']} seed(s) per cell from {exp['first_seed']}"
        f" · {doc['runs']['stored']}/{doc['runs']['planned']} runs stored"
    )
    table = Table(title=title, box=None)
    table.add_column("cell", style="bold")
    table.add_column("runs", justify="right")
    cells = [c for c in doc["cells"] if c["runs"]]
    if not cells:
        console.print(title, highlight=False)
        console.print("no run of this experiment is stored yet: `mac-tui lab run` plays them")
        return
    if exp["kind"] == "battle":
        for name in ("A wins", "B wins", "draws", "rounds", "frames lost A·B", "pilots lost A·B"):
            table.add_column(name, justify="right")
        table.add_column("ms/decision A·B", justify="right")
        for c in cells:
            table.add_row(
                c["label"],
                str(c["runs"]),
                _pct(c["win_rate"]["a"]),
                _pct(c["win_rate"]["b"]),
                str(c["draws"]),
                f"{c['mean_rounds']:.1f}",
                f"{c['frames_lost']['a']:.2f} · {c['frames_lost']['b']:.2f}",
                f"{c['pilots_lost']['a']:.2f} · {c['pilots_lost']['b']:.2f}",
                f"{c['decision_ms']['a']['mean']:.1f} · {c['decision_ms']['b']['mean']:.1f}",
            )
        console.print(table)
        console.print(_damage_table(cells))
    else:
        for name in ("survived", "credits at end p50 (x start)", "p10 · p90"):
            table.add_column(name, justify="right")
        for name in ("missions", "pilots lost/mission", "hired", "d4+ late", "reputation"):
            table.add_column(name, justify="right")
        for c in cells:
            ce = c["credits_end"]
            table.add_row(
                c["label"],
                str(c["runs"]),
                _pct(c["survived"]),
                f"{ce['p50']:,} ({ce['p50_x_start']:.2f}x)" if c["survived"]["count"] else "-",
                f"{ce['p10']:,} · {ce['p90']:,}" if c["survived"]["count"] else "-",
                f"{c['missions_per_run']:.1f}",
                f"{c['pilots_lost_per_mission']:.3f}",
                f"{c['pilots_hired_per_run']:.1f}",
                _pct(c["second_half_d4_plus"]),
                str(c["reputation_median"]),
            )
        console.print(table)
        for c in cells:
            if c["ended"]:
                ends = "; ".join(f"{k}: {v}" for k, v in c["ended"].items())
                console.print(f"{c['label']} ended: {ends}", highlight=False)
        console.print(_month_table(cells))
    if charts and cells:
        for chart in charts_for(doc, width=min(console.width, 100)):
            console.print(chart, markup=False, highlight=False)


def _damage_table(cells: Sequence[Mapping[str, Any]]) -> Any:
    from rich.table import Table

    total: Counter[str] = Counter()
    for c in cells:
        for who in "ab":
            total.update(c["damage_per_battle"][who])
    table = Table(title="damage per battle by weapon (A + B)", box=None)
    table.add_column("weapon", style="bold")
    for c in cells:
        table.add_column(c["label"], justify="right")
    for weapon, _ in total.most_common(12):
        table.add_row(
            weapon,
            *(
                f"{sum(c['damage_per_battle'][w].get(weapon, 0.0) for w in 'ab'):.1f}"
                for c in cells
            ),
        )
    return table


def _month_table(cells: Sequence[Mapping[str, Any]]) -> Any:
    from rich.table import Table

    table = Table(title="by month: alive · median credits · contracts taken (mean difficulty)")
    table.box = None
    table.add_column("month", style="bold")
    for c in cells:
        table.add_column(c["label"], justify="right")
    months = max(len(c["by_month"]) for c in cells)
    for k in range(months):
        row = [str(k + 1)]
        for c in cells:
            if k >= len(c["by_month"]):
                row.append("")
                continue
            m = c["by_month"][k]
            credits = "-" if m["median_credits"] is None else f"{m['median_credits']:,}"
            row.append(
                f"{m['alive']['rate']:.0%} · {credits} · {m['missions']} "
                f"({m['mean_difficulty']:.1f})"
            )
        table.add_row(*row)
    return table


# ---- charts ------------------------------------------------------------------------------------
def charts_for(doc: Mapping[str, Any], *, width: int = 100) -> list[str]:
    """Terminal charts (`charts.py`): A's win rate by cell, with its interval, for battles;
    companies alive and median credits by month for campaigns."""
    from . import charts

    cells = [c for c in doc["cells"] if c["runs"]]
    if doc["experiment"]["kind"] == "battle":
        items = [
            (
                c["label"],
                c["win_rate"]["a"]["rate"],
                c["win_rate"]["a"]["low"],
                c["win_rate"]["a"]["high"],
            )
            for c in cells
        ]
        return [charts.bars("A's win rate by cell (95% interval)", items, width=width)]
    alive = [
        (
            c["label"],
            [(m["day"], 100 * m["alive"]["rate"]) for m in c["by_month"]]
            + [(c["days"] + 1, 100 * c["survived"]["rate"])],
        )
        for c in cells
    ]
    credits = [
        (
            c["label"],
            [
                (m["day"], m["median_credits"])
                for m in c["by_month"]
                if m["median_credits"] is not None
            ],
        )
        for c in cells
    ]
    return [
        charts.lines("companies alive by day", alive, width=width - 12, y_unit="%"),
        charts.lines("median credits by day", credits, width=width - 12),
    ]


# ---- CSV ---------------------------------------------------------------------------------------
def flat(prefix: str, value: Any, out: dict[str, Any]) -> None:
    """Scalars, and lists and tables of scalars, as columns (`frames_lost_1`, `damage_a_x`);
    deeper structures (monthly samples, the mission log) stay in the JSON."""
    if isinstance(value, Mapping):
        for k, v in value.items():
            flat(f"{prefix}_{k}", v, out)
    elif isinstance(value, list):
        if all(not isinstance(v, list | Mapping) for v in value):
            for i, v in enumerate(value):
                out[f"{prefix}_{'ab'[i] if len(value) == 2 else i + 1}"] = v
    else:
        out[prefix] = value


def to_csv(experiment: Experiment, runs: Sequence[Run], rows: Mapping[str, Row]) -> str:
    """One line per stored run of the experiment: key, seed, the cell's axes, the metrics."""
    lines: list[dict[str, Any]] = []
    for run in runs:
        row = rows.get(run.key)
        if row is None:
            continue
        line: dict[str, Any] = {"key": run.key, "seed": run.seed, **dict(run.cell)}
        if "swapped" in run.config:
            line["map"] = run.config["map"]
            line["swapped"] = run.config["swapped"]
        for k, v in row["metrics"].items():
            flat(k, v, line)
        line["seconds"] = row["timing"]["seconds"]
        lines.append(line)
    columns = list(dict.fromkeys(k for line in lines for k in line))
    buffer = io.StringIO()
    writer = csv.DictWriter(buffer, fieldnames=columns, lineterminator="\n")
    writer.writeheader()
    writer.writerows(lines)
    return buffer.getvalue()
