"""Messages players read: seats named by colour or player name, cards by their name, and the
same text from the Lua mirror as from Python (check-lua compares only rule ids)."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

import rules
from rules.core import judge
from rules.mutate import mutants
from tts_builder.agreement import LuaEngine
from tts_builder.simulate import play_game
from tts_builder.transcript import split_move

#: card ids and seat numbers that a message must not show (Two & Two ids; "player 0", "seat 1")
TT_IDS = re.compile(r"\b(c[0-2]{4}(-[12])?|sf-[1-8]|wd-[1-6])\b")
SEAT_NUMBERS = re.compile(r"\b(player|seat) \d\b", re.IGNORECASE)


@pytest.fixture(scope="module", params=["two-and-two", "twin-tower-city"])
def engines(request: Any) -> tuple[rules.Game, LuaEngine]:
    return rules.get_game(request.param), LuaEngine(request.param)


def refusals(game: rules.Game, lua: LuaEngine, games: int) -> list[tuple[str, str, str]]:
    """(rule, Python message, Lua message) of the game's own check for mutants of simulated moves."""
    out: list[tuple[str, str, str]] = []
    for seed in range(games):
        tr = play_game(game.id, seed, policy="mixed")
        state = game.new_state(setup=tr["setup"], options=tr["options"])
        ls = lua.new_state(tr["setup"], tr["options"])
        rng = random.Random(seed)
        for entry in tr["moves"]:
            player, move = split_move(entry)
            pool = list(mutants(move, state, rng))  # every shape: the malformed ones come first
            if game.id == "twin-tower-city":  # moves aimed at each of its rules
                from tests.test_ttc_lua import candidate_moves
                wrong = candidate_moves(state, rng)
                pool += rng.sample(wrong, min(12, len(wrong)))
            for cand in pool:
                py = state.check(cand)
                lv = lua.sandbox.from_lua(lua.sandbox.call(lua.rules.check, ls, lua.sandbox.to_lua(cand)
                                                           if isinstance(cand, (dict, list)) else cand),
                                          empty_as="dict")
                if not py.ok:
                    out.append((py.rule, py.message, str(lv.get("message"))))
            state.apply(move)
            lua.apply(ls, move)
    return out


def test_lua_and_python_give_the_same_message_text(engines: tuple[rules.Game, LuaEngine]) -> None:
    game, lua = engines
    seen = refusals(game, lua, 4)
    assert len(seen) > 100 and len({rule for rule, _, _ in seen}) >= 5
    for rule, py, lv in seen:
        if rule == "move-format":  # malformed moves: the move-shape check (another change) words these
            continue
        assert py == lv, rule


def test_describe_move_is_the_same_sentence_in_lua(engines: tuple[rules.Game, LuaEngine]) -> None:
    game, lua = engines
    tr = play_game(game.id, 3, policy="mixed")
    state = game.new_state(setup=tr["setup"], options=tr["options"])
    for entry in tr["moves"]:
        _, move = split_move(entry)
        for legal in state.legal_moves():
            py = state.describe_move(legal)
            lv = lua.sandbox.call(lua.rules.describe_move, lua.sandbox.to_lua(legal))
            if game.id == "twin-tower-city":  # Python names the seat first; the TTS recorder adds its own
                seat = state.current_player()
                prefix = f"{state.seat_name(seat)} ({state.side_of(seat).capitalize()}) "
                assert py == prefix + lv
            else:
                assert py == lv
            assert not TT_IDS.search(py) if game.id == "two-and-two" else True
            assert not SEAT_NUMBERS.search(py), py
        state.apply(move)


def test_two_and_two_messages_name_cards_and_seats() -> None:
    game = rules.get_game("two-and-two")
    lua = LuaEngine(game.id)
    seen = refusals(game, lua, 3)
    for rule, py, _ in seen:
        if rule != "unknown-card":  # an id that is no card of the deck is shown as given
            assert not TT_IDS.search(py), py
        assert not SEAT_NUMBERS.search(py), py
    state = game.new_state(seed=1)
    assert [state.seat_name(0), state.seat_name(1)] == ["White", "Red"]


