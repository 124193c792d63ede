"""Two by Two: the board data and its checks, every rule refusing a bad move, reveals and
hidden tokens, both end conditions, basic and advanced scoring, the tie-breaks, and the Lua
mirror giving the same verdicts, messages and results."""

from __future__ import annotations

import copy
from typing import Any

import pytest

import rules
from rules.core import IllegalMove, canonical_json, judge
from rules.two_by_two import GAME, TwoByTwoState, ark_points
from rules.two_by_two import board as B
from rules.two_by_two.board import BoardDataError, check_data
from tts_builder.agreement import LuaEngine, check_lua
from tts_builder.transcript import split_move

#: seat 0's ark space: its two jungle neighbours are revealed at setup.
ARK0, ARK1 = "-3,6", "3,3"
NEXT_TO_ARK0 = ("-3,5", "-2,5")


def layout(placed: dict[str, str], players: int = 2) -> dict[str, Any]:
    """A setup with ``placed`` tokens on those jungle cells, the other tokens in list order,
    and the last six left over removed."""
    rest = [t for t in B.TOKENS if t not in placed.values()]
    cells = []
    for cell in B.JUNGLE:
        cells.append(placed[cell] if cell in placed else rest.pop(0))
    return {"players": players, "layout": cells, "removed": rest}


def started(placed: dict[str, str], players: int = 2, scoring: str = "basic",
            arks: tuple[str, ...] = (ARK0, ARK1, "6,-3", "3,-6")) -> TwoByTwoState:
    state = GAME.new_state(setup=layout(placed, players), options={"scoring": scoring}, num_players=players)
    assert isinstance(state, TwoByTwoState)
    for seat in range(players):
        state.apply({"type": "place-ark", "cell": arks[seat]})
    return state


def refused(state: TwoByTwoState, move: Any, rule: str) -> str:
    verdict = state.check(move)
    assert not verdict.ok and verdict.rule == rule, verdict
    before = canonical_json(state.to_json())
    with pytest.raises(IllegalMove):
        state.apply(move)
    assert canonical_json(state.to_json()) == before
    return verdict.message


# -- data -------------------------------------------------------------------------------------

def test_the_default_map_meets_every_constraint():
    assert len(B.JUNGLE) == 74 and len(B.ARK_SPACES) == 6 and len(B.TOKENS) == 80
    assert sum(B.LAND) == 91 >= B.WATER_TOKENS == 36
    assert all(c.id == f"{c.coords[0]},{c.coords[1]}" for c in B.GRID)
    counts = {s["id"]: s["count"] for s in B.DATA["species"]}
    assert counts["unicorns"] == 2 and counts["fishbones"] == 6 and sum(counts.values()) == 80
    assert [s for s in counts if counts[s] == 6 and s != "fishbones"][:3] == ["doves", "monkeys", "frogs"]
    assert sorted(sp for a in B.DATA["printed_arks"] for sp in a["x2"]) == sorted(
        s for s in counts if counts[s] == 6 and s != "fishbones")
    assumed = [s["id"] for s in B.DATA["species"] if s["provenance"] == "assumed"]
    assert len(assumed) == 9 and B.DATA["board"]["provenance"] == "assumed"


def _broken(change) -> str:
    data = copy.deepcopy(B.DATA)
    change(data)
    with pytest.raises(BoardDataError) as exc:
        check_data(data)
    return str(exc.value)


def _first(data, kind):
    return next(c for c in data["board"]["cells"] if c["kind"] == kind)


def test_a_map_breaking_a_constraint_is_refused_naming_it():
    assert "73 jungle spaces" in _broken(lambda d: _first(d, "jungle").update(kind="beach"))
    assert "5 ark spaces" in _broken(lambda d: _first(d, "ark-space").update(kind="sea"))
    assert "edge of the board" in _broken(lambda d: _first(d, "sea").update(kind="beach"))
    assert "kind 'lava'" in _broken(lambda d: _first(d, "beach").update(kind="lava"))
    assert "starred on exactly one ark" in _broken(lambda d: d["printed_arks"][0]["x2"].__setitem__(0, "monkeys"))
    assert "seat_arks.2" in _broken(lambda d: d["seat_arks"].__setitem__("2", ["red", "red"]))
    assert "only 91 land spaces" in _broken(lambda d: d.__setitem__("water_tokens", 92))

    def no_coast(d):  # every ring-5 jungle space made beach, and 13 beaches inland made jungle: no reveal
        for c in d["board"]["cells"]:
            if max(abs(c["q"]), abs(c["r"]), abs(c["q"] + c["r"])) == 5:
                c["kind"] = "beach"
        d["species"][-1]["count"] = 6 - 13
    assert "no jungle space touches water" in _broken(no_coast)


