"""Replay a transcript (or the transcript inside a TTS save) through the engine.

Strict by default: a move carrying a field its move type does not take (``{"type": "pass",
"card": "c1200"}``) is refused under the game's ``move-format`` rule, and so is a recorded
result field the replay does not produce. The check lives here, not in the engines: the
engines (and their Lua mirror) judge moves the mod builds, which never carry extra fields,
while what to make of another recorder's extra fields is the reader's choice; ``lenient``
drops them before judging instead.

Several files make a batch (:func:`iter_validate`): an unusable file does not stop the
others; the tally and the worst exit code (:class:`Tally`) cover them all.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Iterator, Mapping

from rules.core import RESULT_KEYS, Result, State, canonical_json, judge, name_in, seat_label
from tts_builder.errors import InputError
from tts_builder.fileio import load_json_file, parse_json_bytes, parse_json_text
from tts_builder.parallel import ordered_map
from tts_builder.sources import NoTranscripts, Source, expand_one
from tts_builder.transcript import check_entries, move_fields, parse_transcript, unknown_fields

SAVE_STATE_KEY = "transcript"
#: the order in which result fields are compared (then the game's detail, sorted).
_RESULT_ORDER = ("outcome", "kind", "winner", "winners", "team", "reason", "score", "scores")
assert set(_RESULT_ORDER) == set(RESULT_KEYS)


@dataclass
class Violation:
    move: int | None     # 0-based index in "moves"; None for the recorded result or settings
    player: Any
    rule: str
    message: str
    section: str = ""
    penalty: str = ""
    field: str = ""      # the transcript field at fault when it is not a move: "result/scores", "players"

    def to_json(self) -> dict[str, Any]:
        out = {"move": self.move, "player": self.player, "rule": self.rule, "message": self.message,
               "section": self.section}
        if self.penalty:
            out["penalty"] = self.penalty
        if self.field:
            out["field"] = self.field
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
    #: the seat names (the transcript's players), for the result in words.
    players: list[str] = field(default_factory=list)
    #: the replay's result (or the forfeit a penalised move brings), for :meth:`Result.describe`.
    outcome: Result | None = None
    #: how the text names each seat: the player's name, else the game's name for the seat
    seat_names: list[str] = field(default_factory=list)

    def seat(self, player: Any) -> str:
        """How the text names ``player``: as ``show`` does ("White", "Seat 2", "seat x")."""
        return name_in(player, self.seat_names)

    @property
    def legal(self) -> bool:
        return not self.violations

    @property
    def verdict(self) -> str:
        return "legal" if self.legal else "illegal"

    def result_text(self) -> str:
        """The result in words ("White wins 3 sets to 1", "Draw"); empty while unfinished."""
        return self.outcome.describe(self.players) if self.outcome else ""

    def to_json(self) -> dict[str, Any]:
        return {"file": self.file, "game": self.game, "verdict": self.verdict,
                "moves_checked": self.moves_checked, "moves_total": self.moves_total,
                "violations": [v.to_json() for v in self.violations], "result": self.result,
                "result_text": self.result_text(), "recorded_result": self.recorded_result,
                "finished": self.finished}

    def summary(self) -> str:
        if self.violations:
            v = self.violations[0]
            if v.move is not None:  # counted from 1 for people, as show and replay do (--json: from 0)
                where = f"move {v.move + 1} by {self.seat(v.player)}"
            elif v.field.startswith("result"):
                where = "the recorded result"
            else:
                where = f"field {v.field or 'result'}"
            tail = f" ({v.section})" if v.section else ""
            pen = f"; the rulebook's penalty: {v.penalty}" if v.penalty else ""
            more = f" (+{len(self.violations) - 1} more)" if len(self.violations) > 1 else ""
            return f"{self.file}: illegal at {where}: [{v.rule}] {v.message}{tail}{pen}{more}"
        if not self.finished:
            return f"{self.file}: legal, {self.moves_checked} moves, unfinished"
        return f"{self.file}: legal, {self.moves_checked} moves, finished: {self.result_text()}"


@dataclass
class Unusable:
    """A file of a batch that could not be used (exit 2 on its own)."""

    file: str
    error: str
    #: an argument that stands for no file at all (an empty folder, a pattern matching nothing):
    #: its error is printed, but it is not a file of the tally
    argument: bool = False

    verdict = "unusable"

    def to_json(self) -> dict[str, Any]:
        return {"file": self.file, "verdict": self.verdict, "error": self.error}


def seat_names(state: State, players: list[str]) -> list[str]:
    """Each seat's name: the transcript's player name, else the game's name for the seat
    (:func:`rules.core.seat_label`)."""
    return [(players[seat] if seat < len(players) else "") or seat_label(state, seat)
            for seat in range(state.num_players())]


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


def _settings_violations(game: Any, state: State, players: int | None,
                         options: Mapping[str, Any] | None) -> list[Violation]:
    """``--players``/``--options`` are expectations a transcript must meet (a tournament's format),
    not overrides: the recorded setup only replays with the recorded seats and options."""
    out: list[Violation] = []
    if players is not None and state.num_players() != players:
        out.append(Violation(None, None, "players", f"The transcript seats {state.num_players()} players, "
                             f"not the {players} asked for.", field="players"))
    if options:
        try:
            expected = game.resolve_options(options)
        except ValueError as exc:
            return out + [Violation(None, None, "options", f"--options: {exc}", field="options")]
        recorded = state.options()
        for key in sorted(options):
            if recorded.get(key) != expected[key]:
                out.append(Violation(None, None, "options", f"The transcript plays option {key} = "
                                     f"{canonical_json(recorded.get(key))}, not the "
                                     f"{canonical_json(expected[key])} asked for.", field=f"options/{key}"))
    return out


def _result_order(keys: Iterable[str]) -> list[str]:
    keys = list(keys)
    return [k for k in _RESULT_ORDER if k in keys] + sorted(k for k in keys if k not in _RESULT_ORDER)


_PLAIN = frozenset({str, int, bool, type(None)})  # compared by ==, once their types are the same


def _same_json(a: Any, b: Any) -> bool:
    """True only when ``a`` and ``b`` surely have the same canonical JSON: same types all the way
    down and equal (``True``/``1``/``1.0`` differ). False sends them to canonical_json. Runs on
    every validated result: scalars are compared in the loop, not by a call each.

    >>> _same_json({"a": [1, "x", None]}, {"a": [1, "x", None]}), _same_json([1], [True]), _same_json(1.0, 1.0)
    (True, False, False)
    """
    ta = type(a)
    if ta is not type(b):
        return False
    if ta is dict:
        if a.keys() != b.keys():
            return False
        pairs: Iterable[tuple[Any, Any]] = zip(a.values(), map(b.__getitem__, a))  # no generator frame
    elif ta is list:
        if len(a) != len(b):
            return False
        pairs = zip(a, b)
    else:  # a float: -0.0 == 0.0, nan != nan: let the text decide
        return ta in _PLAIN and bool(a == b)
    for v, w in pairs:
        tv = type(v)
        if tv is not type(w):
            return False
        if tv in _PLAIN:
            if v != w:
                return False
        elif not _same_json(v, w):
            return False
    return True


def compare_results(recorded: Mapping[str, Any], replay: Result, *, lenient: bool = False,
                    ours: Mapping[str, Any] | None = None) -> list[Violation]:
    """Every field of the recorded result against the replay's, each difference named.

    Fields the recorder left out are not compared, except what they imply: a result with no
    ``winner`` (nor ``winners``/``outcome``) records a draw, which the replay must also be.
    A recorded field the replay does not produce is a difference unless ``lenient``. ``ours`` is
    ``replay.to_json()`` where the caller has it.
    """
    if ours is None:
        ours = replay.to_json()
    if type(recorded) is dict and not {"winner", "winners", "outcome"}.isdisjoint(recorded) \
            and _same_json(recorded, ours):
        return []  # the same fields with the same values: nothing differs, nothing is implied
    out: list[Violation] = []

    def differs(key: str, message: str) -> None:
        out.append(Violation(None, None, "result", message, field=f"result/{key}"))

    for key in _result_order(recorded):
        if key not in ours:
            if not lenient:
                differs(key, f"The recorded result has a field {key} ({canonical_json(recorded[key])}) "
                        "that the replay does not produce.")
            continue
        if not _same_json(recorded[key], ours[key]) and canonical_json(recorded[key]) != canonical_json(ours[key]):
            differs(key, f"The recorded result's {key} is {canonical_json(recorded[key])}; "
                    f"the replay's is {canonical_json(ours[key])}.")
    if not out and not {"winner", "winners", "outcome"} & set(recorded):
        try:
            implied = Result.from_json(recorded)
        except ValueError:
            implied = None
        if implied is not None and implied.outcome != replay.outcome:
            differs("winner", f"The recorded result names no winner ({implied.outcome}); "
                    f"the replay's is {replay.outcome} for seats {replay.winners}.")
    return out


def _penalty_result(state: State, player: Any, rule: str) -> Result | None:
    """The result a forfeit penalty brings: the engine's own forfeit where the player may
    concede now, else, between two seats, the other seat's win."""
    if not isinstance(player, int):
        return None
    detail = {"rule": rule, "forfeited_by": player}
    trial = state.clone()
    if judge(trial, player, {"type": "forfeit"}).ok:
        trial.apply({"type": "forfeit"})
        result = trial.result()
        if result is not None:
            result.detail.update(detail)
            return result
    if state.num_players() == 2 and player in (0, 1):
        return Result.win(1 - player, None, "forfeit", detail, state.game.score_unit)
    return None


def validate_data(data: Any, source: str, *, lenient: bool = False, players: int | None = None,
                  options: Mapping[str, Any] | None = None) -> Report:
    """Replay one transcript (or save); InputError when it cannot be used at all."""
    transcript = extract_transcript(data, source)
    # each entry's envelope checked here, as it is read (a transcript with one that is not well
    # formed is still unusable: InputError, whatever is judged before it)
    game, state, moves = parse_transcript(transcript, source, entries_later=True)
    report = Report(file=source, game=game.id, moves_total=len(moves),
                    recorded_result=transcript.get("result"),
                    players=[str(p.get("name", "")) for p in transcript["players"]])
    report.seat_names = seat_names(state, report.players)
    report.violations += _settings_violations(game, state, players, options)
    move_format = game.rules.get("move-format")
    fields = move_fields(game.id)
    # judge_apply's own shortcut, its test hoisted out of the loop: a game judging moves once
    # (try_apply) when the seat is the one to move; a game with its own try_apply_for (judge_apply's
    # way, the seat tested on its fast paths) is asked that for every move
    once = type(state).check_for is State.check_for and type(state).try_apply_for is State.try_apply_for
    current, is_terminal, try_apply = state.current_player, state.is_terminal, state.try_apply
    try_apply_for = state.try_apply_for  # judge_apply's other way
    no_extra: list[str] = []  # shared, never changed
    # the game's one-pass judgement of a whole entry, where it has one (the commonest moves, made
    # without splitting the entry or checking its fields here)
    made_at_once = state.try_make_entry if type(state).try_make_entry is not State.try_make_entry else None
    for index, entry in enumerate(moves):
        if made_at_once is not None and made_at_once(entry):
            continue  # a well-formed entry, its move made
        if not isinstance(entry, dict):
            check_entries(moves, source, index)  # raises: not an object
        move = dict(entry)  # split_move, inlined: it runs per move
        player = move.pop("player", None)
        if type(player) is not int or player < 0:  # entry_well_formed, inlined: it runs per move
            check_entries(moves, source, index)  # raises, but for a seat the schema takes (1.0)
        mtype = move.get("type")
        known = fields.get(mtype) if isinstance(mtype, str) else None
        extra = no_extra if known is None or move.keys() <= known else unknown_fields(game.id, move)
        if extra and lenient:
            move = {k: v for k, v in move.items() if k not in extra}
        # made when legal (the state is not used after a refusal)
        if once and player == current() and not is_terminal():
            verdict = try_apply(move)
        else:
            verdict = try_apply_for(player, move)
        if verdict.ok and not extra:
            continue  # the usual move: nothing to note
        report.moves_checked = index + 1
        if not verdict.ok or not lenient:  # the replay stops here: the entries after are not read
            check_entries(moves, source, index + 1)
        if verdict.ok and not lenient:
            # after the engine's judgement, whose rule is more precise where it reads the field
            # (a Skip card declared with a "flip" is refused under "flip")
            report.violations.append(Violation(
                index, player, "move-format", f"A {move['type']} move takes no field "
                f"{' or '.join(repr(k) for k in extra)} (--lenient ignores unknown fields).",
                move_format.section if move_format else ""))
            return report
        if not verdict.ok:
            report.violations.append(Violation(index, player, verdict.rule, verdict.message,
                                               verdict.section, verdict.penalty))
            if verdict.penalty == "forfeit":
                report.outcome = _penalty_result(state, player, verdict.rule)
                report.result = report.outcome.to_json() if report.outcome else None
            return report
    report.moves_checked = len(moves)
    result = state.result()
    report.finished = result is not None
    report.outcome = result
    report.result = result.to_json() if result else None
    recorded = transcript.get("result")
    if recorded is not None and result is not None:
        report.violations += compare_results(recorded, result, lenient=lenient, ours=report.result)
    elif recorded is not None and result is None:
        report.violations.append(Violation(None, None, "result", "The transcript records a result, "
                                           "but the game is not over after its last move.", field="result"))
    return report


def validate_file(path: str | Path, *, lenient: bool = False, players: int | None = None,
                  options: Mapping[str, Any] | None = None) -> Report:
    return validate_data(load_json_file(path), str(path), lenient=lenient, players=players, options=options)


def validate_source(source: Source, *, lenient: bool = False, players: int | None = None,
                    options: Mapping[str, Any] | None = None) -> Report:
    """:func:`validate_file` for a file or an archive member."""
    return validate_data(parse_json_bytes(source.read(), source.name), source.name, lenient=lenient,
                         players=players, options=options)


#: one file of a batch: where it is (or its bytes, read by the client for a Dask cluster, whose
#: workers need not see its folders), or the error its argument already gave
_Job = tuple[Source | tuple[str, bytes] | Unusable, bool, int | None, Mapping[str, Any] | None]


def _validate_entry(job: _Job) -> Report | Unusable:
    """One file of :func:`iter_validate`; module-level so a worker process can run it."""
    where, lenient, players, options = job
    if isinstance(where, Unusable):
        return where
    name = where.name if isinstance(where, Source) else where[0]
    try:
        if isinstance(where, Source):
            return validate_source(where, lenient=lenient, players=players, options=options)
        return validate_data(parse_json_bytes(where[1], name), name, lenient=lenient,
                             players=players, options=options)
    except InputError as exc:
        return Unusable(name, str(exc))


def _jobs(args: Iterable[str | Path], lenient: bool, players: int | None,
          options: Mapping[str, Any] | None, read_here: bool) -> Iterator[_Job]:
    """A job per transcript the arguments stand for; an argument that stands for nothing (an
    empty folder, a pattern matching nothing, a damaged zip) is one unusable entry."""
    for arg in args:
        try:
            for source in expand_one(os.fspath(arg)):
                if read_here:
                    try:
                        yield ((source.name, source.read()), lenient, players, options)
                    except InputError as exc:
                        yield (Unusable(source.name, str(exc)), lenient, players, options)
                else:
                    yield (source, lenient, players, options)
        except NoTranscripts as exc:  # no file: its error line, not a file of the tally
            yield (Unusable(os.fspath(arg), str(exc), argument=True), lenient, players, options)
        except InputError as exc:  # a file that cannot be opened as what it says it is (a damaged zip)
            yield (Unusable(os.fspath(arg), str(exc)), lenient, players, options)


def iter_validate(args: Iterable[str | Path], *, lenient: bool = False, players: int | None = None,
                  options: Mapping[str, Any] | None = None, jobs: int = 1,
                  scheduler: str | None = None) -> Iterator[Report | Unusable]:
    """One entry per transcript, in order, as they are judged: a :class:`Report`, or
    :class:`Unusable` with the one-line error. Each argument is a file (a transcript or a TTS save
    carrying one), a folder (its ``.json`` files, subfolders too, sorted), a zip archive (its
    ``.json`` members, sorted) or a glob pattern. ``jobs`` worker processes, or the Dask cluster
    at ``scheduler``, share the files; the entries are the same whatever runs them."""
    work = _jobs(args, lenient, players, options, read_here=scheduler is not None)
    return ordered_map(_validate_entry, work, jobs, scheduler=scheduler)


def batch_game(args: Iterable[str | Path]) -> str | None:
    """The game of the first transcript ``args`` stand for (the one ``--options``/``--players``
    are checked against before the batch is judged), or None when it cannot be told (no
    readable transcript first): each file's own replay then reports what is wrong with it."""
    for arg in args:
        try:
            for source in expand_one(os.fspath(arg)):
                data = extract_transcript(parse_json_bytes(source.read(), source.name), source.name)
                game = data.get("game") if isinstance(data, dict) else None
                return game if isinstance(game, str) else None
        except InputError:
            return None
    return None


def validate_batch(paths: Iterable[str | Path], *, lenient: bool = False, players: int | None = None,
                   options: Mapping[str, Any] | None = None, jobs: int = 1,
                   scheduler: str | None = None) -> list[Report | Unusable]:
    """:func:`iter_validate` as a list."""
    return list(iter_validate(paths, lenient=lenient, players=players, options=options, jobs=jobs,
                              scheduler=scheduler))


class Tally:
    """Verdict counts and the worst exit code of a batch, kept as entries stream past."""

    def __init__(self) -> None:
        self.counts = {"legal": 0, "illegal": 0, "unusable": 0}
        self.exit_code = 0

    def add(self, entry: Report | Unusable) -> None:
        if not (isinstance(entry, Unusable) and entry.argument):  # no file: its error says so
            self.counts[entry.verdict] += 1
        self.exit_code = max(self.exit_code, 2 if isinstance(entry, Unusable) else 0 if entry.legal else 1)

    @property
    def files(self) -> int:
        return sum(self.counts.values())

    def __str__(self) -> str:
        n = self.files
        return f"{n} file{'s' if n != 1 else ''}: " + ", ".join(f"{c} {v}" for v, c in self.counts.items())
