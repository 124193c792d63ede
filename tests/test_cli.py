"""The command line as a user meets it: every command's bad input is one line
on stderr naming the file or argument, exit 2, no traceback, nothing written."""

from __future__ import annotations

import json
import os
import re
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from tts_builder.cli import main
from tts_builder.fileio import MAX_INT_DIGITS, MAX_JSON_DEPTH


@pytest.mark.parametrize("content, expected", [
    ("{\"ObjectStates\": [", "truncated JSON"),
    ("not json", "not valid JSON"),
    ("[1]", "root is a JSON array, expected an object"),
    ("", "empty file"),
])
def test_schema_check_unreadable_input(tmp_path, capsys, content, expected):
    path = tmp_path / "save.json"
    path.write_text(content)
    assert main(["schema-check", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and str(path) in err and expected in err, err


def test_schema_check_invalid_save_is_exit_1_with_json_paths(tmp_path, capsys):
    path = tmp_path / "save.json"
    path.write_text(json.dumps({"ObjectStates": [{"Name": "Card", "CardID": "12"}]}))
    assert main(["schema-check", "--json", str(path)]) == 1
    out = json.loads(capsys.readouterr().out)
    assert out["valid"] is False
    assert any("$.ObjectStates[0]" in e["path"] for e in out["errors"])


def test_schema_check_accepts_every_real_save(tts_save_fixtures, capsys):
    for path in tts_save_fixtures:
        assert main(["schema-check", str(path)]) == 0, capsys.readouterr().out


@pytest.mark.parametrize("argv, expected", [
    (["sheets", "chess"], "unknown game 'chess'"),
    (["build", "chess"], "unknown game 'chess'"),
    (["install", "chess"], "unknown game 'chess'"),
    (["check-lua", "two-and-two", "--games", "-1"], "--games must be at least 1"),
    (["games", "--bogus"], "unrecognized arguments"),
])
def test_unknown_game_or_argument_is_one_line(tmp_path, capsys, monkeypatch, argv, expected):
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and expected in err and "Traceback" not in err, err
    assert list(Path(tmp_path).iterdir()) == [], "nothing is written on bad input"


def test_games_lists_every_registered_game(capsys):
    assert main(["games", "--json"]) == 0
    ids = [game["id"] for game in json.loads(capsys.readouterr().out)]  # one document, a list
    assert ids[:2] == ["two-and-two", "twin-tower-city"] and {"obren-buttons", "smitten-2", "two-by-two"} <= set(ids)


# --- hostile input: one line, exit 2, the limit named, no traceback, no hang --------------

DEEP = "[" * 100_000 + "]" * 100_000


def one_line_error(capsys, argv):
    code = main(argv)
    err = capsys.readouterr().err
    assert code == 2, err
    assert err.count("\n") == 1 and re.match(r"tts-builder( [a-z-]+)?: ", err) and "Traceback" not in err, err
    return err


def transcript_text(**changes):
    data = {"format": "tts-builder-transcript", "version": 1, "game": "two-and-two", "options": {},
            "players": [{"name": "A"}, {"name": "B"}], "setup": {"deck": []}, "moves": [], "result": None}
    data.update(changes)
    return json.dumps(data)


@pytest.mark.parametrize("command", ["validate", "schema-check"])
def test_json_nested_100000_deep_names_the_limit(tmp_path, capsys, command):
    path = tmp_path / "deep.json"
    path.write_text('{"a": ' + DEEP + "}")
    err = one_line_error(capsys, [command, str(path)])
    assert f"nested deeper than {MAX_JSON_DEPTH} levels at line 1 column" in err and str(path) in err


def test_deep_lua_script_state_inside_a_save(tmp_path, capsys):
    path = tmp_path / "save.json"
    path.write_text(json.dumps({"ObjectStates": [], "LuaScriptState": DEEP}))
    err = one_line_error(capsys, ["validate", str(path)])
    assert "LuaScriptState" in err and f"deeper than {MAX_JSON_DEPTH} levels" in err


def test_deep_options(tmp_path, capsys):
    err = one_line_error(capsys, ["simulate", "two-and-two", "--games", "1", "--out", str(tmp_path / "o"),
                                  "--options", DEEP])
    assert err.startswith("tts-builder: --options: JSON nested deeper than")
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize("command", ["validate", "schema-check"])
def test_dev_zero_is_not_a_regular_file(capsys, command):
    err = one_line_error(capsys, [command, "/dev/zero"])
    assert "/dev/zero: not a regular file" in err


def test_a_fifo_is_refused_before_it_is_opened(tmp_path):
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    for command in ("validate", "schema-check"):  # a subprocess, so a regression hangs only it
        proc = subprocess.run([sys.executable, "-m", "tts_builder", command, str(fifo)],
                              capture_output=True, text=True, timeout=60)
        assert proc.returncode == 2 and proc.stderr.count("\n") == 1, proc.stderr
        assert f"{fifo}: not a regular file" in proc.stderr


def test_an_integer_of_5000_digits_names_the_limit(tmp_path, capsys):
    path = tmp_path / "t.json"
    path.write_text(transcript_text().replace('"version": 1', '"version": ' + "9" * 5000))
    err = one_line_error(capsys, ["validate", str(path)])
    assert "an integer of 5000 digits at line 1 column" in err and f"limit is {MAX_INT_DIGITS} digits" in err


def test_a_custom_deck_key_of_5000_digits_is_a_finding_not_a_crash(tmp_path, capsys):
    path = tmp_path / "save.json"
    sheet = {"FaceURL": "https://e.invalid/f.png", "BackURL": "https://e.invalid/b.png", "NumWidth": 2, "NumHeight": 2}
    card = {"Name": "Card", "Transform": {k: 0 for k in ("posX", "posY", "posZ", "rotX", "rotY", "rotZ",
                                                         "scaleX", "scaleY", "scaleZ")},
            "CardID": 100, "CustomDeck": {"9" * 5000: sheet}}
    path.write_text(json.dumps({"ObjectStates": [card]}))
    assert main(["schema-check", str(path)]) == 1
    out = capsys.readouterr().out
    assert "bad key" in out and "Traceback" not in out


def test_check_lua_negative_mutants(capsys):
    err = one_line_error(capsys, ["check-lua", "two-and-two", "--games", "1", "--mutants", "-1"])
    assert "--mutants must be at least 0, not -1" in err


# --- the command line ----------------------------------------------------------------------


@pytest.mark.parametrize("argv", [
    ["build", "two-and-two", "--out", "{file}"],
    ["sheets", "two-and-two", "--out", "{file}"],
    ["install", "two-and-two", "--out", "{file}"],
    ["simulate", "two-and-two", "--games", "1", "--out", "{file}"],
    ["simulate", "two-and-two", "--games", "1", "--out", "{file}/below"],
    ["install", "two-and-two", "--tts-dir", "{file}"],
])
def test_out_naming_an_existing_file(tmp_path, capsys, argv):
    file = tmp_path / "taken"
    file.write_text("mine")
    err = one_line_error(capsys, [a.replace("{file}", str(file)) for a in argv])
    assert str(file) in err and "a file, not a folder" in err
    assert file.read_text() == "mine" and sorted(p.name for p in tmp_path.iterdir()) == ["taken"]


@pytest.mark.parametrize("argv", [
    ["build", "two-and-two", "--o", "x"],
    ["build", "--al"],
    ["schema-check", "--js", "x.json"],
    ["check-lua", "two-and-two", "--mut", "1"],
    ["games", "--js"],
])
def test_options_cannot_be_abbreviated(tmp_path, capsys, monkeypatch, argv):
    monkeypatch.chdir(tmp_path)
    err = one_line_error(capsys, argv)
    assert "unrecognized arguments" in err
    assert list(tmp_path.iterdir()) == []


def test_a_closed_pipe_ends_quietly():
    """`tts-builder games | head -0`: the reader is gone before the first write."""
    proc = subprocess.Popen([sys.executable, "-m", "tts_builder", "games"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 0 and err == "", err


def test_a_closed_pipe_in_the_middle_of_the_output(tmp_path, capsys):
    assert main(["simulate", "two-and-two", "--games", "1", "--out", str(tmp_path)]) == 0
    (path,) = tmp_path.glob("*.json")
    proc = subprocess.Popen([sys.executable, "-m", "tts_builder", "validate", *[str(path)] * 3000],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    first = proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read().decode()
    assert first and proc.wait(timeout=120) == 0 and "Traceback" not in err and "Broken" not in err, err


def test_a_transcript_of_too_many_moves_names_the_limit(tmp_path, capsys):
    from tts_builder.fileio import MAX_TRANSCRIPT_MOVES

    path = tmp_path / "t.json"
    path.write_text(transcript_text(moves=[{"player": 0, "type": "pass"}] * (MAX_TRANSCRIPT_MOVES + 1)))
    err = one_line_error(capsys, ["validate", str(path)])
    assert f"field moves: {MAX_TRANSCRIPT_MOVES + 1} moves, above the limit of {MAX_TRANSCRIPT_MOVES}" in err


def test_bad_utf8_names_line_and_column(tmp_path, capsys):
    path = tmp_path / "t.json"
    path.write_bytes(b'{\n  "a": "\xff"}')
    err = one_line_error(capsys, ["schema-check", str(path)])
    assert f"{path}: not UTF-8 text at line 2 column 9 (byte 10)" in err


# --- writers refuse a FIFO (or device) where they would write: one line, exit 2, the FIFO kept ----

GOLDEN_DRAW = Path(__file__).parent / "golden" / "two-and-two" / "played-draw.transcript.json"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
@pytest.mark.parametrize("argv, expected", [
    (["replay", str(GOLDEN_DRAW), "--out", "{fifo}"], "--out {fifo}: names a device, FIFO or socket, not a file"),
    (["print", "two-and-two", "--out", "{fifo}"], "--out {fifo}: names a device, FIFO or socket, not a folder"),
    (["report", str(GOLDEN_DRAW), "--chart", "{fifo}"], "--chart {fifo}: names a device, FIFO or socket, not a folder"),
    (["simulate", "two-and-two", "--games", "1", "-q", "--out", "{fifo}"],
     "--out {fifo}: names a device, FIFO or socket, not a folder"),
    (["install", "two-and-two", "--tts-dir", "{fifo}"], "--tts-dir {fifo}: names a device, FIFO or socket, not a folder"),
    (["build", "two-and-two", "--out", "{fifo}"], "--out {fifo}: names a device, FIFO or socket, not a folder"),
    (["sheets", "two-and-two", "--out", "{fifo}"], "--out {fifo}: names a device, FIFO or socket, not a folder"),
])
def test_writers_refuse_a_fifo_target(tmp_path, capsys, argv, expected):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    err = one_line_error(capsys, [a.format(fifo=fifo) for a in argv])
    assert expected.format(fifo=fifo) in err
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode), "the FIFO is left as it was"


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
def test_a_fifo_inside_the_output_folder_is_not_replaced(tmp_path, capsys):
    """report --chart DIR writes DIR/report.svg: a FIFO there is refused, not overwritten."""
    os.mkfifo(tmp_path / "report.svg")
    err = one_line_error(capsys, ["report", str(GOLDEN_DRAW), "--chart", str(tmp_path)])
    assert f"{tmp_path / 'report.svg'}: names a device, FIFO or socket, not a file; nothing written" in err
    assert stat.S_ISFIFO(os.lstat(tmp_path / "report.svg").st_mode)
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".tts-builder-tmp-")]
