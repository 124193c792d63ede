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

3. **MoonSharp hazards** (:data:`HAZARDS`): constructs that compile in both
   but behave differently in MoonSharp (``/work/shared/docs/moonsharp-dialect.md``):
   string comparison, ``table.sort`` without a comparator, ``%`` with a
   divisor that may be negative and ``math.fmod``/``modf``, non-integer
   numbers turned into text, ``#``/``table.unpack`` on tables that may hold
   nil, ``error()`` with a non-string, ``table.remove`` past the end,
   ``string.format("%s")`` of a lookup that may be nil, and non-ASCII text or
   ``\\ddd`` escapes of 128 or more inside strings. The lint has no types, so
   each check flags what is visibly hazardous (``lua_templates/README.md``
   lists what it cannot see). ``-- lint: ok <hazard> <why>`` on a line accepts
   that hazard there; a marker without a known hazard or a reason is an issue.

The lexer is two regular-expression passes: one blanks out strings and
comments (keeping the literals for the string checks), the other finds the
banned constructs in the code that remains; the hazard checks then read the
operands around each operator.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field
from os import PathLike
from pathlib import Path
from typing import Any, Iterator

__all__ = ["HAZARDS", "LintIssue", "OK_MARKER", "PAIRS_OK_MARKER", "lint_file", "lint_lua", "strip_literals"]

PAIRS_OK_MARKER = "lint: pairs-ok"
"""Comment text that allows ``pairs(`` on its line."""

OK_MARKER = "lint: ok"
"""``-- lint: ok <hazard> <why>`` accepts one MoonSharp hazard on its line (see :data:`HAZARDS`)."""

HAZARDS: dict[str, str] = {
    "string-compare": "'<', '<=', '>' or '>=' on strings follows the culture in MoonSharp; compare bytes "
                      "(U.byte_less)",
    "sort": "table.sort without a comparator uses '<' (culture-dependent on strings); pass a byte-wise or "
            "numeric comparator",
    "mod": "'%' with a divisor that may be negative, math.fmod and math.modf differ in MoonSharp; use a positive "
           "literal divisor or math.floor",
    "number-text": "a non-integer number turned into text differs in MoonSharp (digits, 'E', culture commas); "
                   "format it with string.format",
    "holes": "'#' or table.unpack on a table that may hold nil differs in MoonSharp; count explicitly "
             "(table.unpack(t, 1, n))",
    "format-nil": "string.format('%s', x) raises in MoonSharp when x is nil, and a table field may be; "
                  "write tostring(x) or x or a default",
    "error-value": "error() takes only strings in MoonSharp; pass a message",
    "remove-end": "table.remove past the end raises in MoonSharp; remove at most #t",
    "non-ascii": "non-ASCII text in a string: MoonSharp strings are UTF-16, so #, string.byte and string.sub "
                 "differ; keep rules strings ASCII",
    "byte-escape": "a \\ddd or \\xXX escape of 128 or more is one UTF-16 character in MoonSharp, not a byte; "
                   "write the character itself",
}
"""The MoonSharp hazards the lint flags, by the name a ``lint: ok`` marker uses."""


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
    scan = _scan(source)
    return scan.code, scan.pairs_ok


@dataclass
class _Scan:
    """The code with literals blanked, and what the literals held."""

    code: str
    pairs_ok: set[int]
    accepted: dict[int, set[str]]           # line -> hazards a ``lint: ok`` marker accepts there
    bad_markers: list[tuple[int, str]]      # markers without a known hazard or a reason
    strings: list[tuple[int, str]]          # (line, literal text with its quotes or brackets)
    string_at: dict[int, str] = field(default_factory=dict)  # position of its "" in the code -> literal


def _scan(source: str) -> _Scan:
    parts: list[str] = []
    scan = _Scan("", set(), {}, [], [])
    pos = 0
    line = 1
    length = 0  # of the code written to parts so far
    count = source.count
    for m in _LITERAL_RE.finditer(source):
        start, end = m.span()
        line += count("\n", pos, start)
        parts.append(source[pos:start])
        length += start - pos
        text = m.group()
        nl = text.count("\n")
        if text[0] == "-":
            if PAIRS_OK_MARKER in text:
                scan.pairs_ok.add(line)
            for mm in _OK_MARKER_RE.finditer(text):
                hazard, why = mm.group(1), mm.group(2).strip(" -:()]")
                if hazard not in HAZARDS:
                    scan.bad_markers.append((line, f"'lint: ok {hazard}' names no hazard; the hazards are "
                                                   + ", ".join(sorted(HAZARDS))))
                elif not why:
                    scan.bad_markers.append((line, f"'lint: ok {hazard}' needs a reason after the hazard name"))
                else:
                    scan.accepted.setdefault(line, set()).add(hazard)
            parts.append(" " + "\n" * nl)
            length += 1 + nl
        else:
            scan.strings.append((line, text))
            scan.string_at[length] = text
            parts.append('""' + "\n" * nl)
            length += 2 + nl
        line += nl
        pos = end
    parts.append(source[pos:])
    scan.code = "".join(parts)
    return scan


