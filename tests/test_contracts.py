"""Every game keeps to docs/authoring.md: the names a game defines for the tools (Python overrides
and hooks, Lua Rules functions, Table hooks, global handlers, panel callbacks) are the names the guide
lists, the required ones are all there, and what the runtime and the tools call is declared in
``lua_templates/runtime/interfaces.lua.j2`` and on the base classes in ``rules/core.py``."""

from __future__ import annotations

import re
import sys
from pathlib import Path

import lupa.lua52 as lupa
import pytest

import rules
from rules.core import OPTIONAL_HOOKS, Game, State
from tts_builder import luagen

REPO = Path(__file__).resolve().parents[1]
GUIDE = (REPO / "docs" / "authoring.md").read_text("utf-8")
GAMES_DIR = REPO / "lua_templates" / "games"
RUNTIME = REPO / "lua_templates" / "runtime"

sys.path.insert(0, str(Path(__file__).parent))
from toygames import COUNT, RACE, SOLO  # noqa: E402

PY_GAMES = [*rules.all_games(), RACE, SOLO, COUNT]
PY_IDS = [g.id for g in PY_GAMES]
LUA_GAMES = sorted(p.name for p in GAMES_DIR.iterdir() if p.is_dir())

#: what a Game and a State must implement (the base raises NotImplementedError)
REQUIRED = {"Game": ("new_state", "state_from_json"),
            "State": ("current_player", "legal_moves", "check", "is_terminal", "result", "setup", "options",
                      "num_players", "to_json", "observation")}


def interfaces() -> dict[str, list[str]]:
    """The lists of ``interfaces.lua.j2``, read by running it under Lua 5.2 with a complete Rules."""
    lua = lupa.LuaRuntime()
    src = luagen.render("runtime/interfaces.lua.j2", {"game_id": "probe"})
    lua.execute("Rules = setmetatable({}, { __index = function() return function() end end })")
    lua.execute(src)
    table = lua.globals().Interfaces
    return {k: [str(v) for v in table[k].values()] for k in table.keys()}


IFACE = interfaces()


def guide_names(prefix: str = "") -> set[str]:
    """Every `code` name in the guide (``Rules.check(s, move)`` gives ``Rules.check``)."""
    found: set[str] = set()
    prose = re.sub(r"```.*?```", "", GUIDE, flags=re.S)  # fenced examples are not names
    for code in re.findall(r"`([^`]+)`", prose):
        for m in re.finditer(r"[A-Za-z_][A-Za-z0-9_.]*", code):
            found.add(m.group(0))
    return {n for n in found if n.startswith(prefix)}


def defined_lua(text: str, owner: str) -> set[str]:
    """Names a Lua source defines on ``owner`` (``function Rules.x(`` or ``Rules.x =``)."""
    pattern = rf"^(?:function\s+{owner}\.([A-Za-z_]\w*)\s*\(|{owner}\.([A-Za-z_]\w*)\s*=[^=])"
    return {a or b for a, b in re.findall(pattern, text, re.M)}


def with_includes(text: str) -> str:
    """A template's text with its shared runtime includes inlined (what the glue defines through them);
    a glue that sets ``controls_forfeit = false`` gets runtime/controls.lua.j2 without ttForfeit."""
    out = re.sub(r'\{%\s*include\s*"runtime/([\w.]+)"\s*%\}',
                 lambda m: (RUNTIME / m.group(1)).read_text("utf-8"), text)
    if re.search(r"\{%\s*set\s+controls_forfeit\s*=\s*false\s*%\}", text):
        out = re.sub(r"\{%\s*if controls_forfeit[^%]*%\}.*?\{%\s*endif\s*%\}", "", out, flags=re.S)
    return out


