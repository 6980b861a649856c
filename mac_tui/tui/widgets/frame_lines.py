"""The frame panel's lines: chassis, pilot, armour and structure by location (head on top,
arms and torsos across, legs below), AP, energy and stress against their limits, status flags,
weapons by group and equipment. Every number comes from the engine (combat/stats.py,
combat/preview.py)."""

from __future__ import annotations

from rich.text import Text

from ...catalog import LOCATION_ORDER, catalog
from ...combat import formations, stats, track
from ...combat.events import DIRECTION_NAMES, FACING_NAMES
from ...combat.preview import shots_left, shutdown_thresholds
from ...combat.state import LOC_INDEX, THIRD_PARTIES, Battle, Unit
from ..battle_words import energy_phrases, place_name, stress_limits
from ..glyphs import Glyphs
from .hex_picture import frame_label
from .panel_text import (
    BAR_MAX,
    BODY,
    HEAD,
    LEGS,
    WIDE,
    Palette,
    bar,
    first_fitting,
    flow,
    loc_abbrev,
    location_style,
)


def _location_cell(unit: Unit, location: str, g: Glyphs) -> str:
    """``22/11`` (armour/structure) of one location, ``lost`` once destroyed."""
    i = LOC_INDEX[location]
    if unit.structure[i] <= 0:
        return f"{g.no}lost"
    return f"{unit.armor[i]}/{unit.structure[i]}"


