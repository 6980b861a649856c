"""What the refit bay shows (screens/refit.py holds its keys): the hardpoints and what fills
them, the staged loadout against the frame's own, the cursor's item, the cost of the staged
changes and the reactor budget. Pure: everything comes from the campaign and the staging.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from typing import cast

from attrs import define, field
from rich.text import Text

from ...campaign.refit import budget, busy_reason, plan_refit, refit_refusal
from ...campaign.state import Campaign, Fitting, Frame, Mount
from ...catalog import SIZES, catalog
from ..glyphs import Glyphs
from ..widgets.frame_diagram import BODY, HEAD, LEGS, Cell
from .roster import frame_status

Slot = tuple[str, str, str, int]  # ("slot", location, size, number among that size there)
Ref = tuple[str, int]  # ("w", index in the staged weapons) or ("e", index in the equipment)
ORDER = (HEAD, *BODY)  # the cursor's order: head, then left to right


def initials(name: str) -> str:
    """`Point Defense System` -> `PDS`: a short tag for slot equipment in a narrow box."""
    return "".join(word[0] for word in name.split()).upper()[:3]


def occupants(
    chassis_id: str, mounts: Sequence[Mount], fittings: Sequence[Fitting]
) -> dict[Slot, Ref]:
    """Which staged item fills which hardpoint: per location and size, weapons then slot
    equipment, in loadout order, fill that location's hardpoints of that size."""
    cat = catalog()
    ch = cat.chassis[chassis_id]
    queues: dict[tuple[str, str], list[Ref]] = {}
    for i, m in enumerate(mounts):
        queues.setdefault((m.mount, cat.weapons[m.weapon].size), []).append(("w", i))
    for i, f in enumerate(fittings):
        e = cat.equipment[f.equipment]
        if e.category == "slot" and f.mount is not None:
            queues.setdefault((f.mount, e.slot_size), []).append(("e", i))
    out: dict[Slot, Ref] = {}
    for (loc, size), refs in queues.items():
        for n, ref in enumerate(refs[: ch.hardpoints.of(size).count(loc)]):
            out["slot", loc, size, n] = ref
    return out


def slots(chassis_id: str) -> list[Slot]:
    """The chassis' hardpoints in display order: head, left arm ... right arm; S, M, L."""
    ch = catalog().chassis[chassis_id]
    return [
        ("slot", loc, size, n)
        for loc in ORDER
        for size in SIZES
        for n in range(ch.hardpoints.of(size).count(loc))
    ]


Loadout = tuple[tuple[Mount, ...], tuple[Fitting, ...]]


@define
class Staging:
    """A frame's loadout as staged here, the loadout it was staged from, and the staged
    loadouts before each change (`undo` steps back one)."""

    base: Loadout
    weapons: list[Mount] = field(factory=list)
    equipment: list[Fitting] = field(factory=list)
    history: list[Loadout] = field(factory=list)

    @classmethod
    def of(cls, frame: Frame) -> Staging:
        return cls((frame.weapons, frame.equipment), list(frame.weapons), list(frame.equipment))

    @property
    def changed(self) -> bool:
        return (tuple(self.weapons), tuple(self.equipment)) != self.base

    def keep(self) -> None:
        """Remember the staged loadout before a change."""
        self.history.append((tuple(self.weapons), tuple(self.equipment)))

    def undo(self) -> bool:
        """Step back one change; False when there is none."""
        if not self.history:
            return False
        weapons, equipment = self.history.pop()
        self.weapons, self.equipment = list(weapons), list(equipment)
        return True


# ---- the cursor over the picture --------------------------------------------------------------
Direction = str  # "up", "down", "left", "right"


def _columns(frame: Frame, s: Staging) -> dict[str, list[Hashable]]:
    """The cursor's stops by place in the picture: each location's hardpoints top to
    bottom, and the equipment row under the frame (`eq`)."""
    out: dict[str, list[Hashable]] = {loc: [] for loc in (HEAD, *BODY, LEGS)}
    for slot in slots(frame.chassis):
        out[slot[1]].append(slot)
    out["eq"] = [("eq", i) for i, f in enumerate(s.equipment) if f.mount is None]
    return out


