"""Optional module O3: the Smoke Launcher and smoke (O3.10, O3.11, O3.12).

* `check_smoke` — why a frame may not lay smoke on a hex now (R11's 1 AP and energy are checked
  by `actions.check_equipment`, which calls this for an item whose effect is `smoke`).
* `lay_smoke` — the cloud: the target hex and its on-map neighbours within the radius, each
  with the launcher's rounds; where clouds overlap the higher counter stays.
* `countdown` — round step 5a (O0.10): every counter falls by 1; smoke at 0 is removed.

The `smoke` modifier itself (-10 per smoke hex on a line, both ends counted) is
`attack.smoke_modifier`, with the other entries of the hit chance.
"""

from __future__ import annotations

import attrs
from attrs import frozen

from ..catalog import catalog
from ..catalog.records import Equipment
from ..core import Event
from ..hexgrid import Hex, distance, within
from .events import BattleChange
from .features import Smoke
from .state import Battle, Unit

__all__ = ["SmokeCleared", "SmokeLaid", "charges_left", "check_smoke", "countdown", "lay_smoke"]


@frozen
class SmokeLaid(Event):
    """O3.10: `unit` smoked `hex`; `hexes` the cloud's hexes, each at `rounds`."""

    unit: str
    hex: Hex
    hexes: tuple[Hex, ...]
    rounds: int
    charges_left: int

    def describe(self) -> str:
        return (
            f"{self.unit} lays smoke at {self.hex.q},{self.hex.r}: {len(self.hexes)} hexes "
            f"for {self.rounds} rounds ({self.charges_left} charge(s) left)"
        )


@frozen
class SmokeCleared(Event):
    """O3.11: the smoke on these hexes reached 0 in step 5a and is gone."""

    hexes: tuple[Hex, ...]

    def describe(self) -> str:
        shown = ", ".join(f"hex {h.q},{h.r}" for h in self.hexes)
        return f"The smoke clears: {shown}"


def charges_left(unit: Unit) -> int:
    """O3.10: a Smoke Launcher's charges left this battle (tracked like ammo; Ammo Bins add
    none); 0 for a frame without a working launcher."""
    launcher = catalog().structures.smoke.launcher
    if not unit.has_equipment(launcher):
        return 0
    return max(0, catalog().structures.smoke.charges - unit.smoke_used)


def check_smoke(battle: Battle, unit: Unit, item: Equipment, h: Hex | None) -> str | None:
    """O3.10: a hex within the launcher's range (no line of sight needed: lobbed), a charge
    left, and O3 on."""
    if not battle.rule("O3"):
        return f"{item.name} belongs to optional module O3, which is off"
    if h is None:
        return f"{item.name} needs a hex to smoke"
    if not battle.map.contains(h):
        return f"hex {h.q},{h.r} is off the map"
    assert unit.pos is not None
    if distance(unit.pos, h) > item.range:
        return f"{item.name} reaches {item.range} hexes"
    if charges_left(unit) <= 0:
        return f"{item.name} has no charge left"
    return None


def lay_smoke(battle: Battle, unit: Unit, item: Equipment, h: Hex) -> BattleChange:
    """O3.10: the cloud on `h` and its on-map neighbours, counter `item.value`; overlapping
    clouds keep the higher counter (O3.11). Spends a charge."""
    rules = catalog().structures.smoke
    cloud = tuple(x for x in within(h, rules.radius) if battle.map.contains(x))
    kept = {s.hex: s.rounds for s in battle.smoke}
    for x in cloud:
        kept[x] = max(kept.get(x, 0), item.value)
    smoke = tuple(
        Smoke(hex=x, rounds=n) for x, n in sorted(kept.items(), key=lambda p: (p[0].r, p[0].q))
    )
    user = attrs.evolve(battle.unit(unit.id), smoke_used=unit.smoke_used + 1)
    battle = attrs.evolve(battle.with_unit(user), smoke=smoke)
    left = charges_left(user)
    ordered = tuple(sorted(cloud, key=lambda x: (x.r, x.q)))
    return battle, [
        SmokeLaid(unit=unit.id, hex=h, hexes=ordered, rounds=item.value, charges_left=left)
    ]


def countdown(battle: Battle) -> BattleChange:
    """O3.11, step 5a: every smoke counter falls by 1; smoke at 0 is removed."""
    left = tuple(attrs.evolve(s, rounds=s.rounds - 1) for s in battle.smoke)
    gone = tuple(s.hex for s in left if s.rounds <= 0)
    battle = attrs.evolve(battle, smoke=tuple(s for s in left if s.rounds > 0))
    return battle, ([SmokeCleared(hexes=gone)] if gone else [])
