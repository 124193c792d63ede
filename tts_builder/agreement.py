"""Lua-versus-Python agreement: the generated Lua rules, run under Lua 5.2 with
the TTS sandbox, must give the same verdict, the same rule id and the same
state as the Python engine on every move of every game, and a refusal the same message text
(the words a player reads: a seat named alike, the failed condition alike).

For each simulated game, at every position, both engines judge the recorded
move and a handful of illegal mutants of it (wrong cards, missing fields, the
other player); then both apply the recorded move and their states must be the
same canonical JSON text (the whole state, every move; a digest only labels
a disagreement). The first disagreement is reported with what replays it.

Each game is one Lua call (``lua_templates/runtime/check.lua.j2``), after Python has
judged and made all its moves: for each move the recorded move and its mutants cross
as one JSON text, and Lua judges each, judges the recorded move for the other seat,
makes it and writes its state. Each of those steps runs through
:attr:`LuaSandbox.measure` under its own instruction budget, so a check's instruction
count is what a call of its own counted. Lua compares its verdicts and state text with
Python's, move by move, and answers where they first differ. Whenever anything differs
or fails, the game is checked again one Lua call per step
(:func:`_check_transcript_stepwise`, the checker as it was), which words the report.

``check-lua`` checks each move as the simulated players choose it (:func:`check_played_game`:
one Python position for playing and checking, each move made once); a recorded transcript is
checked move by move the same way (:func:`check_transcript`).
"""

from __future__ import annotations

import hashlib
import json
import random
import statistics
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

import rules
from rules.core import State, Verdict, canonical_json, copy_json, judge
from rules.mutate import mutants, sample_mutants
from tts_builder.errors import InputError, require_game
from tts_builder.luagen import render, render_rules_lua
from tts_builder.luasandbox import LuaSandbox, LuaSandboxError, _LuaTable
from tts_builder.parallel import ordered_map
from tts_builder.simulate import new_game, play_game
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
    kind: str          # verdict | state | result | lua-error
    python: Any
    lua: Any
    #: the --players/--options of the game's combination, for the replay command.
    replay_args: str = ""

    def describe(self, game_id: str) -> str:
        return (f"seed {self.seed}, move {self.move_index} (player {self.player}): {self.kind} differs\n"
                f"  move:   {canonical_json(self.move)}\n  python: {_shown(self.python)}\n  lua:    {_shown(self.lua)}\n"
                f"  replay: tts-builder check-lua {game_id} --games 1 --seed {self.seed}{self.replay_args}")


def _shown(value: Any) -> str:
    """A side's answer as the report prints it: a table as canonical JSON (sorted keys: a Lua
    table's keys come out in an order that differs between Lua states, so between runs)."""
    return canonical_json(value) if isinstance(value, (dict, list)) else str(value)


@dataclass(frozen=True)
class Combination:
    """One seat count and set of options that check-lua plays."""

    players: int
    options: tuple[tuple[str, Any], ...] = ()

    @property
    def options_dict(self) -> dict[str, Any]:
        return dict(self.options)

    def label(self) -> str:
        opts = canonical_json(self.options_dict) if self.options else "default options"
        return f"{self.players} player{'' if self.players == 1 else 's'}, {opts}"

    def replay_args(self) -> str:
        args = f" --players {self.players}"
        if self.options:
            args += " --options '" + canonical_json(self.options_dict) + "'"
        return args


@dataclass
class CombinationCount:
    games: int = 0
    moves: int = 0
    checks: int = 0


