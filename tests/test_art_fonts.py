"""Readable at the table: each game's TrueType font from art_src, text that fits its box in that
font, thumbnails without placeholder cards, and play mats whose labels pass WCAG contrast."""

from __future__ import annotations

import dataclasses
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageFont

from tts_builder.art import load_art_source, resolve_card
from tts_builder.art.render import PT_PER_INCH, fit_layer, font, has_glyph, render_card
from tts_builder.art.source import FONTS_DIR, art_root, known_art_games, load_fonts
from tts_builder.build import load_table_layout
from tts_builder.errors import InputError
from tts_builder.save import Panel
from tts_builder.tablemat import (GRAPHIC_CONTRAST, TEXT_CONTRAST, TableFonts, cell_label_ink, contrast_ratio, mat_contrasts,
                                  render_board, render_mat, table_fonts, zone_fill)

GAMES = known_art_games()
SHIPPED_FONTS = {"body": "DejaVuSansCondensed.ttf", "bold": "DejaVuSansCondensed-Bold.ttf"}


def test_every_game_is_covered() -> None:
    assert GAMES == ["obren-buttons", "smitten-2", "twin-tower-city", "two-and-two", "two-by-two"]


# --------------------------------------------------------------------------- the font comes from art_src


@pytest.mark.parametrize("game", GAMES)
def test_each_game_names_a_truetype_font_shipped_in_art_src(game: str) -> None:
    source = load_art_source(game)
    assert {name: f.file for name, f in source.fonts.items()} == {
        name: f"art_src/{FONTS_DIR}/{file}" for name, file in SHIPPED_FONTS.items()}
    for face in source.fonts.values():
        assert face.data == (art_root() / FONTS_DIR / Path(face.file).name).read_bytes()
    body = font(40, source.font())
    assert body.getname() == ("DejaVu Sans", "Condensed")  # not Pillow's built-in Aileron
    assert font(40, source.title_font()).getname() == ("DejaVu Sans", "Condensed Bold")
    default = ImageFont.load_default(size=40)
    assert isinstance(default, ImageFont.FreeTypeFont) and default.getname() != body.getname()
    assert (art_root() / FONTS_DIR / "LICENSE-DejaVu.txt").is_file()  # the licence ships beside the fonts


def test_text_layers_are_drawn_with_the_named_font(tmp_path: Path) -> None:
    """The same card drawn with the art source's font and with the built-in one differs, and a
    layer's ``font`` ("bold") changes both the picture and the cache key."""
    source = load_art_source("twin-tower-city")
    row = source.row("b02")
    layout = source.layout_for(row)
    with_font = render_card(source, layout, row, deck="deck")
    builtin = dataclasses.replace(source, fonts={})
    assert render_card(builtin, layout, row, deck="deck").tobytes() != with_font.tobytes()
    resolved = resolve_card(source, layout, row, deck="deck")
    faces = {layer.get("font_sha256") for layer in resolved.layers if layer["type"] == "text"}
    assert faces == {source.fonts["body"].sha256, source.fonts["bold"].sha256}
    assert all("font_sha256" not in layer for layer in resolve_card(builtin, layout, row, deck="deck").layers)


def test_mat_boards_and_pieces_use_the_games_font() -> None:
    fonts = table_fonts("two-by-two")
    assert fonts.text is not None and fonts.label is not None
    assert font(20, fonts.label).getname() == ("DejaVu Sans", "Condensed Bold")
    layout = load_table_layout("smitten-2")
    board = layout.boards[0]
    assert render_board(board, table_fonts("smitten-2")).tobytes() != render_board(board, TableFonts()).tobytes()
    assert table_fonts("no-such-game") == TableFonts()  # no art source: Pillow's built-in font


def test_the_font_covers_what_the_builtin_one_lacks() -> None:
    face = load_art_source("twin-tower-city").font()
    assert not has_glyph("\u25b2") and has_glyph("\u25b2", face)  # the mat's side labels use it
    assert not has_glyph("\ue000", face)  # a private-use code point: still refused


