"""Adam Obren's button game: board data, every rule refusing a bad move (reasoned by hand from the
A-10 bridge map), results of both modes, options, the solver and the players.

The bridge map (games.md A-10), rows top to bottom::

    a1 -R- b1 -B- c1 -R- d1
    R      W      W      R
    a2 -B- b2 -R- c2 -B- d2
    W      R      R      W
    a3 -B- b3 -R- c3 -B- d3
    R      W      W      R
    a4 -R- b4 -B- c4 -R- d4
"""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

import rules
from rules.core import IllegalMove, SetupError, judge
from rules.mutate import mutants
from rules.obren_buttons import GAME, GRID, ObrenState, goal_met
from rules.obren_buttons import board as B
from rules.obren_buttons.solver import hint, lower_bound, solve, _code
from tts_builder.simulate import play_game

ORDERED_FILL = ["black-1", "black-2", "black-3", "black-4", "white-1", "white-2", "white-4", "white-3",
                "black-5", "black-6", "black-7", "black-8", "white-5", "white-6", "white-8", "white-7"]


def duel(cells: dict[str, str], colors=("black", "white"), turn: int = 0, **extra) -> ObrenState:
    """A duel position with the given buttons on the board (seat 0 plays colors[0])."""
    state = GAME.new_state(setup={"colors": list(colors)})
    for cell, name in cells.items():
        state.s["board"][B.CELL_INDEX[cell]] = name
    state.s["turn"] = turn
    state.s.update(extra)
    return state


def refused(state: ObrenState, move: dict) -> str:
    verdict = state.check(move)
    assert not verdict.ok, f"{move} accepted"
    assert verdict.message and verdict.section == GAME.rules[verdict.rule].section
    with pytest.raises(IllegalMove):
        state.apply(move)
    return verdict.rule


def mv(button: str, start: str, end: str) -> dict:
    return {"type": "move", "button": button, "from": start, "to": end}


def test_doctests():
    import doctest
    import rules.obren_buttons
    import rules.obren_buttons.solver
    for module in (rules.obren_buttons, B, rules.obren_buttons.solver):
        assert doctest.testmod(module).failed == 0, module.__name__


# -- data ---------------------------------------------------------------------------------------

def test_board_is_the_a10_map_from_the_data_file():
    colors = Counter(e.attrs["color"] for e in GRID.edges())
    assert len(GRID) == 16 and len(GRID.edges()) == 24
    assert colors == {"red": 12, "black": 6, "white": 6}  # the diagram's count (see assumption A-10)
    assert B.bridge_color("a1", "b1") == "red" and B.bridge_color("b1", "c1") == "black"
    assert B.bridge_color("b1", "b2") == "white" and B.bridge_color("b2", "c2") == "red"
    # a 90-degree turn swaps black and white; a mirror keeps every colour
    def turn(cell: str) -> str:
        x, y = GRID.cell(cell).coords
        return next(c.id for c in GRID if c.coords == (3 - y, x))
    swap = {"red": "red", "black": "white", "white": "black"}
    for e in GRID.edges():
        assert B.bridge_color(turn(e.a), turn(e.b)) == swap[e.attrs["color"]]
        mirror = {c.id: next(d.id for d in GRID if d.coords == (3 - c.coords[0], c.coords[1])) for c in GRID}
        assert B.bridge_color(mirror[e.a], mirror[e.b]) == e.attrs["color"]


def test_every_button_has_two_destinations_for_every_value():
    for color in B.COLORS:
        for cell in B.CELLS:
            for value in range(1, 9):
                assert len(B.destinations(color, cell, value)) >= 2, (color, cell, value)


def test_paths_are_simple_exact_and_use_allowed_bridges():
    for color in B.COLORS:
        for cell in B.CELLS:
            for value in range(1, 9):
                for end in B.destinations(color, cell, value):
                    p = B.path(color, cell, end, value)
                    assert p is not None and len(p) == value + 1 and len(set(p)) == len(p)
                    assert p[0] == cell and p[-1] == end
                    assert all(B.bridge_color(a, b) in ("red", color) for a, b in zip(p, p[1:]))


