"""The stand-in table (tts_builder.testing) behaves as TTS does where the mods rely on it: snap points
that move and turn a dropped object, hands that take the cards dropped, dealt or moved into them,
what a player sees (tooltips hidden face down, another's hand card, chat sent to a colour). Each
behaviour's source is cited beside it in tts_builder/testing.py."""

from __future__ import annotations

from typing import Any

import pytest

from tts_builder.testing import SNAP_RADIUS, FakeTTS


def _tile(guid: str, name: str, *, hide: bool = True, face_down: bool = False, x: float = 0.0) -> dict[str, Any]:
    return {"GUID": guid, "Name": "Custom_Tile", "Nickname": name, "Description": f"a {name} tile",
            "GMNotes": name.lower(), "HideWhenFaceDown": hide,
            "Transform": {"posX": x, "posY": 1.0, "posZ": 0.0, "rotX": 0, "rotY": 180, "rotZ": 180 if face_down else 0},
            "CustomImage": {"ImageURL": f"https://example.invalid/{name}.png",
                            "ImageSecondaryURL": "https://example.invalid/back.png"}}


def _hand(guid: str, color: str, x: float, z: float) -> dict[str, Any]:
    return {"GUID": guid, "Name": "HandTrigger", "FogColor": color,
            "Transform": {"posX": x, "posY": 3.0, "posZ": z, "rotX": 0, "rotY": 0, "rotZ": 0,
                          "scaleX": 10.0, "scaleY": 5.0, "scaleZ": 3.0}}


def _deck(guid: str, cards: list[str]) -> dict[str, Any]:
    return {"GUID": guid, "Name": "Deck", "Nickname": "deck",
            "Transform": {"posX": 0, "posY": 1, "posZ": 0, "rotX": 0, "rotY": 180, "rotZ": 180},
            "ContainedObjects": [{"GUID": f"c{i:05d}", "Name": "Card", "Nickname": c, "GMNotes": c.lower(),
                                  "Transform": {"posX": 0, "posY": 1, "posZ": 0, "rotX": 0, "rotY": 180, "rotZ": 180}}
                                 for i, c in enumerate(cards)]}


def test_a_drop_near_a_snap_point_moves_onto_it_and_turns_to_its_rotation():
    fake = FakeTTS()
    objs = fake.load_save({
        "ObjectStates": [_tile("aaaaaa", "Doves")],
        "SnapPoints": [{"Position": {"x": 5.0, "y": 1.0, "z": 2.0}, "Rotation": {"x": 0, "y": 90, "z": 0}},
                       {"Position": {"x": -5.0, "y": 1.0, "z": 2.0}}]})
    tile = objs["aaaaaa"]
    tile.setRotation({"x": 0, "y": 0, "z": 180})
    fake.drop(tile, "Red", position=(5.3, 1.5, 1.8))
    assert (tile.position[0], tile.position[2]) == (5.0, 2.0)
    assert tile.rotation == (0.0, 90.0, 180.0)  # turned to the snap's rotation, still face down
    fake.drop_at(tile, "Red", (-5.2, 1.5, 2.1), 30.0)  # a point without rotation snap: it keeps its turn
    assert (tile.position[0], tile.position[2]) == (-5.0, 2.0) and tile.rotation[1] == 30.0
    fake.drop_at(tile, "Red", (0.0, 1.5, 0.0))  # far from both: it stays where it fell
    assert (tile.position[0], tile.position[2]) == (0.0, 0.0)
    assert 0 < SNAP_RADIUS < 5.0


def test_snapping_can_be_turned_off_for_a_table_without_it():
    fake = FakeTTS(snap_radius=0)
    objs = fake.load_save({"ObjectStates": [_tile("aaaaaa", "Doves")],
                           "SnapPoints": [{"Position": {"x": 5.0, "y": 1.0, "z": 2.0}}]})
    fake.drop_at(objs["aaaaaa"], "Red", (5.3, 1.5, 1.8))
    assert objs["aaaaaa"].position[0] == 5.3


