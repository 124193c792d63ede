"""The shared Lua runtime (util): canonical JSON both ways, nulls included."""

from __future__ import annotations

import json

import pytest

from tts_builder.luagen import context, render
from tts_builder.luasandbox import LuaSandbox

RUNTIME = render("runtime/util.lua.j2", context("two-and-two")) + "\nreturn U\n"


@pytest.fixture(scope="module")
def lua():
    sandbox = LuaSandbox()
    return sandbox, sandbox.execute(RUNTIME, "util.lua")


@pytest.mark.parametrize("text", [
    '{"a":null,"b":[1,null,3],"c":{"d":[]}}',
    '{"result":{"round_winners":[0,null,1],"winning_side":null,"winner":1}}',
    '[]', '[[],{"x":"y"}]', '{"s":"quote \\" and backslash \\\\"}', '-12',
])
def test_json_round_trips_through_lua_in_canonical_form(lua, text):
    sandbox, U = lua
    again = sandbox.call(U.json, sandbox.call(U.json_decode, text))
    assert again == json.dumps(json.loads(text), sort_keys=True, separators=(",", ":"))


def test_copy_keeps_null(lua):
    sandbox, U = lua
    copied = sandbox.call(U.copy, sandbox.call(U.json_decode, '{"a":[null,2]}'))
    assert sandbox.call(U.json, copied) == '{"a":[null,2]}'


def test_sorted_keys_do_not_depend_on_insertion_order(lua):
    sandbox, U = lua
    a = sandbox.execute("local t = {} t.b = 1 t.a = 2 t.c = 3 return t", "a")
    b = sandbox.execute("local t = {} t.c = 3 t.a = 2 t.b = 1 return t", "b")
    assert list(sandbox.call(U.sorted_keys, a).values()) == list(sandbox.call(U.sorted_keys, b).values()) == \
        ["a", "b", "c"]


def test_lua_string_writes_non_ascii_raw_not_as_byte_escapes(lua):
    from tts_builder.luagen import lua_string
    literal = lua_string("caf\u00e9 \u2014 ok\n\"q\"\\")
    assert literal == '"caf\u00e9 \u2014 ok\\n\\"q\\"\\\\"'
    assert "\\195" not in literal
    sandbox, _ = lua
    assert sandbox.execute("return " + literal, "s") == "caf\u00e9 \u2014 ok\n\"q\"\\"
    with pytest.raises(ValueError, match="surrogate"):
        lua_string("\ud800")


@pytest.mark.parametrize(("table", "expected"), [
    ("{1, 2, 3}", True), ("{}", True), ("{[1] = 1, [3] = 3}", False), ("{[2] = 1, [5] = 2}", False),
    ("{1, 2, x = 3}", False), ("{[1.5] = 1}", False), ("U.NULL", False),
])
def test_is_array_needs_keys_exactly_one_to_n(lua, table, expected):
    sandbox, U = lua
    fn = sandbox.execute("return function(U) return U.is_array(" + table + ") end", "t")
    assert sandbox.call(fn, U) is expected


def test_untagged_tables_keep_their_old_json_shape(lua):
    sandbox, U = lua
    fn = sandbox.execute("return function(U) return U.json({}), U.json({ a = {} }), U.json(U.as_object({})) end", "t")
    assert sandbox.call(fn, U) == ("[]", '{"a":[]}', "{}")


def test_copy_keeps_the_object_and_array_tags(lua):
    sandbox, U = lua
    fn = sandbox.execute("return function(U) return U.json(U.copy(U.json_decode('{\"a\":{},\"b\":[]}'))) end", "t")
    assert sandbox.call(fn, U) == '{"a":{},"b":[]}'


def test_first_key_not_in_is_the_byte_wise_smallest_whatever_the_insertion_order(lua):
    sandbox, U = lua
    fn = sandbox.execute("""return function(U)
      local a = {} a.zeta = 1 a.type = 2 a.Beta = 3 a.card = 4
      local b = {} b.card = 4 b.Beta = 3 b.type = 2 b.zeta = 1
      local ok = U.set({ "type", "card" })
      return U.first_key_not_in(a, ok), U.first_key_not_in(b, ok), U.first_key_not_in({ type = 1 }, ok)
    end""", "t")
    assert sandbox.call(fn, U) == ("Beta", "Beta", None)


