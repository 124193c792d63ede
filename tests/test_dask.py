"""``--scheduler``: simulate, validate and check-lua on a Dask cluster (a LocalCluster of two
worker processes here) give the same files and reports as one process."""

from __future__ import annotations

import zipfile
from pathlib import Path
from typing import Iterator

import pytest

from tts_builder import parallel
from tts_builder.cli import main

distributed = pytest.importorskip("distributed", reason="Dask's distributed package (the test extra) is missing")


@pytest.fixture(scope="module")
def cluster() -> Iterator[distributed.LocalCluster]:
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                  dashboard_address=None, silence_logs=50) as local_cluster:
        yield local_cluster


@pytest.fixture
def scheduler(cluster: distributed.LocalCluster) -> str:
    return str(cluster.scheduler_address)


def _batches_run(cluster: distributed.LocalCluster) -> int:
    """How many batches the cluster's workers have run (the work really went there)."""
    prefix = cluster.scheduler.task_prefixes.get("run_batch")
    return 0 if prefix is None else sum(prefix.state_counts.values())


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


def test_simulate_on_the_cluster_writes_the_same_files(scheduler: str, cluster: distributed.LocalCluster,
                                                       tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    before = _batches_run(cluster)
    for game in ("two-and-two", "obren-buttons"):
        local, remote = tmp_path / f"{game}-local", tmp_path / f"{game}-dask"
        assert _run(capsys, "simulate", game, "--games", "12", "--seed", "3", "--out", str(local),
                    "--jobs", "1")[0] == 0
        assert _run(capsys, "simulate", game, "--games", "12", "--seed", "3", "--out", str(remote),
                    "--scheduler", scheduler)[0] == 0
        names = sorted(p.name for p in local.iterdir())
        assert names == sorted(p.name for p in remote.iterdir()) and len(names) == 12 + 2  # and the chart
        for name in names:
            assert (local / name).read_bytes() == (remote / name).read_bytes(), name
    assert _batches_run(cluster) > before


def test_validate_on_the_cluster_gives_the_same_report_from_a_zip(scheduler: str, tmp_path: Path,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    games = tmp_path / "games"
    assert _run(capsys, "simulate", "twin-tower-city", "--games", "10", "--out", str(games), "--jobs", "1")[0] == 0
    first = sorted(games.glob("*.json"))[0]
    text = first.read_text()
    assert '"type": "play-battle"' in text
    first.write_text(text.replace('"type": "play-battle"', '"type": "play-battel"', 1))  # one illegal
    archive = tmp_path / "games.zip"
    with zipfile.ZipFile(archive, "w") as out:
        for path in sorted(games.glob("*.json")):
            out.write(path, path.name)
    for arg in (str(archive), str(games)):
        local = _run(capsys, "validate", "--json", arg, "--jobs", "1")
        remote = _run(capsys, "validate", "--json", arg, "--scheduler", scheduler)
        assert remote == local
        assert local[0] == 1 and local[1].startswith("[{") and local[1].count('"verdict": "illegal"') == 1
    text_local = _run(capsys, "validate", str(archive), "--jobs", "1")
    assert _run(capsys, "validate", str(archive), "--scheduler", scheduler) == text_local
    assert text_local[1].splitlines()[-1] == "10 files: 9 legal, 1 illegal, 0 unusable"


def test_check_lua_on_the_cluster_gives_the_same_report(scheduler: str, capsys: pytest.CaptureFixture[str]) -> None:
    argv = ["check-lua", "two-by-two", "--games", "4", "--seed", "5", "--mutants", "1"]
    local = _run(capsys, *argv, "--jobs", "1")
    assert local[0] == 0 and "agree" in local[1]
    assert _run(capsys, *argv, "--scheduler", scheduler) == local


def test_a_scheduler_that_is_not_an_address_is_one_line(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = _run(capsys, "validate", "x.json", "--scheduler", "localhost")
    assert code == 2 and out == ""
    assert err == "tts-builder: --scheduler localhost: expected a Dask scheduler address such as tcp://host:8786\n"


def test_a_scheduler_nobody_listens_at_is_one_line(monkeypatch: pytest.MonkeyPatch, tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(parallel, "CONNECT_TIMEOUT", "1s")
    code, out, err = _run(capsys, "simulate", "two-and-two", "--games", "2", "--out", str(tmp_path / "o"),
                          "--scheduler", "tcp://127.0.0.1:9")
    assert code == 2 and out == ""
    assert err.startswith("tts-builder: --scheduler tcp://127.0.0.1:9: cannot connect") and err.count("\n") == 1
    assert not (tmp_path / "o").exists() or not any((tmp_path / "o").iterdir())
