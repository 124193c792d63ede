"""``tts-builder install``: copy a built mod into Tabletop Simulator's saves folder.

TTS lists in *Games > Save & Load* only the numbered saves in ``Saves/``
(``TS_Save_<N>.json``, each with a ``TS_Save_<N>.png`` thumbnail; see
``docs/tts-format.md`` §6), so the mod is copied there under the next free
number: one more than the highest ``N`` already present (``TS_Save_1`` in an
empty folder). The name shown in the menu is the save's ``SaveName``: the game's
name, the tool's version and the build's id (:func:`tts_builder.save.save_name`), so installs
of different builds are told apart. Installing a mod that is already there byte for byte copies nothing and
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

``--replace`` overwrites the slot of this game's earlier install instead of taking a
new number per rebuild: the highest ``TS_Save_<N>.json`` that this tool wrote for the
same game, known by three marks together: the tool's memo (:func:`save.built_by`), the
same game in ``SaveName`` (:func:`save.game_of_save_name`) and the same ``EpochTime`` as the new build (a build stamps a fixed
time; TTS stamps the clock whenever it saves, so a game a player saved from the mod is
never taken for an install and never overwritten). With no such slot, the mod goes to
the next free number as without ``--replace``. Reload the save in TTS to see the change.

``--saved-object`` installs the game's objects instead, as one bag named after the game
in ``Saves/Saved Objects/<game name>.json`` (+ ``.png``), the same wrapper as a saved
object TTS writes (empty metadata, see ``docs/tts-format.md`` §1): drop it onto any
table from *Objects > Saved Objects*. Zones (hand and scripting triggers) cannot go in a
bag and are left out, and the Global script that enforces the rules is not part of a
saved object: it is for reusing the components. Its file is always replaced in place.

A build without ``--base-url`` refers to its images by ``file:///`` paths in the
build folder: keep that folder where it is, or the cards load blank.
"""

from __future__ import annotations

import json
import os
import re
import sys
from typing import Any
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from tts_builder.build import DEFAULT_OUT, save_paths
from tts_builder.errors import InputError, require_game
from tts_builder.fileio import atomic_write_bytes, atomic_write_json, read_input_bytes, sweep_stale_temp
from tts_builder.guids import guid_for
from tts_builder.save import TOOL_NAME, built_by, game_of_save_name, tool_memo

#: Objects a bag cannot hold: zones. They stay out of a saved object.
ZONE_NAMES = frozenset({"HandTrigger", "ScriptingTrigger", "FogOfWarTrigger", "FogOfWar", "RandomizeTrigger",
                        "LayoutZone"})
#: Characters no file name may hold on one of the platforms TTS runs on.
_UNSAFE_NAME = re.compile(r'[<>:"/\\|?*\x00-\x1f]')

SAVE_RE = re.compile(r"^TS_Save_([0-9]{1,9})\.json$")


@dataclass(frozen=True)
class InstallResult:
    game_id: str
    number: int
    save_path: Path
    thumbnail_path: Path
    copied: bool  # False when the same save was already installed
    replaced: bool = False  # True when the slot of an earlier install was overwritten
    thumbnail_updated: bool = False  # the same save was there; only its thumbnail was (re)written
    save_name: str = ""  # the SaveName TTS's load menu shows for the slot


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


def _json_or_none(data: bytes) -> dict[str, Any] | None:
    try:
        value = json.loads(data)
    except (ValueError, RecursionError):
        return None
    return value if isinstance(value, dict) else None


def earlier_install(saves: Path, save: dict[str, Any]) -> int | None:
    """The ``N`` of the highest ``TS_Save_<N>.json`` this tool installed for the game of
    ``save`` (same tool memo, game in ``SaveName`` and build ``EpochTime``), or None."""
    found = None
    marker = TOOL_NAME.encode()
    for n in save_numbers(saves):
        data = _read_or_none(saves / f"TS_Save_{n}.json")
        if data is None or marker not in data:  # cheap: most saves are not ours
            continue
        old = _json_or_none(data)
        if (old is not None and built_by(old) is not None
                and game_of_save_name(str(old.get("SaveName"))) == game_of_save_name(str(save.get("SaveName")))
                and old.get("EpochTime") == save.get("EpochTime")):
            found = n
    return found


