"""Check a Tabletop Simulator save against the shipped JSON Schema and the card/GUID rules.

The schema (``tts_builder/schema/tts_save.schema.json``) covers types, required
fields and key patterns. A save the fast yes/no check (:mod:`tts_builder.conforms`) passes has
no schema error; any other goes to jsonschema, which words the errors. The checks here cover
what a schema cannot express: deck/card consistency, sheet sizes, GUID uniqueness, local files and, for our own
output, script state, XmlUI and nulls. See ``docs/tts-format.md`` §7.

Third-party saves are judged leniently (odd or empty GUIDs, duplicates inside
containers, stale per-card deck keys, decks of DeckIDs without ContainedObjects and
a bare ``Infinity`` are warnings), because real saves that load in TTS have them
(the 45 saves of ``fixtures/tts_saves_wild`` pass); ``own_output=True`` turns those
rules into errors. The duplicate-GUID check is linear in the number of objects.

>>> problems = check_save({"Name": "Card", "Transform": {"posX": 0}})
>>> [str(p) for p in problems][:1]
["error $.Transform: 'posY' is a required property"]
"""

from __future__ import annotations

import functools
import json
import math
import os
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO, TypeGuard
from urllib.parse import unquote

from tts_builder.conforms import Check, UnsupportedSchema, conformance_check
from tts_builder.errors import InputError
from tts_builder.fileio import dump_json, load_json_file, parse_json_text

ERROR = "error"
WARNING = "warning"

# API defaults when a CustomDeck entry omits the grid (API-custom: width 10, height 7).
DEFAULT_NUM_WIDTH = 10
DEFAULT_NUM_HEIGHT = 7
MAX_NUM_WIDTH = 10
MAX_NUM_HEIGHT = 7

Parts = tuple[str | int, ...]

_GUID_RE = re.compile(r"[0-9a-f]{6}")
# A CustomDeck key is read as a 32-bit int by TTS; the schema allows 9 digits at most,
# so a hostile key of thousands of digits never reaches int().
_DIGITS_RE = re.compile(r"[0-9]{1,9}")
_PLAIN_KEY_RE = re.compile(r"[A-Za-z0-9_]+")
_WINDOWS_DRIVE_RE = re.compile(r"/?([A-Za-z]:[/\\].*)", re.DOTALL)
_XML_DECL_RE = re.compile(r"^\s*<\?xml[^>]*\?>")


@dataclass(frozen=True)
class Problem:
    """One finding, located by a JSON path such as ``$.ObjectStates[3].CustomDeck.12.FaceURL``.

    >>> str(Problem("$.ObjectStates[3].CardID", "'7' is not of type 'integer'", "error"))
    "error $.ObjectStates[3].CardID: '7' is not of type 'integer'"
    """

    path: str
    message: str
    severity: str  # "error" | "warning"

    def __str__(self) -> str:
        return f"{self.severity} {self.path}: {self.message}"


def json_path(parts: Parts) -> str:
    """Format path parts as ``$.a[0].b``; keys that are not plain words are quoted.

    >>> json_path(("ObjectStates", 3, "CustomDeck", "12", "FaceURL"))
    '$.ObjectStates[3].CustomDeck.12.FaceURL'
    """
    out = ["$"]
    for part in parts:
        if isinstance(part, int):
            out.append(f"[{part}]")
        elif _PLAIN_KEY_RE.fullmatch(part):
            out.append(f".{part}")
        else:
            out.append(f"[{json.dumps(part, ensure_ascii=False)}]")
    return "".join(out)


@functools.cache
def load_schema() -> dict[str, Any]:
    """The TTS save schema shipped in the package (cached; do not mutate the result).

    >>> load_schema()["$schema"]
    'https://json-schema.org/draft/2020-12/schema'
    """
    text = resources.files("tts_builder.schema").joinpath("tts_save.schema.json").read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


if TYPE_CHECKING:
    import jsonschema


@functools.cache
def _validator() -> jsonschema.Draft202012Validator:
    # Building the validator resolves the $refs once; reusing it keeps big saves fast.
    import jsonschema  # only for a save the fast check is not sure of (~50 ms to import)

    return jsonschema.Draft202012Validator(load_schema())


