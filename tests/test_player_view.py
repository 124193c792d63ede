"""What a seat can read of Two by Two's face-down animals (issue 20): nothing that names the
species. TTS shows GM notes to the Black (GM) seat (API, Object > GM Notes) and every image URL
of a custom object in its Custom menu, face up or down, so neither may say what a face-down
animal is; the Lua knows the pieces by GUID instead. Pieces that hide nothing keep their ids in
GMNotes and their image names."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

from rules.players import choose
from rules.two_by_two import GAME
from rules.two_by_two import board as B
from tts_builder.build import build_game
from tts_builder.errors import InputError
from tts_builder.save import parse_table_layout
from tts_builder.testing import FakeObject, FakeTTS

GAME_ID = "two-by-two"
COLORS = ("Red", "Blue", "Green", "Yellow", "White", "Black", "Grey")


@pytest.fixture(scope="module")
def save(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    out: Path = tmp_path_factory.mktemp("build")
    build_game(GAME_ID, out, base_url="https://example.invalid/mods")
    data: dict[str, Any] = json.loads((out / GAME_ID / f"{GAME_ID}.json").read_text())
    return data


def _animals(save: dict[str, Any]) -> list[dict[str, Any]]:
    bag = next(o for o in save["ObjectStates"] if o["Name"] == "Bag" and o["Nickname"] == "Animals")
    animals: list[dict[str, Any]] = bag["ContainedObjects"]
    return animals


def _words_naming(token: str) -> list[str]:
    """What would name an animal token: its id and its species (doves-1, doves)."""
    return [token, B.species_of(token)]


def test_no_animal_s_gm_notes_name_its_species(save: dict[str, Any]) -> None:
    """GM notes are read by whoever sits as Black: an animal's must not say what it is (they
    held the token id, "doves-1")."""
    animals = _animals(save)
    assert len(animals) == len(B.TOKENS)
    for obj in animals:
        notes = obj["GMNotes"].lower()
        assert not any(sp in notes for sp in B.SPECIES), (obj["GUID"], obj["GMNotes"])
        assert obj["HideWhenFaceDown"] is True
    # the pieces that hide nothing keep their ids (the Lua and the tests know them either way)
    notes = {o["GMNotes"] for o in save["ObjectStates"]}
    assert {"ark-red", "marker-red"} <= notes
    water = next(o for o in save["ObjectStates"] if o["Name"] == "Bag" and o["Nickname"] == "Water")
    assert all(o["GMNotes"].startswith("water-") for o in water["ContainedObjects"])


def test_no_animal_in_the_save_shows_an_image_but_its_back(save: dict[str, Any]) -> None:
    """Both image URLs of a tile are readable in its Custom menu, face up or down, and a peek shows
    its underside and name. Once the face was the species' own URL (six animals alike): a seat
    could match pairs by URL. Now every animal carries the one back on both faces and the name
    "Animal"; the face URLs (one per species) are the Lua's, for when the rules reveal an animal."""
    animals = _animals(save)
    urls = {u for o in animals for u in (o["CustomImage"]["ImageURL"], o["CustomImage"]["ImageSecondaryURL"])}
    assert len(urls) == 1 and "piece-back-" in next(iter(urls))
    assert {o["Nickname"] for o in animals} == {"Animal"}
    assert not any(sp in o["Description"].lower() for o in animals for sp in B.SPECIES)
    faces = re.findall(r"piece-face-[0-9a-f]+(?:-[0-9a-f]+)?\.png", save["LuaScript"])
    assert len(set(faces)) == len(B.SPECIES)  # one face URL per species, in the script alone
    assert not any(f in json.dumps(save["ObjectStates"]) for f in faces)
    # other pieces keep their descriptive names
    ark = next(o for o in save["ObjectStates"] if o["GMNotes"] == "ark-red" and "CustomImage" in o)
    assert "piece-ark-red-front-" in ark["CustomImage"]["ImageURL"]


def test_a_hidden_piece_needs_a_back_face() -> None:
    layout = json.loads((Path(__file__).resolve().parents[1] / "art_src" / GAME_ID / "table.json").read_text())
    layout["pieces"][0]["faces"] = layout["pieces"][0]["faces"][:1]
    with pytest.raises(InputError, match=r"pieces\[0\]\.hide_face_down"):
        parse_table_layout(layout, game_id=GAME_ID, game_data=GAME.data)


def _leaks(fake: FakeTTS, objects: dict[str, FakeObject], token_of: dict[str, str]) -> list[str]:
    """Every face-down animal's id or species any seat can read: its tooltip, the GM notes
    (Black), its image URLs (the Custom menu); and an animal's id anywhere on the panel."""
    panel = " ".join(str(v) for v in fake.ui.values.values()).lower()
    leaks = []
    for guid, token in token_of.items():
        obj = objects[guid]
        if not obj.is_face_down or obj.container is not None:
            continue  # face up the species is public; in the bag, before New game, all 80 are
        words = _words_naming(token)
        if len(set(obj.visible_images())) != 1 or "piece-back-" not in obj.visible_images()[0]:
            leaks.append(f"face-down {token} shows an image besides its back: {obj.visible_images()}")
        for color in COLORS:
            seen = " ".join(obj.visible_text(color) + [u.rsplit("/", 1)[-1] for u in obj.visible_images()]).lower()
            leaks += [f"{color} reads {w!r} on face-down {token}: {seen!r}" for w in words if w in seen]
        if token in panel:
            leaks.append(f"the panel names {token}")
    return leaks


def test_no_seat_reads_a_face_down_animal_through_a_game(save: dict[str, Any]) -> None:
    from tests.test_two_by_two_mod import Island

    table = Island(save, ("Red", "Blue", "Green"))
    token_of = {p["guid"]: pid for pid, p in table.ctx["pieces"].items() if pid in B.TOKENS}
    assert len(token_of) == len(B.TOKENS)
    table.click("Red", "ttNewGame")
    rng = random.Random(11)
    seen_down = 0
    for _ in range(12):
        assert _leaks(table.fake, table.objects, token_of) == []
        seen_down = max(seen_down, sum(1 for g in token_of if table.objects[g].is_face_down))
        state = table.state()
        if state.is_terminal():
            break
        table.play(choose(GAME, state, "heuristic", rng), state.current_player())
    assert seen_down >= 74 and len(table.transcript()["moves"]) >= 6
    # the check sees a face URL on a face-down animal (as the build once wrote it)
    down = next(g for g, t in token_of.items() if table.objects[g].is_face_down and table.objects[g].container is None)
    face = next(u for g in token_of for u in table.objects[g].visible_images() if "piece-face-" in u)
    table.objects[down].image_urls[0] = face
    assert any("besides its back" in leak for leak in _leaks(table.fake, table.objects, token_of))
    table.objects[down].image_urls[0] = table.objects[down].image_urls[1]
    # a revealed animal shows its face (the script gave it: setCustomObject, then reload)
    state = table.state()
    up = [t for i, t in enumerate(state.s["tokens"]) if t and state.s["face_up"][i]]
    assert up
    for token in up:
        obj = table.by_id[token]
        assert not obj.is_face_down and any("piece-face-" in u for u in obj.visible_images()), token
        assert obj.getName().lower() == B.species_of(token)
