"""Optional module O9, formations and commanders (optional-rules.md O9.1-O9.11).

* O9.1 `set_order`: a side's standing formation order (none, sphere, line, screen with named
  screens, dispersed), given in deployment or in an own activation at 0 AP; it takes effect
  at the next check.
* O9.2 `check_round`: step 2b of every round (O0.10), after initiative: each side's order
  checked on the positions of that moment (`requirement`); met, it is `Formation.effect` for
  the whole round. Every check is logged (`FormationChecked`).
* O9.4-O9.7 `entries`: the hit-chance entries `line`, `crossfire`, `screen`, `flanking`,
  `mutual cover`, `battle plan` (O0.4 order); `sphere_pds`: O9.4's extra PDS roll.
* O9.8 `slots`, `auto_abilities`, `check_assign`: who commands; O9.9 `check_ability`,
  `use_ability`: Battle Plan, Percussive Maintenance, Impossible Turn (Breach Shot is declared
  with a fire order: `firing`, `attack.resolve_attack`, `damage`).

Every function answers as the core game (no entry, no event, no draw) while the battle's
ruleset leaves O9 off. With O1 (range bands, O1.12) only the commanders play: no order is
accepted and no check made, and Battle Plan needs two of the side's frames at one position.
The attack-side questions ("could this member attack that target") come in as a callable from
`attack.py`, which imports this module, not the other way round.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from typing import Final

import attrs
from attrs import frozen

from ..catalog import catalog
from ..catalog.records import FormationsFile
from ..core import Event
from ..dice import AI, Dice
from ..hexgrid import Hex, distance, in_cone120, in_wedge60, to_offset
from . import track
from .state import FORMATIONS as FORMATIONS
from .state import SIDE_ORDER, Battle, Formation, Side, Unit

__all__ = [
    "AbilitiesAssigned",
    "AbilityUsed",
    "Dodged",
    "FormationChecked",
    "FormationSet",
    "ability_name",
    "auto_abilities",
    "check_ability",
    "check_assign",
    "check_order",
    "check_round",
    "entries",
    "members",
    "on",
    "requirement",
    "rules",
    "slots",
    "sphere_pds",
]

MODULE: Final = "O9"
NONE: Final = "none"
SPHERE: Final = "sphere"
LINE: Final = "line"
SCREEN: Final = "screen"
DISPERSED: Final = "dispersed"
BATTLE_PLAN: Final = "battle_plan"
BREACH_SHOT: Final = "breach_shot"
IMPOSSIBLE_TURN: Final = "impossible_turn"
MAINTENANCE: Final = "percussive_maintenance"

#: Line axes by the cube coordinate the members share (O9.5's x: a direction along the line).
_AXIS_Q: Final = 2  # shared q: the line runs NW-SE
_AXIS_R: Final = 0  # shared r: E-W
_AXIS_S: Final = 1  # shared s: NE-SW

#: `reaches(member, target)`: a weapon of `member` reaches `target` now (in range, unblocked).
Reaches = Callable[[Unit, Unit], bool]


def on(battle: Battle) -> bool:
    return battle.rule(MODULE)


def rules() -> FormationsFile:
    return catalog().formations


def slots(tactics: int) -> int:
    """O9.8: the abilities a pilot of `tactics` holds (0, 1 or 2)."""
    return rules().slots(tactics)


def ability_name(ability: str) -> str:
    return rules().ability_of(ability).name


def formation_name(order: str) -> str:
    return {
        NONE: "no formation",
        SPHERE: "Defensive Sphere",
        LINE: "Attack Line",
        SCREEN: "Screening",
        DISPERSED: "Dispersed",
    }.get(order, order)


# ---- events (O9.10) ----------------------------------------------------------------------
@frozen
class FormationSet(Event):
    """O9.1: `side`'s standing order from now on (it takes effect at the next check)."""

    side: str
    formation: str
    screens: tuple[str, ...]

    def describe(self) -> str:
        named = f" (screens {', '.join(self.screens)})" if self.screens else ""
        return f"The {self.side} side orders {formation_name(self.formation)}{named}"


