"""Simulated players. They choose among the legal moves and see only what
their seat may see (:meth:`State.observation`), never the hidden state."""

from __future__ import annotations

import random
from typing import Callable

from rules.core import Game, Move, State

POLICIES = ("random", "heuristic", "mixed")


def choose(game: Game, state: State, policy: str, rng: random.Random) -> Move:
    """A move for ``state.current_player()``, or for one of :meth:`State.deciders` when several
    seats may decide (the seat is then :meth:`State.player_of` the move). Forfeit is never chosen."""
    seat = state.current_player()
    assert seat is not None, "the game is over"
    deciders = state.deciders()
    heuristic: Callable[..., Move] | None = getattr(game, "heuristic_move", None)
    if len(deciders) <= 1 and (policy == "random" or heuristic is None
                               or (policy == "mixed" and seat != 0)):
        return rng.choice(state.choice_moves())  # a lazy list builds only the move picked
    moves = list(state.choice_moves())
    if len(deciders) > 1:  # each seat weighs only its own moves, seeing only its own view
        by_seat = {s: [m for m in moves if state.player_of(m) == s] for s in deciders}
        by_seat = {s: ms for s, ms in by_seat.items() if ms}
        if not by_seat:
            return rng.choice(moves)
        pick_seat: Callable[..., int] | None = getattr(game, "heuristic_seat", None)
        if policy in ("heuristic", "mixed") and pick_seat is not None:
            seat = pick_seat({s: (state.observation(s), ms) for s, ms in by_seat.items()}, rng)
        else:
            seat = rng.choice(sorted(by_seat))
        moves = by_seat[seat]
    if policy == "mixed":  # seat 0 thinks, the others play at random
        policy = "heuristic" if seat == 0 else "random"
    if policy == "heuristic" and heuristic is not None:
        return heuristic(state.observation(seat), moves, rng)
    return rng.choice(moves)
