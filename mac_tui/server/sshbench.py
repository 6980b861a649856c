"""`python -m mac_tui.bench ssh --players N`: N players log in together and play a game's first
minutes over SSH, with the real OpenSSH client; key-to-screen times, login times and memory.

The server is `mac-tui serve ssh` on loopback in a temporary folder. The players' clients run
in worker processes (`python -m mac_tui.server.sshbench worker`, one per 25 players, each in a
session and process group of its own, apart from the server's): each worker starts its `ssh`
clients in PTYs at once and reads their screens with `pyte`. Every player:

1. logs in: the time from starting `ssh` to the title menu on screen ("login to title");
2. once every player is at the title, plays a game's opening at one of two paces (`Pace`):
   `lockstep`, the worst case, a pause of `gap` seconds (0.5-1.5 x) between keys for every
   player from the same instant, or `paced`, a person's (the Keystroke-Level Model's think
   time before each key, a new screen's words skimmed, players starting over `spawn`
   seconds; see `KLM_MENTAL`): the title menu (Down, Up), a new company
   (n, its name, Enter, Enter for the seed: the hub), the contracts board (6, Enter, l, y: the
   battle screen), then `presses` keys of the battle's deployment (the arrow keys move the hex
   cursor, Tab picks the next frame);
3. each key's time runs from writing it into the client's terminal until the client's screen
   shows its effect (the menu's highlight moved, the next screen's words, the map's cursor
   moved); a key not answered within `BOUND` seconds counts as unanswered (a battle key is
   then skipped; a screen that never came ends that player's flow).

While every game stands in its battle the bench reads each game's memory (`/proc/PID/
smaps_rollup`: PSS, the fair share of pages shared with the zygote and the other games, and
RSS), and the server's and the zygote's. It prints the figures with the load average, since
the figures are only as good as the machine is quiet.
"""

from __future__ import annotations

import contextlib
import gzip
import json
import math
import os
import random
import re
import select
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from attrs import define, field, frozen

from .loadtest import (
    DOWN,
    UNLIMITED,
    UP,
    ServerProcess,
    SshTerminal,
    make_key,
    menu_cursor,
    tool_missing,
    wait_until,
)
from .pool import DEFAULT_POOL
from .recordings import FOLDER, NAME_RE, SUFFIX

PER_WORKER = 25
# The paced load: a person's keys, by the Keystroke-Level Model (Card, Moran and Newell, "The
# keystroke-level model for user performance time with interactive systems", CACM 23(7),
# 1980): a mental preparation (M, 1.35 s) and a keystroke (K, 0.28 s: an average typist) before
# every key, and after a key that brought a new screen the time to skim its words at 700 words
# a minute (the top of the skimming rates in Rayner et al., "So much to read, so little time",
# Psychological Science in the Public Interest 17(1), 2016: faster than anyone reads, so the
# load is on the heavy side). Each think time is drawn from a log-normal around that (median
# as said, spread 0.5: people's response times are skewed to the slow side).
KLM_MENTAL, KLM_KEY = 1.35, 0.28
SKIM_WPM = 700
THINK_SPREAD = 0.5
MODEL_TEXT = {
    "lockstep": "the worst case, not a real flow: every player on the same keys at the same "
    "pace ({gap:g} s x 0.5-1.5 between keys), all starting within {gap:g} s, so nearly every "
    "player's screen changes come within the same second or two",
    "paced": "a person's pace: before each key 1.63 s (Keystroke-Level Model: M 1.35 s + K "
    "0.28 s), plus after a new screen its words skimmed at 700 words/min, log-normal (spread "
    "0.5) around that; players start their flows over {spawn:g} s",
}
POOL_WAITS = re.compile(r"pool: game \d+ waits")
BOUND = 30.0  # seconds: a slow answer still counts (and shows in the figures) up to this
RIGHT, LEFT = b"\x1b[C", b"\x1b[D"
MAP_COLUMNS = 30  # the battle map is drawn in the left columns of an 80x24 terminal
CHOSEN_RE = re.compile(r"\s(?:▸|>) (\S+) ")  # the deployment list's cursor and a frame's mark