@dataclass
class AgreementReport:
    game: str
    games: int = 0
    moves: int = 0
    checks: int = 0
    illegal_checks: int = 0
    disagreements: list[Disagreement] = field(default_factory=list)
    instructions: list[int] = field(default_factory=list)
    #: games, moves and checks per combination of seat count and options, in play order.
    combinations: dict[Combination, CombinationCount] = field(default_factory=dict)
    #: the seat counts and options check-lua left out, and why: (label, reason), in sweep order.
    left_out: list[tuple[str, str]] = field(default_factory=list)

    @property
    def agree(self) -> bool:
        return not self.disagreements

    def combination_lines(self) -> list[str]:
        """A line per combination played, then one per combination not exercised saying why:
        too few games to reach it, or the game refuses it, or it plays the same options as one
        played."""
        played = [(combo, c) for combo, c in self.combinations.items() if c.games]
        lines = [f"  {combo.label()}: {c.games} game{'' if c.games == 1 else 's'}, {c.moves} moves, {c.checks} checks"
                 for combo, c in played]
        unplayed = [combo for combo, c in self.combinations.items() if not c.games]
        if unplayed:
            total = len(self.combinations)
            lines += [f"  not exercised: {combo.label()}: not reached by {self.games} game"
                      f"{'' if self.games == 1 else 's'} (one game per combination in turn; --games {total} "
                      "plays each)" for combo in unplayed]
        lines += [f"  not exercised: {label}: {reason}" for label, reason in self.left_out]
        return lines

    def exercised(self) -> str:
        """How many of the combinations found were played, in words."""
        played = sum(1 for c in self.combinations.values() if c.games)
        return f"{played} of {len(self.combinations) + len(self.left_out)} seat count and option combinations"

    def summary(self) -> str:
        lines = self.combination_lines() if len(self.combinations) > 1 or self.left_out else []
        if self.disagreements:
            return "\n".join([f"{self.game}: DISAGREE", *lines, self.disagreements[0].describe(self.game)])
        ins = self.instructions or [0]
        head = (f"{self.game}: Lua and Python agree on {self.games} games, {self.moves} moves, "
                f"{self.checks} checks ({self.illegal_checks} illegal), {self.exercised()} exercised; "
                f"Lua instructions per check: mean {statistics.fmean(ins):,.0f}, max {max(ins):,}")
        return "\n".join([head, *lines])


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
        return self.sandbox.call(self.rules.json_decode, _json_text(value))

    def check_moves(self) -> Any:
        """The checker's Lua function for these rules (``lua_templates/runtime/check.lua.j2``):
        ``check_moves(state, texts, players, others, keys, states, n)``, the moves of a game, each
        step under the sandbox's default budget. Made on first use (a subclass that loads other
        rules need not know of it)."""
        fn = self.__dict__.get("_check_moves")
        if fn is None:
            maker = self.sandbox.execute(render("runtime/check.lua.j2", {}), "check.lua")
            sandbox = self.sandbox
            fn = sandbox.call(maker, self.rules, sandbox.measure, sandbox.fire_limit(sandbox.default_budget),
                              sandbox.budgeted, sandbox.coarse_fire_limit(sandbox.default_budget))
            self.__dict__["_check_moves"] = fn
        return fn

    def new_state(self, setup: dict[str, Any], options: dict[str, Any]) -> Any:
        return self.sandbox.call(self.rules.new_state, self.decode(setup), self.decode(options))

    def judge(self, state: Any, player: Any, move: Any, lua_move: Any = None) -> dict[str, Any]:
        """The Lua verdict on ``move``; ``lua_move`` is its decoded form when the caller has it."""
        if lua_move is None:
            lua_move = self.decode(move)
        result = self.sandbox.call(self.rules.judge, state, player, lua_move)
        out: dict[str, Any] = self.sandbox.from_lua(result, empty_as="dict")
        return out

    def verdict(self, state: Any, player: Any, lua_move: Any) -> tuple[tuple[bool, str, str], Any]:
        """The Lua verdict on the decoded ``lua_move`` as ``(ok, rule, message)`` (rule and message
        "" when legal; what :func:`_verdict_key` makes of :meth:`judge`'s dict) and the Lua table
        itself. Reads the three fields alone; a verdict whose ``ok`` is not a boolean is converted
        whole, as :meth:`judge` does."""
        result = self.sandbox.call(self.rules.judge, state, player, lua_move)
        ok = result["ok"] if isinstance(result, _LuaTable) else None
        if type(ok) is not bool:
            return _verdict_key(self.sandbox.from_lua(result, empty_as="dict")), result
        if ok:
            return (True, "", ""), result
        return (False, str(self.sandbox.from_lua(result["rule"])), str(self.sandbox.from_lua(result["message"]))), result

    def apply(self, state: Any, move: Any, lua_move: Any = None) -> None:
        self.sandbox.call(self.rules.apply, state, self.decode(move) if lua_move is None else lua_move)

    def state_json(self, state: Any) -> str:
        """The Lua state's JSON text: the rules' own writer (``Rules.state_json``) where they have
        one, else the runtime's ``U.json`` (``Rules.json``); the same text either way."""
        writer = self.rules.state_json
        text: str = self.sandbox.call(self.rules.json if writer is None else writer, state)
        return text

    def end_state_json(self, state: Any) -> str | None:
        """The state's text by ``U.json`` where the rules write it with a writer of their own
        (None where they do not: :meth:`state_json` was ``U.json`` all along). A writer may keep
        a part's text while the state holds the same table (Twin Tower City's finished rounds,
        options and setup); the whole state written the plain way once a game, at its end,
        finds rules that changed such a part in place."""
        if self.rules.state_json is None:
            return None
        text: str = self.sandbox.call(self.rules.json, state)
        return text


