"""show and replay give the numbers the validate report gives, for every game and seat count (issue 21):
one function per game words the result (tts_builder.gamewords), a position's score line says what it
counts, Twin Tower City's rounds appear as they end, and moves say what they rescued or chose."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tts_builder.gamewords import _plural, result_lines
from tts_builder.replay import page_data, show_json, show_text, trace_data
from tts_builder.simulate import play_game
from tts_builder.validate import validate_data

SEATINGS = [("two-and-two", 2), ("twin-tower-city", 2), ("twin-tower-city", 4), ("twin-tower-city", 6),
            ("obren-buttons", 1), ("obren-buttons", 2), ("two-by-two", 2), ("two-by-two", 3), ("two-by-two", 4),
            ("smitten-2", 1), ("smitten-2", 2)]


def _numbers(value: Any) -> list[int]:
    if isinstance(value, bool):
        return []
    if isinstance(value, (int, float)):
        return [int(value)]
    if isinstance(value, dict):
        return [n for v in value.values() for n in _numbers(v)]
    if isinstance(value, list):
        return [n for v in value for n in _numbers(v)]
    return []


@pytest.mark.parametrize("game,players", SEATINGS)
def test_show_and_replay_numbers_are_the_validate_reports(game: str, players: int) -> None:
    transcript = play_game(game, 5, num_players=players)
    report = validate_data(transcript, "t.json")
    result = report.result
    assert report.finished and result
    trace = trace_data(transcript, "t.json")
    lines = trace.result_lines()
    text = show_text(trace)
    # every number the show's result words name is a number of the report's result
    allowed = set(_numbers(result))
    for line in lines:
        assert line in text
        for n in re.findall(r"(?<![\w,-])(\d+)(?![\w,])", line.split(":", 1)[-1] if line.startswith("Round") else line):
            assert int(n) in allowed | set(range(1, 6)), (line, n)
    scores = result.get("scores")
    if isinstance(scores, list) and scores and game != "obren-buttons":
        # points (sets, rounds, ...) named for every seat, with the report's numbers
        joined = " ".join(lines)
        for seat, value in enumerate(scores):
            assert f"{trace.seat(seat)}: {_plural(value, 'point')}" in joined or \
                f"{trace.seat(seat)} {value}" in joined or str(value) in joined, (seat, value, lines)
    # the last position's "Scores:" line is the result's scores; a line counting something else says so
    last = trace.views[-1].get("scores")
    final = [ln for ln in text.splitlines() if ln.startswith("  Scores: ")]
    if last and final:
        assert [int(n) for n in re.findall(r" (\d+)(?:,|$)", final[0])] == scores
    if game == "two-by-two":
        assert not final  # the view counts the track: labelled Track, not Scores
        track = [ln for ln in text.splitlines() if ln.startswith("  Track: ")]
        assert [int(n) for n in re.findall(r" (\d+)(?:,|$)", track[0])] == result["track"]
        assert all(f"{total} point" in text for total in result["scores"])
    if game == "smitten-2":
        assert not re.search(r"Cards placed: (\d+) of (\d+)", text)
    # show --json and the replay page carry the same words
    assert show_json(trace)["result_lines"] == lines
    assert page_data(trace)["result_lines"] == lines


@pytest.mark.parametrize("players", [2, 4])
def test_twin_tower_city_rounds_show_power_per_side_and_the_winner(players: int) -> None:
    transcript = play_game("twin-tower-city", 3, num_players=players)
    trace = trace_data(transcript, "t.json")
    events = [e for s in trace.steps for e in s.events]
    assert len(events) == 5 and all(re.fullmatch(r"Round \d ends: Dark \d+ Power, Light \d+ Power: "
                                                 r"(Dark wins the round|Light wins the round|the round is level)", e)
                                    for e in events), events
    winners = trace.report.result["round_winners"]
    for event, winner in zip(events, winners, strict=True):
        assert (f"{str(winner).capitalize()} wins the round" if winner else "level") in event
    dark = sum(int(re.search(r"Dark (\d+) Power", e).group(1)) for e in events)  # type: ignore[union-attr]
    assert dark == trace.report.result["power"]["dark"]
    text = show_text(trace)
    assert all(e in text for e in events)
    assert [s["events"] for s in page_data(trace)["steps"] if s["events"]] == [[e] for e in events]


def test_moves_say_what_they_rescued_and_chose() -> None:
    trace = trace_data(play_game("two-by-two", 3, num_players=2), "t.json")
    rescues = [s.text for s in trace.steps if "rescue" in s.text]
    assert rescues and all(re.search(r"rescue the pair of [a-z]+( and [a-z]+)? on", t) for t in rescues), rescues
    texts = []
    for seed in range(1, 12):
        texts += [s.text for s in trace_data(play_game("smitten-2", seed, num_players=2), "t.json").steps]
    chooses = [t for t in texts if "choose option" in t]
    names = [t for t in texts if re.search(r": name ", t)]
    assert chooses and all(re.search(r"choose option \d: [a-z]", t) for t in chooses), chooses
    assert all(re.search(r"name column [abc]", t) for t in names), names


def test_result_words_for_an_unfinished_game_are_empty() -> None:
    assert result_lines("two-by-two", None, ["A", "B"]) == []
    assert _plural(1, "point") == "1 point" and _plural(18, "card placed") == "18 cards placed"


def test_show_draws_boards_as_text() -> None:
    trace = trace_data(play_game("obren-buttons", 2, num_players=2), "t.json")
    text = show_text(trace)
    lines = text.splitlines()
    at = next(i for i, ln in enumerate(lines) if ln.startswith("  Board board:"))
    at += 1
    while lines[at].startswith("      "):  # the cell list's wrapped lines
        at += 1
    grid = lines[at:at + 4]
    assert all(len(row.split()) == 4 for row in grid), grid  # 4 x 4, a code or "." per cell
    cells = trace.views[-1]["boards"][0]["cells"]
    for row_n, row in enumerate(grid, 1):
        for col, code in zip("abcd", row.split(), strict=True):
            piece = (cells.get(f"{col}{row_n}") or {}).get("piece")
            assert code == ("." if piece is None else piece[0].upper() + piece.split("-")[1]), (col, row_n, code)
    assert "(Bn black n, Wn white n)" in text
    island = show_text(trace_data(play_game("two-by-two", 2, num_players=2), "t.json"))
    rows = [ln for ln in island.splitlines() if ln.startswith("    ") and ("~" in ln or "#" in ln)]
    assert len(rows) >= 13  # the island's 13 rows of hexes
    assert max(len(ln) for ln in island.splitlines()) <= 400  # no 1,800-character line


@pytest.mark.parametrize("players", [2, 3, 4])
def test_two_by_two_result_sentence_names_every_seats_points_as_show_does(players: int) -> None:
    """validate's sentence names the points of every seat (3 and 4 players too, not "(most-points)"),
    and they are the totals show's and replay's result lines give each seat."""
    for seed in range(1, 9):
        transcript = play_game("two-by-two", seed, num_players=players)
        report = validate_data(transcript, "t.json")
        result = report.result
        assert report.finished and result
        summary = report.summary()
        sentence = report.result_text()
        assert "(most-" not in sentence and sentence in summary
        scores = result["scores"]
        named = [int(n) for n in re.findall(r"(\d+)(?= points?\b| \(Player| and |$| each)", sentence)]
        assert sorted(set(named)) == sorted(set(scores)), (sentence, scores)
        trace = trace_data(transcript, "t.json")
        lines = trace.result_lines()
        for seat, total in enumerate(scores):
            assert f"{trace.seat(seat)}: {_plural(total, 'point')}" in "\n".join(lines)
            if len(set(scores)) == players and seat not in report.outcome.winners and players > 2:
                assert f"{total} ({trace.seat(seat)})" in sentence, (sentence, seat)
        assert f"finished: {sentence}" in show_text(trace)
        assert page_data(trace)["result"] == sentence
