"""Event-level tests of the built button-game mod: the real save's Global script runs under
Lua 5.2 with a stubbed TTS API (FakeTTS); buttons are picked up and dropped on the board's
spaces and panel buttons clicked as a player would, with moves chosen by the Python engine.
The transcripts the mod records validate in Python; refused drops name their rule and the
button goes back; a picked-up button keeps snap points on exactly the engine's legal spaces;
the solo fill comes from the bag; the Lua hint is the Python solver's first move."""

from __future__ import annotations

import json
import random
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

import rules
from modtable import build_save
from rules.obren_buttons import GAME
from rules.obren_buttons.engine import ObrenState
from rules.obren_buttons.solver import hint as py_hint
from rules.players import choose
from tts_builder.agreement import LuaEngine
from tts_builder.lualint import lint_lua
from tts_builder.testing import FakeTTS
from tts_builder.validate import validate_data, validate_file

GAME_ID = "obren-buttons"
SEATS = ("White", "Brown")        # the table's seats: White plays white, Brown plays black
PLAYS = {"white": "White", "black": "Brown"}
HINT_BOUND = GAME.data["mod"]["hint_bound"]


@pytest.fixture(scope="module")
def built(tmp_path_factory: Any) -> dict[str, Any]:
    return build_save(tmp_path_factory.mktemp("build"), GAME_ID)


class Table:
    """The built save laid out in a FakeTTS (objects, bag, snap points), its XmlUI and Global script loaded."""

    def __init__(self, save: dict[str, Any], seated: tuple[str, ...] = SEATS, state: str = ""):
        self.save = save
        self.fake = FakeTTS(seated=seated)
        self.fake.ui.setXml(save["XmlUI"])
        self.objects = self.fake.load_save(save)
        self.guid_of = {o._gm_notes: g for g, o in self.objects.items() if o._gm_notes}
        self.bag = next(o for o in self.objects.values() if o.type == "Bag")
        self.fake.load_global(save["LuaScript"], save_state=state)

    # -- reading -------------------------------------------------------------------------
    def transcript(self) -> dict[str, Any]:
        out: dict[str, Any] = json.loads(self.fake.sandbox.call("onSave"))["transcript"]
        return out

    def lua(self, dotted: str, empty_as: str = "list") -> Any:
        return self.fake.sandbox.from_lua(self.fake.sandbox.lookup(dotted), empty_as=empty_as)

    def board(self) -> list[str]:
        return list(self.lua("Game.state.board"))

    def cell_xyz(self, cell: str) -> tuple[float, float, float]:
        p = self.fake.sandbox.from_lua(self.fake.sandbox.call(self.fake.sandbox.lookup("Table.cell_position"), cell),
                                       empty_as="dict")
        return (p["x"], p["y"], p["z"])

    def cell_at(self, pos: tuple[float, float, float]) -> str | None:
        out = self.fake.sandbox.call(self.fake.sandbox.lookup("Table.cell_at"), self.fake.sandbox.to_lua(
            {"x": pos[0], "y": pos[1], "z": pos[2]}))
        return None if out is None else str(out)

    def button(self, bid: str) -> Any:
        return self.fake.get_object(self.guid_of[bid])

    def where(self, bid: str) -> str | None:
        """The space a button object lies on (None off the board or in the bag)."""
        obj = self.button(bid)
        if obj.container is not None:
            return None
        return self.cell_at(tuple(obj.position))

    def snap_cells(self) -> list[str]:
        cells = [self.cell_at(tuple(p["position"])) for p in self.fake.snap_points]
        return sorted(c for c in cells if c is not None)

    def ui(self, element: str) -> str | None:
        return self.fake.ui.getValue(element)

    def last_broadcast(self) -> str:
        return str(self.fake.broadcasts[-1].text)

    # -- acting --------------------------------------------------------------------------
    def click(self, color: str, fn: str, seconds: float = 1.0) -> None:
        self.fake.click_ui(fn, color, "-1", None)
        self.wait(seconds)

    def wait(self, seconds: float) -> None:
        self.fake.wait(seconds)

    def pick_up(self, color: str, bid: str) -> Any:
        obj = self.button(bid)
        self.fake.fire("onObjectPickUp", color, obj)
        return obj

    def drop(self, color: str, bid: str, cell: str | None = None, position: tuple[float, float, float] | None = None) -> Any:
        """Pick the button up and drop it on ``cell`` (or at ``position``); let the smooth moves finish."""
        obj = self.pick_up(color, bid)
        pos = self.cell_xyz(cell) if cell is not None else position
        self.fake.drop(obj, color, position=pos)
        self.wait(0.5)
        return obj

    def play(self, state: ObrenState, move: dict[str, Any]) -> None:
        """Make ``move`` (legal or not) as the player to move would, at the table."""
        seat = state.current_player()
        color = self.color_of(seat)
        target = move["cell"] if move["type"] == "place" else move["to"]
        self.drop(color, move["button"], target)

    def color_of(self, seat: int) -> str:
        return str(self.lua("Game.colors")[seat])


