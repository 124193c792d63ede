"""Event-level tests of the built Two by Two mod: the real save (board, pieces, bags) laid out
in the stubbed TTS API with its Global script under Lua 5.2. New game lays the animals face
down from the bag; players drop arks, water tokens and animals as they would, with moves chosen
by the Python simulated player; illegal drops are refused with the rule and the piece goes
back; the transcript the mod records validates in Python, with the same result."""

from __future__ import annotations

import json
import math
import random
from pathlib import Path
from typing import Any

import pytest

from rules.players import choose
from rules.two_by_two import GAME
from rules.two_by_two import board as B
from tts_builder.build import build_game
from tts_builder.save import HEX_TILE_TURN_Y, world_to_cell
from tts_builder.savecheck import ERROR, check_save
from tts_builder.testing import FakeTTS
from tts_builder.validate import validate_data

GAME_ID = "two-by-two"


@pytest.fixture(scope="module")
def save(tmp_path_factory) -> dict[str, Any]:
    out: Path = tmp_path_factory.mktemp("build")
    build_game(GAME_ID, out, base_url="https://example.invalid/mods")
    data: dict[str, Any] = json.loads((out / GAME_ID / f"{GAME_ID}.json").read_text())
    return data


class Island:
    """The mod in a FakeTTS, with players' hands."""

    def __init__(self, save: dict[str, Any], seated: tuple[str, ...]):
        self.fake = FakeTTS(seated=seated)
        self.fake.ui.setXml(save["XmlUI"])
        self.objects = self.fake.load_save(save)
        self.fake.load_global(save["LuaScript"])
        self.ctx = json.loads(self.fake.sandbox.call(self.fake.sandbox.lookup("Table.context_json")))
        # animals have no GMNotes (hidden information): every piece is known by its GUID, as the Lua knows it
        self.guid_of = {pid: p["guid"] for pid, p in self.ctx["pieces"].items()}

    @property
    def by_id(self) -> dict[str, Any]:
        """Each piece's object now (the script reloads an animal to give it its face: a new object)."""
        return {pid: self.objects[guid] for pid, guid in self.guid_of.items()}

    def transcript(self) -> dict[str, Any]:
        data: dict[str, Any] = json.loads(self.fake.sandbox.call("onSave"))["transcript"]
        return data

    def state(self):
        t = self.transcript()
        state = GAME.new_state(setup=t["setup"], options=t["options"], num_players=len(t["players"]))
        for entry in t["moves"]:
            state.apply({k: v for k, v in entry.items() if k != "player"})
        return state

    def color(self, seat: int) -> str:
        return self.transcript()["players"][seat]["color"]

    def cell_xyz(self, cell: str) -> tuple[float, float, float]:
        p = self.ctx["island"]["cells"][cell]["position"]
        return (p["x"], p["y"] + 0.3, p["z"])

    def piece(self, piece_id: str):
        obj = self.by_id[piece_id]
        if obj.container is not None:
            obj = self.fake.take_from(obj.container, guid=obj.getGUID())
        return obj

    def drop_on(self, color: str, piece_id: str, cell: str) -> None:
        obj = self.piece(piece_id)
        self.fake.fire("onObjectPickUp", color, obj)
        self.fake.drop(obj, color, position=self.cell_xyz(cell))
        self.fake.drain()

    def click(self, color: str, fn: str) -> None:
        self.fake.click_ui(fn, color, "-1", None)
        self.fake.drain()

    def free_water(self) -> str:
        """A water token not yet on the island: a loose one (sent back after a refusal) or one from the bag."""
        water = sorted((pid for pid in self.by_id if pid.startswith("water-")), key=lambda pid: int(pid.split("-")[1]))
        for pid in water:
            if self.by_id[pid].container is None and not self.by_id[pid].getLock():
                return pid
        for pid in water:
            if self.by_id[pid].container is not None:
                return pid
        raise AssertionError("no water token left")

    def play(self, move: dict[str, Any], seat: int) -> None:
        color = self.color(seat)
        s = self.state().s
        t = move["type"]
        if t == "pass":
            self.click(color, "ttPass")
        elif t in ("place-ark", "move"):
            self.drop_on(color, f"ark-{s['colors'][seat]}", move.get("cell") or move["to"])
        elif t == "water":
            self.drop_on(color, self.free_water(), move["cell"])
        else:
            token = s["tokens"][B.CELL_INDEX[move["cells"][0]]]
            self.drop_on(color, token, s["arks"][seat])
            ui = self.fake.ui  # several legal partners: the panel asks which
            pick = [k for k in ui.values if k.startswith("tt-pair-") and ui.active(k)
                    and f"({move['cells'][1]})" in ui.values[k]]
            if ui.active("tt-partner") and pick:
                self.fake.click_ui("ttPartner", color, "-1", pick[0])


