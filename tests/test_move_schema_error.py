"""The move schema's error names the move type and the field (transcript.move_schema_error), not
jsonschema's complaint about the last ``oneOf`` branch."""

from __future__ import annotations

from typing import Any

import jsonschema
import pytest

import rules
from tts_builder import transcript
from tts_builder.transcript import full_schema, move_schema_error

# A drop-a-disc game's schema as a new author writes it: strict branches that forget "player".
STRICT = {
    "type": "object", "required": ["type"],
    "oneOf": [
        {"properties": {"type": {"const": "drop"}, "column": {"enum": [0, 1, 2, 3, 4, 5, 6]}},
         "required": ["column"], "additionalProperties": False},
        {"properties": {"type": {"const": "forfeit"}}, "additionalProperties": False},
    ],
}


@pytest.fixture
def strict(monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setattr(transcript, "move_schema", lambda game_id: STRICT)
    return "drop-a-disc"


def test_jsonschema_alone_names_the_last_branch(strict: str) -> None:
    """What the error replaces: the whole schema's best match speaks of another branch."""
    err = jsonschema.exceptions.best_match(jsonschema.Draft202012Validator(STRICT).iter_errors(
        {"player": 0, "type": "drop", "column": 3}))
    assert err is not None and "column" not in err.message


def test_a_strict_branch_without_player_is_named_with_the_cause(strict: str) -> None:
    text = move_schema_error(strict, {"player": 0, "type": "drop", "column": 3})
    assert text is not None
    assert text.startswith("drop move: ") and "'player' was unexpected" in text
    assert 'checked against the entry with "player"' in text


@pytest.mark.parametrize("entry, expected", [
    ({"player": 0, "type": "drop", "column": 9}, "drop move: field column: 9 is not one of"),
    ({"player": 0, "type": "drop"}, "drop move: 'column' is a required property"),
    ({"player": 0, "type": "lift"}, "move type 'lift' is not one of drop, forfeit"),
    ({"player": 0}, "move type None is not one of drop, forfeit"),
    (["drop"], "a move is a JSON object"),
])
def test_a_bad_entry_names_its_type_and_field(monkeypatch: pytest.MonkeyPatch, entry: Any, expected: str) -> None:
    lenient = {**STRICT, "oneOf": [{**b, "properties": {**b["properties"], "player": {}}} for b in STRICT["oneOf"]]}
    monkeypatch.setattr(transcript, "move_schema", lambda game_id: lenient)
    text = move_schema_error("drop-a-disc", entry)
    assert text is not None and text.startswith(expected), text


@pytest.mark.parametrize("game_id", rules.game_ids())
def test_every_game_s_legal_first_moves_pass_and_an_unknown_type_is_named(game_id: str) -> None:
    game = rules.get_game(game_id)
    state = game.new_state(seed=1, num_players=game.seat_counts()[0])
    seat = state.current_player() or 0
    for move in state.legal_moves()[:20]:
        entry = {"player": seat, **move}
        assert move_schema_error(game_id, entry) is None, (move, move_schema_error(game_id, entry))
    bad = {"player": seat, "type": "no-such-move"}
    assert str(move_schema_error(game_id, bad)).startswith("move type 'no-such-move' is not one of ")
    # the same entry in a transcript fails the full schema too: the two read one schema
    items = full_schema(game_id)["properties"]["moves"]["items"]
    assert not jsonschema.Draft202012Validator({**items, "$defs": full_schema(game_id)["$defs"]}).is_valid(bad)
