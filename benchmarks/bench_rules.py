"""Rules-engine speed per registered game: random playouts and validation.

    python benchmarks/bench_rules.py [--games N] [--seconds S]

Prints, per game: random-playout moves per second (legal-move enumeration plus
apply, the work a simulation does) and validation moves per second (check plus
apply of recorded moves, the work ``tts-builder validate`` does).
"""

from __future__ import annotations

import argparse
import random
import time

import rules
from rules.core import Move
from tts_builder.simulate import play_game
from tts_builder.validate import validate_data


def bench_playouts(game_id: str, seconds: float) -> tuple[int, float]:
    game = rules.get_game(game_id)
    moves = 0
    seed = 0
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        while not state.is_terminal():
            legal: list[Move] = [m for m in state.legal_moves() if m["type"] != "forfeit"]
            state.apply(rng.choice(legal))
            moves += 1
        seed += 1
    return moves, time.perf_counter() - start


def bench_validation(game_id: str, games: int) -> tuple[int, float]:
    transcripts = [play_game(game_id, seed, policy="random") for seed in range(games)]
    start = time.perf_counter()
    moves = 0
    for t in transcripts:
        report = validate_data(t, "bench")
        assert report.legal
        moves += report.moves_checked
    return moves, time.perf_counter() - start


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="transcripts to validate per game")
    parser.add_argument("--seconds", type=float, default=2.0, help="playout time per game")
    args = parser.parse_args()
    print(f"{'game':18} {'playout moves/s':>16} {'validate moves/s':>17}")
    for game_id in rules.game_ids():
        pm, pt = bench_playouts(game_id, args.seconds)
        vm, vt = bench_validation(game_id, args.games)
        print(f"{game_id:18} {pm / pt:16,.0f} {vm / vt:17,.0f}")


if __name__ == "__main__":
    main()
