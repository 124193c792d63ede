"""The generic table suite (issue 20): every game's built mod at the stand-in table
(:mod:`tts_builder.testing`), at every seat count the game declares, played ONLY through table
events by :mod:`tts_builder.tableplay` and each game's ``table_actions`` hook
(``rules/<game>/tableplay.py``):

* New game pressed twice in a row, with the table's containers filling over several frames;
* random legal games (seeded; each move one of the engine's legal moves, made at the table by
  drops, option picks and panel clicks) and, at random points, an illegal drop (the same move
  from a chair whose turn it is not, or a near miss the engine refuses) that the mod must refuse
  naming a rule, putting the piece back where it was, recording nothing;
* a save and reload midway, after which the transcript is the same;
* at every step the player-view check (:func:`player_view_leaks`): nothing a seat may not know
  (a face-down or hidden component's id or name) in what it sees: hover text, image URLs,
  the panel, the notebook and the chat and broadcasts sent to it;
* at the end the transcript the mod saves (``onSave``) validates legal in Python and is, move
  for move, the engine's own transcript of the same moves.

The game-specific knowledge is each game's ``table_actions``; this file knows none."""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest

import rules
from rules.core import judge
from rules.mutate import sample_mutants
from rules.registry import game_ids
from tts_builder.build import build_game, load_table_layout
from tts_builder.errors import require_game
from tts_builder.tableplay import Cell, Click, Drop, Piece, TablePlayer, table_actions_of, table_options_of
from tts_builder.tablesize import footprint
from tts_builder.testing import FakeObject, FakeTTS
from tts_builder.validate import validate_data

from modtable import snap_turn_problems, walk_json as _walk

GAMES = tuple(game_ids())  # every registered game (a game made by `tts-builder new` too)
MOVES = 40          # table moves per case: a few short games' worth, within the suite's time budget
ILLEGAL_EVERY = 2   # about one move in this many is preceded by an illegal drop
FRAMES = 6          # container_frames: a put lands 1 to 6 frames later, in no set order
XFAIL: dict[tuple[str, int], str] = {}  # (game, seats) -> the glue bug, in one line (none open)


class _Saves(dict):  # type: ignore[type-arg]
    """Each game's built save, built when a test first asks for it."""

    def __init__(self, out: Path) -> None:
        super().__init__()
        self.out = out

    def __missing__(self, game: str) -> dict[str, Any]:
        build_game(game, self.out, base_url="https://example.invalid/mods")
        save: dict[str, Any] = json.loads((self.out / game / f"{game}.json").read_text())
        self[game] = save
        return save


@pytest.fixture(scope="module")
def saves(tmp_path_factory) -> dict[str, dict[str, Any]]:
    return _Saves(tmp_path_factory.mktemp("build"))


def _cases() -> list[Any]:
    """Every game at every seat count with its default options."""
    out = []
    for g in GAMES:
        for n in require_game(g).seat_counts():
            marks = [pytest.mark.xfail(strict=True, reason=XFAIL[(g, n)])] if (g, n) in XFAIL else []
            out.append(pytest.param(g, n, marks=marks, id=f"{g}-{n}"))
    return out


def _option_cases() -> list[Any]:
    """Each other option value a game's table lets its players choose (its ``table_options``),
    at the first seat count where it does."""
    out = []
    for g in GAMES:
        game = require_game(g)
        choose = table_options_of(game)
        for variant in game.option_variants()[1:]:
            n = next((n for n in game.seat_counts() if choose is not None and choose(variant, n) is not None), None)
            if n is not None:
                (name, value), = variant.items()
                out.append(pytest.param(g, n, variant, id=f"{g}-{n}-{name}={value}"))
    return out


# -- the player-view check ------------------------------------------------------------------------
def _identities(obj: FakeObject) -> set[str]:
    """What would name ``obj``: its component id (GMNotes) and its name."""
    return {t for t in (obj.getGMNotes(), obj.getName()) if t and len(t) >= 2}


