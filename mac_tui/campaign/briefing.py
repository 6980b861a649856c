"""What a player weighs before launching a contract (§8.3, §9, §11.2, §16.1, R18, R20):
the enemy force in brief, and what is wrong with each frame of the lance.

- `enemy_brief(contract)`: each enemy frame's chassis, class, tonnage and stock loadout in
  words, the force's tonnage and its pilots' skills (§16.1: the difficulty's table);
- `frame_warnings(campaign, frame_id)`: what a frame that *can* deploy lacks: no weapon at all
  (a bought chassis and a bought wreck arrive bare), or less than half the damage its chassis'
  stock loadouts carry (ruling W1 in docs/rulings.md);
- `deploy_blocker(campaign, frame_id)`: why a frame *cannot* deploy, in full, and the quickest
  fix with its price: a frame with 5% or more of its armour gone must be repaired first (R20),
  so one at 92% says so and what the repair (and a rush) costs.

Pure: everything comes from the campaign, the contract and the catalog.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from attrs import frozen

from ..catalog import catalog
from .accept import frame_deploy_refusal
from .repair import damage_ratio_percent, plan_repair
from .state import Campaign, Contract, Frame, Mount


@frozen
class EnemyFrameBrief:
    label: str
    designation: str
    name: str
    frame_class: str  # the class's name
    tonnage: int
    weapons: str  # `2 Heavy Laser, Autocannon-5`
    equipment: str  # `Reactive Armor, Point Defense System`, or ""


@frozen
class EnemyBrief:
    frames: tuple[EnemyFrameBrief, ...]
    tonnage: int
    gunnery: int
    piloting: int
    tactics: int

    def classes(self) -> str:
        """`Heavy, Assault`: the classes in the force's order."""
        return ", ".join(f.frame_class for f in self.frames)


def counted(names: Iterable[str]) -> str:
    """`['Medium Laser', 'Medium Laser', 'Flamer']` -> `2 Medium Laser, Flamer`."""
    counts = Counter(names)
    return ", ".join(f"{n} {name}" if n > 1 else name for name, n in counts.items())


def enemy_brief(contract: Contract) -> EnemyBrief:
    """The contract's enemy lance (its stock loadouts, R18) and its pilots (§16.1)."""
    cat = catalog()
    force = cat.enemy_force(contract.difficulty)
    frames = []
    for e in contract.enemies:
        ch = cat.chassis[e.chassis]
        loadout = next(lo for lo in cat.stock_loadouts(e.chassis) if lo.name == e.loadout)
        gear = [cat.equipment[x].name for x in loadout.equipment]
        gear += [cat.equipment[s.equipment].name for s in loadout.slots]
        frames.append(
            EnemyFrameBrief(
                label=e.label,
                designation=ch.designation,
                name=ch.name,
                frame_class=cat.classes[ch.class_].name,
                tonnage=ch.tonnage,
                weapons=counted(cat.weapons[w.weapon].name for w in loadout.weapons),
                equipment=", ".join(gear),
            )
        )
    return EnemyBrief(
        frames=tuple(frames),
        tonnage=sum(f.tonnage for f in frames),
        gunnery=force.gunnery,
        piloting=force.piloting,
        tactics=force.tactics,
    )


def lance_tonnage(campaign: Campaign, frame_ids: Iterable[str]) -> int:
    cat = catalog()
    return sum(cat.chassis[campaign.frame(f).chassis].tonnage for f in frame_ids)


# ---- the lance ------------------------------------------------------------------------------
def weapon_damage(weapons: Iterable[Mount]) -> int:
    """The damage of every weapon fired once: a plain measure of a loadout's punch."""
    cat = catalog()
    return sum(cat.weapons[m.weapon].damage for m in weapons)


def stock_damage(chassis: str) -> int:
    """The mean `weapon_damage` of the chassis' stock loadouts (R18), rounded down."""
    cat = catalog()
    loadouts = cat.stock_loadouts(chassis)
    total = sum(sum(cat.weapons[w.weapon].damage for w in lo.weapons) for lo in loadouts)
    return total // max(1, len(loadouts))


def frame_warnings(campaign: Campaign, frame_id: str) -> tuple[str, ...]:
    """W1: what a frame lacks for a fight, in words; empty when nothing is wrong."""
    frame = campaign.frame(frame_id)
    cat = catalog()
    name = cat.chassis[frame.chassis].name
    if not frame.weapons:
        return (f"{frame.name} carries no weapon: fit some in the Refit bay (4)",)
    have, stock = weapon_damage(frame.weapons), stock_damage(frame.chassis)
    if 2 * have < stock:
        return (
            f"{frame.name} is under-armed: {have} damage a volley, under half the {stock} "
            f"of a stock {name}",
        )
    return ()


def short_warning(campaign: Campaign, frame_id: str) -> str | None:
    """`unarmed` or `under-armed`, for a table cell."""
    frame = campaign.frame(frame_id)
    if not frame.weapons:
        return "unarmed"
    return "under-armed" if frame_warnings(campaign, frame_id) else None


def deploy_blocker(campaign: Campaign, frame_id: str) -> str | None:
    """Why the frame cannot deploy, whole, with the quickest fix and its price; None when it
    can."""
    reason = frame_deploy_refusal(campaign, frame_id)
    if reason is None:
        return None
    frame = campaign.frame(frame_id)
    if frame.status != "damaged" or frame.busy_days:
        return reason
    return f"{reason}: {repair_advice(campaign, frame)}"


def repair_advice(campaign: Campaign, frame: Frame) -> str:
    """R20 and §11.2-11.3 in a sentence: why a damaged frame must be repaired, and for how
    much."""
    full = catalog().chassis[frame.chassis].armor
    left = sum(frame.armor) * 100 // max(1, full)
    lost = float(damage_ratio_percent(frame))
    limit = catalog().economy.repair.ready_threshold_percent
    why = f"{lost:.0f}% of its armour is gone ({left}% left)"
    if lost < limit:
        why = "its structure or components are hit"
    quote = plan_repair(campaign, frame.id)
    if isinstance(quote, str):
        return f"{why}; it needs a repair first, and {quote}"
    text = f"{why}; a repair first: {quote.cost:,} cr, {quote.days} day(s)"
    rush = plan_repair(campaign, frame.id, rush=True)
    if not isinstance(rush, str):
        text += f" (rush {rush.cost:,} cr, {rush.days} day(s))"
    return text
