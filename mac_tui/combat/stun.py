"""Optional module O7, stun (optional-rules.md O7.5-O7.7): the `stunned` and `dazed` entries,
the structure-loss threshold and how long each state lasts.

A frame's state is `Unit.stun` ("" / "stunned" / "dazed") with `Unit.stun_running`: whether
the activation that ends the state has begun. A stun that lands sets "stunned" with the flag
off; the frame's next activation start turns it on and that activation's end eases it to
"dazed" (flag off again); the activation after ends the daze (O7.6: "to the end of the frame's
first activation that starts after the stun", so the rest of the current activation too when it
lands during the frame's own; a round spent shut down counts as an activation). A Stunned or
Dazed frame is never stunned again (`stun`). O7.7's counter is the frame's structure at the
round's phase 1 (`Unit.round_structure`) less its structure now. Every number comes from
`data/kicks.toml`; nothing here draws, and with O7 off nothing here changes a state.
"""

from __future__ import annotations

from typing import Final, Literal

import attrs
from attrs import frozen

from ..catalog import catalog
from ..core import Event
from .state import Battle, Unit
from .stats import chassis_of, full_structure

__all__ = [
    "DAZED",
    "STUNNED",
    "StunEased",
    "StunEnded",
    "Stunned",
    "activation_ended",
    "activation_started",
    "check_threshold",
    "entries",
    "on",
    "round_started",
    "structure_lost",
    "stun",
    "threshold",
]

STUNNED: Final = "stunned"
DAZED: Final = "dazed"
Cause = Literal["kick", "threshold"]

#: An entry as (name, value, detail); `attack` makes a `Modifier` of it.
Entry = tuple[str, int, str]


@frozen
class Stunned(Event):
    """O7.8: `unit` is Stunned by a kick or by losing `lost` structure this round (at least
    `threshold`, O7.7; for a kick, the round's loss so far)."""

    unit: str
    cause: str
    lost: int
    threshold: int

    def describe(self) -> str:
        if self.cause == "kick":
            return f"{self.unit} is STUNNED by the kick"
        return (
            f"{self.unit} is STUNNED: {self.lost} structure lost this round "
            f"(threshold {self.threshold})"
        )


@frozen
class StunEased(Event):
    """O7.8: `unit` goes from Stunned to Dazed."""

    unit: str

    def describe(self) -> str:
        return f"{self.unit} shakes off the stun: dazed for one more activation"


@frozen
class StunEnded(Event):
    """O7.8: `unit` is no longer Dazed."""

    unit: str

    def describe(self) -> str:
        return f"{self.unit} is no longer dazed"


def on(battle: Battle) -> bool:
    """O7 is switched on in this battle."""
    return battle.rule("O7")


def entries(attacker: Unit) -> list[Entry]:
    """O7.6: `stunned` (-50) or `dazed` (-20) on every attack roll of a Stunned or Dazed frame
    (`Unit.stun` is "" while O7 is off)."""
    if not attacker.stun:
        return []
    rule = catalog().kicks.stun
    value = rule.stunned if attacker.stun == STUNNED else rule.dazed
    return [(attacker.stun, -value, attacker.label)]


def threshold(unit: Unit) -> int:
    """O7.7: ceil(S / 4), S the chassis' total undamaged structure (SC-20 27 -> 7)."""
    total = sum(full_structure(chassis_of(unit)))
    return -(-total // catalog().kicks.threshold.divisor)


def structure_lost(unit: Unit) -> int:
    """O7.7: the structure `unit` has lost this round (after Reactive Armor, any source)."""
    return max(0, unit.round_structure - unit.total_structure)


def stun(battle: Battle, unit_id: str, cause: Cause) -> tuple[Battle, list[Event]]:
    """O7.5-O7.6: Stun the frame, unless it is Stunned or Dazed already (never stacks), out of
    the fight, or O7 is off."""
    unit = battle.unit(unit_id)
    if not on(battle) or unit.stun or not unit.active:
        return battle, []
    stunned = attrs.evolve(unit, stun=STUNNED, stun_running=False)
    event = Stunned(unit=unit.id, cause=cause, lost=structure_lost(unit), threshold=threshold(unit))
    return battle.with_unit(stunned), [event]


def check_threshold(battle: Battle) -> tuple[Battle, list[Event]]:
    """O7.7: Stun every frame whose structure loss this round has reached its threshold (in
    unit order); run after every action and every step of the round's close."""
    if not on(battle):
        return battle, []
    events: list[Event] = []
    for unit in battle.units:
        if unit.active and not unit.stun and structure_lost(unit) >= threshold(unit):
            battle, more = stun(battle, unit.id, "threshold")
            events += more
    return battle, events


def round_started(battle: Battle, unit: Unit) -> Unit:
    """Phase 1 (O0.10): the O7.7 counter starts again (`unit` unchanged while O7 is off)."""
    if not on(battle):
        return unit
    return attrs.evolve(unit, round_structure=unit.total_structure)


def activation_started(unit: Unit) -> Unit:
    """The frame's activation begins: it runs the clock of its Stunned or Dazed state."""
    if unit.stun and not unit.stun_running:
        return attrs.evolve(unit, stun_running=True)
    return unit


def activation_ended(battle: Battle, unit_id: str) -> tuple[Battle, list[Event]]:
    """The frame's activation is over (or a round it spent shut down, O7.6): a Stunned state
    whose activation ran eases to Dazed, a Dazed one ends."""
    unit = battle.unit(unit_id)
    if not unit.stun or not unit.stun_running:
        return battle, []
    if unit.stun == STUNNED:
        dazed = attrs.evolve(unit, stun=DAZED, stun_running=False)
        return battle.with_unit(dazed), [StunEased(unit=unit.id)]
    clear = attrs.evolve(unit, stun="", stun_running=False)
    return battle.with_unit(clear), [StunEnded(unit=unit.id)]
