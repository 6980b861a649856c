"""Duels: policy A against policy B over many seeds, and what came of it (`mac-tui duel`).

Two kinds of match:

* **Mirror** (the default): both sides field the same frames and pilots. For each seed the
  lance is drawn by `mirror_lance` (or named with `lance`), and each seed is played twice on
  each map size, on the same map with the same forces, A on the player's side then B: the
  player deploys first (the engine's automatic deployment) and wins initiative ties, so only
  the swap makes it fair. Neither side withdraws (both rules `never`).
* **Difficulty** (`difficulty=D`): A plays the player's side with the starting lance (or
  `lance`) against the enemy force of difficulty D played by B, on D's map, exactly as
  `mac-tui sim` sets it up (the enemy's withdrawal rule included); sides are not swapped.

Each game is a pure function of (setup, match), so games run in any order, in any number of
worker processes, and the report is aggregated from the games sorted by (map, seed, swap):
`run_duel` gives the same results whatever `jobs` is. Only the decision times (wall clock)
differ from run to run.

The winner: `victory` is the player side's, `defeat` the enemy's; a side that withdraws
(its rule, or the player's `withdraw` order) concedes; anything else (the round limit, nobody
left able to fire, a stalemate: R30) is a draw.
"""

from __future__ import annotations

import gc
import math
import multiprocessing
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any, Literal

import attrs
from attrs import frozen

from ..catalog import catalog
from ..combat.commands import Withdraw
from ..combat.events import Attacked, BattleEnded, SideWithdrew
from ..combat.objectives import draw_objectives
from ..combat.preview import reach_hexes
from ..combat.setup import FrameSpec, new_battle, stock_frame
from ..combat.skirmish import lance_from_chassis, make_state
from ..combat.state import SIDES, PilotSkills, Side
from ..combat.third_force import battle_lances, roll_third_party
from ..combat.third_parties import O10
from ..core import Accepted
from ..dice import MAP, Dice
from ..model import GameState, initial_state
from ..ruleset import Ruleset, format_ruleset
from .policy import Decision, Policy
from .sim import play
from .specs import load_policy, parse_spec

#: The stream the mirror lance is drawn from (separate from the map's and the AI's).
DUEL_STREAM = "duel"
#: z for a two-sided 95% interval.
Z95 = 1.959963984540054

Who = Literal["a", "b"]
WHO: tuple[Who, Who] = ("a", "b")


class DuelError(RuntimeError):
    """A policy failed during a game (raised, refused a command...): says which and where."""


def map_sizes() -> tuple[str, ...]:
    """The catalog's map sizes, smallest first (`data/maps.toml`)."""
    return tuple(m.id for m in catalog().maps.map_size)


def map_difficulty(size: str) -> int:
    """The mission difficulty a map size is made for (its lowest): `generate_map` reads the
    size from the difficulty."""
    for m in catalog().maps.map_size:
        if m.id == size:
            return m.min_difficulty
    raise ValueError(f"no map size {size!r} (choose from {', '.join(map_sizes())})")


def mirror_lance(seed: int, frames: int) -> tuple[FrameSpec, ...]:
    """The lance both sides field for `seed`: frame i gets a chassis drawn uniformly from the
    catalog's chassis that have stock loadouts (file order), then one of its stock loadouts,
    a stance and a target priority (`setup.stock_frame`, R18), all from the seed's `duel`
    stream; its pilot is the i-th starting pilot (Ghost, Falcon, Thunder, Shadow)."""
    cat = catalog()
    dice = Dice(initial_state(seed).rng)
    pool = [c for d, c in cat.chassis.items() if cat.loadouts.get(d)]
    pilots = cat.pilots.starting_pilot
    out = []
    for i in range(frames):
        chassis = dice.choice(DUEL_STREAM, pool)
        p = pilots[i % len(pilots)]
        skills = PilotSkills(
            callsign=p.callsign, gunnery=p.gunnery, piloting=p.piloting, tactics=p.tactics
        )
        out.append(stock_frame(dice, chassis, skills, p.callsign, DUEL_STREAM))
    return tuple(out)


@frozen
class Match:
    """One game: its seed, map size, and whether B plays the player's side."""

    seed: int
    map: str
    swapped: bool = False


