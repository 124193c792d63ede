"""Transcripts, version 1: a recorded game as JSON.

A transcript is what the in-game recorder writes and what ``tts-builder
validate`` replays::

    {
      "format": "tts-builder-transcript", "version": 1,
      "game": "two-and-two",
      "options": {"deny_window": "when-holding"},
      "players": [{"name": "White"}, {"name": "Red"}],      # seat order; seat 0 starts
      "setup": {"deck": ["c1200", "sf-3", ...]},             # what replays the game exactly
      "moves": [{"player": 0, "type": "start-stack", "card": "c1200", "orientation": "up"}, ...],
      "result": {"winner": 1, "scores": [2, 3], "reason": "most-sets"}   # or null: unfinished
    }

Each move is the engine's move object plus the seat that made it. The envelope
is checked by ``transcript-v1.schema.json``; the move vocabulary of each game by
its own ``moves.schema.json`` (see :func:`move_schema`).
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from importlib import resources
from typing import TYPE_CHECKING, Any, Mapping

import rules
from rules.core import Game, SetupError, State
from tts_builder.errors import InputError
from tts_builder.fileio import MAX_TRANSCRIPT_MOVES

if TYPE_CHECKING:  # jsonschema is imported only to word what is wrong with a transcript (~50 ms)
    import jsonschema

FORMAT = "tts-builder-transcript"
VERSION = 1
RESERVED_KEYS = ("player",)


@lru_cache(maxsize=None)
def envelope_schema() -> dict[str, Any]:
    text = resources.files("tts_builder.schema").joinpath("transcript-v1.schema.json").read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


@lru_cache(maxsize=None)
def move_schema(game_id: str) -> dict[str, Any]:
    """The JSON Schema of one game's moves (shipped beside its engine)."""
    game = rules.get_game(game_id)
    package = type(game).__module__.rsplit(".", 1)[0]
    schema: dict[str, Any] = json.loads(resources.files(package).joinpath("moves.schema.json").read_text("utf-8"))
    return schema


@lru_cache(maxsize=None)
def _envelope_validator() -> jsonschema.protocols.Validator:
    """The envelope without descending into each move: jsonschema per move
    dominated validation time, and the move shape is one cheap loop."""
    import jsonschema

    schema = json.loads(json.dumps(envelope_schema()))
    schema["properties"]["moves"].pop("items")
    return jsonschema.Draft202012Validator(schema)


def _move_shape_errors(moves: list[Any]) -> list[jsonschema.ValidationError]:
    import jsonschema

    item = jsonschema.Draft202012Validator(envelope_schema()["properties"]["moves"]["items"])
    for i, entry in enumerate(moves):
        if not (isinstance(entry, dict) and type(entry.get("player")) is int and entry["player"] >= 0):
            err = jsonschema.exceptions.best_match(item.iter_errors(entry))
            if err is not None:
                err.path.appendleft(i)
                err.path.appendleft("moves")
                return [err]
    return []


_GAME_ID = re.compile(r"[a-z0-9][a-z0-9-]*")
_RESULT_ENUMS = {"kind": ("competitive", "teams", "cooperative", "solo"), "outcome": ("win", "loss", "draw")}


def _seat(value: Any) -> bool:
    return type(value) is int and value >= 0


def _result_well_formed(result: Any) -> bool:
    if result is None:
        return True
    if not isinstance(result, dict) or not isinstance(result.get("reason"), str):
        return False
    for key, allowed in _RESULT_ENUMS.items():
        if key in result and result[key] not in allowed:
            return False
    if "winner" in result and not (result["winner"] is None or _seat(result["winner"])):
        return False
    if "winners" in result:
        winners = result["winners"]
        if not (isinstance(winners, list) and all(_seat(w) for w in winners) and len(set(winners)) == len(winners)):
            return False
    if "team" in result and not isinstance(result["team"], str):
        return False
    if "score" in result and not (type(result["score"]) in (int, float)):
        return False
    return "scores" not in result or isinstance(result["scores"], list)