def hex_cursor(term: SshTerminal) -> tuple[int, int] | None:
    """Where the battle map's cursor is (the reversed cell in the map's columns), if shown.
    The rulers (the column letters on the map's first line, the row numbers in its first two
    columns) mark the cursor's column and row as well: the search starts inside them."""
    screen = term.screen
    for y in range(2, min(screen.lines, 20)):
        row = screen.buffer[y]
        for x in range(2, MAP_COLUMNS):
            if row[x].reverse:
                return (x, y)
    return None


Check = Callable[[SshTerminal, Any], bool]


@define
class Step:
    kind: str  # "menu", "screen" or "battle"
    keys: bytes
    check: Check  # (terminal, what `before` said) -> has the key's effect shown?
    before: Callable[[SshTerminal], Any] = lambda term: None


def shows(text: str) -> Check:
    return lambda term, _: text in term.text()


def moved(term: SshTerminal, before: Any) -> bool:
    now = hex_cursor(term)
    return now is not None and now != before


def chosen_frame(term: SshTerminal) -> str | None:
    """The frame the deployment list points at (the map mark after its cursor, "▸" or the
    ASCII ">"), if the list shows."""
    lines = term.text().splitlines()
    heads = [i for i, line in enumerate(lines) if "Deploy your lance" in line]
    for line in lines[heads[0] + 1 : heads[0] + 7] if heads else ():
        found = CHOSEN_RE.search(line, MAP_COLUMNS - 1)
        if found:
            return found.group(1)
    return None


def other_frame(term: SshTerminal, before: Any) -> bool:
    now = chosen_frame(term)
    return now is not None and now != before


def flow(player: int, presses: int) -> list[Step]:
    """One player's keys after the title screen (see the module's text)."""
    company = f"Bench {player}"
    steps = [
        Step("menu", DOWN, lambda term, _: menu_cursor(term.screen) == 1),
        Step("menu", UP, lambda term, _: menu_cursor(term.screen) == 0),
        Step("screen", b"n", shows("Name your company")),
        Step("screen", company.encode(), shows(company)),
        Step("screen", b"\r", shows("Seed")),
        Step("screen", b"\r", shows("Roster")),
        Step("screen", b"6", shows("plan the launch")),
        Step("screen", b"\r", shows("l: launch")),
        Step("screen", b"l", shows("Launch contract")),
        Step("screen", b"y", shows("Deploy your lance")),
    ]
    cycle: list[tuple[bytes, Check, Callable[[SshTerminal], Any]]] = [
        (RIGHT, moved, hex_cursor),
        (LEFT, moved, hex_cursor),
        (DOWN, moved, hex_cursor),
        (UP, moved, hex_cursor),
        (b"\t", other_frame, chosen_frame),
        (b"\t", other_frame, chosen_frame),
    ]
    for i in range(presses):
        keys, check, before = cycle[i % len(cycle)]
        steps.append(Step("battle", keys, check, before))
    return steps


@define
class Player:
    term: SshTerminal
    steps: list[Step]
    at_title: float | None = None
    next: int = 0  # the step to send next
    sent: float = 0.0  # when the awaited step's keys went (0: nothing awaited)
    before: Any = None
    due: float = math.inf
    failed: str = ""


@define
class Figures:
    """What a worker (or the whole bench) measured."""

    to_title: list[float] = field(factory=list)
    latencies: dict[str, list[float]] = field(factory=dict)
    unanswered: int = 0
    failed: list[str] = field(factory=list)

    def add(self, other: Figures) -> None:
        self.to_title += other.to_title
        for kind, values in other.latencies.items():
            self.latencies.setdefault(kind, []).extend(values)
        self.unanswered += other.unanswered
        self.failed += other.failed

    def to_json(self) -> str:
        return json.dumps(
            {
                "to_title": self.to_title,
                "latencies": self.latencies,
                "unanswered": self.unanswered,
                "failed": self.failed,
            }
        )

    @classmethod
    def from_json(cls, text: str) -> Figures:
        doc = json.loads(text)
        return cls(doc["to_title"], doc["latencies"], doc["unanswered"], doc["failed"])


