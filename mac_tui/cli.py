"""The `mac-tui` command line. Heavy imports (Textual, Rich, the engine) happen inside the
subcommand that needs them, so `--help` and `--version` answer at once."""

from __future__ import annotations

import argparse
import functools
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING

from . import __version__
from .cliserve import cmd_serve, serve_parser

SHELLS = ("bash", "zsh", "fish")

if TYPE_CHECKING:
    from .ruleset import Ruleset
    from .save import SaveFile
    from .tui.config import GameOptions

RULES_EPILOG = "Run `mac-tui rules` with no table to list the tables."
POLICY_HELP = "ai, ai:tactics=N, ai-v1, greedy, random or FILE.py:FUNCTION (docs/bots.md)"
RULES_HELP = (
    "optional rules modules to play with, e.g. O2,O3 (default: the core game; "
    "`mac-tui rules modules` lists them)"
)


@functools.cache
def _shared_parser() -> argparse.ArgumentParser:
    """The parser, made once per process (a game forked by the server's zygote finds it made:
    parsing `play` is then all it costs)."""
    return _parser()


def _parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(
        prog="mac-tui",
        description="Mechanized Armour Commander: run a mercenary company of combat frames. "
        "With no command, the game starts in the terminal.",
    )
    p.add_argument("--version", action="version", version=f"mac-tui {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND")
    play = sub.add_parser(
        "play",
        help="play the game in the terminal (the default)",
        description="Open the title screen. --load opens a save at once; --seed and --name "
        "start a new campaign (both: at once; --seed alone asks only the company's name; "
        "--name alone draws the seed); --rules names its optional rules.",
    )
    play.add_argument("--load", metavar="SAVE", help="open this save at once")
    play.add_argument("--seed", type=_seed, metavar="N", help="start a new campaign with this seed")
    play.add_argument("--name", metavar="NAME", help="start a new campaign of this company")
    play.add_argument("--rules", metavar="MODULES", help=f"with --seed/--name: {RULES_HELP}")
    _game_arguments(play)
    rules = sub.add_parser(
        "rules", help="print a rules table (Rich table or --json)", epilog=RULES_EPILOG
    )
    rules.add_argument("table", nargs="?", help="which table (omit to list them)")
    rules.add_argument("--json", action="store_true", help="print JSON for tools")
    sim = sub.add_parser("sim", help="AI-against-AI battles, headless, with a summary")
    sim.add_argument("--seed", type=int, default=1, help="seed of the first battle (default 1)")
    sim.add_argument(
        "--difficulty", type=int, default=3, help="enemy force and map size (default 3)"
    )
    sim.add_argument("--battles", type=int, default=1, help="how many (seeds S, S+1, ...)")
    sim.add_argument(
        "--landscape", metavar="LANDSCAPE", help="a fixed landscape (default: drawn per seed)"
    )
    sim.add_argument("--rules", metavar="MODULES", default="", help=RULES_HELP)
    sim.add_argument("--log", metavar="FILE", help="write the battle log (JSON lines) here")
    sim.add_argument("--json", action="store_true", help="print the summary as JSON")
    sim.add_argument(
        "--lance", metavar="CHASSIS,...", help="player chassis, e.g. EN-50,RD-30 (default: start)"
    )
    for side in ("player", "enemy"):
        sim.add_argument(
            f"--{side}-policy",
            metavar="SPEC",
            default="ai",
            help=f"who plays the {side}'s side (default ai): {POLICY_HELP}",
        )
    _duel_parser(sub)
    from .lab.cli import add_parser as _lab_parser

    _lab_parser(sub)
    skirmish = sub.add_parser(
        "skirmish", help="a quick battle in the terminal: the starting lance against an enemy"
    )
    skirmish.add_argument(
        "--seed", type=_seed, metavar="N", help="the battle's seed (default: a random one)"
    )
    skirmish.add_argument(
        "--difficulty", type=int, default=3, help="enemy force and map size (default 3)"
    )
    skirmish.add_argument("--rules", metavar="MODULES", default="", help=RULES_HELP)
    _game_arguments(skirmish)
    script = sub.add_parser("script", help="play a campaign headless from a command file")
    script.add_argument("file", help="one command per line (text form); '-' reads stdin")
    script.add_argument("--seed", type=int, default=1, help="the game's seed (default 1)")
    script.add_argument("--save", metavar="OUT", help="write the save file here at the end")
    script.add_argument("--json", action="store_true", help="print results as JSON")
    replay = sub.add_parser(
        "replay", help="check a save by replaying its commands, or watch it played back"
    )
    replay.add_argument("save", help="the save file")
    replay.add_argument("--verify", action="store_true", help="exit non-zero on a mismatch")
    replay.add_argument(
        "--watch",
        action="store_true",
        help="play the game back in the terminal, command by command (read-only)",
    )
    replay.add_argument(
        "--truth",
        action="store_true",
        help="with --watch under optional rule O8: show every frame where it is, not only "
        "what the player's side detected",
    )
    serve_parser(sub)
    config = sub.add_parser(
        "config",
        help="the settings file: where it is, what it holds",
        description="The settings (theme, glyphs, animation, keys) live in a TOML file; "
        "$MAC_TUI_CONFIG names another. The settings screen (s on the title screen) edits it.",
    )
    config_what = config.add_subparsers(dest="config_command", metavar="WHAT", required=True)
    config_what.add_parser("path", help="print the settings file's path")
    config_what.add_parser("show", help="print the settings in force, as the file would hold them")
    completion = sub.add_parser(
        "completion",
        help="print a shell completion script (bash, zsh or fish)",
        description="Print the completion script of a shell, made from this command line. "
        'bash: eval "$(mac-tui completion bash)" in ~/.bashrc; zsh: the same in ~/.zshrc; '
        "fish: mac-tui completion fish > ~/.config/fish/completions/mac-tui.fish",
    )
    completion.add_argument("shell", choices=SHELLS, help="bash, zsh or fish")
    sub.add_parser(
        "man",
        help="print the manual page (roff): mac-tui man | man -l -",
        description="Print this command line's manual page in roff, the format man reads.",
    )
    return p


