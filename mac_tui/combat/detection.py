"""Optional module O8, Detection and fog of war (optional-rules.md O8.1-O8.13).

Every function here answers as the core game does while the battle's ruleset leaves O8 off
(every frame detects every enemy, nothing radiates, no contact is kept), so the hooks in the
shared modules can call it unconditionally. Numbers come from `data/detection.toml`
(`catalog().detection`).

* O8.2 `radiates`, `refresh_radiating` (phase 1, cause (a)), `mark_radiating` ((b)-(d)).
* O8.3 `sight_penalty` and `sees`; O8.4 `visual_range`.
* O8.5 `detects` (one frame: sight, thermal, revealed, designated, bumped; with O9's Screen
  in effect a screened member also what a screen detects, and it is never detected
  thermally: `screens_of`, `thermal`) and `side_detection` (a side: what its screen shows and
  its AI knows); `reveal`.
* O8.6 `attack_refusal` (every attack needs the attacker to detect the target; the hit chance
  and the fire checks ask it), `spotter_cut`.
* O8.7 `radiating_bonus`.
* O8.8 `known_occupied` and `bump` (moves are planned on the side's view).
* O8.9 `pullback`.
* O8.12 `refresh_contacts`: the side's contacts and last-known positions, with the events.
* O8.13 the events `Detected`, `ContactLost`, `Radiating`, `Bumped`.

The side's **view** (O8.10, O8.11) is `view.view_of`, built on these.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

import attrs
from attrs import frozen

from ..catalog import catalog
from ..catalog.records import DetectionFile
from ..core import Event
from ..hexgrid import Hex, distance, to_offset
from . import elevation, formations, stats
from .events import Moved, RoundStarted, Vented
from .features import smoke_at
from .formations import MAINTENANCE, AbilityUsed
from .lines import battle_line, blocked
from .state import Battle, Contact, LastKnown, Side, Unit, friendly

__all__ = [
    "HOWS",
    "Bumped",
    "ContactLost",
    "Detected",
    "Radiating",
    "activation_starts",
    "attack_refusal",
    "bump",
    "detection_of",
    "detects",
    "known_enemy_hexes",
    "known_occupied",
    "mark_radiating",
    "on",
    "pullback",
    "radiates",
    "radiating_bonus",
    "refresh_contacts",
    "refresh_radiating",
    "reveal",
    "rules",
    "screens_of",
    "sees",
    "side_detection",
    "sight_penalty",
    "spotter_cut",
    "thermal",
    "update",
    "visual_range",
]

#: O8.13's ways of detecting, in the order a contact names the first that holds (bumped: O8a;
#: shared: O9.6's screens, for one frame's targeting only).
HOWS: Final = ("sight", "thermal", "revealed", "designated", "bumped", "shared")
MODULE: Final = "O8"


# --- events (O8.13) --------------------------------------------------------------------------
@frozen
class Detected(Event):
    """O8.13: `side` detects the enemy frame `unit` at `hex` (`how`: sight, thermal, revealed,
    designated, bumped)."""

    side: str
    unit: str
    how: str
    hex: Hex

    def describe(self) -> str:
        return f"{self.side} detects {self.unit} at {self.hex.q},{self.hex.r} ({self.how})"


@frozen
class ContactLost(Event):
    """O8.13: `side` no longer detects `unit`; `hex` becomes its last-known position."""

    side: str
    unit: str
    hex: Hex

    def describe(self) -> str:
        where = f"{self.hex.q},{self.hex.r}"
        return f"{self.side} loses contact with {self.unit} (last seen at {where})"


@frozen
class Radiating(Event):
    """O8.2/O8.13: `unit` radiates until the end of the round (`cause`: stress, overload,
    vent, jump)."""

    unit: str
    cause: str

    def describe(self) -> str:
        return f"{self.unit} radiates ({self.cause})"


@frozen
class Bumped(Event):
    """O8.8: `unit`'s move stopped at `hex`, short of the undetected enemy `enemy`."""

    unit: str
    enemy: str
    hex: Hex

    def describe(self) -> str:
        return f"{self.unit} bumps into {self.enemy} and stops at {self.hex.q},{self.hex.r}"


# --- rules --------------------------------------------------------------------------------------
def rules() -> DetectionFile:
    return catalog().detection


def on(battle: Battle) -> bool:
    """True when O8 is switched on in this battle."""
    return battle.rule(MODULE)


def radiates(unit: Unit) -> bool:
    """O8.2: the frame radiates now (a shut-down frame is cold)."""
    return bool(unit.radiating) and not unit.shutdown and unit.active


