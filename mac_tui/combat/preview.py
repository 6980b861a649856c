"""What an action would do, before it is taken: pure previews for the battle screen (§3, §5, §7.2).

Every number comes from the engine's own checks: `firing.check_fire` / `plan_fire` decide
which weapons fire and which are skipped (and why), `attack.hit_chance` gives each shot's
named modifiers, `attack.line_of_sight` the intervening hexes (§3.6), `movement.check_move` /
`reach` the legal moves. Nothing here changes the battle.

* `fire_preview` — one group fired at one target: LOS, each weapon's chance and expected
  damage, the energy it draws, overload, AP cost, or the engine's refusal; `fire_expected`
  its expected damage alone.
* `targets` — the living enemies on the map, nearest first.
* `move_preview`, `reach_hexes` — one Move/Sprint, and every hex one could end on now.
* `stress_outlook`, `projected_stress`, `shutdown_thresholds` — what extra energy spent this
  round would do to reactor stress at the end of the round (§5.3, §5.4).
* `expected_damage` — one shot's expected damage (the AI uses it too).
"""

from __future__ import annotations

from typing import Final

from attrs import frozen

from ..catalog import catalog
from ..catalog.records import Weapon
from ..hexgrid import Hex, arc, distance
from . import attack, elevation, stats, track
from .attack import MISSILE, HitChance, hit_chance, intervening
from .firing import check_fire, plan_fire
from .kicks import KICK, KickPlan, check_kick, kick_chance, kick_damage
from .movement import check_move, reach
from .state import Battle, Unit

__all__ = [
    "FirePreview",
    "LosStep",
    "MovePreview",
    "WeaponPreview",
    "expected_damage",
    "fire_expected",
    "fire_preview",
    "move_preview",
    "projected_stress",
    "reach_hexes",
    "shots_left",
    "shutdown_thresholds",
    "stress_outlook",
    "targets",
]

#: Why a destroyed weapon of the group does not fire (`plan_fire` never lists it).
DESTROYED: Final = "destroyed"


# ---- expected damage ---------------------------------------------------------------------
def missile_pass_chance(target: Unit) -> float:
    """The chance a missile hit gets through the target's Point Defense (§7.7.3): each working
    system rolls its own value% to negate it, so two 50% systems let 25% through."""
    return attack.missile_pass_chance(target.equipment)


def expected_damage(chance: int, weapon: Weapon, target: Unit) -> float:
    """One shot's expected damage: ``chance``% of the weapon's damage, a missile's times the
    chance it gets through the target's Point Defense (§7.7.3)."""
    damage = (
        weapon.damage * missile_pass_chance(target) if weapon.type == MISSILE else weapon.damage
    )
    return chance / 100 * damage


def shots_left(unit: Unit, index: int) -> int | None:
    """Shots of ammunition left in weapon ``index`` (None for a weapon that uses none)."""
    ws = unit.weapons[index]
    w = stats.weapon_of(ws)
    if not w.uses_ammo:
        return None
    return ws.ammo // w.ammo_per_shot if w.ammo_per_shot else ws.ammo


# ---- fire --------------------------------------------------------------------------------
@frozen
class LosStep:
    """One intervening hex of the line of fire (§3.6): terrain id and its LOS penalty; `beside`
    the other hex where the line runs along an edge (R29: this one, the worse, counts)."""

    hex: Hex
    terrain: str
    penalty: int
    beside: Hex | None = None
    feature: str | None = None  # O3: the feature on the hex (its penalty is in `penalty`)
    blocks: bool = False  # O3.2: it blocks the line; O2.6: it blocks the height line
    height: int | None = None  # O2: the step's height (None with O2 off)


@frozen
class WeaponPreview:
    """One weapon of the group: its chance (None out of range), expected damage (0 when it
    would not fire), why it is skipped (None when it fires) and shots left (None: no ammo)."""

    index: int
    weapon: str
    name: str
    abbrev: str
    chance: HitChance | None
    expected: float
    skipped: str | None
    ammo: int | None