#: the encoder of :func:`_json_text`, made once (json.dumps makes one a call when given options).
_MOVES_TEXT = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=True, allow_nan=False)


def _tree_encoder(encoder: json.JSONEncoder) -> Callable[[Any], str]:
    """``encoder.encode`` for JSON data that is a tree (no list or object inside itself: what a
    transcript's moves and a state's JSON are), the same text: the C encoder ``encode`` makes
    anew each call, made once and without the circular-reference bookkeeping (a JSON tree has no
    cycle to find). Without the C encoder, ``encoder.encode`` itself."""
    make = getattr(json.encoder, "c_make_encoder", None)
    if make is None or encoder.indent is not None:  # pragma: no cover - CPython has the C encoder
        return encoder.encode
    ascii_ = json.encoder.encode_basestring_ascii if encoder.ensure_ascii else json.encoder.encode_basestring
    c_encode = make(None, encoder.default, ascii_, None, encoder.key_separator, encoder.item_separator,
                    encoder.sort_keys, encoder.skipkeys, encoder.allow_nan)

    def encode(value: Any) -> str:
        return "".join(c_encode(value, 0))
    return encode


_moves_text = _tree_encoder(_MOVES_TEXT)
#: canonical_json's text (rules.core) for a state's JSON, by :func:`_tree_encoder`.
_state_text = _tree_encoder(json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=True))


def _strings_only(x: Any) -> bool:
    """Whether ``x`` is text, or a list or an object (text keys) holding such values alone: JSON data
    equal to it has its text (text equals text alone; a number may equal a boolean)."""
    if type(x) is str:
        return True
    if type(x) is dict:
        return all(type(k) is str and _strings_only(v) for k, v in x.items())
    if type(x) is list:
        return all(map(_strings_only, x))
    return False


#: where :class:`_StateTexts` writes a state without its setup, the text in the setup's place
_SETUP_MARK = '"setup":0'


class _StateTexts:
    """:func:`_state_text` of the states of one game, move after move, the same text, the setup's
    part written once: a game's setup never changes, and its deck is much of a state's text (half
    of Two & Two's). The setup's text is kept with a copy of it while the setup is equal to the
    copy and holds text alone (so equal is written the same); the rest is written with a 0 in the
    setup's place, put back where the whole holds that mark once."""

    def __init__(self) -> None:
        self.kept: tuple[Any, str] | None = None  # (a copy of the setup, its text)

    def __call__(self, data: Any) -> str:
        setup = data.get("setup") if type(data) is dict else None
        kept = self.kept
        if kept is None or kept[0] != setup:
            if not (type(setup) is dict and _strings_only(setup)):
                return _state_text(data)
            kept = self.kept = (copy_json(setup), '"setup":' + _state_text(setup))
        marked = dict(data)
        marked["setup"] = 0
        whole = _state_text(marked)
        if whole.count(_SETUP_MARK) != 1:
            return _state_text(data)
        return whole.replace(_SETUP_MARK, kept[1])


