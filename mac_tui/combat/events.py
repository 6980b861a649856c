"""Battle events: plain frozen records, one JSON line each in the battle log.

Attack and damage records come from `attack.py`/`damage.py`; the events here tell the flow.
"""

from __future__ import annotations

from typing import Any

from attrs import frozen

from ..core import Event
from ..hexgrid import Hex
from ..stored import optional_field
from .state import Battle

#: The facings' names, in `hexgrid.DIRECTIONS` order (O4, `combat.facing`).
FACING_NAMES = ("E", "NE", "NW", "W", "SW", "SE")
#: The same names for any direction (O0.9 G1: an O6 cone's, `combat.reaction`).
DIRECTION_NAMES: tuple[str, ...] = FACING_NAMES


def _facing_words(facing: int | None) -> str:
    """`, facing NE` (O4), or nothing with O4 off."""
    return "" if facing is None else f", facing {FACING_NAMES[facing % 6]}"


#: A battle after an action, with the events that explain it.
BattleChange = tuple[Battle, list[Event]]


@frozen
class Deployed(Event):
    unit: str
    hex: Hex | None
    facing: int | None = optional_field(None)  # O4.1: the facing it is placed with

    def describe(self) -> str:
        if self.hex is None:
            return f"{self.unit} is taken off the map"
        return f"{self.unit} deploys at {self.hex.q},{self.hex.r}{_facing_words(self.facing)}"


@frozen
class BattleStarted(Event):
    round: int

    def describe(self) -> str:
        return "The battle begins"


@frozen
class RoundStarted(Event):
    round: int
    order: tuple[str, ...]
    # O10.8: each frame's side, in `order`'s order (with O10 on only)
    sides: tuple[str, ...] = optional_field(())

    def describe(self) -> str:
        if self.sides:
            shown = " ".join(f"{u}({s})" for u, s in zip(self.order, self.sides, strict=True))
            return f"Round {self.round} · initiative {shown}"
        return f"Round {self.round} · initiative {' '.join(self.order)}"


@frozen
class ActivationStarted(Event):
    unit: str
    ap: int
    energy: int

    def describe(self) -> str:
        return f"{self.unit} acts: {self.ap} AP, {self.energy} energy"


@frozen
class Moved(Event):
    unit: str
    mode: str  # move | sprint | jump
    path: tuple[Hex, ...]
    energy: int
    pullback: bool
    # O1.11: the track positions it left and reached (the log's `from`/`to`); None on a map
    start: int | None = optional_field(None)
    end: int | None = optional_field(None)
    facing: int | None = optional_field(None)  # O4.2-O4.4: the facing it ends with
    reverse: bool = optional_field(False)  # O4.3: a reverse Move

    def describe(self) -> str:
        if self.start is not None and self.end is not None:  # O1: the track
            words = {"move": "moves", "sprint": "sprints", "jump": "thrusts"}
            how = words.get(self.mode, self.mode)
            back = ", pulling back" if self.pullback else ""
            return (
                f"{self.unit} {how} from position {self.start} to {self.end} "
                f"({self.energy} energy{back})"
            )
        end = self.path[-1]
        how = {"move": "moves", "sprint": "sprints", "jump": "jumps"}.get(self.mode, self.mode)
        if self.reverse:
            how = "backs up"
        back = ", pulling back" if self.pullback else ""
        return (
            f"{self.unit} {how} {len(self.path) - 1} hex(es) to {end.q},{end.r}"
            f"{_facing_words(self.facing)} ({self.energy} energy{back})"
        )


@frozen
class Held(Event):
    """O1.4: the frame Holds, ending its activation in place (0 AP, 0 energy)."""

    unit: str
    position: int

    def describe(self) -> str:
        return f"{self.unit} holds at position {self.position}"


@frozen
class WeaponSkipped(Event):
    unit: str
    weapon: str
    reason: str

    def describe(self) -> str:
        return f"{self.unit}: {self.weapon} holds fire ({self.reason})"


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
    reaction: bool = optional_field(False)  # O6.3: a triggered cone's shots
    sweep: bool = optional_field(False)  # O6.6: a sweep's shots

    def describe(self) -> str:
        how = "overwatch fire" if self.overwatch else "fires"
        if self.reaction or self.sweep:
            how = "reaction fire" if self.reaction else "sweep fire"
        called = f" (called shot: {self.called})" if self.called else ""
        return f"{self.unit} {how} group {self.group} at {self.target}{called}"