SEED_DIGITS = 20  # seeds are reduced modulo 2**64: no seed needs more digits (the title's rule)


def _seed(text: str) -> int:
    """A seed as the title screen takes it: a whole number of at most 20 digits."""
    if not (text.isascii() and text.isdigit() and len(text) <= SEED_DIGITS):
        raise argparse.ArgumentTypeError(
            f"a seed is a whole number of at most {SEED_DIGITS} digits, not {text!r}"
        )
    return int(text)


def _game_arguments(parser: argparse.ArgumentParser) -> None:
    """The options of the commands that open the game (`play`, `skirmish`): for this run
    only, the settings file is left as it is."""
    parser.add_argument(
        "--saves",
        metavar="DIR",
        help="the saves folder (default: $MAC_TUI_SAVES, else saves/ in the user data folder)",
    )
    parser.add_argument(
        "--ascii",
        action="store_true",
        help="ASCII glyphs only, for this run (the file keeps its own)",
    )
    parser.add_argument(
        "--theme",
        metavar="THEME",
        help="the colour theme for this run: mac-dark, mac-okabe-ito (safe for colour-blind "
        "players), mac-light, or one of Textual's",
    )


def _duel_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    duel = sub.add_parser(
        "duel",
        help="two policies against each other over many seeds: win rates with 95%% intervals",
        description="Policy A against policy B. By default at equal forces (both sides field "
        "the same frames and pilots), each seed played twice on each map size with the sides "
        "swapped; with --difficulty, A plays the player's lance against that difficulty's "
        f"enemy played by B. A policy is {POLICY_HELP}.",
    )
    duel.add_argument("a", metavar="A", help="policy A (e.g. ai)")
    duel.add_argument("b", metavar="B", help="policy B (e.g. greedy)")
    duel.add_argument("--seeds", type=int, default=20, help="how many seeds (default 20)")
    duel.add_argument("--seed", type=int, default=1, help="the first seed (default 1)")
    duel.add_argument(
        "--map",
        default=None,
        metavar="SIZE",
        help="small, medium, large or all (default all; with --difficulty, the difficulty's)",
    )
    duel.add_argument(
        "--frames", type=int, default=None, help="frames a side, drawn per seed (default 2)"
    )
    duel.add_argument(
        "--lance", metavar="CHASSIS,...", help="a named lance instead (e.g. EN-50,WD-60)"
    )
    duel.add_argument(
        "--difficulty",
        type=int,
        default=None,
        metavar="D",
        help="A's lance (default: the starting lance) against difficulty D's enemy, played by B",
    )
    duel.add_argument(
        "--jobs", type=int, default=None, help="worker processes (default: the core count)"
    )
    duel.add_argument("--rules", metavar="MODULES", default="", help=RULES_HELP)
    duel.add_argument("--cover", action="store_true", help="also measure cover use (docs/bots.md)")
    duel.add_argument("--log", metavar="FILE", help="write every battle's log (JSON lines) here")
    duel.add_argument("--json", action="store_true", help="print the report as JSON")


