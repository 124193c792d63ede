"""Kill safety: a command killed at any of its file steps leaves the previous output whole,
and the next run removes what the killed one left.

A kill is simulated in a subprocess that replaces ``os.replace`` (every file step of the
tool ends in one: atomic writes and the build's commit) with ``os._exit`` at the Nth call:
no ``finally`` block runs and temporary files stay behind, as after SIGKILL.
"""

from __future__ import annotations

import hashlib
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tts_builder import cli
from tts_builder.fileio import TEMP_PREFIX, sweep_stale_temp
from tts_builder.stamp import STAMP

GAME = "two-and-two"

KILL_AT = """
import os, sys
from tts_builder import cli
n, calls, real = int(sys.argv[1]), [0], os.replace
def replace(*args, **kwargs):
    calls[0] += 1
    if calls[0] == n:
        os._exit(137)
    return real(*args, **kwargs)
os.replace = replace
code = cli.main(sys.argv[2:])
print("os.replace calls:", calls[0], file=sys.stderr)
sys.exit(code)
"""


def run_killed_at(step: int, argv: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", KILL_AT, str(step), *argv], capture_output=True, text=True,
                          timeout=300)


def files(root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


def leftovers(root: Path) -> list[str]:
    return sorted(p.relative_to(root).as_posix() for p in root.rglob(f"{TEMP_PREFIX}*"))


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("kill") / "build"
    assert cli.main(["build", GAME, "--out", str(out)]) == 0
    return out


def test_a_killed_build_leaves_the_previous_build_whole(built: Path) -> None:
    before = files(built)
    # A forced warm build renames: 1 the art manifest (staged), 2 the mat (staged), 3-4 the new
    # images into place, 5 the save, 6 the thumbnail, 7 the stamp. Kill in the art stage and at
    # each commit step. The stamp is removed before the first commit step, so from step 3 on a
    # killed build leaves no stamp: the next plain build builds (and sweeps) instead of saying
    # "up to date"; killed in the art stage, the previous stamp and output are whole.
    for step in (1, 3, 4, 5, 6, 7):
        proc = run_killed_at(step, ["build", GAME, "--out", str(built), "--force"])
        assert proc.returncode == 137, proc.stderr
        assert leftovers(built), f"step {step}: the simulated kill left no temporary file"
        after = {k: v for k, v in files(built).items() if TEMP_PREFIX not in k}
        expected = before if step < 3 else {k: v for k, v in before.items() if k != f"{GAME}/{STAMP}"}
        assert after == expected, f"killed at step {step}: the previous build changed"
    assert cli.main(["build", GAME, "--out", str(built)]) == 0
    assert leftovers(built) == [] and files(built) == before


def test_the_build_has_the_expected_steps(built: Path) -> None:
    """Guards the step numbers above: a forced warm build makes seven renames, a plain one none."""
    proc = run_killed_at(0, ["build", GAME, "--out", str(built), "--force"])
    assert proc.returncode == 0 and "os.replace calls: 7" in proc.stderr, proc.stderr
    proc = run_killed_at(0, ["build", GAME, "--out", str(built)])
    assert proc.returncode == 0 and "os.replace calls: 0" in proc.stderr and "up to date" in proc.stdout, proc.stderr


def test_a_killed_simulation_is_swept_by_the_next(tmp_path: Path) -> None:
    out = tmp_path / "games"
    # one process: --jobs' worker processes are tests/test_jobs.py's
    proc = run_killed_at(2, ["simulate", GAME, "--games", "3", "--out", str(out), "--jobs", "1"])
    assert proc.returncode == 137
    assert len(leftovers(out)) == 1 and len(list(out.glob("*.json"))) == 1
    assert cli.main(["simulate", GAME, "--games", "3", "--out", str(out)]) == 0
    assert leftovers(out) == [] and len(list(out.glob("*.json"))) == 3


def test_a_killed_install_leaves_no_thumbnail_alone(built: Path, tmp_path: Path) -> None:
    tts = tmp_path / "tts"
    (tts / "Saves").mkdir(parents=True)
    argv = ["install", GAME, "--out", str(built), "--tts-dir", str(tts)]
    for step in (1, 2):  # 1 the save's rename, 2 the thumbnail's
        assert run_killed_at(step, argv).returncode == 137
        names = sorted(p.name for p in (tts / "Saves").iterdir() if not p.name.startswith(TEMP_PREFIX))
        assert names in ([], ["TS_Save_1.json"]), names  # never a thumbnail without its save
    assert cli.main(argv) == 0
    saves = tts / "Saves"
    assert sorted(p.name for p in saves.iterdir()) == ["TS_Save_1.json", "TS_Save_1.png"]
    assert (saves / "TS_Save_1.png").read_bytes() == (built / GAME / f"{GAME}.png").read_bytes()


def test_sweep_keeps_what_a_live_run_owns(tmp_path: Path) -> None:
    mine = tmp_path / f"{TEMP_PREFIX}x-{__import__('os').getpid()}-0123abcd"
    dead = tmp_path / f"{TEMP_PREFIX}x-999999999-0123abcd"
    folder = tmp_path / f"{TEMP_PREFIX}stage-999999999-89abcdef"
    for path in (mine, dead):
        path.write_text("partial")
    (folder / "deep").mkdir(parents=True)
    other = tmp_path / "keep.json"
    other.write_text("{}")
    assert sorted(p.name for p in sweep_stale_temp(tmp_path)) == sorted([dead.name, folder.name])
    assert mine.exists() and other.exists() and not folder.exists()
    assert [p.name for p in sweep_stale_temp(tmp_path, max_age=-1)] == [mine.name]  # old enough: gone
    shutil.rmtree(tmp_path / "nothing", ignore_errors=True)
    assert sweep_stale_temp(tmp_path / "nothing") == []
