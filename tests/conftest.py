"""Shared test set-up: hypothesis profiles and paths."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from mac_tui.tui import app as tui_app
from mac_tui.tui.pacing import ManualClock
from mac_tui.tui.screens import hub as tui_hub

from .pgserver import PgServer, find_bindir

ROOT = Path(__file__).resolve().parents[1]
SHARED = ROOT.parent / "shared"

settings.register_profile(
    "ci", deadline=None, suppress_health_check=[HealthCheck.too_slow], print_blob=True
)
settings.register_profile("dev", deadline=2000)
settings.load_profile("ci" if os.environ.get("CI") else "dev")


@pytest.fixture(autouse=True)
def manual_clock(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every app a test starts runs on a `ManualClock`: nothing the game paces in time (the
    enemy's turns) happens until the test advances the clock (tests/pacing.py), so no test
    depends on how fast the machine is. A test may still hand the app a clock of its own."""
    monkeypatch.setattr(tui_app, "SystemClock", ManualClock)


@pytest.fixture(autouse=True)
def no_prebuild(monkeypatch: pytest.MonkeyPatch) -> None:
    """The hub builds the sections not shown yet in the player's pauses (wall-clock time):
    in tests only when a test says (`HubScreen._prebuild`), so what a test sees never
    depends on how fast the machine is."""
    monkeypatch.setattr(tui_hub, "PREBUILD_TIMED", False)


@pytest.fixture(scope="session")
def postgres() -> Iterator[PgServer]:
    """A real PostgreSQL server for the session (tests/pgserver.py), started at the first test
    that asks for it; those tests skip, saying why, where no server program can be found."""
    import importlib.util

    if importlib.util.find_spec("psycopg") is None:
        pytest.skip("the psycopg package is not installed: pip install 'mac-tui[postgres]'")
    bindir, why = find_bindir()
    if bindir is None:
        pytest.skip(why)
    server = PgServer(bindir)
    yield server
    server.stop()
