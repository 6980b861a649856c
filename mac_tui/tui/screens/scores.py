"""High scores: every campaign of every player, ranked (see `mac_tui.server.scores`).

The table comes from `$MAC_TUI_SCORES_DIR` when it is set (the game server points it at its
data, so players see everyone's runs; the header then says "this server's saves", never the
server's folder), else from the game's own saves folder. Each row's figures come from the state its
save's commands rebuild (verified by replay, cached), read in a background thread so the
screen opens at once. The highlighted row's seed, date and how the run ended are shown below
the table (and the optional rules it was played with, if any); files that could not be read,
and runs not scored as saved, are named there too.
Runs saved in this game's own saves folder are drawn in bold. At 100 columns or more the seed
gets a column of its own and the names more room.
"""

from __future__ import annotations

import contextlib
import os
from pathlib import Path

from rich.text import Text
from textual import work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import DataTable, Static

from ...server.scores import SCORES_ENV, Score, Scores, collect, missions_text
from ..glyphs import Glyphs, glyphs_for
from ..widgets.footer import GameFooter
from ..widgets.table import GameTable
from .base import PALETTE_KEY_MIN_WIDTH, GameScreen

WIDE = PALETTE_KEY_MIN_WIDTH  # from this width on: the seed column, longer names
NARROW_NAMES = (10, 18)  # player, company: cut to these in 80 columns
WIDE_NAMES = (16, 28)
NOTES_SHOWN = 2


def cut(text: str, width: int, g: Glyphs) -> str:
    return g.fit(g.text(text), width).plain


STORE_ENV = "MAC_TUI_STORE"  # set by a server for its games (`server.store`)


def scores_folder(app_saves: Path) -> Path:
    """`$MAC_TUI_SCORES_DIR` when set, else the game's saves folder."""
    override = os.environ.get(SCORES_ENV)
    return Path(override) if override else app_saves


def from_store(root: Path) -> Scores:
    """A server's game: the table from the server's store (`$MAC_TUI_STORE`), where every
    game reports its saves' verified figures, so no save is read here."""
    from ...server.store import StoreError, open_store
    from ...server.store.files import scores_from_store

    try:
        with open_store(os.environ.get(STORE_ENV), root) as store:
            return scores_from_store(store, str(root))
    except Exception as exc:  # StoreError, or the database's own
        what = str(exc) if isinstance(exc, StoreError) else type(exc).__name__
        return Scores((), (f"the high scores cannot be read now ({what})",), str(root))


def source_text(folder: Path | None) -> str:
    """Where the table comes from, in words a remote player may see: a server's players (set
    by the server through the environment: its folder is not shown), else the folder."""
    if folder is None and os.environ.get(SCORES_ENV):
        return "this server's saves"
    return f"the saves in {folder}" if folder is not None else "your saves"


def outcome_text(score: Score) -> str:
    if not score.cause:
        return f"still going on {score.date}" if score.date else "still going"
    where = f" on {score.ended_at}" if score.ended_at else f" on {score.date}" if score.date else ""
    return f"ended{where}: {score.cause}"


