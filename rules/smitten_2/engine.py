"""Smitten 2: the reference rules engine (two players cooperating, or solo with two hands).

The seat count decides the mode: two seats play the cooperative game ("duo"), one seat the
solo game with two table hands (hand 0 is the left hand, hand 1 the right). The Lua mirror,
``lua_templates/games/smitten-2/rules.lua.j2``, follows :meth:`SmittenState.check` check
for check, so keep their order in step.

Moves (plain JSON, the transcript vocabulary)::

    {"type": "play", "card": "4a", "grid": 0}     # a card from a hand (duo: the mover's own)
    {"type": "flip", "hand": 1}                   # solo: turn a face-down card up to play it
    {"type": "swap", "card": "2b"}                # solo Easy: swap for the set-aside card
    {"type": "reveal", "card": "7a"}              # following the instruction (partner)
    {"type": "discard", "card": "7a"}
    {"type": "choose", "option": 1}
    {"type": "name", "value": 2}                  # the active player names a column or "revealed"/"another"
    {"type": "place", "card": "3b", "grid": 1}
    {"type": "draw", "hand": 0}                   # solo refill: which hand the card goes to
    {"type": "say", "words": "I can play"}        # duo table talk, optional; changes nothing
    {"type": "forfeit"}

In the duo "turn" phase both seats decide (:meth:`deciders`): either may play a card from
their own hand, and the transcript's ``player`` records who did. The card instructions are
data (``smitten-2.json`` ``instructions``): a list of steps run by :meth:`make`.

State data: ``grids`` two lists of 9 positions (card or ""), ``hands`` the face-up hands
(duo: each seat's hand), ``down`` each solo hand's face-down card or "", ``deck`` (top
first), ``set_aside`` (the setup card first; a discard lands here when the deck is empty),
``phase`` (turn, flipped, follow, refill), ``active`` (the hand or seat that played last, -1
before the first play), ``played``/``played_grid`` (the card being followed), ``steps`` (its
instruction's steps left), ``revealed``, ``named``, ``placed_grids``, ``forced`` (a solo
flipped card), ``swapped``, ``plays``; ``end`` appears when the game is over.
"""

from __future__ import annotations

import json
import math
import random
from importlib import resources
from typing import Any, Callable, ClassVar, Mapping

from rules.core import Game, JSONDict, Move, Result, RuleRef, SetupError, State, Verdict, copy_json, view_zone, whole_number
from rules.moveshape import move_shapes, shape_error

DATA: JSONDict = json.loads(resources.files("rules.smitten_2").joinpath("smitten-2.json").read_text("utf-8"))
DESIGNS: tuple[int, ...] = tuple(DATA["designs"])
CARDS: tuple[str, ...] = tuple(f"{d}{c}" for d in DESIGNS for c in DATA["copies"])
COLUMNS = int(DATA["grid"]["columns"])
SLOTS = COLUMNS * int(DATA["grid"]["rows"])
WIN_CARDS = int(DATA["win_cards"])
HAND_SIZES: dict[str, int] = dict(DATA["hand_sizes"])
SOLO_SIZE = int(DATA["solo_hand"]["size"])
TALK: tuple[str, ...] = tuple(DATA["talk"])
#: what may join two indicators in one sentence of table talk (S-8)
TALK_JOINERS: tuple[str, ...] = tuple(DATA["talk_joiners"])


def is_table_talk(words: str) -> bool:
    """Whether ``words`` are table talk (S-8): one of the indicators, or several joined by a
    joiner ("I can play, but I don't want to play"). Read left to right, each indicator then a
    joiner, as the Lua mirror's ``is_talk`` reads it.

    >>> is_table_talk("I can play, but I don't want to play"), is_table_talk("I have the 5")
    (True, False)
    """
    at = 0
    while True:
        said = next((w for w in TALK if words.startswith(w, at)), None)
        if said is None:
            return False
        at += len(said)
        if at == len(words):
            return True
        joiner = next((j for j in TALK_JOINERS if words.startswith(j, at)), None)
        if joiner is None:
            return False
        at += len(joiner)


def talk_refusal() -> str:
    """The words of a refused table talk."""
    return ("Only these may be said, alone or joined by 'but' or 'and': "
            + "; ".join(f"'{w}'" for w in TALK) + ".")
#: the section a solo balance refusal cites (the rule table's is the two-player Hard difficulty's)
SOLO_BALANCE_SECTION: str = DATA["rules"]["balance"]["solo_section"]
INSTRUCTIONS: dict[str, Any] = DATA["instructions"]
#: the move shapes (type, exact fields), declared once in moves.schema.json and read by both
#: engines (rules/moveshape.py here, runtime/moveshape.lua.j2 in the Lua rules)
SHAPES: JSONDict = move_shapes(json.loads(resources.files("rules.smitten_2").joinpath("moves.schema.json")
                                          .read_text("utf-8")))
MOVE_FIELDS: dict[str, tuple[str, ...]] = {t: tuple(SHAPES["fields"][t]) for t in SHAPES["order"]}
MOVE_TYPES = tuple(MOVE_FIELDS)
#: fields holding text, and fields holding a whole number; "value" takes either
TEXT_FIELDS = ("card", "words")
INT_FIELDS = ("grid", "hand", "option")
_FIELD_SETS = {t: frozenset(f) for t, f in MOVE_FIELDS.items()}
#: per move type, its TEXT_FIELDS and its INT_FIELDS (in those tuples' order)
_TYPED_FIELDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    t: (tuple(k for k in TEXT_FIELDS if k in f), tuple(k for k in INT_FIELDS if k in f)) for t, f in MOVE_FIELDS.items()}


def design(card: str) -> int:
    return int(card[:-1])


def position(card: str) -> int:
    """The card's fixed position in a grid, 0..8 in reading order (assumption A-7)."""
    pos = _POSITIONS.get(card)
    return design(card) - 1 if pos is None else pos


def row(card: str) -> int:
    return position(card) // COLUMNS


def column(card: str) -> int:
    return position(card) % COLUMNS


def _neighbours(pos: int) -> list[int]:
    r, c = divmod(pos, COLUMNS)
    out = []
    for dr, dc in ((-1, 0), (1, 0), (0, -1), (0, 1)):
        rr, cc = r + dr, c + dc
        if 0 <= rr < SLOTS // COLUMNS and 0 <= cc < COLUMNS:
            out.append(rr * COLUMNS + cc)
    return out


