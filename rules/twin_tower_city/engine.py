"""The Twin Tower City rules engine.

Move vocabulary (plain JSON dicts, made by ``state.current_player()``)::

    {"type": "play-battle", "card": "b17"}
    {"type": "play-army", "card": "ad03", "swaps": [{"replace": "blamtifa-thug", "with": "doctor-sickle"}]}
    {"type": "play-warrior", "card": "wl1", "replace": "don-triumph"}
    {"type": "nullify-items", "items": ["ar-15", "ar-15", "red-pill"]}
    {"type": "forfeit"}

A warrior to replace is named by its warrior id, or by its Warrior card id when it
is a levelled warrior; copies of the same warrior at the same level are
interchangeable and the first one in table order is taken (TTC-4). ``swaps`` holds
zero to two replacements; the engine lists them sorted by (replace, with) and
accepts any order.

Flow: the deal and the coin happen in :meth:`TwinTowerCity.new_state`. Each round
starts by flipping every seat's starting card; then every seat plays a second card
and a third card in the order of rule ``play-order``; then each side with more items
than participating warriors chooses which items to nullify (one ``nullify-items``
move naming exactly as many items as it has too many, side of seat 0 first); then the
round is scored. After round 5 the game ends.

``forfeit`` is legal for the player to move at any time and is listed last by
:meth:`TTCState.legal_moves` (as in Two & Two); simulated players leave it out.
"""

from __future__ import annotations

import json
import random
from functools import lru_cache, partial
from importlib import resources
from typing import Any, Callable, Mapping, Sequence

from rules.core import (shown, Game, IllegalMove, JSONDict, Move, MoveSequence, Result, RuleRef, SetupError, State,
                        Verdict, view_zone)
from rules.moveshape import move_shapes, shape_error
from rules.mutate import _strings
from rules.twin_tower_city.cards import (OTHER_SIDE, SIDES, Card, Roster, load_data, load_deck_data,
                                         parse_deck)
from rules.twin_tower_city.heuristic import heuristic_move
from rules.twin_tower_city.scoring import (copy_powers, default_scoring, default_totals, duplicate_item_indexes,
                                           excess_items, new_layout, present, replace_warrior,
                                           round_totals, score_round, side_tops)

DATA: dict[str, Any] = load_data()
ROSTER: Roster = Roster.from_data(DATA)
CARDS: dict[str, Card] = parse_deck(load_deck_data())
ROUNDS: int = int(DATA["rounds"])
DEAL: dict[str, int] = {k: v for k, v in DATA["deal"].items() if isinstance(v, int)}
MAX_SWAPS: int = int(DATA["army_replacements"])

#: the move shapes (type, exact fields), declared once in moves.schema.json and read by both
#: engines (rules/moveshape.py here, runtime/moveshape.lua.j2 in the Lua rules)
SHAPES: JSONDict = move_shapes(json.loads(resources.files("rules.twin_tower_city").joinpath("moves.schema.json")
                                          .read_text("utf-8")))
#: each card's kind and side (validate_setup looks them up for every recorded deal)
_KIND_OF: dict[str, str] = {cid: card.kind for cid, card in CARDS.items()}
_SIDE_OF: dict[str, Any] = {cid: card.side for cid, card in CARDS.items()}
#: the fields of one swap of a play-army move
_SWAP_FIELDS = frozenset({"replace", "with"})
PLAY_TYPES = {"play-battle": "battle", "play-army": "army", "play-warrior": "warrior"}
KIND_NAME = {"battle": "Battle", "army": "Army", "warrior": "Warrior"}
KIND_MOVE = {v: k for k, v in PLAY_TYPES.items()}
BATTLE_IDS: tuple[str, ...] = tuple(c.id for c in CARDS.values() if c.kind == "battle")
ARMY_IDS = {s: tuple(c.id for c in CARDS.values() if c.kind == "army" and c.side == s) for s in SIDES}
WARRIOR_IDS = {s: tuple(c.id for c in CARDS.values() if c.kind == "warrior" and c.side == s) for s in SIDES}
PLAYER_COUNTS = (2, 4, 6)
SEAT_NAMES: tuple[str, ...] = tuple(DATA["seat_names"]["names"])

Plan = tuple[Any, ...]
#: the verdict on every legal move
_LEGAL = Verdict.legal()
#: the Battle cards by id
_BATTLE_CARDS: dict[str, Card] = {cid: card for cid, card in CARDS.items() if card.kind == "battle"}
_BATTLE_IDS = frozenset(_BATTLE_CARDS)


def _placement(cid: str, seat: int) -> tuple[JSONDict, ...]:
    """The records :func:`place_battle` adds for Battle card ``cid`` of ``seat``, keys in its
    order: the table entry at stages 1, 2 and 3, then the Dark warrior slot and item copy, then
    the Light ones."""
    card = _BATTLE_CARDS[cid]
    entries = tuple({"seat": seat, "card": cid, "stage": stage} for stage in (1, 2, 3))
    return entries + tuple(record for side in SIDES for record in (
        {"warrior": card.warriors[side], "level": 0, "card": cid, "seat": seat, "replaced": False},
        {"item": card.items[side], "card": cid, "seat": seat, "nullified": False}))


#: per Battle card id and seat, its :func:`_placement`, copied by :func:`_place` (a dict.copy is a
#: third of the cost of building the dict: a Battle card is placed about 20 times a game)
_PLACEMENTS: dict[str, tuple[tuple[JSONDict, ...], ...]] = {
    cid: tuple(_placement(cid, seat) for seat in range(max(PLAYER_COUNTS))) for cid in _BATTLE_CARDS}


def _place(table: list[JSONDict], warriors: dict[str, list[JSONDict]], items: dict[str, list[JSONDict]],
           records: tuple[JSONDict, ...], stage: int) -> None:
    """:func:`place_battle` of a Battle card at ``stage``, its ``records`` (:data:`_PLACEMENTS`) copied."""
    table.append(records[stage - 1].copy())
    warriors["dark"].append(records[3].copy())
    items["dark"].append(records[4].copy())
    warriors["light"].append(records[5].copy())
    items["light"].append(records[6].copy())

_ARMY_CARDS: dict[str, Card] = {cid: card for cid, card in CARDS.items() if card.kind == "army"}
_WARRIOR_CARDS: dict[str, Card] = {cid: card for cid, card in CARDS.items() if card.kind == "warrior"}


_SCALARS = frozenset({str, int, bool, float, type(None)})


