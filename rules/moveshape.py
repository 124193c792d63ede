"""Move-shape checks declared once, in a game's ``moves.schema.json``, and read by both engines:
the Python engine calls :func:`shape_error`; the Lua rules get :func:`move_shapes` through the
template context and ``lua_templates/runtime/moveshape.lua.j2`` runs the same checks with the same
words. A game then writes only its rules, not a second copy of its move vocabulary.

What is checked: the move is an object whose ``type`` is one of the schema's; it has exactly the
fields its type's branch lists (``player`` aside); a field with an ``enum`` holds one of its values.

>>> shapes = {"order": ["drop", "forfeit"], "fields": {"drop": ["column", "type"], "forfeit": ["type"]},
...           "enums": {"drop": {"column": [0, 1, 2]}, "forfeit": {}}}
>>> shape_error(shapes, {"type": "drop", "column": 1}) is None
True
>>> shape_error(shapes, {"type": "drop", "column": 7})
'A drop move takes column 0, 1 or 2.'
>>> shape_error(shapes, {"type": "drop"})
'A drop move has the fields column, type.'
>>> shape_error(shapes, {"type": "jump"})
'Moves are drop, forfeit.'
"""

from __future__ import annotations

from typing import Any, Mapping

JSONDict = dict[str, Any]


def move_shapes(schema: Mapping[str, Any]) -> JSONDict:
    """The shape of each move type of a move schema: ``order`` (types in schema order), ``fields``
    (sorted, ``type`` included, ``player`` left out) and ``enums`` (field -> allowed values)."""
    order: list[str] = []
    fields: dict[str, list[str]] = {}
    enums: dict[str, dict[str, list[Any]]] = {}
    for branch in schema.get("oneOf", []):
        props = branch.get("properties", {})
        mtype = props.get("type", {}).get("const")
        if not isinstance(mtype, str):
            continue
        order.append(mtype)
        fields[mtype] = sorted(k for k in props if k != "player")
        enums[mtype] = {k: list(v["enum"]) for k, v in sorted(props.items())
                        if k not in ("type", "player") and isinstance(v, Mapping) and "enum" in v}
    return {"order": order, "fields": fields, "enums": enums}


def _words(values: list[Any]) -> str:
    texts = [str(v) for v in values]
    return texts[0] if len(texts) == 1 else ", ".join(texts[:-1]) + " or " + texts[-1]


def _among(value: Any, allowed: list[Any]) -> bool:
    """Whether ``value`` is one of ``allowed`` as the Lua side sees it: a number is a number (3.0 is
    3), a boolean is no number, a string equals only a string."""
    if isinstance(value, bool) or not isinstance(value, (int, float, str)):
        return False
    return any(isinstance(value, str) == isinstance(a, str) and not isinstance(a, bool) and value == a
               for a in allowed)


def shape_error(shapes: Mapping[str, Any], move: Any) -> str | None:
    """Why ``move`` is not of a shape the schema declares (the words a player reads), or None."""
    mtype = move.get("type") if isinstance(move, dict) else None
    if not isinstance(mtype, str) or mtype not in shapes["fields"]:
        return f"Moves are {', '.join(shapes['order'])}."
    fields = shapes["fields"][mtype]
    if sorted(str(k) for k in move) != fields:
        return f"A {mtype} move has the fields {', '.join(fields)}."
    for name, allowed in shapes["enums"][mtype].items():
        if not _among(move[name], allowed):
            return f"A {mtype} move takes {name} {_words(allowed)}."
    return None
