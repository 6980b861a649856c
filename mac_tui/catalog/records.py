"""The rules tables as frozen attrs records: one class per kind of table row.

Field names follow the TOML keys (see data/*.toml); numbers are whole numbers, percentages are
whole percent. Cross-references (a faction, weapon or system id) are checked in `load.py`.
"""

from __future__ import annotations

from typing import Literal

from attrs import frozen

from .schema import bounds, key

Size = Literal["small", "medium", "large"]
SlotSize = Literal["none", "small", "medium", "large"]
WeaponType = Literal["energy", "ballistic", "missile"]
RangeId = Literal["short", "medium", "long"]
ClassId = Literal["light", "medium", "heavy", "assault"]
LocationId = Literal[
    "head", "center_torso", "left_torso", "right_torso", "left_arm", "right_arm", "legs"
]
MountId = Literal["head", "center_torso", "left_torso", "right_torso", "left_arm", "right_arm"]
StructureKey = Literal["head", "center_torso", "side_torso", "arm", "legs"]
ComponentId = Literal[
    "weapon_destroyed",
    "actuator_damaged",
    "ammo_explosion",
    "reactor_hit",
    "gyro_hit",
    "sensor_hit",
    "cockpit_hit",
    "no_effect",
]
EquipmentCategory = Literal["passive", "active", "slot"]
EquipmentEffect = Literal[
    "reactor_boost",
    "structure_damage_reduction",
    "bonus_reloads",
    "evasion_reduction",
    "jump",
    "ecm",
    "designate",
    "barrier",
    "long_range_bonus",
    "missile_intercept",
    "ranged_ecm",
    "stealth",
    "smoke",
]
LandscapeId = Literal["habitable", "industrial", "mining", "station", "outpost"]
SystemType = Literal["core", "colony", "frontier", "contested"]
Outcome = Literal["victory", "defeat", "withdrawal"]
MarketTierId = Literal[
    "small_weapon",
    "medium_weapon",
    "large_weapon",
    "light_chassis",
    "medium_chassis",
    "heavy_chassis",
    "assault_chassis",
    "passive_equipment",
    "active_equipment",
    "slot_equipment",
]
Rounding = Literal["down", "up"]

PRICE = (0, 10_000_000)


# --- weapons.toml -------------------------------------------------------------------------
@frozen(kw_only=True)
class Weapon:
    __toml_name__ = "weapon"
    id: str
    name: str
    abbrev: str
    size: Size
    type: WeaponType
    damage: int = bounds(1, 100)
    energy: int = bounds(0, 50)
    ammo_per_shot: int = bounds(0, 100)
    space: int = bounds(1, 50)
    range: RangeId
    accuracy: int = bounds(0, 100)
    price: int = bounds(*PRICE)
    faction: str
    exclusive: bool
    stress_on_hit: int = bounds(0, 50, default=0)
    indirect: bool = False

    @property
    def uses_ammo(self) -> bool:
        return self.ammo_per_shot > 0


@frozen(kw_only=True)
class WeaponsFile:
    weapon: tuple[Weapon, ...]


# --- chassis.toml -------------------------------------------------------------------------
@frozen(kw_only=True)
class Hardpoints:
    __toml_name__ = "hardpoints"
    small: tuple[MountId, ...]
    medium: tuple[MountId, ...]
    large: tuple[MountId, ...]

    def of(self, size: str) -> tuple[MountId, ...]:
        mounts: tuple[MountId, ...] = getattr(self, size)
        return mounts


@frozen(kw_only=True)
class Structure:
    __toml_name__ = "structure"
    head: int = bounds(1, 100)
    center_torso: int = bounds(1, 100)
    side_torso: int = bounds(1, 100)
    arm: int = bounds(1, 100)
    legs: int = bounds(1, 100)

    def of(self, structure_key: str) -> int:
        value: int = getattr(self, structure_key)
        return value


@frozen(kw_only=True)
class Chassis:
    __toml_name__ = "chassis"
    designation: str
    name: str
    class_: ClassId = key("class")
    faction: str
    tonnage: int = bounds(1, 200)
    armor: int = bounds(1, 1000)
    reactor: int = bounds(1, 100)
    move_energy: int = bounds(0, 50)
    speed: int = bounds(1, 20)
    evasion: int = bounds(0, 100)
    space: int = bounds(1, 500)
    hardpoints: Hardpoints
    structure: Structure


@frozen(kw_only=True)
class ChassisFile:
    chassis: tuple[Chassis, ...]


# --- equipment.toml -----------------------------------------------------------------------
@frozen(kw_only=True)
class Equipment:
    __toml_name__ = "equipment"
    id: str
    name: str
    category: EquipmentCategory
    slot_size: SlotSize
    space: int = bounds(1, 50)
    energy: int = bounds(0, 50)
    price: int = bounds(*PRICE)
    effect: EquipmentEffect
    value: int = bounds(-100, 100)
    range: int = bounds(0, 20, default=0)
    move_penalty: int = bounds(0, 5, default=0)
    description: str
    module: str = ""  # O0.11: the optional module whose item this is ("" = the core game's)


@frozen(kw_only=True)
class EquipmentFile:
    equipment: tuple[Equipment, ...]


# --- terrain.toml -------------------------------------------------------------------------
@frozen(kw_only=True)
class Terrain:
    __toml_name__ = "terrain"
    id: str
    name: str
    move_cost: int = bounds(1, 10)
    defense: int = bounds(0, 100)
    los_penalty: int = bounds(0, 100)
    glyph: str
    unicode: str


@frozen(kw_only=True)
class TerrainFile:
    terrain: tuple[Terrain, ...]


# --- classes.toml -------------------------------------------------------------------------
@frozen(kw_only=True)
class FrameClass:
    __toml_name__ = "class"
    id: ClassId
    name: str
    letter: str
    hex_movement: int = bounds(1, 10)
    price: int = bounds(*PRICE)
    upkeep: int = bounds(0, 100_000)
    deployment_cost: int = bounds(0, 1_000_000)


@frozen(kw_only=True)
class ClassesFile:
    class_: tuple[FrameClass, ...] = key("class")


# --- ranges.toml --------------------------------------------------------------------------
@frozen(kw_only=True)
class Bands:
    __toml_name__ = "bands"
    point_blank_max: int = bounds(0, 30)
    short_max: int = bounds(0, 30)
    medium_max: int = bounds(0, 30)


@frozen(kw_only=True)
class RangeClass:
    __toml_name__ = "range_class"
    id: RangeId
    name: str
    point_blank: int = bounds(-100, 100)
    short: int = bounds(-100, 100)
    medium: int = bounds(-100, 100)
    long: int = bounds(-100, 100)
    optimal_min: int = bounds(1, 30)
    optimal_max: int = bounds(1, 30)
    max_range: int = bounds(1, 30)
    modifier_at_optimal: int = bounds(-100, 100)
    modifier_at_max: int = bounds(-100, 100)

    def band_modifier(self, band: str) -> int:
        value: int = getattr(self, band)
        return value


