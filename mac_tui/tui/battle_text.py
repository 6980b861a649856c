"""The battle's log in the player's words: one line (or a few) per event, from its data.

Pure text helpers (no widgets), so the log reads the same in tests and in the terminal. Two
forms of the same events:

* the log pane's (`log_lines`): short, weapon and location abbreviations (``ML``, ``RT``);
* the history's (`Narrator(..., detail=True)`, tui/battle_history.py): every roll with every
  modifier of its chance, full weapon and location names, the initiative order, the end of
  each activation.

Frames are named by their labels, hexes by their map names (``C7``, battle_words.hex_name),
energy in the one energy language of battle_words.py; no id or rule code reaches the player.
Events this module does not know (the campaign's news at a battle's end) keep their own
`describe()`, names put in.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from ..catalog import catalog
from ..combat import detection
from ..combat.attack import AttackResult
from ..combat.damage_report import DamageReport, Phrasing, item_name
from ..combat.elevation import Fell
from ..combat.events import (
    DIRECTION_NAMES,
    FACING_NAMES,
    ActivationEnded,
    ActivationStarted,
    Attacked,
    BattleEnded,
    BattleStarted,
    EquipmentUsed,
    GroupFired,
    Held,
    Moved,
    ReactionArmed,
    ReactionExpired,
    ReactionTriggered,
    RoundStarted,
    SideWithdrew,
    StressChanged,
    SweepArmed,
    WeaponSkipped,
)
from ..combat.facing import arc_words
from ..combat.formations import (
    AbilitiesAssigned,
    AbilityUsed,
    Dodged,
    FormationChecked,
    FormationSet,
    ability_name,
    formation_name,
)
from ..combat.kicks import KICK, Kicked
from ..combat.objectives import MissionCosts, ObjectiveMet
from ..combat.state import Battle
from ..combat.structures import StructureAttacked
from ..combat.stun import StunEased, StunEnded, Stunned
from ..game import Event
from ..hexgrid import Hex
from .battle_words import (
    engine_text,
    hex_name,
    location_name,
    plural,
    weapon_name,
    withdrawal_words,
)
from .glyphs import Glyphs, glyphs, plain
from .widgets.hex_picture import OBJECTIVE

#: The pane leaves these out: the lines around say it (O9.9d: the shot says "dodged").
QUIET = (ActivationEnded, BattleStarted, Dodged)
INDENTED = (Attacked, WeaponSkipped, StressChanged)  # under the line that explains them
RESULTS = {"victory": "VICTORY", "defeat": "DEFEAT", "withdrawal": "WITHDRAWAL"}


class Narrator:
    """Puts one battle's events into words (`detail`: the history's full form)."""

    def __init__(self, battle: Battle | None, *, ascii_glyphs: bool, detail: bool) -> None:
        self.battle = battle
        self.g: Glyphs = glyphs(ascii_glyphs)
        self.detail = detail
        self.labels = {u.id: u.label for u in battle.units} if battle is not None else {}
        self.phrasing = Phrasing(
            location=lambda loc: location_name(loc, short=not detail),
            arrow=self.g.right,
            component_rolls=detail,
            loud=True,
        )
        self.sides = {u.id: u.side for u in battle.units} if battle is not None else {}

    # ---- helpers --------------------------------------------------------------------------
    def name(self, unit_id: str) -> str:
        return self.labels.get(unit_id, unit_id)

    def arrow(self, a: object, b: object) -> str:
        return f"{a} {self.g.right} {b}"

    def loc(self, location: str) -> str:
        return location_name(location, short=not self.detail)

    def weapon(self, weapon: str) -> str:
        return weapon_name(weapon, short=not self.detail)

    def finish(self, text: str) -> str:
        return plain(text) if self.g.ascii else text

    # ---- the events -----------------------------------------------------------------------
    def lines(self, event: Event, *, quiet: bool = False) -> list[str]:
        """The lines of one event (none for a quiet one when `quiet`)."""
        if quiet and isinstance(event, QUIET):
            return []
        if isinstance(event, AbilitiesAssigned) and self.sides.get(event.unit) != "player":
            return []  # O9.8: the other side's commanders stay face down until used
        words = _WORDS.get(type(event))
        text = (
            words(self, event) if words is not None else engine_text(self.battle, event.describe())
        )
        if isinstance(event, RoundStarted):
            rule = self.g.rule
            return [self.finish(f"{rule} {text} {rule}")]
        if isinstance(event, INDENTED):
            text = f"  {text}"
        return [self.finish(text)]

    def round_started(self, e: RoundStarted) -> str:
        if not self.detail:
            return f"Round {e.round}"
        order = f" {self.g.then} ".join(self.name(u) for u in e.order)
        return f"Round {e.round}: {order}"

    def activation_started(self, e: ActivationStarted) -> str:
        return f"{self.name(e.unit)} acts: {e.ap} AP, energy {e.energy} with overload"

    def moved(self, e: Moved) -> str:
        if e.start is not None and e.end is not None:  # O1: along the track
            how = {"move": "moves", "sprint": "sprints", "jump": "thrusts"}.get(e.mode, e.mode)
            back = ", pulling back" if e.pullback else ""
            return (
                f"{self.name(e.unit)} {how} from position {e.start} to {e.end} "
                f"({e.energy} energy{back})"
            )
        how = {"move": "moves", "sprint": "sprints", "jump": "jumps"}.get(e.mode, e.mode)
        steps = plural(len(e.path) - 1, "hex", "hexes")
        back = ", pulling back" if e.pullback else ""
        route = ""
        if self.detail and len(e.path) > 2:
            route = f" via {' '.join(hex_name(h) for h in e.path[1:-1])}"
        end = hex_name(e.path[-1])
        if e.reverse:  # O4.3
            how = "backs up"
        faces = "" if e.facing is None else f", facing {FACING_NAMES[e.facing]}"  # O4.10
        return f"{self.name(e.unit)} {how} {steps} to {end}{route}{faces} ({e.energy} energy{back})"

    def held(self, e: Held) -> str:
        return f"{self.name(e.unit)} holds at position {e.position}"

    def skipped(self, e: WeaponSkipped) -> str:
        return f"{self.weapon(e.weapon)} of {self.name(e.unit)} holds fire: {e.reason}"

    def group_fired(self, e: GroupFired) -> str:
        how = "overwatch fire from" if e.overwatch else "fires"
        if e.reaction or e.sweep:  # O6.3, O6.6
            how = "reaction fire from" if e.reaction else "sweeps with"
        called = f", a called shot at the {location_name(e.called)}" if e.called else ""
        head = f"{self.name(e.unit)} {how} group {e.group} at {self.name(e.target)}{called}"
        return f"{head} ({e.energy} energy)" if self.detail else head

    def attacked(self, e: Attacked) -> str:
        return self.attack(e.result)

    def kicked(self, e: Kicked) -> str:
        """O7.8: the kick as an attack line, its damage's H in the history."""
        text = f"{self.name(e.result.attacker)} {self.attack(e.result)}"
        if self.detail and e.result.hit:
            text += f" (moved {plural(e.hexes_moved, 'hex', 'hexes')} first)"
        return text

    def stunned(self, e: Stunned) -> str:
        if e.cause == "kick":
            return f"{self.name(e.unit)} is STUNNED by the kick"
        return f"{self.name(e.unit)} is STUNNED: {e.lost} structure lost this round"

    def stun_eased(self, e: StunEased) -> str:
        return f"{self.name(e.unit)} shakes off the stun: dazed for one more activation"

    def stun_ended(self, e: StunEnded) -> str:
        return f"{self.name(e.unit)} is no longer dazed"

    def attack(self, r: AttackResult) -> str:
        if r.kick:  # O7.8: "FALCON kicks ENFORCER" (`kicked` names the kicker)
            head = f"kicks {self.name(r.target)}"
        else:
            head = self.arrow(self.weapon(r.weapon), self.name(r.target))
        if r.arc is not None and r.arc != "front":  # O4.10: from the side or the rear
            head += f" ({arc_words(r.arc)})"
        if self.detail:
            dist = plural(r.distance, "hex", "hexes") if r.height is None else f"d3 {r.distance}"
            mods = ", ".join(
                f"{m.name} {m.value}" if m.name in ("base", KICK) else f"{m.name} {m.value:+d}"
                for m in r.modifiers
            )
            total = sum(m.value for m in r.modifiers)
            clamp = f" (clamped from {total})" if total != r.chance else ""
            head = f"{head} at {dist}: needs {r.chance}{clamp} = {mods}; rolls {r.roll}"
        else:
            head = f"{head}: needs {r.chance}, rolls {r.roll}"
        if not r.hit:
            return f"{head}: miss"
        # A called shot lands where it was called: the damage's first location says where.
        hit = "called hit" if r.called is not None else "hit"
        words = [f"critical {hit}" if r.critical else hit]
        if r.dodged:  # O9.9d
            return f"{head}: {hit}, dodged by an Impossible Turn"
        if r.intercepted:
            words.append("intercepted by Point Defense")
            if r.shared_pds is not None:  # O9.4
                words.append(f"of {self.name(r.shared_pds)} (Defensive Sphere)")
            return f"{head}: {' '.join(words)}"
        if r.breach:  # O9.9a
            words.append("(Breach Shot: through the armour)")
        text = " ".join(words)
        if r.damage is not None:
            text += " " + self.damage(r.damage)
        if r.stress:
            text += f", stress +{r.stress}"
        return f"{head}: {text}"

    def structure_attacked(self, e: StructureAttacked) -> str:
        """O3.6: who fired, at what, the chance (every modifier in the history), both rolls
        when the first missed, and the durability it took."""
        kind = catalog().structures.kind(e.feature).name
        head = f"{self.name(e.unit)} " + self.arrow(
            self.weapon(e.weapon), f"{kind} {hex_name(e.hex)}"
        )
        rolls = (
            str(e.rolls[0]) if len(e.rolls) == 1 else f"{e.rolls[0]}, miss, re-rolls {e.rolls[1]}"
        )
        if self.detail:
            mods = ", ".join(
                f"{m.name} {m.value}" if m.name == "structure" else f"{m.name} {m.value:+d}"
                for m in e.modifiers
            )
            head = f"{head}: needs {e.chance} = {mods}; rolls {rolls}"
        else:
            head = f"{head}: needs {e.chance}, rolls {rolls}"
        if not e.hit:
            return f"{head}: miss"
        text = f"{head}: hit for {e.damage}, durability {self.arrow(e.before, e.after)}"
        return text + (": it collapses at the round's end" if e.collapse else "")

    # ---- O6: reaction fire in cones ----------------------------------------------------------
    def reaction_armed(self, e: ReactionArmed) -> str:
        way = DIRECTION_NAMES[e.direction % 6]
        return f"{self.name(e.unit)} arms a reaction cone {way} with group {e.group}"

    def reaction_triggered(self, e: ReactionTriggered) -> str:
        where = hex_name(e.hex)
        return f"REACTION: {self.name(e.mover)} enters {self.name(e.unit)}'s cone at {where}"

    def reaction_expired(self, e: ReactionExpired) -> str:
        cause = "it shut down" if e.why == "shutdown" else "its turn came"
        return f"{self.name(e.unit)}'s reaction cone lapses unfired ({cause})"

    def sweep_armed(self, e: SweepArmed) -> str:
        return f"{self.name(e.unit)} sweeps with group {e.group} as it moves"

    def damage(self, report: DamageReport) -> str:
        return report.describe(self.phrasing)

    def fell(self, e: Fell) -> str:
        levels = plural(e.levels, "level", "levels")
        return f"{self.name(e.unit)} falls {levels}: {self.damage(e.damage)}"

    def equipment(self, e: EquipmentUsed) -> str:
        on = f" on {self.name(e.target)}" if e.target else ""
        at = f" to {hex_name(e.hex)}" if e.hex else ""
        return f"{self.name(e.unit)} uses {item_name(e.equipment)}{on}{at} ({e.energy} energy)"

    # ---- optional module O9 ----------------------------------------------------------------
    def side(self, side: str) -> str:
        return "Your lance" if side == "player" else "The enemy"

    def formation_set(self, e: FormationSet) -> str:
        screens = ", ".join(self.name(s) for s in e.screens)
        named = f" (screens {screens})" if screens else ""
        return f"{self.side(e.side)} orders {formation_name(e.formation)}{named}"

    def formation_checked(self, e: FormationChecked) -> str:
        if e.formation == "none":
            return f"{self.side(e.side)} holds no formation"
        verdict = "in effect" if e.met else "not formed"
        reason = re.sub(r"\b[PE]\d+\b", lambda m: self.name(m.group(0)), e.reason)
        return f"{self.side(e.side)}: {formation_name(e.formation)} {verdict} ({reason})"

    def abilities_assigned(self, e: AbilitiesAssigned) -> str:
        held = ", ".join(ability_name(a) for a in e.abilities) or "no ability"
        return f"{self.name(e.unit)} commands: {held}"

    def ability_used(self, e: AbilityUsed) -> str:
        text = f"{self.name(e.unit)} uses {ability_name(e.ability)}"
        if e.ability == "percussive_maintenance":
            text += f": vents {e.vented} stress (now {e.stress})"
        return text

    def dodged(self, e: Dodged) -> str:
        return f"{self.name(e.unit)} dodges {self.name(e.attacker)}'s {self.weapon(e.weapon)}"

    def withdrew(self, e: SideWithdrew) -> str:
        who = {"enemy": "The enemy", "ally": "The allied lance", "neutral": "The neutrals"}.get(
            e.side, "Your lance"
        )
        return f"{who} withdraws: its rule is that it {withdrawal_words(e.rule)}"

    def objective_met(self, e: ObjectiveMet) -> str:
        kind = catalog().objectives.kind(e.id)
        what = "Hidden objective revealed and met" if e.hidden else "Objective met"
        return f"{what}: {kind.name} +{kind.bonus}% ({kind.text}), round {e.round}"

    def mission_costs(self, e: MissionCosts) -> str:
        small, medium, large = e.shots
        return (
            f"Mission costs {e.credits:,} cr: {e.structure} structure lost, shots {small} "
            f"small / {medium} medium / {large} large, {plural(e.equipment, 'equipment use')}"
        )

    def ended(self, e: BattleEnded) -> str:
        result = RESULTS.get(e.result, e.result.upper())
        reason = re.sub(  # the rule in the words the whole game uses: "...: it retreats at 50%"
            r" \((never|at_\d+)\)",
            lambda m: f": it {withdrawal_words(m.group(1))}",
            engine_text(self.battle, e.reason),
        )
        return f"Battle over after round {e.round}: {result} ({reason})"

    # ---- O8 ---------------------------------------------------------------------------
    def detected(self, e: detection.Detected) -> str:
        how = {
            "sight": "in sight",
            "thermal": "thermal: it radiates",
            "revealed": "revealed by its muzzle flash",
            "designated": "designated by the uplink",
            "bumped": "bumped into",
        }.get(e.how, e.how)
        who = "Contact" if e.side == "player" else f"The {e.side} detects"
        return f"{who}: {self.name(e.unit)} at {hex_name(e.hex)} ({how})"

    def contact_lost(self, e: detection.ContactLost) -> str:
        who = "Contact lost" if e.side == "player" else f"The {e.side} loses contact"
        return f"{who}: {self.name(e.unit)}, last known at {hex_name(e.hex)}"

    def radiating(self, e: detection.Radiating) -> str:
        why = {
            "stress": "its stress is high",
            "overload": "it overloads",
            "vent": "it vents",
            "jump": "it jumps",
        }.get(e.cause, e.cause)
        return f"{self.name(e.unit)} radiates ({why}): thermals detect it this round"

    def bumped(self, e: detection.Bumped) -> str:
        return f"{self.name(e.unit)} bumps into {self.name(e.enemy)} and stops at {hex_name(e.hex)}"


