"""Optional module O4, Facing and arcs (optional-rules.md O4.1-O4.11).

Every function here answers as the core game does while the battle's ruleset leaves O4 off
(every weapon bears, no arc, the core hit location table, no `rear`), so the hooks in the shared
modules can call it unconditionally. Numbers come from `data/facing.toml` (`catalog().facing`);
the geometry (G1-G4, the O4.7 arcs) is `hexgrid.arc`.

* O4.1 `default_facing` (deployment, O10's sides too), `DIRECTION_NAMES` / `direction` /
  `named` (the text of a facing).
* O4.2 `move_facings`, `end_facing` (the last step's direction or one hexside either side).
* O4.3 `reverse_directions`, `move_refusal` (the directions a reverse Move steps in).
* O4.5/O4.6 `pivot_facings`, `check_pivot`, `check_turn`, the `Pivoted` and `Turned` events.
* O4.7 `attack_arc`, `arc_from` (the arc of the target an attacker stands in).
* O4.8 `bears`, `bears_from`, `mount_arcs` (a weapon's mount arc holds the target hex).
* O4.9 `rear_bonus` (the `rear` entry) and `hit_weights` (the hit location table by arc).
* What-ifs for the threat view: `turned_toward`, `free_facings`.
"""

from __future__ import annotations

from typing import Final

import attrs
from attrs import frozen

from ..catalog import LOCATION_ORDER, catalog
from ..catalog.records import FacingFile
from ..core import Event
from ..hexgrid import DIRECTIONS, Arc, Hex, arc
from ..memo import ByIdentity
from . import stats
from .events import FACING_NAMES
from .state import Battle, Side, Unit, WeaponState

__all__ = [
    "DIRECTION_NAMES",
    "O4",
    "OFF",
    "Pivoted",
    "Turned",
    "arc_from",
    "arc_words",
    "attack_arc",
    "bears",
    "bears_from",
    "check_pivot",
    "check_turn",
    "data",
    "default_facing",
    "direction",
    "end_facing",
    "facing_name",
    "free_facings",
    "hit_weights",
    "mount_arcs",
    "move_facings",
    "move_refusal",
    "named",
    "on",
    "pivot_facings",
    "rear_bonus",
    "reverse_directions",
    "spread",
    "step_direction",
    "turned_toward",
]

#: The module's id in a ruleset.
O4: Final = "O4"
#: The names of the six facings, in `hexgrid.DIRECTIONS` order (G1).
DIRECTION_NAMES: Final[tuple[str, ...]] = FACING_NAMES
_ARC_WORDS: Final[dict[str, str]] = {
    "front": "front",
    "left": "left side",
    "right": "right side",
    "rear": "rear",
}


def on(battle: Battle) -> bool:
    """Whether the battle plays O4."""
    return O4 in battle.ruleset


def data() -> FacingFile:
    return catalog().facing


def direction(name: str) -> int | None:
    """The index of a facing named `E`, `NE`, ... (any case), or None."""
    word = name.strip().upper()
    return DIRECTION_NAMES.index(word) if word in DIRECTION_NAMES else None


def facing_name(facing: int) -> str:
    return DIRECTION_NAMES[facing % 6]


def arc_words(a: str) -> str:
    """`left side` for `left`: the arc as the screens and the log say it."""
    return _ARC_WORDS.get(a, a)


def step_direction(a: Hex, b: Hex) -> int:
    """The direction of the step from `a` to the adjacent `b` (ValueError if not adjacent)."""
    return DIRECTIONS.index(Hex(b[0] - a[0], b[1] - a[1]))


# ---- O4.1 deployment ---------------------------------------------------------------------------
def default_facing(side: Side) -> int:
    """O4.1: E for the player's frames, W for the enemy's; O10's allies as the player's, its
    neutrals as the enemy's (ruling O4f; data/facing.toml)."""
    dep = data().deployment
    name = {"player": dep.player, "enemy": dep.enemy, "ally": dep.ally, "neutral": dep.neutral}
    return DIRECTION_NAMES.index(name[side])


