"""Settings from a file in the current folder, so a project need not repeat its flags.

Read from ``tts-builder.toml`` (top-level keys) when it exists, else from the ``[tool.tts-builder]``
table of ``pyproject.toml``; neither is an error. Keys:

* ``base_url``: what ``build --base-url`` takes (image URLs become ``URL/GAME/images/FILE``);
* ``tts_dir``: what ``install --tts-dir`` takes (TTS's folder holding ``Saves/``);
* ``out``: the build output folder (``--out`` of build, sheets, install and print; default ``build``).

A flag on the command line wins over the file. An unknown key, a value that is not a string, a
file that is not TOML, or a folder (or anything but a file) by either name is refused with one line
naming the file and the key (exit 2). A value the command then finds wanting (``tts_dir`` naming no
folder) is blamed on the file and key, not on a flag never given (:func:`setting_label`).
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from tts_builder.errors import InputError

CONFIG_FILE = "tts-builder.toml"
PYPROJECT = "pyproject.toml"
TABLE = "tool.tts-builder"
#: key -> what its string names
KEYS: dict[str, str] = {"base_url": "a URL", "out": "a folder", "tts_dir": "a folder"}
DEFAULTS: dict[str, str] = {"out": "build"}
#: the commands whose options the file sets (another command's --out means something else)
COMMANDS = frozenset({"build", "sheets", "install", "print", "push"})


@dataclass(frozen=True)
class Config:
    """The settings found (``values``) and where (``origin``: a file name, or None for no file)."""

    values: dict[str, str]
    origin: str | None

    def get(self, key: str) -> str | None:
        return self.values.get(key, DEFAULTS.get(key))

    def label(self, key: str) -> str | None:
        """How a message names where ``key``'s value came from ("tts-builder.toml: tts_dir"),
        or None when the file does not set it."""
        if key not in self.values or self.origin is None:
            return None
        where = f"{PYPROJECT} [{TABLE}]" if self.origin == PYPROJECT else self.origin
        return f"{where}: {key}"


def _read_toml(path: Path) -> dict[str, Any]:
    import tomllib  # imported here: most runs have no settings file to read

    if path.is_dir():
        raise InputError(f"{path.name}: is a folder, not a settings file (move it away or rename it)")
    if not path.is_file():
        raise InputError(f"{path.name}: not a regular file (a device, FIFO or socket), not a settings file")
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle)
    except tomllib.TOMLDecodeError as exc:
        raise InputError(f"{path.name}: not valid TOML: {exc}") from None
    except UnicodeDecodeError:
        raise InputError(f"{path.name}: not valid TOML: not UTF-8 text") from None


def _check(table: Any, where: str) -> dict[str, str]:
    """The table's settings, or an InputError naming ``where`` and the key."""
    if not isinstance(table, dict):
        raise InputError(f"{where}: expected a table of settings ({', '.join(KEYS)})")
    values: dict[str, str] = {}
    for key, value in table.items():
        if key not in KEYS:
            raise InputError(f"{where}: unknown key {key!r} (known: {', '.join(KEYS)})")
        if not isinstance(value, str) or not value:
            raise InputError(f"{where}: key {key!r} takes a string ({KEYS[key]}), not {value!r}")
        values[key] = value
    return values


def load_config(folder: Path | None = None) -> Config:
    """The settings of ``folder`` (default: the current folder); see the module docstring.

    >>> load_config(Path("/")).get("out")
    'build'
    """
    folder = Path.cwd() if folder is None else Path(folder)
    own = folder / CONFIG_FILE
    if own.exists():  # a folder by that name is refused, not passed over
        return Config(_check(_read_toml(own), CONFIG_FILE), CONFIG_FILE)
    project = folder / PYPROJECT
    if project.exists():
        data = _read_toml(project)
        tool = data.get("tool", {})
        if isinstance(tool, dict) and "tts-builder" in tool:
            return Config(_check(tool["tts-builder"], f"{PYPROJECT} [{TABLE}]"), PYPROJECT)
    return Config({}, None)


#: the attribute of the parsed arguments where :func:`apply_config` notes whence each value came
SOURCES_ATTR = "setting_sources"


