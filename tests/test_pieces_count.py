"""Pieces with a ``count`` (one image, N objects: a pile or a bag of N) and a table without cards
(no ``card``, no ``decks``): the layout expands, the save passes its check, the stubbed TTS loads it."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from tts_builder.art import ArtManifest
from tts_builder.errors import InputError
from tts_builder.save import build_save, kit_images, parse_table_layout, plan_table, table_context
from tts_builder.savecheck import ERROR, check_save
from tts_builder.tablemat import render_kit_pictures
from tts_builder.testing import FakeTTS

DISC = [{"label": "", "color": "#d02020"}]
# A drop-a-disc table: no card, no decks; 21 red discs in a bag, 21 yellow ones in a pile.
TABLE: dict[str, Any] = {
    "format": 1,
    "seats": [{"seat": 0, "color": "Red", "hand": {"position": [0, 3, -14], "scale": [10, 5, 3]}},
              {"seat": 1, "color": "Yellow", "hand": {"position": [0, 3, 14], "rotation_y": 180, "scale": [10, 5, 3]}}],
    "zones": [],
    "mat": {"rect": [-15, -10, 15, 10], "pixels_per_unit": 16, "colors": {
        "background": "#102030", "zone": "#203040", "outline": "#ffffff", "text": "#ffffff", "hint": "#cccccc",
        "panel": "#203040"}},
    "pieces": [
        {"id": "red", "name": "Red disc", "kind": "token", "faces": DISC, "count": 21},
        {"id": "yellow", "name": "Yellow disc", "kind": "token", "faces": [{"label": "", "color": "#e0c020"}],
         "count": 21, "position": [10, 0]},
    ],
    "bags": [{"name": "red-bag", "label": "Red discs", "position": [-10, 0], "contents": ["red"]}],
}
BOARD = {"name": "b", "grid": {"shape": "square", "columns": 2, "rows": 2, "cell_size": 1.0,
                               "cell_ids": "letter-column,number-row-from-top"}, "center": [0, 0], "size": [2, 2]}


def _manifest() -> ArtManifest:
    return ArtManifest(game_id="discs", decks={}, standalone={}, thumbnail=None, rendered=0, reused=0)


def _layout(data: dict[str, Any] | None = None) -> Any:
    return parse_table_layout(copy.deepcopy(data or TABLE), game_id="discs", origin="discs/table.json")


@pytest.fixture(scope="module")
def built() -> tuple[Any, dict[str, Any], dict[str, Any]]:
    plan = plan_table(_layout(), _manifest(), {})
    save = build_save(plan, _manifest(), game_name="Discs", players=(2, 2), game_data={},
                      image_url=lambda n: "https://example.invalid/discs/" + n, lua_script="", xml_ui="", notebook={})
    return plan, save, table_context(plan)


def test_a_counted_piece_is_n_objects_from_one_image() -> None:
    layout = _layout()
    ids = [p.id for p in layout.pieces]
    assert ids[:2] == ["red-1", "red-2"] and ids[-1] == "yellow-21" and len(ids) == 42
    assert kit_images(layout) == ["piece-red-front.png", "piece-yellow-front.png"]
    assert list(render_kit_pictures(layout)) == kit_images(layout)
    assert layout.bags[0].contents == tuple(f"red-{k}" for k in range(1, 22))


def test_the_save_has_a_bag_of_n_and_a_pile_of_n_and_passes_its_check(built: Any) -> None:
    _plan, save, ctx = built
    assert [p for p in check_save(json.loads(json.dumps(save)), own_output=True) if p.severity == ERROR] == []
    objects = save["ObjectStates"]
    assert not any(o["Name"] in ("Deck", "DeckCustom", "Card", "CardCustom") for o in objects)
    bag = next(o for o in objects if o["Name"] == "Bag")
    assert len(bag["ContainedObjects"]) == 21
    assert {o["CustomImage"]["ImageURL"] for o in bag["ContainedObjects"]} == {
        "https://example.invalid/discs/piece-red-front.png"}
    pile = [o for o in objects if o.get("GMNotes", "").startswith("yellow-")]
    assert len(pile) == 21 and len({o["GUID"] for o in pile}) == 21
    heights = [o["Transform"]["posY"] for o in pile]
    assert heights == sorted(heights) and len(set(heights)) == 21  # a pile, not 21 objects in one place
    assert ctx["bags"]["red-bag"]["contents"][0] == "red-1" and ctx["decks"] == {} and ctx["cards"] == {}


def test_the_stubbed_tts_loads_the_table_without_cards(built: Any) -> None:
    _plan, save, ctx = built
    fake = FakeTTS(seated=("Red", "Yellow"))
    fake.load_save(save)
    bag = fake.get_object(ctx["bags"]["red-bag"]["guid"])
    assert bag is not None and bag.getQuantity() == 21


@pytest.mark.parametrize("change, message", [
    (lambda t: t["pieces"][0].update(count=0), r"pieces\[0\]\.count: expected 1 to 200 pieces, not 0"),
    (lambda t: t["pieces"][0].update(count="3"), r"pieces\[0\]\.count"),
    (lambda t: (t.update(boards=[BOARD]), t["pieces"][1].pop("position"), t["pieces"][1].update(board="b", cell="a1")),
     r"pieces\[1\]\.count: a cell holds one piece"),
    (lambda t: t["pieces"].append({"id": "red-3", "faces": DISC, "position": [0, 0]}), r"pieces\[2\]\.id"),
    (lambda t: t["pieces"].append({"id": "red", "faces": DISC, "position": [0, 0]}), r"pieces\[2\]\.id"),
    (lambda t: t["bags"].clear(), r"pieces\[0\]: piece 'red-1' needs exactly one of"),
])
def test_bad_counts_name_the_field(change: Any, message: str) -> None:
    data = copy.deepcopy(TABLE)
    change(data)
    with pytest.raises(InputError, match=message):
        _layout(data)


def test_an_art_source_without_cards_renders_nothing_and_says_so(tmp_path: Any) -> None:
    """components.json may hold no cards: a board game draws its kit from table.json."""
    from tts_builder.art.pipeline import render_game_art

    folder = tmp_path / "src" / "discs"
    folder.mkdir(parents=True)
    (folder / "art.json").write_text(json.dumps({
        "format": 1, "name": "Discs", "components": {"file": "components.json", "rows": "cards"},
        "layouts": {"card": {"size_mm": [63, 88], "bleed_mm": 3, "safe_mm": 4}}, "kinds": {}, "decks": []}))
    (folder / "components.json").write_text('{"cards": []}')
    manifest = render_game_art("discs", tmp_path / "out", art_root=tmp_path / "src")
    assert manifest.decks == {} and manifest.standalone == {} and manifest.rendered == 0
    (folder / "components.json").write_text('{"cards": {}}')
    with pytest.raises(InputError, match="field 'cards' must be a list of rows"):
        render_game_art("discs", tmp_path / "out", art_root=tmp_path / "src")