_OK_MARKER_RE = re.compile(r"lint: ok\s+([A-Za-z-]+)([^\n]*)")

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


# --------------------------------------------------------------------------- MoonSharp hazards
#
# Heuristics over the blanked code: the lint has no types, so each check looks
# for what is visibly a string, a non-integer or a hole. What it cannot see (a
# variable that happens to hold a string) is the README's to explain.

_STOP_WORDS = frozenset("and or not return if then elseif else while until do local in end for function".split())
_STRING_FUNCS = r"(?:sub|lower|upper|rep|format|gsub|reverse|match|char)"
_STRINGY_RE = re.compile(
    r'""|(?<!\.)\.\.(?!\.)|\btostring\s*\(|\bstring\s*\.\s*' + _STRING_FUNCS + r"\s*\("
    r"|\btable\s*\.\s*concat\s*\(|:\s*" + _STRING_FUNCS + r"\s*\(")
_NONINT_RE = re.compile(r"(?<![\w.])(?:\d+\.\d*(?:[eE][+-]?\d+)?|\.\d+|\d+[eE][+-]?\d+)|/")
_CALL_BEFORE_RE = re.compile(r"[\w\])]\s*$")
_RELATIONAL_RE = re.compile(r"[<>]=?")
_CONCAT_RE = re.compile(r"\.\.+")
_MOD_RE = re.compile(r"%")
_POSITIVE_LITERAL_RE = re.compile(r"\s*(\d+(?:\.\d*)?|\.\d+)(?![\w.])")
_FMOD_RE = re.compile(r"math\s*\.\s*(fmod|modf)\b")
_CALL_RE = {name: re.compile(rx) for name, rx in {
    "sort": r"table\s*\.\s*sort\s*\(",
    "unpack": r"table\s*\.\s*unpack\s*\(",
    "remove": r"table\s*\.\s*remove\s*\(",
    "tostring": r"tostring\s*\(",
    "error": r"error\s*\(",
    "format": r"string\s*\.\s*format\s*\(",
}.items()}
_FORMAT_SPEC_RE = re.compile(r"%[-+ #0]*\d*(?:\.\d*)?([a-zA-Z%])")
_LOOKUP_END_RE = re.compile(r"(?:\.\s*[A-Za-z_]\w*|\])\s*$")
_LEN_CONSTRUCTOR_RE = re.compile(r"#\s*\{")
_BAD_ERROR_ARG_RE = re.compile(r"(?:nil|true|false)\b|-?\d|\{")
_ESCAPE_RE = re.compile(r"\\(?:(\d{1,3})|[xX]([0-9a-fA-F]{2})|.)", re.S)


def _calls(name: str, code: str) -> Iterator[re.Match[str]]:
    """Matches of the call pattern ``name`` that start a name (not ``obj.error(`` or ``my_tostring(``)."""
    for m in _CALL_RE[name].finditer(code):
        before = code[m.start() - 1: m.start()]
        if not (before.isalnum() or before in ("_", ".", ":")):
            yield m


def _balanced_end(code: str, open_pos: int) -> int:
    """Index just past the bracket closing the one at ``open_pos`` (or the end of the code)."""
    depth = 0
    for i in range(open_pos, len(code)):
        c = code[i]
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                return i + 1
    return len(code)


def _split_args(inner: str) -> list[str]:
    """Arguments of a call (the text between its parentheses), split at top-level commas."""
    args, depth, start = [], 0, 0
    for i, c in enumerate(inner):
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif c == "," and depth == 0:
            args.append(inner[start:i])
            start = i
            start = i + 1
    args.append(inner[start:])
    return [a for a in args] if inner.strip() else []


