"""The zygote's own process: `python -m mac_tui.server.zygote_main FD` (see `zygote.py`).

It imports what every game imports (`warm_up`), tells the server it is ready on the Unix socket
FD, then forks one game per request: the child becomes the game (`_child`: its session, its
terminal, its environment, folder and stdio) and runs `mac_tui.cli.main`. The zygote reports
each child's pid (with a pidfd) and, once it has reaped it, its exit status; it ends when the
server's end of the socket closes. Nothing imports this module: the server starts it by name.
"""

from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import sys
from collections.abc import Mapping, Sequence
from typing import Any, NoReturn

from .zygote import MAX_FDS, MAX_MESSAGE


def warm_up() -> None:
    """Import what every game imports, and the screens it may open, and load the rules."""
    import importlib
    import pkgutil

    from .. import cli
    from ..catalog import catalog
    from ..tui import app, screens, widgets

    del cli, app  # imported for their imports

    catalog()
    for package in (screens, widgets):
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            importlib.import_module(info.name)


def _open_fds() -> list[int]:
    for folder in ("/proc/self/fd", "/dev/fd"):
        with contextlib.suppress(OSError):
            return [int(name) for name in os.listdir(folder)]
    return list(range(3, 256))


def _child(request: Mapping[str, Any], fds: Sequence[int], closing: Sequence[Any]) -> NoReturn:
    """In the forked child: become the game (see the module's text), run it, exit."""
    status: int = 1
    try:
        for thing in closing:
            thing.close()
        signal.set_wakeup_fd(-1)
        for sig in (signal.SIGCHLD, signal.SIGHUP, signal.SIGTERM, signal.SIGQUIT):
            signal.signal(sig, signal.SIG_DFL)
        signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.pthread_sigmask(signal.SIG_SETMASK, [])
        os.setsid()
        tty = bool(request.get("tty"))
        std = [fds[0]] * 3 if tty else list(fds[:3])
        keep = set(fds[1:] if tty else fds[3:])
        for target, fd in enumerate(std):
            os.dup2(fd, target)
        if tty:
            import fcntl
            import termios

            fcntl.ioctl(0, termios.TIOCSCTTY, 0)
        for fd in _open_fds():
            if fd > 2 and fd not in keep:
                with contextlib.suppress(OSError):
                    os.close(fd)
        os.environ.clear()
        os.environ.update({str(k): str(v) for k, v in request["env"].items()})
        os.chdir(str(request["cwd"]))
        _fresh_stdio(tty)
        import importlib

        import textual.constants

        importlib.reload(textual.constants)  # TEXTUAL_* of this game's environment
        argv = [str(a) for a in request["argv"]]
        sys.argv = ["mac-tui", *argv]
        from ..cli import main

        status = main(argv)
    except SystemExit as exc:
        code = exc.code
        status = code if isinstance(code, int) else (0 if code is None else 1)
    except BaseException:
        import traceback

        with contextlib.suppress(Exception):
            traceback.print_exc()
        status = 1
    finally:
        with contextlib.suppress(Exception):
            import atexit

            atexit._run_exitfuncs()
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(Exception):
                stream.flush()
        os._exit(status & 0xFF)


def _fresh_stdio(tty: bool) -> None:
    """`sys.std*` (and `sys.__std*__`, which Textual's drivers use) on the new fds 0-2."""
    import io

    def text(fd: int, mode: str, errors: str, line_buffering: bool) -> io.TextIOWrapper:
        binary = io.open(fd, mode + "b", closefd=False)  # noqa: SIM115, UP020
        return io.TextIOWrapper(
            binary, encoding="utf-8", errors=errors, line_buffering=line_buffering
        )

    stdin = text(0, "r", "strict", False)
    stdout = text(1, "w", "strict", tty)
    stderr = text(2, "w", "backslashreplace", True)
    for name, stream in (("stdin", stdin), ("stdout", stdout), ("stderr", stderr)):
        setattr(sys, name, stream)
        setattr(sys, f"__{name}__", stream)


def _send(sock: socket.socket, doc: Mapping[str, Any], fds: Sequence[int] = ()) -> None:
    with contextlib.suppress(OSError):
        socket.send_fds(sock, [json.dumps(doc).encode()], list(fds))


def serve(sock: socket.socket) -> int:
    """The zygote's loop: fork a game per request, report pids and exit statuses; end when
    the server's end of the socket closes."""
    import gc
    import selectors
    import threading

    warm_up()
    wake_r, wake_w = os.pipe()
    os.set_blocking(wake_w, False)
    signal.set_wakeup_fd(wake_w)
    signal.signal(signal.SIGCHLD, lambda *_: None)  # wakes the loop through the pipe
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    selector = selectors.DefaultSelector()
    selector.register(sock, selectors.EVENT_READ)
    selector.register(wake_r, selectors.EVENT_READ)
    gc.collect()
    gc.freeze()  # the warm objects stay out of the children's collections: fewer copied pages
    _send(sock, {"ready": os.getpid()})
    wake = os.fdopen(wake_r, "rb", buffering=0)
    while True:
        for key, _ in selector.select():
            if key.fileobj is not sock:
                with contextlib.suppress(BlockingIOError, InterruptedError):
                    wake.read(512)
                _reap(sock)
                continue
            try:
                data, fds, _, _ = socket.recv_fds(sock, MAX_MESSAGE, MAX_FDS)
            except InterruptedError:
                continue
            except OSError:
                data, fds = b"", []
            if not data:
                return 0  # the server has gone
            request: dict[str, Any] = {}
            try:
                request = json.loads(data)
                if not isinstance(request, dict) or not fds:
                    raise ValueError("not a request")
                if threading.active_count() != 1:
                    raise RuntimeError("the zygote has threads: it cannot fork safely")
                pid = os.fork()
            except Exception as exc:
                for fd in fds:
                    os.close(fd)
                ident = request.get("id") if isinstance(request, dict) else None
                _send(sock, {"id": ident, "error": str(exc)})
                continue
            if pid == 0:
                _child(request, fds, [selector, sock, wake])
            try:
                pidfd = os.pidfd_open(pid)
            except OSError:
                pidfd = -1
            _send(sock, {"id": request.get("id"), "pid": pid}, [pidfd] if pidfd >= 0 else [])
            for fd in (*fds, pidfd):
                if fd >= 0:
                    os.close(fd)


def _reap(sock: socket.socket) -> None:
    while True:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        _send(sock, {"exit": pid, "status": os.waitstatus_to_exitcode(status)})


def main(argv: Sequence[str]) -> int:
    sock = socket.socket(fileno=int(argv[0]))
    try:
        return serve(sock)
    finally:
        sock.close()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
