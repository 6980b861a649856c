"""The battle state (§1-§7): frozen attrs values, small and nested.

A `Battle` holds the static map, the frames (`Unit`) and the round bookkeeping. Per-location
values are tuples in `catalog.LOCATION_ORDER` order (head, CT, LT, RT, LA, RA, legs).
Everything a rule derives from these (effective output, movement, evasion...) is computed by
`combat.stats`, never stored twice.
"""

from __future__ import annotations

from typing import Literal

import attrs
from attrs import frozen

from ..catalog import LOCATION_ORDER
from ..hexgrid import Hex
from ..ruleset import Ruleset
from ..stored import optional_field
from .features import Section, Smoke
from .mapgen import BattleMap

#: The sides of a battle: the core game's two, and O10.2's third parties (with O10 on only).
Side = Literal["player", "ally", "neutral", "enemy"]
Phase = Literal["deployment", "combat", "over"]
Result = Literal["victory", "defeat", "withdrawal"]
Stance = Literal["aggressive", "balanced", "defensive"]
Priority = Literal["focus_fire", "spread_damage", "threat", "opportunity"]
WithdrawRule = Literal["never", "at_50", "at_25"]
DestroyedBy = Literal["center_torso", "pilot", "none"]
Stun = Literal["", "stunned", "dazed"]  # O7.6

SIDES: tuple[Side, Side] = ("player", "enemy")
#: O10.2: the third parties, the sides a battle has only with module O10 on.
THIRD_PARTIES: tuple[Side, Side] = ("ally", "neutral")
#: Every side in O10.3's segment order (player, ally, neutral, enemy): O9's records by side.
SIDE_ORDER: tuple[Side, ...] = (SIDES[0], *THIRD_PARTIES, SIDES[1])
LOC_INDEX: dict[str, int] = {loc: i for i, loc in enumerate(LOCATION_ORDER)}
HEAD, CENTER_TORSO, LEGS = LOC_INDEX["head"], LOC_INDEX["center_torso"], LOC_INDEX["legs"]


def other_side(side: Side) -> Side:
    """The core game's other side (two-sided code only: a third party's foes are
    `Battle.foes`)."""
    return "enemy" if side == "player" else "player"


#: O10.2: the sides that fight together: the player's and its allies.
PLAYER_SIDE: tuple[Side, Side] = ("player", "ally")


def friendly(a: Side, b: Side) -> bool:
    """O10.2: the same side, or the player's side and its allies."""
    return a == b or (a in PLAYER_SIDE and b in PLAYER_SIDE)


@frozen(kw_only=True)
class PilotSkills:
    callsign: str
    gunnery: int
    piloting: int
    tactics: int


@frozen(kw_only=True)
class WeaponState:
    """One mounted weapon: catalog id, hardpoint location, group 1-4, shots of ammo left."""

    weapon: str
    mount: str
    group: int
    ammo: int = 0
    destroyed: bool = False


@frozen(kw_only=True)
class EquipmentState:
    """One piece of equipment; slot equipment has a mount location and dies with it."""

    equipment: str
    mount: str | None = None
    destroyed: bool = False


@frozen(kw_only=True)
class ReactionCone:
    """O6.2: an armed cone: the weapon group that fires and the direction (an index of
    hexgrid.DIRECTIONS) the cone is centred on (Cone120, G3)."""

    group: int
    direction: int


