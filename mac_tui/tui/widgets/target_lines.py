"""The target panel's lines, from a `FirePreview` (combat/preview.py): the target, the line
of sight hex by hex (§3.7), each weapon's chance with every modifier, expected damage, energy,
the overload warning, the AP cost or the engine's refusal."""

from __future__ import annotations

from collections.abc import Sequence

from attrs import frozen
from rich.text import Text

from ...catalog import LOCATION_ORDER, catalog
from ...combat import elevation, facing, moving_fire, stats, track
from ...combat.attack import distance_band
from ...combat.features import STANDARD, full_durability, kind_of, section_at, structure_hex
from ...combat.forecast import Forecast
from ...combat.kicks import kick_damage
from ...combat.preview import KICK_GROUP, FirePreview, WeaponPreview
from ...combat.state import LOC_INDEX, Battle, Unit
from ...hexgrid import arc
from ..battle_words import engine_text, first_fit, hex_name, overload_text, spend_phrases
from ..glyphs import Glyphs
from .hex_picture import MARKS
from .panel_text import (
    FULL_NAMES,
    SHORT,
    WIDE,
    Palette,
    first_fitting,
    flow,
    loc_abbrev,
    location_style,
    signed,
)

#: The entries a hit chance starts from, shown unsigned: a shot's `base`, a shot at a
#: structure's `structure` (O0.4, O3.6) and a kick's `kick` (O7.2).
BASE_ENTRIES = ("base", "structure", "kick")


def moved_line(battle: Battle, attacker: Unit, kick: bool, g: Glyphs) -> Text | None:
    """O5's counter: the hexes the frame moved this activation and what they cost its fire
    (`moving`, stabilised or not); for an O7 kick what they add to its damage (O7.3). None
    when neither applies."""
    n = attacker.moved_hexes
    hexes = f"{n} hex{'es' if n != 1 else ''}"
    if kick:
        if not battle.rule("O7"):
            return None
        rule = catalog().kicks.damage
        tons = stats.chassis_of(attacker).tonnage // rule.tonnage_divisor
        counted = min(n, rule.max_hexes)
        line = Text("Moved ", style="bold")
        line.append(f"{hexes} {g.sep} damage {tons} + {rule.per_hex} x {counted}")
        return line
    if not moving_fire.on(battle):
        return None
    stable = moving_fire.stabilised(attacker)
    penalty = moving_fire.moving_penalty(n, stable)
    line = Text("Moved ", style="bold")
    line.append(f"{hexes} this activation {g.sep} ")
    if penalty:
        line.append(f"moving {penalty:+d}", style="bold")
        if stable:
            line.append(" (stabilised)")
    else:
        line.append("no moving penalty" + (" (stabilised)" if n and stable else ""))
    return line


def modifier_tokens(weapon: WeaponPreview, full_names: bool, g: Glyphs, pal: Palette) -> list[Text]:
    """Every modifier of the weapon's chance as ``name value`` (the base unsigned); the
    clamped total when the clamp changed it."""
    hc = weapon.chance
    if hc is None:
        return []
    tokens: list[Text] = []
    for m in hc.modifiers:
        name = m.name if full_names else SHORT.get(m.name, m.name)
        base = m.name in BASE_ENTRIES
        value = str(m.value) if base else signed(m.value)
        t = Text(f"{name} ")
        t.append(value, style="bold" if m.value < 0 and not base else "")
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
    blocked = any(step.blocks and step.height is not None for step in preview.los)
    head = Text("LOS ", style="bold")
    head.append(f"{n} hex{'es' if n != 1 else ''} ")
    if blocked:  # O2.6, O3.2: no direct fire along this line
        wall = next(step for step in preview.los if step.blocks)
        what = "a structure" if wall.feature is not None else "high ground"
        head.append(f"BLOCKED by {what}", style="bold reverse")
    else:
        head.append(f"{-total:+d}" if total else "clear", style="bold")
    head.append(":")
    tokens: list[Text] = []
    for step in preview.los:
        t = terrain[step.terrain]
        glyph = t.glyph if g.ascii else t.unicode
        if step.feature is not None:  # O3.2: the feature stands for its hex
            f = catalog().structures.kind(step.feature)
            glyph = f.glyph if g.ascii else f.unicode
        text = f"{hex_name(step.hex)} {glyph}" if wide else glyph
        tok = Text(text)
        if step.height:  # O2: the step's level
            tok.append(f"^{step.height}")
        if step.blocks and step.height is not None:  # O2.6: high ground
            tok.append(MARKS["blocks"][0 if g.ascii else 1], style="bold reverse")
        elif step.blocks:  # O3.2: a building or prop
            tok.append(" blocks", style="bold")
        elif step.penalty:
            tok.append(f"{-step.penalty:+d}", style="bold")
        tokens.append(tok)
    return flow(tokens, width, g, lead=head + Text(" "), indent=2)


