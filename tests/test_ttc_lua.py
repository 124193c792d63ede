"""Twin Tower City: the Lua rules module against the Python engine, beyond what
``check-lua`` reaches with default options and random mutants: the rulebook's
worked examples scored in Lua, team play and every variation, every move rule
refused on purpose, forfeits applied, breakdowns and results, null handling."""

from __future__ import annotations

import random
import re
from typing import Any, Iterator

import pytest

from rules.core import canonical_json, judge
from rules.players import choose
from rules.twin_tower_city import GAME, TTCState
from rules.twin_tower_city.engine import CARDS, ROSTER
from tts_builder.agreement import AgreementReport, LuaEngine, check_transcript
from tts_builder.luagen import render_rules_lua
from tts_builder.simulate import play_game

GAME_ID = "twin-tower-city"
LIGHT, DARK = 0, 1
DECK = list(CARDS)
WARRIOR_CARDS = [c for c in DECK if CARDS[c].kind == "warrior"]
ARMY_CARDS = [c for c in DECK if CARDS[c].kind == "army"]
WARRIORS = list(ROSTER.warrior_name)
ITEMS = list(ROSTER.item_name)

#: (num_players, options) of the games simulated here: team play and each variation.
VARIANTS: list[tuple[int, dict[str, Any]]] = [
    (2, {}),
    (4, {"teams": True}),
    (6, {}),
    (2, {"seat0_side": "dark"}),
    (2, {"starting_face_up": True}),
    (2, {"open_hands": True}),
    (2, {"no_environment_bonuses": True}),
    (2, {"no_bonuses": True}),
    (2, {"random_bonus_traits": True}),
    (4, {"teams": True, "no_bonuses": True, "random_bonus_traits": True, "seat0_side": "dark"}),
    (6, {"random_bonus_traits": True, "no_environment_bonuses": True}),
]


@pytest.fixture(scope="module")
def lua() -> LuaEngine:
    return LuaEngine(GAME_ID)


def lua_json(lua: LuaEngine, value: Any) -> str:
    text: str = lua.sandbox.call(lua.rules.state_json, value)
    return text


def lua_call(lua: LuaEngine, name: str, *args: Any) -> Any:
    return lua.sandbox.call(lua.rules[name], *args)


def transcript(seed: int, num_players: int, options: dict[str, Any], policy: str = "random") -> dict[str, Any]:
    """A simulated game as check_transcript reads it (play_game cannot ask for 6 players)."""
    state = GAME.new_state(seed=seed, options=options, num_players=num_players)
    out: dict[str, Any] = {"setup": state.setup(), "options": state.options(), "moves": []}
    rng = random.Random(f"ttc-lua/{seed}")
    while not state.is_terminal():
        player = state.current_player()
        move = choose(GAME, state, policy, rng)
        state.apply(move)
        out["moves"].append({"player": player, **move})
    return out


def replay(lua: LuaEngine, tr: dict[str, Any]) -> Iterator[tuple[TTCState, Any, dict[str, Any]]]:
    """Both engines through a transcript: (python state, lua state, next move) before each move."""
    state = GAME.new_state(setup=tr["setup"], options=tr["options"])
    lstate = lua.new_state(tr["setup"], tr["options"])
    for entry in tr["moves"]:
        move = {k: v for k, v in entry.items() if k != "player"}
        yield state, lstate, move
        state.apply(move)
        lua.apply(lstate, move)
    yield state, lstate, {}


def py_result_json(state: TTCState) -> str:
    result = state.result()
    assert result is not None
    data = result.to_json()
    if data["winner"] is None:  # Lua's result leaves winner nil for a draw (the documented API)
        del data["winner"]
    return canonical_json(data)


# ---------------------------------------------------------------- the rulebook's worked examples

