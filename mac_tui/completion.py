"""Shell completion scripts for bash, zsh and fish, made from the argparse parser.

`mac-tui completion SHELL` prints one. Each script holds the command tree as a table (which
word leads from one command to its subcommand, which options take a value and what completes
it), so a Tab runs no Python: nothing to install beyond mac-tui (argcomplete would be a
runtime dependency and start Python on every Tab), and a script is remade from the parser
whenever it is printed, so it follows the command line. The lists completed (themes, rules
tables) are the game's own, read when the script is made.
"""

from __future__ import annotations

import argparse
from collections.abc import Callable, Mapping

from . import __version__
from .clitree import Argument, Command, command_tree


def known_words() -> dict[str, tuple[str, ...]]:
    """The values the game knows for an argument, by its dest."""
    from .catalog import catalog
    from .rules_view import all_tables
    from .tui.themes import all_theme_names

    # the rules tables of the core game and of the optional modules' data files
    return {"theme": all_theme_names(), "table": tuple(all_tables(catalog()))}


def _key(cmd: Command) -> str:
    return "/".join(cmd.path)


class _Table:
    """The command tree as the scripts read it."""

    def __init__(self, tree: Command, known: Mapping[str, tuple[str, ...]]) -> None:
        self.known = known
        self.commands = list(tree.walk())
        # (command, word) -> the subcommand it leads to
        self.steps = [(_key(c), s.path[-1], _key(s)) for c in self.commands for s in c.subcommands]
        # (command, option flag, the option) for the options that take a value
        self.valued = [
            (_key(c), flag, o)
            for c in self.commands
            for o in c.options
            if o.takes_value
            for flag in o.flags
        ]

    def kind(self, arg: Argument) -> str:
        return arg.value_kind(self.known)

    def words(self, arg: Argument) -> str:
        return " ".join(arg.words(self.known))

    def offered(self, cmd: Command) -> list[tuple[str, str]]:
        """(word, description) of what may come next in `cmd`: its subcommands, then its
        options."""
        out = [(s.path[-1], s.help) for s in cmd.subcommands]
        out += [(flag, o.help) for o in cmd.options for flag in o.flags]
        return out

    def positional(self, cmd: Command) -> Argument | None:
        return cmd.positionals[0] if cmd.positionals and not cmd.subcommands else None


def _case_label(*parts: str) -> str:
    return '"' + "|".join(parts) + '"'


def _walk_cases(table: _Table, indent: str, skip: str) -> list[str]:
    """The case arms that follow the words typed so far: a subcommand moves `cmdpath` on, an
    option that takes a value skips its value."""
    lines = [
        f'{indent}{_case_label(parent, word)}) cmdpath="{child}" ;;'
        for parent, word, child in table.steps
    ]
    skips = [_case_label(k, flag) for k, flag, _ in table.valued]
    if skips:
        lines.append(f"{indent}{' | '.join(skips)}) {skip} ;;")
    return lines


def _case_function(
    table: _Table,
    first_word: int,
    words: tuple[str, str, str],
    values: Callable[[_Table, Argument], str],
    arm: Callable[[_Table, Command], str],
) -> list[str]:
    """The body both bash and zsh scripts share: walk the words typed so far to the command
    they name, then complete an option's value, else what the command offers. `words` is the
    shell's (word i, index of the current word, the word before it)."""
    word, current, previous = words
    lines = [
        "_mac_tui() {",
        '    local cmdpath="" word i',
        f"    for ((i = {first_word}; i < {current}; i++)); do",
        f"        word={word}",
        '        case "$cmdpath|$word" in',
        *_walk_cases(table, "            ", "((i++))"),
        "        esac",
        "    done",
        f'    case "$cmdpath|{previous}" in',
    ]
    for key, flag, opt in table.valued:
        lines.append(f"        {_case_label(key, flag)}) {values(table, opt)}; return ;;")
    lines += ["    esac", '    case "$cmdpath" in']
    lines += [f'        "{_key(cmd)}") {arm(table, cmd)} ;;' for cmd in table.commands]
    return [*lines, "    esac", "}"]


def bash(table: _Table) -> str:
    def arm(table: _Table, cmd: Command) -> str:
        words = " ".join(word for word, _ in table.offered(cmd))
        text = f'COMPREPLY=($(compgen -W "{words}" -- "$cur"))'
        pos = table.positional(cmd)
        if pos is not None and table.kind(pos):
            text += f"\n            [[ $cur == -* ]] || {{ {_bash_values(table, pos, '+=')}; }}"
        return text

    shell_words = ('"${COMP_WORDS[i]}"', "COMP_CWORD", "${COMP_WORDS[COMP_CWORD-1]}")
    body = _case_function(table, 1, shell_words, _bash_values, arm)
    body.insert(1, '    local cur="${COMP_WORDS[COMP_CWORD]}"')
    return "\n".join(
        [
            f"# bash completion for mac-tui {__version__}, made by `mac-tui completion bash`.",
            '# In ~/.bashrc: eval "$(mac-tui completion bash)"',
            *body,
            "complete -F _mac_tui mac-tui",
            "",
        ]
    )


