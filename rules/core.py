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
from dataclasses import dataclass, field
from typing import Any, ClassVar, Mapping

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
    """Options or a recorded setup that this game cannot start from."""


@dataclass
class Result:
    """How a finished game ended. ``winner`` is a seat, or None for a draw."""

    winner: int | None
    scores: list[Any]
    reason: str
    detail: JSONDict = field(default_factory=dict)

    def to_json(self) -> JSONDict:
        return {"winner": self.winner, "scores": self.scores, "reason": self.reason, **self.detail}


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

    def resolve_options(self, options: Mapping[str, Any] | None) -> JSONDict:
        """Defaults overlaid with ``options``; unknown names or values raise SetupError."""
        resolved = dict(self.options)
        for key, value in (options or {}).items():
            if key not in self.options:
                raise SetupError(f"unknown option {key!r} for {self.id} (known: {', '.join(sorted(self.options)) or 'none'})")
            default = self.options[key]
            if isinstance(default, bool) and not isinstance(value, bool):
                raise SetupError(f"option {key!r} takes true or false, not {value!r}")
            choices = self.option_choices.get(key)
            if choices is not None and value not in choices:
                raise SetupError(f"option {key!r} takes one of {', '.join(map(str, choices))}, not {value!r}")
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

    def describe(self) -> JSONDict:
        return {"id": self.id, "name": self.name, "players": [self.min_players, self.max_players],
                "options": dict(self.options)}


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

    # -- moves ----------------------------------------------------------
    def legal_moves(self) -> list[Move]:
        """Every legal move for :meth:`current_player`, in a stable order."""
        raise NotImplementedError

    def check(self, move: Any) -> Verdict:
        """Whether ``move`` is legal now, without changing the state."""
        raise NotImplementedError

    def apply(self, move: Any) -> None:
        """Make ``move`` or raise :class:`IllegalMove` (the state is then unchanged)."""
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
        return self.game.state_from_json(json.loads(json.dumps(self.to_json())))

    def digest(self) -> str:
        """A short hash of the full state; the Lua mirror computes the same text."""
        return state_digest(self.to_json())

    def describe_move(self, move: Move) -> str:
        """A short human sentence for a move (for logs and the in-game notebook)."""
        return json.dumps(move, sort_keys=True)


def judge(state: State, player: Any, move: Any) -> Verdict:
    """The verdict on ``player`` making ``move``: the game must be live, the
    player must be the one to decide, and the move must pass the game's check.
    The validator, the Lua runtime and check-lua all judge this way."""
    game = state.game
    if state.is_terminal():
        return game.verdict("game-over", "The game is already over; no more moves.")
    current = state.current_player()
    if player != current:
        return game.verdict("turn-order", f"It is player {current}'s decision, not player {player}'s.")
    return state.check(move)


def canonical_json(data: Any) -> str:
    """Compact JSON with sorted keys: the text both engines hash."""
    return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True)


def state_digest(data: Any) -> str:
    return hashlib.sha256(canonical_json(data).encode("ascii")).hexdigest()[:16]
