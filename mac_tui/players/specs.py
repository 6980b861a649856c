"""Policy specs: the text that names a battle player on the command line (`mac-tui sim
--player-policy SPEC`, `mac-tui duel A B`, `python -m mac_tui.bench ai`).

    SPEC = NAME | NAME:KEY=VALUE[,KEY=VALUE...] | PATH.py:FUNCTION

A built-in NAME (`BUILTINS`: `ai`, `ai-v1`, `greedy`, `random`) with optional parameters of
its own (`ai:tactics=4`), or a Python file and the name of the policy function in it (loaded
once per process; it should use only the bot API, `mac_tui.bots.api`). Every mistake is a
`SpecError` with a one-line message naming what is wrong.
"""

from __future__ import annotations

import functools
import hashlib
import importlib.util
import sys
from collections.abc import Callable, Mapping
from pathlib import Path

from attrs import frozen

from ..bots.greedy import greedy
from ..bots.random_bot import random_policy
from ..core import Command
from ..model import GameState
from . import ai, ai_v1
from .policy import Decision, Policy


class SpecError(ValueError):
    """A policy spec that cannot be parsed or loaded; the message is one line."""


@frozen
class Spec:
    """A parsed spec: a built-in `name` with `params`, or a `path` and its `function`."""

    text: str
    name: str = ""
    params: tuple[tuple[str, str], ...] = ()
    path: str | None = None
    function: str | None = None

    @property
    def label(self) -> str:
        """The spec as it is shown in reports and logs (parameters sorted)."""
        if self.path is not None:
            return f"{self.path}:{self.function}"
        if not self.params:
            return self.name
        return f"{self.name}:" + ",".join(f"{k}={v}" for k, v in self.params)


@frozen
class Param:
    """A parameter of a built-in: its type (int or str) and, for an int, its bounds."""

    kind: type
    lo: int | None = None
    hi: int | None = None
    help: str = ""

    def convert(self, spec: str, key: str, text: str) -> int | str:
        if self.kind is int:
            try:
                value = int(text)
            except ValueError:
                raise SpecError(f"{spec}: {key} must be a whole number, not {text!r}") from None
            if (self.lo is not None and value < self.lo) or (
                self.hi is not None and value > self.hi
            ):
                raise SpecError(f"{spec}: {key} must be {self.lo} to {self.hi}, not {value}")
            return value
        return text


@frozen
class Builtin:
    """A built-in policy: what it is, its parameters, and how to make it from them."""

    summary: str
    make: Callable[..., Policy]
    params: Mapping[str, Param] = {}


def _ai(tactics: int | None = None) -> Policy:
    # Each frame at its own pilot's Tactics, or every frame of the side at `tactics`: a fresh
    # policy (it keeps the plan it is playing between commands).
    return ai.policy_for(tactics)


def _ai_v1() -> Policy:
    # The AI as it stood before the planner (issue 13), kept for comparison.
    return ai_v1.decide


BUILTINS: dict[str, Builtin] = {
    "ai": Builtin(
        "the battle AI (players/ai/: the activation planner)",
        _ai,
        {"tactics": Param(int, 0, 10, "skill level (the pilots' Tactics, 2 at difficulty 1 .. 6)")},
    ),
    "ai-v1": Builtin("the battle AI as it was before issue 13, for comparison", _ai_v1),
    "greedy": Builtin(
        "reference bot: best expected-damage group at the nearest enemy, else step closer",
        lambda: greedy,
    ),
    "random": Builtin(
        "reference bot: a uniform pick among the legal commands", lambda: random_policy
    ),
}


