"""The engine interface every game implements.

A game is *metadata plus a state* (the OpenSpiel model) and its moves are plain
JSON data (the boardgame.io model), so a move recorded in Tabletop Simulator, a
move in a transcript and a move enumerated by the engine are the same object::

    >>> import rules
    >>> game = rules.get_game("two-and-two")
    >>> state = game.new_state(seed=1)
    >>> move = state.legal_moves()[0]
    >>> state.check(move).ok
    True
    >>> state.apply(move)            # mutates the state in place

A refused move raises :class:`IllegalMove`, whose :class:`Verdict` names a
stable rule id (``"mandatory-play"``), a sentence a player understands and the
rulebook section it comes from.

Conventions every game follows (they are what lets the Lua mirror agree):

* players are seat indexes ``0..n-1``; seat 0 is the starting player;
* state data (:meth:`State.to_json`) holds only dicts with string keys, lists,
  strings, ints, bools and ``None``, so it crosses into Lua and back unchanged;
* all randomness happens in :meth:`Game.new_state` from the seed and is recorded
  in the *setup* (e.g. the shuffled deck), so a transcript replays exactly.
"""

from __future__ import annotations

import hashlib
import json
import random
from bisect import bisect_right
from dataclasses import dataclass, field
from typing import Any, Callable, ClassVar, Iterator, Mapping, Sequence, overload

Move = dict[str, Any]
JSONDict = dict[str, Any]


@dataclass(frozen=True)
class RuleRef:
    """One rule of a game: stable id, rulebook section, short statement (our words)."""

    id: str
    section: str
    summary: str


@dataclass(frozen=True)
class Verdict:
    """The answer to "may this move be made now?".

    ``rule`` is empty for a legal move. ``penalty`` names what the rulebook does
    to a player caught making the move (e.g. ``"forfeit"`` for hoarding); the
    engine itself always refuses illegal moves.
    """

    ok: bool
    rule: str = ""
    message: str = ""
    section: str = ""
    penalty: str = ""

    @classmethod
    def legal(cls) -> "Verdict":
        return _LEGAL

    def to_json(self) -> JSONDict:
        out: JSONDict = {"ok": self.ok}
        if not self.ok:
            out.update(rule=self.rule, message=self.message, section=self.section)
            if self.penalty:
                out["penalty"] = self.penalty
        return out


_LEGAL = Verdict(True)


class IllegalMove(Exception):
    """Raised by :meth:`State.apply` for a move the rules refuse."""

    def __init__(self, verdict: Verdict, move: Any = None):
        super().__init__(f"{verdict.rule}: {verdict.message}")
        self.verdict = verdict
        self.move = move

    @property
    def rule(self) -> str:
        return self.verdict.rule


class SetupError(ValueError):
    """Options or a recorded setup that this game cannot start from. ``field`` names what is at
    fault where that is known: "players" (the seat count), "options" or "setup"."""

    def __init__(self, message: str, field: str = ""):
        super().__init__(message)
        self.field = field


#: what kind of game a result ends: who can win.
RESULT_KINDS = ("competitive", "teams", "cooperative", "solo")
#: how it ended, from the winners' side: a win, a loss (cooperative and solo) or a draw.
OUTCOMES = ("win", "loss", "draw")
#: the keys :meth:`Result.to_json` writes itself; anything else in a recorded result is game detail.
RESULT_KEYS = ("kind", "outcome", "winner", "winners", "team", "score", "scores", "reason")


