"""Lines of sight and fire (§3.6, R29, G5) with the optional modules' layers (O2.6, O3.2,
O3.11): the hexes a line crosses, their penalties, what blocks it. Shared by the hit chance
(`attack.py`, which re-exports these names) and O8's sight (`detection.py`), so that sight and
fire trace the very same line.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable, Sequence
from typing import Final

import attrs
from attrs import frozen

from ..catalog import catalog
from ..hexgrid import Hex, line_steps
from ..stored import optional_field
from . import elevation, track
from .features import Section, Smoke, kind_of, section_at, smoke_at
from .mapgen import BattleMap
from .state import Battle

__all__ = [
    "LosHex",
    "battle_line",
    "blocked",
    "blocks",
    "intervening",
    "line_of_sight",
    "los_penalty",
]


@frozen
class LosHex:
    """One intervening hex of a line of fire and its §3.6 penalty. `beside` is the other hex
    where the line runs exactly along the edge between two (R29: both lie on the line, this
    one counts: it is the worse for the shooter), else None."""

    hex: Hex
    terrain: str
    penalty: int
    beside: Hex | None = None
    # O3: the feature on the hex (its penalty is in `penalty`), whether it blocks the line
    # (O3.2; O2.6: the height line), whether smoke lies on it (O3.11); O2.9: the step's
    # height (the higher of two, G5); left out of logs at their defaults
    feature: str | None = optional_field(None)
    blocks: bool = optional_field(False)
    smoke: bool = optional_field(False)
    height: int | None = optional_field(None)


def blocks(battle_map: BattleMap, h: Hex) -> bool:
    """R29's second test on the core map, where nothing blocks a line. The optional rules block
    lines with their own layers: O2's height line (`elevation.height_line`, the higher of two
    hexes counting, G5) and O3's features (`battle_line`, the blocking hex counting)."""
    return False


#: Lines of sight already traced, per map (by identity, dropped with the map).
_LOS_CACHE: dict[int, tuple[weakref.ref[BattleMap], dict[tuple[Hex, Hex], tuple[LosHex, ...]]]] = {}


def line_of_sight(battle_map: BattleMap, a: Hex, b: Hex) -> tuple[LosHex, ...]:
    """§3.6: every intervening hex from ``a`` to ``b`` (ends excluded), with its penalty.

    R29: where the line runs exactly along the edge between two hexes, both lie on the line
    and the one worse for the shooter counts: the higher LOS penalty, then the one that
    blocks (`blocks`), then the first in ``(q, r)`` order; so the line of sight from ``b`` to
    ``a`` is this one reversed (`hexgrid.line_steps`). D21: a hex beyond the map's ragged
    odd-r edge has no terrain and is left out. Each map remembers the lines traced on it (the
    forecasts and the AI ask for the same lines many times).
    """
    key = id(battle_map)
    entry = _LOS_CACHE.get(key)
    if entry is None or entry[0]() is not battle_map:
        entry = (weakref.ref(battle_map, _forget(key)), {})
        _LOS_CACHE[key] = entry
    lines = entry[1]
    found = lines.get((a, b))
    if found is None:
        found = _trace(battle_map, a, b)
        lines[(a, b)] = found
    return found


def _forget(key: int) -> Callable[[weakref.ref[BattleMap]], None]:
    def drop(ref: weakref.ref[BattleMap]) -> None:
        entry = _LOS_CACHE.get(key)
        if entry is not None and entry[0] is ref:
            del _LOS_CACHE[key]

    return drop


def _trace(
    battle_map: BattleMap,
    a: Hex,
    b: Hex,
    structures: tuple[Section, ...] = (),
    smoke: tuple[Smoke, ...] = (),
    levels: bool = False,
) -> tuple[LosHex, ...]:
    terrain = catalog().terrain
    out: list[LosHex] = []
    layered = bool(structures or smoke)
    per_smoke = catalog().structures.smoke.penalty if smoke else 0
    for step in line_steps(a, b)[1:-1]:
        found = [
            LosHex(h, battle_map.terrain_at(h), terrain[battle_map.terrain_at(h)].los_penalty)
            for h in step
            if battle_map.contains(h)
        ]
        if not found:
            continue
        if layered:
            found = [_layered(lh, structures, smoke, levels) for lh in found]
            worst = max(found, key=lambda lh: (bool(lh.blocks), lh.penalty + per_smoke * lh.smoke))
        else:
            worst = max(found, key=lambda lh: (lh.penalty, blocks(battle_map, lh.hex)))
        if len(found) == 2:
            other = found[1] if worst is found[0] else found[0]
            worst = attrs.evolve(worst, beside=other.hex)
        out.append(worst)
    return tuple(out)


