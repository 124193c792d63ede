"""Board-shaped wrong moves made from a legal one: water on water or inland, an ark move two
spaces away or onto land, a rescue of a face-down, mismatched, fishbone or distant pair, an
ark on an ordinary sea space, a move of the wrong phase. Some may happen to be legal, which
the callers allow for (:func:`rules.mutate.mutants`)."""

from __future__ import annotations

import random
from itertools import compress
from typing import Any

from rules.core import Move
from rules.two_by_two import board as B
from rules.two_by_two.engine import TwoByTwoState


#: every cell index, in cell order.
_CELLS = tuple(range(len(B.CELLS)))
#: per cell index, the cells two steps away (not itself, not a neighbour), in cell order.
_TWO_AWAY = tuple(tuple(sorted({m for n in B.NEIGHBOURS[h] for m in B.NEIGHBOURS[n]} - {h} - set(B.NEIGHBOURS[h])))
                  for h in _CELLS)
#: the sea cells, the land ones, and the land ones next to the sea.
_SEA = frozenset(i for i in _CELLS if not B.LAND[i])
_LAND = frozenset(i for i in _CELLS if B.LAND[i])
_COASTAL = frozenset(i for i in _LAND if not _SEA.isdisjoint(B.NEIGHBOURS[i]))
#: per cell index, the cells it neighbours (whose NEIGHBOURS hold it).
_NEXT_TO = tuple(tuple(h for h in _CELLS if i in B.NEIGHBOURS[h]) for i in _CELLS)
#: per species, its token names; and every token name, with "" (an empty space).
_NAMES_OF: dict[str, frozenset[str]] = {sp: frozenset(t for t in B.TOKENS if B.SPECIES_OF[t] == sp)
                                        for sp in set(B.SPECIES_OF.values())}
_KNOWN = frozenset(B.TOKENS) | {""}
#: the water and inland cells per flooding (the ``flooded`` list as a tuple), the last few found.
_AREAS: dict[tuple[bool, ...], tuple[tuple[int, ...], tuple[int, ...]]] = {}
_AREAS_KEPT = 256


def _areas(flooded: list[bool]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """The water cells (sea or flooded) and the inland ones (dry land with no water next to it),
    each in cell order. A flooding changes once a turn, so the answer is kept for the next moves."""
    key = tuple(flooded)
    found = _AREAS.get(key)
    if found is None:
        wet = set(compress(_CELLS, key))  # the flooded cells; water is state.is_water's: sea or flooded
        water = tuple(sorted(_SEA | wet))
        near = set(_COASTAL)  # the cells next to water: to the sea, or to a flooded cell
        for i in wet:
            near.update(_NEXT_TO[i])
        inland = tuple(sorted(_LAND - wet - near))
        if len(_AREAS) >= _AREAS_KEPT:
            _AREAS.clear()
        found = _AREAS[key] = (water, inland)
    return found


def board_mutants(move: Move, state: TwoByTwoState, rng: random.Random) -> list[Any]:
    """The board-shaped wrong moves for ``move`` in ``state``, drawn from ``rng`` (the same
    mutants from the same draws whatever is kept between calls)."""
    s = state.s
    cells, names, choice = _CELLS, B.CELLS, rng.choice
    water, inland = _areas(s["flooded"])
    board_tokens = s["tokens"]
    out: list[Any] = [{"type": "pass"}, {"type": "water", "cell": names[choice(cells)]},
                      {"type": "move", "to": names[choice(cells)]},
                      {"type": "place-ark", "cell": choice(B.ARK_SPACES)}]
    if water:  # (a list that may be empty: no draw from it when it is)
        out.append({"type": "water", "cell": names[choice(water)]})
    if inland:
        out.append({"type": "water", "cell": names[choice(inland)]})
    seat = s["turn"]
    here = s["arks"][seat] if seat < len(s["arks"]) else ""
    if here:
        h = B.CELL_INDEX[here]
        for near in (_TWO_AWAY[h], B.NEIGHBOURS[h]):
            if near:
                out.append({"type": "move", "to": names[choice(near)]})
    if water:
        out.append({"type": "place-ark", "cell": names[choice(water)]})
    tokens = list(compress(cells, board_tokens))  # the cells holding a token
    if len(tokens) >= 2:
        a, b = rng.sample(tokens, 2)
        out.append({"type": "rescue", "cells": [names[a], names[b]]})
        species_of, known = B.species_of, B.SPECIES_OF.get
        species = species_of(board_tokens[a])
        same_names = _NAMES_OF.get(species)
        if same_names is not None and _KNOWN.issuperset(board_tokens):  # every token a known one: by name
            same = list(compress(cells, map(same_names.__contains__, board_tokens)))
            same.remove(a)
        else:
            same = [j for j in tokens if j != a and (known(board_tokens[j]) or species_of(board_tokens[j])) == species]
        if same:
            out.append({"type": "rescue", "cells": [names[a], names[choice(same)]]})
        out.append({"type": "rescue", "cells": [names[a], names[a]]})
    if move.get("type") == "rescue":
        out.append({"type": "rescue", "cells": list(reversed(move["cells"]))})
        out.append({"type": "rescue", "cells": [move["cells"][0], names[choice(cells)]]})
    return out
