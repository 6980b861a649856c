"""A game being played: the state plus the log of accepted commands, saved and verified.

This is the driver's bookkeeping (screens, `mac-tui script`), not engine state: the engine
stays `step(state, command)`. Every accepted command is logged with a checkpoint (the start of
the state hash after it), so a replay can name the first command where it parts from the save;
`verify` compares only the end state, and walks the checkpoints only when that differs. The
checkpoints of the commands just played are worked out when first asked for (`checkpoints`,
a save), not as each command is applied: a key that plays a command and records it in the
save's journal (`record`, `journal.py`) hashes no state before its frame.
"""

from __future__ import annotations

import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from attrs import frozen

from . import __version__, journal
from .game import RULES_VERSION, Accepted, Command, Event, Outcome, step
from .model import GameState, initial_state
from .save import CHECKPOINT_CHARS, SaveFile, checkpoint, state_hash
from .savefolder import BACKUP, DAMAGED, Loaded, create_save, load_save, write_save
from .savetext import SaveText

SAVES_ENV = "MAC_TUI_SAVES"
UNHASHED_KEPT = 16  # states kept for their checkpoints at most (a game saves after each)


def saves_dir() -> Path:
    """$MAC_TUI_SAVES, else the platform's user data folder for mac-tui, `saves/` in it."""
    override = os.environ.get(SAVES_ENV)
    if override:
        return Path(override)
    import platformdirs

    return platformdirs.user_data_path("mac-tui", appauthor=False) / "saves"


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
        self._checkpoints: list[str] = list(checkpoints)
        self._unhashed: list[GameState] = []  # the states whose checkpoint is still to come
        self.rules_version = rules_version
        self.made_by = made_by
        self._saved: tuple[Path, int] | None = None  # (file, commands) of the last save
        self._journaled = 0  # commands on disk at the last save's file: in it or its journal
        self._previous = BACKUP  # how the file now at the save path is kept when replaced
        self._text = SaveText()  # the state's hash and the save's text, kept part by part

    @property
    def checkpoints(self) -> list[str]:
        """The checkpoint of each command of the log (those not yet worked out, now)."""
        for state in self._unhashed:
            self._checkpoints.append(self._text.hashes.of(state)[1][:CHECKPOINT_CHARS])
        self._unhashed.clear()
        return self._checkpoints

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
            # the commands from the journal are in no save file yet: the next save writes them
            session._saved = (Path(path), len(session.commands) - loaded.journaled)
            session._journaled = len(session.commands)
        return session, loaded

    @classmethod
    def load(cls, path: Path) -> Session:
        return cls.open(path)[0]

    def apply(self, command: Command) -> Outcome:
        outcome = step(self.state, command)
        if isinstance(outcome, Accepted):
            self.state = outcome.state
            self.commands.append(command)
            self._unhashed.append(self.state)  # its checkpoint when asked for (`checkpoints`)
            if len(self._unhashed) > UNHASHED_KEPT:  # a long run that never saves
                self.checkpoints  # noqa: B018 - worked out now: no more states kept
        return outcome

    def prime(self) -> None:
        """Work out the current state's hash and its save's text now (in a pause of the
        player's): the next command's checkpoint and autosave then encode only what it
        changes; the first ones after a load would encode the whole game (some 20 ms of CPU
        for a year's campaign, `savetext`)."""
        self._text.of(self.to_save())

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
        path = path if isinstance(path, Path) else Path(path)  # (a day asks three times)
        return self._saved != (path, len(self.commands)) or not os.path.lexists(path)

    def save(self, path: Path) -> bool:
        """Save at `path` (atomically, the previous file kept as `.bak`) unless nothing
        changed since the last save there; True when a file was written. OSError when the
        file cannot be written (the game goes on; the caller says so)."""
        path = Path(path)
        if not self.unsaved(path):
            return False
        write_save(path, self.to_save(), previous=self._previous, text=self._text.of)
        self._saved, self._previous = (path, len(self.commands)), BACKUP
        journal.clear(path)  # the save holds every command now
        self._journaled = len(self.commands)
        return True

    def record(self, path: Path) -> bool:
        """Put the commands played since the last save on disk cheaply: a line each at the
        end of its journal, fsynced (`journal.append`; the whole file is for `save`, later);
        the whole file when the last save is not at `path` or is gone. True when something
        was written; OSError when it cannot be."""
        path = path if isinstance(path, Path) else Path(path)
        saved = self._saved
        if saved is None or saved[0] != path or not os.path.lexists(path):
            return self.save(path)
        done = self._journaled
        if done >= len(self.commands):
            return False
        lines = [journal.line(n, c) for n, c in enumerate(self.commands[done:], start=done)]
        fresh = done == saved[1]  # nothing journaled since the save: a new journal
        if fresh:
            known = self._checkpoints  # the save's, worked out as it was written
            mark = known[done - 1] if 0 < done <= len(known) else ""
            lines.insert(0, journal.head(self.seed, done, mark))
        journal.append(path, lines, fresh=fresh)
        self._journaled = len(self.commands)
        return True

    def create(self, path: Path) -> Path:
        """Save a new game at `path`, or beside it under a free name (`save.create_save`):
        an existing save is never replaced. Returns the file written."""
        written = create_save(Path(path), self.to_save(), text=self._text.of)
        self._saved, self._previous = (written, len(self.commands)), BACKUP
        journal.clear(written)  # one a game of that name left behind (it is not this one's)
        self._journaled = len(self.commands)
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


