"""`mac-tui lab`: run, report, repeat and check (docs/lab.md). The parser is built without
importing the lab's dependencies; each command imports what it needs."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

DEFAULT_DB = "lab.sqlite"


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    lab = sub.add_parser(
        "lab",
        help="the balance lab: sweeps of battles and campaigns, stored and reported",
        description="Declarative sweeps of battles and campaigns (docs/lab.md): every run is a "
        "row of a SQLite store, so a sweep resumes, grows and is re-queried without replaying.",
    )
    what = lab.add_subparsers(dest="lab_command", metavar="WHAT", required=True)
    run = what.add_parser(
        "run",
        help="play an experiment's missing runs and report it",
        description="Play the runs of an experiment (a TOML file, or --kind/--set/--axis flags) "
        "that the store has no row for, then print the report.",
    )
    run.add_argument("experiment", nargs="?", metavar="EXPERIMENT.toml", help="the experiment")
    run.add_argument("--kind", choices=["battle", "campaign"], help="without a file: the kind")
    run.add_argument("--name", help="without a file: the experiment's name (default lab)")
    run.add_argument(
        "--set", action="append", default=[], metavar="KEY=VALUE", help="a value every cell uses"
    )
    run.add_argument(
        "--axis", action="append", default=[], metavar="KEY=V1,V2", help="an axis to sweep"
    )
    run.add_argument(
        "--data",
        action="append",
        default=[],
        metavar="DIR",
        help="a mod folder layered over the rules tables, compared with the base game",
    )
    run.add_argument("--seeds", type=int, help="seeds per cell (extends or trims a sweep)")
    run.add_argument("--seed", type=int, help="the first seed (default 1)")
    run.add_argument(
        "--jobs", type=int, default=None, help="worker processes (default: the core count)"
    )
    run.add_argument(
        "--scheduler", metavar="tcp://HOST:8786", help="play the runs on a Dask distributed cluster"
    )
    _output_arguments(run)
    report = what.add_parser(
        "report",
        help="report an experiment from the store, playing nothing",
        description="The report of an experiment from the rows already stored (an experiment "
        "file, or --name of one the store knows).",
    )
    report.add_argument("experiment", nargs="?", metavar="EXPERIMENT.toml")
    report.add_argument("--name", help="an experiment the store knows")
    report.add_argument("--seeds", type=int, help="report this many seeds per cell")
    _output_arguments(report)
    repeat = what.add_parser(
        "repeat",
        help="replay one stored run from its row and check it gives the same row",
        description="Replay a run from its stored row (kind, config, seed) and compare metrics.",
    )
    repeat.add_argument("key", metavar="KEY", help="the run's key (or its first characters)")
    repeat.add_argument("--db", default=DEFAULT_DB, help=f"the store (default {DEFAULT_DB})")
    mod = what.add_parser(
        "mod",
        help="check a mod folder and list what it changes",
        description="Load the rules tables with a mod folder layered over them; list the rows "
        "it adds and changes, or the first mistake (file, row, field).",
    )
    mod.add_argument("folder", metavar="DIR")


def _output_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--db", help=f"the store (default: EXPERIMENT.sqlite beside the file, else {DEFAULT_DB})"
    )
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument("--csv", metavar="FILE", help="write one line per run to FILE")
    parser.add_argument("--no-charts", action="store_true", help="tables only")


def _fail(message: str, code: int = 2) -> int:
    print(f"mac-tui lab: {message}", file=sys.stderr)
    return code


def main(args: argparse.Namespace) -> int:
    from ..extras import LAB_DASK_MODULES, missing_extra

    if getattr(args, "scheduler", None) and (
        message := missing_extra("mac-tui lab run --scheduler", "lab", LAB_DASK_MODULES)
    ):
        return _fail(message)
    from ..catalog import DataError
    from .experiment import ExperimentError
    from .store import StoreError

    try:
        if args.lab_command == "run":
            return cmd_run(args)
        if args.lab_command == "report":
            return cmd_report(args)
        if args.lab_command == "repeat":
            return cmd_repeat(args)
        return cmd_mod(Path(args.folder))
    except (ExperimentError, StoreError) as exc:
        return _fail(str(exc))
    except DataError as exc:
        return _fail(f"the rules data is broken: {exc}")


def _experiment(args: argparse.Namespace) -> Any:
    from .experiment import ExperimentError, from_flags, load, with_seeds

    if args.experiment:
        flags = [f for f in ("kind", "name", "set", "axis", "data") if getattr(args, f, None)]
        if flags:
            raise ExperimentError(f"give an experiment file or --{flags[0]} flags, not both")
        experiment = load(Path(args.experiment))
    else:
        experiment = from_flags(
            kind=args.kind or "battle",
            name=args.name or "lab",
            seeds=10,
            first_seed=1,
            settings=args.set,
            axes=args.axis,
            data=args.data,
        )
    if getattr(args, "seed", None) is not None:
        from attrs import evolve

        experiment = evolve(experiment, first_seed=args.seed)
    return with_seeds(experiment, args.seeds)


def _db(args: argparse.Namespace) -> Path:
    if args.db:
        return Path(args.db)
    if getattr(args, "experiment", None):
        return Path(args.experiment).with_suffix(".sqlite")
    return Path(DEFAULT_DB)


def cmd_run(args: argparse.Namespace) -> int:
    from ..players.duelreport import progress_bar
    from .executors import execute, pending
    from .store import Store

    if args.jobs is not None and args.jobs < 1:
        return _fail("--jobs must be at least 1")
    if args.scheduler and args.jobs is not None:
        return _fail("give --jobs or --scheduler, not both")
    experiment = _experiment(args)
    runs = experiment.runs()
    jobs = args.jobs or len(os.sched_getaffinity(0))
    with Store(_db(args)) as store:
        store.save_experiment(experiment.name, experiment.to_json())
        todo = len(pending(runs, store))
        show = not args.json and sys.stderr.isatty()
        unit = "battles" if experiment.kind == "battle" else "campaigns"
        with progress_bar(todo, experiment.name, show=show, unit=unit) as advance:
            try:
                played = execute(runs, store, jobs=jobs, scheduler=args.scheduler, progress=advance)
            except OSError as exc:  # the scheduler cannot be reached (in 20 s)
                return _fail(f"cannot reach the scheduler {args.scheduler}: {exc}", 1)
        if not args.json:
            where = f"on {args.scheduler}" if args.scheduler else f"with {jobs} job(s)"
            print(
                f"played {played} run(s) {where}; {len(runs) - played} already stored "
                f"in {store.path}",
                file=sys.stderr,
            )
        return _output(args, experiment, runs, store)


def cmd_report(args: argparse.Namespace) -> int:
    from .experiment import ExperimentError, from_json, with_seeds
    from .store import Store

    db = _db(args)
    if not db.exists():
        return _fail(f"{db}: no such store (run the experiment first)")
    with Store(db) as store:
        if args.experiment:
            experiment = _experiment(args)
        else:
            known = store.experiments()
            name = args.name or (next(iter(known)) if len(known) == 1 else None)
            if name not in known:
                names = ", ".join(known) or "none"
                raise ExperimentError(f"name the experiment with --name (the store has: {names})")
            experiment = with_seeds(from_json(known[name]), args.seeds)
        return _output(args, experiment, experiment.runs(), store)


def _output(args: argparse.Namespace, experiment: Any, runs: list[Any], store: Any) -> int:
    from .report import print_report, summarise, to_csv

    rows = store.rows([r.key for r in runs])
    if args.csv:
        Path(args.csv).write_text(to_csv(experiment, runs, rows), encoding="utf-8")
    doc = summarise(experiment, runs, rows)
    if args.json:
        print(json.dumps(doc, indent=1))
    else:
        print_report(doc, charts=not args.no_charts)
    return 0


def cmd_repeat(args: argparse.Namespace) -> int:
    from .runs import play
    from .store import Store

    db = Path(args.db)
    if not db.exists():
        return _fail(f"{db}: no such store")
    with Store(db) as store:
        found = store.row(args.key)
    if len(found) != 1:
        return _fail(f"{len(found)} stored runs have a key starting {args.key!r}: give more of it")
    row = found[0]
    from ..ruleset import RulesetError

    try:
        done = play(row["kind"], row["config"], row["seed"], row["key"])
    except RulesetError as exc:  # a row of optional rules this version cannot play
        return _fail(f"{row['key']}: rules {row['config'].get('rules')!r}: {exc}")
    same = dict(done.metrics) == row["metrics"]
    config = ", ".join(f"{k}={v}" for k, v in sorted(row["config"].items()))
    print(f"{row['key']}: {row['kind']} seed {row['seed']} ({config})")
    print("same metrics as the stored row" if same else "DIFFERENT metrics from the stored row")
    if not same:
        print(json.dumps({"stored": row["metrics"], "now": done.metrics}, indent=1))
    return 0 if same else 1


def cmd_mod(folder: Path) -> int:
    from ..catalog import installed_catalog, load_catalog

    base = installed_catalog()
    modded = load_catalog(mods=[folder])
    print(f"{folder}: the mod loads and passes every check")
    for table in ("weapons", "chassis", "equipment", "loadouts"):
        old, new = getattr(base, table), getattr(modded, table)
        added = [k for k in new if k not in old]
        changed = [k for k in new if k in old and new[k] != old[k]]
        if added or changed:
            listed = (", ".join(names) or "none" for names in (added, changed))
            print(f"  {table}: added {next(listed)}; changed {next(listed)}")
    return 0
