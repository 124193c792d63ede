"""The table kit: boards drawn from cell grids, snap points on every cell, pieces and
tokens, bags, stacks and cell zones, placed by ``build_save`` from a fixture table
(not a game): the save passes its check, the stubbed TTS loads every kind, and the
Lua context maps every cell's world position back to that cell by arithmetic."""

from __future__ import annotations

import copy
import json
import math
from pathlib import Path
from typing import Any

import pytest
from PIL import Image

from tts_builder.art import ArtManifest
from tts_builder.errors import InputError
from tts_builder.luagen import lua_literal
from tts_builder.lualint import lint_lua
from tts_builder.luasandbox import LuaSandbox
from tts_builder.save import board_snaps, build_save, parse_table_layout, plan_table, table_context, world_to_cell
from tts_builder.savecheck import ERROR, check_save
from tts_builder.art.render import png_bytes
from tts_builder.tablemat import render_board, render_kit_pictures
from tts_builder.testing import FakeTTS

URL = "https://example.invalid/kit/"

SQUARE = {"shape": "square", "columns": 4, "rows": 3, "cell_size": 1.0, "cell_ids": "letter-column,number-row-from-top",
          "edges": [{"cells": ["a1", "b1"], "color": "red"}, {"cells": ["b1", "c1"], "color": "blue"},
                    {"cells": ["a1", "a2"], "color": "red"}, {"cells": ["c2", "c3"]}, {"cells": ["c3", "d3"], "color": "blue"}]}
HEX = {"shape": "hex", "orientation": "pointy",
       "cells": [{"q": q, "r": r, "kind": "water" if (q + r) % 2 else "land"}
                 for q in range(-2, 3) for r in range(-2, 3) if abs(q + r) <= 2]}
FLAT_HEX = {"shape": "hex", "orientation": "flat", "cell_size": 2.0,
            "cells": [{"q": q, "r": r} for q in range(-1, 2) for r in range(-1, 2) if abs(q + r) <= 1]}
TWO_FACES = [{"label": "A", "color": "#c03030"}, {"label": "B", "color": "#3030c0", "text_color": "#ffffff"}]

TABLE: dict[str, Any] = {
    "format": 1,
    "metadata": {"tags": ["Board Games"]},
    "card": {"size": [2.2, 3.1]},
    "seats": [{"seat": 0, "color": "White", "hand": {"position": [0, 3, -14], "scale": [10, 5, 3]}},
              {"seat": 1, "color": "Red", "hand": {"position": [0, 3, 14], "rotation_y": 180, "scale": [10, 5, 3]}}],
    "zones": [{"role": "reserve", "center": [-12, 0], "size": [3, 3], "snaps": [[0, 0]]},
              {"role": "top-row", "board": "square", "cells": ["a1", "b1", "c1", "d1"]}],
    "decks": [],
    "mat": {"rect": [-15, -10, 15, 10], "pixels_per_unit": 32, "colors": {
        "background": "#102030", "zone": "#203040", "outline": "#ffffff", "text": "#ffffff", "hint": "#cccccc",
        "panel": "#203040"}},
    "boards": [
        {"name": "square", "grid": SQUARE, "center": [-5, 2], "size": [8, 6], "margin": 0.0,
         "cells": {"default": "#e0d8c0"}, "edges": {"by": "color", "colors": {"red": "#d02020", "blue": "#2040d0"}}},
        {"name": "hex", "grid": HEX, "center": [6, -1], "rotation_y": 30, "size": [8, 8], "snap_rotation_y": 90,
         "cells": {"by": "kind", "colors": {"water": "#3070c0", "land": "#70a040"}}},
        {"name": "flat", "grid": FLAT_HEX, "center": [-5, -6], "rotation_y": 90, "size": [4, 4], "labels": False},
    ],
    "pieces": [
        {"id": "t1", "name": "Token 1", "faces": TWO_FACES},
        {"id": "t2", "name": "Token 2", "faces": TWO_FACES},
        {"id": "t3", "name": "Token 3", "faces": TWO_FACES, "board": "hex", "cell": "0,0"},
        {"id": "coin", "name": "Coin", "faces": [{"label": "1"}], "position": [-12, -5]},
        {"id": "hero", "name": "Hero", "kind": "figurine", "faces": TWO_FACES, "board": "square", "cell": "b2"},
    ],
    "bags": [{"name": "supply", "label": "Supply", "position": [12, 7], "contents": ["t1", "t2"]}],
    "stacks": [{"name": "gold", "count": 5, "position": [-12, 6], "faces": [{"label": "G", "color": "#e0c040"}]}],
}