def player_view_leaks(fake: FakeTTS, objects: dict[str, FakeObject], colors: list[str],
                      baseline: dict[str, set[str]] | None = None, since: int = 0,
                      known: dict[str, str] | None = None) -> list[str]:
    """Every place a seat could read what it may not know, as ``"color: what: where"``.

    For each colour: the objects hidden from it (face down, in another's hand; not those inside a
    bag or deck, which show nothing) and their identities, minus any identity an object it sees
    also carries (a second copy, a kind of piece all alike) and any object whose id the seat
    knows by the rules (``known``: the colour's engine observation as JSON text, where a card
    revealed to it, or one it saw played before it went face down, is named); then each text of its view
    (:meth:`FakeTTS.player_view`: hover, image URLs, buttons, panel, notebook, the messages from
    ``since``) not already in ``baseline`` (what the table showed before any game: rules text)
    is searched for them as whole words."""
    leaks = []
    table = [o for o in objects.values() if not o.destroyed and o.container is None
             and o.type not in ("Scripting", "Hand")]
    for color in colors:
        hidden: set[str] = set()
        seen: set[str] = set()
        knows = known.get(color, "") if known else ""
        for obj in table:
            notes = obj.getGMNotes()
            public = bool(knows and notes and re.search(r'"' + re.escape(notes) + r'"', knows))
            (hidden if fake.hidden_from(obj, color) and not public else seen).update(_identities(obj))
        hidden -= seen
        seen_text = "\n".join(seen)  # a hidden copy of a card another copy of which lies face up
        hidden = {h for h in hidden if not re.search(r"(?<![\w-])" + re.escape(h) + r"(?![\w-])", seen_text)}
        if not hidden:
            continue
        pattern = re.compile(r"(?<![\w-])(" + "|".join(re.escape(h) for h in sorted(hidden, key=len, reverse=True))
                             + r")(?![\w-])")
        old = baseline.get(color, set()) if baseline else set()
        for text in fake.player_view(color, since=since):
            if text in old:
                continue
            found = pattern.search(text)
            if found:
                leaks.append(f"{color}: {found.group(1)!r}: {text[:160]!r}")
    return leaks


def _known(state: Any, colors: list[str], shown: dict[str, set[str]]) -> dict[str, str]:
    """What each seat's colour knows: its engine observation, as JSON text, and the ids it has
    seen face up at the table (quoted, as JSON names them)."""
    return {c: json.dumps(state.observation(seat)) + json.dumps(sorted(shown.get(c, ())))
            for seat, c in enumerate(colors)}


def _baseline(fake: FakeTTS, colors: list[str]) -> dict[str, set[str]]:
    return {c: set(fake.player_view(c)) for c in colors}


# -- the table's other checks ----------------------------------------------------------------------
def new_game_problems(fake: FakeTTS) -> list[str]:
    """New game's complaints: a container that did not hold everything when it looked."""
    return [m.text for m in fake.broadcasts if "refused" in m.text or "holds" in m.text]


def board_size_problems(save: dict[str, Any], game_id: str) -> list[str]:
    """Each board's footprint on the table (its save scale through the size model,
    :mod:`tts_builder.tablesize`, at the aspect it was drawn for) against the layout's size."""
    out = []
    by_name = {o.get("GMNotes"): o for o in save["ObjectStates"]}
    for board in load_table_layout(game_id).boards:
        obj = by_name[board.name]
        size = footprint("tile", board.size[0] / board.size[1], obj["Transform"]["scaleX"])
        if abs(size[0] - board.size[0]) > 0.02 * board.size[0] or abs(size[1] - board.size[1]) > 0.02 * board.size[1]:
            out.append(f"{board.name}: {size[0]:.2f} x {size[1]:.2f} on the table, drawn for {board.size[0]} x {board.size[1]}")
    return out