def _data_error(exc: Exception) -> int:
    print(f"mac-tui: the rules data is broken: {exc}", file=sys.stderr)
    print("Fix that file (or reinstall mac-tui) and try again.", file=sys.stderr)
    return 2


def _ruleset(command: str, text: str | None) -> Ruleset | None:
    """The optional rules `--rules` names (the core game when not given), or None after a
    one-line error on stderr saying why they cannot be played (O0.1, O0.3)."""
    from .ruleset import RulesetError, parse_ruleset

    try:
        return parse_ruleset(text or "")
    except RulesetError as exc:
        print(f"mac-tui {command}: --rules {text}: {exc}", file=sys.stderr)
        return None


def cmd_rules(table: str | None, as_json: bool) -> int:
    import json

    from .catalog import DataError, catalog
    from .rules_view import all_tables, render, rows

    try:
        cat = catalog()
    except DataError as exc:
        return _data_error(exc)
    tables = all_tables(cat)
    if table is None:
        if as_json:
            print(json.dumps({name: title for name, (title, _) in tables.items()}, indent=2))
        else:
            print("Rules tables (mac-tui rules TABLE [--json]):")
            for name, (title, _) in tables.items():
                print(f"  {name:<18} {title}")
        return 0
    if table not in tables:
        print(
            f"mac-tui rules: no table {table!r}; choose from: {', '.join(tables)}", file=sys.stderr
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
    from .players.simreport import run_many

    try:
        catalog()
    except DataError as exc:
        return _data_error(exc)
    if args.battles < 1:
        print("mac-tui sim: --battles must be at least 1", file=sys.stderr)
        return 2
    from .combat.skirmish import difficulty_refusal, landscape_refusal

    # the bounds of the mission tables, the landscapes of the map tables
    reason = difficulty_refusal(args.difficulty) or landscape_refusal(args.landscape)
    if reason:
        print(f"mac-tui sim: {reason}", file=sys.stderr)
        return 2
    ruleset = _ruleset("sim", args.rules)
    if ruleset is None:
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
            policies={"player": args.player_policy, "enemy": args.enemy_policy},
            landscape=args.landscape,
            ruleset=ruleset,
        )
    except ValueError as exc:  # SpecError included
        print(f"mac-tui sim: {exc}", file=sys.stderr)
        return 2


def cmd_duel(args: argparse.Namespace) -> int:
    import os

    from .catalog import DataError, catalog

    try:
        catalog()
    except DataError as exc:
        return _data_error(exc)
    from .combat.skirmish import difficulty_refusal, lance_from_chassis
    from .players.duel import DuelError, Setup, map_sizes
    from .players.duelreport import run
    from .players.specs import SpecError, load_policy

    def refuse(message: str) -> int:
        print(f"mac-tui duel: {message}", file=sys.stderr)
        return 2

    sizes = map_sizes()
    lance = tuple(c.strip().upper() for c in args.lance.split(",")) if args.lance else ()
    problems = [
        message
        for bad, message in (
            (args.seeds < 1, "--seeds must be at least 1"),
            (args.jobs is not None and args.jobs < 1, "--jobs must be at least 1"),
            (args.map not in (None, "all", *sizes), f"--map must be {', '.join(sizes)} or all"),
            (args.frames is not None and lance != (), "give --frames or --lance, not both"),
            (args.difficulty is not None and args.map is not None, "--map follows --difficulty"),
            (
                args.difficulty is not None and args.frames is not None,
                "with --difficulty, A fields the starting lance or --lance, not --frames",
            ),
        )
        if bad
    ]
    if problems:
        return refuse("; ".join(problems))
    most = catalog().missions.lance.max_frames
    frames = 2 if args.frames is None else args.frames
    if not 1 <= frames <= most:
        return refuse(f"--frames must be 1 to {most}")
    if args.difficulty is not None and (reason := difficulty_refusal(args.difficulty)):
        return refuse(reason)
    ruleset = _ruleset("duel", args.rules)
    if ruleset is None:
        return 2
    try:
        if lance:
            lance_from_chassis(lance)
        for spec in (args.a, args.b):
            load_policy(spec)
    except (SpecError, ValueError) as exc:
        return refuse(str(exc))
    setup = Setup(
        a=args.a,
        b=args.b,
        seeds=args.seeds,
        first_seed=args.seed,
        maps=sizes if args.map in (None, "all") else (args.map,),
        frames=frames,
        lance=lance,
        difficulty=args.difficulty,
        cover=args.cover,
        log=args.log is not None,
        rules=ruleset,
    )
    jobs = args.jobs or len(os.sched_getaffinity(0))
    try:
        return run(setup, jobs=jobs, as_json=args.json, log_path=args.log)
    except DuelError as exc:
        print(f"mac-tui duel: a policy failed: {exc}", file=sys.stderr)
        return 1