def _new_game(save: dict[str, Any], seated: tuple[str, ...]) -> Island:
    table = Island(save, seated)
    table.click(seated[0], "ttNewGame")
    return table


def test_the_save_passes_its_check_and_draws_the_board_from_the_data(save):
    errors = [p for p in check_save(save, own_output=True) if p.severity == ERROR]
    assert errors == []
    snaps = {(round(p["Position"]["x"], 3), round(p["Position"]["z"], 3)) for p in save["SnapPoints"]}
    assert len(snaps) >= len(B.CELLS) + 50
    bags = {o["Nickname"]: o for o in save["ObjectStates"] if o["Name"] == "Bag"}
    assert len(bags["Animals"]["ContainedObjects"]) == 80 and len(bags["Water"]["ContainedObjects"]) == 36
    names = {o["GMNotes"] for o in save["ObjectStates"]}
    assert {"ark-red", "ark-blue", "ark-green", "ark-yellow", "marker-red"} <= names


def test_new_game_lays_the_animals_face_down_and_sets_six_aside(save):
    table = _new_game(save, ("Red", "Green"))
    t = table.transcript()
    assert [p["color"] for p in t["players"]] == ["Red", "Green"] and t["setup"]["players"] == 2
    layout = t["setup"]["layout"]
    assert len(layout) == 74 and len(t["setup"]["removed"]) == 6
    grid = table.ctx["island"]
    for cell, token in zip(B.JUNGLE, layout):
        obj = table.by_id[token]
        assert obj.container is None
        p = obj.getPosition()
        assert world_to_cell(grid, p.x, p.z) == cell
        assert obj.is_face_down
    assert table.fake.ui.getValue("tt-status").startswith("Red (red ark) places their ark")
    hidden = table.by_id[layout[B.JUNGLE.index("0,0")]]
    assert table.fake.flip(hidden, "Red") is False and hidden.is_face_down  # only the script turns animals
    assert "Face-down animals stay" in table.fake.broadcasts[-1].text


