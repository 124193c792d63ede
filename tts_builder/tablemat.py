"""The play mat: a picture of the table layout, drawn with Pillow from the zone rectangles.

Players see where to drop cards: every scripting zone is a labelled rectangle
(its label at the top, a hint at the bottom, in the frame of the seat it faces),
every snap point a faint card outline, and the layout's panels carry short
reminders. The image maps world x/z to pixels at ``mat.pixels_per_unit``, with
the image top at the far side (+z) as seat 0 sees it; the mat object is turned
by ``mat.rotation_y`` so that this holds in game (``art_src/<game>/table.json``).

Output is deterministic: the same layout gives byte-identical PNG bytes.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from tts_builder.art import legibility
from tts_builder.art.render import fit_text, font, png_bytes
from tts_builder.art.source import BoardArt, FontFile, TableArt, load_art_source, load_fonts, load_table_art
from tts_builder.save import (PLAYER_COLORS, BoardSpec, Face, Panel, Rect, TableLayout, Zone, hex_face_turn,
                               kit_images)

RGB = tuple[int, int, int]


@dataclass(frozen=True)
class TableFonts:
    """The fonts of the table's pictures: ``text`` for hints and panel text, ``label`` for titles,
    zone labels and cell ids (None: Pillow's built-in font)."""

    text: FontFile | None = None
    label: FontFile | None = None


def table_fonts(game_id: str) -> TableFonts:
    """The fonts ``art_src/<game_id>/art.json`` names: "body" for text, "bold" (else "body") for labels."""
    fonts = load_fonts(game_id)
    body = fonts.get("body")
    return TableFonts(body, fonts.get("bold", body))


relative_luminance = legibility.luminance
contrast_ratio = legibility.contrast


def _hex(color: str) -> RGB:
    return (int(color[1:3], 16), int(color[3:5], 16), int(color[5:7], 16))


def _mix(a: RGB, b: RGB, t: float) -> RGB:
    return (round(a[0] + (b[0] - a[0]) * t), round(a[1] + (b[1] - a[1]) * t), round(a[2] + (b[2] - a[2]) * t))


class _Canvas:
    def __init__(self, layout: TableLayout) -> None:
        mat = layout.mat
        self.layout = layout
        self.ppu = mat.pixels_per_unit
        self.x0, self.z1 = mat.rect[0], mat.rect[3]
        self.size = (math.ceil((mat.rect[2] - mat.rect[0]) * self.ppu), math.ceil((mat.rect[3] - mat.rect[1]) * self.ppu))
        self.colors = {k: _hex(v) for k, v in mat.colors.items()}
        self.img = Image.new("RGB", self.size, self.colors["background"])
        self.fonts = table_fonts(layout.game_id)
        self.art = load_table_art(layout.game_id)

    def px(self, units: float) -> int:
        return max(1, round(units * self.ppu))

    def box(self, rect: Rect) -> tuple[int, int, int, int]:
        """World rect -> pixel box (left, top, right, bottom); the image top is +z."""
        x0, z0, x1, z1 = rect
        return (round((x0 - self.x0) * self.ppu), round((self.z1 - z1) * self.ppu),
                round((x1 - self.x0) * self.ppu), round((self.z1 - z0) * self.ppu))


def _text(draw: ImageDraw.ImageDraw, text: str, box: tuple[int, int, int, int], color: RGB, size_px: int,
          *, wrap: bool = False, valign: str = "middle", face: FontFile | None = None) -> None:
    """Centre ``text`` in ``box``, shrinking it until it fits."""
    if not text.strip():
        return
    left, top, right, bottom = box
    w, h = right - left, bottom - top
    if w <= 0 or h <= 0:
        return
    size_px = max(size_px, legibility.MIN_EM_PX)
    fitted = fit_text(text, w, h, size_px=size_px, min_size_px=max(legibility.MIN_EM_PX, size_px // 3), wrap=wrap,
                      align="center", face=face)
    x = left + (w - fitted.width) // 2 - fitted.bbox[0]
    if valign == "top":
        y = top - fitted.bbox[1]
    else:
        y = top + (h - fitted.height) // 2 - fitted.bbox[1]
    fnt = font(fitted.size_px, face)
    if legibility.recording() is not None:
        mask = Image.new("L", (w, h), 0)
        ImageDraw.Draw(mask).multiline_text((x - left, y - top), fitted.text, fill=255, font=fnt,
                                            spacing=fitted.spacing_px, align="center")
        legibility.note_text(draw._image, mask, (left, top), color, fitted.size_px, text, fitted.fits)
    draw.multiline_text((x, y), fitted.text, fill=color, font=fnt, spacing=fitted.spacing_px, align="center")


#: How far a card slot's outline goes from the zone colour towards the hint colour (contrast >= 3:1).
SLOT_OUTLINE_MIX = 0.75


def zone_fill(layout: TableLayout, zone: Zone) -> RGB:
    """The colour a zone is filled with: the mat's zone colour tinted a quarter of the way to its seat's
    colour, less when that would leave the mat's text colour below 4.5:1 on it (White's zone)."""
    base = _hex(layout.mat.colors["zone"])
    if zone.seat is None:
        return base
    rgb = PLAYER_COLORS[layout.seats[zone.seat].color]
    seat = (round(rgb[0] * 255), round(rgb[1] * 255), round(rgb[2] * 255))
    text = _hex(layout.mat.colors["text"])
    for tint in (0.25, 0.2, 0.15, 0.1, 0.05):
        fill = _mix(base, seat, tint)
        if contrast_ratio(text, fill) >= TEXT_CONTRAST:
            return fill
    return base


#: WCAG 2 minimum contrast: 4.5:1 for text, 3:1 for graphics (card slot outlines).
TEXT_CONTRAST, GRAPHIC_CONTRAST = 4.5, 3.0
_DARK_INK: RGB = (16, 16, 16)


def ink_on(fill: RGB, preferred: RGB, others: tuple[RGB, ...], minimum: float = TEXT_CONTRAST) -> RGB:
    """``preferred`` when it reaches ``minimum`` contrast on ``fill``, else the best of ``others`` and
    near-black or white (a zone tinted by its seat's colour gets the ink that reads best on it)."""
    if contrast_ratio(preferred, fill) >= minimum:
        return preferred
    return max((*others, _DARK_INK, (255, 255, 255)), key=lambda ink: contrast_ratio(ink, fill))


def zone_inks(layout: TableLayout, zone: Zone) -> tuple[RGB, RGB, RGB]:
    """A zone's label, hint and card slot colours: the mat's, unless too faint on the zone's fill."""
    colors = {k: _hex(v) for k, v in layout.mat.colors.items()}
    fill = zone_fill(layout, zone)
    label = ink_on(fill, colors["text"], (colors["background"],))
    hint = ink_on(fill, colors["hint"], (label,))
    slot = _mix(colors["zone"], colors["hint"], SLOT_OUTLINE_MIX)
    if contrast_ratio(slot, fill) < GRAPHIC_CONTRAST:
        slot = _mix(fill, hint, SLOT_OUTLINE_MIX)
    return label, hint, slot


def mat_contrasts(layout: TableLayout) -> list[tuple[str, float]]:
    """WCAG contrast ratio of every text on the mat against what it is drawn on, and of the card
    slot outlines against their zone: ``(what, ratio)``, for the tests and for authors of table.json."""
    colors = {k: _hex(v) for k, v in layout.mat.colors.items()}
    out: list[tuple[str, float]] = []
    for zone in layout.zones:
        if zone.role in layout.zone_cells:
            continue
        fill = zone_fill(layout, zone)
        label, hint, slot = zone_inks(layout, zone)
        out.append((f"zone {zone.role} label", contrast_ratio(label, fill)))
        if zone.hint:
            out.append((f"zone {zone.role} hint", contrast_ratio(hint, fill)))
        if zone.snaps:
            out.append((f"zone {zone.role} card slots", contrast_ratio(slot, fill)))
    for n, panel in enumerate(layout.mat.panels):
        ground = colors["panel"] if panel.box else colors["background"]
        out.append((f"panel {n} ({panel.title}) title", contrast_ratio(colors["text"], ground)))
        if panel.box and panel.text:
            out.append((f"panel {n} ({panel.title}) text", contrast_ratio(colors["hint"], ground)))
    return out


def _zone_picture(c: _Canvas, zone: Zone) -> Image.Image:
    """One zone drawn upright for the seat it faces (rotated into place by the caller)."""
    w, h = c.px(zone.size[0]), c.px(zone.size[1])
    pic = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    draw = ImageDraw.Draw(pic)
    fill = zone_fill(c.layout, zone)
    label_ink, hint_ink, _ = zone_inks(c.layout, zone)
    radius = c.px(0.25)
    line = max(2, c.px(0.05))
    draw.rounded_rectangle((0, 0, w - 1, h - 1), radius=radius, fill=fill + (255,), outline=c.colors["outline"] + (255,),
                           width=line)
    pad = c.px(0.12)
    label_px, hint_px = c.px(0.42), c.px(0.28)
    if zone.label_width is not None:  # a long area: label and hint in a block at its left end
        lw = c.px(zone.label_width)
        draw.line((lw, pad, lw, h - pad), fill=c.colors["outline"] + (255,), width=max(1, line // 2))
        _text(draw, zone.label, (pad, pad, lw - pad, h // 2), label_ink, label_px, wrap=True,
              face=c.fonts.label)
        _text(draw, zone.hint, (pad, h // 2, lw - pad, h - pad), hint_ink, hint_px, wrap=True,
              face=c.fonts.text)
    else:  # a card area: label along the top, hint along the bottom
        band = c.px(0.62)
        # a hint gets two lines of the smallest legible size when one line is too narrow for it
        side = line + 1  # the hint may use the zone's width up to its border (narrow zones)
        hint_band = max(band, round(2.6 * legibility.MIN_EM_PX) if _too_wide(zone.hint, w - 2 * side, c) else band)
        _text(draw, zone.label, (pad, pad, w - pad, band), label_ink, label_px, face=c.fonts.label)
        _text(draw, zone.hint, (side, h - hint_band, w - side, h - pad), hint_ink, hint_px, wrap=True,
              face=c.fonts.text)
    if zone.facing % 2:
        turned = pic.rotate(180)
        legibility.moved(pic, turned, (0, 0), turned=True)
        return turned
    return pic


def _too_wide(text: str, width: int, c: _Canvas) -> bool:
    """Whether ``text`` on one line at the smallest legible size is wider than ``width`` pixels."""
    fitted = fit_text(text, width, 10 ** 6, size_px=legibility.MIN_EM_PX, face=c.fonts.text)
    return not fitted.fits


def _panel(c: _Canvas, panel: Panel) -> None:
    """A panel (a box with a title and text, or a free-standing title), upside down when it faces
    the far edge."""
    box = c.box(panel.rect)
    area = c.img.crop(box)
    if panel.facing % 2:
        area = area.rotate(180)
    draw = ImageDraw.Draw(area)
    left, top, right, bottom = 0, 0, area.width, area.height
    if panel.box:
        draw.rounded_rectangle((left, top, right - 1, bottom - 1), radius=c.px(0.25), fill=c.colors["panel"],
                               outline=c.colors["outline"], width=max(1, c.px(0.03)))
    pad = c.px(0.2)
    if not panel.box:  # a free-standing title
        _text(draw, panel.title, (left, top, right, bottom), c.colors["text"], c.px(0.8),
              face=c.fonts.label)
    else:
        band = c.px(0.8)
        _text(draw, panel.title, (left + pad, top + pad, right - pad, top + band), c.colors["text"], c.px(0.45),
              face=c.fonts.label)
        if panel.text_position == "top":
            _text(draw, panel.text, (left + pad, top + band + pad, right - pad, bottom - pad), c.colors["hint"],
                  c.px(0.3), wrap=True, valign="top", face=c.fonts.text)
        else:
            _text(draw, panel.text, (left + pad, bottom - c.px(1.6), right - pad, bottom - pad), c.colors["hint"],
                  c.px(0.3), wrap=True, face=c.fonts.text)
    done = area.rotate(180) if panel.facing % 2 else area
    c.img.paste(done, box[:2])
    legibility.moved(area, c.img, box[:2], turned=bool(panel.facing % 2))


def render_mat(layout: TableLayout) -> Image.Image:
    """The mat picture (RGB) for ``layout``."""
    c = _Canvas(layout)
    draw = ImageDraw.Draw(c.img)
    for panel in layout.mat.panels:
        _panel(c, panel)
    card_w, card_h = layout.card.size
    outline = _mix(c.colors["zone"], c.colors["hint"], SLOT_OUTLINE_MIX)
    for zone in layout.zones:
        if zone.role in layout.zone_cells:  # made of board cells: the board shows it, not the mat
            continue
        left, top, _, _ = c.box(zone.rect)
        pic = _zone_picture(c, zone)
        c.img.paste(pic, (left, top), pic)
        legibility.moved(pic, c.img, (left, top))
        slot = zone_inks(layout, zone)[2]
        if not _cards_fit(zone, card_w, card_h):  # snap points for tokens, not cards: no card outlines
            continue                              # (they would run through the zone's label)
        for x, z in zone.snap_positions():  # where a card lands
            box = c.box((x - card_w / 2, z - card_h / 2, x + card_w / 2, z + card_h / 2))
            draw.rounded_rectangle(box, radius=c.px(0.15), outline=slot, width=max(1, c.px(0.025)))
    for board in layout.boards:
        caption = c.art.board(board.name).caption
        if caption:
            _caption(c, board, caption)
    for placement in layout.decks:  # cards laid out one by one (e.g. reference cards)
        w, h = placement.footprint(layout.card)
        for x, z in placement.spread:
            box = c.box((x - w / 2, z - h / 2, x + w / 2, z + h / 2))
            draw.rounded_rectangle(box, radius=c.px(0.12), outline=outline, width=max(1, c.px(0.025)))
    rec = legibility.recording()
    if rec is not None:
        for what, ratio in mat_contrasts(layout):
            if "card slots" in what:
                rec.marks_checked.append((f"mat: {what}", ratio))
    legibility.settle(c.img)
    return c.img


def _cards_fit(zone: Zone, card_w: float, card_h: float) -> bool:
    """Whether a card outline at every snap point of ``zone`` lies inside the zone."""
    x0, z0, x1, z1 = zone.rect
    eps = 1e-6
    return all(x0 - eps <= x - card_w / 2 and x + card_w / 2 <= x1 + eps and z0 - eps <= z - card_h / 2
               and z + card_h / 2 <= z1 + eps for x, z in zone.snap_positions())


#: A board caption's height on the mat, in table units, and its gap from the board.
CAPTION_H, CAPTION_GAP = 1.0, 0.15


def caption_rect(board: BoardSpec) -> Rect:
    """Where the mat prints a board's caption: a band just beyond the board's far (+z) edge."""
    x, z = board.center
    w, d = board.size
    top = z + d / 2 + CAPTION_GAP
    return (x - w / 2, top, x + w / 2, top + CAPTION_H)


def _caption(c: _Canvas, board: BoardSpec, caption: str) -> None:
    draw = ImageDraw.Draw(c.img)
    _text(draw, caption, c.box(caption_rect(board)), c.colors["text"], c.px(0.8), face=c.fonts.label)


def render_mat_png(layout: TableLayout) -> bytes:
    """:func:`render_mat` as deterministic PNG bytes."""
    return png_bytes(render_mat(layout))


def render_thumbnail(layout: TableLayout, size: int = 256) -> Image.Image:
    """A square thumbnail of the mat, for games whose art has no thumbnail. With boards, the
    boards and the pieces laid out on the table are drawn on it and the picture is the square
    around them (a board game's face is its board); the game's name (``metadata.game_mode``) is
    printed under the picture."""
    mat = render_mat(layout)
    if layout.boards:
        mat = _laid_out(layout, mat)
    title = str(layout.metadata.get("game_mode", "")).upper()
    band = round(size * 0.17) if title else 0
    room = size - band
    scale = room / max(mat.size)
    small = mat.resize((max(1, round(mat.width * scale)), max(1, round(mat.height * scale))), Image.Resampling.LANCZOS)
    colors = {k: _hex(v) for k, v in layout.mat.colors.items()}
    out = Image.new("RGB", (size, size), colors["background"])
    out.paste(small, ((size - small.width) // 2, (room - small.height) // 2))
    if title:
        fonts = table_fonts(layout.game_id)
        _text(ImageDraw.Draw(out), title, (6, room, size - 6, size - 4), colors["outline"], band - 10,
              face=fonts.label)
    return out


def _laid_out(layout: TableLayout, mat: Image.Image) -> Image.Image:
    """The mat with the boards and the pieces not in a bag drawn where the table lays them,
    cropped to the square around them."""
    c = _Canvas(layout)
    c.img = mat.copy()
    boxes = []

    def paste(img: Image.Image, center: tuple[float, float], size: tuple[float, float], rotation_y: float) -> None:
        x, z = center
        box = c.box((x - size[0] / 2, z - size[1] / 2, x + size[0] / 2, z + size[1] / 2))
        pic = img.convert("RGBA").resize((max(1, box[2] - box[0]), max(1, box[3] - box[1])), Image.Resampling.LANCZOS)
        if rotation_y % 360:  # TTS turns clockwise seen from above; PIL counter-clockwise
            pic = pic.rotate(-rotation_y, expand=True, resample=Image.Resampling.BICUBIC)
        cx, cz = (box[0] + box[2]) // 2, (box[1] + box[3]) // 2
        left, top = cx - pic.width // 2, cz - pic.height // 2
        c.img.paste(pic, (left, top), pic)
        boxes.append((left, top, left + pic.width, top + pic.height))

    for board in layout.boards:
        paste(render_board(board, c.fonts, c.art.board(board.name)), board.center, board.size, board.rotation_y)
    for piece in layout.pieces:
        where = piece.position
        if piece.cell is not None:
            where = layout.board(piece.cell[0]).cell_world(piece.cell[1])
        if where is not None and piece.kind != "figurine":
            paste(render_face(piece.faces[0], piece.shape, cutout=True, fonts=c.fonts), where, (piece.size, piece.size), 0.0)
    left, top = min(b[0] for b in boxes), min(b[1] for b in boxes)
    right, bottom = max(b[2] for b in boxes), max(b[3] for b in boxes)
    side = max(right - left, bottom - top) + 2 * c.px(0.5)
    cx, cz = (left + right) // 2, (top + bottom) // 2
    square = Image.new("RGB", (side, side), c.colors["background"])
    square.paste(c.img, (side // 2 - cx, side // 2 - cz))
    return square


# --------------------------------------------------------------------------- the kit's pictures

PIECE_PX = 256


def cell_label_ink(board: BoardSpec, attrs: Mapping[str, Any]) -> RGB:
    """A cell id's colour: near-black, or white on a cell too dark for it (4.5:1 or better)."""
    return ink_on(_hex(board.cells.color_of(attrs)), _DARK_INK, ((255, 255, 255),))


def cell_texts(board: BoardSpec, art: BoardArt) -> dict[str, str]:
    """What each cell of ``board`` says: its id, its number (1.. left to right from the top row, as a
    track is read), or nothing (``art.cell_labels``; nothing either when the board has no labels)."""
    labels = art.cell_labels or ("ids" if board.labels else "none")
    if labels == "none":
        return {}
    cells = list(board.grid)
    if labels == "numbers":
        order = sorted(cells, key=lambda cell: (-round(cell.center[1], 6), round(cell.center[0], 6)))
        return {cell.id: str(n) for n, cell in enumerate(order, 1)}
    return {cell.id: cell.id for cell in cells}


def render_board(board: BoardSpec, fonts: TableFonts = TableFonts(), art: BoardArt = BoardArt()) -> Image.Image:
    """A board picture from its grid: cells filled by the cell colour rule, edges (when the
    board has an ``edges`` rule) drawn centre to centre in its colours (outlined and round-ended as
    ``art`` asks), the cells' :func:`cell_texts` as labels. The image covers the board's ``size`` at
    ``pixels_per_unit``, top = board-local +z."""
    w, d = board.size
    ppu = board.pixels_per_unit
    size = (math.ceil(w * ppu), math.ceil(d * ppu))
    img = Image.new("RGB", size, _hex(board.background))
    draw = ImageDraw.Draw(img)
    s = board.scale

    def px(x: float, z: float) -> tuple[float, float]:
        return (size[0] / 2 + x * s * ppu, size[1] / 2 - z * s * ppu)

    grid = board.grid
    line = max(1, round(0.03 * s * ppu))
    for cell in grid:
        draw.polygon([px(x, z) for x, z in grid.outline(cell.id)], fill=_hex(board.cells.color_of(cell.attrs)),
                     outline=_hex(board.background), width=line)
    width = max(1, round(board.edge_width * s * ppu))
    edge_colors = board.edges
    if edge_colors is not None:  # a board draws its edges only when it has an edges rule
        edges = [(px(*grid.cell(e.a).center), px(*grid.cell(e.b).center), _hex(edge_colors.color_of(e.attrs)))
                 for e in grid.edges()]
        if art.edge_outline is not None:  # every bridge's outline first, so crossings stay one shape each
            ring = max(2, width // 5)
            for a, b, _ in edges:
                _bar(draw, a, b, width + 2 * ring, _hex(art.edge_outline), art.round_caps)
        for a, b, colour in edges:
            _bar(draw, a, b, width, colour, art.round_caps)
        _note_edge_marks(board, art, {colour for _, _, colour in edges})
    texts = cell_texts(board, art)
    if texts:
        cell_px = round(grid.cell_size * s * ppu)
        for cell in grid:
            cx, cz = px(*cell.center)
            half = cell_px // 3
            if board.label_corner:  # a third of the cell wide, in its top-left corner
                cx, cz, half = cx - cell_px / 2 + cell_px / 5, cz - cell_px / 2 + cell_px / 6, cell_px // 6
            _text(draw, texts[cell.id], (round(cx - half), round(cz - half), round(cx + half), round(cz + half)),
                  cell_label_ink(board, cell.attrs), max(8, cell_px // 4), face=fonts.label)
    legibility.settle(img)
    return img


def _note_edge_marks(board: BoardSpec, art: BoardArt, colours: set[RGB]) -> None:
    """The bridges are what a move turns on: each colour must stand out from the cells (itself or
    through its outline) and from every other bridge colour (3:1)."""
    rec = legibility.recording()
    if rec is None:
        return
    cells = {_hex(board.cells.color_of(cell.attrs)) for cell in board.grid}
    outline = _hex(art.edge_outline) if art.edge_outline else None
    for colour in sorted(colours):
        for cell in sorted(cells):
            best = max(contrast_ratio(colour, cell), contrast_ratio(outline, cell) if outline else 0.0)
            rec.marks_checked.append((f"board {board.name}: bridge {_hex_text(colour)} on cell {_hex_text(cell)}", best))
        for other in sorted(colours):
            if other > colour:
                rec.marks_checked.append((f"board {board.name}: bridge {_hex_text(colour)} against {_hex_text(other)}",
                                          contrast_ratio(colour, other)))


def _hex_text(rgb: RGB) -> str:
    return "#%02x%02x%02x" % rgb


def _bar(draw: ImageDraw.ImageDraw, a: tuple[float, float], b: tuple[float, float], width: int, colour: RGB,
         round_caps: bool) -> None:
    """A straight bar from ``a`` to ``b``, with round ends (a disc at each end) when asked."""
    draw.line((a, b), fill=colour, width=width)
    if round_caps:
        r = width / 2
        for x, y in (a, b):
            draw.ellipse((x - r, y - r, x + r, y + r), fill=colour)


def render_face(face: Face, shape: str, *, cutout: bool, fonts: TableFonts = TableFonts(),
                symbol: Image.Image | None = None, note: str = "", turn: float = 0.0) -> Image.Image:
    """One face of a piece: the shape filled with the face colour, its label centred (or, with a
    ``symbol`` picture, the symbol on a light disc and the label under it, and ``note`` small under
    that: "placeholder"). ``cutout`` (tokens, which TTS cuts out of the image) leaves the outside
    transparent. ``turn``: the degrees (y, clockwise seen from above, as TTS turns objects) the
    piece is turned on the table beyond the upright (a hex tile on a pointy-topped board,
    :func:`tts_builder.save.hex_face_turn`): the picture is drawn turned back as much, so its label
    reads upright there (a hex drawn pointy-topped and turned 90 is flat-topped, as the tile is
    unturned)."""
    n = PIECE_PX
    img = Image.new("RGBA", (n, n), (0, 0, 0, 0) if cutout else _hex(face.color) + (255,))
    draw = ImageDraw.Draw(img)
    fill = _hex(face.color) + (255,)
    edge = _mix(_hex(face.color), (0, 0, 0), 0.5) + (255,)
    if shape == "circle":
        draw.ellipse((4, 4, n - 5, n - 5), fill=fill, outline=edge, width=6)
    elif shape == "hex":
        r = n / 2 - 4
        draw.polygon([(n / 2 + r * math.cos(math.radians(30 + 60 * k)), n / 2 + r * math.sin(math.radians(30 + 60 * k)))
                      for k in range(6)], fill=fill, outline=edge)
    elif shape == "rounded":
        draw.rounded_rectangle((4, 4, n - 5, n - 5), radius=n // 8, fill=fill, outline=edge, width=6)
    else:
        draw.rectangle((4, 4, n - 5, n - 5), fill=fill, outline=edge, width=6)
    if symbol is not None:
        disc = (n * 0.23, n * 0.09, n * 0.77, n * 0.63)  # the disc and the name's pill stay inside a hex
        draw.ellipse(disc, fill=_SYMBOL_DISC + (255,), outline=edge, width=4)
        inset = round(n * 0.07)
        box = (round(disc[0]) + inset, round(disc[1]) + inset, round(disc[2]) - inset, round(disc[3]) - inset)
        pic = symbol.convert("RGBA").resize((box[2] - box[0], box[3] - box[1]), Image.Resampling.LANCZOS)
        img.alpha_composite(pic, box[:2])
        rec = legibility.recording()
        if rec is not None:  # the symbol's ink: its commonest dark solid colour
            dark = relative_luminance(_SYMBOL_DISC) / 2
            solid: Counter[RGB] = Counter()
            for px in symbol.get_flattened_data():
                assert isinstance(px, tuple)
                rgb = (px[0], px[1], px[2])
                if px[3] == 255 and relative_luminance(rgb) < dark:
                    solid[rgb] += 1
            if solid:
                ink = solid.most_common(1)[0][0]
                rec.mark(f"symbol on {face.label}: ink {_hex_text(ink)} on its disc", ink, _SYMBOL_DISC)
        band = (round(n * 0.12), round(n * 0.65), n - round(n * 0.12), round(n * 0.81))
        draw.rounded_rectangle(band, radius=(band[3] - band[1]) // 2, fill=_SYMBOL_DISC + (255,), outline=edge, width=3)
        _text(draw, face.label, (band[0] + 8, band[1] + 4, band[2] - 8, band[3] - 3),
              ink_on(_SYMBOL_DISC, _hex(face.text_color), ()), n // 8, face=fonts.label)
        if note:  # under the name, inside the hex's lower point; 18 px is 2.5 mm on a 1.25-unit token
            _text(draw, note, (round(n * 0.3), band[3] + 3, n - round(n * 0.3), round(n * 0.91)),
                  ink_on(_hex(face.color), (16, 16, 16), ((255, 255, 255),)), NOTE_PX, face=fonts.label)
    else:
        _text(draw, face.label, (n // 6, n // 6, n - n // 6, n - n // 6),
              ink_on(_hex(face.color), _hex(face.text_color), ()), n // 3, wrap=True, face=fonts.label)
    legibility.settle(img)
    if turn % 360:
        img = img.rotate(turn % 360, resample=Image.Resampling.BICUBIC)  # counter-clockwise in the image
    return img if cutout else img.convert("RGB")


#: A face note's size (px of :data:`PIECE_PX`): at least 2.1 mm on the smallest noted token.
NOTE_PX = 18


def face_notes(game_id: str, art: TableArt) -> dict[str, str]:
    """Face label -> the note ``art.face_note`` puts on it: for each component row of the game's data
    for which the note's ``when`` holds, the face labelled with the row's key in capitals."""
    if not art.face_note:
        return {}
    from tts_builder.art.render import evaluate
    source = load_art_source(game_id)
    out = {}
    for row in source.rows:
        ctx = {**row.fields, "row": dict(row.fields), "game": dict(source.game)}
        if evaluate(art.face_note["when"], ctx, f"{source.origin}: table.face_note.when"):
            out[row.key.upper()] = art.face_note["text"]
    return out


#: The light disc an animal symbol is drawn on (the species card's paper).
_SYMBOL_DISC: RGB = (244, 239, 224)


def symbol_pictures(game_id: str, art: TableArt, px: int = PIECE_PX) -> dict[str, Image.Image]:
    """Each face label's symbol (``art.face_symbols``) drawn from the art source's shape, ``px`` square,
    transparent around it."""
    if not art.face_symbols:
        return {}
    from tts_builder.art.render import draw_shape
    source = load_art_source(game_id)
    out = {}
    for label, name in art.face_symbols.items():
        img = Image.new("RGBA", (px, px), (0, 0, 0, 0))
        draw_shape(source, name, img, (0, 0, px, px))
        out[label] = img
    return out


def render_kit_pictures(layout: TableLayout) -> dict[str, Image.Image]:
    """Every kit image (:func:`tts_builder.save.kit_images`) by file name, not yet encoded."""
    out: dict[str, Image.Image] = {}
    fonts = table_fonts(layout.game_id)
    art = load_table_art(layout.game_id)
    symbols = symbol_pictures(layout.game_id, art)
    notes = face_notes(layout.game_id, art)
    for board in layout.boards:
        with legibility.table_picture(board.image, 1 / board.pixels_per_unit):
            out[board.image] = render_board(board, fonts, art.board(board.name))
    for piece in layout.pieces:
        cutout, turn = piece.tts_name == "Custom_Token", hex_face_turn(layout, piece)
        for side, face in enumerate(piece.faces):
            with legibility.table_picture(piece.image(side), piece.size / PIECE_PX):
                out[piece.image(side)] = render_face(face, piece.shape, cutout=cutout, fonts=fonts,
                                                     symbol=symbols.get(face.label),
                                                     note=notes.get(face.label, "") if face.label in symbols else "",
                                                     turn=turn)
    for st in layout.stacks:
        for side, face in enumerate(st.faces):
            with legibility.table_picture(st.image(side), st.size / PIECE_PX):
                out[st.image(side)] = render_face(face, st.shape, cutout=False, fonts=fonts)
    assert list(out) == kit_images(layout)
    return out