def cmd_script(args: argparse.Namespace) -> int:
    import json
    from pathlib import Path

    from .catalog import DataError, catalog
    from .script import run_lines, summary
    from .session import Session

    try:
        catalog()
    except DataError as exc:
        return _data_error(exc)
    try:
        text = sys.stdin.read() if args.file == "-" else Path(args.file).read_text("utf-8")
    except OSError as exc:
        print(f"mac-tui script: cannot read {args.file}: {exc}", file=sys.stderr)
        return 2
    session = Session.new(args.seed)
    results = run_lines(session, text.splitlines())
    save_problem = None
    if args.save:
        try:
            session.save(Path(args.save))
        except OSError as exc:
            save_problem = f"mac-tui script: cannot save to {args.save}: {exc.strerror or exc}"
    refused = sum(1 for r in results if not r.accepted)
    if args.json:
        doc = {
            "results": [
                {
                    "line": r.line,
                    "command": r.text,
                    "accepted": r.accepted,
                    "reason": r.reason,
                    "events": list(r.events),
                }
                for r in results
            ],
            "summary": summary(session),
        }
        print(json.dumps(doc, indent=1))
    else:
        for r in results:
            if r.accepted:
                print(f"{r.line:>4} ok       {r.text}")
                for note in r.events:
                    print(f"              {note}")
            else:
                print(f"{r.line:>4} REFUSED  {r.text}: {r.reason}")
        s = summary(session)
        print(
            f"-- {s.get('company', 'no campaign')} · {s.get('date', '')} · "
            f"{s.get('credits', 0):,} cr · missions {s.get('missions_won', 0)}/"
            f"{s.get('missions_played', 0)} · {len(session.commands)} commands · "
            f"{refused} refused"
        )
    if save_problem:
        print(save_problem, file=sys.stderr)
        return 2
    return 0


def _load(command: str, path: str) -> SaveFile | None:
    """The save at `path` (recovered from its backup when it is missing or damaged, with a
    line on stderr saying so), or None after a one-line error on stderr."""
    from pathlib import Path

    from .save import SaveError
    from .savefolder import load_save

    try:
        loaded = load_save(Path(path))
    except SaveError as exc:
        print(f"mac-tui {command}: {exc}", file=sys.stderr)
        return None
    for note in loaded.notes:
        print(f"mac-tui {command}: {note}", file=sys.stderr)
    return loaded.save


def cmd_replay(args: argparse.Namespace) -> int:
    from .catalog import DataError, catalog
    from .session import verify

    try:
        catalog()
    except DataError as exc:
        return _data_error(exc)
    save = _load("replay", args.save)
    if save is None:
        return 2
    if args.watch:
        from pathlib import Path

        from .tui.replay import run_replay

        run_replay(save, Path(args.save), truth=args.truth)
        return 0
    verdict = verify(save)
    print(verdict.message)
    return 0 if verdict.ok or not args.verify else 1


