"""A command imports what it needs (issue 12: a cold build's start-up): building one game imports
that game's engine and no other, and no command on well-formed input imports jsonschema (it only
words errors) or, with one job, the process pool."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import rules
from tts_builder.simulate import play_game

#: prints the entry point's exit code, then the watched modules it imported
PROBE = ("import json, sys; from tts_builder.stamp import main; code = main(sys.argv[1:]); "
         "print(json.dumps([code, sorted(m for m in sys.modules if m.startswith(('rules.', 'jsonschema', "
         "'multiprocessing', 'tomllib')) and m.count('.') <= 1)]))")


def _imported(folder: Path, *argv: str) -> tuple[int, set[str]]:
    """Run the command in ``folder`` (no settings file there to read)."""
    proc = subprocess.run([sys.executable, "-c", PROBE, *argv], capture_output=True, text=True, timeout=300,
                          cwd=folder)
    assert proc.returncode == 0, proc.stderr
    code, modules = json.loads(proc.stdout.splitlines()[-1])
    return code, set(modules)


def _engines(modules: set[str]) -> set[str]:
    packages = {type(rules.get_game(g)).__module__.rsplit(".", 1)[0] for g in rules.game_ids()}
    return modules & packages


def test_building_one_game_imports_its_engine_and_not_jsonschema(tmp_path: Path) -> None:
    code, modules = _imported(tmp_path, "build", "two-and-two", "--out", str(tmp_path / "out"), "--jobs", "1", "-q")
    assert code == 0
    assert _engines(modules) == {"rules.two_and_two"}
    assert not {m for m in modules if m.startswith(("jsonschema", "tomllib", "multiprocessing"))}


def test_validating_a_transcript_imports_neither_jsonschema_nor_the_process_pool(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(play_game("obren-buttons", 1)), encoding="utf-8")
    code, modules = _imported(tmp_path, "validate", str(path), "--jobs", "1", "-q")
    assert code == 0
    assert _engines(modules) == {"rules.obren_buttons"}
    assert not {m for m in modules if m.startswith(("jsonschema", "multiprocessing", "tomllib"))}
