"""``tts-builder install``: copy a built mod into Tabletop Simulator's saves folder.

TTS lists in *Games > Save & Load* only the numbered saves in ``Saves/``
(``TS_Save_<N>.json``, each with a ``TS_Save_<N>.png`` thumbnail; see
``docs/tts-format.md`` §6), so the mod is copied there under the next free
number: one more than the highest ``N`` already present (``TS_Save_1`` in an
empty folder). The name shown in the menu is the save's ``SaveName`` (the game's
name). Installing a mod that is already there byte for byte copies nothing and
names the existing slot; a rebuilt mod gets a new slot (TTS saves are never
overwritten). ``Saves/SaveFileInfos.json`` is TTS's own index and is not touched.

A killed install leaves nothing TTS would list: both files are written under
``.tts-builder-tmp-*`` names (swept by the next install) and renamed into place,
the save first; a kill between the two renames leaves a save without its
thumbnail, which the next install finds byte for byte and completes. A save
name taken by a folder is never reused.

The TTS folder (the one holding ``Saves/`` and ``Mods/``) is, by default:

* Windows: ``%USERPROFILE%\\Documents\\My Games\\Tabletop Simulator``
* macOS: ``~/Library/Tabletop Simulator``
* Linux: ``~/.local/share/Tabletop Simulator``

``--tts-dir DIR`` names that folder instead (the mod goes to ``DIR/Saves``),
e.g. when TTS was told to keep its files elsewhere.

A build without ``--base-url`` refers to its images by ``file:///`` paths in the
build folder: keep that folder where it is, or the cards load blank.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from tts_builder.build import DEFAULT_OUT, save_paths
from tts_builder.errors import InputError, require_game
from tts_builder.fileio import atomic_write_bytes, read_input_bytes, sweep_stale_temp

SAVE_RE = re.compile(r"^TS_Save_([0-9]{1,9})\.json$")


@dataclass(frozen=True)
class InstallResult:
    game_id: str
    number: int
    save_path: Path
    thumbnail_path: Path
    copied: bool  # False when the same save was already installed


def default_tts_dir(platform: str | None = None, env: Mapping[str, str] | None = None,
                    home: Path | None = None) -> Path:
    """TTS's data folder for ``platform`` (default: this computer's).

    >>> default_tts_dir("linux", {}, Path("/home/ann")).as_posix()
    '/home/ann/.local/share/Tabletop Simulator'
    >>> default_tts_dir("darwin", {}, Path("/Users/ann")).as_posix()
    '/Users/ann/Library/Tabletop Simulator'
    """
    platform = sys.platform if platform is None else platform
    env = os.environ if env is None else env
    home = Path.home() if home is None else home
    if platform.startswith(("win", "cygwin")):
        profile = Path(env["USERPROFILE"]) if env.get("USERPROFILE") else home
        return profile / "Documents" / "My Games" / "Tabletop Simulator"
    if platform == "darwin":
        return home / "Library" / "Tabletop Simulator"
    return home / ".local" / "share" / "Tabletop Simulator"


def save_numbers(saves: Path) -> list[int]:
    """The ``N`` of every ``TS_Save_<N>.json`` in ``saves``, sorted."""
    if not saves.is_dir():
        return []
    return sorted(int(m.group(1)) for p in saves.iterdir() if (m := SAVE_RE.match(p.name)) and p.is_file())


def next_save_number(saves: Path) -> int:
    """One more than the highest ``TS_Save_<N>.json`` name taken by anything (a folder of
    that name too: TTS skips it, and a save cannot be renamed over it); a slot whose
    thumbnail name is taken by something other than a file is skipped as well."""
    if not saves.is_dir():
        return 1
    n = max((int(m.group(1)) for p in saves.iterdir() if (m := SAVE_RE.match(p.name))), default=0) + 1
    while (saves / f"TS_Save_{n}.png").exists() and not (saves / f"TS_Save_{n}.png").is_file():
        n += 1
    return n


def _read_or_none(path: Path) -> bytes | None:
    """The bytes of an installed save, or None when it cannot be read (another program's
    file with odd permissions is not ours to judge: it is skipped)."""
    try:
        return path.read_bytes()
    except OSError:
        print(f"tts-builder: note: cannot read {path}; skipped when looking for an earlier install",
              file=sys.stderr)
        return None


def install(game_id: str, *, out_root: Path = DEFAULT_OUT, tts_dir: Path | None = None) -> InstallResult:
    """Copy ``OUT/<game>/<game>.json`` and ``.png`` to ``Saves/TS_Save_<N>.json`` and ``.png``."""
    require_game(game_id)
    save_src, thumb_src = save_paths(out_root, game_id)
    if not save_src.is_file() or not thumb_src.is_file():
        out = "" if Path(out_root) == DEFAULT_OUT else f" --out {out_root}"
        missing = save_src if not save_src.is_file() else thumb_src
        raise InputError(f"{game_id} is not built yet (no {missing}): run `tts-builder build {game_id}{out}` first")
    if tts_dir is None:
        tts_dir = default_tts_dir()
        if not tts_dir.is_dir():
            raise InputError(f"no Tabletop Simulator folder at {tts_dir}: start TTS once, or pass --tts-dir DIR "
                             f"(the folder holding Saves/)")
    elif not Path(tts_dir).is_dir():
        raise InputError(f"--tts-dir {tts_dir}: no such folder")
    saves = Path(tts_dir) / "Saves"
    if saves.exists() and not saves.is_dir():
        raise InputError(f"{saves}: is a file, not the Saves folder: move it away, or pass --tts-dir DIR")
    save_bytes, thumb_bytes = read_input_bytes(save_src), read_input_bytes(thumb_src)
    sweep_stale_temp(saves, recursive=False)  # what a killed install left
    for n in save_numbers(saves):  # already installed, byte for byte?
        existing = saves / f"TS_Save_{n}.json"
        if existing.stat().st_size == len(save_bytes) and _read_or_none(existing) == save_bytes:
            thumb = existing.with_suffix(".png")
            if thumb.is_dir():
                raise InputError(f"{thumb}: is a folder where the thumbnail of {existing.name} belongs")
            if not thumb.is_file() or _read_or_none(thumb) != thumb_bytes:
                atomic_write_bytes(thumb, thumb_bytes)
            return InstallResult(game_id, n, existing, thumb, copied=False)
    n = next_save_number(saves)
    target = saves / f"TS_Save_{n}.json"
    thumb = saves / f"TS_Save_{n}.png"
    # The save first: a kill before the thumbnail is renamed leaves a save the next
    # install recognises and completes; a thumbnail alone would be an orphan.
    atomic_write_bytes(target, save_bytes)
    atomic_write_bytes(thumb, thumb_bytes)
    return InstallResult(game_id, n, target, thumb, copied=True)


def install_command(game_id: str, *, out_root: Path, tts_dir: Path | None) -> int:
    """Body of ``tts-builder install``."""
    result = install(game_id, out_root=out_root, tts_dir=tts_dir)
    if result.copied:
        print(f"{game_id}: installed as {result.save_path} (+ {result.thumbnail_path.name}); "
              f"in TTS: Games > Save & Load > TS_Save_{result.number}")
    else:
        print(f"{game_id}: already installed as {result.save_path}; nothing copied")
    return 0
