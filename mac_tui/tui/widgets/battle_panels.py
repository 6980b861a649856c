"""The battle screen's side panels: the selected frame, the fire preview and the initiative.

* `FramePanel` — one frame: chassis, pilot, armour and structure by location (head on top,
  arms and torsos across, legs below), AP, energy and stress against their limits, status
  flags, weapons by group and equipment.
* `TargetPanel` — a `FirePreview` (combat/preview.py): the target, the line of sight hex by
  hex (§3.7), each weapon's chance with every modifier, expected damage, energy, the
  overload warning, the AP cost or the engine's refusal.
* `InitiativeTrack` — one line: the round and the order of play.
* `move_text` — one line describing a `MovePreview`, for the screen's message line.

The panels only draw: every number comes from the engine (combat/stats.py, combat/preview.py).
Each draws to the width it is given (38 columns at 80x24; a roomier form when wider) and
never relies on colour alone: words, marks and case carry every meaning. With
``ascii_glyphs`` only ASCII is drawn. Lines are built once per (data, width) and cached.
"""

from __future__ import annotations

from collections.abc import Iterable

from attrs import frozen
from rich.text import Text
from textual.geometry import Size
from textual.widget import Widget

from ...catalog import LOCATION_ORDER, catalog
from ...combat import stats
from ...combat.attack import distance_band
from ...combat.preview import (
    FirePreview,
    MovePreview,
    WeaponPreview,
    shots_left,
    shutdown_thresholds,
    stress_outlook,
)
from ...combat.state import LOC_INDEX, Battle, Unit

__all__ = ["FramePanel", "InitiativeTrack", "TargetPanel", "move_text"]

BODY = ("left_arm", "left_torso", "center_torso", "right_torso", "right_arm")
HEAD, LEGS = "head", "legs"
WIDE = 46  # from this width on, the roomier forms are drawn
FULL_NAMES = 56  # from this width on, modifiers keep their full names
BAR_MAX = 20

#: Short names of the common hit-chance modifiers in a narrow panel (others keep their name).
SHORT = {
    "gunnery": "gun",
    "evasion": "eva",
    "range": "rng",
    "called shot": "called",
    "actuator": "act",
    "overwatch": "ow",
    "indirect": "indir",
}


# ---- glyphs and styles -------------------------------------------------------------------
@frozen
class Glyphs:
    sep: str
    arrow: str
    lost: str
    warn: str
    next: str
    ellipsis: str
    full: str
    empty: str
    over_full: str
    over_empty: str
    mark: str


UNICODE = Glyphs(" · ", "→", "✗", "⚠", " › ", "…", "█", "░", "▓", "·", "│")
ASCII = Glyphs(" | ", "->", "x", "!", " > ", "~", "#", "-", "!", ".", "|")


def glyphs(ascii_glyphs: bool) -> Glyphs:
    return ASCII if ascii_glyphs else UNICODE


@frozen
class Palette:
    warning: str = "bold yellow"
    error: str = "bold red"
    player: str = "bold"
    enemy: str = "bold"


def _palette(widget: Widget) -> Palette:
    try:
        theme = widget.app.current_theme
    except Exception:  # no app yet (a panel drawn outside one)
        return Palette()
    return Palette(
        warning=f"bold {theme.warning}" if theme.warning else "bold",
        error=f"bold {theme.error}" if theme.error else "bold",
        player=f"bold {theme.secondary}" if theme.secondary else "bold",
        enemy=f"bold {theme.error}" if theme.error else "bold",
    )


# ---- text helpers ------------------------------------------------------------------------
def fit(text: Text | str, width: int, g: Glyphs) -> Text:
    """The text cut to `width` columns (its end marked when something is cut)."""
    t = Text(text) if isinstance(text, str) else text.copy()
    if t.cell_len <= width:
        return t
    t.truncate(max(0, width - len(g.ellipsis)))
    t.append(g.ellipsis[: max(0, width)])
    t.truncate(width)
    return t