@dataclass
class Result:
    """How a finished game ended, for every kind of game.

    * competitive: ``winners`` is one seat, or several for a shared win; none for a draw;
    * teams: ``team`` names the winning team and ``winners`` are its seats; none for a draw;
    * cooperative: the table wins (``winners`` is every seat) or loses (none), ``score`` where the game has one;
    * solo: seat 0 wins or loses, ``score`` where the game has one.

    The JSON shape (:meth:`to_json`) keeps version 1's ``winner`` (the one winning seat, the lowest of
    several, or null when no seat wins) so older readers still read it, and :meth:`from_json` reads
    older transcripts that record only ``winner``, ``scores`` and ``reason``. ``unit`` names what the
    scores count (``"set"``); it is a word for :meth:`describe`, not recorded.

    >>> r = Result.win(0, [3, 1], "most-sets", unit="set")
    >>> r.describe(["White", "Red"]), r.to_json()["winner"]
    ('White wins 3 sets to 1', 0)
    >>> Result.from_json({"winner": None, "scores": [2, 2], "reason": "draw"}).describe(["White", "Red"])
    'Draw, 2 each'
    """

    kind: str
    outcome: str
    reason: str
    winners: list[int] = field(default_factory=list)
    scores: list[Any] | None = None
    score: Any = None
    team: str | None = None
    detail: JSONDict = field(default_factory=dict)
    unit: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        if self.kind not in RESULT_KINDS:
            raise ValueError(f"result kind {self.kind!r} is not one of {', '.join(RESULT_KINDS)}")
        if self.outcome not in OUTCOMES:
            raise ValueError(f"result outcome {self.outcome!r} is not one of {', '.join(OUTCOMES)}")
        if (self.outcome == "win") != bool(self.winners):
            raise ValueError(f"a {self.outcome} names {'no' if self.outcome == 'win' else 'some'} winners")
        if self.outcome == "loss" and self.kind not in ("cooperative", "solo"):
            raise ValueError("only a cooperative or solo game is lost by everyone")
        if self.outcome == "draw" and self.kind in ("cooperative", "solo"):
            raise ValueError("a cooperative or solo game is won or lost, not drawn")
        if self.kind == "teams" and self.outcome == "win" and not self.team:
            raise ValueError("a team win names the team")

    # -- constructors, one per way a game ends ---------------------------------
    @classmethod
    def win(cls, seats: int | list[int], scores: list[Any] | None, reason: str,
            detail: JSONDict | None = None, unit: str = "") -> "Result":
        """A competitive win by one seat, or a shared win by several."""
        winners = [seats] if isinstance(seats, int) else sorted(seats)
        return cls("competitive", "win", reason, winners, scores, None, None, dict(detail or {}), unit)

    @classmethod
    def team_win(cls, team: str, seats: list[int], scores: list[Any] | None, reason: str,
                 detail: JSONDict | None = None, unit: str = "") -> "Result":
        """Team ``team`` (seats ``seats``) wins."""
        return cls("teams", "win", reason, sorted(seats), scores, None, team, dict(detail or {}), unit)

    @classmethod
    def draw(cls, scores: list[Any] | None, reason: str = "draw", detail: JSONDict | None = None,
             unit: str = "", teams: bool = False) -> "Result":
        """Nobody wins (a competitive or team game)."""
        return cls("teams" if teams else "competitive", "draw", reason, [], scores, None, None,
                   dict(detail or {}), unit)

    @classmethod
    def cooperative(cls, won: bool, num_players: int, reason: str, score: Any = None,
                    detail: JSONDict | None = None, unit: str = "") -> "Result":
        """The whole table wins or loses together."""
        winners = list(range(num_players)) if won else []
        return cls("cooperative", "win" if won else "loss", reason, winners, None, score, None,
                   dict(detail or {}), unit)

    @classmethod
    def solo(cls, won: bool, reason: str, score: Any = None, detail: JSONDict | None = None,
             unit: str = "") -> "Result":
        """The one player wins or loses."""
        return cls("solo", "win" if won else "loss", reason, [0] if won else [], None, score, None,
                   dict(detail or {}), unit)

    # -- reading ---------------------------------------------------------------
    @property
    def winner(self) -> int | None:
        """The one winning seat (the lowest of several), or None when no seat wins."""
        return self.winners[0] if self.winners else None

    @property
    def is_draw(self) -> bool:
        return self.outcome == "draw"

    def to_json(self) -> JSONDict:
        out: JSONDict = {"kind": self.kind, "outcome": self.outcome, "winner": self.winner,
                         "winners": list(self.winners), "reason": self.reason}
        if self.scores is not None:
            out["scores"] = self.scores
        if self.score is not None:
            out["score"] = self.score
        if self.team is not None:
            out["team"] = self.team
        for key, value in self.detail.items():
            out.setdefault(key, value)
        return out

    @classmethod
    def from_json(cls, data: Mapping[str, Any], num_players: int | None = None, unit: str = "") -> "Result":
        """A recorded result, in today's shape or version 1's first one (``winner``, ``scores``,
        ``reason``; no ``winner`` or a null one is a draw). Raises ValueError naming the field."""
        if not isinstance(data, Mapping):
            raise ValueError("a result is a JSON object")
        kind = data.get("kind", "competitive")
        winners = data.get("winners")
        if winners is None:
            winner = data.get("winner")
            winners = [] if winner is None else [winner]
        if not isinstance(winners, list) or not all(type(w) is int and w >= 0 for w in winners):
            raise ValueError(f"field winners: a list of seats, not {winners!r}")
        if "winner" in data and data["winner"] is not None and data["winner"] not in winners:
            raise ValueError(f"field winner: seat {data['winner']!r} is not among the winners {winners}")
        outcome = data.get("outcome")
        if outcome is None:
            outcome = "win" if winners else ("loss" if kind in ("cooperative", "solo") else "draw")
        reason = data.get("reason", outcome)
        if not isinstance(reason, str):
            raise ValueError(f"field reason: a string, not {reason!r}")
        scores = data.get("scores")
        detail = {k: v for k, v in data.items() if k not in RESULT_KEYS}
        del num_players  # kept in the signature for callers that know the seat count
        try:
            return cls(kind, outcome, reason, sorted(winners), scores, data.get("score"), data.get("team"),
                       detail, unit)
        except ValueError as exc:
            raise ValueError(f"field kind/outcome: {exc}") from None

    # -- words -----------------------------------------------------------------
    def describe(self, seat_names: list[str] | None = None) -> str:
        """The result in words: "White wins 3 sets to 1", "Team Light wins", "The table wins with
        17 cards placed", "Solo: lost", "Draw".

        >>> Result.team_win("light", [0, 2], [3, 2, 3, 2], "rounds", unit="round").describe()
        'Team Light wins 3 rounds to 2'
        >>> Result.cooperative(True, 3, "all-placed", 17, unit="card placed").describe()
        'The table wins with 17 cards placed'
        >>> Result.solo(False, "out-of-time").describe()
        'Solo: lost'
        """
        def name(seat: int) -> str:
            return name_in(seat, seat_names)

        if self.kind in ("cooperative", "solo"):
            won = self.outcome == "win"
            text = (("The table wins" if won else "The table loses") if self.kind == "cooperative"
                    else ("Solo: won" if won else "Solo: lost"))
            if self.score is not None:
                text += f" with {self.count(self.score)}" if self.unit else f", score {self.score}"
            return text
        tally = self._tally(name)
        if self.outcome == "draw":
            return "Draw" + (f", {tally}" if tally else "")
        if self.kind == "teams":
            team = str(self.team)
            text = f"Team {team[:1].upper()}{team[1:]} wins"
        elif len(self.winners) == 1:
            text = f"{name(self.winners[0])} wins"
        else:
            names = [name(s) for s in self.winners]
            text = ", ".join(names[:-1]) + " and " + names[-1] + " share the win"
        forfeited = self.detail.get("forfeited_by")
        if self.reason == "forfeit" and type(forfeited) is int:
            return f"{text}: {name(forfeited)} forfeits"
        if tally.endswith(" each"):  # level on the score: the tie-break decided
            return f"{text} on {self.reason}, {tally}"
        if tally:
            return f"{text}, {tally}" if len(self.winners) > 1 and self.kind != "teams" else f"{text} {tally}"
        return text + (f" ({self.reason})" if self.reason not in ("", "win") else "")

    def count(self, n: Any) -> str:
        """``n`` with the unit, plural when ``n`` is not 1: "3 sets", "17 cards placed"."""
        if not self.unit:
            return str(n)
        first, _, rest = self.unit.partition(" ")
        word = first if n == 1 else first + "s"
        return f"{n} {word}" + (f" {rest}" if rest else "")

    def _tally(self, name: Callable[[int], str] = str) -> str:
        """"3 sets to 1" (winners' score first) when the winners share one score and the others
        another; "4 sets each" when every seat has the same score; "45 points to 40 (Player 1) and
        38 (Player 3)" when the others differ (every seat's points named, for any seat count)."""
        scores = self.scores
        if not scores or len(scores) < 2 or not all(isinstance(s, (int, float)) for s in scores):
            return ""
        if len(set(scores)) == 1:
            return f"{self.count(scores[0])} each" if self.unit else f"{scores[0]} each"
        if not self.winners:
            return " to ".join(str(s) for s in scores) if len(scores) == 2 else ""
        ours = {scores[s] for s in self.winners if s < len(scores)}
        theirs = {scores[s] for s in range(len(scores)) if s not in self.winners}
        if len(ours) != 1:
            return ""
        if len(theirs) != 1:
            others = [f"{scores[s]} ({name(s)})" for s in range(len(scores)) if s not in self.winners]
            return f"{self.count(next(iter(ours)))} to " + ", ".join(others[:-1]) + " and " + others[-1]
        return f"{self.count(next(iter(ours)))} to {next(iter(theirs))}"