# --------------------------------------------------------------------------- text fits


@pytest.mark.parametrize("game", GAMES)
def test_every_text_on_every_card_fits_its_box_in_the_games_font(game: str) -> None:
    """Measured with the font the layer names: no text overflows, none shrinks below 5 pt."""
    source = load_art_source(game)
    k, pt = source.dpi / 25.4, source.dpi / PT_PER_INCH
    jobs: list[tuple[Any, Any]] = [(source.layout_for(r), r) for r in source.rows]
    jobs += [(source.layouts[d.back], None) for d in source.decks if not d.unique_back]
    checked = 0
    for layout, row in jobs:
        deck = next((d.key for d in source.decks if row is not None and row.kind in d.kinds), None)
        for layer in resolve_card(source, layout, row, deck=deck).layers:
            if layer["type"] != "text" or isinstance(layer["box"], str):
                continue
            _, _, w, h = layer["box"]
            fitted = fit_layer(source, layer, round(w * k), round(h * k), k, pt)
            where = (game, row.key if row else layout.name, layer["text"])
            assert fitted.fits, where
            assert fitted.size_px >= 5 * pt, (*where, fitted.size_px / pt)
            checked += 1
    assert checked > 0


def test_ttc_bonus_lines_are_readable_at_table_size() -> None:
    """A Battle card's bonus lines are drawn at 7 pt or more in bold: at a table-size card (200 px
    tall) that is text about 6 px high, where the old 5.5 pt regular lines were 4 px."""
    source = load_art_source("twin-tower-city")
    pt = source.dpi / PT_PER_INCH
    k = source.dpi / 25.4
    for row in source.rows:
        if row.kind != "battle":
            continue
        for layer in resolve_card(source, source.layout_for(row), row, deck="deck").layers:
            if layer["type"] == "text" and layer["text"].startswith(("with ", "vs ", "+")):
                _, _, w, h = layer["box"]
                fitted = fit_layer(source, layer, round(w * k), round(h * k), k, pt)
                assert layer.get("font") == "bold" and fitted.size_px >= 7 * pt, (row.key, layer["text"])


# --------------------------------------------------------------------------- thumbnails


def _placeholder_marked(source: Any, key: str) -> bool:
    """A card that says PLACEHOLDER or carries the orange tag colour (an assumed entry or link)."""
    row = source.row(key)
    deck = next((d.key for d in source.decks if row.kind in d.kinds), None)
    card = resolve_card(source, source.layout_for(row), row, deck=deck)
    tag = list(source.color("tag", "test")) if "tag" in source.palette else None
    return any("placeholder" in t.lower() for t in card.texts()) or (
        tag is not None and any(layer.get("fill") == tag for layer in card.layers))


@pytest.mark.parametrize("game", [g for g in GAMES if load_art_source(g).thumbnail is not None])
def test_thumbnail_shows_no_placeholder_card(game: str) -> None:
    """When a game has cards without placeholders, its thumbnail shows only such cards (Smitten 2's
    card texts are all placeholders, so it has no choice)."""
    source = load_art_source(game)
    assert source.thumbnail is not None
    clean = [r.key for r in source.rows if not _placeholder_marked(source, r.key)]
    if game != "smitten-2":
        assert clean
    if clean:
        assert [k for k in source.thumbnail.cards if _placeholder_marked(source, k)] == []


def test_ttc_placeholder_cards_are_detected() -> None:
    """The detector is not vacuous: the old thumbnail's army card al01 and b02 are marked."""
    source = load_art_source("twin-tower-city")
    assert _placeholder_marked(source, "al01") and _placeholder_marked(source, "b02")
    assert not _placeholder_marked(source, "b04")


# --------------------------------------------------------------------------- the play mat


@pytest.mark.parametrize("game", GAMES)
def test_mat_labels_reach_wcag_contrast(game: str) -> None:
    layout = load_table_layout(game)
    ratios = mat_contrasts(layout)
    assert ratios
    for what, ratio in ratios:
        assert ratio >= (GRAPHIC_CONTRAST if what.endswith("card slots") else TEXT_CONTRAST), (game, what, ratio)


