"""Contracts: the mission board of this location; pick a contract, then plan the launch (payout
level, the lance) and accept it. The accepted mission opens the mission screen."""

from __future__ import annotations

from collections import Counter
from functools import partial
from typing import Any

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Container, Vertical, VerticalScroll
from textual.widgets import DataTable, Static
from textual.worker import Worker, WorkerState, get_current_worker

from ...campaign.accept import (
    accept_refusal,
    deployment_cost,
    find_contract,
    frame_deploy_refusal,
)
from ...campaign.briefing import deploy_blocker, frame_warnings, short_warning
from ...campaign.commands import Accept
from ...campaign.contracts import ContractRow, contract_rows
from ...campaign.rewards import reward_preview
from ...campaign.salvage import base_picks, scaled_picks
from ...campaign.state import Campaign, Contract, Frame
from ...catalog import catalog
from ...model import GameState
from ...players.assess import assess, peek
from ..glyphs import Glyphs, glyphs_for
from ..host import host
from ..internals import ParksChildren, focus_in_place
from ..literal import literal, rich_literal
from ..widgets.detail import DetailPane
from ..widgets.dialogs import ConfirmScreen
from ..widgets.kept_rows import same_content
from ..widgets.section import Section
from ..widgets.table import GameTable
from .contracts_view import (
    BOARD_COLUMNS,
    board_cells,
    contract_detail,
    launch_head,
    threat_cell,
    threat_text,
)
from .roster import armour_percent, frame_name


def enemy_text(classes: tuple[str, ...]) -> str:
    """`('Medium', 'Medium', 'Heavy')` -> `2 Medium, Heavy` (in the force's order)."""
    counts = Counter(classes)
    return ", ".join(f"{n} {c}" if n > 1 else c for c, n in counts.items())


def short_reason(campaign: Campaign, frame: Frame) -> str:
    """Why a frame cannot deploy, in a table cell's words (the detail line says it whole)."""
    if frame.status == "destroyed":
        return "destroyed"
    if frame.busy_days:
        return f"{'repair' if frame.status == 'repairing' else 'refit'} {frame.busy_days}d"
    if frame.status != "ready":
        return f"damaged {armour_percent(frame)}%"
    if frame.pilot is None:
        return "no pilot"
    pilot = campaign.pilot(frame.pilot)
    if pilot.status == "injured":
        return f"injured {pilot.injury_days}d"
    return "pilot KIA" if pilot.status == "kia" else "not ready"


def picks_text(n: int) -> str:
    return "no salvage" if n == 0 else f"{n} pick{'s' if n != 1 else ''}"


def show(widget: Static, content: str | Text) -> None:
    """`widget.update(content)`, unless it shows that already (the launch plan opened again,
    the same contract: no new layout of its lines)."""
    if not same_content(widget, content):
        widget.update(content)


class PayoutSlider(Static):
    """The payout level as a row of clickable steps; the chosen one bracketed and bold."""

    _shown: tuple[int, Glyphs, object] | None = None  # the level, glyphs and catalog shown

    def show(self, level: int) -> None:
        cat = catalog()
        shows = (level, glyphs_for(self), cat)
        if self._shown is not None and self._shown[:2] == shows[:2] and self._shown[2] is cat:
            return  # (the plan opened again at the same level: nothing new to parse)
        self._shown = shows
        steps = []
        for p in cat.economy.payout_level:
            if p.level == level:
                steps.append(f"[reverse bold]\\[{p.level}][/]")
            else:
                steps.append(f"[@click=set_level({p.level})] {p.level} [/]")
        chosen = cat.payout_level(level)
        factor = f"{chosen.picks_halves / 2:g}"
        g = glyphs_for(self)
        show(
            self,
            f"Payout [@click=step_down]{g.prev}[/]"
            + "".join(steps)
            + f"[@click=step_up]{g.next}[/] [b]{chosen.name}[/b]: {chosen.credit_percent}% pay, "
            f"salvage x{factor}  [dim]({g.left_key}/{g.right_key} or -/+)[/dim]",
        )

    def action_set_level(self, level: int) -> None:
        self.query_ancestor(ContractsSection).set_payout(level)

    def action_step_down(self) -> None:
        self.query_ancestor(ContractsSection).action_payout(-1)

    def action_step_up(self) -> None:
        self.query_ancestor(ContractsSection).action_payout(1)


