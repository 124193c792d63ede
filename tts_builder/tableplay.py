"""Engine moves played as table events: a small vocabulary of what a player does at the table
(:class:`Drop`, :class:`Click`, :class:`PickOption`, :class:`Flip`, :class:`Wait`) and
:class:`TablePlayer`, which lays any built save out at the stand-in table
(:class:`tts_builder.testing.FakeTTS`) and runs the actions there.

A game says how one of its moves becomes actions with the optional hook ``table_actions(state,
move)`` (``Game.table_actions`` in :mod:`rules.core`; docs/authoring.md, "Python hooks"): a method
of its Game, or a function of that name in its package's ``tableplay.py``. This module knows no
game: objects are found by their component id (the save's ``GMNotes``) or GUID, places by a
board's cell (the layout's grid), a zone's role (its ``Nickname``) or a seat's hand.
"""

from __future__ import annotations

import importlib
import json
from dataclasses import dataclass
from typing import Any, Callable, Sequence, Union

from rules.core import Game, Move, State, hook
from tts_builder.testing import FakeObject, FakeTTS

__all__ = ["Action", "Cell", "Click", "Drop", "Flip", "Hand", "Piece", "PickOption", "Spot", "TablePlayer",
           "Target", "Wait", "Zone", "table_actions_of", "table_options_of"]


# -- what is moved ------------------------------------------------------------------------------
@dataclass(frozen=True)
class Piece:
    """A component on the table: by ``guid`` when given, else by its id (the save's GMNotes).
    ``prefix``: any free piece whose id starts with ``id`` (a loose, unlocked one first, in id
    order, else one still in its bag), for a move that names a kind of piece, not which one."""

    id: str
    guid: str | None = None
    prefix: bool = False


# -- where to --------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Cell:
    """A cell of a board of the game's table.json (its grid's cell id)."""

    board: str
    cell: str


@dataclass(frozen=True)
class Zone:
    """A scripting zone by its role (the zone's Nickname in the save)."""

    role: str


@dataclass(frozen=True)
class Hand:
    """The hand zone of a seat (``None``: the acting seat's own)."""

    seat: int | None = None


@dataclass(frozen=True)
class Spot:
    """A point on the table (world x, z)."""

    x: float
    z: float


Target = Union[Cell, Zone, Hand, Spot]


# -- what a player does -----------------------------------------------------------------------------
@dataclass(frozen=True)
class Drop:
    """Pick ``what`` up (out of its bag or deck first), turn it to ``rotation_y`` if given (a
    turn relative to the seat's upright, ``turn``, is added to the piece's own), and drop it on
    ``onto``. ``seat``: who does it (None: the move's player)."""

    what: Piece
    onto: Target
    rotation_y: float | None = None
    seat: int | None = None
    #: the drop means the move only from the mover's chair (onto their own ark, say): the same
    #: drop from another chair is another act, not this move out of turn
    mover_only: bool = False


@dataclass(frozen=True)
class Click:
    """Click the panel button whose callback is ``fn`` (``element`` its id, ``value`` what
    TTS passes), then let ``seconds`` pass. ``until``: a toggle, clicked (up to four times) until
    a message to the player, or the panel, reads ``until``."""

    fn: str
    element: str | None = None
    value: str = "-1"
    seconds: float = 1.0
    seat: int | None = None
    until: str | None = None


@dataclass(frozen=True)
class PickOption:
    """Click, among the shown panel elements whose id starts with ``prefix``, the one whose text
    contains every string of ``text`` (a choice read off the panel as a player reads it)."""

    fn: str
    prefix: str
    text: tuple[str, ...]
    seat: int | None = None


@dataclass(frozen=True)
class Flip:
    """Turn ``what`` over (the player's flip: the mod may veto it)."""

    what: Piece
    seat: int | None = None


@dataclass(frozen=True)
class Wait:
    seconds: float


Action = Union[Drop, Click, PickOption, Flip, Wait]


def table_actions_of(game: Game) -> Callable[[State, Move], Sequence[Action] | None] | None:
    """The game's ``table_actions`` hook: its Game's method, else ``table_actions`` in its
    package's ``tableplay`` module; None when it has neither."""
    found = hook(game, "table_actions")
    if found is not None:
        return found
    fn: Callable[[State, Move], Sequence[Action] | None] | None = getattr(_tableplay_module(game), "table_actions", None)
    return fn


def _tableplay_module(game: Game) -> Any:
    package = type(game).__module__.rsplit(".", 1)[0]
    try:
        return importlib.import_module(f"{package}.tableplay")
    except ModuleNotFoundError as exc:
        if exc.name != f"{package}.tableplay":
            raise
        return None


def table_options_of(game: Game) -> Callable[[dict[str, Any], int], Sequence[Action] | None] | None:
    """The game's ``table_options(options, seats)`` (in its ``tableplay.py``, beside
    ``table_actions``): the panel clicks, before New game, that choose ``options`` (a dict of the
    options that differ from the defaults) for a game of ``seats``; None where the table cannot
    choose them. None when the game has no such function (its table plays the defaults)."""
    module = _tableplay_module(game)
    fn: Callable[[dict[str, Any], int], Sequence[Action] | None] | None = getattr(module, "table_options", None)
    return fn


@dataclass
class Outcome:
    """What one action did: the object moved (for a drop), where it was before, the messages."""

    obj: FakeObject | None
    before: tuple[float, float, float] | None
    held_by: str | None
    messages: list[Any]


