"""Smitten 2: the rules one at a time, on hand-built positions, each judged by the Python engine and
by the Lua mirror (same rule id, same message); the modes, options and setup refusals."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from rules.core import SetupError, canonical_json, judge
from rules.smitten_2 import GAME, SmittenState
from rules.smitten_2 import engine as E
from tts_builder.agreement import LuaEngine
from tts_builder.cli import main
from tts_builder.simulate import play_game

EMPTY = [""] * 9


@pytest.fixture(scope="module")
def lua() -> LuaEngine:
    return LuaEngine("smitten-2")


def position(solo: bool = False, options: dict[str, Any] | None = None, **fields: Any) -> SmittenState:
    """A live position: a new game with ``fields`` of the state replaced."""
    state = GAME.new_state(seed=3, options=options, num_players=1 if solo else 2)
    state.s.update(copy.deepcopy(fields))
    state.s.pop("end", None)
    return state


def both(state: SmittenState, lua: LuaEngine, who: int, move: Any) -> tuple[str, str]:
    """The verdict's rule and message from Python, after checking Lua gives the same."""
    py = judge(state, who, move)
    lv = lua.judge(lua.decode(state.to_json()), who, move)
    assert (lv["ok"], lv.get("rule", ""), lv.get("message", "")) == (py.ok, py.rule, py.message)
    return py.rule, py.message


def apply_both(state: SmittenState, lua: LuaEngine, move: dict[str, Any]) -> None:
    lstate = lua.decode(state.to_json())
    state.apply(move)
    lua.apply(lstate, move)
    assert lua.state_json(lstate) == canonical_json(state.to_json())


def grid(**cards: str) -> list[str]:
    """A grid from {"p5": "5a"}-style keywords (position numbers 1..9)."""
    out = list(EMPTY)
    for key, card in cards.items():
        out[int(key[1:]) - 1] = card
    return out


# -- who decides ------------------------------------------------------------

def test_either_player_may_play_but_only_from_their_own_hand(lua):
    state = position(hands=[["5a", "1a", "2a"], ["5b", "9a", "3b"]])
    assert state.deciders() == [0, 1]
    assert both(state, lua, 1, {"type": "play", "card": "5b", "grid": 0}) == ("", "")
    assert both(state, lua, 0, {"type": "play", "card": "5b", "grid": 0})[0] == "own-hand"
    assert state.player_of({"type": "play", "card": "5b", "grid": 0}) == 1
    apply_both(state, lua, {"type": "play", "card": "5b", "grid": 0})
    # card 5 asks the partner (seat 0) to choose; seat 1 may not decide now
    assert state.deciders() == [0]
    assert both(state, lua, 1, {"type": "choose", "option": 0})[0] == "turn-order"


def test_simulated_transcripts_record_who_played():
    t = play_game("smitten-2", 4, num_players=2)
    state = GAME.new_state(setup=t["setup"], options=t["options"], num_players=2)
    seats = set()
    for entry in t["moves"]:
        move = {k: v for k, v in entry.items() if k != "player"}
        if move["type"] == "play":
            assert move["card"] in state.s["hands"][entry["player"]]
            seats.add(entry["player"])
        state.apply(move)
    assert t["result"]["kind"] == "cooperative"


def test_table_talk_is_optional_limited_and_changes_nothing(lua):
    state = position()
    before = state.digest()
    assert both(state, lua, 1, {"type": "say", "words": "I can play, but I don't want to play"}) == ("", "")
    apply_both(state, lua, {"type": "say", "words": "I don't want to play"})
    assert state.digest() == before
    assert both(state, lua, 0, {"type": "say", "words": "I have the 5"})[0] == "talk"
    assert all(m["type"] != "say" for m in state.legal_moves()), "talk is never required"


# -- placement ----------------------------------------------------------------

