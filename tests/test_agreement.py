"""The generated Lua rules agree with the Python engines, and the checker
really catches a Lua rule that disagrees."""

from __future__ import annotations

import random

import pytest

import rules
from tts_builder.agreement import (AgreementReport, LuaEngine, check_lua, check_played_game, check_transcript,
                                   combinations)
from tts_builder.cli import main
from tts_builder.luagen import has_template, render_rules_lua
from tts_builder.luasandbox import LuaSandbox
from tts_builder.simulate import play_game

LUA_GAMES = [g for g in rules.game_ids() if has_template(g, "rules.lua.j2")]


@pytest.mark.parametrize("game_id", LUA_GAMES)
def test_lua_agrees_with_python(game_id):
    report = check_lua(game_id, 100, 7)
    assert report.agree, report.summary()
    assert report.games == 100 and report.illegal_checks > report.moves
    assert max(report.instructions) < 20_000, "a rules check must fit well inside a TTS frame"


@pytest.mark.parametrize("game_id", LUA_GAMES)
def test_generated_rules_pass_the_moonsharp_lint(game_id):
    from tts_builder.lualint import lint_lua

    issues = lint_lua(render_rules_lua(game_id), f"{game_id}/rules.lua")
    assert issues == [], "\n".join(map(str, issues))


def test_every_registered_game_has_lua_rules():
    missing = [g for g in rules.game_ids() if g not in LUA_GAMES]
    assert missing == [], f"games without a Lua rules module: {missing}"


def _patched_engine(game_id: str, old: str, new: str) -> LuaEngine:
    source = render_rules_lua(game_id)
    assert old in source, "the patch target moved; update the test"

    class Patched(LuaEngine):
        def __init__(self) -> None:
            self.sandbox = LuaSandbox(default_budget=200_000)
            self.rules = self.sandbox.execute(source.replace(old, new, 1), "patched.lua")

    return Patched()


def _run_patched(game_id: str, old: str, new: str, games: int = 30) -> AgreementReport:
    report = AgreementReport(game=game_id)
    lua = _patched_engine(game_id, old, new)
    for seed in range(games):
        if not check_transcript(game_id, play_game(game_id, seed, policy="mixed"), lua, seed, report,
                                random.Random(seed)):
            break
    return report


@pytest.mark.parametrize("game_id", LUA_GAMES)
def test_checking_while_playing_reports_what_checking_the_played_transcript_does(game_id):
    """check_played_game (each move checked as the players choose it) counts the same moves,
    checks and instructions, draws the same mutants and answers the same as play_game and then
    check_transcript, on every combination of seats and options."""
    lua = LuaEngine(game_id)
    for seed, combo in enumerate(combinations(game_id)[:4]):
        played, replayed = AgreementReport(game=game_id), AgreementReport(game=game_id)
        rng_played, rng_replayed = random.Random(seed), random.Random(seed)
        assert check_played_game(game_id, seed, "mixed", combo, lua, played, rng_played)
        transcript = play_game(game_id, seed, policy="mixed", options=combo.options_dict, num_players=combo.players)
        assert check_transcript(game_id, transcript, lua, seed, replayed, rng_replayed)
        assert played == replayed and played.moves == len(transcript["moves"]) > 0
        assert rng_played.getstate() == rng_replayed.getstate()


