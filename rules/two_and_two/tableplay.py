"""Two & Two at the table (the ``table_actions`` hook, docs/authoring.md): cards are dropped on the
mat's zones (a stack started upside down is turned 180 degrees first: STACK's snap point snaps
position only, so the card keeps that turn), Draw, End turn and Pass are panel
buttons; a Deny negates the Symbol card or the Flip of a Symbol+Flip play as the player's Deny
toggle says, which they set by clicking it until the table tells them it is what they want."""

from __future__ import annotations

from typing import Any

from rules.two_and_two.engine import DATA
from tts_builder.tableplay import Action, Click, Drop, Piece, Zone

UPRIGHT = 180.0  # the seat's upright card turn (table.json card.rotation_y)
BUTTONS = {"draw": "ttDraw", "end-turn": "ttEndTurn", "pass": "ttPass"}
#: the options the panel toggles (two-and-two.json's options with a "table" entry) -> the toggle's label
TOGGLES = {name: o["table"]["label"] for name, o in DATA["options"].items() if "table" in o}


def table_actions(state: Any, move: Any) -> list[Action] | None:
    if not isinstance(move, dict):
        return None
    t, card = move.get("type"), move.get("card")
    if t in BUTTONS:
        return [Click(BUTTONS[t])]
    if t == "forfeit" and len(move) == 1:  # the panel's Forfeit, pressed twice (it asks first)
        return [Click("ttForfeit", seconds=0.2), Click("ttForfeit")]
    if not isinstance(card, str):
        return None
    if t == "start-stack":
        turn = {"up": 0.0, "down": 180.0}.get(move.get("orientation"))  # type: ignore[arg-type]
        return None if turn is None else [Drop(Piece(card), Zone("stack"), (UPRIGHT + turn) % 360)]
    if t == "play":
        flip = move.get("flip")
        before: list[Action] = [Drop(Piece(flip), Zone("flip"))] if isinstance(flip, str) else []
        return before + [Drop(Piece(card), Zone("stack"))]
    if t == "wild":
        return [Drop(Piece(card), Zone("stack"))]
    if t == "skip" and move.get("target") in ("own", "opponent"):
        return [Drop(Piece(card), Zone(f"skip-{move['target']}"))]
    if t == "deny":
        pending = (state.to_json().get("pending") or {}) if hasattr(state, "to_json") else {}
        play = pending.get("play") or {}
        wants_flip = not pending.get("chain") and play.get("flip") is not None and move.get("target") == play["flip"]
        toggle = Click("ttDenyTarget", seconds=0.1, until="the Flip" if wants_flip else "the Symbol card")
        return [toggle, Drop(Piece(card), Zone("deny"))]
    return None


def table_options(options: dict[str, Any], seats: int) -> list[Action] | None:
    """Each option is a panel toggle before a game (runtime/options.lua.j2), clicked until the
    table says the next game plays the value wanted."""
    if set(options) - set(TOGGLES):
        return None
    return [Click("ttTableOption", element=f"tt-opt-{name}", seconds=0.1,
                  until=f"{TOGGLES[name]}: {str(value).lower() if isinstance(value, bool) else value}")
            for name, value in sorted(options.items())]