def test_a_card_goes_to_its_own_empty_position_next_to_a_card(lua):
    state = position(grids=[grid(p5="5a"), EMPTY], hands=[["5b", "1a", "2a"], ["3a", "9a", "4b"]])
    assert both(state, lua, 0, {"type": "play", "card": "2a", "grid": 0}) == ("", "")
    assert both(state, lua, 0, {"type": "play", "card": "1a", "grid": 0})[0] == "adjacency"
    assert both(state, lua, 0, {"type": "play", "card": "1a", "grid": 1}) == ("", ""), "the first card of a grid"
    state.s["grids"][0][4] = "5b"
    state.s["hands"][0] = ["5a", "1a", "2a"]
    assert both(state, lua, 0, {"type": "play", "card": "5a", "grid": 0})[0] == "position-taken"


def test_hard_refuses_a_grid_two_cards_ahead_and_medium_does_not(lua):
    fields: dict[str, Any] = {"grids": [grid(p5="5a"), EMPTY], "hands": [["5b", "4a", "2a"], ["3a", "9a", "4b"]]}
    hard = position(options={"difficulty": "hard"}, **fields)
    rule, message = both(hard, lua, 0, {"type": "play", "card": "4a", "grid": 0})
    assert rule == "balance" and "2 cards against 0" in message
    assert both(hard, lua, 0, {"type": "play", "card": "5b", "grid": 1}) == ("", "")
    assert both(position(**fields), lua, 0, {"type": "play", "card": "4a", "grid": 0}) == ("", "")


# -- instructions -------------------------------------------------------------

def test_an_instruction_not_followed_is_refused_in_words(lua):
    state = position(grids=[grid(p5="5a"), grid(p5="5b")], hands=[["1a", "4a"], ["2a", "6a", "8a"]])
    apply_both(state, lua, {"type": "play", "card": "4a", "grid": 0})  # 4: reveal, then place another card
    rule, message = both(state, lua, 1, {"type": "place", "card": "2a", "grid": 0})
    assert rule == "instruction" and E.instruction_text("4a") in message and "(now: reveal)" in message
    apply_both(state, lua, {"type": "reveal", "card": "2a"})
    rule, message = both(state, lua, 1, {"type": "place", "card": "2a", "grid": 1})
    assert rule == "instruction" and message == ("Card 4a asks: " + E.instruction_text("4a")
                                                 + " Not met: card 2a was revealed, and another card is placed.")
    assert both(state, lua, 1, {"type": "place", "card": "6a", "grid": 1}) == ("", "")


def test_card_1_wants_the_other_grid_and_placed_cards_trigger_nothing(lua):
    state = position(grids=[grid(p5="5a"), grid(p5="5b")], hands=[["2a", "4a"], ["1a", "6a", "8a"]],
                     deck=["9a", "9b", "3a"])
    apply_both(state, lua, {"type": "play", "card": "4a", "grid": 0})
    apply_both(state, lua, {"type": "reveal", "card": "6a"})
    assert both(state, lua, 1, {"type": "place", "card": "6a", "grid": 0})[0] == "instruction"
    apply_both(state, lua, {"type": "place", "card": "8a", "grid": 0})  # card 8's instruction does not run
    assert state.s["phase"] == "turn" and state.s["steps"] == []
    # refill, the active player (seat 0) first: one card each to three
    assert state.s["hands"] == [["2a", "9a", "9b"], ["1a", "6a", "3a"]]


