"""Two by Two (Rob Bartel, Valley Games 2010): arks rescue animal pairs from a flooding hex island.

Two to four players; the tokens lie face down and are revealed as the water reaches them::

    >>> from rules.two_by_two import GAME
    >>> state = GAME.new_state(seed=1, num_players=3)
    >>> state.to_json()["phase"], state.to_json()["colors"]
    ('arks', ['red', 'blue', 'green'])
"""

from rules.two_by_two.board import DATA, GRID
from rules.two_by_two.engine import GAME, TwoByTwoGame, TwoByTwoState, ark_points

__all__ = ["DATA", "GAME", "GRID", "TwoByTwoGame", "TwoByTwoState", "ark_points"]
