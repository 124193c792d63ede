"""Event-level tests of the built Smitten 2 mod: the save's Global script runs under Lua 5.2 with the
stubbed TTS API; cards are dropped on grid positions and buttons clicked as players would; the
transcript the mod records validates in Python."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import rules
from modtable import ModTable, build_save
from rules.players import choose
from tts_builder.lualint import lint_lua
from tts_builder.savecheck import ERROR, check_save
from tts_builder.validate import validate_data

GAME_ID = "smitten-2"
GAME = rules.get_game(GAME_ID)


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict[str, Any]:
    return build_save(tmp_path_factory.mktemp("build"), GAME_ID)


class Table(ModTable):
    def lua_state(self) -> dict[str, Any]:
        return self.fake.sandbox.from_lua(self.fake.sandbox.lookup("Game.state"), empty_as="list")

    def cell(self, grid: int, card: str) -> tuple[float, float, float]:
        board = next(o for o in self.save["ObjectStates"] if o.get("GMNotes") == f"grid-{grid}")
        t = board["Transform"]
        pos = int(card[:-1]) - 1
        step = 10.8 / 3
        return (t["posX"] + (pos % 3 - 1) * step, t["posY"] + 0.5, t["posZ"] - (pos // 3 - 1) * step)

    def drop_on_cell(self, color: str, card: str, grid: int) -> Any:
        obj = self.card(card)
        self.fake.fire("onObjectPickUp", color, obj)
        return self.fake.drop(obj, color, position=self.cell(grid, card))


BUTTONS = {("flip", 0): "ttFlipLeft", ("flip", 1): "ttFlipRight", ("draw", 0): "ttDrawLeft",
           ("draw", 1): "ttDrawRight", ("choose", 0): "ttOption1", ("choose", 1): "ttOption2",
           ("name", 0): "ttColumnLeft", ("name", 1): "ttColumnMiddle", ("name", 2): "ttColumnRight",
           ("name", "revealed"): "ttPlaceIt", ("name", "another"): "ttAnother"}


def act(table: Table, color: str, move: dict[str, Any]) -> None:
    t = move["type"]
    if t in ("play", "place"):
        table.drop_on_cell(color, move["card"], move["grid"])
    elif t in ("reveal", "discard"):
        table.drop(color, move["card"], t)
    elif t == "swap":
        table.drop(color, move["card"], "set-aside")
    else:
        key = next(v for k, v in move.items() if k != "type")
        table.click(color, BUTTONS[(t, key)])


def play_through(table: Table, colors: list[str], seed: int) -> tuple[Any, int]:
    t = table.transcript()
    state = GAME.new_state(setup=t["setup"], options=t["options"], num_players=len(t["players"]))
    rng = random.Random(seed)
    n = 0
    while not state.is_terminal():
        move = choose(GAME, state, "heuristic", rng)
        seat = state.player_of(move)
        act(table, colors[seat], move)
        state.apply(move)
        n += 1
        recorded = table.transcript()["moves"]
        assert len(recorded) == n, f"move {n - 1} {move} not recorded: {table.fake.broadcasts[-1:]}"
        assert recorded[-1] == {"player": seat, **move}
    return state, n


def test_the_save_passes_its_check_and_the_lua_its_lint(built):
    assert [p for p in check_save(json.loads(json.dumps(built)), own_output=True) if p.severity == ERROR] == []
    assert lint_lua(built["LuaScript"], "Global.lua") == []
    snaps = built["SnapPoints"]
    assert len(snaps) >= 18 + 6, "a snap point on every grid position and the hand areas"


@pytest.mark.parametrize("seed", [1, 2])
def test_a_cooperative_game_played_through_table_events_validates(built, seed):
    table = Table(built)
    table.click("White", "ttNewGame")
    assert len(table.transcript()["players"]) == 2 and table.transcript()["setup"]["mode"] == "duo"
    state, n = play_through(table, ["White", "Red"], seed)
    transcript = table.transcript()
    assert transcript["result"]["outcome"] == state.result().outcome
    report = validate_data({**built, "LuaScriptState": json.dumps({"transcript": transcript})}, "save.json")
    assert report.legal and report.finished and report.moves_checked == n, report.summary()


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_the_solo_button_starts_a_solo_game_that_plays_through(built, seed):
    table = Table(built)
    table.click("Red", "ttSoloGame")
    t = table.transcript()
    assert t["setup"]["mode"] == "solo" and [p["color"] for p in t["players"]] == ["Red"]
    state, n = play_through(table, ["Red"], seed)
    report = validate_data({**built, "LuaScriptState": json.dumps({"transcript": table.transcript()})}, "save.json")
    assert report.legal and report.finished and report.moves_checked == n, report.summary()


def test_a_misplaced_card_and_an_instruction_not_followed_are_refused_in_words(built):
    table = Table(built, deck_seed=1)
    table.click("White", "ttNewGame")
    t = table.transcript()
    state = GAME.new_state(setup=t["setup"], options=t["options"], num_players=2)
    assert state.s["hands"] == [["3b", "9a", "9b"], ["5b", "1a", "8b"]]
    table.drop_on_cell("Red", "9a", 0)
    assert "not in your hand" in table.last_broadcast()
    table.drop_on_cell("White", "9a", 0)                 # card 9: Red reveals, White names, Red places
    table.drop_on_cell("Red", "1a", 1)
    assert "Card 9a asks: " + GAME.data["instructions"]["9"]["text"] in table.last_broadcast()
    table.drop("Red", "8b", "reveal")
    table.click("White", "ttAnother")
    table.drop_on_cell("Red", "8b", 0)                   # the revealed card, but White said "another"
    assert "Card 9a asks" in table.last_broadcast()
    table.drop_on_cell("Red", "5b", 0)
    assert "not next to a card" in table.last_broadcast()
    table.drop_on_cell("Red", "1a", 1)
    moves = table.transcript()["moves"]
    assert [m["type"] for m in moves] == ["play", "reveal", "name", "place"]
    assert [m["player"] for m in moves] == [0, 1, 0, 1]
    assert table.lua_state()["grids"][1][0] == "1a"


def test_a_solo_game_survives_save_and_reload(built):
    table = Table(built, deck_seed=4)
    table.click("White", "ttSoloGame")
    t = table.transcript()
    state = GAME.new_state(setup=t["setup"], options=t["options"], num_players=1)
    rng = random.Random(0)
    for _ in range(6):
        if state.is_terminal():
            break
        move = choose(GAME, state, "heuristic", rng)
        act(table, "White", move)
        state.apply(move)
    before = table.transcript()
    saved = table.fake.save_and_reload()
    assert json.loads(saved)["transcript"] == before == table.transcript()
    assert rules.canonical_json(table.lua_state()) == rules.canonical_json(state.to_json())


def test_new_game_with_one_seated_player_is_the_solo_game(built):
    table = Table(built)
    table.fake._seated = {"White": "Player One"}  # Red leaves the table
    table.click("White", "ttNewGame")
    t = table.transcript()
    assert t["setup"]["mode"] == "solo" and [p["color"] for p in t["players"]] == ["White"]
    state = table.lua_state()
    assert [len(h) for h in state["hands"]] == [2, 2] and all(state["down"])


def test_a_lone_host_at_a_colour_the_game_does_not_seat_gets_the_solo_game_and_is_told_where_to_sit(built):
    table = Table(built)
    table.fake._seated = {"Blue": "Host"}  # Smitten 2 seats White and Red
    table.click("Blue", "ttNewGame")
    t = table.transcript()
    assert t["setup"]["mode"] == "solo" and [p["color"] for p in t["players"]] == ["White"]
    assert any(m.text.startswith("Solo: play as White.") and "player list" in m.text for m in table.fake.broadcasts)
    assert "Hot seat: to move as White" in str(table.fake.ui.getValue("tt-status"))
    table.fake._seated = {"White": "Host"}
    table.fake.fire("onPlayerChangeColor", "White")
    assert "Hot seat" not in str(table.fake.ui.getValue("tt-status"))