def _tts_saves_dir(tts_dir: Path | None) -> Path:
    """``Saves/`` in the TTS folder (the platform's standard place by default), checked."""
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
    return saves


def _built_files(game_id: str, out_root: Path) -> tuple[Path, Path]:
    require_game(game_id)
    save_src, thumb_src = save_paths(out_root, game_id)
    if not save_src.is_file() or not thumb_src.is_file():
        out = "" if Path(out_root) == DEFAULT_OUT else f" --out {out_root}"
        missing = save_src if not save_src.is_file() else thumb_src
        raise InputError(f"{game_id} is not built yet (no {missing}): run `tts-builder build {game_id}{out}` first")
    return save_src, thumb_src


def install(game_id: str, *, out_root: Path = DEFAULT_OUT, tts_dir: Path | None = None,
            replace: bool = False) -> InstallResult:
    """Copy ``OUT/<game>/<game>.json`` and ``.png`` to ``Saves/TS_Save_<N>.json`` and ``.png``;
    ``replace``: over the slot of the game's earlier install when there is one."""
    save_src, thumb_src = _built_files(game_id, out_root)
    saves = _tts_saves_dir(tts_dir)
    save_bytes, thumb_bytes = read_input_bytes(save_src), read_input_bytes(thumb_src)
    sweep_stale_temp(saves, recursive=False)  # what a killed install left
    for n in save_numbers(saves):  # already installed, byte for byte?
        existing = saves / f"TS_Save_{n}.json"
        if existing.stat().st_size == len(save_bytes) and _read_or_none(existing) == save_bytes:
            thumb = existing.with_suffix(".png")
            if thumb.is_dir():
                raise InputError(f"{thumb}: is a folder where the thumbnail of {existing.name} belongs")
            stale = not thumb.is_file() or _read_or_none(thumb) != thumb_bytes
            if stale:
                atomic_write_bytes(thumb, thumb_bytes)
            return InstallResult(game_id, n, existing, thumb, copied=False, thumbnail_updated=stale,
                                 save_name=_save_name(save_bytes))
    earlier = None
    if replace:
        save = _json_or_none(save_bytes)
        earlier = earlier_install(saves, save) if save is not None else None
        if earlier is not None and (saves / f"TS_Save_{earlier}.png").is_dir():
            raise InputError(f"{saves / f'TS_Save_{earlier}.png'}: is a folder where the thumbnail of "
                             f"TS_Save_{earlier}.json belongs")
    n = next_save_number(saves) if earlier is None else earlier
    target = saves / f"TS_Save_{n}.json"
    thumb = saves / f"TS_Save_{n}.png"
    # The save first: a kill before the thumbnail is renamed leaves a save the next
    # install recognises and completes; a thumbnail alone would be an orphan.
    atomic_write_bytes(target, save_bytes)
    atomic_write_bytes(thumb, thumb_bytes)
    return InstallResult(game_id, n, target, thumb, copied=True, replaced=earlier is not None,
                         save_name=_save_name(save_bytes))


def _save_name(save_bytes: bytes) -> str:
    save = _json_or_none(save_bytes)
    return str(save.get("SaveName") or "") if save is not None else ""


def saved_object_name(save: dict[str, Any], game_id: str) -> str:
    """The file name (no extension) of the game's saved object: its name, made safe.

    >>> saved_object_name({"SaveName": "Two & Two"}, "two-and-two")
    'Two & Two'
    >>> saved_object_name({"SaveName": 'A/B: "C"?'}, "x")
    'A-B- -C--'
    >>> saved_object_name({"SaveName": " . "}, "two-and-two")
    'two-and-two'
    """
    name = _UNSAFE_NAME.sub("-", game_of_save_name(str(save.get("SaveName") or ""))).strip(" .")
    return name or game_id


