"""Test support: a stubbed Tabletop Simulator API around :class:`~tts_builder.luasandbox.LuaSandbox`.

Kept apart from the sandbox (which ``check-lua`` uses in production) as
python-chess and PettingZoo keep their test helpers: nothing here runs when a
mod is built or checked.

:class:`FakeTTS`
    The TTS scripting API as a rules-enforcing mod uses it: objects by GUID,
    zones, hands, players, ``Turns``, ``Wait``, messages, ``Notes``, ``UI``,
    ``JSON`` and ``Global``. The harness drives events and the frame clock from
    Python, and ``save_and_reload`` checks that state survives
    ``onSave``/``onLoad``. The stub is generic: nothing in it knows a game.
"""

from __future__ import annotations

import copy
import json
import math
import random
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterable, Sequence
from typing import Any, NamedTuple

from lupa.lua52 import lua_type

from tts_builder.luasandbox import LuaSandbox, LuaSandboxError, _LuaTable

__all__ = ["ALL_COLORS", "CONTAINER_TYPES", "SNAP_RADIUS", "Call", "FakeObject", "FakePlayer", "FakeTTS", "FakeUI",
           "Message", "OBJECT_TYPES", "PLAYER_ACTIONS", "PLAYER_COLORS"]

PLAYER_COLORS = ("White", "Brown", "Red", "Orange", "Yellow", "Green", "Teal", "Blue", "Purple", "Pink")
"""TTS's seat colours, in TTS's order."""
ALL_COLORS = PLAYER_COLORS + ("Grey", "Black")
"""Seat colours plus the spectator (Grey) and the GM (Black)."""
PLAYER_ACTIONS = ("Copy", "Cut", "Delete", "FlipIncrementalLeft", "FlipIncrementalRight", "FlipOver",
                  "Group", "Paste", "PickUp", "Randomize", "RotateIncrementalLeft", "RotateIncrementalRight",
                  "RotateOver", "Select", "Under")
"""``Player.Action`` names. Their values are these positions from 0, following the docs' order."""

OBJECT_TYPES = {
    "Card": "Card", "CardCustom": "Card", "Deck": "Deck", "DeckCustom": "Deck",
    "Bag": "Bag", "Custom_Model_Bag": "Bag", "Infinite_Bag": "Infinite", "Custom_Model_Infinite_Bag": "Infinite",
    "Custom_Tile": "Tile", "Custom_Tile_Stack": "Tile", "Custom_Token": "Token", "Custom_Token_Stack": "Token",
    "Figurine_Custom": "Figurine", "Custom_Board": "Board", "Custom_Model": "Generic", "Custom_Model_Stack": "Generic",
    "ScriptingTrigger": "Scripting", "HandTrigger": "Hand",
}
"""A save's object ``Name`` -> the ``type`` TTS scripts see (``obj.type``); other names keep their own.
Card, Deck, Bag, Infinite, Scripting and Hand are documented; the tile, token, figurine and board
types follow TTS's custom-object categories (unverified in game)."""
CONTAINER_TYPES = ("Deck", "Bag", "Infinite")
"""Object types that hold other objects (``ContainedObjects``): take, put, getObjects, shuffle."""
SNAP_RADIUS = 1.0
"""How near a snap point a dropped object must land to snap to it. The API's ``getSnapPoints``
(Object page, docs/object.md; ../shared/docs/tts-format.md, ``SnapPoints``) gives each point
``position``, ``rotation`` and ``rotation_snap``: a dropped object moves onto the point and, where
``rotation_snap`` is true (the Snap Point tool's rotation snap; in a save a ``Rotation`` key on the
point, as 2705 of the 4335 snap points, global and attached, in the 55 real saves in
../shared/fixtures/tts_saves* carry), turns to its rotation. The radius is unmeasured (ported from branch i20b)."""
STACK_NAMES = ("Custom_Tile_Stack", "Custom_Token_Stack", "Custom_Model_Stack")
"""Stacks of identical, anonymous pieces: a ``Number``, no contained objects."""


class Message(NamedTuple):
    """A recorded message. ``color`` is the target colour; None means everyone, or the host for print/log."""

    kind: str  # broadcastToAll, broadcastToColor, printToAll, printToColor, print, log, Player.broadcast, ...
    text: str
    color: str | None = None
    tint: Any = None


class Call(NamedTuple):
    """A recorded state-changing call on an object: ``(guid, method, args)`` with Python args."""

    guid: str
    method: str
    args: tuple[Any, ...]


_FAKE_LUA = r"""
local api = ...
local G = _G
local rawget, rawset, setmetatable, getmetatable, type, tostring, select, error =
      rawget, rawset, setmetatable, getmetatable, type, tostring, select, error
local tconcat, sqrt = table.concat, math.sqrt

-- Vector: x/y/z fields, [1]/[2]/[3] aliases (pairs sees only the letters), a few methods.
local VKEYS = { 'x', 'y', 'z' }
local VM = {}
local VMT = {}
VMT.__index = function(t, k) local a = VKEYS[k] if a then return rawget(t, a) end return VM[k] end
VMT.__newindex = function(t, k, v) rawset(t, VKEYS[k] or k, v) end
VMT.__tostring = function(v) return 'Vector: { ' .. tostring(v.x) .. ', ' .. tostring(v.y) .. ', ' .. tostring(v.z) .. ' }' end
VMT.__eq = function(a, b) return a.x == b.x and a.y == b.y and a.z == b.z end
VMT.__add = function(a, b) return Vector(a.x + b.x, a.y + b.y, a.z + b.z) end
VMT.__sub = function(a, b) return Vector(a.x - b.x, a.y - b.y, a.z - b.z) end
VMT.__unm = function(a) return Vector(-a.x, -a.y, -a.z) end
VMT.__mul = function(a, b)
  if type(a) == 'number' then a, b = b, a end
  if type(b) == 'number' then return Vector(a.x * b, a.y * b, a.z * b) end
  return Vector(a.x * b.x, a.y * b.y, a.z * b.z)
end
function VM.copy(v) return Vector(v.x, v.y, v.z) end
function VM.get(v) return v.x, v.y, v.z end
function VM.sqrMagnitude(v) return v.x * v.x + v.y * v.y + v.z * v.z end
function VM.magnitude(v) return sqrt(v.x * v.x + v.y * v.y + v.z * v.z) end
function VM.sqrDistance(a, b) local x, y, z = a.x - b.x, a.y - b.y, a.z - b.z return x * x + y * y + z * z end
function VM.distance(a, b) return sqrt(VM.sqrDistance(a, b)) end
function VM.equals(a, b, margin)
  margin = margin or 1e-3
  return VM.sqrDistance(a, b) <= margin * margin
end
function VM.setAt(v, k, x) v[k] = x return v end
function Vector(x, y, z)
  if type(x) == 'table' then x, y, z = x.x or x[1], x.y or x[2], x.z or x[3] end
  return setmetatable({ x = x or 0, y = y or 0, z = z or 0 }, VMT)
end

-- Color: r/g/b/a with [1]..[4] aliases; Color.Red etc. for the seat colours.
local CKEYS = { 'r', 'g', 'b', 'a' }
local CMT = {}
CMT.__index = function(t, k) local a = CKEYS[k] if a then return rawget(t, a) end return nil end
CMT.__newindex = function(t, k, v) rawset(t, CKEYS[k] or k, v) end
CMT.__eq = function(p, q) return p.r == q.r and p.g == q.g and p.b == q.b and p.a == q.a end
local function new_color(r, g, b, a)
  if type(r) == 'table' then r, g, b, a = r.r or r[1], r.g or r[2], r.b or r[3], r.a or r[4] end
  return setmetatable({ r = r or 0, g = g or 0, b = b or 0, a = a or 1 }, CMT)
end
local PALETTE = api.palette
Color = setmetatable({}, {
  __call = function(_, ...) return new_color(...) end,
  __index = function(_, k) local c = PALETTE[k] if c then return new_color(c[1], c[2], c[3], 1) end end,
})
Color.new = new_color
function Color.fromString(s) local c = PALETTE[s] if c then return new_color(c[1], c[2], c[3], 1) end error('unknown colour ' .. tostring(s), 2) end

-- Messages, recorded on the Python side.
local record = api.message
function broadcastToAll(message, tint) record('broadcastToAll', tostring(message), nil, tint) return true end
function broadcastToColor(message, color, tint) record('broadcastToColor', tostring(message), color, tint) return true end
function printToAll(message, tint) record('printToAll', tostring(message), nil, tint) return true end
function printToColor(message, color, tint) record('printToColor', tostring(message), color, tint) return true end
function print(...)
  local n, t = select('#', ...), {}
  for i = 1, n do t[i] = tostring((select(i, ...))) end
  record('print', tconcat(t, '\t'), nil, nil)
end
local function log_text(value, label)
  local s = type(value) == 'table' and api.pretty(value) or tostring(value)
  if label ~= nil then s = tostring(label) .. s end
  return s
end
function log(value, label, tags) record('log', log_text(value, label), nil, tags) return true end
function logString(value, label) return log_text(value, label) end
function logStyle() return true end

-- Player: one instance per colour plus the manager's functions.
Player = {}
for colour, p in pairs(api.players) do Player[colour] = p end
Player.getPlayers = api.get_players
Player.getSpectators = api.get_spectators
Player.getColors = api.get_colors
Player.getAvailableColors = api.get_available_colors
Player.Action = {}
for i, name in ipairs(api.actions) do Player.Action[name] = i - 1 end

-- Turns: a proxy, so a script's write to turn_color is seen (onPlayerTurn fires next frame).
local turns = api.turns_store
local TURNS_FIELDS = { enable = true, type = true, order = true, reverse_order = true, skip_empty_hands = true,
  disable_interactations = true, pass_turns = true, turn_color = true }
local function order_list()
  local o = turns.order
  if type(o) ~= 'table' or #o == 0 then return api.get_seated() end
  return o
end
local function step_color(d)
  local o = order_list()
  local n = #o
  if n == 0 then return '' end
  if turns.reverse_order then d = -d end
  for i = 1, n do if o[i] == turns.turn_color then return o[((i - 1 + d) % n) + 1] end end
  return o[1]
end
local TurnsFns = {}
function TurnsFns.getTurnOrder() local o, r = order_list(), {} for i = 1, #o do r[i] = o[i] end return r end
function TurnsFns.getNextTurnColor() return step_color(1) end
function TurnsFns.getPreviousTurnColor() return step_color(-1) end
function TurnsFns.endTurn() Turns.turn_color = step_color(1) return true end
Turns = setmetatable({}, {
  __index = function(_, k) if TURNS_FIELDS[k] then return turns[k] end return TurnsFns[k] end,
  __newindex = function(_, k, v)
    if not TURNS_FIELDS[k] then error('Turns has no field ' .. tostring(k), 2) end
    local old = turns[k]
    turns[k] = v
    if k == 'turn_color' and v ~= old then api.turn_changed(v, old) end
  end,
})

Wait = { frames = api.wait_frames, time = api.wait_time, condition = api.wait_condition,
         stop = api.wait_stop, stopAll = api.wait_stop_all }
JSON = api.json
Notes = api.notes
UI = api.ui
WebRequest = {
  get = function(url, cb) return api.web('GET', url, cb) end,
  post = function(url, form, cb) return api.web('POST', url, cb) end,
  put = function(url, data, cb) return api.web('PUT', url, cb) end,
  delete = function(url, cb) return api.web('DELETE', url, cb) end,
  head = function(url, cb) return api.web('HEAD', url, cb) end,
  custom = function(url, method, download, data, headers, cb) return api.web(method, url, cb) end,
}

getObjectFromGUID = api.get_object
getObjects = api.get_objects
getAllObjects = api.get_objects
getObjectsWithTag = api.with_tag
getObjectsWithAnyTags = api.with_any_tags
getObjectsWithAllTags = api.with_all_tags
getSeatedPlayers = api.get_seated
destroyObject = function(obj) return obj.destruct() end
startLuaCoroutine = api.start_coroutine
addContextMenuItem = api.add_context_menu_item
clearContextMenu = api.clear_context_menu
addHotkey = api.add_hotkey

Global = { guid = '-1', type = 'Global', tag = 'Global', name = 'Global', UI = UI }
function Global.getGUID() return '-1' end
function Global.getName() return 'Global' end
function Global.getVar(name) return G[name] end
function Global.setVar(name, value) G[name] = value return true end
Global.getTable = Global.getVar
Global.setTable = Global.setVar
function Global.getSnapPoints() return api.get_snap_points() end
function Global.setSnapPoints(points) return api.set_snap_points(points) end
function Global.call(name, params)
  local f = G[name]
  if type(f) ~= 'function' then error('Global.call: no function ' .. tostring(name), 2) end
  return f(params)
end
self = Global

-- startLuaCoroutine: the coroutines live here; the harness resumes each once a frame.
local coroutines = {}
local function co_start(fn)
  coroutines[#coroutines + 1] = coroutine.create(fn)
  return #coroutines
end
local function co_step_all()
  local alive, failed = {}, nil
  for i = 1, #coroutines do
    local co = coroutines[i]
    local ok, r = coroutine.resume(co)
    if not ok and failed == nil then failed = r end
    if ok and coroutine.status(co) ~= 'dead' then alive[#alive + 1] = co end
  end
  coroutines = alive
  if failed ~= nil then error(failed, 0) end
  return #alive
end

local function make_response(method, url)
  return { url = url, method = method, is_done = true, is_error = true, error = 'offline (FakeTTS)',
           response_code = 0, text = '', download_progress = 1, upload_progress = 1 }
end

return Vector, co_start, co_step_all, make_response
"""