# -- setup -------------------------------------------------------------------------------------

def test_setup_places_arks_in_turn_order_then_reveals_the_coast():
    state = GAME.new_state(seed=3, num_players=3)
    s = state.s
    assert s["colors"] == ["red", "blue", "green"] and s["track"] == [1, 2, 3]
    assert s["phase"] == "arks" and not any(s["face_up"])
    assert refused(state, {"type": "water", "cell": "-3,5"}, "setup-order")
    assert "not one of the six ark spaces" in refused(state, {"type": "place-ark", "cell": "-4,6"}, "ark-space")
    state.apply({"type": "place-ark", "cell": ARK0})
    assert state.current_player() == 1
    assert "already stands" in refused(state, {"type": "place-ark", "cell": ARK0}, "ark-space")
    state.apply({"type": "place-ark", "cell": ARK1})
    state.apply({"type": "place-ark", "cell": "6,-3"})
    coast = [c for c in B.JUNGLE if any(not B.LAND[n] for n in B.NEIGHBOURS[B.CELL_INDEX[c]])]
    assert len(coast) == 13 and [r[0] for r in s["revealed"]] == coast
    assert sum(s["face_up"]) == 13 and s["phase"] == "water" and state.current_player() == 0
    assert refused(state, {"type": "place-ark", "cell": "3,-6"}, "setup-order")


def test_setup_removes_six_unseen_and_replays_from_the_recorded_layout():
    state = GAME.new_state(seed=5, num_players=4)
    setup = state.setup()
    assert len(setup["layout"]) == 74 and len(setup["removed"]) == 6
    assert sorted(setup["layout"] + setup["removed"]) == sorted(B.TOKENS)
    assert GAME.new_state(setup=setup, num_players=4).digest() == state.digest()
    with pytest.raises(rules.SetupError, match="setup.players is 4 but there are 2"):
        GAME.new_state(setup=setup, num_players=2)
    bad = dict(setup, removed=setup["removed"][:5] + [setup["layout"][0]])
    with pytest.raises(rules.SetupError, match="each of the 80 tokens once"):
        GAME.new_state(setup=bad)


def test_observation_hides_every_face_down_token_and_the_setup():
    state = started({"0,0": "unicorns-1", NEXT_TO_ARK0[0]: "doves-1"})
    obs = state.observation(1)
    assert "setup" not in obs and obs["viewer"] == 1
    centre = B.CELL_INDEX["0,0"]
    assert obs["tokens"][centre] == "?" and state.s["tokens"][centre] == "unicorns-1"
    assert obs["tokens"][B.CELL_INDEX[NEXT_TO_ARK0[0]]] == "doves-1"
    assert "unicorns-1" not in canonical_json(obs)


# -- step 1: the water ---------------------------------------------------------------------

def test_water_goes_on_land_next_to_water_scores_drowns_and_reveals():
    state = started({"-3,5": "doves-1", "-3,4": "lions-1"})
    assert refused(state, {"type": "move", "to": "-4,6"}, "water-first")
    assert refused(state, {"type": "pass"}, "water-first")
    assert "already water" in refused(state, {"type": "water", "cell": "-4,6"}, "water-on-land")
    assert "does not touch water" in refused(state, {"type": "water", "cell": "0,0"}, "water-adjacent")
    state.apply({"type": "water", "cell": "-3,5"})
    s = state.s
    assert s["track"][0] == 1 + 2  # -4,6 (sea) and -3,6 (an ark space) border it
    assert s["lost"] == ["doves-1"] and s["tokens"][B.CELL_INDEX["-3,5"]] == ""
    assert s["face_up"][B.CELL_INDEX["-3,4"]] and s["revealed"][-1][1] in {
        s["tokens"][B.CELL_INDEX[c]] for c in ("-3,4", "-2,4")}
    assert ["-3,4", "lions-1"] in s["revealed"]
    assert s["water_left"] == 35 and s["phase"] == "actions"
    assert refused(state, {"type": "water", "cell": "-2,5"}, "one-water")
    # the flooded space is water now: the next water may go beside it and scores it
    state.apply({"type": "pass"})
    state.apply({"type": "water", "cell": "-3,4"})
    assert s["track"][1] == 2 + 1


