"""Settings from a file in the current folder, so a project need not repeat its flags.

Read from ``tts-builder.toml`` (top-level keys) when it exists, else from the ``[tool.tts-builder]``
table of ``pyproject.toml``; neither is an error. Keys:

* ``base_url``: what ``build --base-url`` takes (image URLs become ``URL/GAME/images/FILE``);
* ``tts_dir``: what ``install --tts-dir`` takes (TTS's folder holding ``Saves/``);
* ``out``: the build output folder (``--out`` of build, sheets, install and print; default ``build``).

A flag on the command line wins over the file. An unknown key, a value that is not a string, or a
file that is not TOML is refused with one line naming the file and the key (exit 2).
"""

from __future__ import annotations

import argparse
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

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


def _read_toml(path: Path) -> dict[str, Any]:
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
    if own.is_file():
        return Config(_check(_read_toml(own), CONFIG_FILE), CONFIG_FILE)
    project = folder / PYPROJECT
    if project.is_file():
        data = _read_toml(project)
        tool = data.get("tool", {})
        if isinstance(tool, dict) and "tts-builder" in tool:
            return Config(_check(tool["tts-builder"], f"{PYPROJECT} [{TABLE}]"), PYPROJECT)
    return Config({}, None)


def apply_config(args: argparse.Namespace, folder: Path | None = None) -> None:
    """Fill the options left off the command line (None) from the file, then the defaults.

    Only for the commands in :data:`COMMANDS`: the file is not read for any other (``games``,
    ``--help`` and ``completion`` work beside a broken file).
    """
    if getattr(args, "command", None) not in COMMANDS:
        return
    wanted = [key for key in KEYS if getattr(args, key, "") is None]
    if not wanted:
        return
    config = load_config(folder)
    for key in wanted:
        setattr(args, key, config.get(key))