def _pump(players: Sequence[Player], timeout: float) -> list[tuple[Player, float]]:
    """Read what the clients sent; (player, when) for each that had something."""
    by_fd = {p.term.fileno(): p for p in players if not p.term.eof}
    if not by_fd:
        time.sleep(timeout)
        return []
    ready, _, _ = select.select(list(by_fd), [], [], timeout)
    now = time.perf_counter()
    out = []
    for fd in ready:
        by_fd[fd].term.read_ready()
        out.append((by_fd[fd], now))
    return out


def log_in(players: Sequence[Player], timeout: float) -> None:
    """Wait until every player's title menu shows (or the time is up)."""
    end = time.perf_counter() + timeout
    while time.perf_counter() < end:
        waiting = [p for p in players if p.at_title is None and not p.term.eof]
        if not waiting:
            return
        for p, now in _pump(waiting, 0.05):
            if menu_cursor(p.term.screen) == 0:
                p.at_title = now - p.term.started


@frozen
class Pace:
    """When a player presses their next key: `lockstep` (every player on the same flow at
    the same pace, `gap` seconds x 0.5-1.5 between keys, all starting within `gap`: the worst
    case, nearly every player's screen change within the same second) or `paced` (a person's
    pace, the Keystroke-Level Model's, and players starting over `spawn` seconds)."""

    model: str = "lockstep"
    gap: float = 1.0
    spawn: float = 20.0

    def first(self, rng: random.Random) -> float:
        return rng.uniform(0, self.gap if self.model == "lockstep" else self.spawn)

    def think(self, done: Step, term: SshTerminal, rng: random.Random) -> float:
        """Seconds from the screen showing `done`'s effect to the next key."""
        if self.model == "lockstep":
            return self.gap * rng.uniform(0.5, 1.5)
        seconds = KLM_MENTAL + KLM_KEY
        if done.kind == "screen":
            seconds += words(term.text()) / SKIM_WPM * 60
        return seconds * rng.lognormvariate(0, THINK_SPREAD)


def words(text: str) -> int:
    """The words a screen shows (runs of two or more letters; frames and rulers are not)."""
    return sum(1 for w in text.split() if sum(c.isalpha() for c in w) >= 2)


def play(players: Sequence[Player], pace: Pace, bound: float, rng: random.Random) -> Figures:
    """Every player at the title plays its steps; the figures."""
    figures = Figures()
    active = [p for p in players if p.at_title is not None]
    figures.failed += [p.term.user for p in players if p.at_title is None]
    figures.to_title = sorted(p.at_title for p in active if p.at_title is not None)
    start = time.perf_counter()
    gap = pace.gap
    for p in active:
        p.due = start + pace.first(rng)
    while True:
        live = [p for p in active if not p.failed and p.next < len(p.steps)]
        if not live:
            break
        now = time.perf_counter()
        timeout = min([0.05, *(max(0.0, p.due - now) for p in live if p.sent == 0)])
        for p, when in _pump(live, timeout):
            if p.sent and p.steps[p.next].check(p.term, p.before):
                step = p.steps[p.next]
                figures.latencies.setdefault(step.kind, []).append(when - p.sent)
                p.next += 1
                p.sent = 0.0
                p.due = when + pace.think(step, p.term, rng)
        now = time.perf_counter()
        for p in live:
            if p.sent and now - p.sent > bound:
                figures.unanswered += 1
                step = p.steps[p.next]
                if step.kind == "battle":  # a lost cursor key: go on with the next
                    p.next += 1
                    p.sent, p.due = 0.0, now + gap
                else:  # the next screen never came: this player's flow is over
                    p.failed = f"{p.term.user}: no '{step.keys!r}' effect"
                    figures.failed.append(p.failed)
            elif not p.sent and now >= p.due and p.next < len(p.steps):
                step = p.steps[p.next]
                p.before = step.before(p.term)
                p.sent = time.perf_counter()
                p.term.send(step.keys)
    return figures