_WORDS: dict[type[Event], Callable[[Narrator, Any], str]] = {
    detection.Detected: Narrator.detected,
    detection.ContactLost: Narrator.contact_lost,
    detection.Radiating: Narrator.radiating,
    detection.Bumped: Narrator.bumped,
    RoundStarted: Narrator.round_started,
    ActivationStarted: Narrator.activation_started,
    Moved: Narrator.moved,
    Held: Narrator.held,
    WeaponSkipped: Narrator.skipped,
    GroupFired: Narrator.group_fired,
    Attacked: Narrator.attacked,
    StructureAttacked: Narrator.structure_attacked,
    EquipmentUsed: Narrator.equipment,
    SideWithdrew: Narrator.withdrew,
    BattleEnded: Narrator.ended,
    Fell: Narrator.fell,
    ReactionArmed: Narrator.reaction_armed,
    ReactionTriggered: Narrator.reaction_triggered,
    ReactionExpired: Narrator.reaction_expired,
    SweepArmed: Narrator.sweep_armed,
    ObjectiveMet: Narrator.objective_met,
    MissionCosts: Narrator.mission_costs,
    FormationSet: Narrator.formation_set,
    FormationChecked: Narrator.formation_checked,
    AbilitiesAssigned: Narrator.abilities_assigned,
    AbilityUsed: Narrator.ability_used,
    Dodged: Narrator.dodged,
    Kicked: Narrator.kicked,
    Stunned: Narrator.stunned,
    StunEased: Narrator.stun_eased,
    StunEnded: Narrator.stun_ended,
}