def _place(columns: dict[str, list[Hashable]], key: Hashable | None) -> tuple[str, int] | None:
    for where, keys in columns.items():
        if key in keys:
            return where, keys.index(key)
    return None


def _nearest_body(columns: dict[str, list[Hashable]], start: int, step: int) -> str | None:
    """The first body location with a stop from column `start` on, going `step` (+1, -1)."""
    i = start
    while 0 <= i < len(BODY):
        if columns[BODY[i]]:
            return BODY[i]
        i += step
    return None


def _body_near(columns: dict[str, list[Hashable]], middle: int = 2) -> str | None:
    """The body location with a stop closest to column `middle` (the centre torso first)."""
    for d in range(len(BODY)):
        for i in (middle - d, middle + d):
            if 0 <= i < len(BODY) and columns[BODY[i]]:
                return BODY[i]
    return None


def step_cursor(frame: Frame, s: Staging, key: Hashable | None, direction: Direction) -> Hashable:
    """Where the cursor goes from `key` by the picture: up and down within a location's box
    and on to the box above (the head) or below (the legs, then the equipment row); left and
    right to the next box across that has hardpoints, on the same line as far as it has one.
    A step with nowhere to go stays."""
    columns = _columns(frame, s)
    here = _place(columns, key)
    if here is None:
        first = next((k for keys in columns.values() for k in keys), None)
        return first if first is not None else key
    where, row = here
    keys = columns[where]

    def at(place: str | None, line: int) -> Hashable | None:
        if place is None or not columns[place]:
            return None
        return columns[place][max(0, min(line, len(columns[place]) - 1))]

    target: Hashable | None = None
    if direction == "up":
        if row > 0:
            target = keys[row - 1]
        elif where in BODY:
            target = at(HEAD, 99)
        elif where in (LEGS, "eq"):
            target = at(_body_near(columns), 99)
    elif direction == "down":
        if row < len(keys) - 1:
            target = keys[row + 1]
        elif where == HEAD:
            target = at(_body_near(columns), 0)
        elif where in BODY:
            target = at(LEGS, 0) or at("eq", 0)
        elif where == LEGS:
            target = at("eq", 0)
    elif where in BODY:
        step = -1 if direction == "left" else 1
        target = at(_nearest_body(columns, BODY.index(where) + step, step), row)
    elif where in (HEAD, LEGS):
        side = 1 if direction == "left" else 3  # the torso beside the head or the legs
        step = -1 if direction == "left" else 1
        target = at(_nearest_body(columns, side, step), 0 if where == HEAD else 99)
    elif where == "eq":
        target = keys[max(0, min(len(keys) - 1, row + (-1 if direction == "left" else 1)))]
    return target if target is not None else key


def item_at(frame: Frame, s: Staging, key: Hashable | None) -> Ref | None:
    """The staged item at a cursor stop (a hardpoint or an equipment line), if any."""
    if isinstance(key, tuple) and key and key[0] == "eq":
        return ("e", key[1])
    if not (isinstance(key, tuple) and key and key[0] == "slot"):
        return None
    return occupants(frame.chassis, s.weapons, s.equipment).get(cast(Slot, key))


def frame_bar_text(campaign: Campaign, frame: Frame, g: Glyphs) -> Text:
    """The frame picked, its place among the frames, ◀ and ▶ to click through them."""
    cat = catalog()
    ch = cat.chassis[frame.chassis]
    frames = campaign.frames
    n = next(i for i, f in enumerate(frames) if f.id == frame.id) + 1
    status = frame_status(frame)
    text = Text()
    text.append(f"{g.prev} ", style="dim")
    text.append(f"{frame.id} {frame.name}", style="bold")
    text.append(f" {g.sep} {ch.designation} {cat.classes[ch.class_].name} {g.sep} {status}")
    text.append(f" {g.next} {n}/{len(frames)}", style="dim")
    return text


