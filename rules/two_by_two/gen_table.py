"""Write ``art_src/two-by-two/table.json``: the pieces are many (80 animals, 36 water tokens),
so they are listed by this script from the data file; the rest of the table is written here
as data. Run by hand (``python -m rules.two_by_two.gen_table``) after changing the data."""

from __future__ import annotations

import json
from pathlib import Path

from rules.two_by_two import board as B

FOLIAGE = {"label": "", "color": "#2f5d27", "text_color": "#a8d08d"}
ARK_COLORS = {"red": "#c83c32", "blue": "#2f6fd0", "green": "#2f9a3c", "yellow": "#e0c020"}
TTS_COLORS = {"red": "Red", "blue": "Blue", "green": "Green", "yellow": "Yellow"}
#: where each printed ark's seat sits (x, z, hand rotation) and where its ark piece waits
EDGES = {"south": ((0, -28.0), 0, (-17.0, -18.5)), "west": ((-37.0, 0), 90, (-18.5, -3.0)),
         "north": ((0, 28.0), 180, (17.0, 18.5)), "east": ((37.0, 0), 270, (18.5, 3.0))}


def table() -> dict:
    colors = B.DATA["species_colors"]
    pieces = []
    for token in B.TOKENS:
        sp = B.species_of(token)
        # hidden while face down (issue 20): no GMNotes (the Lua knows animals by GUID), the back
        # image on both faces and a name that says no species (a peek shows the name and the
        # underside): the Lua gives a revealed animal its face, name and description
        pieces.append({"id": token, "name": "Animal", "kind": "tile", "shape": "hex", "size": 1.25,
                       "hide_face_down": True,
                       "description": "An animal token, face down: jungle. The water reveals it.",
                       "faces": [{"label": sp.upper(), "color": colors[sp], "text_color": "#101010"}, FOLIAGE]})
    for n in range(1, B.WATER_TOKENS + 1):
        pieces.append({"id": f"water-{n}", "name": "Water", "kind": "token", "shape": "hex", "size": 1.25,
                       "description": "Drop it on a land space next to water (step 1 of your turn).",
                       "faces": [{"label": "", "color": "#3a7bd5"}]})
    seats = []
    ark_zones = []
    for seat, ark in enumerate(B.DATA["printed_arks"]):
        (x, z), rot, (ax, az) = EDGES[ark["edge"]]
        color = ark["color"]
        pieces.append({"id": f"ark-{color}", "name": f"{color.capitalize()} ark", "kind": "token", "shape": "rounded",
                       "size": 1.2, "position": [ax + (4.5 if ark["edge"] in ("south", "north") else 0.0),
                                                 az + (0.0 if ark["edge"] in ("south", "north") else 4.5)],
                       "description": "Your ark: drop it on an ark space at setup, then on an adjoining water space to move; drop an animal on it to rescue a pair.",
                       "faces": [{"label": "ARK", "color": ARK_COLORS[color], "text_color": "#ffffff"}]})
        pieces.append({"id": f"marker-{color}", "name": f"{color.capitalize()} score", "kind": "token",
                       "shape": "circle", "size": 0.7, "board": "track", "cell": f"{'abcdefghij'[seat]}1",
                       "description": "Your scoring marker; the table script moves it.",
                       "faces": [{"label": "", "color": ARK_COLORS[color]}]})
        zone_size = [11.0, 4.2] if ark["edge"] in ("south", "north") else [4.2, 11.0]
        ark_zones.append({"role": f"ark-{color}", "label": f"{color.upper()} ARK",
                          "hint": "x2: " + ", ".join(ark["x2"]), "center": [ax, az], "size": zone_size,
                          "facing": {"south": 0, "north": 1, "west": 0, "east": 1}[ark["edge"]]})
        hand_pos = [x * 1.0, 3.0, z * 1.0]
        seats.append({"seat": seat, "color": TTS_COLORS[color],
                      "hand": {"position": hand_pos, "rotation_y": rot, "scale": [12, 5, 3]}})
    return {
        "format": 1,
        "comment": [
            "The Two by Two table as data (written by rules/two_by_two/gen_table.py from two-by-two.json).",
            "The island is the data file's hex board; every cell has a snap point. The scoring track is the data file's",
            "'track' grid: space k (1..50) is column (k - 1) mod 10 of row (k - 1) div 10 + 1, read from the top row.",
            "Seats sit at the printed arks' edges (A-9): Red south, Blue west, Green north, Yellow east.",
        ],
        "metadata": {"game_mode": "Two by Two", "game_type": "Game", "game_complexity": "Low Complexity",
                     "table": "Table_RPG", "sky": "Sky_Museum", "gravity": 0.5, "play_area": 0.6,
                     "tags": ["Board Games", "Scripting", "English"],
                     "note": "Two by Two (unofficial map): press New game; the script lays the animals face down. Drop your ark on an ark space, then each turn a water token on the island, then move your ark or drop an animal on it to rescue a pair."},
        "surface_y": 0.96,
        "card": {"size": [2.2, 3.1], "rotation_y": 180, "type": 0,
                 "nickname": "{{ id | capitalize }}", "description": "A species card: how many tokens, which ark stars it."},
        "seats": seats,
        "zone_height": 3.0,
        "zones": [
            {"role": "reference", "label": "SPECIES", "hint": "one card a species", "center": [-18.5, 17.0],
             "size": [3.4, 4.6], "snaps": [[0, 0]]},
            {"role": "set-aside", "label": "SET ASIDE", "hint": "six tokens, unseen", "center": [18.5, -18.0],
             "size": [4.6, 3.4], "snaps": [[-1.2, 0.6], [0, 0.6], [1.2, 0.6], [-1.2, -0.6], [0, -0.6], [1.2, -0.6]]},
        ] + ark_zones,
        "decks": [{"name": "species", "art": "species", "zone": "reference", "face_down": False}],
        "mat": {"name": "Two by Two table", "rect": [-34.0, -24.0, 34.0, 24.0], "pixels_per_unit": 32,
                "thickness": 0.1, "rotation_y": 180,
                "colors": {"background": "#20384a", "zone": "#2b4a60", "outline": "#e0c070", "text": "#f4f0e0",
                           "hint": "#c0ccd4", "panel": "#243f52"},
                "panels": [
                    {"rect": [-33.5, 4.0, -22.0, 23.5], "title": "A TURN",
                     "text": "1. Water (you must): drop a water token on a land space next to water. One point for each water space around it; the animals it touches turn face up.\n\n2. Your ark, twice (or Pass): drop it on an adjoining free water space, or drop a face-up animal on it to rescue that animal and a face-up partner, your ark next to one of them."},
                    {"rect": [22.0, -23.5, 33.5, -4.0], "title": "THE END",
                     "text": "The game ends after the turn that uses the last water token, or once nothing is face down and no pair is left.\n\nThe panel keeps the score: the track plus your ark."},
                ]},
        "boards": [
            {"name": "island", "label": "Island", "grid": "board", "center": [0, 0], "size": [25, 22],
             "margin": 0.2, "pixels_per_unit": 48, "labels": True, "background": "#1d3f66",
             "cells": {"by": "kind", "colors": {"jungle": "#4f8f3a", "beach": "#d8c08a", "sea": "#2f6fb0",
                                                 "ark-space": "#8a6a48"}}},
            {"name": "track", "label": "Scoring track", "grid": "track", "center": [0, -18.5], "size": [15, 7.5],
             "margin": 0.1, "pixels_per_unit": 40, "labels": False, "background": "#3a2a1a",
             "cells": {"default": "#e8dcc0"}},
        ],
        "pieces": pieces,
        "bags": [
            {"name": "animals", "label": "Animals", "position": [-18.5, 10.0], "color": "#5a7a3a",
             "contents": list(B.TOKENS)},
            {"name": "water", "label": "Water", "position": [18.5, -10.0], "color": "#3a6ab0",
             "contents": [f"water-{n}" for n in range(1, B.WATER_TOKENS + 1)]},
        ],
        "notebook": {"template": "notebook.md.j2",
                     "tabs": [{"id": "rules", "title": "Rules", "color": "Grey"},
                              {"id": "assumptions", "title": "Assumptions", "color": "Grey"}],
                     "seat_tabs": True},
    }


def main() -> None:
    path = Path(__file__).resolve().parents[2] / "art_src" / "two-by-two" / "table.json"
    path.write_text(json.dumps(table(), indent=1, ensure_ascii=False) + "\n", "utf-8")


if __name__ == "__main__":
    main()
