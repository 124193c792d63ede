"""The button game's solo Hint under Lua 5.2: VM instructions per search and per
frame slice (the table runs the search as a coroutine that yields every few positions),
on dealt positions, checked against the Python solver's move.

    python benchmarks/bench_obren_hint.py [--positions N] [--bound B]
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

import rules
from rules.obren_buttons import GAME
from rules.obren_buttons.solver import hint
from tts_builder.agreement import LuaEngine

STEPPER = """
local Rules, state, bound = ...
local co = coroutine.create(function() return Rules.hint(state, bound, coroutine.yield) end)
return function()
  local ok, move = coroutine.resume(co)
  assert(ok, move)
  if coroutine.status(co) == "dead" then return true, move end
  return false
end
"""


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=40)
    parser.add_argument("--bound", type=int, default=GAME.data["mod"]["hint_bound"])
    args = parser.parse_args()
    lua = LuaEngine(GAME.id)
    step_chunk = lua.sandbox.runtime.compile(STEPPER)
    totals, slices, worst_slice, found = [], [], 0, 0
    start = time.perf_counter()
    for seed in range(args.positions):
        goal = "four-lines" if seed % 4 == 0 else "two-lines"
        deal = "solvable" if seed % 2 else "random"
        state = GAME.new_state(seed=seed, options={"goal": goal, "deal": deal, "deal_bound": args.bound},
                               num_players=1)
        stepper = step_chunk(lua.rules, lua.sandbox.to_lua(json.loads(rules.canonical_json(state.to_json()))),
                             args.bound)
        total, n = 0, 0
        while True:
            out = lua.sandbox.call(stepper, budget=10**12)
            total += lua.sandbox.last_instructions
            worst_slice = max(worst_slice, lua.sandbox.last_instructions)
            n += 1
            done, move = out if isinstance(out, tuple) else (out, None)
            if done:
                break
        got = lua.sandbox.from_lua(move, empty_as="dict") if move is not None else None
        assert got == hint(state, args.bound), seed
        found += got is not None
        totals.append(total)
        slices.append(n)
    elapsed = time.perf_counter() - start
    print(f"bound {args.bound}: {args.positions} positions ({found} with a hint), {elapsed:.1f} s; "
          f"instructions per search mean {statistics.fmean(totals):,.0f}, max {max(totals):,}; "
          f"slices (frames) mean {statistics.fmean(slices):,.0f}, max {max(slices):,}; "
          f"instructions per slice max {worst_slice:,}")


if __name__ == "__main__":
    main()
