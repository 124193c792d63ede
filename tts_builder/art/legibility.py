"""The legibility rule every picture of a mod obeys, and the check that finds where one does not.

The rule (issue 21), for every text a player reads at the table (cards, mat, boards, pieces):

* **Size.** Its font size (the em) is at least :data:`MIN_EM_MM` millimetres on the object as the
  save sizes it, and at least :data:`MIN_EM_PX` pixels in the image TTS loads (a smaller glyph is a
  smudge however close the camera comes). Physical size comes from the object's size in the save:
  a card is its layout's millimetres; a mat, board or piece is its size in table units times the
  game's millimetres per unit, which the card fixes (its layout's width in mm over the width
  ``table.json`` gives the card in units).
* **Contrast.** Text reaches WCAG 2's 4.5:1 against every colour it is drawn over (a colour counts
  when it lies under at least :data:`GROUND_SHARE` of the glyphs' pixels); game-critical marks
  (bridges, card slots, an animal on its disc) reach 3:1 (:data:`MARK_CONTRAST`).
* **Whole.** A text fits its box at the size it is drawn (nothing cut off, nothing running into
  a neighbour).
* **Nothing through a label.** Once a text is drawn, nothing drawn later on the same picture
  changes its glyphs.

The renderers call :func:`note_text` before they paint a text and :func:`settle` when a picture is
finished (:func:`moved` when a drawn part is pasted into a larger picture); these are no-ops unless
a :class:`Recorder` is active, so a build pays nothing. :func:`legibility_findings` renders a
game's pictures under a recorder and lists every breach in words.
"""

from __future__ import annotations

import contextlib
import contextvars
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field

from PIL import Image, ImageChops

RGB = tuple[int, int, int]

#: The smallest em on the object at the table: 2.1 mm is 6 pt, the smallest size printed game
#: components use for rules text read at arm's length.
MIN_EM_MM = 2.1
#: The smallest em in the image TTS shows: below ~12 px DejaVu's glyphs lose their counters.
MIN_EM_PX = 12
#: WCAG 2 minima: 4.5:1 for text (1.4.3), 3:1 for graphical objects (1.4.11).
TEXT_CONTRAST, MARK_CONTRAST = 4.5, 3.0
#: A colour under at least this share of a text's glyph pixels is a ground the text must read on.
GROUND_SHARE = 0.08
#: A label is "drawn through" when more than this many of its glyph pixels (coverage 1/4 or more)
#: differ from what the text left there by more than :data:`THROUGH_DELTA` in a channel when the
#: picture is finished.
THROUGH_PIXELS, THROUGH_DELTA = 0, 20


def luminance(rgb: RGB) -> float:
    """WCAG 2 relative luminance of an sRGB colour."""
    def channel(v: int) -> float:
        c = v / 255
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (channel(v) for v in rgb)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def contrast(a: RGB, b: RGB) -> float:
    """WCAG 2 contrast ratio of two colours (1 to 21)."""
    la, lb = sorted((luminance(a), luminance(b)), reverse=True)
    return (la + 0.05) / (lb + 0.05)


@dataclass(frozen=True)
class Surface:
    """The picture being drawn: its name for messages, the millimetres one of its pixels covers on
    the object at the table, and how many pixels of the image TTS loads one drawn pixel becomes."""

    name: str
    mm_per_px: float
    shipped_per_px: float = 1.0


@dataclass
class TextMark:
    surface: Surface
    text: str
    em_px: float
    ink: RGB
    grounds: list[tuple[RGB, float]]  # (colour under the glyphs before drawing, share of glyph pixels)
    mask: Image.Image  # L, the glyphs' coverage
    at: tuple[int, int]
    image: Image.Image
    expected: Image.Image  # RGB: the glyphs' box as the text leaves it
    through: int = 0  # solid glyph pixels changed by later drawing
    fits: bool = True

    def findings(self) -> list[str]:
        where = f"{self.surface.name}: {self.text[:40]!r}"
        out = []
        em_mm = self.em_px * self.surface.mm_per_px
        em_shipped = self.em_px * self.surface.shipped_per_px
        if em_mm < MIN_EM_MM - 1e-6:
            out.append(f"{where} is {em_mm:.2f} mm tall at the table (the rule: {MIN_EM_MM} mm)")
        if em_shipped < MIN_EM_PX - 1e-6:
            out.append(f"{where} is {em_shipped:.1f} px in the image TTS loads (the rule: {MIN_EM_PX} px)")
        for ground, share in self.grounds:
            ratio = contrast(self.ink, ground)
            if ratio < TEXT_CONTRAST:
                out.append(f"{where}: ink {_hex(self.ink)} on {_hex(ground)} ({share:.0%} of it) is {ratio:.2f}:1 "
                           f"(the rule: {TEXT_CONTRAST}:1)")
        if not self.fits:
            out.append(f"{where} does not fit its box even at its smallest size (cut off or overlapping)")
        if self.through > THROUGH_PIXELS:
            out.append(f"{where}: {self.through} px of its glyphs are drawn over by something drawn later")
        return out


