"""`python -m mac_tui.bench ai`: the targets of issue 13 ("An opponent worth fighting"), each
measured with its 95% interval, its verdict and the command that reproduces it.

The strength targets (`greedy`, `random`, `ai-v1`) are for the AI at the top of its skill
ladder (docs/balance.md, "Issue 13's strength targets under BL3"): with the default `--policy
ai` they are measured with `ai:tactics=6` (`full_skill`: the Tactics difficulty 5's pilots fly
with), the frames and pilots otherwise equal; the same `greedy` rows as the duel's starting
pilots fly it (`ai`, Tactics 3 and 4, no called shots under BL3) follow for information. The
decision time is a target both as flown and at full skill: difficulty 5's enemies decide
with the full planner, and its called shots multiply the plans it values. Any other
`--policy` is measured as it is everywhere.

Targets (the policy under test is `--policy`, default `ai`):

* `greedy`: at equal forces against the greedy reference bot, >= 80% wins on each map size,
  with 2 and with 4 frames a side (full sample: 200 seeds, each played on both sides, so 400
  battles per map size and lance size);
* `random`: >= 99.5% against the random reference bot (2 frames, every map size);
* `ai-v1`: >= 75% against the AI as it was before issue 13 (2 and 4 frames, every map size);
* `difficulty`: the AI on the player's side with the starting lance against difficulty 1's
  enemy (played by the AI): >= 85% wins, a player pilot lost in <= 8% of battles; difficulty 5
  is shown for information;
* `cover`: when cover is within reach, activations end in it at least twice as often as
  chance (measured over the `greedy` games; definition in `docs/bots.md`);
* `time`: decision time per activation on the 20x14 map with four frames a side, p95 <= 20 ms
  and worst <= 50 ms: the deciding thread's CPU time (`time.thread_time`), which the other
  work of a busy machine does not inflate, with the wall clock beside it and the load average
  (one worker process, so the bench's own games do not share its core).

A verdict compares the estimate with the goal; `?` marks one whose interval still straddles
the goal. The benchmark never fails anything: it prints figures (the test suite runs a tiny
sample to prove the harness works).
"""

from __future__ import annotations

import json
import os
from collections.abc import Callable, Sequence
from typing import Any

import attrs
from attrs import frozen

from ..ruleset import Ruleset, format_ruleset
from .ai import FULL_TACTICS
from .duel import GameResult, Setup, cover_use, map_sizes, timing, wilson
from .duelreport import play_duel
from .specs import parse_spec

TARGETS = ("greedy", "random", "ai-v1", "difficulty", "cover", "time")

#: Seeds per sample: the full run, and `--quick` for development.
FULL = {"greedy": 200, "random": 100, "ai-v1": 100, "difficulty": 400, "time": 25}
QUICK = {"greedy": 10, "random": 5, "ai-v1": 5, "difficulty": 20, "time": 3}


@frozen
class Line:
    """One figure: what was measured, the figure (with its interval), the goal, the verdict
    (PASS, FAIL, PASS?/FAIL? when the interval straddles the goal, or info) and the command
    that plays the same games."""

    target: str
    what: str
    figure: str
    goal: str
    verdict: str
    command: str


def full_skill(policy: str) -> str:
    """The spec the strength targets are measured with: the planner at the top of its ladder
    for `ai` (`ai:tactics=6`), any other policy as it is."""
    spec = parse_spec(policy)
    if spec.name == "ai" and not spec.params:
        return f"ai:tactics={FULL_TACTICS}"
    return policy


def _verdict(value: float, low: float, high: float, goal: float, *, at_least: bool) -> str:
    ok = value >= goal if at_least else value <= goal
    sure = (low >= goal) if at_least else (high <= goal)
    sure = sure if ok else ((high < goal) if at_least else (low > goal))
    return ("PASS" if ok else "FAIL") + ("" if sure else "?")


def _worst(verdicts: Sequence[str]) -> str:
    """The verdict of a target met only when every part is: the worst part's."""
    order = ("FAIL", "FAIL?", "PASS?", "PASS")
    return min(verdicts, key=order.index)


def _pct(r: dict[str, Any]) -> str:
    return f"{r['rate']:.1%} [{r['low']:.1%}, {r['high']:.1%}]"


def _share(k: int, n: int) -> dict[str, Any]:
    low, high = wilson(k, n)
    return {"rate": k / n if n else 0.0, "low": low, "high": high}