# -- step 2: the ark --------------------------------------------------------------------------

def test_ark_moves_to_an_adjoining_free_water_space():
    state = started({})
    state.apply({"type": "water", "cell": "1,4"})
    assert "does not adjoin" in refused(state, {"type": "move", "to": "-5,6"}, "move-adjacent")
    assert "is land" in refused(state, {"type": "move", "to": "-3,5"}, "move-onto-water")
    state.s["arks"][1] = "-2,6"  # the other ark beside ours
    assert refused(state, {"type": "move", "to": "-2,6"}, "move-free")
    assert refused(state, {"type": "move", "to": "9,9"}, "unknown-cell")
    state.apply({"type": "move", "to": "-4,6"})
    state.apply({"type": "move", "to": "-5,6"})
    assert state.s["arks"][0] == "-5,6" and state.current_player() == 1 and state.s["phase"] == "water"


def test_rescue_needs_a_face_up_pair_of_one_species_and_the_ark_beside_one():
    state = started({"-3,5": "doves-1", "3,2": "doves-2", "-2,5": "monkeys-1", "1,4": "monkeys-2",
                     "5,-1": "fishbones-1", "5,-3": "fishbones-2", "0,0": "frogs-1", "0,1": "frogs-2",
                     "-4,5": "lions-1", "4,-5": "lions-2"})
    state.apply({"type": "water", "cell": "2,-5"})
    assert "The animal on 0,0 is still face down" in refused(state, {"type": "rescue", "cells": ["0,0", "0,1"]},
                                                  "rescue-face-up")
    assert "not a pair" in refused(state, {"type": "rescue", "cells": ["-3,5", "-2,5"]}, "rescue-pair")
    assert refused(state, {"type": "rescue", "cells": ["-3,5", "-3,5"]}, "rescue-pair")
    assert "fishbones cannot be rescued" in refused(state, {"type": "rescue", "cells": ["5,-1", "5,-3"]},
                                                    "no-fishbones")
    assert "next to neither" in refused(state, {"type": "rescue", "cells": ["-4,5", "4,-5"]}, "rescue-adjacent")
    assert refused(state, {"type": "rescue", "cells": ["-3,5"]}, "move-format")
    # beside only one of the pair is enough, in either order
    assert state.check({"type": "rescue", "cells": ["1,4", "-2,5"]}).ok
    state.apply({"type": "rescue", "cells": ["3,2", "-3,5"]})
    assert state.s["rescued"][0] == ["doves"] and state.s["tokens"][B.CELL_INDEX["-3,5"]] == ""
    state.apply({"type": "rescue", "cells": ["-2,5", "1,4"]})
    assert state.s["rescued"][0] == ["doves", "monkeys"] and state.current_player() == 1


def test_an_enumerated_move_list_matches_the_checks():
    state = started({"-3,5": "doves-1", "-2,5": "doves-2"})
    state.apply({"type": "water", "cell": "1,4"})
    moves = state.legal_moves()
    assert {"type": "rescue", "cells": ["-3,5", "-2,5"]} in moves and {"type": "pass"} in moves
    assert {m["to"] for m in moves if m["type"] == "move"} == {"-4,6", "-2,6"}
    assert judge(state, 1, {"type": "pass"}).rule == "turn-order"


# -- the end --------------------------------------------------------------------------------

def test_the_last_water_ends_the_game_at_the_end_of_that_turn():
    state = started({"-3,5": "doves-1", "-2,5": "doves-2"})
    state.s["water_left"] = 1
    state.apply({"type": "water", "cell": "1,4"})
    assert not state.is_terminal() and state.s["water_left"] == 0
    state.apply({"type": "rescue", "cells": ["-3,5", "-2,5"]})  # the turn goes on after the last water
    state.apply({"type": "pass"})
    assert state.is_terminal() and state.result().detail["end"] == "no-water"
    assert refused(state, {"type": "pass"}, "game-over")


