"""``tts-builder show`` and ``replay`` without a browser: the words, the views, the page's bytes.

The page in a real headless Chromium is tested in tests/test_replay_browser.py.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

import rules
from tts_builder.art.source import load_art_source
from tts_builder.build import load_table_layout
from tts_builder.cli import main
from tts_builder.simulate import play_game
from tts_builder.replay import page_data, replay_html, trace_data, trace_file, unpack_views, view_lines

GOLDEN = Path(__file__).parent / "golden"
DRAW = GOLDEN / "two-and-two" / "played-draw.transcript.json"
OBREN = GOLDEN / "obren-buttons" / "duel-line-of-four.transcript.json"


def illegal_transcript() -> dict[str, Any]:
    """The Two & Two draw with its 10th move replaced: White plays a card still in the deck."""
    data = json.loads(DRAW.read_text("utf-8"))
    data["moves"] = data["moves"][:9] + [{"player": 0, "type": "play", "card": "c2200"}] + data["moves"][10:]
    data["result"] = None
    return data


def hand_of(view: dict[str, Any], seat: int) -> list[str]:
    cards: list[str] = next(z for z in view["zones"] if z["label"] == "hand" and z["seat"] == seat)["cards"]
    return cards


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    out, err = capsys.readouterr()
    return code, out, err


# --------------------------------------------------------------------------- show


def test_show_words_every_move_and_the_final_position(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "show", str(DRAW))
    assert code == 0 and not err
    moves = json.loads(DRAW.read_text("utf-8"))["moves"]
    numbered = re.findall(r"^ +(\d+)\. (White|Red): ", out, re.M)
    assert [int(n) for n, _ in numbered] == list(range(1, len(moves) + 1))
    assert "starts the stack with Symbol card 0200" in out  # the game's own words (describe_move)
    assert f"Position after move {len(moves)} (organiser's view, every hand shown):" in out
    assert "To decide: nobody (the game is over)" in out
    assert "Scores: White 4, Red 4" in out
    assert out.rstrip().endswith("legal, 79 moves, finished: Draw, 4 sets each")


def test_show_at_a_move_prints_that_position(capsys: pytest.CaptureFixture[str]) -> None:
    trace = trace_file(DRAW)
    code, out, _ = run(capsys, "show", str(DRAW), "--at", "0")
    assert code == 0 and "Position after the start" in out
    start_hand = hand_of(trace.views[0], 0)
    assert f"White, hand: {', '.join(start_hand)}" in out
    code, out, _ = run(capsys, "show", str(DRAW), "--at", "40")
    hand40 = hand_of(trace.views[40], 0)
    assert "Position after move 40" in out and f"White, hand: {', '.join(hand40)}" in out
    assert hand40 != start_hand


def test_show_names_an_illegal_move_with_its_context(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(illegal_transcript()), "utf-8")
    code, out, err = run(capsys, "show", str(path))
    assert code == 1 and not err
    assert "10. White: plays Symbol card 2200 (diamond-diamond-hole-hole)   <- ILLEGAL [card-in-hand]" in out
    assert "Rule [card-in-hand] (Gameplay): Symbol card 2200 is not in your hand." in out
    context = out.split("The moves before it:")[1].split("Position it was judged on")[0]
    assert re.findall(r"^ +(\d+)\.", context, re.M) == ["5", "6", "7", "8", "9"]
    judged = trace_file(path).views[9]
    hand = hand_of(judged, 0)
    assert "c2200" not in hand
    assert "Position it was judged on (after move 9" in out
    assert f"White, hand: {', '.join(hand)}   <- the refused move's player" in out
    assert "Verdict: illegal at move 10 by White: [card-in-hand]" in out
    assert "22." not in out  # nothing after the refused move is walked


def test_show_json(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(illegal_transcript()), "utf-8")
    code, out, _ = run(capsys, "show", str(path), "--json", "--at", "3")
    doc = json.loads(out)
    assert code == 1 and doc["at"] == 3 and doc["hidden_shown"] is True
    assert len(doc["moves"]) == 10 and doc["moves"][-1]["verdict"]["rule"] == "card-in-hand"
    assert all(m["verdict"]["ok"] for m in doc["moves"][:-1])
    assert doc["position"] == trace_file(path).views[3]
    assert doc["report"]["verdict"] == "illegal"


def test_show_reads_a_save_carrying_a_transcript(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    save = {"SaveName": "x", "ObjectStates": [],
            "LuaScriptState": json.dumps({"transcript": json.loads(OBREN.read_text("utf-8"))})}
    path = tmp_path / "TS_Save_1.json"
    path.write_text(json.dumps(save), "utf-8")
    code, out, _ = run(capsys, "show", str(path))
    assert code == 0 and "Board board: " in out and "finished" in out


def test_show_a_move_field_the_game_does_not_know(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    data = json.loads(OBREN.read_text("utf-8"))
    data["moves"][2]["note"] = "from another recorder"
    path = tmp_path / "extra.json"
    path.write_text(json.dumps(data), "utf-8")
    code, out, _ = run(capsys, "show", str(path))
    assert code == 1 and "3. Player 1: " in out and "<- ILLEGAL [move-format]" in out and "\n   4." not in out
    code, out, _ = run(capsys, "show", str(path), "--lenient")
    assert code == 0 and "<- ILLEGAL" not in out and f"{len(data['moves'])}. " in out


def test_show_a_recorded_result_the_moves_do_not_give(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    data = json.loads(OBREN.read_text("utf-8"))
    winner = data["result"]["winner"]
    data["result"] = {**data["result"], "winner": 1 - winner, "winners": [1 - winner]}
    path = tmp_path / "wrong.json"
    path.write_text(json.dumps(data), "utf-8")
    code, out, _ = run(capsys, "show", str(path))
    assert code == 1 and "<- ILLEGAL" not in out  # every move was legal
    assert "Verdict: " in out and "illegal at the recorded result: [result]" in out


@pytest.mark.parametrize("content, words", [
    ("{", "truncated JSON"),
    ('{"format": "tts-builder-transcript"}', ""),
    ('{"ObjectStates": [], "LuaScriptState": ""}', "no recorded transcript"),
])
def test_show_bad_input_is_one_line_exit_2(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                           content: str, words: str) -> None:
    path = tmp_path / "in.json"
    path.write_text(content, "utf-8")
    for command in (["show", str(path)], ["replay", str(path), "--out", str(tmp_path / "p.html")]):
        code, out, err = run(capsys, *command)
        assert code == 2 and not out and err.count("\n") == 1 and str(path) in err and words in err
    assert not (tmp_path / "p.html").exists()


def test_show_at_out_of_range_is_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    code, _, err = run(capsys, "show", str(DRAW), "--at", "80")
    assert code == 2 and "--at 80: the positions run from 0 (the start) to 79" in err


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("*/*.transcript.json")), ids=lambda p: p.name)
def test_show_agrees_with_validate_on_every_golden_transcript(capsys: pytest.CaptureFixture[str], path: Path) -> None:
    expected = main(["validate", str(path)])
    capsys.readouterr()
    code, out, err = run(capsys, "show", str(path))
    assert code == expected and not err
    trace = trace_file(path)
    assert out.count("\n  ") >= len(trace.steps)  # a line per move at least
    assert len(trace.views) == len(trace.steps) + (0 if trace.refused else 1)


# --------------------------------------------------------------------------- the views


def played(game_id: str, seed: int = 1, moves: int = 12) -> list[dict[str, Any]]:
    """The views of the first ``moves`` positions of one simulated game."""
    transcript = play_game(game_id, seed)
    data = {**transcript, "moves": transcript["moves"][:moves], "result": None}
    return trace_data(data, game_id).views


@pytest.mark.parametrize("game_id", rules.registry.game_ids())
def test_every_view_names_what_the_art_draws(game_id: str) -> None:
    """Every card id a view names is drawn by the game's art, every board and cell is in its
    table layout, every piece is one of its pieces: the page can draw the whole table."""
    views = played(game_id)
    source = load_art_source(game_id)
    drawn = {i for row in source.rows for i in row.ids}
    layout = load_table_layout(game_id)
    boards = {b.name: {c.id for c in b.grid} for b in layout.boards}
    pieces = {p.id: len(p.faces) for p in layout.pieces}
    assert len(views) == 13
    for view in views:
        json.dumps(view, allow_nan=False)
        assert set(view) == {"zones", "boards", "scores", "seats", "turn", "lines"}
        assert view["seats"] is None or all(isinstance(fact, str) for fact in view["seats"])
        for zone in view["zones"]:
            assert set(zone["cards"]) <= drawn, zone["label"]
        for board in view["boards"]:
            assert board["name"] in boards
            for cell, content in board["cells"].items():
                assert cell in boards[board["name"]]
                if "piece" in content:
                    assert content["face"] < pieces[content["piece"]]
                if "card" in content:
                    assert content["card"] in drawn
    assert any(v["zones"] or any(b["cells"] for b in v["boards"]) for v in views)  # something is on the table


def test_views_follow_the_moves() -> None:
    """Obren's board gains the placed button; Two & Two's hand loses the played card."""
    trace = trace_file(OBREN)
    first = trace.steps[0].move
    assert first["type"] == "place"
    assert trace.views[0]["boards"][0]["cells"] == {}
    assert trace.views[1]["boards"][0]["cells"] == {first["cell"]: {"piece": first["button"], "face": 0}}
    trace = trace_file(DRAW)
    move = trace.steps[1].move
    hands = [hand_of(v, 1) for v in trace.views[1:3]]
    assert move["card"] in hands[0] and move["card"] not in hands[1]


def test_view_lines_words_a_board() -> None:
    view = {"turn": 1, "scores": [2, 3], "seats": ["red", ""], "lines": ["Round 2"],
            "zones": [{"label": "hand", "seat": 0, "cards": ["x"], "face_down": False}],
            "boards": [{"name": "island", "cells": {"0,0": {"piece": "doves-1", "face": 1}}}]}
    assert view_lines(view, ["Ann", "Bo"]) == ["To decide: Bo", "Scores: Ann 2, Bo 3", "Ann: red", "Round 2",
                                               "Ann, hand: x", "Board island: 0,0 doves-1 (face down)"]


# --------------------------------------------------------------------------- the page


def test_replay_page_is_self_contained_and_deterministic(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    a, b = tmp_path / "a.html", tmp_path / "b.html"
    assert run(capsys, "replay", str(OBREN), "--out", str(a))[0] == 0
    assert run(capsys, "replay", str(OBREN), "--out", str(b))[0] == 0
    page = a.read_bytes()
    assert page == b.read_bytes()
    text = page.decode("utf-8")
    assert not re.search(r"""(src|href)\s*=\s*["']?(https?:|//)""", text)  # nothing fetched
    assert "<link" not in text and "<script src" not in text
    data = json.loads(re.search(r'<script id="replay-data" type="application/json">(.*?)</script>', text, re.S)[1])
    data["views"] = unpack_views(data.pop("views_gz"))
    assert data["views"] == trace_file(OBREN).views
    assert data["verdict"] == "legal" and data["result"] == trace_file(OBREN).report.result_text()
    assert all(uri.startswith(("data:image/png;base64,", "data:image/webp;base64,")) for uri in data["images"].values())
    pieces = {c["piece"] for v in data["views"] for b in v["boards"] for c in b["cells"].values()}
    assert pieces and pieces <= set(data["pieces"])
    assert set(data["boards"]) == {"board"} and len(data["boards"]["board"]["cells"]) == 16


