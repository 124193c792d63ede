"""Reading JSON strictly and writing files atomically.

Every file the tool writes goes through :func:`atomic_write_bytes`: a temporary
file in the same folder, flushed, then renamed over the target, so a crash or an
error never leaves a half-written file behind.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from tts_builder.errors import InputError


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


def parse_json_text(text: str, source: str) -> Any:
    """Parse JSON, rejecting NaN/Infinity; errors name ``source`` and the position."""
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        truncated = exc.pos >= len(text.rstrip()) or exc.msg.startswith("Unterminated")
        what = "truncated JSON" if truncated else "not valid JSON"
        raise InputError(f"{source}: {what} at line {exc.lineno} column {exc.colno} ({exc.msg})") from None
    except ValueError as exc:
        raise InputError(f"{source}: {exc}") from None


def load_json_file(path: str | os.PathLike[str]) -> Any:
    """Load a JSON file or raise :class:`InputError` naming the file."""
    p = Path(path)
    try:
        raw = p.read_bytes()
    except FileNotFoundError:
        raise InputError(f"{p}: no such file") from None
    except IsADirectoryError:
        raise InputError(f"{p}: is a folder, not a file") from None
    except OSError as exc:
        raise InputError(f"{p}: cannot read ({exc.strerror})") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise InputError(f"{p}: not UTF-8 text (byte {exc.start})") from None
    if not text.strip():
        raise InputError(f"{p}: empty file, expected JSON")
    return parse_json_text(text, str(p))


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


def atomic_write_bytes(path: str | os.PathLike[str], data: bytes) -> None:
    """Write ``data`` to ``path`` via a temporary file and a rename; the file gets
    the usual permissions (mkstemp would leave it readable by its owner only)."""
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
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
