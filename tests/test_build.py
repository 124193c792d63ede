"""The TTS save builder: ``tts-builder build`` / ``install`` and the save they write.

The module builds Two & Two twice: cold into one folder with ``file:///`` image
URLs, and into a second folder with ``--base-url``, seeded only with the first
build's card-picture cache (so sheets, mat and save are all written afresh).
Everything else reuses those two builds.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

import rules
import tts_builder
from rules.two_and_two.cards import build_cards
from tts_builder import build as build_mod
from tts_builder import cli
from tts_builder.art.pipeline import CACHE_DIR
from tts_builder.errors import InputError
from tts_builder.guids import GuidAllocator, guid_for
from tts_builder.install import default_tts_dir
from tts_builder import save as save_mod
from tts_builder.save import parse_table_layout
from tts_builder.savecheck import ERROR, Problem, check_save
from tts_builder.stamp import STAMP

GAME = "two-and-two"
BASE_URL = "https://example.org/mods"
CONTEXT_KEYS = {"seats", "zones", "positions", "decks", "cards", "hands", "card_y", "upright_rotation_y", "sizes",
                "grids", "pieces", "bags", "stacks", "zone_cells", "card_copies", "deck_copies", "hex_tile_turn_y",
                "faces"}
ZONE_ROLES = {"deck", "stack", "discard", "flip", "skip-own", "skip-opponent", "deny", "score-0", "score-1"}


def _files(root: Path) -> dict[str, str]:
    """Relative path -> sha256 of every file under ``root``."""
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


def _walk(objects: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    for obj in objects:
        yield obj
        yield from _walk(obj.get("ContainedObjects", []))


def _urls(value: Any) -> Iterator[str]:
    if isinstance(value, dict):
        for key, item in value.items():
            if key.endswith("URL") and isinstance(item, str):
                if item:  # ImageSecondaryURL "" means "same as the top"
                    yield item
            else:
                yield from _urls(item)
    elif isinstance(value, list):
        for item in value:
            yield from _urls(item)


@pytest.fixture(scope="module")
def builds(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("builds")
    local, hosted = root / "local", root / "hosted"
    assert cli.main(["build", GAME, "--out", str(local)]) == 0
    shutil.copytree(local / GAME / CACHE_DIR, hosted / GAME / CACHE_DIR)
    assert cli.main(["build", GAME, "--out", str(hosted), "--base-url", BASE_URL + "/"]) == 0
    return {"local": local, "hosted": hosted}


@pytest.fixture(scope="module")
def save(builds: dict[str, Path]) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((builds["local"] / GAME / f"{GAME}.json").read_text("utf-8"))
    return data


@pytest.fixture(scope="module")
def table(builds: dict[str, Path]) -> dict[str, Any]:
    layout = build_mod.load_table_layout(GAME)
    from tts_builder.art import load_manifest
    from tts_builder.save import plan_table, table_context
    plan = plan_table(layout, load_manifest(builds["local"], GAME), rules.get_game(GAME).data)
    return table_context(plan)


# --------------------------------------------------------------------------- determinism


def test_builds_are_byte_identical_apart_from_the_image_prefix(builds: dict[str, Path]) -> None:
    local = (builds["local"] / GAME / f"{GAME}.json").read_text("utf-8")
    hosted = (builds["hosted"] / GAME / f"{GAME}.json").read_text("utf-8")
    prefix = "file:///" + (builds["local"].resolve() / GAME / "images").as_posix().lstrip("/") + "/"
    assert prefix in local
    assert local.replace(prefix, f"{BASE_URL}/{GAME}/images/") == hosted
    assert sorted(p.name for p in (builds["local"] / GAME / "images").iterdir()) == \
        sorted(p.name for p in (builds["hosted"] / GAME / "images").iterdir())
    for path in [builds["local"] / GAME / f"{GAME}.png", *(builds["local"] / GAME / "images").iterdir()]:
        twin = builds["hosted"] / path.relative_to(builds["local"])
        assert path.read_bytes() == twin.read_bytes(), path.name


def test_a_warm_rebuild_into_the_same_folder_gives_the_same_bytes(builds: dict[str, Path],
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """The module's first build was cold; rebuilding is a no-op (the stamp is current), and a
    forced rebuild reuses every picture: every byte of the tree (save, thumbnail, images,
    manifest, cache, stamp) stays the same. The run's counts are printed instead."""
    out = builds["local"]
    cold = _files(out)
    assert cli.main(["build", GAME, "--out", str(out)]) == 0
    assert capsys.readouterr().out.startswith(f"{GAME}: up to date")
    assert _files(out) == cold
    assert cli.main(["build", GAME, "--out", str(out), "--force"]) == 0
    assert "0 card pictures rendered" in capsys.readouterr().out
    assert _files(out) == cold