_CARD_SET = frozenset(CARDS)
_LEGAL = Verdict.legal()
_BOTH = (True, True)
#: the move types that carry out an instruction's step
_STEP_TYPES = frozenset({"place", "choose", "name", "reveal", "discard"})
#: empty positions in both grids once WIN_CARDS cards are placed (every card but the set-aside one:
#: the deck is empty then, so a move counts them only when it is)
_EMPTY_AT_WIN = 2 * SLOTS - WIN_CARDS
NEIGHBOURS: list[list[int]] = [_neighbours(p) for p in range(SLOTS)]
#: each card's position, looked up (the checks ask for it at every candidate)
_POSITIONS: dict[str, int] = {c: design(c) - 1 for c in CARDS}
#: each card's row and column, looked up (a placement's conditions ask for them at every candidate)
_ROWS: dict[str, int] = {c: row(c) for c in CARDS}
_COLUMNS: dict[str, int] = {c: column(c) for c in CARDS}


_SCALARS = frozenset({str, int, bool, float, type(None)})


def _is_literal(value: Any) -> bool:
    """Whether ``value`` is JSON data whose ``repr`` is a Python display building an equal copy:
    dicts with text keys, lists, text, whole numbers, booleans, None and finite numbers."""
    if type(value) is dict:
        return all(type(k) is str and _is_literal(v) for k, v in value.items())
    if type(value) is list:
        return all(map(_is_literal, value))
    if type(value) is float:
        return math.isfinite(value)
    return type(value) in _SCALARS


def _copier(data: Any) -> Callable[[], Any]:
    """A function returning a new deep copy of ``data`` (JSON data) at each call, equal to
    :func:`copy_json`'s: where ``data`` is literal (:func:`_is_literal`), a function whose body is
    ``data``'s display, building every dict and list anew without a call per container."""
    if _is_literal(data):
        maker: Callable[[], Any] = eval("lambda: " + repr(data), {"__builtins__": {}})  # noqa: S307
        if maker() == data:
            return maker
    return lambda: copy_json(data)


#: each design's instruction steps (the list in INSTRUCTIONS) and the function copying them
_COPIERS: dict[str, tuple[list[JSONDict], Callable[[], list[JSONDict]]]] = {}


def _instruction_steps(card: str) -> list[JSONDict]:
    """A copy of ``card``'s instruction steps for a state to own (one at every play); the copier is
    made once per design while the data's step list stays the same list (the data is not changed
    in place)."""
    key = _DESIGN_KEYS.get(card) or str(design(card))
    steps = INSTRUCTIONS[key]["steps"]
    cached = _COPIERS.get(key)
    if cached is None or cached[0] is not steps:
        cached = _COPIERS[key] = (steps, _copier(steps))
    return cached[1]()


#: each card's design as the key of INSTRUCTIONS
_DESIGN_KEYS: dict[str, str] = {c: str(design(c)) for c in CARDS}


def _is_card_set(deck: list[Any]) -> bool:
    """Whether ``deck`` (as long as the card list) holds each card once: its set is the cards'."""
    try:
        return set(deck) == _CARD_SET
    except TypeError:  # an unhashable entry: no card
        return False


#: a new game's state data before the deal: every key in its order, the scalars' first values
_START: JSONDict = {"mode": "", "options": None, "setup": None, "grids": None, "hands": None, "down": None,
                    "deck": None, "set_aside": None, "set_aside_up": False, "phase": "turn", "active": -1,
                    "played": "", "played_grid": -1, "steps": None, "revealed": "", "named": "",
                    "placed_grids": None, "forced": "", "swapped": False, "plays": 0}

#: resolved options by (items, their value types), for SmittenGame.resolve_options
_RESOLVED: dict[Any, JSONDict] = {}


class SmittenGame(Game):
    id = "smitten-2"
    name = DATA["name"]
    min_players = 1
    max_players = 2
    hidden_information = True
    chance = True
    result_kind = "cooperative"
    score_unit = "card placed"
    data: ClassVar[Mapping[str, Any]] = DATA
    options = {k: v["default"] for k, v in DATA["options"].items()}
    option_choices = {k: tuple(v["choices"]) for k, v in DATA["options"].items() if "choices" in v}
    rules = {k: RuleRef(k, v["section"], v["summary"]) for k, v in DATA["rules"].items()}
    max_game_length = 400

    def result_kind_for(self, num_players: int) -> str:
        return "solo" if num_players == 1 else "cooperative"

    def new_state(self, seed: int | None = 0, options: Mapping[str, Any] | None = None,
                  setup: Mapping[str, Any] | None = None, num_players: int | None = None) -> "SmittenState":
        opts = self.resolve_options(options)
        if num_players not in (None, 1, 2):
            raise SetupError(f"{self.id} is for 1 (solo) or 2 players, not {num_players}", field="players")
        solo = num_players == 1
        if setup is not None:
            deck = setup.get("deck") if type(setup) is dict or isinstance(setup, Mapping) else None
            if not (isinstance(deck, list) and len(deck) == len(CARDS) and _is_card_set(deck)):
                raise SetupError(f"setup.deck must hold each of the {len(CARDS)} cards (1a ... 9b) once")
            mode = setup.get("mode")
            if mode not in ("duo", "solo"):
                raise SetupError(f"setup.mode must be 'duo' (two players) or 'solo', not {mode!r}")
            if num_players is not None and (mode == "solo") != solo:
                raise SetupError(f"setup is for the {mode} game but there are {num_players} players")
            return SmittenState.start(self._checked(opts, mode == "solo"), {"deck": list(deck), "mode": mode})
        deck = list(CARDS)
        random.Random(seed).shuffle(deck)
        return SmittenState.start(self._checked(opts, solo), {"deck": deck, "mode": "solo" if solo else "duo"})

    def resolve_options(self, options: Mapping[str, Any] | None) -> JSONDict:
        """:meth:`Game.resolve_options`, remembered per option values and their types (a batch of
        transcripts mostly plays the same few); a refusal is not remembered."""
        try:
            key = (tuple(options.items()), tuple(map(type, options.values()))) if options else ()
            resolved = _RESOLVED.get(key)
        except (TypeError, AttributeError):  # an unhashable value, or no mapping: the long way
            return super().resolve_options(options)
        if resolved is None:
            resolved = super().resolve_options(options)
            if len(_RESOLVED) < 256:
                _RESOLVED[key] = resolved
        return dict(resolved)

    @staticmethod
    def _checked(opts: JSONDict, solo: bool) -> JSONDict:
        if solo and opts["difficulty"] != "medium":
            raise SetupError("option 'difficulty' is for two players; solo uses solo_easy, solo_left_hand, solo_balance")
        if not solo and (opts["solo_easy"] or opts["solo_left_hand"] or opts["solo_balance"]):
            raise SetupError("options solo_easy, solo_left_hand and solo_balance are for the solo game (1 player)")
        return opts

    def state_from_json(self, data: Mapping[str, Any]) -> "SmittenState":
        return SmittenState(copy_json(dict(data)))

    def lua_context(self) -> JSONDict:
        return {"cards": list(CARDS), "columns": COLUMNS, "slots": SLOTS, "neighbours": NEIGHBOURS,
                "win_cards": WIN_CARDS, "hand_sizes": HAND_SIZES, "solo_size": SOLO_SIZE, "talk": list(TALK), "talk_joiners": list(TALK_JOINERS), "solo_balance_section": SOLO_BALANCE_SECTION,
                "instructions": INSTRUCTIONS,
                "move_shapes": SHAPES, "data": dict(DATA)}

    def heuristic_move(self, obs: JSONDict, moves: list[Move], rng: random.Random) -> Move:
        from rules.smitten_2.heuristic import choose
        return choose(obs, moves, rng)

    def heuristic_seat(self, views: dict[int, tuple[JSONDict, list[Move]]], rng: random.Random) -> int:
        from rules.smitten_2.heuristic import choose_seat
        return choose_seat(views, rng)

    def board_mutants(self, move: Move, state: State, rng: random.Random) -> list[Any]:
        """Table-shaped wrong moves: the card in the other grid, another card, the other hand."""
        out: list[Any] = [{"type": "say", "words": "I have a 5"}, {"type": "flip", "hand": 0},
                          {"type": "swap", "card": rng.choice(CARDS)}, {"type": "draw", "hand": 1}]
        if "grid" in move:
            out.append({**move, "grid": 1 - move["grid"]} if move["grid"] in (0, 1) else {**move, "grid": 0})
        if "card" in move:
            out += [{**move, "card": c} for c in rng.sample(CARDS, 3)]
            out.append({"type": "place", "card": move["card"], "grid": rng.choice((0, 1))})
            out.append({"type": "play", "card": move["card"], "grid": rng.choice((0, 1))})
        if move.get("type") == "name":
            out += [{**move, "value": 1}, {**move, "value": "another"}, {**move, "value": 3}]
        if move.get("type") == "choose":
            out.append({**move, "option": 2})
        return out