# The seat colours' RGB as TTS defines them.
_PALETTE = {
    "White": (1.0, 1.0, 1.0), "Brown": (0.443, 0.231, 0.09), "Red": (0.856, 0.1, 0.094),
    "Orange": (0.956, 0.392, 0.113), "Yellow": (0.905, 0.898, 0.172), "Green": (0.192, 0.701, 0.168),
    "Teal": (0.129, 0.694, 0.607), "Blue": (0.118, 0.53, 1.0), "Purple": (0.627, 0.125, 0.941),
    "Pink": (0.96, 0.439, 0.807), "Grey": (0.5, 0.5, 0.5), "Black": (0.25, 0.25, 0.25),
}


def _lua_str(value: Any) -> str:
    """Python value into the text TTS stores for a UI attribute (Lua's tostring style)."""
    if value is None:
        return ""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else format(value, ".14g")
    return str(value)


def _json_ready(value: Any) -> Any:
    """Converted Lua data into what json.dumps accepts, with string keys."""
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if isinstance(k, bool):
                key = "true" if k else "false"
            elif isinstance(k, (int, float, str)):
                key = _lua_str(k)
            else:
                raise TypeError(f"JSON.encode: cannot encode a key of type {type(k).__name__}")
            out[key] = _json_ready(v)
        return out
    if isinstance(value, list):
        return [_json_ready(v) for v in value]
    if value is None or isinstance(value, (str, int, float, bool)):
        return value
    if isinstance(value, (FakeObject, FakePlayer)):
        raise TypeError("JSON.encode: cannot encode object references; store GUIDs or colours")
    raise TypeError(f"JSON.encode: cannot encode a {type(value).__name__}")


class _Wait:
    __slots__ = ("id", "kind", "fn", "due", "period", "reps", "cond", "timeout_at", "timeout_fn", "args")

    def __init__(self, id: int, kind: str, fn: Any, due: float, *, period: float = 0.0, reps: int = 1,
                 cond: Any = None, timeout_at: float | None = None, timeout_fn: Any = None,
                 args: tuple[Any, ...] = ()) -> None:
        self.id, self.kind, self.fn, self.due = id, kind, fn, due
        self.period, self.reps, self.cond = period, reps, cond
        self.timeout_at, self.timeout_fn, self.args = timeout_at, timeout_fn, args