def test_seats_take_the_players_names_when_known() -> None:
    """A Deny window names the player who may deny: the seat colour, or the player's name."""
    game = rules.get_game("two-and-two")
    for seed in range(40):
        state = game.new_state(seed=seed)
        while not state.is_terminal() and state.to_json()["phase"] != "reaction":
            state.apply(next(m for m in state.legal_moves() if m["type"] != "forfeit"))
        if not state.is_terminal():
            break
    reactor = state.current_player()
    assert state.check({"type": "draw"}).message == \
        f"A Deny window is open: {['White', 'Red'][reactor]} may deny or pass first."
    named = state.clone()
    named.name_seats(["Ada", "Brian"])
    assert named.seat_name(reactor) == ["Ada", "Brian"][reactor]
    assert named.clone().check({"type": "draw"}).message == \
        f"A Deny window is open: {['Ada', 'Brian'][reactor]} may deny or pass first."
    lua = LuaEngine(game.id)
    ls = lua.sandbox.to_lua(state.to_json())
    lv = lua.sandbox.from_lua(lua.sandbox.call(lua.rules.check, ls, lua.sandbox.to_lua({"type": "draw"})))
    assert lv["message"] == state.check({"type": "draw"}).message
    lua.sandbox.call(lua.rules.name_seats, lua.sandbox.to_lua(["Ada", "Brian"]))
    lv = lua.sandbox.from_lua(lua.sandbox.call(lua.rules.check, ls, lua.sandbox.to_lua({"type": "draw"})))
    assert lv["message"] == named.check({"type": "draw"}).message
    with pytest.raises(rules.SetupError):
        named.name_seats(["only one"])


def test_twin_tower_city_seat_names() -> None:
    game = rules.get_game("twin-tower-city")
    state = game.new_state(seed=2, num_players=6)
    assert [state.seat_name(s) for s in range(6)] == list(game.data["seat_names"]["names"])[:6]
    text = state.describe_move(state.legal_moves()[0])
    assert text.startswith(f"{state.seat_name(state.current_player())} (")
    state.name_seats([f"P{i}" for i in range(6)])
    assert state.describe_move(state.legal_moves()[0]).startswith(f"P{state.current_player()} (")


@pytest.mark.parametrize("game_id", [g.id for g in rules.all_games()])
def test_check_lua_finds_both_engines_give_the_same_words(game_id: str) -> None:
    """check-lua compares each refusal's message text as well as its rule id, for every game."""
    from tts_builder.agreement import check_lua
    report = check_lua(game_id, 3, 0)
    assert report.agree, report.summary()
    assert report.illegal_checks > 20


def test_check_lua_reports_a_message_that_differs() -> None:
    """A Lua mirror with the right rule ids but other words disagrees (it agreed when check-lua
    compared rule ids alone)."""
    from tts_builder import agreement
    lua = LuaEngine("two-by-two")
    reword = lua.sandbox.execute(
        "return function(Rules) local check = Rules.check\n"
        "  Rules.check = function(s, m) local v = check(s, m)\n"
        "    if not v.ok and v.rule == 'one-water' then v.message = v.message .. ' (reworded)' end\n"
        "    return v end end", "reword.lua")
    lua.sandbox.call(reword, lua.rules)
    saved = agreement._ENGINES.get("two-by-two")
    agreement._ENGINES["two-by-two"] = lua
    try:
        report = agreement.check_lua("two-by-two", 6, 0)
    finally:
        if saved is None:
            agreement._ENGINES.pop("two-by-two", None)
        else:
            agreement._ENGINES["two-by-two"] = saved
    assert not report.agree
    found = report.disagreements[0]
    assert found.kind == "verdict" and "(reworded)" in str(found.lua), found.describe("two-by-two")


ODD_STRINGS = ["Z\u00e9\u4e2d\U0001F600", "a\x7fb\x08\x0c\x01\"\\", "\u00a0\u0085\u2028", "plain"]


@pytest.mark.parametrize("game_id", [g.id for g in rules.all_games()])
def test_the_lua_json_writer_writes_any_string_as_canonical_json(game_id: str) -> None:
    """Non-ASCII text, DEL and \\b \\f are written as Python's canonical_json writes them."""
    from rules.core import canonical_json
    lua = LuaEngine(game_id)
    for text in ODD_STRINGS:
        value = {"k": text, text: [text, {"x": text}]}
        assert lua.sandbox.call(lua.rules.json, lua.decode(value)) == canonical_json(value)


def test_two_and_two_state_writer_agrees_on_a_non_ascii_target() -> None:
    """An extra ``target`` with non-ASCII text, kept in the state with its play: both writers agree."""
    from rules.core import canonical_json
    game = rules.get_game("two-and-two")
    lua = LuaEngine("two-and-two")
    tr = play_game("two-and-two", 0)
    state = game.new_state(setup=tr["setup"], options=tr["options"])
    ls = lua.new_state(tr["setup"], tr["options"])
    tried = 0
    for entry in tr["moves"]:
        _, move = split_move(entry)
        odd = dict(move, target=ODD_STRINGS[0]) if "target" not in move else move
        if odd is not move and state.check(odd).ok:
            move, tried = odd, tried + 1
        state.apply(move)
        lua.apply(ls, move)
        assert lua.state_json(ls) == canonical_json(state.to_json())
    assert tried > 3