def _hex(rgb: RGB) -> str:
    return "#%02x%02x%02x" % rgb


@dataclass
class Recorder:
    """Collects every text drawn while it is active (:meth:`active`)."""

    marks: list[TextMark] = field(default_factory=list)
    marks_checked: list[tuple[str, float]] = field(default_factory=list)  # (what, ratio) of graphical marks
    surface: Surface = Surface("picture", 1.0)
    unit_mm: float = 1.0  # millimetres per table unit (for pictures sized in table units)

    @contextlib.contextmanager
    def active(self) -> Iterator[Recorder]:
        token = _ACTIVE.set(self)
        try:
            yield self
        finally:
            _ACTIVE.reset(token)

    @contextlib.contextmanager
    def drawing(self, surface: Surface) -> Iterator[None]:
        """Texts noted inside are on ``surface``."""
        before, self.surface = self.surface, surface
        try:
            yield
        finally:
            self.surface = before

    def mark(self, what: str, a: RGB, b: RGB) -> None:
        """Note a game-critical mark's colour ``a`` against what it is drawn on, ``b``."""
        self.marks_checked.append((what, contrast(a, b)))

    def findings(self) -> list[str]:
        out = [f for m in self.marks for f in m.findings()]
        out += [f"{what}: {ratio:.2f}:1 (the rule for marks: {MARK_CONTRAST}:1)"
                for what, ratio in self.marks_checked if ratio < MARK_CONTRAST]
        return out


_ACTIVE: contextvars.ContextVar[Recorder | None] = contextvars.ContextVar("legibility_recorder", default=None)


@contextlib.contextmanager
def table_picture(name: str, units_per_px: float) -> Iterator[None]:
    """Texts drawn inside are on the table picture ``name``, one pixel of which covers
    ``units_per_px`` table units (a no-op unless a recorder is active)."""
    rec = _ACTIVE.get()
    if rec is None:
        yield
        return
    with rec.drawing(Surface(name, units_per_px * rec.unit_mm)):
        yield


def recording() -> Recorder | None:
    """The active recorder, or None (the renderers skip their notes)."""
    return _ACTIVE.get()


def note_text(img: Image.Image, mask: Image.Image, at: tuple[int, int], ink: RGB, em_px: float, text: str,
              fits: bool = True) -> None:
    """A text is about to be painted in ``ink`` through ``mask`` (L) at ``at`` on ``img``; ``fits`` is False
    when even its smallest size overflows its box (it is cut off or runs into its neighbours)."""
    rec = _ACTIVE.get()
    if rec is None:
        return
    box = (at[0], at[1], at[0] + mask.width, at[1] + mask.height)
    under = img.convert("RGB").crop(box)
    solid = mask.point(lambda v: 255 if v >= 128 else 0)
    counts: Counter[RGB] = Counter()
    for colour, keep in zip(under.get_flattened_data(), solid.get_flattened_data(), strict=True):
        if keep:
            assert isinstance(colour, tuple)
            counts[(colour[0], colour[1], colour[2])] += 1
    total = sum(counts.values())
    grounds = [(c, n / total) for c, n in counts.most_common() if total and n / total >= GROUND_SHARE]
    expected = Image.composite(Image.new("RGB", under.size, ink), under, mask)
    rec.marks.append(TextMark(rec.surface, text, em_px, ink, grounds, mask.copy(), at, img, expected, fits=fits))


