"""The battle's words for the player: one way to write each thing, used by every battle text.

Pure helpers (no widgets), read by the panels, the message line, the log and its history, the
map's ruler and the palette, so a hex, a frame, an energy budget or a stress level reads the
same everywhere:

* `hex_name(h)` — a hex as its column letter and row number on the drawn map: ``C7`` (the
  ruler on the map's edges shows the same letters and numbers). Saves and typed commands keep
  their axial text form (``move 3,4``); only what is shown changes.
* `energy_text(unit)` — ``energy 9 of 17, 17 with overload``: what the frame may still spend
  this round within its reactor's output, and in all with overload (§5.1, §5.3).
  `spend_text(unit, cost)` — the same after spending `cost`: ``4 energy: 13 of 17 left, 21
  with overload``. `overload_text(unit, cost)` — what the overload of a spend does to the
  stress at the end of the round (§5.3, §5.4), or None.
* `stress_limits(unit)` — the two stress thresholds, named: ``shutdown risk 17 · automatic
  shutdown 26`` (shortened to the room there is).
* `engine_text(battle, text)` — a reason or a line of the engine's with frame ids as names and
  axial hexes (``hex 3,4``) as `hex_name`s.
* `weapon_name`, `item_name` (the engine's, combat/damage_report.py), `location_name`,
  `withdrawal_words`, `article`, `report_words`.

Every number comes from the engine (combat/stats.py, combat/preview.py).
"""

from __future__ import annotations

import re

from ..catalog import catalog
from ..combat import stats
from ..combat.preview import overload_after, projected_stress, shutdown_thresholds
from ..combat.setup import WITHDRAW_TEXT
from ..combat.state import Battle, Unit
from ..hexgrid import Hex, from_offset, to_offset

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
ID_PATTERN = re.compile(r"\b[PEAN]\d+\b")  # O10: allied A1, neutral N1
AXIAL_PATTERN = re.compile(r"\b(hex(?:es)?|at|to) (-?\d+),(-?\d+)\b")


# ---- hexes --------------------------------------------------------------------------------
def column_name(col: int) -> str:
    """0 -> A, 25 -> Z, 26 -> AA (no map is that wide today)."""
    name = ""
    col += 1
    while col > 0:
        col, rest = divmod(col - 1, len(LETTERS))
        name = LETTERS[rest] + name
    return name


def hex_name(h: Hex) -> str:
    """``C7``: the hex's column letter and row number as the map's ruler shows them."""
    col, row = to_offset(h)
    return f"{column_name(col)}{row + 1}"


def place_name(h: Hex, on_track: bool) -> str:
    """Where a frame stands: ``C7`` on a map, ``position 1`` on the track (O1)."""
    return f"position {h.q}" if on_track else hex_name(h)


def parse_hex_name(text: str) -> Hex | None:
    """``C7`` -> the hex (None when the text is not a hex name)."""
    found = re.fullmatch(r"([A-Za-z]+)(\d+)", text.strip())
    if found is None:
        return None
    col = 0
    for char in found.group(1).upper():
        col = col * len(LETTERS) + LETTERS.index(char) + 1
    row = int(found.group(2))
    if row < 1:
        return None
    return from_offset(col - 1, row - 1)


# ---- names --------------------------------------------------------------------------------
def weapon_name(weapon: str, short: bool = False) -> str:
    w = catalog().weapons.get(weapon)
    if w is None:
        return weapon
    return w.abbrev if short else w.name


def location_name(location: str, short: bool = False) -> str:
    loc = catalog().location(location)
    return loc.abbrev if short else loc.name.lower()


def article(word: str) -> str:
    """``a Raider``, ``an Enforcer``."""
    return f"{'an' if word[:1].lower() in 'aeiou' else 'a'} {word}"


def withdrawal_words(rule: str) -> str:
    """A side's withdrawal rule (§10.4, R14, D23) in the words the whole game uses for it
    (`combat.setup.WITHDRAW_TEXT`: ``retreats at 50%``, ``fights to the end``)."""
    found = next((text for key, text in WITHDRAW_TEXT.items() if key == rule), None)
    return found if found is not None else rule.replace("_", " ")