def test_button_names_for_both_numberings():
    assert list(B.button_names("1-8"))[:3] == ["black-1", "black-2", "black-3"]
    twice = B.button_names("1-4-twice")
    assert len(twice) == 16 and twice["white-3b"] == ("white", 3) and "black-5" not in twice


# -- placement ----------------------------------------------------------------------------------

def test_first_placement_anywhere_then_next_to_an_opponent():
    state = duel({})
    assert len([m for m in state.legal_moves() if m["type"] == "place"]) == 8 * 16
    state.apply({"type": "place", "button": "black-3", "cell": "b2"})
    cells = {m["cell"] for m in state.legal_moves() if m["type"] == "place"}
    assert cells == {"b1", "a2", "c2", "b3"}
    assert refused(state, {"type": "place", "button": "white-1", "cell": "c3"}) == "next-to-opponent"  # diagonal
    assert refused(state, {"type": "place", "button": "white-1", "cell": "b2"}) == "empty-space"
    assert refused(state, {"type": "place", "button": "black-1", "cell": "b1"}) == "own-button"
    assert refused(state, {"type": "place", "button": "white-9", "cell": "b1"}) == "unknown-button"
    assert refused(state, {"type": "place", "button": "white-1", "cell": "e1"}) == "unknown-cell"
    assert refused(state, {"type": "place", "button": "white-1"}) == "move-format"
    assert refused(state, {"type": "place", "button": 3, "cell": "b1"}) == "move-format"
    state.apply({"type": "place", "button": "white-1", "cell": "b1"})
    assert refused(state, {"type": "place", "button": "black-3", "cell": "a1"}) == "in-supply"
    # next to *an opponent's* button: a1 touches white-1, c3 touches only black-3
    assert state.check({"type": "place", "button": "black-2", "cell": "a1"}).ok
    assert refused(state, {"type": "place", "button": "black-2", "cell": "c3"}) == "next-to-opponent"


def test_no_passing_and_unknown_moves():
    state = duel({})
    assert refused(state, {"type": "pass"}) == "no-passing"
    assert refused(state, {"type": "jump"}) == "move-format"
    assert refused(state, "place") == "move-format"
    assert judge(state, 1, {"type": "place", "button": "white-1", "cell": "a1"}).rule == "turn-order"


# -- movement ------------------------------------------------------------------------------------

def test_a_move_must_start_where_the_button_is():
    state = duel({"b2": "black-3", "b3": "white-1"})
    assert refused(state, mv("black-4", "a1", "b1")) == "on-board"
    assert refused(state, mv("black-3", "a1", "b1")) == "from-cell"
    assert refused(state, mv("black-3", "b2", "z9")) == "unknown-cell"


def test_exact_distance():
    state = duel({"a1": "black-2", "d4": "white-1"})
    assert refused(state, mv("black-2", "a1", "b1")) == "exact-distance"  # one bridge away, not two
    assert refused(state, mv("black-2", "a1", "d4")) == "exact-distance"  # six away
    assert state.check(mv("black-2", "a1", "c1")).ok  # a1 -R- b1 -B- c1


def test_no_trespassing():
    state = duel({"b1": "black-1", "a1": "white-2", "d4": "white-1"})
    assert state.check(mv("black-1", "b1", "c1")).ok  # the black bridge
    assert refused(state, mv("black-1", "b1", "b2")) == "no-trespassing"  # the white bridge
    state.s["turn"] = 1
    # white-2 from a1 to c1 needs b1 -B- c1; white's own 2-step walks reach only a1, b2, a3
    assert refused(state, mv("white-2", "a1", "c1")) == "no-trespassing"
    assert state.check(mv("white-2", "a1", "b2")).ok  # a1 -R- b1 -W- b2