# -- the declarations and the guide agree ------------------------------------------------------------
def test_every_declared_lua_name_is_in_the_guide() -> None:
    names = guide_names()
    for key in ("rules_required", "rules_optional", "rules_given"):
        assert {f"Rules.{n}" for n in IFACE[key]} <= names, key
    assert {f"Table.{n}" for n in IFACE["table_hooks"]} <= names
    assert set(IFACE["global_handlers"]) | set(IFACE["runtime_handlers"]) <= names


def test_the_required_rules_are_the_issue_s_seven() -> None:
    assert sorted(IFACE["rules_required"]) == sorted(
        ["new_state", "current_player", "is_over", "check", "apply", "describe_move", "result"])


def test_every_python_hook_is_declared_with_a_docstring_and_in_the_guide() -> None:
    names = guide_names()
    for owner, hooks in OPTIONAL_HOOKS.items():
        base = Game if owner == "Game" else State
        for name in hooks:
            method = getattr(base, name)
            assert method.__doc__ and "Optional hook" in method.__doc__, f"{owner}.{name}"
            assert f"{owner}.{name}" in names, f"{owner}.{name} is not in docs/authoring.md"


def test_what_the_runtime_and_the_tools_call_is_declared() -> None:
    """A Rules or Table name the runtime templates or check-lua read is in interfaces.lua.j2."""
    declared = set(IFACE["rules_required"] + IFACE["rules_optional"] + IFACE["rules_given"])
    text = "\n".join(p.read_text("utf-8") for p in RUNTIME.glob("*.j2") if p.name != "interfaces.lua.j2")
    called = set(re.findall(r"\bRules\.([A-Za-z_]\w*)", text))
    agreement = (REPO / "tts_builder" / "agreement.py").read_text("utf-8")
    called |= set(re.findall(r"\brules\.([a-z_]\w*)\b", agreement)) - {"core", "get_game", "mutate", "lua"}
    called |= set(re.findall(r"\bRules\.([A-Za-z_]\w*)", agreement))
    assert called - declared == set()
    table_called = set(re.findall(r"\bTable\.([A-Za-z_]\w*)", text))
    assert table_called - set(IFACE["table_hooks"]) == set()


# -- each game keeps to it ------------------------------------------------------------------------------
@pytest.mark.parametrize("game", PY_GAMES, ids=PY_IDS)
def test_a_python_game_implements_what_is_required(game: Game) -> None:
    state = game.new_state(num_players=game.seat_counts()[0])
    for owner, obj, base in (("Game", game, Game), ("State", state, State)):
        for name in REQUIRED[owner]:
            assert getattr(type(obj), name) is not getattr(base, name), f"{game.id} lacks {owner}.{name}"
    if type(state).make is State.make:  # make, or both apply and try_apply
        assert type(state).apply is not State.apply and type(state).try_apply is not State.try_apply


@pytest.mark.parametrize("game", PY_GAMES, ids=PY_IDS)
def test_a_python_game_overrides_only_what_the_guide_names(game: Game) -> None:
    state = game.new_state(num_players=game.seat_counts()[0])
    named = {n.split(".")[-1] for n in guide_names()}
    for obj, base in ((game, Game), (state, State)):
        for name in dir(base):
            if name.startswith("_") or not callable(getattr(base, name)):
                continue
            if getattr(type(obj), name) is not getattr(base, name):
                assert name in named, f"{game.id} overrides {base.__name__}.{name}, which docs/authoring.md does not name"


