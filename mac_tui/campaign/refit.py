"""The refit bay (§7.1-§7.8, §5.1-§5.3): loadout legality, staged changes, the reactor budget.

A refit names a frame's whole new loadout (`refit F1 WEAPONS [EQUIPMENT]`); the handler works
out what changes, takes new items from the inventory, puts removed ones back, charges 500
credits and one day of bay time per install or removal (§7.8) and keeps the frame busy for
those days. Weapon groups cost nothing to change (§7.2), through `refit` or `regroup`.

Counting changes (§7.8). Items are matched per (item id, location), as multisets: for each
key, the extra copies in the new loadout are installs and the missing ones are removals. A
weapon that stays at its location only changing group is therefore free; a weapon moved to
another location is a removal plus an install (two changes, two days), because the bay
unbolts it and mounts it again. The inventory only sees the net change per item id: the
moved weapon comes off one hardpoint and goes onto the other, so it needs no spare copy
(`inventory_delta`). Refusals never change anything.

Rulings made here (see the tests in tests/test_refit.py):
- a refit whose only changes are groups is free and instant, and allowed while the frame is
  busy in the repair or refit bay, like `regroup` (§7.2 "no cost or time");
- a refit identical to the current loadout (same items, locations and groups, in any order)
  is refused as "nothing to change";
- a refit lists the whole loadout: an omitted equipment list means no equipment;
- destroyed frames cannot be refitted (rebuild first), deployed ones neither.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence

import attrs
from attrs import frozen

from ..catalog import LOCATION_ORDER, SIZES, catalog
from ..catalog.records import Chassis
from ..core import Checks, Event, Handlers
from ..dice import Dice
from . import ledger
from .commands import Refit, Regroup
from .common import Change, campaign_checks, campaign_handler, split
from .events import Report
from .state import Campaign, Fitting, Frame, Mount, add_count, count_of

Key = tuple[str, str | None]  # (item id, location or None)


# ---- text form ---------------------------------------------------------------------------
def location_id(token: str) -> str | None:
    """A location id from its id (`right_arm`) or abbreviation (`RA`, any case), else None."""
    for loc in catalog().combat.location:
        if token == loc.id or token.upper() == loc.abbrev:
            return loc.id
    return None


def _location_choices() -> str:
    return ", ".join(f"{loc.id} ({loc.abbrev})" for loc in catalog().combat.location)


def parse_loadout(
    weapons_text: str, equipment_text: str
) -> tuple[tuple[Mount, ...], tuple[Fitting, ...]] | str:
    """Parse the `refit` text: weapons as `weapon@mount:group`, equipment as `id` or `id@mount`
    (slot equipment), each list joined by `+` (`-` = none). Locations may be ids or their
    abbreviations. Only the syntax is checked here; `check_loadout` judges the loadout."""
    weapon_form = "write weapons as weapon@location:group, e.g. medium_laser@right_arm:1"
    mounts: list[Mount] = []
    for item in split(weapons_text):
        name, at, rest = item.partition("@")
        where, colon, group_text = rest.partition(":")
        if not name or not at or not colon or not where:
            return f"weapon {item!r}: {weapon_form}"
        loc = location_id(where)
        if loc is None:
            return f"weapon {item!r}: no location {where!r} (choose from {_location_choices()})"
        try:
            group = int(group_text)
        except ValueError:
            return f"weapon {item!r}: the group must be a whole number, not {group_text!r}"
        mounts.append(Mount(weapon=name, mount=loc, group=group))
    fittings: list[Fitting] = []
    for item in split(equipment_text):
        name, at, where = item.partition("@")
        if not name or (at and not where):
            return f"equipment {item!r}: write equipment as id, or id@location for slot equipment"
        mount: str | None = None
        if at:
            mount = location_id(where)
            if mount is None:
                return (
                    f"equipment {item!r}: no location {where!r} (choose from {_location_choices()})"
                )
        fittings.append(Fitting(equipment=name, mount=mount))
    return tuple(mounts), tuple(fittings)


def loadout_text(mounts: Iterable[Mount], fittings: Iterable[Fitting]) -> tuple[str, str]:
    """The `refit` command's WEAPONS and EQUIPMENT texts for a loadout (inverse of parse)."""
    weapons = "+".join(f"{m.weapon}@{m.mount}:{m.group}" for m in mounts) or "-"
    equipment = (
        "+".join(f.equipment if f.mount is None else f"{f.equipment}@{f.mount}" for f in fittings)
        or "-"
    )
    return weapons, equipment