def test_no_backtracking():
    state = duel({"a1": "black-3", "d4": "white-1", "b4": "black-2"})
    assert refused(state, mv("black-2", "b4", "b4")) == "no-backtracking"  # ending where it started
    # black-3 from a1 to b1: black's only 3-step ways revisit (a1-b1-a1-b1); a1-a2-b2-b1 crosses white
    assert refused(state, mv("black-3", "a1", "b1")) == "no-backtracking"
    assert state.check(mv("black-3", "a1", "c2")).ok  # a1 -R- a2 -B- b2 -R- c2


def test_swap_and_no_reversals():
    state = duel({"a1": "black-1", "b1": "white-1", "d4": "black-8", "d3": "white-8"})
    state.apply(mv("black-1", "a1", "b1"))  # red bridge; white-1 goes to a1
    assert state.s["board"][:2] == ["white-1", "black-1"] and state.s["last_swap"] == ["black-1", "white-1"]
    assert refused(state, mv("white-1", "a1", "b1")) == "no-reversals"
    assert mv("white-1", "a1", "b1") not in state.legal_moves()
    state.apply(mv("white-1", "a1", "a2"))  # onto an empty space: nothing swaps
    assert state.s["last_swap"] == []
    assert state.check(mv("black-1", "b1", "a1")).ok


def test_path_for_shows_a_legal_path():
    state = duel({"a1": "black-3", "d4": "white-1"})
    path = state.path_for(mv("black-3", "a1", "c2"))
    assert path[0] == "a1" and path[-1] == "c2" and len(path) == 4
    with pytest.raises(IllegalMove):
        state.path_for(mv("black-3", "a1", "b1"))


# -- the end of the duel -------------------------------------------------------------------------

def test_line_of_four_wins():
    state = duel({"a1": "black-2", "b1": "black-3", "c1": "black-4", "d1": "white-4", "d2": "black-1",
                  "a4": "white-1", "b4": "white-2", "c4": "white-3"})
    state.apply(mv("black-1", "d2", "d1"))  # red bridge; white-4 goes to d2
    assert state.result().winner == 0 and state.result().reason == "line-of-four"
    assert state.legal_moves() == []
    assert judge(state, 1, mv("white-4", "d2", "d1")).rule == "game-over"


def test_a_diagonal_is_not_a_line():
    state = duel({"a1": "black-2", "b2": "black-3", "c3": "black-4", "d3": "black-1", "a4": "white-1"})
    state.apply(mv("black-1", "d3", "d4"))  # red bridge: black now holds a1, b2, c3, d4
    assert not state.is_terminal()


def test_both_lines_at_once_go_to_the_mover():
    state = duel({"a1": "black-1", "b1": "black-2", "c1": "black-4", "d1": "white-3", "d4": "black-3",
                  "a4": "white-1", "b4": "white-2", "c4": "white-4"}, turn=1)
    # white-3 d1 -R- d2 -W- d3 -R- d4 swaps black-3 onto d1: black row 1 and white row 4 both complete
    state.apply(mv("white-3", "d1", "d4"))
    assert state.result().winner == 1 and state.result().reason == "line-of-four"


def test_a_move_that_only_completes_the_opponents_line_loses():
    state = duel({"a4": "white-1", "b4": "white-2", "c4": "white-3", "d4": "black-1", "d3": "white-4",
                  "a1": "black-2"}, turn=0)
    state.apply(mv("black-1", "d4", "d3"))  # red bridge: white-4 swaps onto d4 and completes white's row 4
    assert state.result().winner == 1 and state.result().reason == "line-of-four"


def test_move_cap_is_a_draw():
    caps = [play_game("obren-buttons", s, policy="random", options={"move_cap": 20})["result"] for s in range(30)]
    capped = [r for r in caps if r["reason"] == "move-cap"]
    assert capped and all(r["winner"] is None and r["moves"] == 20 for r in capped)


