"""Tests for the Lua 5.2 sandbox and the stubbed TTS API (tts_builder.luasandbox)."""

from __future__ import annotations

import json
import time

import pytest

from tts_builder.testing import FakeTTS
from tts_builder.luasandbox import (
    LuaBudgetExceeded,
    LuaCompileError,
    LuaMemoryExceeded,
    LuaSandbox,
    LuaSandboxError,
    LuaScriptError,
)


@pytest.fixture
def sb() -> LuaSandbox:
    return LuaSandbox()


# --------------------------------------------------------------------------- dialect and sandboxing


def test_runs_lua_52_number_semantics(sb: LuaSandbox) -> None:
    assert sb.execute("return _VERSION", "v") == "Lua 5.2"
    assert sb.execute("return tostring(6/2), tostring(7/2), math.type", "v") == ("3", "3.5", None)


@pytest.mark.parametrize("expr", [
    "io", "package", "require", "dofile", "loadfile", "load", "loadstring", "module", "debug", "python",
    "string.dump", "os.execute", "os.exit", "os.getenv", "os.remove", "os.rename", "os.tmpname",
])
def test_blocked_globals_are_nil(sb: LuaSandbox, expr: str) -> None:
    assert sb.execute(f"return {expr} == nil", "blocked") is True


@pytest.mark.parametrize("code", [
    "require('os')", "io.open('/etc/passwd')", "load('return 1')()", "debug.sethook()",
    "os.execute('true')", "python.eval('1')", "dofile('/etc/passwd')",
])
def test_blocked_calls_raise_script_errors(sb: LuaSandbox, code: str) -> None:
    with pytest.raises(LuaScriptError, match=r"^blocked\.lua:1: attempt to (call|index)"):
        sb.execute(code, "blocked.lua")


def test_os_keeps_clock_date_time_difftime_and_moonsharp_globals(sb: LuaSandbox) -> None:
    assert sb.execute("return type(os.clock()), type(os.time()), type(os.date('%Y')), "
                      "os.difftime(5, 3)", "os") == ("number", "number", "string", 2)
    assert sb.execute("return unpack({1, 2, 3})", "u") == (1, 2, 3)
    assert sb.execute("return pack(1, nil, 3).n", "p") == 3


def test_python_objects_expose_no_private_attributes(sb: LuaSandbox) -> None:
    class Thing:
        def hello(self) -> str:
            return "hi"

    sb.globals.thing = Thing()
    assert sb.execute("return thing.hello()", "t") == "hi"
    with pytest.raises(LuaScriptError, match="__class__"):
        sb.execute("return thing.__class__", "t")


# --------------------------------------------------------------------------- running code


def test_execute_returns_values_and_errors_name_the_chunk(sb: LuaSandbox) -> None:
    assert sb.execute("return 1, nil, 'x'", "r") == (1, None, "x")
    assert sb.execute("local x = 1", "r") is None
    with pytest.raises(LuaScriptError) as info:
        sb.execute("local a = 1\nerror('boom')", "Global.lua")
    assert info.value.message == "Global.lua:2: boom"
    assert str(info.value).startswith("Global.lua:2: boom\nstack traceback:")
    assert "sandbox:" not in str(info.value)


def test_compile_error_reports_line(sb: LuaSandbox) -> None:
    with pytest.raises(LuaCompileError) as info:
        sb.execute("local a = 1\n\nlocal b = = 2", "Bad.lua")
    assert info.value.line == 3
    assert info.value.message.startswith("Bad.lua:3:")


def test_error_values_and_python_exceptions(sb: LuaSandbox) -> None:
    with pytest.raises(LuaScriptError) as info:
        sb.execute("error({code = 7})", "e")
    assert info.value.value == {"code": 7}

    def stub(x: object) -> None:
        raise KeyError(x)

    sb.globals.stub = stub
    with pytest.raises(LuaScriptError, match="KeyError") as info2:
        sb.execute("stub('k')", "e.lua")
    assert isinstance(info2.value.__cause__, KeyError)
    assert "e.lua:1" in str(info2.value)


def test_call_by_name_converts_args(sb: LuaSandbox) -> None:
    sb.execute("Rules = {} function Rules.total(t) local s = 0 for _, v in ipairs(t.xs) do s = s + v end "
               "return s, #t.xs end", "rules.lua")
    assert sb.call("Rules.total", {"xs": [1, 2, 3.5]}) == (6.5, 3)
    with pytest.raises(LuaSandboxError):
        sb.call("Rules.nope")


