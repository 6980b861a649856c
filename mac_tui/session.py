"""A game being played: the state plus the log of accepted commands, saved and verified.

This is the driver's bookkeeping (screens, `mac-tui script`), not engine state: the engine
stays `step(state, command)`. Every accepted command is logged with a checkpoint (the start of
the state hash after it), so a replay can name the first command where it parts from the save.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from attrs import frozen

from . import __version__
from .game import Accepted, Command, Outcome, step
from .model import GameState, initial_state
from .save import SaveFile, read_save, state_hash, write_save

CHECKPOINT_CHARS = 16
SAVES_ENV = "MAC_TUI_SAVES"


def saves_dir() -> Path:
    """$MAC_TUI_SAVES, else the platform's user data folder for mac-tui, `saves/` in it."""
    override = os.environ.get(SAVES_ENV)
    if override:
        return Path(override)
    import platformdirs

    return platformdirs.user_data_path("mac-tui", appauthor=False) / "saves"


def checkpoint(state: GameState) -> str:
    return state_hash(state)[:CHECKPOINT_CHARS]


def header_for(state: GameState) -> dict[str, Any]:
    """What a load screen shows without replaying anything."""
    header: dict[str, Any] = {"game_version": __version__, "seed": state.seed}
    c = state.campaign
    if c is not None:
        from .campaign.calendar import date_text

        header.update(
            company=c.company,
            day=c.day,
            date=date_text(c.day),
            credits=c.credits,
            missions_won=c.missions_won,
            missions_played=c.missions_played,
            ended=c.ended,
            in_battle=state.battle is not None,
        )
    elif state.battle is not None:
        b = state.battle
        when = b.result.upper() if b.result else f"round {b.round}" if b.round else "deployment"
        header.update(
            kind="skirmish",
            company=f"Quick battle (difficulty {b.difficulty})",
            date=when,
            in_battle=b.phase != "over",
        )
    return header


class Session:
    """The running game: `apply` a command, keep it when accepted, save at any point."""

    def __init__(
        self,
        state: GameState,
        commands: Sequence[Command] = (),
        checkpoints: Sequence[str] = (),
    ) -> None:
        self.seed = state.seed
        self.state = state
        self.commands: list[Command] = list(commands)
        self.checkpoints: list[str] = list(checkpoints)

    @classmethod
    def new(cls, seed: int) -> Session:
        return cls(initial_state(seed))

    @classmethod
    def from_save(cls, save: SaveFile) -> Session:
        return cls(save.state, save.commands, save.checkpoints)

    @classmethod
    def load(cls, path: Path) -> Session:
        return cls.from_save(read_save(path))

    def apply(self, command: Command) -> Outcome:
        outcome = step(self.state, command)
        if isinstance(outcome, Accepted):
            self.state = outcome.state
            self.commands.append(command)
            self.checkpoints.append(checkpoint(self.state))
        return outcome

    def to_save(self) -> SaveFile:
        return SaveFile(
            seed=self.seed,
            commands=tuple(self.commands),
            state=self.state,
            header=header_for(self.state),
            checkpoints=tuple(self.checkpoints),
        )

    def save(self, path: Path) -> None:
        write_save(path, self.to_save())


@frozen
class Verdict:
    ok: bool
    message: str
    first_divergence: int | None = None  # 1-based command number


def verify(save: SaveFile) -> Verdict:
    """Refold the commands from the seed; the result must equal the snapshot (replay --verify)."""
    state = initial_state(save.seed)
    for i, command in enumerate(save.commands):
        outcome = step(state, command)
        if not isinstance(outcome, Accepted):
            return Verdict(
                False,
                f"command {i + 1} ({command.to_text()}) is refused on replay: {outcome.reason}",
                i + 1,
            )
        state = outcome.state
        if save.checkpoints and checkpoint(state) != save.checkpoints[i]:
            return Verdict(
                False,
                f"the game parts from the save at command {i + 1}: {command.to_text()}",
                i + 1,
            )
    if state_hash(state) != state_hash(save.state):
        n = len(save.commands)
        return Verdict(False, f"after all {n} commands the state differs from the snapshot", n)
    return Verdict(True, f"replayed {len(save.commands)} commands: the state equals the snapshot")
