"""The terminal app: title to hub, autosave, the size guard, help, and SIGHUP saving."""

from __future__ import annotations

import os
import pty
import select
import signal
import sys
import time
from pathlib import Path

import pytest

from mac_tui.save import read_save
from mac_tui.tui.app import MacApp
from mac_tui.tui.config import Settings
from mac_tui.tui.screens.hub import HubScreen
from mac_tui.tui.screens.too_small import TooSmallScreen
from mac_tui.tui.widgets.dialogs import AskScreen


def make_app(tmp_path: Path) -> MacApp:
    return MacApp(saves=tmp_path, settings=Settings())


async def new_campaign(pilot, name: str = "Iron Wolves", seed: str = "77") -> None:  # type: ignore[no-untyped-def]
    await pilot.press("n")
    await pilot.press(*name)
    await pilot.press("enter")
    await pilot.press("ctrl+a", "ctrl+k", *seed, "enter")  # replace the offered seed
    await pilot.pause()


async def test_new_campaign_reaches_the_hub_and_autosaves(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await new_campaign(pilot)
        assert isinstance(app.screen, HubScreen)
        assert app.session is not None and app.session.seed == 77
        save = tmp_path / "iron-wolves-77.json"
        assert save.exists()
        assert read_save(save).header["company"] == "Iron Wolves"
        await pilot.press("d")  # next day: the day report opens
        await pilot.pause()
        await pilot.press("enter")
        await pilot.pause()
        assert read_save(save).header["date"] == "02 Jan 2847"


async def test_a_refusal_shows_its_reason(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await new_campaign(pilot)
        from mac_tui.campaign.commands import Assign

        assert not app.act(Assign("Nobody", "F1"))
        await pilot.pause()
        message = app.screen.query_one("#message")
        assert "no pilot called Nobody" in str(message.render())


async def test_continue_opens_the_latest_save(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await new_campaign(pilot, "First Co")
        await pilot.press("d")
        await pilot.pause()
    again = make_app(tmp_path)
    async with again.run_test(size=(80, 24)) as pilot:
        await pilot.press("c")
        await pilot.pause()
        assert isinstance(again.screen, HubScreen)
        assert again.session is not None and again.session.state.campaign is not None
        assert again.session.state.campaign.day == 2


async def test_too_small_terminal_shows_the_enlarge_screen(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(70, 20)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen)
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert not isinstance(app.screen, TooSmallScreen)
        await pilot.resize_terminal(79, 24)  # shrinking below the minimum brings it back
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen)
        await pilot.resize_terminal(100, 30)
        await pilot.pause()
        await pilot.pause()
        assert not isinstance(app.screen, TooSmallScreen)


async def test_a_key_that_comes_before_the_size_guard_reaches_the_game(tmp_path: Path) -> None:
    """The terminal has grown back but the size guard has not caught up yet (it acts after a
    refresh; a browser sends the resize and the key together): the key closes the enlarge
    screen and reaches the title; while still too small, keys do nothing."""
    app = make_app(tmp_path)
    async with app.run_test(size=(100, 1)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, TooSmallScreen)
        await pilot.press("n")  # too small: nothing happens
        assert isinstance(app.screen, TooSmallScreen)
        guard = app.check_size
        app.check_size = lambda: None  # type: ignore[method-assign]  # the guard lags behind
        await pilot.resize_terminal(100, 30)
        assert isinstance(app.screen, TooSmallScreen)
        app.check_size = guard  # type: ignore[method-assign]
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, AskScreen) and "Name your company" in app.screen.prompt


async def test_help_lists_the_keys_of_the_screen(tmp_path: Path) -> None:
    app = make_app(tmp_path)
    async with app.run_test(size=(80, 24)) as pilot:
        await new_campaign(pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        text = str(app.screen.query_one("VerticalScroll Static").render())
        assert "Roster" in text and "Repair" in text and "Next day" in text


def _read_until(fd: int, needle: bytes, timeout: float) -> bytes:
    data = b""
    end = time.monotonic() + timeout
    while time.monotonic() < end and needle not in data:
        ready, _, _ = select.select([fd], [], [], 0.2)
        if ready:
            try:
                data += os.read(fd, 65536)
            except OSError:
                break
    return data


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals and ptys")
def test_sighup_saves_and_the_next_start_resumes(tmp_path: Path) -> None:
    env = dict(
        os.environ,
        MAC_TUI_SAVES=str(tmp_path),
        TERM="xterm-256color",
        COLUMNS="80",
        LINES="24",
        MAC_TUI_CONFIG=str(tmp_path / "config.toml"),
    )
    pid, fd = pty.fork()
    if pid == 0:  # the child: the game in a pseudo-terminal
        os.execve(sys.executable, [sys.executable, "-m", "mac_tui"], env)
    try:
        import fcntl
        import struct
        import termios

        fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 80, 0, 0))
        assert b"New campaign" in _read_until(fd, b"New campaign", 20)
        for keys, then in ((b"n", b"company"), (b"Hangup Co\r", b"Seed"), (b"\r", b"Roster")):
            os.write(fd, keys)
            assert then in _read_until(fd, then, 15)  # the game has taken the keys
        os.write(fd, b"d")
        assert b"Day report" in _read_until(fd, b"Day report", 15)
        os.kill(pid, signal.SIGHUP)
        _, status = os.waitpid(pid, 0)
    finally:
        os.close(fd)
    assert os.WIFEXITED(status), status
    (save,) = tmp_path.glob("hangup-co-*.json")
    header = read_save(save).header
    assert header["company"] == "Hangup Co"
    assert header["date"] == "02 Jan 2847"
