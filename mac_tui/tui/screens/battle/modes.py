"""The modes of the battle screen, one small frozen class each, with its own fields.

A mode says what the map marks (`overlay`), what the message line says (`prompt`), what a
pick of a hex (Enter, a click) does (`pick`) and what follows an accepted order
(`after_order`). Picks answer with a `Reaction` (a command to send, a dialog to ask, a line to
say, or another mode) that the screen carries out; no mode changes the game itself.

    Deploying(unit)          placing the lance; `unit` is the frame Enter places
    Idle()                   the player's frame waits for an order
    Moving(), Sprinting()    the reach is marked; the cursor previews the path and its energy
    Jumping(item)            the hexes a jump item reaches are marked
    Firing(target, group)    aiming: the target panel shows the shot's preview
    CallingShot(target, group)  the same; Enter then asks for the location
    Kicking(target, group)   O7: picking the adjacent enemy to kick; the panel shows the kick
    EnemyTurn(skipping)      the AI gives the orders, one per animation step (or all: skipping)
    Paused(skipping)         the AI's turn held by the player: "." plays one order
    More()                   one order per key (the pacing setting): Enter plays the next
    Halted(reason)           the AI's order was refused: nothing moves until `a`
    Threats()                the threat view: the panel shows the threat to each frame
    Over()                   the battle has ended: Enter opens the report

`settle(mode, moment)` keeps the mode when it still fits the battle and picks the one that
does otherwise (after every change of the game). The action table (`actions.py`) names, per
key, the modes where it is live.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar, Self

import attrs
from attrs import frozen

from ....catalog import LOCATION_ORDER, catalog
from ....combat import facing, preview, stats, track
from ....combat.commands import (
    CalledShot,
    Deploy,
    FireGroup,
    FireStructure,
    Kick,
    Move,
    Sprint,
    UseEquipment,
)
from ....combat.features import kind_of, section_at, structure_hex, structure_key
from ....combat.firing import check_fire
from ....combat.forecast import Forecast
from ....combat.kicks import kick_targets
from ....combat.preview import KICK_GROUP
from ....combat.state import Battle, Unit
from ....combat.structure_preview import structure_fire_preview
from ....combat.structures import check_fire_structure, targetable
from ....game import Command
from ....hexgrid import Hex, distance
from ....model import GameState
from ....players.driver import next_decision
from ....players.policy import Decision
from ...battle_words import article, hex_name, place_name
from ...glyphs import glyphs
from ...widgets.battle_panels import move_text
from ...widgets.hex_picture import frame_label
from ...widgets.hexmap import Overlay
from ...widgets.target_lines import NO_RISK, ShotRisk, pct
from .moment import Moment, seats

NO_OVERLAY = Overlay()


# ---- what a pick answers ---------------------------------------------------------------------
@frozen
class Say:
    """A line for the message line."""

    text: str
    warning: bool = False


@frozen
class Ask:
    """A choice for the player; the picked value gives the next reaction."""

    title: str
    options: tuple[tuple[str, str], ...]  # (value, label)
    then: Callable[[str], Reaction]


@frozen
class Confirm:
    """A yes/no question; yes gives `then`."""

    question: str
    yes: str
    then: Reaction


class Mode:
    """The base of the modes: nothing marked, nothing said, a pick does nothing."""

    __slots__ = ()
    follows_cursor: ClassVar[bool] = False  # the overlay or the prompt follow the cursor
    warns: ClassVar[bool] = False  # the prompt is a warning

    def overlay(self, m: Moment, cursor: Hex) -> Overlay:
        return NO_OVERLAY

    def prompt(self, m: Moment, cursor: Hex) -> Prompt:
        """The message line (None: leave it as it is); several forms, longest first, for the
        line to take the first that fits."""
        return None

    def pick(self, m: Moment, h: Hex) -> Reaction:
        return None

    def cursor_on(self, m: Moment, h: Hex) -> Mode:
        """The mode once the cursor is on `h`."""
        return self

    def after_order(self, m: Moment) -> Mode:
        """The mode once an order given in it was accepted (`m` is the battle after it)."""
        return self

    def shot_preview(self, m: Moment) -> preview.FirePreview | None:
        """The shot the panel column previews instead of the frame (None: the frame)."""
        return None

    def shot_risk(self, m: Moment) -> ShotRisk:
        """The exact forecast of the previewed shot (combat/forecast.py)."""
        return NO_RISK


Reaction = Command | Mode | Say | Ask | Confirm | None
Prompt = str | tuple[str, ...] | None


# ---- the player's orders ---------------------------------------------------------------------
class _Ordering(Mode):
    """A mode of the player's activation: an accepted order goes back to `Idle`."""

    __slots__ = ()

    def after_order(self, m: Moment) -> Mode:
        return Idle()


