"""Two by Two (Rob Bartel): the reference rules engine, 2 to 4 players.

The Lua mirror, ``lua_templates/games/two-by-two/rules.lua.j2``, follows
:meth:`TwoByTwoState.check` check for check, so keep their order in step.

Moves (plain JSON, the transcript vocabulary; spaces are axial ``"q,r"``)::

    {"type": "place-ark", "cell": "-3,6"}         # setup, in turn order, on a free ark space
    {"type": "water", "cell": "0,5"}               # step 1, mandatory: land already next to water
    {"type": "move", "to": "1,5"}                  # step 2 action: the ark to an adjoining free water space
    {"type": "rescue", "cells": ["0,4", "2,3"]}    # step 2 action: a face-up pair, the ark next to one
    {"type": "pass"}                               # forgo the rest of this turn's ark actions (A-7)

State data, per cell in grid order: ``tokens`` (the token on it or ``""``, face down
ones too: the state is the table's truth), ``face_up``, ``flooded`` (land under a
water token); per seat: ``arks`` (a cell, ``""`` before it is placed), ``track``
(the scoring track: the starting 1..n plus water points), ``rescued`` (one species
per pair, in rescue order); ``revealed`` lists every reveal ``[cell, token]`` as it
happened, ``lost`` the tokens drowned; ``phase`` is ``arks``, ``water`` or
``actions``; ``end`` appears when the game is over. The setup holds the face-down
layout (a token per jungle space in grid order) and the six removed unseen: what
the Global script shuffled, never shown to a player (:meth:`observation` hides it).
"""

from __future__ import annotations

import json
import random
from importlib import resources
from itertools import chain
from typing import Any, ClassVar, Mapping

from rules.core import Game, JSONDict, Move, Result, RuleRef, SetupError, State, Verdict, whole_number
from rules.moveshape import move_shapes, shape_error
from rules.mutate import _strings
from rules.two_by_two import board as B

DATA = B.DATA
#: the move shapes, declared once in moves.schema.json and read by both engines (rules.moveshape;
#: the Lua gets them as move_shapes): a move of another type or fields is refused as move-format
SHAPES = move_shapes(json.loads(resources.files(__package__).joinpath("moves.schema.json").read_text("utf-8")))
MOVE_TYPES: tuple[str, ...] = tuple(SHAPES["order"])
#: the fields each move type has, "type" first
MOVE_FIELDS = {t: ("type",) + tuple(f for f in SHAPES["fields"][t] if f != "type") for t in MOVE_TYPES}
#: every key a state's data has ("end" once the game is over); the Lua rules write a state's JSON
#: text by them (a state with another key is written by the runtime's U.json, the same text slower)
STATE_KEYS = ("actions", "arks", "colors", "end", "face_up", "flooded", "lost", "options", "phase", "players",
              "rescued", "revealed", "setup", "tokens", "track", "turn", "water_left")
#: the fields each move type needs besides its type
_MOVE_NEEDS = {t: fields[1:] for t, fields in MOVE_FIELDS.items()}
#: the heuristic's and the mutants' functions, once imported
_LATER: dict[str, Any] = {}
#: the keys :meth:`TwoByTwoState.json_strings` knows (all but "end" always there), and a setup's
_STATE_KEY_SET = frozenset(STATE_KEYS)
_STATE_KEYS_ALWAYS = _STATE_KEY_SET - {"end"}
_SETUP_KEYS = frozenset(("players", "layout", "removed"))
#: what a face-down token shows in an observation
HIDDEN = "?"


