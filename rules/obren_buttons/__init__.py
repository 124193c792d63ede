"""Adam Obren's button game (title unknown): sixteen numbered buttons on a 4x4 board of coloured bridges.

Two players (the duel) race to a line of four; one player (solo) swaps buttons
until lines of the two colours match::

    >>> from rules.obren_buttons import GAME
    >>> duel = GAME.new_state(seed=1)
    >>> duel.to_json()["mode"], duel.current_player()
    ('duel', 0)
    >>> GAME.new_state(seed=1, num_players=1).to_json()["mode"]
    'solo'
"""

from rules.obren_buttons.board import DATA, GRID
from rules.obren_buttons.engine import GAME, ObrenGame, ObrenState, goal_met

__all__ = ["DATA", "GAME", "GRID", "ObrenGame", "ObrenState", "goal_met"]
