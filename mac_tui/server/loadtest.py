"""The SSH server seen from outside: real OpenSSH clients in PTYs, and the load benchmark.

`PtyTerminal` runs a program in a pseudo-terminal of its own (a known window size) and keeps
what it shows in a `pyte` screen, so a test or a benchmark reads the screen a player would see;
`SshTerminal` is `/usr/bin/ssh -tt` in one. `ServerProcess` starts `mac-tui serve ssh` as a
subprocess on a free loopback port.

`run_load` logs in one player per key at once and has each move the title menu's cursor
(Down/Up) with a pause between keys: the key-to-screen times (from writing the key into the
client's terminal until the client's screen shows the cursor on the next option) and the time
from `ssh` to the title screen. `python -m mac_tui.bench ssh` (sshbench.py) plays a longer
game with many more players.
"""

from __future__ import annotations

import contextlib
import math
import os
import random
import re
import select
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import pyte
from attrs import define

from .games import PYTE_UNKNOWN

SSH = "ssh"
SSH_KEYGEN = "ssh-keygen"
DOWN, UP = b"\x1b[B", b"\x1b[A"
MENU_FIRST, MENU_LAST = "New campaign", "Quit"
UNLIMITED = ("--rate-limit", "0", "--max-registrations", "0")  # many players from one address


def tool_missing() -> str | None:
    """Which OpenSSH client tool is missing, if any."""
    for tool in (SSH, SSH_KEYGEN):
        if shutil.which(tool) is None:
            return tool
    return None


def process_gone(pid: int) -> bool:
    """Whether process `pid` has ended (a zombie nobody has reaped yet counts as ended)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (FileNotFoundError, ProcessLookupError):
        return True
    return state in ("Z", "X")


def wait_until(check: Callable[[], bool], timeout: float = 15.0) -> bool:
    """Poll `check` every 0.1 s until it holds (True) or `timeout` seconds pass (False)."""
    end = time.monotonic() + timeout
    while not check():
        if time.monotonic() > end:
            return False
        time.sleep(0.1)
    return True


def make_key(path: Path) -> Path:
    """A new Ed25519 key pair without a passphrase at `path` (and `path.pub`)."""
    subprocess.run(
        [SSH_KEYGEN, "-q", "-t", "ed25519", "-N", "", "-C", path.name, "-f", str(path)],
        check=True,
        stdin=subprocess.DEVNULL,
        capture_output=True,
    )
    return path


def ssh_argv(
    user: str,
    port: int,
    key: Path | None,
    command: Sequence[str] = (),
    host: str = "127.0.0.1",
    options: Sequence[str] = (),
    tty: bool = True,
) -> list[str]:
    """The OpenSSH client's command: no config file, no known hosts, only the key given."""
    argv = [SSH, "-tt" if tty else "-T", "-F", "/dev/null", "-p", str(port)]
    for option in (  # the first value of an option wins: `options` go first
        *options,
        "StrictHostKeyChecking=no",
        "UserKnownHostsFile=/dev/null",
        "IdentitiesOnly=yes",
        "PasswordAuthentication=no",
        "KbdInteractiveAuthentication=no",
        "BatchMode=yes",
        "ConnectTimeout=20",
    ):
        argv += ["-o", option]
    if key is not None:
        argv += ["-i", str(key)]
    return [*argv, f"{user}@{host}", *command]