def test_a_whole_game_by_drops_records_a_transcript_that_validates(save):
    rng = random.Random(4)
    table = _new_game(save, ("Red", "Blue", "Green"))
    refused = 0
    for _ in range(GAME.max_game_length):
        state = table.state()
        if state.is_terminal():
            break
        seat = state.current_player()
        if state.s["phase"] == "water" and refused < 3:  # an illegal water placement first: refused, token back
            inland = "0,0" if not state.is_water(B.CELL_INDEX["0,0"]) else None
            if inland and not state.touches_water(B.CELL_INDEX[inland]):
                token = table.free_water()
                before = len(table.transcript()["moves"])
                table.drop_on(table.color(seat), token, inland)
                assert len(table.transcript()["moves"]) == before
                assert "[water-adjacent]" in table.fake.broadcasts[-1].text
                assert table.by_id[token].getPosition().x != pytest.approx(table.cell_xyz(inland)[0])
                refused += 1
        move = choose(GAME, state, "heuristic", rng)
        before = len(table.transcript()["moves"])
        table.play(move, seat)
        assert len(table.transcript()["moves"]) == before + 1, table.fake.broadcasts[-1].text
        after = table.state().s
        for i, token in enumerate(after["tokens"]):  # the script turns revealed animals face up
            if token:
                assert table.by_id[token].is_face_down != after["face_up"][i], token
    transcript = table.transcript()
    report = validate_data(json.loads(json.dumps(transcript)), "mod.json")
    assert report.legal and report.finished, report.summary()
    assert report.result == transcript["result"]
    assert table.fake.ui.getValue("tt-status").startswith("Game over")
    assert refused >= 1 and any(m["type"] == "rescue" for m in transcript["moves"])
    # rescued animals lie face up on their rescuer's ark area, off the island
    zones = {o["Nickname"]: o for o in save["ObjectStates"] if o["Name"] == "ScriptingTrigger"}
    final = table.state().s
    for seat, pairs in enumerate(final["rescued"]):
        zone = next(z for name, z in zones.items() if name.endswith(f"ark-{final['colors'][seat]}"))
        t = zone["Transform"]
        on_board = {tok for tok in final["tokens"] if tok}
        mine = [o for tid, o in table.by_id.items()
                if "-" in tid and B.species_of(tid) in B.SPECIES and tid not in on_board
                and tid not in final["lost"] and tid not in final["setup"]["removed"]
                and abs(o.getPosition().x - t["posX"]) <= t["scaleX"] / 2
                and abs(o.getPosition().z - t["posZ"]) <= t["scaleZ"] / 2]
        assert len(mine) == 2 * len(pairs) and not any(o.is_face_down for o in mine)


def test_a_rescue_and_an_ark_move_are_refused_with_the_rule(save):
    table = _new_game(save, ("Red", "Green"))
    table.drop_on("Red", "ark-red", "-3,6")
    assert table.transcript()["moves"] == [{"player": 0, "type": "place-ark", "cell": "-3,6"}]
    table.drop_on("Green", "ark-red", "3,3")
    assert "[own-ark]" in table.fake.broadcasts[-1].text
    table.drop_on("Green", "ark-green", "-4,6")
    assert "[ark-space]" in table.fake.broadcasts[-1].text
    table.drop_on("Green", "ark-green", "3,3")
    assert any(m.text.startswith("Revealed: ") and m.text.count(" on ") == 13 for m in table.fake.messages)
    table.drop_on("Red", table.free_water(), "-4,5")
    table.drop_on("Red", "ark-red", "0,0")
    assert "[move-adjacent]" in table.fake.broadcasts[-1].text
    assert len(table.transcript()["moves"]) == 3
    ark = table.by_id["ark-red"].getPosition()
    assert world_to_cell(table.ctx["island"], ark.x, ark.z) == "-3,6"


def test_an_animal_dropped_on_the_ark_asks_for_a_rescue_and_a_bad_one_is_refused(save):
    table = _new_game(save, ("Red", "Green"))
    table.drop_on("Red", "ark-red", "-3,6")
    table.drop_on("Green", "ark-green", "3,3")
    table.drop_on("Red", table.free_water(), "1,4")
    state = table.state()
    s = state.s
    here = B.CELL_INDEX[s["arks"][0]]
    # a face-up animal away from the ark whose face-up partners (if any) are away from it too: refused
    for i, token in enumerate(s["tokens"]):
        if not (token and s["face_up"][i]) or here in B.NEIGHBOURS[i]:
            continue
        partners = [j for j, t in enumerate(s["tokens"]) if t and j != i and s["face_up"][j]
                    and B.species_of(t) == B.species_of(token)]
        if any(here in B.NEIGHBOURS[j] for j in partners):
            continue
        expected = "rescue-pair" if not partners else (
            "no-fishbones" if B.species_of(token) == "fishbones" else "rescue-adjacent")
        before = table.by_id[token].getPosition()
        table.drop_on("Red", token, s["arks"][0])
        assert f"[{expected}]" in table.fake.broadcasts[-1].text
        assert len(table.transcript()["moves"]) == 3
        after = table.by_id[token].getPosition()
        assert (after.x, after.z) == pytest.approx((before.x, before.z))  # back on its space
        break
    else:
        pytest.fail("no face-up animal away from the ark")