def visual_range(viewer: Unit, target: Unit) -> int:
    """O8.4: 10; 5 with a Sensor Hit or a breached cockpit (not cumulative); +4 with a working
    Sensor Array; -3 against Stealth Plating; at most 5 against a working Phantom Emitter."""
    vr = rules().visual_range
    reach = vr.damaged if viewer.sensor_hit or viewer.cockpit_breached else vr.base
    if viewer.has_equipment(vr.sensor_array):
        reach += vr.sensor_array_bonus
    if target.has_equipment(vr.stealth):
        reach -= vr.stealth_cut
    if target.has_equipment(vr.phantom):
        reach = min(reach, vr.phantom_range)
    return reach


def sight_penalty(battle: Battle, a: Hex, b: Hex) -> int | None:
    """O8.3: the line's CORE §3.6 penalty (with O3's features) plus 10 per smoke hex, both end
    hexes counted; None when the line is blocked (O2.6's height line, O3.2's buildings)."""
    if elevation.line_blocked(battle, a, b):
        return None
    line = battle_line(battle, a, b)
    if blocked(line) is not None:
        return None
    penalty = sum(lh.penalty for lh in line)
    if battle.smoke:  # O3 with O8: smoke limits sight
        n = sum(1 for lh in line if lh.smoke)
        n += (smoke_at(battle.smoke, a) > 0) + (smoke_at(battle.smoke, b) > 0)
        penalty += rules().sight.smoke_per_hex * n
    return penalty


def sees(battle: Battle, viewer: Unit, target: Unit) -> bool:
    """O8.3: `viewer` sees `target`: distance (G6) within its visual range, the line not
    blocked and its penalty below 20. False for a frame off the map."""
    a, b = viewer.pos, target.pos
    if a is None or b is None or not (battle.map.contains(a) and battle.map.contains(b)):
        return False
    if elevation.attack_distance(battle, a, b) > visual_range(viewer, target):
        return False
    penalty = sight_penalty(battle, a, b)
    return penalty is not None and penalty < rules().sight.hidden_at


def _designated(battle: Battle, side: Side, target: Unit) -> bool:
    return any(u.side == side and u.target == target.id for u in battle.uplinks)


def screens_of(battle: Battle, unit: Unit) -> tuple[str, ...]:
    """O9.6 with O8: the screens of `unit`'s side when its Screen is in effect and `unit` is a
    screened member (not a screen); else ()."""
    if not battle.rule("O9"):
        return ()
    formation = battle.formation(unit.side)
    if formation.effect != formations.SCREEN or unit.id in formation.effect_screens:
        return ()
    return formation.effect_screens


def thermal(battle: Battle, target: Unit) -> bool:
    """O8.5 thermal: the target radiates, unless it is a screened member (O9.6: "never
    detected thermally")."""
    return radiates(target) and not screens_of(battle, target)


def detection_of(battle: Battle, viewer: Unit, target: Unit) -> str | None:
    """O8.5: how `viewer` detects `target` (the first of `HOWS` that holds), or None. A marker
    of a side's view (a last-known position) is never detected. A screened member (O9.6)
    also detects whatever one of its screens detects (`shared`)."""
    how = _direct(battle, viewer, target)
    if how is not None:
        return how
    for sid in screens_of(battle, viewer):
        screen = battle.unit(sid)
        if screen.active and screen.pos is not None and _direct(battle, screen, target):
            return "shared"
    return None


def _direct(battle: Battle, viewer: Unit, target: Unit) -> str | None:
    """O8.5's own ways for one frame (everything but O9.6's sharing)."""
    if target.id in battle.markers or target.pos is None:
        return None
    if sees(battle, viewer, target):
        return "sight"
    if thermal(battle, target):
        return "thermal"
    if viewer.side in target.revealed_to:
        return "revealed"
    if _designated(battle, viewer.side, target):
        return "designated"
    if target.id in viewer.bumped:
        return "bumped"
    return None


def detects(battle: Battle, viewer: Unit, target: Unit) -> bool:
    """O8.5: `viewer` detects `target`; always True with O8 off."""
    if not on(battle):
        return True
    return detection_of(battle, viewer, target) is not None


def _own(battle: Battle, side: Side) -> list[Unit]:
    """The frames whose detection `side` shares: its own and, for the player, its allies'
    (O10 with O8: a shared view)."""
    return [u for u in battle.units if u.active and u.pos is not None and friendly(side, u.side)]


