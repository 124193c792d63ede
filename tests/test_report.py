"""The simulation report: Wilson intervals, every result kind, per-seat policies, --swap/--vary,
--json, the chart and the command's exit codes."""

from __future__ import annotations

import json
import re

import pytest

from rules.core import Result
from rules.players import seat_policies
from tts_builder.cli import main
from tts_builder.report import build_report, chart_png, chart_svg, distribution, histogram, report_text, wilson
from tts_builder.simulate import play_game, variants


# -- Wilson -------------------------------------------------------------------

@pytest.mark.parametrize("wins, games, low, high", [
    (5, 10, 0.2366, 0.7634),     # the textbook symmetric case
    (0, 10, 0.0, 0.2775),        # no wins: the interval still reaches 27.75%
    (10, 10, 0.7225, 1.0),
    (1, 10, 0.0179, 0.4042),     # Newcombe (1998), table I
    (50, 100, 0.4038, 0.5962),
    (81, 263, 0.2553, 0.3662),
])
def test_wilson_interval_known_values(wins, games, low, high):
    got = wilson(wins, games)
    assert got == pytest.approx((low, high), abs=6e-5)


def test_wilson_without_games_is_the_whole_range():
    assert wilson(0, 0) == (0.0, 1.0)


def test_distribution_and_histogram():
    assert distribution([]) is None
    assert distribution([7]) == {"min": 7, "median": 7, "mean": 7, "p90": 7, "max": 7}
    d = distribution(list(range(1, 21)))
    assert d == {"min": 1, "median": 10.5, "mean": 10.5, "p90": 18, "max": 20}
    hist = histogram([1, 1, 2, 30], bins=3)
    assert [h["count"] for h in hist] == [3, 0, 1] and hist[0]["low"] == 1 and hist[-1]["high"] >= 30
    assert sum(h["count"] for h in histogram(list(range(100)))) == 100


# -- constructed results ------------------------------------------------------

def transcript(result: Result | None, seats: int = 2, first: int = 0, moves: int = 3,
               policies: list[str] | None = None, game: str = "toy") -> dict:
    order = [(first + i) % seats for i in range(moves)]
    return {"format": "tts-builder-transcript", "version": 1, "game": game,
            "players": [{"name": f"P{i}"} for i in range(seats)], "setup": {},
            "moves": [{"player": p, "type": "x"} for p in order],
            "source": {"policies": policies or ["heuristic"] * seats},
            "result": result.to_json() if result else None}


def test_competitive_seats_draws_first_player_and_shared_wins():
    games = [transcript(Result.win(0, [3, 1], "most"), moves=4),
             transcript(Result.win(1, [1, 3], "most"), first=1, moves=6),
             transcript(Result.win([0, 1], [2, 2], "shared")),
             transcript(Result.draw([2, 2], "draw")),
             transcript(None, moves=1)]
    r = build_report(games)
    assert (r["games"], r["finished"], r["unfinished"]) == (5, 4, 1)
    assert [(s["wins"], s["games"]) for s in r["seats"]] == [(2, 4), (2, 4)]
    assert (r["draws"]["draws"], r["draws"]["games"]) == (1, 4)
    # the first mover won games 1, 2 (seat 1 moved first and won) and shared game 3
    assert (r["first_player"]["first"]["wins"], r["first_player"]["first"]["games"]) == (3, 4)
    assert (r["first_player"]["others"]["wins"], r["first_player"]["others"]["games"]) == (1, 4)
    assert r["reasons"] == {"most": 2, "draw": 1, "shared": 1}
    assert r["length"] == {"min": 1, "median": 3, "mean": 3.4, "p90": 6, "max": 6}
    assert "sides" not in r and "table" not in r and "policies" not in r
    low, high = wilson(2, 4)
    assert r["seats"][0]["low"] == round(low, 6) and r["seats"][0]["high"] == round(high, 6)


def test_sides_from_the_result_and_teams_without_sides():
    ttc_like = []
    for seat0, winner in (("light", 1), ("dark", 0), ("dark", 1)):
        other = "dark" if seat0 == "light" else "light"
        result = Result.win(winner, [0, 0], "rounds", detail={"sides": [seat0, other]})
        ttc_like.append(transcript(result))
    r = build_report(ttc_like)
    sides = {s["side"]: (s["wins"], s["games"]) for s in r["sides"]}
    assert sides == {"dark": (2, 3), "light": (1, 3)}  # dark won from seat 1 and from seat 0; light from seat 1
    teams = [transcript(Result.team_win("red", [0, 2], None, "x"), seats=4),
             transcript(Result.team_win("blue", [1, 3], None, "x"), seats=4),
             transcript(Result.team_win("blue", [1, 3], None, "x"), seats=4),
             transcript(Result.draw(None, teams=True), seats=4)]
    r = build_report(teams)
    assert {s["side"]: (s["wins"], s["games"]) for s in r["sides"]} == {"blue": (2, 4), "red": (1, 4)}
    assert [s["wins"] for s in r["seats"]] == [1, 2, 1, 2] and r["draws"]["draws"] == 1


