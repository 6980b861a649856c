"""Nothing is cut at 80x24: every screen outside the battle, in its widest realistic state
(tests/wide.py), shows all it draws (tests/cuts.py says what "cut" means).

The battle screen's cases join this table the same way (a `Case` with the session to open and
the keys to press). The first tests check the check itself: a cut of each kind is found.
"""

from __future__ import annotations

import os
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, ClassVar

import attrs
import pytest
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Vertical
from textual.widgets import DataTable, Static

from mac_tui.campaign.state import Frame, SalvageItem
from mac_tui.catalog import catalog
from mac_tui.session import Session
from mac_tui.tui.app import MacApp
from mac_tui.tui.config import CONFIG_ENV, Settings
from mac_tui.tui.glyphs import UNICODE
from mac_tui.tui.screens import title
from mac_tui.tui.widgets.footer import GameFooter
from tests.cuts import cuts, record_fits, screen_text
from tests.stages import Stages, build_stages, copy
from tests.wide import VETERAN, wide_session

Pilot = Any  # textual.pilot.Pilot[None]
SIZE = (80, 24)

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


# ---- the check finds cuts --------------------------------------------------------------------
class Cut(App[None]):
    """One cut of each kind, on demand."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding(k, f"ring('{k}')", f"Word{k}") for k in "abcdefghijklmnop"
    ]

    def __init__(self, kind: str) -> None:
        super().__init__()
        self.kind = kind

    def compose(self) -> ComposeResult:
        long = "x" * 100
        with Vertical():
            if self.kind == "nowrap":
                yield Static(long, id="line", classes="nowrap")
            elif self.kind == "tall":
                yield Static(long, id="line", classes="one")
            elif self.kind == "clipped":
                with Vertical(classes="one"):
                    yield Static("a\nb\nc", id="three")
            elif self.kind == "table":
                yield DataTable(id="table")
            elif self.kind == "fits":
                yield Static("short", id="line", classes="one")
                yield DataTable(id="table")
        yield GameFooter()

    CSS = """
    .nowrap { text-wrap: nowrap; height: 1; }
    .one { height: 1; }
    """

    def on_mount(self) -> None:
        for table in self.query(DataTable):
            if self.kind == "table":
                table.add_column("narrow", width=3)
                table.add_row("a long cell")
            else:
                table.add_columns("a", "b")
                table.add_row("1", "2")


@pytest.mark.parametrize(
    ("kind", "found"),
    [
        ("nowrap", "Static#line in Vertical: a line of 100 cells in 80"),
        ("tall", "Static#line in Vertical: 2 lines in a box 1 high"),
        ("clipped", "Static#three in Vertical: 3 lines high, 1 shown"),
        ("table", "DataTable#table in Vertical: column 'narrow' is 3 wide for 11"),
    ],
)
async def test_the_check_finds_each_kind_of_cut(kind: str, found: str) -> None:
    app = Cut(kind)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert any(found in c for c in cuts(app)), cuts(app)


async def test_the_check_passes_what_fits_and_finds_a_footer_too_long() -> None:
    """Sixteen keys cannot fit 80 columns and none may be left out: the footer's line is cut,
    and the check says so (and nothing else)."""
    app = Cut("fits")
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        found = cuts(app)
        assert len(found) == 1 and found[0].startswith("GameFooter"), found
        assert "a line of 127 cells in 80" in found[0]


def test_a_cut_by_fit_is_recorded(monkeypatch: pytest.MonkeyPatch) -> None:
    with record_fits(monkeypatch) as cut:
        UNICODE.fit("short", 10)
        UNICODE.fit("a long text", 6)
    assert cut == ["'a long text' -> 'a lon…'"]


# ---- the screens -----------------------------------------------------------------------------
@pytest.fixture(scope="module")
def stages() -> Stages:
    return build_stages()


@pytest.fixture(scope="module")
def wide() -> Session:
    return wide_session()


@pytest.fixture(autouse=True)
def own_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv(CONFIG_ENV, "config.toml")
    monkeypatch.setenv("COLUMNS", str(SIZE[0]))
    monkeypatch.setenv("LINES", str(SIZE[1]))
    (tmp_path / "saves").mkdir()
    monkeypatch.setattr(title, "random_seed", lambda: 18_446_744_073_709_551_615)


Opener = Callable[[Pilot], Awaitable[None]]


def opened(session: Session | None, *keys: str) -> Opener:
    """Open the game at a copy of `session` (as Continue would; the title screen when None),
    then press `keys`."""

    async def run(pilot: Pilot) -> None:
        app: MacApp = pilot.app
        if session is not None:
            app.start_session(copy(session), Path("saves") / "wide.json")
            app.show_game()
            await pilot.pause()
        for key in keys:
            await pilot.press(key)
            await pilot.pause()
        await app.workers.wait_for_complete()  # the threat assessments, say
        await pilot.pause()

    return run


def wide_after_action(stages: Stages, wide: Session) -> Session:
    """The wide company back from a hard contract: a salvage pool of nine items, every pick
    allowed, two head-kill frames for sale, a long report."""
    c = wide.state.campaign
    base = stages.after_action.state.campaign
    assert c is not None and base is not None and base.after_action is not None
    cat = catalog()
    longest = sorted(cat.weapons.values(), key=lambda w: (-len(w.name), w.id))
    pool = tuple(SalvageItem(kind="weapon", item=w.id) for w in longest[:9])
    offers: tuple[Frame, ...] = tuple(  # as salvage.py offers them: named by their chassis
        attrs.evolve(f, id=f"W{i}", name=cat.chassis[f.chassis].name, pilot=None, weapons=())
        for i, f in enumerate(c.frames[4:6], start=1)
    )
    report = attrs.evolve(
        base.after_action,
        contract=c.contracts[0],
        picks=6,
        pool=pool,
        frame_offers=offers,
        report=(*base.after_action.report, *base.after_action.report),
    )
    session = copy(wide)
    session.state = attrs.evolve(session.state, campaign=attrs.evolve(c, after_action=report))
    return session


def veteran_row(wide: Session) -> int:
    """The pilots table's row of the pilot with the longest record (`tests/wide.py`)."""
    c = wide.state.campaign
    assert c is not None
    return next(i for i, p in enumerate(c.pilots) if p.record == VETERAN)