@frozen
class FormationChecked(Event):
    """O9.2: step 2b: `side`'s order checked on the positions at the round's start; `members`
    the frames that count; `met` whether its requirement holds (`reason` says why or why not).
    """

    side: str
    formation: str
    met: bool
    reason: str
    members: tuple[str, ...]

    def describe(self) -> str:
        if self.formation == NONE:
            return f"The {self.side} side holds no formation"
        verdict = "in effect" if self.met else "not formed"
        return f"{formation_name(self.formation)} ({self.side}): {verdict}, {self.reason}"


@frozen
class AbilitiesAssigned(Event):
    """O9.8: the abilities a frame's pilot holds for this battle (hidden from the other side
    until used; the battle log keeps the truth)."""

    unit: str
    abilities: tuple[str, ...]

    def describe(self) -> str:
        held = ", ".join(ability_name(a) for a in self.abilities) or "none"
        return f"{self.unit} commands: {held}"


@frozen
class AbilityUsed(Event):
    """O9.9: `unit` uses `ability` (once per battle). Percussive Maintenance: `vented` stress
    off, now `stress`."""

    unit: str
    ability: str
    vented: int = 0
    stress: int = 0

    def describe(self) -> str:
        text = f"{self.unit} uses {ability_name(self.ability)}"
        if self.ability == MAINTENANCE:
            text += f": vents {self.vented} stress (now {self.stress})"
        return text


@frozen
class Dodged(Event):
    """O9.9d: a hit on `unit` negated after the roll by its Impossible Turn."""

    unit: str
    attacker: str
    weapon: str

    def describe(self) -> str:
        return f"{self.unit} dodges {self.attacker}'s {self.weapon} (Impossible Turn)"


# ---- members and requirements (O9.2-O9.7) ------------------------------------------------
def members(battle: Battle, side: Side) -> tuple[Unit, ...]:
    """O9.2: the side's frames on the map, not destroyed, withdrawn or pilot-dead (shut-down
    frames count)."""
    return tuple(
        u
        for u in battle.units
        if u.side == side and u.active and u.pos is not None and battle.map.contains(u.pos)
    )


@frozen
class Verdict:
    """A requirement checked: whether it is met, why, and an Attack Line's axis."""

    met: bool
    reason: str
    axis: int | None = None
    screens: tuple[str, ...] = ()


def _pos(u: Unit) -> Hex:
    assert u.pos is not None
    return u.pos


def _shared_facing(battle: Battle, frames: Sequence[Unit]) -> bool:
    """O9.5/O9.6 under O4: every frame faces the same way (always true with O4 off)."""
    facings = {u.facing for u in frames}
    return len(facings) <= 1 or None in facings


def requirement(battle: Battle, side: Side, order: str, screens: tuple[str, ...] = ()) -> Verdict:
    """O9.4-O9.7: whether `side`'s frames meet `order`'s requirement now."""
    f = rules()
    frames = members(battle, side)
    if order == NONE:
        return Verdict(False, "no order")
    if len(frames) < f.members.min:
        return Verdict(False, f"{len(frames)} member(s), needs {f.members.min}")
    if order == SPHERE:
        return _sphere(frames, f)
    if order == LINE:
        return _line(battle, frames, f)
    if order == SCREEN:
        return _screen(battle, side, frames, screens, f)
    if order == DISPERSED:
        return _dispersed(frames, f)
    return Verdict(False, f"no formation {order!r}")


def _sphere(frames: Sequence[Unit], f: FormationsFile) -> Verdict:
    radius = f.sphere.radius
    for centre in frames:
        if all(distance(_pos(centre), _pos(u)) <= radius for u in frames):
            return Verdict(True, f"every member within {radius} hexes of {centre.id}")
    return Verdict(False, f"no member has every other within {radius} hexes")


def _line(battle: Battle, frames: Sequence[Unit], f: FormationsFile) -> Verdict:
    spacing = f.line.spacing
    cubes = [(_pos(u).q, _pos(u).r, _pos(u).s) for u in frames]
    # (axis, the coordinate shared, one that runs along the line)
    for axis, shared, along in ((_AXIS_R, 1, 0), (_AXIS_Q, 0, 1), (_AXIS_S, 2, 0)):
        if len({c[shared] for c in cubes}) != 1:
            continue
        steps = sorted(c[along] for c in cubes)
        gap = max(b - a for a, b in itertools.pairwise(steps))
        if gap > spacing:
            return Verdict(False, f"on one line, but {gap} hexes apart (at most {spacing})")
        if not _shared_facing(battle, frames):
            return Verdict(False, "on one line, but not facing the same way (O4)")
        return Verdict(True, f"on one line, at most {spacing} hexes apart", axis=axis)
    return Verdict(False, "the members are not on one hex line")


