"""Optional module O5, movement and fire (optional-rules.md O5.1-O5.6): the hexes a frame moved
(`Unit.moved_hexes`) and the hit-chance entries they cost, `moving` and `fast target`.

One field serves every use: `Unit.moved_hexes` counts the hexes a frame entered by its own Move,
Sprint and reverse steps plus each jump's hex distance in its current activation (O5.1; pivots,
turns and falls never count), and is set to 0 when its next activation starts, so between its
activations it holds the last activation's total. That is the shooter's n so far (O5.1), the
deferred n of overwatch and reaction fire (O5.4: every hex of the activation that declared it),
the target's m (O5.5) and a kick's H (O7.3). It is counted only while O5 or O7 is on, so the core
game's states never change (O0.2). Every number comes from `data/moving_fire.toml`; nothing here
draws.
"""

from __future__ import annotations

from typing import Final

import attrs

from ..catalog import catalog
from .state import Battle, Unit

__all__ = [
    "FAST_TARGET",
    "MOVING",
    "count_move",
    "counts_moves",
    "entries",
    "fast_target_penalty",
    "moving_penalty",
    "on",
    "stabilised",
]

#: The entry names of O5.8.
MOVING: Final = "moving"
FAST_TARGET: Final = "fast target"
#: The equipment effect of the Gyro Stabilizer (CORE §7.7.3), the one stabilisation (O5.3).
_STABILIZER: Final = "evasion_reduction"

#: An entry as (name, value, detail); `attack` makes a `Modifier` of it.
Entry = tuple[str, int, str]


def on(battle: Battle) -> bool:
    """O5 is switched on in this battle."""
    return battle.rule("O5")


def counts_moves(battle: Battle) -> bool:
    """Whether `Unit.moved_hexes` is kept: O5 (O5.1) or O7 (O7.3's H) is on."""
    return battle.rule("O5") or battle.rule("O7")


def count_move(battle: Battle, unit: Unit, hexes: int) -> Unit:
    """`unit` having entered `hexes` more hexes by its own step or jump this activation (O5.1);
    `unit` itself while neither O5 nor O7 is on."""
    if not hexes or not counts_moves(battle):
        return unit
    return attrs.evolve(unit, moved_hexes=unit.moved_hexes + hexes)


def stabilised(unit: Unit) -> bool:
    """O5.3: the frame carries a working Gyro Stabilizer (the item intact, no Gyro Hit)."""
    return not unit.gyro_hit and any(
        not e.destroyed and catalog().equipment[e.equipment].effect == _STABILIZER
        for e in unit.equipment
    )


def moving_penalty(hexes: int, stable: bool) -> int:
    """O5.2-O5.3: the (negative or 0) `moving` value of a shooter that moved `hexes` hexes."""
    if hexes < 1:
        return 0
    data = catalog().moving_fire
    if stable:
        return -data.stabilised.per_step * (hexes // data.stabilised.hexes)
    return -data.moving.base - data.moving.per_hex * hexes


def fast_target_penalty(hexes: int) -> int:
    """O5.5: the (negative or 0) `fast target` value of a target that moved `hexes` hexes."""
    fast = catalog().moving_fire.fast_target
    if hexes < fast.from_hexes:
        return 0
    return -fast.base - fast.per_step * ((hexes - fast.from_hexes) // fast.hexes)


def _hexes(n: int) -> str:
    return f"{n} hex" if n == 1 else f"{n} hexes"


def moving_entry(battle: Battle, attacker: Unit) -> list[Entry]:
    """O5.2-O5.4: the shooter's `moving` entry (n = `attacker.moved_hexes`: so far in its own
    activation, all of its last one for overwatch and reaction fire), if any."""
    if not on(battle):
        return []
    stable = stabilised(attacker)
    value = moving_penalty(attacker.moved_hexes, stable)
    if not value:
        return []
    detail = _hexes(attacker.moved_hexes) + (", stabilised" if stable else "")
    return [(MOVING, value, detail)]


def entries(battle: Battle, attacker: Unit, target: Unit | None) -> list[Entry]:
    """O5.6: the O5 entries of a weapon attack, in O0.4 order: `moving` (O5.2-O5.4), then
    `fast target` (O5.5; none for a structure, `target` None). None while O5 is off."""
    if not on(battle):
        return []
    out = moving_entry(battle, attacker)
    if target is not None:
        value = fast_target_penalty(target.moved_hexes)
        if value:
            out.append((FAST_TARGET, value, _hexes(target.moved_hexes)))
    return out