# ---- a worker: some of the players, in a process of its own ------------------------------
def worker(port: int, first: int, keys: Sequence[Path], presses: int, pace: Pace) -> int:
    """Log in players first.. with `keys`; say "ready" once they are at the title, wait for
    "go", play, print "done" and the figures, wait for "bye" (the games stay up meanwhile,
    for the memory figures), then close the clients."""
    rng = random.Random(first)
    players = [
        Player(SshTerminal(f"load{first + i}", port, key), flow(first + i, presses))
        for i, key in enumerate(keys)
    ]
    try:
        log_in(players, timeout=180.0)
        print("ready", flush=True)
        _wait_line(players, "go")
        figures = play(players, pace, bound=BOUND, rng=rng)
        print("done " + figures.to_json(), flush=True)
        _wait_line(players, "bye")
    finally:
        for p in players:
            p.term.close()
    return 0


def _wait_line(players: Sequence[Player], word: str) -> None:
    """Wait for `word` on stdin, reading the clients meanwhile (so none blocks)."""
    while True:
        fds = [sys.stdin.fileno(), *(p.term.fileno() for p in players if not p.term.eof)]
        ready, _, _ = select.select(fds, [], [], 1.0)
        for fd in ready:
            if fd == sys.stdin.fileno():
                line = sys.stdin.readline()
                if not line or line.strip() == word:
                    return
            else:
                next(p for p in players if p.term.fileno() == fd).term.read_ready()


