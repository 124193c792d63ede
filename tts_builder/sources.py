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
import itertools
import os
import stat
import zipfile
from dataclasses import dataclass
from typing import IO, Iterable, Iterator

from tts_builder.errors import InputError
from tts_builder.fileio import MAX_FILE_BYTES, read_input_bytes, read_within

#: a folder or an archive contributes the files whose names end so
TRANSCRIPT_SUFFIX = ".json"
#: a run file (``simulate --out RUN.jsonl``, or such a member of ``RUN.zip``): one transcript a line
LINES_SUFFIX = ".jsonl"
_GLOB_CHARS = frozenset("*?[")


class NoTranscripts(InputError):
    """An argument that stands for no file at all: an empty folder, a pattern matching nothing, an
    archive or run file with no transcript in it (one error line; not a file of a tally)."""


@dataclass(frozen=True)
class Source:
    """One transcript (or save) to read: a file, or ``member`` of the zip archive ``path``.
    ``name`` is what reports and messages call it."""

    path: str
    member: str | None = None
    #: the line (from 1) of a JSON Lines run file or member, whose bytes are ``data``
    line: int | None = None
    data: bytes | None = None

    @property
    def name(self) -> str:
        """How messages name it: ``games/g.json``, ``run.zip:g.json``, ``run.jsonl:17``,
        ``run.zip:run.jsonl:17`` (what ``show`` takes to show that game)."""
        name = f"{self.path}:{self.member}" if self.member is not None else self.path
        return f"{name}:{self.line}" if self.line is not None else name

    def read(self) -> bytes:
        """The bytes, within :data:`~tts_builder.fileio.MAX_FILE_BYTES`, or InputError naming the source."""
        if self.data is not None:
            return self.data
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
        raise NoTranscripts(f"{path}: a folder with no {TRANSCRIPT_SUFFIX} file in it")


def _archive(path: str) -> Iterator[Source]:
    """The ``.json`` members of a zip archive, sorted by name, and each line of its ``.jsonl``
    members (a run file of ``simulate --out RUN.zip``), streamed."""
    try:
        with zipfile.ZipFile(path) as archive:
            members = sorted(info.filename for info in archive.infolist()
                             if not info.is_dir() and info.filename.endswith((TRANSCRIPT_SUFFIX, LINES_SUFFIX)))
    except zipfile.BadZipFile:
        raise InputError(f"{path}: not a zip archive (or a damaged one)") from None
    except OSError as exc:
        raise InputError(f"{path}: cannot read ({exc.strerror or exc})") from None
    if not members:
        raise NoTranscripts(f"{path}: a zip archive with no {TRANSCRIPT_SUFFIX} or {LINES_SUFFIX} member")
    for member in members:
        if member.endswith(LINES_SUFFIX):
            yield from _archive_lines(path, member)
        else:
            yield Source(path, member)


def _archive_lines(path: str, member: str) -> Iterator[Source]:
    name = f"{path}:{member}"
    try:
        with zipfile.ZipFile(path) as archive, archive.open(member) as stream:
            yield from _lines(stream, path, member)
    except (zipfile.BadZipFile, zipfile.LargeZipFile, KeyError, NotImplementedError, EOFError, RuntimeError) as exc:
        raise InputError(f"{name}: cannot read from the archive ({exc})") from None
    except OSError as exc:
        raise InputError(f"{name}: cannot read ({exc.strerror or exc})") from None


def _lines_file(path: str) -> Iterator[Source]:
    """Each line of a JSON Lines run file, streamed (a million games are never in memory)."""
    from tts_builder.fileio import require_regular_file

    require_regular_file(path)
    try:
        with open(path, "rb") as stream:
            yield from _lines(stream, path, None)
    except OSError as exc:
        raise InputError(f"{path}: cannot read ({exc.strerror or exc})") from None


#: how much of a run file is read at a time (lines are cut from it: ZipExtFile.readline is slow)
_CHUNK = 1 << 20