def example_setup() -> dict[str, Any]:
    """Round 1 of the worked example from the deck (TTC-12: b01-b04 and wl1 are its cards):
    Light (seat 0) flips b02 and holds b04 and wl1; Dark (seat 1) flips b01 and holds b03 and an
    Army card showing Doctor Sickle; the coin lets Dark play the second card first."""
    army = next(c for c in ARMY_CARDS if CARDS[c].side == "dark" and "doctor-sickle" in CARDS[c].army)
    fixed = {"b01", "b02", "b03", "b04"}
    free = [c for c in DECK if CARDS[c].kind == "battle" and c not in fixed]
    seats = []
    for side, starter, extra in (("light", "b02", ["b04", "wl1"]), ("dark", "b01", ["b03", army])):
        starters = [starter] + [free.pop(0) for _ in range(4)]
        hand = extra + [free.pop(0) for _ in range(7)]
        armies = [c for c in ARMY_CARDS if CARDS[c].side == side and c not in extra]
        hand += armies[:3 - sum(c in ARMY_CARDS for c in extra)]
        if not any(c in WARRIOR_CARDS for c in extra):
            hand.append(next(c for c in WARRIOR_CARDS if CARDS[c].side == side))
        seats.append({"starters": starters, "hand": sorted(hand)})
    return {"coin": DARK, "seats": seats}


def test_worked_examples_scored_in_lua(lua: LuaEngine) -> None:
    setup = example_setup()
    state = GAME.new_state(setup=setup)
    ls = lua.new_state(setup, state.options())
    army = next(c for c in setup["seats"][DARK]["hand"] if c in ARMY_CARDS)

    def totals() -> dict[str, int]:
        bd = lua.sandbox.from_lua(lua_call(lua, "breakdown", ls))
        assert canonical_json(bd) == canonical_json(state.breakdown())
        return {"light": bd["totals"]["light"], "dark": bd["totals"]["dark"]}

    assert totals() == {"light": 27, "dark": 31}  # example 1: the starting cards
    for move in ({"type": "play-battle", "card": "b03"}, {"type": "play-battle", "card": "b04"}):
        state.apply(move)
        lua.apply(ls, move)
    assert totals() == {"light": 57, "dark": 62}  # example 2: the second cards
    for move in ({"type": "play-warrior", "card": "wl1", "replace": "don-triumph"},
                 {"type": "play-army", "card": army, "swaps": [{"replace": "blamtifa-thug", "with": "doctor-sickle"}]}):
        state.apply(move)
        lua.apply(ls, move)
    # example 3: the third cards; no item to nullify, so round 1 is scored and round 2 begins
    assert lua_json(lua, ls) == canonical_json(state.to_json())
    rec = lua.sandbox.from_lua(lua_call(lua, "round_breakdown", ls, 1))
    assert rec["totals"] == {"light": 61, "dark": 70} and rec["winner"] == "dark"
    assert canonical_json(rec) == canonical_json(state.round_breakdown(1))
    assert lua.sandbox.from_lua(ls["rounds"][1]["totals"]) == {"light": 61, "dark": 70}
    assert lua_call(lua, "current_player", ls) == LIGHT  # Light begins round 2
    assert lua_call(lua, "round_breakdown", ls, 3) is None


def test_score_round_directly_on_a_layout(lua: LuaEngine) -> None:
    """Rules.score_round / round_totals on hand-made round tables (not through a game)."""
    from rules.twin_tower_city.scoring import new_layout, place_battle, replace_warrior, round_totals, score_round

    table, warriors, items = new_layout()
    for seat, cid in ((DARK, "b01"), (LIGHT, "b02"), (DARK, "b03"), (LIGHT, "b04")):
        place_battle(table, warriors, items, seat, CARDS[cid], 1)
    replace_warrior(warriors, "light", 1, "don-triumph", 9, "wl1", LIGHT)
    items["light"][0]["nullified"] = True
    # a second layout with excess items: team play's two deck copies put the same cards down twice
    table2, warriors2, items2 = new_layout()
    for seat, cid in ((0, "b02"), (1, "b02"), (2, "b06"), (3, "b01"), (0, "b01")):
        place_battle(table2, warriors2, items2, seat, CARDS[cid], 1)
    replace_warrior(warriors2, "dark", 2, "pedro-peter", 0, "ad01", 1)
    layouts = [(table, warriors, items), (table2, warriors2, items2)]
    assert any(i["status"] == "excess" for s in ("dark", "light")
               for i in score_round(ROSTER, CARDS, *layouts[1], GAME.options)[s]["items"])
    for layout in layouts:
        for opts in ({}, {"no_bonuses": True}, {"no_environment_bonuses": True}, {"random_bonus_traits": True},
                     {"random_bonus_traits": True, "no_bonuses": True}):
            args = (*layout, {**GAME.options, **opts})
            want = score_round(ROSTER, CARDS, *args)
            assert lua_json(lua, lua_call(lua, "score_round", *args)) == canonical_json(want)
            assert lua.sandbox.from_lua(lua_call(lua, "round_totals", *args)) == round_totals(ROSTER, CARDS, *args) \
                == want["totals"]


