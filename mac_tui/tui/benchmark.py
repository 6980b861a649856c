"""Repaint time of the battle map: `python -m mac_tui.bench tui`.

What one figure covers, per key press (`measure`):

  start    just before the key event is handed to the app the way a terminal driver hands it
           over (`Driver.process_message(events.Key(...))`, as the input thread would after
           parsing the bytes);
  path     the app's message queue -> the screen -> the focused widget's BINDINGS -> the
           action (`HexMap.step_cursor`, or the host's `show()` with a new overlay) ->
           `Widget.refresh(regions)` -> the widget's idle -> `messages.Update` to the screen ->
           the screen's update timer -> `Compositor.update_widgets` -> `render_update()`
           (which calls `render_line` for the dirty lines) -> `App._display`;
  end      once `App._display` has the compositor's update *and* it has been encoded into
           the terminal's byte string (`CompositorUpdate.render_segments(console)`: the
           headless driver skips that step, so the probe does it). Only the write(2) to a
           real terminal is missing.

`latency` is wall time from start to end. Textual paces repaints to `TEXTUAL_FPS` (60 by
default): a refresh waits for the next tick of the screen's update timer, unless the timer
has been idle for a tick already, which is the case for a person pressing keys; so the
presses are spaced by `gap` (50 ms by default, like fast typing or key repeat at 20/s), and
the latency is then the work itself. With `gap=0` (a storm of keys) the latency would include
up to one frame (16.7 ms) of pacing. `cpu` is the CPU time of the app's event loop over the
same interval (`time.thread_time` in the loop's thread), i.e. the key's work without any
waiting; background workers (the contracts board's threat assessment, a save's check by
replay) run in threads of their own and are not counted as a key's cost.

A key may cause more than one frame (a focus change's events reach the widgets after the
first repaint, and they paint again): `settled` is the CPU time from the key to the last of
its frames, the first one that no other follows within `SETTLE` seconds. `cpu` is the cost of
the key's first picture, `settled` the cost of all it shows.

The host is swappable: `measure(app_factory, keys, size=...)` takes any App whose focused
widget reacts to `keys` with a repaint (a key that repaints nothing is counted as missed), so
the same code can time the full battle screen later.

The protocol (2026-11-28, the lead, for issue 14's figures): every group of keys, and the empty
app's yardstick at each size, is timed in a fresh Python process (`isolated`), and each press
waits first for the workers the last key started (`measure`'s `quiet`). Before, one process
timed group after group: the apps timed earlier left their threads running (a board's threat
assessment is about 3 s of CPU, and a thread cannot be stopped), and their heap and caches,
and the groups timed late or after `d` and `w` read 0.5-1.5 ms higher than the same group run
alone. In `mac-tui play` the assessment runs in a helper process beside the game, on a core of
its own on any machine with more than one. The bench keeps it in a thread of the app (a helper
process slowed the timed thread 2-3x on the 2-core benchmark machine, see below), so to time a
key as a player's machine runs it, the key waits until the last key's assessment is over. The
worker's own CPU was never a key's: `thread_time` counts the loop's thread alone. Each trial
opens its own copy of the save: before, the game saved the days `d` and `w` passed into the one
file every later group opened (the 120x40 `w` group began 33 weeks after the 80x24 one's start,
and 17 of its presses repainted nothing: the campaign was over). The empty
app's key is timed before each group, at its size, each time in a fresh process, and a key is
set against the median of all those samples at its size (`Yardstick`): one empty app timed once
read anywhere from 1.5 to 2.3 ms. Each runner ends with a table of every key against it.

Last figures (2026-11-28, speed14b, load 1.5-2.5, `run_battle_screen` and `run_battle_keys`
as `bench tui` runs them; CPU medians, the empty app's key 1.74 ms): at 80x24 f 2.96 ms
(1.7x; was 4.11), Tab 2.97 (1.7x; 4.27), c 2.92 (1.7x; 4.10), L 2.49 (1.4x; 5.83), t 2.71
(1.6x; 4.13), v 2.08 (1.2x), m 2.97 (1.7x), Esc out of fire mode 2.86 (1.6x), Esc back from
the log page 2.95 (1.7x), an idle cursor move 1.52 (was 2.20), the Move-mode cursor 2.71
(3.33); at 120x40 f, Tab, c, t and m 3.3-3.4 (1.9x), L 2.81, Esc back from the log page 3.52
(2.0x), aiming p95 3.63 (was 8.15). Where the CPU went and what cut it: docs/architecture.md
(the battle's priority keys, `PaintsDirect`, `HexMap.held()`).

The hub's galaxy and refit cursors (map14, `run_hub_keys`' two groups alone, 40 presses, back
to back at load 2.2-2.5: the session's start 5aeee58 -> after; CPU medians, the empty app's key
1.52-1.57 ms in the same run): the galaxy map's arrows at 80x24 10.06/9.84 -> 3.70/3.60 ms,
at 120x40 13.23/13.42 -> 3.31/3.18 (p95 14.8 -> 4.7); the refit bay's arrows at 80x24
8.75/8.71 -> 3.43/3.53, at 120x40 8.67/8.28 -> 3.37/3.39. Where a galaxy key's 13-14 ms went
(120x40): the star map turning its whole 35-line picture into strips again, 7 ms; the map
drawn again, 1 ms; the panel's new layout and lines, 1.7 ms; the routes asked of the engine
a dozen times, 0.8; the key's climb through five message queues, 0.4. What cut it: a picture
drawn line by line with each line kept by what it shows, and a whole repaint narrowed to the
rows that changed (`internals.line_strips`, `RepaintsChangedRows`, `KeepsStrips`), the map's
places and dots once per size, `KeptStatic` panels, routes once per campaign state, priority
arrow bindings. The battle keys in the same two runs (24 presses, 10-20 samples a key) did
not move: at 120x40 Esc out of fire mode 3.25 -> 3.26, Esc back from the log page 3.14 ->
3.36 (the full repaint of the battle screen under the page: its chops and terminal encoding
are most of it, as for any screen switch), f 3.21 -> 3.40, Tab 3.35 -> 3.22, c 3.24 -> 3.26,
m 3.24 -> 3.30 (the lead's 4.37 and 4.94 for the Esc keys were taken under load).

Then (map14b, 2026-11-28; `python -m mac_tui.tui.benchmark --hub-keys galaxy` and
`--battle-keys all --size 80x24|120x40`, CPU medians, load 0.6-3, the empty app's key
1.54-1.68 ms in each run): the galaxy cursor at 80x24 3.68/3.63 (2.2x) -> 2.19/2.16 (1.4x),
at 120x40 3.23/3.13 (1.9x) -> 2.30/2.19 (1.4x); at 120x40 f 3.24 (2.1x) -> 2.77 (1.8x), Tab
3.21 -> 2.48 (1.6x), c 3.30 -> 2.78 (1.8x), t 3.04 -> 2.54 (1.6x), m 3.25 -> 2.23 (1.4x), Esc
out of fire mode 3.23 -> 2.60 (1.7x), Esc back from the log page 3.38 (2.1x) -> 1.80 (1.2x);
at 80x24 f 2.86 -> 2.59 (1.7x), c 2.85 -> 2.68 (1.7x), m 3.15 -> 2.09 (1.3x), Esc back from
the log page 3.21 -> 1.74 (1.1x), the others 1.3-1.6x. What went: the galaxy panel's new
layout for another number of lines (1 ms at 80x24), the star map drawn whole per key (its
rows a size's, kept), the panel text made and counted again, the selection's message climb;
the battle panel repainted whole on a switch of kind, the map's rows drawn again for an
overlay shown before, a query of the screen per widget, Move mode's reach asked of the engine
per key, and the full repaint as the log page closes (drawn in the pause after the page's
frame: `internals.KeepsFullFrame`). Where a battle key's 2.8 ms go now (f at 120x40,
thread-time marks): the key's handling 1.1 (the action 0.85: the panel 0.2, the map 0.15),
the frame 1.2 (the widgets' lines 0.55, the span compositor's cutting 0.4, encoding 0.17),
Textual's messages and loop 0.5.

The hub's keys that let time pass or open a view (day14, `run_hub_keys`' groups alone, CPU
medians before -> after, the empty app's key 1.6 ms): at 80x24 `d` 33.4 -> 9.3 ms (settled
p95 49.4 -> 10.1), `w` 35.7 -> 10.6 (settled p95 67.6 -> 11.5), Esc closing the day report
8.5 -> 3.6, the launch plan's Enter 16.4 -> 8.8 (day14b: 5.4) and Esc 13.9 -> 9.1 (5.8); at
120x40 `d` 33.0 -> 9.5, `w` 35.2 -> 10.9, Enter 16.8 -> 9.1 (6.0), Esc 15.0 -> 9.4 (6.5); the
first `d` after a load (not timed here: the warm-up) 42 -> 14-17. Details: docs/architecture.md
(the hub's figures).

Then (hub14, the session's start ad6c2e7 and hub14 back to back, CPU medians; `--hub-sections`
times the section keys alone, `run_hub`): section keys at 80x24 3.56 -> 3.03 ms (2.1x -> 1.8x the
empty app's key), at 120x40 3.79 -> 3.35 (2.2x -> 1.9x); the launch plan (`--hub-keys launch`)
at 80x24 Enter 6.47 -> 3.28, Esc 8.62 -> 3.06, at 120x40 Enter 5.75 -> 3.18, Esc 5.87 -> 2.83
(1.6-1.9x). Details: docs/architecture.md (the hub's figures, hub14).

Then (dw14, `flock /tmp/mac-bench.lock nice -n 5 python -m mac_tui.tui.benchmark --hub-keys "a day"
"a week" --presses 72`, main ad6c2e7 and dw14 taking turns twice, load 1.3-2.0, CPU medians; the
empty app's key 1.5-2.1 ms): at 80x24 `d` 8.3, 9.5 -> 3.75, 4.75, `w` 10.9, 12.1 -> 5.4, 5.1, Esc on
the report 3.5-3.8 -> 2.8-3.0; at 120x40 `d` 9.2, 9.7 -> 4.7, 4.2, `w` 11.8, 12.0 -> 5.5, 5.1
(settled p95 13.0, 13.1 -> 6.2, 6.1), Esc 3.5-3.8 -> 3.0-3.1. What a key counts now: the command,
its line in the save's journal, fsynced (`journal.py`: the day is on disk when its frame goes out),
and the report's one frame. What it no longer counts comes once that frame is out, in the pause
after it: the whole save file (and the checkpoint hash), the hub's redraw under the opaque report,
the hub's footer keys and its lines (`dayreport.show_day_report`'s `behind`,
`internals.warm_lines`); the CPU of that pause is not a key's, as a background worker's is not. The
bench keeps the contracts board's threat assessment in a thread of the game: the assessor's helper
process (which `mac-tui play` starts) ran its battles beside the timed thread on this 2-core machine
and slowed that thread itself, 2-3x its CPU time while a board was rated (`w` at 80x24 11.3 ms, Esc
7.8).

Then (dw15, the same command under this module's fresh-process protocol, main a049ccd and dw15
taking turns five times at load 0.8-1.9, CPU medians, the empty app's key 1.45-1.68 ms): at 80x24
`d` 3.66-5.24 -> 2.90 ms (1.9x; 3.15-3.32 in earlier rounds), `w` 4.57-5.49 -> 3.73 (2.4x), Esc on
the report 2.55-3.01 -> 2.33 (1.5x); at 120x40 `d` 3.54-5.12 -> 3.12 (2.0x), `w` 4.84-5.42 -> 3.77
(2.4x), Esc 2.76-3.04 -> 2.46-2.53 (1.6x). What went: the key's trip down to the focused table
and back (priority bindings), the report's text wrapped and drawn whole twice a day
(`dayreport.ReportText`: lines kept), a layout on every day whose report took another number of
rows than the last (kept reports, one per number of rows), every row of the report's full frame
cut and encoded anew (`internals.KeepsFrameRows`, `LayoutMovesKept`). Where the rest goes:
docs/architecture.md (the days' keys, dw15).

The hub's table keys (tab14, `run_hub_keys`' "market view", "market table Home", "pilots table
Home" and "finances" groups, the session's start ad6c2e7 and tab14 (main b5ae0f5 merged) taking
turns twice at load 1.2-2.2, CPU medians, the empty app's key 1.60-1.92 ms): pilots Home/End at
80x24 4.3-4.7 -> 3.3-3.5 ms (2.1-2.2x), at 120x40 3.7-3.8 -> 3.1-3.3; market Home/End 3.2-3.4 ->
2.3-2.5 and 3.7-3.9 -> 3.2-3.3; the market's Tab 3.8-4.3 -> 2.7-2.8 and 3.9-4.1 -> 2.7-2.8; the
finances' l 3.7 -> 2.7 and 4.1-4.3 -> 2.9-3.2. Where the CPU went and what cut it:
docs/architecture.md (the tables' keys over 2x).

Then (lp15, `flock /tmp/mac-bench.lock nice -n 5 python -m mac_tui.tui.benchmark --hub-keys launch
hints` and `--hub-sections`, this protocol, load 0.8-1.6, the pooled empty app's key 1.56-1.85
ms): at 120x40 the launch plan's Enter 2.77 ms (1.49x), Esc 2.51 (1.36x), `H` 2.74 (1.48x), the
section keys 2.83 (1.75x); at 80x24 2.72 (1.74x), 2.41 (1.54x), 2.56 (1.64x), 2.59 (1.65x). The
launch plan's 1.8 ms more at 120x40 (4.94 / 4.68 alone, against 3.05 / 2.75 at 80x24) was the
board's threat assessment running beside whichever size's group first opened the board, not
the size (with the threats known the two sizes differ by 0.16 ms: the frame's lines and their
encoding). What cut the rest (a message line and footer painted with no message round, `H` a
priority binding, a frame's cursor moves and spans worked out once, the footer's kept lines):
docs/architecture.md (the hub's figures, lp15).

Then (ps15, 2026-11-28; `flock /tmp/mac-bench.lock nice -n 5 python -m mac_tui.tui.benchmark
--hub-keys "pilot sheet" "pilots table Home" finances`, main e618497 and ps15 taking turns three
times at load 0.7-1.4, CPU medians of the three, the empty app's key 1.5-1.7 ms): `s` on the
pilots 3.24 -> 1.93 ms at 80x24 (1.2x), 3.38 -> 2.07 at 120x40 (1.3x); pilots Home/End 3.30-3.35
-> 2.88-2.90 at 80x24 (1.8x), 3.09-3.13 -> 2.76-2.77 at 120x40 (1.7x); the finances' c/l 2.49/2.71
-> 2.33/2.53 at 80x24, 2.62/2.86 -> 2.66/2.87 at 120x40 (1.6x/1.8x); Esc on the sheet 2.6-2.7
(1.6-1.7x). With main's dw15 merged (99e1b1b, one run, load 1.0, the empty app's key 1.53 and
1.62 ms): s 1.94 and 2.03 (1.3x), Home/End 2.82-2.86 (1.9x) and 2.72 (1.7x), c/l 2.33/2.48 and
2.56/2.77 (1.6x/1.7x at 120x40), Esc on the sheet 2.60-2.65. Where they went and what cut them:
docs/architecture.md (ps15).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

import cattrs
from attrs import field, frozen
from textual import events
from textual._compositor import CompositorUpdate
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.widgets import Static

from ..combat.state import Battle
from ..hexgrid import from_offset
from .config import CONFIG_ENV
from .widgets.hexmap import HexMap, Overlay

SIZES = ((80, 24), (120, 40))
SETTLE = 0.03  # seconds without a frame after which a key's repaints are over
QUIET = 30.0  # seconds a press waits at most for the workers the last key started
YARD_PRESSES = 40  # the empty app's presses before each group (`Yardstick`)
PANEL_WIDTH = 38


def p95(ordered: Sequence[float]) -> float:
    """The 95th percentile of `ordered` (sorted, not empty): the value at 95% of the way."""
    return ordered[min(len(ordered) - 1, int(len(ordered) * 0.95))]


@frozen
class Timings:
    """Seconds per key press (after the warm-up), and the presses that repainted nothing."""

    latency: tuple[float, ...]
    cpu: tuple[float, ...]
    settled: tuple[float, ...] = ()
    missed: int = 0
    frames: int = 0
    notes: tuple[str, ...] = field(factory=tuple)
    keys: tuple[str, ...] = ()  # the key of each sample

    def of(self, key: str) -> Timings:
        """The samples of `key` alone."""
        picked = [i for i, k in enumerate(self.keys) if k == key]
        return Timings(
            tuple(self.latency[i] for i in picked),
            tuple(self.cpu[i] for i in picked),
            tuple(self.settled[i] for i in picked),
            keys=(key,) * len(picked),
        )

    def summary(self) -> str:
        def figures(values: Sequence[float]) -> str:
            ms = sorted(v * 1000 for v in values)
            if not ms:
                return "-"
            return (
                f"median {statistics.median(ms):5.2f}  p95 {p95(ms):5.2f}  worst {ms[-1]:5.2f} ms"
            )

        text = f"latency {figures(self.latency)} | cpu {figures(self.cpu)}"
        if self.settled:
            text += f" | settled cpu {figures(self.settled)}"
        if self.missed:
            text += f" | {self.missed} presses repainted nothing"
        for note in self.notes:
            text += f" | {note}"
        return text


class _DisplayProbe:
    """Wraps `App._display` to finish the terminal encoding and note when a frame is out."""

    def __init__(self, app: App[Any]) -> None:
        self.app = app
        self.original = app._display
        self.done = asyncio.Event()
        self.at = 0.0
        self.cpu_at = 0.0
        self.frames = 0
        # Wrap Textual's frame writer to time each frame: a method replaced on purpose.
        app._display = self._display  # type: ignore[method-assign]

    def _display(self, screen: Any, renderable: Any) -> None:
        self.original(screen, renderable)
        if isinstance(renderable, CompositorUpdate):
            renderable.render_segments(self.app.console)
            self.at = time.perf_counter()
            self.cpu_at = time.thread_time()
            self.frames += 1
            self.done.set()

    def close(self) -> None:
        self.app._display = self.original  # type: ignore[method-assign]  # put back, as above


async def measure(
    app_factory: Callable[[], App[Any]],
    keys: Sequence[str],
    *,
    size: tuple[int, int] = (80, 24),
    warmup: int = 5,
    gap: float = 0.05,
    timeout: float = 1.0,
    timed: Callable[[str], bool] | None = None,
    quiet: float = QUIET,
) -> Timings:
    """Run `app_factory()` headless at `size`, press `keys` one by one and time each press from
    the key event to the encoded screen update (see the module docstring). With `timed`, only
    the presses of the keys it accepts are counted (the others set the scene: an Escape
    between two presses of `f`). Before each press the app's background workers that the
    last key started (a board's threat assessment) finish, waited for up to `quiet` seconds:
    each key is timed on a quiet machine (see the module docstring, the protocol)."""
    app = app_factory()
    latency: list[float] = []
    cpu: list[float] = []
    settled: list[float] = []
    pressed: list[str] = []
    missed = busy = 0
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        await app.workers.wait_for_complete()  # a loaded save's check by replay, say
        await asyncio.sleep(0.2)
        driver = app._driver
        assert driver is not None
        probe = _DisplayProbe(app)
        try:
            for i, key in enumerate(keys):
                if not await _workers_done(app, quiet):
                    busy += 1
                await asyncio.sleep(gap)
                probe.done.clear()
                event = events.Key(key, key if len(key) == 1 else None)
                c0 = time.thread_time()
                t0 = time.perf_counter()
                driver.process_message(event)
                try:
                    await asyncio.wait_for(probe.done.wait(), timeout)
                except TimeoutError:
                    missed += 1
                    continue
                first_at, first_cpu = probe.at, probe.cpu_at
                while True:  # the frames the same key causes after its first
                    probe.done.clear()
                    try:
                        await asyncio.wait_for(probe.done.wait(), SETTLE)
                    except TimeoutError:
                        break
                if i >= warmup and (timed is None or timed(key)):
                    latency.append(first_at - t0)
                    cpu.append(first_cpu - c0)
                    settled.append(probe.cpu_at - c0)
                    pressed.append(key)
        finally:
            probe.close()
        frames = probe.frames
    notes = (f"{busy} presses came before the last key's workers were done",) if busy else ()
    return Timings(
        tuple(latency), tuple(cpu), tuple(settled), missed, frames, notes, keys=tuple(pressed)
    )


async def _workers_done(app: App[Any], within: float) -> bool:
    """Wait up to `within` seconds for the app's running workers; False if some still run."""
    running = [w for w in app.workers if not w.is_finished]
    if not running:
        return True
    try:
        await asyncio.wait_for(app.workers.wait_for_complete(running), within)
    except TimeoutError:
        return False
    return True


# ---- each measure in a fresh process ------------------------------------------------------------
@frozen
class Trial:
    """What one fresh process measures (`isolated`): `EmptyApp` (`app="empty"`) or the game
    opening a copy of `save` (`app="game"`), and `measure`'s arguments (`timed`: the keys
    timed, every key when empty)."""

    app: str
    keys: tuple[str, ...]
    size: tuple[int, int] = (80, 24)
    gap: float = 0.05
    warmup: int = 5
    timed: tuple[str, ...] = ()
    save: str = ""

    def run(self) -> Timings:
        """Measure, the game opening a copy of the save in a folder of its own, with a copy of
        the settings: what a trial plays (`d` and `w` save the days they pass, `H` the hints'
        setting: the `H` group's odd number of presses left the hints off for the groups
        after it) leaves the next trial's as they were."""
        timed = set(self.timed).__contains__ if self.timed else None
        with tempfile.TemporaryDirectory() as tmp:
            config = os.environ.get(CONFIG_ENV)
            if config is not None:  # the settings a trial saves (H) are its own, as its save
                mine = Path(tmp) / "config.toml"
                if Path(config).exists():
                    shutil.copyfile(config, mine)
                os.environ[CONFIG_ENV] = str(mine)
            factory: Callable[[], App[Any]] = EmptyApp
            if self.app != "empty":
                folder = Path(tmp)
                save = folder / Path(self.save).name
                shutil.copyfile(self.save, save)
                factory = battle_factory(save, folder)
            return asyncio.run(
                measure(
                    factory,
                    self.keys,
                    size=self.size,
                    gap=self.gap,
                    warmup=self.warmup,
                    timed=timed,
                )
            )


def isolated(trial: Trial) -> Timings:
    """`trial.run()` in a fresh Python process (`python -m mac_tui.tui.benchmark --trial`, the
    trial as JSON on its input, its timings as JSON on the last line of its output): no app
    timed before it, nor the threads, heap and caches they left, weighs on its figures."""
    child = subprocess.run(
        [sys.executable, "-m", "mac_tui.tui.benchmark", "--trial"],
        input=json.dumps(cattrs.unstructure(trial)),
        stdout=subprocess.PIPE,
        text=True,
        check=False,
    )
    lines = child.stdout.splitlines()
    if child.returncode != 0 or not lines:
        raise RuntimeError(f"the trial's process failed ({child.returncode}): {trial}")
    return cattrs.structure(json.loads(lines[-1]), Timings)


def _run_trial() -> None:
    trial = cattrs.structure(json.loads(sys.stdin.read()), Trial)
    print(json.dumps(cattrs.unstructure(trial.run())))


# ---- the stand-in host: the map beside a panel ------------------------------------------------
def demo_battle(seed: int) -> Battle:
    """A battle on the largest map, deployed and started (AutoDeploy + StartBattle)."""
    from ..catalog import catalog
    from ..combat.commands import AutoDeploy, StartBattle
    from ..combat.skirmish import make_state
    from ..game import Accepted, step

    difficulty = max(
        (m for m in catalog().maps.map_size), key=lambda m: m.width * m.height
    ).max_difficulty
    state = make_state(seed, difficulty)
    for command in (AutoDeploy(), StartBattle()):
        out = step(state, command)
        assert isinstance(out, Accepted), command
        state = out.state
    assert state.battle is not None
    return state.battle


def reach_overlay(battle: Battle) -> Overlay:
    """The sprint reach of the active frame (through the engine's helper)."""
    from ..combat import movement

    unit = battle.active_unit
    assert unit is not None
    return Overlay(reach=frozenset(movement.reach(battle, unit, sprint=True)))


class MapHost(App[None]):
    """The hex map (1fr) beside a 38-column panel, like the battle screen. `r` toggles the
    active frame's reach overlay (computed beforehand: only `show()` is timed)."""

    CSS = f"""
    HexMap {{ width: 1fr; height: 1fr; }}
    #panel {{ width: {PANEL_WIDTH}; height: 1fr; border-left: solid $primary; }}
    """
    BINDINGS = [Binding("r", "toggle_reach", "Reach")]

    def __init__(self, battle: Battle, *, ascii_glyphs: bool = False) -> None:
        super().__init__()
        self.battle = battle
        self.ascii_glyphs = ascii_glyphs
        self.overlays = (Overlay(), reach_overlay(battle))
        self.showing = 0

    def compose(self) -> ComposeResult:
        with Horizontal():
            yield HexMap(ascii_glyphs=self.ascii_glyphs)
            yield Static("panel", id="panel")

    def on_mount(self) -> None:
        hexmap = self.query_one(HexMap)
        active = self.battle.active_unit
        hexmap.show(self.battle, active=active.id if active else None)
        hexmap.set_cursor(from_offset(2, 2))
        hexmap.focus()

    def action_toggle_reach(self) -> None:
        self.showing = 1 - self.showing
        active = self.battle.active_unit
        self.query_one(HexMap).show(
            self.battle, active=active.id if active else None, overlay=self.overlays[self.showing]
        )


#: A walk that always moves (from offset (2, 2) on a 20x14 map): every press repaints.
CURSOR_WALK = ("right",) * 14 + ("down",) * 9 + ("left",) * 14 + ("up",) * 9


# ---- the real thing: the battle screen of the game ---------------------------------------------
def battle_save(seed: int, folder: Path) -> Path:
    """A quick battle on the largest map, played by the AI until one of the player's frames
    stands with the AP for a called shot and a shot to take (so f, Tab and c all aim); saved in
    `folder`."""
    from ..catalog import catalog
    from ..combat.commands import CalledShot, FireGroup
    from ..combat.legal import legal_commands
    from ..combat.skirmish import NewSkirmish
    from ..model import GameState
    from ..players.ai import decide
    from ..players.driver import drive
    from ..session import Session

    def ready_to_fire(state: GameState) -> bool:
        battle = state.battle
        unit = battle.active_unit if battle is not None else None
        if unit is None or unit.side != "player":
            return False
        legal = legal_commands(state)
        return any(isinstance(c, FireGroup) for c in legal) and any(
            isinstance(c, CalledShot) for c in legal
        )

    largest = max(catalog().maps.map_size, key=lambda m: m.width * m.height)
    session = Session.new(seed)
    assert session.apply(NewSkirmish(largest.max_difficulty)).accepted
    drive(
        session.state,
        {"player": decide, "enemy": decide},
        apply=lambda _state, command: session.apply(command),
        until=ready_to_fire,
    )
    assert ready_to_fire(session.state), "the battle ended first"
    path = folder / f"bench-{seed}.json"
    session.save(path)
    return path


def battle_factory(save: Path, folder: Path) -> Callable[[], App[Any]]:
    """The game itself (`MacApp`) opening `save`: the battle screen, the cursor on the map."""
    from .app import MacApp
    from .config import Settings

    def factory() -> App[Any]:
        return MacApp(saves=folder, settings=Settings(animation="off"), load=save)

    return factory


class EmptyApp(App[None]):
    """The yardstick: an empty Textual app whose keys (a, 1-7) write the key in one label, so
    each press costs Textual's own key handling and one small repaint."""

    BINDINGS = [Binding(key, f"show('{key}')", key) for key in ("a", *"1234567")]

    def compose(self) -> ComposeResult:
        yield Static("-", id="label")

    presses = 0

    def action_show(self, key: str) -> None:
        self.presses += 1  # the text changes on every press, the same key's too
        self.query_one("#label", Static).update(f"{key} {self.presses}")


class Yardstick:
    """The empty app's key (`EmptyApp`), timed in a fresh process before each group of keys at
    the group's size (`take`), all its samples at a size pooled: a group's keys are set against
    the median of the whole run's (`ratio`, `table`). One empty app timed once per size was
    at the mercy of the moment: 1.53-1.98 ms in one run, 1.60-2.26 ms in eight back to back
    on a machine at load 0.4-0.8, where the pooled median moves little."""

    def __init__(self, presses: int, gap: float) -> None:
        self.presses, self.gap = presses, gap
        self.samples: dict[tuple[int, int], list[float]] = {}
        self.rows: list[tuple[tuple[int, int], str, Timings]] = []

    def take(self, size: tuple[int, int]) -> Timings:
        t = isolated(Trial("empty", ("a",) * self.presses, size, self.gap))
        self.samples.setdefault(size, []).extend(t.settled or t.cpu)
        return t

    def median(self, size: tuple[int, int]) -> float:
        return statistics.median(self.samples[size])

    def note(self, size: tuple[int, int], label: str, t: Timings) -> None:
        """Print `t`'s figures now, and keep them for `table`."""
        print(f"{size[0]}x{size[1]} {label} ({len(t.cpu)}): {t.summary()}", flush=True)
        self.rows.append((size, label, t))

    def table(self, title: str) -> None:
        """Every noted key's CPU median to its first frame and its settled p95, against the
        pooled median of the empty app's key at its size; then the highest of each."""
        print(f"{title}: CPU medians against the empty app's key (pooled, each size's median)")
        for size in dict.fromkeys(size for size, _, _ in self.rows):
            n = len(self.samples[size])
            print(f"  {size[0]}x{size[1]} empty app key: {self.median(size) * 1000:.2f} ms ({n})")
        worst: list[tuple[float, float, str]] = []
        for size, label, t in self.rows:
            if not t.cpu:
                continue
            first = statistics.median(t.cpu)
            late = p95(sorted(t.settled or t.cpu))
            worst.append((first / self.median(size), late, f"{size[0]}x{size[1]} {label}"))
            print(f"  {size[0]}x{size[1]} {label}: {ratio(t, self.median(size))}")
        if worst:
            top = max(worst)
            slowest = max(worst, key=lambda w: w[1])
            print(
                f"{title}: highest median {top[0]:.2f}x the empty app ({top[2]}); "
                f"highest settled p95 {slowest[1] * 1000:.2f} ms ({slowest[2]})",
                flush=True,
            )


def ratio(t: Timings, theirs: float) -> str:
    """The key's median CPU to its first frame and to its last, against the empty app's
    `theirs` (seconds)."""
    if not t.cpu:
        return "-"
    first, last = statistics.median(t.cpu), statistics.median(t.settled or t.cpu)
    return (
        f"{first * 1000:.2f} ms = {first / theirs:.2f}x the empty app ({theirs * 1000:.2f} ms); "
        f"settled {last * 1000:.2f} ms = {last / theirs:.2f}x"
    )


#: The battle screen's keys timed against the empty app (the issue's targets: within 16.7 ms
#: of CPU and within twice the empty app's cost): (what, keys pressed, the key timed).
BATTLE_KEYS: tuple[tuple[str, tuple[str, ...], str], ...] = (
    ("fire mode entry (f, then Esc)", ("f", "escape"), "f"),
    ("next target (Tab while aiming)", ("tab",), "tab"),
    ("called-shot entry (c, then Esc)", ("c", "escape"), "c"),
    ("a refused key (v: nothing to vent), between cursor moves", ("v", "l", "v", "h"), "v"),
    ("the battle log page (L, then Esc)", ("L", "escape"), "L"),
    ("the threat view (t, then Esc)", ("t", "escape"), "t"),
    ("Move mode entry (m, then Esc)", ("m", "escape"), "m"),
    ("leaving fire mode (Esc after f)", ("f", "escape"), "escape"),
    ("back from the battle log page (Esc after L)", ("L", "escape"), "escape"),
)


def run_battle_keys(
    seed: int,
    *,
    presses: int,
    gap: float,
    only: Sequence[str] = (),
    sizes: Sequence[tuple[int, int]] = SIZES,
) -> None:
    """Each key of `BATTLE_KEYS` on the battle screen at 80x24 and 120x40, its CPU from key
    to repaint beside the empty app's (`only`: the keys whose description holds one of these
    words, `sizes`: those sizes alone; `python -m mac_tui.tui.benchmark --battle-keys fire
    Tab --size 120x40`)."""
    yard = Yardstick(YARD_PRESSES, gap)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        save = str(battle_save(seed, folder))
        for width, height in sizes:
            for what, cycle, key in BATTLE_KEYS:
                if only and not any(word in what for word in only):
                    continue
                lead = ("f",) if key == "tab" else ()
                keys = (*lead, *(cycle * (max(presses, 20) // len(cycle) + 1)))
                yard.take((width, height))
                t = isolated(Trial("game", keys, (width, height), gap, 6, (key,), save))
                yard.note((width, height), what, t)
    yard.table("battle keys")


def run_battle_screen(seed: int, *, presses: int, gap: float) -> None:
    walk = (CURSOR_WALK * (presses // len(CURSOR_WALK) + 1))[:presses]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        save = str(battle_save(seed, folder))
        print(
            "The battle screen (MacApp, a quick battle on the largest map, the player's turn): "
            "cursor moves with the frame panel following; in Move mode (reach, path and energy "
            "preview redrawn); aiming (f, then Tab through the targets: the target panel)"
        )
        yard = Yardstick(YARD_PRESSES, gap)
        tabs = ("f", *("tab",) * max(presses // 3, 10))
        for width, height in SIZES:
            size = (width, height)
            for what, keys, warmup in (
                ("idle cursor move", walk, 5),
                ("Move-mode cursor", ("m", *walk), 6),
                ("aiming, next target", tabs, 6),
            ):
                yard.take(size)
                t = isolated(Trial("game", keys, size, gap, warmup, (), save))
                yard.note(size, what, t)
        yard.table("battle screen")


def run(seed: int = 1, *, presses: int = 120, gap: float = 0.05) -> None:
    battle = demo_battle(seed)
    walk = (CURSOR_WALK * (presses // len(CURSOR_WALK) + 1))[:presses]
    print(
        f"HexMap on the {battle.map.width}x{battle.map.height} map (seed {seed}), headless, "
        f"{gap * 1000:.0f} ms between presses; key event -> encoded screen update"
    )
    for width, height in SIZES:

        def factory() -> App[Any]:
            return MapHost(battle)

        probe_app = MapHost(battle)
        layout = asyncio.run(_layout_of(probe_app, (width, height)))
        moves = asyncio.run(measure(factory, walk, size=(width, height), gap=gap))
        print(f"{width}x{height} ({layout}) cursor move ({len(moves.latency)}): {moves.summary()}")
        toggles = asyncio.run(
            measure(factory, ("r",) * max(presses // 3, 10), size=(width, height), gap=gap)
        )
        print(
            f"{width}x{height} ({layout}) show() reach on/off ({len(toggles.latency)}): "
            f"{toggles.summary()}"
        )


async def _layout_of(app: MapHost, size: tuple[int, int]) -> str:
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        hexmap = app.query_one(HexMap)
        return f"{hexmap.map_layout}, map {hexmap.size.width}x{hexmap.size.height}"


# ---- the hub against an empty app --------------------------------------------------------------
#: The hub's section keys in an order where every press changes the section.
SECTION_WALK = ("2", "3", "4", "5", "6", "7", "1", "3", "5", "7", "2", "4", "6", "1")


def hub_save(seed: int, folder: Path) -> Path:
    """A year of the autopilot's campaign from `seed` (the golden year for seed 14), saved in
    `folder`: the hub with a long ledger, many pilots, frames, a board and a market."""
    from ..players.autorun import autoplay

    run = autoplay(seed)
    path = folder / f"hub-{seed}.json"
    run.session.save(path)
    return path


def hub_factory(save: Path, folder: Path) -> Callable[[], App[Any]]:
    return battle_factory(save, folder)


def run_hub(seed: int = 14, *, presses: int = 120, gap: float = 0.05) -> None:
    """The hub's section keys (1-7) against the empty app's keys, at 80x24 and 120x40
    (alone: `python -m mac_tui.tui.benchmark --hub-sections`). Last figures (2026-11-28,
    lp15, `--hub-sections` at load 0.8-0.9): CPU median 2.59 ms (1.65x the empty app's key)
    at 80x24, 2.83 (1.75x) at 120x40, p95 2.9 and 3.4 (hub14: 3.03 and 3.35); before and
    after and where the CPU goes: docs/architecture.md, the hub's figures."""
    walk = (SECTION_WALK * (presses // len(SECTION_WALK) + 1))[:presses]
    yard = Yardstick(YARD_PRESSES, gap)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        save = str(hub_save(seed, folder))
        print(
            f"The hub (MacApp, a year of the autopilot's campaign, seed {seed}): the section keys "
            "1-7, each press a new section; against an empty Textual app's key and repaint"
        )
        for width, height in SIZES:
            size = (width, height)
            yard.take(size)
            hub = isolated(Trial("game", walk, size, gap, save=save))
            yard.note(size, "hub section key", hub)
            yard.take(size)  # a yardstick on each side: the section keys are one long group
    yard.table("hub section keys")


#: The hub's other keys (issue 14: every key within 16.7 ms of CPU and twice the empty app's):
#: (what, the keys that lead there, the keys pressed in turn, each timed; every press
#: repaints). `d` and `w` let time pass (the day report opens; Escape closes it). A "walk"
#: moves the cursor down eight rows and back (each row's detail new to the pane at first),
#: where "cursor" goes between two rows; pilots' and market's Home/End scroll their tables
#: (and at 80x24 the detail lines change height: a new layout).
HUB_KEYS: tuple[tuple[str, tuple[str, ...], tuple[str, ...]], ...] = (
    ("roster table cursor", (), ("down", "up")),
    ("roster table Home/End", (), ("end", "home")),
    ("pilots table cursor", ("2",), ("down", "up")),
    ("pilots table walk", ("2",), ("down",) * 8 + ("up",) * 8),
    ("pilots table Home/End", ("2",), ("end", "home")),
    ("pilot sheet (s, then Esc)", ("2",), ("s", "escape")),
    ("market table cursor", ("3",), ("down", "up")),
    ("market table Home/End", ("3",), ("end", "home")),
    ("market view (Tab)", ("3",), ("tab",)),
    ("refit bay cursor", ("4",), ("right", "left")),
    ("galaxy map cursor", ("5",), ("right", "left")),
    ("contracts board cursor", ("6",), ("down", "up")),
    ("contracts board Home/End", ("6",), ("end", "home")),
    ("launch plan (Enter, then Esc)", ("6",), ("enter", "escape")),
    ("ledger cursor", ("7",), ("down", "up")),
    ("ledger PgDn/PgUp", ("7",), ("pagedown", "pageup")),
    ("ledger End/Home", ("7",), ("end", "home")),
    ("finances view (c, l)", ("7",), ("c", "l")),
    ("hints on/off (H)", (), ("H",)),
    ("a day (d, then Esc on the report)", (), ("d", "escape")),
    ("a week (w, then Esc on the report)", (), ("w", "escape")),
)


def run_hub_keys(
    seed: int = 14, *, presses: int = 40, gap: float = 0.05, only: Sequence[str] = ()
) -> None:
    """Each group of `HUB_KEYS` on the hub of a year's campaign, at 80x24 and 120x40: every
    key's CPU from key to repaint beside the empty app's (`only`: the groups whose name holds
    one of these words, `python -m mac_tui.tui.benchmark --hub-keys table view`). `H` saves
    the settings: to a temporary file here (MAC_TUI_CONFIG), never the player's."""
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        save = str(hub_save(seed, folder))
        config = os.environ.get(CONFIG_ENV)
        os.environ[CONFIG_ENV] = str(folder / "config.toml")
        try:
            print(
                f"The hub's other keys (seed {seed}'s year, each key {presses // 2} times or "
                "more after a warm-up), CPU from key to repaint against the empty app's"
            )
            yard = Yardstick(YARD_PRESSES, gap)
            for width, height in SIZES:
                size = (width, height)
                for what, lead, cycle in HUB_KEYS:
                    if only and not any(word in what for word in only):
                        continue
                    keys = (*lead, *(cycle * (presses // len(cycle) + 3)))
                    warmup = len(lead) + 4
                    yard.take(size)
                    t = isolated(Trial("game", keys, size, gap, warmup, (), save))
                    for key in dict.fromkeys(cycle):
                        yard.note(size, f"{what}: {key}", t.of(key))
                    if t.missed:
                        print(f"      {t.missed} presses repainted nothing")
            yard.table("hub keys")
        finally:
            if config is None:
                del os.environ[CONFIG_ENV]
            else:
                os.environ[CONFIG_ENV] = config


def main(argv: Sequence[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python -m mac_tui.tui.benchmark")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--presses", type=int, default=120)
    p.add_argument("--gap", type=float, default=0.05, help="seconds between presses")
    p.add_argument(
        "--hub-keys",
        nargs="+",
        metavar="WORD",
        help="only the hub's other keys, the groups of HUB_KEYS whose name holds a WORD",
    )
    p.add_argument(
        "--hub-sections",
        action="store_true",
        help="only the hub's section keys 1-7 against the empty app's key (`run_hub`)",
    )
    p.add_argument(
        "--battle-keys",
        nargs="+",
        metavar="WORD",
        help="only the battle screen's keys, those of BATTLE_KEYS whose description holds a "
        "WORD ('all': every one), as `bench tui` times them",
    )
    p.add_argument(
        "--size",
        choices=[f"{w}x{h}" for w, h in SIZES],
        help="with --battle-keys: this size alone",
    )
    p.add_argument("--trial", action="store_true", help=argparse.SUPPRESS)  # see `isolated`
    args = p.parse_args(argv)
    if args.trial:
        _run_trial()
        return 0
    if args.hub_sections:
        run_hub(presses=args.presses, gap=args.gap)
        return 0
    if args.hub_keys:
        run_hub_keys(presses=args.presses // 2, gap=args.gap, only=args.hub_keys)
        return 0
    if args.battle_keys:
        sizes = [s for s in SIZES if args.size in (None, f"{s[0]}x{s[1]}")]
        only = () if "all" in args.battle_keys else args.battle_keys
        run_battle_keys(args.seed, presses=args.presses // 2, gap=args.gap, only=only, sizes=sizes)
        return 0
    run(args.seed, presses=args.presses, gap=args.gap)
    run_battle_screen(args.seed, presses=args.presses, gap=args.gap)
    run_battle_keys(args.seed, presses=args.presses // 2, gap=args.gap)
    run_hub(presses=args.presses, gap=args.gap)
    return 0


if __name__ == "__main__":
    sys.exit(main())