@frozen
class Idle(_Ordering):
    def prompt(self, m: Moment, cursor: Hex) -> Prompt:
        unit = m.actor
        if unit is None:
            return None
        text = f"{unit.label} acts: {unit.ap} AP. Pick an action; the cursor shows any frame."
        if unit.facing is not None and m.battle is not None and facing.on(m.battle):
            return (f"{text[:-1]} (B: a reverse Move, O4).", text)  # off the bar at 80 columns
        return text

    def pick(self, m: Moment, h: Hex) -> Reaction:
        here = m.battle.occupant(h) if m.battle is not None and m.actor is not None else None
        if here is None:
            return None
        chassis = catalog().chassis[here.chassis]
        assert m.battle is not None
        where = place_name(h, track.on(m.battle))
        return Say(f"{here.label}: {article(chassis.name)} {chassis.designation} at {where}")


def arcs_words(m: Moment, unit: Unit, at: Hex, f: int | None, turn_keys: bool = True) -> str:
    """O4.10: ` · faces NE: SCOUT-1 front, SCOUT-2 rear (, . turn)`: the facing a frame would
    take and the arc of it each enemy would be in (nothing with O4 off)."""
    if f is None or m.battle is None:
        return ""
    seen = ", ".join(
        f"{frame_label(e)} {facing.arc_words(a)}" for e, a in preview.arcs_at(m.battle, unit, at, f)
    )
    keys = " (, . turn)" if turn_keys else ""
    return (
        f" {glyphs(m.ascii).sep} faces {facing.facing_name(f)}{': ' + seen if seen else ''}{keys}"
    )


class _Walking(_Ordering):
    __slots__ = ()
    follows_cursor = True
    sprint: ClassVar[bool] = False
    reverse: ClassVar[bool] = False  # O4.3: a reverse Move
    turn: int  # O4.2: the end facing, counted from the last step's along its options

    def overlay(self, m: Moment, cursor: Hex) -> Overlay:
        battle, unit = m.battle, m.actor
        if battle is None or unit is None:
            return NO_OVERLAY
        reach = m.reach(unit, self.sprint, self.reverse)
        path: tuple[Hex, ...] = ()
        if cursor in reach:
            path = self.preview(m, unit, cursor).path
        return Overlay(reach=reach, path=path)

    def facing_name(self, m: Moment, unit: Unit, cursor: Hex) -> str:
        """O4.2: the facing the order names ("" for the default, the last step's)."""
        if m.battle is None or self.reverse or not self.turn or not facing.on(m.battle):
            return ""
        plain = preview.move_preview(m.battle, unit, cursor, self.sprint)
        if plain.refusal is not None or len(plain.path) < 2:
            return ""
        options = facing.move_facings(plain.path)
        return facing.facing_name(options[self.turn % len(options)])

    def preview(self, m: Moment, unit: Unit, cursor: Hex) -> preview.MovePreview:
        assert m.battle is not None
        name = self.facing_name(m, unit, cursor)
        return preview.move_preview(
            m.battle, unit, cursor, self.sprint, reverse=self.reverse, facing_name=name
        )

    def prompt(self, m: Moment, cursor: Hex) -> Prompt:
        battle, unit = m.battle, m.actor
        if battle is None or unit is None:
            return None
        mp = self.preview(m, unit, cursor)
        goes = f" {glyphs(m.ascii).sep} Enter goes" if mp.refusal is None else ""
        arcs = arcs_words(m, unit, cursor, mp.facing, not self.reverse)
        texts = move_text(mp, unit, ascii_glyphs=m.ascii)
        if arcs and mp.refusal is None:  # O4.10: the arcs the enemies would be in
            short = arcs_words(m, unit, cursor, mp.facing, False)
            return (
                texts[0] + arcs + goes,
                texts[-1] + arcs + goes,
                f"{hex_name(cursor)}{arcs}{goes}",
                f"{hex_name(cursor)}{short}{goes}",
                *(text + goes for text in texts),
            )
        return tuple(text + goes for text in texts)


