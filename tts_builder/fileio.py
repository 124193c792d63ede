"""Reading JSON strictly and within limits, and writing files atomically.

Every file the tool reads goes through :func:`load_json_file` (or, for text
already in memory, :func:`parse_json_text`), which enforces the input limits
below so hostile input is refused with one line instead of a traceback or a
hang: only regular files are opened (a FIFO or ``/dev/zero`` would block or
never end), files above :data:`MAX_FILE_BYTES` are refused before being read,
JSON nested deeper than :data:`MAX_JSON_DEPTH` and integers longer than
:data:`MAX_INT_DIGITS` digits are refused with their position.

Every file the tool writes goes through :func:`atomic_write_bytes`: a temporary
file in the same folder, named ``.tts-builder-tmp-*`` so a later run can
recognise and remove what a killed run left (:func:`sweep_stale_temp`), flushed,
then renamed over the target, so a crash or an error never leaves a half-written
file behind.
"""

from __future__ import annotations

import json
import os
import re
import stat
import time
from pathlib import Path
from typing import IO, Any

from tts_builder.errors import InputError

# The limits every reader applies (the largest real save in the shared corpus is
# 2.9 MB and nests 16 levels; TTS's own integers are 32-bit).
MAX_FILE_BYTES = 256 * 1024 * 1024
MAX_JSON_DEPTH = 100
MAX_INT_DIGITS = 64
# A recorded game: real games take a few hundred moves; replaying millions would take
# minutes while looking like a hang.
MAX_TRANSCRIPT_MOVES = 100_000

TEMP_PREFIX = ".tts-builder-tmp-"
# A temporary file this old belongs to no live run (a build takes seconds).
STALE_TEMP_SECONDS = 60 * 60

_CONSTANT_RE = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"|(-?Infinity|NaN)', re.DOTALL)
_STRING_RE = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"', re.DOTALL)
_NOT_QUOTE_OR_BRACKET = bytes(sorted(set(range(256)) - set(b'[]{}"')))
_QUOTED_RE = re.compile(rb'"[^"]*"')
#: bytes with every digit made "0" and all else " ": a run of more digits than an integer may have
#: (anywhere, in a string too, which only costs the slower parse that checks each integer) is then
#: a substring search, in C (a regular expression took ten times as long)
_DIGITS_ONLY = bytes(48 if 48 <= b <= 57 else 32 for b in range(256))
_LONG_DIGIT_RUN = b"0" * (MAX_INT_DIGITS + 1)


def _line_column(text: str, pos: int) -> tuple[int, int]:
    line = text.count("\n", 0, pos) + 1
    return line, pos - (text.rfind("\n", 0, pos) + 1) + 1


def _position_of_constant(text: str, name: str) -> tuple[int, int] | None:
    """Line and column of the first bare ``name`` (NaN/Infinity) outside strings."""
    for match in _CONSTANT_RE.finditer(text):
        if match.group(1) == name or (match.group(1) and name in match.group(1)):
            return _line_column(text, match.start(1))
    return None


def _too_deep_at(text: str, limit: int) -> int | None:
    """Offset of the first bracket that opens nesting level ``limit + 1``, or None.

    Strings are dropped first (brackets inside them do not nest) and then everything
    but brackets, so the Python loop visits brackets only: an 18 MB save takes a
    fraction of a second. The offset is found by a slower second pass, on failure only.
    """
    if text.count("[") + text.count("{") <= limit:
        return None
    depth = 0
    # Escaped backslashes and quotes go first (an escaped quote does not end a string),
    # then every byte but quotes and brackets, then the strings, which now hold only
    # brackets; each step runs in C.
    unescaped = text.replace("\\\\", "").replace('\\"', "").encode("utf-8", "surrogatepass")
    # Dropping two adjacent quotes keeps every bracket's inside/outside-a-string parity.
    skeleton = _QUOTED_RE.sub(b"", unescaped.translate(None, _NOT_QUOTE_OR_BRACKET).replace(b'""', b""))
    for char in skeleton:
        depth += 1 if char in b"[{" else -1
        if depth > limit:
            break
    else:
        return None
    blanked = _STRING_RE.sub(lambda m: " " * len(m.group(0)), text)
    depth = 0
    for match in re.finditer(r"[\[\]{}]", blanked):
        depth += 1 if match.group(0) in "[{" else -1
        if depth > limit:
            return match.start()
    return None


class _BadConstant(ValueError):
    def __init__(self, name: str):
        super().__init__(name)
        self.name = name


class _LongInteger(ValueError):
    def __init__(self, digits: str):
        super().__init__(digits)
        self.digits = digits


def _reject_constant(name: str) -> Any:
    raise _BadConstant(name)


def _accept_infinity(name: str) -> Any:
    if name == "NaN":
        raise _BadConstant(name)
    return float(name)


