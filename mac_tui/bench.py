"""Benchmarks that print figures (never timed tests): `python -m mac_tui.bench combat`.

combat: four-frame lance against the difficulty-5 enemy on the largest map, AI on both sides;
prints battles per second, AI milliseconds per decision (mean, p95, worst) and per battle.

forecast: the exact forecasts (combat/forecast.py, combat/threat.py) at every activation of AI
battles like `combat`'s: every group of the acting frame at every enemy it can fire at (plain,
called at the head and the centre torso), each timed cold (first call in the battle for that
target state and shot) and again cached; then `threat` for the frame where it stands and at a
few hexes it could move to. Prints mean, p95 and worst per call.

campaign: (a) 365 days with a full roster (eight frames of every class, eight pilots), as one
`advance-day 365`, as 365 `advance-day 1` commands and as 365 commands through a `Session`
(with its checkpoints); (b) saving and loading the one-year autopilot campaign of `--seed`
(`save.write_save` / `Session.load`), with its file size and command count; (c) `replay
--verify` of that save (the golden `tests/golden/v1/campaign-year.json` is the same game), which
reads and checks the file and replays its log once, hashing only the end state.
"""

from __future__ import annotations

import argparse
import functools
import statistics
import sys
import time
from collections.abc import Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .model import GameState

CAMPAIGN_SEED = 14  # a seed whose autopilot company lives through the year


def bench_combat(battles: int, seed: int) -> None:
    from .combat.skirmish import lance_from_chassis, make_state
    from .players import ai
    from .players.policy import Decision
    from .players.sim import play

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
    act = sorted(t * 1000 for t in activations.values())
    print(
        f"AI activation: {len(act)} activations, mean {statistics.mean(act):.2f} ms, "
        f"p95 {act[int(len(act) * 0.95)]:.2f} ms, worst {act[-1]:.2f} ms"
    )


def _spread(label: str, seconds: Sequence[float]) -> str:
    ms = sorted(t * 1000 for t in seconds)
    if not ms:
        return f"{label}: no calls"
    return (
        f"{label}: {len(ms)} calls, mean {statistics.mean(ms):.2f} ms, "
        f"p95 {ms[int(len(ms) * 0.95)]:.2f} ms, worst {ms[-1]:.2f} ms"
    )


def bench_forecast(battles: int, seed: int, hexes: int = 4) -> None:
    from .combat import forecast, threat
    from .combat.firing import check_fire
    from .combat.preview import reach_hexes
    from .combat.skirmish import lance_from_chassis, make_state
    from .combat.stats import groups
    from .players import ai
    from .players.policy import Decision
    from .players.sim import play

    lance = lance_from_chassis(["EN-50", "WD-60", "RD-30", "SN-75"])
    cold: list[float] = []
    warm: list[float] = []
    threats: list[float] = []
    threats_warm: list[float] = []
    residual = 0.0
    seen: set[tuple[int, str]] = set()

    def timed(state: GameState) -> Decision:
        nonlocal residual
        battle = state.battle
        unit = None if battle is None else battle.active_unit
        if battle is not None and unit is not None and (battle.round, unit.id) not in seen:
            seen.add((battle.round, unit.id))
            for target in battle.living("enemy" if unit.side == "player" else "player"):
                for group in groups(unit):
                    for called in (None, "head", "center_torso"):
                        if isinstance(check_fire(battle, unit, group, target.id, called), str):
                            continue
                        t0 = time.process_time()
                        f = forecast.forecast_group(battle, unit.id, group, target.id, called)
                        cold.append(time.process_time() - t0)
                        t0 = time.process_time()
                        forecast.forecast_group(battle, unit.id, group, target.id, called)
                        warm.append(time.process_time() - t0)
                        residual = max(residual, f.residual)
            for at in [unit.pos, *sorted(reach_hexes(battle, unit, sprint=False))[:hexes]]:
                t0 = time.process_time()
                threat.threat(battle, unit.id, at=at)
                threats.append(time.process_time() - t0)
                t0 = time.process_time()
                threat.threat(battle, unit.id, at=at)
                threats_warm.append(time.process_time() - t0)
        return ai.decide(state)

    for i in range(battles):
        forecast.clear_cache()
        seen.clear()
        state = make_state(seed + i, 5, lance)
        assert state.battle is not None
        if i == 0:
            print(
                f"map {state.battle.map.width}x{state.battle.map.height}, "
                f"{len(state.battle.units)} frames"
            )
        play(state, {"player": timed, "enemy": timed})
    print(
        f"battles: {battles} (seeds {seed}..{seed + battles - 1}), caches emptied per battle; "
        "times are CPU time of this process (time.process_time), so other load does not count"
    )
    print(_spread("forecast_group, first call", cold))
    print(_spread("forecast_group, cached", warm))
    print(_spread("threat, first call", threats))
    print(_spread("threat, again", threats_warm))
    print(f"largest residual (mass not enumerated): {residual:.2e}")


