"""One suite over every registered game (the OpenSpiel model): random playouts,
legal-move consistency, JSON round trips, determinism, transcripts, results.

Game-agnostic: each test runs every game at each seat count it declares
(:meth:`Game.seat_counts`), cycles through its option values
(:meth:`Game.option_variants`), and reads from the game's metadata what to
expect of observations (``hidden_information``), of seeds (``chance``) and of
results (``result_kind``), so a perfect-information, cooperative or solo game
is served as well as today's card games."""

from __future__ import annotations

import json
import random
from typing import Any, Iterator

import jsonschema
import pytest

import rules
from rules.core import IllegalMove, Result, State, canonical_json, judge
from rules.mutate import mutants
from tts_builder.simulate import play_game
from tts_builder.transcript import full_schema, move_schema_error
from tts_builder.validate import validate_data

from toygames import COUNT, RACE, SOLO, TOY_GAMES  # noqa: E402  (tests/toygames: the kinds no real game is yet)

#: (game id, seat count) for every game, the toy ones too, and every seat count it declares.
TABLES = [(g.id, n) for g in [*rules.all_games(), RACE, SOLO, COUNT] for n in g.seat_counts()]
TABLE_IDS = [f"{g}-{n}p" for g, n in TABLES]


@pytest.fixture(scope="module", autouse=True)
def toy_games_registered() -> Iterator[None]:
    """The toy games, registered for this module only (validate and simulate look games up)."""
    from rules import registry

    with pytest.MonkeyPatch.context() as mp:
        for game_id, target in TOY_GAMES.items():
            mp.setitem(registry._GAMES, game_id, target)
        registry.get_game.cache_clear()
        yield
    registry.get_game.cache_clear()


