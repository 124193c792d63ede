"""Twin Tower City balance: each side's win rate under mirrored simulated play.

    python benchmarks/bench_ttc_balance.py [--games N] [--seed S] [--policy heuristic,random]
                                           [--players 2,4] [--options JSON] [--jobs J] [--json]

For every policy (both sides play it) and seat count, each seed is played twice with the
sides swapped (option ``seat0_side`` light, then dark): the same deal and coin, so a seat's
or a starting player's advantage cancels and what is left is the cards'. Prints per side
the win rate with its 95% Wilson interval, the draws, the win rate of the side that plays
the second card first in round 1, and whether both sides are within the balance target the
generated deck is tuned to (``balance_target`` in ``rules/twin_tower_city/deck.json``,
assumption TTC-18). Self-contained; needs only the project installed.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rules.twin_tower_city.cards import SIDES, load_deck_data  # noqa: E402
from rules.players import POLICIES  # noqa: E402
from tts_builder.errors import InputError  # noqa: E402
from tts_builder.parallel import ordered_map  # noqa: E402
from tts_builder.simulate import check_settings, play_game  # noqa: E402

GAME = "twin-tower-city"


def wilson(successes: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95% for z = 1.96) of a binomial proportion.

    >>> lo, hi = wilson(50, 100)
    >>> round(lo, 3), round(hi, 3)
    (0.404, 0.596)
    """
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / denom
    return max(0.0, centre - half), min(1.0, centre + half)


def _cpu() -> float:
    """CPU seconds of this process and its finished worker processes."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def _play(job: tuple[int, str, str, int, dict[str, Any]]) -> tuple[str | None, str]:
    """(winning side or None, side that played the second card first in round 1) of one game."""
    seed, policy, seat0_side, players, options = job
    t = play_game(GAME, seed, policy=policy, options={**options, "seat0_side": seat0_side}, num_players=players)
    sides = t["result"]["sides"]
    return t["result"]["winning_side"], sides[t["setup"]["coin"]]


def measure(policy: str, players: int, games: int, seed: int, jobs: int = 1,
            options: dict[str, Any] | None = None) -> dict[str, Any]:
    """``games`` seeds from ``seed``, each played with the sides swapped: 2 x games games."""
    work = [(s, policy, first, players, dict(options or {}))
            for s in range(seed, seed + games) for first in ("light", "dark")]
    start = _cpu()
    outcomes = list(ordered_map(_play, work, jobs))
    cpu = _cpu() - start
    n = len(outcomes)
    wins = {side: sum(1 for w, _ in outcomes if w == side) for side in SIDES}
    starter_wins = sum(1 for w, starter in outcomes if w == starter)
    row: dict[str, Any] = {"policy": policy, "players": players, "games": n, "draws": n - sum(wins.values()),
                           "first_seed": seed, "cpu_seconds": round(cpu, 2)}
    for side in SIDES:
        lo, hi = wilson(wins[side], n)
        row[side] = {"wins": wins[side], "rate": round(wins[side] / n, 4), "ci95": [round(lo, 4), round(hi, 4)]}
    lo, hi = wilson(starter_wins, n)
    row["starting_side"] = {"wins": starter_wins, "rate": round(starter_wins / n, 4), "ci95": [round(lo, 4), round(hi, 4)]}
    return row


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=1000,
                        help="seeds per policy and seat count; each is played twice, sides swapped (default 1000)")
    parser.add_argument("--seed", type=int, default=1, help="first seed (default 1)")
    parser.add_argument("--policy", default="heuristic,random", help="comma-separated policies (default heuristic,random)")
    parser.add_argument("--players", default="2,4", help="comma-separated seat counts (default 2,4: duel and teams)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--options", default="{}", help="game options as JSON, e.g. '{\"no_bonuses\": true}'")
    parser.add_argument("--json", action="store_true", help="one JSON object on stdout instead of the table")
    args = parser.parse_args(argv)
    target = load_deck_data().get("balance_target", {"min_win_rate": 0.45, "max_win_rate": 0.55})
    lo_t, hi_t = float(target["min_win_rate"]), float(target["max_win_rate"])
    try:
        options = json.loads(args.options)
        players_list = [int(n) for n in args.players.split(",")]
    except ValueError as exc:
        parser.error(f"--options is JSON and --players comma-separated numbers: {exc}")
    policies = args.policy.split(",")
    if not isinstance(options, dict) or args.games < 1 or not set(policies) <= set(POLICIES):
        parser.error(f"--options is a JSON object, --games at least 1, --policy among {', '.join(POLICIES)}")
    for players in players_list:
        try:
            check_settings(GAME, {**options, "seat0_side": "light"}, players)
        except InputError as exc:
            parser.error(str(exc))
    rows = []
    for policy in policies:
        for players in players_list:
            row = measure(policy, players, args.games, args.seed, args.jobs, options)
            row["on_target"] = all(lo_t <= row[side]["rate"] <= hi_t for side in SIDES)
            rows.append(row)
            if not args.json:
                _print_row(row)
    ok = all(r["on_target"] for r in rows)
    if args.json:
        print(json.dumps({"game": GAME, "options": options, "target": [lo_t, hi_t], "rows": rows, "on_target": ok}))
    else:
        print(f"target: each side wins {lo_t:.0%} to {hi_t:.0%} -> {'met' if ok else 'MISSED'}")
    return 0


def _print_row(row: dict[str, Any]) -> None:
    def pct(part: dict[str, Any]) -> str:
        lo, hi = part["ci95"]
        return f"{part['rate']:6.1%} [{lo:5.1%}, {hi:5.1%}]"
    print(f"{row['policy']:>9} {row['players']}p {row['games']:5d} games | dark {pct(row['dark'])} | "
          f"light {pct(row['light'])} | draws {row['draws']:4d} | starting side {pct(row['starting_side'])} | "
          f"{row['cpu_seconds']:.0f} cpu-s {'ok' if row['on_target'] else 'OFF TARGET'}", flush=True)


if __name__ == "__main__":
    raise SystemExit(main())