@functools.cache
def _conforms() -> Check:
    """The schema's yes/no check (:mod:`tts_builder.conforms`): a save it passes has no schema error."""
    try:
        return conformance_check(load_schema())
    except UnsupportedSchema:  # a keyword it does not know: jsonschema checks every save
        return lambda _data: False


def load_save_file(path: str | os.PathLike[str]) -> Any:
    """Load a save file strictly; raise :class:`InputError` naming the file.

    Unreadable, non-JSON, truncated, NaN and over-limit input are rejected by
    :func:`tts_builder.fileio.load_json_file`, with the line and column; a bare
    ``Infinity`` is accepted, because JSON.NET writes infinite floats that way and TTS
    loads them (``_value_problems`` warns). A root that is not a JSON object is
    rejected here, since all three TTS shapes (save, saved object, ObjectState) are objects.
    """
    data = load_json_file(path, allow_infinity=True)
    if not isinstance(data, dict):
        kind = "array" if isinstance(data, list) else type(data).__name__
        raise InputError(f"{path}: root is a JSON {kind}, expected an object (a save or an ObjectState)")
    return data


def check_save(data: Any, *, base_dir: Path | None = None, own_output: bool = False) -> list[Problem]:
    """All problems in ``data``: schema errors sorted by path, then semantic checks.

    ``base_dir`` makes relative file paths in ``*URL`` fields checkable (they resolve
    against it). ``own_output`` applies the stricter rules for saves we generate:
    GUIDs must be unique 6-hex everywhere, ``LuaScriptState`` must be JSON, ``XmlUI``
    must be well-formed and no value may be ``null``.

    >>> save = {"ObjectStates": [{"Name": "Bag", "GUID": "abc123", "Transform": {
    ...     k: 0 for k in ("posX", "posY", "posZ", "rotX", "rotY", "rotZ", "scaleX", "scaleY", "scaleZ")}}]}
    >>> check_save(save)
    []
    """
    problems = _schema_problems(data)
    if isinstance(data, dict):
        problems += _semantic_problems(data, base_dir=base_dir, own_output=own_output)
    problems += _value_problems(data, own_output=own_output)
    return problems


def run_schema_check(path: str, *, out: TextIO, as_json: bool = False) -> int:
    """Body of ``tts-builder schema-check FILE [--json]``: 0 without errors, 1 with errors.

    Prints one problem per line plus a summary line, or with ``as_json`` one JSON object
    ``{"file", "valid", "errors", "warnings"}``. :class:`InputError` propagates so the
    CLI can turn it into exit code 2.
    """
    data = load_save_file(path)
    _refuse_transcript(data, path)
    problems = check_save(data)
    errors = [p for p in problems if p.severity == ERROR]
    warnings = [p for p in problems if p.severity == WARNING]
    if as_json:
        report = {
            "file": path,
            "valid": not errors,
            "errors": [{"path": p.path, "message": p.message} for p in errors],
            "warnings": [{"path": p.path, "message": p.message} for p in warnings],
        }
        out.write(dump_json(report))
    else:
        for line in collapsed_lines(problems):
            out.write(f"{line}\n")
        out.write(f"{path}: {len(errors)} error(s), {len(warnings)} warning(s)\n")
    return 1 if errors else 0


#: what :func:`collapsed_lines` reads past when it asks whether two warnings say the same thing
_QUOTED_OR_NUMBER = re.compile(r"'(?:[^'\\]|\\.)*'|\"(?:[^\"\\]|\\.)*\"|\d+")


def collapsed_lines(problems: list[Problem]) -> list[str]:
    """The problems one a line, with warnings that differ only in what they quote (a URL, a
    GUID) or count put on the first one's line with how many more there are: a local build's
    209 "local file URL" warnings are one line. Errors are each shown.

    >>> ws = [Problem(f"$.A[{i}]", f"local file URL 'file:///x/{i}.png' will not load", WARNING) for i in range(3)]
    >>> collapsed_lines(ws)
    ["warning $.A[0]: local file URL 'file:///x/0.png' will not load (and 2 more warnings like it; --json lists each)"]
    """
    groups: dict[str, list[Problem]] = {}
    order: list[tuple[str, Problem]] = []
    for problem in problems:
        if problem.severity != WARNING:
            order.append(("", problem))
            continue
        key = _QUOTED_OR_NUMBER.sub("_", problem.message).replace(" (_ uses)", "")
        if key not in groups:
            groups[key] = []
            order.append((key, problem))
        groups[key].append(problem)
    lines = []
    for key, problem in order:
        more = len(groups[key]) - 1 if key else 0
        lines.append(f"{problem} (and {more} more warning{'s' if more > 1 else ''} like it; --json lists each)"
                     if more else str(problem))
    return lines