@frozen
class FirePreview:
    """A group fired at a target. The weapons, energy and expected damage are the plan as it
    would go (`plan_fire`) even when `refusal` says the engine would refuse the order now."""

    attacker: str
    target: str
    group: int
    location: str | None
    distance: int
    los: tuple[LosStep, ...]
    weapons: tuple[WeaponPreview, ...]
    expected: float
    energy: int
    energy_left: int
    energy_after: int
    overload_after: int
    ap_cost: int
    refusal: str | None

    @property
    def firing(self) -> tuple[WeaponPreview, ...]:
        return tuple(w for w in self.weapons if w.skipped is None)

    @property
    def los_penalty(self) -> int:
        return sum(s.penalty for s in self.los)


def los_steps(battle: Battle, a: Hex, b: Hex) -> tuple[LosStep, ...]:
    """The line from `a` to `b` as the previews show it (`attack.intervening`: with O3's
    features and their blocking, O2's heights and blocking)."""
    return tuple(
        LosStep(h.hex, h.terrain, h.penalty, h.beside, h.feature, h.blocks, h.height)
        for h in intervening(battle, a, b)
    )


def fire_ap_cost(location: str | None) -> int:
    ap = catalog().combat.ap_costs
    return ap.called_shot if location is not None else ap.fire_group


def overload_after(unit: Unit, extra_energy: int) -> int:
    """Energy used above the effective output once ``extra_energy`` more is spent (§5.3)."""
    return max(0, unit.energy_used + extra_energy - stats.effective_output(unit))


def fire_preview(
    battle: Battle, unit: Unit, group: int, target_id: str, location: str | None = None
) -> FirePreview:
    """`unit` fires `group` at `target_id` (a called shot at `location` when given): what
    `check_fire` and `plan_fire` say, weapon by weapon, without firing."""
    check = check_fire(battle, unit, group, target_id, location)
    refusal = check if isinstance(check, str) else None
    called = location is not None
    try:
        target: Unit | None = battle.unit(target_id)
    except KeyError:
        target = None
    dist = 0
    los: tuple[LosStep, ...] = ()
    weapons: list[WeaponPreview] = []
    energy = 0
    expected = 0.0
    if target is not None:
        if unit.pos is not None and target.pos is not None:
            dist = elevation.attack_distance(battle, unit.pos, target.pos)
            los = los_steps(battle, unit.pos, target.pos)
        plan = (
            check if not isinstance(check, str) else plan_fire(battle, unit, group, target, called)
        )
        energy = plan.energy
        reasons = dict(plan.skipped)
        for index, ws in enumerate(unit.weapons):
            if ws.group != group:
                continue
            w = stats.weapon_of(ws)
            chance = hit_chance(battle, unit, target, ws, called_shot=called)
            if ws.destroyed:
                skipped: str | None = DESTROYED
            elif index in plan.shots:
                skipped = None
            else:
                skipped = reasons.get(index, "does not fire")
            exp = 0.0
            if skipped is None and chance is not None:
                exp = expected_damage(chance.chance, w, target)
                expected += exp
            weapons.append(
                WeaponPreview(
                    index=index,
                    weapon=ws.weapon,
                    name=w.name,
                    abbrev=w.abbrev,
                    chance=chance,
                    expected=exp,
                    skipped=skipped,
                    ammo=shots_left(unit, index),
                )
            )
    return FirePreview(
        attacker=unit.id,
        target=target_id,
        group=group,
        location=location,
        distance=dist,
        los=los,
        weapons=tuple(weapons),
        expected=expected,
        ap_cost=fire_ap_cost(location),
        refusal=refusal,
        **spending(unit, energy),
    )


def spending(unit: Unit, energy: int) -> dict[str, int]:
    """A preview's energy fields: `energy` spent, `energy_left` before, `energy_after`, the
    `overload_after` it leaves."""
    left = stats.energy_left(unit)
    return {
        "energy": energy,
        "energy_left": left,
        "energy_after": left - energy,
        "overload_after": overload_after(unit, energy),
    }


#: The `group` of a kick's `FirePreview` (O7): a kick is no weapon group.
KICK_GROUP: Final = 0