def moved(src: Image.Image, dst: Image.Image, at: tuple[int, int], *, turned: bool = False) -> None:
    """``src`` (turned 180 degrees first when ``turned``) was pasted into ``dst`` at ``at``: its texts
    now live there. Use ``dst is`` the turned copy and ``at`` (0, 0) for a turn alone."""
    rec = _ACTIVE.get()
    if rec is None:
        return
    for m in rec.marks:
        if m.image is not src:
            continue
        x, y = m.at
        if turned:
            m.mask, m.expected = m.mask.rotate(180), m.expected.rotate(180)
            x, y = src.width - x - m.mask.width, src.height - y - m.mask.height
        m.at, m.image = (x + at[0], y + at[1]), dst


def settle(img: Image.Image) -> None:
    """``img`` is finished: measure how much of each of its texts later drawing changed."""
    rec = _ACTIVE.get()
    if rec is None:
        return
    rgb = img.convert("RGB")
    for m in rec.marks:
        if m.image is not img:
            continue
        box = (m.at[0], m.at[1], m.at[0] + m.mask.width, m.at[1] + m.mask.height)
        now = rgb.crop(box)
        glyphs = m.mask.point(lambda v: 255 if v >= 64 else 0)
        delta = ImageChops.difference(now, m.expected)
        worst = ImageChops.lighter(ImageChops.lighter(delta.getchannel(0), delta.getchannel(1)), delta.getchannel(2))
        changed = worst.point(lambda v: 255 if v > THROUGH_DELTA else 0)
        m.through = ImageChops.multiply(changed, glyphs).histogram()[255]


def mm_per_unit(game_id: str) -> float:
    """Millimetres one table unit covers at the table: the card fixes it (its layout's width in mm
    over its width in table units in table.json)."""
    from tts_builder.art.pipeline import _assign_rows
    from tts_builder.art.source import load_art_source
    from tts_builder.build import load_table_layout

    source = load_art_source(game_id)
    layout = load_table_layout(game_id)
    decks, standalone = _assign_rows(source)
    rows = [r for rows in decks.values() for r in rows] or [r for _, r in standalone]
    card_mm = source.layout_for(rows[0]).size_mm[0]
    return card_mm / layout.card.size[0]


def legibility_findings(game_id: str) -> list[str]:
    """Every breach of the rule in the pictures of ``game_id`` (cards, backs, mat, boards, pieces),
    in words: empty when the game's art obeys it."""
    from tts_builder.art.pipeline import _assign_rows
    from tts_builder.art.render import draw_resolved, resolve_card
    from tts_builder.art.source import load_art_source
    from tts_builder.build import load_table_layout
    from tts_builder.tablemat import render_kit_pictures, render_mat

    source = load_art_source(game_id)
    table = load_table_layout(game_id)
    unit_mm = mm_per_unit(game_id)
    rec = Recorder(unit_mm=unit_mm)
    ss = source.supersample
    card_surface_mm = 25.4 / (source.dpi * ss)
    shipped = source.tts.dpi / (source.dpi * ss)
    decks, standalone = _assign_rows(source)
    with rec.active():
        for deck in source.decks:
            backs = {deck.back, *([deck.hidden] if deck.hidden else [])}
            for row in decks[deck.key]:
                with rec.drawing(Surface(f"{deck.key} card {row.key}", card_surface_mm, shipped)):
                    draw_resolved(source, resolve_card(source, source.layout_for(row), row, deck=deck.key))
                if deck.unique_back:
                    with rec.drawing(Surface(f"{deck.key} back of {row.key}", card_surface_mm, shipped)):
                        draw_resolved(source, resolve_card(source, source.layouts[deck.back], row, deck=deck.key))
            for name in sorted(backs - ({deck.back} if deck.unique_back else set())):
                with rec.drawing(Surface(f"{deck.key} {name}", card_surface_mm, shipped)):
                    draw_resolved(source, resolve_card(source, source.layouts[name], None, deck=deck.key))
        for spec, row in standalone:
            with rec.drawing(Surface(f"{row.key}", card_surface_mm, shipped)):
                draw_resolved(source, resolve_card(source, source.layout_for(row), row))
        with rec.drawing(Surface("table mat", unit_mm / table.mat.pixels_per_unit)):
            render_mat(table)
        render_kit_pictures(table)  # each picture names itself through table_picture()
    return rec.findings()

