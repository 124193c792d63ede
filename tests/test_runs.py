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
