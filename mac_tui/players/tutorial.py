"""The tutorial battle: a fixed quick battle (seed, difficulty, landscape) and its lessons.

Seven steps teach a battle's actions: deploying, moving into cover, firing, a called shot,
bracing, venting and withdrawing. A step is done when the player's side does it, judged from
the events of the engine's own outcomes (`done_by`), in any order; the hint shown is the first
step not yet done (`next_step`). Progress is a function of the command log (`progress`), so a
tutorial left and resumed picks up where it stood, with nothing saved beside the game.

The enemy is the ordinary AI at difficulty 1 (it withdraws before it fights to the end,
docs/rulings.md D23), on a map where cover lies a move away from the deployment zone.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Final

from attrs import frozen

from ..catalog import catalog
from ..combat.events import (
    BattleEnded,
    BattleStarted,
    Braced,
    GroupFired,
    Moved,
    Stalemate,
    Vented,
)
from ..combat.skirmish import NewSkirmish
from ..combat.state import Battle
from ..core import Event
from ..game import Accepted, Command, step
from ..model import initial_state

SEED: Final = 2847  # the map of this seed has forest a move from the deployment zone
DIFFICULTY: Final = 1
LANDSCAPE: Final = "habitable"
SAVE_NAME: Final = "tutorial.json"  # the tutorial's save in the saves folder (or beside it)


def opening() -> NewSkirmish:
    """The command that sets the tutorial's battle up (from `SEED`)."""
    return NewSkirmish(DIFFICULTY, LANDSCAPE)


@frozen
class Step:
    key: str
    title: str


# In the order the hints come (the screen words each one: tui/tutorial_hints.py).
STEPS: Final = (
    Step("deploy", "Deploy"),
    Step("cover", "Cover"),
    Step("fire", "Fire"),
    Step("called", "Called shot"),
    Step("brace", "Brace"),
    Step("vent", "Vent"),
    Step("withdraw", "Withdraw"),
)
KEYS: Final = tuple(s.key for s in STEPS)


def _in_cover(battle: Battle, event: Moved) -> bool:
    terrain = battle.map.terrain_at(event.path[-1])
    return catalog().terrain[terrain].defense > 0


def done_by(battle: Battle | None, events: Sequence[Event]) -> set[str]:
    """The steps the player's side did in one outcome's `events`; `battle` is the battle
    after them (or the last one there was) to tell sides and terrain apart."""
    if battle is None:
        return set()
    side = {u.id: u.side for u in battle.units}
    done: set[str] = set()
    for e in events:
        if isinstance(e, BattleStarted):
            done.add("deploy")
        elif isinstance(e, Moved) and side.get(e.unit) == "player" and _in_cover(battle, e):
            done.add("cover")
        elif isinstance(e, GroupFired) and side.get(e.unit) == "player" and not e.overwatch:
            done.add("called" if e.called else "fire")
        elif isinstance(e, Braced) and side.get(e.unit) == "player":
            done.add("brace")
        elif isinstance(e, Vented) and side.get(e.unit) == "player":
            done.add("vent")
        elif isinstance(e, BattleEnded) and e.result == "withdrawal":
            stalled = any(isinstance(x, Stalemate) for x in events)
            if not stalled:  # R30 ends a stalemate as a withdrawal too; nobody ordered that
                done.add("withdraw")
    return done


def next_step(done: Iterable[str]) -> Step | None:
    """The first step not yet done, or None when all are."""
    finished = set(done)
    return next((s for s in STEPS if s.key not in finished), None)


def progress(seed: int, commands: Sequence[Command]) -> frozenset[str]:
    """The steps done by a tutorial's command log (replayed from its seed)."""
    state = initial_state(seed)
    done: set[str] = set()
    last: Battle | None = None
    for command in commands:
        outcome = step(state, command)
        if not isinstance(outcome, Accepted):
            continue
        state = outcome.state
        last = state.battle or last
        done |= done_by(last, outcome.events)
    return frozenset(done)


def is_tutorial(seed: int, commands: Sequence[Command]) -> bool:
    """Whether a game is the tutorial: its seed and its opening command."""
    return seed == SEED and bool(commands) and commands[0] == opening()
