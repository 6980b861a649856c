"""Rulesets (optional-rules O0.1-O0.3): which optional modules a game plays with.

A ruleset is the tuple of module ids switched on, in module order (`O2` before `O10`); the
empty tuple is the core game. It is fixed when a game is created and never changes. The
modules themselves (names, summaries, the excluded pairs of O0.3) are data
(`data/modules.toml`); which of them this engine can play is `PLAYABLE`.
"""

from __future__ import annotations

from typing import Final

from .catalog import catalog
from .catalog.load import module_order

__all__ = [
    "CORE",
    "PLAYABLE",
    "Ruleset",
    "RulesetError",
    "describe_ruleset",
    "format_ruleset",
    "parse_ruleset",
    "rules_refusal",
    "ruleset_refusal",
]

Ruleset = tuple[str, ...]

#: The core game: no optional module.
CORE: Final[Ruleset] = ()

#: The modules the engine implements; a ruleset naming another is refused.
PLAYABLE: frozenset[str] = frozenset(
    {"O1", "O2", "O3", "O4", "O5", "O6", "O7", "O8", "O9", "O10", "O11"}
)

#: Words that name the core game in a `--rules` value.
_CORE_WORDS: Final = ("", "core", "none", "-")


class RulesetError(ValueError):
    """A ruleset that cannot be played; the message says why."""


def ruleset_refusal(ruleset: Ruleset) -> str | None:
    """Why `ruleset` cannot be played (unknown, not yet playable, repeated, out of order or
    excluded modules, O0.1/O0.3), or None."""
    modules = catalog().modules
    unknown = [m for m in ruleset if m not in modules]
    if unknown:
        known = ", ".join(sorted(modules, key=module_order))
        return f"no optional module {', '.join(unknown)} (the modules: {known})"
    if len(set(ruleset)) != len(ruleset):
        return "a module is named twice"
    if list(ruleset) != sorted(ruleset, key=module_order):
        return f"the modules must be in order ({','.join(sorted(ruleset, key=module_order))})"
    for pair in catalog().excluded_modules:
        a, b = pair.modules
        if a in ruleset and b in ruleset:
            return f"{a} and {b} cannot be played together: {pair.reason}"
    missing = [m for m in ruleset if m not in PLAYABLE]
    if missing:
        names = ", ".join(f"{m} {modules[m].name}" for m in missing)
        return f"not playable in this version of the game: {names}"
    return None


def parse_ruleset(text: str) -> Ruleset:
    """A ruleset from its text (`O2,O3`, `o3 o2`, `core` or empty for none), put in module
    order; RulesetError says why it cannot be played."""
    words = text.replace(",", " ").split()
    if not words or (len(words) == 1 and words[0].lower() in _CORE_WORDS):
        return CORE
    ids = [w.upper() for w in words]
    if len(set(ids)) != len(ids):
        raise RulesetError("a module is named twice")
    ruleset = tuple(sorted(ids, key=module_order))
    reason = ruleset_refusal(ruleset)
    if reason:
        raise RulesetError(reason)
    return ruleset


def rules_refusal(text: str) -> str | None:
    """Why the ruleset text of a command (`--rules O2,O3`) cannot be played, or None."""
    try:
        parse_ruleset(text)
    except RulesetError as exc:
        return str(exc)
    return None


def format_ruleset(ruleset: Ruleset) -> str:
    """The text form: `O2,O3`; the empty string for the core game."""
    return ",".join(ruleset)


def describe_ruleset(ruleset: Ruleset) -> str:
    """For status lines and reports: `core rules`, or `O2 Elevation and falling, O3 ...`."""
    if not ruleset:
        return "core rules"
    modules = catalog().modules
    return ", ".join(f"{m} {modules[m].name}" if m in modules else m for m in ruleset)