def _refuse_transcript(data: dict[str, Any], path: str) -> None:
    """A tts-builder transcript handed to ``schema-check`` is named as one, with the command that checks it."""
    from tts_builder.transcript import FORMAT

    if data.get("format") == FORMAT or ("moves" in data and "game" in data and "ObjectStates" not in data
                                        and "Name" not in data):
        game = data.get("game")
        of = f" of {game}" if isinstance(game, str) and game.isprintable() and len(game) < 80 else ""
        raise InputError(f"{path}: is a game transcript{of}, not a TTS save: check its moves with "
                         f"`tts-builder validate {path}`")


# --- schema -----------------------------------------------------------------


def _schema_problems(data: Any) -> list[Problem]:
    try:
        if _conforms()(data):
            return []
    except RecursionError:  # nested deeper than the fast check goes: jsonschema decides
        pass
    found: list[tuple[Parts, str]] = []
    for err in _validator().iter_errors(data):
        parts: Parts = tuple(err.absolute_path)
        message = err.message
        if "propertyNames" in err.relative_schema_path:
            # jsonschema reports a bad key at its parent object; point at the key itself.
            parts += (str(err.instance),)
            message = f"bad key: {message}"
        found.append((parts, message))
    found.sort(key=lambda item: (_sort_key(item[0]), item[1]))
    return [Problem(json_path(parts), message, ERROR) for parts, message in found]


def _sort_key(parts: Parts) -> tuple[tuple[int, int, str], ...]:
    # Array indexes sort numerically and before keys; mixing int and str would not compare.
    return tuple((0, p, "") if isinstance(p, int) else (1, 0, p) for p in parts)


# --- objects: decks, cards, GUIDs, scripts -----------------------------------


@dataclass(eq=False)
class _Node:
    obj: dict[str, Any]
    parts: Parts
    top: bool  # directly on the table (or the root of a bare ObjectState)
    in_deck: bool  # directly in a deck's ContainedObjects


def _walk_objects(data: dict[str, Any]) -> Iterator[_Node]:
    if "ObjectStates" not in data:  # a bare ObjectState
        yield from _walk_object(_Node(data, (), True, False))
        return
    roots = data["ObjectStates"]
    if isinstance(roots, list):
        for i, obj in enumerate(roots):
            if isinstance(obj, dict):
                yield from _walk_object(_Node(obj, ("ObjectStates", i), True, False))


def _walk_object(node: _Node) -> Iterator[_Node]:
    yield node
    obj = node.obj
    is_deck = isinstance(obj.get("DeckIDs"), list)
    for key in ("ContainedObjects", "ChildObjects"):
        children = obj.get(key)
        if isinstance(children, list):
            in_deck = key == "ContainedObjects" and is_deck
            for i, child in enumerate(children):
                if isinstance(child, dict):
                    yield from _walk_object(_Node(child, node.parts + (key, i), False, in_deck))
    states = obj.get("States")
    if isinstance(states, dict):
        for key, state in states.items():
            if isinstance(state, dict):
                yield from _walk_object(_Node(state, node.parts + ("States", key), False, False))


def _semantic_problems(data: dict[str, Any], *, base_dir: Path | None, own_output: bool) -> list[Problem]:
    strict = ERROR if own_output else WARNING
    problems: list[Problem] = []
    guids: dict[str, list[_Node]] = {}
    if own_output and "ObjectStates" in data:
        problems += _script_problems(data, ())
    for node in _walk_objects(data):
        obj, parts = node.obj, node.parts
        guid = obj.get("GUID")
        if guid == "":
            # 2014-15 saves leave every GUID empty; TTS assigns fresh ones on load.
            problems.append(Problem(json_path(parts + ("GUID",)), "empty GUID (TTS assigns one on load)", strict))
        elif isinstance(guid, str):
            guids.setdefault(guid, []).append(node)
            if not _GUID_RE.fullmatch(guid):
                problems.append(Problem(json_path(parts + ("GUID",)), f"GUID {guid!r} is not 6 lowercase hex digits", strict))
        if isinstance(obj.get("DeckIDs"), list):
            problems += _deck_problems(obj, parts, strict)
        if _is_int(obj.get("CardID")):
            problems += _card_problems(node)
        custom_deck = obj.get("CustomDeck")
        if isinstance(custom_deck, dict):
            problems += _grid_limit_problems(custom_deck, parts + ("CustomDeck",))
        if own_output:
            problems += _script_problems(obj, parts)
    problems += _guid_duplicate_problems(guids, strict)
    problems += _local_file_problems(data, base_dir)
    return problems


