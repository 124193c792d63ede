"""Tests for the TTS save schema and checker (tts_builder.savecheck).

Every must-reject rule of docs/tts-format.md §7 is tested by mutating one small valid
save and asserting an error at the exact JSON path. The real saves in the shared
folder are checked once per session (they take about a second in total).
"""

from __future__ import annotations

import io
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from tts_builder import savecheck
from tts_builder.errors import InputError
from tts_builder.savecheck import Problem, check_save, load_save_file, load_schema, run_schema_check

FIXTURE_NAMES = [
    "arknova_save_v13_childobjects_xmlui_decals.json",
    "canterbury_save_scripted_tiles_models_customtable.json",
    "chess_save_builtin_pieces_dice_rpg_states.json",
    "coinchesim_save_global_lua_xmlui_builtin_deck.json",
    "dungeon_dash_save_snappoints_fog_counters_dice.json",
    "dungeon_dash_savedobject_deckcustom_5x4.json",
    "gloomhaven_savedobject_box_states_uniqueback.json",
    "sced_objectstate_only_scenario_bag.json",
    "terraforming_mars_save_2017_legacy_snappoints_states.json",
    "tutorial_save_board_dice_figurines_uniqueback.json",
]


# --- a small valid save --------------------------------------------------------


def transform() -> dict[str, float]:
    return {"posX": 0.0, "posY": 1.0, "posZ": 0.0, "rotX": 0.0, "rotY": 180.0, "rotZ": 0.0,
            "scaleX": 1.0, "scaleY": 1.0, "scaleZ": 1.0}


def sheet() -> dict[str, Any]:
    """A 3x2 sheet (6 cells) whose back is hidden, so all 6 cells hold cards."""
    return {"FaceURL": "https://example.invalid/face.png", "BackURL": "https://example.invalid/back.png",
            "NumWidth": 3, "NumHeight": 2, "BackIsHidden": True, "UniqueBack": False, "Type": 0}


