"""The settings file: tts-builder.toml or [tool.tts-builder] in pyproject.toml, in the current folder;
flags win; an unknown key, a wrong type or broken TOML is one line naming the file and key, exit 2."""

from __future__ import annotations

import argparse
import re
from pathlib import Path

import pytest

from tts_builder.cli import main
from tts_builder.config import apply_config, load_config
from tts_builder.errors import InputError


def test_no_file_gives_the_defaults(tmp_path: Path) -> None:
    config = load_config(tmp_path)
    assert config.origin is None and config.get("out") == "build" and config.get("base_url") is None


def test_own_file_then_pyproject_table(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n[tool.tts-builder]\nout = "from-pyproject"\n')
    assert load_config(tmp_path).get("out") == "from-pyproject"
    (tmp_path / "tts-builder.toml").write_text('out = "own"\nbase_url = "https://example.org/m"\ntts_dir = "tts"\n')
    config = load_config(tmp_path)
    assert config.origin == "tts-builder.toml"
    assert (config.get("out"), config.get("base_url"), config.get("tts_dir")) == ("own", "https://example.org/m", "tts")


def test_pyproject_without_the_table_is_no_config(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.black]\nline-length = 100\n')
    assert load_config(tmp_path).origin is None


@pytest.mark.parametrize("name, text, expected", [
    ("tts-builder.toml", 'outdir = "x"\n', "tts-builder.toml: unknown key 'outdir' (known: base_url, out, tts_dir)"),
    ("tts-builder.toml", "out = 3\n", "tts-builder.toml: key 'out' takes a string (a folder), not 3"),
    ("tts-builder.toml", "out = [\n", "tts-builder.toml: not valid TOML"),
    ("pyproject.toml", '[tool.tts-builder]\ntts_dir = true\n',
     "pyproject.toml [tool.tts-builder]: key 'tts_dir' takes a string (a folder), not True"),
    ("pyproject.toml", '[tool]\ntts-builder = 1\n', "pyproject.toml [tool.tts-builder]: expected a table"),
])
def test_bad_file_is_one_line_exit_2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str],
                                     name: str, text: str, expected: str) -> None:
    (tmp_path / name).write_text(text)
    with pytest.raises(InputError, match=re.escape(expected)):
        load_config(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert main(["sheets", "obren-buttons"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and expected in err and "Traceback" not in err
    assert sorted(p.name for p in tmp_path.iterdir()) == [name], "nothing is written"
    assert main(["games"]) == 0, "a command that takes none of the settings does not read the file"


def test_file_sets_out_and_the_flag_wins(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "tts-builder.toml").write_text('out = "from-file"\n')
    assert main(["sheets", "obren-buttons"]) == 0
    assert (tmp_path / "from-file" / "obren-buttons" / "images" / "manifest.json").is_file()
    assert main(["sheets", "obren-buttons", "--out", "from-flag"]) == 0
    assert (tmp_path / "from-flag" / "obren-buttons" / "images" / "manifest.json").is_file()
    assert not (tmp_path / "build").exists()


def test_apply_fills_only_what_the_command_line_left_off(tmp_path: Path) -> None:
    (tmp_path / "tts-builder.toml").write_text('base_url = "https://cdn.example/x"\ntts_dir = "/tts"\n')
    args = argparse.Namespace(command="build", out=None, base_url=None)
    apply_config(args, tmp_path)
    assert (args.out, args.base_url) == ("build", "https://cdn.example/x")
    args = argparse.Namespace(command="install", out="mine", tts_dir="/flag")
    apply_config(args, tmp_path)
    assert (args.out, args.tts_dir) == ("mine", "/flag")
    args = argparse.Namespace(command="simulate", out=None)  # simulate's --out is its transcripts folder
    apply_config(args, tmp_path)
    assert args.out is None


@pytest.mark.parametrize("name", ["tts-builder.toml", "pyproject.toml"])
def test_a_folder_by_the_settings_name_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str], name: str) -> None:
    (tmp_path / name).mkdir()
    with pytest.raises(InputError, match=re.escape(f"{name}: is a folder, not a settings file")):
        load_config(tmp_path)
    monkeypatch.chdir(tmp_path)
    assert main(["sheets", "obren-buttons"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"tts-builder: {name}: is a folder" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == [name], "nothing is written"


@pytest.mark.parametrize("name, table", [("tts-builder.toml", ""), ("pyproject.toml", "[tool.tts-builder]\n")])
@pytest.mark.parametrize("argv, text, expected", [
    (["install", "two-and-two"], 'tts_dir = "no/such/tts"\n', "{where}: tts_dir no/such/tts: no such folder"),
    (["build", "two-and-two"], 'base_url = "ftp://x"\n',
     "{where}: base_url: expected an http:// or https:// URL, not 'ftp://x'"),
    (["print", "two-and-two"], 'out = "taken"\n', "{where}: out taken: names a file, not a folder"),
    (["sheets", "two-and-two"], 'out = "taken/b"\n',
     "{where}: out taken/b: is inside taken, which is a file, not a folder"),
])
def test_a_bad_value_from_the_file_names_the_file_and_key(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str], name: str, table: str,
                                                          argv: list[str], text: str, expected: str) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "taken").write_text("a file")
    (tmp_path / name).write_text(table + text)
    where = "tts-builder.toml" if name == "tts-builder.toml" else "pyproject.toml [tool.tts-builder]"
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err == f"tts-builder: {expected.format(where=where)}\n"
    assert "--" not in err.split(":")[1], "no flag that was never given is blamed"


def test_a_bad_value_from_a_flag_still_names_the_flag(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.chdir(tmp_path)
    (tmp_path / "tts-builder.toml").write_text('tts_dir = "also/missing"\n')
    assert main(["install", "two-and-two", "--tts-dir", "no/such/tts"]) == 2
    assert capsys.readouterr().err == "tts-builder: --tts-dir no/such/tts: no such folder\n"
    assert main(["build", "two-and-two", "--base-url", "ftp://x"]) == 2
    assert capsys.readouterr().err == "tts-builder: --base-url: expected an http:// or https:// URL, not 'ftp://x'\n"
