"""The planner's enumeration (`plans.py`): every sequence of actions the frame's AP allow, each
valued by the `Planner`: stay and act, or move and act, or act and then move.
"""

from __future__ import annotations

from collections.abc import Iterator

from ...combat.commands import (
    Brace,
    CalledShot,
    EndActivation,
    FireGroup,
    Overwatch,
    UseEquipment,
    Vent,
)
from ...core import Command
from ...hexgrid import distance
from .plan_types import (
    CALLED_LOCATIONS,
    FOLLOWED_UP,
    OBJECTIVE_PART,
    PARTS,
    POST_FIRE_POSITIONS,
    Act,
    Attack,
    Plan,
    Scored,
    Spot,
)
from .plans import Planner


def plan_of(
    commands: tuple[Command, ...],
    scored: Scored,
    target: str | None = None,
) -> Plan:
    return Plan(
        commands,
        scored.value,
        tuple(zip((*PARTS, OBJECTIVE_PART)[: len(scored.parts)], scored.parts, strict=True)),
        target,
        scored.stress,
        scored.at,
        scored.status,
        tuple((k.unit.id, p) for k, p in scored.kills),
    )


def other_acts(
    pl: Planner, spot: Spot, budget: int, ap: int, fired: tuple[int, ...] = ()
) -> Iterator[tuple[tuple[Command, ...], Act]]:
    """One-AP actions other than fire and moves available at `spot` with `budget` energy."""
    u = pl.unit
    s = pl.sit
    if ap < 1:
        return
    if not u.braced:
        yield (Brace(),), Act(brace=True)
    ecm = pl.items.get("ecm")
    if ecm is not None and not u.ecm_active and budget >= ecm.energy and s.skill.support_equipment:
        yield (UseEquipment(ecm.id),), Act(ecm=True, energy=ecm.energy)
    if u.stress > 0:
        yield (Vent(),), Act(vents=1)
    if u.overwatch_group is None:
        for g in pl.free_groups:
            if g in fired:
                continue
            v, e = pl.overwatch_value(spot.hex, g, budget, pl.moved + spot.hexes)
            if v > 0:
                yield (Overwatch(g),), Act(overwatch=v, energy=e)
    if not s.skill.support_equipment:
        return
    uplink = pl.items.get("designate")
    if uplink is not None and budget >= uplink.energy:
        for t in s.enemies:
            v = pl.uplink_value(spot.hex, t)
            if v > 0:
                yield (
                    (UseEquipment(uplink.id, t.unit.id),),
                    Act(support=v, energy=uplink.energy),
                )
    barrier = pl.items.get("barrier")
    if barrier is not None and budget >= barrier.energy:
        for a in (s.me, *s.allies):
            apos = spot.hex if a is s.me else a.unit.pos
            if apos is None or distance(spot.hex, apos) > s.barrier_range:
                continue
            v = pl.barrier_value(a, apos)
            if v > 0:
                yield (
                    (UseEquipment(barrier.id, a.unit.id),),
                    Act(support=v, energy=barrier.energy),
                )


def score(
    pl: Planner, spot: Spot, attacks: list[Attack], acts: tuple[Act, ...], ahead: float = 0.0
) -> Scored:
    return pl.value(
        spot,
        attacks,
        (any(a.brace for a in acts), any(a.ecm for a in acts)),
        sum(a.vents for a in acts),
        sum(a.energy for a in acts),
        sum(a.overwatch for a in acts),
        sum(a.support for a in acts),
        ahead,
        sum(a.kick for a in acts),
    )


def kicks(
    pl: Planner, spot: Spot, ap: int, spent: float
) -> Iterator[tuple[tuple[Command, ...], Act, str]]:
    """O7.9: each kick from `spot` as an action of a plan, with its target."""
    for cmd, value, energy, target in pl.kicks_from(spot, ap, spent):
        yield (cmd,), Act(kick=value, energy=energy), target