def _json_text(value: Any) -> str:
    """The JSON text a value crosses into Lua as (read there by ``U.json_decode``): ``json.dumps``
    with sorted keys, no spaces, ASCII only, no NaN."""
    return _MOVES_TEXT.encode(value)


def _verdict_key(v: Verdict | dict[str, Any]) -> tuple[bool, str, str]:
    """What both engines must agree on in a verdict: legal or not, and a refusal's rule id and
    message text."""
    if isinstance(v, Verdict):
        return (v.ok, v.rule if not v.ok else "", v.message if not v.ok else "")
    if v.get("ok"):
        return (True, "", "")
    return (False, str(v.get("rule")), str(v.get("message")))


def _refusal_key(v: Verdict) -> str:
    """A verdict as the fast check's Lua side writes it (``check.lua.j2``): "+" when legal, else
    "-" rule, a tab and the message; a newline in the message is written as a space (Lua gives
    no key to such a message, so the stepwise check, which compares the whole text, words it)."""
    if v.ok:
        return "+"
    return "-" + v.rule + "\t" + v.message.replace("\n", " ")


def _result_json(result: Any) -> str:
    """The Python result as the Lua one writes it: Lua leaves a null ``winner`` out."""
    data = dict(result.to_json())
    if data.get("winner") is None:
        data.pop("winner", None)
    return canonical_json(data)


def check_transcript(game_id: str, transcript: dict[str, Any], lua: LuaEngine, seed: int,
                     report: AgreementReport, rng: random.Random, mutants_per_move: int = 3) -> bool:
    """Judge every move of ``transcript`` (and mutants of it) in both engines, compare the
    states after each move and the results at the end; False at the first disagreement.

    One Lua call a game (:func:`_check_transcript_fast`); when that finds anything amiss, the
    game is checked again from the start one Lua call per step, the rng and the report wound
    back first, so the report is the stepwise checker's, word for word."""
    return _fast_then_stepwise(
        lambda: _check_transcript_fast(game_id, transcript, lua, report, rng, mutants_per_move),
        lambda: transcript, game_id, lua, seed, report, rng, mutants_per_move)


@dataclass(frozen=True)
class _Mark:
    """Where a game's check began: the rng's state and how long the report's counts and lists were."""

    rng_state: Any
    moves: int
    checks: int
    illegal_checks: int
    instructions: int
    disagreements: int

    @classmethod
    def of(cls, rng: random.Random, report: AgreementReport) -> _Mark:
        return cls(rng.getstate(), report.moves, report.checks, report.illegal_checks, len(report.instructions),
                   len(report.disagreements))


def _fast_then_stepwise(fast: Callable[[], _Suspect | None], transcript_of: Callable[[], dict[str, Any]],
                        game_id: str, lua: LuaEngine, seed: int, report: AgreementReport, rng: random.Random,
                        mutants_per_move: int) -> bool:
    """The fast check (``fast()``): True when it found nothing amiss, else the stepwise check's
    answer on ``transcript_of()``, the rng and the report wound back first."""
    mark = _Mark.of(rng, report)
    failed = False
    try:
        suspect = fast()
    except Exception:  # noqa: BLE001
        # a Lua error, a budget (a step's stops a little earlier inside the one call a game) or a
        # Python exception: the stepwise check meets it again and words it, or passes as it always did
        suspect, failed = None, True
    if suspect is None and not failed:
        return True
    transcript = transcript_of()
    rng.setstate(mark.rng_state)
    report.moves, report.checks, report.illegal_checks = mark.moves, mark.checks, mark.illegal_checks
    del report.instructions[mark.instructions:]
    del report.disagreements[mark.disagreements:]
    if not _check_transcript_stepwise(game_id, transcript, lua, seed, report, rng, mutants_per_move):
        return False
    if failed or suspect is None:
        return True
    # Checked again one call at a time, the game agrees: the Lua side does not answer the same
    # twice (a rules module that keeps something between calls). That is a disagreement too.
    index, player, move, kind, lua_text = suspect
    report.disagreements.append(Disagreement(
        seed, index, player, move, kind, "(agrees when checked again one Lua call at a time)", lua_text))
    return False


