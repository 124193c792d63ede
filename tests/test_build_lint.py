"""``tts-builder build`` runs the MoonSharp lint over the Lua it generates."""

from __future__ import annotations

from pathlib import Path

import pytest

from tts_builder import build as build_mod
from tts_builder import cli
from tts_builder.errors import InputError

GAME = "two-and-two"


def test_lint_scripts_lists_each_finding_on_its_own_line() -> None:
    data = {"LuaScript": "local a = 1\nfor k in pairs(t) do end\nerror({ code = 1 })\n",
            "ObjectStates": [{"Nickname": "Deck", "GUID": "abc123", "LuaScript": "local x = 5 % n"}]}
    with pytest.raises(InputError) as info:
        build_mod.lint_scripts(GAME, data)
    lines = str(info.value).splitlines()
    assert len(lines) == 3
    assert lines[0].startswith("two-and-two/Global.lua:2: pairs()")
    assert lines[1].startswith("two-and-two/Global.lua:3: error() takes only strings")
    assert lines[2].startswith("two-and-two/Deck-abc123.lua:1: '%' with a divisor")


def test_clean_scripts_pass() -> None:
    build_mod.lint_scripts(GAME, {"LuaScript": "local a = 1", "ObjectStates": [{"LuaScript": ""}]})


def test_build_fails_with_exit_2_and_writes_nothing_when_the_lua_fails_the_lint(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    real = build_mod.luagen.render_global_lua

    def hazardous(game_id: str, table: object) -> str:
        return real(game_id, table) + "\nlocal function f(x) return tostring(x / 3) end\ntable.sort(names)\n"
    monkeypatch.setattr(build_mod.luagen, "render_global_lua", hazardous)
    out = tmp_path / "out"
    assert cli.main(["build", GAME, "--out", str(out)]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1, err  # one line, the findings joined by "; "
    line = err[0]
    assert line.count("Global.lua:") == 2 and line.count("(generated Lua fails the MoonSharp lint)") == 2
    assert line.index("non-integer number turned into text") < line.index("table.sort without a comparator")
    assert not out.exists() or not any(p.is_file() for p in out.rglob("*") if "art-cache" not in p.parts)
