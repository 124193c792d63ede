"""The generic table suite (issue 20): every game's built mod at the stand-in table, at every
seat count the game declares, its New game pressed twice in a row with the table's containers
filling over several frames, then a save and reload; after each step a player's-view check:
nothing face down, or in another seat's hand, shows its identity to a seat in its hover text
or image URL, and no hidden component's id is on the panel or in the notebook.

Not yet here (issue 20, left for later): random legal games played through drops and flips for
every game, and the illegal-drop refusals; the per-game mod tests (tests/test_*_mod.py) do that
game by game."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tts_builder.build import build_game, load_table_layout
from tts_builder.errors import require_game
from tts_builder.testing import FakeObject, FakeTTS

GAMES = ("two-and-two", "twin-tower-city", "obren-buttons", "two-by-two", "smitten-2")


@pytest.fixture(scope="module")
def saves(tmp_path_factory) -> dict[str, dict[str, Any]]:
    out: Path = tmp_path_factory.mktemp("build")
    data = {}
    for game in GAMES:
        build_game(game, out, base_url="https://example.invalid/mods")
        data[game] = json.loads((out / game / f"{game}.json").read_text())
    return data


def _cases() -> list[tuple[str, int]]:
    return [(g, n) for g in GAMES for n in require_game(g).seat_counts()]


def _hidden_from(obj: FakeObject, color: str) -> bool:
    """Whether ``color`` may not know ``obj``'s identity: face down on the table, or in another
    seat's hand (TTS shows others only a hand card's back)."""
    if obj.container is not None:
        return True
    in_other_hand = any(z.type == "Hand" and z._owner != color for z in obj.zones)
    return obj.is_face_down or in_other_hand


def _identity(obj: FakeObject) -> list[str]:
    """What would name a hidden object: its id (GMNotes) and, if distinctive, its name."""
    out = [obj.getGMNotes()] if obj.getGMNotes() else []
    return out


def player_view_leaks(fake: FakeTTS, objects: dict[str, FakeObject], colors: list[str]) -> list[str]:
    """Every place a seat could read what it may not know, as ``"color: where: what"``."""
    leaks = []
    panel = " ".join(str(v) for v in fake.ui.values.values())
    notes = json.dumps(fake.notes.tabs, default=str) + str(fake.notes.text)
    for obj in objects.values():
        if obj.destroyed or obj.container is not None or obj.type in ("Scripting", "Hand"):
            continue
        for color in colors:
            if not _hidden_from(obj, color):
                continue
            seen = " ".join(obj.visible_text(color))
            name = obj.getName()
            if name and name in seen:
                leaks.append(f"{color}: hover of {obj.getGMNotes() or obj.guid}: {name!r}")
            for url in obj.visible_images()[1:]:  # the back is what a hidden object shows
                for ident in _identity(obj):
                    if ident.lower() in url.lower():
                        leaks.append(f"{color}: back image of {ident}: {url}")
            for ident in _identity(obj):
                if len(ident) > 3 and (ident in panel or ident in notes):
                    leaks.append(f"{color}: panel or notebook names {ident}")
    return leaks


@pytest.mark.parametrize(("game", "seats"), _cases())
def test_new_game_twice_then_save_and_reload_keeps_every_hidden_identity_hidden(saves, game, seats):
    save = saves[game]
    colors = [s.color for s in load_table_layout(game).seats][:seats]
    if len(colors) < seats:
        pytest.skip(f"{game}: the layout seats {len(colors)} colours")
    fake = FakeTTS(seated=tuple(colors), container_frames=6, travel_seed=seats)
    fake.ui.setXml(save["XmlUI"])
    objects = fake.load_save(save)
    fake.load_global(save["LuaScript"])
    assert player_view_leaks(fake, objects, colors) == []
    for _ in range(2):  # New game twice in a row: the second gathers everything again
        fake.click_ui("ttNewGame", colors[0])
        fake.step(6 * fake.fps)
        assert player_view_leaks(fake, objects, colors) == []
    transcript = json.loads(fake.sandbox.call("onSave"))["transcript"]
    assert transcript.get("setup") and len(transcript["players"]) == seats, fake.broadcasts[-3:]
    assert not any("refused" in m.text or "holds" in m.text for m in fake.broadcasts), fake.broadcasts[-3:]
    fake.save_and_reload()
    fake.step(2)
    again = json.loads(fake.sandbox.call("onSave"))["transcript"]
    assert again == transcript
    assert player_view_leaks(fake, objects, colors) == []
