"""High scores across players: one row per campaign save, read from the saves' headers.

Nothing is replayed: a save's `header` (see `mac_tui.session.header_for`) holds the company,
the day, the credits, the missions won and played, how the run ended and the seed. A debrief
file beside a finished run's save (`NAME.debrief.txt`, written by the debrief screen) adds where
and when it ended.

Where the saves are (`collect_scores(root)` finds out from what `root` holds):

- a server's data folder `DATA`: `DATA/players/<name>/saves/*.json` (one folder per player, the
  SSH server's layout) and `DATA/web/saves/*.json` (the browser games, player `(web)`);
- `DATA/players` itself (the folders of the players);
- a plain saves folder (`*.json`): one local player, named after the OS user (else `you`).

Quick battles (`kind = "skirmish"`) are not scores. A file that cannot be read (damaged JSON, a
field missing or of the wrong type) is skipped with a note naming the file and what is wrong;
nothing here raises on bad files.

Ranking (ruling): days survived (most first), then missions won, then credits, then the player's
and the company's names (A-Z) and the file, so the order is total and the same on every
machine. Runs still going and finished runs rank together: a running company's days so far
count like a finished one's.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from attrs import frozen

SCORES_ENV = "MAC_TUI_SCORES_DIR"
WEB_PLAYER = "(web)"  # not a valid SSH player name: it cannot clash with one
ALIVE = "alive"


@frozen
class Score:
    """One campaign: who, how far it went, how it stands or how it ended."""

    player: str
    company: str
    days: int  # days survived: the campaign's day minus one (day 1 is the start)
    missions_won: int
    missions_played: int
    credits: int
    outcome: str  # "alive", "bankrupt", "broken" or "ended"
    cause: str  # how the run ended (R28), "" while it goes on
    seed: int
    date: str  # the campaign's date now, or when it ended
    ended_at: str  # "12 Mar 2847 at Avalon" from the debrief file, "" when there is none
    file: str  # the save, relative to the folder the scores were collected from

    def rank_key(self) -> tuple[int, int, int, str, str, str]:
        return (-self.days, -self.missions_won, -self.credits, self.player, self.company, self.file)

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player,
            "company": self.company,
            "days": self.days,
            "missions_won": self.missions_won,
            "missions_played": self.missions_played,
            "credits": self.credits,
            "outcome": self.outcome,
            "cause": self.cause,
            "seed": self.seed,
            "date": self.date,
            "ended_at": self.ended_at,
            "file": self.file,
        }


@frozen
class Scores:
    """The ranked rows, and a note for every file that had to be skipped."""

    rows: tuple[Score, ...]
    notes: tuple[str, ...]
    source: str  # where the saves were looked for, in words


class BadSave(Exception):
    """A save that gives no score; the message says what is wrong with it."""


# ---- where the saves are ---------------------------------------------------------------------
def local_player() -> str:
    """The OS user's name, else "you"."""
    try:
        import getpass

        name = getpass.getuser()
    except (OSError, KeyError, ImportError):
        return "you"
    return name or "you"


def _is_dir(path: Path) -> bool:
    try:
        return path.is_dir()
    except OSError:
        return False


def _saves_in(folder: Path) -> list[Path]:
    try:
        return sorted(p for p in folder.glob("*.json") if not p.name.startswith("."))
    except OSError:
        return []


def save_folders(root: Path) -> Iterator[tuple[str, Path]]:
    """(player, saves folder) for every player under `root` (see the module's docstring)."""
    players = root / "players"
    web = root / "web" / "saves"
    if _is_dir(players) or _is_dir(web):
        if _is_dir(players):
            yield from _player_folders(players)
        if _is_dir(web):
            yield WEB_PLAYER, web
        return
    found = list(_player_folders(root))
    if found:
        yield from found
        return
    yield local_player(), root


def _player_folders(players: Path) -> Iterator[tuple[str, Path]]:
    try:
        children = sorted(players.iterdir())
    except OSError:
        return
    for child in children:
        if not child.name.startswith(".") and _is_dir(child / "saves"):
            yield child.name, child / "saves"


# ---- one save --------------------------------------------------------------------------------
def read_header(path: Path) -> dict[str, Any]:
    """The save's `header` dict (a year-long campaign's save parses in a few milliseconds)."""
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise BadSave("not a text file (damaged)") from None
    except OSError as exc:
        raise BadSave(f"cannot be read ({exc.strerror or exc})") from None
    try:
        doc = json.loads(text)
    except (ValueError, RecursionError) as exc:
        raise BadSave(f"damaged JSON ({exc})") from None
    if not isinstance(doc, dict) or doc.get("magic") != "mac-tui-save":
        raise BadSave("not a mac-tui save file")
    header = doc.get("header")
    if not isinstance(header, dict):
        raise BadSave('field "header" is missing or not an object')
    if "seed" not in header and isinstance(doc.get("seed"), int):
        header = {**header, "seed": doc["seed"]}
    return header


def _field(header: dict[str, Any], name: str, kind: type) -> Any:
    value = header.get(name)
    if not isinstance(value, kind) or isinstance(value, bool):
        what = "missing" if value is None else f"not a {'number' if kind is int else 'text'}"
        raise BadSave(f'field "header.{name}" is {what}')
    return value


