"""The target panel's lines, from a `FirePreview` (combat/preview.py): the target, the line
of sight hex by hex (§3.7), each weapon's chance with every modifier, expected damage, energy,
the overload warning, the AP cost or the engine's refusal."""

from __future__ import annotations

from rich.text import Text

from ...catalog import LOCATION_ORDER, catalog
from ...combat import stats
from ...combat.attack import distance_band
from ...combat.preview import FirePreview, WeaponPreview, stress_outlook
from ...combat.state import LOC_INDEX, Battle, Unit
from ..glyphs import Glyphs
from .panel_text import (
    FULL_NAMES,
    SHORT,
    WIDE,
    Palette,
    first_fitting,
    flow,
    hex_text,
    loc_abbrev,
    location_style,
    signed,
)


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
        tokens.append(Text(f"= {hc.total} {g.right} {hc.chance} (clamped)", style="dim"))
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
            t = Text(f"{ab}{g.no}", style=f"{pal.error} strike")
        else:
            t = Text(f"{ab}{target.armor[i]}/{target.structure[i]}")
            style = location_style(target, loc, pal)
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
        glyph = t.glyph if g.ascii else t.unicode
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
            f" {g.sep} {ch.name} {ch.designation} {g.sep} {cls.name}",
            f" {g.sep} {ch.name} {ch.designation} {cls.letter}",
            f" {ch.designation}",
        )
        title.append(str(tail))
        out.append(title)
        out.extend(_armour_glance(target, preview.location, width, g, pal))
        if preview.location is not None:
            i = LOC_INDEX[preview.location]
            loc = cat.location(preview.location)
            if target.structure[i] <= 0:
                words = [Text(f"{loc.name} {g.no} destroyed", style=pal.error)]
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
    group.append(f" {g.sep} {preview.ap_cost} AP")
    if preview.location is not None:
        group.append(f" {g.sep} called {loc_abbrev(preview.location)}")
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
        f"Energy {preview.energy}: {preview.energy_left} {g.right} {preview.energy_after}"
    )
    if wide:
        energy = Text(
            f"Energy {preview.energy}: {preview.energy_left} left {g.right} {preview.energy_after}"
        )
    if preview.overload_after:
        over = "over output by" if wide else "overload"
        energy.append(f" {g.sep} {over} {preview.overload_after}", style=pal.warning)
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
        head.append(f" {g.no} destroyed", style=pal.error)
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
