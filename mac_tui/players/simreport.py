"""`mac-tui sim`: run a series of battles and print the summary (Rich, or JSON for tools)."""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from ..combat.skirmish import lance_from_chassis
from ..combat.state import Side
from ..ruleset import Ruleset, format_ruleset
from .sim import BattleSummary, run_battle
from .specs import load_policy, parse_spec


def aggregate(summaries: Sequence[BattleSummary]) -> dict[str, Any]:
    n = len(summaries)
    results = {
        r: sum(1 for s in summaries if s.result == r) for r in ("victory", "defeat", "withdrawal")
    }
    shots = {side: sum(s.shots[side] for s in summaries) for side in ("player", "enemy")}
    hits = {side: sum(s.hits[side] for s in summaries) for side in ("player", "enemy")}
    return {
        "battles": n,
        "wins": results["victory"],
        "defeats": results["defeat"],
        "withdrawals": results["withdrawal"],
        "mean_rounds": round(sum(s.rounds for s in summaries) / n, 2),
        "hit_rate": {
            side: round(hits[side] / shots[side], 3) if shots[side] else 0.0
            for side in ("player", "enemy")
        },
        "damage_dealt": {
            side: sum(s.damage[side] for s in summaries) for side in ("player", "enemy")
        },
        "frames_lost": {
            side: sum(s.frames_lost[side] for s in summaries) for side in ("player", "enemy")
        },
        "per_battle": [
            {"seed": s.seed, "result": s.result, "rounds": s.rounds, "landscape": s.landscape}
            for s in summaries
        ],
    }


def run_many(
    *,
    seed: int,
    difficulty: int,
    battles: int,
    lance: Sequence[str] | None,
    log_path: str | None,
    as_json: bool,
    policies: Mapping[Side, str] | None = None,
    landscape: str | None = None,
    ruleset: Ruleset = (),
) -> int:
    """`battles` battles from `seed` on, each side played by the policy its spec names
    (default: the AI on both), on `landscape` (default: drawn per seed), under `ruleset`;
    SpecError (a ValueError) for a bad spec."""
    frames = lance_from_chassis(lance) if lance else None
    names: Mapping[Side, str] = policies or {"player": "ai", "enemy": "ai"}
    seats = {side: load_policy(spec) for side, spec in names.items()}
    labels = {side: parse_spec(spec).label for side, spec in names.items()}
    log: list[str] | None = [] if log_path else None
    summaries: list[BattleSummary] = []
    progress = None
    if not as_json and battles > 1 and sys.stderr.isatty():
        from rich.progress import Progress

        progress = Progress(transient=True)
        progress.start()
        task = progress.add_task("battles", total=battles)
    try:
        for i in range(battles):
            summaries.append(
                run_battle(
                    seed + i,
                    difficulty,
                    frames,
                    policies=seats,
                    log=log,
                    names=labels,
                    landscape=landscape,
                    ruleset=ruleset,
                )
            )
            if progress is not None:
                progress.advance(task)
    finally:
        if progress is not None:
            progress.stop()
    if log_path and log is not None:
        Path(log_path).write_text("\n".join(log) + "\n", encoding="utf-8")
    report = {"policies": dict(labels), **aggregate(summaries)}
    if ruleset:  # the optional rules played (O0.1); absent for the core game
        report["rules"] = format_ruleset(ruleset)
    if as_json:
        print(json.dumps(report, indent=2))
        return 0
    _print(report, difficulty)
    return 0


def _print(report: dict[str, Any], difficulty: int) -> None:
    from rich.console import Console
    from rich.table import Table

    rules = f", rules {report['rules']}" if report.get("rules") else ""
    table = Table(title=f"{report['battles']} battle(s), difficulty {difficulty}{rules}", box=None)
    table.add_column("", style="bold")
    table.add_column(f"player ({report['policies']['player']})", justify="right")
    table.add_column(f"enemy ({report['policies']['enemy']})", justify="right")
    table.add_row(
        "hit rate", f"{report['hit_rate']['player']:.1%}", f"{report['hit_rate']['enemy']:.1%}"
    )
    table.add_row(
        "damage dealt", str(report["damage_dealt"]["player"]), str(report["damage_dealt"]["enemy"])
    )
    table.add_row(
        "frames lost", str(report["frames_lost"]["player"]), str(report["frames_lost"]["enemy"])
    )
    console = Console()
    console.print(table)
    console.print(
        f"victories {report['wins']} · defeats {report['defeats']} · "
        f"withdrawals {report['withdrawals']} · mean rounds {report['mean_rounds']}"
    )
