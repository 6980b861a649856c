"""High scores across players: one row per campaign save, from verified state.

A save's header and snapshot can be edited; the game its command log rebuilds from the seed is
one the rules played. So each save is read through the checked loader (`save.from_json`)
and its figures (company, day, credits, missions won and played, how the run ended) come from
the state its commands rebuild (`verified_figures`); a snapshot that differs gets a note. A save
of older rules (which this engine cannot replay exactly) is scored from its checked snapshot and
marked unverified. Replays are cached by the file's SHA-256 in `ROOT/.scores-cache.json`, so a
year-long save is replayed once. A debrief file beside a finished run's save
(`NAME.debrief.txt`, written by the debrief screen) adds where and when it ended.

Where the saves are (`collect_scores(root)` finds out from what `root` holds):

- a server's data folder `DATA`: `DATA/players/<name>/saves/*.json` (one folder per player, the
  SSH server's layout) and `DATA/web/saves/*.json` (the browser games, player `(web)`);
- `DATA/players` itself (the folders of the players);
- a plain saves folder (`*.json`): one local player, named after the OS user (else `you`).

Quick battles are not scores. A file that cannot be used (not a regular file, damaged JSON, a
field missing or of the wrong type, a snapshot the rules do not allow) is skipped with a note
naming the file and what is wrong; nothing here raises on bad files.

Ranking (ruling): days survived (most first), then missions won, then credits, then the player's
and the company's names (A-Z) and the file, so the order is total and the same on every
machine. Runs still going and finished runs rank together: a running company's days so far
count like a finished one's.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import attrs
from attrs import frozen

from .. import __version__
from ..campaign.calendar import date_text
from ..game import RULES_VERSION, fold
from ..model import GameState, initial_state
from ..ruleset import format_ruleset
from ..safefile import Refused, read_json, read_regular
from ..save import CONVERTER, SaveError, SaveFile, from_json, state_hash

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
    verified: bool = True  # False: a save of older rules, scored from its snapshot
    note: str = ""  # why the figures are not the snapshot's, or were not checked
    rules: str = ""  # the optional rules played (O0.1), `O2,O3`; "" for the core game

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
            "verified": self.verified,
            "note": self.note,
            **({"rules": self.rules} if self.rules else {}),
        }


@frozen
class Scores:
    """The ranked rows, and a note for every file that had to be skipped."""

    rows: tuple[Score, ...]
    notes: tuple[str, ...]
    source: str  # where the saves were looked for, in words

    @property
    def flagged(self) -> tuple[str, ...]:
        """A line for every row not scored from its save as saved (edited, or older rules)."""
        return tuple(f"{s.file}: {s.note}" for s in self.rows if s.note)


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
DEBRIEF_MAX = 1024 * 1024
CACHE_NAME = ".scores-cache.json"


def debrief_facts(save: Path) -> dict[str, str]:
    """`Ended:` and `Cause:` from the debrief file beside `save`, when there is one (read as a
    regular file only: a FIFO or a link there is ignored)."""
    facts: dict[str, str] = {}
    try:
        text = read_regular(save.with_suffix(".debrief.txt"), DEBRIEF_MAX).decode("utf-8")
    except (Refused, UnicodeDecodeError):
        return facts
    for line in text.splitlines():
        key, sep, value = line.partition(":")
        if sep and key in ("Ended", "Cause") and value.strip():
            facts.setdefault(key.lower(), value.strip())
    return facts


def outcome_of(cause: str) -> str:
    """A short word for how a run ended (R28): the cause's words, else "ended"."""
    if not cause:
        return ALIVE
    if "below zero" in cause:
        return "bankrupt"
    if "no frame" in cause or "no pilot" in cause:
        return "broken"
    return "ended"


@frozen
class Figures:
    """What a campaign scores, taken from a verified state (see `verified_figures`)."""

    company: str
    day: int
    missions_won: int
    missions_played: int
    credits: int
    ended: str
    seed: int
    verified: bool  # False: a save of older rules, scored from its snapshot
    note: str  # why the score is not the snapshot's (or not checked), "" when it is
    rules: str = ""  # the optional rules played (O0.1), `O2,O3`; "" for the core game

    def to_json(self) -> dict[str, Any]:
        doc = attrs.asdict(self)
        if not self.rules:
            del doc["rules"]  # a core game's figures are written as they always were
        return doc


def _figures(state: GameState, *, verified: bool, note: str) -> Figures | None:
    c = state.campaign
    if c is None:
        return None
    return Figures(
        company=c.company,
        day=c.day,
        missions_won=c.missions_won,
        missions_played=c.missions_played,
        credits=c.credits,
        ended=c.ended or "",
        seed=state.seed,
        verified=verified,
        note=note,
        rules=format_ruleset(state.ruleset),
    )


def verified_figures(save: SaveFile) -> Figures | None:
    """The score of a save from the state its commands rebuild (replayed from the seed), not
    from its editable header or snapshot; None for a quick battle. A snapshot that is not what
    the commands rebuild gets a note. A save of older rules cannot be replayed by this engine:
    it is scored from its snapshot (checked for sense on loading), marked unverified."""
    if save.state.campaign is None:
        return None
    if not save.current_rules:
        note = f"made by {save.origin()}: not checked by replay"
        return _figures(save.state, verified=False, note=note)
    rebuilt = fold(initial_state(save.seed), save.commands)[0]
    note = ""
    if state_hash(rebuilt) != state_hash(save.state):
        note = "the saved game does not follow from its commands: scored as they rebuild it"
    return _figures(rebuilt, verified=True, note=note)


