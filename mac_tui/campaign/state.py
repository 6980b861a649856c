"""The campaign state (§7.8, §9, §11-§16): frozen attrs values.

Money only moves through the ledger (`ledger.py`), so `credits` always equals the starting
credits (§13.3) plus the sum of the ledger's amounts. Per-location values are tuples in
`catalog.LOCATION_ORDER` order, as in battle.
"""

from __future__ import annotations

from typing import Literal

import attrs
from attrs import frozen

from ..combat.state import Objective, WithdrawRule
from ..ruleset import Ruleset
from ..stored import optional_field

FrameStatus = Literal["ready", "damaged", "repairing", "destroyed"]
PilotStatus = Literal["active", "injured", "kia"]
LedgerCategory = Literal[
    "upkeep",
    "market",
    "sale",
    "fuel",
    "hiring",
    "refit",
    "repair",
    "deployment",
    "reward",
    "salvage",
    "objective",  # O11.4: an objective's bonus pay
    "pay_cut",  # O11.3
    "mission_costs",  # O11.5
]
ItemKind = Literal["weapon", "equipment", "chassis"]


@frozen(kw_only=True)
class Mount:
    """A weapon on a frame: catalog id, hardpoint location, group 1-4."""

    weapon: str
    mount: str
    group: int


@frozen(kw_only=True)
class Fitting:
    """A piece of equipment on a frame; slot equipment sits on a hardpoint (`mount`)."""

    equipment: str
    mount: str | None = None


@frozen(kw_only=True)
class Frame:
    id: str
    chassis: str
    name: str
    status: FrameStatus = "ready"
    weapons: tuple[Mount, ...] = ()
    equipment: tuple[Fitting, ...] = ()
    armor: tuple[int, ...]
    structure: tuple[int, ...]
    components: int = 0  # component damage carried home (§11.2 ComponentDamageCount)
    pilot: str | None = None
    busy_days: int = 0  # repair or refit days left (the frame cannot deploy meanwhile)
    wreck: bool = False  # bought from head-kill salvage: its first repair is §12.4's


@frozen(kw_only=True)
class PilotRecord:
    """A pilot's service record (the pilot sheet; docs/rulings.md P2): kept by the campaign as
    missions are settled, never read by a rule.

    `hired_day` is None for a pilot who came from a save older than the record (format 3 or
    earlier): the day is not known, and the counts start from that load."""

    hired_day: int | None = None
    missions: int = 0
    victories: int = 0
    kills: int = 0  # enemy frames this pilot's shots put out of a battle (destroyed or pilot down)
    injuries: int = 0
    ejections: int = 0  # frames destroyed under the pilot, who survived
    frames: tuple[str, ...] = ()  # the frames flown on missions, by name, first flown first


@frozen(kw_only=True)
class Pilot:
    callsign: str
    gunnery: int
    piloting: int
    tactics: int
    morale: int
    status: PilotStatus = "active"
    injury_days: int = 0
    xp: int = 0
    record: PilotRecord = PilotRecord()


@frozen(kw_only=True)
class Stock:
    kind: ItemKind
    item: str
    qty: int


@frozen(kw_only=True)
class Market:
    """One location's stock, rolled on `rolled_day` and refreshed every 7 days (§11.8)."""

    place: str
    rolled_day: int
    stock: tuple[Stock, ...] = ()

    def qty(self, kind: str, item: str) -> int:
        for s in self.stock:
            if s.kind == kind and s.item == item:
                return s.qty
        return 0


@frozen(kw_only=True)
class LedgerEntry:
    day: int
    category: LedgerCategory
    amount: int
    balance: int
    text: str


@frozen(kw_only=True)
class EnemyFrame:
    chassis: str
    loadout: str  # stock loadout name (R18)
    label: str


@frozen(kw_only=True)
class ThirdParty:
    """O10.1: the contract's third party, shown before acceptance: an allied lance (the
    employer's faction) or a neutral one (a third faction), its frames as the enemy's are
    stored (pilots, stance and withdrawal follow from O10.1 and O10.5 when the battle starts);
    `roll` is the d100 that gave it."""

    roll: int
    kind: Literal["ally", "neutral"]
    faction: str | None
    frames: tuple[EnemyFrame, ...]


