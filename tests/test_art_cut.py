"""Drawing a card's cut box only (``draw_resolved(cut=True)``, what the sheets and thumbnails use)
gives the same pixels as drawing it whole, bleed included, and trimming: for every face and back
of every game's art, whatever its shapes, text and pictures reach into the bleed."""

from __future__ import annotations

import dataclasses

import pytest

import rules
from PIL import Image

from tts_builder.art import load_art_source
from tts_builder.art.cache import PictureCache
from tts_builder.art.pipeline import _assign_rows
from tts_builder.art.render import draw_resolved, geometry, resolve_card, trim


def _resolved_cards(game_id: str):  # type: ignore[no-untyped-def]
    source = load_art_source(game_id)
    decks, standalone = _assign_rows(source)
    for deck in source.decks:
        for row in decks[deck.key]:
            yield source, resolve_card(source, source.layout_for(row), row, deck=deck.key)
        for key in {deck.back, deck.hidden or deck.back}:
            yield source, resolve_card(source, source.layouts[key], None, deck=deck.key)
    for spec, row in standalone:
        yield source, resolve_card(source, source.layout_for(row), row)
        if spec.back is not None:
            yield source, resolve_card(source, source.layouts[spec.back], row)


@pytest.mark.parametrize("game_id", rules.game_ids())
def test_cut_box_drawing_is_the_trimmed_whole_picture(game_id: str) -> None:
    seen = 0
    for source, card in _resolved_cards(game_id):
        geo = geometry(card.layout, source.dpi)
        whole = draw_resolved(source, card)
        cut = draw_resolved(source, card, cut=True)
        assert whole.size == (geo.width, geo.height)
        assert cut.size == (geo.cut[2] - geo.cut[0], geo.cut[3] - geo.cut[1])
        assert cut.tobytes() == trim(whole, card.layout, source.dpi).tobytes(), (game_id, card.layout.name)
        seen += 1
    assert seen > 0


def test_cut_box_drawing_has_no_bleed_to_draw() -> None:
    """The bleed is really left out: a layer only in the bleed changes the whole picture, not the cut one."""
    source, card = next(_resolved_cards("two-and-two"))
    assert card.layout.bleed_mm > 0
    stripe = {"type": "rect", "box": [-card.layout.bleed_mm, 0.0, card.layout.bleed_mm * 0.9, 5.0],
              "fill": [255, 0, 255]}
    marked = dataclasses.replace(card, layers=(*card.layers, stripe))
    assert draw_resolved(source, marked).tobytes() != draw_resolved(source, card).tobytes()
    assert draw_resolved(source, marked, cut=True).tobytes() == draw_resolved(source, card, cut=True).tobytes()


@pytest.mark.parametrize("resample, tag", [(Image.Resampling.LANCZOS, ""), (Image.Resampling.BICUBIC, "-bicubic")])
def test_picture_cache_scales_with_its_filter_and_keeps_it_in_the_name(tmp_path, resample, tag) -> None:  # type: ignore[no-untyped-def]
    """A palette build's cache scales with bicubic, a lossless one's with Lanczos (today's pixels,
    under today's names); each finds only its own pictures again."""
    source = load_art_source("two-and-two")
    decks, _ = _assign_rows(source)
    deck = source.decks[0]
    row = decks[deck.key][0]
    cache = PictureCache(tmp_path, source, resample=resample)
    job = cache.job(source.layout_for(row), row, deck.key, row.key)
    size = (300, 420)
    got = cache.picture(job, size)
    drawn = draw_resolved(source, job.resolved, cut=True)
    assert got.tobytes() == drawn.resize(size, resample).tobytes()
    other = Image.Resampling.BICUBIC if resample == Image.Resampling.LANCZOS else Image.Resampling.LANCZOS
    assert got.tobytes() != drawn.resize(size, other).tobytes()
    assert [p.name for p in tmp_path.iterdir()] == [f"{job.digest}-300x420{tag}.tga"]
    again = PictureCache(tmp_path, source, resample=resample)
    assert again.picture(again.job(source.layout_for(row), row, deck.key, row.key), size).tobytes() == got.tobytes()
    assert again.rendered == 0  # read back from the cache, not drawn
