"""The build stamp: is ``OUT/<game>/`` already what ``tts-builder build`` would write?

After a successful build, ``OUT/<game>/.tts-builder-stamp.json`` records two things:

* ``inputs``: one digest of everything a build reads: every file of the shipped packages
  (``tts_builder`` and ``rules`` code and data, ``art_src``, ``lua_templates``), Pillow's
  and zlib's versions (they draw and encode the pixels) and the options that change the output (the
  absolute ``--out`` folder, which the ``file:///`` URLs name, ``--base-url``, ``--lossless``
  and ``$SOURCE_DATE_EPOCH``);
* ``outputs``: the sha256 of every file the build wrote (the save, the thumbnail, every image
  and the art manifest; the ``art-cache/`` is a cache, not an output).

A build whose inputs digest and output files both match is a no-op: the command prints
"up to date" and exits 0. This module imports only the standard library (not even
:mod:`tts_builder.fileio` unless there is something to sweep), so the check runs before Pillow, jinja2, jsonschema and lupa
are imported: a no-op costs a few per cent of a build.

Kill safety: the stamp is removed before a build commits its first file and written
(atomically, last) only after the whole build succeeded, so a build killed half-way leaves
no stamp, or the previous one with the previous, untouched, output. The stamp holds no
time and no run counts: the same inputs give the same stamp, byte for byte.
"""

from __future__ import annotations

import argparse
import hashlib
import importlib.util
import json
import os
import sys
import zlib
from collections.abc import Iterator, Mapping, Sequence
from typing import NoReturn
from pathlib import Path

STAMP = ".tts-builder-stamp.json"
#: ``OUT/upload/<game>/``: the files to upload to ``--base-url`` (outputs of the game's build too)
UPLOAD_DIR = "upload"
CACHE_DIR = "art-cache"  # the art pipeline's picture cache (kept out of the outputs)
#: :data:`tts_builder.fileio.TEMP_PREFIX`, repeated: importing fileio (typing, regexes) would cost the
#: no-op a fifth of its time (tests/test_build_speed.py checks that the two agree)
TEMP_PREFIX = ".tts-builder-tmp-"
_FORMAT = 2  # 2: the upload folder is an output too; images carry content hashes
#: the packages whose files a build reads (rules code and data, art sources, Lua templates, the
#: pipeline): what the stamp digests and what ``build --watch`` watches
PACKAGES = ("rules", "art_src", "lua_templates", "tts_builder")
_SKIP_DIRS = {"__pycache__"}


def stamp_path(out_root: Path, game_id: str) -> Path:
    """``OUT/<game>/.tts-builder-stamp.json``."""
    return Path(out_root) / game_id / STAMP


def package_dirs(name: str) -> list[Path]:
    """The folders of package ``name``, found without importing it."""
    spec = importlib.util.find_spec(name)
    if spec is None or not spec.submodule_search_locations:
        return []
    return [Path(p) for p in spec.submodule_search_locations]


def _package_files(folder: Path) -> Iterator[tuple[str, Path]]:
    for root, dirs, files in os.walk(folder):
        dirs[:] = sorted(d for d in dirs if d not in _SKIP_DIRS and not d.startswith("."))
        for name in sorted(files):
            if name.endswith((".pyc", ".pyo")) or name.startswith("."):
                continue
            path = Path(root) / name
            yield path.relative_to(folder).as_posix(), path


def _pillow_version() -> str:
    """Pillow's version, read from its ``_version.py`` (importing Pillow is what we avoid)."""
    for folder in package_dirs("PIL"):
        try:
            return (folder / "_version.py").read_text(encoding="utf-8")
        except OSError:
            pass
    return "none"


def _code_files() -> list[tuple[str, Path]]:
    return [(f"{package}/{rel}", path) for package in PACKAGES for folder in package_dirs(package)
            for rel, path in _package_files(folder)]


