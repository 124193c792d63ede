"""The shortcuts taken for speed decide as the long way does: the hand check of a transcript's
envelope never passes what the schema refuses, and ``try_apply`` (a move checked once) gives
the verdict and the state of ``check`` then ``apply``."""

from __future__ import annotations

import copy
import json
import random
import re

import pytest

import rules
from rules.core import IllegalMove, MoveSequence, hook, judge, judge_apply
from rules.players import choose
from rules.mutate import mutants
from tts_builder.simulate import play_game
from tts_builder.transcript import _envelope_validator, _move_shape_errors, envelope_well_formed

ODD_VALUES = [None, True, False, 0, 1, 1.0, -1, 2.5, "", "x", "A\n", [], [0], [0, 0], {}, {"name": 1},
              {"name": "A"}, {"reason": "r"}, {"reason": 3}]


def _schema_accepts(data):
    if list(_envelope_validator().iter_errors(data)):
        return False
    return not _move_shape_errors(data["moves"])


def _variants(base):
    """``base`` with one field (top level, a player, a move, the result) set to each odd value or removed."""
    paths = [(k,) for k in base] + [("players", 0, "name"), ("players", 0, "color"), ("moves", 0, "player"),
                                     ("moves", 0, "type"), ("moves", 0), ("players", 0)]
    paths += [("result", k) for k in ("kind", "outcome", "winner", "winners", "team", "score", "scores", "reason")]
    for path in paths:
        for value in ODD_VALUES + ["<remove>"]:
            data = copy.deepcopy(base)
            target = data
            try:
                for key in path[:-1]:
                    target = target[key]
                if value == "<remove>":
                    del target[path[-1]]
                else:
                    target[path[-1]] = value
            except (KeyError, IndexError, TypeError):
                continue
            yield path, data


@pytest.mark.parametrize("game_id", ["two-and-two", "obren-buttons"])
def test_the_envelope_hand_check_never_passes_what_the_schema_refuses(game_id):
    base = play_game(game_id, 3, policy="random")
    base["moves"] = base["moves"][:3]
    assert envelope_well_formed(base) and _schema_accepts(base)
    passed = refused = 0
    for path, data in _variants(base):
        if envelope_well_formed(data):
            assert _schema_accepts(data), f"{path}: the hand check passes {json.dumps(data)[:200]}"
            passed += 1
        else:
            refused += 1
    assert passed > 20 and refused > 50  # both ways are exercised


BAD_ENTRIES = [["x"], "move", None, 3, {}, {"type": "forfeit"}, {"player": -1}, {"player": "0"}, {"player": True},
               {"player": 1.0}, {"player": 99}]


@pytest.mark.parametrize("game_id", ["twin-tower-city", "two-and-two", "smitten-2"])
def test_validate_reads_each_entry_as_the_envelope_check_does(game_id):
    """validate checks each move entry's envelope (an object with a seat) as it reads it: a
    transcript with an entry that is not well formed is unusable with the error the whole
    envelope check gives (parse_transcript), wherever the entry is and whatever else is wrong
    (an illegal move before it, an unknown game, a bad setup); any other is judged as before."""
    from tts_builder.errors import InputError
    from tts_builder.transcript import parse_transcript
    from tts_builder.validate import validate_data
    rng = random.Random(5)
    base = play_game(game_id, 4, policy="random")
    n = len(base["moves"])
    unusable = judged = 0
    for _ in range(120):
        data = copy.deepcopy(base)
        i = rng.randrange(n)
        bad = copy.deepcopy(rng.choice(BAD_ENTRIES))
        data["moves"][i] = {**data["moves"][i], **bad} if isinstance(bad, dict) and rng.random() < 0.5 else bad
        other, j = rng.randrange(5), rng.randrange(n - 1)
        if other == 0 and i not in (j, j + 1):
            data["moves"][j], data["moves"][j + 1] = data["moves"][j + 1], data["moves"][j]  # an illegal move
        elif other == 1:
            data["game"] = "no-such-game"
        elif other == 2:
            data["setup"] = {}
        try:
            parse_transcript(copy.deepcopy(data), "t.json")
        except InputError as exc:
            with pytest.raises(InputError) as got:
                validate_data(data, "t.json")
            assert str(got.value) == str(exc)
            unusable += 1
        else:
            validate_data(data, "t.json")
            judged += 1
    assert unusable > 60 and judged > 5, (unusable, judged)


