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
