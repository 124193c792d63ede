"""The TTS save as data: table layout + art manifest + scripts in, save dict out.

Everything here is pure (no files, no clock, no randomness; the one input from the
environment is ``$SOURCE_DATE_EPOCH``, read by :func:`save_epoch`), so the same inputs
give the same dict, and :func:`tts_builder.fileio.dump_json` (sorted keys) turns it
into the same bytes. The build command (:mod:`tts_builder.build`) does the I/O.

Three steps, each usable on its own:

1. :func:`parse_table_layout` checks ``art_src/<game>/table.json`` (the table as
   data: seats, zones, decks, mat, notebook) into a :class:`TableLayout`;
2. :func:`plan_table` places the art manifest's cards on that layout and gives
   every object a stable GUID (:class:`TablePlan`); :func:`table_context` is the
   part of the plan the Lua templates see;
3. :func:`build_save` writes the ``SaveState`` dict.

The builder knows nothing game-specific: names, labels and positions all come
from the layout, card rows from the art source's component rows (the rows the cards were drawn from).

The layout's optional kit sections (see ``tests/test_kit.py`` for a complete table):

* ``boards``: ``{"name", "grid": {...} | "<key of the game's data>", "center", "rotation_y", "size",
  "margin", "cells": {"by", "colors", "default"}, "edges": {"by", "colors", "default", "width"},
  "labels", "label_position": center|corner, "snap_rotation_y"}``: a :mod:`rules.grid` grid drawn into ``board-<name>.png``, laid as a
  locked ``Custom_Tile``, with a snap point (with rotation) on every cell;
* ``pieces``: ``{"id", "name", "kind": token|tile|figurine, "shape", "size", "faces": [1 or 2
  {"label", "color", "text_color"}], and "position" or "board"+"cell"}`` (or listed by a bag);
  ``"count": N`` makes N objects ``<id>-1`` .. ``<id>-N`` from one image: a pile at "position",
  or a bag of N when a bag lists ``<id>``; ``"hide_face_down": true`` marks a two-faced piece whose
  face is hidden information (empty ``GMNotes``, the Lua knows it by GUID; its front image is named
  by its look, not its id: :meth:`PieceSpec.image`);
* ``bags``: ``{"name", "label", "position", "color", "contents": [piece ids]}`` (a ``Bag``);
* ``stacks``: ``{"name", "count", "shape", "size", "faces", "position"}`` (a ``Custom_Tile_Stack``);
* a zone may be ``{"role", "board", "cells": [...]}``: its box covers those cells;
* a deck may carry ``"card": {"type", "size"}``, its own card shape;
* a deck may carry ``"copy": k`` (default 1): one art deck may be placed several times, each
  placement a different copy, each its own deck object. Copy 1's cards keep the art's card ids;
  copy k's physical ids (GMNotes, GUID names) are ``<id>#<k>`` (:func:`copy_card_id`). The Lua
  ``table`` context tells them apart: ``cards[<physical id>]`` carries ``id`` (the art's card id)
  and ``copy``; ``card_copies[<id>]`` lists the physical ids copy by copy; ``deck_copies`` gives
  each deck's copy.

What TTS-version-dependent fields hold (issue 8): hands are ``HandTrigger`` objects, snap
points carry ``Rotation``, ``VersionNumber`` is :data:`TTS_VERSION`, ``Date``/``EpochTime`` come
from :func:`save_epoch` (``$SOURCE_DATE_EPOCH`` or a fixed date, never the clock), ``Tags`` are
``metadata.tags`` checked against :data:`TTS_TAGS`, and the play mat's ``Memo`` records the
tool and its version (:func:`built_by` reads it back).
"""

from __future__ import annotations

import dataclasses
import datetime
import functools
import hashlib
import json
import math
import os
import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import jinja2

from rules.grid import Grid, GridError, cube_round, grid_from_data
from tts_builder.art import ArtManifest
from tts_builder.errors import InputError
from tts_builder.guids import GuidAllocator
from tts_builder.tablesize import tile_scale

LAYOUT_FILE = "table.json"
MAT_IMAGE = "table-mat.png"

#: The TTS version whose save format the builder writes (``VersionNumber``): the newest
#: version among the real saves in ``shared/fixtures/tts_saves_wild`` (v14.2.1, 2026).
TTS_VERSION = "v14.2.1"
#: ``Date``/``EpochTime`` of a build: ``$SOURCE_DATE_EPOCH`` when set (the reproducible-builds
#: convention), else this fixed instant (2026-01-01 00:00:00 UTC), never the clock.
DEFAULT_SAVE_EPOCH = 1767225600
#: Where a save records the tool that built it: the play mat's ``Memo`` (TTS keeps an
#: object's memo through a save and load; players never see it), as JSON text.
TOOL_NAME = "tts-builder"

#: Workshop tags as TTS and its Workshop spell them (every one observed in real saves:
#: shared/fixtures and public v13/v14 saves). ``metadata.tags`` in table.json must use these.
TTS_TAGS = frozenset({
    "Board Games", "Card Games", "Dice Games", "Puzzle Games", "Strategy Games", "Party Games", "Wargames",
    "Cooperative Games", "Thematic Games", "Original Games", "Mature Games", "Educational",
    "Scripting", "Scripting: Automated", "Work In Progress", "Cards", "Components", "Rules", "English",
})

#: TTS player colours as TTS writes them in ``TabStates.visibleColor`` (observed).
PLAYER_COLORS: Mapping[str, tuple[float, float, float]] = {
    "White": (1.0, 1.0, 1.0), "Brown": (0.443, 0.231, 0.09), "Red": (0.856, 0.1, 0.094),
    "Orange": (0.956, 0.392, 0.113), "Yellow": (0.905, 0.898, 0.172), "Green": (0.192, 0.701, 0.168),
    "Teal": (0.129, 0.694, 0.607), "Blue": (0.118, 0.53, 1.0), "Purple": (0.627, 0.125, 0.941),
    "Pink": (0.96, 0.439, 0.807), "Grey": (0.5, 0.5, 0.5), "Black": (0.25, 0.25, 0.25),
}

_ROLE_RE = re.compile(r"^[a-z0-9][a-z0-9_-]*$")
_HEX_COLOR_RE = re.compile(r"^#[0-9a-fA-F]{6}$")


@functools.cache
def _jinja() -> jinja2.Environment:
    """Card names and descriptions are small Jinja2 templates in the layout."""
    return jinja2.Environment(undefined=jinja2.StrictUndefined, autoescape=False)


Vec2 = tuple[float, float]
Vec3 = tuple[float, float, float]
Rect = tuple[float, float, float, float]  # x_min, z_min, x_max, z_max


# --------------------------------------------------------------------------- the layout


@dataclass(frozen=True)
class Seat:
    seat: int
    color: str
    hand_position: Vec3
    hand_rotation_y: float
    hand_scale: Vec3


@dataclass(frozen=True)
class Zone:
    """A scripting zone (and its drawing on the mat). ``snaps`` are offsets in the
    frame of the seat the zone faces: ``facing`` 1 turns them (and the label) 180 degrees.
    ``snap_rotation`` false makes its snap points snap position only: a card dropped there keeps
    the turn the player gave it (a zone where the way a card lies is the player's choice)."""

    role: str
    label: str
    hint: str
    center: Vec2
    size: Vec2
    snaps: tuple[Vec2, ...]
    seat: int | None = None
    facing: int = 0
    label_width: float | None = None
    snap_rotation: bool = True

    @property
    def rect(self) -> Rect:
        (x, z), (w, d) = self.center, self.size
        return (x - w / 2, z - d / 2, x + w / 2, z + d / 2)

    def snap_positions(self) -> list[Vec2]:
        sign = -1.0 if self.facing % 2 else 1.0
        return [(self.center[0] + sign * dx, self.center[1] + sign * dz) for dx, dz in self.snaps]


@dataclass(frozen=True)
class DeckPlacement:
    """Where the cards of one art deck start: stacked as a deck on a zone, or
    ``spread`` one card per position (e.g. reference cards)."""

    name: str
    art: str
    zone: str | None
    spread: tuple[Vec2, ...]
    scale: float
    face_down: bool
    locked: bool
    card_type: int | None = None     # TTS card shape for this deck (else the layout's card.type)
    card_size: Vec2 | None = None    # this deck's card size (else card.size)
    copy: int = 1                    # which copy of its art deck this placement is (1, 2, ...)

    def object_scale(self, card: CardSpec) -> float:
        """The cards' uniform x/z scale: ``scale``, times this deck's width over the layout's
        card width (TTS sizes a custom card by scale; its aspect follows the sheet cell)."""
        return self.scale * (self.card_size[0] / card.size[0] if self.card_size else 1.0)

    def footprint(self, card: CardSpec) -> Vec2:
        """World width and depth of one card of this deck as laid out."""
        w, h = self.card_size or card.size
        return (w * self.scale, h * self.scale)


@dataclass(frozen=True)
class Panel:
    rect: Rect
    title: str
    text: str
    text_position: str  # "top" (under the title) | "bottom"
    box: bool
    facing: int = 0  # 1: drawn upside down, for the players at the far edge


@dataclass(frozen=True)
class MatSpec:
    name: str
    rect: Rect
    pixels_per_unit: int
    thickness: float
    rotation_y: float
    colors: Mapping[str, str]
    panels: tuple[Panel, ...]

    @property
    def center(self) -> Vec2:
        return ((self.rect[0] + self.rect[2]) / 2, (self.rect[1] + self.rect[3]) / 2)

    @property
    def size(self) -> Vec2:
        return (self.rect[2] - self.rect[0], self.rect[3] - self.rect[1])


@dataclass(frozen=True)
class CardSpec:
    size: Vec2
    rotation_y: float
    type: int
    nickname: str     # Jinja2 template
    description: str  # Jinja2 template


@dataclass(frozen=True)
class NotebookTab:
    id: str
    title: str
    color: str


@dataclass(frozen=True)
class ColorRule:
    """Colour by a data attribute: ``colors[attrs[attribute]]``, else ``default``."""

    attribute: str
    colors: Mapping[str, str]
    default: str

    def color_of(self, attrs: Mapping[str, Any]) -> str:
        value = attrs.get(self.attribute)
        return self.colors.get(str(value), self.default) if value is not None else self.default


