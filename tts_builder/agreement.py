"""Lua-versus-Python agreement: the generated Lua rules, run under Lua 5.2 with
the TTS sandbox, must give the same verdict, the same rule id and the same
state as the Python engine on every move of every game.

For each simulated game, at every position, both engines judge the recorded
move and a handful of illegal mutants of it (wrong cards, missing fields, the
other player); then both apply the recorded move and their states must be the
same canonical JSON (compared by digest). The first disagreement is reported
with what replays it.
"""

from __future__ import annotations

import hashlib
import json
import random
import statistics
from dataclasses import dataclass, field
from typing import Any, Callable

import rules
from rules.core import Verdict, canonical_json, judge
from rules.mutate import mutants
from tts_builder.luagen import render_rules_lua
from tts_builder.luasandbox import LuaSandbox, LuaSandboxError
from tts_builder.simulate import play_game
from tts_builder.transcript import split_move

#: instructions one rules check may take before it is a failure (a TTS frame
#: budget is the concern; the benchmark reports the real figures).
CHECK_BUDGET = 200_000


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode("ascii")).hexdigest()[:16]


@dataclass
class Disagreement:
    seed: int
    move_index: int
    player: Any
    move: Any
    kind: str          # verdict | state | lua-error
    python: Any
    lua: Any

    def describe(self, game_id: str) -> str:
        return (f"seed {self.seed}, move {self.move_index} (player {self.player}): {self.kind} differs\n"
                f"  move:   {canonical_json(self.move)}\n  python: {self.python}\n  lua:    {self.lua}\n"
                f"  replay: tts-builder check-lua {game_id} --games 1 --seed {self.seed}")


@dataclass
class AgreementReport:
    game: str
    games: int = 0
    moves: int = 0
    checks: int = 0
    illegal_checks: int = 0
    disagreements: list[Disagreement] = field(default_factory=list)
    instructions: list[int] = field(default_factory=list)

    @property
    def agree(self) -> bool:
        return not self.disagreements

    def summary(self) -> str:
        if self.disagreements:
            return f"{self.game}: DISAGREE\n{self.disagreements[0].describe(self.game)}"
        ins = self.instructions or [0]
        return (f"{self.game}: Lua and Python agree on {self.games} games, {self.moves} moves, "
                f"{self.checks} checks ({self.illegal_checks} illegal); Lua instructions per check: "
                f"mean {statistics.fmean(ins):,.0f}, max {max(ins):,}")


class LuaEngine:
    """The generated rules module loaded into a sandbox, with Python-friendly calls.

    Moves, setups and options cross into Lua as a save reload brings them: as
    JSON text read by the runtime's own ``U.json_decode``, so a JSON null
    arrives as ``U.NULL``, ``{}`` and ``[]`` stay apart (tagged objects and
    arrays) and every field the Python side sees reaches the Lua rules. The
    decoding runs in its own sandbox call, so ``last_instructions`` after
    :meth:`judge` counts the rules check alone.
    """

    def __init__(self, game_id: str, sandbox: LuaSandbox | None = None):
        self.sandbox = sandbox or LuaSandbox(default_budget=CHECK_BUDGET)
        self.rules = self.sandbox.execute(render_rules_lua(game_id), f"{game_id}/rules.lua")

    def decode(self, value: Any) -> Any:
        """``value`` as the Lua runtime reads it from its JSON text (``U.json_decode``)."""
        text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False)
        return self.sandbox.call(self.rules.json_decode, text)

    def new_state(self, setup: dict[str, Any], options: dict[str, Any]) -> Any:
        return self.sandbox.call(self.rules.new_state, self.decode(setup), self.decode(options))

    def judge(self, state: Any, player: Any, move: Any) -> dict[str, Any]:
        lua_move = self.decode(move)
        result = self.sandbox.call(self.rules.judge, state, player, lua_move)
        out: dict[str, Any] = self.sandbox.from_lua(result, empty_as="dict")
        return out

    def apply(self, state: Any, move: Any) -> None:
        self.sandbox.call(self.rules.apply, state, self.decode(move))

    def state_json(self, state: Any) -> str:
        text: str = self.sandbox.call(self.rules.json, state)
        return text


def _verdict_key(v: Verdict | dict[str, Any]) -> tuple[bool, str]:
    if isinstance(v, Verdict):
        return (v.ok, v.rule if not v.ok else "")
    return (bool(v.get("ok")), "" if v.get("ok") else str(v.get("rule")))


def check_transcript(game_id: str, transcript: dict[str, Any], lua: LuaEngine, seed: int,
                     report: AgreementReport, rng: random.Random, mutants_per_move: int = 3) -> bool:
    game = rules.get_game(game_id)
    state = game.new_state(setup=transcript["setup"], options=transcript["options"])
    try:
        lstate = lua.new_state(transcript["setup"], transcript["options"])
    except LuaSandboxError as exc:
        report.disagreements.append(Disagreement(seed, -1, None, None, "lua-error", "new game", str(exc)))
        return False
    for index, entry in enumerate(transcript["moves"]):
        player, move = split_move(entry)
        candidates: list[tuple[Any, Any]] = [(player, move)]
        pool = list(mutants(move, state, rng))
        candidates += [(player, m) for m in rng.sample(pool, min(mutants_per_move, len(pool)))]
        candidates.append((1 - player if isinstance(player, int) and player in (0, 1) else player + 1, move))
        for who, cand in candidates:
            py = judge(state, who, cand)
            try:
                lv = lua.judge(lstate, who, cand)
            except LuaSandboxError as exc:
                report.disagreements.append(Disagreement(seed, index, who, cand, "lua-error", py.to_json(), str(exc)))
                return False
            report.instructions.append(lua.sandbox.last_instructions)
            report.checks += 1
            report.illegal_checks += not py.ok
            if _verdict_key(py) != _verdict_key(lv):
                report.disagreements.append(Disagreement(seed, index, who, cand, "verdict", py.to_json(), lv))
                return False
        state.apply(move)
        lua.apply(lstate, move)
        report.moves += 1
        py_json = canonical_json(state.to_json())
        lua_json = lua.state_json(lstate)
        if py_json != lua_json:
            report.disagreements.append(Disagreement(
                seed, index, player, move, "state", f"{_digest(py_json)} {py_json}", f"{_digest(lua_json)} {lua_json}"))
            return False
    return True


def check_lua(game_id: str, games: int, seed: int, *, policy: str = "mixed", mutants_per_move: int = 3,
              progress: Callable[[int, int], None] | None = None) -> AgreementReport:
    report = AgreementReport(game=game_id)
    lua = LuaEngine(game_id)
    for i in range(games):
        game_seed = seed + i
        transcript = play_game(game_id, game_seed, policy=policy)
        rng = random.Random(f"check-lua/{game_id}/{game_seed}")
        ok = check_transcript(game_id, transcript, lua, game_seed, report, rng, mutants_per_move)
        report.games += 1
        if progress:
            progress(i + 1, games)
        if not ok:
            break
    return report
