"""Twin Tower City component data: the roster (``twin-tower-city.json``) and the deck (``deck.json``).

Both files are package data. The roster holds every warrior, item and environment
with its Power, side and bonus links; the deck holds the 80 cards, one per line,
so a real card list can replace the generated one line for line.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from typing import Any, Mapping

SIDES = ("dark", "light")
OTHER_SIDE = {"dark": "light", "light": "dark"}
DATA_FILE = "twin-tower-city.json"
DECK_FILE = "deck.json"


def _read_json(name: str) -> dict[str, Any]:
    text = resources.files("rules.twin_tower_city").joinpath(name).read_text(encoding="utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


@lru_cache(maxsize=None)
def load_data() -> dict[str, Any]:
    """The parsed roster and rules table (cached; treat as read-only)."""
    return _read_json(DATA_FILE)


@lru_cache(maxsize=None)
def load_deck_data() -> dict[str, Any]:
    """The parsed deck file (cached; treat as read-only)."""
    return _read_json(DECK_FILE)


@dataclass(frozen=True)
class Roster:
    """Lookup tables built from the data file."""

    warrior_side: dict[str, str]
    warrior_power: dict[str, int]
    warrior_name: dict[str, str]
    item_side: dict[str, str]
    item_power: dict[str, int]
    item_name: dict[str, str]
    env_side: dict[str, str]
    env_power: dict[str, int]
    env_name: dict[str, str]
    #: item id -> warriors whose presence on the item's own side gives +bonus
    wielders: dict[str, tuple[str, ...]]
    #: item id -> opposing warriors whose presence gives +bonus
    targets: dict[str, tuple[str, ...]]
    bonus: int
    warriors_by_side: dict[str, tuple[str, ...]]
    items_by_side: dict[str, tuple[str, ...]]
    #: item id -> (Power, wielders, targets): the three lookups of an item's bonuses in one
    item_links: dict[str, tuple[int, tuple[str, ...], tuple[str, ...]]]

    @classmethod
    def from_data(cls, data: Mapping[str, Any]) -> "Roster":
        wielders: dict[str, list[str]] = {i["id"]: [] for i in data["items"]}
        targets: dict[str, list[str]] = {i["id"]: [] for i in data["items"]}
        for link in data["bonus_links"]:
            (wielders if link["kind"] == "wielder" else targets)[link["item"]].append(link["warrior"])
        return cls(
            warrior_side={w["id"]: w["side"] for w in data["warriors"]},
            warrior_power={w["id"]: int(w["power"]) for w in data["warriors"]},
            warrior_name={w["id"]: w["name"] for w in data["warriors"]},
            item_side={i["id"]: i["side"] for i in data["items"]},
            item_power={i["id"]: int(i["power"]) for i in data["items"]},
            item_name={i["id"]: i["name"] for i in data["items"]},
            env_side={e["id"]: e["side"] for e in data["environments"]},
            env_power={e["id"]: int(e["power"]) for e in data["environments"]},
            env_name={e["id"]: e["name"] for e in data["environments"]},
            wielders={k: tuple(v) for k, v in wielders.items()},
            targets={k: tuple(v) for k, v in targets.items()},
            bonus=int(data["bonus_value"]),
            warriors_by_side={s: tuple(w["id"] for w in data["warriors"] if w["side"] == s) for s in SIDES},
            items_by_side={s: tuple(i["id"] for i in data["items"] if i["side"] == s) for s in SIDES},
            item_links={i["id"]: (int(i["power"]), tuple(wielders[i["id"]]), tuple(targets[i["id"]]))
                        for i in data["items"]},
        )


@dataclass(frozen=True, eq=False)
class Card:
    """One card of the deck.

    Battle cards fill ``warriors``/``items`` (by side), ``environment`` and the random
    bonus traits; Army cards fill ``side`` and ``army``; Warrior cards ``side``,
    ``warrior`` and ``level``.
    """

    id: str
    kind: str
    side: str | None = None
    warriors: dict[str, str] = field(default_factory=dict)
    items: dict[str, str] = field(default_factory=dict)
    environment: str | None = None
    district: str | None = None
    random_bonus: dict[str, int] = field(default_factory=dict)
    army: tuple[str, ...] = ()
    warrior: str | None = None
    level: int = 0
    quote: bool = False

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> "Card":
        kind = raw["kind"]
        if kind == "battle":
            return cls(
                id=raw["id"], kind=kind,
                warriors={"dark": raw["dark_warrior"], "light": raw["light_warrior"]},
                items={"dark": raw["dark_item"], "light": raw["light_item"]},
                environment=raw["environment"], district=raw.get("district"),
                random_bonus={"dark": int(raw.get("random_dark_bonus", 0)),
                              "light": int(raw.get("random_light_bonus", 0))},
                quote=bool(raw.get("quote", False)),
            )
        if kind == "army":
            return cls(id=raw["id"], kind=kind, side=raw["side"], army=tuple(raw["warriors"]),
                       quote=bool(raw.get("quote", False)))
        if kind == "warrior":
            return cls(id=raw["id"], kind=kind, side=raw["side"], warrior=raw["warrior"],
                       level=int(raw["level"]), quote=bool(raw.get("quote", False)))
        raise ValueError(f"card {raw.get('id')!r}: unknown kind {kind!r}")

    def describe(self, roster: Roster) -> str:
        if self.kind == "battle":
            assert self.environment is not None
            env = roster.env_name[self.environment] + (f" {self.district}" if self.district else "")
            return (f"Battle card {self.id}: {roster.warrior_name[self.warriors['dark']]} with "
                    f"{roster.item_name[self.items['dark']]} against {roster.warrior_name[self.warriors['light']]} "
                    f"with {roster.item_name[self.items['light']]}, in {env}")
        if self.kind == "army":
            return f"{str(self.side).capitalize()} Army card {self.id} ({', '.join(roster.warrior_name[w] for w in self.army)})"
        assert self.warrior is not None
        return (f"{str(self.side).capitalize()} Warrior card {self.id} ({roster.warrior_name[self.warrior]} "
                f"Level {self.level}, Power {roster.warrior_power[self.warrior] + self.level})")


def parse_deck(deck: Mapping[str, Any]) -> dict[str, Card]:
    cards: dict[str, Card] = {}
    for raw in deck["cards"]:
        card = Card.from_json(raw)
        if card.id in cards:
            raise ValueError(f"duplicate card id {card.id!r} in the deck")
        cards[card.id] = card
    return cards


def validate_deck(cards: Mapping[str, Card], roster: Roster, data: Mapping[str, Any]) -> list[str]:
    """Problems with a deck (empty when it fits the roster and the deck counts)."""
    problems: list[str] = []
    counts = data["deck_counts"]
    want = {("battle", None): counts["battle"], ("army", "dark"): counts["dark_army"],
            ("army", "light"): counts["light_army"], ("warrior", "dark"): counts["dark_warrior"],
            ("warrior", "light"): counts["light_warrior"]}
    have: dict[tuple[str, str | None], int] = {}
    for card in cards.values():
        have[(card.kind, card.side)] = have.get((card.kind, card.side), 0) + 1
        if not card.id.isascii():
            problems.append(f"{card.id!r}: card ids are ASCII")
        if card.kind == "battle":
            for side in ("dark", "light"):
                if roster.warrior_side.get(card.warriors[side]) != side:
                    problems.append(f"{card.id}: {card.warriors[side]!r} is not a {side} warrior")
                if roster.item_side.get(card.items[side]) != side:
                    problems.append(f"{card.id}: {card.items[side]!r} is not a {side} item")
            if card.environment not in roster.env_side:
                problems.append(f"{card.id}: unknown environment {card.environment!r}")
        elif card.kind == "army":
            if len(card.army) != data["army_size"] or len(set(card.army)) != len(card.army):
                problems.append(f"{card.id}: an Army card shows {data['army_size']} different warriors")
            for w in card.army:
                if roster.warrior_side.get(w) != card.side:
                    problems.append(f"{card.id}: {w!r} is not a {card.side} warrior")
        else:
            if roster.warrior_side.get(str(card.warrior)) != card.side:
                problems.append(f"{card.id}: {card.warrior!r} is not a {card.side} warrior")
            levels = data["levels"]
            if not levels["min"] <= card.level <= levels["max"]:
                problems.append(f"{card.id}: level {card.level} is outside {levels['min']}..{levels['max']}")
    for key, n in want.items():
        if have.get(key, 0) != n:
            problems.append(f"{key[0]} cards of side {key[1]}: {have.get(key, 0)}, want {n}")
    return problems
