"""The root of the game state.

Everything that decides an outcome lives here, the RNG included, so that the same seed and the
same commands always give the same game. Static tables stay in the catalog, not in the state.
"""

from __future__ import annotations

from attrs import frozen

from ..campaign.state import Campaign
from ..combat.state import Battle
from ..dice import RngState


@frozen(kw_only=True)
class GameState:
    """One game: the seed it began from, its dice, the commands taken, the battle under way."""

    seed: int
    rng: RngState
    commands_applied: int = 0
    battle: Battle | None = None
    campaign: Campaign | None = None


def initial_state(seed: int) -> GameState:
    """The state before the first command of a game started from `seed`."""
    return GameState(seed=seed, rng=RngState(seed=seed))