def test_all_revealed_and_no_pair_left_ends_the_game():
    state = started({"-3,5": "doves-1", "-2,5": "doves-2"})
    s = state.s
    for i in range(len(B.CELLS)):  # everything revealed; only the doves and one frog left on the island
        s["face_up"][i] = bool(s["tokens"][i])
        if s["tokens"][i] and s["tokens"][i] not in ("doves-1", "doves-2", "frogs-1"):
            s["tokens"][i] = ""
            s["face_up"][i] = False
    state.apply({"type": "water", "cell": "1,4"})
    state.apply({"type": "pass"})
    assert not state.is_terminal()  # the doves are still a pair
    state.apply({"type": "water", "cell": "3,2"})
    state.apply({"type": "move", "to": "2,4"})
    state.apply({"type": "move", "to": "1,5"})
    assert not state.is_terminal()
    state.apply({"type": "water", "cell": "-4,5"})
    state.apply({"type": "rescue", "cells": ["-3,5", "-2,5"]})
    assert not state.is_terminal()  # the end comes at the end of the turn
    state.apply({"type": "pass"})
    assert state.is_terminal() and state.result().detail["end"] == "no-pairs"


# -- scoring -----------------------------------------------------------------------------------

def test_advanced_scoring_splits_six_points_among_a_species_pairs():
    # the rulebook's examples: one pair of doves 6, two of monkeys 3 + 3, three of frogs 2 + 2 + 2
    # (blue stars monkeys, so seat 0 plays yellow here: no star among them)
    rescued = [["doves", "monkeys", "monkeys", "frogs", "frogs", "frogs"], []]
    assert ark_points(rescued, ["yellow", "red"], "advanced") == [6 + 3 + 3 + 2 + 2 + 2, 0]
    assert ark_points([["frogs"], ["frogs", "frogs"]], ["yellow", "red"], "advanced") == [2, 4]
    assert ark_points([["unicorns"], []], ["yellow", "red"], "advanced") == [6, 0]
    # x2: green stars frogs
    assert ark_points([["frogs"], ["frogs"]], ["green", "red"], "advanced") == [6, 3]


def test_basic_scoring_counts_animals_unicorns_double_stars_and_the_species_bonus():
    # red stars doves: a pair of doves 2 x 2, unicorns 2 + 2, lions starred too; bonus 2 for each species
    # only in this ark (unicorns, lions), none for doves (the other ark has them)
    assert ark_points([["doves", "unicorns", "lions"], ["doves"]], ["red", "green"], "basic") == \
        [4 + 4 + 4 + 2 + 2, 2]
    assert ark_points([["monkeys", "monkeys"], []], ["red", "green"], "basic") == [2 + 2 + 2, 0]


def _finished(rescued: list[list[str]], track: list[int], scoring: str = "basic") -> TwoByTwoState:
    state = started({}, players=len(track), scoring=scoring)
    state.s.update(rescued=rescued, track=track, end={"reason": "no-water"})
    return state


def test_the_winner_has_most_points_then_most_animals_then_most_species():
    # basic; red stars doves: 2 x 2 + the bonus 2 = 6; green's monkeys 2 + 2
    r = _finished([["doves"], ["monkeys"]], [10, 10]).result()
    assert r.winners == [0] and r.reason == "most-points" and r.scores == [16, 14]
    assert r.describe(["Red", "Green"]) == "Red wins 16 points to 14"
    r = _finished([["doves"], ["monkeys", "monkeys"]], [10, 10]).result()  # 16 each; 4 animals beat 2
    assert r.scores == [16, 16] and r.detail["animals"] == [2, 4]
    assert r.winners == [1] and r.reason == "most-animals"
    # advanced; red stars lions: two pairs of lions, 3 each, doubled = 12; green: turtles 6 + snakes 6
    r = _finished([["lions", "lions"], ["turtles", "snakes"]], [10, 10], "advanced").result()
    assert r.scores == [22, 22] and r.detail["animals"] == [4, 4] and r.detail["species"] == [1, 2]
    assert r.winners == [1] and r.reason == "most-species"
    assert r.describe(["Red", "Green"]) == "Green wins on most-species, 22 points each"