class Bench:
    """Runs the duels the chosen targets need (each once) and turns them into lines."""

    def __init__(
        self, policy: str, seeds: dict[str, int], jobs: int, show: bool, rules: Ruleset = ()
    ) -> None:
        self.policy = policy  # as flown: the difficulty and cover targets, the info rows
        self.rules = rules  # the optional rules every game is played under (O0.1)
        self.strong = full_skill(policy)  # the strength targets
        self.seeds = seeds
        self.jobs = jobs
        self.show = show
        self.runs: dict[Setup, list[GameResult]] = {}

    def games(self, setup: Setup, jobs: int | None = None) -> list[GameResult]:
        setup = attrs.evolve(setup, rules=self.rules)
        if setup not in self.runs:
            self.runs[setup] = play_duel(
                setup, self.jobs if jobs is None else jobs, show_progress=self.show
            )
        return self.runs[setup]

    def command(self, b: str, extra: str, seeds: int, jobs: str = "", a: str = "") -> str:
        a = a or self.policy
        rules = f" --rules {format_ruleset(self.rules)}" if self.rules else ""
        return f"mac-tui duel {a} {b} {extra} --seeds {seeds}{jobs}{rules}".replace("  ", " ")

    def mirror(
        self,
        b: str,
        frames: int,
        target: str,
        goal: float,
        cover: bool = False,
        a: str = "",
        info: bool = False,
    ) -> list[Line]:
        """Per map size, `a` (default: the full-skill policy) against `b`; `info`: shown
        without a verdict (the as-flown rows)."""
        a = a or self.strong
        n = self.seeds[target]
        setup = Setup(a, b, n, maps=map_sizes(), frames=frames, cover=cover)
        games = self.games(setup)
        lines = []
        for size in map_sizes():
            of_size = [g for g in games if g.map == size]
            wins = sum(1 for g in of_size if g.winner == "a")
            r = _share(wins, len(of_size))
            seats = [
                sum(1 for g in of_size if g.winner == "a" and g.swapped == swapped)
                for swapped in (False, True)
            ]
            half = len(of_size) // 2
            player, enemy = (_share(k, half) for k in seats)
            verdicts = [
                _verdict(x["rate"], x["low"], x["high"], goal, at_least=True)
                for x in (r, player, enemy)
            ]
            lines.append(
                Line(
                    target,
                    f"{a} vs {b}, {frames} frames, {size} map ({len(of_size)} battles; "
                    f"as player {seats[0]}/{half} = {_pct(player)}, "
                    f"as enemy {seats[1]}/{half} = {_pct(enemy)})",
                    _pct(r),
                    "-" if info else f">= {goal:.1%} overall and in each seat",
                    "info" if info else _worst(verdicts),
                    self.command(b, f"--frames {frames} --map {size}", n, a=a),
                )
            )
        return lines

    def overall(self, b: str, frames: int, target: str, goal: float) -> Line:
        n = self.seeds[target]
        games = self.games(Setup(self.strong, b, n, maps=map_sizes(), frames=frames))
        r = _share(sum(1 for g in games if g.winner == "a"), len(games))
        return Line(
            target,
            f"{self.strong} vs {b}, {frames} frames, every map size ({len(games)} battles)",
            _pct(r),
            f">= {goal:.1%}",
            _verdict(r["rate"], r["low"], r["high"], goal, at_least=True),
            self.command(b, f"--frames {frames} --map all", n, a=self.strong),
        )

    def difficulty(self, level: int, target: str, seeds: int) -> list[Line]:
        setup = Setup(self.policy, "ai", seeds, difficulty=level)
        games = self.games(setup)
        n = len(games)
        wins = _share(sum(1 for g in games if g.winner == "a"), n)
        cmd = self.command("ai", f"--difficulty {level}", seeds)
        what = f"difficulty {level}, starting lance on the player's side ({n} battles)"
        if level != 1:
            return [Line(target, what + ": wins", _pct(wins), "-", "info", cmd)]
        pilots = _share(sum(1 for g in games if g.pilots_lost[0]), n)
        return [
            Line(
                target,
                what + ": wins",
                _pct(wins),
                ">= 85.0%",
                _verdict(wins["rate"], wins["low"], wins["high"], 0.85, at_least=True),
                cmd,
            ),
            Line(
                target,
                what + ": battles with a player pilot lost",
                _pct(pilots),
                "<= 8.0%",
                _verdict(pilots["rate"], pilots["low"], pilots["high"], 0.08, at_least=False),
                cmd,
            ),
        ]

    def cover(self) -> Line:
        """Cover use over the as-flown policy's games against `greedy` (2 and 4 frames)."""
        n = self.seeds["greedy"]
        games = [
            g
            for frames in (2, 4)
            for g in self.games(
                Setup(self.policy, "greedy", n, maps=map_sizes(), frames=frames, cover=True)
            )
        ]
        c = cover_use(games, "a")
        ended = c["ended_in_cover"]
        return Line(
            "cover",
            f"ends in cover {ended['rate']:.1%} of {c['activations']} activations with cover "
            f"within reach; chance {c['chance']:.1%}",
            f"{c['ratio']:.2f}x chance [{c['ratio_low']:.2f}, {c['ratio_high']:.2f}]",
            ">= 2.00x",
            _verdict(c["ratio"], c["ratio_low"], c["ratio_high"], 2.0, at_least=True),
            self.command("greedy", "--frames 2 --map all --cover", n) + " (and --frames 4)",
        )

    def time(self, spec: str = "") -> list[Line]:
        """Decision time of `spec` (default: the policy as flown)."""
        a = spec or self.policy
        n = self.seeds["time"]
        setup = Setup(a, "greedy", n, maps=("large",), frames=4)
        games = self.games(setup, jobs=1)
        t = timing(games, "a")
        cpu = t["cpu"]
        cmd = self.command("greedy", "--frames 4 --map large", n, " --jobs 1", a=a)
        load = os.getloadavg()[0]
        what = (
            f"{a}: CPU ms per activation, 20x14 map, 4 frames a side ({t['activations']} "
            f"activations; load average {load:.1f} on {os.cpu_count()} cores)"
        )
        return [
            Line(
                "time",
                f"{what}: {label}",
                f"{cpu[key]:.1f} ms (wall clock {t[key]:.1f} ms)",
                f"<= {goal} ms",
                "PASS" if cpu[key] <= goal else "FAIL",
                cmd,
            )
            for label, key, goal in (("p95", "p95", 20), ("worst", "worst", 50))
        ]