@pytest.mark.parametrize("game_id", rules.game_ids())
def test_try_apply_is_check_then_apply(game_id):
    game = rules.get_game(game_id)
    rng = random.Random(game_id)
    for seed in range(3):
        transcript = play_game(game_id, seed, policy="random")
        listed = transcript["players"]
        state = game.new_state(setup=transcript["setup"], options=transcript["options"], num_players=len(listed))
        for entry in transcript["moves"]:
            player = entry["player"]
            move = {k: v for k, v in entry.items() if k != "player"}
            pool = list(mutants(move, state, rng))
            for cand in rng.sample(pool, min(6, len(pool))) + [move]:
                for who in (player, (player + 1) % state.num_players()):
                    trial, slow = state.clone(), state.clone()
                    verdict = judge_apply(trial, who, cand)
                    expected = judge(slow, who, cand)
                    assert verdict == expected, (cand, verdict, expected)
                    if expected.ok:
                        slow.apply(cand)
                    assert trial.to_json() == slow.to_json()
            assert state.try_apply(move).ok
        with pytest.raises(IllegalMove):
            state.apply({"type": "no-such-move"})


@pytest.mark.parametrize("game_id", rules.game_ids())
def test_choice_moves_are_the_legal_moves_but_forfeit_in_order(game_id):
    """The lazily built pick list (``State.choice_moves``) is the move list the simulated players
    chose from before: same moves, same order, by index and by iteration, so a seed plays the same game."""
    game = rules.get_game(game_id)
    for n in game.seat_counts():
        for seed in range(2):
            state = game.new_state(seed=seed, num_players=n)
            rng = random.Random(seed)
            while not state.is_terminal():
                listed = [m for m in state.legal_moves() if m.get("type") != "forfeit"]
                lazy = state.choice_moves()
                assert len(lazy) == len(listed)
                assert list(lazy) == listed
                assert [lazy[i] for i in range(-len(lazy), 0)] == listed
                with pytest.raises(IndexError):
                    lazy[len(lazy)]
                state.apply(rng.choice(listed))


def test_move_sequence_indexes_across_parts():
    seq = MoveSequence([[], [{"n": 0}], (0, lambda i: {"never": i}), (3, lambda i: {"n": 1 + i}), [{"n": 4}]])
    assert len(seq) == 5
    assert [m["n"] for m in seq] == [0, 1, 2, 3, 4]
    assert seq[1:4] == [{"n": 1}, {"n": 2}, {"n": 3}]
    assert seq[-1] == {"n": 4}
    with pytest.raises(IndexError):
        seq[-6]
    assert random.Random(5).choice(seq) == random.Random(5).choice(list(seq))


@pytest.mark.parametrize("policy", ["random", "heuristic", "mixed"])
@pytest.mark.parametrize("game_id", rules.game_ids())
def test_choose_picks_what_choosing_from_the_full_list_picks(game_id, policy):
    """players.choose's shortcut (a random pick from the lazy list) takes the move and the random
    draws the long way (every legal move listed, then picked) takes."""
    game = rules.get_game(game_id)
    heuristic = hook(game, "heuristic_move")
    for seed in range(2):
        state = game.new_state(seed=seed)
        rng, ref = random.Random(seed), random.Random(seed)
        while not state.is_terminal():
            move = choose(game, state, policy, rng)
            seat = state.current_player()
            if len(state.deciders()) == 1 and (policy == "random" or heuristic is None
                                               or (policy == "mixed" and seat != 0)):
                expected = ref.choice([m for m in state.legal_moves() if m.get("type") != "forfeit"])
                assert move == expected
            ref.setstate(rng.getstate())
            state.apply(move)


