"""Publishing a built mod: content-hashed image names, the upload folder, URL checks, the save's name.

Builds Adam Obren's button game (the quickest to build) from a copy of ``art_src``, so one
test can change one card's art and see exactly that image's URL change.
"""

from __future__ import annotations

import json
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tts_builder import build as build_mod
from tts_builder import cli, stamp
from tts_builder.art import source as source_mod
from tts_builder.savecheck import _walk_values

GAME = "obren-buttons"
BASE_URL = "https://example.org/mods"


def _urls(save: Any) -> Iterator[str]:
    """Every image URL of ``save`` (an empty ImageSecondaryURL means "same as the top")."""
    for parts, value in _walk_values(save):
        if parts and isinstance(parts[-1], str) and parts[-1].endswith("URL") and isinstance(value, str) and value:
            yield value


def _save(out: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((out / GAME / f"{GAME}.json").read_text("utf-8"))
    return data


@pytest.fixture()
def art_copy(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of ``art_src`` that the build reads instead of the shipped one."""
    root = tmp_path / "art_src"
    shutil.copytree(Path(str(source_mod.art_root())), root, ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(source_mod, "art_root", lambda: root)
    monkeypatch.setattr(build_mod, "art_root", lambda: root)
    return root


def test_changing_one_cards_art_changes_exactly_that_images_url(art_copy: Path, tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    argv = ["build", GAME, "--out", str(out), "--base-url", BASE_URL, "--jobs", "1", "-q"]
    assert cli.main(argv) == 0
    before = _save(out)
    old_urls = sorted(set(_urls(before)))
    old_files = sorted(p.name for p in (out / GAME / "images").iterdir())
    # one URL per distinct image: no two files of the build hold the same bytes
    contents = [p.read_bytes() for p in (out / GAME / "images").iterdir() if p.name != "manifest.json"]
    assert len(contents) == len(set(contents))
    assert len(old_urls) == len(contents)

    art = art_copy / GAME / "art.json"
    text = art.read_text("utf-8")
    assert text.count('"PLAYER AID"') == 1
    art.write_text(text.replace('"PLAYER AID"', '"PLAYER HELP"'), "utf-8")
    assert cli.main([*argv, "--force"]) == 0  # (the stamp digests the shipped art_src, not this copy)
    capsys.readouterr()
    new_urls = sorted(set(_urls(_save(out))))
    gone, came = sorted(set(old_urls) - set(new_urls)), sorted(set(new_urls) - set(old_urls))
    assert len(gone) == 1 and len(came) == 1, (gone, came)
    assert gone[0].rsplit("/", 1)[1].startswith("aid-1-") and came[0].rsplit("/", 1)[1].startswith("aid-1-")
    # the stale file went from images/ and from the upload folder; nothing else changed name
    new_files = sorted(p.name for p in (out / GAME / "images").iterdir())
    assert set(old_files) - set(new_files) == {gone[0].rsplit("/", 1)[1]}
    assert set(new_files) - set(old_files) == {came[0].rsplit("/", 1)[1]}
    assert not (build_mod.upload_dir(out, GAME) / "images" / gone[0].rsplit("/", 1)[1]).exists()
    # and the save is otherwise the same: only that URL (and the name's build id) moved
    text_before = json.dumps(before, sort_keys=True).replace(gone[0], came[0])
    after = _save(out)
    assert json.loads(text_before)["ObjectStates"] == after["ObjectStates"]


def test_the_upload_folder_holds_exactly_what_the_save_names(tmp_path: Path,
                                                             capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    assert cli.main(["build", GAME, "--out", str(out), "--base-url", BASE_URL + "/", "-q"]) == 0
    upload = out / stamp.UPLOAD_DIR
    prefix = f"{BASE_URL}/"
    named = {u[len(prefix):] for u in _urls(_save(out))}
    assert named and all(u.startswith(prefix) for u in _urls(_save(out)))
    files = {p.relative_to(upload).as_posix() for p in upload.rglob("*") if p.is_file()}
    assert files == named | {f"{GAME}/{GAME}.png"}  # the images the URLs name and the thumbnail, no cache
    for rel in named:  # the same bytes as the build's own files
        assert (upload / rel).read_bytes() == (out / GAME / "images" / rel.rsplit("/", 1)[1]).read_bytes()
    # the stamp vouches for the upload folder too: a file removed from it is rebuilt
    (upload / sorted(named)[0]).unlink()
    assert cli.main(["build", GAME, "--out", str(out), "--base-url", BASE_URL, "-q"]) == 0
    assert "up to date" not in capsys.readouterr().out
    assert {p.relative_to(upload).as_posix() for p in upload.rglob("*") if p.is_file()} == files
    assert cli.main(["build", GAME, "--out", str(out), "--base-url", BASE_URL, "-q"]) == 0
    assert "up to date" in capsys.readouterr().out
    # a file:/// build has nothing to upload: the folder goes
    assert cli.main(["build", GAME, "--out", str(out), "-q"]) == 0
    assert not upload.exists()
    capsys.readouterr()


@pytest.mark.parametrize("url", ["http://exa mple.org", "ftp://example.org", "file:///tmp/x", "example.org",
                                 "https://", "https://example.org/a b", "https://example.org/\x07"])
def test_bad_base_urls_are_one_line_and_exit_2(url: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["build", GAME, "--out", str(tmp_path / "out"), "--base-url", url]) == 2
    err = capsys.readouterr().err
    assert err.startswith("tts-builder: --base-url") and err.count("\n") == 1
    assert not (tmp_path / "out").exists()