@pytest.mark.parametrize("limit, ends_after", [(2, 5), (3, 9), (0, None)])
def test_repetition_is_a_draw(limit, ends_after):
    state = duel({"a1": "black-1", "a4": "white-1"})
    state.s["options"]["repetition"] = limit
    cycle = [mv("black-1", "a1", "b1"), mv("white-1", "a4", "b4"), mv("black-1", "b1", "a1"), mv("white-1", "b4", "a4")]
    for n in range(12):
        if state.is_terminal():
            break
        state.apply(cycle[n % 4])
    if ends_after is None:
        assert not state.is_terminal()
    else:
        assert state.s["moves"] == ends_after and state.result().reason == "repetition"
        assert state.result().winner is None


def test_a_placement_clears_the_repetition_history():
    state = duel({"a1": "black-1", "a4": "white-1"})
    state.apply(mv("black-1", "a1", "b1"))
    assert len(state.s["history"]) == 1
    state.apply({"type": "place", "button": "white-2", "cell": "c1"})
    assert len(state.s["history"]) == 1 and state.s["history"][0].endswith("|0")


def test_forfeit():
    state = duel({})
    state.apply({"type": "forfeit"})
    assert state.result().winner == 1 and state.result().reason == "forfeit"


@pytest.mark.parametrize("players, seat", [(2, 0), (2, 1), (1, 0)])
def test_a_forfeit_result_names_the_seat_that_conceded_in_both_engines(players, seat):
    """The README's promise (``forfeited_by``, as the other games record it)."""
    from tts_builder.agreement import LuaEngine
    state = duel({}) if players == 2 else solo(ORDERED_FILL)
    lua = LuaEngine("obren-buttons")
    lstate = lua.new_state(state.setup(), state.options())
    if seat == 1:
        move = {"type": "place", "button": state.legal_moves()[0]["button"], "cell": state.legal_moves()[0]["cell"]}
        state.apply(move)
        lua.apply(lstate, move)
    state.apply({"type": "forfeit"})
    lua.apply(lstate, {"type": "forfeit"})
    result = state.result().to_json()
    assert result["reason"] == "forfeit" and result["forfeited_by"] == seat
    if players == 2:
        assert result["winner"] == 1 - seat
    lua_result = lua.sandbox.from_lua(lua.sandbox.call(lua.rules.result, lstate), empty_as="list")
    assert lua_result == {k: v for k, v in result.items() if v is not None}


# -- solo ----------------------------------------------------------------------------------------

def solo(fill, goal="two-lines", **options) -> ObrenState:
    return GAME.new_state(num_players=1, setup={"fill": list(fill)}, options={"goal": goal, **options})


def test_solo_setup_from_the_seed_is_a_full_board():
    state = GAME.new_state(seed=5, num_players=1)
    assert sorted(state.s["board"]) == sorted(B.button_names("1-8"))
    assert state.setup() == {"fill": state.s["board"]}
    assert state.current_player() == 0 and state.num_players() == 1


def test_solo_moves_swap_either_colour_and_never_place():
    state = solo(ORDERED_FILL)
    colors = {B.button_color(m["button"]) for m in state.legal_moves() if m["type"] == "move"}
    assert colors == {"black", "white"}
    assert refused(state, {"type": "place", "button": "black-1", "cell": "a1"}) == "in-supply"
    assert refused(state, mv("white-1", "a2", "b2")) == "no-trespassing"  # a2 -B- b2


def test_solo_has_no_reversal_rule():
    state = solo(ORDERED_FILL)
    state.apply(mv("black-1", "a1", "b1"))
    assert state.check(mv("black-1", "b1", "a1")).ok


def test_solo_two_lines_goal():
    # row 1 black 1 2 3 4, row 2 white 1 2 4 3: swapping white-4 (c2) and white-3 (d2) meets the goal
    assert not goal_met(ORDERED_FILL, "two-lines")
    done = list(ORDERED_FILL)
    done[6], done[7] = done[7], done[6]
    assert goal_met(done, "two-lines") and not goal_met(done, "four-lines")
    reversed_row = list(done)
    reversed_row[4:8] = reversed(reversed_row[4:8])
    assert not goal_met(reversed_row, "two-lines")  # same values, other order