def _random_states(game_id, players, options, seeds):
    """Every non-final position of random games (the state itself, moved on after the yield)."""
    game = rules.get_game(game_id)
    for seed in seeds:
        state = game.new_state(seed=seed, options=options, num_players=players)
        rng = random.Random(seed)
        while not state.is_terminal():
            yield state
            state.apply(rng.choice(list(state.choice_moves())))


SMITTEN_SETTINGS = [(2, {}), (2, {"difficulty": "hard"}), (2, {"difficulty": "easy"}), (1, {}),
                    (1, {"solo_easy": True, "solo_left_hand": True}), (1, {"solo_balance": True})]


@pytest.mark.parametrize("players, options", SMITTEN_SETTINGS)
def test_smitten_fault_codes_decide_as_the_worded_checks(players, options):
    """Smitten 2 judges its candidates by fault codes (no refusal worded): the same answers as
    the worded checks, for each card in each grid, each candidate and whether any move goes on."""
    from rules.smitten_2.engine import CARDS
    seen = {True: 0, False: 0}
    for state in _random_states("smitten-2", players, options, range(12)):
        candidates = state._candidates()
        by_words = [state._check_rules(m).ok for m in candidates]
        ok = state._candidate_check()
        assert [ok(m) for m in candidates] == by_words
        assert state._progress_moves() == [m for m, good in zip(candidates, by_words) if good]
        assert state._can_progress() == any(by_words)
        seen[any(by_words)] += 1
        for card in CARDS:
            for grid in (0, 1):
                fault, verdict = state._play_fault(card, grid), state._check_play(card, grid)
                assert verdict.ok == (fault is None)
                if fault is not None:
                    assert verdict.rule == ("left-hand" if fault == "left-hand-first" else fault)
    assert seen[True] > 50


def test_obren_lines_through_the_moved_cells_end_the_game_as_a_full_board_search():
    """Obren Buttons looks for lines of four only through the cells a move changed: the game ends
    (and who wins) as a search of the whole board decides."""
    from rules.obren_buttons.engine import _has_line
    wins = 0
    for state in _random_states("obren-buttons", 2, {}, range(30)):
        seat = state.current_player()
        mine, theirs = state.s["colors"][seat], state.s["colors"][1 - seat]
        assert not _has_line(state.s["board"], mine) and not _has_line(state.s["board"], theirs)
        for move in list(state.choice_moves()):
            after = state.clone()
            after.apply(move)
            board, end = after.s["board"], after.s.get("end")
            expected = seat if _has_line(board, mine) else 1 - seat if _has_line(board, theirs) else None
            if expected is None:
                assert end is None or end["reason"] != "line-of-four"
            else:
                wins += 1
                assert end == {"reason": "line-of-four", "winner": expected}
    assert wins > 20


@pytest.mark.parametrize("players", [2, 4])
def test_ttc_counted_excess_is_the_recount(players):
    """Twin Tower City counts the decider's excess items when it refreshes: each check reading
    it sees what counting again gives."""
    from rules.twin_tower_city.scoring import excess_items
    nullify = 0
    for state in _random_states("twin-tower-city", players, {}, range(8)):
        for side in ("dark", "light"):
            assert state._excess(side) == excess_items(state._warriors, state._items, side)
        nullify += state._phase == "nullify"
    assert nullify > 5


class _Str(str):
    pass


class _List(list):  # type: ignore[type-arg]
    pass


def _strings_the_long_way(x):
    if isinstance(x, str):
        return {x}
    if isinstance(x, dict):
        x = list(x.values())
    if isinstance(x, list):
        return set().union(*map(_strings_the_long_way, x)) if x else set()
    return set()


