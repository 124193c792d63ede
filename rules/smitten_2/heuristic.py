"""A simple player for Smitten 2, seeing only its own seat's view.

The hidden cards (the partner's hand, face-down cards, the deck, the set-aside card) are
guessed a few times from the cards not in view (determinization). On each guess the move is
made and the turn played out as well as the partner could: a move after which the instruction
can still be carried out (and the next turn has a play) scores high, one that loses scores
lowest, a win highest; then, the more of the decider's own cards fit somewhere, the better.
Ties at random. Who takes the turn (two players) is the seat whose best move scores highest,
as "I can play" / "I don't want to play" would tell the table.
"""

from __future__ import annotations

import random
from typing import Iterator

from rules.core import JSONDict, Move
from rules.smitten_2.engine import CARDS, SmittenState

#: guesses of the hidden cards per move
SAMPLES = 4
#: follow-phase moves searched at most per guess (the instruction has a few steps)
SEARCH_LIMIT = 200


#: the state data's lists of cards or values, and its lists of such lists (what :func:`_fork` copies)
_LISTS = ("down", "deck", "set_aside", "steps", "placed_grids")
_NESTED = ("grids", "hands")


def _fork(s: JSONDict) -> JSONDict:
    """A copy of state data ``s`` that :meth:`SmittenState.make` may change without changing ``s``:
    its lists (:data:`_LISTS`) and lists of lists (:data:`_NESTED`) are copied; the rest is shared:
    scalars, and dicts (options, setup, the instruction steps, end), which the engine only ever
    replaces, never changes in place."""
    t = s.copy()
    for key in _NESTED:
        a, b = s[key]
        t[key] = [a[:], b[:]]
    for key in _LISTS:
        t[key] = s[key][:]
    return t


def _follow_moves(state: SmittenState) -> Iterator[Move]:
    """:meth:`SmittenState._progress_moves`, in its order, each checked only when reached."""
    ok = state._candidate_check()
    for move in state._candidates():
        if ok(move):
            yield move


class _View:
    """One seat's observation, read once for all of a choice's guesses: the cards not in view and
    the visible state data."""

    def __init__(self, obs: JSONDict):
        self.obs = obs
        self.seat = int(obs.get("seat", 0))
        seen = {c for g in obs["grids"] for c in g} | {c for h in obs["hands"] for c in h} | set(obs["down"]) \
            | set(obs["set_aside"]) | set(obs["deck"])
        self.pool = [c for c in CARDS if c not in seen]
        base = {k: v for k, v in obs.items() if k != "seat"}
        base["setup"] = {}
        self.base = base

    def guess(self, rng: random.Random) -> SmittenState:
        """The observation with each hidden "?" replaced by a card not in view."""
        pool = self.pool[:]
        rng.shuffle(pool)
        obs = self.obs
        s = _fork(self.base)
        # the card lists with hidden cards are dealt in this order
        s["hands"] = [[pool.pop() if c == "?" else c for c in hand] for hand in obs["hands"]]
        for key in ("down", "set_aside", "deck"):
            s[key] = [pool.pop() if c == "?" else c for c in obs[key]]
        return SmittenState(s)


def _guess(obs: JSONDict, rng: random.Random) -> SmittenState:
    """The observation with each hidden "?" replaced by a card not in view."""
    return _View(obs).guess(rng)


def _turn_survives(state: SmittenState, budget: list[int]) -> bool:
    """Can the instruction under way be carried out (by the best choices) without losing?"""
    s = state.s
    end = s.get("end")
    if end is not None:
        return bool(end["won"])
    if s["phase"] != "follow":
        return True
    for move in _follow_moves(state):
        if budget[0] <= 0:
            return True  # searched long enough: assume the partner finds a way
        budget[0] -= 1
        trial = SmittenState(_fork(s))
        trial.make(move)  # listed legal: made without checking it again
        if _turn_survives(trial, budget):
            return True
    return False


def _score_view(view: _View, move: Move, rng: random.Random) -> float:
    total = 0.0
    seat = view.seat
    for _ in range(SAMPLES):
        trial = view.guess(rng)
        trial.make(move)  # legal here as in the real game: a guess changes no card in the mover's view
        end = trial.s.get("end")
        if end is not None:
            total += 1000.0 if end["won"] else -1000.0
            continue
        total += 0.0 if _turn_survives(trial, [SEARCH_LIMIT]) else -500.0
        own = [0, 1] if trial.solo else [seat]
        total += sum(trial._position_fault(card, g, h) is None for h in own for card in trial.s["hands"][h]
                     for g in (0, 1)) + trial.placed()
    return total / SAMPLES


def _score(obs: JSONDict, move: Move, rng: random.Random) -> float:
    """The move's score from ``obs``: the mean over :data:`SAMPLES` guesses."""
    return _score_view(_View(obs), move, rng)


def choose(obs: JSONDict, moves: list[Move], rng: random.Random) -> Move:
    view = _View(obs)
    scored = [(_score_view(view, m, rng), m) for m in moves]
    best = max(score for score, _ in scored)
    return rng.choice([m for score, m in scored if score == best])


def choose_seat(views: dict[int, tuple[JSONDict, list[Move]]], rng: random.Random) -> int:
    best: dict[int, float] = {}
    for seat, (obs, moves) in sorted(views.items()):
        view = _View(obs)
        best[seat] = max(_score_view(view, m, rng) for m in moves)
    top = max(best.values())
    return rng.choice([seat for seat, score in best.items() if score == top])