def test_nested_call_from_python_stub(sb: LuaSandbox) -> None:
    sb.execute("function double(x) return 2 * x end", "d")
    sb.globals.via_python = lambda x: sb.call("double", x) + 1
    assert sb.execute("return via_python(20)", "n") == 41


# --------------------------------------------------------------------------- limits


def test_budget_stops_infinite_loop_and_sandbox_survives(sb: LuaSandbox) -> None:
    t0 = time.perf_counter()
    with pytest.raises(LuaBudgetExceeded, match="2,000,000") as info:
        sb.execute("while true do end", "loop.lua", budget=2_000_000)
    assert time.perf_counter() - t0 < 2.0
    assert info.value.budget == 2_000_000
    assert 2_000_000 <= info.value.instructions <= 2_000_000 + 2 * sb.hook_interval
    assert sb.execute("return 1 + 1", "after") == 2
    assert sb.execute("local n = 0 for i = 1, 1000 do n = n + i end return n", "after") == 500500


@pytest.mark.parametrize("code", [
    "while true do pcall(function() while true do end end) end",
    "while true do local ok = pcall(error, 'x') end",
    "local f = coroutine.wrap(function() while true do end end) f()",
    "local co = coroutine.create(function() while true do end end) "
    "while true do coroutine.resume(co) end",
    "local function r() return r() end r()",  # a tail call: endless, never a stack overflow
])
def test_budget_cannot_be_escaped(sb: LuaSandbox, code: str) -> None:
    with pytest.raises(LuaBudgetExceeded):
        sb.execute(code, "escape.lua", budget=1_000_000)
    assert sb.execute("return 'ok'", "after") == "ok"


def test_default_budget_applies() -> None:
    sb = LuaSandbox(default_budget=100_000)
    with pytest.raises(LuaBudgetExceeded, match="100,000"):
        sb.execute("while true do end", "loop")


def test_memory_bomb_raises_and_sandbox_survives() -> None:
    sb = LuaSandbox(max_memory=16 * 2**20)
    with pytest.raises(LuaMemoryExceeded, match="16,777,216"):
        sb.execute("local s = 'x' while true do s = s .. s end", "bomb.lua")
    with pytest.raises(LuaMemoryExceeded):
        sb.execute("local t = {} for i = 1, 1e9 do t[i] = {i} end", "bomb.lua")
    assert sb.memory_used() < 4 * 2**20
    assert sb.execute("local t = {} for i = 1, 1000 do t[i] = i end return #t", "after") == 1000


# --------------------------------------------------------------------------- instruction counts

COUNT_SRC = """
local M = {}
function M.loop(n) local s = 0 for i = 1, n do s = s + i end return s end
function M.mix(n)
  local t = {}
  for i = 1, n do
    t[#t + 1] = tostring(i) .. 'x'
    if i % 3 == 0 then t[#t] = nil end
  end
  return #t
end
function M.fib(n) if n <= 1 then return 1 end return M.fib(n - 1) + M.fib(n - 2) end
function M.empty() end
function M.fails(n) local s = 0 for i = 1, n do s = s + i end error('late') end
return M
"""


def test_instruction_counts_grow_with_work_and_repeat(sb: LuaSandbox) -> None:
    m = sb.execute(COUNT_SRC, "count.lua")
    sb.call(m.loop, 100)
    small = sb.last_instructions
    sb.call(m.loop, 10_000)
    big = sb.last_instructions
    assert small > 100 and big > 10 * small > 0
    assert big > 1000
    again = []
    for _ in range(3):
        sb.call(m.loop, 10_000)
        again.append(sb.last_instructions)
    assert again == [big] * 3
    sb.call(m.empty)
    assert sb.last_instructions == 1  # just its RETURN


@pytest.mark.parametrize("interval", [100, 1000])
def test_counts_match_an_every_instruction_hook(interval: int) -> None:
    exact = LuaSandbox(hook_interval=1)
    coarse = LuaSandbox(hook_interval=interval)
    m_exact, m_coarse = exact.execute(COUNT_SRC, "c"), coarse.execute(COUNT_SRC, "c")
    for fn, n in [("loop", 0), ("loop", 7), ("loop", 49), ("loop", 50), ("loop", 51), ("loop", 1234),
                  ("mix", 10), ("mix", 333), ("fib", 10), ("empty", 0)]:
        exact.call(m_exact[fn], n)
        coarse.call(m_coarse[fn], n)
        assert abs(coarse.last_instructions - exact.last_instructions) <= 2, (fn, n)
    assert exact.last_instructions == 1


