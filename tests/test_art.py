"""The art pipeline: sources, renderer, TTS sheet packer, incremental cache, Two & Two art."""

from __future__ import annotations

import copy
import importlib
import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageDraw

from tts_builder.art import (MAX_COLUMNS, MAX_ROWS, MAX_SHEET_PX, ArtManifest, fit_text, load_art_source,
                             load_rules_data, plan_sheets, render_card, render_game_art, render_sheets_command)
from tts_builder.art.render import font, geometry
from tts_builder.art.sheets import compose_sheet
from tts_builder.art.source import art_root, mm_to_px
from tts_builder.errors import InputError

GAME = "two-and-two"


# --------------------------------------------------------------------------- a tiny test game source

TINY_DATA: dict[str, Any] = {
    "name": "Tiny",
    "cards": [
        {"key": "a", "kind": "card", "label": "Alpha", "quantity": 2},
        {"key": "b", "kind": "card", "label": "Beta"},
        {"key": "c", "kind": "card", "label": "Gamma"},
        {"key": "d", "kind": "card", "label": "Delta", "quantity": 3},
        {"key": "e", "kind": "card", "label": "Epsilon"},
        {"key": "tok", "kind": "token", "label": "T"},
    ],
}

TINY_ART: dict[str, Any] = {
    "format": 1,
    "components": {"file": "data.json", "rows": "cards"},
    "context": ["name"],
    "dpi": 60,
    "palette": {"ink": "#101010", "paper": "#fffdf5", "red": "#d02020"},
    "shapes": {"dot": {"aspect": 1, "layers": [{"type": "ellipse", "box": [0, 0, 1, 1], "fill": "red"}]}},
    "layouts": {
        "card": {
            "size_mm": [40, 56], "bleed_mm": 2, "safe_mm": 2, "background": "paper",
            "layers": [
                {"type": "rect", "box": [-2, -2, 44, 10], "fill": "#3060c0"},
                {"type": "text", "box": [2, 10, 36, 10], "text": "{{ label | upper }}", "size_pt": 16,
                 "min_size_pt": 3, "color": "ink"},
                {"type": "shape", "box": [10, 24, 20, 20], "name": "dot"},
            ],
        },
        "back": {"size_mm": [40, 56], "bleed_mm": 2, "background": "#203040",
                 "layers": [{"type": "text", "box": "safe", "text": "{{ game.name }}", "size_pt": 12,
                             "color": "paper", "rotate": 90}]},
        "token": {"size_mm": [20, 20], "background": "#ffcc00",
                  "layers": [{"type": "text", "box": "cut", "text": "{{ label }}", "size_pt": 20}]},
    },
    "kinds": {"card": "card", "token": "token"},
    "decks": [{"key": "main", "kinds": ["card"], "back": "back", "back_is_hidden": False}],
    "standalone": [{"kinds": ["token"]}],
    "tts": {"dpi": 60},
    "thumbnail": {"cards": ["a", "b", "c"], "title": "{{ game.name }}"},
}


def make_source(root: Path, *, art: dict[str, Any] | None = None, data: dict[str, Any] | None = None,
                game: str = "tiny") -> Path:
    folder = root / game
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "art.json").write_text(json.dumps(art if art is not None else TINY_ART), encoding="utf-8")
    (folder / "data.json").write_text(json.dumps(data if data is not None else TINY_DATA), encoding="utf-8")
    return root


def pngs(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.glob("*.png"))}


# --------------------------------------------------------------------------- packer


