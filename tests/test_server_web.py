"""`mac-tui serve web` end to end: the server as a real process, played through a real
websocket client (aiohttp) and, when Debian's Chromium is installed, a real browser.

Each server runs `python -m mac_tui serve web --port 0` with a temporary data folder. A
`Visitor` is one browser: its own cookie jar, the login form, the game's websocket. What a page
shows is read from a `pyte` screen fed with the game's bytes. Chromium (skipped when missing) is
driven over the DevTools protocol: textual-serve draws the terminal on a canvas (xterm.js), so
that test reads xterm's own screen buffer. A script run before the page's own captures the
xterm `Terminal` when textual.js stores it (`this.terminal = new Terminal()` goes through a
setter put on `Object.prototype` for that name alone). Keys are typed into the page as a person
types them (DevTools input events into xterm's text field).

Every process started here is in a process group of its own and the group is killed at the end;
the games (sessions of their own) are found by the pids the server logs.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import re
import signal
import socket
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import aiohttp
import asyncssh
import pyte
import pytest
from yarl import URL

from mac_tui.server.accounts import key_line
from mac_tui.server.games import PlayerLock, clamp_size
from mac_tui.server.loadtest import process_gone
from mac_tui.server.playback import Playback
from mac_tui.server.spectate import read_header
from mac_tui.server.store import open_store
from mac_tui.server.web import TITLE, url_for
from mac_tui.server.webgame import web_game_env

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


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return 0.0


async def until(check: Any, what: str, bound: float = WAIT) -> None:
    """Poll `check()` until it holds (a bounded wait for an event, not a pace)."""
    deadline = time.monotonic() + bound
    while not check():
        assert time.monotonic() < deadline, f"{what}: not within {bound} s"
        await asyncio.sleep(0.05)


class WebServer:
    """`python -m mac_tui serve web --port 0` with a data folder of its own."""

    def __init__(self, root: Path, *args: str, env: dict[str, str] | None = None) -> None:
        self.data = root / "data"
        self.log_path = root / "web-server.log"
        command = [sys.executable, "-m", "mac_tui", "serve", "web", "--host", "127.0.0.1"]
        command += ["--port", "0", "--data", str(self.data), *args]
        with open(self.log_path, "wb") as out:
            self.proc = subprocess.Popen(
                command,
                stdout=out,
                stderr=subprocess.STDOUT,
                stdin=subprocess.DEVNULL,
                start_new_session=True,
                env={**os.environ, **(env or {})},
            )
        deadline = time.monotonic() + WAIT
        while not (found := re.search(r"served at http://127\.0\.0\.1:(\d+)/", self.output())):
            if self.proc.poll() is not None or time.monotonic() > deadline:
                kill_group(self.proc)
                pytest.fail(f"the web server did not start:\n{self.output()}")
            time.sleep(0.05)
        self.port = int(found.group(1))
        self.url = url_for("127.0.0.1", self.port)
        self.ws_url = f"ws://127.0.0.1:{self.port}/ws"

    def output(self) -> str:
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def game_pids(self, player: str) -> list[int]:
        pattern = rf"web: game started: {re.escape(player)} \(pid (\d+)"
        return [int(pid) for pid in re.findall(pattern, self.output())]

    def saves(self, player: str) -> list[Path]:
        return sorted((self.data / "players" / player / "saves").glob("*.json"))

    def stop(self) -> int:
        kill_group(self.proc)
        return self.proc.returncode


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    root = tmp_path_factory.mktemp("web")
    srv = WebServer(root, "--rate-limit", "0", "--max-registrations", "0")
    yield srv
    assert srv.stop() == 0, srv.output()


# ---- a visitor: cookies, the login form, the game's websocket ----------------------------
class Closed(AssertionError):
    """The server closed the game's websocket."""

    def __init__(self, code: int, reason: str) -> None:
        super().__init__(f"the websocket closed ({code}): {reason}")
        self.code, self.reason = code, reason


