"""Speed of the rules, ``validate`` and ``check-lua`` per CPU-second, against the goals of issue 12.

    python benchmarks/bench_speed.py [--rounds N] [--seconds S] [--against GIT_REF]

Per registered game (default seat count and options) three figures, each the median of
``--rounds`` rounds, each round spending about ``--seconds`` CPU-seconds per figure:

* ``playout``: random playouts (the simulated player's random pick plus apply), moves per CPU-second;
* ``validate``: :func:`tts_builder.validate.validate_data` on random-policy transcripts,
  moves per CPU-second;
* ``check-lua``: the ``check-lua`` command's work in one process (:func:`tts_builder.agreement.check_lua`,
  12 games a unit: play, both engines judging each move and its mutants, states compared), checks
  per CPU-second.

CPU time is ``time.process_time`` of the measuring process (the Lua VM runs in it too), so the
other programs sharing the machine do not count. Each round runs in a fresh interpreter.

With ``--against REF`` the tree at git ``REF`` (``git archive``) is measured in the same run,
its rounds interleaved with this tree's, and the table shows both and the speed-up. When RLCard
is installed (``pip install -e '.[bench]'``) each round also plays RLCard's bare Uno game
(``rlcard.games.uno.game.UnoGame``, no environment wrapper): random playouts, and a replay of
recorded actions checking each against the legal actions (the work of a validator); the
table gives our figure over Uno's.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from gitref import export_tree
from typing import Any

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent

#: the goals of issue 12, per CPU-second, for every game.
GOALS = {"playout": 40_000, "validate": 150_000}
#: check-lua's goal is relative: this many times the checks per second of the tree before issue 12.
CHECK_LUA_FACTOR = 3.0
TRANSCRIPTS = 40
#: games per check-lua unit (the command's default is 100)
CHECK_LUA_GAMES = 12
UNO_MAX_MOVES = 2_000


# -- the work, run inside a worker interpreter (whichever tree is on sys.path) -----------------

def _cpu_loop(seconds: float, step: Any) -> tuple[int, float]:
    """Call ``step()`` (returns a count) until ``seconds`` CPU-seconds are spent."""
    done = 0
    start = time.process_time()
    while True:
        done += step()
        spent = time.process_time() - start
        if spent >= seconds:
            return done, spent


def _playout_rate(game_id: str, seconds: float) -> float:
    """Random playouts as ``simulate --policy random`` plays them: the simulated player's pick
    (:func:`rules.players.choose`; since issue 12 it builds only the picked move where a game lists
    its moves lazily), then apply. Trees before and after make the same call."""
    import rules
    from rules.players import choose
    game = rules.get_game(game_id)
    seeds = iter(range(10**9))

    def one() -> int:
        seed = next(seeds)
        state = game.new_state(seed=seed)
        rng = random.Random(seed)
        n = 0
        while not state.is_terminal():
            state.apply(choose(game, state, "random", rng))
            n += 1
        return n

    done, spent = _cpu_loop(seconds, one)
    return done / spent


def _transcripts(game_id: str) -> list[dict[str, Any]]:
    from tts_builder.simulate import play_game
    return [play_game(game_id, seed, policy="random") for seed in range(TRANSCRIPTS)]


def _validate_rate(game_id: str, transcripts: list[dict[str, Any]], seconds: float) -> float:
    from tts_builder.validate import validate_data
    cycle = itertools.cycle(transcripts)

    def one() -> int:
        report = validate_data(next(cycle), "bench")
        assert report.legal, report.summary()
        return int(report.moves_checked)

    done, spent = _cpu_loop(seconds, one)
    return done / spent


def _check_lua_rate(game_id: str, seconds: float) -> float | None:
    """The ``check-lua`` command's work in one process (games played, both engines judging every
    move and its mutants, states compared), from loading the Lua rules on."""
    from tts_builder import agreement
    from tts_builder.luagen import has_template
    if not has_template(game_id, "rules.lua.j2"):
        return None
    seeds = itertools.count(0, CHECK_LUA_GAMES)

    def one() -> int:
        getattr(agreement, "_ENGINES", {}).clear()  # each unit loads the rules, as the command does
        report = agreement.check_lua(game_id, CHECK_LUA_GAMES, next(seeds))
        assert report.agree, report.summary()
        return int(report.checks)

    done, spent = _cpu_loop(seconds, one)
    return done / spent


def _uno_rates(seconds: float) -> dict[str, float] | None:
    try:
        from rlcard.games.uno.game import UnoGame
    except ImportError:
        return None
    import numpy as np

    def playout(seed: int, actions: list[str] | None = None) -> int:
        game = UnoGame(num_players=2)
        game.np_random = np.random.RandomState(seed)
        game.init_game()
        rng = random.Random(seed)
        n = 0
        while not game.is_over() and n < UNO_MAX_MOVES:
            action = rng.choice(game.get_legal_actions())
            if actions is not None:
                actions.append(action)
            game.step(action)
            n += 1
        return n

    def replay(seed: int, actions: list[str]) -> int:
        game = UnoGame(num_players=2)
        game.np_random = np.random.RandomState(seed)
        game.init_game()
        for action in actions:
            assert action in game.get_legal_actions()
            game.step(action)
        return len(actions)

    seeds = iter(range(10**9))
    play_done, play_spent = _cpu_loop(seconds, lambda: playout(next(seeds)))
    recorded = []
    for seed in range(TRANSCRIPTS):
        actions: list[str] = []
        playout(seed, actions)
        recorded.append((seed, actions))
    cycle = itertools.cycle(recorded)
    val_done, val_spent = _cpu_loop(seconds, lambda: replay(*next(cycle)))
    return {"playout": play_done / play_spent, "validate": val_done / val_spent}


def worker(seconds: float, with_uno: bool) -> dict[str, Any]:
    """One round in this interpreter: every figure of every game (and Uno)."""
    import rules
    out: dict[str, Any] = {"tree": str(Path(rules.__file__).resolve().parent.parent), "games": {}}
    for game_id in rules.game_ids():
        transcripts = _transcripts(game_id)
        out["games"][game_id] = {
            "playout": _playout_rate(game_id, seconds),
            "validate": _validate_rate(game_id, transcripts, seconds),
            "check-lua": _check_lua_rate(game_id, seconds),
        }
    if with_uno:
        out["uno"] = _uno_rates(seconds)
    return out


# -- the driver --------------------------------------------------------------------------

def _round(tree: Path, seconds: float, with_uno: bool) -> dict[str, Any]:
    env = dict(os.environ, PYTHONPATH=str(tree), PYTHONHASHSEED="0")
    proc = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--worker", "--seconds", str(seconds)]
                          + (["--uno"] if with_uno else []),
                          cwd=tree, env=env, capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        sys.exit(f"benchmark round in {tree} failed:\n{proc.stderr}")
    data: dict[str, Any] = json.loads(proc.stdout)
    if Path(data["tree"]) != tree.resolve():
        sys.exit(f"benchmark round meant for {tree} imported the rules from {data['tree']}")
    return data


def _median(rounds: list[dict[str, Any]], game: str, figure: str) -> float | None:
    values = [r["games"][game][figure] for r in rounds if r["games"].get(game, {}).get(figure) is not None]
    return statistics.median(values) if values else None


def _fmt(x: float | None) -> str:
    return "-" if x is None else f"{x:,.0f}"


def report(now: list[dict[str, Any]], before: list[dict[str, Any]] | None) -> list[str]:
    uno_rounds = [r["uno"] for r in now if r.get("uno")]
    uno = {k: statistics.median(u[k] for u in uno_rounds) for k in ("playout", "validate")} if uno_rounds else None
    lines = [f"{len(now)} rounds, medians, per CPU-second"
             + (f"; before = {before[0]['ref']}" if before else "")]
    head = f"{'game':18} {'figure':10} {'now':>10}"
    if before:
        head += f" {'before':>10} {'x':>6}"
    head += f" {'goal':>10} {'met':>4}"
    if uno:
        head += f" {'/ Uno':>7}"
    lines.append(head)
    games = list(now[0]["games"])
    for game in games:
        for figure in ("playout", "validate", "check-lua"):
            value = _median(now, game, figure)
            if value is None:
                continue
            old = _median(before, game, figure) if before else None
            goal: float | None = GOALS.get(figure)
            if figure == "check-lua" and old is not None:
                goal = CHECK_LUA_FACTOR * old
            line = f"{game:18} {figure:10} {_fmt(value):>10}"
            if before:
                line += f" {_fmt(old):>10} {(f'{value / old:.2f}' if old else '-'):>6}"
            line += f" {_fmt(goal):>10} {('-' if goal is None else 'yes' if value >= goal else 'NO'):>4}"
            if uno:
                line += f" {(f'{value / uno[figure]:.2f}' if figure in uno else '-'):>7}"
            lines.append(line)
    if uno:
        lines.append(f"{'RLCard Uno':18} {'playout':10} {_fmt(uno['playout']):>10}")
        lines.append(f"{'RLCard Uno':18} {'validate':10} {_fmt(uno['validate']):>10}")
    else:
        lines.append("RLCard not installed (pip install -e '.[bench]'): no Uno comparison")
    if not before:
        lines.append(f"check-lua's goal ({CHECK_LUA_FACTOR:g}x the checks per second before issue 12) "
                     "needs --against REF")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="interleaved rounds (median of them)")
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU-seconds per figure per round")
    parser.add_argument("--against", metavar="GIT_REF", help="also measure the tree at this git ref, interleaved")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--uno", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.worker:
        print(json.dumps(worker(args.seconds, args.uno)))
        return
    with tempfile.TemporaryDirectory(prefix="bench-speed-") as tmp:
        old_tree = export_tree(args.against, Path(tmp)) if args.against else None
        now: list[dict[str, Any]] = []
        before: list[dict[str, Any]] = []
        for i in range(args.rounds):
            order = [("now", ROOT), ("before", old_tree)] if old_tree else [("now", ROOT)]
            if i % 2:
                order.reverse()
            for label, tree in order:
                assert tree is not None
                data = _round(tree, args.seconds, with_uno=label == "now")
                (now if label == "now" else before).append(data)
                print(f"round {i + 1}/{args.rounds} {label} done", file=sys.stderr, flush=True)
        if before:
            before[0]["ref"] = args.against
        print("\n".join(report(now, before or None)))


if __name__ == "__main__":
    main()