def _is_int(value: Any) -> TypeGuard[int]:
    # bool is an int subclass in Python but a different JSON type.
    return isinstance(value, int) and not isinstance(value, bool)


def _deck_keys(custom_deck: Any) -> dict[int, str]:
    """Deck key number -> key text; JSON.NET reads the keys as ints, so "012" is key 12."""
    if not isinstance(custom_deck, dict):
        return {}
    return {int(key): key for key in custom_deck if _DIGITS_RE.fullmatch(key)}


def _sheet_problem(card_id: int, key: str, entry: Any) -> str | None:
    """Why ``card_id`` does not fit its sheet, or None.

    With ``BackIsHidden`` false TTS shows the sheet's last cell as the hidden face,
    so that cell cannot hold a card.
    """
    if not isinstance(entry, dict):
        return None
    width = entry.get("NumWidth", DEFAULT_NUM_WIDTH)
    height = entry.get("NumHeight", DEFAULT_NUM_HEIGHT)
    if not (_is_int(width) and _is_int(height)) or width < 1 or height < 1:
        return None  # the schema reports it
    cells = width * height
    slot = card_id % 100
    if slot >= cells:
        return f"CardID {card_id} uses cell {slot}, but the {width}x{height} sheet of CustomDeck key {key} has {cells} cells"
    if slot == cells - 1 and entry.get("BackIsHidden") is not True:
        return (
            f"CardID {card_id} uses cell {slot}, the last cell of the {width}x{height} sheet of CustomDeck key {key}, "
            "which TTS shows as the hidden face because BackIsHidden is false"
        )
    return None


def _deck_problems(deck: dict[str, Any], parts: Parts, strict: str) -> list[Problem]:
    problems: list[Problem] = []
    deck_ids: list[Any] = deck["DeckIDs"]
    contained = deck.get("ContainedObjects")
    cards = contained if isinstance(contained, list) else []
    if not cards and deck_ids:
        # Decks saved before 2016 list only DeckIDs; TTS makes the cards from the ids and
        # the deck's CustomDeck on load, so the ids are still checked against the sheets.
        problems.append(Problem(json_path(parts + ("DeckIDs",)),
                                f"old-style deck: {len(deck_ids)} DeckIDs and no ContainedObjects "
                                "(TTS makes the cards on load)", strict))
    elif len(deck_ids) != len(cards):
        problems.append(
            Problem(
                json_path(parts + ("DeckIDs",)),
                f"DeckIDs has {len(deck_ids)} ids but ContainedObjects has {len(cards)} objects",
                ERROR,
            )
        )
    for i, (deck_id, card) in enumerate(zip(deck_ids, cards)):
        card_id = card.get("CardID") if isinstance(card, dict) else None
        if deck_id != card_id:
            problems.append(
                Problem(
                    json_path(parts + ("DeckIDs", i)),
                    f"DeckIDs[{i}] is {deck_id!r} but ContainedObjects[{i}].CardID is {card_id!r}",
                    ERROR,
                )
            )
    custom_deck = deck.get("CustomDeck")
    if not isinstance(custom_deck, dict):
        return problems  # built-in deck: CardIDs are TTS's own card numbers
    keys = _deck_keys(custom_deck)
    used: set[int] = set()
    for i, card_id in enumerate(deck_ids):
        if not _is_int(card_id):
            continue
        number = card_id // 100
        used.add(number)
        message = _key_problem(card_id, keys, custom_deck, "this deck's")
        if message:
            problems.append(Problem(json_path(parts + ("DeckIDs", i)), message, ERROR))
    for number, key in keys.items():
        if number not in used:
            problems.append(
                Problem(json_path(parts + ("CustomDeck", key)), f"CustomDeck key {key} is used by no card in DeckIDs", ERROR)
            )
    problems += _stale_card_problem(cards, keys, parts)
    return problems


