"""``--jobs N``: independent pieces of work (a game to simulate, a file to validate, a game to
check against Lua) spread over worker processes, their results handed back in input order so
the output is the same, byte for byte, as with one job."""

from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Callable, Generator, Sequence, TypeVar

T = TypeVar("T")
R = TypeVar("R")


def default_jobs() -> int:
    """The machine's cores (the CPUs this process may run on, where the system says)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def check_jobs(jobs: int | None) -> int:
    """``jobs`` or the default; ValueError naming ``--jobs`` when it is below 1."""
    if jobs is None:
        return default_jobs()
    if jobs < 1:
        raise ValueError(f"--jobs must be at least 1, not {jobs}")
    return jobs


class WorkerDied(RuntimeError):
    """A worker process ended without handing back its result (killed, out of memory)."""


def ordered_map(func: Callable[[T], R], items: Sequence[T], jobs: int = 1) -> Generator[R, None, None]:
    """``func`` over ``items``, results in the order of ``items``; in this process when one job
    (or one item) is enough, else in ``jobs`` worker processes. ``func`` must be a module-level
    function and items and results picklable. Closing the iterator early (a disagreement found)
    cancels the work not yet started; a worker that dies raises :class:`WorkerDied` (a plain
    ``multiprocessing.Pool`` would wait for its result forever)."""
    if jobs <= 1 or len(items) <= 1:
        yield from map(func, items)
        return
    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    workers = min(jobs, len(items))
    # small chunks keep the results flowing in order (progress, early stop) at little cost
    chunk = max(1, len(items) // (workers * 16))
    pool = ProcessPoolExecutor(workers, mp_context=context)
    try:
        try:
            yield from pool.map(func, items, chunksize=chunk)
        except BrokenProcessPool:
            raise WorkerDied(f"a worker process of --jobs {jobs} ended without finishing its work "
                             "(killed?); run again, or with --jobs 1") from None
    finally:
        pool.shutdown(wait=True, cancel_futures=True)
