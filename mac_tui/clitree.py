"""The `mac-tui` command line as data, read from its argparse parser: every command with its
options, positionals and subcommands. The shell completion scripts (`completion.py`) and the
manual page (`manpage.py`) are made from it, so they follow the parser by construction.

Standard library only: the wheel's build hook (hatch_build.py) imports it to write the man
page without installing the game's dependencies.
"""

from __future__ import annotations

import argparse
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

FILE_METAVARS = ("SAVE", "FILE", "OUT")
FILE_DESTS = ("save", "file")
DIR_METAVARS = ("DIR",)


@dataclass(frozen=True)
class Argument:
    """An option (`flags` like `--seed`) or a positional (no flags)."""

    flags: tuple[str, ...]
    dest: str
    metavar: str | None  # the value's name; None for an option that takes no value
    help: str
    choices: tuple[str, ...]

    @property
    def takes_value(self) -> bool:
        return self.metavar is not None

    def value_kind(self, known: Mapping[str, tuple[str, ...]]) -> str:
        """What completes its value: "files", "dirs", "words" (its choices, or the list
        `known` has for its dest) or "" (nothing to offer)."""
        if self.choices or self.dest in known:
            return "words"
        if self.metavar in DIR_METAVARS:
            return "dirs"
        if self.metavar in FILE_METAVARS or (not self.flags and self.dest in FILE_DESTS):
            return "files"
        return ""

    def words(self, known: Mapping[str, tuple[str, ...]]) -> tuple[str, ...]:
        return self.choices or known.get(self.dest, ())


@dataclass(frozen=True)
class Command:
    path: tuple[str, ...]  # () for mac-tui itself, ("serve", "ssh") for `mac-tui serve ssh`
    help: str  # the one line its parent lists
    description: str
    usage: str
    options: tuple[Argument, ...]
    positionals: tuple[Argument, ...]
    subcommands: tuple[Command, ...]

    @property
    def name(self) -> str:
        return " ".join(("mac-tui", *self.path))

    def walk(self) -> Iterator[Command]:
        yield self
        for sub in self.subcommands:
            yield from sub.walk()


def _help(action: argparse.Action, prog: str) -> str:
    """The help as --help shows it (argparse's %-formatting: `%%`, `%(default)s`)."""
    text = action.help or ""
    try:
        return text % dict(vars(action), prog=prog)
    except (KeyError, TypeError, ValueError):
        return text


def _argument(action: argparse.Action, prog: str) -> Argument:
    metavar: str | None
    if action.option_strings and action.nargs == 0:
        metavar = None
    elif isinstance(action.metavar, str):
        metavar = action.metavar
    else:
        metavar = action.dest.upper() if action.option_strings else action.dest
    choices = tuple(str(c) for c in action.choices) if action.choices else ()
    return Argument(
        flags=tuple(action.option_strings),
        dest=action.dest,
        metavar=metavar,
        help=_help(action, prog),
        choices=choices,
    )


def command_tree(
    parser: argparse.ArgumentParser, path: tuple[str, ...] = (), help_text: str = ""
) -> Command:
    options: list[Argument] = []
    positionals: list[Argument] = []
    subcommands: list[Command] = []
    for action in parser._actions:
        if action.help == argparse.SUPPRESS:
            continue
        if isinstance(action, argparse._SubParsersAction):
            helps = {a.dest: _help(a, parser.prog) for a in action._choices_actions}
            for name, sub in action.choices.items():
                subcommands.append(command_tree(sub, (*path, name), helps.get(name, "")))
        elif action.option_strings:
            options.append(_argument(action, parser.prog))
        else:
            positionals.append(_argument(action, parser.prog))
    return Command(
        path=path,
        help=help_text,
        description=parser.description or "",
        usage=" ".join(parser.format_usage().removeprefix("usage: ").split()),
        options=tuple(options),
        positionals=tuple(positionals),
        subcommands=tuple(subcommands),
    )
