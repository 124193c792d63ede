"""What a player sees and where things land at the stand-in table (issue 20): the size model
against the real saves' evidence, the built saves' boards, snaps and zones against it and
against the real saves, and no face-down Two by Two animal naming its species on hover."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from modtable import walk_json as _walk
from tts_builder.build import build_game, load_table_layout
from tts_builder.tablesize import TILE_SHORT_SIDE, footprint, model, tile_scale
from tts_builder.testing import FakeTTS

FIXTURES = Path(__file__).resolve().parents[2] / "shared" / "fixtures"
GAMES = ("two-and-two", "twin-tower-city", "obren-buttons", "two-by-two", "smitten-2")


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict[str, tuple[Path, dict[str, Any]]]:
    out: Path = tmp_path_factory.mktemp("build")
    saves = {}
    for game in GAMES:
        build_game(game, out)
        saves[game] = (out / game, json.loads((out / game / f"{game}.json").read_text()))
    return saves


def _real_saves() -> list[Any]:
    if not FIXTURES.is_dir():
        pytest.skip("no ../shared/fixtures")
    out = []
    for path in sorted(FIXTURES.glob("tts_saves*/*.json")):
        try:
            out.append(json.loads(path.read_text(encoding="utf-8")))
        except (ValueError, UnicodeDecodeError):
            continue
    return out


def test_the_size_model_round_trips_and_refuses_nonsense():
    assert footprint("tile", 2.0, tile_scale(20, 10)) == pytest.approx((20, 10))
    assert footprint("tile", 0.5, tile_scale(10, 20)) == pytest.approx((10, 20))
    assert footprint("tile", 1.0, 1.0) == (TILE_SHORT_SIDE, TILE_SHORT_SIDE)
    for bad in (("tile", 0, 1), ("tile", 1, -1), ("figurine", 1, 1)):
        with pytest.raises(ValueError):
            footprint(*bad)
    assert model()["tile"]["confidence"] and model()["tile"]["evidence"]


def test_the_size_model_fits_the_snap_points_of_the_real_saves_stretched_tiles():
    """No attached snap of a stretched tile lies past the model's short half-side; some lie past
    the 2.2-unit square the build used to assume on the long side (so the long side grows)."""
    shorts, longs = [], []
    for save in _real_saves():
        for obj in _walk(save):
            tile = ((obj.get("CustomImage") or {}).get("CustomTile") or {}) if obj.get("Name") == "Custom_Tile" else {}
            if tile.get("Stretch") and obj.get("AttachedSnapPoints"):
                pts = [p.get("Position", {}) for p in obj["AttachedSnapPoints"]]
                shorts.append(max(abs(p.get("z", 0)) for p in pts))
                longs.append(max(abs(p.get("x", 0)) for p in pts))
    assert len(shorts) >= 80
    assert max(shorts) <= TILE_SHORT_SIDE / 2
    assert max(longs) > 2.2 / 2 * 2.5  # far past any fixed square


def test_every_board_covers_on_the_table_the_size_its_image_was_drawn_for(built):
    """The board's scale in the save and its image's aspect, through the size model, give the
    layout's size (the old 2.2-unit model drew Two by Two's track 1.8x too large)."""
    checked = 0
    for game, (folder, save) in built.items():
        layout = load_table_layout(game)
        by_name = {o.get("GMNotes"): o for o in save["ObjectStates"]}
        for board in layout.boards:
            obj = by_name[board.name]
            url = obj["CustomImage"]["ImageURL"]
            with Image.open(folder / "images" / url.rsplit("/", 1)[-1]) as img:
                aspect = img.width / img.height
            size = footprint("tile", aspect, obj["Transform"]["scaleX"])
            assert size == pytest.approx(board.size, rel=0.02), (game, board.name)
            checked += 1
    assert checked >= 3


def test_board_snaps_stand_as_the_zone_and_piece_snaps_do(built):
    for game, (_, save) in built.items():
        # a point without Rotation snaps position only (Two & Two's STACK, where a card keeps its turn)
        turning = [p for p in save["SnapPoints"] if "Rotation" in p]
        turns = {round(p["Rotation"]["y"]) % 360 for p in turning}
        assert turns <= {0, 180} and 180 in turns, game
        board_snaps = [p for p in turning if round(p["Rotation"]["y"]) % 360 == 0]
        zones = [o for o in save["ObjectStates"] if o["Name"] == "ScriptingTrigger"]
        # a 0-degree snap is only a zone snap for a seat across the table, never a board's
        assert all(any(round(z["Transform"]["rotY"]) % 360 == 180 for z in zones) for _ in board_snaps), game
        if game in ("obren-buttons", "two-by-two"):
            assert not board_snaps, game


def test_script_zones_have_grid_snap_and_tooltip_on_as_the_real_saves_do(built):
    real = [(o.get("Grid"), o.get("Snap"), o.get("Tooltip")) for s in _real_saves() for o in _walk(s)
            if o.get("Name") == "ScriptingTrigger"]
    usual = max(set(real), key=real.count)
    assert usual == (True, True, True)
    for game, (_, save) in built.items():
        for o in save["ObjectStates"]:
            if o["Name"] == "ScriptingTrigger":
                assert (o["Grid"], o["Snap"], o["Tooltip"]) == usual, (game, o["Nickname"])


def test_no_face_down_two_by_two_animal_shows_its_species_to_any_seat(built):
    _, save = built["two-by-two"]
    fake = FakeTTS(seated=("Red", "Green"))
    fake.ui.setXml(save["XmlUI"])
    objects = fake.load_save(save)
    fake.load_global(save["LuaScript"])
    fake.fire("ttNewGame", fake.player("Red"))
    fake.click_ui("ttNewGame", "Red")
    fake.drain()
    from rules.two_by_two import board as B
    species = set(B.SPECIES)
    down = [o for o in objects.values() if o.is_face_down and o.container is None
            and (_piece_id(fake, o) or "").split("-")[0] in species]
    assert len(down) >= 74
    for obj in down:
        for color in ("Red", "Green", "White", "Black"):
            seen = " ".join(obj.visible_text(color)).lower()
            assert not any(sp in seen for sp in species), (_piece_id(fake, obj), seen)


def _two_by_two_table(save: dict[str, Any], **kw: Any) -> tuple[FakeTTS, dict[str, Any]]:
    fake = FakeTTS(seated=("Red", "Green"), **kw)
    fake.ui.setXml(save["XmlUI"])
    objects = fake.load_save(save)
    fake.load_global(save["LuaScript"])
    return fake, objects


def _piece_id(fake: FakeTTS, obj: Any) -> str | None:
    """The Two by Two piece id of an object: animals carry no GMNotes (hidden information), so
    pieces are known by GUID, as the Lua knows them (Table.context_json's pieces)."""
    pieces = json.loads(fake.sandbox.call(fake.sandbox.lookup("Table.context_json")))["pieces"]
    return next((pid for pid, p in pieces.items() if p["guid"] == obj.getGUID()), None)


def test_the_stand_in_fills_a_bag_over_several_frames_in_an_order_the_script_does_not_choose():
    fake = FakeTTS(container_frames=5, travel_seed=1)
    bag = fake.spawn("Bag", name="bag")
    pieces = [fake.spawn("Custom_Tile", name=f"p{i}") for i in range(12)]
    for p in pieces:  # as a script's putObject
        bag.putObject(p)
    assert bag.getQuantity() == 0  # nothing is in yet
    fake.step(1)
    assert bag.getQuantity() < 12
    fake.drain()
    assert bag.getQuantity() == 12
    assert [o.getName() for o in reversed(bag.contents)] != [p.getName() for p in pieces]


def test_two_by_two_new_game_waits_for_the_animals_to_reach_the_bag(built):
    """TTS moves the 80 animals into their bag over several frames: New game lays them out once
    all are in (the mod used to look one frame later and refuse)."""
    _, save = built["two-by-two"]
    fake, objects = _two_by_two_table(save, container_frames=8, travel_seed=2)
    for _ in range(2):  # New game pressed twice in a row: the second one gathers again and lays out
        fake.click_ui("ttNewGame", "Red")
        fake.step(3 * fake.fps)
    assert not any("holds" in m.text and "animal tokens" in m.text for m in fake.broadcasts), fake.broadcasts
    transcript = json.loads(fake.sandbox.call("onSave"))["transcript"]
    assert len(transcript["setup"]["layout"]) == 74 and transcript["moves"] == []
    laid = [o for o in objects.values() if o.container is None and o.is_face_down and _piece_id(fake, o) in
            transcript["setup"]["layout"]]
    assert len(laid) == 74


def test_peeking_at_a_face_down_animal_shows_only_its_back(built):
    """A peek (Alt+Shift) shows the underside and the name, which TTS cannot stop: a face-down
    animal's are its back (on both faces) and "Animal", so the peek tells nothing (it once
    showed the species' name, and the face's URL stood in the Custom menu)."""
    _, save = built["two-by-two"]
    fake, objects = _two_by_two_table(save)
    fake.click_ui("ttNewGame", "Red")
    fake.step(2 * fake.fps)
    layout = json.loads(fake.sandbox.call("onSave"))["transcript"]["setup"]["layout"]
    hidden = next(o for o in objects.values() if _piece_id(fake, o) == layout[0])
    assert hidden.is_face_down and hidden.hover_text() == ("", "")
    name, description = fake.peek(hidden, "Green")
    species = layout[0].rsplit("-", 1)[0]
    assert name == "Animal" and species not in description.lower()
    [back] = set(hidden.visible_images())
    assert "piece-back-" in back

def test_the_stand_in_shows_a_custom_object_s_new_image_only_after_reload():
    """API, Object: setCustomObject on an existing object shows "only after reload"; reload()
    respawns it and returns the new reference, the old one no longer valid; the GUID stays."""
    save = {"ObjectStates": [{"Name": "Custom_Tile", "GUID": "abc123", "Nickname": "Animal",
                              "Transform": {"posX": 1.0, "posY": 1.0, "posZ": 2.0, "rotZ": 180.0},
                              "CustomImage": {"ImageURL": "back.png", "ImageSecondaryURL": "back.png",
                                              "CustomTile": {"Type": 1, "Thickness": 0.2, "Stackable": False}}}]}
    fake = FakeTTS()
    loaded = fake.load_save(save)
    fake.load_global("""
      function reveal()
        local obj = getObjectFromGUID("abc123")
        local before = obj.getCustomObject()
        obj.setCustomObject({ image = "face.png", image_bottom = "back.png", type = 1 })
        local still = obj.getCustomObject().image
        local new = obj.reload()
        return before.image, before.type, still, new.getGUID(), new.getCustomObject().image
      end""")
    old = loaded["abc123"]
    assert old.visible_images() == ["back.png", "back.png"]
    image, kind, still, guid, now = fake.sandbox.call("reveal")
    assert (image, kind, still, guid, now) == ("back.png", 1, "back.png", "abc123", "face.png")
    new = fake.get_object("abc123")
    assert new is not old and old.destroyed and not new.destroyed and loaded["abc123"] is new
    assert new.visible_images() == ["face.png", "back.png"] and new.position == old.position and new.is_face_down