def side_detection(battle: Battle, side: Side, target: Unit) -> str | None:
    """O8.5, O8.10: how `side` detects `target` (sight by any of its frames, thermal, revealed,
    designated, bumped), or None."""
    if target.id in battle.markers or target.pos is None or not target.active:
        return None
    own = _own(battle, side)
    if not own:
        return None
    if any(sees(battle, u, target) for u in own):
        return "sight"
    if thermal(battle, target):
        return "thermal"
    if side in target.revealed_to:
        return "revealed"
    if _designated(battle, side, target):
        return "designated"
    if any(target.id in u.bumped for u in own):
        return "bumped"
    return None


def attack_refusal(battle: Battle, attacker: Unit, target: Unit) -> str | None:
    """O8.6: why `attacker` may not attack `target` for want of detection, or None (always
    None with O8 off)."""
    if detects(battle, attacker, target):
        return None
    return f"{attacker.label} does not detect {target.label}"


def radiating_bonus(battle: Battle, attacker: Unit, target: Unit) -> int:
    """O8.7: `radiating` +10 when the target radiates and the attacker sees it; else 0."""
    if not on(battle) or not radiates(target) or not sees(battle, attacker, target):
        return 0
    return rules().modifier.radiating


def spotter_cut(battle: Battle, spotter: Unit) -> int:
    """O8.6: what a spotter's working Sensor Array takes off R10's indirect penalty (0 with O8
    off)."""
    if not on(battle):
        return 0
    t = rules().targeting
    return t.spotter_sensor_cut if spotter.has_equipment(t.spotter_sensor_array) else 0


