"""What the command line says about itself: the games and examples under ``--help``, each game's
options (defaults, allowed values, seat counts) for ``games --options`` and ``help GAME``, and the
shell completion scripts (shtab).

Everything about a game comes from its metadata (:class:`rules.core.Game`: ``options``,
``option_values``, ``seat_counts``, the ``options`` table of its data file for what each option
does) and from the game itself (which seat counts start a game with each option value): a sixth
game shows up here with no change to this module.
"""

from __future__ import annotations

import argparse
import json
import textwrap
from typing import Any

import rules
from tts_builder.errors import InputError, require_game

SHELLS = ("bash", "zsh", "tcsh")
#: the width ``help GAME`` wraps what an option does to
HELP_WIDTH = 100

EXAMPLES = """\
examples:
  tts-builder build --all                        build every mod into build/
  tts-builder install two-and-two                copy the built save into TTS's Saves folder
  tts-builder print two-and-two --paper letter   print-and-play PDF (crop marks) and one PNG per card
  tts-builder games --options                    every game's options, defaults and seat counts
  tts-builder simulate two-by-two --games 200 --players 3 --out sims
  tts-builder validate sims/*.json               replay transcripts through the rules
  tts-builder check-lua obren-buttons           the Lua rules agree with the Python ones
  tts-builder completion bash > ~/.local/share/bash-completion/completions/tts-builder

settings: tts-builder.toml, or [tool.tts-builder] in pyproject.toml, in the current folder:
  base_url, tts_dir, out (the build folder); a flag on the command line wins.
exit codes: 0 done, 1 the input was read and found wanting, 2 the input cannot be used."""


def _seats(game: rules.Game) -> str:
    counts = game.seat_counts()
    text = ", ".join(map(str, counts))
    return f"{text} player{'s' if counts != (1,) else ''}"


def epilog() -> str:
    """The games and the examples shown under ``tts-builder --help``."""
    lines = ["games (tts-builder help GAME for a game's options):"]
    lines += [f"  {game.id:18} {game.name} ({_seats(game)})" for game in rules.all_games()]
    return "\n".join(lines) + "\n\n" + EXAMPLES


def _json(value: Any) -> str:
    return json.dumps(value)


def allowed_values(game: rules.Game, name: str) -> list[Any] | None:
    """The values option ``name`` takes, or None when it is open (only its type is fixed)."""
    default = game.options[name]
    if name in game.option_choices or isinstance(default, bool):
        return list(game.option_values(name))
    return None


def option_seat_counts(game: rules.Game) -> dict[str, list[int]]:
    """For each option, the seat counts a game starts with when it is off its default (the
    game itself says: ``new_state`` refuses an option value a seat count does not use, as Smitten
    2's ``difficulty`` for one player). An option with no other value, or none a seat count
    accepts, is listed with every seat count.

    >>> option_seat_counts(rules.get_game("smitten-2"))["difficulty"]
    [2]
    """
    from rules.core import SetupError

    counts = game.seat_counts()
    found: dict[str, set[int]] = {name: set() for name in game.options}
    tried: set[str] = set()
    for variant in game.option_variants()[1:]:
        (name, _), = variant.items()
        tried.add(name)
        for n in counts:
            if n in found[name]:
                continue
            try:
                game.new_state(seed=0, options=variant, num_players=n)
            except (SetupError, ValueError):
                continue
            found[name].add(n)
    return {name: sorted(found[name]) if name in tried and found[name] else list(counts) for name in game.options}


def option_note(game: rules.Game, name: str) -> str:
    """What option ``name`` does, in the words of the game's data file (its ``help``, ``summary``
    or ``note``), or ""."""
    table = game.data.get("options") if isinstance(game.data, dict) else None
    entry = table.get(name) if isinstance(table, dict) else None
    if not isinstance(entry, dict):
        return ""
    return next((str(entry[k]) for k in ("help", "summary", "note") if isinstance(entry.get(k), str)), "")