@frozen
class ShotRisk:
    """The exact forecast of the previewed shot (None: refused, or not aimed), and of a
    called shot at each location it may be called at (empty for a plain shot)."""

    forecast: Forecast | None = None
    called: tuple[tuple[str, Forecast], ...] = ()


NO_RISK = ShotRisk()


def _arc_lines(battle: Battle, attacker: Unit, target: Unit, width: int, g: Glyphs) -> list[Text]:
    """O4.10: the target's arc the shot comes from (its hit table; `rear` +10 from behind), and
    the arc of the shooter the target stands in (the weapons mounted to fire there)."""
    side = facing.attack_arc(battle, attacker, target)
    if side is None or attacker.pos is None or target.pos is None or attacker.facing is None:
        return []
    words = f"Its {facing.arc_words(side)} arc"
    if side == "rear":
        words += f" (+{facing.data().rear.modifier}, rear hits)"
    elif side != "front":
        words += " (side hits)"
    mine = arc(attacker.pos, attacker.facing, target.pos)
    words += f" {g.sep} in your {facing.arc_words(mine)}"
    return flow([Text(w) for w in words.split(" ")], width, g, indent=2)


def target_lines(
    battle: Battle,
    preview: FirePreview,
    width: int,
    g: Glyphs,
    pal: Palette,
    risk: ShotRisk = NO_RISK,
) -> list[Text]:
    cat = catalog()
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
    section_hex = structure_hex(preview.target)
    section = section_at(battle.structures, section_hex) if section_hex is not None else None
    if section is not None:  # O3.6: a structure
        kind = kind_of(section)
        title.append(f"{kind.name} {hex_name(section.hex)}", style="bold")
        variant = "" if section.variant == STANDARD else f" {g.sep} {section.variant}"
        title.append(f" {g.sep} {section.durability}/{full_durability(section)}{variant}")
        out.append(title)
        dist = f"Distance {preview.distance} hex{'es' if preview.distance != 1 else ''}"
        out.append(Text(f"{dist} {g.sep} a miss is re-rolled once"))
        out.extend(_los_lines(preview, width, g))
    elif target is None:
        title.append(preview.target)
        out.append(title)
    else:
        ch = stats.chassis_of(target)
        side_style = pal.side(target.side)
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
        if target.side == "neutral" and attacker is not None:  # O10.5, O10.7
            note = (
                "Neutral: it fights your side (its grudge)"
                if battle.hostile(attacker.side, "neutral")
                else "Neutral: a hit makes it fight you; a kill costs standing"
            )
            short = first_fitting(width, note, "Neutral: a hit angers it")
            out.append(Text(str(short), style=pal.warning))
        # A called shot still to be placed (its table below) marks no one location.
        aimed = None if risk.called else preview.location
        out.extend(_armour_glance(target, aimed, width, g, pal))
        if target.dodging:  # O9.9d: the chances below are rolled, every hit negated
            dodge = "Impossible Turn: every hit on it is dodged"
            out.append(Text(str(first_fitting(width, dodge, "dodging: hits negated")), pal.warning))
        if aimed is not None:
            i = LOC_INDEX[aimed]
            loc = cat.location(aimed)
            if target.structure[i] <= 0:
                words = [Text(f"{loc.name} {g.no} destroyed", style=pal.error)]
            else:
                text = f"{loc.name} armour {target.armor[i]}, structure {target.structure[i]}"
                words = [Text(x) for x in text.split(" ")]
            called = Text("Called shot: ", style="bold")
            out.extend(flow(words, width, g, lead=called, indent=2))
        band = distance_band(preview.distance).replace("_", " ") if preview.distance else ""
        dist = f"Distance {preview.distance} hex{'es' if preview.distance != 1 else ''}"
        if attacker is not None and attacker.pos is not None and target.pos is not None:
            # O2.5: d3 (hexes + levels) where the heights differ
            dist = "Distance " + elevation.distance_words(
                battle, attacker.pos, target.pos, dist.removeprefix("Distance ")
            )
        if track.on(battle):  # O1.1, O1.6: the range and its band; no terrain, no LOS
            out.append(Text(f"Range {preview.distance} {track.band_name(preview.distance)}"))
        else:
            out.append(Text(f"{dist} ({band})" if band else dist))
            if attacker is not None:
                out.extend(_arc_lines(battle, attacker, target, width, g))
            out.extend(_los_lines(preview, width, g))

    kick = preview.group == KICK_GROUP
    if kick and attacker is not None:  # O7: a kick, its damage and the stun it brings
        group = Text("Kick", style="bold")
        group.append(f" {g.sep} {preview.ap_cost} AP {g.sep} {kick_damage(attacker)} damage")
        if target is not None:
            group.append(f" {g.sep} " + ("no stun: " + target.stun if target.stun else "stuns"))
    else:
        group = Text(f"Group {preview.group}", style="bold")
        group.append(f" {g.sep} {preview.ap_cost} AP")
    if risk.called:
        group.append(f" {g.sep} called shot")
    elif preview.location is not None:
        group.append(f" {g.sep} called {loc_abbrev(preview.location)}")
    out.append(group)
    moved = moved_line(battle, attacker, kick, g) if attacker is not None else None
    if moved is not None:
        out.append(moved)
    if preview.refusal is not None:
        reason = engine_text(battle, preview.refusal)
        refused = flow(reason.split(" "), width, g, lead=f"{g.warn} Refused: ", indent=2)
        for line in refused:
            line.stylize(pal.error)
        out.extend(refused)

    for w in preview.weapons:
        out.extend(_weapon_preview_lines(w, width, full_names, g, pal))

    if risk.forecast is not None:
        out.extend(forecast_lines(risk.forecast, width, g, pal))
    elif preview.firing:
        exp = Text("Expected damage ", style="bold")
        exp.append(f"{preview.expected:.1f}", style="bold")
        if section is not None:
            exp.append(" to durability")
        out.append(exp)
    if risk.called:
        out.extend(called_table(risk.called, width, g))
    if attacker is not None:
        phrases = list(spend_phrases(attacker, preview.energy))
        phrases[0] = phrases[0].capitalize()
        out.extend(flow(phrases, width, g, indent=2))
        outlook = overload_text(attacker, preview.energy, g.right)
        if outlook and preview.refusal is None:
            words = [Text(w, style=pal.warning) for w in outlook.split(" ")]
            out.extend(flow(words, width, g, lead=Text(f"{g.warn} ", style=pal.warning), indent=2))
    return out


