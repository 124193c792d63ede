"""Cheaper ways to bring card pictures to their sheet cells, against the lossless (Lanczos) sheets (issue 12).

    python benchmarks/bench_card_scaling.py [--games G ...] [--rounds N]

A card is drawn at the art's DPI (300) and scaled to its cell (the sheet's 200 dpi): with
Lanczos it was about a quarter of a cold build, more than anything but the encode; a palette
build now scales with bicubic, a ``--lossless`` one still with Lanczos. Each variant below
renders a game's art (:func:`tts_builder.art.render_game_art`, one process, cold) with one
change, and prints its CPU seconds (median of ``--rounds``) and, per image, the lowest PSNR of
its palette PNGs (what a build writes) against the lossless images (Lanczos: the pixels before
issue 12), the bound of issue 12 being 40 dB:

* ``as-built``: the palette build as it is (bicubic);
* ``lanczos``: cards scaled with Lanczos, as before (the encoder's own loss only);
* ``sheet-dpi``: cards drawn at the sheet's DPI, no scaling (the art's geometry and text sizes
  rounded at 200 dpi instead of 300);
* ``hamming``, ``bilinear``: drawn at 300 dpi, scaled with that filter;
* ``sheet-dpi-aa``: drawn at the sheet's DPI, every shape but a square-cornered rectangle
  anti-aliased (drawn 4x into a mask of its box, reduced): what a renderer drawing at the sheet's
  DPI would cost with Pillow alone (a sketch for that decision: the layers' coordinates are still
  rounded to whole pixels first).

Nothing here changes the build; it is the evidence for which of these a build may use.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent))

from PIL import Image, ImageDraw  # noqa: E402

import tts_builder.art.cache as cache_module  # noqa: E402
import tts_builder.art.render as render_module  # noqa: E402
from tts_builder.art import render_game_art  # noqa: E402
from tts_builder.art.pipeline import psnr  # noqa: E402
from tts_builder.art.source import ArtSource  # noqa: E402

PSNR_BOUND = 40.0
DEFAULT_GAMES = ("two-and-two", "twin-tower-city")


@contextmanager
def scaled_with(resample: Image.Resampling) -> Iterator[None]:
    """Card pictures scaled to their cells with ``resample`` instead of Lanczos."""
    original, chosen = cache_module.scale_to, resample

    def scale(img: Image.Image, size: tuple[int, int],
              resample: Image.Resampling = Image.Resampling.LANCZOS) -> Image.Image:  # (ignored)
        return img if img.size == size else img.resize(size, chosen)

    cache_module.scale_to = scale
    try:
        yield
    finally:
        cache_module.scale_to = original


@contextmanager
def drawn_at_sheet_dpi() -> Iterator[None]:
    """Card pictures drawn at the sheet's DPI (``tts.dpi``): the cache's source gets that DPI."""
    original = cache_module.PictureCache.__init__

    def init(self: cache_module.PictureCache, folder: Path, source: ArtSource, *args: Any, **kwargs: Any) -> None:
        original(self, folder, dataclasses.replace(source, dpi=source.tts.dpi), *args, **kwargs)

    cache_module.PictureCache.__init__ = init  # type: ignore[method-assign]
    try:
        yield
    finally:
        cache_module.PictureCache.__init__ = original  # type: ignore[method-assign]


#: the supersampling of :func:`drawn_anti_aliased`'s shape masks
AA_SCALE = 4


def _paste_aa(img: Image.Image, box: tuple[int, int, int, int], colour: tuple[int, ...],
              draw: Callable[[ImageDraw.ImageDraw], None]) -> None:
    """``colour`` pasted through the mask ``draw`` makes at AA_SCALE times ``box``'s size, reduced."""
    mask = Image.new("L", ((box[2] - box[0]) * AA_SCALE, (box[3] - box[1]) * AA_SCALE), 0)
    draw(ImageDraw.Draw(mask))
    img.paste(colour, box, mask.reduce(AA_SCALE))


