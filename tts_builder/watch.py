"""``tts-builder build GAME... --watch``: rebuild on every change, for a fast edit loop.

The folders watched are the ones a build reads: the rules (``rules/``: each game's data
file and engine, and the shared engine code), the art sources (``art_src/``), the Lua
templates (``lua_templates/``) and the pipeline itself (``tts_builder/``). A change to
another game's folders (``art_src/<other>/``, ``lua_templates/games/<other>/``, its rules
package) does not rebuild; the build's own output folder, caches, temporary files and
editor swap files are ignored. Each batch of changes prints what changed (relative to
the project), then the outcome of the rebuild: the build's summary line per game, or
the one line saying why it failed. A failed rebuild leaves the last good build in place
(the build is atomic) and the watch goes on. Ctrl-C stops it with exit 0.

Each rebuild runs ``tts-builder build`` in a fresh Python process, so a change to the
engine or the pipeline's code is built with the new code, not the code this process
imported. With ``--push`` a good rebuild is also sent to a running TTS (``push``).

The loop takes its changes and its rebuild as arguments, so tests drive it with a
list of changes and a recording rebuild, and never wait on the file system.
"""

from __future__ import annotations

import re
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import rules
from tts_builder.errors import InputError
from tts_builder.fileio import TEMP_PREFIX
from tts_builder.stamp import PACKAGES, package_dirs

#: File names never worth a rebuild: bytecode, editor backups and swap files, OS litter.
IGNORED_SUFFIXES = (".pyc", ".pyo", ".tmp", "~", ".bak", ".orig", ".rej", ".kate-swp", "___jb_tmp___",
                    "___jb_old___", ".crswap")
IGNORED_NAMES = frozenset({"__pycache__", ".DS_Store", ".git", ".mypy_cache", ".pytest_cache", "4913", "Thumbs.db"})
#: editors' temporary files by the shape of their names: Vim's swap files (``.x.swp``, then ``.swo``,
#: ``.swn``... down to ``.swa``, and ``.swpx``), Vim's write probe (``4913``, ``5036``... any number,
#: written and removed in the folder to test it), Emacs' lock (``.#x``) and auto-save (``#x#``) files,
#: gedit's ``.goutputstream-XXXXXX``, Office's ``~$x`` locks, backup copies ``x.~1~``
_EDITOR_TEMP = re.compile(r"\..*\.sw[a-p]x?|.*\.sw[a-p]|[0-9]+|\.#.*|#.*#|\.goutputstream-.*|~\$.*|.*\.~[0-9]+~")


def is_editor_temp(name: str) -> bool:
    """Whether a file name is an editor's temporary file, backup or lock (never a source of ours).

    >>> [is_editor_temp(n) for n in (".art.json.swp", ".art.json.swo", "4913", ".#art.json", "#art.json#",
    ...                              "art.json~", "art.json", "rules.lua.j2", "cards-2.json")]
    [True, True, True, True, True, True, False, False, False]
    """
    return (name in IGNORED_NAMES or name.endswith(IGNORED_SUFFIXES) or name.startswith(TEMP_PREFIX)
            or _EDITOR_TEMP.fullmatch(name) is not None)


@dataclass(frozen=True)
class Outcome:
    """What one rebuild gave: ok, and the lines to show (summaries, or the one error line)."""

    ok: bool
    lines: tuple[str, ...]
    built: bool = True  # False when the build found every game up to date and wrote nothing


def _package_dir(module: Any) -> Path:
    return Path(str(getattr(module, "__file__", "") or "")).parent


def watched_roots() -> list[Path]:
    """The folders a build reads (:data:`tts_builder.stamp.PACKAGES`, as the stamp digests them):
    rules, art sources, Lua templates and the pipeline."""
    return [folder for name in PACKAGES for folder in package_dirs(name)]


def game_folders(game_id: str) -> list[Path]:
    """The folders that belong to one game alone: its art, its templates, its rules package."""
    import importlib

    roots = watched_roots()
    folders = [roots[1] / game_id, roots[2] / "games" / game_id]
    module = type(rules.get_game(game_id)).__module__
    if module.startswith("rules.") and module.count(".") >= 2:  # rules.<package>.<module>
        folders.append(_package_dir(importlib.import_module(module.rsplit(".", 1)[0])))
    return folders


def _inside(path: Path, folder: Path) -> bool:
    try:
        path.relative_to(folder)
    except ValueError:
        return False
    return True


class ChangeFilter:
    """Which changed paths call for a rebuild: not another game's, not the output, not litter."""

    def __init__(self, skip_folders: Iterable[Path]) -> None:
        self.skip = [Path(f).resolve() for f in skip_folders]

    def __call__(self, path: str | Path) -> bool:
        p = Path(path).resolve()
        if any(part in IGNORED_NAMES or part.startswith(TEMP_PREFIX) for part in p.parts):
            return False
        if is_editor_temp(p.name):
            return False
        return not any(_inside(p, folder) for folder in self.skip)


def skip_folders(game_ids: Iterable[str], out_root: Path) -> list[Path]:
    """What ``build --watch`` of ``game_ids`` ignores: the other games' folders, the output."""
    wanted = set(game_ids)
    skip = [out_root]
    for other in rules.game_ids():
        if other not in wanted:
            skip += game_folders(other)
    return skip