def intervening(battle: Battle, a: Hex, b: Hex) -> tuple[LosHex, ...]:
    """The intervening hexes of an attack's line for its record: with O2 on each with its
    step's height and whether it blocks (O2.9); none on the track (O1.6)."""
    if track.on(battle):
        return ()
    los = battle_line(battle, a, b)
    steps = elevation.height_line(battle, a, b)
    if not steps:
        return los
    by_hex = {h: s for s in steps for h in s.hexes}
    return tuple(
        attrs.evolve(lh, height=by_hex[lh.hex].height, blocks=lh.blocks or by_hex[lh.hex].blocks)
        for lh in los
    )


def los_penalty(battle_map: BattleMap, a: Hex, b: Hex) -> int:
    """§3.6, R29: the LOS penalty from ``a`` to ``b`` (the same from ``b`` to ``a``)."""
    return sum(lh.penalty for lh in line_of_sight(battle_map, a, b))


#: O3: lines traced over a map with its features and smoke: (map, structures, smoke, lines),
#: the last few combinations (compared by identity: a battle keeps these objects from state to
#: state until a section or the smoke changes).
_Lines = dict[tuple[Hex, Hex], tuple[LosHex, ...]]
_LAYER_LINES: list[tuple[BattleMap, tuple[Section, ...], tuple[Smoke, ...], bool, _Lines]] = []
_LAYERS_KEPT: Final = 8


def battle_line(battle: Battle, a: Hex, b: Hex) -> tuple[LosHex, ...]:
    """`line_of_sight` with the battle's O3 features and smoke: a feature adds its LOS penalty
    to its hex (O3.2), a building or prop blocks (O3.2, O2 off), and where the line runs along
    an edge the hex worse for the shooter counts: one that blocks, then the higher penalty,
    smoke included (R29, G5). Without features or smoke, exactly `line_of_sight`."""
    bmap, structures, smoke = battle.map, battle.structures, battle.smoke
    if not structures and not smoke:
        return line_of_sight(bmap, a, b)
    levels = elevation.on(battle)  # with O2 on, the height line decides what blocks
    lines = next(
        (
            ls
            for m, st, sm, lv, ls in _LAYER_LINES
            if m is bmap and st is structures and sm is smoke and lv == levels
        ),
        None,
    )
    if lines is None:
        lines = {}
        _LAYER_LINES.insert(0, (bmap, structures, smoke, levels, lines))
        del _LAYER_LINES[_LAYERS_KEPT:]
    found = lines.get((a, b))
    if found is None:
        found = lines[(a, b)] = _trace(bmap, a, b, structures, smoke, levels)
    return found


def _layered(
    lh: LosHex, structures: tuple[Section, ...], smoke: tuple[Smoke, ...], levels: bool
) -> LosHex:
    """A terrain line's hex with its O3 feature and smoke (a building or prop blocks only with
    O2 off: with O2 on its height is in the height line)."""
    section = section_at(structures, lh.hex)
    smoked = smoke_at(smoke, lh.hex) > 0
    if section is None:
        return attrs.evolve(lh, smoke=True) if smoked else lh
    kind = kind_of(section)
    return attrs.evolve(
        lh,
        feature=section.feature,
        penalty=lh.penalty + kind.los_penalty,
        blocks=kind.los == "block" and not levels,
        smoke=smoked,
    )


def blocked(line: Sequence[LosHex]) -> LosHex | None:
    """O3.2: the first hex of a line that blocks it, or None."""
    return next((lh for lh in line if lh.blocks), None)
