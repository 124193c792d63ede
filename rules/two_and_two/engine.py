"""Two & Two: the reference rules engine.

The state is a small machine with four phases (the TTS Lua mirror,
``lua_templates/games/two-and-two/rules.lua.j2``, follows it line for line, so
keep the order of the checks in :meth:`TwoAndTwoState.check` and the order of
the effects in the ``_resolve*`` methods in step with it):

``stack-start``
    ``starter`` places the first card of a stack: the top card of the deck in
    either orientation, or a Symbol card from hand when the deck is empty.
``main``
    the active player's turn: play a Symbol card (optionally with a Flip), a
    Wild, a Skip, or draw when no Symbol card in hand is playable.
``after-draw``
    the active player drew ``drawn``: play it (or pair a drawn Flip), Skip, or
    end the turn (refused while the drawn card is playable: anti-hoarding).
``reaction``
    a play (or a Deny) is pending; ``reactor`` may Deny it or pass.

Moves (plain JSON, the transcript vocabulary)::

    {"type": "start-stack", "card": "c1200", "orientation": "up"}
    {"type": "play", "card": "c1200"}            # a Symbol card
    {"type": "play", "card": "c1200", "flip": "sf-3"}
    {"type": "wild", "card": "wd-2"}
    {"type": "skip", "card": "sf-1", "target": "own" | "opponent"}
    {"type": "draw"}                              # optional "card": the drawn id, checked
    {"type": "end-turn"}
    {"type": "deny", "card": "wd-4", "target": "c1200"}
    {"type": "pass"}
    {"type": "forfeit"}
"""

from __future__ import annotations

import json
import random
from functools import lru_cache
from importlib import resources
from typing import Any, ClassVar, Mapping

from rules.core import Game, JSONDict, Move, Result, RuleRef, SetupError, State, Verdict, copy_json, view_zone
from rules.mutate import _strings
from rules.two_and_two.cards import (EMPTY, Card, build_cards, filled, load_data, oriented, overlay,
                                     placement_error)

DATA = load_data()
CARDS: dict[str, Card] = build_cards(DATA)
HAND_SIZE: int = DATA["hand_size"]
PATTERNS = frozenset(DATA["patterns"])


def _move_fields() -> dict[str, frozenset[str]]:
    """The fields each move type may carry, read from ``moves.schema.json`` (one list for both engines)."""
    schema = json.loads(resources.files(__package__).joinpath("moves.schema.json").read_text("utf-8"))
    return {alt["properties"]["type"]["const"]: frozenset(alt["properties"]) for alt in schema["oneOf"]}


MOVE_FIELDS: dict[str, frozenset[str]] = _move_fields()
MOVE_TYPES = tuple(MOVE_FIELDS)
#: every field some move type has; a field of another type is judged by the rules (a Flip on a Skip is refused
#: under rule 'flip'), a field no move has is a move-format error
MOVE_FIELD_NAMES: tuple[str, ...] = tuple(sorted(frozenset().union(*MOVE_FIELDS.values())))
_MOVE_FIELD_SET = frozenset(MOVE_FIELD_NAMES)
#: placement_error per (card code in the table frame, visible code): 81 x 81 inputs at most, and
#: the stack geometry on strings was a third of a playout.
_placement_error = lru_cache(maxsize=16_384)(placement_error)
_overlay = lru_cache(maxsize=16_384)(overlay)
ORIENTATIONS = ("up", "down")
#: what a seat's observation leaves out of the state (the hands, the deck order, the drawn card).
_UNSEEN = frozenset({"deck", "hands", "drawn", "setup"})
#: every key a state's JSON may have (TwoAndTwoState.json_strings knows where their strings are).
_STATE_KEYS = frozenset({"options", "setup", "deck", "hands", "stack", "visible", "orientation", "discard",
                         "sets", "skips", "phase", "active", "starter", "drawn", "moves", "pending", "end"})
FLIPPED = {"up": "down", "down": "up"}