# U.json's caches (quoted strings, small integers, object key orders) only save work: the
# text after a change must be what a fresh encoder writes, whatever was encoded before.

def test_json_key_order_cache_follows_a_table_whose_keys_change(lua):
    sandbox, U = lua
    fn = sandbox.execute("""return function(U)
      local t = { b = 1, a = 2, c = 3 }
      local first = U.json(t)
      t.d = 4            -- a key added: the cached order of {a, b, c} must not be used
      local added = U.json(t)
      t.a = nil          -- a key removed, the count back to three
      local swapped = U.json(t)
      t.d = nil; t.a = 5 -- back to the first key set
      return first, added, swapped, U.json(t)
    end""", "t")
    assert sandbox.call(fn, U) == ('{"a":2,"b":1,"c":3}', '{"a":2,"b":1,"c":3,"d":4}',
                                   '{"b":1,"c":3,"d":4}', '{"a":5,"b":1,"c":3}')


def test_json_key_order_hint_collisions_are_checked(lua):
    """Keys holding the hint's separator give two key sets the same hint; the order must not mix."""
    sandbox, U = lua
    fn = sandbox.execute("""return function(U)
      return U.json({ ["a\\0b"] = 1, c = 2 }), U.json({ a = 1, ["b\\0c"] = 2 }),
             U.json({ ["a\\0b"] = 3, c = 4 })
    end""", "t")
    out = sandbox.call(fn, U)
    assert out[0] == json.dumps({"a\0b": 1, "c": 2}, sort_keys=True, separators=(",", ":"))
    assert out[1] == json.dumps({"a": 1, "b\0c": 2}, sort_keys=True, separators=(",", ":"))
    assert out[2] == json.dumps({"a\0b": 3, "c": 4}, sort_keys=True, separators=(",", ":"))


def test_json_writes_the_same_text_past_its_cache_limits(lua):
    """More distinct strings and key sets than the caches hold, large and negative integers."""
    sandbox, U = lua
    fn = sandbox.execute("""return function(U)
      local t = {}
      for i = 1, 5000 do t[i] = { ["k" .. i] = "v" .. i, n = i * 1000 - 2500000 } end
      return U.json(t), U.json(t)
    end""", "t")
    first, again = sandbox.call(fn, U, budget=50_000_000)
    expected = json.dumps([{f"k{i}": f"v{i}", "n": i * 1000 - 2500000} for i in range(1, 5001)],
                          sort_keys=True, separators=(",", ":"))
    assert first == expected and again == expected


def test_json_escapes_strings_once_cached(lua):
    sandbox, U = lua
    fn = sandbox.execute("""return function(U)
      local s = 'a"b\\\\c\\n\\1'
      return U.json({ s, s, [3] = { [s] = s } })
    end""", "t")
    value = 'a"b\\c\n\x01'
    assert sandbox.call(fn, U) == json.dumps([value, value, {value: value}], sort_keys=True, separators=(",", ":"))


@pytest.mark.parametrize(("build", "expected"), [
    ("local t = {1, 2, 3} return t", "[1,2,3]"),
    ("local t = {} t[1] = 'a' t[2] = 'b' t[4] = 'd' t.x = 1 return t", '{"1":"a","2":"b","4":"d","x":1}'),
    ("local t = {1, 2, 3, 4} t[2] = nil t.y = true return t", '{"1":1,"3":3,"4":4,"y":true}'),
    ("local t = {1, 2, 3, 4} t[4] = nil t[6] = 6 return t", '{"1":1,"2":2,"3":3,"6":6}'),
    ("local t = {[2] = 1} return t", '{"2":1}'),
    ("local t = {x = {}} return t", '{"x":[]}'),
])
def test_json_writes_a_table_with_holes_as_an_object(lua, build, expected):
    """An untagged table is an array only with keys exactly 1..n (U.is_array), however # sees it."""
    sandbox, U = lua
    table = sandbox.execute(build, "t")
    assert sandbox.call(U.json, table) == expected
    assert sandbox.call(U.is_array, table) is expected.startswith("[")