def test_level_after_both_tie_breaks_is_a_draw_or_a_shared_win():
    r = _finished([[], []], [5, 5]).result()
    assert r.outcome == "draw" and r.winners == [] and r.describe(["Red", "Green"]) == "Draw, 5 points each"
    r = _finished([[], [], []], [5, 5, 3]).result()
    assert r.outcome == "win" and r.winners == [0, 1] and r.reason == "shared"


def test_laps_past_fifty_and_a_hundred_are_shown_not_limiting():
    r = _finished([[], []], [49, 130]).result()
    assert r.scores == [49, 130] and r.detail["laps"] == [0, 2]


@pytest.mark.parametrize("score, lap", [(50, 0), (51, 1), (100, 1), (101, 2), (0, 0)])
def test_a_lap_is_more_than_fifty_and_its_flip_more_than_a_hundred(lua, score, lap):
    """The rulebook's "more than 50" and "more than 100": exactly 50 or 100 stays on the lap
    before, in both engines."""
    state = _finished([[], []], [score, 3])
    r = state.result()
    assert r.scores == [score, 3] and r.detail["laps"][0] == lap
    lua_result = lua.sandbox.from_lua(lua.sandbox.call(lua.rules.laps, score))
    assert lua_result == lap


def test_the_move_list_is_every_move_check_accepts():
    """legal_moves looks only near the water and near the ark; a brute force over every space
    (water, ark moves) and every pair of spaces (rescues) finds the same moves in the same order."""
    import random
    from rules.players import choose
    seen = {"water": 0, "rescue": 0}
    for seed in range(6):
        state = GAME.new_state(seed=seed, num_players=2 + seed % 3)
        rng = random.Random(seed)
        while not state.is_terminal():
            listed = state.legal_moves()
            phase = state.to_json()["phase"]
            if phase == "water":
                every = [{"type": "water", "cell": c} for c in B.CELLS]
            elif phase == "actions":
                every = [{"type": "move", "to": c} for c in B.CELLS]
                data = state.to_json()
                up = [i for i, t in enumerate(data["tokens"]) if t and data["face_up"][i]]  # the others refuse
                pairs = [(i, j) for x, i in enumerate(up) for j in up[x + 1:]]
                every += [{"type": "rescue", "cells": [B.CELLS[i], B.CELLS[j]]} for i, j in pairs]
                # the other order names the same rescue: accepted, and listed once
                for i, j in pairs:
                    back = {"type": "rescue", "cells": [B.CELLS[j], B.CELLS[i]]}
                    assert state.check(back).ok == state.check({"type": "rescue", "cells": [B.CELLS[i], B.CELLS[j]]}).ok
                    assert back not in listed
                every.append({"type": "pass"})
            else:
                every = [{"type": "place-ark", "cell": c} for c in B.ARK_SPACES]
            assert listed == [m for m in every if state.check(m).ok]
            for m in listed:
                seen[m["type"]] = seen.get(m["type"], 0) + 1
            state.apply(choose(GAME, state, "heuristic" if seed % 2 else "random", rng))
    assert seen["water"] > 100 and seen["rescue"] > 10, seen



def test_json_strings_lists_every_string_the_state_json_holds():
    """The mutants' hook (rules.mutate): the same set a walk of the whole JSON finds, in every
    position of games for each seat count, scoring and policy, and at the end; a state with a key
    or setup field it does not know, or without one every state has, is walked whole."""
    import random
    from rules.mutate import _strings
    from rules.players import choose
    checked = ended = 0
    for seed in range(12):
        state = GAME.new_state(seed=seed, num_players=2 + seed % 3,
                               options={"scoring": ("basic", "advanced")[seed % 2]})
        rng = random.Random(seed)
        policy = ("random", "heuristic", "mixed")[seed % 3]
        while not state.is_terminal():
            assert state.json_strings() == _strings(state.to_json())
            checked += 1
            state.apply(choose(GAME, state, "heuristic" if policy == "heuristic" or
                               (policy == "mixed" and state.current_player() == 0) else "random", rng))
        assert state.json_strings() == _strings(state.to_json()) and "end" in state.to_json()
        ended += len(state.to_json()["revealed"]) > 20 and any(state.to_json()["rescued"])
    assert checked > 800 and ended > 6
    data = GAME.new_state(seed=1).to_json()
    for odd in ({**data, "note": ["x-note"]}, {**data, "setup": {**data["setup"], "by": "x-setup"}},
                {k: v for k, v in data.items() if k != "lost"}):
        state = GAME.state_from_json(odd)
        assert state.json_strings() == _strings(odd)
    assert "x-note" in GAME.state_from_json({**data, "note": ["x-note"]}).json_strings()



