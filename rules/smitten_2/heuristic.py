"""A simple player for Smitten 2, seeing only its own seat's view.

Each move is tried on the observation (hidden cards are "?"): a move that wins scores
highest, one that loses lowest; otherwise the more of the decider's own cards that still
fit somewhere afterwards, the better. Ties at random. Who takes the turn (duo) is the seat
whose best move scores highest, as "I can play / I want to play" would tell the table.
"""

from __future__ import annotations

import copy
import random

from rules.core import JSONDict, Move
from rules.smitten_2.engine import CARDS, SmittenState


def _score(obs: JSONDict, move: Move) -> float:
    trial = SmittenState(copy.deepcopy({**obs, "setup": {}}))
    try:
        trial.apply(move)
    except Exception:  # a hidden "?" card stands in the way: no estimate
        return 0.0
    end = trial.s.get("end")
    if end is not None:
        return 1000.0 if end["won"] else -1000.0
    seat = obs.get("seat", 0)
    own = [0, 1] if trial.solo else [seat]
    fits = 0
    for h in own:
        for card in trial.s["hands"][h]:
            if card in CARDS:
                fits += sum(trial._check_position(card, g, h).ok for g in (0, 1))
    return float(fits) + trial.placed()


def choose(obs: JSONDict, moves: list[Move], rng: random.Random) -> Move:
    scored = [(_score(obs, m), m) for m in moves]
    best = max(score for score, _ in scored)
    return rng.choice([m for score, m in scored if score == best])


def choose_seat(views: dict[int, tuple[JSONDict, list[Move]]], rng: random.Random) -> int:
    best: dict[int, float] = {seat: max(_score(obs, m) for m in moves) for seat, (obs, moves) in views.items()}
    top = max(best.values())
    return rng.choice(sorted(seat for seat, score in best.items() if score == top))
