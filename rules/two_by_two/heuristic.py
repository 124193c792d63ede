"""A simple player for Two by Two, seeing only its observation (face-down tokens are ``"?"``).

Arks start on a random free ark space. Water goes where it scores most, sparing a
face-up animal whose partner is face up too. An ark rescues a pair when it can
(its own x2 species first), else moves next to a face-up pair when one step gets
it there, else passes.
"""

from __future__ import annotations

import random
from itertools import compress

from rules.core import JSONDict, Move
from rules.two_by_two import board as B

#: every cell index; the sea's; each cell's neighbours as a set
_CELLS = range(len(B.CELLS))
_SEA = frozenset(i for i in _CELLS if not B.LAND[i])
_NEIGHBOUR_SETS = tuple(frozenset(B.NEIGHBOURS[i]) for i in _CELLS)


def _is_water(obs: JSONDict, i: int) -> bool:
    return not B.LAND[i] or bool(obs["flooded"][i])


def _pair_cells(obs: JSONDict) -> set[int]:
    """Cells holding a face-up rescuable animal whose species has another face up."""
    by_species: dict[str, list[int]] = {}
    tokens, known = obs["tokens"], B.SPECIES_OF.get
    for i in [i for i, up in enumerate(obs["face_up"]) if up and tokens[i]]:
        t = tokens[i]
        species = known(t) or B.species_of(t)
        if species in B.RESCUABLE:
            by_species.setdefault(species, []).append(i)
    return {i for cells in by_species.values() if len(cells) > 1 for i in cells}


def choose(obs: JSONDict, moves: list[Move], rng: random.Random) -> Move:
    kinds = {m["type"] for m in moves}
    if "place-ark" in kinds or len(moves) == 1:
        return rng.choice(moves)
    if "water" in kinds:
        wanted = _pair_cells(obs)
        water = _SEA.union(compress(_CELLS, obs["flooded"]))  # the cells _is_water names
        index, neighbours = B.CELL_INDEX, _NEIGHBOUR_SETS

        def value(m: Move) -> int:
            i = index[m["cell"]]
            points = len(water.intersection(neighbours[i])) + 1  # the water next to i, and the token
            return points - (10 if i in wanted else 0)

        values = [value(m) for m in moves]
        best = max(values)
        return rng.choice([m for m, v in zip(moves, values) if v == best])
    seat = int(obs["turn"])
    starred = B.X2[obs["colors"][seat]]
    rescues = [m for m in moves if m["type"] == "rescue"]
    if rescues:
        mine = [m for m in rescues if B.species_of(obs["tokens"][B.CELL_INDEX[m["cells"][0]]]) in starred]
        return rng.choice(mine or rescues)
    wanted = _pair_cells(obs)
    closer = [m for m in moves if m["type"] == "move"
              and any(n in wanted for n in B.NEIGHBOURS[B.CELL_INDEX[m["to"]]])]
    if closer:
        return rng.choice(closer)
    return {"type": "pass"}
