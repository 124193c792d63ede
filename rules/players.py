"""Simulated players. They choose among the legal moves and see only what
their seat may see (:meth:`State.observation`), never the hidden state."""

from __future__ import annotations

import random
from typing import Callable, Sequence

from rules.core import Game, Move, State, hook

POLICIES = ("random", "heuristic", "mixed")
#: the policies one seat can play ("mixed" is a table of them: seat 0 heuristic, the rest random).
SEAT_POLICIES = ("random", "heuristic")


def seat_policies(spec: str, num_players: int) -> tuple[str, ...]:
    """The policy of each seat from ``--policy``: one name for every seat ("heuristic"; "mixed"
    is seat 0 heuristic and the others random) or one per seat, comma-separated
    ("heuristic,random"). Raises ValueError with a sentence naming what is wrong.

    >>> seat_policies("heuristic,random", 2), seat_policies("mixed", 3)
    (('heuristic', 'random'), ('heuristic', 'random', 'random'))
    """
    names = [n.strip() for n in spec.split(",")]
    if len(names) == 1:
        name = names[0]
        if name not in POLICIES:
            raise ValueError(f"unknown policy {name!r} (known: {', '.join(POLICIES)})")
        if name == "mixed":
            return ("heuristic",) + ("random",) * (num_players - 1)
        return (name,) * num_players
    for name in names:
        if name not in SEAT_POLICIES:
            raise ValueError(f"unknown seat policy {name!r} (one per seat from: {', '.join(SEAT_POLICIES)})")
    if len(names) != num_players:
        raise ValueError(f"{len(names)} policies for {num_players} seats: give one name, or one per seat")
    return tuple(names)


def _seat_policy(policy: str | Sequence[str], seat: int) -> str:
    """The policy ``seat`` plays under ``policy`` (a table-wide name, or one name per seat)."""
    if not isinstance(policy, str):
        return policy[seat]
    if policy == "mixed":  # seat 0 thinks, the others play at random
        return "heuristic" if seat == 0 else "random"
    return policy


def choose(game: Game, state: State, policy: str | Sequence[str], rng: random.Random) -> Move:
    """A move for ``state.current_player()``, or for one of :meth:`State.deciders` when several
    seats may decide (the seat is then :meth:`State.player_of` the move). Forfeit is never chosen.

    ``policy`` is one of :data:`POLICIES` for the whole table, or one of :data:`SEAT_POLICIES` per
    seat. When several seats may decide, the seat that acts is picked by the game's heuristic when
    any of them thinks, else at random."""
    per_seat = None if isinstance(policy, str) else tuple(policy)
    seat = state.current_player()
    assert seat is not None, "the game is over"
    deciders = state.deciders()
    heuristic: Callable[..., Move] | None = hook(game, "heuristic_move")
    if len(deciders) <= 1 and (heuristic is None or _seat_policy(policy, seat) == "random"):
        return rng.choice(state.choice_moves())  # a lazy list builds only the move picked
    moves = list(state.choice_moves())
    if len(deciders) > 1:  # each seat weighs only its own moves, seeing only its own view
        by_seat = {s: [m for m in moves if state.player_of(m) == s] for s in deciders}
        by_seat = {s: ms for s, ms in by_seat.items() if ms}
        if not by_seat:
            return rng.choice(moves)
        pick_seat: Callable[..., int] | None = hook(game, "heuristic_seat")
        thinks = (policy in ("heuristic", "mixed") if per_seat is None
                  else any(per_seat[s] == "heuristic" for s in by_seat))
        if thinks and pick_seat is not None:
            seat = pick_seat({s: (state.observation(s), ms) for s, ms in by_seat.items()}, rng)
        else:
            seat = rng.choice(sorted(by_seat))
        moves = by_seat[seat]
    if _seat_policy(policy, seat) == "heuristic" and heuristic is not None:
        return heuristic(state.observation(seat), moves, rng)
    return rng.choice(moves)