@frozen
class Moving(_Walking):
    turn: int = 0

    def pick(self, m: Moment, h: Hex) -> Reaction:
        unit = m.actor
        return Move(h, self.facing_name(m, unit, h)) if unit is not None else None


@frozen
class Reversing(_Walking):
    """O4.3: a reverse Move: every step backwards, the facing kept."""

    turn: int = 0
    reverse = True

    def pick(self, m: Moment, h: Hex) -> Reaction:
        return Move(h, reverse=True) if m.actor is not None else None


@frozen
class Sprinting(_Walking):
    turn: int = 0
    sprint = True

    def pick(self, m: Moment, h: Hex) -> Reaction:
        unit = m.actor
        return Sprint(h, self.facing_name(m, unit, h)) if unit is not None else None


@frozen
class Jumping(_Ordering):
    item: str
    turn: int = 0  # O4.4: hexsides from the frame's facing it lands with
    follows_cursor = True

    def landing(self, m: Moment) -> tuple[int | None, str]:
        """O4.4: the facing it lands with, and the order's name for it ("" unchanged)."""
        unit = m.actor
        if unit is None or unit.facing is None or m.battle is None or not facing.on(m.battle):
            return None, ""
        f = (unit.facing + self.turn) % 6
        return f, facing.facing_name(f) if f != unit.facing else ""

    def reach(self, m: Moment) -> frozenset[Hex]:
        return frozenset(
            c.hex
            for c in m.legal
            if isinstance(c, UseEquipment) and c.equipment == self.item and c.hex is not None
        )

    def overlay(self, m: Moment, cursor: Hex) -> Overlay:
        return Overlay(reach=self.reach(m)) if m.actor is not None else NO_OVERLAY

    def prompt(self, m: Moment, cursor: Hex) -> Prompt:
        where = place_name(cursor, m.battle is not None and track.on(m.battle))
        item = catalog().equipment[self.item]
        if item.effect == "smoke":  # O3.10: the same hex-picking, for a smoke cloud
            if cursor in self.reach(m):
                return f"Smoke {where} and its neighbours for {item.value} rounds: Enter lays it"
            return f"Smoke: {where} is beyond {item.range} hexes"
        if cursor in self.reach(m) and m.actor is not None:
            arcs = arcs_words(m, m.actor, cursor, self.landing(m)[0])
            return (f"Jump to {where}{arcs}: Enter goes", f"Jump to {where}: Enter goes")
        return f"Jump: {where} is out of reach"

    def pick(self, m: Moment, h: Hex) -> Reaction:
        if m.actor is None:
            return None
        return UseEquipment(self.item, None, h, self.landing(m)[1])


