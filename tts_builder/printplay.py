"""Print-and-play: every card of a game at its physical size, on A4 or US Letter, with crop marks.

``tts-builder print GAME`` writes into ``<out>/<game>/print/``:

* ``<game>-<paper>.pdf``: the cards butted edge to edge in a grid centred on the page (as many as fit
  inside a 7 mm margin: 3 x 3 poker-size cards on A4 and on Letter), crop marks in the margin on
  every cut line, each page of fronts followed by a page of backs laid out mirror-wise, so that a
  duplex print (flip on the long edge) puts every back behind its front (``--no-backs``: fronts only);
* ``png/<card id>.png``: one picture per physical card at the render resolution (300 dpi), bleed
  included (what a print shop asks for), ``png/<card id>-back.png`` where a deck has a back per card
  and ``png/<deck>-back.png`` for a deck's shared back.

The pictures are drawn by the art pipeline's own renderer, the same pixels the build draws
(its cache keeps them at the TTS sheet sizes, not at print size), cut at the layout's cut box for the PDF; the physical size is the layout's ``size_mm``
in ``art_src/<game>/art.json``. After the cards comes the table kit (``table.json``: boards, pieces,
stacks of tiles, drawn as the build draws them) at the cards' scale on the table: a board larger
than the paper is printed in tiles joined beside the cells' labels, each with its crop marks and a
shaded glue tab repeating :data:`OVERLAP_MM` of its neighbour's art, a dashed line where the
neighbour's edge goes and registration circles halved across each join (the footer names each
tile's row and column); ``kit="fit"`` instead shrinks the whole kit to one scale
at which every board fits a page. Art components too large for the page are scaled to fit, with a note. Same inputs, same bytes: the PDF's dates and
ID are fixed.
"""

from __future__ import annotations

import dataclasses
import hashlib
import io
import json
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from PIL import Image

from tts_builder.art.pipeline import ArtManifest, Picture, render_game_art
from tts_builder.art.render import trim
from tts_builder.art.source import load_art_source
from tts_builder.save import TableLayout
from tts_builder.errors import InputError
from tts_builder.fileio import atomic_write_bytes
from tts_builder.progress import Mode

#: paper name -> (width, height) in mm, portrait
PAPERS: dict[str, tuple[float, float]] = {"a4": (210.0, 297.0), "letter": (215.9, 279.4)}
PAPER_NAMES = {"a4": "A4", "letter": "Letter"}
MARGIN_MM = 7.0  # room for the crop marks; most printers print from about 4 mm in
MARK_GAP_MM = 1.0  # between a card's edge and its crop mark
MARK_LEN_MM = 5.0
MARK_WIDTH_MM = 0.2
BOARD_DPI = 150  # boards are drawn anew for print at this resolution (the build's are for the screen)
DEFAULT_MM_PER_UNIT = 25.4  # a table unit when no card gives the scale (TTS units are about an inch)
_FIXED_DATE = datetime(2000, 1, 1, tzinfo=timezone.utc)  # the PDF's dates: same inputs, same bytes


KIT_MODES = ("table", "fit")
#: Shaped pieces (round, hex, rounded tokens) print with their own cut line on the shape and this
#: much art beyond it (a cut a little off the line still shows no paper), this far apart.
BLEED_MM = 2.0
TOKEN_GAP_MM = 2 * BLEED_MM + 1.0
SHAPED = ("circle", "hex", "rounded")
#: ``--kit fit`` never prints a piece smaller than this (or than its size at the table, if smaller).
MIN_TOKEN_MM = 16.0
#: A tile with a neighbour to its right or below repeats this much of the neighbour's art (the
#: glue tab, shaded), with a dashed line where the neighbour's edge goes and corner marks where its
#: corners go: cut each tile on its crop marks, lay the neighbour over the tab on the dashed line.
OVERLAP_MM = 6.0
#: How much of a tab's art shows through its shading (1: none shaded).
TAB_SHADE = 0.55


@dataclass(frozen=True)
class KitImage:
    """One picture of the table kit (a board, a piece face), by its file name in ``images/``; a tile
    of a board is the cell ``tile`` (row, column, rows, columns; from 0) of the board printed as
    ``board`` (its card id), whose whole size is ``whole_mm``."""

    name: str
    tile: tuple[int, int, int, int] | None = None
    whole_mm: tuple[float, float] | None = None
    board: str = ""
    shape: str = ""  # a piece's shape (circle, hex, rounded, square); "" for a board
    part: tuple[float, float, float, float] | None = None  # a tile's box (fractions) when not an equal split
    bleed: float = 0.0  # the art beyond the cut line, as a fraction of the piece's size, each side
    tab: tuple[float, float] = (0.0, 0.0)  # mm on the right and at the bottom repeating the neighbour's art

    @property
    def box(self) -> tuple[float, float, float, float] | None:
        """The tile's part of the picture: left, top, right, bottom as fractions."""
        if self.tile is None:
            return None
        if self.part is not None:
            return self.part
        r, c, rows, cols = self.tile
        return (c / cols, r / rows, (c + 1) / cols, (r + 1) / rows)

    @property
    def place(self) -> str:
        """Where the tile goes, in words: "row 1, column 2 of 2 x 3"; empty for a whole picture."""
        if self.tile is None:
            return ""
        r, c, rows, cols = self.tile
        return f"row {r + 1}, column {c + 1} of {rows} x {cols}"