def _key_problem(card_id: int, keys: dict[int, str], custom_deck: dict[str, Any], whose: str) -> str | None:
    """Why ``card_id`` cannot be drawn from ``custom_deck``: missing key or too small a sheet."""
    number = card_id // 100
    if number not in keys:
        return f"CardID {card_id} needs CustomDeck key {number}, which {whose} CustomDeck lacks"
    key = keys[number]
    return _sheet_problem(card_id, key, custom_deck[key])


def _card_problems(node: _Node) -> list[Problem]:
    """A loose card must resolve through its own CustomDeck (cards in a deck are checked
    through the deck, since TTS resolves them there)."""
    own = node.obj.get("CustomDeck")
    if node.in_deck or not isinstance(own, dict):
        return []  # in a deck, or a built-in card
    message = _key_problem(node.obj["CardID"], _deck_keys(own), own, "the card's")
    return [Problem(json_path(node.parts + ("CardID",)), message, ERROR)] if message else []


def _stale_card_problem(cards: list[Any], deck_keys: dict[int, str], parts: Parts) -> list[Problem]:
    """One warning per deck for contained cards whose own CustomDeck lacks their key
    (real saves have hundreds; TTS resolves them through the deck, see §4)."""
    stale: list[tuple[int, int, list[str]]] = []
    for i, card in enumerate(cards):
        if not isinstance(card, dict) or not _is_int(card.get("CardID")) or not isinstance(card.get("CustomDeck"), dict):
            continue
        number = card["CardID"] // 100
        if number in deck_keys and number not in _deck_keys(card["CustomDeck"]):
            stale.append((i, card["CardID"], sorted(card["CustomDeck"])))
    if not stale:
        return []
    i, card_id, own = stale[0]
    return [
        Problem(
            json_path(parts + ("ContainedObjects", i, "CustomDeck")),
            f"{len(stale)} of {len(cards)} cards have a stale per-card CustomDeck key "
            f"(first: CardID {card_id} means key {card_id // 100}, the card has {', '.join(own) or 'none'}); "
            "resolved through the deck's CustomDeck",
            WARNING,
        )
    ]


def _grid_limit_problems(custom_deck: dict[str, Any], parts: Parts) -> list[Problem]:
    """Sheets above 10x7 are beyond what TTS's deck builder and real saves use."""
    problems: list[Problem] = []
    for key, entry in custom_deck.items():
        if not isinstance(entry, dict):
            continue
        for field, limit in (("NumWidth", MAX_NUM_WIDTH), ("NumHeight", MAX_NUM_HEIGHT)):
            value = entry.get(field)
            if _is_int(value) and value > limit:
                problems.append(Problem(json_path(parts + (key, field)), f"{field} is {value}, at most {limit}", ERROR))
    return problems


def _guid_duplicate_problems(guids: dict[str, list[_Node]], strict: str) -> list[Problem]:
    """Top-level duplicates are errors. Inside containers TTS itself shares GUIDs (new
    custom decks, inactive states) and re-assigns them on the table, so those only warn,
    once per GUID."""
    problems: list[Problem] = []
    for guid, nodes in guids.items():
        if len(nodes) < 2:
            continue
        tops = [n for n in nodes if n.top]
        later_tops = {id(n) for n in tops[1:]}  # a set: a GUID shared by 100k objects stays linear
        for node in tops[1:]:
            problems.append(
                Problem(
                    json_path(node.parts + ("GUID",)),
                    f"duplicate GUID {guid!r} among table objects (first at {json_path(tops[0].parts)})",
                    ERROR,
                )
            )
        rest = [n for n in nodes if id(n) not in later_tops]
        if len(rest) > 1:
            problems.append(
                Problem(
                    json_path(rest[1].parts + ("GUID",)),
                    f"GUID {guid!r} is used {len(nodes)} times (first at {json_path(rest[0].parts)})",
                    strict,
                )
            )
    return problems