class Page:
    """The game's websocket, and a terminal emulator fed with what comes through it."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse, cols: int, rows: int) -> None:
        self.ws = ws
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.raw = bytearray()

    def text(self) -> str:
        return "\n".join(self.screen.display)

    async def _receive(self, timeout: float) -> bool:
        """One message: False when none came in `timeout`; raises `Closed` at the end."""
        try:
            message = await self.ws.receive(timeout=timeout)
        except TimeoutError:
            return False
        if message.type == aiohttp.WSMsgType.BINARY:
            self.raw += message.data
            if len(self.screen.display[0]) <= 300:
                self.stream.feed(message.data)
        elif message.type != aiohttp.WSMsgType.TEXT:
            code = message.data if isinstance(message.data, int) else -1
            raise Closed(code, str(message.extra or ""))
        return True

    async def read_until(self, text: str) -> str:
        deadline = time.monotonic() + WAIT
        while text not in self.text():
            if time.monotonic() > deadline:
                raise AssertionError(f"{text!r} never came:\n{self.text()}")
            await self._receive(0.5)
        return self.text()

    async def settle(self, quiet: float = 0.5) -> None:
        """Read until nothing has come for `quiet` seconds."""
        deadline = time.monotonic() + WAIT
        while await self._receive(quiet):
            assert time.monotonic() < deadline, "the page never went quiet"

    async def closed(self) -> Closed:
        deadline = time.monotonic() + WAIT
        try:
            while time.monotonic() < deadline:
                await self._receive(0.5)
        except Closed as closed:
            return closed
        raise AssertionError("the websocket stayed open")

    async def keys(self, text: str) -> None:
        await self.ws.send_json(["stdin", text])

    async def new_campaign(self, company: str) -> None:
        await self.read_until("New campaign")
        await self.keys("n")
        await self.read_until("Name your company")
        await self.keys(company)
        await self.read_until(company)
        await self.keys("\r")
        await self.read_until("Seed")
        await self.keys("\r")
        await self.read_until("01 Jan 2847")


class Visitor:
    """One browser: a cookie jar of its own."""

    def __init__(self, server: WebServer) -> None:
        self.server = server
        self.http = aiohttp.ClientSession(cookie_jar=aiohttp.CookieJar(unsafe=True))
        self.pages: list[Page] = []

    async def login(self, name: str, password: str, **kw: Any) -> tuple[int, str]:
        """Send the login form; the status and page (a 303 to the game on success)."""
        form = {"name": name, "password": password}
        async with self.http.post(
            f"{self.server.url}login", data=kw.pop("data", form), allow_redirects=False, **kw
        ) as response:
            return response.status, await response.text()

    async def play(self, cols: int = 100, rows: int = 30, **kw: Any) -> Page:
        url = f"{self.server.ws_url}?width={cols}&height={rows}"
        ws = await self.http.ws_connect(url, **kw)
        page = Page(ws, *clamp_size(cols, rows))
        self.pages.append(page)
        return page

    async def close(self) -> None:
        for page in self.pages:
            await page.ws.close()
        await self.http.close()


@pytest.fixture
async def visitors(server: WebServer) -> AsyncIterator[Any]:
    made: list[Visitor] = []

    def visitor(srv: WebServer | None = None) -> Visitor:
        made.append(Visitor(srv or server))
        return made[-1]

    yield visitor
    for v in made:
        await v.close()


async def logged_in(visitor: Visitor, name: str, password: str = "correct horse") -> Visitor:
    status, page = await visitor.login(name, password)
    assert status == 303, page
    return visitor


# ---- who plays: names, passwords, cookies (item 7) ---------------------------------------
async def test_each_visitor_plays_their_own_campaign(server: WebServer, visitors: Any) -> None:
    ann = await logged_in(visitors(), "ann")
    async with ann.http.get(server.url) as response:
        assert "starting ann's game" in await response.text()  # the game page, not the form
    first = await ann.play()
    await first.new_campaign("Ann Lancers")
    await until(lambda: server.saves("ann"), "ann's save")

    bob = await logged_in(visitors(), "bob")  # another browser, another player
    theirs = await bob.play()
    await theirs.read_until("New campaign")
    await theirs.keys("c")  # Continue: bob has no campaign, and never opens ann's
    await theirs.settle()
    await theirs.keys("l")
    await theirs.read_until("No saves yet")
    assert "Ann Lancers" not in theirs.text()
    assert server.saves("bob") == []
    assert [read_header(p)["company"] for p in server.saves("ann")] == ["Ann Lancers"]

    intruder = visitors()
    status, page = await intruder.login("ann", "wrong horse")
    assert status == 403 and "Wrong password for &#39;ann&#39;" in page

    again = await logged_in(visitors(), "ann")  # ann from a second browser: one game each
    second = await again.play()
    closed = await first.closed()
    assert "You opened the game in another page" in closed.reason
    await second.read_until("New campaign")
    await second.keys("c")
    await second.read_until("Ann Lancers")
    assert len(server.game_pids("ann")) == 2


async def test_no_game_without_a_valid_login(server: WebServer, visitors: Any) -> None:
    stranger = visitors()
    page = await stranger.play()
    assert "Log in first" in (await page.closed()).reason
    async with stranger.http.get(server.url) as response:
        assert 'action="http://127.0.0.1' in await response.text()  # the login form

    carl = await logged_in(visitors(), "carl")
    (cookie,) = [c for c in carl.http.cookie_jar if c.key == "mac_tui_session"]
    version, name, expires, mac = cookie.value.split(".")
    assert (version, name) == ("v1", "carl")
    forger = visitors()
    await logged_in(forger, "dina")
    for forged in (f"v1.dina.{expires}.{mac}", f"v1.carl.{int(expires) + 1}.{mac}", "v1.carl"):
        forger.http.cookie_jar.clear()
        forger.http.cookie_jar.update_cookies(
            {"mac_tui_session": forged}, response_url=URL(server.url)
        )
        page = await forger.play()
        assert "Log in first" in (await page.closed()).reason, forged

    elsewhere = {"Origin": "http://evil.example"}  # another site's page
    page = await carl.play(headers=elsewhere)
    assert "not the game's own" in (await page.closed()).reason
    status, _ = await visitors().login("erin", "correct horse", headers=elsewhere)
    assert status == 403
    assert not (server.data / "players" / "erin").exists()
    assert server.game_pids("carl") == [] and server.game_pids("dina") == []


@pytest.mark.parametrize(
    ("name", "password", "status", "why"),
    [
        ("x" * 33, "correct horse", 400, "is not a player name"),
        ("a b", "correct horse", 400, "is not a player name"),
        ("watch", "correct horse", 400, "is reserved"),
        ("fred", "p" * 257, 400, "at most 256 characters"),
        ("fred", "short", 400, "8 or more characters"),
        ("keyed", "correct horse", 403, "registered to an SSH key"),
        ("ANN", "correct horse", 403, "too like the player"),
    ],
)
async def test_bad_logins_are_refused_with_a_reason(
    server: WebServer, visitors: Any, name: str, password: str, status: int, why: str
) -> None:
    with open_store(None, server.data) as store:  # the server's store, shared with SSH
        if name == "keyed":  # a name an SSH key registered: played over SSH
            key = asyncssh.generate_private_key("ssh-ed25519")
            store.register("keyed", key=(key.public_data, key_line(key, "keyed")))
        if name == "ANN":
            await logged_in(visitors(), "ann")
        got, page = await visitors().login(name, password)
        assert (got, why) == (status, why if why in page.replace("&#39;", "'") else page)
        account = store.account(name)
        assert account is None or account.password is None


async def test_the_form_and_the_messages_are_bounded(server: WebServer, visitors: Any) -> None:
    big = visitors()
    status, _ = await big.login("", "", data={"name": "gil", "password": "p" * 5000})
    assert status == 413  # the form is at most 4 KiB
    gil = await logged_in(visitors(), "gil")
    page = await gil.play()
    await page.read_until("New campaign")
    for junk in (
        "not json",
        "[" * 60000,  # nested deeper than the parser goes
        json.dumps({"stdin": "x"}),
        json.dumps(["stdin", 5]),
        json.dumps(["resize", {"width": "wide", "height": True}]),
        json.dumps(["resize", {"width": 10**400, "height": 1}]),
        json.dumps(["ping", "p" * 1000]),
        json.dumps(["whatever", 1, 2, 3]),
    ):
        await page.ws.send_str(junk)
    await page.ws.send_json(["resize", {"width": 100, "height": 30}])  # (1000x1 was a size)
    await page.keys("n")  # the game took none of the rest and plays on
    await page.read_until("Name your company")
    (pid,) = server.game_pids("gil")
    await page.ws.send_str("x" * (65 * 1024))  # past the 64 KiB a message may hold
    assert (await page.closed()).code == aiohttp.WSCloseCode.MESSAGE_TOO_BIG
    await until(lambda: process_gone(pid), "the game of a closed page ending")


# ---- the game's size and life (items 6 and 12) -----------------------------------------------
async def test_a_huge_page_is_clamped_like_ssh(server: WebServer, visitors: Any) -> None:
    hal = await logged_in(visitors(), "hal")
    page = await hal.play(20000, 20000, max_msg_size=0)  # a browser takes a frame of any size
    await until(lambda: server.game_pids("hal"), "hal's game")
    (pid,) = server.game_pids("hal")
    assert f"web: game started: hal (pid {pid}, 1000x500)" in server.output()
    await page.ws.send_json(["resize", {"width": 20000, "height": 20000}])
    await page.ws.send_json(["resize", {"width": 40000, "height": 3}])
    await page.ws.send_json(["resize", {"width": 20000, "height": 20000}])
    while b"New campaign" not in page.raw:
        assert await page._receive(WAIT), "the title screen never came"
    await page.settle()
    rows = [int(m) for m in re.findall(rb"\x1b\[(\d+);\d+H", bytes(page.raw))]
    assert rows and max(rows) == 500  # drawn on 500 rows: no more
    assert rss_mb(pid) < 400, f"{rss_mb(pid):.0f} MB"  # 20000x20000 once took 2.1 GB
    await page.ws.close()
    await until(lambda: process_gone(pid), "the game of a closed page ending")


async def test_a_closed_page_saves_and_ends_its_game(server: WebServer, visitors: Any) -> None:
    await until(lambda: "zygote is ready" in server.output(), "the warm start's zygote")
    zygote = int(re.findall(r"zygote is ready \(pid (\d+)\)", server.output())[-1])
    ida = await logged_in(visitors(), "ida")
    page = await ida.play()
    await page.new_campaign("Ida Guard")
    await page.keys("d")  # a day passes
    await page.read_until("Day report")
    (pid,) = server.game_pids("ida")
    stat = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    assert int(stat[1]) == zygote and int(stat[3]) == pid  # forked warm, a session of its own
    await page.ws.close()
    await until(lambda: process_gone(pid), "the game of a closed page ending", 15)
    (save,) = server.saves("ida")
    assert read_header(save)["date"] == "02 Jan 2847"
    # the server logs the end once it has read the game's last output (after the exit)
    await until(lambda: "web: game ended: ida" in server.output(), "the game's end logged", 15)
    assert "web: game ended: ida (disconnect, exit status 0" in server.output()
    # Its recording: the web game's screen as the page got it, played back to the end.
    folder = server.data / "players" / "ida" / "recordings"
    await until(lambda: list(folder.glob("*-web_*s.cast.gz")), "ida's recording, finished")
    (recording,) = folder.glob("*.cast.gz")
    playback = Playback.open(recording, time.monotonic)
    while not playback.finished:
        playback.advance(to_end=True)
    assert playback.screen.size == (page.screen.columns, page.screen.lines)
    assert "Day report" in "\n".join(playback.screen.text())


async def test_stopping_the_server_saves_and_ends_every_game(tmp_path: Path, visitors: Any) -> None:
    srv = WebServer(tmp_path)
    try:
        jan = await logged_in(visitors(srv), "jan")
        page = await jan.play()
        await page.new_campaign("Jan Hussars")
        await page.keys("d")
        await page.read_until("Day report")
        (pid,) = srv.game_pids("jan")
        started = time.monotonic()
        srv.proc.send_signal(signal.SIGTERM)
        closed = await page.closed()
        assert "shutting down: your game is saved" in closed.reason
        assert srv.proc.wait(WAIT) == 0
        assert time.monotonic() - started < 15  # not the ~40 s it once took
        assert process_gone(pid)
    finally:
        srv.stop()
    (save,) = srv.saves("jan")
    assert read_header(save)["date"] == "02 Jan 2847"
    assert "web: game ended: jan (shutdown, exit status 0" in srv.output()


async def test_a_game_whose_server_is_killed_saves_and_ends(tmp_path: Path, visitors: Any) -> None:
    """Item 12 under the web server: the game's pipes close; it must not live on."""
    srv = WebServer(tmp_path)
    try:
        kai = await logged_in(visitors(srv), "kai")
        page = await kai.play()
        await page.new_campaign("Kai Rangers")
        await page.keys("d")
        await page.read_until("Day report")
        (pid,) = srv.game_pids("kai")
        srv.proc.kill()  # SIGKILL to the server alone: the game is in a session of its own
        srv.proc.wait(WAIT)
        await until(lambda: process_gone(pid), f"game {pid} ending after its server", 10)
    finally:
        srv.stop()
    (save,) = srv.saves("kai")
    assert read_header(save)["date"] == "02 Jan 2847"