def check_played_game(game_id: str, seed: int, policy: str, combo: Combination, lua: LuaEngine,
                      report: AgreementReport, rng: random.Random, mutants_per_move: int = 3) -> bool:
    """:func:`check_transcript` of ``play_game(game_id, seed, ...)``, each move checked as it is
    played (one position for both: the move made once). The same report, rng draws and answer;
    when anything is amiss the game's transcript is played and :func:`check_transcript`'s
    stepwise check words the report (a failure of the play itself is play_game's again)."""
    return _fast_then_stepwise(
        lambda: _check_while_playing(game_id, seed, policy, combo, lua, report, rng, mutants_per_move),
        lambda: play_game(game_id, seed, policy=policy, options=combo.options_dict, num_players=combo.players),
        game_id, lua, seed, report, rng, mutants_per_move)


#: what the fast check found amiss: move index, player, move, kind, what Lua answered.
_Suspect = tuple[int, Any, Any, str, str]


def _start(game_id: str, transcript: dict[str, Any], lua: LuaEngine) -> tuple[State, Any]:
    """The Python and the Lua start position of ``transcript`` (its setup, options and seats)."""
    listed = transcript.get("players")
    state = rules.get_game(game_id).new_state(setup=transcript["setup"], options=transcript["options"],
                                              num_players=len(listed) if isinstance(listed, list) else None)
    return state, lua.new_state(transcript["setup"], transcript["options"])


def _check_transcript_fast(game_id: str, transcript: dict[str, Any], lua: LuaEngine, report: AgreementReport,
                           rng: random.Random, mutants_per_move: int) -> _Suspect | None:
    """:func:`check_transcript` with one Lua call a game (``check_moves``, see the module
    docstring); None when everything agrees (the report counted), else what looked amiss
    (the caller winds the report back)."""
    state, lstate = _start(game_id, transcript, lua)
    moves = (split_move(entry) for entry in transcript["moves"])
    return _check_moves(state, lstate, moves, lua, report, rng, mutants_per_move)


def _check_while_playing(game_id: str, seed: int, policy: str, combo: Combination, lua: LuaEngine,
                         report: AgreementReport, rng: random.Random, mutants_per_move: int) -> _Suspect | None:
    """:func:`_check_transcript_fast` of the game :func:`play_game` plays, each move checked as
    it is chosen: the players choose on the checker's position (made from the transcript's
    setup, as the check of a transcript makes it; refused unless its JSON is the start position
    play_game plays from)."""
    table = new_game(game_id, seed, policy=policy, options=combo.options_dict, num_players=combo.players)
    state, lstate = _start(game_id, table.transcript, lua)
    if canonical_json(state.to_json()) != canonical_json(table.state.to_json()):
        raise RuntimeError(f"{game_id} seed {seed}: the start position differs when made from its setup")
    moves = ((player, dict(move)) for player, move in table.moves(state))  # a copy, as split_move makes
    return _check_moves(state, lstate, moves, lua, report, rng, mutants_per_move)


def _check_moves(state: State, lstate: Any, moves: Iterator[tuple[Any, Any]], lua: LuaEngine,
                 report: AgreementReport, rng: random.Random, mutants_per_move: int) -> _Suspect | None:
    """The fast check of each ``(player, move)`` of ``moves`` from ``state`` and ``lstate`` (made
    before the next is asked for), then of the result.

    Python judges and makes every move of the game first (:func:`_python_steps`), then Lua checks
    them in one call (``check_moves``): each engine's work back to back keeps its data in the
    processor's caches (interleaved, move by move, each evicted the other's: a twelfth more
    time). What is found is what the move-by-move order finds: the first move Lua answers
    otherwise, else Python's failure (an exception, a rule id with a newline) where it came."""
    steps, stop = _python_steps(state, moves, rng, mutants_per_move)
    if steps:
        texts, players, others, keys, states = ([step[i] for step in steps] for i in (3, 0, 2, 4, 5))
        # each step has a budget of its own; the call has the default budget for each move (a call of one move's)
        per_move = lua.sandbox.default_budget
        answer = lua.sandbox.call(lua.check_moves(), lstate, texts, players, others, keys, states, len(steps),
                                  budget=None if per_move is None else per_move * len(steps))
        if answer[0] != 0:
            index = answer[0] - 1
            player, move = steps[index][:2]
            return (index, player, move, answer[1], str(answer[2]))
        report.instructions += map(int, answer[1].split(","))
        report.checks += sum(step[6] for step in steps)
        report.illegal_checks += sum(step[7] for step in steps)
        report.moves += len(steps)
        end_json = lua.end_state_json(lstate)
        if stop is None and end_json is not None and end_json != steps[-1][5]:
            player, move = steps[-1][:2]
            return (len(steps) - 1, player, move, "state", end_json)
    if isinstance(stop, BaseException):
        raise stop
    if stop is not None:
        return stop
    result = state.result()
    if result is not None:
        lua_result = lua.state_json(lua.sandbox.call(lua.rules.result, lstate))
        if lua_result != _result_json(result):
            return (len(steps), None, None, "result", lua_result)
    return None