def _manifest() -> ArtManifest:
    return ArtManifest(game_id="kit", decks={}, standalone={}, thumbnail=None, rendered=0, reused=0)


def _layout(data: dict[str, Any] | None = None) -> Any:
    return parse_table_layout(copy.deepcopy(data or TABLE), game_id="kit", origin="kit/table.json")


@pytest.fixture(scope="module")
def built() -> tuple[Any, dict[str, Any], dict[str, Any]]:
    plan = plan_table(_layout(), _manifest(), {})
    save = build_save(plan, _manifest(), game_name="Kit", players=(2, 2), game_data={}, image_url=lambda n: URL + n,
                      lua_script="", xml_ui="", notebook={})
    return plan, save, table_context(plan)


def _by_name(save: dict[str, Any], name: str) -> list[dict[str, Any]]:
    return [o for o in save["ObjectStates"] if o["Name"] == name]


def test_the_save_passes_its_own_check(built: Any) -> None:
    _plan, save, _ctx = built
    errors = [p for p in check_save(json.loads(json.dumps(save)), own_output=True) if p.severity == ERROR]
    assert errors == []


def test_each_kind_is_the_tts_object_real_saves_use(built: Any) -> None:
    plan, save, ctx = built
    boards = [o for o in _by_name(save, "Custom_Tile") if o["GMNotes"] in ("square", "hex", "flat")]
    assert [b["GMNotes"] for b in boards] == ["square", "hex", "flat"] and all(b["Locked"] for b in boards)
    assert all(b["CustomImage"]["CustomTile"]["Stretch"] and b["Transform"]["scaleX"] == b["Transform"]["scaleZ"]
               for b in boards)
    t3 = next(o for o in _by_name(save, "Custom_Tile") if o["GMNotes"] == "t3")  # two faces: a tile, circle shaped
    assert t3["CustomImage"]["CustomTile"]["Type"] == 2
    assert t3["CustomImage"]["ImageURL"].endswith("piece-t3-front.png")
    back = t3["CustomImage"]["ImageSecondaryURL"]  # a back is named by its look, never by its piece
    assert "/piece-back-" in back and "t3" not in back.rsplit("/", 1)[-1]
    (coin,) = _by_name(save, "Custom_Token")  # one face: a cut-out token
    assert coin["GMNotes"] == "coin" and coin["CustomImage"]["CustomToken"]["Stackable"] is False
    (hero,) = _by_name(save, "Figurine_Custom")
    assert hero["GMNotes"] == "hero" and "CustomFigurine" in hero
    (bag,) = _by_name(save, "Bag")
    assert bag["Bag"] == {"Order": 0} and bag["MaterialIndex"] == -1
    assert [o["GMNotes"] for o in bag["ContainedObjects"]] == ["t1", "t2"]
    (stack,) = _by_name(save, "Custom_Tile_Stack")
    assert stack["Number"] == 5 and stack["CustomImage"]["CustomTile"]["Stackable"] is True
    # GUIDs by id, as the Lua gets them
    guids = {o["GUID"]: o for o in save["ObjectStates"]} | {o["GUID"]: o for o in bag["ContainedObjects"]}
    for pid, piece in ctx["pieces"].items():
        assert guids[piece["guid"]]["GMNotes"] == pid
    assert ctx["pieces"]["t1"]["bag"] == "supply" and ctx["pieces"]["t3"]["cell"] == {"board": "hex", "cell": "0,0"}
    assert ctx["bags"]["supply"] == {"guid": bag["GUID"], "contents": ["t1", "t2"]}
    assert ctx["stacks"]["gold"]["guid"] == stack["GUID"]


def test_pieces_on_cells_stand_on_their_cell(built: Any) -> None:
    _plan, save, ctx = built
    t3 = next(o for o in save["ObjectStates"] if o["GMNotes"] == "t3")
    cell = ctx["grids"]["hex"]["cells"]["0,0"]["position"]
    assert (t3["Transform"]["posX"], t3["Transform"]["posZ"]) == (cell["x"], cell["z"])
    assert t3["Transform"]["rotY"] == (180 + 30) % 360  # upright, turned with the board