def one_step_ahead(
    pl: Planner, spot: Spot, ap_left: int, energy: float, fired: tuple[int, ...] = ()
) -> float:
    """A one-action planner's guess at what its next action adds (skill depth 1): with an AP
    left, its best group's fire from where this one leaves it (`Planner.quick_fire`); the next
    decision plans it."""
    if pl.sit.skill.depth >= 2 or ap_left < 1:
        return 0.0
    return pl.quick_fire(spot.hex, pl.energy_left - round(energy), fired, pl.moved + spot.hexes)


def pairable(pl: Planner, c1: Command, c2: Command) -> bool:
    """Two one-AP actions worth doing together: not the same one twice (a second vent
    only while there is stress left to vent; a second barrier on another frame)."""
    if type(c1) is not type(c2):
        return True
    if isinstance(c1, Vent):
        return pl.unit.stress > pl.vent_amount
    if isinstance(c1, UseEquipment) and isinstance(c2, UseEquipment):
        item = pl.cat.equipment[c1.equipment]
        return c1.equipment != c2.equipment or (item.effect == "barrier" and c1 != c2)
    return False


def stay(pl: Planner, here: Spot, depth: int) -> Iterator[Plan]:
    """Plans that do not move: end now, one action, or two."""
    s = pl.sit
    yield plan_of((EndActivation(),), pl.value(here, []))
    ap = pl.ap
    budget = pl.energy_left
    firsts = pl.attacks_from(here.hex, budget)
    singles = list(other_acts(pl, here, budget, ap))
    for a in firsts:
        ahead = one_step_ahead(pl, here, ap - 1, a.energy, a.groups)
        yield plan_of(a.commands, pl.value(here, [a], ahead=ahead), a.target.unit.id)
    for cmds, act in singles:
        ahead = 0.0 if act.overwatch else one_step_ahead(pl, here, ap - 1, act.energy)
        yield plan_of(cmds, score(pl, here, [], (act,), ahead))
    kicked = list(kicks(pl, here, ap, 0.0))
    for cmds, act, target in kicked:  # O7.9: kick, then (with an AP left) fire or not
        ahead = one_step_ahead(pl, here, ap - 1, act.energy)
        yield plan_of(cmds, score(pl, here, [], (act,), ahead), target)
        if ap >= 2 and depth >= 2:
            for a in pl.attacks_from(here.hex, budget - round(act.energy)):
                yield plan_of((*cmds, *a.commands), score(pl, here, [a], (act,)), target)
    if ap < 2 or depth < 2:
        return
    # two groups
    for a in firsts:
        rest = budget - a.energy
        g1 = a.groups[0]
        for g2 in pl.free_groups:
            if g2 == g1:
                continue
            for t in s.enemies:
                shots, energy = pl.fire_from(here.hex, g2, t, rest)
                if not shots:
                    continue
                cmd = FireGroup(g2, t.unit.id)
                if t is a.target:
                    first_shots, _ = pl.fire_from(here.hex, g1, t, budget)
                    joint = s.odds(t, first_shots + shots, None)
                    both = Attack((*a.commands, cmd), t, joint, a.energy + energy, (g1, g2))
                    attacks = [both]
                else:
                    attacks = [a, Attack((cmd,), t, s.odds(t, shots, None), energy, (g2,))]
                yield plan_of((*a.commands, cmd), pl.value(here, attacks), a.target.unit.id)
        # fire, then one other action where it stands (a kick among them, O7.9)
        for cmds, act in other_acts(pl, here, rest, 1, a.groups):
            yield plan_of((*a.commands, *cmds), score(pl, here, [a], (act,)), a.target.unit.id)
        for cmds, act, _ in kicks(pl, here, 1, a.energy):
            yield plan_of((*a.commands, *cmds), score(pl, here, [a], (act,)), a.target.unit.id)
    # uplink first, then fire at the designated target
    uplink = pl.items.get("designate")
    if uplink is not None and s.skill.support_equipment and budget >= uplink.energy:
        for t in s.enemies:
            v = pl.uplink_value(here.hex, t)
            tpos = t.unit.pos
            if tpos is None or distance(here.hex, tpos) > s.uplink_range:
                continue
            use = UseEquipment(uplink.id, t.unit.id)
            for g in pl.free_groups:
                shots, energy = pl.fire_from(here.hex, g, t, budget - uplink.energy, t.unit.id)
                if shots:
                    a = Attack((FireGroup(g, t.unit.id),), t, s.odds(t, shots, None), energy, (g,))
                    act = Act(support=v, energy=uplink.energy)
                    yield plan_of((use, *a.commands), score(pl, here, [a], (act,)), t.unit.id)
    # two other actions
    for i, (c1, a1) in enumerate(singles):
        for c2, a2 in singles[i:]:
            if a1.energy + a2.energy <= budget and pairable(pl, c1[0], c2[0]):
                yield plan_of((*c1, *c2), score(pl, here, [], (a1, a2)))
    # called shots
    if s.skill.called_shots:
        for g in pl.free_groups:
            for t in s.enemies:
                shots, energy = pl.fire_from(here.hex, g, t, budget, None, s.called_mod)
                if not shots:
                    continue
                for loc in CALLED_LOCATIONS:
                    odds = s.odds(t, shots, loc)
                    called = CalledShot(g, t.unit.id, loc)
                    yield plan_of(
                        (called,),
                        pl.value(here, [Attack((called,), t, odds, energy, (g,))]),
                        t.unit.id,
                    )