def test_solo_four_lines_goal():
    board = ["black-1", "black-2", "black-3", "black-4", "white-5", "white-6", "white-7", "white-8",
             "black-5", "black-6", "black-7", "black-8", "white-1", "white-2", "white-3", "white-4"]
    assert goal_met(board, "four-lines") and goal_met(board, "two-lines")
    board[12], board[13] = board[13], board[12]
    assert not goal_met(board, "four-lines") and goal_met(board, "two-lines")


def test_solo_win_result_and_loss_by_move_cap():
    state = solo(ORDERED_FILL)
    found = solve(state, 3)
    assert found.solution is not None
    for move in found.solution:
        state.apply(move)
    result = state.result()
    assert (result.kind, result.outcome, result.winner, result.score, result.detail) == \
        ("solo", "win", 0, len(found.solution), {"goal": "two-lines"})
    lost = solo(ORDERED_FILL, move_cap=20)
    rng = random.Random(1)
    while not lost.is_terminal():
        lost.apply(rng.choice([m for m in lost.legal_moves() if m["type"] == "move"]))
    assert lost.result().reason == "move-cap"  # random swaps from this fill miss the goal for 20 moves
    assert lost.result().winner is None and lost.result().outcome == "loss"
    assert lost.result().to_json()["score"] == 20


# -- solver --------------------------------------------------------------------------------------

def test_solver_finds_a_shortest_solution():
    state = solo(ORDERED_FILL)
    found = solve(state, 4)
    assert found.solution is not None
    # no shorter one: every solution of fewer swaps is ruled out by exhausting that depth
    assert solve(state, len(found.solution) - 1).solution is None
    first = hint(state, 4)
    assert first == found.solution[0] and state.check(first).ok


def _plain_search(state: ObrenState, bound: int) -> tuple[list[tuple[int, int]] | None, int, int]:
    """The solver's iterative deepening with no shortcut: every successor in order, each
    judged by lower_bound of its whole board. (path of swaps or None, nodes, depth searched)"""
    from rules.obren_buttons.solver import successors
    goal = state.s["options"]["goal"]
    start = tuple(_code(n) for n in state.s["board"])
    if lower_bound(start, goal) == 0:
        return [], 0, 0
    cap = {"two-lines": 4, "four-lines": 8}[goal]
    nodes = depth_searched = 0
    for depth in range(lower_bound(start, goal), bound + 1):
        depth_searched = depth
        best_g = {start: 0}
        path: list[tuple[int, int]] = []

        def search(board, g):
            nonlocal nodes
            nodes += 1
            left = depth - g - 1
            for swap, nxt in successors(board):
                if left < cap and lower_bound(nxt, goal) > left:
                    continue
                if left == 0:
                    path.append(swap)
                    return True
                if best_g.get(nxt, 99) <= g + 1:
                    continue
                best_g[nxt] = g + 1
                path.append(swap)
                if search(nxt, g + 1):
                    return True
                path.pop()
            return False

        if search(start, 0):
            return path, nodes, depth_searched
    return None, nodes, depth_searched


def test_the_solver_skips_only_swaps_that_miss_the_bound():
    """solve() rules swaps out before it works out their bound; it must visit the same boards and
    find the same solution as the plain search that works out every bound."""
    solved = unsolved = 0
    for seed in range(24):
        goal = "four-lines" if seed % 3 == 0 else "two-lines"
        numbering = "1-4-twice" if seed % 4 == 1 else "1-8"
        names = list(B.button_names(numbering))
        random.Random(seed).shuffle(names)
        state = GAME.new_state(setup={"fill": names}, options={"goal": goal, "numbering": numbering},
                               num_players=1)
        bound = 4 if goal == "two-lines" else 5
        found = solve(state, bound)
        path, nodes, depth = _plain_search(state, bound)
        assert (found.nodes, found.depth_searched) == (nodes, depth), seed
        if path is None:
            assert found.solution is None, seed
            unsolved += 1
        else:
            want = [(B.CELL_INDEX[m["from"]], B.CELL_INDEX[m["to"]]) for m in found.solution or []]
            assert want == path, seed
            solved += 1
    assert solved >= 5 and unsolved >= 5