# ---------------------------------------------------------------- agreement beyond default options

@pytest.mark.parametrize("num_players,options", VARIANTS)
def test_check_transcript_with_options(num_players: int, options: dict[str, Any], lua: LuaEngine) -> None:
    report = AgreementReport(game=GAME_ID)
    for seed in range(4):
        policy = ("random", "heuristic", "mixed", "random")[seed]
        tr = transcript(seed, num_players, options, policy)
        assert len(tr["setup"]["seats"]) == num_players
        assert check_transcript(GAME_ID, tr, lua, seed, report, random.Random(seed), mutants_per_move=4), \
            report.summary()
    assert report.moves > 100 and report.illegal_checks > report.moves
    assert max(report.instructions) < 20_000


def test_play_game_team_options(lua: LuaEngine) -> None:
    """The simulator's own path to team play: options={"teams": True} gives 4 seats."""
    report = AgreementReport(game=GAME_ID)
    for seed in range(4):
        tr = play_game(GAME_ID, seed, policy="mixed", options={"teams": True, "open_hands": True})
        assert len(tr["setup"]["seats"]) == 4
        assert check_transcript(GAME_ID, tr, lua, seed, report, random.Random(seed)), report.summary()


# ---------------------------------------------------------------- every rule, refused on purpose

def candidate_moves(state: TTCState, rng: random.Random) -> list[Any]:
    """The legal moves plus many deliberately wrong ones aimed at each rule of the engine."""
    data = state.to_json()
    moves: list[Any] = list(state.legal_moves())
    seat = state.current_player()
    hand = data["hands"][seat] if seat is not None and data["phase"] == "play" else []
    slots = [w for s in ("dark", "light") for w in data["warriors"][s]]
    tokens = sorted({(w["card"] if w["level"] else w["warrior"]) for w in slots}) or ["don-triumph"]
    names = WARRIORS + WARRIOR_CARDS + tokens + ["nobody", "b01"]
    for cid in rng.sample(DECK, 12) + hand:
        kind = CARDS[cid].kind
        moves.append({"type": "play-battle", "card": cid})
        moves.append({"type": "play-warrior", "card": cid, "replace": rng.choice(names)})
        moves.append({"type": "play-army", "card": cid, "swaps": []})
        if kind == "warrior":
            for token in rng.sample(names, 6):
                moves.append({"type": "play-warrior", "card": cid, "replace": token})
            moves.append({"type": "play-warrior", "card": cid, "replace": cid})
            moves.append({"type": "play-warrior", "card": cid, "replace": [rng.choice(tokens)]})
            moves.append({"type": "play-warrior", "card": cid, "replace": 7})
        if kind == "army":
            army = list(CARDS[cid].army)
            for _ in range(10):
                swaps = [{"replace": rng.choice(tokens + names), "with": rng.choice(army + WARRIORS)}
                         for _ in range(rng.choice((1, 1, 2, 2, 2, 3)))]
                moves.append({"type": "play-army", "card": cid, "swaps": swaps})
            t = rng.choice(tokens)
            moves += [
                {"type": "play-army", "card": cid,
                 "swaps": [{"replace": t, "with": army[0]}, {"replace": t, "with": army[1]}]},
                {"type": "play-army", "card": cid,
                 "swaps": [{"replace": t, "with": army[0]}, {"replace": tokens[0], "with": army[0]}]},
                {"type": "play-army", "card": cid, "swaps": [{"replace": army[0], "with": army[0]}]},
                {"type": "play-army", "card": cid, "swaps": [{"replace": t}]},
                {"type": "play-army", "card": cid, "swaps": [{"replace": t, "with": army[0], "x": 1}]},
                {"type": "play-army", "card": cid, "swaps": [[t, army[0]]]},
                {"type": "play-army", "card": cid, "swaps": [{"replace": t, "with": 3}]},
                {"type": "play-army", "card": cid, "swaps": {"replace": t, "with": army[0]}},
                {"type": "play-army", "card": cid, "swaps": "none"},
            ]
    present = [i["item"] for s in ("dark", "light") for i in data["items"][s] if not i["nullified"]]
    for n in range(8):
        pool = present + ITEMS + ["no-such-item"]
        moves.append({"type": "nullify-items", "items": [rng.choice(pool) for _ in range(rng.randrange(6))]})
    legal_nullify = [m for m in moves if isinstance(m, dict) and m.get("type") == "nullify-items"
                     and state.check(m).ok]
    for m in legal_nullify[:3]:
        items = list(m["items"])
        moves.append({"type": "nullify-items", "items": list(reversed(items))})
        moves.append({"type": "nullify-items", "items": items + [items[0]]})
        moves.append({"type": "nullify-items", "items": items[:-1] + [items[0]]})
    moves += [
        {"type": "nullify-items", "items": "red-pill"}, {"type": "nullify-items", "items": [1, 2]},
        {"type": "nullify-items", "items": []}, {"type": "forfeit"}, {"type": "forfeit", "card": "b01"},
        {"type": "play-battle"}, {"type": "play-battle", "card": 12}, {"type": "play-battle", "card": "b99"},
        {"type": "play-battle", "card": "b01", "player": 0}, {"type": "play"}, {"type": 3}, {"card": "b01"},
        {}, [], ["forfeit"], "forfeit", 5, None,
    ]
    return moves


