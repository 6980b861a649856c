"""The engine core: commands, events, outcomes, tables of handlers and the one-line text form.

Every game action is a **command**: a small frozen value with a `verb` and a one-line text form.
A **handler** is a pure function `(state, command) -> Outcome`: `Accepted(state, events)` with
the new state and the events that explain it, or `Refused(reason)`, in which case the caller
keeps the old state (it is never changed).

The rules modules import these types from here (never from `game.py`, the top of the engine).
Each family of commands exports its own table (`HANDLERS`, a dict literal); `game.py` imports
the families and joins them, with the after-step hooks, into one `CommandTable`.
"""

from __future__ import annotations

import shlex
import types
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any, ClassVar, TypeAlias, get_args, get_origin, get_type_hints

import attrs
from attrs import frozen

from .hexgrid import Hex
from .model import GameState


class Command:
    """Base of every command. Subclasses are `@frozen` attrs classes with a `verb`."""

    verb: ClassVar[str] = ""
    #: The optional rules module (O0) whose command this is; "" for the core game's.
    module: ClassVar[str] = ""

    def to_text(self) -> str:
        return format_command(self)


@frozen
class Event:
    """Base of every event: something that happened, as plain data for logs and screens."""

    def kind(self) -> str:
        return type(self).__name__

    def describe(self) -> str:
        return self.kind()


@frozen
class Accepted:
    state: GameState
    events: tuple[Event, ...] = ()

    @property
    def accepted(self) -> bool:
        return True


@frozen
class Refused:
    reason: str

    @property
    def accepted(self) -> bool:
        return False


Outcome: TypeAlias = Accepted | Refused
Handler: TypeAlias = Callable[[GameState, Any], Outcome]
Handlers: TypeAlias = Mapping[type[Command], Handler]
#: A pure check: the reason the command's handler would refuse it now, or None (no stepping).
Check: TypeAlias = Callable[[GameState, Any], str | None]
Checks: TypeAlias = Mapping[type[Command], Check]
AfterHook: TypeAlias = Callable[[GameState, tuple[Event, ...]], tuple[GameState, tuple[Event, ...]]]


# ---- the table of handlers ---------------------------------------------------------------
@frozen
class CommandTable:
    """Which handler runs each command class, the verbs of the text form, the pure checks that
    say why a command would be refused without running it, and the pure follow-ups run after
    every accepted command (in order). Built once, explicitly, by `game.py`; a test may build
    its own (`extended`)."""

    handlers: Mapping[type[Command], Handler]
    verbs: Mapping[str, type[Command]]
    checks: Mapping[type[Command], Check]
    after: tuple[AfterHook, ...] = ()

    @classmethod
    def of(
        cls,
        *families: Handlers,
        checks: Sequence[Checks] = (),
        after: Sequence[AfterHook] = (),
    ) -> CommandTable:
        """Join the families' tables; a command class or verb claimed twice, or a check of a
        command nobody handles, is an error."""
        handlers: dict[type[Command], Handler] = {}
        verbs: dict[str, type[Command]] = {}
        for family in families:
            for command, handler in family.items():
                if not command.verb:
                    raise TypeError(f"{command.__name__} has no verb")
                if command in handlers:
                    raise TypeError(f"{command.__name__} has two handlers")
                if command.verb in verbs:
                    owner = verbs[command.verb].__name__
                    raise TypeError(f"verb {command.verb!r} already belongs to {owner}")
                handlers[command] = handler
                verbs[command.verb] = command
        joined: dict[type[Command], Check] = {}
        for family_checks in checks:
            for command, check in family_checks.items():
                if command not in handlers or command in joined:
                    raise TypeError(f"{command.__name__}: a check needs one handler and one check")
                joined[command] = check
        return cls(
            types.MappingProxyType(handlers),
            types.MappingProxyType(verbs),
            types.MappingProxyType(joined),
            tuple(after),
        )

    def extended(self, *families: Handlers) -> CommandTable:
        """This table with more families (the checks and hooks kept)."""
        return CommandTable.of(self.handlers, *families, checks=(self.checks,), after=self.after)

    def refusal(self, state: GameState, command: Command) -> str | None:
        """Why `step(state, command)` would refuse, or None when it would accept: the command's
        check when it has one (no stepping), else its handler run once (no after-step hooks:
        they never refuse)."""
        handler = self.handlers.get(type(command))
        if handler is None:
            return f"unknown command: {type(command).__name__}"
        check = self.checks.get(type(command))
        if check is not None:
            return check(state, command)
        outcome = handler(state, command)
        return outcome.reason if isinstance(outcome, Refused) else None

    def step(self, state: GameState, command: Command) -> Outcome:
        """Apply one command. Pure: the input state is never changed."""
        handler = self.handlers.get(type(command))
        if handler is None:
            return Refused(f"unknown command: {type(command).__name__}")
        outcome = handler(state, command)
        if isinstance(outcome, Accepted):
            new = attrs.evolve(outcome.state, commands_applied=state.commands_applied + 1)
            events = outcome.events
            for hook in self.after:
                new, events = hook(new, events)
            return Accepted(new, events)
        return outcome

    def parse(self, line: str) -> Command:
        """Parse the text form back into a command; raise CommandSyntaxError with the reason."""
        try:
            tokens = shlex.split(line, comments=True)
        except ValueError as exc:
            raise CommandSyntaxError(f"cannot split {line!r}: {exc}") from None
        if not tokens:
            raise CommandSyntaxError("empty command")
        verb, rest = tokens[0], tokens[1:]
        cls = self.verbs.get(verb)
        if cls is None:
            known = ", ".join(sorted(self.verbs))
            raise CommandSyntaxError(f"unknown command {verb!r} (known: {known})")
        return build_command(cls, rest)