def _shown(path: str, roots: Iterable[Path]) -> str:
    """``art_src/two-and-two/art.json``: a path relative to the project where possible."""
    p = Path(path).resolve()
    for root in roots:
        base = Path(root).resolve().parent
        if _inside(p, base):
            return p.relative_to(base).as_posix()
    return str(path)


def watch_loop(changes: Iterable[Iterable[tuple[Any, str]]], rebuild: Callable[[], Outcome], *,
               wanted: Callable[[str], bool], roots: list[Path], out: Callable[[str], None],
               err: Callable[[str], None], clock: Callable[[], float] = time.perf_counter) -> int:
    """Build once, then rebuild after each batch of ``changes`` ((change, path) pairs, as
    watchfiles yields them) that holds a wanted path; 0 when the changes end or on Ctrl-C."""
    try:
        _run(rebuild, out, err, clock)
        out("watching for changes (Ctrl-C to stop)")
        for batch in changes:
            paths = sorted({_shown(path, roots) for _, path in batch if wanted(path)})
            if not paths:
                continue
            more = f" and {len(paths) - 3} more" if len(paths) > 3 else ""
            out(f"changed: {', '.join(paths[:3])}{more}")
            _run(rebuild, out, err, clock)
    except KeyboardInterrupt:
        pass
    out("stopped watching")
    return 0


def _run(rebuild: Callable[[], Outcome], out: Callable[[str], None], err: Callable[[str], None],
         clock: Callable[[], float]) -> None:
    start = clock()
    outcome = rebuild()
    for line in outcome.lines:
        (out if outcome.ok else err)(line)
    seconds = clock() - start
    if outcome.ok and not outcome.built:
        return  # its "up to date" lines said it all: nothing was rebuilt
    out(f"rebuilt in {seconds:.1f} s" if outcome.ok else f"rebuild failed ({seconds:.1f} s); the last good build "
        f"stays in place")


def subprocess_rebuild(argv: list[str], after: Callable[[], list[str]] | None = None) -> Callable[[], Outcome]:
    """A rebuild that runs ``tts-builder build ARGV --quiet`` in a fresh interpreter (new code
    is picked up); ``after`` runs when it succeeded and adds its lines (``--push``)."""
    command = [sys.executable, "-m", "tts_builder", "build", *argv, "--quiet"]

    def rebuild() -> Outcome:
        proc = subprocess.run(command, capture_output=True, text=True, stdin=subprocess.DEVNULL)
        lines = proc.stdout.splitlines()
        errors = [line for line in proc.stderr.splitlines() if line.strip()]
        if proc.returncode != 0:
            last = errors[-1] if errors else f"build exited with code {proc.returncode}"
            return Outcome(False, (last if last.startswith("tts-builder:") else f"tts-builder: {last}",))
        extra = after() if after else []
        built = not lines or not all(": up to date (" in line for line in lines)
        return Outcome(True, (*lines, *[e for e in errors if "local file:///" not in e], *extra), built)
    return rebuild


def watch_changes(roots: list[Path], wanted: Callable[[str], bool],
                  stop: threading.Event | None = None) -> Iterable[Iterable[tuple[Any, str]]]:
    """watchfiles' batches of changes under ``roots`` (only paths ``wanted`` keeps)."""
    try:
        import watchfiles
    except ImportError:
        raise InputError("build --watch needs the watchfiles package: pip install 'tts-builder[watch]'") from None
    import logging

    logging.getLogger("watchfiles").setLevel(logging.ERROR)  # its Ctrl-C notice; "stopped watching" says it
    return watchfiles.watch(*roots, watch_filter=lambda _change, path: wanted(path), stop_event=stop,
                            raise_interrupt=False)


def watch_command(game_ids: list[str], *, out_root: Path, base_url: str | None, push: bool,
                  all_games: bool = False, lossless: bool = False) -> int:
    """Body of ``tts-builder build GAME... --watch [--push]`` (``--all``: every game that can be built)."""
    if not game_ids:
        raise InputError("build --watch: name the games to rebuild")
    roots = watched_roots()
    wanted = ChangeFilter(skip_folders(game_ids, out_root))
    which = ["--all"] if all_games else game_ids  # --all skips, with a note, a game not ready yet
    argv = [*which, "--out", str(out_root), *(["--base-url", base_url] if base_url else []),
            *(["--lossless"] if lossless else [])]

    def push_all() -> list[str]:
        from tts_builder.push import push as push_game

        lines = []
        for game_id in game_ids:
            try:
                sent = push_game(game_id, out_root=out_root)
                lines.append(f"{game_id}: pushed to TTS ({sent} script(s)); it reloads the game")
            except InputError as exc:
                lines.append(f"{game_id}: not pushed: {exc}")
        return lines

    def say(line: str) -> None:
        print(line, flush=True)

    def warn(line: str) -> None:
        print(line, file=sys.stderr, flush=True)

    changes = watch_changes(roots, wanted)
    return watch_loop(changes, subprocess_rebuild(argv, push_all if push else None), wanted=wanted, roots=roots,
                      out=say, err=warn)