def test_every_verdict_agrees(lua: LuaEngine) -> None:
    rng = random.Random(11)
    seen: set[str] = set()
    checks = 0
    worst = 0
    for seed, (num_players, options) in enumerate(VARIANTS[:6]):
        tr = transcript(100 + seed, num_players, options)
        for state, lstate, _ in replay(lua, tr):
            seat = state.current_player()
            for cand in candidate_moves(state, rng):
                for who in ([seat, (seat or 0) + 1] if rng.random() < 0.1 else [seat]):
                    py = judge(state, who, cand)
                    lv = lua.judge(lstate, who, cand)
                    worst = max(worst, lua.sandbox.last_instructions)
                    checks += 1
                    want = (py.ok, py.rule, py.section)
                    got = (bool(lv.get("ok")), lv.get("rule", ""), lv.get("section", ""))
                    assert got == want, (seed, canonical_json(state.to_json())[:200], cand, py.to_json(), lv)
                    assert py.ok or lv.get("message")
                    seen.add(py.rule or "ok")
    move_rules = {rid for rid, r in GAME.data["rules"].items() if r["kind"] == "move"}
    assert move_rules | {"ok"} <= seen, move_rules - seen
    assert checks > 10_000
    assert worst < 20_000


def test_team_warrior_card_no_op(lua: LuaEngine) -> None:
    """Both Dark players hold wd1 (two deck copies): the second cannot replace the first's copy by it."""
    setup = GAME.new_state(seed=9, num_players=4).setup()
    for seat in (1, 3):
        hand = setup["seats"][seat]["hand"]
        hand[:] = sorted([c for c in hand if CARDS[c].kind != "warrior"] + ["wd1"])
    state = GAME.new_state(setup=setup)
    ls = lua.new_state(setup, state.options())

    def play(move: dict[str, Any]) -> None:
        state.apply(move)
        lua.apply(ls, move)

    while state.stage() == 2 or state.current_player() != 1:
        play(state.legal_moves()[0])
    target = next(w["warrior"] for w in state.to_json()["warriors"]["dark"])
    play({"type": "play-warrior", "card": "wd1", "replace": target})
    while state.current_player() != 3:
        play(state.legal_moves()[0])
    for move in ({"type": "play-warrior", "card": "wd1", "replace": "wd1"}, *state.legal_moves()):
        py = judge(state, 3, move)
        assert lua.judge(ls, 3, move).get("rule", "") == py.rule
    assert judge(state, 3, {"type": "play-warrior", "card": "wd1", "replace": "wd1"}).rule == "warrior-card"
    assert lua_json(lua, ls) == canonical_json(state.to_json())