Art = Picture | KitImage


@dataclass(frozen=True)
class PrintCard:
    """One physical card (or component) to print."""

    card_id: str
    deck: str
    face: Art
    back: Art | None
    size_mm: tuple[float, float]


@dataclass(frozen=True)
class Slot:
    """Where a card goes on a page, in mm from the page's top-left corner."""

    x: float
    y: float
    w: float
    h: float
    card: PrintCard


@dataclass(frozen=True)
class Page:
    """One page: fronts, or the backs of the fronts page before it (mirrored for a long-edge flip)."""

    side: str  # "fronts" | "backs"
    slots: tuple[Slot, ...]
    cuts_x: tuple[float, ...]
    cuts_y: tuple[float, ...]
    grid: tuple[float, float, float, float]  # left, top, right, bottom of the cards
    shaped: bool = False  # shaped pieces apart from each other, each with its cut line (no crop marks)


@dataclass(frozen=True)
class PrintResult:
    pdf: Path
    pages: int
    front_pages: int
    cards: int
    kit: int  # boards, pieces and tiles of the table kit (a board printed in tiles counts once)
    pngs: int
    scaled: tuple[str, ...]  # cards printed smaller than life: they do not fit on the paper
    kit_scale: float  # the kit's size against the cards' scale on the table (1.0: the same)
    tiled: tuple[tuple[str, int, int], ...] = ()  # (board card id, columns, rows) printed in tiles


def print_cards(manifest: ArtManifest) -> list[PrintCard]:
    """Every physical card of every deck, then every standalone component, in the manifest's order."""
    cards: list[PrintCard] = []
    for deck in manifest.decks.values():
        for key, ids in deck.copies.items():
            face, back = manifest.pictures[key]
            cards += [PrintCard(i, deck.key, face, back, face.layout.size_mm) for i in ids]
    for key, item in manifest.standalone.items():
        face, back = manifest.pictures[key]
        cards += [PrintCard(i, key, face, back, face.layout.size_mm) for i in item.copies]
    return cards