# ---- legality ----------------------------------------------------------------------------
def _loc_name(location: str) -> str:
    return catalog().location(location).name


def _where_size(chassis: Chassis, size: str) -> str:
    mounts = chassis.hardpoints.of(size)
    if not mounts:
        return f"the {chassis.name} has no {size} hardpoints"
    return f"{size} hardpoints: {', '.join(_loc_name(m) for m in mounts)}"


def check_loadout(
    chassis: Chassis, mounts: Sequence[Mount], fittings: Sequence[Fitting]
) -> str | None:
    """Why this loadout cannot go on this chassis, or None when it can (§7.1-§7.7).

    Every weapon sits on a hardpoint of its own size at its location (§7.1, no cross-fitting,
    §7.6: only the locations the chassis lists, so never the legs); slot equipment takes a
    hardpoint of its slot size the same way and competes with weapons for it; passive and
    active equipment takes none (§7.7.1); per location and size no more items than the chassis
    has hardpoints there; groups run 1 to 4 (§7.2); the space of weapons and equipment together
    stays within the chassis' space (§7.5)."""
    cat = catalog()
    groups = cat.combat.loadout.weapon_groups
    used: Counter[tuple[str, str]] = Counter()
    space = 0

    def take(name: str, size: str, location: str) -> str | None:
        total = chassis.hardpoints.of(size).count(location)
        used[size, location] += 1
        if total == 0:
            return (
                f"{name} needs a {size} hardpoint; the {chassis.name} has none at "
                f"{_loc_name(location)} ({_where_size(chassis, size)})"
            )
        if used[size, location] > total:
            return (
                f"{name} does not fit: the {chassis.name} has only {total} {size} "
                f"hardpoint(s) at {_loc_name(location)}, already taken"
            )
        return None

    for m in mounts:
        w = cat.weapons.get(m.weapon)
        if w is None:
            if m.weapon in cat.equipment:
                return f"{m.weapon} is equipment: list it with the equipment"
            return f"no weapon {m.weapon!r}"
        if not 1 <= m.group <= groups:
            return f"{w.name}: weapon groups run 1 to {groups}, not {m.group}"
        reason = take(w.name, w.size, m.mount)
        if reason:
            return reason
        space += w.space
    for f in fittings:
        e = cat.equipment.get(f.equipment)
        if e is None:
            if f.equipment in cat.weapons:
                return f"{f.equipment} is a weapon: list it with the weapons"
            return f"no equipment {f.equipment!r}"
        if e.category == "slot":
            if f.mount is None:
                return (
                    f"{e.name} is slot equipment: give it a {e.slot_size} hardpoint "
                    f"({f.equipment}@location; {_where_size(chassis, e.slot_size)})"
                )
            reason = take(e.name, e.slot_size, f.mount)
            if reason:
                return reason
        elif f.mount is not None:
            return f"{e.name} is {e.category} equipment and takes no hardpoint: list it bare"
        space += e.space
    if space > chassis.space:
        return f"the loadout needs {space} space; the {chassis.name} has {chassis.space}"
    return None


# ---- counting changes --------------------------------------------------------------------
def _weapon_keys(mounts: Iterable[Mount]) -> Counter[Key]:
    return Counter((m.weapon, m.mount) for m in mounts)