GAME = SmittenGame()


def _as_ints(move: Move) -> Move:
    """``move`` with each whole-number float of an integer field (or of ``value``) made an int
    (a copy where one changes; the move itself otherwise)."""
    changed = {k: int(v) for k, v in move.items() if type(v) is float and k in _WHOLE_FIELDS and v.is_integer()}
    return {**move, **changed} if changed else move


#: the move fields that hold a whole number (``value`` may: a column number)
_WHOLE_FIELDS = frozenset(["value", *(k for _, ints in _TYPED_FIELDS.values() for k in ints)])


def _v(rule: str, message: str) -> Verdict:
    return GAME.verdict(rule, message)


def instruction_text(card: str) -> str:
    return str(INSTRUCTIONS[str(design(card))]["text"])


class SmittenState(State):
    """One position; ``self.s`` is the JSON data itself.

    Whether the game ends after a move because no move advances it (``end`` "cannot-follow" or
    "no-play") is the costliest question a move asks. A move made by :meth:`try_apply_for` (the
    validator's way) leaves it open in :attr:`_pending`: the next move that :meth:`_surely_legal`
    passes answers it (a move advances the game, so none ends it), and :attr:`s` answers it for
    any other reader (:meth:`_settle`). Only ``end`` waits so: the methods reading it
    (:meth:`is_terminal`, :meth:`deciders`, :meth:`result`) or handing the data out ask it
    first, as :attr:`s` does; the others read ``_data``, the same data but for ``end``.
    """

    game = GAME
    #: the end's reason should no move advance the game, while that is not asked yet; else ""
    _pending = ""

    def __init__(self, data: JSONDict):
        self._data = data

    @property
    def s(self) -> JSONDict:
        """The state data, ``end`` included where the game is over."""
        if self._pending:
            self._settle()
        return self._data

    def _settle(self) -> None:
        """Ask the open question (:attr:`_pending`): the game ends when no move advances it."""
        reason, self._pending = self._pending, ""
        if not self._can_progress():
            self._data["end"] = {"reason": reason, "won": False}

    @classmethod
    def start(cls, options: JSONDict, setup: JSONDict) -> "SmittenState":
        """A new game's state, owning ``options`` and ``setup`` (new dicts made for it by
        :meth:`SmittenGame.new_state`)."""
        solo = setup["mode"] == "solo"
        cards = setup["deck"]
        # dealt from the top: the set-aside card, then each hand in turn (solo: two face up, one down)
        set_aside = cards[:1]
        if solo:
            hands = [cards[1:3], cards[4:6]]
            down = [cards[3], cards[6]]
            deck = cards[7:]
        else:
            size = HAND_SIZES[options["difficulty"]]
            hands = [cards[1:1 + size], cards[1 + size:1 + 2 * size]]
            down = ["", ""]
            deck = cards[1 + 2 * size:]
        data = _START.copy()  # the keys in their order, the scalars set; the lists made anew
        data["mode"] = "solo" if solo else "duo"
        data["options"], data["setup"] = options, setup
        data["grids"] = [[""] * SLOTS, [""] * SLOTS]
        data["hands"], data["down"], data["deck"], data["set_aside"] = hands, down, deck, set_aside
        data["steps"], data["placed_grids"] = [], []
        st = cls(data)
        st._start_turn()
        return st

    # -- accessors ------------------------------------------------------
    @property
    def solo(self) -> bool:
        return bool(self._data["mode"] == "solo")

    def num_players(self) -> int:
        return 1 if self.solo else 2

    def setup(self) -> JSONDict:
        return dict(self._data["setup"])

    def options(self) -> JSONDict:
        return dict(self._data["options"])

    def to_json(self) -> JSONDict:
        return self.s

    def is_terminal(self) -> bool:
        if self._pending:  # s's test, written out: asked before every move
            self._settle()
        return "end" in self._data

    def partner(self) -> int:
        return 1 - int(self._data["active"])

    def holder(self, card: str) -> int | None:
        """The hand holding ``card`` face up, or None."""
        left, right = self._data["hands"]
        return 0 if card in left else 1 if card in right else None

    def placed(self) -> int:
        g0, g1 = self._data["grids"]
        return 2 * SLOTS - g0.count("") - g1.count("")  # an empty position holds ""

    def step(self) -> JSONDict | None:
        return self._data["steps"][0] if self._data["phase"] == "follow" and self._data["steps"] else None

    def any_seat_may(self, move: Any) -> bool:
        """Table talk, which either player may say at any time of the two-player game (S-8)."""
        return type(move) is dict and move.get("type") == "say" and self._data["mode"] != "solo"

    def deciders(self) -> list[int]:
        if self._pending:  # s's test, written out: asked before every move
            self._settle()
        s = self._data
        if "end" in s:
            return []
        if s["mode"] == "solo":
            return [0]
        if s["phase"] == "turn":
            return [0, 1]
        step = self.step()
        assert step is not None
        return [int(self._data["active"]) if step.get("by") == "active" else self.partner()]

    def current_player(self) -> int | None:
        seats = self.deciders()
        return seats[0] if seats else None

    def active_player(self) -> int | None:
        return None if self.is_terminal() or self.solo else (int(self._data["active"]) if self._data["active"] >= 0 else 0)

    def player_of(self, move: Move) -> int | None:
        s = self._data
        if s["phase"] == "turn" and s["mode"] != "solo" and move.get("type") == "play":
            return self.holder(move["card"])
        return self.current_player()

    def observation(self, player: int) -> JSONDict:
        """Hidden: the deck, the set-aside card (until a solo swap turns it up), the partner's
        hand (duo) and face-down cards (solo), each card shown as "?"."""
        obs = copy_json({k: v for k, v in self.s.items() if k != "setup"})
        obs["deck"] = ["?"] * len(obs["deck"])
        if not obs["set_aside_up"]:
            obs["set_aside"] = ["?"] * len(obs["set_aside"])
        obs["down"] = ["?" if c else "" for c in obs["down"]]
        if not self.solo:
            obs["hands"][1 - player] = ["?"] * len(obs["hands"][1 - player])
        obs["seat"] = player
        return obs

    # -- moves ------------------------------------------------------------
    def _candidates(self) -> list[Move]:
        s = self._data
        phase = s["phase"]
        out: list[Move] = []
        if phase == "turn":
            for h in (0, 1):
                out += [{"type": "play", "card": c, "grid": g} for c in s["hands"][h] for g in (0, 1)]
            if self.solo:
                out += [{"type": "flip", "hand": h} for h in (0, 1) if s["down"][h]]
                if s["options"]["solo_easy"]:
                    out += [{"type": "swap", "card": c} for h in (0, 1) for c in s["hands"][h]]
        elif phase == "flipped":
            out += [{"type": "play", "card": s["forced"], "grid": g} for g in (0, 1)]
        elif phase == "refill":
            out += [{"type": "draw", "hand": h} for h in (0, 1)]
        else:
            step = self.step()
            assert step is not None
            kind = step["do"]
            hand = s["hands"][self.partner()]
            if kind == "place":
                out += [{"type": "place", "card": c, "grid": g} for c in hand for g in (0, 1)]
            elif kind in ("reveal", "discard"):
                out += [{"type": kind, "card": c} for c in hand]
            elif kind == "choose":
                out += [{"type": "choose", "option": i} for i in range(len(step["options"]))]
            else:
                out += [{"type": "name", "value": v} for v in self._name_values(step)]
        return out

    def _progress_moves(self) -> list[Move]:
        ok = self._candidate_check()
        return [m for m in self._candidates() if ok(m)]

    def _can_progress(self) -> bool:
        """Whether any move advances the game: :meth:`_progress_moves` stopping at the first,
        without building the candidates where their checks are known: a turn's plays; a step's
        reveal, discard, choice or name (any candidate passes, so there need only be one)."""
        s = self._data
        phase = s["phase"]
        if phase == "turn":
            if s["mode"] != "solo":  # a duo turn's candidates are plays only, each from its holder's hand
                # (_position_ok's grid rules inlined: each grid's balance and emptiness, each card's position, asked once)
                g0, g1 = s["grids"]
                ok0, ok1 = self._balance_allows_each() if s["options"]["difficulty"] == "hard" else _BOTH
                # each grid the balance allows, and whether it is empty (any open position will do)
                grids = [(g, g.count("") == SLOTS) for g, ok in ((g0, ok0), (g1, ok1)) if ok]
                for cards in s["hands"]:
                    for c in cards:
                        pos = _POSITIONS.get(c)
                        if pos is None:
                            pos = position(c)
                        for g, empty in grids:
                            if not g[pos]:
                                if empty:
                                    return True
                                for n in NEIGHBOURS[pos]:
                                    if g[n]:
                                        return True
                return False
            play_fault = self._play_fault
            for cards in s["hands"]:
                for c in cards:
                    if play_fault(c, 0) is None or play_fault(c, 1) is None:
                        return True
            if s["mode"] != "solo":  # a duo turn's candidates are plays only
                return False
        elif phase == "follow" and s["steps"]:
            step = s["steps"][0]
            kind = step["do"]
            solo = s["mode"] == "solo"
            if kind == "place" and not (solo and s["options"]["solo_left_hand"]):
                # the placements' checks without building them: the grid rules (_position_ok's), then
                # the step's own
                grids = s["grids"]
                options = s["options"]
                allows = self._balance_allows_each() if (options["solo_balance"] if solo
                                                         else options["difficulty"] == "hard") else _BOTH
                follows = None if len(step) == 1 else self._follows  # {"do": "place"}: no condition
                if len(step) == 2 and "grid" in step:  # a grid condition alone (_follows'): the grids
                    # it lets take a card, asked once rather than at each candidate
                    where, played = step["grid"], s["played_grid"]
                    if where == "same":
                        allows = (allows[0] and played == 0, allows[1] and played == 1)
                    elif where == "other":
                        allows = (allows[0] and played != 0, allows[1] and played != 1)
                    elif where == "not-placed":
                        placed = s["placed_grids"]
                        allows = (allows[0] and 0 not in placed, allows[1] and 1 not in placed)
                    follows = None
                # conditions without a grid one (row, column, card, empty_in_both) read the card alone:
                # asked once per card, before its positions (the game mostly ends on such a step)
                per_card = None
                if follows is not None and "grid" not in step:
                    per_card, follows = follows, None
                for c in s["hands"][1 - s["active"]]:
                    if per_card is not None and not per_card(step, c, 0):
                        continue
                    pos = _POSITIONS.get(c)
                    if pos is None:
                        pos = position(c)
                    for g in (0, 1):
                        if allows[g]:
                            cells = grids[g]
                            if cells[pos]:
                                continue
                            for n in NEIGHBOURS[pos]:
                                if cells[n]:
                                    break
                            else:
                                if cells.count("") != SLOTS:  # an empty position holds ""
                                    continue
                            if follows is None or follows(step, c, g):
                                return True
                return False
            if kind == "reveal" or kind == "discard":
                return bool(s["hands"][1 - s["active"]])
            if kind == "choose":
                return bool(step["options"])
            if kind == "name":
                return bool(step["solo_values"] if solo and "solo_values" in step else step["values"])
        return any(map(self._candidate_check(), self._candidates()))

    def _balance_allows_each(self) -> tuple[bool, bool]:
        """:meth:`_balance_allows` for grid 0 and grid 1, the rule's options read once."""
        s = self._data
        options = s["options"]
        if options["solo_balance"] if s["mode"] == "solo" else options["difficulty"] == "hard":
            g0, g1 = s["grids"]
            n0, n1 = SLOTS - g0.count(""), SLOTS - g1.count("")
            return (n0 + 1) - n1 < 2, (n1 + 1) - n0 < 2
        return _BOTH

    def _balance_allows(self, grid: int) -> bool:
        """Whether the balance rule (where in play) lets ``grid`` take a card now
        (:meth:`_position_fault`'s ``balance``)."""
        s = self._data
        options = s["options"]
        if options["solo_balance"] if s["mode"] == "solo" else options["difficulty"] == "hard":
            grids = s["grids"]
            return (SLOTS - grids[grid].count("") + 1) - (SLOTS - grids[1 - grid].count("")) < 2
        return True

    def _candidate_check(self) -> Callable[[Move], bool]:
        """Whether an enumerated candidate (:meth:`_candidates`, well formed) passes the rules:
        :meth:`_check_rules`'s answer, plays and placements (the most candidates) judged by their
        fault codes (:meth:`_play_fault`, :meth:`_position_fault`) without wording refusals."""
        s = self._data
        phase = s["phase"]
        check = self._check_rules
        if phase == "turn" or phase == "flipped":
            play_fault = self._play_fault

            def ok(m: Move) -> bool:
                if m["type"] == "play":
                    return play_fault(m["card"], m["grid"]) is None
                return check(m).ok
            return ok
        if phase == "follow":
            step = self.step()
            assert step is not None
            if step["do"] == "place":  # _check_step: a candidate's card is in the partner's hand
                partner = self.partner()
                follows, fault = self._follows, self._position_fault
                return lambda m: follows(step, m["card"], m["grid"]) and fault(m["card"], m["grid"], partner) is None
        return lambda m: check(m).ok

    def legal_moves(self) -> list[Move]:
        """Every move that advances the game (table talk, optional and changing nothing, is not listed)."""
        if self.is_terminal():
            return []
        return self._progress_moves() + [{"type": "forfeit"}]

    def _name_values(self, step: JSONDict) -> list[Any]:
        return list(step["solo_values"] if self.solo and "solo_values" in step else step["values"])

    def check(self, move: Any) -> Verdict:
        if not isinstance(move, dict) or not isinstance(move.get("type"), str):
            return _v("move-format", str(shape_error(SHAPES, move)))
        if self.is_terminal():
            return _v("game-over", "The game is over; no more moves.")
        why = shape_error(SHAPES, move)
        if why is not None:
            return _v("move-format", why)
        t = move["type"]
        text_fields, int_fields = _TYPED_FIELDS[t]  # the move has exactly its type's fields here
        for key in text_fields:
            if not isinstance(move[key], str):
                return _v("move-format", f"Field '{key}' must be a string.")
        for key in int_fields:
            if type(move[key]) is not int:
                if whole_number(move[key]) is None:
                    return _v("move-format", f"Field '{key}' must be a whole number.")
                move = _as_ints(move)  # 1.0 is the whole number 1, as the Lua mirror reads it
        if "value" in move and type(move["value"]) not in (int, str):
            if whole_number(move["value"]) is None:
                return _v("move-format", "Field 'value' must be a whole number or a string.")
            move = _as_ints(move)
        if t == "forfeit":
            return Verdict.legal()
        if "card" in move and move["card"] not in _CARD_SET:
            return _v("unknown-card", f"There is no card '{move['card']}' (cards are 1a, 1b ... 9a, 9b).")
        if "grid" in move and move["grid"] not in (0, 1):
            return _v("unknown-grid", f"There is no grid {move['grid']} (the grids are 0 and 1).")
        if "hand" in move and move["hand"] not in (0, 1):
            return _v("unknown-hand", f"There is no hand {move['hand']} (0 is the left hand, 1 the right).")
        return self._check_rules(move)

    def _check_rules(self, move: Move) -> Verdict:
        """:meth:`check` past the move's form: for a well-formed move (an enumerated candidate)."""
        t = move["type"]
        s = self._data
        phase = s["phase"]
        if t == "say":
            if self.solo:
                return _v("not-now", "Table talk is for the two-player game.")
            if not is_table_talk(move["words"]):
                return _v("talk", talk_refusal())
            return Verdict.legal()
        if phase == "follow":
            step = self.step()
            assert step is not None
            if t != step["do"]:
                return _v("instruction", f"Card {s['played']} asks: {instruction_text(s['played'])} "
                                         f"(now: {step['do']}), not a '{t}'.")
            return self._check_step(step, move)
        allowed = {"turn": ("play", "flip", "swap"), "flipped": ("play",), "refill": ("draw",)}[phase]
        if t not in allowed:
            wanted = {"turn": "a card to be played", "flipped": f"the flipped card {s['forced']} to be played",
                      "refill": "a refill draw"}[phase]
            return _v("not-now", f"The game waits for {wanted}, not a '{t}'.")
        if t == "play":
            return self._check_play(move["card"], move["grid"])
        if t == "flip":
            if not self.solo:
                return _v("not-now", "Only the solo game has face-down cards.")
            hand = move["hand"]
            if not s["down"][hand]:
                return _v("face-down", f"Hand {hand} has no face-down card.")
            if s["options"]["solo_left_hand"] and s["plays"] == 0 and hand != 0:
                return _v("left-hand", "The first card played comes from the left hand (hand 0).")
            return Verdict.legal()
        if t == "swap":
            if not (self.solo and s["options"]["solo_easy"]):
                return _v("easy-swap", "Swapping for the set-aside card is the solo Easy option, not in play.")
            if s["swapped"]:
                return _v("easy-swap", "The set-aside card has already been swapped once this game.")
            if self.holder(move["card"]) is None:
                return _v("own-hand", f"Card {move['card']} is not face up in a hand.")
            return Verdict.legal()
        hand = move["hand"]  # draw
        if len(s["hands"][hand]) + (1 if s["down"][hand] else 0) >= SOLO_SIZE:
            return _v("hand-full", f"Hand {hand} is full; a refill card goes to a hand with at most 2 cards.")
        return Verdict.legal()

    def try_apply_for(self, player: Any, move: Any) -> Verdict:
        """:func:`rules.core.judge_apply`: a move :meth:`_surely_legal` passes is made at once,
        leaving the next end question open (see the class); any other takes
        :func:`rules.core.judge`'s way, which words the refusal."""
        if self._surely_legal(player, move):
            self._pending = ""  # answered: this move advances the game
            self._advance(move)
            return _LEGAL
        return super().try_apply_for(player, move)

    def _surely_legal(self, player: Any, move: Any) -> bool:
        """True only for a move :func:`rules.core.judge` passes for ``player`` (the game live, the
        seat one of :meth:`deciders`, :meth:`check_for` legal), judged in one pass over the
        state: the moves of a game in progress, well formed, by the seat to decide. False is no
        verdict (the long way gives it). Asked with the end question open (:attr:`_pending`):
        True for a move that advances the game (every move it passes does), so the game goes on."""
        s = self._data
        if "end" in s or type(move) is not dict or type(player) is not int:
            return False
        t = move.get("type")
        if type(t) is not str or move.keys() != _FIELD_SETS.get(t):
            return False
        phase = s["phase"]
        solo = s["mode"] == "solo"
        if phase == "follow":
            steps = s["steps"]
            if not steps:
                return False
            step = steps[0]
            if t != step["do"]:
                return False
            active = s["active"]
            partner = 1 - active
            if player != (0 if solo else active if step.get("by") == "active" else partner):
                return False
            if t == "place":
                card, grid = move["card"], move["grid"]
                if not (type(card) is str and type(grid) is int and (grid == 0 or grid == 1)
                        and card in s["hands"][partner] and (len(step) == 1 or self._follows(step, card, grid))):
                    return False
                return self._position_ok(card, grid, partner)
            if t == "reveal" or t == "discard":
                card = move["card"]
                return type(card) is str and card in s["hands"][partner]
            if t == "choose":
                option = move["option"]
                return type(option) is int and 0 <= option < len(step["options"])
            if t == "name":
                value = move["value"]
                values = step["solo_values"] if solo and "solo_values" in step else step["values"]
                return (type(value) is int or type(value) is str) and bool(values) \
                    and type(value) is type(values[0]) and value in values
            return False
        if t == "play" and (phase == "turn" or phase == "flipped"):
            card, grid = move["card"], move["grid"]
            if not (type(card) is str and type(grid) is int and (grid == 0 or grid == 1)):
                return False
            if phase == "flipped" and card != s["forced"]:
                return False
            left, right = s["hands"]
            hand = 0 if card in left else 1 if card in right else None
            if hand is None:
                return False
            if solo:
                if player != 0 or (s["options"]["solo_left_hand"] and s["plays"] == 0 and hand != 0):
                    return False
            elif hand != player or phase != "turn":
                return False
            return self._position_ok(card, grid, hand)
        if t == "draw" and phase == "refill" and solo and player == 0:
            hand = move["hand"]
            return type(hand) is int and (hand == 0 or hand == 1) \
                and len(s["hands"][hand]) + (1 if s["down"][hand] else 0) < SOLO_SIZE
        return False

    def check_for(self, player: int, move: Any) -> Verdict:
        verdict = self.check(move)
        if verdict.ok and not self.solo and self._data["phase"] == "turn" and move["type"] == "play" \
                and self.holder(move["card"]) != player:
            return _v("own-hand", f"Card {move['card']} is not in your hand.")
        return verdict

    def _play_fault(self, card: str, grid: int) -> str | None:
        """What a play of ``card`` to ``grid`` breaks (:meth:`_check_play`'s order), or None: a rule
        id, or ``left-hand-first`` (the left-hand rule's first play)."""
        s = self._data
        if s["phase"] == "flipped" and card != s["forced"]:
            return "flipped-card"
        hand = self.holder(card)
        if hand is None:
            return "face-down" if card in s["down"] else "own-hand"
        if s["mode"] == "solo" and s["options"]["solo_left_hand"] and s["plays"] == 0 and hand != 0:
            return "left-hand-first"  # the rule is left-hand; the code tells the two refusals apart
        return self._position_fault(card, grid, hand)

    def _check_play(self, card: str, grid: int) -> Verdict:
        fault = self._play_fault(card, grid)
        if fault is None:
            return Verdict.legal()
        s = self._data
        if fault == "flipped-card":
            return _v("flipped-card", f"The flipped card {s['forced']} is the card to play.")
        if fault == "face-down":
            return _v("face-down", f"Card {card} is face down: flip it to play it.")
        if fault == "own-hand":
            return _v("own-hand", f"Card {card} is not in a hand.")
        if fault == "left-hand-first":
            return _v("left-hand", "The first card played comes from the left hand (hand 0).")
        hand = self.holder(card)
        assert hand is not None
        return self._check_position(card, grid, hand)

    def _position_fault(self, card: str, grid: int, hand: int) -> str | None:
        """The rule placing ``card`` (from ``hand``) in ``grid`` breaks (:meth:`_check_position`'s
        order), or None."""
        s = self._data
        cells = s["grids"][grid]
        pos = _POSITIONS.get(card)
        if pos is None:
            pos = position(card)
        if cells[pos]:
            return "position-taken"
        empty = cells.count("")  # an empty position holds ""
        if empty != SLOTS:
            for n in NEIGHBOURS[pos]:
                if cells[n]:
                    break
            else:
                return "adjacency"
        options = s["options"]
        solo = s["mode"] == "solo"
        if options["solo_balance"] if solo else options["difficulty"] == "hard":
            if (SLOTS - empty + 1) - (SLOTS - s["grids"][1 - grid].count("")) >= 2:
                return "balance"
        if solo and options["solo_left_hand"] and hand != 0 and self.placed() + 1 == WIN_CARDS:
            return "left-hand"
        return None

    def _position_ok(self, card: str, grid: int, hand: int) -> bool:
        """Whether :meth:`_position_fault` finds nothing: the position and adjacency rules read
        here (the position empty, and next to a card unless the grid is empty), the balance and
        left-hand rules (where in play) there."""
        s = self._data
        options = s["options"]
        if s["mode"] == "solo":
            if options["solo_balance"] or options["solo_left_hand"]:
                return self._position_fault(card, grid, hand) is None
        elif options["difficulty"] == "hard":
            return self._position_fault(card, grid, hand) is None
        pos = _POSITIONS.get(card)
        if pos is None:
            pos = position(card)
        cells = s["grids"][grid]
        if cells[pos]:
            return False
        for n in NEIGHBOURS[pos]:
            if cells[n]:
                return True
        return cells.count("") == SLOTS  # an empty position holds ""

    def _check_position(self, card: str, grid: int, hand: int) -> Verdict:
        fault = self._position_fault(card, grid, hand)
        if fault is None:
            return Verdict.legal()
        cells = self._data["grids"][grid]
        pos = position(card)
        if fault == "position-taken":
            return _v("position-taken", f"Position {pos + 1} of grid {grid} already holds {cells[pos]}.")
        if fault == "adjacency":
            return _v("adjacency", f"Position {pos + 1} of grid {grid} is not next to a card in that grid.")
        if fault == "balance":
            mine = SLOTS - cells.count("") + 1
            other = SLOTS - self._data["grids"][1 - grid].count("")
            verdict = _v("balance", f"Grid {grid} would have {mine} cards against {other} in the other grid.")
            if self.solo:  # the solo Hard option's own section, not the two-player Hard difficulty's
                return Verdict(False, "balance", verdict.message, SOLO_BALANCE_SECTION)
            return verdict
        return _v("left-hand", "The last card placed comes from the left hand (hand 0).")

    def _check_step(self, step: JSONDict, move: Move) -> Verdict:
        s = self._data
        kind = step["do"]
        played = s["played"]
        if kind == "choose":
            if not 0 <= move["option"] < len(step["options"]):
                return _v("choose-option", f"Card {played} offers options 0 to {len(step['options']) - 1}.")
            return Verdict.legal()
        if kind == "name":
            value = move["value"]
            values = self._name_values(step)
            if type(value) is not type(values[0]) or value not in values:
                return _v("name-value", f"Card {played}: name one of {', '.join(map(str, values))}.")
            return Verdict.legal()
        card = move["card"]
        partner = self.partner()
        if card not in s["hands"][partner]:
            return _v("own-hand", f"Card {card} is not in the partner's hand.")
        if kind != "place":
            return Verdict.legal()
        grid = move["grid"]
        if not self._follows(step, card, grid):
            return _v("instruction", f"Card {played} asks: {instruction_text(played)} Not met: "
                                     f"{self._unmet(step, card, grid)}.")
        return self._check_position(card, grid, partner)

    def _unmet(self, step: JSONDict, card: str, grid: int) -> str:
        """The condition of a placement step that placing ``card`` in ``grid`` fails (one
        :meth:`_follows` finds), in words; the conditions asked in a fixed order (the Lua
        mirror's ``unmet``)."""
        s = self._data
        played, where = s["played"], step.get("grid")
        if where == "same" and grid != s["played_grid"]:
            return f"the card goes in grid {s['played_grid']}, where card {played} was played"
        if where == "other" and grid == s["played_grid"]:
            return f"the card goes in the other grid, not grid {grid} where card {played} was played"
        if where == "not-placed" and grid in s["placed_grids"]:
            return f"the card goes in a grid not placed in yet, and grid {grid} was"
        if step.get("row") == "same" and row(card) != row(played):
            return f"card {card} is not in the row of card {played}"
        if step.get("column") == "named" and column(card) != s["named"]:
            return f"card {card} is not in the named column (column {s['named']})"
        if step.get("empty_in_both"):
            return f"position {position(card) + 1} is not empty in both grids"
        which = step.get("card")
        if which == "named":
            which = "revealed" if s["named"] == "revealed" else "not-revealed"
        if which == "revealed":
            return f"the revealed card {s['revealed']} is placed, not {card}"
        return f"card {card} was revealed, and another card is placed"

    def _follows(self, step: JSONDict, card: str, grid: int) -> bool:
        """Whether placing ``card`` in ``grid`` meets the placement step's conditions (its keys
        ``grid``, ``row``, ``column``, ``empty_in_both`` and ``card``; any other key sets none)."""
        if len(step) == 1:  # {"do": "place"}: no condition
            return True
        s = self._data
        for key, value in step.items():  # each condition read where the step has it
            if key == "do":
                continue
            if key == "grid":
                if value == "same":
                    if grid != s["played_grid"]:
                        return False
                elif value == "other":
                    if grid == s["played_grid"]:
                        return False
                elif value == "not-placed" and grid in s["placed_grids"]:
                    return False
            elif key == "row":
                if value == "same":
                    mine, played = _ROWS.get(card), _ROWS.get(s["played"])
                    if (row(card) if mine is None else mine) != (row(s["played"]) if played is None else played):
                        return False
            elif key == "column":
                if value == "named":
                    mine = _COLUMNS.get(card)
                    if (column(card) if mine is None else mine) != s["named"]:
                        return False
            elif key == "empty_in_both":
                if value:
                    pos = _POSITIONS.get(card)
                    if pos is None:
                        pos = position(card)
                    g0, g1 = s["grids"]
                    if g0[pos] or g1[pos]:
                        return False
            elif key == "card":
                if value == "named":
                    value = "revealed" if s["named"] == "revealed" else "not-revealed"
                if value == "revealed":
                    if card != s["revealed"]:
                        return False
                elif value == "not-revealed" and card == s["revealed"]:
                    return False
        return True

    # -- effects ----------------------------------------------------------
    def make(self, move: Move) -> None:
        """Make ``move``, already checked."""
        move = _as_ints(move)
        if self._pending:
            self._settle()
        self._advance(move)
        if self._pending:
            self._settle()

    def _advance(self, move: Move) -> None:
        """:meth:`make` leaving the end question open (:attr:`_pending`) where the move asks it."""
        s = self._data
        t = move["type"]
        if t in _STEP_TYPES:  # the instruction's next step carried out
            step = s["steps"].pop(0)
            partner = 1 - s["active"]
            if t == "place":
                card = move["card"]
                s["hands"][partner].remove(card)
                grids = s["grids"]
                grids[move["grid"]][_POSITIONS[card]] = card
                s["placed_grids"].append(move["grid"])
                if not s["deck"] and grids[0].count("") + grids[1].count("") <= _EMPTY_AT_WIN and self._won():
                    return
            elif t == "choose":
                # the chosen option's steps join the list uncopied: the engine never changes a step
                # in place, only the lists holding them (rules.smitten_2.heuristic._fork relies on it too)
                s["steps"] = step["options"][move["option"]] + s["steps"]
            elif t == "name":
                s["named"] = move["value"]
            elif t == "reveal":
                s["revealed"] = move["card"]
            else:  # discard
                s["hands"][partner].remove(move["card"])
                (s["deck"] if s["deck"] else s["set_aside"]).append(move["card"])
                if s["mode"] == "solo" and step.get("solo_flip_rest") and s["down"][partner]:
                    s["hands"][partner].append(s["down"][partner])
                    s["down"][partner] = ""
        elif t == "play":
            card = move["card"]
            hands = s["hands"]
            hand = 0 if card in hands[0] else 1
            hands[hand].remove(card)
            grids = s["grids"]
            grids[move["grid"]][_POSITIONS[card]] = card
            s["plays"] += 1
            s["active"] = hand
            s["forced"] = ""
            partner = 1 - hand
            down = s["down"]
            if down[partner]:  # solo: the partner's face-down card turns up after a play
                hands[partner].append(down[partner])
                down[partner] = ""
            if not s["deck"] and grids[0].count("") + grids[1].count("") <= _EMPTY_AT_WIN and self._won():
                return
            s["played"], s["played_grid"] = card, move["grid"]
            s["steps"] = _instruction_steps(card)
            s["revealed"], s["named"], s["placed_grids"] = "", "", []
            s["phase"] = "follow"
        elif t == "forfeit":
            s["end"] = {"reason": "forfeit", "won": False}
            return
        elif t == "say":
            return
        elif t == "flip":
            hand = move["hand"]
            card = s["down"][hand]
            s["down"][hand] = ""
            s["hands"][hand].append(card)
            s["forced"] = card
            s["phase"] = "flipped"
            if all(self._play_fault(card, g) is not None for g in (0, 1)):
                s["end"] = {"reason": "face-down-unplayable", "won": False}
            return
        elif t == "swap":
            holder = self.holder(move["card"])
            assert holder is not None
            cards = s["hands"][holder]
            cards[cards.index(move["card"])] = s["set_aside"][0]
            s["set_aside"][0] = move["card"]
            s["set_aside_up"] = True
            s["swapped"] = True
            self._start_turn()
            return
        else:  # draw
            hand = move["hand"]
            card = s["deck"].pop(0)
            if len(s["hands"][hand]) <= 1:
                s["hands"][hand].append(card)
            else:
                s["down"][hand] = card
            if not self._refill_needed():
                self._start_turn()
            return
        # After a step (or a play): the turn ends when the instruction is done; the table loses
        # when the next step cannot be carried out (assumption S-2).
        if s["steps"]:
            self._pending = "cannot-follow"
            return
        s["played"], s["played_grid"], s["revealed"], s["named"], s["placed_grids"] = "", -1, "", "", []
        if s["mode"] == "solo":
            if self._refill_needed():
                s["phase"] = "refill"
                return
        else:
            size = HAND_SIZES[s["options"]["difficulty"]]
            deck, hands = s["deck"], s["hands"]
            for seat in (s["active"], 1 - s["active"]):  # the active player draws first
                need = size - len(hands[seat])
                if need > 0 and deck:  # from the top, as many as the deck has
                    hands[seat] += deck[:need]
                    del deck[:need]
        self._start_turn()

    def _won(self) -> bool:
        """17 cards in the grids: the finishing touch (the set-aside card) completes them; the table wins."""
        s = self._data
        if self.placed() < WIN_CARDS:
            return False
        card = s["set_aside"].pop(0)
        for g in (0, 1):
            if not s["grids"][g][position(card)]:
                s["grids"][g][position(card)] = card
                break
        s["end"] = {"reason": "all-placed", "won": True}
        return True

    def _refill_needed(self) -> bool:
        s = self._data
        return bool(s["deck"]) and any(len(s["hands"][h]) + (1 if s["down"][h] else 0) < SOLO_SIZE for h in (0, 1))

    def _start_turn(self) -> None:
        """A new turn; whether anyone can play is asked when the state is next read (:attr:`s`)."""
        self._data["phase"] = "turn"
        self._pending = "no-play"

    # -- end ------------------------------------------------------------
    def result(self) -> Result | None:
        if self._pending:  # s's test, written out: asked once a game
            self._settle()
        end = self._data.get("end")
        if end is None:
            return None
        placed = self.placed()
        if self._data["mode"] == "solo":
            return Result.solo(bool(end["won"]), end["reason"], score=placed, unit=self.game.score_unit)
        return Result.cooperative(bool(end["won"]), 2, end["reason"], score=placed, unit=self.game.score_unit)

    def table_view(self) -> JSONDict:
        """The organiser's table: both grids (cells a1..c3, row 1 at the top), the hands, the
        face-down cards, the draw deck (face down, in order) and the set-aside pile."""
        s = self.s
        boards = [{"name": f"grid-{g}", "cells": {f"{chr(97 + p % COLUMNS)}{p // COLUMNS + 1}": {"card": c}
                                                   for p, c in enumerate(grid) if c}}
                  for g, grid in enumerate(s["grids"])]
        if self.solo:  # one player, two hands
            zones = [view_zone(f"Hand {h}", s["hands"][h]) for h in range(len(s["hands"]))]
            zones += [view_zone(f"Hand {h}, face down", [c], face_down=True) for h, c in enumerate(s["down"]) if c]
        else:
            zones = [view_zone("hand", s["hands"][h], h) for h in range(len(s["hands"]))]
            zones += [view_zone("face down", [c], h, face_down=True) for h, c in enumerate(s["down"]) if c]
        zones.append(view_zone("Deck", s["deck"], face_down=True))
        zones.append(view_zone("Set aside", s["set_aside"], face_down=not s["set_aside_up"]))
        lines = [f"Phase: {s['phase']}", f"Cards placed: {self.placed()} ({WIN_CARDS} to win)"]
        if s["played"]:
            lines.append(f"Played: {s['played']} in grid {s['played_grid']}")
        return {"zones": zones, "boards": boards, "scores": None, "seats": None,
                "turn": self.current_player(), "lines": lines}

    def describe_move(self, move: Move) -> str:
        t = move.get("type")
        if t in ("play", "place"):
            return f"{t} {move['card']} in grid {move['grid']}"
        if t in ("flip", "draw"):
            return f"{t} (hand {move['hand']})"
        if t == "say":
            return f"say \"{move['words']}\""
        if t in ("reveal", "discard", "swap"):
            return f"{t} {move['card']}"
        if t == "choose":
            return f"choose option {move['option']}"
        if t == "name":
            return f"name {move['value']}"
        return str(t)
