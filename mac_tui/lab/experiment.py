"""Experiments: what a sweep plays, read from TOML (or flags), expanded into runs.

    name = "ai-vs-greedy"
    kind = "battle"            # or "campaign"
    seeds = 50                 # seeds per cell
    first_seed = 1
    [fixed]                    # values every cell shares
    b = "greedy"
    [axes]                     # lists; the cells are their product, in the order given
    a = ["ai", "ai:tactics=4", "greedy"]
    difficulty = [1, 3, 5]

A battle cell is a `players.duel.Setup`: policy `a` against policy `b`; with a `difficulty`
A plays the player's lance (`lance`, default the starting lance) against that difficulty's
enemy played by B; without one the two sides are mirrored on `map` (a size, or "all") with
`frames` frames drawn per seed (or the `lance`), each seed played twice, sides swapped.
`landscape` fixes the landscape; `rules` names the optional rules modules played (`O2,O3`, also
written `O2+O3`; "" is the core game). A campaign cell is the autopilot playing `days` days with
its `strategy`. Both take `data`: a mod folder layered over the shipped tables ("" is the base
game). Every value is checked before anything runs; a mistake is an `ExperimentError` naming
the file, the key and the value.

A run is (kind, config, seed); its key is a hash of those and of the mod folder's contents, so
the same run in two experiments is played once, and changing a mod plays its runs again.
"""

from __future__ import annotations

import hashlib
import json
import tomllib
from collections.abc import Mapping, Sequence
from itertools import product
from pathlib import Path
from typing import Any

from attrs import evolve, frozen

from ..catalog import DataError
from ..game import RULES_VERSION
from ..players.specs import SpecError
from ..ruleset import RulesetError, format_ruleset, parse_ruleset
from .runs import battle_setup, catalog_for, check_config, code_digest, data_hash

KINDS = ("battle", "campaign")
#: Every axis of each kind and its default (None: not set).
AXES: dict[str, dict[str, Any]] = {
    "battle": {
        "a": "ai",
        "b": "greedy",
        "difficulty": None,
        "map": "all",
        "frames": 2,
        "lance": "",
        "landscape": "",
        "rules": "",
        "data": "",
    },
    "campaign": {"strategy": "sensible", "days": 365, "rules": "", "data": ""},
}
INT_AXES = ("difficulty", "frames", "days")
MAX_SEEDS = 1_000_000


class ExperimentError(ValueError):
    """An experiment that cannot run; the message names the file, key and value."""


@frozen
class Run:
    """One run: what it plays (`config`, complete), its seed, and the cell it belongs to."""

    kind: str
    config: Mapping[str, Any]
    seed: int
    cell: tuple[tuple[str, Any], ...]

    @property
    def key(self) -> str:
        return run_key(self.kind, self.config, self.seed)


def run_key(kind: str, config: Mapping[str, Any], seed: int) -> str:
    """A hash of what the run plays: a mod counts by its contents (`data_hash`), not by where
    its folder is; the rules version and the code that plays it (`code_digest`) count too (a
    store made under older rules, or by another AI or autopilot, plays again). The core game's
    `rules` ("") is left out, so a run without optional rules keeps the key it always had."""
    played = {k: v for k, v in config.items() if k != "data" and not (k == "rules" and not v)}
    what = [kind, played, seed, RULES_VERSION, code_digest()]
    text = json.dumps(what, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:24]


