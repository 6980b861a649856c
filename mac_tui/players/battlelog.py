"""The battle log: one JSON object per line (docs/battle-log.md).

The first line describes the battle (map terrain per hex, every frame with chassis, pilot,
loadout, equipment and position; the optional rules, `ruleset`, when there are some); then
one line per event; the last line is the result.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from typing import Any

from ..catalog import LOCATION_ORDER
from ..combat import track
from ..combat.events import Moved
from ..combat.state import Battle, Side, Unit
from ..core import Event
from ..ruleset import format_ruleset
from ..save import CONVERTER


def _unit_record(unit: Unit) -> dict[str, Any]:
    record = {
        "id": unit.id,
        "side": unit.side,
        "label": unit.label,
        "chassis": unit.chassis,
        "pilot": CONVERTER.unstructure(unit.pilot),
        "position": None if unit.pos is None else [unit.pos.q, unit.pos.r],
        "armor": dict(zip(LOCATION_ORDER, unit.armor, strict=True)),
        "structure": dict(zip(LOCATION_ORDER, unit.structure, strict=True)),
        "weapons": [
            {"weapon": w.weapon, "mount": w.mount, "group": w.group, "ammo": w.ammo}
            for w in unit.weapons
        ],
        "equipment": [{"equipment": e.equipment, "mount": e.mount} for e in unit.equipment],
        "stance": unit.stance,
        "priority": unit.priority,
    }
    if unit.facing is not None:  # O4.1, only when the battle plays O4
        record["facing"] = unit.facing
    return record


def _features(battle: Battle) -> list[dict[str, Any]]:
    """O3.12: `map.features`, one entry per section in row-major order: its hex, kind
    (`data/structures.toml` feature id), O3.3 variant and durability."""
    return [
        {
            "hex": [s.hex.q, s.hex.r],
            "feature": s.feature,
            "variant": s.variant,
            "durability": s.durability,
        }
        for s in battle.structures
    ]


def header(battle: Battle, seed: int, policies: Mapping[Side, str] | None = None) -> dict[str, Any]:
    """The first line; `policies` (side -> the spec of the policy playing it, e.g. `ai`,
    `greedy`, `bots/mine.py:play`) is recorded when the caller names them."""
    the_map: dict[str, Any] = {
        "width": battle.map.width,
        "height": battle.map.height,
        "coordinates": "axial q,r; rows in odd-r offset order",
        "terrain": battle.map.to_rows(),
    }
    if battle.map.levels:  # O2.9: the ground levels, one digit per hex (O2 only)
        the_map["levels"] = battle.map.level_rows()
    head: dict[str, Any] = {
        "type": "battle",
        "seed": seed,
        "difficulty": battle.difficulty,
        "landscape": battle.landscape,
        "map": None if track.on(battle) else the_map,
        "sides": [CONVERTER.unstructure(s) for s in battle.sides],
        "frames": [_unit_record(u) for u in battle.units],
    }
    if battle.structures:  # O3.12, only when the battle has features
        the_map["features"] = _features(battle)
    if battle.tally is not None:  # O11.9: the objectives, hidden ones marked (O11 only)
        head["objectives"] = [CONVERTER.unstructure(o) for o in battle.objectives]
    if policies is not None:
        head["policies"] = dict(policies)
    if track.on(battle):  # O1.11: no map, the track; `position` is [p, 0] for position p
        head["track"] = True
    if battle.ruleset:  # O0.7; a core battle's line is as it always was
        head["ruleset"] = format_ruleset(battle.ruleset)
    return head


def event_record(event: Event) -> dict[str, Any]:
    data: dict[str, Any] = {"type": event.kind()}
    data.update(CONVERTER.unstructure(event))
    if isinstance(event, Moved) and event.start is not None:  # O1.11: positions on the track
        data["from"], data["to"] = data.pop("start"), data.pop("end")
    return data


def result_record(battle: Battle) -> dict[str, Any]:
    return {
        "type": "result",
        "result": battle.result,
        "rounds": battle.round,
        "frames": [
            {
                "id": u.id,
                "armor": sum(u.armor),
                "structure": sum(u.structure),
                "destroyed": u.destroyed,
                "pilot_alive": u.pilot_alive,
                "destroyed_by": u.destroyed_by,
            }
            for u in battle.units
        ],
    }


def dumps(record: dict[str, Any]) -> str:
    return json.dumps(record, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


def lines(battle_start: Battle, seed: int, events: Iterable[Event], end: Battle) -> list[str]:
    out = [dumps(header(battle_start, seed))]
    out.extend(dumps(event_record(e)) for e in events)
    out.append(dumps(result_record(end)))
    return out
