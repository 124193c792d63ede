"""Event-level tests of the built Two & Two mod: the real save's Global script
runs under Lua 5.2 with a stubbed TTS API; cards are dropped on the mat and
panel buttons clicked as a player would; the transcript the mod records
validates in Python."""

from __future__ import annotations

import json
import random
import re
from typing import Any

import pytest

import rules
from rules.players import choose
from rules.two_and_two.engine import CARDS
from modtable import COLORS, ModTable, build_save
from tts_builder.lualint import lint_lua
from tts_builder.validate import validate_data

GAME_ID = "two-and-two"


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict[str, Any]:
    return build_save(tmp_path_factory.mktemp("build"), GAME_ID)


class Table(ModTable):
    def lua_state(self) -> dict[str, Any]:
        return self.fake.sandbox.from_lua(self.fake.sandbox.lookup("Game.state"), empty_as="list")


UPRIGHT = 180.0


def act(table: Table, seat: int, move: dict[str, Any], deny_target: dict[str, str]) -> None:
    """Make ``move`` the way a player at the table would."""
    color = COLORS[seat]
    t = move["type"]
    if t == "start-stack":
        table.drop(color, move["card"], "stack", UPRIGHT if move["orientation"] == "up" else UPRIGHT + 180)
    elif t == "play":
        if move.get("flip"):
            table.drop(color, move["flip"], "flip")
        table.drop(color, move["card"], "stack")
    elif t == "wild":
        table.drop(color, move["card"], "stack")
    elif t == "skip":
        table.drop(color, move["card"], "skip-own" if move["target"] == "own" else "skip-opponent")
    elif t == "deny":
        pending = table.lua_state()["pending"]
        want = "flip" if (not pending["chain"] and move["target"] == pending["play"].get("flip")) else "card"
        if deny_target.get(color, "card") != want:
            table.click(color, "ttDenyTarget")
            deny_target[color] = want
        table.drop(color, move["card"], "deny")
    else:
        table.click(color, {"draw": "ttDraw", "end-turn": "ttEndTurn", "pass": "ttPass",
                            "forfeit": "ttForfeit"}[t])


def play_through(table: Table, seed: int, limit: int | None = None) -> tuple[Any, int]:
    """Play the game the mod dealt, choosing moves with a simulated player."""
    game = rules.get_game(GAME_ID)
    t = table.transcript()
    state = game.new_state(setup=t["setup"], options=t["options"])
    rng = random.Random(seed)
    deny_target: dict[str, str] = {}
    n = 0
    while not state.is_terminal() and (limit is None or n < limit):
        seat = state.current_player()
        move = choose(game, state, "heuristic" if seed % 2 else "random", rng)
        act(table, seat, move, deny_target)
        state.apply(move)
        n += 1
        recorded = table.transcript()["moves"]
        assert len(recorded) == n, f"move {n - 1} {move} not recorded: {table.fake.broadcasts[-1:]}"
        assert recorded[-1] == {"player": seat, **move}
    return state, n


def test_generated_lua_compiles_and_passes_the_moonsharp_lint(built):
    assert lint_lua(built["LuaScript"], "Global.lua") == []
    assert "Two &amp; Two" in built["XmlUI"]


def test_a_whole_game_played_through_table_events_validates(built):
    table = Table(built)
    table.click("White", "ttNewGame")
    state, n = play_through(table, seed=3)
    assert state.is_terminal() and n > 30
    transcript = table.transcript()
    assert table.lua_state()["phase"] == "over"
    assert transcript["result"]["winner"] == state.result().winner
    report = validate_data({**built, "LuaScriptState": json.dumps({"transcript": transcript})}, "save.json")
    assert report.legal and report.finished, report.summary()
    assert report.moves_checked == n


