"""A simple simulated Twin Tower City player (the ``heuristic`` policy of ``tts-builder simulate``).

It sees only its observation. Item choices take the A-12 default (the first listed
move). Card plays are greedy: the move that leaves its side the best margin in the
current round as it stands, with Army and Warrior cards charged a small cost so they
are kept for when they change a round.
"""

from __future__ import annotations

import random
from operator import itemgetter
from typing import Any, Mapping

from rules.core import JSONDict, Move
from rules.twin_tower_city.cards import OTHER_SIDE, SIDES, Card, Roster
from rules.twin_tower_city.scoring import items_total, round_totals, side_tops, table_bonuses

#: a swap of a play-army move as (replace, with)
_SWAP = itemgetter("replace", "with")
#: how much margin an Army / Warrior card must add over the best Battle card to be played
SPECIAL_COST = {"play-battle": 0, "play-army": 3, "play-warrior": 6}


def _token(slot: Mapping[str, Any]) -> str:
    return str(slot["card"]) if slot["level"] else str(slot["warrior"])


def _after(obs: Mapping[str, Any], move: Move, cards: Mapping[str, Card]
           ) -> tuple[list[JSONDict], dict[str, list[JSONDict]], dict[str, list[JSONDict]]]:
    """The table, warriors and items after ``move`` (copies only where changed)."""
    seat, side = obs["player"], obs["side"]
    table = list(obs["table"])
    warriors = {s: list(obs["warriors"][s]) for s in SIDES}
    items = {s: list(obs["items"][s]) for s in SIDES}
    card = cards[move["card"]]
    table.append({"seat": seat, "card": card.id})
    if card.kind == "battle":
        for s in SIDES:
            warriors[s].append({"warrior": card.warriors[s], "level": 0, "card": card.id, "replaced": False})
            items[s].append({"item": card.items[s], "nullified": False})
        return table, warriors, items
    warriors[side] = _side_slots(obs, move, card)
    return table, warriors, items


def _side_slots(obs: Mapping[str, Any], move: Move, card: Card) -> list[JSONDict]:
    """The moving side's warrior slots after an Army or Warrior card ``move`` (a copy)."""
    if card.kind == "army":
        swaps = [(sw["replace"], sw["with"], 0) for sw in move["swaps"]]
    else:
        swaps = [(move["replace"], str(card.warrior), card.level)]
    slots = list(obs["warriors"][obs["side"]])
    taken: set[int] = set()
    for token, incoming, level in sorted(swaps):
        for n, slot in enumerate(slots):
            if n not in taken and not slot["replaced"] and _token(slot) == token:
                taken.add(n)
                slots[n] = {**slot, "replaced": True}
                break
        slots.append({"warrior": incoming, "level": level, "card": card.id, "replaced": False})
    return slots


def _top(roster: Roster, slots: list[JSONDict]) -> tuple[tuple[str, int], ...]:
    """A side's participating warriors and their Power, as round_totals finds them, sorted."""
    top: dict[str, int] = {}
    for slot in slots:
        if not slot["replaced"]:
            power = roster.warrior_power[slot["warrior"]] + int(slot["level"])
            if power > top.get(slot["warrior"], -1):
                top[slot["warrior"]] = power
    return tuple(sorted(top.items()))


#: (token, warrior, Power) of a live warrior slot; a replaced one is None
_Live = tuple[str, str, int] | None


def _live(roster: Roster, slots: list[JSONDict]) -> list[_Live]:
    """Each slot of a side as :func:`_top_after` reads it."""
    power = roster.warrior_power
    return [None if slot["replaced"] else
            (_token(slot), slot["warrior"], power[slot["warrior"]] + int(slot["level"])) for slot in slots]


def _top_after(roster: Roster, live: list[_Live], move: Move, card: Card) -> tuple[tuple[str, int], ...]:
    """``_top(roster, _side_slots(obs, move, card))`` from the slots as :func:`_live` reads them,
    without copying them: the same replacements in the same order, the same first match."""
    if card.kind == "army":
        swaps = [(sw["replace"], sw["with"], 0) for sw in move["swaps"]]
    else:
        swaps = [(move["replace"], str(card.warrior), card.level)]
    slots = list(live)
    token_of_card = card.id
    for token, incoming, level in sorted(swaps):
        for n, entry in enumerate(slots):
            if entry is not None and entry[0] == token:
                slots[n] = None
                break
        slots.append((token_of_card if level else incoming, incoming, roster.warrior_power[incoming] + level))
    top: dict[str, int] = {}
    for entry in slots:
        if entry is not None:
            _, w, power = entry
            if power > top.get(w, -1):
                top[w] = power
    return tuple(sorted(top.items()))