@frozen(kw_only=True)
class RangesFile:
    bands: Bands
    range_class: tuple[RangeClass, ...]


# --- combat.toml --------------------------------------------------------------------------
@frozen(kw_only=True)
class RoundRules:
    __toml_name__ = "rounds"
    action_points: int = bounds(1, 10)
    gyro_hit_action_points: int = bounds(0, 10)
    round_limit: int = bounds(1, 10_000)


@frozen(kw_only=True)
class ApCosts:
    __toml_name__ = "ap_costs"
    move: int = bounds(1, 10)
    sprint: int = bounds(1, 10)
    fire_group: int = bounds(1, 10)
    called_shot: int = bounds(1, 10)
    brace: int = bounds(1, 10)
    overwatch: int = bounds(1, 10)
    vent: int = bounds(1, 10)
    equipment: int = bounds(1, 10)


@frozen(kw_only=True)
class AccuracyRules:
    __toml_name__ = "accuracy"
    min_chance: int = bounds(0, 100)
    max_chance: int = bounds(0, 100)
    gunnery_per_point: int = bounds(0, 20)
    brace: int = bounds(0, 100)
    sensor_hit: int = bounds(0, 100)
    called_shot: int = bounds(0, 100)
    arm_actuator: int = bounds(0, 100)
    overwatch: int = bounds(0, 100)
    indirect_fire: int = bounds(0, 100)
    indirect_spotter_range: int = bounds(0, 30)
    critical_chance: int = bounds(0, 100)


@frozen(kw_only=True)
class DamageRules:
    __toml_name__ = "damage"
    ammo_explosion_min: int = bounds(0, 200)
    ammo_explosion_max: int = bounds(0, 200)
    head_survival_base: int = bounds(0, 100)
    head_survival_per_piloting: int = bounds(0, 100)
    destroyed_pilot_kia_chance: int = bounds(0, 100)


@frozen(kw_only=True)
class ReactorRules:
    __toml_name__ = "reactor"
    min_output: int = bounds(0, 100)
    reactor_hit_output: int = bounds(0, 100)
    reactor_hit_stress_percent: int = bounds(0, 100)
    overload_percent: int = bounds(100, 500)
    shutdown_chance: int = bounds(0, 100)
    auto_shutdown_percent: int = bounds(100, 500)
    dissipation_divisor: int = bounds(1, 100)
    dissipation_min: int = bounds(0, 100)
    vent_divisor: int = bounds(1, 100)
    vent_min: int = bounds(0, 100)
    shutdown_stress_keep_percent: int = bounds(0, 100)


@frozen(kw_only=True)
class MovementRules:
    __toml_name__ = "movement"
    sprint_range_multiplier: int = bounds(1, 10)
    sprint_energy_multiplier: int = bounds(1, 10)
    pullback_energy_percent: int = bounds(100, 500)
    leg_actuator_energy: int = bounds(0, 50)


@frozen(kw_only=True)
class WithdrawalRules:
    __toml_name__ = "withdrawal"
    at_50_lost_percent: int = bounds(0, 100)
    at_50_weak_share_percent: int = bounds(0, 100)
    at_50_weak_armor_percent: int = bounds(0, 100)
    at_25_lost_percent: int = bounds(0, 100)
    at_25_damaged_share_percent: int = bounds(0, 100)
    damaged_armor_lost_percent: int = bounds(1, 100)


@frozen(kw_only=True)
class AmmoRules:
    __toml_name__ = "ammo"
    reloads: int = bounds(1, 100)


@frozen(kw_only=True)
class LoadoutRules:
    __toml_name__ = "loadout"
    weapon_groups: int = bounds(1, 9)


@frozen(kw_only=True)
class Location:
    __toml_name__ = "location"
    id: LocationId
    name: str
    abbrev: str
    hit_weight: int = bounds(0, 100)
    armor_permille: int = bounds(0, 1000)
    structure_key: StructureKey
    transfer_to: LocationId | None = None


@frozen(kw_only=True)
class ComponentRow:
    __toml_name__ = "component"
    id: ComponentId
    name: str
    low: int = bounds(0, 99)
    high: int = bounds(0, 99)


@frozen(kw_only=True)
class CombatFile:
    rounds: RoundRules
    ap_costs: ApCosts
    accuracy: AccuracyRules
    damage: DamageRules
    reactor: ReactorRules
    movement: MovementRules
    withdrawal: WithdrawalRules
    ammo: AmmoRules
    loadout: LoadoutRules
    location: tuple[Location, ...]
    component: tuple[ComponentRow, ...]


# --- pilots.toml --------------------------------------------------------------------------
@frozen(kw_only=True)
class SkillRange:
    __toml_name__ = "skills"
    min: int = bounds(0, 20)
    max: int = bounds(0, 20)


@frozen(kw_only=True)
class HiringRules:
    __toml_name__ = "hiring"
    cost: int = bounds(*PRICE)
    overflow_prefix: str
    gunnery_d6: tuple[int, ...] = bounds(1, 10)
    piloting_d6: tuple[int, ...] = bounds(1, 10)
    tactics_d6: tuple[int, ...] = bounds(1, 10)
    morale_base: int = bounds(0, 100)
    morale_die: int = bounds(1, 100)


@frozen(kw_only=True)
class InjuryRules:
    __toml_name__ = "injury"
    base_days: int = bounds(0, 100)
    extra_days_max: int = bounds(0, 100)


@frozen(kw_only=True)
class XpRules:
    __toml_name__ = "xp"
    per_difficulty: int = bounds(0, 1000)
    victory_bonus: int = bounds(0, 1000)


@frozen(kw_only=True)
class TrainingRules:
    """Ruling P1: experience buys skill levels, each costing its current level times this."""

    __toml_name__ = "training"
    xp_per_level: int = bounds(1, 10_000)


@frozen(kw_only=True)
class Callsigns:
    __toml_name__ = "callsigns"
    pool: tuple[str, ...]


@frozen(kw_only=True)
class StartingPilot:
    __toml_name__ = "starting_pilot"
    callsign: str
    gunnery: int = bounds(1, 5)
    piloting: int = bounds(1, 5)
    tactics: int = bounds(1, 5)
    morale: int = bounds(0, 100)
    notes: str


@frozen(kw_only=True)
class PilotsFile:
    skills: SkillRange
    hiring: HiringRules
    injury: InjuryRules
    xp: XpRules
    training: TrainingRules
    callsigns: Callsigns
    starting_pilot: tuple[StartingPilot, ...]