@dataclass(frozen=True)
class BoardSpec:
    """A board: a :class:`rules.grid.Grid` drawn into an image, laid on the table as a locked
    ``Custom_Tile`` with a snap point on every cell.

    ``center``/``rotation_y``/``size`` place it in the world; the grid's extent (plus
    ``margin`` board units around it) is scaled uniformly to fit ``size``. ``rotation_y``
    turns board-local +z (the top row) away from world +z, clockwise seen from above,
    as TTS turns objects."""

    name: str
    label: str
    grid: Grid
    center: Vec2
    rotation_y: float
    size: Vec2
    margin: float
    thickness: float
    pixels_per_unit: int
    background: str
    cells: ColorRule
    edges: ColorRule | None  # None: edges are not drawn (no "edges" entry)
    edge_width: float
    labels: bool
    snap_rotation_y: float
    label_corner: bool = False  # cell ids in the cell's top-left corner (pieces on the cell leave them readable)

    @property
    def image(self) -> str:
        return f"board-{self.name}.png"

    @property
    def scale(self) -> float:
        """World units per board-local unit."""
        x0, z0, x1, z1 = self.grid.extent()
        w, d = x1 - x0 + 2 * self.margin, z1 - z0 + 2 * self.margin
        return min(self.size[0] / w, self.size[1] / d)

    def to_world(self, x: float, z: float) -> Vec2:
        """Board-local (x, z) -> world (x, z)."""
        s, t = self.scale, math.radians(self.rotation_y)
        lx, lz = x * s, z * s
        return (self.center[0] + lx * math.cos(t) + lz * math.sin(t),
                self.center[1] - lx * math.sin(t) + lz * math.cos(t))

    def to_local(self, wx: float, wz: float) -> Vec2:
        """World (x, z) -> board-local (x, z): :meth:`to_world` undone."""
        s, t = self.scale, math.radians(self.rotation_y)
        dx, dz = wx - self.center[0], wz - self.center[1]
        return ((dx * math.cos(t) - dz * math.sin(t)) / s, (dx * math.sin(t) + dz * math.cos(t)) / s)

    def cell_world(self, cell_id: str) -> Vec2:
        cx, cz = self.grid.cell(cell_id).center
        return self.to_world(cx, cz)


@dataclass(frozen=True)
class Face:
    label: str
    color: str
    text_color: str


#: piece shape -> CustomTile.Type (0 box, 1 hex, 2 circle, 3 rounded)
TILE_TYPES: Mapping[str, int] = {"square": 0, "hex": 1, "circle": 2, "rounded": 3}
PIECE_KINDS = ("token", "tile", "figurine")
#: the card size (world units) of a table that names none: a poker card's 2.5 x 3.5 in proportion
DEFAULT_CARD_SIZE = (2.2, 3.1)
#: the most copies one piece entry may make (``"count"``): a bag of 200 stays a save TTS loads quickly
MAX_PIECE_COUNT = 200


@dataclass(frozen=True)
class PieceSpec:
    """A named piece with a GMNotes id, as cards have. ``kind`` picks the TTS object:
    a one-faced ``token`` is a ``Custom_Token`` (cut out of its image), a two-faced one
    a ``Custom_Tile`` of its shape (TTS tokens have one image), a ``tile`` a ``Custom_Tile``,
    a ``figurine`` a standing ``Figurine_Custom``. It starts at ``position``, on ``cell``
    (board, cell id) of a board, or inside a bag that lists it."""

    id: str
    name: str
    description: str
    kind: str
    shape: str
    size: float
    faces: tuple[Face, ...]
    position: Vec2 | None
    cell: tuple[str, str] | None
    #: a piece given with ``"count": N`` is N objects ``<id>-1`` .. ``<id>-N`` drawn from one image
    #: (that of ``<id>``); ``level`` stacks the copies laid at one position (0 lowest)
    image_id: str = ""
    level: int = 0
    #: ``hide_face_down``: its face is hidden information while it lies face down. Its ``GMNotes``
    #: stay empty (the API: GM notes are visible to the Black (GM) seat; the Lua knows the piece
    #: by GUID, ``table.pieces[id].guid``) and its front image is named by its look, not its id
    #: (the image URLs of a face-down tile are readable in its Custom menu).
    hidden: bool = False

    @property
    def tts_name(self) -> str:
        """The TTS object it becomes: ``Figurine_Custom`` for a figurine, ``Custom_Token`` for a
        one-faced token (cut out of its image), else ``Custom_Tile``."""
        if self.kind == "figurine":
            return "Figurine_Custom"
        return "Custom_Token" if self.kind == "token" and len(self.faces) == 1 else "Custom_Tile"

    @property
    def gm_notes(self) -> str:
        """What the save's ``GMNotes`` hold: the piece's id, or nothing for a hidden piece."""
        return "" if self.hidden else self.id

    def image(self, side: int) -> str:
        """The face's image file. A back is named by its look (shape, label, colours), not by the
        piece: identical backs share one file and one URL, so a face-down piece's image URL
        names nothing it hides (80 Two by Two animal backs were 80 names holding the species).
        A hidden piece's front is named by its look's digest too (``piece-face-<digest>.png``):
        publishing names an image by the words its file names share (build.shared_name), and
        ``piece-doves-1-front.png`` .. ``-6-`` published as ``piece-doves-front-<hash>.png``."""
        face = self.faces[side]
        look = json.dumps([self.shape, face.label, face.color, face.text_color])
        digest = hashlib.sha256(look.encode('utf-8')).hexdigest()[:12]
        if side == 0:
            return f"piece-face-{digest}.png" if self.hidden else f"piece-{self.image_id or self.id}-front.png"
        return f"piece-back-{digest}.png"


@dataclass(frozen=True)
class BagSpec:
    name: str
    label: str
    position: Vec2
    color: str
    contents: tuple[str, ...]  # piece ids, top first


@dataclass(frozen=True)
class StackSpec:
    """``count`` identical, anonymous stackable tiles (``Custom_Tile_Stack``)."""

    name: str
    label: str
    position: Vec2
    count: int
    shape: str
    size: float
    faces: tuple[Face, ...]

    def image(self, side: int) -> str:
        return f"stack-{self.name}-{'front' if side == 0 else 'back'}.png"


@dataclass(frozen=True)
class TableLayout:
    game_id: str
    origin: str
    metadata: Mapping[str, Any]
    surface_y: float
    card: CardSpec
    seats: tuple[Seat, ...]
    zone_height: float
    zones: tuple[Zone, ...]
    decks: tuple[DeckPlacement, ...]
    mat: MatSpec
    notebook_template: str
    notebook_tabs: tuple[NotebookTab, ...]
    seat_tabs: bool
    boards: tuple[BoardSpec, ...] = ()
    pieces: tuple[PieceSpec, ...] = ()
    bags: tuple[BagSpec, ...] = ()
    stacks: tuple[StackSpec, ...] = ()
    zone_cells: Mapping[str, tuple[str, tuple[str, ...]]] = field(default_factory=dict)  # role -> (board, cells)

    def board(self, name: str) -> BoardSpec:
        for b in self.boards:
            if b.name == name:
                return b
        raise KeyError(name)

    def zone(self, role: str) -> Zone:
        for z in self.zones:
            if z.role == role:
                return z
        raise KeyError(role)

    @property
    def snap_y(self) -> float:
        return self.surface_y + self.mat.thickness


class _Reader:
    """Typed access to the layout JSON; every error names the file and the field."""

    def __init__(self, origin: str) -> None:
        self.origin = origin

    def fail(self, where: str, message: str) -> InputError:
        return InputError(f"{self.origin}: {where}: {message}")

    def mapping(self, value: Any, where: str) -> Mapping[str, Any]:
        if not isinstance(value, Mapping):
            raise self.fail(where, "expected an object")
        return value

    def items(self, value: Any, where: str) -> Sequence[Any]:
        if not isinstance(value, list):
            raise self.fail(where, "expected a list")
        return value

    def number(self, value: Any, where: str, *, positive: bool = False) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
            raise self.fail(where, f"expected a number, not {value!r}")
        if positive and value <= 0:
            raise self.fail(where, f"must be positive, not {value!r}")
        return float(value)

    def integer(self, value: Any, where: str) -> int:
        if isinstance(value, bool) or not isinstance(value, int):
            raise self.fail(where, f"expected an integer, not {value!r}")
        return value

    def text(self, value: Any, where: str, *, empty: bool = True) -> str:
        if not isinstance(value, str) or (not empty and not value):
            raise self.fail(where, f"expected {'a' if empty else 'a non-empty'} string, not {value!r}")
        return value

    def flag(self, value: Any, where: str) -> bool:
        if not isinstance(value, bool):
            raise self.fail(where, f"expected true or false, not {value!r}")
        return value

    def vec(self, value: Any, where: str, n: int, *, positive: bool = False) -> tuple[float, ...]:
        items = self.items(value, where)
        if len(items) != n:
            raise self.fail(where, f"expected {n} numbers, not {len(items)}")
        return tuple(self.number(v, f"{where}[{i}]", positive=positive) for i, v in enumerate(items))

    def vec2(self, value: Any, where: str, *, positive: bool = False) -> Vec2:
        x, z = self.vec(value, where, 2, positive=positive)
        return (x, z)

    def vec3(self, value: Any, where: str, *, positive: bool = False) -> Vec3:
        x, y, z = self.vec(value, where, 3, positive=positive)
        return (x, y, z)

    def rect(self, value: Any, where: str) -> Rect:
        x0, z0, x1, z1 = self.vec(value, where, 4)
        if x1 <= x0 or z1 <= z0:
            raise self.fail(where, "expected [x_min, z_min, x_max, z_max] with max > min")
        return (x0, z0, x1, z1)

    def template(self, value: Any, where: str) -> str:
        text = self.text(value, where)
        try:
            _jinja().parse(text)
        except jinja2.TemplateSyntaxError as exc:
            raise self.fail(where, f"template error: {exc.message}") from None
        return text


