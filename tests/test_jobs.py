"""``--jobs N``: simulate, validate and check-lua give the same output, in the same order, with
one worker process or several (small runs; speed is the benchmarks' business)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tts_builder import agreement
from tts_builder.agreement import Disagreement, check_lua
from tts_builder.cli import main


def _files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


@pytest.mark.parametrize("game", ["two-and-two", "twin-tower-city", "obren-buttons"])
def test_simulate_writes_the_same_files_with_any_jobs(tmp_path, capsys, game):
    for jobs in (1, 3):
        assert main(["simulate", game, "--games", "5", "--seed", "4", "--policy", "random",
                     "--out", str(tmp_path / f"j{jobs}"), "--jobs", str(jobs)]) == 0
    one, three = _files(tmp_path / "j1"), _files(tmp_path / "j3")
    assert sorted(one) == sorted([f"{game}-{seed:03d}.json" for seed in range(4, 9)] + ["report.png", "report.svg"])
    assert one == three  # the transcripts and the report's chart


def test_validate_reports_the_same_in_the_same_order_with_any_jobs(tmp_path, capsys):
    assert main(["simulate", "two-and-two", "--games", "4", "--out", str(tmp_path / "t"), "--jobs", "1"]) == 0
    paths = sorted((tmp_path / "t").glob("*.json"))
    bad = json.loads(paths[1].read_text())
    bad["moves"][3]["player"] = 1 - bad["moves"][3]["player"]       # out of turn: illegal
    paths[1].write_text(json.dumps(bad))
    (tmp_path / "t" / "broken.json").write_text("{")                # unusable
    files = [str(p) for p in paths[:2]] + [str(tmp_path / "t" / "broken.json")] + [str(p) for p in paths[2:]]
    outputs = []
    for jobs in ("1", "2", "5"):
        capsys.readouterr()
        code = main(["validate", "--json", *files, "--jobs", jobs])
        outputs.append((code, capsys.readouterr().out))
    assert outputs[0][0] == 2 and outputs[0] == outputs[1] == outputs[2]
    verdicts = [e["verdict"] for e in json.loads(outputs[0][1])]
    assert verdicts == ["legal", "illegal", "unusable", "legal", "legal"]


def test_check_lua_reports_the_same_with_any_jobs(capsys):
    outputs = []
    for jobs in ("1", "2"):
        capsys.readouterr()
        assert main(["check-lua", "twin-tower-city", "--games", "6", "--seed", "3", "--jobs", jobs]) == 0
        outputs.append(capsys.readouterr().out)
    assert outputs[0] == outputs[1] and "6 games" in outputs[0]


def test_check_lua_stops_at_the_same_disagreement_with_any_jobs(monkeypatch):
    """The games after the first disagreement are dropped, so the report does not depend on which
    worker got there first (worker processes are forked: they see the patch)."""
    real = agreement.check_played_game

    def faulty(game_id, seed, policy, combo, lua, report, rng, mutants_per_move=3):
        ok = real(game_id, seed, policy, combo, lua, report, rng, mutants_per_move)
        if seed in (5, 7):
            report.disagreements.append(Disagreement(seed, 2, 0, {"type": "x"}, "state", "p", "l"))
            return False
        return ok

    monkeypatch.setattr(agreement, "check_played_game", faulty)
    reports = [check_lua("two-and-two", 10, 2, jobs=jobs) for jobs in (1, 4)]
    assert not reports[0].agree and reports[0].games == 4          # seeds 2, 3, 4, 5
    assert [r.summary() for r in reports[:1]] == [r.summary() for r in reports[1:]]
    assert reports[0].instructions == reports[1].instructions
    assert "--seed 5 --players 2" in reports[0].summary()


@pytest.mark.parametrize("command", [["simulate", "two-and-two", "--out", "o"], ["validate", "x.json"],
                                     ["check-lua", "two-and-two"]])
def test_jobs_below_one_is_one_line(tmp_path, capsys, monkeypatch, command):
    monkeypatch.chdir(tmp_path)
    assert main([*command, "--jobs", "0"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--jobs must be at least 1, not 0" in err
    assert not (tmp_path / "o").exists()


def test_a_killed_worker_fails_the_command_without_a_hang(tmp_path):
    """Every worker dies at its first write (as tests/test_kill.py kills a process): the command
    ends with exit 3 and one line, and the next run sweeps what the workers left."""
    from tests.test_kill import leftovers, run_killed_at

    out = tmp_path / "games"
    proc = run_killed_at(1, ["simulate", "two-and-two", "--games", "4", "--out", str(out), "--jobs", "2"])
    assert proc.returncode == 3, proc.stderr
    err = [line for line in proc.stderr.splitlines() if not line.startswith("os.replace calls")]
    assert len(err) == 1 and "worker process" in err[0] and "--jobs 1" in err[0], proc.stderr
    assert leftovers(out) and not list(out.glob("*.json"))
    assert main(["simulate", "two-and-two", "--games", "4", "--out", str(out), "--jobs", "2"]) == 0
    assert leftovers(out) == [] and len(list(out.glob("*.json"))) == 4
