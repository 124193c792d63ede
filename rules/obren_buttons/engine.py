"""Adam Obren's button game: the reference rules engine (duel and solo).

The seat count decides the mode: two players play the duel, one the solo
puzzle. The Lua mirror, ``lua_templates/games/obren-buttons/rules.lua.j2``,
follows :meth:`ObrenState.check` check for check, so keep their order in step.

Moves (plain JSON, the transcript vocabulary)::

    {"type": "place", "button": "black-3", "cell": "b2"}          # duel only
    {"type": "move", "button": "black-3", "from": "b2", "to": "c4"}
    {"type": "forfeit"}

State data: ``board`` lists the 16 cells in grid order (``a1, b1, ... d4``),
each the button on it or ``""``; ``colors`` the seats' colours (duel);
``last_swap`` the two buttons that swapped on the previous move (sorted, or
empty); ``history`` the positions since the last placement (repetition rule);
``end`` appears when the game is over.
"""

from __future__ import annotations

import json
import random
from functools import lru_cache
from importlib import resources
from typing import Any, ClassVar, Mapping, Sequence

from rules.core import (Game, IllegalMove, JSONDict, Move, MoveSequence, Result, RuleRef, SetupError, State,
                        Verdict)
from rules.moveshape import move_shapes, shape_error
from rules.obren_buttons import board as B

DATA = B.DATA
#: the move shapes (type, exact fields), declared once in moves.schema.json and read by both
#: engines (rules/moveshape.py here, runtime/moveshape.lua.j2 in the Lua rules)
SHAPES: JSONDict = move_shapes(json.loads(resources.files("rules.obren_buttons").joinpath("moves.schema.json")
                                          .read_text("utf-8")))
MOVE_TYPES = tuple(SHAPES["order"])
TEXT_FIELDS = ("button", "cell", "from", "to")
MOVE_FIELDS = {t: tuple(SHAPES["fields"][t]) for t in MOVE_TYPES}
#: deals tried for option deal "solvable" before giving up.
MAX_REDEALS = 5000
#: the smallest deal_bound a solvable four-lines deal is asked for: with a bound of 1 or 2 no
#: random fill of 3,000 (bound 1) or 300 (bound 2) tried was solvable, so redealing for one
#: would fail for every seed; with 3, about one fill in 40 is (measured for issue 23).
FOUR_LINES_MIN_BOUND = 3
_MOVE_FIELD_SETS = {t: frozenset(fields) for t, fields in MOVE_FIELDS.items()}


class ObrenGame(Game):
    id = "obren-buttons"
    name = DATA["name"]
    min_players = 1
    max_players = 2
    chance = True               # the solo bag fill and the duel's starting colour come from the seed
    score_unit = "move"         # a solo score counts the moves it took

    def result_kind_for(self, num_players: int) -> str:
        return "solo" if num_players == 1 else "competitive"
    data: ClassVar[Mapping[str, Any]] = DATA
    options = {k: v["default"] for k, v in DATA["options"].items()}
    option_choices = {k: tuple(v["choices"]) for k, v in DATA["options"].items() if "choices" in v}
    rules = {k: RuleRef(k, v["section"], v["summary"]) for k, v in DATA["rules"].items()}
    max_game_length = max(DATA["options"]["move_cap"]["choices"])

    def resolve_options(self, options: Mapping[str, Any] | None) -> JSONDict:
        for key, value in (options or {}).items():
            if key in self.options and isinstance(value, bool) and not isinstance(self.options[key], bool):
                raise SetupError(f"option {key!r} takes one of {', '.join(map(str, self.option_choices[key]))}, not {value!r}")
        resolved = super().resolve_options(options)
        if resolved["deal"] == "solvable" and resolved["goal"] == "four-lines" \
                and resolved["deal_bound"] < FOUR_LINES_MIN_BOUND:
            # refused up front, for every seed alike: no seed could be dealt (see FOUR_LINES_MIN_BOUND)
            raise SetupError(f"option deal_bound {resolved['deal_bound']}: deal 'solvable' with goal four-lines needs "
                             f"deal_bound {FOUR_LINES_MIN_BOUND} or more (a four-lines deal solved in fewer swaps "
                             "is too rare to redeal for)", field="options")
        return resolved

    def new_state(self, seed: int | None = 0, options: Mapping[str, Any] | None = None,
                  setup: Mapping[str, Any] | None = None, num_players: int | None = None) -> "ObrenState":
        opts = self.resolve_options(options)
        if num_players not in (None, 1, 2):
            raise SetupError(f"{self.id} is for 1 (solo) or 2 players, not {num_players}", field="players")
        if setup is not None:
            if not isinstance(setup, Mapping):
                raise SetupError("the setup must be an object with 'colors' (two players) or 'fill' (solo)",
                                 field="setup")
            solo = "fill" in setup
            if num_players is not None and (num_players == 1) != solo:
                raise SetupError(f"setup is for the {'solo' if solo else 'two-player'} game but there are "
                                 f"{num_players} players")
            return ObrenState.start(opts, _checked_setup(setup, opts))
        rng = random.Random(seed)
        if num_players == 1:
            return ObrenState.start(opts, {"fill": _deal(opts, rng)})
        colors = list(B.COLORS)
        rng.shuffle(colors)
        return ObrenState.start(opts, {"colors": colors})

    def state_from_json(self, data: Mapping[str, Any]) -> "ObrenState":
        return ObrenState(dict(data))

    def lua_context(self) -> JSONDict:
        return {"board": B.lua_board(),
                "buttons": {numbering: {name: [c, v] for name, (c, v) in B.button_names(numbering).items()}
                            for numbering in DATA["values"]},
                "button_colors": {name: color for name, (color, _) in B.ALL_BUTTONS.items()},
                "colors": list(B.COLORS), "text_fields": list(TEXT_FIELDS), "move_shapes": SHAPES, "data": dict(DATA)}

    def heuristic_move(self, obs: JSONDict, moves: list[Move], rng: random.Random) -> Move:
        from rules.obren_buttons.heuristic import choose
        return choose(obs, moves, rng)

    def board_mutants(self, move: Move, state: State, rng: random.Random) -> list[Any]:
        """Board-shaped wrong moves for check-lua and the invariant suite."""
        from rules.obren_buttons.mutants import board_mutants
        assert isinstance(state, ObrenState)
        return board_mutants(move, state, rng)


