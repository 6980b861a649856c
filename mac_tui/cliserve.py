"""`mac-tui serve`: its parser and its command (the SSH and web servers, the high scores, a
player's keys). Server modules are imported inside the command, after the server extra's check,
so the game alone installs and answers `--help` without them."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .server.recordings import RecordingOptions


def serve_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    serve = sub.add_parser(
        "serve",
        help="run a game server: over SSH or in the browser; print the high scores",
        description="Host the game: `serve ssh` for players with their own names and saves, "
        "`serve web` for the browser, `serve scores` for the high-score table. "
        "See docs/hosting.md.",
    )
    what = serve.add_subparsers(dest="serve_command", metavar="WHAT", required=True)
    ssh = what.add_parser(
        "ssh",
        help="the game over SSH: one game per player, spectators as `watch`",
        description="Players log in with `ssh -t NAME@HOST -p PORT`: the first key a name "
        "logs in with registers it; `watch` lists the live games to watch.",
    )
    _server_arguments(ssh, port=2222, sessions="players at once (default 64; 0: no limit)")
    ssh.add_argument(
        "--allow-passwords",
        action="store_true",
        help="let players register and log in with a password (off: keys only)",
    )
    ssh.add_argument(
        "--pool",
        type=int,
        default=4,
        metavar="N",
        help="games kept waiting at the title screen for the next logins, so a login draws "
        "at once (default 4; each holds about 26 MB of its own; 0: none)",
    )
    ssh.add_argument(
        "--max-spectators",
        type=int,
        default=32,
        metavar="N",
        help="spectators (`watch`) at once, counted apart from players (default 32; 0: no limit)",
    )
    ssh.add_argument(
        "--spectator-idle-timeout",
        type=float,
        default=600.0,
        metavar="SECONDS",
        help="let a spectator go after this long without a key (default 600)",
    )
    web = what.add_parser(
        "web",
        help="the game in the browser: players log in with a name and password",
        description="Each browser page plays its player's own game; a new name registers "
        "with its password. Players are shared with `serve ssh` on the same data folder.",
    )
    _server_arguments(
        web, port=8000, sessions="games at once (default 32, or $MAC_TUI_WEB_MAX_SESSIONS)"
    )
    web.add_argument(
        "--behind-proxy",
        action="store_true",
        help="behind a reverse proxy: a client's address is the last of X-Forwarded-For",
    )
    scores = what.add_parser("scores", help="print the high scores of a server's players")
    scores.add_argument("--data", metavar="DIR", help="the server's data folder")
    _db_argument(scores)
    scores.add_argument("--json", action="store_true", help="print JSON for tools")
    scores.add_argument(
        "--rescan", action="store_true", help="index the saves changed since the servers ran"
    )
    keys = what.add_parser("keys", help="list the SSH keys that open a player's name, or add one")
    keys.add_argument("name", help="the player's name")
    keys.add_argument("--data", metavar="DIR", help="the server's data folder")
    _db_argument(keys)
    keys.add_argument("--add", metavar="KEY", help="a public key (a line, or a .pub file) to add")


def _db_argument(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--db",
        metavar="URL",
        help="the store: postgresql://... shared by several servers (default: store.db, "
        "SQLite, in the data folder)",
    )


def _server_arguments(parser: argparse.ArgumentParser, port: int, sessions: str) -> None:
    """The options `serve ssh` and `serve web` share."""
    parser.add_argument(
        "--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)"
    )
    parser.add_argument(
        "--port", type=int, default=port, help=f"port (default {port}; 0 picks one)"
    )
    parser.add_argument(
        "--data", metavar="DIR", help="the server's data folder (keys, players, saves)"
    )
    _db_argument(parser)
    parser.add_argument("--log", metavar="FILE", help="the log file (default: DATA/server.log)")
    parser.add_argument(
        "--idle-timeout",
        type=float,
        default=1800.0,
        metavar="SECONDS",
        help="hang up (saving) a game with no key pressed this long (default 1800)",
    )
    parser.add_argument("--max-sessions", type=int, metavar="N", help=sessions)
    parser.add_argument(
        "--recording-cap-mb",
        type=float,
        default=32.0,
        metavar="MB",
        help="every game is recorded (asciicast, gzip) in its player's folder; a recording "
        "stops past this much terminal output (default 32; 0: no recordings)",
    )
    parser.add_argument(
        "--recordings-keep-days",
        type=float,
        default=30.0,
        metavar="DAYS",
        help="remove recordings older than this (default 30; 0: keep them)",
    )
    parser.add_argument(
        "--recordings-max-mb",
        type=float,
        default=200.0,
        metavar="MB",
        help="a player's recordings take at most this much disk, the oldest go first "
        "(default 200; 0: no limit)",
    )
    parser.add_argument(
        "--cold-start",
        action="store_true",
        help="start every game as a new Python process (slower logins; default: games are "
        "forked from a warm parent that has imported the game)",
    )
    parser.add_argument(
        "--rate-limit",
        type=int,
        default=20,
        metavar="N",
        help="connections (and web logins) per address per minute (default 20; 0: no limit)",
    )
    parser.add_argument(
        "--max-registrations",
        type=int,
        default=10,
        metavar="N",
        help="new player names per address per day (default 10; 0: no limit)",
    )


def _server_problems(args: argparse.Namespace) -> list[str]:
    """What is wrong with a server's options (the ones it has)."""
    rules: tuple[tuple[str, Callable[[Any], bool], str], ...] = (
        ("port", lambda v: 0 <= v <= 65535, "0-65535"),
        ("idle_timeout", lambda v: v > 0, "more than 0 seconds"),
        ("spectator_idle_timeout", lambda v: v > 0, "more than 0 seconds"),
        ("max_sessions", lambda v: v is None or v >= 0, "0 or more"),
        ("rate_limit", lambda v: v >= 0, "0 or more"),
        ("max_spectators", lambda v: v >= 0, "0 or more"),
        ("pool", lambda v: 0 <= v <= 1000, "0-1000"),
        ("max_registrations", lambda v: v >= 0, "0 or more"),
        ("recording_cap_mb", lambda v: 0 <= v <= 4096, "0-4096"),
        ("recordings_keep_days", lambda v: v >= 0, "0 or more"),
        ("recordings_max_mb", lambda v: v >= 0, "0 or more"),
    )
    return [
        f"--{name.replace('_', '-')} must be {rule}"
        for name, good, rule in rules
        if hasattr(args, name) and not good(getattr(args, name))
    ]