def card(card_id: int, guid: str) -> dict[str, Any]:
    return {"Name": "Card", "GUID": guid, "Transform": transform(), "Nickname": "", "Locked": False,
            "CardID": card_id, "CustomDeck": {str(card_id // 100): sheet()}}


def valid_save() -> dict[str, Any]:
    """ObjectStates: [0] a deck of keys 1 and 2, [1] a loose card in the last cell (305)
    of a hidden-back sheet, [2] a bag holding a two-state token."""
    deck = {
        "Name": "Deck", "GUID": "a00001", "Transform": transform(),
        "DeckIDs": [100, 101, 200],
        "CustomDeck": {"1": sheet(), "2": sheet()},
        "ContainedObjects": [card(100, "b00001"), card(101, "b00002"), card(200, "b00003")],
    }
    token = {
        "Name": "Custom_Tile", "GUID": "d00001", "Transform": transform(),
        "CustomImage": {"ImageURL": "https://example.invalid/t.png", "ImageSecondaryURL": "",
                        "ImageScalar": 1.0, "WidthScale": 0.0,
                        "CustomTile": {"Type": 0, "Thickness": 0.2, "Stackable": False, "Stretch": True}},
        "States": {"2": {"Name": "Custom_Tile", "GUID": "d00002", "Transform": transform()}},
        "ChildObjects": [{"Name": "BlockSquare", "GUID": "d00003", "Transform": transform()}],
    }
    bag = {"Name": "Bag", "GUID": "e00001", "Transform": transform(), "ContainedObjects": [token],
           "LuaScript": "", "LuaScriptState": '{"n": 1}', "XmlUI": "<Panel/><Text>hi</Text>"}
    return {
        "SaveName": "test", "Date": "", "VersionNumber": "v13.2.2", "GameMode": "", "Gravity": 0.5,
        "PlayArea": 0.5, "Table": "Table_Custom", "Sky": "", "Note": "", "LuaScript": "",
        "LuaScriptState": "", "XmlUI": "<!-- Xml UI. See documentation: https://api.tabletopsimulator.com/ui/introUI/ -->",
        "TabStates": {"0": {"title": "Rules", "body": "", "color": "Grey",
                            "visibleColor": {"r": 0.5, "g": 0.5, "b": 0.5}, "id": 0}},
        "ObjectStates": [deck, {**card(305, "c00001"), "Name": "CardCustom"}, bag],
    }


def errors(data: Any, **kwargs: Any) -> list[Problem]:
    return [p for p in check_save(data, **kwargs) if p.severity == "error"]


def warnings(data: Any, **kwargs: Any) -> list[Problem]:
    return [p for p in check_save(data, **kwargs) if p.severity == "warning"]


def at(path: str, problems: list[Problem]) -> list[Problem]:
    return [p for p in problems if p.path == path]


# Mutations: (path inside the save, new value); the sentinel DELETE removes the key.
DELETE = object()


def mutate(data: Any, path: tuple[Any, ...], value: Any) -> Any:
    target = data
    for part in path[:-1]:
        target = target[part]
    if value is DELETE:
        del target[path[-1]]
    else:
        target[path[-1]] = value
    return data


# --- valid inputs ----------------------------------------------------------------


def test_minimal_valid_save_has_no_problems() -> None:
    assert check_save(valid_save()) == []
    assert check_save(valid_save(), own_output=True) == []


def test_bare_objectstate_and_saved_object_wrapper_are_valid() -> None:
    bare = valid_save()["ObjectStates"][0]
    assert check_save(bare, own_output=True) == []
    wrapper = {"SaveName": "", "GameMode": "", "Date": "", "Table": "", "Sky": "", "Note": "",
               "TabStates": {}, "ObjectStates": [bare]}
    assert check_save(wrapper, own_output=True) == []


def test_smallest_spawnable_object_is_valid() -> None:
    assert check_save({"Name": "BlockSquare", "Transform": transform(), "ColorDiffuse": {"r": 1, "g": 0, "b": 0}}) == []


def test_permissive_where_real_saves_vary() -> None:
    save = valid_save()
    save["FutureField"] = {"anything": [1, "x"]}
    save["TableURL"] = None
    save["CameraStates"] = [None, {"Position": {"x": 0, "y": 1, "z": 2}, "Distance": 10, "Zoomed": False}]
    obj = save["ObjectStates"][2]
    obj.update({"AltLookAngle": {"x": 0, "y": 0, "z": 0}, "HideWhenFaceDown": None, "MaterialIndex": -1,
                "RotationValues": [{"Value": "A", "Rotation": {"x": 0}}, {"Value": 2, "Rotation": {"x": 1}}]})
    obj["CustomMesh"] = {"MeshURL": "", "MaterialIndex": 4, "TypeIndex": 0}
    save["ObjectStates"].append({"Name": "Deck_CardBot_Main", "Transform": transform(), "DeckIDs": [-1, -2],
                                 "ContainedObjects": [{"Name": "Card", "Transform": transform(), "CardID": -1},
                                                      {"Name": "Card", "Transform": transform(), "CardID": -2}]})
    save["ObjectStates"].append({**card(265313, "f00001"), "CustomDeck": {"2653": {"FaceURL": "x", "NumWidth": 10,
                                                                                   "NumHeight": 7, "BackIsHidden": False}}})
    assert errors(save) == []


# --- schema: must reject -------------------------------------------------------

SCHEMA_REJECTS: list[tuple[str, tuple[Any, ...], Any, str]] = [
    ("ObjectStates not array", ("ObjectStates",), {}, "$.ObjectStates"),
    ("CardID as string", ("ObjectStates", 1, "CardID"), "305", "$.ObjectStates[1].CardID"),
    ("CardID as fraction", ("ObjectStates", 1, "CardID"), 305.5, "$.ObjectStates[1].CardID"),
    ("DeckIDs item as string", ("ObjectStates", 0, "DeckIDs", 1), "101", "$.ObjectStates[0].DeckIDs[1]"),
    ("DeckIDs not array", ("ObjectStates", 0, "DeckIDs"), 100, "$.ObjectStates[0].DeckIDs"),
    ("ContainedObjects not array", ("ObjectStates", 2, "ContainedObjects"), {}, "$.ObjectStates[2].ContainedObjects"),
    ("Tags not array", ("ObjectStates", 2, "Tags"), "a", "$.ObjectStates[2].Tags"),
    ("CustomDeck not object", ("ObjectStates", 1, "CustomDeck"), [], "$.ObjectStates[1].CustomDeck"),
    ("States not object", ("ObjectStates", 2, "ContainedObjects", 0, "States"), [], "$.ObjectStates[2].ContainedObjects[0].States"),
    ("boolean as string", ("ObjectStates", 2, "Locked"), "true", "$.ObjectStates[2].Locked"),
    ("BackIsHidden as string", ("ObjectStates", 1, "CustomDeck", "3", "BackIsHidden"), "false",
     "$.ObjectStates[1].CustomDeck.3.BackIsHidden"),
    ("object without Name", ("ObjectStates", 1, "Name"), DELETE, "$.ObjectStates[1]"),
    ("empty Name", ("ObjectStates", 1, "Name"), "", "$.ObjectStates[1].Name"),
    ("object without Transform", ("ObjectStates", 1, "Transform"), DELETE, "$.ObjectStates[1]"),
    ("Transform missing rotY", ("ObjectStates", 1, "Transform", "rotY"), DELETE, "$.ObjectStates[1].Transform"),
    ("Transform value not a number", ("ObjectStates", 1, "Transform", "posX"), "1", "$.ObjectStates[1].Transform.posX"),
    ("CustomDeck entry without FaceURL", ("ObjectStates", 1, "CustomDeck", "3", "FaceURL"), DELETE,
     "$.ObjectStates[1].CustomDeck.3"),
    ("NumWidth zero", ("ObjectStates", 1, "CustomDeck", "3", "NumWidth"), 0, "$.ObjectStates[1].CustomDeck.3.NumWidth"),
    ("NumHeight as string", ("ObjectStates", 1, "CustomDeck", "3", "NumHeight"), "2",
     "$.ObjectStates[1].CustomDeck.3.NumHeight"),
    ("bad CustomDeck key", ("ObjectStates", 1, "CustomDeck", "x3"), sheet(), "$.ObjectStates[1].CustomDeck.x3"),
    ("States key 0", ("ObjectStates", 2, "ContainedObjects", 0, "States", "0"), {"Name": "A", "Transform": transform()},
     "$.ObjectStates[2].ContainedObjects[0].States.0"),
    ("TabStates key not digits", ("TabStates", "rules"), {"title": "x"}, "$.TabStates.rules"),
    ("card Type 5", ("ObjectStates", 1, "CustomDeck", "3", "Type"), 5, "$.ObjectStates[1].CustomDeck.3.Type"),
    ("tile Type 4", ("ObjectStates", 2, "ContainedObjects", 0, "CustomImage", "CustomTile", "Type"), 4,
     "$.ObjectStates[2].ContainedObjects[0].CustomImage.CustomTile.Type"),
    ("die Type 6", ("ObjectStates", 2, "CustomImage"), {"CustomDice": {"Type": 6}}, "$.ObjectStates[2].CustomImage.CustomDice.Type"),
    ("LuaScript not string", ("ObjectStates", 2, "LuaScript"), 5, "$.ObjectStates[2].LuaScript"),
    ("LuaScriptState not string", ("ObjectStates", 2, "LuaScriptState"), {"n": 1}, "$.ObjectStates[2].LuaScriptState"),
    ("XmlUI null", ("ObjectStates", 2, "XmlUI"), None, "$.ObjectStates[2].XmlUI"),
    ("Nickname not string", ("ObjectStates", 1, "Nickname"), 3, "$.ObjectStates[1].Nickname"),
    ("global XmlUI not string", ("XmlUI",), [], "$.XmlUI"),
    ("deep in States", ("ObjectStates", 2, "ContainedObjects", 0, "States", "2", "Transform"), DELETE,
     "$.ObjectStates[2].ContainedObjects[0].States.2"),
    ("deep in ChildObjects", ("ObjectStates", 2, "ContainedObjects", 0, "ChildObjects", 0, "Sticky"), 1,
     "$.ObjectStates[2].ContainedObjects[0].ChildObjects[0].Sticky"),
    ("deep in a deck", ("ObjectStates", 0, "ContainedObjects", 2, "CustomDeck", "2", "FaceURL"), 7,
     "$.ObjectStates[0].ContainedObjects[2].CustomDeck.2.FaceURL"),
]


@pytest.mark.parametrize(("path", "value", "where"), [r[1:] for r in SCHEMA_REJECTS], ids=[r[0] for r in SCHEMA_REJECTS])
def test_schema_rejects(path: tuple[Any, ...], value: Any, where: str) -> None:
    found = errors(mutate(valid_save(), path, value))
    assert at(where, found), [str(p) for p in found]


def test_missing_required_key_is_named() -> None:
    found = errors(mutate(valid_save(), ("ObjectStates", 1, "Transform", "scaleZ"), DELETE))
    assert [p.message for p in found] == ["'scaleZ' is a required property"]


def test_non_object_root_is_a_schema_error() -> None:
    assert [str(p) for p in errors([1])] == ["error $: [1] is not of type 'object'"]


def test_schema_errors_are_sorted_by_path() -> None:
    save = valid_save()
    save["ObjectStates"] = [{"Name": "A", "Transform": transform()} for _ in range(12)]
    save["ObjectStates"][10]["Locked"] = "no"
    save["ObjectStates"][2]["Locked"] = "no"
    save["ObjectStates"][2]["GMNotes"] = 1
    save["Note"] = 1
    assert [p.path for p in errors(save)] == [
        "$.Note", "$.ObjectStates[2].GMNotes", "$.ObjectStates[2].Locked", "$.ObjectStates[10].Locked"]


def test_schema_is_draft_2020_12_and_cached() -> None:
    schema = load_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema is load_schema()
    assert "$defs" in schema


# --- semantic checks ---------------------------------------------------------------

SEMANTIC: list[tuple[str, Callable[[dict[str, Any]], Any], str, str]] = [
    ("DeckIDs differ from CardIDs", lambda s: mutate(s, ("ObjectStates", 0, "DeckIDs", 1), 102),
     "$.ObjectStates[0].DeckIDs[1]", "ContainedObjects[1].CardID is 101"),
    ("DeckIDs longer than ContainedObjects", lambda s: s["ObjectStates"][0]["DeckIDs"].append(100),
     "$.ObjectStates[0].DeckIDs", "4 ids but ContainedObjects has 3"),
    ("deck lacks a CustomDeck key", lambda s: mutate(s, ("ObjectStates", 0, "CustomDeck", "2"), DELETE),
     "$.ObjectStates[0].DeckIDs[2]", "needs CustomDeck key 2"),
    ("deck has an unused CustomDeck key", lambda s: mutate(s, ("ObjectStates", 0, "CustomDeck", "9"), sheet()),
     "$.ObjectStates[0].CustomDeck.9", "used by no card"),
    ("loose card lacks its key", lambda s: mutate(s, ("ObjectStates", 1, "CustomDeck"), {"4": sheet()}),
     "$.ObjectStates[1].CardID", "needs CustomDeck key 3"),
    ("loose card beyond its sheet", lambda s: mutate(s, ("ObjectStates", 1, "CardID"), 306),
     "$.ObjectStates[1].CardID", "has 6 cells"),
    ("deck card beyond its sheet",
     lambda s: (mutate(s, ("ObjectStates", 0, "DeckIDs", 1), 106), mutate(s, ("ObjectStates", 0, "ContainedObjects", 1, "CardID"), 106)),
     "$.ObjectStates[0].DeckIDs[1]", "has 6 cells"),
    ("hidden cell used when BackIsHidden is false",
     lambda s: mutate(s, ("ObjectStates", 1, "CustomDeck", "3", "BackIsHidden"), False),
     "$.ObjectStates[1].CardID", "hidden face"),
    ("hidden cell used when BackIsHidden is absent",
     lambda s: mutate(s, ("ObjectStates", 1, "CustomDeck", "3", "BackIsHidden"), DELETE),
     "$.ObjectStates[1].CardID", "hidden face"),
    ("NumWidth 11", lambda s: mutate(s, ("ObjectStates", 1, "CustomDeck", "3", "NumWidth"), 11),
     "$.ObjectStates[1].CustomDeck.3.NumWidth", "at most 10"),
    ("NumHeight 8", lambda s: mutate(s, ("ObjectStates", 0, "CustomDeck", "1", "NumHeight"), 8),
     "$.ObjectStates[0].CustomDeck.1.NumHeight", "at most 7"),
    ("duplicate top-level GUID", lambda s: mutate(s, ("ObjectStates", 1, "GUID"), "a00001"),
     "$.ObjectStates[1].GUID", "duplicate GUID 'a00001'"),
    ("NaN in memory", lambda s: mutate(s, ("ObjectStates", 1, "Transform", "posX"), float("nan")),
     "$.ObjectStates[1].Transform.posX", "not a JSON number"),
]


@pytest.mark.parametrize(("change", "where", "text"), [r[1:] for r in SEMANTIC], ids=[r[0] for r in SEMANTIC])
def test_semantic_errors(change: Callable[[dict[str, Any]], Any], where: str, text: str) -> None:
    save = valid_save()
    change(save)
    found = at(where, errors(save))
    assert found and text in found[0].message, [str(p) for p in errors(save)]


def test_a_sheet_cell_below_the_hidden_one_is_fine() -> None:
    save = mutate(valid_save(), ("ObjectStates", 1, "CustomDeck", "3", "BackIsHidden"), False)
    assert errors(mutate(save, ("ObjectStates", 1, "CardID"), 304)) == []


def test_guid_rules_are_warnings_for_third_party_and_errors_for_own_output() -> None:
    save = valid_save()
    save["ObjectStates"][0]["ContainedObjects"][1]["GUID"] = "b00001"  # duplicate inside a deck
    save["ObjectStates"][2]["GUID"] = "Bag-1"  # not 6 lowercase hex
    assert errors(save) == []
    assert {p.path for p in warnings(save)} == {"$.ObjectStates[0].ContainedObjects[1].GUID", "$.ObjectStates[2].GUID"}
    assert {p.path for p in errors(save, own_output=True)} == {
        "$.ObjectStates[0].ContainedObjects[1].GUID", "$.ObjectStates[2].GUID"}


def test_stale_per_card_key_in_a_deck_is_one_warning() -> None:
    save = valid_save()
    for i in (0, 1):  # cards 100 and 101 carry key 7 instead of 1, as in the Ark Nova save
        save["ObjectStates"][0]["ContainedObjects"][i]["CustomDeck"] = {"7": sheet()}
    assert errors(save) == []
    assert errors(save, own_output=True) == []
    (warning,) = warnings(save)
    assert warning.path == "$.ObjectStates[0].ContainedObjects[0].CustomDeck"
    assert "2 of 3 cards" in warning.message


def test_local_files(tmp_path: Path) -> None:
    (tmp_path / "face.png").write_bytes(b"png")
    save = valid_save()
    save["ObjectStates"][1]["CustomDeck"]["3"]["FaceURL"] = (tmp_path / "face.png").as_uri()
    save["ObjectStates"][1]["CustomDeck"]["3"]["BackURL"] = (tmp_path / "missing back.png").as_uri()
    save["ObjectStates"][0]["CustomDeck"]["1"]["BackURL"] = "art/back.png"
    found = check_save(save)
    assert [str(p) for p in errors(save)] == [
        f"error $.ObjectStates[1].CustomDeck.3.BackURL: local file '{tmp_path / 'missing back.png'}' does not exist"]
    assert {p.path for p in found if p.severity == "warning"} == {
        "$.ObjectStates[1].CustomDeck.3.FaceURL", "$.ObjectStates[1].CustomDeck.3.BackURL"}
    # Relative paths resolve against base_dir only when it is given.
    assert at("$.ObjectStates[0].CustomDeck.1.BackURL", errors(save, base_dir=tmp_path))
    (tmp_path / "art").mkdir()
    (tmp_path / "art" / "back.png").write_bytes(b"png")
    assert not at("$.ObjectStates[0].CustomDeck.1.BackURL", errors(save, base_dir=tmp_path))


def test_windows_drive_url_warns_but_is_not_checked_here() -> None:
    save = mutate(valid_save(), ("ObjectStates", 1, "CustomDeck", "3", "FaceURL"), "file:///D:/Tools.mod/x.png")
    (warning,) = warnings(save)
    assert warning.path == "$.ObjectStates[1].CustomDeck.3.FaceURL"


OWN_OUTPUT: list[tuple[str, tuple[Any, ...], Any, str]] = [
    ("XmlUI not well-formed", ("ObjectStates", 2, "XmlUI"), "<Panel>\n  <Text>hi</Panel>", "$.ObjectStates[2].XmlUI"),
    ("global XmlUI not well-formed", ("XmlUI",), "<Panel", "$.XmlUI"),
    ("LuaScriptState not JSON", ("ObjectStates", 2, "LuaScriptState"), "{n = 1}", "$.ObjectStates[2].LuaScriptState"),
    ("null value", ("ObjectStates", 1, "Description"), None, "$.ObjectStates[1].Description"),
    ("null allowed by the schema", ("TableURL",), None, "$.TableURL"),
]


@pytest.mark.parametrize(("path", "value", "where"), [r[1:] for r in OWN_OUTPUT], ids=[r[0] for r in OWN_OUTPUT])
def test_own_output_rules(path: tuple[Any, ...], value: Any, where: str) -> None:
    save = mutate(valid_save(), path, value)
    assert at(where, errors(save, own_output=True)), [str(p) for p in errors(save, own_output=True)]
    if where != "$.ObjectStates[1].Description":  # a null Description is a schema error anyway
        assert errors(save) == []


def test_xmlui_error_reports_the_line() -> None:
    save = mutate(valid_save(), ("ObjectStates", 2, "XmlUI"), "<Panel>\n  <Text>hi</Panel>")
    (problem,) = errors(save, own_output=True)
    assert "mismatched tag at line 2" in problem.message


def test_problem_str() -> None:
    problem = Problem("$.ObjectStates[3].CardID", "'7' is not of type 'integer'", "error")
    assert str(problem) == "error $.ObjectStates[3].CardID: '7' is not of type 'integer'"


# --- loading files -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ('{"ObjectStates": [], "Gravity": NaN}', "NaN"),
        ('{"ObjectStates": [{"Name": "A"', "truncated"),
        ("[1, 2]", "root is a JSON array"),
        ('"save"', "root is a JSON str"),
        ("", "empty"),
    ],
    ids=["NaN", "truncated", "array root", "string root", "empty"],
)
def test_load_save_file_rejects(tmp_path: Path, text: str, fragment: str) -> None:
    path = tmp_path / "bad.json"
    path.write_text(text, encoding="utf-8")
    with pytest.raises(InputError) as info:
        load_save_file(path)
    message = str(info.value)
    assert str(path) in message and fragment in message and "\n" not in message


# --- run_schema_check ------------------------------------------------------------------


def test_run_schema_check_valid(tmp_path: Path) -> None:
    path = tmp_path / "ok.json"
    path.write_text(json.dumps(valid_save()), encoding="utf-8")
    out = io.StringIO()
    assert run_schema_check(str(path), out=out) == 0
    assert out.getvalue() == f"{path}: 0 error(s), 0 warning(s)\n"


def test_run_schema_check_invalid_text_and_json(tmp_path: Path) -> None:
    save = mutate(valid_save(), ("ObjectStates", 1, "CardID"), "305")
    save["ObjectStates"][2]["GUID"] = "BAG"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(save), encoding="utf-8")
    out = io.StringIO()
    assert run_schema_check(str(path), out=out) == 1
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("error $.ObjectStates[1].CardID: '305' is not of type")
    assert "warning $.ObjectStates[2].GUID: GUID 'BAG' is not 6 lowercase hex digits" in lines
    assert lines[-1] == f"{path}: 1 error(s), 1 warning(s)"

    out = io.StringIO()
    assert run_schema_check(str(path), out=out, as_json=True) == 1
    report = json.loads(out.getvalue())
    assert report["file"] == str(path) and report["valid"] is False
    assert [e["path"] for e in report["errors"]] == ["$.ObjectStates[1].CardID"]
    assert [w["path"] for w in report["warnings"]] == ["$.ObjectStates[2].GUID"]