def kick_preview(battle: Battle, unit: Unit, target_id: str) -> FirePreview:
    """O7: a kick at `target_id` as the target panel shows a shot: one "weapon", the kick,
    with its chance (`kick_chance`) and expected damage (chance x `kick_damage`); `group`
    `KICK_GROUP`; the engine's refusal when `check_kick` says no."""
    check = check_kick(battle, unit, target_id)
    refusal = check if isinstance(check, str) else None
    try:
        target: Unit | None = battle.unit(target_id)
    except KeyError:
        target = None
    chance: HitChance | None = None
    if isinstance(check, KickPlan):
        chance = check.chance
    elif target is not None and target.pos is not None and unit.pos is not None:
        chance = kick_chance(battle, unit, target)
    damage = kick_damage(unit)
    expected = 0.0 if chance is None else chance.chance * damage / 100
    kick = WeaponPreview(
        index=-1,
        weapon=KICK,
        name="Kick",
        abbrev="KICK",
        chance=chance,
        expected=expected,
        skipped=None,
        ammo=None,
    )
    dist = 0
    if target is not None and target.pos is not None and unit.pos is not None:
        dist = distance(unit.pos, target.pos)
    return FirePreview(
        attacker=unit.id,
        target=target_id,
        group=KICK_GROUP,
        location=None,
        distance=dist,
        los=(),
        weapons=(kick,),
        expected=expected,
        ap_cost=catalog().kicks.kick.ap,
        refusal=refusal,
        **spending(unit, stats.move_energy(unit)),
    )


def fire_expected(
    battle: Battle, unit: Unit, group: int, target_id: str, location: str | None = None
) -> float | None:
    """`fire_preview(...).expected` alone, or None where its `refusal` is set: the shots the
    plan fires, in weapon order, each its chance times its damage (what a bot weighing many
    orders asks, without the preview's LOS, per-weapon lines and energy)."""
    check = check_fire(battle, unit, group, target_id, location)
    if isinstance(check, str):
        return None
    target = battle.unit(target_id)
    expected = 0.0
    for index in check.shots:  # ascending: the preview's order of summing
        ws = unit.weapons[index]
        chance = hit_chance(battle, unit, target, ws, called_shot=location is not None)
        if chance is not None:
            expected += expected_damage(chance.chance, stats.weapon_of(ws), target)
    return expected


def targets(battle: Battle, unit: Unit) -> tuple[Unit, ...]:
    """The living frames `unit` may attack on the map (its enemies; with O10 a neutral too,
    `Battle.may_attack`), nearest first (ties, and a frame not yet placed, by id)."""
    enemies = [
        e
        for e in battle.units
        if e.active
        and battle.may_attack(unit.side, e.side)
        and e.pos is not None
        and battle.map.contains(e.pos)
    ]
    here = unit.pos

    def key(e: Unit) -> tuple[int, str]:
        assert e.pos is not None
        return (distance(here, e.pos) if here is not None else 0, e.id)

    return tuple(sorted(enemies, key=key))


# ---- movement ----------------------------------------------------------------------------
@frozen
class MovePreview:
    """A Move (or Sprint) to `hex`: the path (start first), energy, AP; or why not."""

    hex: Hex
    sprint: bool
    path: tuple[Hex, ...]
    energy: int
    ap_cost: int
    energy_after: int
    pullback: bool
    refusal: str | None
    overload_after: int = 0
    warning: str | None = None  # `stress_outlook` of the move's energy
    on_track: bool = False  # O1: `hex` stands for a track position
    facing: int | None = None  # O4.2/O4.3: the facing it ends with (None with O4 off)
    reverse: bool = False  # O4.3

    @property
    def hexes(self) -> int:
        """Hexes walked (0 when refused)."""
        return max(0, len(self.path) - 1)


def move_ap_cost(sprint: bool) -> int:
    ap = catalog().combat.ap_costs
    return ap.sprint if sprint else ap.move