def _copy(value: Any) -> Any:
    """Deep copy of JSON data (faster than copy.deepcopy; scalars are not recursed into, which
    halves the cost of to_json, the state digest of check-lua and the mutants' walk)."""
    if isinstance(value, dict):
        return {k: v if type(v) in _SCALARS else _copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [v if type(v) in _SCALARS else _copy(v) for v in value]
    return value


#: the hand of a seat dealt by the rules: this many cards of each kind (the Army and Warrior
#: cards of the seat's side)
_HAND_COUNTS = (DEAL["battle"] - DEAL["starters"], DEAL["army"], DEAL["warrior"])
_OWN_ARMY = {side: frozenset(ids) for side, ids in ARMY_IDS.items()}
_OWN_WARRIOR = {side: frozenset(ids) for side, ids in WARRIOR_IDS.items()}


def _dealt_as_ruled(starters: list[Any], hand: list[Any], side: str) -> bool:
    """True when a seat's recorded cards surely pass :meth:`TwinTowerCity.validate_setup`'s checks
    of one seat: the starters all Battle cards, the hand distinct known cards of the dealt kinds,
    its Army and Warrior cards of ``side``. False leaves the seat to those checks (which word
    what is wrong, or pass it: a card twice in one hand is left to the deck check)."""
    try:
        if len(starters) != DEAL["starters"] or not _BATTLE_IDS.issuperset(starters):
            return False
        cards = set(hand)
    except TypeError:  # an unhashable entry
        return False
    return len(cards) == len(hand) == sum(_HAND_COUNTS) and \
        (len(cards & _BATTLE_IDS), len(cards & _OWN_ARMY[side]), len(cards & _OWN_WARRIOR[side])) == _HAND_COUNTS


def _add_strings(out: set[str], values: Any) -> None:
    """Add to ``out`` every string value among ``values`` (a JSON value's items), walking any
    that is not a plain scalar (:func:`rules.mutate._strings`)."""
    add = out.add
    for v in values:
        if type(v) is str:
            add(v)
        elif type(v) not in _SCALARS:
            out |= _strings(v)


# Copies of the state's own JSON data, shape by shape (what ``_copy`` does, a C-level dict.copy
# per record): the warrior slots and item copies hold scalars only, a table entry a list of swaps
# at most, a round record these three and its totals. Key order is kept.
def _copy_table(table: list[JSONDict]) -> list[JSONDict]:
    """A copy of a ``table`` list (entries of :func:`place_battle` and :meth:`TTCState._make`)."""
    out = [entry.copy() for entry in table]
    for entry in out:
        swaps = entry.get("swaps")
        if swaps is not None:
            entry["swaps"] = [sw.copy() for sw in swaps]
    return out


def _copy_sides(by_side: dict[str, list[JSONDict]]) -> dict[str, list[JSONDict]]:
    """A copy of ``warriors`` or ``items``: per side, a list of flat records."""
    return {side: [x.copy() for x in xs] for side, xs in by_side.items()}


def _copy_rounds(rounds: list[JSONDict]) -> list[JSONDict]:
    """A copy of the finished rounds' records (:meth:`TTCState._finish_round`)."""
    out = []
    for rec in rounds:
        rec = rec.copy()
        rec["table"] = _copy_table(rec["table"])
        rec["warriors"] = _copy_sides(rec["warriors"])
        rec["items"] = _copy_sides(rec["items"])
        rec["totals"] = rec["totals"].copy()
        out.append(rec)
    return out


def _copy_setup(setup: JSONDict) -> JSONDict:
    """A copy of a setup (:meth:`TwinTowerCity.deal`, :meth:`TwinTowerCity.validate_setup`)."""
    out = setup.copy()
    seats = out["seats"] = [seat.copy() for seat in setup["seats"]]
    for seat in seats:
        seat["starters"] = list(seat["starters"])
        seat["hand"] = list(seat["hand"])
    return out


def _token(slot: Mapping[str, Any]) -> str:
    """How moves name a warrior slot: the warrior id, or the Warrior card id when levelled (TTC-4)."""
    return str(slot["card"]) if slot["level"] else str(slot["warrior"])


@lru_cache(maxsize=4096)
def _army_swaps(army: tuple[str, ...], tokens: tuple[str, ...]) -> tuple[tuple[tuple[str, str], ...], ...]:
    """The canonical swap lists of an Army card against the sorted tokens of one's warriors on the table."""
    uniq = sorted(set(tokens))
    ins = sorted(army)
    out: list[tuple[tuple[str, str], ...]] = [()]
    for t in uniq:
        out.extend(((t, w),) for w in ins if w != t)
    if MAX_SWAPS >= 2:
        for i, t1 in enumerate(uniq):
            for t2 in uniq[i:]:
                if t1 == t2 and tokens.count(t1) < 2:
                    continue
                for w1 in ins:
                    if w1 == t1:
                        continue
                    for w2 in ins:
                        if w2 != w1 and w2 != t2 and (t1 != t2 or w1 < w2):
                            out.append(((t1, w1), (t2, w2)))
    return tuple(out)


def _army_move(cid: str, swaps: tuple[tuple[tuple[str, str], ...], ...], index: int) -> Move:
    """The ``index``-th canonical play of Army card ``cid``: 0, 1 or 2 swaps sorted by (replace, with) (TTC-5)."""
    return {"type": "play-army", "card": cid, "swaps": [{"replace": t, "with": w} for t, w in swaps[index]]}


def _nullify_move(choices: tuple[tuple[str, ...], ...], index: int) -> Move:
    """The ``index``-th nullify-items choice of :func:`_nullify_choices`."""
    return {"type": "nullify-items", "items": list(choices[index])}


@lru_cache(maxsize=4096)
def _nullify_choices(need: int, powers: tuple[tuple[str, tuple[int, ...]], ...]) -> tuple[tuple[str, ...], ...]:
    """Every multiset of ``need`` item ids (sorted) from ``powers`` (item id -> its copies' Powers,
    weakest first, ids sorted), by Power removed and then ids: the nullify-items choices in order."""
    ids = [item for item, _ in powers]
    pws = dict(powers)
    choices: list[tuple[int, list[str]]] = []

    def walk(k: int, left: int, chosen: list[str], total: int) -> None:
        if left == 0:
            choices.append((total, list(chosen)))
            return
        if k == len(ids):
            return
        item = ids[k]
        for c in range(min(left, len(pws[item])), -1, -1):
            walk(k + 1, left - c, chosen + [item] * c, total + sum(pws[item][:c]))

    walk(0, need, [], 0)
    choices.sort(key=lambda x: (x[0], x[1]))
    return tuple(tuple(items) for _, items in choices)


@lru_cache(maxsize=None)
def _play_order(first: int, seats: int) -> tuple[int, ...]:
    """The seats' order of play in a round whose first side is ``first`` (rule play-order)."""
    pairs = range(seats // 2)
    return tuple([2 * m + q for m in pairs for q in (first, 1 - first)]
                 + [2 * m + q for m in pairs for q in (1 - first, first)])


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


class TwinTowerCity(Game):
    id = "twin-tower-city"
    name = "Twin Tower City"
    min_players = 2
    max_players = 6
    player_counts = PLAYER_COUNTS
    hidden_information = True   # the hands and, unless starting_face_up, the starting cards
    chance = True               # the shuffled Battle cards and the coin
    score_unit = "round"
    side_option = "seat0_side"
    options = {k: v["default"] for k, v in DATA["options"].items()}
    option_choices = {k: tuple(v["choices"]) for k, v in DATA["options"].items() if "choices" in v}
    rules = {rid: RuleRef(rid, r["section"], r["summary"]) for rid, r in DATA["rules"].items()}
    data = DATA
    # 10 plays per seat, at most one item choice per side a round, one forfeit: 10n + 11 <= 71.
    max_game_length = 80

    roster = ROSTER
    cards = CARDS
    #: :meth:`_seat_options` remembered
    _resolved: dict[Any, JSONDict] = {}

    def lua_context(self) -> JSONDict:
        """What ``lua_templates/games/twin-tower-city/*.j2`` need: the parsed roster and deck
        (the same ``ROSTER``/``CARDS`` the engine plays with), the constants and the move vocabulary."""
        cards: dict[str, JSONDict] = {}
        for c in CARDS.values():
            entry: JSONDict = {"kind": c.kind}
            if c.kind == "battle":
                entry.update(warriors=dict(c.warriors), items=dict(c.items), environment=c.environment,
                             random_bonus=dict(c.random_bonus))
                if c.district:
                    entry["district"] = c.district
            elif c.kind == "army":
                entry.update(side=c.side, army=list(c.army))
            else:
                entry.update(side=c.side, warrior=c.warrior, level=c.level)
            cards[c.id] = entry
        r = ROSTER
        return {
            "data": dict(DATA),
            "cards": cards,
            "card_order": list(CARDS),
            "roster": {
                "warrior_side": r.warrior_side, "warrior_power": r.warrior_power, "warrior_name": r.warrior_name,
                "item_side": r.item_side, "item_power": r.item_power, "item_name": r.item_name,
                "env_side": r.env_side, "env_power": r.env_power, "env_name": r.env_name,
                "wielders": {k: list(v) for k, v in r.wielders.items()},
                "targets": {k: list(v) for k, v in r.targets.items()},
                "bonus": r.bonus,
            },
            "rounds": ROUNDS,
            "max_swaps": MAX_SWAPS,
            "player_counts": list(PLAYER_COUNTS),
            "move_shapes": SHAPES,
        }

    def heuristic_move(self, obs: JSONDict, moves: list[Move], rng: random.Random) -> Move:
        """A simple simulated player (see :mod:`rules.twin_tower_city.heuristic`)."""
        return heuristic_move(ROSTER, CARDS, obs, moves, rng)

    # -- setup ---------------------------------------------------------------
    def new_state(self, seed: int | None = 0, options: Mapping[str, Any] | None = None,
                  setup: Mapping[str, Any] | None = None, num_players: int | None = None) -> "TTCState":
        if num_players is None and setup is not None and isinstance(setup.get("seats"), list):
            num_players = len(setup["seats"])
        opts = self._seat_options(options, num_players)
        if num_players is None:  # as _seat_options chose
            num_players = 4 if opts["teams"] else 2
        if setup is None:
            setup_data = self.deal(random.Random(seed), num_players, opts)
        else:
            setup_data = self.validate_setup(setup, num_players, opts)
        return TTCState.start(self, opts, setup_data)

    def _seat_options(self, options: Mapping[str, Any] | None, num_players: int | None) -> JSONDict:
        """The options resolved (:meth:`resolve_options`) for ``num_players`` seats (by default 4 with
        teams, else 2; :meth:`_player_options`): a new dict, remembered by the options' names, types
        and values (a transcript's games share them)."""
        try:  # the values' types too (True == 1); tuples made by map and zip, no generator frame
            values = (options or {}).values()
            key: Any = (num_players, tuple(zip((options or {}).keys(), map(type, values), values)))
            known = self._resolved.get(key)
        except TypeError:  # an unhashable value: resolve_options words what is wrong
            key, known = None, None
        if known is None:
            opts = self.resolve_options(options)
            known = self._player_options(opts, (4 if opts["teams"] else 2) if num_players is None else num_players)
            if key is not None:
                if len(self._resolved) >= 256:
                    self._resolved.clear()
                self._resolved[key] = known
        return dict(known)

    def _player_options(self, opts: JSONDict, num_players: int) -> JSONDict:
        if num_players not in PLAYER_COUNTS:
            raise SetupError(f"Twin Tower City is played by 2 players, or by teams of 4 or 6 (not {num_players})",
                             field="players")
        if opts["teams"] and num_players == 2:
            raise SetupError("team play needs 4 or 6 players")
        opts = dict(opts)
        opts["teams"] = num_players > 2
        return opts

    @staticmethod
    def seat_side(seat: int, opts: Mapping[str, Any]) -> str:
        first = str(opts["seat0_side"])
        return first if seat % 2 == 0 else OTHER_SIDE[first]

    def deal(self, rng: random.Random, num_players: int, opts: Mapping[str, Any]) -> JSONDict:
        """Rule ``deal``: one deck copy per pair of seats 2m, 2m+1 (TTC-2); then the coin."""
        seats: list[JSONDict] = []
        for pair in range(num_players // 2):
            battle = list(BATTLE_IDS)
            rng.shuffle(battle)
            drawn: dict[int, list[str]] = {}
            for n, seat in enumerate((2 * pair, 2 * pair + 1)):
                drawn[seat] = battle[n * DEAL["battle"]:(n + 1) * DEAL["battle"]]
            by_side = {self.seat_side(s, opts): s for s in drawn}
            extra: dict[int, list[str]] = {s: [] for s in drawn}
            for side in SIDES:  # Dark Army, Dark Warrior, Light Army, Light Warrior (rulebook order)
                armies = list(ARMY_IDS[side])
                rng.shuffle(armies)
                warriors = list(WARRIOR_IDS[side])
                rng.shuffle(warriors)
                extra[by_side[side]] += armies[:DEAL["army"]] + warriors[:DEAL["warrior"]]
            for seat in sorted(drawn):
                starters = drawn[seat][:DEAL["starters"]]
                hand = sorted(drawn[seat][DEAL["starters"]:] + extra[seat])
                seats.append({"starters": starters, "hand": hand})
        return {"coin": rng.randrange(2), "seats": seats}

    def validate_setup(self, setup: Mapping[str, Any], num_players: int, opts: Mapping[str, Any]) -> JSONDict:
        """A recorded setup, checked against the deal rule; returns a clean copy."""
        if type(setup) is not dict and not isinstance(setup, Mapping):  # a dict first: the ABC check is slow
            raise SetupError("a Twin Tower City setup is an object with 'coin' and 'seats'")
        coin, seats = setup.get("coin"), setup.get("seats")
        if coin not in (0, 1) or isinstance(coin, bool):
            raise SetupError("setup 'coin' is 0 or 1: the seat whose side plays the second card first in round 1")
        if not isinstance(seats, list) or len(seats) != num_players:
            raise SetupError(f"setup 'seats' lists {num_players} seats")
        n_battle_hand = DEAL["battle"] - DEAL["starters"]
        clean: list[JSONDict] = []
        for seat, entry in enumerate(seats):
            if (type(entry) is not dict and not isinstance(entry, Mapping)) \
                    or not isinstance(entry.get("starters"), list) or not isinstance(entry.get("hand"), list):
                raise SetupError(f"setup seat {seat}: needs 'starters' and 'hand' lists")
            starters, hand = list(entry["starters"]), list(entry["hand"])
            side = self.seat_side(seat, opts)
            if _dealt_as_ruled(starters, hand, side):
                clean.append({"starters": starters, "hand": sorted(hand)})
                continue
            try:  # each card's kind looked up once; a miss (or an unhashable entry) names the first unknown card
                starter_kinds = [_KIND_OF[c] for c in starters]
                kinds = [_KIND_OF[c] for c in hand]
            except (KeyError, TypeError):
                for cid in starters + hand:
                    if not isinstance(cid, str) or cid not in CARDS:
                        raise SetupError(f"setup seat {seat}: unknown card {cid!r}") from None
                raise
            if len(starters) != DEAL["starters"] or starter_kinds.count("battle") != len(starters):
                raise SetupError(f"setup seat {seat}: {DEAL['starters']} Battle cards as starters")
            if (kinds.count("battle"), kinds.count("army"), kinds.count("warrior")) != \
                    (n_battle_hand, DEAL["army"], DEAL["warrior"]) or len(hand) != len(kinds):
                raise SetupError(f"setup seat {seat}: the hand holds {n_battle_hand} Battle, {DEAL['army']} Army "
                                 f"and {DEAL['warrior']} Warrior cards")
            wrong = [c for c, kind in zip(hand, kinds) if kind != "battle" and _SIDE_OF[c] != side]
            if wrong:
                raise SetupError(f"setup seat {seat} plays {side}: {', '.join(wrong)} belong to the other side")
            clean.append({"starters": starters, "hand": sorted(hand)})
        for pair in range(num_players // 2):
            first, second = clean[2 * pair], clean[2 * pair + 1]
            ids = first["starters"] + first["hand"] + second["starters"] + second["hand"]
            if len(ids) != len(set(ids)):
                raise SetupError(f"setup seats {2 * pair} and {2 * pair + 1} share one deck: a card is dealt twice")
        return {"coin": int(coin), "seats": clean}  # 1.0 is the coin 1, as the Lua mirror reads it

    def state_from_json(self, data: Mapping[str, Any]) -> "TTCState":
        if not isinstance(data, Mapping) or data.get("game") != self.id:
            raise SetupError(f"not a {self.id} state")
        try:
            return self._state_from_json(data)
        except (KeyError, TypeError, ValueError, AttributeError) as exc:
            if isinstance(exc, SetupError):
                raise
            raise SetupError(f"malformed {self.id} state: {exc!r}") from exc

    def _state_from_json(self, data: Mapping[str, Any]) -> "TTCState":
        opts = self.resolve_options(data.get("options"))
        n = int(data["num_players"])
        opts = self._player_options(opts, n)
        setup = self.validate_setup(data["setup"], n, opts)
        st = TTCState(self, opts, setup)
        st._round = int(data["round"])
        st._phase = str(data["phase"])
        if st._phase not in ("play", "nullify", "over"):
            raise SetupError(f"unknown phase {st._phase!r}")
        st._step = int(data["step"])
        st._hands = [list(h) for h in data["hands"]]
        st._table = _copy(data["table"])
        st._warriors = _copy(data["warriors"])
        st._items = _copy(data["items"])
        st._rounds = _copy(data["rounds"])
        st._forfeited = data.get("forfeited")
        st._refresh()
        return st


class TTCState(State):
    game: TwinTowerCity

    def __init__(self, game: TwinTowerCity, opts: JSONDict, setup: JSONDict):
        self.game = game
        self._opts = opts
        self._setup = setup
        self._n = len(setup["seats"])
        self._side = [game.seat_side(s, opts) for s in range(self._n)]
        self._round = 1
        self._phase = "play"
        self._step = 0
        self._hands: list[list[str]] = [list(s["hand"]) for s in setup["seats"]]
        self._table: list[JSONDict] = []
        self._warriors: dict[str, list[JSONDict]] = {"dark": [], "light": []}
        self._items: dict[str, list[JSONDict]] = {"dark": [], "light": []}
        self._rounds: list[JSONDict] = []
        self._forfeited: int | None = None
        self._order: tuple[int, ...] = ()
        self._decider: str | None = None
        #: the decider's excess items (:meth:`_excess`)
        self._need = 0
        #: in the nullify phase, :func:`side_tops` of the warriors (which no longer change this
        #: round): the excess items and the round's totals read it
        self._tops: dict[str, dict[str, int]] = {}
        self.seat_names: tuple[str, ...] = SEAT_NAMES  # not game data: how messages name the seats
        #: option duplicate_item = duplicate-card: replacements record the card they stand on
        self._homes = opts["duplicate_item"] == "duplicate-card"
        #: round_totals' one-pass path applies (asked once, not at every round's end)
        self._default_scoring = default_scoring(opts)
        #: json_strings' strings of the parts that no longer change (game id, options, setup, the
        #: finished rounds), with the count of finished rounds they cover
        self._fixed_strings: tuple[int, set[str]] | None = None

    @classmethod
    def start(cls, game: TwinTowerCity, opts: JSONDict, setup: JSONDict) -> "TTCState":
        st = cls(game, opts, setup)
        st._begin_round()
        return st

    # -- round flow ------------------------------------------------------------
    def _play_order(self) -> tuple[int, ...]:
        """Rule ``play-order`` (A-15, TTC-2): second cards, then third cards in reverse side order
        (the cached tuple of :func:`_play_order`: read only)."""
        coin = int(self._setup["coin"])
        first = coin if self._round % 2 == 1 else 1 - coin
        return _play_order(first, self._n)

    def _refresh(self) -> None:
        if self._phase == "play":  # the order changes with the round only, and a round begins in play
            self._order = self._play_order()
        self._decider = None
        self._need = 0
        if self._phase == "nullify":
            self._tops = side_tops(ROSTER, self._warriors)
            for q in (0, 1):
                side = self._side[q]
                need = self._excess_items(side)
                if need:
                    self._decider, self._need = side, need
                    break

    def _excess_items(self, side: str) -> int:
        """:func:`excess_items` in the nullify phase: the participating warriors are those of
        :attr:`_tops`, not gathered again."""
        return excess_items(self._warriors, self._items, side, len(self._tops[side]))

    def _excess(self, side: str) -> int:
        """:func:`excess_items` for ``side``; the decider's, counted by :meth:`_refresh` (which runs
        after every change to the items and warriors), is not counted again."""
        return self._need if side == self._decider else excess_items(self._warriors, self._items, side)

    def _begin_round(self) -> None:
        # new_layout, then place_battle of each seat's starting card (stage 1), by _place
        self._table, self._warriors, self._items = table, warriors, items = new_layout()
        self._phase = "play"
        self._step = 0
        index = self._round - 1
        for seat, entry in enumerate(self._setup["seats"]):
            _place(table, warriors, items, _PLACEMENTS[entry["starters"][index]][seat], 1)
        self._order = self._play_order()  # _refresh in play
        self._decider = None
        self._need = 0

    def _after_play(self) -> None:
        self._step += 1
        if self._step < len(self._order):
            return
        self._phase = "nullify"
        if self._homes:  # duplicate_item = duplicate-card: no choice, each duplicate takes its card's item
            for side in SIDES:
                for index in duplicate_item_indexes(ROSTER, self._warriors[side]):
                    self._items[side][index]["nullified"] = True
        self._refresh()
        if self._decider is None:
            self._finish_round()

    def _finish_round(self) -> None:
        if self._default_scoring:
            totals = default_totals(ROSTER, CARDS, self._table, self._warriors, self._items, self._tops)
        else:
            totals = round_totals(ROSTER, CARDS, self._table, self._warriors, self._items, self._opts)
        winner = "dark" if totals["dark"] > totals["light"] else "light" if totals["light"] > totals["dark"] else None
        self._rounds.append({"round": self._round, "table": self._table, "warriors": self._warriors,
                             "items": self._items, "totals": totals, "winner": winner})
        if self._round >= ROUNDS:
            self._phase = "over"
            self._table, self._warriors, self._items = new_layout()
            self._step = 0
            self._refresh()
        else:
            self._round += 1
            self._begin_round()

    # -- whose decision -------------------------------------------------------
    def current_player(self) -> int | None:
        if self._phase == "play":
            return self._order[self._step]
        if self._phase == "nullify":
            return self._side.index(self._decider) if self._decider else None
        return None

    def side_of(self, seat: int) -> str:
        return self._side[seat]

    def seat_name(self, seat: int) -> str:
        """How messages name ``seat``: the player's name once :meth:`name_seats` is told it
        (a transcript's ``players[i].name``), else the seat colour from the data."""
        return self.seat_names[seat]

    def name_seats(self, names: list[str]) -> None:
        """Name the seats in messages after the players (e.g. a transcript's ``players``)."""
        if len(names) != self._n or not all(isinstance(n, str) and n for n in names):
            raise SetupError(f"{self.game.id} names exactly {self._n} seats here, each with a non-empty name")
        self.seat_names = tuple(names)

    def stage(self) -> int:
        """1 = starting card, 2 = second card, 3 = third card of the round."""
        return 2 if self._step < self._n else 3

    # -- moves -------------------------------------------------------------------
    def legal_moves(self) -> list[Move]:
        if self._phase == "over":
            return []
        moves = list(self.choice_moves())
        moves.append({"type": "forfeit"})
        return moves

    def choice_moves(self) -> MoveSequence:
        """The legal moves but forfeit, in :meth:`legal_moves`' order; each Army card's plays are
        built only when picked (they are most of the list)."""
        if self._phase == "over":
            return MoveSequence([])
        if self._phase == "nullify":
            return MoveSequence([self._nullify_moves(str(self._decider))])  # built when picked
        p = self._order[self._step]
        side = self._side[p]
        hand = self._hands[p]
        has_battle = any(CARDS[c].kind == "battle" for c in hand)
        specials = self._step >= self._n or not has_battle
        parts: list[list[Move] | tuple[int, Callable[[int], Move]]] = []
        moves: list[Move] = []
        tokens: list[str] | None = None
        for cid in hand:
            card = CARDS[cid]
            if card.kind == "battle":
                moves.append({"type": "play-battle", "card": cid})
                continue
            if not specials:
                continue
            if tokens is None:
                tokens = sorted(_token(s) for s in self._warriors[side] if not s["replaced"])
            if card.kind == "army":
                parts.append(moves)
                swaps = _army_swaps(card.army, tuple(tokens))
                parts.append((len(swaps), partial(_army_move, cid, swaps)))
                moves = []
            else:
                for t in sorted(set(tokens)):
                    if t != cid:
                        moves.append({"type": "play-warrior", "card": cid, "replace": t})
        parts.append(moves)
        return MoveSequence(parts)

    def _nullify_moves(self, side: str) -> tuple[int, Callable[[int], Move]]:
        """Every choice of exactly the excess number of items (a multiset of item ids, sorted),
        the A-12 default (least Power removed) first, then by Power removed and ids: a
        :class:`MoveSequence` part, each move built when asked for."""
        need = self._excess(side)
        own, opposing = present(self._warriors[side]), present(self._warriors[OTHER_SIDE[side]])
        its = self._items[side]
        # each item's un-nullified copies, weakest first: nullifying c copies removes the c weakest
        # (copies differ only with wielder_bonus = one-copy)
        powers: dict[str, list[int]] = {}
        for it, pw in zip(its, copy_powers(ROSTER, its, [not it["nullified"] for it in its], own, opposing,
                                           self._opts)):
            if not it["nullified"]:
                powers.setdefault(it["item"], []).append(pw)
        for pws in powers.values():
            pws.sort()
        choices = _nullify_choices(need, tuple((item, tuple(powers[item])) for item in sorted(powers)))
        return len(choices), partial(_nullify_move, choices)

    def check(self, move: Any) -> Verdict:
        return self._validate(move)[0]

    def apply(self, move: Any) -> None:
        verdict, plan = self._validate(move)
        if not verdict.ok:
            raise IllegalMove(verdict, move)
        self._make(plan)

    def try_apply(self, move: Any) -> Verdict:
        player = self.current_player()
        if player is None:  # the game over (refused), or a loaded state stuck in nullify
            return self._judge_once(move)
        return self.try_apply_for(player, move)  # its fast paths are for the seat to move

    def _judge_once(self, move: Any) -> Verdict:
        """:meth:`State.try_apply`'s way: :meth:`_validate`, then the plan made when legal."""
        verdict, plan = self._validate(move)
        if verdict.ok:
            self._make(plan)
        return verdict

    def try_apply_for(self, player: Any, move: Any) -> Verdict:
        """:meth:`State.try_apply_for`: a move by the seat to move is judged once and made (as
        :func:`rules.core.judge_apply` does); any other takes :func:`rules.core.judge`'s way."""
        # try_make_entry's fast paths, on the move as it is (a move with a field "player" of its own
        # is no entry's: the long way refuses it)
        if type(move) is dict and type(player) is int and "player" not in move \
                and self._make_at_once(player, move, len(move)):
            return _LEGAL
        if type(player) is int and self._phase != "over" and player == self.current_player():
            return self._judge_once(move)  # judge passes the seat: check's verdict
        return super().try_apply_for(player, move)  # judge's way, which words the refusal

    def try_make_entry(self, entry: Any) -> bool:
        """:meth:`State.try_make_entry`: a well-formed legal Battle, Army or Warrior play or nullify
        move by the seat to move. The checks of :meth:`_validate`'s shortcuts and :meth:`_make`'s
        work for a Battle card and a nullify move are written out (most moves; the validator asks
        this for every move)."""
        if type(entry) is not dict:
            return False
        player = entry.get("player")
        if type(player) is not int:  # judge refuses a bool seat (True == 1); no seat, no entry
            return False
        return self._make_at_once(player, entry, len(entry) - 1)

    def _make_at_once(self, player: int, move: JSONDict, size: int) -> bool:
        """:meth:`try_make_entry` for ``player``'s ``move`` of ``size`` fields (a transcript entry's
        fields besides its seat, read one by one): made when a fast path finds it legal."""
        if size == 2:  # the move's fields: with its type's present, it has no other
            mtype = move.get("type")
            phase = self._phase
            if mtype == "play-battle" and phase == "play":
                cid: Any = move.get("card")
                placements = _PLACEMENTS.get(cid) if type(cid) is str else None
                step = self._step
                p = self._order[step]
                if placements is not None and p == player:  # a Battle card, played by the seat to move
                    hand = self._hands[p]
                    try:
                        hand.remove(cid)  # one scan of the hand (was a test, then the removal)
                    except ValueError:  # not in the hand: _validate words the refusal
                        return False
                    _place(self._table, self._warriors, self._items, placements[p], 2 if step < self._n else 3)
                    if step + 1 < len(self._order):
                        self._step = step + 1
                    else:
                        self._after_play()
                    return True
            elif mtype == "nullify-items" and phase == "nullify":
                chosen = move.get("items")
                side = self._decider
                if type(chosen) is list and len(chosen) == self._need and side is not None \
                        and player == self._side.index(side):  # current_player, written out
                    taken = self._nullify_indexes(side, chosen)
                    if taken is not None:
                        self._nullify(side, taken)
                        return True
        elif size == 3 and self._phase == "play" and self._order[self._step] == player:
            mtype = move.get("type")
            plan = self._army_plan(move) if mtype == "play-army" else \
                self._warrior_plan(move) if mtype == "play-warrior" else None
            if plan is not None:
                self._make(plan)
                return True
        return False

    def _make(self, plan: Plan) -> None:
        """Carry out the plan :meth:`_validate` made of a legal move."""
        kind = plan[0]
        if kind == "forfeit":
            self._forfeited = self.current_player()
            self._phase = "over"
            self._refresh()
            return
        if kind == "nullify":
            self._nullify(plan[1], plan[2])
            return
        step = self._step
        p = self._order[step]
        card: Card = plan[1]
        self._hands[p].remove(card.id)
        stage = 2 if step < self._n else 3  # self.stage()
        if kind == "battle":
            _place(self._table, self._warriors, self._items, _PLACEMENTS[card.id][p], stage)
            if step + 1 < len(self._order):  # _after_play's common case
                self._step = step + 1
                return
            self._after_play()
            return
        side = self._side[p]
        if kind == "army":
            pairs, found = plan[2], plan[3]  # the (replace, with) pairs sorted, the slots they replace
            cid = card.id
            self._table.append({"seat": p, "card": cid, "stage": stage,
                                "swaps": [{"replace": t, "with": w} for t, w in pairs]})
            if self._homes:
                for (_, w), index in zip(pairs, found):
                    replace_warrior(self._warriors, side, index, w, 0, cid, p, home=True)
            else:  # replace_warrior without a home, written out
                slots = self._warriors[side]
                for (_, w), index in zip(pairs, found):
                    slots[index]["replaced"] = True
                    slots.append({"warrior": w, "level": 0, "card": cid, "seat": p, "replaced": False})
        else:
            token, index = plan[2], plan[3]
            self._table.append({"seat": p, "card": card.id, "stage": stage, "replace": token})
            replace_warrior(self._warriors, side, index, str(card.warrior), card.level, card.id, p, home=self._homes)
        self._after_play()

    def _nullify(self, side: str, indexes: list[int]) -> None:
        """Carry out a legal nullify move: ``side`` nullifies its items at ``indexes``."""
        its = self._items[side]
        for index in indexes:
            its[index]["nullified"] = True
        # what _refresh finds: the decider has no excess left; the other side is still to
        # choose only when it comes after (seat 1's side; seat 0's had none, and nullifying
        # one side's items changes nothing of the other's)
        self._decider, self._need = None, 0
        if side == self._side[0]:
            need = self._excess_items(self._side[1])
            if need:
                self._decider, self._need = self._side[1], need
        if self._decider is None:
            self._finish_round()

    def _no(self, rule: str, message: str) -> tuple[Verdict, Plan]:
        return self.game.verdict(rule, message), ()

    def _validate(self, move: Any) -> tuple[Verdict, Plan]:
        # The commonest legal move first: a Battle card from the hand while the cards are played
        # (what the full checks below find for it, with nothing else to refuse: a Battle card may
        # be the second or the third card).
        if type(move) is dict and len(move) == 2:
            mtype = move.get("type")
            if mtype == "play-battle" and self._phase == "play":
                cid = move.get("card")
                card = _BATTLE_CARDS.get(cid) if type(cid) is str else None
                if card is not None and cid in self._hands[self._order[self._step]]:
                    return _LEGAL, ("battle", card)
            elif mtype == "nullify-items" and self._phase == "nullify":
                # the decider naming exactly its excess of item ids it has in play: what _judge
                # finds for it (any refusal is left to _judge, which words it)
                chosen = move.get("items")
                if type(chosen) is list and len(chosen) == self._need and self._decider is not None:
                    taken = self._nullify_indexes(self._decider, chosen)
                    if taken is not None:
                        return _LEGAL, ("nullify", self._decider, taken)
        elif type(move) is dict and len(move) == 3 and self._phase == "play":
            mtype = move.get("type")
            plan = self._army_plan(move) if mtype == "play-army" else \
                self._warrior_plan(move) if mtype == "play-warrior" else None
            if plan is not None:
                return _LEGAL, plan
        return self._judge(move)

    def _mover_with(self, cid: str) -> int | None:
        """The seat to play when it may play its Army or Warrior card ``cid`` now (in its hand, and
        not while it still holds a Battle card for its second card); None otherwise. The check of
        :meth:`_warrior_plan` (:meth:`_army_plan` writes it out: Army plays are the commoner)."""
        step = self._step
        p = self._order[step]
        hand = self._hands[p]
        if cid not in hand or (step < self._n and not _BATTLE_IDS.isdisjoint(hand)):
            return None
        return p

    def _warrior_plan(self, move: JSONDict) -> Plan | None:
        """The plan of a well-formed legal Warrior play, every check of :meth:`_judge` for one, in
        plain JSON types only; None for anything else (left to :meth:`_judge`, which words it).
        Its fields are read one by one: ``move`` may be a transcript entry (with a ``player``)."""
        cid, token = move.get("card"), move.get("replace")
        card = _WARRIOR_CARDS.get(cid) if type(cid) is str else None
        if card is None or type(token) is not str or token == cid:
            return None
        p = self._mover_with(card.id)
        if p is None:
            return None
        found = self._resolve(self._side[p], [token])
        if isinstance(found, str):
            return None
        return ("warrior", card, token, found[0])

    def _army_plan(self, move: JSONDict) -> Plan | None:
        """The plan of a well-formed legal Army play, every check of :meth:`_judge` for one, in
        plain JSON types only; None for anything else (left to :meth:`_judge`, which words it).
        Its fields are read one by one: ``move`` may be a transcript entry (with a ``player``)."""
        cid = move.get("card")
        card = _ARMY_CARDS.get(cid) if type(cid) is str else None
        swaps = move.get("swaps")
        if card is None or type(swaps) is not list or len(swaps) > MAX_SWAPS:
            return None
        step = self._step  # _mover_with, written out
        p = self._order[step]
        hand = self._hands[p]
        if cid not in hand or (step < self._n and not _BATTLE_IDS.isdisjoint(hand)):
            return None
        pairs: list[tuple[str, str]] = []
        tokens: list[str] = []
        newcomers: list[str] = []  # each army warrior comes in once (a list: MAX_SWAPS is small)
        army = card.army
        for sw in swaps:
            if type(sw) is not dict or len(sw) != 2:
                return None
            t, w = sw.get("replace"), sw.get("with")
            if type(t) is not str or type(w) is not str or t == w or w not in army or w in newcomers:
                return None
            newcomers.append(w)
            pairs.append((t, w))
        if len(pairs) > 1:
            pairs.sort()
        for t, _ in pairs:
            tokens.append(t)
        found = self._resolve(self._side[p], tokens)
        if isinstance(found, str):
            return None
        return ("army", card, pairs, found)

    def _nullify_indexes(self, side: str, chosen: list[Any]) -> list[int] | None:
        """The indexes of ``side``'s items that ``chosen`` (plain strings) nullifies: for each id in
        sorted order its first un-nullified copy not yet taken, in table order; None when an entry
        is not a plain string or names no such copy."""
        for item in chosen:
            if type(item) is not str:
                return None
        its = self._items[side]
        taken: list[int] = []
        for item in sorted(chosen):
            for n, it in enumerate(its):
                if it["item"] == item and not it["nullified"] and n not in taken:
                    taken.append(n)
                    break
            else:
                return None
        return taken

    def _judge(self, move: Any) -> tuple[Verdict, Plan]:
        """Every check of :meth:`_validate`, in order."""
        why = shape_error(SHAPES, move)
        if why is not None:
            return self._no("move-format", why)
        mtype = move["type"]
        if self._phase == "over":
            return self._no("game-over", "The game is over: "
                            + ("a side has conceded." if self._forfeited is not None
                               else f"all {ROUNDS} rounds have been scored."))
        rnd = self._round  # messages say "Round {rnd}", made only for a refusal
        if mtype == "forfeit":
            return _LEGAL, ("forfeit",)
        if mtype == "nullify-items":
            chosen = move["items"]
            if not isinstance(chosen, list) or not all(isinstance(i, str) for i in chosen):
                return self._no("move-format", "nullify-items takes a list of item ids, e.g. [\"red-pill\"].")
            if self._phase != "nullify":
                return self._no("nullify-items", f"Round {rnd}: no item is to be nullified now; the round's cards are "
                                "still being played.")
            side = str(self._decider)
            need = self._excess(side)
            if len(chosen) != need:
                return self._no("nullify-items", f"Round {rnd}: {side.capitalize()} has {_plural(need, 'item')} more "
                                f"than participating warriors, so exactly {need} must be nullified, not {len(chosen)}.")
            taken: list[int] = []
            for item in sorted(chosen):
                for n, it in enumerate(self._items[side]):
                    if it["item"] == item and not it["nullified"] and n not in taken:
                        taken.append(n)
                        break
                else:
                    name = ROSTER.item_name.get(item, repr(item))
                    have = sum(1 for it in self._items[side] if it["item"] == item and not it["nullified"])
                    return self._no("nullify-items", f"Round {rnd}: there {'is' if have <= 1 else 'are'} "
                                    f"{'no' if have == 0 else have} {name} among the {side.capitalize()} items "
                                    f"in play to nullify{'' if have == 0 else f', not {chosen.count(item)}'}.")
            return _LEGAL, ("nullify", side, taken)
        # play-battle / play-army / play-warrior
        cid = move["card"]
        if not isinstance(cid, str):
            return self._no("move-format", f"{mtype} names a card id (a string).")
        card = CARDS.get(cid)
        if card is None:
            return self._no("unknown-card", f"There is no card {shown(cid)} in the Twin Tower City deck.")
        if self._phase == "nullify":
            n = self._excess(str(self._decider))
            return self._no("nullify-items", f"Round {rnd} is being scored: {str(self._decider).capitalize()} must "
                            f"first choose {_plural(n, 'item')} to nullify.")
        if card.kind != PLAY_TYPES[mtype]:
            return self._no("move-format", f"{cid} is {'an' if card.kind == 'army' else 'a'} "
                            f"{KIND_NAME[card.kind]} card: play it with {KIND_MOVE[card.kind]}.")
        p = self._order[self._step]
        hand = self._hands[p]
        if cid not in hand:
            seat = self._setup["seats"][p]
            if cid in seat["starters"]:
                r = seat["starters"].index(cid) + 1
                msg = (f"{cid} is your starting card for round {r}; " +
                       ("it has already been flipped" if r <= self._round else "it stays face down until then")
                       + ", it is not in your hand.")
            elif cid in seat["hand"]:
                msg = f"{cid} has already been played."
            else:
                msg = f"{cid} is not in your hand."
            return self._no("card-in-hand", msg)
        if card.kind != "battle" and self._step < self._n and not _BATTLE_IDS.isdisjoint(hand):  # stage 2
            return self._no("second-card-battle", f"Round {rnd}: your second card must be a Battle card; "
                            f"{KIND_NAME[card.kind]} cards are played as the third card.")
        if card.kind == "battle":
            return _LEGAL, ("battle", card)
        side = self._side[p]
        if card.kind == "warrior":
            token = move["replace"]
            if isinstance(token, list):
                return self._no("warrior-card", f"Round {rnd}: a Warrior card replaces exactly one warrior, "
                                "named as a string.")
            if not isinstance(token, str):
                return self._no("move-format", "play-warrior names the warrior to replace (a string).")
            found = self._resolve(side, [token])
            if isinstance(found, str):
                return self._no("replace-own-warrior", f"Round {rnd}: {found}")
            if token == cid:  # team play: a teammate's copy of the same Warrior card
                return self._no("warrior-card", f"Round {rnd}: replacing {self._warrior_label(token)} with the same "
                                "levelled warrior changes nothing.")
            return _LEGAL, ("warrior", card, token, found[0])
        swaps = move["swaps"]
        if not isinstance(swaps, list):
            return self._no("move-format", "play-army takes a list of swaps, e.g. "
                            "[{\"replace\": \"blamtifa-thug\", \"with\": \"doctor-sickle\"}].")
        pairs: list[tuple[str, str]] = []
        for sw in swaps:
            if not isinstance(sw, dict) or sw.keys() != _SWAP_FIELDS \
                    or not isinstance(sw["replace"], str) or not isinstance(sw["with"], str):
                return self._no("move-format", "Each swap is {\"replace\": <warrior>, \"with\": <warrior>}.")
            pairs.append((sw["replace"], sw["with"]))
        if len(pairs) > MAX_SWAPS:
            return self._no("army-card", f"Round {rnd}: an Army card replaces at most {MAX_SWAPS} warriors, "
                            f"not {len(pairs)}.")
        pairs.sort()
        withs = [w for _, w in pairs]
        for w in withs:
            if w not in card.army:
                name = ROSTER.warrior_name.get(w, repr(w))
                return self._no("army-card", f"Round {rnd}: {name} is not depicted on Army card {cid}.")
        if len(set(withs)) != len(withs):
            return self._no("army-card", f"Round {rnd}: each replacement uses a different warrior of the Army card.")
        for t, w in pairs:
            if t == w:
                return self._no("army-card", f"Round {rnd}: replacing {ROSTER.warrior_name[w]} with "
                                f"{ROSTER.warrior_name[w]} changes nothing.")
        found = self._resolve(side, [t for t, _ in pairs])
        if isinstance(found, str):
            return self._no("replace-own-warrior", f"Round {rnd}: {found}")
        return _LEGAL, ("army", card, pairs, found)

    def _resolve(self, side: str, tokens: Sequence[str]) -> list[int] | str:
        """Slot indexes for the tokens (first matching copy in table order), or why not."""
        slots = self._warriors[side]
        # each slot's token (_token), None once replaced or taken by an earlier token; one
        # comprehension (this runs for every Army and Warrior play)
        names: list[str | None] = [None if s["replaced"] else s["card"] if s["level"] else s["warrior"]
                                   for s in slots]
        taken: list[int] = []
        for token in tokens:
            try:
                found = names.index(token)
            except ValueError:
                other = OTHER_SIDE[side]
                if ROSTER.warrior_side.get(token) == other or \
                        (token in CARDS and CARDS[token].kind == "warrior" and CARDS[token].side == other):
                    return (f"{self._warrior_label(token)} is a {other.capitalize()} warrior; you replace only "
                            f"your own ({side.capitalize()}) warriors.")
                if tokens.count(token) > 1 and any(_token(s) == token and not s["replaced"] for s in slots):
                    return f"there are not {tokens.count(token)} copies of {self._warrior_label(token)} to replace."
                return f"there is no {self._warrior_label(token)} of yours on the table to replace."
            names[found] = None
            taken.append(found)
        return taken

    @staticmethod
    def _warrior_label(token: str) -> str:
        if token in ROSTER.warrior_name:
            return ROSTER.warrior_name[token]
        card = CARDS.get(token)
        if card is not None and card.kind == "warrior" and card.warrior:
            return f"{ROSTER.warrior_name[card.warrior]} Level {card.level} ({token})"
        return repr(token)

    # -- end ---------------------------------------------------------------------
    def is_terminal(self) -> bool:
        return self._phase == "over"

    def result(self) -> Result | None:
        if self._phase != "over":
            return None
        won = dict.fromkeys(SIDES, 0)
        dark = light = 0  # the sides' power
        for r in self._rounds:  # one pass (was a sum per side and figure)
            winner = r["winner"]
            if isinstance(winner, str) and winner in won:
                won[winner] += 1
            totals = r["totals"]
            dark += int(totals["dark"])
            light += int(totals["light"])
        power = {"dark": dark, "light": light}  # SIDES' order
        winning: str | None
        if self._forfeited is not None:
            winning, reason = OTHER_SIDE[self._side[self._forfeited]], "forfeit"
        elif won["dark"] != won["light"]:
            winning, reason = ("dark" if won["dark"] > won["light"] else "light"), "rounds"
        elif self._opts["level_rounds"] == "power" and power["dark"] != power["light"]:
            winning, reason = ("dark" if power["dark"] > power["light"] else "light"), "power"
        else:
            winning, reason = None, "draw"
        winners = [s for s in range(self._n) if self._side[s] == winning]
        detail: JSONDict = {"sides": list(self._side), "rounds_won": won, "power": power,
                            "winning_side": winning, "forfeited_by": self._forfeited,
                            "round_winners": [r["winner"] for r in self._rounds]}
        scores = [won[s] for s in self._side]
        unit = self.game.score_unit
        if winning is None:
            return Result.draw(scores, reason, detail, unit, teams=self._n > 2)
        if self._n > 2:  # team play: the side is the team (TTC-2)
            return Result.team_win(winning, winners, scores, reason, detail, unit)
        return Result.win(winners, scores, reason, detail, unit)

    # -- scoring -----------------------------------------------------------------
    def breakdown(self) -> JSONDict:
        """The current round's score breakdown (see :func:`scoring.score_round`)."""
        return score_round(ROSTER, CARDS, self._table, self._warriors, self._items, self._opts)

    def round_breakdown(self, round_number: int) -> JSONDict:
        """The breakdown of a round already scored (1-based), or of the current round."""
        for rec in self._rounds:
            if rec["round"] == round_number:
                return score_round(ROSTER, CARDS, rec["table"], rec["warriors"], rec["items"], self._opts)
        if round_number == self._round and self._phase != "over":
            return self.breakdown()
        raise ValueError(f"round {round_number} has not been played")

    def default_move(self) -> Move | None:
        """A sensible move for a simulated player where the rules leave a choice with a default
        (A-12: nullify the lowest item); otherwise the first legal move."""
        moves = self.legal_moves()
        return moves[0] if moves else None

    # -- data --------------------------------------------------------------------
    def clone(self) -> "TTCState":
        st = self.game.state_from_json(self.to_json())
        st.seat_names = self.seat_names
        return st

    def setup(self) -> JSONDict:
        result: JSONDict = _copy_setup(self._setup)
        return result

    def options(self) -> JSONDict:
        return dict(self._opts)

    def num_players(self) -> int:
        return self._n

    def json_strings(self) -> set[str]:
        """Every string value in :meth:`to_json` (the mutants' hook, see ``rules.mutate``): the
        parts that no longer change (options, setup, finished rounds) walked once and kept, the
        current round's records read value by value (anything not a plain scalar walked)."""
        fixed = self._fixed_strings
        if fixed is None or fixed[0] != len(self._rounds):
            fixed = self._fixed_strings = (len(self._rounds),
                                           _strings([self.game.id, self._opts, self._setup, self._rounds]))
        out = set(fixed[1])
        _add_strings(out, (self._phase, self._forfeited))
        for hand in self._hands:
            _add_strings(out, hand)
        add = out.add
        for records in (self._table, *self._warriors.values(), *self._items.values()):
            for rec in records:
                if type(rec) is not dict:
                    out |= _strings(rec)
                    continue
                for v in rec.values():  # _add_strings, inlined: it runs per record
                    if type(v) is str:
                        add(v)
                    elif type(v) not in _SCALARS:
                        out |= _strings(v)
        return out

    def to_json(self) -> JSONDict:
        return {
            "game": self.game.id,
            "options": dict(self._opts),
            "num_players": self._n,
            "setup": _copy_setup(self._setup),
            "round": self._round,
            "phase": self._phase,
            "step": self._step,
            "hands": [list(h) for h in self._hands],
            "table": _copy_table(self._table),
            "warriors": _copy_sides(self._warriors),
            "items": _copy_sides(self._items),
            "rounds": _copy_rounds(self._rounds),
            "forfeited": self._forfeited,
        }

    def observation(self, player: int) -> JSONDict:
        """What ``player`` sees: own hand; others' hands only with open_hands; starting cards of
        rounds not yet begun only with starting_face_up (hidden from their owner too, TTC-8)."""
        open_hands = bool(self._opts["open_hands"])
        face_up = bool(self._opts["starting_face_up"])
        flipped = ROUNDS if self._phase == "over" else self._round
        starters = [[c if (face_up or r < flipped) else None for r, c in enumerate(seat["starters"])]
                    for seat in self._setup["seats"]]
        return {
            "game": self.game.id,
            "player": player,
            "side": self._side[player],
            "sides": list(self._side),
            "options": dict(self._opts),
            "num_players": self._n,
            "coin": self._setup["coin"],
            "round": self._round,
            "phase": self._phase,
            "step": self._step,
            "current_player": self.current_player(),
            "hands": [list(h) if (p == player or open_hands) else None for p, h in enumerate(self._hands)],
            "hand_counts": [len(h) for h in self._hands],
            "starters": starters,
            "table": _copy_table(self._table),
            "warriors": _copy_sides(self._warriors),
            "items": _copy_sides(self._items),
            "rounds": _copy_rounds(self._rounds),
            "forfeited": self._forfeited,
        }

    def table_view(self) -> JSONDict:
        """The organiser's table: each seat's hand, the cards it has in play this round, and its
        starting cards of the rounds still to come (face down); rounds won so far as scores."""
        zones: list[JSONDict] = []
        for seat in range(self._n):
            zones.append(view_zone("hand", self._hands[seat], seat))
            zones.append(view_zone("in play", [e["card"] for e in self._table if e["seat"] == seat], seat))
            later = self._setup["seats"][seat]["starters"][self._round:] if self._phase != "over" else []
            zones.append(view_zone("starting cards to come", later, seat, face_down=True))
        return {"zones": zones, "boards": [], "scores": None, "turn": self.current_player(),
                "seats": [f"{side.capitalize()} side" for side in self._side],
                "lines": [f"Round {self._round} of {ROUNDS}, {self._phase}", f"Rounds played: {len(self._rounds)}"]}

    def describe_move(self, move: Move) -> str:
        p = self.current_player()
        who = f"{self.seat_name(p)} ({self._side[p].capitalize()})" if p is not None else "Nobody"
        if not isinstance(move, dict):
            return f"{who}: {move!r}"
        mtype = move.get("type")
        cid = move.get("card")
        card = CARDS.get(cid) if isinstance(cid, str) else None
        if mtype == "forfeit":
            return f"{who} concedes the game"
        if mtype == "nullify-items":
            items = move.get("items")
            if isinstance(items, list):
                names = [ROSTER.item_name.get(i, repr(i)) if isinstance(i, str) else repr(i) for i in items]
                return f"{who} nullifies {', '.join(names) or 'nothing'}"
        if card is not None and mtype in PLAY_TYPES:
            text = f"{who} plays {card.describe(ROSTER)}"
            if mtype == "play-warrior":
                text += f", replacing {self._warrior_label(str(move.get('replace')))}"
            elif mtype == "play-army":
                swaps = move.get("swaps") or []
                if isinstance(swaps, list) and swaps:
                    text += ", replacing " + " and ".join(
                        f"{self._warrior_label(str(s.get('replace')))} with {self._warrior_label(str(s.get('with')))}"
                        for s in swaps if isinstance(s, dict))
                else:
                    text += " without replacing anyone"
            return text
        return f"{who}: {super().describe_move(move)}"


GAME = TwinTowerCity()


def random_playout(seed: int = 0, options: Mapping[str, Any] | None = None, num_players: int | None = None,
                   move_seed: int | None = None) -> tuple[TTCState, int]:
    """Play one game with uniformly random legal moves; returns the final state and the move count."""
    state = GAME.new_state(seed=seed, options=options, num_players=num_players)
    rng = random.Random(seed if move_seed is None else move_seed)
    moves = 0
    while not state.is_terminal():
        legal = state.legal_moves()
        state.apply(legal[rng.randrange(len(legal) - 1)])  # forfeit is listed last: leave it out
        moves += 1
    return state, moves


def benchmark(games: int = 200, options: Mapping[str, Any] | None = None,
              num_players: int | None = None) -> dict[str, float]:
    """Random playouts per second and moves per second (for the lead's benchmark)."""
    import time

    start = time.perf_counter()
    total = 0
    for g in range(games):
        total += random_playout(g, options, num_players)[1]
    elapsed = time.perf_counter() - start
    return {"games": games, "moves": total, "seconds": elapsed,
            "games_per_second": games / elapsed, "moves_per_second": total / elapsed}