class TwoAndTwoGame(Game):
    id = "two-and-two"
    name = DATA["name"]
    min_players = 2
    max_players = 2
    hidden_information = True   # the hands and the deck order
    chance = True               # the shuffled deck
    score_unit = "set"
    data: ClassVar[Mapping[str, Any]] = DATA
    options = {k: v["default"] for k, v in DATA["options"].items()}
    option_choices = {k: tuple(v["choices"]) for k, v in DATA["options"].items() if "choices" in v}
    rules = {k: RuleRef(k, v["section"], v["summary"]) for k, v in DATA["rules"].items()}
    # 50 cards; every move but pass/end-turn consumes a card or a deck card, and
    # each of those follows a consuming move: a generous bound.
    max_game_length = 600

    def new_state(self, seed: int | None = 0, options: Mapping[str, Any] | None = None,
                  setup: Mapping[str, Any] | None = None, num_players: int | None = None) -> "TwoAndTwoState":
        if num_players not in (None, 2):
            raise SetupError(f"{self.id} is for exactly 2 players, not {num_players}", field="players")
        opts = self.resolve_options(options)
        if setup is None:
            deck = list(CARDS)
            random.Random(seed).shuffle(deck)
        else:
            deck = _checked_deck(setup)
        return TwoAndTwoState.deal(opts, deck)

    def state_from_json(self, data: Mapping[str, Any]) -> "TwoAndTwoState":
        return TwoAndTwoState(dict(data))

    def lua_context(self) -> JSONDict:
        return {
            "cards": {c.id: {"kind": c.kind, "code": c.code, "ordinal": c.ordinal, "key": c.key, "name": c.name}
                      for c in CARDS.values()},
            "card_order": list(CARDS),
            "hand_size": HAND_SIZE,
            "move_types": list(MOVE_TYPES),
            "move_field_names": list(MOVE_FIELD_NAMES),
            "data": dict(DATA),
        }

    def verdict(self, rule_id: str, message: str, penalty: str = "") -> Verdict:
        """:meth:`Game.verdict`, made once per rule, message and penalty and shared (a Verdict is
        frozen; making one is most of what judging a wrong move costs): the engine's refusals and
        the judge's (``rules.core.judge``: the game is over, another seat's turn) alike."""
        return _verdict(self, rule_id, message, penalty)

    def heuristic_move(self, obs: JSONDict, moves: list[Move], rng: random.Random) -> Move:
        """A simple player: complete sets, deny completions, otherwise play rather than skip."""
        return _heuristic(obs, moves, rng)


def _checked_deck(setup: Mapping[str, Any]) -> list[str]:
    if not isinstance(setup, Mapping):
        raise SetupError("the setup must be an object with a 'deck'", field="setup")
    deck = setup.get("deck")
    if not isinstance(deck, list) or not all(isinstance(c, str) for c in deck):
        raise SetupError("setup.deck must be a list of card ids")
    unknown = [c for c in deck if c not in CARDS]
    if unknown:
        raise SetupError(f"setup.deck names unknown card {unknown[0]!r}")
    if sorted(deck) != sorted(CARDS):
        missing = sorted(set(CARDS) - set(deck))
        raise SetupError(f"setup.deck must hold each of the {len(CARDS)} cards once"
                         + (f" (missing {missing[0]!r})" if missing else " (a card is repeated)"))
    return list(deck)


GAME = TwoAndTwoGame()


@lru_cache(maxsize=4096)
def _verdict(game: Game, rule: str, message: str, penalty: str) -> Verdict:
    """TwoAndTwoGame.verdict's refusals, kept."""
    return Game.verdict(game, rule, message, penalty)


def _v(rule: str, message: str, penalty: str = "") -> Verdict:
    return _verdict(GAME, rule, message, penalty)


#: how a message says a stack's first card lies, and the moves made with a button (rules.lua.j2 says the same)
_ORIENTATION_WORDS = {"up": "upright", "down": "upside down"}
_BUTTON_WORDS = {"draw": "draws a card", "end-turn": "ends the turn", "pass": "passes (no Deny)", "forfeit": "forfeits"}


def _name(cid: str) -> str:
    """A card as players read it ("Wild / Deny"); an id not in the deck as given."""
    card = CARDS.get(cid)
    return card.name if card else cid


SEAT_NAMES: tuple[str, ...] = tuple(DATA["seat_names"]["names"])


def _sort_hand(hand: list[str]) -> None:
    hand.sort(key=lambda c: CARDS[c].ordinal)