def test_card_8_names_a_column_and_solo_may_not_name_the_middle(lua):
    duo = position(grids=[grid(p5="5a"), EMPTY], hands=[["8a", "1a"], ["2a", "6a", "9a"]])
    apply_both(duo, lua, {"type": "play", "card": "8a", "grid": 0})
    assert duo.deciders() == [0], "the active player names the column"
    assert both(duo, lua, 0, {"type": "name", "value": 1}) == ("", "")
    assert both(duo, lua, 0, {"type": "name", "value": "1"})[0] == "name-value"
    solo = position(solo=True, grids=[grid(p5="5a"), EMPTY], hands=[["8a", "1a"], ["2a", "6a"]], down=["", "9a"])
    apply_both(solo, lua, {"type": "play", "card": "8a", "grid": 0})
    assert solo.s["hands"][1] == ["2a", "6a", "9a"] and solo.s["down"] == ["", ""], "the partner's card turns up"
    assert both(solo, lua, 0, {"type": "name", "value": 1}) == ("name-value", "Card 8a: name one of 0, 2.")
    apply_both(solo, lua, {"type": "name", "value": 2})
    assert both(solo, lua, 0, {"type": "place", "card": "2a", "grid": 0})[0] == "instruction"
    assert both(solo, lua, 0, {"type": "place", "card": "6a", "grid": 0}) == ("", "")


def test_card_5_discard_goes_under_the_deck_or_to_the_set_aside_pile(lua):
    fields: dict[str, Any] = {"grids": [grid(p5="5a"), EMPTY], "hands": [["5b", "1a"], ["2a", "6a", "9a"]]}
    state = position(deck=["3a"], **fields)
    apply_both(state, lua, {"type": "play", "card": "5b", "grid": 1})
    assert both(state, lua, 1, {"type": "choose", "option": 2})[0] == "choose-option"
    apply_both(state, lua, {"type": "choose", "option": 1})
    apply_both(state, lua, {"type": "discard", "card": "9a"})
    assert state.s["deck"] == ["3a", "9a"]
    assert both(state, lua, 1, {"type": "place", "card": "2a", "grid": 0})[0] == "instruction", "same grid as the 5"
    empty = position(deck=[], **fields)
    apply_both(empty, lua, {"type": "play", "card": "5b", "grid": 1})
    apply_both(empty, lua, {"type": "choose", "option": 1})
    apply_both(empty, lua, {"type": "discard", "card": "9a"})
    assert empty.s["set_aside"][-1] == "9a"


def test_an_instruction_the_partner_cannot_follow_loses(lua):
    state = position(grids=[grid(p5="5a"), EMPTY], hands=[["1a", "4a"], ["9a"]])
    apply_both(state, lua, {"type": "play", "card": "4a", "grid": 0})  # reveal 9a, then place a different card: none
    apply_both(state, lua, {"type": "reveal", "card": "9a"})
    result = state.result()
    assert result is not None and (result.outcome, result.reason) == ("loss", "cannot-follow")


def test_instructions_are_data(monkeypatch, lua):
    """Changing card 2's steps in the data changes what the engine asks, without code changes."""
    monkeypatch.setitem(E.INSTRUCTIONS, "2", {"text": "Your partner places a card in the other grid.",
                                              "steps": [{"do": "place", "grid": "other"}]})
    state = position(grids=[grid(p5="5a"), grid(p5="5b")], hands=[["2a", "1a"], ["6a", "4a", "8a"]])
    state.apply({"type": "play", "card": "2a", "grid": 0})
    assert judge(state, 1, {"type": "place", "card": "6a", "grid": 0}).rule == "instruction"
    assert judge(state, 1, {"type": "place", "card": "6a", "grid": 1}).ok


# -- winning and losing --------------------------------------------------------

def test_the_17th_card_wins_ignoring_its_instruction_and_the_set_aside_card_completes(lua):
    full = ["1a", "2a", "3a", "4a", "5a", "6a", "7a", "8a", "9a"]
    other = ["1b", "2b", "3b", "4b", "5b", "6b", "7b", "", "9b"]
    state = position(grids=[list(full), list(other)], hands=[[], []], deck=[], set_aside=["8b"])
    state.s["grids"][0][0] = ""
    state.s["hands"][1] = ["1a"]
    apply_both(state, lua, {"type": "play", "card": "1a", "grid": 0})
    result = state.result()
    assert result is not None and result.to_json()["outcome"] == "win" and result.score == 18
    assert state.s["grids"][1][7] == "8b" and state.s["steps"] == []
    assert result.describe(["A", "B"]) == "The table wins with 18 cards placed"


