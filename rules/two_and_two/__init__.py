"""Two & Two (Brandon Wu, 2025): stack Symbol cards into one of four patterns.

    >>> from rules.two_and_two import GAME
    >>> state = GAME.new_state(seed=3)
    >>> state.current_player(), state.to_json()["phase"]
    (0, 'stack-start')
"""

from rules.two_and_two.engine import CARDS, DATA, GAME, TwoAndTwoGame, TwoAndTwoState

__all__ = ["CARDS", "DATA", "GAME", "TwoAndTwoGame", "TwoAndTwoState"]