def envelope_well_formed(data: dict[str, Any], entries: bool = True) -> bool:
    """True when ``data`` surely meets ``transcript-v1.schema.json`` (each move's seat included,
    unless not ``entries``: :func:`entry_well_formed` is then the caller's to ask): the schema's
    requirements checked by hand, a fraction of jsonschema's cost on every transcript.
    Stricter than the schema where that is simpler (``1.0`` for an integer): False sends the
    transcript to jsonschema, which finds and words the error, or finds none.

    >>> envelope_well_formed({"format": FORMAT, "version": 1, "game": "g", "players": [{"name": "A"}],
    ...                       "setup": {}, "moves": [{"player": 0, "type": "pass"}], "result": None})
    True
    """
    if not (data.get("format") == FORMAT and type(data.get("version")) is int and data["version"] == VERSION):
        return False
    game, players, moves = data.get("game"), data.get("players"), data.get("moves")
    if not (isinstance(game, str) and _GAME_ID.fullmatch(game)):
        return False
    if not (isinstance(players, list) and players and isinstance(data.get("setup"), dict)):
        return False
    for player in players:
        if not (isinstance(player, dict) and isinstance(player.get("name"), str)
                and ("color" not in player or isinstance(player["color"], str))):
            return False
    for key in ("options", "source"):
        if key in data and not isinstance(data[key], dict):
            return False
    if not isinstance(moves, list):
        return False
    for entry in moves if entries else ():  # each entry an object with a seat (entry_well_formed, inlined)
        if not isinstance(entry, dict):
            return False
        seat = entry.get("player")
        if type(seat) is not int or seat < 0:
            return False
    return "result" not in data or _result_well_formed(data["result"])


def entry_well_formed(entry: Any) -> bool:
    """True when one entry of a transcript's moves meets the envelope schema: an object with a
    seat (the move itself is the game's to judge)."""
    return isinstance(entry, dict) and _seat(entry.get("player"))


def check_entries(moves: list[Any], source: str, start: int = 0) -> None:
    """Raise :func:`parse_transcript`'s InputError for the first entry of ``moves`` that is not
    well formed (:func:`entry_well_formed`) when one from ``start`` on is not."""
    for entry in moves[start:]:
        if not entry_well_formed(entry):
            _raise_first(_move_shape_errors(moves), source)


@lru_cache(maxsize=None)
def move_fields(game_id: str) -> dict[str, frozenset[str]]:
    """The fields each move type takes, read from the game's move schema (``type`` included).

    >>> sorted(move_fields("two-and-two")["skip"])
    ['card', 'target', 'type']
    """
    fields: dict[str, frozenset[str]] = {}
    for variant in move_schema(game_id).get("oneOf", []):
        props = variant.get("properties", {})
        mtype = props.get("type", {}).get("const")
        if isinstance(mtype, str):
            fields[mtype] = frozenset(props)
    return fields


def unknown_fields(game_id: str, move: Mapping[str, Any]) -> list[str]:
    """The fields of ``move`` that its move type does not take, sorted; none for an unknown
    type (the engine refuses that under its own ``move-format`` rule)."""
    mtype = move.get("type")
    known = move_fields(game_id).get(mtype) if isinstance(mtype, str) else None
    if known is None or move.keys() <= known:
        return []
    return sorted(str(k) for k in move if k not in known)


def move_schema_error(game_id: str, entry: Any) -> str | None:
    """Why one transcript entry fails the game's move schema, naming its move type and the field;
    None when it passes. The schema is checked against the whole entry, ``"player"`` included
    (as :func:`full_schema` does), so a move type with ``additionalProperties: false`` must list
    ``player``. Only the ``oneOf`` branch of the entry's own type is tried: jsonschema's own error
    for a ``oneOf`` is the last branch's complaint ("'forfeit' was expected"), which names neither.

    >>> move_schema_error("obren-buttons", {"player": 0, "type": "place", "button": "red-9", "cell": "a1"})
    "place move: field button: 'red-9' does not match '^(black|white)-([1-8]|[1-4][ab])$'"
    >>> move_schema_error("obren-buttons", {"player": 0, "type": "jump"})
    "move type 'jump' is not one of place, move, forfeit"
    """
    import jsonschema

    schema = move_schema(game_id)
    if not isinstance(entry, dict):
        return "a move is a JSON object"
    branches = {b.get("properties", {}).get("type", {}).get("const"): b for b in schema.get("oneOf", [])}
    branches.pop(None, None)
    mtype = entry.get("type")
    base = {k: v for k, v in schema.items() if k not in ("oneOf", "$defs", "$schema", "title", "description")}
    if branches and mtype not in branches:
        return f"move type {mtype!r} is not one of {', '.join(str(t) for t in branches)}"
    parts = [base] + ([branches[mtype]] if branches else [])
    validator = jsonschema.Draft202012Validator({"allOf": parts, "$defs": schema.get("$defs", {})})
    err = jsonschema.exceptions.best_match(validator.iter_errors(entry))
    if err is None:
        return None
    field = "/".join(str(p) for p in err.absolute_path)
    text = f"{mtype} move: field {field}: {err.message}" if field else f"{mtype} move: {err.message}"
    if err.validator == "additionalProperties" and "player" in entry and "'player'" in err.message:
        text += " (the move schema is checked against the entry with \"player\": list it in the properties)"
    return text


