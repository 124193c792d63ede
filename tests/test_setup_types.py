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


def _floats(value: Any) -> Any:
    """``value`` with every int (not a bool) written as a whole float: 1 as 1.0."""
    if isinstance(value, dict):
        return {k: _floats(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_floats(v) for v in value]
    if type(value) is int:
        return float(value)
    return value


@pytest.mark.parametrize("game_id, players", [(g.id, n) for g in rules.all_games() for n in g.seat_counts()])
def test_a_whole_float_is_its_integer_in_both_engines(game_id: str, players: int) -> None:
    """The README's number types: every integer field of a move, a setup or an option written as a
    whole float (2.0) is taken as the integer by both engines: the same verdicts, states and result
    (Lua has one number type, so it cannot refuse 2.0)."""
    import random

    from tts_builder.agreement import AgreementReport, LuaEngine, check_transcript
    from tts_builder.validate import validate_data
    game = rules.get_game(game_id)
    transcript = play_game(game_id, 1, num_players=players)
    floated = dict(transcript, setup=_floats(transcript["setup"]), options=_floats(transcript["options"]),
                   moves=[{**_floats(m), "player": m["player"]} for m in transcript["moves"]])
    changed = canonical_json(floated) != canonical_json(transcript)
    report = validate_data(floated, "floated.json")
    assert report.legal and report.result == transcript["result"], report.summary()
    state = game.new_state(setup=floated["setup"], options=floated["options"], num_players=players)
    plain = game.new_state(setup=transcript["setup"], options=transcript["options"], num_players=players)
    assert canonical_json(state.to_json()) == canonical_json(plain.to_json())
    agreement = AgreementReport(game=game_id)
    assert check_transcript(game_id, floated, LuaEngine(game_id), 1, agreement, random.Random(1)), \
        agreement.disagreements[0].describe(game_id)
    if game_id in ("smitten-2", "obren-buttons", "twin-tower-city", "two-by-two"):
        assert changed, "the transcript holds integers to write as floats"