def test_nobody_able_to_play_loses_at_the_start_of_a_turn():
    state = position(grids=[grid(p5="5a"), grid(p5="5b")], hands=[["1a"], ["9a"]], deck=[])
    state._start_turn()
    assert state.s["end"]["reason"] == "no-play" and state.legal_moves() == []


# -- solo --------------------------------------------------------------------

def test_solo_setup_two_hands_of_two_up_one_down():
    state = GAME.new_state(seed=9, num_players=1)
    deck = state.setup()["deck"]
    assert state.s["set_aside"] == deck[:1] and state.s["hands"] == [deck[1:3], deck[4:6]]
    assert state.s["down"] == [deck[3], deck[6]]
    obs = state.observation(0)
    assert obs["down"] == ["?", "?"] and set(obs["deck"]) == {"?"} and obs["set_aside"] == ["?"]


def test_solo_face_down_card_is_flipped_then_played_or_loses(lua):
    state = position(solo=True, grids=[grid(p5="5a"), grid(p5="5b")], hands=[["1a", "3a"], ["9a"]],
                     down=["4a", "9b"])
    assert both(state, lua, 0, {"type": "play", "card": "4a", "grid": 0})[0] == "face-down"
    apply_both(state, lua, {"type": "flip", "hand": 0})
    assert both(state, lua, 0, {"type": "play", "card": "1a", "grid": 0})[0] == "flipped-card"
    assert both(state, lua, 0, {"type": "play", "card": "4a", "grid": 1}) == ("", "")
    unlucky = position(solo=True, grids=[grid(p5="5a"), grid(p5="5b")], hands=[["1a", "3a"], ["9a"]],
                       down=["", "7a"])
    apply_both(unlucky, lua, {"type": "flip", "hand": 1})
    assert unlucky.s["end"]["reason"] == "face-down-unplayable"


def test_solo_refill_face_down_only_beside_two_face_up(lua):
    state = position(solo=True, phase="refill", hands=[["1a", "2a"], ["3a"]], down=["", ""], deck=["4a", "5a", "6a"])
    apply_both(state, lua, {"type": "draw", "hand": 0})
    assert state.s["down"][0] == "4a"
    assert both(state, lua, 0, {"type": "draw", "hand": 0})[0] == "hand-full"
    apply_both(state, lua, {"type": "draw", "hand": 1})
    assert state.s["hands"][1] == ["3a", "5a"], "at most one face-up card: it turns up"
    apply_both(state, lua, {"type": "draw", "hand": 1})
    assert state.s["down"][1] == "6a" and state.s["phase"] == "turn"


def test_solo_easy_swaps_once_and_hard_options_combine(lua):
    opts = {"solo_easy": True, "solo_left_hand": True, "solo_balance": True}
    state = position(solo=True, options=opts, hands=[["1a", "2a"], ["3a", "5a"]], down=["4a", "6a"],
                     set_aside=["9a"])
    assert both(state, lua, 0, {"type": "play", "card": "5a", "grid": 0})[0] == "left-hand"
    assert both(state, lua, 0, {"type": "flip", "hand": 1})[0] == "left-hand"
    apply_both(state, lua, {"type": "swap", "card": "3a"})
    assert state.s["hands"][1] == ["9a", "5a"] and state.s["set_aside"] == ["3a"]
    assert state.observation(0)["set_aside"] == ["3a"], "the swapped card lies face up"
    assert both(state, lua, 0, {"type": "swap", "card": "1a"})[0] == "easy-swap"
    plain = position(solo=True, hands=[["1a", "2a"], ["3a", "5a"]])
    assert both(plain, lua, 0, {"type": "swap", "card": "1a"})[0] == "easy-swap"