def reaction_chunks(
    events: Sequence[Event],
) -> tuple[tuple[Event, ...], tuple[tuple[Hex | None, tuple[Event, ...]], ...]]:
    """O6: a command's events cut where reaction fire interrupts a move, so that a screen can
    show each interruption in its turn: the events before the first (the `Moved` line), then
    each interruption (a `ReactionTriggered` and its volley, with its hex; a sweep's volley,
    hex None) with what follows it up to the next. No interruption: all, and no chunk."""
    starts = [
        i
        for i, e in enumerate(events)
        if isinstance(e, ReactionTriggered) or (isinstance(e, GroupFired) and e.sweep)
    ]
    if not starts:
        return tuple(events), ()
    chunks: list[tuple[Hex | None, tuple[Event, ...]]] = []
    for k, start in enumerate(starts):
        end = starts[k + 1] if k + 1 < len(starts) else len(events)
        first = events[start]
        where = first.hex if isinstance(first, ReactionTriggered) else None
        chunks.append((where, tuple(events[start:end])))
    return tuple(events[: starts[0]]), tuple(chunks)


def objectives_line(battle: Battle, ascii_glyphs: bool) -> str:
    """O11: the battle's objectives for the log's head: each known one with its bonus and
    what meets it (OB5's hex and OB6's building by name and mark), a hidden one as `?`."""
    cat = catalog().objectives
    mark = OBJECTIVE[0 if ascii_glyphs else 1]
    parts = []
    for o in battle.objectives:
        if o.hidden and not o.met:
            parts.append("? (hidden)")
            continue
        kind = cat.kind(o.id)
        where = f" {mark} {hex_name(o.hex)}" if o.hex is not None else ""
        done = ", met" if o.met else ""
        parts.append(f"{kind.name} +{kind.bonus}%{where} ({kind.text}{done})")
    g = glyphs(ascii_glyphs)
    text = "Objectives: " + f" {g.sep} ".join(parts)
    return plain(text) if ascii_glyphs else text


def log_lines(battle: Battle | None, events: Sequence[Event], *, ascii_glyphs: bool) -> list[str]:
    """The log pane's lines of `events`: short, a rule for each round, one line per event."""
    narrator = Narrator(battle, ascii_glyphs=ascii_glyphs, detail=False)
    return [line for event in events for line in narrator.lines(event, quiet=True)]