def _deal(opts: JSONDict, rng: random.Random) -> list[str]:
    """The solo bag fill: all sixteen buttons in the order drawn (a1, b1, ... d4)."""
    names = list(_button_table(opts["numbering"]))
    if opts["deal"] == "random":
        rng.shuffle(names)
        return names
    from rules.obren_buttons.solver import solve
    for _ in range(MAX_REDEALS):  # redeal from the same rng until the solver finds a solution within the bound
        rng.shuffle(names)
        state = ObrenState.start(opts, {"fill": list(names)})
        if solve(state, opts["deal_bound"]).solution is not None:
            return list(names)
    raise SetupError(f"option deal_bound {opts['deal_bound']}: no deal solvable within it in {MAX_REDEALS} redeals")


def _checked_setup(setup: Mapping[str, Any], opts: JSONDict) -> JSONDict:
    names = _button_table(opts["numbering"])  # read only
    if "fill" in setup:
        fill = setup["fill"]
        if not isinstance(fill, list) or not all(isinstance(b, str) for b in fill):
            raise SetupError("setup.fill must be a list of button names")
        unknown = [b for b in fill if b not in names]
        if unknown:
            raise SetupError(f"setup.fill names unknown button {unknown[0]!r} (numbering {opts['numbering']})")
        if sorted(fill) != sorted(names):
            raise SetupError(f"setup.fill must hold each of the {len(names)} buttons once")
        return {"fill": list(fill)}
    colors = setup.get("colors")
    if not isinstance(colors, list) or not all(isinstance(c, str) for c in colors) \
            or sorted(colors) != sorted(B.COLORS):
        raise SetupError(f"setup.colors must give each seat a colour: a permutation of {list(B.COLORS)}, "
                         f"not {colors!r}")
    return {"colors": list(colors)}


GAME = ObrenGame()


_LEGAL = Verdict.legal()


def _v(rule: str, message: str) -> Verdict:
    return GAME.verdict(rule, message)


def _has_line(board: list[str], color: str) -> bool:
    """A line of four ``color`` buttons on ``board``."""
    return _has_line_fast(board, color)


def _color_lines(board: list[str], color: str, lines: tuple[tuple[str, ...], ...]) -> list[tuple[int, ...]]:
    """Value sequences of the given lines that are all ``color``."""
    indexed = _INDEXED_LINES.get(lines)
    if indexed is None:
        indexed = tuple(tuple(B.CELL_INDEX[c] for c in line) for line in lines)
    buttons = B.ALL_BUTTONS
    out = []
    for line in indexed:
        values = []
        for i in line:
            name = board[i]
            if not name:
                break
            c, v = buttons[name]
            if c != color:
                break
            values.append(v)
        else:
            out.append(tuple(values))
    return out


