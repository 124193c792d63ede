"""Event-level tests of the built Twin Tower City mod: the real save's Global script
runs under Lua 5.2 with a stubbed TTS API (FakeTTS); cards are dropped on the round
columns and panel buttons clicked as a player would, with moves chosen by the
Python simulated player; the transcript the mod records validates in Python, and
the score panel agrees with the Python engine's breakdown after every card."""

from __future__ import annotations

import json
import random
import re
import xml.etree.ElementTree as ET
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

import rules
from rules.players import choose
from rules.twin_tower_city import GAME
from rules.twin_tower_city.engine import CARDS, DEAL
from modtable import COLORS, ModTable, build_save
from tts_builder.errors import InputError
from tts_builder.lualint import lint_lua
from tts_builder.save import copy_card_id
from tts_builder.validate import validate_data

GAME_ID = "twin-tower-city"
REPO = Path(__file__).resolve().parents[1]
SIDE_OF_SEAT = ["light", "dark"]  # the engine's default seat0_side, by seat % 2
#: the options the panel toggles (those with a "table" entry in twin-tower-city.json) -> the toggle's label
TOGGLED = {name: o["table"]["label"] for name, o in GAME.data["options"].items() if "table" in o}


def physical(cid: str, seat: int) -> str:
    """The GMNotes of the card ``cid`` that ``seat`` holds: each pair of seats has its own deck copy."""
    return copy_card_id(cid, seat // 2 + 1)


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict[str, Any]:
    return build_save(tmp_path_factory.mktemp("build"), GAME_ID)


class Table(ModTable):
    """The TTC mod in a FakeTTS, with its own readers."""

    # -- reading the mod's state ---------------------------------------------------------
    def lua(self, dotted: str, empty_as: str = "list") -> Any:
        return self.fake.sandbox.from_lua(self.fake.sandbox.lookup(dotted), empty_as=empty_as)

    def lua_state(self) -> dict[str, Any]:
        """The mod's state as the engine's JSON (its null sentinel written as null)."""
        return json.loads(self.fake.sandbox.call(self.fake.sandbox.lookup("Table.state_json")))

    def choice(self) -> dict[str, Any] | None:
        return self.fake.sandbox.from_lua(self.fake.sandbox.call(self.fake.sandbox.lookup("Table.get_choice")),
                                          empty_as="list")

    def ui(self, element: str) -> str | None:
        return self.fake.ui.getValue(element)

    # -- acting as a player ---------------------------------------------------------------
    def pick_option(self, color: str, index: int) -> None:
        """Click option button ``index`` (1-based), after checking the panel shows it."""
        opt = self.choice()["options"][index - 1]
        element = f"tt-opt-{index}"
        assert self.fake.ui.active(element) and self.ui(element) == opt["label"]
        self.click(color, "ttOption", element)


def option_index(options: list[dict[str, Any]], **want: str) -> int:
    for i, opt in enumerate(options, 1):
        if all(opt.get(k) == v for k, v in want.items()):
            return i
    raise AssertionError(f"no option {want} among {[o['label'] for o in options]}")


def act(table: Table, state: Any, move: dict[str, Any]) -> None:
    """Make ``move`` the way a player at the table would."""
    seat = state.current_player()
    color = COLORS[seat]
    column = f"round-{state.to_json()['round']}"
    t = move["type"]
    if t == "play-battle":
        table.drop(color, physical(move["card"], seat), column)
    elif t == "play-army":
        table.drop(color, physical(move["card"], seat), column)
        choice = table.choice()
        assert choice is not None and choice["mode"] == "army", table.last_broadcast()
        for sw in move["swaps"]:
            table.pick_option(color, option_index(choice["options"], replace=sw["replace"], **{"with": sw["with"]}))
        table.click(color, "ttConfirm")
    elif t == "play-warrior":
        table.drop(color, physical(move["card"], seat), column)
        choice = table.choice()
        assert choice is not None and choice["mode"] == "warrior", table.last_broadcast()
        table.pick_option(color, option_index(choice["options"], replace=move["replace"]))
        table.click(color, "ttConfirm")
    elif t == "nullify-items":
        choice = table.choice()
        assert choice is not None and choice["mode"] == "nullify" and choice["color"] == color
        assert table.fake.ui.active("tt-choice")
        # the A-12 default is preselected: it is the engine's first listed choice
        default = sorted(choice["options"][i - 1]["item"] for i in choice["selected"])
        assert {"type": "nullify-items", "items": default} == state.legal_moves()[0]
        need = Counter(move["items"])
        keep: list[int] = []
        for i in choice["selected"]:
            item = choice["options"][i - 1]["item"]
            if need[item] > 0:
                need[item] -= 1
                keep.append(i)
            else:
                table.pick_option(color, i)  # deselect
        for i, opt in enumerate(choice["options"], 1):
            if i not in keep and need[opt["item"]] > 0:
                need[opt["item"]] -= 1
                table.pick_option(color, i)
        table.click(color, "ttConfirm")
    elif t == "forfeit":
        table.click(color, "ttForfeit")  # Forfeit asks to be pressed twice
        table.click(color, "ttForfeit")
    else:
        raise AssertionError(t)


def panel_matches_engine(table: Table, state: Any) -> None:
    """The score panel shows the Python engine's Power per side and rounds won."""
    data = state.to_json()
    if not state.is_terminal():
        totals = state.breakdown()["totals"]
    elif data["rounds"]:
        totals = state.round_breakdown(data["rounds"][-1]["round"])["totals"]
    else:
        totals = None
    for side in ("light", "dark"):
        shown = table.ui(f"tt-power-{side}")
        assert shown == ("-" if totals is None else str(totals[side])), (side, shown, totals)
        won = sum(1 for r in data["rounds"] if r["winner"] == side)
        assert table.ui(f"tt-won-{side}") == str(won)
    if not state.is_terminal():
        seat = state.current_player()
        assert f"Turn: {COLORS[seat]} ({state.side_of(seat).capitalize()})" in table.ui("tt-turn")


def starters_match_engine(table: Table, state: Any) -> None:
    """Starting cards lie face down until their round begins, then face up."""
    data = state.to_json()
    for seat, entry in enumerate(data["setup"]["seats"]):
        for r, cid in enumerate(entry["starters"], 1):
            obj = table.fake.get_object(table.guid_of[physical(cid, seat)])
            assert obj.is_face_down == (not state.is_terminal() and r > data["round"]), (cid, r, data["round"])


def play_through(table: Table, seed: int, policy: str, limit: int | None = None,
                 stats: Counter | None = None) -> tuple[Any, int]:
    """Play the game the mod dealt, choosing moves with a simulated player."""
    t = table.transcript()
    state = GAME.new_state(setup=t["setup"], options=t["options"])
    rng = random.Random(seed)
    n = len(t["moves"])
    for entry in t["moves"]:
        state.apply({k: v for k, v in entry.items() if k != "player"})
    panel_matches_engine(table, state)
    while not state.is_terminal() and (limit is None or n < limit):
        seat = state.current_player()
        move = choose(GAME, state, policy, rng)
        act(table, state, move)
        state.apply(move)
        n += 1
        recorded = table.transcript()["moves"]
        assert len(recorded) == n, f"move {n - 1} {move} not recorded: {table.fake.broadcasts[-1:]}"
        assert recorded[-1] == {"player": seat, **move}
        assert table.choice() is None or table.choice()["mode"] == "nullify"
        panel_matches_engine(table, state)
        starters_match_engine(table, state)
        if stats is not None:
            stats[move["type"]] += 1
            if move["type"] == "play-army":
                stats[f"swaps-{len(move['swaps'])}"] += 1
    return state, n


def new_game(built: dict[str, Any], deck_seed: int | None = None) -> Table:
    table = Table(built, deck_seed=deck_seed)
    table.click("White", "ttNewGame")
    return table


def python_deal(order: list[str]) -> dict[str, Any]:
    """The deal the notebook documents, written again in Python from the description."""
    battle: list[list[str]] = [[], []]
    extra: list[list[str]] = [[], []]
    seat_of = {"light": 0, "dark": 1}
    last = None
    for cid in order:
        card = CARDS[cid]
        if card.kind == "battle":
            last = cid
            dealt = len(battle[0]) + len(battle[1])
            if dealt < 2 * DEAL["battle"]:
                battle[dealt % 2].append(cid)
        else:
            seat = seat_of[str(card.side)]
            if sum(1 for c in extra[seat] if CARDS[c].kind == card.kind) < DEAL[card.kind]:
                extra[seat].append(cid)
    battle_ids = [c for c in CARDS if CARDS[c].kind == "battle"]
    assert last is not None
    return {"coin": (battle_ids.index(last) + 1) % 2,
            "seats": [{"starters": b[:DEAL["starters"]], "hand": sorted(b[DEAL["starters"]:] + e)}
                      for b, e in zip(battle, extra)]}


# --------------------------------------------------------------------------- the generated files


def test_generated_lua_passes_the_moonsharp_lint_and_the_xmlui_is_well_formed(built):
    assert lint_lua(built["LuaScript"], "Global.lua") == []
    root = ET.fromstring(f"<root>{built['XmlUI']}</root>")
    ids = {el.attrib["id"] for el in root.iter() if "id" in el.attrib}
    assert {"tt-power-light", "tt-power-dark", "tt-won-light", "tt-won-dark", "tt-turn", "tt-choice",
            "tt-confirm", "tt-cancel", "tt-new", "tt-forfeit"} <= ids
    # every onClick handler exists in the Global script
    for el in root.iter():
        if "onClick" in el.attrib:
            assert re.search(rf"^function {el.attrib['onClick']}\(", built["LuaScript"], re.M), el.attrib
    options = [i for i in ids if re.fullmatch(r"tt-opt-\d+", i)]  # the choice panel's slots
    slots = int(re.search(r"^local OPTION_SLOTS = (\d+)", built["LuaScript"], re.M).group(1))
    assert len(options) == slots
    # the rule-reading toggles (runtime/options.xml.j2): one per option the data offers at the table
    toggles = {el.attrib["id"] for el in root.iter() if el.attrib.get("onClick") == "ttTableOption"}
    assert toggles == {f"tt-opt-{name}" for name in TOGGLED}


def test_the_panel_holds_its_rows_and_the_choice_panel_lies_below_it(built):
    """The toggles made the panel taller: its rows (preferred heights, spacing, padding) fit in its
    height, and the choice panel opens below it, not over the toggles."""
    root = ET.fromstring(f"<root>{built['XmlUI']}</root>")
    panels = {el.attrib["id"]: el for el in root if el.tag == "Panel"}
    panel, choice = panels["tt-panel"], panels["tt-choice"]
    column = panel.find("VerticalLayout")
    assert column is not None
    rows = list(column)
    _, _, top, bottom = (float(v) for v in panel.attrib["padding"].split())  # XmlUI: left right top bottom
    needed = sum(float(r.attrib["preferredHeight"]) for r in rows) + float(column.attrib["spacing"]) * (len(rows) - 1)
    assert needed + top + bottom <= float(panel.attrib["height"])
    assert sum(1 for r in rows for b in r.iter("Button") if b.attrib.get("onClick") == "ttTableOption") == len(TOGGLED)
    for r in rows:  # two toggles to a row at most: four labels like "Duplicate's item: duplicate-card" need the width
        assert sum(1 for b in r.iter("Button") if b.attrib.get("onClick") == "ttTableOption") <= 2
    panel_top = -float(panel.attrib["offsetXY"].split()[1])
    choice_top = -float(choice.attrib["offsetXY"].split()[1])
    assert panel.attrib["rectAlignment"] == choice.attrib["rectAlignment"] == "UpperRight"
    assert choice_top >= panel_top + float(panel.attrib["height"])


def test_the_lua_slot_offsets_match_the_layout_and_the_columns_stand_apart(built):
    layout = json.loads((REPO / "art_src" / GAME_ID / "table.json").read_text())
    lua = built["LuaScript"]
    offsets = [float(x) for x in re.search(r"^local SLOT_OFFSETS = \{ (.*) \}", lua, re.M).group(1).split(",")]
    rounds = [z for z in layout["zones"] if z["role"].startswith("round-")]
    assert [z["role"] for z in rounds] == [f"round-{r}" for r in range(1, 6)]
    for z in rounds:
        snaps = sorted(dz for _, dz in z["snaps"])
        assert snaps == sorted([-o for o in offsets] + offsets)
    # a drop is judged by the zone it lands in (the shared Cards.zone_at, the first zone by role
    # that holds it): a ROUND zone overlaps no other zone, so a drop belongs to at most one
    def overlap(a: dict[str, Any], b: dict[str, Any]) -> bool:
        return all(abs(a["center"][i] - b["center"][i]) < (a["size"][i] + b["size"][i]) / 2 for i in (0, 1))
    for z in rounds:
        assert not any(overlap(z, other) for other in layout["zones"] if other is not z), z["role"]


def test_a_drop_counts_on_a_round_column_up_to_its_zone_edge_and_not_beyond(built):
    table = new_game(built, deck_seed=4)
    state = GAME.new_state(setup=table.transcript()["setup"])
    seat = state.current_player()
    color = COLORS[seat]
    cid = next(m["card"] for m in state.legal_moves() if m["type"] == "play-battle")
    layout = json.loads((REPO / "art_src" / GAME_ID / "table.json").read_text())
    zone = next(z for z in layout["zones"] if z["role"] == "round-1")
    x, y, z = table.zone_pos("round-1")
    half = zone["size"][0] / 2
    obj = table.card(physical(cid, seat))
    table.fake.fire("onObjectPickUp", color, obj)
    table.fake.drop(obj, color, position=(x + half + 0.1, y, z))  # between ROUND 1 and ROUND 2: no move
    assert table.transcript()["moves"] == [] and table.lua_state()["hands"][seat].count(cid) == 1
    table.fake.fire("onObjectPickUp", color, obj)
    table.fake.drop(obj, color, position=(x + half - 0.05, y, z))  # just inside ROUND 1: the move
    assert table.transcript()["moves"] == [{"type": "play-battle", "card": cid, "player": seat}]


# --------------------------------------------------------------------------- the deal


def test_new_game_deals_a_setup_the_engine_accepts_and_lays_out_the_cards(built):
    for deck_seed in (None, 1, 2, 3):
        table = Table(built, deck_seed=deck_seed)
        order = [c.getGMNotes() for c in table.deck.contents]  # top first, as the fake shuffle leaves it
        table.click("White", "ttNewGame")
        t = table.transcript()
        setup = t["setup"]
        assert setup == python_deal(order)
        state = GAME.new_state(setup=setup)  # raises SetupError if the deal broke a rule
        assert state.setup() == setup
        assert t["options"] == dict(GAME.options) and t["moves"] == []
        # the coin names the seat that plays first in round 1
        assert state.current_player() == setup["coin"]
        assert f"{COLORS[setup['coin']]} plays the second card first" in table.fake.broadcasts[-1].text
        # the cards: hands at the hand positions, starting cards face down in their column, round 1 face up
        for seat, entry in enumerate(setup["seats"]):
            hand = table.hands[COLORS[seat]]
            for cid in entry["hand"]:
                obj = table.fake.get_object(table.guid_of[cid])
                assert obj.container is None and obj.position[0::2] == (hand["posX"], hand["posZ"])
            for r, cid in enumerate(entry["starters"], 1):
                obj = table.fake.get_object(table.guid_of[cid])
                column = table.zone_pos(f"round-{r}")
                assert obj.container is None and obj.position[0] == column[0]
                assert (obj.position[2] < column[2]) == (seat == 0)
                assert obj.is_face_down == (r > 1)
        assert len(table.deck.contents) == 80 - 2 * 17


def test_the_deal_follows_the_documented_procedure_for_any_deck_order(built):
    table = Table(built)
    deal = table.fake.sandbox.lookup("Table.deal")
    rng = random.Random(11)
    coins = Counter()
    for _ in range(40):
        order = list(CARDS)
        rng.shuffle(order)
        setup = table.fake.sandbox.from_lua(table.fake.sandbox.call(deal, table.fake.sandbox.to_lua(order)))
        assert setup == python_deal(order)
        GAME.new_state(setup=setup)
        coins[setup["coin"]] += 1
    assert set(coins) == {0, 1}
    # the coin card is never dealt
    order = list(CARDS)
    setup = python_deal(order)
    dealt = {c for s in setup["seats"] for c in s["starters"] + s["hand"]}
    assert [c for c in order if CARDS[c].kind == "battle"][-1] not in dealt
    # an incomplete deck is reported, not dealt
    short = table.fake.sandbox.call(deal, table.fake.sandbox.to_lua(order[:30]))
    assert short[0] is None and "missing cards" in short[1]


def test_new_game_again_gathers_every_card_and_deals_afresh(built):
    table = new_game(built, deck_seed=4)
    play_through(table, seed=4, policy="random", limit=8)
    random.Random(5).shuffle(table.deck._contents)  # the fake's shuffle keeps the order
    table.click("Red", "ttNewGame")  # a game is in progress: the first press only asks
    assert "Press New game again" in table.last_broadcast() and len(table.transcript()["moves"]) == 8
    table.click("Red", "ttNewGame")
    t = table.transcript()
    assert t["moves"] == []
    GAME.new_state(setup=t["setup"])
    assert len(table.deck.contents) == 80 - 2 * 17


# --------------------------------------------------------------------------- whole games


@pytest.fixture(scope="module")
def games(built) -> dict[str, Any]:
    """Whole games played through table events: (seed, policy) -> (table, final state, moves)."""
    stats: Counter = Counter()
    out: dict[str, Any] = {"stats": stats, "games": []}
    for seed, policy in ((1, "heuristic"), (2, "random"), (3, "random"), (4, "heuristic")):
        table = new_game(built, deck_seed=seed)
        state, n = play_through(table, seed, policy, stats=stats)
        out["games"].append((seed, table, state, n))
    return out


def test_whole_games_played_through_table_events_validate(built, games):
    by_rounds = 0
    for seed, table, state, n in games["games"]:
        assert state.is_terminal() and n >= 20  # 2 cards x 2 players x 5 rounds, plus item choices
        transcript = table.transcript()
        assert table.lua_state()["phase"] == "over"
        assert transcript["result"]["winner"] == state.result().winner
        assert transcript["result"]["reason"] == state.result().reason
        report = validate_data({**built, "LuaScriptState": json.dumps({"transcript": transcript})}, "save.json")
        assert report.legal and report.finished, report.summary()
        assert report.moves_checked == n
        assert table.ui("tt-turn") == "Game over"
        assert ("wins" in table.ui("tt-status")) == (state.result().winner is not None)
        result = transcript["result"]
        if result["reason"] == "rounds":  # Controls.result_status: the side, its players and the rounds
            win = result["winning_side"]
            lose = "dark" if win == "light" else "light"
            want = (f"{win.capitalize()} ({COLORS[SIDE_OF_SEAT.index(win)]}) wins, {result['rounds_won'][win]} rounds to "
                    f"{result['rounds_won'][lose]}.")
            assert table.ui("tt-status") == want
            by_rounds += 1
        assert rules.canonical_json(table.lua_state()) == rules.canonical_json(state.to_json())
    assert by_rounds > 0


def test_the_games_used_every_kind_of_move_and_choice(games):
    stats = games["stats"]
    for kind in ("play-battle", "play-army", "play-warrior", "nullify-items"):
        assert stats[kind] > 0, stats
    assert stats["swaps-0"] + stats["swaps-1"] > 0 and stats["swaps-2"] > 0, stats


def test_played_cards_lie_in_their_round_column_and_starting_cards_are_face_up(games):
    seed, table, state, n = games["games"][0]
    data = state.to_json()
    for rec in data["rounds"]:
        column = table.zone_pos(f"round-{rec['round']}")
        for play in rec["table"]:
            obj = table.fake.get_object(table.guid_of[play["card"]])
            assert obj.position[0] == column[0] and not obj.is_face_down
            assert (obj.position[2] < column[2]) == (play["seat"] == 0)
            # further from the centre line with each stage
            assert abs(obj.position[2] - column[2]) == pytest.approx([1.8, 5.2, 8.6][play["stage"] - 1])
    # two cards per player are left in hand
    for seat in (0, 1):
        assert len(data["hands"][seat]) == 2


def test_the_score_tooltip_breaks_the_power_down(built):
    table = new_game(built, deck_seed=1)
    state = GAME.new_state(setup=table.transcript()["setup"])
    bd = state.breakdown()
    for side in ("light", "dark"):
        tip = table.fake.ui.getAttribute(f"tt-power-{side}", "tooltip")
        assert tip.startswith(f"Round 1 so far: {side.capitalize()} {bd['totals'][side]}")
        for w in bd[side]["warriors"]:
            assert f"{w['name']} {w['power']} [{w['card']}]" in tip
        for it in bd[side]["items"]:
            assert it["name"] in tip
        for e in bd[side]["environments"]:
            assert e["name"] in tip
        totals = bd[side]["totals"]
        assert f"Warriors {totals['warriors']}" in tip and f"Items {totals['items']}, bonuses {totals['bonuses']}" in tip


def test_round_boxes_show_each_round_and_its_breakdown(games):
    seed, table, state, n = games["games"][1]
    for rec in state.to_json()["rounds"]:
        r = rec["round"]
        label = "tie" if rec["winner"] is None else rec["winner"].capitalize()
        assert table.ui(f"tt-r{r}") == f"R{r} {label}"
        tip = table.fake.ui.getAttribute(f"tt-r{r}", "tooltip")
        assert f"Light {rec['totals']['light']}, Dark {rec['totals']['dark']}" in tip


# --------------------------------------------------------------------------- refusals


def third_card_moment(built, want: str, seeds=range(1, 60)) -> tuple[Table, Any]:
    """A table where the player to move plays a third card and holds a card of kind ``want``."""
    for seed in seeds:
        table = new_game(built, deck_seed=seed)
        state = GAME.new_state(setup=table.transcript()["setup"])
        rng = random.Random(seed)
        while not state.is_terminal():
            if state.stage() == 3 and state.to_json()["phase"] == "play":
                hand = state.to_json()["hands"][state.current_player()]
                if any(CARDS[c].kind == want for c in hand):
                    return table, state
            move = choose(GAME, state, "random", rng)
            if move["type"] in ("play-army", "play-warrior"):
                move = next(m for m in state.legal_moves() if m["type"] == "play-battle")
            act(table, state, move)
            state.apply(move)
    raise AssertionError("no such moment")


def assert_refused(table: Table, rule: str, cid: str, moves_before: int, owner: str) -> None:
    assert f"[{rule}]" in table.last_broadcast()
    assert f"[{rule}]" in table.ui("tt-last")
    assert len(table.transcript()["moves"]) == moves_before
    obj = table.fake.get_object(table.guid_of[cid])
    hand = table.hands[owner]
    assert obj.position[0::2] == (hand["posX"], hand["posZ"])  # back in the hand it came from
    assert table.choice() is None or table.choice()["mode"] == "nullify"


def test_an_army_card_of_the_other_side_is_refused_and_goes_back(built):
    table, state = third_card_moment(built, "army")
    seat = state.current_player()
    other = state.to_json()["hands"][1 - seat]
    foreign = next(c for c in other if CARDS[c].kind == "army")
    n = len(table.transcript()["moves"])
    table.drop(COLORS[seat], foreign, f"round-{state.to_json()['round']}")
    verdict = state.check({"type": "play-army", "card": foreign, "swaps": []})
    assert not verdict.ok and verdict.rule == "card-in-hand"
    assert_refused(table, verdict.rule, foreign, n, COLORS[1 - seat])


def test_an_illegal_replacement_chosen_on_the_panel_is_refused_and_the_card_goes_back(built):
    table, state = third_card_moment(built, "army")
    seat = state.current_player()
    color = COLORS[seat]
    army = next(c for c in state.to_json()["hands"][seat] if CARDS[c].kind == "army")
    n = len(table.transcript()["moves"])
    table.drop(color, army, f"round-{state.to_json()['round']}")
    choice = table.choice()
    assert choice["mode"] == "army" and table.fake.ui.active("tt-choice")
    # every listed pairing is legal on its own
    for opt in choice["options"]:
        assert state.check({"type": "play-army", "card": army,
                            "swaps": [{"replace": opt["replace"], "with": opt["with"]}]}).ok
    # two pairings that do not go together: the same incoming warrior twice, or one
    # warrior of yours (a single copy) replaced twice
    side = SIDE_OF_SEAT[seat]
    copies = Counter(w["warrior"] for w in state.to_json()["warriors"][side] if not w["replaced"] and not w["level"])
    opts = choice["options"]
    pair = next(((i, j) for i in range(len(opts)) for j in range(i + 1, len(opts))
                 if opts[i]["with"] == opts[j]["with"]
                 or (opts[i]["replace"] == opts[j]["replace"] and copies[opts[i]["replace"]] < 2)), None)
    if pair is None:
        pytest.skip("no conflicting pairings in this position")
    move = {"type": "play-army", "card": army,
            "swaps": sorted(({"replace": opts[k]["replace"], "with": opts[k]["with"]} for k in pair),
                            key=lambda s: (s["replace"], s["with"]))}
    verdict = state.check(move)
    assert not verdict.ok and verdict.rule in ("army-card", "replace-own-warrior")
    for k in pair:
        table.pick_option(color, k + 1)
    assert f"[{verdict.rule}]" in table.ui("tt-choice-verdict")  # the panel warns before Confirm
    table.click(color, "ttConfirm")
    assert_refused(table, verdict.rule, army, n, color)
    assert not table.fake.ui.active("tt-choice")


def test_special_cards_as_second_card_are_refused_by_rule(built):
    table = new_game(built, deck_seed=3)
    state = GAME.new_state(setup=table.transcript()["setup"])
    seat = state.current_player()
    for kind in ("army", "warrior"):
        cid = next(c for c in state.to_json()["hands"][seat] if CARDS[c].kind == kind)
        table.drop(COLORS[seat], cid, "round-1")
        assert_refused(table, "second-card-battle", cid, 0, COLORS[seat])


def test_turn_order_wrong_column_and_game_over_refusals(built):
    table = new_game(built, deck_seed=2)
    state = GAME.new_state(setup=table.transcript()["setup"])
    seat = state.current_player()
    other_battle = next(c for c in state.to_json()["hands"][1 - seat] if CARDS[c].kind == "battle")
    table.drop(COLORS[1 - seat], other_battle, "round-1")
    assert_refused(table, "turn-order", other_battle, 0, COLORS[1 - seat])
    mine = next(c for c in state.to_json()["hands"][seat] if CARDS[c].kind == "battle")
    table.drop(COLORS[seat], mine, "round-3")
    assert_refused(table, "play-area", mine, 0, COLORS[seat])
    # a starting card is not in the hand: it goes back to its slot, face down
    later = state.setup()["seats"][seat]["starters"][2]
    table.drop(COLORS[seat], later, "round-1")
    assert "[card-in-hand]" in table.last_broadcast()
    obj = table.fake.get_object(table.guid_of[later])
    assert obj.position[0] == table.zone_pos("round-3")[0] and obj.is_face_down
    # nor may anyone turn it over early
    assert table.fake.flip(obj, COLORS[seat]) is False and obj.is_face_down
    # forfeit ends the game; the other side wins
    table.click(COLORS[1 - seat], "ttForfeit")
    assert "[turn-order]" in table.last_broadcast()
    table.click(COLORS[seat], "ttForfeit")
    assert "Press Forfeit again" in table.last_broadcast() and table.transcript()["moves"] == []
    table.click(COLORS[seat], "ttForfeit")
    t = table.transcript()
    assert t["moves"] == [{"player": seat, "type": "forfeit"}] and t["result"]["winner"] == 1 - seat
    assert "conceded" in table.ui("tt-status")
    table.drop(COLORS[1 - seat], other_battle, "round-1")
    assert "[game-over]" in table.last_broadcast()


def test_cancel_takes_the_card_back_and_a_spectator_cannot_choose(built):
    table, state = third_card_moment(built, "warrior")
    seat = state.current_player()
    color = COLORS[seat]
    warrior = next(c for c in state.to_json()["hands"][seat] if CARDS[c].kind == "warrior")
    n = len(table.transcript()["moves"])
    table.drop(color, warrior, f"round-{state.to_json()['round']}")
    choice = table.choice()
    legal = sorted(m["replace"] for m in state.legal_moves() if m.get("card") == warrior)
    assert sorted(o["replace"] for o in choice["options"]) == legal
    table.click(COLORS[1 - seat], "ttOption", "tt-opt-1")
    assert f"It is {color}'s choice" in table.last_broadcast()
    assert table.choice()["selected"] == []
    table.click(color, "ttConfirm")  # nothing chosen yet: not submitted
    assert len(table.transcript()["moves"]) == n and table.choice() is not None
    table.click(color, "ttCancel")
    assert table.choice() is None and not table.fake.ui.active("tt-choice")
    obj = table.fake.get_object(table.guid_of[warrior])
    hand = table.hands[color]
    assert obj.position[0::2] == (hand["posX"], hand["posZ"])
    assert len(table.transcript()["moves"]) == n


# --------------------------------------------------------------------------- save and reload


def test_save_and_reload_keeps_the_transcript_and_the_state(built):
    table = new_game(built, deck_seed=7)
    play_through(table, seed=7, policy="random", limit=15)
    before = table.transcript()
    state_before = table.lua_state()
    values_before = {k: table.ui(k) for k in ("tt-power-light", "tt-power-dark", "tt-won-light", "tt-turn")}
    saved = table.fake.save_and_reload()
    assert json.loads(saved)["transcript"] == before
    assert table.transcript() == before and len(before["moves"]) == 15
    assert rules.canonical_json(table.lua_state()) == rules.canonical_json(state_before)
    assert {k: table.ui(k) for k in values_before} == values_before  # the panel is rebuilt on load
    table.fake.ui.values.clear()  # as if TTS had not built the XmlUI yet during onLoad
    table.fake.step(2)
    assert {k: table.ui(k) for k in values_before} == values_before  # ... and again a frame later
    # the reloaded mod goes on from where it was, to the end
    state, n = play_through(table, seed=8, policy="heuristic")
    assert state.is_terminal()
    report = validate_data({**built, "LuaScriptState": table.fake.sandbox.call("onSave")}, "save.json")
    assert report.legal and report.finished and report.moves_checked == n


def test_a_saved_deal_the_rules_do_not_allow_is_refused_at_load_in_validate_s_words(built):
    table = new_game(built, deck_seed=9)
    transcript = table.transcript()
    seats = transcript["setup"]["seats"]
    seats[1]["starters"][0] = seats[0]["starters"][0]  # one Battle card dealt to both seats of a pair
    table = Table(built, state=json.dumps({"transcript": transcript}))
    said = " ".join(m.text for m in table.fake.broadcasts)
    assert "[setup]: setup seats 0 and 1 share one deck: a card is dealt twice." in said, said
    with pytest.raises(InputError, match="setup seats 0 and 1 share one deck: a card is dealt twice"):
        validate_data({**built, "LuaScriptState": json.dumps({"transcript": transcript})}, "save.json")


def test_a_finished_game_survives_reload_with_its_result(games):
    seed, table, state, n = games["games"][2]
    before = table.transcript()
    table.fake.save_and_reload()
    assert table.transcript() == before  # result included, nulls and all
    assert table.ui("tt-turn") == "Game over"


def test_a_pending_choice_is_dropped_by_reload_and_the_card_returns(built):
    table, state = third_card_moment(built, "army")
    seat = state.current_player()
    army = next(c for c in state.to_json()["hands"][seat] if CARDS[c].kind == "army")
    n = len(table.transcript()["moves"])
    table.drop(COLORS[seat], army, f"round-{state.to_json()['round']}")
    assert table.choice() is not None
    table.fake.save_and_reload()
    assert table.choice() is None and not table.fake.ui.active("tt-choice")
    assert len(table.transcript()["moves"]) == n
    obj = table.fake.get_object(table.guid_of[army])
    hand = table.hands[COLORS[seat]]
    assert obj.position[0::2] == (hand["posX"], hand["posZ"])


def test_buttons_before_a_game_say_what_to_do(built):
    table = Table(built)
    idle = "Press New game to shuffle and deal (2, 4 or 6 seated players; alone, you play both sides)."
    assert table.ui("tt-status") == idle  # Controls.idle_status, the panel's line before a game
    assert re.search(r'id="tt-status"[^>]*>([^<]*)<', built["XmlUI"]).group(1) == idle  # the XmlUI's, before the script runs
    table.click("White", "ttForfeit")
    assert "New game" in table.last_broadcast()
    assert "New game" in str(table.ui("tt-status"))
    table.click("White", "ttConfirm")
    assert "Nothing to choose" in table.last_broadcast()


def test_new_game_needs_a_player_count_the_game_allows_and_cards_do_not_merge_mid_game(built):
    table = Table(built)
    table.fake.seat("Blue")
    table.click("White", "ttNewGame")
    assert "needs 2, 4, 6 seated players; seated now: White, Red, Blue." in table.last_broadcast()
    assert table.fake.sandbox.lookup("Game.state") is None
    table.fake.unseat("Blue")
    table.click("White", "ttNewGame")
    transcript = table.transcript()
    hand_card = GAME.new_state(setup=transcript["setup"]).to_json()["hands"][0][0]
    obj = table.card(hand_card)
    assert table.fake.put_into(table.deck, obj) is False
    assert obj.container is None


@pytest.mark.parametrize("alone", ["White", "Orange"])  # Orange: a host at a colour the game does not seat
def test_a_lone_tester_plays_both_sides_by_changing_colour(built, alone):
    table = Table(built, deck_seed=5)
    for color in COLORS:
        table.fake.unseat(color)
    table.fake.seat(alone)
    assert "alone, you play both sides" in str(table.ui("tt-status"))
    table.click(alone, "ttNewGame")
    t = table.transcript()
    assert [p["color"] for p in t["players"]] == COLORS
    said = [m.text for m in table.fake.broadcasts]
    assert any(m.startswith("New game: White (Light) against Red (Dark). The coin:") for m in said), said
    assert any(m.startswith("Hot seat: one player plays White and Red") and "player list" in m for m in said), said
    state = GAME.new_state(setup=t["setup"], options=t["options"])
    rng = random.Random(5)
    seated = alone
    movers = set()
    while len(movers) < 2 or len(t["moves"]) < 4:
        color = COLORS[state.current_player()]
        if color != seated:  # the panel says how; the tester changes colour to the seat to move
            assert f"Hot seat: to move as {color}" in str(table.ui("tt-status"))
            table.fake.unseat(seated)
            table.fake.seat(color)
            table.fake.fire("onPlayerChangeColor", color)  # what TTS calls as a player changes colour
            seated = color
        assert "Hot seat" not in str(table.ui("tt-status"))  # seated there: nothing to say
        move = choose(GAME, state, "random", rng)
        act(table, state, move)
        state.apply(move)
        t = table.transcript()
        assert t["moves"][-1] == {"player": COLORS.index(color), **move}, table.fake.broadcasts[-1:]
        panel_matches_engine(table, state)
        movers.add(color)
    saved = table.fake.sandbox.call("onSave")
    report = validate_data({**built, "LuaScriptState": saved}, "save.json")
    assert report.legal and report.moves_checked == len(t["moves"]), report.summary()


def test_hidden_starting_cards_cannot_be_picked_up_and_the_deck_cannot_be_dealt_by_number(built):
    table = Table(built)
    table.click("White", "ttNewGame")
    want = table.fake.sandbox.from_lua(table.fake.sandbox.call(table.fake.sandbox.lookup("Table.placements")),
                                       empty_as="dict")
    hidden = sorted(card for card, w in want.items() if isinstance(w, dict) and w.get("hidden"))
    assert hidden, "later rounds' starting cards lie face down"
    obj = table.card(hidden[0])
    player = table.fake.player("White")
    pick_up = table.fake._action("PickUp")
    assert table.fake.fire("onPlayerAction", player, pick_up, table.fake.sandbox.table(obj)) is False
    assert "face down" in table.last_broadcast()
    assert table.fake.fire("onObjectNumberTyped", table.deck, "White", 3) is True
    assert "dealt only by New game" in table.last_broadcast()


# --------------------------------------------------------------------------- the options at the table


def test_the_rule_readings_and_the_sides_are_chosen_on_the_panel_recorded_and_shown_after_a_load(built):
    """Each toggle (runtime/options.lua.j2) changes the next game's option and tells the table in
    words; New game plays them (the first seat's side decides who is dealt the Dark Army and Warrior
    cards), the transcript records them and validates, and a reload shows the loaded game's values."""
    table = Table(built, deck_seed=21)
    assert {n: table.ui(f"tt-opt-{n}") for n in TOGGLED} == {
        "seat0_side": "First seat's side: light", "duplicate_item": "Duplicate's item: owner-choice",
        "wielder_bonus": "Wielder +5: every-copy", "level_rounds": "Tied on rounds: draw"}
    chosen = {"seat0_side": "dark", "duplicate_item": "duplicate-card", "wielder_bonus": "one-copy",
              "level_rounds": "power"}
    for name, value in chosen.items():
        table.click("Red", "ttTableOption", f"tt-opt-{name}", seconds=0.1)
        assert table.ui(f"tt-opt-{name}") == f"{TOGGLED[name]}: {value}"
        words = GAME.data["options"][name]["table"]["words"][value]
        assert table.last_broadcast() == f"Red set the next game's {TOGGLED[name]}: {value} ({words}). New game plays it."
    table.click("White", "ttNewGame")
    t = table.transcript()
    assert t["options"] == {**GAME.options, **chosen}
    started = next(m.text for m in table.fake.broadcasts if m.text.startswith("New game: White (Dark) against Red (Light)."))
    assert started.endswith(" Played with Duplicate's item: duplicate-card, Tied on rounds: power, Wielder +5: one-copy.")
    for seat, entry in enumerate(t["setup"]["seats"]):  # White, the first seat, holds the Dark Army and Warrior cards
        sides = {CARDS[c].side for c in entry["hand"] if CARDS[c].kind in ("army", "warrior")}
        assert sides == {["dark", "light"][seat]}, (seat, sides)
    assert table.ui("tt-name-dark") == "Dark - White"
    state, n = play_through(table, seed=21, policy="heuristic", limit=12)
    report = validate_data({**built, "LuaScriptState": table.fake.sandbox.call("onSave")}, "save.json")
    assert report.legal and report.moves_checked == n
    # a click between games changes the next game only; the loaded game shows its own again
    table.click("White", "ttTableOption", "tt-opt-level_rounds", seconds=0.1)
    assert table.ui("tt-opt-level_rounds") == "Tied on rounds: draw"
    assert table.transcript()["options"]["level_rounds"] == "power"
    table.fake.save_and_reload()
    table.wait(0.1)
    assert {n: table.ui(f"tt-opt-{n}") for n in TOGGLED} == {n: f"{TOGGLED[n]}: {v}" for n, v in chosen.items()}
    state, n = play_through(table, seed=22, policy="random")  # the reloaded game goes on to its end
    report = validate_data({**built, "LuaScriptState": table.fake.sandbox.call("onSave")}, "save.json")
    assert report.legal and report.finished and report.moves_checked == n


def test_team_play_deals_each_pair_by_the_first_seat_s_side(built):
    """With four seated and the first seat's side set to Dark, each pair of seats is dealt its
    side's Army and Warrior cards from its own copy: White and Blue play Dark."""
    table = Table(built, deck_seed=4)
    table.fake.seat("Blue")
    table.fake.seat("Green")
    table.click("Blue", "ttTableOption", "tt-opt-seat0_side", seconds=0.1)
    table.click("White", "ttNewGame")
    t = table.transcript()
    assert [p["color"] for p in t["players"]] == ["White", "Red", "Blue", "Green"], table.fake.broadcasts[-2:]
    assert t["options"]["seat0_side"] == "dark"
    assert t["options"]["teams"] is True  # recorded as the engine resolves it (simulate writes the same)
    GAME.new_state(setup=t["setup"], options=t["options"], num_players=4)
    for seat, entry in enumerate(t["setup"]["seats"]):
        sides = {CARDS[c].side for c in entry["hand"] if CARDS[c].kind in ("army", "warrior")}
        assert sides == {["dark", "light"][seat % 2]}, (seat, sides)
    assert table.ui("tt-name-dark") == "Dark - White and Blue"
