"""Messages name seats as players read them: by colour (the game's data) or by the players' names
a transcript records, never "player 0"; the Lua judge words turn-order refusals the same way."""

from __future__ import annotations

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
        assert judge(state, 7, move).message.endswith("not Seat 7's.")
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
