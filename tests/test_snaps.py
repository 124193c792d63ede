"""Board snap points turn a dropped piece or card to the same upright rotation as every piece, card
and zone snap (180 degrees for seat 0): with the stand-in's rotating snap (testing.SNAP_RADIUS), an
Obren button, a Smitten card or a Two by Two animal dropped at a slant on any board cell lands on
the cell, upright (ported from branch i20b; the board snaps at 0 turned it to the far player)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from modtable import build_save, snap_turn_problems
from tts_builder.build import load_table_layout
from tts_builder.save import board_snaps

GAMES = ("obren-buttons", "smitten-2", "two-by-two")


@pytest.fixture(scope="module")
def saves(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    out: Path = tmp_path_factory.mktemp("build")
    return {game: build_save(out, game) for game in GAMES}


@pytest.mark.parametrize("game", GAMES)
def test_a_piece_dropped_on_any_board_cell_keeps_its_upright_rotation(saves: dict[str, dict[str, Any]],
                                                                       game: str) -> None:
    assert len(board_snaps(load_table_layout(game))) >= 9
    assert snap_turn_problems(saves[game], game) == []


def test_the_check_sees_a_board_snap_that_turns_a_piece(saves: dict[str, dict[str, Any]]) -> None:
    bad = dict(saves["obren-buttons"], SnapPoints=[dict(p, Rotation={"x": 0, "y": 90, "z": 0})
                                                  for p in saves["obren-buttons"]["SnapPoints"]])
    assert len(snap_turn_problems(bad, "obren-buttons")) == 16