@pytest.mark.parametrize("patch", [
    ('if filled(s.visible) ~= 3 then', 'if filled(s.visible) ~= 2 then'),  # a verdict
    ("sets[#sets + 1] = #s.stack + #s.discard", "sets[#sets + 1] = #s.stack"),  # the state
    ("if not MOVE_TYPE_SET[t] then return verdict(",  # a check that runs away
     "if not U.contains(MOVE_TYPES, t) then while true do end return verdict("),
])
def test_a_disagreement_found_while_playing_is_reported_as_the_transcript_check_reports_it(patch):
    """A disagreement met while playing is worded by the stepwise check of the played transcript,
    word for word what check_transcript reports (the rng and the counts wound back alike)."""
    combo = combinations("two-and-two")[0]
    for seed in range(30):
        played, replayed = AgreementReport(game="two-and-two"), AgreementReport(game="two-and-two")
        agrees = check_played_game("two-and-two", seed, "mixed", combo, _patched_engine("two-and-two", *patch),
                                   played, random.Random(seed))
        transcript = play_game("two-and-two", seed, policy="mixed", options=combo.options_dict)
        assert agrees == check_transcript("two-and-two", transcript, _patched_engine("two-and-two", *patch), seed,
                                          replayed, random.Random(seed))
        # the same fields (a Lua verdict's keys come out in an order that differs between Lua states)
        assert played.disagreements == replayed.disagreements
        assert (played.moves, played.checks, played.instructions) == \
            (replayed.moves, replayed.checks, replayed.instructions)
        if not agrees:
            return
    raise AssertionError("the patched rules agreed on every game")


def test_a_lua_rule_that_refuses_differently_is_caught():
    report = _run_patched("two-and-two", 'if filled(s.visible) ~= 3 then', 'if filled(s.visible) ~= 2 then')
    assert not report.agree
    d = report.disagreements[0]
    assert d.kind == "verdict" and "wild" in repr(d.python) + repr(d.lua)


def test_a_lua_state_that_drifts_is_caught():
    report = _run_patched("two-and-two", "sets[#sets + 1] = #s.stack + #s.discard", "sets[#sets + 1] = #s.stack")
    assert not report.agree
    assert report.disagreements[0].kind == "state"
    assert "check-lua two-and-two --games 1 --seed" in report.summary()


def test_a_lua_error_is_reported_not_raised():
    report = _run_patched("two-and-two", "local function check_draw(s, move)",
                          "local function check_draw(s, move)\n  error('boom')")
    assert report.disagreements and report.disagreements[0].kind == "lua-error"
    assert "boom" in report.disagreements[0].lua


def test_cli_check_lua(capsys):
    assert main(["check-lua", "two-and-two", "--games", "3", "--seed", "7"]) == 0
    assert "agree on 3 games" in capsys.readouterr().out
    assert main(["check-lua", "chess"]) == 2
    assert "unknown game" in capsys.readouterr().err
    assert main(["check-lua", "two-and-two", "--games", "0"]) == 2


def test_a_lua_result_that_differs_is_caught():
    report = _run_patched("two-and-two", 'out.reason = "most-sets"', 'out.reason = "most-setz"')
    assert not report.agree
    d = report.disagreements[0]
    assert d.kind == "result" and '"most-sets"' in d.python and '"most-setz"' in d.lua


def test_the_default_sweep_covers_every_seat_count_and_option_value():
    from tts_builder.agreement import combinations

    ttc = combinations("twin-tower-city")
    assert {c.players for c in ttc} == {2, 4, 6}
    assert all(dict(c.options).get("teams") is not True for c in ttc), "teams is what 4 and 6 seats play already"
    assert len(ttc) == 30  # (defaults + 9 option values off their default, teams aside) x 3 seat counts
    assert [c.options_dict for c in combinations("two-and-two")] == [
        {}, {"denied_symbol_to_hand": True}, {"deny_window": "always"}]
    assert [c.players for c in combinations("twin-tower-city", players=4)] == [4] * 10
    assert combinations("twin-tower-city", options={"open_hands": True})[0].players == 2


def test_combinations_are_found_once_per_process_and_the_same_as_uncached():
    from tts_builder import agreement

    first = agreement.combinations("two-and-two", options={"deny_window": "always"})
    assert first == agreement._find_combinations("two-and-two", None, {"deny_window": "always"})
    first.clear()  # the caller's list is its own: the cache keeps its answer
    assert agreement.combinations("two-and-two", options={"deny_window": "always"}) == \
        agreement._find_combinations("two-and-two", None, {"deny_window": "always"})
    assert ("two-and-two", None, '{"deny_window":"always"}') in agreement._COMBINATIONS


