"""Results for every kind of game, and what the validator makes of recorded results, unknown
fields, settings and batches."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

import rules
from rules.core import Result, seat_label
from tts_builder.cli import main
from tts_builder.simulate import play_game
from tts_builder.validate import validate_data

GOLDEN = Path(__file__).parent / "golden" / "two-and-two"


def load(name: str) -> dict:
    return json.loads((GOLDEN / name).read_text())


# -- the Result type ------------------------------------------------------------------

@pytest.mark.parametrize("result, words", [
    (Result.win(0, [3, 1], "most-sets", unit="set"), "White wins 3 sets to 1"),
    (Result.win(1, [1, 2], "most-sets", unit="set"), "Red wins 2 sets to 1"),
    (Result.win(0, [4, 4], "largest-set", unit="set"), "White wins on largest-set, 4 sets each"),
    (Result.win(1, [2, 1], "forfeit", {"forfeited_by": 0}, unit="set"), "Red wins: White forfeits"),
    (Result.win([0, 1], [2, 2, 1], "shared", unit="set"), "White and Red share the win, 2 sets to 1"),
    (Result.team_win("light", [0, 2], [3, 2, 3, 2], "rounds", unit="round"), "Team Light wins 3 rounds to 2"),
    (Result.draw([2, 2], unit="set"), "Draw, 2 sets each"),
    (Result.draw(None), "Draw"),
    (Result.cooperative(True, 3, "all-placed", 17, unit="card placed"), "The table wins with 17 cards placed"),
    (Result.cooperative(False, 3, "out-of-cards", 1, unit="card placed"), "The table loses with 1 card placed"),
    (Result.solo(False, "out-of-time"), "Solo: lost"),
    (Result.solo(True, "cleared", 120), "Solo: won, score 120"),
])
def test_describe_in_words(result, words):
    assert result.describe(["White", "Red"]) == words


@pytest.mark.parametrize("result", [
    Result.win(0, [3, 1], "most-sets"), Result.win([0, 2], [1, 0, 1], "shared"),
    Result.team_win("dark", [1, 3], [2, 3, 2, 3], "rounds"), Result.draw([1, 1], teams=True),
    Result.cooperative(True, 4, "won", 17), Result.cooperative(False, 2, "lost"),
    Result.solo(True, "cleared", 9), Result.solo(False, "lost", None, {"turns": 12}),
])
def test_result_json_round_trips(result):
    data = json.loads(json.dumps(result.to_json()))
    assert Result.from_json(data) == result
    assert data["winner"] == (result.winners[0] if result.winners else None)


def test_older_results_read():
    old = Result.from_json({"winner": 1, "scores": [2, 3], "reason": "most-sets", "sets": [[3, 4], [5, 4, 3]]})
    assert (old.kind, old.outcome, old.winners, old.detail) == ("competitive", "win", [1], {"sets": [[3, 4], [5, 4, 3]]})
    for draw in ({"winner": None, "scores": [2, 2], "reason": "draw"}, {"scores": [2, 2], "reason": "draw"}):
        assert Result.from_json(draw).outcome == "draw" and Result.from_json(draw).winner is None


@pytest.mark.parametrize("bad", [
    dict(kind="competitive", outcome="loss", reason="x"),            # only co-op and solo games are lost
    dict(kind="solo", outcome="draw", reason="x"),                   # solo games are won or lost
    dict(kind="teams", outcome="win", reason="x", winners=[0, 2]),   # a team win names its team
    dict(kind="competitive", outcome="win", reason="x"),             # a win has winners
    dict(kind="competitive", outcome="draw", reason="x", winners=[0]),
    dict(kind="chess", outcome="win", reason="x", winners=[0]),
])
def test_impossible_results_are_refused(bad):
    with pytest.raises(ValueError):
        Result(**bad)


def test_from_json_refuses_a_winner_outside_the_winners():
    with pytest.raises(ValueError, match="winner"):
        Result.from_json({"winner": 2, "winners": [0], "reason": "x"})


def test_engines_give_kinds_and_teams():
    two = play_game("twin-tower-city", 0, policy="random")
    four = play_game("twin-tower-city", 3, policy="random", num_players=4)  # a deal Dark's team wins 3-2
    assert two["result"]["kind"] == "competitive" and len(two["result"]["winners"]) <= 1
    assert four["result"]["kind"] == "teams"
    assert four["result"]["team"] == "dark" and four["result"]["winners"] == [1, 3]
    report = validate_data(four, "four.json")
    assert report.legal and report.result_text() == "Team Dark wins 3 rounds to 2"
    t22 = play_game("two-and-two", 3)
    assert t22["result"]["kind"] == "competitive" and t22["result"]["outcome"] in ("win", "draw")


# -- recorded results (issue 8) ---------------------------------------------------------

def test_a_recorded_score_that_differs_is_named():
    t = load("played-end-at-stack.transcript.json")       # White wins 7 sets to 4
    t["result"]["scores"] = [7, 0]                         # same winner, same reason
    report = validate_data(t, "x.json")
    assert [(v.move, v.rule, v.field) for v in report.violations] == [(None, "result", "result/scores")]
    assert "[7,0]" in report.violations[0].message and "[7,4]" in report.violations[0].message


def test_a_recorded_round_count_that_differs_is_named():
    t = play_game("twin-tower-city", 5)
    rounds = t["result"]["rounds_won"]
    t["result"]["rounds_won"] = {"dark": rounds["dark"] + 1, "light": rounds["light"]}
    report = validate_data(t, "ttc.json")
    assert [v.field for v in report.violations] == ["result/rounds_won"]


def test_a_transcript_without_a_result_gets_the_replays():
    t = load("played-end-at-stack.transcript.json")
    t.pop("result")
    report = validate_data(t, "x.json")
    assert report.legal and report.finished and report.result["winner"] == 0
    assert report.summary().endswith("finished: White wins 7 sets to 4")


def test_a_draw_recorded_without_winner_is_legal_and_drawn(tmp_path, capsys):
    t = load("played-draw.transcript.json")
    del t["result"]["winner"]                              # as the Lua recorder writes a draw
    path = tmp_path / "draw.json"
    path.write_text(json.dumps(t))
    assert main(["validate", str(path)]) == 0
    assert "finished: Draw, 4 sets each" in capsys.readouterr().out


def test_a_win_recorded_as_a_draw_is_refused():
    t = load("played-end-at-stack.transcript.json")
    t["result"] = {"reason": "most-sets", "scores": [7, 4]}   # no winner: a draw
    report = validate_data(t, "x.json")
    assert [v.field for v in report.violations] == ["result/winner"]


def test_a_result_field_the_replay_does_not_know_is_strict():
    t = load("played-end-at-stack.transcript.json")
    t["result"]["duration_s"] = 612
    assert [v.field for v in validate_data(copy.deepcopy(t), "x.json").violations] == ["result/duration_s"]
    assert validate_data(t, "x.json", lenient=True).legal


# -- unknown move fields (issue 8) -------------------------------------------------------

def test_an_unknown_move_field_is_refused_naming_it_unless_lenient(tmp_path, capsys):
    t = load("played-draw.transcript.json")
    assert t["moves"][2]["type"] == "pass"
    t["moves"][2]["card"] = "c1200"
    report = validate_data(copy.deepcopy(t), "x.json")
    [v] = report.violations
    assert (v.move, v.rule, v.section) == (2, "move-format", "Gameplay") and "'card'" in v.message
    assert report.moves_checked == 3
    assert validate_data(copy.deepcopy(t), "x.json", lenient=True).legal
    path = tmp_path / "t.json"
    path.write_text(json.dumps(t))
    assert main(["validate", str(path)]) == 1
    assert main(["validate", "--lenient", str(path)]) == 0


def test_the_engines_rule_comes_first_where_it_reads_the_field():
    t = load("played-largest-set.transcript.json")
    skips = [i for i, m in enumerate(t["moves"]) if m["type"] == "skip"]
    assert skips
    k = skips[0]
    t["moves"][k]["flip"] = t["moves"][k]["card"]          # a Skip card declared as its own Flip
    assert validate_data(t, "x.json").violations[0].rule == "flip"


# -- settings -----------------------------------------------------------------------------

def test_players_and_options_are_checks_on_the_transcript():
    t = play_game("twin-tower-city", 2, num_players=4, options={"open_hands": True})
    assert validate_data(copy.deepcopy(t), "t.json", players=4, options={"open_hands": True}).legal
    report = validate_data(copy.deepcopy(t), "t.json", players=6, options={"open_hands": False})
    assert [(v.rule, v.field) for v in report.violations] == [("players", "players"),
                                                              ("options", "options/open_hands")]
    report = validate_data(copy.deepcopy(t), "t.json", options={"speed": 2})
    assert report.violations[0].rule == "options" and "unknown option 'speed'" in report.violations[0].message


# -- batches (issue 8) --------------------------------------------------------------------

def test_a_batch_goes_on_past_an_unusable_file(tmp_path, capsys):
    legal = load("played-draw.transcript.json")
    illegal = copy.deepcopy(legal)
    illegal["moves"][5]["player"] = 1 - illegal["moves"][5]["player"]
    files = [tmp_path / "a.json", tmp_path / "b.json", tmp_path / "c.json", tmp_path / "d.json"]
    files[0].write_text("{\"format\": ")
    files[1].write_text(json.dumps(illegal))
    files[2].write_text(json.dumps(legal))
    # d.json does not exist
    assert main(["validate", *map(str, files)]) == 2
    out, err = capsys.readouterr()
    assert "b.json: illegal at move 6 by Red: [turn-order]" in out and "c.json: legal" in out  # moves[5]
    assert out.splitlines()[-1] == "4 files: 1 legal, 1 illegal, 2 unusable"
    assert err.count("\n") == 2 and "a.json" in err and "d.json: no such file" in err
    assert main(["validate", "--json", *map(str, files)]) == 2
    reports = json.loads(capsys.readouterr().out)
    assert [r["verdict"] for r in reports] == ["unusable", "illegal", "legal", "unusable"]
    assert "truncated JSON" in reports[0]["error"] and reports[1]["violations"][0]["rule"] == "turn-order"
    assert main(["validate", str(files[1]), str(files[2])]) == 1


# -- any seat count -----------------------------------------------------------------------

@pytest.mark.parametrize("players", [4, 6])
def test_simulate_and_validate_team_games(tmp_path, capsys, players):
    out = tmp_path / "sim"
    assert main(["simulate", "twin-tower-city", "--games", "3", "--players", str(players), "--out", str(out),
                 "--options", '{"open_hands": true}']) == 0
    files = sorted(out.glob("*.json"))
    assert len(files) == 3 and all(len(json.loads(f.read_text())["players"]) == players for f in files)
    capsys.readouterr()
    assert main(["validate", "--players", str(players), *map(str, files)]) == 0
    text = capsys.readouterr().out
    assert text.count(": legal,") == 3 and ("Team " in text or "Draw" in text)


@pytest.mark.parametrize("argv, expected", [
    (["simulate", "twin-tower-city", "--players", "3", "--out", "x"], "--players: twin-tower-city is played by 2, 4, 6"),
    (["simulate", "two-and-two", "--players", "4", "--out", "x"], "--players: two-and-two is played by 2"),
    (["simulate", "twin-tower-city", "--players", "2", "--options", '{"teams": true}', "--out", "x"],
     "team play needs 4 or 6 players"),
    (["simulate", "two-and-two", "--players", "0", "--out", "x"], "--players must be at least 1"),
    (["check-lua", "twin-tower-city", "--players", "5"], "--players"),
    (["check-lua", "two-and-two", "--options", '{"speed": 1}'], "unknown option 'speed'"),
])
def test_bad_seat_counts_are_one_line(tmp_path, capsys, monkeypatch, argv, expected):
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and expected in err, err
    assert not (tmp_path / "x").exists()


def test_game_metadata_declares_what_the_invariants_use():
    for game in rules.all_games():
        assert game.seat_counts() and all(game.min_players <= n <= game.max_players for n in game.seat_counts())
        assert game.option_variants()[0] == {}
        assert game.result_kind in ("competitive", "cooperative", "solo")
    assert rules.get_game("twin-tower-city").seat_counts() == (2, 4, 6)
    assert rules.get_game("two-and-two").option_variants() == [
        {}, {"denied_symbol_to_hand": True}, {"deny_window": "always"}]


# -- the recorder prints the same words in TTS ---------------------------------------------

SEATS = [{"seat": 0, "color": "White"}, {"seat": 1, "color": "Red"}]


def _recorder(game_id: str):
    from tts_builder.luagen import game_template, global_context, render
    from tts_builder.luasandbox import LuaSandbox

    ctx = global_context(game_id, {"seats": SEATS})
    source = "\n".join(render(name, ctx) for name in (
        "runtime/util.lua.j2", game_template(game_id, "rules.lua.j2"), "runtime/judge.lua.j2",
        "runtime/recorder.lua.j2")) + "\nreturn Game.describe_result\n"
    sandbox = LuaSandbox()
    return sandbox, sandbox.execute(source, f"{game_id}/recorder.lua")


def test_the_recorder_describes_results_as_python_does():
    from tts_builder.lualint import lint_lua
    from tts_builder.luagen import global_context, render

    assert lint_lua(render("runtime/recorder.lua.j2", global_context("two-and-two", {"seats": SEATS})),
                    "recorder.lua") == []
    names = [s["color"] for s in SEATS]
    cases: dict[str, list[dict]] = {
        "two-and-two": [load(p.name)["result"] for p in sorted(GOLDEN.glob("played-*.json"))]
        + [play_game("two-and-two", s)["result"] for s in range(12)],
        "twin-tower-city": [play_game("twin-tower-city", s, num_players=n, policy="random")["result"]
                            for n in (2, 4, 6) for s in range(6)],
    }
    made = [Result.win(1, [2, 1], "forfeit", {"forfeited_by": 0}), Result.win([0, 1], [2, 2, 1], "shared"),
            Result.cooperative(True, 3, "all-placed", 17), Result.solo(False, "out-of-time"),
            Result.draw([1, 2]), Result.team_win("light", [0, 2], [3, 1, 3, 1], "rounds")]
    for game_id, recorded in cases.items():
        sandbox, describe = _recorder(game_id)
        unit = rules.get_game(game_id).score_unit
        for data in recorded + [r.to_json() for r in made]:
            words = Result.from_json(data, unit=unit).describe(names)
            assert sandbox.call(describe, sandbox.to_lua(data)) == words, data
    old_draw = {"scores": [4, 4], "reason": "draw"}
    sandbox, describe = _recorder("two-and-two")
    assert sandbox.call(describe, sandbox.to_lua(old_draw)) == "Draw, 4 sets each"


def test_the_mod_prints_the_result_in_words_when_the_game_ends(tmp_path):
    from modtable import ModTable, build_save

    table = ModTable(build_save(tmp_path, "two-and-two"))
    table.click("White", "ttNewGame")
    t = table.transcript()
    seat = rules.get_game("two-and-two").new_state(setup=t["setup"], options=t["options"]).current_player()
    color, other = ("White", "Red") if seat == 0 else ("Red", "White")
    table.click(color, "ttForfeit")
    table.click(color, "ttForfeit")
    recorded = table.transcript()["result"]
    assert recorded["reason"] == "forfeit" and recorded["outcome"] == "win" and recorded["kind"] == "competitive"
    said = [line.text for line in table.fake.chat]
    assert f"Game over: {other} wins: {color} forfeits" in said, said


def test_validate_show_and_replay_count_moves_and_name_seats_alike(tmp_path, capsys):
    """One convention for people: move N counted from 1, the seat by its player's name; validate's
    --json keeps the 0-based index into "moves"."""
    data = load("played-draw.transcript.json")
    data["moves"][7]["player"] = 1 - data["moves"][7]["player"]
    mover = data["moves"][7]["player"]
    name = data["players"][mover]["name"]
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(data))
    assert main(["validate", str(path)]) == 1
    text = capsys.readouterr().out
    assert text.startswith(f"{path}: illegal at move 8 by {name}: [turn-order]")
    assert main(["show", str(path)]) == 1
    assert f"Verdict: illegal at move 8 by {name}: [turn-order]" in capsys.readouterr().out
    assert main(["replay", str(path), "--out", str(tmp_path / "bad.html")]) == 1
    assert f"illegal at move 8 by {name}: [turn-order]" in capsys.readouterr().out
    assert main(["validate", "--json", str(path)]) == 1
    (report,) = json.loads(capsys.readouterr().out)
    assert report["violations"][0]["move"] == 7 and report["violations"][0]["player"] == mover


def test_validate_names_an_unnamed_seat_as_the_game_does(tmp_path, capsys):
    data = load("played-draw.transcript.json")
    data["players"] = [{"name": ""}, {"name": ""}]
    data["moves"][2]["player"] = 1 - data["moves"][2]["player"]
    path = tmp_path / "anon.json"
    path.write_text(json.dumps(data))
    assert main(["validate", str(path)]) == 1
    out = capsys.readouterr().out
    state = rules.get_game("two-and-two").new_state(seed=0)
    assert f"illegal at move 3 by {seat_label(state, data['moves'][2]['player'])}:" in out
    assert "(player" not in out
