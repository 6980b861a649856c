"""The game server: SSH and web front doors to the terminal game, and the shared high scores.

The SSH server's data folder (`mac-tui serve ssh --data DATA`), which the high scores read too:

    DATA/host_key                    the server's key (made on first start, kept, mode 0600)
    DATA/server.log                  connections, logins, refusals, games started and ended
    DATA/players/<name>/saves/       that player's saves ($MAC_TUI_SAVES of their games)
    DATA/players/<name>/config.toml  their settings ($MAC_TUI_CONFIG)
    DATA/players/<name>/authorized_keys   the keys that open the name (OpenSSH format)
    DATA/players/<name>/password     a salted scrypt hash, only with --allow-passwords

Modules: `accounts` (names, keys, passwords), `limits` (connection rate, session count),
`games` (a game in its own PTY, with a screen copy for spectators), `spectate` (the `watch`
lobby and the read-only view), `ssh` (the asyncssh server), `loadtest` (an OpenSSH client in a
PTY, for the tests and `python -m mac_tui.bench ssh`); `web` and `scores` for the browser and
the high scores. Importing this package imports nothing heavy.
"""

from __future__ import annotations

import os
from pathlib import Path

DATA_ENV = "MAC_TUI_SERVER_DATA"


def default_data_dir() -> Path:
    """`$MAC_TUI_SERVER_DATA`, else `server/` in the user's mac-tui data folder."""
    override = os.environ.get(DATA_ENV)
    if override:
        return Path(override)
    import platformdirs

    return platformdirs.user_data_path("mac-tui", appauthor=False) / "server"