@frozen
class Aiming(_Ordering):
    """Aiming a group at a target; the panel column shows the shot."""

    target: str | None
    group: int | None
    breach: bool = False  # O9.9a: a Breach Shot declared with the shot (P)
    follows_cursor = True
    location: ClassVar[str | None] = None  # the location the preview aims at
    verb: ClassVar[str] = "Fire"
    structures: ClassVar[bool] = True  # O3.6: structures are targets too (not called shots)

    @classmethod
    def all_targets(cls, m: Moment) -> list[tuple[str, Hex]]:
        """(id, hex) of every target, the enemy frames nearest first, then (O3.6) every
        section with durability left, nearest first: Tab and the cursor go through both."""
        battle, unit = m.battle, m.actor
        if battle is None or unit is None:
            return []
        out = [(t.id, t.pos) for t in preview.targets(battle, unit) if t.pos is not None]
        if cls.structures and battle.rule("O3") and unit.pos is not None:
            here = unit.pos
            sections = sorted(
                (s for s in battle.structures if targetable(s)),
                key=lambda s: (distance(here, s.hex), s.hex.r, s.hex.q),
            )
            out += [(structure_key(s.hex), s.hex) for s in sections]
        return out

    @classmethod
    def aimed(cls, m: Moment) -> tuple[Self, Hex | None]:
        """Aim at the nearest target some group can hit, with the first group that can (and
        the target's hex for the cursor); else at the nearest target with the first group.
        An enemy frame comes before any structure."""
        battle, unit = m.battle, m.actor
        if battle is None or unit is None:
            return cls(None, None), None
        targets = cls.all_targets(m)
        groups = sorted(stats.groups(unit))
        for target, at in targets:
            for group in groups:
                if not isinstance(_check(battle, unit, group, target, cls.location), str):
                    return cls(target, group), at
        first = targets[0][0] if targets else None
        return cls(first, min(stats.groups(unit), default=None)), None

    def cycled(self, m: Moment, step: int) -> tuple[Mode, Hex | None]:
        """The next target (`step` 1) or the previous one (-1), and its hex."""
        targets = self.all_targets(m)
        if not targets:
            return self, None
        ids = [t for t, _ in targets]
        i = ids.index(self.target) if self.target in ids else -step
        target, at = targets[(i + step) % len(targets)]
        return attrs.evolve(self, target=target), at

    def with_group(self, m: Moment, group: int) -> Mode | Say:
        unit = m.actor
        if unit is None:
            return self
        if group not in stats.groups(unit):
            return Say(f"{unit.label} has no working weapon in group {group}.", True)
        return attrs.evolve(self, group=group)

    def cursor_on(self, m: Moment, h: Hex) -> Mode:
        battle, unit = m.battle, m.actor
        here = battle.occupant(h) if battle is not None else None
        if battle is not None and unit is not None and track.on(battle):
            # O1: frames share positions: keep a target standing there, else the first foe
            kept = next((u for u in battle.foes(unit.side) if u.id == self.target), None)
            if kept is not None and kept.pos == h:
                return self
            here = next((u for u in battle.foes(unit.side) if u.pos == h), None)
        if unit is not None and here is not None and here.side != unit.side:
            return attrs.evolve(self, target=here.id)
        if (
            unit is not None
            and here is None
            and self.structures
            and battle is not None
            and battle.rule("O3")
            and targetable(section_at(battle.structures, h))
        ):
            return attrs.evolve(self, target=structure_key(h))
        return self

    def shot_preview(self, m: Moment) -> preview.FirePreview | None:
        unit = m.actor
        if unit is None or self.target is None or self.group is None:
            return None
        at = structure_hex(self.target)
        if at is not None and m.battle is not None:
            return structure_fire_preview(m.battle, unit, self.group, at)
        return m.fire_preview(unit, self.group, self.target, self.location)

    def shot_risk(self, m: Moment) -> ShotRisk:
        unit = m.actor
        if unit is None or self.target is None or self.group is None:
            return NO_RISK
        if structure_hex(self.target) is not None:
            return NO_RISK  # the panel's expected durability damage says it
        return ShotRisk(forecast=m.forecast(unit, self.group, self.target, None))

    def overlay(self, m: Moment, cursor: Hex) -> Overlay:
        battle, unit = m.battle, m.actor
        if battle is None or unit is None:
            return NO_OVERLAY
        targets = self.all_targets(m)
        marked = frozenset(at for _, at in targets)
        target = next((at for t, at in targets if t == self.target), None)
        fp = self.shot_preview(m)
        if target is None or fp is None:
            return Overlay(targets=marked)
        return Overlay(
            targets=marked,
            target=target,
            los=tuple(step.hex for step in fp.los),
            los_penalty=frozenset(step.hex for step in fp.los if step.penalty),
            blocks=frozenset(step.hex for step in fp.los if step.blocks),
        )

    def prompt(self, m: Moment, cursor: Hex) -> Prompt:
        battle = m.battle
        if battle is None or m.actor is None:
            return None
        if self.target is None or self.group is None:
            return "No target in range of any group: Esc cancels."
        label = target_label(battle, self.target)
        aim = f"{self.verb}: group {self.group} at {label}"
        if self.breach:
            aim += " with a Breach Shot"
        return f"{aim} · Enter fires · Tab target · 1-4"

    def pick(self, m: Moment, h: Hex) -> Reaction:
        if m.actor is None:
            return None
        if self.target is None or self.group is None:
            return Say("No target: Tab picks one, Esc cancels.", True)
        return self.shot(m, self.group, self.target)

    def shot(self, m: Moment, group: int, target: str) -> Reaction:
        at = structure_hex(target)
        if at is not None:
            return FireStructure(group, at)
        return FireGroup(group, target, breach=self.breach)