def _column_lead(side: Side, screen: Hex, member: Hex) -> int:
    """How many offset columns `screen` stands nearer the enemy's deployment edge than
    `member` (the player deploys on the left, the enemy on the right, CORE §6.3)."""
    ahead = to_offset(screen)[0] - to_offset(member)[0]
    return -ahead if side == "enemy" else ahead


def _screen(
    battle: Battle,
    side: Side,
    frames: Sequence[Unit],
    named: tuple[str, ...],
    f: FormationsFile,
) -> Verdict:
    s = f.screen
    ids = {u.id for u in frames}
    screens = tuple(u for u in frames if u.id in named)
    if not s.screens_min <= len(screens) <= s.screens_max:
        return Verdict(False, f"{len(screens)} screen(s) on the field, needs {s.screens_min}")
    screened = [u for u in frames if u.id not in named]
    if not screened:
        return Verdict(False, "no member is screened")
    for member in screened:
        if not any(
            distance(_pos(sc), _pos(member)) <= s.reach
            and _column_lead(side, _pos(sc), _pos(member)) >= s.lead
            for sc in screens
        ):
            return Verdict(
                False, f"{member.id} has no screen within {s.reach} hexes nearer the enemy"
            )
    if len(screens) == 2 and distance(_pos(screens[0]), _pos(screens[1])) > s.spread:
        return Verdict(False, f"the screens are more than {s.spread} hexes apart")
    if not _shared_facing(battle, frames):
        return Verdict(False, "not facing the same way (O4)")
    kept = tuple(i for i in named if i in ids)
    return Verdict(True, f"screened by {', '.join(kept)}", screens=kept)


def _dispersed(frames: Sequence[Unit], f: FormationsFile) -> Verdict:
    spacing = f.dispersed.spacing
    near = min(distance(_pos(a), _pos(b)) for i, a in enumerate(frames) for b in frames[i + 1 :])
    if near < spacing:
        return Verdict(False, f"two members {near} hexes apart (at least {spacing})")
    return Verdict(True, f"every pair at least {spacing} hexes apart")


def check_round(battle: Battle) -> tuple[Battle, list[Event]]:
    """O9.2, step 2b: each side's order checked on the positions now; the formation in effect
    for the round, the screens' targets cleared. Nothing with O9 off."""
    if not on(battle) or track.on(battle):  # O1.12: commanders only on the track
        return battle, []
    events: list[Event] = []
    for side in SIDE_ORDER:
        if not battle.side_units(side):
            continue
        current = battle.formation(side)
        verdict = requirement(battle, side, current.order, current.screens)
        battle = battle.with_formation(
            attrs.evolve(
                current,
                effect=current.order if verdict.met else NONE,
                effect_screens=verdict.screens,
                axis=verdict.axis,
                screen_targets=(),
            )
        )
        events.append(
            FormationChecked(
                side=side,
                formation=current.order,
                met=verdict.met,
                reason=verdict.reason,
                members=tuple(u.id for u in members(battle, side)),
            )
        )
    return battle, events


# ---- orders (O9.1) -----------------------------------------------------------------------
def check_order(battle: Battle, side: Side, order: str, screens: tuple[str, ...]) -> str | None:
    """O9.1: why `side` may not give this standing order now."""
    if not on(battle):
        return "formations are optional rule O9, not in this battle's rules"
    if track.on(battle):
        return "a range-band battle has commanders only, no formations (O1.12)"
    if order not in FORMATIONS:
        return f"no formation {order!r} (choose from {', '.join(FORMATIONS)})"
    s = rules().screen
    if order == SCREEN:
        if not s.screens_min <= len(screens) <= s.screens_max:
            return f"Screening names {s.screens_min}-{s.screens_max} screens"
        if len(set(screens)) != len(screens):
            return "a screen is named twice"
        for sid in screens:
            try:
                unit = battle.unit(sid)
            except KeyError:
                return f"no frame {sid!r}"
            if unit.side != side:
                return f"{unit.label} is not on your side"
            if not unit.active:
                return f"{unit.label} is out of the fight"
    elif screens:
        return "only Screening names screens"
    current = battle.formation(side)
    if current.order == order and current.screens == screens:
        return f"{formation_name(order)} is already the standing order"
    return None


