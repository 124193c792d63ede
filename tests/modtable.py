"""A built mod laid out in the stubbed TTS API, with helpers that act as players
would: shared by the event-level tests of every game's mod."""

from __future__ import annotations

import json
import random
from pathlib import Path
from collections.abc import Iterator
from typing import Any

from tts_builder.build import build_game, load_table_layout
from tts_builder.save import hand_transforms
from tts_builder.testing import FakeTTS

COLORS = ["White", "Red"]


def build_save(out: Path, game_id: str) -> dict[str, Any]:
    """Build ``game_id`` into ``out`` (hosted image URLs) and return the save."""
    build_game(game_id, out, base_url="https://example.invalid/mods")
    save: dict[str, Any] = json.loads((out / game_id / f"{game_id}.json").read_text())
    return save


class ModTable:
    """The save's objects in a FakeTTS (zones, the decks with their cards, the rest
    as plain objects), its XmlUI and Global script loaded with ``state``. ``deck`` is
    the save's first deck; ``decks`` holds every deck by its GMNotes (layout deck name)."""

    def __init__(self, save: dict[str, Any], state: str = "", deck_seed: int | None = None):
        self.save = save
        self.fake = FakeTTS(seated=tuple(COLORS))
        self.fake.ui.setXml(save["XmlUI"])
        self.zones: dict[str, Any] = {}
        self.deck: Any = None
        self.decks: dict[str, Any] = {}
        for obj in save["ObjectStates"]:
            t = obj["Transform"]
            pos = (t["posX"], t["posY"], t["posZ"])
            if obj["Name"] == "ScriptingTrigger":
                self.zones[obj["Nickname"]] = self.fake.add_zone(guid=obj["GUID"], name=obj["Nickname"],
                                                                 position=pos)
            elif obj["Name"] == "HandTrigger":
                self.fake.add_hand(obj["FogColor"], guid=obj["GUID"], position=pos)
            elif obj["Name"] in ("Deck", "DeckCustom"):
                cards = [{"guid": c["GUID"], "name": c["Nickname"], "gm_notes": c["GMNotes"],
                          "card_id": c["CardID"]} for c in obj["ContainedObjects"]]
                deck = self.fake.spawn_deck(cards, guid=obj["GUID"], name=obj["Nickname"], position=pos)
                self.decks[obj.get("GMNotes", "")] = deck
                if self.deck is None:
                    self.deck = deck
            else:
                self.fake.spawn(obj["Name"], guid=obj["GUID"], name=obj.get("Nickname", ""),
                                gm_notes=obj.get("GMNotes", ""), position=pos)
        if deck_seed is not None:  # the fake's shuffle keeps the order: shuffle the decks here instead
            random.Random(deck_seed).shuffle(self.deck._contents)
            for name, deck in self.decks.items():
                if deck is not self.deck:
                    random.Random(f"{deck_seed}/{name}").shuffle(deck._contents)
        self.guid_of = {c["GMNotes"]: c["GUID"] for o in save["ObjectStates"] for c in o.get("ContainedObjects", [])}
        self.hands = hand_transforms(save)
        self.fake.load_global(save["LuaScript"], save_state=state)

    # -- reading the mod ---------------------------------------------------------------
    def transcript(self) -> dict[str, Any]:
        transcript: dict[str, Any] = json.loads(self.fake.sandbox.call("onSave"))["transcript"]
        return transcript

    def zone_pos(self, role: str) -> tuple[float, float, float]:
        p = self.zones[role].getPosition()
        return (p.x, p.y, p.z)

    def last_broadcast(self) -> str:
        text: str = self.fake.broadcasts[-1].text
        return text

    # -- acting as a player ----------------------------------------------------------------
    def card(self, card_id: str) -> Any:
        """The card's object, taken out of its container first if it is in one."""
        obj = self.fake.get_object(self.guid_of[card_id])
        if obj.container is not None:
            obj = self.fake.take_from(obj.container, guid=obj.getGUID())
        return obj

    def drop(self, color: str, card_id: str, role: str, rotation_y: float | None = None) -> Any:
        """Pick the card up, optionally turn it, and drop it on zone ``role``."""
        obj = self.card(card_id)
        self.fake.fire("onObjectPickUp", color, obj)
        if rotation_y is not None:
            obj.setRotation({"x": 0, "y": rotation_y, "z": 0})
        return self.fake.drop(obj, color, self.zones[role], position=self.zone_pos(role))

    def click(self, color: str, fn: str, element_id: str | None = None, seconds: float = 1.0) -> Any:
        """Click, then let ``seconds`` pass (New game waits for the deck over a few frames).

        Not a drain: a first press of Forfeit or New game stays armed for a few
        seconds of the fake clock, and a drain would let it lapse."""
        result = self.fake.click_ui(fn, color, "-1", element_id)
        self.wait(seconds)
        return result

    def wait(self, seconds: float) -> None:
        """Let ``seconds`` of the fake clock pass."""
        self.fake.wait(seconds)


def snap_turn_problems(save: dict[str, Any], game_id: str) -> list[str]:
    """A piece or card dropped, held at a slant, on every board cell: it lands on the cell (the
    stand-in's snap) turned upright as it lay (a board snap at 0 turned it to the far player)."""
    layout = load_table_layout(game_id)
    fake = FakeTTS()
    objects = fake.load_save(save)
    loose = [o for o in objects.values() if o.container is None and o.name in ("Custom_Tile", "Custom_Token", "Card")
             and not o.getLock()]
    deck = next((o for o in objects.values() if o.type == "Deck"), None)
    if not loose and deck is None:
        return []
    mover = loose[0] if loose else fake.take_from(deck)
    upright = layout.card.rotation_y
    out = []
    for board in layout.boards:
        for cell in board.grid:
            x, z = board.cell_world(cell.id)
            fake.drop_at(mover, "White", (x + 0.1, 2.0, z - 0.1), (upright + 37.0) % 360.0, pick_up=False)
            turn = (mover.rotation[1] - upright - board.rotation_y - board.snap_rotation_y) % 360.0
            if min(turn, 360 - turn) > 0.5:
                out.append(f"{board.name} {cell.id}: turned {mover.rotation[1]:.0f}")
    return out


def walk_json(value: Any) -> Iterator[dict[str, Any]]:
    """Every JSON object in ``value`` (a save), depth first."""
    if isinstance(value, dict):
        yield value
        for v in value.values():
            yield from walk_json(v)
    elif isinstance(value, list):
        for v in value:
            yield from walk_json(v)
