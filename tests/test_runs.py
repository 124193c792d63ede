"""Designer and organiser runs (issues 23 and 24): usage errors before any file is read, near-match
suggestions, runs keyed by what was played, per-value reports, run files, one JSON document per
--json."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tts_builder.cli import main


def run(capsys, argv):
    code = main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture(scope="module")
def two_by_two_run(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("runs") / "tbt"
    assert main(["simulate", "two-by-two", "--games", "2", "--policy", "random", "--out", str(out), "-q",
                 "--json"]) == 0
    return out


# -- usage errors ---------------------------------------------------------------------

@pytest.mark.parametrize("flags, words", [
    (["--options", '{"scorng": "basic"}'], "--options: unknown option 'scorng' for two-by-two; did you mean 'scoring'?"),
    (["--options", '{"scoring": "bsic"}'], "--options: two-by-two's option scoring takes one of \"basic\", \"advanced\", "
                                            "not \"bsic\"; did you mean 'basic'?"),
    (["--players", "5"], "--players: two-by-two is played by 2, 3, 4 players, not 5"),
    (["--players", "6"], "--players: two-by-two is played by 2, 3, 4 players, not 6"),
    (["--options", '{"difficulty": "easy"}'], "--options: unknown option 'difficulty' for two-by-two"),
])
def test_validate_refuses_a_typo_before_judging_any_file(capsys, two_by_two_run, flags, words):
    """Before: every file was marked illegal ("2 files: 0 legal, 2 illegal", exit 1)."""
    code, out, err = run(capsys, ["validate", two_by_two_run, *flags])
    assert code == 2 and out == "" and err.startswith(f"tts-builder: {words}") and err.count("\n") == 1


def test_validate_options_the_batch_has_are_still_checks(capsys, two_by_two_run):
    assert run(capsys, ["validate", two_by_two_run, "--options", '{"scoring": "basic"}', "--players", "2"])[0] == 0
    code, out, _ = run(capsys, ["validate", two_by_two_run, "--options", '{"scoring": "advanced"}'])
    assert code == 1 and "option scoring" in out


@pytest.mark.parametrize("argv, words", [
    (["simulate", "smiten-2", "--out", "x"], "unknown game 'smiten-2'; did you mean 'smitten-2'?"),
    (["simulate", "two-and-too", "--out", "x"], "unknown game 'two-and-too'; did you mean 'two-and-two'?"),
    (["games", "two-by-tow"], "unknown game 'two-by-tow'; did you mean 'two-by-two'?"),
    (["simulate", "two-by-two", "--out", "x", "--options", '{"scorng": "basic"}'], "did you mean 'scoring'?"),
    (["simulate", "two-by-two", "--out", "x", "--vary", "scorng"], "--vary scorng: two-by-two has no such option; did you mean 'scoring'?"),
    (["check-lua", "two-by-two", "--options", '{"scorng": "basic"}'], "did you mean 'scoring'?"),
    (["simulate", "chess", "--out", "x"], "unknown game 'chess' (known: "),
])
def test_near_matches_are_suggested(tmp_path, capsys, monkeypatch, argv, words):
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, argv)
    assert code == 2 and out == "" and words in err and err.count("\n") == 1
    assert not (tmp_path / "x").exists()


def test_validate_flags_no_game_has_are_refused_even_without_a_transcript(tmp_path, capsys):
    code, out, err = run(capsys, ["validate", tmp_path / "none.json", "--players", "5"])
    assert code == 2 and err.startswith("tts-builder: --players: no game is played by 5 players")


def test_validate_an_empty_folder_is_one_error_and_no_tally(tmp_path, capsys):
    """Before: the error and then "1 file: 0 legal, 0 illegal, 1 unusable"."""
    (tmp_path / "empty").mkdir()
    code, out, err = run(capsys, ["validate", tmp_path / "empty"])
    assert code == 2 and out == "" and err.count("\n") == 1 and "no .json file" in err


# -- runs keyed by what was run -----------------------------------------------------------

def test_mixed_at_a_lone_seat_is_the_heuristic():
    """Before: Obren solo under --policy mixed played other games than heuristic, both recorded as
    policies ['heuristic']."""
    from tts_builder.simulate import play_game

    for seed in range(3):
        mixed = play_game("obren-buttons", seed, policy="mixed", num_players=1)
        heuristic = play_game("obren-buttons", seed, policy="heuristic", num_players=1)
        assert mixed == heuristic and mixed["source"]["policy"] == "heuristic"
        assert mixed["source"]["policies"] == ["heuristic"] and mixed["source"]["seed"] == seed


def test_every_transcript_records_its_run(tmp_path, capsys):
    code, out, _ = run(capsys, ["simulate", "two-by-two", "--games", "2", "--seed", "4", "--players", "3",
                                "--policy", "heuristic,random,random", "--options", '{"scoring": "advanced"}',
                                "--out", tmp_path / "r.jsonl", "-q", "--jobs", "1"])
    assert code == 0
    lines = (tmp_path / "r.jsonl").read_text().splitlines()
    for seed, line in zip((4, 5), lines):
        t = json.loads(line)
        assert t["source"]["seed"] == seed and t["source"]["policies"] == ["heuristic", "random", "random"]
        assert t["options"] == {"scoring": "advanced"} and len(t["players"]) == 3


def test_simulate_refuses_to_mix_into_a_folder_of_another_run_unless_appending(tmp_path, capsys):
    """Before: the second run's files joined the first's and `report` pooled both."""
    out = tmp_path / "games"
    assert run(capsys, ["simulate", "two-and-two", "--games", "2", "--out", out, "-q", "--policy", "random"])[0] == 0
    code, text, err = run(capsys, ["simulate", "two-and-two", "--games", "2", "--seed", "5", "--out", out, "-q"])
    assert code == 2 and text == "" and err.count("\n") == 1 and "already holds transcripts of an earlier run" in err
    assert len(list(out.glob("*.json"))) == 2
    # the same command again replaces its own files (a run killed part way is run again)
    assert run(capsys, ["simulate", "two-and-two", "--games", "2", "--out", out, "-q", "--policy", "random"])[0] == 0
    code, text, _ = run(capsys, ["simulate", "two-and-two", "--games", "2", "--seed", "5", "--out", out, "-q",
                                 "--append"])
    assert code == 0 and "beside the earlier ones" in text and len(list(out.glob("*.json"))) == 4
    # report never pools the two tables of players: one table each
    code, text, _ = run(capsys, ["report", out, "--json"])
    report = json.loads(text)
    assert report["varies"] == ["policies"] and [g["games"] for g in report["groups"]] == [2, 2]
    assert {g["label"] for g in report["groups"]} == {"policies random,random", "policies heuristic,heuristic"}
    assert "seats" not in report  # no pooled table


def test_report_splits_seat_counts_and_names_the_run(tmp_path, capsys):
    from tts_builder.report import build_report, chart_svg, report_text
    from tts_builder.simulate import play_game

    games = [play_game("two-by-two", s, policy="random", num_players=n) for n in (2, 3) for s in range(2)]
    report = build_report(games)
    assert report["varies"] == ["seats"] and [g["run"]["seat_counts"] for g in report["groups"]] == [[2], [3]]
    text = report_text(report)
    assert "[2 players] two-by-two: 2 games, 2 players, policy random, seeds 0-1" in text
    assert "[3 players] two-by-two: 2 games, 3 players, policy random, seeds 0-1" in text
    svg = chart_svg(report)
    assert "2 players (2 games)" in svg and "3 players (2 games)" in svg


def test_vary_gives_a_row_per_value_in_text_json_and_chart(tmp_path, capsys):
    """Before: Smitten 2's difficulty values came out as one pooled win rate."""
    out = tmp_path / "run.zip"
    code, text, _ = run(capsys, ["simulate", "smitten-2", "--games", "3", "--vary", "difficulty", "--out", out,
                                 "-q", "--jobs", "1", "--policy", "random", "--json"])
    report = json.loads(text)
    assert code == 0 and report["varied_options"] == ["difficulty"]
    values = [g["run"]["options"]["difficulty"] for g in report["groups"]]
    assert values == ["easy", "medium", "hard"] and all(g["table"]["games"] == 3 for g in report["groups"])
    code, text, _ = run(capsys, ["report", out])
    for value in values:
        assert f"[difficulty={value}] smitten-2: 3 games" in text
    svg = (tmp_path / "run.svg").read_text()
    assert all(f"difficulty={v} (3 games)" in svg for v in values)
    assert "smitten-2: 9 games, 2 players, policy random, seeds 0-2" in svg