def goal_met(board: list[str], goal: str) -> bool:
    """Solo goal (assumption OB-7): matched lines are both rows or both columns, same values in order."""
    black, white = B.COLORS
    for lines in (B.ROWS, B.COLUMNS):
        bl, wl = _color_lines(board, black, lines), _color_lines(board, white, lines)
        if goal == "two-lines":
            if set(bl) & set(wl):
                return True
        elif len(bl) >= 2 and len(wl) >= 2 and all(x in wl for x in bl) and all(x in bl for x in wl):
            return True
    return False


#: each cell's neighbours (same row or column) as board indexes, by the cell's index
_NEIGHBOUR_INDEXES = tuple(tuple(B.CELL_INDEX[n] for n in B.GRID.neighbours(c)) for c in B.CELLS)
assert all(B.CELL_INDEX[c] == i for i, c in enumerate(B.CELLS))
#: the solo goal's rows and columns as board indexes (goal_met runs at every solo move)
_INDEXED_LINES = {lines: tuple(tuple(B.CELL_INDEX[c] for c in line) for line in lines)
                  for lines in (B.ROWS, B.COLUMNS)}
#: each line of four as board indexes
_LINE_INDEXES = tuple(tuple(B.CELL_INDEX[c] for c in line) for line in B.LINES)


@lru_cache(maxsize=None)
def _button_table(numbering: str) -> dict[str, tuple[str, int]]:
    """B.button_names per numbering, built once (it was rebuilt at every check and enumeration);
    shared: never handed out, :meth:`ObrenState.buttons` copies it."""
    return B.button_names(numbering)


def _has_line_fast(board: list[str], color: str) -> bool:
    """:func:`_has_line` on the board's cell indexes, without a name lookup per cell."""
    return _line_color(board, _LINE_INDEXES, color) == color


#: the lines of four through each cell, by the cell's index
_LINES_THROUGH = tuple(tuple(line for line in _LINE_INDEXES if i in line) for i in range(len(B.CELLS)))
assert all(len(line) == 4 for line in _LINE_INDEXES)
#: each button's colour by name, "" for an empty cell
_COLOR_OF: dict[str, str] = {"": "", **{name: color for name, (color, _) in B.ALL_BUTTONS.items()}}


def _line_color(board: list[str], lines: tuple[tuple[int, ...], ...], first: str) -> str:
    """The colour of a line of four among ``lines``, ``first`` where both colours have one, or ""
    (one pass for both colours). After a move, ``lines`` are those through the cells it changed
    (any other line was as complete before the move, when the game would have ended)."""
    color_of = _COLOR_OF
    found = ""
    for a, b, c, d in lines:
        color = color_of[board[a]]
        if color and color == color_of[board[b]] and color == color_of[board[c]] and color == color_of[board[d]]:
            if color == first:
                return color
            found = color
    return found


def position_key(board: list[str], turn: int) -> str:
    return ",".join(board) + "|" + str(turn)