@pytest.mark.parametrize(("text", "kind", "expected"), [
    ('{"a":1,"b":[1,2]}', 'ok', '{"a":1,"b":[1,2]}'),
    ('{ "a" : "x" , "b" : [ 1 , 2 ] }', 'ok', '{"a":"x","b":[1,2]}'),
    ('{"a":"x\\"y"}', 'ok', '{"a":"x\\"y"}'),
    ('{"a\\n":"q"}', 'ok', '{"a\\n":"q"}'),
    ('{"a" 1}', 'error', "bad JSON at character 6: expected ':'"),
    ('{"a":1 "b":2}', 'error', "bad JSON at character 8: expected ',' or '}'"),
    ('{"a":1,}', 'error', 'bad JSON at character 8: an object key must be a string'),
    ('{1:2}', 'error', 'bad JSON at character 2: an object key must be a string'),
    ('[1,2', 'error', "bad JSON at character 5: expected ',' or ']'"),
    ('[1 2]', 'error', "bad JSON at character 4: expected ',' or ']'"),
    ('[1,]', 'error', "bad JSON at character 4: unexpected ']'"),
    ('{"a":"x', 'error', 'bad JSON at character 6: unterminated string'),
    ('"abc', 'error', 'bad JSON at character 1: unterminated string'),
    ('{"a":{"b":[{"c":null}]}}', 'ok', '{"a":{"b":[{"c":null}]}}'),
    ('[ ]', 'ok', '[]'),
    ('{ }', 'ok', '{}'),
    ('["x" , "y"]', 'ok', '["x","y"]'),
    ('{"a":tru}', 'error', "bad JSON at character 6: unexpected 't'"),
    ('[-01]', 'error', 'bad JSON at character 2: a number has no leading zero'),
    ('{"a":1}x', 'error', 'bad JSON at character 8: unexpected text after the value'),
    ('{"a":"\\u00e9"}', 'ok', '{"a":"\\u00e9"}'),  # written back as canonical_json writes it
    ('{"a":"\\q"}', 'error', 'bad JSON at character 7: unknown escape \\q'),
    ('\t{"a"\n:\r"b"}\n', 'ok', '{"a":"b"}'),
    ('{"":""}', 'ok', '{"":""}'),
    ('{"a":[],"b":{}}', 'ok', '{"a":[],"b":{}}'),
    ('[nul]', 'error', "bad JSON at character 2: unexpected 'n'"),
    # a member that is a plain key and a plain string value, read with one find, and its neighbours
    ('{"a":"x","a":"y"}', 'ok', '{"a":"y"}'),
    ('{"b":"x","a":1,"c":"z"}', 'ok', '{"a":1,"b":"x","c":"z"}'),
    ('{"a":"x\\"y","b" : "z" }', 'ok', '{"a":"x\\"y","b":"z"}'),
    ('{"a":"x" "b":"y"}', 'error', "bad JSON at character 10: expected ',' or '}'"),
    ('{"a":"x",}', 'error', 'bad JSON at character 10: an object key must be a string'),
    ('{"a":"x"', 'error', "bad JSON at character 9: expected ',' or '}'"),
])
def test_json_decode_reads_and_refuses_as_it_always_did(lua, text, kind, expected):
    """The reader's fast paths (plain strings, keys, the separator after a value) read what the
    general way reads and leave every error, and the character it names, to it."""
    from tts_builder.luasandbox import LuaScriptError

    sandbox, U = lua
    if kind == "ok":
        assert sandbox.call(U.json, sandbox.call(U.json_decode, text)) == expected
    else:
        with pytest.raises(LuaScriptError) as info:
            sandbox.call(U.json_decode, text)
        assert info.value.message.split(": ", 1)[1] == expected