FULL_ROSTER = ("SC-20", "HR-35", "VG-45", "EN-50", "RG-55", "WD-60", "SN-75", "TN-85")


def full_roster_state(seed: int) -> GameState:
    """A new campaign (by command) given eight frames of mixed classes, each with a stock
    loadout and a pilot, and the money to keep them for a year (through the ledger)."""
    import attrs

    from .campaign import ledger
    from .campaign.commands import NewCampaign
    from .campaign.market import fresh_frame
    from .campaign.pilots import roll_pilot
    from .campaign.state import Mount
    from .catalog import catalog
    from .dice import Dice
    from .game import Accepted, step
    from .model import initial_state

    out = step(initial_state(seed), NewCampaign("Bench Company"))
    assert isinstance(out, Accepted) and out.state.campaign is not None
    state, c = out.state, out.state.campaign
    cat = catalog()
    dice = Dice(state.rng)
    pilots = list(c.pilots)
    frames = []
    for i, designation in enumerate(FULL_ROSTER, start=1):
        loadout = cat.stock_loadouts(designation)[0]
        weapons = tuple(
            Mount(weapon=w.weapon, mount=w.mount, group=w.group) for w in loadout.weapons
        )
        if i > len(pilots):
            pilots.append(roll_pilot(f"Bench-{i}", dice))
        frame = fresh_frame(f"F{i}", designation, cat.chassis[designation].name)
        frames.append(attrs.evolve(frame, weapons=weapons, pilot=pilots[i - 1].callsign))
    c = attrs.evolve(c, frames=tuple(frames), pilots=tuple(pilots), next_frame=len(frames) + 1)
    c, _ = ledger.post(c, "reward", 10_000_000, "Bench endowment")
    return attrs.evolve(state, campaign=c, rng=dice.state())


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def bench_campaign(seed: int) -> None:
    import tempfile
    from pathlib import Path

    from .campaign.commands import AdvanceDay
    from .campaign.timeflow import daily_upkeep
    from .game import Accepted, step
    from .players.autorun import autoplay
    from .save import read_save
    from .savefolder import write_save
    from .session import Session, verify

    # (a) a year with a full roster
    state = full_roster_state(seed)
    assert state.campaign is not None
    print(
        f"(a) full roster: {len(state.campaign.frames)} frames "
        f"({', '.join(FULL_ROSTER)}), {len(state.campaign.pilots)} pilots, "
        f"upkeep {daily_upkeep(state.campaign):,}/day"
    )
    t0 = time.perf_counter()
    out = step(state, AdvanceDay(365))
    one = time.perf_counter() - t0
    assert isinstance(out, Accepted) and out.state.campaign is not None
    assert out.state.campaign.day == state.campaign.day + 365 and not out.state.campaign.ended
    print(f"    advance-day 365:         {_ms(one)}")
    t0 = time.perf_counter()
    s = state
    for _ in range(365):
        o = step(s, AdvanceDay(1))
        assert isinstance(o, Accepted)
        s = o.state
    print(f"    365 x advance-day 1:     {_ms(time.perf_counter() - t0)}")
    session = Session(state)
    t0 = time.perf_counter()
    for _ in range(365):
        session.apply(AdvanceDay(1))
    print(f"    365 x Session.apply:     {_ms(time.perf_counter() - t0)} (with checkpoints)")

    # (b) save and load the one-year autopilot campaign
    t0 = time.perf_counter()
    run = autoplay(seed)
    made = time.perf_counter() - t0
    c = run.state.campaign
    assert c is not None
    print(
        f"(b) autopilot seed {seed}: {c.day - 1} days, {c.missions_played} missions, "
        f"{len(run.lines)} script lines, {len(run.session.commands)} commands "
        f"(generated in {made:.1f} s){'; ended: ' + c.ended if c.ended else ''}"
    )
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "year.json"
        saves, loads = [], []
        for _ in range(5):
            t0 = time.perf_counter()
            write_save(path, run.session.to_save())  # the autosave's path (backup, fsyncs)
            saves.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            loaded = Session.load(path)
            loads.append(time.perf_counter() - t0)
        assert loaded.state == run.state
        size = path.stat().st_size
        print(f"    file {size / 1024:.0f} KiB, {len(loaded.commands)} commands")
        print(f"    save: best {_ms(min(saves))}, median {_ms(statistics.median(saves))}")
        print(f"    load: best {_ms(min(loads))}, median {_ms(statistics.median(loads))}")

        # (c) replay --verify: read (checked) + one replay, end-state hash only
        runs = []
        for _ in range(3):
            t0 = time.perf_counter()
            save = read_save(path)
            read = time.perf_counter() - t0
            verdict = verify(save)
            runs.append((time.perf_counter() - t0, read))
        total, read = min(runs)
        print(
            f"(c) replay --verify: {total:.2f} s (best of 3; reading and checking the file "
            f"{_ms(read)}, target < 0.5 s): {verdict.message}"
        )


