"""Packing card pictures into Tabletop Simulator deck sheets.

TTS reads a deck sheet as a grid of ``NumWidth`` x ``NumHeight`` equal cells, at
most 10 x 7, and wants textures no larger than 4096 px a side (tts-format.md §6).
When ``BackIsHidden`` is false the **last** cell of the grid is the "hidden" face
shown for cards in another player's hand, so a sheet holds at most
``NumWidth * NumHeight - 1`` cards; when true every cell holds a card. Slots are
numbered row-major from the top-left, and ``CardID = deck_key * 100 + slot``.

:func:`plan_sheets` is pure arithmetic (tested with hypothesis); :func:`compose_sheet`
pastes pictures into a plan.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image

MAX_COLUMNS = 10
MAX_ROWS = 7
MAX_SHEET_PX = 4096


@dataclass(frozen=True)
class SheetPlan:
    """One sheet: its grid, its cell size and the card keys in slot order."""

    num_width: int
    num_height: int
    cell_width: int
    cell_height: int
    cards: tuple[str, ...]
    back_is_hidden: bool

    @property
    def width(self) -> int:
        return self.num_width * self.cell_width

    @property
    def height(self) -> int:
        return self.num_height * self.cell_height

    @property
    def cells(self) -> int:
        return self.num_width * self.num_height

    @property
    def capacity(self) -> int:
        return self.cells if self.back_is_hidden else self.cells - 1

    @property
    def hidden_slot(self) -> int | None:
        """The cell holding the hidden face (the last one), or None when BackIsHidden."""
        return None if self.back_is_hidden else self.cells - 1

    def cell_box(self, slot: int) -> tuple[int, int, int, int]:
        col, row = slot % self.num_width, slot // self.num_width
        x, y = col * self.cell_width, row * self.cell_height
        return (x, y, x + self.cell_width, y + self.cell_height)


def sheet_capacity(back_is_hidden: bool, max_columns: int = MAX_COLUMNS, max_rows: int = MAX_ROWS) -> int:
    cells = max_columns * max_rows
    return cells if back_is_hidden else cells - 1


def choose_grid(cards: int, card_w: int, card_h: int, *, back_is_hidden: bool,
                max_columns: int = MAX_COLUMNS, max_rows: int = MAX_ROWS,
                max_px: int = MAX_SHEET_PX) -> tuple[int, int, int, int]:
    """Grid and cell size for ``cards`` cards: ``(columns, rows, cell_w, cell_h)``.

    Among the grids with room for the cards (and the hidden cell), pick the one
    whose cells can stay largest under ``max_px`` (never enlarged beyond the card
    size), then the fewest empty cells, then the squarest sheet, then fewer columns.
    """
    need = cards + (0 if back_is_hidden else 1)
    if cards < 1:
        raise ValueError("a sheet needs at least one card")
    if need > max_columns * max_rows:
        raise ValueError(f"{cards} cards do not fit one {max_columns}x{max_rows} sheet")
    best: tuple[tuple[float, int, float, int], tuple[int, int, int, int]] | None = None
    for cols in range(1, max_columns + 1):
        rows = math.ceil(need / cols)
        if rows > max_rows:
            continue
        scale = min(1.0, max_px / (cols * card_w), max_px / (rows * card_h))
        cw, ch = max(1, math.floor(card_w * scale)), max(1, math.floor(card_h * scale))
        squareness = abs(math.log((cols * cw) / (rows * ch)))
        key = (-(cw * ch), cols * rows - need, round(squareness, 9), cols)
        if best is None or key < best[0]:
            best = (key, (cols, rows, cw, ch))
    assert best is not None
    return best[1]


def plan_sheets(keys: Sequence[str], card_w: int, card_h: int, *, back_is_hidden: bool,
                max_columns: int = MAX_COLUMNS, max_rows: int = MAX_ROWS,
                max_px: int = MAX_SHEET_PX) -> list[SheetPlan]:
    """Split ``keys`` (one per card design, in order) over as few sheets as the limits allow.

    Sheets are filled in order and balanced (71 cards -> 36 + 35, not 70 + 1), each
    with its own grid from :func:`choose_grid`.
    """
    if len(set(keys)) != len(keys):
        raise ValueError("card keys must be unique (copies share one cell)")
    if card_w < 1 or card_h < 1:
        raise ValueError("card size must be positive")
    if not keys:
        return []
    cap = sheet_capacity(back_is_hidden, max_columns, max_rows)
    if cap < 1:
        raise ValueError("the grid limits leave no room for a card")
    count = math.ceil(len(keys) / cap)
    base, extra = divmod(len(keys), count)
    plans: list[SheetPlan] = []
    start = 0
    for n in range(count):
        size = base + (1 if n < extra else 0)
        chunk = tuple(keys[start:start + size])
        start += size
        cols, rows, cw, ch = choose_grid(len(chunk), card_w, card_h, back_is_hidden=back_is_hidden,
                                         max_columns=max_columns, max_rows=max_rows, max_px=max_px)
        plans.append(SheetPlan(cols, rows, cw, ch, chunk, back_is_hidden))
    return plans


def compose_sheet(plan: SheetPlan, pictures: Sequence[Image.Image], *, hidden: Image.Image | None = None,
                  empty: tuple[int, int, int] = (0, 0, 0)) -> Image.Image:
    """Paste ``pictures`` (one per card of the plan, slot order) into an RGB sheet.

    Each picture is resized to the cell (Lanczos). ``hidden`` fills the hidden cell
    when the plan has one; unused cells are ``empty``.
    """
    if len(pictures) != len(plan.cards):
        raise ValueError(f"{len(plan.cards)} cards in the plan, {len(pictures)} pictures")
    sheet = Image.new("RGB", (plan.width, plan.height), empty)
    cell = (plan.cell_width, plan.cell_height)

    def put(slot: int, pic: Image.Image) -> None:
        if pic.size != cell:
            pic = pic.resize(cell, Image.Resampling.LANCZOS)
        sheet.paste(pic if pic.mode == "RGB" else pic.convert("RGB"), plan.cell_box(slot)[:2])

    for slot, pic in enumerate(pictures):
        put(slot, pic)
    if plan.hidden_slot is not None:
        if hidden is None:
            raise ValueError("BackIsHidden is false: the hidden face picture is required")
        put(plan.hidden_slot, hidden)
    return sheet
