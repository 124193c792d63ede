"""Side balance of every game under mirrored policies, seats swapped: the simulation report's win
rates per side (per seat where a game has no sides) with 95% Wilson intervals, so a change to the
cards or the rules shows its effect on balance.

Each seed is played once per value of the option that decides which side seat 0 plays (the game's
``side_option``; games without sides are reported per seat), with the same policy at every seat, first all heuristic, then all random:
a seat's own advantage cancels out of the side figures. Every seat count the game has is measured
(Twin Tower City 2, and teams of 4 and 6) unless ``--players`` names one.

The balance criterion (issues 13 and 23) is on decided games: a side is ``ok`` when its share of
the games that were not drawn is within 45-55% (a draw is neither side's win; with ~5% draws a
side's share of all games cannot reach 50%). Each side line shows its share of all games with the
95% Wilson interval, then its share of the decided games.

    python benchmarks/bench_balance.py [--games N] [--game ID ...] [--players N] [--options JSON] [--json]

CPU seconds (``time.process_time``) are printed per game and policy; figures depend only on the
seeds, not on the machine.
"""

from __future__ import annotations

import argparse
import json
import time
from typing import Any

import rules
from tts_builder.report import build_report, wilson
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


def decided_shares(report: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """Each side's share of the decided (not drawn) games, with its 95% Wilson interval and
    whether it meets the 45-55% criterion: {side: {"wins", "decided", "rate", "low", "high", "ok"}}."""
    sides = report.get("sides") or []
    decided = sum(int(s["wins"]) for s in sides)
    out: dict[str, dict[str, Any]] = {}
    for s in sides:
        wins = int(s["wins"])
        rate = wins / decided if decided else None
        low, high = wilson(wins, decided)
        out[str(s["side"])] = {"wins": wins, "decided": decided, "rate": rate, "low": round(low, 6),
                               "high": round(high, 6),
                               "ok": rate is not None and TARGET[0] <= rate <= TARGET[1]}
    return out


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
        game = rules.get_game(game_id)
        for players in [args.players] if args.players else list(game.seat_counts()):
            for policy in POLICIES:
                _print_one(game_id, policy, args.games, args.seed, players, options, args.json)


def _print_one(game_id: str, policy: str, games: int, seed: int, players: int,
               options: dict[str, Any] | None, as_json: bool) -> None:
    """One game, seat count and policy: its report as a JSON line or as text."""
    report = balance(game_id, policy, games, seed, players, options)
    decided = decided_shares(report)
    if as_json:
        print(json.dumps({"game": game_id, "players": players, "policy": policy, "report": report,
                          "decided": decided}, sort_keys=True))
        return
    side_option = rules.get_game(game_id).side_option
    swapped = f", {side_option} swapped" if side_option else ""
    seats = "/".join(map(str, report["seat_counts"]))
    print(f"{game_id}, {seats} players, all {policy}{swapped}: "
          f"{report['games']} games, {report['cpu_seconds']:.1f} CPU s, "
          f"mean length {report['length']['mean']}")
    for label, r in rows(report):
        tail = ""
        share = decided.get(label[len("side "):]) if label.startswith("side ") else None
        if share is not None and share["rate"] is not None:
            tail = (f"  of decided {100 * share['rate']:5.1f}%  [{100 * share['low']:.1f}% - {100 * share['high']:.1f}%]"
                    + ("  ok" if share["ok"] else "  outside 45-55%"))
        print(f"  {label:<14} {100 * r['rate']:5.1f}%  [{100 * r['low']:.1f}% - {100 * r['high']:.1f}%]{tail}")
    if "draws" in report:
        print(f"  {'draws':<14} {100 * report['draws']['rate']:5.1f}%")
    if "first_player" in report:
        f = report["first_player"]["first"]
        print(f"  {'first player':<14} {100 * f['rate']:5.1f}%  [{100 * f['low']:.1f}% - {100 * f['high']:.1f}%]")


if __name__ == "__main__":
    main()