# -- run files ---------------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["run.zip", "run.jsonl"])
def test_a_run_file_reads_as_a_folder_does(tmp_path, capsys, name):
    folder, single = tmp_path / "folder", tmp_path / name
    for out in (folder, single):
        assert run(capsys, ["simulate", "obren-buttons", "--games", "4", "--policy", "random", "--out", out,
                            "-q", "--jobs", "2"])[0] == 0
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["folder", name, "run.svg", "run.png"])
    first = single.read_bytes()
    assert run(capsys, ["simulate", "obren-buttons", "--games", "4", "--policy", "random", "--out", single,
                        "-q", "--jobs", "1"])[0] == 0
    assert single.read_bytes() == first  # same games, same bytes, whatever the jobs
    reports = [json.loads(run(capsys, ["report", p, "--json"])[1]) for p in (folder, single)]
    assert reports[0] == reports[1]
    code, text, _ = run(capsys, ["validate", single])
    assert code == 0 and text.splitlines()[-1] == "4 files: 4 legal, 0 illegal, 0 unusable"
    address = text.splitlines()[2].split(": legal")[0]
    assert address.endswith(":3")
    code, shown, _ = run(capsys, ["show", address])
    assert code == 0 and shown.startswith(f"{address}: ")
    code, _, err = run(capsys, ["show", single])
    assert code == 2 and "of several games: name one" in err and err.count("\n") == 1


