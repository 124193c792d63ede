"""Adam Obren's button game: golden scenarios (hand-written steps, each refusal naming the rule the
author expected) and recorded games, replayed through the Python engine, the validator and the Lua
mirror; plus Lua-Python agreement over simulated games of every mode and goal."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from rules.obren_buttons import GAME
from rules.obren_buttons.engine import _has_line
from rules.players import choose
from tts_builder.agreement import AgreementReport, LuaEngine, check_transcript
from tts_builder.transcript import new_transcript
from tts_builder.validate import validate_data

from goldens import load, replay_scenario, scenario_transcript, split

GOLDEN = Path(__file__).parent / "golden" / "obren-buttons"
SCENARIOS = sorted(p for p in GOLDEN.glob("*.json") if not p.name.endswith(".transcript.json"))
PLAYED = sorted(GOLDEN.glob("*.transcript.json"))
#: rules that end a game rather than refuse a move
RESULT_RULES = {"line-of-four", "solo-goal", "move-cap", "repetition"}



@pytest.fixture(scope="module")
def lua() -> LuaEngine:
    return LuaEngine("obren-buttons")



@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_scenario_refusals_and_result_in_python_and_lua(path: Path, lua: LuaEngine) -> None:
    sc = load(path)
    state, legal = replay_scenario(GAME, lua, sc)
    assert (state.result().to_json() if state.result() else None) == sc["result"]
    transcript = scenario_transcript(GAME, sc, legal)
    report = validate_data(transcript, path.name)
    assert report.legal and report.moves_checked == len(legal), report.summary()


@pytest.mark.parametrize("path", PLAYED, ids=lambda p: p.stem)
def test_recorded_games_validate_and_lua_agrees(path: Path, lua: LuaEngine) -> None:
    transcript = load(path)
    report = validate_data(json.loads(json.dumps(transcript)), path.name)
    assert report.legal and report.finished, report.summary()
    assert report.result == transcript["result"]
    agreement = AgreementReport(game="obren-buttons")
    assert check_transcript("obren-buttons", transcript, lua, 0, agreement, random.Random(path.name)), agreement.summary()


def test_goldens_cover_every_rule_both_modes_and_both_goals() -> None:
    refused = {step["rule"] for path in SCENARIOS for step in load(path)["steps"] if "refuse" in step}
    assert refused == set(GAME.rules) - RESULT_RULES
    results = [load(p)["result"] for p in SCENARIOS + PLAYED]
    reasons = {r["reason"] for r in results if r}
    assert {"line-of-four", "goal", "move-cap", "repetition", "forfeit"} <= reasons
    solo = [r for r in results if r and r["kind"] == "solo"]
    assert {r["goal"] for r in solo if r["outcome"] == "win"} == {"two-lines", "four-lines"}
    assert {r["outcome"] for r in solo} == {"win", "loss"}
    assert any(r and r["winner"] in (0, 1) and r["kind"] == "competitive" for r in results)


def test_both_lines_golden_ends_with_both_lines_and_the_mover_winning() -> None:
    t = load(GOLDEN / "duel-both-lines.transcript.json")
    state = GAME.new_state(setup=t["setup"], options=t["options"])
    for entry in t["moves"]:
        state.apply(split(entry)[1])
    assert _has_line(state.s["board"], "black") and _has_line(state.s["board"], "white")
    assert t["result"]["winner"] == t["moves"][-1]["player"]


def simulated(seed: int, players: int, options: dict[str, Any], policy: str) -> dict[str, Any]:
    state = GAME.new_state(seed=seed, options=options, num_players=players)
    t = new_transcript(GAME, state)
    rng = random.Random(f"obren-agreement/{seed}")
    while not state.is_terminal():
        who = state.current_player()
        move = choose(GAME, state, policy, rng)
        state.apply(move)
        t["moves"].append({"player": who, **move})
    result = state.result()
    t["result"] = result.to_json() if result else None
    return t


@pytest.mark.parametrize("players, options, policy", [
    (2, {}, "mixed"),
    (2, {"numbering": "1-4-twice", "repetition": 2}, "random"),
    (1, {"goal": "two-lines", "move_cap": 50}, "heuristic"),
    (1, {"goal": "four-lines", "move_cap": 50}, "random"),
], ids=["duel", "duel-1-4-twice", "solo-two-lines", "solo-four-lines"])
def test_lua_agrees_over_simulated_games_of_each_mode(players: int, options: dict[str, Any], policy: str,
                                                      lua: LuaEngine) -> None:
    report = AgreementReport(game="obren-buttons")
    for seed in range(12):
        ok = check_transcript("obren-buttons", simulated(seed, players, options, policy), lua, seed, report,
                              random.Random(seed), mutants_per_move=4)
        report.games += 1
        assert ok, report.summary()
    assert report.illegal_checks > report.moves
    assert max(report.instructions) < 20_000
