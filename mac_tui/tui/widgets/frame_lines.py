"""The frame panel's lines: chassis, pilot, armour and structure by location (head on top,
arms and torsos across, legs below), AP, energy and stress against their limits, status flags,
weapons by group and equipment. Every number comes from the engine (combat/stats.py,
combat/preview.py)."""

from __future__ import annotations

from rich.text import Text

from ...catalog import LOCATION_ORDER, catalog
from ...combat import stats
from ...combat.preview import shots_left, shutdown_thresholds
from ...combat.state import LOC_INDEX, Unit
from ..glyphs import Glyphs
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


def _location_cells(unit: Unit, location: str, g: Glyphs) -> tuple[str, str, str]:
    """(title, armour, structure) of one location for the narrow diagram."""
    i = LOC_INDEX[location]
    ab = loc_abbrev(location)
    if unit.structure[i] <= 0:
        return f"{ab} {g.no}", "lost", ""
    return ab, f"A{unit.armor[i]}", f"S{unit.structure[i]}"


def _location_line(unit: Unit, location: str, g: Glyphs) -> str:
    """One location on one line: ``CT A14 S7`` (``CT ✗ lost`` once destroyed)."""
    title, armour, structure = _location_cells(unit, location, g)
    return " ".join(x for x in (title, armour, structure) if x)


def frame_diagram(unit: Unit, width: int, g: Glyphs, pal: Palette) -> list[Text]:
    """Head on top, arms and torsos across, legs below: 5 lines (4 when wide)."""
    wide = width >= WIDE
    col = 9 if wide else 7
    pad = max(0, (width - 5 * col) // 2)
    centre = pad + 2 * col  # first column of the centre torso's cell
    out: list[Text] = []

    def single(location: str) -> Text:
        t = Text(" " * centre)
        t.append(_location_line(unit, location, g), style=location_style(unit, location, pal))
        return t

    out.append(single(HEAD))
    cells = [_location_cells(unit, loc, g) for loc in BODY]
    styles = [location_style(unit, loc, pal) for loc in BODY]
    rows: list[list[str]]
    if wide:
        rows = [[c[0] for c in cells], [" ".join(x for x in c[1:] if x) for c in cells]]
    else:
        rows = [[c[0] for c in cells], [c[1] for c in cells], [c[2] for c in cells]]
    for row in rows:
        t = Text(" " * pad)
        for text, style in zip(row, styles, strict=True):
            t.append(text[: col - 1].ljust(col), style=style if text else "")
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
    if not unit.pilot_alive:
        add("pilot KIA", pal.error)
    if unit.shutdown:
        add("SHUT DOWN", pal.error)
    if unit.braced:
        add("braced", "bold")
    if unit.overwatch_group is not None:
        add(f"overwatch G{unit.overwatch_group}", "bold")
    if unit.ecm_active:
        add("ECM on", "bold")
    if unit.barrier:
        add(f"barrier {unit.barrier}", "bold")
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
        return "destroyed"
    if not stats.has_shots(ws):
        return "no ammo"
    if ws.group in unit.fired_groups:
        return "fired"
    if unit.overwatch_group == ws.group:
        return "overwatch"
    return ""


def _weapon_lines(unit: Unit, width: int, g: Glyphs, pal: Palette) -> list[Text]:
    cat = catalog()
    wide = width >= WIDE
    header = "G Wpn  Dmg En Range   Shots Status"
    if wide:
        header = "G Wpn  Mount Dmg En Range   Shots Status"
    out = [Text(header, style="underline")]
    order = sorted(range(len(unit.weapons)), key=lambda i: (unit.weapons[i].group, i))
    last_group: int | None = None
    for i in order:
        ws = unit.weapons[i]
        w = stats.weapon_of(ws)
        rc = cat.range_class(w.range)
        group = str(ws.group) if ws.group != last_group else " "
        last_group = ws.group
        shots = shots_left(unit, i)
        status = _weapon_status(unit, i)
        band = f"{rc.optimal_min}-{rc.optimal_max}/{rc.max_range}"
        mount = f"{loc_abbrev(ws.mount):<5} " if wide else ""
        ammo = "-" if shots is None else str(shots)
        text = f"{group} {w.abbrev:<4} {mount}{w.damage:>3} {w.energy:>2} {band:<7} {ammo:>5} "
        line = Text(text)
        style = ""
        if status == "destroyed":
            style = f"{pal.error} strike"
        elif status in ("no ammo", "fired"):
            style = "dim"
        line.stylize(style, 2, len(text))
        line.append(status, style=pal.error if status == "destroyed" else style)
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
    unit: Unit, width: int, g: Glyphs, pal: Palette, phase: str = "combat"
) -> list[Text]:
    """The frame panel's lines; AP and readiness only mean something once the battle is on."""
    cat = catalog()
    ch = stats.chassis_of(unit)
    cls = cat.classes[ch.class_]
    side_style = pal.player if unit.side == "player" else pal.enemy
    out: list[Text] = []
    title = Text()
    title.append(unit.id if unit.side == "player" else unit.id.lower(), style=side_style)
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
    out.extend(frame_diagram(unit, width, g, pal))
    out.extend(_reactor_lines(unit, width, g, pal))

    flags = _status_flags(unit, pal)
    if not flags and phase == "deployment":
        where = f"placed at {unit.pos.q},{unit.pos.r}" if unit.pos is not None else "not placed"
        flags = [Text(where, style="dim")]
    elif not flags and phase == "over":
        flags = [Text("standing" if unit.active else "out of the fight", style="dim")]
    elif not flags:
        flags = [Text("ready" if unit.ap else "no AP left", style="dim")]
    tokens = [f.copy() for f in flags]
    for t in tokens[:-1]:
        t.append(",")
    out.extend(flow(tokens, width, g, lead=Text("Status: ", style="bold"), indent=2))
    out.extend(_weapon_lines(unit, width, g, pal))
    out.extend(_equipment_lines(unit, width, g, pal))
    return out


def _reactor_lines(unit: Unit, width: int, g: Glyphs, pal: Palette) -> list[Text]:
    """Energy used against the output (and the overload limit), stress against the
    shutdown thresholds, each with a bar when there is room."""
    r = catalog().combat.reactor
    output = stats.effective_output(unit)
    limit = stats.overload_limit(unit)
    chance_at, auto_at = shutdown_thresholds(unit)
    wide = width >= WIDE
    energy = f"Energy {unit.energy_used}/{output}, max {limit}"
    if wide:
        stress = (
            f"Stress {unit.stress}: {r.shutdown_chance}% shutdown at {chance_at}, auto {auto_at}"
        )
    else:
        stress = f"Stress {unit.stress}: {r.shutdown_chance}% at {chance_at}, auto {auto_at}"
    label = max(len(energy), len(stress))
    cells = min(BAR_MAX, width - label - 2)
    energy_style = pal.warning if unit.energy_used > output else ""
    stress_style = (
        pal.error if unit.stress >= auto_at else pal.warning if unit.stress >= chance_at else ""
    )
    out = []
    for text, style, value, mark, top in (
        (energy, energy_style, unit.energy_used, output, limit),
        (stress, stress_style, unit.stress, chance_at, auto_at),
    ):
        line = Text(text.ljust(label + 1), style=style)
        if cells >= 5:
            line.append_text(bar(value, mark, top, cells, g))
        out.append(line)
    return out
