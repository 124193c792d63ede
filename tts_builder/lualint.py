"""Lint generated Lua for Tabletop Simulator: it must compile as Lua 5.2 and run the same way in MoonSharp.

TTS runs MoonSharp; the tests run PUC Lua 5.2 through lupa (see
``/work/shared/docs/tts-lua.md`` section 2). :func:`lint_lua` makes two checks.

1. **Syntax.** The source must compile under ``lupa.lua52``
   (``LuaRuntime.compile``). A syntax error is reported with its line.
2. **Dialect and determinism.** A small Lua lexer skips strings, long strings
   ``[[ ]]``/``[==[ ]==]``, comments and long comments, so nothing inside them
   is flagged. On the tokens that are left it rejects:

   * ``goto`` and ``::labels::``. MoonSharp has a goto bug; use
     ``repeat ... until true`` with ``break``.
   * Lua 5.3 operators: ``//`` and the bitwise ``&``, ``|``, ``~`` (binary or
     unary, but not ``~=``), ``<<`` and ``>>``. Also hexadecimal float literals.
   * MoonSharp lambdas ``|x| expr``.
   * Bare ``unpack(`` and ``pack(``. MoonSharp has these globals and lupa's 5.2
     lacks them, so write ``table.unpack``/``table.pack``.
   * ``load(``, ``loadstring``, ``loadfile``, ``dofile``, ``require``,
     ``setfenv`` and ``getfenv``, ``io.*``, ``debug.*``, and ``os.*`` other than
     ``clock``/``date``/``time``/``difftime``. TTS lacks all of these.
   * The MoonSharp-only string functions ``string.startsWith``/``endsWith``/
     ``contains``/``unicode``, in either the ``string.f(s)`` or the ``s:f()``
     form.
   * ``math.random`` and ``math.randomseed``. Rules must be deterministic; the
     shuffle order comes in as data.
   * Every use of ``math.huge``. It is ``double.MaxValue`` in MoonSharp and
     ``inf`` in PUC Lua, so comparisons against it differ.
   * Non-ASCII bytes outside strings and comments. Identifiers must be ASCII.
   * ``pairs(`` calls. MoonSharp iterates in insertion order and PUC Lua in
     hash order, so any output that depends on the order would differ between
     TTS and the tests. Generated code iterates sorted keys through a helper
     instead. The few ``pairs`` calls whose order cannot matter, such as
     that helper collecting keys before it sorts them, or a count, carry the
     marker comment ``-- lint: pairs-ok`` on the same line. ``ipairs`` is
     fine.

``tostring(...)`` and everything else pass. The lexer is two regular-expression
passes: one blanks out strings and comments, the other finds the banned
constructs in the code that remains. A 100 KiB script lints in a few
milliseconds.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass
from os import PathLike
from pathlib import Path
from typing import Any

__all__ = ["LintIssue", "PAIRS_OK_MARKER", "lint_file", "lint_lua", "strip_literals"]

PAIRS_OK_MARKER = "lint: pairs-ok"
"""Comment text that allows ``pairs(`` on its line."""


@dataclass(frozen=True, order=True)
class LintIssue:
    """One problem: ``str()`` gives ``name:line: message``."""

    name: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.name}:{self.line}: {self.message}"


# --------------------------------------------------------------------------- lexer
#
# Two passes, both in C regex code, to stay fast. The first pass finds every
# string and comment, scanning left to right, so whatever starts first wins, as
# in Lua's lexer. It blanks them out, keeping line breaks, and leaves ``""`` for
# a string. The second pass looks for the banned constructs in what is left.

# No named groups: the first character tells a comment ("-") from a string.
_LITERAL_RE = re.compile(
    r"--(?:\[(=*)\[.*?\]\1\]|\[=*\[.*|[^\n]*)"      # long comment, unterminated one, line comment
    r"|\[(=*)\[.*?\]\2\]|\[=*\[.*"                   # long string, unterminated one
    r"|\"(?:[^\"\\\n]|\\.)*\"|'(?:[^'\\\n]|\\.)*'"   # short strings (escapes include \<newline>)
    r"|[\"'][^\n]*",                                 # unterminated short string
    re.S,
)


def strip_literals(source: str) -> tuple[str, set[int]]:
    """Blank out strings and comments, keeping line breaks. Returns the code and the ``pairs-ok`` lines.

    Each string becomes ``""`` and each comment a space. Unterminated literals
    run to the end of their line (short strings) or of the file (long
    brackets); the compile check reports them.
    """
    parts: list[str] = []
    pairs_ok: set[int] = set()
    pos = 0
    line = 1
    count = source.count
    for m in _LITERAL_RE.finditer(source):
        start, end = m.span()
        line += count("\n", pos, start)
        parts.append(source[pos:start])
        text = m.group()
        nl = text.count("\n")
        if text[0] == "-":
            if PAIRS_OK_MARKER in text:
                pairs_ok.add(line)
            parts.append(" " + "\n" * nl)
        else:
            parts.append('""' + "\n" * nl)
        line += nl
        pos = end
    parts.append(source[pos:])
    return "".join(parts), pairs_ok


# The second pass uses one regex per construct. Each starts with a literal
# character, so the regex engine scans for it quickly; one alternation over
# all of them is about ten times slower.
_OP_CHECKS: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"::(?:\s*[A-Za-z_]\w*\s*::)?"),
     "'::' label: goto and labels are not allowed (MoonSharp's goto is buggy)"),
    (re.compile(r"//"), "'//' integer division is Lua 5.3; use math.floor(a / b)"),
    (re.compile(r"&"), "bitwise operator '&' is Lua 5.3; use bit32"),
    (re.compile(r"<<"), "bitwise operator '<<' is Lua 5.3; use bit32"),
    (re.compile(r">>"), "bitwise operator '>>' is Lua 5.3; use bit32"),
    (re.compile(r"~(?!=)"), "bitwise operator '~' is Lua 5.3; use bit32"),
    (re.compile(r"[^\x00-\x7f]+"), "non-ASCII character outside strings and comments; identifiers must be ASCII"),
]
_BAR_RE = re.compile(r"\|(\s*(?:[A-Za-z_]\w*\s*(?:,\s*[A-Za-z_]\w*\s*)*)?\|)?")
_METHOD_RE = re.compile(r":\s*(startsWith|endsWith|contains|unicode)\b")
_HEXFLOAT_RE = re.compile(r"0[xX][0-9a-fA-F]*(?:\.[0-9a-fA-F]*(?:[pP][+-]?[0-9]+)?|[pP][+-]?[0-9]+)")
_KEYWORD_RE = re.compile(
    r"(?:goto|math|os|io|debug|string|loadstring|loadfile|dofile|require|setfenv|getfenv"
    r"|unpack|pack|load|pairs)\b"
)
_MEMBER_AFTER = re.compile(r"\s*([.:])\s*([A-Za-z_]\w*)")
_CALL_AFTER = re.compile(r"\s*[(\"{]")
_TABLE_KEY_AFTER = re.compile(r"\s*=(?!=)")
_LOCAL_RE = re.compile(r"\blocal\s+(?:function\s+(\w+)|([\w \t,]+))")

_FORBIDDEN_GLOBALS = {
    "loadstring": "loadstring does not exist in TTS (no LoadMethods)",
    "loadfile": "loadfile does not exist in TTS (no LoadMethods)",
    "dofile": "dofile does not exist in TTS (no LoadMethods)",
    "require": "require does not exist in TTS; render one self-contained script",
    "setfenv": "setfenv is Lua 5.1 and does not exist in Lua 5.2 or TTS",
    "getfenv": "getfenv is Lua 5.1 and does not exist in Lua 5.2 or TTS",
}
_OS_OK = {"clock", "date", "time", "difftime"}
_MOONSHARP_STRING = {"startsWith", "endsWith", "contains", "unicode"}


def _check_code(code: str, pairs_ok: set[int], name: str) -> list[LintIssue]:
    found: list[tuple[int, str]] = []
    add = found.append

    for rx, message in _OP_CHECKS:
        for m in rx.finditer(code):
            add((m.start(), message))
    for m in _BAR_RE.finditer(code):
        if m.group(1) is not None:
            add((m.start(), "MoonSharp lambda '|x| ...' is not Lua; write function(x) return ... end"))
        else:
            add((m.start(), "bitwise operator '|' is Lua 5.3; use bit32"))
    for m in _METHOD_RE.finditer(code):
        if code[m.start() - 1: m.start()] != ":":
            add((m.start(), f":{m.group(1)} is MoonSharp-only; use string.sub/string.find"))

    for m in _HEXFLOAT_RE.finditer(code):
        before = code[m.start() - 1: m.start()] if m.start() else ""
        if not (before.isalnum() or before in ("_", ".")):
            add((m.start(), f"hexadecimal float literal {m.group()} is not supported by MoonSharp"))

    local_names: set[str] | None = None
    for m in _KEYWORD_RE.finditer(code):
        word, pos, end = m.group(), m.start(), m.end()
        if pos and (code[pos - 1].isalnum() or code[pos - 1] == "_"):
            continue  # the end of a longer name, such as "ipairs" or "cos"
        before = code[max(0, pos - 40):pos].rstrip()
        if before[-1:] in (".", ":"):
            continue  # a member such as obj.load or M.pairs
        if word == "goto":
            add((pos, "goto is not allowed (MoonSharp's goto is buggy); use repeat ... until true with break"))
            continue
        if word in ("math", "os", "io", "debug", "string"):
            mm = _MEMBER_AFTER.match(code, end)
            if mm is None:
                continue
            sep, member = mm.groups()
            if word == "math" and sep == "." and member in ("random", "randomseed"):
                add((pos, f"math.{member}: rules must not use randomness (MoonSharp and PUC Lua differ)"))
            elif word == "math" and sep == "." and member == "huge":
                add((pos, "math.huge is double.MaxValue in MoonSharp but inf in PUC Lua; use a sentinel"))
            elif word == "os" and member not in _OS_OK:
                add((pos, f"os.{member} does not exist in TTS (only clock, date, time, difftime)"))
            elif word in ("io", "debug"):
                add((pos, f"{word}.* does not exist in TTS"))
            elif word == "string" and sep == "." and member in _MOONSHARP_STRING:
                add((pos, f"string.{member} is MoonSharp-only; use string.sub/string.find"))
            continue
        if before.endswith("function") and (len(before) == 8 or not (before[-9].isalnum() or before[-9] == "_")):
            continue  # a definition: function pairs(...)
        if before[-1:] in ("{", ",", ";") and _TABLE_KEY_AFTER.match(code, end):
            continue  # a table key: { load = ... }
        if word in _FORBIDDEN_GLOBALS:
            add((pos, _FORBIDDEN_GLOBALS[word]))
            continue
        if not _CALL_AFTER.match(code, end):
            continue
        if word == "load":
            add((pos, "load(...) does not exist in TTS (no LoadMethods)"))
        elif word in ("unpack", "pack"):
            if local_names is None:
                local_names = set()
                for lm in _LOCAL_RE.finditer(code):
                    if lm.group(1):
                        local_names.add(lm.group(1))
                    else:
                        local_names.update(w.strip() for w in lm.group(2).split(","))
            if word not in local_names:
                add((pos, f"bare {word}(...): use table.{word} (lupa's Lua 5.2 has no global {word})"))
        else:  # pairs
            add((pos, "pairs"))

    if not found:
        return []
    found.sort(key=lambda f: f[0])
    newlines = [m.start() for m in re.finditer("\n", code)]
    issues = []
    for pos, message in found:
        line = bisect_right(newlines, pos - 1) + 1
        if message == "pairs":
            if line in pairs_ok:
                continue
            message = ("pairs() order differs between MoonSharp and PUC Lua; iterate sorted keys, "
                       f"or mark an order-free use with '-- {PAIRS_OK_MARKER}'")
        issues.append(LintIssue(name, line, message))
    return issues


# --------------------------------------------------------------------------- compile

_runtime: Any = None
_LINE_RE = re.compile(r"^:(\d+): ?(.*)$", re.S)


def _syntax_issues(source: str, name: str) -> list[LintIssue]:
    global _runtime
    from lupa.lua52 import LuaRuntime, LuaSyntaxError

    if _runtime is None:
        _runtime = LuaRuntime(register_eval=False, register_builtins=False)
    try:
        _runtime.compile(source.encode("utf-8", "surrogateescape"), name="=" + name)
    except LuaSyntaxError as exc:
        msg = str(exc).strip()
        rest = msg[len(name):] if msg.startswith(name) else msg
        m = _LINE_RE.match(rest)
        if m:
            return [LintIssue(name, int(m.group(1)), "syntax error: " + m.group(2))]
        return [LintIssue(name, 0, "syntax error: " + msg)]
    return []


# --------------------------------------------------------------------------- API


def lint_lua(source: str, name: str) -> list[LintIssue]:
    """All problems in ``source``: a syntax error first, if any, then dialect issues in line order."""
    issues = _syntax_issues(source, name)
    code, pairs_ok = strip_literals(source)
    issues.extend(_check_code(code, pairs_ok, name))
    return issues


def lint_file(path: str | PathLike[str]) -> list[LintIssue]:
    """:func:`lint_lua` on a file; the issues name the path as given. Bytes that are not UTF-8 are flagged."""
    p = Path(path)
    text = p.read_bytes().decode("utf-8", "surrogateescape")
    return lint_lua(text, str(path))