class MoveSequence(Sequence[Move]):
    """Moves built only when asked for: parts that are lists of moves or ``(count, build)``, where
    ``build(i)`` makes the part's i-th move. ``random.choice`` on it makes one move, not all of them
    (a Twin Tower City Army card has dozens of swap plays). Its moves, in order, are the parts' moves.

    >>> seq = MoveSequence([[{"type": "a"}], (3, lambda i: {"type": "b", "n": i})])
    >>> len(seq), seq[2], seq[-1]
    (4, {'type': 'b', 'n': 1}, {'type': 'b', 'n': 2})
    """

    def __init__(self, parts: list[list[Move] | tuple[int, Callable[[int], Move]]]):
        self._parts: list[tuple[int, Callable[[int], Move]]] = []
        self._starts: list[int] = []
        total = 0
        for part in parts:
            count, build = (len(part), part.__getitem__) if isinstance(part, list) else part
            if count:
                self._starts.append(total)
                self._parts.append((count, build))
                total += count
        self._len = total

    def __len__(self) -> int:
        return self._len

    def __iter__(self) -> Iterator[Move]:
        for count, build in self._parts:
            for i in range(count):
                yield build(i)

    @overload
    def __getitem__(self, index: int) -> Move: ...

    @overload
    def __getitem__(self, index: slice) -> list[Move]: ...

    def __getitem__(self, index: int | slice) -> Move | list[Move]:
        if isinstance(index, slice):
            return [self[i] for i in range(*index.indices(self._len))]
        if index < 0:
            index += self._len
        if not 0 <= index < self._len:
            raise IndexError("move index out of range")
        k = bisect_right(self._starts, index) - 1
        return self._parts[k][1](index - self._starts[k])


