"""Twin Tower City seats at the table: six seats with a hand each, Light and Dark
by seat as the engine's team assignment defines; New game takes the seated
players in seat order; team results read in words on the panel."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

import rules
import test_ttc_mod
from rules.players import choose
from modtable import build_save
from test_ttc_mod import Table
from tts_builder.save import hand_transforms
from tts_builder.simulate import play_game
from tts_builder.validate import validate_data

GAME_ID = "twin-tower-city"
SEAT_COLORS = ["White", "Red", "Blue", "Green", "Yellow", "Purple"]


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict[str, Any]:
    return build_save(tmp_path_factory.mktemp("build"), GAME_ID)


def test_six_seats_each_with_a_hand_on_its_side_of_the_table(built):
    hands = hand_transforms(built)
    assert list(hands) == SEAT_COLORS
    game = rules.get_game(GAME_ID)
    opts = dict(game.options)
    for seat, color in enumerate(SEAT_COLORS):
        # the engine's side of seat s (Light near, by default) is the edge its hand lies on
        near = game.seat_side(seat, opts) == opts["seat0_side"]
        assert (hands[color]["posZ"] < 0) == near, color
    # hands on one edge do not overlap
    for edge in (-1, 1):
        spans = sorted((h["posX"] - h["scaleX"] / 2, h["posX"] + h["scaleX"] / 2)
                       for h in hands.values() if (h["posZ"] > 0) == (edge > 0))
        assert all(a[1] <= b[0] for a, b in zip(spans, spans[1:])), spans


def test_new_game_deals_to_the_seated_players_in_seat_order(built, monkeypatch):
    table = Table(built, deck_seed=3)
    table.fake.unseat("Red")
    table.fake.seat("Blue")
    table.click("Blue", "ttNewGame")
    t = table.transcript()
    assert t["players"] == [{"name": "White", "color": "White"}, {"name": "Blue", "color": "Blue"}]
    # the whole game played by drops and clicks from White's and Blue's seats validates
    monkeypatch.setattr(test_ttc_mod, "COLORS", ["White", "Blue"])
    state, n = test_ttc_mod.play_through(table, seed=3, policy="heuristic")
    assert state.is_terminal()
    saved = table.fake.sandbox.call("onSave")
    report = validate_data({**built, "LuaScriptState": saved}, "save.json")
    assert report.legal and report.finished and report.moves_checked == n, report.summary()
    # a player not in this game cannot move, though seated at the table
    table.fake.seat("Red")
    table.click("Red", "ttForfeit")
    assert table.fake.broadcasts[-1].text.startswith("Not allowed")


@pytest.mark.parametrize("seated", [["White", "Red", "Blue"], ["White", "Red", "Blue", "Green", "Yellow"]])
def test_new_game_refuses_a_player_count_the_game_does_not_allow(built, seated):
    table = Table(built)
    for color in seated:
        table.fake.seat(color)
    table.click("White", "ttNewGame")
    assert f"needs 2 or 4 or 6 seated players; seated now: {', '.join(seated)}." in table.last_broadcast()
    assert table.fake.sandbox.lookup("Game.state") is None


def test_team_play_beyond_the_decks_on_the_table_is_refused_with_the_reason(built):
    table = Table(built)
    for color in SEAT_COLORS[:4]:
        table.fake.seat(color)
    table.click("White", "ttNewGame")
    assert "Team play with 4 players deals from 2 copies of the deck" in table.last_broadcast()
    assert table.fake.sandbox.lookup("Game.state") is None


@pytest.mark.parametrize("players", [4, 6])
def test_a_saved_team_game_loads_and_the_panel_names_the_winning_team(built, players):
    t = play_game(GAME_ID, 11, policy="random", options={"teams": True})
    game = rules.get_game(GAME_ID)
    if players == 6:
        state = game.new_state(seed=11, num_players=6)
        t["setup"], t["moves"] = state.setup(), []
        rng = random.Random(11)
        while not state.is_terminal():
            seat = state.current_player()
            move = choose(game, state, "random", rng)
            state.apply(move)
            t["moves"].append({"player": seat, **move})
        t["result"] = state.result().to_json()
    colors = SEAT_COLORS[:players]
    t["players"] = [{"name": c, "color": c} for c in colors]
    table = Table(built, state=json.dumps({"transcript": t}))
    assert not any("refused" in m.text for m in table.fake.broadcasts), table.fake.broadcasts[-1:]
    result = t["result"]
    status = str(table.ui("tt-status"))
    if result["winner"] is not None:
        side = result["winning_side"]
        team = [c for seat, c in enumerate(colors) if game.seat_side(seat, t["options"]) == side]
        words = ", ".join(team[:-1]) + " and " + team[-1]
        assert status.startswith(f"{side.capitalize()} ({words}) wins"), status
    for side in ("light", "dark"):
        team = [c for seat, c in enumerate(colors) if game.seat_side(seat, t["options"]) == side]
        assert table.ui(f"tt-name-{side}") == f"{side.capitalize()} - " + ", ".join(team[:-1]) + " and " + team[-1]
    report = validate_data({**built, "LuaScriptState": json.dumps({"transcript": t})}, "save.json")
    assert report.legal