#: one move as :func:`_check_moves` hands it to Lua: player, move, the other seat, the moves' JSON
#: text, the verdict keys expected (one a line), the state's text after it, checks, illegal ones.
_Step = tuple[Any, Any, Any, str, str, str, int, int]


def _python_steps(state: State, moves: Iterator[tuple[Any, Any]], rng: random.Random,
                  mutants_per_move: int) -> tuple[list[_Step], _Suspect | BaseException | None]:
    """Python's side of :func:`_check_moves`: each move's mutants, verdicts and the state's text
    after it, the move made; and what stopped it before the last move (None when nothing did)."""
    seats = state.num_players()
    steps: list[_Step] = []
    state_text = _StateTexts()
    data = state.to_json()  # the state's JSON, made once per move: mutants' values, then the comparison
    try:
        for player, move in moves:
            picked = sample_mutants(move, state, rng, mutants_per_move, state_json=data)
            other = (player + 1) % seats if isinstance(player, int) else 0
            # judge(state, player, cand) for each: the seat is judged once (the same for every move),
            # then the game's check_for, as judge itself goes on; any other case through judge
            if not state.is_terminal() and not isinstance(player, bool) and player in state.deciders():
                check_for = state.check_for
                verdicts = [check_for(player, cand) for cand in (move, *picked)]
            else:
                verdicts = [judge(state, player, cand) for cand in (move, *picked)]
            verdicts.append(judge(state, other, move))
            keys = [_refusal_key(py) for py in verdicts]
            expected = "\n".join(keys)
            if expected.count("\n") != len(keys) - 1:
                return steps, (len(steps), player, move, "verdict", "(a rule id holds a newline)")
            text = _moves_text([move, *picked])  # _json_text's
            if keys[0] == "+" and type(state).apply is State.apply:
                state.make(move)  # judged legal for its player just now: made without a second check
            else:
                state.apply(move)
            data = state.to_json()
            steps.append((player, move, other, text, expected, state_text(data), len(keys),
                          len(keys) - keys.count("+")))  # the refused ones
    except Exception as exc:  # noqa: BLE001 (raised again once Lua has checked the moves before it)
        return steps, exc
    return steps, None


