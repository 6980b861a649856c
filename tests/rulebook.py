"""Read the rulebook's markdown at test time: sections, tables, prose numbers and formulas.

The rules live outside the package, next to the checkout: ``../shared/rules/core-rules.md``
(plus ``setup-facts.md`` and ``rulings.md``), or in the folder ``$MAC_TUI_SHARED`` names. The
tests parse them and compare every value the catalog holds with what the text says, so a
drifting ``data/*.toml`` fails loudly. A clone without them skips those tests, saying what is
missing (`missing_documents`); every other test runs from the clone alone.

Only text handling lives here (plus the few name -> catalog record look-ups); the expected
numbers all come from the documents.
"""

from __future__ import annotations

import ast
import functools
import os
import re
from collections.abc import Callable, Iterable
from decimal import Decimal
from fractions import Fraction
from pathlib import Path
from typing import Any

SHARED_ENV = "MAC_TUI_SHARED"


def shared_dir() -> Path:
    """`$MAC_TUI_SHARED`, else the `shared` folder beside the checkout."""
    override = os.environ.get(SHARED_ENV)
    return Path(override) if override else Path(__file__).resolve().parents[2] / "shared"


SHARED = shared_dir()
RULES_PATH = SHARED / "rules" / "core-rules.md"
SETUP_PATH = SHARED / "setup-facts.md"
RULINGS_PATH = SHARED / "rulings.md"


def missing_documents() -> str | None:
    """Why the rulebook tests cannot run here (which documents are not found), or None."""
    missing = [p for p in (RULES_PATH, SETUP_PATH, RULINGS_PATH) if not p.is_file()]
    if not missing:
        return None
    return (
        f"the rulebook is not here: no {', '.join(str(p) for p in missing)} (put the shared "
        f"folder beside the checkout, or set ${SHARED_ENV} to it)"
    )


HEADING = re.compile(r"^(#{1,6})\s+\S")
DASHES = "—–-"  # em dash, en dash, hyphen: a lone one in a cell means "none"
MINUS = str.maketrans({"−": "-", "–": "-"})  # typographic minus / en dash as a sign