def test_replay_page_draws_every_card_once(tmp_path: Path) -> None:
    data = page_data(trace_file(DRAW))
    assert data == page_data(trace_file(DRAW))  # the card pictures too, byte for byte
    ids = {c for v in data["views"] for z in v["zones"] for c in z["cards"]}
    assert ids <= set(data["cards"])
    # copies of one design share one picture; every picture is embedded once
    assert data["cards"]["c1000-1"] == data["cards"]["c1000-2"]
    assert len(set(data["images"].values())) == len(data["images"])
    designs = set(data["cards"].values())
    assert len(designs) < len(ids)
    assert all(data["images"][k].startswith("data:image/webp;base64,") for k in data["cards"].values())
    # each design also once at full size (a click shows it whole), a larger picture than the small one
    assert set(data["full"]) == set(data["cards"]) and len(set(data["full"].values())) == len(designs)
    assert data["full"]["c1000-1"] == data["full"]["c1000-2"] != data["cards"]["c1000-1"]
    assert len(data["images"]) == len(designs | set(data["full"].values()) | set(data["backs"].values()))
    assert len(replay_html(trace_file(DRAW)).encode()) < 600_000


def test_replay_out_must_be_a_page(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    code, out, err = run(capsys, "replay", str(DRAW), "--out", str(tmp_path))
    assert code == 2 and "names a folder" in err
    (tmp_path / "file").write_text("x", "utf-8")
    code, out, err = run(capsys, "replay", str(DRAW), "--out", str(tmp_path / "file" / "p.html"))
    assert code == 2 and "is a file, not a folder" in err


def test_replay_exits_1_on_an_illegal_game_and_still_writes_the_page(capsys: pytest.CaptureFixture[str],
                                                                    tmp_path: Path) -> None:
    """Exit codes as for every command (show, validate): 1 when the game was read and found illegal."""
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(illegal_transcript()), "utf-8")
    page = tmp_path / "bad.html"
    code, out, err = run(capsys, "replay", str(bad), "--out", str(page))
    assert code == 1 and not err and page.is_file()
    assert out == f"wrote {page}: {bad}: illegal at move 10 by White: [card-in-hand] Symbol card 2200 is not in " \
                  "your hand. (Gameplay)\n"
    data = json.loads(OBREN.read_text("utf-8"))
    data["result"] = {**data["result"], "winner": 1 - data["result"]["winner"],
                      "winners": [1 - data["result"]["winner"]]}
    wrong = tmp_path / "wrong.json"
    wrong.write_text(json.dumps(data), "utf-8")
    code, out, _ = run(capsys, "replay", str(wrong), "--out", str(tmp_path / "wrong.html"))
    assert code == 1 and "illegal at the recorded result: [result]" in out and (tmp_path / "wrong.html").is_file()


def test_replay_says_the_move_count_once(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    page = tmp_path / "good.html"
    code, out, _ = run(capsys, "replay", str(DRAW), "--out", str(page))
    moves = len(json.loads(DRAW.read_text("utf-8"))["moves"])
    assert code == 0 and out == f"wrote {page}: {DRAW}: legal, {moves} moves, finished: Draw, 4 sets each\n"
    assert out.count("moves") == 1
