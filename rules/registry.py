"""The registered games. Adding a game is one line in ``_GAMES``."""

from __future__ import annotations

import importlib
from functools import lru_cache

from rules.core import Game

# game id -> "module:attribute" of its Game instance.
_GAMES: dict[str, str] = {
    "two-and-two": "rules.two_and_two:GAME",
    "twin-tower-city": "rules.twin_tower_city:GAME",
    "obren-buttons": "rules.obren_buttons:GAME",
    "two-by-two": "rules.two_by_two:GAME",
    "smitten-2": "rules.smitten_2:GAME",
}


class UnknownGame(KeyError):
    def __init__(self, game_id: str):
        super().__init__(game_id)
        self.game_id = game_id

    def __str__(self) -> str:
        return f"unknown game {self.game_id!r} (known: {', '.join(game_ids())})"


def game_ids() -> list[str]:
    return list(_GAMES)


@lru_cache(maxsize=None)
def get_game(game_id: str) -> Game:
    try:
        target = _GAMES[game_id]
    except KeyError:
        raise UnknownGame(game_id) from None
    module_name, attr = target.split(":")
    return getattr(importlib.import_module(module_name), attr)


def all_games() -> list[Game]:
    return [get_game(g) for g in _GAMES]