def _stat_key(files: Sequence[tuple[str, Path]]) -> str:
    """Digest of the files' names, sizes and modification times, and of Pillow's and zlib's versions."""
    stats = [(name, st.st_size, st.st_mtime_ns) for name, st in ((n, p.stat()) for n, p in files)]
    versions = [_pillow_version(), zlib.ZLIB_RUNTIME_VERSION]
    return hashlib.sha256(json.dumps([stats, versions]).encode("utf-8", "surrogatepass")).hexdigest()


def code_state() -> tuple[str, str]:
    """``(key, digest)`` of the code: ``digest`` covers every file of :data:`PACKAGES` (names and
    bytes) and Pillow's and zlib's versions; ``key`` the same files' names, sizes and modification
    times (taken first: a file changed meanwhile gives a key that will not match again)."""
    files = _code_files()
    key = _stat_key(files)
    h = hashlib.sha256()
    for name, path in files:
        h.update(f"{name}\0".encode("utf-8", "surrogatepass"))
        h.update(hashlib.sha256(path.read_bytes()).digest())
    h.update(b"pillow\0" + _pillow_version().encode("utf-8"))
    h.update(b"zlib\0" + zlib.ZLIB_RUNTIME_VERSION.encode("ascii"))  # the PNG bytes depend on it
    return key, h.hexdigest()


def code_digest(memo: Path | None = None) -> str:
    """The ``digest`` of :func:`code_state`. With ``memo`` (``art-cache/code-digest.json`` of a
    built game, see :func:`remember_code`), read from there while the files' names, sizes and
    modification times are those it was made from (as ``make`` and git's index do), without
    reading the files."""
    if memo is not None:
        try:
            known = json.loads(memo.read_text(encoding="utf-8"))
            if (isinstance(known, dict) and isinstance(known.get("digest"), str)
                    and known.get("key") == _stat_key(_code_files())):
                return str(known["digest"])
        except (OSError, ValueError):
            pass
    return code_state()[1]


def code_memo(out_root: Path, game_id: str) -> Path:
    """Where a build of ``OUT/<game>/`` remembers its :func:`code_state` (in the game's art cache)."""
    return Path(out_root) / game_id / CACHE_DIR / "code-digest.json"


def remember_code(memo: Path, state: tuple[str, str]) -> None:
    """Write ``state`` (from :func:`code_state`) to ``memo`` unless it already holds it."""
    data = json.dumps({"key": state[0], "digest": state[1]}, sort_keys=True).encode("ascii")
    try:
        if memo.read_bytes() == data:
            return
    except OSError:
        pass
    from tts_builder.fileio import atomic_write_bytes
    atomic_write_bytes(memo, data, fsync=False)  # a cache: a damaged file is a miss


def options_of(out_root: Path, *, base_url: str | None, lossless: bool) -> dict[str, object]:
    """The options that change what a build writes (``--jobs`` and ``--force`` do not)."""
    return {
        "out": os.path.abspath(out_root),
        "base_url": base_url.rstrip("/") if base_url else None,
        "lossless": bool(lossless),
        "source_date_epoch": os.environ.get("SOURCE_DATE_EPOCH"),
    }