FOUR_LINES = ["black-1", "black-2", "black-3", "black-4", "white-5", "white-6", "white-7", "white-8",
              "black-5", "black-6", "black-7", "black-8", "white-1", "white-2", "white-3", "white-4"]


def test_best_swaps_are_the_least_bound_of_every_swap():
    """The solo heuristic's shortcut: the least lower_bound over the swaps' boards and the swaps
    reaching it, as scoring each swapped board finds them (plateaus, rises and falls all met)."""
    from rules.obren_buttons.solver import best_swaps
    rng = random.Random(5)
    seen = Counter()
    for trial in range(150):
        goal = "four-lines" if trial % 3 == 0 else "two-lines"
        numbering = "1-4-twice" if trial % 4 == 1 else "1-8"
        names = list(B.button_names(numbering))
        rng.shuffle(names)
        board = tuple(_code(n) for n in names)
        if trial % 2:  # near a goal too: a solved layout a few random swaps away
            board = tuple(_code(n) for n in ORDERED_FILL) if numbering == "1-8" else board
            cells = list(board)
            for _ in range(rng.randint(1, 3)):
                i, j = rng.sample(range(16), 2)
                cells[i], cells[j] = cells[j], cells[i]
            board = tuple(cells)
        swaps = [(i, j) for i in range(16) for j in range(16) if i != j and rng.random() < 0.3]
        if trial % 10 == 9:  # four lines met: swapping buttons of the two black rows breaks them
            goal, board = "four-lines", tuple(_code(n) for n in FOUR_LINES)
            swaps = [(rng.randrange(4), 8 + rng.randrange(4)) for _ in range(3)]
        scores = []
        for i, j in swaps:
            cells = list(board)
            cells[i], cells[j] = cells[j], cells[i]
            scores.append(lower_bound(tuple(cells), goal))
        least = min(scores)
        assert best_swaps(board, goal, swaps) == (least, [k for k, v in enumerate(scores) if v == least]), trial
        seen[least - lower_bound(board, goal)] += 1
    assert set(seen) == {-1, 0, 1}, seen


def test_lower_bound_never_exceeds_the_solution():
    for seed in range(6):
        state = GAME.new_state(seed=seed, num_players=1)
        found = solve(state, 4)
        if found.solution is not None:
            assert lower_bound(tuple(_code(n) for n in state.s["board"]), "two-lines") <= len(found.solution)


def test_solvable_deal_option():
    state = GAME.new_state(seed=9, num_players=1, options={"deal": "solvable", "deal_bound": 3})
    assert solve(state, 3).solution is not None
    again = GAME.new_state(seed=9, num_players=1, options={"deal": "solvable", "deal_bound": 3})
    assert again.setup() == state.setup()


# -- setup and options ---------------------------------------------------------------------------

def test_setup_errors_name_the_field():
    with pytest.raises(SetupError, match="setup.colors"):
        GAME.new_state(setup={"colors": ["black", "black"]})
    with pytest.raises(SetupError, match="setup.fill names unknown button 'black-9'"):
        GAME.new_state(setup={"fill": ["black-9"] + ORDERED_FILL[1:]})
    with pytest.raises(SetupError, match="each of the 16"):
        GAME.new_state(setup={"fill": ORDERED_FILL[:15]})
    with pytest.raises(SetupError, match="2 players"):
        GAME.new_state(setup={"fill": ORDERED_FILL}, num_players=2)
    with pytest.raises(SetupError, match="move_cap"):
        GAME.new_state(options={"move_cap": 7})
    with pytest.raises(SetupError):
        GAME.new_state(num_players=3)