def test_the_panel_counts_a_lap_only_past_50_points(save):
    """Rules: a lap token for "more than 50" points: the panel's lap follows Rules.laps, so a
    marker on 50 is on its first lap and 51 starts the second (it said "lap 2" at exactly 50)."""
    table = _new_game(save, ("Red", "Green"))
    seen = {}
    for points in (50, 51, 100, 101):
        table.fake.sandbox.execute(f"Game.state.track[1] = {points}; Table.update_ui()", "laps")
        seen[points] = table.fake.ui.getValue("tt-score").split("   ")[0]
    assert seen == {50: "Red 50", 51: "Red 51 (lap 2)", 100: "Red 100 (lap 2)", 101: "Red 101 (lap 3)"}


@pytest.mark.parametrize("lone", ["White", "Blue", "Green"])
def test_a_lone_tester_plays_a_hot_seat_game_by_changing_colour(save, lone):
    table = Island(save, (lone,))
    table.click(lone, "ttNewGame")
    t = table.transcript()
    seats = ["Red", "Green"]  # the two-player arks' seats
    assert [p["color"] for p in t["players"]] == seats and t["setup"]["players"] == 2
    assert any(m.text.startswith("Hot seat: one player plays Red and Green") for m in table.fake.broadcasts)
    if lone != "Green":  # not a seat of this game (or not the one to move): refused
        table.drop_on(lone, "ark-red", "-3,6")
        assert table.transcript()["moves"] == []
    table.fake.unseat(lone)
    for color, cell in zip(seats, ("-3,6", "3,3")):  # the tester moves to each seat in turn
        table.fake.seat(color)
        table.drop_on(color, f"ark-{color.lower()}", cell)
        table.fake.unseat(color)
    assert [m["player"] for m in table.transcript()["moves"]] == [0, 1]


FIXTURES = Path(__file__).resolve().parents[2] / "shared" / "fixtures"


def _lattice_directions(points: list[tuple[float, float]]) -> list[float]:
    """The directions (degrees, modulo 60, in the x-z plane) from each point to its nearest neighbours."""
    out = []
    for i, (x, z) in enumerate(points):
        dists = sorted((math.hypot(a - x, b - z), a, b) for j, (a, b) in enumerate(points) if j != i)
        nearest = dists[0][0]
        out += [math.degrees(math.atan2(b - z, a - x)) % 60 for d, a, b in dists[:6] if d < nearest * 1.05]
    return out


def _mod60_close(a: float, b: float, within: float = 1.0) -> bool:
    return abs((a - b + 30) % 60 - 30) < within


def test_a_real_mod_turns_hex_tiles_30_degrees_onto_a_pointy_topped_lattice() -> None:
    """The evidence for save.HEX_TILE_TURN_Y: Terraforming Mars lays its Mars hexes as global snap
    points in a pointy-topped lattice (neighbours at 0, 60, 120 degrees) that turn a dropped hex tile
    to 270 degrees, 30 modulo 60: TTS's hex tile is flat-topped unturned."""
    path = FIXTURES / "tts_saves" / "terraforming_mars_save_2017_legacy_snappoints_states.json"
    if not path.is_file():
        pytest.skip("no ../shared/fixtures")
    snaps = json.loads(path.read_text("utf-8"))["SnapPoints"]
    points = [(s["Position"]["x"], s["Position"]["z"]) for s in snaps]
    # the map's inner hexes: snaps with at least four neighbours one hex (2.35 units) away
    inner = [s for s, (x, z) in zip(snaps, points)
             if sum(1 for a, b in points if 2.2 < math.hypot(a - x, b - z) < 2.5) >= 4]
    assert len(inner) >= 50
    directions = _lattice_directions([(s["Position"]["x"], s["Position"]["z"]) for s in inner])
    assert all(_mod60_close(d, 0, within=4) for d in directions)  # pointy-topped (hand-placed: a few degrees)
    assert all(_mod60_close(s["Rotation"]["y"], HEX_TILE_TURN_Y, within=4) for s in inner)
    assert not _mod60_close(HEX_TILE_TURN_Y, 0)


