"""Where transcripts come from: files, folders, zip archives and glob patterns, read lazily.

An organiser's batch is rarely a list of files typed by hand: it is a folder of a
tournament's games, a zip someone sent, or ``games/round-*.json``. :func:`expand` turns each
command-line argument into :class:`Source` items, one per transcript, in a stable order
(sorted names), without reading them; :meth:`Source.read` reads one within the input limits
of :mod:`tts_builder.fileio`. A million transcripts are never in memory at once.

>>> [s.name for s in expand(["no-such-file.json"])]
['no-such-file.json']
"""

from __future__ import annotations

import glob
import os
import stat
import zipfile
from dataclasses import dataclass
from typing import Iterable, Iterator

from tts_builder.errors import InputError
from tts_builder.fileio import MAX_FILE_BYTES, read_input_bytes, read_within

#: a folder or an archive contributes the files whose names end so
TRANSCRIPT_SUFFIX = ".json"
_GLOB_CHARS = frozenset("*?[")


@dataclass(frozen=True)
class Source:
    """One transcript (or save) to read: a file, or ``member`` of the zip archive ``path``.
    ``name`` is what reports and messages call it."""

    path: str
    member: str | None = None

    @property
    def name(self) -> str:
        return f"{self.path}:{self.member}" if self.member is not None else self.path

    def read(self) -> bytes:
        """The bytes, within :data:`~tts_builder.fileio.MAX_FILE_BYTES`, or InputError naming the source."""
        if self.member is None:
            return read_input_bytes(self.path)
        try:
            with zipfile.ZipFile(self.path) as archive:
                info = archive.getinfo(self.member)
                with archive.open(info) as member:
                    return read_within(member, self.name, info.file_size, MAX_FILE_BYTES)
        except (zipfile.BadZipFile, zipfile.LargeZipFile, KeyError, NotImplementedError, EOFError) as exc:
            raise InputError(f"{self.name}: cannot read from the archive ({exc})") from None
        except RuntimeError as exc:  # an encrypted member
            raise InputError(f"{self.name}: cannot read from the archive ({exc})") from None
        except OSError as exc:
            raise InputError(f"{self.name}: cannot read ({exc.strerror or exc})") from None


def _is_folder(path: str) -> bool:
    try:
        return stat.S_ISDIR(os.stat(path).st_mode)
    except OSError:
        return False


def _folder(path: str) -> Iterator[Source]:
    """The ``.json`` files of a folder and its subfolders, sorted by their path."""
    found = False
    for root, dirs, files in os.walk(path):
        dirs.sort()
        for name in sorted(files):
            if name.endswith(TRANSCRIPT_SUFFIX) and not name.startswith("."):
                found = True
                yield Source(os.path.join(root, name))
    if not found:
        raise InputError(f"{path}: a folder with no {TRANSCRIPT_SUFFIX} file in it")


def _archive(path: str) -> Iterator[Source]:
    """The ``.json`` members of a zip archive, sorted by name."""
    try:
        with zipfile.ZipFile(path) as archive:
            members = sorted(info.filename for info in archive.infolist()
                             if not info.is_dir() and info.filename.endswith(TRANSCRIPT_SUFFIX))
    except zipfile.BadZipFile:
        raise InputError(f"{path}: not a zip archive (or a damaged one)") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot read ({exc.strerror or exc})") from None
    if not members:
        raise InputError(f"{path}: a zip archive with no {TRANSCRIPT_SUFFIX} member")
    for member in members:
        yield Source(path, member)


def expand_one(arg: str) -> Iterator[Source]:
    """The sources one argument stands for: a folder's transcripts, a zip's, a glob pattern's
    matches (for shells that do not expand it, and Windows), or the file itself. A file that
    cannot be read is still one source: reading it reports the error, so one bad file in a batch
    does not stop the others. An argument that names nothing at all raises InputError."""
    if _is_folder(arg):
        yield from _folder(arg)
    elif arg.lower().endswith(".zip") and os.path.isfile(arg):
        yield from _archive(arg)
    elif _GLOB_CHARS & set(arg) and not os.path.lexists(arg):
        matches = sorted(glob.glob(arg, recursive=True))
        if not matches:
            raise InputError(f"{arg}: the pattern matches no file")
        for match in matches:
            yield from expand_one(match) if _is_folder(match) or match.lower().endswith(".zip") \
                else iter([Source(match)])
    else:
        yield Source(arg)


def expand(args: Iterable[str | os.PathLike[str]]) -> Iterator[Source]:
    """Every source of ``args``, in order, lazily (a folder is walked as it is consumed)."""
    for arg in args:
        yield from expand_one(os.fspath(arg))


def is_collection(arg: str | os.PathLike[str]) -> bool:
    """Whether ``arg`` may stand for several transcripts (a folder, a zip or a pattern)."""
    text = os.fspath(arg)
    return _is_folder(text) or text.lower().endswith(".zip") or (
        bool(_GLOB_CHARS & set(text)) and not os.path.lexists(text))

