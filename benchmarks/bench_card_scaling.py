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
* ``hamming``, ``bilinear``: drawn at 300 dpi, scaled with that filter.

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

from PIL import Image  # noqa: E402

import tts_builder.art.cache as cache_module  # noqa: E402
from tts_builder.art import render_game_art  # noqa: E402
from tts_builder.art.pipeline import psnr  # noqa: E402
from tts_builder.art.source import ArtSource  # noqa: E402

PSNR_BOUND = 40.0
DEFAULT_GAMES = ("two-and-two", "twin-tower-city")


@contextmanager
def scaled_with(resample: Image.Resampling) -> Iterator[None]:
    """Card pictures scaled to their cells with ``resample`` instead of Lanczos."""
    original = cache_module.scale_to

    def scale(img: Image.Image, size: tuple[int, int], _ignored: object = None) -> Image.Image:
        return img if img.size == size else img.resize(size, resample)

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


@contextmanager
def unchanged() -> Iterator[None]:
    yield


VARIANTS: dict[str, Callable[[], AbstractContextManager[None]]] = {
    "as-built": unchanged,
    "lanczos": lambda: scaled_with(Image.Resampling.LANCZOS),
    "sheet-dpi": drawn_at_sheet_dpi,
    "hamming": lambda: scaled_with(Image.Resampling.HAMMING),
    "bilinear": lambda: scaled_with(Image.Resampling.BILINEAR),
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
                print(f"  {variant:10s} {statistics.median(seconds[variant]):6.3f} s   {low:5.1f} dB ({name})  "
                      f"{ok} the {PSNR_BOUND:g} dB bound")
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
