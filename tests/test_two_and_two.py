"""Two & Two: hand-written golden scenarios, recorded playthroughs, corrupted
transcripts, options and results."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path

import pytest

from rules.core import IllegalMove
from rules.two_and_two import CARDS, GAME
from tts_builder.cli import main
from tts_builder.transcript import FORMAT, VERSION
from tts_builder.validate import validate_data

GOLDEN = Path(__file__).parent / "golden" / "two-and-two"
SCENARIOS = sorted(GOLDEN.glob("*[!t].json"))          # hand-written scenarios
PLAYED = sorted(GOLDEN.glob("*.transcript.json"))       # recorded playthroughs


def full_deck(prefix: list[str]) -> list[str]:
    return list(prefix) + [c for c in CARDS if c not in prefix]


def transcript(deck: list[str], moves: list[dict], options: dict | None = None) -> dict:
    return {"format": FORMAT, "version": VERSION, "game": "two-and-two", "options": options or {},
            "players": [{"name": "White"}, {"name": "Red"}], "setup": {"deck": deck},
            "moves": moves, "result": None}


def load(path: Path) -> dict:
    return json.loads(path.read_text())


def replay(deck: list[str], moves: list[dict], options: dict | None = None):
    state = GAME.new_state(setup={"deck": deck}, options=options)
    for entry in moves:
        assert state.current_player() == entry["player"], entry
        state.apply({k: v for k, v in entry.items() if k != "player"})
    return state


# -- hand-written scenarios ------------------------------------------------------

@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_scenario_moves_are_legal_and_states_as_expected(path):
    sc = load(path)
    deck = full_deck(sc["deck_prefix"])
    report = validate_data(transcript(deck, sc["moves"]), path.name)
    assert report.legal, report.summary()
    assert report.moves_checked == len(sc["moves"])
    for exp in sc["expect"]:
        state = replay(deck, sc["moves"][:exp["after"]])
        for key, value in exp["fields"].items():
            assert state.to_json()[key] == value, f"after {exp['after']} moves: {key}"
        if "hands" in exp:
            assert state.to_json()["hands"] == exp["hands"]


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_scenario_probes(path):
    sc = load(path)
    deck = full_deck(sc["deck_prefix"])
    for probe in sc["probes"]:
        moves = sc["moves"][:probe["after"]] + [{"player": probe["player"], **probe["move"]}]
        report = validate_data(transcript(deck, moves), path.name)
        if probe["rule"] is None:
            assert report.legal, f"{probe}: {report.summary()}"
        else:
            assert not report.legal, f"{probe} was accepted"
            v = report.violations[0]
            assert (v.move, v.rule) == (probe["after"], probe["rule"]), f"{probe}: {report.summary()}"
            assert v.message and v.section
            if "penalty" in probe:
                assert v.penalty == probe["penalty"], f"{probe}: {report.summary()}"


def test_every_rule_is_shown_accepting_and_refusing():
    refused, shown = {"game-over"}, set()  # game-over: see test_no_move_after_the_end
    for path in SCENARIOS:
        for probe in load(path)["probes"]:
            if probe["rule"]:
                refused.add(probe["rule"])
            shown.update(probe.get("shows", ()))
    shown.add("game-over")  # every move of a recorded game is accepted before its end
    assert set(GAME.rules) - refused == set(), "rules never shown refusing a move"
    assert set(GAME.rules) - shown == set(), "rules never shown accepting a move"


# -- recorded playthroughs ---------------------------------------------------------

@pytest.mark.parametrize("path", PLAYED, ids=lambda p: p.stem)
def test_played_games_replay_to_their_recorded_result(path):
    t = load(path)
    report = validate_data(t, path.name)
    assert report.legal and report.finished, report.summary()
    # recorded before results had kind/outcome/winners: every field they record still agrees
    assert {k: report.result[k] for k in t["result"]} == t["result"]


def test_played_games_cover_the_rare_paths():
    reasons = {load(p)["result"]["reason"] for p in PLAYED}
    assert {"most-sets", "largest-set", "draw"} <= reasons
    t = load(GOLDEN / "played-hand-start.transcript.json")
    state = GAME.new_state(setup=t["setup"])
    from_hand = 0
    for entry in t["moves"]:
        move = {k: v for k, v in entry.items() if k != "player"}
        if move["type"] == "start-stack" and not state.to_json()["deck"]:
            assert move["card"] in state.to_json()["hands"][entry["player"]]
            from_hand += 1
        state.apply(move)
    assert from_hand >= 1


def test_effects_stay_optional_when_the_deck_is_empty():
    """With the deck empty and no Symbol card that fits, the game goes on while
    an Effect play exists; declining it (end-turn) ends the game."""
    t = load(GOLDEN / "played-hand-start.transcript.json")
    state = replay(t["setup"]["deck"], t["moves"][:-1])
    data = state.to_json()
    assert t["moves"][-1] == {"player": data["active"], "type": "end-turn"}
    assert data["deck"] == [] and data["phase"] == "main"
    effects = [m for m in state.legal_moves() if m["type"] in ("skip", "wild", "play")]
    assert effects and all(m["type"] != "play" or m.get("flip") for m in effects)
    state.apply({"type": "end-turn"})
    assert state.is_terminal() and state.to_json()["end"]["reason"] == "no-moves"


def test_no_move_after_the_end():
    t = load(GOLDEN / "played-draw.transcript.json")
    t["moves"].append({"player": 0, "type": "draw"})
    report = validate_data(t, "x.json")
    assert [(v.move, v.rule) for v in report.violations] == [(len(t["moves"]) - 1, "game-over")]


def test_the_game_ends_when_the_deck_is_empty_and_no_symbol_card_fits():
    t = load(GOLDEN / "played-end-at-stack.transcript.json")
    state = replay(t["setup"]["deck"], t["moves"])
    data = state.to_json()
    assert state.is_terminal() and data["deck"] == []
    assert data["end"]["reason"] == "no-moves"


# -- corrupted transcripts --------------------------------------------------------

def _played():
    return [load(p) for p in PLAYED]


def test_a_removed_move_is_reported_at_or_after_its_place_never_before():
    exact = total = 0
    for t in _played():
        for k in range(0, len(t["moves"]), 3):
            bad = copy.deepcopy(t)
            del bad["moves"][k]
            report = validate_data(bad, "x.json")
            assert not report.legal, f"removing move {k} went unnoticed"
            first = report.violations[0].move
            assert first is None or first >= k
            exact += first == k
            total += 1
    assert exact / total > 0.9  # a removed Skip can stay hidden until the turn it gave


def test_a_duplicated_move_is_reported_at_the_copy():
    for t in _played():
        for k in range(0, len(t["moves"]) - 1, 2):
            bad = copy.deepcopy(t)
            bad["moves"].insert(k + 1, copy.deepcopy(bad["moves"][k]))
            report = validate_data(bad, "x.json")
            assert not report.legal and report.violations[0].move == k + 1, (k, report.summary())


def test_a_move_given_to_the_other_player_is_reported_as_turn_order():
    for t in _played():
        for k in range(0, len(t["moves"]), 5):
            bad = copy.deepcopy(t)
            bad["moves"][k]["player"] = 1 - bad["moves"][k]["player"]
            report = validate_data(bad, "x.json")
            assert [(v.move, v.rule) for v in report.violations] == [(k, "turn-order")]


def test_a_card_the_player_does_not_hold_is_reported_as_card_in_hand():
    checked = 0
    for t in _played():
        state = GAME.new_state(setup=t["setup"])
        for k, entry in enumerate(t["moves"]):
            move = {key: v for key, v in entry.items() if key != "player"}
            if move["type"] in ("play", "skip", "wild", "deny") and k % 2 == 0:
                other_hand = state.to_json()["hands"][1 - entry["player"]]
                if other_hand:
                    bad = copy.deepcopy(t)
                    bad["moves"][k]["card"] = other_hand[0]
                    report = validate_data(bad, "x.json")
                    assert [(v.move, v.rule) for v in report.violations] == [(k, "card-in-hand")]
                    checked += 1
            state.apply(move)
    assert checked > 20


def test_a_recorded_result_that_differs_from_the_replay_is_reported():
    t = load(GOLDEN / "played-largest-set.transcript.json")
    t["result"]["winner"] = 1
    report = validate_data(t, "x.json")
    assert [(v.move, v.rule) for v in report.violations] == [(None, "result")]


def test_an_abandoned_game_is_a_valid_transcript():
    t = load(GOLDEN / "played-draw.transcript.json")
    t["moves"] = t["moves"][:30]
    t["result"] = None
    report = validate_data(t, "x.json")
    assert report.legal and not report.finished and report.result is None


def test_hoarding_reports_the_forfeit():
    sc = load(GOLDEN / "basics.json")
    moves = sc["moves"][:4] + [{"player": 0, "type": "end-turn"}]
    report = validate_data(transcript(full_deck(sc["deck_prefix"]), moves), "x.json")
    assert report.violations[0].penalty == "forfeit"
    assert {k: report.result[k] for k in ("winner", "reason", "rule", "forfeited_by")} == \
        {"winner": 1, "reason": "forfeit", "rule": "anti-hoarding", "forfeited_by": 0}


def test_ending_the_turn_while_holding_a_playable_card_is_hoarding():
    """End-turn before drawing, holding a Symbol card that fits, forfeits like drawing does;
    with the deck empty it is refused too (it no longer tells the player to draw)."""
    sc = load(GOLDEN / "hoarding.json")
    moves = sc["moves"][:1] + [{"player": 1, "type": "end-turn"}]
    report = validate_data(transcript(full_deck(sc["deck_prefix"]), moves), "x.json")
    assert [(v.rule, v.penalty) for v in report.violations] == [("mandatory-play", "forfeit")]
    assert {k: report.result[k] for k in ("winner", "reason", "rule", "forfeited_by")} == \
        {"winner": 0, "reason": "forfeit", "rule": "mandatory-play", "forfeited_by": 1}
    state = replay(full_deck(sc["deck_prefix"]), sc["moves"][:1])
    state.to_json()["deck"] = []
    v = state.check({"type": "end-turn"})
    assert (v.rule, v.penalty) == ("mandatory-play", "forfeit") and "draw" not in v.message
    assert {"type": "end-turn"} not in state.legal_moves()


def test_a_pending_skip_survives_a_completed_set():
    """TT-11: a Skip of the opponent's next turn still pending when its player completes a set
    is kept for the new stack; the assumption names the sentence it stretches."""
    for seed in range(50):
        state, rng = GAME.new_state(seed=seed), random.Random(seed)
        while not state.is_terminal():
            sets = sum(map(len, state.to_json()["sets"]))
            state.apply(rng.choice([m for m in state.legal_moves() if m["type"] != "forfeit"]))
            data = state.to_json()
            if sum(map(len, data["sets"])) > sets and any(data["skips"]):
                break
        else:
            continue
        assert sorted(data["skips"]) == [0, 1] and data["phase"] in ("stack-start", "over")
        break
    else:
        pytest.fail("no simulated game completes a set with a Skip pending")
    notes = {a["id"]: a for a in GAME.data["assumptions"]}
    for aid in ("TT-2", "TT-11", "TT-12"):
        assert notes[aid]["provenance"] == "assumed" and notes[aid]["stretches"]


def test_forfeit_ends_the_game_for_the_other_player():
    state = GAME.new_state(seed=4)
    state.apply({"type": "forfeit"})
    assert state.is_terminal() and state.result().winner == 1 and state.result().reason == "forfeit"


# -- options ---------------------------------------------------------------------

def test_option_denied_symbol_to_hand():
    sc = load(GOLDEN / "denied-flip-and-symbol.json")
    deck = full_deck(sc["deck_prefix"])
    plain = replay(deck, sc["moves"][:7]).to_json()
    to_hand = replay(deck, sc["moves"][:7], {"denied_symbol_to_hand": True}).to_json()
    assert "c0020-1" in plain["discard"] and "c0020-1" not in plain["hands"][0]
    assert "c0020-1" in to_hand["hands"][0] and "c0020-1" not in to_hand["discard"]


def test_option_deny_window_always_opens_without_a_deny_card():
    sc = load(GOLDEN / "basics.json")
    deck = full_deck(sc["deck_prefix"])
    moves = sc["moves"][:1]   # Red holds no Wild/Deny card
    when_holding = replay(deck, moves)
    when_holding.apply({"type": "play", "card": "c0010-1"})
    always = replay(deck, moves, {"deny_window": "always"})
    always.apply({"type": "play", "card": "c0010-1"})
    assert when_holding.to_json()["phase"] == "reaction"  # White holds wd-1
    state = replay(full_deck(sc["deck_prefix"]), sc["moves"][:4])
    state.apply({"type": "play", "card": "c0002-1"})      # Red holds no Wild/Deny: resolves at once
    assert state.to_json()["phase"] == "stack-start"
    state = replay(full_deck(sc["deck_prefix"]), sc["moves"][:4], {"deny_window": "always"})
    state.apply({"type": "play", "card": "c0002-1"})
    assert state.to_json()["phase"] == "reaction"
    assert state.legal_moves() == [{"type": "pass"}, {"type": "forfeit"}]


def test_unknown_options_are_refused():
    with pytest.raises(Exception, match="unknown option"):
        GAME.new_state(options={"speed": 3})
    with pytest.raises(Exception, match="deny_window"):
        GAME.new_state(options={"deny_window": "never"})


# -- results and data --------------------------------------------------------------

@pytest.mark.parametrize("sets, winner, reason", [
    ([[4, 5], [9]], 0, "most-sets"),
    ([[4, 5], [3, 9]], 1, "largest-set"),
    ([[4, 9], [9, 2]], None, "draw"),
])
def test_result_tie_breaks(sets, winner, reason):
    state = GAME.new_state(seed=0)
    data = state.to_json()
    data.update(sets=sets, phase="over", end={"reason": "no-moves", "player": 0})
    result = GAME.state_from_json(data).result()
    assert (result.winner, result.reason) == (winner, reason)


def test_the_deck_is_as_derived():
    symbols = [c for c in CARDS.values() if c.is_symbol]
    assert len(CARDS) == 50
    assert len([c for c in symbols if c.code.count("0") == 2]) == 20
    assert len([c for c in symbols if c.code.count("0") == 3]) == 16
    assert len([c for c in CARDS.values() if c.kind == "skip-flip"]) == 8
    assert len([c for c in CARDS.values() if c.kind == "wild-deny"]) == 6
    # every two-symbol card fits at least one of the four patterns
    for c in symbols:
        assert any(all(s in ("0", p[i]) for i, s in enumerate(c.code)) for p in GAME.data["patterns"])


def test_illegal_apply_leaves_the_state_unchanged():
    state = GAME.new_state(seed=9)
    before = state.digest()
    with pytest.raises(IllegalMove) as err:
        state.apply({"type": "play", "card": "c1200"})
    assert err.value.rule == "new-stack"
    assert state.digest() == before


def test_hidden_information_in_observations():
    state = GAME.new_state(seed=2)
    obs = state.observation(0)
    assert obs["hand"] == state.to_json()["hands"][0]
    assert "hands" not in obs and "deck" not in obs and obs["deck_size"] == len(state.to_json()["deck"])


def test_heuristic_player_completes_a_set_when_it_can():
    sc = load(GOLDEN / "basics.json")
    state = replay(full_deck(sc["deck_prefix"]), sc["moves"][:4])
    moves = [m for m in state.legal_moves() if m["type"] != "forfeit"]
    for seed in range(10):
        assert GAME.heuristic_move(state.observation(0), moves, random.Random(seed)) == \
            {"type": "play", "card": "c0002-1"}


# -- the command line ----------------------------------------------------------------

def test_cli_simulate_then_validate_200_games(tmp_path, capsys):
    out = tmp_path / "sim"
    assert main(["simulate", "two-and-two", "--games", "200", "--seed", "1", "--out", str(out)]) == 0
    files = sorted(out.glob("*.json"))
    assert len(files) == 200
    assert main(["validate", *map(str, files)]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert sum(": legal," in line for line in lines) == 200


def test_cli_validate_json_for_an_illegal_transcript(tmp_path, capsys):
    t = load(GOLDEN / "played-draw.transcript.json")
    t["moves"][10]["player"] = 1 - t["moves"][10]["player"]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(t))
    assert main(["validate", "--json", str(path)]) == 1
    [out] = json.loads(capsys.readouterr().out)  # one JSON list for the batch
    assert out["verdict"] == "illegal" and out["moves_checked"] == 11
    assert out["violations"][0]["move"] == 10 and out["violations"][0]["rule"] == "turn-order"
    assert out["game"] == "two-and-two"


@pytest.mark.parametrize("content, expected", [
    ('{"format": "tts-builder-transcript", "version": 1, "game": "two-and', "truncated JSON"),
    ("this is not json", "not valid JSON"),
    ("", "empty file"),
    ("[1, 2]", "not a transcript"),
    ('{"format": "other"}', "not a transcript"),
    ('{"format": "tts-builder-transcript", "version": 2}', "unsupported transcript version"),
    ('{"format": "tts-builder-transcript", "version": 1, "game": "chess", "players": [{"name": "a"}], '
     '"setup": {}, "moves": []}', "unknown game 'chess'"),
    ('{"format": "tts-builder-transcript", "version": 1, "game": "two-and-two", "players": [{"name": "a"}, '
     '{"name": "b"}], "setup": {"deck": ["c1200"]}, "moves": []}', "setup.deck must hold each"),
    ('{"format": "tts-builder-transcript", "version": 1, "game": "two-and-two", "players": [], '
     '"setup": {}, "moves": []}', "field players"),
    ('{"format": "tts-builder-transcript", "version": 1, "game": "two-and-two", "players": [{"name": "a"}], '
     '"setup": {}, "moves": "none"}', "field moves"),
    ('{"x": NaN}', "NaN"),
])
def test_cli_validate_bad_input_exits_2_with_one_line(tmp_path, capsys, content, expected):
    path = tmp_path / "in.json"
    path.write_text(content)
    assert main(["validate", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(path) in err and expected in err, err
    assert "Traceback" not in err


def test_cli_validate_a_save_without_a_transcript_exits_2(tmp_path, capsys, tts_save_fixtures):
    assert main(["validate", str(tts_save_fixtures[0])]) == 2
    assert "no recorded transcript" in capsys.readouterr().err


def test_cli_validate_reads_the_transcript_inside_a_save(tmp_path, capsys):
    t = load(GOLDEN / "played-draw.transcript.json")
    save = {"SaveName": "Two & Two", "ObjectStates": [], "LuaScript": "",
            "LuaScriptState": json.dumps({"transcript": t})}
    path = tmp_path / "save.json"
    path.write_text(json.dumps(save))
    assert main(["validate", str(path)]) == 0
    assert f": legal, {len(t['moves'])} moves, finished: Draw, 4 sets each" in capsys.readouterr().out


@pytest.mark.parametrize("argv, expected", [
    (["simulate", "chess", "--out", "x"], "unknown game 'chess'"),
    (["simulate", "two-and-two", "--games", "0", "--out", "x"], "--games must be at least 1"),
    (["simulate", "two-and-two", "--out", "x", "--options", "{bad"], "--options"),
    (["simulate", "two-and-two", "--out", "x", "--options", '{"speed": 1}'], "unknown option"),
    (["validate", "/no/such/file.json"], "no such file"),
    (["frobnicate"], "invalid choice"),
])
def test_cli_bad_arguments_exit_2(capsys, argv, expected, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert expected in err and err.count("\n") == 1, err
    assert not (tmp_path / "x").exists(), "nothing is written on bad input"


def test_json_strings_lists_every_string_the_state_json_holds():
    """The mutants' hook (rules.mutate): the same set a walk of the whole JSON finds, in every
    position of games under each policy and option, and after a forfeit."""
    from rules.mutate import _strings
    from rules.players import choose

    checked = 0
    for seed in range(12):
        options = [{}, {"denied_symbol_to_hand": True}, {"deny_window": "always"}][seed % 3]
        state = GAME.new_state(seed=seed, options=options)
        rng = random.Random(seed)
        policy = ("random", "heuristic")[seed % 2]
        while not state.is_terminal():
            assert state.json_strings() == _strings(state.to_json())
            checked += 1
            state.apply(choose(GAME, state, policy, rng) if rng.random() > 0.002 else {"type": "forfeit"})
        assert state.json_strings() == _strings(state.to_json())
    assert checked > 500
    odd = GAME.state_from_json({**GAME.new_state(seed=1).to_json(), "note": ["x-note"]})
    assert "x-note" in odd.json_strings() and odd.json_strings() == _strings(odd.to_json())


def test_json_strings_kept_finds_follow_a_setup_or_options_changed_in_place():
    """json_strings keeps the setup deck's and the options' strings for a game; a state whose setup
    deck or options change in place (no engine does it; a hand-made state may) is still read anew."""
    from rules.mutate import _strings

    state = GAME.new_state(seed=3)
    assert state.json_strings() == _strings(state.to_json())
    state.s["setup"]["deck"][0] = "x-card"
    assert "x-card" in state.json_strings() and state.json_strings() == _strings(state.to_json())
    state.s["options"]["deny_window"] = "y-window"
    assert "y-window" in state.json_strings() and state.json_strings() == _strings(state.to_json())
    state.s["pending"] = {"note": "z-note"}
    assert "z-note" in state.json_strings() and state.json_strings() == _strings(state.to_json())