def test_an_illegal_drop_is_refused_with_its_rule_and_the_card_goes_back(built):
    table = Table(built)
    table.click("White", "ttNewGame")
    game = rules.get_game(GAME_ID)
    state = game.new_state(setup=table.transcript()["setup"])
    top = state.legal_moves()[0]["card"]
    act(table, 0, {"type": "start-stack", "card": top, "orientation": "up"}, {})
    state.apply({"type": "start-stack", "card": top, "orientation": "up"})
    hand = state.to_json()["hands"][1]
    bad = next((c for c in hand if not state.check({"type": "play", "card": c}).ok), None)
    if bad is None:
        pytest.skip("this deal gives Red no unplayable card")
    verdict = state.check({"type": "play", "card": bad})
    obj = table.card(bad)
    origin = obj.getPosition()
    table.fake.fire("onObjectPickUp", "Red", obj)
    table.fake.drop(obj, "Red", position=table.zone_pos("stack"))
    assert f"[{verdict.rule}]" in table.fake.broadcasts[-1].text
    assert len(table.transcript()["moves"]) == 1
    back = obj.getPosition()
    assert (back.x, back.z) == (origin.x, origin.z)
    # the wrong player is refused too, by turn order
    table.click("White", "ttDraw")
    assert "[turn-order]" in table.fake.broadcasts[-1].text


def test_the_recorder_survives_save_and_reload_without_losing_or_doubling(built):
    table = Table(built)
    table.click("White", "ttNewGame")
    play_through(table, seed=5, limit=12)
    before = table.transcript()
    saved = table.fake.save_and_reload()
    assert json.loads(saved)["transcript"] == before
    after = table.transcript()
    assert after == before and len(after["moves"]) == 12
    # the reloaded mod goes on from where it was
    state_after = table.lua_state()
    game = rules.get_game(GAME_ID)
    replay = game.new_state(setup=before["setup"])
    for entry in before["moves"]:
        replay.apply({k: v for k, v in entry.items() if k != "player"})
    assert rules.canonical_json(replay.to_json()) == rules.canonical_json(state_after)


def test_a_rewind_to_an_older_state_restores_that_game(built):
    table = Table(built)
    table.click("White", "ttNewGame")
    play_through(table, seed=7, limit=6)
    older = table.fake.sandbox.call("onSave")
    play_through_more = table.transcript()
    assert len(play_through_more["moves"]) == 6
    # TTS calls onLoad with the older script state on a rewind
    rewound = Table(built, state=older)
    assert rewound.transcript() == json.loads(older)["transcript"]


def test_buttons_before_a_game_say_what_to_do(built):
    table = Table(built)
    table.click("White", "ttDraw")
    assert "New game" in table.fake.broadcasts[-1].text
    assert "New game" in str(table.fake.ui.getValue("tt-status"))


def test_a_second_game_after_the_deck_ran_out(built):
    table = Table(built)
    table.click("White", "ttNewGame")
    play_through(table, seed=3)
    assert table.fake.get_object(table.deck.getGUID()).isDestroyed(), "TTS removes a deck drawn down to one card"
    # Pressing New game with the cards scattered says what to do.
    table.click("White", "ttNewGame")
    assert "DECK area" in table.fake.broadcasts[-1].text
    # A player stacks the cards on the DECK area; one is still missing.
    pile = table.fake.spawn_deck([], guid="abc123", position=table.zone_pos("deck"))
    ids = list(table.guid_of)
    for card_id in ids[:-1]:
        obj = table.fake.get_object(table.guid_of[card_id])
        if obj.container is not None and obj.container is not pile:
            obj = table.fake.take_from(obj.container, guid=obj.getGUID())
        if obj.container is None:
            table.fake.put_into(pile, obj)
    table.fake.step()
    last = table.fake.get_object(table.guid_of[ids[-1]])
    last.setPosition({"x": 40, "y": 1, "z": 40})  # far from the deck: New game gathers it anyway
    table.click("White", "ttNewGame")
    transcript = table.transcript()
    assert transcript["moves"] == [] and len(transcript["setup"]["deck"]) == len(ids)
    assert rules.get_game(GAME_ID).new_state(setup=transcript["setup"]) is not None


