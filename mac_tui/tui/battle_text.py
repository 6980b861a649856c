"""Words for the battle screens: the combat log in table-top style and the action bar.

Pure text helpers (no widgets), so the log reads the same in tests, in the terminal and in
`mac-tui script` output. The engine's events already describe themselves ("ML -> RAIDER-2:
needs 62, rolls 40: hit LT for 10, armour 4 -> 0, ..."); here frame ids become labels and the
events a reader does not need are dropped.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from ..combat.state import Battle
from ..game import Event
from .glyphs import plain

ID_PATTERN = re.compile(r"\b[PE]\d+\b")
QUIET = {"ActivationEnded", "BattleStarted"}  # said better by the lines around them


def with_labels(battle: Battle, text: str) -> str:
    """`text` with every frame id (P1, E2...) replaced by the frame's label."""
    labels = {u.id: u.label for u in battle.units}
    return ID_PATTERN.sub(lambda m: labels.get(m.group(0), m.group(0)), text)


def log_lines(battle: Battle | None, events: Sequence[Event], *, ascii_glyphs: bool) -> list[str]:
    """The combat-log lines of `events`: a rule for each round, one line per event."""
    rule = "-" if ascii_glyphs else "─"
    out: list[str] = []
    for event in events:
        kind = event.kind()
        if kind in QUIET:
            continue
        text = event.describe()
        if battle is not None:
            text = with_labels(battle, text)
        if ascii_glyphs:
            text = plain(text)
        if kind == "RoundStarted":
            out.append(f"{rule * 2} {text} {rule * 2}")
        elif kind in ("Attacked", "WeaponSkipped", "StressChanged"):
            out.append(f"  {text}")
        else:
            out.append(text)
    return out