# ---------------------------------------------------------------- state, breakdown, result, forfeit, nulls

@pytest.mark.parametrize("num_players,options", VARIANTS[:4] + VARIANTS[8:10])
def test_breakdown_scores_and_result_agree(num_players: int, options: dict[str, Any], lua: LuaEngine) -> None:
    for seed in range(3):
        tr = transcript(200 + seed, num_players, options)
        for state, lstate, _ in replay(lua, tr):
            assert lua_json(lua, lstate) == canonical_json(state.to_json())
            assert lua_call(lua, "current_player", lstate) == state.current_player()
            assert bool(lua_call(lua, "is_over", lstate)) == state.is_terminal()
            if not state.is_terminal():
                assert lua_json(lua, lua_call(lua, "breakdown", lstate)) == canonical_json(state.breakdown())
                assert lua_call(lua, "result", lstate) is None
        won = state.result()
        assert won is not None
        assert lua.sandbox.from_lua(lua_call(lua, "scores", lstate)) == won.scores
        assert lua_json(lua, lua_call(lua, "result", lstate)) == py_result_json(state)
        for r in range(1, 6):
            assert lua_json(lua, lua_call(lua, "round_breakdown", lstate, r)) == \
                canonical_json(state.round_breakdown(r))


def test_forfeit_applied_and_nulls(lua: LuaEngine) -> None:
    """Simulated players never forfeit, so check-lua never applies one: do it here, in every phase."""
    forfeits = 0
    for seed, (num_players, options) in enumerate(VARIANTS[:5]):
        tr = transcript(300 + seed, num_players, options)
        for n, (state, lstate, move) in enumerate(replay(lua, tr)):
            if state.is_terminal() or n % 7 and state.to_json()["phase"] != "nullify":
                continue
            py, ls = state.clone(), lua.new_state(tr["setup"], tr["options"])
            for entry in tr["moves"][:n]:
                lua.apply(ls, {k: v for k, v in entry.items() if k != "player"})
            assert '"forfeited":null' in lua_json(lua, ls)
            py.apply({"type": "forfeit"})
            lua.apply(ls, {"type": "forfeit"})
            forfeits += 1
            assert lua_json(lua, ls) == canonical_json(py.to_json())
            assert lua_json(lua, lua_call(lua, "result", ls)) == py_result_json(py)
            res = lua.sandbox.from_lua(lua_call(lua, "result", ls))
            assert res["reason"] == "forfeit" and res["winner"] == py.result().winner  # type: ignore[union-attr]
            v = lua.judge(ls, None, {"type": "forfeit"})
            assert v["rule"] == "game-over"
            checked = lua.sandbox.from_lua(lua.sandbox.call(lua.rules.check, ls, {"type": "forfeit"}))
            assert checked["rule"] == "game-over"
    assert forfeits > 20


