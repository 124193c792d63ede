"""``tts-builder new GAME [--like board|tiles|cards] [--players N-M]``: write a complete, minimal game
into a checkout of the project (docs/authoring.md is the contract it keeps).

The game as written is a drop-a-disc game on a 7x6 board (``--like board``: round discs; ``--like
tiles``: square tiles), no cards, its glue on the shared runtime (``runtime/board.lua.j2``,
``runtime/controls.lua.j2``, ``runtime/moveshape.lua.j2``) and its move shapes read by both engines
from its move schema (:mod:`rules.moveshape`). ``--like cards`` writes a card game instead
(``templates/cards/``): an 18-card deck drawn from the data file into a card sheet, hidden hands,
a pile and a discard; play a higher card or draw; its glue on ``runtime/cards.lua.j2``. ``build``,
``simulate``, ``validate``, ``check-lua``, the invariant suite and its own table-event test pass
at once; the author then changes the rules.
"""

from __future__ import annotations

import json
import re
from importlib import resources
from pathlib import Path

from tts_builder.errors import InputError
from tts_builder.fileio import atomic_write_text

LIKES = ("board", "tiles", "cards")
_ID = re.compile(r"^[a-z][a-z0-9]*(-[a-z0-9]+)*$")
_PLAYERS = re.compile(r"^([1-9])(?:-([1-9]))?$")
#: seat colours (TTS player colours) and their discs, in seat order
SEATS = (("White", "#f2efe6"), ("Red", "#cc2b2b"), ("Yellow", "#e8c020"), ("Blue", "#2f6fd0"))
COLUMNS, ROWS = 7, 6
REGISTRY = "rules/registry.py"


def parse_players(text: str) -> tuple[int, int]:
    """``"2"`` or ``"2-4"`` -> (min, max); InputError naming ``--players`` otherwise."""
    m = _PLAYERS.match(text)
    lo, hi = (int(m.group(1)), int(m.group(2) or m.group(1))) if m else (0, 0)
    if not m or lo > hi or lo < 2 or hi > len(SEATS):
        raise InputError(f"--players: expected N or N-M with 2 <= N <= M <= {len(SEATS)}, not {text!r}")
    return lo, hi


def _class_name(game_id: str) -> str:
    return "".join(part.capitalize() for part in game_id.split("-"))


def _table(players: tuple[int, int], like: str) -> dict[str, object]:
    n = players[1]
    hands = [([0, 3.0, -14.0], 0), ([0, 3.0, 14.0], 180), ([-20.0, 3.0, 0], 90), ([20.0, 3.0, 0], 270)]
    homes = [[-6.5, -4.0], [6.5, 4.0], [-6.5, 4.0], [6.5, -4.0]]
    shape, kind = ("circle", "token") if like == "board" else ("square", "tile")
    return {
        "format": 1,
        "metadata": {"tags": ["Board Games", "Scripting", "English"], "table": "Table_Square"},
        "seats": [{"seat": i, "color": SEATS[i][0], "hand": {"position": hands[i][0], "rotation_y": hands[i][1],
                                                            "scale": [12.0, 5.0, 3.0]}} for i in range(n)],
        "zones": [],
        "mat": {"rect": [-10.0, -7.0, 10.0, 7.0], "pixels_per_unit": 32, "colors": {
            "background": "#2a3a4a", "zone": "#34495e", "outline": "#e8e1cf", "text": "#f4efe2", "hint": "#d0cbbd",
            "panel": "#2f4255"}},
        "boards": [{"name": "board", "label": "Board", "center": [0, 0], "size": [8.4, 7.2], "margin": 0.35,
                    "grid": {"shape": "square", "columns": COLUMNS, "rows": ROWS, "cell_size": 1.0,
                             "cell_ids": "letter-column,number-row-from-top"},
                    "cells": {"default": "#d8e0ea"}}],
        "pieces": [{"id": SEATS[i][0].lower(), "name": f"{SEATS[i][0]} disc", "kind": kind, "shape": shape,
                    "size": 0.9, "count": COLUMNS * ROWS // 2 + 1, "position": homes[i],
                    "faces": [{"label": "", "color": SEATS[i][1]}]} for i in range(n)],
        "notebook": {"template": "notebook.md.j2", "tabs": [{"id": "rules", "title": "Rules", "color": "Grey"},
                                                            {"id": "assumptions", "title": "Assumptions", "color": "Grey"}]},
    }


#: the card game's deck as data rows: three suits, ranks 1 to 6 (with hands of 3, four players leave 6 to draw)
SUITS, RANKS = ("sun", "moon", "leaf"), range(1, 7)


def _card_table(players: tuple[int, int]) -> dict[str, object]:
    table = _table(players, "board")
    del table["boards"], table["pieces"]
    table["metadata"] = {"tags": ["Card Games", "Scripting", "English"], "table": "Table_Square"}
    # HideWhenFaceDown (every card the builder writes): a face-down card's name and description
    # do not show (Knowledge Base, Object > Toggles), so the nickname may name the card
    table["card"] = {"size": [2.2, 3.1], "rotation_y": 180, "type": 0,
                     "nickname": "{{ game.suits[suit].name }} {{ rank }}", "description": ""}
    table["zones"] = [{"role": role, "label": role.upper(), "hint": hint, "center": [x, 0], "size": [3.2, 4.4],
                       "snaps": [[0, 0]]}
                      for role, hint, x in (("deck", "Draw button", -4.2), ("pile", "play higher", 0),
                                            ("discard", "after a pass", 4.2))]
    table["decks"] = [{"name": "main", "art": "deck", "zone": "deck", "face_down": True}]
    return table