def fold_with(
    step: Callable[[GameState, Command], Outcome], state: GameState, commands: Iterable[Command]
) -> tuple[GameState, list[Refused]]:
    """Apply commands in order, keeping the state of each refused one unchanged."""
    refusals: list[Refused] = []
    for command in commands:
        outcome = step(state, command)
        if isinstance(outcome, Accepted):
            state = outcome.state
        else:
            refusals.append(outcome)
    return state, refusals


# ---- text form ---------------------------------------------------------------------------
YES = ("yes", "y", "true", "on", "rush")
NO = ("no", "n", "false", "off", "normal")


class CommandSyntaxError(ValueError):
    """A command line that does not parse; the message says why."""


def _format_value(value: object) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, Hex):
        return f"{value.q},{value.r}"
    if value is None:
        return "-"
    if isinstance(value, tuple):
        return "+".join(_format_value(v) for v in value) or "-"
    return str(value)


#: The metadata key of a command field written as an option, `--NAME VALUE` (`flag_field`).
FLAG = "mac_tui.flag"


def flag_field(name: str, default: Any = "") -> Any:
    """A text field of a command written `--NAME VALUE` after the positional fields, and only
    when it is not at its default (so the text of a command without it is unchanged); parsed
    from `--NAME VALUE` anywhere after the verb. Declare it after every positional field."""
    return attrs.field(default=default, metadata={FLAG: name})


def _flag(field: attrs.Attribute[Any]) -> str | None:
    name: str | None = field.metadata.get(FLAG)
    return name


def format_command(command: Command) -> str:
    """`verb arg arg ... [--flag value]`: fields in declaration order, quoted where needed;
    a flag field only when it is not at its default."""
    parts = [type(command).verb]
    for field in attrs.fields(type(command)):  # type: ignore[arg-type]
        value = getattr(command, field.name)
        flag = _flag(field)
        if flag is None:
            parts.append(_format_value(value))
        elif value != field.default:
            parts.extend((f"--{flag}", _format_value(value)))
    return shlex.join(parts)


def parse_value(hint: Any, token: str, name: str) -> Any:
    """One field of a command line, by its declared type (bool, int, Hex, str, tuples of them
    joined by `+`, `-` for None or an empty tuple)."""
    origin = get_origin(hint)
    args: tuple[Any, ...] = get_args(hint)
    if origin is tuple:
        if token == "-":
            return ()
        return tuple(parse_value(args[0], t, name) for t in token.split("+"))
    if type(None) in args:  # Optional[X]
        if token == "-":
            return None
        inner = next(a for a in args if a is not type(None))
        return parse_value(inner, token, name)
    if hint is bool:
        word = token.lower()
        if word in YES:
            return True
        if word in NO:
            return False
        raise CommandSyntaxError(f"{name}: expected yes or no, got {token!r}")
    if hint is int:
        try:
            return int(token)
        except ValueError:
            raise CommandSyntaxError(f"{name}: expected a whole number, got {token!r}") from None
    if hint is Hex:
        try:
            q, r = (int(x) for x in token.split(","))
        except ValueError:
            raise CommandSyntaxError(f"{name}: expected a hex as q,r, got {token!r}") from None
        return Hex(q, r)
    return token


_HINTS: dict[type[Command], dict[str, Any]] = {}


def _hints(cls: type[Command]) -> dict[str, Any]:
    """The field types of a command class, resolved once (saves parse thousands of lines)."""
    hints = _HINTS.get(cls)
    if hints is None:
        hints = _HINTS[cls] = get_type_hints(cls)
    return hints


def build_command(cls: type[Command], tokens: Sequence[str]) -> Command:
    """A command of class `cls` from the tokens after its verb."""
    every = attrs.fields(cls)  # type: ignore[arg-type]
    hints = _hints(cls)
    flags = {_flag(f): f for f in every if _flag(f) is not None}
    fields = [f for f in every if _flag(f) is None]
    values: dict[str, Any] = {}
    positional: list[str] = []
    rest = list(tokens)
    while rest:
        token = rest.pop(0)
        flag = flags.get(token[2:]) if token.startswith("--") else None
        if flag is None:
            positional.append(token)
            continue
        if not rest:
            raise CommandSyntaxError(f"{cls.verb}: {token} needs a value")
        if flag.name in values:
            raise CommandSyntaxError(f"{cls.verb}: {token} given twice")
        values[flag.name] = parse_value(hints[flag.name], rest.pop(0), flag.name)
    required = [f for f in fields if f.default is attrs.NOTHING]
    if not len(required) <= len(positional) <= len(fields):
        options = [f"[--{n} {f.name.upper()}]" for n, f in flags.items()]
        names = " ".join([f.name.upper() for f in fields] + options)
        raise CommandSyntaxError(f"usage: {cls.verb} {names}".rstrip())
    values.update(
        {
            f.name: parse_value(hints[f.name], token, f.name)
            for f, token in zip(fields, positional, strict=False)
        }
    )
    try:
        return cls(**values)
    except (TypeError, ValueError) as exc:
        raise CommandSyntaxError(f"{cls.verb}: {exc}") from None