class Game:
    """Static description of a game. Subclasses set the class attributes.

    ``options`` maps option name to its default; :meth:`resolve_options`
    validates user options against it.
    """

    id: ClassVar[str]
    name: ClassVar[str]
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    options: ClassVar[Mapping[str, Any]] = {}
    #: allowed values per option, where the option is a choice.
    option_choices: ClassVar[Mapping[str, tuple[Any, ...]]] = {}
    #: every rule id the engine can name, in rulebook order.
    rules: ClassVar[Mapping[str, RuleRef]] = {}
    #: max moves in any game (a bound the invariant suite checks).
    max_game_length: ClassVar[int] = 10_000
    #: the game's component data file, parsed (one source of truth for engine, art and Lua).
    data: ClassVar[Mapping[str, Any]] = {}
    #: the seat counts the game is played with when not every count in min..max is (e.g. 2, 4, 6).
    player_counts: ClassVar[tuple[int, ...]] = ()
    #: a seat may not see everything (hands, the deck order): observations must hide it.
    hidden_information: ClassVar[bool] = False
    #: the start depends on the seed (a shuffle, a coin): different seeds give different games.
    chance: ClassVar[bool] = False
    #: how a game of it ends: "competitive" (seats, or teams with more seats), "cooperative" or "solo".
    result_kind: ClassVar[str] = "competitive"
    #: what the scores count, for Result.describe ("set": "White wins 3 sets to 1").
    score_unit: ClassVar[str] = "point"
    #: the option that decides which side seat 0 plays, in games whose seats play sides: playing
    #: each of its values on the same seed puts each side in each seat (balance measurements).
    side_option: ClassVar[str | None] = None

    def seat_counts(self) -> tuple[int, ...]:
        """Every seat count the game declares, in increasing order."""
        return tuple(self.player_counts) or tuple(range(self.min_players, self.max_players + 1))

    def result_kind_for(self, num_players: int) -> str:
        """The kind of result a game of ``num_players`` ends with (a game with a solo mode says
        ``"solo"`` for one player); :attr:`result_kind` unless the game says otherwise."""
        return self.result_kind

    def option_values(self, name: str) -> tuple[Any, ...]:
        """The values option ``name`` takes: its choices, both booleans, or only its default."""
        default = self.options[name]
        if name in self.option_choices:
            return tuple(self.option_choices[name])
        if isinstance(default, bool):
            return (default, not default)
        return (default,)

    def option_variants(self) -> list[JSONDict]:
        """The defaults, then each other value of each option with the rest at their defaults:
        every option value is played without the product of all of them."""
        variants: list[JSONDict] = [{}]
        for name in sorted(self.options):
            variants += [{name: v} for v in self.option_values(name) if v != self.options[name]]
        return variants

    def resolve_options(self, options: Mapping[str, Any] | None) -> JSONDict:
        """Defaults overlaid with ``options``; unknown names or values raise SetupError."""
        resolved = dict(self.options)
        for key, value in (options or {}).items():
            if key not in self.options:
                raise SetupError(f"unknown option {key!r} for {self.id} (known: {', '.join(sorted(self.options)) or 'none'})",
                                 field="options")
            default = self.options[key]
            if isinstance(default, bool) and not isinstance(value, bool):
                raise SetupError(f"option {key!r} takes true or false, not {value!r}", field="options")
            choices = self.option_choices.get(key)
            if choices is not None:
                # the choice itself, so 20.0 is kept as the choice 20 (one number type per option)
                same = [c for c in choices if c == value and isinstance(c, bool) == isinstance(value, bool)
                        and isinstance(c, str) == isinstance(value, str)]
                if not same:
                    raise SetupError(f"option {key!r} takes one of {', '.join(map(str, choices))}, not {value!r}",
                                     field="options")
                value = same[0]
            elif type(default) is int and type(value) is float and value.is_integer():
                value = int(value)  # a whole number written 2.0 is the integer, as Lua reads it
            resolved[key] = value
        return resolved

    def new_state(self, seed: int | None = 0, options: Mapping[str, Any] | None = None,
                  setup: Mapping[str, Any] | None = None, num_players: int | None = None) -> "State":
        """A new game. With ``setup`` (from a transcript) the seed is ignored."""
        raise NotImplementedError

    def state_from_json(self, data: Mapping[str, Any]) -> "State":
        raise NotImplementedError

    def rule(self, rule_id: str) -> RuleRef:
        return self.rules[rule_id]

    def verdict(self, rule_id: str, message: str, penalty: str = "") -> Verdict:
        """A refusal naming ``rule_id``; its section comes from the rule table."""
        return Verdict(False, rule_id, message, self.rules[rule_id].section, penalty)

    def lua_context(self) -> JSONDict:
        """What the Lua templates of this game need (data from the same file the engine reads)."""
        return {"data": dict(self.data)}

    # -- optional hooks (docs/authoring.md, "Python hooks") -------------------------------------
    # A game defines the ones it wants. The tools ask for them through :func:`hook`, which answers
    # None for a hook the game leaves out (the declarations here only name and document them).
    def heuristic_move(self, obs: JSONDict, moves: list[Move], rng: random.Random) -> Move:
        """Optional hook: the move a thinking player picks from ``moves`` (legal, without forfeit)
        seeing only ``obs`` (its seat's :meth:`State.observation`). Used by ``simulate --policy
        heuristic|mixed``, the invariant suite and ``check-lua``'s games; without it they play at
        random. Must not read hidden information: it gets the observation, not the state."""
        raise NotImplementedError

    def heuristic_seat(self, views: dict[int, tuple[JSONDict, list[Move]]], rng: random.Random) -> int:
        """Optional hook, for games where several seats may decide at once (:meth:`State.deciders`):
        which seat acts, from each seat's (observation, moves). Without it a random one does."""
        raise NotImplementedError

    def board_mutants(self, move: Move, state: "State", rng: random.Random) -> list[Any]:
        """Optional hook: game-shaped wrong moves made from legal ``move`` (a path one step short, a
        cell beside the right one), added to the generic mutants (:mod:`rules.mutate`) that
        ``check-lua`` and the fuzz tests feed both engines: near misses find where they disagree."""
        raise NotImplementedError

    def table_actions(self, state: "State", move: Move) -> list[Any] | None:
        """Optional hook: how a player makes ``move`` (legal or not) at the table in ``state``, as
        a list of :mod:`tts_builder.tableplay` actions (drop a piece on a cell, a zone or a hand,
        click a panel button, pick a shown option, flip), or None for a move it cannot express.
        A game may instead define the function ``table_actions(state, move)`` in its package's
        ``tableplay.py`` (:func:`tts_builder.tableplay.table_actions_of` finds either). Used by the
        generic table suite, which plays every game through table events at the stand-in table."""
        raise NotImplementedError

    def describe(self) -> JSONDict:
        return {"id": self.id, "name": self.name, "players": [self.min_players, self.max_players],
                "seat_counts": list(self.seat_counts()), "options": dict(self.options),
                "hidden_information": self.hidden_information, "chance": self.chance,
                "result_kind": self.result_kind}