def test_contrast_ratio_matches_wcag_reference_values() -> None:
    assert contrast_ratio((0, 0, 0), (255, 255, 255)) == pytest.approx(21.0)
    assert contrast_ratio((255, 255, 255), (255, 255, 255)) == pytest.approx(1.0)
    assert contrast_ratio((0x77, 0x77, 0x77), (255, 255, 255)) == pytest.approx(4.48, abs=0.01)


def test_a_light_seat_tint_is_toned_down_and_drawn() -> None:
    """Two & Two's White score zone: a quarter-way tint to white would leave its label at 3.8:1;
    the fill is tinted less, and the mat is painted with that fill."""
    layout = load_table_layout("two-and-two")
    zone = next(z for z in layout.zones if z.role == "score-0")
    colors = layout.mat.colors
    text = (int(colors["text"][1:3], 16), int(colors["text"][3:5], 16), int(colors["text"][5:7], 16))
    fill = zone_fill(layout, zone)
    assert contrast_ratio(text, fill) >= TEXT_CONTRAST
    mat = render_mat(layout)
    x, z = zone.center
    m = layout.mat
    px = (round((x - m.rect[0]) * m.pixels_per_unit), round((m.rect[3] - z) * m.pixels_per_unit))
    probe = (px[0] + round(zone.size[0] * m.pixels_per_unit / 2) - 12, px[1])  # inside the zone's right edge
    assert mat.getpixel(probe) == fill


def test_ttc_mat_has_side_labels_facing_each_edge() -> None:
    layout = load_table_layout("twin-tower-city")
    free = [p for p in layout.mat.panels if not p.box]
    near = [p for p in free if p.facing == 0 and "WHITE" in p.title]
    far = [p for p in free if p.facing == 1 and "RED" in p.title]
    assert len(near) == 1 and len(far) == 1
    assert near[0].rect[1] < -10 and far[0].rect[3] > 10  # along the near and far edges


def test_a_far_facing_panel_is_drawn_upside_down() -> None:
    layout = load_table_layout("twin-tower-city")
    m = layout.mat
    panel = Panel(rect=(-4.0, -2.0, 4.0, 2.0), title="FAR SIDE", text="read from the far edge",
                  text_position="top", box=True)

    def drawn(p: Panel) -> Image.Image:
        plain = dataclasses.replace(layout, mat=dataclasses.replace(m, panels=(p,)), zones=(), decks=())
        box = (round((p.rect[0] - m.rect[0]) * m.pixels_per_unit), round((m.rect[3] - p.rect[3]) * m.pixels_per_unit),
               round((p.rect[2] - m.rect[0]) * m.pixels_per_unit), round((m.rect[3] - p.rect[1]) * m.pixels_per_unit))
        return render_mat(plain).crop(box)

    upright, flipped = drawn(panel), drawn(dataclasses.replace(panel, facing=1))
    assert upright.tobytes() != flipped.tobytes()
    assert upright.rotate(180).tobytes() == flipped.tobytes()


# --------------------------------------------------------------------------- bad font data


def _tiny_root(tmp_path: Path, fonts: Any, *, layer_font: str | None = None) -> Path:
    root = tmp_path / "root"
    (root / "g").mkdir(parents=True)
    (root / "g" / "data.json").write_text(json.dumps({"cards": [{"key": "a", "kind": "c"}]}))
    layer: dict[str, Any] = {"type": "text", "box": [2, 2, 30, 10], "text": "Hi", "size_pt": 10}
    if layer_font is not None:
        layer["font"] = layer_font
    art = {"format": 1, "components": {"file": "data.json"}, "fonts": fonts,
           "layouts": {"c": {"size_mm": [40, 40], "layers": [layer]}}, "kinds": {"c": "c"},
           "decks": [{"key": "d", "kinds": ["c"], "back": "c"}]}
    (root / "g" / "art.json").write_text(json.dumps(art))
    return root


