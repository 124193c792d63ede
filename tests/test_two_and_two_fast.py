"""Two & Two's fast paths for check-lua: each writes or finds exactly what the general way does
(Lua's Rules.state_json against U.json, ...), on the states of played games and on states of
shapes the rules never make."""

from __future__ import annotations

import random

import pytest

from rules.core import canonical_json
from rules.players import choose
from rules.two_and_two import GAME
from tts_builder.agreement import LuaEngine

OPTIONS = [{}, {"denied_symbol_to_hand": True}, {"deny_window": "always"}]


@pytest.fixture(scope="module")
def lua() -> LuaEngine:
    return LuaEngine("two-and-two")


def _played(seeds: range):
    """(Python state, move) at every position of games under each policy and option."""
    for seed in seeds:
        state = GAME.new_state(seed=seed, options=OPTIONS[seed % 3])
        rng = random.Random(seed)
        policy = ("random", "heuristic")[seed % 2]
        while not state.is_terminal():
            move = choose(GAME, state, policy, rng) if rng.random() > 0.003 else {"type": "forfeit"}
            yield state, move
            state.apply(move)
        yield state, None


def test_lua_state_json_writes_what_u_json_writes_in_played_games(lua):
    sb = lua.sandbox
    checked = 0
    lstate = None
    for state, move in _played(range(9)):
        if lstate is None or state.to_json()["moves"] == 0:
            lstate = lua.new_state(state.setup(), state.options())
        text = sb.call(lua.rules.state_json, lstate)
        assert text == sb.call(lua.rules.json, lstate) == canonical_json(state.to_json())
        checked += 1
        if move is None:
            lstate = None
        else:
            lua.apply(lstate, move)
    assert checked > 400


# Lua statements that give a state a shape the rules never make; each must be written as U.json
# writes it (an object for a list with a stray key, null, a float, a tagged table, ...).
ODD = [
    "s.hands[1].extra = 'x'",
    "s.hands[2][#s.hands[2] + 1] = 5",
    "s.deck[2] = nil",
    "s.deck = U.as_array(s.deck)",
    "s.discard = { 'c1200', 'no such card' }",
    "s.discard = { 'c1200', 'quote\"d' }",
    "s.discard = { [2] = 'c1200' }",
    "s.discard = U.as_object({})",
    # (a new setup table each: the writer keeps the text of the setup table it wrote, see below)
    "s.setup = U.copy(s.setup); s.setup.deck[1] = 7",
    # an id list changed to other ids (its cached text, a copy of the same list, must not be written)
    "s.setup = U.copy(s.setup); s.setup.deck[1], s.setup.deck[2] = s.setup.deck[2], s.setup.deck[1]",
    "s.deck[1], s.deck[2] = s.deck[2], s.deck[1]",
    "s.deck[#s.deck] = nil",
    "s.hands[1][1] = s.deck[1]",
    "s.hands[2][#s.hands[2] + 1] = s.deck[1]",
    "s.discard[#s.discard + 1] = s.deck[1]",
    "s.sets[2][#s.sets[2] + 1] = 4",
    "s.skips[2] = 1",
    "s.options.deny_window = 'always'",
    "s.options.denied_symbol_to_hand = 0",
    "s.options.extra = { 1 }",
    "s.options = { deny_window = 'always' }",
    "s.setup = U.copy(s.setup); s.setup.extra = true",
    "s.setup = { deck = {} }",
    "s.setup = {}",
    "s.stack = { { card = 'c1200', orientation = 'sideways' } }",
    "s.stack = { { card = 'c1200', orientation = 'up', extra = 1 } }",
    "s.stack = { { card = 'c1200' } }",
    "s.stack = { U.as_object({ card = 'c1200', orientation = 'up' }) }",
    "s.stack = { 'c1200' }",
    "s.stack = { x = 1 }",
    "s.sets = { { 3, 2.5 }, {} }",
    "s.sets = { { 3, 4000 }, { -1 } }",
    "s.sets = { {}, {}, {} }",
    "s.sets = { {} }",
    "s.sets[1][3] = 4",
    "s.skips = { 0, 'x' }",
    "s.skips = { [1] = 0, [3] = 0 }",
    "s.skips = U.NULL",
    "s.hands = { {}, {}, n = 2 }",
    "s.hands = { {}, U.as_array({ 'c1200' }) }",
    "s.active = 1.5",
    "s.moves = 100000",
    "s.starter = '0'",
    "s.visible = 12",
    "s.phase = U.NULL",
    "s.pending = { play = { type = 'pass' }, chain = {} }",
    "s['end'] = { reason = 'forfeit', player = 0 }",
    "s.note = 'x'",
    "s[1] = 'x'",
    "setmetatable(s, nil); for k in pairs(U.copy(s)) do s[k] = nil end",
]