MEASURE_SRC = """
local M = {}
-- measure each of fns[i](args[i]) inside one call, with work of the caller's own between them
function M.each(measure, lim, fns, args)
  local out = {}
  for i = 1, #fns do
    local x = 0
    for j = 1, i * 37 do x = x + j end
    out[i] = (measure(lim, fns[i], args[i]))
  end
  return out
end
function M.one(measure, lim, fn, a) local c, r = measure(lim, fn, a) return c, r end
return M
"""


@pytest.mark.parametrize("interval", [1, 50, 100, 1000])
def test_measure_counts_a_call_inside_a_call_as_a_call_of_its_own(interval: int) -> None:
    """What check-lua relies on: a rules check measured inside the one call a move counts what
    it counted as a top-level call, whatever ran before it in the call."""
    sb = LuaSandbox(hook_interval=interval)
    m, h = sb.execute(COUNT_SRC, "c"), sb.execute(MEASURE_SRC, "m")
    cases = [("loop", 0), ("loop", 7), ("loop", 49), ("loop", 51), ("loop", 1234), ("mix", 333),
             ("fib", 10), ("empty", 0), ("loop", 99), ("fib", 12)]
    top = []
    for fn, n in cases:
        sb.call(m[fn], n)
        top.append(sb.last_instructions)
    fns = sb.table(*[m[fn] for fn, _ in cases])
    args = sb.table(*[n for _, n in cases])
    nested = sb.from_lua(sb.call(h.each, sb.measure, sb.fire_limit(None), fns, args))
    assert nested == top
    assert top[cases.index(("empty", 0))] == 1
    sb.call(m.loop, 10)
    alone = sb.last_instructions
    assert sb.call(h.one, sb.measure, sb.fire_limit(None), m.loop, 10) == (alone, 55)


def test_measure_keeps_each_budget_and_runs_only_inside_a_call(sb: LuaSandbox) -> None:
    m, h = sb.execute(COUNT_SRC, "c"), sb.execute(MEASURE_SRC, "m")
    with pytest.raises(LuaBudgetExceeded):  # the inner budget stops it, not the outer one
        sb.call(h.one, sb.measure, sb.fire_limit(5_000), m.loop, 100_000, budget=None)
    assert sb.call(h.one, sb.measure, sb.fire_limit(5_000), m.loop, 1_000, budget=None)[1] == 500_500
    with pytest.raises(LuaBudgetExceeded):  # inner work counts against the outer budget too
        sb.call(h.each, sb.measure, sb.fire_limit(None), sb.table(*[m.loop] * 5), sb.table(*[30_000] * 5),
                budget=200_000)
    with pytest.raises(Exception, match="only inside a sandbox call"):
        sb.measure(sb.fire_limit(None), m.empty)


BUDGETED_SRC = """
return function(budgeted, lim, fn, a) return budgeted(lim, fn, a) end
"""


def test_budgeted_stops_a_call_no_later_than_a_call_of_its_own() -> None:
    """check-lua's uncounted steps: stopped whenever a top-level call with the same budget is."""
    sb = LuaSandbox(default_budget=None)
    m, run = sb.execute(COUNT_SRC, "c"), sb.execute(BUDGETED_SRC, "b")
    budget = 60_000
    for n in (10, 20_000, 29_000, 29_990, 30_050, 31_000, 40_000, 1_000_000):
        try:
            sb.call(m.loop, n, budget=budget)
            alone = True
        except LuaBudgetExceeded:
            alone = False
        try:
            assert sb.call(run, sb.budgeted, sb.coarse_fire_limit(budget), m.loop, n) == n * (n + 1) // 2
            inside = True
        except LuaBudgetExceeded:
            inside = False
        assert inside <= alone, n
        if n <= 20_000:
            assert inside
    with pytest.raises(Exception, match="only inside a sandbox call"):
        sb.budgeted(sb.coarse_fire_limit(None), m.empty)


def test_budget_counts_after_errors(sb: LuaSandbox) -> None:
    m = sb.execute(COUNT_SRC, "count.lua")
    with pytest.raises(LuaScriptError, match="late"):
        sb.call(m.fails, 5000)
    assert sb.last_instructions >= 10_000
    assert sb.call(m.loop, 4) == 10


# --------------------------------------------------------------------------- conversions


