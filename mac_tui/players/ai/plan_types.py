"""The planner's vocabulary (`plans.py`): a plan, its named parts, and the pieces it is built
and valued from (a fire action, a non-fire action, a place to end at).
"""

from __future__ import annotations

from typing import Final, NamedTuple

from attrs import frozen

from ...combat.commands import CalledShot
from ...core import Command
from ...hexgrid import Hex
from .odds import Odds
from .situation import NONE_STATUS, Status
from .tables import Gun, Kit

PARTS: Final = (
    "damage",
    "kill",
    "pilot",
    "wreck",
    "setup",
    "stress",
    "outlook",
    "band",
    "received",
    "cover",
    "overwatch",
    "support",
    "reactor",
)
#: O11.10's part, listed after `PARTS` only in a plan that has it (core plans are unchanged).
OBJECTIVE_PART: Final = "objective"
CALLED_LOCATIONS: Final = ("head", "center_torso", "legs")
POST_FIRE_POSITIONS: Final = 12  # fire-then-move: end positions tried, the best by standing
COVER_HELD: Final = 2.0  # cover counts for this window and about as long again (frames hold)
FOLLOWED_UP: Final = 16  # move-then-act: landing places worked out in full, the most promising


@frozen
class Plan:
    """A sequence of commands for the rest of the activation, its value and its parts."""

    commands: tuple[Command, ...]
    value: float
    parts: tuple[tuple[str, float], ...]
    target: str | None = None  # the first target fired at (§10.3 priority window)
    stress: float = 0.0  # the frame's stress after the round's end (§5.4)
    at: Hex | None = None  # where the frame ends
    status: Status = NONE_STATUS  # braced, countermeasures on at the end
    kills: tuple[tuple[str, float], ...] = ()  # chance the plan takes each target out

    def part(self, name: str) -> float:
        return next((v for n, v in self.parts if n == name), 0.0)

    def text(self) -> str:
        return "; ".join(c.to_text() for c in self.commands)


Shots = tuple[tuple[int, Gun], ...]


class Scored(NamedTuple):
    value: float
    parts: tuple[float, ...]
    stress: float
    at: Hex
    status: Status
    kills: tuple[tuple[Kit, float], ...]


class Act(NamedTuple):
    """What a non-fire action adds to a plan."""

    brace: bool = False
    ecm: bool = False
    vents: int = 0
    energy: float = 0.0
    overwatch: float = 0.0
    support: float = 0.0
    kick: float = 0.0  # O7: the kick's expected damage and stun, valued


class Attack:
    """One fire action of a plan (a group, or two groups at one target, or a called shot)."""

    __slots__ = ("commands", "energy", "groups", "odds", "target")

    def __init__(
        self,
        commands: tuple[Command, ...],
        target: Kit,
        odds: Odds,
        energy: int,
        groups: tuple[int, ...],
    ) -> None:
        self.commands = commands
        self.target = target
        self.odds = odds
        self.energy = energy
        self.groups = groups

    @property
    def called(self) -> str | None:
        """The location a called shot aims at (None: plain fire)."""
        first = self.commands[0]
        return first.location if isinstance(first, CalledShot) else None


class Spot:
    """A place the plan can end at: how it is reached, what it costs, how it stands."""

    __slots__ = ("ap", "band", "command", "energy", "hex", "hexes", "objective", "outlook")

    def __init__(
        self, hex_: Hex, command: Command | None, ap: int, energy: int, hexes: int = 0
    ) -> None:
        self.hex = hex_
        self.command = command
        self.ap = ap
        self.energy = energy
        self.hexes = hexes  # O5.1: the hexes the step there enters (counted only under O5/O7)
        self.outlook = 0.0
        self.band = 0.0
        self.objective = 0.0  # O11.10: the pull of the OB5 hex (a part only when not 0)
