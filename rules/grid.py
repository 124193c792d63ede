"""Cell grids: square and hex boards defined once, in a game's data file.

The engine, the art, the save and the Lua all read a board from the same data
(the ``"board"`` entry of ``rules/<game>/<game>.json``)::

    >>> grid = grid_from_data({"shape": "square", "columns": 4, "rows": 4})
    >>> grid.neighbours("a1")
    ('b1', 'a2')
    >>> grid.cell("a1").center
    (-1.5, 1.5)
    >>> grid.cell_at(-1.4, 1.2)
    'a1'

Square grids name cells ``a1``: the letter is the column from the left, the
number the row from the top. Without ``"edges"`` every orthogonal adjacency is
an edge; with it exactly the listed pairs are, each carrying free-form scalar
attributes (e.g. a bridge colour). Hex grids list their cells in axial
coordinates (``{"q": 0, "r": -1}``, id ``"0,-1"``) and join the six axial
neighbours present. Board-local coordinates: ``x`` to the right, ``z`` towards
the top row, origin at the centre of the bounding box of all cell outlines;
neighbouring cell centres are ``cell_size`` apart.
"""

from __future__ import annotations

import math
import string
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Iterator, Mapping

SHAPES = ("square", "hex")
HEX_ORIENTATIONS = ("pointy", "flat")
SQUARE_CELL_IDS = "letter-column,number-row-from-top"
#: the six axial neighbour offsets, clockwise from east (q+1).
HEX_DIRECTIONS: tuple[tuple[int, int], ...] = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))
_SCALARS = (str, int, float, bool, type(None))


class GridError(ValueError):
    """Board data that cannot make a grid, or an unknown cell; the message names the field."""


@dataclass(frozen=True)
class Cell:
    """One cell: its id, integer coordinates, board-local centre and extra data fields."""

    id: str
    coords: tuple[int, int]  # square: (column, row), 0-based, row 0 = top; hex: (q, r)
    center: tuple[float, float]  # board-local (x, z)
    attrs: Mapping[str, Any]


@dataclass(frozen=True)
class Edge:
    """An edge joining cells ``a`` and ``b`` (``a`` first in grid order), with its attributes."""

    a: str
    b: str
    attrs: Mapping[str, Any]


