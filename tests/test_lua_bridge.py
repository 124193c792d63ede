"""The Python -> Lua bridge: moves reach the Lua rules as JSON text read by the
runtime's own ``U.json_decode`` (as a save reload brings them), and malformed
moves are refused by both engines with the same rule."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import rules
from rules.core import judge
from rules.mutate import UNKNOWN_FIELD, mutants, wrong_shapes
from tts_builder.agreement import AgreementReport, LuaEngine, check_transcript
from tts_builder.luasandbox import LuaScriptError
from tts_builder.simulate import play_game

GAMES = ["two-and-two", "twin-tower-city"]


@pytest.fixture(scope="module")
def engines() -> dict[str, LuaEngine]:
    return {g: LuaEngine(g) for g in GAMES}


def lua_eval(lua: LuaEngine, body: str, *args: Any) -> Any:
    """Run ``body`` as a function of (R, ...) where R is the rules module (with R.json_decode)."""
    fn = lua.sandbox.execute(f"return function(R, ...) {body} end", "probe")
    return lua.sandbox.call(fn, lua.rules, *args)


# --------------------------------------------------------------------------- decoding


def test_a_json_null_field_arrives_as_null_not_as_a_missing_field(engines):
    lua = engines["two-and-two"]
    assert lua_eval(lua, "local m = R.json_decode(...) return m.card ~= nil, type(m.card), tostring(m.card)",
                    '{"type":"forfeit","card":null}') == (True, "table", "null")


@pytest.mark.parametrize(("text", "again"), [
    ("{}", "{}"), ("[]", "[]"), ('{"a":{},"b":[]}', '{"a":{},"b":[]}'), ('[{},[],[{}]]', '[{},[],[{}]]'),
    ('{"x":null}', '{"x":null}'), ('[null,1]', '[null,1]'),
])
def test_objects_and_arrays_stay_apart_through_u_json(engines, text, again):
    lua = engines["two-and-two"]
    assert lua_eval(lua, "return R.json(R.json_decode(...))", text) == again


def test_decoded_tables_are_tagged_object_or_array(engines):
    lua = engines["two-and-two"]
    probe = ("local o, a = R.json_decode('{}'), R.json_decode('[]') "
             "local U = R.U return U.is_object(o), U.is_array(o), U.is_object(a), U.is_array(a)")
    assert lua_eval(lua, probe) == (True, False, False, True)


@pytest.mark.parametrize(("text", "expected"), [
    ('"caf\\u00e9"', "café"),
    ('"\\u20ac 5"', "€ 5"),
    ('"\\ud83d\\ude00"', "\U0001F600"),
    ('"\\u00E9\\u00e9"', "éé"),
    ('"a\\/b\\"c\\\\d\\n"', 'a/b"c\\d\n'),
    ('"\\ud800x"', "\ufffdx"),
    ('"raw é"', "raw é"),
])
def test_unicode_escapes_decode_to_utf8(engines, text, expected):
    lua = engines["two-and-two"]
    assert lua_eval(lua, "return R.json_decode(...)", text) == expected


@pytest.mark.parametrize(("text", "expected"), [
    ("12", 12), ("-7", -7), ("0", 0), ("1e2", 100), ("2.5", 2.5), ("-0.25E+1", -2.5),
])
def test_numbers_are_plain_decimals(engines, text, expected):
    assert lua_eval(engines["two-and-two"], "return R.json_decode(...)", text) == expected


@pytest.mark.parametrize("text", [
    "0x10", "01", "1.", ".5", "+1", "1,000", "(5)", "5-", "Infinity", '"\\uZZZZ"', '"\\u12"', '"\\q"',
    '{"a" 1}', '{"a":1,}', "[1 2]", '"open', "{1:2}", "[] x", "", "nul",
])
def test_malformed_json_raises_a_lua_error_naming_the_position(engines, text):
    with pytest.raises(LuaScriptError, match="bad JSON at character"):
        lua_eval(engines["two-and-two"], "return R.json_decode(...)", text)


def test_sorted_keys_are_byte_wise_like_python(engines):
    lua = engines["two-and-two"]
    text = '{"b":1,"B":2,"a1":3,"a_1":4,"c-2":5,"c2":6,"aa":7,"z":8,"ch":9,"h":10,"":11,"a":12,"a\\u0000":13}'
    assert lua_eval(lua, "return R.json(R.json_decode(...))", text) == \
        json.dumps(json.loads(text), sort_keys=True, separators=(",", ":"))


# --------------------------------------------------------------------------- malformed moves

MALFORMED = {
    "two-and-two": [
        {"type": "forfeit", "card": None}, {"type": "pass", UNKNOWN_FIELD: "x"}, {"type": "draw", "card": {}},
        {"type": "draw", "card": []}, {"type": "forfeit", "target": None}, {"type": None}, None, [], {},
        {"type": "forfeit", "orientation": True}, [{"type": "forfeit"}], "forfeit",
    ],
    "twin-tower-city": [
        {"type": "forfeit", "card": None}, {"type": "forfeit", UNKNOWN_FIELD: 1}, {"type": None}, None, [], {},
        {"type": "play-battle", "card": None}, {"type": "play-battle", "card": {}},
        {"type": "play-battle", "card": []}, {"type": "play-battle"},
        {"type": "nullify-items", "items": {}}, {"type": "nullify-items", "items": None},
        {"type": "nullify-items", "items": [None]}, {"type": "nullify-items", "items": [{}]},
        [{"type": "forfeit"}],
    ],
}


@pytest.mark.parametrize("game_id", GAMES)
def test_malformed_moves_are_refused_by_both_as_move_format(engines, game_id):
    lua = engines[game_id]
    transcript = play_game(game_id, 3, policy="mixed")
    game = rules.get_game(game_id)
    state = game.new_state(setup=transcript["setup"], options=transcript["options"])
    lstate = lua.new_state(transcript["setup"], transcript["options"])
    seat = state.current_player()
    for move in MALFORMED[game_id]:
        py = judge(state, seat, move)
        lv = lua.judge(lstate, seat, move)
        assert (py.ok, py.rule) == (False, "move-format"), move
        assert (lv["ok"], lv["rule"]) == (False, "move-format"), (move, lv)


def test_swaps_shapes_are_refused_by_both_as_move_format(engines):
    """A play-army whose swaps are {} or hold a malformed swap: found in real positions."""
    game_id = "twin-tower-city"
    lua = engines[game_id]
    game = rules.get_game(game_id)
    seen = 0
    for seed in range(40):
        transcript = play_game(game_id, seed, policy="mixed")
        state = game.new_state(setup=transcript["setup"], options=transcript["options"])
        lstate = lua.new_state(transcript["setup"], transcript["options"])
        for entry in transcript["moves"]:
            move = {k: v for k, v in entry.items() if k != "player"}
            if move["type"] == "play-army" and move["swaps"]:
                sw = move["swaps"][0]
                for bad in ({}, None, [sw, None], [{**sw, "with": None}], [{**sw, UNKNOWN_FIELD: "x"}],
                            [{"replace": sw["replace"]}], [[sw["replace"], sw["with"]]], [{**sw, "with": {}}]):
                    cand = {**move, "swaps": bad}
                    py = judge(state, entry["player"], cand)
                    lv = lua.judge(lstate, entry["player"], cand)
                    assert (py.rule, lv["rule"]) == ("move-format", "move-format"), (cand, py, lv)
                    seen += 1
            state.apply(move)
            lua.apply(lstate, move)
        if seen >= 40:
            break
    assert seen >= 40


def test_mutants_include_the_malformed_shapes():
    game = rules.get_game("twin-tower-city")
    state = game.new_state(seed=1)
    move = {"type": "play-army", "card": "x", "swaps": [{"replace": "a", "with": "b"}]}
    out = list(mutants(move, state, random.Random(0)))
    assert {**move, "swaps": {}} in out and {**move, "swaps": None} in out
    assert {**move, "card": {}} in out and {**move, "card": []} in out and {**move, "card": True} in out
    assert {**move, UNKNOWN_FIELD: "x"} in out
    assert {**move, "swaps": [{"replace": "a", "with": None}]} in out
    assert {**move, "swaps": [{"replace": "a", "with": "b", UNKNOWN_FIELD: "x"}]} in out
    assert wrong_shapes([1]) == [None, True, {}, 1] and [] in wrong_shapes({"a": 1})


@pytest.mark.parametrize("game_id", GAMES)
def test_every_mutant_of_every_move_agrees_through_the_bridge(engines, game_id):
    """All mutants (not a sample) of every move of a few games: same verdict and rule, same states."""
    report = AgreementReport(game=game_id)
    for seed in range(4):
        transcript = play_game(game_id, seed, policy="mixed")
        assert check_transcript(game_id, transcript, engines[game_id], seed, report, random.Random(seed),
                                mutants_per_move=10_000), report.summary()
    assert report.illegal_checks > 10 * report.moves


def test_a_move_with_an_extra_field_never_reaches_the_state(engines):
    """Both engines refuse it, so neither keeps the field; the legal move then gives equal states."""
    from rules.core import canonical_json
    game_id = "two-and-two"
    lua = engines[game_id]
    transcript = play_game(game_id, 5, policy="mixed")
    game = rules.get_game(game_id)
    state = game.new_state(setup=transcript["setup"], options=transcript["options"])
    lstate = lua.new_state(transcript["setup"], transcript["options"])
    for entry in transcript["moves"][:30]:
        move = {k: v for k, v in entry.items() if k != "player"}
        extra = {**move, "note": "kept?"}
        assert judge(state, entry["player"], extra).rule == "move-format"
        assert lua.judge(lstate, entry["player"], extra)["rule"] == "move-format"
        state.apply(move)
        lua.apply(lstate, move)
        assert "kept?" not in lua.state_json(lstate)
        assert lua.state_json(lstate) == canonical_json(state.to_json())


def test_from_lua_reads_the_tags_back(engines):
    lua = engines["two-and-two"]
    value = lua.decode({"a": {}, "b": [], "c": None, "d": [None, {}], "e": {"f": []}})
    assert lua.sandbox.from_lua(value) == {"a": {}, "b": [], "c": None, "d": [None, {}], "e": {"f": []}}
    assert lua.sandbox.from_lua(value, empty_as="dict")["b"] == []
    untagged = lua.sandbox.execute("return { a = {} }", "u")
    assert lua.sandbox.from_lua(untagged) == {"a": []} and lua.sandbox.from_lua(untagged, empty_as="dict") == {"a": {}}