def duel(built: dict[str, Any], first: str = "white") -> tuple[Table, ObrenState]:
    table = Table(built)
    if first == "black":
        table.click("White", "ttStarts")
    table.click("White", "ttNewGame")
    tr = table.transcript()
    assert tr["setup"] == {"colors": [first, "black" if first == "white" else "white"]}
    assert [p["name"] for p in tr["players"]] == [PLAYS[first], PLAYS["black" if first == "white" else "white"]]
    return table, GAME.new_state(setup=tr["setup"], options=tr["options"], num_players=2)


def solo(built: dict[str, Any], seed: int, goal: str | None = None, color: str = "Brown") -> tuple[Table, ObrenState]:
    """A solo game by New game with one seated player; the bag is shuffled by ``seed``
    (the fake's shuffle keeps the order, so the test shuffles it between the gather and the fill)."""
    table = Table(built, seated=(color,))
    if goal is not None and goal != GAME.options["goal"]:
        table.click(color, "ttGoal")
    table.fake.click_ui("ttNewGame", color, "-1", None)
    assert table.bag.getQuantity() == 16  # every button gathered, now or on the next frame
    random.Random(seed).shuffle(table.bag._contents)
    order = [o._gm_notes for o in table.bag._contents]
    table.wait(1.0)
    tr = table.transcript()
    assert tr["setup"] == {"fill": order} and tr["players"] == [{"name": color, "color": color}]
    return table, GAME.new_state(setup=tr["setup"], options=tr["options"], num_players=1)


def board_matches(table: Table, state: ObrenState) -> None:
    """The Lua state's board is the engine's, and every button object lies where the state says."""
    board = state.to_json()["board"]
    assert table.board() == board
    for i, bid in enumerate(board):
        if bid:
            assert table.where(bid) == rules.obren_buttons.board.CELLS[i], bid
    for bid in table.guid_of:
        if bid.startswith(("black-", "white-")) and bid not in board:
            assert table.where(bid) is None and table.button(bid).container is None  # in its supply


# --------------------------------------------------------------------------- the build


def test_the_save_holds_the_board_the_buttons_the_bag_and_checks(built: dict[str, Any]) -> None:
    names = {o["GMNotes"]: o for o in built["ObjectStates"]}
    buttons = [f"{c}-{v}" for c in ("black", "white") for v in range(1, 9)]
    assert all(names[b]["Name"] == "Custom_Tile" for b in buttons)
    assert names["black-3"]["Nickname"] == "Black 3" and "3 bridges" in names["black-3"]["Description"]
    assert names["board"]["Locked"] and names["solo"]["Name"] == "Bag"
    assert len(built["SnapPoints"]) == 16
    assert {s["color"] for s in [{"color": t["FogColor"]} for t in built["ObjectStates"] if t["Name"] == "HandTrigger"]} == set(SEATS)
    for name, source in [("Global.lua", built["LuaScript"])]:
        assert not lint_lua(source, name)
    ET.fromstring("<root>" + built["XmlUI"] + "</root>")
    notebook = {t["title"]: t["body"] for t in built["TabStates"].values()}
    assert "SOLO" in notebook["Rules"] and "[A-10]" in notebook["Assumptions"] and "Hint" in notebook["This table"]


def test_buttons_wait_in_their_supplies_and_nothing_is_a_move_before_new_game(built: dict[str, Any]) -> None:
    table = Table(built)
    assert table.ui("tt-status").startswith("Press New game")
    assert all(table.where(b) is None for b in table.guid_of if b.startswith(("black-", "white-")))
    table.drop("White", "white-2", "b2")  # no game: free to arrange, nothing recorded
    assert table.lua("Game.state") is None and table.where("white-2") == "b2"


# --------------------------------------------------------------------------- the duel