# -- runtime/controls.lua.j2: who plays a new game --------------------------------------------------------
SEAT_COLORS = ["White", "Red", "Yellow", "Blue"]
CONTROLS = (render("runtime/util.lua.j2", context("two-and-two"))
            + render("runtime/controls.lua.j2", {"table": {"seats": [{"seat": i, "color": c}
                                                                     for i, c in enumerate(SEAT_COLORS)]}})
            + "\nreturn Controls\n")
STUBS = """
said = {}
function broadcastToColor(text, color) said[#said + 1] = color .. ": " .. text end
Game = { seat_counts = function() return COUNTS end, seat_names = function() return "White, Red" end,
         at_table = function(c) return c == "White" or c == "Red" or c == "Yellow" or c == "Blue" end }
Tabletop = { seated_colors = function() return SEATED end }
"""


@pytest.mark.parametrize(("counts", "seated", "presser", "players"), [
    ([2, 3, 4], [], "Grey", ["White", "Red"]),            # nobody at a seat colour: a hot seat of the first two
    ([2, 3, 4], ["Blue"], "Blue", ["White", "Blue"]),     # a lone tester keeps their own colour
    ([2, 3, 4], ["Red"], "Red", ["White", "Red"]),
    ([3], ["Yellow"], "Yellow", ["White", "Red", "Yellow"]),
    ([1, 2], [], "Grey", ["White"]),                      # a game with a 1-player mode: solo
    ([1, 2], ["Red"], "Red", ["Red"]),                    # one seated player of a 1-player game: solo, no hot seat
    ([2, 3, 4], ["White", "Blue"], "White", ["White", "Blue"]),  # enough seated: they play
    ([2], ["White", "Red", "Blue"], "White", None),       # too many for the game: refused, saying so
    ([2], ["White", "Red"], "Grey", None),                # a spectator does not restart the seated players' game
])
def test_new_game_players_and_a_lone_tester_s_hot_seat(counts, seated, presser, players) -> None:
    sandbox = LuaSandbox()
    sandbox.execute(STUBS + f"COUNTS = {{ {', '.join(map(str, counts))} }}\n"
                    f"SEATED = {{ {', '.join(repr(c).replace(chr(39), chr(34)) for c in seated)} }}\n", "stubs")
    controls = sandbox.execute(CONTROLS, "controls.lua")
    got = sandbox.call(controls.players, presser)
    said = list(sandbox.lookup("said").values())
    if players is None:
        assert got is None and len(said) == 1 and said[0].startswith(f"{presser}: ")
    else:
        assert list(got.values()) == players and said == []


def test_controls_can_leave_out_forfeit_and_take_the_game_s_idle_line() -> None:
    """A game with no forfeit includes the controls after ``{% set controls_forfeit = false %}``
    (test_contracts refuses a ttForfeit its panel has no button for); Controls.idle_status() gives the panel's
    line before any game (Two by Two's "Seat 2 to 4 players ...")."""
    seats = {"table": {"seats": [{"seat": i, "color": c} for i, c in enumerate(SEAT_COLORS)]}}
    assert "function ttForfeit(" in render("runtime/controls.lua.j2", seats)
    assert "function ttForfeit(" not in render("runtime/controls.lua.j2", {**seats, "controls_forfeit": False})
    sandbox = LuaSandbox()
    sandbox.execute(STUBS + "COUNTS = { 2, 3 }\nSEATED = {}\nshown = {}\n"
                    "function Tabletop.set_value(id, v) shown[id] = v end\n"
                    "Game.last = ''\nRules = {}\n", "stubs")
    controls = sandbox.execute(CONTROLS, "controls.lua")
    sandbox.call(controls.update_panel)
    assert sandbox.lookup("shown")["tt-status"].startswith("Press New game to play (2, 3 seated players")
    sandbox.execute("function Controls.idle_status() return 'Seat 2 or 3 players and press New game.' end", "idle")
    sandbox.call(controls.update_panel)
    assert sandbox.lookup("shown")["tt-status"] == "Seat 2 or 3 players and press New game."