def outcome_of(cause: str) -> str:
    """A short word for how a run ended (R28): the cause's words, else "ended"."""
    if not cause:
        return ALIVE
    if "below zero" in cause:
        return "bankrupt"
    if "no frame" in cause or "no pilot" in cause:
        return "broken"
    return "ended"


def debrief_facts(save: Path) -> dict[str, str]:
    """`Ended:` and `Cause:` from the debrief file beside `save`, when there is one."""
    facts: dict[str, str] = {}
    try:
        text = save.with_suffix(".debrief.txt").read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return facts
    for line in text.splitlines():
        key, sep, value = line.partition(":")
        if sep and key in ("Ended", "Cause") and value.strip():
            facts.setdefault(key.lower(), value.strip())
    return facts


def score_of(path: Path, player: str, shown: str) -> Score | None:
    """The score of one save, None for a quick battle; BadSave when it gives none."""
    header = read_header(path)
    if header.get("kind") == "skirmish":
        return None
    company = _field(header, "company", str)
    day = _field(header, "day", int)
    ended = header.get("ended")
    if ended is not None and not isinstance(ended, str):
        raise BadSave('field "header.ended" is not a text')
    cause = ended or ""
    facts = debrief_facts(path) if cause else {}
    if cause and not facts.get("cause"):
        facts["cause"] = cause
    date = header.get("date")
    return Score(
        player=player,
        company=company,
        days=max(0, day - 1),
        missions_won=_field(header, "missions_won", int),
        missions_played=_field(header, "missions_played", int),
        credits=_field(header, "credits", int),
        outcome=outcome_of(cause),
        cause=facts.get("cause", ""),
        seed=_field(header, "seed", int),
        date=date if isinstance(date, str) else "",
        ended_at=facts.get("ended", ""),
        file=shown,
    )


# ---- everyone --------------------------------------------------------------------------------
def collect(root: Path) -> Scores:
    """Every campaign save under `root`, ranked, with a note per skipped file."""
    rows: list[Score] = []
    notes: list[str] = []
    if not _is_dir(root):
        return Scores((), (), f"{root} (no such folder)")
    for player, folder in save_folders(root):
        for path in _saves_in(folder):
            try:
                shown = str(path.relative_to(root))
            except ValueError:
                shown = str(path)
            try:
                score = score_of(path, player, shown)
            except BadSave as exc:
                notes.append(f"{shown}: {exc}; skipped")
                continue
            if score is not None:
                rows.append(score)
    rows.sort(key=Score.rank_key)
    return Scores(tuple(rows), tuple(notes), str(root))


def collect_scores(root: Path) -> list[Score]:
    """The ranked scores under `root` (see `collect` for the skipped files' notes)."""
    return list(collect(root).rows)


def scores_root(data: Path | None = None) -> Path:
    """Where the scores come from: `data` (a server's data folder) when given, else
    `$MAC_TUI_SCORES_DIR` when set, else the local saves folder."""
    if data is not None:
        return data
    override = os.environ.get(SCORES_ENV)
    if override:
        return Path(override)
    from ..session import saves_dir

    return saves_dir()


# ---- the command line ------------------------------------------------------------------------
def scores_json(scores: Scores) -> dict[str, Any]:
    return {
        "source": scores.source,
        "scores": [{"rank": i + 1, **s.to_json()} for i, s in enumerate(scores.rows)],
        "skipped": list(scores.notes),
    }


def missions_text(score: Score) -> str:
    return f"{score.missions_won}/{score.missions_played}"


def print_scores(data: Path | None, as_json: bool) -> int:
    """`mac-tui serve scores`: the high scores of `data` (a server's data folder: its players
    and its web games), else of the local saves folder; a Rich table or JSON. Skipped files
    are named on stderr. The exit code: 0, or 2 when `data` is not a folder."""
    if data is not None and not _is_dir(data):
        print(f"mac-tui: no data folder at {data}", file=sys.stderr)
        return 2
    scores = collect(scores_root(data))
    for note in scores.notes:
        print(f"mac-tui: {note}", file=sys.stderr)
    if as_json:
        print(json.dumps(scores_json(scores), indent=2, ensure_ascii=False))
        return 0
    from rich.console import Console
    from rich.table import Table
    from rich.text import Text

    console = Console()
    if not scores.rows:
        console.print(f"No campaign saves yet in {scores.source}.", markup=False, highlight=False)
        return 0
    table = Table(title=Text(f"High scores ({scores.source})"), title_justify="left")
    table.add_column("#", justify="right")
    table.add_column("Player")
    table.add_column("Company")
    table.add_column("Days", justify="right")
    table.add_column("Missions", justify="right")
    table.add_column("Credits", justify="right")
    table.add_column("Outcome")
    table.add_column("Seed", justify="right")
    for i, s in enumerate(scores.rows):
        table.add_row(
            str(i + 1),
            Text(s.player),
            Text(s.company),
            str(s.days),
            missions_text(s),
            f"{s.credits:,}",
            s.outcome,
            str(s.seed),
        )
    console.print(table)
    return 0
