"""benchmarks/bench_balance.py: every seat count measured, and the 45-55% criterion read on the
decided games (a draw is no side's win)."""

from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "benchmarks" / "bench_balance.py"


def test_every_seat_count_is_measured_and_judged_on_decided_games() -> None:
    run = subprocess.run([sys.executable, str(BENCH), "--games", "2", "--game", "twin-tower-city", "--json"],
                         capture_output=True, text=True, check=True, timeout=300)
    lines = [json.loads(line) for line in run.stdout.splitlines()]
    assert sorted({(d["players"], d["policy"]) for d in lines}) == [
        (n, p) for n in (2, 4, 6) for p in ("heuristic", "random")]
    for d in lines:
        sides = d["report"]["sides"]
        decided = sum(s["wins"] for s in sides)
        for s in sides:
            share = d["decided"][s["side"]]
            assert share["decided"] == decided
            assert share["rate"] == (s["wins"] / decided if decided else None)
            assert share["ok"] == (share["rate"] is not None and 0.45 <= share["rate"] <= 0.55)


def test_a_side_with_draws_aside_is_judged_on_the_decided_games() -> None:
    sys.path.insert(0, str(BENCH.parent))
    try:
        from bench_balance import decided_shares
    finally:
        sys.path.remove(str(BENCH.parent))
    report = {"sides": [{"side": "dark", "wins": 47, "rate": 0.47}, {"side": "light", "wins": 48, "rate": 0.48}]}
    shares = decided_shares(report)  # 5 draws: 47 and 48 of 100 games, 49.5% and 50.5% of the decided 95
    assert shares["dark"]["decided"] == 95 and round(shares["dark"]["rate"], 4) == 0.4947
    assert shares["dark"]["ok"] and shares["light"]["ok"]
    lopsided = decided_shares({"sides": [{"side": "dark", "wins": 60}, {"side": "light", "wins": 35}]})
    assert not lopsided["dark"]["ok"] and not lopsided["light"]["ok"]


README = BENCH.parent.parent / "README.md"
#: a row of the README's Twin Tower City balance table: players, games, draws, Dark and Light of decided
_ROW = re.compile(r"^\| (\d)(?: \(teams\))? \| (\d+) \| [\d.]+% \| ([\d.]+)% \[([\d.]+)-([\d.]+)\] \| "
                  r"([\d.]+)% \[([\d.]+)-([\d.]+)\] \| (.+) \|$", re.M)


def test_the_readme_balance_table_covers_every_seat_count_and_its_verdicts_follow_the_figures() -> None:
    """The README's Twin Tower City balance table: a row per seat count the game has, at least 800
    games each (400 seeds, both seatings), the two sides' shares of the decided games adding up to
    100%, each inside its interval, and 'met' exactly when both shares are within 45-55%."""
    import rules

    rows = _ROW.findall(README.read_text(encoding="utf-8"))
    assert [int(r[0]) for r in rows] == list(rules.get_game("twin-tower-city").seat_counts())
    for players, games, dark, dark_lo, dark_hi, light, light_lo, light_hi, verdict in rows:
        d, l = float(dark), float(light)
        assert int(games) >= 800, players
        assert abs(d + l - 100) < 0.15, players
        assert float(dark_lo) <= d <= float(dark_hi) and float(light_lo) <= l <= float(light_hi), players
        met = 45 <= d <= 55 and 45 <= l <= 55
        assert verdict.startswith("met") == met, (players, verdict)