class TwoByTwoGame(Game):
    id = "two-by-two"
    name = DATA["name"]
    min_players = 2
    max_players = 4
    hidden_information = True   # face-down tokens and the six removed are unknown to every seat
    chance = True               # the tokens are shuffled
    score_unit = "point"
    data: ClassVar[Mapping[str, Any]] = DATA
    options = {k: v["default"] for k, v in DATA["options"].items()}
    option_choices = {k: tuple(v["choices"]) for k, v in DATA["options"].items()}
    rules = {k: RuleRef(k, v["section"], v["summary"]) for k, v in DATA["rules"].items()}
    # arks, then at most 36 turns of a water placement and two actions or a pass
    max_game_length = 4 + B.WATER_TOKENS * (1 + B.ARK_ACTIONS)

    def new_state(self, seed: int | None = 0, options: Mapping[str, Any] | None = None,
                  setup: Mapping[str, Any] | None = None, num_players: int | None = None) -> "TwoByTwoState":
        opts = self.resolve_options(options)
        if num_players is not None and num_players not in self.seat_counts():
            raise SetupError(f"{self.id} is for 2 to 4 players, not {num_players}", field="players")
        if setup is not None:
            checked = _checked_setup(setup)
            if num_players is not None and checked["players"] != num_players:
                raise SetupError(f"setup.players is {checked['players']} but there are {num_players} players",
                                 field="players")
            return TwoByTwoState.start(opts, checked)
        rng = random.Random(seed)
        tokens = list(B.TOKENS)
        rng.shuffle(tokens)
        return TwoByTwoState.start(opts, {"players": num_players or 2, "layout": tokens[:len(B.JUNGLE)],
                                          "removed": sorted(tokens[len(B.JUNGLE):])})

    def state_from_json(self, data: Mapping[str, Any]) -> "TwoByTwoState":
        return TwoByTwoState(dict(data))

    def lua_context(self) -> JSONDict:
        return {"board": B.lua_board(), "jungle": [B.CELL_INDEX[c] + 1 for c in B.JUNGLE],
                "ark_spaces": list(B.ARK_SPACES), "seat_arks": {k: v for k, v in DATA["seat_arks"].items()
                                                                if k.isdigit()},
                "x2": {k: list(v) for k, v in B.X2.items()}, "rescuable": sorted(B.RESCUABLE),
                "species": list(B.SPECIES), "tokens": list(B.TOKENS), "water_tokens": B.WATER_TOKENS,
                "ark_actions": B.ARK_ACTIONS, "move_shapes": SHAPES,
                "move_fields": {t: list(f) for t, f in MOVE_FIELDS.items()},
                "basic_points": DATA["basic_points"], "advanced_points": DATA["advanced_points"],
                "x2_factor": DATA["x2_factor"], "track_length": DATA["track_length"],
                "player_counts": list(self.seat_counts()), "data": dict(DATA),
                "state_keys": sorted(STATE_KEYS)}

    def heuristic_move(self, obs: JSONDict, moves: list[Move], rng: random.Random) -> Move:
        choose = _LATER.get("choose")
        if choose is None:  # (imported on first use: the heuristic imports this module)
            from rules.two_by_two import heuristic
            choose = _LATER["choose"] = heuristic.choose
        move: Move = choose(obs, moves, rng)
        return move

    def board_mutants(self, move: Move, state: State, rng: random.Random) -> list[Any]:
        """Board-shaped wrong moves for check-lua and the invariant suite."""
        board_mutants = _LATER.get("board_mutants")
        if board_mutants is None:  # (imported on first use: the mutants import this module)
            from rules.two_by_two import mutants
            board_mutants = _LATER["board_mutants"] = mutants.board_mutants
        assert isinstance(state, TwoByTwoState)
        made: list[Any] = board_mutants(move, state, rng)
        return made


def _checked_setup(setup: Mapping[str, Any]) -> JSONDict:
    if not isinstance(setup, Mapping):
        raise SetupError("the setup must be an object with 'players', 'layout' and 'removed'", field="setup")
    players = whole_number(setup.get("players"))  # 2.0 is 2, as the Lua mirror reads it
    if players not in (2, 3, 4):
        raise SetupError(f"setup.players must be 2, 3 or 4, not {setup.get('players')!r}")
    layout, removed = setup.get("layout"), setup.get("removed")
    for name, value, n in (("layout", layout, len(B.JUNGLE)), ("removed", removed, B.REMOVED)):
        if not isinstance(value, list) or len(value) != n or not all(isinstance(t, str) for t in value):
            raise SetupError(f"setup.{name} must be a list of {n} token names")
    assert isinstance(layout, list) and isinstance(removed, list)
    unknown = [t for t in layout + removed if t not in B.TOKENS]
    if unknown:
        raise SetupError(f"setup names unknown token {unknown[0]!r}")
    if sorted(layout + removed) != sorted(B.TOKENS):
        raise SetupError(f"setup.layout and setup.removed must hold each of the {len(B.TOKENS)} tokens once")
    return {"players": players, "layout": list(layout), "removed": list(removed)}


