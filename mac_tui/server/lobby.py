"""The spectators' lobby as lines of text: the live games and the recordings (`spectate`).

Live games show the player, the company and in-game date (from the header of the player's
newest save, re-read only when that file changes) and how long the player has been idle. The
recordings list is every player's, newest first, a page at a time: player, when it was played,
its length and size (all from the file's name and size: no recording is opened to list it).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from ..save import SaveError
from ..savefolder import peek_header
from .games import LiveGame
from .recordings import Recording, length_text, size_text

LIVE, RECORDINGS = "live", "recordings"
TITLE = "Mechanized Armour Commander"


def read_header(path: Path) -> dict[str, Any]:
    """A save's header, through the game's safe reader (a regular file of bounded size and
    shape: a FIFO or a link among the saves never blocks or crashes the lobby); {} when the
    file is not a readable save."""
    try:
        return peek_header(path)
    except SaveError:
        return {}


class HeaderCache:
    """The newest save's header of a saves folder, re-read only when that file changes."""

    def __init__(self) -> None:
        self._cache: dict[Path, tuple[int, int, dict[str, Any]]] = {}

    def newest(self, saves: Path) -> dict[str, Any]:
        try:
            files = [(p.lstat().st_mtime_ns, p) for p in saves.glob("*.json")]
        except OSError:
            return {}
        if not files:
            return {}
        _, path = max(files)
        try:
            st = path.lstat()
        except OSError:
            return {}
        hit = self._cache.get(path)
        if hit is not None and hit[:2] == (st.st_mtime_ns, st.st_size):
            return hit[2]
        header = read_header(path)
        self._cache[path] = (st.st_mtime_ns, st.st_size, header)
        return header


def idle_text(seconds: float) -> str:
    return length_text(seconds)


def fit(text: str, width: int) -> str:
    text = "".join(ch if ch.isprintable() else "?" for ch in text)
    return text if len(text) <= width else text[: width - 1] + "~"


def _choose_line(count: int, what: str, more: str) -> str:
    choose = "1" if count == 1 else f"1-{count}"
    enter = " then Enter" if count > 9 else ""
    return f"Type {what} number ({choose}){enter} to {more}"


def lobby_lines(games: list[LiveGame], headers: HeaderCache, note: str = "") -> list[str]:
    """The live games as plain lines (numbered from 1)."""
    lines = [f"{TITLE} - live games (watching is read-only)", ""]
    if not games:
        lines.append("No game is being played right now. This list refreshes by itself.")
    else:
        lines.append(f"  #  {'Player':<16} {'Company':<24} {'Date':<13} Idle")
        for i, game in enumerate(games, start=1):
            header = headers.newest(game.saves)
            company = str(header.get("company", "-")) if header else "(title screen)"
            date = str(header.get("date", "-")) if header else "-"
            lines.append(
                f"{i:>3}  {fit(game.player, 16):<16} {fit(company, 24):<24} "
                f"{fit(date, 13):<13} {idle_text(game.idle)}"
            )
    lines.append("")
    if note:
        lines += [note, ""]
    if games:
        lines.append(_choose_line(len(games), "a game's", "watch it; r refreshes, q leaves."))
    else:
        lines.append("q leaves.")
    lines.append("Tab: the recordings of past games.")
    return lines


def page_size(rows: int) -> int:
    """Recordings on one page of a terminal `rows` high (the lines around the list: 8)."""
    return max(1, rows - 8)


def recording_lines(
    recordings: Sequence[Recording], page: int, per_page: int, note: str = ""
) -> list[str]:
    """One page of the recordings as plain lines (numbered from 1 on each page)."""
    pages = max(1, -(-len(recordings) // per_page))
    page = min(max(page, 0), pages - 1)
    lines = [f"{TITLE} - recordings, newest first (playing back is read-only)", ""]
    shown = recordings[page * per_page : (page + 1) * per_page]
    if not shown:
        lines.append("No recording yet: every game played here is recorded.")
    else:
        lines.append(f"  #  {'Player':<16} {'Played':<21} {'Length':>8}  {'Size':>8}")
        for i, rec in enumerate(shown, start=1):
            cut = "  (cut at the cap)" if rec.cut else ""
            lines.append(
                f"{i:>3}  {fit(rec.player, 16):<16} {rec.started:%Y-%m-%d %H:%M} UTC  "
                f"{length_text(rec.seconds):>8}  {size_text(rec.size):>8}{cut}"
            )
    lines.append("")
    if note:
        lines += [note, ""]
    if shown:
        turn = f"Page {page + 1} of {pages}: n next, p previous. " if pages > 1 else ""
        lines.append(turn + _choose_line(len(shown), "a recording's", "play it back;"))
    lines.append("Tab: the live games; q leaves.")
    return lines


def playback_keys() -> str:
    return "+/- speed, space pause, i idle gaps, e end, q back"
