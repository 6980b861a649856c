"""Setting up a battle (§6.1-§6.3, §16.1, R12, R17, R18): frames from specs, the enemy lance,
the map and the enemy's deployment."""

from __future__ import annotations

from collections.abc import Sequence

import attrs
from attrs import frozen

from ..catalog import UNIVERSAL, catalog
from ..catalog.records import Chassis, StockLoadout
from ..dice import AI, Dice
from ..ruleset import Ruleset
from . import elevation, facing, track
from .features import generate_features
from .mapgen import generate_map
from .objectives import place_objectives
from .state import (
    Battle,
    EquipmentState,
    Objective,
    PilotSkills,
    Priority,
    Side,
    SideInfo,
    Stance,
    Unit,
    WeaponState,
    WithdrawRule,
)
from .stats import armor_split, full_structure, starting_ammo
from .third_parties import place_neutrals

STANCES: tuple[Stance, ...] = ("aggressive", "balanced", "defensive")
PRIORITIES: tuple[Priority, ...] = ("focus_fire", "spread_damage", "threat", "opportunity")
WITHDRAW_RULES: tuple[WithdrawRule, ...] = ("never", "at_50", "at_25")
#: How a contract, a quick battle and the battle screen name a side's §10.4 rule.
WITHDRAW_TEXT: dict[WithdrawRule, str] = {
    "never": "fights to the end",
    "at_50": "retreats at 50%",
    "at_25": "retreats at 25%",
}


def withdrawal_odds(difficulty: int) -> tuple[tuple[WithdrawRule, int], ...]:
    """The enemy side's §10.4 rules at `difficulty` with their weights (D23, R14: the rule
    follows the difficulty), those that can be drawn only, in `WITHDRAW_RULES` order."""
    w = catalog().enemy_force(difficulty).withdrawal
    weights: dict[WithdrawRule, int] = {"never": w.never, "at_50": w.at_50, "at_25": w.at_25}
    return tuple((rule, weights[rule]) for rule in WITHDRAW_RULES if weights[rule] > 0)


def draw_withdrawal(dice: Dice, stream: str, difficulty: int) -> WithdrawRule:
    """D23: the enemy side's §10.4 rule, drawn with the difficulty's weights."""
    return dice.weighted(stream, withdrawal_odds(difficulty))


def withdrawal_choices_text(difficulty: int) -> str:
    """What the enemy of `difficulty` may do, e.g. `retreats at 25% or 50%, or fights to the
    end` (a quick battle draws it when it is set up)."""
    rules = {rule for rule, _ in withdrawal_odds(difficulty)}
    retreats = [r.removeprefix("at_") + "%" for r in ("at_25", "at_50") if r in rules]
    parts = [f"retreats at {' or '.join(retreats)}"] if retreats else []
    if "never" in rules:
        parts.append(WITHDRAW_TEXT["never"])
    return (", or " if len(retreats) > 1 else " or ").join(parts)


@frozen(kw_only=True)
class MountSpec:
    weapon: str
    mount: str
    group: int


@frozen(kw_only=True)
class FrameSpec:
    """What a frame brings into a battle; armour/structure None = undamaged."""

    chassis: str
    pilot: PilotSkills
    label: str
    weapons: tuple[MountSpec, ...]
    equipment: tuple[tuple[str, str | None], ...] = ()
    armor: tuple[int, ...] | None = None
    structure: tuple[int, ...] | None = None
    stance: Stance = "balanced"
    priority: Priority = "focus_fire"