class ObrenState(State):
    """One position; ``self.s`` is the JSON data itself."""

    game = GAME

    def __init__(self, data: JSONDict):
        self.s = data

    @classmethod
    def start(cls, options: JSONDict, setup: JSONDict) -> "ObrenState":
        solo = "fill" in setup
        st = cls({
            "options": dict(options),
            "setup": dict(setup),
            "mode": "solo" if solo else "duel",
            "board": list(setup["fill"]) if solo else [""] * len(B.CELLS),
            "colors": [] if solo else list(setup["colors"]),
            "turn": 0,
            "moves": 0,
            "last_swap": [],
            "history": [],
        })
        if solo and goal_met(st.s["board"], options["goal"]):
            st.s["end"] = {"reason": "goal", "winner": 0}
        return st

    # -- accessors ------------------------------------------------------
    @property
    def solo(self) -> bool:
        return bool(self.s["mode"] == "solo")

    def buttons(self) -> dict[str, tuple[str, int]]:
        return dict(_button_table(self.s["options"]["numbering"]))

    def where(self, button: str) -> str | None:
        board = self.s["board"]
        return B.CELLS[board.index(button)] if button in board else None

    def at(self, cell: str) -> str:
        return str(self.s["board"][B.CELL_INDEX[cell]])

    def color_of(self, seat: int) -> str | None:
        """The seat's colour (duel); None in the solo game, where every button is the player's."""
        return None if self.solo else str(self.s["colors"][seat])

    def current_player(self) -> int | None:
        return None if "end" in self.s else int(self.s["turn"])

    def is_terminal(self) -> bool:
        return "end" in self.s

    def num_players(self) -> int:
        return 1 if self.solo else 2

    def setup(self) -> JSONDict:
        return dict(self.s["setup"])

    def options(self) -> JSONDict:
        return dict(self.s["options"])

    def to_json(self) -> JSONDict:
        return self.s

    def observation(self, player: int) -> JSONDict:
        """Nothing is hidden; the setup (which seeds nothing further) is left out like other games' decks."""
        return {k: v for k, v in self.s.items() if k != "setup"}

    # -- moves ------------------------------------------------------------
    def legal_moves(self) -> list[Move]:
        if self.is_terminal():
            return []
        supply, cells, steps = self._move_parts()
        out: list[Move] = [{"type": "place", "button": b, "cell": c} for b in supply for c in cells]
        out += [{"type": "move", "button": b, "from": a, "to": z} for b, a, z in steps]
        out.append({"type": "forfeit"})
        return out

    def choice_moves(self) -> Sequence[Move]:
        """:meth:`legal_moves` but forfeit, in order; the placements (buttons x spaces) built only when picked."""
        if self.is_terminal():
            return []
        supply, cells, steps = self._move_parts()
        width = len(cells)

        def place(k: int) -> Move:
            return {"type": "place", "button": supply[k // width], "cell": cells[k % width]}

        def move(k: int) -> Move:
            button, start, end = steps[k]
            return {"type": "move", "button": button, "from": start, "to": end}

        return MoveSequence([(len(supply) * width, place), (len(steps), move)])

    def _move_parts(self) -> tuple[list[str], list[str], list[tuple[str, str, str]]]:
        """The legal moves but forfeit: the buttons and the spaces every placement pairs (duel),
        and the movements as (button, from, to), in :meth:`legal_moves`' order."""
        seat = int(self.s["turn"])
        color = self.color_of(seat)
        board = self.s["board"]
        out: list[tuple[str, str, str]] = []
        supply: list[str] = []
        cells: list[str] = []
        last_swap = self.s["last_swap"]  # only its two buttons can reverse it
        if not self.solo:
            assert color is not None
            supply = [b for b, (c, _) in _button_table(self.s["options"]["numbering"]).items()
                      if c == color and b not in board]
            cells = self._placement_cells(color)
        buttons, all_cells, destinations = B.ALL_BUTTONS, B.CELLS, B.destinations
        for i, name in enumerate(board):
            if not name:
                continue
            walker, value = buttons[name]
            if color is not None and walker != color:
                continue
            start = all_cells[i]
            if name in last_swap:
                out += [(name, start, end) for end in destinations(walker, start, value)
                        if not self._reversal(name, end)]
            else:
                out += [(name, start, end) for end in destinations(walker, start, value)]
        return supply, cells, out

    def _placement_cells(self, color: str) -> list[str]:
        board = self.s["board"]
        empty = [i for i, name in enumerate(board) if not name]
        if len(empty) == len(B.CELLS):
            return list(B.CELLS)
        # an empty cell next to an opponent's button (same row or column); "" is no button
        theirs = {i for i, name in enumerate(board) if name and B.ALL_BUTTONS[name][0] != color}
        return [B.CELLS[i] for i in empty if not theirs.isdisjoint(_NEIGHBOUR_INDEXES[i])]

    def _placeable(self, index: int, color: str) -> bool:
        """Whether the empty cell at ``index`` is among :meth:`_placement_cells` (one cell's test)."""
        board = self.s["board"]
        color_of = _COLOR_OF
        for n in _NEIGHBOUR_INDEXES[index]:
            neighbour = color_of[board[n]]
            if neighbour and neighbour != color:
                return True
        return not any(board)  # the first button goes anywhere

    def _reversal(self, button: str, end: str) -> bool:
        last = self.s["last_swap"]
        if not last:  # no swap on the last turn: nothing to reverse (the common case)
            return False
        other = self.at(end)
        return bool(other) and not self.solo and sorted([button, other]) == last

    def check(self, move: Any) -> Verdict:
        if not isinstance(move, dict) or not isinstance(move.get("type"), str):
            return _v("move-format", str(shape_error(SHAPES, move)))
        st = self.s
        if "end" in st:
            return _v("game-over", "The game is over; no more moves.")
        t = move["type"]
        if t == "pass":
            return _v("no-passing", "Passing is not permitted: place or move a button.")
        why = shape_error(SHAPES, move)
        if why is not None:
            return _v("move-format", why)
        for key in TEXT_FIELDS:
            if key in move and not isinstance(move[key], str):
                return _v("move-format", f"Field '{key}' must be a string.")
        if t == "forfeit":
            return Verdict.legal()
        needed = ("button", "cell") if t == "place" else ("button", "from", "to")
        button = move["button"]
        if button not in _button_table(st["options"]["numbering"]):
            return _v("unknown-button", f"There is no button '{button}' in this game.")
        for key in needed[1:]:
            if move[key] not in B.CELL_INDEX:
                return _v("unknown-cell", f"There is no space '{move[key]}' on the board (a1 to d4).")
        color = None if st["mode"] == "solo" else str(st["colors"][int(st["turn"])])  # color_of, inlined
        if color is not None and B.ALL_BUTTONS[button][0] != color:
            return _v("own-button", f"{button} is your opponent's button; you play {color}.")
        if t == "place":
            return self._check_place(button, move["cell"], color)
        return self._check_move(button, move["from"], move["to"])

    def _check_place(self, button: str, cell: str, color: str | None) -> Verdict:
        if button in self.s["board"]:
            return _v("in-supply", f"{button} is already on the board (on {self.where(button)}).")
        if self.at(cell):
            return _v("empty-space", f"{cell} is taken by {self.at(cell)}.")
        assert color is not None  # the solo board is full: in-supply refused already
        if not self._placeable(B.CELL_INDEX[cell], color):
            return _v("next-to-opponent", f"{cell} is not next to any of your opponent's buttons "
                                          "(same row or column).")
        return Verdict.legal()

    def _check_move(self, button: str, start: str, end: str) -> Verdict:
        here = self.where(button)
        if here is None:
            return _v("on-board", f"{button} is not on the board yet; place it first.")
        if here != start:
            return _v("from-cell", f"{button} is on {here}, not on {start}.")
        color, value = B.button_color(button), B.button_value(button)
        rule = B.refusal(color, start, end, value)
        bridges = f"{value} bridge{'' if value == 1 else 's'}"
        if rule == "no-backtracking":
            if start == end:
                return _v(rule, f"{button} cannot end on {start}, the space it moves from.")
            return _v(rule, f"{button} reaches {end} in exactly {bridges} only by going back over a space.")
        if rule == "no-trespassing":
            return _v(rule, f"{button} reaches {end} in exactly {bridges} only over a bridge of the other colour.")
        if rule == "exact-distance":
            return _v(rule, f"{end} is not exactly {bridges} from {start} for {button}.")
        if self._reversal(button, end):
            return _v("no-reversals", f"{button} and {self.at(end)} swapped places on your opponent's last turn.")
        return Verdict.legal()

    def try_apply(self, move: Any) -> Verdict:
        """:meth:`State.try_apply`: a move :meth:`_surely_legal` passes is made at once; any other
        takes :meth:`check`'s way, which words the refusal."""
        if self._surely_legal(move):
            self.make(move)
            return _LEGAL
        return super().try_apply(move)

    def _surely_legal(self, move: Any) -> bool:
        """True only for a move :meth:`check` passes, judged in one pass over the state (the
        validator judges every move of a transcript): a duel placement or a movement, well
        formed, of the mover's own button. False is no verdict (:meth:`check` gives it)."""
        s = self.s
        if "end" in s or type(move) is not dict:
            return False
        t = move.get("type")
        if (t != "move" and t != "place") or move.keys() != _MOVE_FIELD_SETS[t]:
            return False
        button = move["button"]
        if type(button) is not str or button not in _button_table(s["options"]["numbering"]):
            return False
        board = s["board"]
        solo = s["mode"] == "solo"
        walker, value = B.ALL_BUTTONS[button]
        if not solo and walker != s["colors"][s["turn"]]:
            return False
        if t == "place":  # _check_place's rules; the solo board is full
            cell = move["cell"]
            index = B.CELL_INDEX.get(cell) if type(cell) is str else None
            return not solo and index is not None and not board[index] and button not in board \
                and self._placeable(index, walker)
        start, end = move["from"], move["to"]
        if type(start) is not str or type(end) is not str or start == end:
            return False
        i, j = B.CELL_INDEX.get(start), B.CELL_INDEX.get(end)
        # the button on ``start`` (each button is on the board once), by a simple path (_check_move)
        if i is None or j is None or board[i] != button or B.path(walker, start, end, value) is None:
            return False
        return not self._reversal(button, end)

    def path_for(self, move: Move) -> list[str]:
        """One legal path of ``move`` (start and end included), e.g. for drawing it on the table."""
        verdict = self.check(move)
        if not verdict.ok or move.get("type") != "move":
            raise IllegalMove(verdict if not verdict.ok else _v("move-format", "Only a 'move' has a path."), move)
        button = move["button"]
        found = B.path(B.button_color(button), move["from"], move["to"], B.button_value(button))
        assert found is not None
        return list(found)

    def make(self, move: Move) -> None:
        """Make ``move``, already checked."""
        s = self.s
        seat = int(s["turn"])
        s["moves"] += 1
        t = move["type"]
        if t == "forfeit":
            s["end"] = {"reason": "forfeit", "winner": -1 if self.solo else 1 - seat}
            return
        board = s["board"]
        if t == "place":
            j = B.CELL_INDEX[move["cell"]]
            board[j] = move["button"]
            s["last_swap"] = []
            s["history"] = []
            lines = _LINES_THROUGH[j]
        else:
            i, j = B.CELL_INDEX[move["from"]], B.CELL_INDEX[move["to"]]
            other = board[j]
            board[i], board[j] = other, move["button"]
            s["last_swap"] = sorted([move["button"], other]) if other else []
            lines = _LINES_THROUGH[i] + _LINES_THROUGH[j]
        if s["mode"] == "solo":
            if goal_met(board, s["options"]["goal"]):
                s["end"] = {"reason": "goal", "winner": 0}
            elif s["moves"] >= s["options"]["move_cap"]:
                s["end"] = {"reason": "move-cap", "winner": -1}
            return
        mine = s["colors"][seat]
        s["turn"] = 1 - seat
        line = _line_color(board, lines, mine)  # the mover's line first
        if line:
            s["end"] = {"reason": "line-of-four", "winner": seat if line == mine else 1 - seat}
        elif s["moves"] >= s["options"]["move_cap"]:
            s["end"] = {"reason": "move-cap", "winner": -1}
        else:
            key = position_key(board, s["turn"])
            s["history"].append(key)
            limit = s["options"]["repetition"]
            if limit and s["history"].count(key) >= limit:
                s["end"] = {"reason": "repetition", "winner": -1}

    # -- end ------------------------------------------------------------
    def result(self) -> Result | None:
        end = self.s.get("end")
        if end is None:
            return None
        moves = int(self.s["moves"])
        unit = self.game.score_unit
        forfeit = end["reason"] == "forfeit"
        if self.solo:
            # the score of a solo game is the number of swaps it took (fewer is better)
            detail: JSONDict = {"goal": self.s["options"]["goal"]}
            if forfeit:
                detail["forfeited_by"] = 0
            return Result.solo(end["reason"] == "goal", end["reason"], score=moves, detail=detail, unit=unit)
        detail = {"moves": moves}
        if forfeit:  # the seat that conceded: the winner's opponent
            detail["forfeited_by"] = 1 - int(end["winner"])
        if end["winner"] < 0:
            return Result.draw(None, end["reason"], detail, unit=unit)
        return Result.win(int(end["winner"]), None, end["reason"], detail, unit=unit)

    def table_view(self) -> JSONDict:
        """The organiser's table: every button on its cell of the board (nothing is hidden)."""
        cells = {B.CELLS[i]: {"piece": name, "face": 0} for i, name in enumerate(self.s["board"]) if name}
        seats = [f"{color} buttons" if color else "" for color in self.s["colors"]]
        return {"zones": [], "boards": [{"name": "board", "cells": cells}], "scores": None, "seats": seats,
                "turn": self.current_player(), "lines": [f"Moves made: {self.s['moves']}"]}

    def describe_move(self, move: Move) -> str:
        t = move.get("type")
        if t == "place":
            return f"place {move['button']} on {move['cell']}"
        if t == "move":
            other = self.at(move["to"]) if move.get("to") in B.CELL_INDEX else ""
            tail = f", swapping with {other}" if other and other != move.get("button") else ""
            return f"move {move['button']} from {move['from']} to {move['to']}{tail}"
        return str(t)
