"""The top of the engine: the one table of commands, and `step(state, command) -> Outcome`.

The base types (`Command`, `Event`, `Accepted`, `Refused`, `Outcome`) and the text form live in
`core.py`. This module imports the command families and joins their tables explicitly, in this
order: the quick battle, the battle commands, then the campaign's modules; after every accepted
command the campaign's hook closes a mission whose battle has ended. Nothing is registered as a
side effect of an import, so what `step` does never depends on which module was imported first.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from attrs import frozen

from .campaign import handlers as campaign
from .campaign import legal as campaign_legal
from .combat import actions as combat
from .combat import legal as combat_legal
from .combat import objectives, skirmish
from .combat.state import Side
from .core import (
    Accepted,
    Command,
    CommandSyntaxError,
    CommandTable,
    Event,
    Outcome,
    Refused,
    fold_with,
    format_command,
)
from .model import GameState, initial_state
from .ruleset import Ruleset

# The version of the rules the engine plays. Same seed + commands = same game only under the
# same rules version: a change that alters what a command does to a state (an AI decision, a
# ruling, the state's shape) bumps it, and saves made under an older one load from their
# snapshot (with the save format's migrations) instead of being checked by replay.
# Version 2: R14 amended, R29, R30, the enemy's withdrawal rule by difficulty on the contract
# (docs/rulings.md D23), save format 3.
# Version 3: the balance of issue 15 (docs/balance.md): called shots from Tactics 5 (BL3), the
# opening board's difficulty-1 contract (BL1), the end after 60 days without a frame that can
# deploy (BL2).
RULES_VERSION = 3

__all__ = [
    "NOBODY",
    "RULES_VERSION",
    "TABLE",
    "Accepted",
    "Actor",
    "Command",
    "CommandSyntaxError",
    "Event",
    "Outcome",
    "Refused",
    "fold",
    "format_command",
    "legal_commands",
    "parse_command",
    "refusal",
    "replay",
    "step",
    "to_act",
    "verbs",
]

#: Every command's handler and verb, and the after-step hooks, in a stated order.
TABLE = CommandTable.of(
    skirmish.HANDLERS,
    combat.HANDLERS,
    *campaign.FAMILIES,
    checks=(skirmish.CHECKS, combat.CHECKS, *campaign.CHECKS),
    after=(objectives.track, *campaign.AFTER_STEP),
)


def step(state: GameState, command: Command) -> Outcome:
    """Apply one command. Pure: the input state is never changed."""
    return TABLE.step(state, command)


def refusal(state: GameState, command: Command) -> str | None:
    """Why `step(state, command)` would refuse the command now, or None when it would accept
    it; cheap (most commands have a pure check, see `CommandTable.refusal`), for the screens'
    enabled keys."""
    return TABLE.refusal(state, command)


def fold(state: GameState, commands: Iterable[Command]) -> tuple[GameState, list[Refused]]:
    """Apply commands in order, keeping the state of each refused one unchanged."""
    return fold_with(step, state, commands)


def replay(seed: int, commands: Sequence[Command]) -> GameState:
    """Rebuild a game from its seed and the commands it accepted."""
    return fold(initial_state(seed), commands)[0]


def parse_command(line: str) -> Command:
    """Parse the text form back into a command; raise CommandSyntaxError with the reason."""
    return TABLE.parse(line)


def verbs(ruleset: Ruleset | None = None) -> tuple[str, ...]:
    """Every verb; given a `ruleset`, only the core game's and its modules' (a module's
    commands are refused with the module off, so a game under `ruleset` never offers them)."""
    return tuple(
        sorted(
            verb
            for verb, command in TABLE.verbs.items()
            if ruleset is None or not command.module or command.module in ruleset
        )
    )


# ---- who acts, and what they may do ---------------------------------------------------------
@frozen
class Actor:
    """Who must act now: nobody (`side` None: no game can go on), a side (a new game, the
    player's deployment, the campaign's decisions between battles), or one frame of a side
    (`unit`: its activation in a battle)."""

    side: Side | None = None
    unit: str | None = None

    @property
    def nobody(self) -> bool:
        return self.side is None


NOBODY = Actor()


def to_act(state: GameState) -> Actor:
    """Who must act in `state` (every driver asks this, see `players/driver.py`)."""
    campaign = state.campaign
    if campaign is not None and campaign.ended:
        return NOBODY
    battle = state.battle
    if battle is None:
        return Actor("player")  # a new game to start, or the company between battles
    if battle.phase == "over":
        return NOBODY  # a quick battle's end (a contract's battle is settled at once)
    if battle.phase == "deployment":
        return Actor("player")
    unit = battle.active_unit
    return NOBODY if unit is None else Actor(unit.side, unit.id)


def legal_commands(state: GameState, only: tuple[type[Command], ...] = ()) -> list[Command]:
    """Every command the engine would accept now, in a battle as in the campaign (with `only`,
    those of these classes); for commands with free parameters a finite, representative set
    (see `combat.legal` and `campaign.legal`). Each is accepted by `step`: the battle's are
    built by the checks, the campaign's candidates filtered by `refusal`."""
    if state.battle is not None:
        legal = combat_legal.legal_commands(state, only=only)
        return [c for c in legal if isinstance(c, only)] if only else legal
    return [c for c in campaign_legal.candidates(state, only) if refusal(state, c) is None]