def set_order(
    battle: Battle, side: Side, order: str, screens: tuple[str, ...]
) -> tuple[Battle, list[Event]]:
    """O9.1: the new standing order (checked by `check_order` first)."""
    current = battle.formation(side)
    battle = battle.with_formation(attrs.evolve(current, order=order, screens=screens))
    return battle, [FormationSet(side=side, formation=order, screens=screens)]


# ---- who commands (O9.8) -----------------------------------------------------------------
def check_assign(battle: Battle, unit: Unit, abilities: tuple[str, ...]) -> str | None:
    """O9.8: why `unit`'s pilot may not hold `abilities` (its Tactics' count at most, each
    ability once per side)."""
    if not on(battle):
        return "commanders are optional rule O9, not in this battle's rules"
    known = [a.id for a in rules().ability]
    for a in abilities:
        if a not in known:
            return f"no ability {a!r} (choose from {', '.join(known)})"
    if len(set(abilities)) != len(abilities):
        return "an ability is named twice"
    n = slots(unit.pilot.tactics)
    if len(abilities) > n:
        return f"{unit.pilot.callsign} (Tactics {unit.pilot.tactics}) holds at most {n}"
    for other in battle.side_units(unit.side):
        if other.id == unit.id:
            continue
        taken = set(other.abilities) & set(abilities)
        if taken:
            name = ability_name(sorted(taken)[0])
            return f"{name} is held by {other.pilot.callsign} (one pilot per side)"
    if abilities == unit.abilities:
        return f"{unit.pilot.callsign} already holds exactly these"
    return None


def auto_abilities(frames: Sequence[Unit], dice: Dice) -> dict[str, tuple[str, ...]]:
    """O9.8 as the AI assigns: the highest Tactics first (equal Tactics in an order drawn
    from the `ai` stream), each taking its count of the abilities left in the priority
    order of data/formations.toml (Battle Plan, Breach Shot, Impossible Turn, Percussive
    Maintenance). Draws nothing when no pilot holds one."""
    holders = [u for u in frames if slots(u.pilot.tactics) > 0]
    if not holders:
        return {}
    drawn = dice.shuffle(AI, holders) if len(holders) > 1 else holders
    ranked = sorted(drawn, key=lambda u: -u.pilot.tactics)  # stable: the draw breaks ties
    left = [a.id for a in rules().ability]
    out: dict[str, tuple[str, ...]] = {}
    for u in ranked:
        n = min(slots(u.pilot.tactics), len(left))
        out[u.id], left = tuple(left[:n]), left[n:]
    return {uid: held for uid, held in out.items() if held}


def assign(battle: Battle, unit_id: str, abilities: tuple[str, ...]) -> tuple[Battle, list[Event]]:
    unit = battle.unit(unit_id)
    battle = battle.with_unit(attrs.evolve(unit, abilities=abilities))
    return battle, [AbilitiesAssigned(unit=unit_id, abilities=abilities)]


def assign_side(battle: Battle, side: Side, dice: Dice) -> tuple[Battle, list[Event]]:
    """O9.8: every frame of `side` given `auto_abilities` (the others none)."""
    given = auto_abilities(battle.side_units(side), dice)
    events: list[Event] = []
    for u in battle.side_units(side):
        held = given.get(u.id, ())
        if held != u.abilities:
            battle, more = assign(battle, u.id, held)
            events.extend(more)
    return battle, events


