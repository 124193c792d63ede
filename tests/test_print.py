"""tts-builder print: the print-and-play PDF (pages, paper size, crop-mark layout, duplex backs) and
one PNG per card, made from the art pipeline's own renders, byte-identical on a second run."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest

from tts_builder.art.render import render_card
from tts_builder.art.source import load_art_source
from PIL import Image

from tts_builder.art import load_manifest
from tts_builder.cli import main
from tts_builder.printplay import OVERLAP_MM, PAPERS, PrintCard, plan_pages, print_cards
from tts_builder.art.pipeline import Picture
from tts_builder.art.source import Layout

GAME = "two-and-two"  # 54 cards (50 in the deck, 4 examples), 63 x 88 mm, one shared back


def _pdf_pages(path: Path) -> int:
    return len(re.findall(rb"/Type /Page\b(?!s)", path.read_bytes()))


def _media_boxes(path: Path) -> set[tuple[float, float]]:
    return {(float(w), float(h)) for w, h in re.findall(rb"/MediaBox \[0 0 ([\d.]+) ([\d.]+)\]", path.read_bytes())}


@pytest.fixture(scope="module")
def printed(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("print")
    assert main(["print", GAME, "--out", str(out)]) == 0
    return out


def test_a4_pdf_has_a_front_and_a_back_page_per_nine_cards(printed: Path) -> None:
    pdf = printed / GAME / "print" / f"{GAME}-a4.pdf"
    manifest = load_manifest(printed, GAME)
    cards = sum(len(ids) for deck in manifest.decks.values() for ids in deck.copies.values())
    assert cards == 54
    assert _pdf_pages(pdf) == 2 * -(-cards // 9)  # 3 x 3 poker cards a page, each followed by its backs
    assert _media_boxes(pdf) == {(595.28, 841.89)}  # A4 in points
    # each distinct render is embedded once, however many copies and backs show it
    distinct = {pic.digest for face, back in _pictures(printed).values() for pic in (face, back) if pic}
    assert len(distinct) == 35  # 34 designs and the back both decks share
    assert pdf.read_bytes().count(b"/Subtype /Image") == len(distinct)
    assert b"/CreationDate (D:20000101000000Z" in pdf.read_bytes()


def test_one_png_per_card_id_as_the_art_draws_it(printed: Path) -> None:
    manifest = load_manifest(printed, GAME)
    ids = {i for deck in manifest.decks.values() for copies in deck.copies.values() for i in copies}
    folder = printed / GAME / "print" / "png"
    names = {p.name for p in folder.iterdir()}
    assert names == {f"{i}.png" for i in ids} | {"deck-back.png", "examples-back.png"}
    face, _ = _pictures(printed)["c0001"]
    assert face.job is not None
    # drawn afresh from the card's row, as the build draws it (its cache keeps only TTS sizes)
    render = render_card(load_art_source(GAME), face.job.layout, face.job.row, deck=face.job.deck)
    with Image.open(folder / "c0001-2.png") as png:
        assert png.size == render.size == (814, 1109)  # 63 x 88 mm plus 3 mm bleed a side, at 300 dpi
        assert png.convert("RGB").tobytes() == render.convert("RGB").tobytes()
        assert round(png.info["dpi"][0]) == 300


def _pictures(out: Path) -> dict[str, tuple[Picture, Picture | None]]:
    """The render digests of this build (the manifest file does not keep them: render again, warm)."""
    from tts_builder.art import render_game_art

    return dict(render_game_art(GAME, out).pictures)


def test_letter_fronts_only_and_byte_identical_rerun(printed: Path, tmp_path: Path) -> None:
    stale = tmp_path / GAME / "print" / "png" / "gone.png"
    stale.parent.mkdir(parents=True)
    stale.write_bytes(b"old")
    for _ in range(2):
        assert main(["print", GAME, "--paper", "letter", "--no-backs", "--out", str(tmp_path)]) == 0
    pdf = tmp_path / GAME / "print" / f"{GAME}-letter.pdf"
    assert _pdf_pages(pdf) == 6
    assert _media_boxes(pdf) == {(612.0, 792.0)}  # 8.5 x 11 in
    assert not stale.exists(), "a PNG of a card no longer in the game is removed"
    # same inputs, same bytes: another folder, another run
    assert main(["print", GAME, "--out", str(tmp_path / "again")]) == 0
    assert (tmp_path / "again" / GAME / "print" / f"{GAME}-a4.pdf").read_bytes() == \
        (printed / GAME / "print" / f"{GAME}-a4.pdf").read_bytes()
    for png in (printed / GAME / "print" / "png").iterdir():
        assert (tmp_path / "again" / GAME / "print" / "png" / png.name).read_bytes() == png.read_bytes()


def _card(i: int, size: tuple[float, float] = (63.0, 88.0)) -> PrintCard:
    layout = Layout("card", size, 3.0, 4.0, "white", {}, ())
    return PrintCard(f"c{i}", "deck", Picture(f"f{i}", layout, 300.0), Picture("back", layout, 300.0), size)


@pytest.mark.parametrize("paper", sorted(PAPERS))
def test_plan_fills_pages_and_mirrors_backs(paper: str) -> None:
    pw, ph = PAPERS[paper]
    pages, scaled = plan_pages([_card(i) for i in range(10)], PAPERS[paper])
    assert [p.side for p in pages] == ["fronts", "backs", "fronts", "backs"]
    assert [len(p.slots) for p in pages] == [9, 9, 1, 1] and scaled == []
    for page in pages:
        for s in page.slots:  # inside the margin, at full size
            assert s.x >= 7 and s.y >= 7 and s.x + s.w <= pw - 7 and s.y + s.h <= ph - 7
            assert (s.w, s.h) == (63.0, 88.0)
    fronts, backs = pages[0], pages[1]
    for f, b in zip(fronts.slots, backs.slots):  # a long-edge flip puts each back behind its front
        assert f.card is b.card and b.x == pytest.approx(pw - f.x - f.w) and b.y == f.y
    assert len(fronts.cuts_x) == 4 and len(fronts.cuts_y) == 4  # crop marks on every cut line
    assert len(pages[2].cuts_x) == 2 and len(pages[2].cuts_y) == 2


def test_plan_groups_sizes_and_shrinks_what_does_not_fit() -> None:
    board = _card(99, (400.0, 400.0))
    pages, scaled = plan_pages([_card(1), board, _card(2)], PAPERS["a4"], backs=False)
    assert [len(p.slots) for p in pages] == [2, 1]  # the two cards together, the board alone
    assert scaled == ["c99"] and pages[1].slots[0].w == pytest.approx(196.0)


def test_print_cards_counts_every_copy(printed: Path) -> None:
    from tts_builder.art import render_game_art

    cards = print_cards(render_game_art(GAME, printed))
    assert len(cards) == 54 and len({c.card_id for c in cards}) == 54


@pytest.mark.parametrize("argv, expected", [
    (["print", "chess"], "unknown game 'chess'"),
    (["print", GAME, "--paper", "a3"], "invalid choice: 'a3'"),
])
def test_print_bad_input_is_one_line(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
                                     argv: list[str], expected: str) -> None:
    monkeypatch.chdir(tmp_path)
    assert main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and expected in err
    assert list(tmp_path.iterdir()) == []


def test_the_table_kit_fit_is_printed_at_one_scale_that_fits(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tts_builder.build import load_table_layout
    from tts_builder.printplay import MIN_TAB_MM, kit_cards, label_spans

    assert main(["print", "obren-buttons", "--out", str(tmp_path), "--kit", "fit", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert (report["cards"], report["kit"], report["pages"], report["tiles"]) == (1, 17, 5, {})
    assert report["kit_scale"] == pytest.approx((196 / 12) / (63 / 2.2), abs=1e-4)  # board fills A4's width
    assert main(["print", "obren-buttons", "--out", str(tmp_path), "--kit", "fit"]) == 0
    out = capsys.readouterr().out
    assert "1 card(s) and 17 board(s)/piece(s) (at 57% of the cards' table scale, to fit the paper)" in out
    folder = tmp_path / "obren-buttons" / "print"
    # the aid card and its back, the board alone (no back page), the 16 buttons and their backs
    assert _pdf_pages(folder / "obren-buttons-a4.pdf") == 5
    names = {p.name for p in (folder / "png").iterdir()}
    assert {"aid.png", "aid-back.png", "board-board.png", "white-8.png", "black-1-back.png"} <= names
    assert len(names) == 2 + 1 + 16 * 2
    layout = load_table_layout("obren-buttons")
    kit, scale = kit_cards(layout, 63 / 2.2, PAPERS["a4"], kit="fit")
    board = next(c for c in kit if c.card_id == "board-board")
    button = next(c for c in kit if c.card_id == "white-1")
    assert board.size_mm[0] == pytest.approx(210 - 14)  # as large as the margin allows
    assert button.size_mm[0] / board.size_mm[0] == pytest.approx(1.5 / 12)  # a button to the board as on the table
    with Image.open(folder / "png" / "board-board.png") as png:
        assert png.size[0] * 25.4 / png.info["dpi"][0] == pytest.approx(196, abs=0.5)  # says its printed size


def test_a_board_larger_than_the_paper_is_printed_at_table_scale_in_tiles(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """By default the kit keeps the table's scale: Obren's 12-unit board (343.6 mm at the aid card's
    63 mm per 2.2 units) in 2 x 2 tiles of 171.8 mm that butt together into the board, the buttons
    at their table size; the PNG is the whole board, saying its printed size."""
    from tts_builder.build import load_table_layout
    from tts_builder.printplay import MIN_TAB_MM, kit_cards, label_spans

    assert main(["print", "obren-buttons", "--out", str(tmp_path), "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["tiles"] == {"board-board": [2, 2]} and report["kit_scale"] == 1.0
    assert (report["cards"], report["kit"]) == (1, 17)  # the board counts once
    layout = load_table_layout("obren-buttons")
    kit, scale = kit_cards(layout, 63 / 2.2, PAPERS["a4"])
    tiles = [c for c in kit if c.card_id.startswith("board-board-")]
    assert [c.card_id for c in tiles] == ["board-board-r1c1", "board-board-r1c2", "board-board-r2c1", "board-board-r2c2"]
    whole = 12 * 63 / 2.2
    # a tile with a neighbour right or below repeats some of its art: OVERLAP_MM, or less where that
    # would end inside a label (Obren's labels sit in the cells' top-left corners, just past the join),
    # or more, past the label, where the page has room
    tx, ty = tiles[0].face.tab
    assert MIN_TAB_MM <= tx < OVERLAP_MM and ty > OVERLAP_MM  # across: shortened; down: lengthened past a2
    for tile in tiles:
        r, c = tile.face.tile[:2]
        assert tile.size_mm == pytest.approx((whole / 2 + tx * (c == 0), whole / 2 + ty * (r == 0)))
        assert tile.size_mm[0] <= 210 - 14
    tx, ty = tx / whole, ty / whole
    assert [t.face.box for t in tiles] == [pytest.approx(b) for b in [
        (0, 0, 0.5 + tx, 0.5 + ty), (0.5, 0, 1, 0.5 + ty), (0, 0.5, 0.5 + tx, 1), (0.5, 0.5, 1, 1)]]
    xs, ys = label_spans(layout.boards[0], "obren-buttons")  # no label cut at a tab's edge either
    for t in tiles:
        assert not any(lo + 1e-9 < t.face.box[2] < hi - 1e-9 for lo, hi in xs)
        assert not any(lo + 1e-9 < t.face.box[3] < hi - 1e-9 for lo, hi in ys)
    button = next(c for c in kit if c.card_id == "white-1")
    assert button.size_mm[0] == pytest.approx(1.5 * 63 / 2.2)  # the buttons at the table's scale too
    folder = tmp_path / "obren-buttons" / "print"
    assert main(["print", "obren-buttons", "--out", str(tmp_path)]) == 0
    out = capsys.readouterr().out
    assert "board-board: at the table's scale in 4 tiles (2 row(s) of 2)" in out and "57%" not in out
    names = {p.name for p in (folder / "png").iterdir()}
    assert "board-board.png" in names and not any(n.startswith("board-board-r") for n in names)
    with Image.open(folder / "png" / "board-board.png") as png:
        assert png.size[0] * 25.4 / png.info["dpi"][0] == pytest.approx(whole, abs=0.5)
    pdf = folder / "obren-buttons-a4.pdf"
    assert _pdf_pages(pdf) == report["pages"] == 2 + 4 + 2  # aid and back, a tile a page, buttons and backs
    if shutil.which("pdftotext"):  # each tile page's footer says where the tile goes
        text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True,
                              check=True).stdout
        for place in ("row 1, column 1 of 2 x 2", "row 2, column 2 of 2 x 2"):
            assert f"board-board {place}: cut on the marks, lay the next tile's edge on the dashed line" in text


def test_print_reports_each_step_to_its_progress_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from tts_builder.printplay import PRINT_STEPS, print_game

    class Recorder:
        def __init__(self) -> None:
            self.events: list[str] = []

        def note(self, detail: str) -> None:
            self.events.append(f"note {detail}")

        def advance(self, steps: int = 1) -> None:
            self.events.append("advance")

    seen = Recorder()
    print_game("obren-buttons", tmp_path, progress=seen)
    assert seen.events.count("advance") == len(PRINT_STEPS)
    assert seen.events[-2:] == ["note a PNG per card", "advance"]
    assert any(e.startswith("note the PDF, ") for e in seen.events)
    assert main(["print", "obren-buttons", "--out", str(tmp_path), "--quiet"]) == 0
    assert capsys.readouterr().err == ""


# --------------------------------------------------------------------------- shaped pieces (issue 21)


def test_shaped_pieces_have_a_cut_line_on_their_shape_and_bleed_beyond_it() -> None:
    from tts_builder.build import load_table_layout
    from tts_builder.printplay import BLEED_MM, TOKEN_GAP_MM, KitImage, bled, cut_outline, kit_cards
    from tts_builder.tablemat import render_kit_pictures

    layout = load_table_layout("two-by-two")
    kit, _ = kit_cards(layout, 63 / 2.2, PAPERS["a4"], kit="fit")
    tokens = [c for c in kit if isinstance(c.face, KitImage) and c.face.shape in ("hex", "circle")]
    assert {c.face.shape for c in tokens} == {"hex", "circle"}
    for card in tokens:
        assert card.face.bleed == pytest.approx(BLEED_MM / card.size_mm[0])
    pages, _ = plan_pages(kit, PAPERS["a4"])
    shaped = [p for p in pages if p.shaped]
    assert shaped and all(not p.cuts_x for p in shaped)  # no grid of crop marks: each piece has its own line
    for page in shaped:
        slots = sorted(page.slots, key=lambda s: (s.y, s.x))
        for a, b in zip(slots, slots[1:]):
            if a.y == b.y:  # neighbours in a row leave room for both bleeds
                assert b.x - (a.x + a.w) >= TOKEN_GAP_MM - 1e-6
        for s in page.slots:  # bleed stays on the paper
            assert s.x - BLEED_MM >= 0 and s.x + s.w + BLEED_MM <= PAPERS["a4"][0]
    # the picture: the art inside the shape, its edge colour carried past the cut line, white outside
    pictures = render_kit_pictures(layout)
    hex_card = next(c for c in tokens if c.face.shape == "hex")
    img = pictures[hex_card.face.name].convert("RGB")
    out = bled(img, "hex", hex_card.face.bleed)
    pad = (out.width - img.width) // 2
    assert pad == round(hex_card.face.bleed * img.width) > 0
    mid = out.width // 2
    assert out.getpixel((mid, 2)) != (255, 255, 255)  # the top vertex's bleed, beyond the cut
    assert out.getpixel((2, 2)) == (255, 255, 255)  # a corner outside the grown hex
    assert out.getpixel((mid, mid)) == img.getpixel((img.width // 2, img.width // 2))  # the art itself
    # the cut line is the shape: a hex of 6 corners on the piece's box, a circle round its centre
    corners = cut_outline("hex", 0, 0, 20, 20)
    assert len(corners) == 6 and max(y for _, y in corners) == pytest.approx(10 + 10 * (1 - 8 / 256))
    ring = cut_outline("circle", 0, 0, 20, 20)
    assert all(abs(((x - 10) ** 2 + (y - 10) ** 2) ** 0.5 - 10 * (1 - 8 / 256)) < 1e-9 for x, y in ring)


def test_kit_fit_packs_pieces_at_a_usable_size_onto_few_pages() -> None:
    import math

    from tts_builder.build import load_table_layout
    from tts_builder.printplay import MARGIN_MM, MIN_TOKEN_MM, TOKEN_GAP_MM, KitImage, kit_cards

    layout = load_table_layout("two-by-two")
    kit, scale = kit_cards(layout, 63 / 2.2, PAPERS["a4"], kit="fit")
    pieces = [c for c in kit if isinstance(c.face, KitImage) and c.face.shape]
    # before: every piece shrank with the island (to about 7 mm); now none is below the usable minimum
    assert scale * min(p.size for p in layout.pieces) < MIN_TOKEN_MM
    assert all(c.size_mm[0] >= MIN_TOKEN_MM - 1e-9 for c in pieces)
    pages, _ = plan_pages(kit, PAPERS["a4"])
    fronts = [p for p in pages if p.shaped and p.side == "fronts"]
    w, h = PAPERS["a4"]
    usable = (w - 2 * MARGIN_MM) * (h - 2 * MARGIN_MM - 4)
    need = sum((c.size_mm[0] + TOKEN_GAP_MM) * (c.size_mm[1] + TOKEN_GAP_MM) for c in pieces) / usable
    assert len(fronts) <= math.ceil(need) + 1  # packed: at most one page more than the area needs
    assert sum(len(p.slots) for p in fronts) == len(pieces)


def test_boards_are_tiled_without_splitting_a_cell_label() -> None:
    from tts_builder.build import load_table_layout
    from tts_builder.printplay import KitImage, kit_cards, label_spans

    layout = load_table_layout("smitten-2")
    kit, _ = kit_cards(layout, 63 / 2.2, PAPERS["a4"])
    for board in layout.boards:
        tiles = [c for c in kit if isinstance(c.face, KitImage) and c.face.board == f"board-{board.name}"]
        assert len(tiles) == 4  # 309 mm square at the table's scale: 2 x 2 tiles, as few as equal ones
        xs, ys = label_spans(board, "smitten-2")
        assert len(xs) == 9
        for tile in tiles:
            box = tile.face.box
            assert box is not None
            w, h = board.size[0] * 63 / 2.2, board.size[1] * 63 / 2.2
            # the joins (the tile's edges less its tabs) lie beside the labels, and the tab is OVERLAP_MM
            assert tile.face.tab in {(0.0, 0.0), (OVERLAP_MM, 0.0), (0.0, OVERLAP_MM), (OVERLAP_MM, OVERLAP_MM)}
            # the tab's own edge: Smitten's labels start at the joins, so no tab can end before one
            # and none shorter than MAX_TAB_MM passes one: the plain tab ends in the label box's
            # margin, well before its glyphs (centred, under half the box wide)
            for edge, spans, side in ((box[2], xs, w), (box[3], ys, h)):
                for lo, hi in spans:
                    if lo + 1e-9 < edge < hi - 1e-9:
                        assert (edge - lo) * side == pytest.approx(OVERLAP_MM) and (edge - lo) < (hi - lo) / 4
            box = (box[0], box[1], box[2] - tile.face.tab[0] / w, box[3] - tile.face.tab[1] / h)
            for cut in (box[0], box[2]):
                assert not any(lo + 1e-9 < cut < hi - 1e-9 for lo, hi in xs), (tile.card_id, cut)
            for cut in (box[1], box[3]):
                assert not any(lo + 1e-9 < cut < hi - 1e-9 for lo, hi in ys), (tile.card_id, cut)
            assert tile.size_mm[0] <= PAPERS["a4"][0] - 14 + 1e-6 and tile.size_mm[1] <= PAPERS["a4"][1] - 14 + 1e-6
        # less their tabs, the tiles cover the board exactly, edge to edge
        assert sum((t.size_mm[0] - t.face.tab[0]) * (t.size_mm[1] - t.face.tab[1]) for t in tiles) == \
            pytest.approx(board.size[0] * board.size[1] * (63 / 2.2) ** 2)
        # each tab repeats exactly the first OVERLAP_MM of the neighbour it goes under
        by_place = {t.face.tile[:2]: t.face for t in tiles}
        for (r, c), face in by_place.items():
            if (r, c + 1) in by_place:
                assert face.box[2] - by_place[(r, c + 1)].box[0] == pytest.approx(face.tab[0] / (board.size[0] * 63 / 2.2))
            if (r + 1, c) in by_place:
                assert face.box[3] - by_place[(r + 1, c)].box[1] == pytest.approx(face.tab[1] / (board.size[1] * 63 / 2.2))


def test_tile_joins_carry_registration_marks_that_meet_and_a_shaded_tab() -> None:
    """Across every join the registration circles of the two tiles fall on the same points of the
    board (the tab's tile draws them on its dashed line, the neighbour on its edge), and the tab's
    art is washed lighter while the tile's own art is untouched."""
    from tts_builder.build import load_table_layout
    from tts_builder.printplay import KitImage, Slot, join_marks, kit_cards, shade_tab

    layout = load_table_layout("obren-buttons")
    kit, _ = kit_cards(layout, 63 / 2.2, PAPERS["a4"])
    tiles = {c.face.tile[:2]: c for c in kit if isinstance(c.face, KitImage) and c.face.tile is not None}
    assert len(tiles) == 4

    def on_board(card: Any) -> tuple[list[tuple[float, float, float, float]], set[tuple[float, float]]]:
        face = card.face
        ox, oy = face.box[0] * face.whole_mm[0], face.box[1] * face.whole_mm[1]  # the tile's corner on the board
        lines, circles = join_marks(Slot(0.0, 0.0, card.size_mm[0], card.size_mm[1], card), face)
        return ([(x0 + ox, y0 + oy, x1 + ox, y1 + oy) for x0, y0, x1, y1 in lines],
                {(round(x + ox, 6), round(y + oy, 6)) for x, y in circles})

    marks = {place: on_board(card) for place, card in tiles.items()}
    half = 12 * 63 / 2.2 / 2
    # r1c1's tab lines: where r1c2's left edge and r2c1's top edge lie on the board
    assert [ln[0] for ln in marks[(0, 0)][0] if ln[0] == ln[2]] == [pytest.approx(half)]
    assert [ln[1] for ln in marks[(0, 0)][0] if ln[1] == ln[3]] == [pytest.approx(half)]
    right = {p for p in marks[(0, 0)][1] if abs(p[0] - half) < 1e-6}
    assert len(right) == 2 and right <= marks[(0, 1)][1]  # the same circles, on the neighbour's left edge
    below = {p for p in marks[(0, 0)][1] if abs(p[1] - half) < 1e-6}
    assert len(below) == 2 and below <= marks[(1, 0)][1]
    assert marks[(1, 1)][0] == []  # the last tile has no tab
    # the tab is washed towards white; the rest of the tile is the board's art unchanged
    face = tiles[(0, 0)].face
    img = Image.new("RGB", (400, 400), (40, 40, 40))
    shaded = shade_tab(img, face)
    tab_px = round(400 * face.tab[0] / tiles[(0, 0)].size_mm[0])
    assert shaded.getpixel((399, 100))[0] > 120 and shaded.getpixel((100, 399))[0] > 120
    assert shaded.getpixel((400 - tab_px - 3, 100)) == (40, 40, 40)
    assert shade_tab(img, tiles[(1, 1)].face) is img
