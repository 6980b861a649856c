"""The battle AI (§10): a planner that plays either side.

For the active frame it plans the whole activation (`plans.py`: every sequence of actions its
AP allow), values each plan in one currency, expected damage points (`situation.py`), applies
the rulebook's stated behaviours (`rules.py`: stances and target priorities) and plays the
plan's first command. How well it plays follows the pilot's Tactics (`skill.py`).

The policy is asked once per command (the driver asks again after each step). It keeps the
plan it made and, when the state it is asked about is exactly the one its last command led to
(a move, a brace: anything without dice), plays the plan's next command instead of planning
again (its note says which step); after a shot it looks at what the dice did and plans again.

Every decision carries its best options with their values and what each is made of
(`Decision.why`), which the battle log keeps and `explain.py` puts into words. Withdrawal is
not a choice here: an AI side withdraws by its threshold at the end of a round (§10.4, R14).
"""

from __future__ import annotations

from attrs import frozen

from ...combat import track
from ...combat.actions import auto_positions
from ...combat.commands import (
    AutoDeploy,
    CalledShot,
    EndActivation,
    FireGroup,
    Hold,
    StartBattle,
)
from ...combat.state import Battle
from ...combat.view import view_of
from ...core import Accepted, Command
from ...game import refusal, step, to_act
from ...model import GameState
from ..policy import Decision, Option, Policy
from .choice import choose
from .fog import presume
from .formation import deployment_command, dodge_command, free_command, with_breach
from .objectives import demolition_shot
from .orient import orient
from .plan_search import all_plans
from .plan_types import Plan
from .plans import Planner
from .reaction import cone_order, weigh_cones
from .situation import Situation
from .skill import FULL_TACTICS, skill
from .structures import smoke_cover, structure_shot

__all__ = ["FULL_TACTICS", "decide", "plan_activation", "policy_for"]

TOP_OPTIONS = 5
#: The note of a decision made after the plan's command was refused (a bug in the planner's
#: model of the rules; the tests look for it).
REPLANNED = "replanned: its plan was refused"


@frozen
class Planned:
    """What the planner chose and why: the plan it plays, then the best of the others, each
    with its parts (the cover's share split out)."""

    shown: tuple[Plan, ...]
    note: str

    @property
    def chosen(self) -> Plan:
        return self.shown[0]


def plan_activation(state: GameState, tactics: int | None = None) -> Planned:
    """Plan the active frame's activation (its pilot's Tactics unless `tactics` is given)."""
    battle = state.battle
    assert battle is not None
    unit = battle.active_unit
    if unit is None:
        raise ValueError("no frame is acting")
    level = skill(unit.pilot.tactics if tactics is None else tactics)
    battle = presume(battle, unit.side)  # O8: never-seen enemies where they deployed
    planner = Planner(Situation(battle, unit, level))
    plans = weigh_cones(all_plans(planner), battle, unit, planner.w_received)  # O6.9
    chosen, ranked = choose(plans, unit, {u.id: u for u in battle.units}, level.window)
    shown = (chosen, *[p for p in ranked if p is not chosen])[:TOP_OPTIONS]
    note = f"{unit.id} {unit.stance} {unit.priority} tactics {level.tactics}"
    return Planned(shown, note)


def _decision(planned: Planned, command: Command, note: str) -> Decision:
    shown = planned.shown
    return Decision(
        command,
        tuple((p.text(), p.value) for p in shown),
        note=planned.note + note,
        why=tuple(Option(tuple(c.to_text() for c in p.commands), p.value, p.parts) for p in shown),
    )


class _Memory:
    """The plan being played: the state its next command is for, and what is left of it."""

    __slots__ = ("expect", "planned", "rest")

    def __init__(self) -> None:
        self.expect: GameState | None = None
        self.planned: Planned | None = None
        self.rest: tuple[Command, ...] = ()


def battle_of(state: GameState) -> Battle:
    assert state.battle is not None
    return state.battle


def _deployment(state: GameState) -> Decision | None:
    battle = state.battle
    if battle is None or battle.phase == "over":
        raise ValueError("no battle to decide in")
    if battle.phase == "deployment":
        if auto_positions(battle):
            return Decision(AutoDeploy(), note="deploy")
        o9 = deployment_command(state)  # O9.11: commanders and the standing order
        if o9 is not None:
            return Decision(o9, note="commanders and formation (O9)")
        return Decision(StartBattle(), note="start")
    return None


def _view(state: GameState) -> GameState:
    """O8.11: the acting side's view of `state` (the state itself with O8 off)."""
    side = to_act(state).side
    return state if side is None else view_of(state, side)


def policy_for(tactics: int | None = None) -> Policy:
    """The planner as a policy: every frame at its own pilot's Tactics, or all at `tactics`
    (`ai:tactics=N`)."""
    memory = _Memory()

    def decide(state: GameState) -> Decision:
        state = _view(state)  # O8.11: the side's view, never the state
        early = _deployment(state)
        if early is not None:
            return early
        note = ""
        free = free_command(state)  # O9.11: orders and abilities at 0 AP, before planning
        if free is not None:
            memory.expect, memory.planned, memory.rest = None, None, ()
            return Decision(free[0], note=free[1].lstrip(", "))
        if memory.expect is not None and memory.rest and state == memory.expect:
            command, rest = memory.rest[0], memory.rest[1:]
            planned = memory.planned
            assert planned is not None
            done = len(planned.chosen.commands) - len(rest)
            note = f", step {done} of its plan"
        else:
            planned = plan_activation(state, tactics)
            command, rest = planned.chosen.commands[0], planned.chosen.commands[1:]
        command, rest, turned = orient(state, command, rest)  # O4.11: facing and arcs
        note += turned
        if refusal(state, command) is not None:  # the model erred: plan afresh, at worst end
            planned = plan_activation(state, tactics)
            command = next(
                (p.commands[0] for p in planned.shown if refusal(state, p.commands[0]) is None),
                EndActivation(),
            )
            rest = ()
            note = f", {REPLANNED}"
        command = with_breach(state, command)  # O9.11: Breach Shot with its biggest group
        dodge = dodge_command(state) if isinstance(command, EndActivation) else None
        if dodge is not None:  # O9.11: Impossible Turn with its last AP
            command, rest, note = dodge, (), note + ", Impossible Turn (O9.11)"
        elif isinstance(command, EndActivation):  # O11.10 OB6, O3.13: a wall before the enemy
            goal = demolition_shot(state)
            shot = structure_shot(state) if goal is None else None
            if goal is not None:
                command, rest, note = goal, (), note + ", fires at the marked building (O11.10)"
            elif shot is not None:
                command, rest, note = shot, (), note + ", fires at a structure (O3.13)"
            else:
                cloud = smoke_cover(state)
                if cloud is not None:
                    command, rest, note = cloud, (), note + ", smokes its hex (O3.10)"
        cone = cone_order(state, command)  # O6.9: it cannot fire any more this activation
        if cone is not None:
            command, rest, note = cone, (), note + ", arms a reaction cone (O6.9)"
        if isinstance(command, EndActivation) and track.on(battle_of(state)):
            command = Hold()  # O1.4: ending in place on the track is a Hold
        memory.expect, memory.planned, memory.rest = None, planned, ()
        if rest and not isinstance(command, (FireGroup, CalledShot)):
            outcome = step(state, command)
            if isinstance(outcome, Accepted):
                memory.expect, memory.rest = outcome.state, rest
        return _decision(planned, command, note)

    return decide


#: The AI as every frame's own pilot plays it (`ai`).
decide: Policy = policy_for()
