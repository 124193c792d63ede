"""Smitten 2 at the table (the ``table_actions`` hook, docs/authoring.md): a card is dropped on
its own position of a grid (a card's number is its place, 1 top left to 9 bottom right), on the
reveal, discard or set-aside zone; the rest are panel buttons."""

from __future__ import annotations

from typing import Any

from tts_builder.tableplay import Action, Cell, Click, Drop, Piece, Zone

#: (move type, its one value) -> the panel button's callback
BUTTONS: dict[tuple[Any, Any], str] = {("flip", 0): "ttFlipLeft", ("flip", 1): "ttFlipRight", ("draw", 0): "ttDrawLeft",
           ("draw", 1): "ttDrawRight", ("choose", 0): "ttOption1", ("choose", 1): "ttOption2",
           ("name", 0): "ttColumnLeft", ("name", 1): "ttColumnMiddle", ("name", 2): "ttColumnRight",
           ("name", "revealed"): "ttPlaceIt", ("name", "another"): "ttAnother"}
ZONES = {"reveal": "reveal", "discard": "discard", "swap": "set-aside"}


def grid_cell(card: str) -> str | None:
    """The cell of a 3x3 grid where ``card`` (number then letter, "7a") lies: a1 .. c3."""
    number = card[:-1]
    if not number.isdigit() or not 1 <= int(number) <= 9:
        return None
    pos = int(number) - 1
    return "abc"[pos % 3] + str(pos // 3 + 1)


def table_actions(state: Any, move: Any) -> list[Action] | None:
    if not isinstance(move, dict):
        return None
    t, card = move.get("type"), move.get("card")
    if t in ("play", "place") and isinstance(card, str) and move.get("grid") in (0, 1):
        cell = grid_cell(card)
        return None if cell is None else [Drop(Piece(card), Cell(f"grid-{move['grid']}", cell))]
    if t in ZONES and isinstance(card, str):
        return [Drop(Piece(card), Zone(ZONES[t]))]
    values = [v for k, v in move.items() if k != "type"]
    if len(values) == 1 and isinstance(values[0], (int, str)) and not isinstance(values[0], bool):
        fn = BUTTONS.get((t, values[0]))
        if fn is not None:
            return [Click(fn)]
    return None


def table_options(options: dict[str, Any], seats: int) -> list[Action] | None:
    """The two-player difficulty is a panel toggle (the solo variants are not chosen at the table)."""
    if set(options) - {"difficulty"} or (options and seats != 2):
        return None
    return [Click("ttDifficulty", seconds=0.1, until=f"game: {options['difficulty']}.")] if options else []
