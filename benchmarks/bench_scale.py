"""Scale: play and validate many games per game, with 1 and N jobs, in constant memory.

    python benchmarks/bench_scale.py [--games 100000] [--jobs N] [--game GAME ...] [--policy random]

For each game, each job count: ``--games`` games played (``rules.players``, the given policy)
and each transcript validated (``validate_data``, as ``tts-builder validate`` does), streamed
through :func:`tts_builder.parallel.ordered_map` exactly as the commands stream their work: a
bounded window of batches, results in order, nothing kept but counts. Printed per run:

* games per CPU-second (this process plus its workers: ``os.times`` counts reaped children) and
  per wall second (the shared machine's neighbours show in this one, not in the first);
* peak memory: the largest resident set of this process and of any worker, after a tenth of
  the games and at the end; "flat" when the end is within 10% (+8 MB) of the tenth;
* the projected cost of a million games: CPU-hours, and wall hours at this machine's N jobs.

A run with ``--scheduler tcp://host:8786`` sends the same work to a Dask cluster instead of the
N local jobs (its workers' CPU is not counted here: the wall figure is the one to read).
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import rules  # noqa: E402
from tts_builder.parallel import default_jobs, ordered_map  # noqa: E402
from tts_builder.simulate import play_game  # noqa: E402
from tts_builder.validate import validate_data  # noqa: E402

MILLION = 1_000_000


def play_and_validate(job: tuple[str, int, str]) -> tuple[int, bool]:
    """One game played then validated; (moves, legal). Module-level so workers can run it."""
    game_id, seed, policy = job
    transcript = play_game(game_id, seed, policy=policy)
    report = validate_data(transcript, f"{game_id}-{seed}")
    return report.moves_total, report.legal


def _peak_mb() -> tuple[float, float]:
    """(this process, the largest reaped worker) peak resident set in MB (Linux reports KB)."""
    scale = 1024 * 1024 if sys.platform == "darwin" else 1024
    return (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / scale,
            resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / scale)


def _current_mb() -> float:
    """This process's resident set now (Linux), else its peak."""
    try:
        with open("/proc/self/statm") as fh:
            return int(fh.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except OSError:
        return _peak_mb()[0]


def run(game_id: str, games: int, jobs: int, policy: str, scheduler: str | None) -> dict[str, Any]:
    cpu0, wall0, times0 = time.process_time(), time.perf_counter(), os.times()
    moves = illegal = 0
    tenth_mb = 0.0
    work = ((game_id, seed, policy) for seed in range(games))
    for i, (n, legal) in enumerate(ordered_map(play_and_validate, work, jobs, total=games,
                                               scheduler=scheduler), 1):
        moves += n
        illegal += not legal
        if i == max(1, games // 10):
            tenth_mb = _current_mb()
    end_mb = _current_mb()
    times1 = os.times()
    wall = time.perf_counter() - wall0
    cpu = time.process_time() - cpu0
    cpu += (times1.children_user - times0.children_user) + (times1.children_system - times0.children_system)
    return {"game": game_id, "jobs": "dask" if scheduler else jobs, "games": games, "moves": moves,
            "illegal": illegal, "cpu": cpu, "wall": wall, "tenth_mb": tenth_mb, "end_mb": end_mb,
            "worker_peak_mb": _peak_mb()[1]}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100_000)
    parser.add_argument("--jobs", type=int, default=default_jobs(), help="the N of the second run")
    parser.add_argument("--game", action="append", help="a registered game (default: every one)")
    parser.add_argument("--policy", default="random")
    parser.add_argument("--scheduler", help="also run on this Dask cluster")
    args = parser.parse_args(argv)
    game_ids = args.game or rules.game_ids()
    print(f"{args.games:,} games per game, policy {args.policy}, played and validated; "
          f"1 job and {args.jobs} jobs ({os.cpu_count()} cores here)")
    header = (f"{'game':16} {'jobs':>4} {'moves':>10} {'games/CPU-s':>11} {'games/s':>9} "
              f"{'RSS@10% MB':>10} {'RSS@end MB':>10} {'flat':>4} {'worker MB':>9} {'1M: CPU-h':>9} {'1M: wall-h':>10}")
    print(header)
    print("-" * len(header))
    failed = False
    for game_id in game_ids:
        runs = [(1, None), (args.jobs, None)] + ([(0, args.scheduler)] if args.scheduler else [])
        for jobs, scheduler in runs:
            r = run(game_id, args.games, jobs, args.policy, scheduler)
            flat = r["end_mb"] <= r["tenth_mb"] * 1.10 + 8
            failed |= not flat or r["illegal"] > 0
            per_cpu = r["games"] / r["cpu"] if r["cpu"] else float("inf")
            per_wall = r["games"] / r["wall"]
            print(f"{game_id:16} {str(r['jobs']):>4} {r['moves']:>10,} {per_cpu:>11,.0f} {per_wall:>9,.0f} "
                  f"{r['tenth_mb']:>10.1f} {r['end_mb']:>10.1f} {'yes' if flat else 'NO':>4} "
                  f"{r['worker_peak_mb'] if jobs > 1 else 0:>9.1f} "
                  f"{MILLION / per_cpu / 3600:>9.2f} {MILLION / per_wall / 3600:>10.2f}", flush=True)
            if r["illegal"]:
                print(f"  {r['illegal']} simulated games judged illegal: an engine bug", flush=True)
    print("flat: resident memory at the end within 10% (+8 MB) of that after a tenth of the games; "
          "worker MB: the largest peak of any worker process so far; 1M: a million games at this run's rate")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