def test_a_card_dropped_in_a_hand_zone_is_held_by_that_hand_and_lua_sees_it():
    fake = FakeTTS(seated=("White", "Red"))
    objs = fake.load_save({"ObjectStates": [_hand("hhhhh1", "White", 0, -14), _hand("hhhhh2", "Red", 0, 14),
                                            _deck("dddddd", ["Ace", "King", "Queen"])]})
    fake.load_global("""
      entered = {}
      function onObjectEnterZone(zone, obj) entered[#entered + 1] = zone.type .. ':' .. obj.getName() end
      function held(color) local n = 0 for _, o in ipairs(Player[color].getHandObjects()) do n = n + 1 end return n end""")
    card = fake.take_from(objs["dddddd"])
    assert card.is_face_down
    fake.drop_at(card, "Red", (1.0, 1.0, 14.5))  # dropped over Red's hand
    assert fake.held_in_hand(card) == "Red" and not card.is_face_down  # held, shown face up to its owner
    assert fake.sandbox.call(fake.sandbox.lookup("held"), "Red") == 1
    assert fake.sandbox.lookup("entered")[1] == "Hand:Ace"
    assert fake.hidden_from(card, "White") and not fake.hidden_from(card, "Red")
    assert fake.seen_by(card, "White")["name"] == "" and fake.seen_by(card, "Red")["name"] == "Ace"
    fake.drop_at(card, "Red", (0.0, 1.0, 0.0))  # played out of the hand: everyone sees it
    assert fake.held_in_hand(card) is None and not fake.hidden_from(card, "White")
    assert fake.sandbox.call(fake.sandbox.lookup("held"), "Red") == 0
    tile = fake.spawn("Custom_Tile", name="Doves")
    fake.drop_at(tile, "Red", (1.0, 1.0, 14.5))  # a tile over a hand is not taken into it
    assert fake.held_in_hand(tile) is None


def test_cards_dealt_or_moved_by_a_script_into_a_hand_are_held_by_it():
    fake = FakeTTS(seated=("White", "Red"))
    objs = fake.load_save({"ObjectStates": [_hand("hhhhh1", "White", 0, -14), _hand("hhhhh2", "Red", 0, 14),
                                            _deck("dddddd", ["Ace", "King", "Queen", "Jack"])]})
    fake.load_global("""
      function deal() getObjectFromGUID('dddddd').deal(1, 'White') end
      function take() getObjectFromGUID('dddddd').takeObject({ position = { x = 0, y = 3, z = 14 } }) end
      function move(guid) getObjectFromGUID(guid).setPositionSmooth({ x = 0, y = 1, z = 0 }) end
      function held(color) local n = 0 for _, o in ipairs(Player[color].getHandObjects()) do n = n + 1 end return n end""")
    fake.sandbox.call(fake.sandbox.lookup("deal"))
    fake.sandbox.call(fake.sandbox.lookup("take"))
    fake.drain()
    ace, king = objs["c00000"], objs["c00001"]
    assert fake.held_in_hand(ace) == "White" and fake.held_in_hand(king) == "Red"
    assert not ace.is_face_down and not king.is_face_down
    assert fake.sandbox.call(fake.sandbox.lookup("held"), "White") == 1
    fake.sandbox.call(fake.sandbox.lookup("move"), "c00001")  # the script plays Red's card
    fake.drain()
    assert fake.held_in_hand(king) is None and fake.sandbox.call(fake.sandbox.lookup("held"), "Red") == 0


def test_the_player_view_shows_each_colour_its_own_chat_and_hides_face_down_names():
    fake = FakeTTS(seated=("White", "Red"))
    objs = fake.load_save({"ObjectStates": [_tile("aaaaaa", "Doves", face_down=True),
                                            _tile("bbbbbb", "Frogs", hide=False, face_down=True, x=3),
                                            _tile("cccccc", "Lions", x=6)]})
    fake.load_global("""
      function speak()
        printToColor('psst Red', 'Red') broadcastToColor('hello White', 'White') printToAll('to all')
        Player.Red.print('just Red') Notes.addNotebookTab({ title = 'Red notes', body = 'secret', color = 'Red' })
      end""")
    fake.sandbox.call(fake.sandbox.lookup("speak"))
    white, red = " ".join(fake.player_view("White")), " ".join(fake.player_view("Red"))
    assert "hello White" in white and "psst Red" not in white and "just Red" not in white and "secret" not in white
    assert "psst Red" in red and "just Red" in red and "secret" in red and "hello White" not in red
    assert "to all" in white and "to all" in red
    assert "a Frogs tile" in white and "a Lions tile" in white and "a Doves tile" not in white  # the toggle decides
    assert "https://example.invalid/Doves.png" in white  # both faces' file names load for a tile
    assert fake.player_view("White", since=len(fake.messages)) == [t for t in fake.player_view("White")
                                                                      if t not in ("hello White", "to all")]
    assert objs["bbbbbb"].hover_text()[0] == "Frogs"


@pytest.mark.parametrize("turn", [0.0, 90.0])
def test_zones_at_finds_the_zones_under_a_point_in_the_zones_own_turn(turn):
    fake = FakeTTS()
    fake.load_save({"ObjectStates": [{"GUID": "zzzzzz", "Name": "ScriptingTrigger", "Nickname": "long",
                                      "Transform": {"posX": 0, "posY": 1, "posZ": 0, "rotX": 0, "rotY": turn,
                                                    "rotZ": 0, "scaleX": 8.0, "scaleY": 1.0, "scaleZ": 2.0}}]})
    along_x = [z.getName() for z in fake.zones_at((3.5, 1.0, 0.0))]
    along_z = [z.getName() for z in fake.zones_at((0.0, 1.0, 3.5))]
    assert (along_x, along_z) == ((["long"], []) if turn == 0 else ([], ["long"]))
