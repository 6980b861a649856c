"""Benchmarks that print figures (never timed tests): `python -m mac_tui.bench combat`.

combat: four-frame lance against the difficulty-5 enemy on the largest map, AI on both sides;
prints battles per second, AI milliseconds per decision (mean, p95, worst) and per battle.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Sequence


def bench_combat(battles: int, seed: int) -> None:
    from .combat import ai
    from .combat.sim import Decision, lance_from_chassis, make_state, play
    from .model import GameState

    lance = lance_from_chassis(["EN-50", "WD-60", "RD-30", "SN-75"])
    timings: list[float] = []
    activations: dict[tuple[int, int, str], float] = {}

    def timed(state: GameState) -> Decision:
        t0 = time.perf_counter()
        decision = ai.decide(state)
        spent = time.perf_counter() - t0
        timings.append(spent)
        battle = state.battle
        if battle is not None and battle.active_unit is not None:
            key = (state.seed, battle.round, battle.active_unit.id)
            activations[key] = activations.get(key, 0.0) + spent
        return decision

    per_battle: list[float] = []
    rounds: list[int] = []
    for i in range(battles):
        state = make_state(seed + i, 5, lance)
        assert state.battle is not None
        t0 = time.perf_counter()
        end, _ = play(state, {"player": timed, "enemy": timed})
        per_battle.append(time.perf_counter() - t0)
        assert end.battle is not None
        rounds.append(end.battle.round)
        if i == 0:
            print(
                f"map {state.battle.map.width}x{state.battle.map.height}, "
                f"{len(state.battle.units)} frames"
            )
    ms = sorted(t * 1000 for t in timings)
    total = sum(per_battle)
    print(f"battles: {battles} in {total:.2f} s -> {battles / total:.1f} battles/s")
    print(
        f"battle time: mean {statistics.mean(per_battle) * 1000:.0f} ms, "
        f"worst {max(per_battle) * 1000:.0f} ms, mean rounds {statistics.mean(rounds):.1f}"
    )
    print(
        f"AI decision: {len(ms)} decisions, mean {statistics.mean(ms):.2f} ms, "
        f"p95 {ms[int(len(ms) * 0.95)]:.2f} ms, worst {ms[-1]:.2f} ms"
    )


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m mac_tui.bench")
    p.add_argument("what", choices=["combat"])
    p.add_argument("--battles", type=int, default=20)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args(argv)
    if args.what == "combat":
        bench_combat(args.battles, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
