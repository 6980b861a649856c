"""`mac-tui serve web`: the game in the browser, one game per page, each player their own.

Who plays (`webauth`): a visitor logs in on the first page with a player name and a password;
the first use of a free name registers it. Web players are the server's players, in
`DATA/players/<name>` like the SSH server's, with their own saves, settings and high scores; a
signed cookie keeps them logged in. Their game is the ordinary `python -m mac_tui play` with
Textual's web driver (`webgame.WebGame`), in a session of its own, with `MAC_TUI_SAVES`,
`MAC_TUI_CONFIG` and `HOME` in the player's folder. The page is textual-serve's terminal
(xterm.js and its `textual.js`, served from here with the page's own fonts).

One game per player: a second page of the same player hangs up the first game (it saves) and
closes that page, saying why, then starts the game anew (`c` continues it). The same holds
across the SSH server on the same data folder (`games.PlayerLock`): while a player's game runs
there, the web page says so and plays nothing. A page whose websocket closes hangs up its game
(it saves), and so does `--idle-timeout` seconds with no key and the server stopping.

Everything a page sends is bounded: the login form (4 KiB), a websocket message (64 KiB, which
must be a small JSON array or is ignored), the terminal's size (clamped like SSH's). At most
`--max-sessions` games at once, `--rate-limit` websocket connections and logins per address
per minute and `--max-registrations` new names per address per day.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import signal
import sys
import time
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import jinja2
from aiohttp import WSCloseCode, WSMsgType, web
from attrs import frozen

from . import LOG, default_data_dir, duration_text, plural, setup_logging
from .accounts import Accounts, DataDir, StoredRegistrations, shown
from .games import DEFAULT_TERM, ELSEWHERE, EndReason, PlayerLock, Registry, clamp_size, game_env
from .leases import Lease, Leases
from .limits import RateLimiter, SessionCount, client_key
from .recordings import Recorder, RecordingOptions, Recordings
from .store import Store, open_store, store_url
from .webauth import COOKIE, MAX_FORM, SESSION_SECONDS, Logins, Sessions, load_secret
from .webgame import WebGame
from .webpages import GAME_PAGE, LOGIN_PAGE, TITLE
from .zygote import SUPPORTED, Zygote

MAX_SESSIONS_ENV = "MAC_TUI_WEB_MAX_SESSIONS"  # the default of --max-sessions, when set
DEFAULT_MAX_SESSIONS = 32
MAX_MESSAGE = 64 * 1024  # bytes of one websocket message from a page
NO_START = "The game could not start: try again later."
HEARTBEAT = 15.0  # seconds between websocket pings: a vanished browser is noticed in ~30 s
GOODBYES: dict[EndReason, str] = {  # a websocket close reason: at most 123 bytes
    "quit": "The game has ended. It is saved: Continue resumes it.",
    "disconnect": "",
    "idle": "No key for {idle}: your game is saved. Goodbye!",
    "takeover": "You opened the game in another page: it goes on there (saved).",
    "shutdown": "The server is shutting down: your game is saved. See you soon!",
    "lease": "This server lost touch with its database: your game is saved. Reload in a minute.",
}


async def close_page(ws: web.WebSocketResponse, code: int, text: str) -> None:
    """Close a page's websocket saying why (a close reason holds at most 123 bytes)."""
    reason = text.encode()[:123].decode("utf-8", "ignore").encode()
    with contextlib.suppress(ConnectionError, RuntimeError):
        await ws.close(code=code, message=reason)


def url_for(host: str, port: int) -> str:
    shown_host = f"[{host}]" if ":" in host and not host.startswith("[") else host
    return f"http://{shown_host}:{port}/"


def default_max_sessions() -> int:
    """`$MAC_TUI_WEB_MAX_SESSIONS` when it is a positive number, else 32."""
    try:
        value = int(os.environ.get(MAX_SESSIONS_ENV, ""))
    except ValueError:
        return DEFAULT_MAX_SESSIONS
    return value if value > 0 else DEFAULT_MAX_SESSIONS


def to_int(text: str | None, default: int) -> int:
    """A number from a query string (at most 6 digits), else `default`."""
    if text is None or not text.isdigit() or len(text) > 6:
        return default
    return int(text)


def static_folder() -> Path:
    """textual-serve's static files: xterm's CSS, `textual.js`, the fonts."""
    import textual_serve

    return Path(textual_serve.__file__).parent / "static"