# ---- the bench -------------------------------------------------------------------------------
def memory_kb(pid: int) -> dict[str, int]:
    """PSS and RSS of process `pid` in KiB ({} if it is gone)."""
    out = {}
    try:
        with open(f"/proc/{pid}/smaps_rollup") as f:
            for line in f:
                parts = line.split()
                if parts[0] in ("Rss:", "Pss:"):
                    out[parts[0][:-1].lower()] = int(parts[1])
    except OSError:
        return {}
    return out


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of process `pid` so far (0 if it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def children(pids: Sequence[int]) -> list[int]:
    """The processes whose parent is one of `pids`."""
    wanted, found = set(pids), []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            if ppid in wanted:
                found.append(int(entry.name))
    return found


def _spread(values: Sequence[float]) -> str:
    v = sorted(values)
    if not v:
        return "none"
    return (
        f"{len(v)} keys, median {statistics.median(v) * 1000:.0f} ms, "
        f"p95 {v[min(len(v) - 1, int(len(v) * 0.95))] * 1000:.0f} ms, worst {v[-1] * 1000:.0f} ms"
    )


MODELS = ("lockstep", "paced")


def bench(
    players: int = 20,
    presses: int = 30,
    gap: float = 1.0,
    cold: bool = False,
    port: int = 0,
    pool: int | None = None,
    model: str = "both",
    spawn: float = 20.0,
) -> int:
    """`python -m mac_tui.bench ssh --players N`: print the figures (see the module's text),
    for the lockstep load and the paced one (`model` "both"), or one of them."""
    missing = tool_missing()
    if missing:
        print(f"bench ssh: `{missing}` is not installed (Debian: apt-get install openssh-client)")
        return 2
    status = 0
    for name in MODELS if model == "both" else (model,):
        status |= bench_one(players, presses, Pace(name, gap, spawn), cold, port, pool)
    return status


def bench_one(
    players: int, presses: int, pace: Pace, cold: bool, port: int, pool: int | None
) -> int:
    """One run: a server, N players logging in together, then the flow at `pace`."""
    load_before = os.getloadavg()
    with tempfile.TemporaryDirectory(prefix="mac-tui-bench-") as tmp:
        root = Path(tmp)
        keys = [make_key(root / f"key{i}") for i in range(players)]
        extra: tuple[str, ...] = ("--cold-start",) if cold else ()
        if pool is not None:
            extra += ("--pool", str(pool))
        server = ServerProcess(
            root / "data", *UNLIMITED, "--max-sessions", str(players + 4), *extra, port=port
        )
        try:
            if not cold:
                wait_until(lambda: "zygote is ready" in server.log(), 120.0)
                size = DEFAULT_POOL if pool is None else pool
                wait_until(lambda: len(POOL_WAITS.findall(server.log())) >= size, 120.0)
            t0 = time.perf_counter()
            figures, memory = _run_workers(server, keys, presses, pace)
            spent = time.perf_counter() - t0
        finally:
            server.stop()
            log = server.log()
        recorded = _recordings_report(root / "data" / "players")
    load_after = os.getloadavg()
    lat = [v for values in figures.latencies.values() for v in values]
    pooled = log.count(", from the pool)")
    print(f"== {pace.model}: {MODEL_TEXT[pace.model].format(gap=pace.gap, spawn=pace.spawn)}")
    print(
        f"ssh load: {players} players on loopback, {math.ceil(players / PER_WORKER)} client "
        f"processes, warm start {'off' if cold else 'on'}, pool "
        f"{DEFAULT_POOL if pool is None else pool} ({pooled} logins got a waiting game), "
        f"{os.cpu_count()} cores; {spent:.0f} s in all; load average {load_before[0]:.1f} "
        f"before, {load_after[0]:.1f} after"
    )
    tt = sorted(figures.to_title)
    if tt:
        print(
            f"login to title (all {players} at once): median {statistics.median(tt):.2f} s, "
            f"p95 {tt[min(len(tt) - 1, int(len(tt) * 0.95))]:.2f} s, worst {tt[-1]:.2f} s"
        )
    print(f"key to screen, all keys: {_spread(lat)}")
    for kind in ("menu", "screen", "battle"):
        print(f"  {kind:<6}: {_spread(figures.latencies.get(kind, []))}")
    print(memory)
    print(recorded)
    if figures.unanswered or figures.failed:
        out = figures.failed
        shown = ", ".join(out[:5]) + (f" and {len(out) - 5} more" if len(out) > 5 else "")
        print(f"unanswered keys: {figures.unanswered}; {len(out)} players fell out: {shown}")
        return 1
    return 0


def _run_workers(
    server: ServerProcess, keys: Sequence[Path], presses: int, pace: Pace
) -> tuple[Figures, str]:
    workers = []
    for first in range(0, len(keys), PER_WORKER):
        part = keys[first : first + PER_WORKER]
        argv = [
            sys.executable,
            "-m",
            "mac_tui.server.sshbench",
            "worker",
            json.dumps(
                {
                    "port": server.port,
                    "first": first,
                    "keys": [str(k) for k in part],
                    "presses": presses,
                    "model": pace.model,
                    "gap": pace.gap,
                    "spawn": pace.spawn,
                }
            ),
        ]
        workers.append(
            subprocess.Popen(
                argv,
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                text=True,
                start_new_session=True,  # the clients: a process group apart from the server
            )
        )
    try:
        for w in workers:
            _expect(w, "ready")
        for w in workers:
            _say(w, "go")
        figures = Figures()
        for w in workers:
            figures.add(Figures.from_json(_expect(w, "done")))
        memory = _memory_report(server) + "\n" + _cpu_report(server, [w.pid for w in workers])
        for w in workers:
            _say(w, "bye")
        for w in workers:
            w.wait(60)
    finally:
        for w in workers:
            if w.poll() is None:
                w.kill()
                w.wait()
    return figures, memory


def _say(worker: subprocess.Popen[str], word: str) -> None:
    assert worker.stdin is not None
    worker.stdin.write(word + "\n")
    worker.stdin.flush()


def _expect(worker: subprocess.Popen[str], word: str) -> str:
    assert worker.stdout is not None
    while True:
        line = worker.stdout.readline()
        if not line:
            raise RuntimeError(f"a bench worker ended before '{word}'")
        if line.startswith(word):
            return line[len(word) :].strip()


def _cpu_report(server: ServerProcess, workers: Sequence[int]) -> str:
    """CPU seconds spent so far by the server, its games and zygote, and the clients."""
    log = server.log()
    games = [int(p) for p in re.findall(r"game started: \S+ \(pid (\d+)", log)]
    zygote = [int(p) for p in re.findall(r"zygote is ready \(pid (\d+)", log)]
    clients = children(workers)
    parts = [
        ("server", cpu_seconds(server.proc.pid)),
        (f"{len(games)} games", sum(cpu_seconds(p) for p in games)),
        ("zygote", sum(cpu_seconds(p) for p in zygote)),
        (f"{len(workers)} client processes", sum(cpu_seconds(p) for p in workers)),
        (f"{len(clients)} ssh clients", sum(cpu_seconds(p) for p in clients)),
    ]
    return "CPU seconds so far: " + ", ".join(f"{who} {t:.1f}" for who, t in parts)


def _inflated_size(path: Path) -> int:
    """The terminal output a recording holds (up to where it was cut, when a game killed at
    the server's stop left it unfinished)."""
    size = 0
    with gzip.open(path) as gz, contextlib.suppress(EOFError, OSError):
        while chunk := gz.read(1 << 16):
            size += len(chunk)
    return size


def _recordings_report(players: Path) -> str:
    """The games' recordings (closed once the server has stopped): size on disk and of the
    terminal output they hold, and the seconds they last."""
    files = sorted(players.glob(f"*/{FOLDER}/*{SUFFIX}"))
    if not files:
        return "recordings: none"
    disk = [f.stat().st_size for f in files]
    text = [_inflated_size(f) for f in files]
    seconds = [int(m.group("seconds") or 0) for f in files if (m := NAME_RE.fullmatch(f.name))]
    return (
        f"recordings ({len(files)} games, {statistics.mean(seconds or [0]):.0f} s each): "
        f"{statistics.mean(disk) / 1024:.0f} KB on disk, {statistics.mean(text) / 1024:.0f} KB "
        f"of asciicast text each (compressed {sum(text) / max(1, sum(disk)):.0f}x)"
    )


def _memory_report(server: ServerProcess) -> str:
    log = server.log()
    pids = [int(p) for p in re.findall(r"game started: \S+ \(pid (\d+)", log)]
    games = [m for m in (memory_kb(pid) for pid in pids) if m]
    zygote = re.findall(r"zygote is ready \(pid (\d+)", log)
    parts = []
    if games:
        pss = statistics.mean(m["pss"] for m in games) / 1024
        rss = statistics.mean(m["rss"] for m in games) / 1024
        parts.append(
            f"memory per game in battle ({len(games)} games): PSS {pss:.0f} MB "
            f"(its fair share of shared pages), RSS {rss:.0f} MB"
        )
    helpers = [m for m in (memory_kb(pid) for pid in children(pids)) if m]
    if helpers:
        pss = statistics.mean(m["pss"] for m in helpers) / 1024
        parts.append(f"threat assessment helpers ({len(helpers)}): PSS {pss:.0f} MB each")
    own = memory_kb(server.proc.pid)
    if own:
        parts.append(f"server RSS {own['rss'] / 1024:.0f} MB")
    if zygote:
        z = memory_kb(int(zygote[-1]))
        if z:
            parts.append(f"zygote RSS {z['rss'] / 1024:.0f} MB (PSS {z['pss'] / 1024:.0f} MB)")
    return "; ".join(parts) or "memory: no figures (no /proc?)"


if __name__ == "__main__":
    if len(sys.argv) == 3 and sys.argv[1] == "worker":
        cfg = json.loads(sys.argv[2])
        keys = [Path(k) for k in cfg["keys"]]
        pace = Pace(cfg["model"], cfg["gap"], cfg["spawn"])
        sys.exit(worker(cfg["port"], cfg["first"], keys, cfg["presses"], pace))
    print("usage: python -m mac_tui.bench ssh --players N", file=sys.stderr)
    sys.exit(2)