@pytest.mark.parametrize("game_id", rules.game_ids())
def test_mutants_state_strings_are_every_string_value(game_id):
    from rules.mutate import _strings

    odd = {"a": ["x", 1, None, 2.5, True], "b": [_Str("sub"), "y"], "c": _List(["z", [False, "deep"]]),
           "d": [[], {}, [1.0]], "e": ["only", "strings"], "f": {"k": _Str("v")}, "g": "top"}
    assert _strings(odd) == _strings_the_long_way(odd) == {"x", "sub", "y", "z", "deep", "only", "strings", "v",
                                                           "top"}
    transcript = play_game(game_id, 3, policy="random")
    state = rules.get_game(game_id).new_state(seed=3)  # as play_game sets it up
    for entry in transcript["moves"][:40]:
        data = state.to_json()
        assert _strings(data) == _strings_the_long_way(data)
        state.apply({k: v for k, v in entry.items() if k != "player"})


def _ttc_heuristic_the_long_way(roster, cards, obs, moves, rng):
    """The Twin Tower City heuristic evaluating every distinct move's round (no memo by warriors)."""
    from rules.twin_tower_city.cards import OTHER_SIDE
    from rules.twin_tower_city.heuristic import SPECIAL_COST, _after
    from rules.twin_tower_city.scoring import round_totals

    moves = [m for m in moves if m["type"] != "forfeit"] or moves
    if moves[0]["type"] not in SPECIAL_COST:
        return moves[0]
    side = obs["side"]
    best, best_value = [], None
    for move in moves:
        totals = round_totals(roster, cards, *_after(obs, move, cards), obs["options"])
        value = totals[side] - totals[OTHER_SIDE[side]] - SPECIAL_COST[move["type"]]
        if best_value is None or value > best_value:
            best, best_value = [move], value
        elif value == best_value:
            best.append(move)
    return best[rng.randrange(len(best))]


@pytest.mark.parametrize("players", [2, 4])
def test_ttc_heuristic_decides_as_evaluating_every_move(players):
    """The heuristic's margins remembered by the side's strongest warriors pick the move (and draw
    the random numbers) evaluating every move's round picks, under every option value."""
    from rules.twin_tower_city.engine import CARDS, ROSTER
    from rules.twin_tower_city.heuristic import heuristic_move

    game = rules.get_game("twin-tower-city")
    decisions = 0
    for options in game.option_variants():
        if options.get("teams") is False and players > 2:
            continue
        try:
            state = game.new_state(seed=7, options=options, num_players=players)
        except rules.SetupError:
            continue
        rng = random.Random(7)
        while not state.is_terminal():
            moves = list(state.choice_moves())
            seat = state.current_player()
            obs = state.observation(seat)
            ref = random.Random()
            ref.setstate(rng.getstate())
            move = heuristic_move(ROSTER, CARDS, obs, moves, rng)
            assert move == _ttc_heuristic_the_long_way(ROSTER, CARDS, obs, moves, ref), (options, move)
            assert ref.getstate() == rng.getstate()
            decisions += 1
            state.apply(move)
    assert decisions > 100