def flow(
    tokens: Iterable[Text | str], width: int, g: Glyphs, *, lead: Text | str = "", indent: int = 0
) -> list[Text]:
    """Tokens separated by spaces, wrapped to `width`; the first line starts with `lead`, the
    next ones with `indent` spaces. A token never splits (one too long is cut)."""
    lines: list[Text] = []
    line = Text(lead) if isinstance(lead, str) else lead.copy()
    fresh = True  # nothing but the lead or the indent on the line yet
    for tok in tokens:
        t = Text(tok) if isinstance(tok, str) else tok
        need = t.cell_len + (0 if fresh or line.plain.endswith(" ") else 1)
        if not fresh and line.cell_len + need > width:
            lines.append(line)
            line = Text(" " * indent)
            fresh = True
            need = t.cell_len
        if not fresh and not line.plain.endswith(" "):
            line.append(" ")
        line.append_text(t)
        fresh = False
    if line.plain.strip():
        lines.append(line)
    return [fit(x, width, g) for x in lines]


def first_fitting(width: int, *candidates: Text | str) -> Text | str:
    """The first candidate that fits in `width` (the last one otherwise)."""
    for c in candidates:
        if (c.cell_len if isinstance(c, Text) else len(c)) <= width:
            return c
    return candidates[-1]


def bar(value: int, mark: int, top: int, cells: int, g: Glyphs) -> Text:
    """`cells` cells from 0 to `top` with a mark at `mark`: the part up to `mark` in full
    blocks, the part past it in dark blocks (the overload, the shutdown zone)."""
    top = max(top, mark, 1)
    left = max(1, round(cells * mark / top)) if mark > 0 else 0
    left = min(left, cells)
    right = cells - left
    fill_left = min(left, round(left * min(value, mark) / mark)) if mark > 0 else 0
    if value > 0 and fill_left == 0 and left:
        fill_left = 1
    over = max(0, value - mark)
    fill_right = round(right * over / (top - mark)) if top > mark else 0
    if over > 0 and fill_right == 0 and right:
        fill_right = 1
    fill_right = min(right, fill_right)
    t = Text()
    t.append(g.full * fill_left)
    t.append(g.empty * (left - fill_left), style="dim")
    t.append(g.mark, style="bold")
    t.append(g.over_full * fill_right, style="bold")
    t.append(g.over_empty * (right - fill_right), style="dim")
    return t


def signed(value: int) -> str:
    return f"{value:+d}"


def hex_text(q: int, r: int) -> str:
    return f"{q},{r}"


def loc_abbrev(location: str) -> str:
    return catalog().location(location).abbrev


class BattlePanel(Widget):
    """A widget drawn from a list of lines built for its width (cached until `show`)."""

    DEFAULT_CSS = """
    BattlePanel { height: auto; width: 1fr; text-wrap: nowrap; text-overflow: clip; }
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.ascii_glyphs = False
        self._cache: tuple[int, list[Text]] | None = None

    def build(self, width: int) -> list[Text]:
        return []

    def lines(self, width: int) -> list[Text]:
        """The panel's lines at this width (each at most `width` columns)."""
        if self._cache is None or self._cache[0] != width:
            g = glyphs(self.ascii_glyphs)
            self._cache = (width, [fit(line, width, g) for line in self.build(width)])
        return self._cache[1]

    def text(self, width: int) -> str:
        return "\n".join(line.plain for line in self.lines(width))

    def _changed(self) -> None:
        self._cache = None
        height = self.styles.height
        # Only a panel sized by its content needs a new layout; a fixed one just repaints.
        self.refresh(layout=height is None or height.is_auto)

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return max(1, len(self.lines(width)))

    def render(self) -> Text:
        return Text("\n").join(self.lines(self.content_size.width or self.size.width or 38))


