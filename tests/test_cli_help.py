"""What the command line says about itself: --help lists the games and examples, games --options /
help GAME list each game's options with defaults, allowed values and seat counts (from the game's
metadata), and completion prints a shtab script that completes commands and game ids."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

import rules
from tts_builder.cli import main


def test_help_lists_every_game_and_examples(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_:
        main(["--help"])
    assert exit_.value.code == 0
    out = capsys.readouterr().out
    for game in rules.all_games():
        assert game.id in out and game.name in out
    assert "twin-tower-city    Twin Tower City (2, 4, 6 players)" in out
    assert "examples:" in out and "tts-builder print two-and-two --paper letter" in out
    assert "tts-builder.toml" in out
    assert main(["help"]) == 0
    assert capsys.readouterr().out == out


@pytest.mark.parametrize("game", [g.id for g in rules.all_games()])
def test_help_game_lists_options_defaults_values_and_seats(game: str, capsys: pytest.CaptureFixture[str]) -> None:
    meta = rules.get_game(game)
    assert main(["help", game]) == 0
    out = capsys.readouterr().out
    assert out.startswith(f"{game}: {meta.name}\n")
    assert f"seats: {', '.join(map(str, meta.seat_counts()))} player" in out
    for name, default in meta.options.items():
        line = next(l for l in out.splitlines() if l.strip().startswith(name + " "))
        assert f"default {json.dumps(default)};" in line
        assert line.endswith("takes " + ", ".join(json.dumps(v) for v in meta.option_values(name)))
    assert main(["games", game]) == 0 and capsys.readouterr().out == out


def test_games_options_json_matches_the_metadata(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games", "--options", "--json"]) == 0
    described = json.loads(capsys.readouterr().out)  # one document: a list of the games
    assert [d["id"] for d in described] == [g.id for g in rules.all_games()]
    for data in described:
        game = rules.get_game(data["id"])
        assert data["seat_counts"] == list(game.seat_counts())
        assert data["options"] == dict(game.options)
        assert data["option_values"] == {n: list(game.option_values(n)) for n in game.options}


def test_plain_games_list_is_unchanged_by_the_new_flags(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["games"]) == 0
    assert capsys.readouterr().out.splitlines()[0] == "two-and-two        Two & Two (2 players)"


def test_help_unknown_game_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["help", "chess"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "unknown game 'chess'" in err


@pytest.mark.parametrize("shell", ["bash", "zsh", "tcsh"])
def test_completion_script_names_commands_and_games(shell: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["completion", shell]) == 0
    out = capsys.readouterr().out
    assert "print" in out and "twin-tower-city" in out and "--paper" in out


def test_completion_bad_shell_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["completion", "fish"]) == 2
    assert "invalid choice: 'fish'" in capsys.readouterr().err


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_bash_completion_completes_commands_and_game_ids(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["completion", "bash"]) == 0
    script = tmp_path / "tts-builder.bash"
    script.write_text(capsys.readouterr().out)

    def complete(*words: str) -> list[str]:
        line = " ".join(words)
        probe = (f'source "{script}"; COMP_WORDS=({line}); COMP_CWORD={len(words) - 1}; COMP_LINE="{line}"; '
                 'COMP_POINT=${#COMP_LINE}; _shtab_tts_builder; printf "%s\\n" "${COMPREPLY[@]}"')
        done = subprocess.run(["bash", "-c", probe], capture_output=True, text=True, timeout=30, check=True)
        return sorted(done.stdout.split())

    assert complete("tts-builder", "pr") == ["print"]
    assert complete("tts-builder", "print", "tw") == ["twin-tower-city", "two-and-two", "two-by-two"]
    assert complete("tts-builder", "print", "two-and-two", "--pa") == ["--paper"]


def test_help_describes_the_tool_in_plain_words(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    out = capsys.readouterr().out
    assert "``" not in out  # no reStructuredText markup from a docstring
    assert "Build Tabletop Simulator mods" in out


@pytest.mark.parametrize("argv, line", [
    (["print", "two-and-two", "-z"], "tts-builder print: unrecognized arguments: -z"),
    (["validate", "a.json", "--bogus", "-z"], "tts-builder validate: unrecognized arguments: --bogus -z"),
    (["show"], "tts-builder show: the following arguments are required: FILE"),
    (["print", "two-and-two", "--paper", "a3"], "tts-builder print: argument --paper: invalid choice: 'a3'"),
])
def test_usage_errors_name_the_program_and_subcommand_once(argv: list[str], line: str,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith(line)
    assert err.count("tts-builder") == 1


def test_help_says_which_seat_counts_use_each_option(capsys: pytest.CaptureFixture[str]) -> None:
    """Smitten 2's difficulty is for two players, its solo_* options for one: the game refuses
    them otherwise, and help says so beside each option, with what the option does (the data file)."""
    from tts_builder.clihelp import option_seat_counts

    assert option_seat_counts(rules.get_game("smitten-2")) == {
        "difficulty": [2], "solo_balance": [1], "solo_easy": [1], "solo_left_hand": [1]}
    assert option_seat_counts(rules.get_game("twin-tower-city"))["teams"] == [4, 6]
    assert option_seat_counts(rules.get_game("two-and-two")) == {"denied_symbol_to_hand": [2], "deny_window": [2]}
    assert main(["help", "smitten-2"]) == 0
    lines = capsys.readouterr().out.splitlines()
    after = {lines[i].split()[0]: lines[i + 1].strip() for i in range(len(lines) - 1)
             if lines[i].startswith("    ") and not lines[i].startswith("     ")}
    assert after["difficulty"].startswith("(2 players only) two players: Easy (4-card hands)")
    for name in ("solo_balance", "solo_easy", "solo_left_hand"):
        assert after[name].startswith("(1 player only) solo ")
    assert all(len(line) <= 100 for line in lines if "example:" not in line)
    assert main(["help", "twin-tower-city"]) == 0
    out = capsys.readouterr().out
    assert "(4, 6 players only) Team play" in out and "(2, 4, 6" not in out
    assert main(["games", "smitten-2", "--options", "--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert data["option_seat_counts"]["difficulty"] == [2] and data["option_seat_counts"]["solo_easy"] == [1]


@pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")
def test_bash_completion_completes_file_and_folder_names(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """show, validate, replay and schema-check complete file names; --tts-dir and the build
    folder's --out complete folders only; replay's --out (a page) completes files."""
    assert main(["completion", "bash"]) == 0
    script = tmp_path / "tts-builder.bash"
    script.write_text(capsys.readouterr().out)
    here = tmp_path / "here"
    (here / "sims").mkdir(parents=True)
    for name in ("game-1.json", "game-2.json", "sims/x.json", "saves.txt"):
        (here / name).write_text("{}")

    def complete(*words: str) -> list[str]:
        line = " ".join(words)
        probe = (f'source "{script}"; COMP_WORDS=({line}); COMP_CWORD={len(words) - 1}; COMP_LINE="{line}"; '
                 'COMP_POINT=${#COMP_LINE}; _shtab_tts_builder; printf "%s\\n" "${COMPREPLY[@]}"')
        done = subprocess.run(["bash", "-c", probe], capture_output=True, text=True, timeout=30, check=True, cwd=here)
        return sorted(done.stdout.split())

    games = ["game-1.json", "game-2.json"]
    assert complete("tts-builder", "show", "ga") == games
    assert complete("tts-builder", "validate", "game-1.json", "ga") == games  # each of several files
    assert complete("tts-builder", "validate", "si") == ["sims"]
    assert complete("tts-builder", "replay", "ga") == games
    assert complete("tts-builder", "replay", "game-1.json", "--out", "ga") == games
    assert complete("tts-builder", "schema-check", "ga") == games
    assert complete("tts-builder", "install", "two-and-two", "--tts-dir", "s") == ["sims"]  # not saves.txt
    assert complete("tts-builder", "build", "two-and-two", "--out", "s") == ["sims"]


@pytest.mark.parametrize("shell, marks", [("zsh", ["_files -/", ":FILE:_files"]), ("tcsh", ["n/--tts-dir/d/", "n/show/f/"])])
def test_zsh_and_tcsh_completion_name_files_and_folders(shell: str, marks: list[str],
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["completion", shell]) == 0
    out = capsys.readouterr().out
    assert all(mark in out for mark in marks), marks