def _depth0(text: str) -> str:
    """``text`` with the inside of every bracket pair removed: ``f(a, "")`` -> ``f()``."""
    out, depth = [], 0
    for c in text:
        if c in ")]}":
            depth -= 1
        if depth <= 0:
            out.append(c)
        if c in "([{":
            depth += 1
    return "".join(out)


def _operand(code: str, pos: int, step: int, stop_concat: bool) -> str:
    """The operand next to an operator: left (``step=-1``, ending at ``pos``) or right (starting at ``pos``).

    It runs to a delimiter at bracket depth 0: a comma, semicolon, assignment,
    line break, keyword, comparison, or ``..`` when ``stop_concat``.
    """
    n = len(code)
    i = pos
    if step > 0:
        while i < n and code[i] in " \t\r\n":
            i += 1
    else:
        while i > 0 and code[i - 1] in " \t\r\n":
            i -= 1
    start = i
    depth = 0
    while 0 < i if step < 0 else i < n:
        c = code[i - 1] if step < 0 else code[i]
        opens, closes = ("([{", ")]}") if step > 0 else (")]}", "([{")
        if c in opens:
            depth += 1
        elif c in closes:
            if depth == 0:
                break
            depth -= 1
        elif depth == 0:
            if c in ",;\n" or c in "<>" or (c == "=" ):
                break
            if c == "~" and (code[i:i + 2] == "~=" if step > 0 else True):
                break
            if stop_concat and c == ".":
                pair = code[i - 2:i] if step < 0 else code[i:i + 2]
                if pair == "..":
                    break
            if c.isalpha() or c == "_":
                j = i
                if step < 0:
                    while j > 0 and (code[j - 1].isalnum() or code[j - 1] == "_"):
                        j -= 1
                    word = code[j:i]
                else:
                    while j < n and (code[j].isalnum() or code[j] == "_"):
                        j += 1
                    word = code[i:j]
                if word in _STOP_WORDS:
                    break
                i = j
                continue
        i += step
    return code[i:start] if step < 0 else code[start:i]


def _non_integer(text: str) -> bool:
    """Whether an expression visibly may be a non-integer number (a division or a fractional literal)."""
    out, i = [], 0
    while i < len(text):
        # drop the arguments of calls: math.floor(x / 2) or f(a / b) is not itself a division
        if text[i] == "(" and _CALL_BEFORE_RE.search(text, 0, i):
            i = _balanced_end(text, i)
            continue
        out.append(text[i])
        i += 1
    return _NONINT_RE.search("".join(out)) is not None


def _format_nil(code: str, string_at: dict[int, str]) -> list[tuple[int, str, str]]:
    """``%s`` arguments of string.format that are table lookups without a fallback (maybe nil)."""
    found: list[tuple[int, str, str]] = []
    for m in _calls("format", code):
        end = _balanced_end(code, m.end() - 1)
        inner = code[m.end():end - 1]
        args = _split_args(inner)
        lead = len(inner) - len(inner.lstrip())
        literal = string_at.get(m.end() + lead)
        if not args or literal is None or args[0].strip() != '""':
            continue
        specs = [sm.group(1) for sm in _FORMAT_SPEC_RE.finditer(literal) if sm.group(1) != "%"]
        for spec, arg in zip(specs, args[1:]):
            top = _depth0(arg).strip()
            if spec == "s" and (top == "nil" or (_LOOKUP_END_RE.search(top) and not re.search(r"\bor\b", top))):
                found.append((m.start(), "format-nil", f"argument '{arg.strip()}': " + HAZARDS["format-nil"]))
    return found


