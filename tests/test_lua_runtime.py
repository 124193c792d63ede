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
