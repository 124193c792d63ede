"""A save loads back as the same game, or is refused: the mods' recorder judges
every recorded move, player and setup on load (as `tts-builder validate` does),
names the move and the rule in chat, and leaves the table usable. Also: the
press-twice confirmations lapse, a drawn game records ``"winner": null`` and
every transcript names the tool that wrote it."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

import rules
import tts_builder
from modtable import COLORS, ModTable, build_save
from test_mod_events import Table as TwoTable, act as two_act
from tts_builder.simulate import play_game
from tts_builder.validate import validate_data

GAMES = ("two-and-two", "twin-tower-city")


@pytest.fixture(scope="module")
def saves(tmp_path_factory) -> dict[str, dict[str, Any]]:
    out = tmp_path_factory.mktemp("build")
    return {g: build_save(out, g) for g in GAMES}


def seated_transcript(game_id: str, seed: int, policy: str = "heuristic") -> dict[str, Any]:
    """A whole simulated game, its players the table's seats."""
    t = play_game(game_id, seed, policy=policy)
    t["players"] = [{"name": c, "color": c} for c in COLORS]
    return t


def state_of(transcript: dict[str, Any]) -> str:
    return json.dumps({"transcript": transcript})


def assert_refused_then_new_game_works(table: ModTable, saved: dict[str, Any], *parts: str) -> None:
    text = table.fake.broadcasts[-1].text
    assert text.startswith("The saved game was refused"), text
    for part in parts:
        assert part in text, text
    assert table.fake.sandbox.lookup("Game.state") is None
    # the refused transcript stays in the save for the validator, untouched
    assert json.loads(table.fake.sandbox.call("onSave"))["transcript"] == saved
    assert "refused" in str(table.fake.ui.getValue("tt-last"))
    # a move is refused while no game runs, and New game starts a fresh one
    table.click("White", "ttForfeit")
    assert "[game-over]" in table.last_broadcast()
    table.click("White", "ttNewGame")
    fresh = table.transcript()
    assert fresh["moves"] == [] and fresh["players"] == [{"name": c, "color": c} for c in COLORS]
    assert table.fake.sandbox.lookup("Game.state") is not None
    rules.get_game(fresh["game"]).new_state(setup=fresh["setup"], options=fresh["options"])


@pytest.mark.parametrize("game_id", GAMES)
def test_an_untouched_save_loads_as_the_same_game(saves, game_id):
    t = seated_transcript(game_id, 2)
    table = ModTable(saves[game_id], state=state_of(t))
    assert not any("refused" in m.text for m in table.fake.broadcasts)
    assert table.transcript() == t
    lua_state = table.fake.sandbox.from_lua(table.fake.sandbox.lookup("Game.state"), empty_as="list")
    assert lua_state["phase"] == "over"


@pytest.mark.parametrize("game_id", GAMES)
def test_a_move_changed_to_an_illegal_one_is_refused_on_load(saves, game_id):
    t = seated_transcript(game_id, 4)
    game = rules.get_game(game_id)
    # replace move 5 by a card its player does not hold
    state = game.new_state(setup=t["setup"], options=t["options"])
    for entry in t["moves"][:5]:
        state.apply({k: v for k, v in entry.items() if k != "player"})
    hand = set(state.to_json()["hands"][t["moves"][5]["player"]])
    foreign = next(c for c in game.lua_context()["card_order"] if c not in hand) \
        if "card_order" in game.lua_context() else None
    bad = copy.deepcopy(t)
    bad["moves"][5] = {"player": t["moves"][5]["player"], "type": "play" if game_id == "two-and-two"
                       else "play-battle", "card": foreign or "c1200-9"}
    verdict = state.check({k: v for k, v in bad["moves"][5].items() if k != "player"})
    assert not verdict.ok
    table = ModTable(saves[game_id], state=state_of(bad))
    assert_refused_then_new_game_works(table, bad, "at move 5", f"[{verdict.rule}]")
    # the validator agrees the save is illegal at that move
    report = validate_data({**saves[game_id], "LuaScriptState": state_of(bad)}, "save.json")
    assert not report.legal and report.violations[0].move == 5


@pytest.mark.parametrize("game_id", GAMES)
def test_a_move_credited_to_the_other_player_is_refused_on_load(saves, game_id):
    t = seated_transcript(game_id, 6)
    bad = copy.deepcopy(t)
    bad["moves"][3]["player"] = 1 - bad["moves"][3]["player"]
    table = ModTable(saves[game_id], state=state_of(bad))
    assert_refused_then_new_game_works(table, bad, "at move 3", "[turn-order]")


def test_a_two_and_two_setup_missing_a_card_is_refused_on_load(saves):
    t = seated_transcript("two-and-two", 8)
    bad = copy.deepcopy(t)
    missing = bad["setup"]["deck"].pop()
    bad["moves"], bad["result"] = [], None
    table = ModTable(saves["two-and-two"], state=state_of(bad))
    assert_refused_then_new_game_works(table, bad, "its setup", "[setup]", f"missing {missing}")