def _check_transcript_stepwise(game_id: str, transcript: dict[str, Any], lua: LuaEngine, seed: int,
                               report: AgreementReport, rng: random.Random, mutants_per_move: int) -> bool:
    """:func:`check_transcript` one Lua call per step (decoding the moves, each check, the move,
    the state's JSON): the checker the fast one stands for, which words every disagreement."""
    try:
        state, lstate = _start(game_id, transcript, lua)  # Python's first: its errors are not Lua's
    except LuaSandboxError as exc:
        report.disagreements.append(Disagreement(seed, -1, None, None, "lua-error", "new game", str(exc)))
        return False
    seats = state.num_players()
    data = state.to_json()  # the state's JSON, made once per move: mutants' values, then the comparison
    for index, entry in enumerate(transcript["moves"]):
        player, move = split_move(entry)
        pool = list(mutants(move, state, rng, state_json=data))
        picked = rng.sample(pool, min(mutants_per_move, len(pool)))
        try:  # the recorded move and its mutants cross into Lua as one JSON text, decoded in one call
            decoded = lua.decode([move, *picked])
        except LuaSandboxError as exc:
            report.disagreements.append(Disagreement(seed, index, player, move, "lua-error", "decoding the moves",
                                                     str(exc)))
            return False
        lua_move = decoded[1]  # the recorded move decoded once: judged for two seats, then applied
        candidates: list[tuple[Any, Any, Any]] = [(player, move, lua_move)]
        candidates += [(player, m, decoded[i + 2]) for i, m in enumerate(picked)]
        candidates.append(((player + 1) % seats if isinstance(player, int) else 0, move, lua_move))
        for who, cand, lua_cand in candidates:
            py = judge(state, who, cand)
            try:
                lkey, lv = lua.verdict(lstate, who, lua_cand)
            except LuaSandboxError as exc:
                report.disagreements.append(Disagreement(seed, index, who, cand, "lua-error", py.to_json(), str(exc)))
                return False
            report.instructions.append(lua.sandbox.last_instructions)
            report.checks += 1
            report.illegal_checks += not py.ok
            if _verdict_key(py) != lkey:
                report.disagreements.append(Disagreement(seed, index, who, cand, "verdict", py.to_json(),
                                                         lua.sandbox.from_lua(lv, empty_as="dict")))
                return False
        state.apply(move)
        lua.apply(lstate, move, lua_move)
        report.moves += 1
        data = state.to_json()
        py_json = canonical_json(data)
        lua_json = lua.state_json(lstate)
        if py_json != lua_json:
            report.disagreements.append(Disagreement(
                seed, index, player, move, "state", f"{_digest(py_json)} {py_json}", f"{_digest(lua_json)} {lua_json}"))
            return False
    if transcript["moves"]:  # py_json: the state's text after the last move
        end_json = lua.end_state_json(lstate)
        if end_json is not None and end_json != py_json:
            report.disagreements.append(Disagreement(
                seed, len(transcript["moves"]) - 1, player, move, "state", f"{_digest(py_json)} {py_json}",
                f"{_digest(end_json)} {end_json} (written by U.json at the end of the game; the rules' "
                "Rules.state_json wrote the Python text)"))
            return False
    result = state.result()
    if result is not None:
        try:
            lua_result = lua.state_json(lua.sandbox.call(lua.rules.result, lstate))
        except LuaSandboxError as exc:
            report.disagreements.append(Disagreement(seed, len(transcript["moves"]), None, None, "lua-error",
                                                     "result", str(exc)))
            return False
        if lua_result != _result_json(result):
            report.disagreements.append(Disagreement(seed, len(transcript["moves"]), None, None, "result",
                                                     _result_json(result), lua_result))
            return False
    return True


#: :func:`combinations` per game, seat count and options, once per process: finding them sets up a
#: game per seat count and option value, and some setups are dear (Obren Buttons deals solver-checked
#: puzzles, ~0.2 s a call), so a process that checks again (the benchmark, a test run) pays once.
_COMBINATIONS: dict[tuple[str, int | None, str | None], tuple[Combination, ...]] = {}
#: what :func:`combinations` left out, per the same key: (label, reason) each.
_LEFT_OUT: dict[tuple[str, int | None, str | None], tuple[tuple[str, str], ...]] = {}


def combinations(game_id: str, players: int | None = None,
                 options: dict[str, Any] | None = None) -> list[Combination]:
    """What check-lua plays: the given seat count and options, or, for what is not given, every
    seat count the game declares and every option value (one option off its default at a time).
    Combinations the game refuses (team options with 2 seats) or that play the same resolved
    options as an earlier one are left out. Raises InputError when nothing is left.
    Found once per process and arguments (the game data does not change under a running process)."""
    key = (game_id, players, None if options is None else canonical_json(options))
    found = _COMBINATIONS.get(key)
    if found is None:
        skipped: list[tuple[str, str]] = []
        found = _COMBINATIONS[key] = tuple(_find_combinations(game_id, players, options, skipped))
        _LEFT_OUT[key] = tuple(skipped)
    return list(found)