def test_a_whole_duel_played_by_drops_validates(built: dict[str, Any]) -> None:
    for seed, first in ((3, "white"), (4, "black")):
        table, state = duel(built, first)
        rng = random.Random(seed)
        n = 0
        while not state.is_terminal():
            move = choose(GAME, state, "heuristic" if state.current_player() == 0 else "random", rng)
            table.play(state, move)
            state.apply(move)
            n += 1
            board_matches(table, state)
        tr = table.transcript()
        assert len(tr["moves"]) == n and tr["result"]["reason"] == state.result().reason
        report = validate_data({**built, "LuaScriptState": json.dumps({"transcript": tr})}, "save.json")
        assert report.legal and report.finished and report.moves_checked == n, report.summary()
        assert table.ui("tt-status") == f"Game over: {report.result_text()}."  # seats named by colour alike


def test_a_picked_up_button_keeps_snap_points_on_exactly_its_legal_spaces(built: dict[str, Any]) -> None:
    table, state = duel(built)
    rng = random.Random(11)
    checked = 0
    for _ in range(24):
        if state.is_terminal():
            break
        seat = state.current_player()
        color = state.color_of(seat)
        legal = state.legal_moves()
        for bid in sorted({m["button"] for m in legal if "button" in m} | {f"{color}-1", f"{color}-8"}):
            table.pick_up(table.color_of(seat), bid)
            want = sorted({m.get("cell") or m["to"] for m in legal if m.get("button") == bid})
            assert table.snap_cells() == want, (bid, state.to_json()["board"])
            shown = table.ui("tt-dest")
            assert shown == (f"{bid} may go to: " + ", ".join(c for c in rules.obren_buttons.board.CELLS if c in want)
                             if want else f"{bid} has no legal space now.")
            # put down where it was: every space snaps again
            table.fake.drop(table.button(bid), table.color_of(seat), position=tuple(table.button(bid).position))
            table.wait(0.5)
            assert len(table.snap_cells()) == 16
            checked += 1
        # the opponent picking a button up out of turn changes nothing
        other = table.color_of(1 - seat)
        table.pick_up(other, f"{state.color_of(1 - seat)}-5")
        assert len(table.snap_cells()) == 16
        table.fake.drop(table.button(f"{state.color_of(1 - seat)}-5"), other,
                        position=tuple(table.button(f"{state.color_of(1 - seat)}-5").position))
        table.wait(0.5)
        move = choose(GAME, state, "random", rng)
        table.play(state, move)
        state.apply(move)
    assert checked > 60
    board_matches(table, state)


def find_refusal(rule: str, seeds: range = range(200)) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """Moves of a random duel (white first) up to a position where a button drop is refused under ``rule``."""
    for seed in seeds:
        rng = random.Random(seed)
        state = GAME.new_state(setup={"colors": ["white", "black"]}, num_players=2)
        played: list[dict[str, Any]] = []
        while not state.is_terminal() and len(played) < 60:
            color = state.color_of(state.current_player())
            for i, bid in enumerate(state.to_json()["board"]):
                if bid and bid.startswith(color):
                    for to in rules.obren_buttons.board.CELLS:
                        move = {"type": "move", "button": bid, "from": rules.obren_buttons.board.CELLS[i], "to": to}
                        if to != move["from"] and state.check(move).rule == rule:
                            return played, move
            if rule in ("next-to-opponent", "own-button", "empty-space") and played:
                for bid in [f"{color}-{v}" for v in range(1, 9)] + [f"{'black' if color == 'white' else 'white'}-1"]:
                    if bid in state.to_json()["board"]:
                        continue
                    for cell in rules.obren_buttons.board.CELLS:
                        move = {"type": "place", "button": bid, "cell": cell}
                        if state.check(move).rule == rule:
                            return played, move
            move = choose(GAME, state, "random", rng)
            played.append(move)
            state.apply(move)
    raise AssertionError(f"no position refusing {rule}")


@pytest.mark.parametrize("rule", ["exact-distance", "no-trespassing", "no-backtracking", "no-reversals",
                                  "next-to-opponent", "empty-space", "own-button"])
def test_a_refused_drop_names_the_rule_and_the_button_goes_back(built: dict[str, Any], rule: str) -> None:
    played, bad = find_refusal(rule)
    table, state = duel(built)
    for move in played:
        table.play(state, move)
        state.apply(move)
    before = table.transcript()
    color = table.color_of(state.current_player())
    target = bad.get("cell") or bad["to"]
    table.drop(color, bad["button"], target)
    assert f"[{rule}]" in table.last_broadcast() and table.last_broadcast().startswith("Not allowed")
    assert state.check(bad).message in table.last_broadcast()  # the engine's own sentence
    assert table.transcript() == before
    board_matches(table, state)  # the button is back on its space or in its supply, nothing swapped