def test_run_schema_check_json_valid_and_input_error(tmp_path: Path) -> None:
    path = tmp_path / "ok.json"
    path.write_text(json.dumps(valid_save()), encoding="utf-8")
    out = io.StringIO()
    assert run_schema_check(str(path), out=out, as_json=True) == 0
    assert json.loads(out.getvalue()) == {"file": str(path), "valid": True, "errors": [], "warnings": []}
    with pytest.raises(InputError):
        run_schema_check(str(tmp_path / "absent.json"), out=io.StringIO())


# --- the real saves ----------------------------------------------------------------------


@pytest.fixture(scope="session")
def fixture_problems(tts_save_fixtures: list[Path]) -> dict[str, list[Problem]]:
    """Check each real save once; the tests below only read the results."""
    return {path.name: check_save(load_save_file(path)) for path in tts_save_fixtures}


def test_fixture_list_is_the_expected_one(fixture_problems: dict[str, list[Problem]]) -> None:
    assert sorted(fixture_problems) == FIXTURE_NAMES


@pytest.mark.parametrize("name", FIXTURE_NAMES)
def test_fixture_has_no_errors(fixture_problems: dict[str, list[Problem]], name: str) -> None:
    if name not in fixture_problems:
        pytest.skip(f"{name} is not in the shared folder")
    assert [str(p) for p in fixture_problems[name] if p.severity == "error"] == []