# -- playing at the table ------------------------------------------------------------------------
def new_table(save: dict[str, Any], game: str, seats: int, *, frames: int = FRAMES, seed: int = 0) -> TablePlayer:
    colors = [s.color for s in load_table_layout(game).seats][:seats]
    return TablePlayer(save, load_table_layout(game), colors, container_frames=frames, travel_seed=seed)


def press_new_game_twice(table: TablePlayer, colors: list[str], wait: float = 6.0) -> None:
    for _ in range(2):  # New game twice in a row: the second gathers everything again
        table.run([Click("ttNewGame", seconds=wait)], None, colors)


def _expressible(game: Any, state: Any, moves: list[Any]) -> list[tuple[Any, list[Any]]]:
    actions_for = table_actions_of(game)
    assert actions_for is not None, f"{game.id} has no table_actions hook"
    out = []
    for move in moves:
        if isinstance(move, dict) and move.get("type") == "forfeit":
            continue  # ends the game at once: not worth a table move here
        actions = actions_for(state, move)
        if actions:
            out.append((move, list(actions)))
    return out


def _illegal_drop(game: Any, state: Any, table: TablePlayer, rng: random.Random, legal: list[tuple[Any, list[Any]]],
                  seat: int) -> tuple[Any, list[Any], str | None, int] | None:
    """An illegal drop to try now: a legal drop from another seat's chair, or a near miss (a
    mutant of a legal move the engine refuses, made at the table as one drop). Returns (move,
    actions, the colour playing it or None for the mover, the seat whose refusal it is)."""
    drops = [(m, a) for m, a in legal if len(a) == 1 and isinstance(a[0], Drop)]
    rng.shuffle(drops)
    colors = table.colors()
    for move, actions in drops[:3]:
        others = [s for s in range(len(colors)) if s != seat and not judge(state, s, move).ok]
        try:
            lying = table.find(actions[0].what).container is None  # sent back: to where it lay
        except KeyError:
            lying = False
        if others and lying and not actions[0].mover_only and rng.random() < 0.5:
            other = rng.choice(others)
            return move, actions, colors[other], other
        actions_for = table_actions_of(game)
        assert actions_for is not None
        for bad in sample_mutants(move, state, rng, 6):
            if not isinstance(bad, dict) or state.check(bad).ok:
                continue
            try:
                bad_actions = actions_for(state, bad)
            except (KeyError, TypeError, ValueError, IndexError):
                continue
            if any(list(bad_actions or []) == a for _, a in legal):
                continue  # at the table it is a legal move (the mutant differs in what a drop does not say)
            movable = {a[0].what for _, a in drops}
            if bad_actions and len(bad_actions) == 1 and isinstance(bad_actions[0], Drop) \
                    and bad_actions[0].what in movable:  # a piece the player may move, to a wrong place
                try:
                    obj = table.find(bad_actions[0].what)
                    to = table.position(bad_actions[0].onto, colors[seat], colors)
                except (KeyError, ValueError):
                    continue  # no such piece or place at the table: not a drop a player can make
                if abs(to[0] - obj.position[0]) + abs(to[2] - obj.position[2]) < 0.5:
                    continue  # put down where it lies: no move at the table
                if obj.container is None and table.fake.held_in_hand(obj) in (None, colors[seat]):
                    return bad, list(bad_actions), None, seat
    return None


def try_illegal(game: Any, state: Any, table: TablePlayer, rng: random.Random, legal: Any, seat: int) -> str | None:
    """Make an illegal drop; assert the mod refuses it naming a rule and puts the piece back.
    Returns the refused rule (None when no illegal drop was at hand)."""
    found = _illegal_drop(game, state, table, rng, legal, seat)
    if found is None:
        return None
    move, actions, as_color, who = found
    verdict = judge(state, who, move)
    assert not verdict.ok
    before = len(table.transcript()["moves"])
    color = as_color or table.colors()[seat]
    [outcome] = table.run(actions, seat, as_color=as_color)
    said = [m.text for m in outcome.messages if m.color in (None, color)]
    rules_named = re.findall(r"\[([a-z0-9][a-z0-9-]*)\]", " ".join(said))
    assert rules_named, f"{game.id}: {color}'s illegal drop {move} ({verdict.rule}) was not refused by rule: {said}"
    assert len(table.transcript()["moves"]) == before, f"{game.id}: illegal {move} was recorded"
    obj = outcome.obj
    assert obj is not None and outcome.before is not None
    assert obj.container is None and (obj.position[0], obj.position[2]) == pytest.approx(
        (outcome.before[0], outcome.before[2]), abs=0.05), f"{game.id}: {move}'s piece not sent back: {said}"
    return rules_named[0]