@frozen
class Experiment:
    name: str
    kind: str
    seeds: int
    first_seed: int
    fixed: Mapping[str, Any]
    axes: tuple[tuple[str, tuple[Any, ...]], ...]
    source: str = "flags"

    def to_json(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "kind": self.kind,
            "seeds": self.seeds,
            "first_seed": self.first_seed,
            "fixed": dict(self.fixed),
            "axes": {k: list(v) for k, v in self.axes},
        }

    def cells(self) -> list[dict[str, Any]]:
        """Each cell's complete config (defaults, then `fixed`, then its axis values)."""
        names = [k for k, _ in self.axes]
        out = []
        for values in product(*(v for _, v in self.axes)):  # one empty cell without axes
            config = {**AXES[self.kind], **self.fixed, **dict(zip(names, values, strict=True))}
            out.append(config)
        return out

    def cell_label(self, config: Mapping[str, Any]) -> tuple[tuple[str, Any], ...]:
        return tuple((k, config[k]) for k, _ in self.axes)

    def runs(self) -> list[Run]:
        """Every run of the experiment, cell by cell, seed by seed (a mirror cell's seed twice,
        sides swapped, on each of its maps)."""
        hashes: dict[str, str] = {}
        out: list[Run] = []
        seeds = range(self.first_seed, self.first_seed + self.seeds)
        for config in self.cells():
            label = self.cell_label(config)
            data = str(config["data"])
            if data not in hashes:
                hashes[data] = data_hash(data)
            full = {**config, "data_hash": hashes[data]}
            if self.kind == "campaign":
                out += [Run(self.kind, full, s, label) for s in seeds]
                continue
            setup = battle_setup(full, seeds=self.seeds, first_seed=self.first_seed)
            for match in setup.matches():
                played = {**full, "map": match.map, "swapped": match.swapped}
                out.append(Run(self.kind, played, match.seed, label))
        return out


# ---- reading and checking ----------------------------------------------------------------------
def load(path: Path) -> Experiment:
    """The experiment in a TOML file (ExperimentError naming the file for any mistake)."""
    try:
        raw = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError) as exc:
        raise ExperimentError(f"{path}: cannot be read: {exc}") from None
    except tomllib.TOMLDecodeError as exc:
        raise ExperimentError(f"{path}: not valid TOML: {exc}") from None
    return build(raw, source=str(path), default_name=path.stem, base=path.parent)


def build(
    raw: Mapping[str, Any], *, source: str, default_name: str = "lab", base: Path | None = None
) -> Experiment:
    """Check a parsed experiment (TOML or flags) and build it; `base` resolves relative mod
    folders."""

    def fail(where: str, problem: str) -> ExperimentError:
        return ExperimentError(f"{source}: {where}: {problem}")

    allowed = {"name", "kind", "seeds", "first_seed", "fixed", "axes"}
    for key in raw:
        if key not in allowed:
            raise fail(key, f"unknown key (allowed: {', '.join(sorted(allowed))})")
    kind = raw.get("kind", "battle")
    if kind not in KINDS:
        raise fail("kind", f"{kind!r} is not one of: {', '.join(KINDS)}")
    seeds = _whole(raw.get("seeds", 10), fail, "seeds", 1, MAX_SEEDS)
    first = _whole(raw.get("first_seed", 1), fail, "first_seed", 0, 2**62)
    name = raw.get("name", default_name)
    if not isinstance(name, str) or not name.strip():
        raise fail("name", "must be a non-empty text")
    fixed_raw = raw.get("fixed", {})
    axes_raw = raw.get("axes", {})
    for key, table in (("fixed", fixed_raw), ("axes", axes_raw)):
        if not isinstance(table, Mapping):
            raise fail(key, "must be a table")
    fixed = {k: _value(kind, k, v, fail, f"fixed.{k}", base) for k, v in fixed_raw.items()}
    axes: list[tuple[str, tuple[Any, ...]]] = []
    for k, values in axes_raw.items():
        if not isinstance(values, list) or not values:
            raise fail(f"axes.{k}", "must be a non-empty list of values")
        if k in fixed:
            raise fail(f"axes.{k}", "is also in [fixed]: give it in one place")
        checked = tuple(
            _value(kind, k, v, fail, f"axes.{k}, item {i + 1}", base) for i, v in enumerate(values)
        )
        if len(set(map(repr, checked))) != len(checked):
            raise fail(f"axes.{k}", "lists a value twice")
        axes.append((k, checked))
    experiment = Experiment(name.strip(), kind, seeds, first, fixed, tuple(axes), source)
    for config in experiment.cells():
        problem = _cell_problem(kind, config)
        if problem:
            where = ", ".join(f"{k}={v!r}" for k, v in experiment.cell_label(config))
            raise fail(f"cell {where or '(the only one)'}", problem)
    return experiment