def test_a_fresh_build_into_a_folder_named_in_cyrillic(builds: dict[str, Path], tmp_path: Path) -> None:
    """The check sees the staged images through the save's file:/// URLs, which then hold
    non-ASCII text (a Windows "Документы" folder)."""
    out = tmp_path / "Документы ü"
    shutil.copytree(builds["local"] / GAME / CACHE_DIR, out / GAME / CACHE_DIR)  # no images, no save yet
    assert cli.main(["build", GAME, "--out", str(out)]) == 0
    problems = check_save(json.loads((out / GAME / f"{GAME}.json").read_text("utf-8")), own_output=True,
                          base_dir=out / GAME)
    assert [p for p in problems if p.severity == ERROR] == []  # the images are where the URLs point
    assert sorted(p.name for p in out.iterdir()) == [GAME]


def test_save_date_is_fixed_and_keys_sorted(save: dict[str, Any], builds: dict[str, Path]) -> None:
    # no clock: the date is $SOURCE_DATE_EPOCH or the fixed default (the two builds ran at different times)
    assert save["EpochTime"] == save_mod.DEFAULT_SAVE_EPOCH and save["Date"] == "1/1/2026 12:00:00 AM"
    assert save["VersionNumber"] == save_mod.TTS_VERSION
    text = (builds["local"] / GAME / f"{GAME}.json").read_text("utf-8")
    assert text == json.dumps(save, sort_keys=True, indent=2, ensure_ascii=False) + "\n"


def test_base_url_changes_every_image_url(builds: dict[str, Path]) -> None:
    hosted = json.loads((builds["hosted"] / GAME / f"{GAME}.json").read_text("utf-8"))
    urls = list(_urls(hosted))
    assert urls and all(u.startswith(f"{BASE_URL}/{GAME}/images/") for u in urls)
    assert "file:///" not in json.dumps(hosted)
    for url in set(urls):  # each names a file the build wrote
        assert (builds["hosted"] / GAME / "images" / url.rsplit("/", 1)[1]).is_file()


# --------------------------------------------------------------------------- the save


def test_save_passes_its_own_check(save: dict[str, Any], builds: dict[str, Path]) -> None:
    problems = check_save(save, base_dir=builds["local"] / GAME, own_output=True)
    assert [p for p in problems if p.severity == ERROR] == []
    assert code_of(["schema-check", str(builds["hosted"] / GAME / f"{GAME}.json")]) == 0


def code_of(argv: list[str]) -> int:
    return cli.main(argv)


