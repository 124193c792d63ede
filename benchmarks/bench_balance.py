"""Side balance of every game under mirrored policies, seats swapped: the simulation report's win
rates per side (per seat where a game has no sides) with 95% Wilson intervals, so a change to the
cards or the rules shows its effect on balance.

Each seed is played once per value of the option that decides which side seat 0 plays (the game's
``side_option``; games without sides are reported per seat), with the same policy at every seat, first all heuristic, then all random:
a seat's own advantage cancels out of the side figures. A side within 45-55% is marked ``ok``
(the target of issue 13 for Twin Tower City's generated deck).

    python benchmarks/bench_balance.py [--games N] [--game ID ...] [--players N] [--options JSON] [--json]

``--players 4`` measures a game's team variant (Twin Tower City with 4 or 6 players).

CPU seconds (``time.process_time``) are printed per game and policy; figures depend only on the
seeds, not on the machine.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import rules
from tts_builder.report import build_report
from tts_builder.simulate import play_game, variants

POLICIES = ("heuristic", "random")
TARGET = (0.45, 0.55)


def balance(game_id: str, policy: str, games: int, seed: int = 0, players: int | None = None,
            options: dict[str, Any] | None = None) -> dict[str, Any]:
    """The report over ``games`` seeds of ``game_id``, each played with every side option value."""
    plays = variants(game_id, policy, options, players, vary=rules.get_game(game_id).side_option)
    start = time.process_time()
    transcripts = [play_game(game_id, seed + i, policy=spec, options=opts, num_players=players)
                   for i in range(games) for spec, opts in plays]
    report = build_report(transcripts)
    report["cpu_seconds"] = round(time.process_time() - start, 3)
    return report


def rows(report: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    """The figures a balance line shows: sides, else seats, else the table's success."""
    if "sides" in report:
        return [(f"side {s['side']}", s) for s in report["sides"]]
    if "seats" in report:
        return [(f"seat {s['seat']}", s) for s in report["seats"]]
    return [("table wins", report["table"])] if "table" in report else []


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100, help="seeds per game and policy (default 100)")
    parser.add_argument("--game", action="append", help="only this game (repeatable; default every game)")
    parser.add_argument("--players", type=int, help="seat count (default: each game's default)")
    parser.add_argument("--options", help="game options as a JSON object")
    parser.add_argument("--seed", type=int, default=0, help="the first seed (default 0)")
    parser.add_argument("--json", action="store_true", help="one JSON object per game and policy")
    args = parser.parse_args()
    options = json.loads(args.options) if args.options else None
    ids = args.game or [g.id for g in rules.all_games()]
    for game_id in ids:
        for policy in POLICIES:
            report = balance(game_id, policy, args.games, args.seed, args.players, options)
            if args.json:
                print(json.dumps({"game": game_id, "policy": policy, "report": report}, sort_keys=True))
                continue
            side_option = rules.get_game(game_id).side_option
            swapped = f", {side_option} swapped" if side_option else ""
            seats = "/".join(map(str, report["seat_counts"]))
            print(f"{game_id}, {seats} players, all {policy}{swapped}: "
                  f"{report['games']} games, {report['cpu_seconds']:.1f} CPU s, "
                  f"mean length {report['length']['mean']}")
            for label, r in rows(report):
                mark = ""
                if label.startswith("side") and r["rate"] is not None:
                    mark = "  ok" if TARGET[0] <= r["rate"] <= TARGET[1] else "  outside 45-55%"
                print(f"  {label:<14} {100 * r['rate']:5.1f}%  [{100 * r['low']:.1f}% - {100 * r['high']:.1f}%]{mark}")
            if "draws" in report:
                print(f"  {'draws':<14} {100 * report['draws']['rate']:5.1f}%")
            if "first_player" in report:
                f = report["first_player"]["first"]
                print(f"  {'first player':<14} {100 * f['rate']:5.1f}%  [{100 * f['low']:.1f}% - {100 * f['high']:.1f}%]")


if __name__ == "__main__":
    main()
