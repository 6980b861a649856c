"""The zygote's own process: `python -m mac_tui.server.zygote_main FD` (see `zygote.py`).

It imports what every game imports (`warm_up`), tells the server it is ready on the Unix socket
FD, then forks one game per request: the child becomes the game (`_child`: its session, its
terminal, its environment, folder and stdio) and runs `mac_tui.cli.main`; for `serve ssh`
(`--clones`) the zygote first runs a game of its own to its title and holds it there, and a
game in a terminal resumes a copy of it instead (`tui/template.py`). The zygote reports
each child's pid (with a pidfd) and, once it has reaped it, its exit status; it ends when the
server's end of the socket closes. Nothing imports this module: the server starts it by name.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import signal
import socket
import sys
from collections.abc import Mapping, Sequence
from types import FunctionType, MethodType
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

from .zygote import CLONES_ENV, MAX_FDS, MAX_MESSAGE

if TYPE_CHECKING:
    from ..tui.template import Template

T = TypeVar("T")

# What a game imported only once it ran (its first screens, its first worker thread), found by
# comparing `sys.modules` before and after a game's way to its first battle; the names of
# Rich's and Textual's own modules may change with their versions (then they are skipped).
LAZY_IMPORTS = (
    "concurrent.futures.thread",
    "rich._emoji_codes",
    "rich._unicode_data.unicode17-0-0",
    "textual.drivers.headless_driver",
    "textual.pilot",
    "mac_tui.players.assessor",
)


def warm_up() -> None:
    """Import what every game imports, and the screens it may open, and load the rules."""
    from .. import cli
    from ..catalog import catalog

    cli._shared_parser()
    catalog()
    warm_css()
    warm_converter()
    warm_handlers()
    for name in LAZY_IMPORTS:
        with contextlib.suppress(ImportError):
            importlib.import_module(name)


def warm_converter() -> None:
    """Have the save converter make its code for every type of a game's state, both ways.
    cattrs writes (and compiles) the functions that turn a type into JSON data and back the
    first time it meets the type; a game's first command (a new company's, whose state is
    then hashed for its checkpoint) otherwise spent some 13 ms of CPU making them."""
    from ..model import initial_state
    from ..save import state_from_data, state_to_data

    state_from_data(state_to_data(initial_state(0)))


HANDLER_PREFIXES = ("on_", "_on_", "watch_", "_watch_", "action_", "_action_")


def warm_handlers() -> int:
    """Count, once here, the parameters of every message handler, watcher and action of the
    game's widget, screen and app classes (and Textual's), as Textual counts them the first
    time it calls one (`textual._callback.count_parameters`, an `inspect.signature` each,
    kept on the function): 100-200 of them, 1-2 ms of CPU, each time a game opens a screen
    for the first time. Textual calls these only as bound methods, which is how they are
    counted here. Returns how many were counted."""
    from textual._callback import count_parameters
    from textual.dom import DOMNode

    import_screens()
    probe = object()
    counted = 0
    for cls in node_classes(DOMNode):
        for name, value in vars(cls).items():
            if isinstance(value, FunctionType) and name.startswith(HANDLER_PREFIXES):
                with contextlib.suppress(TypeError, ValueError):
                    count_parameters(MethodType(value, probe))
                    counted += 1
    return counted


def node_classes(root: type[T]) -> list[type[T]]:
    """`root` and every class imported that derives from it."""
    seen: list[type[T]] = []
    todo = [root]
    while todo:
        cls = todo.pop()
        if cls not in seen:
            seen.append(cls)
            todo.extend(cls.__subclasses__())
    return seen


def import_screens() -> None:
    """Import every screen and widget module of the game."""
    import pkgutil

    from ..tui import app, screens, widgets

    del app  # imported for its imports
    for package in (screens, widgets):
        for info in pkgutil.walk_packages(package.__path__, package.__name__ + "."):
            importlib.import_module(info.name)


def css_sources(app: Any) -> list[tuple[tuple[str, str], str, int, str, bool]]:
    """Every CSS source a game may parse, as Textual names it (location, css, tie breaker,
    scope, is default): `app`'s CSS files and every imported widget's and screen's CSS."""
    from inspect import getfile

    from textual.dom import DOMNode
    from textual.screen import Screen

    sources = []
    for path in app.css_path:
        location = (os.path.abspath(os.path.expanduser(path)), "")
        with open(location[0], encoding="utf-8") as f:
            sources.append((location, f.read(), 0, "", False))
    for cls in node_classes(DOMNode):
        shim = _Shim(DOMNode._css_bases(cls))
        for location, css, tie_breaker, scope in DOMNode._get_default_css(shim):  # type: ignore[arg-type]
            sources.append((location, css, tie_breaker, scope, True))
        own = cls.__dict__.get("CSS", "")
        if own and issubclass(cls, Screen):
            scope = cls._css_type_name if cls.SCOPED_CSS else ""
            sources.append(((getfile(cls), f"{cls.__name__}.CSS"), own, 0, scope, False))
    return list({(s[0], s[1], s[2], s[3], s[4]): s for s in sources}.values())