def play_random_game(save: dict[str, Any], game_id: str, seats: int, seed: int, moves: int = MOVES,
                     check_leaks: bool = True, options: dict[str, Any] | None = None) -> dict[str, Any]:
    """The whole case; returns what it saw (moves made, illegal drops refused, the transcript)."""
    game = rules.get_game(game_id)
    table = new_table(save, game_id, seats, seed=seed)
    colors = list(table.fake.seated_colors())
    fake, objects = table.fake, table.objects
    base = _baseline(fake, colors)
    assert player_view_leaks(fake, objects, colors, base) == []
    if options:
        choose = table_options_of(game)
        assert choose is not None
        table.run(list(choose(options, seats) or []), None, colors)
    press_new_game_twice(table, colors)
    tr = table.transcript()
    assert tr.get("setup") and len(tr["players"]) == seats, fake.broadcasts[-3:]
    # the options as the engine resolves them for this seat count (Twin Tower City's teams follow it)
    resolved = game.new_state(seed=0, setup=tr["setup"], options=options, num_players=seats).options()
    assert tr["options"] == resolved, (tr["options"], options)
    assert new_game_problems(fake) == []
    assert board_size_problems(save, game_id) == []
    assert snap_turn_problems(save, game_id) == []
    assert player_view_leaks(fake, objects, colors, base) == []
    state = game.new_state(setup=tr["setup"], options=tr["options"], num_players=seats)
    state.name_seats([p["name"] for p in tr["players"]])
    shown: dict[str, set[str]] = {c: set() for c in colors}

    def watch() -> None:  # every id a colour has seen face up at the table stays known to it
        for obj in objects.values():
            if obj.container is None and not obj.destroyed and obj.getGMNotes():
                for c in colors:
                    if not fake.hidden_from(obj, c):
                        shown[c].add(obj.getGMNotes())

    table.watch = watch
    rng = random.Random(seed)
    expected: list[dict[str, Any]] = []
    refused: list[str] = []
    mark = len(fake.messages)
    for n in range(moves):
        if state.is_terminal():
            break
        legal = _expressible(game, state, state.legal_moves())
        assert legal, f"{game_id}: no legal move can be made at the table: {state.legal_moves()[:3]}"
        seat = state.current_player()
        if rng.randrange(ILLEGAL_EVERY) == 0 and seat is not None:
            rule = try_illegal(game, state, table, rng, legal, seat)
            if rule:
                refused.append(rule)
        move, actions = rng.choice(legal)
        player = state.player_of(move)
        table.run(actions, player)
        state.apply(move)
        expected.append({"player": player, **move})
        recorded = table.transcript()["moves"]
        assert recorded == expected, f"{game_id}: move {n} {move} not recorded so: {fake.broadcasts[-2:]}"
        if check_leaks:
            leaks = player_view_leaks(fake, objects, colors, base, since=mark, known=_known(state, table.colors(), shown))
            assert leaks == [], f"{game_id}: after {move}: {leaks}"
        mark = len(fake.messages)
        if n == moves // 2:
            before = table.transcript()
            fake.save_and_reload()
            fake.step(2)
            assert table.transcript() == before
    tr = table.transcript()
    assert tr["moves"] == expected
    report = validate_data({**save, "LuaScriptState": json.dumps({"transcript": tr})}, "save.json")
    assert report.legal and report.moves_checked == len(expected), report.summary()
    return {"moves": len(expected), "refused": refused, "transcript": tr, "table": table}