def _hazards(code: str, string_at: dict[int, str]) -> list[tuple[int, str, str]]:
    """(position, hazard, message) for every hazard visible in the blanked code."""
    found: list[tuple[int, str, str]] = _format_nil(code, string_at)

    for m in _RELATIONAL_RE.finditer(code):
        before, after = code[m.start() - 1: m.start()], code[m.end(): m.end() + 1]
        if before in ("<", ">", "=", "~") or (m.group() in ("<", ">") and after in ("<", ">", "=")):
            continue  # part of <<, >>, ==, ~= (or an operator already matched)
        left = _operand(code, m.start(), -1, False)
        right = _operand(code, m.end(), 1, False)
        if _STRINGY_RE.search(_depth0(left)) or _STRINGY_RE.search(_depth0(right)):
            found.append((m.start(), "string-compare", HAZARDS["string-compare"]))

    for m in _calls("sort", code):
        end = _balanced_end(code, m.end() - 1)
        if len(_split_args(code[m.end():end - 1])) < 2:
            found.append((m.start(), "sort", HAZARDS["sort"]))

    for m in _MOD_RE.finditer(code):
        lit = _POSITIVE_LITERAL_RE.match(code, m.end())
        if lit is None or float(lit.group(1)) <= 0:
            found.append((m.start(), "mod", HAZARDS["mod"]))
    for m in _FMOD_RE.finditer(code):
        if code[m.start() - 1: m.start()].isalnum():
            continue
        found.append((m.start(), "mod", f"math.{m.group(1)}: " + HAZARDS["mod"]))

    for m in _calls("tostring", code):
        end = _balanced_end(code, m.end() - 1)
        if _non_integer(code[m.end():end - 1]):
            found.append((m.start(), "number-text", HAZARDS["number-text"]))
    for m in _CONCAT_RE.finditer(code):
        if len(m.group()) != 2:
            continue  # '...'
        if _non_integer(_operand(code, m.start(), -1, True)) or _non_integer(_operand(code, m.end(), 1, True)):
            found.append((m.start(), "number-text", HAZARDS["number-text"]))

    for m in _calls("unpack", code):
        end = _balanced_end(code, m.end() - 1)
        if len(_split_args(code[m.end():end - 1])) < 2:
            found.append((m.start(), "holes", "table.unpack(t) without its bounds: " + HAZARDS["holes"]))
    for m in _LEN_CONSTRUCTOR_RE.finditer(code):
        end = _balanced_end(code, m.end() - 1)
        if re.search(r"\bnil\b|\.\.\.", code[m.end():end - 1]):
            found.append((m.start(), "holes", "'#' of a table constructor with nil or '...': " + HAZARDS["holes"]))

    for m in _calls("error", code):
        end = _balanced_end(code, m.end() - 1)
        args = _split_args(code[m.end():end - 1])
        if not args or _BAD_ERROR_ARG_RE.match(args[0].strip()):
            found.append((m.start(), "error-value", HAZARDS["error-value"]))

    for m in _calls("remove", code):
        end = _balanced_end(code, m.end() - 1)
        args = _split_args(code[m.end():end - 1])
        if len(args) >= 2 and re.search(r"#[^+]*\+", _depth0(args[1])):
            found.append((m.start(), "remove-end", HAZARDS["remove-end"]))
    return found


def _string_hazards(strings: list[tuple[int, str]]) -> list[tuple[int, str, str]]:
    """(line, hazard, message) for non-ASCII text and high byte escapes inside string literals."""
    found: list[tuple[int, str, str]] = []
    for line, text in strings:
        for i, ch in enumerate(text):
            if ord(ch) > 127:
                found.append((line + text.count("\n", 0, i), "non-ascii",
                              f"{ch!r} (U+{ord(ch):04X}): " + HAZARDS["non-ascii"]))
                break
        if text[0] in "\"'":
            for m in _ESCAPE_RE.finditer(text):
                value = int(m.group(1)) if m.group(1) else int(m.group(2), 16) if m.group(2) else 0
                if value >= 128:
                    found.append((line, "byte-escape", f"escape {m.group()}: " + HAZARDS["byte-escape"]))
                    break
    return found


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
    """All problems in ``source``: a syntax error first, if any, then dialect issues in line order.

    A ``-- lint: ok <hazard> <why>`` comment accepts that one hazard on its line.
    """
    issues = _syntax_issues(source, name)
    scan = _scan(source)
    found = _check_code(scan.code, scan.pairs_ok, name)
    newlines = [m.start() for m in re.finditer("\n", scan.code)]
    hazards = [(bisect_right(newlines, pos - 1) + 1, hazard, message) for pos, hazard, message in _hazards(scan.code, scan.string_at)]
    hazards += _string_hazards(scan.strings)
    for line, hazard, message in hazards:
        if hazard not in scan.accepted.get(line, ()):
            found.append(LintIssue(name, line, f"{message} (or mark it '-- {OK_MARKER} {hazard} <why>')"))
    found += [LintIssue(name, line, message) for line, message in scan.bad_markers]
    issues.extend(sorted(found, key=lambda i: i.line))
    return issues


def lint_file(path: str | PathLike[str]) -> list[LintIssue]:
    """:func:`lint_lua` on a file; the issues name the path as given. Bytes that are not UTF-8 are flagged."""
    p = Path(path)
    text = p.read_bytes().decode("utf-8", "surrogateescape")
    return lint_lua(text, str(path))