def build_unit(spec: FrameSpec, unit_id: str, side: Side) -> Unit:
    """A frame enters with ammo (R12), full energy and its loadout, equipment and pilot."""
    cat = catalog()
    chassis = cat.chassis[spec.chassis]
    bins = sum(1 for e, _ in spec.equipment if cat.equipment[e].effect == "bonus_reloads")
    weapons = tuple(
        WeaponState(
            weapon=m.weapon,
            mount=m.mount,
            group=m.group,
            ammo=starting_ammo(cat.weapons[m.weapon], bins),
        )
        for m in spec.weapons
    )
    armor = spec.armor if spec.armor is not None else armor_split(chassis)
    structure = spec.structure if spec.structure is not None else full_structure(chassis)
    return Unit(
        id=unit_id,
        side=side,
        label=spec.label,
        chassis=spec.chassis,
        pilot=spec.pilot,
        weapons=weapons,
        equipment=tuple(EquipmentState(equipment=e, mount=m) for e, m in spec.equipment),
        armor=tuple(armor),
        structure=tuple(structure),
        start_armor=sum(armor),
        start_structure=sum(structure),
        stance=spec.stance,
        priority=spec.priority,
    )


def starting_lance() -> tuple[FrameSpec, ...]:
    """The company's two starting frames with their pilots (§13.3, setup-facts)."""
    cat = catalog()
    pilots = {p.callsign: p for p in cat.pilots.starting_pilot}
    out = []
    for frame in cat.start.frame:
        p = pilots[frame.pilot]
        out.append(
            FrameSpec(
                chassis=frame.chassis,
                pilot=PilotSkills(
                    callsign=p.callsign, gunnery=p.gunnery, piloting=p.piloting, tactics=p.tactics
                ),
                label=p.callsign,
                weapons=tuple(
                    MountSpec(weapon=e.weapon, mount=e.mount, group=e.group) for e in frame.loadout
                ),
            )
        )
    return tuple(out)


def stock_frame(
    dice: Dice,
    chassis: Chassis,
    pilot: PilotSkills,
    label: str,
    stream: str = AI,
    ruleset: Ruleset = (),
) -> FrameSpec:
    """R18: a frame with one of its chassis' stock loadouts, picked at random (a module's
    loadout only while the module is in `ruleset`, O0.11)."""
    loadout = dice.choice(stream, catalog().drawn_loadouts(chassis.designation, ruleset))
    stance = dice.choice(stream, STANCES)
    priority = dice.choice(stream, PRIORITIES)
    return loadout_spec(chassis.designation, loadout, pilot, label, stance, priority)


def loadout_spec(
    chassis: str,
    loadout: StockLoadout,
    pilot: PilotSkills,
    label: str,
    stance: Stance = "balanced",
    priority: Priority = "focus_fire",
) -> FrameSpec:
    """A frame of `chassis` with a stock loadout (R18), its pilot, stance and priority."""
    return FrameSpec(
        chassis=chassis,
        pilot=pilot,
        label=label,
        weapons=tuple(
            MountSpec(weapon=e.weapon, mount=e.mount, group=e.group) for e in loadout.weapons
        ),
        equipment=(
            *((e, None) for e in loadout.equipment),
            *((f.equipment, f.mount) for f in loadout.slots),
        ),
        stance=stance,
        priority=priority,
    )


def pick_chassis(dice: Dice, frame_class: str, faction: str | None, stream: str = AI) -> Chassis:
    """§16.1, R17: 70% the opponent faction's chassis of the class when it has one; otherwise a
    universal chassis of the class, or any of the class when none is universal (D12)."""
    cat = catalog()
    of_class = [c for c in cat.chassis.values() if c.class_ == frame_class]
    own = [c for c in of_class if faction is not None and c.faction == faction]
    universal = [c for c in of_class if c.faction == UNIVERSAL]
    roll = dice.chance(stream, cat.missions.contracts.faction_chassis_chance)
    if own and roll:
        return dice.choice(stream, own)
    return dice.choice(stream, universal or of_class)


def enemy_lance(
    dice: Dice, difficulty: int, faction: str | None, stream: str = AI, ruleset: Ruleset = ()
) -> tuple[FrameSpec, ...]:
    """§16.1: the enemy force and its pilots for a difficulty (R17: the table exactly)."""
    cat = catalog()
    force = cat.enemy_force(difficulty)
    frames = []
    for i, frame_class in enumerate(force.classes, start=1):
        chassis = pick_chassis(dice, frame_class, faction, stream)
        pilot = PilotSkills(
            callsign=f"Hostile-{i}",
            gunnery=force.gunnery,
            piloting=force.piloting,
            tactics=force.tactics,
        )
        label = f"{chassis.name.upper()}-{i}"
        frames.append(stock_frame(dice, chassis, pilot, label, stream, ruleset))
    return tuple(frames)