def _compact_json(data: dict[str, object]) -> str:
    """A table.json an author reads and edits: one line per top-level field, one per list item."""
    lines = []
    for key, value in data.items():
        if isinstance(value, list) and value:
            items = ",\n".join(f"    {json.dumps(v)}" for v in value)
            lines.append(f'  {json.dumps(key)}: [\n{items}\n  ]')
        else:
            lines.append(f"  {json.dumps(key)}: {json.dumps(value)}")
    return "{\n" + ",\n".join(lines) + "\n}\n"


def files_for(game_id: str, like: str, players: tuple[int, int]) -> dict[str, str]:
    """Every file of the new game, by its path in the checkout."""
    pkg = game_id.replace("-", "_")
    name = " ".join(part.capitalize() for part in game_id.split("-"))
    discs = [{"id": SEATS[i][0].lower(), "color": SEATS[i][1]} for i in range(players[1])]
    subs = {"@@ID@@": game_id, "@@PKG@@": pkg, "@@NAME@@": name, "@@NAME_UPPER@@": name.upper(),
            "@@CLASS@@": _class_name(game_id), "@@MIN@@": str(players[0]), "@@MAX@@": str(players[1]),
            "@@DISCS@@": json.dumps(discs), "@@COLUMN_ENUM@@": json.dumps(list(range(COLUMNS)))}
    subs["@@CARDS@@"] = ",\n".join(f'    {{"key": "{s}-{r}", "kind": "number", "suit": "{s}", "rank": {r}}}'
                                    for s in SUITS for r in RANKS)
    templates = resources.files(__package__).joinpath("templates")
    cards = like == "cards"

    def fill(template: str) -> str:
        if cards and templates.joinpath("cards", template).is_file():
            template = f"cards/{template}"
        text = templates.joinpath(template).read_text("utf-8")
        for key, value in subs.items():
            text = text.replace(key, value)
        return text

    out = {
        f"rules/{pkg}/__init__.py": fill("__init__.py.tmpl"),
        f"rules/{pkg}/engine.py": fill("engine.py.tmpl"),
        f"rules/{pkg}/tableplay.py": fill("tableplay.py.tmpl"),
        f"rules/{pkg}/moves.schema.json": fill("moves.schema.json.tmpl"),
        f"rules/{pkg}/{game_id}.json": fill("data.json.tmpl"),
        f"art_src/{game_id}/art.json": fill("art.json.tmpl"),
        f"art_src/{game_id}/components.json": fill("components.json.tmpl"),
        f"art_src/{game_id}/notebook.md.j2": fill("notebook.md.j2.tmpl"),
        f"art_src/{game_id}/table.json": _compact_json(_card_table(players) if cards else _table(players, like)),
        f"lua_templates/games/{game_id}/rules.lua.j2": fill("rules.lua.j2.tmpl"),
        f"lua_templates/games/{game_id}/table.lua.j2": fill("table.lua.j2.tmpl"),
        f"lua_templates/games/{game_id}/ui.xml.j2": fill("ui.xml.j2.tmpl"),
        f"tests/test_{pkg}.py": fill("test_game.py.tmpl"),
    }
    golden = "too-low-draw-pass-and-out.json" if cards else "column-full-and-line.json"
    out[f"tests/golden/{game_id}/{golden}"] = fill("golden.json.tmpl")
    if cards:
        del out[f"art_src/{game_id}/components.json"]  # the rows are the data file's
    return out


def register(root: Path, game_id: str) -> None:
    """Add the game's line to ``rules/registry.py``'s ``_GAMES``."""
    path = root / REGISTRY
    text = path.read_text("utf-8")
    pkg = game_id.replace("-", "_")
    marker = "_GAMES: dict[str, str] = {\n"
    if marker not in text:
        raise InputError(f"{path}: no '_GAMES' table to add {game_id!r} to")
    atomic_write_text(path, text.replace(marker, marker + f'    "{game_id}": "rules.{pkg}:GAME",\n', 1))


def new_game(root: Path, game_id: str, like: str = "board", players: str = "2") -> list[str]:
    """Write the game into the checkout at ``root``; return the paths written. InputError (one line)
    for an id that is not a new lowercase id, an unknown --like, or bad --players."""
    if not _ID.match(game_id) or len(game_id) > 40:
        raise InputError(f"game id {game_id!r}: use lowercase letters and digits in words joined by '-' (drop-four)")
    if like not in LIKES:
        raise InputError(f"--like: expected one of {', '.join(LIKES)}, not {like!r}")
    seats = parse_players(players)
    root = Path(root)
    if not (root / REGISTRY).is_file():
        raise InputError(f"{root}: not a tts-builder checkout (no {REGISTRY})")
    registry = (root / REGISTRY).read_text("utf-8")
    files = files_for(game_id, like, seats)
    taken = [p for p in files if (root / p).exists()]
    if f'"{game_id}":' in registry or taken:
        raise InputError(f"game {game_id!r} exists already ({taken[0] if taken else REGISTRY})")
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_text(path, text)
    register(root, game_id)
    return [*files, REGISTRY]
