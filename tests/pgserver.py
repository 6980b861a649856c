"""A real PostgreSQL server for the tests, started in a temporary folder (`PgServer`).

Where the server's programs are looked for, in order: `initdb` and `pg_ctl` on PATH, the folder
`pg_config --bindir` names, and Debian's `/usr/lib/postgresql/<version>/bin` (the newest). When
none has both, `find_bindir` says why and the tests that need the server skip with that reason.

`initdb` refuses to run as root (a database server must not), so when the tests run as root
the cluster belongs to an unprivileged user: `postgres` if the system has one (the Debian
package makes it), else `nobody`. Its programs run as that user through `runuser` (or
`setpriv` where there is no `runuser`); the temporary folder is made for the tests and handed
to that user, as the only folder it needs. Run as anyone else, everything runs as the current
user.

The server listens on 127.0.0.1 on a free port of this worktree's range (32000-32999) and on a
unix socket in the temporary folder (never the system's socket folder), with `trust`
authentication for local connections only, and without fsync (a test's data need not survive
a power cut). It starts once per test session (the `postgres` fixture in conftest.py) and is
stopped, and its folder removed, at the end.
"""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
from collections.abc import Sequence
from pathlib import Path

PORTS = range(32000, 33000)
TOOLS = ("initdb", "pg_ctl")


def _has_tools(folder: Path) -> bool:
    return all(os.access(folder / tool, os.X_OK) for tool in (*TOOLS, "postgres"))


def find_bindir() -> tuple[Path | None, str]:
    """The folder of PostgreSQL's server programs, or None and why none was found."""
    initdb = shutil.which("initdb")
    if initdb is not None:
        folder = Path(initdb).resolve().parent
        if _has_tools(folder):
            return folder, ""
    pg_config = shutil.which("pg_config")
    if pg_config is not None:
        with contextlib.suppress(OSError, subprocess.SubprocessError):
            out = subprocess.run(
                [pg_config, "--bindir"], capture_output=True, text=True, timeout=10, check=True
            ).stdout.strip()
            if out and _has_tools(Path(out)):
                return Path(out), ""
    debian = sorted(
        Path("/usr/lib/postgresql").glob("*/bin"),
        key=lambda p: int(p.parent.name) if p.parent.name.isdigit() else 0,
    )
    for folder in reversed(debian):
        if _has_tools(folder):
            return folder, ""
    return None, (
        "no PostgreSQL server found (initdb and pg_ctl on PATH, pg_config --bindir, "
        "/usr/lib/postgresql/*/bin): install the postgresql package to run these tests"
    )


def free_port() -> int:
    for port in PORTS:
        with socket.socket() as s:
            try:
                s.bind(("127.0.0.1", port))
            except OSError:
                continue
            return port
    raise RuntimeError(f"no free port in {PORTS.start}-{PORTS.stop - 1}")


def _unprivileged() -> pwd.struct_passwd | None:
    """The user the cluster runs as when the tests run as root (else None: ourselves)."""
    if os.geteuid() != 0:
        return None
    for name in ("postgres", "nobody"):
        with contextlib.suppress(KeyError):
            return pwd.getpwnam(name)
    raise RuntimeError("running as root and no unprivileged user (postgres, nobody) to run as")


class PgServer:
    """A PostgreSQL cluster in a temporary folder, running until `stop`."""

    def __init__(self, bindir: Path) -> None:
        self.bindir = bindir
        self.user = _unprivileged()
        self.root = Path(tempfile.mkdtemp(prefix="mac-tui-pg-"))
        self.data = self.root / "cluster"
        self.sockets = self.root / "sockets"
        self.log = self.root / "server.log"
        self.sockets.mkdir()
        if self.user is not None:
            for path in (self.root, self.sockets):
                os.chown(path, self.user.pw_uid, self.user.pw_gid)
        self.port = free_port()
        self.superuser = self.user.pw_name if self.user is not None else "postgres"
        self._run(
            "initdb",
            "-D",
            str(self.data),
            "-U",
            self.superuser,
            "-A",
            "trust",
            "-E",
            "UTF8",
            "--locale=C",
            "--no-sync",
            "--no-instructions",
        )
        options = (
            f"-p {self.port} -k {self.sockets} -c listen_addresses=127.0.0.1 -c fsync=off "
            "-c synchronous_commit=off -c full_page_writes=off -c shared_buffers=16MB "
            "-c max_connections=60"
        )
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.log), "-o", options, "-w", "start")
        self._databases = 0

    def _argv(self, tool: str, args: Sequence[str]) -> list[str]:
        argv = [str(self.bindir / tool), *args]
        if self.user is None:
            return argv
        if shutil.which("runuser"):
            return ["runuser", "-u", self.user.pw_name, "--", *argv]
        uid, gid = str(self.user.pw_uid), str(self.user.pw_gid)
        return ["setpriv", f"--reuid={uid}", f"--regid={gid}", "--clear-groups", *argv]

    def _run(self, tool: str, *args: str) -> None:
        proc = subprocess.run(
            self._argv(tool, args),
            cwd=self.root,
            capture_output=True,
            text=True,
            timeout=120,
            stdin=subprocess.DEVNULL,
            check=False,
        )
        if proc.returncode != 0:
            log = self.log.read_text(errors="replace") if self.log.exists() else ""
            raise RuntimeError(
                f"{tool} failed ({proc.returncode}):\n{proc.stdout}{proc.stderr}{log}"
            )

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{self.superuser}@127.0.0.1:{self.port}/{database}"

    def new_database(self) -> str:
        """A fresh, empty database; its URL."""
        import psycopg

        self._databases += 1
        name = f"t{os.getpid()}_{self._databases}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)

    def stop(self) -> None:
        with contextlib.suppress(RuntimeError, subprocess.SubprocessError):
            self._run("pg_ctl", "-D", str(self.data), "-m", "immediate", "-w", "stop")
        shutil.rmtree(self.root, ignore_errors=True)