class PlanSwitch(ParksChildren, Container):
    """The board and the launch plan, one displayed and the other parked, as the hub's
    sections are (`internals.ParksChildren`: bringing one back at the size it had is only a
    paint, no Hide, Show or Resize round; with `internals.focus_in_place`, no Blur and Focus
    round for the two tables either, nor a repaint of the whole screen for the focus)."""

    def show(self, name: str) -> None:
        for child in self.children:
            here = child.id == name
            if child.display != here:
                self.place(child, here)


class ContractsSection(Section):
    TITLE = "Contracts"
    KEY = "6"
    HINT = (
        "Start with a low difficulty and a low threat. Enter plans the launch: Space picks "
        "your lance, l launches."
    )
    HELP = (
        "The mission board of this location. Arrows pick a contract, Enter (or a click) plans "
        "its launch: ←/→ or -/+ set the payout level (credits against salvage picks), space "
        "(or Enter, or a click) adds or removes a frame from the lance (Ready frames with an "
        "active pilot, up to the lance size), l launches, Escape goes back to the board."
    )
    BINDINGS = [
        Binding(
            "left,minus",
            "payout(-1)",
            "More pay",
            key_display="←",
            id="contracts.less",
            priority=True,
        ),
        Binding(
            "right,plus,equals_sign",
            "payout(1)",
            "More salvage",
            key_display="→",
            id="contracts.more",
            priority=True,
        ),
        Binding("enter", "open", "Plan launch", id="contracts.open", priority=True),
        Binding("space", "toggle_frame", "Toggle", id="contracts.toggle"),
        Binding("l", "launch", "Launch", id="contracts.launch"),
        # priority: run as the key reaches the app while the plan is open, not after it
        # went down to the lance table and climbed back through five message queues; on the
        # board (`check_action` False) it takes its way to the hub's menu as before
        Binding("escape", "back", "Board", id="contracts.back", priority=True),
    ]
    DEFAULT_CSS = """
    ContractsSection #contracts-switcher { height: 1fr; }
    ContractsSection #board, ContractsSection #launch { height: 1fr; }
    ContractsSection #contracts { height: 4; }
    ContractsSection #contract-detail-box { height: 1fr; background: $surface; }
    ContractsSection #contract-detail { padding: 0 1; }
    ContractsSection #launch-head, ContractsSection #payout, ContractsSection #preview,
    ContractsSection #launch-threat { height: auto; padding: 0 1; }
    ContractsSection #lance { height: 1fr; }
    ContractsSection #launch-status { height: auto; padding: 0 1; text-style: bold; }
    ContractsSection #launch-status.refused { color: $warning; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.contract_id: str | None = None  # the contract being planned, None: the board
        self.level = catalog().default_payout_level().level
        self.selected: list[str] = []
        # the board's briefings drawn in this state (the same one again: the same picture)
        self._briefed_in: GameState | None = None
        self._briefings: dict[tuple[object, ...], Text] = {}
        # the state whose board is drawn with every threat known (the same again: kept)
        self._board_in: GameState | None = None
        self._lance_of: tuple[GameState | None, list[str]] = (None, [])
        # the launch plan's texts and lance rows worked out in this state, by what they show
        self._planned_in: GameState | None = None
        self._planned: dict[tuple[object, ...], Any] = {}
        # the threat worker last started: (worker, its state, the (contract, lance) it does)
        self._assessing: tuple[Worker[None], GameState, set[tuple[str, tuple[str, ...]]]] | None
        self._assessing = None

    def compose(self) -> ComposeResult:
        with PlanSwitch(id="contracts-switcher"):
            with Vertical(id="board"):
                yield GameTable(id="contracts", cursor_type="row", zebra_stripes=True)
                with VerticalScroll(id="contract-detail-box", can_focus=False):
                    yield DetailPane(id="contract-detail")
            with Vertical(id="launch") as launch:
                launch.display = False
                yield Static("", id="launch-head")
                yield PayoutSlider("", id="payout")
                yield Static("", id="preview")
                yield Static("", id="launch-threat")
                yield GameTable(id="lance", cursor_type="row", zebra_stripes=True)
                yield DetailPane(id="lance-detail", classes="detail")
                yield Static("", id="launch-status")

    def on_mount(self) -> None:
        board = self.query_one("#contracts", DataTable)
        board.add_columns(*BOARD_COLUMNS)
        lance = self.query_one("#lance", DataTable)
        lance.add_columns("Go", "Frame", "Chassis", "Pilot", "Cost", "Status")

    # ---- state --------------------------------------------------------------------------
    @property
    def planning(self) -> bool:
        return self.contract_id is not None

    def contract(self) -> Contract | None:
        if self.contract_id is None or getattr(self.app, "session", None) is None:
            return None
        return find_contract(self.campaign, self.contract_id)

    def rows(self) -> list[ContractRow]:
        """The board's rows in this state (worked out once per state: the key's check, its
        action and the plan each ask for them)."""
        memo = self.planned()
        found: list[ContractRow] | None = memo.get(("rows",))
        if found is None:
            found = memo[("rows",)] = contract_rows(self.campaign)
        return found

    def footer_token(self) -> object:
        """What `check_action` reads: the contract planned, the lance and pay chosen, the
        rows under the board's and the lance's cursors (the rows drawn from the state)."""
        return (
            self.contract_id,
            tuple(self.selected),
            self.level,
            self.query_one("#contracts", DataTable).cursor_row,
            self.query_one("#lance", DataTable).cursor_row,
        )

    def highlighted_row(self) -> ContractRow | None:
        table = self.query_one("#contracts", DataTable)
        rows = self.rows()
        if not rows or not 0 <= table.cursor_row < len(rows):
            return None
        return rows[table.cursor_row]

    def highlighted_frame(self) -> Frame | None:
        table = self.query_one("#lance", DataTable)
        frames = self.campaign.frames
        if not frames or not 0 <= table.cursor_row < len(frames):
            return None
        return frames[table.cursor_row]

    def launch_refusal(self) -> str | None:
        if self.contract_id is None:
            return "choose a contract first"
        if not self.selected:
            most = catalog().missions.lance.max_frames
            return f"no frames selected: space adds a frame to the lance (1 to {most})"
        return accept_refusal(self.campaign, self.contract_id, self.level, self.frame_ids())

    def frame_ids(self) -> list[str]:
        """The selected frames in roster order (the order they deploy in)."""
        return [f.id for f in self.campaign.frames if f.id in self.selected]

    # ---- drawing ------------------------------------------------------------------------
    def refresh_view(self) -> None:
        if getattr(self.app, "session", None) is None or self.state.campaign is None:
            return
        if self.planning and self.contract() is None:
            self.contract_id = None  # the board was posted again, or the contract taken
            if self.query_one("#lance", DataTable).has_focus:
                self.query_one("#contracts", DataTable).focus()
        self.query_one(PlanSwitch).show("launch" if self.planning else "board")
        if self.planning:
            self.draw_launch()
        else:
            self.draw_board()
        self.refresh_bindings()

    def draw_board(self) -> None:
        """The board's rows; the same state again, its threats all known when drawn (back
        from the launch plan): the rows as they are, no threat looked up or asked for."""
        state = self.state
        if self._board_in is state:
            self.show_contract_detail()
            return
        table = self.query_one("#contracts", GameTable)
        c = self.campaign
        lance = self.default_lance()
        rows = []
        all_known = True
        for r in self.rows():
            contract = find_contract(c, r.id)
            assert contract is not None
            known, assessment = self.peeked(r.id, lance)
            all_known = all_known and known
            rows.append((r.id, board_cells(r, contract, threat_cell(assessment, known))))
        table.fill(rows)  # the same rows (back from the launch plan): kept as drawn
        height = max(2, table.row_count + 1)  # the header and every row: no more, no less
        if table.styles.height is None or table.styles.height.value != height:
            table.styles.height = height
        self._board_in = state if all_known else None
        self.show_contract_detail()
        self.request_threats([(r.id, lance) for r in self.rows()])

    def show_contract_detail(self) -> None:
        detail = self.query_one("#contract-detail", DetailPane)
        r = self.highlighted_row()
        if r is None:
            days = catalog().missions.contracts.refresh_days
            detail.show(
                "No contracts on the board. A new board is posted on arrival at a location "
                f"and every {days} days."
            )
            return
        contract = find_contract(self.campaign, r.id)
        assert contract is not None
        g = glyphs_for(self)
        lance = self.default_lance()
        known, assessment = self.peeked(r.id, lance)
        if self._briefed_in is not self.state:
            self._briefed_in, self._briefings = self.state, {}
        key = (r.id, known, g)  # the state's, with its default lance
        text = self._briefings.get(key)
        if text is None:
            threat = threat_text(self.campaign, lance, assessment, known, g)
            text = g.rich(contract_detail(self.campaign, r, contract, threat, g))
            self._briefings[key] = text
        detail.show(text)  # the same text again: the pane's kept picture

    def default_lance(self) -> list[str]:
        """The frames a launch starts with: the first that can deploy and carry a weapon, up
        to a lance (an unarmed frame can still be added by hand, with a warning)."""
        state, lance = self._lance_of
        if state is not self.state:
            most = catalog().missions.lance.max_frames
            c = self.campaign
            ready = [f for f in c.frames if frame_deploy_refusal(c, f.id) is None]
            lance = [f.id for f in ready if f.weapons][:most]
            self._lance_of = (self.state, lance)
        return list(lance)

    # ---- the threat, assessed in a worker thread ------------------------------------------
    def request_threats(self, wanted: list[tuple[str, list[str]]]) -> None:
        """Assess in the background whatever of `wanted` (contract, lance) is not known yet;
        the board and panel are drawn again when it is."""
        state = self.state
        missing = [(cid, ids) for cid, ids in wanted if not self.peeked(cid, ids)[0]]
        asked = {(cid, tuple(ids)) for cid, ids in missing}
        running = self._assessing
        if (
            running is not None
            and running[0].state in (WorkerState.PENDING, WorkerState.RUNNING)
            and running[1] is state
            and asked <= running[2]
        ):
            return  # being assessed (the board drawn again meanwhile): not from scratch
        if missing:
            worker = self.run_worker(
                partial(self._assess_all, state, missing),
                thread=True,
                exclusive=True,
                group="threat",
                name="threat",
            )
            self._assessing = (worker, state, asked)

    def _assess_all(self, state: GameState, wanted: list[tuple[str, list[str]]]) -> None:
        worker = get_current_worker()
        for cid, ids in wanted:
            if worker.is_cancelled:
                return
            assess(state, cid, ids)

    def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        if event.worker.name == "threat" and event.state == WorkerState.SUCCESS:
            self.refresh_view()

    def draw_launch(self) -> None:
        contract = self.contract()
        assert contract is not None
        row = next(r for r in self.rows() if r.id == contract.id)
        c = self.campaign
        self.selected = [
            f for f in self.selected if any(fr.id == f for fr in c.frames)
        ]  # frames sold meanwhile drop out
        g = glyphs_for(self)
        memo = self.planned()
        key: tuple[object, ...] = ("head", contract.id, g)
        if key not in memo:
            memo[key] = g.rich(launch_head(row, contract, g))
        show(self.query_one("#launch-head", Static), memo[key])
        self.query_one(PayoutSlider).show(self.level)
        key = ("preview", contract.id, self.level, g)
        if key not in memo:
            memo[key] = self.preview_text(contract, g)
        show(self.query_one("#preview", Static), memo[key])
        ids = self.frame_ids()
        known, assessment = self.peeked(contract.id, ids)
        key = ("threat", contract.id, tuple(ids), known, g)
        if key not in memo:
            memo[key] = g.rich(threat_text(c, ids, assessment, known, g))
        show(self.query_one("#launch-threat", Static), memo[key])
        if not known:
            self.request_threats([(contract.id, ids)])
        self.draw_lance()

    def peeked(self, contract_id: str, ids: list[str]) -> tuple[bool, Any]:
        """`peek` of the threat of `contract_id` with `ids` in this state, kept once known
        (a known threat stays known in a state; each look hashes the lance's frames)."""
        memo = self.planned()
        key: tuple[object, ...] = ("peek", contract_id, tuple(ids))
        found = memo.get(key)
        if found is None:
            found = peek(self.state, contract_id, ids)
            if found[0]:
                memo[key] = found
        return found

    def planned(self) -> dict[tuple[object, ...], Any]:
        """What the launch plan worked out in this state, by what it shows."""
        if self._planned_in is not self.state:
            self._planned_in, self._planned = self.state, {}
        return self._planned

    def preview_text(self, contract: Contract, g: Glyphs) -> str:
        """The rewards at the pay level chosen: money and salvage picks per outcome."""
        preview = reward_preview(self.campaign, contract, self.level)
        d = contract.difficulty

        def money(key: str) -> str:
            low, high = preview[key]
            return f"{low:,}-{high:,}"

        win_picks = scaled_picks(base_picks("victory", d), self.level)
        out_picks = scaled_picks(base_picks("withdrawal", d), self.level)
        return (
            f"Victory {money('victory')} (no losses {money('victory_no_losses')}) {g.sep} "
            f"{picks_text(win_picks)}\n"
            f"Withdrawal {money('withdrawal')} {g.sep} {picks_text(out_picks)} {g.sep} "
            f"Defeat {money('defeat')}"
        )

    def draw_lance(self) -> None:
        table = self.query_one("#lance", GameTable)
        g = glyphs_for(self)
        key = ("lance", tuple(self.selected), g)
        memo = self.planned()
        if key not in memo:
            memo[key] = self.lance_rows(g)
        table.fill(memo[key])  # the lance as it was (the plan opened again): kept as drawn
        self.show_frame_detail()
        self.show_launch_status()

    def lance_rows(self, g: Glyphs) -> list[tuple[str, tuple[object, ...]]]:
        cat = catalog()
        c = self.campaign
        rows: list[tuple[str, tuple[object, ...]]] = []
        for f in c.frames:
            reason = frame_deploy_refusal(c, f.id)
            warning = short_warning(c, f.id) if reason is None else None
            if f.id in self.selected:
                mark = "[x]"
            elif reason:
                mark = " - "
            else:
                mark = "[ ]"
            ch = cat.chassis[f.chassis]
            status = (
                f"{g.no} {short_reason(c, f)}"
                if reason
                else f"{g.warn} {warning}"
                if warning
                else f"{g.ok} ready"
            )
            cost = f"{deployment_cost(c, [f.id]):,}"
            cells = (
                Text(mark),
                rich_literal(frame_name(f)),
                ch.designation,
                f.pilot or "-",
                cost,
                status,
            )
            rows.append((f.id, cells))
        return rows

    def show_frame_detail(self) -> None:
        detail = self.query_one("#lance-detail", DetailPane)
        frame = self.highlighted_frame()
        if frame is None:
            detail.show("No frames. Buy a chassis at a market (3).")
            return
        # worked out once per state and what it shows: the same text again is the pane's
        # kept picture (the plan opened again draws no detail anew)
        memo = self.planned()
        key = ("frame", frame.id, frame.id in self.selected, glyphs_for(self))
        text = memo.get(key)
        if text is None:
            text = memo[key] = self.frame_detail(frame)
        detail.show(text)

    def frame_detail(self, frame: Frame) -> str | Text:
        """What the launch plan says of `frame`, the lance table's highlighted frame."""
        c = self.campaign
        blocker = deploy_blocker(c, frame.id)
        g = glyphs_for(self)
        if blocker:
            return g.text(literal(f"{g.no} {frame.name} cannot deploy: {blocker}."))
        warnings = "".join(f" {g.warn} {w}." for w in frame_warnings(c, frame.id))
        if frame.id in self.selected:
            text = f"{g.ok} {frame.name} ({frame.pilot}) is in the lance. Space removes it."
        else:
            text = f"{frame.name} ({frame.pilot}) can deploy. Space adds it."
        return g.text(literal(text + warnings))  # plain words: names as typed

    def show_launch_status(self) -> None:
        status = self.query_one("#launch-status", Static)
        # worked out once per state and what it shows (the plan opened again: no refusal
        # nor cost asked of the engine again)
        memo = self.planned()
        key = ("status", self.contract_id, tuple(self.selected), self.level, glyphs_for(self))
        found = memo.get(key)
        if found is None:
            found = memo[key] = self.launch_status()
        text, refused = found
        show(status, text)
        status.set_class(refused, "refused")

    def launch_status(self) -> tuple[str, bool]:
        """The launch plan's last line: what a launch would cost, or why it cannot go, and
        whether it is refused."""
        reason = self.launch_refusal()
        most = catalog().missions.lance.max_frames
        ids = self.frame_ids()
        g = glyphs_for(self)
        if reason:
            return g.text(f"{g.no} Cannot launch: {literal(reason)}"), True
        else:
            cost = deployment_cost(self.campaign, ids)
            text = (
                f"{g.ok} Lance {'+'.join(ids)} ({len(ids)}/{most}) {g.sep} deployment {cost:,} "
                f"cr of {self.campaign.credits:,} {g.sep} l: launch"
            )
            if cost > self.campaign.credits:  # O11.7: deployed on credit
                debt = cost - self.campaign.credits
                text += f"\n{g.warn} On credit: the company will be {debt:,} cr in debt (O11.7)"
            warned = [w for f in ids for w in frame_warnings(self.campaign, f)]
            if warned:
                text += f"\n{g.warn} " + f"; {g.warn} ".join(warned)
            return g.text(literal(text)), False  # plain words: names as typed

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        if event.data_table.id == "contracts":
            self.show_contract_detail()
        else:
            self.show_frame_detail()
        self.refresh_bindings()

    def on_data_table_row_selected(self, event: DataTable.RowSelected) -> None:
        event.stop()
        if event.data_table.id == "contracts":
            self.open_contract(str(event.row_key.value))
        else:
            self.action_toggle_frame()

    # ---- legality -----------------------------------------------------------------------
    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if getattr(self.app, "session", None) is None or self.state.campaign is None:
            return None
        if action == "open":
            if self.planning:
                return False
            return None if self.highlighted_row() is None else True
        if action in ("payout", "back"):
            return bool(self.planning)
        if action == "toggle_frame":
            if not self.planning:
                return False
            return True if self.highlighted_frame() is not None else None
        if action == "launch":
            if not self.planning:
                return False
            return None if self.launch_refusal() else True
        return True

    # ---- actions ------------------------------------------------------------------------
    def open_contract(self, contract_id: str) -> None:
        if find_contract(self.campaign, contract_id) is None:
            return
        if contract_id != self.contract_id:
            self.selected = self.default_lance()
            self.level = catalog().default_payout_level().level
        self.contract_id = contract_id
        self.refresh_view()
        focus_in_place(self.screen, self.query_one("#lance", DataTable))

    def action_open(self) -> None:
        row = self.highlighted_row()
        if row is not None and not self.planning:
            self.open_contract(row.id)

    def action_back(self) -> None:
        self.contract_id = None
        self.refresh_view()
        focus_in_place(self.screen, self.query_one("#contracts", DataTable))

    def set_payout(self, level: int) -> None:
        levels = [p.level for p in catalog().economy.payout_level]
        if level in levels and self.planning:
            self.level = level
            self.refresh_view()

    def action_payout(self, delta: int) -> None:
        levels = [p.level for p in catalog().economy.payout_level]
        self.set_payout(max(min(levels), min(max(levels), self.level + delta)))

    def action_toggle_frame(self) -> None:
        frame = self.highlighted_frame()
        if frame is None or not self.planning:
            return
        if frame.id in self.selected:
            self.selected.remove(frame.id)
        else:
            reason = frame_deploy_refusal(self.campaign, frame.id)
            most = catalog().missions.lance.max_frames
            if reason:
                self.say(f"Refused: {reason}", warning=True)
                return
            if len(self.selected) >= most:
                self.say(f"Refused: a lance has at most {most} frames", warning=True)
                return
            self.selected.append(frame.id)
        self.draw_lance()
        self.refresh_bindings()

    def action_launch(self) -> None:
        contract = self.contract()
        if contract is None:
            return
        reason = self.launch_refusal()
        if reason:
            self.say(f"Refused: {reason}", warning=True)
            return
        ids = self.frame_ids()
        c = self.campaign
        names = ", ".join(f"{literal(c.frame(f).name)} ({c.frame(f).pilot})" for f in ids)
        level = catalog().payout_level(self.level)
        row = next(r for r in self.rows() if r.id == contract.id)
        text = (
            f"Launch contract {contract.id} at {level.name} with {names}? "
            f"Deployment costs {deployment_cost(c, ids):,} cr. "
            f"The enemy {row.enemy_withdrawal}."
        )
        warned = [w for f in ids for w in frame_warnings(c, f)]
        if warned:
            text += "\nWarning: " + literal("; ".join(warned)) + "."

        def done(ok: bool | None) -> None:
            if ok and self.act(Accept(contract.id, self.level, "+".join(ids))):
                self.contract_id = None
                self.selected = []
                self.refresh_view()
                self.query_one("#contracts", DataTable).focus()  # where the hub resumes
                host(self).show_battle()

        self.app.push_screen(ConfirmScreen(text, yes="Launch"), done)