def cases(stages: Stages, wide: Session) -> dict[str, Opener]:
    """Every screen outside the battle, at its widest."""
    aa = wide_after_action(stages, wide)
    bare = copy(wide)  # an empty inventory: the refit bay refuses, at length, to fit anything
    assert bare.state.campaign is not None
    bare.state = attrs.evolve(
        bare.state, campaign=attrs.evolve(bare.state.campaign, weapons=(), equipment=())
    )
    ruled = copy(wide)  # the longest ruleset O0.3 allows of the modules that have files
    assert ruled.state.campaign is not None
    ruled.state = attrs.evolve(
        ruled.state, campaign=attrs.evolve(ruled.state.campaign, ruleset=("O2", "O3"))
    )
    return {
        "title": opened(None),
        "name-prompt": opened(None, "n"),
        "seed-prompt": opened(None, "n", *"Iron", "enter"),
        "quick-battle-choice": opened(None, "b"),
        "optional-rules": opened(None, "b", "tab", "enter"),
        "hub-with-rules": opened(ruled, "1"),
        "tutorial-deployment": opened(None, "t"),
        "tutorial-first-order": opened(None, "t", "a", "s"),
        "rules": opened(None, "r"),
        "rules-last-table": opened(None, "r", "end"),  # the modules', or a module's own
        **{f"how-to-play-{n}": opened(None, "p", *["right_square_bracket"] * n) for n in range(6)},
        "settings": opened(None, "s"),
        "scores": opened(None, "h"),
        **{f"hub-{k}": opened(wide, k) for k in "1234567"},
        "hub-market-inventory": opened(wide, "3", "tab"),
        "hub-refit-assault": opened(wide, "4", *["right_square_bracket"] * 4),
        "hub-refit-picker": opened(wide, "4", "enter"),
        "hub-refit-equipment": opened(wide, "4", "e"),
        "hub-refit-staged-damaged": opened(wide, "4", "x"),
        "hub-long-refusal": opened(bare, "4", "enter"),
        "hub-galaxy-jumps": opened(wide, "5", "tab"),
        "hub-contract-launch": opened(wide, "6", "enter"),
        "hub-contract-confirm": opened(wide, "6", "enter", "down", "space", "l"),
        "hub-finances-chart": opened(wide, "7", "c"),
        "hub-finances-upkeep": opened(wide, "7", "u"),
        "hub-roster-assign": opened(wide, "1", "end", "p"),
        "hub-pilot-sheet": opened(wide, "2", *["down"] * veteran_row(wide), "s"),
        "hub-help": opened(wide, "4", "question_mark"),
        "day-report": opened(wide, "w"),
        "after-action": opened(aa),
        "after-action-revealed": opened(aa, *["space", "down"] * 6, "enter"),
    }


