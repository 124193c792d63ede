"""The size model: one function from (kind, image aspect, scale) to the footprint an object
covers on the TTS table, shared by the save (mat, boards, pieces, stacks), and so the art's
placement, and by the stand-in (:mod:`tts_builder.testing`).

The figures and their evidence are data (``tablesize.json``): a stretched ``Custom_Tile``'s
short side is about 2 units at scale 1 and its long side grows with the image's aspect
ratio, as the snap points attached to 91 tiles of the real saves show. Confidence: medium;
the README says what to measure in TTS first.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

__all__ = ["Footprint", "footprint", "model", "tile_scale", "TILE_SHORT_SIDE"]

Footprint = tuple[float, float]
"""World width (x) and depth (z) of an unrotated object."""


@cache
def model() -> dict[str, Any]:
    """The size model's data with its evidence (``tablesize.json``)."""
    data: dict[str, Any] = json.loads(resources.files("tts_builder").joinpath("tablesize.json").read_text("utf-8"))
    return data


TILE_SHORT_SIDE: float = float(model()["tile"]["short_side"])


def footprint(kind: str, aspect: float, scale: float) -> Footprint:
    """The (x, z) footprint of a ``kind`` object whose image is ``aspect`` wide per unit high,
    at uniform x/z ``scale``. ``kind``: ``"tile"`` (a stretched ``Custom_Tile``, which is also how
    the build lays boards, mats, tracks and two-faced pieces). Raises ``ValueError`` otherwise."""
    if aspect <= 0 or scale <= 0:
        raise ValueError(f"size model: aspect and scale must be positive (got {aspect}, {scale})")
    if kind != "tile":
        raise ValueError(f"size model: no footprint for kind {kind!r}")
    short = TILE_SHORT_SIDE * scale
    return (short * aspect, short) if aspect >= 1 else (short, short / aspect)


def tile_scale(width: float, depth: float) -> float:
    """The uniform scale that makes a stretched tile, its image drawn ``width`` x ``depth``,
    cover exactly ``width`` x ``depth`` on the table (the inverse of :func:`footprint`)."""
    if width <= 0 or depth <= 0:
        raise ValueError(f"size model: a tile must have a positive size (got {width} x {depth})")
    return min(width, depth) / TILE_SHORT_SIDE