# ---- watching a save played back (`mac-tui replay SAVE --watch`) -----------------------------
KEEP_EVERY = 64  # the timeline keeps every 64th state; a step back refolds from the one before


@frozen
class Step:
    """Where a replay stands: the state after command `index` (0: the start), that command
    and what it did."""

    index: int
    state: GameState
    command: Command | None = None
    events: tuple[Event, ...] = ()
    before: GameState | None = None  # the state the command was given in


class Timeline:
    """A save's game rebuilt from its seed and commands under today's rules, to be walked
    forward and back. The log is folded once (`fold`), keeping every `every`th state in memory;
    the state after any command is refolded from the nearest kept one before it. It never
    writes anything: the save is only read.

    `end` is the last command that plays under today's rules (`refused` says why the next one
    does not, if one does not); `parts_at`, when the replay does not end on the save's
    snapshot, the first command after which the state's checkpoint differs from the save's
    (None: it ends where the save does, or stops at a refusal). `marks` are where the
    days turn and the battles start and end, for jumping."""

    def __init__(self, save: SaveFile, every: int = KEEP_EVERY) -> None:
        self.save = save
        self.commands = save.commands
        self.every = every
        self.kept: list[GameState] = []
        self.end = 0
        self.refused: tuple[int, str] | None = None
        self.parts_at: int | None = None
        self.days: list[int] = []  # commands after which the in-game date has moved on
        self.battles: list[int] = []  # commands after which a battle begins
        self._last: Step | None = None

    def fold(self) -> Timeline:
        """Replay the whole log once (about half a second for a year's campaign)."""
        state = initial_state(self.save.seed)
        self.kept = [state]
        for i, command in enumerate(self.commands):
            outcome = step(state, command)
            if not isinstance(outcome, Accepted):
                self.refused = (i + 1, f"{command.to_text()}: {outcome.reason}")
                break
            before, state = state, outcome.state
            index = i + 1
            self.end = index
            if index % self.every == 0:
                self.kept.append(state)
            day = state.campaign.day if state.campaign is not None else None
            if before.campaign is not None and day != before.campaign.day:
                self.days.append(index)
            if before.battle is None and state.battle is not None:
                self.battles.append(index)
        if self.refused is None and state_hash(state) != state_hash(self.save.state):
            # it parts somewhere: the checkpoints say where (a second pass, only then)
            self.parts_at = first_divergence(self.save) or self.end
        return self

    @property
    def current_rules(self) -> bool:
        return self.save.current_rules

    def notice(self) -> str:
        """What the viewer says about how faithful the replay is ('' when nothing to say)."""
        parts = []
        if not self.save.current_rules:
            parts.append(
                f"Made by {self.save.origin()}: replayed under today's rules (version "
                f"{RULES_VERSION}), it may part from what happened."
            )
        if self.parts_at is not None:
            parts.append(f"The replay parts from the save after command {self.parts_at}.")
        if self.refused is not None:
            at, why = self.refused
            parts.append(f"It stops before command {at}, refused today: {why}.")
        return " ".join(parts)

    def at(self, index: int) -> Step:
        """The state after command `index` (clamped to 0..end), with that command's events."""
        index = min(max(index, 0), self.end)
        last = self._last
        if last is not None and last.index == index:
            return last
        if index == 0:
            found = Step(0, self.kept[0])
        elif last is not None and last.index == index - 1:
            found = self._next(last.state, index)
        else:
            base = (index - 1) // self.every
            state = self.kept[base]
            for i in range(base * self.every, index - 1):
                outcome = step(state, self.commands[i])
                assert isinstance(outcome, Accepted)  # it was when folded
                state = outcome.state
            found = self._next(state, index)
        self._last = found
        return found

    def _next(self, before: GameState, index: int) -> Step:
        command = self.commands[index - 1]
        outcome = step(before, command)
        assert isinstance(outcome, Accepted)
        return Step(index, outcome.state, command, tuple(outcome.events), before)

    def next_mark(self, marks: Sequence[int], index: int, forward: bool) -> int:
        """The next (or previous) of `marks` from `index`; the end (or the start) when none."""
        if forward:
            return next((m for m in marks if m > index), self.end)
        return next((m for m in reversed(marks) if m < index), 0)