# ---- O4.2, O4.3, O4.5 facings a frame may take -------------------------------------------------
def spread(centre: int, n: int) -> tuple[int, ...]:
    """`centre`, then one hexside either side, ... up to `n` (counter-clockwise first)."""
    out = [centre % 6]
    for k in range(1, n + 1):
        for d in ((centre + k) % 6, (centre - k) % 6):
            if d not in out:
                out.append(d)
    return tuple(out)


def move_facings(path: tuple[Hex, ...]) -> tuple[int, ...]:
    """O4.2: the facings a frame may end a Move or Sprint along `path` with: the last step's
    direction first (the default), then one hexside either side."""
    last = step_direction(path[-2], path[-1])
    return spread(last, data().move.spread)


def reverse_directions(facing: int) -> tuple[int, ...]:
    """O4.3: the directions a reverse Move steps in (facing + 2, + 3, + 4: back-left, back,
    back-right)."""
    return tuple((facing + k) % 6 for k in data().reverse.steps)


def pivot_facings(facing: int) -> tuple[int, ...]:
    """O4.5: the facings the free pivot reaches (one hexside either way)."""
    return spread(facing, data().pivot.hexsides)[1:]


# ---- the checks of the O4 commands and options ----------------------------------------------
#: Why an O4 option or command is refused with the module off.
OFF: Final = "facing is optional module O4's (Facing and arcs), off in this battle"


def named(name: str) -> int | str:
    """The facing a command names, or why the name is no facing."""
    d = direction(name)
    if d is None:
        return f"no facing {name!r} (choose from {', '.join(DIRECTION_NAMES)})"
    return d


def move_refusal(battle: Battle, unit: Unit, sprint: bool, reverse: bool) -> str | None:
    """O4.3: why a reverse Move cannot be declared at all (O4 off, a Sprint), or None."""
    if not reverse:
        return None
    if not on(battle) or unit.facing is None:
        return OFF
    if sprint:
        return "only a Move can be made in reverse, not a Sprint (O4.3)"
    return None


def end_facing(
    battle: Battle, unit: Unit, steps: tuple[Hex, ...], reverse: bool, name: str
) -> int | str | None:
    """O4.2/O4.3: the facing a frame ends a Move or Sprint along `steps` with (None with O4
    off), or why the facing `name`d in the command cannot be taken."""
    if not on(battle) or unit.facing is None:
        return OFF if name else None
    if reverse:  # O4.3: the facing is unchanged
        if name and named(name) != unit.facing:
            return f"a reverse Move keeps the facing ({facing_name(unit.facing)}, O4.3)"
        return unit.facing
    options = move_facings(steps)
    if not name:
        return options[0]
    d = named(name)
    if isinstance(d, str):
        return d
    if d not in options:
        words = ", ".join(facing_name(o) for o in options)
        return f"after this move {unit.label} may face {words} (O4.2), not {facing_name(d)}"
    return d


def check_pivot(battle: Battle, unit: Unit, name: str) -> str | None:
    """O4.5: once per activation, one hexside, 0 AP and 0 energy."""
    if not on(battle) or unit.facing is None:
        return OFF
    d = named(name)
    if isinstance(d, str):
        return d
    if unit.pivoted:
        return f"{unit.label} has pivoted already this activation (once per activation, O4.5)"
    options = pivot_facings(unit.facing)
    if d not in options:
        words = " or ".join(facing_name(o) for o in options)
        return f"a pivot turns one hexside: from {facing_name(unit.facing)} to {words} (O4.5)"
    return None


def check_turn(battle: Battle, unit: Unit, name: str, ap: int, energy_left: int) -> str | None:
    """O4.6: any facing for 1 AP (0 energy); a frame whose legs are destroyed cannot turn in
    place (ruling O4b)."""
    if not on(battle) or unit.facing is None:
        return OFF
    d = named(name)
    if isinstance(d, str):
        return d
    t = data().turn
    if ap < t.ap:
        return f"turning needs {t.ap} AP, {ap} left"
    if energy_left < t.energy:
        return f"turning needs {t.energy} energy, {energy_left} left"
    if not stats.can_move(unit):
        return "the legs are destroyed: this frame cannot turn in place (ruling O4b)"
    if d == unit.facing:
        return f"{unit.label} already faces {facing_name(d)}"
    return None


