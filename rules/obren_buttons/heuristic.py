"""A simple player for Adam Obren's button game.

Duel: win at once when it can; otherwise keep the opponent from winning on
their next move (block their line, never hand them one); otherwise play at
random. Solo: take a move that meets the goal, else one that lowers the
solver's bound (:func:`rules.obren_buttons.solver.lower_bound`) the most, ties
at random.
"""

from __future__ import annotations

import random

from rules.core import JSONDict, Move
from rules.obren_buttons import board as B
from rules.obren_buttons.engine import ObrenState, _has_line


def _after(state: ObrenState, move: Move) -> ObrenState:
    """The position after ``move``, one of the legal moves listed for ``state`` (made, not checked again)."""
    nxt = ObrenState({**state.s, "board": list(state.s["board"]), "history": list(state.s["history"]),
                      "last_swap": list(state.s["last_swap"])})
    nxt.make(move)
    return nxt


def _wins_now(state: ObrenState, seat: int) -> bool:
    """Has ``seat`` a move that wins at once if it were their turn now?"""
    probe = ObrenState({**state.s, "turn": seat, "board": list(state.s["board"]), "history": [],
                        "last_swap": list(state.s["last_swap"]) if state.s["turn"] == seat else []})
    probe.s.pop("end", None)
    color = probe.color_of(seat)
    board = probe.s["board"]
    for move in probe.legal_moves():
        if move["type"] == "forfeit":
            continue
        trial = list(board)
        if move["type"] == "place":
            trial[B.CELL_INDEX[move["cell"]]] = move["button"]
        else:
            i, j = B.CELL_INDEX[move["from"]], B.CELL_INDEX[move["to"]]
            trial[i], trial[j] = trial[j], trial[i]
        if _has_line(trial, str(color)):
            return True
    return False


def choose(obs: JSONDict, moves: list[Move], rng: random.Random) -> Move:
    state = ObrenState({**obs, "setup": {}})
    moves = [m for m in moves if m["type"] != "forfeit"] or moves
    seat = int(state.s["turn"])
    if state.solo:
        from rules.obren_buttons.solver import _code, best_swaps, lower_bound
        goal = state.s["options"]["goal"]
        if all(m["type"] == "move" for m in moves):
            # the moves lowering the solver's bound the most, found without scoring every move
            cells = B.CELL_INDEX
            _, best = best_swaps(tuple(_code(n) for n in state.s["board"]), goal,
                                 [(cells[m["from"]], cells[m["to"]]) for m in moves])
            return rng.choice([moves[k] for k in best])
        scored = [(lower_bound(tuple(_code(n) for n in _after(state, m).s["board"]), goal), m) for m in moves]
        least = min(score for score, _ in scored)
        return rng.choice([m for score, m in scored if score == least])
    outcomes = [(m, _after(state, m)) for m in moves]
    wins = [m for m, after in outcomes if after.s.get("end", {}).get("winner") == seat]
    if wins:
        return rng.choice(wins)
    safe = [m for m, after in outcomes if "end" not in after.s or after.s["end"]["winner"] != 1 - seat]
    if _wins_now(state, 1 - seat):  # a threat: block it (checking every move always would be too slow)
        blocking = [m for m, after in outcomes if m in safe and not _wins_now(after, 1 - seat)]
        if blocking:
            return rng.choice(blocking)
    return rng.choice(safe or moves)