def plan_pages(cards: Sequence[PrintCard], paper: tuple[float, float], *, backs: bool = True,
               margin: float = MARGIN_MM) -> tuple[list[Page], list[str]]:
    """Lay the cards out: grouped by size (first come, first laid), as many per page as fit inside
    the margin, the grid centred. Returns the pages and the ids of the cards scaled down to fit."""
    pw, ph = paper
    by_size: dict[tuple[float, float], list[PrintCard]] = {}
    shaped = [c for c in cards if isinstance(c.face, KitImage) and c.face.shape in SHAPED]
    for card in cards:
        if card not in shaped:
            by_size.setdefault(card.size_mm, []).append(card)
    pages: list[Page] = []
    scaled: list[str] = []
    for (w, h), group in by_size.items():
        scale = min(1.0, (pw - 2 * margin) / w, (ph - 2 * margin) / h)
        if scale < 1.0:
            scaled += [c.card_id for c in group]
        w, h = w * scale, h * scale
        cols = max(1, math.floor((pw - 2 * margin) / w + 1e-9))
        rows = max(1, math.floor((ph - 2 * margin) / h + 1e-9))
        per_page = cols * rows
        for start in range(0, len(group), per_page):
            chunk = group[start:start + per_page]
            used_cols = min(cols, len(chunk))
            used_rows = math.ceil(len(chunk) / cols)
            left, top = (pw - cols * w) / 2, (ph - rows * h) / 2
            slots = tuple(Slot(left + (i % cols) * w, top + (i // cols) * h, w, h, c) for i, c in enumerate(chunk))
            cuts_x = tuple(left + c * w for c in range(used_cols + 1))
            cuts_y = tuple(top + r * h for r in range(used_rows + 1))
            grid = (left, top, left + used_cols * w, top + used_rows * h)
            pages.append(Page("fronts", slots, cuts_x, cuts_y, grid))
            if backs and any(c.back is not None for c in chunk):  # mirrored left-right: after a flip on the long edge each back lies behind its front
                pages.append(Page("backs", tuple(Slot(pw - s.x - s.w, s.y, s.w, s.h, s.card) for s in slots),
                                  tuple(sorted(pw - x for x in cuts_x)), cuts_y,
                                  (pw - grid[2], grid[1], pw - grid[0], grid[3])))
    pages += pack_shaped(shaped, paper, backs=backs, margin=margin)
    return pages, scaled


def pack_shaped(cards: Sequence[PrintCard], paper: tuple[float, float], *, backs: bool = True,
                margin: float = MARGIN_MM) -> list[Page]:
    """Shaped pieces packed onto as few pages as rows (shelves) allow: largest first, left to right,
    :data:`TOKEN_GAP_MM` apart (room for each one's bleed), a new row when one is full, a new page
    when a row would not fit; each page's backs mirrored behind it."""
    pw, ph = paper
    pages: list[Page] = []
    slots: list[Slot] = []
    x = y = margin + BLEED_MM
    row_h = 0.0

    def close() -> None:
        if not slots:
            return
        grid = (min(s.x for s in slots), min(s.y for s in slots), max(s.x + s.w for s in slots),
                max(s.y + s.h for s in slots))
        pages.append(Page("fronts", tuple(slots), (), (), grid, shaped=True))
        if backs and any(s.card.back is not None for s in slots):
            pages.append(Page("backs", tuple(Slot(pw - s.x - s.w, s.y, s.w, s.h, s.card) for s in slots), (), (),
                              (pw - grid[2], grid[1], pw - grid[0], grid[3]), shaped=True))
        slots.clear()

    for card in sorted(cards, key=lambda c: (-c.size_mm[1], -c.size_mm[0])):  # stable: same size, same order
        w, h = card.size_mm
        if x + w > pw - margin - BLEED_MM + 1e-9:  # the row is full
            x, y, row_h = margin + BLEED_MM, y + row_h + TOKEN_GAP_MM, 0.0
        if y + h > ph - margin - BLEED_MM - 4.0 + 1e-9:  # the page is full (4 mm kept for the footer)
            close()
            x = y = margin + BLEED_MM
            row_h = 0.0
        slots.append(Slot(x, y, w, h, card))
        x += w + TOKEN_GAP_MM
        row_h = max(row_h, h)
    close()
    return pages


def _latin1(text: str) -> str:
    """The PDF's built-in font takes Latin-1 only."""
    return text.encode("latin-1", "replace").decode("latin-1")


def kit_cards(layout: TableLayout, mm_per_unit: float, paper: tuple[float, float],
              margin: float = MARGIN_MM, *, kit: str = "table") -> tuple[list[PrintCard], float]:
    """The table kit (boards, pieces, stacks of tiles) as things to print, and the mm per table unit
    they are printed at. ``kit="table"``: the cards' scale (``mm_per_unit``), a board larger than
    the paper split into equal tiles (:func:`board_tiles`). ``kit="fit"``: one smaller scale for the
    whole kit where a board would not fit the paper, so that the pieces still fit the board's cells."""
    scale = mm_per_unit
    cards: list[PrintCard] = []
    if kit == "fit":
        for board in layout.boards:
            scale = min(scale, (paper[0] - 2 * margin) / board.size[0], (paper[1] - 2 * margin) / board.size[1])
    for b in layout.boards:
        cards += board_tiles(f"board-{b.name}", b.image, (b.size[0] * scale, b.size[1] * scale), paper, margin,
                             labels=label_spans(b, layout.game_id))
    def piece_mm(size: float) -> float:  # fit: never below a usable size (nor above the table's)
        return max(size * scale, min(size * mm_per_unit, MIN_TOKEN_MM)) if kit == "fit" else size * scale

    def art(name: str, shape: str, mm: float) -> KitImage:
        return KitImage(name, shape=shape, bleed=BLEED_MM / mm if shape in SHAPED else 0.0)

    for piece in layout.pieces:
        mm = piece_mm(piece.size)
        back = art(piece.image(1), piece.shape, mm) if len(piece.faces) > 1 else None
        cards.append(PrintCard(piece.id, "kit", art(piece.image(0), piece.shape, mm), back, (mm, mm)))
    for st in layout.stacks:
        mm = piece_mm(st.size)
        back = art(st.image(1), st.shape, mm) if len(st.faces) > 1 else None
        cards += [PrintCard(f"{st.name}-{n + 1}", "kit", art(st.image(0), st.shape, mm), back, (mm, mm))
                  for n in range(st.count)]
    return cards, scale


def label_spans(board: Any, game_id: str) -> tuple[list[tuple[float, float]], list[tuple[float, float]]]:
    """Where a board's picture must not be cut: the spans its cell labels cover, as fractions of the
    picture's width and of its height (as :func:`tts_builder.tablemat.render_board` places them)."""
    from tts_builder.art.source import load_table_art
    from tts_builder.tablemat import cell_texts

    texts = cell_texts(board, load_table_art(game_id).board(board.name))
    w, d = board.size
    s, size = board.scale, board.grid.cell_size
    xs, zs = [], []
    for cell in board.grid:
        if cell.id not in texts:
            continue
        cx, cz = cell.center
        half = size / 3
        if board.label_corner:
            cx, cz, half = cx - size / 2 + size / 5, cz + size / 2 - size / 6, size / 6
        xs.append((0.5 + (cx - half) * s / w, 0.5 + (cx + half) * s / w))
        zs.append((0.5 - (cz + half) * s / d, 0.5 - (cz - half) * s / d))
    return xs, zs


def _splits(length: float, room: float, spans: Sequence[tuple[float, float]]) -> list[float]:
    """Cut fractions (0 .. 1) of a side ``length`` mm long into the fewest parts no longer than ``room``:
    equal parts, each cut that falls inside one of ``spans`` (a label) moved to the nearer end of it
    that keeps its parts short enough (one more part when no move does)."""
    n = max(1, math.ceil(length / room - 1e-9))
    while True:
        cuts = [0.0] + [k / n for k in range(1, n)] + [1.0]
        ok = True
        for k in range(1, n):
            inside = [(lo, hi) for lo, hi in spans if lo + 1e-9 < cuts[k] < hi - 1e-9]
            if not inside:
                continue
            lo, hi = inside[0]
            moves = sorted((lo, hi), key=lambda x: abs(x - cuts[k]))
            fits = [x for x in moves if cuts[k - 1] < x < cuts[k + 1] and (x - cuts[k - 1]) * length <= room + 1e-9
                    and (cuts[k + 1] - x) * length <= room + 1e-9]
            if not fits:
                ok = False
                break
            cuts[k] = fits[0]
        if ok or n > 64:
            return cuts
        n += 1


#: A tab shortened to end before a label is never narrower than this, nor lengthened past one
#: wider than that.
MIN_TAB_MM, MAX_TAB_MM = 2.0, 30.0


def _tab(join: float, length: float, spans: Sequence[tuple[float, float]], room: float) -> float:
    """The tab's width (mm) beyond a join at fraction ``join`` of a side ``length`` mm long:
    :data:`OVERLAP_MM`; where that would end inside a label, shortened to end before it (never below
    :data:`MIN_TAB_MM`) or else lengthened past it when the page has ``room`` (mm) and that takes
    no more than :data:`MAX_TAB_MM`, so that no label is split at a tile's edge. A label whose box
    starts at the join itself keeps the plain tab: it ends in the box's empty margin (a label's box
    is wider than its glyphs, which are centred in it)."""
    end = join + OVERLAP_MM / length
    inside = [(lo, hi) for lo, hi in spans if lo + 1e-9 < end < hi - 1e-9]
    if not inside:
        return OVERLAP_MM
    shorter = (min(lo for lo, _ in inside) - join) * length - 0.2
    if shorter >= MIN_TAB_MM:
        return shorter
    longer = (max(hi for _, hi in inside) - join) * length + 0.2
    end = join + longer / length
    if longer <= min(room, MAX_TAB_MM) + 1e-9 and not any(lo + 1e-9 < end < hi - 1e-9 for lo, hi in spans):
        return longer
    return OVERLAP_MM


def board_tiles(card_id: str, image: str, size_mm: tuple[float, float], paper: tuple[float, float],
                margin: float = MARGIN_MM, *,
                labels: tuple[Sequence[tuple[float, float]], Sequence[tuple[float, float]]] | None = None
                ) -> list[PrintCard]:
    """A board as one card when it fits inside the margin, else as the fewest tiles that do, row by
    row (ids ``<card_id>-r1c2``), each joined to the next beside the cells' ``labels`` (never through
    one): a tile with a neighbour to its right or below carries :data:`OVERLAP_MM` of that
    neighbour's art as a glue tab (:attr:`KitImage.tab`); cut on the crop marks and laid on the
    tabs, the tiles make the board at ``size_mm``.

    >>> [c.card_id for c in board_tiles("board-b", "b.png", (300.0, 100.0), (210.0, 297.0))]
    ['board-b-r1c1', 'board-b-r1c2']
    >>> [c.size_mm for c in board_tiles("board-b", "b.png", (300.0, 100.0), (210.0, 297.0))]
    [(156.0, 100.0), (150.0, 100.0)]
    """
    w, h = size_mm
    room_w, room_h = paper[0] - 2 * margin, paper[1] - 2 * margin
    if w <= room_w + 1e-9 and h <= room_h + 1e-9:
        return [PrintCard(card_id, "kit", KitImage(image), None, size_mm)]
    spans_x, spans_y = labels if labels is not None else ((), ())
    # a side that needs cutting leaves room for the tab on the page
    xs = _splits(w, room_w - OVERLAP_MM, spans_x) if w > room_w + 1e-9 else [0.0, 1.0]
    ys = _splits(h, room_h - OVERLAP_MM, spans_y) if h > room_h + 1e-9 else [0.0, 1.0]
    rows, cols = len(ys) - 1, len(xs) - 1
    tabs_x = [_tab(xs[c + 1], w, spans_x, room_w - (xs[c + 1] - xs[c]) * w) for c in range(cols - 1)] + [0.0]
    tabs_y = [_tab(ys[r + 1], h, spans_y, room_h - (ys[r + 1] - ys[r]) * h) for r in range(rows - 1)] + [0.0]
    out = []
    for r in range(rows):
        for c in range(cols):
            tab = (tabs_x[c], tabs_y[r])
            part = (xs[c], ys[r], xs[c + 1] + tab[0] / w, ys[r + 1] + tab[1] / h)
            out.append(PrintCard(f"{card_id}-r{r + 1}c{c + 1}", "kit",
                                 KitImage(image, (r, c, rows, cols), size_mm, card_id, part=part, tab=tab),
                                 None, ((xs[c + 1] - xs[c]) * w + tab[0], (ys[r + 1] - ys[r]) * h + tab[1])))
    return out


def write_pdf(pages: Sequence[Page], paper: tuple[float, float], picture: Callable[[Art], Image.Image],
              *, title: str, paper_name: str) -> bytes:
    """The PDF's bytes: each card's picture at its size, crop marks, a footer line per page."""
    from fpdf import FPDF

    pdf = FPDF(unit="mm", format=paper)
    pdf.set_creation_date(_FIXED_DATE)
    pdf.set_title(_latin1(f"{title} print-and-play"))
    pdf.set_creator("tts-builder")
    pdf.set_auto_page_break(False)
    pdf.set_margins(0, 0, 0)
    fronts = sum(p.side == "fronts" for p in pages)
    front_no = 0
    for page in pages:
        pdf.add_page()
        front_no += page.side == "fronts"
        for slot in page.slots:
            pic = slot.card.face if page.side == "fronts" else slot.card.back
            if pic is None:
                continue
            if isinstance(pic, KitImage) and pic.bleed:  # the art reaches past the cut line
                b = pic.bleed * slot.w
                pdf.image(picture(pic), x=slot.x - b, y=slot.y - b, w=slot.w + 2 * b, h=slot.h + 2 * b)
            else:
                pdf.image(picture(pic), x=slot.x, y=slot.y, w=slot.w, h=slot.h)
            if isinstance(pic, KitImage) and pic.tile is not None and page.side == "fronts":
                _join_marks(pdf, slot, pic)
        pdf.set_draw_color(0, 0, 0)
        pdf.set_line_width(MARK_WIDTH_MM)
        if page.shaped:  # the cut line on each piece's shape (on the fronts: cut from the front)
            if page.side == "fronts":
                for slot in page.slots:
                    _cut_line(pdf, slot, slot.card.face.shape if isinstance(slot.card.face, KitImage) else "")
            what = (f"pieces {front_no}/{fronts}, print at 100%, cut on each outline" if page.side == "fronts"
                    else f"backs of pieces {front_no}/{fronts}, flip on the long edge")
            _footer(pdf, f"{title}: {what}", page, paper)
            continue
        left, top, right, bottom = page.grid
        for x in page.cuts_x:
            pdf.line(x, top - MARK_GAP_MM, x, max(0.0, top - MARK_GAP_MM - MARK_LEN_MM))
            pdf.line(x, bottom + MARK_GAP_MM, x, min(paper[1], bottom + MARK_GAP_MM + MARK_LEN_MM))
        for y in page.cuts_y:
            pdf.line(left - MARK_GAP_MM, y, max(0.0, left - MARK_GAP_MM - MARK_LEN_MM), y)
            pdf.line(right + MARK_GAP_MM, y, min(paper[0], right + MARK_GAP_MM + MARK_LEN_MM), y)
        what = (f"fronts {front_no}/{fronts}, print at 100%" if page.side == "fronts"
                else f"backs of fronts {front_no}/{fronts}, flip on the long edge")
        tiles = [s.card.face for s in page.slots if isinstance(s.card.face, KitImage) and s.card.face.board]
        if tiles:  # which part of which board, to put the tiles together
            what += (f"; {tiles[0].board} " + ", ".join(t.place for t in tiles) + ": cut on the marks, lay the next "
                     "tile's edge on the dashed line over the shaded tab, half circles matched")
        _footer(pdf, f"{title}: {what}", page, paper)
    return bytes(pdf.output())


def join_marks(slot: Slot, pic: KitImage) -> tuple[list[tuple[float, float, float, float]], list[tuple[float, float]]]:
    """Where a tile's joins are marked (mm on the page): the dashed lines its neighbours' edges go on
    (over its tabs), and the centres of the registration circles, on those lines and on its own edges
    that go over a neighbour's tab, at a quarter and three quarters along the join, so that each
    circle is whole when the two tiles lie together."""
    assert pic.tile is not None
    r, c, _rows, _cols = pic.tile
    k = slot.w / (slot.card.size_mm[0] or 1)  # the page's mm per tile mm (1 unless scaled)
    own_w, own_h = slot.w - pic.tab[0] * k, slot.h - pic.tab[1] * k
    lines, circles = [], []
    if pic.tab[0]:
        x = slot.x + own_w
        lines.append((x, slot.y, x, slot.y + slot.h))
        circles += [(x, slot.y + own_h * f) for f in (0.25, 0.75)]
    if pic.tab[1]:
        y = slot.y + own_h
        lines.append((slot.x, y, slot.x + slot.w, y))
        circles += [(slot.x + own_w * f, y) for f in (0.25, 0.75)]
    if c > 0:
        circles += [(slot.x, slot.y + own_h * f) for f in (0.25, 0.75)]
    if r > 0:
        circles += [(slot.x + own_w * f, slot.y) for f in (0.25, 0.75)]
    return lines, circles


JOIN_CIRCLE_MM = 3.0  # a registration circle's radius


def _join_marks(pdf: Any, slot: Slot, pic: KitImage) -> None:
    lines, circles = join_marks(slot, pic)
    for colour, width in (((255, 255, 255), 0.7), ((0, 0, 0), 0.25)):  # black on a white halo: seen on any art
        pdf.set_draw_color(*colour)
        pdf.set_line_width(width)
        with pdf.local_context():
            pdf.set_dash_pattern(dash=2.0, gap=1.5)
            for x0, y0, x1, y1 in lines:
                pdf.line(x0, y0, x1, y1)
        rad = JOIN_CIRCLE_MM
        for x, y in circles:
            pdf.circle(x, y, rad, style="D")
            pdf.line(x - rad * 1.5, y, x + rad * 1.5, y)
            pdf.line(x, y - rad * 1.5, x, y + rad * 1.5)


def shade_tab(img: Image.Image, pic: KitImage) -> Image.Image:
    """The tile's picture with its tabs (the neighbours' art it repeats) washed towards white, so
    that a player sees what goes under the next tile."""
    if pic.tab == (0.0, 0.0) or pic.whole_mm is None:
        return img
    box = pic.box
    assert box is not None
    px_x = img.width / ((box[2] - box[0]) * pic.whole_mm[0])
    px_y = img.height / ((box[3] - box[1]) * pic.whole_mm[1])
    out = img.convert("RGB")
    white = Image.new("RGB", out.size, "white")
    washed = Image.blend(out, white, 1 - TAB_SHADE)
    from PIL import ImageDraw
    mask = Image.new("L", out.size, 0)
    d = ImageDraw.Draw(mask)
    if pic.tab[0]:
        d.rectangle((out.width - round(pic.tab[0] * px_x), 0, out.width, out.height), fill=255)
    if pic.tab[1]:
        d.rectangle((0, out.height - round(pic.tab[1] * px_y), out.width, out.height), fill=255)
    out.paste(washed, (0, 0), mask)
    return out


def cut_outline(shape: str, x: float, y: float, w: float, h: float) -> list[tuple[float, float]]:
    """The cut line of a piece of ``shape`` in the box (mm): the outline the table kit draws the shape
    with (:func:`tts_builder.tablemat.render_face`); a circle as a 72-gon."""
    cx, cy = x + w / 2, y + h / 2
    inset = 4 / 256  # render_face draws the shape 4 px inside its 256 px picture
    rx, ry = w / 2 * (1 - 2 * inset), h / 2 * (1 - 2 * inset)
    if shape == "hex":
        return [(cx + rx * math.cos(math.radians(30 + 60 * k)), cy + ry * math.sin(math.radians(30 + 60 * k)))
                for k in range(6)]
    if shape == "circle":
        return [(cx + rx * math.cos(math.radians(5 * k)), cy + ry * math.sin(math.radians(5 * k))) for k in range(72)]
    return [(cx - rx, cy - ry), (cx + rx, cy - ry), (cx + rx, cy + ry), (cx - rx, cy + ry)]


def _cut_line(pdf: Any, slot: Slot, shape: str) -> None:
    if shape == "rounded":
        inset = slot.w * 4 / 256
        pdf.rect(slot.x + inset, slot.y + inset, slot.w - 2 * inset, slot.h - 2 * inset, style="D",
                 round_corners=True, corner_radius=slot.w / 8)
        return
    pdf.polygon(cut_outline(shape, slot.x, slot.y, slot.w, slot.h), style="D")


def _shape_mask(shape: str, side: int, inset: int = 0) -> Image.Image:
    """The shape's coverage in a ``side`` px square, ``inset`` px inside its edge."""
    from PIL import ImageDraw

    mask = Image.new("L", (side, side), 0)
    d = ImageDraw.Draw(mask)
    lo, hi = inset, side - 1 - inset
    if shape == "circle":
        d.ellipse((lo, lo, hi, hi), fill=255)
    elif shape == "hex":
        r = (hi - lo) / 2
        d.polygon([(side / 2 + r * math.cos(math.radians(30 + 60 * k)), side / 2 + r * math.sin(math.radians(30 + 60 * k)))
                   for k in range(6)], fill=255)
    else:
        d.rounded_rectangle((lo, lo, hi, hi), radius=(hi - lo) // 8, fill=255)
    return mask


def bled(img: Image.Image, shape: str, bleed: float) -> Image.Image:
    """A piece's picture with ``bleed`` (a fraction of its size, each side) of art beyond its shape:
    the shape's edge colour carried outwards, the picture itself inside the shape, white elsewhere."""
    rgb = img.convert("RGB")
    n = rgb.width
    pad = round(bleed * n)
    size = n + 2 * pad
    inset = max(1, round(n * 4 / 256))  # where render_face draws the shape's edge
    ring = _shape_mask(shape, n, inset + 2)  # a point just inside the edge: the edge colour
    x, y = n // 2, next(y for y in range(n) if ring.getpixel((n // 2, y)))
    r, g, b = rgb.getpixel((x, y))  # type: ignore[misc]
    out = Image.new("RGB", (size, size), "white")
    out.paste((int(r), int(g), int(b)), (0, 0), _shape_mask(shape, size))
    out.paste(rgb, (pad, pad), _shape_mask(shape, n, inset))
    return out


def _footer(pdf: Any, text: str, page: Page, paper: tuple[float, float]) -> None:
    """A small grey line under the cards, between the first two bottom crop marks (the marks are
    left clear), shrunk to fit there."""
    if not page.cuts_x:  # shaped pieces: the footer under them, from the margin
        page = dataclasses.replace(page, cuts_x=(MARGIN_MM, paper[0] - MARGIN_MM))
    width = (page.cuts_x[1] - page.cuts_x[0] if len(page.cuts_x) > 1 else paper[0]) - 2 * MARK_GAP_MM - 4
    size = 6.0
    pdf.set_font("helvetica", size=size)
    text = _latin1(text)
    while pdf.get_string_width(text) > width and size > 4:
        size -= 0.5
        pdf.set_font("helvetica", size=size)
    while pdf.get_string_width(text) > width and len(text) > 1:
        text = text[:-1]
    pdf.set_text_color(90, 90, 90)
    baseline = min(page.grid[3] + 4.0, paper[1] - 1.0)
    pdf.text(page.cuts_x[0] + MARK_GAP_MM + 2, baseline, text)


def _png(img: Image.Image, dpi: float) -> bytes:
    """Deterministic PNG carrying its resolution (a print shop reads the size from it)."""
    buf = io.BytesIO()
    clean = img.copy()
    clean.info = {}
    clean.save(buf, format="PNG", compress_level=6, optimize=False, dpi=(dpi, dpi))
    return buf.getvalue()


#: the steps of :func:`print_game`, for a progress line
PRINT_STEPS = ("art", "kit", "pdf", "png")


def print_game(game_id: str, out_root: Path, paper_name: str = "a4", *, backs: bool = True,
               kit: str = "table", progress: Any = None) -> PrintResult:
    """Render (or reuse) the game's art and write its print folder; see the module docstring.
    ``progress`` (a :class:`tts_builder.progress.Progress` over :data:`PRINT_STEPS`) hears each
    step begin and end."""
    if paper_name not in PAPERS:
        raise InputError(f"--paper {paper_name}: expected one of {', '.join(PAPERS)}")
    if kit not in KIT_MODES:
        raise InputError(f"--kit {kit}: expected one of {', '.join(KIT_MODES)}")
    import rules
    from tts_builder.build import load_table_layout
    from tts_builder.tablemat import render_kit_pictures

    def step(detail: str) -> Callable[[], None]:
        if progress is None:
            return lambda: None
        progress.note(detail)
        return lambda: progress.advance()

    out_root = Path(out_root)
    done = step("the cards' art (the build's, from its cache when it is up to date)")
    manifest = render_game_art(game_id, out_root, progress=progress.note if progress is not None else None)
    done()
    done = step("the boards and pieces")
    layout = load_table_layout(game_id)
    source = load_art_source(game_id)
    folder = out_root / game_id / "print"
    trimmed: dict[str, Image.Image] = {}
    full: dict[str, Image.Image] = {}

    def render(pic: Picture) -> Image.Image:
        if pic.digest not in full:  # the cache keeps pictures at the TTS sizes: print's are drawn here
            full[pic.digest] = pic.draw(source)
        return full[pic.digest]

    paper = PAPERS[paper_name]
    cards = print_cards(manifest)
    # the kit at the cards' scale on the table: a card's art width (mm) over its width in table units
    mm_per_unit = cards[0].size_mm[0] / layout.card.size[0] if cards else DEFAULT_MM_PER_UNIT
    kit_list, kit_scale = kit_cards(layout, mm_per_unit, paper, kit=kit)
    # boards drawn at BOARD_DPI of their printed size where that is finer than the build's
    ppu = math.ceil(BOARD_DPI / 25.4 * kit_scale)
    boards = tuple(dataclasses.replace(b, pixels_per_unit=max(ppu, b.pixels_per_unit)) for b in layout.boards)
    kit_pictures: dict[str, Image.Image] = {}
    for name, img in render_kit_pictures(dataclasses.replace(layout, boards=boards)).items():
        if img.mode == "RGBA":  # a token TTS cuts out: on white paper
            kit_pictures[name] = Image.alpha_composite(Image.new("RGBA", img.size, "white"), img).convert("RGB")
        else:
            kit_pictures[name] = img.convert("RGB")
    done()
    tiles: dict[KitImage, Image.Image] = {}

    def picture(pic: Art) -> Image.Image:  # one object per render: fpdf2 embeds it once
        if isinstance(pic, KitImage):
            whole = kit_pictures[pic.name]
            if pic.bleed:
                if pic not in tiles:
                    tiles[pic] = bled(whole, pic.shape, pic.bleed)
                return tiles[pic]
            box = pic.box
            if box is None:
                return whole
            if pic not in tiles:
                left, top, right, bottom = box
                tiles[pic] = shade_tab(whole.crop((round(left * whole.width), round(top * whole.height),
                                                   round(right * whole.width), round(bottom * whole.height))), pic)
            return tiles[pic]
        if pic.digest not in trimmed:
            trimmed[pic.digest] = trim(render(pic), pic.layout, pic.dpi)
        return trimmed[pic.digest]

    cards += kit_list
    if not cards:
        raise InputError(f"{game_id}: the art has no cards or components to print")
    pages, scaled = plan_pages(cards, paper, backs=backs)
    title = rules.get_game(game_id).name
    pdf_path = folder / f"{game_id}-{paper_name}.pdf"
    done = step(f"the PDF, {len(pages)} pages")
    atomic_write_bytes(pdf_path, write_pdf(pages, paper, picture, title=title,
                                           paper_name=PAPER_NAMES[paper_name]))
    done()
    done = step("a PNG per card")

    png_folder = folder / "png"
    encoded: dict[str, bytes] = {}
    written: set[str] = set()

    def write_png(name: str, pic: Art, size_mm: tuple[float, float]) -> None:
        if isinstance(pic, KitImage) and pic.whole_mm is not None:  # a tile: the whole board's PNG
            name, size_mm, pic = f"{pic.board}.png", pic.whole_mm, KitImage(pic.name)
        key = pic.name if isinstance(pic, KitImage) else pic.digest
        if key not in encoded:
            img = picture(pic) if isinstance(pic, KitImage) else render(pic)
            dpi = (img.width * 25.4 / (size_mm[0] * (1 + 2 * pic.bleed)) if isinstance(pic, KitImage)
                   else pic.dpi)  # a shaped piece's PNG carries its bleed, as a card's does
            encoded[key] = _png(img, dpi)
        data = encoded[key]
        path = png_folder / name
        written.add(name)
        if path.is_file() and hashlib.sha256(path.read_bytes()).digest() == hashlib.sha256(data).digest():
            return
        atomic_write_bytes(path, data)

    shared_backs = {c.deck for c in cards if c.back is not None and
                    all(o.back == c.back for o in cards if o.deck == c.deck)}
    for card in cards:
        write_png(f"{card.card_id}.png", card.face, card.size_mm)
        if card.back is not None and card.deck not in shared_backs:
            write_png(f"{card.card_id}-back.png", card.back, card.size_mm)
    for card in cards:
        if card.back is not None and card.deck in shared_backs and f"{card.deck}-back.png" not in written:
            write_png(f"{card.deck}-back.png", card.back, card.size_mm)
    for stale in sorted(png_folder.glob("*.png")):
        if stale.name not in written:
            stale.unlink()
    done()
    tiled: dict[str, tuple[int, int]] = {}
    for card in kit_list:
        if isinstance(card.face, KitImage) and card.face.tile is not None:
            tiled[card.face.board] = (card.face.tile[3], card.face.tile[2])
    boards_in_tiles = sum(cols * rows - 1 for cols, rows in tiled.values())
    return PrintResult(pdf_path, len(pages), sum(p.side == "fronts" for p in pages), len(cards) - len(kit_list),
                       len(kit_list) - boards_in_tiles, len(written), tuple(scaled),
                       kit_scale / mm_per_unit if kit_list else 1.0,
                       tuple((board, cols, rows) for board, (cols, rows) in tiled.items()))


def print_command(game_id: str, out_root: Path, paper_name: str = "a4", *, backs: bool = True,
                  as_json: bool = False, kit: str = "table", progress: Mode = "auto") -> int:
    """Body of ``tts-builder print``: write the print folder, say what is in it (``as_json``: one JSON
    object), return 0. ``progress`` is the progress line's mode (stderr)."""
    from tts_builder.progress import Progress

    with Progress("print", len(PRINT_STEPS), "steps", mode=progress) as shown:
        result = print_game(game_id, out_root, paper_name, backs=backs, kit=kit, progress=shown)
    if as_json:
        print(json.dumps({"game": game_id, "paper": paper_name, "pdf": str(result.pdf), "pages": result.pages,
                          "front_pages": result.front_pages, "cards": result.cards, "kit": result.kit,
                          "kit_scale": round(result.kit_scale, 4), "pngs": result.pngs,
                          "png_folder": str(result.pdf.parent / "png"), "scaled": list(result.scaled),
                          "tiles": {board: [cols, rows] for board, cols, rows in result.tiled}},
                         sort_keys=True))
        return 0
    paper = PAPER_NAMES[paper_name]
    sides = (f"{result.front_pages} of fronts, each followed by its backs for duplex (flip on the long edge)"
             if backs else "fronts only")
    kit_text = ""
    if result.kit:
        kit_text = f" and {result.kit} board(s)/piece(s)" + (
            f" (at {result.kit_scale:.0%} of the cards' table scale, to fit the paper)" if result.kit_scale < 1 else "")
    print(f"{game_id}: {result.cards} card(s){kit_text} on {result.pages} {paper} page(s) ({sides}) -> {result.pdf}")
    for board, cols, rows in result.tiled:
        print(f"{board}: at the table's scale in {cols * rows} tiles ({rows} row(s) of {cols}); "
              f"cut on the marks, lay each tile's edge on the dashed line over its neighbour's shaded tab, "
              f"half circles matched (--kit fit shrinks the kit to fit a page)")
    print(f"{result.pngs} PNG(s) at the render resolution, bleed included -> {result.pdf.parent / 'png'}")
    if result.scaled:
        print(f"note: {len(result.scaled)} component(s) larger than the page printed smaller than life: "
              f"{', '.join(result.scaled[:5])}{' ...' if len(result.scaled) > 5 else ''}")
    return 0