def measure(
    targets: Sequence[str],
    *,
    policy: str = "ai",
    seeds: dict[str, int] | None = None,
    jobs: int = 1,
    show_progress: bool = False,
    on_line: Callable[[Line], None] | None = None,
    rules: Ruleset = (),
) -> list[Line]:
    """Every line of the chosen targets, in `TARGETS` order (`on_line` is told of each as soon
    as it is known)."""
    bench = Bench(policy, dict(seeds or FULL), jobs, show_progress, rules)
    lines: list[Line] = []

    def add(found: Sequence[Line]) -> None:
        for line in found:
            lines.append(line)
            if on_line is not None:
                on_line(line)

    cover = "cover" in targets
    for target in TARGETS:
        if target not in targets:
            continue
        if target == "greedy":
            flown = bench.strong != bench.policy
            for frames in (2, 4):
                add(bench.mirror("greedy", frames, "greedy", 0.80, cover=cover and not flown))
            for frames in (2, 4) if flown else ():
                # as flown, for information (the cover target is measured on these games)
                add(bench.mirror("greedy", frames, "greedy", 0.80, cover, bench.policy, True))
        elif target == "random":
            add([bench.overall("random", 2, "random", 0.995)])
        elif target == "ai-v1":
            add([bench.overall("ai-v1", frames, "ai-v1", 0.75) for frames in (2, 4)])
        elif target == "difficulty":
            add(bench.difficulty(1, "difficulty", bench.seeds["difficulty"]))
            add(bench.difficulty(5, "difficulty", max(1, bench.seeds["difficulty"] // 4)))
        elif target == "cover":
            add([bench.cover()])
        else:
            add(bench.time())
            if bench.strong != bench.policy:
                add(bench.time(bench.strong))
    return lines


def format_line(line: Line) -> str:
    return (
        f"{line.verdict:<6} {line.target:<10} {line.what}\n"
        f"       {line.figure}  (goal {line.goal})\n"
        f"       $ {line.command}"
    )


def to_json(lines: Sequence[Line]) -> str:
    return json.dumps(
        [
            {
                "target": x.target,
                "what": x.what,
                "figure": x.figure,
                "goal": x.goal,
                "verdict": x.verdict,
                "command": x.command,
            }
            for x in lines
        ],
        indent=1,
    )