@frozen(kw_only=True)
class Unit:
    """A frame in battle and everything that changes about it during the battle."""

    id: str
    side: Side
    label: str
    chassis: str
    pilot: PilotSkills
    weapons: tuple[WeaponState, ...]
    equipment: tuple[EquipmentState, ...] = ()
    pos: Hex | None = None
    armor: tuple[int, ...]
    structure: tuple[int, ...]
    start_armor: int = 0  # totals when the battle began (R14 "damaged", `stats.damaged`)
    start_structure: int = 0
    stance: Stance = "balanced"
    priority: Priority = "focus_fire"
    # per round
    ap: int = 0
    energy_used: int = 0
    fired_groups: tuple[int, ...] = ()
    braced: bool = False
    overwatch_group: int | None = None
    ecm_active: bool = False
    barrier: int = 0
    # damage effects (§4.3, §4.6)
    stress: int = 0
    reactor_hits: int = 0
    gyro_hit: bool = False
    sensor_hit: bool = False
    actuator_hits: tuple[int, ...] = (0, 0, 0, 0, 0, 0, 0)
    cockpit_hit: bool = False
    cockpit_breached: bool = False  # head destroyed, pilot survived: gunnery bonus zeroed
    pilot_alive: bool = True
    shutdown: bool = False  # §5.4/R7: skips the next round
    destroyed: bool = False
    destroyed_by: DestroyedBy = "none"
    downed_by: str | None = None  # the unit whose shot put this one out (the pilot's record)
    smoke_used: int = optional_field(0)  # O3.10: Smoke Launcher charges spent this battle
    # O4.1: the direction (an index of hexgrid.DIRECTIONS) the frame faces; None with O4 off
    facing: int | None = optional_field(None)
    # O6.2: the armed reaction cone (until it fires, the next activation starts or a shutdown)
    reaction: ReactionCone | None = optional_field(None)
    # O6.6: the group of a sweep declared for the Move that follows (this activation only)
    sweep: int | None = optional_field(None)
    # O10.6: the frame left the map with its withdrawing side (not destroyed)
    left: bool = optional_field(False)
    pivoted: bool = optional_field(False)  # O4.5: the free pivot is spent this activation
    # O5.1 (and O5.4, O5.5, O7.3): hexes entered by the frame's own Move, Sprint and reverse
    # steps plus each jump's hex distance in its current activation; 0 again when its next
    # activation starts, so between activations the last activation's total. Counted only
    # while O5 or O7 is on (`combat/moving_fire.py`)
    moved_hexes: int = optional_field(0)
    # O7 (`combat/stun.py`, `combat/kicks.py`): kicked this activation (O7.1); "stunned" or
    # "dazed" (O7.6) and whether the activation that ends that state has begun; the frame's
    # total structure at the round's phase 1 (O7.7: the round's loss is that less its structure)
    kicked: bool = optional_field(False)
    stun: Stun = optional_field("")
    stun_running: bool = optional_field(False)
    round_structure: int = optional_field(0)
    # O9.8-O9.9: the commander's abilities still held, those used (shown to the other side
    # once used), and O9.9d's Impossible Turn in force until the frame's next activation
    abilities: tuple[str, ...] = optional_field(())
    abilities_used: tuple[str, ...] = optional_field(())
    dodging: bool = optional_field(False)
    # O8.2: why the frame radiates this round ("stress", "overload", "vent", "jump"), "" cold
    radiating: str = optional_field("")
    # O8.5: the sides whose frames detect it by its muzzle flash, until its next activation
    revealed_to: tuple[Side, ...] = optional_field(())
    # O8.8: enemies it bumped into this activation (it detects them until the activation ends)
    bumped: tuple[str, ...] = optional_field(())

    @property
    def active(self) -> bool:
        """On the field and able to act in principle (not destroyed, pilot alive, not gone
        off the map with its side, O10.6)."""
        return not self.destroyed and self.pilot_alive and not self.left

    def location_destroyed(self, location: str) -> bool:
        return self.structure[LOC_INDEX[location]] <= 0

    @property
    def total_armor(self) -> int:
        return sum(self.armor)

    @property
    def total_structure(self) -> int:
        return sum(self.structure)

    @property
    def damaged(self) -> bool:
        """Lost any armour or structure since the battle began (a report's "damaged"; the AI's
        withdrawal counts a frame damaged only past R14's threshold: `stats.damaged`)."""
        return self.total_armor < self.start_armor or self.total_structure < self.start_structure

    def live_weapons(self) -> tuple[tuple[int, WeaponState], ...]:
        return tuple((i, w) for i, w in enumerate(self.weapons) if not w.destroyed)

    def has_equipment(self, equipment_id: str) -> bool:
        return any(e.equipment == equipment_id and not e.destroyed for e in self.equipment)