def parse_table_layout(data: Any, *, game_id: str, origin: str = LAYOUT_FILE,
                       game_data: Mapping[str, Any] | None = None) -> TableLayout:
    """Check a parsed ``table.json`` and return the layout; :class:`InputError` names the field.

    ``game_data`` (the game's data file) is where a board's ``"grid": "<key>"`` is read from."""
    r = _Reader(origin)
    top = r.mapping(data, "root")
    if top.get("format") != 1:
        raise r.fail("format", f"expected 1, not {top.get('format')!r}")
    metadata = dict(r.mapping(top.get("metadata", {}), "metadata"))
    for key in ("game_mode", "game_type", "game_complexity", "table", "sky", "note"):
        if key in metadata:
            r.text(metadata[key], f"metadata.{key}")
    for key in ("gravity", "play_area"):
        if key in metadata:
            r.number(metadata[key], f"metadata.{key}")
    for i, tag in enumerate(r.items(metadata.get("tags", []), "metadata.tags")):
        if r.text(tag, f"metadata.tags[{i}]") not in TTS_TAGS:
            raise r.fail(f"metadata.tags[{i}]", f"{tag!r} is not a TTS Workshop tag ({', '.join(sorted(TTS_TAGS))})")

    # a game without cards may leave out "card" (and "decks"): the card shape then only sizes nothing
    card = r.mapping(top.get("card", {"size": list(DEFAULT_CARD_SIZE)}), "card")
    card_type = r.integer(card.get("type", 0), "card.type")
    if not 0 <= card_type <= 4:
        raise r.fail("card.type", f"expected 0-4 (TTS card shapes), not {card_type}")
    card_spec = CardSpec(size=r.vec2(card.get("size"), "card.size", positive=True),
                         rotation_y=r.number(card.get("rotation_y", 180), "card.rotation_y"), type=card_type,
                         nickname=r.template(card.get("nickname", "{{ id }}"), "card.nickname"),
                         description=r.template(card.get("description", ""), "card.description"))

    seats: list[Seat] = []
    for i, raw in enumerate(r.items(top.get("seats"), "seats")):
        where = f"seats[{i}]"
        s = r.mapping(raw, where)
        color = r.text(s.get("color"), f"{where}.color")
        if color not in PLAYER_COLORS:
            raise r.fail(f"{where}.color", f"{color!r} is not a TTS player colour ({', '.join(PLAYER_COLORS)})")
        hand = r.mapping(s.get("hand"), f"{where}.hand")
        seats.append(Seat(seat=r.integer(s.get("seat"), f"{where}.seat"), color=color,
                          hand_position=r.vec3(hand.get("position"), f"{where}.hand.position"),
                          hand_rotation_y=r.number(hand.get("rotation_y", 0), f"{where}.hand.rotation_y"),
                          hand_scale=r.vec3(hand.get("scale"), f"{where}.hand.scale", positive=True)))
    if [s.seat for s in seats] != list(range(len(seats))) or not seats:
        raise r.fail("seats", "expected seats 0, 1, … in order")
    if len({s.color for s in seats}) != len(seats):
        raise r.fail("seats", "two seats share a colour")

    boards = _parse_boards(r, top.get("boards", []), game_data)
    zone_cells: dict[str, tuple[str, tuple[str, ...]]] = {}
    zones: list[Zone] = []
    for i, raw in enumerate(r.items(top.get("zones"), "zones")):
        where = f"zones[{i}]"
        z = r.mapping(raw, where)
        role = r.text(z.get("role"), f"{where}.role", empty=False)
        if not _ROLE_RE.match(role):
            raise r.fail(f"{where}.role", f"{role!r}: use lowercase letters, digits, '-' and '_'")
        if any(other.role == role for other in zones):
            raise r.fail(f"{where}.role", f"{role!r} is used twice")
        seat = z.get("seat")
        if seat is not None and r.integer(seat, f"{where}.seat") not in range(len(seats)):
            raise r.fail(f"{where}.seat", f"no seat {seat}")
        label_width = z.get("label_width")
        if "cells" in z:  # a zone made of board cells: its box covers them
            board, cells = _zone_cells(r, z, boards, where)
            zone_cells[role] = (board.name, cells)
            center, size = _cells_box(board, cells)
        else:
            center = r.vec2(z.get("center"), f"{where}.center")
            size = r.vec2(z.get("size"), f"{where}.size", positive=True)
        zones.append(Zone(
            role=role, label=r.text(z.get("label", role), f"{where}.label"), hint=r.text(z.get("hint", ""), f"{where}.hint"),
            center=center, size=size,
            snaps=tuple(r.vec2(v, f"{where}.snaps[{j}]") for j, v in enumerate(r.items(z.get("snaps", []), f"{where}.snaps"))),
            seat=seat, facing=r.integer(z.get("facing", 0), f"{where}.facing"),
            label_width=None if label_width is None else r.number(label_width, f"{where}.label_width", positive=True),
            snap_rotation=r.flag(z.get("snap_rotation", True), f"{where}.snap_rotation")))

    decks: list[DeckPlacement] = []
    for i, raw in enumerate(r.items(top.get("decks", []), "decks")):
        where = f"decks[{i}]"
        d = r.mapping(raw, where)
        name = r.text(d.get("name"), f"{where}.name", empty=False)
        if any(other.name == name for other in decks):
            raise r.fail(f"{where}.name", f"{name!r} is used twice")
        zone = d.get("zone")
        spread = tuple(r.vec2(v, f"{where}.spread[{j}]") for j, v in enumerate(r.items(d.get("spread", []), f"{where}.spread")))
        if (zone is None) == (not spread):
            raise r.fail(where, "give either 'zone' (a deck on that zone) or 'spread' (one position per card)")
        if zone is not None and not any(z.role == r.text(zone, f"{where}.zone") for z in zones):
            raise r.fail(f"{where}.zone", f"no zone {zone!r}")
        own = r.mapping(d.get("card", {}), f"{where}.card")
        own_type = None if "type" not in own else r.integer(own["type"], f"{where}.card.type")
        if own_type is not None and not 0 <= own_type <= 4:
            raise r.fail(f"{where}.card.type", f"expected 0-4 (TTS card shapes), not {own_type}")
        decks.append(DeckPlacement(name=name, art=r.text(d.get("art"), f"{where}.art", empty=False), zone=zone,
                                   spread=spread, scale=r.number(d.get("scale", 1.0), f"{where}.scale", positive=True),
                                   face_down=r.flag(d.get("face_down", True), f"{where}.face_down"),
                                   locked=r.flag(d.get("locked", False), f"{where}.locked"), card_type=own_type,
                                   card_size=r.vec2(own["size"], f"{where}.card.size", positive=True) if "size" in own else None,
                                   copy=_deck_copy(r, d.get("copy", 1), f"{where}.copy")))

    m = r.mapping(top.get("mat"), "mat")
    colors = dict(r.mapping(m.get("colors", {}), "mat.colors"))
    for key in ("background", "zone", "outline", "text", "hint", "panel"):
        value = r.text(colors.get(key), f"mat.colors.{key}")
        if not _HEX_COLOR_RE.match(value):
            raise r.fail(f"mat.colors.{key}", f"expected #rrggbb, not {value!r}")
    panels: list[Panel] = []
    for i, raw in enumerate(r.items(m.get("panels", []), "mat.panels")):
        where = f"mat.panels[{i}]"
        p = r.mapping(raw, where)
        position = r.text(p.get("text_position", "top"), f"{where}.text_position")
        if position not in ("top", "bottom"):
            raise r.fail(f"{where}.text_position", f"expected 'top' or 'bottom', not {position!r}")
        panels.append(Panel(rect=r.rect(p.get("rect"), f"{where}.rect"), title=r.text(p.get("title", ""), f"{where}.title"),
                            text=r.text(p.get("text", ""), f"{where}.text"), text_position=position,
                            box=r.flag(p.get("box", True), f"{where}.box"),
                            facing=r.integer(p.get("facing", 0), f"{where}.facing")))
    ppu = r.integer(m.get("pixels_per_unit", 64), "mat.pixels_per_unit")
    rect = r.rect(m.get("rect"), "mat.rect")
    if not 8 <= ppu or max(rect[2] - rect[0], rect[3] - rect[1]) * ppu > 4096:
        raise r.fail("mat.pixels_per_unit", "the mat image must stay within 4096 px (TTS guideline) and use at least 8 px per unit")
    mat = MatSpec(name=r.text(m.get("name", "Play mat"), "mat.name"), rect=rect, pixels_per_unit=ppu,
                  thickness=r.number(m.get("thickness", 0.1), "mat.thickness", positive=True),
                  rotation_y=r.number(m.get("rotation_y", 180), "mat.rotation_y"), colors=colors, panels=tuple(panels))

    nb = r.mapping(top.get("notebook", {}), "notebook")
    tabs = tuple(NotebookTab(id=r.text(t.get("id"), f"notebook.tabs[{i}].id", empty=False),
                             title=r.text(t.get("title"), f"notebook.tabs[{i}].title", empty=False),
                             color=_tab_color(r, t.get("color", "Grey"), f"notebook.tabs[{i}].color"))
                 for i, t in enumerate(r.mapping(t, f"notebook.tabs[{i}]") for i, t in enumerate(r.items(nb.get("tabs", []), "notebook.tabs"))))
    return TableLayout(
        game_id=game_id, origin=origin, metadata=metadata,
        surface_y=r.number(top.get("surface_y", 0.96), "surface_y"), card=card_spec, seats=tuple(seats),
        zone_height=r.number(top.get("zone_height", 3.0), "zone_height", positive=True), zones=tuple(zones),
        decks=tuple(decks), mat=mat,
        notebook_template=r.text(nb.get("template", ""), "notebook.template"), notebook_tabs=tabs,
        seat_tabs=r.flag(nb.get("seat_tabs", True), "notebook.seat_tabs"),
        boards=boards, zone_cells=zone_cells, **_parse_pieces(r, top, boards))


def _deck_copy(r: _Reader, value: Any, where: str) -> int:
    copy = r.integer(value, where)
    if copy < 1:
        raise r.fail(where, f"expected a copy number 1, 2, ..., not {copy}")
    return copy


def copy_card_id(card_id: str, copy: int) -> str:
    """The physical id of ``copy`` of an art card: the card id itself for copy 1, else ``<id>#<copy>``."""
    return card_id if copy == 1 else f"{card_id}#{copy}"


