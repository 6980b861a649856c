"""Difficulty as skill: a pilot's Tactics (§9.1, §16.1) sets how well the AI plays its frame.

The ladder (docs/rulings.md, "The battle AI"):

* Tactics 1: one action at a time (no move-then-fire plans; an action that leaves an AP is
  credited with its best group's fire from where it leaves the frame), kills and focus fire at
  half weight, no called shots, no active equipment but the Thrust Pack, an enemy's reply credited
  with half its move;
* Tactics 2: the same, with its countermeasures, uplink and barrier;
* Tactics 3: the whole activation planned, full focus fire, an enemy's reply credited with its
  whole move, called shots valued like any attack;
* Tactics 4 and up: the full planner: it plays with its lance (a target the frames still to
  act this round can finish is worth more per point of damage: focus fire across the lance).

`ai:tactics=N` (`policy_for(tactics=N)`) makes every frame of the side play at N; the plain
`ai` reads each frame's own pilot.
"""

from __future__ import annotations

from attrs import frozen

MIN_TACTICS = 1
FULL_TACTICS = 6


@frozen
class Skill:
    tactics: int
    depth: int  # actions planned ahead: 1 (the next one) or 2 (the whole activation)
    focus: float  # weight of kill chances and focus fire
    called_shots: bool
    support_equipment: bool  # countermeasures, uplink, barrier
    enemy_moves: float  # how much of an enemy's move its reply is credited with
    coordination: bool  # counts the fire of the allies still to act this round


def skill(tactics: int) -> Skill:
    """The skill of a pilot with this Tactics (values above the ladder play as its top)."""
    t = max(MIN_TACTICS, min(FULL_TACTICS, tactics))
    return Skill(
        tactics=t,
        depth=1 if t <= 2 else 2,
        focus=0.5 if t <= 2 else 1.0,
        called_shots=t >= 3,
        support_equipment=t >= 2,
        enemy_moves=1.0 if t >= 3 else 0.5,
        coordination=t >= 4,
    )
