"""The manual page, mac-tui(1), in roff, made from the argparse parser.

`mac-tui man` prints it (`mac-tui man | man -l -` reads it); the wheel carries it as
share/man/man1/mac-tui.1 (hatch_build.py writes it at build time), where `man mac-tui` finds
it once the install's share/man is on the manual path (pipx links it into ~/.local/share/man).
Every command and option comes from the parser; the sections around them (environment, files,
examples) are written here.

Standard library only (the build hook imports it without the game's dependencies).
"""

from __future__ import annotations

import argparse
import re

from . import __version__
from .clitree import Argument, Command, command_tree

DATE = "2026"  # the year of the page's release, shown in its footer
PROJECT_URL = "https://github.com/mac-tui/mac-tui"

ENVIRONMENT = (
    ("MAC_TUI_SAVES", "The saves folder (play --saves wins over it)."),
    ("MAC_TUI_CONFIG", "The settings file (see mac-tui config path)."),
    ("MAC_TUI_DATA", "Another folder of the rules tables (data/*.toml) to play with."),
    ("MAC_TUI_SERVER_DATA", "serve ssh / serve web: the data folder when --data is not given."),
    (
        "NO_COLOR",
        "Set and not empty: no colour is sent at all (bold, underline and reverse video stay). "
        "serve ssh passes a player's NO_COLOR to their game when the client sends it "
        "(ssh -o SendEnv=NO_COLOR).",
    ),
)
FILES = (
    (
        "~/.config/mac-tui/config.toml",
        "The settings: theme, glyphs, animation and a [keys] section of remapped keys "
        "(the platform's config folder; mac-tui config path prints it).",
    ),
    (
        "~/.local/share/mac-tui/saves/",
        "The saves, one NAME.json per campaign or quick battle, with NAME.json.bak beside it "
        "and NAME.json.journal, the actions since the file was last written whole "
        "(the platform's user data folder).",
    ),
)
EXAMPLES = (
    ("mac-tui", "Open the title screen."),
    ("mac-tui play --seed 3 --name 'Iron Wolves'", "Start a new campaign at once."),
    ("NO_COLOR=1 mac-tui play --ascii --theme mac-light", "Play without colour or Unicode."),
    ("mac-tui rules weapons", "Print the weapons table."),
    ("mac-tui replay wolves.json --verify", "Check that a save follows from its commands."),
    ("mac-tui serve ssh --host 0.0.0.0 --port 2222", "Host the game over SSH (server extra)."),
    ('eval "$(mac-tui completion bash)"', "Tab completion in bash."),
)


def roff(text: str) -> str:
    """`text` safe in roff: backslashes and leading dots or quotes escaped, dashes kept."""
    text = text.replace("\\", "\\e").replace("-", "\\-")
    return re.sub(r"^([.'])", r"\\&\1", text, flags=re.M)


def _argument(arg: Argument) -> list[str]:
    if arg.flags:
        names = ", ".join(f"\\fB{roff(flag)}\\fR" for flag in arg.flags)
        value = f" \\fI{roff(arg.metavar)}\\fR" if arg.metavar else ""
        head = names + value
    else:
        head = f"\\fI{roff(arg.metavar or arg.dest)}\\fR"
    text = arg.help
    if arg.choices:
        text += f" (one of: {', '.join(arg.choices)})"
    return [".TP", head, roff(text)]


def _command(cmd: Command) -> list[str]:
    if not cmd.path:
        return []
    lines = [".SS " + roff(cmd.name), roff(cmd.usage), ".PP"]
    lines.append(roff(cmd.description or cmd.help))
    for arg in (*cmd.positionals, *cmd.options):
        if "--help" not in arg.flags:
            lines += _argument(arg)
    return lines


def _pairs(title: str, pairs: tuple[tuple[str, str], ...], font: str = "B") -> list[str]:
    lines = [f".SH {title}"]
    for name, text in pairs:
        lines += [".TP", f"\\f{font}{roff(name)}\\fR", roff(text)]
    return lines


def manpage(parser: argparse.ArgumentParser) -> str:
    tree = command_tree(parser)
    lines = [
        f'.TH MAC\\-TUI 1 "{DATE}" "mac\\-tui {roff(__version__)}" "Games"',
        ".SH NAME",
        "mac\\-tui \\- "
        + roff("Mechanized Armour Commander, a roguelike campaign in the terminal"),
        ".SH SYNOPSIS",
        ".B mac\\-tui",
        "[\\fICOMMAND\\fR] [\\fIOPTIONS\\fR]",
        ".SH DESCRIPTION",
        roff(tree.description),
        ".PP",
        roff(
            "You command a mercenary company of combat frames across eleven star systems: take "
            "contracts, fight turn-based battles on a hex map, salvage, refit and repair, and "
            "stay solvent. The rules are the tabletop rulebook's, to the letter. The game saves "
            "after every action; a closed terminal loses nothing."
        ),
        ".SH OPTIONS",
    ]
    for arg in tree.options:
        lines += _argument(arg)
    lines.append(".SH COMMANDS")
    for cmd in tree.walk():
        lines += _command(cmd)
    lines += _pairs("ENVIRONMENT", ENVIRONMENT)
    lines += _pairs("FILES", FILES, font="I")
    lines.append(".SH EXAMPLES")
    for command, text in EXAMPLES:
        lines += [".TP", f"\\fB{roff(command)}\\fR", roff(text)]
    lines += [
        ".SH EXIT STATUS",
        roff(
            "0 on success; 1 when replay --verify finds a mismatch; 2 for bad input, a "
            "missing extra or a broken rules file (with a one-line message on stderr)."
        ),
        ".SH SEE ALSO",
        roff(f"{PROJECT_URL}: the README, docs/hosting.md for servers, the changelog."),
        "",
    ]
    return "\n".join(lines)