def parse_spec(text: str) -> Spec:
    """Parse `NAME`, `NAME:KEY=VALUE,...` or `PATH.py:FUNCTION` (SpecError if malformed)."""
    text = text.strip()
    if not text:
        raise SpecError("empty policy spec: give a name (ai, greedy...) or FILE.py:FUNCTION")
    head, colon, tail = text.rpartition(":") if ".py" in text else text.partition(":")
    if head.endswith(".py") or text.endswith(".py"):
        if text.endswith(".py"):
            raise SpecError(f"{text}: name the policy function too, as {text}:FUNCTION")
        if not tail.isidentifier():
            raise SpecError(f"{text}: {tail!r} is not a function name")
        return Spec(text, path=head, function=tail)
    name = head if colon else text
    if name not in BUILTINS:
        raise SpecError(
            f"unknown policy {name!r}: choose from {', '.join(BUILTINS)} or give FILE.py:FUNCTION"
        )
    builtin = BUILTINS[name]
    params: dict[str, str] = {}
    for item in filter(None, (p.strip() for p in tail.split(","))) if colon else ():
        key, eq, value = item.partition("=")
        key = key.strip()
        if not eq or not key or not value.strip():
            raise SpecError(f"{text}: parameters are KEY=VALUE, not {item!r}")
        if key not in builtin.params:
            known = ", ".join(builtin.params) or "none"
            raise SpecError(f"{text}: {name} has no parameter {key!r} (it takes: {known})")
        if key in params:
            raise SpecError(f"{text}: {key} given twice")
        params[key] = value.strip()
    for key, value in params.items():
        builtin.params[key].convert(text, key, value)  # refuse bad values now, not in a worker
    return Spec(text, name=name, params=tuple(sorted(params.items())))


def load_policy(spec: str | Spec) -> Policy:
    """The policy a spec names (SpecError when the file, the function or a value is wrong).
    Loaded once per process and spec."""
    parsed = parse_spec(spec) if isinstance(spec, str) else spec
    return _load(parsed)


@functools.cache
def _load(spec: Spec) -> Policy:
    if spec.path is not None:
        assert spec.function is not None
        return _from_file(spec.path, spec.function)
    builtin = BUILTINS[spec.name]
    kwargs = {k: builtin.params[k].convert(spec.text, k, v) for k, v in spec.params}
    return builtin.make(**kwargs)


def _from_file(path_text: str, function: str) -> Policy:
    path = Path(path_text).expanduser().resolve()
    if not path.is_file():
        raise SpecError(f"{path_text}: no such file")
    name = "mac_tui_bot_" + hashlib.sha256(str(path).encode()).hexdigest()[:16]
    module = sys.modules.get(name)
    if module is None:
        loader_spec = importlib.util.spec_from_file_location(name, path)
        if loader_spec is None or loader_spec.loader is None:
            raise SpecError(f"{path_text}: not a Python file")
        module = importlib.util.module_from_spec(loader_spec)
        try:
            loader_spec.loader.exec_module(module)
        except Exception as exc:  # the bot's own bug: say so in one line
            detail = str(exc).splitlines()[0] if str(exc) else ""
            raise SpecError(f"{path_text}: cannot load it: {type(exc).__name__}: {detail}") from exc
        sys.modules[name] = module
    if not hasattr(module, function):
        defined = sorted(
            n for n, v in vars(module).items() if callable(v) and not n.startswith("_")
        )
        raise SpecError(
            f"{path_text}: no function {function!r} (it defines: {', '.join(defined) or 'none'})"
        )
    found = getattr(module, function)
    if not callable(found):
        raise SpecError(f"{path_text}: {function!r} is a {type(found).__name__}, not a function")
    return _checked(found, f"{path_text}:{function}")


def _checked(policy: Callable[[GameState], object], label: str) -> Policy:
    """A file bot's policy, its answer checked: a `Decision` (a bare `Command` is wrapped)."""

    def run(state: GameState) -> Decision:
        answer = policy(state)
        if isinstance(answer, Decision):
            return answer
        if isinstance(answer, Command):
            return Decision(answer)
        raise TypeError(f"{label} returned {type(answer).__name__}, not a Decision")

    return run