def _game_options(command: str, args: argparse.Namespace) -> GameOptions | None:
    """What `--saves`, `--ascii` and `--theme` ask of this run, or None after a one-line error
    on stderr (an unknown theme, a saves folder that is a file)."""
    from pathlib import Path

    from .tui.config import GameOptions
    from .tui.themes import all_theme_names

    if args.theme is not None and args.theme not in all_theme_names():
        names = ", ".join(all_theme_names())
        print(f"mac-tui {command}: no theme {args.theme!r}; choose from: {names}", file=sys.stderr)
        return None
    saves = Path(args.saves) if args.saves else None
    if saves is not None and saves.exists() and not saves.is_dir():
        print(f"mac-tui {command}: --saves {saves} is not a folder", file=sys.stderr)
        return None
    return GameOptions(saves=saves, glyphs="ascii" if args.ascii else None, theme=args.theme)


def cmd_play(args: argparse.Namespace) -> int:
    from pathlib import Path

    from .catalog import DataError, catalog

    try:
        catalog()
    except DataError as exc:
        return _data_error(exc)
    new = args.seed is not None or args.name is not None or args.rules is not None
    if args.load is not None and new:
        print(
            "mac-tui play: --load opens a save, --seed, --name and --rules start a new "
            "campaign: give one or the other",
            file=sys.stderr,
        )
        return 2
    ruleset = _ruleset("play", args.rules)
    if ruleset is None:
        return 2
    if args.name is not None:
        from .campaign.commands import NewCampaign
        from .game import refusal
        from .model import initial_state
        from .ruleset import format_ruleset

        command = NewCampaign(args.name, rules=format_ruleset(ruleset))
        reason = refusal(initial_state(args.seed or 0), command)
        if reason:
            print(f"mac-tui play: --name: {reason}", file=sys.stderr)
            return 2
    options = _game_options("play", args)
    if options is None:
        return 2
    if args.load is not None and _load("play", args.load) is None:
        return 2  # the game would only open to say the same
    from .players.assessor import play_level
    from .players.assessor import start as start_assessor
    from .tui.app import NewGame, run

    level = play_level()  # a server's game's, or a local game's: see players/assessor.py
    if level is not None:
        start_assessor(level)
    run(
        Path(args.load) if args.load else None,
        options=options,
        new=NewGame(name=args.name, seed=args.seed, rules=ruleset) if new else None,
    )
    return 0


def cmd_skirmish(args: argparse.Namespace) -> int:
    from .catalog import DataError, catalog

    try:
        catalog()
    except DataError as exc:
        return _data_error(exc)
    from .combat.skirmish import difficulty_refusal

    reason = difficulty_refusal(args.difficulty)
    if reason:
        print(f"mac-tui skirmish: {reason}", file=sys.stderr)
        return 2
    ruleset = _ruleset("skirmish", args.rules)
    if ruleset is None:
        return 2
    options = _game_options("skirmish", args)
    if options is None:
        return 2
    from .tui.app import run
    from .tui.screens.title import random_seed

    seed = args.seed if args.seed is not None else random_seed()
    run(skirmish=(seed, args.difficulty, ruleset), options=options)
    return 0


def cmd_config(what: str) -> int:
    from .tui.config import config_path, load_settings, settings_text

    path = config_path()
    if what == "path":
        print(path)
        return 0
    settings, problem = load_settings(path)
    where = "" if path.exists() else " (no such file yet: these are the defaults)"
    print(f"# {path}{where}")
    print(settings_text(settings), end="")
    if problem:
        print(f"mac-tui config: {problem}", file=sys.stderr)
    return 0


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
    args = _shared_parser().parse_args(argv)
    if args.command == "rules":
        return cmd_rules(args.table, args.json)
    if args.command == "sim":
        return cmd_sim(args)
    if args.command == "duel":
        return cmd_duel(args)
    if args.command == "lab":
        from .lab.cli import main as cmd_lab

        return cmd_lab(args)
    if args.command == "script":
        return cmd_script(args)
    if args.command == "skirmish":
        return cmd_skirmish(args)
    if args.command == "replay":
        return cmd_replay(args)
    if args.command == "serve":
        return cmd_serve(args)
    if args.command == "config":
        return cmd_config(args.config_command)
    if args.command == "completion":
        from .completion import script

        print(script(_parser(), args.shell), end="")
        return 0
    if args.command == "man":
        from .manpage import manpage

        print(manpage(_parser()), end="")
        return 0
    if args.command is None:  # `mac-tui` is `mac-tui play`
        args = _parser().parse_args(["play"])
    return cmd_play(args)