def diagram(frame: Frame, s: Staging) -> tuple[dict[str, list[Cell]], list[Cell]]:
    """The boxes of the frame diagram (hardpoints by location, what is staged marked *) and
    the equipment without a hardpoint."""
    cat = catalog()
    now = occupants(frame.chassis, frame.weapons, frame.equipment)
    then = occupants(frame.chassis, s.weapons, s.equipment)
    boxes: dict[str, list[Cell]] = {loc: [] for loc in (*ORDER, LEGS)}

    def describe(ref: Ref | None, weapons: Sequence[Mount], fits: Sequence[Fitting]) -> str:
        if ref is None:
            return ""
        if ref[0] == "w":
            m = weapons[ref[1]]
            return f"{m.weapon}:{m.group}"
        return fits[ref[1]].equipment

    for slot in slots(frame.chassis):
        _, loc, size, _n = slot
        ref = then.get(slot)
        changed = describe(ref, s.weapons, s.equipment) != describe(
            now.get(slot), frame.weapons, frame.equipment
        )
        letter = size[0].upper()
        flag = "*" if changed else " "
        if ref is None:
            cell = Cell(f"{letter}  empty", style="dim", key=slot, flag=flag)
        elif ref[0] == "w":
            m = s.weapons[ref[1]]
            w = cat.weapons[m.weapon]
            text = f"{letter} {w.abbrev:<3} g{m.group}"
            cell = Cell(text, f"{letter} {w.name}\tg{m.group}", key=slot, flag=flag)
        else:
            e = cat.equipment[s.equipment[ref[1]].equipment]
            text = f"{letter} {initials(e.name):<3} eq"
            cell = Cell(text, f"{letter} {e.name}\teq", key=slot, flag=flag)
        boxes[loc].append(cell)
    for cells in boxes.values():
        if not cells:
            cells.append(Cell("  none", style="dim"))
    base_counts = [f.equipment for f in frame.equipment if f.mount is None]
    extra: list[Cell] = []
    for i, f in enumerate(s.equipment):
        if f.mount is not None:
            continue
        new = f.equipment not in base_counts
        if not new:
            base_counts.remove(f.equipment)
        extra.append(Cell(cat.equipment[f.equipment].name, key=("eq", i), flag="*" if new else " "))
    if not extra:
        extra.append(Cell("none", style="dim"))
    return boxes, extra


def detail_text(
    campaign: Campaign, frame: Frame, s: Staging, cursor: Hashable | None, g: Glyphs
) -> Text:
    """Under the diagram: the item under the cursor, what is staged and what it costs (or
    why it cannot be), the inventory, the key to the marks."""
    text = Text()
    text.append(g.text(cursor_line(frame, s, cursor)) + "\n")
    frame_reason = refit_refusal(campaign, frame.id)
    if frame_reason:
        text.append("CANNOT REFIT: ", style="bold")
        text.append(frame_reason)
    elif not s.changed:
        busy = busy_reason(frame)
        if busy:
            text.append(f"{busy}: only weapon groups (g) can change now.")
        else:
            text.append("Nothing staged. Enter fits an item, x removes, g regroups, e equips.")
    else:
        plan = plan_refit(campaign, frame.id, s.weapons, s.equipment)
        if isinstance(plan, str):
            text.append("CANNOT CONFIRM: ", style="bold")
            text.append(f"{plan}. z resets.")
        elif plan.group_only:
            text.append("Staged: weapon group changes only (free, instant). c confirms.")
        else:
            text.append("Staged: ", style="bold")
            parts = [f"+{i}" for i in plan.installs] + [f"-{r}" for r in plan.removals]
            text.append("; ".join(parts))
            text.append(
                f" = {plan.changes} change(s): {plan.cost:,} cr, {plan.days} day(s). "
                "c confirms, u undoes, z resets."
            )
            warning = repair_warning(campaign, frame, plan.days)
            if warning:
                text.append(f"\n{g.warn} {g.text(warning)}", style="bold")
    text.append("\n" + g.text(inventory_line(campaign)), style="dim")
    text.append(
        f"\nS/M/L size {g.sep} g1-4 group {g.sep} * staged {g.sep} {g.cursor} cursor",
        style="dim",
    )
    return text


WEAPON_COLUMNS = ("Item", "Dmg", "En", "Dmg/en", "Range", "Acc", "Spc", "Have")