def test_to_lua_from_lua_round_trip(sb: LuaSandbox) -> None:
    data = {"name": "deck", "cards": [{"id": 1, "tags": ["a", "b"]}, {"id": 2, "tags": []}],
            "flags": {"open": True, "shut": False}, "ratio": 2.5, "count": 3, "nested": [[1, [2, [3]]]]}
    back = sb.from_lua(sb.to_lua(data))
    assert back == data
    assert sb.execute("return function(t) return #t.cards, t.cards[2].id, t.nested[1][2][2][1] end",
                      "f")(sb.to_lua(data)) == (2, 2, 3)


def test_from_lua_ambiguities(sb: LuaSandbox) -> None:
    t = sb.execute("return {e = {}, whole = 6 / 2, f = 0.5, holes = {[1] = 'a', [3] = 'c'}, "
                   "mixed = {'a', x = 1}, strnum = {['1'] = 'a'}, big = 2^53}", "t")
    assert sb.from_lua(t) == {"e": [], "whole": 3, "f": 0.5, "holes": {1: "a", 3: "c"},
                              "mixed": {1: "a", "x": 1}, "strnum": {"1": "a"}, "big": 2**53}
    assert sb.from_lua(t, empty_as="dict")["e"] == {}
    assert isinstance(sb.from_lua(t)["whole"], int)
    assert sb.from_lua(sb.to_lua([1, None, 3])) == {1: 1, 3: 3}
    assert sb.from_lua(sb.execute("return 4.0", "n")) == 4
    cyc = sb.execute("local t = {} t.self = t return t", "c")
    with pytest.raises(ValueError, match="cyclic"):
        sb.from_lua(cyc)


# --------------------------------------------------------------------------- object environments


def test_object_scripts_have_separate_environments(sb: LuaSandbox) -> None:
    sb.execute("shared_api = function() return 'api' end", "Global.lua")
    script = """
count = 0
function bump() count = count + 1 return count, self.name, shared_api() end
"""
    a = sb.run_object_script(script, "A.lua", sb.table(name="A"))
    b = sb.run_object_script(script, "B.lua", sb.table(name="B"))
    assert sb.call(a.bump) == (1, "A", "api")
    assert sb.call(a.bump) == (2, "A", "api")
    assert sb.call(b.bump) == (1, "B", "api")
    assert sb.globals.count is None and sb.globals.bump is None
    with pytest.raises(LuaScriptError, match=r"^C\.lua:1:"):
        sb.run_object_script("error('x')", "C.lua", None)
    with pytest.raises(LuaCompileError):
        sb.run_object_script("x = = 1", "D.lua", None)


# --------------------------------------------------------------------------- FakeTTS

GAME = r"""
-- a small rules-enforcing mod, generic enough to drive every stub
state = { plays = 0, last = "", log = {} }
PILE_GUID, DECK_GUID = "pile01", "deck01"

function onLoad(saved)
  if saved ~= "" then state = JSON.decode(saved) end
  Notes.setNotes("plays: " .. state.plays)
  UI.setAttribute("status", "text", "ready")
end

function onSave() return JSON.encode(state) end

local function in_hand(color, obj)
  for _, o in ipairs(Player[color].getHandObjects()) do
    if o.getGUID() == obj.getGUID() then return true end
  end
  return false
end

function onObjectEnterZone(zone, obj)
  if zone.getGUID() ~= PILE_GUID then return end
  state.plays = state.plays + 1
  state.last = obj.getName()
  table.insert(state.log, obj.getData().CardID)
  broadcastToAll("played " .. obj.getName(), { r = 1, g = 1, b = 1 })
  UI.setAttribute("status", "text", "last: " .. obj.getName())
  Wait.frames(function() Notes.setNotes("plays: " .. state.plays) end, 2)
end

function onObjectDrop(color, obj)
  if obj.is_face_down then
    broadcastToColor("play cards face up", color, "Red")
    obj.setPositionSmooth(Vector(0, 2, 0))
    return false
  end
  printToAll(color .. " dropped " .. obj.getName() .. " (" .. Player[color].steam_name .. ")")
  return true
end

function onClickEndTurn(player, value, id)
  Turns.turn_color = Turns.getNextTurnColor()
  return player.color .. "|" .. value .. "|" .. id
end

function countPile() return #getObjectFromGUID(PILE_GUID).getObjects() end
function handSize(color) return #Player[color].getHandObjects() end
function whenReady(n)
  local frames = 0
  Wait.condition(function() printToAll("ready after " .. frames) end,
                 function() frames = frames + 1 return frames >= n end)
end
"""