# --- economy.toml -------------------------------------------------------------------------
@frozen(kw_only=True)
class Prices:
    __toml_name__ = "prices"
    sell_percent: int = bounds(0, 100)
    fuel_price: int = bounds(0, 100_000)
    refit_cost: int = bounds(0, 100_000)
    refit_days: int = bounds(0, 30)


@frozen(kw_only=True)
class RepairRules:
    __toml_name__ = "repair"
    chassis_percent: int = bounds(0, 100)
    per_component: int = bounds(0, 1_000_000)
    days_per_ratio: int = bounds(0, 100)
    min_days: int = bounds(0, 100)
    ready_threshold_percent: int = bounds(0, 100)
    rush_cost_multiplier: int = bounds(1, 10)
    rush_time_divisor: int = bounds(1, 10)
    rebuild_days: int = bounds(0, 100)


@frozen(kw_only=True)
class FailureRules:
    __toml_name__ = "failure"
    negative_credit_days: int = bounds(1, 1000)
    idle_days: int = bounds(1, 1000)  # BL2: no frame deployed for this long, none can now


@frozen(kw_only=True)
class Reward:
    __toml_name__ = "reward"
    difficulty: int = bounds(1, 5)
    base: int = bounds(*PRICE)
    bonus_max: int = bounds(*PRICE)


@frozen(kw_only=True)
class OutcomePercents:
    __toml_name__ = "outcome"
    victory: int = bounds(0, 200)
    zero_losses_bonus: int = bounds(0, 200)
    withdrawal: int = bounds(0, 200)
    defeat: int = bounds(0, 200)


@frozen(kw_only=True)
class StandingRules:
    __toml_name__ = "standing"
    min: int = bounds(-1000, 1000)
    max: int = bounds(-1000, 1000)
    start: int = bounds(-1000, 1000)
    exclusive_level: str
    market_bonus_divisor: int = bounds(1, 1000)


@frozen(kw_only=True)
class StandingLevel:
    __toml_name__ = "standing_level"
    id: str
    name: str
    min: int = bounds(-1000, 1000)
    max: int = bounds(-1000, 1000)
    reward_percent: int = bounds(0, 200)
    price_percent: int = bounds(0, 200)


@frozen(kw_only=True)
class StandingChange:
    __toml_name__ = "standing_change"
    outcome: Outcome
    employer_base: int = bounds(-100, 100)
    employer_per_difficulty: int = bounds(-100, 100)
    others_base: int = bounds(-100, 100)
    others_per_difficulty: int = bounds(-100, 100)


@frozen(kw_only=True)
class MarketRules:
    __toml_name__ = "market"
    refresh_days: int = bounds(1, 365)


@frozen(kw_only=True)
class MarketTier:
    __toml_name__ = "market_tier"
    id: MarketTierId
    threshold: int = bounds(0, 100)
    qty_min: int = bounds(1, 100)
    qty_max: int = bounds(1, 100)


@frozen(kw_only=True)
class SalvageRules:
    __toml_name__ = "salvage"
    victory_base_picks: int = bounds(0, 10)
    victory_picks_divisor: int = bounds(1, 10)
    withdrawal_picks: int = bounds(0, 10)
    defeat_picks: int = bounds(0, 10)
    chance_base: int = bounds(0, 100)
    chance_per_difficulty: int = bounds(0, 100)
    bonus_find_chance: int = bounds(0, 100)
    frame_price_percent: int = bounds(0, 100)
    frame_repair_percent: int = bounds(0, 100)
    frame_repair_days: int = bounds(0, 100)


@frozen(kw_only=True)
class PayoutLevel:
    __toml_name__ = "payout_level"
    level: int = bounds(0, 10)
    name: str
    credit_percent: int = bounds(0, 100)
    picks_halves: int = bounds(0, 10)
    rounding: Rounding
    default: bool = False


@frozen(kw_only=True)
class EconomyFile:
    prices: Prices
    repair: RepairRules
    failure: FailureRules
    reward: tuple[Reward, ...]
    outcome: OutcomePercents
    standing: StandingRules
    standing_level: tuple[StandingLevel, ...]
    standing_change: tuple[StandingChange, ...]
    market: MarketRules
    market_tier: tuple[MarketTier, ...]
    salvage: SalvageRules
    payout_level: tuple[PayoutLevel, ...]


# --- factions.toml ------------------------------------------------------------------------
@frozen(kw_only=True)
class Faction:
    __toml_name__ = "faction"
    id: str
    name: str
    short: str
    abbrev: str
    identity: str
    colour: str


@frozen(kw_only=True)
class FactionsFile:
    faction: tuple[Faction, ...]


# --- galaxy.toml --------------------------------------------------------------------------
@frozen(kw_only=True)
class TravelRules:
    __toml_name__ = "travel"
    fuel_capacity: int = bounds(1, 10_000)
    intra_system_fuel: int = bounds(0, 100)
    intra_system_days: int = bounds(0, 30)


@frozen(kw_only=True)
class StarSystem:
    __toml_name__ = "system"
    id: str
    name: str
    faction: str
    type: SystemType
    description: str
    x: int = bounds(0, 1000)
    y: int = bounds(0, 1000)


@frozen(kw_only=True)
class Place:
    __toml_name__ = "location"
    id: str
    name: str
    system: str
    type: LandscapeId
    market: bool
    hiring: bool
    min_difficulty: int = bounds(1, 5)
    max_difficulty: int = bounds(1, 5)


@frozen(kw_only=True)
class Route:
    __toml_name__ = "route"
    a: str
    b: str
    fuel: int = bounds(0, 100)
    days: int = bounds(1, 30)


@frozen(kw_only=True)
class GalaxyFile:
    travel: TravelRules
    system: tuple[StarSystem, ...]
    location: tuple[Place, ...]
    route: tuple[Route, ...]


# --- maps.toml ----------------------------------------------------------------------------
@frozen(kw_only=True)
class DeploymentRules:
    __toml_name__ = "deployment"
    columns: int = bounds(1, 5)


@frozen(kw_only=True)
class ForestClusters:
    __toml_name__ = "forest_clusters"
    extra_min: int = bounds(0, 6)
    extra_max: int = bounds(0, 6)


@frozen(kw_only=True)
class MapSize:
    __toml_name__ = "map_size"
    id: str
    name: str
    min_difficulty: int = bounds(1, 5)
    max_difficulty: int = bounds(1, 5)
    width: int = bounds(6, 40)
    height: int = bounds(4, 40)


@frozen(kw_only=True)
class Landscape:
    __toml_name__ = "landscape"
    id: LandscapeId
    name: str
    forest: int = bounds(0, 100)
    rocks: int = bounds(0, 100)
    rough: int = bounds(0, 100)
    sand: int = bounds(0, 100)

    def share(self, terrain: str) -> int:
        value: int = getattr(self, terrain, 0)
        return value