def _equipment_keys(fittings: Iterable[Fitting]) -> Counter[Key]:
    return Counter((f.equipment, f.mount) for f in fittings)


def _diff(old: Counter[Key], new: Counter[Key]) -> tuple[tuple[Key, ...], tuple[Key, ...]]:
    """(installs, removals) as keys, one per copy, sorted for a stable report."""
    installs = sorted((new - old).elements(), key=_sort_key)
    removals = sorted((old - new).elements(), key=_sort_key)
    return tuple(installs), tuple(removals)


def _sort_key(key: Key) -> tuple[str, str]:
    return key[0], key[1] or ""


def changes(old_frame: Frame, new_mounts: Sequence[Mount], new_fittings: Sequence[Fitting]) -> int:
    """§7.8: installs plus removals between the frame's loadout and the new one. Items are
    matched per (id, location), so a weapon that only changes group costs nothing."""
    w_in, w_out = _diff(_weapon_keys(old_frame.weapons), _weapon_keys(new_mounts))
    e_in, e_out = _diff(_equipment_keys(old_frame.equipment), _equipment_keys(new_fittings))
    return len(w_in) + len(w_out) + len(e_in) + len(e_out)


def inventory_delta(old: Iterable[str], new: Iterable[str]) -> dict[str, int]:
    """Per item id, how the inventory changes (+ back to it, - taken from it): the old
    count on the frame minus the new one. A weapon moved between locations nets to zero."""
    delta: Counter[str] = Counter(old)
    delta.subtract(Counter(new))
    return {item: n for item, n in sorted(delta.items()) if n}


@frozen(kw_only=True)
class RefitPlan:
    """A staged refit, previewed before it is confirmed (§7.8)."""

    frame: Frame  # as it is now
    weapons: tuple[Mount, ...]
    equipment: tuple[Fitting, ...]
    installs: tuple[str, ...]  # "Item (Location)", one per change
    removals: tuple[str, ...]
    changes: int
    cost: int
    days: int
    weapon_delta: tuple[tuple[str, int], ...]  # inventory change per weapon id
    equipment_delta: tuple[tuple[str, int], ...]

    @property
    def group_only(self) -> bool:
        return self.changes == 0


def _key_text(key: Key) -> str:
    """`Light Laser (Head)`, or just the name for equipment without a hardpoint."""
    cat = catalog()
    item = cat.weapons.get(key[0]) or cat.equipment[key[0]]
    return item.name if key[1] is None else f"{item.name} ({_loc_name(key[1])})"


def deployed(campaign: Campaign, frame_id: str) -> bool:
    """Whether the frame is out on the current mission."""
    m = campaign.mission
    return m is not None and any(fid == frame_id for _, fid in m.frames)


def busy_reason(frame: Frame) -> str | None:
    """Why the frame is unavailable for bay work (repair or refit days left), or None."""
    if frame.busy_days <= 0:
        return None
    bay = "repair" if frame.status == "repairing" else "refit"
    return f"{frame.name} is in the {bay} bay for {frame.busy_days} more day(s)"


def refit_refusal(campaign: Campaign, frame_id: str) -> str | None:
    """Why nothing at all can be changed on this frame's loadout now, not even a weapon group
    (no such frame, destroyed, deployed), or None. Bay work (installs and removals) also needs
    the frame out of the bays: see `busy_reason`."""
    try:
        frame = campaign.frame(frame_id)
    except KeyError:
        return f"no frame {frame_id}"
    if frame.status == "destroyed":
        return f"{frame.name} is destroyed: rebuild it first (repair {frame.id})"
    if deployed(campaign, frame.id):
        return f"{frame.name} is deployed on a mission"
    return None


def _same_loadout(frame: Frame, mounts: Sequence[Mount], fittings: Sequence[Fitting]) -> bool:
    """Same weapons at the same locations in the same groups, same equipment, any order."""

    def grouped(ms: Iterable[Mount]) -> Counter[tuple[str, str, int]]:
        return Counter((m.weapon, m.mount, m.group) for m in ms)

    same_weapons = grouped(frame.weapons) == grouped(mounts)
    return same_weapons and _equipment_keys(frame.equipment) == _equipment_keys(fittings)


