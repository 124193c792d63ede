"""One suite over every registered game (the OpenSpiel model): random playouts,
legal-move consistency, JSON round trips, determinism, transcripts."""

from __future__ import annotations

import json
import random

import pytest

import rules
from rules.core import IllegalMove, canonical_json
from rules.mutate import mutants
from tts_builder.simulate import play_game
from tts_builder.transcript import full_schema
from tts_builder.validate import validate_data

import jsonschema

GAMES = rules.game_ids()
#: games where every player sees everything (nothing hidden to test for).
OPEN_INFORMATION = {"obren-buttons"}
SEEDS = range(40)


def playout(game, seed: int, check_every_step: bool = False):
    state = game.new_state(seed=seed)
    rng = random.Random(seed)
    steps = 0
    while not state.is_terminal():
        moves = state.legal_moves()
        assert moves, f"seed {seed}: no legal move in a live game"
        if check_every_step:
            yield state, moves
        move = rng.choice([m for m in moves if m["type"] != "forfeit"] or moves)
        state.apply(move)
        steps += 1
        assert steps <= game.max_game_length, f"seed {seed}: no end within {game.max_game_length} moves"
    assert state.result() is not None
    assert state.legal_moves() == []


@pytest.mark.parametrize("game_id", GAMES)
def test_random_playouts_end_within_bound(game_id):
    game = rules.get_game(game_id)
    for seed in range(200):
        for _ in playout(game, seed):
            pass


@pytest.mark.parametrize("game_id", GAMES)
def test_enumerated_moves_are_accepted_and_others_refused(game_id):
    game = rules.get_game(game_id)
    for seed in SEEDS:
        rng = random.Random(seed)
        for state, moves in playout(game, seed, check_every_step=True):
            before = canonical_json(state.to_json())
            keys = {canonical_json(m) for m in moves}
            assert len(keys) == len(moves), "duplicate legal moves"
            for move in moves:
                verdict = state.check(move)
                assert verdict.ok, f"enumerated move {move} refused: {verdict}"
            # Mutations of legal moves that are not themselves enumerated must be refused.
            for move in rng.sample(moves, min(3, len(moves))):
                for mutant in mutants(move, state, rng):
                    if canonical_json(mutant) in keys:
                        continue
                    verdict = state.check(mutant)
                    assert not verdict.ok, f"non-enumerated move {mutant} accepted"
                    assert verdict.rule in game.rules, f"rule {verdict.rule!r} missing from the rule table"
                    assert verdict.message
                    with pytest.raises(IllegalMove):
                        state.apply(mutant)
            assert canonical_json(state.to_json()) == before, "check() changed the state"


@pytest.mark.parametrize("game_id", GAMES)
def test_state_round_trips_through_json(game_id):
    game = rules.get_game(game_id)
    for seed in range(15):
        for state, moves in playout(game, seed, check_every_step=True):
            text = json.dumps(state.to_json(), sort_keys=True)
            again = game.state_from_json(json.loads(text))
            assert json.dumps(again.to_json(), sort_keys=True) == text
            assert again.digest() == state.digest()
            assert canonical_json(again.legal_moves()) == canonical_json(moves)
            clone = state.clone()
            clone.apply(moves[0])
            assert state.digest() == again.digest(), "clone shares data with its original"


@pytest.mark.parametrize("game_id", GAMES)
def test_observation_hides_other_hands(game_id):
    if game_id in OPEN_INFORMATION:
        pytest.skip("open information: nothing is hidden")
    game = rules.get_game(game_id)
    a = game.new_state(seed=1)
    b = game.new_state(seed=2)
    seat = a.current_player()
    # Observations must not contain the full hidden state.
    obs = json.dumps(a.observation(seat), sort_keys=True)
    assert "setup" not in a.observation(seat)
    assert obs != json.dumps(a.to_json(), sort_keys=True)
    assert a.observation(seat) != b.observation(seat)


@pytest.mark.parametrize("game_id", GAMES)
def test_same_seed_same_transcript_and_it_validates(game_id):
    schema = full_schema(game_id)
    for seed in range(8):
        for policy in ("random", "heuristic"):
            t1 = play_game(game_id, seed, policy=policy)
            t2 = play_game(game_id, seed, policy=policy)
            assert canonical_json(t1) == canonical_json(t2)
            jsonschema.validate(t1, schema)
            report = validate_data(json.loads(json.dumps(t1)), "sim.json")
            assert report.legal, report.summary()
            assert report.finished and report.result == t1["result"]
    assert canonical_json(play_game(game_id, 1)) != canonical_json(play_game(game_id, 2))


@pytest.mark.parametrize("game_id", GAMES)
def test_setup_replays_without_seed(game_id):
    game = rules.get_game(game_id)
    for seed in range(10):
        state = game.new_state(seed=seed)
        again = game.new_state(seed=None, setup=state.setup(), options=state.options())
        assert again.digest() == state.digest()