def test_either_colour_may_start():
    firsts = {GAME.new_state(seed=s).setup()["colors"][0] for s in range(10)}
    assert firsts == {"black", "white"}


def test_numbering_1_4_twice():
    state = GAME.new_state(seed=1, options={"numbering": "1-4-twice"}, setup={"colors": ["white", "black"]})
    names = {m["button"] for m in state.legal_moves() if m["type"] == "place"}
    assert names == {f"white-{v}{c}" for v in range(1, 5) for c in "ab"}
    assert refused(state, {"type": "place", "button": "white-8", "cell": "a1"}) == "unknown-button"


# -- players and mutants -------------------------------------------------------------------------

def winning_moves(state: ObrenState, seat: int) -> list[dict]:
    out = []
    for m in state.legal_moves():
        after = state.clone()
        after.apply(m)
        if after.is_terminal() and after.result().winner == seat and m["type"] != "forfeit":
            out.append(m)
    return out


def test_heuristic_takes_a_win_and_blocks():
    state = duel({"a1": "black-2", "b1": "black-3", "c1": "black-4", "d1": "white-4", "d2": "black-1",
                  "a4": "white-1", "b4": "white-2", "c3": "white-3"})
    assert winning_moves(state, 0)
    for seed in range(5):
        move = GAME.heuristic_move(state.observation(0), state.legal_moves(), random.Random(seed))
        assert move in winning_moves(state, 0)
    # white to move; black threatens black-1 d2 -> d1: white's choice leaves black no winning move
    state.s["turn"] = 1
    for seed in range(5):
        move = GAME.heuristic_move(state.observation(1), state.legal_moves(), random.Random(seed))
        after = state.clone()
        after.apply(move)
        assert winning_moves(after, 0) == [], move


def test_board_mutants_are_refused_with_board_rules():
    state = duel({"a1": "black-3", "d4": "white-1", "b4": "white-2"})
    move = mv("black-3", "a1", "c2")
    assert state.check(move).ok
    seen = Counter()
    for seed in range(30):
        for m in mutants(move, state, random.Random(seed)):
            v = state.check(m)
            if not v.ok:
                seen[v.rule] += 1
    for rule in ("exact-distance", "no-backtracking", "no-trespassing", "from-cell", "no-passing"):
        assert seen[rule], rule


def test_registered_and_simulated():
    assert "obren-buttons" in rules.game_ids()
    t = play_game("obren-buttons", 4, policy="heuristic")
    assert t["result"]["reason"] in ("line-of-four", "move-cap", "repetition")
    assert json.loads(json.dumps(t)) == t


def test_solvable_deal_gives_up_with_a_clear_error(monkeypatch):
    import rules.obren_buttons.engine as engine

    monkeypatch.setattr(engine, "MAX_REDEALS", 1)
    with pytest.raises(SetupError, match="option deal_bound 1: no deal solvable within it in 1 redeals"):
        GAME.new_state(seed=0, num_players=1, options={"deal": "solvable", "deal_bound": 1})


def test_trespass_and_backtrack_refusals_count_the_bridges_in_both_engines():
    """The refusals say how far the button goes in bridges ("exactly 2 bridges"); check-lua
    compares the Lua mirror's words with these."""
    seen: dict[str, str] = {}
    for button in ("black-1", "black-2", "black-3", "black-4"):
        for start in B.CELLS:
            state = duel({start: button})
            for end in B.CELLS:
                v = state.check(mv(button, start, end))
                if v.rule in ("no-trespassing", "no-backtracking") and start != end:
                    seen.setdefault(v.rule, v.message)
                    value = B.button_value(button)
                    assert f"exactly {value} bridge{'' if value == 1 else 's'} " in v.message, v.message
    assert set(seen) == {"no-trespassing", "no-backtracking"}, seen