class Grid:
    """A board of cells joined by edges. Build one with :func:`grid_from_data`."""

    def __init__(self, shape: str, orientation: str | None, cell_size: float,
                 cells: tuple[Cell, ...], edges: tuple[Edge, ...], where: str = "board"):
        self.shape = shape
        self.orientation = orientation
        self.cell_size = cell_size
        self.cells = cells
        self.where = where
        self._index = {c.id: i for i, c in enumerate(cells)}
        self._by_coords = {c.coords: c.id for c in cells}
        self._edges = tuple(sorted(edges, key=lambda e: (self._index[e.a], self._index[e.b])))
        self._edge_map: dict[tuple[str, str], Edge] = {}
        adjacent: dict[str, list[str]] = {c.id: [] for c in cells}
        for e in self._edges:
            self._edge_map[(e.a, e.b)] = e
            self._edge_map[(e.b, e.a)] = e
            adjacent[e.a].append(e.b)
            adjacent[e.b].append(e.a)
        self._neighbours = {cid: tuple(sorted(ns, key=self._index.__getitem__))
                            for cid, ns in adjacent.items()}
        self._offset = (0.0, 0.0)
        if cells:
            x0, z0, x1, z1 = self._raw_extent()
            self._offset = ((x0 + x1) / 2, (z0 + z1) / 2)

    # -- container ------------------------------------------------------
    def __contains__(self, cell_id: object) -> bool:
        return isinstance(cell_id, str) and cell_id in self._index

    def __len__(self) -> int:
        return len(self.cells)

    def __iter__(self) -> Iterator[Cell]:
        return iter(self.cells)

    def __repr__(self) -> str:
        return f"<Grid {self.shape} {len(self.cells)} cells, {len(self._edges)} edges>"

    def index(self, cell_id: str) -> int:
        """The cell's position in :attr:`cells` (grid order)."""
        self.cell(cell_id)
        return self._index[cell_id]

    def cell(self, cell_id: str) -> Cell:
        """The cell named ``cell_id``; GridError for an unknown id."""
        i = self._index.get(cell_id) if isinstance(cell_id, str) else None
        if i is None:
            raise GridError(f"{self.where}: no cell {cell_id!r}")
        return self.cells[i]

    # -- adjacency ------------------------------------------------------
    def neighbours(self, cell_id: str) -> tuple[str, ...]:
        """The cells joined to ``cell_id`` by an edge, in grid order."""
        self.cell(cell_id)
        return self._neighbours[cell_id]

    def edge(self, a: str, b: str) -> Edge | None:
        """The edge joining ``a`` and ``b`` (either order), or None."""
        self.cell(a)
        self.cell(b)
        return self._edge_map.get((a, b))

    def edges(self) -> tuple[Edge, ...]:
        """Every edge, ordered by its first then its second cell in grid order."""
        return self._edges

    # -- geometry -------------------------------------------------------
    def _raw_center(self, coords: tuple[int, int]) -> tuple[float, float]:
        s = self.cell_size
        a, b = coords
        if self.shape == "square":
            return (a * s, -b * s)
        if self.orientation == "pointy":
            return (s * (a + b / 2), -s * math.sqrt(3) / 2 * b)
        return (s * math.sqrt(3) / 2 * a, -s * (b + a / 2))

    def _outline_offsets(self) -> list[tuple[float, float]]:
        s = self.cell_size
        if self.shape == "square":
            h = s / 2
            return [(-h, -h), (h, -h), (h, h), (-h, h)]
        radius = s / math.sqrt(3)  # centre to corner; neighbours are sqrt(3) * radius apart
        start = 30 if self.orientation == "pointy" else 0
        return [(radius * math.cos(math.radians(start + 60 * k)), radius * math.sin(math.radians(start + 60 * k)))
                for k in range(6)]

    def _raw_extent(self) -> tuple[float, float, float, float]:
        xs: list[float] = []
        zs: list[float] = []
        offsets = self._outline_offsets()
        for c in self.cells:
            cx, cz = self._raw_center(c.coords)
            xs.extend(cx + dx for dx, _ in offsets)
            zs.extend(cz + dz for _, dz in offsets)
        return (min(xs), min(zs), max(xs), max(zs))

    def outline(self, cell_id: str) -> tuple[tuple[float, float], ...]:
        """The corners of the cell's outline in board-local (x, z), counter-clockwise."""
        cx, cz = self.cell(cell_id).center
        return tuple((_round(cx + dx), _round(cz + dz)) for dx, dz in self._outline_offsets())

    def extent(self) -> tuple[float, float, float, float]:
        """``(x_min, z_min, x_max, z_max)`` of all cells' outlines, board-local."""
        if not self.cells:
            return (0.0, 0.0, 0.0, 0.0)
        x0, z0, x1, z1 = self._raw_extent()
        ox, oz = self._offset
        return (_round(x0 - ox), _round(z0 - oz), _round(x1 - ox), _round(z1 - oz))

    def cell_at(self, x: float, z: float) -> str | None:
        """The cell whose outline contains the board-local point (x, z), or None."""
        s = self.cell_size
        rx, rz = x + self._offset[0], z + self._offset[1]
        if self.shape == "square":
            coords = (math.floor(rx / s + 0.5), math.floor(-rz / s + 0.5))
        elif self.orientation == "pointy":
            r = -rz / (s * math.sqrt(3) / 2)
            coords = cube_round(rx / s - r / 2, r)
        else:
            q = rx / (s * math.sqrt(3) / 2)
            coords = cube_round(q, -rz / s - q / 2)
        return self._by_coords.get(coords)

    # -- data -----------------------------------------------------------
    def to_json(self) -> dict[str, Any]:
        """Plain data for Lua and the art: cells with neighbours, edges with attributes."""
        return {
            "shape": self.shape,
            "orientation": self.orientation,
            "cell_size": self.cell_size,
            "cells": [{"id": c.id, "coords": list(c.coords), "center": list(c.center), "attrs": dict(c.attrs),
                       "neighbours": list(self._neighbours[c.id])} for c in self.cells],
            "edges": [{"cells": [e.a, e.b], **dict(e.attrs)} for e in self._edges],
        }