@pytest.mark.parametrize("fonts, layer_font, message", [
    ({"body": "Nope.ttf"}, None, "fonts.body: no font file art_src/fonts/Nope.ttf"),
    ({"body": "../x.ttf"}, None, "must be the name of a .ttf or .otf file"),
    ({"bold": "DejaVuSansCondensed-Bold.ttf"}, None, "name a 'body' font"),
    ({"body": "DejaVuSansCondensed.ttf"}, "bold", "names font 'bold' (known: body)"),
    ({}, "bold", "names font 'bold' (known: none"),
    ({"body": "Broken.ttf"}, None, "is not a font FreeType can read"),
])
def test_bad_fonts_are_input_errors(tmp_path: Path, fonts: Any, layer_font: str | None, message: str) -> None:
    root = _tiny_root(tmp_path, fonts, layer_font=layer_font)
    (root / FONTS_DIR).mkdir()
    (root / FONTS_DIR / "Broken.ttf").write_bytes(b"not a font")
    with pytest.raises(InputError, match=message.replace("(", r"\(").replace(")", r"\)").replace(".", r"\.")):
        load_art_source("g", root=root)


def test_an_art_root_of_its_own_uses_its_fonts_folder_first(tmp_path: Path) -> None:
    root = _tiny_root(tmp_path, {"body": "DejaVuSansCondensed.ttf"})
    assert load_art_source("g", root=root).fonts["body"].data == (art_root() / FONTS_DIR / "DejaVuSansCondensed.ttf").read_bytes()
    (root / FONTS_DIR).mkdir()
    shutil.copy(Path(str(art_root() / FONTS_DIR / "DejaVuSansCondensed-Bold.ttf")), root / FONTS_DIR / "DejaVuSansCondensed.ttf")
    own = load_art_source("g", root=root).fonts["body"]
    assert font(20, own).getname() == ("DejaVu Sans", "Condensed Bold")  # the root's own file won
    assert load_fonts("g", root=root)["body"] == own
    assert load_fonts("missing", root=root) == {}


@pytest.mark.parametrize("game", [g for g in GAMES if load_table_layout(g).boards])
def test_board_cell_ids_reach_wcag_contrast(game: str) -> None:
    """Cell ids are near-black, or white on cells too dark for it (Two by Two's water and rock)."""
    inks = set()
    for board in load_table_layout(game).boards:
        for cell in board.grid:
            ink = cell_label_ink(board, cell.attrs)
            fill = board.cells.color_of(cell.attrs)
            rgb = (int(fill[1:3], 16), int(fill[3:5], 16), int(fill[5:7], 16))
            assert contrast_ratio(ink, rgb) >= TEXT_CONTRAST, (game, board.name, cell.id)
            inks.add(ink)
    if game == "two-by-two":
        assert inks == {(16, 16, 16), (255, 255, 255)}


def test_a_character_the_font_lacks_is_an_input_error_naming_the_font(tmp_path: Path) -> None:
    root = _tiny_root(tmp_path, {"body": "DejaVuSansCondensed.ttf"})
    art = json.loads((root / "g" / "art.json").read_text())
    art["layouts"]["c"]["layers"][0]["text"] = "Hi \ue000"
    (root / "g" / "art.json").write_text(json.dumps(art))
    source = load_art_source("g", root=root)
    with pytest.raises(InputError, match=r"uses characters art_src/fonts/DejaVuSansCondensed\.ttf lacks"):
        resolve_card(source, source.layouts["c"], source.row("a"), deck="d")
    art["layouts"]["c"]["layers"][0]["text"] = "\u25b2 \u00b7 \u00e9"  # DejaVu has these
    (root / "g" / "art.json").write_text(json.dumps(art))
    source = load_art_source("g", root=root)
    assert resolve_card(source, source.layouts["c"], source.row("a"), deck="d").texts() == ["\u25b2 \u00b7 \u00e9"]