class PtyTerminal:
    """A program in a PTY of `cols` x `rows` (a session of its own, no controlling terminal);
    `screen` is what its terminal shows."""

    def __init__(
        self,
        argv: Sequence[str],
        cols: int = 80,
        rows: int = 24,
        env: Mapping[str, str] | None = None,
        cwd: Path | None = None,
    ) -> None:
        import fcntl
        import struct
        import termios

        self.master, slave = os.openpty()
        fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        full_env = dict(os.environ, TERM="xterm-256color")
        full_env.pop("COLORTERM", None)
        full_env.update(env or {})
        try:
            self.proc = subprocess.Popen(
                list(argv),
                stdin=slave,
                stdout=slave,
                stderr=slave,
                env=full_env,
                cwd=cwd,
                start_new_session=True,
            )
        finally:
            os.close(slave)
        self.screen = pyte.Screen(cols, rows)
        self.stream = pyte.ByteStream(self.screen)
        self.raw = bytearray()
        self.eof = False
        self.started = time.perf_counter()

    def fileno(self) -> int:
        return self.master

    def read_ready(self) -> None:
        """Read what is there (call when the PTY is readable)."""
        try:
            data = os.read(self.master, 65536)
        except OSError:
            data = b""
        if not data:
            self.eof = True
            return
        self.raw += data
        self.stream.feed(PYTE_UNKNOWN.sub(b"", data))  # what a real terminal takes in silence

    def pump(self, timeout: float) -> None:
        if self.eof:
            time.sleep(min(timeout, 0.05))
            return
        ready, _, _ = select.select([self.master], [], [], timeout)
        if ready:
            self.read_ready()

    def wait_for(self, what: str | Callable[[], bool], timeout: float = 20.0) -> bool:
        """Read until `what` is on the screen (or holds), the client ends or time runs out."""
        if isinstance(what, str):
            needle = what

            def check() -> bool:
                return needle in self.text()
        else:
            check = what
        end = time.monotonic() + timeout
        while not check():
            if self.eof or time.monotonic() > end:
                return check()
            self.pump(min(0.1, max(0.0, end - time.monotonic())))
        return True

    def settle(self, quiet: float = 0.3, timeout: float = 5.0) -> None:
        """Read until nothing has come for `quiet` seconds."""
        end = time.monotonic() + timeout
        while time.monotonic() < end and not self.eof:
            size = len(self.raw)
            self.pump(quiet)
            if len(self.raw) == size:
                return

    def text(self) -> str:
        return "\n".join(self.screen.display)

    def output(self) -> str:
        """Everything received, as text (messages printed before or after the game)."""
        return self.raw.decode("utf-8", "replace")

    def send(self, data: bytes | str) -> None:
        os.write(self.master, data.encode() if isinstance(data, str) else data)

    def resize(self, cols: int, rows: int) -> None:
        import fcntl
        import struct
        import termios

        fcntl.ioctl(self.master, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))
        self.screen.resize(rows, cols)
        # ssh has no controlling terminal here, so tell it about the change ourselves
        os.kill(self.proc.pid, signal.SIGWINCH)

    def wait_exit(self, timeout: float = 20.0) -> int | None:
        """Read until the client ends; its exit status (None if it did not end in time)."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            if self.proc.poll() is not None:
                self.settle(quiet=0.1, timeout=1.0)
                return self.proc.returncode
            self.pump(0.1)
        return self.proc.poll()

    def kill(self) -> None:
        """Drop the connection the hard way (SIGKILL to the client)."""
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                self.proc.kill()
        self.proc.wait(timeout=10)

    def hang_up(self) -> None:
        """Close the terminal (the PTY's master side), as a closed terminal window does."""
        if self.master >= 0:
            os.close(self.master)
            self.master = -1
        self.eof = True

    def close(self) -> None:
        self.kill()
        self.hang_up()


class SshTerminal(PtyTerminal):
    """`ssh` in a PTY of `cols` x `rows`; `screen` is what its terminal shows."""

    def __init__(
        self,
        user: str,
        port: int,
        key: Path | None,
        command: Sequence[str] = (),
        cols: int = 80,
        rows: int = 24,
        options: Sequence[str] = (),
        tty: bool = True,
        env: Mapping[str, str] | None = None,
    ) -> None:
        self.user = user
        argv = ssh_argv(user, port, key, command, options=options, tty=tty)
        super().__init__(argv, cols, rows, env)


def menu_cursor(screen: pyte.Screen) -> int | None:
    """Which title-menu option is highlighted (0 = New campaign), or None if no menu shows."""
    lines = screen.display
    first = next((y for y, line in enumerate(lines) if MENU_FIRST in line), None)
    if first is None:
        return None
    last = next(
        (y for y in range(first + 1, len(lines)) if lines[y].strip(" ▊▎|").startswith(MENU_LAST)),
        None,
    )
    if last is None:
        return None
    x = lines[first].index(MENU_FIRST)
    # the highlight is a background colour, or without colours (NO_COLOR) an underline
    cells = [screen.buffer[y][x] for y in range(first, last + 1)]
    looks = [(cell.bg, cell.reverse, cell.underscore) for cell in cells]
    unique = [i for i, look in enumerate(looks) if looks.count(look) == 1]
    return unique[0] if len(unique) == 1 else None


SGR = re.compile(rb"\x1b\[([0-9;:]*)m")
COLOUR_PARAMS = {*range(30, 50), *range(90, 98), *range(100, 108)}  # 38/48: 256 and RGB


def colour_codes(raw: bytes) -> list[str]:
    """The SGR sequences in `raw` that set a colour (foreground or background, default colours
    included): none may come from a game under NO_COLOR."""
    found = []
    for match in SGR.finditer(raw):
        params = match.group(1).replace(b":", b";").split(b";")
        if any(p.isdigit() and int(p) in COLOUR_PARAMS for p in params):
            found.append(match.group(0).decode("ascii", "replace"))
    return found


def menu_size(screen: pyte.Screen) -> int:
    lines = screen.display
    first = next(y for y, line in enumerate(lines) if MENU_FIRST in line)
    last = next(
        y for y in range(first + 1, len(lines)) if lines[y].strip(" ▊▎|").startswith(MENU_LAST)
    )
    return last - first + 1


class ServerProcess:
    """`mac-tui serve ssh` on loopback port `port` (0: a free one), with its data folder."""

    def __init__(self, data: Path, *args: str, log: Path | None = None, port: int = 0) -> None:
        self.data = data
        self.log_path = log or data.parent / f"{data.name}-stderr.log"
        self._log = open(self.log_path, "wb")  # noqa: SIM115 (closed in stop)
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "-m",
                "mac_tui",
                "serve",
                "ssh",
                "--port",
                str(port),
                "--data",
                str(data),
                *args,
            ],
            stdout=subprocess.PIPE,
            stderr=self._log,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
        assert self.proc.stdout is not None
        line = self.proc.stdout.readline().decode()
        if "listening on" not in line:
            self.stop()
            raise RuntimeError(
                f"the SSH server did not start: {line!r}\n{self.log_path.read_text()}"
            )
        self.port = int(line.rsplit(":", 1)[1])

    def log(self) -> str:
        return self.log_path.read_text("utf-8", "replace")

    def stop(self) -> int | None:
        """SIGTERM (the server hangs up its games and ends), SIGKILL to the group if it hangs."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.proc.wait(timeout=30)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.proc.pid, signal.SIGKILL)  # anything left in its group
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(timeout=10)
        if self.proc.stdout is not None:
            self.proc.stdout.close()
        self._log.close()
        return self.proc.returncode


@define
class LoadResult:
    sessions: int
    to_title: list[float]  # seconds from starting ssh to the title screen, per session
    latencies: list[float]  # seconds from a key to the screen showing its effect
    unanswered: int  # keys whose effect did not show within the bound
    failed: list[str]  # sessions that never reached the title screen


def run_load(
    port: int,
    keys: Sequence[Path],
    presses: int,
    gap: float = 0.3,
    bound: float = 10.0,
    start_timeout: float = 90.0,
    seed: int = 1,
) -> LoadResult:
    """Log in one player per key at once, then each presses `presses` menu keys."""
    rng = random.Random(seed)
    terms = [SshTerminal(f"load{i}", port, key) for i, key in enumerate(keys)]
    try:
        return _drive(terms, presses, gap, bound, start_timeout, rng)
    finally:
        for term in terms:
            term.close()


def _drive(
    terms: list[SshTerminal],
    presses: int,
    gap: float,
    bound: float,
    start_timeout: float,
    rng: random.Random,
) -> LoadResult:
    to_title: dict[int, float] = {}
    latencies: list[float] = []
    unanswered = 0
    # per terminal: [presses left, option count, direction, awaited index, sent at, next at]
    plan: dict[int, list[float]] = {}
    deadline = time.perf_counter() + start_timeout
    by_fd = {t.fileno(): i for i, t in enumerate(terms)}
    started = False  # the pressing has begun: nobody else is waited for
    while True:
        now = time.perf_counter()
        waiting = [] if started else [i for i, t in enumerate(terms) if i not in to_title]
        waiting = [i for i in waiting if not terms[i].eof]
        if not started and (not waiting or now > deadline):
            # everybody is in, or has failed, or is given up on: everybody in starts pressing
            started, waiting = True, []
            for p in plan.values():
                p[5] = now + rng.uniform(0, gap)
        if not waiting and all(p[0] == 0 and p[4] == 0 for p in plan.values()):
            break
        timeout = 0.05
        for p in plan.values():
            if p[4] == 0 and p[0] > 0:
                timeout = max(0.0, min(timeout, p[5] - now))
        fds = [t.fileno() for t in terms if not t.eof]
        ready, _, _ = select.select(fds, [], [], timeout)
        now = time.perf_counter()
        for fd in ready:
            i = by_fd[fd]
            term = terms[i]
            term.read_ready()
            if i not in to_title:
                if not started and menu_cursor(term.screen) == 0:
                    to_title[i] = now - term.started
                    plan[i] = [presses, menu_size(term.screen), 1, 0, 0, math.inf]
                continue
            p = plan[i]
            if p[4] > 0 and menu_cursor(term.screen) == int(p[3]):
                latencies.append(now - p[4])
                p[4] = 0
                p[5] = now + gap * rng.uniform(0.5, 1.5)
        for i, p in plan.items():
            if p[4] > 0 and now - p[4] > bound:  # not answered: count it, go on
                unanswered += 1
                p[4] = 0
                p[5] = now + gap
            if p[4] == 0 and p[0] > 0 and now >= p[5]:
                current, size, direction = int(p[3]), int(p[1]), int(p[2])
                if not 0 <= current + direction < size:
                    direction = -direction
                p[2], p[3] = direction, current + direction
                p[0] -= 1
                p[4] = time.perf_counter()
                terms[i].send(DOWN if direction > 0 else UP)
    failed = [t.user for i, t in enumerate(terms) if i not in to_title]
    return LoadResult(len(terms), sorted(to_title.values()), latencies, unanswered, failed)
