"""The threat view: what each of the player's frames can receive before it acts again, and
what would lower it for the frame acting now (brace, cover, getting out of range).

Every number is the engine's `combat.threat.threat` (docs/rulings.md F1), the function the
AI's planner reads: the expected damage, the chance the head or the centre torso is
destroyed, that the pilot is killed, that the frame is out. The options are those of
`combat.threat.threat_options` (as it is, brace, the best cover in one Move, cover and brace,
the best hex in reach), found the same way but one `threat` at a time: `ThreatWork.step`
does one (a few tens of milliseconds at most), so the screen runs the work between keys,
on its clock, and the panel fills in as the answers come.
"""

from __future__ import annotations

from collections.abc import Callable

from attrs import frozen
from rich.text import Text

from ..catalog import catalog
from ..combat import reaction, stats
from ..combat.actions import check_brace
from ..combat.events import DIRECTION_NAMES
from ..combat.preview import reach_hexes
from ..combat.state import Battle, Unit
from ..combat.threat import Threat, threat
from ..hexgrid import Hex, distance
from .battle_words import hex_name, location_name
from .glyphs import Glyphs
from .widgets.hex_picture import frame_label
from .widgets.panel_text import Palette, first_fitting
from .widgets.target_lines import pct

Kind = str  # "stay", "brace", "cover", "cover+brace", "away" (as combat.threat names them)


@frozen
class Option:
    """A way to meet the threat: ``kind``, the Move it takes (None: none), braced or not."""

    kind: Kind
    move_to: Hex | None
    braced: bool
    threat: Threat


@frozen
class ThreatReport:
    """What is known so far: each frame's threat (None: not yet), the acting frame's
    options once every hex in reach is weighed, and how far the work is."""

    frames: tuple[tuple[str, Threat | None], ...]
    actor: str | None
    options: tuple[Option, ...]
    done: int
    total: int

    @property
    def complete(self) -> bool:
        return self.done >= self.total


def _value(t: Threat, unit: Unit) -> float:
    """How bad a threat is for ranking the hexes: damage expected, and losing the frame
    counted as losing all its armour and structure (as `combat.threat` ranks them)."""
    return t.expected_damage + t.p_out * (unit.total_armor + unit.total_structure)


class ThreatWork:
    """The threat view's answers for one moment of the battle, one `threat` per `step`."""

    def __init__(self, battle: Battle, actor: Unit | None) -> None:
        self.battle = battle
        self.actor = actor
        frames = [u for u in battle.side_units("player") if u.active and u.pos is not None]
        self.frame_ids = [u.id for u in frames]
        self.frames: dict[str, Threat] = {}
        self.braced: Threat | None = None
        self.by_hex: dict[Hex, Threat] = {}
        self.cover_braced: Threat | None = None
        self.tasks: list[Callable[[], None]] = [self._frame(uid) for uid in self.frame_ids]
        self.hexes: list[Hex] = []
        if actor is not None and actor.id in self.frame_ids:
            if check_brace(actor) is None:
                self.tasks.append(self._brace)
            self.hexes = sorted(reach_hexes(battle, actor, sprint=False))
            self.tasks.extend(self._at(h) for h in self.hexes)
            self.tasks.append(self._cover_and_brace)
        self.total = len(self.tasks)
        self.done = 0
        self._report: tuple[int, ThreatReport] | None = None  # the last report, at its step

    # ---- the steps -----------------------------------------------------------------------
    def step(self) -> bool:
        """One engine call; True while some are left."""
        if self.done < self.total:
            self.tasks[self.done]()
            self.done += 1
        return self.done < self.total

    def run(self) -> ThreatReport:
        """Every step at once (tests, benchmarks)."""
        while self.step():
            pass
        return self.report()

    def _frame(self, uid: str) -> Callable[[], None]:
        def task() -> None:
            self.frames[uid] = threat(self.battle, uid)

        return task

    def _brace(self) -> None:
        assert self.actor is not None
        self.braced = threat(self.battle, self.actor.id, braced=True)

    def _at(self, h: Hex) -> Callable[[], None]:
        def task() -> None:
            assert self.actor is not None
            self.by_hex[h] = threat(self.battle, self.actor.id, at=h)

        return task

    def _cover_and_brace(self) -> None:
        actor = self.actor
        assert actor is not None
        cover = self._cover()
        costs = stats.ap_costs()
        if cover is not None and actor.ap >= costs.move + costs.brace and not actor.braced:
            self.cover_braced = threat(self.battle, actor.id, at=cover, braced=True)

    # ---- the answers ---------------------------------------------------------------------
    def _ranked(self) -> list[Hex]:
        assert self.actor is not None
        actor = self.actor
        return sorted(self.by_hex, key=lambda h: (_value(self.by_hex[h], actor), h))

    def _cover(self) -> Hex | None:
        terrain = catalog().terrain
        ranked = self._ranked()
        cover = [h for h in ranked if terrain[self.battle.map.terrain_at(h)].defense > 0]
        return cover[0] if cover else None

    def report(self) -> ThreatReport:
        """What is known so far (the same object until the next step: the screen asks for
        it several times a key, and the ranking of the hexes is not free)."""
        kept = self._report
        if kept is not None and kept[0] == self.done:
            return kept[1]
        report = self._make_report()
        self._report = (self.done, report)
        return report

    def _make_report(self) -> ThreatReport:
        frames = tuple((uid, self.frames.get(uid)) for uid in self.frame_ids)
        actor = self.actor.id if self.actor is not None else None
        options: list[Option] = []
        stay = self.frames.get(actor) if actor is not None else None
        if self.actor is not None and stay is not None and self.done >= self.total:
            options.append(Option("stay", None, self.actor.braced, stay))
            if self.braced is not None:
                options.append(Option("brace", None, True, self.braced))
            cover = self._cover()
            if cover is not None:
                options.append(Option("cover", cover, self.actor.braced, self.by_hex[cover]))
                if self.cover_braced is not None:
                    options.append(Option("cover+brace", cover, True, self.cover_braced))
            ranked = self._ranked()
            if ranked and ranked[0] != cover:
                best = ranked[0]
                options.append(Option("away", best, self.actor.braced, self.by_hex[best]))
            # what changes nothing is left out (as `combat.threat.threat_options` does)
            worth = _value(stay, self.actor)
            options = options[:1] + [o for o in options[1:] if _value(o.threat, self.actor) < worth]
        return ThreatReport(frames, actor, tuple(options), self.done, self.total)