def test_tied_round_winner_is_null(lua: LuaEngine) -> None:
    """A tied round stores winner null (A-13); the Lua state writes the same null."""
    for seed in range(400):
        state = GAME.new_state(seed=seed)
        ls = lua.new_state(state.setup(), state.options())
        rng = random.Random(seed)
        while not state.is_terminal():
            move = choose(GAME, state, "random", rng)
            state.apply(move)
            lua.apply(ls, move)
            rounds = state.to_json()["rounds"]
            if rounds and rounds[-1]["winner"] is None:
                text = lua_json(lua, ls)
                assert text == canonical_json(state.to_json()) and '"winner":null' in text
                assert lua.sandbox.call(lua.rules.is_null, ls["rounds"][len(rounds)]["winner"])
                return
    pytest.fail("no tied round in 400 random games")


def test_null_sentinel(lua: LuaEngine) -> None:
    null = lua.rules.NULL
    assert lua_json(lua, null) == "null"
    assert lua_json(lua, lua.sandbox.table(1, null, 3)) == "[1,null,3]"
    assert lua_json(lua, lua.sandbox.to_lua({"a": []})) == '{"a":[]}'
    assert lua.sandbox.call(lua.rules.is_null, null) and lua.sandbox.call(lua.rules.is_null, None)
    assert not lua.sandbox.call(lua.rules.is_null, 0)


def test_apply_refuses_an_illegal_move(lua: LuaEngine) -> None:
    from tts_builder.luasandbox import LuaScriptError

    state = GAME.new_state(seed=1)
    ls = lua.new_state(state.setup(), state.options())
    before = lua_json(lua, ls)
    with pytest.raises(LuaScriptError, match="card-in-hand|unknown-card"):
        lua.apply(ls, {"type": "play-battle", "card": "zz"})
    assert lua_json(lua, ls) == before


def test_new_state_derives_players_and_refuses_bad_setups(lua: LuaEngine) -> None:
    from tts_builder.luasandbox import LuaScriptError

    for n in (2, 4, 6):
        state = GAME.new_state(seed=5, num_players=n)
        opts = dict(state.options())
        opts.pop("teams")  # the player count decides team play, as in Python
        ls = lua.new_state(state.setup(), opts)
        assert lua_json(lua, ls) == canonical_json(state.to_json())
    two = GAME.new_state(seed=5).setup()
    with pytest.raises(LuaScriptError, match="team play"):
        lua.new_state(two, {"teams": True})
    with pytest.raises(LuaScriptError, match="unknown option"):
        lua.new_state(two, {"no_such_option": True})
    three = {"coin": 0, "seats": two["seats"] + [two["seats"][0]]}
    with pytest.raises(LuaScriptError, match="not 3"):
        lua.new_state(three, {})


def test_describe_move(lua: LuaEngine) -> None:
    setup = example_setup()
    text = lua_call(lua, "describe_move", {"type": "play-battle", "card": "b03"})
    assert "Renegade" in text and "Subway North" in text
    text = lua_call(lua, "describe_move", {"type": "play-warrior", "card": "wl1", "replace": "don-triumph"})
    assert "Don Triumph Level 9, Power 18" in text and text.endswith("replacing Don Triumph")
    army = next(c for c in setup["seats"][DARK]["hand"] if c in ARMY_CARDS)
    text = lua_call(lua, "describe_move", {"type": "play-army", "card": army,
                                           "swaps": [{"replace": "blamtifa-thug", "with": "doctor-sickle"}]})
    assert "replacing Blamtifa Thug with Doctor Sickle" in text
    assert "without replacing" in lua_call(lua, "describe_move", {"type": "play-army", "card": army, "swaps": []})
    assert lua_call(lua, "describe_move", "junk") == "junk"
    # the same sentence as Python's, without its "<seat name> (Side)" prefix (the recorder adds the colour)
    for state, _, _ in replay(lua, transcript(7, 4, {"teams": True})):
        for move in state.legal_moves():
            assert state.describe_move(move).split(" ", 2)[2] == lua_call(lua, "describe_move", move)


# ---------------------------------------------------------------- the MoonSharp dialect