def test_the_mutants_water_and_inland_cells_are_the_states():
    """board_mutants' water cells are the ones is_water names, its inland cells the dry ones that
    touch no water (found from the sea, the flooded cells and their neighbours), and a rescue
    mutant's second animal, when there is one, is of the first one's species."""
    import random
    from rules.players import choose
    from rules.two_by_two.mutants import _areas, board_mutants
    checked = rescues = 0
    for seed in range(6):
        state = GAME.new_state(seed=seed, num_players=2 + seed % 3)
        rng = random.Random(seed)
        while not state.is_terminal():
            water, inland = _areas(state.to_json()["flooded"])
            assert water == tuple(i for i in range(len(B.CELLS)) if state.is_water(i))
            assert inland == tuple(i for i in range(len(B.CELLS))
                                   if not state.is_water(i) and not state.touches_water(i))
            move = choose(GAME, state, "random", rng)
            made = [m for m in board_mutants(move, state, random.Random(checked)) if m["type"] == "rescue"]
            tokens = state.to_json()["tokens"]
            if len(made) > 2 and made[1]["cells"][0] != made[1]["cells"][1]:
                a, b = (tokens[B.CELL_INDEX[c]] for c in made[1]["cells"])
                assert B.species_of(a) == B.species_of(b) and a != b
                rescues += 1
            checked += 1
            state.apply(move)
    assert checked > 400 and rescues > 100



def test_the_heuristic_waters_where_the_points_are_sparing_face_up_pairs():
    """Its water goes on a best space by the rule it follows: a point per water space next to it
    plus one, ten off where a face-up animal has its partner face up (counted here neighbour by
    neighbour); among equals, the same draw picks the same space."""
    import random
    from rules.players import choose
    from rules.two_by_two.heuristic import _pair_cells
    from rules.two_by_two.heuristic import choose as heuristic
    picked = 0
    for seed in range(8):
        state = GAME.new_state(seed=seed, num_players=2 + seed % 3)
        rng = random.Random(seed)
        while not state.is_terminal():
            moves = state.legal_moves()
            if moves[0]["type"] == "water" and len(moves) > 1:
                obs = state.observation(state.current_player())
                wanted = _pair_cells(obs)
                values = [sum(1 for n in B.NEIGHBOURS[B.CELL_INDEX[m["cell"]]] if state.is_water(n)) + 1
                          - (10 if B.CELL_INDEX[m["cell"]] in wanted else 0) for m in moves]
                best = [m for m, v in zip(moves, values) if v == max(values)]
                draw = random.Random(picked)
                assert heuristic(obs, moves, random.Random(picked)) == draw.choice(best)
                picked += 1
            state.apply(choose(GAME, state, "random", rng))
    assert picked > 200


# -- the Lua mirror -----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def lua() -> LuaEngine:
    return LuaEngine("two-by-two")


def test_lua_refuses_with_the_same_rule_and_words(lua):
    placed = {"-3,5": "doves-1", "3,2": "doves-2", "-2,5": "monkeys-1", "5,-1": "fishbones-1",
              "5,-3": "fishbones-2"}
    state = started(placed)
    lstate = lua.new_state(state.setup(), state.options())
    for seat in range(2):
        lua.apply(lstate, {"type": "place-ark", "cell": (ARK0, ARK1)[seat]})
    state.apply({"type": "water", "cell": "1,4"})
    lua.apply(lstate, {"type": "water", "cell": "1,4"})
    for move in ({"type": "water", "cell": "0,0"}, {"type": "move", "to": "-3,5"}, {"type": "move", "to": "0,0"},
                 {"type": "rescue", "cells": ["-3,5", "-2,5"]}, {"type": "rescue", "cells": ["5,-1", "5,-3"]},
                 {"type": "rescue", "cells": ["0,0", "-3,5"]}, {"type": "place-ark", "cell": ARK0},
                 {"type": "rescue", "cells": ["-3,5", 3]}, {"type": "pass", "cell": "1,4"}):
        py = judge(state, 0, move)
        lv = lua.judge(lstate, 0, move)
        assert not py.ok and (lv["rule"], lv["message"]) == (py.rule, py.message)
    assert lua.judge(lstate, 0, {"type": "rescue", "cells": ["3,2", "-3,5"]})["ok"]
    assert lua.state_json(lstate) == canonical_json(state.to_json())