def test_cooperative_and_solo_success_and_scores():
    coop = [transcript(Result.cooperative(True, 2, "all-placed", 18)),
            transcript(Result.cooperative(False, 2, "stuck", 5)),
            transcript(Result.cooperative(False, 2, "stuck", 9))]
    r = build_report(coop)
    assert (r["table"]["wins"], r["table"]["games"]) == (1, 3) and r["table"]["rate"] == round(1 / 3, 6)
    assert r["table"]["score"] == {"min": 5, "median": 9, "mean": 10.6667, "p90": 18, "max": 18}
    assert "seats" not in r and "first_player" not in r
    solo = [transcript(Result.solo(True, "goal", 15), seats=1), transcript(Result.solo(True, "goal"), seats=1)]
    r = build_report(solo)
    assert r["table"]["rate"] == 1.0 and r["table"]["score"]["max"] == 15 and r["kinds"] == {"solo": 2}
    text = report_text(r)
    assert "table wins" in text and "2/2" in text and "100.0%" in text
    assert text.splitlines()[0] == "toy: 2 games, 1 player, policy heuristic"  # not "1 players"


def test_report_text_means_have_one_decimal_and_counts_agree_with_their_nouns():
    coop = [transcript(Result.cooperative(True, 2, "all-placed", 18)),
            transcript(Result.cooperative(False, 2, "stuck", 5)),
            transcript(Result.cooperative(False, 2, "stuck", 9))]
    text = report_text(build_report(coop))
    assert "  score: min 5, median 9, mean 10.7, p90 18, max 18" in text.splitlines()
    whole = report_text(build_report([transcript(Result.win(0, [3, 1], "most"), moves=4)]))
    assert whole.splitlines()[0] == "toy: 1 game, 2 players, policy heuristic"
    assert "  length in moves: min 4, median 4, mean 4.0, p90 4, max 4" in whole.splitlines()


def test_policies_are_compared_when_seats_play_different_ones():
    games = [transcript(Result.win(0, None, "x"), policies=["heuristic", "random"]),
             transcript(Result.win(1, None, "x"), policies=["random", "heuristic"]),
             transcript(Result.win(1, None, "x"), policies=["heuristic", "random"])]
    r = build_report(games)
    assert {p["policy"]: (p["wins"], p["games"]) for p in r["policies"]} == {"heuristic": (2, 3), "random": (1, 3)}
    assert r["seats"][0]["policies"] == {"heuristic": 2, "random": 1}


# -- policies, --swap, --vary -------------------------------------------------

def test_seat_policies_parsing_and_refusals():
    assert seat_policies("random", 3) == ("random",) * 3
    assert seat_policies("heuristic, random", 2) == ("heuristic", "random")
    assert seat_policies("mixed", 2) == ("heuristic", "random")
    for spec, n, words in (("clever", 2, "unknown policy 'clever'"), ("heuristic,random", 3, "2 policies for 3 seats"),
                           ("heuristic,mixed", 2, "unknown seat policy 'mixed'"), ("heuristic,", 2, "unknown seat policy ''")):
        with pytest.raises(ValueError, match=re.escape(words)):
            seat_policies(spec, n)


def test_each_seat_plays_its_own_policy():
    a = play_game("two-and-two", 5, policy="heuristic,random")
    assert a["source"]["policies"] == ["heuristic", "random"] and a["source"]["policy"] == "heuristic,random"
    assert play_game("two-and-two", 5, policy="heuristic,random") == a  # same arguments, same game
    wins = {"heuristic": 0, "random": 0}
    for seed in range(16):
        for spec in ("heuristic,random", "random,heuristic"):
            t = play_game("two-and-two", seed, policy=spec)
            for seat in t["result"]["winners"]:
                wins[t["source"]["policies"][seat]] += 1
    assert wins["heuristic"] > wins["random"]