def weapon_row(weapon_id: str, held: int) -> tuple[str, ...]:
    """A weapon as the picker lists it: damage, energy, damage per energy, the range class
    with its best band and its maximum, accuracy, space and how many are at hand."""
    cat = catalog()
    w = cat.weapons[weapon_id]
    rc = cat.range_class(w.range)
    per = f"{w.damage / w.energy:.1f}" if w.energy else "free"
    return (
        w.name,
        str(w.damage),
        str(w.energy),
        per,
        f"{rc.name} {rc.optimal_min}-{rc.optimal_max}/{rc.max_range}",
        f"{w.accuracy}%",
        str(w.space),
        str(held),
    )


def slot_item_row(equipment_id: str, held: int) -> tuple[str, ...]:
    """Slot equipment in the weapons' columns: its energy, space and count; its effect in the
    first column."""
    e = catalog().equipment[equipment_id]
    return (e.name, "-", str(e.energy), "-", "-", "-", str(e.space), str(held))


def repair_warning(campaign: Campaign, frame: Frame, plan_days: int) -> str | None:
    """A damaged frame refitted now is in the bay `plan_days` days and cannot be repaired
    meanwhile (a frame in a bay takes no other work): say so before it happens."""
    if frame.status != "damaged":
        return None
    return (
        f"{frame.name} is damaged and takes one job at a time: this refit keeps it in the bay "
        f"{plan_days} day(s) before its repair can start, and it cannot deploy until both "
        "are done."
    )


def inventory_line(c: Campaign) -> str:
    cat = catalog()
    items = [f"{cat.weapons[w].abbrev}×{n}" for w, n in c.weapons if n > 0]
    items += [f"{cat.equipment[e].name}×{n}" for e, n in c.equipment if n > 0]
    return "Inventory: " + (", ".join(items) if items else "empty (buy at a market, 3)")


def cursor_line(frame: Frame, s: Staging, key: Hashable | None) -> str:
    """The hardpoint or item under the cursor, in words."""
    cat = catalog()
    if not isinstance(key, tuple):
        return ""
    ref = item_at(frame, s, key)
    if key[0] == "slot":
        _, loc, size, n = key
        total = cat.chassis[frame.chassis].hardpoints.of(size).count(loc)
        where = f"{cat.location(loc).abbrev} {size} hardpoint {n + 1}/{total}: "
    else:
        where = ""
    if ref is None:
        return f"▸ {where}empty · Enter fits a {key[2]} item"
    if ref[0] == "w":
        m = s.weapons[ref[1]]
        w = cat.weapons[m.weapon]
        rc = cat.range_class(w.range)
        return (
            f"▸ {where}{w.name}, group {m.group} · {w.damage} dmg · {w.energy} energy · "
            f"range {rc.name} {rc.optimal_min}-{rc.optimal_max}/{rc.max_range} · "
            f"accuracy {w.accuracy}% · space {w.space}"
        )
    e = cat.equipment[s.equipment[ref[1]].equipment]
    return f"▸ {where}{e.name} ({e.category}) · space {e.space} · {e.description}"


def budget_text(frame: Frame, s: Staging, gl: Glyphs) -> Text:
    """The reactor budget of the staged loadout (`campaign.refit.budget`)."""
    cat = catalog()
    b = budget(frame.chassis, s.weapons, s.equipment)
    text = Text()
    text.append("Reactor budget", style="bold")
    text.append(" (staged)\n" if s.changed else "\n")
    boost = f" (reactor {b.reactor} +{b.boost})" if b.boost else ""
    text.append(f"Output {b.output}{boost}\n")
    text.append(f"Overload limit {b.overload_limit} {gl.sep} Move {b.move_energy}\n")
    used = sum(h.used for h in b.hardpoints)
    total = sum(h.total for h in b.hardpoints)
    over = " OVER" if b.space_used > b.space else ""
    text.append(f"Space {b.space_used}/{b.space}{over} {gl.sep} Slots {used}/{total}\n")
    text.append("Grp Energy  Dmg Weapons\n", style="underline")
    for g in b.groups:
        names = " ".join(cat.weapons[w].abbrev for w in g.weapons) or "-"
        text.append(f" {g.group}   {g.energy:>4} {g.damage:>4} {names}\n")
    for warning in b.warnings:
        text.append(f"{gl.warn} WARNING: ", style="bold reverse")
        text.append(f"{gl.text(warning)}\n", style="bold")
    if not b.warnings:
        text.append(f"{gl.ok} every group fits the output with a Move\n", style="dim")
    return text
