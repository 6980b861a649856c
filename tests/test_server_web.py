"""`mac-tui serve web` (mac_tui.server.web): the game in a real browser.

The server runs as a real process (`python -m mac_tui.server.web`) on a free loopback port with
its own data folder. Debian's Chromium (installed by the `chromium` fixture when missing) opens
the page headless and is driven over the DevTools protocol: textual-serve draws the terminal on
a canvas (xterm.js), so the test reads xterm's own screen buffer. A script run before the page's
own captures the xterm `Terminal` when textual.js stores it (`this.terminal = new Terminal()`
goes through a setter put on `Object.prototype` for that name alone). Keys are typed into the
page as a person types them (DevTools input events into xterm's text field).

Every process started here is in a process group of its own and the group is killed at the end.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp
import pyte
import pytest

from mac_tui.server.web import TITLE, game_command, url_for, web_environment

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--remote-debugging-address=127.0.0.1",
    "--remote-debugging-port=0",  # Chromium picks one and writes it in DevToolsActivePort
    "--window-size=1280,800",  # about 140x31 cells at the page's 16px font
]
WAIT = 30.0  # seconds for any one thing the test waits for (it takes 1-3 s here)

# Run before the page's scripts: keep every value stored under the name `terminal`.
CAPTURE_TERMINAL = r"""
(() => {
  const found = [];
  Object.defineProperty(window, "__macTerminals", { value: found });
  Object.defineProperty(Object.prototype, "terminal", {
    configurable: true,
    get() { return undefined; },
    set(value) {
      Object.defineProperty(this, "terminal", {
        value, writable: true, configurable: true, enumerable: true,
      });
      found.push(value);
    },
  });
})();
"""
# The screen as xterm holds it: one string per row, and what the page says about itself.
READ_SCREEN = r"""
(() => {
  const out = { title: document.title, body: document.body ? document.body.className : "" };
  const t = (window.__macTerminals || []).find((t) => t && t.buffer && t.buffer.active);
  if (!t) return out;
  const b = t.buffer.active, lines = [];
  for (let i = 0; i < t.rows; i++) {
    const line = b.getLine(b.viewportY + i);
    lines.push(line ? line.translateToString(true) : "");
  }
  return Object.assign(out, { cols: t.cols, rows: t.rows, lines });
})()
"""


# ---- processes -----------------------------------------------------------------------------
def group_members(pgid: int) -> list[int]:
    """The processes still in process group `pgid`."""
    out = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[2]) == pgid and fields[0] != "Z":
            out.append(int(stat.parent.name))
    return out


def kill_group(proc: subprocess.Popen[bytes], grace: float = 5.0) -> None:
    """SIGTERM the process, then SIGKILL whatever is left of its group."""
    if proc.poll() is None:
        try:
            os.killpg(proc.pid, signal.SIGTERM)
            proc.wait(grace)
        except (ProcessLookupError, subprocess.TimeoutExpired):
            pass
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port: int = s.getsockname()[1]
        return port


@pytest.fixture(scope="session")
def chromium() -> Path:
    """Debian's Chromium; installed with apt-get when it is missing."""
    if CHROMIUM.exists():
        return CHROMIUM
    if shutil.which("apt-get") is None:
        pytest.fail(f"{CHROMIUM} is missing and there is no apt-get: install Debian's chromium")
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    lock = ["-o", "DPkg::Lock::Timeout=300"]
    for command in (
        ["apt-get", *lock, "update"],
        ["apt-get", *lock, "install", "-y", "--no-install-recommends", "chromium"],
    ):
        run = subprocess.run(command, capture_output=True, text=True, env=env, timeout=900)
        if run.returncode != 0:
            pytest.fail(
                f"could not install Chromium for the web test: `{' '.join(command)}` exited "
                f"{run.returncode}:\n{(run.stdout + run.stderr)[-3000:]}"
            )
    if not CHROMIUM.exists():
        pytest.fail(f"`apt-get install chromium` ran but {CHROMIUM} is still missing")
    return CHROMIUM


class WebServer:
    def __init__(self, proc: subprocess.Popen[bytes], port: int, data: Path, log: Path) -> None:
        self.proc, self.port, self.data, self.log = proc, port, data, log
        self.url = url_for("127.0.0.1", port)

    def output(self) -> str:
        return self.log.read_text(encoding="utf-8", errors="replace")


