"""Where ``check-lua``'s time goes, per CPU-second: the Lua side of one call a move split into its
steps (decoding the moves, the judgements, the move, the state's JSON, by ``os.clock`` inside the
call) and the cost of the harness's counting (``measure``/``budgeted`` against plain calls).

    python benchmarks/bench_check_lua_phases.py [--games N] [--rounds R] [GAME ...]

The timed copy of ``lua_templates/runtime/check.lua.j2`` is made by text replacement; the script
stops with a message when the template no longer has the lines it times.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from typing import Any

from tts_builder import agreement
from tts_builder.luagen import has_template, render

#: the lines of check.lua.j2 the timed copy wraps, and what it puts in their place
_TIMED = (
    ("return function(Rules, measure, limit, budgeted, coarse)",
     "T = {0, 0, 0, 0}\nreturn function(Rules, measure, limit, budgeted, coarse)"),
    ("    local moves = budgeted(coarse, decode, text)",
     "    local c0 = os.clock()\n    local moves = budgeted(coarse, decode, text)\n"
     "    local c1 = os.clock(); T[1] = T[1] + c1 - c0"),
    ("    budgeted(coarse, apply, s, moves[1])",
     "    local c2 = os.clock(); T[2] = T[2] + c2 - c1\n    budgeted(coarse, apply, s, moves[1])\n"
     "    local c3 = os.clock(); T[3] = T[3] + c3 - c2"),
    ("    local state = budgeted(coarse, json, s)",
     "    local state = budgeted(coarse, json, s)\n    T[4] = T[4] + os.clock() - c3"),
)
_PLAIN_MEASURE = "return function(l, f, a, b, c) return 0, f(a, b, c) end"
_PLAIN_BUDGETED = "return function(l, f, a, b, c) return f(a, b, c) end"


def _maker(kind: str) -> Any:
    """A LuaEngine.check_moves replacement: "timed" (the steps clocked) or "plain" (no counting)."""
    source = render("runtime/check.lua.j2", {})
    if kind == "timed":
        for old, new in _TIMED:
            if old not in source:
                sys.exit(f"check.lua.j2 no longer has the line {old.strip()!r}; update {__file__}")
            source = source.replace(old, new)

    def check_moves(self: agreement.LuaEngine) -> Any:
        fn = self.__dict__.get("_check_moves")
        if fn is None:
            sb = self.sandbox
            maker = sb.execute(source, "check.lua")
            if kind == "plain":
                fn = sb.call(maker, self.rules, sb.execute(_PLAIN_MEASURE, "measure"), 0,
                             sb.execute(_PLAIN_BUDGETED, "budgeted"), 0)
            else:
                fn = sb.call(maker, self.rules, sb.measure, sb.fire_limit(sb.default_budget), sb.budgeted,
                             sb.coarse_fire_limit(sb.default_budget))
            self.__dict__["_check_moves"] = fn
        return fn
    return check_moves


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("games_ids", nargs="*", default=["two-and-two", "two-by-two"], metavar="GAME")
    parser.add_argument("--games", type=int, default=12)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    original = agreement.LuaEngine.check_moves
    print(f"{'game':14} {'checks/s':>9} {'plain':>9} {'decode':>7} {'judge':>7} {'apply':>7} {'state':>7}"
          "   (Lua steps: share of CPU time)")
    try:
        for game_id in args.games_ids:
            if not has_template(game_id, "rules.lua.j2"):
                print(f"{game_id:14} (no Lua rules)")
                continue
            rates: dict[str, list[float]] = {"counted": [], "plain": [], "timed": []}
            shares: list[list[float]] = []
            for _ in range(args.rounds):  # interleaved, medians per CPU-second
                for kind in rates:
                    agreement.LuaEngine.check_moves = (  # type: ignore[method-assign]
                        original if kind == "counted" else _maker(kind))
                    agreement._ENGINES.clear()
                    start = time.process_time()
                    report = agreement.check_lua(game_id, args.games, 0)
                    spent = time.process_time() - start
                    assert report.agree, report.summary()
                    rates[kind].append(report.checks / spent)
                    if kind == "timed":
                        steps = agreement._ENGINES[game_id].sandbox.runtime.globals().T
                        shares.append([steps[i] / spent for i in (1, 2, 3, 4)])
            med = [statistics.median(s[i] for s in shares) for i in range(4)]
            print(f"{game_id:14} {statistics.median(rates['counted']):9.0f} {statistics.median(rates['plain']):9.0f} "
                  + " ".join(f"{m:7.1%}" for m in med))
    finally:
        agreement.LuaEngine.check_moves = original  # type: ignore[method-assign]


if __name__ == "__main__":
    main()