@pytest.mark.parametrize("change", ODD)
def test_lua_state_json_writes_any_other_shape_as_u_json_does(lua, change):
    sb = lua.sandbox
    state = GAME.new_state(seed=4)
    lstate = lua.new_state(state.setup(), state.options())
    for _ in range(12):  # a stack, a discard and sets to change
        move = choose(GAME, state, "heuristic", random.Random(1))
        state.apply(move)
        lua.apply(lstate, move)
    sb.execute(f"function change(s, U) {change} end", "odd.lua")
    before = sb.call(lua.rules.state_json, lstate)
    sb.call("change", lstate, lua.rules.U)
    if "U.as_" not in change and "setmetatable" not in change:  # a tag alone may write the same text
        assert sb.call(lua.rules.state_json, lstate) != before, "the change took"
    assert sb.call(lua.rules.state_json, lstate) == sb.call(lua.rules.json, lstate)  # U.json's text


def test_lua_state_json_keeps_the_setups_text_while_the_state_holds_the_same_setup_table(lua):
    """A game's setup never changes: the writer keeps its text by the table's identity (check-lua
    writes the whole state with U.json at each game's end, which shows rules that changed it in
    place: test_agreement). A setup table replaced by one with other contents is written anew."""
    sb = lua.sandbox
    state = GAME.new_state(seed=4)
    lstate = lua.new_state(state.setup(), state.options())
    before = sb.call(lua.rules.state_json, lstate)
    sb.execute("function change(s) s.setup.deck[1], s.setup.deck[2] = s.setup.deck[2], s.setup.deck[1] end",
               "in-place.lua")
    sb.call("change", lstate)
    assert sb.call(lua.rules.state_json, lstate) == before != sb.call(lua.rules.json, lstate)
    sb.execute("function replace(s, U) s.setup = U.copy(s.setup) end", "replace.lua")
    sb.call("replace", lstate, lua.rules.U)
    assert sb.call(lua.rules.state_json, lstate) == sb.call(lua.rules.json, lstate) != before


def test_lua_placement_error_on_bytes_answers_as_the_engine_for_every_pair(lua):
    """Every table-frame code against every visible code (81 x 81, the Python engine's answer),
    and values of other shapes as the string-by-string way answers them."""
    import itertools

    from rules.two_and_two.cards import placement_error

    codes = ["".join(p) for p in itertools.product("012", repeat=4)]
    sb = lua.sandbox
    sb.execute("function all_pairs(pe, codes)\n"
               "  local out = {}\n"
               "  for i = 1, #codes do for j = 1, #codes do\n"
               "    local rule, pos = pe(codes[i], codes[j])\n"
               "    out[#out + 1] = rule == nil and '-' or (rule .. pos)\n"
               "  end end\n"
               "  return table.concat(out, ' ')\n"
               "end", "pairs.lua")
    got = sb.call("all_pairs", lua.rules.placement_error, codes, budget=10**9).split(" ")
    want = []
    for code in codes:
        for visible in codes:
            err = placement_error(code, visible)
            want.append("-" if err is None else f"{err[0]}{err[1]}")
    assert got == want
    assert len(set(want)) > 3
    sb.execute("function both(c, v) local a, b = pcall(R.placement_error, c, v) "
               "local d, e = pcall(R.placement_error_by_text, c, v) return tostring(a) .. ' ' .. tostring(b), "
               "tostring(d) .. ' ' .. tostring(e) end", "both.lua")
    sb.globals.R = lua.rules
    for code, visible in [("12", "0000"), ("12000", "0000"), ("1200", "000"), ("ab0c", "0b0d"), ("0102", "1020"),
                          ("", ""), (None, "0000"), ("0000", 12), ("1221", "0000")]:
        fast, by_text = sb.call("both", code, visible)
        assert fast == by_text, (code, visible)