@frozen(kw_only=True)
class SideInfo:
    """How one side is run: by a person or the AI, and when the AI side withdraws (§10.4)."""

    side: Side
    ai: bool
    withdrawal: WithdrawRule = "never"


@frozen(kw_only=True)
class Uplink:
    """A Targeting Uplink designation (R11): `side` gets the bonus against `target`; `user`
    is the designating frame (one designation per frame: a new one replaces it)."""

    side: Side
    target: str
    user: str = ""


#: O9.1: the standing formation orders (`none` first).
FORMATIONS: tuple[str, ...] = ("none", "sphere", "line", "screen", "dispersed")


@frozen(kw_only=True)
class Formation:
    """O9.1-O9.2: one side's standing formation order and what the last check (step 2b) put
    in effect for the round: `effect` is the order when its requirement was met, else `none`.
    `axis`: a direction along an Attack Line (O9.5's x); `plan_round`: the round a Battle Plan
    lasts to the end of (O9.9b); `screen_targets`: the frames a screen attacked this round
    (O9.6's `screen`)."""

    side: Side
    order: str = "none"
    screens: tuple[str, ...] = ()
    effect: str = "none"
    effect_screens: tuple[str, ...] = ()
    axis: int | None = None
    plan_round: int = 0
    screen_targets: tuple[str, ...] = ()


@frozen(kw_only=True)
class Objective:
    """O11.1-O11.2: one objective of a contract or battle: its catalogue id (`OB1`...), hidden
    or visible, the hex it concerns in a battle (OB5's objective hex, OB6's marked building;
    None elsewhere and on a contract) and the round it was met in (0: not met)."""

    id: str
    hidden: bool = False
    hex: Hex | None = None
    met: int = 0


@frozen(kw_only=True)
class Tally:
    """O11.3 and O11.5: what the player's side did in a battle that settlement charges: shots
    of weapons by hardpoint size (small, medium, large), active equipment uses, and sections
    its shots brought to 0 (the collateral, OB6's building excepted); with O8, the enemy frames
    the player's side has detected so far (OB8), sorted."""

    shots: tuple[int, int, int] = (0, 0, 0)
    equipment: int = 0
    collateral: int = 0
    detected: tuple[str, ...] = ()


@frozen(kw_only=True)
class SideGrudge:
    """O10.5: the armour + structure damage `side` has dealt to neutral frames."""

    side: Side
    amount: int


@frozen(kw_only=True)
class Contact:
    """O8.5: `side` detects the enemy frame `unit` now; `how` the first way in O8.13's order
    (sight, thermal, revealed, designated, bumped)."""

    side: Side
    unit: str
    how: str


@frozen(kw_only=True)
class LastKnown:
    """O8.12: where `side` last detected the enemy frame `unit` (hex, height, facing) and the
    round it lost it."""

    side: Side
    unit: str
    hex: Hex
    height: int = 0
    facing: int | None = None
    round: int = 0


