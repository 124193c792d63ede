"""The command line as a user meets it: every command's bad input is one line
on stderr naming the file or argument, exit 2, no traceback, nothing written."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tts_builder.cli import main


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
    ids = [json.loads(line)["id"] for line in capsys.readouterr().out.splitlines()]
    assert ids[:2] == ["two-and-two", "twin-tower-city"] and "obren-buttons" in ids