def _smitten_score_the_long_way(obs, move, rng):
    """The Smitten 2 heuristic's score with the whole view deep-copied per guess and per searched
    position, every searched move listed in full and checked, and worded checks."""
    from rules.core import copy_json
    from rules.smitten_2.engine import CARDS, SmittenState
    from rules.smitten_2.heuristic import SAMPLES, SEARCH_LIMIT

    def _turn_survives(state, budget):  # every position deep-copied, every move listed and checked
        end = state.s.get("end")
        if end is not None:
            return bool(end["won"])
        if state.s["phase"] != "follow":
            return True
        for m in state._progress_moves():
            if budget[0] <= 0:
                return True
            budget[0] -= 1
            trial = SmittenState(copy_json(state.s))
            trial.apply(m)
            if _turn_survives(trial, budget):
                return True
        return False

    total = 0.0
    for _ in range(SAMPLES):
        s = copy_json({k: v for k, v in obs.items() if k != "seat"})
        s["setup"] = {}
        seen = {c for g in s["grids"] for c in g} | {c for h in s["hands"] for c in h} | set(s["down"]) \
            | set(s["set_aside"]) | set(s["deck"])
        pool = [c for c in CARDS if c not in seen]
        rng.shuffle(pool)
        for hand in s["hands"]:
            hand[:] = [pool.pop() if c == "?" else c for c in hand]
        for key in ("down", "set_aside", "deck"):
            s[key] = [pool.pop() if c == "?" else c for c in s[key]]
        trial = SmittenState(s)
        trial.apply(move)
        end = trial.s.get("end")
        if end is not None:
            total += 1000.0 if end["won"] else -1000.0
            continue
        total += 0.0 if _turn_survives(trial, [SEARCH_LIMIT]) else -500.0
        own = [0, 1] if trial.solo else [int(obs.get("seat", 0))]
        total += sum(trial._check_position(card, g, h).ok for h in own for card in trial.s["hands"][h]
                     for g in (0, 1)) + trial.placed()
    return total / SAMPLES


@pytest.mark.parametrize("players, options", SMITTEN_SETTINGS)
def test_smitten_heuristic_scores_as_the_long_way(players, options):
    """The heuristic's guesses (only the hidden card lists made anew) and its fault codes score each
    move as copying the whole view and asking the worded checks does, with the same random draws."""
    from rules.smitten_2.heuristic import _score

    checked = 0
    for n, state in enumerate(_random_states("smitten-2", players, options, range(3))):
        for seat in state.deciders():
            obs = state.observation(seat)
            for move in [m for m in state.choice_moves() if state.player_of(m) == seat][:4]:
                rng, ref = random.Random(n), random.Random(n)
                assert _score(obs, move, rng) == _smitten_score_the_long_way(obs, move, ref)
                assert rng.getstate() == ref.getstate()
                checked += 1
    assert checked > 30


@pytest.mark.parametrize("game_id", rules.game_ids())
def test_sample_mutants_picks_what_sampling_every_mutant_picks(game_id):
    """check-lua's pick of mutants (rules.mutate.sample_mutants, building only those picked) is
    ``rng.sample`` of the whole list: the same mutants, in the same order, the rng left the same."""
    from rules.mutate import sample_mutants

    game = rules.get_game(game_id)
    for seed in range(3):
        transcript = play_game(game_id, seed, policy="mixed")
        state = game.new_state(setup=transcript["setup"], options=transcript["options"],
                               num_players=len(transcript["players"]))
        for index, entry in enumerate(transcript["moves"]):
            move = {k: v for k, v in entry.items() if k != "player"}
            k = (3, 1, 8, 100)[index % 4]
            whole, lazy = random.Random(f"{seed}/{index}"), random.Random(f"{seed}/{index}")
            pool = list(mutants(move, state, whole, state_json=state.to_json()))
            expected = whole.sample(pool, min(k, len(pool)))
            got = sample_mutants(move, state, lazy, k, state_json=state.to_json())
            assert json.dumps(got) == json.dumps(expected) and got == expected
            assert lazy.getstate() == whole.getstate()
            state.apply(move)


