"""Designer runs at engine speed (issue 24): the command line end to end against the engine alone.

    python benchmarks/bench_runs.py [--rounds 3] [--moves 300000] [--game GAME ...]

Per game (default seat count and options, ``--policy random``), in each of ``--rounds`` interleaved
rounds (every game's four figures, then the next round, so the machine's neighbours fall on all
of them alike), moves per CPU-second of:

* ``engine play``: random playouts in this process, as ``benchmarks/bench_speed.py`` measures
  them (a new state per seed, the simulated player's random pick, apply);
* ``cli simulate``: ``tts-builder simulate GAME --policy random --out RUN.zip --jobs 1 --quiet``
  in a fresh interpreter, its CPU time whole (start-up, setup, playing, writing the run file,
  the report and its chart), counted through ``os.times`` of the reaped child;
* ``engine validate``: :func:`tts_builder.validate.validate_data` on transcripts in memory;
* ``cli validate``: ``tts-builder validate RUN.zip --jobs 1 --quiet`` (reading, decompressing
  and parsing the run file included), its output thrown away.

Each run plays about ``--moves`` moves (games = moves / the game's mean length), so start-up is
paid as a designer pays it on a run of that size. Printed: the medians, the two ratios
(simulation's goal 0.70, validation's 0.50) and the run file's bytes per game with what a
million games would take (bytes per game x 10^6; the stream's compression is per run, so the
per-game figure of a longer run is the same or smaller).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

sys.path.insert(0, str(Path(__file__).resolve().parent))

import rules  # noqa: E402
from bench_speed import _playout_rate, _validate_rate  # noqa: E402
from tts_builder.simulate import play_game  # noqa: E402

GOALS = {"simulate": 0.70, "validate": 0.50}
MILLION = 1_000_000


def engine_play(game_id: str, seconds: float) -> float:
    """Random playouts, moves per CPU-second: ``bench_speed.py``'s figure, the same code."""
    return float(_playout_rate(game_id, seconds))


def engine_validate(transcripts: list[dict[str, Any]], seconds: float) -> float:
    """``validate_data`` on transcripts in memory, moves per CPU-second: ``bench_speed.py``'s figure."""
    return float(_validate_rate(transcripts[0]["game"], transcripts, seconds))


def cli_cpu(argv: list[str]) -> float:
    """CPU-seconds (user + system) of ``tts-builder ARGV`` in a fresh interpreter."""
    before = os.times()
    proc = subprocess.run([sys.executable, "-m", "tts_builder", *argv], cwd=ROOT, stdout=subprocess.DEVNULL,
                          stderr=subprocess.PIPE, text=True, check=False)
    after = os.times()
    if proc.returncode != 0:
        sys.exit(f"tts-builder {' '.join(argv)} failed: {proc.stderr.strip()}")
    return (after.children_user - before.children_user) + (after.children_system - before.children_system)


def mean_length(game_id: str) -> float:
    return statistics.fmean(len(play_game(game_id, seed, policy="random")["moves"]) for seed in range(30))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--moves", type=int, default=300_000, help="moves per run (games = moves / mean length)")
    parser.add_argument("--game", action="append", help="a registered game (default: every one)")
    args = parser.parse_args(argv)
    game_ids = args.game or rules.game_ids()
    sizes = {g: max(10, round(args.moves / mean_length(g))) for g in game_ids}
    figures: dict[str, dict[str, list[float]]] = {g: {k: [] for k in ("ep", "cs", "ev", "cv")} for g in game_ids}
    run_bytes: dict[str, int] = {}
    moves_of: dict[str, int] = {}
    samples: dict[str, list[dict[str, Any]]] = {}
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(args.rounds):
            for game_id in game_ids:
                run = Path(tmp) / f"{game_id}-{r}.zip"
                games = sizes[game_id]
                cpu = cli_cpu(["simulate", game_id, "--games", str(games), "--policy", "random", "--out", str(run),
                               "--jobs", "1", "--quiet", "--json"])
                if game_id not in moves_of:  # the same seeds every round: the same moves
                    transcripts = [play_game(game_id, s, policy="random") for s in range(games)]
                    moves_of[game_id] = sum(len(t["moves"]) for t in transcripts)
                    samples[game_id] = transcripts[:200]
                    run_bytes[game_id] = run.stat().st_size
                moves = moves_of[game_id]
                figures[game_id]["cs"].append(moves / cpu)
                seconds = max(0.5, cpu)
                figures[game_id]["ep"].append(engine_play(game_id, seconds))
                figures[game_id]["cv"].append(moves / cli_cpu(["validate", str(run), "--jobs", "1", "--quiet"]))
                figures[game_id]["ev"].append(engine_validate(samples[game_id], seconds))
                run.unlink()
                (run.with_suffix(".svg")).unlink(missing_ok=True)
                (run.with_suffix(".png")).unlink(missing_ok=True)
    print(f"{args.rounds} interleaved rounds, medians, moves per CPU-second; --policy random, --jobs 1, "
          f"runs of about {args.moves:,} moves written to RUN.zip")
    head = (f"{'game':16} {'games':>6} {'engine play':>11} {'cli sim':>9} {'ratio':>6} {'engine val':>10} "
            f"{'cli val':>9} {'ratio':>6} {'B/game':>7} {'1M games':>9}")
    print(head)
    print("-" * len(head))
    ok = True
    for game_id in game_ids:
        f = {k: statistics.median(v) for k, v in figures[game_id].items()}
        sim, val = f["cs"] / f["ep"], f["cv"] / f["ev"]
        ok &= sim >= GOALS["simulate"] and val >= GOALS["validate"]
        per_game = run_bytes[game_id] / sizes[game_id]
        print(f"{game_id:16} {sizes[game_id]:>6} {f['ep']:>11,.0f} {f['cs']:>9,.0f} {sim:>6.2f} {f['ev']:>10,.0f} "
              f"{f['cv']:>9,.0f} {val:>6.2f} {per_game:>7.0f} {per_game * MILLION / 2**20:>6.0f} MB")
    print(f"goals: simulation ratio >= {GOALS['simulate']:.2f}, validation ratio >= {GOALS['validate']:.2f}: "
          f"{'met' if ok else 'NOT met'} for every game; 1M games: the run file's bytes per game x 10^6")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