def test_no_transcripts_keeps_only_the_report(tmp_path, capsys):
    out = tmp_path / "r"
    code, text, _ = run(capsys, ["simulate", "smitten-2", "--games", "3", "--out", out, "-q", "--no-transcripts"])
    assert code == 0 and "no transcripts kept" in text
    assert sorted(p.name for p in out.iterdir()) == ["report.json", "report.png", "report.svg"]
    assert json.loads((out / "report.json").read_text())["games"] == 3
    code, _, err = run(capsys, ["simulate", "smitten-2", "--out", tmp_path / "x.zip", "--no-transcripts"])
    assert code == 2 and "--no-transcripts" in err


def test_a_failed_run_leaves_the_previous_run_file_whole(tmp_path, capsys, monkeypatch):
    import tts_builder.simulate as simulate

    out = tmp_path / "run.zip"
    assert run(capsys, ["simulate", "smitten-2", "--games", "3", "--out", out, "-q", "--jobs", "1"])[0] == 0
    before = out.read_bytes()
    real = simulate.play_game

    def dies(game_id, seed, **kw):
        if seed == 2:
            raise KeyboardInterrupt
        return real(game_id, seed, **kw)

    monkeypatch.setattr(simulate, "play_game", dies)
    assert main(["simulate", "smitten-2", "--games", "3", "--seed", "0", "--policy", "random", "--out", str(out),
                 "-q", "--jobs", "1"]) == 130
    assert out.read_bytes() == before and [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []


# -- one JSON document per --json ----------------------------------------------------------------

def test_every_json_flag_prints_one_document(tmp_path, capsys, two_by_two_run):
    one = sorted(two_by_two_run.glob("*.json"))[0]
    commands = [["games", "--json"], ["games", "--options", "--json"], ["games", "smitten-2", "--json"],
                ["validate", two_by_two_run, "--json"], ["validate", one, "--json"],
                ["report", two_by_two_run, "--json"], ["show", one, "--json"],
                ["simulate", "smitten-2", "--games", "2", "--out", tmp_path / "s.jsonl", "--json", "-q"],
                ["schema-check", Path(__file__).parent / "golden" / "saves" / "two-and-two-draw.save.json", "--json"]]
    for argv in commands:
        _, out, _ = run(capsys, argv)
        json.loads(out)  # one document: JSON Lines or two objects would not parse
        assert out.endswith("\n") and out.strip(), argv


# -- the sweep: every game's seat counts, policies, options and --vary --------------------------

def _sweep_cases():
    import rules
    from tts_builder.clihelp import option_seat_counts

    for game in rules.all_games():
        seats_of = option_seat_counts(game)
        for name in sorted(game.options):
            if len(game.option_values(name)) > 1:
                for n in seats_of.get(name, list(game.seat_counts()))[:2]:
                    yield pytest.param(game.id, name, n, id=f"{game.id}-{name}-{n}")


@pytest.mark.parametrize("game_id, option, players", list(_sweep_cases()))
def test_sweep_vary_gives_a_table_per_value_and_no_pooled_mix(tmp_path, capsys, game_id, option, players):
    import rules

    game = rules.get_game(game_id)
    code, out, err = run(capsys, ["simulate", game_id, "--games", "1", "--vary", option, "--players", players,
                                  "--policy", "random", "--out", tmp_path / "r.jsonl", "--json", "-q", "--jobs", "1"])
    values = list(game.option_values(option))
    states = {json.dumps(game.new_state(seed=0, options={option: v}, num_players=players).options()[option])
              for v in values}
    if len(states) < len(values):  # the game overrides the option at this seat count (4 seats: teams)
        assert code == 2 and "the values must play differently" in err and err.count("\n") == 1
        return
    assert code == 0, err
    report = json.loads(out)
    assert report["games"] == len(values)
    if option == game.side_option:  # who sits where: pooled on purpose, each side its row
        assert "groups" not in report and {s["side"] for s in report["sides"]} >= set(values)
        assert report["run"]["side_option"]["values"] == sorted(values)
        return
    assert report["varied_options"] == [option] and "seats" not in report and "table" not in report
    assert [g["run"]["options"][option] for g in report["groups"]] == values
    assert all(g["games"] == 1 and g["run"]["seat_counts"] == [players] for g in report["groups"])
    text = run(capsys, ["report", tmp_path / "r.jsonl"])[1]
    assert text.count(f"[{option}=") == len(values)


def _seat_cases():
    import rules

    for game in rules.all_games():
        for n in game.seat_counts():
            yield pytest.param(game.id, n, id=f"{game.id}-{n}")


@pytest.mark.parametrize("game_id, players", list(_seat_cases()))
def test_sweep_seat_counts_and_policies_are_recorded_and_kept_apart(tmp_path, capsys, game_id, players):
    from rules.players import seat_policies

    out = tmp_path / "r"
    for k, policy in enumerate(("random", "heuristic", "mixed")):
        code, text, err = run(capsys, ["simulate", game_id, "--games", "1", "--seed", k, "--players", players,
                                       "--policy", policy, "--out", out, "--json", "-q", "--jobs", "1", "--append"])
        assert code == 0, err
        report = json.loads(text)
        seats = list(seat_policies(policy, players))
        assert "groups" not in report and report["run"]["seat_counts"] == [players]
        assert report["run"]["policies"] == seats and report["run"]["seeds"] == {"first": k, "last": k, "count": 1}
    report = json.loads(run(capsys, ["report", out, "--json"])[1])
    tables = {tuple(sorted(seat_policies(p, players))) for p in ("random", "heuristic", "mixed")}
    assert len(report.get("groups", [report])) == len(tables)  # one table per table of players, never pooled
    if len(tables) > 1:
        assert report["varies"] == ["policies"] and "seats" not in report and "table" not in report


def test_a_seed_that_cannot_be_dealt_is_one_line(tmp_path, capsys, monkeypatch):
    """Seed 0 deals (the options are checked on it) but a later seed does not: one line, exit 2."""
    import rules
    import tts_builder.simulate as simulate

    real = simulate.play_game

    def deal(game_id, seed, **kw):
        if seed == 1:
            raise rules.SetupError("option deal_bound 2: no deal solvable within it in 50 redeals")
        return real(game_id, seed, **kw)

    monkeypatch.setattr(simulate, "play_game", deal)
    code, out, err = run(capsys, ["simulate", "obren-buttons", "--games", "2", "--out", tmp_path / "r.zip", "-q",
                                  "--jobs", "1"])
    assert code == 2 and out == "" and err == ("tts-builder: --options: seed 1 cannot be dealt so: option deal_bound 2: "
                                               "no deal solvable within it in 50 redeals\n")
    assert not (tmp_path / "r.zip").exists()
