"""A refused move's words go to the mover alone: the panel, which every seat reads, gets the rule
and who was refused, never the reason (it may name a card in the mover's hand). The shared
recorder's ``Game.refuse`` did write the whole refusal to the panel's ``tt-last``."""

from __future__ import annotations

from typing import Any

import pytest

import rules
from rules.two_and_two.engine import CARDS
from modtable import ModTable, build_save


@pytest.fixture(scope="module")
def two_and_two(tmp_path_factory) -> dict[str, Any]:
    return build_save(tmp_path_factory.mktemp("build"), "two-and-two")


def panel_text(table: ModTable) -> str:
    return " ".join(str(v) for v in table.fake.ui.values.values())


def test_a_refused_card_from_a_hand_is_named_to_its_holder_only(two_and_two):
    game = rules.get_game("two-and-two")
    for seed in range(12):
        table = ModTable(two_and_two, deck_seed=seed)
        table.click("White", "ttNewGame")
        state = game.new_state(setup=table.transcript()["setup"])
        top = state.legal_moves()[0]["card"]
        table.drop("White", top, "stack", 180.0)
        state.apply({"type": "start-stack", "card": top, "orientation": "up"})
        hand = state.to_json()["hands"][1]
        bad = next((c for c in hand if not state.check({"type": "play", "card": c}).ok), None)
        if bad is not None:
            break
    else:
        pytest.skip("no deal gave Red an unplayable card")
    verdict = state.check({"type": "play", "card": bad})
    name = CARDS[bad].describe()  # "Symbol card 1020 (square-hole-diamond-hole)"
    assert name in verdict.message  # the reason names the card: it must not reach the panel
    obj = table.card(bad)
    table.fake.fire("onObjectPickUp", "Red", obj)
    table.fake.drop(obj, "Red", position=table.zone_pos("stack"))
    said = table.fake.broadcasts[-1]
    assert said.color == "Red" and said.text.startswith(f"Not allowed [{verdict.rule}]: {verdict.message}")
    assert not any(name in m.text for m in table.fake.messages if m.color != "Red" and m.kind != "log")
    panel = panel_text(table)
    assert name not in panel and bad not in panel, panel
    assert f"[{verdict.rule}]" in panel and "Red's move was refused" in panel
    assert len(table.transcript()["moves"]) == 1