async def test_an_idle_page_is_saved_and_closed(tmp_path: Path, visitors: Any) -> None:
    # 5 s: a game that starts slowly on a busy machine must still draw its title in time
    srv = WebServer(tmp_path, "--idle-timeout", "5")
    try:
        max_ = await logged_in(visitors(srv), "max")
        page = await max_.play()
        await page.read_until("New campaign")
        (pid,) = srv.game_pids("max")
        closed = await page.closed()  # no key for 5 s
        assert "No key for 5 s: your game is saved" in closed.reason
        await until(lambda: process_gone(pid), "the idle game ending")
    finally:
        assert srv.stop() == 0
    assert "web: game ended: max (idle, exit status 0" in srv.output()


async def test_one_game_per_player_across_servers(server: WebServer, visitors: Any) -> None:
    """While another process (here: this test, as the SSH server would) holds a player's
    game lock, the web page plays nothing for that player."""
    lea = await logged_in(visitors(), "lea")
    folder = server.data / "players" / "lea"
    lock = PlayerLock.take(folder / "game.lock")
    assert lock is not None
    try:
        page = await lea.play()
        assert "open on another server" in (await page.closed()).reason
        assert server.game_pids("lea") == []
    finally:
        lock.release()
    page = await lea.play()
    await page.read_until("New campaign")