def test_swap_plays_each_distinct_rotation_and_vary_each_value():
    assert variants("two-and-two", "heuristic", None, None, swap=True) == [("heuristic", None)]
    assert [v[0] for v in variants("two-by-two", "heuristic,random,random", None, 3, swap=True)] == [
        "heuristic,random,random", "random,random,heuristic", "random,heuristic,random"]
    assert [v[0] for v in variants("two-by-two", "mixed", None, 3, swap=True)] == [
        "mixed", "random,random,heuristic", "random,heuristic,random"]
    got = variants("twin-tower-city", "heuristic", {"no_bonuses": True}, None, vary="seat0_side")
    assert got == [("heuristic", {"no_bonuses": True, "seat0_side": "light"}),
                   ("heuristic", {"no_bonuses": True, "seat0_side": "dark"})]


# -- the command --------------------------------------------------------------

def run(capsys, argv):
    code = main(argv)
    out, err = capsys.readouterr()
    return code, out, err


def test_simulate_json_is_one_object_and_matches_the_text(tmp_path, capsys):
    out_dir = tmp_path / "o"
    code, out, err = run(capsys, ["simulate", "two-and-two", "--games", "6", "--out", str(out_dir), "--jobs", "1",
                                  "--policy", "heuristic,random", "--swap", "--json"])
    assert code == 0
    report = json.loads(out)  # nothing else on stdout
    assert report["games"] == 12 and len(list(out_dir.glob("two-and-two-*.json"))) == 12
    assert {p["policy"] for p in report["policies"]} == {"heuristic", "random"}
    code, text, _ = run(capsys, ["report", str(out_dir)])
    assert code == 0 and report_text(report) == text.rstrip("\n")
    for s in report["seats"]:
        assert f"{s['wins']}/{s['games']}" in text and f"{100 * s['rate']:.1f}%" in text
    assert f"p90 {report['length']['p90']}" in text
    for reason, n in report["reasons"].items():
        assert f"{reason} {n}" in text


def test_simulate_writes_the_chart_beside_the_transcripts_deterministically(tmp_path, capsys):
    outs = []
    for name in ("a", "b"):
        code, out, _ = run(capsys, ["simulate", "smitten-2", "--games", "5", "--players", "2",
                                    "--out", str(tmp_path / name), "--jobs", "1"])
        assert code == 0 and "table wins" in out and "report.svg" in out
        outs.append(((tmp_path / name / "report.svg").read_bytes(), (tmp_path / name / "report.png").read_bytes()))
    assert outs[0] == outs[1]
    svg = outs[0][0].decode()
    assert svg.startswith("<svg") and "smitten-2: 5 games" in svg and "table wins" in svg and "score" in svg
    assert outs[0][1].startswith(b"\x89PNG")
    # a report over the folder (its report.svg/png are not transcripts) draws the same chart
    report = build_report(json.loads(p.read_text()) for p in sorted((tmp_path / "a").glob("*.json")))
    assert chart_svg(report).encode() == outs[0][0] and chart_png(report) == outs[0][1]


def test_chart_draws_bars_with_intervals():
    r = build_report([transcript(Result.win(0, None, "x")), transcript(Result.win(1, None, "x")),
                      transcript(Result.win(0, None, "x"))])
    svg = chart_svg(r)
    assert svg.count("<rect") >= 1 + 2 + 1  # background, two seat bars, a length bar
    assert "66.7%" in svg and "33.3%" in svg and svg == chart_svg(r)


@pytest.mark.parametrize("argv, words", [
    (["simulate", "two-and-two", "--policy", "heuristic,random,random"], "--policy heuristic,random,random: 3 policies for 2 seats"),
    (["simulate", "two-and-two", "--policy", "smart"], "--policy smart: unknown policy 'smart'"),
    (["simulate", "two-and-two", "--vary", "colour"], "--vary colour: two-and-two has no such option"),
    (["simulate", "twin-tower-city", "--players", "2", "--vary", "teams"], "--vary teams=true: --options/--players: team play"),
    (["simulate", "smitten-2", "--vary", "difficulty", "--options", '{"difficulty": "hard"}', "--policy", "a,b"],
     "--policy a,b: unknown seat policy 'a'"),
    # a negative seed deals as its positive (and GAME--03.json reads and sorts badly): refused
    (["simulate", "two-and-two", "--seed", "-3"], "--seed must be at least 0, not -3"),
])
def test_simulate_refusals_are_one_line_exit_2(tmp_path, capsys, argv, words):
    code, out, err = run(capsys, [*argv, "--games", "1", "--out", str(tmp_path / "o")])
    assert code == 2 and out == "" and err.startswith(f"tts-builder: {words}") and err.count("\n") == 1
    assert not (tmp_path / "o").exists()