def plan_refit(
    campaign: Campaign, frame_id: str, mounts: Sequence[Mount], fittings: Sequence[Fitting]
) -> RefitPlan | str:
    """Stage a refit of `frame_id` to this loadout: the plan, or why it cannot be done."""
    reason = refit_refusal(campaign, frame_id)
    if reason:
        return reason
    frame = campaign.frame(frame_id)
    reason = check_loadout(catalog().chassis[frame.chassis], mounts, fittings)
    if reason:
        return reason
    if _same_loadout(frame, mounts, fittings):
        return "nothing to change"
    w_in, w_out = _diff(_weapon_keys(frame.weapons), _weapon_keys(mounts))
    e_in, e_out = _diff(_equipment_keys(frame.equipment), _equipment_keys(fittings))
    n = len(w_in) + len(w_out) + len(e_in) + len(e_out)
    if n:
        reason = busy_reason(frame)
        if reason:
            return reason
    w_delta = inventory_delta((m.weapon for m in frame.weapons), (m.weapon for m in mounts))
    e_delta = inventory_delta(
        (f.equipment for f in frame.equipment), (f.equipment for f in fittings)
    )
    for stock, delta in ((campaign.weapons, w_delta), (campaign.equipment, e_delta)):
        for item, d in delta.items():
            have = count_of(stock, item)
            if have + d < 0:
                name = _key_text((item, None))
                return f"the refit needs {-d} {name} from the inventory; it holds {have}"
    prices = catalog().economy.prices
    cost = n * prices.refit_cost
    reason = ledger.short_of(campaign, cost)
    if reason:
        return reason
    return RefitPlan(
        frame=frame,
        weapons=tuple(mounts),
        equipment=tuple(fittings),
        installs=tuple(_key_text(k) for k in (*w_in, *e_in)),
        removals=tuple(_key_text(k) for k in (*w_out, *e_out)),
        changes=n,
        cost=cost,
        days=n * prices.refit_days,
        weapon_delta=tuple(w_delta.items()),
        equipment_delta=tuple(e_delta.items()),
    )


def apply_refit(campaign: Campaign, plan: RefitPlan) -> tuple[Campaign, list[Event]]:
    """Carry out a plan from `plan_refit` on the same campaign."""
    weapons, equipment = campaign.weapons, campaign.equipment
    for item, d in plan.weapon_delta:
        weapons = add_count(weapons, item, d)
    for item, d in plan.equipment_delta:
        equipment = add_count(equipment, item, d)
    frame = attrs.evolve(
        plan.frame,
        weapons=plan.weapons,
        equipment=plan.equipment,
        busy_days=plan.frame.busy_days + plan.days,
    )
    campaign = attrs.evolve(campaign, weapons=weapons, equipment=equipment).with_frame(frame)
    events: list[Event] = []
    if plan.group_only:
        text = f"{frame.name}: weapon groups reassigned (free)."
        return campaign, [Report(topic="refit", text=text)]
    campaign, moved = ledger.post(
        campaign, "refit", -plan.cost, f"Refit of {frame.name}: {plan.changes} change(s)"
    )
    events.append(moved)
    parts = []
    if plan.installs:
        parts.append(f"installed {', '.join(plan.installs)}")
    if plan.removals:
        parts.append(f"removed {', '.join(plan.removals)}")
    text = f"{frame.name} goes into the refit bay for {plan.days} day(s): {'; '.join(parts)}."
    events.append(Report(topic="refit", text=text))
    return campaign, events


KEEP = "keep"  # the `refit` command's equipment left out: keep what is fitted


