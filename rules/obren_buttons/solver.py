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

Most swaps tried near the bottom of the search cannot meet the bound; :func:`_near`
rules them out from the few goal layouts within one swap of it (which spaces must
change, and which buttons would improve them) before any bound is worked out, so
the search visits the same boards in the same order, several times faster.
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


#: per pair (as :data:`_ALL_PAIRS`), its slots as (black-line cell, white-line cell, both cells' bits).
_PAIR_SLOT_BITS = tuple(tuple((i, j, (1 << i) | (1 << j)) for i, j in pair) for pair in _ALL_PAIRS)

#: per pair (as :data:`_ALL_PAIRS`) and cell, the pair's slot (black-line cell, white-line cell)
#: holding that cell, or None.
_SLOT_IN: tuple[tuple[tuple[int, int] | None, ...], ...] = tuple(
    tuple(next(((i, j) for i, j in pair if cell in (i, j)), None) for cell in range(_CELL_COUNT))
    for pair in _ALL_PAIRS)

#: the goal layouts per goal, each as the pairs whose costs add up to its cost (a pair of lines
#: for two-lines, two pairs of parallel lines for four-lines: :data:`_SPLITS` of rows, then of
#: columns) and the spaces it covers, a bit each.
_LAYOUTS: dict[str, tuple[tuple[tuple[int, ...], int], ...]] = {
    goal: tuple((layout, sum(bits for p in layout for _, _, bits in _PAIR_SLOT_BITS[p])) for layout in layouts)
    for goal, layouts in (("two-lines", [(p,) for p in range(len(_ALL_PAIRS))]),
                          ("four-lines", [(offset + x, offset + y) for offset in (0, 12) for x, y in _SPLITS]))}


def _swap_delta(board: Board, p: int, i: int, j: int) -> int:
    """How pair ``p``'s cost changes when cells i and j swap (0 when neither is in it)."""
    slots = _SLOT_IN[p]
    a, b = slots[i], slots[j]
    if a is None:
        if b is None:
            return 0
        a, b = b, None
    elif b == a:
        b = None
    table = _SLOT_ROWS
    bi, wi = board[i], board[j]
    delta = 0
    for slot in (a, b):
        if slot is None:
            break
        x, y = slot
        old_x, old_y = board[x], board[y]
        new_x = wi if x == i else bi if x == j else old_x
        new_y = wi if y == i else bi if y == j else old_y
        delta += table[new_x][new_y] - table[old_x][old_y]
    return delta


def _near(board: Board, costs: list[int], goal: str, most: int
          ) -> tuple[list[tuple[tuple[int, ...], int, int]], list[int] | None]:
    """The goal layouts that one swap may bring to a cost of at most ``most``, with their costs
    and spaces (as :data:`_LAYOUTS`; those costing at most ``most`` already first), and which
    swaps may do it: a swap of cells i and j only when bit j of ``allowed[i]`` or bit i of
    ``allowed[j]`` is set (``allowed`` is None when any swap may: some layout costs at most
    ``most`` already).

    A swap changes two spaces and lowers a layout's cost by at most 1 for each: only for a
    space of an unmatched slot, given a button that improves the slot (any black button on a
    black-line space of a slot with no black or white button where they belong, otherwise the
    one button that matches the other space). A layout costing ``most + 1`` needs one space so
    improved, one costing ``most + 2`` both, each by the other's button; a dearer one is out of
    reach. ``allowed`` keeps every swap that may, so skipping the others changes nothing."""
    fine: list[tuple[tuple[int, ...], int, int]] = []
    near: list[tuple[tuple[int, ...], int, int]] = []
    needs: list[tuple[tuple[int, ...], int]] = []
    for layout, cells in _LAYOUTS[goal]:
        cost = 0
        for p in layout:
            cost += costs[p]
        if cost <= most:
            fine.append((layout, cost, cells))
        elif cost <= most + 2:
            near.append((layout, cost, cells))
            needs.append((layout, cost - most))
    if fine:  # those first: a swap that leaves one alone keeps it within `most`
        return fine + near, None
    if not near:
        return near, None
    black = white = 0
    holding: dict[int, int] = {}
    for c, code in enumerate(board):
        bit = 1 << c
        if code > 0:
            black |= bit
        else:
            white |= bit
        holding[code] = holding.get(code, 0) | bit
    allowed = [0] * _CELL_COUNT
    for layout, short in needs:
        improves: list[tuple[int, int]] = []  # (space, the spaces holding a button that improves it)
        for p in layout:
            for x, y, _ in _PAIR_SLOT_BITS[p]:
                b, w = board[x], board[y]
                if b > 0:
                    if b != -w:
                        improves.append((y, holding.get(-b, 0)))
                        if w < 0:
                            improves.append((x, holding.get(-w, 0)))
                elif w > 0:
                    improves.append((x, black))
                    improves.append((y, white))
                else:
                    improves.append((x, holding.get(-w, 0)))
        if short == 1:
            for c, sources in improves:
                allowed[c] |= sources
        else:  # both spaces improved: each space's partner is one of the improvable spaces
            improvable = 0
            for c, sources in improves:
                if sources:
                    improvable |= 1 << c
            for c, sources in improves:
                allowed[c] |= sources & improvable
    return near, allowed