def engine_text(battle: Battle | None, text: str) -> str:
    """A line of the engine's for the player: frame ids as names, axial hexes as names."""
    if battle is not None:
        labels = {u.id: u.label for u in battle.units}
        text = ID_PATTERN.sub(lambda m: labels.get(m.group(0), m.group(0)), text)

    def named(m: re.Match[str]) -> str:
        return f"{m.group(1)} {hex_name(Hex(int(m.group(2)), int(m.group(3))))}"

    text = AXIAL_PATTERN.sub(named, text)
    text = re.sub(r"\(R\d+\)", "", text).replace("  ", " ").replace(" .", ".").strip()
    return report_words(text)


def report_words(line: str) -> str:
    """A line the engine wrote (and a save keeps as written) in the player's words: ``an
    Enforcer``, an offer's command form as its key."""
    line = re.sub(r"\b([Aa]) ([AEIOU])", lambda m: f"{m.group(1)}n {m.group(2)}", line)
    return re.sub(r"\(buy-wreck (\d+)\)", r"(wreck \1: b buys it)", line)


# ---- energy and stress ---------------------------------------------------------------------
def _budget(unit: Unit, spent: int = 0) -> tuple[int, int, int]:
    """(left within the output, left with overload, the output) once `spent` more is used."""
    output = stats.effective_output(unit)
    if unit.shutdown:
        return 0, 0, output
    used = unit.energy_used + spent
    return max(0, output - used), max(0, stats.overload_limit(unit) - used), output


def energy_phrases(unit: Unit) -> tuple[str, ...]:
    """`energy_text` in phrases, for a narrow panel to wrap between them."""
    if unit.shutdown:
        return ("energy 0: shut down",)
    left, total, output = _budget(unit)
    over = overload_after(unit, 0)
    tail = (f"({over} over)",) if over else ()
    return (f"energy {left} of {output},", f"{total} with overload", *tail)


def energy_text(unit: Unit) -> str:
    """``energy 9 of 17, 17 with overload`` (``energy 0: shut down`` for a frame that is)."""
    return " ".join(energy_phrases(unit))


def spend_phrases(unit: Unit, cost: int) -> tuple[str, ...]:
    """`spend_text` in phrases, for a narrow panel to wrap between them."""
    left, total, output = _budget(unit, cost)
    return (f"{cost} energy:", f"{left} of {output} left,", f"{total} with overload")


def spend_text(unit: Unit, cost: int) -> str:
    """``4 energy: 13 of 17 left, 21 with overload``: a spend and what it leaves."""
    return " ".join(spend_phrases(unit, cost))


def overload_text(unit: Unit, cost: int, arrow: str = "->") -> str | None:
    """What spending `cost` more does past the output (§5.3) to the stress at the round's
    end (§5.4), or None when it adds no overload: ``overload +3: stress 0 -> 1 at the round's
    end (shutdown risk 17)``."""
    added = overload_after(unit, cost) - overload_after(unit, 0)
    if added <= 0:
        return None
    risk_at, auto_at = shutdown_thresholds(unit)
    after = projected_stress(unit, cost)
    head = f"overload +{added}: stress {unit.stress} {arrow} {after} at the round's end"
    if after >= auto_at:
        return f"{head}: AUTOMATIC SHUTDOWN and a reactor hit ({auto_at})"
    if after >= risk_at:
        chance = catalog().combat.reactor.shutdown_chance
        return f"{head}: {chance}% shutdown risk ({risk_at})"
    return f"{head} (shutdown risk {risk_at})"


def stress_limits(unit: Unit, width: int, sep: str = "·") -> str:
    """The two stress thresholds named, in the longest form that fits `width`."""
    risk_at, auto_at = shutdown_thresholds(unit)
    chance = catalog().combat.reactor.shutdown_chance
    forms = (
        f"{chance}% shutdown risk from {risk_at} {sep} automatic shutdown at {auto_at}",
        f"shutdown risk from {risk_at} {sep} automatic shutdown at {auto_at}",
        f"shutdown risk {risk_at} {sep} automatic shutdown {auto_at}",
        f"shutdown risk {risk_at} {sep} automatic {auto_at}",
    )
    return first_fit(width, forms)


def first_fit(width: int, forms: tuple[str, ...]) -> str:
    """The first of `forms` that fits in `width` cells (the last one otherwise)."""
    return next((f for f in forms if len(f) <= width), forms[-1])


def plural(n: int, word: str, many: str | None = None) -> str:
    return f"{n} {word if n == 1 else (many or word + 's')}"
