"""Every game's setup parsing and options, fed the wrong types: one SetupError each (the line a
command prints), never another exception (a traceback); whole-number floats in options are kept
as the choice itself (one number type per option, as the Lua mirror reads it)."""

from __future__ import annotations

import copy
from typing import Any

import pytest

import rules
from rules.core import SetupError, canonical_json
from tts_builder.simulate import play_game

WRONG: list[Any] = [None, True, 1, 1.5, "x", "", [], {}, [1], [None], {"a": 1}, [[]], [{}]]


def _variants(setup: Any) -> list[Any]:
    """The setup with each field (at any depth, the first two items of a list) replaced by each
    wrong value, then the setup itself replaced."""
    out: list[Any] = list(WRONG)

    def walk(path: list[Any], value: Any) -> None:
        if isinstance(value, dict):
            keys: list[Any] = sorted(value)
        elif isinstance(value, list):
            keys = list(range(min(2, len(value))))
        else:
            return
        for key in keys:
            for wrong in WRONG:
                changed = copy.deepcopy(setup)
                at = changed
                for step in path:
                    at = at[step]
                at[key] = wrong
                out.append(changed)
            walk(path + [key], value[key])
    walk([], setup)
    return out


@pytest.mark.parametrize("game_id", [g.id for g in rules.all_games()])
def test_a_setup_of_the_wrong_types_is_one_setup_error(game_id: str) -> None:
    game = rules.get_game(game_id)
    for players in game.seat_counts():
        transcript = play_game(game_id, 0, num_players=players)
        for setup in _variants(transcript["setup"]):
            try:
                game.new_state(setup=setup, options=transcript["options"], num_players=players)
            except SetupError as exc:
                assert "\n" not in str(exc)


def test_obren_colors_holding_a_non_string_is_refused_in_one_line() -> None:
    with pytest.raises(SetupError, match="setup.colors"):
        rules.get_game("obren-buttons").new_state(setup={"colors": ["black", 3]}, num_players=2)


def test_an_option_written_as_a_whole_float_is_its_choice() -> None:
    game = rules.get_game("obren-buttons")
    state = game.new_state(seed=0, options={"move_cap": 20.0, "deal_bound": 2.0, "deal": "solvable"},
                           num_players=1)
    assert type(state.options()["move_cap"]) is int and state.options()["move_cap"] == 20
    assert type(state.options()["deal_bound"]) is int
    assert '"move_cap":20,' in canonical_json(state.to_json())
    with pytest.raises(SetupError):
        game.new_state(seed=0, options={"move_cap": 20.5}, num_players=2)
    with pytest.raises(SetupError):
        game.new_state(seed=0, options={"move_cap": True}, num_players=2)


def test_an_obren_deal_that_no_seed_can_make_is_refused_up_front() -> None:
    game = rules.get_game("obren-buttons")
    for bound in (1, 2):
        with pytest.raises(SetupError, match="deal_bound") as caught:
            game.new_state(seed=5, options={"deal": "solvable", "deal_bound": bound, "goal": "four-lines"},
                           num_players=1)
        assert caught.value.field == "options"
    # every seed of a dealable combination deals
    for seed in range(6):
        game.new_state(seed=seed, options={"deal": "solvable", "deal_bound": 2}, num_players=1)


@pytest.mark.parametrize("game_id", [g.id for g in rules.all_games()])
def test_a_refused_seat_count_names_the_players_field(game_id: str) -> None:
    with pytest.raises(SetupError) as caught:
        rules.get_game(game_id).new_state(seed=0, num_players=9)
    assert caught.value.field == "players" and "9" in str(caught.value)


def test_a_transcript_with_a_seat_count_the_game_lacks_names_the_players_field() -> None:
    from tts_builder.errors import InputError
    from tts_builder.transcript import parse_transcript
    transcript = play_game("two-by-two", 0)
    transcript["players"] = [{"name": f"P{i}"} for i in range(5)]
    with pytest.raises(InputError, match=r"x\.json: field players: two-by-two is for 2 to 4 players, not 5"):
        parse_transcript(transcript, "x.json")
