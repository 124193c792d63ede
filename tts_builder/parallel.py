"""``--jobs N`` and ``--scheduler ADDRESS``: independent pieces of work (a game to simulate, a
file to validate, a game to check against Lua) spread over worker processes on this machine, or
over the workers of a Dask cluster, their results handed back in input order so the output is
the same, byte for byte, as with one job.

Work is sent in batches through a bounded window: at most a few batches per worker are in
flight, so a million items take no more memory than a thousand, results keep flowing in order
(progress, early stop) and a stop cancels only what was queued.
"""

from __future__ import annotations

import itertools
import os
from collections import deque
from typing import TYPE_CHECKING, Any, Callable, Generator, Iterable, Iterator, Sequence, TypeVar

from tts_builder.errors import InputError

if TYPE_CHECKING:
    from concurrent.futures import Future

T = TypeVar("T")
R = TypeVar("R")

#: batches in flight per worker: enough to keep every worker busy while the head is collected
WINDOW_PER_WORKER = 4


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


def run_batch(func: Callable[[T], R], batch: Sequence[T]) -> list[R]:
    """``func`` over one batch, in a worker (module-level so it pickles)."""
    return [func(item) for item in batch]


def _batches(items: Iterable[T], size: int) -> Iterator[list[T]]:
    it = iter(items)
    while batch := list(itertools.islice(it, size)):
        yield batch


def batch_size(total: int | None, workers: int) -> int:
    """Items per batch: small enough that results flow steadily (16 batches per worker when the
    total is known), large enough that sending a batch costs little beside running it.

    >>> batch_size(100, 2), batch_size(1_000_000, 2), batch_size(None, 4)
    (3, 64, 16)
    """
    if total is None:
        return 16
    return max(1, min(64, total // (workers * 16)))


def _windowed(submit: Callable[[list[T]], Any], result_of: Callable[[Any], list[R]],
              cancel: Callable[[Any], None], batches: Iterator[list[T]], window: int) -> Generator[R, None, None]:
    """Submit ``batches`` keeping at most ``window`` in flight; yield their results in order."""
    pending: deque[Any] = deque()
    try:
        for batch in batches:
            pending.append(submit(batch))
            if len(pending) >= window:
                yield from result_of(pending.popleft())
        while pending:
            yield from result_of(pending.popleft())
    finally:
        for future in pending:  # a stop (a disagreement found, an error) drops the queued work
            cancel(future)


def ordered_map(func: Callable[[T], R], items: Iterable[T], jobs: int = 1, *,
                scheduler: str | None = None, total: int | None = None) -> Generator[R, None, None]:
    """``func`` over ``items``, results in the order of ``items``: in this process when one job
    is enough, in ``jobs`` worker processes, or on the Dask cluster at ``scheduler``. ``func``
    must be a module-level function and items and results picklable; ``items`` is consumed
    lazily (give ``total`` when known, for the batch size). Closing the iterator early cancels
    the work not yet started; a worker that dies raises :class:`WorkerDied` (a plain
    ``multiprocessing.Pool`` would wait for its result forever).

    >>> list(ordered_map(abs, [-3, 1, -2], jobs=1))
    [3, 1, 2]
    """
    if total is None and isinstance(items, Sequence):
        total = len(items)
    if scheduler is not None:
        yield from _dask_map(func, items, scheduler, total)
        return
    if jobs <= 1 or (total is not None and total <= 1):
        yield from map(func, items)
        return
    # imported here: one job (and every command's start) needs no process pool
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor
    from concurrent.futures.process import BrokenProcessPool

    methods = multiprocessing.get_all_start_methods()
    context = multiprocessing.get_context("fork" if "fork" in methods else "spawn")
    workers = jobs if total is None else min(jobs, total)
    pool = ProcessPoolExecutor(workers, mp_context=context)

    def result_of(future: Future[list[R]]) -> list[R]:
        try:
            return future.result()
        except BrokenProcessPool:
            raise WorkerDied(f"a worker process of --jobs {jobs} ended without finishing its work "
                             "(killed?); run again, or with --jobs 1") from None

    try:
        yield from _windowed(lambda batch: pool.submit(run_batch, func, batch), result_of,
                             lambda future: future.cancel(),
                             _batches(items, batch_size(total, workers)), workers * WINDOW_PER_WORKER)
    finally:
        pool.shutdown(wait=True, cancel_futures=True)


# -- Dask -------------------------------------------------------------------

#: how long to wait for a scheduler before saying it cannot be reached
CONNECT_TIMEOUT = "10s"


def check_scheduler(address: str | None) -> str | None:
    """``--scheduler`` as given, or InputError when it is not a scheduler address or Dask's
    distributed package is missing."""
    if address is None:
        return None
    if "://" not in address or not address.split("://", 1)[1]:
        raise InputError(f"--scheduler {address}: expected a Dask scheduler address such as tcp://host:8786")
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise InputError("--scheduler needs Dask's distributed package: pip install 'tts-builder[dask]'") from None
    return address


def _connect(address: str) -> Any:
    from distributed import Client

    try:
        return Client(address, timeout=CONNECT_TIMEOUT, set_as_default=False)
    except (OSError, TimeoutError) as exc:
        raise InputError(f"--scheduler {address}: cannot connect ({exc})") from None
    except ValueError as exc:  # an unknown protocol
        raise InputError(f"--scheduler {address}: {exc}") from None


def _dask_map(func: Callable[[T], R], items: Iterable[T], address: str,
              total: int | None) -> Generator[R, None, None]:
    """:func:`ordered_map` on a Dask cluster: batches submitted through the same window, each a
    task whose result comes back to this process (workers need not share its folders)."""
    from distributed import KilledWorker

    client = _connect(address)
    try:
        workers = max(1, sum(client.nthreads().values()))

        def result_of(future: Any) -> list[R]:
            try:
                result: list[R] = future.result()
                return result
            except KilledWorker:
                raise WorkerDied(f"a worker of the Dask cluster at {address} died running this work "
                                 "(out of memory? tts-builder not installed there?)") from None

        yield from _windowed(lambda batch: client.submit(run_batch, func, batch, pure=False), result_of,
                             lambda future: future.cancel(),
                             _batches(items, batch_size(total, workers)), workers * WINDOW_PER_WORKER)
    finally:
        client.close()