def test_generated_lua_follows_the_dialect_rules() -> None:
    source = render_rules_lua(GAME_ID)
    assert source.isascii()
    start = source.index("Twin Tower City rules: the Lua mirror")
    end = source.index("-- judge: who may move")
    ours = source[start:end]
    for line in ours.splitlines():
        code = line.split("--", 1)[0]
        assert not re.search(r"\bgoto\b|//|math\.random|(?<![.\w])unpack\(|table\.sort\(|[&|~]\s*\d|<<|>>", code), line
        if re.search(r"\bpairs\(", code):
            assert "lint: pairs-ok" in line, line
    try:
        from tts_builder.lualint import lint_lua  # type: ignore[import-not-found]
    except ImportError:
        return
    assert lint_lua(source, "ttc.lua") == []


def test_state_json_by_parts_is_the_generic_text(lua: LuaEngine) -> None:
    """Rules.state_json writes a state by parts, the finished rounds, options and setup once per state,
    the round in play's records by their known keys: the same text as U.json at every move (and
    the Python canonical JSON); a record whose known values change is written again; a record or
    a state with a key the writer does not know, or an odd value, is written by U.json; a round
    record replaced is written afresh."""
    u_json = lua.rules.U.json
    for seed, (num_players, options) in enumerate([(2, {}), (6, {"random_bonus_traits": True})]):
        tr = transcript(seed, num_players, options)
        lstate, army_plays = None, 0
        for state, lstate, _ in replay(lua, tr):  # the last one after the last move
            text = lua_json(lua, lstate)
            assert text == lua.sandbox.call(u_json, lstate) == canonical_json(state.to_json())
            army_plays += text.count('"swaps":[{')
        assert lstate is not None and army_plays > 0
        lua_json(lua, lstate)
        by_parts = lua.sandbox.last_instructions
        lua.sandbox.call(u_json, lstate)
        assert by_parts < lua.sandbox.last_instructions / 2  # the cached parts are not written again
        rounds = lstate["rounds"]
        assert len(rounds) == 5
        rounds[1]["winner"] = "nobody"  # a record changed in place after it was written: not seen
        rounds[1] = lua.sandbox.call(lua.rules.U.copy, rounds[1])  # a new record table: written afresh
        assert '"winner":"nobody"' in lua_json(lua, lstate)
        fresh = lua.new_state(tr["setup"], tr["options"])
        slots, items = fresh["warriors"]["dark"], fresh["items"]["light"]
        assert lua_json(lua, fresh) == lua.sandbox.call(u_json, fresh)  # each record's text remembered
        slots[2]["level"] = 3  # a known value changed in place: the record is written again
        assert '"level":3' in lua_json(lua, fresh)
        slots[1]["extra"] = 1  # a record with a key the writer does not know: written by U.json
        items[1]["seat"] = lua.rules.NULL  # a value that is no string, number or boolean: the same
        fresh["table"][1]["stage"] = 2.5
        text = lua_json(lua, fresh)
        assert text == lua.sandbox.call(u_json, fresh)
        assert '"extra":1' in text and '"seat":null' in text and '"stage":2.5' in text
        lstate["extra"] = 1  # not a state's key set: the generic writer, which shows the key
        assert lua_json(lua, lstate) == lua.sandbox.call(u_json, lstate)
        assert '"extra":1' in lua_json(lua, lstate)


def test_move_shape_refusals_read_the_move_schema_in_both_engines(lua: LuaEngine) -> None:
    """A move of no known type or with the wrong fields gets the shared schema words (rules.moveshape,
    runtime/moveshape.lua.j2), the same in Lua; a schema's new move type would show in both."""
    state = GAME.new_state(seed=3)
    ls = lua.new_state(state.setup(), state.options())
    seat = state.current_player()
    types = "Moves are play-battle, play-army, play-warrior, nullify-items, forfeit."
    cases = [
        ({"type": "pass"}, types),
        ({"type": 7}, types),
        ({"card": "b01"}, types),
        ({"type": "play-battle"}, "A play-battle move has the fields card, type."),
        ({"type": "play-army", "card": "al01"}, "A play-army move has the fields card, swaps, type."),
        ({"type": "forfeit", "why": "late"}, "A forfeit move has the fields type."),
    ]
    for move, words in cases:
        py = judge(state, seat, move)
        lv = lua.judge(ls, seat, move)
        assert (py.rule, py.message) == ("move-format", words), move
        assert (lv.get("rule"), lv.get("message")) == ("move-format", words), move