def test_every_cell_has_a_snap_point_with_rotation(built: Any) -> None:
    plan, save, ctx = built
    cells = {(round(c["position"]["x"], 4), round(c["position"]["z"], 4)): (name, g["snap_rotation_y"])
             for name, g in ctx["grids"].items() for c in g["cells"].values()}
    snaps = {(p["Position"]["x"], p["Position"]["z"]): p["Rotation"]["y"] for p in save["SnapPoints"]}
    assert len(cells) == 12 + 19 + 7
    for xz, (name, rot) in cells.items():
        assert snaps[xz] == rot, (name, xz)
    upright = plan.layout.card.rotation_y  # board snaps stand as the pieces and zone snaps do (issue 20)
    assert ctx["grids"]["hex"]["snap_rotation_y"] == (upright + 120.0) % 360
    assert ctx["grids"]["square"]["snap_rotation_y"] == upright % 360
    assert all("Rotation" in p for p in save["SnapPoints"])
    assert len(board_snaps(plan.layout)) == 38


def test_grid_context_has_neighbours_and_edge_attributes(built: Any) -> None:
    _plan, _save, ctx = built
    sq = ctx["grids"]["square"]
    assert sq["order"][:4] == ["a1", "b1", "c1", "d1"]
    assert sq["cells"]["a1"]["neighbours"] == ["b1", "a2"]
    assert sq["cells"]["a1"]["edges"] == {"b1": {"color": "red"}, "a2": {"color": "red"}}
    assert sq["cells"]["c3"]["edges"] == {"c2": {}, "d3": {"color": "blue"}}
    assert sq["cells"]["d1"]["neighbours"] == []  # no listed edge: no neighbour
    hx = ctx["grids"]["hex"]
    assert len(hx["cells"]["0,0"]["neighbours"]) == 6 and hx["cells"]["0,0"]["attrs"] == {"kind": "land"}
    assert ctx["zone_cells"] == {"top-row": {"board": "square", "cells": ["a1", "b1", "c1", "d1"]}}


# The world -> cell lookup as a TTS script would do it: arithmetic on the context, no search.
LOOKUP_LUA = """
local GRIDS = %s
local function round_half(v) return math.floor(v + 0.5) end
local function hex_round(q, r)
  local s = -q - r
  local rq, rr, rs = round_half(q), round_half(r), round_half(s)
  local dq, dr, ds = math.abs(rq - q), math.abs(rr - r), math.abs(rs - s)
  if dq > dr and dq > ds then rq = -rr - rs elseif dr > ds then rr = -rq - rs end
  return rq, rr
end
function cell_at(name, wx, wz)
  local g = GRIDS[name]
  local t = math.rad(g.rotation_y)
  local dx, dz = wx - g.origin.x, wz - g.origin.z
  local x = (dx * math.cos(t) - dz * math.sin(t)) / g.scale - g.anchor.x
  local z = (dx * math.sin(t) + dz * math.cos(t)) / g.scale - g.anchor.z
  local s = g.cell_size
  local a, b
  if g.shape == 'square' then
    a, b = round_half(x / s), round_half(-z / s)
  elseif g.orientation == 'pointy' then
    local r = -z / (s * math.sqrt(3) / 2)
    a, b = hex_round(x / s - r / 2, r)
  else
    local q = x / (s * math.sqrt(3) / 2)
    a, b = hex_round(q, -z / s - q / 2)
  end
  return g.ids[tostring(g.anchor.coords[1] + a) .. ',' .. tostring(g.anchor.coords[2] + b)]
end
"""


def test_lua_maps_every_cell_world_position_to_its_cell(built: Any) -> None:
    plan, _save, ctx = built
    fake = FakeTTS()
    source = LOOKUP_LUA % lua_literal(ctx["grids"])
    assert not lint_lua(source, "lookup.lua")
    fake.sandbox.execute(source, "lookup.lua")
    cell_at = fake.sandbox.globals["cell_at"]
    checked = 0
    for name, g in ctx["grids"].items():
        board = plan.layout.board(name)
        pitch = board.scale * g["cell_size"]
        for cid in g["order"]:
            p = g["cells"][cid]["position"]
            assert cell_at(name, p["x"], p["z"]) == cid == world_to_cell(g, p["x"], p["z"])
            # a point well inside the cell, off its centre, too
            ox, oz = p["x"] + 0.3 * pitch * math.cos(1.0), p["z"] + 0.3 * pitch * math.sin(1.0)
            assert cell_at(name, ox, oz) == cid == world_to_cell(g, ox, oz)
            checked += 1
        far = board.to_world(100.0, 100.0)
        assert cell_at(name, *far) is None and world_to_cell(g, *far) is None
    assert checked == 38