@frozen(kw_only=True)
class MapsFile:
    deployment: DeploymentRules
    forest_clusters: ForestClusters
    map_size: tuple[MapSize, ...]
    landscape: tuple[Landscape, ...]


# --- missions.toml ------------------------------------------------------------------------
@frozen(kw_only=True)
class DifficultyRules:
    __toml_name__ = "difficulty"
    min: int = bounds(1, 5)
    max: int = bounds(1, 5)
    base: int = bounds(0, 5)
    reputation_divisor: int = bounds(1, 100)
    base_min: int = bounds(1, 5)
    base_max: int = bounds(1, 5)
    roll_min: int = bounds(-5, 5)
    roll_max: int = bounds(-5, 5)


@frozen(kw_only=True)
class ContractRules:
    __toml_name__ = "contracts"
    employer_controller_chance: int = bounds(0, 100)
    faction_chassis_chance: int = bounds(0, 100)
    offers: int = bounds(1, 10)
    refresh_days: int = bounds(1, 365)


@frozen(kw_only=True)
class LanceRules:
    __toml_name__ = "lance"
    max_frames: int = bounds(1, 10)


@frozen(kw_only=True)
class ReputationRules:
    __toml_name__ = "reputation"
    victory_per_difficulty: int = bounds(0, 100)
    defeat: int = bounds(-100, 0)
    min: int = bounds(0, 1000)


@frozen(kw_only=True)
class WithdrawalWeights:
    """The odds of the enemy side's §10.4 withdrawal rule (docs/rulings.md D23): weights of
    fighting to the end, retreating at 50% and retreating at 25%."""

    __toml_name__ = "withdrawal"
    never: int = bounds(0, 100)
    at_50: int = bounds(0, 100)
    at_25: int = bounds(0, 100)


@frozen(kw_only=True)
class EnemyForce:
    __toml_name__ = "enemy_force"
    difficulty: int = bounds(1, 5)
    classes: tuple[ClassId, ...]
    gunnery: int = bounds(1, 10)
    piloting: int = bounds(1, 10)
    tactics: int = bounds(1, 10)
    withdrawal: WithdrawalWeights


@frozen(kw_only=True)
class MissionsFile:
    difficulty: DifficultyRules
    contracts: ContractRules
    lance: LanceRules
    reputation: ReputationRules
    enemy_force: tuple[EnemyForce, ...]


# --- start.toml ---------------------------------------------------------------------------
@frozen(kw_only=True)
class StartCompany:
    __toml_name__ = "company"
    credits: int = bounds(0, 100_000_000)
    year: int = bounds(1, 9999)
    location: str
    fuel: int = bounds(0, 10_000)


@frozen(kw_only=True)
class LoadoutEntry:
    __toml_name__ = "loadout"
    weapon: str
    mount: MountId
    group: int = bounds(1, 4)


@frozen(kw_only=True)
class StartFrame:
    __toml_name__ = "frame"
    chassis: str
    pilot: str
    loadout: tuple[LoadoutEntry, ...]


@frozen(kw_only=True)
class StartFile:
    company: StartCompany
    frame: tuple[StartFrame, ...]


# --- loadouts.toml ------------------------------------------------------------------------
@frozen(kw_only=True)
class SlotFitting:
    """Slot equipment in a stock loadout: it takes a hardpoint of its slot size at `mount`."""

    __toml_name__ = "slot"
    equipment: str
    mount: MountId


@frozen(kw_only=True)
class StockLoadout:
    """One named enemy fit (R18): weapons with mount and group, plus optional equipment.

    `equipment` lists passive and active equipment (no hardpoint); `slots` lists slot
    equipment, each on a hardpoint of its size.
    """

    __toml_name__ = "loadout"
    name: str
    weapons: tuple[LoadoutEntry, ...]
    equipment: tuple[str, ...] = ()
    slots: tuple[SlotFitting, ...] = ()
    module: str = ""  # O0.11: drawn only while this optional module is on ("" = always)


@frozen(kw_only=True)
class ChassisLoadouts:
    __toml_name__ = "chassis"
    designation: str
    loadout: tuple[StockLoadout, ...]


@frozen(kw_only=True)
class LoadoutsFile:
    chassis: tuple[ChassisLoadouts, ...]


# --- structures.toml (optional module O3) -----------------------------------------------------
FeatureEntry = Literal["never", "roof", "walk"]
FeatureLos = Literal["block", "penalty", "none"]


@frozen(kw_only=True)
class Feature:
    """O3.2: one kind of hex feature (a building, a prop, a ruin, a barricade, debris)."""

    __toml_name__ = "feature"
    id: str
    name: str
    rule: str
    glyph: str
    unicode: str
    height: int = bounds(0, 3)
    durability: int = bounds(0, 1000)
    enter: FeatureEntry
    move_cost: int = bounds(1, 10)
    cover: int = bounds(0, 100)
    los: FeatureLos
    los_penalty: int = bounds(0, 100)
    variants: bool
    volatile: bool
    explodes: bool
    o2_only: bool
    becomes: str = ""  # the stage a section at 0 turns into (O3.9); "" for none


@frozen(kw_only=True)
class FeatureVariant:
    """O3.3: Weak, Reinforced or standard, by a d100 roll when a building or gantry is placed."""

    __toml_name__ = "variant"
    id: str
    name: str
    rule: str
    roll_min: int = bounds(1, 100)
    roll_max: int = bounds(1, 100)
    durability_percent: int = bounds(1, 100)
    damage_reduction: int = bounds(0, 100)


@frozen(kw_only=True)
class VolatileRules:
    __toml_name__ = "volatile"
    rule: str
    energy_multiplier: int = bounds(1, 10)


@frozen(kw_only=True)
class FeatureGeneration:
    __toml_name__ = "generation"
    rule: str
    order: tuple[str, ...]
    extra_sections: tuple[int, ...] = bounds(0, 6)
    buildings: tuple[str, ...]


@frozen(kw_only=True)
class FeatureRate:
    """O3.4: features per 100 interior hexes of a landscape."""

    __toml_name__ = "rate"
    landscape: LandscapeId
    high_building: int = bounds(0, 50)
    low_building: int = bounds(0, 50)
    gantry: int = bounds(0, 50)
    barricade: int = bounds(0, 50)
    fuel_tank: int = bounds(0, 50)

    def of(self, feature: str) -> int:
        value: int = getattr(self, feature)
        return value


@frozen(kw_only=True)
class StructureAttack:
    __toml_name__ = "attack"
    rule: str
    rerolls: int = bounds(0, 3)
    collapse_multiplier: int = bounds(1, 100)


@frozen(kw_only=True)
class ExplosionRules:
    __toml_name__ = "explosion"
    rule: str
    radius: int = bounds(0, 3)
    damage: int = bounds(0, 100)
    section_loss: int = bounds(0, 1000)