@frozen(kw_only=True)
class Contract:
    id: str
    employer: str
    opponent: str
    difficulty: int
    base: int
    bonus: int  # rolled random bonus (§11.6)
    landscape: str
    enemies: tuple[EnemyFrame, ...]
    place: str
    enemy_withdrawal: WithdrawRule  # the enemy side's §10.4 rule, shown on the board (D23)
    third_party: ThirdParty | None = optional_field(None)  # O10.1 (with O10 on only)
    objectives: tuple[Objective, ...] = optional_field(())  # O11.1 (none while O11 is off)


@frozen(kw_only=True)
class Mission:
    """A contract under way: the frames deployed and the payout level chosen (§12.2)."""

    contract: Contract
    payout_level: int
    frames: tuple[tuple[str, str], ...]  # (battle unit id, frame id)


@frozen(kw_only=True)
class SalvageItem:
    kind: ItemKind
    item: str


@frozen(kw_only=True)
class AfterAction:
    """The debrief of the last battle, with the salvage still to pick (§12)."""

    contract: Contract
    result: str
    payout_level: int
    credits: int
    picks: int
    pool: tuple[SalvageItem, ...]
    picked: tuple[int, ...] = ()
    frame_offers: tuple[Frame, ...] = ()  # head-kill frames for sale (§12.4)
    found: tuple[SalvageItem, ...] = ()  # scavenge and bonus finds, once revealed
    revealed: bool = False
    report: tuple[str, ...] = ()  # lines for the after-action screen
    objectives: tuple[Objective, ...] = optional_field(())  # O11.9: as the battle left them


@frozen(kw_only=True)
class Campaign:
    company: str
    credits: int
    day: int = 1
    place: str
    fuel: int
    frames: tuple[Frame, ...] = ()
    pilots: tuple[Pilot, ...] = ()
    weapons: tuple[tuple[str, int], ...] = ()  # inventory: (weapon id, count)
    equipment: tuple[tuple[str, int], ...] = ()  # inventory: (equipment id, count)
    standing: tuple[tuple[str, int], ...] = ()  # (faction id, standing)
    reputation: int = 0
    contracts: tuple[Contract, ...] = ()
    contracts_day: int = 1
    markets: tuple[Market, ...] = ()
    ledger: tuple[LedgerEntry, ...] = ()
    mission: Mission | None = None
    after_action: AfterAction | None = None
    next_frame: int = 1
    next_contract: int = 1
    mercs_hired: int = 0
    missions_played: int = 0
    missions_won: int = 0
    negative_days: int = 0
    ended: str | None = None  # the cause, once the run is over (R28)
    ruleset: Ruleset = optional_field(())  # the optional modules (O0.1), copied to each battle

    # ---- lookups ------------------------------------------------------------------------
    def frame(self, frame_id: str) -> Frame:
        for f in self.frames:
            if f.id == frame_id:
                return f
        raise KeyError(frame_id)

    def pilot(self, callsign: str) -> Pilot:
        for p in self.pilots:
            if p.callsign == callsign:
                return p
        raise KeyError(callsign)

    def with_frame(self, frame: Frame) -> Campaign:
        frames = tuple(frame if f.id == frame.id else f for f in self.frames)
        return attrs.evolve(self, frames=frames)

    def with_pilot(self, pilot: Pilot) -> Campaign:
        pilots = tuple(pilot if p.callsign == pilot.callsign else p for p in self.pilots)
        return attrs.evolve(self, pilots=pilots)

    def standing_with(self, faction: str) -> int:
        return dict(self.standing).get(faction, 0)

    def market(self, place: str) -> Market | None:
        for m in self.markets:
            if m.place == place:
                return m
        return None

    def pilot_of(self, frame_id: str) -> Pilot | None:
        callsign = self.frame(frame_id).pilot
        return None if callsign is None else self.pilot(callsign)

    def frame_of(self, callsign: str) -> Frame | None:
        for f in self.frames:
            if f.pilot == callsign:
                return f
        return None


def count_of(items: tuple[tuple[str, int], ...], item: str) -> int:
    return dict(items).get(item, 0)


def add_count(items: tuple[tuple[str, int], ...], item: str, n: int) -> tuple[tuple[str, int], ...]:
    """Inventory arithmetic; counts never go negative and zero counts are dropped."""
    counts = dict(items)
    value = counts.get(item, 0) + n
    if value < 0:
        raise ValueError(f"inventory of {item} would go negative")
    if value:
        counts[item] = value
    else:
        counts.pop(item, None)
    return tuple(sorted(counts.items()))
