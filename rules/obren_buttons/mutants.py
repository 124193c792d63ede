"""Board-shaped wrong moves made from a legal one (issue 9): a neighbouring
space, one step too few or too many, a revisited space, a path over the other
colour's bridge, a placement away from the opponent or onto a taken space.

``tts-builder check-lua`` and the invariant suite throw them at both engines
(through :func:`rules.mutate.mutants`); some may happen to be legal, which the
callers allow for.
"""

from __future__ import annotations

import random
from typing import Any

from rules.core import Move
from rules.obren_buttons import board as B
from rules.obren_buttons.engine import ObrenState


def _pick(rng: random.Random, cells: list[str]) -> list[str]:
    return [rng.choice(cells)] if cells else []


def board_mutants(move: Move, state: ObrenState, rng: random.Random) -> list[Any]:
    out: list[Any] = [{"type": "pass"}]
    if move.get("type") == "place":
        cell = move["cell"]
        taken = [c for c in B.CELLS if state.at(c)]
        far = [c for c in B.CELLS if c not in taken and c != cell]
        for other in _pick(rng, taken) + _pick(rng, far) + _pick(rng, list(B.GRID.neighbours(cell))):
            out.append({**move, "cell": other})
        on_board = [b for b in state.s["board"] if b]
        for button in _pick(rng, on_board):
            out.append({**move, "button": button})
        return out
    if move.get("type") != "move":
        return out
    button, start, end = move["button"], move["from"], move["to"]
    color, value = B.button_color(button), B.button_value(button)
    route = B.path(color, start, end, value) or (start, end)
    ends: list[str] = []
    ends += _pick(rng, [c for c in B.GRID.neighbours(end) if c != end])            # a neighbouring space
    if value > 1:
        ends += _pick(rng, list(B.destinations(color, start, value - 1)))           # one step too few
    if value < B.MAX_VALUE:
        ends += _pick(rng, list(B.destinations(color, start, value + 1)))           # one step too many
    ends += [start] + _pick(rng, list(route[1:-1]))                                 # a revisited space
    ends += _pick(rng, [c for c in B.destinations("any", start, value)              # the other colour's bridge
                        if c not in B.destinations(color, start, value)])
    out += [{**move, "to": c} for c in ends]
    out.append({**move, "from": rng.choice([c for c in B.CELLS if c != start])})     # the wrong start
    return out