class FakeObject:
    """A TTS object, as scripts see it: call its methods dot-style, ``obj.getGUID()``.

    Harness code reads the state through the ``position``, ``rotation``, ``contents``,
    ``zones`` and ``destroyed`` properties. Lua cannot see those, and moves
    objects through :class:`FakeTTS`. Moving an object with ``setPosition`` does
    not change which zones it is in: the harness decides that with :meth:`FakeTTS.place`.
    """

    _lua_hidden = frozenset({"position", "rotation", "contents", "zones", "destroyed", "nickname",
                             "description", "gm_notes", "tags", "card_id", "buttons", "env", "container"})
    _lua_settable = frozenset({"interactable", "use_hands", "locked", "memo", "script_state", "script_code",
                               "hide_when_face_down", "tooltip", "drag_selectable", "auto_raise", "sticky",
                               "use_gravity", "use_grid", "use_snap_points", "max_typed_number", "value"})

    def __init__(self, fake: FakeTTS, guid: str, type: str, *, name: str = "", description: str = "",
                 gm_notes: str = "", tags: Iterable[str] = (), card_id: int | None = None,
                 position: Sequence[float] = (0.0, 1.0, 0.0), rotation: Sequence[float] = (0.0, 180.0, 0.0),
                 memo: str | None = None, locked: bool = False, owner: str | None = None,
                 tts_name: str | None = None, number: int = 0) -> None:
        self._fake = fake
        self.guid = guid
        self.type = type
        self.tag = type
        self.name = tts_name or {"Scripting": "ScriptingTrigger", "Hand": "HandTrigger"}.get(type, type)
        self._number = number  # stacks: how many identical pieces
        self._nickname = name
        self._description = description
        self._gm_notes = gm_notes
        self._tags = list(tags)
        self._card_id = card_id
        self._position = [float(v) for v in position]
        self._rotation = [float(v) for v in rotation]
        self._contents: list[FakeObject] = []
        self._container: FakeObject | None = None
        self._zones: list[FakeObject] = []  # zones this object is in
        self._members: list[FakeObject] = []  # for zones: objects inside
        self._destroyed = False
        self._env: Any = None
        self._vars: dict[str, Any] = {}
        self._script_source: str | None = None
        self._script_name: str | None = None
        self._buttons: list[dict[str, Any]] = []
        self._owner = owner  # hand zones: the colour
        self.memo = memo
        self.locked = locked
        self.interactable = True
        self.use_hands = type in ("Card", "Deck")
        self.hide_when_face_down = type in ("Card", "Deck")
        self.tooltip = True
        self.image_urls: list[str] = []
        self._custom: dict[str, Any] = {}  # the custom object's parameters as shown (getCustomObject)
        self._custom_pending: dict[str, Any] | None = None  # set by setCustomObject, shown at reload
        self.use_snap_points = True
        self._scale = [1.0, 1.0, 1.0]  # zones: the box's size (a save's Transform scale)
        self._sized = False  # zones: the size came from a save (a harness-made zone has none)
        self.held_by_color: str | None = None
        self.resting = True
        self.spawning = False
        self.script_state = ""
        self.script_code = ""
        self.value = 0
        self.UI = FakeUI(fake, owner_guid=guid)

    def __repr__(self) -> str:
        return f"<FakeObject {self.type} {self.guid} {self._nickname!r}>"

    # ----- harness-side views (hidden from Lua)

    @property
    def position(self) -> tuple[float, float, float]:
        return (self._position[0], self._position[1], self._position[2])

    @property
    def rotation(self) -> tuple[float, float, float]:
        return (self._rotation[0], self._rotation[1], self._rotation[2])

    @property
    def contents(self) -> list[FakeObject]:
        """Objects inside this container (top first), or inside this zone."""
        return list(self._contents if self.type not in ("Scripting", "Hand") else self._members)

    @property
    def zones(self) -> list[FakeObject]:
        return list(self._zones)

    @property
    def destroyed(self) -> bool:
        return self._destroyed

    @property
    def env(self) -> Any:
        """The object script's environment (a Lua table), or None."""
        return self._env

    @property
    def container(self) -> FakeObject | None:
        return self._container

    # ----- fields

    @property
    def is_face_down(self) -> bool:
        z = self._rotation[2] % 360.0
        return 90.0 < z < 270.0

    # ----- what a player sees (harness view)

    def hover_text(self) -> tuple[str, str]:
        """The name and description a player's hover shows. Knowledge Base, Object > Toggles:
        "Hide Face Down: this object's name/description are hidden if it is oriented face
        down" (``HideWhenFaceDown`` in a save); ``Tooltip`` off shows nothing."""
        if not self.tooltip or (self.hide_when_face_down and self.is_face_down):
            return ("", "")
        return (self._nickname, self._description)

    def visible_text(self, color: str) -> list[str]:
        """Every text of this object ``color`` can read: the tooltip, and the GM notes for the
        GM (Black) only (API: "GM Notes ... only visible to the Black (GM) player")."""
        out = [t for t in self.hover_text() if t]
        if color == "Black" and self._gm_notes:
            out.append(self._gm_notes)
        return out

    def visible_images(self) -> list[str]:
        """The image URLs a player's client loads for this object: both faces of a two-sided
        tile (its file names are public, face up or down)."""
        return [u for u in self.image_urls if u]

    # ----- identity and text

    def getGUID(self) -> str:
        return self.guid

    def getName(self) -> str:
        return self._nickname

    def setName(self, name: Any) -> bool:
        self._nickname = _lua_str(name)
        self._record("setName", self._nickname)
        return True

    def getDescription(self) -> str:
        return self._description

    def setDescription(self, text: Any) -> bool:
        self._description = _lua_str(text)
        self._record("setDescription", self._description)
        return True

    def getGMNotes(self) -> str:
        return self._gm_notes

    def setGMNotes(self, text: Any) -> bool:
        self._gm_notes = _lua_str(text)
        self._record("setGMNotes", self._gm_notes)
        return True

    def getTags(self) -> Any:
        return self._fake.sandbox.table(*self._tags)

    def setTags(self, tags: Any) -> bool:
        self._tags = [str(t) for t in self._fake.sandbox.from_lua(tags)]
        self._record("setTags", tuple(self._tags))
        return True

    def hasTag(self, tag: str) -> bool:
        return tag in self._tags

    def addTag(self, tag: str) -> bool:
        if tag in self._tags:
            return False
        self._tags.append(tag)
        self._record("addTag", tag)
        return True

    def removeTag(self, tag: str) -> bool:
        if tag not in self._tags:
            return False
        self._tags.remove(tag)
        self._record("removeTag", tag)
        return True

    # ----- transform

    def getPosition(self) -> Any:
        return self._fake._vector(self._position)

    def setPosition(self, v: Any) -> bool:
        self._position = self._fake._xyz(v)
        self._record("setPosition", tuple(self._position))
        self._fake._hand_catch(self)
        return True

    def setPositionSmooth(self, v: Any, collide: bool = False, fast: bool = False) -> bool:
        self._position = self._fake._xyz(v)
        self._record("setPositionSmooth", tuple(self._position))
        self._fake._hand_catch(self)
        return True

    def getRotation(self) -> Any:
        return self._fake._vector(self._rotation)

    def setRotation(self, v: Any) -> bool:
        self._rotation = self._fake._xyz(v)
        self._record("setRotation", tuple(self._rotation))
        return True

    def setRotationSmooth(self, v: Any, collide: bool = False, fast: bool = False) -> bool:
        self._rotation = self._fake._xyz(v)
        self._record("setRotationSmooth", tuple(self._rotation))
        return True

    def flip(self) -> bool:
        """Turn over at once (TTS animates the flip); no event fires, as in TTS."""
        self._rotation[2] = (self._rotation[2] + 180.0) % 360.0
        self._record("flip")
        return True

    # ----- custom objects. API, Object (api.tabletopsimulator.com/object): getCustomObject returns
    # the custom parameters (Custom Game Objects: a Custom_Tile's image, image_bottom, type,
    # thickness, stackable); setCustomObject on an existing object shows "only after reload";
    # reload() "respawns" the object and returns the new reference, the old one "no longer valid".

    def getCustomObject(self) -> Any:
        return self._fake.sandbox.to_lua(dict(self._custom))

    def setCustomObject(self, params: Any) -> bool:
        p = self._fake.sandbox.from_lua(params, empty_as="dict") if params is not None else {}
        self._custom_pending = dict(p) if isinstance(p, dict) else {}
        self._record("setCustomObject", dict(self._custom_pending))
        return True

    def reload(self) -> FakeObject:
        return self._fake._respawn(self)

    def getLock(self) -> bool:
        return bool(self.locked)

    def setLock(self, lock: bool) -> bool:
        self.locked = bool(lock)
        self._record("setLock", self.locked)
        return True

    def highlightOn(self, color: Any, duration: Any = None) -> bool:
        tint = self._fake.sandbox.from_lua(color, empty_as="dict")
        self._fake.highlights[self.guid] = tint
        self._record("highlightOn", tint, duration)
        return True

    def highlightOff(self, color: Any = None) -> bool:
        self._fake.highlights.pop(self.guid, None)
        self._record("highlightOff")
        return True

    # ----- data and containers

    def getData(self) -> Any:
        return self._fake.sandbox.to_lua(self._data())

    def getJSON(self, indented: bool = True) -> str:
        return json.dumps(self._data(), sort_keys=True, indent=2 if indented else None)

    def getQuantity(self) -> int:
        if self.name in STACK_NAMES:
            return self._number
        return len(self._contents) if self.type in CONTAINER_TYPES else -1

    def getObjects(self) -> Any:
        """Zones: the objects inside. Containers: TTS's info tables, top first (index 0)."""
        sb = self._fake.sandbox
        if self.type in ("Scripting", "Hand"):
            return sb.table(*self._members)
        if self.type in CONTAINER_TYPES:
            return sb.table(*[sb.to_lua({
                "index": i, "guid": o.guid, "name": o._nickname, "nickname": o._nickname,
                "description": o._description, "gm_notes": o._gm_notes, "memo": o.memo or "",
                "tags": list(o._tags), "lua_script": o._script_source or "", "lua_script_state": o.script_state,
            }) for i, o in enumerate(self._contents)])
        return sb.table()

    def getZones(self) -> Any:
        return self._fake.sandbox.table(*self._zones)

    def takeObject(self, params: Any = None) -> Any:
        """Take a contained object out (default the top, index 0). It then belongs to no zone.

        Understands ``index``, ``guid``, ``top``, ``position``, ``rotation``, ``flip`` and
        ``callback_function``, which is called with the object on the next frame. A deck
        left with one card turns into that card, as in TTS.
        """
        p = self._fake.sandbox.from_lua(params, empty_as="dict") if params is not None else {}
        if not isinstance(p, dict):
            p = {}
        if self.name in STACK_NAMES:  # a stack hands out a new single piece
            return self._fake._take_from_stack(self, position=p.get("position"), now=False)
        obj = self._fake._take(self, index=p.get("index"), guid=p.get("guid"), top=p.get("top", True),
                               position=p.get("position"), rotation=p.get("rotation"),
                               flip=bool(p.get("flip", False)), now=False)
        cb = params["callback_function"] if params is not None else None
        if obj is not None and cb is not None:
            self._fake._schedule("frames", cb, 1.0, args=(obj,))
        return obj

    def putObject(self, obj: FakeObject) -> Any:
        """Put ``obj`` on top of this container; ``onObjectEnterContainer`` fires next frame.

        With ``FakeTTS(container_frames=N)`` (N > 1) the object travels: it enters after 1 to N
        frames, in an order the script does not control, as TTS animates an object into a bag
        or deck (the shared runtime's New game waits up to 5 s for the deck to fill, because a
        putObject is not in the container at once)."""
        fake = self._fake
        if fake.container_frames > 1:
            delay = 1 + fake._travel_rng.randrange(fake.container_frames)
            fake._arrivals.append((fake.frame + delay, len(fake._arrivals), self, obj))
            return self
        fake._put(self, obj, now=False)
        return self

    def deal(self, count: int, player_color: str | None = None, index: int = 1) -> bool:
        """Deal ``count`` top cards into a player's hand zone (each seated player if no colour)."""
        colors = [player_color] if player_color else self._fake.seated_colors()
        for _ in range(int(count)):
            for c in colors:
                obj = self._fake._take(self, index=0, now=False)
                if obj is None:  # empty, or collapsed into its last card
                    return True
                hand = self._fake.hand_zone(c, int(index))
                self._fake._into_hand(obj, hand)  # held by the hand, as :meth:`FakeTTS.drop_at` says
                self._fake._set_zones(obj, [hand], now=False)
        return True

    def shuffle(self) -> bool:
        """Recorded only: the fake keeps the order, so replays stay deterministic."""
        self._record("shuffle")
        return True

    def destruct(self) -> bool:
        self._fake._destroy(self, now=False)
        return True

    destroy = destruct

    def isDestroyed(self) -> bool:
        return self._destroyed

    # ----- scripts

    def getVar(self, name: str) -> Any:
        if self._env is not None:
            return self._env[name]
        return self._vars.get(name)

    def setVar(self, name: str, value: Any) -> bool:
        if self._env is not None:
            self._env[name] = value
        else:
            self._vars[name] = value
        return True

    getTable = getVar
    setTable = setVar

    def call(self, function_name: str, params: Any = None) -> Any:
        if self._env is None:
            raise AttributeError(f"object {self.guid} has no script")
        fn = self._fake._rawget(self._env, function_name)
        if fn is None:
            raise AttributeError(f"object {self.guid}'s script has no function {function_name!r}")
        return self._fake.sandbox.call(fn, params)

    # ----- buttons

    def createButton(self, params: Any) -> bool:
        b = {"click_function": params["click_function"], "function_owner": params["function_owner"],
             "label": _lua_str(params["label"]), "tooltip": _lua_str(params["tooltip"])}
        self._buttons.append(b)
        self._record("createButton", b["label"])
        return True

    def editButton(self, params: Any) -> bool:
        i = int(params["index"] or 0)
        if not 0 <= i < len(self._buttons):
            return False
        for key in ("click_function", "function_owner"):
            if params[key] is not None:
                self._buttons[i][key] = params[key]
        for key in ("label", "tooltip"):
            if params[key] is not None:
                self._buttons[i][key] = _lua_str(params[key])
        self._record("editButton", i, self._buttons[i]["label"])
        return True

    def removeButton(self, index: int) -> bool:
        if not 0 <= int(index) < len(self._buttons):
            return False
        del self._buttons[int(index)]
        self._record("removeButton", int(index))
        return True

    def clearButtons(self) -> bool:
        self._buttons.clear()
        self._record("clearButtons")
        return True

    def getButtons(self) -> Any:
        sb = self._fake.sandbox
        return sb.table(*[sb.table(index=i, label=b["label"], tooltip=b["tooltip"],
                                   click_function=b["click_function"])
                          for i, b in enumerate(self._buttons)])

    @property
    def buttons(self) -> list[dict[str, Any]]:
        """Harness view: labels and tooltips of the object's buttons."""
        return [{"label": b["label"], "tooltip": b["tooltip"]} for b in self._buttons]

    # ----- internals

    def _record(self, method: str, *args: Any) -> None:
        self._fake.calls.append(Call(self.guid, method, args))

    def _data(self) -> dict[str, Any]:
        x, y, z = self._position
        rx, ry, rz = self._rotation
        d: dict[str, Any] = {
            "GUID": self.guid, "Name": self.name, "Nickname": self._nickname,
            "Description": self._description, "GMNotes": self._gm_notes, "Memo": self.memo or "",
            "Tags": list(self._tags), "Locked": bool(self.locked), "Hands": bool(self.use_hands),
            "Transform": {"posX": x, "posY": y, "posZ": z, "rotX": rx, "rotY": ry, "rotZ": rz,
                          "scaleX": 1, "scaleY": 1, "scaleZ": 1},
            "LuaScript": self._script_source or "", "LuaScriptState": self.script_state or "",
        }
        if self._card_id is not None:
            d["CardID"] = self._card_id
        if self.name in STACK_NAMES:
            d["Number"] = self._number
        if self._contents:
            d["ContainedObjects"] = [o._data() for o in self._contents]
            if self.type == "Deck":
                d["DeckIDs"] = [o._card_id for o in self._contents if o._card_id is not None]
        return d