GAME = TwoByTwoGame()
#: the cell indexes that are water from the start, and the land ones in cell order (the move list).
_SEA: frozenset[int] = frozenset(i for i, land in enumerate(B.LAND) if not land)
_LAND_CELLS: tuple[int, ...] = tuple(i for i, land in enumerate(B.LAND) if land)
#: the land cells next to the sea.
_COASTAL: frozenset[int] = frozenset(i for i in _LAND_CELLS if not _SEA.isdisjoint(B.NEIGHBOURS[i]))


def _no_animal(s: JSONDict, cell: str, k: int) -> str:
    """Why there is no face-up animal to rescue on ``cell`` (index ``k``), in words."""
    if s["flooded"][k]:
        return f"{cell} is flooded: a water token covers it, and any animal on it drowned."
    if not B.LAND[k]:
        return f"{cell} is sea; there is no animal on it."
    if not s["tokens"][k]:
        return f"There is no animal left on {cell}."
    return f"The animal on {cell} is still face down; only a face-up animal can be rescued."


def laps(score: int) -> int:
    """The lap tokens of a final score: a lap for more than 50 points, its flip for more than 100
    (the rulebook's "more than", so exactly 50 or 100 stays on the lap before).

    >>> [laps(x) for x in (0, 50, 51, 100, 101)]
    [0, 0, 1, 1, 2]
    """
    return max(0, (score - 1) // int(DATA["track_length"]))


def _v(rule: str, message: str) -> Verdict:
    return GAME.verdict(rule, message)


class TwoByTwoState(State):
    """One position; ``self.s`` is the JSON data itself."""

    game = GAME

    def __init__(self, data: JSONDict):
        self.s = data

    @classmethod
    def start(cls, options: JSONDict, setup: JSONDict) -> "TwoByTwoState":
        n = setup["players"]
        tokens = [""] * len(B.CELLS)
        for cell, token in zip(B.JUNGLE, setup["layout"]):
            tokens[B.CELL_INDEX[cell]] = token
        return cls({
            "options": dict(options), "setup": dict(setup), "players": n, "colors": B.seat_colors(n),
            "tokens": tokens, "face_up": [False] * len(B.CELLS), "flooded": [False] * len(B.CELLS),
            "arks": [""] * n, "track": [seat + 1 for seat in range(n)], "rescued": [[] for _ in range(n)],
            "water_left": B.WATER_TOKENS, "phase": "arks", "turn": 0, "actions": 0,
            "revealed": [], "lost": [],
        })

    # -- accessors ------------------------------------------------------
    def is_water(self, i: int) -> bool:
        return not B.LAND[i] or bool(self.s["flooded"][i])

    def touches_water(self, i: int) -> bool:
        land, flooded = B.LAND, self.s["flooded"]
        for n in B.NEIGHBOURS[i]:  # is_water(n), unrolled: the first reveal asks it of every cell
            if not land[n] or flooded[n]:
                return True
        return False

    def current_player(self) -> int | None:
        return None if "end" in self.s else int(self.s["turn"])

    def turn_order_note(self, player: Any) -> str:
        """After a turn ended (a pass or the second ark action), its player's next move is out of
        turn: the refusal says why (none after the arks are placed, before any water)."""
        s = self.s
        n = int(s["players"])
        if s["phase"] != "water" or type(player) is not int or player != (int(s["turn"]) - 1) % n \
                or s["water_left"] == B.WATER_TOKENS:
            return ""
        return f"{self.seat_name(player)}'s turn ended with its pass or its second ark action."

    def is_terminal(self) -> bool:
        return "end" in self.s

    def num_players(self) -> int:
        return int(self.s["players"])

    def setup(self) -> JSONDict:
        return dict(self.s["setup"])

    def options(self) -> JSONDict:
        return dict(self.s["options"])

    def to_json(self) -> JSONDict:
        return self.s

    def json_strings(self) -> set[str]:
        """Every string value in :meth:`to_json` (the mutants' hook, see ``rules.mutate``) without
        walking it all: the lists of names taken whole (tokens, arks, colours, the layout, the six
        removed, the lost, each reveal and each seat's rescues), the phase, and the small parts
        (options, the end) walked. A state with a key, or a setup with a field, this does not know
        is walked whole, as is one without a key every state has."""
        s = self.s
        setup = s.get("setup")
        if not (_STATE_KEYS_ALWAYS <= s.keys() <= _STATE_KEY_SET and type(setup) is dict
                and setup.keys() == _SETUP_KEYS):
            return _strings(s)
        out = set(setup["layout"])
        out.update(setup["removed"], s["tokens"], s["colors"], s["arks"], s["lost"],
                   chain.from_iterable(s["revealed"]), chain.from_iterable(s["rescued"]))
        out.add(s["phase"])
        out |= _strings([s["options"], s.get("end")])
        return out

    def observation(self, player: int) -> JSONDict:
        """What ``player`` sees: every face-down token as ``"?"``, no setup (the layout and the six
        removed); ``viewer`` names the seat looking (no seat knows more than another)."""
        obs = {k: v for k, v in self.s.items() if k != "setup"}
        obs["tokens"] = [t if (up or not t) else HIDDEN for t, up in zip(self.s["tokens"], self.s["face_up"])]
        obs["viewer"] = player
        return obs

    def pair_left(self) -> bool:
        """Is a rescuable pair still face up on the island?"""
        seen: set[str] = set()
        for t, up in zip(self.s["tokens"], self.s["face_up"]):
            if t and up:
                sp = B.species_of(t)
                if sp in seen and sp in B.RESCUABLE:
                    return True
                seen.add(sp)
        return False

    def face_down_left(self) -> bool:
        return any(t and not up for t, up in zip(self.s["tokens"], self.s["face_up"]))

    # -- moves ------------------------------------------------------------
    def legal_moves(self) -> list[Move]:
        if self.is_terminal():
            return []
        s = self.s
        phase = s["phase"]
        if phase == "arks":
            taken = set(s["arks"])
            return [{"type": "place-ark", "cell": c} for c in B.ARK_SPACES if c not in taken]
        if phase == "water":  # dry land next to water: next to the sea, or to a flooded space
            flooded, land = s["flooded"], B.LAND
            near_water = set(_COASTAL)
            for i in [i for i, f in enumerate(flooded) if f]:
                near_water.update(B.NEIGHBOURS[i])
            return [{"type": "water", "cell": B.CELLS[i]} for i in sorted(near_water) if land[i] and not flooded[i]]
        seat = int(s["turn"])
        here = B.CELL_INDEX[s["arks"][seat]]
        taken = {B.CELL_INDEX[a] for a in s["arks"]}
        out: list[Move] = [{"type": "move", "to": B.CELLS[n]} for n in B.NEIGHBOURS[here]
                           if self.is_water(n) and n not in taken]
        tokens, face_up = s["tokens"], s["face_up"]
        species_of = B.SPECIES_OF.get
        # a rescue takes an animal next to the ark: only the species face up there can pair
        wanted = set()
        for n in B.NEIGHBOURS[here]:
            t = tokens[n]
            if t and face_up[n]:
                wanted.add(species_of(t) or B.species_of(t))
        wanted &= B.RESCUABLE
        # the face-up animals of those species, in cell order: each pair i < j once, i's order first
        groups: dict[str, list[int]] = {}
        for i in ([i for i, up in enumerate(face_up) if up and tokens[i]] if wanted else []):
            t = tokens[i]
            sp = species_of(t) or B.species_of(t)
            if sp in wanted:
                groups.setdefault(sp, []).append(i)
        pairs = sorted((i, j) for same in groups.values() if len(same) > 1
                       for x, i in enumerate(same) for j in same[x + 1:])
        for i, j in pairs:
            if here in B.NEIGHBOURS[i] or here in B.NEIGHBOURS[j]:
                # either order names the same pair (check accepts both); listed once, in cell order
                out.append({"type": "rescue", "cells": [B.CELLS[i], B.CELLS[j]]})
        out.append({"type": "pass"})
        return out

    def same_move(self, move: Any) -> Any:
        """A rescue with its two spaces in cell order, as :meth:`legal_moves` lists it (check takes
        either order: the same pair)."""
        if isinstance(move, dict) and move.get("type") == "rescue":
            cells = move.get("cells")
            if isinstance(cells, list) and len(cells) == 2 and all(c in B.CELL_INDEX for c in cells if isinstance(c, str)) \
                    and all(isinstance(c, str) for c in cells):
                return {**move, "cells": sorted(cells, key=B.CELL_INDEX.__getitem__)}
        return move

    def choice_moves(self) -> list[Move]:
        """:meth:`legal_moves`, which never lists a forfeit (the game has none)."""
        return self.legal_moves()

    def check(self, move: Any) -> Verdict:
        if not isinstance(move, dict) or not isinstance(move.get("type"), str):
            return _v("move-format", shape_error(SHAPES, move) or "")
        s = self.s
        if "end" in s:  # is_terminal
            return _v("game-over", "The game is over; no more moves.")
        why = shape_error(SHAPES, move)  # the type and its fields (the schema's); the values below
        if why is not None:
            return _v("move-format", why)
        t = move["type"]
        if t == "rescue":
            cells = move["cells"]
            if not isinstance(cells, list) or len(cells) != 2 \
                    or not (isinstance(cells[0], str) and isinstance(cells[1], str)):
                return _v("move-format", "Field 'cells' must be a list of two spaces.")
            named = list(cells)
        elif t == "pass":
            named = []
        else:
            value = move[_MOVE_NEEDS[t][0]]
            if not isinstance(value, str):
                return _v("move-format", f"Field '{_MOVE_NEEDS[t][0]}' must be a string.")
            named = [value]
        index = B.CELL_INDEX
        for c in named:
            if c not in index:
                return _v("unknown-cell", f"There is no space '{c}' on the board (spaces are q,r).")
        phase = s["phase"]
        if phase == "arks":
            if t != "place-ark":
                return _v("setup-order", "First every player places their ark on an ark space, in turn order.")
            return self._check_place_ark(named[0])
        if t == "place-ark":
            return _v("setup-order", "The arks are already on the board.")
        if phase == "water":
            if t != "water":
                return _v("water-first", "Your turn starts with placing a water token.")
            return self._check_water(named[0])
        if t == "water":
            return _v("one-water", "You have placed this turn's water token; now move, rescue or pass.")
        if t == "move":
            return self._check_move(named[0])
        if t == "rescue":
            return self._check_rescue(named[0], named[1])
        return Verdict.legal()

    def _check_place_ark(self, cell: str) -> Verdict:
        if cell not in B.ARK_SPACES:
            return _v("ark-space", f"{cell} is not one of the six ark spaces around the island.")
        if cell in self.s["arks"]:
            return _v("ark-space", f"Another ark already stands on {cell}.")
        return Verdict.legal()

    def _check_water(self, cell: str) -> Verdict:
        i = B.CELL_INDEX[cell]
        if self.is_water(i):
            return _v("water-on-land", f"{cell} is already water; the water token goes on a land space.")
        if not self.touches_water(i):
            return _v("water-adjacent", f"{cell} does not touch water yet.")
        return Verdict.legal()

    def _check_move(self, cell: str) -> Verdict:
        s = self.s
        i = B.CELL_INDEX[cell]
        here = B.CELL_INDEX[s["arks"][int(s["turn"])]]
        if i not in B.NEIGHBOURS[here]:
            return _v("move-adjacent", f"{cell} does not adjoin your ark's space {B.CELLS[here]}.")
        if not self.is_water(i):
            return _v("move-onto-water", f"{cell} is land; an ark moves only on water.")
        if cell in s["arks"]:
            return _v("move-free", f"Another ark is on {cell}.")
        return Verdict.legal()

    def _check_rescue(self, a: str, b: str) -> Verdict:
        s = self.s
        i, j = B.CELL_INDEX[a], B.CELL_INDEX[b]
        if i == j:
            return _v("rescue-pair", "A pair is two animals on two different spaces.")
        for c, k in ((a, i), (b, j)):
            if not s["tokens"][k] or not s["face_up"][k]:
                return _v("rescue-face-up", _no_animal(s, c, k))
        x, y = B.species_of(s["tokens"][i]), B.species_of(s["tokens"][j])
        if x != y:
            return _v("rescue-pair", f"{x} on {a} and {y} on {b} are not a pair.")
        if x not in B.RESCUABLE:
            return _v("no-fishbones", f"{x} cannot be rescued.")
        here = B.CELL_INDEX[s["arks"][int(s["turn"])]]
        if here not in B.NEIGHBOURS[i] and here not in B.NEIGHBOURS[j]:
            return _v("rescue-adjacent", f"Your ark on {B.CELLS[here]} is next to neither {a} nor {b}.")
        return Verdict.legal()

    def make(self, move: Move) -> None:
        """Make ``move``, already checked."""
        s = self.s
        seat = int(s["turn"])
        t = move["type"]
        if t == "place-ark":
            s["arks"][seat] = move["cell"]
            s["turn"] = seat + 1
            if s["turn"] == s["players"]:
                s["turn"] = 0
                s["phase"] = "water"
                for i in range(len(B.CELLS)):  # the first reveal: every token touching water
                    if s["tokens"][i] and self.touches_water(i):
                        self._reveal(i)
            return
        if t == "water":
            i = B.CELL_INDEX[move["cell"]]
            if s["tokens"][i]:
                s["lost"].append(s["tokens"][i])
                s["tokens"][i] = ""
                s["face_up"][i] = False
            s["flooded"][i] = True
            s["water_left"] -= 1
            s["track"][seat] += sum(1 for n in B.NEIGHBOURS[i] if not B.LAND[n] or s["flooded"][n])  # is_water
            for n in B.NEIGHBOURS[i]:
                if s["tokens"][n] and not s["face_up"][n]:
                    self._reveal(n)
            s["phase"] = "actions"
            s["actions"] = 0
            return
        if t == "move":
            s["arks"][seat] = move["to"]
        elif t == "rescue":
            i, j = (B.CELL_INDEX[c] for c in move["cells"])
            s["rescued"][seat].append(B.species_of(s["tokens"][i]))
            for k in (i, j):
                s["tokens"][k] = ""
                s["face_up"][k] = False
        s["actions"] += 1
        if t == "pass" or s["actions"] >= B.ARK_ACTIONS:
            self._end_turn()

    def _reveal(self, i: int) -> None:
        self.s["face_up"][i] = True
        self.s["revealed"].append([B.CELLS[i], self.s["tokens"][i]])

    def _end_turn(self) -> None:
        s = self.s
        if s["water_left"] == 0:
            s["end"] = {"reason": "no-water"}
        elif not self.face_down_left() and not self.pair_left():
            s["end"] = {"reason": "no-pairs"}
        else:
            s["turn"] = (int(s["turn"]) + 1) % int(s["players"])
            s["phase"] = "water"
        s["actions"] = 0

    # -- end ------------------------------------------------------------
    def ark_points(self) -> list[int]:
        """Each seat's points for its rescued pairs under the game's scoring option."""
        return ark_points(self.s["rescued"], self.s["colors"], self.s["options"]["scoring"])

    def result(self) -> Result | None:
        end = self.s.get("end")
        if end is None:
            return None
        n = self.num_players()
        track = list(self.s["track"])
        arks = self.ark_points()
        scores = [track[p] + arks[p] for p in range(n)]
        animals = [2 * len(r) for r in self.s["rescued"]]
        species = [len(set(r)) for r in self.s["rescued"]]
        ranked = [(scores[p], animals[p], species[p]) for p in range(n)]
        best = max(ranked)
        winners = [p for p in range(n) if ranked[p] == best]
        level = [p for p in range(n) if scores[p] == best[0]]
        if len(level) == 1:
            reason = "most-points"
        elif len([p for p in level if animals[p] == best[1]]) == 1:
            reason = "most-animals"
        elif len(winners) == 1:
            reason = "most-species"
        else:
            reason = "shared"
        detail = {"end": end["reason"], "scoring": self.s["options"]["scoring"], "track": track,
                  "ark_points": arks, "animals": animals, "species": species,
                  "laps": [laps(sc) for sc in scores]}
        if len(winners) == n:  # every seat level after both tie-breaks: nobody wins
            return Result.draw(scores, "draw", detail, unit=self.game.score_unit)
        return Result.win(winners, scores, reason, detail, unit=self.game.score_unit)

    def table_view(self) -> JSONDict:
        """The organiser's table: every animal token on its island cell, face up or (shown as its
        back) face down, water on flooded cells, each seat's ark; the track's points as scores."""
        s = self.s
        cells: dict[str, JSONDict] = {}
        water = 0
        for i, cell in enumerate(B.CELLS):
            if s["flooded"][i]:
                water += 1
                cells[cell] = {"piece": f"water-{water}", "face": 0}
            elif s["tokens"][i]:
                cells[cell] = {"piece": s["tokens"][i], "face": 0 if s["face_up"][i] else 1}
        for seat, cell in enumerate(s["arks"]):
            if cell:
                cells[cell] = {"piece": f"ark-{s['colors'][seat]}", "face": 0}
        seats = [f"{s['colors'][seat]} ark, rescued: {', '.join(r) or 'nothing yet'}"
                 for seat, r in enumerate(s["rescued"])]
        return {"zones": [], "boards": [{"name": "island", "cells": cells}], "scores": list(s["track"]),
                "seats": seats, "turn": self.current_player(),
                "lines": [f"Phase: {s['phase']}", f"Water left: {s['water_left']}"]}

    def describe_move(self, move: Move) -> str:
        t = move.get("type")
        if t == "place-ark":
            return f"place the ark on {move['cell']}"
        if t == "water":
            return f"water on {move['cell']}"
        if t == "move":
            return f"ark to {move['to']}"
        if t == "rescue":
            cells = move["cells"]
            return f"rescue the pair on {cells[0]} and {cells[1]}"
        return "pass"


def ark_points(rescued: list[list[str]], colors: list[str], scoring: str) -> list[int]:
    """Points for the rescued pairs (one species name per pair), per seat.

    >>> ark_points([["doves"], ["monkeys", "monkeys"], ["frogs"]], ["blue", "green", "yellow"], "advanced")
    [6, 6, 6]
    >>> ark_points([["doves", "unicorns"], ["doves"]], ["red", "green"], "basic")
    [10, 2]
    """
    pairs: dict[str, int] = {}
    for seat_pairs in rescued:
        for sp in seat_pairs:
            pairs[sp] = pairs.get(sp, 0) + 1
    factor = int(DATA["x2_factor"])
    out = []
    for seat, seat_pairs in enumerate(rescued):
        starred = B.X2[colors[seat]]
        total = 0
        for sp in seat_pairs:
            if scoring == "advanced":
                points = int(DATA["advanced_points"]["per_species"]) // pairs[sp]
            else:
                basic = DATA["basic_points"]
                points = 2 * int(basic["unicorns_per_animal"] if sp == "unicorns" else basic["per_animal"])
            total += points * (factor if sp in starred else 1)
        if scoring == "basic":
            mine = set(seat_pairs)
            total += int(DATA["basic_points"]["species_bonus"]) * sum(
                1 for sp in mine if sum(1 for other in rescued if sp in other) == 1)
        out.append(total)
    return out
