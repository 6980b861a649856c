"""Leaving when the terminal goes: a game whose terminal closes saves and exits at once.

Textual's drivers read the terminal (under `serve web`, a pipe from the server) in a thread of
their own. When the terminal goes away (a closed window, a dropped SSH connection, a web server
that died) that read gets end of file, which Textual's thread takes for "no key yet" and loops
on at full speed for ever, while the game's writes fail with EIO or EPIPE. A process that is not
the terminal's session leader never even gets the SIGHUP the kernel sends on a hang-up.

The drivers here (`hangup_driver` picks one for the class Textual chose) watch their input for a
hang-up in a thread that sleeps in `poll` (POLLHUP, POLLERR and POLLNVAL need no polling loop),
and count a failed write to the terminal as a hang-up too. Either way the game gets SIGHUP, the
signal a closing terminal sends, so one handler (`MacApp.save_and_exit`) saves and exits; writes
after that are dropped. Should the process still be alive `EXIT_DEADLINE` seconds later (its
main thread stuck), it ends itself: every accepted command was saved when it was made, so at
most the command in flight is lost.
"""

from __future__ import annotations

import os
import select
import signal
import sys
import threading
from abc import abstractmethod
from functools import partial
from typing import IO, Any, cast

from textual.driver import Driver

EXIT_DEADLINE = 5.0  # seconds from the hang-up to a forced exit if the normal one is stuck
EXIT_STATUS = 129  # 128 + SIGHUP, as a shell reports a process a hang-up ended
_GONE = select.POLLHUP | select.POLLERR | select.POLLNVAL


class Hangup:
    """Watches one input file descriptor for a hang-up; `gone()` acts on one (once)."""

    def __init__(self, fd: int, deadline: float = EXIT_DEADLINE) -> None:
        self.fd = fd
        self.deadline = deadline
        self.is_gone = threading.Event()
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._wake: tuple[int, int] | None = None

    def start(self) -> None:
        """Start watching (again, after `stop`)."""
        if self._thread is not None or self.is_gone.is_set():
            return
        self._wake = os.pipe()
        self._thread = threading.Thread(
            target=self._watch, args=(self._wake[0],), name="mac-tui-hangup", daemon=True
        )
        self._thread.start()

    def stop(self) -> None:
        """Stop watching (the driver leaves application mode); a hang-up seen stays seen."""
        thread, wake = self._thread, self._wake
        self._thread = self._wake = None
        if wake is None:
            return
        os.write(wake[1], b".")
        if thread is not None and thread is not threading.current_thread():
            thread.join()
        for fd in wake:
            os.close(fd)

    def _watch(self, wake: int) -> None:
        poller = select.poll()
        poller.register(self.fd, 0)  # hang-ups and errors are reported without asking
        poller.register(wake, select.POLLIN)
        while True:
            for fd, mask in poller.poll():
                if fd == wake:
                    return
                if mask & _GONE:
                    self.gone()
                    return

    def gone(self) -> None:
        """The terminal has gone: SIGHUP to this process (the game saves and exits), and a
        forced exit `deadline` seconds later should that not happen. Safe from any thread."""
        with self._lock:
            if self.is_gone.is_set():
                return
            self.is_gone.set()
        threading.Thread(target=self._last_resort, name="mac-tui-exit", daemon=True).start()
        os.kill(os.getpid(), signal.SIGHUP)

    def _last_resort(self) -> None:
        threading.Event().wait(self.deadline)
        os._exit(EXIT_STATUS)


class GuardedFile:
    """The terminal's output file, for Textual's writer thread: a failed write (EIO, EPIPE) is
    a hang-up, and nothing more is written once the terminal has gone."""

    def __init__(self, file: IO[str], hangup: Hangup) -> None:
        self.file = file
        self.hangup = hangup

    def write(self, text: str) -> int:
        if not self.hangup.is_gone.is_set():
            try:
                self.file.write(text)
            except (OSError, ValueError):
                self.hangup.gone()
        return len(text)

    def flush(self) -> None:
        if not self.hangup.is_gone.is_set():
            try:
                self.file.flush()
            except (OSError, ValueError):
                self.hangup.gone()

    def fileno(self) -> int:
        return self.file.fileno()

    def isatty(self) -> bool:
        return self.file.isatty()


def _stdin_fd() -> int:
    stdin = sys.__stdin__
    return stdin.fileno() if stdin is not None else 0


class _LeavesOnHangup(Driver):
    """What the two drivers below add to Textual's: a `Hangup` watch while in application
    mode, and output that counts a failed write as a hang-up (`_guard_output`)."""

    hangup: Hangup | None = None

    @abstractmethod
    def _guard_output(self, hangup: Hangup) -> None:
        """Make a failed write to the terminal count as a hang-up."""

    def start_application_mode(self) -> None:
        if self.hangup is None:
            self.hangup = Hangup(_stdin_fd())
            self._guard_output(self.hangup)
        super().start_application_mode()  # type: ignore[safe-super]  # Textual's driver's
        self.hangup.start()

    def stop_application_mode(self) -> None:
        if self.hangup is not None:
            self.hangup.stop()
        super().stop_application_mode()  # type: ignore[safe-super]


if sys.platform != "win32":
    from textual.drivers.linux_driver import LinuxDriver
    from textual.drivers.web_driver import WebDriver

    class TerminalDriver(_LeavesOnHangup, LinuxDriver):
        """Textual's terminal driver, leaving on a hang-up."""

        def _guard_output(self, hangup: Hangup) -> None:
            self._file = cast(Any, GuardedFile(cast(IO[str], self._file), hangup))

    class PipeDriver(_LeavesOnHangup, WebDriver):
        """Textual's web driver (pipes to `serve web`), leaving on a hang-up."""

        def _guard_output(self, hangup: Hangup) -> None:
            write = self._write

            def guarded(data: bytes) -> int:
                if not hangup.is_gone.is_set():
                    try:
                        return write(data)
                    except OSError:
                        hangup.gone()
                return len(data)

            self._write = partial(guarded)

    CHOSEN: dict[type[Driver], type[Driver]] = {
        LinuxDriver: TerminalDriver,
        WebDriver: PipeDriver,
    }
else:  # pragma: no cover - the game's servers and PTYs are for Unix
    CHOSEN = {}


def hangup_driver(base: type[Driver]) -> type[Driver]:
    """The driver to use instead of Textual's `base`: the same, leaving on a hang-up. Drivers
    other than Textual's own terminal and web drivers are used as they are."""
    return CHOSEN.get(base, base)
