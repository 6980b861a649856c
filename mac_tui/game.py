"""The engine's single entry point: `step(state, command) -> Outcome`.

Every game action is a command: a small frozen value with a one-line text form. A handler,
registered per command type, is a pure function from (state, command) to an Outcome:
`Accepted(state, events)` with the new state and the events that explain it, or
`Refused(reason)`, in which case the caller keeps the old state (it is never changed).
"""

from __future__ import annotations

import shlex
from collections.abc import Callable, Iterable, Sequence
from typing import Any, ClassVar, TypeAlias, TypeVar, get_args, get_origin, get_type_hints

import attrs
from attrs import frozen

from .hexgrid import Hex
from .model import GameState, initial_state

# The version of the rules the engine plays. Same seed + commands = same game only under the
# same rules version: a change that alters what a command does to a state (an AI decision, a
# ruling, the state's shape) bumps it, and saves made under an older one load from their
# snapshot (with the save format's migrations) instead of being checked by replay.
RULES_VERSION = 1


class Command:
    """Base of every command. Subclasses are `@frozen` attrs classes with a `verb`."""

    verb: ClassVar[str] = ""

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
C = TypeVar("C", bound=Command)
Handler: TypeAlias = Callable[[GameState, Any], Outcome]

_HANDLERS: dict[type[Command], Handler] = {}
_VERBS: dict[str, type[Command]] = {}
AfterHook: TypeAlias = Callable[[GameState, tuple[Event, ...]], tuple[GameState, tuple[Event, ...]]]
_AFTER: list[AfterHook] = []


def after_step(hook: AfterHook) -> AfterHook:
    """Register a pure follow-up run after every accepted command (e.g. the campaign closing a
    mission when its battle has ended)."""
    _AFTER.append(hook)
    return hook


def handles(cls: type[C]) -> Callable[[Callable[[GameState, C], Outcome]], Callable[..., Outcome]]:
    """Register the handler of one command class (and its verb for the text form)."""

    def register(fn: Callable[[GameState, C], Outcome]) -> Callable[..., Outcome]:
        if not cls.verb:
            raise TypeError(f"{cls.__name__} has no verb")
        if cls.verb in _VERBS and _VERBS[cls.verb] is not cls:
            raise TypeError(f"verb {cls.verb!r} already belongs to {_VERBS[cls.verb].__name__}")
        _VERBS[cls.verb] = cls
        _HANDLERS[cls] = fn
        return fn

    return register


def verbs() -> tuple[str, ...]:
    _load_families()
    return tuple(sorted(_VERBS))


def step(state: GameState, command: Command) -> Outcome:
    """Apply one command. Pure: the input state is never changed."""
    _load_families()
    handler = _HANDLERS.get(type(command))
    if handler is None:
        return Refused(f"unknown command: {type(command).__name__}")
    outcome = handler(state, command)
    if isinstance(outcome, Accepted):
        new = attrs.evolve(outcome.state, commands_applied=state.commands_applied + 1)
        events = outcome.events
        for hook in _AFTER:
            new, events = hook(new, events)
        return Accepted(new, events)
    return outcome


def fold(state: GameState, commands: Iterable[Command]) -> tuple[GameState, list[Refused]]:
    """Apply commands in order, keeping the state of each refused one unchanged."""
    refusals: list[Refused] = []
    for command in commands:
        outcome = step(state, command)
        if isinstance(outcome, Accepted):
            state = outcome.state
        else:
            refusals.append(outcome)
    return state, refusals


def replay(seed: int, commands: Sequence[Command]) -> GameState:
    """Rebuild a game from its seed and the commands it accepted."""
    return fold(initial_state(seed), commands)[0]


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


def format_command(command: Command) -> str:
    """`verb arg arg ...`: fields in declaration order, quoted where needed."""
    parts = [type(command).verb]
    for field in attrs.fields(type(command)):  # type: ignore[arg-type]
        parts.append(_format_value(getattr(command, field.name)))
    return shlex.join(parts)


def _parse_value(hint: Any, token: str, name: str) -> Any:
    origin = get_origin(hint)
    args: tuple[Any, ...] = get_args(hint)
    if origin is tuple:
        if token == "-":
            return ()
        return tuple(_parse_value(args[0], t, name) for t in token.split("+"))
    if type(None) in args:  # Optional[X]
        if token == "-":
            return None
        inner = next(a for a in args if a is not type(None))
        return _parse_value(inner, token, name)
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


def parse_command(line: str) -> Command:
    """Parse the text form back into a command; raise CommandSyntaxError with the reason."""
    try:
        tokens = shlex.split(line, comments=True)
    except ValueError as exc:
        raise CommandSyntaxError(f"cannot split {line!r}: {exc}") from None
    if not tokens:
        raise CommandSyntaxError("empty command")
    verb, rest = tokens[0], tokens[1:]
    _load_families()
    cls = _VERBS.get(verb)
    if cls is None:
        raise CommandSyntaxError(f"unknown command {verb!r} (known: {', '.join(verbs())})")
    fields = attrs.fields(cls)  # type: ignore[arg-type]
    hints = _hints(cls)
    required = [f for f in fields if f.default is attrs.NOTHING]
    if not len(required) <= len(rest) <= len(fields):
        names = " ".join(f.name.upper() for f in fields)
        raise CommandSyntaxError(f"usage: {verb} {names}".rstrip())
    values = {
        f.name: _parse_value(hints[f.name], token, f.name)
        for f, token in zip(fields, rest, strict=False)
    }
    try:
        return cls(**values)
    except (TypeError, ValueError) as exc:
        raise CommandSyntaxError(f"{verb}: {exc}") from None


_LOADED = False


def _load_families() -> None:
    """The command families register their handlers when imported; import them once, on
    first use, so that importing any engine module never runs into a circular import."""
    global _LOADED
    if not _LOADED:
        _LOADED = True
        from .campaign import handlers as _campaign  # noqa: F401
        from .combat import actions as _combat  # noqa: F401
        from .combat import skirmish as _skirmish  # noqa: F401
