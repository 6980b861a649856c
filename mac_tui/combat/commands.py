"""The battle commands (§2, §6.3, R11, R14), each with its one-line text form.

The active frame is implied: battle commands act for `battle.active_unit`. Deployment commands
name the frame they place.
"""

from __future__ import annotations

from attrs import frozen

from ..core import Command
from ..hexgrid import Hex


@frozen
class Deploy(Command):
    """§6.3: place (or re-place) one of the player's frames in the deployment zone."""

    verb = "deploy"
    unit: str
    hex: Hex


@frozen
class ResetDeployment(Command):
    verb = "reset-deployment"


@frozen
class AutoDeploy(Command):
    """Place every unplaced player frame on the free deployment hexes, front column first."""

    verb = "auto-deploy"


@frozen
class StartBattle(Command):
    verb = "start-battle"


@frozen
class Move(Command):
    verb = "move"
    hex: Hex


@frozen
class Sprint(Command):
    verb = "sprint"
    hex: Hex


@frozen
class FireGroup(Command):
    verb = "fire"
    group: int
    target: str


@frozen
class CalledShot(Command):
    verb = "called-shot"
    group: int
    target: str
    location: str


@frozen
class FireStructure(Command):
    """O3.6: fire a group at the structure on a hex (optional module O3)."""

    verb = "fire-at"
    group: int
    hex: Hex


@frozen
class Kick(Command):
    """O7.1: kick an adjacent enemy frame (optional module O7)."""

    verb = "kick"
    target: str


@frozen
class Brace(Command):
    verb = "brace"


@frozen
class Overwatch(Command):
    verb = "overwatch"
    group: int


@frozen
class Vent(Command):
    verb = "vent"


@frozen
class UseEquipment(Command):
    """R11: Thrust Pack (hex), Countermeasure Suite, Targeting Uplink (target), Barrier (target)."""

    verb = "use"
    equipment: str
    target: str | None = None
    hex: Hex | None = None


@frozen
class EndActivation(Command):
    verb = "end"


@frozen
class Withdraw(Command):
    """R14: the player orders the withdrawal during one of their activations."""

    verb = "withdraw"


BATTLE_COMMANDS: tuple[type[Command], ...] = (
    Deploy,
    ResetDeployment,
    AutoDeploy,
    StartBattle,
    Move,
    Sprint,
    FireGroup,
    CalledShot,
    FireStructure,
    Brace,
    Overwatch,
    Vent,
    UseEquipment,
    EndActivation,
    Withdraw,
)