#: odd contents put into a Lua state (and the same into its Python data): the Lua rules' own JSON
#: writer leaves each to the runtime's U.json, and the text must stay Python's.
ODD_CONTENTS = """
return function(U, s, what)
  if what == "layout-changed" then s.setup.layout[40] = s.setup.layout[1]
  elseif what == "flag-number" then s.face_up[100] = 7
  elseif what == "flag-back" then s.face_up[100] = false
  elseif what == "token-number" then s.tokens[50] = 5
  elseif what == "grown" then s.flooded[#s.flooded + 1] = true
  elseif what == "setup-players" then s.setup.players = 9
  elseif what == "removed-changed" then s.setup.removed[2] = "x-removed"
  elseif what == "option-renamed" then s.options.other = s.options.scoring; s.options.scoring = nil
  elseif what == "pair-changed" then s.revealed[1][2] = "x-token"
  elseif what == "pair-grown" then s.revealed[2][3] = "x-more"
  elseif what == "shrunk" then s.flooded[#s.flooded] = nil; s.flooded[#s.flooded] = nil
  elseif what == "escape" then s.lost[#s.lost + 1] = 'say "hi"\\n'
  elseif what == "null" then s.tokens[1] = U.NULL
  elseif what == "fraction" then s.track[1] = 2.5
  elseif what == "negative" then s.track[2] = -3
  elseif what == "big" then s.water_left = 123456
  elseif what == "untagged" then setmetatable(s.arks, nil)
  elseif what == "object-in-list" then s.lost[#s.lost + 1] = U.as_object({ x = true, a = U.as_array({}) })
  elseif what == "empty-object" then s.options.none = U.as_object({})
  elseif what == "long-string" then s.phase = string.rep("x", 50)
  elseif what == "unknown-key" then s.zzz = U.as_object({ b = 1 })
  end
end
"""


def _odd(data: dict[str, Any], what: str) -> None:
    if what == "layout-changed":
        data["setup"]["layout"][39] = data["setup"]["layout"][0]
    elif what == "flag-number":
        data["face_up"][99] = 7
    elif what == "flag-back":
        data["face_up"][99] = False
    elif what == "token-number":
        data["tokens"][49] = 5
    elif what == "grown":
        data["flooded"].append(True)
    elif what == "setup-players":
        data["setup"]["players"] = 9
    elif what == "removed-changed":
        data["setup"]["removed"][1] = "x-removed"
    elif what == "option-renamed":
        data["options"]["other"] = data["options"].pop("scoring")
    elif what == "pair-changed":
        data["revealed"][0][1] = "x-token"
    elif what == "pair-grown":
        data["revealed"][1].append("x-more")
    elif what == "shrunk":
        del data["flooded"][-2:]
    elif what == "escape":
        data["lost"].append('say "hi"\n')
    elif what == "null":
        data["tokens"][0] = None
    elif what == "fraction":
        data["track"][0] = 2.5
    elif what == "negative":
        data["track"][1] = -3
    elif what == "big":
        data["water_left"] = 123456
    elif what == "object-in-list":
        data["lost"].append({"x": True, "a": []})
    elif what == "empty-object":
        data["options"]["none"] = {}
    elif what == "long-string":
        data["phase"] = "x" * 50
    elif what == "unknown-key":
        data["zzz"] = {"b": 1}