def saved_object(save: dict[str, Any], game_id: str) -> dict[str, Any]:
    """The saved-object file holding the objects of ``save`` (zones left out) in one bag."""
    objects = [o for o in save.get("ObjectStates") or [] if isinstance(o, dict) and o.get("Name") not in ZONE_NAMES]
    taken = {str(o.get("GUID")) for o in objects}
    salt = 0
    guid = guid_for(f"{game_id}/saved-object-bag")
    while guid in taken:
        salt += 1
        guid = guid_for(f"{game_id}/saved-object-bag#{salt}")
    name = str(save.get("SaveName") or game_id)
    bag = {
        "GUID": guid, "Name": "Bag", "Nickname": name,
        "Description": f"The components of {name}, built by {TOOL_NAME}. The rules script comes with the full save.",
        "GMNotes": "", "Memo": tool_memo(),
        "Transform": {"posX": 0.0, "posY": 1.5, "posZ": 0.0, "rotX": 0.0, "rotY": 0.0, "rotZ": 0.0,
                      "scaleX": 1.0, "scaleY": 1.0, "scaleZ": 1.0},
        "ColorDiffuse": {"r": 0.7059, "g": 0.7059, "b": 0.7059},
        "Locked": False, "Grid": True, "Snap": True, "Autoraise": True, "Sticky": True, "Tooltip": True,
        "Bag": {"Order": 0}, "LuaScript": "", "LuaScriptState": "", "XmlUI": "",
        "ContainedObjects": objects,
    }
    return {"SaveName": "", "Date": "", "VersionNumber": "", "GameMode": "", "GameType": "", "GameComplexity": "",
            "Tags": [], "Gravity": 0.5, "PlayArea": 0.5, "Table": "", "Sky": "", "Note": "", "TabStates": {},
            "LuaScript": "", "LuaScriptState": "", "XmlUI": "", "ObjectStates": [bag]}


def install_saved_object(game_id: str, *, out_root: Path = DEFAULT_OUT, tts_dir: Path | None = None) -> InstallResult:
    """Write the game's objects as ``Saves/Saved Objects/<game name>.json`` (+ ``.png``), in place."""
    save_src, thumb_src = _built_files(game_id, out_root)
    saves = _tts_saves_dir(tts_dir)
    save = _json_or_none(read_input_bytes(save_src))
    if save is None:
        raise InputError(f"{save_src}: not a TTS save (rebuild with `tts-builder build {game_id}`)")
    folder = saves / "Saved Objects"
    for place in (saves, folder):
        if place.exists() and not place.is_dir():
            raise InputError(f"{place}: is a file, not a folder: move it away, or pass --tts-dir DIR")
    name = saved_object_name(save, game_id)
    target, thumb = folder / f"{name}.json", folder / f"{name}.png"
    for place in (target, thumb):
        if place.is_dir():
            raise InputError(f"{place}: is a folder where the saved object belongs")
    sweep_stale_temp(folder, recursive=False)
    replaced = target.is_file()
    atomic_write_json(target, saved_object(save, game_id))
    atomic_write_bytes(thumb, read_input_bytes(thumb_src))
    return InstallResult(game_id, 0, target, thumb, copied=True, replaced=replaced)


def _named(result: InstallResult) -> str:
    return f", shown as {result.save_name!r}" if result.save_name else ""


def install_command(game_id: str, *, out_root: Path, tts_dir: Path | None, replace: bool = False,
                    as_saved_object: bool = False) -> int:
    """Body of ``tts-builder install``."""
    if as_saved_object:
        result = install_saved_object(game_id, out_root=out_root, tts_dir=tts_dir)
        verb = "replaced" if result.replaced else "installed"
        print(f"{game_id}: {verb} the saved object {result.save_path} (+ {result.thumbnail_path.name}); "
              f"in TTS: Objects > Saved Objects > {result.save_path.stem}")
        return 0
    result = install(game_id, out_root=out_root, tts_dir=tts_dir, replace=replace)
    if result.replaced:
        print(f"{game_id}: replaced the earlier install {result.save_path} (+ {result.thumbnail_path.name}); "
              f"in TTS: Games > Save & Load > TS_Save_{result.number}{_named(result)} (load it again to see the change)")
    elif result.copied:
        if replace:
            print(f"{game_id}: no earlier install found to replace", file=sys.stderr)
        print(f"{game_id}: installed as {result.save_path} (+ {result.thumbnail_path.name}); "
              f"in TTS: Games > Save & Load > TS_Save_{result.number}{_named(result)}")
    elif result.thumbnail_updated:
        print(f"{game_id}: already installed as {result.save_path}; its thumbnail {result.thumbnail_path.name} "
              f"was updated")
    else:
        print(f"{game_id}: already installed as {result.save_path}; nothing copied")
    return 0
