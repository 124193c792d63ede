"""The cell-grid contract (rules/grid.py): ids, adjacency, edges, geometry, errors naming the field."""

from __future__ import annotations

import doctest
import json
import math

import pytest

import rules.grid
from rules.grid import Grid, GridError, grid_from_data

SQUARE = {"shape": "square", "columns": 4, "rows": 4}


def test_doctests() -> None:
    assert doctest.testmod(rules.grid).failed == 0


def test_square_ids_order_and_coords() -> None:
    grid = grid_from_data(SQUARE)
    assert len(grid) == 16
    assert [c.id for c in grid][:5] == ["a1", "b1", "c1", "d1", "a2"]
    assert grid.cell("c2").coords == (2, 1)
    assert "d4" in grid and "e1" not in grid and 3 not in grid
    with pytest.raises(GridError, match="no cell 'e1'"):
        grid.cell("e1")


def test_square_default_edges_are_every_orthogonal_adjacency() -> None:
    grid = grid_from_data(SQUARE)
    assert len(grid.edges()) == 24
    assert grid.neighbours("b2") == ("b1", "a2", "c2", "b3")
    assert grid.neighbours("d4") == ("d3", "c4")
    assert grid.edge("b1", "a1") is grid.edge("a1", "b1")
    edge = grid.edge("b1", "a1")
    assert edge is not None and (edge.a, edge.b) == ("a1", "b1")
    assert grid.edge("a1", "b2") is None  # diagonal


def test_listed_edges_are_exactly_the_edges_with_attributes() -> None:
    grid = grid_from_data({**SQUARE, "edges": [{"cells": ["b1", "a1"], "color": "red"},
                                              {"cells": ["a1", "a2"], "color": "white", "weight": 2}]})
    assert [(e.a, e.b, dict(e.attrs)) for e in grid.edges()] == [
        ("a1", "b1", {"color": "red"}), ("a1", "a2", {"color": "white", "weight": 2})]
    assert grid.neighbours("a1") == ("b1", "a2")
    assert grid.neighbours("b2") == ()
    assert grid.edge("b1", "c1") is None


def test_square_geometry_centres_extent_and_cell_at() -> None:
    grid = grid_from_data({**SQUARE, "columns": 3, "rows": 2, "cell_size": 2})
    assert grid.cell("a1").center == (-2.0, 1.0)  # z grows towards the top row
    assert grid.cell("c2").center == (2.0, -1.0)
    assert grid.extent() == (-3.0, -2.0, 3.0, 2.0)
    assert grid.cell_at(-2.9, 1.9) == "a1"
    assert grid.cell_at(0.5, -0.5) == "b2"
    assert grid.cell_at(3.1, 0.0) is None
    for cell in grid:
        assert grid.cell_at(*cell.center) == cell.id


@pytest.mark.parametrize("orientation", ["pointy", "flat"])
def test_hex_neighbours_geometry_and_cell_at(orientation: str) -> None:
    cells = [{"q": q, "r": r, "kind": "plain"} for q in range(-1, 2) for r in range(-1, 2) if abs(q + r) <= 1]
    grid = grid_from_data({"shape": "hex", "orientation": orientation, "cell_size": 1.5, "cells": cells})
    assert len(grid) == 7 and grid.cell("0,-1").coords == (0, -1)
    assert set(grid.neighbours("0,0")) == {c.id for c in grid} - {"0,0"}
    assert len(grid.neighbours("1,-1")) == 3
    assert dict(grid.cell("0,0").attrs) == {"kind": "plain"}
    assert grid.cell("0,0").center == (0.0, 0.0)  # symmetric patch: the centre cell sits at the origin
    for e in grid.edges():
        (ax, az), (bx, bz) = grid.cell(e.a).center, grid.cell(e.b).center
        assert math.isclose(math.hypot(ax - bx, az - bz), 1.5)
    for cell in grid:
        x, z = cell.center
        assert grid.cell_at(x + 0.3, z - 0.2) == cell.id
    x0, z0, x1, z1 = grid.extent()
    assert math.isclose(-x0, x1) and math.isclose(-z0, z1)
    assert grid.cell_at(x1 + 0.1, 0.0) is None
    # r grows downwards (towards the bottom of the board)
    assert grid.cell("0,1").center[1] < grid.cell("0,0").center[1]