def test_solo_left_hand_places_the_last_card(lua):
    full = ["1a", "2a", "3a", "4a", "5a", "6a", "7a", "8a", "9a"]
    other = ["1b", "2b", "3b", "4b", "5b", "6b", "7b", "", "9b"]
    state = position(solo=True, options={"solo_left_hand": True}, plays=5, grids=[list(full), list(other)],
                     hands=[[], ["1a"]], down=["", ""], deck=[], set_aside=["8b"])
    state.s["grids"][0][0] = ""
    assert both(state, lua, 0, {"type": "play", "card": "1a", "grid": 0})[0] == "left-hand"


# -- options and setup ---------------------------------------------------------

@pytest.mark.parametrize("players, options", [(1, {"difficulty": "hard"}), (2, {"solo_easy": True}),
                                              (3, {})])
def test_options_of_the_other_mode_are_refused(players, options):
    with pytest.raises(SetupError):
        GAME.new_state(seed=0, options=options, num_players=players)


def test_a_setup_for_the_other_mode_or_a_short_deck_is_refused():
    setup = GAME.new_state(seed=0, num_players=1).setup()
    with pytest.raises(SetupError, match="solo game but there are 2"):
        GAME.new_state(setup=setup, num_players=2)
    with pytest.raises(SetupError, match="setup.deck"):
        GAME.new_state(setup={**setup, "deck": setup["deck"][1:]}, num_players=1)


@pytest.mark.parametrize("change", ["duplicate", "unhashable", "number", "unknown"])
def test_a_deck_of_the_right_length_but_not_each_card_once_is_refused(change):
    """The deck check (a set of the cards, not a sort) refuses a full-length deck that repeats a
    card or holds something that is no card, hashable or not."""
    setup = GAME.new_state(seed=0, num_players=2).setup()
    deck = list(setup["deck"])
    deck[0] = {"duplicate": deck[1], "unhashable": [deck[0]], "number": 1, "unknown": "10a"}[change]
    with pytest.raises(SetupError, match="setup.deck"):
        GAME.new_state(setup={**setup, "deck": deck}, num_players=2)
    assert GAME.new_state(setup=setup, num_players=2).s["deck"] == GAME.new_state(seed=0, num_players=2).s["deck"]


def test_easy_deals_four_cards_each():
    state = GAME.new_state(seed=0, options={"difficulty": "easy"})
    assert [len(h) for h in state.s["hands"]] == [4, 4] and len(state.s["deck"]) == 18 - 1 - 8


def test_simulate_cli_rejects_options_of_the_other_mode(tmp_path, capsys):
    code = main(["simulate", "smitten-2", "--games", "1", "--seed", "0", "--out", str(tmp_path),
                 "--players", "2", "--options", json.dumps({"solo_easy": True})])
    assert code == 2 and "solo" in capsys.readouterr().err


def test_simulate_reports_the_win_rate(tmp_path, capsys):
    assert main(["simulate", "smitten-2", "--games", "6", "--seed", "0", "--out", str(tmp_path), "--players", "1"]) == 0
    out = capsys.readouterr().out
    wins = sum(json.loads(p.read_text())["result"]["outcome"] == "win" for p in tmp_path.glob("*.json"))
    (line,) = [line for line in out.splitlines() if "table wins" in line]
    assert f"{wins}/6" in line and f"{100 * wins / 6:.1f}%" in line