def test_arknova_stale_card_keys_are_warnings(fixture_problems: dict[str, list[Problem]]) -> None:
    stale = [p for p in fixture_problems[FIXTURE_NAMES[0]] if "stale per-card CustomDeck" in p.message]
    assert stale and all(p.severity == "warning" for p in stale)
    # §4 counts 210 such cards in the Ark Nova save; we report one warning per deck.
    assert sum(int(p.message.split(" of ")[0]) for p in stale) == 210


# --- what old and odd saves hold, which TTS loads ------------------------------------------


def test_empty_guid_is_a_warning_for_third_party_and_an_error_for_own_output() -> None:
    save = valid_save()
    save["ObjectStates"][1]["GUID"] = ""  # 2014-15 saves leave every GUID empty
    save["ObjectStates"][2]["GUID"] = ""  # and two empty GUIDs are not duplicates
    assert errors(save) == []
    assert [p.path for p in warnings(save)] == ["$.ObjectStates[1].GUID", "$.ObjectStates[2].GUID"]
    assert "empty GUID" in warnings(save)[0].message
    assert {p.path for p in errors(save, own_output=True)} == {"$.ObjectStates[1].GUID", "$.ObjectStates[2].GUID"}


def test_old_deck_without_contained_objects_is_checked_through_its_ids() -> None:
    save = valid_save()
    del save["ObjectStates"][0]["ContainedObjects"]  # decks before 2016: DeckIDs only
    assert errors(save) == []
    (warning,) = at("$.ObjectStates[0].DeckIDs", warnings(save))
    assert "old-style deck: 3 DeckIDs" in warning.message
    assert at("$.ObjectStates[0].DeckIDs", errors(save, own_output=True))
    # the ids are still checked against the deck's sheets
    save["ObjectStates"][0]["DeckIDs"][2] = 300
    assert "needs CustomDeck key 3" in at("$.ObjectStates[0].DeckIDs[2]", errors(save))[0].message
    # an empty deck is no old-style deck, and a short ContainedObjects is still an error
    save = valid_save()
    save["ObjectStates"][0]["ContainedObjects"].pop()
    assert "3 ids but ContainedObjects has 2" in at("$.ObjectStates[0].DeckIDs", errors(save))[0].message