def test_off_board_drops_and_out_of_turn_drops_change_nothing(built: dict[str, Any]) -> None:
    table, state = duel(built)
    table.drop("White", "white-4", "c3")
    state.apply({"type": "place", "button": "white-4", "cell": "c3"})
    table.drop("White", "white-5", "c2")  # Brown's turn
    assert "[turn-order]" in table.last_broadcast()
    table.drop("Brown", "black-2", position=(20.0, 1.0, 0.0))  # off the board: back to the supply
    table.drop("White", "white-4", position=(20.0, 1.0, 0.0))  # a board button stays on its space
    assert "stays on c3" in table.last_broadcast()
    assert len(table.transcript()["moves"]) == 1
    board_matches(table, state)


def test_save_and_reload_keeps_the_game(built: dict[str, Any]) -> None:
    table, state = duel(built)
    rng = random.Random(5)
    for _ in range(9):
        move = choose(GAME, state, "random", rng)
        table.play(state, move)
        state.apply(move)
    before = table.transcript()
    saved = table.fake.save_and_reload()
    assert json.loads(saved)["transcript"] == before and table.transcript() == before
    assert table.board() == state.to_json()["board"]
    mover = state.current_player()
    assert table.ui("tt-status").startswith(f"{table.color_of(mover)} ({state.color_of(mover)}) to play")
    assert len(table.snap_cells()) == 16
    while not state.is_terminal():  # the reloaded mod plays on to the end
        move = choose(GAME, state, "heuristic", rng)
        table.play(state, move)
        state.apply(move)
    report = validate_data({**built, "LuaScriptState": table.fake.sandbox.call("onSave")}, "save.json")
    assert report.legal and report.finished and report.moves_checked == len(table.transcript()["moves"])


def test_forfeit_needs_a_second_press_and_ends_the_duel(built: dict[str, Any]) -> None:
    table, state = duel(built)
    table.play(state, {"type": "place", "button": "white-1", "cell": "a1"})
    table.click("Brown", "ttForfeit")
    assert table.lua("Game.state.moves") == 1 and "again" in table.last_broadcast()
    table.click("Brown", "ttForfeit")
    result = table.transcript()["result"]
    assert result["reason"] == "forfeit" and result["winners"] == [0]
    assert table.ui("tt-status") == "Game over: White wins: Brown forfeits."  # as Python words it


# --------------------------------------------------------------------------- solo


def solvable_seed(goal: str, bound: int, shortest: int) -> tuple[int, list[dict[str, Any]]]:
    """A bag shuffle whose fill the solver solves in ``shortest`` to ``bound`` moves, and the solution."""
    from rules.obren_buttons.solver import solve
    for seed in range(3000):
        names = [f"{c}-{v}" for c in ("black", "white") for v in range(1, 9)]
        # the order New game gathers them in (each on top of the bag), then the test's shuffle
        bag = list(reversed(names))
        random.Random(seed).shuffle(bag)
        state = GAME.new_state(setup={"fill": bag}, options={"goal": goal}, num_players=1)
        found = solve(state, bound)
        if found.solution and len(found.solution) >= shortest:
            return seed, found.solution
    raise AssertionError("no solvable fill")


@pytest.mark.parametrize("goal", ["two-lines", "four-lines"])
def test_a_whole_solo_game_from_the_bag_with_hints_validates(built: dict[str, Any], goal: str, tmp_path: Path) -> None:
    seed, solution = solvable_seed(goal, HINT_BOUND, 2 if goal == "two-lines" else 1)
    table, state = solo(built, seed, goal)
    assert state.to_json()["options"]["goal"] == goal
    fill = table.transcript()["setup"]["fill"]
    for i, bid in enumerate(fill):  # left to right, top row first
        assert table.where(bid) == rules.obren_buttons.board.CELLS[i]
    assert table.fake.calls and any(c[1] == "shuffle" for c in table.fake.calls)
    while not state.is_terminal():
        table.click("Brown", "ttHint", seconds=30)
        move = py_hint(state, HINT_BOUND)
        assert move is not None
        assert table.last_broadcast().startswith(f"Hint: move {move['button']} from {move['from']} to {move['to']}")
        table.play(state, move)
        state.apply(move)
        board_matches(table, state)
    assert state.result().outcome == "win" and len(table.transcript()["moves"]) == len(solution)
    path = tmp_path / "solo.json"
    path.write_text(json.dumps({**built, "LuaScriptState": table.fake.sandbox.call("onSave")}))
    report = validate_file(path)
    assert report.legal and report.finished and report.result_text().startswith("Solo: won with")
    assert table.ui("tt-status") == f"Game over: {report.result_text()}."
    assert not table.fake.ui.active("tt-hint")