def frame_diagram(unit: Unit, width: int, g: Glyphs, pal: Palette) -> list[Text]:
    """Head on top, arms and torsos across, legs below, each location as armour/structure:
    4 lines."""
    col = 9 if width >= WIDE else 7
    pad = max(0, (width - 5 * col) // 2)
    centre = pad + 2 * col  # first column of the centre torso's cell
    out: list[Text] = []

    def single(location: str, lead: str = "") -> Text:
        t = Text(lead.ljust(centre))
        text = f"{loc_abbrev(location)} {_location_cell(unit, location, g)}"
        t.append(text, style=location_style(unit, location, pal))
        return t

    out.append(single(HEAD, "armour/structure" if centre >= 17 else "A/S"))
    styles = [location_style(unit, loc, pal) for loc in BODY]
    for cells in (
        [loc_abbrev(loc) for loc in BODY],
        [_location_cell(unit, loc, g) for loc in BODY],
    ):
        t = Text(" " * pad)
        for text, style in zip(cells, styles, strict=True):
            t.append(text[: col - 1].ljust(col), style=style)
        t.rstrip()
        out.append(t)
    out.append(single(LEGS))
    return out


def _status_flags(unit: Unit, pal: Palette) -> list[Text]:
    flags: list[Text] = []

    def add(word: str, style: str = "") -> None:
        flags.append(Text(word, style=style))

    if unit.destroyed:
        add("DESTROYED", pal.error)
    if not unit.pilot_alive and not unit.destroyed:
        add("OUT: pilot killed", pal.error)
    if unit.shutdown:
        add("SHUT DOWN", pal.error)
    if unit.stun:  # O7.6
        add(unit.stun.upper(), pal.warning)
    if unit.moved_hexes:  # O5.1 (O7.3's H): hexes this activation, or the last one's
        add(f"moved {unit.moved_hexes} hex{'es' if unit.moved_hexes != 1 else ''}", "")
    if unit.braced:
        add("braced", "bold")
    if unit.overwatch_group is not None:
        add(f"overwatch G{unit.overwatch_group}", "bold")
    if unit.reaction is not None:  # O6.2
        way = DIRECTION_NAMES[unit.reaction.direction % 6]
        add(f"cone {way} G{unit.reaction.group}", "bold")
    if unit.sweep is not None:  # O6.6
        add(f"sweep G{unit.sweep}", "bold")
    if unit.ecm_active:
        add("ECM on", "bold")
    if unit.barrier:
        add(f"barrier {unit.barrier}", "bold")
    if unit.dodging:  # O9.9d
        add("Impossible Turn: dodging, holds fire", "bold")
    if unit.gyro_hit:
        add("gyro hit", pal.warning)
    if unit.sensor_hit:
        add("sensor hit", pal.warning)
    if unit.cockpit_breached:
        add("cockpit breached", pal.warning)
    elif unit.cockpit_hit:
        add("cockpit hit", pal.warning)
    if unit.reactor_hits:
        add(f"reactor hits {unit.reactor_hits}", pal.warning)
    for loc, hits in zip(LOCATION_ORDER, unit.actuator_hits, strict=True):
        if hits:
            add(f"{loc_abbrev(loc)} actuator {hits}", pal.warning)
    return flags


def _weapon_status(unit: Unit, index: int) -> str:
    ws = unit.weapons[index]
    if ws.destroyed:
        return "lost"
    if not stats.has_shots(ws):
        return "no ammo"
    if ws.group in unit.fired_groups:
        return "fired"
    if unit.overwatch_group == ws.group:
        return "watch"  # on overwatch
    if unit.reaction is not None and unit.reaction.group == ws.group:
        return "cone"  # armed in a reaction cone (O6.2)
    return ""


def _weapon_lines(
    unit: Unit, width: int, g: Glyphs, pal: Palette, on_track: bool = False
) -> list[Text]:
    """One row per weapon, group by group; the same weapon at the same state twice in a
    group is one row (``ML×2``, its ammunition the shots of both). The range: optimal hexes
    and maximum on a map, the range class on the track (O1.5: every band, by its column)."""
    cat = catalog()
    wide = width >= WIDE
    header = "G Wpn  Dmg En Range   Ammo Status"
    if wide:
        header = "G Wpn  Mount Dmg En Range   Ammo Status"
    out = [Text(header, style="underline")]
    order = sorted(range(len(unit.weapons)), key=lambda i: (unit.weapons[i].group, i))
    rows: list[tuple[tuple[object, ...], list[int]]] = []
    for i in order:
        ws = unit.weapons[i]
        key = (ws.group, ws.weapon, ws.mount if wide else "", _weapon_status(unit, i))
        same = next((r for r in rows if r[0] == key), None)
        if same is not None:
            same[1].append(i)
        else:
            rows.append((key, [i]))
    last_group: int | None = None
    for _, indices in rows:
        i = indices[0]
        ws = unit.weapons[i]
        w = stats.weapon_of(ws)
        rc = cat.range_class(w.range)
        group = str(ws.group) if ws.group != last_group else " "
        last_group = ws.group
        counts = [shots_left(unit, j) for j in indices]
        shots = None if counts[0] is None else sum(c or 0 for c in counts)
        status = _weapon_status(unit, i)
        band = rc.name if on_track else f"{rc.optimal_min}-{rc.optimal_max}/{rc.max_range}"
        mount = f" {loc_abbrev(ws.mount):<5}" if wide else ""
        ammo = "-" if shots is None else str(shots)
        name = w.abbrev if len(indices) == 1 else f"{w.abbrev}{g.times}{len(indices)}"
        text = f"{group} {name:<5}{mount}{w.damage:>3}{w.energy:>3} {band:<7}{ammo:>4} "
        line = Text(text)
        style = ""
        if status == "lost":
            style = f"{pal.error} strike"
        elif status in ("no ammo", "fired"):
            style = "dim"
        line.stylize(style, 2, len(text))
        line.append(status, style=pal.error if status == "lost" else style)
        out.append(line)
    return out


def _equipment_lines(unit: Unit, width: int, g: Glyphs, pal: Palette) -> list[Text]:
    if not unit.equipment:
        return []
    cat = catalog()
    tokens: list[Text] = []
    for n, e in enumerate(unit.equipment):
        item = cat.equipment[e.equipment]
        t = Text(item.name)
        if e.destroyed:
            t.stylize(f"{pal.error} strike")
            t.append(" (destroyed)", style=pal.error)
        elif item.effect == "ecm" and unit.ecm_active:
            t.append(" (on)", style="bold")
        elif item.category == "active":
            t.append(f" ({item.energy} en)", style="dim")
        if n < len(unit.equipment) - 1:
            t.append(",")
        tokens.append(t)
    return flow(tokens, width, g, lead=Text("Equip: ", style="bold"), indent=2)


def frame_lines(
    unit: Unit,
    width: int,
    g: Glyphs,
    pal: Palette,
    phase: str = "combat",
    battle: Battle | None = None,
) -> list[Text]:
    """The frame panel's lines; AP and readiness only mean something once the battle is on;
    in a range-band battle (O1) positions for hexes."""
    on_track = battle is not None and track.on(battle)
    cat = catalog()
    ch = stats.chassis_of(unit)
    cls = cat.classes[ch.class_]
    side_style = pal.side(unit.side)
    out: list[Text] = []
    title = Text()
    mark = frame_label(unit)
    if not unit.pilot_alive and not unit.destroyed:
        mark = mark[0] + g.times  # out of the fight, as the map marks it
    title.append(mark, style=side_style)
    title.append(" ")
    title.append(unit.label, style="bold")
    sep = f" {g.sep} "
    long_tail = f"{sep}{ch.name} {ch.designation}{sep}{cls.name}"
    short_tail = f"{sep}{ch.name} {ch.designation} {cls.letter}"
    tail = first_fitting(width - title.cell_len, long_tail, short_tail, f" {ch.designation}")
    title.append(str(tail))
    out.append(title)

    p = unit.pilot
    ap = f"AP {unit.ap}/{stats.max_ap(unit)}" if phase == "combat" else phase.capitalize()
    pilot = first_fitting(
        width,
        f"Pilot {p.callsign}{sep}gunnery {p.gunnery}{sep}piloting {p.piloting}{sep}{ap}",
        f"Pilot {p.callsign}{sep}gun {p.gunnery}{sep}pil {p.piloting}{sep}{ap}",
        f"{p.callsign}{sep}gun {p.gunnery}{sep}pil {p.piloting}{sep}{ap}",
        f"{p.callsign} G{p.gunnery} P{p.piloting}{sep}{ap}",
    )
    out.append(Text(str(pilot)))
    if unit.side in THIRD_PARTIES:  # O10.5: the AI plays them; the player cannot order them
        who = "Allied lance" if unit.side == "ally" else "Neutral lance"
        out.append(Text(f"{who}{sep}the AI plays it", style=side_style))
    if battle is not None and battle.rule("O9"):
        out.extend(command_lines(battle, unit, width, g))
    out.extend(frame_diagram(unit, width, g, pal))
    out.extend(_reactor_lines(unit, width, g, pal))

    flags = _status_flags(unit, pal)
    if not flags and phase == "deployment":
        where = f"placed at {place_name(unit.pos, on_track)}" if unit.pos else "not placed"
        flags = [Text(where, style="dim")]
    elif not flags and phase == "over":
        flags = [Text("standing" if unit.active else "out of the fight", style="dim")]
    elif not flags:
        flags = [Text("ready" if unit.ap else "no AP left", style="dim")]
    if unit.facing is not None and unit.active and unit.pos is not None:  # O4.10
        pivot = ", pivoted" if unit.pivoted and phase == "combat" else ""
        flags = [*flags, Text(f"facing {FACING_NAMES[unit.facing]}{pivot}")]
    tokens = [f.copy() for f in flags]
    for t in tokens[:-1]:
        t.append(",")
    out.extend(flow(tokens, width, g, lead=Text("Status: ", style="bold"), indent=2))
    out.extend(_weapon_lines(unit, width, g, pal, on_track))
    out.extend(_equipment_lines(unit, width, g, pal))
    return out


def command_lines(battle: Battle, unit: Unit, width: int, g: Glyphs) -> list[Text]:
    """O9: the side's formation (the standing order and what the last check put in effect)
    and the pilot's abilities: the player's with their keys, the enemy's hidden until used
    (O9.8 "face down")."""
    f = battle.formation(unit.side)
    order = formations.formation_name(f.order)
    if battle.phase == "deployment":
        state = f"{order} ordered" if f.order != formations.NONE else "none ordered"
        key = "  F changes" if unit.side == "player" else ""
        lines = [Text(f"Formation: {state}{key}")]
    elif f.effect != formations.NONE:
        name = formations.formation_name(f.effect)
        if f.plan_round == battle.round:
            bonus = formations.rules().battle_plan.bonus
            fitted = first_fitting(
                width,
                f"Formation: {name} in effect, Battle Plan +{bonus}",
                f"Formation: {name} in effect, plan +{bonus}",
                f"Formation: {name}, plan +{bonus}",
            )
            lines = [Text(str(fitted))]
        else:
            lines = [Text(f"Formation: {name} in effect")]
    else:
        state = f"{order} not formed" if f.order != formations.NONE else "none"
        lines = [Text(f"Formation: {state}")]
    used = [f"{formations.ability_name(a)} (used)" for a in unit.abilities_used]
    if unit.side == "player":
        deploying = battle.phase == "deployment"
        keys = {formations.BREACH_SHOT: "P aiming"}
        held = [
            formations.ability_name(a) + ("" if deploying else f" [{keys.get(a, 'U')}]")
            for a in unit.abilities
        ]
        n = formations.slots(unit.pilot.tactics)
        if not held and not used:
            held = [f"Tactics {unit.pilot.tactics} earns {n}" if n else "none (Tactics 1-2)"]
        if deploying and n:
            held[-1] += "  C changes"
    else:
        held = ["others hidden" if used else "hidden until used"]
    tokens = [Text(t) for t in [*held, *used]]
    for t in tokens[:-1]:
        t.append(",")
    lines += flow(tokens, width, g, lead=Text("Command: ", style="bold"), indent=2)
    return lines


def _reactor_lines(unit: Unit, width: int, g: Glyphs, pal: Palette) -> list[Text]:
    """Energy in the one energy language (battle_words.energy_text), stress as a bar from 0
    to the automatic shutdown with a mark at the shutdown risk, and the two limits named."""
    output = stats.effective_output(unit)
    risk_at, auto_at = shutdown_thresholds(unit)
    energy_style = pal.warning if unit.energy_used > output or unit.shutdown else ""
    stress_style = (
        pal.error if unit.stress >= auto_at else pal.warning if unit.stress >= risk_at else ""
    )
    words = [Text(w, style=energy_style) for w in energy_phrases(unit)]
    words[0] = Text(words[0].plain.capitalize(), style=energy_style)
    out = flow(words, width, g, indent=2)
    head = f"Stress {unit.stress} "
    line = Text(head, style=stress_style)
    cells = min(BAR_MAX, width - len(head))
    if cells >= 5:
        line.append_text(bar(unit.stress, risk_at, auto_at, cells, g))
    out.append(line)
    out.append(Text("  " + stress_limits(unit, width - 2, g.sep), style="dim"))
    return out
