"""Plausible wrong moves made from a legal one: the illegal inputs that the
invariant suite and ``tts-builder check-lua`` throw at both engines.

Besides other values taken from the state (real ids in the wrong place) and
missing fields, the mutants include the malformed shapes a JSON move can take
and that a Lua table blurs: a field that is ``null``, an object where a list
belongs and the other way round (``{}`` against ``[]``), a value of the wrong
type, and an extra field no move type has. The same shapes are tried one level
down, inside list fields such as Twin Tower City's ``swaps`` and ``items``.

The values come from the state's JSON: every string in it (under 20 characters).
A state may list them itself, an optional hook, when it can without walking its whole
JSON: ``state.json_strings()`` returns the set of every string value in
``state.to_json()`` (exactly what :func:`json_strings` finds there). Without the hook
the JSON is walked; the mutants, their order and the rng draws are the same either way.
"""

from __future__ import annotations

import random
from typing import Any, Iterator

from rules.core import Move, State, hook

#: a field name that no move type of any game has
UNKNOWN_FIELD = "no-such-field"


def json_strings(state: State, state_json: Any = None) -> set[str]:
    """Every string value in ``state.to_json()`` (``state_json`` when the caller has it): the
    state's own ``json_strings()`` where it has one, else a walk of the JSON."""
    listed = hook(state, "json_strings")
    if listed is not None:
        found: set[str] = listed()
        return found
    return _strings(state.to_json() if state_json is None else state_json)


def _strings(x: Any) -> set[str]:
    """Every string value in ``x`` (a state's JSON), walked with a stack: the recursive generator
    it replaces was a fifth of check-lua's time. Exact JSON types take a fast path; subclasses
    (any str, dict or list) are still found."""
    out: set[str] = set()
    add = out.add
    stack = [x]
    pop, push = stack.pop, stack.append
    while stack:
        v = pop()
        tv = type(v)
        if tv is dict:
            items: Any = v.values()
        elif tv is list:
            items = v
        elif isinstance(v, str):
            add(v)
            continue
        elif isinstance(v, dict):
            items = v.values()
        elif isinstance(v, list):
            items = v
        else:
            continue
        for w in items:
            tw = type(w)
            if tw is str:
                add(w)
            elif tw is not int and tw is not bool and w is not None:
                push(w)
    return out


def wrong_shapes(value: Any) -> list[Any]:
    """Values of another JSON shape than ``value``: null, the wrong container, the wrong scalar type."""
    out: list[Any] = [None, True]
    if isinstance(value, list):
        out += [{}, value[0] if value else "x"]
    elif isinstance(value, dict):
        out += [[], [value]]
    else:
        out += [{}, []]
        out.append([value] if isinstance(value, str) else "12345")
    return out


def _inner_mutants(value: Any) -> Iterator[Any]:
    """Malformed elements inside a list field (and malformed fields of an object element)."""
    if not isinstance(value, list) or not value:
        return
    yield [None] + value[1:]
    first = value[0]
    for bad in wrong_shapes(first):
        yield [bad] + value[1:]
    if isinstance(first, dict):
        yield [{**first, UNKNOWN_FIELD: "x"}] + value[1:]
        for key in sorted(first):
            yield [{**first, key: None}] + value[1:]
            yield [{**first, key: {}}] + value[1:]
            yield [{k: v for k, v in first.items() if k != key}] + value[1:]


def mutants(move: Move, state: State, rng: random.Random, per_field: int = 4,
            state_json: Any = None) -> Iterator[Any]:
    """Other values for each field (taken from the state, so ids are real),
    missing fields, malformed shapes (null, ``{}``/``[]``, wrong types, an
    unknown field), an unknown move type and non-objects. ``state_json`` is
    ``state.to_json()`` when the caller has it already (check-lua makes it once a move)."""
    values = sorted([v for v in json_strings(state, state_json) if len(v) < 20])
    yield {**move, "type": "no-such-move"}
    yield {**move, "type": None}
    yield "not a move"
    yield None
    yield []
    yield {}
    yield [move]
    yield {**move, UNKNOWN_FIELD: "x"}
    yield {**move, UNKNOWN_FIELD: None}
    for key in sorted(move):
        if key == "type":
            continue
        yield {k: v for k, v in move.items() if k != key}
        for value in rng.sample(values, min(per_field, len(values))):
            yield {**move, key: value}
        yield {**move, key: 12345}
        for bad in wrong_shapes(move[key]):
            yield {**move, key: bad}
        for inner in _inner_mutants(move[key]):
            yield {**move, key: inner}
    board_mutants = hook(state.game, "board_mutants")  # game-shaped mistakes (e.g. a wrong path)
    if board_mutants is not None:
        yield from board_mutants(move, state, rng)


def sample_mutants(move: Move, state: State, rng: random.Random, k: int, per_field: int = 4,
                   state_json: Any = None) -> list[Any]:
    """``rng.sample(list(mutants(...)), min(k, n))``, the same mutants in the same order after the
    same rng draws, building only the ``k`` picked (check-lua picks 3 of about 20 a move). Each
    mutant is first a plan (a value, a field set, a field dropped) made in :func:`mutants`' order."""
    values: list[str] | None = None  # found when a field needs them (a move of its type alone has none)
    plans: list[tuple[int, Any, Any]] = [
        (_SET, "type", "no-such-move"), (_SET, "type", None),
        (_VALUE, "not a move", None), (_VALUE, None, None), (_VALUE, [], None), (_VALUE, {}, None),
        (_VALUE, [move], None), (_SET, UNKNOWN_FIELD, "x"), (_SET, UNKNOWN_FIELD, None)]
    for key in sorted(move):
        if key == "type":
            continue
        if values is None:
            values = _short_sorted(json_strings(state, state_json))
        plans.append((_DROP, key, None))
        plans += [(_SET, key, value) for value in rng.sample(values, min(per_field, len(values)))]
        plans.append((_SET, key, 12345))
        value = move[key]
        plans += [(_SET, key, bad) for bad in wrong_shapes(value)]
        if isinstance(value, list) and value:  # _inner_mutants has some (a list field's elements)
            plans += [(_SET, key, inner) for inner in _inner_mutants(value)]
    board_mutants = hook(state.game, "board_mutants")
    if board_mutants is not None:
        plans += [(_VALUE, m, None) for m in board_mutants(move, state, rng)]
    out: list[Any] = []
    for kind, a, b in rng.sample(plans, min(k, len(plans))):
        if kind == _SET:
            out.append({**move, a: b})
        elif kind == _DROP:
            out.append({f: v for f, v in move.items() if f != a})
        else:
            out.append(a)
    return out


#: :func:`_short_sorted`'s answers by the set of strings they were made from (a game's states repeat
#: the same strings: check-lua's Two & Two moves meet about one new set in seven).
_SHORT_SORTED: dict[frozenset[str], list[str]] = {}
_SHORT_SORTED_LIMIT = 4096


def _short_sorted(strings: set[str]) -> list[str]:
    """``sorted([v for v in strings if len(v) < 20])``: the mutants' values, kept by the set of
    strings (the list is shared: read it, do not change it)."""
    key = frozenset(strings)
    found = _SHORT_SORTED.get(key)
    if found is None:
        if len(_SHORT_SORTED) >= _SHORT_SORTED_LIMIT:
            _SHORT_SORTED.clear()
        found = _SHORT_SORTED[key] = sorted([v for v in strings if len(v) < 20])
    return found


# what a plan of sample_mutants makes: the value itself, the move with a field set, the move without a field
_VALUE, _SET, _DROP = 0, 1, 2