def _color_text(r: _Reader, value: Any, where: str) -> str:
    text = r.text(value, where)
    if not _HEX_COLOR_RE.match(text):
        raise r.fail(where, f"expected #rrggbb, not {text!r}")
    return text


def _color_rule(r: _Reader, value: Any, where: str, default: str) -> ColorRule:
    m = r.mapping(value if value is not None else {}, where)
    colors = r.mapping(m.get("colors", {}), f"{where}.colors")
    return ColorRule(attribute=r.text(m.get("by", ""), f"{where}.by"),
                     colors={str(k): _color_text(r, v, f"{where}.colors.{k}") for k, v in colors.items()},
                     default=_color_text(r, m.get("default", default), f"{where}.default"))


def _parse_boards(r: _Reader, raw_boards: Any, game_data: Mapping[str, Any] | None) -> tuple[BoardSpec, ...]:
    boards: list[BoardSpec] = []
    for i, raw in enumerate(r.items(raw_boards, "boards")):
        where = f"boards[{i}]"
        b = r.mapping(raw, where)
        name = r.text(b.get("name"), f"{where}.name", empty=False)
        if not _ROLE_RE.match(name) or any(o.name == name for o in boards):
            raise r.fail(f"{where}.name", f"{name!r}: use a new name of lowercase letters, digits, '-' and '_'")
        source = b.get("grid")
        if isinstance(source, str):  # a key of the game's data file
            if game_data is None or not isinstance(game_data.get(source), Mapping):
                raise r.fail(f"{where}.grid", f"the game's data has no board {source!r}")
            grid_data, grid_where = game_data[source], source
        else:
            grid_data, grid_where = r.mapping(source, f"{where}.grid"), f"{r.origin}: {where}.grid"
        try:
            grid = grid_from_data(grid_data, grid_where)
        except GridError as exc:
            raise InputError(str(exc)) from None
        if not len(grid):
            raise r.fail(f"{where}.grid", "the grid has no cells")
        ppu = r.integer(b.get("pixels_per_unit", 64), f"{where}.pixels_per_unit")
        size = r.vec2(b.get("size"), f"{where}.size", positive=True)
        if ppu < 8 or max(size) * ppu > 4096:
            raise r.fail(f"{where}.pixels_per_unit", "the board image must stay within 4096 px and use at least 8 px per unit")
        edges = r.mapping(b.get("edges", {}), f"{where}.edges")
        boards.append(BoardSpec(
            name=name, label=r.text(b.get("label", name), f"{where}.label"), grid=grid,
            center=r.vec2(b.get("center"), f"{where}.center"), rotation_y=r.number(b.get("rotation_y", 0), f"{where}.rotation_y"),
            size=size, margin=r.number(b.get("margin", 0.25), f"{where}.margin"),
            thickness=r.number(b.get("thickness", 0.1), f"{where}.thickness", positive=True), pixels_per_unit=ppu,
            background=_color_text(r, b.get("background", "#202020"), f"{where}.background"),
            cells=_color_rule(r, b.get("cells"), f"{where}.cells", "#d8d0b8"),
            edges=_color_rule(r, edges, f"{where}.edges", "#404040") if "edges" in b else None,
            edge_width=r.number(edges.get("width", 0.08), f"{where}.edges.width", positive=True),
            labels=r.flag(b.get("labels", True), f"{where}.labels"),
            label_corner=_label_corner(r, b.get("label_position", "center"), f"{where}.label_position"),
            snap_rotation_y=r.number(b.get("snap_rotation_y", 0), f"{where}.snap_rotation_y")))
    return tuple(boards)


def _label_corner(r: _Reader, value: Any, where: str) -> bool:
    """``label_position``: "center" (the default) or "corner" (top-left of the cell)."""
    position = r.text(value, where)
    if position not in ("center", "corner"):
        raise r.fail(where, f"expected 'center' or 'corner', not {position!r}")
    return position == "corner"


def _board_cell(r: _Reader, boards: Sequence[BoardSpec], board: Any, cell: Any, where: str) -> tuple[BoardSpec, str]:
    name = r.text(board, f"{where}.board")
    found = next((b for b in boards if b.name == name), None)
    if found is None:
        raise r.fail(f"{where}.board", f"no board {name!r}")
    cell_id = r.text(cell, f"{where}.cell")
    if cell_id not in found.grid:
        raise r.fail(f"{where}.cell", f"board {name!r} has no cell {cell_id!r}")
    return found, cell_id


def _zone_cells(r: _Reader, z: Mapping[str, Any], boards: Sequence[BoardSpec], where: str) -> tuple[BoardSpec, tuple[str, ...]]:
    cells = r.items(z.get("cells"), f"{where}.cells")
    if not cells:
        raise r.fail(f"{where}.cells", "expected at least one cell")
    board = None
    ids: list[str] = []
    for j, cell in enumerate(cells):
        board, cell_id = _board_cell(r, boards, z.get("board"), cell, f"{where}.cells[{j}]")
        ids.append(cell_id)
    assert board is not None
    return board, tuple(ids)


def _cells_box(board: BoardSpec, cells: Sequence[str]) -> tuple[Vec2, Vec2]:
    """World centre and size of the box around the cells' outlines."""
    points = [board.to_world(x, z) for c in cells for x, z in board.grid.outline(c)]
    xs, zs = [p[0] for p in points], [p[1] for p in points]
    return ((min(xs) + max(xs)) / 2, (min(zs) + max(zs)) / 2), (max(xs) - min(xs), max(zs) - min(zs))


def _faces(r: _Reader, value: Any, where: str) -> tuple[Face, ...]:
    items = r.items(value, where)
    if len(items) not in (1, 2):
        raise r.fail(where, f"expected one or two faces, not {len(items)}")
    faces = []
    for k, raw in enumerate(items):
        f = r.mapping(raw, f"{where}[{k}]")
        faces.append(Face(label=r.text(f.get("label", ""), f"{where}[{k}].label"),
                          color=_color_text(r, f.get("color", "#c0c0c0"), f"{where}[{k}].color"),
                          text_color=_color_text(r, f.get("text_color", "#101010"), f"{where}[{k}].text_color")))
    return tuple(faces)


def _shape(r: _Reader, value: Any, where: str) -> str:
    shape = r.text(value, where)
    if shape not in TILE_TYPES:
        raise r.fail(where, f"expected one of {', '.join(TILE_TYPES)}, not {shape!r}")
    return shape


def _parse_pieces(r: _Reader, top: Mapping[str, Any], boards: Sequence[BoardSpec]) -> dict[str, Any]:
    pieces: list[PieceSpec] = []
    groups: dict[str, tuple[str, ...]] = {}  # a counted piece's id -> its copies' ids
    for i, raw in enumerate(r.items(top.get("pieces", []), "pieces")):
        where = f"pieces[{i}]"
        p = r.mapping(raw, where)
        pid = r.text(p.get("id"), f"{where}.id", empty=False)
        if not _ROLE_RE.match(pid) or pid in groups or any(o.id == pid for o in pieces):
            raise r.fail(f"{where}.id", f"{pid!r}: use a new id of lowercase letters, digits, '-' and '_'")
        kind = r.text(p.get("kind", "token"), f"{where}.kind")
        if kind not in PIECE_KINDS:
            raise r.fail(f"{where}.kind", f"expected one of {', '.join(PIECE_KINDS)}, not {kind!r}")
        cell = None
        if "cell" in p:
            board, cell_id = _board_cell(r, boards, p.get("board"), p.get("cell"), where)
            cell = (board.name, cell_id)
        count = r.integer(p.get("count", 1), f"{where}.count")
        if not 1 <= count <= MAX_PIECE_COUNT:
            raise r.fail(f"{where}.count", f"expected 1 to {MAX_PIECE_COUNT} pieces, not {count}")
        if count > 1 and cell is not None:
            raise r.fail(f"{where}.count", "a cell holds one piece: give several pieces a 'position' or a bag")
        one = PieceSpec(
            id=pid, name=r.text(p.get("name", pid), f"{where}.name"), description=r.text(p.get("description", ""), f"{where}.description"),
            kind=kind, shape=_shape(r, p.get("shape", "circle"), f"{where}.shape"),
            size=r.number(p.get("size", 1.0), f"{where}.size", positive=True), faces=_faces(r, p.get("faces"), f"{where}.faces"),
            position=r.vec2(p["position"], f"{where}.position") if "position" in p else None, cell=cell,
            hidden=r.flag(p.get("hide_face_down", False), f"{where}.hide_face_down"))
        if one.hidden and len(one.faces) < 2:
            raise r.fail(f"{where}.hide_face_down", "a piece hidden face down needs a back face")
        if count == 1:
            pieces.append(one)
            continue
        groups[pid] = tuple(f"{pid}-{k}" for k in range(1, count + 1))
        for k, copy_id in enumerate(groups[pid]):
            if any(o.id == copy_id for o in pieces):
                raise r.fail(f"{where}.id", f"{pid!r}: its copy {copy_id!r} is another piece's id")
            pieces.append(dataclasses.replace(one, id=copy_id, image_id=pid, level=k))
    bags: list[BagSpec] = []
    in_bag: dict[str, str] = {}
    for i, raw in enumerate(r.items(top.get("bags", []), "bags")):
        where = f"bags[{i}]"
        b = r.mapping(raw, where)
        name = r.text(b.get("name"), f"{where}.name", empty=False)
        if not _ROLE_RE.match(name) or any(o.name == name for o in bags):
            raise r.fail(f"{where}.name", f"{name!r}: use a new name of lowercase letters, digits, '-' and '_'")
        listed = [r.text(v, f"{where}.contents[{j}]") for j, v in enumerate(r.items(b.get("contents", []), f"{where}.contents"))]
        # a counted piece listed by its id: all its copies go in (a bag of N)
        contents = tuple(c for pid in listed for c in groups.get(pid, (pid,)))
        for j, pid in enumerate(contents):
            if not any(p.id == pid for p in pieces):
                raise r.fail(f"{where}.contents[{j}]", f"no piece {pid!r}")
            if pid in in_bag:
                raise r.fail(f"{where}.contents[{j}]", f"piece {pid!r} is already in bag {in_bag[pid]!r}")
            in_bag[pid] = name
        bags.append(BagSpec(name=name, label=r.text(b.get("label", name), f"{where}.label"),
                            position=r.vec2(b.get("position"), f"{where}.position"),
                            color=_color_text(r, b.get("color", "#8a6a48"), f"{where}.color"), contents=contents))
    for piece in pieces:
        places = (piece.position is not None) + (piece.cell is not None) + (piece.id in in_bag)
        if places != 1:
            i = next(n for n, raw in enumerate(top["pieces"]) if isinstance(raw, Mapping)
                     and raw.get("id") in (piece.id, piece.image_id))
            raise r.fail(f"pieces[{i}]", f"piece {piece.id!r} needs exactly one of 'position', 'cell' (with 'board') or a bag listing it")
    stacks: list[StackSpec] = []
    for i, raw in enumerate(r.items(top.get("stacks", []), "stacks")):
        where = f"stacks[{i}]"
        st = r.mapping(raw, where)
        name = r.text(st.get("name"), f"{where}.name", empty=False)
        if not _ROLE_RE.match(name) or any(o.name == name for o in stacks):
            raise r.fail(f"{where}.name", f"{name!r}: use a new name of lowercase letters, digits, '-' and '_'")
        count = r.integer(st.get("count"), f"{where}.count")
        if count < 2:
            raise r.fail(f"{where}.count", f"a stack holds at least 2 pieces, not {count}")
        stacks.append(StackSpec(name=name, label=r.text(st.get("label", name), f"{where}.label"),
                                position=r.vec2(st.get("position"), f"{where}.position"), count=count,
                                shape=_shape(r, st.get("shape", "square"), f"{where}.shape"),
                                size=r.number(st.get("size", 1.0), f"{where}.size", positive=True),
                                faces=_faces(r, st.get("faces"), f"{where}.faces")))
    return {"pieces": tuple(pieces), "bags": tuple(bags), "stacks": tuple(stacks)}