class TablePlayer:
    """A built save at the stand-in table: its objects, XmlUI and Global script loaded into a
    :class:`FakeTTS` with ``seated`` colours; runs :data:`Action` lists as players would."""

    def __init__(self, save: dict[str, Any], layout: Any, seated: Sequence[str], *, container_frames: int = 1,
                 travel_seed: int = 0, settle_seconds: float = 0.5) -> None:
        self.save = save
        self.layout = layout
        self.fake = FakeTTS(seated=tuple(seated), container_frames=container_frames, travel_seed=travel_seed)
        self.fake.ui.setXml(save["XmlUI"])
        self.objects = self.fake.load_save(save)
        self.settle_seconds = settle_seconds
        self.watch: Callable[[], None] | None = None
        """Called after each drop or flip lands (before the mod's answer settles) and after each
        action: what the table shows at that moment (a card played face up, then won face down)."""
        self.fake.load_global(save["LuaScript"])

    # -- reading ------------------------------------------------------------------------------
    def transcript(self) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(self.fake.sandbox.call("onSave"))["transcript"]
        return data

    def colors(self) -> list[str]:
        """Each seat's colour, as the mod's transcript names its players."""
        return [str(p.get("color") or p.get("name")) for p in self.transcript().get("players", [])]

    def find(self, piece: Piece) -> FakeObject:
        """The object of ``piece``; KeyError naming it when the table has none."""
        if piece.guid is not None:
            obj = self.fake.get_object(piece.guid)
            if obj is not None and not obj.destroyed:
                return obj
        def named(o: FakeObject) -> bool:
            notes = o.getGMNotes()
            return notes.startswith(piece.id) if piece.prefix else notes == piece.id

        found = [o for o in self.objects.values() if named(o) and not o.destroyed]
        found += [o for o in self.fake.scene() if named(o) and o not in found and not o.destroyed]
        if not found:
            raise KeyError(f"no object on the table is {piece.id!r}")
        if piece.prefix:
            found.sort(key=lambda o: (len(o.getGMNotes()), o.getGMNotes()))
            loose = [o for o in found if o.container is None and not o.getLock() and not self._on_board(o)]
        else:
            loose = [o for o in found if o.container is None]
        return (loose or [o for o in found if o.container is not None] or found)[0]

    def _on_board(self, obj: FakeObject) -> bool:
        """Whether ``obj`` lies on a cell of one of the layout's boards."""
        x, _, z = obj.position
        for board in self.layout.boards:
            lx, lz = board.to_local(x, z)
            if board.grid.cell_at(lx, lz) is not None:
                return True
        return False

    def position(self, target: Target, color: str, colors: Sequence[str]) -> tuple[float, float, float]:
        if isinstance(target, Cell):
            board = next((b for b in self.layout.boards if b.name == target.board), None)
            if board is None:
                raise KeyError(f"no board {target.board!r}")
            x, z = board.cell_world(target.cell)
            return (x, 2.0, z)
        if isinstance(target, Zone):
            zone = next((o for o in self.fake.scene() if o.type == "Scripting" and o.getName() == target.role), None)
            if zone is None:
                raise KeyError(f"no zone {target.role!r}")
            return zone.position
        if isinstance(target, Hand):
            owner = color if target.seat is None else colors[target.seat]
            hand = self.fake.hand_zone(owner, create=False)
            if hand is None:
                raise KeyError(f"{owner} has no hand zone")
            return hand.position
        return (target.x, 2.0, target.z)

    # -- acting -------------------------------------------------------------------------------
    def _watch(self) -> None:
        if self.watch is not None:
            self.watch()

    def wait(self, seconds: float) -> None:
        self.fake.wait(seconds)

    def run(self, actions: Sequence[Action], seat: int | None, colors: Sequence[str] | None = None,
            as_color: str | None = None) -> list[Outcome]:
        """Run ``actions`` for ``seat`` (``as_color`` plays them from another chair instead)."""
        colors = list(colors) if colors is not None else self.colors()
        out = []
        for action in actions:
            who = getattr(action, "seat", None)
            color = as_color or colors[who if who is not None else (seat if seat is not None else 0)]
            out.append(self.do(action, color, colors))
        return out

    def do(self, action: Action, color: str, colors: Sequence[str]) -> Outcome:
        start = len(self.fake.messages)
        obj, before, held = None, None, None
        if isinstance(action, Drop):
            obj = self.find(action.what)
            held = self.fake.held_in_hand(obj)
            if obj.container is not None:
                obj = self.fake.take_from(obj.container, guid=obj.getGUID())
            else:
                before = obj.position
            self.fake.drop_at(obj, color, self.position(action.onto, color, colors), action.rotation_y,
                              landed=self._watch)
            self._watch()
            self.wait(self.settle_seconds)
        elif isinstance(action, Click):
            for _ in range(4 if action.until else 1):
                mark = len(self.fake.messages)
                self.fake.click_ui(action.fn, color, action.value, action.element)
                self.wait(action.seconds)
                if action.until is None or any(action.until in m.text for m in self.fake.messages[mark:]
                                               if m.color in (None, color)) \
                        or any(action.until in v for k, v in self.fake.ui.values.items() if self.fake.ui.active(k)):
                    break
            else:
                raise KeyError(f"{action.fn} never told {color} {action.until!r}")
        elif isinstance(action, PickOption):
            ui = self.fake.ui
            ids = sorted((k for k in ui.values if k.startswith(action.prefix) and ui.active(k)
                          and all(t in ui.values[k] for t in action.text)), key=lambda k: (len(k), k))
            if not ids:
                raise KeyError(f"no shown {action.prefix}* option reads {' '.join(action.text)!r}")
            self.fake.click_ui(action.fn, color, "-1", ids[0])
            self.wait(0.2)
        elif isinstance(action, Flip):
            obj = self.find(action.what)
            before = obj.position
            self.fake.flip(obj, color)
            self.wait(self.settle_seconds)
        else:
            self.wait(action.seconds)
        self._watch()
        return Outcome(obj, before, held, self.fake.messages[start:])
