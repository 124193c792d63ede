"""Two by Two goldens: hand-written scenarios (each refusal naming the rule and the words the
author expected) and recorded games with their worked scores, replayed through the Python
engine, the validator and the Lua mirror; together they name every rule id."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from rules.core import judge
from rules.two_by_two import GAME, ark_points
from tts_builder.agreement import AgreementReport, LuaEngine, check_transcript
from tts_builder.validate import validate_data

from goldens import load, replay_scenario, scenario_transcript, split

GOLDEN = Path(__file__).parent / "golden" / "two-by-two"
SCENARIOS = sorted(p for p in GOLDEN.glob("*.json") if not p.name.endswith(".transcript.json"))
PLAYED = sorted(GOLDEN.glob("*.transcript.json"))



@pytest.fixture(scope="module")
def lua() -> LuaEngine:
    return LuaEngine("two-by-two")



@pytest.mark.parametrize("path", SCENARIOS, ids=lambda p: p.stem)
def test_scenario_refusals_in_python_and_lua(path: Path, lua: LuaEngine) -> None:
    sc = load(path)
    state, legal = replay_scenario(GAME, lua, sc)
    assert (state.result().to_json() if state.result() else None) == sc["result"]
    transcript = scenario_transcript(GAME, sc, legal)
    report = validate_data(transcript, path.name)
    assert report.legal and report.moves_checked == len(legal), report.summary()


@pytest.mark.parametrize("path", PLAYED, ids=lambda p: p.stem)
def test_recorded_games_validate_with_worked_scores_and_lua_agrees(path: Path, lua: LuaEngine) -> None:
    transcript = load(path)
    report = validate_data(json.loads(json.dumps(transcript)), path.name)
    assert report.legal and report.finished, report.summary()
    assert report.result == transcript["result"]
    result = transcript["result"]
    # the worked score: the track (start place + water points) plus the ark's pairs
    assert result["scores"] == [t + a for t, a in zip(result["track"], result["ark_points"])]
    state = GAME.new_state(setup=transcript["setup"], options=transcript["options"],
                           num_players=len(transcript["players"]))
    water = [0] * len(transcript["players"])
    for entry in transcript["moves"]:
        who, move = split(entry)
        if move["type"] == "water":
            before = state.s["track"][who]
            state.apply(move)
            water[who] += state.s["track"][who] - before
        else:
            state.apply(move)
    assert result["track"] == [seat + 1 + water[seat] for seat in range(len(water))]
    assert result["ark_points"] == ark_points(state.s["rescued"], state.s["colors"], result["scoring"])
    assert result["animals"] == [2 * len(r) for r in state.s["rescued"]]
    agreement = AgreementReport(game="two-by-two")
    assert check_transcript("two-by-two", transcript, lua, 0, agreement, random.Random(path.name)), agreement.summary()


def test_goldens_cover_every_rule_and_both_scorings() -> None:
    named = {s["rule"] for p in SCENARIOS for s in load(p)["steps"] if "refuse" in s}
    named.add("game-over")  # every recorded game ends; the replay refuses a move after it (below)
    assert named == set(GAME.rules), set(GAME.rules) - named
    scorings = {load(p)["options"].get("scoring", "basic") for p in PLAYED}
    assert scorings == {"basic", "advanced"}
    assert {len(load(p)["players"]) for p in PLAYED} == {2, 3, 4}
    finished = load(PLAYED[0])
    state = GAME.new_state(setup=finished["setup"], options=finished["options"],
                           num_players=len(finished["players"]))
    for entry in finished["moves"]:
        state.apply(split(entry)[1])
    assert judge(state, 0, {"type": "pass"}).rule == "game-over"