def _tab_color(r: _Reader, value: Any, where: str) -> str:
    color = r.text(value, where)
    if color not in PLAYER_COLORS:
        raise r.fail(where, f"{color!r} is not a TTS colour ({', '.join(PLAYER_COLORS)})")
    return color


# --------------------------------------------------------------------------- the plan


@dataclass(frozen=True)
class PlacedCard:
    id: str           # physical card id (what the Lua reads from GMNotes)
    key: str          # design key
    deck: str         # layout deck name
    card_id: int      # TTS CardID = CustomDeck key * 100 + slot
    deck_key: int     # the CustomDeck key
    guid: str
    nickname: str
    description: str
    position: Vec2 | None  # own position when spread, else None (inside a deck)
    card: str = ""         # the art's card id this is a copy of ("" = ``id``)
    copy: int = 1          # which copy of its art deck (the deck placement's ``copy``)

    @property
    def art_id(self) -> str:
        return self.card or self.id


@dataclass(frozen=True)
class SheetRef:
    """One CustomDeck entry: which art deck and sheet it shows."""

    key: int
    art: str
    sheet: int


@dataclass
class TablePlan:
    layout: TableLayout
    mat_guid: str
    zone_guids: dict[str, str]
    deck_guids: dict[str, str]          # deck objects (not spread placements)
    sheets: dict[tuple[str, int], SheetRef]
    cards: dict[str, list[PlacedCard]]  # layout deck name -> cards, in deck order
    guids: GuidAllocator = field(repr=False)
    hand_guids: dict[str, str] = field(default_factory=dict)  # seat colour -> its HandTrigger
    kit_guids: dict[str, str] = field(default_factory=dict)   # "board/<name>", "piece/<id>", "bag/<name>", "stack/<name>"

    def all_cards(self) -> list[PlacedCard]:
        return [c for deck in self.layout.decks for c in self.cards[deck.name]]


@functools.lru_cache(maxsize=64)
def _compiled(template: str) -> jinja2.Template:
    return _jinja().from_string(template)


def _render_text(template: str, ctx: Mapping[str, Any], where: str) -> str:
    try:
        return _compiled(template).render(**ctx).strip()
    except jinja2.TemplateError as exc:
        raise InputError(f"{where}: {type(exc).__name__}: {exc}") from None
    except (TypeError, ValueError, AttributeError, KeyError, IndexError, ZeroDivisionError) as exc:
        # a data template that compiles but fails on this row (e.g. iterating a method)
        raise InputError(f"{where}: the template fails on this card: {type(exc).__name__}: {exc}") from None


def plan_table(layout: TableLayout, manifest: ArtManifest, game_data: Mapping[str, Any],
               rows: Mapping[str, Mapping[str, Any]] | None = None) -> TablePlan:
    """Place every card of the layout's decks and give every object its GUID.

    ``rows`` are the component rows by key, as the art source reads them (the
    same rows the cards were drawn from); they feed the card name templates.
    Without them, ``game_data["cards"]`` is used. ``game_data`` (``Game.data``)
    is the template's ``game``. Art decks, sheets and slots come from ``manifest``.
    """
    guids = GuidAllocator(layout.game_id)
    mat_guid = guids.get("mat")
    zone_guids = {z.role: guids.get(f"zone/{z.role}") for z in layout.zones}
    deck_guids: dict[str, str] = {}
    sheets: dict[tuple[str, int], SheetRef] = {}
    if rows is None:
        rows = {str(row.get("key")): row for row in game_data.get("cards", []) if isinstance(row, Mapping)}
    cards: dict[str, list[PlacedCard]] = {}
    used_art: dict[str, set[int]] = {}
    for placement in layout.decks:
        art = manifest.decks.get(placement.art)
        if art is None:
            raise InputError(f"{layout.origin}: decks: {placement.name!r} uses art deck {placement.art!r}, which the art "
                             f"manifest does not have (it has: {', '.join(manifest.decks) or 'none'})")
        if placement.copy in used_art.setdefault(placement.art, set()):
            raise InputError(f"{layout.origin}: decks: art deck {placement.art!r} copy {placement.copy} is placed twice; "
                             f"give each placement of one art deck its own 'copy' (1, 2, ...)")
        used_art[placement.art].add(placement.copy)
        for n in range(len(art.sheets)):
            if (placement.art, n) not in sheets:
                sheets[(placement.art, n)] = SheetRef(len(sheets) + 1, placement.art, n)
        ids = [(key, cid, i + 1, len(copies)) for key, copies in art.copies.items() for i, cid in enumerate(copies)]
        if placement.spread and len(placement.spread) != len(ids):
            raise InputError(f"{layout.origin}: decks: {placement.name!r} spreads {len(placement.spread)} positions "
                             f"for {len(ids)} cards")
        if placement.zone is not None and len(ids) > 1:
            deck_guids[placement.name] = guids.get(f"deck/{placement.name}")
        placed: list[PlacedCard] = []
        for n, (key, cid, copy, copies) in enumerate(ids):
            slot = art.slots[key]
            deck_key = sheets[(placement.art, slot.sheet)].key
            row = rows.get(key, {"key": key})
            ctx = {**row, "id": cid, "key": key, "copy": copy, "copies": copies, "deck": placement.name,
                   "deck_copy": placement.copy, "in_play": bool(row.get("in_play", True)), "game": game_data}
            pid = copy_card_id(cid, placement.copy)
            placed.append(PlacedCard(
                id=pid, key=key, deck=placement.name, card_id=deck_key * 100 + slot.slot, deck_key=deck_key,
                guid=guids.get(f"card/{pid}"),
                nickname=_render_text(layout.card.nickname, ctx, f"{layout.origin}: card.nickname ({pid})"),
                description=_render_text(layout.card.description, ctx, f"{layout.origin}: card.description ({pid})"),
                position=placement.spread[n] if placement.spread else None,
                card="" if placement.copy == 1 else cid, copy=placement.copy))
        cards[placement.name] = placed
    all_ids = [c.id for deck in cards.values() for c in deck]
    if len(set(all_ids)) != len(all_ids):
        dup = next(i for i in all_ids if all_ids.count(i) > 1)
        raise InputError(f"{layout.origin}: physical card id {dup!r} occurs in two decks")
    # allocated after the cards, so adding them left every earlier GUID as it was
    hand_guids = {seat.color: guids.get(f"hand/{seat.color}") for seat in layout.seats}
    kit_names = ([f"board/{b.name}" for b in layout.boards] + [f"piece/{p.id}" for p in layout.pieces]
                 + [f"bag/{b.name}" for b in layout.bags] + [f"stack/{s.name}" for s in layout.stacks])
    clashing = {p.id for p in layout.pieces} & set(all_ids)
    if clashing:
        raise InputError(f"{layout.origin}: pieces: id {sorted(clashing)[0]!r} is also a card id; GMNotes ids must be unique")
    kit_guids = {name: guids.get(name) for name in kit_names}
    return TablePlan(layout, mat_guid, zone_guids, deck_guids, sheets, cards, guids, hand_guids, kit_guids)


def _xyz(v: Vec3) -> dict[str, float]:
    return {"x": _num(v[0]), "y": _num(v[1]), "z": _num(v[2])}


def zone_center(layout: TableLayout, zone: Zone) -> Vec3:
    return (zone.center[0], layout.surface_y + layout.zone_height / 2, zone.center[1])


