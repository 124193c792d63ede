"""Smitten 2 golden scenarios (tests/golden/smitten-2, written by its make_goldens.py): every step
replayed through the Python engine and the Lua mirror, each refusal naming the recorded rule, the
legal steps validating as a transcript with the recorded result."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from rules.smitten_2 import GAME
from tts_builder.agreement import AgreementReport, LuaEngine, check_transcript
from tts_builder.validate import validate_data

from goldens import load, replay_scenario, scenario_transcript

GOLDEN = Path(__file__).parent / "golden" / "smitten-2"
SCENARIOS = sorted(GOLDEN.glob("*.json"))


def split(step: dict[str, Any]) -> tuple[Any, Any]:
    move = {k: v for k, v in step.items() if k != "player"}
    return step.get("player"), move.get("move", move) if set(move) == {"move"} else move


@pytest.fixture(scope="module")
def lua() -> LuaEngine:
    return LuaEngine("smitten-2")


@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_scenario_refusals_and_result_in_python_and_lua(path: Path, lua: LuaEngine) -> None:
    sc = load(path)
    state, legal = replay_scenario(GAME, lua, sc, split)
    assert (state.result().to_json() if state.result() else None) == sc["result"]
    report = validate_data(scenario_transcript(GAME, sc, legal), path.name)
    assert report.legal and report.moves_checked == len(legal) and report.finished, report.summary()
    agreement = AgreementReport(game="smitten-2")
    assert check_transcript("smitten-2", scenario_transcript(GAME, sc, legal), lua, 0, agreement, random.Random(path.name)), \
        agreement.summary()


def test_goldens_cover_every_rule_a_win_in_each_mode_and_each_way_to_lose() -> None:
    scenarios = [load(p) for p in SCENARIOS]
    refused = {step["rule"] for sc in scenarios for step in sc["steps"] if "refuse" in step}
    assert refused == set(GAME.rules)
    ends = {(sc["result"]["kind"], sc["result"]["outcome"], sc["result"]["reason"]) for sc in scenarios}
    assert {("cooperative", "win", "all-placed"), ("solo", "win", "all-placed"),
            ("cooperative", "loss", "no-play"), ("cooperative", "loss", "cannot-follow"),
            ("cooperative", "loss", "forfeit"), ("solo", "loss", "no-play"), ("solo", "loss", "cannot-follow"),
            ("solo", "loss", "face-down-unplayable")} <= ends
    moves = [s for sc in scenarios for s in sc["steps"] if "refuse" not in s]
    assert {"play", "flip", "swap", "reveal", "discard", "choose", "name", "place", "draw", "say"} <= \
        {m["type"] for m in moves}
    options = {json.dumps(sc["options"], sort_keys=True) for sc in scenarios}
    assert {'{"difficulty": "easy"}', '{"difficulty": "hard"}', "{}", '{"solo_easy": true}'} <= options