def bench_ai(args: argparse.Namespace) -> int:
    """Print every target of issue 13 with its interval, verdict and command (never fails)."""
    import os

    from .players import aibench
    from .players.specs import SpecError, load_policy

    targets = aibench.TARGETS
    if args.only:
        targets = tuple(t.strip() for t in args.only.split(","))
        unknown = [t for t in targets if t not in aibench.TARGETS]
        if unknown:
            print(f"bench ai: no target {', '.join(unknown)} ({', '.join(aibench.TARGETS)})")
            return 2
    from .ruleset import RulesetError, parse_ruleset

    try:
        load_policy(args.policy)
        rules = parse_ruleset(args.rules)
    except (SpecError, RulesetError) as exc:
        print(f"bench ai: {exc}")
        return 2
    seeds = dict(aibench.QUICK if args.quick else aibench.FULL)
    if args.seeds is not None:
        seeds = {k: max(1, args.seeds) for k in seeds}
    jobs = args.jobs or len(os.sched_getaffinity(0))
    show = not args.json and sys.stdout.isatty()

    def shown(line: aibench.Line) -> None:
        if not args.json:
            print(aibench.format_line(line), flush=True)

    if not args.json:
        strong = aibench.full_skill(args.policy)
        if strong != args.policy:
            print(
                f"strength targets (greedy, random, ai-v1) at full skill: {strong} (the top "
                f"of the Tactics ladder, docs/balance.md); difficulty, cover and the 'info' "
                f"rows vs greedy as flown: {args.policy}; decision time both as flown and at "
                f"full skill",
                flush=True,
            )
    t0 = time.perf_counter()
    if rules and not args.json:
        print(f"every game under the optional rules {','.join(rules)}", flush=True)
    measure = functools.partial(aibench.measure, rules=rules)
    lines = measure(
        targets, policy=args.policy, seeds=seeds, jobs=jobs, show_progress=show, on_line=shown
    )
    if args.json:
        print(aibench.to_json(lines))
    else:
        passed = sum(1 for x in lines if x.verdict.startswith("PASS"))
        failed = sum(1 for x in lines if x.verdict.startswith("FAIL"))
        print(
            f"-- {args.policy}: {passed} PASS, {failed} FAIL "
            f"('?': the interval straddles the goal) in {time.perf_counter() - t0:.0f} s "
            f"with {jobs} job(s)"
        )
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m mac_tui.bench")
    p.add_argument("what", choices=["combat", "campaign", "forecast", "tui", "ssh", "ai", "lab"])
    p.add_argument("--battles", type=int, default=20)
    p.add_argument(
        "--seed", type=int, default=None, help=f"default 1 (combat), {CAMPAIGN_SEED} (campaign)"
    )
    ai = p.add_argument_group("ai: the targets of issue 13")
    ai.add_argument("--only", metavar="T,...", help="greedy,random,ai-v1,difficulty,cover,time")
    ai.add_argument("--quick", action="store_true", help="small samples, for development")
    ai.add_argument("--seeds", type=int, default=None, help="seeds per sample (all targets)")
    ai.add_argument("--policy", default="ai", help="the policy under test (default ai)")
    ai.add_argument(
        "--rules", default="", help="optional rules modules every game plays under, e.g. O2,O3"
    )
    ai.add_argument("--jobs", type=int, default=None, help="worker processes (default: cores)")
    ai.add_argument("--json", action="store_true", help="print the lines as JSON")
    lab = p.add_argument_group("lab: battles/s/core and the lab's overhead (issue 15)")
    lab.add_argument(
        "--ai-seeds", type=int, default=None, help="seeds for the full AI (default seeds / 10)"
    )
    ssh = p.add_argument_group("ssh: players on the SSH server (docs/hosting.md)")
    ssh.add_argument("--players", type=int, default=20, help="players at once (default 20)")
    ssh.add_argument("--presses", type=int, default=30, help="battle keys per player (default 30)")
    ssh.add_argument(
        "--gap", type=float, default=1.0, help="seconds between a player's keys (default 1)"
    )
    ssh.add_argument(
        "--cold-start", action="store_true", help="every game a new process (no zygote)"
    )
    ssh.add_argument("--port", type=int, default=0, help="the server's port (default: a free one)")
    ssh.add_argument(
        "--pool", type=int, default=None, help="the server's --pool (default: the server's)"
    )
    ssh.add_argument(
        "--model",
        choices=["both", "lockstep", "paced"],
        default="both",
        help="the players' pace: lockstep (the worst case), paced (a person's), or both "
        "one after the other (default); docs/hosting.md",
    )
    ssh.add_argument(
        "--spawn", type=float, default=20.0, help="paced: seconds over which players start"
    )
    args = p.parse_args(argv)
    if args.what == "ai":
        return bench_ai(args)
    if args.what == "lab":
        from .lab.bench import main as bench_lab

        seeds = args.seeds or (5 if args.quick else 50)
        return bench_lab(seeds=seeds, ai_seeds=args.ai_seeds or max(1, seeds // 10))
    if args.what == "combat":
        bench_combat(args.battles, 1 if args.seed is None else args.seed)
    elif args.what == "forecast":
        bench_forecast(args.battles, 1 if args.seed is None else args.seed)
    elif args.what == "campaign":
        bench_campaign(CAMPAIGN_SEED if args.seed is None else args.seed)
    elif args.what == "tui":
        from .tui.benchmark import run as bench_tui
        from .tui.benchmark import run_battle_keys, run_battle_screen, run_hub, run_hub_keys

        seed = 1 if args.seed is None else args.seed
        bench_tui(seed)
        run_battle_screen(seed, presses=120, gap=0.05)
        run_battle_keys(seed, presses=60, gap=0.05)
        run_hub(CAMPAIGN_SEED, presses=120, gap=0.05)
        run_hub_keys(CAMPAIGN_SEED, presses=60, gap=0.05)
    elif args.what == "ssh":
        from .extras import SSH_MODULES, missing_extra

        message = missing_extra("python -m mac_tui.bench ssh", "server", SSH_MODULES)
        if message:
            print(message, file=sys.stderr)
            return 2
        from .server.sshbench import bench as bench_ssh

        return bench_ssh(
            args.players,
            args.presses,
            args.gap,
            args.cold_start,
            args.port,
            args.pool,
            args.model,
            args.spawn,
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