def refit_plan(campaign: Campaign, cmd: Refit) -> RefitPlan | str:
    """The plan of a `refit` command, or why it is illegal now."""
    equipment = cmd.equipment
    if equipment == KEEP:
        try:
            frame = campaign.frame(cmd.frame)
        except KeyError:
            return f"no frame {cmd.frame}"
        equipment = loadout_text((), frame.equipment)[1]
    parsed = parse_loadout(cmd.weapons, equipment)
    if isinstance(parsed, str):
        try:
            campaign.frame(cmd.frame)
        except KeyError:
            return f"no frame {cmd.frame}"
        return parsed
    return plan_refit(campaign, cmd.frame, *parsed)


def _refit(campaign: Campaign, cmd: Refit, dice: Dice) -> Change | str:
    plan = refit_plan(campaign, cmd)
    if isinstance(plan, str):
        return plan
    return apply_refit(campaign, plan)


def regroup_refusal(campaign: Campaign, frame_id: str, index: int, group: int) -> str | None:
    """§7.2: free and instant; allowed while the frame is in the repair or refit bay (a group
    is a fire-control setting, not bay work), not on destroyed or deployed frames."""
    try:
        frame = campaign.frame(frame_id)
    except KeyError:
        return f"no frame {frame_id}"
    if frame.status == "destroyed":
        return f"{frame.name} is destroyed: rebuild it first (repair {frame.id})"
    if deployed(campaign, frame.id):
        return f"{frame.name} is deployed on a mission"
    if not frame.weapons:
        return f"{frame.name} carries no weapons"
    if not 1 <= index <= len(frame.weapons):
        return f"{frame.name} has weapons 1 to {len(frame.weapons)}, not {index}"
    groups = catalog().combat.loadout.weapon_groups
    if not 1 <= group <= groups:
        return f"weapon groups run 1 to {groups}, not {group}"
    mount = frame.weapons[index - 1]
    if mount.group == group:
        return f"{catalog().weapons[mount.weapon].name} is already in group {group}"
    return None


def _regroup(campaign: Campaign, cmd: Regroup, dice: Dice) -> Change | str:
    reason = regroup_refusal(campaign, cmd.frame, cmd.index, cmd.group)
    if reason:
        return reason
    frame = campaign.frame(cmd.frame)
    mount = frame.weapons[cmd.index - 1]
    name = catalog().weapons[mount.weapon].name
    weapons = list(frame.weapons)
    weapons[cmd.index - 1] = attrs.evolve(mount, group=cmd.group)
    campaign = campaign.with_frame(attrs.evolve(frame, weapons=tuple(weapons)))
    text = f"{frame.name}: {name} ({_loc_name(mount.mount)}) moves to group {cmd.group}."
    return campaign, [Report(topic="refit", text=text)]


def _why(plan: RefitPlan | str) -> str | None:
    return plan if isinstance(plan, str) else None


# ---- reactor budget (§5.1-§5.3, §6.6, §7.2, §7.8) ---------------------------------------
@frozen(kw_only=True)
class GroupBudget:
    group: int
    energy: int
    damage: int
    weapons: tuple[str, ...]  # weapon ids, in loadout order


@frozen(kw_only=True)
class HardpointUse:
    size: str
    location: str
    used: int
    total: int


@frozen(kw_only=True)
class Budget:
    """What the refit screen's reactor budget panel shows (screens never compute it)."""

    reactor: int  # the chassis' reactor output
    boost: int  # Cooling Vents
    output: int  # effective output, §5.1 (no reactor hits at the refit bay)
    overload_limit: int  # §5.3: 150% of the output
    move_energy: int  # §5.2: one Move (advance)
    space_used: int
    space: int
    groups: tuple[GroupBudget, ...]  # groups 1-4 (and any out-of-range group listed)
    hardpoints: tuple[HardpointUse, ...]  # per size and location the chassis lists
    warnings: tuple[str, ...]


