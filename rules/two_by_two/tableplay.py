"""Two by Two at the table (the ``table_actions`` hook, docs/authoring.md): an ark is dropped on the
island's hexes, a free water token on a hex, a rescued animal on the rescuer's ark (and, when several partners are legal, the partner picked on
the panel); Pass is a
panel button. :func:`piece` is the one place that says how a piece's object is found."""

from __future__ import annotations

from typing import Any

from rules.two_by_two import board as B
from tts_builder.guids import guid_for
from tts_builder.tableplay import Action, Cell, Click, Drop, PickOption, Piece

GAME_ID = "two-by-two"


def piece(piece_id: str) -> Piece:
    """A piece's object: by the GUID the build derives for it ("<game>/piece/<id>", tts_builder.guids),
    else (the executor falls back) by the id in its GMNotes."""
    return Piece(piece_id, guid=guid_for(f"{GAME_ID}/piece/{piece_id}"))


def legal_partners(state: Any, cell: str) -> list[str]:
    """The cells of the animals a rescue of the animal on ``cell`` may legally take with it, in
    board order: with several, the mod asks on its panel which (table.lua.j2, the partner choice)."""
    partners = [m["cells"][1] for m in state.legal_moves() if m.get("type") == "rescue" and m["cells"][0] == cell]
    return sorted(partners, key=lambda c: B.CELL_INDEX.get(c, len(B.CELL_INDEX)))


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
        partners = legal_partners(state, cells[0])
        if len(partners) > 1 and cells[1] not in partners:
            return None  # an illegal partner of an animal with a choice: the panel offers only legal ones
        index = B.CELL_INDEX.get(cells[0])
        token = s["tokens"][index] if index is not None else None
        ark = s["arks"][seat]
        if isinstance(token, str) and isinstance(ark, str):
            drop = Drop(piece(token), Cell("island", ark), mover_only=True)
            if len(partners) > 1:  # the panel's partner button reads "<species> (<cell>)"
                return [drop, PickOption("ttPartner", "tt-pair-", (f"({cells[1]})",))]
            return [drop]
    return None


def table_options(options: dict[str, Any], seats: int) -> list[Action] | None:
    """The scoring is a panel toggle, chosen before New game."""
    if set(options) - {"scoring"}:
        return None
    return [Click("ttScoring", seconds=0.1, until=f"Scoring: {options['scoring']}")] if options else []