def move_preview(
    battle: Battle,
    unit: Unit,
    hex: Hex,
    sprint: bool,
    reached: dict[Hex, tuple[int, Hex | None]] | None = None,
    *,
    reverse: bool = False,
    facing_name: str = "",
) -> MovePreview:
    """What `check_move` says about moving `unit` to `hex` (`reached` as in `check_move`; O4:
    a `reverse` Move, the facing named)."""
    plan = check_move(battle, unit, hex, sprint, reached, reverse=reverse, facing_name=facing_name)
    left = stats.energy_left(unit)
    ap_cost = move_ap_cost(sprint)
    on_track = track.on(battle)
    if isinstance(plan, str):
        return MovePreview(
            hex, sprint, (), 0, ap_cost, left, False, plan, reverse=reverse, on_track=on_track
        )
    return MovePreview(
        on_track=on_track,
        hex=hex,
        sprint=sprint,
        path=plan.path,
        energy=plan.energy,
        ap_cost=ap_cost,
        energy_after=left - plan.energy,
        pullback=plan.pullback,
        refusal=None,
        overload_after=overload_after(unit, plan.energy),
        facing=plan.facing,
        reverse=reverse,
        warning=stress_outlook(unit, plan.energy),
    )


def reach_hexes(battle: Battle, unit: Unit, sprint: bool, reverse: bool = False) -> frozenset[Hex]:
    """Every hex a Move (or Sprint, or O4.3 reverse Move) could legally end on now (empty when
    it cannot move)."""
    if unit.pos is None or not stats.can_move(unit) or unit.ap < move_ap_cost(sprint):
        return frozenset()
    reached = reach(battle, unit, sprint, reverse)
    return frozenset(
        h
        for h in reached
        if h != unit.pos
        and not isinstance(check_move(battle, unit, h, sprint, reached, reverse=reverse), str)
    )


def arcs_at(battle: Battle, unit: Unit, at: Hex, facing_: int) -> tuple[tuple[Unit, str], ...]:
    """O4.7: each enemy of `unit` on the map and the arc of `unit` (standing at `at`, facing
    `facing_`) it would be in: where its shots would land (the end-of-move preview)."""
    return tuple(
        (e, arc(at, facing_, e.pos))
        for e in battle.foes(unit.side)
        if e.pos is not None and e.pos != at
    )


# ---- reactor -----------------------------------------------------------------------------
def shutdown_thresholds(unit: Unit) -> tuple[int, int]:
    """§5.4: the least stress that risks a shutdown (the effective output) and the least
    that shuts the reactor down for certain (output x auto_shutdown_percent %, rounded up)."""
    r = catalog().combat.reactor
    output = stats.effective_output(unit)
    return output, -(-output * r.auto_shutdown_percent // 100)


def projected_stress(unit: Unit, extra_energy: int = 0) -> int:
    """The frame's stress after this round's end (§5.3, §5.4 dissipation; as
    `flow.end_of_round` computes it for a running reactor) if it spends ``extra_energy``
    more this round."""
    r = catalog().combat.reactor
    output = stats.effective_output(unit)
    stress = unit.stress + overload_after(unit, extra_energy)
    return stress - min(stress, max(r.dissipation_min, output // r.dissipation_divisor))


def stress_outlook(unit: Unit, extra_energy: int) -> str | None:
    """A short warning when spending ``extra_energy`` more this round would overload the
    reactor (§5.3) and what that does to the end-of-round stress and shutdown (§5.4), with
    the numbers; None when the spend adds no overload."""
    output = stats.effective_output(unit)
    added = overload_after(unit, extra_energy) - overload_after(unit, 0)
    if added <= 0:
        return None
    r = catalog().combat.reactor
    chance_at, auto_at = shutdown_thresholds(unit)
    after = projected_stress(unit, extra_energy)
    used = unit.energy_used + extra_energy
    head = f"overload +{added} ({used}/{output} energy): stress {unit.stress} -> {after}"
    if after >= auto_at:
        return f"{head}, AUTOMATIC SHUTDOWN and reactor hit (at {auto_at})"
    if after >= chance_at:
        return f"{head}, {r.shutdown_chance}% shutdown risk (at {chance_at}+)"
    return f"{head} (shutdown risk at {chance_at})"