class VerifiedCache:
    """Figures already verified, by the SHA-256 of the save file's bytes (and this game and
    rules version), kept in `ROOT/.scores-cache.json` so that a year-long save is replayed
    once, not at every look at the table. An unreadable cache is ignored; one that cannot be
    written is not kept (the scores are the same, only slower)."""

    def __init__(self, root: Path) -> None:
        self.path = root / CACHE_NAME
        self.tag = f"{__version__}/{RULES_VERSION}"
        self.entries: dict[str, Figures | None] = {}
        self.used: set[str] = set()
        self.changed = False
        try:
            doc = read_json(self.path)
        except Refused:
            return
        if not isinstance(doc, dict) or doc.get("tag") != self.tag:
            return
        entries = doc.get("entries")
        for key, value in (entries if isinstance(entries, dict) else {}).items():
            try:
                self.entries[key] = None if value is None else CONVERTER.structure(value, Figures)
            except Exception:  # a damaged entry is verified again
                continue

    def figures(self, data: bytes, save: SaveFile) -> Figures | None:
        key = hashlib.sha256(data).hexdigest()
        self.used.add(key)
        if key in self.entries:
            return self.entries[key]
        figures = self.entries[key] = verified_figures(save)
        self.changed = True
        return figures

    def keep(self) -> None:
        if not self.changed:
            return
        entries = {
            key: None if value is None else value.to_json()
            for key, value in self.entries.items()
            if key in self.used
        }
        text = json.dumps({"tag": self.tag, "entries": entries}, sort_keys=True)
        tmp = self.path.with_name(f"{CACHE_NAME}.{os.getpid()}.tmp")
        try:
            tmp.write_text(text, encoding="utf-8")
            os.replace(tmp, self.path)
        except OSError:
            with contextlib.suppress(OSError):
                tmp.unlink()


def score_of(
    path: Path, player: str, shown: str, cache: VerifiedCache | None = None
) -> Score | None:
    """The score of one save, None for a quick battle; BadSave when it gives none. The figures
    come from the state the save's commands rebuild (`verified_figures`)."""
    data, save = _read(path, shown)
    figures = cache.figures(data, save) if cache is not None else verified_figures(save)
    if figures is None:
        return None
    return make_score(player, shown, figures, *ending(path, figures))


def _read(path: Path, shown: str) -> tuple[bytes, SaveFile]:
    try:
        data = read_regular(path)
    except Refused as exc:
        raise BadSave(str(exc)) from None
    try:
        return data, from_json(data, shown)
    except SaveError as exc:
        raise BadSave(str(exc).removeprefix(f"{shown}: ").rstrip(".")) from None


def ending(path: Path, figures: Figures) -> tuple[str, str]:
    """(where and when the run ended, why) from the debrief file beside `path`, else ("",
    the state's cause); ("", "") for a run that goes on."""
    cause = figures.ended
    facts = debrief_facts(path) if cause else {}
    return facts.get("ended", ""), facts.get("cause") or cause


def make_score(player: str, shown: str, figures: Figures, ended_at: str, cause: str) -> Score:
    return Score(
        player=player,
        company=figures.company,
        days=max(0, figures.day - 1),
        missions_won=figures.missions_won,
        missions_played=figures.missions_played,
        credits=figures.credits,
        outcome=outcome_of(figures.ended),
        cause=cause,
        seed=figures.seed,
        date=date_text(figures.day),
        ended_at=ended_at,
        file=shown,
        verified=figures.verified,
        note=figures.note,
        rules=figures.rules,
    )


# ---- everyone --------------------------------------------------------------------------------
def collect(root: Path) -> Scores:
    """Every campaign save under `root`, ranked, with a note per skipped file."""
    rows: list[Score] = []
    notes: list[str] = []
    if not _is_dir(root):
        return Scores((), (), f"{root} (no such folder)")
    cache = VerifiedCache(root)
    for player, folder in save_folders(root):
        for path in _saves_in(folder):
            try:
                shown = str(path.relative_to(root))
            except ValueError:
                shown = str(path)
            try:
                score = score_of(path, player, shown, cache)
            except BadSave as exc:
                notes.append(f"{shown}: {exc}; skipped")
                continue
            if score is not None:
                rows.append(score)
    cache.keep()
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
    """`mac-tui serve scores` of a saves folder (`data`, else `$MAC_TUI_SCORES_DIR`, else the
    local saves folder), read from the files; a server's come from its store
    (`store.files.print_server_scores`). The exit code: 0, or 2 when `data` is not a folder."""
    if data is not None and not _is_dir(data):
        print(f"mac-tui: no data folder at {data}", file=sys.stderr)
        return 2
    return show_scores(collect(scores_root(data)), as_json)


def show_scores(scores: Scores, as_json: bool) -> int:
    """Print `scores` as a Rich table or JSON; skipped files are named on stderr."""
    for note in (*scores.notes, *scores.flagged):
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
