"""``install --replace`` (the slot of the earlier install, never a player's save) and
``install --saved-object`` (the components as one bag in Saves/Saved Objects/)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

import tts_builder

from tts_builder import cli
from tts_builder.build import build_game
from tts_builder.install import ZONE_NAMES
from tts_builder.save import game_of_save_name, save_name
from tts_builder.savecheck import ERROR, check_save

GAME = "two-and-two"


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("out")
    build_game(GAME, out)
    return out


def _save(built: Path) -> dict:
    return json.loads((built / GAME / f"{GAME}.json").read_text("utf-8"))


def _earlier_build(built: Path) -> bytes:
    """The save as an earlier build of the same game wrote it: other card text, same marks."""
    save = _save(built)
    save["ObjectStates"][0]["Description"] = "an older build"
    save["SaveName"] = save_name(game_of_save_name(save["SaveName"]), save)  # its own build id
    return json.dumps(save).encode()


def _install(built: Path, tts: Path, *extra: str) -> int:
    return cli.main(["install", GAME, "--out", str(built), "--tts-dir", str(tts), *extra])


def test_replace_overwrites_the_earlier_install(built: Path, tmp_path: Path, capsys) -> None:
    saves = tmp_path / "tts" / "Saves"
    saves.mkdir(parents=True)
    (saves / "TS_Save_1.json").write_text('{"SaveName": "someone else", "ObjectStates": []}')
    (saves / "TS_Save_3.json").write_bytes(_earlier_build(built))
    (saves / "TS_Save_3.png").write_bytes(b"old thumbnail")
    assert _install(built, tmp_path / "tts", "--replace") == 0
    out = capsys.readouterr().out
    assert "replaced the earlier install" in out and "TS_Save_3" in out
    assert f"shown as {_save(built)['SaveName']!r}" in out  # the game, the tool's version, the build
    assert (saves / "TS_Save_3.json").read_bytes() == (built / GAME / f"{GAME}.json").read_bytes()
    assert (saves / "TS_Save_3.png").read_bytes() == (built / GAME / f"{GAME}.png").read_bytes()
    assert sorted(p.name for p in saves.iterdir()) == ["TS_Save_1.json", "TS_Save_3.json", "TS_Save_3.png"]
    assert (saves / "TS_Save_1.json").read_text() == '{"SaveName": "someone else", "ObjectStates": []}'


def test_without_replace_a_rebuild_takes_a_new_slot(built: Path, tmp_path: Path, capsys) -> None:
    saves = tmp_path / "tts" / "Saves"
    saves.mkdir(parents=True)
    (saves / "TS_Save_3.json").write_bytes(_earlier_build(built))
    assert _install(built, tmp_path / "tts") == 0
    assert "TS_Save_4" in capsys.readouterr().out
    assert (saves / "TS_Save_3.json").read_bytes() == _earlier_build(built)


def test_a_game_a_player_saved_from_the_mod_is_never_replaced(built: Path, tmp_path: Path, capsys) -> None:
    """TTS stamps the clock when it saves: same name and memo, another EpochTime."""
    saves = tmp_path / "tts" / "Saves"
    saves.mkdir(parents=True)
    (saves / "TS_Save_1.json").write_bytes(_earlier_build(built))
    player = _save(built)
    player["EpochTime"] += 86_400
    player["ObjectStates"][0]["Description"] = "mid-game"
    (saves / "TS_Save_2.json").write_text(json.dumps(player))
    before = (saves / "TS_Save_2.json").read_bytes()
    assert _install(built, tmp_path / "tts", "--replace") == 0
    assert "TS_Save_1" in capsys.readouterr().out
    assert (saves / "TS_Save_2.json").read_bytes() == before
    assert not (saves / "TS_Save_3.json").exists()


def test_replace_with_no_earlier_install_takes_a_new_slot(built: Path, tmp_path: Path, capsys) -> None:
    saves = tmp_path / "tts" / "Saves"
    saves.mkdir(parents=True)
    other = _save(built)
    other["SaveName"] = "Another game"
    (saves / "TS_Save_5.json").write_text(json.dumps(other))
    (saves / "TS_Save_6.json").write_text("not json, but it names tts-builder")
    assert _install(built, tmp_path / "tts", "--replace") == 0
    captured = capsys.readouterr()
    assert "installed as" in captured.out and "TS_Save_7" in captured.out
    assert "no earlier install found to replace" in captured.err
    assert json.loads((saves / "TS_Save_5.json").read_text())["SaveName"] == "Another game"


def test_an_identical_install_is_named_not_copied_again(built: Path, tmp_path: Path, capsys) -> None:
    (tmp_path / "tts").mkdir()
    assert _install(built, tmp_path / "tts", "--replace") == 0
    assert _install(built, tmp_path / "tts", "--replace") == 0
    assert "already installed as" in capsys.readouterr().out
    assert sorted(p.name for p in (tmp_path / "tts" / "Saves").iterdir()) == ["TS_Save_1.json", "TS_Save_1.png"]


def test_saved_object_is_one_bag_of_the_components(built: Path, tmp_path: Path, capsys) -> None:
    tts = tmp_path / "tts"
    tts.mkdir()
    assert _install(built, tts, "--saved-object") == 0
    assert "installed the saved object" in capsys.readouterr().out
    folder = tts / "Saves" / "Saved Objects"
    save = _save(built)
    name = game_of_save_name(save["SaveName"])  # the file keeps the game's name: replaced in place
    assert name == "Two & Two"
    assert sorted(p.name for p in folder.iterdir()) == [f"{name}.json", f"{name}.png"]
    data = json.loads((folder / f"{name}.json").read_text("utf-8"))
    assert data["SaveName"] == "" and data["LuaScript"] == "" and len(data["ObjectStates"]) == 1
    (bag,) = data["ObjectStates"]
    assert bag["Name"] == "Bag" and bag["Nickname"] == save["SaveName"]  # the build it came from
    expected = [o["GUID"] for o in save["ObjectStates"] if o["Name"] not in ZONE_NAMES]
    assert [o["GUID"] for o in bag["ContainedObjects"]] == expected and expected
    assert bag["GUID"] not in expected
    assert not [p for p in check_save(data, base_dir=folder) if p.severity == ERROR]
    # a second install replaces the file in place and says so
    (folder / f"{name}.json").write_text("{}")
    assert _install(built, tts, "--saved-object") == 0
    assert "replaced the saved object" in capsys.readouterr().out
    assert json.loads((folder / f"{name}.json").read_text("utf-8")) == data
    assert sorted(p.name for p in folder.iterdir()) == [f"{name}.json", f"{name}.png"]


def test_replace_and_saved_object_together_is_one_line(built: Path, tmp_path: Path, capsys) -> None:
    (tmp_path / "tts").mkdir()
    assert _install(built, tmp_path / "tts", "--replace", "--saved-object") == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "--replace and --saved-object" in err
    assert not (tmp_path / "tts" / "Saves").exists()


def test_the_save_name_tells_builds_apart(built: Path) -> None:
    """``SaveName`` says the game, the tool's version and a build id: an earlier build of the
    same game shows another name in TTS's load menu, and the same build always the same one."""
    save = _save(built)
    game, tool, build = save["SaveName"].split(" - ")
    assert game == "Two & Two" and tool == f"tts-builder {tts_builder.__version__}" and build.startswith("build ")
    assert json.loads(_earlier_build(built))["SaveName"] != save["SaveName"]
    assert save_name(game, save) == save["SaveName"]  # the id is the content's, not the clock's
    assert game_of_save_name(save["SaveName"]) == game_of_save_name(json.loads(_earlier_build(built))["SaveName"])


def test_reinstalling_a_build_whose_thumbnail_changed_says_so(built: Path, tmp_path: Path, capsys) -> None:
    saves = tmp_path / "tts" / "Saves"
    saves.mkdir(parents=True)
    assert _install(built, tmp_path / "tts", "--replace") == 0
    capsys.readouterr()
    (saves / "TS_Save_1.png").write_bytes(b"an older thumbnail")
    assert _install(built, tmp_path / "tts", "--replace") == 0
    out = capsys.readouterr().out
    assert "nothing copied" not in out and "thumbnail TS_Save_1.png was updated" in out
    assert (saves / "TS_Save_1.png").read_bytes() == (built / GAME / f"{GAME}.png").read_bytes()
    assert _install(built, tmp_path / "tts", "--replace") == 0
    assert "nothing copied" in capsys.readouterr().out  # now nothing was
