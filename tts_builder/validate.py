"""Replay a transcript (or the transcript inside a TTS save) through the engine."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rules.core import canonical_json, judge
from tts_builder.errors import InputError
from tts_builder.fileio import load_json_file, parse_json_text
from tts_builder.transcript import parse_transcript, split_move

SAVE_STATE_KEY = "transcript"


@dataclass
class Violation:
    move: int | None     # 0-based index in "moves"; None for the recorded result
    player: Any
    rule: str
    message: str
    section: str = ""
    penalty: str = ""

    def to_json(self) -> dict[str, Any]:
        out = {"move": self.move, "player": self.player, "rule": self.rule, "message": self.message,
               "section": self.section}
        if self.penalty:
            out["penalty"] = self.penalty
        return out


@dataclass
class Report:
    file: str
    game: str
    moves_total: int
    moves_checked: int = 0
    violations: list[Violation] = field(default_factory=list)
    result: dict[str, Any] | None = None
    recorded_result: Any = None
    finished: bool = False

    @property
    def legal(self) -> bool:
        return not self.violations

    def to_json(self) -> dict[str, Any]:
        return {"file": self.file, "game": self.game, "verdict": "legal" if self.legal else "illegal",
                "moves_checked": self.moves_checked, "moves_total": self.moves_total,
                "violations": [v.to_json() for v in self.violations], "result": self.result,
                "recorded_result": self.recorded_result, "finished": self.finished}

    def summary(self) -> str:
        if self.violations:
            v = self.violations[0]
            where = "the recorded result" if v.move is None else f"move {v.move} (player {v.player})"
            tail = f" ({v.section})" if v.section else ""
            pen = f"; the rulebook's penalty: {v.penalty}" if v.penalty else ""
            return f"{self.file}: illegal at {where}: [{v.rule}] {v.message}{tail}{pen}"
        state = "finished" if self.finished else "unfinished"
        res = ""
        if self.result:
            w = self.result.get("winner")
            res = ", a draw" if w is None else f", player {w} wins ({self.result.get('reason')})"
        return f"{self.file}: legal, {self.moves_checked} moves, {state}{res}"


def extract_transcript(data: Any, source: str) -> Any:
    """The transcript itself, or the one recorded in a TTS save's Global state."""
    if isinstance(data, dict) and "ObjectStates" in data and "format" not in data:
        raw = data.get("LuaScriptState")
        if not isinstance(raw, str) or not raw.strip():
            raise InputError(f"{source}: a TTS save with no recorded transcript (LuaScriptState is empty)")
        state = parse_json_text(raw, f"{source} LuaScriptState")
        if not isinstance(state, dict) or SAVE_STATE_KEY not in state:
            raise InputError(f"{source}: a TTS save with no recorded transcript (not a tts-builder mod?)")
        return state[SAVE_STATE_KEY]
    return data


def validate_data(data: Any, source: str) -> Report:
    transcript = extract_transcript(data, source)
    game, state, moves = parse_transcript(transcript, source)
    report = Report(file=source, game=game.id, moves_total=len(moves),
                    recorded_result=transcript.get("result"))
    for index, entry in enumerate(moves):
        player, move = split_move(entry)
        report.moves_checked += 1
        verdict = judge(state, player, move)
        if not verdict.ok:
            report.violations.append(Violation(index, player, verdict.rule, verdict.message,
                                               verdict.section, verdict.penalty))
            if verdict.penalty == "forfeit" and isinstance(player, int):
                others = [p for p in range(state.num_players()) if p != player]
                report.result = {"winner": others[0] if len(others) == 1 else None, "reason": "forfeit",
                                 "rule": verdict.rule, "forfeited_by": player}
            return report
        state.apply(move)
    result = state.result()
    report.finished = result is not None
    report.result = result.to_json() if result else None
    recorded = transcript.get("result")
    if recorded is not None and result is not None:
        if recorded.get("winner") != result.winner or recorded.get("reason") != result.reason:
            report.violations.append(Violation(None, None, "result", "The recorded result "
                                               f"{canonical_json(recorded)} differs from the replay's "
                                               f"{canonical_json(report.result)}."))
    elif recorded is not None and result is None:
        report.violations.append(Violation(None, None, "result", "The transcript records a result, "
                                           "but the game is not over after its last move."))
    return report


def validate_file(path: str | Path) -> Report:
    return validate_data(load_json_file(path), str(path))
