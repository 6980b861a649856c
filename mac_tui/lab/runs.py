"""Playing one run, in whichever process: a battle (`players.duel.play_match`) or a campaign
(the autopilot with a strategy), under the catalog of its mod folder; the result is the row's
metrics (a pure function of kind, config and seed) and its timing (wall clock, CPU)."""

from __future__ import annotations

import functools
import hashlib
import re
import time
from collections.abc import Iterator, Mapping, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from attrs import frozen

from ..campaign.state import Campaign
from ..catalog import Catalog, catalog, data_dir, installed_catalog, load_catalog, use_catalog
from ..model import GameState
from ..players.autopilot import STRATEGIES
from ..players.autorun import autoplay
from ..players.duel import Match, Setup, map_sizes, play_match
from ..players.specs import load_policy
from ..ruleset import parse_ruleset

#: Campaign samples are taken at the start of each month of this many days.
MONTH_DAYS = 30
_catalogs: dict[str, Catalog] = {}


@frozen
class Done:
    """A played run: its key and what it gave."""

    key: str
    kind: str
    config: Mapping[str, Any]
    seed: int
    metrics: Mapping[str, Any]
    timing: Mapping[str, Any]


# ---- mods --------------------------------------------------------------------------------------
def data_hash(data: str) -> str:
    """A digest of a mod folder's tables ("" for the base game): a changed mod is a new run."""
    if not data:
        return ""
    digest = hashlib.sha256()
    folder = Path(data)
    for path in sorted(folder.glob("*.toml")) if folder.is_dir() else ():
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


PLAYED_ELSEWHERE = ("tui", "server")  # subpackages no run of the lab executes


@functools.cache
def code_digest() -> str:
    """A digest of the code and shipped rules tables that play a run: every module of the
    package but the screens and servers, and every table of `data/`. A store made by other
    code (a changed AI, autopilot or rule) plays its runs again instead of being reported as
    if this code had played them."""
    digest = hashlib.sha256()
    package = Path(__file__).resolve().parent.parent
    for path in sorted(package.rglob("*.py")):
        relative = path.relative_to(package)
        if relative.parts[0] not in PLAYED_ELSEWHERE:
            digest.update(relative.as_posix().encode() + b"\0" + path.read_bytes() + b"\0")
    for path in sorted(data_dir().glob("*.toml")):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()[:16]


@contextmanager
def catalog_for(data: str) -> Iterator[Catalog]:
    """The catalog of the base game ("") or of a mod folder layered over it, in force inside
    the block (loaded once per process and folder; DataError if the mod is broken)."""
    if data:
        if data not in _catalogs:
            _catalogs[data] = load_catalog(mods=[Path(data)])
        cat = _catalogs[data]
    else:
        cat = installed_catalog()
    previous = use_catalog(cat)
    try:
        yield cat
    finally:
        use_catalog(previous)


# ---- battles -----------------------------------------------------------------------------------
def _lance(text: str) -> tuple[str, ...]:
    return tuple(c.strip().upper() for c in text.split(",") if c.strip())


def battle_setup(config: Mapping[str, Any], *, seeds: int = 1, first_seed: int = 1) -> Setup:
    """The duel setup of a battle cell (see `experiment`)."""
    size = str(config.get("map", "all"))
    return Setup(
        a=str(config["a"]),
        b=str(config["b"]),
        seeds=seeds,
        first_seed=first_seed,
        maps=map_sizes() if size == "all" else (size,),
        frames=int(config["frames"]),
        lance=_lance(str(config["lance"])),
        difficulty=config["difficulty"],
        landscape=str(config["landscape"]) or None,
        rules=parse_ruleset(str(config.get("rules", ""))),
    )


def check_config(kind: str, config: Mapping[str, Any]) -> None:
    """ValueError (SpecError included) naming what a cell's config gets wrong."""
    if kind == "campaign":
        if config["strategy"] not in STRATEGIES:
            raise ValueError(
                f"no strategy {config['strategy']!r} (choose from {', '.join(STRATEGIES)})"
            )
        if int(config["days"]) < 1:
            raise ValueError("days must be at least 1")
        return
    from ..combat.skirmish import difficulty_refusal, lance_from_chassis, landscape_refusal

    for who in ("a", "b"):
        load_policy(str(config[who]))
    sizes = map_sizes()
    if config["map"] not in ("all", *sizes):
        raise ValueError(f"map must be {', '.join(sizes)} or all, not {config['map']!r}")
    difficulty = config["difficulty"]
    if difficulty is not None:
        if reason := difficulty_refusal(int(difficulty)):
            raise ValueError(reason)
        if config["map"] != "all":
            raise ValueError("a difficulty sets the map: give map or difficulty, not both")
    most = catalog().missions.lance.max_frames
    if not 1 <= int(config["frames"]) <= most:
        raise ValueError(f"frames must be 1 to {most}, not {config['frames']}")
    if config["lance"]:
        lance_from_chassis(_lance(str(config["lance"])))
    if reason := landscape_refusal(str(config["landscape"]) or None):
        raise ValueError(reason)