@frozen
class Braced(Event):
    unit: str

    def describe(self) -> str:
        return f"{self.unit} braces"


@frozen
class OverwatchSet(Event):
    unit: str
    group: int

    def describe(self) -> str:
        return f"{self.unit} goes on overwatch with group {self.group}"


@frozen
class ReactionArmed(Event):
    """O6.2: `unit` armed a cone of `group` centred on `direction` (0 E ... 5 SE)."""

    unit: str
    group: int
    direction: int

    def describe(self) -> str:
        way = DIRECTION_NAMES[self.direction % 6]
        return f"{self.unit} arms reaction fire with group {self.group}, cone {way}"


@frozen
class ReactionTriggered(Event):
    """O6.3: `mover` stepped into `hex`, in the armed cone of `unit`, which fires now."""

    unit: str
    mover: str
    hex: Hex

    def describe(self) -> str:
        return f"{self.mover} enters {self.unit}'s cone at {self.hex.q},{self.hex.r}: reaction!"


@frozen
class ReactionExpired(Event):
    """O6.2: `unit`'s armed cone lapsed unfired: its next activation started (`why`
    "activation") or it shut down ("shutdown")."""

    unit: str
    group: int
    why: str

    def describe(self) -> str:
        cause = "it shut down" if self.why == "shutdown" else "its activation began"
        return f"{self.unit}'s reaction cone (group {self.group}) lapses unfired: {cause}"


@frozen
class SweepArmed(Event):
    """O6.6: `unit` sweeps with `group` during the Move it makes next."""

    unit: str
    group: int

    def describe(self) -> str:
        return f"{self.unit} sweeps with group {self.group} as it moves"


@frozen
class Vented(Event):
    unit: str
    amount: int
    stress: int

    def describe(self) -> str:
        return f"{self.unit} vents {self.amount} stress (now {self.stress})"


@frozen
class EquipmentUsed(Event):
    unit: str
    equipment: str
    target: str | None
    hex: Hex | None
    energy: int

    def describe(self) -> str:
        on = f" on {self.target}" if self.target else ""
        at = f" to {self.hex.q},{self.hex.r}" if self.hex else ""
        return f"{self.unit} uses {self.equipment}{on}{at} ({self.energy} energy)"


@frozen
class ActivationEnded(Event):
    unit: str
    # O5.8: the hexes the frame moved in the activation (`Unit.moved_hexes`); O5 only
    hexes_moved: int | None = optional_field(None)

    def describe(self) -> str:
        if self.hexes_moved:
            return f"{self.unit} ends its activation ({self.hexes_moved} hexes moved)"
        return f"{self.unit} ends its activation"


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

    def describe(self) -> str:
        parts = []
        if self.overload:
            parts.append(f"+{self.overload} overload")
        if self.dissipated:
            parts.append(f"-{self.dissipated} dissipated")
        if self.restarted:
            parts.append("restarts, stress halved")
        if self.shutdown_roll is not None:
            parts.append(f"shutdown roll {self.shutdown_roll}")
        if self.shutdown:
            parts.append("SHUTS DOWN" + (" with a reactor hit" if self.reactor_hit else ""))
        return f"{self.unit} reactor: {', '.join(parts)}; stress {self.stress}"


@frozen
class SideWithdrew(Event):
    side: str
    rule: str

    def describe(self) -> str:
        return f"The {self.side} side withdraws ({self.rule.replace('_', ' ')})"


@frozen
class Stalemate(Event):
    """R30: no frame can move and none has an enemy in range; `frames` holds, per frame on the
    field, its id, its longest weapon's maximum range and the distance to its nearest enemy."""

    round: int
    frames: tuple[tuple[str, int, int], ...]

    def describe(self) -> str:
        shown = ", ".join(f"{u} reach {r}, nearest enemy {n}" for u, r, n in self.frames)
        return f"Stalemate: no frame can move or reach an enemy ({shown})"


@frozen
class BattleEnded(Event):
    result: str
    reason: str
    round: int

    def describe(self) -> str:
        return f"Battle over after round {self.round}: {self.result.upper()} ({self.reason})"