def inputs_digest(game_id: str, options: Mapping[str, object], code: str | None = None) -> str:
    """The ``inputs`` digest of a build of ``game_id`` with ``options`` (see :func:`options_of`)."""
    text = json.dumps({"format": _FORMAT, "game": game_id, "code": code or code_digest(), "options": options},
                      sort_keys=True, ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()


def output_digests(game_dir: Path) -> dict[str, str]:
    """``relative path -> sha256`` of every output file under ``OUT/<game>/`` (not the cache,
    not the stamp, not what a killed run left)."""
    out: dict[str, str] = {}
    if not game_dir.is_dir():
        return out
    upload = game_dir.parent / UPLOAD_DIR / game_dir.name  # the upload folder, outside the game's own
    for top, prefix in ((game_dir, ""), (upload, f"{UPLOAD_DIR}:")):
        for root, dirs, files in os.walk(top):
            here = Path(root)
            if here == top:
                dirs[:] = [d for d in dirs if d != CACHE_DIR]
            dirs[:] = sorted(d for d in dirs if not d.startswith(TEMP_PREFIX))
            for name in sorted(files):
                if name == STAMP or name.startswith(TEMP_PREFIX) or name.endswith(".tmp"):
                    continue
                path = here / name
                out[prefix + path.relative_to(top).as_posix()] = hashlib.sha256(path.read_bytes()).hexdigest()
    return dict(sorted(out.items()))


def stamp_bytes(inputs: str, outputs: Mapping[str, str]) -> bytes:
    """The stamp file's bytes (sorted keys, no time: same build, same stamp)."""
    return (json.dumps({"format": _FORMAT, "inputs": inputs, "outputs": dict(outputs)}, sort_keys=True,
                       indent=1) + "\n").encode("ascii")


def write_stamp(out_root: Path, game_id: str, inputs: str) -> None:
    """Record a finished build: its inputs digest and the digests of the files now under ``OUT/<game>/``."""
    from tts_builder.fileio import atomic_write_bytes

    game_dir = Path(out_root) / game_id
    atomic_write_bytes(game_dir / STAMP, stamp_bytes(inputs, output_digests(game_dir)))


def remove_stamp(out_root: Path, game_id: str) -> None:
    """Forget the last build (called before a build changes its first output file)."""
    try:
        stamp_path(out_root, game_id).unlink()
    except FileNotFoundError:
        pass


def is_current(out_root: Path, game_id: str, inputs: str) -> bool:
    """True when the stamp says ``inputs`` were built into ``OUT/<game>/`` and every output
    file is still there, unchanged, with no other file beside them."""
    try:
        data = json.loads(stamp_path(out_root, game_id).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    if not isinstance(data, dict) or data.get("format") != _FORMAT or data.get("inputs") != inputs:
        return False
    outputs = data.get("outputs")
    return isinstance(outputs, dict) and bool(outputs) and outputs == output_digests(Path(out_root) / game_id)


def up_to_date_line(out_root: Path, game_id: str) -> str:
    """What ``build`` prints for a game it had no need to build."""
    save = Path(out_root) / game_id / f"{game_id}.json"
    return f"{game_id}: up to date ({save}); nothing to do (--force rebuilds)"


# --------------------------------------------------------------------------- the fast path


def add_build_arguments(p: argparse.ArgumentParser) -> None:
    """``build``'s arguments, defined once: the full parser (:func:`tts_builder.cli.build_parser`)
    and the fast path (:func:`_parse_build_argv`) read the command line alike."""
    p.add_argument("games", nargs="*", metavar="GAME")
    p.add_argument("--all", action="store_true", help="every registered game")
    p.add_argument("--out", help="output folder (default build/); the mod goes to OUT/GAME/")
    p.add_argument("--base-url", metavar="URL",
                   help="image URLs become URL/GAME/images/FILE (default: file:/// paths, this computer only)")
    p.add_argument("--watch", action="store_true",
                   help="build, then rebuild on every change to the rules, art, templates or code (Ctrl-C stops)")
    p.add_argument("--push", action="store_true",
                   help="with --watch: send each good rebuild's scripts to a running TTS (as `push`)")
    p.add_argument("--quiet", "-q", action="store_true",
                   help="no progress on stderr (results on stdout are the same)")
    p.add_argument("--lossless", action="store_true",
                   help="write lossless PNGs (default: 256-colour palette PNGs, about a third of the bytes, "
                   "each at least 40 dB PSNR, else lossless)")
    p.add_argument("--force", action="store_true", help="build even when the output is up to date")
    p.add_argument("--jobs", type=int, help="worker processes, one game each (default: the machine's cores); "
                   "the output is the same for any number")


class _Refused(Exception):
    """The fast path's parser met arguments it leaves to the full command."""


class _QuietParser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # the full command words it
        raise _Refused(message)


def _parse_build_argv(argv: Sequence[str]) -> argparse.Namespace | None:
    """``build``'s arguments as the full command reads them, or None where the full command has
    more to do than answer "up to date" (``--watch``, ``--force``, ``--help``, a mistake to word)."""
    parser = _QuietParser(prog="tts-builder build", add_help=False, allow_abbrev=False)
    add_build_arguments(parser)
    try:
        args = parser.parse_args(list(argv))
    except _Refused:
        return None
    if args.watch or args.push or args.force or args.all == bool(args.games) \
            or (args.jobs is not None and args.jobs < 1):
        return None
    return args


#: :mod:`tts_builder.config`'s file names and table, repeated (importing it costs the no-op half its
#: time; tests/test_build_speed.py checks that they agree)
CONFIG_FILE, PYPROJECT, CONFIG_TABLE = "tts-builder.toml", "pyproject.toml", "tool.tts-builder"


def _settings_file_present() -> bool:
    """Whether the current folder has a settings file (:mod:`tts_builder.config`) the full
    command would read: ``tts-builder.toml``, or a ``[tool.tts-builder]`` table in ``pyproject.toml``."""
    if os.path.lexists(CONFIG_FILE):
        return True
    try:
        with open(PYPROJECT, "rb") as fh:
            return CONFIG_TABLE.encode("ascii") in fh.read(1 << 20)
    except OSError:
        return False


def quick_build(argv: Sequence[str]) -> int | None:
    """``tts-builder build ARGS`` when every game asked for is up to date: print a line per
    game and return 0, having imported none of the heavy libraries. None when a game has
    something to build, or the arguments are not the plain forms (the full command runs)."""
    parsed = _parse_build_argv(argv)
    if parsed is None or _settings_file_present():
        return None  # the settings file may set --out or --base-url: the full command reads it
    games: list[str] = list(parsed.games)
    if parsed.all:
        from rules.registry import game_ids
        games = game_ids()
    out_root = Path(parsed.out if parsed.out is not None else "build")
    options = options_of(out_root, base_url=parsed.base_url, lossless=parsed.lossless)
    games = list(dict.fromkeys(games))
    if not all(stamp_path(out_root, g).is_file() for g in games):
        return None  # a game never built: no need to digest the code (a cold build would do it thrice)
    code = code_digest(code_memo(out_root, games[0]))
    if not all(is_current(out_root, g, inputs_digest(g, options, code)) for g in games):
        return None
    if _leftovers(out_root, games):  # what a killed build left
        from tts_builder.fileio import sweep_stale_temp
        sweep_stale_temp(out_root, recursive=False)
        for game_id in games:
            sweep_stale_temp(out_root / game_id)
    for game_id in games:
        print(up_to_date_line(out_root, game_id))
    return 0


def _leftovers(out_root: Path, games: Sequence[str]) -> bool:
    """Whether a temporary file or folder of a killed run lies in ``out_root`` or a game's folder."""
    if any(entry.name.startswith(TEMP_PREFIX) for entry in os.scandir(out_root)):
        return True
    for game_id in games:
        for _root, dirs, files in os.walk(out_root / game_id):
            if any(name.startswith(TEMP_PREFIX) for name in (*dirs, *files)):
                return True
    return False


def main(argv: Sequence[str] | None = None) -> int:
    """The ``tts-builder`` entry point: a no-op ``build`` answers here, anything else goes to
    :func:`tts_builder.cli.main`."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] == ["build"]:
        try:
            code = quick_build(args[1:])
        except OSError:
            code = None  # an unreadable folder: the full command words the problem
        if code is not None:
            return code
    from tts_builder.cli import main as full_main
    return full_main(argv)
