"""The art's shortcuts give the same pixels as the plain way, and the picture cache keeps them whole.

A text layer's mask is cut to its ink and remembered (:func:`tts_builder.art.render._text_mask`);
these tests draw text the plain way (a mask the size of the box, pasted whole) and compare. The
picture cache (:mod:`tts_builder.art.cache`) stores RLE TGA files with a CRC-32: a damaged one is
drawn again, and the files of earlier cache formats are removed.
"""

from __future__ import annotations

import io
import zlib
from pathlib import Path
from typing import Any

import pytest
from PIL import Image, ImageChops, ImageDraw

from tts_builder.art import fit_text, render_game_art
from tts_builder.art.render import _TRANSPOSE, _text_mask, font


def _plain_text(img: Image.Image, box: tuple[int, int, int, int], text: str, rot: float, stroke: int,
                colour: tuple[int, int, int]) -> None:
    """The text layer as the renderer drew it before masks were cut and remembered."""
    bw, bh = box[2] - box[0], box[3] - box[1]
    lw, lh = (bh, bw) if rot in (90.0, 270.0) else (bw, bh)
    fitted = fit_text(text, lw, lh, size_px=40, min_size_px=8, wrap=True, stroke_px=stroke, align="center")
    x, y = (lw - fitted.width) // 2 - fitted.bbox[0], (lh - fitted.height) // 2 - fitted.bbox[1]
    mask = Image.new("L", (lw, lh), 0)
    ImageDraw.Draw(mask).multiline_text((x, y), fitted.text, fill=255, font=font(fitted.size_px),
                                        spacing=fitted.spacing_px, align="center",
                                        stroke_width=fitted.stroke_px, stroke_fill=255)
    if rot in _TRANSPOSE:
        mask = mask.transpose(_TRANSPOSE[int(rot)])
    elif rot:
        mask = mask.rotate(rot, resample=Image.Resampling.BICUBIC, expand=True)
    px, py = box[0] + (bw - mask.width) // 2, box[1] + (bh - mask.height) // 2
    img.paste(colour, (px, py, px + mask.width, py + mask.height), mask)


def _cut_text(img: Image.Image, box: tuple[int, int, int, int], text: str, rot: float, stroke: int,
              colour: tuple[int, int, int]) -> None:
    """The same layer through :func:`_text_mask`, as :meth:`_Painter.text` pastes it."""
    bw, bh = box[2] - box[0], box[3] - box[1]
    lw, lh = (bh, bw) if rot in (90.0, 270.0) else (bw, bh)
    fitted = fit_text(text, lw, lh, size_px=40, min_size_px=8, wrap=True, stroke_px=stroke, align="center")
    x, y = (lw - fitted.width) // 2 - fitted.bbox[0], (lh - fitted.height) // 2 - fitted.bbox[1]
    ink = _text_mask(fitted, None, "center", lw, lh, x, y, rot)
    if ink is None:
        return
    mask, (ix, iy, mw, mh) = ink
    px, py = box[0] + (bw - mw) // 2 + ix, box[1] + (bh - mh) // 2 + iy
    img.paste(colour, (px, py, px + mask.width, py + mask.height), mask)


def _background() -> Image.Image:
    """A busy background (gradient and stripes): a pasted mask that touched a pixel it should not shows."""
    img = Image.linear_gradient("L").resize((300, 200)).convert("RGB")
    draw = ImageDraw.Draw(img)
    for x in range(0, 300, 7):
        draw.line([(x, 0), (x + 60, 200)], fill=(200, 30, 90), width=2)
    return img


@pytest.mark.parametrize("rot", [0.0, 90.0, 180.0, 270.0, 33.0, -12.5])
@pytest.mark.parametrize("stroke", [0, 3])
@pytest.mark.parametrize("box", [(20, 30, 260, 170), (-40, -10, 120, 90), (250, 150, 400, 260)])
def test_cut_mask_paints_the_same_pixels(rot: float, stroke: int, box: tuple[int, int, int, int]) -> None:
    text = "Twin Tower City 7\nAlpha Beta"
    plain, cut = _background(), _background()
    _plain_text(plain, box, text, rot % 360, stroke, (20, 200, 40))
    _cut_text(cut, box, text, rot % 360, stroke, (20, 200, 40))
    assert ImageChops.difference(plain, cut).getbbox() is None
    assert ImageChops.difference(plain, _background()).getbbox() is not None  # the text was drawn at all


def test_blank_text_has_no_mask() -> None:
    fitted = fit_text(" ", 100, 40, size_px=20)
    assert _text_mask(fitted, None, "center", 100, 40, 0, 0, 0.0) is None


def test_remembered_layout_is_the_same_layout() -> None:
    args: dict[str, Any] = {"size_px": 60, "min_size_px": 6, "wrap": True, "align": "left"}
    first = fit_text("a long label that has to shrink and wrap", 120, 50, **args)
    again = fit_text("a long label that has to shrink and wrap", 120, 50, **args)
    assert again == first and first.size_px < 60 and "\n" in first.text
    fit_text.cache_clear()
    assert fit_text("a long label that has to shrink and wrap", 120, 50, **args) == first


# --------------------------------------------------------------------------- the picture cache


def test_cache_pictures_round_trip_and_a_damaged_one_is_drawn_again(tmp_path: Path) -> None:
    from tests.test_art import make_source
    root = make_source(tmp_path / "src")
    out = tmp_path / "out"
    render_game_art("tiny", out, art_root=root)
    images, cache = out / "tiny" / "images", out / "tiny" / "art-cache"
    before = {p.name: p.read_bytes() for p in images.glob("*.png")}
    pictures = sorted(cache.glob("*.tga"))
    assert pictures and not list(cache.glob("*.rgbz"))
    for p in pictures:  # each one a TGA (RLE) with the CRC-32 of its bytes after it
        body = p.read_bytes()[:-4]
        assert zlib.crc32(body).to_bytes(4, "big") == p.read_bytes()[-4:]
        with Image.open(io.BytesIO(body)) as img:
            assert img.format == "TGA" and img.mode == "RGB" and img.info.get("compression") == "tga_rle"
    # one bit flipped in the middle of a picture (still a readable TGA), one cut short
    flipped, cut = pictures[0], pictures[1]
    data = bytearray(flipped.read_bytes())
    data[len(data) // 2] ^= 0x10
    flipped.write_bytes(bytes(data))
    cut.write_bytes(cut.read_bytes()[:-100])
    for p in images.glob("*.png"):  # the outputs must be made again, from the cache
        p.unlink()
    again = render_game_art("tiny", out, art_root=root)
    assert again.rendered == 2  # the two damaged pictures, and only they, were drawn again
    assert {p.name: p.read_bytes() for p in images.glob("*.png")} == before


def test_pictures_of_earlier_cache_formats_are_removed(tmp_path: Path) -> None:
    from tests.test_art import make_source
    root = make_source(tmp_path / "src")
    out = tmp_path / "out"
    render_game_art("tiny", out, art_root=root)
    cache = out / "tiny" / "art-cache"
    digest = sorted(cache.glob("*.tga"))[0].name[:64]
    old = [cache / f"{digest}-10x10.rgbz", cache / f"{digest}.png"]
    for p in old:
        p.write_bytes(b"old")
    keep = cache / "notes.txt"
    keep.write_text("not ours")
    render_game_art("tiny", out, art_root=root)
    assert not any(p.exists() for p in old) and keep.exists()