@frozen
class Setup:
    """What a duel plays: specs A and B, `seeds` seeds from `first_seed`, the map sizes, the
    lance (`frames` drawn by `mirror_lance`, or the chassis named in `lance`), or the
    difficulty mode; `cover` measures cover use, `log` keeps each game's battle log."""

    a: str
    b: str
    seeds: int
    first_seed: int = 1
    maps: tuple[str, ...] = ()
    frames: int = 2
    lance: tuple[str, ...] = ()
    difficulty: int | None = None
    cover: bool = False
    log: bool = False
    landscape: str | None = None  # a fixed landscape (default: drawn from the seed)
    rules: Ruleset = ()  # the optional rules modules both sides play under (O0.1)

    def matches(self) -> tuple[Match, ...]:
        seeds = range(self.first_seed, self.first_seed + self.seeds)
        if self.difficulty is not None:
            size = catalog().map_size(self.difficulty).id
            return tuple(Match(s, size) for s in seeds)
        maps = self.maps or map_sizes()
        return tuple(Match(s, m, swap) for m in maps for s in seeds for swap in (False, True))

    def start(self, match: Match) -> GameState:
        """The game of `match`, set up and waiting for the player's deployment."""
        named = lance_from_chassis(self.lance) if self.lance else None
        if self.difficulty is not None:
            return make_state(
                match.seed, self.difficulty, named, landscape=self.landscape, ruleset=self.rules
            )
        lance = named or mirror_lance(match.seed, self.frames)
        state = initial_state(match.seed)
        dice = Dice(state.rng)
        landscape = self.landscape or dice.choice(MAP, [ls.id for ls in catalog().maps.landscape])
        difficulty = map_difficulty(match.map)
        allies: tuple[FrameSpec, ...] = ()
        neutrals: tuple[FrameSpec, ...] = ()
        if O10 in self.rules:  # O10.1 as a quick battle rolls it; the swap plays both sides
            third = roll_third_party(dice, difficulty, employer=None, opponent=None)
            allies, neutrals = battle_lances(third.kind, difficulty, third.frames)
        battle = new_battle(
            dice,
            difficulty=difficulty,
            landscape=landscape,
            player=lance,
            enemy=lance,
            player_ai=True,
            player_withdrawal="never",
            enemy_withdrawal="never",
            ruleset=self.rules,
            # O11.1 as a quick battle draws them (none, and no draw, with O11 off)
            objectives=draw_objectives(
                dice, map_difficulty(match.map), self.rules, ally=bool(allies)
            ),
            allies=allies,
            neutrals=neutrals,
        )
        return attrs.evolve(state, battle=battle, rng=dice.state())


@frozen
class CoverTally:
    """Cover use over a side's activations that had cover within reach (`docs/bots.md`):
    how many, how many ended in cover, and the sum of each one's chance (the share of the
    hexes within reach that are cover)."""

    activations: int = 0
    in_cover: int = 0
    chance: float = 0.0


@frozen
class GameResult:
    """One game, seen from A and B (pairs are (A, B))."""

    seed: int
    map: str
    swapped: bool
    winner: Who | None
    result: str
    reason: str
    rounds: int
    withdrew: Who | None
    frames_lost: tuple[int, int]
    pilots_lost: tuple[int, int]
    activation_ms: tuple[tuple[float, ...], tuple[float, ...]]
    activation_cpu_ms: tuple[tuple[float, ...], tuple[float, ...]]
    cover: tuple[CoverTally, CoverTally]
    #: damage dealt by each weapon id, sorted by id (A's, B's)
    damage: tuple[tuple[tuple[str, int], ...], tuple[tuple[str, int], ...]] = ((), ())
    log: tuple[str, ...] = ()

    def key(self) -> tuple[int, int, bool]:
        sizes = map_sizes()
        return (sizes.index(self.map) if self.map in sizes else len(sizes), self.seed, self.swapped)