def test_fake_tts_loads_every_kind(built: Any) -> None:
    _plan, save, ctx = built
    fake = FakeTTS()
    loaded = fake.load_save(save)
    fake.sandbox.execute("""
    function probe(bag_guid, stack_guid, board_guid)
      local bag = getObjectFromGUID(bag_guid)
      local stack = getObjectFromGUID(stack_guid)
      local snaps = Global.getSnapPoints()
      local inside = bag.getObjects()
      local out = { bag_type = bag.type, bag_count = bag.getQuantity(), first = inside[1].gm_notes,
                    stack_count = stack.getQuantity(), snaps = #snaps, rot = snaps[1 + 12 + 1].rotation.y, last_rot = snaps[#snaps].rotation.y,
                    rotation_snap = snaps[1].rotation_snap, board_type = getObjectFromGUID(board_guid).type }
      local taken = bag.takeObject({ guid = inside[2].guid, position = Vector(0, 2, 0) })
      out.taken = taken.getGMNotes()
      out.after = bag.getQuantity()
      local piece = stack.takeObject({})
      out.piece_type, out.stack_after = piece.type, stack.getQuantity()
      bag.putObject(taken)
      out.back = bag.getQuantity()
      bag.shuffle()
      return out
    end""", "probe.lua")
    out = fake.sandbox.from_lua(fake.sandbox.call(fake.sandbox.globals["probe"], ctx["bags"]["supply"]["guid"],
                                                  ctx["stacks"]["gold"]["guid"], ctx["grids"]["hex"]["guid"]),
                                empty_as="dict")
    assert out == {"bag_type": "Bag", "bag_count": 2, "first": "t1", "stack_count": 5, "snaps": 1 + 38,
                   "rot": 300.0, "last_rot": 270.0, "rotation_snap": True, "board_type": "Tile", "taken": "t2", "after": 1,
                   "piece_type": "Tile", "stack_after": 4, "back": 2}
    assert fake.calls[-1] == (ctx["bags"]["supply"]["guid"], "shuffle", ())
    kinds = {o.name for o in loaded.values()}
    assert {"Custom_Tile", "Custom_Token", "Figurine_Custom", "Bag", "Custom_Tile_Stack", "HandTrigger",
            "ScriptingTrigger"} <= kinds
    assert fake.hand_zone("Red", create=False).guid == next(o["GUID"] for o in _by_name(save, "HandTrigger")
                                                           if o["FogColor"] == "Red")


def test_board_picture_colours_cells_and_edges_by_attribute() -> None:
    layout = _layout()
    sq, hx = layout.board("square"), layout.board("hex")
    img = render_board(sq)
    assert img.size == (8 * 64, 6 * 64)

    def at(board: Any, img: Image.Image, x: float, z: float) -> tuple[int, int, int]:
        s, ppu = board.scale, board.pixels_per_unit
        return img.getpixel((round(img.width / 2 + x * s * ppu), round(img.height / 2 - z * s * ppu)))

    a1, b1, c1 = (sq.grid.cell(c).center for c in ("a1", "b1", "c1"))
    mid = lambda p, q: ((p[0] + q[0]) / 2, (p[1] + q[1]) / 2)  # noqa: E731
    assert at(sq, img, *mid(a1, b1)) == (0xd0, 0x20, 0x20)       # a red edge
    assert at(sq, img, *mid(b1, c1)) == (0x20, 0x40, 0xd0)       # a blue one
    corner = sq.grid.outline("d1")[0]
    assert at(sq, img, corner[0] + 0.1, corner[1] + 0.1) == (0xe0, 0xd8, 0xc0)  # the cell colour
    himg = render_board(hx)
    for cid, rgb in (("0,0", (0x70, 0xa0, 0x40)), ("1,0", (0x30, 0x70, 0xc0))):
        cx, cz = hx.grid.cell(cid).center
        assert at(hx, himg, cx + 0.3, cz - 0.3) == rgb, cid
    # the hex board has no edge rule: no line between neighbouring centres
    (ax, az), (bx, bz) = hx.grid.cell("0,0").center, hx.grid.cell("0,1").center
    assert at(hx, himg, ax + (bx - ax) * 0.42, az + (bz - az) * 0.42) == (0x70, 0xa0, 0x40)
    images = {name: png_bytes(img) for name, img in render_kit_pictures(layout).items()}
    assert images == {name: png_bytes(img) for name, img in render_kit_pictures(_layout()).items()}  # deterministic
    with Image.open(__import__("io").BytesIO(images["piece-coin-front.png"])) as coin:
        assert coin.mode == "RGBA" and coin.getpixel((0, 0))[3] == 0  # a token is cut out