# ---- limits ------------------------------------------------------------------------------
async def test_limits_on_games_logins_and_registrations(tmp_path: Path, visitors: Any) -> None:
    srv = WebServer(
        tmp_path,
        "--rate-limit",
        "6",
        "--max-registrations",
        "2",
        env={"MAC_TUI_WEB_MAX_SESSIONS": "1"},
    )
    try:
        async with aiohttp.ClientSession() as http:
            # the page's links follow the address the browser used
            async with http.get(srv.url, headers={"Host": "games.example:8443"}) as response:
                html = await response.text()
                assert response.headers["X-Frame-Options"] == "DENY"
            assert f"<title>{TITLE}</title>" in html
            assert 'action="http://games.example:8443/login"' in html
            async with http.get(f"{srv.url}static/fonts/RobotoMono-VariableFont_wght.ttf") as f:
                assert f.status == 200
        mia = await logged_in(visitors(srv), "mia")
        ned = await logged_in(visitors(srv), "ned")
        status, page = await visitors(srv).login("ola", "correct horse")
        assert status == 429 and "has registered 2 new names today (the limit)" in page
        first = await mia.play()
        await first.read_until("New campaign")
        second = await ned.play()  # one game at a time on this server
        assert "runs 1 game already" in (await second.closed()).reason
        await first.ws.close()
        await until(lambda: "web: game ended: mia" in srv.output(), "mia's game ending")
        third = await ned.play()  # room again
        await third.read_until("New campaign")
        for _ in range(3):  # 3 logins so far, 3 more in the minute, then no more
            await visitors(srv).login("mia", "wrong horse")
        status, page = await visitors(srv).login("mia", "correct horse")
        assert status == 429 and "Too many logins from 127.0.0.1" in page
    finally:
        assert srv.stop() == 0