def _reference_follows(s: dict[str, Any], step: dict[str, Any], card: str, grid: int) -> bool:
    """A placement step's conditions, each asked in turn (the engine reads only the keys the step has)."""
    where = step.get("grid", "any")
    pos = E.position(card)
    ok = {"any": True, "same": grid == s["played_grid"], "other": grid != s["played_grid"],
          "not-placed": grid not in s["placed_grids"]}.get(where, True)
    if step.get("row") == "same":
        ok = ok and pos // E.COLUMNS == E.position(s["played"]) // E.COLUMNS
    if step.get("column") == "named":
        ok = ok and pos % E.COLUMNS == s["named"]
    if step.get("empty_in_both"):
        ok = ok and not s["grids"][0][pos] and not s["grids"][1][pos]
    which = step.get("card", "any")
    if which == "named":
        which = "revealed" if s["named"] == "revealed" else "not-revealed"
    if which == "revealed":
        ok = ok and card == s["revealed"]
    if which == "not-revealed":
        ok = ok and card != s["revealed"]
    return ok


def test_placement_conditions_match_the_steps_read_one_by_one():
    """At every placement step of simulated games (both modes, random and heuristic play), each card
    of the partner's hand in each grid follows the step exactly when the reference reading says so,
    and some candidates are refused by a condition (the test can fail)."""
    refused = checked = 0
    for players in (1, 2):
        for policy in ("random", "heuristic"):
            for seed in range(25):
                transcript = play_game("smitten-2", seed, policy=policy, num_players=players)
                state = GAME.new_state(options=transcript["options"], setup=transcript["setup"], num_players=players)
                for entry in transcript["moves"]:
                    step = state.step()
                    if step is not None and step["do"] == "place":
                        for card in state.s["hands"][state.partner()]:
                            for grid in (0, 1):
                                want = _reference_follows(state.s, step, card, grid)
                                assert state._follows(step, card, grid) == want, (seed, step, card, grid)
                                checked += 1
                                refused += not want
                    move = dict(entry)
                    assert judge(state, move.pop("player"), move).ok
                    state.apply(move)
    assert checked > 500 and refused > 50, (checked, refused)


def test_step_copier_builds_equal_unshared_copies_and_falls_back_where_not_literal():
    """The instruction copier: an equal copy sharing no dict or list with the data, a new one at each
    call; data whose display is no Python literal (a NaN) is copied by copy_json instead."""
    data = [{"do": "choose", "options": [[{"do": "place"}], [{"do": "discard", "solo_flip_rest": True}]]},
            {"do": "name", "values": [0, 1.5, None, "it's \"x\""]}]
    make = E._copier(data)
    first, second = make(), make()
    assert first == data and second == data and first is not second
    assert first[0]["options"][1] is not data[0]["options"][1] and first[1]["values"] is not data[1]["values"]
    first[0]["options"][0].append({"do": "place"})
    assert make() == data
    odd = [{"do": "name", "values": [float("nan")]}]
    assert not E._is_literal(odd)
    copy_of_odd = E._copier(odd)()
    assert copy_of_odd[0] is not odd[0] and copy_of_odd[0]["values"] is not odd[0]["values"]


def test_whether_a_grid_condition_can_be_followed_matches_the_candidates():
    """A placement step with a grid condition alone: whether the table can go on (read per grid)
    is whether any listed placement passes the rules, for each condition in each reached position;
    both answers occur."""
    answers = {True: 0, False: 0}
    for players in (1, 2):
        for seed in range(30):
            transcript = play_game("smitten-2", seed, policy="random", num_players=players)
            state = GAME.new_state(options=transcript["options"], setup=transcript["setup"], num_players=players)
            for entry in transcript["moves"]:
                step = state.step()
                if step is not None and step["do"] == "place":
                    for where in ("same", "other", "not-placed", "any"):
                        trial = GAME.state_from_json(state.to_json())
                        trial.s["steps"][0] = {"do": "place", "grid": where}
                        trial.s["placed_grids"] = [trial.s["played_grid"]] if seed % 2 else []
                        want = any(map(trial._candidate_check(), trial._candidates()))
                        assert trial._can_progress() == want, (seed, where)
                        answers[want] += 1
                move = dict(entry)
                assert judge(state, move.pop("player"), move).ok
                state.apply(move)
    assert answers[True] > 50 and answers[False] > 5, answers


# -- issue 23: table talk, named conditions, the solo balance section ------------------------------

