"""A game with no options and no setup (``tests/toygames``' Toy Count) played through the
stubbed TTS on the shared runtime: what it saves must validate. An empty Lua table is written
as a JSON list unless tagged, so the recorder once saved ``"options": []`` for such a game and
``tts-builder validate`` refused every save its players made."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rules import registry
from toygames import COUNT, TOY_GAMES
from tts_builder import luagen
from tts_builder.testing import FakeTTS
from tts_builder.validate import validate_data

SEATS = [{"seat": 0, "color": "White"}, {"seat": 1, "color": "Red"}]
# The toy's table glue: two panel buttons (XmlUI callbacks) and the status line.
GLUE = """
Table = {}
function Table.update_ui() UI.setValue("tt-status", Game.last) end
function ttNewGame(player) Game.start({}, {}, { "White", "Red" }) end
function ttAdd(player, value) Game.submit(player.color, { type = "add", amount = tonumber(value) }) end
function ttForfeit(player) Game.submit(player.color, { type = "forfeit" }) end
"""
XML = '<Panel><Text id="tt-status"></Text></Panel>'


@pytest.fixture
def count_registered(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(registry._GAMES, COUNT.id, TOY_GAMES[COUNT.id])


def global_script() -> str:
    """Toy Count's Global script from the shared runtime templates (as render_global_lua lays it out)."""
    ctx: dict[str, Any] = {
        "game_id": COUNT.id, "game_name": COUNT.name, "tool": "tts-builder test",
        "rule_sections": {k: r.section for k, r in COUNT.rules.items()},
        "default_options": dict(COUNT.options), "score_unit": COUNT.score_unit, "seat_counts": [2],
        "confirm_seconds": luagen.CONFIRM_SECONDS,
        "table": {"seats": SEATS, "cards": {}, "hands": {}, "decks": {}},
    }
    rules_lua = (Path(__file__).parent / "toygames" / "count.lua").read_text("utf-8")
    return "\n".join([luagen.render("runtime/util.lua.j2", ctx), rules_lua, luagen.render("runtime/interfaces.lua.j2", ctx),
                      luagen.render("runtime/judge.lua.j2", ctx), luagen.render("runtime/recorder.lua.j2", ctx),
                      luagen.render("runtime/table.lua.j2", ctx), GLUE])


def test_toy_count_has_no_options() -> None:
    assert dict(COUNT.options) == {}
    assert COUNT.new_state().setup() == {}


def test_a_game_of_no_options_saves_an_object_and_its_save_validates(count_registered: None) -> None:
    fake = FakeTTS(seated=("White", "Red"))
    fake.ui.setXml(XML)
    fake.load_global(global_script())
    fake.click_ui("ttNewGame", "White")
    for color, amount in [("White", "1"), ("Red", "1"), ("White", "1"), ("Red", "2")]:
        fake.click_ui("ttAdd", color, amount)
    fake.click_ui("ttAdd", "White", "3")          # refused: the toy's own rule
    assert "[amount]" in str(fake.ui.getValue("tt-status"))
    saved = fake.save_and_reload()
    text = json.loads(saved)
    transcript = text["transcript"]
    # the raw save: objects, not lists, for the empty options and setup
    assert '"options":{}' in saved.replace(" ", "") and '"setup":{}' in saved.replace(" ", "")
    report = validate_data(transcript, "toy-count.json")
    assert report.legal, report.summary()
    assert not report.finished and len(transcript["moves"]) == 4
    # play on after the reload: the replayed state goes on where it stopped, and the end validates
    fake.click_ui("ttAdd", "White", "2")
    final = json.loads(fake.save_and_reload())["transcript"]
    report = validate_data(final, "toy-count.json")
    assert report.legal and report.finished, report.summary()
    assert final["result"]["winner"] == 0 and final["result"]["reason"] == "reached"


def test_a_save_with_options_as_a_list_is_what_validate_refuses(count_registered: None) -> None:
    """The bug's symptom, kept as a check that the test above could fail: the old recorder's shape."""
    fake = FakeTTS(seated=("White", "Red"))
    fake.ui.setXml(XML)
    fake.load_global(global_script())
    fake.click_ui("ttNewGame", "White")
    transcript = json.loads(fake.fire("onSave"))["transcript"]
    transcript["options"] = []
    with pytest.raises(Exception, match="options"):
        validate_data(transcript, "toy-count.json")