def pct(p: float) -> str:
    """A probability as whole percent: ``0``, ``<1``, ``31``, ``>99``, ``100``."""
    if p <= 0:
        return "0"
    if p >= 1:
        return "100"
    if p < 0.005:
        return "<1"
    if p > 0.995:
        return ">99"
    return str(round(p * 100))


def forecast_lines(fc: Forecast, width: int, g: Glyphs, pal: Palette) -> list[Text]:
    """The shot's exact outcome (combat/forecast.py): damage expected, the chance any hit
    lands, the chance the target is out (frame destroyed, pilot killed) and each location's
    chance to be destroyed."""
    out_style = pal.error if fc.p_out >= 0.005 else ""
    tokens = [
        Text(f"{fc.expected_damage:.1f} damage,", style="bold"),
        Text(f"a hit {pct(fc.p_any_hit)}%,"),
        Text(f"out {pct(fc.p_out)}%", style=out_style),
    ]
    lines = flow(tokens, width, g, lead=Text("Forecast ", style="bold"), indent=2)
    p_frame, p_pilot = pct(fc.p_frame_destroyed), pct(fc.p_pilot_killed)
    outcomes = first_fit(
        width,
        (
            f"  frame destroyed {p_frame}% {g.sep} pilot killed {p_pilot}%",
            f"  frame {p_frame}% {g.sep} pilot {p_pilot}%",
        ),
    )
    lines.append(Text(outcomes))
    cat = catalog()
    at_risk = sorted(
        (loc for loc in LOCATION_ORDER if 0 < fc.p_destroyed[loc] < 1),
        key=lambda loc: (-fc.p_destroyed[loc], LOCATION_ORDER.index(loc)),
    )
    tokens = [Text(f"{cat.location(loc).abbrev} {pct(fc.p_destroyed[loc])}%") for loc in at_risk]
    if not tokens:
        tokens = [Text("no location", style="dim")]
    lines.extend(flow(tokens, width, g, lead=Text("  destroys "), indent=4))
    return lines


def called_table(rows: Sequence[tuple[str, Forecast]], width: int, g: Glyphs) -> list[Text]:
    """A called shot's outcome for each location it may be called at: the chance that
    location is destroyed, and that the target is out."""
    cat = catalog()
    cols = [cat.location(loc).abbrev for loc, _ in rows]
    lead = 6
    head = Text("Called".ljust(lead), style="bold")
    head.append("".join(f"{c:>4}" for c in cols))
    lost = Text("lost%".ljust(lead) + "".join(f"{pct(f.p_destroyed[loc]):>4}" for loc, f in rows))
    out = Text("out%".ljust(lead) + "".join(f"{pct(f.p_out):>4}" for _, f in rows))
    return [head, lost, out]


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