# ---- abilities (O9.9) --------------------------------------------------------------------
def check_ability(battle: Battle, unit: Unit, ability: str) -> str | None:
    """O9.9: why `unit` may not use `ability` now (Breach Shot is declared with a fire
    order: `check_breach`)."""
    if not on(battle):
        return "commanders are optional rule O9, not in this battle's rules"
    known = [a.id for a in rules().ability]
    if ability not in known:
        return f"no ability {ability!r} (choose from {', '.join(known)})"
    name = ability_name(ability)
    if ability in unit.abilities_used:
        return f"{name} is used once per battle: already used"
    if ability not in unit.abilities:
        return f"{unit.pilot.callsign} does not hold {name}"
    if ability == BREACH_SHOT:
        return f"{name} is declared with a fire order (fire ... --breach yes)"
    cost = rules().ability_of(ability).ap
    if unit.ap < cost:
        return f"{name} needs {cost} AP, {unit.ap} left"
    if ability == BATTLE_PLAN:
        if track.on(battle):  # O1.12: two frames of the side at one position instead
            if not track.shared_position(battle, unit.side):
                return f"{name} needs two of the side's active frames at one position (O1.12)"
        elif battle.formation(unit.side).effect == NONE:
            return f"{name} needs the side's formation in effect"
        if battle.formation(unit.side).plan_round == battle.round:
            return f"a {name} is already in force this round"
    if ability == MAINTENANCE and unit.stress <= 0:
        return "there is no reactor stress to vent"
    return None


def check_breach(unit: Unit) -> str | None:
    """O9.9a: why `unit` may not declare a Breach Shot with its fire order."""
    name = ability_name(BREACH_SHOT)
    if BREACH_SHOT in unit.abilities_used:
        return f"{name} is used once per battle: already used"
    if BREACH_SHOT not in unit.abilities:
        return f"{unit.pilot.callsign} does not hold {name}"
    return None


def spend(unit: Unit, ability: str) -> Unit:
    """The ability moved from held to used (and its AP paid)."""
    return attrs.evolve(
        unit,
        ap=unit.ap - rules().ability_of(ability).ap,
        abilities=tuple(a for a in unit.abilities if a != ability),
        abilities_used=(*unit.abilities_used, ability),
    )


def use_ability(
    battle: Battle, unit: Unit, ability: str, vent_amount: int
) -> tuple[Battle, list[Event]]:
    """O9.9b-d (checked by `check_ability` first). `vent_amount`: the CORE §5.5 vent amount
    of the frame (Percussive Maintenance vents a multiple of it, O9.9c)."""
    user = spend(unit, ability)
    if ability == BATTLE_PLAN:
        plan = attrs.evolve(battle.formation(unit.side), plan_round=battle.round)
        return battle.with_unit(user).with_formation(plan), [
            AbilityUsed(unit=unit.id, ability=ability)
        ]
    if ability == MAINTENANCE:
        amount = min(user.stress, vent_amount * rules().percussive_maintenance.vent_multiplier)
        user = attrs.evolve(user, stress=user.stress - amount)
        event = AbilityUsed(unit=unit.id, ability=ability, vented=amount, stress=user.stress)
        return battle.with_unit(user), [event]
    # O9.9d: Impossible Turn; no overwatch either (`firing.resolve_overwatch` skips it)
    user = attrs.evolve(user, dodging=True, overwatch_group=None)
    return battle.with_unit(user), [AbilityUsed(unit=unit.id, ability=ability)]


def dodge_refusal(unit: Unit) -> str | None:
    """O9.9d: a frame under Impossible Turn cannot fire (nor go on overwatch)."""
    if unit.dodging:
        return f"{unit.label} is making an Impossible Turn: it cannot fire until it acts again"
    return None