def start_server(tmp_path: Path, env: dict[str, str] | None = None) -> WebServer:
    port = free_port()
    data = tmp_path / "data"
    log = tmp_path / "server.log"
    command = [sys.executable, "-m", "mac_tui.server.web", "--host", "127.0.0.1"]
    command += ["--port", str(port), "--data", str(data)]
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            command,
            stdout=out,
            stderr=subprocess.STDOUT,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
            env={**os.environ, "COLUMNS": "100", **(env or {})},
        )
    server = WebServer(proc, port, data, log)
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            pytest.fail(f"the web server exited ({proc.returncode}):\n{server.output()}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return server
        except OSError:
            time.sleep(0.1)
    kill_group(proc)
    pytest.fail(f"the web server did not listen on port {port}:\n{server.output()}")


@pytest.fixture
def web_server(tmp_path: Path) -> Iterator[WebServer]:
    server = start_server(tmp_path)
    try:
        yield server
    finally:
        kill_group(server.proc)


# ---- the browser ---------------------------------------------------------------------------
class Browser:
    """Headless Chromium with one page, driven over the DevTools protocol."""

    def __init__(self, binary: Path, profile: Path) -> None:
        self.proc = subprocess.Popen(
            [str(binary), *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "about:blank"],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
        self.profile = profile
        self.http: aiohttp.ClientSession | None = None
        self.ws: aiohttp.ClientWebSocketResponse | None = None
        self.next_id = 0

    async def connect(self) -> None:
        active = self.profile / "DevToolsActivePort"
        deadline = time.monotonic() + WAIT
        while not (active.exists() and active.read_text().strip()):
            assert self.proc.poll() is None, f"Chromium exited ({self.proc.returncode})"
            assert time.monotonic() < deadline, "Chromium did not open its DevTools port"
            await asyncio.sleep(0.1)
        port = int(active.read_text().split()[0])
        self.http = aiohttp.ClientSession()
        async with self.http.get(f"http://127.0.0.1:{port}/json/list") as response:
            targets = await response.json()
        page = next(t for t in targets if t["type"] == "page")
        self.ws = await self.http.ws_connect(page["webSocketDebuggerUrl"], max_msg_size=0)

    async def call(self, method: str, **params: Any) -> dict[str, Any]:
        assert self.ws is not None
        self.next_id += 1
        await self.ws.send_json({"id": self.next_id, "method": method, "params": params})
        async for message in self.ws:
            reply = json.loads(message.data)
            if reply.get("id") == self.next_id:
                assert "error" not in reply, f"{method}: {reply['error']}"
                result: dict[str, Any] = reply["result"]
                return result
        raise AssertionError(f"{method}: the DevTools connection closed")

    async def screen(self) -> dict[str, Any]:
        reply = await self.call("Runtime.evaluate", expression=READ_SCREEN, returnByValue=True)
        value: dict[str, Any] = reply["result"].get("value") or {}
        return value

    async def wait_for(self, text: str) -> list[str]:
        """The terminal's lines once one of them holds `text`."""
        deadline = time.monotonic() + WAIT
        seen: dict[str, Any] = {}
        while time.monotonic() < deadline:
            seen = await self.screen()
            lines: list[str] = seen.get("lines", [])
            if any(text in line for line in lines):
                return lines
            await asyncio.sleep(0.2)
        shown = "\n".join(seen.get("lines", [])) or json.dumps(seen)
        raise AssertionError(f"{text!r} never showed in the page; it showed:\n{shown}")

    async def type_text(self, text: str) -> None:
        await self.call("Input.insertText", text=text)

    async def press_enter(self) -> None:
        key = {"key": "Enter", "code": "Enter", "windowsVirtualKeyCode": 13, "text": "\r"}
        await self.call("Input.dispatchKeyEvent", type="keyDown", **key)
        await self.call("Input.dispatchKeyEvent", type="keyUp", key="Enter", code="Enter")

    async def close(self) -> None:
        if self.ws is not None:
            await self.ws.close()
        if self.http is not None:
            await self.http.close()
        kill_group(self.proc, grace=0)


@pytest.fixture
async def browser(chromium: Path, tmp_path: Path) -> Any:
    b = Browser(chromium, tmp_path / "chromium-profile")
    try:
        await b.connect()
        yield b
    finally:
        await b.close()


def show(lines: list[str]) -> str:
    return "\n".join(line.rstrip() for line in lines).strip("\n")


# ---- the tests -----------------------------------------------------------------------------
async def test_chromium_shows_the_title_screen_and_plays(
    web_server: WebServer, browser: Browser
) -> None:
    await browser.call("Page.enable")
    await browser.call("Page.addScriptToEvaluateOnNewDocument", source=CAPTURE_TERMINAL)
    await browser.call("Page.navigate", url=web_server.url)
    lines = await browser.wait_for("New campaign")
    page = await browser.screen()
    print(f"--- {web_server.url} in headless Chromium ({page['cols']}x{page['rows']}):")
    print(show(lines))  # shown with -s, or when the test fails
    assert page["title"] == TITLE
    assert "-first-byte" in page["body"]  # the page's own sign that the game's bytes arrived
    assert page["cols"] >= 80 and page["rows"] >= 24  # the game's size guard is not in the way
    text = show(lines)
    for entry in ("New campaign", "Continue", "Load a save", "High scores", "Quit"):
        assert entry in text
    assert "Mechanized" in text and "Commander" in text  # the banner

    # typed into the page as a person types: a new company, the offered seed, the hub
    await browser.call("Runtime.evaluate", expression="document.querySelector('textarea').focus()")
    await browser.type_text("n")
    await browser.wait_for("Name your company")
    await browser.type_text("Web Wolves")
    await browser.wait_for("Web Wolves")
    await browser.press_enter()
    await browser.wait_for("Seed")
    await browser.press_enter()
    hub = show(await browser.wait_for("01 Jan 2847"))
    assert "Web Wolves" in hub
    # the browser's game saves in the server's data folder, under web/
    saves_dir = web_server.data / "web" / "saves"
    deadline = time.monotonic() + WAIT
    while not list(saves_dir.glob("web-wolves-*.json")) and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    saves = list(saves_dir.glob("web-wolves-*.json"))
    assert len(saves) == 1, sorted(p.name for p in saves_dir.iterdir())
    header = json.loads(saves[0].read_text(encoding="utf-8"))["header"]
    assert (header["company"], header["day"]) == ("Web Wolves", 1)

    # the server stops on SIGTERM and takes its games with it
    os.kill(web_server.proc.pid, signal.SIGTERM)
    assert web_server.proc.wait(10) == 0
    deadline = time.monotonic() + 10
    while group_members(web_server.proc.pid) and time.monotonic() < deadline:
        await asyncio.sleep(0.1)
    assert group_members(web_server.proc.pid) == []
    assert f"the game is served at {web_server.url}" in web_server.output()


class TurnedAway(AssertionError):
    pass


async def read_until(ws: aiohttp.ClientWebSocketResponse, text: str) -> str:
    """Feed the game's bytes to a terminal emulator until its screen shows `text`."""
    screen = pyte.Screen(100, 30)
    stream = pyte.ByteStream(screen)
    deadline = time.monotonic() + WAIT
    while time.monotonic() < deadline:
        try:
            message = await ws.receive(timeout=1)
        except TimeoutError:
            continue
        if message.type == aiohttp.WSMsgType.BINARY:
            stream.feed(message.data)
            if any(text in line for line in screen.display):
                return "\n".join(screen.display)
        elif message.type != aiohttp.WSMsgType.TEXT:
            raise TurnedAway(f"the websocket closed: {message}")
    raise AssertionError(f"{text!r} never came:\n" + "\n".join(screen.display))


async def test_sessions_past_the_limit_are_turned_away(tmp_path: Path) -> None:
    server = start_server(tmp_path, {"MAC_TUI_WEB_MAX_SESSIONS": "1"})
    ws_url = f"http://127.0.0.1:{server.port}/ws?width=100&height=30"
    try:
        async with aiohttp.ClientSession() as http:
            # the page's links follow the address the browser used
            async with http.get(server.url, headers={"Host": "games.example:8443"}) as page:
                html = await page.text()
            assert f"<title>{TITLE}</title>" in html
            assert 'data-session-websocket-url="ws://games.example:8443/ws"' in html
            assert "http://games.example:8443/static/js/textual.js" in html
            assert "googleapis" not in html  # the font comes from this server
            async with http.get(f"{server.url}static/fonts/RobotoMono-VariableFont_wght.ttf") as f:
                assert f.status == 200
            async with http.ws_connect(ws_url) as first:
                await read_until(first, "New campaign")
                async with http.ws_connect(ws_url) as second:
                    message = await second.receive(timeout=WAIT)
                    assert message.type == aiohttp.WSMsgType.CLOSE
                    assert message.data == aiohttp.WSCloseCode.TRY_AGAIN_LATER
                    assert message.extra == "the server runs 1 games already"
            # once the first game has exited there is room again
            deadline = time.monotonic() + WAIT
            while True:
                async with http.ws_connect(ws_url) as again:
                    try:
                        await read_until(again, "New campaign")
                        break
                    except TurnedAway:
                        assert time.monotonic() < deadline, "no room after the first game left"
                await asyncio.sleep(0.2)
    finally:
        kill_group(server.proc)


def test_a_taken_port_or_a_bad_one_is_refused_with_a_reason(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        for bad, why in ((str(port), f"cannot serve on 127.0.0.1:{port}"), ("0", "--port must")):
            run = subprocess.run(
                [sys.executable, "-m", "mac_tui.server.web", "--port", bad],
                capture_output=True,
                text=True,
                timeout=WAIT,
                start_new_session=True,
            )
            assert run.returncode == 2, run.stdout + run.stderr
            assert why in run.stderr


def test_the_games_environment_points_into_the_data_folder(tmp_path: Path) -> None:
    env = web_environment(tmp_path)
    assert env == {
        "MAC_TUI_SAVES": str(tmp_path / "web" / "saves"),
        "MAC_TUI_CONFIG": str(tmp_path / "web" / "config.toml"),
        "MAC_TUI_SCORES_DIR": str(tmp_path),
    }
    assert game_command().endswith(" -m mac_tui play")
    assert url_for("::1", 8000) == "http://[::1]:8000/"