def test_table_talk_may_combine_the_indicators_in_both_engines(lua):
    """"A combination of those indicators is fine too": any of the four joined by but/and."""
    state = position()
    for words in ("I can play, but I don't want to play", "I can't play and I don't want to play",
                  "I want to play, but I can't play", "I can play, and I want to play, but I can't play"):
        assert E.is_table_talk(words)
        assert both(state, lua, 0, {"type": "say", "words": words}) == ("", ""), words
    for words in ("I can play, but", "I have the 5", "I can play, but I have the 5", "", "and I can play"):
        assert not E.is_table_talk(words)
        assert both(state, lua, 1, {"type": "say", "words": words})[0] == "talk", words


def test_table_talk_during_an_instruction_is_not_out_of_turn(lua):
    """Talk is allowed "throughout the game": while the partner follows an instruction either
    player may speak; any other move by the seat not following is still out of turn."""
    state = position(grids=[grid(p5="5a"), grid(p5="5b")], hands=[["1a", "4a"], ["2a", "6a", "8a"]])
    apply_both(state, lua, {"type": "play", "card": "4a", "grid": 0})  # seat 1 now reveals
    assert state.deciders() == [1]
    assert both(state, lua, 0, {"type": "say", "words": "I can play"}) == ("", "")
    assert both(state, lua, 1, {"type": "say", "words": "I don't want to play"}) == ("", "")
    assert both(state, lua, 0, {"type": "say", "words": "Play the 2"})[0] == "talk"
    assert both(state, lua, 0, {"type": "reveal", "card": "2a"})[0] == "turn-order"
    apply_both(state, lua, {"type": "say", "words": "I can play"})
    assert state.deciders() == [1], "talk changes nothing"


def test_a_solo_balance_refusal_cites_the_solo_hard_section(lua):
    fields: dict[str, Any] = {"grids": [grid(p5="5a"), EMPTY], "hands": [["5b", "4a"], ["3a", "9a"]]}
    solo = position(solo=True, options={"solo_balance": True}, **fields)
    duo = position(options={"difficulty": "hard"}, **fields)
    for state, section in ((solo, "Solo: Hard"), (duo, "Hard difficulty")):
        py = judge(state, 0, {"type": "play", "card": "4a", "grid": 0})
        lv = lua.judge(lua.decode(state.to_json()), 0, {"type": "play", "card": "4a", "grid": 0})
        assert py.rule == lv["rule"] == "balance"
        assert py.section == lv["section"] == section


def test_each_placement_condition_is_named_when_it_fails(lua):
    """Each condition of a placement step, failed alone, is named in the refusal (both engines)."""
    state = position(grids=[grid(p5="5a"), grid(p5="5b")], hands=[["1a", "4a"], ["2a", "6a", "8a"]])
    state.s.update(phase="follow", active=0, played="1a", played_grid=0, placed_grids=[],
                   steps=[{"do": "place", "grid": "other"}])
    rule, message = both(state, lua, 1, {"type": "place", "card": "6a", "grid": 0})
    assert rule == "instruction" and message.endswith(
        "Not met: the card goes in the other grid, not grid 0 where card 1a was played."), message
    state.s["steps"] = [{"do": "place", "grid": "same"}]
    assert both(state, lua, 1, {"type": "place", "card": "6a", "grid": 1})[1].endswith(
        "Not met: the card goes in grid 0, where card 1a was played.")
    state.s["steps"] = [{"do": "place", "row": "same"}]
    assert both(state, lua, 1, {"type": "place", "card": "8a", "grid": 0})[1].endswith(
        "Not met: card 8a is not in the row of card 1a.")


def test_the_solo_easy_reading_says_why_the_rulebook_allows_it():
    s6 = next(a for a in GAME.data["assumptions"] if a["id"] == "S-6")
    assert "face up" in s6["why"] and "name" in s6["why"]