@pytest.fixture
def fake() -> FakeTTS:
    f = FakeTTS(seated={"White": "Ann", "Red": "Bob"})
    f.add_zone(guid="pile01", name="pile")
    f.spawn_deck([{"name": "7S", "card_id": 107}, {"name": "9H", "card_id": 209}, {"name": "2C", "card_id": 302}],
                 guid="deck01", name="Draw")
    f.sandbox.execute("Turns.enable = true Turns.order = {'White', 'Red'} Turns.turn_color = 'White'", "setup")
    f.drain()
    f.load_global(GAME)
    return f


def test_fake_tts_drives_a_small_mod(fake: FakeTTS) -> None:
    pile = fake.get_object("pile01")
    assert pile is not None
    assert fake.notes.text == "plays: 0"
    assert fake.ui.getAttribute("status", "text") == "ready"

    card = fake.take_from(fake.get_object("deck01"), zones=[fake.hand_zone("Red")])  # type: ignore[arg-type]
    assert fake.sandbox.call("handSize", "Red") == 1
    assert fake.sandbox.execute(f"return getObjectFromGUID('{card.guid}').getName()", "q") == "7S"
    assert card.is_face_down  # the deck was face down
    # A face-down drop is refused and the card is sent back.
    assert fake.drop(card, "Red", pile) is False
    assert fake.broadcasts[-1].text == "play cards face up" and fake.broadcasts[-1].color == "Red"
    assert fake.calls[-1].method == "setPositionSmooth" and fake.calls[-1].args == ((0.0, 2.0, 0.0),)
    # setPositionSmooth does not move zone membership in the fake: the harness does.
    fake.place(card, fake.hand_zone("Red"))
    card.flip()
    assert fake.drop(card, "Red", pile) is True
    assert fake.chat[-1].text == "Red dropped 7S (Bob)"
    assert fake.sandbox.call("countPile") == 1 and fake.sandbox.call("handSize", "Red") == 0
    assert [m.text for m in fake.broadcasts].count("played 7S") == 2
    assert fake.broadcasts[0].tint == {"r": 1, "g": 1, "b": 1}
    assert fake.ui.elements["status"]["text"] == "last: 7S"
    # The Wait.frames callback runs two frames later.
    assert fake.notes.text == "plays: 0"
    fake.step()
    assert fake.notes.text == "plays: 0"
    fake.step()
    assert fake.notes.text == "plays: 2"

    # XmlUI onClick gets a Player with .color; the turn change reaches onPlayerTurn next frame.
    fake.sandbox.execute("turns_seen = {} function onPlayerTurn(p, prev) "
                         "table.insert(turns_seen, p.color .. '<' .. (prev and prev.color or 'nil')) end", "t")
    assert fake.click_ui("onClickEndTurn", "White", "-1", "endTurn") == "White|-1|endTurn"
    assert fake.turn_color == "Red"
    fake.drain()
    assert fake.sandbox.from_lua(fake.sandbox.globals.turns_seen) == ["Red<White"]

    # Wait.condition is checked once a frame.
    fake.sandbox.call("whenReady", 3)
    frames = fake.drain()
    assert frames == 3 and fake.chat[-1].text == "ready after 3"

    # Save, then load into a fresh sandbox: the state survives through JSON.
    saved = fake.save_and_reload()
    assert json.loads(saved) == {"plays": 2, "last": "7S", "log": [107, 107]}
    assert saved == json.dumps(json.loads(saved), sort_keys=True, separators=(",", ":"))
    assert fake.sandbox.from_lua(fake.sandbox.globals.state) == {"plays": 2, "last": "7S", "log": [107, 107]}
    assert fake.notes.text == "plays: 2"
    assert fake.sandbox.call("countPile") == 1  # the table itself persisted


def test_json_encode_is_sorted_and_decode_round_trips(fake: FakeTTS) -> None:
    out = fake.sandbox.execute("return JSON.encode({zeta = 1, alpha = {3, 2.5, 4.0}, mid = {b = true, a = {}}})",
                               "j")
    assert out == '{"alpha":[3,2.5,4],"mid":{"a":[],"b":true},"zeta":1}'
    assert fake.sandbox.execute("local t = JSON.decode('{\"a\":[1,{\"b\":\"c\"}],\"n\":null}') "
                                "return t.a[2].b, #t.a, t.n", "j") == ("c", 2, None)
    assert fake.sandbox.execute("return JSON.encode_pretty({b = 1, a = 2})", "j") == '{\n    "a": 2,\n    "b": 1\n}'
    with pytest.raises(LuaScriptError, match="object references"):
        fake.sandbox.execute("return JSON.encode({o = getObjectFromGUID('pile01')})", "j")


