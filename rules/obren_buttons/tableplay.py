"""Obren's button game at the table (the ``table_actions`` hook, docs/authoring.md): a button is
dropped on a space of the board; Forfeit is pressed twice (the panel asks again)."""

from __future__ import annotations

from typing import Any

from tts_builder.tableplay import Action, Cell, Click, Drop, Piece


def table_actions(state: Any, move: Any) -> list[Action] | None:
    """Place: the button onto its space; move: the button onto the space it goes to."""
    if not isinstance(move, dict):
        return None
    t, button = move.get("type"), move.get("button")
    target = move.get("cell") if t == "place" else move.get("to") if t == "move" else None
    if isinstance(button, str) and isinstance(target, str):
        return [Drop(Piece(button), Cell("board", target))]
    if t == "forfeit" and len(move) == 1:
        return [Click("ttForfeit", seconds=0.2), Click("ttForfeit")]
    return None


def table_options(options: dict[str, Any], seats: int) -> list[Action] | None:
    """The solo goal is a panel toggle (a duel has no choice at the table)."""
    if set(options) - {"goal"} or (options and seats != 1):
        return None
    return [Click("ttGoal", seconds=0.1, until=f"goal: {options['goal']}.")] if options else []
