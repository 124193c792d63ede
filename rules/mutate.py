"""Plausible wrong moves made from a legal one: the illegal inputs that the
invariant suite and ``tts-builder check-lua`` throw at both engines."""

from __future__ import annotations

import random
from typing import Any, Iterator

from rules.core import Move, State


def _strings(x: Any) -> Iterator[str]:
    if isinstance(x, str):
        yield x
    elif isinstance(x, dict):
        for v in x.values():
            yield from _strings(v)
    elif isinstance(x, list):
        for v in x:
            yield from _strings(v)


def mutants(move: Move, state: State, rng: random.Random, per_field: int = 4) -> Iterator[Any]:
    """Other values for each field (taken from the state, so ids are real),
    missing fields, a wrong type, an unknown move type and a non-object."""
    values = sorted({v for v in _strings(state.to_json()) if len(v) < 20})
    yield {**move, "type": "no-such-move"}
    yield "not a move"
    for key in sorted(move):
        if key == "type":
            continue
        yield {k: v for k, v in move.items() if k != key}
        for value in rng.sample(values, min(per_field, len(values))):
            yield {**move, key: value}
        yield {**move, key: 12345}
    board_mutants = getattr(state.game, "board_mutants", None)  # game-shaped mistakes (e.g. a wrong path)
    if board_mutants is not None:
        yield from board_mutants(move, state, rng)