def table_context(plan: TablePlan, image_url: ImageUrl | None = None) -> dict[str, Any]:
    """What the Lua templates get as ``table``: seats, zone GUIDs and centres, decks, cards, hands.
    With ``image_url``, ``faces`` gives each hidden piece's face and back image URLs (the save
    shows only the back until the Lua reveals the face)."""
    layout = plan.layout
    faces = {p.id: {"face": image_url(p.image(0)), "back": image_url(p.image(1)), "type": TILE_TYPES[p.shape],
                    "thickness": 0.2} for p in layout.pieces if p.hidden and image_url is not None}
    return {
        "faces": faces,
        "seats": [{"seat": s.seat, "color": s.color} for s in layout.seats],
        "zones": dict(plan.zone_guids),
        "positions": {z.role: _xyz(zone_center(layout, z)) for z in layout.zones},
        # zone footprints (x: width, z: depth), so a drop is judged by the zone's real rectangle
        "sizes": {z.role: {"x": _num(z.size[0]), "z": _num(z.size[1])} for z in layout.zones},
        "decks": dict(plan.deck_guids),
        "cards": {c.id: {"guid": c.guid, "card_id": c.card_id, "deck": c.deck, "id": c.art_id, "copy": c.copy}
                  for c in plan.all_cards()},
        # several copies of one art deck (a deck's "copy"): each art card's physical ids, copy 1 first
        "card_copies": _card_copies(plan),
        "deck_copies": {d.name: d.copy for d in layout.decks},
        "hands": {s.color: _xyz(s.hand_position) for s in layout.seats},
        # cards lie on the mat at this height; a card "upright" for seat 0 has this rotation
        "card_y": _num(layout.snap_y),
        "upright_rotation_y": _num(layout.card.rotation_y),
        # the kit: boards with their cell grids, pieces, bags, stacks, zones made of cells
        "grids": {b.name: grid_context(plan, b) for b in layout.boards},
        "pieces": {p.id: {"guid": plan.kit_guids[f"piece/{p.id}"], "kind": p.kind, "name": p.name,
                          "bag": next((b.name for b in layout.bags if p.id in b.contents), None),
                          "cell": None if p.cell is None else {"board": p.cell[0], "cell": p.cell[1]},
                          # where it starts on the table (None in a bag): its home, e.g. a supply spot
                          "home": None if any(p.id in b.contents for b in layout.bags)
                          else _xyz(piece_position(layout, p)[0])}
                   for p in layout.pieces},
        # the turn a hex Custom_Tile takes on a pointy-topped hex cell (HEX_TILE_TURN_Y)
        "hex_tile_turn_y": _num(HEX_TILE_TURN_Y),
        "bags": {b.name: {"guid": plan.kit_guids[f"bag/{b.name}"], "contents": list(b.contents)} for b in layout.bags},
        "stacks": {st.name: {"guid": plan.kit_guids[f"stack/{st.name}"], "count": st.count} for st in layout.stacks},
        "zone_cells": {role: {"board": board, "cells": list(cells)} for role, (board, cells) in layout.zone_cells.items()},
    }


def _card_copies(plan: TablePlan) -> dict[str, list[str]]:
    """Art card id -> its physical ids ordered by copy (copy 1 first)."""
    by_card: dict[str, list[tuple[int, str]]] = {}
    for c in plan.all_cards():
        by_card.setdefault(c.art_id, []).append((c.copy, c.id))
    return {cid: [pid for _, pid in sorted(v)] for cid, v in by_card.items()}


def grid_context(plan: TablePlan, board: BoardSpec) -> dict[str, Any]:
    """What the Lua knows of one board's grid, all computed here.

    ``cells[id]``: world ``position`` (on the board's top face), ``coords``, ``neighbours``
    (stable order), ``edges`` (neighbour id -> the edge's attributes) and ``attrs``;
    ``order`` lists the ids in grid order (never iterate ``cells`` with ``pairs`` for order).
    World -> cell without search: undo the board transform (``origin``, ``rotation_y``
    clockwise from above, ``scale`` world units per board unit), then step from ``anchor``
    (one cell's board-local centre and coords) by ``cell_size`` on the square or axial hex
    lattice, round, and read ``ids["a,b"]``; :func:`world_to_cell` is the reference.
    """
    grid, layout = board.grid, plan.layout
    y = board_y(layout, board)
    edges: dict[str, dict[str, Any]] = {c.id: {} for c in grid}
    for e in grid.edges():
        edges[e.a][e.b] = dict(e.attrs)
        edges[e.b][e.a] = dict(e.attrs)
    first = grid.cells[0]
    return {
        "guid": plan.kit_guids[f"board/{board.name}"],
        "shape": grid.shape, "orientation": grid.orientation, "cell_size": _num(grid.cell_size),
        "origin": {"x": _num(board.center[0]), "z": _num(board.center[1])},
        "rotation_y": _num(board.rotation_y), "scale": board.scale,
        "anchor": {"coords": list(first.coords), "x": first.center[0], "z": first.center[1]},
        "ids": {f"{c.coords[0]},{c.coords[1]}": c.id for c in grid},
        "order": [c.id for c in grid],
        "cells": {c.id: {"position": _cell_xyz(board, c.id, y), "coords": list(c.coords),
                         "neighbours": list(grid.neighbours(c.id)), "edges": edges[c.id], "attrs": dict(c.attrs)}
                  for c in grid},
        "edges": [{"cells": [e.a, e.b], **dict(e.attrs)} for e in grid.edges()],
        # upright as the pieces start (piece_position) and as every zone snap stands
        "snap_rotation_y": _num((plan.layout.card.rotation_y + board.rotation_y + board.snap_rotation_y) % 360.0),
    }


def _cell_xyz(board: BoardSpec, cell_id: str, y: float) -> dict[str, float]:
    x, z = board.cell_world(cell_id)
    return _xyz((x, y, z))


def world_to_cell(ctx: Mapping[str, Any], wx: float, wz: float) -> str | None:
    """The cell of a board's grid context under world (wx, wz), by arithmetic only (the
    Lua does the same): board-local point, lattice step from the anchor, rounding."""
    t = math.radians(ctx["rotation_y"])
    dx, dz = wx - ctx["origin"]["x"], wz - ctx["origin"]["z"]
    x = (dx * math.cos(t) - dz * math.sin(t)) / ctx["scale"] - ctx["anchor"]["x"]
    z = (dx * math.sin(t) + dz * math.cos(t)) / ctx["scale"] - ctx["anchor"]["z"]
    s = ctx["cell_size"]
    a0, b0 = ctx["anchor"]["coords"]
    if ctx["shape"] == "square":
        a, b = a0 + math.floor(x / s + 0.5), b0 + math.floor(-z / s + 0.5)
    else:
        if ctx["orientation"] == "pointy":
            r = -z / (s * math.sqrt(3) / 2)
            q = x / s - r / 2
        else:
            q = x / (s * math.sqrt(3) / 2)
            r = -z / s - q / 2
        a, b = cube_round(q, r)
        a, b = a + a0, b + b0
    return ctx["ids"].get(f"{a},{b}")



# --------------------------------------------------------------------------- the save


def _num(value: float) -> float:
    """Round to 4 decimals (no float noise in the file); -0.0 becomes 0.0."""
    out = round(float(value), 4)
    return out + 0.0


def transform(pos: Vec3, rot: Vec3 = (0.0, 0.0, 0.0), scale: Vec3 = (1.0, 1.0, 1.0)) -> dict[str, float]:
    keys = ("posX", "posY", "posZ", "rotX", "rotY", "rotZ", "scaleX", "scaleY", "scaleZ")
    return {k: _num(v) for k, v in zip(keys, (*pos, *rot, *scale))}


def _color(rgb: tuple[float, float, float], a: float | None = None) -> dict[str, float]:
    out = {"r": _num(rgb[0]), "g": _num(rgb[1]), "b": _num(rgb[2])}
    if a is not None:
        out["a"] = _num(a)
    return out


def _object(name: str, guid: str, xform: dict[str, float], **fields: Any) -> dict[str, Any]:
    """An ObjectState with the fields TTS itself writes, overridden by ``fields``."""
    obj: dict[str, Any] = {
        "GUID": guid, "Name": name, "Transform": xform, "Nickname": "", "Description": "", "GMNotes": "",
        "ColorDiffuse": _color((1.0, 1.0, 1.0)), "Locked": False, "Grid": True, "Snap": True, "IgnoreFoW": False,
        "MeasureMovement": False, "DragSelectable": True, "Autoraise": True, "Sticky": True, "Tooltip": True,
        "GridProjection": False, "HideWhenFaceDown": False, "Hands": False, "LuaScript": "", "LuaScriptState": "",
        "XmlUI": "", "LayoutGroupSortIndex": 0, "Value": 0,
    }
    obj.update(fields)
    return obj


ImageUrl = Callable[[str], str]


def _custom_deck_entry(manifest: ArtManifest, ref: SheetRef, card_type: int, url: ImageUrl) -> dict[str, Any]:
    sheet = manifest.decks[ref.art].sheets[ref.sheet]
    return {"FaceURL": url(sheet.face), "BackURL": url(sheet.back), "NumWidth": sheet.num_width,
            "NumHeight": sheet.num_height, "BackIsHidden": sheet.back_is_hidden, "UniqueBack": sheet.unique_back,
            "Type": card_type}


def _card_type(layout: TableLayout, deck: str) -> int:
    placement = next(d for d in layout.decks if d.name == deck)
    return layout.card.type if placement.card_type is None else placement.card_type


def _card_object(plan: TablePlan, manifest: ArtManifest, card: PlacedCard, xform: dict[str, float], locked: bool,
                 url: ImageUrl) -> dict[str, Any]:
    ref = next(r for r in plan.sheets.values() if r.key == card.deck_key)
    return _object("Card", card.guid, xform, Nickname=card.nickname, Description=card.description, GMNotes=card.id,
                   Locked=locked, HideWhenFaceDown=True, Hands=True, SidewaysCard=False, CardID=card.card_id,
                   CustomDeck={str(ref.key): _custom_deck_entry(manifest, ref, _card_type(plan.layout, card.deck), url)})


def kit_images(layout: TableLayout) -> list[str]:
    """The images the kit needs drawn (boards, piece and stack faces), in layout order."""
    names = [b.image for b in layout.boards]
    names += [p.image(side) for p in layout.pieces for side in range(len(p.faces))]
    names += [st.image(side) for st in layout.stacks for side in range(len(st.faces))]
    return list(dict.fromkeys(names))  # copies of a counted piece, and pieces of one back, share an image


def image_names(plan: TablePlan, manifest: ArtManifest) -> list[str]:
    """Every image file (relative to ``images/``) the save refers to, sorted."""
    names = {MAT_IMAGE} | set(kit_images(plan.layout))
    for ref in plan.sheets.values():
        sheet = manifest.decks[ref.art].sheets[ref.sheet]
        names.update((sheet.face, sheet.back))
    return sorted(names)


def save_epoch(environ: Mapping[str, str] | None = None) -> int:
    """The build's timestamp: ``$SOURCE_DATE_EPOCH`` (whole seconds) or :data:`DEFAULT_SAVE_EPOCH`.

    A malformed value is an :class:`InputError` naming the variable, not a silent fallback.
    """
    value = (os.environ if environ is None else environ).get("SOURCE_DATE_EPOCH", "").strip()
    if not value:
        return DEFAULT_SAVE_EPOCH
    if not value.isdigit():
        raise InputError(f"SOURCE_DATE_EPOCH: expected whole seconds since 1970, not {value!r}")
    return int(value)