def _aa_layer(original: Callable[..., None]) -> Callable[..., None]:
    """The painter's ``layer`` with ellipses, round-cornered rectangles, polygons and lines
    anti-aliased; anything else drawn by ``original``."""
    k = AA_SCALE

    def layer(self: Any, img: Image.Image, layer: Any, m: Any, dx: float, dy: float) -> None:
        kind = layer["type"]
        radius = m.length(layer.get("radius_mm", 0.0))
        if kind not in ("rect", "ellipse", "polygon", "line") or (kind == "rect" and radius == 0):
            return original(self, img, layer, m, dx, dy)
        fill, outline = layer.get("fill"), layer.get("outline")
        width = max(1, m.length(layer.get("width_mm", 0.0))) if outline is not None or kind == "line" else 0
        if kind in ("rect", "ellipse"):
            box = m.box(layer["box"], dx, dy)
            if box[2] <= box[0] or box[3] <= box[1]:
                return
            xy = (0, 0, (box[2] - box[0]) * k - 1, (box[3] - box[1]) * k - 1)
            for colour, line in ((fill, 0), (outline, width)):  # the fill, then the outline over it
                if colour is None:
                    continue
                paint: dict[str, Any] = {"outline": 255, "width": line * k} if line else {"fill": 255}

                def shape(d: ImageDraw.ImageDraw, paint: dict[str, Any] = paint) -> None:
                    if kind == "rect":
                        d.rounded_rectangle(xy, radius=radius * k, **paint)
                    else:
                        d.ellipse(xy, **paint)
                _paste_aa(img, box, tuple(colour[:3]), shape)
            return
        pts = [m.point(x, y, dx, dy) for x, y in layer["points"]]
        pad = width + 2
        box = (int(min(p[0] for p in pts)) - pad, int(min(p[1] for p in pts)) - pad,
               int(max(p[0] for p in pts)) + pad + 1, int(max(p[1] for p in pts)) + pad + 1)
        big = [((x - box[0]) * k, (y - box[1]) * k) for x, y in pts]
        if kind == "line":
            colour = layer.get("color") or (0, 0, 0)
            _paste_aa(img, box, tuple(colour[:3]), lambda d: d.line(big, fill=255, width=width * k, joint="curve"))
            return
        if fill is not None:
            _paste_aa(img, box, tuple(fill[:3]), lambda d: d.polygon(big, fill=255))
        if outline is not None:
            _paste_aa(img, box, tuple(outline[:3]),
                      lambda d: d.line([*big, big[0], big[1]], fill=255, width=width * k, joint="curve"))

    return layer


@contextmanager
def drawn_anti_aliased() -> Iterator[None]:
    """Drawn at the sheet's DPI (:func:`drawn_at_sheet_dpi`), shapes anti-aliased (:func:`_aa_layer`)."""
    original = render_module._Painter.layer
    render_module._Painter.layer = _aa_layer(original)  # type: ignore[method-assign]
    try:
        with drawn_at_sheet_dpi():
            yield
    finally:
        render_module._Painter.layer = original  # type: ignore[method-assign]


@contextmanager
def unchanged() -> Iterator[None]:
    yield


VARIANTS: dict[str, Callable[[], AbstractContextManager[None]]] = {
    "as-built": unchanged,
    "lanczos": lambda: scaled_with(Image.Resampling.LANCZOS),
    "sheet-dpi": drawn_at_sheet_dpi,
    "hamming": lambda: scaled_with(Image.Resampling.HAMMING),
    "bilinear": lambda: scaled_with(Image.Resampling.BILINEAR),
    "sheet-dpi-aa": drawn_anti_aliased,
}


def render(game: str, variant: str, out: Path, lossless: bool = False) -> float:
    """CPU seconds of one cold art render of ``game`` under ``variant`` into ``out``."""
    shutil.rmtree(out, ignore_errors=True)
    with VARIANTS[variant]():
        start = time.process_time()
        render_game_art(game, out, lossless=lossless, jobs=1)
        return time.process_time() - start


def worst_psnr(images: Path, reference: Path) -> tuple[float, str]:
    """The lowest PSNR of ``images``' PNGs against ``reference``'s (same names), and that image."""
    worst = (math.inf, "")
    for ref in sorted(reference.glob("*.png")):
        with Image.open(ref) as a, Image.open(images / ref.name) as b:
            worst = min(worst, (psnr(a.convert("RGB"), b.convert("RGB")), ref.name))
    return worst


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--games", nargs="+", default=list(DEFAULT_GAMES))
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args(argv)
    from tts_builder.allocator import keep_freed_memory
    keep_freed_memory()  # as a build runs
    work = Path(tempfile.mkdtemp(prefix="bench-scaling-"))
    try:
        for game in args.games:
            reference = work / "reference"
            render(game, "as-built", reference, lossless=True)
            seconds: dict[str, list[float]] = {v: [] for v in VARIANTS}
            for r in range(args.rounds):
                for variant in VARIANTS:
                    seconds[variant].append(render(game, variant, work / variant))
            print(f"{game}: art render (cold, CPU s, median of {args.rounds}), lowest PSNR of its palette "
                  f"images against the lossless ones")
            for variant in VARIANTS:
                low, name = worst_psnr(work / variant / game / "images", reference / game / "images")
                ok = "within" if low >= PSNR_BOUND else "OUTSIDE"
                print(f"  {variant:12s} {statistics.median(seconds[variant]):6.3f} s   {low:5.1f} dB ({name})  "
                      f"{ok} the {PSNR_BOUND:g} dB bound")
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