@pytest.mark.parametrize("path,value,message", [
    (("boards", 0, "grid", "edges", 0, "cells"), ["a1", "c1"], "not adjacent"),
    (("pieces", 2, "cell"), "9,9", r"pieces\[2\]\.cell: board 'hex' has no cell '9,9'"),
    (("pieces", 0, "faces"), [], r"pieces\[0\]\.faces: expected one or two faces"),
    (("bags", 0, "contents"), ["t1", "t1"], r"bags\[0\]\.contents\[1\]: piece 't1' is already in bag"),
    (("pieces", 3, "kind"), "meeple", r"pieces\[3\]\.kind: expected one of token, tile, figurine"),
    (("zones", 1, "cells"), ["a1", "z9"], r"zones\[1\]\.cells\[1\]\.cell: board 'square' has no cell 'z9'"),
    (("stacks", 0, "count"), 1, r"stacks\[0\]\.count: a stack holds at least 2"),
    (("boards", 1, "grid"), "board", r"boards\[1\]\.grid: the game's data has no board 'board'"),
    (("boards", 2, "name"), "hex", r"boards\[2\]\.name: 'hex': use a new name"),
    (("boards", 0, "size"), [100, 100], r"boards\[0\]\.pixels_per_unit: the board image must stay within 4096 px"),
])
def test_bad_kit_data_names_the_field(path: tuple[Any, ...], value: Any, message: str) -> None:
    data = copy.deepcopy(TABLE)
    target = data
    for key in path[:-1]:
        target = target[key]
    target[path[-1]] = value
    with pytest.raises(InputError, match=message):
        _layout(data)


def test_a_piece_needs_exactly_one_place() -> None:
    data = copy.deepcopy(TABLE)
    data["pieces"][3].pop("position")
    with pytest.raises(InputError, match=r"pieces\[3\]: piece 'coin' needs exactly one of"):
        _layout(data)
    data = copy.deepcopy(TABLE)
    data["pieces"][0]["position"] = [0, 0]  # in the bag and on the table
    with pytest.raises(InputError, match=r"pieces\[0\]"):
        _layout(data)


def test_decks_may_have_their_own_card_shape() -> None:
    layout = json.loads((Path(__file__).resolve().parents[1] / "art_src" / "two-and-two" / "table.json").read_text())
    layout["decks"][1]["card"] = {"type": 4, "size": [2.0, 2.0]}
    parsed = parse_table_layout(layout, game_id="two-and-two")
    assert parsed.decks[1].card_type == 4 and parsed.decks[1].card_size == (2.0, 2.0)
    assert parsed.decks[0].card_type is None
    layout["decks"][1]["card"] = {"type": 7}
    with pytest.raises(InputError, match=r"decks\[1\]\.card\.type: expected 0-4"):
        parse_table_layout(layout, game_id="two-and-two")


def test_a_deck_of_smaller_cards_is_scaled_and_outlined_at_its_size() -> None:
    from tts_builder.save import DeckPlacement, CardSpec
    card = CardSpec(size=(2.2, 3.1), rotation_y=180, type=0, nickname="", description="")
    small = DeckPlacement(name="tiny", art="tiny", zone=None, spread=((0.0, 0.0),), scale=0.5, face_down=False,
                          locked=False, card_size=(1.1, 1.1))
    assert small.object_scale(card) == 0.25 and small.footprint(card) == (0.55, 0.55)
    plain = DeckPlacement(name="main", art="deck", zone="deck", spread=(), scale=1.0, face_down=True, locked=False)
    assert plain.object_scale(card) == 1.0 and plain.footprint(card) == (2.2, 3.1)


