"""Optional module O11 in battle: objectives (O11.1-O11.2), the tally of mission costs (O11.5)
and collateral (O11.3), and the events of O11.9.

* `draw_objectives` — O11.1: the secondary objectives (1 at difficulty <= 2, else 2) and, with
  a 30% chance, one hidden objective, drawn without replacement from the entries the ruleset
  allows (OB7 only beside an allied lance), all from the `missions` stream after O10.1's
  third party (O0.6; a contract's other draws stay on `contracts`, so the board is the same
  with O11 on or off but for its objectives). O11 off: no draw.
* `place_objectives` — the battle's copy: OB5's objective hex (the Open interior hex nearest
  the map centre, row-major first; ruling O11a) and OB6's marked building (the first High
  building in row-major order, else the first Low one).
* `track` — the after-step hook (`game.TABLE`): after every accepted command of an O11 battle
  it adds the player's side's shots and equipment uses to the tally, counts collateral, marks
  objectives met (`ObjectiveMet`) and, when the battle ends, emits `MissionCosts`.
* `round_closed` — OB5, at the end of a round (flow.close_round, after the round's overwatch).
* `mission_costs` — O11.5's figures of a finished battle.

Every number comes from `data/objectives.toml` (`catalog().objectives`). OB7 is drawn only
for a battle with an allied lance (O10), OB8 reads O8's detections.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import attrs
from attrs import frozen

from ..catalog import catalog
from ..catalog.records import ObjectiveKind
from ..core import Event
from ..dice import MISSIONS, Dice
from ..hexgrid import Hex, distance, from_offset
from ..model import GameState
from ..ruleset import Ruleset
from .attack import AttackResult
from .detection import Detected
from .events import Attacked, BattleChange, BattleEnded, EquipmentUsed, RoundStarted
from .features import Section, section_at
from .mapgen import OPEN, BattleMap, interior_indices
from .state import Battle, Objective, Tally
from .structures import StructureAttacked

__all__ = [
    "CHECKED",
    "O11",
    "MissionCosts",
    "ObjectiveMet",
    "allowed",
    "draw_objectives",
    "marked_building",
    "mission_costs",
    "objective_hex",
    "objective_label",
    "place_objectives",
    "round_closed",
    "structure_lost",
    "track",
    "track_battle",
]

#: The module id.
O11 = "O11"
#: The catalogue entries this version checks (every one).
CHECKED: frozenset[str] = frozenset({"OB1", "OB2", "OB3", "OB4", "OB5", "OB6", "OB7", "OB8"})
#: OB7 needs an allied lance (O11.2's "O10 ally"), not only the module.
_ESCORT = "OB7"
#: A range-band battle has no hex map (O1): no entry that needs a map.
_BANDS = "O1"


# ---- events (O11.9) ----------------------------------------------------------------------
@frozen
class ObjectiveMet(Event):
    """O11.9: an objective met in `round`; a hidden one is revealed by it."""

    id: str
    round: int
    hidden: bool = False

    def describe(self) -> str:
        kind = catalog().objectives.kind(self.id)
        what = "Hidden objective revealed and met" if self.hidden else "Objective met"
        return f"{what}: {self.id} {kind.name} ({kind.text}), round {self.round}"


@frozen
class MissionCosts(Event):
    """O11.5, O11.9: the structure the player's frames lost, their shots by hardpoint size
    (small, medium, large), their active equipment uses, and the credits that costs."""

    structure: int
    shots: tuple[int, int, int]
    equipment: int
    credits: int

    def describe(self) -> str:
        s, m, lg = self.shots
        return (
            f"Mission costs: {self.structure} structure, shots {s} small / {m} medium / "
            f"{lg} large, {self.equipment} equipment use(s): {self.credits:,} credits"
        )


def objective_label(o: Objective, *, reveal: bool = False) -> str:
    """How a board or a screen names an objective: `OB3 Swift +10%`, or `?` for a hidden one
    not met yet (unless `reveal`)."""
    if o.hidden and not o.met and not reveal:
        return "?"
    kind = catalog().objectives.kind(o.id)
    return f"{o.id} {kind.name} +{kind.bonus}%"


# ---- O11.1: the draw -----------------------------------------------------------------------
def allowed(ruleset: Ruleset, *, ally: bool = False) -> tuple[ObjectiveKind, ...]:
    """The catalogue entries a ruleset allows (O11.2's Needs), in catalogue order; OB7 only
    when the battle has an allied lance (`ally`, O10.1)."""
    out = []
    for row in catalog().objectives.objective:
        if row.id not in CHECKED or (row.id == _ESCORT and not ally):
            continue
        if row.needs == "map" and _BANDS in ruleset:
            continue
        if row.needs not in ("none", "map") and row.needs not in ruleset:
            continue
        out.append(row)
    return tuple(out)


def draw_objectives(
    dice: Dice, difficulty: int, ruleset: Ruleset, *, ally: bool = False
) -> tuple[Objective, ...]:
    """O11.1: the visible secondary objectives, then the chance of one hidden objective, drawn
    without replacement (`missions` stream, after O10.1's third party). No draw at all while
    O11 is off."""
    if O11 not in ruleset:
        return ()
    rules = catalog().objectives.draw
    pool = [row.id for row in allowed(ruleset, ally=ally)]
    wanted = rules.secondary_low if difficulty <= rules.low_max else rules.secondary_high
    out: list[Objective] = []
    for _ in range(min(wanted, len(pool))):
        out.append(Objective(id=pool.pop(dice.below(MISSIONS, len(pool)))))
    if dice.chance(MISSIONS, rules.hidden_chance) and pool:
        out.append(Objective(id=pool.pop(dice.below(MISSIONS, len(pool))), hidden=True))
    return tuple(out)


# ---- the battle's objectives ---------------------------------------------------------------
def _row_major(h: Hex) -> tuple[int, int]:
    return (h.r, h.q + (h.r - (h.r & 1)) // 2)


def objective_hex(bmap: BattleMap, sections: Sequence[Section] = ()) -> Hex | None:
    """OB5: the Open interior hex nearest the map centre (the hex at offset column
    (width - 1) // 2, row (height - 1) // 2; ruling O11a), row-major first among equals; a hex
    holding an O3 feature is not Open."""
    columns = catalog().maps.deployment.columns
    centre = from_offset((bmap.width - 1) // 2, (bmap.height - 1) // 2)
    taken = {s.hex for s in sections}
    best: Hex | None = None
    best_d = 0
    for i in interior_indices(bmap.width, bmap.height, columns):
        if bmap.terrain[i] != OPEN:
            continue
        h = from_offset(i % bmap.width, i // bmap.width)
        if h in taken:
            continue
        d = distance(h, centre)
        if best is None or d < best_d:
            best, best_d = h, d
    return best


def marked_building(battle: Battle) -> Hex | None:
    """OB6: the first High building section in row-major order, else the first Low one."""
    for kind in catalog().structures.generation.buildings:
        hexes = sorted((s.hex for s in battle.structures if s.feature == kind), key=_row_major)
        if hexes:
            return hexes[0]
    return None


def place_objectives(battle: Battle, objectives: Sequence[Objective]) -> Battle:
    """The battle with its objectives (OB5's hex and OB6's building placed) and an empty
    tally; unchanged while O11 is off."""
    if not battle.rule(O11):
        return battle
    placed = []
    for o in objectives:
        h: Hex | None = None
        if o.id == "OB5":
            h = objective_hex(battle.map, battle.structures)
        elif o.id == "OB6":
            h = marked_building(battle)
        placed.append(attrs.evolve(o, hex=h, met=0))
    return attrs.evolve(battle, objectives=tuple(placed), tally=Tally())


# ---- conditions (O11.2) --------------------------------------------------------------------
def _decapitated(battle: Battle) -> bool:
    """OB1: an enemy pilot died by head destruction (CORE §4.6, R15)."""
    return any(not u.pilot_alive and u.destroyed_by == "pilot" for u in battle.side_units("enemy"))


def _annihilated(battle: Battle) -> bool:
    """OB2: a Victory with every enemy frame out by destruction (a head kill counts, R15;
    none withdrew). Ruling O11b."""
    return battle.result == "victory" and not any(u.active for u in battle.side_units("enemy"))


def _swift(battle: Battle) -> bool:
    """OB3: Victory by the end of round 5."""
    rows = catalog().objectives
    return battle.result == "victory" and battle.round <= rows.kind("OB3").round


def _unscathed(battle: Battle) -> bool:
    """OB4: at the end, every deployed player frame is on the field with at least 50% of the
    armour it began the battle with (ruling O11c)."""
    percent = catalog().objectives.kind("OB4").armour_percent
    return battle.phase == "over" and all(
        u.active and u.total_armor * 100 >= u.start_armor * percent
        for u in battle.side_units("player")
    )


def holds(battle: Battle, h: Hex) -> bool:
    """OB5's test: a player frame stands on `h` and no active enemy is within the radius."""
    radius = catalog().objectives.kind("OB5").radius
    occupant = battle.occupant(h)
    if occupant is None or occupant.side != "player":
        return False
    return all(u.pos is None or distance(u.pos, h) > radius for u in battle.foes("player"))


def _demolished(battle: Battle, h: Hex | None) -> bool:
    """OB6: the marked building's section is no longer a building (it collapsed once)."""
    if h is None:
        return False
    section = section_at(battle.structures, h)
    return section is not None and section.feature not in catalog().structures.generation.buildings


def _escorted(battle: Battle) -> bool:
    """OB7: at the end, no allied frame was destroyed (its centre torso or its pilot; one that
    withdrew is not; ruling O11g)."""
    return battle.phase == "over" and all(
        not u.destroyed and u.pilot_alive for u in battle.side_units("ally")
    )


def _reconnoitred(battle: Battle, began: int) -> bool:
    """OB8: by the end of round 3, every enemy frame has been detected by the player's side
    (O8.5): checked after every command that began in round 3 or before (`began`), so the one
    that closes round 3 counts; a frame out of the fight before it was ever detected needs no
    detecting (ruling O11i)."""
    if began > catalog().objectives.kind("OB8").round or battle.tally is None:
        return False
    seen = set(battle.tally.detected)
    return all(u.id in seen or not u.active for u in battle.side_units("enemy"))


def _met_now(battle: Battle, o: Objective, began: int) -> bool:
    if o.id == "OB1":
        return _decapitated(battle)
    if o.id == "OB6":
        return _demolished(battle, o.hex)
    if o.id == "OB8":
        return _reconnoitred(battle, began)
    if battle.phase != "over":
        return False
    if o.id == "OB2":
        return _annihilated(battle)
    if o.id == "OB3":
        return _swift(battle)
    if o.id == "OB4":
        return _unscathed(battle)
    if o.id == "OB7":
        return _escorted(battle)
    return False  # OB5 is met only at the end of a round (round_closed)


def _mark(battle: Battle, check: Callable[[Battle, Objective], bool]) -> BattleChange:
    events: list[Event] = []
    objectives = []
    for o in battle.objectives:
        if not o.met and check(battle, o):
            o = attrs.evolve(o, met=battle.round)
            events.append(ObjectiveMet(id=o.id, round=battle.round, hidden=o.hidden))
        objectives.append(o)
    if not events:
        return battle, []
    return attrs.evolve(battle, objectives=tuple(objectives)), events


def round_closed(battle: Battle) -> BattleChange:
    """OB5 at the end of a round from round 3 on (after every activation and the round's
    overwatch fire, before step 5a; ruling O11d). Unchanged without an OB5 objective."""
    first = catalog().objectives.kind("OB5").round
    if battle.round < first or not any(o.id == "OB5" and not o.met for o in battle.objectives):
        return battle, []
    return _mark(battle, lambda b, o: o.id == "OB5" and o.hex is not None and holds(b, o.hex))


# ---- the tally (O11.3, O11.5) --------------------------------------------------------------
def _tallied(battle: Battle, tally: Tally, events: Sequence[Event]) -> Tally:
    cat = catalog()
    sizes = ("small", "medium", "large")
    shots = list(tally.shots)
    equipment = tally.equipment
    collateral = tally.collateral
    mark = next((o.hex for o in battle.objectives if o.id == "OB6"), None)

    def player(unit_id: str) -> bool:
        try:
            return battle.unit(unit_id).side == "player"
        except KeyError:
            return False

    seen = set(tally.detected)
    if battle.rule("O8"):  # OB8: every contact the player's side has had
        seen |= {c.unit for c in battle.contacts if c.side == "player"}
        seen |= {e.unit for e in events if isinstance(e, Detected) and e.side == "player"}
    for e in events:
        weapon: str | None = None
        if isinstance(e, Attacked) and isinstance(e.result, AttackResult):
            if player(e.result.attacker):
                weapon = e.result.weapon
        elif isinstance(e, StructureAttacked) and player(e.unit):
            weapon = e.weapon
            if e.before > 0 and e.after == 0 and e.hex != mark:
                collateral += 1
        elif isinstance(e, EquipmentUsed) and player(e.unit):
            equipment += 1
        if weapon is not None and weapon in cat.weapons:  # a kick is no weapon: free (O11.5)
            shots[sizes.index(cat.weapons[weapon].size)] += 1
    return Tally(
        shots=(shots[0], shots[1], shots[2]),
        equipment=equipment,
        collateral=collateral,
        detected=tuple(sorted(seen)),
    )


def structure_lost(battle: Battle) -> int:
    """O11.5's structure: every structure point the player's frames lost in the battle (the
    state after Reactive Armor)."""
    return sum(max(0, u.start_structure - u.total_structure) for u in battle.side_units("player"))


def mission_costs(battle: Battle) -> MissionCosts:
    """O11.5: 50 x P credits, P = structure lost + shots by tier + equipment uses."""
    rates = catalog().objectives.costs
    tally = battle.tally or Tally()
    structure = structure_lost(battle)
    small, medium, large = tally.shots
    points = (
        structure * rates.structure
        + small * rates.small
        + medium * rates.medium
        + large * rates.large
        + tally.equipment * rates.equipment_use
    )
    return MissionCosts(
        structure=structure,
        shots=tally.shots,
        equipment=tally.equipment,
        credits=points * rates.credits_per_point,
    )


# ---- the hook ------------------------------------------------------------------------------
def track_battle(battle: Battle, events: Sequence[Event]) -> BattleChange:
    """One accepted command's effect on an O11 battle: the tally, the objectives met, and at
    the end the mission costs. A battle without a tally (O11 off) is returned as it is."""
    if battle.tally is None:
        return battle, []
    tally = _tallied(battle, battle.tally, events)
    if tally != battle.tally:
        battle = attrs.evolve(battle, tally=tally)
    began = next((e.round - 1 for e in events if isinstance(e, RoundStarted)), battle.round)
    battle, out = _mark(battle, lambda b, o: _met_now(b, o, began))
    if any(isinstance(e, BattleEnded) for e in events):
        out.append(mission_costs(battle))
    return battle, out


def track(state: GameState, events: tuple[Event, ...]) -> tuple[GameState, tuple[Event, ...]]:
    """The after-step hook of `game.TABLE` (before the campaign's settlement)."""
    battle = state.battle
    if battle is None or battle.tally is None:
        return state, events
    new, more = track_battle(battle, events)
    if not more and new is battle:
        return state, events
    return attrs.evolve(state, battle=new), (*events, *more)
