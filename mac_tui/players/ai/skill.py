"""Difficulty as skill: a pilot's Tactics (§9.1, §16.1) sets how well the AI plays its frame.

The ladder (docs/rulings.md, "The battle AI"):

* Tactics 1: one action at a time (no move-then-fire plans; an action that leaves an AP is
  credited with its best group's fire from where it leaves the frame), kills and focus fire at
  half weight, no called shots, no active equipment but the Thrust Pack, an enemy's reply credited
  with half its move;
* Tactics 2: the same, with its countermeasures, uplink and barrier;
* Tactics 3: the whole activation planned, full focus fire, an enemy's reply credited with its
  whole move;
* Tactics 4: the lance's planner: it plays with its lance (a target the frames still to act
  this round can finish is worth more per point of damage: focus fire across the lance);
* Tactics 5: called shots too, valued like any attack (BL3), and damage on a frame's centre
  torso counted as a step toward the called shot that finishes it (`Situation.setup`), a
  kill weighed over `situation.CALLED_HORIZON` activations instead of `HORIZON`;
  reads the ground exactly in its estimates of the fire to come (each point of line of sight
  and cover, where lower Tactics round to 5 points), and follows its target priority only
  within 90% of its best plan's worth (85% below);
* Tactics 6: the same, within 95%.

`ai:tactics=N` (`policy_for(tactics=N)`) makes every frame of the side play at N; the plain
`ai` reads each frame's own pilot.

Rules version 3 moved called shots from Tactics 3 to 5 (BL3, docs/rulings.md and
docs/balance.md): aimed at the head they were most of the pilots an enemy of difficulty 2-3
killed, so those enemies no longer call shots; from difficulty 4 (Tactics 5) they do.
"""

from __future__ import annotations

from typing import Final

from attrs import frozen

from .rules import PRIORITY_WINDOW

MIN_TACTICS = 1
FULL_TACTICS = 6
CALLED_SHOTS_TACTICS = 5  # BL3: called shots from this Tactics on
COORDINATION_TACTICS = 4  # lance play from this Tactics on
#: §10.3's window by Tactics (`rules.PRIORITY_WINDOW` below): a better pilot gives up less of
#: its best plan's worth to follow its priority.
PRIORITY_WINDOWS: Final[dict[int, float]] = {5: 0.90, 6: 0.95}
#: From this Tactics the estimates of fire to come (an enemy's reply, its own outlook, the
#: follow-up of its lance) take each point of line of sight and cover as it is, instead of
#: sharing tables across positions a few points apart (`volleys.coarse`).
EXACT_FROM: Final = 5


@frozen
class Skill:
    tactics: int
    depth: int  # actions planned ahead: 1 (the next one) or 2 (the whole activation)
    focus: float  # weight of kill chances and focus fire
    called_shots: bool
    support_equipment: bool  # countermeasures, uplink, barrier
    enemy_moves: float  # how much of an enemy's move its reply is credited with
    coordination: bool  # counts the fire of the allies still to act this round
    window: float  # §10.3 priority window: the share of the best plan's value it may give up
    exact: bool  # its estimates of fire to come read the ground point by point (no rounding)


def skill(tactics: int) -> Skill:
    """The skill of a pilot with this Tactics (values above the ladder play as its top)."""
    t = max(MIN_TACTICS, min(FULL_TACTICS, tactics))
    return Skill(
        tactics=t,
        depth=1 if t <= 2 else 2,
        focus=0.5 if t <= 2 else 1.0,
        called_shots=t >= CALLED_SHOTS_TACTICS,
        support_equipment=t >= 2,
        enemy_moves=1.0 if t >= 3 else 0.5,
        coordination=t >= COORDINATION_TACTICS,
        window=PRIORITY_WINDOWS.get(t, PRIORITY_WINDOW),
        exact=t >= EXACT_FROM,
    )
