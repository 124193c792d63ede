"""Two & Two cards and the geometry of a stack.

A Symbol card is a 4-character code read top to bottom (assumption A-1):
``0`` hole, ``1`` square, ``2`` diamond. Turning a card upside down (a Flip,
or placing the first card "down") reverses the code::

    >>> oriented("1200", "down")
    '0021'
    >>> placement_error("1000", "1200")        # matches the square, covers holes
    >>> placement_error("2000", "1200")
    ('valid-placement', 1)
    >>> placement_error("0001", "1000")        # 1st and 4th would both be squares
    ('never-contradict', 1)
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from importlib import resources
from typing import Any

EMPTY = "0000"
SYMBOL_NAMES = {"0": "hole", "1": "square", "2": "diamond"}


@dataclass(frozen=True)
class Card:
    id: str          # physical card id, e.g. "c1000-2", "sf-3"
    key: str         # design key shared by copies, e.g. "c1000", "sf"
    kind: str        # symbol | skip-flip | wild-deny
    code: str        # 4-digit code for symbol cards, "" otherwise
    ordinal: int     # position in the canonical card order (hands are kept sorted by it)
    name: str = ""   # what players read: "Symbol card 1200", "Wild / Deny" (data: card_names)

    @property
    def is_symbol(self) -> bool:
        return self.kind == "symbol"

    def describe(self) -> str:
        """The name, with the symbols top to bottom for a Symbol card."""
        if self.is_symbol:
            return f"{self.name} ({'-'.join(SYMBOL_NAMES[c] for c in self.code)})"
        return self.name


def load_data() -> dict[str, Any]:
    text = resources.files("rules.two_and_two").joinpath("two-and-two.json").read_text("utf-8")
    data: dict[str, Any] = json.loads(text)
    return data


def physical_ids(row: dict[str, Any]) -> list[str]:
    """Ids of the physical copies of a card row: the key, or key-1..key-n."""
    n = int(row["quantity"])
    return [row["key"]] if n == 1 else [f"{row['key']}-{i}" for i in range(1, n + 1)]


def build_cards(data: dict[str, Any]) -> dict[str, Card]:
    """All cards in play, in canonical order (the order of the data file)."""
    cards: dict[str, Card] = {}
    for row in data["cards"]:
        if not row.get("in_play", True):
            continue
        for cid in physical_ids(row):
            name = data["card_names"][row["kind"]].format(code=row.get("code", ""))
            cards[cid] = Card(cid, row["key"], row["kind"], row.get("code", ""), len(cards), name)
    return cards


def oriented(code: str, orientation: str) -> str:
    """A card's code as seen on the table frame in the given orientation."""
    return code if orientation == "up" else code[::-1]


def placement_error(code: str, visible: str) -> tuple[str, int] | None:
    """Why a card with table-frame ``code`` may not go on ``visible``, or None.

    Returns (rule id, 1-based position). Holes never change what is visible;
    every symbol must land on an empty position or on the same symbol
    (valid-placement), and the result must keep 1st != 4th and 2nd != 3rd
    whenever both are filled (never-contradict, assumption A-2).
    """
    for i in range(4):
        c = code[i]
        if c != "0" and visible[i] != "0" and visible[i] != c:
            return ("valid-placement", i + 1)
    result = overlay(code, visible)
    if result[0] != "0" and result[0] == result[3]:
        return ("never-contradict", 1)
    if result[1] != "0" and result[1] == result[2]:
        return ("never-contradict", 2)
    return None


def overlay(code: str, visible: str) -> str:
    """What is visible after placing ``code`` (table frame) on ``visible``."""
    return "".join(v if c == "0" else c for c, v in zip(code, visible))


def filled(visible: str) -> int:
    return 4 - visible.count("0")
