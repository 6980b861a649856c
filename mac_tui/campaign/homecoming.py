"""Frames and pilots home from a battle (R15, R16, R19, R20, §9.2, §9.4): damage carried home,
weapons lost for good, the pilots' fates, experience and injuries."""

from __future__ import annotations

import attrs

from ..catalog import catalog
from ..combat.state import Battle, Unit
from ..combat.stats import armor_split
from ..dice import PILOTS, Dice
from .repair import (
    frame_status_after_battle,
)
from .rewards import mission_xp
from .state import (
    Campaign,
    Frame,
    PilotRecord,
)


def battle_components(unit: Unit) -> int:
    """§11.2 ComponentDamageCount from a battle: reactor hits + gyro + sensors + actuator hits
    + cockpit (a cockpit hit or breach damages the cockpit, a component like the others).
    Destroyed weapons are not counted: they are lost (R19), not repaired."""
    return (
        unit.reactor_hits
        + int(unit.gyro_hit)
        + int(unit.sensor_hit)
        + sum(unit.actuator_hits)
        + int(unit.cockpit_hit or unit.cockpit_breached)
    )


def frame_home(frame: Frame, unit: Unit) -> Frame:
    """R19, R20, R15, §4.5: the frame as it comes home from the battle."""
    weapons = tuple(m for m, w in zip(frame.weapons, unit.weapons, strict=True) if not w.destroyed)
    equipment = tuple(
        f for f, e in zip(frame.equipment, unit.equipment, strict=True) if not e.destroyed
    )
    home = attrs.evolve(
        frame,
        weapons=weapons,
        equipment=equipment,
        armor=unit.armor,
        structure=unit.structure,
        components=frame.components + battle_components(unit),
    )
    if unit.destroyed:
        return attrs.evolve(home, status="destroyed", pilot=None)
    if not unit.pilot_alive:
        return attrs.evolve(home, status="damaged", pilot=None)
    return attrs.evolve(home, status=frame_status_after_battle(home))


def injury_days(dice: Dice) -> int:
    """§9.2, §4.6, R16: 3 + random 0-7 days."""
    rules = catalog().pilots.injury
    return rules.base_days + dice.between(PILOTS, 0, rules.extra_days_max)


def mission_record(
    record: PilotRecord, battle: Battle, unit: Unit, frame: Frame, result: str
) -> PilotRecord:
    """The pilot's record after flying `frame` (as `unit`) in a settled battle: one more
    mission, a victory when the contract was won, the enemy frames the unit's shots put out of
    the battle, the frame's name among those flown."""
    kills = sum(1 for u in battle.units if u.side != unit.side and u.downed_by == unit.id)
    frames = record.frames if frame.name in record.frames else (*record.frames, frame.name)
    return attrs.evolve(
        record,
        missions=record.missions + 1,
        victories=record.victories + (result == "victory"),
        kills=record.kills + kills,
        frames=frames,
    )


def bring_home(
    campaign: Campaign, battle: Battle, result: str, difficulty: int, dice: Dice, *, xp: bool = True
) -> tuple[Campaign, list[str]]:
    """Pilots' fates and XP (none when `xp` is False: O11.6's debt), frames home; the report
    lines."""
    cat = catalog()
    assert campaign.mission is not None
    lines: list[str] = []
    gained = mission_xp(result, difficulty) if xp else 0
    for unit_id, frame_id in campaign.mission.frames:
        unit = battle.unit(unit_id)
        frame = campaign.frame(frame_id)
        assert frame.pilot is not None
        pilot = campaign.pilot(frame.pilot)
        home = frame_home(frame, unit)
        if unit.destroyed:
            kia = not unit.pilot_alive or dice.chance(
                PILOTS, cat.combat.damage.destroyed_pilot_kia_chance
            )
        else:
            kia = not unit.pilot_alive  # R15: a head kill
        lost = [cat.weapons[w.weapon].name for w in unit.weapons if w.destroyed] + [
            cat.equipment[e.equipment].name for e in unit.equipment if e.destroyed
        ]
        if home.status == "destroyed":
            lines.append(f"{frame.name} ({frame.id}) was destroyed.")
        else:
            lines.append(
                f"{frame.name} ({frame.id}) comes home {home.status}: armour "
                f"{sum(home.armor)}/{sum(armor_split(cat.chassis[frame.chassis]))}, "
                f"{battle_components(unit)} component hit(s)."
            )
        if lost and home.status != "destroyed":
            lines.append(f"{frame.name} lost {', '.join(lost)} for good.")
        pilot = attrs.evolve(
            pilot, record=mission_record(pilot.record, battle, unit, frame, result)
        )
        if kia:
            pilot = attrs.evolve(pilot, status="kia", injury_days=0)
            lines.append(f"{pilot.callsign} was killed in action.")
        else:
            pilot = attrs.evolve(pilot, xp=pilot.xp + gained)
            note = f"{pilot.callsign}: +{gained} XP." if xp else f"{pilot.callsign}: no XP (debt)."
            if unit.cockpit_hit or unit.cockpit_breached:
                days = injury_days(dice)
                record = attrs.evolve(pilot.record, injuries=pilot.record.injuries + 1)
                pilot = attrs.evolve(pilot, status="injured", injury_days=days, record=record)
                note += f" Injured for {days} days."
            if unit.destroyed:
                record = attrs.evolve(pilot.record, ejections=pilot.record.ejections + 1)
                pilot = attrs.evolve(pilot, record=record)
                note += f" Ejected; no longer flies {frame.name}."
            lines.append(note)
        campaign = campaign.with_frame(home).with_pilot(pilot)
    return campaign, lines
