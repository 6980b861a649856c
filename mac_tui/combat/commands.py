"""The battle commands (§2, §6.3, R11, R14), each with its one-line text form.

The active frame is implied: battle commands act for `battle.active_unit`. Deployment commands
name the frame they place.
"""

from __future__ import annotations

from attrs import frozen

from ..core import Command, flag_field
from ..hexgrid import Hex


@frozen
class Deploy(Command):
    """§6.3: place (or re-place) one of the player's frames in the deployment zone."""

    verb = "deploy"
    unit: str
    hex: Hex
    facing: str = flag_field("facing")  # O4.1: E, NE, NW, W, SW or SE (default: the side's)


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
    facing: str = flag_field("facing")  # O4.2: the facing it ends with (default: the last step's)
    reverse: bool = flag_field("reverse", False)  # O4.3: every step backwards, facing kept


@frozen
class Sprint(Command):
    verb = "sprint"
    hex: Hex
    facing: str = flag_field("facing")  # O4.2


@frozen
class FireGroup(Command):
    """§7.2; `--breach yes` declares the pilot's Breach Shot with it (O9.9a)."""

    verb = "fire"
    group: int
    target: str
    breach: bool = flag_field("breach", False)


@frozen
class CalledShot(Command):
    """§3.5; `--breach yes` declares the pilot's Breach Shot with it (O9.9a)."""

    verb = "called-shot"
    group: int
    target: str
    location: str
    breach: bool = flag_field("breach", False)


@frozen
class FireStructure(Command):
    """O3.6: fire a group at the structure on a hex (optional module O3)."""

    verb = "fire-at"

    module = "O3"
    group: int
    hex: Hex


@frozen
class Kick(Command):
    """O7.1: kick an adjacent enemy frame (optional module O7)."""

    verb = "kick"

    module = "O7"
    target: str


@frozen
class Brace(Command):
    verb = "brace"


@frozen
class Overwatch(Command):
    verb = "overwatch"
    group: int


@frozen
class ReactionFire(Command):
    """O6.2: arm a reaction cone: a weapon group and a direction (0 E, 1 NE ... 5 SE)."""

    verb = "reaction-fire"

    module = "O6"
    group: int
    direction: int


@frozen
class Sweep(Command):
    """O6.6: the named group sweeps the cone of each step of the Move that follows."""

    verb = "sweep"

    module = "O6"
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
    facing: str = flag_field("facing")  # O4.4: a jump lands with any facing (default: kept)


@frozen
class Pivot(Command):
    """O4.5: the free pivot, one hexside, once per activation (optional module O4)."""

    verb = "pivot"

    module = "O4"
    facing: str


@frozen
class Turn(Command):
    """O4.6: turn to any facing for 1 AP (optional module O4)."""

    verb = "turn"

    module = "O4"
    facing: str


@frozen
class EndActivation(Command):
    verb = "end"


@frozen
class Hold(Command):
    """O1.4: end the activation in place on the track (range-band battles only)."""

    verb = "hold"

    module = "O1"


@frozen
class SetFormation(Command):
    """O9.1: the side's standing formation order (`none`, `sphere`, `line`, `screen` with
    1-2 named screens as `P1+P2`, `dispersed`), in deployment (the player's side) or in an own
    activation at 0 AP; it takes effect at the next check (O9.2)."""

    verb = "formation"

    module = "O9"
    formation: str
    screens: tuple[str, ...] = ()


@frozen
class AssignAbilities(Command):
    """O9.8: in deployment, the abilities the pilot of one of the player's frames holds
    (`battle_plan+breach_shot`, `-` for none)."""

    verb = "command"

    module = "O9"
    unit: str
    abilities: tuple[str, ...] = ()


@frozen
class AutoAssign(Command):
    """O9.8: in deployment, the player's abilities assigned as the AI assigns them."""

    verb = "auto-command"

    module = "O9"


@frozen
class UseAbility(Command):
    """O9.9b-d: the active frame's pilot uses Battle Plan, Percussive Maintenance or
    Impossible Turn (Breach Shot is declared with a fire order)."""

    verb = "ability"

    module = "O9"
    ability: str


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
    ReactionFire,
    Sweep,
    Vent,
    UseEquipment,
    Pivot,
    Turn,
    EndActivation,
    Hold,
    Withdraw,
    SetFormation,
    AssignAbilities,
    AutoAssign,
    UseAbility,
)