class _Shim:
    """What `DOMNode._get_default_css` reads of a node: its class's CSS bases."""

    def __init__(self, bases: Any) -> None:
        self._node_bases = bases


def warm_css() -> int:
    """Parse every game CSS source under the CSS variables a new game has (Textual's default
    theme while it starts, then the player's theme, the game's default one first), so that
    the games forked from here parse none of it (`tui/csscache.py`)."""
    from ..tui import csscache
    from ..tui.app import MacApp
    from ..tui.config import Settings
    from ..tui.themes import THEMES

    import_screens()
    app = MacApp(settings=Settings())
    variable_sets = [app.get_css_variables()]
    for theme in THEMES:
        app.register_theme(theme)
    app.theme = Settings().theme
    variable_sets.append(app.get_css_variables())
    return csscache.warm(css_sources(app), variable_sets)


def hold_template() -> Template | None:
    """The game that SSH games are cloned from (`tui/template.py`), held at its title; None
    when the server said not to (`MAC_TUI_CLONES=0`) or it could not be made."""
    if os.environ.get(CLONES_ENV, "1") == "0":
        return None
    try:
        from ..tui.template import Template

        return Template.build()
    except Exception:
        return None


def clones(request: Mapping[str, Any], template: Template | None) -> bool:
    """Whether the game asked for is a clone of the template: a game in a terminal
    (`serve ssh`'s) started as `play` with nothing more."""
    return template is not None and bool(request.get("tty")) and request.get("argv") == ["play"]


def _open_fds() -> list[int]:
    for folder in ("/proc/self/fd", "/dev/fd"):
        with contextlib.suppress(OSError):
            return [int(name) for name in os.listdir(folder)]
    return list(range(3, 256))


def _child(
    request: Mapping[str, Any],
    fds: Sequence[int],
    closing: Sequence[Any],
    template: Template | None = None,
) -> NoReturn:
    """In the forked child: become the game (see the module's text), run it (a clone of
    `template`, or a new game), exit."""
    status: int = 1
    try:
        for thing in closing:
            thing.close()
        if template is not None:
            template.forget()  # the template loop's descriptors: never shared with the zygote
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
        link = request.get("link")
        if isinstance(link, int) and 0 < link < len(fds):  # its socket to the server
            from ..tui.pooled import LINK_ENV

            os.environ[LINK_ENV] = str(fds[link])
        os.chdir(str(request["cwd"]))
        _fresh_stdio(tty)
        import importlib

        import textual.constants

        importlib.reload(textual.constants)  # TEXTUAL_* of this game's environment
        argv = [str(a) for a in request["argv"]]
        sys.argv = ["mac-tui", *argv]
        if template is not None and clones(request, template):
            from ..players import assessor

            if assessor.nice_level() is not None:  # as `play` does, while single-threaded
                assessor.start()
            status = template.resume()
        else:
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


def serve(sock: socket.socket, clones: bool = False) -> int:
    """The zygote's loop: fork a game per request, report pids and exit statuses; end when
    the server's end of the socket closes. With `clones`, games in a terminal are clones of
    a template held at its title (`hold_template`)."""
    import gc
    import selectors
    import threading

    warm_up()
    template = hold_template() if clones else None
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
    _send(sock, {"ready": os.getpid(), "clones": template is not None})
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
                _child(request, fds, [selector, sock, wake], template)
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
    """`FD [--clones]`: serve on socket FD; with `--clones`, hold a template to clone."""
    sock = socket.socket(fileno=int(argv[0]))
    try:
        return serve(sock, "--clones" in argv[1:])
    finally:
        sock.close()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