def _check(battle: Battle, unit: Unit, group: int, target: str, location: str | None) -> object:
    """`check_fire`, or `check_fire_structure` for a structure's key (O3.6)."""
    at = structure_hex(target)
    if at is not None:
        return check_fire_structure(battle, unit, group, at)
    return check_fire(battle, unit, group, target, location)


def target_label(battle: Battle, target: str) -> str:
    """A frame's label, or a structure's kind and hex (`Ruin E5`)."""
    at = structure_hex(target)
    section = section_at(battle.structures, at) if at is not None else None
    if section is not None:
        return f"{kind_of(section).name} {hex_name(section.hex)}"
    return battle.unit(target).label


@frozen
class Firing(Aiming):
    pass


@frozen
class CallingShot(Aiming):
    # The called-shot modifier is the same for every location (§3.5): preview with one.
    location = "center_torso"
    structures = False  # O3.6: never a called shot at a structure
    verb = "Called shot"

    def called_forecasts(self, m: Moment) -> tuple[tuple[str, Forecast], ...]:
        """The forecast of the shot called at each location that is still there."""
        battle, unit = m.battle, m.actor
        if battle is None or unit is None or self.target is None or self.group is None:
            return ()
        aim = battle.unit(self.target)
        out = []
        for i, loc in enumerate(LOCATION_ORDER):
            if aim.structure[i] > 0:
                fc = m.forecast(unit, self.group, self.target, loc)
                if fc is not None:
                    out.append((loc, fc))
        return tuple(out)

    def shot_risk(self, m: Moment) -> ShotRisk:
        return ShotRisk(called=self.called_forecasts(m))

    def shot(self, m: Moment, group: int, target: str) -> Reaction:
        assert m.battle is not None
        aim = m.battle.unit(target)
        cat = catalog()
        forecasts = dict(attrs.evolve(self, target=target, group=group).called_forecasts(m))
        options = []
        for i, loc in enumerate(LOCATION_ORDER):
            if aim.structure[i] <= 0:
                continue
            label = f"{cat.location(loc).name:<12} {aim.armor[i]:>2}/{aim.structure[i]:<2}"
            fc = forecasts.get(loc)
            if fc is not None:
                lost, out = pct(fc.p_destroyed[loc]), pct(fc.p_out)
                label += f"  destroyed {lost:>3}%  out {out:>3}%"
            options.append((loc, label))
        return Ask(
            f"Called shot at {aim.label}: which location?",
            tuple(options),
            lambda location: CalledShot(group, target, location, breach=self.breach),
        )


