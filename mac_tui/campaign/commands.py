"""The campaign commands, each with its one-line text form (the save log and `mac-tui script`).

Frames are named by id (`F1`), pilots by callsign, items by catalog id, places and systems by
id. Lists are joined with `+` (`accept C3 2 F1+F2`).
"""

from __future__ import annotations

from attrs import frozen

from ..core import Command, flag_field


@frozen
class NewCampaign(Command):
    """§13.3: a new company at Junction Station with the starting frames, pilots and credits."""

    verb = "new-campaign"
    name: str
    rules: str = flag_field("rules")  # the optional modules, `O2,O3` (O0.1)


@frozen
class AdvanceDay(Command):
    """§13.1: let `days` days pass (upkeep, injuries, repairs, market and contracts)."""

    verb = "advance-day"
    days: int = 1


@frozen
class Buy(Command):
    """§11.1, §11.7, §11.8, R27: buy from the market here. kind: weapon, equipment, chassis."""

    verb = "buy"
    kind: str
    item: str
    qty: int = 1


@frozen
class Sell(Command):
    """R27: sell from the inventory at 50% of the base price (a market is needed)."""

    verb = "sell"
    kind: str
    item: str
    qty: int = 1


@frozen
class BuyFuel(Command):
    verb = "buy-fuel"
    units: int


@frozen
class SellFrame(Command):
    """Sell a frame (not deployed, not busy) with what it carries back to the inventory."""

    verb = "sell-frame"
    frame: str


@frozen
class RenameFrame(Command):
    verb = "rename"
    frame: str
    name: str


@frozen
class Hire(Command):
    """§9.3: hire a pilot with rolled skills (30,000) where hiring exists."""

    verb = "hire"


@frozen
class Assign(Command):
    """Seat a pilot in a frame (one pilot per frame, one frame per pilot)."""

    verb = "assign"
    pilot: str
    frame: str


@frozen
class Train(Command):
    """Ruling P1: spend a pilot's experience on one level of a skill (gunnery, piloting or
    tactics): the current level times the catalog's `xp_per_level`, up to the skills' maximum."""

    verb = "train"
    pilot: str
    skill: str


@frozen
class Unassign(Command):
    verb = "unassign"
    pilot: str


@frozen
class Refit(Command):
    """§7.1-§7.8: give a frame a new loadout. `weapons` lists `weapon@mount:group` items and
    `equipment` lists `equipment` or `equipment@mount` (slot equipment), both joined by `+`
    (`-` for none; left out = keep the equipment as it is). Each install or removal costs
    500 credits and a day; group changes are free."""

    verb = "refit"
    frame: str
    weapons: str
    equipment: str = "keep"


@frozen
class Regroup(Command):
    """§7.2: move weapon number `index` (1-based, frame order) to `group`; free, instant."""

    verb = "regroup"
    frame: str
    index: int
    group: int


@frozen
class Repair(Command):
    """§11.2, §11.3: repair (or rebuild) a frame; `rush` pays double for half the time."""

    verb = "repair"
    frame: str
    rush: bool = False


@frozen
class Travel(Command):
    """§14.3: to another location of this system (5 fuel, 1 day)."""

    verb = "travel"
    place: str


@frozen
class Jump(Command):
    """§14.3: along a jump route to a neighbouring system's arrival point."""

    verb = "jump"
    system: str


@frozen
class Accept(Command):
    """§16, §11.5, §12.2: take contract `contract` at payout level 0-4 with 1-4 Ready frames
    with active pilots; pays deployment and sets up the battle's deployment phase."""

    verb = "accept"
    contract: str
    payout: int
    frames: str


@frozen
class Salvage(Command):
    """§12.1-§12.3: take these pool items (indices joined by `+`, `-` for none), then the
    scavenge and bonus rolls are revealed."""

    verb = "salvage"
    picks: str = "-"


@frozen
class BuyWreck(Command):
    """§12.4: buy a head-kill frame from the after-action offers (40% of its price)."""

    verb = "buy-wreck"
    index: int


@frozen
class Dismiss(Command):
    """Close the after-action report and return to the hub."""

    verb = "done"
