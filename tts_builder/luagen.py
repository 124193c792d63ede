"""Render the generated Lua and XmlUI from the Jinja2 templates in ``lua_templates/``.

Layout of the templates (the pipeline knows nothing game-specific)::

    lua_templates/runtime/*.lua.j2          shared: util (JSON, helpers), the recorder;
                                            interfaces.lua.j2 declares (and checks) the Rules contract
    lua_templates/games/<game-id>/rules.lua.j2   the rules module, mirror of rules/<game>/
    lua_templates/games/<game-id>/table.lua.j2   TTS events -> moves for that game
    lua_templates/games/<game-id>/ui.xml.j2      the XmlUI panel

Game data reaches the templates through ``Game.lua_context()`` (read from the
same data file as the Python engine) and the ``lua`` filter, which writes any
JSON-like value as a deterministic Lua literal::

    >>> lua_literal({"b": [1, "x"], "a": True})
    '{ a = true, b = { 1, "x" } }'
"""

from __future__ import annotations

import re
from functools import lru_cache
from importlib import resources
from typing import Any, Mapping

import jinja2

import rules
from tts_builder import __version__

_IDENT = re.compile(r"^[A-Za-z_][A-Za-z0-9_]*$")
#: what lua_string escapes (or refuses): a quote, a backslash, control characters, lone surrogates
_NEEDS_ESCAPE = re.compile(r'["\\\x00-\x1f\x7f\ud800-\udfff]')
_LUA_KEYWORDS = frozenset(
    "and break do else elseif end false for function goto if in local nil not or repeat return then true "
    "until while".split())


def lua_string(text: str) -> str:
    """A Lua string literal for ``text``: ASCII escapes for quotes and control characters, UTF-8 as it is.

    Non-ASCII characters are written raw, never as ``\\ddd`` byte escapes:
    MoonSharp (TTS) reads each ``\\ddd`` as one UTF-16 character, so the bytes
    of ``é`` would show as ``Ã©``; Lua 5.2 has no ``\\u{...}`` escape.

    >>> lua_string('say "hi"\\n')
    '"say \\\\"hi\\\\"\\\\n"'
    """
    if not _NEEDS_ESCAPE.search(text):  # the usual text: nothing to escape, written as it is
        return '"' + text + '"'
    out = ['"']
    for ch in text:
        code = ord(ch)
        if ch == '"':
            out.append('\\"')
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "\n":
            out.append("\\n")
        elif code < 32 or code == 127:
            out.append(f"\\{code:03d}")
        elif 0xD800 <= code <= 0xDFFF:
            raise ValueError(f"lone surrogate U+{code:04X} in {text!r} has no UTF-8 form")
        else:
            out.append(ch)
    out.append('"')
    return "".join(out)


def lua_literal(value: Any) -> str:
    """A Lua literal for a JSON-like value; dict keys sorted, so output is stable."""
    if value is None:
        return "nil"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        if value != value or value in (float("inf"), float("-inf")):
            raise ValueError("NaN and infinity have no Lua literal here")
        return repr(value)
    if isinstance(value, str):
        return lua_string(value)
    if isinstance(value, Mapping):
        parts = []
        for key in sorted(value, key=str):
            if isinstance(key, str) and _IDENT.match(key) and key not in _LUA_KEYWORDS:
                parts.append(f"{key} = {lua_literal(value[key])}")
            else:
                k = lua_literal(key) if isinstance(key, (int, str)) else lua_string(str(key))
                parts.append(f"[{k}] = {lua_literal(value[key])}")
        return "{ " + ", ".join(parts) + " }" if parts else "{}"
    if isinstance(value, (list, tuple)):
        return "{ " + ", ".join(lua_literal(v) for v in value) + " }" if value else "{}"
    raise TypeError(f"no Lua literal for {type(value).__name__}")