def _within(board: Board, near: list[tuple[tuple[int, ...], int, int]], most: int, i: int, j: int) -> bool:
    """Does swapping cells i and j leave one of the ``near`` layouts (:func:`_near`'s) costing at
    most ``most``?"""
    bits = (1 << i) | (1 << j)
    for layout, cost, cells in near:
        if cells & bits:
            for p in layout:
                cost += _swap_delta(board, p, i, j)
        if cost <= most:
            return True
    return False


def best_swaps(board: Board, goal: str, swaps: list[tuple[int, int]]) -> tuple[int, list[int]]:
    """The least :func:`lower_bound` over the boards ``swaps`` lead to (each a swap of two
    cells), and the indexes of the swaps reaching it, in order: what scoring every swap's board
    would find. A swap changes the bound by at most 1 either way, so the swaps that lower it are
    looked for first (among the few :func:`_near` leaves), then those that keep it; when none
    does, every swap raises it by 1."""
    costs = _costs(board)
    now = _bound_of(costs, goal)
    for score in (now - 1, now):
        if score < 0:
            continue
        most = 2 * score
        near, allowed = _near(board, costs, goal, most)
        found = [k for k, (i, j) in enumerate(swaps)
                 if (allowed is None or allowed[i] >> j & 1 or allowed[j] >> i & 1)
                 and _within(board, near, most, i, j)]
        if found:
            return score, found
    return now + 1, list(range(len(swaps)))


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
            prune = left < cap
            if prune:  # a swap is kept when it leaves some goal layout costing at most `most`
                most = 2 * left
                near, allowed = _near(board, costs, goal, most)
                if not near:
                    return False
            seen: set[tuple[int, int]] = set()
            for i, code in enumerate(board):  # successors(board), in its order
                for j in _REACH[(code, i)]:
                    if board[j] == code:  # swapping equal buttons changes nothing
                        continue
                    if prune:  # cannot meet the bound (the test is the same for (j, i))
                        if allowed is not None and not (allowed[i] >> j & 1 or allowed[j] >> i & 1):
                            continue
                    pair = (i, j) if i < j else (j, i)
                    if pair in seen:
                        continue
                    seen.add(pair)
                    if prune and not _within(board, near, most, i, j):
                        continue
                    if left == 0:
                        path.append((i, j))
                        return True
                    nxt_list = list(board)
                    nxt_list[i], nxt_list[j] = board[j], code
                    nxt = tuple(nxt_list)
                    if best_g.get(nxt, 99) <= g + 1:
                        continue
                    best_g[nxt] = g + 1
                    path.append((i, j))
                    if search(nxt, _swapped_costs(board, nxt, costs, i, j), g + 1):
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