def new_battle(
    dice: Dice,
    *,
    difficulty: int,
    landscape: str,
    player: Sequence[FrameSpec],
    enemy: Sequence[FrameSpec],
    player_ai: bool = False,
    player_withdrawal: WithdrawRule = "never",
    enemy_withdrawal: WithdrawRule | None = None,
    ruleset: Ruleset = (),
    allies: Sequence[FrameSpec] = (),
    neutrals: Sequence[FrameSpec] = (),
    objectives: Sequence[Objective] = (),
) -> Battle:
    """The map (§6.1-§6.2), the frames, and the enemy deployed in its two columns (§6.3). The
    enemy side withdraws by `enemy_withdrawal` (a contract's), else by a rule drawn with the
    difficulty's weights (D23). The battle is played under `ruleset` (O0.1). With O10, an
    allied or neutral lance (O10.1) joins as its own AI side after the enemy's, the neutrals
    placed in the middle columns from the `map` stream (O10.4; the allies are placed when the
    player starts the battle). With O1 on there is no map but the track, and every frame starts
    on its side's line, the allies on the player's (O1.1, O1.3, O1.12). With O11 its
    `objectives` are placed on the map (OB5's hex, OB6's building) and its tally opened."""
    on_track = track.O1 in ruleset
    bmap = track.track_map() if on_track else generate_map(dice, difficulty, landscape)
    if elevation.O2 in ruleset:  # O2.2: levels from their own stream (O0.6)
        bmap = elevation.with_levels(bmap, dice, landscape)
    units = [build_unit(s, f"P{i}", "player") for i, s in enumerate(player, start=1)]
    units += [build_unit(s, f"E{i}", "enemy") for i, s in enumerate(enemy, start=1)]
    if on_track:  # O1.3: all at Long, no deployment (ruling O1a)
        units = [attrs.evolve(u, pos=track.at(track.start_line(u.side))) for u in units]
    else:
        zone = dice.shuffle(AI, bmap.deployment_hexes("enemy"))
        for i, unit in enumerate(units):
            if unit.side == "enemy":
                units[i] = attrs.evolve(unit, pos=zone.pop())
    rule = enemy_withdrawal or draw_withdrawal(dice, AI, difficulty)
    sides = [
        SideInfo(side="player", ai=player_ai, withdrawal=player_withdrawal),
        SideInfo(side="enemy", ai=True, withdrawal=rule),
    ]
    third = catalog().third_parties if (allies or neutrals) else None
    if third is not None:  # O10.2, O10.5
        home = track.at(track.start_line("ally")) if on_track else None  # O1.12: allies at 0
        units += [
            attrs.evolve(build_unit(s, f"A{i}", "ally"), pos=home)
            for i, s in enumerate(allies, start=1)
        ]
        units += [build_unit(s, f"N{i}", "neutral") for i, s in enumerate(neutrals, start=1)]
        if allies:
            sides.append(SideInfo(side="ally", ai=True, withdrawal=third.ally_ai.withdrawal))
        if neutrals:
            sides.append(SideInfo(side="neutral", ai=True, withdrawal=third.neutral_ai.withdrawal))
    if "O4" in ruleset:  # O4.1: each side's default facing (no draw; O10's third
        # parties too, ruling O4f)
        units = [attrs.evolve(u, facing=facing.default_facing(u.side)) for u in units]
    battle = Battle(
        map=bmap,
        units=tuple(units),
        sides=tuple(sides),
        difficulty=difficulty,
        landscape=landscape,
        ruleset=ruleset,
        # O3.4: the features, from their own stream (O0.6), after the terrain
        structures=(
            generate_features(dice, bmap, landscape, levels="O2" in ruleset)
            if "O3" in ruleset
            else ()
        ),
    )
    battle = place_neutrals(battle, dice) if neutrals else battle
    return place_objectives(battle, objectives)