def test_cards_do_not_merge_into_the_deck_and_the_deck_is_not_shuffled_mid_game(built):
    table = Table(built)
    table.click("White", "ttNewGame")
    hand_card = table.transcript()["setup"]["deck"][0]          # dealt to White
    obj = table.card(hand_card)
    assert table.fake.put_into(table.deck, obj) is False          # tryObjectEnterContainer refuses
    assert obj.container is None
    assert table.fake.fire("tryObjectRandomize", table.deck, "White") is False
    assert "shuffled only by New game" in table.last_broadcast()


def test_a_lone_tester_plays_both_seats_by_changing_colour(built):
    table = Table(built)
    table.fake.unseat("Red")
    table.click("White", "ttNewGame")
    t = table.transcript()
    assert [p["color"] for p in t["players"]] == COLORS
    said = [m.text for m in table.fake.broadcasts]
    assert any(m.startswith("Hot seat: one player plays White and Red") and "player list" in m for m in said)
    game = rules.get_game(GAME_ID)
    state = game.new_state(setup=t["setup"])
    seated = "White"
    while len(set(m["player"] for m in table.transcript()["moves"])) < 2:
        color = COLORS[state.current_player()]
        if color != seated:  # the panel says how; the tester changes colour to the seat to move
            assert f"Hot seat: to move as {color}" in str(table.fake.ui.getValue("tt-status"))
            table.fake.unseat(seated)
            table.fake.seat(color)
            table.fake.fire("onPlayerChangeColor", color)  # what TTS calls as a player changes colour
            seated = color
        assert "Hot seat" not in str(table.fake.ui.getValue("tt-status"))  # seated there: nothing to say
        move = next(m for m in state.legal_moves() if m["type"] in ("start-stack", "draw", "end-turn"))
        act(table, COLORS.index(color), move, {})
        state.apply(move)
        assert table.transcript()["moves"][-1] == {"player": COLORS.index(color), **move}


def test_new_game_is_for_the_seated_players_only_when_both_sit(built):
    table = Table(built)
    table.fake.seat("Blue")
    table.click("Blue", "ttNewGame")
    assert "Only seated players (White, Red)" in table.last_broadcast()
    assert table.lua_state() is None or table.lua_state() == {}


def test_forfeit_and_a_new_game_mid_game_take_a_second_press(built):
    table = Table(built)
    table.click("White", "ttNewGame")
    play_through(table, seed=3, limit=4)
    seat = table.lua_state()["active"]
    color = COLORS[seat]
    table.click(color, "ttNewGame")
    assert "Press New game again" in table.last_broadcast() and len(table.transcript()["moves"]) == 4
    table.click(color, "ttForfeit")
    assert "Press Forfeit again" in table.last_broadcast() and table.lua_state()["phase"] != "over"
    table.click(color, "ttForfeit")
    assert table.lua_state()["phase"] == "over"
    assert table.transcript()["result"]["reason"] == "forfeit"


def test_the_first_set_of_a_second_game_goes_to_its_winner_pile(built):
    table = Table(built)
    table.click("White", "ttNewGame")
    play_through(table, seed=3)
    # second game: everything back on the DECK area, then New game
    pile = table.fake.spawn_deck([], guid="abc123", position=table.zone_pos("deck"))
    for guid in table.guid_of.values():
        obj = table.fake.get_object(guid)
        if obj.container is not None and obj.container is not pile:
            obj = table.fake.take_from(obj.container, guid=guid)
        if obj.container is None:
            table.fake.put_into(pile, obj)
    table.fake.step()
    table.click("White", "ttNewGame")
    assert table.transcript()["moves"] == []
    game = rules.get_game(GAME_ID)
    state = game.new_state(setup=table.transcript()["setup"])
    rng = random.Random(1)
    deny_target: dict[str, str] = {}
    while not any(state.to_json()["sets"]):
        seat = state.current_player()
        move = choose(game, state, "heuristic", rng)
        act(table, seat, move, deny_target)
        state.apply(move)
    scorer = 0 if state.to_json()["sets"][0] else 1
    size = state.to_json()["sets"][scorer][0]
    pile_zone = table.zone_pos(f"score-{scorer}")
    on_pile = [g for g in table.guid_of.values()
               if table.fake.get_object(g).container is None
               and abs(table.fake.get_object(g).getPosition().x - pile_zone[0]) < 0.01
               and abs(table.fake.get_object(g).getPosition().z - pile_zone[2]) < 0.01]
    assert len(on_pile) == size, f"{len(on_pile)} cards on seat {scorer}'s pile, the set had {size}"