def test_cell_zones_are_boxes_around_their_cells_and_not_drawn_on_the_mat() -> None:
    from tts_builder.tablemat import render_mat
    layout = _layout()
    zone = layout.zone("top-row")
    board = layout.board("square")
    for cid in ("a1", "d1"):
        x, z = board.cell_world(cid)
        x0, z0, x1, z1 = zone.rect
        assert x0 < x < x1 and z0 < z < z1
    assert zone.size == pytest.approx((4 * board.scale, board.scale))
    data = copy.deepcopy(TABLE)
    data["zones"] = data["zones"][:1]
    plain = parse_table_layout(data, game_id="kit")
    assert render_mat(layout).tobytes() == render_mat(plain).tobytes()


def test_a_game_table_with_a_board_builds_checks_and_loads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Two & Two's table plus a board, pieces and a bag: the build draws their images, the
    save passes the build's check (local image files exist) and FakeTTS lays it out."""
    from tts_builder import build as build_mod
    original = build_mod.load_table_layout

    def with_kit(game_id: str) -> Any:
        data = json.loads((Path(__file__).resolve().parents[1] / "art_src" / game_id / "table.json").read_text())
        for key in ("boards", "pieces", "bags"):
            data[key] = copy.deepcopy(TABLE[key])
        data["boards"] = data["boards"][:1]
        data["boards"][0]["center"] = [0.0, 0.0]
        data["pieces"] = [p for p in data["pieces"] if p.get("board") != "hex"]
        return parse_table_layout(data, game_id=game_id, origin=f"art_src/{game_id}/table.json")

    monkeypatch.setattr(build_mod, "load_table_layout", with_kit)
    result = build_mod.build_game("two-and-two", tmp_path)
    images = tmp_path / "two-and-two" / "images"
    # (published under content-hashed names; a piece back is named by its look, and pieces of the
    # same pixels share one file and URL, named by what their names share)
    published = {build_mod.art_name(n): n for n in result.images}
    for name in ("board-square.png", "piece-coin-front.png"):
        assert name in published and (images / published[name]).is_file(), name
    pieces = {n for n in published if n.startswith("piece-")}
    assert "piece-front.png" in pieces, pieces  # the hero's front and t1's: the same pixels
    assert any(n.startswith("piece-back-") for n in pieces), pieces  # shared by look (issue 20)
    assert not any("hero" in n or "t1" in n for n in pieces), pieces
    assert all((images / n).is_file() for n in result.images)
    save = json.loads(result.save_path.read_text())
    fake = FakeTTS()
    loaded = fake.load_save(save)
    bag = next(o for o in loaded.values() if o.name == "Bag")
    assert [o.getGMNotes() for o in bag.contents] == ["t1", "t2"]
    assert len(fake.snap_points) == len(save["SnapPoints"]) == 7 + 2 * 4 + 12  # zone snaps + square cells
    monkeypatch.setattr(build_mod, "load_table_layout", original)


def test_a_board_grid_may_come_from_the_game_data() -> None:
    data = copy.deepcopy(TABLE)
    data["boards"][1]["grid"] = "board"
    layout = parse_table_layout(data, game_id="kit", game_data={"board": HEX})
    assert [c.id for c in layout.board("hex").grid] == [c.id for c in _layout().board("hex").grid]
    with pytest.raises(InputError, match=r"board\.shape"):
        parse_table_layout(data, game_id="kit", game_data={"board": {"shape": "triangle"}})


def test_cell_labels_may_sit_in_the_cell_corner() -> None:
    data = copy.deepcopy(TABLE)
    data["boards"][0]["label_position"] = "corner"
    corner, centred = _layout(data).board("square"), _layout().board("square")
    assert corner.label_corner and not centred.label_corner

    def dark(img: Image.Image, box: tuple[float, float, float, float]) -> int:
        """Label-ink pixels in a box given as fractions of cell a1 (x from its left, y from its top)."""
        px = img.width / 4  # a 4-column grid filling the picture (margin 0)
        return sum(1 for x in range(round(box[0] * px), round(box[2] * px))
                   for y in range(round(box[1] * px), round(box[3] * px)) if img.getpixel((x, y))[:3] == (16, 16, 16))

    a, b = render_board(corner), render_board(centred)
    assert dark(a, (0.05, 0.05, 0.38, 0.34)) > 20 and dark(b, (0.05, 0.05, 0.3, 0.3)) == 0
    assert dark(b, (0.33, 0.33, 0.67, 0.67)) > 20 and dark(a, (0.4, 0.4, 0.67, 0.67)) == 0
    with pytest.raises(InputError, match=r"boards\[0\]\.label_position: expected 'center' or 'corner'"):
        data["boards"][0]["label_position"] = "top"
        _layout(data)


