"""Snapshots of the high-score screen at 80x24 and 120x40 (pytest-textual-snapshot).

Write or refresh them with `pytest tests/test_tui_scores_snapshots.py --snapshot-update`, then
look at the SVGs in tests/__snapshots__/test_tui_scores_snapshots/ before committing.

Deterministic: the server's data folder is built in the test's own folder from fixed seeds
(`tests.test_scores.server_data`: alice, bob with a finished run and its debrief, a web game
with the golden year-long campaign) and named by a relative path (`MAC_TUI_SCORES_DIR=data`;
the screen shows "this server's saves", no path); the game's own saves are bob's, so his runs
are the bold ones; one damaged file shows the note about skipped files. The table is read in a
background thread: the snapshot waits for it.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import pytest

from mac_tui.server.scores import SCORES_ENV
from mac_tui.tui.app import MacApp
from mac_tui.tui.config import CONFIG_ENV, Settings
from tests.test_scores import server_data

Pilot = Any  # textual.pilot.Pilot[None]
Compare = Callable[..., bool]
Snap = Callable[..., None]

SIZES = {"80x24": (80, 24), "120x40": (120, 40)}
sized = pytest.mark.parametrize("size", list(SIZES.values()), ids=list(SIZES))
BOB = Path("data") / "players" / "bob" / "saves"

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


@pytest.fixture(autouse=True)
def own_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The server's data in ./data, the game's saves bob's, the (absent) config ./config.toml."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(CONFIG_ENV, "config.toml")
    monkeypatch.setenv(SCORES_ENV, "data")
    server_data(Path("data"))
    (BOB / "lost.json").write_text("", encoding="utf-8")  # an empty file: damaged JSON


@pytest.fixture
def snap(snap_compare: Compare, monkeypatch: pytest.MonkeyPatch) -> Snap:
    """`snap(size, press=(), glyphs="unicode")`: the screen must match its stored SVG."""

    def take(size: tuple[int, int], press: Sequence[str] = (), glyphs: str = "unicode") -> None:
        monkeypatch.setenv("COLUMNS", str(size[0]))
        monkeypatch.setenv("LINES", str(size[1]))
        monkeypatch.delenv("NO_COLOR", raising=False)
        app = MacApp(saves=BOB, settings=Settings(glyphs=glyphs))  # type: ignore[arg-type]

        async def read(pilot: Pilot) -> None:
            await pilot.press("h")
            await pilot.app.workers.wait_for_complete()
            await pilot.pause()
            await pilot.press(*press)

        assert snap_compare(app, terminal_size=size, run_before=read)

    return take


@sized
def test_scores(snap: Snap, size: tuple[int, int]) -> None:
    snap(size)


@sized
def test_scores_a_finished_run(snap: Snap, size: tuple[int, int]) -> None:
    snap(size, press=["down"])  # bob's bankrupt company: how and where it ended


def test_scores_ascii(snap: Snap) -> None:
    snap((80, 24), press=["down"], glyphs="ascii")


def test_scores_empty(snap: Snap, monkeypatch: pytest.MonkeyPatch) -> None:
    Path("nothing").mkdir()
    monkeypatch.setenv(SCORES_ENV, "nothing")
    snap((80, 24))