class TwoAndTwoState(State):
    """One position. ``self.s`` is the JSON data itself (no None values inside)."""

    game = GAME
    #: json_strings' finds that last a game: (a copy of the setup's deck, of the options, the deck's
    #: strings, the options' strings), or None before the first
    _kept_strings: tuple[list[str], JSONDict, frozenset[str], frozenset[str]] | None = None

    def __init__(self, data: JSONDict, seat_names: tuple[str, ...] = SEAT_NAMES):
        self.s = data
        self.seat_names = seat_names  # not game data: how messages name the seats

    # -- construction ---------------------------------------------------
    @classmethod
    def deal(cls, options: JSONDict, deck: list[str]) -> "TwoAndTwoState":
        hands = [sorted(deck[0:HAND_SIZE], key=lambda c: CARDS[c].ordinal),
                 sorted(deck[HAND_SIZE:2 * HAND_SIZE], key=lambda c: CARDS[c].ordinal)]
        st = cls({
            "options": dict(options),
            "setup": {"deck": list(deck)},
            "deck": deck[2 * HAND_SIZE:],
            "hands": hands,
            "stack": [],
            "visible": EMPTY,
            "orientation": "up",
            "discard": [],
            "sets": [[], []],
            "skips": [0, 0],
            "phase": "stack-start",
            "active": 1,
            "starter": 0,
            "drawn": "",
            "moves": 0,
        })
        st._begin_stack(0, alternate=False)
        return st

    # -- interface ------------------------------------------------------
    def current_player(self) -> int | None:
        ph = self.s["phase"]
        if ph == "over":
            return None
        if ph == "stack-start":
            return int(self.s["starter"])
        if ph == "reaction":
            return int(self.s["pending"]["reactor"])
        return int(self.s["active"])

    def active_player(self) -> int | None:
        return None if self.s["phase"] == "over" else int(self.s["active"])

    def is_terminal(self) -> bool:
        return bool(self.s["phase"] == "over")

    def num_players(self) -> int:
        return 2

    def options(self) -> JSONDict:
        return dict(self.s["options"])

    def setup(self) -> JSONDict:
        return {"deck": list(self.s["setup"]["deck"])}

    def to_json(self) -> JSONDict:
        return self.s

    def json_strings(self) -> set[str]:
        """Every string value in :meth:`to_json` (the mutants' hook, see ``rules.mutate``),
        without walking it all: the card lists whole, the few other strings one by one, and the
        small parts (options, a pending play, the end) walked. A state with a key this does not
        know is walked whole."""
        s = self.s
        if not s.keys() <= _STATE_KEYS:
            return _strings(s)
        # the setup's cards and the options' strings found once a game: kept with a copy of what
        # they were found in, used while that is equal (check-lua asks at every move)
        setup_deck, options = s["setup"]["deck"], s["options"]
        kept = self._kept_strings
        if kept is None or kept[0] != setup_deck or kept[1] != options:
            kept = self._kept_strings = (list(setup_deck), copy_json(options), frozenset(setup_deck),
                                         frozenset(_strings(options)))
        out = set(kept[2])
        out.update(s["deck"], s["hands"][0], s["hands"][1], s["discard"], kept[3])
        for entry in s["stack"]:
            out.update(entry.values())
        out.update((s["visible"], s["orientation"], s["phase"], s["drawn"]))
        pending, end = s.get("pending"), s.get("end")
        if pending is not None or end is not None:
            out |= _strings([pending, end])
        return out

    def clone(self) -> "TwoAndTwoState":
        return TwoAndTwoState(copy_json(self.s), self.seat_names)

    def seat_name(self, seat: int) -> str:
        """How messages name ``seat``: the player's name once :meth:`name_seats` is told it
        (a transcript's ``players[i].name``), else the seat colour from the data."""
        return self.seat_names[seat]

    def name_seats(self, names: list[str]) -> None:
        """Name the seats in messages after the players (e.g. a transcript's ``players``)."""
        if len(names) != 2 or not all(isinstance(n, str) and n for n in names):
            raise SetupError("two-and-two names exactly 2 seats, each with a non-empty name")
        self.seat_names = tuple(names)

    def result(self) -> Result | None:
        if self.s["phase"] != "over":
            return None
        sets = self.s["sets"]
        scores = [len(sets[0]), len(sets[1])]
        largest = [max(sets[0], default=0), max(sets[1], default=0)]
        end = self.s["end"]
        detail = {"sets": [list(sets[0]), list(sets[1])], "largest_set": largest}
        unit = self.game.score_unit
        if end["reason"] == "forfeit":
            return Result.win(1 - int(end["player"]), scores, "forfeit",
                              {**detail, "forfeited_by": int(end["player"])}, unit)
        if scores[0] != scores[1]:
            return Result.win(0 if scores[0] > scores[1] else 1, scores, "most-sets", detail, unit)
        if largest[0] != largest[1]:
            return Result.win(0 if largest[0] > largest[1] else 1, scores, "largest-set", detail, unit)
        return Result.draw(scores, "draw", detail, unit)

    def observation(self, player: int) -> JSONDict:
        s = self.s
        obs = {k: copy_json(v) for k, v in s.items() if k not in _UNSEEN}
        obs["player"] = player
        obs["hand"] = list(s["hands"][player])
        obs["hand_sizes"] = [len(s["hands"][0]), len(s["hands"][1])]
        obs["deck_size"] = len(s["deck"])
        if s["drawn"] and player == s["active"]:
            obs["drawn"] = s["drawn"]
        return obs

    def describe_move(self, move: Move) -> str:
        t = move.get("type")
        card = CARDS.get(move.get("card", ""))
        name = card.describe() if card else str(move.get("card", ""))
        if t == "start-stack":
            return f"starts the stack with {name}, {_ORIENTATION_WORDS.get(str(move.get('orientation')), move.get('orientation'))}"
        if t == "play":
            return f"plays {name}" + (f" with a Flip ({_name(move['flip'])})" if move.get("flip") else "")
        if t == "wild":
            return f"plays {_name(str(move.get('card')))} as Wild"
        if t == "skip":
            whom = "their own turn" if move.get("target") == "own" else "the opponent's next turn"
            return f"plays {_name(str(move.get('card')))} as Skip (skipping {whom})"
        if t == "deny":
            return f"denies {_name(str(move.get('target')))} with {_name(str(move.get('card')))}"
        return _BUTTON_WORDS.get(str(t), str(t))

    def table_view(self) -> JSONDict:
        """The organiser's table: the deck (face down, in order), both hands, the stack (its top
        card last), the discard pile; the sets each seat has won as scores."""
        s = self.s
        zones = [view_zone("Deck", s["deck"], face_down=True)]
        zones += [view_zone("hand", s["hands"][p], p) for p in (0, 1)]
        zones.append(view_zone(f"Stack, showing {s['visible']} ({s['orientation']})",
                               [e["card"] for e in s["stack"]],
                               turned=[e.get("orientation") == "down" for e in s["stack"]]))
        zones.append(view_zone("Discard", s["discard"]))
        seats = [f"sets of {', '.join(map(str, s['sets'][p])) or 'none yet'}"
                 + (f", {s['skips'][p]} skip(s) pending" if s["skips"][p] else "") for p in (0, 1)]
        return {"zones": zones, "boards": [], "scores": [len(s["sets"][0]), len(s["sets"][1])], "seats": seats,
                "turn": self.current_player(), "lines": [f"Phase: {s['phase']}"]}

    # -- checking -------------------------------------------------------
    def check(self, move: Any) -> Verdict:
        if not isinstance(move, dict) or not isinstance(move.get("type"), str):
            return _v("move-format", "A move is an object with a string field 'type'.")
        s = self.s
        t = move["type"]
        if s["phase"] == "over":
            return _v("game-over", "The game is over; no more moves.")
        if t not in MOVE_TYPES:
            return _v("move-format", f"Unknown move type {t!r}.")
        if not move.keys() <= _MOVE_FIELD_SET:
            extra = sorted(str(k) for k in move if k not in _MOVE_FIELD_SET)
            return _v("move-format", f"No move has a field {extra[0]!r}; the fields are "
                                     f"{', '.join(MOVE_FIELD_NAMES)}.")
        for field in ("card", "flip", "target", "orientation"):
            if field in move and not isinstance(move[field], str):
                return _v("move-format", f"Field {field!r} must be a string.")
        if t == "forfeit":
            return Verdict.legal()
        if "card" in move and move["card"] not in CARDS:
            return _v("unknown-card", f"There is no card {move['card']!r} in this deck.")
        if "flip" in move and move["flip"] not in CARDS:
            return _v("unknown-card", f"There is no card {move['flip']!r} in this deck.")
        ph = s["phase"]
        if ph == "stack-start":
            if t != "start-stack":
                return _v("new-stack", f"{self.seat_name(s['starter'])} must start a new stack before anything "
                                       "else is played.")
            return self._check_start(move)
        if ph == "reaction":
            if t == "pass":
                return Verdict.legal()
            if t != "deny":
                return _v("turn-order", f"A Deny window is open: {self.seat_name(s['pending']['reactor'])} "
                                        "may deny or pass first.")
            return self._check_deny(move)
        if t == "start-stack":
            return _v("new-stack", "The stack is already started.")
        if t in ("deny", "pass"):
            return _v("deny", "No Deny window is open: Deny answers a card your opponent just played.")
        if t == "draw":
            return self._check_draw(move)
        if t == "end-turn":
            return self._check_end_turn()
        if "card" not in move:
            return _v("move-format", f"A {t!r} move needs a 'card'.")
        hand = s["hands"][s["active"]]
        card = CARDS[move["card"]]
        if card.id not in hand:
            return _v("card-in-hand", f"{card.name} is not in your hand.")
        if "flip" in move and t != "play":
            return _v("wild" if t == "wild" else "flip",
                      "A Wild cannot be flipped." if t == "wild" else "Flip is played together with a Symbol card.")
        if t == "play":
            return self._check_play(move, card, hand)
        if t == "wild":
            return self._check_wild(card)
        return self._check_skip(move, card)

    def _check_start(self, move: Move) -> Verdict:
        s = self.s
        if "card" not in move or "orientation" not in move:
            return _v("move-format", "start-stack needs 'card' and 'orientation'.")
        if move["orientation"] not in ORIENTATIONS:
            return _v("move-format", "Orientation is 'up' or 'down'.")
        card = move["card"]
        if s["deck"]:
            if card != s["deck"][0]:
                return _v("new-stack", f"The new stack starts with the top card of the deck, "
                                       f"{_name(s['deck'][0])}, not {_name(card)}.")
            return Verdict.legal()
        if card not in s["hands"][s["starter"]]:
            return _v("card-in-hand", f"{_name(card)} is not in your hand.")
        if not CARDS[card].is_symbol:
            return _v("new-stack", "With the deck empty, the stack starts with a Symbol card from hand.")
        return Verdict.legal()

    def _check_play(self, move: Move, card: Card, hand: list[str]) -> Verdict:
        s = self.s
        if not card.is_symbol:
            use = "Wild" if card.kind == "wild-deny" else "Skip"
            return _v("declare-effect", f"{card.name} is an Effect card: declare it as {use} or "
                                        f"{'Deny' if use == 'Wild' else 'Flip'}, not as a Symbol card.")
        flip = move.get("flip", "")
        if flip:
            if flip not in hand:
                return _v("card-in-hand", f"{_name(flip)} is not in your hand.")
            if CARDS[flip].kind != "skip-flip":
                return _v("flip", f"Only a Skip / Flip card can Flip; {_name(flip)} is not one.")
        if s["phase"] == "after-draw" and card.id != s["drawn"] and flip != s["drawn"]:
            return _v("drawing", "After drawing, you may play only the drawn card, or pair a drawn Flip "
                                 "with a Symbol card; take another turn with a Skip first.")
        orientation = FLIPPED[s["orientation"]] if flip else s["orientation"]
        err = _placement_error(oriented(card.code, orientation), s["visible"])
        if err is not None:
            return _placement_verdict(err, card, orientation, s["visible"])
        return Verdict.legal()

    def _check_wild(self, card: Card) -> Verdict:
        s = self.s
        if card.kind != "wild-deny":
            return _v("declare-effect", f"Only a Wild / Deny card can be played as Wild; {card.name} is not one.")
        if s["phase"] == "after-draw" and card.id != s["drawn"]:
            return _v("drawing", "A Wild from your hand can follow a draw only after a Skip gives you another turn.")
        if filled(s["visible"]) != 3:
            return _v("wild", f"Wild completes a stack with exactly 3 symbols filled; the stack has {filled(s['visible'])}.")
        return Verdict.legal()

    def _check_skip(self, move: Move, card: Card) -> Verdict:
        if card.kind != "skip-flip":
            return _v("declare-effect", f"Only a Skip / Flip card can be played as Skip; {card.name} is not one.")
        if move.get("target") not in ("own", "opponent"):
            return _v("skip", "A Skip names its target: 'own' (your turn) or 'opponent' (their next turn).")
        return Verdict.legal()

    def _check_draw(self, move: Move) -> Verdict:
        s = self.s
        if s["phase"] == "after-draw":
            return _v("drawing", "You have already drawn this turn.")
        if not s["deck"]:
            return _v("drawing", "The deck is empty.")
        playable = self._playable_symbol(s["hands"][s["active"]])
        if playable:
            return _v("mandatory-play", f"You hold {_name(playable)}, which is valid on the stack: you must play "
                                        "it (or Skip) instead of drawing.", penalty="forfeit")
        if "card" in move and move["card"] != s["deck"][0]:
            return _v("drawing", f"The card drawn must be the top card of the deck, not {_name(move['card'])}.")
        return Verdict.legal()

    def _check_end_turn(self) -> Verdict:
        s = self.s
        if s["phase"] == "main":
            playable = self._playable_symbol(s["hands"][s["active"]])
            if playable:  # ending the turn holds the card back: the Anti-Hoarding sentence forfeits it
                return _v("mandatory-play", f"You hold {_name(playable)}, which is valid on the stack: you must "
                                            "play it (or Skip) instead of ending your turn.", penalty="forfeit")
            if not s["deck"]:
                return Verdict.legal()  # only Effect plays remain, and they are optional: the game ends
            return _v("drawing", "A turn ends by playing; you end it yourself only after drawing.")
        drawn = CARDS[s["drawn"]]
        if drawn.is_symbol and _placement_error(oriented(drawn.code, s["orientation"]), s["visible"]) is None:
            return _v("anti-hoarding", f"You drew {drawn.name}, which is playable: you must play it.",
                      penalty="forfeit")
        return Verdict.legal()

    def _check_deny(self, move: Move) -> Verdict:
        s = self.s
        pend = s["pending"]
        if "card" not in move or "target" not in move:
            return _v("move-format", "deny needs 'card' and 'target'.")
        card = move["card"]
        if card not in s["hands"][pend["reactor"]]:
            return _v("card-in-hand", f"{_name(card)} is not in your hand.")
        if CARDS[card].kind != "wild-deny":
            return _v("declare-effect", f"Only a Wild / Deny card can be played as Deny; {_name(card)} is not one.")
        targets = _deny_targets(pend)
        if move["target"] not in targets:
            return _v("deny", f"Deny negates a card {self.seat_name(1 - pend['reactor'])} just played "
                              f"({' or '.join(_name(t) for t in targets)}), not {_name(move['target'])}.")
        return Verdict.legal()

    def _playable_symbol(self, hand: list[str]) -> str:
        """The first Symbol card in ``hand`` valid without a Flip, or ''."""
        s = self.s
        for cid in hand:
            c = CARDS[cid]
            if c.is_symbol and _placement_error(oriented(c.code, s["orientation"]), s["visible"]) is None:
                return cid
        return ""

    # -- legal moves ----------------------------------------------------
    def legal_moves(self) -> list[Move]:
        s = self.s
        ph = s["phase"]
        if ph == "over":
            return []
        moves: list[Move] = []
        if ph == "stack-start":
            options = [s["deck"][0]] if s["deck"] else [c for c in s["hands"][s["starter"]] if CARDS[c].is_symbol]
            for cid in options:
                for o in ORIENTATIONS:
                    moves.append({"type": "start-stack", "card": cid, "orientation": o})
        elif ph == "reaction":
            pend = s["pending"]
            for cid in s["hands"][pend["reactor"]]:
                if CARDS[cid].kind == "wild-deny":
                    for target in _deny_targets(pend):
                        moves.append({"type": "deny", "card": cid, "target": target})
            moves.append({"type": "pass"})
        else:
            moves = self._turn_moves()
        moves.append({"type": "forfeit"})
        return moves

    def _turn_moves(self) -> list[Move]:
        s = self.s
        hand = s["hands"][s["active"]]
        after_draw = s["phase"] == "after-draw"
        drawn = s["drawn"]
        flips = [c for c in hand if CARDS[c].kind == "skip-flip"]
        moves: list[Move] = []
        for cid in hand:
            c = CARDS[cid]
            if not c.is_symbol:
                continue
            if _placement_error(oriented(c.code, s["orientation"]), s["visible"]) is None:
                if not after_draw or cid == drawn:
                    moves.append({"type": "play", "card": cid})
            if _placement_error(oriented(c.code, FLIPPED[s["orientation"]]), s["visible"]) is None:
                for f in flips:
                    if not after_draw or cid == drawn or f == drawn:
                        moves.append({"type": "play", "card": cid, "flip": f})
        if filled(s["visible"]) == 3:
            for cid in hand:
                if CARDS[cid].kind == "wild-deny" and (not after_draw or cid == drawn):
                    moves.append({"type": "wild", "card": cid})
        for f in flips:
            moves.append({"type": "skip", "card": f, "target": "own"})
            moves.append({"type": "skip", "card": f, "target": "opponent"})
        if after_draw or not s["deck"]:
            if self._check_end_turn().ok:
                moves.append({"type": "end-turn"})
        elif not self._playable_symbol(hand):
            moves.append({"type": "draw"})
        return moves

    # -- applying -------------------------------------------------------
    def make(self, move: Move) -> None:
        """Make ``move``, already checked."""
        s = self.s
        s["moves"] += 1
        t = move["type"]
        if t == "forfeit":
            s["end"] = {"reason": "forfeit", "player": self.current_player()}
            s["phase"] = "over"
            s.pop("pending", None)
        elif t == "start-stack":
            self._start_stack(move["card"], move["orientation"])
        elif t == "draw":
            card = s["deck"].pop(0)
            hand = s["hands"][s["active"]]
            hand.append(card)
            _sort_hand(hand)
            s["drawn"] = card
            s["phase"] = "after-draw"
        elif t == "end-turn":
            if s["phase"] == "main":  # the deck is empty and only optional Effect plays remained
                s["end"] = {"reason": "no-moves", "player": s["active"]}
                s["phase"] = "over"
            else:
                self._end_turn(1 - s["active"])
        elif t == "deny":
            pend = s["pending"]
            s["hands"][pend["reactor"]].remove(move["card"])
            pend["chain"].append({"card": move["card"], "player": pend["reactor"], "target": move["target"]})
            self._open_window_or_resolve(1 - pend["reactor"])
        elif t == "pass":
            self._resolve()
        else:  # play, wild, skip: cards leave the hand and wait for a Deny window
            hand = s["hands"][s["active"]]
            hand.remove(move["card"])
            if move.get("flip"):
                hand.remove(move["flip"])
            play = {k: move[k] for k in ("type", "card", "flip", "target") if k in move}
            s["pending"] = {"play": play, "chain": [], "player": s["active"],
                            "resume": s["phase"], "reactor": 1 - s["active"]}
            self._open_window_or_resolve(1 - s["active"])

    def _open_window_or_resolve(self, reactor: int) -> None:
        s = self.s
        can_deny = s["options"]["deny_window"] == "always" or any(
            CARDS[c].kind == "wild-deny" for c in s["hands"][reactor])
        if can_deny:
            s["pending"]["reactor"] = reactor
            s["phase"] = "reaction"
        else:
            self._resolve()

    def _resolve(self) -> None:
        """Close the Deny window: work out the chain from the top, then the play."""
        s = self.s
        pend = s.pop("pending")
        chain = pend["chain"]
        effective = True  # the last Deny stands; each one below it stands iff the one above fails
        for link in reversed(chain[1:]):
            effective = not effective
        negated = chain[0]["target"] if chain and effective else ""
        for link in chain:
            s["discard"].append(link["card"])
        s["phase"] = pend["resume"]
        play = pend["play"]
        active = pend["player"]
        hand = s["hands"][active]
        t = play["type"]
        if t == "skip":
            s["discard"].append(play["card"])
            if play["target"] == "own":
                if negated:
                    self._end_turn(active)          # denied: another turn
                else:
                    self._end_turn(1 - active)
            elif negated:
                self._end_turn(1 - active)          # a denied Skip of the opponent ends the turn
            else:
                s["skips"][1 - active] += 1          # the opponent's next turn is skipped
                if pend["resume"] == "after-draw":   # after a draw the extra turn starts now (TT-5)
                    self._end_turn(1 - active)
            return
        if t == "wild":
            if negated:
                s["discard"].append(play["card"])
                self._end_turn(active)
                return
            s["stack"].append({"card": play["card"], "orientation": "wild"})
            self._complete_set(active)
            return
        card, flip = play["card"], play.get("flip", "")
        if negated == card:
            if s["options"]["denied_symbol_to_hand"]:
                hand.append(card)
            else:
                s["discard"].append(card)
            if flip:
                hand.append(flip)
            _sort_hand(hand)
            self._end_turn(active)
            return
        if negated:  # the Flip was denied: it is discarded, the Symbol card goes back to hand
            s["discard"].append(flip)
            hand.append(card)
            _sort_hand(hand)
            self._end_turn(active)
            return
        if flip:
            s["discard"].append(flip)
            s["orientation"] = FLIPPED[s["orientation"]]
        code = oriented(CARDS[card].code, s["orientation"])
        s["stack"].append({"card": card, "orientation": s["orientation"]})
        s["visible"] = _overlay(code, s["visible"])
        if filled(s["visible"]) == 4:
            self._complete_set(active)
        else:
            self._end_turn(1 - active)

    def _complete_set(self, player: int) -> None:
        s = self.s
        size = len(s["stack"]) + len(s["discard"])
        s["sets"][player].append(size)
        s["stack"] = []
        s["discard"] = []
        s["visible"] = EMPTY
        s["orientation"] = "up"
        self._replenish(player)
        self._begin_stack(1 - player)

    def _replenish(self, player: int) -> None:
        s = self.s
        hand = s["hands"][player]
        if not hand:
            hand.extend(s["deck"][:HAND_SIZE])
            del s["deck"][:HAND_SIZE]
            _sort_hand(hand)

    def _end_turn(self, next_player: int) -> None:
        self._replenish(self.s["active"])
        self._begin_turn(next_player)

    def _begin_turn(self, player: int) -> None:
        s = self.s
        while s["skips"][player] > 0:
            s["skips"][player] -= 1
            player = 1 - player
        s["active"] = player
        s["drawn"] = ""
        s["phase"] = "main"
        hand = s["hands"][player]
        if not s["deck"] and not self._playable_symbol(hand) and not self._effect_play(hand):
            s["phase"] = "over"
            s["end"] = {"reason": "no-moves", "player": player}

    def _effect_play(self, hand: list[str]) -> bool:
        """Whether ``hand`` has an Effect play now: a Skip, or a Wild on three symbols.
        (A Flip needs a Skip/Flip card, which can always Skip.)"""
        three = filled(self.s["visible"]) == 3
        return any(CARDS[c].kind == "skip-flip" or (three and CARDS[c].kind == "wild-deny") for c in hand)

    def _begin_stack(self, starter: int, alternate: bool = True) -> None:
        """The starter flips deck cards; an Effect card goes to the flipper's hand and,
        after a set, the other player flips next (TT-7). At setup the starting
        player flips until a Symbol card appears, so the second player moves first."""
        s = self.s
        while s["deck"] and not CARDS[s["deck"][0]].is_symbol:
            s["hands"][starter].append(s["deck"].pop(0))
            _sort_hand(s["hands"][starter])
            if alternate:
                starter = 1 - starter
        if not s["deck"]:
            if not any(CARDS[c].is_symbol for c in s["hands"][starter]):
                starter = 1 - starter
                if not any(CARDS[c].is_symbol for c in s["hands"][starter]):
                    s["phase"] = "over"
                    s["end"] = {"reason": "no-moves", "player": starter}
                    return
        s["phase"] = "stack-start"
        s["starter"] = starter
        s["drawn"] = ""

    def _start_stack(self, card: str, orientation: str) -> None:
        s = self.s
        starter = s["starter"]
        if s["deck"]:
            s["deck"].pop(0)
        else:
            s["hands"][starter].remove(card)
        s["stack"] = [{"card": card, "orientation": orientation}]
        s["orientation"] = orientation
        s["visible"] = oriented(CARDS[card].code, orientation)
        s["active"] = starter
        self._begin_turn(1 - starter)


