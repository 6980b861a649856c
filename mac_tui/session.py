"""A game being played: the state plus the log of accepted commands, saved and verified.

This is the driver's bookkeeping (screens, `mac-tui script`), not engine state: the engine
stays `step(state, command)`. Every accepted command is logged with a checkpoint (the start of
the state hash after it), so a replay can name the first command where it parts from the save;
`verify` compares only the end state, and walks the checkpoints only when that differs.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from attrs import frozen

from . import __version__
from .game import RULES_VERSION, Accepted, Command, Outcome, step
from .model import GameState, initial_state
from .save import SaveFile, state_hash
from .savefolder import BACKUP, DAMAGED, Loaded, create_save, load_save, write_save

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
    """The running game: `apply` a command, keep it when accepted, save at any point.

    `rules_version` and `made_by` say under which rules the log was played (a save of an
    older version goes on under its own numbers: its log is not replayable by this engine).
    The session remembers where and how far it was last saved, so saving an unchanged game
    again (SIGHUP after an autosave) writes nothing and keeps the backup of the previous state.
    """

    def __init__(
        self,
        state: GameState,
        commands: Sequence[Command] = (),
        checkpoints: Sequence[str] = (),
        *,
        rules_version: int = RULES_VERSION,
        made_by: str = __version__,
    ) -> None:
        self.seed = state.seed
        self.state = state
        self.commands: list[Command] = list(commands)
        self.checkpoints: list[str] = list(checkpoints)
        self.rules_version = rules_version
        self.made_by = made_by
        self._saved: tuple[Path, int] | None = None  # (file, commands) of the last save
        self._previous = BACKUP  # how the file now at the save path is kept when replaced

    @classmethod
    def new(cls, seed: int) -> Session:
        return cls(initial_state(seed))

    @classmethod
    def from_save(cls, save: SaveFile) -> Session:
        return cls(
            save.state,
            save.commands,
            save.checkpoints,
            rules_version=save.rules_version,
            made_by=save.made_by,
        )

    @classmethod
    def open(cls, path: Path, name: str | None = None) -> tuple[Session, Loaded]:
        """Load `path`, recovering it from its backup or temp file when it is missing or
        damaged (`Loaded.notes` say so); SaveError when nothing is usable."""
        loaded = load_save(path, name)
        session = cls.from_save(loaded.save)
        if loaded.recovered:
            # the file at `path` (if any) is damaged: keep it as .damaged, not as the backup
            session._previous = DAMAGED
        else:
            session._saved = (Path(path), len(session.commands))
        return session, loaded

    @classmethod
    def load(cls, path: Path) -> Session:
        return cls.open(path)[0]

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
            rules_version=self.rules_version,
            made_by=self.made_by,
        )

    def unsaved(self, path: Path) -> bool:
        """Has the game changed since it was last saved at `path`?"""
        return self._saved != (Path(path), len(self.commands)) or not os.path.lexists(path)

    def save(self, path: Path) -> bool:
        """Save at `path` (atomically, the previous file kept as `.bak`) unless nothing
        changed since the last save there; True when a file was written. OSError when the
        file cannot be written (the game goes on; the caller says so)."""
        path = Path(path)
        if not self.unsaved(path):
            return False
        write_save(path, self.to_save(), previous=self._previous)
        self._saved, self._previous = (path, len(self.commands)), BACKUP
        return True

    def create(self, path: Path) -> Path:
        """Save a new game at `path`, or beside it under a free name (`save.create_save`):
        an existing save is never replaced. Returns the file written."""
        written = create_save(Path(path), self.to_save())
        self._saved, self._previous = (written, len(self.commands)), BACKUP
        return written


@frozen
class Verdict:
    """`ok`: the snapshot is what the commands rebuild (or, `checked` False, the save's rules
    are older than this engine's and its log is not replayed)."""

    ok: bool
    message: str
    first_divergence: int | None = None  # 1-based command number
    checked: bool = True


def replay_save(save: SaveFile) -> tuple[GameState, Verdict | None]:
    """Refold the commands from the seed: the state they rebuild, and the verdict when one is
    refused on the way."""
    state = initial_state(save.seed)
    for i, command in enumerate(save.commands):
        outcome = step(state, command)
        if not isinstance(outcome, Accepted):
            return state, Verdict(
                False,
                f"command {i + 1} ({command.to_text()}) is refused on replay: {outcome.reason}",
                i + 1,
            )
        state = outcome.state
    return state, None


def verify(save: SaveFile) -> Verdict:
    """Does the snapshot follow from the commands (`replay --verify`)? One pass refolds the
    log and compares only the end state's hash, so the check costs what the replay costs; a
    second pass over the checkpoints runs only to name where a failing save parts from its
    log. A save of older rules is not replayed: it says which version made it."""
    if not save.current_rules:
        return Verdict(
            True,
            f"made by {save.origin()}; this mac-tui plays rules version {RULES_VERSION}, so "
            f"its {len(save.commands)} commands are not replayed: the game goes on from its "
            "snapshot",
            checked=False,
        )
    state, refused = replay_save(save)
    if refused is not None:
        return refused
    n = len(save.commands)
    if state_hash(state) == state_hash(save.state):
        return Verdict(True, f"replayed {n} commands: the state equals the snapshot")
    at = first_divergence(save)
    if at is not None:
        text = save.commands[at - 1].to_text()
        return Verdict(False, f"the game parts from the save at command {at}: {text}", at)
    return Verdict(False, f"after all {n} commands the state differs from the snapshot", n)


def first_divergence(save: SaveFile) -> int | None:
    """The 1-based number of the first command after which the replayed state's checkpoint
    differs from the save's; None when every checkpoint matches (or there are none)."""
    if not save.checkpoints:
        return None
    state = initial_state(save.seed)
    for i, command in enumerate(save.commands):
        outcome = step(state, command)
        if not isinstance(outcome, Accepted):
            return i + 1
        state = outcome.state
        if checkpoint(state) != save.checkpoints[i]:
            return i + 1
    return None
