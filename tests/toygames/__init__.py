"""Two toy games the invariant suite runs beside the real ones (tests only, never registered
for the tool): they are the kinds no real game covers yet.

``toy-race`` is cooperative with perfect information and no chance: 2 or 3 seats take turns
adding 1 or 2 to a counter; the table wins by landing exactly on the target, loses by passing it.
``toy-solo`` is solo with perfect information and chance: the seed shuffles a row of cards 1-6;
the player takes three cards, each from either end, and wins with a total of at least the goal.
``toy-count`` has no options and no setup (``{}`` both): 2 seats take turns adding 1 or 2 to a
counter from 0; whoever brings it to 7 or more wins. Its Lua rules (``count.lua``) let the tests
drive it through the stubbed TTS: a game of no options is where an empty Lua table must still be
saved as a JSON object.
"""

from __future__ import annotations

import json
import random
from typing import Any, Mapping

from rules.core import Game, JSONDict, Move, Result, RuleRef, SetupError, State, Verdict

_COMMON = {
    "move-format": RuleRef("move-format", "Moves", "A move names a known type with the fields it needs."),
    "game-over": RuleRef("game-over", "End", "No move after the end."),
    "turn-order": RuleRef("turn-order", "Turns", "Seats move in turn."),
}


class _ToyState(State):
    def __init__(self, game: Game, data: JSONDict):
        self.game = game
        self.s = data

    def to_json(self) -> JSONDict:
        return self.s

    def setup(self) -> JSONDict:
        return json.loads(json.dumps(self.s["setup"]))

    def options(self) -> JSONDict:
        return dict(self.s["options"])

    def num_players(self) -> int:
        return int(self.s["players"])

    def is_terminal(self) -> bool:
        return bool(self.s["over"])

    def current_player(self) -> int | None:
        return None if self.s["over"] else int(self.s["turn"]) % self.num_players()

    def observation(self, player: int) -> JSONDict:
        return json.loads(json.dumps(self.s))  # perfect information: everyone sees everything

    def check(self, move: Any) -> Verdict:
        if not isinstance(move, dict) or move.get("type") not in self.game.move_fields:
            return self.game.verdict("move-format", f"Moves are {', '.join(self.game.move_fields)}.")
        if set(move) != self.game.move_fields[move["type"]]:
            return self.game.verdict("move-format", f"A {move['type']} move has the fields "
                                     f"{', '.join(sorted(self.game.move_fields[move['type']]))}.")
        if self.s["over"]:
            return self.game.verdict("game-over", "The game is over.")
        return self._check(move)

    def legal_moves(self) -> list[Move]:
        if self.s["over"]:
            return []
        return [m for m in self._candidates() if self.check(m).ok] + [{"type": "forfeit"}]

    def _candidates(self) -> list[Move]:
        raise NotImplementedError

    def _check(self, move: Move) -> Verdict:
        raise NotImplementedError



class RaceGame(Game):
    id = "toy-race"
    name = "Toy Race"
    min_players, max_players = 2, 3
    options = {"target": 10}
    option_choices = {"target": (10, 15)}
    rules = {**_COMMON, "amount": RuleRef("amount", "Turns", "Add 1 or 2.")}
    result_kind = "cooperative"
    score_unit = "point"
    max_game_length = 40
    move_fields = {"add": frozenset({"type", "amount"}), "forfeit": frozenset({"type"})}

    def new_state(self, seed: int | None = 0, options: Mapping[str, Any] | None = None,
                  setup: Mapping[str, Any] | None = None, num_players: int | None = None) -> State:
        n = 2 if num_players is None else num_players
        if n not in self.seat_counts():
            raise SetupError(f"{self.id} is for 2 or 3 players, not {n}")
        return RaceState(self, {"options": self.resolve_options(options), "setup": {}, "players": n,
                                "counter": 0, "turn": 0, "over": False, "forfeited": False})

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        return RaceState(self, dict(data))


class RaceState(_ToyState):
    def _candidates(self) -> list[Move]:
        return [{"type": "add", "amount": 1}, {"type": "add", "amount": 2}]

    def _check(self, move: Move) -> Verdict:
        if move["type"] == "add" and (type(move["amount"]) is not int or move["amount"] not in (1, 2)):
            return self.game.verdict("amount", "Add 1 or 2.")
        return Verdict.legal()

    def make(self, move: Move) -> None:
        if move["type"] == "forfeit":
            self.s.update(over=True, forfeited=True)
            return
        self.s["counter"] += move["amount"]
        self.s["turn"] += 1
        self.s["over"] = self.s["counter"] >= self.s["options"]["target"]

    def result(self) -> Result | None:
        if not self.s["over"]:
            return None
        won = not self.s["forfeited"] and self.s["counter"] == self.s["options"]["target"]
        reason = "forfeit" if self.s["forfeited"] else "on-target" if won else "overshot"
        return Result.cooperative(won, self.num_players(), reason, self.s["counter"], unit=self.game.score_unit)