# --- documents ------------------------------------------------------------------------------
class Doc:
    """One markdown file, addressed by its headings."""

    def __init__(self, path: Path, label: str) -> None:
        self.path = path
        self.label = label
        self.lines = path.read_text(encoding="utf-8").splitlines()

    def __repr__(self) -> str:
        return f"Doc({self.label})"

    # headings ------------------------------------------------------------------------------
    def _headings(self) -> list[tuple[int, int, str]]:
        """(line index, level, text) of every heading outside code fences."""
        out: list[tuple[int, int, str]] = []
        fenced = False
        for i, line in enumerate(self.lines):
            if line.startswith("```"):
                fenced = not fenced
                continue
            m = HEADING.match(line)
            if m and not fenced:
                out.append((i, len(m.group(1)), line.strip()))
        return out

    def _locate(self, heading: str) -> tuple[int, int]:
        """Line span (start, end) of the body under the one heading that is ``heading`` or
        starts with it ("### 3.1 Base Accuracy" finds "### 3.1 Base Accuracy (per weapon)"),
        up to the next heading of the same or a higher level."""
        heads = self._headings()
        hits = [
            (n, lvl)
            for n, (_, lvl, text) in enumerate(heads)
            if text.startswith(heading) and not text[len(heading) :][:1].isalnum()
        ]
        if len(hits) != 1:
            raise AssertionError(
                f"{self.label}: expected one heading {heading!r}, found {len(hits)}"
            )
        n, level = hits[0]
        start = heads[n][0] + 1
        end = len(self.lines)
        for line_no, lvl, _ in heads[n + 1 :]:
            if lvl <= level:
                end = line_no
                break
        return start, end

    def section(self, heading: str) -> str:
        start, end = self._locate(heading)
        return "\n".join(self.lines[start:end])

    def subheadings(self, heading: str) -> list[str]:
        """The direct child headings (full heading lines) of ``heading``, in order."""
        start, end = self._locate(heading)
        level = next(lvl for i, lvl, _ in self._headings() if i == start - 1)
        return [text for i, lvl, text in self._headings() if start <= i < end and lvl == level + 1]

    # tables --------------------------------------------------------------------------------
    def table(self, heading: str, after: str | None = None) -> list[dict[str, str]]:
        """The first markdown table under ``heading`` (after the text ``after`` if given), as
        one dict per body row mapping header -> cell (``**`` removed, whitespace stripped)."""
        start, end = self._locate(heading)
        lines = self.lines[start:end]
        if after is not None:
            at = [i for i, line in enumerate(lines) if after in line]
            if len(at) != 1:
                raise AssertionError(
                    f"{self.label} {heading}: expected one line with {after!r}, found {len(at)}"
                )
            lines = lines[at[0] + 1 :]
        first = next((i for i, line in enumerate(lines) if line.lstrip().startswith("|")), None)
        if first is None:
            raise AssertionError(f"{self.label} {heading}: no table found (after={after!r})")
        block: list[str] = []
        for line in lines[first:]:
            if not line.lstrip().startswith("|"):
                break
            block.append(line)
        header = _cells(block[0])
        if not re.fullmatch(r"\|[\s:|-]+\|", block[1].strip()):
            raise AssertionError(f"{self.label} {heading}: table has no separator row")
        rows = []
        for line in block[2:]:
            cells = _cells(line)
            if len(cells) != len(header):
                raise AssertionError(
                    f"{self.label} {heading}: row {line!r} has {len(cells)} cells, "
                    f"header has {len(header)}"
                )
            rows.append(dict(zip(header, cells, strict=True)))
        return rows

    # prose ---------------------------------------------------------------------------------
    def heading(self, heading: str) -> str:
        """The full heading line that ``heading`` names (e.g. to read a count from it)."""
        start, _ = self._locate(heading)
        return self.lines[start - 1].strip()

    def prose(self, heading: str) -> str:
        """The section's text with its lines joined by spaces, so that a sentence wrapped over
        two lines still matches one pattern."""
        return " ".join(line.strip() for line in self.section(heading).splitlines())

    def search(self, heading: str, pattern: str) -> re.Match[str]:
        """The one match of ``pattern`` in the section's prose."""
        found = list(re.finditer(pattern, self.prose(heading)))
        if len(found) != 1:
            raise AssertionError(
                f"{self.label} {heading}: expected one match of /{pattern}/, found {len(found)}"
            )
        return found[0]


def _cells(line: str) -> list[str]:
    inner = line.strip()
    inner = inner.removeprefix("|").removesuffix("|")
    return [clean(c) for c in inner.split("|")]


@functools.cache
def rules() -> Doc:
    return Doc(RULES_PATH, "core-rules.md")


@functools.cache
def setup() -> Doc:
    return Doc(SETUP_PATH, "setup-facts.md")


@functools.cache
def rulings() -> Doc:
    return Doc(RULINGS_PATH, "rulings.md")


def transposed(rows: list[dict[str, str]]) -> dict[str, dict[str, str]]:
    """For tables whose columns are the records and rows the fields (§8.3): column header ->
    {row label: cell}. The first column holds the row labels."""
    label = next(iter(rows[0]))
    columns = [h for h in rows[0] if h != label]
    return {col: {row[label]: row[col] for row in rows} for col in columns}


# --- cell normalisation ---------------------------------------------------------------------
def clean(cell: str) -> str:
    return cell.replace("**", "").strip()


def is_none(cell: str) -> bool:
    return clean(cell) in tuple(DASHES)


NUMBER = re.compile(r"([+-]?)\$?(\d[\d,]*(?:\.\d+)?|\.\d+)\s*(?:%|t|×|x)?")


def number(cell: str) -> Decimal:
    """A number from a cell: strips ``**``, ``%``, ``,``, ``$``, a tonnage ``t`` and ``×``;
    a lone dash reads as 0."""
    text = clean(cell).translate(MINUS)
    if is_none(text):
        return Decimal(0)
    m = NUMBER.fullmatch(text)
    if not m:
        raise AssertionError(f"not a number: {cell!r}")
    value = Decimal(m.group(2).replace(",", ""))
    return -value if m.group(1) == "-" else value


