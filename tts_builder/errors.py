"""Errors that the CLI turns into one line and exit code 2."""

from __future__ import annotations


class InputError(Exception):
    """Input that cannot be used: the message names the file and the field or move.

    >>> str(InputError("game.json: field 'moves' must be a list"))
    "game.json: field 'moves' must be a list"
    """