def seeds(game_id: str, total: int) -> range:
    """``total`` seeds shared out over the game's seat counts (at least 3 each)."""
    return range(max(3, total // len(rules.get_game(game_id).seat_counts())))


def options_for(game: rules.Game, seed: int, players: int) -> dict[str, Any]:
    """Seed i plays option variant i (cycling), so every option value is played; the defaults
    where the variant does not fit the seat count (team play with two seats)."""
    variants = game.option_variants()
    options = variants[seed % len(variants)]
    try:
        game.new_state(seed=seed, options=options, num_players=players)
    except rules.SetupError:
        return {}
    return options


def new_state(game: rules.Game, seed: int, players: int) -> State:
    return game.new_state(seed=seed, options=options_for(game, seed, players), num_players=players)


def playout(game: rules.Game, seed: int, players: int,
            check_every_step: bool = False) -> Iterator[tuple[State, list[Any]]]:
    state = new_state(game, seed, players)
    assert state.num_players() == players
    rng = random.Random(seed)
    steps = 0
    while not state.is_terminal():
        moves = state.legal_moves()
        assert moves, f"seed {seed}: no legal move in a live game"
        if check_every_step:
            yield state, moves
        move = rng.choice([m for m in moves if m.get("type") != "forfeit"] or moves)
        state.apply(move)
        steps += 1
        assert steps <= game.max_game_length, f"seed {seed}: no end within {game.max_game_length} moves"
    assert state.result() is not None
    assert state.legal_moves() == []
    assert state.current_player() is None
    check_result(game, state)


def check_result(game: rules.Game, state: State) -> None:
    """The result fits the game's kind, names real seats, reads back from JSON and has words."""
    result = state.result()
    assert result is not None
    n = state.num_players()
    assert all(0 <= s < n for s in result.winners) and result.winners == sorted(set(result.winners))
    if game.result_kind_for(n) == "competitive":
        assert result.kind in ("competitive", "teams") and result.outcome in ("win", "draw")
        assert result.kind == "competitive" or n > 2, "teams need more than two seats"
        assert len(result.winners) < n, "a competitive game is not won by every seat"
    else:
        assert result.kind == game.result_kind_for(n) and result.outcome in ("win", "loss")
    if result.scores is not None:
        assert len(result.scores) == n
    assert Result.from_json(json.loads(json.dumps(result.to_json()))) == result
    assert result.describe([f"P{i}" for i in range(n)])


@pytest.mark.parametrize("game_id, players", TABLES, ids=TABLE_IDS)
def test_random_playouts_end_within_bound(game_id, players):
    game = rules.get_game(game_id)
    for seed in seeds(game_id, 200):
        for _ in playout(game, seed, players):
            pass


@pytest.mark.parametrize("game_id, players", TABLES, ids=TABLE_IDS)
def test_enumerated_moves_are_accepted_and_others_refused(game_id, players):
    game = rules.get_game(game_id)
    for seed in seeds(game_id, 40):
        rng = random.Random(seed)
        for state, moves in playout(game, seed, players, check_every_step=True):
            before = canonical_json(state.to_json())
            keys = {canonical_json(m) for m in moves}
            assert len(keys) == len(moves), "duplicate legal moves"
            for move in moves:
                verdict = state.check(move)
                assert verdict.ok, f"enumerated move {move} refused: {verdict}"
            # The same move from any seat that may not decide now is not that seat's decision.
            for other in range(players):
                if other not in state.deciders():
                    assert judge(state, other, moves[0]).rule == "turn-order"
            # Mutations of legal moves that are not themselves enumerated must be refused.
            for move in rng.sample(moves, min(3, len(moves))):
                for mutant in mutants(move, state, rng):
                    if canonical_json(state.same_move(mutant)) in keys:  # a listed move written otherwise
                        continue
                    verdict = state.check(mutant)
                    assert not verdict.ok, f"non-enumerated move {mutant} accepted"
                    assert verdict.rule in game.rules, f"rule {verdict.rule!r} missing from the rule table"
                    assert verdict.message
                    with pytest.raises(IllegalMove):
                        state.apply(mutant)
            assert canonical_json(state.to_json()) == before, "check() changed the state"


@pytest.mark.parametrize("game_id, players", TABLES, ids=TABLE_IDS)
def test_state_round_trips_through_json(game_id, players):
    game = rules.get_game(game_id)
    for seed in seeds(game_id, 15):
        for state, moves in playout(game, seed, players, check_every_step=True):
            text = json.dumps(state.to_json(), sort_keys=True)
            again = game.state_from_json(json.loads(text))
            assert json.dumps(again.to_json(), sort_keys=True) == text
            assert again.digest() == state.digest()
            assert canonical_json(again.legal_moves()) == canonical_json(moves)
            clone = state.clone()
            clone.apply(moves[0])
            assert state.digest() == again.digest(), "clone shares data with its original"


@pytest.mark.parametrize("game_id, players", TABLES, ids=TABLE_IDS)
def test_observations_follow_the_games_information(game_id, players):
    """A game with hidden information shows each seat less than the state (never the setup,
    and not the same view to every seat); a perfect-information game shows every seat the same."""
    game = rules.get_game(game_id)
    for seed in seeds(game_id, 15):
        for state, _ in playout(game, seed, players, check_every_step=True):
            views = [canonical_json(state.observation(p)) for p in range(players)]
            if game.hidden_information:
                for p in range(players):
                    assert "setup" not in state.observation(p), "the setup holds the hidden deck order"
                    assert views[p] != canonical_json(state.to_json())
            else:
                assert len(set(views)) == 1, "a perfect-information game shows every seat the same"
            break  # the opening position; a playout's later positions are covered by the round trip
    if game.hidden_information and players > 1:
        state = new_state(game, 0, players)
        assert len({canonical_json(state.observation(p)) for p in range(players)}) > 1, \
            "hidden information, yet every seat sees the same"


@pytest.mark.parametrize("game_id, players", TABLES, ids=TABLE_IDS)
def test_seeds_matter_only_in_games_of_chance(game_id, players):
    game = rules.get_game(game_id)
    digests = {game.new_state(seed=s, num_players=players).digest() for s in range(6)}
    if game.chance:
        assert len(digests) > 1, "a game of chance started the same from every seed"
    else:
        assert len(digests) == 1, "a game without chance depends on the seed"


@pytest.mark.parametrize("game_id, players", TABLES, ids=TABLE_IDS)
def test_same_seed_same_transcript_and_it_validates(game_id, players):
    schema = full_schema(game_id)
    game = rules.get_game(game_id)
    for seed in seeds(game_id, 8):
        for policy in ("random", "heuristic"):
            options = options_for(game, seed, players)
            t1 = play_game(game_id, seed, policy=policy, options=options, num_players=players)
            t2 = play_game(game_id, seed, policy=policy, options=options, num_players=players)
            assert canonical_json(t1) == canonical_json(t2)
            for i, entry in enumerate(t1["moves"]):  # a failing move named by its type and field
                assert move_schema_error(game_id, entry) is None, f"move {i}: {move_schema_error(game_id, entry)}"
            jsonschema.validate(t1, schema)
            assert len(t1["players"]) == players
            report = validate_data(json.loads(json.dumps(t1)), "sim.json", players=players)
            assert report.legal, report.summary()
            assert report.finished and report.result == t1["result"]
    if game.chance:
        assert canonical_json(play_game(game_id, 1, num_players=players)) != \
            canonical_json(play_game(game_id, 2, num_players=players))


@pytest.mark.parametrize("game_id, players", TABLES, ids=TABLE_IDS)
def test_setup_replays_without_seed(game_id, players):
    game = rules.get_game(game_id)
    for seed in seeds(game_id, 10):
        state = new_state(game, seed, players)
        again = game.new_state(seed=None, setup=state.setup(), options=state.options(), num_players=players)
        assert again.digest() == state.digest()


def test_every_game_declares_its_metadata():
    for game in rules.all_games():
        assert isinstance(game.hidden_information, bool) and isinstance(game.chance, bool)
        assert game.seat_counts() == tuple(sorted(set(game.seat_counts())))
        for n in game.seat_counts():
            assert game.new_state(seed=0, num_players=n).num_players() == n