def tts_date(epoch: int) -> str:
    """``Date`` as TTS writes it (US locale, observed): ``M/D/YYYY h:mm:ss AM``, in UTC."""
    t = datetime.datetime.fromtimestamp(epoch, datetime.timezone.utc)
    return f"{t.month}/{t.day}/{t.year} {t.hour % 12 or 12}:{t.minute:02d}:{t.second:02d} {'PM' if t.hour >= 12 else 'AM'}"


def tool_memo() -> str:
    """What the mat's ``Memo`` holds: the tool and its version, as JSON text."""
    from tts_builder import __version__
    return json.dumps({"tool": TOOL_NAME, "version": __version__}, sort_keys=True, separators=(",", ":"))


#: between the game's name and the build's own marks in ``SaveName``
SAVE_NAME_SEPARATOR = " - "  # ASCII: any font of the load menu has it


def build_id(save: Mapping[str, Any]) -> str:
    """A short digest of what the save holds (its name aside), with each image URL reduced to its file
    name, which carries the image's content hash: two builds of the same mod share it wherever
    their images are hosted, and any change to the table, scripts or art gives another. It stands
    for "build time" in the save's name without a clock (same inputs, same bytes)."""
    def strip(value: Any) -> Any:
        if isinstance(value, dict):
            return {k: (v.rsplit("/", 1)[-1] if k.endswith("URL") and isinstance(v, str) else strip(v))
                    for k, v in value.items() if k != "SaveName"}
        if isinstance(value, list):
            return [strip(v) for v in value]
        return value
    text = json.dumps(strip(save), sort_keys=True, ensure_ascii=True)
    return hashlib.sha256(text.encode("ascii")).hexdigest()[:8]


def save_name(game_name: str, save: Mapping[str, Any]) -> str:
    """``SaveName``: the game, the tool's version and the :func:`build_id`, so that installs of
    different builds can be told apart in TTS's load menu (``Two & Two - tts-builder 0.1.0 - build 1a2b3c4d``)."""
    from tts_builder import __version__
    return SAVE_NAME_SEPARATOR.join((game_name, f"{TOOL_NAME} {__version__}", f"build {build_id(save)}"))


def game_of_save_name(name: str) -> str:
    """The game's name in a :func:`save_name` (a name without the marks is returned whole).

    >>> game_of_save_name("Two & Two - tts-builder 0.1.0 - build 1a2b3c4d")
    'Two & Two'
    """
    game, sep, rest = name.partition(f"{SAVE_NAME_SEPARATOR}{TOOL_NAME} ")
    return game if sep and " build " in f" {rest}" else name


def built_by(save: Mapping[str, Any]) -> dict[str, str] | None:
    """The ``{"tool", "version"}`` a save built by this tool records, or None for any other save."""
    for obj in save.get("ObjectStates") or []:
        memo = obj.get("Memo") if isinstance(obj, Mapping) else None
        if isinstance(memo, str) and memo.startswith("{"):
            try:
                data = json.loads(memo)
            except ValueError:
                continue
            if isinstance(data, dict) and data.get("tool") == TOOL_NAME:
                return {"tool": str(data["tool"]), "version": str(data.get("version", ""))}
    return None


def hand_transforms(save: Mapping[str, Any]) -> dict[str, dict[str, float]]:
    """Each seat colour's hand ``Transform`` in a save: from its ``HandTrigger`` objects (what
    current TTS and this builder write), else from the older ``Hands.HandTransforms``."""
    found = {str(o["FogColor"]): dict(o["Transform"]) for o in save.get("ObjectStates") or []
             if isinstance(o, Mapping) and o.get("Name") == "HandTrigger" and o.get("FogColor")}
    if found:
        return found
    hands = save.get("Hands")
    old = hands.get("HandTransforms") if isinstance(hands, Mapping) else None
    return {str(h["Color"]): dict(h["Transform"]) for h in old or [] if isinstance(h, Mapping) and "Color" in h}


def _mat_object(plan: TablePlan, image_url: ImageUrl) -> dict[str, Any]:
    """The play mat: a locked ``Custom_Tile`` showing the mat image.

    ``Stretch`` makes TTS shape the tile to the image's aspect ratio, so the scale is
    uniform (as every stretched tile in real saves has it) and comes from the size model
    (:mod:`tts_builder.tablesize`); the image has the mat's proportions.
    """
    layout = plan.layout
    mat = layout.mat
    (mx, mz), (mw, md) = mat.center, mat.size
    scale = tile_scale(mw, md)
    return _object(
        "Custom_Tile", plan.mat_guid,
        transform((mx, layout.surface_y + mat.thickness / 2, mz), (0.0, mat.rotation_y, 0.0), (scale, 1.0, scale)),
        Nickname=mat.name, Memo=tool_memo(), Locked=True, Grid=False, Snap=False, DragSelectable=False, Tooltip=False,
        CustomImage={"ImageURL": image_url(MAT_IMAGE), "ImageSecondaryURL": "", "ImageScalar": 1.0, "WidthScale": 0.0,
                     "CustomTile": {"Type": 0, "Thickness": _num(mat.thickness), "Stackable": False, "Stretch": True}})


def _hand_objects(plan: TablePlan) -> list[dict[str, Any]]:
    """One ``HandTrigger`` per seat, as current TTS saves hold hands (``Hands.HandTransforms``
    is the pre-v13 form): tinted with the seat colour at alpha 0, owner in ``FogColor``."""
    return [_object("HandTrigger", plan.hand_guids[s.color],
                    transform(s.hand_position, (0.0, s.hand_rotation_y, 0.0), s.hand_scale),
                    ColorDiffuse=_color(PLAYER_COLORS[s.color], 0.0), Locked=True, Grid=False, FogColor=s.color)
            for s in plan.layout.seats]


def board_y(layout: TableLayout, board: BoardSpec) -> float:
    """Height of a board's top face (boards lie on the mat)."""
    return layout.snap_y + board.thickness


def board_snaps(layout: TableLayout) -> list[tuple[Vec3, Vec3]]:
    """A snap point on every cell of every board: world position and rotation (a piece
    lands upright for the board, turned by the board's ``snap_rotation_y``)."""
    out = []
    for board in layout.boards:
        rot = (0.0, (layout.card.rotation_y + board.rotation_y + board.snap_rotation_y) % 360.0, 0.0)
        for cell in board.grid:
            x, z = board.to_world(*cell.center)
            out.append(((x, board_y(layout, board), z), rot))
    return out


def _image_block(front: str, back: str, **extra: Any) -> dict[str, Any]:
    return {"ImageURL": front, "ImageSecondaryURL": back, "ImageScalar": 1.0, "WidthScale": 0.0, **extra}


def _piece_object(plan: TablePlan, piece: PieceSpec, pos: Vec3, rot_y: float, url: ImageUrl) -> dict[str, Any]:
    layout = plan.layout
    front = url(piece.image(0))
    back = url(piece.image(1)) if len(piece.faces) > 1 else ""
    if piece.hidden:
        # a hidden piece carries its back on both faces: every image URL of a custom object is
        # readable in its Custom menu, face up or down, and one face URL per look would let a seat
        # match pairs by URL. The Lua gives it its face when the rules reveal it (setCustomObject
        # then reload: table_context's "face", the game's glue).
        front = back
    scale = tile_scale(piece.size, piece.size)
    xform = transform(pos, (0.0, rot_y, 0.0), (scale, 1.0, scale))
    common = dict(Nickname=piece.name, Description=piece.description, GMNotes=piece.gm_notes)
    if piece.tts_name == "Figurine_Custom":
        xform = transform(pos, (0.0, rot_y, 0.0), (piece.size, piece.size, piece.size))
        return _object("Figurine_Custom", plan.kit_guids[f"piece/{piece.id}"], xform, **common,
                       CustomImage=_image_block(front, back),
                       CustomFigurine={"UseMinimalCollider": False, "MirroredBack": False})
    if piece.tts_name == "Custom_Token":
        return _object("Custom_Token", plan.kit_guids[f"piece/{piece.id}"], xform, **common,
                       CustomImage=_image_block(front, "", CustomToken={
                           "Thickness": 0.2, "MergeDistancePixels": 15.0, "StandUp": False, "Stackable": False}))
    # a two-faced tile face down hides its name and description (Knowledge Base, Object >
    # Toggles: "Hide Face Down"): a face-down Two by Two animal must not name its species
    return _object("Custom_Tile", plan.kit_guids[f"piece/{piece.id}"], xform, **common,
                   HideWhenFaceDown=len(piece.faces) > 1, CustomImage=_image_block(front, back, CustomTile={
                       "Type": TILE_TYPES[piece.shape], "Thickness": 0.2, "Stackable": False, "Stretch": True}))


#: How far a hex ``Custom_Tile`` (``CustomTile.Type`` 1) turns to sit on a pointy-topped hex cell.
#: TTS's hex tile is flat-topped at rotation y 0 (its corners along x): in the real saves, Terraforming
#: Mars (../shared/fixtures/tts_saves/terraforming_mars_save_2017_legacy_snappoints_states.json) lays
#: its Mars hexes as a pointy-topped lattice of global snap points (nearest neighbours at 0, 60 and
#: 120 degrees, 2.35 apart, 108 points) and 81 of them turn a dropped hex tile to rotation y 270,
#: i.e. 30 modulo 60 (tests/test_two_by_two_mod.py reads this). Confidence: medium (one mod's
#: layout; nobody has looked at a hex tile in TTS for this project). Any turn of 30 modulo 60 fits
#: the hexes; 90 (a quarter turn) lets the face art be drawn as a quarter-turned picture, so its label
#: reads upright on the table (tablemat.render_face's ``turn``; at 30 it sat tilted 30 degrees).
#: The sense: TTS is Unity, whose y rotation is clockwise seen from above (left-handed axes);
#: render_face turns the picture back counter-clockwise. Unchecked in TTS (README).
HEX_TILE_TURN_Y: float = 90.0