# ---- the frame ---------------------------------------------------------------------------
def _location_cells(unit: Unit, location: str, g: Glyphs) -> tuple[str, str, str]:
    """(title, armour, structure) of one location for the narrow diagram."""
    i = LOC_INDEX[location]
    ab = loc_abbrev(location)
    if unit.structure[i] <= 0:
        return f"{ab} {g.lost}", "lost", ""
    return ab, f"A{unit.armor[i]}", f"S{unit.structure[i]}"


def _location_line(unit: Unit, location: str, g: Glyphs) -> str:
    """One location on one line: ``CT A14 S7`` (``CT ✗ lost`` once destroyed)."""
    title, armour, structure = _location_cells(unit, location, g)
    return " ".join(x for x in (title, armour, structure) if x)


def _location_style(unit: Unit, location: str, pal: Palette) -> str:
    i = LOC_INDEX[location]
    if unit.structure[i] <= 0:
        return f"{pal.error} strike"
    full = stats.full_structure(stats.chassis_of(unit))[i]
    if unit.structure[i] < full:
        return pal.warning
    if unit.armor[i] == 0:
        return "bold"
    return ""


def frame_diagram(unit: Unit, width: int, g: Glyphs, pal: Palette) -> list[Text]:
    """Head on top, arms and torsos across, legs below: 5 lines (4 when wide)."""
    wide = width >= WIDE
    col = 9 if wide else 7
    pad = max(0, (width - 5 * col) // 2)
    centre = pad + 2 * col  # first column of the centre torso's cell
    out: list[Text] = []

    def single(location: str) -> Text:
        t = Text(" " * centre)
        t.append(_location_line(unit, location, g), style=_location_style(unit, location, pal))
        return t

    out.append(single(HEAD))
    cells = [_location_cells(unit, loc, g) for loc in BODY]
    styles = [_location_style(unit, loc, pal) for loc in BODY]
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
    long_tail = f"{g.sep}{ch.name} {ch.designation}{g.sep}{cls.name}"
    short_tail = f"{g.sep}{ch.name} {ch.designation} {cls.letter}"
    tail = first_fitting(width - title.cell_len, long_tail, short_tail, f" {ch.designation}")
    title.append(str(tail))
    out.append(title)

    p = unit.pilot
    ap = f"AP {unit.ap}/{stats.max_ap(unit)}" if phase == "combat" else phase.capitalize()
    pilot = first_fitting(
        width,
        f"Pilot {p.callsign}{g.sep}gunnery {p.gunnery}{g.sep}piloting {p.piloting}{g.sep}{ap}",
        f"Pilot {p.callsign}{g.sep}gun {p.gunnery}{g.sep}pil {p.piloting}{g.sep}{ap}",
        f"{p.callsign}{g.sep}gun {p.gunnery}{g.sep}pil {p.piloting}{g.sep}{ap}",
        f"{p.callsign} G{p.gunnery} P{p.piloting}{g.sep}{ap}",
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


class FramePanel(BattlePanel):
    """The selected frame (or a hint when none is selected)."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.battle: Battle | None = None
        self.unit_id: str | None = None

    def show(self, battle: Battle, unit_id: str | None, *, ascii_glyphs: bool = False) -> None:
        if (battle, unit_id, ascii_glyphs) == (self.battle, self.unit_id, self.ascii_glyphs):
            return  # the same picture: no repaint
        self.battle, self.unit_id, self.ascii_glyphs = battle, unit_id, ascii_glyphs
        self._changed()

    def build(self, width: int) -> list[Text]:
        g = glyphs(self.ascii_glyphs)
        if self.battle is None or self.unit_id is None:
            return [Text("No frame selected", style="dim")]
        try:
            unit = self.battle.unit(self.unit_id)
        except KeyError:
            return [Text(f"No frame {self.unit_id}", style="dim")]
        return frame_lines(unit, width, g, _palette(self), self.battle.phase)


# ---- the target --------------------------------------------------------------------------
def modifier_tokens(weapon: WeaponPreview, full_names: bool, g: Glyphs, pal: Palette) -> list[Text]:
    """Every modifier of the weapon's chance as ``name value`` (the base unsigned); the
    clamped total when the clamp changed it."""
    hc = weapon.chance
    if hc is None:
        return []
    tokens: list[Text] = []
    for m in hc.modifiers:
        name = m.name if full_names else SHORT.get(m.name, m.name)
        value = str(m.value) if m.name == "base" else signed(m.value)
        t = Text(f"{name} ")
        t.append(value, style="bold" if m.value < 0 and m.name != "base" else "")
        tokens.append(t)
    if hc.total != hc.chance:
        tokens.append(Text(f"= {hc.total} {g.arrow} {hc.chance} (clamped)", style="dim"))
    return tokens


def _armour_glance(
    target: Unit, called: str | None, width: int, g: Glyphs, pal: Palette
) -> list[Text]:
    """Every location as ``HD10/5`` (armour/structure), the called one bracketed."""
    tokens: list[Text] = []
    for loc in LOCATION_ORDER:
        i = LOC_INDEX[loc]
        ab = loc_abbrev(loc)
        if target.structure[i] <= 0:
            t = Text(f"{ab}{g.lost}", style=f"{pal.error} strike")
        else:
            t = Text(f"{ab}{target.armor[i]}/{target.structure[i]}")
            style = _location_style(target, loc, pal)
            if style:
                t.stylize(style)
        if loc == called:
            t = Text("[") + t + Text("]")
            t.stylize("bold reverse")
        tokens.append(t)
    return flow(tokens, width, g, lead=Text("A/S ", style="dim"), indent=4)


def _los_lines(preview: FirePreview, width: int, g: Glyphs) -> list[Text]:
    terrain = catalog().terrain
    wide = width >= WIDE
    total = preview.los_penalty
    n = len(preview.los)
    if n == 0:
        return [Text("LOS: adjacent, no hex between")]
    head = Text("LOS ", style="bold")
    head.append(f"{n} hex{'es' if n != 1 else ''} ")
    head.append(f"{-total:+d}" if total else "clear", style="bold")
    head.append(":")
    tokens: list[Text] = []
    for step in preview.los:
        t = terrain[step.terrain]
        glyph = t.glyph if g is ASCII else t.unicode
        text = f"{hex_text(step.hex.q, step.hex.r)} {glyph}" if wide else glyph
        tok = Text(text)
        if step.penalty:
            tok.append(f"{-step.penalty:+d}", style="bold")
        tokens.append(tok)
    return flow(tokens, width, g, lead=head + Text(" "), indent=2)


def target_lines(
    battle: Battle, preview: FirePreview, width: int, g: Glyphs, pal: Palette
) -> list[Text]:
    cat = catalog()
    wide = width >= WIDE
    full_names = width >= FULL_NAMES
    out: list[Text] = []
    try:
        target: Unit | None = battle.unit(preview.target)
    except KeyError:
        target = None
    try:
        attacker: Unit | None = battle.unit(preview.attacker)
    except KeyError:
        attacker = None

    title = Text("Target ", style="bold")
    if target is None:
        title.append(preview.target)
        out.append(title)
    else:
        ch = stats.chassis_of(target)
        side_style = pal.player if target.side == "player" else pal.enemy
        title.append(target.label, style=side_style)
        cls = cat.classes[ch.class_]
        tail = first_fitting(
            width - title.cell_len,
            f"{g.sep}{ch.name} {ch.designation}{g.sep}{cls.name}",
            f"{g.sep}{ch.name} {ch.designation} {cls.letter}",
            f" {ch.designation}",
        )
        title.append(str(tail))
        out.append(title)
        out.extend(_armour_glance(target, preview.location, width, g, pal))
        if preview.location is not None:
            i = LOC_INDEX[preview.location]
            loc = cat.location(preview.location)
            if target.structure[i] <= 0:
                words = [Text(f"{loc.name} {g.lost} destroyed", style=pal.error)]
            else:
                text = f"{loc.name} armour {target.armor[i]}, structure {target.structure[i]}"
                words = [Text(x) for x in text.split(" ")]
            called = Text("Called shot: ", style="bold")
            out.extend(flow(words, width, g, lead=called, indent=2))
        band = distance_band(preview.distance).replace("_", " ") if preview.distance else ""
        dist = f"Distance {preview.distance} hex{'es' if preview.distance != 1 else ''}"
        out.append(Text(f"{dist} ({band})" if band else dist))
        out.extend(_los_lines(preview, width, g))

    group = Text(f"Group {preview.group}", style="bold")
    group.append(f"{g.sep}{preview.ap_cost} AP")
    if preview.location is not None:
        group.append(f"{g.sep}called {loc_abbrev(preview.location)}")
    out.append(group)
    if preview.refusal is not None:
        refused = flow(preview.refusal.split(" "), width, g, lead=f"{g.warn} Refused: ", indent=2)
        for line in refused:
            line.stylize(pal.error)
        out.extend(refused)

    for w in preview.weapons:
        out.extend(_weapon_preview_lines(w, width, full_names, g, pal))

    if preview.firing:
        exp = Text("Expected damage ", style="bold")
        exp.append(f"{preview.expected:.1f}", style="bold")
        out.append(exp)
    energy = Text(
        f"Energy {preview.energy}: {preview.energy_left} {g.arrow} {preview.energy_after}"
    )
    if wide:
        energy = Text(
            f"Energy {preview.energy}: {preview.energy_left} left {g.arrow} {preview.energy_after}"
        )
    if preview.overload_after:
        over = "over output by" if wide else "overload"
        energy.append(f"{g.sep}{over} {preview.overload_after}", style=pal.warning)
    out.append(energy)
    if attacker is not None and preview.refusal is None:
        outlook = stress_outlook(attacker, preview.energy)
        if outlook:
            out.extend(
                flow(
                    outlook.split(" "),
                    width,
                    g,
                    lead=Text(f"{g.warn} ", style=pal.warning),
                    indent=2,
                )
            )
    return out


def _weapon_preview_lines(
    w: WeaponPreview, width: int, full_names: bool, g: Glyphs, pal: Palette
) -> list[Text]:
    head = Text(f"{w.abbrev:<4}", style="bold")
    if w.skipped == "destroyed":
        head.append(f" {g.lost} destroyed", style=pal.error)
        return [head]
    if w.chance is not None:
        head.append(f"{w.chance.chance:>3}%", style="bold")
    if w.skipped is not None:
        tokens = [Text(x, style="dim") for x in f"skipped: {w.skipped}".split(" ")]
        return flow(tokens, width, g, lead=head + Text(" "), indent=6)
    head.append(f"  exp {w.expected:.1f}")
    if w.ammo is not None:
        head.append(f"  ammo {w.ammo}", style="dim")
    return [head, *flow(modifier_tokens(w, full_names, g, pal), width, g, lead="  ", indent=2)]


class TargetPanel(BattlePanel):
    """A fire preview: the target, LOS, every weapon's chance and why, the cost."""

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.battle: Battle | None = None
        self.preview: FirePreview | None = None

    def show(self, battle: Battle, preview: FirePreview, *, ascii_glyphs: bool = False) -> None:
        if (battle, preview, ascii_glyphs) == (self.battle, self.preview, self.ascii_glyphs):
            return  # the same picture: no repaint
        self.battle, self.preview, self.ascii_glyphs = battle, preview, ascii_glyphs
        self._changed()

    def build(self, width: int) -> list[Text]:
        if self.battle is None or self.preview is None:
            return [Text("No target", style="dim")]
        return target_lines(
            self.battle, self.preview, width, glyphs(self.ascii_glyphs), _palette(self)
        )


# ---- initiative --------------------------------------------------------------------------
def _unit_token(unit: Unit, long: bool, state: str, g: Glyphs, pal: Palette) -> Text:
    """`P2` (player, upper case) or `e1` (enemy, lower case); with the label when `long`.
    `state`: acting (bracketed, reversed), acted (dim), down (struck, marked), waiting."""
    ident = unit.id.upper() if unit.side == "player" else unit.id.lower()
    if long:
        label = unit.label if unit.side == "player" else unit.label.lower()
        ident = f"{ident} {label}" if label.lower() != ident.lower() else ident
    side = pal.player if unit.side == "player" else pal.enemy
    if state == "down":
        return Text(f"{ident}{g.lost}", style="dim strike")
    if state == "acting":
        return Text(f"[{ident}]", style=f"{side} reverse")
    if unit.shutdown:
        ident += " off"
    if state == "acted":
        return Text(ident, style="dim")
    return Text(ident, style=side)


def track_line(battle: Battle, width: int, g: Glyphs, pal: Palette) -> Text:
    if battle.phase == "deployment":
        head = "Deployment"
    elif battle.phase == "over":
        head = f"Battle over: {battle.result}"
    else:
        head = f"Round {battle.round}"
    acting = battle.active_unit
    ids = list(battle.order) or [u.id for u in battle.units]
    down_before = [u.id for u in battle.units if u.id not in ids and not u.active]

    def build(long: bool) -> Text:
        t = Text(head, style="bold")
        t.append(g.sep)
        for n, uid in enumerate(ids):
            u = battle.unit(uid)
            if not u.active:
                state = "down"
            elif acting is not None and u.id == acting.id:
                state = "acting"
            elif battle.phase == "combat" and n < battle.turn:
                state = "acted"
            else:
                state = "waiting"
            if n:
                t.append(g.next)
            t.append_text(_unit_token(u, long, state, g, pal))
        if down_before:
            t.append(f"{g.sep}down: ")
            for n, uid in enumerate(down_before):
                if n:
                    t.append(" ")
                t.append_text(_unit_token(battle.unit(uid), False, "down", g, pal))
        return t

    long = build(True)
    return long if long.cell_len <= width else fit(build(False), width, g)


class InitiativeTrack(BattlePanel):
    """One line: ``Round 3 · P2 › [P1] › e1 › e2``."""

    DEFAULT_CSS = """
    InitiativeTrack { height: 1; width: 1fr; text-wrap: nowrap; text-overflow: clip; }
    """

    def __init__(self, *, id: str | None = None, classes: str | None = None) -> None:
        super().__init__(id=id, classes=classes)
        self.battle: Battle | None = None

    def show(self, battle: Battle, *, ascii_glyphs: bool = False) -> None:
        if (battle, ascii_glyphs) == (self.battle, self.ascii_glyphs):
            return  # the same picture: no repaint
        self.battle, self.ascii_glyphs = battle, ascii_glyphs
        self._changed()

    def build(self, width: int) -> list[Text]:
        if self.battle is None:
            return [Text("")]
        return [track_line(self.battle, width, glyphs(self.ascii_glyphs), _palette(self))]


# ---- the message line --------------------------------------------------------------------
def move_text(preview: MovePreview, *, ascii_glyphs: bool = False) -> str:
    """E.g. ``Move 3 hexes to 4,5 · 1 AP · energy 2 (14 -> 12)``, or why it cannot."""
    g = glyphs(ascii_glyphs)
    kind = "Sprint" if preview.sprint else "Move"
    where = hex_text(preview.hex.q, preview.hex.r)
    if preview.refusal is not None:
        return f"Cannot {kind.lower()} to {where}: {preview.refusal}"
    n = preview.hexes
    parts = [
        f"{kind} {n} hex{'es' if n != 1 else ''} to {where}",
        f"{preview.ap_cost} AP",
        f"energy {preview.energy} ({preview.energy_after + preview.energy} -> "
        f"{preview.energy_after})",
    ]
    if preview.pullback:
        parts.append("pulling back")
    if preview.warning:
        parts.append(f"{g.warn} {preview.warning}")
    return g.sep.join(parts)