def test_pieces_know_their_home_and_a_board_table_has_a_board_thumbnail(built: Any) -> None:
    from tts_builder.tablemat import render_thumbnail
    plan, save, ctx = built
    coin = next(o for o in save["ObjectStates"] if o["GMNotes"] == "coin")
    home = ctx["pieces"]["coin"]["home"]
    assert (home["x"], home["y"], home["z"]) == (coin["Transform"]["posX"], coin["Transform"]["posY"], coin["Transform"]["posZ"])
    assert ctx["pieces"]["t1"]["home"] is None  # in the bag
    assert ctx["pieces"]["t3"]["home"]["x"] == ctx["grids"]["hex"]["cells"]["0,0"]["position"]["x"]
    thumb = render_thumbnail(plan.layout, 256)
    assert thumb.size == (256, 256)
    colours = {thumb.getpixel((x, y)) for x in range(256) for y in range(256)}
    assert (0xe0, 0xd8, 0xc0) in colours  # the square board's cells are drawn on it
    assert render_thumbnail(plan.layout, 256).tobytes() == thumb.tobytes()


def test_a_figurine_and_a_tile_stack_are_played_at_the_stand_in_table(built: Any) -> None:
    """Figurine_Custom and Custom_Tile_Stack, which no game uses yet, at the stand-in table: the
    figurine shows its name and both image URLs, is picked up and dropped on another cell of its
    board (it snaps there, turned as the cell's snap says); a piece taken off the stack is a new
    single tile that shows the stack's name, and the stack counts one fewer."""
    plan, save, ctx = built
    fake = FakeTTS(seated=("White", "Red"))
    loaded = fake.load_save(save)
    hero = next(o for o in loaded.values() if o.name == "Figurine_Custom")
    assert fake.seen_by(hero, "Red")["name"] == "Hero" and hero.visible_images()[0].startswith(URL)
    square = next(b for b in plan.layout.boards if b.name == "square")
    target = next(c.id for c in square.grid if c.id != "b2")
    x, z = square.cell_world(target)
    fake.drop_at(hero, "White", (x + 0.2, 2.0, z - 0.2), 45.0)
    assert (hero.position[0], hero.position[2]) == pytest.approx((x, z))
    snap = next(p for p in fake.snap_points if (p["position"][0], p["position"][2]) == pytest.approx((x, z)))
    assert hero.rotation[1] == pytest.approx(snap["rotation"][1] % 360.0)
    stack = fake.get_object(ctx["stacks"]["gold"]["guid"])
    assert stack is not None and stack.getQuantity() == 5
    fake.load_global(f"function take() return getObjectFromGUID('{stack.guid}').takeObject({{}}) end")
    piece = fake.sandbox.call(fake.sandbox.lookup("take"))
    assert stack.getQuantity() == 4 and piece.name == "Custom_Tile" and piece.guid != stack.guid
    fake.drop_at(piece, "Red", fake.hand_zone("Red").position)  # a tile is not taken into a hand
    assert fake.held_in_hand(piece) is None and fake.seen_by(piece, "White")["name"] == stack.getName()


def test_the_shared_runtime_s_board_maps_square_and_hex_boards_as_the_python_reference(built: Any) -> None:
    """lua_templates/runtime/board.lua.j2's Board.cell_at on every kit board (square, pointy and
    flat hex): each cell's centre and a point off it give the cell save.world_to_cell gives (hex
    boards were nil before: Two by Two kept its own rounding)."""
    from tts_builder.luagen import render

    plan, _save, ctx = built
    sandbox = LuaSandbox()
    board_lua = sandbox.execute(render("runtime/board.lua.j2", {}) + "\nreturn Board", "board.lua")
    shapes = set()
    for name, g in ctx["grids"].items():
        grid = sandbox.to_lua(g)
        pitch = plan.layout.board(name).scale * g["cell_size"]
        for cid in g["order"]:
            p = g["cells"][cid]["position"]
            for x, z in ((p["x"], p["z"]), (p["x"] + 0.3 * pitch * math.cos(2.0), p["z"] + 0.3 * pitch * math.sin(2.0))):
                assert sandbox.call(board_lua.cell_at, grid, sandbox.table(x=x, z=z)) == cid == world_to_cell(g, x, z)
        shapes.add((g["shape"], g["orientation"]))
    assert {s for s, _ in shapes} == {"square", "hex"} and len(shapes) == 3
