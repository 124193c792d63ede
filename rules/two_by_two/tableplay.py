"""Two by Two at the table (the ``table_actions`` hook, docs/authoring.md): an ark is dropped on the
island's hexes, a free water token on a hex, a rescued animal on the rescuer's ark; Pass is a
panel button. :func:`piece` is the one place that says how a piece's object is found."""

from __future__ import annotations

from typing import Any

from rules.two_by_two import board as B
from tts_builder.guids import guid_for
from tts_builder.tableplay import Action, Cell, Click, Drop, Piece

GAME_ID = "two-by-two"


def piece(piece_id: str) -> Piece:
    """A piece's object: by the GUID the build derives for it ("<game>/piece/<id>", tts_builder.guids),
    else (the executor falls back) by the id in its GMNotes."""
    return Piece(piece_id, guid=guid_for(f"{GAME_ID}/piece/{piece_id}"))


def _partner_the_table_picks(state: Any, cells: list[Any]) -> bool:
    """Whether dropping the animal on ``cells[0]`` on the ark rescues it with ``cells[1]``: the mod
    takes the first partner in board order that makes the rescue legal (its table.lua.j2,
    ``Table.rescue_for``), so a legal rescue with a later partner cannot be made at the table;
    an illegal one (no legal partner) is what the drop asks for only with the first partner."""
    partners = [m["cells"][1] for m in state.legal_moves() if m.get("type") == "rescue" and m["cells"][0] == cells[0]]
    if not partners:
        return True  # refused whatever the partner: the drop is the move a player makes
    first = min(partners, key=lambda c: B.CELL_INDEX.get(c, len(B.CELL_INDEX)))
    return bool(cells[1] == first)


def table_actions(state: Any, move: Any) -> list[Action] | None:
    if not isinstance(move, dict):
        return None
    s = state.to_json()
    seat = state.current_player()
    t = move.get("type")
    if t == "pass" and len(move) == 1:
        return [Click("ttPass")]
    cell = move.get("cell") if t in ("place-ark", "water") else move.get("to") if t == "move" else None
    if t in ("place-ark", "move") and isinstance(cell, str) and seat is not None:
        return [Drop(piece(f"ark-{s['colors'][seat]}"), Cell("island", cell))]
    if t == "water" and isinstance(cell, str):
        return [Drop(Piece("water-", prefix=True), Cell("island", cell))]
    cells = move.get("cells")
    if t == "rescue" and isinstance(cells, list) and len(cells) == 2 and isinstance(cells[0], str) \
            and seat is not None:
        if not _partner_the_table_picks(state, cells):
            return None
        index = B.CELL_INDEX.get(cells[0])
        token = s["tokens"][index] if index is not None else None
        ark = s["arks"][seat]
        if isinstance(token, str) and isinstance(ark, str):
            return [Drop(piece(token), Cell("island", ark), mover_only=True)]
    return None


def table_options(options: dict[str, Any], seats: int) -> list[Action] | None:
    """The scoring is a panel toggle, chosen before New game."""
    if set(options) - {"scoring"}:
        return None
    return [Click("ttScoring", seconds=0.1, until=f"Scoring: {options['scoring']}")] if options else []