class FakePlayer:
    """A ``Player`` instance: ``Player["Red"]``, or the player handed to events and UI callbacks."""

    _lua_hidden: frozenset[str] = frozenset()
    _lua_settable = frozenset({"team", "blindfolded", "promoted"})

    def __init__(self, fake: FakeTTS, color: str) -> None:
        self._fake = fake
        self.color = color
        self.steam_id: str | None = None
        self.host = False
        self.admin = False
        self.promoted = False
        self.team = "None"
        self.blindfolded = False

    def __repr__(self) -> str:
        return f"<FakePlayer {self.color}>"

    @property
    def seated(self) -> bool:
        return self.color in self._fake._seated

    @property
    def steam_name(self) -> str | None:
        return self._fake._seated.get(self.color)

    def getHandObjects(self, hand_index: int = 1) -> Any:
        zone = self._fake.hand_zone(self.color, int(hand_index), create=False)
        return self._fake.sandbox.table(*(zone._members if zone is not None else []))

    def getHandCount(self) -> int:
        return sum(1 for z in self._fake._hands if z._owner == self.color)

    def getHoldingObjects(self) -> Any:
        return self._fake.sandbox.table()

    def getSelectedObjects(self) -> Any:
        return self._fake.sandbox.table()

    def broadcast(self, message: Any, tint: Any = None) -> bool:
        self._fake._message("Player.broadcast", _lua_str(message), self.color, tint)
        return True

    def print(self, message: Any, tint: Any = None) -> bool:
        self._fake._message("Player.print", _lua_str(message), self.color, tint)
        return True


class FakeUI:
    """The runtime ``UI`` (Global's, or an object's ``obj.UI``), recorded by element id.

    ``elements[id]`` maps attribute names to the string values TTS would hold.
    ``show``/``hide`` set ``active``. ``values[id]`` holds an element's text value.
    ``setXml`` parses the XML, tolerantly, to fill both dicts. ``log`` lists every
    call as ``(function, args...)``.
    """

    _lua_hidden = frozenset({"elements", "values", "xml", "log", "owner_guid"})
    _lua_settable: frozenset[str] = frozenset()

    def __init__(self, fake: FakeTTS | None = None, owner_guid: str | None = None) -> None:
        self._fake = fake
        self.owner_guid = owner_guid
        self.elements: dict[str, dict[str, str]] = {}
        self.values: dict[str, str] = {}
        self.xml = ""
        self.log: list[tuple[Any, ...]] = []

    def setAttribute(self, id: str, attribute: str, value: Any) -> bool:
        self.elements.setdefault(str(id), {})[str(attribute)] = _lua_str(value)
        self.log.append(("setAttribute", id, attribute, _lua_str(value)))
        return True

    def getAttribute(self, id: str, attribute: str) -> str | None:
        return self.elements.get(str(id), {}).get(str(attribute))

    def setAttributes(self, id: str, data: Any) -> bool:
        attrs = data.items() if isinstance(data, _LuaTable) else dict(data).items()
        el = self.elements.setdefault(str(id), {})
        for k, v in attrs:
            el[str(k)] = _lua_str(v)
        self.log.append(("setAttributes", id, {str(k): _lua_str(v) for k, v in attrs}))
        return True

    def getAttributes(self, id: str) -> Any:
        assert self._fake is not None
        return self._fake.sandbox.to_lua(dict(self.elements.get(str(id), {})))

    def setValue(self, id: str, value: Any) -> bool:
        self.values[str(id)] = _lua_str(value)
        self.log.append(("setValue", id, _lua_str(value)))
        return True

    def getValue(self, id: str) -> str | None:
        return self.values.get(str(id))

    def show(self, id: str) -> bool:
        self.elements.setdefault(str(id), {})["active"] = "true"
        self.log.append(("show", id))
        return True

    def hide(self, id: str) -> bool:
        self.elements.setdefault(str(id), {})["active"] = "false"
        self.log.append(("hide", id))
        return True

    def setXml(self, xml: str) -> bool:
        self.xml = str(xml)
        self.elements.clear()
        self.values.clear()
        try:
            root = ET.fromstring(f"<root>{self.xml}</root>")
        except ET.ParseError:
            root = None
        if root is not None:
            for el in root.iter():
                ident = el.attrib.get("id")
                if ident is None:
                    continue
                self.elements[ident] = {k: v for k, v in el.attrib.items() if k != "id"}
                if el.text and el.text.strip():
                    self.values[ident] = el.text.strip()
        self.log.append(("setXml", self.xml))
        return True

    def getXml(self) -> str:
        return self.xml

    def _reload(self) -> None:
        # After a load, the UI is what its XML says: runtime changes are gone.
        xml, log = self.xml, self.log
        self.setXml(xml)
        self.log = log

    def active(self, id: str) -> bool:
        """Harness helper (Lua can see it, TTS has no such function): is the element shown?"""
        return self.elements.get(str(id), {}).get("active", "true").lower() != "false"


class _FakeNotes:
    """``Notes``: the on-screen notes text and the notebook tabs, with a call log."""

    _lua_hidden = frozenset({"text", "tabs", "log"})
    _lua_settable: frozenset[str] = frozenset()

    def __init__(self, fake: FakeTTS) -> None:
        self._fake = fake
        self.text = ""
        self.tabs: list[dict[str, Any]] = []
        self.log: list[tuple[Any, ...]] = []

    def getNotes(self) -> str:
        return self.text

    def setNotes(self, text: Any) -> bool:
        self.text = _lua_str(text)
        self.log.append(("setNotes", self.text))
        return True

    def getNotebookTabs(self) -> Any:
        sb = self._fake.sandbox
        return sb.table(*[sb.to_lua(dict(t, index=i)) for i, t in enumerate(self.tabs)])

    def addNotebookTab(self, params: Any) -> int:
        p = self._fake.sandbox.from_lua(params, empty_as="dict") if params is not None else {}
        tab = {"title": _lua_str(p.get("title", "")), "body": _lua_str(p.get("body", "")),
               "color": _lua_str(p.get("color", "Grey")) or "Grey"}
        self.tabs.append(tab)
        self.log.append(("addNotebookTab", dict(tab)))
        return len(self.tabs) - 1

    def editNotebookTab(self, params: Any) -> bool:
        p = self._fake.sandbox.from_lua(params, empty_as="dict")
        i = p.get("index")
        if not isinstance(i, int) or not 0 <= i < len(self.tabs):
            return False
        for key in ("title", "body", "color"):
            if key in p:
                self.tabs[i][key] = _lua_str(p[key])
        self.log.append(("editNotebookTab", i, dict(self.tabs[i])))
        return True

    def removeNotebookTab(self, index: int) -> bool:
        if not isinstance(index, int) or not 0 <= index < len(self.tabs):
            return False
        del self.tabs[index]
        self.log.append(("removeNotebookTab", index))
        return True


class _FakeJSON:
    """``JSON``: sorted keys and compact separators, so output is deterministic.

    Empty tables encode as ``[]``. Whole numbers encode without ``.0``. Object
    references are refused, as in TTS. ``decode`` turns JSON null into nil.
    """

    _lua_hidden: frozenset[str] = frozenset()
    _lua_settable: frozenset[str] = frozenset()

    def __init__(self, fake: FakeTTS) -> None:
        self._fake = fake

    def encode(self, value: Any) -> str:
        data = _json_ready(self._fake.sandbox.from_lua(value, empty_as="list"))
        return json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)

    def encode_pretty(self, value: Any) -> str:
        data = _json_ready(self._fake.sandbox.from_lua(value, empty_as="list"))
        return json.dumps(data, sort_keys=True, indent=4, ensure_ascii=False, allow_nan=False)

    def decode(self, text: Any) -> Any:
        if isinstance(text, bytes):
            text = text.decode("utf-8")
        return self._fake.sandbox.to_lua(json.loads(str(text)))