def num(cell: str) -> int:
    """Like `number`, for whole numbers."""
    value = number(cell)
    if value != value.to_integral_value():
        raise AssertionError(f"not a whole number: {cell!r}")
    return int(value)


def lead_int(cell: str) -> int:
    """The first whole number in a cell: "1 (Easy)" -> 1, "0 (no salvage)" -> 0."""
    m = re.search(r"[+-]?\d[\d,]*", clean(cell).translate(MINUS))
    if not m:
        raise AssertionError(f"no number in {cell!r}")
    return int(m.group().replace(",", ""))


def span(cell: str) -> tuple[int, int]:
    """An inclusive range from a cell's first word: "2-4", "2–4", "20-35t", "+0–20,000",
    "1-2 (Easy)"; a single number "3" -> (3, 3)."""
    token = re.sub(r"[%t]$", "", clean(cell).split(" ")[0])
    m = re.fullmatch(r"\+?(\d[\d,]*)(?:\s*[-–]\s*(\d[\d,]*))?", token)
    if not m:
        raise AssertionError(f"not a range: {cell!r}")
    lo = int(m.group(1).replace(",", ""))
    hi = int(m.group(2).replace(",", "")) if m.group(2) else lo
    return lo, hi


def ident(name: str) -> str:
    """A display name as a data id: "Outer Reach" -> "outer_reach", "HAC-10" -> "hac_10"."""
    return re.sub(r"[^a-z0-9]+", "_", clean(name).lower()).strip("_")


def percent(multiplier: str) -> int:
    """A multiplier as whole percent: "1.30×" -> 130, "0.5×" -> 50."""
    return int(number(multiplier) * 100)


# --- formulas -------------------------------------------------------------------------------
_OPS: dict[type, Callable[[Fraction, Fraction], Fraction]] = {
    ast.Add: lambda a, b: a + b,
    ast.Sub: lambda a, b: a - b,
    ast.Mult: lambda a, b: a * b,
    ast.Div: lambda a, b: a / b,
}


def formula(text: str, variable: str = "Difficulty") -> Callable[[int], Fraction]:
    """A book formula such as "+10 + (Difficulty × 2)" or "-(2 + Difficulty)" as a function of
    the variable. Only numbers, the variable, + - × / and brackets are allowed; "No change"
    reads as 0; "%" signs are dropped."""
    src = clean(text)
    if src.lower() == "no change":
        src = "0"
    src = src.translate(MINUS).replace("×", "*").replace("%", "").replace(",", "")
    tree = ast.parse(src.replace(variable, "D"), mode="eval")

    def ev(node: ast.AST, d: int) -> Fraction:
        if isinstance(node, ast.Expression):
            return ev(node.body, d)
        if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
            return Fraction(str(node.value))
        if isinstance(node, ast.Name) and node.id == "D":
            return Fraction(d)
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
            value = ev(node.operand, d)
            return -value if isinstance(node.op, ast.USub) else value
        if isinstance(node, ast.BinOp) and type(node.op) in _OPS:
            return _OPS[type(node.op)](ev(node.left, d), ev(node.right, d))
        raise AssertionError(f"unsupported formula {text!r}")

    return lambda d: ev(tree, d)


# --- name -> catalog record -----------------------------------------------------------------
# setup-facts.md writes mount locations as H, CT, RT, LT, RA, LA.
MOUNT_ABBREV = {
    "H": "head",
    "CT": "center_torso",
    "LT": "left_torso",
    "RT": "right_torso",
    "LA": "left_arm",
    "RA": "right_arm",
}


def mounts(cell: str) -> tuple[str, ...]:
    """ "CT, RT" -> ("center_torso", "right_torso"); "–" -> ()."""
    if is_none(cell):
        return ()
    return tuple(MOUNT_ABBREV[part.strip()] for part in clean(cell).split(","))


def _one(kind: str, name: str, hits: Iterable[Any]) -> Any:
    found = list(dict.fromkeys(hits))
    if len(found) != 1:
        raise AssertionError(f"{kind} {name!r} names {len(found)} catalog entries: {found}")
    return found[0]


