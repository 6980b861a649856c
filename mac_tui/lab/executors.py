"""Who plays the runs: this process (`jobs=1`), a local process pool (`jobs=N`) or a Dask
distributed cluster (`scheduler="tcp://HOST:8786"`). Runs go out in chunks (`play_chunk`)
and come back as `Done` rows in any order; the rows are the same whichever executor played
them, because each run is a pure function of its (kind, config, seed)."""

from __future__ import annotations

import multiprocessing
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor, as_completed

from .experiment import Run
from .runs import Done, Job, play_chunk
from .store import Store

Progress = Callable[[int, int], None]
#: The most runs one task carries (fewer when there are few runs per worker).
MAX_CHUNK = 8
#: Tasks per worker, so the slowest chunk does not hold up the end of a sweep.
TASKS_PER_WORKER = 4
DASK_MODULES = ("dask", "distributed")


def pending(runs: Sequence[Run], store: Store) -> list[Run]:
    """The runs without a row yet, each key once, in the experiment's order."""
    done = store.done_keys(r.key for r in runs)
    out: dict[str, Run] = {}
    for run in runs:
        if run.key not in done and run.key not in out:
            out[run.key] = run
    return list(out.values())


def chunks(runs: Sequence[Run], workers: int) -> list[list[Job]]:
    size = max(1, min(MAX_CHUNK, len(runs) // max(1, workers * TASKS_PER_WORKER)))
    jobs: list[Job] = [(r.kind, r.config, r.seed, r.key) for r in runs]
    return [jobs[i : i + size] for i in range(0, len(jobs), size)]


def execute(
    runs: Sequence[Run],
    store: Store,
    *,
    jobs: int = 1,
    scheduler: str | None = None,
    progress: Progress | None = None,
) -> int:
    """Play every run of `runs` the store has no row for, writing each row as it comes;
    returns how many were played (0 for a finished sweep)."""
    todo = pending(runs, store)
    if not todo:
        return 0
    if scheduler is not None:
        stream = _dask(todo, scheduler)
    elif jobs <= 1 or len(todo) == 1:
        stream = (d for chunk in chunks(todo, 1) for d in play_chunk(chunk))
    else:
        stream = _pool(todo, jobs)
    count = 0
    for done in stream:
        store.add(done)
        count += 1
        if progress is not None:
            progress(count, len(todo))
    store.db.commit()
    return count


def _pool(todo: Sequence[Run], jobs: int) -> Iterator[Done]:
    context = multiprocessing.get_context("spawn")
    parts = chunks(todo, jobs)
    with ProcessPoolExecutor(min(jobs, len(parts)), mp_context=context) as pool:
        futures = [pool.submit(play_chunk, part) for part in parts]
        try:
            for future in as_completed(futures):
                yield from future.result()
        except BaseException:
            for f in futures:
                f.cancel()
            raise


def _dask(todo: Sequence[Run], scheduler: str) -> Iterator[Done]:
    from distributed import Client
    from distributed import as_completed as dask_completed

    with Client(scheduler, set_as_default=False, timeout="20s") as client:  # type: ignore[no-untyped-call]
        workers = sum(client.nthreads().values()) or 1
        futures = client.map(play_chunk, chunks(todo, workers), pure=False)
        try:
            for future in dask_completed(futures, loop=client.loop):  # type: ignore[no-untyped-call]
                yield from future.result()
        except BaseException:
            client.cancel(futures)
            raise