def test_the_deny_window_is_chosen_on_the_panel_before_a_game_and_recorded(built):
    """The host picks the rulebook's reading (the ``deny_window`` option) with the panel's toggle
    (runtime/options.lua.j2); New game plays it, the transcript records it, a reload shows it."""
    game = rules.get_game(GAME_ID)
    table = Table(built)
    assert table.fake.ui.getValue("tt-opt-deny_window") == "Deny window: when-holding"
    assert table.fake.ui.getValue("tt-opt-denied_symbol_to_hand") == "Denied Symbol card to hand: false"
    table.click("Red", "ttTableOption", "tt-opt-deny_window", seconds=0.1)
    assert table.last_broadcast().startswith("Red set the next game's Deny window: always (every play waits")
    assert table.fake.ui.getValue("tt-opt-deny_window") == "Deny window: always"
    table.click("White", "ttNewGame")
    assert table.transcript()["options"] == {**game.options, "deny_window": "always"}
    state, n = play_through(table, seed=3)
    # with "always", a player holding no Wild/Deny is asked too (and Passes): the default never asks
    replay = game.new_state(setup=table.transcript()["setup"], options={"deny_window": "always"})
    asked_empty_handed = 0
    for entry in table.transcript()["moves"]:
        move = {k: v for k, v in entry.items() if k != "player"}
        if move["type"] == "pass":
            hand = replay.to_json()["hands"][entry["player"]]
            asked_empty_handed += not any(CARDS[c].kind == "wild-deny" for c in hand)
        replay.apply(move)
    assert asked_empty_handed > 0
    report = validate_data({**built, "LuaScriptState": json.dumps({"transcript": table.transcript()})}, "save.json")
    assert report.legal and report.moves_checked == n
    table.fake.save_and_reload()
    table.wait(0.1)
    assert table.fake.ui.getValue("tt-opt-deny_window") == "Deny window: always"
    # a click between games changes the next game only, and goes round to the default
    table.click("White", "ttTableOption", "tt-opt-deny_window", seconds=0.1)
    assert table.fake.ui.getValue("tt-opt-deny_window") == "Deny window: when-holding"
    assert table.transcript()["options"]["deny_window"] == "always"


def test_the_table_says_each_move_and_each_set_in_words(built):
    """Chat names the player and says what they did as a player reads it: "White draws a card",
    not "White draw"; "upright" or "upside down"; a completed set with the cards it won."""
    table = Table(built)
    table.click("White", "ttNewGame")
    state, _ = play_through(table, seed=3)
    said = [m.text for m in table.fake.messages]
    assert not [t for t in said if re.fullmatch(r"(White|Red) (draw|end-turn|pass|forfeit)", t)]
    assert any(re.fullmatch(r"(White|Red) draws a card", t) for t in said)
    assert any(re.search(r"starts the stack with Symbol card \d{4} \([a-z-]+\), (upright|upside down)$", t) for t in said)
    won = [(m.group(1), int(m.group(2))) for t in said for m in [re.fullmatch(r"(\w+) completes a set: (\d+) cards go "
                                                                               r"face down to \1's sets\.", t)] if m]
    sets = state.to_json()["sets"]
    assert sorted(n for c, n in won if c == "White") == sorted(sets[0])
    assert sorted(n for c, n in won if c == "Red") == sorted(sets[1])
    assert table.fake.ui.getValue("tt-score").startswith(f"White {len(sets[0])} set")