CASES = [
    "title",
    "name-prompt",
    "seed-prompt",
    "quick-battle-choice",
    "optional-rules",
    "hub-with-rules",
    "tutorial-deployment",
    "tutorial-first-order",
    "rules",
    "rules-last-table",
    *(f"how-to-play-{n}" for n in range(6)),
    "settings",
    "scores",
    *(f"hub-{k}" for k in "1234567"),
    "hub-market-inventory",
    "hub-refit-assault",
    "hub-refit-picker",
    "hub-refit-equipment",
    "hub-refit-staged-damaged",
    "hub-long-refusal",
    "hub-galaxy-jumps",
    "hub-contract-launch",
    "hub-contract-confirm",
    "hub-finances-chart",
    "hub-finances-upkeep",
    "hub-roster-assign",
    "hub-pilot-sheet",
    "hub-help",
    "day-report",
    "after-action",
    "after-action-revealed",
]


@pytest.mark.parametrize("case", CASES)
async def test_nothing_is_cut_at_80x24(
    case: str, stages: Stages, wide: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    opener = cases(stages, wide)[case]
    app = MacApp(saves=Path("saves"), settings=Settings())
    with record_fits(monkeypatch) as fitted:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await opener(pilot)
            await pilot.pause()
            found = cuts(app) + [f"cut to fit: {f}" for f in fitted]
            picture = screen_text(app)
    if os.environ.get("MAC_TUI_SHOW_FIT"):
        print(picture)
    assert not found, "\n".join([*found, picture])


def test_every_case_is_listed(stages: Stages, wide: Session) -> None:
    assert sorted(cases(stages, wide)) == sorted(CASES)


@pytest.mark.parametrize("frames_on", [0, 4, 5])
async def test_the_refit_bay_cuts_no_name_at_120x40(
    frames_on: int, stages: Stages, wide: Session, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The roomy drawing writes weapons out where they fit whole and keeps the short form
    where they do not (the cursor's line and the picker name them in full)."""
    from mac_tui.tui.widgets.frame_diagram import FrameDiagram

    app = MacApp(saves=Path("saves"), settings=Settings())
    with record_fits(monkeypatch) as fitted:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            await opened(wide, "4", *["right_square_bracket"] * frames_on)(pilot)
            found = cuts(app) + [f"cut to fit: {f}" for f in fitted]
            diagram = app.screen.query_one(FrameDiagram)
            lines, _ = diagram.lines(diagram.content_size.width)
            text = "\n".join(line.plain for line in lines)
            picture = screen_text(app)
    assert not found, "\n".join([*found, picture])
    if frames_on == 4:  # the Juggernaut: heavy lasers written out
        assert "Heavy Laser" in text