class State:
    """A position in one game. Mutable: :meth:`apply` changes it in place."""

    game: Game

    # -- whose decision -------------------------------------------------
    def current_player(self) -> int | None:
        """The seat that must decide now (possibly not the active player,
        e.g. in a reaction window), or None when the game is over."""
        raise NotImplementedError

    def active_player(self) -> int | None:
        """The seat whose turn it is (for display); defaults to current_player."""
        return self.current_player()

    def deciders(self) -> list[int]:
        """Every seat that may decide now, in seat order: several when any of them may take the next
        turn (Smitten 2's "either player plays"); :meth:`current_player` is the first. Defaults to
        the current player alone."""
        seat = self.current_player()
        return [] if seat is None else [seat]

    def any_seat_may(self, move: Any) -> bool:
        """Whether ``move`` is one any seat of the game may make at any time, not only a decider
        (Smitten 2's table talk, "throughout the game"); :func:`judge` then asks only the game's
        check. Defaults to False."""
        return False

    def same_move(self, move: Any) -> Any:
        """``move`` in the form :meth:`legal_moves` lists it, where a game accepts one move written
        in several ways (Two by Two's rescue names its two spaces in either order); by default
        the move itself."""
        return move

    def turn_order_note(self, player: Any) -> str:
        """A sentence a turn-order refusal of ``player`` adds, saying why it is not their
        decision (Two by Two: their turn ended with a pass); "" by default."""
        return ""

    def player_of(self, move: Move) -> int | None:
        """The seat that makes legal ``move`` (whose hand holds the card, when several seats
        decide); defaults to :meth:`current_player`."""
        return self.current_player()

    def check_for(self, player: int, move: Any) -> Verdict:
        """:meth:`check` for ``player``, one of :meth:`deciders` (a game where several seats decide
        refuses a move that is another seat's); defaults to :meth:`check`. A move it passes
        passes :meth:`check` too (:func:`judge_apply` then makes it unchecked)."""
        return self.check(move)

    # -- moves ----------------------------------------------------------
    def legal_moves(self) -> list[Move]:
        """Every legal move for :meth:`current_player`, in a stable order."""
        raise NotImplementedError

    def choice_moves(self) -> Sequence[Move]:
        """:meth:`legal_moves` without forfeit, in the same order: what a simulated player picks
        from. A game whose move list is long and costly to build returns a :class:`MoveSequence`,
        so a random pick builds one move."""
        return [m for m in self.legal_moves() if m.get("type") != "forfeit"]

    def check(self, move: Any) -> Verdict:
        """Whether ``move`` is legal now, without changing the state."""
        raise NotImplementedError

    def apply(self, move: Any) -> None:
        """Make ``move`` or raise :class:`IllegalMove` (the state is then unchanged): :meth:`check`,
        then :meth:`make`."""
        verdict = self.check(move)
        if not verdict.ok:
            raise IllegalMove(verdict, move)
        self.make(move)

    def try_apply(self, move: Any) -> Verdict:
        """Make ``move`` when it is legal and return the verdict (the state is unchanged when it is
        refused), checking it once: what validating a transcript mostly spends."""
        verdict = self.check(move)
        if verdict.ok:
            self.make(move)
        return verdict

    def try_apply_for(self, player: Any, move: Any) -> Verdict:
        """:func:`judge`'s verdict on ``player`` making ``move``, the move made when it is legal
        (the state is unchanged when it is refused): :func:`judge_apply`'s way for a game that
        judges the seat too (:meth:`check_for`), or for a seat that is not the one to decide. A game
        may override it with a shorter way to the same verdicts and states."""
        verdict = judge(self, player, move)
        if verdict.ok:
            if type(self).apply is State.apply:
                self.make(move)  # check_for passed, so check did: made without a second check
            else:
                self.apply(move)
        return verdict

    def try_make_entry(self, entry: Any) -> bool:
        """Make a transcript entry's move (the move with its seat under ``"player"``) at once when
        it is surely legal for that seat and carries only the fields its type takes, and say so.
        False is no verdict: the state is unchanged and the validator judges the entry the long
        way, which words any refusal. A game with a one-pass judgement of the commonest moves
        overrides it (the validator then skips splitting the entry and checking its fields); by
        default nothing is made."""
        return False

    def make(self, move: Move) -> None:
        """Make ``move``, already checked legal. A game implements this, or overrides both
        :meth:`apply` and :meth:`try_apply` (a game whose check plans the move, say)."""
        raise NotImplementedError

    # -- end ------------------------------------------------------------
    def is_terminal(self) -> bool:
        raise NotImplementedError

    def result(self) -> Result | None:
        raise NotImplementedError

    # -- data -----------------------------------------------------------
    def setup(self) -> JSONDict:
        """What a transcript must record to replay this game (e.g. deck order)."""
        raise NotImplementedError

    def options(self) -> JSONDict:
        raise NotImplementedError

    def num_players(self) -> int:
        raise NotImplementedError

    def to_json(self) -> JSONDict:
        raise NotImplementedError

    def observation(self, player: int) -> JSONDict:
        """What ``player`` may see: hidden hands and the deck order are masked."""
        raise NotImplementedError

    def clone(self) -> "State":
        twin = self.game.state_from_json(json.loads(json.dumps(self.to_json())))
        if "_seat_names" in self.__dict__:
            twin.__dict__["_seat_names"] = self.__dict__["_seat_names"]
        return twin

    def digest(self) -> str:
        """A short hash of the full state; the Lua mirror computes the same text."""
        return state_digest(self.to_json())

    def seat_name(self, seat: int) -> str:
        """How messages name ``seat`` ("White", a player's name); games override this.

        >>> State().seat_name(1)
        'Seat 1'
        >>> named = State(); named.name_seats(["Ada", "Brian"]); named.seat_name(1)
        'Brian'
        """
        names = self.__dict__.get("_seat_names")
        if names is not None and 0 <= seat < len(names):
            return str(names[seat])
        return f"Seat {seat}"

    def name_seats(self, names: list[str]) -> None:
        """Name the seats after the players (a transcript's ``players``), for messages: by
        default :meth:`seat_name` then gives a seat its player's name ("Seat N" until then);
        a game with names of its own (seat colours) overrides both. A clone keeps the names."""
        self.__dict__["_seat_names"] = tuple(names)

    def json_strings(self) -> set[str]:
        """Optional hook: every string value in :meth:`to_json` (card ids, cells), which the move
        mutants (:mod:`rules.mutate`) try in a move's fields. Without it the JSON is walked; a
        game with a large state gives it for speed."""
        raise NotImplementedError

    def describe_move(self, move: Move) -> str:
        """A short human sentence for a move (for logs and the in-game notebook)."""
        return json.dumps(move, sort_keys=True)

    def table_view(self) -> JSONDict:
        """What a replay draws of this position, as an organiser sees it (everything, hidden hands
        and the deck order too). Plain JSON:

        * ``zones``: ``[{"label", "seat" (or None), "cards": [card ids], "face_down": bool}]`` (and
          ``"turned"``, a bool per card, where some lie upside down); a
          seat's zone is labelled without the seat ("hand"): the reader puts the player's name first;
        * ``boards``: ``[{"name": board name in the game's table.json, "cells": {cell id:
          {"piece": piece id, "face": 0 or 1} or {"card": card id} or {"text": words}}}]``;
        * ``scores``: one per seat, or None; ``turn``: the seat to decide, or None;
        * ``seats``: a short fact per seat ("white", "Light side"), or None;
        * ``lines``: short facts in words ("Round 2", "Water left: 30"), naming no seat.

        The default finds hands (a list of card ids per seat) and piles (a list of card ids) in
        :meth:`to_json`; a game with a board or richer zones overrides it.

        >>> class Toy(State):
        ...     def to_json(self): return {"hands": [["a"], ["b", "c"]], "deck": ["d"], "phase": "play"}
        ...     def num_players(self): return 2
        ...     def is_terminal(self): return False
        ...     def current_player(self): return 1
        >>> view = Toy().table_view()
        >>> [(z["label"], z["cards"]) for z in view["zones"]], view["turn"], view["lines"]
        ([('Deck', ['d']), ('hands', ['a']), ('hands', ['b', 'c'])], 1, ['Phase: play'])
        """
        data = self.to_json()
        seats = self.num_players()
        zones: list[JSONDict] = []
        for key in sorted(data):
            value = data[key]
            if key in ("setup", "options") or not isinstance(value, list):
                continue
            if _card_ids(value):
                zones.append(view_zone(key.replace("_", " ").capitalize(), value))
            elif len(value) == seats and all(_card_ids(v) for v in value):
                zones += [view_zone(key.replace("_", " "), v, s) for s, v in enumerate(value)]
        phase = data.get("phase")
        return {"zones": zones, "boards": [], "scores": None, "seats": None,
                "turn": None if self.is_terminal() else self.current_player(),
                "lines": [f"Phase: {phase}"] if isinstance(phase, str) else []}