def test_a_twin_tower_city_setup_missing_a_card_is_refused_on_load(saves):
    t = seated_transcript("twin-tower-city", 8)
    bad = copy.deepcopy(t)
    bad["setup"]["seats"][1]["hand"].pop()
    bad["moves"], bad["result"] = [], None
    table = ModTable(saves["twin-tower-city"], state=state_of(bad))
    assert_refused_then_new_game_works(table, bad, "its setup", "[setup]", "setup seat 1")


def test_a_recorded_player_who_is_not_at_the_table_is_refused(saves):
    t = seated_transcript("two-and-two", 9)
    bad = copy.deepcopy(t)
    bad["players"][1] = {"name": "Mallory", "color": "Purple"}
    table = ModTable(saves["two-and-two"], state=state_of(bad))
    assert_refused_then_new_game_works(table, bad, "its players", "[players]", "Purple")


def test_a_forged_result_is_refused(saves):
    t = seated_transcript("two-and-two", 10)
    bad = copy.deepcopy(t)
    winner = bad["result"]["winner"]
    bad["result"]["winner"] = 1 - winner if winner is not None else 0
    table = ModTable(saves["two-and-two"], state=state_of(bad))
    assert_refused_then_new_game_works(table, bad, "its result", "[result]")


def test_a_drawn_game_played_in_the_mod_records_winner_null_and_validates_as_drawn(saves):
    t = seated_transcript("two-and-two", 53)  # a heuristic game that ends in a draw
    assert t["result"]["winner"] is None and t["result"]["reason"] == "draw"
    before = {**t, "moves": t["moves"][:-1], "result": None}
    table = TwoTable(saves["two-and-two"], state=state_of(before))
    last = t["moves"][-1]
    two_act(table, last["player"], {k: v for k, v in last.items() if k != "player"}, {})
    saved = table.fake.sandbox.call("onSave")
    assert '"winner":null' in saved
    recorded = json.loads(saved)["transcript"]
    assert recorded["result"] == t["result"]
    report = validate_data({**saves["two-and-two"], "LuaScriptState": saved}, "save.json")
    assert report.legal and report.finished, report.summary()
    assert report.result is not None and report.result["winner"] is None and report.result["reason"] == "draw"
    # and it loads back as the same drawn game
    again = ModTable(saves["two-and-two"], state=saved)
    assert not any("refused" in m.text for m in again.fake.broadcasts)
    assert "Game over: Draw" in str(again.fake.ui.getValue("tt-status"))  # the shared panel's words


@pytest.mark.parametrize("game_id", GAMES)
def test_every_transcript_names_the_tool_and_the_schema_allows_it(saves, game_id):
    table = ModTable(saves[game_id])
    table.click("White", "ttNewGame")
    t = table.transcript()
    assert t["tool"] == f"tts-builder {tts_builder.__version__}"
    report = validate_data({**saves[game_id], "LuaScriptState": state_of(t)}, "save.json")
    assert report.legal


def test_a_first_press_lapses_after_a_few_seconds_and_at_any_move(saves):
    table = TwoTable(saves["two-and-two"])
    table.click("White", "ttNewGame")
    game = rules.get_game("two-and-two")
    state = game.new_state(setup=table.transcript()["setup"])
    seat = state.current_player()
    color = COLORS[seat]
    # pressed once, forgotten: a later single press only asks again
    table.click(color, "ttForfeit")
    assert "Press Forfeit again within 5 seconds" in table.last_broadcast()
    table.wait(6)
    assert "not confirmed in time" in table.last_broadcast()
    table.click(color, "ttForfeit")
    assert "Press Forfeit again" in table.last_broadcast()
    assert table.lua_state()["phase"] != "over"
    # a press by the player not to move is refused at once, without arming anything
    table.click(COLORS[1 - seat], "ttForfeit")
    assert "[turn-order]" in table.last_broadcast()
    # within the time, the second press concedes
    table.click(color, "ttForfeit")
    assert table.lua_state()["phase"] == "over"
    assert table.transcript()["result"]["reason"] == "forfeit"


def test_new_game_mid_game_pressed_once_and_forgotten_does_not_erase_the_game(saves):
    table = TwoTable(saves["two-and-two"])
    table.click("White", "ttNewGame")
    game = rules.get_game("two-and-two")
    state = game.new_state(setup=table.transcript()["setup"])
    move = state.legal_moves()[0]
    two_act(table, state.current_player(), move, {})
    state.apply(move)
    table.click("Red", "ttNewGame")
    assert "Press New game again" in table.last_broadcast()
    table.wait(10)
    table.click("Red", "ttNewGame")
    assert len(table.transcript()["moves"]) == 1, "a single late press must not erase the game"
    # pressed once, then a move is made: the press lapses with the position it was made on
    move = state.legal_moves()[0]
    two_act(table, state.current_player(), move, {})
    assert len(table.transcript()["moves"]) == 2
    table.click("Red", "ttNewGame")
    assert len(table.transcript()["moves"]) == 2, "a press before a move must not count after it"
    table.click("Red", "ttNewGame")
    assert table.transcript()["moves"] == []
