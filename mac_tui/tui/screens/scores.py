"""High scores: every campaign of every player, ranked (see `mac_tui.server.scores`).

The table comes from `$MAC_TUI_SCORES_DIR` when it is set (the game server points it at its
data, so players see everyone's runs), else from the game's own saves folder. Nothing is
replayed: each save's header gives its row. The highlighted row's seed, date and how the run
ended are shown below the table; files that could not be read are named there too. Runs saved
in this game's own saves folder are drawn in bold. At 100 columns or more the seed gets a
column of its own and the names more room.
"""

from __future__ import annotations

import os
from pathlib import Path

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.widgets import DataTable, Footer, Static

from ...server.scores import SCORES_ENV, Score, Scores, collect, missions_text
from ..glyphs import Glyphs, glyphs_for
from .base import PALETTE_KEY_MIN_WIDTH, GameScreen

WIDE = PALETTE_KEY_MIN_WIDTH  # from this width on: the seed column, longer names
NARROW_NAMES = (10, 18)  # player, company: cut to these in 80 columns
WIDE_NAMES = (16, 28)
NOTES_SHOWN = 2


def cut(text: str, width: int, g: Glyphs) -> str:
    return g.fit(g.text(text), width).plain


def scores_folder(app_saves: Path) -> Path:
    """`$MAC_TUI_SCORES_DIR` when set, else the game's saves folder."""
    override = os.environ.get(SCORES_ENV)
    return Path(override) if override else app_saves


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

    def compose(self) -> ComposeResult:
        yield Static("", id="scores-head")
        yield DataTable(id="scores-table", cursor_type="row", zebra_stripes=True)
        yield Static("", id="scores-detail")
        yield Static("", id="scores-notes")
        yield Footer()

    @property
    def root(self) -> Path:
        return self.folder or scores_folder(Path(self.game.saves))

    def on_mount(self) -> None:
        self.load()
        self.query_one("#scores-table", DataTable).focus()

    def load(self) -> None:
        self.scores = collect(self.root)
        self.draw()

    def on_resize(self) -> None:
        super().on_resize()
        if self.wide is not None and self.wide != (self.size.width >= WIDE):
            self.draw()

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
        where = g.text(str(self.root))
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
        skipped = self.scores.notes
        if not skipped:
            notes.update("")
            notes.display = False
            return
        lines = [f"{g.warn} {len(skipped)} file(s) could not be read:"]
        lines += [f"  {note}" for note in skipped[:NOTES_SHOWN]]
        if len(skipped) > NOTES_SHOWN:
            lines.append(f"  and {len(skipped) - NOTES_SHOWN} more")
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
        )
        detail.update(Text(g.text(text)))

    # ---- events and actions -------------------------------------------------------------
    def on_data_table_row_highlighted(self) -> None:
        self.show_detail()

    def action_reload(self) -> None:
        self.load()
        self.notify(f"{len(self.scores.rows)} campaign(s) read.", timeout=3)

    def action_back(self) -> None:
        self.app.pop_screen()