@pytest.mark.parametrize("players", [4, 6])
def test_team_games_agree(players):
    report = check_lua("twin-tower-city", 10, 30, players=players)
    assert report.agree, report.summary()
    assert report.games == 10 and all(c.games == 1 for c in report.combinations.values())


def test_cli_check_lua_prints_each_combination_and_a_replay_with_its_settings(capsys):
    assert main(["check-lua", "two-and-two", "--games", "4", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert "2 players, default options: 2 games" in out
    assert '2 players, {"deny_window":"always"}: 1 game,' in out
    report = _run_patched("two-and-two", 'out.reason = "most-sets"', 'out.reason = "most-setz"', games=5)
    from tts_builder.agreement import Combination

    report.disagreements[0].replay_args = Combination(2, (("deny_window", "always"),)).replay_args()
    assert "--games 1 --seed" in report.summary() and "--players 2 --options '{\"deny_window\":\"always\"}'" \
        in report.summary()


def test_a_lua_judge_that_changes_the_state_while_refusing_is_caught():
    """Only mutants reach this refusal (an unknown move type); the refused move leaves a mark in
    the Lua state, and the state compared after the next recorded move must show it."""
    report = _run_patched("two-and-two",
                          "if not MOVE_TYPE_SET[t] then return verdict(",
                          "if not MOVE_TYPE_SET[t] then s.refused = true; return verdict(", games=3)
    assert not report.agree
    d = report.disagreements[0]
    assert d.kind == "state" and '"refused":true' in d.lua and '"refused"' not in d.python


@pytest.mark.parametrize("game_id", LUA_GAMES)
def test_one_call_a_move_counts_what_a_call_a_step_counts(game_id):
    """The one Lua call a game (check_moves) and the checker that makes a Lua call per step
    report the same moves, checks and per-check instruction counts, and draw the same mutants."""
    from tts_builder.agreement import _check_transcript_fast, _check_transcript_stepwise

    lua = LuaEngine(game_id)
    fast, slow = AgreementReport(game=game_id), AgreementReport(game=game_id)
    for seed in range(3):
        transcript = play_game(game_id, seed, policy="mixed")
        rng_fast, rng_slow = random.Random(seed), random.Random(seed)
        assert _check_transcript_fast(game_id, transcript, lua, fast, rng_fast, 3) is None
        assert _check_transcript_stepwise(game_id, transcript, lua, seed, slow, rng_slow, 3)
        assert rng_fast.getstate() == rng_slow.getstate()
    assert (fast.moves, fast.checks, fast.illegal_checks) == (slow.moves, slow.checks, slow.illegal_checks)
    assert fast.instructions == slow.instructions and fast.checks == len(fast.instructions) > 0


def test_a_lua_judge_that_answers_differently_the_second_time_is_caught():
    """A rules module that keeps something between calls (here: it refuses once, at its 200th
    judgement) disagrees in the one-call check; checked again call by call it would agree, and
    that is reported too, never passed."""
    report = _run_patched(
        "two-and-two", "function Rules.check(s, move)\n",
        "local judged = 0\nfunction Rules.check(s, move)\n  judged = judged + 1\n"
        "  if judged == 200 then return verdict('once-only', 'once') end\n", games=3)
    assert not report.agree
    d = report.disagreements[0]
    assert d.kind == "verdict" and d.python == "(agrees when checked again one Lua call at a time)"
    assert "-once-only" in d.lua and d.seed == 0


def test_a_lua_check_that_runs_away_is_stopped_and_reported():
    """Only mutants reach this refusal; the Lua check loops there. Each check keeps its own
    budget inside the one call a game."""
    report = _run_patched("two-and-two",
                          "if not MOVE_TYPE_SET[t] then return verdict(",
                          "if not U.contains(MOVE_TYPES, t) then while true do end return verdict(", games=3)
    assert not report.agree
    d = report.disagreements[0]
    assert d.kind == "lua-error" and "budget" in d.lua


def test_a_failure_of_the_one_call_a_move_leaves_the_verdict_to_the_stepwise_check(monkeypatch):
    """An exception in the fast check (a step's budget stops it a little earlier there) is no
    disagreement of its own: the game is checked again call by call, and that report stands."""
    from tts_builder import agreement

    transcript = play_game("two-and-two", 4, policy="mixed")
    lua = LuaEngine("two-and-two")
    expected = AgreementReport(game="two-and-two")
    assert check_transcript("two-and-two", transcript, lua, 4, expected, random.Random(4))

    def fails(*args):
        args[3].checks += 7  # half counted, then a failure: wound back before the stepwise check
        raise agreement.LuaSandboxError("stopped")

    monkeypatch.setattr(agreement, "_check_transcript_fast", fails)
    report = AgreementReport(game="two-and-two")
    assert check_transcript("two-and-two", transcript, lua, 4, report, random.Random(4))
    assert report == expected


def test_a_finished_part_changed_in_place_is_caught_at_the_end_of_the_game():
    """Twin Tower City's state writer keeps a finished round's text while the state holds the
    same table; rules that change that record in place later (here: the first round's winner,
    rewritten as the last round finishes) still agree move by move, and the whole state written
    by U.json at the end of the game shows the change."""
    old = "  rounds[#rounds + 1] = { round = s.round,"
    new = "  if #rounds == 4 then rounds[1].winner = 'nobody' end\n" + old
    report = _run_patched("twin-tower-city", old, new, games=3)
    assert not report.agree
    d = report.disagreements[0]
    assert d.kind == "state" and '"winner":"nobody"' in d.lua and "U.json at the end of the game" in d.lua
    assert '"winner":"nobody"' not in d.python


def test_a_disagreement_reads_the_same_whatever_order_lua_gave_its_keys():
    from tts_builder.agreement import Disagreement
    verdict = {"ok": False, "rule": "two-and-two/wild", "message": "no"}
    shuffled = dict(reversed(list(verdict.items())))
    texts = {Disagreement(3, 1, 0, {"type": "pass"}, "verdict", verdict, lua).describe("two-and-two")
             for lua in (verdict, shuffled)}
    assert len(texts) == 1
    assert '"message":"no","ok":false,"rule":"two-and-two/wild"' in texts.pop()


def test_a_setup_changed_in_place_is_caught_at_the_end_of_the_game():
    """Two & Two's state writer keeps the setup's text while the state holds the same setup
    table; rules that change its deck in place (here: its first card, at move 5) agree move by
    move, and the whole state written by U.json at the end of the game shows the change."""
    old = "  s.moves = s.moves + 1"
    new = old + "\n  if s.moves == 5 then s.setup.deck[1] = 'c0000' end"
    report = _run_patched("two-and-two", old, new, games=3)
    assert not report.agree
    d = report.disagreements[0]
    assert d.kind == "state" and '"deck":["c0000"' in d.lua and "U.json at the end of the game" in d.lua
    assert '"deck":["c0000"' not in d.python


def test_check_lua_says_which_combinations_it_did_not_exercise_and_why():
    """Issue 23: a short run names the combinations it never reached, and every run names those
    the game refuses or that repeat another's options, with the reason."""
    report = check_lua("smitten-2", 3, 0)
    text = report.summary()
    assert report.agree, text
    assert "3 of 12 seat count and option combinations exercised" in text.splitlines()[0]
    assert "  not exercised: 2 players, default options: not reached by 3 games (one game per combination " \
           "in turn; --games 7 plays each)" in text
    assert "  not exercised: 2 players, {\"solo_easy\":true}: smitten-2 refuses it (options solo_easy, " \
           "solo_left_hand and solo_balance are for the solo game (1 player))" in text
    assert "0 games" not in text
    ttc = check_lua("twin-tower-city", 1, 0, players=4)
    assert '  not exercised: 4 players, {"teams":true}: plays the same options as 4 players, default options' \
        in ttc.summary()