def play_battle(config: Mapping[str, Any], seed: int) -> tuple[dict[str, Any], dict[str, Any]]:
    setup = battle_setup(config, seeds=1, first_seed=seed)
    match = Match(seed, str(config["map"]), bool(config.get("swapped", False)))
    if setup.difficulty is not None:
        match = setup.matches()[0]
    g = play_match(setup, match)
    metrics = {
        "winner": g.winner,
        "result": g.result,
        "reason": g.reason,
        "rounds": g.rounds,
        "withdrew": g.withdrew,
        "frames_lost": list(g.frames_lost),
        "pilots_lost": list(g.pilots_lost),
        "damage": {"a": dict(g.damage[0]), "b": dict(g.damage[1])},
    }
    timing = {
        "decision_ms": {
            who: {"n": len(ms), "sum": round(sum(ms), 3), "max": round(max(ms, default=0.0), 3)}
            for who, ms in zip("ab", g.activation_ms, strict=True)
        },
        "decision_cpu_ms": {
            who: {"n": len(ms), "sum": round(sum(ms), 3)}
            for who, ms in zip("ab", g.activation_cpu_ms, strict=True)
        },
    }
    return metrics, timing


# ---- campaigns ---------------------------------------------------------------------------------
def end_kind(cause: str) -> str:
    """An R28 end cause without its figures: "no frame can deploy", "credits stayed below
    zero for 30 days"... (what reports group by)."""
    return re.sub(r" \([^)]*\)|, with .*$", "", cause)


class _Diary:
    """Follows a campaign line by line: monthly samples (the first state seen on or after day
    1, 31, 61...), each mission's day, difficulty and result and the pilots it cost, and the
    roster's size at the start (pilots hired = pilots on the roster since, the dead included)."""

    def __init__(self) -> None:
        self.months: list[dict[str, int]] = []
        self.missions: list[dict[str, Any]] = []
        self.in_mission = False
        self.in_report = False
        self.kia = 0
        self.first_pilots: int | None = None

    def see(self, state: GameState) -> None:
        c = state.campaign
        if c is None:
            return
        if self.first_pilots is None:
            self.first_pilots = len(c.pilots)
        while c.day > len(self.months) * MONTH_DAYS:
            self.months.append(self.sample(c))
        if c.mission is not None and not self.in_mission:
            contract = c.mission.contract
            self.missions.append({"day": c.day, "difficulty": contract.difficulty})
        self.in_mission = c.mission is not None
        if c.after_action is not None and not self.in_report:
            kia = _kia(c)
            if self.missions:
                self.missions[-1]["result"] = c.after_action.result
                self.missions[-1]["pilots_lost"] = kia - self.kia
            self.kia = kia
        self.in_report = c.after_action is not None

    @staticmethod
    def sample(c: Campaign) -> dict[str, int]:
        return {"day": c.day, "credits": c.credits, "reputation": c.reputation}


def _kia(c: Campaign) -> int:
    return sum(1 for p in c.pilots if p.status == "kia")


def play_campaign(config: Mapping[str, Any], seed: int) -> tuple[dict[str, Any], dict[str, Any]]:
    diary = _Diary()
    days = int(config["days"])
    run = autoplay(
        seed,
        days=days,
        missions=0,
        strategy=STRATEGIES[str(config["strategy"])],
        observe=diary.see,
        rules=parse_ruleset(str(config.get("rules", ""))),
    )
    c = run.state.campaign
    assert c is not None
    start = catalog().start.company.credits
    metrics = {
        "survived": c.ended is None,
        "end_day": c.day,
        "ended": None if c.ended is None else end_kind(c.ended),
        "credits": c.credits,
        "start_credits": start,
        "reputation": c.reputation,
        "missions": c.missions_played,
        "missions_won": c.missions_won,
        "pilots_lost": _kia(c),
        "pilots_hired": len(c.pilots) - (diary.first_pilots or len(c.pilots)),
        "months": diary.months,
        "mission_log": diary.missions,
        "lines": len(run.lines),
    }
    return metrics, {}


# ---- the worker's entry point ------------------------------------------------------------------
def play(kind: str, config: Mapping[str, Any], seed: int, key: str) -> Done:
    """Play one run under its mod's catalog and time it."""
    t0, c0 = time.perf_counter(), time.process_time()
    with catalog_for(str(config["data"])):
        if kind == "battle":
            metrics, timing = play_battle(config, seed)
        else:
            metrics, timing = play_campaign(config, seed)
    timing = {
        **timing,
        "seconds": round(time.perf_counter() - t0, 6),
        "cpu_seconds": round(time.process_time() - c0, 6),
    }
    return Done(key, kind, dict(config), seed, metrics, timing)


Job = tuple[str, Mapping[str, Any], int, str]


def play_chunk(jobs: Sequence[Job]) -> list[Done]:
    """Several runs in one task (what a pool or a Dask worker is handed)."""
    return [play(kind, config, seed, key) for kind, config, seed, key in jobs]