def _round(v: float) -> float:
    """Centres and extents rounded to 9 places, so the same data gives the same text everywhere."""
    out = round(v, 9)
    return 0.0 if out == 0 else out


def cube_round(q: float, r: float) -> tuple[int, int]:
    """The axial hex (q, r) nearest to a fractional axial point (cube rounding).

    >>> cube_round(0.1, 0.2), cube_round(0.9, -0.2)
    ((0, 0), (1, 0))
    """
    s = -q - r
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    return (int(rq), int(rr))


def square_cell_id(column: int, row: int) -> str:
    """``a1`` for column 0, row 0 (the top-left cell)."""
    return f"{string.ascii_lowercase[column]}{row + 1}"


def _int_field(data: Mapping[str, Any], key: str, where: str, minimum: int, maximum: int | None = None) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool) or value < minimum or (maximum is not None and value > maximum):
        bound = f"{minimum}..{maximum}" if maximum is not None else f">= {minimum}"
        raise GridError(f"{where}.{key}: expected an integer {bound}, not {value!r}")
    return value


def _attrs(data: Mapping[str, Any], skip: tuple[str, ...], where: str) -> Mapping[str, Any]:
    out: dict[str, Any] = {}
    for key, value in data.items():
        if key in skip:
            continue
        if not isinstance(value, _SCALARS):
            raise GridError(f"{where}.{key}: attributes must be strings, numbers, booleans or null, not {value!r}")
        out[key] = value
    return MappingProxyType(out)


def grid_from_data(data: Mapping[str, Any], where: str = "board") -> Grid:
    """The grid described by ``data``; GridError naming the field for bad data."""
    if not isinstance(data, Mapping):
        raise GridError(f"{where}: expected an object, not {type(data).__name__}")
    shape = data.get("shape")
    if shape not in SHAPES:
        raise GridError(f"{where}.shape: expected one of {', '.join(SHAPES)}, not {shape!r}")
    size = data.get("cell_size", 1.0)
    if not isinstance(size, (int, float)) or isinstance(size, bool) or not size > 0 or not math.isfinite(size):
        raise GridError(f"{where}.cell_size: expected a positive number, not {size!r}")
    size = float(size)
    if shape == "square":
        cells, adjacent = _square_cells(data, where, size)
        orientation = None
    else:
        orientation = data.get("orientation")
        if orientation not in HEX_ORIENTATIONS:
            raise GridError(f"{where}.orientation: expected one of {', '.join(HEX_ORIENTATIONS)}, not {orientation!r}")
        cells, adjacent = _hex_cells(data, where)
    index = {c.id: i for i, c in enumerate(cells)}
    edges = _edges(data, where, index, adjacent)
    # Centres need the grid's own geometry; build once raw, then shift to the bounding-box centre.
    raw = Grid(shape, orientation, size, tuple(cells), edges, where)
    ox, oz = raw._offset
    centred = tuple(Cell(c.id, c.coords, (_round(raw._raw_center(c.coords)[0] - ox),
                                          _round(raw._raw_center(c.coords)[1] - oz)), c.attrs) for c in cells)
    return Grid(shape, orientation, size, centred, edges, where)


def _square_cells(data: Mapping[str, Any], where: str, size: float) -> tuple[list[Cell], set[tuple[str, str]]]:
    columns = _int_field(data, "columns", where, 1, len(string.ascii_lowercase))
    rows = _int_field(data, "rows", where, 1)
    scheme = data.get("cell_ids", SQUARE_CELL_IDS)
    if scheme != SQUARE_CELL_IDS:
        raise GridError(f"{where}.cell_ids: only {SQUARE_CELL_IDS!r} is known, not {scheme!r}")
    # Optional per-cell data: [{"id": "a1", ...attrs}] (cells not listed have no attributes).
    extra: dict[str, Mapping[str, Any]] = {}
    listed = data.get("cells", [])
    if not isinstance(listed, list):
        raise GridError(f"{where}.cells: expected a list of {{\"id\": ...}} objects")
    ids = {square_cell_id(c, r) for r in range(rows) for c in range(columns)}
    for i, entry in enumerate(listed):
        at = f"{where}.cells[{i}]"
        if not isinstance(entry, Mapping) or entry.get("id") not in ids:
            raise GridError(f"{at}.id: not a cell of this {columns}x{rows} grid: {entry!r}")
        if entry["id"] in extra:
            raise GridError(f"{at}.id: cell {entry['id']!r} listed twice")
        extra[entry["id"]] = _attrs(entry, ("id",), at)
    cells = []
    for r in range(rows):
        for c in range(columns):
            cid = square_cell_id(c, r)
            cells.append(Cell(cid, (c, r), (0.0, 0.0), extra.get(cid, MappingProxyType({}))))
    adjacent = set()
    for r in range(rows):
        for c in range(columns):
            if c + 1 < columns:
                adjacent.add((square_cell_id(c, r), square_cell_id(c + 1, r)))
            if r + 1 < rows:
                adjacent.add((square_cell_id(c, r), square_cell_id(c, r + 1)))
    return cells, adjacent