def reactor_boost(fittings: Iterable[Fitting]) -> int:
    """§5.1, §7.7.2: the ReactorBoost of Cooling Vents (and any other reactor_boost item)."""
    cat = catalog()
    return sum(
        cat.equipment[f.equipment].value
        for f in fittings
        if cat.equipment[f.equipment].effect == "reactor_boost"
    )


def effective_output(chassis: Chassis, fittings: Iterable[Fitting]) -> int:
    """§5.1 at the refit bay: ReactorOutput + ReactorBoost, at least the minimum."""
    r = catalog().combat.reactor
    return max(r.min_output, chassis.reactor + reactor_boost(fittings))


def overload_limit(output: int) -> int:
    """§5.3: up to 150% of the effective output may be spent in a round (rounded down)."""
    return output * catalog().combat.reactor.overload_percent // 100


def budget(chassis_id: str, mounts: Sequence[Mount], fittings: Sequence[Fitting]) -> Budget:
    """The reactor budget of a (staged) loadout: output, overload limit, move energy, energy,
    damage and weapons per group, space and hardpoints used, and warnings for each group that
    draws more than the output alone, or with a Move (§7.2, §7.8)."""
    cat = catalog()
    ch = cat.chassis[chassis_id]
    boost = reactor_boost(fittings)
    output = effective_output(ch, fittings)
    limit = overload_limit(output)
    move = ch.move_energy
    numbers = sorted(
        set(range(1, cat.combat.loadout.weapon_groups + 1)) | {m.group for m in mounts}
    )
    groups: list[GroupBudget] = []
    warnings: list[str] = []
    for g in numbers:
        ws = [m.weapon for m in mounts if m.group == g]
        energy = sum(cat.weapons[w].energy for w in ws)
        damage = sum(cat.weapons[w].damage for w in ws)
        groups.append(GroupBudget(group=g, energy=energy, damage=damage, weapons=tuple(ws)))
        if energy > limit:
            warnings.append(
                f"group {g} needs {energy} energy, more than the overload limit {limit}: "
                f"some weapons will be skipped"
            )
        elif energy > output:
            warnings.append(f"group {g} needs {energy} energy, more than the output {output}")
        elif ws and energy + move > output:
            warnings.append(
                f"group {g} plus a Move needs {energy}+{move} = {energy + move} energy, "
                f"more than the output {output}"
            )
    used: Counter[tuple[str, str]] = Counter()
    for m in mounts:
        used[cat.weapons[m.weapon].size, m.mount] += 1
    for f in fittings:
        e = cat.equipment[f.equipment]
        if f.mount is not None and e.category == "slot":
            used[e.slot_size, f.mount] += 1
    hardpoints = tuple(
        HardpointUse(
            size=size,
            location=loc,
            used=used[size, loc],
            total=ch.hardpoints.of(size).count(loc),
        )
        for size in SIZES
        for loc in LOCATION_ORDER
        if ch.hardpoints.of(size).count(loc)
    )
    space_used = sum(cat.weapons[m.weapon].space for m in mounts) + sum(
        cat.equipment[f.equipment].space for f in fittings
    )
    return Budget(
        reactor=ch.reactor,
        boost=boost,
        output=output,
        overload_limit=limit,
        move_energy=move,
        space_used=space_used,
        space=ch.space,
        groups=tuple(groups),
        hardpoints=hardpoints,
        warnings=tuple(warnings),
    )


def frame_budget(frame: Frame) -> Budget:
    """The budget of a frame's current loadout."""
    return budget(frame.chassis, frame.weapons, frame.equipment)


# ---- the handlers of this module's commands (joined by game.py) ------------------------
HANDLERS: Handlers = {
    Refit: campaign_handler(_refit),
    Regroup: campaign_handler(_regroup),
}
CHECKS: Checks = campaign_checks(
    HANDLERS,
    {
        Refit: lambda c, cmd: _why(refit_plan(c, cmd)),
        Regroup: lambda c, cmd: regroup_refusal(c, cmd.frame, cmd.index, cmd.group),
    },
)
