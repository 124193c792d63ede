"""The legibility rule (tts_builder.art.legibility) over every picture of every game, and the
table art that issue 21 fixed: each check shown failing on a picture that breaks it."""

from __future__ import annotations

import dataclasses

import pytest
from PIL import Image, ImageDraw

from tts_builder.art import legibility
from tts_builder.art.legibility import Recorder, Surface, legibility_findings, mm_per_unit
from tts_builder.art.render import _readable_on
from tts_builder.art.source import BoardArt, load_art_source, load_table_art
from tts_builder.build import load_table_layout
from tts_builder.tablemat import _text, caption_rect, cell_texts, render_board, render_kit_pictures, render_mat

GAMES = ["two-and-two", "twin-tower-city", "obren-buttons", "two-by-two", "smitten-2"]


@pytest.mark.parametrize("game", GAMES)
def test_every_picture_of_every_game_is_legible(game: str) -> None:
    assert legibility_findings(game) == []


def test_physical_size_comes_from_the_card() -> None:
    # a 63 mm card 2.2 table units wide: one unit is 28.6 mm at the table
    assert mm_per_unit("two-by-two") == pytest.approx(63 / 2.2)


def _one_text(surface: Surface, text: str, ink: tuple[int, int, int], ground: tuple[int, int, int],
              size_px: int = 40, box: tuple[int, int, int, int] = (10, 10, 390, 90),
              then: str | None = None) -> list[str]:
    rec = Recorder()
    img = Image.new("RGB", (400, 100), ground)
    with rec.active(), rec.drawing(surface):
        draw = ImageDraw.Draw(img)
        _text(draw, text, box, ink, size_px)
        if then == "line":
            draw.line((0, 50, 400, 50), fill=(200, 0, 0), width=3)
        legibility.settle(img)
    return rec.findings()


def test_a_clean_text_passes() -> None:
    assert _one_text(Surface("t", 0.5), "READ ME", (0, 0, 0), (255, 255, 255)) == []


def test_text_too_small_at_the_table_is_found() -> None:
    found = _one_text(Surface("t", 0.04), "READ ME", (0, 0, 0), (255, 255, 255))
    assert any("mm tall at the table" in f for f in found)


def test_text_too_small_in_the_shipped_image_is_found() -> None:
    found = _one_text(Surface("t", 0.5, shipped_per_px=0.2), "READ ME", (0, 0, 0), (255, 255, 255))
    assert any("px in the image TTS loads" in f for f in found)


def test_low_contrast_text_is_found() -> None:
    # Obren's old bridges: white on the cream cells, 1.31:1
    found = _one_text(Surface("t", 0.5), "READ ME", (0xfb, 0xfb, 0xf6), (0xe9, 0xdc, 0xc0))
    assert any(":1 (the rule: 4.5:1)" in f for f in found)


def test_a_line_drawn_through_a_label_is_found() -> None:
    found = _one_text(Surface("t", 0.5), "READ ME", (0, 0, 0), (255, 255, 255), then="line")
    assert any("drawn over by something drawn later" in f for f in found)


def test_text_that_cannot_fit_its_box_is_found() -> None:
    found = _one_text(Surface("t", 0.5), "A LABEL FAR TOO LONG FOR ITS LITTLE BOX", (0, 0, 0), (255, 255, 255),
                      box=(10, 10, 60, 30))
    assert any("does not fit its box" in f for f in found)


def test_readable_on_picks_an_ink_that_reaches_4_5() -> None:
    pick = _readable_on(load_art_source("smitten-2"))
    assert pick("#ffffff", "white", "ink") == "ink"
    assert pick("#000000", "white", "ink") == "white"


def test_obren_bridges_stand_out_only_with_their_outline() -> None:
    table = load_table_layout("obren-buttons")
    board = table.board("board")
    art = load_table_art("obren-buttons").board("board")
    assert art.edge_outline is not None and art.round_caps
    bare = Recorder()
    with bare.active():
        render_board(board, art=dataclasses.replace(art, edge_outline=None))
    assert any("bridge #fbfbf6 on cell #e9dcc0" in f for f in bare.findings())  # 1.31:1 without the outline
    outlined = Recorder()
    with outlined.active():
        render_board(board, art=art)
    checked = [what for what, _ in outlined.marks_checked]
    assert any("against" in w for w in checked) and any("on cell" in w for w in checked)
    assert outlined.findings() == []