def _deny_targets(pending: JSONDict) -> list[str]:
    if pending["chain"]:
        return [pending["chain"][-1]["card"]]
    play = pending["play"]
    return [play["card"]] + ([play["flip"]] if play.get("flip") else [])


def _placement_verdict(err: tuple[str, int], card: Card, orientation: str, visible: str) -> Verdict:
    rule, pos = err
    names = {"0": "empty", "1": "a square", "2": "a diamond"}
    code = oriented(card.code, orientation)
    if rule == "valid-placement":
        return _v(rule, f"{card.describe()} played {orientation} puts {names[code[pos - 1]]} on position {pos}, "
                        f"which shows {names[visible[pos - 1]]}.")
    other = 5 - pos
    return _v(rule, f"{card.describe()} played {orientation} would make positions {pos} and {other} "
                    f"the same symbol, so the stack could never complete.")




def _heuristic(obs: JSONDict, moves: list[Move], rng: random.Random) -> Move:
    candidates = [m for m in moves if m["type"] != "forfeit"]
    visible = obs["visible"]

    def completes(m: Move) -> bool:
        if m["type"] == "wild":
            return True
        if m["type"] != "play":
            return False
        o = obs["orientation"] if not m.get("flip") else FLIPPED[obs["orientation"]]
        return filled(_overlay(oriented(CARDS[m["card"]].code, o), visible)) == 4

    if obs["phase"] == "reaction":
        pend = obs["pending"]
        opp_play = pend["play"]
        threat = bool(pend["chain"]) or completes(opp_play)
        denies = [m for m in candidates if m["type"] == "deny"]
        if threat and denies and rng.random() < 0.8:
            return rng.choice(denies)
        return {"type": "pass"}
    for pick in (completes, lambda m: m["type"] == "play" and not m.get("flip"),
                 lambda m: m["type"] in ("play", "start-stack", "draw", "end-turn")):
        chosen = [m for m in candidates if pick(m)]
        if chosen:
            return rng.choice(chosen)
    return rng.choice(candidates)
