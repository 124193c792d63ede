"""The solo solver: a shortest sequence of swaps reaching the goal, or a proof
that none exists within a bound.

Iterative deepening A* over boards. Every swap changes the contents of two
spaces, so a goal layout that needs C spaces changed needs at least ceil(C/2)
swaps; :func:`lower_bound` takes the cheapest goal layout (pair of lines, or
two pairs for four-lines) under that count, which never overestimates, so the
first solution found at the smallest depth is a shortest one::

    >>> from rules.obren_buttons import GAME
    >>> state = GAME.new_state(num_players=1, setup={"fill": [
    ...     "black-1", "black-2", "black-3", "black-4", "white-1", "white-2", "white-4", "white-3",
    ...     "black-5", "black-6", "black-7", "black-8", "white-5", "white-6", "white-8", "white-7"]})
    >>> found = solve(state, 3)
    >>> len(found.solution), found.solution[0]["type"]
    (1, 'move')

Moves are reversible (a button walks its path back), so the boards form an
undirected graph; a transposition table keeps each board's smallest depth seen.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

from rules.core import Move
from rules.obren_buttons import board as B
from rules.obren_buttons.engine import ObrenState, goal_met

Board = tuple[int, ...]  # a black button of value v is v, a white one -v: equal values are interchangeable
_IDX = B.CELL_INDEX
_BLACK, _WHITE = B.COLORS


def _code(name: str) -> int:
    color, value = B.ALL_BUTTONS[name]
    return value if color == _BLACK else -value


def _pairs(lines: tuple[tuple[str, ...], ...]) -> list[list[tuple[int, int]]]:
    """Every (black line, white line) pair of distinct parallel lines, as position pairs."""
    idx = [[_IDX[c] for c in line] for line in lines]
    return [list(zip(idx[a], idx[b])) for a in range(len(idx)) for b in range(len(idx)) if a != b]


_ROW_PAIRS = _pairs(B.ROWS)
_COLUMN_PAIRS = _pairs(B.COLUMNS)


def _pair_cost(board: Board, pair: list[tuple[int, int]]) -> int:
    """Spaces of the two lines that must change for them to be a matched black/white pair."""
    cost = 0
    for i, j in pair:
        b, w = board[i], board[j]
        if b > 0 and b == -w:
            continue
        cost += 1 if (b > 0 or w < 0) else 2
    return cost


def _pair_index(a: int, b: int) -> int:
    """Index in :func:`_pairs` of (black line a, white line b) among four parallel lines."""
    return a * 3 + (b if b < a else b - 1)


#: the ways to split four parallel lines into two matched (black, white) pairs, as pair-index couples.
_SPLITS = tuple((_pair_index(a, x), _pair_index(b, y))
                for a in range(4) for b in range(a + 1, 4)
                for x, y in (lambda rest: ((rest[0], rest[1]), (rest[1], rest[0])))([k for k in range(4) if k not in (a, b)]))


def _four_line_cost(costs: list[int]) -> int:
    """Cheapest split of four parallel lines into two matched pairs; ``costs`` indexed as :func:`_pairs`."""
    return min(costs[x] + costs[y] for x, y in _SPLITS)


def lower_bound(board: Board, goal: str) -> int:
    """Swaps needed at least: ceil(changed spaces / 2) for the cheapest goal layout (0 iff the goal holds)."""
    if goal == "two-lines":
        best = min(_pair_cost(board, p) for p in _ROW_PAIRS)
        if best:
            best = min(best, min(_pair_cost(board, p) for p in _COLUMN_PAIRS))
    else:
        best = min(_four_line_cost([_pair_cost(board, p) for p in _ROW_PAIRS]),
                   _four_line_cost([_pair_cost(board, p) for p in _COLUMN_PAIRS]))
    return (best + 1) // 2


_ALL_PAIRS = _ROW_PAIRS + _COLUMN_PAIRS


def _slot_cost(b: int, w: int) -> int:
    if b > 0 and b == -w:
        return 0
    return 1 if (b > 0 or w < 0) else 2


#: per cell, the (pair index, black-line cell, white-line cell) slots it takes part in.
_SLOTS: tuple[tuple[tuple[int, int, int], ...], ...] = tuple(
    tuple((p, i, j) for p, pair in enumerate(_ALL_PAIRS) for i, j in pair if cell in (i, j))
    for cell in range(len(B.CELLS)))


def _costs(board: Board) -> list[int]:
    return [_pair_cost(board, pair) for pair in _ALL_PAIRS]


def _bound_of(costs: list[int], goal: str) -> int:
    """:func:`lower_bound` from the 24 pair costs (rows' pairs first)."""
    if goal == "two-lines":
        best = min(costs)
    else:
        best = min(_four_line_cost(costs[:12]), _four_line_cost(costs[12:]))
    return (best + 1) // 2


#: per cell pair (a * 16 + b), the slots either cell takes part in, each once.
_CELL_COUNT = len(B.CELLS)
_SWAP_SLOTS = tuple(tuple(sorted(set(_SLOTS[a] + _SLOTS[b]))) for a in range(_CELL_COUNT) for b in range(_CELL_COUNT))


#: slot cost by button codes, indexed directly by the codes: _SLOT_ROWS[b][w] (a negative code
#: indexes from the end, so -8..8 need no offset arithmetic in the solver's inner loop).
_SLOT_ROWS = tuple(tuple(_slot_cost(b if b <= 8 else b - 17, w if w <= 8 else w - 17) for w in range(17))
                   for b in range(17))


def _swapped_costs(board: Board, nxt: Board, costs: list[int], a: int, b: int) -> list[int]:
    """The pair costs after swapping cells a and b: only the slots of those two cells change."""
    out = list(costs)
    table = _SLOT_ROWS
    for p, i, j in _SWAP_SLOTS[a * _CELL_COUNT + b]:
        out[p] += table[nxt[i]][nxt[j]] - table[board[i]][board[j]]
    return out


#: the most a bound can be: every space of the goal layout changed.
_MAX_BOUND = {"two-lines": 4, "four-lines": 8}


def _reach(code: int, i: int) -> tuple[int, ...]:
    color = _BLACK if code > 0 else _WHITE
    return tuple(_IDX[c] for c in B.destinations(color, B.CELLS[i], abs(code)))


_REACH = {(code, i): _reach(code, i) for code in [v for v in range(-8, 9) if v] for i in range(len(B.CELLS))}


def successors(board: Board) -> Iterator[tuple[tuple[int, int], Board]]:
    """Each distinct board one swap away, with the swap (i, j): the button on i moved to j."""
    seen: set[tuple[int, int]] = set()
    for i, code in enumerate(board):
        for j in _REACH[(code, i)]:
            pair = (i, j) if i < j else (j, i)
            if pair in seen or board[j] == code:  # swapping equal buttons changes nothing
                continue
            seen.add(pair)
            nxt = list(board)
            nxt[i], nxt[j] = board[j], code
            yield (i, j), tuple(nxt)


@dataclass
class Solution:
    """``solution``: the moves of a shortest solution, or None when none exists within ``bound``."""

    bound: int
    solution: list[Move] | None
    nodes: int = 0
    depth_searched: int = 0


def _as_moves(names: list[str], swaps: list[tuple[int, int]]) -> list[Move]:
    out: list[Move] = []
    names = list(names)
    for i, j in swaps:
        out.append({"type": "move", "button": names[i], "from": B.CELLS[i], "to": B.CELLS[j]})
        names[i], names[j] = names[j], names[i]
    return out


def solve(state: ObrenState, bound: int) -> Solution:
    """A shortest solution of at most ``bound`` swaps from the solo ``state``, or proof there is none."""
    if not state.solo:
        raise ValueError("the solver is for the solo game")
    goal = state.s["options"]["goal"]
    names = list(state.s["board"])
    start: Board = tuple(_code(n) for n in names)
    out = Solution(bound, None)
    first = lower_bound(start, goal)
    if first == 0:
        out.solution = []
        return out
    cap = _MAX_BOUND[goal]
    for depth in range(first, bound + 1):
        out.depth_searched = depth
        best_g: dict[Board, int] = {start: 0}
        path: list[tuple[int, int]] = []

        def search(board: Board, costs: list[int], g: int) -> bool:
            out.nodes += 1
            left = depth - g - 1  # swaps left after the next one
            for swap, nxt in successors(board):
                nxt_costs = _swapped_costs(board, nxt, costs, swap[0], swap[1])
                if left < cap and _bound_of(nxt_costs, goal) > left:
                    continue
                if left == 0:
                    path.append(swap)
                    return True
                if best_g.get(nxt, 99) <= g + 1:
                    continue
                best_g[nxt] = g + 1
                path.append(swap)
                if search(nxt, nxt_costs, g + 1):
                    return True
                path.pop()
            return False

        if search(start, _costs(start), 0):
            out.solution = _as_moves(names, path)
            return out
    return out


def hint(state: ObrenState, bound: int = 6) -> Move | None:
    """The next move of a shortest solution within ``bound`` swaps, or None if there is none."""
    found = solve(state, bound)
    return found.solution[0] if found.solution else None
