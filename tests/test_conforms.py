"""The save check's fast yes/no schema check (tts_builder.conforms) never passes what jsonschema
refuses: on the real saves, on a valid save with one value changed, removed or added anywhere,
and on values of types JSON does not have. And it passes the saves jsonschema passes, so a build
does not import jsonschema."""

from __future__ import annotations

import collections
import copy
import decimal
import json
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from tts_builder import savecheck
from tts_builder.conforms import UnsupportedSchema, conformance_check
from tts_builder.fileio import load_json_file
from tts_builder.savecheck import check_save, load_schema

from test_savecheck import valid_save

SCHEMA_VALIDATOR = jsonschema.Draft202012Validator(load_schema())
CONFORMS = conformance_check(load_schema())

ODD_VALUES: list[Any] = [None, True, False, 0, -1, 1, 2.5, 1.0, float("inf"), "", "x", "12", "012", [], [1], ["a"],
                         {}, {"r": 1}, {"x": "no"}, {"1": {}}, {"1": {"FaceURL": 3}}]
ODD_KEYS = ["", "0", "07", "1", "x", "1234567890", "12"]


def _schema_valid(data: Any) -> bool:
    return not any(True for _ in SCHEMA_VALIDATOR.iter_errors(data))


def _paths(value: Any) -> Iterator[tuple[Any, ...]]:
    """The path of every value inside ``value`` (the save check's own walk)."""
    return (parts for parts, _item in savecheck._walk_values(value))


def _variants(base: dict[str, Any], rng: random.Random, count: int) -> Iterator[dict[str, Any]]:
    """``base`` with one value replaced, one key removed, or one key added, somewhere."""
    paths = [p for p in _paths(base) if p]
    containers = [p for p in _paths(base) if isinstance(_at(base, p), dict)]
    for _ in range(count):
        data = copy.deepcopy(base)
        how = rng.random()
        if how < 0.2:
            parent = _at(data, rng.choice(containers))
            parent[rng.choice(ODD_KEYS + ["Name", "CardID", "FaceURL", "posX", "NumWidth"])] = rng.choice(ODD_VALUES)
        else:
            path = rng.choice(paths)
            parent = _at(data, path[:-1])
            if how < 0.35 and isinstance(parent, dict):
                del parent[path[-1]]
            else:
                parent[path[-1]] = copy.deepcopy(rng.choice(ODD_VALUES))
        yield data


def _at(data: Any, path: tuple[Any, ...]) -> Any:
    for part in path:
        data = data[part]
    return data


def test_the_shipped_schema_is_one_the_fast_check_knows() -> None:
    assert savecheck._conforms()(valid_save())
    assert CONFORMS(valid_save()) and _schema_valid(valid_save())


@pytest.mark.parametrize("seed", range(3))
def test_the_fast_check_never_passes_what_jsonschema_refuses(seed: int) -> None:
    rng = random.Random(seed)
    passed = refused = 0
    for data in _variants(valid_save(), rng, 400):
        if CONFORMS(data):
            assert _schema_valid(data), json.dumps(data)[:400]
            passed += 1
        else:
            refused += 1
            assert _schema_valid(data) or savecheck._schema_problems(data)  # jsonschema words it
    assert passed > 50 and refused > 50  # both ways are exercised


def test_the_real_saves_get_the_same_verdict(tts_save_fixtures: list[Path]) -> None:
    wild = sorted((tts_save_fixtures[0].parent.parent / "tts_saves_wild").glob("*.json"))
    for path in [*tts_save_fixtures, *wild]:
        data = load_json_file(path, allow_infinity=True)
        assert CONFORMS(data) == _schema_valid(data), path.name


def test_values_json_does_not_have_are_left_to_jsonschema() -> None:
    save = valid_save()
    odd: list[Any] = [collections.OrderedDict(save), {**save, "ObjectStates": tuple(save["ObjectStates"])},
                      {**save, "Gravity": decimal.Decimal("0.5")}, {**save, 7: "key"}]
    deck = copy.deepcopy(save)
    deck["ObjectStates"][0]["CustomDeck"]["1"]["NumWidth"] = 3.0  # an integer to jsonschema, not here
    odd.append(deck)
    for data in odd:
        assert not CONFORMS(data)
    assert [p.message for p in check_save(odd[-1])] == [p.message for p in check_save(valid_save())]


def test_a_keyword_it_does_not_know_is_refused() -> None:
    for schema in ({"enum": [1]}, {"type": "object", "patternProperties": {"a": True}}, {"$ref": "other.json"},
                   {"if": {"type": "object"}, "then": True}, {"type": "decimal"}):
        with pytest.raises(UnsupportedSchema):
            conformance_check(schema)


def test_a_recursive_schema_is_checked_all_the_way_down() -> None:
    conforms = conformance_check({"$defs": {"node": {"type": "object", "properties": {
        "kids": {"type": "array", "items": {"$ref": "#/$defs/node"}}, "n": {"type": "integer"}}}},
        "$ref": "#/$defs/node"})
    assert conforms({"kids": [{"kids": [{"n": 1}]}]})
    assert not conforms({"kids": [{"kids": [{"n": "1"}]}]})


def _nested_bags(depth: int) -> dict[str, Any]:
    save = valid_save()
    inner = save["ObjectStates"][2]
    for _ in range(depth):
        inner["ContainedObjects"] = [{"Name": "Bag", "Transform": copy.deepcopy(inner["Transform"])}]
        inner = inner["ContainedObjects"][0]
    inner["Transform"]["posX"] = "far"
    return save


def test_a_save_deeper_than_the_fast_check_goes_is_left_to_jsonschema() -> None:
    """(A loaded save is at most 100 levels deep, which the fast check goes through; in-memory data may be deeper.)"""
    depth = 50
    while True:  # the first depth the fast check cannot go down (jsonschema goes a little deeper)
        try:
            CONFORMS(_nested_bags(depth))
        except RecursionError:
            break
        depth += 5
    found = savecheck._schema_problems(_nested_bags(depth))
    assert len(found) == 1 and found[0].message == "'far' is not of type 'number'"


def test_checking_a_well_formed_save_does_not_import_jsonschema(tmp_path: Path) -> None:
    path = tmp_path / "save.json"
    path.write_text(json.dumps(valid_save()), encoding="utf-8")
    probe = ("import sys; from tts_builder.savecheck import check_save, load_save_file; "
             f"assert check_save(load_save_file({str(path)!r})) == []; print('jsonschema' in sys.modules)")
    proc = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip() == "False"
