"""The Two by Two island, species and arks, read from ``two-by-two.json`` and checked on load.

The board is a kit hex grid (:mod:`rules.grid`), cells named by axial coordinates
``"q,r"``; each cell's ``kind`` is jungle, beach (land), sea or ark-space (water).
:func:`check_data` refuses a data file that breaks a constraint the rules imply
(assumption A-5's list), naming the field::

    >>> len(JUNGLE), len(ARK_SPACES), WATER_TOKENS
    (74, 6, 36)
    >>> species_of("frogs-3"), species_of("unicorns-1")
    ('frogs', 'unicorns')
"""

from __future__ import annotations

import json
from importlib import resources
from typing import Any, Mapping

from rules.grid import Grid, GridError, grid_from_data


class BoardDataError(ValueError):
    """The data file breaks a constraint the rules imply; the message names the field."""


def load_data() -> dict[str, Any]:
    text = resources.files("rules.two_by_two").joinpath("two-by-two.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def check_data(data: Mapping[str, Any], where: str = "two-by-two.json") -> Grid:
    """The board grid, after checking every constraint on the map, tokens and arks."""
    try:
        grid = grid_from_data(data["board"], f"{where} board")
    except GridError as exc:
        raise BoardDataError(str(exc)) from None
    if grid.shape != "hex":
        raise BoardDataError(f"{where} board.shape: the island is a hex grid, not {grid.shape!r}")
    kinds = data["kinds"]
    for cell in grid:
        if cell.attrs.get("kind") not in kinds:
            raise BoardDataError(f"{where} board.cells {cell.id}: kind {cell.attrs.get('kind')!r} is not one of "
                                 f"{', '.join(kinds)}")
    land = {c.id for c in grid if kinds[c.attrs["kind"]]["land"]}
    jungle = [c.id for c in grid if kinds[c.attrs["kind"]]["holds_token"]]
    water = [c.id for c in grid if c.id not in land]
    arks = [c.id for c in grid if c.attrs["kind"] == "ark-space"]
    tokens = sum(int(s["count"]) for s in data["species"])
    removed = int(data["tokens_removed_unseen"])
    if len(jungle) != tokens - removed:
        raise BoardDataError(f"{where} board.cells: {len(jungle)} jungle spaces, but {tokens} animal tokens less "
                             f"{removed} removed leave {tokens - removed}")
    if not any(n not in land for j in jungle for n in grid.neighbours(j)):
        raise BoardDataError(f"{where} board.cells: no jungle space touches water, so setup reveals nothing")
    if len(arks) != 6:
        raise BoardDataError(f"{where} board.cells: {len(arks)} ark spaces, not 6")
    for a in arks:
        if not any(n in land for n in grid.neighbours(a)):
            raise BoardDataError(f"{where} board.cells {a}: an ark space lies next to the island")
    for cell in grid:  # the sea surrounds the island: no land on the outer rim
        if cell.id in land and len(grid.neighbours(cell.id)) < 6:
            raise BoardDataError(f"{where} board.cells {cell.id}: land on the edge of the board; the sea rings the island")
    reached, todo = {water[0]}, [water[0]]
    while todo:
        for n in grid.neighbours(todo.pop()):
            if n not in land and n not in reached:
                reached.add(n)
                todo.append(n)
    if len(reached) != len(water):
        raise BoardDataError(f"{where} board.cells: the sea is not one connected ring "
                             f"({len(water) - len(reached)} water spaces cut off)")
    if len(land) < int(data["water_tokens"]):
        raise BoardDataError(f"{where} water_tokens: {data['water_tokens']} tokens but only {len(land)} land spaces")
    colors = [a["color"] for a in data["printed_arks"]]
    if len(colors) != 4 or len(set(colors)) != 4:
        raise BoardDataError(f"{where} printed_arks: four arks of four colours, not {colors}")
    ordinary = [s["id"] for s in data["species"] if s["rescuable"] and s["count"] == 6]
    starred = [sp for a in data["printed_arks"] for sp in a["x2"]]
    if sorted(starred) != sorted(ordinary):
        raise BoardDataError(f"{where} printed_arks x2: each ordinary species is starred on exactly one ark (A-3)")
    for count in (2, 3, 4):
        seats = data["seat_arks"][str(count)]
        if len(seats) != count or len(set(seats)) != count or not set(seats) <= set(colors):
            raise BoardDataError(f"{where} seat_arks.{count}: {count} different printed ark colours, not {seats}")
    return grid


DATA = load_data()
GRID: Grid = check_data(DATA)
CELLS: tuple[str, ...] = tuple(c.id for c in GRID)
CELL_INDEX: dict[str, int] = {c: i for i, c in enumerate(CELLS)}
KIND: tuple[str, ...] = tuple(str(c.attrs["kind"]) for c in GRID)
LAND: tuple[bool, ...] = tuple(bool(DATA["kinds"][k]["land"]) for k in KIND)
JUNGLE: tuple[str, ...] = tuple(c for c, k in zip(CELLS, KIND) if DATA["kinds"][k]["holds_token"])
ARK_SPACES: tuple[str, ...] = tuple(c for c, k in zip(CELLS, KIND) if k == "ark-space")
#: neighbour indexes of each cell index, in grid order.
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(tuple(CELL_INDEX[n] for n in GRID.neighbours(c)) for c in CELLS)
SPECIES: tuple[str, ...] = tuple(s["id"] for s in DATA["species"])
RESCUABLE: frozenset[str] = frozenset(s["id"] for s in DATA["species"] if s["rescuable"])
TOKENS: tuple[str, ...] = tuple(f"{s['id']}-{i}" for s in DATA["species"] for i in range(1, int(s["count"]) + 1))
WATER_TOKENS: int = int(DATA["water_tokens"])
REMOVED: int = int(DATA["tokens_removed_unseen"])
ARK_ACTIONS: int = int(DATA["ark_actions"])
X2: dict[str, tuple[str, ...]] = {a["color"]: tuple(a["x2"]) for a in DATA["printed_arks"]}


#: each token's species, looked up rather than split on every call (the move list asks often).
SPECIES_OF: dict[str, str] = {t: t.rsplit("-", 1)[0] for t in TOKENS}


def species_of(token: str) -> str:
    """``frogs-3`` -> ``frogs``."""
    species = SPECIES_OF.get(token)
    return token.rsplit("-", 1)[0] if species is None else species


def seat_colors(num_players: int) -> list[str]:
    return list(DATA["seat_arks"][str(num_players)])


def lua_board() -> dict[str, Any]:
    """The board for the Lua rules: cell ids, land flags, kinds and 1-based neighbour indexes."""
    return {"cells": list(CELLS), "land": list(LAND), "kinds": list(KIND),
            "neighbours": [[n + 1 for n in ns] for ns in NEIGHBOURS]}
