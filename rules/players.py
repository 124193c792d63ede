"""Simulated players. They choose among the legal moves and see only what
their seat may see (:meth:`State.observation`), never the hidden state."""

from __future__ import annotations

import random
from typing import Callable

from rules.core import Game, Move, State

POLICIES = ("random", "heuristic", "mixed")


def choose(game: Game, state: State, policy: str, rng: random.Random) -> Move:
    """A move for ``state.current_player()``. Forfeit is never chosen."""
    seat = state.current_player()
    assert seat is not None, "the game is over"
    moves = [m for m in state.legal_moves() if m.get("type") != "forfeit"]
    if policy == "mixed":  # seat 0 thinks, the others play at random
        policy = "heuristic" if seat == 0 else "random"
    heuristic: Callable[..., Move] | None = getattr(game, "heuristic_move", None)
    if policy == "heuristic" and heuristic is not None:
        return heuristic(state.observation(seat), moves, rng)
    return rng.choice(moves)