def turned_toward(battle: Battle, unit: Unit, at: Hex, options: tuple[int, ...], x: Hex) -> Unit:
    """`unit` standing at `at` facing the first of `options` (its possible facings) that holds
    `x` in its front arc, else the first of them (a what-if for the threat view: an enemy
    turns its guns on the frame it means to hit). The unit itself with O4 off."""
    if not on(battle) or unit.facing is None or not options:
        return unit
    best = next((f for f in options if arc(at, f, x) == "front"), options[0])
    return unit if best == unit.facing else attrs.evolve(unit, facing=best)


def free_facings(unit: Unit) -> tuple[int, ...]:
    """The facings a frame can take with no AP: its own, and the free pivot's while unspent."""
    if unit.facing is None:
        return ()
    return (unit.facing, *(() if unit.pivoted else pivot_facings(unit.facing)))


# ---- O4.7, O4.8 arcs ---------------------------------------------------------------------------
def attack_arc(battle: Battle, attacker: Unit, target: Unit) -> Arc | None:
    """O4.7: the arc of `target` that `attacker` stands in (P = the target, X = the attacker);
    None with O4 off, or while either has no position or the target no facing."""
    if target.facing is None or attacker.pos is None or target.pos is None or not on(battle):
        return None
    return arc(target.pos, target.facing, attacker.pos)


def arc_from(battle: Battle, target: Unit, at: Hex) -> Arc | None:
    """O4.7: the arc of `target` an attacker standing at `at` would be in (None with O4 off)."""
    if target.facing is None or target.pos is None or not on(battle) or at == target.pos:
        return None
    return arc(target.pos, target.facing, at)


_MOUNTS: ByIdentity[FacingFile, dict[str, frozenset[str]]] = ByIdentity(4)


def mount_arcs(mount: str) -> frozenset[str]:
    """O4.8: the arcs the weapons on a mount location fire into."""
    table = _MOUNTS.get(data(), lambda f: {m.location: frozenset(m.arcs) for m in f.mount})
    return table[mount]


def bears(battle: Battle, unit: Unit, weapon_state: WeaponState, target_hex: Hex) -> bool:
    """O4.8: whether `weapon_state` of `unit` can fire at `target_hex`: the hex lies in one of
    its mount location's arcs (O4.7 around the unit's own facing). Always True with O4 off (or
    while the unit has no position or facing)."""
    facing = unit.facing
    if facing is None or unit.pos is None or not on(battle) or target_hex == unit.pos:
        return True
    return bears_from(unit.pos, facing, weapon_state.mount, target_hex)


def bears_from(pos: Hex, facing: int, mount: str, target_hex: Hex) -> bool:
    """O4.8 for a frame standing at `pos` facing `facing` (the AI's and the previews' what-if)."""
    return arc(pos, facing, target_hex) in mount_arcs(mount)


# ---- O4.9 arc effects --------------------------------------------------------------------------
def rear_bonus(battle: Battle, attacker: Unit, target: Unit) -> int:
    """O4.9: `rear` (+10) for an attack from the target's rear arc; 0 otherwise or O4 off."""
    return data().rear.modifier if attack_arc(battle, attacker, target) == "rear" else 0


def hit_weights(a: str) -> tuple[tuple[str, int], ...]:
    """O4.9: (location, weight) in LOCATION_ORDER for an attacker in arc `a`."""
    row = data().table(a)
    return tuple((loc, row.weight(loc)) for loc in LOCATION_ORDER)


# ---- O4.10 events ------------------------------------------------------------------------------
@frozen
class Pivoted(Event):
    """O4.5: the free pivot (one hexside, 0 AP)."""

    unit: str
    facing: int

    def describe(self) -> str:
        return f"{self.unit} pivots to face {facing_name(self.facing)}"


@frozen
class Turned(Event):
    """O4.6: a Turn (1 AP) to any facing."""

    unit: str
    facing: int
    ap: int

    def describe(self) -> str:
        return f"{self.unit} turns to face {facing_name(self.facing)}"
