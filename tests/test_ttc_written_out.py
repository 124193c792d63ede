"""Twin Tower City: the engine's written-out fast paths against the scoring helpers they copy.

``TTCState._begin_round`` and ``try_apply``'s Battle play place cards without calling
:func:`place_battle` (they copy records made once per card and seat), an Army play without a
home replaces warriors without calling :func:`replace_warrior`, :func:`default_totals` sums the
engine's round with the warriors' tops the engine keeps for the nullify phase, and the excess
items are counted from those tops. Each is checked here, at every move of many random games of
every seat count, against the helper (or the full breakdown of :func:`score_round`).
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from rules.twin_tower_city import GAME, TTCState
from rules.twin_tower_city.engine import CARDS, ROSTER
from rules.twin_tower_city.scoring import default_totals, new_layout, place_battle, replace_warrior, score_round


def _snapshot(state: TTCState) -> tuple[Any, Any, Any]:
    data = state.to_json()
    return data["table"], data["warriors"], data["items"]


def _games(players: int, games: int, options: dict[str, Any] | None = None) -> Any:
    """(state before, move, state after) for every move of ``games`` random games (forfeit left out)."""
    for seed in range(games):
        state = GAME.new_state(seed=seed, num_players=players, options=options)
        rng = random.Random(seed * 7 + players)
        while not state.is_terminal():
            legal = state.legal_moves()
            move = legal[rng.randrange(len(legal) - 1)]
            before = _snapshot(state)
            round_before = state._round
            assert state.try_apply(move).ok
            yield before, round_before, move, state


@pytest.mark.parametrize("players", [2, 4, 6])
def test_starting_cards_are_placed_as_place_battle_places_them(players: int) -> None:
    """At each round's start the table, warriors and items are those of new_layout and
    place_battle of every seat's starting card (stage 1), records and key order alike."""
    rounds = 0
    for _, round_before, _, state in _games(players, 12):
        if state._round == round_before or state.is_terminal():
            continue
        rounds += 1
        table, warriors, items = new_layout()
        for seat, entry in enumerate(state.setup()["seats"]):
            place_battle(table, warriors, items, seat, CARDS[entry["starters"][state._round - 1]], 1)
        assert (state._table, state._warriors, state._items) == (table, warriors, items)
        for mine, theirs in zip(state._warriors["dark"] + state._items["light"] + state._table,
                                warriors["dark"] + items["light"] + table):
            assert list(mine) == list(theirs)  # key order: the JSON written is the same
    assert rounds == 12 * 4


@pytest.mark.parametrize("players", [2, 4, 6])
def test_battle_and_army_plays_match_the_helpers(players: int) -> None:
    """A Battle card played through try_apply leaves what place_battle adds; an Army card what
    replace_warrior does to the slots it names (no home under the default options)."""
    battles = armies = 0
    for (table, warriors, items), round_before, move, state in _games(players, 12):
        if state._round != round_before or move["type"] not in ("play-battle", "play-army"):
            continue
        seat = state._table[-1]["seat"]
        stage = state._table[-1]["stage"]
        if move["type"] == "play-battle":
            battles += 1
            place_battle(table, warriors, items, seat, CARDS[move["card"]], stage)
        else:
            armies += 1
            side = state.side_of(seat)
            table.append({"seat": seat, "card": move["card"], "stage": stage,
                          "swaps": [dict(sw) for sw in move["swaps"]]})
            for sw in move["swaps"]:
                live = [n for n, s in enumerate(warriors[side]) if not s["replaced"]]
                tokens = [str(warriors[side][n]["card"]) if warriors[side][n]["level"]
                          else str(warriors[side][n]["warrior"]) for n in live]
                index = live[tokens.index(sw["replace"])]
                replace_warrior(warriors, side, index, sw["with"], 0, move["card"], seat)
        if state._phase == "play":  # a nullify phase may have marked items since
            assert (state._table, state._warriors, state._items) == (table, warriors, items)
            assert [list(s) for s in state._warriors[state.side_of(seat)]] == \
                [list(s) for s in warriors[state.side_of(seat)]]
    assert battles > 100 and armies > 20, (battles, armies)


@pytest.mark.parametrize("players", [2, 4, 6])
def test_default_totals_are_the_breakdowns_totals(players: int) -> None:
    """default_totals, at every move of many games and at every round's end, equals the totals of
    score_round's full breakdown (the weakest excess items not counted)."""
    checked = 0
    options = GAME.resolve_options({})
    for _, round_before, _, state in _games(players, 15):
        if state._round != round_before or state.is_terminal():
            rec = state._rounds[-1]
            tables = [(rec["table"], rec["warriors"], rec["items"])]
            assert rec["totals"] == score_round(ROSTER, CARDS, *tables[0], options)["totals"]
        else:
            tables = [(state._table, state._warriors, state._items)]
        for table, warriors, items in tables:
            assert default_totals(ROSTER, CARDS, table, warriors, items) == \
                score_round(ROSTER, CARDS, table, warriors, items, options)["totals"]
            checked += 1
    assert checked > 15 * 20