def test_report_refusals_are_one_line_exit_2(tmp_path, capsys):
    not_transcript = tmp_path / "save.json"
    not_transcript.write_text('{"ObjectStates": []}')
    empty = tmp_path / "empty"
    empty.mkdir()
    a = tmp_path / "a.json"
    b = tmp_path / "b.json"
    a.write_text(json.dumps(play_game("two-and-two", 1)))
    b.write_text(json.dumps(play_game("obren-buttons", 1)))
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "t.json").write_text(json.dumps({**play_game("two-and-two", 1), "moves": {}}))
    for argv, words in ((["report", str(not_transcript)], "not a transcript"),
                        (["report", str(broken)], "t.json: field moves: expected a list"),
                        (["report", str(empty)], "a folder with no .json file"),
                        (["report", str(tmp_path / "nothing-*.json")], "the pattern matches no file"),
                        (["report", str(tmp_path / "missing.json")], "no such file"),
                        (["report", str(a), str(b)], "b.json: a game of obren-buttons, the others are of two-and-two")):
        code, out, err = run(capsys, argv)
        assert code == 2 and out == "" and words in err and err.count("\n") == 1, err
    code, out, _ = run(capsys, ["report", str(a), "--json"])
    assert code == 0 and json.loads(out)["games"] == 1


def test_report_chart_option_writes_well_formed_svg(tmp_path, capsys):
    import xml.etree.ElementTree as ET

    games = tmp_path / "games"
    games.mkdir()
    for seed in range(3):
        (games / f"g{seed}.json").write_text(json.dumps(play_game("twin-tower-city", seed, num_players=4)))
    code, out, _ = run(capsys, ["report", str(games), "--chart", str(tmp_path / "chart")])
    assert code == 0 and "side dark" in out and "side light" in out
    root = ET.parse(tmp_path / "chart" / "report.svg").getroot()
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert "twin-tower-city: 3 games, 4 players, policy heuristic, teams=true, seeds 0-2" in texts and "side dark" in texts and "game length (moves)" in texts
    assert (tmp_path / "chart" / "report.png").read_bytes().startswith(b"\x89PNG")


def test_the_same_table_of_players_is_the_same_game():
    assert play_game("two-and-two", 2, policy="random,random") == play_game("two-and-two", 2, policy="random")
    assert play_game("two-and-two", 2, policy="heuristic , random") == play_game("two-and-two", 2,
                                                                                 policy="heuristic,random")
    assert variants("two-and-two", "heuristic,heuristic", None, None, swap=True) == [("heuristic", None)]


def test_simulate_file_names_sort_in_seed_order(tmp_path, capsys):
    """Seeds 998 to 1001: one width for the run, so a listing sorts as the seeds do."""
    code, _, _ = run(capsys, ["simulate", "obren-buttons", "--games", "4", "--seed", "998", "-q",
                              "--out", str(tmp_path)])
    assert code == 0
    names = sorted(p.name for p in tmp_path.glob("obren-buttons-*.json"))
    assert names == [f"obren-buttons-{s:04d}.json" for s in range(998, 1002)]


def test_report_reads_folders_zips_and_patterns_as_validate_does(tmp_path, capsys):
    """A nested folder, a zip and a glob pattern give the report the files would give; a save
    among them is passed over, and a folder holding only saves is refused in one line."""
    import zipfile

    games = [play_game("two-and-two", seed) for seed in range(4)]
    files = []
    for i, data in enumerate(games):
        where = tmp_path / "t" / ("deep" if i % 2 else "") / f"g{i}.json"
        where.parent.mkdir(parents=True, exist_ok=True)
        where.write_text(json.dumps(data))
        files.append(where)
    (tmp_path / "t" / "save.json").write_text('{"ObjectStates": []}')
    with zipfile.ZipFile(tmp_path / "games.zip", "w") as archive:
        for i, data in enumerate(games):
            archive.writestr(f"round/g{i}.json", json.dumps(data))
    reports = []
    for argv in ([str(p) for p in files], [str(tmp_path / "t")], [str(tmp_path / "games.zip")],
                 [str(tmp_path / "t" / "**" / "g*.json")]):
        code, out, err = run(capsys, ["report", *argv, "--json"])
        assert code == 0, err
        reports.append(json.loads(out))
    assert reports[0]["games"] == 4 and all(r == reports[0] for r in reports)
    saves = tmp_path / "saves"
    saves.mkdir()
    (saves / "s.json").write_text('{"ObjectStates": []}')
    code, out, err = run(capsys, ["report", str(saves)])
    assert code == 2 and out == "" and "no transcripts" in err and err.count("\n") == 1
