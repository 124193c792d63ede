"""Smitten 2 (Ryan S. Davis; solo by Morten Monrad Pedersen): two players, or one playing two hands,
complete two identical 3x3 grids of cards together; each played card's instruction is followed by the partner.

    >>> from rules.smitten_2 import GAME
    >>> duo = GAME.new_state(seed=1)
    >>> duo.to_json()["mode"], duo.deciders()
    ('duo', [0, 1])
    >>> GAME.new_state(seed=1, num_players=1).to_json()["mode"]
    'solo'
"""

from rules.smitten_2.engine import DATA, GAME, SmittenGame, SmittenState

__all__ = ["DATA", "GAME", "SmittenGame", "SmittenState"]
