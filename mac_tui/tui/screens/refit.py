"""Refit bay (§7.1-§7.8): a frame's hardpoints by location, changes staged then confirmed.

Everything is staged here and judged by the engine: `plan_refit` prices the staged loadout
(500 credits and a day per install or removal, groups free) or says why it cannot be done,
`budget` fills the reactor panel, and confirming sends one `Refit` command. What the bay
draws is built in refit_view.py; this module holds the section, its keys and the staging.
"""

from __future__ import annotations

from collections.abc import Hashable

from attrs import evolve
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, VerticalScroll
from textual.events import Click
from textual.geometry import Size
from textual.message import Message
from textual.widget import Widget
from textual.widgets import Static

from ...campaign.commands import Refit
from ...campaign.refit import (
    RefitPlan,
    busy_reason,
    inventory_delta,
    loadout_text,
    plan_refit,
    refit_refusal,
)
from ...campaign.state import Fitting, Frame, Mount, count_of
from ...catalog import catalog
from ..glyphs import glyphs_for
from ..literal import literal
from ..widgets.dialogs import ConfirmScreen, TableChooseScreen
from ..widgets.frame_diagram import FrameDiagram
from ..widgets.kept_strips import KeptStatic
from ..widgets.section import Section
from .refit_view import (
    WEAPON_COLUMNS,
    Ref,
    Slot,
    Staging,
    budget_text,
    detail_text,
    diagram,
    frame_bar_text,
    item_at,
    occupants,
    repair_warning,
    slot_item_row,
    slots,
    step_cursor,
    weapon_row,
)


class FrameBar(KeptStatic):
    """The frame picked, with ◀ and ▶ to click through the frames."""

    class Step(Message):
        def __init__(self, delta: int) -> None:
            super().__init__()
            self.delta = delta

    def on_click(self, event: Click) -> None:
        offset = event.get_content_offset(self)
        if offset is not None:
            self.post_message(self.Step(-1 if offset.x < 4 else 1))


class RefitDetail(KeptStatic):
    """The lines under the diagram: as tall as the room the diagram leaves in its column while
    they fit (the rows below them blank, as the column's would be), so a cursor move to a stop
    whose lines wrap to another number of rows lays nothing out again (every such move laid the
    whole screen out: 0.8 ms of a 3.4 ms key at 80x24); a new text writes only the rows that
    changed (the stop's first line, say, stays)."""

    FILLS_HEIGHT = True
    REPAINTS_CHANGED_ROWS = True

    def _offer(self, container: Size, viewport: Size) -> int:
        parent = self.parent
        diagram = parent.query_one(FrameDiagram) if isinstance(parent, Widget) else None
        if diagram is None:
            return 0
        width = container.width + self.styles.gutter.width  # the diagram's: no padding
        return container.height - diagram.get_content_height(container, viewport, width)


