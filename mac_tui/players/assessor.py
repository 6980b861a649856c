"""Threat assessments in a helper process of low CPU priority, for games on a shared host.

The contracts board rates each contract by playing a few headless battles (`assess.py`): one to
three seconds of CPU when a board opens, in a background thread of the game. On a server, where
tens of games share a few cores, that background work of some players held back every other
player's key presses: 50 players on two cores waited seconds for screens that cost a few
milliseconds. With `MAC_TUI_ASSESS_NICE=N` in its environment (the servers set it), a game
forks a helper at start (`start`, while the game still has a single thread) that runs the
battles at nice level N (19: only CPU no one else wants); the game's board thread sends it
the state and waits for the answer without holding Python's lock, so the game's own screens
answer at once and the ratings come as soon as the host has CPU to spare.

The helper is the game's own child, forked before the game has read anything of the player's:
it keeps nothing open of the game's but its two pipes (not the terminal, not the player's
lock), it is given only states to rate, and it ends with the game (the kernel kills it when the
game ends, on Linux; anywhere, it ends when its request pipe closes). On Linux it is in a
session of its own, so that its low priority holds against the other games too (see
`_lower_priority`). If it is gone or its answer is broken, the game runs the battles itself, as
without the setting.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import random
import select
import struct
import sys
import threading
import time
from collections.abc import Sequence
from typing import Any, NoReturn

from ..model import GameState
from . import assess

ENV = "MAC_TUI_ASSESS_NICE"
_HEADER = struct.Struct("!I")
MAX_MESSAGE = 64 * 1024 * 1024
PR_SET_PDEATHSIG = 1  # prctl(2)
AUTOGROUP_WAIT = 0.1  # seconds (times 1-2) before setting the autogroup's nice level again
AUTOGROUP_TRIES = 200  # ... at most this many times (some 30 s)
PLAY_NICE = 10  # a local game's helper: below the player's own programs, not idle-only
POLL = 0.1  # seconds between looks, while waiting for an answer, at whether to give it up


class Assessor:
    """The game's side: `run` sends one assessment to the helper and waits for its answer."""

    def __init__(self, pid: int, requests: int, answers: int) -> None:
        self.pid = pid
        self._requests = requests
        self._answers = answers
        self._lock = threading.Lock()  # one question at a time (a cancelled board's included)
        self.broken = False
        self.abandoned = threading.Event()

    def run(
        self, state: GameState, contract_id: str, frame_ids: Sequence[str], battles: int
    ) -> assess.Assessment | None:
        if self.abandoned.is_set():
            return None
        if self.broken:
            return assess.compute(state, contract_id, frame_ids, battles)
        with self._lock:
            try:
                _send(self._requests, (state, contract_id, tuple(frame_ids), battles))
                while not select.select([self._answers], [], [], POLL)[0]:
                    if self.abandoned.is_set():
                        self.close()  # the answer under way will find no one
                        return None
                kind, value = _receive(self._answers)
            except (OSError, EOFError, pickle.PickleError, ValueError):
                kind, value = "broken", None
        if kind == "ok":
            return value  # type: ignore[no-any-return]
        self.close()
        return assess.compute(state, contract_id, frame_ids, battles)

    def abandon(self) -> None:
        """Give up the answer waited for, and any later question (the game is closing)."""
        self.abandoned.set()

    def close(self) -> None:
        """Let the helper go (it ends once it reads the end of its requests)."""
        if not self.broken:
            self.broken = True
            for fd in (self._requests, self._answers):
                with contextlib.suppress(OSError):
                    os.close(fd)
            with contextlib.suppress(ChildProcessError, OSError):
                os.waitpid(self.pid, os.WNOHANG)


def nice_level(env: dict[str, str] | None = None) -> int | None:
    """The nice level `MAC_TUI_ASSESS_NICE` asks for (1-19), or None: no helper."""
    value = (os.environ if env is None else env).get(ENV, "")
    try:
        level = int(value)
    except ValueError:
        return None
    return min(19, level) if level > 0 else None


def play_level(env: dict[str, str] | None = None) -> int | None:
    """The helper's nice level for a game of `mac-tui play`: the one `MAC_TUI_ASSESS_NICE`
    names (0, or a word: no helper), else `PLAY_NICE`. A local game rates in its helper too:
    in a thread of the game the battles hold Python's lock, and each key's frame waited for
    it (a week's key: 68 ms of wall clock at the median, 333 at p95, for 12 ms of CPU)."""
    found = dict(os.environ) if env is None else env
    return nice_level(found) if ENV in found else PLAY_NICE