#: the optional hooks of :class:`Game` and :class:`State` (declared on them, with docstrings):
#: a game defines any of them; :func:`hook` finds the ones it does
OPTIONAL_HOOKS: Mapping[str, tuple[str, ...]] = {
    "Game": ("heuristic_move", "heuristic_seat", "board_mutants", "table_actions"),
    "State": ("json_strings",),
}


def hook(obj: "Game | State", name: str) -> Callable[..., Any] | None:
    """``obj``'s optional hook ``name`` (one of :data:`OPTIONAL_HOOKS`), bound, or None when its
    game leaves it out (the base class only declares it).

    >>> hook(State(), "json_strings") is None
    True
    """
    base: type = Game if isinstance(obj, Game) else State
    if name not in OPTIONAL_HOOKS[base.__name__]:
        raise KeyError(f"{name!r} is not an optional hook of {base.__name__}")
    if getattr(type(obj), name, None) is getattr(base, name):
        return None
    found: Callable[..., Any] = getattr(obj, name)
    return found


def _card_ids(value: Any) -> bool:
    """A list of non-empty strings (empty lists too): what :meth:`State.table_view` takes for cards."""
    return isinstance(value, list) and all(isinstance(v, str) and v for v in value)


def view_zone(label: str, cards: Any, seat: int | None = None, face_down: bool = False,
              turned: list[bool] | None = None) -> JSONDict:
    """One zone of :meth:`State.table_view`: ``cards`` (ids) under ``label``, owned by ``seat``;
    ``turned`` marks the cards lying upside down (a card's orientation matters in some games)."""
    zone: JSONDict = {"label": label, "seat": seat, "cards": [str(c) for c in cards], "face_down": face_down}
    if turned is not None and any(turned):
        zone["turned"] = [bool(t) for t in turned]
    return zone


