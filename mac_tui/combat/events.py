"""Battle events: plain frozen records, one JSON line each in the battle log.

Attack and damage records come from `attack.py`/`damage.py`; the events here tell the flow.
"""

from __future__ import annotations

from typing import Any

from attrs import frozen

from ..game import Event
from ..hexgrid import Hex


@frozen
class Deployed(Event):
    unit: str
    hex: Hex | None


@frozen
class BattleStarted(Event):
    round: int


@frozen
class RoundStarted(Event):
    round: int
    order: tuple[str, ...]


@frozen
class ActivationStarted(Event):
    unit: str
    ap: int
    energy: int


@frozen
class Moved(Event):
    unit: str
    mode: str  # move | sprint | jump
    path: tuple[Hex, ...]
    energy: int
    pullback: bool


@frozen
class WeaponSkipped(Event):
    unit: str
    weapon: str
    reason: str


@frozen
class Attacked(Event):
    """One weapon's shot: the whole `AttackResult` (see attack.py) as data."""

    result: Any

    def describe(self) -> str:
        text: str = self.result.describe()
        return text


@frozen
class GroupFired(Event):
    unit: str
    group: int
    target: str
    called: str | None
    energy: int
    overwatch: bool


@frozen
class Braced(Event):
    unit: str


@frozen
class OverwatchSet(Event):
    unit: str
    group: int


@frozen
class Vented(Event):
    unit: str
    amount: int
    stress: int


@frozen
class EquipmentUsed(Event):
    unit: str
    equipment: str
    target: str | None
    hex: Hex | None
    energy: int


@frozen
class ActivationEnded(Event):
    unit: str


@frozen
class StressChanged(Event):
    """End of round (§5.3-§5.4): overload stress, dissipation, restarts and shutdown checks."""

    unit: str
    overload: int
    dissipated: int
    stress: int
    restarted: bool
    shutdown_roll: int | None
    shutdown: bool
    reactor_hit: bool


@frozen
class SideWithdrew(Event):
    side: str
    rule: str


@frozen
class BattleEnded(Event):
    result: str
    reason: str
    round: int
