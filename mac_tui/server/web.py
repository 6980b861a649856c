"""`mac-tui serve web`: the game in the browser, through textual-serve.

Every browser tab that opens the page gets a game of its own: textual-serve starts
`python -m mac_tui play` in a subprocess per websocket and relays the screen and the keys.
With a data folder, the browser games keep their saves in `DATA/web/saves` and their settings
in `DATA/web/config.toml` (all web visitors share them: the web has no accounts; use the SSH
server for players of their own), and the high-score table they see covers the server's
players and the web games (`DATA`, see `mac_tui.server.scores`). Without one they use the
user's own folders, as `mac-tui play` does.

The page is textual-serve's, with a real `<title>` and its own bundled font instead of a web
font from elsewhere; its links and websocket address follow the address the browser used (so
`--host 0.0.0.0` works from other machines). At most `$MAC_TUI_WEB_MAX_SESSIONS` games run at
once (default 32); a browser past that is told so and its connection closed.

    python -m mac_tui.server.web --host 127.0.0.1 --port 8000 --data ./server-data
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

TITLE = "Mechanized Armour Commander"
MAX_SESSIONS_ENV = "MAC_TUI_WEB_MAX_SESSIONS"
DEFAULT_MAX_SESSIONS = 32
SHUTDOWN_SECONDS = 10.0  # the games' time to exit when the server stops

PAGE = """<!DOCTYPE html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <title>{{ title }}</title>
    <link rel="stylesheet" href="{{ static }}css/xterm.css" />
    <link rel="preload" href="{{ static }}fonts/RobotoMono-VariableFont_wght.ttf" as="font"
      type="font/ttf" crossorigin />
    <script src="{{ static }}js/textual.js"></script>
    <style>
      @font-face {
        font-family: "Roboto Mono";
        src: url("{{ static }}fonts/RobotoMono-VariableFont_wght.ttf") format("truetype");
        font-style: normal;
      }
      @font-face {
        font-family: "Roboto Mono";
        src: url("{{ static }}fonts/RobotoMono-Italic-VariableFont_wght.ttf") format("truetype");
        font-style: italic;
      }
      body { background: #0c181f; margin: 0; }
      .dialog-container {
        position: absolute; width: 100vw; height: 100vh; display: flex;
        align-items: center; justify-content: center; z-index: 10;
      }
      .shade { position: absolute; width: 100%; height: 100%; background: #0c181f; }
      .intro {
        width: 640px; min-height: 160px; font-size: 16px; z-index: 20;
        font-family: "Roboto Mono", menlo, monospace; text-align: center;
        color: rgba(255, 255, 255, 0.95); background-color: #12232d;
        display: flex; flex-direction: column; align-items: center; justify-content: center;
        margin: 32px;
      }
      body.-first-byte .intro-dialog { display: none; }
      body .textual-terminal { opacity: 0; transition: opacity 0.3s ease-out; }
      body.-first-byte .textual-terminal { opacity: 1; }
      #terminal { width: 100vw; height: 100vh; }
      button {
        padding: 16px 32px; background-color: #5e0ba7; color: rgba(255, 255, 255, 0.95);
        border: none; font-family: "Roboto Mono", menlo, monospace; margin: 16px;
      }
      button:hover { background: #ac5af4; cursor: pointer; }
      .closed-dialog { display: none; }
      body.-closed .closed-dialog { display: flex; }
      #start { display: none; }
      #start.-delay { display: block; }
    </style>
    <script>
      function restart() {
        const params = new URLSearchParams(window.location.search);
        params.delete("delay");
        window.location.href = window.location.pathname + "?" + params.toString();
      }
    </script>
  </head>
  <body>
    <div class="dialog-container intro-dialog">
      <div class="shade"></div>
      <div class="intro">
        <div>{{ title }}</div>
        <div>starting the game...</div>
        <button type="button" onclick="restart()" id="start">Start</button>
      </div>
    </div>
    <div class="dialog-container closed-dialog">
      <div class="shade"></div>
      <div class="intro">
        <div class="message">The game has ended (it is saved: Continue resumes it).</div>
        <button type="button" onclick="restart()">Play again</button>
      </div>
    </div>
    <div id="terminal" class="textual-terminal"
      data-session-websocket-url="{{ websocket }}" data-font-size="{{ font_size }}"></div>
  </body>
</html>
"""


def game_command() -> str:
    """The shell command textual-serve runs for each browser: this Python, `mac_tui play`."""
    return f"{shlex.quote(sys.executable)} -m mac_tui play"


def web_environment(data: Path) -> dict[str, str]:
    """The variables the browser games run with when the server has a data folder."""
    web = data / "web"
    return {
        "MAC_TUI_SAVES": str(web / "saves"),
        "MAC_TUI_CONFIG": str(web / "config.toml"),
        "MAC_TUI_SCORES_DIR": str(data),
    }


def url_for(host: str, port: int) -> str:
    shown = f"[{host}]" if ":" in host and not host.startswith("[") else host
    return f"http://{shown}:{port}/"


def max_sessions() -> int:
    text = os.environ.get(MAX_SESSIONS_ENV, "")
    try:
        value = int(text)
    except ValueError:
        return DEFAULT_MAX_SESSIONS
    return value if value > 0 else DEFAULT_MAX_SESSIONS


def make_server(host: str, port: int) -> Any:
    """textual-serve's `Server` for the game, with the page and the session limit above."""
    import jinja2
    from aiohttp import WSCloseCode, web
    from textual_serve.server import Server, to_int

    page = jinja2.Environment(autoescape=True).from_string(PAGE)

    class GameServer(Server):
        def __init__(self) -> None:
            super().__init__(game_command(), host=host, port=port, title=TITLE)
            self.live: set[asyncio.Task[Any]] = set()
            self.limit = max_sessions()

        async def handle_index(self, request: web.Request) -> web.Response:
            # The page's links follow the address the browser used (a proxy may say https).
            proto = request.headers.get("X-Forwarded-Proto", request.scheme).split(",")[0]
            secure = proto.strip() == "https"
            origin = f"{'https' if secure else 'http'}://{request.host}"
            text = page.render(
                title=TITLE,
                static=f"{origin}/static/",
                websocket=f"{'wss' if secure else 'ws'}://{request.host}/ws",
                font_size=to_int(request.query.get("fontsize", "16"), 16),
            )
            return web.Response(text=text, content_type="text/html")

        async def handle_websocket(self, request: web.Request) -> web.WebSocketResponse:
            if len(self.live) >= self.limit:
                ws = web.WebSocketResponse()
                await ws.prepare(request)
                await ws.close(
                    code=WSCloseCode.TRY_AGAIN_LATER,
                    message=f"the server runs {self.limit} games already".encode(),
                )
                return ws
            task = asyncio.current_task()
            assert task is not None
            self.live.add(task)
            try:
                return await super().handle_websocket(request)
            finally:
                self.live.discard(task)

        async def on_shutdown(self, app: web.Application) -> None:
            # Stopping: end every game now (each exits as on a closed tab; every accepted
            # command is saved already) rather than wait for the browsers to leave.
            tasks = set(self.live)
            for task in tasks:
                task.cancel()
            if tasks:
                await asyncio.wait(tasks, timeout=SHUTDOWN_SECONDS)

        async def on_startup(self, app: web.Application) -> None:
            print(f"mac-tui: the game is served at {url_for(host, port)}", flush=True)
            if host in ("0.0.0.0", "::", ""):
                print(f"  (every address of this machine: {url_for('127.0.0.1', port)} here)")
            print("Press Ctrl+C to stop.", flush=True)

    return GameServer()


def serve_web(host: str, port: int, data: Path | None) -> None:
    """Serve the game at http://host:port/ until interrupted (Ctrl+C or SIGTERM). With `data`,
    the browser games keep their saves and settings in `data/web/` (made when missing)."""
    if not 0 < port < 65536:
        print(f"mac-tui: --port must be between 1 and 65535, not {port}", file=sys.stderr)
        raise SystemExit(2)
    if data is not None:
        env = web_environment(data.absolute())
        try:
            Path(env["MAC_TUI_SAVES"]).mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            print(f"mac-tui: cannot use the data folder {data}: {exc}", file=sys.stderr)
            raise SystemExit(2) from None
        os.environ.update(env)  # textual-serve hands its environment to every game
        print(f"mac-tui: browser games save in {env['MAC_TUI_SAVES']}", flush=True)
    server = make_server(host, port)
    try:
        server.serve()
    except OSError as exc:  # the address is taken, or not this machine's
        print(f"mac-tui: cannot serve on {host}:{port}: {exc.strerror or exc}", file=sys.stderr)
        raise SystemExit(2) from None


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(
        prog="python -m mac_tui.server.web", description="Serve the game in the browser."
    )
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (127.0.0.1)")
    p.add_argument("--port", type=int, default=8000, help="port to listen on (8000)")
    p.add_argument("--data", type=Path, help="the server's data folder (saves in DATA/web/)")
    args = p.parse_args(argv)
    serve_web(args.host, args.port, args.data)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