@frozen
class Kicking(Aiming):
    """O7.1: picking the adjacent enemy to kick; the panel column shows the kick (its chance,
    damage and the stun, `preview.kick_preview`). No group: 1-4 say so."""

    structures = False
    verb = "Kick"

    @classmethod
    def all_targets(cls, m: Moment) -> list[tuple[str, Hex]]:
        battle, unit = m.battle, m.actor
        if battle is None or unit is None:
            return []
        return [(t.id, t.pos) for t, _ in kick_targets(battle, unit) if t.pos is not None]

    @classmethod
    def aimed(cls, m: Moment) -> tuple[Self, Hex | None]:
        """At the first adjacent enemy a kick may hit (else the first adjacent one)."""
        battle, unit = m.battle, m.actor
        if battle is None or unit is None:
            return cls(None, KICK_GROUP), None
        options = kick_targets(battle, unit)
        legal = [t for t, plan in options if not isinstance(plan, str)]
        ranked = legal or [t for t, _ in options]
        if not ranked:
            return cls(None, KICK_GROUP), None
        return cls(ranked[0].id, KICK_GROUP), ranked[0].pos

    def with_group(self, m: Moment, group: int) -> Mode | Say:
        return Say("A kick takes no weapon group: Enter kicks, Tab picks another frame.", True)

    def cursor_on(self, m: Moment, h: Hex) -> Mode:
        ids = {at: t for t, at in self.all_targets(m)}
        return attrs.evolve(self, target=ids[h]) if h in ids else self

    def shot_preview(self, m: Moment) -> preview.FirePreview | None:
        unit = m.actor
        if unit is None or self.target is None or m.battle is None:
            return None
        return preview.kick_preview(m.battle, unit, self.target)

    def shot_risk(self, m: Moment) -> ShotRisk:
        return NO_RISK

    def prompt(self, m: Moment, cursor: Hex) -> Prompt:
        battle = m.battle
        if battle is None or m.actor is None:
            return None
        if self.target is None:
            return "Kick: no enemy frame is adjacent. Esc cancels."
        label = battle.unit(self.target).label
        return (f"Kick {label} · Enter kicks · Tab another frame", f"Kick {label}: Enter kicks")

    def shot(self, m: Moment, group: int, target: str) -> Reaction:
        return Kick(target)


@frozen
class Threats(_Ordering):
    """The threat view: the panel column shows what each frame can receive before it acts
    again and what lowers it (tui/threat_view.py); the hexes of the options are marked, and
    Enter on one moves there."""

    follows_cursor = True

    def option_hexes(self, m: Moment) -> frozenset[Hex]:
        report = m.threats().report()
        return frozenset(o.move_to for o in report.options if o.move_to is not None)

    def overlay(self, m: Moment, cursor: Hex) -> Overlay:
        return Overlay(reach=self.option_hexes(m)) if m.actor is not None else NO_OVERLAY

    def prompt(self, m: Moment, cursor: Hex) -> Prompt:
        if not m.threats().report().complete:
            return "Threat view: working it out... Esc goes back"
        if cursor in self.option_hexes(m):
            return f"Threat view: Enter moves to {hex_name(cursor)} · Esc goes back"
        return (
            "Threat view: what each frame can take before it acts again · the marked hexes "
            "lower it (Enter moves there) · Esc goes back",
            "Threat view: marked hexes lower it (Enter moves there) · Esc goes back",
        )

    def pick(self, m: Moment, h: Hex) -> Reaction:
        if m.actor is None or h not in self.option_hexes(m):
            return None
        return Move(h)