@frozen(kw_only=True)
class SmokeRules:
    __toml_name__ = "smoke"
    rule: str
    launcher: str
    charges: int = bounds(1, 10)
    radius: int = bounds(0, 3)
    penalty: int = bounds(0, 100)


@frozen(kw_only=True)
class StructuresFile:
    feature: tuple[Feature, ...]
    variant: tuple[FeatureVariant, ...]
    volatile: VolatileRules
    generation: FeatureGeneration
    rate: tuple[FeatureRate, ...]
    attack: StructureAttack
    explosion: ExplosionRules
    smoke: SmokeRules

    def kind(self, feature_id: str) -> Feature:
        for f in self.feature:
            if f.id == feature_id:
                return f
        raise KeyError(feature_id)

    def rate_of(self, landscape: str) -> FeatureRate:
        for r in self.rate:
            if r.landscape == landscape:
                return r
        raise KeyError(landscape)

    def variant_of(self, variant_id: str) -> FeatureVariant:
        for v in self.variant:
            if v.id == variant_id:
                return v
        raise KeyError(variant_id)


# --- modules.toml (optional rules, O0) --------------------------------------------------------
@frozen(kw_only=True)
class Module:
    """One optional rules module (O1-O11): its id, name and a plain-words summary, and the
    file of `data/` that holds its own numbers, if it has one (the rules reference shows its
    tables when the file exists)."""

    __toml_name__ = "module"
    id: str
    name: str
    summary: str
    data: str = ""


@frozen(kw_only=True)
class ExcludedPair:
    """Two modules that cannot be switched on together (O0.3), and why."""

    __toml_name__ = "excluded"
    modules: tuple[str, ...]
    reason: str


@frozen(kw_only=True)
class ModulesFile:
    module: tuple[Module, ...]
    excluded: tuple[ExcludedPair, ...] = ()


# --- range_bands.toml (optional module O1) --------------------------------------------------


@frozen(kw_only=True)
class TrackTable:
    """O1.1, O1.3: the track's positions and the two start lines."""

    __toml_name__ = "track"
    rule: Literal["O1.1"]
    positions: int = bounds(4, 4)  # one per §3.4 column: Point Blank, Short, Medium, Long
    player_start: int = bounds(0, 9)
    enemy_start: int = bounds(0, 9)


@frozen(kw_only=True)
class TrackMoving:
    """O1.4: the positions a Move shifts (a Sprint: that times the core sprint multiplier)."""

    __toml_name__ = "moving"
    rule: Literal["O1.4"]
    move: int = bounds(1, 9)


@frozen(kw_only=True)
class TrackEquipment:
    """O1.7: the equipment's reaches in positions."""

    __toml_name__ = "equipment"
    rule: Literal["O1.7"]
    thrust_positions: int = bounds(1, 9)
    uplink_range: int = bounds(0, 9)
    barrier_range: int = bounds(0, 9)
    phantom_from: int = bounds(0, 9)


@frozen(kw_only=True)
class TrackCombinations:
    """O1.12: what a position counts as for O5 and O7, and a kick's range."""

    __toml_name__ = "combinations"
    rule: Literal["O1.12"]
    hexes_per_position: int = bounds(1, 10)
    kick_range: int = bounds(0, 9)


@frozen(kw_only=True)
class RangeBandsFile:
    """data/range_bands.toml: every number of module O1, each table with its rule id."""

    module: Literal["O1"]
    track: TrackTable
    moving: TrackMoving
    equipment: TrackEquipment
    combinations: TrackCombinations


# --- elevation.toml (optional module O2) ----------------------------------------------------


@frozen(kw_only=True)
class ElevationLevels:
    """O2.1: the range of a hex's ground level."""

    __toml_name__ = "levels"
    rule: Literal["O2.1"]
    min: int = bounds(0, 0)
    max: int = bounds(1, 9)


@frozen(kw_only=True)
class ElevationGeneration:
    """O2.2: the rates' unit and how mesas are placed."""

    __toml_name__ = "generation"
    rule: Literal["O2.2"]
    per_interior: int = bounds(1, 1000)
    mesa_clear: int = bounds(1, 10)
    mesa_extra_min: int = bounds(0, 6)
    mesa_extra_max: int = bounds(0, 6)


@frozen(kw_only=True)
class ElevationLandscape:
    """O2.2's table: hills per 100 interior hexes and their peaks, mesas and their level."""

    __toml_name__ = "landscape"
    rule: Literal["O2.2"]
    id: LandscapeId
    hills: int = bounds(0, 100)
    peak_min: int = bounds(0, 9)
    peak_max: int = bounds(0, 9)
    mesas: int = bounds(0, 100)
    mesa_level: int = bounds(0, 9)


@frozen(kw_only=True)
class ElevationMovement:
    """O2.3: the climb's extra cost and the largest step a walking frame takes."""

    __toml_name__ = "movement"
    rule: Literal["O2.3"]
    climb_cost: int = bounds(0, 10)
    max_step: int = bounds(0, 9)


@frozen(kw_only=True)
class ElevationJump:
    """O2.4: a jump's reach counts each level up."""

    __toml_name__ = "jump"
    rule: Literal["O2.4"]
    reach_per_level_up: int = bounds(0, 10)


@frozen(kw_only=True)
class ElevationLine:
    """O2.6: the eye and target points above twice a height, in half-levels."""

    __toml_name__ = "height_line"
    rule: Literal["O2.6"]
    eye: int = bounds(0, 10)
    target: int = bounds(-10, 10)
    structure_target: int = bounds(-10, 10)


@frozen(kw_only=True)
class ElevationModifier:
    """O2.7: `height` per level of difference, and its clamp."""

    __toml_name__ = "height_modifier"
    rule: Literal["O2.7"]
    per_level: int = bounds(0, 100)
    clamp: int = bounds(0, 100)


@frozen(kw_only=True)
class ElevationFalling:
    """O2.8: damage per level fallen, where it lands, and where when that is destroyed."""

    __toml_name__ = "falling"
    rule: Literal["O2.8"]
    damage_per_level: int = bounds(0, 100)
    location: LocationId
    fallback: LocationId


@frozen(kw_only=True)
class ElevationFile:
    """data/elevation.toml: every number of module O2, each table with its rule id."""

    module: Literal["O2"]
    levels: ElevationLevels
    generation: ElevationGeneration
    landscape: tuple[ElevationLandscape, ...]
    movement: ElevationMovement
    jump: ElevationJump
    height_line: ElevationLine
    height_modifier: ElevationModifier
    falling: ElevationFalling

    def of(self, landscape_id: str) -> ElevationLandscape:
        """The O2.2 row of a landscape (KeyError if none)."""
        for row in self.landscape:
            if row.id == landscape_id:
                return row
        raise KeyError(landscape_id)