@frozen
class WebOptions:
    host: str = "127.0.0.1"
    port: int = 8000
    data: Path | None = None
    idle_timeout: float = 1800.0
    max_sessions: int = DEFAULT_MAX_SESSIONS  # games at once
    rate_limit: int = 20  # websocket connections, and logins, per address per minute
    max_registrations: int = 10  # new names per address per day
    behind_proxy: bool = False  # the client's address is X-Forwarded-For's last one
    takeover_grace: float = 10.0  # seconds a hung-up game has to save before SIGTERM
    warm_start: bool = True  # fork games from a warm zygote (see zygote.py)
    recordings: RecordingOptions = RecordingOptions()
    db: str | None = None  # the store: None is DATA/store.db (SQLite); or postgresql://...
    log: Path | None = None  # the log file: None is DATA/server.log


class WebServer:
    """The aiohttp application and everything its pages share (one event loop)."""

    def __init__(
        self, options: WebOptions, data: DataDir, secret: bytes, store: Store | None = None
    ) -> None:
        self.options = options
        self.data = data
        self.store = store or open_store(options.db, data.root)
        self.store_url = store_url(options.db, data.root)
        self.accounts = Accounts(data, self.store)
        self.leases = Leases(self.store, "web")
        self.sessions = Sessions(secret, self.accounts)
        self.registrations = StoredRegistrations(self.store, options.max_registrations)
        self.logins = Logins(self.accounts, options.rate_limit, self.registrations)
        self.connections = RateLimiter(options.rate_limit)
        self.registry: Registry[WebGame] = Registry()
        self.count = SessionCount(options.max_sessions)
        self.pages: dict[WebGame, web.WebSocketResponse] = {}
        self.tasks: set[asyncio.Task[Any]] = set()
        self.stopping = False
        self.zygote: Zygote | None = None
        self.recordings = Recordings(options.recordings, data.players, LOG.info)
        env = jinja2.Environment(autoescape=True)
        self.login_page = env.from_string(LOGIN_PAGE)
        self.game_page = env.from_string(GAME_PAGE)

    def app(self) -> web.Application:
        app = web.Application(client_max_size=MAX_FORM, middlewares=[self.headers])
        app.add_routes(
            [
                web.get("/", self.index),
                web.post("/login", self.login),
                web.post("/logout", self.logout),
                web.get("/ws", self.websocket),
                web.static("/static", static_folder()),
            ]
        )
        return app

    def spawn(self, coro: Any) -> None:
        task = asyncio.ensure_future(coro)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    # ---- who is asking --------------------------------------------------------------------
    def peer(self, request: web.Request) -> str:
        if self.options.behind_proxy:
            forwarded = request.headers.get("X-Forwarded-For", "")
            last = forwarded.rsplit(",", 1)[-1].strip()
            if last:
                return shown(last, 64)
        return request.remote or "?"

    def player(self, request: web.Request) -> str | None:
        return self.sessions.player(request.cookies.get(COOKIE))

    @staticmethod
    def origin(request: web.Request) -> str:
        """The address the browser used (a proxy may say https)."""
        proto = request.headers.get("X-Forwarded-Proto", request.scheme).split(",")[0].strip()
        return f"{'https' if proto == 'https' else 'http'}://{request.host}"

    @staticmethod
    def same_origin(request: web.Request) -> bool:
        """A browser's request from this server's own page (or not from a browser at all):
        another site's page cannot log visitors in or out, nor open their games."""
        origin = request.headers.get("Origin")
        if origin is None:
            return True
        hosts = {request.host.lower()}
        forwarded = request.headers.get("X-Forwarded-Host")
        if forwarded:
            hosts.add(forwarded.split(",")[0].strip().lower())
        return urlsplit(origin).netloc.lower() in hosts

    @web.middleware
    async def headers(self, request: web.Request, handler: Any) -> web.StreamResponse:
        response: web.StreamResponse = await handler(request)
        if not response.prepared:
            response.headers.setdefault("X-Frame-Options", "DENY")
            response.headers.setdefault("X-Content-Type-Options", "nosniff")
            response.headers.setdefault(
                "Referrer-Policy", "same-origin"
            )  # no-referrer: Origin null
            if response.content_type == "text/html":
                response.headers.setdefault("Cache-Control", "no-store")
        return response

    # ---- pages ----------------------------------------------------------------------------
    def page_for_login(
        self, request: web.Request, problem: str = "", name: str = "", status: int = 200
    ) -> web.Response:
        text = self.login_page.render(
            title=TITLE, origin=self.origin(request), problem=problem, name=name[:32]
        )
        return web.Response(text=text, content_type="text/html", status=status)

    async def index(self, request: web.Request) -> web.Response:
        player = self.player(request)
        if player is None:
            return self.page_for_login(request)
        origin = self.origin(request)
        text = self.game_page.render(
            title=TITLE,
            player=player,
            origin=origin,
            static=f"{origin}/static/",
            websocket=origin.replace("http", "ws", 1) + "/ws",
            font_size=min(max(to_int(request.query.get("fontsize"), 16), 6), 64),
        )
        return web.Response(text=text, content_type="text/html")

    async def login(self, request: web.Request) -> web.Response:
        if not self.same_origin(request):
            return web.Response(text="mac-tui: not from this server's page", status=403)
        form = await request.post()  # over MAX_FORM bytes: 413, from aiohttp
        name, password = form.get("name"), form.get("password")
        if not isinstance(name, str) or not isinstance(password, str):
            return self.page_for_login(request, "Give a player name and a password.", "", 400)
        peer = self.peer(request)
        result = await self.logins.login(name, password, peer)
        if result.player is None:
            LOG.warning("web: refused %s from %s: %s", shown(name), peer, result.problem)
            return self.page_for_login(request, result.problem, name, result.status)
        if result.registered:
            LOG.info("web: registered: new player %s from %s with a password", name, peer)
        LOG.info("web: login: %s from %s", name, peer)
        token = self.sessions.issue(result.player)
        response = web.HTTPSeeOther(location=f"{self.origin(request)}/")
        response.set_cookie(
            COOKIE,
            token or "",
            max_age=SESSION_SECONDS,
            path="/",
            httponly=True,
            samesite="Lax",
            secure=self.origin(request).startswith("https:"),
        )
        raise response

    async def logout(self, request: web.Request) -> web.Response:
        if not self.same_origin(request):
            return web.Response(text="mac-tui: not from this server's page", status=403)
        response = web.HTTPSeeOther(location=f"{self.origin(request)}/")
        response.del_cookie(COOKIE, path="/")
        raise response

    # ---- the game's websocket -------------------------------------------------------------
    def refusal(self, request: web.Request, player: str | None, peer: str) -> str | None:
        """Why this page gets no game, or None."""
        if not self.same_origin(request):
            return "This page is not the game's own."
        if player is None:
            return "Log in first: reload the page."
        if self.stopping:
            return "The server is shutting down: try again in a minute."
        if not self.connections.allow(client_key(peer)):
            wait = int(self.connections.retry_after(client_key(peer))) + 1
            return f"Too many games from {peer}: try again in {wait} s."
        if self.count.full() and player not in self.registry.games:
            return f"The server runs {plural(self.count.limit, 'game')} already: try again later."
        return None

    async def websocket(self, request: web.Request) -> web.WebSocketResponse:
        peer = self.peer(request)
        player = self.player(request)
        ws = web.WebSocketResponse(heartbeat=HEARTBEAT, max_msg_size=MAX_MESSAGE)
        refusal = self.refusal(request, player, peer)
        await ws.prepare(request)
        if refusal is not None or player is None:
            LOG.warning("web: refused a game to %s (%s): %s", player or "-", peer, refusal)
            await close_page(ws, WSCloseCode.TRY_AGAIN_LATER, str(refusal))
            return ws
        game = await self.start_game(request, ws, player, peer)
        if game is None:
            return ws
        try:
            async for message in ws:
                if message.type == WSMsgType.TEXT and not game.finished.done():
                    await self.handle(message.data, game, ws)
        finally:
            if not game.finished.done():
                LOG.info("web: disconnect: %s from %s; hanging up the game", player, peer)
                await game.stop("disconnect")
        return ws

    async def start_game(
        self, request: web.Request, ws: web.WebSocketResponse, player: str, peer: str
    ) -> WebGame | None:
        async with self.registry.lock(player):
            old = self.registry.games.get(player)
            if old is not None and not old.finished.done():
                LOG.info(
                    "web: takeover: %s from %s replaces the page from %s", player, peer, old.peer
                )
                await old.stop("takeover", self.options.takeover_grace)
            if ws.closed or self.stopping:
                return None
            try:
                files = self.accounts.prepare(player)
                lease = self.leases.take(player)
            except Exception as exc:  # OSError, the store's StoreError or the database's own
                LOG.error("web: game for %s could not start: %s", player, exc)
                await close_page(ws, WSCloseCode.INTERNAL_ERROR, NO_START)
                return None
            if isinstance(lease, str):
                LOG.info("web: refused %s from %s: the game runs on another node", player, peer)
                await close_page(ws, WSCloseCode.TRY_AGAIN_LATER, lease)
                return None
            try:
                lock = PlayerLock.take(files.lock)
            except OSError as exc:
                self.leases.release(lease)
                LOG.error("web: game for %s could not start: %s", player, exc)
                await close_page(ws, WSCloseCode.INTERNAL_ERROR, NO_START)
                return None
            if lock is None:
                self.leases.release(lease)
                LOG.info(
                    "web: refused %s from %s: the game is open on another server", player, peer
                )
                await close_page(ws, WSCloseCode.TRY_AGAIN_LATER, ELSEWHERE.format(name=player))
                return None
            env = game_env(
                home=files.root,
                saves=files.saves,
                config=files.config,
                scores=self.data.root,
                term=None,
                store=self.store_url,
                player=player,
            )
            cols, rows = clamp_size(
                to_int(request.query.get("width"), 80), to_int(request.query.get("height"), 24)
            )
            recorder = self.recordings.start(player, files.root, "web", cols, rows, DEFAULT_TERM)
            try:
                game = await WebGame.start(
                    player,
                    peer,
                    env,
                    files.root,
                    cols,
                    rows,
                    ws.send_bytes,
                    lock,
                    zygote=self.zygote,
                    recorder=recorder,
                )
            except OSError as exc:
                lock.release()
                self.leases.release(lease)
                self.recordings.finish(player, files.root, recorder)
                LOG.error("web: game for %s could not start: %s", player, exc)
                await close_page(ws, WSCloseCode.INTERNAL_ERROR, NO_START)
                return None
            self.registry.add(game)
            self.pages[game] = ws
            self.count.enter()
            game.finished.add_done_callback(lambda _: self.ended(game, lease, files.root, recorder))
        LOG.info("web: game started: %s (pid %d, %dx%d)", player, game.pid, *game.size)
        if self.stopping:  # the server began to stop while this game started
            self.spawn(game.stop("shutdown"))
        return game

    async def handle(self, data: str, game: WebGame, ws: web.WebSocketResponse) -> None:
        """One message from the page: `["stdin", text]`, `["resize", {"width": W, "height":
        H}]`, `["ping", text]`, `["focus"]` or `["blur"]`; anything else is ignored."""
        try:
            envelope = json.loads(data)
        except (ValueError, RecursionError):
            return
        if not isinstance(envelope, list) or not envelope or not isinstance(envelope[0], str):
            return
        kind, args = envelope[0], envelope[1:]
        if kind == "stdin" and len(args) == 1 and isinstance(args[0], str):
            await game.keys(args[0])
        elif kind == "resize" and len(args) == 1 and isinstance(args[0], dict):
            width, height = args[0].get("width"), args[0].get("height")
            if type(width) is int and type(height) is int:
                await game.resize(width, height)
        elif kind == "ping" and len(args) == 1 and isinstance(args[0], str) and len(args[0]) <= 64:
            with contextlib.suppress(ConnectionError, RuntimeError):
                await ws.send_json(["pong", args[0]])
        elif kind in ("focus", "blur") and not args:
            await game.focus(kind == "focus")

    def ended(self, game: WebGame, lease: Lease, root: Path, recorder: Recorder | None) -> None:
        self.registry.remove(game)
        self.leases.release(lease)
        self.recordings.finish(game.player, root, recorder)
        self.count.leave()
        ws = self.pages.pop(game, None)
        reason = game.end_reason or "quit"
        status = game.finished.result()
        LOG.info(
            "web: game ended: %s (%s, exit status %s, %s played)",
            game.player,
            reason,
            status,
            duration_text(round(time.time() - game.started)),
        )
        if status not in (0, -signal.SIGHUP) and game.stderr:
            tail = game.stderr.decode("utf-8", "replace").strip().splitlines()[-3:]
            LOG.warning("web: %s's game said: %s", game.player, " | ".join(tail))
        if ws is not None and not ws.closed:
            goodbye = GOODBYES[reason].format(idle=duration_text(self.options.idle_timeout))
            code = WSCloseCode.GOING_AWAY if reason == "shutdown" else WSCloseCode.OK
            self.spawn(close_page(ws, code, goodbye))

    # ---- idle games, stopping -------------------------------------------------------------
    async def idle_watch(self) -> None:
        limit = self.options.idle_timeout
        while True:
            await asyncio.sleep(max(0.2, min(5.0, limit / 4)))
            for game in self.registry.live():
                if game.idle > limit and game.end_reason is None:
                    LOG.info(
                        "web: idle: %s (no key for %s); hanging up",
                        game.player,
                        duration_text(limit),
                    )
                    self.spawn(game.stop("idle"))

    def leases_lost(self, players: set[str]) -> None:
        """Hang up (saving) the games whose lease is gone or going (`Leases.keep`)."""
        for game in self.registry.live():
            if game.player in players and game.end_reason is None:
                LOG.error("web: lease lost: %s's game is hung up (saved)", game.player)
                self.spawn(game.stop("lease"))

    async def stop_games(self) -> None:
        """Hang up every game (each saves) and let their pages know."""
        self.stopping = True
        games = self.registry.live()
        LOG.info("web: shutting down: hanging up %d game(s)", len(games))
        await asyncio.gather(*(g.stop("shutdown") for g in games), return_exceptions=True)
        if self.tasks:  # the goodbyes
            await asyncio.wait(set(self.tasks), timeout=5)