def test_objects_fields_and_recorded_calls(fake: FakeTTS) -> None:
    zone = fake.add_zone(name="z")
    c = fake.spawn("Card", guid="card01", name="QS", card_id=512, tags=["Card", "Spade"], position=(1, 2, 3),
                   zones=[zone])
    r = fake.sandbox.execute("""
      local c = getObjectFromGUID('card01')
      local p = c.getPosition()
      c.setName('Queen'); c.setDescription('d'); c.setGMNotes('gm'); c.setLock(true)
      c.highlightOn('Yellow'); c.setRotation({0, 180, 180})
      c.interactable = false
      return p.x, p[2], p.z, c.getData().CardID, c.hasTag('Spade'), #getObjectsWithTag('Spade'),
             c.getZones()[1].getName(), c.is_face_down, c.getLock(), c.type, c.getGMNotes(),
             c.getQuantity(), #getObjectsWithAllTags({'Card', 'Spade'}), getObjectFromGUID('nope')
    """, "o")
    assert r == (1, 2, 3, 512, True, 1, "z", True, True, "Card", "gm", -1, 1, None)
    assert c.getName() == "Queen" and c.interactable is False
    assert fake.highlights == {"card01": "Yellow"}
    assert [call.method for call in fake.calls] == ["setName", "setDescription", "setGMNotes", "setLock",
                                                     "highlightOn", "setRotation"]
    with pytest.raises(LuaScriptError, match="read-only"):
        fake.sandbox.execute("getObjectFromGUID('card01').guid = 'x'", "o")
    with pytest.raises(LuaScriptError, match="no Lua field"):
        fake.sandbox.execute("return getObjectFromGUID('card01').position", "o")


def test_vectors_alias_numbers_and_letters(fake: FakeTTS) -> None:
    assert fake.sandbox.execute("local v = Vector(1, 2, 3) v[1] = 5 local n = 0 "
                                "for _ in pairs(v) do n = n + 1 end "
                                "return v.x, v[2], n, (v + Vector(1, 1, 1)).z, v == Vector(5, 2, 3)", "v") \
        == (5, 2, 3, 4, True)


def test_decks_take_put_and_collapse(fake: FakeTTS) -> None:
    fake.sandbox.execute("entered = {} function onObjectEnterContainer(c, o) "
                         "table.insert(entered, o.getName()) end", "e")
    r = fake.sandbox.execute("""
      local deck = getObjectFromGUID('deck01')
      local infos = deck.getObjects()
      local top = deck.takeObject({position = {1, 1, 1}, flip = true})
      return infos[1].name, infos[1].index, #infos, top.getName(), top.is_face_down, deck.getQuantity()
    """, "d")
    assert r == ("7S", 0, 3, "7S", False, 2)
    fake.sandbox.execute("getObjectFromGUID('deck01').takeObject({})", "d")
    # One card left: the deck became that card, in the deck's place.
    deck = fake.get_object("deck01")
    assert deck is not None and deck.destroyed
    assert fake.sandbox.execute("return getObjectFromGUID('deck01')", "d") is None
    last = [o for o in fake.sandbox.from_lua(fake.sandbox.execute(
        "local r = {} for _, o in ipairs(getObjects()) do table.insert(r, o.getName()) end return r", "d"))]
    assert last == ["pile", "7S", "9H", "2C"]
    assert [o.getName() for o in fake.scene()] == ["pile", "7S", "9H", "2C"]
    # putObject is a script action: its event arrives next frame.
    bag = fake.spawn("Bag", guid="bag001")
    nine = next(o for o in fake.scene() if o.getName() == "9H")
    fake.sandbox.call(fake.sandbox.execute("return function(b, c) b.putObject(c) end", "p"), bag, nine)
    assert fake.sandbox.from_lua(fake.sandbox.globals.entered) == []
    fake.step()
    assert fake.sandbox.from_lua(fake.sandbox.globals.entered) == ["9H"]
    assert bag.getQuantity() == 1 and nine.container is bag
    assert nine not in fake.scene()