def hex_tile_turn(piece: PieceSpec, board: BoardSpec | None) -> float:
    """The turn (degrees y) that sets ``piece`` on a cell of ``board``: :data:`HEX_TILE_TURN_Y` for
    a hex ``Custom_Tile`` on a pointy-topped hex board, else 0."""
    custom_tile = piece.tts_name == "Custom_Tile"
    pointy = board is not None and board.grid.shape == "hex" and board.grid.orientation == "pointy"
    return HEX_TILE_TURN_Y if custom_tile and piece.shape == "hex" and pointy else 0.0


def hex_face_turn(layout: TableLayout, piece: PieceSpec) -> float:
    """The turn (degrees y) ``piece``'s face art is drawn for: the one it takes on the layout's
    pointy-topped hex board (:func:`hex_tile_turn`), wherever the script lays it; else 0."""
    pointy = next((b for b in layout.boards if b.grid.shape == "hex" and b.grid.orientation == "pointy"), None)
    return hex_tile_turn(piece, pointy)


def piece_position(layout: TableLayout, piece: PieceSpec) -> tuple[Vec3, float]:
    """Where a piece not in a bag starts (world position and rotation y)."""
    upright = layout.card.rotation_y
    if piece.cell is not None:
        board = layout.board(piece.cell[0])
        x, z = board.cell_world(piece.cell[1])
        return (x, board_y(layout, board) + 0.2, z), (upright + board.rotation_y + hex_tile_turn(piece, board)) % 360.0
    assert piece.position is not None
    # the copies of a counted piece laid at one position stand in a pile, one thickness apart
    return (piece.position[0], layout.snap_y + 0.2 * (1 + piece.level), piece.position[1]), upright


def _kit_objects(plan: TablePlan, url: ImageUrl) -> list[dict[str, Any]]:
    """Boards, pieces on the table, bags with their pieces, stacks."""
    layout = plan.layout
    objects: list[dict[str, Any]] = []
    for board in layout.boards:
        scale = tile_scale(*board.size)  # the board image is drawn w x d (tablemat.render_board)
        objects.append(_object(
            "Custom_Tile", plan.kit_guids[f"board/{board.name}"],
            transform((board.center[0], layout.snap_y + board.thickness / 2, board.center[1]),
                      (0.0, (layout.mat.rotation_y + board.rotation_y) % 360.0, 0.0),
                      (scale, 1.0, scale)),
            Nickname=board.label, GMNotes=board.name, Locked=True, Grid=False, Tooltip=False,
            CustomImage=_image_block(url(board.image), "", CustomTile={
                "Type": 0, "Thickness": _num(board.thickness), "Stackable": False, "Stretch": True})))
    bagged = {pid for bag in layout.bags for pid in bag.contents}
    by_id = {p.id: p for p in layout.pieces}
    for piece in layout.pieces:
        if piece.id not in bagged:
            pos, rot_y = piece_position(layout, piece)
            objects.append(_piece_object(plan, piece, pos, rot_y, url))
    for bag in layout.bags:
        pos = (bag.position[0], layout.snap_y + 0.5, bag.position[1])
        objects.append(_object(
            "Bag", plan.kit_guids[f"bag/{bag.name}"], transform(pos), Nickname=bag.label, GMNotes=bag.name,
            ColorDiffuse=_color(_rgb(bag.color)), MaterialIndex=-1, MeshIndex=-1, Number=0, Bag={"Order": 0},
            ContainedObjects=[_piece_object(plan, by_id[pid], pos, layout.card.rotation_y, url) for pid in bag.contents]))
    for st in layout.stacks:
        scale = tile_scale(st.size, st.size)
        objects.append(_object(
            "Custom_Tile_Stack", plan.kit_guids[f"stack/{st.name}"],
            transform((st.position[0], layout.snap_y + 0.2, st.position[1]), (0.0, layout.card.rotation_y, 0.0),
                      (scale, 1.0, scale)),
            Nickname=st.label, GMNotes=st.name, MaterialIndex=-1, MeshIndex=-1, Number=st.count,
            CustomImage=_image_block(url(st.image(0)), url(st.image(1)) if len(st.faces) > 1 else "", CustomTile={
                "Type": TILE_TYPES[st.shape], "Thickness": 0.2, "Stackable": True, "Stretch": True})))
    return objects


def _rgb(color: str) -> tuple[float, float, float]:
    return (int(color[1:3], 16) / 255, int(color[3:5], 16) / 255, int(color[5:7], 16) / 255)


def build_save(plan: TablePlan, manifest: ArtManifest, *, game_name: str, players: tuple[int, int],
               game_data: Mapping[str, Any], image_url: ImageUrl, lua_script: str, xml_ui: str,
               notebook: Mapping[str, str], epoch: int | None = None) -> dict[str, Any]:
    """The ``SaveState`` dict. ``image_url(name)`` maps a file in ``images/`` to its URL;
    ``notebook`` maps each layout notebook tab id to its body text; ``epoch`` gives ``Date``
    and ``EpochTime`` (default :func:`save_epoch`: ``$SOURCE_DATE_EPOCH`` or the fixed date)."""
    epoch = save_epoch() if epoch is None else epoch
    layout = plan.layout
    meta = layout.metadata
    objects: list[dict[str, Any]] = [_mat_object(plan, image_url)]
    mat = layout.mat

    for zone in layout.zones:
        tint = PLAYER_COLORS[layout.seats[zone.seat].color] if zone.seat is not None else (1.0, 1.0, 1.0)
        objects.append(_object(
            "ScriptingTrigger", plan.zone_guids[zone.role],
            transform(zone_center(layout, zone), (0.0, 180.0 * (zone.facing % 2), 0.0),
                      (zone.size[0], layout.zone_height, zone.size[1])),
            Nickname=zone.role, Description=" - ".join(t for t in (zone.label, zone.hint) if t), GMNotes=zone.role,
            # Grid/Snap/Tooltip on, as 237 of the 238 script zones in ../shared/fixtures have them
            ColorDiffuse=_color(tint, 0.5), Locked=True, Grid=True, Snap=True, DragSelectable=False, Tooltip=True))

    rot_y = layout.card.rotation_y
    for placement in layout.decks:
        cards = plan.cards[placement.name]
        rot = (0.0, rot_y, 180.0 if placement.face_down else 0.0)
        scale = (placement.object_scale(layout.card), 1.0, placement.object_scale(layout.card))
        if placement.zone is not None:
            zone = layout.zone(placement.zone)
            pos = (zone.center[0], layout.surface_y + mat.thickness + 0.5, zone.center[1])
            xform = transform(pos, rot, scale)
            contained = [_card_object(plan, manifest, c, xform, False, image_url) for c in cards]
            if len(contained) == 1:
                contained[0]["Locked"] = placement.locked
                objects.append(contained[0])
                continue
            keys = sorted({c.deck_key for c in cards})
            refs = {r.key: r for r in plan.sheets.values()}
            objects.append(_object(
                "Deck", plan.deck_guids[placement.name], xform,
                Nickname=manifest.decks[placement.art].name, GMNotes=placement.name, Locked=placement.locked,
                HideWhenFaceDown=True, SidewaysCard=False, DeckIDs=[c.card_id for c in cards],
                CustomDeck={str(k): _custom_deck_entry(manifest, refs[k], _card_type(layout, placement.name), image_url)
                            for k in keys},
                ContainedObjects=contained))
        else:
            for card in cards:
                assert card.position is not None
                pos = (card.position[0], layout.surface_y + mat.thickness + 0.2, card.position[1])
                objects.append(_card_object(plan, manifest, card, transform(pos, rot, scale), placement.locked,
                                            image_url))

    objects.extend(_hand_objects(plan))
    objects.extend(_kit_objects(plan, image_url))

    # a card dropped on a zone's snap turns upright for the seat the zone faces; a zone with
    # snap_rotation false gets points without a Rotation key (position only: the API's getSnapPoints
    # rotation_snap false, the Object page; 115 of the 381 global snap points in ../shared/fixtures)
    snaps = [{"Position": _xyz((x, layout.snap_y, z)),
              **({"Rotation": _xyz((0.0, (rot_y + 180.0 * (zone.facing % 2)) % 360.0, 0.0))} if zone.snap_rotation else {})}
             for zone in layout.zones for x, z in zone.snap_positions()]
    snaps += [{"Position": _xyz(pos), "Rotation": _xyz(rot)} for pos, rot in board_snaps(layout)]

    tabs: dict[str, dict[str, Any]] = {}
    for tab in layout.notebook_tabs:
        tabs[str(len(tabs))] = {"title": tab.title, "body": notebook.get(tab.id, ""), "color": tab.color,
                                "visibleColor": _color(PLAYER_COLORS[tab.color]), "id": len(tabs)}
    if layout.seat_tabs:
        for seat in layout.seats:
            tabs[str(len(tabs))] = {"title": seat.color, "body": "", "color": seat.color,
                                    "visibleColor": _color(PLAYER_COLORS[seat.color]), "id": len(tabs)}

    save: dict[str, Any] = {
        "SaveName": game_name,
        "EpochTime": int(epoch),
        "Date": tts_date(epoch),
        "VersionNumber": TTS_VERSION,
        "GameMode": str(meta.get("game_mode", game_name)),
        "GameType": str(meta.get("game_type", "Game")),
        "GameComplexity": str(meta.get("game_complexity", "")),
        "Gravity": _num(meta.get("gravity", 0.5)),
        "PlayArea": _num(meta.get("play_area", 0.5)),
        "Table": str(meta.get("table", "Table_Square")),
        "Sky": str(meta.get("sky", "Sky_Museum")),
        "Note": str(meta.get("note", "")),
        "Rules": "",
        "XmlUI": xml_ui,
        "LuaScript": lua_script,
        "LuaScriptState": "",
        "PlayerCounts": [int(players[0]), int(players[1])],
        "Tags": [str(t) for t in meta.get("tags", [])],
        "ComponentTags": {"labels": []},
        "Hands": {"Enable": True, "DisableUnused": True, "Hiding": 0},
        "TabStates": tabs,
        "SnapPoints": snaps,
        "ObjectStates": objects,
    }
    playing_time = game_data.get("playing_time")
    if isinstance(playing_time, list) and len(playing_time) == 2:
        save["PlayingTime"] = [int(playing_time[0]), int(playing_time[1])]
    save["SaveName"] = save_name(game_name, save)
    return save