# --- third_parties.toml (optional module O10) -----------------------------------------------

ThirdSide = Literal["player", "ally", "neutral", "enemy"]


@frozen(kw_only=True)
class ThirdGeneration:
    """O10.1: the d100 bands: 1..ally_max an allied lance, ..neutral_max a neutral one."""

    __toml_name__ = "generation"
    rule: Literal["O10.1"]
    ally_max: int = bounds(0, 100)
    neutral_max: int = bounds(0, 100)


@frozen(kw_only=True)
class ThirdAlly:
    """O10.1's allied row: frames, classes (a §16.1 row) and pilots (a §16.1 row)."""

    __toml_name__ = "ally"
    rule: Literal["O10.1"]
    small_max_difficulty: int = bounds(0, 9)
    small_frames: int = bounds(1, 4)
    small_class: ClassId
    frames: int = bounds(1, 4)
    class_row_offset: int = bounds(0, 4)
    pilot_row_offset: int = bounds(0, 4)


@frozen(kw_only=True)
class ThirdNeutral:
    """O10.1's neutral row: frames, the classes drawn from, and the pilots' §16.1 row."""

    __toml_name__ = "neutral"
    rule: Literal["O10.1"]
    small_max_difficulty: int = bounds(0, 9)
    small_frames: int = bounds(1, 4)
    frames: int = bounds(1, 4)
    classes: tuple[ClassId, ...]
    pilot_row_offset: int = bounds(0, 4)


@frozen(kw_only=True)
class ThirdInitiative:
    """O10.3: the segments' order, the initiative's tie-break after Speed and Piloting."""

    __toml_name__ = "initiative"
    rule: Literal["O10.3"]
    segments: tuple[ThirdSide, ...]


@frozen(kw_only=True)
class ThirdAI:
    """O10.5: a third party's stance, target priority and withdrawal rule."""

    rule: Literal["O10.5"]
    stance: Literal["aggressive", "balanced", "defensive"]
    priority: Literal["focus_fire", "spread_damage", "threat", "opportunity"]
    withdrawal: Literal["never", "at_50", "at_25"]


@frozen(kw_only=True)
class ThirdRewards:
    """O10.7: the reward with an allied lance."""

    __toml_name__ = "rewards"
    rule: Literal["O10.7"]
    ally_reward_percent: int = bounds(0, 100)


@frozen(kw_only=True)
class ThirdPartiesFile:
    """data/third_parties.toml: every number of module O10, each table with its rule id."""

    module: Literal["O10"]
    generation: ThirdGeneration
    ally: ThirdAlly
    neutral: ThirdNeutral
    initiative: ThirdInitiative
    ally_ai: ThirdAI
    neutral_ai: ThirdAI
    rewards: ThirdRewards


# --- facing.toml (optional module O4) -------------------------------------------------------
DirectionName = Literal["E", "NE", "NW", "W", "SW", "SE"]
ArcId = Literal["front", "left", "right", "rear"]


@frozen(kw_only=True)
class FacingDeployment:
    """O4.1: the facing each side's frames are placed with by default."""

    __toml_name__ = "deployment"
    rule: Literal["O4.1"]
    player: DirectionName
    enemy: DirectionName
    ally: DirectionName  # O10's third parties (ruling O4f)
    neutral: DirectionName


@frozen(kw_only=True)
class FacingMove:
    """O4.2: after a Move or Sprint, the last step's direction or this many hexsides either side."""

    __toml_name__ = "move"
    rule: Literal["O4.2"]
    spread: int = bounds(0, 3)


@frozen(kw_only=True)
class FacingReverse:
    """O4.3: the directions (facing + k, mod 6) a reverse Move may step in."""

    __toml_name__ = "reverse"
    rule: Literal["O4.3"]
    steps: tuple[int, ...] = bounds(0, 5)


@frozen(kw_only=True)
class FacingPivot:
    """O4.5: the free pivot, once per activation."""

    __toml_name__ = "pivot"
    rule: Literal["O4.5"]
    hexsides: int = bounds(1, 3)
    ap: int = bounds(0, 10)
    energy: int = bounds(0, 100)


@frozen(kw_only=True)
class FacingTurn:
    """O4.6: Turn, any facing."""

    __toml_name__ = "turn"
    rule: Literal["O4.6"]
    ap: int = bounds(0, 10)
    energy: int = bounds(0, 100)


@frozen(kw_only=True)
class FacingRear:
    """O4.9: the `rear` hit-chance entry."""

    __toml_name__ = "rear"
    rule: Literal["O4.9"]
    modifier: int = bounds(-100, 100)


@frozen(kw_only=True)
class MountArcs:
    """O4.8: the arcs a mount location's weapons fire into."""

    __toml_name__ = "mount"
    rule: Literal["O4.8"]
    location: MountId
    arcs: tuple[ArcId, ...]


@frozen(kw_only=True)
class ArcHitTable:
    """O4.9: hit location weights for an attacker in one arc (they sum to 100)."""

    __toml_name__ = "hit_table"
    rule: Literal["O4.9"]
    arc: ArcId
    head: int = bounds(0, 100)
    center_torso: int = bounds(0, 100)
    left_torso: int = bounds(0, 100)
    right_torso: int = bounds(0, 100)
    left_arm: int = bounds(0, 100)
    right_arm: int = bounds(0, 100)
    legs: int = bounds(0, 100)

    def weight(self, location: str) -> int:
        value: int = getattr(self, location)
        return value


@frozen(kw_only=True)
class FacingFile:
    """data/facing.toml: every number of module O4, each table with its rule id."""

    module: Literal["O4"]
    deployment: FacingDeployment
    move: FacingMove
    reverse: FacingReverse
    pivot: FacingPivot
    turn: FacingTurn
    rear: FacingRear
    mount: tuple[MountArcs, ...]
    hit_table: tuple[ArcHitTable, ...]

    def arcs_of(self, location: str) -> tuple[str, ...]:
        """The O4.8 arcs of a mount location (KeyError if none)."""
        for row in self.mount:
            if row.location == location:
                return row.arcs
        raise KeyError(location)

    def table(self, arc: str) -> ArcHitTable:
        """The O4.9 row of an arc (KeyError if none)."""
        for row in self.hit_table:
            if row.arc == arc:
                return row
        raise KeyError(arc)


# ---- optional module O5: movement and fire (data/moving_fire.toml) -------------------------
@frozen(kw_only=True)
class MovingPenalty:
    """O5.2: `moving` = -(base + per_hex x n) once the shooter moved n >= 1 hexes."""

    __toml_name__ = "moving"
    rule: Literal["O5.2"]
    base: int = bounds(0, 100)
    per_hex: int = bounds(0, 100)