def _whole(value: object, fail: Any, where: str, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise fail(where, f"expected a whole number, found {value!r}")
    if not lo <= value <= hi:
        raise fail(where, f"must be {lo} to {hi}, not {value}")
    return value


def _value(kind: str, key: str, value: object, fail: Any, where: str, base: Path | None) -> Any:
    if key not in AXES[kind]:
        raise fail(where, f"a {kind} has no {key!r} (it takes: {', '.join(AXES[kind])})")
    if key in INT_AXES:
        return _whole(value, fail, where, 0, 10_000)
    if not isinstance(value, str):
        raise fail(where, f"expected text, found {value!r}")
    if key == "rules":
        return _rules(value, fail, where)
    if key == "data" and value:
        path = Path(value).expanduser()
        if base is not None and not path.is_absolute():
            path = base / path
        return str(path.resolve())
    return value.strip()


def _rules(value: str, fail: Any, where: str) -> str:
    """A ruleset value in its one written form (`O2,O3`; "" for the core game): `o3 o2`,
    `O2+O3` and `core` are accepted too, so the same ruleset is always the same run."""
    try:
        return format_ruleset(parse_ruleset(value.replace("+", " ")))
    except RulesetError as exc:
        raise fail(where, f"rules {value!r}: {exc}") from None


def _cell_problem(kind: str, config: Mapping[str, Any]) -> str | None:
    """Why a cell's config cannot run (policies, chassis, sizes, mods, strategies), or None."""
    try:
        with catalog_for(str(config["data"])):
            check_config(kind, config)
    except DataError as exc:
        return f"the mod is broken: {exc}"
    except (SpecError, ValueError) as exc:
        return str(exc)
    return None


def from_flags(
    *,
    kind: str,
    name: str,
    seeds: int,
    first_seed: int,
    settings: Sequence[str],
    axes: Sequence[str],
    data: Sequence[str],
) -> Experiment:
    """An experiment from `--set KEY=VALUE`, `--axis KEY=V1,V2` and `--data DIR` flags
    (`--data` adds a `data` axis: the base game and each mod, side by side)."""
    raw: dict[str, Any] = {"name": name, "kind": kind, "seeds": seeds, "first_seed": first_seed}
    raw["fixed"] = dict(_pair(s, "--set") for s in settings)
    raw["axes"] = {k: v.split(",") for k, v in (_pair(a, "--axis") for a in axes)}
    for table in ("fixed", "axes"):
        for k, v in raw[table].items():
            if k in INT_AXES:
                raw[table][k] = _ints(v, f"--{'set' if table == 'fixed' else 'axis'} {k}")
    if data:
        raw["axes"]["data"] = ["", *data]
    return build(raw, source="flags", default_name=name, base=Path.cwd())


def _pair(text: str, flag: str) -> tuple[str, str]:
    key, eq, value = text.partition("=")
    if not eq or not key.strip():
        raise ExperimentError(f"{flag} takes KEY=VALUE, not {text!r}")
    return key.strip(), value.strip()


def _ints(value: str | list[str], flag: str) -> int | list[int]:
    try:
        if isinstance(value, list):
            return [int(v) for v in value]
        return int(value)
    except ValueError:
        raise ExperimentError(f"{flag}: expected whole numbers, found {value!r}") from None


def with_seeds(experiment: Experiment, seeds: int | None) -> Experiment:
    """The experiment with more (or fewer) seeds per cell: extending a sweep."""
    if seeds is None:
        return experiment
    if not 1 <= seeds <= MAX_SEEDS:
        raise ExperimentError(f"--seeds must be 1 to {MAX_SEEDS}, not {seeds}")
    return evolve(experiment, seeds=seeds)


def from_json(doc: Mapping[str, Any]) -> Experiment:
    """An experiment as the store keeps it (`Experiment.to_json`)."""
    return build(doc, source=f"stored experiment {doc.get('name')!r}")