def test_animals_on_the_island_sit_on_its_pointy_topped_hexes(save):
    """A hex tile's corners point at its rotation y (modulo 60: flat-topped unturned, the test
    above); an island cell's corners point 30 degrees off its neighbours. They must agree (the
    animals stood at 180, a flat-topped tile on each pointy-topped printed hex)."""
    table = _new_game(save, ("Red", "Green"))
    cells = table.ctx["island"]["cells"]
    directions = _lattice_directions([(c["position"]["x"], c["position"]["z"]) for c in cells.values()])
    assert directions and all(_mod60_close(d, directions[0]) for d in directions)
    cell_corner = directions[0] + 30
    layout = table.transcript()["setup"]["layout"]
    for token in layout:
        obj = table.by_id[token]
        assert _mod60_close(obj.getRotation().y, cell_corner), (token, obj.getRotation().y, cell_corner)
        assert obj.is_face_down
    # animals off the island (set aside) keep the upright turn, their label read from the near side
    for token in table.transcript()["setup"]["removed"]:
        assert table.by_id[token].getRotation().y == pytest.approx(180)


def test_a_hex_tile_starting_on_a_pointy_topped_cell_turns_to_it_and_nothing_else_does() -> None:
    """save.piece_position gives a hex Custom_Tile on a pointy-topped hex cell the turn
    HEX_TILE_TURN_Y (the evidence: tests/test_two_by_two_mod.py); a one-faced hex token (a
    Custom_Token, cut out of its pointy-topped image) and a tile off the board keep the upright."""
    from tts_builder.save import parse_table_layout, piece_position

    data = json.loads((Path(__file__).resolve().parents[1] / "art_src" / GAME_ID / "table.json").read_text())
    animal = dict(data["pieces"][0], board="island", cell="0,0")
    water = next(dict(p, board="island", cell="1,0") for p in data["pieces"] if p["id"] == "water-1")
    loose = dict(data["pieces"][1], position=[20, 20])
    data["pieces"] = [animal, water, loose]
    data["bags"] = []
    layout = parse_table_layout(data, game_id=GAME_ID, game_data=GAME.data)
    upright = layout.card.rotation_y + layout.board("island").rotation_y
    turns = {p.id: piece_position(layout, p)[1] for p in layout.pieces}
    assert turns == {animal["id"]: (upright + HEX_TILE_TURN_Y) % 360, "water-1": upright % 360,
                     loose["id"]: layout.card.rotation_y}


def test_an_animal_s_face_reads_upright_once_the_tile_takes_its_turn() -> None:
    """A hex tile turns HEX_TILE_TURN_Y on the island (clockwise seen from above, as Unity turns
    it), and its picture turns with it: the face is drawn turned back as much, so on the table it is
    the upright picture (its label once sat tilted 30 degrees)."""
    from PIL import ImageChops

    from tts_builder.save import hex_face_turn, parse_table_layout
    from tts_builder.tablemat import render_face, table_fonts

    data = json.loads((Path(__file__).resolve().parents[1] / "art_src" / GAME_ID / "table.json").read_text())
    layout = parse_table_layout(data, game_id=GAME_ID, game_data=GAME.data)
    animal = next(p for p in layout.pieces if p.id in B.TOKENS)
    water = next(p for p in layout.pieces if p.id == "water-1")
    turn = hex_face_turn(layout, animal)
    assert turn == HEX_TILE_TURN_Y and turn % 90 == 0 and hex_face_turn(layout, water) == 0
    fonts = table_fonts(GAME_ID)
    drawn = render_face(animal.faces[0], animal.shape, cutout=False, fonts=fonts, turn=turn)
    upright = render_face(animal.faces[0], animal.shape, cutout=False, fonts=fonts)
    on_table = drawn.rotate(-turn)  # the tile's clockwise turn
    assert ImageChops.difference(on_table, upright).getbbox() is None
    assert ImageChops.difference(drawn, upright).getbbox() is not None  # turned in the file
