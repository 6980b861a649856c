"""The `mac-tui` command line. Heavy imports (Textual, Rich, the engine) happen inside the
subcommand that needs them, so `--help` and `--version` answer at once."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from . import __version__

RULES_EPILOG = "Run `mac-tui rules` with no table to list the tables."


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="mac-tui",
        description="Mechanized Armour Commander: run a mercenary company of combat frames.",
    )
    p.add_argument("--version", action="version", version=f"mac-tui {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    rules = sub.add_parser(
        "rules", help="print a rules table (Rich table or --json)", epilog=RULES_EPILOG
    )
    rules.add_argument("table", nargs="?", help="which table (omit to list them)")
    rules.add_argument("--json", action="store_true", help="print JSON for tools")
    sim = sub.add_parser("sim", help="AI-against-AI battles, headless, with a summary")
    sim.add_argument("--seed", type=int, default=1, help="seed of the first battle (default 1)")
    sim.add_argument("--difficulty", type=int, default=3, choices=range(1, 6), metavar="1-5")
    sim.add_argument("--battles", type=int, default=1, help="how many (seeds S, S+1, ...)")
    sim.add_argument("--log", metavar="FILE", help="write the battle log (JSON lines) here")
    sim.add_argument("--json", action="store_true", help="print the summary as JSON")
    sim.add_argument(
        "--lance", metavar="CHASSIS,...", help="player chassis, e.g. EN-50,RD-30 (default: start)"
    )
    return p


def _data_error(exc: Exception) -> int:
    print(f"mac-tui: the rules data is broken: {exc}", file=sys.stderr)
    print("Fix that file (or reinstall mac-tui) and try again.", file=sys.stderr)
    return 2


def cmd_rules(table: str | None, as_json: bool) -> int:
    import json

    from .catalog import DataError, catalog
    from .rules_view import TABLES, render, rows

    try:
        cat = catalog()
    except DataError as exc:
        return _data_error(exc)
    if table is None:
        if as_json:
            print(json.dumps({name: title for name, (title, _) in TABLES.items()}, indent=2))
        else:
            print("Rules tables (mac-tui rules TABLE [--json]):")
            for name, (title, _) in TABLES.items():
                print(f"  {name:<18} {title}")
        return 0
    if table not in TABLES:
        print(
            f"mac-tui rules: no table {table!r}; choose from: {', '.join(TABLES)}", file=sys.stderr
        )
        return 2
    if as_json:
        print(json.dumps(rows(cat, table), indent=2, ensure_ascii=False))
        return 0
    from rich.console import Console

    Console().print(render(cat, table))
    return 0


def cmd_sim(args: argparse.Namespace) -> int:
    from .catalog import DataError, catalog
    from .combat.simreport import run_many

    try:
        catalog()
    except DataError as exc:
        return _data_error(exc)
    if args.battles < 1:
        print("mac-tui sim: --battles must be at least 1", file=sys.stderr)
        return 2
    lance = [c.strip() for c in args.lance.split(",")] if args.lance else None
    try:
        return run_many(
            seed=args.seed,
            difficulty=args.difficulty,
            battles=args.battles,
            lance=lance,
            log_path=args.log,
            as_json=args.json,
        )
    except ValueError as exc:
        print(f"mac-tui sim: {exc}", file=sys.stderr)
        return 2


def main(argv: Sequence[str] | None = None) -> int:
    try:
        return _main(argv)
    except BrokenPipeError:
        # The reader went away (`mac-tui rules weapons | head`): stop quietly.
        import os

        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        return 0


def _main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "rules":
        return cmd_rules(args.table, args.json)
    if args.command == "sim":
        return cmd_sim(args)
    _parser().print_help()
    return 0
