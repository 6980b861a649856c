"""The one driver: let the seated policies act until a human must act or the game ends.

`Seats` says who plays each side: a policy, or None for a human. The engine says who must act
now (`game.to_act`); `next_decision` asks that side's policy, and `drive` applies decisions one
after another through the caller's `apply` (a `Session` keeps its command log that way), until
the side to act has no policy, nobody can act (the game is over), `until(state)` holds or
`max_commands` were played. `mac-tui script` (and `auto-battle`, so the campaign autopilot's
battles too), the headless battles of `mac-tui sim` and the benchmarks run through `drive`; the
terminal game's enemy turn calls `next_decision` once per animation step and applies it itself.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from attrs import frozen

from ..combat.state import THIRD_PARTIES, Battle, Side
from ..combat.view import view_of
from ..core import Accepted, Command, Event, Outcome
from ..game import step, to_act
from ..model import GameState
from .ai.third import THIRD_PARTY
from .policy import Decision, Policy

#: Who plays each side: a policy, or None where a human plays (a side left out: a human).
Seats = Mapping[Side, Policy | None]
#: How a decision's command is applied: `game.step`, or a session's `apply` (see `drive`).
Apply = Callable[[GameState, Command], Outcome]
#: Told of every applied decision: the state before it, the decision, and its outcome.
OnDecision = Callable[[GameState, Decision, Accepted], None]

MAX_COMMANDS = 20_000


def policy_to_act(state: GameState, seats: Seats) -> Policy | None:
    """The policy seated on the side that must act now (`to_act`), or None when a human must
    act or nobody can (no game, or it is over); cheap: nothing is decided."""
    side = to_act(state).side
    if side in THIRD_PARTIES and side not in seats:  # O10.5: allies and neutrals are AI
        return THIRD_PARTY
    return None if side is None else seats.get(side)


def next_decision(state: GameState, seats: Seats) -> Decision | None:
    """The decision of the policy that must act now (`to_act`), or None when a human must act
    or nobody can (no game, or it is over). Under O8 the policy is given its side's view,
    never the state (O8.11: `view.view_of`)."""
    side = to_act(state).side
    policy = policy_to_act(state, seats)
    if policy is None or side is None:
        return None
    return policy(view_of(state, side))


@frozen
class Driven:
    """Where `drive` stopped: the state, how many commands were applied, their events."""

    state: GameState
    commands: int
    events: tuple[Event, ...]


def drive(
    state: GameState,
    seats: Seats,
    *,
    apply: Apply = step,
    max_commands: int = MAX_COMMANDS,
    until: Callable[[GameState], bool] | None = None,
    on_decision: OnDecision | None = None,
) -> Driven:
    """Apply the seated policies' decisions until a human must act, nobody can, `until(state)`
    holds or `max_commands` were applied. `apply(state, command)` must step from `state` (a
    session's `lambda _, c: session.apply(c)` does). A refused decision is a bug in the
    policy: it raises RuntimeError."""
    count = 0
    events: list[Event] = []
    while count < max_commands and not (until is not None and until(state)):
        decision = next_decision(state, seats)
        if decision is None:
            break
        outcome = apply(state, decision.command)
        if not isinstance(outcome, Accepted):
            side = to_act(state).side
            raise RuntimeError(
                f"the {side} side's policy chose a refused command "
                f"({decision.command.to_text()}): {outcome.reason}"
            )
        if on_decision is not None:
            on_decision(state, decision, outcome)
        state = outcome.state
        events.extend(outcome.events)
        count += 1
    return Driven(state, count, tuple(events))


def battle_seats(battle: Battle, policy: Policy, *, everyone: bool = False) -> Seats:
    """`policy` on every side the battle marks as AI-run (on every side with `everyone`, the
    player's "auto-resolve"); humans elsewhere. O10's third parties are left to
    `policy_to_act`, which seats the third-party AI on them (O10.5)."""
    return {
        info.side: policy if everyone or info.ai else None
        for info in battle.sides
        if info.side not in THIRD_PARTIES
    }