def left_out(game_id: str, players: int | None = None,
             options: dict[str, Any] | None = None) -> list[tuple[str, str]]:
    """The combinations :func:`combinations` leaves out of its sweep, each (label, reason): the
    game refuses it (its one-line reason), or it plays the same options as one kept."""
    combinations(game_id, players, options)
    return list(_LEFT_OUT[(game_id, players, None if options is None else canonical_json(options))])


def _find_combinations(game_id: str, players: int | None, options: dict[str, Any] | None,
                       skipped: list[tuple[str, str]] | None = None) -> list[Combination]:
    """:func:`combinations` without the cache; what it leaves out is added to ``skipped``."""
    game = require_game(game_id)
    counts = [players] if players is not None else list(game.seat_counts())
    variants = [options] if options is not None else game.option_variants()
    out: list[Combination] = []
    seen: dict[tuple[int, str], Combination] = {}
    refusal = ""
    for n in counts:
        for opts in variants:
            combo = Combination(n, tuple(sorted(opts.items())))
            try:
                state = game.new_state(seed=0, options=opts, num_players=n)
            except rules.SetupError as exc:
                refusal = str(exc)
                if skipped is not None:
                    skipped.append((combo.label(), f"{game_id} refuses it ({exc})"))
                continue
            key = (n, canonical_json(state.options()))
            if key not in seen:
                seen[key] = combo
                out.append(combo)
            elif skipped is not None:
                skipped.append((combo.label(), f"plays the same options as {seen[key].label()}"))
    if not out:
        what = "--players/--options" if players is not None and options is not None else \
            "--players" if players is not None else "--options"
        raise InputError(f"{what}: {game_id} cannot be played so ({refusal})")
    return out


#: one LuaEngine per game and process, reused from game to game (loading the rules is the slow part).
_ENGINES: dict[str, LuaEngine] = {}


def _check_game(job: tuple[str, int, str, int, Combination]) -> AgreementReport:
    """One game of :func:`check_lua`, as a report of its own; module-level so a worker process
    can run it."""
    game_id, game_seed, policy, mutants_per_move, combo = job
    lua = _ENGINES.get(game_id)
    if lua is None:
        lua = _ENGINES[game_id] = LuaEngine(game_id)
    rng = random.Random(f"check-lua/{game_id}/{game_seed}")
    report = AgreementReport(game=game_id)
    check_played_game(game_id, game_seed, policy, combo, lua, report, rng, mutants_per_move)
    report.games = 1
    return report


def check_lua(game_id: str, games: int, seed: int, *, policy: str = "mixed", mutants_per_move: int = 3,
              progress: Callable[[int, int], None] | None = None, players: int | None = None,
              options: dict[str, Any] | None = None, jobs: int = 1,
              scheduler: str | None = None) -> AgreementReport:
    """Play ``games`` games (game i with seed ``seed + i``, on combination ``i mod K`` of
    :func:`combinations`) and check both engines agree on each; stop at the first disagreement.
    ``jobs`` worker processes, or the Dask cluster at ``scheduler``, share the games; the report is
    the same whatever runs them (the games after the first disagreement are dropped, as one job
    never plays them)."""
    combos = combinations(game_id, players, options)
    report = AgreementReport(game=game_id, combinations={c: CombinationCount() for c in combos},
                             left_out=left_out(game_id, players, options))
    work = [(game_id, seed + i, policy, mutants_per_move, combos[i % len(combos)]) for i in range(games)]
    results = ordered_map(_check_game, work, jobs, scheduler=scheduler)
    try:
        for i, one in enumerate(results):
            combo = work[i][4]
            report.games += 1
            report.moves += one.moves
            report.checks += one.checks
            report.illegal_checks += one.illegal_checks
            report.instructions += one.instructions
            count = report.combinations[combo]
            count.games += 1
            count.moves += one.moves
            count.checks += one.checks
            if progress:
                progress(i + 1, games)
            if one.disagreements:
                report.disagreements += one.disagreements
                report.disagreements[-1].replay_args = combo.replay_args()
                break
    finally:
        results.close()
    return report
