"""A yes/no JSON Schema check for the common case: does an instance conform, without importing jsonschema?

:func:`conformance_check` compiles a schema into a function that answers True only when the
instance certainly conforms. False means "not certain": the caller then runs jsonschema, which
finds and words the errors (or finds none). So a check built on it is exactly as strict as
jsonschema, and a well-formed save (every build's) is checked without importing jsonschema
(~50 ms) or walking it the slow way (jsonschema takes 25-80 ms per built save).

It knows the keywords the shipped save schema uses (draft 2020-12): ``type``, ``$ref`` (local
``#/...`` pointers), ``properties``, ``additionalProperties``, ``propertyNames``, ``required``,
``items``, ``if``/``then``/``else``, ``minimum``, ``maximum``, ``minLength``, ``pattern``, and
the annotations. A schema using any other keyword raises :class:`UnsupportedSchema`. It is
stricter than jsonschema where that is simpler: values of types JSON does not produce (tuples,
Decimals, subclasses, ``1.0`` as an integer, keys that are not strings) answer False.

>>> conforms = conformance_check({"type": "object", "required": ["a"],
...                               "properties": {"a": {"type": "integer", "minimum": 1}}})
>>> conforms({"a": 2}), conforms({"a": 0}), conforms({}), conforms({"a": True})
(True, False, False, False)
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

Check = Callable[[Any], bool]

#: the JSON types by their exact Python type (bool is not an integer, 1.0 not an integer here)
_TYPES: dict[str, tuple[type, ...]] = {
    "object": (dict,), "array": (list,), "string": (str,), "integer": (int,),
    "number": (int, float), "boolean": (bool,), "null": (type(None),),
}
#: the Python types a JSON reader makes; any other value is "not certain"
_PLAIN = frozenset(t for types in _TYPES.values() for t in types)
_ANNOTATIONS = frozenset({"$schema", "$id", "$comment", "$defs", "title", "description"})
_KEYWORDS = frozenset({"type", "$ref", "properties", "additionalProperties", "propertyNames", "required",
                       "items", "if", "then", "else", "minimum", "maximum", "minLength", "pattern"})


class UnsupportedSchema(ValueError):
    """The schema uses a keyword (or a form of one) the fast check does not know."""


def _is_json_value(value: Any) -> bool:
    return type(value) in _PLAIN


def _all_of(checks: list[Check]) -> Check:
    if not checks:
        return _is_json_value
    if len(checks) == 1:
        return checks[0]
    return lambda value: all(check(value) for check in checks)


def conformance_check(schema: Mapping[str, Any]) -> Check:
    """``check(instance)``: True only when ``instance`` conforms to ``schema`` (see the module).

    A keyword that applies to one type passes a value of another JSON type, as in JSON Schema,
    but never a value of a type JSON does not have (jsonschema may count it as an object or a
    number and find an error)."""
    compiled: dict[str, Check] = {}
    pending: set[str] = set()

    def ref(pointer: str) -> Check:
        if pointer in compiled:
            return compiled[pointer]
        if pointer in pending:  # a recursive reference: looked up when called, once compiled
            return lambda value: compiled[pointer](value)
        if not pointer.startswith("#/"):
            raise UnsupportedSchema(f"$ref {pointer!r}: only local #/ pointers")
        target: Any = schema
        for part in pointer[2:].split("/"):
            target = target[part.replace("~1", "/").replace("~0", "~")]
        pending.add(pointer)
        compiled[pointer] = compile_node(target)
        pending.discard(pointer)
        return compiled[pointer]

    def compile_node(node: Any) -> Check:
        if node is True:
            return _is_json_value
        if not isinstance(node, dict):
            raise UnsupportedSchema(f"schema {node!r}: only objects and true")
        unknown = set(node) - _KEYWORDS - _ANNOTATIONS
        if unknown:
            raise UnsupportedSchema(f"keywords {sorted(unknown)}")
        checks: list[Check] = []
        if "type" in node:
            names = [node["type"]] if isinstance(node["type"], str) else list(node["type"])
            if set(names) - set(_TYPES):
                raise UnsupportedSchema(f"type {node['type']!r}")
            types = frozenset(t for name in names for t in _TYPES[name])
            checks.append(lambda value: type(value) in types)
        if "$ref" in node:
            checks.append(ref(node["$ref"]))
        if {"properties", "additionalProperties", "propertyNames", "required"} & set(node):
            checks.append(object_check(node))
        if "items" in node:
            item = compile_node(node["items"])
            checks.append(lambda value: all(map(item, value)) if type(value) is list else type(value) in _PLAIN)
        if "if" in node:
            checks.append(condition_check(node))
        checks += [bound_check(node[k], k) for k in ("minimum", "maximum") if k in node]
        if "minLength" in node:
            least = node["minLength"]
            checks.append(lambda value: len(value) >= least if type(value) is str else type(value) in _PLAIN)
        if "pattern" in node:
            search = re.compile(node["pattern"]).search
            checks.append(lambda value: search(value) is not None if type(value) is str else type(value) in _PLAIN)
        return _all_of(checks)

    def object_check(node: dict[str, Any]) -> Check:
        properties = {name: compile_node(sub) for name, sub in node.get("properties", {}).items()}
        extra = compile_node(node["additionalProperties"]) if "additionalProperties" in node else _is_json_value
        key_ok = compile_node(node["propertyNames"]) if "propertyNames" in node else _is_json_value
        required = tuple(node.get("required", ()))

        def check(value: Any) -> bool:
            if type(value) is not dict:
                return type(value) in _PLAIN
            if any(name not in value for name in required):
                return False
            for key, item in value.items():
                if type(key) is not str or not key_ok(key) or not properties.get(key, extra)(item):
                    return False
            return True
        return check

    def condition_check(node: dict[str, Any]) -> Check:
        # the condition must be decided exactly (a "not certain" there would pick the wrong
        # branch), so it may only ask which properties are present
        condition = node["if"]
        if not isinstance(condition, dict) or set(condition) - {"required"}:
            raise UnsupportedSchema("if: only a `required` condition")
        needed = tuple(condition.get("required", ()))
        then, other = compile_node(node.get("then", True)), compile_node(node.get("else", True))

        def check(value: Any) -> bool:
            if type(value) is not dict:  # `required` passes any other type: `then` applies
                return type(value) in _PLAIN and then(value)
            return then(value) if all(name in value for name in needed) else other(value)
        return check

    def bound_check(limit: Any, keyword: str) -> Check:
        if type(limit) not in (int, float):
            raise UnsupportedSchema(f"{keyword} {limit!r}")
        if keyword == "minimum":
            return lambda value: value >= limit if type(value) in (int, float) else type(value) in _PLAIN
        return lambda value: value <= limit if type(value) in (int, float) else type(value) in _PLAIN

    return compile_node(schema)