def options_text(game: rules.Game) -> str:
    """A game's seats and options in words, with an example; what ``help GAME`` prints: per
    option its default and values, then the seat counts that use it (when not all do) and what
    it does."""
    lines = [f"{game.id}: {game.name}", f"  seats: {_seats(game)} (simulate/check-lua --players N)"]
    if not game.options:
        lines.append("  options: none")
    else:
        lines.append("  options (--options '{\"name\": value}', JSON values):")
        width = max(len(n) for n in game.options)
        seats = option_seat_counts(game)
        for name in sorted(game.options):
            values = allowed_values(game, name)
            allowed = (", ".join(map(_json, values)) if values is not None
                       else f"any {type(game.options[name]).__name__}")
            lines.append(f"    {name:{width}}  default {_json(game.options[name])}; takes {allowed}")
            used = seats[name]
            about = (f"({', '.join(map(str, used))} player{'s' if used != [1] else ''} only) "
                     if used != list(game.seat_counts()) else "") + option_note(game, name)
            if about:
                indent = " " * (width + 6)
                lines += textwrap.wrap(about, HELP_WIDTH, initial_indent=indent, subsequent_indent=indent)
        name = sorted(game.options)[0]
        other = next((v for v in (allowed_values(game, name) or []) if v != game.options[name]), game.options[name])
        lines.append(f"  example: tts-builder simulate {game.id} --games 100 --out sims "
                     f"--options '{json.dumps({name: other})}'")
    return "\n".join(lines)


def options_json(game: rules.Game) -> dict[str, Any]:
    """``games --json --options``: the game's description plus each option's allowed values (null: open)
    and the seat counts that use it."""
    return {**game.describe(), "option_values": {n: allowed_values(game, n) for n in sorted(game.options)},
            "option_seat_counts": option_seat_counts(game)}


def games_command(game_id: str | None, *, options: bool, as_json: bool) -> int:
    """``tts-builder games [GAME] [--options] [--json]``."""
    games = [require_game(game_id)] if game_id else list(rules.all_games())
    detail = options or game_id is not None
    if as_json:  # one JSON document: the game's object, or a list of every game's
        described = [options_json(game) if detail else game.describe() for game in games]
        print(json.dumps(described[0] if game_id else described, sort_keys=True))
        return 0
    for n, game in enumerate(games):
        if detail:
            print(("\n" if n else "") + options_text(game))
        else:
            print(f"{game.id:18} {game.name} ({_seats(game)})")
    return 0


def _game_positionals(parser: argparse.ArgumentParser) -> None:
    """Give every GAME argument the registered ids as choices, for completion only (the real
    parser leaves them open: an unknown game gets the error that names the known ones)."""
    ids = [game.id for game in rules.all_games()]
    for action in parser._actions:  # argparse has no public walk over its actions
        if isinstance(action, argparse._SubParsersAction):
            for sub in set(action.choices.values()):
                _game_positionals(sub)
        elif not action.option_strings and action.dest in ("game", "games"):
            action.choices = ids


#: positionals that name files or folders to read (``show``, ``validate``, ``replay``, ``schema-check``, ``report``)
_FILE_POSITIONALS = frozenset({"file", "files", "paths"})
#: ``OPTION -> what it names``: a folder (``--tts-dir``, ``--chart``; ``--out`` of the build commands) or a
#: file (``--out`` of ``replay``, the page; of ``simulate``, a folder or one run file)
_PATH_OPTIONS = {"--tts-dir": "dir", "--chart": "dir", "--out": "dir"}
_FILE_OUT_COMMANDS = frozenset({"replay", "simulate"})


def _path_completion(parser: argparse.ArgumentParser, command: str = "") -> None:
    """Mark each argument that names a file or folder for shtab, so the shell completes its
    names (``show <TAB>``, ``install GAME --tts-dir <TAB>``); for completion only."""
    import shtab

    for action in parser._actions:  # argparse has no public walk over its actions
        if isinstance(action, argparse._SubParsersAction):
            for name, sub in action.choices.items():
                _path_completion(sub, name)
            continue
        kind = None
        if not action.option_strings and action.dest in _FILE_POSITIONALS:
            kind = "file"
        for flag in action.option_strings:
            kind = _PATH_OPTIONS.get(flag, kind)
            if flag == "--out" and command in _FILE_OUT_COMMANDS:
                kind = "file"
        if kind is not None:
            action.complete = shtab.DIRECTORY if kind == "dir" else shtab.FILE  # type: ignore[attr-defined]


def completion_script(parser: argparse.ArgumentParser, shell: str) -> str:
    """The completion script of ``parser`` for ``shell`` (bash, zsh or tcsh), by shtab."""
    try:
        import shtab
    except ImportError:
        raise InputError("completion needs the shtab package: pip install shtab") from None
    if shell not in SHELLS:
        raise InputError(f"completion {shell}: expected one of {', '.join(SHELLS)}")
    _game_positionals(parser)
    _path_completion(parser)
    return str(shtab.complete(parser, shell=shell))
