"""Messages name seats as players read them: by colour (the game's data) or by the players' names
a transcript records, never "player 0"; the Lua judge words turn-order refusals the same way."""

from __future__ import annotations

import pytest

import rules
from rules.core import judge
from tts_builder.agreement import LuaEngine
from tts_builder.simulate import play_game
from tts_builder.validate import validate_data


def _out_of_turn(game_id: str):
    transcript = play_game(game_id, 3)
    entry = transcript["moves"][0]
    move = {k: v for k, v in entry.items() if k != "player"}
    return transcript, entry["player"], move


def test_turn_order_names_the_seats_by_colour_in_python_and_lua():
    for game_id, colours in (("two-and-two", ("White", "Red")), ("twin-tower-city", ("White", "Red"))):
        transcript, player, move = _out_of_turn(game_id)
        game = rules.get_game(game_id)
        state = game.new_state(setup=transcript["setup"], options=transcript["options"])
        v = judge(state, 1 - player, move)
        assert v.rule == "turn-order"
        assert v.message == f"It is {colours[player]}'s decision, not {colours[1 - player]}'s.", v.message
        lua = LuaEngine(game_id)
        lstate = lua.new_state(transcript["setup"], transcript["options"])
        assert lua.judge(lstate, 1 - player, move)["message"] == v.message
        assert judge(state, 7, move).message.endswith("a game of 2 players has no seat 7.")
        assert lua.judge(lstate, 7, move)["message"] == judge(state, 7, move).message


def test_a_transcript_names_its_players_in_the_validators_messages():
    transcript, player, move = _out_of_turn("two-and-two")
    transcript["players"] = [{"name": "Ada"}, {"name": "Grace"}]
    transcript["moves"][0]["player"] = 1 - player
    report = validate_data(transcript, "named.json")
    names = ("Ada", "Grace")
    assert report.violations[0].rule == "turn-order"
    assert report.violations[0].message == f"It is {names[player]}'s decision, not {names[1 - player]}'s."


def test_a_game_without_seat_names_says_seat_n():
    state = rules.get_game("obren-buttons").new_state(seed=1, num_players=2)
    current = state.current_player()
    v = judge(state, 1 - current, {"type": "forfeit"})
    assert v.message == f"It is Seat {current}'s decision, not Seat {1 - current}'s."


def test_seat_names_in_the_rules_data_are_the_tables_seat_colours():
    """Messages and the table must call a seat the same: the data's names are the mod's colours."""
    import json
    from pathlib import Path

    checked = 0
    for game in rules.all_games():
        names = game.data.get("seat_names")
        table = Path(__file__).parents[1] / "art_src" / game.id / "table.json"
        if not names or not table.exists():
            continue
        colours = [s["color"] for s in json.loads(table.read_text())["seats"]]
        assert names["names"][:len(colours)] == colours, game.id
        checked += 1
    assert checked >= 2


@pytest.mark.parametrize("game_id", ["two-by-two", "obren-buttons", "smitten-2"])
def test_turn_order_names_the_players_as_the_transcript_does_in_python_and_lua(game_id):
    """Games without seat colours of their own name a seat after its player (not "Seat 0"), in
    both engines (the mod's recorder tells the Lua rules the names, as the validator tells Python)."""
    transcript = play_game(game_id, 3)
    names = ["Ada", "Brian", "Cleo", "Dev"][:len(transcript["players"])]
    game = rules.get_game(game_id)
    state = game.new_state(setup=transcript["setup"], options=transcript["options"], num_players=len(names))
    state.name_seats(names)
    lua = LuaEngine(game_id)
    lstate = lua.new_state(transcript["setup"], transcript["options"])
    lua.sandbox.call(lua.rules.name_seats, lua.sandbox.to_lua(names))
    found = 0
    for entry in transcript["moves"]:
        player = entry["player"]
        move = {k: v for k, v in entry.items() if k != "player"}
        for other in range(len(names)):
            v = judge(state, other, move)
            if v.rule == "turn-order":
                found += 1
                assert "Seat" not in v.message and names[other] in v.message, v.message
                assert any(f"It is {n}" in v.message for n in names), v.message
                assert lua.judge(lstate, other, move)["message"] == v.message
        state.apply(move)
        lua.apply(lstate, move)
        if state.is_terminal():
            break
    assert found >= 3
    # the names stay with a copy of the position
    assert state.clone().seat_name(1) == names[1]


def test_obren_solo_names_no_second_seat():
    transcript = play_game("obren-buttons", 3, num_players=1)
    state = rules.get_game("obren-buttons").new_state(setup=transcript["setup"], options=transcript["options"],
                                                      num_players=1)
    state.name_seats(["Ada"])
    lua = LuaEngine("obren-buttons")
    lstate = lua.new_state(transcript["setup"], transcript["options"])
    lua.sandbox.call(lua.rules.name_seats, lua.sandbox.to_lua(["Ada"]))
    move = {k: v for k, v in transcript["moves"][0].items() if k != "player"}
    v = judge(state, 1, move)
    assert v.rule == "turn-order" and "Seat 1" not in v.message and "Seat" not in v.message
    assert v.message == "It is Ada's decision; a game of 1 player has no seat 1."
    assert lua.judge(lstate, 1, move)["message"] == v.message