def _hex_cells(data: Mapping[str, Any], where: str) -> tuple[list[Cell], set[tuple[str, str]]]:
    listed = data.get("cells")
    if not isinstance(listed, list) or not listed:
        raise GridError(f"{where}.cells: expected a non-empty list of {{\"q\": ..., \"r\": ...}} objects")
    cells: list[Cell] = []
    seen: dict[tuple[int, int], int] = {}
    for i, entry in enumerate(listed):
        at = f"{where}.cells[{i}]"
        if not isinstance(entry, Mapping):
            raise GridError(f"{at}: expected an object, not {entry!r}")
        for key in ("q", "r"):
            v = entry.get(key)
            if not isinstance(v, int) or isinstance(v, bool):
                raise GridError(f"{at}.{key}: expected an integer, not {v!r}")
        coords = (entry["q"], entry["r"])
        if coords in seen:
            raise GridError(f"{at}: cell {coords[0]},{coords[1]} repeats {where}.cells[{seen[coords]}]")
        seen[coords] = i
        cells.append(Cell(f"{coords[0]},{coords[1]}", coords, (0.0, 0.0), _attrs(entry, ("q", "r"), at)))
    ids = {c.coords: c.id for c in cells}
    adjacent = set()
    for c in cells:
        for dq, dr in HEX_DIRECTIONS:
            other = ids.get((c.coords[0] + dq, c.coords[1] + dr))
            if other is not None:
                adjacent.add((c.id, other))
    return cells, adjacent


def _edges(data: Mapping[str, Any], where: str, index: dict[str, int],
           adjacent: set[tuple[str, str]]) -> tuple[Edge, ...]:
    def ordered(a: str, b: str) -> tuple[str, str]:
        return (a, b) if index[a] < index[b] else (b, a)

    empty: Mapping[str, Any] = MappingProxyType({})
    if "edges" not in data:
        return tuple(Edge(*ordered(a, b), empty) for a, b in {ordered(a, b) for a, b in adjacent})
    listed = data["edges"]
    if not isinstance(listed, list):
        raise GridError(f"{where}.edges: expected a list of {{\"cells\": [a, b], ...}} objects")
    edges: dict[tuple[str, str], int] = {}
    out = []
    for i, entry in enumerate(listed):
        at = f"{where}.edges[{i}]"
        if not isinstance(entry, Mapping):
            raise GridError(f"{at}: expected an object, not {entry!r}")
        pair = entry.get("cells")
        if not isinstance(pair, list) or len(pair) != 2:
            raise GridError(f"{at}.cells: expected two cell ids, not {pair!r}")
        for cid in pair:
            if cid not in index:
                raise GridError(f"{at}.cells: no cell {cid!r}")
        a, b = ordered(pair[0], pair[1])
        if (a, b) not in adjacent and (b, a) not in adjacent:
            raise GridError(f"{at}.cells: {pair[0]!r}-{pair[1]!r} are not adjacent")
        if (a, b) in edges:
            raise GridError(f"{at}.cells: {a!r}-{b!r} repeats {where}.edges[{edges[(a, b)]}]")
        edges[(a, b)] = i
        out.append(Edge(a, b, _attrs(entry, ("cells",), at)))
    return tuple(out)
