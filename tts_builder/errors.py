"""Errors that the CLI turns into one line and exit code 2."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import rules


class InputError(Exception):
    """Input that cannot be used: the message names the file and the field or move.

    >>> str(InputError("game.json: field 'moves' must be a list"))
    "game.json: field 'moves' must be a list"
    """


def require_game(game_id: str) -> rules.Game:
    """The registered game ``game_id``, or an InputError naming the known ones.

    >>> require_game("chess")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    tts_builder.errors.InputError: unknown game 'chess' (known: two-and-two, twin-tower-city...)
    """
    import rules  # imported here: the errors module stays importable on its own

    try:
        return rules.get_game(game_id)
    except rules.UnknownGame as exc:
        raise InputError(str(exc)) from None