def _recording_options(args: argparse.Namespace) -> RecordingOptions:
    from .server.recordings import RecordingOptions

    return RecordingOptions(
        cap_mb=args.recording_cap_mb,
        keep_days=args.recordings_keep_days,
        max_mb=args.recordings_max_mb,
    )


def cmd_serve(args: argparse.Namespace) -> int:
    from pathlib import Path

    from .extras import POSTGRES_MODULES, SERVE_NEEDS, missing_extra

    data = Path(args.data) if args.data else None
    needs = SERVE_NEEDS.get(args.serve_command, ())
    message = missing_extra(f"mac-tui serve {args.serve_command}", "server", needs)
    if message:
        print(message, file=sys.stderr)
        return 2
    db = args.db or None
    if db is not None:
        from .server.store import url_problem

        problem = url_problem(db)
        if problem is not None:
            print(f"mac-tui serve {args.serve_command}: {problem}", file=sys.stderr)
            return 2
        if db.startswith("postgres"):
            what = f"mac-tui serve {args.serve_command} --db postgresql://..."
            message = missing_extra(what, "postgres", POSTGRES_MODULES)
            if message:
                print(message, file=sys.stderr)
                return 2
    log = Path(args.log) if getattr(args, "log", None) else None
    if args.serve_command in ("ssh", "web"):
        problems = _server_problems(args)
        if problems:
            print(f"mac-tui serve {args.serve_command}: {'; '.join(problems)}", file=sys.stderr)
            return 2
    if args.serve_command == "ssh":
        from .server.ssh import serve_ssh
        from .server.sshsession import SSHOptions

        return serve_ssh(
            SSHOptions(
                host=args.host,
                port=args.port,
                data=data,
                allow_passwords=args.allow_passwords,
                idle_timeout=args.idle_timeout,
                max_sessions=64 if args.max_sessions is None else args.max_sessions,
                rate_limit=args.rate_limit,
                max_spectators=args.max_spectators,
                spectator_idle_timeout=args.spectator_idle_timeout,
                max_registrations=args.max_registrations,
                warm_start=not args.cold_start,
                pool=args.pool,
                recordings=_recording_options(args),
                db=db,
                log=log,
            )
        )
    if args.serve_command == "web":
        from .server.web import WebOptions, default_max_sessions, serve_web

        return serve_web(
            WebOptions(
                host=args.host,
                port=args.port,
                data=data,
                idle_timeout=args.idle_timeout,
                max_sessions=(
                    default_max_sessions() if args.max_sessions is None else args.max_sessions
                ),
                rate_limit=args.rate_limit,
                max_registrations=args.max_registrations,
                behind_proxy=args.behind_proxy,
                warm_start=not args.cold_start,
                recordings=_recording_options(args),
                db=db,
                log=log,
            )
        )
    if args.serve_command == "keys":
        from .server import default_data_dir
        from .server.store.files import keys_command

        return keys_command(db, data or default_data_dir(), args.name, args.add)
    if data is not None or db is not None:  # a server's: from its store
        from .server.store.files import print_server_scores

        return print_server_scores(data, db, args.json, args.rescan)
    from .server.scores import print_scores

    return print_scores(data, args.json)
