"""The root of the game state.

Everything that decides an outcome lives here, the RNG included, so that the same seed and the
same commands always give the same game. Static tables stay in the catalog, not in the state.
"""

from __future__ import annotations

from attrs import frozen

from ..campaign.state import Campaign
from ..combat.state import Battle
from ..dice import RngState
from ..ruleset import Ruleset


@frozen(kw_only=True)
class GameState:
    """One game: the seed it began from, its dice, the commands taken, the battle under way."""

    seed: int
    rng: RngState
    commands_applied: int = 0
    battle: Battle | None = None
    campaign: Campaign | None = None

    @property
    def ruleset(self) -> Ruleset:
        """The optional rules modules the game is played with (O0.1): fixed by the command that
        created the campaign or the quick battle, kept in `Campaign.ruleset` (which every battle
        of the campaign copies) or in the quick battle's `Battle.ruleset`."""
        if self.campaign is not None:
            return self.campaign.ruleset
        return self.battle.ruleset if self.battle is not None else ()


def initial_state(seed: int) -> GameState:
    """The state before the first command of a game started from `seed`."""
    return GameState(seed=seed, rng=RngState(seed=seed))