def test_solo_refuses_placing_and_illegal_paths_and_hint_says_when_none_is_near(built: dict[str, Any]) -> None:
    table, state = solo(built, seed=1)
    board = state.to_json()["board"]
    bid = board[0]  # on a1
    bad = next(to for to in rules.obren_buttons.board.CELLS[1:]
               if not state.check({"type": "move", "button": bid, "from": "a1", "to": to}).ok)
    table.drop("Brown", bid, bad)
    verdict = state.check({"type": "move", "button": bid, "from": "a1", "to": bad})
    assert table.last_broadcast().startswith(f"Not allowed [{verdict.rule}]: {verdict.message}")
    assert len(table.transcript()["moves"]) == 0
    board_matches(table, state)
    table.click("Brown", "ttHint", seconds=30)
    want = py_hint(state, HINT_BOUND)
    if want is None:
        assert table.last_broadcast() == f"Hint: no solution within {HINT_BOUND} moves from here."
    else:
        assert table.last_broadcast().startswith(f"Hint: move {want['button']} from {want['from']} to {want['to']}")


def test_the_lua_hint_is_the_python_solvers_first_move() -> None:
    lua = LuaEngine(GAME_ID)
    agreed = found = 0
    for seed in range(40):
        goal = "four-lines" if seed % 4 == 0 else "two-lines"
        state = GAME.new_state(seed=seed, options={"goal": goal, "deal": "solvable", "deal_bound": 3}, num_players=1)
        rng = random.Random(seed)
        for step in range(2):  # the dealt position, then one random move away
            if state.is_terminal():
                break
            for move in ([] if step == 0 else [rng.choice([m for m in state.legal_moves() if m["type"] == "move"])]):
                state.apply(move)
            lua_state = lua.sandbox.to_lua(json.loads(rules.canonical_json(state.to_json())))
            out = lua.sandbox.call(lua.rules.hint, lua_state, HINT_BOUND, budget=10**12)
            want = py_hint(state, HINT_BOUND)
            first = out[0] if isinstance(out, tuple) else out  # the move, then the solution's length
            got = lua.sandbox.from_lua(first, empty_as="dict") if first is not None else None
            assert got == want, (seed, step, state.to_json()["board"])
            agreed += 1
            found += want is not None
    assert agreed >= 60 and found >= 30


def test_lua_describe_move_is_pythons_sentence() -> None:
    lua = LuaEngine(GAME_ID)
    rng = random.Random(2)
    state = GAME.new_state(setup={"colors": ["white", "black"]}, num_players=2)
    compared = 0
    while not state.is_terminal() and compared < 400:
        ls = lua.sandbox.to_lua(json.loads(rules.canonical_json(state.to_json())))
        for move in state.legal_moves():
            assert lua.sandbox.call(lua.rules.describe_move, lua.sandbox.to_lua(move), ls) == state.describe_move(move)
            compared += 1
        state.apply(choose(GAME, state, "random", rng))
    assert compared >= 400


def test_new_game_is_for_the_seated_or_a_lone_host_and_confirms_over_a_running_game(built: dict[str, Any]) -> None:
    table = Table(built, seated=("Blue",))  # a lone host at a colour the game does not seat: solo as White
    table.click("Blue", "ttNewGame")
    assert table.transcript()["players"] == [{"name": "White", "color": "White"}]
    assert any(m.text.startswith("Solo: play as White.") for m in table.fake.broadcasts)
    table = Table(built, seated=(*SEATS, "Blue"))  # with both seats taken, only they start a game
    table.click("Blue", "ttNewGame")
    assert "Only seated players" in table.last_broadcast()
    table, state = duel(built)
    table.play(state, {"type": "place", "button": "white-1", "cell": "b2"})
    table.click("White", "ttNewGame")
    assert "again" in table.last_broadcast() and len(table.transcript()["moves"]) == 1
    table.click("White", "ttNewGame")
    assert table.transcript()["moves"] == [] and table.where("white-1") is None
