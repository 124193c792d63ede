"""Golden scenarios shared by the board and cooperative games' tests: a scenario file holds a
setup and steps, each a move made or a move refused (with the rule, and the message where the file
gives one), and is replayed through the Python engine and its Lua mirror side by side."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rules.core import Game, State, canonical_json, judge
from tts_builder.agreement import LuaEngine
from tts_builder.transcript import FORMAT, VERSION

Split = Callable[[dict[str, Any]], tuple[Any, Any]]


def load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def split(step: dict[str, Any]) -> tuple[Any, Any]:
    """A step's seat and its move."""
    return step.get("player"), {k: v for k, v in step.items() if k != "player"}


def scenario_transcript(game: Game, sc: dict[str, Any], moves: list[Any]) -> dict[str, Any]:
    """The transcript of a scenario's legal moves, claiming the scenario's result."""
    return {"format": FORMAT, "version": VERSION, "game": game.id, "options": sc["options"],
            "players": [{"name": f"P{i}"} for i in range(sc["players"])], "setup": sc["setup"],
            "moves": moves, "result": sc["result"]}


def replay_scenario(game: Game, lua: LuaEngine, sc: dict[str, Any],
                    split_step: Split = split) -> tuple[State, list[dict[str, Any]]]:
    """Every step judged by Python and Lua alike (a refusal names the step's rule, and its message
    where the step gives one); each legal move made in both, their states equal after it. Returns
    the final Python state and the legal steps."""
    state = game.new_state(options=sc["options"], setup=sc["setup"], num_players=sc["players"])
    lstate = lua.new_state(sc["setup"], state.options())
    legal = []
    for step in sc["steps"]:
        if "refuse" in step:
            who, move = split_step(step["refuse"])
            verdict = judge(state, who, move)
            lv = lua.judge(lstate, who, move)
            assert not verdict.ok and verdict.rule == step["rule"] and lv["rule"] == step["rule"], (step, verdict, lv)
            if "message" in step:
                assert verdict.message == step["message"] and lv["message"] == step["message"], (step, verdict, lv)
        else:
            who, move = split_step(step)
            assert judge(state, who, move).ok, step
            assert lua.judge(lstate, who, move)["ok"], step
            state.apply(move)
            lua.apply(lstate, move)
            assert lua.state_json(lstate) == canonical_json(state.to_json())
            legal.append(step)
    return state, legal
