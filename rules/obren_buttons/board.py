"""The board and the buttons of Adam Obren's button game, read from its data file.

The board is a kit grid (:mod:`rules.grid`) whose edges are the bridges, each
with a colour. A button of value n moves along a *simple* path of exactly n
bridges over red bridges and bridges of its own colour::

    >>> destinations("black", "a1", 1)
    ('b1', 'a2')
    >>> path("black", "a1", "b2", 2)   # b1 -W- b2 is white: black goes round by a2
    ('a1', 'a2', 'b2')
    >>> button_value("white-8"), button_color("white-8")
    (8, 'white')

Paths are searched once per (colour, start) and cached; the search visits
neighbours in grid order, so :func:`path` is the same path every time.
"""

from __future__ import annotations

import json
from functools import lru_cache
from importlib import resources
from typing import Any

from rules.grid import Grid, grid_from_data


def load_data() -> dict[str, Any]:
    text = resources.files("rules.obren_buttons").joinpath("obren-buttons.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


DATA = load_data()
GRID: Grid = grid_from_data(DATA["board"], "obren-buttons.json board")
CELLS: tuple[str, ...] = tuple(c.id for c in GRID)
CELL_INDEX: dict[str, int] = {c: i for i, c in enumerate(CELLS)}
COLORS: tuple[str, ...] = tuple(DATA["colors"])
SHARED_BRIDGE: str = DATA["shared_bridge_color"]
#: bridge-colour sets a walker may use: a button colour, or "any" (every bridge).
WALKERS = COLORS + ("any",)
MAX_VALUE = 8


def _lines() -> tuple[tuple[str, ...], ...]:
    """Rows (top to bottom, each left to right) then columns (left to right, each top to bottom)."""
    by_coords = {c.coords: c.id for c in GRID}
    cols = max(x for x, _ in by_coords) + 1
    rows = max(y for _, y in by_coords) + 1
    out = [tuple(by_coords[(x, y)] for x in range(cols)) for y in range(rows)]
    out += [tuple(by_coords[(x, y)] for y in range(rows)) for x in range(cols)]
    return tuple(out)


#: the lines of four that count (no diagonals): rows read left to right, columns top to bottom.
LINES: tuple[tuple[str, ...], ...] = _lines()
ROWS = LINES[:4]
COLUMNS = LINES[4:]


def bridge_color(a: str, b: str) -> str | None:
    edge = GRID.edge(a, b)
    return None if edge is None else str(edge.attrs["color"])


def allowed(walker: str, bridge: str | None) -> bool:
    """May a button of colour ``walker`` (or "any") cross a bridge of colour ``bridge``?"""
    return bridge is not None and (walker == "any" or bridge == SHARED_BRIDGE or bridge == walker)


@lru_cache(maxsize=None)
def usable_neighbours(walker: str, cell: str) -> tuple[str, ...]:
    return tuple(n for n in GRID.neighbours(cell) if allowed(walker, bridge_color(cell, n)))


@lru_cache(maxsize=None)
def _paths_from(walker: str, start: str) -> dict[tuple[int, str], tuple[str, ...]]:
    """(length, end) -> the first simple path from ``start`` of that length, lengths 1..8."""
    found: dict[tuple[int, str], tuple[str, ...]] = {}
    trail = [start]
    on_trail = {start}

    def walk(cell: str) -> None:
        length = len(trail) - 1
        if length:
            found.setdefault((length, cell), tuple(trail))
        if length == MAX_VALUE:
            return
        for nxt in usable_neighbours(walker, cell):
            if nxt not in on_trail:
                trail.append(nxt)
                on_trail.add(nxt)
                walk(nxt)
                on_trail.discard(nxt)
                trail.pop()

    walk(start)
    return found


@lru_cache(maxsize=None)
def destinations(walker: str, start: str, value: int) -> tuple[str, ...]:
    """Cells a button of colour ``walker`` on ``start`` reaches by a simple path of exactly ``value`` bridges."""
    ends = {end for (length, end) in _paths_from(walker, start) if length == value}
    return tuple(c for c in CELLS if c in ends)


def path(walker: str, start: str, end: str, value: int) -> tuple[str, ...] | None:
    """One simple path of exactly ``value`` bridges (start and end included), or None."""
    return _paths_from(walker, start).get((value, end))


@lru_cache(maxsize=None)
def walk_reaches(walker: str, start: str, end: str, value: int) -> bool:
    """Is ``end`` reached by a walk of exactly ``value`` bridges when revisits are allowed?"""
    frontier = {start}
    for _ in range(value):
        frontier = {n for c in frontier for n in usable_neighbours(walker, c)}
    return end in frontier


def refusal(walker: str, start: str, end: str, value: int) -> str | None:
    """The rule a move from ``start`` to ``end`` breaks (assumption OB-3's order), or None if legal."""
    if start == end:
        return "no-backtracking"
    if path(walker, start, end, value) is not None:
        return None
    if walk_reaches(walker, start, end, value):
        return "no-backtracking"
    if path("any", start, end, value) is not None:
        return "no-trespassing"
    return "exact-distance"


# -- buttons ------------------------------------------------------------------

def button_names(numbering: str) -> dict[str, tuple[str, int]]:
    """Button name -> (colour, value), black first, in value order."""
    values: list[int] = DATA["values"][numbering]
    template: str = DATA["button_names"][numbering]
    out: dict[str, tuple[str, int]] = {}
    for color in COLORS:
        seen: dict[int, int] = {}
        for v in values:
            copy = DATA["copy_suffixes"][seen.get(v, 0)]
            seen[v] = seen.get(v, 0) + 1
            out[template.format(color=color, value=v, copy=copy)] = (color, v)
    return out


ALL_BUTTONS: dict[str, tuple[str, int]] = {
    name: cv for numbering in DATA["values"] for name, cv in button_names(numbering).items()}


def button_color(name: str) -> str:
    return ALL_BUTTONS[name][0]


def button_value(name: str) -> int:
    return ALL_BUTTONS[name][1]


def lua_board() -> dict[str, Any]:
    """The board as Lua needs it: cells, usable neighbours per bridge colour, lines. No paths."""
    return {
        "cells": list(CELLS),
        "coords": [list(GRID.cell(c).coords) for c in CELLS],
        "neighbours": [[CELL_INDEX[n] + 1 for n in GRID.neighbours(c)] for c in CELLS],
        "bridge_colors": [[bridge_color(c, n) for n in GRID.neighbours(c)] for c in CELLS],
        "lines": [[CELL_INDEX[c] + 1 for c in line] for line in LINES],
        "shared_bridge": SHARED_BRIDGE,
    }