def _script_problems(holder: dict[str, Any], parts: Parts) -> list[Problem]:
    """Our templates write JSON script state and XmlUI; broken text fails only in game."""
    problems: list[Problem] = []
    state = holder.get("LuaScriptState")
    if isinstance(state, str) and state.strip():
        try:
            parse_json_text(state, "LuaScriptState")
        except InputError as exc:
            problems.append(Problem(json_path(parts + ("LuaScriptState",)), str(exc), ERROR))
    xml_ui = holder.get("XmlUI")
    if isinstance(xml_ui, str) and xml_ui.strip():
        message = _xml_problem(xml_ui)
        if message:
            problems.append(Problem(json_path(parts + ("XmlUI",)), message, ERROR))
    return problems


def _xml_problem(text: str) -> str | None:
    """Parse XmlUI inside a dummy root, because TTS allows several top-level elements."""
    body = _XML_DECL_RE.sub("", text, count=1)
    try:
        ET.fromstring(f"<XmlUIRoot>\n{body}\n</XmlUIRoot>")
    except ET.ParseError as exc:
        line, column = exc.position
        line = min(max(line - 1, 1), body.count("\n") + 1)  # undo the wrapper's first line
        reason = str(exc).split(":")[0]
        return f"XmlUI is not well-formed XML: {reason} at line {line} column {column + 1}"
    return None


# --- values: local files, nulls, non-finite numbers --------------------------


def _walk_values(value: Any, parts: Parts = ()) -> Iterator[tuple[Parts, Any]]:
    yield parts, value
    if isinstance(value, dict):
        for key, item in value.items():
            yield from _walk_values(item, parts + (key,))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            yield from _walk_values(item, parts + (i,))


def _value_problems(data: Any, *, own_output: bool) -> list[Problem]:
    """NaN can only come from in-memory data (loading rejects it) and would be written
    as invalid JSON. Infinity loads from third-party saves (JSON.NET writes it and TTS
    reads it back), so there it only warns; nulls are legal in TTS but never written by us."""
    problems: list[Problem] = []
    for parts, value in _walk_values(data):
        if isinstance(value, float) and math.isnan(value):
            problems.append(Problem(json_path(parts), f"{value} is not a JSON number", ERROR))
        elif isinstance(value, float) and math.isinf(value):
            problems.append(Problem(json_path(parts), f"{value} is not a JSON number (JSON.NET writes it; TTS reads it)",
                                    ERROR if own_output else WARNING))
        elif value is None and own_output:
            problems.append(Problem(json_path(parts), "null value (our output must not contain nulls)", ERROR))
    return problems


def _local_path(url: str, base_dir: Path | None) -> tuple[Path | None, bool]:
    """(path to check, is a file:// URL). Returns no path when it cannot be checked here:
    web URLs, relative paths without base_dir, Windows drive paths on other systems."""
    if url.lower().startswith("file://"):
        raw = url[len("file://") :]
        drive = _WINDOWS_DRIVE_RE.fullmatch(raw)
        if drive and os.name != "nt":
            return None, True
        path = Path(drive.group(1) if drive else raw)
        # TTS writes raw paths; percent-encoded ones (file:///a%20b.png) are decoded too.
        return (path if path.exists() else Path(unquote(str(path)))), True
    if base_dir is None or not url.strip() or "://" in url:
        return None, False
    return base_dir / url, False


def _local_file_problems(data: dict[str, Any], base_dir: Path | None) -> list[Problem]:
    """Every ``*URL``/``*Url`` string that names a local file: file:// URLs warn (other
    players cannot load them), and a missing file is an error. One report per URL."""
    uses: dict[str, list[Parts]] = {}
    for parts, value in _walk_values(data):
        if parts and isinstance(parts[-1], str) and parts[-1].endswith(("URL", "Url")) and isinstance(value, str):
            uses.setdefault(value, []).append(parts)
    problems: list[Problem] = []
    for url, places in uses.items():
        path, is_file_url = _local_path(url, base_dir)
        where = json_path(places[0])
        times = f" ({len(places)} uses)" if len(places) > 1 else ""
        if is_file_url:
            note = "" if path is not None else "; cannot check a Windows drive path here"
            problems.append(Problem(where, f"local file URL {url!r} will not load for other players{times}{note}", WARNING))
        if path is not None and not path.is_file():
            problems.append(Problem(where, f"local file {str(path)!r} does not exist{times}", ERROR))
    return problems