def test_infinity_loads_from_a_file_and_warns(tmp_path: Path) -> None:
    path = tmp_path / "joint.json"
    save = valid_save()
    text = json.dumps(save).replace('"Gravity": 0.5', '"Gravity": Infinity')
    path.write_text(text, encoding="utf-8")
    data = load_save_file(path)
    assert data["Gravity"] == float("inf")
    (problem,) = at("$.Gravity", check_save(data))
    assert problem.severity == "warning" and "JSON.NET" in problem.message
    assert at("$.Gravity", errors(data, own_output=True))


def test_nan_in_a_file_is_refused_with_its_line_and_column(tmp_path: Path) -> None:
    path = tmp_path / "nan.json"
    path.write_text('{"ObjectStates": [],\n  "Note": "NaN",\n  "Gravity": NaN}', encoding="utf-8")
    with pytest.raises(InputError) as info:
        load_save_file(path)
    assert str(info.value) == f"{path}: NaN is not valid JSON at line 3 column 14"


def test_a_custom_deck_key_of_thousands_of_digits_is_a_schema_error() -> None:
    save = valid_save()
    save["ObjectStates"][1]["CustomDeck"] = {"9" * 5000: sheet()}
    found = [p for p in errors(save) if "bad key" in p.message]
    assert found and found[0].path.startswith("$.ObjectStates[1].CustomDeck")


