"""Issue 22: a 7x6 drop-a-disc game written by ``tts-builder new`` is at most 300 lines of rules and
glue that its author owns (the Python engine, the Lua rules, the table glue and its panel), and none
of them is plumbing the shared runtime gives (New game, Forfeit, seats, the panel, world-to-cell,
laying pieces out)."""

from __future__ import annotations

import pytest

from tts_builder.scaffold import files_for

GAME = "drop-four"
#: what the author of a board game changes to make it theirs: rules (both engines) and glue
RULES_AND_GLUE = ("rules/drop_four/engine.py", "lua_templates/games/drop-four/rules.lua.j2",
                  "lua_templates/games/drop-four/table.lua.j2", "lua_templates/games/drop-four/ui.xml.j2")
#: plumbing that, found in a scaffold's glue, would be a copy of the shared runtime's
PLUMBING = ("function ttNewGame", "function ttForfeit", "tt-status", "tt-last", "Turns.turn_color", "seated",
            "math.cos", "math.sin", "Tabletop.confirmed", "Wait.condition", "setPositionSmooth", "function onLoad")


def lines(text: str) -> int:
    return len(text.splitlines())


@pytest.mark.parametrize("like", ["board", "tiles"])
def test_a_drop_a_disc_game_is_at_most_300_lines_of_rules_and_glue(like: str) -> None:
    files = files_for(GAME, like, (2, 2))
    counted = {path: lines(files[path]) for path in RULES_AND_GLUE}
    assert sum(counted.values()) <= 300, counted


@pytest.mark.parametrize("like", ["board", "tiles", "cards"])
def test_the_scaffold_glue_copies_no_runtime_plumbing(like: str) -> None:
    files = files_for(GAME, like, (2, 4))
    glue = files["lua_templates/games/drop-four/table.lua.j2"] + files["lua_templates/games/drop-four/ui.xml.j2"]
    assert [p for p in PLUMBING if p in glue] == []
    assert '{% include "runtime/controls.lua.j2" %}' in glue  # what gives it all


def test_the_count_sees_plumbing_put_back() -> None:
    """The checks can fail: a glue that writes its own New game is caught."""
    glue = files_for(GAME, "board", (2, 2))["lua_templates/games/drop-four/table.lua.j2"]
    assert [p for p in PLUMBING if p in glue + "\nfunction ttNewGame(player) end\n"] == ["function ttNewGame"]