def start(level: int | None = None) -> Assessor | None:
    """Fork the helper at nice `level` (the environment's when None) and make `assess` use it;
    call while the process has a single thread. None when no helper is asked for or it
    could not start."""
    level = nice_level() if level is None else level
    if level is None or threading.active_count() != 1:
        return None
    to_helper_r, to_helper_w = os.pipe()
    to_game_r, to_game_w = os.pipe()
    try:
        pid = os.fork()
    except OSError:
        for fd in (to_helper_r, to_helper_w, to_game_r, to_game_w):
            os.close(fd)
        return None
    if pid == 0:
        _helper(level, to_helper_r, to_game_w)
    os.close(to_helper_r)
    os.close(to_game_w)
    for fd in (to_helper_w, to_game_r):
        os.set_inheritable(fd, False)
    assessor = Assessor(pid, to_helper_w, to_game_r)
    assess.use_runner(assessor.run, assessor.abandon)
    return assessor


def _helper(level: int, requests: int, answers: int) -> NoReturn:
    """In the forked helper: nothing of the game's kept open, low priority, answer until the
    game goes."""
    status = 0
    try:
        devnull = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(devnull, fd)
        for fd in _open_fds():
            if fd > 2 and fd not in (requests, answers):
                with contextlib.suppress(OSError):
                    os.close(fd)
        _lower_priority(level)
        while True:
            try:
                state, contract_id, frame_ids, battles = _receive(requests)
            except (EOFError, OSError):
                break  # the game has gone
            try:
                answer: tuple[str, Any] = (
                    "ok",
                    assess.compute(state, contract_id, frame_ids, battles),
                )
            except Exception as exc:
                answer = ("error", str(exc))
            try:
                _send(answers, answer)
            except OSError:
                break
    except BaseException:
        status = 1
    finally:
        os._exit(status)


def _lower_priority(level: int) -> None:
    """Nice `level`, and ending with the game. On Linux with autogroups (the usual desktop and
    server set-up: each session one group, the groups sharing the CPU fairly whatever their
    tasks' nice levels) a session of its own at the same level, since the helper's nice level
    within its game's session would hold back only that game."""
    os.nice(level)
    if sys.platform != "linux":
        return
    with contextlib.suppress(OSError, AttributeError):
        import ctypes
        import signal

        libc = ctypes.CDLL(None, use_errno=True)
        libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0)  # the game gone, so is this
        if os.getppid() == 1:  # the game went before the line above
            os._exit(0)
    with contextlib.suppress(OSError):
        os.setsid()
        set_autogroup_nice(level)


def set_autogroup_nice(level: int, tries: int = AUTOGROUP_TRIES) -> bool:
    """Set the nice level of this process's autogroup (its session's). The kernel lets an
    unprivileged process do that only once every 100 ms on the whole host, and refuses the
    others with EAGAIN: of many games starting together (a burst of logins), all helpers but
    one stayed at the normal level, as heavy as a player's game. So a refused write is tried
    again a little later, up to `tries` times. True once it is set."""
    for _ in range(tries):
        try:
            with open("/proc/self/autogroup", "w") as group:
                group.write(str(level))
        except BlockingIOError:
            time.sleep(AUTOGROUP_WAIT * (1 + random.random()))
            continue
        except OSError:
            return False
        return True
    return False


def _open_fds() -> list[int]:
    for folder in ("/proc/self/fd", "/dev/fd"):
        with contextlib.suppress(OSError):
            return [int(name) for name in os.listdir(folder)]
    return list(range(3, 256))


def _send(fd: int, value: Any) -> None:
    data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    view = memoryview(_HEADER.pack(len(data)) + data)
    while view:
        view = view[os.write(fd, view) :]


def _read(fd: int, size: int) -> bytes:
    parts, left = [], size
    while left:
        part = os.read(fd, left)
        if not part:
            raise EOFError("the pipe has closed")
        parts.append(part)
        left -= len(part)
    return b"".join(parts)


def _receive(fd: int) -> Any:
    (size,) = _HEADER.unpack(_read(fd, _HEADER.size))
    if size > MAX_MESSAGE:
        raise ValueError("message too large")
    return pickle.loads(_read(fd, size))