class RefitSection(Section):
    TITLE = "Refit"
    KEY = "4"
    HINT = (
        "Arrows walk the frame, Enter fits a weapon from the inventory, g sets its fire "
        "group. Nothing is paid until c confirms."
    )
    HELP = (
        "The refit bay. ] and [ pick a frame. The arrows move over the frame's picture: up and "
        "down in a location's box and on to the head, the legs and the equipment row, left "
        "and right to the next box (S small, M medium, L large hardpoints; legs have none); "
        "Home and End go to the first and last; a click picks a slot too. Enter or i fits an "
        "item from the inventory (a table of weapons with damage, energy, damage per energy, "
        "range, accuracy and space, and slot equipment of the slot's size), e adds passive "
        "or active equipment, x or Delete takes the item out, g and G change a weapon's group "
        "(1-4, free). Changes are only staged (marked *) until c confirms them: each install "
        "or removal costs credits and a day in the refit bay (the Staged line and the "
        "confirm dialog give the sum); group changes are free and instant. u undoes the "
        "last staged change, z drops them all. The panel on the right is the reactor "
        "budget of the staged loadout: output, overload limit (150%), move energy, energy "
        "and damage per group, and a WARNING when a group (or a group plus a Move) needs "
        "more energy than the output."
    )
    BINDINGS = [
        Binding("right_square_bracket", "frame(1)", "Frame", id="refit.next_frame"),
        Binding(
            "left_square_bracket", "frame(-1)", "Prev frame", id="refit.prev_frame", show=False
        ),
        # The cursor's keys are priority bindings: Textual runs them as the key reaches the
        # app, not after it went down to the diagram and climbed back (four message hops).
        Binding("up", "move('up')", "Up", id="refit.up", show=False, priority=True),
        Binding("down", "move('down')", "Down", id="refit.down", show=False, priority=True),
        Binding("left", "move('left')", "Left", id="refit.left", show=False, priority=True),
        Binding("right", "move('right')", "Right", id="refit.right", show=False, priority=True),
        Binding("home", "ends(0)", "First", id="refit.first", show=False, priority=True),
        Binding("end", "ends(-1)", "Last", id="refit.last", show=False, priority=True),
        Binding("enter,i", "install", "Fit", id="refit.install"),
        Binding("e", "add_equipment", "Equip", id="refit.add_equipment"),
        Binding("x,delete", "remove", "Remove", id="refit.remove"),
        Binding("g", "group(1)", "Group", id="refit.group_next"),
        Binding("G", "group(-1)", "Group-", id="refit.group_prev", show=False),
        Binding("u", "undo", "Undo", id="refit.undo"),
        Binding("c", "confirm", "Confirm", id="refit.confirm"),
        Binding("z", "reset", "Reset", id="refit.reset"),
    ]
    FOOTER_DROP = ("refit.reset",)  # narrow, z is left to the help
    DEFAULT_CSS = """
    RefitSection #refit-frame { height: auto; padding: 0 1; background: $surface; }
    RefitSection #refit-body { height: 1fr; }
    RefitSection #refit-left { width: 1fr; }
    RefitSection #refit-detail { height: auto; padding: 0 1; }
    RefitSection #refit-budget { width: 27; padding: 0 1; background: $surface; }
    RefitSection #refit-budget Static { width: 1fr; }
    """

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.frame_id: str | None = None
        self.cursor: Hashable | None = None
        self.staging: dict[str, Staging] = {}

    def compose(self) -> ComposeResult:
        yield FrameBar("", id="refit-frame")
        with Horizontal(id="refit-body"):
            with VerticalScroll(id="refit-left", can_focus=False):
                yield FrameDiagram(id="refit-diagram")
                yield RefitDetail("", id="refit-detail")
            with VerticalScroll(id="refit-budget", can_focus=False):
                yield KeptStatic("", id="refit-budget-text")

    # ---- the model ----------------------------------------------------------------------
    def frame(self) -> Frame | None:
        frames = self.campaign.frames
        if not frames:
            return None
        for f in frames:
            if f.id == self.frame_id:
                return f
        self.frame_id = frames[0].id
        return frames[0]

    def staged(self, frame: Frame) -> Staging:
        s = self.staging.get(frame.id)
        if s is None or s.base != (frame.weapons, frame.equipment):
            s = self.staging[frame.id] = Staging.of(frame)
        return s

    def plan(self, frame: Frame) -> RefitPlan | str:
        s = self.staged(frame)
        return plan_refit(self.campaign, frame.id, s.weapons, s.equipment)

    def targets(self, frame: Frame) -> list[Hashable]:
        """The cursor's stops: the hardpoints, then equipment without a hardpoint."""
        out: list[Hashable] = list(slots(frame.chassis))
        for i, f in enumerate(self.staged(frame).equipment):
            if f.mount is None:
                out.append(("eq", i))
        return out

    def item_at(self, frame: Frame, key: Hashable | None) -> Ref | None:
        return item_at(frame, self.staged(frame), key)

    def work_refusal(self, frame: Frame) -> str | None:
        """Why no install or removal can be staged for this frame now."""
        return refit_refusal(self.campaign, frame.id) or busy_reason(frame)

    # ---- drawing ------------------------------------------------------------------------
    def refresh_view(self) -> None:
        if getattr(self.app, "session", None) is None or self.state.campaign is None:
            return
        frame = self.frame()
        if frame is None:
            self.query_one("#refit-frame", Static).update(
                "No frames. Buy a chassis at a market (3)."
            )
            self.query_one(FrameDiagram).show({})
            self.query_one("#refit-detail", Static).update("")
            self.query_one("#refit-budget-text", Static).update("")
            self.refresh_bindings()
            return
        targets = self.targets(frame)
        if self.cursor not in targets:
            self.cursor = targets[0] if targets else None
        self._draw_frame_bar(frame)
        self._draw_diagram(frame)
        self._draw_detail(frame)
        self._draw_budget(frame)
        self.refresh_bindings()

    def _draw_frame_bar(self, frame: Frame) -> None:
        text = frame_bar_text(self.campaign, frame, glyphs_for(self))
        self.query_one("#refit-frame", Static).update(text)

    def _draw_diagram(self, frame: Frame) -> None:
        boxes, extra = diagram(frame, self.staged(frame))
        self.query_one(FrameDiagram).show(
            boxes, cursor=self.cursor, extra=extra, extra_label="Equipment:"
        )

    def _draw_detail(self, frame: Frame) -> None:
        g = glyphs_for(self)
        text = detail_text(self.campaign, frame, self.staged(frame), self.cursor, g)
        self.query_one("#refit-detail", Static).update(text)

    def _draw_budget(self, frame: Frame) -> None:
        text = budget_text(frame, self.staged(frame), glyphs_for(self))
        self.query_one("#refit-budget-text", Static).update(text)

    # ---- legality -----------------------------------------------------------------------
    def footer_token(self) -> object:
        """What `check_action` reads besides the state: the frame, the cursor and what is
        staged for the frame (a cursor move over slots of one kind reads no key again)."""
        if getattr(self.app, "session", None) is None or self.state.campaign is None:
            return None
        frame = self.frame()
        if frame is None:
            return ()
        s = self.staged(frame)
        return (
            frame.id,
            self.cursor,
            s.base,
            tuple(s.weapons),
            tuple(s.equipment),
            bool(s.history),
        )

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        if getattr(self.app, "session", None) is None or self.state.campaign is None:
            return None
        frame = self.frame()
        if frame is None:
            return None
        if action == "frame":
            return True if len(self.campaign.frames) > 1 else None
        if action in ("move", "ends"):
            return True
        s = self.staged(frame)
        ref = self.item_at(frame, self.cursor)
        if action == "install":
            is_slot = isinstance(self.cursor, tuple) and self.cursor[0] == "slot"
            return True if is_slot and not self.work_refusal(frame) else None
        if action == "add_equipment":
            return None if self.work_refusal(frame) else True
        if action == "remove":
            return True if ref is not None and not self.work_refusal(frame) else None
        if action == "group":
            weapon = ref is not None and ref[0] == "w"
            return True if weapon and not refit_refusal(self.campaign, frame.id) else None
        if action == "reset":
            return True if s.changed else None
        if action == "undo":
            return True if s.history else None
        if action == "confirm":
            return True if s.changed and not isinstance(self.plan(frame), str) else None
        return True

    # ---- actions ------------------------------------------------------------------------
    def action_frame(self, delta: int) -> None:
        frames = self.campaign.frames
        frame = self.frame()
        if frame is None or not frames:
            return
        i = next(i for i, f in enumerate(frames) if f.id == frame.id)
        self.frame_id = frames[(i + delta) % len(frames)].id
        self.cursor = None
        self.refresh_view()

    def action_move(self, direction: str) -> None:
        """The cursor one step over the frame's picture (`refit_view.step_cursor`)."""
        frame = self.frame()
        if frame is None:
            return
        self.cursor = step_cursor(frame, self.staged(frame), self.cursor, direction)
        self._draw_cursor(frame)

    def action_ends(self, end: int) -> None:
        """Home/End: the first or the last stop (the head's first slot, the last item)."""
        frame = self.frame()
        targets = self.targets(frame) if frame is not None else []
        if frame is not None and targets:
            self.cursor = targets[end]
            self._draw_cursor(frame)

    def _draw_cursor(self, frame: Frame) -> None:
        """What a cursor move changes: the diagram, the lines under it and the keys' legality
        (the frame bar and the reactor panel do not follow the cursor)."""
        self._draw_diagram(frame)
        self._draw_detail(frame)
        self.refresh_bindings()

    def action_undo(self) -> None:
        frame = self.frame()
        if frame is None:
            return
        if not self.staged(frame).undo():
            self.say("Refused: nothing staged to undo", warning=True)
            return
        self.refresh_view()

    def on_frame_diagram_clicked(self, event: FrameDiagram.Clicked) -> None:
        self.cursor = event.key
        event.diagram.focus()
        self.refresh_view()

    def on_frame_bar_step(self, event: FrameBar.Step) -> None:
        self.action_frame(event.delta)

    def available(self, frame: Frame, kind: str, item: str) -> int:
        """How many of an item the staged loadout could still take: the inventory plus what
        the staging has taken off this frame, less what it has put on."""
        s = self.staged(frame)
        if kind == "w":
            delta = inventory_delta(
                (m.weapon for m in frame.weapons), (m.weapon for m in s.weapons)
            )
            return count_of(self.campaign.weapons, item) + delta.get(item, 0)
        delta = inventory_delta(
            (f.equipment for f in frame.equipment), (f.equipment for f in s.equipment)
        )
        return count_of(self.campaign.equipment, item) + delta.get(item, 0)

    def action_install(self) -> None:
        frame = self.frame()
        key = self.cursor
        if frame is None or not (isinstance(key, tuple) and key[0] == "slot"):
            return
        reason = self.work_refusal(frame)
        if reason:
            self.say(f"Refused: {reason}", warning=True)
            return
        _, loc, size, _n = key
        cat = catalog()
        rows: list[tuple[str, tuple[str, ...]]] = []
        for w in cat.weapons.values():
            have = self.available(frame, "w", w.id) if w.size == size else 0
            if have > 0:
                rows.append((f"w:{w.id}", weapon_row(w.id, have)))
        for e in cat.equipment.values():
            fits = e.category == "slot" and e.slot_size == size
            have = self.available(frame, "e", e.id) if fits else 0
            if have > 0:
                rows.append((f"e:{e.id}", slot_item_row(e.id, have)))
        where = cat.location(loc).name
        if not rows:
            self.say(
                f"Refused: no {size} weapon or {size} slot equipment in the inventory for the "
                f"{where} hardpoint; buy one at a market (3)",
                warning=True,
            )
            return

        def chosen(value: str | None) -> None:
            if value:
                self.stage_install(frame, key, value)

        title = f"Fit the {where} {size} hardpoint of {literal(frame.name)} with:"
        note = (
            "En: energy a shot. Dmg/en: damage per energy (free: no energy, ammo). Range: "
            "best band/longest, in hexes. Acc: accuracy. Spc: space. Equipment has no Dmg."
        )
        self.app.push_screen(TableChooseScreen(title, WEAPON_COLUMNS, rows, note), chosen)

    def stage_install(self, frame: Frame, slot: Slot, value: str) -> None:
        """Put an item (`w:id` or `e:id`) on the slot, replacing what is there."""
        s = self.staged(frame)
        s.keep()
        kind, item = value.split(":", 1)
        _, loc, _size, _n = slot
        old = self.item_at(frame, slot)
        if kind == "w":
            new = Mount(weapon=item, mount=loc, group=1)
            if old is not None and old[0] == "w":
                s.weapons[old[1]] = evolve(new, group=s.weapons[old[1]].group)
                new_ref: Ref = old
            else:
                self._take(s, old)
                s.weapons.append(new)
                new_ref = ("w", len(s.weapons) - 1)
        else:
            fitting = Fitting(equipment=item, mount=loc)
            if old is not None and old[0] == "e":
                s.equipment[old[1]] = fitting
                new_ref = old
            else:
                self._take(s, old)
                s.equipment.append(fitting)
                new_ref = ("e", len(s.equipment) - 1)
        spots = occupants(frame.chassis, s.weapons, s.equipment)
        self.cursor = next((k for k, r in spots.items() if r == new_ref), slot)
        self.refresh_view()

    @staticmethod
    def _take(s: Staging, ref: Ref | None) -> None:
        if ref is None:
            return
        if ref[0] == "w":
            del s.weapons[ref[1]]
        else:
            del s.equipment[ref[1]]

    def action_add_equipment(self) -> None:
        frame = self.frame()
        if frame is None:
            return
        reason = self.work_refusal(frame)
        if reason:
            self.say(f"Refused: {reason}", warning=True)
            return
        rows: list[tuple[str, tuple[str, ...]]] = []
        for e in catalog().equipment.values():
            have = self.available(frame, "e", e.id) if e.category != "slot" else 0
            if have > 0:
                rows.append((e.id, (e.name, e.category, str(e.energy), str(e.space), str(have))))
        if not rows:
            self.say(
                "Refused: no passive or active equipment in the inventory; buy some at a "
                "market (3) (slot equipment goes on a hardpoint: Enter on a slot)",
                warning=True,
            )
            return

        def chosen(value: str | None) -> None:
            if value:
                s = self.staged(frame)
                s.keep()
                s.equipment.append(Fitting(equipment=value))
                self.cursor = ("eq", len(s.equipment) - 1)
                self.refresh_view()

        effects = {v: f"{cells[0]}: {catalog().equipment[v].description}" for v, cells in rows}
        columns = ("Equipment", "Kind", "Energy", "Space", "Have")
        title = f"Add to {literal(frame.name)}:"
        self.app.push_screen(TableChooseScreen(title, columns, rows, details=effects), chosen)

    def action_remove(self) -> None:
        frame = self.frame()
        if frame is None:
            return
        ref = self.item_at(frame, self.cursor)
        if ref is None:
            return
        reason = self.work_refusal(frame)
        if reason:
            self.say(f"Refused: {reason}", warning=True)
            return
        s = self.staged(frame)
        s.keep()
        self._take(s, ref)
        self.refresh_view()

    def action_group(self, delta: int) -> None:
        frame = self.frame()
        if frame is None:
            return
        ref = self.item_at(frame, self.cursor)
        if ref is None or ref[0] != "w":
            return
        s = self.staged(frame)
        s.keep()
        groups = catalog().combat.loadout.weapon_groups
        m = s.weapons[ref[1]]
        s.weapons[ref[1]] = evolve(m, group=(m.group - 1 + delta) % groups + 1)
        self.refresh_view()

    def action_reset(self) -> None:
        frame = self.frame()
        if frame is not None:
            self.staging.pop(frame.id, None)
            self.refresh_view()

    def action_confirm(self) -> None:
        frame = self.frame()
        if frame is None:
            return
        s = self.staged(frame)
        plan = self.plan(frame)
        if isinstance(plan, str):
            self.say(f"Refused: {plan}", warning=True)
            return
        weapons, equipment = loadout_text(s.weapons, s.equipment)
        command = Refit(frame.id, weapons, equipment)
        if plan.group_only:
            self._send(frame, command)
            return
        lines = [f"Refit {literal(frame.name)}:"]
        lines += [f"  install {i}" for i in plan.installs]
        lines += [f"  remove {r}" for r in plan.removals]
        lines.append(f"{plan.changes} change(s): {plan.cost:,} cr,")
        lines.append(f"{plan.days} day(s) in the refit bay.")
        warning = repair_warning(self.campaign, frame, plan.days)
        if warning:
            lines.append(f"Warning: {literal(warning)}")
        lines.append("Go ahead?")

        def done(ok: bool | None) -> None:
            if ok:
                self._send(frame, command)

        self.app.push_screen(ConfirmScreen("\n".join(lines)), done)

    def _send(self, frame: Frame, command: Refit) -> None:
        if self.act(command):
            self.staging.pop(frame.id, None)
            self.refresh_view()