def test_decks_and_card_ids(save: dict[str, Any]) -> None:
    decks = [o for o in save["ObjectStates"] if o["Name"] in ("Deck", "DeckCustom")]
    assert decks
    for deck in decks:
        contained = deck["ContainedObjects"]
        assert deck["DeckIDs"] == [c["CardID"] for c in contained]
        assert {str(i // 100) for i in deck["DeckIDs"]} == set(deck["CustomDeck"])
        for card in contained:
            (key, entry), = card["CustomDeck"].items()
            assert int(key) == card["CardID"] // 100
            assert entry == deck["CustomDeck"][key]
            assert card["CardID"] % 100 < entry["NumWidth"] * entry["NumHeight"]


def test_every_in_play_card_once_with_its_id(save: dict[str, Any]) -> None:
    game = rules.get_game(GAME)
    in_play = set(build_cards(dict(game.data)))
    cards = [o for o in _walk(save["ObjectStates"]) if o["Name"] == "Card"]
    notes = [c["GMNotes"] for c in cards]
    assert len(notes) == len(set(notes))
    assert in_play <= set(notes)
    main = next(o for o in save["ObjectStates"] if o["Name"] == "Deck" and o["GMNotes"] == "main")
    assert sorted(c["GMNotes"] for c in main["ContainedObjects"]) == sorted(in_play)
    assert all(c["Nickname"] and c["Nickname"] != c["GMNotes"] for c in cards)


def test_guids_are_six_hex_and_unique(save: dict[str, Any]) -> None:
    guids = [o["GUID"] for o in _walk(save["ObjectStates"])]
    assert all(re.fullmatch(r"[0-9a-f]{6}", g) for g in guids)
    assert len(guids) == len(set(guids))


def test_objects_zones_mat_and_metadata(save: dict[str, Any]) -> None:
    objects = save["ObjectStates"]
    zones = {o["Nickname"]: o for o in objects if o["Name"] == "ScriptingTrigger"}
    assert set(zones) == ZONE_ROLES
    assert all(z["Locked"] for z in zones.values())
    mat = next(o for o in objects if o["Name"] == "Custom_Tile")
    assert mat["Locked"] and build_mod.art_name(mat["CustomImage"]["ImageURL"]).endswith("/table-mat.png")
    assert save["SaveName"].startswith("Two & Two - tts-builder ") and save["PlayerCounts"] == [2, 2]
    assert save["LuaScriptState"] == "" and save["Rules"] == ""
    hands = save["Hands"]
    assert hands["Enable"] and "HandTransforms" not in hands  # the pre-v13 form; hands are HandTrigger objects
    triggers = [o for o in objects if o["Name"] == "HandTrigger"]
    assert [h["FogColor"] for h in triggers] == ["White", "Red"] and all(h["Locked"] for h in triggers)
    assert [h["ColorDiffuse"]["a"] for h in triggers] == [0.0, 0.0]
    assert save_mod.hand_transforms(save) == {h["FogColor"]: h["Transform"] for h in triggers}
    old_form = {"Hands": {"HandTransforms": [{"Color": "Blue", "Transform": triggers[0]["Transform"]}]}}
    assert save_mod.hand_transforms(old_form) == {"Blue": triggers[0]["Transform"]}  # a pre-v13 save
    # the mat keeps the image's aspect ratio once: Stretch with a uniform scale
    t = mat["Transform"]
    assert mat["CustomImage"]["CustomTile"]["Stretch"] and t["scaleX"] == t["scaleZ"]
    assert save_mod.built_by(save) == {"tool": "tts-builder", "version": tts_builder.__version__}
    assert save["Tags"] and set(save["Tags"]) <= save_mod.TTS_TAGS and save["ComponentTags"] == {"labels": []}
    # every snap point turns a card upright for the seat its zone faces, but STACK's (snap_rotation
    # false): a stack may start either way up, so it snaps position only (no Rotation key)
    rotations = {(p["Position"]["z"] > 0, p["Rotation"]["y"]) for p in save["SnapPoints"] if "Rotation" in p}
    assert (True, 0.0) in rotations and (False, 180.0) in rotations
    stack = next(o["Transform"] for o in objects if o["Name"] == "ScriptingTrigger" and o["Nickname"] == "stack")
    loose = [p for p in save["SnapPoints"] if "Rotation" not in p]
    assert [(p["Position"]["x"], p["Position"]["z"]) for p in loose] == [(stack["posX"], stack["posZ"])]
    tabs = save["TabStates"]
    assert [tabs[k]["title"] for k in sorted(tabs, key=int)] == ["Rules", "Assumptions", "White", "Red"]
    assert [tabs[k]["id"] for k in sorted(tabs, key=int)] == [0, 1, 2, 3]
    assert "GOAL" in tabs["0"]["body"] and "[TT-1]" in tabs["1"]["body"]
    assert len(save["SnapPoints"]) >= len(ZONE_ROLES)


def test_thumbnail_is_256_png(builds: dict[str, Path]) -> None:
    with Image.open(builds["local"] / GAME / f"{GAME}.png") as img:
        assert img.format == "PNG" and img.size == (256, 256)


def test_table_context_shape(table: dict[str, Any], save: dict[str, Any]) -> None:
    assert set(table) == CONTEXT_KEYS
    assert table["seats"] == [{"seat": 0, "color": "White"}, {"seat": 1, "color": "Red"}]
    assert set(table["zones"]) == ZONE_ROLES == set(table["positions"]) == set(table["sizes"])
    by_guid = {o["GUID"]: o for o in _walk(save["ObjectStates"])}
    for role, guid in table["zones"].items():
        assert by_guid[guid]["Nickname"] == role
        pos, t = table["positions"][role], by_guid[guid]["Transform"]
        assert (pos["x"], pos["y"], pos["z"]) == (t["posX"], t["posY"], t["posZ"])
    assert by_guid[table["decks"]["main"]]["Name"] == "Deck"
    for card_id, card in table["cards"].items():
        obj = by_guid[card["guid"]]
        assert obj["GMNotes"] == card_id and obj["CardID"] == card["card_id"]
    assert {c["deck"] for c in table["cards"].values()} >= {"main"}
    assert set(table["hands"]) == {"White", "Red"}
    layout = json.loads((Path(__file__).resolve().parents[1] / "art_src" / "two-and-two" / "table.json").read_text())
    assert table["upright_rotation_y"] == layout["card"]["rotation_y"]
    assert table["card_y"] == round(layout["surface_y"] + layout["mat"]["thickness"], 4)


def test_lua_compiles_under_lua52(save: dict[str, Any]) -> None:
    lua52 = pytest.importorskip("lupa.lua52")
    runtime = lua52.LuaRuntime()
    compile_ = runtime.eval("function(s) local f, err = load(s, '=Global') return f ~= nil, err end")
    ok, err = compile_(save["LuaScript"])
    assert ok, err
    assert save["XmlUI"].strip()


# --------------------------------------------------------------------------- failures write nothing


def test_unknown_game_exits_2_and_writes_nothing(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    assert cli.main(["build", "no-such-game", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert len(err.strip().splitlines()) == 1 and "no-such-game" in err
    assert not out.exists()


@pytest.mark.parametrize("argv", [["build"], ["build", GAME, "--all"], ["build", GAME, "--base-url", "ftp://x/"]])
def test_bad_build_arguments_exit_2(argv: list[str], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main([*argv, "--out", str(tmp_path / "out")]) == 2
    assert len(capsys.readouterr().err.strip().splitlines()) == 1
    assert not (tmp_path / "out").exists()


def test_failed_check_writes_nothing_then_rebuild_is_identical(builds: dict[str, Path],
                                                               monkeypatch: pytest.MonkeyPatch,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    out = builds["local"]
    before = _files(out)
    with monkeypatch.context() as m:
        m.setattr(build_mod, "check_save",
                  lambda *_a, **_k: [Problem("$.ObjectStates[0]", "planted by the test", ERROR)])
        assert cli.main(["build", GAME, "--out", str(out), "--force"]) == 1
    assert "planted by the test" in capsys.readouterr().err
    assert _files(out) == before  # previous save, thumbnail and images untouched, no staging left
    assert cli.main(["build", GAME, "--out", str(out)]) == 0  # warm rebuild: same bytes
    assert _files(out) == before


def test_failed_check_on_a_fresh_folder_leaves_nothing(builds: dict[str, Path], tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "fresh"  # images and cache from an earlier `sheets` run, no save yet (warm: fast)
    shutil.copytree(builds["local"] / GAME / "images", out / GAME / "images")
    shutil.copytree(builds["local"] / GAME / CACHE_DIR, out / GAME / CACHE_DIR)
    next((out / GAME / "images").glob("table-mat-*.png")).unlink()
    before = _files(out)
    monkeypatch.setattr(build_mod, "check_save", lambda *_a, **_k: [Problem("$", "planted", ERROR)])
    with pytest.raises(build_mod.BuildCheckFailed):
        build_mod.build_game(GAME, out)
    assert _files(out) == before
    assert sorted(p.name for p in (out / GAME).iterdir()) == [CACHE_DIR, "images"]
    empty = tmp_path / "empty"
    monkeypatch.setattr(build_mod, "render_game_art", _no_art)  # fails before any image is written
    with pytest.raises(InputError):
        build_mod.build_game(GAME, empty)
    assert not empty.exists()


def _no_art(*_a: Any, **_k: Any) -> Any:
    raise InputError("art skipped by the test")


def test_missing_lua_template_is_one_line(builds: dict[str, Path], monkeypatch: pytest.MonkeyPatch,
                                          capsys: pytest.CaptureFixture[str]) -> None:
    import jinja2

    def missing(*_a: Any) -> str:
        raise jinja2.TemplateNotFound("games/two-and-two/table.lua.j2")
    out = builds["local"]
    before = _files(out)
    monkeypatch.setattr(build_mod.luagen, "render_global_lua", missing)
    assert cli.main(["build", GAME, "--out", str(out), "--force"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "table.lua.j2" in err
    assert _files(out) == before


def test_all_skips_games_that_are_not_ready(builds: dict[str, Path], tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(build_mod, "missing_inputs", lambda g: [] if g == GAME else [f"art_src/{g}/table.json"])
    monkeypatch.setattr(build_mod.rules, "game_ids", lambda: [GAME, "twin-tower-city"])
    assert cli.main(["build", "--all", "--out", str(builds["local"])]) == 0
    captured = capsys.readouterr()
    assert "twin-tower-city: skipped" in captured.err and f"{GAME}:" in captured.out
    monkeypatch.setattr(build_mod, "missing_inputs", lambda g: [f"art_src/{g}/table.json"])
    assert cli.main(["build", GAME, "--out", str(tmp_path / "out")]) == 2  # named explicitly: an error
    assert "cannot be built yet" in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


# --------------------------------------------------------------------------- install


def test_install_picks_the_next_free_number(builds: dict[str, Path], tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    tts = tmp_path / "tts"
    saves = tts / "Saves"
    saves.mkdir(parents=True)
    for name in ("TS_Save_3.json", "TS_Save_10.json", "TS_Save_x.json", "TS_Save_99.png"):
        (saves / name).write_text("{}", encoding="utf-8")
    argv = ["install", GAME, "--out", str(builds["local"]), "--tts-dir", str(tts)]
    assert cli.main(argv) == 0
    assert "TS_Save_11" in capsys.readouterr().out
    assert (saves / "TS_Save_11.json").read_bytes() == (builds["local"] / GAME / f"{GAME}.json").read_bytes()
    assert (saves / "TS_Save_11.png").read_bytes() == (builds["local"] / GAME / f"{GAME}.png").read_bytes()
    assert cli.main(argv) == 0  # the same mod again: nothing new
    assert "already installed" in capsys.readouterr().out
    assert not (saves / "TS_Save_12.json").exists()
    assert not [p for p in saves.iterdir() if p.name.endswith(".tmp")]


def test_install_into_empty_tts_dir_and_unbuilt_game(builds: dict[str, Path], tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    tts = tmp_path / "tts"
    tts.mkdir()
    assert cli.main(["install", GAME, "--out", str(builds["hosted"]), "--tts-dir", str(tts)]) == 0
    assert (tts / "Saves" / "TS_Save_1.json").is_file() and (tts / "Saves" / "TS_Save_1.png").is_file()
    capsys.readouterr()
    assert cli.main(["install", GAME, "--out", str(tmp_path / "nothing"), "--tts-dir", str(tts)]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and f"tts-builder build {GAME}" in err
    assert cli.main(["install", "no-such-game", "--tts-dir", str(tts)]) == 2


def test_install_where_saves_is_a_file(builds: dict[str, Path], tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    tts = tmp_path / "tts"
    tts.mkdir()
    (tts / "Saves").write_text("not a folder")
    assert cli.main(["install", GAME, "--out", str(builds["local"]), "--tts-dir", str(tts)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and f"{tts / 'Saves'}: is a file, not the Saves folder" in err
    assert sorted(p.name for p in tts.iterdir()) == ["Saves"]


def test_install_skips_a_slot_taken_by_a_folder_and_an_unreadable_save(builds: dict[str, Path], tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    saves = tmp_path / "tts" / "Saves"
    (saves / "TS_Save_4.json").mkdir(parents=True)  # TTS lists no such save, but the name is taken
    (saves / "TS_Save_5.png").mkdir()
    locked = saves / "TS_Save_2.json"
    built = builds["local"] / GAME / f"{GAME}.json"
    locked.write_bytes(built.read_bytes())  # the same size, so it would be read
    real_read = Path.read_bytes

    def read_bytes(self: Path) -> bytes:
        if self == locked:
            raise PermissionError(13, "Permission denied", str(self))
        return real_read(self)
    monkeypatch.setattr(Path, "read_bytes", read_bytes)
    assert cli.main(["install", GAME, "--out", str(builds["local"]), "--tts-dir", str(tmp_path / "tts")]) == 0
    captured = capsys.readouterr()
    assert "TS_Save_6" in captured.out and f"cannot read {locked}" in captured.err
    assert (saves / "TS_Save_6.json").read_bytes() == built.read_bytes()


def test_default_tts_dirs() -> None:
    home = Path("/h")
    assert default_tts_dir("win32", {"USERPROFILE": "C:/Users/ann"}, home) == \
        Path("C:/Users/ann") / "Documents" / "My Games" / "Tabletop Simulator"
    assert default_tts_dir("darwin", {}, home) == home / "Library" / "Tabletop Simulator"
    assert default_tts_dir("linux", {}, home) == home / ".local" / "share" / "Tabletop Simulator"


# --------------------------------------------------------------------------- units


def test_guid_collisions_are_rehashed_deterministically() -> None:
    natural = guid_for("g/a")
    first = GuidAllocator("g", reserved={natural})
    second = GuidAllocator("g", reserved={natural})
    assert first.get("a") == second.get("a") == guid_for("g/a#1") != natural
    assert first.get("a") == first.get("a")
    many = GuidAllocator("g")
    got = [many.get(f"n{i}") for i in range(3000)]  # ~3000 of 16.7M: some collide, all stay unique
    assert len(set(got)) == len(got)


def test_layout_errors_name_the_field() -> None:
    raw = json.loads(build_mod.art_root().joinpath(GAME, "table.json").read_text("utf-8"))
    raw["zones"][1]["role"] = raw["zones"][0]["role"]
    with pytest.raises(InputError, match=r"zones\[1\]\.role.*used twice"):
        parse_table_layout(raw, game_id=GAME)
    raw = json.loads(build_mod.art_root().joinpath(GAME, "table.json").read_text("utf-8"))
    raw["seats"][1]["color"] = "Mauve"
    with pytest.raises(InputError, match=r"seats\[1\]\.color"):
        parse_table_layout(raw, game_id=GAME)


def test_sheets_command_calls_the_art_module(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import tts_builder.art as art
    calls: list[tuple[str, Path]] = []

    def fake(game_id: str, out: Path) -> int:
        calls.append((game_id, out))
        return 0
    monkeypatch.setattr(art, "render_sheets_command", fake)
    assert cli.main(["sheets", GAME, "--out", str(tmp_path)]) == 0
    assert calls == [(GAME, tmp_path)]


def test_no_stray_files_in_build(builds: dict[str, Path]) -> None:
    for kind, root in builds.items():
        names = sorted(p.name for p in root.iterdir())
        assert names == ([GAME, "upload"] if kind == "hosted" else [GAME])  # --base-url: what to upload
        assert sorted(p.name for p in (root / GAME).iterdir()) == sorted(
            [CACHE_DIR, "images", f"{GAME}.json", f"{GAME}.png", STAMP])
        assert not [p for p in root.rglob("*") if p.name.endswith(".tmp") or ".previous" in p.name]
        assert os.access(root / GAME / f"{GAME}.json", os.R_OK)


def test_a_card_name_template_that_fails_on_a_card_is_one_line(builds: dict[str, Path],
                                                               monkeypatch: pytest.MonkeyPatch,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    layout_text = (Path(__file__).resolve().parents[1] / "art_src" / GAME / "table.json").read_text()
    layout = json.loads(layout_text)
    layout["card"]["nickname"] = "{% for x in game.items %}{{ x }}{% endfor %}"  # a dict method, not a list
    monkeypatch.setattr(build_mod, "load_table_layout",
                        lambda game_id: parse_table_layout(layout, game_id=game_id, origin=f"art_src/{game_id}/table.json"))
    out = builds["local"]
    before = _files(out)
    assert cli.main(["build", GAME, "--out", str(out), "--force"]) == 2
    err = capsys.readouterr().err.strip()
    assert len(err.splitlines()) == 1 and "card.nickname" in err and "Traceback" not in err, err
    assert _files(out) == before


def test_save_date_comes_from_source_date_epoch(monkeypatch: pytest.MonkeyPatch) -> None:
    assert save_mod.save_epoch({}) == save_mod.DEFAULT_SAVE_EPOCH
    assert save_mod.save_epoch({"SOURCE_DATE_EPOCH": "1669149152"}) == 1669149152
    assert save_mod.tts_date(1669149152) == "11/22/2022 8:32:32 PM"  # UTC, in TTS's US format
    with pytest.raises(InputError, match="SOURCE_DATE_EPOCH"):
        save_mod.save_epoch({"SOURCE_DATE_EPOCH": "yesterday"})


def test_unknown_workshop_tag_is_refused_by_name() -> None:
    layout = json.loads((Path(__file__).resolve().parents[1] / "art_src" / GAME / "table.json").read_text())
    layout["metadata"]["tags"] = ["Card Games", "2 Players"]
    with pytest.raises(InputError, match=r"metadata\.tags\[1\]: '2 Players' is not a TTS Workshop tag"):
        parse_table_layout(layout, game_id=GAME)