def _parse_int(digits: str) -> int:
    if len(digits.lstrip("-")) > MAX_INT_DIGITS:
        raise _LongInteger(digits)
    return int(digits)


def parse_json_text(text: str, source: str, *, allow_infinity: bool = False, short_ints: bool = False) -> Any:
    """Parse JSON within the limits; errors name ``source`` and the line and column.

    ``NaN`` and ``Infinity`` are not JSON and are refused, except that
    ``allow_infinity`` accepts ``Infinity``/``-Infinity``: JSON.NET writes an
    infinite float that way and TTS loads it back (an unbreakable joint's
    ``BreakForce`` in a real 2017 save). ``short_ints``: the caller found no run of digits above
    the limit in the text (:func:`parse_json_bytes` does), so integers need no check each.

    >>> parse_json_text('{"a": [1, 2]}', "x.json")
    {'a': [1, 2]}
    >>> parse_json_text('{"a":\\n NaN}', "x.json")
    Traceback (most recent call last):
    tts_builder.errors.InputError: x.json: NaN is not valid JSON at line 2 column 2
    """
    too_deep = _too_deep_at(text, MAX_JSON_DEPTH)
    if too_deep is not None:
        line, column = _line_column(text, too_deep)
        raise InputError(f"{source}: JSON nested deeper than {MAX_JSON_DEPTH} levels at line {line} column {column}")
    try:
        constant = _accept_infinity if allow_infinity else _reject_constant
        if short_ints:  # no integer can be too long: no Python call per integer
            return json.loads(text, parse_constant=constant)
        return json.loads(text, parse_constant=constant, parse_int=_parse_int)
    except json.JSONDecodeError as exc:
        truncated = exc.pos >= len(text.rstrip()) or exc.msg.startswith("Unterminated")
        what = "truncated JSON" if truncated else "not valid JSON"
        raise InputError(f"{source}: {what} at line {exc.lineno} column {exc.colno} ({exc.msg})") from None
    except _BadConstant as exc:
        where = _position_of_constant(text, exc.name)
        at = f" at line {where[0]} column {where[1]}" if where else ""
        raise InputError(f"{source}: {exc.name} is not valid JSON{at}") from None
    except _LongInteger as exc:
        pos = text.find(exc.digits)
        at = " at line {} column {}".format(*_line_column(text, pos)) if pos >= 0 else ""
        raise InputError(f"{source}: an integer of {len(exc.digits.lstrip('-'))} digits{at} "
                         f"(the limit is {MAX_INT_DIGITS} digits)") from None
    except RecursionError:  # the depth scan should have caught it; never a traceback
        raise InputError(f"{source}: JSON nested too deep (the limit is {MAX_JSON_DEPTH} levels)") from None
    except ValueError as exc:
        raise InputError(f"{source}: {exc}") from None


def require_regular_file(path: str | os.PathLike[str]) -> os.stat_result:
    """``stat`` of ``path``, or InputError when it is missing, a folder or not a regular
    file: reading a FIFO blocks forever and ``/dev/zero`` never ends, so neither is opened."""
    p = Path(path)
    try:
        info = os.stat(p)
    except FileNotFoundError:
        raise InputError(f"{p}: no such file") from None
    except OSError as exc:
        raise InputError(f"{p}: cannot read ({exc.strerror})") from None
    if stat.S_ISDIR(info.st_mode):
        raise InputError(f"{p}: is a folder, not a file")
    if not stat.S_ISREG(info.st_mode):
        raise InputError(f"{p}: not a regular file (a device, FIFO or socket); give a JSON file")
    return info