def check_plans(n: int, w: int, h: int, hidden: bool) -> None:
    keys = [f"k{i}" for i in range(n)]
    plans = plan_sheets(keys, w, h, back_is_hidden=hidden)
    placed: list[str] = []
    for p in plans:
        assert 1 <= p.num_width <= MAX_COLUMNS and 1 <= p.num_height <= MAX_ROWS
        assert p.width <= MAX_SHEET_PX and p.height <= MAX_SHEET_PX
        assert p.width % p.num_width == 0 and p.height % p.num_height == 0
        assert 1 <= len(p.cards) <= p.capacity
        assert p.capacity == p.cells - (0 if hidden else 1)
        assert p.cell_width <= w and p.cell_height <= h  # never enlarged
        # scaled down (or not) keeping the aspect: one factor s gives both sides, floor(side * s)
        cw, ch = p.cell_width, p.cell_height
        low = max(cw / w if cw > 1 else 0.0, ch / h if ch > 1 else 0.0)
        assert low < min((cw + 1) / w, (ch + 1) / h)
        placed.extend(p.cards)
    assert placed == keys  # every card once, in order: sheet by sheet, row-major slots
    cap = 70 if hidden else 69
    assert len(plans) == -(-n // cap)


@pytest.mark.parametrize("n", [1, 69, 70, 71, 200])
@pytest.mark.parametrize("hidden", [False, True])
@pytest.mark.parametrize("size", [(496, 693), (744, 1039), (1200, 1200), (30, 2000)])
def test_packer_limits(n: int, hidden: bool, size: tuple[int, int]) -> None:
    check_plans(n, *size, hidden)


@settings(max_examples=150, deadline=None)
@given(n=st.integers(1, 400), w=st.integers(1, 3000), h=st.integers(1, 3000), hidden=st.booleans())
def test_packer_limits_property(n: int, w: int, h: int, hidden: bool) -> None:
    check_plans(n, w, h, hidden)


def test_hidden_cell_rule_counts() -> None:
    # BackIsHidden false: the last cell is the hidden face, so 69 cards fill a 10x7 sheet, 70 need two.
    one = plan_sheets([str(i) for i in range(69)], 400, 560, back_is_hidden=False)
    assert [(p.num_width, p.num_height, len(p.cards), p.hidden_slot) for p in one] == [(10, 7, 69, 69)]
    assert len(plan_sheets([str(i) for i in range(70)], 400, 560, back_is_hidden=False)) == 2
    # BackIsHidden true: every cell holds a card.
    full = plan_sheets([str(i) for i in range(70)], 400, 560, back_is_hidden=True)
    assert [(p.num_width, p.num_height, len(p.cards), p.hidden_slot) for p in full] == [(10, 7, 70, None)]
    # A single card still needs a second cell for the hidden face.
    single = plan_sheets(["x"], 400, 560, back_is_hidden=False)[0]
    assert single.cells >= 2 and single.hidden_slot == single.cells - 1


@pytest.mark.parametrize("hidden", [False, True])
def test_compose_slots_row_major_and_hidden_cell(hidden: bool) -> None:
    n = 7
    plan = plan_sheets([f"k{i}" for i in range(n)], 20, 30, back_is_hidden=hidden)[0]
    colours = [(10 * i + 5, 200 - 10 * i, 40) for i in range(n)]
    pics = [Image.new("RGB", (20, 30), c) for c in colours]
    hidden_pic = Image.new("RGB", (20, 30), (255, 0, 255))
    sheet = compose_sheet(plan, pics, hidden=None if hidden else hidden_pic, empty=(0, 0, 0))
    assert sheet.mode == "RGB" and sheet.size == (plan.width, plan.height)
    for slot, colour in enumerate(colours):
        col, row = slot % plan.num_width, slot // plan.num_width
        assert sheet.getpixel((col * plan.cell_width + 10, row * plan.cell_height + 15)) == colour
    last = plan.cells - 1
    centre = ((last % plan.num_width) * plan.cell_width + 10, (last // plan.num_width) * plan.cell_height + 15)
    if hidden:
        assert plan.hidden_slot is None
    else:
        assert plan.hidden_slot == last and sheet.getpixel(centre) == (255, 0, 255)
        with pytest.raises(ValueError):
            compose_sheet(plan, pics, hidden=None)


def test_scaled_sheet_fits_4096() -> None:
    plans = plan_sheets([str(i) for i in range(70)], 1000, 1400, back_is_hidden=True)
    assert len(plans) == 1
    p = plans[0]
    assert (p.num_width, p.num_height) == (10, 7)
    assert p.width <= 4096 and p.height <= 4096
    assert p.cell_width == 409 and abs(p.cell_height - 409 * 1.4) <= 1


# --------------------------------------------------------------------------- renderer

LONG = "This reminder text is far too long for its little box and has to shrink a good deal to fit"


def test_shrink_to_fit_shrinks_until_it_fits() -> None:
    box_w, box_h = 300, 80
    big = fit_text(LONG, box_w, box_h, size_px=48)  # no min size: no shrinking
    assert big.size_px == 48 and not big.fits
    fitted = fit_text(LONG, box_w, box_h, size_px=48, min_size_px=6, wrap=True)
    assert fitted.fits and fitted.size_px < 48
    measure = ImageDraw.Draw(Image.new("L", (1, 1)))
    left, top, right, bottom = measure.multiline_textbbox((0, 0), fitted.text, font=font(fitted.size_px),
                                                          spacing=fitted.spacing_px)
    assert right - left <= box_w and bottom - top <= box_h
    # the largest size that fits: one pixel more does not
    assert not fit_text(LONG, box_w, box_h, size_px=fitted.size_px + 1, wrap=True).fits
    # a floor that is too high: laid out at the floor, flagged as not fitting
    floor = fit_text(LONG, 40, 10, size_px=48, min_size_px=20)
    assert floor.size_px == 20 and not floor.fits


def test_rotated_text_is_rotated(tmp_path: Path) -> None:
    art = copy.deepcopy(TINY_ART)
    text = {"type": "text", "box": [5, 10, 30, 20], "text": "Ab 12", "size_pt": 18, "color": "ink"}
    art["layouts"] = {
        "up": {"size_mm": [40, 40], "background": "paper", "layers": [text]},
        "down": {"size_mm": [40, 40], "background": "paper", "layers": [{**text, "rotate": 180}]},
    }
    art["kinds"] = {"card": "up", "token": "down"}
    art["decks"], art["standalone"] = [], [{"kinds": ["card", "token"]}]
    art.pop("thumbnail")
    src = load_art_source("tiny", root=make_source(tmp_path, art=art))
    row = src.row("a")
    up = render_card(src, src.layouts["up"], row)
    down = render_card(src, src.layouts["down"], row)
    box = (mm_to_px(5, 60), mm_to_px(10, 60), mm_to_px(35, 60), mm_to_px(30, 60))
    a, b = up.crop(box), down.crop(box)
    assert a.tobytes() != b.tobytes()
    assert a.convert("L").getextrema()[0] < 100  # there is ink in the box
    assert b.tobytes() == a.transpose(Image.Transpose.ROTATE_180).tobytes()


# --------------------------------------------------------------------------- pipeline on the tiny source


def test_incremental_and_deterministic(tmp_path: Path) -> None:
    root = make_source(tmp_path / "src")
    out = tmp_path / "out"
    first = render_game_art("tiny", out, art_root=root)
    # 5 faces + the back (which is also the hidden face: one picture) + the token
    assert (first.rendered, first.reused) == (7, 0)
    images = out / "tiny" / "images"
    before = pngs(images)
    assert set(before) == {"main-1.png", "main-back.png", "tok.png", "thumbnail.png"}
    second = render_game_art("tiny", out, art_root=root)
    assert (second.rendered, second.reused) == (0, 7)
    assert pngs(images) == before
    cached_before = {p.name[:64] for p in (out / "tiny" / "art-cache").glob("*.tga")}

    # the same inputs in another folder: byte-identical images
    render_game_art("tiny", tmp_path / "other", art_root=root)
    assert pngs(tmp_path / "other" / "tiny" / "images") == before

    # change one row's field: exactly that card is drawn again
    data = copy.deepcopy(TINY_DATA)
    data["cards"][2]["label"] = "Gamma prime"
    make_source(tmp_path / "src", data=data)
    third = render_game_art("tiny", out, art_root=root)
    assert (third.rendered, third.reused) == (1, 6)
    after = pngs(images)
    assert after["main-1.png"] != before["main-1.png"]
    assert after["main-back.png"] == before["main-back.png"] and after["tok.png"] == before["tok.png"]
    cached = {p.name[:64] for p in (out / "tiny" / "art-cache").glob("*.tga")}  # digest-WxH.tga
    assert len(cached) == 7 and len(cached - cached_before) == 1  # the stale picture is pruned


def test_manifest_round_trip_and_file(tmp_path: Path) -> None:
    root = make_source(tmp_path / "src")
    m = render_game_art("tiny", tmp_path / "out", art_root=root)
    data = json.loads(json.dumps(m.to_json()))
    assert ArtManifest.from_json(data) == m
    written = json.loads((tmp_path / "out" / "tiny" / "images" / "manifest.json").read_text())
    assert written == m.to_json()
    deck = m.decks["main"]
    sheet = deck.sheets[0]
    assert sheet.cards == ("a", "b", "c", "d", "e")
    assert {k: (s.sheet, s.slot) for k, s in deck.slots.items()} == {k: (0, i) for i, k in enumerate("abcde")}
    assert deck.copies["a"] == ("a-1", "a-2") and deck.copies["b"] == ("b",)
    assert deck.card_id("c", [7]) == 702
    assert not sheet.back_is_hidden and sheet.num_width * sheet.num_height >= 6
    face = Image.open(tmp_path / "out" / "tiny" / "images" / sheet.face)
    assert face.mode in ("P", "RGB") and face.size == (sheet.width, sheet.height)
    assert sheet.width % sheet.num_width == 0 and sheet.height % sheet.num_height == 0
    assert (sheet.card_width, sheet.card_height) == (mm_to_px(40, 60), mm_to_px(56, 60))
    tok = m.standalone["tok"]
    assert Image.open(tmp_path / "out" / "tiny" / "images" / tok.face).size == (tok.width, tok.height)
    thumb = Image.open(tmp_path / "out" / "tiny" / "images" / "thumbnail.png")
    assert thumb.size == (256, 256) and thumb.format == "PNG"


def test_unique_backs_share_the_face_grid(tmp_path: Path) -> None:
    art = copy.deepcopy(TINY_ART)
    art["decks"][0].update(unique_back=True, back_is_hidden=True)
    art["layouts"]["back"]["layers"] = [{"type": "text", "box": "safe", "text": "{{ key }}", "size_pt": 20}]
    data = copy.deepcopy(TINY_DATA)
    data["cards"][:5] = [{"key": f"x{i}", "kind": "card", "label": f"L{i}"} for i in range(75)]
    art["thumbnail"]["cards"] = ["x0", "x1"]
    root = make_source(tmp_path / "src", art=art, data=data)
    m = render_game_art("tiny", tmp_path / "out", art_root=root)
    sheets = m.decks["main"].sheets
    assert len(sheets) == 2 and [len(s.cards) for s in sheets] == [38, 37]
    for s in sheets:
        face = Image.open(tmp_path / "out" / "tiny" / "images" / s.face)
        back = Image.open(tmp_path / "out" / "tiny" / "images" / s.back)
        assert s.unique_back and s.back != s.face and face.size == back.size
    assert m.decks["main"].slots["x40"].sheet == 1 and m.decks["main"].slots["x40"].slot == 2
    assert m.rendered == 75 * 2 + 1  # faces, backs, token


def test_stale_sheets_are_removed(tmp_path: Path) -> None:
    art = copy.deepcopy(TINY_ART)
    data = copy.deepcopy(TINY_DATA)
    data["cards"][:5] = [{"key": f"x{i}", "kind": "card", "label": f"L{i}"} for i in range(72)]
    art["thumbnail"]["cards"] = ["x0"]
    root = make_source(tmp_path / "src", art=art, data=data)
    render_game_art("tiny", tmp_path / "out", art_root=root)
    images = tmp_path / "out" / "tiny" / "images"
    assert (images / "main-2.png").is_file()
    data["cards"][:72] = data["cards"][:3]
    make_source(tmp_path / "src", art=art, data=data)
    render_game_art("tiny", tmp_path / "out", art_root=root)
    assert (images / "main-1.png").is_file() and not (images / "main-2.png").exists()


def test_source_errors_are_one_line(tmp_path: Path) -> None:
    with pytest.raises(InputError) as unknown:
        render_game_art("no-such-game", tmp_path / "out")
    assert "no-such-game" in str(unknown.value) and "\n" not in str(unknown.value)

    art = copy.deepcopy(TINY_ART)
    art["layouts"]["card"]["layers"][0]["colour"] = "#fff"
    with pytest.raises(InputError, match=r"layouts\.card\.layers\[0\]: unknown field 'colour'"):
        load_art_source("tiny", root=make_source(tmp_path / "a", art=art))

    data = copy.deepcopy(TINY_DATA)
    data["cards"].append({"key": "z", "kind": "tile"})
    with pytest.raises(InputError, match="row 'z'.*no deck"):
        render_game_art("tiny", tmp_path / "out", art_root=make_source(tmp_path / "b", data=data))

    art = copy.deepcopy(TINY_ART)
    art["layouts"]["card"]["layers"][1]["text"] = "{{ lable }}"
    with pytest.raises(InputError, match="lable"):
        render_game_art("tiny", tmp_path / "out", art_root=make_source(tmp_path / "c", art=art))


def test_sheets_command_prints_summary(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    import tts_builder.art.source as source_mod
    root = make_source(tmp_path / "src")
    monkeypatch.setattr(source_mod, "art_root", lambda: root)
    assert render_sheets_command("tiny", tmp_path / "out") == 0
    line = capsys.readouterr().out.strip()
    assert line.startswith("tiny: 5 card designs (8 cards) on 1 sheet(s)") and "\n" not in line


# --------------------------------------------------------------------------- Two & Two


def test_art_src_resources() -> None:
    assert (art_root() / GAME / "art.json").is_file()
    files = importlib.import_module("importlib.resources").files("art_src")
    assert (files / GAME / "art.json").is_file()


@pytest.fixture(scope="module")
def two_and_two() -> Any:
    return load_art_source(GAME)


@pytest.fixture(scope="module")
def low_res_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, ArtManifest]:
    """The real Two & Two art source at 60 DPI (same layouts and rows, fast)."""
    root = tmp_path_factory.mktemp("t22src")
    shutil.copytree(Path(str(art_root() / GAME)), root / GAME)
    art = json.loads((root / GAME / "art.json").read_text())
    art["dpi"] = art["tts"]["dpi"] = 60
    (root / GAME / "art.json").write_text(json.dumps(art))
    out = tmp_path_factory.mktemp("t22out")
    return root, render_game_art(GAME, out, art_root=root)


def test_two_and_two_reads_the_rules_data(two_and_two: Any) -> None:
    data = load_rules_data("rules.two_and_two", GAME)
    assert [r.key for r in two_and_two.rows] == [c["key"] for c in data["cards"]]
    assert two_and_two.components == "rules/two_and_two/two-and-two.json"


def test_two_and_two_every_in_play_design_has_a_slot(low_res_run: tuple[Path, ArtManifest]) -> None:
    _, m = low_res_run
    data = load_rules_data("rules.two_and_two", GAME)
    in_play = {c["key"]: c["quantity"] for c in data["cards"] if c.get("in_play", True)}
    deck = m.decks["deck"]
    assert set(deck.slots) == set(in_play)
    assert sum(len(ids) for ids in deck.copies.values()) == sum(in_play.values()) == 50
    assert set(m.decks["examples"].slots) == {c["key"] for c in data["cards"] if not c.get("in_play", True)}
    slots = [(s.sheet, s.slot) for s in deck.slots.values()]
    assert len(set(slots)) == len(slots)
    assert m.thumbnail == "thumbnail.png"


def test_two_and_two_is_deterministic(low_res_run: tuple[Path, ArtManifest], tmp_path: Path) -> None:
    root, m = low_res_run
    again = render_game_art(GAME, tmp_path, art_root=root)
    assert again.files == m.files  # same sha256 for every image
    assert ArtManifest.from_json(json.loads(json.dumps(m.to_json()))) == m


def _window(src: Any, key: str, position: int) -> Image.Image:
    """The inside of symbol window ``position`` (1-4) of card ``key`` at full resolution."""
    layout = src.layouts["symbol"]
    shape = next(l for l in layout.layers if l["type"] == "shape" and "repeat" in l)
    x, y, w, h = shape["box"]
    dy = shape["repeat"]["step_mm"][1] * (position - 1)
    cut = geometry(layout, src.dpi).cut
    k = src.dpi / 25.4
    inset = 1.0
    box = (cut[0] + round((x + inset) * k), cut[1] + round((y + dy + inset) * k),
           cut[0] + round((x + w - inset) * k), cut[1] + round((y + dy + h - inset) * k))
    return render_card(src, layout, src.row(key), deck="deck").crop(box)


def _counts(img: Image.Image) -> tuple[int, int, int]:
    """(reddish, bluish, dark) pixel counts."""
    red = blue = dark = 0
    raw = img.convert("RGB").tobytes()
    for r, g, b in zip(raw[0::3], raw[1::3], raw[2::3]):
        red += r > 150 and g < 110 and b < 90
        blue += b > 130 and r < 90
        dark += r + g + b < 330
    return red, blue, dark


@pytest.mark.parametrize("position", [1, 2, 3, 4])
def test_two_and_two_windows_show_square_diamond_hole(two_and_two: Any, position: int) -> None:
    square = "c" + "".join("1" if p == position else "0" for p in range(1, 5))
    diamond = square.replace("1", "2")
    other = 1 if position != 1 else 2  # a one-symbol card whose symbol is elsewhere: a hole here
    hole = "c" + "".join("1" if p == other else "0" for p in range(1, 5))
    pics = {name: _window(two_and_two, key, position) for name, key in
            (("square", square), ("diamond", diamond), ("hole", hole))}
    assert len({p.tobytes() for p in pics.values()}) == 3
    area = pics["hole"].width * pics["hole"].height
    red, blue, dark = _counts(pics["square"])
    assert red > area * 0.2 and blue == 0
    red, blue, dark = _counts(pics["diamond"])
    assert blue > area * 0.2 and red == 0
    red, blue, dark = _counts(pics["hole"])
    assert red == 0 and blue == 0 and dark > area * 0.6  # an empty, dark window


def test_two_and_two_ids_in_both_corners(two_and_two: Any) -> None:
    """Top-right: the id upright. Bottom-left: turned 180 degrees, and reversed, so that from the
    other end it reads the positions top to bottom as they then appear (c1020 turned over shows 0201)."""
    src = two_and_two
    layout = src.layouts["symbol"]
    texts = [l for l in layout.layers if l["type"] == "text" and "code" in l["text"]]
    assert [l.get("rotate", 0) for l in texts] == [0, 180]
    cut = geometry(layout, src.dpi).cut
    k = src.dpi / 25.4

    def ink(key: str, layer: dict[str, Any]) -> Image.Image:
        """Text coverage in the layer's box (0..255), whatever the background colour."""
        x, y, w, h = layer["box"]
        box = (cut[0] + round(x * k), cut[1] + round(y * k), cut[0] + round((x + w) * k), cut[1] + round((y + h) * k))
        img = render_card(src, layout, src.row(key), deck="deck").crop(box).convert("L")
        background, text = img.getextrema()[1], img.getextrema()[0]
        mask = img.point(lambda v: round(255 * (background - v) / (background - text)))
        return mask.crop(mask.point(lambda v: 255 if v > 40 else 0).getbbox())  # the text's own box

    def differ(a: Image.Image, b: Image.Image) -> float:
        """Share of text pixels where two coverage masks disagree by more than a third."""
        if a.size != b.size:
            return 1.0
        pa, pb = a.tobytes(), b.tobytes()
        inked = sum(1 for v in pa if v > 128) or 1
        return sum(1 for u, v in zip(pa, pb) if abs(u - v) > 85) / inked

    top_right, bottom_left = ink("c1020", texts[0]), ink("c1020", texts[1])
    assert top_right.getbbox() is not None and bottom_left.getbbox() is not None
    turned = bottom_left.transpose(Image.Transpose.ROTATE_180)
    assert differ(turned, ink("c0201", texts[0])) < 0.02  # reads "0 2 0 1" from the other end
    assert differ(turned, top_right) > 0.3  # and not "1 0 2 0"
    assert layout.vars["label"] == "TOP"  # the orientation band is labelled
