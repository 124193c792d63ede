"""Errors that the CLI turns into one line and exit code 2."""

from __future__ import annotations

from typing import TYPE_CHECKING, Iterable

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
        known = rules.game_ids()
        raise InputError(f"unknown game {exc.game_id!r}{did_you_mean(game_id, known)} "
                         f"(known: {', '.join(known)})") from None


def did_you_mean(word: str, known: "Iterable[str]") -> str:
    """``"; did you mean 'x'?"`` naming the nearest of ``known`` to a misspelt ``word``
    (difflib's ratio of at least 0.6), or "" when none is near.

    >>> did_you_mean("smiten-2", ["two-and-two", "smitten-2"]), did_you_mean("chess", ["smitten-2"])
    ("; did you mean 'smitten-2'?", '')
    """
    import difflib

    near = difflib.get_close_matches(word, list(known), n=1, cutoff=0.6)
    return f"; did you mean {near[0]!r}?" if near else ""