def test_duplicate_guid_check_of_a_large_save() -> None:
    """30,000 table objects sharing three GUIDs: the duplicate check is linear (the
    quadratic one it replaced took minutes on this). Only the semantic pass runs, as the
    schema pass takes its own (linear) 15 s here; the result is asserted, not the time."""
    objects = [{"Name": "BlockSquare", "GUID": f"{i % 3:06x}", "Transform": transform()} for i in range(30_000)]
    problems = savecheck._semantic_problems({"ObjectStates": objects}, base_dir=None, own_output=False)
    assert len(problems) == 30_000 - 3 and all(p.severity == "error" for p in problems)
    assert str(problems[0]) == ("error $.ObjectStates[3].GUID: duplicate GUID '000000' among table objects "
                                "(first at $.ObjectStates[0])")


WILD_DIR = Path(os.environ.get("TTS_BUILDER_SHARED", Path(__file__).resolve().parents[2] / "shared")) \
    / "fixtures" / "tts_saves_wild"
WILD_NAMES = sorted(p.name for p in WILD_DIR.glob("*.json"))


@pytest.mark.parametrize("name", WILD_NAMES or ["(absent)"])
def test_every_save_from_the_wild_is_accepted(shared_dir: Path, name: str) -> None:
    path = shared_dir / "fixtures" / "tts_saves_wild" / name
    if not path.is_file():
        pytest.skip(f"{path} is absent")
    out = io.StringIO()
    assert run_schema_check(str(path), out=out) == 0, out.getvalue()[-2000:]


