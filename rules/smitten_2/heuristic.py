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
from typing import Any

from rules.core import JSONDict, Move, copy_json
from rules.smitten_2.engine import CARDS, SmittenState

#: guesses of the hidden cards per move
SAMPLES = 4
#: follow-phase moves searched at most per guess (the instruction has a few steps)
SEARCH_LIMIT = 200


def _guess(obs: JSONDict, rng: random.Random) -> SmittenState:
    """The observation with each hidden "?" replaced by a card not in view."""
    seen = {c for g in obs["grids"] for c in g} | {c for h in obs["hands"] for c in h} | set(obs["down"]) \
        | set(obs["set_aside"]) | set(obs["deck"])
    pool = [c for c in CARDS if c not in seen]
    rng.shuffle(pool)
    # the card lists with hidden cards are made anew (dealt in this order); the rest is copied
    dealt: dict[str, list[Any]] = {"hands": [[pool.pop() if c == "?" else c for c in hand]
                                             for hand in obs["hands"]]}
    for key in ("down", "set_aside", "deck"):
        dealt[key] = [pool.pop() if c == "?" else c for c in obs[key]]
    s = {k: dealt[k] if k in dealt else copy_json(v) for k, v in obs.items() if k != "seat"}
    s["setup"] = {}
    return SmittenState(s)


def _turn_survives(state: SmittenState, budget: list[int]) -> bool:
    """Can the instruction under way be carried out (by the best choices) without losing?"""
    end = state.s.get("end")
    if end is not None:
        return bool(end["won"])
    if state.s["phase"] != "follow":
        return True
    for move in state._progress_moves():
        if budget[0] <= 0:
            return True  # searched long enough: assume the partner finds a way
        budget[0] -= 1
        trial = SmittenState(copy_json(state.s))
        trial.make(move)  # listed legal: made without checking it again
        if _turn_survives(trial, budget):
            return True
    return False


def _score(obs: JSONDict, move: Move, rng: random.Random) -> float:
    total = 0.0
    seat = int(obs.get("seat", 0))
    for _ in range(SAMPLES):
        trial = _guess(obs, rng)
        trial.apply(move)
        end = trial.s.get("end")
        if end is not None:
            total += 1000.0 if end["won"] else -1000.0
            continue
        total += 0.0 if _turn_survives(trial, [SEARCH_LIMIT]) else -500.0
        own = [0, 1] if trial.solo else [seat]
        total += sum(trial._position_fault(card, g, h) is None for h in own for card in trial.s["hands"][h]
                     for g in (0, 1)) + trial.placed()
    return total / SAMPLES


def choose(obs: JSONDict, moves: list[Move], rng: random.Random) -> Move:
    scored = [(_score(obs, m, rng), m) for m in moves]
    best = max(score for score, _ in scored)
    return rng.choice([m for score, m in scored if score == best])


def choose_seat(views: dict[int, tuple[JSONDict, list[Move]]], rng: random.Random) -> int:
    best = {seat: max(_score(obs, m, rng) for m in moves) for seat, (obs, moves) in sorted(views.items())}
    top = max(best.values())
    return rng.choice([seat for seat, score in best.items() if score == top])
