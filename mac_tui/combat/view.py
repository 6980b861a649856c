"""Optional module O8: a side's **view** of a battle (O8.10, O8.11).

`view_of(state or battle, side)` is what `side` knows: its own (and allied) frames in full, the
map (terrain, levels, features, smoke: always known, O8.1), the enemies it detects now where
they are, with what can be seen of them; every other enemy only as what the side could know
of it: its id, label, chassis and pilot, a fresh frame of that chassis with no weapons or
equipment, standing at its last-known hex (a **marker**, listed in `Battle.markers`, never
detected) or off the map when the side never detected it (O8.1: the enemy deploys hidden).
Only the side's own contacts, last-known positions and Targeting Uplink designations are kept,
another side's O9 commander abilities not yet used and formation order (only the formation
in effect shows) are left out, and of the dice only the AI's stream (`dice.AI`), so nothing
in a view depends on a hidden enemy's position, armour or loadout. The screen draws the
player's view; the AI's `decide` is given its side's view (O8.11), never the state. With O8
off the view is the state itself.

A view is a `Battle` (a `GameState`) like any other, so the rules run on it unchanged (the AI
steps its plans on it); `view_of` of a view is the view (idempotent).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import overload

import attrs

from ..core import Event
from ..dice import AI, RngState
from ..model import GameState
from . import detection, stats
from .state import Battle, Side, Unit, friendly

__all__ = ["hidden_enemies", "view_of", "view_rng", "visible_events"]


def _unknown(unit: Unit, battle: Battle, side: Side) -> Unit:
    """What `side` knows of an enemy it does not detect: a fresh frame of its chassis, no
    weapons or equipment, at its last-known hex (O8.12) or off the map."""
    last = next((lk for lk in battle.last_known if lk.side == side and lk.unit == unit.id), None)
    chassis = stats.chassis_of(unit)
    armor = stats.armor_split(chassis)
    structure = stats.full_structure(chassis)
    return Unit(
        id=unit.id,
        side=unit.side,
        label=unit.label,
        chassis=unit.chassis,
        pilot=unit.pilot,
        weapons=(),
        pos=None if last is None else last.hex,
        armor=armor,
        structure=structure,
        start_armor=sum(armor),
        start_structure=sum(structure),
        stance=unit.stance,
        priority=unit.priority,
        facing=None if last is None else last.facing,
    )


def hidden_enemies(battle: Battle, side: Side) -> tuple[Unit, ...]:
    """The living frames not of `side` (nor, for the player, allied) it does not detect now
    (O8.5; a neutral too)."""
    seen = {c.unit for c in battle.contacts if c.side == side}
    return tuple(
        u
        for u in battle.units
        if u.active and not friendly(side, u.side) and (u.id not in seen or u.id in battle.markers)
    )


def _battle_view(battle: Battle, side: Side) -> Battle:
    if not detection.on(battle):
        return battle
    if battle.phase == "deployment":
        hidden = {u.id for u in battle.units if not friendly(side, u.side)}
    else:
        hidden = {u.id for u in hidden_enemies(battle, side)}
    units = tuple(
        _unknown(u, battle, side)
        if u.id in hidden
        else u
        if friendly(side, u.side) or not u.abilities
        else attrs.evolve(u, abilities=())  # O8.11 with O9: held abilities hidden until used
        for u in battle.units
    )
    markers = tuple(u.id for u in units if u.id in hidden and u.pos is not None)
    return attrs.evolve(
        battle,
        units=units,
        markers=markers,
        contacts=tuple(c for c in battle.contacts if c.side == side),
        last_known=tuple(lk for lk in battle.last_known if lk.side == side),
        uplinks=tuple(u for u in battle.uplinks if u.side == side),
        formations=tuple(
            f
            if friendly(side, f.side)
            else attrs.evolve(f, order=f.effect, screens=f.effect_screens)  # O9.1: orders hidden
            for f in battle.formations
        ),
    )


def view_rng(rng: RngState) -> RngState:
    """Of the dice, a view keeps the seed and the AI's stream only."""
    return RngState(rng.seed, tuple((s, n) for s, n in rng.counters if s == AI))


@overload
def view_of(game: GameState, side: Side) -> GameState: ...
@overload
def view_of(game: Battle, side: Side) -> Battle: ...
def view_of(game: GameState | Battle, side: Side) -> GameState | Battle:
    """O8.10, O8.11: what `side` knows of the battle (see the module's docstring); the state
    itself while there is no battle or O8 is off."""
    if isinstance(game, Battle):
        return _battle_view(game, side)
    battle = game.battle
    if battle is None or not detection.on(battle):
        return game
    return attrs.evolve(game, battle=_battle_view(battle, side), rng=view_rng(game.rng))


def _actors(event: Event) -> tuple[str | None, str | None]:
    """The frame an event is about (for a shot: the attacker) and the frame it acts on."""
    result = getattr(event, "result", None)
    if result is not None and hasattr(result, "attacker"):
        return result.attacker, result.target
    unit = getattr(event, "unit", None)
    target = getattr(event, "target", None)
    return (unit if isinstance(unit, str) else None), (target if isinstance(target, str) else None)


def visible_events(battle: Battle | None, events: Sequence[Event], side: Side) -> list[Event]:
    """O8.10: of a step's events, those `side` may see, `battle` being the battle after them:
    everything its own frames do and suffer, the acts of the enemies it detects now, its own
    `Detected` and `ContactLost`, and what concerns no frame; an attack from an unseen frame
    shows, its reveal (`Detected`, revealed) first. Everything with O8 off."""
    if battle is None or not detection.on(battle):
        return list(events)
    ids = {u.id: u for u in battle.units}
    seen = {c.unit for c in battle.contacts if c.side == side}

    def own(uid: str | None) -> bool:
        u = ids.get(uid) if uid is not None else None
        return u is not None and friendly(side, u.side)

    def known(uid: str | None) -> bool:
        u = ids.get(uid) if uid is not None else None
        return u is None or own(uid) or uid in seen or not u.active

    reveals = {
        e.unit: e
        for e in events
        if isinstance(e, detection.Detected) and e.side == side and e.how == "revealed"
    }
    out: list[Event] = []
    for e in events:
        if isinstance(e, (detection.Detected, detection.ContactLost)):
            if e.side == side and e not in out:
                out.append(e)
            continue
        actor, acted_on = _actors(e)
        if actor is None or known(actor) or own(acted_on):
            if actor in reveals and reveals[actor] not in out:
                out.append(reveals[actor])  # the muzzle flash before the shot's result
            out.append(e)
    return out