class _Watch:
    """Times each policy per activation and tallies cover use, from the driver's decisions."""

    def __init__(self, owner: dict[Side, Who], cover: bool) -> None:
        self.owner = owner
        self.cover = cover
        self.ms: dict[Who, dict[tuple[int, str], float]] = {"a": {}, "b": {}}
        self.cpu_ms: dict[Who, dict[tuple[int, str], float]] = {"a": {}, "b": {}}
        self.starts: dict[tuple[int, str], tuple[Side, float] | None] = {}
        self.ends: dict[tuple[int, str], bool] = {}
        self.withdrew: Side | None = None

    @staticmethod
    def key(state: GameState) -> tuple[int, str] | None:
        battle = state.battle
        unit = battle.active_unit if battle is not None and battle.phase == "combat" else None
        return None if battle is None or unit is None else (battle.round, unit.id)

    def timed(self, who: Who, policy: Policy) -> Policy:
        def run(state: GameState) -> Decision:
            t0, c0 = time.perf_counter(), time.thread_time()
            decision = policy(state)
            spent, cpu = (time.perf_counter() - t0) * 1000, (time.thread_time() - c0) * 1000
            key = self.key(state)
            if key is not None:
                self.ms[who][key] = self.ms[who].get(key, 0.0) + spent
                self.cpu_ms[who][key] = self.cpu_ms[who].get(key, 0.0) + cpu
            return decision

        return run

    def observe(self, before: GameState, decision: Decision, outcome: Accepted) -> None:
        key = self.key(before)
        if key is None:
            return
        battle = before.battle
        assert battle is not None and battle.active_unit is not None
        unit = battle.active_unit
        if isinstance(decision.command, Withdraw):
            self.withdrew = unit.side
        if not self.cover:
            return
        if key not in self.starts:
            self.starts[key] = _cover_chance(before)
        after = outcome.state.battle
        assert after is not None
        pos = after.unit(unit.id).pos
        terrain = catalog().terrain
        self.ends[key] = pos is not None and terrain[after.map.terrain_at(pos)].defense > 0

    @staticmethod
    def per_activation(
        times: dict[Who, dict[tuple[int, str], float]], who: Who
    ) -> tuple[float, ...]:
        return tuple(times[who][k] for k in sorted(times[who]))

    def tally(self, who: Who) -> CoverTally:
        n, k, chance = 0, 0, 0.0
        for key in sorted(self.starts):
            start = self.starts[key]
            if start is None or self.owner.get(start[0]) != who:  # O10: not a third party
                continue
            n += 1
            k += self.ends[key]
            chance += start[1]
        return CoverTally(n, k, chance)


def _cover_chance(state: GameState) -> tuple[Side, float] | None:
    """The acting frame's side and the share of cover among the hexes within its reach (its
    hex and every hex one Move or Sprint could end on), or None when it cannot move or no
    cover is within reach."""
    battle = state.battle
    assert battle is not None and battle.active_unit is not None
    unit = battle.active_unit
    if unit.pos is None:
        return None
    hexes = {unit.pos} | reach_hexes(battle, unit, False) | reach_hexes(battle, unit, True)
    if len(hexes) < 2:
        return None
    terrain = catalog().terrain
    cover = sum(1 for h in hexes if terrain[battle.map.terrain_at(h)].defense > 0)
    return None if cover == 0 else (unit.side, cover / len(hexes))