class FakeTTS:
    """A stubbed TTS scripting API installed into a :class:`LuaSandbox`'s globals.

    ``FakeTTS()`` makes its own sandbox. ``FakeTTS(sandbox)`` installs into the
    given one, which should be fresh. ``seated`` maps colour to Steam name, or
    lists colours. Lua gets: ``getObjectFromGUID``, ``getObjects``,
    ``getObjectsWithTag`` (and Any/All), ``getSeatedPlayers``, ``Player``,
    ``Turns``, ``Wait``, ``broadcastToAll``/``broadcastToColor``/``printToAll``/
    ``printToColor``/``print``/``log``, ``Notes``, ``UI``, ``JSON``, ``Global``
    and ``self``, ``Vector``, ``Color``, ``WebRequest`` (always fails, as if
    offline), ``startLuaCoroutine``, ``addContextMenuItem``, ``addHotkey`` and
    ``destroyObject``. There is no spawning and no physics. ``shuffle``
    keeps the order.

    On the Python side the harness builds the table (:meth:`spawn`,
    :meth:`spawn_deck`, :meth:`add_zone`, :meth:`hand_zone`), moves things and
    fires the matching events (:meth:`place`, :meth:`drop`, :meth:`drop_at`, :meth:`flip`,
    :meth:`put_into`, :meth:`take_from`, :meth:`set_turn`), fires any event
    (:meth:`fire`, :meth:`fire_object`), clicks UI and buttons
    (:meth:`click_ui`, :meth:`click_button`), advances the clock (:meth:`step`,
    :meth:`drain`) and checks persistence (:meth:`save_and_reload`).

    Harness-initiated changes fire their events at once. Changes a script
    makes, such as ``Turns.turn_color = ...``, ``putObject``, ``takeObject``,
    ``deal`` or ``destruct``, queue their events for the next frame, as TTS
    does. Events reach Global's handlers. An object script's handlers are
    called only through :meth:`fire_object`. Recordings: :attr:`messages` holds everything; :attr:`broadcasts`,
    :attr:`chat` (printToAll/printToColor), :attr:`prints` and :attr:`logs`
    split it by kind; :attr:`calls` holds object mutations,
    :attr:`highlights` guid to tint, :attr:`notes` (``.text``, ``.tabs``),
    :attr:`ui` (``.elements``, ``.values``) and :attr:`turn_log` colour changes.
    """

    def __init__(self, sandbox: LuaSandbox | None = None, *,
                 seated: dict[str, str] | Iterable[str] = ("White", "Red"), fps: int = 60,
                 container_frames: int = 1, travel_seed: int = 0, snap_radius: float = SNAP_RADIUS) -> None:
        self.sandbox = sandbox if sandbox is not None else LuaSandbox()
        self.fps = fps
        self.snap_radius = snap_radius
        """How near a snap point a drop must land to snap (:data:`SNAP_RADIUS`); 0 turns snapping off."""
        self.container_frames = container_frames
        self._travel_rng = random.Random(travel_seed)
        self._arrivals: list[tuple[int, int, FakeObject, FakeObject]] = []  # (frame due, order, container, obj)
        self.frame = 0
        self._seated: dict[str, str] = (dict(seated) if isinstance(seated, dict)
                                        else {c: f"Player {c}" for c in seated})
        self._players = {c: FakePlayer(self, c) for c in ALL_COLORS}
        self._scene: dict[str, FakeObject] = {}
        self._all: dict[str, FakeObject] = {}
        self._loaded: list[dict[str, FakeObject]] = []  # what load_save returned, by GUID
        self._hands: list[FakeObject] = []
        self.snap_points: list[dict[str, Any]] = []
        """Global snap points: ``{"position", "rotation", "rotation_snap", "tags"}`` (harness view)."""
        self._guid_counter = 0xA00000
        self.messages: list[Message] = []
        self.broadcasts: list[Message] = []
        self.chat: list[Message] = []
        self.prints: list[Message] = []
        self.logs: list[Message] = []
        self.calls: list[Call] = []
        self.highlights: dict[str, Any] = {}
        self.turn_log: list[tuple[str, str]] = []
        self.notes = _FakeNotes(self)
        self.ui = FakeUI(self)
        self.json = _FakeJSON(self)
        self.context_menu: dict[str, Any] = {}
        self.hotkeys: dict[str, Any] = {}
        self._global_source: str | None = None
        self._global_name = "Global.lua"
        self._turns_saved: dict[str, Any] = {
            "enable": False, "type": 1, "order": [], "reverse_order": False, "skip_empty_hands": False,
            "disable_interactations": False, "pass_turns": True, "turn_color": "",
        }
        self._install()

    # ------------------------------------------------------------------ installation

    def _install(self) -> None:
        sb = self.sandbox
        # lupa's Lua 5.2 bridge can hand Lua the wrong Python object once the
        # collector has cleared entries of its weak reference table (lupa issue
        # #293, open): getObjectFromGUID then returned a bound method of another
        # card. The fake passes many short-lived Python objects into Lua, so its
        # sandboxes run with the collector stopped; the memory cap still applies.
        # (check-lua passes only Lua tables and is not affected.)
        sb.runtime.execute("collectgarbage('stop')")
        self._waits: dict[int, _Wait] = {}
        self._wait_id = 0
        self._events: list[tuple[str, tuple[Any, ...]]] = []
        self._coroutine_count = 0
        self.context_menu = {}
        self.hotkeys = {}
        self._rawget = sb.runtime.eval("rawget")
        self._lua_type = lua_type
        self._turns = sb.to_lua(self._turns_saved)
        if not isinstance(self._turns["order"], _LuaTable):
            self._turns["order"] = sb.table()
        api = sb.table(
            palette=sb.to_lua({k: list(v) for k, v in _PALETTE.items()}),
            message=self._message,
            pretty=self.json.encode_pretty,
            players=sb.table(**self._players),
            actions=sb.table(*PLAYER_ACTIONS),
            get_players=lambda: sb.table(*[self._players[c] for c in self.seated_colors()]),
            get_spectators=lambda: sb.table(),
            get_colors=lambda: sb.table(*PLAYER_COLORS),
            get_available_colors=lambda: sb.table(*[c for c in PLAYER_COLORS if c not in self._seated]),
            get_seated=lambda: sb.table(*self.seated_colors()),
            turns_store=self._turns,
            turn_changed=self._turn_changed,
            wait_frames=self._wait_frames,
            wait_time=self._wait_time,
            wait_condition=self._wait_condition,
            wait_stop=self._wait_stop,
            wait_stop_all=self._wait_stop_all,
            json=self.json,
            notes=self.notes,
            ui=self.ui,
            web=self._web,
            get_object=lambda guid: self._scene.get(guid) if isinstance(guid, str) else None,
            get_snap_points=self._get_snap_points,
            set_snap_points=self._set_snap_points,
            get_objects=lambda: sb.table(*self._scene.values()),
            with_tag=lambda tag: sb.table(*[o for o in self._scene.values() if tag in o._tags]),
            with_any_tags=lambda tags: self._with_tags(tags, any),
            with_all_tags=lambda tags: self._with_tags(tags, all),
            start_coroutine=self._start_coroutine,
            add_context_menu_item=self._add_context_menu_item,
            clear_context_menu=self._clear_context_menu,
            add_hotkey=self._add_hotkey,
        )
        (self._vector_fn, self._co_start, self._co_step_all,
         self._make_response) = sb.runtime.execute(_FAKE_LUA, api, name="=FakeTTS")

    def _with_tags(self, tags: Any, mode: Callable[[Iterable[bool]], bool]) -> Any:
        wanted = [str(t) for t in self.sandbox.from_lua(tags)]
        return self.sandbox.table(*[o for o in self._scene.values() if wanted and mode(t in o._tags for t in wanted)])

    # ------------------------------------------------------------------ building the table

    def _new_guid(self) -> str:
        while True:
            self._guid_counter += 1
            guid = f"{self._guid_counter:06x}"
            if guid not in self._all:
                return guid

    def _make(self, type: str, guid: str | None, **kw: Any) -> FakeObject:
        guid = guid or self._new_guid()
        if guid in self._all and not self._all[guid]._destroyed:
            raise ValueError(f"GUID {guid} is already in use")
        face_down = kw.pop("face_down", False)
        rotation = list(kw.pop("rotation", (0.0, 180.0, 0.0)))
        if face_down:
            rotation[2] = 180.0
        obj = FakeObject(self, guid, type, rotation=rotation, **kw)
        self._all[guid] = obj
        return obj

    def spawn(self, type: str = "Card", *, guid: str | None = None, name: str = "", description: str = "",
              gm_notes: str = "", tags: Iterable[str] = (), card_id: int | None = None,
              position: Sequence[float] = (0.0, 1.0, 0.0), rotation: Sequence[float] = (0.0, 180.0, 0.0),
              face_down: bool = False, memo: str | None = None, locked: bool = False,
              zones: Iterable[FakeObject] = ()) -> FakeObject:
        """Put a new object on the table, in ``zones``. No events fire."""
        obj = self._make(type, guid, name=name, description=description, gm_notes=gm_notes, tags=tags,
                         card_id=card_id, position=position, rotation=rotation, face_down=face_down,
                         memo=memo, locked=locked)
        self._scene[obj.guid] = obj
        self._set_zones(obj, list(zones), fire=False)
        return obj

    def spawn_deck(self, cards: Iterable[dict[str, Any]], *, guid: str | None = None, name: str = "",
                   tags: Iterable[str] = (), position: Sequence[float] = (0.0, 1.0, 0.0),
                   face_down: bool = True, zones: Iterable[FakeObject] = ()) -> FakeObject:
        """A deck holding cards made from keyword dicts (as for :meth:`spawn`), top card first."""
        deck = self.spawn("Deck", guid=guid, name=name, tags=tags, position=position, face_down=face_down,
                          zones=zones)
        for spec in cards:
            spec = dict(spec)
            spec.setdefault("face_down", face_down)
            spec.pop("zones", None)
            card = self._make(spec.pop("type", "Card"), spec.pop("guid", None), **spec)
            card._container = deck
            deck._contents.append(card)
        return deck

    def add_zone(self, *, guid: str | None = None, name: str = "", tags: Iterable[str] = (),
                 position: Sequence[float] = (0.0, 1.0, 0.0)) -> FakeObject:
        """A scripting zone; its ``getObjects()`` lists what :meth:`place` put in it."""
        zone = self._make("Scripting", guid, name=name, tags=tags, position=position, rotation=(0, 0, 0))
        self._scene[zone.guid] = zone
        return zone

    def add_hand(self, color: str, *, guid: str | None = None,
                 position: Sequence[float] = (0.0, 1.0, 0.0)) -> FakeObject:
        """A hand zone owned by ``color`` (a save's ``HandTrigger``); it comes after the colour's other hands."""
        zone = self._make("Hand", guid, name=f"{color} hand", position=position, rotation=(0, 0, 0), owner=color)
        self._scene[zone.guid] = zone
        self._hands.append(zone)
        return zone

    def load_save(self, save: dict[str, Any]) -> dict[str, FakeObject]:
        """Lay a save's table out: every object of ``ObjectStates`` (zones, hands from
        ``HandTrigger`` objects, containers with their contents, stacks with their
        ``Number``) and the global ``SnapPoints``. No events fire and no script runs.
        Returns the objects by GUID (contained ones included)."""
        loaded: dict[str, FakeObject] = {}
        self._loaded.append(loaded)  # kept current: an object a script reloads is replaced in it
        for data in save.get("ObjectStates") or []:
            self._load_object(data, None, loaded)
        self.snap_points = []
        for point in save.get("SnapPoints") or []:
            rotation = point.get("Rotation")
            self.snap_points.append({
                "position": self._xyz(point.get("Position", {})),
                "rotation": self._xyz(rotation) if rotation is not None else [0.0, 0.0, 0.0],
                "rotation_snap": rotation is not None, "tags": [str(t) for t in point.get("Tags", [])]})
        return loaded

    def _load_object(self, data: dict[str, Any], container: FakeObject | None,
                     loaded: dict[str, FakeObject]) -> FakeObject:
        name = str(data["Name"])
        t = data.get("Transform", {})
        pos = (t.get("posX", 0.0), t.get("posY", 0.0), t.get("posZ", 0.0))
        rot = (t.get("rotX", 0.0), t.get("rotY", 0.0), t.get("rotZ", 0.0))
        guid = data.get("GUID") or None
        if name in ("HandTrigger", "ScriptingTrigger") and container is None:
            if name == "HandTrigger":
                obj = self.add_hand(str(data.get("FogColor", "White")), guid=guid, position=pos)
            else:
                obj = self.add_zone(guid=guid, name=data.get("Nickname", ""), tags=data.get("Tags", []), position=pos)
            obj._scale = [float(t.get(k, 1.0)) for k in ("scaleX", "scaleY", "scaleZ")]
            obj._sized = True
            obj._rotation = [float(v) for v in rot]
        else:
            obj = self._make(OBJECT_TYPES.get(name, name), guid, name=data.get("Nickname", ""),
                             description=data.get("Description", ""), gm_notes=data.get("GMNotes", ""),
                             tags=data.get("Tags", []), card_id=data.get("CardID"), position=pos, rotation=rot,
                             memo=data.get("Memo"), locked=bool(data.get("Locked", False)), tts_name=name,
                             number=int(data.get("Number", 0) or 0))
            if "HideWhenFaceDown" in data:
                obj.hide_when_face_down = bool(data["HideWhenFaceDown"])
            obj.tooltip = bool(data.get("Tooltip", True))
            image = data.get("CustomImage") or {}
            obj.image_urls = [str(image.get("ImageURL", "")), str(image.get("ImageSecondaryURL", ""))]
            if "CustomTile" in image:  # what getCustomObject gives (API, Custom Game Objects: Custom Tile)
                tile = image["CustomTile"]
                obj._custom = {"image": obj.image_urls[0], "image_bottom": obj.image_urls[1],
                               "type": tile.get("Type", 0), "thickness": tile.get("Thickness", 0.5),
                               "stackable": bool(tile.get("Stackable", False))}
            if container is None:
                self._scene[obj.guid] = obj
            else:
                obj._container = container
                container._contents.append(obj)
            for child in data.get("ContainedObjects") or []:
                self._load_object(child, obj, loaded)
        loaded[obj.guid] = obj
        return obj

    def _take_from_stack(self, stack: FakeObject, *, position: Any = None, now: bool) -> FakeObject | None:
        """One piece off a stack of identical pieces: a new object (new GUID), the stack one fewer."""
        if stack._number <= 0:
            return None
        stack._number -= 1
        piece = self._make(stack.type, None, name=stack._nickname, description=stack._description,
                           gm_notes=stack._gm_notes, tags=stack._tags,
                           position=self._xyz(position) if position is not None else stack._position,
                           rotation=stack._rotation, tts_name=stack.name.replace("_Stack", ""))
        self._scene[piece.guid] = piece
        stack._record("takeObject", piece.guid)
        return piece

    def _get_snap_points(self) -> Any:
        sb = self.sandbox
        return sb.table(*[sb.table(position=self._vector(p["position"]), rotation=self._vector(p["rotation"]),
                                   rotation_snap=p["rotation_snap"], tags=sb.table(*p["tags"]))
                          for p in self.snap_points])

    def _set_snap_points(self, points: Any) -> bool:
        out = []
        for p in self.sandbox.from_lua(points, empty_as="list") or []:
            rotation = p.get("rotation")
            out.append({"position": self._xyz(p.get("position", {})),
                        "rotation": self._xyz(rotation) if rotation is not None else [0.0, 0.0, 0.0],
                        "rotation_snap": bool(p.get("rotation_snap", False)), "tags": [str(t) for t in p.get("tags", [])]})
        self.snap_points = out
        return True

    def hand_zone(self, color: str, index: int = 1, *, create: bool = True) -> Any:
        """The colour's ``index``-th hand zone (1-based), created on first use."""
        mine = [z for z in self._hands if z._owner == color]
        if len(mine) >= index:
            return mine[index - 1]
        if not create:
            return None
        while len(mine) < index:
            zone = self._make("Hand", None, name=f"{color} hand", rotation=(0, 0, 0), owner=color)
            self._scene[zone.guid] = zone
            self._hands.append(zone)
            mine.append(zone)
        return mine[index - 1]

    def player(self, color: str) -> FakePlayer:
        return self._players[color]

    def seated_colors(self) -> list[str]:
        return [c for c in PLAYER_COLORS if c in self._seated]

    def seat(self, color: str, steam_name: str | None = None) -> None:
        self._seated[color] = steam_name or f"Player {color}"

    def unseat(self, color: str) -> None:
        self._seated.pop(color, None)

    def scene(self) -> list[FakeObject]:
        """The objects on the table, in creation order (zones included; contained objects not)."""
        return list(self._scene.values())

    def _respawn(self, obj: FakeObject) -> FakeObject:
        """``obj.reload()``: a new object in its place with the custom parameters set since (API,
        Object, reload: "deleted and respawned instantly ... its old Object reference will no longer
        be valid"), the same GUID (API, Introduction, GUIDs: a new GUID is given only to an object
        whose GUID another object holds; the old one is gone), position, rotation, names, flags
        and zones. The old reference is destroyed; the harness's maps of loaded objects follow."""
        new = copy.copy(obj)
        new._custom = dict(obj._custom, **(obj._custom_pending or {}))
        new._custom_pending = None
        new.image_urls = [str(new._custom.get("image", "")),
                          str(new._custom.get("image_bottom") or new._custom.get("image", ""))]
        new._position, new._rotation, new._scale = list(obj._position), list(obj._rotation), list(obj._scale)
        new._tags, new._zones, new._buttons = list(obj._tags), list(obj._zones), list(obj._buttons)
        new._vars = dict(obj._vars)
        for zone in new._zones:
            zone._members = [new if m is obj else m for m in zone._members]
        obj._destroyed = True
        obj._zones = []
        if obj.guid in self._scene:
            self._scene[obj.guid] = new
        self._all[obj.guid] = new
        for loaded in self._loaded:
            if loaded.get(obj.guid) is obj:
                loaded[obj.guid] = new
        self.calls.append(Call(obj.guid, "reload", ()))
        return new

    def get_object(self, guid: str) -> FakeObject | None:
        """Any object ever made with this GUID, including contained and destroyed ones."""
        return self._all.get(guid)

    # ------------------------------------------------------------------ moving things (harness side)

    def place(self, obj: FakeObject, *zones: FakeObject, fire: bool = True) -> None:
        """Make ``obj`` be in exactly ``zones`` (none: in no zone). Leave and enter events fire."""
        self._set_zones(obj, list(zones), fire=fire)

    def drop(self, obj: FakeObject, player_color: str, *zones: FakeObject,
             position: Sequence[float] | None = None) -> Any:
        """A player drops ``obj`` into ``zones``: zone events, then ``onObjectDrop``. Returns its result."""
        if position is not None:
            obj._position = [float(v) for v in position]
        self._snap(obj)
        self._set_zones(obj, list(zones), fire=True)
        return self.fire("onObjectDrop", player_color, obj)

    def _snap(self, obj: FakeObject) -> None:
        """A dropped object lands on the nearest global snap point within :attr:`snap_radius`
        (x and z; it keeps its height) and, where the point snaps rotation, turns to the point's
        y rotation, keeping its flip (see :data:`SNAP_RADIUS`)."""
        if not obj.use_snap_points or not self.snap_points or self.snap_radius <= 0:
            return
        x, z = obj._position[0], obj._position[2]
        best = min(self.snap_points, key=lambda p: (p["position"][0] - x) ** 2 + (p["position"][2] - z) ** 2)
        px, pz = best["position"][0], best["position"][2]
        if (px - x) ** 2 + (pz - z) ** 2 > self.snap_radius ** 2:
            return
        obj._position[0], obj._position[2] = px, pz
        if best["rotation_snap"]:
            obj._rotation[1] = best["rotation"][1] % 360.0

    def zones_at(self, position: Sequence[float]) -> list[FakeObject]:
        """The scripting and hand zones whose box holds ``position`` seen from above (x and z, in
        the zone's own turn; a save's zone is a box of its Transform's scale about its position,
        ../shared/docs/tts-format.md, ``ScriptingTrigger``/``HandTrigger``). Height is ignored: an
        object lying on the table is in the zones drawn over it."""
        out = []
        for zone in self._scene.values():
            if zone.type not in ("Scripting", "Hand") or zone._destroyed:
                continue
            dx, dz = position[0] - zone._position[0], position[2] - zone._position[2]
            t = math.radians(zone._rotation[1])
            lx, lz = dx * math.cos(t) - dz * math.sin(t), dx * math.sin(t) + dz * math.cos(t)
            if abs(lx) <= zone._scale[0] / 2 + 1e-9 and abs(lz) <= zone._scale[2] / 2 + 1e-9:
                out.append(zone)
        return out

    def drop_at(self, obj: FakeObject, player_color: str, position: Sequence[float],
                rotation_y: float | None = None, *, pick_up: bool = True,
                landed: Callable[[], None] | None = None) -> Any:
        """A player picks ``obj`` up (``onObjectPickUp``), turns it to ``rotation_y`` if given and
        drops it at ``position``: it snaps (:meth:`_snap`), its zones become the ones under where
        it came to rest (:meth:`zones_at`), leave and enter events fire, then ``onObjectDrop``.

        A card (an object that uses hands) dropped in a hand zone is held by that hand, as TTS
        does: the API's ``Player.getHandObjects`` lists it (docs/player/instance.md), its owner
        sees its face and the others its back (Knowledge Base, Hands), and it lies in the hand
        zone; any other object dropped there is not in the hand (a hand holds cards only).
        ``landed`` is called as the piece lands, before any handler runs (a harness looking at
        what every seat saw: a card played face up that the mod then turns face down)."""
        if obj._container is not None:
            raise ValueError(f"{obj!r} is in {obj._container!r}: take it out first")
        if pick_up:
            self.fire("onObjectPickUp", player_color, obj)
        if rotation_y is not None:
            obj._rotation[1] = float(rotation_y) % 360.0
        obj._position = [float(v) for v in position]
        self._snap(obj)
        zones = self.zones_at(obj._position)
        hand = next((z for z in zones if z.type == "Hand"), None)
        if hand is not None and obj.use_hands:
            self._into_hand(obj, hand)
            zones = [hand]
        else:
            zones = [z for z in zones if z.type != "Hand"]
        if landed is not None:  # the harness looks at the table as the piece lands, before any handler
            held = obj._zones
            obj._zones = [z for z in held if z.type != "Hand" or z in zones]
            landed()
            obj._zones = held
        self._set_zones(obj, zones, fire=True)
        return self.fire("onObjectDrop", player_color, obj)

    @staticmethod
    def _into_hand(obj: FakeObject, hand: FakeObject) -> None:
        """A card taken into a hand lies in the hand zone face up: TTS shows a hand's cards face up
        to their owner, and a card dragged out of a hand comes out as it was shown there (Knowledge
        Base, Hands; unverified in game: how TTS turns it is not documented)."""
        obj._position = list(hand._position)
        obj._rotation[2] = 0.0

    def _hand_catch(self, obj: FakeObject) -> None:
        """A script moved ``obj``: a card that comes to lie in a hand zone is taken into that hand,
        and one moved out of its hand leaves it (events next frame). TTS's hands catch cards
        that reach them however they move: scripts deal by moving cards into the hand area
        (this project's runtime ``Tabletop.sync``, and ``getHandObjects`` lists them after).
        Other zones, and hands the harness made (no size: :meth:`hand_zone`), are the harness's
        to decide (:meth:`place`), as before."""
        if obj._container is not None or not obj.use_hands or not self._hands:
            return
        hand = next((z for z in self.zones_at(obj._position) if z.type == "Hand" and z._sized), None)
        old = [z for z in obj._zones if z.type == "Hand" and z._sized]
        if hand is not None and old != [hand]:
            self._into_hand(obj, hand)
            self._set_zones(obj, [z for z in obj._zones if z.type != "Hand"] + [hand], now=False)
        elif hand is None and old:
            self._set_zones(obj, [z for z in obj._zones if z.type != "Hand"], now=False)

    def held_in_hand(self, obj: FakeObject) -> str | None:
        """The colour whose hand holds ``obj``, or None."""
        return next((z._owner for z in obj._zones if z.type == "Hand"), None)

    # ------------------------------------------------------------------ what a player sees

    def hidden_from(self, obj: FakeObject, color: str) -> bool:
        """Is ``obj``'s face hidden from ``color``: in a container, face down, or held in another
        colour's hand (Knowledge Base, Hands: the others see a hand card's back)."""
        if obj._container is not None:
            return True
        owner = self.held_in_hand(obj)
        if owner is not None:
            return owner != color
        return obj.is_face_down

    def seen_by(self, obj: FakeObject, color: str) -> dict[str, str]:
        """What ``color`` sees of ``obj`` as it lies: the tooltip's name and description (hidden
        face down or in another's hand where ``HideWhenFaceDown`` is on, Knowledge Base, Object >
        Toggles; none with ``Tooltip`` off) and the image URLs its client loads (both faces of a
        two-sided tile: the file names are public whichever side is up)."""
        if not obj.tooltip or (self.hidden_from(obj, color) and obj.hide_when_face_down):
            name, description = "", ""
        else:
            name, description = obj._nickname, obj._description
        return {"name": name, "description": description, "images": " ".join(obj.visible_images())}

    def player_view(self, color: str, *, since: int = 0) -> list[str]:
        """Every text and image URL ``color`` can see: each object on the table as it lies
        (:meth:`seen_by`; a bag or deck shows its own, not its contents'), the buttons' labels and
        tooltips, the Global panel's shown values and attributes' text, the notes and the notebook
        tabs the colour may read (a tab of another colour is that player's: API, Notes), and the
        chat and broadcasts sent to everyone or to the colour (API, base: broadcastToAll,
        broadcastToColor, printToAll, printToColor; Player.broadcast/print) from message ``since``
        on. The GM (Black) also reads GM notes (:meth:`FakeObject.visible_text`)."""
        out: list[str] = []
        for obj in self._scene.values():
            if obj._destroyed or obj.type in ("Scripting", "Hand"):
                continue
            seen = self.seen_by(obj, color)
            out += [seen["name"], seen["description"], seen["images"]]
            if color == "Black":
                out.append(obj._gm_notes)
            out += [t for b in obj._buttons for t in (b["label"], b["tooltip"])]
        out += [v for k, v in self.ui.values.items() if self.ui.active(k)]
        out += [a.get("text", "") + " " + a.get("tooltip", "") for k, a in self.ui.elements.items() if self.ui.active(k)]
        out.append(self.notes.text)
        out += [t["title"] + " " + t["body"] for t in self.notes.tabs if t.get("color") in ("Grey", color, "", None)]
        out += [m.text for m in self.messages[since:]
                if m.kind in ("broadcastToAll", "broadcastToColor", "printToAll", "printToColor",
                              "Player.broadcast", "Player.print") and m.color in (None, color)]
        return [t for t in out if t and t.strip()]

    def flip(self, obj: FakeObject, player_color: str) -> bool:
        """A player flips ``obj``. ``onPlayerAction`` may veto (returns False); else ``onObjectRotate`` fires."""
        if self.fire("onPlayerAction", self._players[player_color], self._action("FlipOver"),
                     self.sandbox.table(obj)) is False:
            return False
        old_spin, old_flip = obj._rotation[1], obj._rotation[2]
        obj._rotation[2] = (obj._rotation[2] + 180.0) % 360.0
        self.fire("onObjectRotate", obj, obj._rotation[1], obj._rotation[2], player_color, old_spin, old_flip)
        return True

    def peek(self, obj: FakeObject, player_color: str) -> tuple[str, str]:
        """A player peeks at ``obj`` (Alt+Shift): ``onObjectPeek(object, player_color)`` fires (API,
        Events) and the peeker alone sees the underside's name and description, whatever
        ``HideWhenFaceDown`` says; what the others learn is what the mod's handler tells them."""
        self.fire("onObjectPeek", obj, player_color)
        return (obj._nickname, obj._description)

    def put_into(self, container: FakeObject, obj: FakeObject, *, bottom: bool = False) -> bool:
        """``obj`` enters ``container`` unless ``tryObjectEnterContainer`` returns false."""
        if self.fire("tryObjectEnterContainer", container, obj) is False:
            return False
        self._put(container, obj, now=True, bottom=bottom)
        return True

    def take_from(self, container: FakeObject, *, index: int = 0, guid: str | None = None,
                  zones: Iterable[FakeObject] = ()) -> FakeObject:
        """Take an object out (top by default) into ``zones``, firing leave-container and enter-zone events."""
        obj = self._take(container, index=index, guid=guid, now=True)
        if obj is None:
            raise ValueError(f"{container!r} has no such object")
        self._set_zones(obj, list(zones), fire=True)
        return obj

    def set_turn(self, color: str, *, fire: bool = True) -> Any:
        """Make it ``color``'s turn and fire ``onPlayerTurn(player, previous_player)``."""
        old = self._turns["turn_color"]
        self._turns["turn_color"] = color
        self.turn_log.append((old or "", color))
        if fire and color != old:
            prev = self._players.get(old) if old else None
            return self.fire("onPlayerTurn", self._players[color], prev)
        return None

    @property
    def turn_color(self) -> str:
        return str(self._turns["turn_color"] or "")

    # ------------------------------------------------------------------ events

    def fire(self, event_name: str, *args: Any) -> Any:
        """Call Global's handler ``event_name(*args)`` if it is defined; return its result (None if not)."""
        fn = self.sandbox.globals[event_name]
        if fn is None or lua_type(fn) != "function":
            return None
        return self.sandbox.call(fn, *args)

    def fire_object(self, obj: FakeObject, event_name: str, *args: Any) -> Any:
        """Call the handler that ``obj``'s own script defines, if any."""
        if obj._env is None:
            return None
        fn = self._rawget(obj._env, event_name)
        if fn is None or lua_type(fn) != "function":
            return None
        return self.sandbox.call(fn, *args)

    def click_ui(self, function_name: str, player_color: str, value: Any = "-1",
                 element_id: str | None = None, *, owner: FakeObject | None = None) -> Any:
        """An XmlUI callback, ``fn(player, value, id)``, in Global or in ``owner``'s script."""
        env = owner._env if owner is not None else self.sandbox.globals
        fn = self._rawget(env, function_name) if env is not None else None
        if fn is None:
            raise LuaSandboxError(f"no UI handler {function_name!r}")
        return self.sandbox.call(fn, self._players[player_color], value, element_id)

    def click_button(self, obj: FakeObject, button: int | str, player_color: str, alt_click: bool = False) -> Any:
        """Click a button made with ``createButton`` (by index or label): ``fn(obj, color, alt_click)``."""
        if isinstance(button, str):
            matches = [b for b in obj._buttons if b["label"] == button]
            if not matches:
                raise LuaSandboxError(f"{obj!r} has no button {button!r}")
            b = matches[0]
        else:
            b = obj._buttons[button]
        owner = b["function_owner"]
        env = owner._env if isinstance(owner, FakeObject) else self.sandbox.globals
        fn = self._rawget(env, b["click_function"]) if env is not None else None
        if fn is None:
            raise LuaSandboxError(f"no click function {b['click_function']!r}")
        return self.sandbox.call(fn, obj, player_color, alt_click)

    def click_context_menu(self, label: str, player_color: str) -> Any:
        return self.sandbox.call(self.context_menu[label], player_color)

    def _action(self, name: str) -> int:
        return PLAYER_ACTIONS.index(name)

    def _post(self, event_name: str, *args: Any) -> None:
        self._events.append((event_name, args))

    def _emit(self, now: bool, event_name: str, *args: Any) -> None:
        if now:
            self.fire(event_name, *args)
        else:
            self._post(event_name, *args)

    def _set_zones(self, obj: FakeObject, zones: list[FakeObject], *, fire: bool = True,
                   now: bool = True) -> None:
        for z in zones:
            if z.type not in ("Scripting", "Hand"):
                raise ValueError(f"{z!r} is not a zone")
        old = list(obj._zones)
        for z in old:
            if z not in zones:
                z._members.remove(obj)
                obj._zones.remove(z)
                if fire:
                    self._emit(now, "onObjectLeaveZone", z, obj)
        for z in zones:
            if z not in old:
                z._members.append(obj)
                obj._zones.append(z)
                if fire:
                    self._emit(now, "onObjectEnterZone", z, obj)

    def _put(self, container: FakeObject, obj: FakeObject, *, now: bool, bottom: bool = False) -> None:
        if obj is container:
            raise ValueError("an object cannot enter itself")
        self._set_zones(obj, [], fire=True, now=now)  # it leaves the table, so it leaves its zones
        self._scene.pop(obj.guid, None)
        if obj._container is not None:
            obj._container._contents.remove(obj)
        obj._container = container
        if bottom:
            container._contents.append(obj)
        else:
            container._contents.insert(0, obj)
        self._emit(now, "onObjectEnterContainer", container, obj)

    def _take(self, container: FakeObject, *, index: Any = None, guid: Any = None, top: Any = True,
              position: Any = None, rotation: Any = None, flip: bool = False, now: bool) -> FakeObject | None:
        items = container._contents
        if not items:
            return None
        if guid is not None:
            found = [o for o in items if o.guid == guid]
            if not found:
                return None
            obj = found[0]
        elif index is not None:
            if not 0 <= int(index) < len(items):
                return None
            obj = items[int(index)]
        else:
            obj = items[0] if top is not False else items[-1]
        items.remove(obj)
        obj._container = None
        obj._position = self._xyz(position) if position is not None else list(container._position)
        obj._rotation = self._xyz(rotation) if rotation is not None else list(container._rotation)
        if flip:
            obj._rotation[2] = (obj._rotation[2] + 180.0) % 360.0
        self._scene[obj.guid] = obj
        self._emit(now, "onObjectLeaveContainer", container, obj)
        if position is not None:
            self._hand_catch(obj)  # taken out onto a hand: the hand holds it
        if container.type == "Deck" and len(items) == 1:
            # TTS turns a one-card deck into that card, in the deck's place.
            last = items.pop()
            last._container = None
            last._position = list(container._position)
            last._rotation = list(container._rotation)
            self._scene[last.guid] = last
            zones = list(container._zones)
            self._destroy(container, now=now)
            self._set_zones(last, zones, fire=True, now=now)
        return obj

    def _destroy(self, obj: FakeObject, *, now: bool) -> None:
        if obj._destroyed:
            return
        self._emit(now, "onObjectDestroy", obj)
        self._set_zones(obj, [], fire=True, now=now)
        obj._destroyed = True
        for member in list(obj._members):
            self._set_zones(member, [z for z in member._zones if z is not obj], fire=False)
        self._scene.pop(obj.guid, None)
        if obj._container is not None:
            obj._container._contents.remove(obj)
            obj._container = None
        self.highlights.pop(obj.guid, None)
        self.calls.append(Call(obj.guid, "destruct", ()))

    def _turn_changed(self, new: Any, old: Any) -> None:
        self.turn_log.append((old or "", new or ""))
        self._post("onPlayerTurn", self._players.get(new) if new else None,
                   self._players.get(old) if old else None)

    # ------------------------------------------------------------------ messages

    def _message(self, kind: str, text: str, color: Any, tint: Any) -> bool:
        if isinstance(tint, _LuaTable):
            tint = self.sandbox.from_lua(tint, empty_as="dict")
        msg = Message(kind, text, color, tint)
        self.messages.append(msg)
        if kind in ("broadcastToAll", "broadcastToColor", "Player.broadcast"):
            self.broadcasts.append(msg)
        elif kind in ("printToAll", "printToColor", "Player.print"):
            self.chat.append(msg)
        elif kind == "print":
            self.prints.append(msg)
        else:
            self.logs.append(msg)
        return True

    # ------------------------------------------------------------------ Wait and the clock

    @property
    def time(self) -> float:
        """Simulated seconds: ``frame / fps``."""
        return self.frame / self.fps

    def _schedule(self, kind: str, fn: Any, due: float, **kw: Any) -> int:
        self._wait_id += 1
        self._waits[self._wait_id] = _Wait(self._wait_id, kind, fn, due, **kw)
        return self._wait_id

    def _wait_frames(self, fn: Any, frames: Any = 1) -> int:
        n = max(1, int(frames if frames is not None else 1))
        return self._schedule("frames", fn, float(self.frame + n))

    def _wait_time(self, fn: Any, seconds: Any, repetitions: Any = 1) -> int:
        period = max(float(seconds or 0.0), 1.0 / self.fps)
        reps = int(repetitions if repetitions is not None else 1)
        return self._schedule("time", fn, self.time + period, period=period, reps=reps)

    def _wait_condition(self, fn: Any, cond: Any, timeout: Any = None, timeout_fn: Any = None) -> int:
        timeout_at = self.time + float(timeout) if timeout is not None else None
        return self._schedule("condition", fn, 0.0, cond=cond, timeout_at=timeout_at, timeout_fn=timeout_fn)

    def _wait_stop(self, id: Any) -> bool:
        return self._waits.pop(int(id), None) is not None if id is not None else False

    def _wait_stop_all(self) -> bool:
        self._waits.clear()
        return True

    def _web(self, method: str, url: Any, cb: Any) -> Any:
        response = self._make_response(method, url)
        if cb is not None:
            self._schedule("frames", cb, float(self.frame + 1), args=(response,))
        return response

    def _start_coroutine(self, owner: Any, function_name: str) -> bool:
        env = owner._env if isinstance(owner, FakeObject) else self.sandbox.globals
        fn = self._rawget(env, function_name) if env is not None else None
        if fn is None:
            raise LuaSandboxError(f"startLuaCoroutine: no function {function_name!r}")
        self._coroutine_count = int(self._co_start(fn))
        return True

    def _add_context_menu_item(self, label: Any, fn: Any, keep_open: Any = False, require_table: Any = False) -> bool:
        self.context_menu[str(label)] = fn
        return True

    def _clear_context_menu(self) -> bool:
        self.context_menu.clear()
        return True

    def _add_hotkey(self, label: Any, fn: Any, trigger_on_key_up: Any = False) -> bool:
        self.hotkeys[str(label)] = fn
        return True

    def pending(self) -> int:
        """Queued events, waits and coroutines still to run."""
        return len(self._events) + len(self._waits) + self._coroutine_count + len(self._arrivals)

    def wait(self, seconds: float) -> None:
        """Let ``seconds`` of the fake clock pass: as many frames, at least one."""
        self.step(max(1, round(seconds * self.fps)))

    def step(self, frames: int = 1) -> None:
        """Advance the clock frame by frame.

        Each frame fires the events that scripts queued, in order. It then runs
        the due ``Wait`` callbacks in the order they were made, checking
        ``Wait.condition`` predicates once a frame, and resumes each
        ``startLuaCoroutine`` coroutine once. A coroutine finishes when it
        returns; TTS wants it to return 1. An error in a callback propagates
        at once.
        """
        for _ in range(frames):
            self.frame += 1
            due = sorted((a for a in self._arrivals if a[0] <= self.frame), key=lambda a: (a[0], a[1]))
            if due:
                self._arrivals = [a for a in self._arrivals if a[0] > self.frame]
                for _, _, container, obj in due:
                    if not obj._destroyed and not container._destroyed:
                        self._put(container, obj, now=False)
            events, self._events = self._events, []
            for name, args in events:
                self.fire(name, *args)
            now = self.time
            for wid in sorted(self._waits):
                w = self._waits.get(wid)
                if w is None:
                    continue
                if w.kind == "frames":
                    if w.due <= self.frame:
                        del self._waits[wid]
                        self.sandbox.call(w.fn, *w.args)
                elif w.kind == "time":
                    if w.due <= now + 1e-9:
                        if w.reps > 0:
                            w.reps -= 1
                        if w.reps == 0:
                            del self._waits[wid]
                        else:
                            w.due += w.period
                        self.sandbox.call(w.fn)
                else:
                    if self.sandbox.call(w.cond):
                        self._waits.pop(wid, None)
                        self.sandbox.call(w.fn)
                    elif w.timeout_at is not None and now + 1e-9 >= w.timeout_at:
                        self._waits.pop(wid, None)
                        if w.timeout_fn is not None:
                            self.sandbox.call(w.timeout_fn)
            if self._coroutine_count:
                self._coroutine_count = 0
                self._coroutine_count = int(self.sandbox.call(self._co_step_all))

    def drain(self, max_frames: int = 100_000) -> int:
        """Step until nothing is queued; return the frames advanced.

        Raises :class:`LuaSandboxError` after ``max_frames``, for example when a
        ``Wait.time`` repeats forever or a condition never comes true.
        """
        start = self.frame
        while self.pending():
            if self.frame - start >= max_frames:
                raise LuaSandboxError(f"still {self.pending()} queued callbacks after {max_frames} frames")
            self.step()
        return self.frame - start

    # ------------------------------------------------------------------ scripts and persistence

    def load_global(self, source: str, name: str = "Global.lua", save_state: str = "") -> Any:
        """Run the Global script, then ``onLoad(save_state)``; return what the chunk returned."""
        self._global_source, self._global_name = source, name
        result = self.sandbox.execute(source, name)
        self.fire("onLoad", save_state)
        return result

    def attach_script(self, obj: FakeObject, source: str, name: str | None = None,
                      save_state: str = "") -> Any:
        """Run an object script with ``self = obj``, then its ``onLoad(save_state)``; return its env."""
        obj._script_source = source
        obj._script_name = name or f"{obj._nickname or obj.type}.{obj.guid}.lua"
        obj.script_code = source
        obj.script_state = save_state
        obj._env = self.sandbox.run_object_script(source, obj._script_name, obj)
        self.fire_object(obj, "onLoad", save_state)
        return obj._env

    def save_and_reload(self) -> str:
        """Save, then load into a fresh sandbox, as a TTS save and load would.

        Calls Global's ``onSave`` and each object script's ``onSave``, builds a
        fresh sandbox, reinstalls the API, reruns the Global script with
        ``onLoad(saved)``, then reruns the object scripts with their states.
        What a save file holds survives: objects, zones, hands, notes, the
        ``Turns`` settings and the UI XML. The UI comes back as that XML
        defines it, so runtime ``setAttribute``/``setValue``/``show`` changes
        are lost. Buttons, highlights, queued ``Wait`` callbacks, queued events,
        coroutines and Lua values stored with ``setVar`` on script-less objects
        are lost too, so ``onLoad`` must rebuild them. Returns Global's saved
        string.
        """
        saved = self.fire("onSave")
        state = "" if saved is None else str(saved)
        scripted = [o for o in self._all.values() if o._env is not None and not o._destroyed]
        for obj in scripted:
            s = self.fire_object(obj, "onSave")
            obj.script_state = "" if s is None else str(s)
        self._turns_saved = self.sandbox.from_lua(self._turns, empty_as="dict")
        if not isinstance(self._turns_saved.get("order"), list):
            self._turns_saved["order"] = []
        for obj in self._all.values():
            obj._env = None
            obj._vars.clear()
            obj._buttons.clear()
            obj.UI._reload()
        self.ui._reload()
        self.highlights.clear()
        self.sandbox = self.sandbox.fresh()
        self._install()
        if self._global_source is not None:
            self.load_global(self._global_source, self._global_name, state)
        for obj in scripted:
            assert obj._script_source is not None
            self.attach_script(obj, obj._script_source, obj._script_name, obj.script_state)
        return state

    # ------------------------------------------------------------------ helpers

    def _vector(self, xyz: Sequence[float]) -> Any:
        return self._vector_fn(xyz[0], xyz[1], xyz[2])

    def _xyz(self, v: Any) -> list[float]:
        if isinstance(v, _LuaTable):
            x, y, z = v["x"], v["y"], v["z"]
            if x is None:
                x, y, z = v[1], v[2], v[3]
            return [float(x or 0), float(y or 0), float(z or 0)]
        if isinstance(v, dict):
            return [float(v.get("x", 0)), float(v.get("y", 0)), float(v.get("z", 0))]
        return [float(c) for c in v][:3]