@frozen(kw_only=True)
class MovingStabilised:
    """O5.3: a working Gyro Stabilizer: `moving` = -per_step x floor(n / hexes)."""

    __toml_name__ = "stabilised"
    rule: Literal["O5.3"]
    hexes: int = bounds(1, 20)
    per_step: int = bounds(0, 100)


@frozen(kw_only=True)
class FastTarget:
    """O5.5: m >= from_hexes: `fast target` = -(base + per_step x floor((m - from) / hexes))."""

    __toml_name__ = "fast_target"
    rule: Literal["O5.5"]
    from_hexes: int = bounds(1, 100)
    base: int = bounds(0, 100)
    hexes: int = bounds(1, 20)
    per_step: int = bounds(0, 100)


@frozen(kw_only=True)
class MovingFireFile:
    """data/moving_fire.toml: every number of module O5, each table with its rule id."""

    module: Literal["O5"]
    moving: MovingPenalty
    stabilised: MovingStabilised
    fast_target: FastTarget


# ---- optional module O7: kicks and stun (data/kicks.toml) ----------------------------------
@frozen(kw_only=True)
class KickAction:
    """O7.1: the Kick's AP, its reach, the largest height difference (O2), kicks a activation."""

    __toml_name__ = "kick"
    rule: Literal["O7.1"]
    ap: int = bounds(0, 10)
    distance: int = bounds(1, 1)
    max_climb: int = bounds(0, 9)
    per_activation: int = bounds(1, 10)


@frozen(kw_only=True)
class KickChance:
    """O7.2: `kick`, `piloting` per point of Piloting, `actuator` per leg actuator hit."""

    __toml_name__ = "chance"
    rule: Literal["O7.2"]
    base: int = bounds(0, 100)
    piloting: int = bounds(0, 20)
    leg_actuator: int = bounds(0, 100)


@frozen(kw_only=True)
class KickDamage:
    """O7.3: floor(Tonnage / tonnage_divisor) + per_hex x H, H at most max_hexes."""

    __toml_name__ = "damage"
    rule: Literal["O7.3"]
    tonnage_divisor: int = bounds(1, 100)
    per_hex: int = bounds(0, 100)
    max_hexes: int = bounds(0, 100)


@frozen(kw_only=True)
class KickLocation:
    """O7.4: one row of the kick's hit-location table."""

    __toml_name__ = "location"
    rule: Literal["O7.4"]
    id: LocationId
    weight: int = bounds(0, 100)


@frozen(kw_only=True)
class StunRule:
    """O7.6: the `stunned` and `dazed` penalties and a Stunned frame's movement."""

    __toml_name__ = "stun"
    rule: Literal["O7.6"]
    stunned: int = bounds(0, 100)
    dazed: int = bounds(0, 100)
    movement_divisor: int = bounds(1, 10)
    movement_min: int = bounds(0, 10)


@frozen(kw_only=True)
class StunThreshold:
    """O7.7: Stunned when the round's structure loss reaches ceil(S / divisor)."""

    __toml_name__ = "threshold"
    rule: Literal["O7.7"]
    divisor: int = bounds(1, 100)


@frozen(kw_only=True)
class KicksFile:
    """data/kicks.toml: every number of module O7, each table with its rule id."""

    module: Literal["O7"]
    kick: KickAction
    chance: KickChance
    damage: KickDamage
    location: tuple[KickLocation, ...]
    stun: StunRule
    threshold: StunThreshold


# --- reaction.toml (optional module O6) -------------------------------------------------------


@frozen(kw_only=True)
class ReactionArming:
    """O6.2: what arming a cone costs, and the directions it may point with O4 on."""

    __toml_name__ = "arming"
    rule: Literal["O6.2"]
    ap: int = bounds(0, 10)
    facing_spread: int = bounds(0, 3)


@frozen(kw_only=True)
class ReactionShot:
    """O6.3: the `reaction` penalty of a triggered cone's shots."""

    __toml_name__ = "reaction"
    rule: Literal["O6.3"]
    penalty: int = bounds(0, 100)


@frozen(kw_only=True)
class ReactionSweep:
    """O6.6: the sweep's cost and its `sweep` penalty."""

    __toml_name__ = "sweep"
    rule: Literal["O6.6"]
    ap: int = bounds(0, 10)
    penalty: int = bounds(0, 100)


@frozen(kw_only=True)
class ReactionFile:
    """data/reaction.toml: every number of module O6, each table with its rule id."""

    module: Literal["O6"]
    arming: ReactionArming
    reaction: ReactionShot
    sweep: ReactionSweep


# --- detection.toml (optional module O8) ----------------------------------------------------


@frozen(kw_only=True)
class DetectionRadiating:
    """O8.2 (a): a frame radiates all round at stress >= ceil(EffectiveOutput / divisor)."""

    __toml_name__ = "radiating"
    rule: Literal["O8.2"]
    stress_divisor: int = bounds(1, 10)


@frozen(kw_only=True)
class DetectionSight:
    """O8.3: a line's penalty (LOS, plus `smoke_per_hex` per smoke hex) that hides a frame."""

    __toml_name__ = "sight"
    rule: Literal["O8.3"]
    hidden_at: int = bounds(1, 200)
    smoke_per_hex: int = bounds(0, 100)


@frozen(kw_only=True)
class DetectionRange:
    """O8.4: visual range, and the equipment that changes it."""

    __toml_name__ = "visual_range"
    rule: Literal["O8.4"]
    base: int = bounds(1, 40)
    damaged: int = bounds(0, 40)
    sensor_array: str
    sensor_array_bonus: int = bounds(0, 40)
    stealth: str
    stealth_cut: int = bounds(0, 40)
    phantom: str
    phantom_range: int = bounds(0, 40)


@frozen(kw_only=True)
class DetectionTargeting:
    """O8.6: the R10 spotter's Sensor Array cut."""

    __toml_name__ = "targeting"
    rule: Literal["O8.6"]
    spotter_sensor_array: str
    spotter_sensor_cut: int = bounds(0, 100)


@frozen(kw_only=True)
class DetectionModifier:
    """O8.7: the `radiating` entry."""

    __toml_name__ = "modifier"
    rule: Literal["O8.7"]
    radiating: int = bounds(0, 100)


@frozen(kw_only=True)
class DetectionFile:
    """data/detection.toml: every number of module O8, each table with its rule id."""

    module: Literal["O8"]
    radiating: DetectionRadiating
    sight: DetectionSight
    visual_range: DetectionRange
    targeting: DetectionTargeting
    modifier: DetectionModifier


# --- formations.toml (optional module O9) ---------------------------------------------------
AbilityId = Literal["battle_plan", "breach_shot", "impossible_turn", "percussive_maintenance"]


@frozen(kw_only=True)
class FormationMembers:
    """O9.2: the fewest members a formation needs."""

    __toml_name__ = "members"
    rule: Literal["O9.2"]
    min: int = bounds(2, 10)