def full_schema(game_id: str) -> dict[str, Any]:
    """Envelope plus the game's move vocabulary, for documentation and tests."""
    schema = json.loads(json.dumps(envelope_schema()))
    moves = json.loads(json.dumps(move_schema(game_id)))
    # The move schema's "#/$defs/..." references resolve against the root, so hoist its $defs.
    schema["$defs"] = {**schema.get("$defs", {}), **moves.pop("$defs", {})}
    moves.pop("$schema", None)
    schema["properties"]["moves"]["items"] = {"allOf": [schema["properties"]["moves"]["items"], moves]}
    return schema


def new_transcript(game: Game, state: State, players: list[str] | None = None) -> dict[str, Any]:
    names = players or [f"Player {i + 1}" for i in range(state.num_players())]
    return {
        "format": FORMAT,
        "version": VERSION,
        "game": game.id,
        "options": state.options(),
        "players": [{"name": n} for n in names],
        "setup": state.setup(),
        "moves": [],
        "result": None,
    }


def split_move(entry: Mapping[str, Any]) -> tuple[Any, dict[str, Any]]:
    """(player, move) from a transcript entry."""
    move = dict(entry)
    player = move.pop("player", None)  # the one reserved key (RESERVED_KEYS)
    return player, move


def _raise_first(errors: list[jsonschema.ValidationError], source: str) -> None:
    """Raise the InputError naming the first of ``errors`` (when there is one)."""
    if errors:
        err = errors[0]
        where = "/".join(str(p) for p in err.absolute_path) or "(root)"
        raise InputError(f"{source}: field {where}: {err.message}")


def _start(data: dict[str, Any], source: str) -> tuple[Game, State]:
    """The game and its start state of an envelope found well formed."""
    try:
        game = rules.get_game(data["game"])
    except rules.UnknownGame as exc:
        raise InputError(f"{source}: field game: {exc}") from None
    try:
        state = game.new_state(options=data.get("options") or {}, setup=data["setup"],
                               num_players=len(data["players"]))
    except SetupError as exc:
        raise InputError(f"{source}: field {exc.field or 'setup/options'}: {exc}") from None
    return game, state


def parse_transcript(data: Any, source: str, *, entries_later: bool = False) -> tuple[Game, State, list[Any]]:
    """Check the envelope; return the game, its start state and the raw moves.

    Raises InputError (one line naming ``source`` and the field) when ``data``
    is not a usable transcript. Moves are not judged here: a malformed move is
    an illegal move, reported by the replay. With ``entries_later`` the moves' entries
    (each an object with a seat) are left to the caller, which checks each before it uses it
    and the rest when it stops early (:func:`check_entries`): the validator, which reads each
    entry anyway. An error in them is still raised before one of the game or setup.
    """
    if not isinstance(data, dict):
        raise InputError(f"{source}: not a transcript (the root is not a JSON object)")
    if data.get("format") != FORMAT:
        raise InputError(f"{source}: not a transcript (field 'format' must be {FORMAT!r})")
    if data.get("version") != VERSION:
        raise InputError(f"{source}: unsupported transcript version {data.get('version')!r} (this tool reads {VERSION})")
    moves = data.get("moves")
    if isinstance(moves, list) and len(moves) > MAX_TRANSCRIPT_MOVES:
        raise InputError(f"{source}: field moves: {len(moves)} moves, above the limit of {MAX_TRANSCRIPT_MOVES}")
    errors: list[jsonschema.ValidationError] = []
    if not envelope_well_formed(data, entries=not entries_later):  # jsonschema only to find and word what is wrong
        errors = sorted(_envelope_validator().iter_errors(data), key=lambda e: [str(p) for p in e.absolute_path])
        if not errors:
            errors = _move_shape_errors(data["moves"])
    _raise_first(errors, source)
    try:
        game, state = _start(data, source)
    except Exception:
        if entries_later:
            check_entries(data["moves"], source)  # the entries' error first, as without entries_later
        raise
    names = [p.get("name") for p in data["players"]]
    if all(isinstance(n, str) and n for n in names) and len(set(names)) == len(names):
        state.name_seats(names)  # messages name the seats as the transcript does
    return game, state, list(data["moves"])