class ScoresScreen(GameScreen):
    HELP = (
        "High scores: every campaign, ranked by days survived, then missions won, then "
        "credits (quick battles do not count). Up/Down and PageUp/PageDown move through the "
        "table (or click a row, scroll with the wheel); the row's seed, date and how the run "
        "ended show below it. Your own runs are in bold. r reads the saves again; Escape goes "
        "back."
    )
    BINDINGS = [
        Binding("escape", "back", "Back", id="scores.back"),
        Binding("r", "reload", "Refresh", id="scores.reload"),
    ]
    DEFAULT_CSS = """
    ScoresScreen #scores-head { height: 1; padding: 0 1; background: $panel; }
    ScoresScreen #scores-table { height: 1fr; }
    ScoresScreen #scores-detail { height: auto; max-height: 3; padding: 0 1; background: $surface; }
    ScoresScreen #scores-notes { height: auto; max-height: 3; padding: 0 1; color: $warning; }
    """

    def __init__(self, folder: Path | None = None) -> None:
        super().__init__()
        self.folder = folder
        self.scores = Scores((), (), "")
        self.wide: bool | None = None
        self.announce = False  # say how many were read once they are (r: refresh)

    def compose(self) -> ComposeResult:
        yield Static("", id="scores-head")
        yield GameTable(id="scores-table", cursor_type="row", zebra_stripes=True)
        yield Static("", id="scores-detail")
        yield Static("", id="scores-notes")
        yield GameFooter()

    @property
    def root(self) -> Path:
        return self.folder or scores_folder(Path(self.game.saves))

    def on_mount(self) -> None:
        self.query_one("#scores-head", Static).update(
            Text.assemble(("High scores", "bold"), " (reading the saves...)")
        )
        self.load()
        self.query_one("#scores-table", DataTable).focus()

    def load(self) -> None:
        self.read_scores(self.root)

    @work(thread=True, exclusive=True, group="scores")
    def read_scores(self, root: Path) -> Scores:
        """Collect (replaying what is not cached yet) off the screen's thread."""
        scores = from_store(root) if os.environ.get(STORE_ENV) else collect(root)
        with contextlib.suppress(RuntimeError):  # the game ended meanwhile
            self.app.call_from_thread(self.show_scores, scores)
        return scores

    def show_scores(self, scores: Scores) -> None:
        if not self.is_mounted:
            return  # the screen was closed before the table was read
        self.scores = scores
        self.draw()
        if self.announce:
            self.announce = False
            self.notify(f"{len(scores.rows)} campaign(s) read.", timeout=3)

    def on_resize(self) -> None:
        super().on_resize()
        if self.wide is not None and self.wide != (self.size.width >= WIDE):
            self.draw()

    def local(self) -> Path | None:
        """The game's own saves folder when the table is read from it (no server)."""
        return None if os.environ.get(SCORES_ENV) else self.root

    # ---- drawing ------------------------------------------------------------------------
    def own(self, score: Score) -> bool:
        """Is this run saved in the game's own saves folder?"""
        try:
            here = Path(self.game.saves).resolve()
            return (self.root / score.file).resolve().parent == here
        except (OSError, RuntimeError):
            return False

    def draw(self) -> None:
        g = glyphs_for(self)
        self.wide = self.size.width >= WIDE
        player_w, company_w = WIDE_NAMES if self.wide else NARROW_NAMES
        table = self.query_one("#scores-table", DataTable)
        row = table.cursor_row
        table.clear(columns=True)
        columns = ["#", "Player", "Company", "Days", "Missions", "Credits", "Outcome"]
        if self.wide:
            columns.append("Seed")
        right = {"#", "Days", "Missions", "Credits", "Seed"}
        for name in columns:
            table.add_column(Text(name, justify="right" if name in right else "left"), key=name)
        for i, s in enumerate(self.scores.rows):
            cells = [
                str(i + 1),
                cut(s.player, player_w, g),
                cut(s.company, company_w, g),
                str(s.days),
                missions_text(s),
                f"{s.credits:,}",
                s.outcome,
            ]
            if self.wide:
                cells.append(str(s.seed))
            style = "bold" if self.own(s) else ""
            table.add_row(
                *(
                    Text(c, style=style, justify="right" if n in right else "left")
                    for n, c in zip(columns, cells, strict=True)
                ),
                key=str(i),
            )
        if self.scores.rows:
            table.move_cursor(row=min(max(row, 0), len(self.scores.rows) - 1))
        n = len(self.scores.rows)
        where = g.text(source_text(self.folder if self.folder is not None else self.local()))
        head = Text.assemble(
            ("High scores", "bold"),
            f" {g.sep} {n} campaign(s) {g.sep} {where}"
            if n
            else f" {g.sep} no campaign saves yet in {where}",
        )
        self.query_one("#scores-head", Static).update(head)
        self.draw_notes(g)
        self.show_detail()

    def draw_notes(self, g: Glyphs) -> None:
        notes = self.query_one("#scores-notes", Static)
        skipped, flagged = self.scores.notes, self.scores.flagged
        if not skipped and not flagged:
            notes.update("")
            notes.display = False
            return
        lines = []
        for items, what in (
            (skipped, "file(s) could not be read"),
            (flagged, "run(s) not scored as saved"),
        ):
            if items:
                lines.append(f"{g.warn} {len(items)} {what}:")
                lines += [f"  {note}" for note in items[:NOTES_SHOWN]]
                if len(items) > NOTES_SHOWN:
                    lines.append(f"  and {len(items) - NOTES_SHOWN} more")
        notes.update(Text(g.text("\n".join(lines))))
        notes.display = True

    def show_detail(self) -> None:
        g = glyphs_for(self)
        detail = self.query_one("#scores-detail", Static)
        table = self.query_one("#scores-table", DataTable)
        rows = self.scores.rows
        if not rows or not 0 <= table.cursor_row < len(rows):
            detail.update(Text("Start a campaign (n on the title screen): it counts here."))
            return
        s = rows[table.cursor_row]
        text = (
            f"{table.cursor_row + 1}. {s.company} by {s.player} {g.sep} seed {s.seed} {g.sep} "
            f"{s.missions_won} of {s.missions_played} missions won {g.sep} {outcome_text(s)}"
            + (f" {g.sep} optional rules {s.rules}" if s.rules else "")
        )
        detail.update(Text(g.text(text)))

    # ---- events and actions -------------------------------------------------------------
    def on_data_table_row_highlighted(self) -> None:
        self.show_detail()

    def action_reload(self) -> None:
        self.announce = True
        self.load()

    def action_back(self) -> None:
        self.app.pop_screen()