def bare_name(name: str) -> str:
    """ "Gauss Rifle (Light)" -> "Gauss Rifle"."""
    return re.sub(r"\s*\(.*\)\s*$", "", name).strip()


def paren_name(name: str) -> str | None:
    """ "Missile Pod (SRM-6)" -> "SRM-6"; None without brackets."""
    m = re.search(r"\((.*)\)\s*$", name)
    return m.group(1).strip() if m else None


def weapon_named(cat: Any, name: str) -> Any:
    """A catalog weapon by its book name. Exact `name` first; else the book's spelling with or
    without a parenthesis ("LRM-15 (Long Range Missiles)", "Gauss Rifle", "SRM-6"), or the
    name as an id ("HAC-10" -> hac_10)."""
    name = clean(name)
    exact = [w for w in cat.weapons.values() if w.name == name]
    if exact:
        return _one("weapon", name, exact)
    keys = {name, bare_name(name)}
    hits = [
        w
        for w in cat.weapons.values()
        if keys & {w.name, bare_name(w.name), paren_name(w.name)} or w.id == ident(name)
    ]
    return _one("weapon", name, hits)


def chassis_named(cat: Any, label: str) -> Any:
    """A chassis by a label that starts with its designation: 'SC-20 "Scout"', "SC-20 Scout"."""
    return cat.chassis[clean(label).split()[0]]


def chassis_by_name(cat: Any, name: str) -> Any:
    """A chassis by its name ("Sentinel")."""
    return _one("chassis", name, [c for c in cat.chassis.values() if c.name == clean(name)])


def gear_named(cat: Any, name: str) -> Any:
    """A weapon or chassis by the short names of §15.3's gear lists."""
    chassis = [c for c in cat.chassis.values() if c.name == clean(name)]
    if chassis:
        return _one("chassis", name, chassis)
    return weapon_named(cat, name)


def equipment_named(cat: Any, name: str) -> Any:
    return _one("equipment", name, [e for e in cat.equipment.values() if e.name == clean(name)])


def terrain_named(cat: Any, name: str) -> Any:
    return _one("terrain", name, [t for t in cat.terrain.values() if t.name == clean(name)])


def location_named(cat: Any, name: str) -> Any:
    """A hit location by name ("Left Torso") or abbreviation ("CT")."""
    name = clean(name)
    return _one(
        "location", name, [loc for loc in cat.combat.location if name in (loc.name, loc.abbrev)]
    )


def class_named(cat: Any, name: str) -> Any:
    return _one("class", name, [c for c in cat.classes.values() if c.name == clean(name)])


def system_named(cat: Any, name: str) -> Any:
    return _one("system", name, [s for s in cat.systems.values() if s.name == clean(name)])


def faction_named(cat: Any, name: str) -> Any:
    """A faction by full name ("Crucible Industries") or short name ("Outer Reach")."""
    name = clean(name)
    return _one("faction", name, [f for f in cat.factions.values() if name in (f.name, f.short)])


def standing_named(cat: Any, name: str) -> Any:
    levels = cat.economy.standing_level
    return _one("standing level", name, [lv for lv in levels if lv.name == clean(name)])


# --- comparing records ----------------------------------------------------------------------
def mismatches(record: Any, expected: dict[str, Any]) -> list[str]:
    """ "field: data X, book Y" for each expected field the record disagrees with."""
    out = []
    for field, want in expected.items():
        got = attr(record, field)
        if got != want:
            out.append(f"{field}: data {got!r}, book {want!r}")
    return out


def attr(obj: Any, dotted: str) -> Any:
    for part in dotted.split("."):
        obj = getattr(obj, part)
    return obj


def check(where: str, data: str, record: Any, expected: dict[str, Any]) -> None:
    """Assert that ``record`` has every ``expected`` value; the message names the book table
    and row (``where``) and the data file and entry (``data``)."""
    bad = mismatches(record, expected)
    assert not bad, f"{where} disagrees with {data}: " + "; ".join(bad)