@pytest.mark.parametrize("players, options", SMITTEN_SETTINGS)
def test_smitten_fork_leaves_the_state_alone(players, options):
    """The heuristic's light copy of a state (lists copied, dicts shared) covers every list the state
    holds, and making any legal move on it leaves the original's JSON as it was."""
    from rules.core import canonical_json
    from rules.smitten_2.engine import SmittenState
    from rules.smitten_2.heuristic import _LISTS, _NESTED, _fork

    made = 0
    for state in _random_states("smitten-2", players, options, range(12)):
        lists = {k for k, v in state.s.items() if type(v) is list}
        assert lists == set(_LISTS) | set(_NESTED)
        assert all(any(type(x) is list for x in state.s[k]) == (k in _NESTED) for k in lists if state.s[k])
        before = canonical_json(state.s)
        for move in state.legal_moves():
            SmittenState(_fork(state.s)).make(move)
            assert canonical_json(state.s) == before, move
            made += 1
    assert made > 200


def _smitten_states_every_policy(players, options):
    """Positions of random and heuristic Smitten 2 games (the latter get further)."""
    from rules.players import choose
    game = rules.get_game("smitten-2")
    yield from _random_states("smitten-2", players, options, range(6))
    for seed in range(2):
        state = game.new_state(seed=seed, options=options, num_players=players)
        rng = random.Random(seed)
        while not state.is_terminal():
            yield state
            state.apply(choose(game, state, "heuristic", rng))


@pytest.mark.parametrize("players, options", SMITTEN_SETTINGS)
def test_smitten_one_pass_judgement_agrees_with_judge(players, options):
    """Smitten 2's one-pass judgement (try_apply_for) passes only what judge passes, for any seat,
    legal moves, candidates and mutants alike (a refusal leaves the state alone), and passes every legal play, placement, step and
    draw of the seat to decide; made, the state is the one judge-then-make gives."""
    from rules.core import canonical_json, copy_json, judge
    from rules.mutate import mutants
    game = rules.get_game("smitten-2")
    rng = random.Random(7)
    fast = 0
    for state in _smitten_states_every_policy(players, options):
        moves = list(state.legal_moves()) + state._candidates()
        moves += [m for legal in state.legal_moves()[:3] for m in mutants(legal, state, rng)]
        before = canonical_json(state.s)
        for move in moves:
            for seat in (0, 1, 2, -1, True, None):
                quick = state._surely_legal(seat, move)
                verdict = judge(state, seat, move)
                assert not quick or verdict.ok, (seat, move, verdict)
                fast += quick
                if not verdict.ok:  # refused: judge's verdict, the state unchanged
                    assert state.try_apply_for(seat, move) == verdict
        assert canonical_json(state.s) == before
        for move in state.legal_moves():
            seat = state.player_of(move)
            if move["type"] not in ("forfeit", "flip", "swap"):
                assert state._surely_legal(seat, move), move
            trial = game.state_from_json(copy_json(state.s))
            ref = game.state_from_json(copy_json(state.s))
            assert trial.try_apply_for(seat, move) == judge(ref, seat, move)
            ref.make(move)
            assert canonical_json(trial.s) == canonical_json(ref.s)
    assert fast > 200


def test_smitten_instruction_copies_are_whole_and_own():
    """A played card's steps, copied by plan (flat dicts, lists of scalars), equal the data and share
    no dict or list with it, as copy_json's copy would."""
    from rules.smitten_2.engine import CARDS, INSTRUCTIONS, _instruction_steps, design

    def containers(x):
        if isinstance(x, dict):
            yield x
            for v in x.values():
                yield from containers(v)
        elif isinstance(x, list):
            yield x
            for v in x:
                yield from containers(v)

    for card in CARDS:
        data = INSTRUCTIONS[str(design(card))]["steps"]
        copy = _instruction_steps(card)
        assert copy == data
        assert not {id(c) for c in containers(copy)} & {id(c) for c in containers(data)}, card