@pytest.mark.parametrize(("game", "seats"), _cases())
def test_random_games_played_through_table_events(saves, game, seats):
    seen = play_random_game(saves[game], game, seats, seed=seats * 7 + len(game))
    assert seen["moves"] > 0


@pytest.mark.parametrize(("game", "seats", "options"), _option_cases())
def test_random_games_with_the_options_chosen_at_the_table(saves, game, seats, options):
    seen = play_random_game(saves[game], game, seats, seed=seats * 11 + len(game), moves=MOVES // 2, options=options)
    assert seen["moves"] > 0


def test_the_suite_tries_illegal_drops_and_every_one_is_refused(saves):
    """Across a few cases the suite does make illegal drops (each asserted refused above)."""
    refused = []
    for game in ("obren-buttons", "smitten-2", "two-and-two"):
        refused += play_random_game(saves[game], game, 2, seed=5, moves=10, check_leaks=False)["refused"]
    assert len(refused) >= 3, refused


@pytest.mark.parametrize(("game", "seats"), _cases())
def test_new_game_twice_then_save_and_reload_keeps_every_hidden_identity_hidden(saves, game, seats):
    save = saves[game]
    table = new_table(save, game, seats, seed=seats)
    fake, objects = table.fake, table.objects
    colors = list(fake.seated_colors())
    assert len(colors) == seats
    base = _baseline(fake, colors)
    press_new_game_twice(table, colors)
    assert player_view_leaks(fake, objects, colors, base) == []
    transcript = table.transcript()
    assert transcript.get("setup") and len(transcript["players"]) == seats, fake.broadcasts[-3:]
    fake.save_and_reload()
    fake.step(2)
    assert table.transcript() == transcript
    assert player_view_leaks(fake, objects, colors, base) == []


def test_two_and_two_a_stack_started_upside_down_at_the_table(saves):
    """A card turned 180 degrees and dropped on STACK starts the stack "down" (STACK's snap point
    snaps position only; it once turned every card upright, so the mod recorded "up")."""
    from rules.two_and_two import tableplay
    game = rules.get_game("two-and-two")
    table = new_table(saves["two-and-two"], "two-and-two", 2)
    press_new_game_twice(table, ["White", "Red"])
    tr = table.transcript()
    state = game.new_state(setup=tr["setup"], options=tr["options"])
    move = next(m for m in state.legal_moves() if m.get("orientation") == "down")
    table.run(tableplay.table_actions(state, move) or [], 0)
    assert table.transcript()["moves"] == [{"player": 0, **move}]
    card = table.find(Piece(move["card"]))
    turn = (card.rotation[1] - tableplay.UPRIGHT) % 360
    assert abs(turn - 180) < 1, f"the card lies turned {turn:.0f} from upright, not upside down"
    # a later card, dropped at a slant, lands on STACK and is laid the stack's way by the table
    state.apply(move)
    for _ in range(20):  # draw (and end turns) until a Symbol card can be played
        plays = [m for m in state.legal_moves() if m["type"] == "play" and not m.get("flip")]
        if plays:
            break
        step = next(m for m in state.legal_moves() if m["type"] in ("draw", "end-turn", "pass"))
        table.run(tableplay.table_actions(state, step) or [], state.current_player())
        state.apply(step)
    [drop] = tableplay.table_actions(state, plays[0]) or []
    assert isinstance(drop, Drop)
    seat = state.current_player()
    table.run([Drop(drop.what, drop.onto, (tableplay.UPRIGHT + 37) % 360)], seat)
    assert table.transcript()["moves"][-1] == {"player": seat, **plays[0]}
    state.apply(plays[0])
    entry = next(e for e in state.to_json()["stack"] if e["card"] == plays[0]["card"])
    card = table.find(Piece(plays[0]["card"]))
    turn = (card.rotation[1] - tableplay.UPRIGHT) % 360
    assert abs(turn - {"up": 0, "down": 180}[entry["orientation"]]) < 1, f"{entry}: the card lies turned {turn:.0f}"


def _two_by_two_until(table: TablePlayer, found: Any, seed: int = 3, limit: int = 200) -> tuple[Any, Any]:
    """Two by Two at the table after New game, random legal moves made through table events until
    ``found(state)`` gives something; returns (state, what it gave)."""
    game = rules.get_game("two-by-two")
    colors = list(table.fake.seated_colors())
    press_new_game_twice(table, colors)
    tr = table.transcript()
    state = game.new_state(setup=tr["setup"], options=tr["options"], num_players=len(colors))
    actions_for = table_actions_of(game)
    assert actions_for is not None
    rng = random.Random(seed)
    for _ in range(limit):
        got = found(state)
        if got:
            return state, got
        move = rng.choice([m for m in state.legal_moves() if actions_for(state, m)])
        table.run(actions_for(state, move) or [], state.current_player())
        state.apply(move)
    raise AssertionError(f"nothing found in {limit} moves")


def test_two_by_two_an_animal_dropped_on_another_players_ark_is_refused_by_rule(saves):
    """A face-up animal dropped from another chair on the ark of the player to move is refused by
    turn order (it was once put back silently), and nothing is recorded."""
    game = rules.get_game("two-by-two")
    actions_for = table_actions_of(game)
    assert actions_for is not None
    table = new_table(saves["two-by-two"], "two-by-two", 2)
    state, rescues = _two_by_two_until(
        table, lambda st: [m for m in st.legal_moves() if m["type"] == "rescue" and actions_for(st, m)])
    seat = state.current_player()
    before = len(table.transcript()["moves"])
    drop = (actions_for(state, rescues[0]) or [])[:1]  # the drop alone (a partner choice never opens)
    [outcome] = table.run(drop, seat, as_color=table.colors()[1 - seat])
    said = " ".join(m.text for m in outcome.messages)
    assert "[turn-order]" in said, said
    assert len(table.transcript()["moves"]) == before
    # the player to move dropping it on the other's ark: refused too, naming the rule
    other_ark = state.to_json()["arks"][1 - seat]
    [outcome] = table.run([Drop(drop[0].what, Cell("island", other_ark))], seat)
    assert "[own-ark]" in " ".join(m.text for m in outcome.messages)
    assert len(table.transcript()["moves"]) == before


def test_two_by_two_a_rescue_with_any_legal_partner_is_made_at_the_table(saves):
    """Where an animal has several legal partners, the panel asks which one: every legal rescue,
    not only the first partner in board order, can be made (the suite once could not)."""
    from rules.two_by_two.tableplay import legal_partners
    game = rules.get_game("two-by-two")
    actions_for = table_actions_of(game)
    assert actions_for is not None
    table = new_table(saves["two-by-two"], "two-by-two", 2)
    state, move = _two_by_two_until(table, lambda st: next(
        ({"type": "rescue", "cells": [m["cells"][0], legal_partners(st, m["cells"][0])[-1]]}
         for m in st.legal_moves() if m["type"] == "rescue" and len(legal_partners(st, m["cells"][0])) > 1), None))
    actions = actions_for(state, move)
    assert actions is not None and len(actions) == 2, actions
    seat = state.current_player()
    before = len(table.transcript()["moves"])
    table.run(actions[:1], seat)  # the drop opens the choice: nothing recorded yet
    assert table.fake.ui.active("tt-partner") and len(table.transcript()["moves"]) == before
    table.run(actions[1:], seat)
    assert table.transcript()["moves"][-1] == {"player": seat, **move}
    assert not table.fake.ui.active("tt-partner")


# -- the suite catches each of issue 20's four problems ----------------------------------------------
def _lua_pieces(save: dict[str, Any]) -> dict[str, Any]:
    """Two by Two's pieces (id -> GUID) as its Lua has them."""
    fake = FakeTTS()
    fake.load_save(save)
    fake.load_global(save["LuaScript"])
    pieces: dict[str, Any] = json.loads(fake.sandbox.call(fake.sandbox.lookup("Table.context_json")))["pieces"]
    return pieces



def _copy(save: dict[str, Any]) -> dict[str, Any]:
    copied: dict[str, Any] = json.loads(json.dumps(save))
    return copied


def test_the_suite_catches_face_down_animals_that_show_their_species(saves):
    """Problem 1: HideWhenFaceDown false on Two by Two's animals named by species (as the build
    once wrote; they are named "Animal" until the script reveals them now)."""
    bad = _copy(saves["two-by-two"])
    animals = next(o for o in bad["ObjectStates"] if o.get("Nickname") == "Animals")
    guids = {p["guid"]: pid for pid, p in _lua_pieces(bad).items()}
    for obj in _walk(animals["ContainedObjects"]):
        obj["HideWhenFaceDown"] = False
        if obj.get("GUID") in guids:
            obj["Nickname"] = guids[obj["GUID"]].rsplit("-", 1)[0].capitalize()
    for save, leaking in ((saves["two-by-two"], False), (bad, True)):
        table = new_table(save, "two-by-two", 2)
        colors = list(table.fake.seated_colors())
        base = _baseline(table.fake, colors)
        press_new_game_twice(table, colors)
        leaks = player_view_leaks(table.fake, table.objects, colors, base)
        assert bool(leaks) == leaking, leaks[:3]


def test_the_suite_catches_boards_sized_by_the_old_tile_model(saves):
    """Problem 2: the old size model (a stretched tile's long side 2.2 units at scale 1)."""
    found = 0
    for game in GAMES:
        bad = _copy(saves[game])
        for board in load_table_layout(game).boards:
            obj = next(o for o in bad["ObjectStates"] if o.get("GMNotes") == board.name)
            obj["Transform"]["scaleX"] = obj["Transform"]["scaleZ"] = max(board.size) / 2.2
        assert board_size_problems(saves[game], game) == []
        found += len(board_size_problems(bad, game))
    assert found >= 3


def test_the_suite_catches_new_game_looking_at_the_bag_one_frame_later(saves):
    """Problem 3: Two by Two's New game looked at the bag one frame after the puts; the table's
    bags fill over several frames (container_frames > 1), so it found it short and refused. (Its
    New game fills the bag with the runtime's Tabletop.fill_bag now, through Tabletop.fill, whose
    wait the mutant cuts.)"""
    bad = _copy(saves["two-by-two"])
    wait = "return short_pile() == nil"
    assert bad["LuaScript"].count(wait) == 1
    bad["LuaScript"] = bad["LuaScript"].replace(wait, "return true")
    for save, frames, short in ((saves["two-by-two"], FRAMES, False), (bad, 1, False), (bad, FRAMES, True)):
        table = new_table(save, "two-by-two", 2, frames=frames, seed=1)
        press_new_game_twice(table, list(table.fake.seated_colors()))
        assert bool(new_game_problems(table.fake)) == short, (frames, new_game_problems(table.fake))


def test_the_suite_catches_board_snap_points_at_rotation_0(saves):
    """Problem 4: board snap points facing 0 degrees turn a dropped button or card to the far player."""
    for game in ("obren-buttons", "smitten-2", "two-by-two"):
        bad = _copy(saves[game])
        cells = {(round(x, 2), round(z, 2)) for b in load_table_layout(game).boards for x, z in
                 (b.cell_world(c.id) for c in b.grid)}
        for point in bad["SnapPoints"]:
            if (round(point["Position"]["x"], 2), round(point["Position"]["z"], 2)) in cells:
                point["Rotation"] = {"x": 0, "y": 0, "z": 0}
        assert snap_turn_problems(saves[game], game) == []
        assert snap_turn_problems(bad, game), game