def setup_mutants(setup: dict[str, Any], rng: random.Random) -> Iterator[dict[str, Any]]:
    """Recorded setups that break the deal rule one way each, then random card swaps."""
    import copy

    def edit(change: Any) -> dict[str, Any]:
        out = copy.deepcopy(setup)
        change(out)
        return out

    seats = setup["seats"]
    other_side_army = next(c for c in seats[1]["hand"] if CARDS[c].kind == "army")
    yield from (edit(lambda s: s.__setitem__("coin", v)) for v in (2, True, "1", None, -1))
    yield edit(lambda s: s.pop("coin"))
    yield edit(lambda s: s["seats"].pop())
    yield edit(lambda s: s.__setitem__("seats", {"0": s["seats"][0]}))
    yield edit(lambda s: s["seats"].__setitem__(0, ["b01"]))
    yield edit(lambda s: s["seats"][0].pop("starters"))
    yield edit(lambda s: s["seats"][1].__setitem__("hand", "b01"))
    yield edit(lambda s: s["seats"][0]["hand"].__setitem__(0, "zz9"))
    yield edit(lambda s: s["seats"][1]["starters"].__setitem__(2, 7))
    yield edit(lambda s: s["seats"][0]["starters"].pop())
    yield edit(lambda s: s["seats"][0]["starters"].__setitem__(0, s["seats"][0]["hand"][-1]))  # a Warrior starter
    yield edit(lambda s: s["seats"][0]["hand"].pop())
    yield edit(lambda s: s["seats"][1]["hand"].append("b50"))
    yield edit(lambda s: s["seats"][0]["hand"].__setitem__(  # an Army card of the other side
        s["seats"][0]["hand"].index(next(c for c in s["seats"][0]["hand"] if CARDS[c].kind == "army")),
        other_side_army))
    yield edit(lambda s: s["seats"][1]["hand"].__setitem__(0, s["seats"][0]["hand"][0]))  # one card twice
    if len(seats) > 2:  # the next pair's copy of the deck may hold the same card
        yield edit(lambda s: s["seats"][2]["hand"].__setitem__(0, s["seats"][0]["hand"][0]))
    for _ in range(60):
        out = copy.deepcopy(setup)
        seat = out["seats"][rng.randrange(len(out["seats"]))]
        cards = seat[rng.choice(("starters", "hand"))]
        cards[rng.randrange(len(cards))] = rng.choice(DECK)
        yield out


#: words of each of validate_setup's refusals
KINDS = ("'coin' is 0 or 1", "'seats' lists", "needs 'starters' and 'hand' lists", "unknown card",
         "Battle cards as starters", "the hand holds", "belong to the other side", "a card is dealt twice")


@pytest.mark.parametrize("num_players, options", [(2, {}), (2, {"seat0_side": "dark"}), (4, {}), (6, {})])
def test_the_recorded_deal_is_checked_alike_in_both_engines(num_players: int, options: dict[str, Any],
                                                            lua: LuaEngine) -> None:
    """Rules.setup_error (what the table refuses a saved setup for) says what validate_setup says."""
    from rules.core import SetupError

    state = GAME.new_state(seed=7, num_players=num_players, options=options)
    opts = state.options()
    rng = random.Random(num_players)
    words: set[str] = set()
    for setup in [state.setup(), *setup_mutants(state.setup(), rng)]:
        try:
            GAME.validate_setup(setup, num_players, opts)
            want = None
        except SetupError as exc:
            want = str(exc)
            words.update(k for k in KINDS if k in want)
        got = lua.sandbox.call(lua.rules.setup_error, lua.decode(setup), num_players, lua.decode(options))
        assert got == want, setup
    assert words == set(KINDS), set(KINDS) - words  # every check refused some setup