def play_match(setup: Setup, match: Match) -> GameResult:
    """Play one game of the duel (in whichever process) and describe it."""
    state = setup.start(match)
    specs: dict[Who, str] = {"a": setup.a, "b": setup.b}
    sides: dict[Who, Side] = {
        "a": "enemy" if match.swapped else "player",
        "b": "player" if match.swapped else "enemy",
    }
    owner: dict[Side, Who] = {side: who for who, side in sides.items()}
    watch = _Watch(owner, setup.cover)
    seats = {sides[w]: watch.timed(w, load_policy(specs[w])) for w in WHO}
    names = {sides[w]: parse_spec(specs[w]).label for w in WHO}
    log: list[str] | None = [] if setup.log else None
    where = f"seed {match.seed}, {match.map} map, {setup.a} vs {setup.b}" + (
        " (sides swapped)" if match.swapped else ""
    )
    # What the set-up made lives as long as the game: out of the collector's way, so its full
    # collections do not land in the policies' decision times (issue 13's "gc.freeze() after
    # set-up"); given back to it when the game is over, so a worker's games do not pile up.
    # Only the young generations are collected first (the last game's fresh garbage): a full
    # collection walks every object of the process, the catalog's included, and cost a
    # greedy game a fifth of its time; older garbage goes with the collector's own full
    # collections once unfrozen.
    gc.collect(1)
    gc.freeze()
    try:
        end, events = play(state, seats, log=log, names=names, observe=watch.observe)
    except Exception as exc:
        raise DuelError(f"{where}: {type(exc).__name__}: {exc}") from exc
    finally:
        gc.unfreeze()
    battle = end.battle
    assert battle is not None
    reason = next((e.reason for e in events if isinstance(e, BattleEnded)), "unfinished")
    withdrew = {e.side for e in events if isinstance(e, SideWithdrew)}
    quitter: Side | None = watch.withdrew or next((s for s in SIDES if s in withdrew), None)
    winner: Who | None = None
    if battle.result == "victory":
        winner = owner["player"]
    elif battle.result == "defeat":
        winner = owner["enemy"]
    elif quitter is not None:
        winner = owner["enemy" if quitter == "player" else "player"]

    def lost(who: Who, what: Callable[[Any], bool]) -> int:
        return sum(1 for u in battle.side_units(sides[who]) if what(u))

    dealt: dict[Who, dict[str, int]] = {"a": {}, "b": {}}
    for e in events:
        if not isinstance(e, Attacked):
            continue
        shot = e.result
        side = battle.unit(shot.attacker).side
        if side not in owner:
            continue  # O10: a third party's shot is neither A's nor B's
        if shot.hit and not shot.intercepted and shot.damage is not None:
            who = owner[side]
            dealt[who][shot.weapon] = dealt[who].get(shot.weapon, 0) + shot.damage.total

    return GameResult(
        seed=match.seed,
        map=match.map,
        swapped=match.swapped,
        winner=winner,
        result=battle.result or "unfinished",
        reason=reason,
        rounds=battle.round,
        withdrew=None if quitter is None else owner[quitter],
        frames_lost=(lost("a", lambda u: not u.active), lost("b", lambda u: not u.active)),
        pilots_lost=(
            lost("a", lambda u: not u.pilot_alive),
            lost("b", lambda u: not u.pilot_alive),
        ),
        activation_ms=(watch.per_activation(watch.ms, "a"), watch.per_activation(watch.ms, "b")),
        activation_cpu_ms=(
            watch.per_activation(watch.cpu_ms, "a"),
            watch.per_activation(watch.cpu_ms, "b"),
        ),
        cover=(watch.tally("a"), watch.tally("b")),
        damage=(tuple(sorted(dealt["a"].items())), tuple(sorted(dealt["b"].items()))),
        log=tuple(log or ()),
    )


Progress = Callable[[int, int], None]


def run_duel(setup: Setup, *, jobs: int = 1, progress: Progress | None = None) -> list[GameResult]:
    """Every game of the duel, sorted by (map, seed, swap) whatever order they finished in;
    `jobs` > 1 plays them in that many worker processes. `progress(done, total)` is called
    after each game. The specs are loaded here first, so a bad one fails before any game."""
    for spec in (setup.a, setup.b):
        load_policy(spec)
    matches = setup.matches()
    results: list[GameResult] = []
    if jobs <= 1 or len(matches) <= 1:
        for match in matches:
            results.append(play_match(setup, match))
            if progress is not None:
                progress(len(results), len(matches))
    else:
        context = multiprocessing.get_context("spawn")
        with ProcessPoolExecutor(min(jobs, len(matches)), mp_context=context) as pool:
            futures = [pool.submit(play_match, setup, m) for m in matches]
            try:
                for future in as_completed(futures):
                    results.append(future.result())
                    if progress is not None:
                        progress(len(results), len(matches))
            except BaseException:
                for f in futures:
                    f.cancel()
                raise
    return sorted(results, key=GameResult.key)


# ---- the report ----------------------------------------------------------------------------
def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% by default); (0, 1) when n is 0."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def rate(successes: int, n: int) -> dict[str, float | int]:
    low, high = wilson(successes, n)
    return {
        "count": successes,
        "of": n,
        "rate": round(successes / n, 4) if n else 0.0,
        "low": round(low, 4),
        "high": round(high, 4),
    }