def name_in(seat: Any, names: Sequence[str] | None) -> str:
    """How a text names ``seat`` from a list of names (the players' or the game's): its name,
    "Seat N" for a seat past the list, "seat <value>" for what is no seat at all.

    >>> name_in(1, ["White", "Black"]), name_in(2, ["White", "Black"]), name_in("x", None)
    ('Black', 'Seat 2', 'seat x')
    """
    if type(seat) is not int or seat < 0:
        return f"seat {seat}"
    return names[seat] if names and seat < len(names) else f"Seat {seat}"


def whole_number(value: Any) -> int | None:
    """``value`` as an int when it is a whole number: an int, or a float such as 2.0 (JSON text
    ``2.0``, which the Lua mirrors read as 2: Lua 5.2 and MoonSharp have one number type), not a
    bool; else None. Every integer field of a move, a setup or an option takes a whole float as its
    integer, in both engines (the README's "Number types").

    >>> [whole_number(v) for v in (2, 2.0, 2.5, True, "2")]
    [2, 2, None, None, None]
    """
    if type(value) is int:
        return value
    if type(value) is float and value.is_integer():
        return int(value)
    return None


def shown(value: Any) -> str:
    """A JSON value as a refusal shows it, in the words the Lua mirrors use (their ``show``): text
    quoted, a whole number as an integer (Lua does not tell 1.0 from 1), None, True, False, and
    a list or an object by its kind.

    >>> [shown(v) for v in ("x", 2, 2.0, 2.5, None, True, [1], {})]
    ["'x'", '2', '2', '2.5', 'None', 'True', 'a list', 'an object']
    """
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "an object"
    if type(value) is float and value.is_integer() and abs(value) < 1e15:
        return str(int(value))
    return repr(value)


