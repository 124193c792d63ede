"""``tts-builder new``: in a temporary copy of the project, for each ``--like``, the new game at once
builds, simulates, validates, agrees under check-lua, passes the invariant suite and the contract test,
and plays through the stubbed TTS (its own table-event test and the generic table suite, through the
``tableplay.py`` the scaffold writes). A few games each, to stay fast.
Bad input to ``new`` is one line, exit 2."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tts_builder.cli import main

REPO = Path(__file__).resolve().parents[1]
#: what a checkout of the project holds that the chain reads (no build output, no virtualenv)
PARTS = ("rules", "tts_builder", "lua_templates", "art_src", "tests", "docs", "pyproject.toml", "README.md")


def copy_project(dest: Path) -> Path:
    for part in PARTS:
        src = REPO / part
        if src.is_dir():
            shutil.copytree(src, dest / part, ignore=shutil.ignore_patterns("__pycache__", "*.pyc", "build", "golden"))
        else:
            shutil.copy2(src, dest / part)
    return dest


def run(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(root), "PYTHONDONTWRITEBYTECODE": "1"}
    return subprocess.run([sys.executable, *args], cwd=root, env=env, capture_output=True, text=True, timeout=600)


def ok(proc: subprocess.CompletedProcess[str]) -> str:
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-2000:]
    return proc.stdout


@pytest.mark.parametrize("like, players, cards", [("board", "2", 0), ("tiles", "2-4", 0), ("cards", "2-4", 18)])
def test_a_new_game_passes_the_whole_chain(tmp_path: Path, like: str, players: str, cards: int) -> None:
    root = copy_project(tmp_path / "repo")
    out = ok(run(root, "-m", "tts_builder", "new", "drop-four", "--like", like, "--players", players))
    assert "rules/registry.py" in out
    assert '"drop-four": "rules.drop_four:GAME"' in (root / "rules" / "registry.py").read_text()
    built = ok(run(root, "-m", "tts_builder", "build", "drop-four"))
    assert f" {cards} cards" in built
    ok(run(root, "-m", "tts_builder", "simulate", "drop-four", "--games", "4", "--out", "sim"))
    transcripts = sorted(str(p) for p in (root / "sim").glob("drop-four-*.json"))
    assert len(transcripts) == 4
    assert "4 legal, 0 illegal" in ok(run(root, "-m", "tts_builder", "validate", *transcripts))
    assert "agree on 8 games" in ok(run(root, "-m", "tts_builder", "check-lua", "drop-four", "--games", "8"))
    ok(run(root, "-m", "pytest", "-q", "-x", "-p", "no:randomly", "-p", "no:cacheprovider",
           "tests/test_drop_four.py", "tests/test_contracts.py", "tests/test_invariants.py", "-k", "drop"))
    # the generic table suite over the new game: its tableplay.py drives random games at the stand-in table
    suite = ok(run(root, "-m", "pytest", "-q", "-p", "no:randomly", "-p", "no:cacheprovider",
                   "tests/test_table_suite.py", "-k", "drop-four"))
    low, high = (int(p) for p in (players + "-" + players).split("-")[:2])
    assert f"{2 * (high - low + 1)} passed" in suite, suite[-600:]


@pytest.mark.parametrize("argv, message", [
    (["new", "two-and-two"], "game 'two-and-two' exists already"),
    (["new", "Drop_Four"], "game id 'Drop_Four': use lowercase letters"),
    (["new", "drop-four", "--players", "5"], "--players: expected N or N-M"),
    (["new", "drop-four", "--players", "3-2"], "--players: expected N or N-M"),
    (["new", "drop-four", "--like", "dice"], "--like: expected one of board, tiles, cards"),
    (["new", "drop-four", "--like", "cards", "--players", "1-2"], "--players: expected N or N-M"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str],
                                          message: str) -> None:
    (tmp_path / "rules").mkdir()
    shutil.copy2(REPO / "rules" / "registry.py", tmp_path / "rules" / "registry.py")
    before = (tmp_path / "rules" / "registry.py").read_text()
    assert main([*argv, "--root", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1, err
    assert (tmp_path / "rules" / "registry.py").read_text() == before
    assert sorted(p.name for p in tmp_path.rglob("*") if p.is_file()) == ["registry.py"]


def test_an_existing_game_s_files_are_never_overwritten(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "rules" / "drop_four").mkdir(parents=True)
    shutil.copy2(REPO / "rules" / "registry.py", tmp_path / "rules" / "registry.py")
    (tmp_path / "rules" / "drop_four" / "engine.py").write_text("# mine\n")
    assert main(["new", "drop-four", "--root", str(tmp_path)]) == 2
    assert "exists already (rules/drop_four/engine.py)" in capsys.readouterr().err
    assert (tmp_path / "rules" / "drop_four" / "engine.py").read_text() == "# mine\n"