# ---- deployment ------------------------------------------------------------------------------
@frozen
class Deploying(Mode):
    unit: str  # the frame Enter (or a click) places

    def overlay(self, m: Moment, cursor: Hex) -> Overlay:
        battle = m.battle
        if battle is None:
            return NO_OVERLAY
        if track.on(battle):  # O1.3: nobody to place
            return NO_OVERLAY
        return Overlay(zone=frozenset(battle.map.deployment_hexes("player")))

    def prompt(self, m: Moment, cursor: Hex) -> Prompt:
        battle = m.battle
        if battle is not None and track.on(battle):
            return "Range bands: every frame starts on its line, all at Long (O1.3). s starts."
        name = battle.unit(self.unit).label if battle is not None else "?"
        text = f"Place {name}: move the cursor into the zone, Enter places."
        unit = battle.unit(self.unit) if battle is not None else None
        if (
            unit is not None
            and unit.facing is not None
            and battle is not None
            and facing.on(battle)
        ):
            at = unit.pos or cursor  # O4.1
            return (text[:-1] + arcs_words(m, unit, at, unit.facing) + ".", text)
        return text

    def pick(self, m: Moment, h: Hex) -> Reaction:
        return Deploy(self.unit, h)

    def next_frame(self, m: Moment) -> tuple[Deploying, Hex | None]:
        """The next frame of the lance, and its hex if it is placed."""
        assert m.battle is not None
        ids = [u.id for u in m.battle.side_units("player")]
        i = ids.index(self.unit) if self.unit in ids else -1
        unit = ids[(i + 1) % len(ids)]
        return Deploying(unit), m.battle.unit(unit).pos

    def after_order(self, m: Moment) -> Mode:
        """Placed: the next frame still waiting (this one again when none is)."""
        battle = m.battle
        if battle is None:
            return self
        waiting = [u.id for u in battle.side_units("player") if u.pos is None]
        return Deploying(waiting[0]) if waiting else self


# ---- the AI's orders -------------------------------------------------------------------------
class AiTurn(Mode):
    """The AI has the orders: the enemy's frames, or the player's on auto-resolve."""

    __slots__ = ()
    how: ClassVar[str] = "p pauses, space skips"

    def next_order(self, state: GameState, auto: bool) -> Decision | None:
        """The AI's decision now, its order and why (None: a person must act): the battle
        screen's one call of the players layer, the AI seated as `seats` says."""
        battle = state.battle
        if battle is None:
            return None
        return next_decision(state, seats(battle, auto))

    def prompt(self, m: Moment, cursor: Hex) -> Prompt:
        battle = m.battle
        unit = battle.active_unit if battle is not None else None
        if unit is None:
            return None
        who = "Auto-resolve" if m.auto else "Enemy turn"
        on_off = "on" if m.auto else "off"
        sep = glyphs(m.ascii).sep
        return (
            f"{who}: {unit.label} acts {sep} {self.how} {sep} a: auto {on_off}",
            f"{who}: {unit.label} acts {sep} {self.how}",
        )


@frozen
class EnemyTurn(AiTurn):
    skipping: bool = False  # no pauses until the player's turn


@frozen
class Paused(AiTurn):
    skipping: bool = False  # what the turn goes back to
    how = "paused: . plays one order, p resumes, space skips"


@frozen
class More(AiTurn):
    """The enemy's turns one order per key (the pacing setting "key"): an order was played,
    the next waits for Enter (or "."); space plays the rest of the turn."""

    how = "--more-- Enter: next order, space: skip"


@frozen
class Halted(AiTurn):
    reason: str
    warns = True

    def prompt(self, m: Moment, cursor: Hex) -> Prompt:
        return self.reason


# ---- the end ---------------------------------------------------------------------------------
@frozen
class Over(Mode):
    def prompt(self, m: Moment, cursor: Hex) -> Prompt:
        return f"Battle over: {(m.result or 'over').upper()}. Enter: the report."


PLAYER_MODES: tuple[type[Mode], ...] = (
    Idle,
    Moving,
    Reversing,
    Sprinting,
    Jumping,
    Firing,
    CallingShot,
    Threats,
)
AI_MODES: tuple[type[Mode], ...] = (EnemyTurn, Paused, More, Halted)


def settle(mode: Mode, m: Moment) -> Mode:
    """The mode that fits the battle now: `mode` itself when it still does."""
    battle = m.battle
    if battle is None or battle.phase == "over":
        return mode if isinstance(mode, Over) else Over()
    if battle.phase == "deployment":
        ids = [u.id for u in battle.side_units("player")]
        if isinstance(mode, Deploying) and mode.unit in ids:
            return mode
        waiting = [u.id for u in battle.side_units("player") if u.pos is None]
        return Deploying(waiting[0] if waiting else ids[0])
    if m.ai_acts:
        return mode if isinstance(mode, AI_MODES) else EnemyTurn()
    return mode if isinstance(mode, PLAYER_MODES) else Idle()