def test_mutant_values_kept_by_their_set_are_the_sorted_short_strings(monkeypatch):
    from rules import mutate

    monkeypatch.setattr(mutate, "_SHORT_SORTED", {})
    monkeypatch.setattr(mutate, "_SHORT_SORTED_LIMIT", 3)
    sets = [{"b", "a", "x" * 25}, {"a", "b", "x" * 25}, {"c"}, {"d", "e"}, {"f"}, {"b", "a", "x" * 25}]
    for strings in sets:
        assert mutate._short_sorted(set(strings)) == sorted(v for v in strings if len(v) < 20)
        assert len(mutate._SHORT_SORTED) <= 3
    assert mutate._short_sorted({"a", "b", "x" * 25}) == ["a", "b"]


def test_check_luas_tree_encoders_write_the_texts_of_the_general_ones():
    """agreement's encoders made once (the C encoder without circular-reference bookkeeping) write
    canonical_json's and _json_text's text, and refuse what they refuse."""
    from tts_builder import agreement

    values = [
        {"b": [1, 2.5, -0.0, 1e300, True, None], "a": {"é": "ü\n\"", "x": []}, "": {}},
        [{"card": "c1200", "type": "play"}, "not a move", None, [], {}, [{"type": "pass"}], 12345],
        "plain", 3, 2.0, ["\u2603", "\ud83d"], {"1": 1, "10": 2, "2": 3},
    ]
    for state, _move in _played(range(2)):
        values.append(state.to_json())
    for value in values:
        assert agreement._state_text(value) == canonical_json(value)
        assert agreement._moves_text(value) == agreement._json_text(value)
    with pytest.raises(ValueError):
        agreement._moves_text([{"x": float("nan")}])
    assert agreement._state_text(float("nan")) == canonical_json(float("nan"))
    with pytest.raises(TypeError):
        agreement._state_text({"x": object()})


def test_check_luas_state_texts_keep_the_setups_text_and_write_canonical_json():
    """agreement._StateTexts (the state's text after each move, the setup's part written once)
    writes canonical_json's text for every position of played games, and for states whose setup
    changes, holds numbers, or whose text holds its mark elsewhere."""
    from tts_builder import agreement

    texts = agreement._StateTexts()
    for state, _move in _played(range(3)):
        assert texts(state.to_json()) == canonical_json(state.to_json())
    assert texts.kept is not None  # a Two & Two setup (its deck) is kept
    texts = agreement._StateTexts()
    odd = [{"setup": {"deck": ["a", "b"]}, "x": 1}, {"setup": {"deck": ["a", "c"]}, "x": {"setup": 0}},
           {"setup": {"deck": ["a", "c"]}, "x": {"setup": 0.5}}, {"setup": {"n": 1}}, {"setup": {"n": True}},
           {"setup": {"deck": ["a", "c"]}, "y": '"setup":0'}, {"setup": {"deck": ["a", "c"]}, "y": ['"setup":0']},
           [1, 2], "x", {"setup": None}, {"x": 1}, {"setup": {"deck": ["a", "b"]}}]
    for value in odd:
        assert texts(value) == canonical_json(value), value
