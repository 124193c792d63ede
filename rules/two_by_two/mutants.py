"""Board-shaped wrong moves made from a legal one: water on water or inland, an ark move two
spaces away or onto land, a rescue of a face-down, mismatched, fishbone or distant pair, an
ark on an ordinary sea space, a move of the wrong phase. Some may happen to be legal, which
the callers allow for (:func:`rules.mutate.mutants`)."""

from __future__ import annotations

import random
from typing import Any

from rules.core import Move
from rules.two_by_two import board as B
from rules.two_by_two.engine import TwoByTwoState


def _pick(rng: random.Random, items: list[Any]) -> list[Any]:
    return [rng.choice(items)] if items else []


def board_mutants(move: Move, state: TwoByTwoState, rng: random.Random) -> list[Any]:
    s = state.s
    cells = list(range(len(B.CELLS)))
    wet = [not land or bool(f) for land, f in zip(B.LAND, s["flooded"])]  # state.is_water, cell by cell
    water = [i for i in cells if wet[i]]
    water_set = set(water)
    inland = [i for i in cells if not wet[i] and water_set.isdisjoint(B.NEIGHBOURS[i])]
    tokens = [i for i in cells if s["tokens"][i]]
    out: list[Any] = [{"type": "pass"}, {"type": "water", "cell": B.CELLS[rng.choice(cells)]},
                      {"type": "move", "to": B.CELLS[rng.choice(cells)]},
                      {"type": "place-ark", "cell": rng.choice(B.ARK_SPACES)}]
    for i in _pick(rng, water) + _pick(rng, inland):
        out.append({"type": "water", "cell": B.CELLS[i]})
    seat = s["turn"]
    here = s["arks"][seat] if seat < len(s["arks"]) else ""
    if here:
        h = B.CELL_INDEX[here]
        two_away = sorted({m for n in B.NEIGHBOURS[h] for m in B.NEIGHBOURS[n]} - {h} - set(B.NEIGHBOURS[h]))
        out += [{"type": "move", "to": B.CELLS[i]} for i in _pick(rng, two_away) + _pick(rng, list(B.NEIGHBOURS[h]))]
    out += [{"type": "place-ark", "cell": B.CELLS[i]} for i in _pick(rng, water)]
    if len(tokens) >= 2:
        a, b = rng.sample(tokens, 2)
        out.append({"type": "rescue", "cells": [B.CELLS[a], B.CELLS[b]]})
        species = B.species_of(s["tokens"][a])
        same = [j for j in tokens if j != a and B.species_of(s["tokens"][j]) == species]
        out += [{"type": "rescue", "cells": [B.CELLS[a], B.CELLS[j]]} for j in _pick(rng, same)]
        out.append({"type": "rescue", "cells": [B.CELLS[a], B.CELLS[a]]})
    if move.get("type") == "rescue":
        out.append({"type": "rescue", "cells": list(reversed(move["cells"]))})
        out.append({"type": "rescue", "cells": [move["cells"][0], B.CELLS[rng.choice(cells)]]})
    return out