def _load_template(name: str) -> tuple[str, str, Any]:
    path = resources.files("lua_templates").joinpath(name)
    if not path.is_file():
        raise jinja2.TemplateNotFound(name)
    return path.read_text("utf-8"), name, lambda: True


@lru_cache(maxsize=1)
def environment() -> jinja2.Environment:
    env = jinja2.Environment(loader=jinja2.FunctionLoader(_load_template), undefined=jinja2.StrictUndefined,
                             keep_trailing_newline=True, autoescape=False)
    env.filters["lua"] = lua_literal
    env.filters["lua_string"] = lua_string
    return env


def game_template(game_id: str, name: str) -> str:
    return f"games/{game_id}/{name}"


def has_template(game_id: str, name: str) -> bool:
    return resources.files("lua_templates").joinpath(game_template(game_id, name)).is_file()


def context(game_id: str, extra: Mapping[str, Any] | None = None) -> dict[str, Any]:
    game = rules.get_game(game_id)
    ctx: dict[str, Any] = {"game_id": game.id, "game_name": game.name,
                           "rule_sections": {k: r.section for k, r in game.rules.items()},
                           "default_options": dict(game.options), "score_unit": game.score_unit}
    ctx.update(game.lua_context())
    ctx.update(extra or {})
    return ctx


def render(name: str, ctx: Mapping[str, Any]) -> str:
    return environment().get_template(name).render(**ctx)


def render_rules_lua(game_id: str) -> str:
    """The rules module alone (util + rules), a chunk returning the Rules table.

    This is what ``check-lua`` loads; the Global script embeds the same text.
    """
    ctx = context(game_id)
    return (render("runtime/util.lua.j2", ctx) + "\n"
            + render(game_template(game_id, "rules.lua.j2"), ctx) + "\n"
            + render("runtime/interfaces.lua.j2", ctx) + "\n"
            + render("runtime/judge.lua.j2", ctx)
            + "\nRules.json = U.json\nRules.json_decode = U.json_decode\nRules.U = U\nreturn Rules\n")


# Seconds a first press of Forfeit or New game stays armed for its confirming second press.
CONFIRM_SECONDS = 5


def seat_counts(game_id: str) -> list[int]:
    """The numbers of players a game allows: its ``player_counts`` when it has gaps
    (Twin Tower City: 2, 4 or 6), else every count from its minimum to its maximum."""
    game = rules.get_game(game_id)
    counts = game.lua_context().get("player_counts")
    if isinstance(counts, list) and counts:
        return [int(n) for n in counts]
    return list(range(game.min_players, game.max_players + 1))


def global_context(game_id: str, table: Mapping[str, Any]) -> dict[str, Any]:
    """What the Global script's templates see: the game's context plus the built table, the tool's
    name and version, the seat counts the game allows and the confirmation time."""
    return context(game_id, {"table": table, "tool": f"tts-builder {__version__}",
                             "seat_counts": seat_counts(game_id), "confirm_seconds": CONFIRM_SECONDS})


def render_global_lua(game_id: str, table: Mapping[str, Any]) -> str:
    """The Global script: util, rules, the recorder runtime, the table layer and the game's table glue.

    ``table`` describes the built table (GUIDs of zones, decks, seat colours…)
    as the save builder laid it out.
    """
    ctx = global_context(game_id, table)
    parts = [render("runtime/header.lua.j2", ctx), render("runtime/util.lua.j2", ctx),
             render(game_template(game_id, "rules.lua.j2"), ctx), render("runtime/interfaces.lua.j2", ctx),
             render("runtime/judge.lua.j2", ctx),
             render("runtime/recorder.lua.j2", ctx), render("runtime/table.lua.j2", ctx),
             render(game_template(game_id, "table.lua.j2"), ctx)]
    return "\n".join(parts)


def render_ui_xml(game_id: str, table: Mapping[str, Any]) -> str:
    return render(game_template(game_id, "ui.xml.j2"), context(game_id, {"table": table}))
