"""Batches from folders, zip archives and glob patterns (tts_builder.sources), streamed through
validate in order, with one unusable entry per argument that stands for nothing."""

from __future__ import annotations

import json
import zipfile
from pathlib import Path

import pytest

from tts_builder import sources
from tts_builder.cli import main
from tts_builder.simulate import simulate
from tts_builder.validate import Tally, Unusable, iter_validate, validate_batch


@pytest.fixture(scope="module")
def games(tmp_path_factory: pytest.TempPathFactory) -> list[Path]:
    out = tmp_path_factory.mktemp("games")
    return simulate("two-and-two", 4, 7, out, policy="random")


def _zip(path: Path, members: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w") as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return path


def test_a_folder_stands_for_its_json_files_sorted_subfolders_too(tmp_path: Path, games: list[Path]) -> None:
    (tmp_path / "b").mkdir()
    (tmp_path / "b" / "z.json").write_bytes(games[0].read_bytes())
    (tmp_path / "a.json").write_bytes(games[1].read_bytes())
    (tmp_path / "notes.txt").write_text("not a transcript")
    (tmp_path / ".hidden.json").write_text("{")
    names = [s.name for s in sources.expand([tmp_path])]
    assert names == [str(tmp_path / "a.json"), str(tmp_path / "b" / "z.json")]


def test_a_zip_stands_for_its_json_members_and_reads_them(tmp_path: Path, games: list[Path]) -> None:
    archive = _zip(tmp_path / "round.zip", {"2.json": games[1].read_bytes(), "1.json": games[0].read_bytes(),
                                            "readme.txt": b"hello", "dir/": b""})
    found = list(sources.expand([archive]))
    assert [s.name for s in found] == [f"{archive}:1.json", f"{archive}:2.json"]
    assert found[0].read() == games[0].read_bytes()


def test_a_pattern_stands_for_its_matches_sorted(tmp_path: Path, games: list[Path]) -> None:
    pattern = str(games[0].parent / "two-and-two-*.json")
    assert [s.name for s in sources.expand([pattern])] == sorted(str(g) for g in games)


def test_the_same_report_from_files_a_folder_a_zip_and_a_pattern(tmp_path: Path, games: list[Path]) -> None:
    archive = _zip(tmp_path / "all.zip", {g.name: g.read_bytes() for g in games})
    by_file = [e.to_json() for e in validate_batch(games)]
    for arg in (games[0].parent, archive, str(games[0].parent / "*.json")):
        reports = [e.to_json() for e in validate_batch([arg])]
        for one in reports:
            one.pop("file")
        assert reports == [{k: v for k, v in e.items() if k != "file"} for e in by_file]


def test_an_argument_that_stands_for_nothing_is_one_unusable_entry_and_the_rest_go_on(
        tmp_path: Path, games: list[Path]) -> None:
    empty = tmp_path / "empty"
    empty.mkdir()
    (tmp_path / "bad.zip").write_bytes(b"PK\x03\x04 not really")
    entries = list(iter_validate([empty, games[0], str(tmp_path / "nothing-*.json"), tmp_path / "bad.zip"]))
    assert [e.verdict for e in entries] == ["unusable", "legal", "unusable", "unusable"]
    errors = [e.error for e in entries if isinstance(e, Unusable)]
    assert "a folder with no .json file" in errors[0]
    assert "the pattern matches no file" in errors[1]
    assert "not a zip archive" in errors[2]
    tally = Tally()
    for entry in entries:
        tally.add(entry)
    # the empty folder and the pattern stand for no file: their errors, not files of the tally (issue 23)
    assert tally.exit_code == 2 and str(tally) == "2 files: 1 legal, 0 illegal, 1 unusable"


def test_a_member_above_the_size_limit_is_refused_by_name(tmp_path: Path, games: list[Path],
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    archive = _zip(tmp_path / "big.zip", {"big.json": games[0].read_bytes()})
    monkeypatch.setattr(sources, "MAX_FILE_BYTES", 100)
    (entry,) = validate_batch([archive])
    assert isinstance(entry, Unusable)
    assert entry.error.startswith(f"{archive}:big.json: ") and "above the limit of 100 bytes" in entry.error


def test_a_bad_member_is_named_with_its_archive(tmp_path: Path) -> None:
    archive = _zip(tmp_path / "r.zip", {"broken.json": b'{"format": '})
    (entry,) = validate_batch([archive])
    assert isinstance(entry, Unusable) and entry.error.startswith(f"{archive}:broken.json: ")


def test_cli_streams_the_same_json_as_one_document(tmp_path: Path, games: list[Path],
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "--json", "--jobs", "1", str(games[0].parent)]) == 0
    streamed = capsys.readouterr().out
    expected = json.dumps([e.to_json() for e in validate_batch(games)], sort_keys=True) + "\n"
    assert streamed == expected


def test_cli_folder_ends_with_the_tally(games: list[Path], capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["validate", "--jobs", "2", str(games[0].parent)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[-1] == "4 files: 4 legal, 0 illegal, 0 unusable" and len(out) == 5