def percentile(values: Sequence[float], share: float) -> float:
    """Nearest-rank percentile of `values` (0 when empty)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[max(0, math.ceil(share * len(ordered)) - 1)]


def _tally(games: Sequence[GameResult]) -> dict[str, Any]:
    n = len(games)
    wins = {w: sum(1 for g in games if g.winner == w) for w in WHO}
    return {
        "battles": n,
        "wins": wins,
        "draws": n - wins["a"] - wins["b"],
        "win_rate": {w: rate(wins[w], n) for w in WHO},
    }


def timing(games: Sequence[GameResult], who: Who, *, cpu: bool = False) -> dict[str, Any]:
    """Decision time per activation of `who` (ms): count, mean, p95, worst; wall clock, or
    with `cpu` the deciding thread's CPU time (`time.thread_time`), which other processes on
    a busy machine do not inflate. The wall-clock figures carry the CPU ones under `cpu`."""
    i = WHO.index(who)
    ms = [t for g in games for t in (g.activation_cpu_ms if cpu else g.activation_ms)[i]]
    extra = {} if cpu else {"cpu": timing(games, who, cpu=True)}
    return {
        **extra,
        "activations": len(ms),
        "mean": round(sum(ms) / len(ms), 3) if ms else 0.0,
        "p95": round(percentile(ms, 0.95), 3),
        "worst": round(max(ms, default=0.0), 3),
    }


def cover_use(games: Sequence[GameResult], who: Who) -> dict[str, Any]:
    """Cover use of `who` (`docs/bots.md`): activations with cover within reach, the share
    that ended in cover (with its interval), chance (the mean share of cover within reach)
    and their ratio (with the interval's bounds divided by chance)."""
    i = WHO.index(who)
    n = sum(g.cover[i].activations for g in games)
    k = sum(g.cover[i].in_cover for g in games)
    chance = sum(g.cover[i].chance for g in games) / n if n else 0.0
    observed = rate(k, n)
    ratio = (k / n) / chance if n and chance else 0.0
    return {
        "activations": n,
        "ended_in_cover": observed,
        "chance": round(chance, 4),
        "ratio": round(ratio, 3),
        "ratio_low": round(float(observed["low"]) / chance, 3) if chance else 0.0,
        "ratio_high": round(float(observed["high"]) / chance, 3) if chance else 0.0,
    }


def report(setup: Setup, games: Sequence[GameResult]) -> dict[str, Any]:
    """The duel's figures (a JSON-ready dict); everything but `decision_ms` is a pure function
    of the games, so it is the same whatever order or process played them."""
    games = sorted(games, key=GameResult.key)
    n = len(games)
    labels = {"a": parse_spec(setup.a).label, "b": parse_spec(setup.b).label}
    draws: dict[str, int] = {}
    for g in games:
        if g.winner is None:
            draws[g.reason] = draws.get(g.reason, 0) + 1

    def per_battle(values: Callable[[GameResult], int]) -> float:
        return round(sum(values(g) for g in games) / n, 3) if n else 0.0

    def lost(field: str, i: int) -> float:
        return per_battle(lambda g: getattr(g, field)[i])

    out: dict[str, Any] = {
        "a": labels["a"],
        "b": labels["b"],
        "mode": "mirror" if setup.difficulty is None else f"difficulty {setup.difficulty}",
        **({"rules": format_ruleset(setup.rules)} if setup.rules else {}),
        "lance": list(setup.lance) or (None if setup.difficulty is not None else setup.frames),
        "seeds": {"first": setup.first_seed, "count": setup.seeds},
        **_tally(games),
        "draw_reasons": dict(sorted(draws.items())),
        "withdrawals": {w: sum(1 for g in games if g.withdrew == w) for w in WHO},
        "frames_lost_per_battle": {w: lost("frames_lost", i) for i, w in enumerate(WHO)},
        "pilots_lost_per_battle": {w: lost("pilots_lost", i) for i, w in enumerate(WHO)},
        "battles_with_a_pilot_lost": {
            w: rate(sum(1 for g in games if g.pilots_lost[i]), n) for i, w in enumerate(WHO)
        },
        "mean_rounds": per_battle(lambda g: g.rounds),
        "by_map": {
            size: _tally([g for g in games if g.map == size])
            for size in dict.fromkeys(g.map for g in games)
        },
        "by_seat": {
            "a_player": _tally([g for g in games if not g.swapped]),
            "a_enemy": _tally([g for g in games if g.swapped]),
        },
    }
    if setup.cover:
        out["cover"] = {w: cover_use(games, w) for w in WHO}
    out["games"] = [
        {
            "seed": g.seed,
            "map": g.map,
            "a_side": "enemy" if g.swapped else "player",
            "winner": g.winner,
            "result": g.result,
            "reason": g.reason,
            "rounds": g.rounds,
            "frames_lost": list(g.frames_lost),
            "pilots_lost": list(g.pilots_lost),
        }
        for g in games
    ]
    out["decision_ms"] = {w: timing(games, w) for w in WHO}
    return out


def without_timing(doc: dict[str, Any]) -> dict[str, Any]:
    """A report without its wall-clock figures (what must not depend on `jobs`)."""
    return {k: v for k, v in doc.items() if k != "decision_ms"}