def read_input_bytes(path: str | os.PathLike[str], *, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes, or InputError naming it."""
    p = Path(path)
    info = require_regular_file(p)
    try:
        with open(p, "rb") as fh:
            return read_within(fh, str(p), info.st_size, limit)
    except IsADirectoryError:
        raise InputError(f"{p}: is a folder, not a file") from None
    except OSError as exc:
        raise InputError(f"{p}: cannot read ({exc.strerror})") from None


def read_within(stream: IO[bytes], source: str, declared_size: int, limit: int = MAX_FILE_BYTES) -> bytes:
    """The bytes of an open ``stream`` said to hold ``declared_size`` bytes (a stat, a zip header),
    or InputError naming ``source`` when either that or what is read is above ``limit``: the file
    may have grown since the stat, and a zip header may lie."""
    if declared_size > limit:
        raise InputError(f"{source}: {declared_size} bytes, above the limit of {limit} bytes")
    raw = stream.read(limit + 1)
    if len(raw) > limit:
        raise InputError(f"{source}: more than the limit of {limit} bytes")
    return raw


def load_json_file(path: str | os.PathLike[str], *, allow_infinity: bool = False) -> Any:
    """Load a JSON file within the limits or raise :class:`InputError` naming the file."""
    p = Path(path)
    return parse_json_bytes(read_input_bytes(p), str(p), allow_infinity=allow_infinity)


def parse_json_bytes(raw: bytes, source: str, *, allow_infinity: bool = False) -> Any:
    """The JSON document in ``raw`` (UTF-8, a byte-order mark allowed) read from ``source``,
    within the limits, or InputError naming ``source`` (a file, or ``archive.zip:member``)."""
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        column = exc.start - raw.rfind(b"\n", 0, exc.start)
        raise InputError(f"{source}: not UTF-8 text at line {line} column {column} (byte {exc.start})") from None
    if not text.strip():
        raise InputError(f"{source}: empty file, expected JSON")
    return parse_json_text(text, source, allow_infinity=allow_infinity,
                           short_ints=_LONG_DIGIT_RUN not in raw.translate(_DIGITS_ONLY))


def dump_json(data: Any, *, compact: bool = False) -> str:
    """Deterministic JSON text (sorted keys, fixed separators, trailing newline)."""
    if compact:
        return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False) + "\n"
    return json.dumps(data, sort_keys=True, indent=2, ensure_ascii=False) + "\n"


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


_FILE_MODE = 0o666 & ~_umask()


def temp_path_in(folder: Path, label: str) -> Path:
    """A fresh, recognisable temporary path in ``folder`` (not created); the name carries
    this process's id so :func:`sweep_stale_temp` knows when its owner is gone."""
    return folder / f"{TEMP_PREFIX}{label}-{os.getpid()}-{os.urandom(4).hex()}"


def require_writable_target(path: str | os.PathLike[str], label: str | None = None) -> None:
    """InputError when ``path`` exists and is not a regular file: a write would replace a FIFO,
    a device or a socket with a file (or fail on a folder). ``label`` prefixes the message
    (``--out page.html``); by default the path itself."""
    p = Path(path)
    try:
        info = os.stat(p)
    except OSError:  # missing (or unreadable: the write will name it)
        return
    where = label or str(p)
    if stat.S_ISDIR(info.st_mode):
        raise InputError(f"{where}: names a folder, not a file; nothing written")
    if not stat.S_ISREG(info.st_mode):
        raise InputError(f"{where}: names a device, FIFO or socket, not a file; nothing written")


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes, *, fsync: bool = True) -> None:
    """Write ``data`` to ``path`` via a temporary file and a rename; the file gets
    the usual permissions (mkstemp would leave it readable by its owner only). A target that
    exists and is not a regular file (a FIFO, a device, a folder) is refused, not replaced.
    ``fsync=False`` skips flushing the file to the disk before the rename: for a cache whose
    reader checks what it reads (a file cut short by a power cut is a miss, not an error)."""
    target = Path(path)
    require_writable_target(target)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = temp_path_in(target.parent, target.name)
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0), 0o600)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            if fsync:
                os.fsync(fh.fileno())
        os.chmod(tmp, _FILE_MODE)
        os.replace(tmp, target)
    except BaseException:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
        raise


def atomic_write_text(path: str | os.PathLike[str], text: str) -> None:
    atomic_write_bytes(path, text.encode("utf-8"))


def atomic_write_json(path: str | os.PathLike[str], data: Any, *, compact: bool = False) -> None:
    atomic_write_text(path, dump_json(data, compact=compact))


def sweep_stale_temp(folder: str | os.PathLike[str], *, max_age: float = STALE_TEMP_SECONDS,
                     recursive: bool = True) -> list[Path]:
    """Remove ``.tts-builder-tmp-*`` files and folders under ``folder`` that a killed run
    left: those older than ``max_age`` seconds, or made by a process that no longer
    exists (the pid is part of the name). Returns what was removed."""
    import shutil

    root = Path(folder)
    if not root.is_dir():
        return []
    found = root.rglob(f"{TEMP_PREFIX}*") if recursive else root.glob(f"{TEMP_PREFIX}*")
    removed: list[Path] = []
    now = time.time()
    for path in sorted(found):
        try:
            info = path.lstat()
        except FileNotFoundError:
            continue
        if now - info.st_mtime < max_age and _owner_alive(path.name):
            continue
        if stat.S_ISDIR(info.st_mode):
            shutil.rmtree(path, ignore_errors=True)
        else:
            try:
                path.unlink()
            except FileNotFoundError:
                pass
        removed.append(path)
    return removed


_PID_RE = re.compile(r"-([0-9]{1,9})-[0-9a-f]{8}$")


def _owner_alive(name: str) -> bool:
    """Whether the process named in a temp name still runs (True when the name carries
    no pid, so only age removes it)."""
    match = _PID_RE.search(name)
    if not match:
        return True
    pid = int(match.group(1))
    if pid == os.getpid() or os.name == "nt":  # Windows' os.kill(pid, 0) would end the process
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except OSError:
        return True
    return True