class SoloGame(Game):
    id = "toy-solo"
    name = "Toy Solo"
    min_players, max_players = 1, 1
    options = {"goal": 12}
    option_choices = {"goal": (9, 12)}
    rules = {**_COMMON, "end": RuleRef("end", "Turns", "Take from the left or the right end.")}
    chance = True
    result_kind = "solo"
    max_game_length = 4
    move_fields = {"take": frozenset({"type", "end"}), "forfeit": frozenset({"type"})}

    def new_state(self, seed: int | None = 0, options: Mapping[str, Any] | None = None,
                  setup: Mapping[str, Any] | None = None, num_players: int | None = None) -> State:
        if num_players not in (None, 1):
            raise SetupError(f"{self.id} is for 1 player, not {num_players}")
        if setup is None:
            row = list(range(1, 7))
            random.Random(seed).shuffle(row)
        else:
            row = list(setup.get("row", []))
            if sorted(row) != list(range(1, 7)):
                raise SetupError("setup.row holds the cards 1-6 once each")
        return SoloState(self, {"options": self.resolve_options(options), "setup": {"row": list(row)},
                                "players": 1, "row": row, "taken": [], "turn": 0, "over": False,
                                "forfeited": False})

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        return SoloState(self, dict(data))


class SoloState(_ToyState):
    def _candidates(self) -> list[Move]:
        return [{"type": "take", "end": "left"}, {"type": "take", "end": "right"}]

    def _check(self, move: Move) -> Verdict:
        if move["type"] == "take" and move["end"] not in ("left", "right"):
            return self.game.verdict("end", "Take from the left or the right end.")
        return Verdict.legal()

    def make(self, move: Move) -> None:
        if move["type"] == "forfeit":
            self.s.update(over=True, forfeited=True)
            return
        row = self.s["row"]
        self.s["taken"].append(row.pop(0 if move["end"] == "left" else -1))
        self.s["turn"] += 1
        self.s["over"] = len(self.s["taken"]) == 3

    def result(self) -> Result | None:
        if not self.s["over"]:
            return None
        total = sum(self.s["taken"])
        won = not self.s["forfeited"] and total >= self.s["options"]["goal"]
        reason = "forfeit" if self.s["forfeited"] else "goal" if won else "short"
        return Result.solo(won, reason, total)


class CountGame(Game):
    id = "toy-count"
    name = "Toy Count"
    rules = {**_COMMON, "amount": RuleRef("amount", "Turns", "Add 1 or 2.")}
    max_game_length = 8
    move_fields = {"add": frozenset({"type", "amount"}), "forfeit": frozenset({"type"})}
    target = 7

    def new_state(self, seed: int | None = 0, options: Mapping[str, Any] | None = None,
                  setup: Mapping[str, Any] | None = None, num_players: int | None = None) -> State:
        if num_players not in (None, 2):
            raise SetupError(f"{self.id} is for 2 players, not {num_players}")
        return CountState(self, {"options": self.resolve_options(options), "setup": {}, "players": 2,
                                 "counter": 0, "turn": 0, "over": False, "forfeited_by": None})

    def state_from_json(self, data: Mapping[str, Any]) -> State:
        return CountState(self, dict(data))


class CountState(RaceState):
    def make(self, move: Move) -> None:
        if move["type"] == "forfeit":
            self.s.update(over=True, forfeited_by=self.current_player())
            return
        self.s["counter"] += move["amount"]
        self.s["over"] = self.s["counter"] >= CountGame.target
        if not self.s["over"]:
            self.s["turn"] += 1

    def result(self) -> Result | None:
        if not self.s["over"]:
            return None
        loser = self.s["forfeited_by"]
        if loser is not None:
            return Result.win(1 - loser, None, "forfeit", {"forfeited_by": loser})
        return Result.win(int(self.s["turn"]) % 2, None, "reached")

    def describe_move(self, move: Move) -> str:
        return "forfeits" if move["type"] == "forfeit" else f"adds {move['amount']}"


RACE = RaceGame()
COUNT = CountGame()
SOLO = SoloGame()
TOY_GAMES = {"toy-race": "toygames:RACE", "toy-solo": "toygames:SOLO", "toy-count": "toygames:COUNT"}
