"""Generated Lua rules under Lua 5.2: VM instructions per rules check (the TTS
frame budget: aim well under 20,000) and agreement-check throughput.

    python benchmarks/bench_lua.py [--games N]
"""

from __future__ import annotations

import argparse
import statistics
import time

import rules
from tts_builder.agreement import check_lua
from tts_builder.luagen import has_template


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=100)
    args = parser.parse_args()
    print(f"{'game':18} {'checks':>8} {'checks/s':>9} {'instr mean':>10} {'p99':>7} {'max':>7}")
    for game_id in rules.game_ids():
        if not has_template(game_id, "rules.lua.j2"):
            print(f"{game_id:18} (no Lua rules yet)")
            continue
        start = time.perf_counter()
        report = check_lua(game_id, args.games, 7)
        elapsed = time.perf_counter() - start
        assert report.agree, report.summary()
        ins = sorted(report.instructions)
        p99 = ins[int(len(ins) * 0.99)]
        print(f"{game_id:18} {report.checks:8,} {report.checks / elapsed:9,.0f} "
              f"{statistics.fmean(ins):10,.0f} {p99:7,} {ins[-1]:7,}")


if __name__ == "__main__":
    main()