def _bash_values(table: _Table, arg: Argument, assign: str = "=") -> str:
    kind = table.kind(arg)
    if kind == "words":
        return f'COMPREPLY{assign}($(compgen -W "{table.words(arg)}" -- "$cur"))'
    if kind in ("files", "dirs"):
        flag = "-d" if kind == "dirs" else "-f"
        return f'compopt -o filenames 2>/dev/null; COMPREPLY{assign}($(compgen {flag} -- "$cur"))'
    return f"COMPREPLY{assign}()"


def _zsh_quote(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def zsh(table: _Table) -> str:
    def arm(table: _Table, cmd: Command) -> str:
        items = " ".join(_zsh_quote(f"{word}:{text}") for word, text in table.offered(cmd))
        text = f"local -a items=({items}); _describe -t words {_zsh_quote(cmd.name)} items"
        pos = table.positional(cmd)
        if pos is not None and table.kind(pos):
            text += f"; [[ $PREFIX == -* ]] || {{ {_zsh_values(table, pos)}; }}"
        return text

    body = _case_function(
        table, 2, ("${words[i]}", "CURRENT", "${words[CURRENT-1]}"), _zsh_values, arm
    )
    return "\n".join(
        [
            "#compdef mac-tui",
            f"# zsh completion for mac-tui {__version__}, made by `mac-tui completion zsh`.",
            '# In ~/.zshrc (after compinit): eval "$(mac-tui completion zsh)"',
            *body,
            'if [ "$funcstack[1]" = "_mac_tui" ]; then',
            '    _mac_tui "$@"',
            "else",
            "    compdef _mac_tui mac-tui",
            "fi",
            "",
        ]
    )


def _zsh_values(table: _Table, arg: Argument) -> str:
    kind = table.kind(arg)
    if kind == "words":
        return f"compadd -- {table.words(arg)}"
    if kind == "files":
        return "_files"
    if kind == "dirs":
        return "_files -/"
    return f"_message {_zsh_quote(arg.metavar or arg.dest)}"


def _fish_quote(text: str) -> str:
    return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"


def fish(table: _Table) -> str:
    lines = [
        f"# fish completion for mac-tui {__version__}, made by `mac-tui completion fish`.",
        "# mac-tui completion fish > ~/.config/fish/completions/mac-tui.fish",
        "function __mac_tui_at -a want",
        '    set -l cmdpath ""',
        "    set -l skip 0",
        "    for word in (commandline -opc)[2..-1]",
        "        if test $skip -eq 1",
        "            set skip 0",
        "            continue",
        "        end",
        '        switch "$cmdpath|$word"',
    ]
    for parent, word, child in table.steps:
        lines += [
            f"            case {_case_label(parent, word)}",
            f'                set cmdpath "{child}"',
        ]
    skips = " ".join(_case_label(k, flag) for k, flag, _ in table.valued)
    if skips:
        lines += [f"            case {skips}", "                set skip 1"]
    lines += [
        "        end",
        "    end",
        '    test "$cmdpath" = "$want"',
        "end",
        "complete -c mac-tui -f",
    ]
    for cmd in table.commands:
        at = f"complete -c mac-tui -n {_fish_quote('__mac_tui_at ' + _fish_quote(_key(cmd)))}"
        for sub in cmd.subcommands:
            lines.append(f"{at} -a {sub.path[-1]} -d {_fish_quote(sub.help)}")
        for opt in cmd.options:
            names = " ".join(
                f"-s {f[1:]}" if not f.startswith("--") else f"-l {f[2:]}" for f in opt.flags
            )
            value = f" {_fish_values(table, opt)}" if opt.takes_value else ""
            lines.append(f"{at} {names}{value} -d {_fish_quote(opt.help)}")
        pos = table.positional(cmd)
        if pos is not None and table.kind(pos):
            lines.append(f"{at} {_fish_values(table, pos)} -d {_fish_quote(pos.help)}")
    return "\n".join(lines) + "\n"


def _fish_values(table: _Table, arg: Argument) -> str:
    kind = table.kind(arg)
    required = "-r " if arg.flags else ""
    if kind == "words":
        return f"{required}-f -a {_fish_quote(table.words(arg))}"
    if kind == "files":
        return f"{required}-F"
    if kind == "dirs":
        return f"{required}-f -a '(__fish_complete_directories)'"
    return f"{required}-f"


SCRIPTS: dict[str, Callable[[_Table], str]] = {"bash": bash, "zsh": zsh, "fish": fish}


def script(parser: argparse.ArgumentParser, shell: str) -> str:
    """The completion script of `shell` (bash, zsh or fish) for `parser`."""
    return SCRIPTS[shell](_Table(command_tree(parser), known_words()))