# ---- words ---------------------------------------------------------------------------------
def option_label(option: Option) -> str:
    where = hex_name(option.move_to) if option.move_to is not None else ""
    return {
        "stay": "as it stands",
        "brace": "brace",
        "cover": f"cover at {where}",
        "cover+brace": f"{where} and brace",
        "away": f"move to {where}",
    }.get(option.kind, option.kind)


def threat_lines(
    battle: Battle, report: ThreatReport, width: int, g: Glyphs, pal: Palette
) -> list[Text]:
    """The threat panel: each frame's threat before it acts again, the acting frame's
    options (what lowers it)."""
    out = [Text("Threat until each acts again", style="bold")]
    for uid, t in report.frames:
        unit = battle.unit(uid)
        head = Text(f"{frame_label(unit)} ", style=pal.player)
        head.append(unit.label, style="bold")
        if t is None:
            head.append(f" {g.sep} working it out", style="dim")
            out.append(head)
            continue
        head.append(f" {t.expected_damage:.1f} dmg {g.sep} ")
        head.append(f"out {pct(t.p_out)}%", style=pal.error if t.p_out >= 0.005 else "")
        out.append(head)
        hd = "lost" if unit.location_destroyed("head") else f"{pct(t.p_head_destroyed)}%"
        ct, pilot = pct(t.p_center_torso_destroyed), pct(t.p_pilot_killed)
        centre = location_name("center_torso")
        pilot_words = "dead" if not unit.pilot_alive else f"{pilot}%"
        detail = first_fitting(
            width,
            f"  head {hd} {g.sep} {centre} {ct}% {g.sep} pilot {pilot_words}",
            f"  HD {hd} {g.sep} CT {ct}% {g.sep} pilot {pilot_words}",
        )
        out.append(Text(str(detail)))
    out += cone_lines(battle, width, g, pal)
    if report.actor is None:
        return out
    actor = battle.unit(report.actor)
    out.append(Text(f"What lowers {actor.label}'s threat", style="bold"))
    if not report.complete:
        out.append(Text(f"  weighing {report.done} of {report.total}...", style="dim"))
        return out
    if len(report.options) <= 1:
        out.append(Text("  nothing it can do lowers it", style="dim"))
        return out
    label = max((len(option_label(o)) for o in report.options), default=0)
    label = min(label, max(8, width - 22))
    for o in report.options:
        t = o.threat
        words = f"  {option_label(o)[:label]:<{label}}"
        out.append(Text(f"{words} {t.expected_damage:>4.1f} dmg out {pct(t.p_out):>3}%"))
    # Bracing can raise the damage expected while it lowers the chance to be out: the enemy
    # then fires plainly rather than at the head. Say what "out" is and what each row meets.
    note = first_fitting(
        width,
        f"  out: destroyed or pilot killed {g.sep} each against the enemy's best reply",
        "  out: destroyed or pilot killed, vs the enemy's best reply",
        "  out: destroyed or pilot killed",
    )
    out.append(Text(str(note), style="dim"))
    return out


def cone_lines(battle: Battle, width: int, g: Glyphs, pal: Palette) -> list[Text]:
    """O6: the enemy's armed reaction cones: whose, which way, how far, and what a step into
    one draws (none: no line)."""
    cones = reaction.known_cones(battle, "player")
    if not cones:
        return []
    penalty = catalog().reaction.reaction.penalty
    out = [Text("Armed enemy cones", style="bold")]
    for unit in cones:
        cone = unit.reaction
        assert cone is not None
        hexes = reaction.cone_hexes(battle, unit)
        reach = max((distance(unit.pos, h) for h in hexes if unit.pos is not None), default=0)
        line = Text(f"  {frame_label(unit)} ", style=pal.error)
        line.append(
            str(
                first_fitting(
                    width - 5,
                    f"{unit.label} {DIRECTION_NAMES[cone.direction]} group {cone.group},"
                    f" {reach} hexes: a step in draws fire at -{penalty}",
                    f"{unit.label} {DIRECTION_NAMES[cone.direction]} G{cone.group} {reach} hexes",
                )
            )
        )
        out.append(line)
    return out
