"""`python -m mac_tui.bench lab`: how fast battles go through the lab (issue 15's targets).

* battles per second per core, greedy against greedy (target >= 50) and the full AI against
  itself: the lab's default battle cell (mirrored forces, 2 frames a side, every map size,
  sides swapped), played in this process and timed in CPU seconds (`time.process_time`), which
  other processes on a busy machine do not inflate;
* the lab's overhead per run (target <= 5%): the same greedy runs played bare
  (`players.duel.play_match`) and through the lab (`executors.execute` in this process, with
  the SQLite store, the catalog switch and the row encoding), as a share of the bare time.
  Bare and through the lab in turn, `ROUNDS` times, and the least of each kept: the least
  is the figure that other processes disturbed least. On a busy machine that difference is
  within the noise, so the lab's bookkeeping outside the runs (keys, chunks, the store) is
  also printed: the lab's CPU time less the runs' own, as their rows record it, in one pass.
"""

from __future__ import annotations

import tempfile
import time
from pathlib import Path

from ..players.duel import Match, play_match
from .executors import execute
from .experiment import Experiment, Run
from .runs import battle_setup
from .store import Store

ROUNDS = 3


def cell(a: str, b: str, seeds: int, first_seed: int) -> Experiment:
    return Experiment(
        name=f"bench-{a}-{b}",
        kind="battle",
        seeds=seeds,
        first_seed=first_seed,
        fixed={"a": a, "b": b},
        axes=(),
        source="bench",
    )


def bare(runs: list[Run]) -> float:
    """CPU seconds to play `runs` with `play_match` alone."""
    t0 = time.process_time()
    for run in runs:
        setup = battle_setup(run.config, seeds=1, first_seed=run.seed)
        match = Match(run.seed, run.config["map"], run.config["swapped"])
        play_match(setup, setup.matches()[0] if setup.difficulty is not None else match)
    return time.process_time() - t0


def through_lab(runs: list[Run]) -> tuple[float, float]:
    """CPU seconds to play `runs` through the lab into a fresh store, and the sum of the runs'
    own CPU seconds as their rows record them (`runs.play`)."""
    with (
        tempfile.TemporaryDirectory(prefix="mac-tui-bench-lab-") as tmp,
        Store(Path(tmp) / "bench.sqlite") as store,
    ):
        t0 = time.process_time()
        execute(runs, store, jobs=1)
        spent = time.process_time() - t0
        rows = store.rows([r.key for r in runs])
    return spent, sum(row["timing"]["cpu_seconds"] for row in rows.values())


def rate(a: str, b: str, seeds: int) -> tuple[int, float]:
    runs = cell(a, b, seeds, 1).runs()
    bare(runs[:2])  # warm: imports, the catalog, map caches
    return len(runs), bare(runs)


def main(*, seeds: int, ai_seeds: int) -> int:
    n, spent = rate("greedy", "greedy", seeds)
    print(
        f"greedy vs greedy: {n} battles in {spent:.1f} CPU s = {n / spent:.1f} battles/s/core "
        "(target >= 50)"
    )
    n_ai, spent_ai = rate("ai", "ai", ai_seeds)
    print(
        f"ai vs ai: {n_ai} battles in {spent_ai:.1f} CPU s = {n_ai / spent_ai:.2f} battles/s/core"
    )
    runs = cell("greedy", "greedy", seeds, 10_001).runs()
    bare(runs[:2])
    bares, labs = [], []
    for _ in range(ROUNDS):
        bares.append(bare(runs))
        labs.append(through_lab(runs))
    base, (lab, own) = min(bares), min(labs)
    print(
        f"lab overhead: {len(runs)} greedy runs, least of {ROUNDS}: bare {base:.2f} CPU s, "
        f"through the lab {lab:.2f} CPU s: {(lab - base) / base:+.1%} per run "
        f"({(lab - base) / len(runs) * 1000:+.2f} ms) (target <= 5%)"
    )
    print(
        f"lab bookkeeping outside the runs (keys, chunks, store): {(lab - own) / own:.2%} of "
        f"the runs' own time ({(lab - own) / len(runs) * 1000:.2f} ms per run)"
    )
    return 0