def apply_config(args: argparse.Namespace, folder: Path | None = None) -> None:
    """Fill the options left off the command line (None) from the file, then the defaults, and
    note in ``args.setting_sources`` (key -> label) the ones the file set (:func:`setting_label`).

    Only for the commands in :data:`COMMANDS`: the file is not read for any other (``games``,
    ``--help`` and ``completion`` work beside a broken file).
    """
    if getattr(args, "command", None) not in COMMANDS:
        return
    wanted = [key for key in KEYS if getattr(args, key, "") is None]
    if not wanted:
        return
    config = load_config(folder)
    sources: dict[str, str] = getattr(args, SOURCES_ATTR, None) or {}
    for key in wanted:
        setattr(args, key, config.get(key))
        label = config.label(key)
        if label is not None:
            sources[key] = label
    setattr(args, SOURCES_ATTR, sources)


def setting_label(args: argparse.Namespace, key: str, flag: str) -> str:
    """How an error names the value of ``key``: its flag (``--tts-dir``) when given on the command
    line or left at the default, else the settings file and key ("tts-builder.toml: tts_dir").

    >>> setting_label(argparse.Namespace(setting_sources={"out": "tts-builder.toml: out"}), "out", "--out")
    'tts-builder.toml: out'
    >>> setting_label(argparse.Namespace(), "out", "--out")
    '--out'
    """
    sources = getattr(args, SOURCES_ATTR, None) or {}
    return str(sources.get(key, flag))


# -- game options and seat counts on the command line -----------------------------------------

def check_game_settings(game: Any, options: Mapping[str, Any] | None, players: int | None, *,
                        deal: bool = True) -> int:
    """The seat count ``game`` is played with under ``--options``/``--players``, or InputError,
    one line naming the flag: an option the game does not have (with the nearest name it has), a
    value outside its choices, a seat count it does not declare, or (``deal``) a combination its
    setup refuses (seed 0 dealt). Every command checks these before it reads a file, so an
    organiser's typo is a usage error (exit 2), never a verdict on the games.

    >>> import rules
    >>> check_game_settings(rules.get_game("two-by-two"), {"scorng": "basic"}, None)
    Traceback (most recent call last):
    tts_builder.errors.InputError: --options: unknown option 'scorng' for two-by-two; did you mean 'scoring'? (known: scoring)
    """
    import rules
    from tts_builder.errors import did_you_mean

    for key, value in (options or {}).items():
        if key not in game.options:
            known = sorted(game.options)
            raise InputError(f"--options: unknown option {key!r} for {game.id}{did_you_mean(key, known)} "
                             f"(known: {', '.join(known) or 'none'})")
        values = game.option_values(key)
        default = game.options[key]
        if isinstance(default, bool) and not isinstance(value, bool):
            raise InputError(f"--options: {game.id}'s option {key} takes true or false, not {_json(value)}")
        if key in game.option_choices and value not in values:
            hint = did_you_mean(value, [str(v) for v in values]) if isinstance(value, str) else ""
            raise InputError(f"--options: {game.id}'s option {key} takes one of "
                             f"{', '.join(_json(v) for v in values)}, not {_json(value)}{hint}")
    counts = game.seat_counts()
    if players is not None and players not in counts:
        raise InputError(f"--players: {game.id} is played by {', '.join(map(str, counts))} players, not {players}")
    try:
        game.resolve_options(options)
        if not deal:
            return players if players is not None else counts[0]
        return int(game.new_state(seed=0, options=options, num_players=players).num_players())
    except (rules.SetupError, TypeError, ValueError) as exc:
        flags = "--options/--players" if players is not None and options else \
            "--players" if players is not None else "--options"
        raise InputError(f"{flags}: {exc}") from None


def check_any_game_settings(options: Mapping[str, Any] | None, players: int | None) -> None:
    """``--options``/``--players`` of a command whose files name the game (``validate``), checked
    before any is read: InputError unless some registered game has every option with that value
    and the seat count (a name no game has gets the nearest name one has)."""
    import rules
    from tts_builder.errors import did_you_mean

    games = rules.all_games()
    names = sorted({name for game in games for name in game.options})
    for key in options or {}:
        if key not in names:
            raise InputError(f"--options: unknown option {key!r} for every game{did_you_mean(key, names)} "
                             f"(known: {', '.join(names)})")
    counts = sorted({n for game in games for n in game.seat_counts()})
    if players is not None and players not in counts:
        raise InputError(f"--players: no game is played by {players} players (each is played by one of {', '.join(map(str, counts))})")
    errors: list[str] = []
    for game in games:
        if set(options or {}) <= set(game.options):
            try:
                check_game_settings(game, options, players, deal=False)
                return
            except InputError as exc:
                errors.append(str(exc))
    raise InputError(errors[0] if len(errors) == 1 else
                     f"--options/--players: no game is played so ({'; '.join(errors)})")


def _json(value: Any) -> str:
    import json

    return json.dumps(value, ensure_ascii=False)