@pytest.mark.parametrize("players", [2, 4])
def test_the_lua_state_json_is_pythons_after_every_move_and_with_odd_contents(lua, players):
    """The Lua rules write their state's JSON themselves (the runtime's U.json is slower on it);
    the text is Python's canonical JSON after every move of a whole game, and still is once the
    state holds what that writer leaves to the runtime, one odd thing after another, and after
    changes in place to the lists and objects whose texts it keeps (an item changed, of another
    type, changed back, a list grown or shrunk, a reveal's pair changed or grown, an object's value
    or key changed)."""
    from rules.two_by_two.engine import STATE_KEYS
    from tts_builder.simulate import play_game
    transcript = play_game("two-by-two", 7 + players, policy="random", num_players=players)
    state = GAME.new_state(setup=transcript["setup"], options=transcript["options"], num_players=players)
    lstate = lua.new_state(transcript["setup"], transcript["options"])
    for entry in transcript["moves"]:
        _, move = split_move(entry)
        state.apply(move)
        lua.apply(lstate, move)
        assert lua.state_json(lstate) == canonical_json(state.to_json())
    assert state.is_terminal() and set(state.to_json()) <= set(STATE_KEYS)
    data = copy.deepcopy(state.to_json())
    odd = lua.sandbox.execute(ODD_CONTENTS, "odd.lua")
    for what in ("layout-changed", "flag-number", "flag-back", "token-number", "grown", "shrunk", "setup-players",
                 "removed-changed", "option-renamed", "pair-changed", "pair-grown", "escape", "null", "fraction", "negative", "big", "untagged",
                 "object-in-list", "empty-object", "long-string", "unknown-key"):
        lua.sandbox.call(odd, lua.rules.U, lstate, what)
        _odd(data, what)
        assert lua.state_json(lstate) == canonical_json(data), what


def test_the_lua_state_writer_is_the_runtimes_text_for_fewer_instructions(lua):
    """Rules.state_json, what check-lua writes each state with, gives U.json's text; once the long
    lists' texts are kept it takes a fraction of U.json's instructions."""
    state = started({"-3,5": "doves-1", "3,2": "doves-2"})
    lstate = lua.new_state(state.setup(), state.options())
    lua.sandbox.call(lua.rules.state_json, lstate)  # (the first write keeps the long lists' texts)
    text = lua.sandbox.call(lua.rules.state_json, lstate)
    own = lua.sandbox.last_instructions
    assert lua.sandbox.call(lua.rules.U.json, lstate) == text
    assert lua.sandbox.last_instructions > own + 1000


@pytest.mark.parametrize("players", [2, 3, 4])
def test_lua_agrees_over_games_with_each_scoring(players):
    for scoring in ("basic", "advanced"):
        report = check_lua("two-by-two", games=4, seed=players, players=players, options={"scoring": scoring},
                           mutants_per_move=2)
        assert report.agree, report.summary()
        assert report.moves > 4 * 60


def test_refusals_say_why_after_a_pass_and_on_a_flooded_space(lua):
    """Issue 23: a move after one's pass says the pass ended the turn; a rescue from a flooded
    space says it is flooded (both engines, the same words)."""
    placed = {"-3,5": "doves-1", "3,2": "doves-2", "-2,5": "monkeys-1"}
    state = started(placed)
    state.name_seats(["Ada", "Brian"])
    lstate = lua.new_state(state.setup(), state.options())
    lua.sandbox.call(lua.rules.name_seats, lua.sandbox.to_lua(["Ada", "Brian"]))
    for seat in range(2):
        lua.apply(lstate, {"type": "place-ark", "cell": (ARK0, ARK1)[seat]})
    for move in ({"type": "water", "cell": "1,4"}, {"type": "pass"}):
        state.apply(move)
        lua.apply(lstate, move)
    move = {"type": "water", "cell": "0,1"}
    py = judge(state, 0, move)
    assert py.rule == "turn-order"
    assert py.message == "It is Brian's decision, not Ada's. Ada's turn ended with its pass or its second ark action."
    assert lua.judge(lstate, 0, move)["message"] == py.message
    # right after the arks, nobody's turn has ended yet: no such sentence
    fresh = started(placed)
    assert judge(fresh, 1, move).message == "It is Seat 0's decision, not Seat 1's."
    # a flooded space
    state.s["flooded"][B.CELL_INDEX["1,4"]] = True
    state.s["phase"], state.s["turn"] = "actions", 1
    message = refused(state, {"type": "rescue", "cells": ["1,4", "-3,5"]}, "rescue-face-up")
    assert message == "1,4 is flooded: a water token covers it, and any animal on it drowned."
