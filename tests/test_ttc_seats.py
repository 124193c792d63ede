"""Twin Tower City seats at the table: six seats with a hand each, Light and Dark
by seat as the engine's team assignment defines; New game takes the seated
players in seat order; team results read in words on the panel."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

import rules
import test_ttc_mod
from rules.players import choose
from modtable import build_save
from test_ttc_mod import Table
from tts_builder.art.pipeline import load_manifest
from tts_builder.build import component_rows, load_table_layout
from tts_builder.errors import InputError
from tts_builder.save import hand_transforms, parse_table_layout, plan_table
from tts_builder.simulate import play_game
from tts_builder.validate import validate_data

GAME_ID = "twin-tower-city"
REPO = Path(__file__).resolve().parents[1]
SEAT_COLORS = ["White", "Red", "Blue", "Green", "Yellow", "Purple"]


@pytest.fixture(scope="module")
def build_dir(tmp_path_factory) -> Any:
    out = tmp_path_factory.mktemp("build")
    build_save(out, GAME_ID)
    return out


@pytest.fixture(scope="module")
def built(build_dir) -> dict[str, Any]:
    return json.loads((build_dir / GAME_ID / f"{GAME_ID}.json").read_text())


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
    assert f"needs 2, 4, 6 seated players; seated now: {', '.join(seated)}." in table.last_broadcast()
    assert table.fake.sandbox.lookup("Game.state") is None


def team_deal(table: Table, players: int) -> dict[str, Any]:
    """The deal the notebook documents for teams: pair m is dealt from copy m + 1 of the deck
    (read top first, a copy's '<id>#<k>' cards as <id>) by the two-player deal; copy 1 gives the coin."""
    decks = [table.decks["main"], table.decks["copy-2"], table.decks["copy-3"]]
    seats: list[Any] = []
    coin = None
    for m in range(players // 2):
        order = [c.getGMNotes().split("#")[0] for c in decks[m].contents]
        part = test_ttc_mod.python_deal(order)
        coin = part["coin"] if coin is None else coin
        seats += part["seats"]
    return {"coin": coin, "seats": seats}


@pytest.mark.parametrize("players, deck_seed", [(4, 21), (6, 22)])
def test_team_game_dealt_from_a_deck_copy_per_pair_and_played_by_drops_and_clicks_validates(
        built, monkeypatch, players, deck_seed):
    colors = SEAT_COLORS[:players]
    table = Table(built, deck_seed=deck_seed)
    for color in colors:
        table.fake.seat(color)
    expected = team_deal(table, players)  # the decks' order, top first, as the fake shuffle leaves it
    table.click("White", "ttNewGame")
    t = table.transcript()
    assert [p["color"] for p in t["players"]] == colors
    setup = t["setup"]
    assert setup == expected
    game = rules.get_game(GAME_ID)
    state = game.new_state(setup=setup, options=t["options"])  # the engine accepts the deal
    assert state.to_json()["num_players"] == players
    light = [c for s, c in enumerate(colors) if s % 2 == 0]
    assert f"Light ({', '.join(light[:-1])} and {light[-1]}) against Dark" in table.fake.broadcasts[-1].text
    # every pair's cards come out of its own copy: hands hold the seat's copy, the rest stays in the decks
    for seat, entry in enumerate(setup["seats"]):
        hand = table.hands[colors[seat]]
        for cid in entry["hand"]:
            obj = table.fake.get_object(table.guid_of[test_ttc_mod.physical(cid, seat)])
            assert obj.container is None and obj.position[0::2] == (hand["posX"], hand["posZ"])
    for m, name in enumerate(("main", "copy-2", "copy-3")):
        assert len(table.decks[name].contents) == (80 - 2 * 17 if m < players // 2 else 80)
    # the panel names the teams
    for side, team in (("light", light), ("dark", [c for s, c in enumerate(colors) if s % 2 == 1])):
        assert table.ui(f"tt-name-{side}") == f"{side.capitalize()} - " + ", ".join(team[:-1]) + " and " + team[-1]
    monkeypatch.setattr(test_ttc_mod, "COLORS", colors)
    final, n = test_ttc_mod.play_through(table, seed=deck_seed, policy="heuristic")
    assert final.is_terminal() and n >= players * 10
    transcript = table.transcript()
    report = validate_data({**built, "LuaScriptState": json.dumps({"transcript": transcript})}, "save.json")
    assert report.legal and report.finished and report.moves_checked == n, report.summary()
    assert rules.canonical_json(table.lua_state()) == rules.canonical_json(final.to_json())
    result = final.result().to_json()
    status = str(table.ui("tt-status"))
    if result["winner"] is not None:
        side = result["winning_side"]
        team = [c for s, c in enumerate(colors) if game.seat_side(s, t["options"]) == side]
        assert status.startswith(f"{side.capitalize()} ({', '.join(team[:-1])} and {team[-1]}) wins"), status
    else:
        assert status.startswith("A draw"), status
    # played cards lie in their round's column, each seat's on its own side of the centre line
    for rec in final.to_json()["rounds"]:
        column = table.zone_pos(f"round-{rec['round']}")
        for play in rec["table"]:
            obj = table.fake.get_object(table.guid_of[test_ttc_mod.physical(play["card"], play["seat"])])
            assert obj.position[0] == column[0] and not obj.is_face_down
            assert (obj.position[2] < column[2]) == (play["seat"] % 2 == 0)


def test_a_card_of_another_pairs_deck_copy_is_refused_and_goes_back(built, monkeypatch):
    colors = SEAT_COLORS[:4]
    table = Table(built, deck_seed=23)
    for color in colors:
        table.fake.seat(color)
    table.click("White", "ttNewGame")
    game = rules.get_game(GAME_ID)
    t = table.transcript()
    state = game.new_state(setup=t["setup"], options=t["options"])
    monkeypatch.setattr(test_ttc_mod, "COLORS", colors)
    rng = random.Random(23)
    while state.current_player() < 2:  # play on until a seat of the second pair (copy 2) is to move
        move = choose(game, state, "heuristic", rng)
        test_ttc_mod.act(table, state, move)
        state.apply(move)
    seat = state.current_player()
    data = state.to_json()
    battle = next(m["card"] for m in state.legal_moves() if m["type"] == "play-battle")
    assert state.check({"type": "play-battle", "card": battle}).ok  # the move itself is legal ...
    n = len(table.transcript()["moves"])
    wrong = test_ttc_mod.physical(battle, seat - 2)  # ... but not with copy 1's card of that id
    owner = next((s for s in (0, 1) if battle in data["hands"][s]), None)
    table.drop(colors[seat], wrong, f"round-{data['round']}")
    assert "[card-in-hand]" in table.last_broadcast() and f"is of deck copy 1; {colors[seat]}" in table.last_broadcast()
    assert len(table.transcript()["moves"]) == n
    if owner is not None:  # it goes back to the hand of the player it was dealt to
        obj = table.fake.get_object(table.guid_of[wrong])
        hand = table.hands[colors[owner]]
        assert obj.position[0::2] == (hand["posX"], hand["posZ"])
    # the seat's own copy of the card is accepted
    table.drop(colors[seat], test_ttc_mod.physical(battle, seat), f"round-{data['round']}")
    assert table.transcript()["moves"][-1] == {"player": seat, "type": "play-battle", "card": battle}


def test_the_table_holds_a_deck_copy_per_pair_of_seats(built):
    decks = {o["GMNotes"]: o for o in built["ObjectStates"] if o["Name"] == "Deck"}
    assert sorted(decks) == ["copy-2", "copy-3", "main"]
    ids = {name: [c["GMNotes"] for c in d["ContainedObjects"]] for name, d in decks.items()}
    assert ids["copy-2"] == [f"{c}#2" for c in ids["main"]] and ids["copy-3"] == [f"{c}#3" for c in ids["main"]]
    assert len(ids["main"]) == 80
    guids = [o["GUID"] for o in decks.values()] + [c["GUID"] for d in decks.values() for c in d["ContainedObjects"]]
    assert len(set(guids)) == len(guids)
    # a copy shows the same faces as copy 1
    assert [c["CardID"] for c in decks["copy-2"]["ContainedObjects"]] == decks["main"]["DeckIDs"]


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


def test_one_art_deck_placed_twice_needs_a_copy_number_each(build_dir):
    """save.py's generic rule: several placements of one art deck are copies 1, 2, ...;
    the same copy twice, or a copy number below 1, is refused naming the field."""
    layout = json.loads((REPO / "art_src" / GAME_ID / "table.json").read_text())
    manifest = load_manifest(build_dir, GAME_ID)
    game = rules.get_game(GAME_ID)
    twice = json.loads(json.dumps(layout))
    twice["decks"][2]["copy"] = 2
    with pytest.raises(InputError, match="art deck 'deck' copy 2 is placed twice"):
        plan_table(parse_table_layout(twice, game_id=GAME_ID, game_data=game.data), manifest, game.data, component_rows(GAME_ID))
    twice["decks"][2]["copy"] = 0
    with pytest.raises(InputError, match=r"decks\[2\]\.copy: expected a copy number 1, 2, \.\.\., not 0"):
        parse_table_layout(twice, game_id=GAME_ID, game_data=game.data)
    # the copies' GUIDs are derived: the same layout plans the same GUIDs, copy 1 keeps the plain ids
    plan = plan_table(load_table_layout(GAME_ID), manifest, game.data, component_rows(GAME_ID))
    again = plan_table(load_table_layout(GAME_ID), manifest, game.data, component_rows(GAME_ID))
    assert [c.guid for c in plan.all_cards()] == [c.guid for c in again.all_cards()]
    assert sorted(c.id for c in plan.cards["main"]) == sorted(game.cards)
    assert {c.copy for c in plan.cards["copy-3"]} == {3} and {c.art_id for c in plan.cards["copy-3"]} == set(game.cards)


def test_team_play_needs_the_teams_facing_each_other(built):
    table = Table(built)
    for color in ("Blue", "Yellow"):  # White, Red, Blue, Yellow: three at the near edge, one at the far
        table.fake.seat(color)
    table.click("White", "ttNewGame")
    assert ("Team play: the teams sit facing each other, 2 players at each edge (White, Blue, Yellow at one,"
            " Red, Green, Purple at the other)") in table.last_broadcast()
    assert "seated now: White, Red, Blue, Yellow." in table.last_broadcast()
    assert table.fake.sandbox.lookup("Game.state") is None
    table.fake.unseat("Yellow")
    table.fake.seat("Green")
    table.click("White", "ttNewGame")
    assert table.transcript()["setup"]["seats"][3]["hand"]


def test_a_team_game_saved_midway_reloads_with_its_cards_and_plays_on(built, monkeypatch):
    colors = SEAT_COLORS
    table = Table(built, deck_seed=24)
    for color in colors:
        table.fake.seat(color)
    table.click("White", "ttNewGame")
    monkeypatch.setattr(test_ttc_mod, "COLORS", colors)
    test_ttc_mod.play_through(table, seed=24, policy="random", limit=25)
    before = table.transcript()
    state_before = table.lua_state()
    table.fake.save_and_reload()
    assert table.transcript() == before and len(before["moves"]) == 25
    assert rules.canonical_json(table.lua_state()) == rules.canonical_json(state_before)
    # a card lying in its slot is put back there by the sync after reload
    play = state_before["table"][-1]
    obj = table.fake.get_object(table.guid_of[test_ttc_mod.physical(play["card"], play["seat"])])
    slot = obj.position
    obj.setPosition({"x": 0, "y": 2, "z": 0})
    table.fake.save_and_reload()
    assert table.fake.get_object(obj.getGUID()).position == slot
    final, n = test_ttc_mod.play_through(table, seed=25, policy="heuristic")
    assert final.is_terminal()
    report = validate_data({**built, "LuaScriptState": table.fake.sandbox.call("onSave")}, "save.json")
    assert report.legal and report.finished and report.moves_checked == n, report.summary()