def test_try_object_enter_container_can_refuse(fake: FakeTTS) -> None:
    fake.sandbox.execute("function tryObjectEnterContainer(c, o) return o.getName() ~= 'Joker' end", "t")
    deck = fake.get_object("deck01")
    assert deck is not None
    joker = fake.spawn("Card", name="Joker")
    ace = fake.spawn("Card", name="AS")
    assert fake.put_into(deck, joker) is False and joker.container is None
    assert fake.put_into(deck, ace) is True and deck.contents[0] is ace


def test_player_flip_can_be_vetoed(fake: FakeTTS) -> None:
    c = fake.spawn("Card", name="KD")
    fake.sandbox.execute("""
      rotations = {}
      function onPlayerAction(player, action, targets)
        if action == Player.Action.FlipOver and player.color == 'Red' then return false end
        return true
      end
      function onObjectRotate(obj, spin, flip, color, old_spin, old_flip)
        table.insert(rotations, color .. ':' .. old_flip .. '->' .. flip)
      end
    """, "f")
    assert fake.flip(c, "Red") is False and not c.is_face_down
    assert fake.flip(c, "White") is True and c.is_face_down
    assert fake.sandbox.from_lua(fake.sandbox.globals.rotations) == ["White:0->180"]


def test_players_hands_and_seats(fake: FakeTTS) -> None:
    assert fake.sandbox.execute("local s = getSeatedPlayers() local p = Player.getPlayers() "
                                "return #s, s[1], s[2], p[2].color, Player.Red.seated, Player.Blue.seated, "
                                "Player.White.steam_name", "p") == (2, "White", "Red", "Red", True, False, "Ann")
    a, b = fake.spawn("Card", name="A"), fake.spawn("Card", name="B")
    fake.place(a, fake.hand_zone("White"))
    fake.place(b, fake.hand_zone("White"))
    fake.place(a)  # out of every zone
    assert fake.sandbox.execute("local h = Player.White.getHandObjects() return #h, h[1].getName()", "h") == (1, "B")


def test_wait_time_repeats_and_stops(fake: FakeTTS) -> None:
    fake.sandbox.execute("ticks = 0 tick_id = Wait.time(function() ticks = ticks + 1 end, 0.5, 3) "
                         "never_id = Wait.time(function() ticks = 100 end, 1) Wait.stop(never_id)", "w")
    assert fake.drain() == 90  # 3 x 0.5 s at 60 fps
    assert fake.sandbox.globals.ticks == 3
    fake.sandbox.execute("Wait.time(function() end, 1, -1)", "forever")
    with pytest.raises(LuaSandboxError, match="queued"):
        fake.drain(max_frames=500)


def test_wait_callback_errors_propagate(fake: FakeTTS) -> None:
    fake.sandbox.execute("Wait.frames(function() error('in a callback') end)", "w.lua")
    with pytest.raises(LuaScriptError, match=r"w\.lua:1: in a callback"):
        fake.step()


def test_notes_tabs_and_ui(fake: FakeTTS) -> None:
    r = fake.sandbox.execute("""
      local i = Notes.addNotebookTab({title = 'Rules', body = 'be nice'})
      local j = Notes.addNotebookTab({title = 'Log', body = ''})
      Notes.editNotebookTab({index = j, body = 'move 1'})
      local removed = Notes.removeNotebookTab(i)
      local tabs = Notes.getNotebookTabs()
      UI.setXml('<Panel id="p" active="false"><Text id="msg">hello</Text></Panel>')
      UI.show('p')
      UI.setValue('msg', 'bye')
      UI.setAttributes('msg', {color = 'Red', fontSize = 12})
      return i, j, removed, #tabs, tabs[1].title, tabs[1].body, tabs[1].index,
             UI.getAttribute('p', 'active'), UI.getValue('msg'), UI.getAttribute('msg', 'fontSize')
    """, "n")
    assert r == (0, 1, True, 1, "Log", "move 1", 0, "true", "bye", "12")
    assert fake.notes.tabs == [{"title": "Log", "body": "move 1", "color": "Grey"}]
    assert fake.ui.elements["msg"] == {"color": "Red", "fontSize": "12"}
    assert fake.ui.active("p") and "setXml" in [entry[0] for entry in fake.ui.log]