@pytest.mark.parametrize("players", [2, 4, 6])
def test_try_apply_refuses_a_battle_card_not_in_hand_as_check_does(players: int) -> None:
    """try_apply's Battle play removes the card from the hand in one go: a Battle card not in the
    mover's hand (another seat's, a starting card, one already played) is refused as check refuses
    it, and the state is left as it was."""
    refused = 0
    for seed in range(6):
        state = GAME.new_state(seed=seed, num_players=players)
        rng = random.Random(seed)
        while not state.is_terminal():
            if state._phase == "play":
                p = state.current_player()
                assert p is not None
                setup = state.setup()["seats"]
                others = [c for c in setup[(p + 1) % players]["hand"] + setup[p]["starters"] + setup[p]["hand"]
                          if CARDS[c].kind == "battle" and c not in state._hands[p]]
                for cid in others[:3]:
                    move = {"type": "play-battle", "card": cid}
                    want = state.check(move)
                    before = state.to_json()
                    got = state.try_apply(move)
                    assert not got.ok and (got.rule, got.message) == (want.rule, want.message)
                    assert state.to_json() == before
                    refused += 1
            legal = state.legal_moves()
            assert state.try_apply(legal[rng.randrange(len(legal) - 1)]).ok
    assert refused > 100


@pytest.mark.parametrize("players", [2, 4, 6])
def test_the_tops_kept_for_the_nullify_phase_are_the_warriors_tops(players: int) -> None:
    """The engine finds side_tops once when a round's play ends and reads it for the excess items
    and the round's totals: at every move of the nullify phase it is side_tops of the warriors
    as they stand, and each side's excess is what excess_items counts."""
    from rules.twin_tower_city.scoring import excess_items, side_tops
    seen = 0
    for _, _, _, state in _games(players, 12):
        if state._phase != "nullify":
            continue
        seen += 1
        assert state._tops == side_tops(ROSTER, state._warriors)
        for side in ("dark", "light"):
            assert state._excess_items(side) == excess_items(state._warriors, state._items, side)
    assert seen > 12


@pytest.mark.parametrize("players", [2, 4, 6])
def test_try_apply_for_is_judge_then_apply_for_any_seat(players: int) -> None:
    """try_apply_for and try_make_entry test the seat on their fast paths (the validator asks
    try_make_entry for every move): for every seat, a bool or odd one too, legal moves and
    mutants alike, try_apply_for gives judge's verdict and the state judge-then-apply leaves, and
    try_make_entry makes (most of) the moves judge passes, no other; try_apply judges for the
    seat to move."""
    from rules.core import judge
    from rules.mutate import mutants
    from tts_builder.transcript import unknown_fields
    rng = random.Random(players)
    made = refused = at_once = 0
    for seed in range(6 // players):  # a game of 6 seats has 3 times the moves and seats of one of 2
        state = GAME.new_state(seed=seed, num_players=players)
        while not state.is_terminal():
            legal = state.legal_moves()
            moves = rng.sample(legal, min(3, len(legal)))
            odd = [m for move in moves[:2] for m in mutants(move, state, rng)]
            moves += rng.sample(odd, min(6, len(odd)))
            data = state.to_json()
            for move in moves:
                for seat in (*range(players), players, -1, True, None, "0"):
                    trial, ref = GAME.state_from_json(data), GAME.state_from_json(data)
                    want = judge(ref, seat, move)
                    if want.ok:
                        ref.apply(move)
                    assert trial.try_apply_for(seat, move) == want, (seat, move)
                    assert trial.to_json() == ref.to_json()
                    made += want.ok
                    refused += not want.ok
                    # the same move as a transcript entry: made at once only when judge passes it
                    # with no field its type does not take; else the state is left alone
                    trial = GAME.state_from_json(data)
                    entry = {**move, "player": seat} if type(move) is dict else move
                    if trial.try_make_entry(entry):
                        assert want.ok and not unknown_fields(GAME.id, move), (seat, move)
                        assert trial.to_json() == ref.to_json()
                        at_once += 1
                    else:
                        assert trial.to_json() == data
                trial, ref = GAME.state_from_json(data), GAME.state_from_json(data)
                assert trial.try_apply(move) == judge(ref, ref.current_player(), move)
            state.apply(legal[rng.randrange(len(legal) - 1)])
    assert made > 60 and refused > 500 and at_once > 0.7 * made, (made, refused, at_once)


def test_the_engines_move_fields_are_the_schemas() -> None:
    """try_make_entry makes a move whose fields are its type's in the engine (SHAPES, read from the
    move schema by rules.moveshape): the validator, which skips its own field check then, reads them
    from the move schema too; both readings agree."""
    from rules.twin_tower_city.engine import SHAPES
    from tts_builder.transcript import move_fields
    assert move_fields(GAME.id) == {t: frozenset(f) for t, f in SHAPES["fields"].items()}