async def run_web(options: WebOptions) -> int:
    """Serve until SIGINT/SIGTERM (or cancelled); on the way out hang up every game."""
    data = DataDir((options.data or default_data_dir()).expanduser().resolve())
    try:
        data.make()
        setup_logging(options.log or data.log)
        secret = load_secret(data.root / "web" / "secret")
    except (OSError, ValueError) as exc:
        print(f"mac-tui serve web: cannot use the data folder {data.root}: {exc}", file=sys.stderr)
        return 2
    from .ssh import index_saves, start_store

    store = start_store(options.db, data, "serve web")
    if store is None:
        return 2
    server = WebServer(options, data, secret, store)
    if options.warm_start and SUPPORTED:
        server.zygote = Zygote(LOG.info)
        await server.zygote.start()
    runner = web.AppRunner(
        server.app(), handle_signals=False, access_log=None, shutdown_timeout=5.0
    )
    await runner.setup()
    site = web.TCPSite(runner, options.host, options.port)
    try:
        await site.start()
    except OSError as exc:  # the address is taken, or not this machine's
        await runner.cleanup()
        if server.zygote is not None:
            await server.zygote.close()
        store.close()
        print(
            f"mac-tui serve web: cannot serve on {options.host}:{options.port}: "
            f"{exc.strerror or exc}",
            file=sys.stderr,
        )
        return 2
    port = options.port
    for address in runner.addresses:
        if isinstance(address, tuple) and len(address) >= 2:
            port = int(address[1])
            break
    LOG.info(
        "web: listening on %s:%d (data %s, idle timeout %s, max games %d, %d connections/min "
        "and %d new names/day per address%s, store %s)",
        options.host,
        port,
        data.root,
        duration_text(options.idle_timeout),
        options.max_sessions,
        options.rate_limit,
        options.max_registrations,
        ", behind a proxy" if options.behind_proxy else "",
        store.where,
    )
    print(f"mac-tui: the game is served at {url_for(options.host, port)}", flush=True)
    if options.host in ("0.0.0.0", "::", ""):
        print(f"  (every address of this machine: {url_for('127.0.0.1', port)} here)", flush=True)
    print("Press Ctrl+C to stop.", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(sig, stop.set)
    idle = asyncio.ensure_future(server.idle_watch())
    sweep = asyncio.ensure_future(server.recordings.sweep())
    leases = asyncio.ensure_future(server.leases.keep(server.leases_lost))
    server.spawn(index_saves(store, data))
    try:
        await stop.wait()
    finally:
        idle.cancel()
        sweep.cancel()
        leases.cancel()
        await server.stop_games()
        await runner.cleanup()
        if server.zygote is not None:
            await server.zygote.close()
        store.close()
        LOG.info("web: stopped")
    return 0


def serve_web(options: WebOptions) -> int:
    """The `mac-tui serve web` command."""
    if not 0 <= options.port < 65536:
        print(f"mac-tui: --port must be between 0 and 65535, not {options.port}", file=sys.stderr)
        return 2
    try:
        return asyncio.run(run_web(options))
    except KeyboardInterrupt:
        return 0
