"""The hex map as a picture: the geometry of the two layouts, the marks, and the look of each
hex as runs of text with their component classes (pure; `HexMap` in hexmap.py paints them).

A `Scene` is one battle as the map draws it (terrain, frames, wrecks, the overlay); a
`Painter` turns a row of a scene into the signatures of its drawn lines, for a layout, a
cursor and a hover. The layouts, the marks and the classes are described in hexmap.py.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Literal

import attrs
from attrs import frozen
from textual.geometry import Size

from ...catalog import catalog
from ...combat import elevation, reaction, stats
from ...combat.features import new_section
from ...combat.state import THIRD_PARTIES, Battle, Unit
from ...hexgrid import DIRECTIONS, Hex, add, from_offset, to_offset
from ..battle_words import column_name

Layout = Literal["compact", "roomy"]
LayoutMode = Literal["auto", "compact", "roomy"]

#: (columns per hex, lines per row, shift of the odd rows) for each layout.
GEOMETRY: dict[Layout, tuple[int, int, int]] = {"compact": (2, 1, 1), "roomy": (4, 2, 2)}
#: The ruler: the row numbers in a gutter on the left, the column letters on a line on top.
GUTTER, TOP = 2, 1
RULER = "hexmap--ruler"
RULER_ON = "hexmap--ruler-on"  # the cursor's column letter and row number

#: Axial steps for the six hex directions.
STEPS: dict[str, tuple[int, int]] = {
    "e": (1, 0),
    "ne": (1, -1),
    "nw": (0, -1),
    "w": (-1, 0),
    "sw": (-1, 1),
    "se": (0, 1),
}

#: "up" / "down" -> the diagonal step from an (even, odd) row that keeps the drawn column.
VERTICAL: dict[str, tuple[str, str]] = {"up": ("ne", "nw"), "down": ("se", "sw")}

#: Overlay marks, (ascii, unicode).
MARKS: dict[str, tuple[str, str]] = {
    "path": ("*", "•"),
    "los": ("-", "-"),
    "los-penalty": ("!", "!"),
    "wreck": ("x", "×"),
    "reach": ("+", "◦"),
    "zone": ("=", "="),
    "out": ("x", "×"),
    "blocks": ("|", "┃"),
    "cone-enemy": ("&", "»"),  # O6: a hex of an armed enemy reaction cone (O11 has @)
    "cone-player": (")", "›"),  # O6: a hex of an armed cone of yours
    "stunned": ("!", "!"),  # O7.6: a Stunned frame (its digit's place compact, below roomy)
    # O7.6: a Dazed frame (O8.10's last-known marker has the `?`, O3's ASCII smoke the `~`)
    "dazed": (";", "~"),
}
#: O4.10: a frame's facing, drawn in the hex it faces, by direction (E, NE, NW, W, SW, SE):
#: (ascii, unicode). The hex it is drawn in says the direction; the glyph points the same way.
FACING_MARKS: tuple[tuple[str, str], ...] = (
    (">", "→"),
    ("^", "↗"),
    ("^", "↖"),
    ("<", "←"),
    ("v", "↙"),
    ("v", "↘"),
)
#: O3.11: a hex in smoke, where no other mark or number is drawn (ascii, unicode).
SMOKE: tuple[str, str] = ("~", "░")
#: O11: the objective hex (OB5) and the marked building (OB6), beside the hex's glyph.
OBJECTIVE: tuple[str, str] = ("@", "◎")
#: Roomy layout: the characters either side of a legal target's / the chosen target's label.
BRACKETS: dict[str, tuple[str, str]] = {"targetable": ("[", "]"), "target": (">", "<")}
MARK_NAMES: dict[str, str] = {
    "path": "path",
    "los": "line of fire",
    "los-penalty": "cover on the line",
    "wreck": "wreck",
    "reach": "reach",
    "zone": "deploy zone",
    "out": "out: pilot dead",
    "blocks": "high ground blocks",
    "cone-enemy": "enemy reaction cone",
    "cone-player": "your reaction cone",
    "stunned": "stunned",
    "dazed": "dazed",
}

TERRAIN_CLASSES = ("open", "forest", "rocks", "rough", "sand")
DEFAULT_TERRAIN_CLASS = "hexmap--terrain"
BASE = "hexmap--base"
MARK = "hexmap--mark"

StyleKey = tuple[str, ...]
Run = tuple[str, StyleKey]
LineSig = tuple[Run, ...]


@frozen
class Overlay:
    """What the screen wants highlighted besides terrain and frames."""

    zone: frozenset[Hex] = frozenset()  # the deployment zone
    reach: frozenset[Hex] = frozenset()  # hexes a Move/Sprint/jump can reach
    path: tuple[Hex, ...] = ()  # the planned path, frame to cursor
    los: tuple[Hex, ...] = ()  # the LOS line's intervening hexes
    los_penalty: frozenset[Hex] = frozenset()  # those of them that carry a penalty
    blocks: frozenset[Hex] = frozenset()  # those of them that block the height line (O2.6)
    targets: frozenset[Hex] = frozenset()  # hexes holding legal targets
    target: Hex | None = None  # the chosen target

    def hexes(self) -> frozenset[Hex]:
        """Every hex the overlay marks."""
        single = frozenset({self.target}) if self.target is not None else frozenset()
        return (
            self.zone
            | self.reach
            | frozenset(self.path)
            | frozenset(self.los)
            | self.los_penalty
            | self.blocks
            | self.targets
            | single
        )

    def rows_changed(self, other: Overlay) -> set[int]:
        """The map rows where this overlay and `other` differ (the rows to draw again)."""
        if other == self:
            return set()
        return {h.r for h in self.hexes() ^ other.hexes()} | {
            h.r for h in self.hexes() & other.hexes() if _marks(self, h) != _marks(other, h)
        }


def _marks(overlay: Overlay, h: Hex) -> tuple[bool, ...]:
    return (
        h in overlay.zone,
        h in overlay.reach,
        h in overlay.path,
        h in overlay.los,
        h in overlay.los_penalty,
        h in overlay.blocks,
        h in overlay.targets,
        h == overlay.target,
    )


NO_OVERLAY = Overlay()


def frame_label(unit: Unit) -> str:
    """Two characters: the class letter and the last digit of the unit's number within its
    side (the trailing number of its id, `P3` -> 3); uppercase for the player's frames,
    lowercase for the enemy's. O10's third parties have a letter for the number (`A1` -> a,
    `N2` -> b), so they differ from the lances by the glyph, not only by the colour: `Ma` an
    allied Medium (upper case: on the player's side), `ma` a neutral one."""
    letter = catalog().classes[stats.chassis_of(unit).class_].letter
    found = re.search(r"(\d+)$", unit.id)
    n = int(found.group(1)) if found else 0
    if unit.side in THIRD_PARTIES:
        mark = chr(ord("a") + (n - 1) % 26) if n else "?"
        return (letter.upper() if unit.side == "ally" else letter.lower()) + mark
    digit = str(n % 10) if found else "?"
    text = letter + digit
    return text.upper() if unit.side == "player" else text.lower()


#: The map's class for a frame of each side (O10's third parties have their own colours too).
SIDE_CLASS = {
    "player": "hexmap--player",
    "enemy": "hexmap--enemy",
    "ally": "hexmap--ally",
    "neutral": "hexmap--neutral",
}


def legend(
    ascii_glyphs: bool,
    *,
    marks: bool = False,
    levels: bool = False,
    features: bool = False,
    fog: bool = False,
    third: bool = False,
    facings: bool = False,
    objectives: bool = False,
    cones: bool = False,
    stun: bool = False,
) -> str:
    """One short line: the terrain glyphs, the frame letters, a frame out of the fight, the
    deployment zone (and the other overlay marks); with `levels` (O2) the level digits and
    the mark of a hex that blocks a line; with `features` (O3) the feature glyphs, smoke and
    a damaged section's durability (in the compact map's slot only without levels); with
    `third` (O10) the allied and neutral frames' marks; with `fog` (O8) the greyed last-known
    marker; with `objectives` (O11) the mark of an objective's hex or building; with `cones`
    (O6) the marks of the armed reaction cones; with `stun` (O7) the marks of a Stunned and a
    Dazed frame."""
    cat = catalog()
    form = 0 if ascii_glyphs else 1
    parts = [
        f"{t.glyph if ascii_glyphs else t.unicode} {t.name.lower()}" for t in cat.terrain.values()
    ]
    if features:
        parts += [
            f"{f.glyph if ascii_glyphs else f.unicode} {f.name.lower()}"
            for f in cat.structures.feature
            if levels or not f.o2_only
        ]
        parts.append(f"{SMOKE[form]} smoke")
        if not levels:
            parts.append("R4 damaged: 40-49 left")
    if levels:
        top = cat.elevation.levels.max
        parts.append(f"1-{top} ground level")
    if objectives:
        parts.append(f"{OBJECTIVE[form]} objective")
    parts += ["M1 yours", "m1 enemy"]
    if third:
        parts += ["Ma ally", "ma neutral"]
    parts.append(f"M{MARKS['out'][form]} out")
    if facings:  # O4.10
        parts.append(f"M1{FACING_MARKS[0][form]} faces the marked hex")
    if fog:  # O8.10
        parts.append("m? last known")
    if stun:
        parts += [f"M{MARKS[k][form]} {MARK_NAMES[k]}" for k in ("stunned", "dazed")]
    parts.append(f"{MARKS['zone'][form]} {MARK_NAMES['zone']}")
    if levels:
        parts.append(f"{MARKS['blocks'][form]} {MARK_NAMES['blocks']}")
    if cones:
        parts += [f"{MARKS[k][form]} {MARK_NAMES[k]}" for k in ("cone-enemy", "cone-player")]
    if marks:
        shown = ("zone", "out", "blocks", "cone-enemy", "cone-player", "stunned", "dazed")
        parts += [f"{MARKS[k][form]} {MARK_NAMES[k]}" for k in MARKS if k not in shown]
    return "  ".join(parts)


def largest_map() -> tuple[int, int]:
    sizes = catalog().maps.map_size
    return max(m.width for m in sizes), max(m.height for m in sizes)


def drawing_size(width: int, height: int, layout: Layout) -> Size:
    """The cells a width x height map takes in a layout, its ruler included."""
    cw, lines, shift = GEOMETRY[layout]
    return Size(GUTTER + cw * width + (shift if height > 1 else 0), TOP + lines * height)


COMPONENT_CLASSES: frozenset[str] = frozenset(
    {
        BASE,
        DEFAULT_TERRAIN_CLASS,
        *(f"hexmap--{t}" for t in TERRAIN_CLASSES),
        "hexmap--zone",
        "hexmap--reach",
        "hexmap--path",
        "hexmap--los",
        "hexmap--los-penalty",
        "hexmap--blocks",
        MARK,
        "hexmap--wreck",
        "hexmap--player",
        "hexmap--enemy",
        "hexmap--marker",
        "hexmap--ally",
        "hexmap--neutral",
        "hexmap--targetable",
        "hexmap--target",
        "hexmap--active",
        "hexmap--hover",
        "hexmap--cursor",
        "hexmap--out",
        "hexmap--feature",
        "hexmap--damaged",
        "hexmap--smoke",
        "hexmap--cone",
        RULER,
        RULER_ON,
    }
)


def contains(width: int, height: int, h: Hex | None) -> bool:
    """Is `h` on a width x height map?"""
    if h is None:
        return False
    q, r = h
    return 0 <= r < height and 0 <= q + (r - (r & 1)) // 2 < width


def hex_at(layout: Layout, width: int, height: int, x: int, y: int) -> Hex | None:
    """Drawing coordinates -> the hex drawn there (None off the map, or on the ruler)."""
    x, y = x - GUTTER, y - TOP
    if x < 0 or y < 0:
        return None
    cw, lines, shift = GEOMETRY[layout]
    row = y // lines
    if row >= height:
        return None
    x -= shift if row % 2 else 0
    if x < 0:
        return None
    col = x // cw
    if col >= width:
        return None
    return from_offset(col, row)


def cell_of(layout: Layout, h: Hex) -> tuple[int, int]:
    """The hex -> (x, y) of the top-left cell of its drawing."""
    cw, lines, shift = GEOMETRY[layout]
    col, row = to_offset(h)
    return GUTTER + cw * col + (shift if row % 2 else 0), TOP + lines * row


@frozen(eq=False)
class Scene:
    """One battle as the map draws it: per-hex look-ups."""

    active: str | None
    width: int
    height: int
    terrain: tuple[str, ...]
    frames: dict[Hex, tuple[str, str]]  # hex -> (label, side class)
    out: frozenset[Hex]  # frames out of the fight with their pilot dead (not destroyed)
    active_hex: Hex | None
    wrecks: frozenset[Hex]
    overlay: Overlay
    path: frozenset[Hex]
    los: frozenset[Hex]
    # O3: hex -> (feature id, durability when damaged, else None); the hexes in smoke
    features: dict[Hex, tuple[str, int | None]]
    smoke: frozenset[Hex]
    levels: tuple[int, ...] = ()  # O2: every hex's height, row-major (empty: flat, no digits)
    facings: dict[Hex, int] | None = None  # O4.10: hex a frame faces -> the direction
    objectives: frozenset[Hex] = frozenset()  # O11: OB5's hex, OB6's building (known, not met)
    # O6: hex -> "cone-enemy" / "cone-player": the hexes of the armed cones (an enemy's wins)
    cones: dict[Hex, str] = attrs.field(factory=dict)
    stunned: dict[Hex, str] | None = None  # O7.6: hex -> "stunned"/"dazed" of a frame there

    @classmethod
    def of(cls, battle: Battle, active: str | None, overlay: Overlay) -> Scene:
        """`active`: the id of the frame to highlight (None: none)."""
        frames: dict[Hex, tuple[str, str]] = {}
        out: set[Hex] = set()
        wrecks: set[Hex] = set()
        stunned: dict[Hex, str] = {}
        active_hex: Hex | None = None
        for unit in battle.units:
            if unit.pos is None:
                continue
            if unit.destroyed:
                wrecks.add(unit.pos)
                continue
            if unit.left:
                continue  # O10.6: gone off the map with its side
            if unit.id in battle.markers:  # O8.10: a last-known position, greyed, `m?`
                frames[unit.pos] = (frame_label(unit)[0] + "?", "hexmap--marker")
                continue
            frames[unit.pos] = (frame_label(unit), SIDE_CLASS[unit.side])
            if unit.stun:
                stunned[unit.pos] = unit.stun
            if not unit.pilot_alive:
                out.add(unit.pos)
            if unit.id == active:
                active_hex = unit.pos
        bmap = battle.map
        return cls(
            active,
            bmap.width,
            bmap.height,
            bmap.terrain,
            frames,
            frozenset(out),
            active_hex,
            frozenset(wrecks),
            overlay,
            frozenset(overlay.path),
            frozenset(overlay.los),
            feature_marks(battle),
            frozenset(s.hex for s in battle.smoke),
            elevation.heights(battle) if elevation.on(battle) else (),
            facing_marks(battle),
            objective_hexes(battle),
            cone_marks(battle),
            stunned or None,
        )

    def with_overlay(self, overlay: Overlay) -> Scene:
        """The same battle under another overlay (the per-hex look-ups kept)."""
        return Scene(
            self.active,
            self.width,
            self.height,
            self.terrain,
            self.frames,
            self.out,
            self.active_hex,
            self.wrecks,
            overlay,
            frozenset(overlay.path),
            frozenset(overlay.los),
            self.features,
            self.smoke,
            self.levels,
            self.facings,
            self.objectives,
            self.cones,
            self.stunned,
        )


def objective_hexes(battle: Battle) -> frozenset[Hex]:
    """O11: the hexes of the objectives the player's side knows and has not met yet (OB5's
    objective hex, OB6's marked building); a hidden one is not shown."""
    return frozenset(
        o.hex for o in battle.objectives if o.hex is not None and not o.hidden and not o.met
    )


def cone_marks(battle: Battle) -> dict[Hex, str]:
    """O6: every hex of each armed cone on the map (`reaction.cone_hexes`): a cone of a side
    hostile to the player's drawn as the enemy's (with O8, once the player's side detects its
    frame), over one of yours (or an ally's, O10)."""
    out: dict[Hex, str] = {}
    known = reaction.known_cones(battle, "player")  # O8: the hostile ones the player detects
    shown = [
        u
        for u in reaction.armed_cones(battle)
        if u in known or not battle.hostile(u.side, "player")
    ]
    for unit in shown:
        kind = "cone-enemy" if battle.hostile(unit.side, "player") else "cone-player"
        for h in reaction.cone_hexes(battle, unit):
            if out.get(h) != "cone-enemy":
                out[h] = kind
    return out


def facing_marks(battle: Battle) -> dict[Hex, int] | None:
    """O4.10: the hex each frame on the field faces and the direction (None with O4 off);
    where two frames face one hex, the first in the battle's order of frames."""
    if not battle.rule("O4"):
        return None
    out: dict[Hex, int] = {}
    for u in battle.units:
        if u.pos is not None and u.facing is not None and u.active:
            out.setdefault(add(u.pos, DIRECTIONS[u.facing]), u.facing)
    return out


def feature_marks(battle: Battle) -> dict[Hex, tuple[str, int | None]]:
    """O3.12: each section's feature and, when it has lost durability, what it has left."""
    out: dict[Hex, tuple[str, int | None]] = {}
    for s in battle.structures:
        full = new_section(s.hex, s.feature, s.variant).durability
        out[s.hex] = (s.feature, s.durability if s.durability < full else None)
    return out


class Painter:
    """The drawn lines of a scene's rows, in the glyphs of one form (ASCII or Unicode)."""

    def __init__(self, ascii_glyphs: bool) -> None:
        self.ascii = ascii_glyphs
        self._glyphs: dict[str, str] = {}

    def glyph(self, terrain: str) -> str:
        glyph = self._glyphs.get(terrain)
        if glyph is None:
            t = catalog().terrain.get(terrain)
            glyph = "?" if t is None else (t.glyph if self.ascii else t.unicode)
            self._glyphs[terrain] = glyph
        return glyph

    def mark(self, kind: str) -> str:
        if kind.startswith("facing"):  # O4.10
            return FACING_MARKS[int(kind[6:])][0 if self.ascii else 1]
        return MARKS[kind][0 if self.ascii else 1]

    def feature_glyph(self, feature: str) -> str:
        key = "feature:" + feature
        glyph = self._glyphs.get(key)
        if glyph is None:
            f = catalog().structures.kind(feature)
            glyph = self._glyphs[key] = f.glyph if self.ascii else f.unicode
        return glyph

    def look(
        self, s: Scene, h: Hex, terrain: str, cursor: Hex, hover: Hex | None
    ) -> tuple[str | None, str | None, str, StyleKey]:
        """(frame label, mark kind, bracket kind, classes) of one hex."""
        ov = s.overlay
        tclass = f"hexmap--{terrain}"
        if tclass not in COMPONENT_CLASSES:
            tclass = DEFAULT_TERRAIN_CLASS
        classes: list[str] = [tclass]
        if h in ov.blocks:
            classes.append("hexmap--blocks")
        elif h in ov.los_penalty:
            classes.append("hexmap--los-penalty")
        elif h in s.los:
            classes.append("hexmap--los")
        elif h in s.path:
            classes.append("hexmap--path")
        elif h in ov.reach:
            classes.append("hexmap--reach")
        elif h in ov.zone:
            classes.append("hexmap--zone")
        frame = s.frames.get(h)
        label: str | None = None
        mark: str | None = None
        bracket = ""
        if frame is not None:
            label, side = frame
            classes.append(side)
            if h in s.out:
                classes.append("hexmap--out")
            if h == ov.target:
                classes.append("hexmap--target")
                bracket = "target"
            elif h in ov.targets:
                classes.append("hexmap--targetable")
                bracket = "targetable"
            if h == s.active_hex:
                classes.append("hexmap--active")
        elif h in s.path:
            mark = "path"
        elif h in ov.blocks:
            mark = "blocks"
        elif h in ov.los_penalty:
            mark = "los-penalty"
        elif h in s.los:
            mark = "los"
        elif h in s.wrecks:
            mark = "wreck"
        elif s.facings and h in s.facings:
            mark = f"facing{s.facings[h]}"
        elif s.cones.get(h) == "cone-enemy":
            mark = "cone-enemy"  # O6: over the reach, so a path can keep out of it
        elif h in ov.reach:
            mark = "reach"
        elif h in s.cones:
            mark = "cone-player"
        elif h in ov.zone:
            mark = "zone"
        if frame is None and h in s.features:  # O3: a section as a target
            classes.append("hexmap--feature")
            if s.features[h][1] is not None:
                classes.append("hexmap--damaged")
            if h == ov.target:
                classes.append("hexmap--target")
            elif h in ov.targets:
                classes.append("hexmap--targetable")
        elif frame is None and h in s.smoke:
            classes.append("hexmap--smoke")
        if frame is None and s.cones.get(h) == "cone-enemy":
            classes.append("hexmap--cone")
        if h == hover:
            classes.append("hexmap--hover")
        if h == cursor:
            classes.append("hexmap--cursor")
        return label, mark, bracket, tuple(classes)

    def _slot(
        self, left_over: int | None, smoked: bool, level: int, levels: bool, goal: bool = False
    ) -> str:
        """The compact layout's second character of a hex without a frame or mark: an
        objective's mark (O11); with O2 on its height's digit (O2.9; blank at 0); else a
        damaged section's durability in tens (O3.12); then smoke (O3.11); else blank. (The
        roomy map and the target panel show the exact durability whatever the modules.)"""
        if goal:
            return OBJECTIVE[0 if self.ascii else 1]
        if levels and level:
            return str(level)
        if left_over is not None and not levels:
            return str(min(9, left_over // 10))
        return SMOKE[0 if self.ascii else 1] if smoked else " "

    def ruler_line(self, s: Scene, layout: Layout, cursor: Hex) -> LineSig:
        """The column letters above the map, each over its column's hexes (the cursor's
        column reversed)."""
        cw = GEOMETRY[layout][0]
        at = cw // 2 if layout == "roomy" else 0  # over the middle of an even row's hex
        runs: list[Run] = [(" " * (GUTTER + at), (RULER,))]
        cursor_col = to_offset(cursor)[0]
        for col in range(s.width):
            name = column_name(col)
            on = (RULER, RULER_ON) if col == cursor_col else (RULER,)
            runs.append((name, on))
            runs.append((" " * max(0, cw - len(name)), (RULER,)))
        return _merge(runs)

    def row_lines(
        self, s: Scene, row: int, layout: Layout, cursor: Hex, hover: Hex | None
    ) -> list[LineSig]:
        """The signatures of the drawn lines of one map row, its number in the gutter."""
        parts = [
            self.hex_part(s, from_offset(col, row), layout, cursor, hover) for col in range(s.width)
        ]
        return join_row(row, layout, row == to_offset(cursor)[1], parts)

    def hex_part(self, s: Scene, h: Hex, layout: Layout, cursor: Hex, hover: Hex | None) -> HexPart:
        """The runs one hex draws on its row's top line and (roomy) bottom line."""
        roomy = layout == "roomy"
        col, row = to_offset(h)
        index = row * s.width + col
        t = s.terrain[index]
        glyph = self.glyph(t)
        levels = s.levels
        level = levels[index] if levels else 0
        label, mark, bracket, classes = self.look(s, h, t, cursor, hover)
        out = label is not None and h in s.out
        feature = s.features.get(h)
        left_over = None  # O3: durability left of a damaged section
        if feature is not None:
            glyph, left_over = self.feature_glyph(feature[0]), feature[1]
        smoked = h in s.smoke
        goal = h in s.objectives
        dazed = s.stunned.get(h) if s.stunned and label is not None else None  # O7.6
        top: list[Run] = []
        bottom: list[Run] = []
        if not roomy:
            if label is not None:
                if out:
                    label = label[0] + self.mark("out")
                elif dazed is not None:
                    label = label[0] + self.mark(dazed)
                top.append((label, classes))
            elif mark is None:
                slot = self._slot(left_over, smoked, level, bool(levels), goal)
                top.append((glyph + slot, classes))
            elif mark[:6] == "facing" and mark[6:] in ("0", "1", "5"):
                # O4.10: a frame facing E, NE or SE: the mark on the side nearer it
                top.append((self.mark(mark), _with_mark(classes, mark)))
                top.append((glyph, classes))
            else:
                top.append((glyph, classes))
                top.append((self.mark(mark), _with_mark(classes, mark)))
            return top, bottom
        height = str(level) if level else glyph
        if label is None and smoked and not level:
            height = SMOKE[0 if self.ascii else 1]
        if label is not None:
            left, right = BRACKETS.get(bracket, (" ", " "))
            top.append((left + label + right, classes))
            under = self.mark("out") * 2 if out else glyph + height
            if dazed is not None and not out:
                under = self.mark(dazed) * 2
            bottom.append((" " + under + " ", classes))
        else:
            if left_over is not None:
                top.append((f" {glyph}{left_over}".ljust(4)[:4], classes))
            elif goal:  # O11: the objective's mark beside the glyph, on both lines
                top.append((" " + glyph + OBJECTIVE[0 if self.ascii else 1] + " ", classes))
            else:
                top.append((" " + glyph * 2 + " ", classes))
            if mark is None:
                lead = SMOKE[0 if self.ascii else 1] if smoked else glyph
                if goal:
                    lead = OBJECTIVE[0 if self.ascii else 1]
                bottom.append((" " + lead + height + " ", classes))
            else:
                bottom.append((" ", classes))
                bottom.append((self.mark(mark) * 2, _with_mark(classes, mark)))
                bottom.append((" ", classes))
        return top, bottom


#: The runs of one hex on its row's top and bottom lines (the bottom one roomy only).
HexPart = tuple[list[Run], list[Run]]


def join_row(row: int, layout: Layout, cursor_row: bool, parts: Sequence[HexPart]) -> list[LineSig]:
    """A map row's drawn lines from its hexes' runs, left to right: its number in the gutter
    (marked on the cursor's row) and the odd rows' shift."""
    roomy = layout == "roomy"
    base: StyleKey = (BASE,)
    number: StyleKey = (RULER, RULER_ON) if cursor_row else (RULER,)
    top: list[Run] = [(f"{row + 1:>{GUTTER}}", number)]
    bottom: list[Run] = [(" " * GUTTER, (RULER,))]
    if row % 2:
        top.append(("  " if roomy else " ", base))
        if roomy:
            bottom.append(("  ", base))
    for part_top, part_bottom in parts:
        top.extend(part_top)
        bottom.extend(part_bottom)
    lines = [_merge(top)]
    if roomy:
        lines.append(_merge(bottom))
    return lines


def _with_mark(classes: StyleKey, mark: str) -> StyleKey:
    """The classes of a mark character: the mark style goes under hover and cursor."""
    extra = "hexmap--wreck" if mark == "wreck" else MARK
    n = len(classes)
    while n > 1 and classes[n - 1] in ("hexmap--cursor", "hexmap--hover"):
        n -= 1
    return (*classes[:n], extra, *classes[n:])


def _merge(runs: Sequence[Run]) -> LineSig:
    """Join neighbouring runs that share their classes."""
    out: list[Run] = []
    for text, key in runs:
        if out and out[-1][1] == key:
            out[-1] = (out[-1][0] + text, key)
        else:
            out.append((text, key))
    return tuple(out)
