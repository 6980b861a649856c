"""The game server: SSH and web front doors to the terminal game, and the shared high scores.

The servers' data folder (`mac-tui serve ssh|web --data DATA`), which the high scores read too:

    DATA/host_key                    the SSH server's key (made on first start, kept, 0600)
    DATA/server.log                  connections, logins, refusals, games started and ended
    DATA/players/<name>/saves/       that player's saves ($MAC_TUI_SAVES of their games)
    DATA/players/<name>/config.toml  their settings ($MAC_TUI_CONFIG)
    DATA/store.db                    the store (SQLite, unless `--db postgresql://...`): the
                                     players, their keys and password hashes, registrations,
                                     the index of saves and high scores, the game leases
    DATA/players/<name>/game.lock    locked while the player's game runs (`games.PlayerLock`)
    DATA/web/secret                  the web server's cookie key (made on first start, 0600)

Modules: `store` (what the servers share: SQLite or PostgreSQL), `accounts` (names, keys,
passwords, on the store), `leases` (one game per player across servers), `limits` (connection
and registration rates, session counts), `games` (a game in its own PTY with a screen copy for
spectators, and what every front door shares: the player lock, hanging a game up, the size
clamp), `spectate` (the `watch` lobby and the read-only view), `ssh` (the asyncssh server),
`webauth` (web logins and their signed cookies), `webgame` (a game on Textual's web driver's
pipes), `web` (the aiohttp server) and `webpages` (its two pages), `loadtest` (programs in PTYs
and OpenSSH clients, for the tests and `python -m mac_tui.bench ssh`); `scores` for the high
scores. Importing this package imports nothing heavy.
"""

from __future__ import annotations

import logging
import logging.handlers
import os
import sys
from pathlib import Path

DATA_ENV = "MAC_TUI_SERVER_DATA"
LOG = logging.getLogger("mac_tui.server")


def plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def duration_text(seconds: float) -> str:
    if seconds >= 3600 and seconds % 3600 == 0:
        return f"{int(seconds // 3600)} h"
    if seconds >= 60 and seconds % 60 == 0:
        return f"{int(seconds // 60)} min"
    return f"{seconds:g} s"


def setup_logging(log_file: Path) -> None:
    """The servers' log: stderr and `log_file` (`DATA/server.log`, shared by `serve ssh` and
    `serve web`: one line a write, appended, so two servers' lines do not mix; it follows
    log rotation)."""
    LOG.setLevel(logging.INFO)
    LOG.propagate = False
    fmt = logging.Formatter("%(asctime)s %(levelname)s %(message)s")
    for handler in list(LOG.handlers):
        LOG.removeHandler(handler)
        handler.close()
    handlers: list[logging.Handler] = [logging.StreamHandler(sys.stderr)]
    handlers.append(logging.handlers.WatchedFileHandler(log_file, encoding="utf-8"))
    for handler in handlers:
        handler.setFormatter(fmt)
        LOG.addHandler(handler)


def default_data_dir() -> Path:
    """`$MAC_TUI_SERVER_DATA`, else `server/` in the user's mac-tui data folder."""
    override = os.environ.get(DATA_ENV)
    if override:
        return Path(override)
    import platformdirs

    return platformdirs.user_data_path("mac-tui", appauthor=False) / "server"