def test_two_by_two_island_names_no_cells_and_the_track_is_numbered_1_to_50() -> None:
    table = load_table_layout("two-by-two")
    art = load_table_art("two-by-two")
    assert cell_texts(table.board("island"), art.board("island")) == {}
    track = cell_texts(table.board("track"), art.board("track"))
    assert sorted(track.values(), key=int) == [str(n) for n in range(1, 51)]
    # the data's note: space k is column (k - 1) mod 10 of row (k - 1) div 10 + 1, from the top row
    assert (track["a1"], track["j1"], track["a2"], track["j5"]) == ("1", "10", "11", "50")
    rec = Recorder()
    with rec.active():
        pictures = render_kit_pictures(table)
    island_texts = [m.text for m in rec.marks if m.image is not None and m.surface.name == "board-island.png"]
    track_texts = [m.text for m in rec.marks if m.surface.name == "board-track.png"]
    assert island_texts == [] and sorted(track_texts, key=int) == [str(n) for n in range(1, 51)]
    assert "board-island.png" in pictures


def test_every_two_by_two_animal_face_shows_its_animal() -> None:
    table = load_table_layout("two-by-two")
    art = load_table_art("two-by-two")
    labels = {face.label for piece in table.pieces for face in piece.faces if face.label and piece.shape == "hex"}
    animals = labels - {"WATER"}
    assert animals and animals <= set(art.face_symbols), animals - set(art.face_symbols)
    rec = Recorder()
    with rec.active():
        render_kit_pictures(table)
    symbol_marks = {what.split(":")[0] for what, _ in rec.marks_checked if what.startswith("symbol on")}
    assert symbol_marks == {f"symbol on {label}" for label in animals}


def test_smitten_grids_are_captioned_as_the_moves_name_them() -> None:
    table = load_table_layout("smitten-2")
    rec = Recorder()
    with rec.active():
        render_mat(table)
    captions = {m.text: m.at for m in rec.marks if m.text.startswith("GRID")}
    assert set(captions) == {"GRID 0", "GRID 1"}
    grid0, grid1 = table.board("grid-0"), table.board("grid-1")
    assert (captions["GRID 0"][0] < captions["GRID 1"][0]) == (grid0.center[0] < grid1.center[0])
    r0 = caption_rect(grid0)
    assert r0[1] >= grid0.center[1] + grid0.size[1] / 2  # above the board, not on it


def test_two_by_two_set_aside_label_is_drawn_once_without_card_outlines_through_it() -> None:
    table = load_table_layout("two-by-two")
    rec = Recorder()
    with rec.active():
        render_mat(table)
    assert [m.text for m in rec.marks].count("SET ASIDE") == 1
    assert [f for f in rec.findings() if "SET ASIDE" in f] == []


def test_two_by_two_placeholder_note_comes_from_the_data() -> None:
    """The nine species the data marks assumed (A-4) say "placeholder" on their token, as on their
    card; the three the rules name do not; the note is legible (the rule's size and contrast)."""
    import json
    from pathlib import Path

    from tts_builder.save import hex_face_turn
    from tts_builder.tablemat import NOTE_PX, face_notes, render_face, symbol_pictures, table_fonts
    data = json.loads((Path(__file__).parent.parent / "rules/two_by_two/two-by-two.json").read_text())
    assumed = {s["id"].upper() for s in data["species"] if s.get("provenance") == "assumed"}
    assert len(assumed) == 9 and "ZEBRAS" in assumed and "DOVES" not in assumed
    art = load_table_art("two-by-two")
    assert face_notes("two-by-two", art) == {label: "placeholder" for label in assumed}
    assert face_notes("two-by-two", dataclasses.replace(art, face_note={})) == {}
    layout = load_table_layout("two-by-two")
    zebra = next(p for p in layout.pieces if p.faces[0].label == "ZEBRAS")
    symbol = symbol_pictures("two-by-two", art)["ZEBRAS"]
    rec = Recorder(unit_mm=mm_per_unit("two-by-two"))
    with rec.active(), legibility.table_picture("zebra", zebra.size / 256):
        render_face(zebra.faces[0], zebra.shape, cutout=False, note="placeholder", symbol=symbol)
    notes = [m for m in rec.marks if m.text == "placeholder"]
    assert len(notes) == 1 and notes[0].em_px >= NOTE_PX and rec.findings() == []
    pictures = render_kit_pictures(layout)
    fonts = table_fonts("two-by-two")
    turn = hex_face_turn(layout, zebra)  # the kit draws an animal turned for the island's hexes
    without = render_face(zebra.faces[0], zebra.shape, cutout=False, symbol=symbol, fonts=fonts, turn=turn)
    assert pictures[zebra.image(0)].tobytes() != without.tobytes()  # the kit's zebra carries the note
    doves = next(p for p in layout.pieces if p.faces[0].label == "DOVES")
    dove_plain = render_face(doves.faces[0], doves.shape, cutout=False, fonts=fonts,
                             symbol=symbol_pictures("two-by-two", art)["DOVES"], turn=turn)
    assert pictures[doves.image(0)].tobytes() == dove_plain.tobytes()  # a named species: no note