def _lines(stream: IO[bytes], path: str, member: str | None) -> Iterator[Source]:
    """A source per non-blank line of ``stream``; a line above the file limit is refused."""
    where = f"{path}:{member}" if member else path
    found = False
    number = 0
    rest = b""
    while True:
        chunk = stream.read(_CHUNK)
        lines = (rest + chunk).split(b"\n")
        rest = lines.pop() if chunk else b""  # the last piece may be cut: kept for the next chunk
        for raw in lines:
            number += 1
            if len(raw) > MAX_FILE_BYTES:
                raise InputError(f"{where}:{number}: a line of more than the limit of {MAX_FILE_BYTES} bytes")
            if raw.strip():
                found = True
                yield Source(path, member, number, raw)
        if len(rest) > MAX_FILE_BYTES:
            raise InputError(f"{where}:{number + 1}: a line of more than the limit of {MAX_FILE_BYTES} bytes")
        if not chunk:
            break
    if not found:
        raise NoTranscripts(f"{where}: a run file with no transcript in it")


def expand_one(arg: str) -> Iterator[Source]:
    """The sources one argument stands for: a folder's transcripts, a zip's, a glob pattern's
    matches (for shells that do not expand it, and Windows), or the file itself. A file that
    cannot be read is still one source: reading it reports the error, so one bad file in a batch
    does not stop the others. An argument that names nothing at all raises InputError."""
    if _is_folder(arg):
        yield from _folder(arg)
    elif arg.lower().endswith(".zip") and os.path.isfile(arg):
        yield from _archive(arg)
    elif arg.lower().endswith(LINES_SUFFIX) and os.path.exists(arg):
        yield from _lines_file(arg)
    elif _GLOB_CHARS & set(arg) and not os.path.lexists(arg):
        matches = sorted(glob.glob(arg, recursive=True))
        if not matches:
            raise NoTranscripts(f"{arg}: the pattern matches no file")
        for match in matches:
            yield from expand_one(match) if _is_folder(match) or match.lower().endswith((".zip", LINES_SUFFIX)) \
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
    return _is_folder(text) or text.lower().endswith((".zip", LINES_SUFFIX)) or (
        bool(_GLOB_CHARS & set(text)) and not os.path.lexists(text))



def read_address(address: str) -> tuple[bytes, str]:
    """The bytes of one recorded game named as :attr:`Source.name` names it (a file, an archive's
    member, a run file's line: ``run.zip:run.jsonl:17``), for ``show`` and ``replay``; a run file
    of one game is that game. InputError names what is missing."""
    path, member, line = _split_address(address)
    if path.lower().endswith(LINES_SUFFIX) and member is None or member is not None and member.endswith(LINES_SUFFIX):
        sources = _lines_file(path) if member is None else _archive_lines(path, member)
        if line is None:
            found = list(itertools.islice(sources, 2))
            if len(found) == 1:
                return found[0].read(), found[0].name
            raise InputError(f"{address}: a run file of several games: name one by its line, {found[0].name}")
        for source in sources:
            if source.line == line:
                return source.read(), source.name
        raise InputError(f"{address}: no game on line {line}")
    if member is not None:
        if line is not None:
            raise InputError(f"{address}: {member} is not a run file (.jsonl): it has no lines to choose from")
        source = Source(path, member)
        return source.read(), source.name
    if path.lower().endswith(".zip") and os.path.isfile(path):
        found = list(itertools.islice(_archive(path), 2))
        if len(found) == 1:
            return found[0].read(), found[0].name
        raise InputError(f"{address}: an archive of several games: name one, {found[0].name}")
    return read_input_bytes(path), path


def _split_address(address: str) -> tuple[str, str | None, int | None]:
    """(file, archive member, line) of an address; a file that exists by the whole name is that file."""
    if os.path.lexists(address) or ":" not in address:
        return address, None, None
    head, _, tail = address.rpartition(":")
    line = int(tail) if tail.isdigit() else None
    if line is not None:
        if os.path.isfile(head):
            return head, None, line
        path, member, _ = _split_address(head)
        return path, member, line
    if os.path.isfile(head) and head.lower().endswith(".zip"):
        return head, tail, None
    return address, None, None