@pytest.mark.parametrize("game_id", LUA_GAMES)
def test_a_lua_game_defines_the_required_rules_and_only_declared_hooks(game_id: str) -> None:
    rules_text = (GAMES_DIR / game_id / "rules.lua.j2").read_text("utf-8")
    table_text = with_includes((GAMES_DIR / game_id / "table.lua.j2").read_text("utf-8"))
    defined = defined_lua(rules_text, "Rules")
    missing = set(IFACE["rules_required"]) - defined
    assert not missing, f"{game_id} rules lack {sorted(missing)}"
    assert not (defined & set(IFACE["rules_given"])), f"{game_id} redefines what the runtime gives"
    # globals: TTS events the guide lists, never the recorder's, and tt* callbacks its panel names
    functions = set(re.findall(r"^function\s+([A-Za-z_]\w*)\s*\(", table_text, re.M))
    events = {f for f in functions if re.match(r"^(on|try)[A-Z]", f)}
    assert events <= set(IFACE["global_handlers"]), f"{game_id}: {sorted(events - set(IFACE['global_handlers']))}"
    assert not (functions & set(IFACE["runtime_handlers"]))
    xml = with_includes((GAMES_DIR / game_id / "ui.xml.j2").read_text("utf-8"))
    clicks = set(re.findall(r'on(?:Click|ValueChanged|EndEdit)="([A-Za-z_]\w*)"', xml))
    callbacks = {f for f in functions if f.startswith("tt")}
    assert clicks - functions == set(), f"{game_id}: ui.xml names callbacks the glue lacks"
    by_name = set(re.findall(r'click_function\s*=\s*"(\w+)"', table_text))  # object buttons
    by_name |= set(re.findall(r'startLuaCoroutine\(\s*Global\s*,\s*"(\w+)"', table_text))  # coroutines
    assert callbacks - clicks - by_name == set(), f"{game_id}: the glue defines tt* functions nothing calls by name"


def test_the_checks_can_fail() -> None:
    """The contract checks catch a game that strays: a missing required function, an unknown event."""
    assert "apply" not in defined_lua("function Rules.check(s, m) end\nRules.new_state = nil\n", "Rules")
    assert defined_lua("function Rules.check(s, m) end\nRules.new_state = f\n", "Rules") == {"check", "new_state"}
    lua = lupa.LuaRuntime()
    lua.execute("Rules = { new_state = function() end }")
    with pytest.raises(lupa.LuaError, match=r"Rules\.current_player is required"):
        lua.execute(luagen.render("runtime/interfaces.lua.j2", {"game_id": "probe"}))


def _glue_hooks(owner: str) -> set[str]:
    """``owner.x`` names the runtime reads but never defines: the hooks a game's glue may supply."""
    text = "\n".join(p.read_text("utf-8") for p in RUNTIME.glob("*.j2") if p.name != "interfaces.lua.j2")
    text = re.sub(r"--[^\n]*", "", text)  # comments name hooks without reading them
    read = set(re.findall(rf"\b{owner}\.([A-Za-z_]\w*)", text))
    return read - defined_lua(text, owner)


@pytest.mark.parametrize("owner", ["Controls", "Cards"])
def test_every_hook_the_runtime_leaves_to_the_glue_is_in_the_guide(owner: str) -> None:
    """A glue learns what it may set on Controls or Cards (New game's piles, the panel's lines...)
    from docs/authoring.md alone: each name the runtime reads and does not define is named there."""
    hooks = _glue_hooks(owner)
    assert hooks, owner  # the runtime does leave hooks to the glue: an empty set means the scan broke
    assert {f"{owner}.{n}" for n in hooks} - guide_names(owner) == set()


@pytest.mark.parametrize("game_id", LUA_GAMES)
def test_a_glue_sets_on_controls_only_what_the_runtime_reads(game_id: str) -> None:
    """A glue's ``Controls.x`` that the runtime never reads is a misspelt hook (it would silently
    do nothing, as a Controls.idle did beside the runtime's Controls.idle_status)."""
    glue = (REPO / "lua_templates" / "games" / game_id / "table.lua.j2").read_text("utf-8")
    if "runtime/controls.lua.j2" not in glue:
        pytest.skip(f"{game_id} does not use the shared controls")
    runtime = "\n".join(p.read_text("utf-8") for p in RUNTIME.glob("*.j2"))
    read_or_given = set(re.findall(r"\bControls\.([A-Za-z_]\w*)", runtime))
    set_by_glue = defined_lua(re.sub(r"\{%\s*include[^%]*%\}", "", glue), "Controls")
    assert set_by_glue - read_or_given == set(), game_id