def test_repeated_warnings_are_one_line_with_a_count(tmp_path: Path) -> None:
    """A save of many local images gives one line for all its "local file URL" warnings (their
    count in the summary and each in --json); a warning of another kind keeps its own line."""
    save = valid_save()
    images = tmp_path / "images"
    images.mkdir()
    tiles = []
    for i in range(5):
        (images / f"t{i}.png").write_bytes(b"png")
        tile = json.loads(json.dumps(save["ObjectStates"][2]["ContainedObjects"][0]))
        tile["GUID"] = f"f0000{i}"
        tile["States"] = {}
        tile["ChildObjects"] = []
        tile["CustomImage"]["ImageURL"] = "file:///" + (images / f"t{i}.png").as_posix().lstrip("/")
        tiles.append(tile)
    save["ObjectStates"].extend(tiles)
    save["ObjectStates"][2]["GUID"] = "BAG"
    path = tmp_path / "local.json"
    path.write_text(json.dumps(save), encoding="utf-8")
    out = io.StringIO()
    assert run_schema_check(str(path), out=out) == 0
    lines = out.getvalue().splitlines()
    local = [ln for ln in lines if "local file URL" in ln]
    assert len(local) == 1 and local[0].endswith("(and 4 more warnings like it; --json lists each)")
    assert "t0.png" in local[0]
    assert any("GUID 'BAG'" in ln for ln in lines)  # another kind: its own line
    assert lines[-1] == f"{path}: 0 error(s), 6 warning(s)" and len(lines) == 3
    out = io.StringIO()
    assert run_schema_check(str(path), out=out, as_json=True) == 0
    assert len([w for w in json.loads(out.getvalue())["warnings"] if "local file URL" in w["message"]]) == 5


def test_a_transcript_is_named_as_one_with_validate(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tts_builder import cli

    path = tmp_path / "game.json"
    path.write_text(json.dumps({"format": "tts-builder-transcript", "version": 1, "game": "obren-buttons",
                                "moves": []}), encoding="utf-8")
    assert cli.main(["schema-check", str(path)]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "is a game transcript of obren-buttons, not a TTS save" in err
    assert f"tts-builder validate {path}" in err and "required property" not in err
    # a save is still checked as a save, even with a "moves" key of its own
    save = valid_save()
    save["moves"], save["game"] = [], "x"
    path.write_text(json.dumps(save), encoding="utf-8")
    assert cli.main(["schema-check", str(path)]) == 0
