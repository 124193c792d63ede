"""Twin Tower City at the table (the ``table_actions`` hook, docs/authoring.md): a card is dropped on
the current round's column (each pair of seats holds its own copy of the deck); an Army or Warrior
card's replacements are picked on the panel by what the options read, then confirmed; the
Nullify choice is confirmed as the panel preselects it (the rulebook's default). Before a game, the
rulebook readings and the first seat's side are panel toggles (``table_options``)."""

from __future__ import annotations

from typing import Any

from rules.twin_tower_city.engine import DATA, ROSTER
from tts_builder.save import copy_card_id
from tts_builder.tableplay import Action, Click, Drop, Piece, PickOption, Zone

#: the options the panel toggles (twin-tower-city.json's options with a "table" entry) -> the toggle's label
TOGGLES = {name: o["table"]["label"] for name, o in DATA["options"].items() if "table" in o}


def _slot_text(s: dict[str, Any], side: str, token: str) -> str | None:
    """How the panel names the warrior a move calls ``token``: "<name> (" or "<name> L<n> (" (a
    levelled warrior is named by its Warrior card)."""
    for slot in s["warriors"].get(side, []):
        if slot["replaced"]:
            continue
        if slot["level"] == 0 and slot["warrior"] == token:
            return f"{ROSTER.warrior_name[token]} ("
        if slot["level"] != 0 and slot["card"] == token:
            return f"{ROSTER.warrior_name[slot['warrior']]} L{slot['level']} ("
    return None


def table_actions(state: Any, move: Any) -> list[Action] | None:
    if not isinstance(move, dict):
        return None
    s = state.to_json()
    seat = state.current_player()
    t, card = move.get("type"), move.get("card")
    if seat is None:
        return None
    if t == "nullify-items":
        legal = state.legal_moves()
        return [Click("ttConfirm")] if legal and move == legal[0] else None
    if not isinstance(card, str):
        return None
    drop = Drop(Piece(copy_card_id(card, seat // 2 + 1)), Zone(f"round-{s['round']}"))
    side = state.side_of(seat) if hasattr(state, "side_of") else None
    if t == "play-battle":
        return [drop]
    if t == "play-warrior" and isinstance(move.get("replace"), str) and side is not None:
        text = _slot_text(s, side, move["replace"])
        return None if text is None else [drop, PickOption("ttOption", "tt-opt-", ("Replace " + text,)),
                                          Click("ttConfirm")]
    if t == "play-army" and isinstance(move.get("swaps"), list) and side is not None:
        picks: list[Action] = []
        for swap in move["swaps"]:
            if not isinstance(swap, dict) or swap.get("with") not in ROSTER.warrior_name:
                return None
            text = _slot_text(s, side, str(swap.get("replace")))
            if text is None:
                return None
            picks.append(PickOption("ttOption", "tt-opt-", (text, f"-> {ROSTER.warrior_name[swap['with']]} (")))
        return [drop, *picks, Click("ttConfirm")]
    return None


def table_options(options: dict[str, Any], seats: int) -> list[Action] | None:
    """Each option the panel offers is a toggle before a game (runtime/options.lua.j2), clicked
    until the table says the next game plays the value wanted; the variations and team play
    (set by the seat count) are not offered at the table."""
    if set(options) - set(TOGGLES):
        return None
    return [Click("ttTableOption", element=f"tt-opt-{name}", seconds=0.1, until=f"{TOGGLES[name]}: {value}")
            for name, value in sorted(options.items())]
