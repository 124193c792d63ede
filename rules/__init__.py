"""Reference rules engines, one package per game, behind one interface.

    >>> import rules
    >>> rules.game_ids()[:2]
    ['two-and-two', 'twin-tower-city']
    >>> rules.get_game("two-and-two").name
    'Two & Two'
"""

from rules.core import (Game, IllegalMove, Move, Result, RuleRef, SetupError, State, Verdict,
                        canonical_json, state_digest)
from rules.registry import UnknownGame, game_ids, get_game, all_games

__all__ = ["Game", "IllegalMove", "Move", "Result", "RuleRef", "SetupError", "State", "Verdict",
           "canonical_json", "state_digest", "UnknownGame", "game_ids", "get_game", "all_games"]