def moves(pl: Planner, spots: list[Spot], depth: int) -> Iterator[Plan]:
    ap = pl.ap
    budget = pl.energy_left
    here = spots[0]
    standing: list[tuple[float, Spot]] = []
    promising: list[tuple[float, int, Spot]] = []
    for i, spot in enumerate(spots[1:]):
        assert spot.command is not None
        base = pl.value(spot, [])
        standing.append((base[0], spot))
        if ap - spot.ap >= 1 and depth >= 2:
            fire = pl.quick_fire(spot.hex, budget - spot.energy, (), pl.moved + spot.hexes)
            promising.append((base[0] + fire, i, spot))
        ahead = one_step_ahead(pl, spot, ap - spot.ap, spot.energy)
        yield plan_of((spot.command,), pl.value(spot, [], ahead=ahead) if ahead else base)
    # the acts after a Move or jump: worked out in full where they promise most
    promising.sort(key=lambda p: (-p[0], p[1]))
    closing = pl.closes_to_kick()
    for _, _, spot in promising[:FOLLOWED_UP]:
        assert spot.command is not None
        rest = budget - spot.energy
        for a in pl.attacks_from(spot.hex, rest, moved=pl.moved + spot.hexes):
            yield plan_of((spot.command, *a.commands), pl.value(spot, [a]), a.target.unit.id)
        for cmds, act in other_acts(pl, spot, rest, ap - spot.ap):
            yield plan_of((spot.command, *cmds), score(pl, spot, [], (act,)))
    if closing:  # O7.9: move next to an enemy and kick it (a close-range stance only)
        for spot in spots[1:]:
            assert spot.command is not None
            for cmds, act, target in kicks(pl, spot, ap - spot.ap, spot.energy):
                yield plan_of((spot.command, *cmds), score(pl, spot, [], (act,)), target)
    if ap < 2 or depth < 2:
        return
    # fire where it stands, then move to one of the best-standing places
    standing.sort(key=lambda p: -p[0])
    best = [spot for _, spot in standing if spot.ap == 1][:POST_FIRE_POSITIONS]
    for a in pl.attacks_from(here.hex, budget):
        for spot in best:
            if spot.energy > budget - a.energy:
                continue
            assert spot.command is not None
            yield plan_of((*a.commands, spot.command), pl.value(spot, [a]), a.target.unit.id)


def all_plans(pl: Planner) -> list[Plan]:
    """Every plan of `pl`'s activation, valued (not sorted)."""
    out: list[Plan] = []
    spots = pl.spots()
    here = spots[0]
    depth = pl.sit.skill.depth
    for plan in stay(pl, here, depth):
        out.append(plan)
    if depth >= 1:
        out.extend(moves(pl, spots, depth))
    return out