def test_a_taken_port_or_a_bad_one_is_refused_with_a_reason(tmp_path: Path) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        for bad, why in ((str(port), f"cannot serve on 127.0.0.1:{port}"), ("70000", "--port")):
            run = subprocess.run(
                [
                    sys.executable,
                    "-m",
                    "mac_tui",
                    "serve",
                    "web",
                    "--port",
                    bad,
                    "--data",
                    str(tmp_path),
                ],
                capture_output=True,
                text=True,
                timeout=WAIT,
                start_new_session=True,
            )
            assert run.returncode == 2, run.stdout + run.stderr
            assert why in run.stderr


def test_the_games_environment() -> None:
    env = web_game_env({"MAC_TUI_SAVES": "/data/players/ann/saves"}, 120, 40)
    assert env["TEXTUAL_DRIVER"] == "textual.drivers.web_driver:WebDriver"
    assert (env["COLUMNS"], env["ROWS"]) == ("120", "40")
    assert env["MAC_TUI_SAVES"] == "/data/players/ann/saves"
    assert url_for("::1", 8000) == "http://[::1]:8000/"


# ---- a real browser ----------------------------------------------------------------------
@pytest.fixture
def chromium() -> Path:
    if not CHROMIUM.exists():
        pytest.skip(f"{CHROMIUM} is not installed (Debian: apt-get install chromium)")
    return CHROMIUM


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


async def test_chromium_logs_in_and_plays(server: WebServer, browser: Browser) -> None:
    await browser.call("Page.enable")
    await browser.call("Page.addScriptToEvaluateOnNewDocument", source=CAPTURE_TERMINAL)
    await browser.call("Page.navigate", url=server.url)
    fill = (
        "document.querySelector('input[name=name]').value = 'web-wolf';"
        "document.querySelector('input[name=password]').value = 'correct horse';"
        "document.querySelector('form').submit();"
    )
    deadline = time.monotonic() + WAIT
    while not (await browser.call("Runtime.evaluate", expression="!!document.forms.length"))[
        "result"
    ].get("value"):
        assert time.monotonic() < deadline, "the login page never came"
        await asyncio.sleep(0.1)
    await browser.call("Runtime.evaluate", expression=fill)
    lines = await browser.wait_for("New campaign")
    page = await browser.screen()
    print(f"--- {server.url} in headless Chromium ({page['cols']}x{page['rows']}):")
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
    await until(lambda: server.saves("web-wolf"), "the browser player's save")
    (save,) = server.saves("web-wolf")  # in the player's own folder
    header = read_header(save)
    assert (header["company"], header["day"]) == ("Web Wolves", 1)
