"""Range-band battles (optional module O1): the track of positions 0-3 instead of a map.

The track is kept as a one-row map of open hexes, position p being the hex (p, 0), so the hex
distance between two frames is their range |pos X - pos Y| (O1.1) and everything that asks a
distance (overwatch's nearest enemy O1.8, R30, the AI's preferred band O1.9) asks it unchanged.
What differs is here: the start lines (O1.3), moving along the track with no passing (O1.2,
O1.4), the band's §3.4 column with no maximum range (O1.5) and the equipment on bands (O1.7).
No terrain (O1.6): the track is open ground, and `attack.hit_chance` lists no `cover`, `LOS` or
`indirect` with O1 on. Numbers come from `data/range_bands.toml` (`catalog().range_bands`); the
module draws no dice.
"""

from __future__ import annotations

from typing import Final

from attrs import frozen

from ..catalog import catalog
from ..hexgrid import Hex
from . import stats
from .mapgen import OPEN, BattleMap
from .state import Battle, Side, Unit
from .stats import ap_costs

O1: Final = "O1"
#: The §3.4 columns of the ranges 0-3 (O1.1, O1.5), in the range classes' field names.
BANDS: Final[tuple[str, ...]] = ("point_blank", "short", "medium", "long")
#: Their names as the rules write them.
BAND_NAMES: Final[tuple[str, ...]] = ("Point Blank", "Short", "Medium", "Long")


def on(battle: Battle) -> bool:
    """True when the battle is fought on the track (O1 on)."""
    return O1 in battle.ruleset


def at(position: int) -> Hex:
    """The hex that stands for a track position."""
    return Hex(position, 0)


def position(h: Hex) -> int:
    """The track position of a frame's hex."""
    return h.q


def positions() -> int:
    return catalog().range_bands.track.positions


def track_map() -> BattleMap:
    """O1.1, O1.6: the track as a one-row map of open ground."""
    n = positions()
    return BattleMap(n, 1, (OPEN,) * n)


def start_line(side: Side) -> int:
    """O1.3: the player's line (0) or the enemy's (3); the side's own line (O1.4 pull-back).
    O1.12 with O10: the allies start on the player's line (and neutrals, which O1 does not
    have, would be the enemy's)."""
    track = catalog().range_bands.track
    return track.player_start if side in ("player", "ally") else track.enemy_start


def toward_own_line(side: Side, start: int, end: int) -> bool:
    """O1.4: a shift toward the side's own line is a pull-back."""
    return abs(end - start_line(side)) < abs(start - start_line(side))


def band_name(rng: int) -> str:
    """`Point Blank`, `Short`, `Medium` or `Long` (O1.1)."""
    return BAND_NAMES[min(rng, len(BAND_NAMES) - 1)]


def band_modifier(range_id: str, rng: int) -> int:
    """O1.5: the range class's §3.4 column of the band; every band, no maximum range."""
    return catalog().range_class(range_id).band_modifier(BANDS[min(rng, len(BANDS) - 1)])


def passing_refusal(battle: Battle, unit: Unit, end: int) -> str | None:
    """O1.2: a player frame may not go past the lowest living enemy position, an enemy frame
    not below the highest living player position (toward the other line: the side whose own
    line is the other end is mirrored)."""
    foes = [position(u.pos) for u in battle.foes(unit.side) if u.pos is not None]
    if not foes:
        return None
    home, player_line, enemy_line = start_line(unit.side), start_line("player"), start_line("enemy")
    if home < (enemy_line if home == player_line else player_line):  # it advances upward
        limit = min(foes)
        if end > limit:
            return f"no passing: an enemy holds position {limit} (O1.2)"
    else:
        limit = max(foes)
        if end < limit:
            return f"no passing: an enemy holds position {limit} (O1.2)"
    return None


@frozen
class Shift:
    """A legal shift along the track: where to, what it costs, whether it pulls back."""

    start: int
    end: int
    energy: int
    pullback: bool


def sprint_positions() -> int:
    """O1.4: a Sprint shifts the Move's positions times the core sprint multiplier (two)."""
    cat = catalog()
    return cat.range_bands.moving.move * cat.combat.movement.sprint_range_multiplier