# ---- the hit-chance entries (O0.4: line, crossfire, screen, flanking, mutual cover,
# battle plan) --------------------------------------------------------------------------------
def entries(
    battle: Battle, attacker: Unit, target: Unit, reaches: Reaches
) -> list[tuple[str, int, str]]:
    """O9.4-O9.7, O9.9b: the module's entries of one attack as (name, value, detail), in
    O0.4 order; none with O9 off or with no formation in effect."""
    if not battle.formations or attacker.pos is None or target.pos is None:
        return []
    f = rules()
    out: list[tuple[str, int, str]] = []
    mine = battle.formation(attacker.side)
    theirs = battle.formation(target.side)
    friends = [u for u in members(battle, attacker.side) if u.id != attacker.id]
    if mine.effect == LINE:
        helpers = [u.id for u in friends if reaches(u, target)]
        value = min(f.line.max, f.line.per_member * len(helpers))
        if value:
            out.append(("line", value, f"{', '.join(helpers)} can attack too"))
    if mine.effect == DISPERSED:
        partner = next((u for u in friends if _crossfire(attacker, target, u, reaches)), None)
        if partner is not None:
            out.append(("crossfire", f.dispersed.crossfire, f"with {partner.id} opposite"))
    if (
        mine.effect == SCREEN
        and attacker.id not in mine.effect_screens
        and target.id in mine.screen_targets
    ):
        out.append(("screen", f.screen.bonus, f"a screen attacked {target.id}"))
    flank = _flanking(battle, attacker, target, mine, theirs, f)
    if flank:
        out.append(flank)
    if theirs.effect == SPHERE:
        beside = [
            u.id
            for u in members(battle, target.side)
            if u.id != target.id and distance(_pos(u), target.pos) == 1
        ]
        if beside:
            out.append(("mutual cover", -f.sphere.mutual_cover, f"{beside[0]} adjacent"))
    if mine.plan_round == battle.round and track.on(battle):  # O1.12
        out.append(("battle plan", f.battle_plan.bonus, "frames sharing a position"))
    elif mine.effect != NONE and mine.plan_round == battle.round:
        out.append(("battle plan", f.battle_plan.bonus, formation_name(mine.effect)))
    return out


def _crossfire(attacker: Unit, target: Unit, partner: Unit, reaches: Reaches) -> bool:
    """O9.7: the partner stands in the wedge opposite the attacker's, around the target, and
    has the target in range on an unblocked line."""
    t, a, p = _pos(target), _pos(attacker), _pos(partner)
    opposite = any(in_wedge60(t, k, a) and in_wedge60(t, (k + 3) % 6, p) for k in range(6))
    return opposite and reaches(partner, target)


def _flanking(
    battle: Battle,
    attacker: Unit,
    target: Unit,
    mine: Formation,
    theirs: Formation,
    f: FormationsFile,
) -> tuple[str, int, str] | None:
    """O9.5's drawback (an attack on a Line member from a 60° flank) and O9.6's (a Line or
    Dispersed enemy attacking a screen)."""
    t, a = _pos(target), _pos(attacker)
    if theirs.effect == LINE and theirs.axis is not None:
        x = theirs.axis
        if not (in_cone120(t, x, a) or in_cone120(t, (x + 3) % 6, a)):
            return ("flanking", f.line.flanking, "from the line's flank")
    screen = theirs.effect == SCREEN and target.id in theirs.effect_screens
    if screen and mine.effect in (LINE, DISPERSED):
        return ("flanking", f.screen.flanking, f"{formation_name(mine.effect)} at a screen")
    return None


def note_attack(battle: Battle, attacker: Unit, target_id: str) -> Battle:
    """O9.6: remember the frames a screen attacked this round (for the `screen` entry)."""
    mine = battle.formation(attacker.side)
    if (
        not battle.formations
        or mine.effect != SCREEN
        or attacker.id not in mine.effect_screens
        or target_id in mine.screen_targets
    ):
        return battle
    return battle.with_formation(
        attrs.evolve(mine, screen_targets=(*mine.screen_targets, target_id))
    )


def sphere_pds(battle: Battle, target: Unit, effect: str) -> tuple[Unit, int] | None:
    """O9.4: the member whose working PDS may also stop a missile hit on `target` (within 2
    hexes, the first in unit order) and its chance; None outside a Sphere. `effect`: the
    equipment effect of a PDS."""
    if not battle.formations or target.pos is None:
        return None
    if battle.formation(target.side).effect != SPHERE or not rules().sphere.extra_pds_rolls:
        return None
    cat = catalog()
    radius = rules().sphere.pds_radius
    for u in members(battle, target.side):
        if u.id == target.id or distance(_pos(u), target.pos) > radius:
            continue
        for e in u.equipment:
            item = cat.equipment[e.equipment]
            if not e.destroyed and item.effect == effect:
                return u, item.value
    return None