def seat_label(state: State, seat: Any) -> str:
    """How a refusal names ``seat``: the game's name for it ("White"), "Seat N" for a seat the game
    does not name, "seat <value>" for what is no seat at all (the Lua judge words it the same).

    >>> seat_label(State(), 2), seat_label(State(), "x")
    ('Seat 2', 'seat x')
    """
    if type(seat) is not int or seat < 0:
        return f"seat {seat}"
    try:
        return state.seat_name(seat)
    except (IndexError, KeyError):
        return f"Seat {seat}"


def judge(state: State, player: Any, move: Any) -> Verdict:
    """The verdict on ``player`` making ``move``: the game must be live, the
    player must be the one to decide, and the move must pass the game's check.
    The validator, the Lua runtime and check-lua all judge this way."""
    game = state.game
    if state.is_terminal():
        return game.verdict("game-over", "The game is already over; no more moves.")
    deciders = state.deciders()
    if isinstance(player, bool) or player not in deciders:
        if type(player) is int and 0 <= player < state.num_players() and state.any_seat_may(move):
            return state.check_for(player, move)
        who = " or ".join(seat_label(state, seat) for seat in deciders) or "nobody"
        seats = state.num_players()
        if type(player) is int and player >= seats:  # a seat the game does not have: no name to give it
            return game.verdict("turn-order", f"It is {who}'s decision; a game of {seats} player"
                                f"{'' if seats == 1 else 's'} has no seat {player}.")
        note = state.turn_order_note(player)
        return game.verdict("turn-order", f"It is {who}'s decision, not {seat_label(state, player)}'s."
                            + (" " + note if note else ""))
    return state.check_for(player, move)


def judge_apply(state: State, player: Any, move: Any) -> Verdict:
    """:func:`judge`, then the move made when legal, judged once (:meth:`State.try_apply`) where
    ``player`` is the one to decide; any other case takes :func:`judge`'s own way."""
    if type(state).check_for is State.check_for and player == state.current_player() and not state.is_terminal():
        return state.try_apply(move)  # a game that judges the seat too (check_for) takes judge's way
    return state.try_apply_for(player, move)


_JSON_SCALARS = frozenset({str, int, bool, float, type(None)})


def copy_json(value: Any) -> Any:
    """A deep copy of JSON data (dicts, lists, scalars), several times faster than copy.deepcopy.

    >>> a = {"x": [1, {"y": []}]}
    >>> b = copy_json(a); b["x"][1]["y"].append(2); a
    {'x': [1, {'y': []}]}
    """
    if type(value) is dict:
        return {k: v if type(v) in _JSON_SCALARS else copy_json(v) for k, v in value.items()}
    if type(value) is list:
        return [v if type(v) in _JSON_SCALARS else copy_json(v) for v in value]
    return value


#: the encoder canonical_json uses, made once (json.dumps makes one a call when given options).
_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def canonical_json(data: Any) -> str:
    """Compact JSON with sorted keys: the text both engines hash (``json.dumps(data,
    sort_keys=True, separators=(",", ":"), ensure_ascii=True)``)."""
    return _CANONICAL.encode(data)


def state_digest(data: Any) -> str:
    return hashlib.sha256(canonical_json(data).encode("ascii")).hexdigest()[:16]