@frozen(kw_only=True)
class Battle:
    map: BattleMap
    units: tuple[Unit, ...]
    sides: tuple[SideInfo, ...]  # the player's and the enemy's; O10's third parties after them
    difficulty: int
    landscape: str
    phase: Phase = "deployment"
    round: int = 0
    order: tuple[str, ...] = ()
    turn: int = 0
    uplinks: tuple[Uplink, ...] = ()
    result: Result | None = None
    ruleset: Ruleset = optional_field(())  # the game's optional modules (O0.1)
    # O3: the features' sections and the smoke, row-major (combat/features.py)
    structures: tuple[Section, ...] = optional_field(())
    smoke: tuple[Smoke, ...] = optional_field(())
    # O11: the battle's objectives and the player's side's tally (None while O11 is off)
    objectives: tuple[Objective, ...] = optional_field(())
    tally: Tally | None = optional_field(None)
    # O9: each side's formation order and the formation in effect (combat/formations.py)
    formations: tuple[Formation, ...] = optional_field(())
    # O10.5: each side's grudge, in the order the sides first hurt a neutral frame
    grudges: tuple[SideGrudge, ...] = optional_field(())
    # O8: what each side detects now and where it last saw the others (O8.5, O8.12)
    contacts: tuple[Contact, ...] = optional_field(())
    last_known: tuple[LastKnown, ...] = optional_field(())
    # O8.11: in a side's view only, the enemy frames shown at their last-known hexes (markers,
    # not detected); always empty in the game's state
    markers: tuple[str, ...] = optional_field(())

    def rule(self, module: str) -> bool:
        """True when the optional module `module` (`"O2"`) is switched on in this battle."""
        return module in self.ruleset

    # ---- lookups ------------------------------------------------------------------------
    def unit(self, unit_id: str) -> Unit:
        for u in self.units:
            if u.id == unit_id:
                return u
        raise KeyError(unit_id)

    def index(self, unit_id: str) -> int:
        for i, u in enumerate(self.units):
            if u.id == unit_id:
                return i
        raise KeyError(unit_id)

    def with_unit(self, unit: Unit) -> Battle:
        units = tuple(unit if u.id == unit.id else u for u in self.units)
        return attrs.evolve(self, units=units)

    def side_info(self, side: Side) -> SideInfo:
        for info in self.sides:
            if info.side == side:
                return info
        raise KeyError(side)

    def has_side(self, side: Side) -> bool:
        return any(info.side == side for info in self.sides)

    @property
    def active_unit(self) -> Unit | None:
        if self.phase != "combat" or self.turn >= len(self.order):
            return None
        return self.unit(self.order[self.turn])

    def side_units(self, side: Side) -> tuple[Unit, ...]:
        return tuple(u for u in self.units if u.side == side)

    def living(self, side: Side) -> tuple[Unit, ...]:
        return tuple(u for u in self.units if u.side == side and u.active)

    def hostile(self, a: Side, b: Side) -> bool:
        """Whether frames of sides ``a`` and ``b`` fight each other: the two core sides always;
        with O10 (O10.2, O10.5) the player's side and its allies fight the enemy, and the
        neutrals fight only the side they hold the grudge against (`grudge_target`), both
        ways."""
        if a == b:
            return False
        if a == "neutral" or b == "neutral":
            return self.grudge_target() == (b if a == "neutral" else a)
        return not friendly(a, b)

    def may_attack(self, a: Side, b: Side) -> bool:
        """Whether a frame of side ``a`` may attack one of side ``b``: a frame it fights, and
        with O10 any neutral frame for a side that is not neutral (that is how a grudge
        starts, ruling O10a)."""
        return self.hostile(a, b) or (b == "neutral" and a != "neutral")

    def grudge(self, side: Side) -> int:
        """O10.5: the damage `side` has dealt to neutral frames (0 before any)."""
        return next((g.amount for g in self.grudges if g.side == side), 0)

    def grudge_target(self) -> Side | None:
        """O10.5: the side the neutrals fire at: the highest grudge above 0, ties to the side
        that hit them first (`grudges` keeps that order); None while no side has hurt them."""
        best: SideGrudge | None = None
        for g in self.grudges:
            if g.amount > 0 and (best is None or g.amount > best.amount):
                best = g
        return None if best is None else best.side

    def foes(self, side: Side) -> tuple[Unit, ...]:
        """The living frames hostile to ``side`` (the core game: the other side's living)."""
        return tuple(u for u in self.units if u.active and self.hostile(side, u.side))

    def formation(self, side: Side) -> Formation:
        """O9: `side`'s formation order and the formation in effect (none when unset)."""
        for f in self.formations:
            if f.side == side:
                return f
        return Formation(side=side)

    def with_formation(self, formation: Formation) -> Battle:
        kept = tuple(f for f in self.formations if f.side != formation.side)
        ordered = sorted((*kept, formation), key=lambda f: SIDE_ORDER.index(f.side))
        return attrs.evolve(self, formations=tuple(ordered))

    def occupant(self, h: Hex) -> Unit | None:
        for u in self.units:
            if u.pos == h and u.active:
                return u
        return None

    def occupied(self) -> frozenset[Hex]:
        return frozenset(u.pos for u in self.units if u.pos is not None and u.active)