def test_messages_are_recorded(fake: FakeTTS) -> None:
    fake.sandbox.execute("print('a', 1, nil, 2.5) log({x = 1}, 'state: ') printToColor('hi', 'Red', {1, 0, 0}) "
                         "Player.Red.broadcast('psst')", "m")
    assert fake.prints[-1].text == "a\t1\tnil\t2.5"
    assert fake.logs[-1].text == 'state: {\n    "x": 1\n}'
    assert fake.chat[-1] == ("printToColor", "hi", "Red", [1, 0, 0])
    assert fake.broadcasts[-1].kind == "Player.broadcast" and fake.broadcasts[-1].color == "Red"
    assert fake.messages[-4:] == [fake.prints[-1], fake.logs[-1], fake.chat[-1], fake.broadcasts[-1]]


def test_global_object_and_object_scripts(fake: FakeTTS) -> None:
    counter = fake.spawn("Card", guid="ctr001", name="Counter")
    script = """
      clicks = 0
      function onLoad(saved) if saved ~= '' then clicks = tonumber(saved) end
        self.createButton({click_function = 'press', function_owner = self, label = 'Press'}) end
      function onSave() return tostring(clicks) end
      function press(obj, color, alt) clicks = clicks + 1 Global.call('noteClick', {who = color, n = clicks}) end
      function getClicks() return clicks end
    """
    fake.sandbox.execute("clicks_seen = {} function noteClick(p) table.insert(clicks_seen, p.who .. p.n) end",
                         "g")
    fake.attach_script(counter, script, "Counter.lua")
    fake.click_button(counter, "Press", "Red")
    fake.click_button(counter, 0, "White")
    assert fake.sandbox.execute("return getObjectFromGUID('ctr001').call('getClicks'), "
                                "Global.getVar('clicks'), self == Global", "g") == (2, None, True)
    assert fake.sandbox.from_lua(fake.sandbox.globals.clicks_seen) == ["Red1", "White2"]
    fake.sandbox.execute("function noteClick() end", "g2")
    fake.save_and_reload()
    assert counter.script_state == "2"
    assert counter.call("getClicks") == 2
    assert counter.buttons == [{"label": "Press", "tooltip": ""}]


def test_start_lua_coroutine_runs_a_step_per_frame(fake: FakeTTS) -> None:
    fake.sandbox.execute("steps = 0 function slow() for i = 1, 3 do steps = steps + 1 coroutine.yield(0) end "
                         "return 1 end startLuaCoroutine(Global, 'slow')", "c")
    fake.step()
    assert fake.sandbox.globals.steps == 1
    assert fake.drain() == 3
    assert fake.sandbox.globals.steps == 3


def test_web_requests_fail_offline(fake: FakeTTS) -> None:
    fake.sandbox.execute("WebRequest.get('http://example.com', function(r) got = r.is_error and r.error end)", "w")
    fake.step()
    assert "offline" in fake.sandbox.globals.got


def test_fire_returns_none_without_handler(fake: FakeTTS) -> None:
    assert fake.fire("onNoSuchEvent", 1) is None
    assert fake.fire("onSave") is not None


def test_deal_moves_top_cards_into_hands_next_frame(fake: FakeTTS) -> None:
    fake.sandbox.execute("entered = {} function onObjectEnterZone(z, o) "
                         "if z.type == 'Hand' then table.insert(entered, o.getName()) end end", "d")
    fake.sandbox.execute("getObjectFromGUID('deck01').deal(1)", "d")
    assert fake.sandbox.execute("return #Player.White.getHandObjects(), #Player.Red.getHandObjects(), "
                                "Player.Red.getHandObjects()[1].getName()", "d") == (1, 1, "9H")
    assert fake.sandbox.from_lua(fake.sandbox.globals.entered) == []
    fake.step()
    assert fake.sandbox.from_lua(fake.sandbox.globals.entered) == ["7S", "9H"]


def test_objects_keep_their_identity_across_many_lua_calls():
    """lupa issue #293: with Lua 5.2's collector running, Lua could receive
    another live Python object (a bound method of another card) from
    getObjectFromGUID. The fake runs with the collector stopped."""
    fake = FakeTTS()
    cards = [fake.spawn("Card", guid=f"{i:06x}", name=f"card {i}") for i in range(1, 60)]
    guids = [c.getGUID() for c in cards]
    fake.sandbox.execute("""
        function churn(guids, rounds)
          for r = 1, rounds do
            for i = 1, #guids do
              local o = getObjectFromGUID(guids[i])
              if o.getGUID() ~= guids[i] then return guids[i] end
              o.setPositionSmooth({x = r, y = 1, z = i}, false, true)
              local p = o.getPosition()
            end
          end
          return nil
        end""", "churn.lua")
    assert fake.sandbox.call("churn", guids, 200) is None