@frozen(kw_only=True)
class SphereRules:
    """O9.4: Defensive Sphere."""

    __toml_name__ = "sphere"
    rule: Literal["O9.4"]
    radius: int = bounds(1, 14)
    pds_radius: int = bounds(1, 14)
    extra_pds_rolls: int = bounds(0, 3)
    mutual_cover: int = bounds(0, 100)


@frozen(kw_only=True)
class LineRules:
    """O9.5: Attack Line."""

    __toml_name__ = "line"
    rule: Literal["O9.5"]
    spacing: int = bounds(1, 14)
    per_member: int = bounds(0, 100)
    max: int = bounds(0, 100)
    flanking: int = bounds(0, 100)


@frozen(kw_only=True)
class ScreenRules:
    """O9.6: Screening."""

    __toml_name__ = "screen"
    rule: Literal["O9.6"]
    screens_min: int = bounds(1, 4)
    screens_max: int = bounds(1, 4)
    reach: int = bounds(1, 14)
    lead: int = bounds(0, 14)
    spread: int = bounds(1, 14)
    bonus: int = bounds(0, 100)
    flanking: int = bounds(0, 100)


@frozen(kw_only=True)
class DispersedRules:
    """O9.7: Dispersed."""

    __toml_name__ = "dispersed"
    rule: Literal["O9.7"]
    spacing: int = bounds(1, 14)
    crossfire: int = bounds(0, 100)


@frozen(kw_only=True)
class CommandRow:
    """O9.8: how many abilities a pilot of this Tactics holds."""

    __toml_name__ = "command"
    rule: Literal["O9.8"]
    tactics_min: int = bounds(1, 10)
    tactics_max: int = bounds(1, 10)
    abilities: int = bounds(0, 4)


@frozen(kw_only=True)
class Ability:
    """O9.9: one once-per-battle ability (FR's captain), in the AI's priority order (O9.8)."""

    __toml_name__ = "ability"
    rule: str
    id: AbilityId
    name: str
    captain: str
    ap: int = bounds(0, 4)


@frozen(kw_only=True)
class BreachShotRules:
    __toml_name__ = "breach_shot"
    rule: Literal["O9.9a"]
    component_high: int = bounds(0, 99)


@frozen(kw_only=True)
class BattlePlanRules:
    __toml_name__ = "battle_plan"
    rule: Literal["O9.9b"]
    bonus: int = bounds(0, 100)


@frozen(kw_only=True)
class MaintenanceRules:
    __toml_name__ = "percussive_maintenance"
    rule: Literal["O9.9c"]
    vent_multiplier: int = bounds(1, 10)


@frozen(kw_only=True)
class FormationAi:
    __toml_name__ = "ai"
    rule: Literal["O9.11"]
    dodge_percent: int = bounds(1, 100)


@frozen(kw_only=True)
class FormationsFile:
    """data/formations.toml: every number of module O9, each table with its rule id."""

    module: Literal["O9"]
    members: FormationMembers
    sphere: SphereRules
    line: LineRules
    screen: ScreenRules
    dispersed: DispersedRules
    command: tuple[CommandRow, ...]
    ability: tuple[Ability, ...]
    breach_shot: BreachShotRules
    battle_plan: BattlePlanRules
    percussive_maintenance: MaintenanceRules
    ai: FormationAi

    def slots(self, tactics: int) -> int:
        """O9.8: the abilities a pilot of `tactics` holds."""
        for row in self.command:
            if row.tactics_min <= tactics <= row.tactics_max:
                return row.abilities
        return 0

    def ability_of(self, ability_id: str) -> Ability:
        for a in self.ability:
            if a.id == ability_id:
                return a
        raise KeyError(ability_id)


# --- objectives.toml (optional module O11) ----------------------------------------------------


#: What an O11.2 entry may need besides a module: nothing, or a hex map (not O1's bands).
OBJECTIVE_NEEDS: tuple[str, ...] = ("none", "map")


@frozen(kw_only=True)
class ObjectiveDraw:
    """O11.1: how many secondary objectives a contract draws, and the hidden one's chance."""

    __toml_name__ = "draw"
    rule: Literal["O11.1"]
    secondary_low: int = bounds(0, 8)
    secondary_high: int = bounds(0, 8)
    low_max: int = bounds(1, 5)
    hidden_chance: int = bounds(0, 100)


@frozen(kw_only=True)
class ObjectiveKind:
    """O11.2: one entry of the catalogue, its bonus (percent of C) and the module it needs."""

    __toml_name__ = "objective"
    id: Literal["OB1", "OB2", "OB3", "OB4", "OB5", "OB6", "OB7", "OB8"]
    name: str
    rule: Literal["O11.2"]
    bonus: int = bounds(0, 100)
    needs: str  # "none", "map" (a hex map) or a module id (OBJECTIVE_NEEDS)
    text: str
    round: int = bounds(0, 60, default=0)
    radius: int = bounds(0, 10, default=0)
    armour_percent: int = bounds(0, 100, default=0)


@frozen(kw_only=True)
class ObjectiveCuts:
    """O11.3: the pay cuts, percent of C."""

    __toml_name__ = "cuts"
    rule: Literal["O11.3"]
    collateral: int = bounds(0, 100)
    collateral_max: int = bounds(0, 100)
    ally_lost: int = bounds(0, 100)
    neutral_killed: int = bounds(0, 100)


@frozen(kw_only=True)
class MissionCostRates:
    """O11.5: credits per point, and the points of structure, shots by size and equipment."""

    __toml_name__ = "costs"
    rule: Literal["O11.5"]
    credits_per_point: int = bounds(0, 10000)
    structure: int = bounds(0, 100)
    small: int = bounds(0, 100)
    medium: int = bounds(0, 100)
    large: int = bounds(0, 100)
    equipment_use: int = bounds(0, 100)

    def tier(self, size: str) -> int:
        """The points of one shot of a weapon of hardpoint `size` (FM tiers I-III)."""
        value: int = getattr(self, size)
        return value


@frozen(kw_only=True)
class DebtRules:
    """O11.7: the lowest credits a deployment may leave."""

    __toml_name__ = "debt"
    rule: Literal["O11.7"]
    floor: int = bounds(-10_000_000, 0)


@frozen(kw_only=True)
class ObjectivesFile:
    """data/objectives.toml: every number of module O11, each table with its rule id."""

    module: Literal["O11"]
    draw: ObjectiveDraw
    objective: tuple[ObjectiveKind, ...]
    cuts: ObjectiveCuts
    costs: MissionCostRates
    debt: DebtRules

    def kind(self, objective_id: str) -> ObjectiveKind:
        """The O11.2 row of an objective id (KeyError if none)."""
        for row in self.objective:
            if row.id == objective_id:
                return row
        raise KeyError(objective_id)