def test_to_json_is_plain_data_for_lua() -> None:
    grid = grid_from_data({**SQUARE, "columns": 2, "rows": 1, "edges": [{"cells": ["a1", "b1"], "color": "red"}]})
    data = grid.to_json()
    assert json.loads(json.dumps(data)) == data
    assert data == {"shape": "square", "orientation": None, "cell_size": 1.0,
                    "cells": [{"id": "a1", "coords": [0, 0], "center": [-0.5, 0.0], "attrs": {}, "neighbours": ["b1"]},
                              {"id": "b1", "coords": [1, 0], "center": [0.5, 0.0], "attrs": {}, "neighbours": ["a1"]}],
                    "edges": [{"cells": ["a1", "b1"], "color": "red"}]}


def test_square_cell_attributes() -> None:
    grid = grid_from_data({**SQUARE, "cells": [{"id": "b2", "kind": "jungle"}]})
    assert dict(grid.cell("b2").attrs) == {"kind": "jungle"} and dict(grid.cell("a1").attrs) == {}


@pytest.mark.parametrize("data, message", [
    ([], r"^board: expected an object"),
    ({"shape": "triangle"}, r"^board\.shape: expected one of square, hex"),
    ({**SQUARE, "columns": 0}, r"^board\.columns: expected an integer 1\.\.26"),
    ({**SQUARE, "rows": "4"}, r"^board\.rows: expected an integer"),
    ({**SQUARE, "cell_size": -1}, r"^board\.cell_size: expected a positive number"),
    ({**SQUARE, "cell_ids": "number-letter"}, r"^board\.cell_ids: only"),
    ({**SQUARE, "edges": [{"cells": ["a1", "b1"]}, {"cells": ["a1", "c1"]}]},
     r"^board\.edges\[1\]\.cells: 'a1'-'c1' are not adjacent$"),
    ({**SQUARE, "edges": [{"cells": ["a1", "b2"]}]}, r"^board\.edges\[0\]\.cells: 'a1'-'b2' are not adjacent"),
    ({**SQUARE, "edges": [{"cells": ["a1", "z9"]}]}, r"^board\.edges\[0\]\.cells: no cell 'z9'"),
    ({**SQUARE, "edges": [{"cells": ["a1"]}]}, r"^board\.edges\[0\]\.cells: expected two cell ids"),
    ({**SQUARE, "edges": [{"cells": ["a1", "b1"]}, {"cells": ["b1", "a1"]}]}, r"^board\.edges\[1\]\.cells: .* repeats"),
    ({**SQUARE, "edges": [{"cells": ["a1", "b1"], "color": ["red"]}]}, r"^board\.edges\[0\]\.color: attributes must be"),
    ({**SQUARE, "cells": [{"id": "e5"}]}, r"^board\.cells\[0\]\.id: not a cell"),
    ({"shape": "hex", "cells": [{"q": 0, "r": 0}]}, r"^board\.orientation: expected one of pointy, flat"),
    ({"shape": "hex", "orientation": "flat", "cells": [{"q": 0}]}, r"^board\.cells\[0\]\.r: expected an integer"),
    ({"shape": "hex", "orientation": "flat", "cells": [{"q": 0, "r": 0}, {"q": 0, "r": 0}]},
     r"^board\.cells\[1\]: cell 0,0 repeats board\.cells\[0\]"),
])
def test_bad_data_names_the_field(data: object, message: str) -> None:
    with pytest.raises(GridError, match=message):
        grid_from_data(data)  # type: ignore[arg-type]


def test_where_prefixes_errors() -> None:
    with pytest.raises(GridError, match=r"^data\.board\.shape:"):
        grid_from_data({"shape": None}, where="data.board")


def test_grid_is_a_grid() -> None:
    assert isinstance(grid_from_data(SQUARE), Grid)
