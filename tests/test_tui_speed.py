"""What keeps key presses cheap (issue 14's speed item; figures in `python -m mac_tui.bench
tui`, never timed here): collections wait for a pause, a table restyled for focus from its
kept rules looks as one matched afresh, the battle panel builds a picture once."""

from __future__ import annotations

import gc
from pathlib import Path
from typing import Any

from textual.app import App, ComposeResult

from mac_tui.tui.app import MacApp
from mac_tui.tui.config import Settings
from mac_tui.tui.gcpace import IDLE, MAX_INPUTS, IdleCollector
from mac_tui.tui.widgets.table import GameTable


class Collections:
    """The full collections Python makes (through `gc.callbacks`)."""

    def __init__(self) -> None:
        self.full = 0

    def __call__(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "stop" and info["generation"] == 2:
            self.full += 1


def test_collections_wait_for_a_pause_in_the_input() -> None:
    clock = [0.0]
    collector = IdleCollector(App(), now=lambda: clock[0])
    seen = Collections()
    gc.callbacks.append(seen)
    try:
        assert gc.isenabled()
        collector.touched()  # a key: no automatic collection while keys come
        assert not gc.isenabled()
        clock[0] += IDLE / 2
        collector.tick()
        assert not gc.isenabled() and seen.full == 0  # no pause yet
        clock[0] += IDLE
        collector.tick()  # the pause: everything collected, collections on again
        assert gc.isenabled() and seen.full == 1
        collector.tick()  # nothing came since: nothing to do
        assert seen.full == 1
        for _ in range(MAX_INPUTS):  # keys held without a pause: collected on the way
            collector.touched()
        assert seen.full == 2 and not gc.isenabled()
    finally:
        collector.stop()
        gc.callbacks.remove(seen)
    assert gc.isenabled()  # stopping puts them back


async def test_the_app_collects_as_usual_once_closed(tmp_path: Path) -> None:
    app = MacApp(saves=tmp_path, settings=Settings())
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("down")
        assert not gc.isenabled()  # a key came: the collection waits for a pause
    assert gc.isenabled()


class Tables(App[None]):
    def compose(self) -> ComposeResult:
        for name in ("one", "two"):
            table = GameTable(id=name)
            table.add_columns("a", "b")
            table.add_rows([(str(i), str(i * i)) for i in range(30)])
            yield table


def styles_of(table: GameTable) -> tuple[object, ...]:
    return (
        dict(table.styles.base._rules),
        {name: dict(s.base._rules) for name, s in table._component_styles.items()},
        table.rich_style,
        *(table.get_component_rich_style(c) for c in sorted(table.COMPONENT_CLASSES)),
    )


async def test_a_table_restyled_for_focus_from_kept_rules_looks_as_one_matched_afresh() -> None:
    app = Tables()
    async with app.run_test(size=(60, 20)) as pilot:
        one, two = app.query_one("#one", GameTable), app.query_one("#two", GameTable)
        looks: dict[bool, tuple[object, ...]] = {}
        kept: list[int] = []
        for _ in range(4):  # the first rounds match the style sheet, the others keep
            for table in (one, two):
                table.focus()
                await pilot.pause()
                looks.setdefault(one.has_focus, styles_of(one))
                assert styles_of(one) == looks[one.has_focus]
            kept.append(len(one._focus_styles))
        assert looks[True] != looks[False]  # focus does change how a table looks
        assert kept[0] >= 2 and kept[-1] == kept[1]  # matched once per look, then kept
        app.theme = "textual-light" if app.theme != "textual-light" else "nord"
        await pilot.pause()
        for table in (two, one, two, one):  # a new theme: matched afresh, then kept
            table.focus()
            await pilot.pause()
        fresh = styles_of(one)
        assert fresh != looks[True]
        one._focus_styles.clear()
        two.focus()
        await pilot.pause()
        one.focus()  # matched afresh in the new theme
        await pilot.pause()
        assert styles_of(one) == fresh