# --- state changes --------------------------------------------------------------------------
def _threshold(unit: Unit) -> int:
    """O8.2 (a): ceil(EffectiveOutput / 2)."""
    div = rules().radiating.stress_divisor
    return -(-stats.effective_output(unit) // div)


def refresh_radiating(battle: Battle) -> tuple[Battle, list[Event]]:
    """O8.2 at the phase-1 refresh: a frame whose stress is at least half its effective output
    (rounded up) radiates all round; every other frame is cold until (b)-(d)."""
    units: list[Unit] = []
    events: list[Event] = []
    for u in battle.units:
        hot = u.active and not u.shutdown and u.stress >= _threshold(u)
        cause = "stress" if hot else ""
        if hot:
            events.append(Radiating(unit=u.id, cause=cause))
        units.append(u if u.radiating == cause else attrs.evolve(u, radiating=cause))
    return attrs.evolve(battle, units=tuple(units)), events


def mark_radiating(battle: Battle, unit_id: str, cause: str) -> tuple[Battle, list[Event]]:
    """O8.2 (b)-(d): `unit_id` radiates from now to the end of the round (no change when it
    radiates already or is shut down)."""
    unit = battle.unit(unit_id)
    if unit.radiating or unit.shutdown or not unit.active:
        return battle, []
    return battle.with_unit(attrs.evolve(unit, radiating=cause)), [
        Radiating(unit=unit_id, cause=cause)
    ]


def reveal(battle: Battle, attacker_id: str, target_side: Side) -> Battle:
    """O8.5: a frame that fires at (or kicks) a frame of `target_side` is detected by every
    frame of that side until the start of its own next activation (no change with O8 off)."""
    if not on(battle):
        return battle
    unit = battle.unit(attacker_id)
    if target_side in unit.revealed_to:
        return battle
    return battle.with_unit(attrs.evolve(unit, revealed_to=(*unit.revealed_to, target_side)))


def activation_starts(battle: Battle, unit_id: str) -> Battle:
    """At the start of `unit_id`'s activation: its muzzle flash is forgotten (O8.5) and every
    bump of the activation before ends (O8.8)."""
    units = tuple(
        attrs.evolve(u, bumped=(), revealed_to=() if u.id == unit_id else u.revealed_to)
        if u.bumped or (u.id == unit_id and u.revealed_to)
        else u
        for u in battle.units
    )
    return attrs.evolve(battle, units=units)


def known_occupied(battle: Battle, side: Side) -> frozenset[Hex]:
    """O8.8: the hexes `side` knows to be taken: its own (and allied) frames and the others it
    detects now; a move is planned around these only."""
    detected = {c.unit for c in battle.contacts if c.side == side}
    return frozenset(
        u.pos
        for u in battle.units
        if u.pos is not None
        and u.active
        and u.id not in battle.markers
        and (friendly(side, u.side) or u.id in detected)
    )


def bump(battle: Battle, unit: Unit, path: Sequence[Hex]) -> tuple[tuple[Hex, ...], Unit | None]:
    """O8.8: the part of `path` the mover walks, and the undetected enemy it bumps into (whose
    hex it does not enter), or None."""
    for i, h in enumerate(path[1:], start=1):
        there = battle.occupant(h)
        if there is not None and not friendly(unit.side, there.side):
            return tuple(path[:i]), there
    return tuple(path), None


def known_enemy_hexes(battle: Battle, side: Side) -> list[Hex]:
    """O8.9: the hexes of the enemies `side` detects now and its last-known positions."""
    detected = {c.unit for c in battle.contacts if c.side == side}
    foes = {u.id for u in battle.units if battle.hostile(side, u.side)}  # O10: not a neutral
    hexes = [
        u.pos
        for u in battle.units
        if u.id in detected
        and u.id in foes
        and u.pos is not None
        and u.active
        and u.id not in battle.markers
    ]
    hexes += [
        lk.hex
        for lk in battle.last_known
        if lk.side == side and lk.unit not in detected and lk.unit in foes
    ]
    return hexes


def pullback(battle: Battle, unit: Unit, target: Hex) -> bool:
    """O8.9 (R3): the move ends farther from the nearest enemy `unit`'s side detects or last
    knew of; knowing none, it ends nearer the side's own deployment edge (offset column)."""
    assert unit.pos is not None
    known = known_enemy_hexes(battle, unit.side)
    if known:
        before = min(distance(unit.pos, h) for h in known)
        after = min(distance(target, h) for h in known)
        return after > before
    col_now, col_then = to_offset(unit.pos)[0], to_offset(target)[0]
    if unit.side in ("player", "ally"):  # O10.4: the allies deploy on the player's edge
        return col_then < col_now
    return col_then > col_now


def refresh_contacts(battle: Battle) -> tuple[Battle, list[Event]]:
    """O8.5, O8.12: every side's contacts now; a new one is `Detected` (and drops the
    last-known record), a lost one is `ContactLost` and leaves a last-known record (hex,
    height, facing, round); a destroyed enemy's contact and record are dropped (its destruction
    is announced)."""
    old = {(c.side, c.unit) for c in battle.contacts}
    last = {(lk.side, lk.unit): lk for lk in battle.last_known}
    contacts: list[Contact] = []
    events: list[Event] = []
    for info in battle.sides:
        side = info.side
        for enemy in battle.units:
            if friendly(side, enemy.side) or enemy.id in battle.markers:
                continue
            key = (side, enemy.id)
            if not enemy.active or enemy.pos is None:
                last.pop(key, None)
                continue
            how = side_detection(battle, side, enemy)
            if how is not None:
                contacts.append(Contact(side=side, unit=enemy.id, how=how))
                if key not in old:
                    last.pop(key, None)
                    events.append(Detected(side=side, unit=enemy.id, how=how, hex=enemy.pos))
            elif key in old:
                last[key] = LastKnown(
                    side=side,
                    unit=enemy.id,
                    hex=enemy.pos,
                    height=elevation.height_at(battle, enemy.pos),
                    facing=enemy.facing,
                    round=battle.round,
                )
                events.append(ContactLost(side=side, unit=enemy.id, hex=enemy.pos))
    kept = tuple(last[k] for k in sorted(last))
    return attrs.evolve(battle, contacts=tuple(contacts), last_known=kept), events


def _causes(battle: Battle, events: Iterable[Event]) -> list[tuple[str, str]]:
    """O8.2 (c), (d): the frames that vented (O9.9c: Percussive Maintenance too) or jumped this
    step, since the last round began."""
    found: list[tuple[str, str]] = []
    for e in events:
        if isinstance(e, RoundStarted):
            found = []
        elif isinstance(e, Moved) and e.mode == "jump":
            found.append((e.unit, "jump"))
        elif isinstance(e, Vented) or (
            isinstance(e, AbilityUsed) and e.ability == MAINTENANCE and e.vented
        ):  # O9.9c: Percussive Maintenance counts as venting
            found.append((e.unit, "vent"))
    return found


def update(battle: Battle, events: Sequence[Event]) -> tuple[Battle, list[Event]]:
    """After every battle command with O8 on: the radiating of O8.2 (b) overload (energy spent
    past 100% of the effective output), (c) venting and (d) jumping, then the sides' contacts
    and last-known positions (O8.12). No change with O8 off."""
    if not on(battle) or battle.phase != "combat":
        return battle, []
    out: list[Event] = []
    for unit_id, cause in _causes(battle, events):
        battle, more = mark_radiating(battle, unit_id, cause)
        out.extend(more)
    for u in battle.units:
        if u.active and u.energy_used > stats.effective_output(u):
            battle, more = mark_radiating(battle, u.id, "overload")
            out.extend(more)
    battle, more = refresh_contacts(battle)
    return battle, out + more