class _SideTops:
    """:func:`_top_after` for many plays of one side, from tables made once: where each token's
    live slots are, each warrior's strongest Power and the Powers of its slots."""

    def __init__(self, roster: Roster, live: list[_Live]):
        self.roster, self.live = roster, live
        self.slots_of: dict[str, list[int]] = {}
        self.powers: dict[str, list[tuple[int, int]]] = {}
        self.top: dict[str, int] = {}
        for n, entry in enumerate(live):
            if entry is None:
                continue
            token, w, power = entry
            self.slots_of.setdefault(token, []).append(n)
            self.powers.setdefault(w, []).append((n, power))
            if power > self.top.get(w, -1):
                self.top[w] = power

    def after(self, move: Move, card: Card) -> tuple[tuple[str, int], ...]:
        """``_top_after(roster, live, move, card)``: the same first matches (a token no live slot
        carries, which only a newcomer could match, goes the long way)."""
        if card.kind == "army":
            swaps = [(sw["replace"], sw["with"], 0) for sw in move["swaps"]]
            if len(swaps) > 1:
                swaps.sort()
        else:
            swaps = [(move["replace"], str(card.warrior), card.level)]
        removed: list[int] = []
        for token, _, _ in swaps:
            for n in self.slots_of.get(token, ()):
                if n not in removed:
                    removed.append(n)
                    break
            else:
                return _top_after(self.roster, self.live, move, card)
        top = dict(self.top)
        for n in removed:
            entry = self.live[n]
            assert entry is not None
            _, w, power = entry
            if top.get(w) == power:  # its strongest copy may be gone: the strongest of the rest
                best = -1
                for m, p in self.powers[w]:
                    if p > best and m not in removed:
                        best = p
                if best < 0:
                    del top[w]
                else:
                    top[w] = best
        warrior_power = self.roster.warrior_power
        for _, incoming, level in swaps:
            power = warrior_power[incoming] + level
            if power > top.get(incoming, -1):
                top[incoming] = power
        return tuple(sorted(top.items()))


def heuristic_move(roster: Roster, cards: Mapping[str, Card], obs: Mapping[str, Any], moves: list[Move],
                   rng: random.Random) -> Move:
    moves = [m for m in moves if m["type"] != "forfeit"] or moves
    if moves[0]["type"] not in SPECIAL_COST:
        return moves[0]  # nullify-items: the A-12 default is listed first
    side = obs["side"]
    other = OTHER_SIDE[side]
    options = obs["options"]
    best: list[Move] = []
    best_value = None
    seen: dict[tuple[Any, ...], int] = {}
    # An Army or Warrior card changes only its side's warriors and adds no environment, so the round's
    # totals then depend on that side's strongest warriors alone (what round_totals reads of the
    # slots), unless duplicates nullify items by the card they stand on (duplicate_item =
    # duplicate-card): margins by those warriors, computed once.
    by_top: dict[tuple[tuple[str, int], ...], int] | None = \
        None if options.get("duplicate_item") == "duplicate-card" else {}
    tops: _SideTops | None = None
    if by_top is not None:
        tops = _SideTops(roster, _live(roster, obs["warriors"][side]))
        # what round_totals adds up that such a card leaves alone: the other side's warriors,
        # both sides' items, the Battle cards' environments and traits
        other_top = side_tops(roster, obs["warriors"])[other]
        bonuses = table_bonuses(roster, cards, obs["table"], options)
        own_items, other_items = obs["items"][side], obs["items"][other]
        other_part = sum(other_top.values()) + bonuses[other]
    for move in moves:
        # Army plays with the same swaps give the same result (an Army card adds no environment,
        # and the totals do not read which card a warrior came from): evaluate one of them.
        card = cards[move["card"]]
        key = tuple(map(_SWAP, move["swaps"])) if card.kind == "army" else None
        if key is not None and key in seen:
            value = seen[key]
        else:
            margin: int | None = None
            if tops is not None and by_top is not None and card.kind != "battle":
                top_key = tops.after(move, card)
                margin = by_top.get(top_key)
                if margin is None:  # round_totals of the round after the move, by its parts
                    own = dict(top_key)
                    margin = by_top[top_key] = (
                        sum(own.values()) + items_total(roster, own_items, own, other_top, options) + bonuses[side]
                        - other_part - items_total(roster, other_items, other_top, own, options))
            if margin is None:
                totals = round_totals(roster, cards, *_after(obs, move, cards), options)
                margin = totals[side] - totals[other]
            value = margin - SPECIAL_COST.get(move["type"], 0)
            if key is not None:
                seen[key] = value
        if best_value is None or value > best_value:
            best, best_value = [move], value
        elif value == best_value:
            best.append(move)
    return best[rng.randrange(len(best))]