def slowed(unit: Unit) -> bool:
    """O1.7: working equipment that costs hexes of movement (Stealth Plating) bars Sprinting."""
    cat = catalog()
    return any(cat.equipment[e.equipment].move_penalty for e in unit.equipment if not e.destroyed)


def check_shift(battle: Battle, unit: Unit, target: Hex, sprint: bool) -> Shift | str:
    """O1.2, O1.4, O1.7: why a Move (Sprint) to `target` is illegal, or the shift. A Move
    shifts one position and a Sprint exactly two, one way; toward the own line it is a
    pull-back (x1.5 rounded up for a Move; a Sprint costs x2 either way, R3)."""
    ap_cost = ap_costs().sprint if sprint else ap_costs().move
    if unit.ap < ap_cost:
        return f"needs {ap_cost} AP, {unit.ap} left"
    if not stats.can_move(unit):
        return "the legs are destroyed: this frame cannot move"
    if sprint and slowed(unit):
        return "its stealth plating cannot Sprint on the track (O1.7)"
    if sprint and unit.stun == "stunned":  # O7.6 halves its movement (ruling O1g)
        return "a Stunned frame cannot Sprint on the track (O7.6)"
    assert unit.pos is not None
    start, end = position(unit.pos), position(target)
    if target.r != 0 or not 0 <= end < positions():
        return f"position {end} is off the track (0-{positions() - 1})"
    if start == end:
        return "the frame is already there"
    shift = sprint_positions() if sprint else catalog().range_bands.moving.move
    if abs(end - start) != shift:
        kind = "a Sprint" if sprint else "a Move"
        return f"{kind} shifts {shift} position{'s' if shift != 1 else ''}, not {abs(end - start)}"
    barred = passing_refusal(battle, unit, end)
    if barred is not None:
        return barred
    back = toward_own_line(unit.side, start, end)
    energy = stats.move_energy(unit, sprint=sprint, pullback=back)
    left = stats.energy_left(unit)
    if left < energy:
        return f"needs {energy} energy, {left} left"
    return Shift(start=start, end=end, energy=energy, pullback=back)


def reach(battle: Battle, unit: Unit, sprint: bool) -> dict[Hex, tuple[int, Hex | None]]:
    """The positions one Move (Sprint) can shift to by the track's geometry and O1.2 (energy
    aside), in `movement.reach`'s form: hex -> (positions shifted, the hex it came from)."""
    if unit.pos is None or not stats.can_move(unit) or (sprint and slowed(unit)):
        return {}
    if sprint and unit.stun == "stunned":  # ruling O1g
        return {}
    start = position(unit.pos)
    shift = sprint_positions() if sprint else catalog().range_bands.moving.move
    out: dict[Hex, tuple[int, Hex | None]] = {unit.pos: (0, None)}
    for end in (start - shift, start + shift):
        if 0 <= end < positions() and passing_refusal(battle, unit, end) is None:
            out[at(end)] = (shift, unit.pos)
    return out


def check_thrust(battle: Battle, unit: Unit, target: Hex) -> str | None:
    """O1.7: the Thrust Pack shifts one position (no passing), legs intact."""
    assert unit.pos is not None
    end = position(target)
    if target.r != 0 or not 0 <= end < positions():
        return f"position {end} is off the track (0-{positions() - 1})"
    reach_ = catalog().range_bands.equipment.thrust_positions
    if abs(end - position(unit.pos)) != reach_:
        return f"the thrust pack shifts {reach_} position{'s' if reach_ != 1 else ''}"
    return passing_refusal(battle, unit, end)


def hexes(battle: Battle, moved: int) -> int:
    """O1.12: what `moved` steps count as for O5 (n, m) and O7 (H): on the track each position
    counts 3 hexes, on a map a hex is a hex."""
    if not on(battle):
        return moved
    return moved * catalog().range_bands.combinations.hexes_per_position


def shared_position(battle: Battle, side: Side) -> bool:
    """O1.12 with O9: two or more active frames of `side` stand at one position (what Battle
    Plan needs on the track instead of a formation)."""
    spots = [position(u.pos) for u in battle.units if u.side == side and u.active and u.pos]
    return len(spots) != len(set(spots))


def describe_position(unit: Unit) -> str:
    return "off the track" if unit.pos is None else f"position {position(unit.pos)}"