def test_smitten_remembered_options_resolve_as_the_long_way():
    """Smitten 2 remembers resolved options by their values and types: the same answers and the
    same refusals as Game.resolve_options, 1 never taken for true after true was resolved."""
    from rules.core import Game, SetupError
    game = rules.get_game("smitten-2")
    asks = [{"solo_easy": True}, {"solo_easy": 1}, {"solo_easy": True}, {"difficulty": "hard"},
            {"difficulty": "nightmare"}, {"nope": 1}, {}, None, {"difficulty": ["hard"]}]
    for options in asks * 2:
        try:
            expected = Game.resolve_options(game, options)
        except SetupError as exc:
            with pytest.raises(SetupError, match=re.escape(str(exc))):
                game.resolve_options(options)
            continue
        got = game.resolve_options(options)
        assert got == expected
        got["difficulty"] = "changed"  # the caller's own copy
    assert game.resolve_options({"solo_easy": True})["difficulty"] == "medium"


@pytest.mark.parametrize("players, options", SMITTEN_SETTINGS)
def test_smitten_open_end_question_decides_as_asking_at_once(players, options):
    """A move the validator makes (try_apply_for) leaves whether the game ends open until the next
    move or a reader asks: the verdicts, every read between moves and the final state are those of
    judging each move and making it at once, wrong moves (mutants) among them."""
    from rules.core import canonical_json
    game = rules.get_game("smitten-2")
    rng = random.Random(11)
    left_open = 0
    for seed in range(8):
        transcript = play_game("smitten-2", seed, policy="random" if seed % 2 else "heuristic",
                               options=options, num_players=players)
        setup, opts = transcript["setup"], transcript["options"]
        probe = game.new_state(setup=setup, options=opts, num_players=players)
        entries = []
        for index, entry in enumerate(transcript["moves"]):
            player, move = entry["player"], {k: v for k, v in entry.items() if k != "player"}
            if index % 3 == 1:  # a wrong move now and then, before the recorded one
                entries.append((player, rng.choice(list(mutants(move, probe, rng)))))
            entries.append((player, move))
            probe.apply(move)
        for read_between in (False, True):
            lazy = game.new_state(setup=setup, options=opts, num_players=players)
            eager = game.new_state(setup=setup, options=opts, num_players=players)
            for player, move in entries:
                verdict = judge(eager, player, move)
                if verdict.ok:
                    eager.make(move)
                assert lazy.try_apply_for(player, move) == verdict, move
                left_open += bool(lazy._pending)
                if read_between:
                    assert lazy.is_terminal() == eager.is_terminal()
                    assert canonical_json(lazy.s) == canonical_json(eager.s)
            assert lazy.result() == eager.result()
            assert canonical_json(lazy.s) == canonical_json(eager.s)
    assert left_open > 20


OBREN_SETTINGS = [(2, {}), (2, {"numbering": "1-4-twice", "repetition": 0}), (1, {}), (1, {"goal": "four-lines"})]


@pytest.mark.parametrize("players, options", OBREN_SETTINGS)
def test_obren_one_pass_judgement_agrees_with_check(players, options):
    """Obren Buttons' one-pass judgement (try_apply) passes only what check passes, legal moves,
    mutants and every button's every path (reversals of the last swap too) alike, and passes every
    placement and movement check passes."""
    from rules.obren_buttons import board as B
    rng = random.Random(5)
    fast = reversals = 0
    for state in _random_states("obren-buttons", players, options, range(4)):
        legal = state.legal_moves()
        moves = legal + [m for move in rng.sample(legal, min(4, len(legal))) for m in mutants(move, state, rng)]
        moves += [{"type": "move", "button": name, "from": B.CELLS[i], "to": end}
                  for i, name in enumerate(state.s["board"]) if name
                  for end in B.destinations(B.ALL_BUTTONS[name][0], B.CELLS[i], B.ALL_BUTTONS[name][1])]
        reversals += sum(state.check(m).rule == "no-reversals" for m in moves)
        for move in moves:
            quick = state._surely_legal(move)
            verdict = state.check(move)
            assert not quick or verdict.ok, (move, verdict)
            assert quick or not verdict.ok or move.get("type") == "forfeit", move
            fast += quick
    assert fast > 500 and (players == 1 or reversals > 0)
