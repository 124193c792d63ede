"""``build --watch``: the loop driven by injected changes and a recording rebuild, the filter
of what calls for a rebuild, one real rebuild process, and one real watchfiles run that a
stop event ends (every wait here is bounded: nothing can hang)."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest

from tts_builder import cli
from tts_builder.watch import (ChangeFilter, Outcome, skip_folders, subprocess_rebuild, watch_loop,
                               watched_roots)

ROOTS = watched_roots()
RULES, ART, TEMPLATES, CODE = ROOTS


class Recorder:
    """A rebuild that returns the outcomes it is given, in turn, and counts its calls."""

    def __init__(self, *outcomes: Outcome) -> None:
        self.outcomes = list(outcomes)
        self.calls = 0
        self.called = threading.Event()

    def __call__(self) -> Outcome:
        self.calls += 1
        self.called.set()
        return self.outcomes.pop(0) if self.outcomes else Outcome(True, ("built",))


def _run(changes, rebuild, wanted=None):
    out: list[str] = []
    err: list[str] = []
    ticks = iter(range(1000))
    code = watch_loop(changes, rebuild, wanted=wanted or ChangeFilter(skip_folders(["two-and-two"], Path("/x/build"))),
                      roots=ROOTS, out=out.append, err=err.append, clock=lambda: float(next(ticks)))
    return code, out, err


def test_each_batch_rebuilds_once_and_says_what_changed_and_how_it_went():
    own = str(ART / "two-and-two" / "art.json")
    other = str(ART / "smitten-2" / "art.json")
    shared = str(TEMPLATES / "runtime" / "table.lua.j2")
    engine = str(RULES / "two_and_two" / "engine.py")
    rebuild = Recorder(Outcome(True, ("two-and-two: built",)),
                       Outcome(False, ("tts-builder: art_src/two-and-two/art.json: not valid JSON at line 3",)),
                       Outcome(True, ("two-and-two: built again",)))
    code, out, err = _run([{(2, own)}, {(2, other)}, {(2, shared), (1, engine)}], rebuild)
    assert code == 0 and rebuild.calls == 3  # the first build, then two batches; smitten-2's change is not ours
    assert out == ["two-and-two: built", "rebuilt in 1.0 s", "watching for changes (Ctrl-C to stop)",
                   "changed: art_src/two-and-two/art.json", "rebuild failed (1.0 s); the last good build stays in place",
                   "changed: lua_templates/runtime/table.lua.j2, rules/two_and_two/engine.py",
                   "two-and-two: built again", "rebuilt in 1.0 s", "stopped watching"]
    assert err == ["tts-builder: art_src/two-and-two/art.json: not valid JSON at line 3"]


def test_many_paths_are_summed_up():
    paths = {(2, str(ART / "two-and-two" / f"f{i}.json")) for i in range(5)}
    _, out, _ = _run([paths], Recorder())
    assert "changed: art_src/two-and-two/f0.json, art_src/two-and-two/f1.json, art_src/two-and-two/f2.json " \
           "and 2 more" in out


def test_ctrl_c_while_waiting_or_while_rebuilding_exits_0():
    def interrupted():
        yield {(2, str(ART / "two-and-two" / "art.json"))}
        raise KeyboardInterrupt

    rebuild = Recorder()
    code, out, _ = _run(interrupted(), rebuild)
    assert code == 0 and rebuild.calls == 2 and out[-1] == "stopped watching"

    def rebuild_interrupted() -> Outcome:
        raise KeyboardInterrupt
    code, out, _ = _run([{(2, "x")}], rebuild_interrupted)
    assert code == 0 and out == ["stopped watching"]


def test_what_calls_for_a_rebuild(tmp_path):
    out = tmp_path / "build"
    wanted = ChangeFilter(skip_folders(["two-and-two"], out))
    assert wanted(ART / "two-and-two" / "table.json")
    assert wanted(TEMPLATES / "games" / "two-and-two" / "rules.lua.j2")
    assert wanted(RULES / "two_and_two" / "data.json")
    assert wanted(RULES / "core.py") and wanted(CODE / "save.py")  # shared engine and pipeline code
    assert wanted(TEMPLATES / "runtime" / "judge.lua.j2")
    assert not wanted(ART / "twin-tower-city" / "art.json")  # another game's
    assert not wanted(TEMPLATES / "games" / "smitten-2" / "rules.lua.j2")
    assert not wanted(RULES / "two_by_two" / "engine.py")
    assert not wanted(out / "two-and-two" / "two-and-two.json")  # the build's own output
    assert not wanted(CODE / "__pycache__" / "save.cpython-311.pyc")
    assert not wanted(ART / "two-and-two" / ".tts-builder-tmp-1-x" / "a.png")
    assert not wanted(ART / "two-and-two" / "table.json~")
    assert not wanted(ART / "two-and-two" / ".table.json.swp")


def test_a_failed_rebuild_process_gives_its_one_error_line(tmp_path):
    rebuild = subprocess_rebuild(["no-such-game", "--out", str(tmp_path)])
    outcome = rebuild()
    assert not outcome.ok
    (line,) = outcome.lines
    assert line.startswith("tts-builder: ") and "no-such-game" in line


@pytest.mark.parametrize("argv, expected", [
    (["build", "two-and-two", "--push"], "--push goes with --watch"),
    (["build", "--watch"], "name the games"),
    (["build", "--watch", "nope"], "unknown game"),
    (["build", "--watch", "two-and-two", "--base-url", "ftp://x"], "--base-url"),
])
def test_watch_bad_input_is_one_line(capsys, argv, expected):
    assert cli.main(argv) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and expected in err, err


def test_real_watchfiles_run_rebuilds_on_a_write_and_stops_on_the_event(tmp_path):
    pytest.importorskip("watchfiles")
    from tts_builder.watch import watch_changes

    watched = tmp_path / "art_src"
    watched.mkdir()
    stop = threading.Event()
    rebuild = Recorder()
    lines: list[str] = []
    ready = threading.Event()

    def out(line: str) -> None:
        lines.append(line)
        if line.startswith("watching"):
            ready.set()

    wanted = ChangeFilter([tmp_path / "build"])
    loop = threading.Thread(target=watch_loop, args=(watch_changes([watched], wanted, stop), rebuild),
                            kwargs={"wanted": wanted, "roots": [watched], "out": out, "err": out}, daemon=True)
    loop.start()
    try:
        assert ready.wait(30)
        rebuild.called.clear()
        for attempt in range(3):  # the watcher starts on the first wait for changes: write until it is seen
            (watched / "art.json").write_text(f'{{"v": {attempt}}}')
            if rebuild.called.wait(10):
                break
        assert rebuild.calls >= 2, lines
        assert "changed: art_src/art.json" in lines
    finally:
        stop.set()
        loop.join(timeout=30)
    assert not loop.is_alive()
    assert lines[-1] == "stopped watching"


def test_the_command_wires_the_games_out_and_push_into_the_loop(tmp_path, monkeypatch, capsys):
    from tts_builder import watch

    seen: dict = {}

    def fake_rebuild(argv, after=None):
        seen["argv"], seen["after"] = argv, after
        return lambda: Outcome(True, ("built",))

    def fake_changes(roots, wanted, stop=None):
        seen["roots"], seen["wanted"] = roots, wanted
        return [{(2, str(ART / "two-and-two" / "art.json"))}, {(2, str(ART / "smitten-2" / "art.json"))}]

    monkeypatch.setattr(watch, "subprocess_rebuild", fake_rebuild)
    monkeypatch.setattr(watch, "watch_changes", fake_changes)
    out = tmp_path / "out"
    assert cli.main(["build", "two-and-two", "--watch", "--push", "--out", str(out)]) == 0
    assert seen["argv"] == ["two-and-two", "--out", str(out)] and seen["after"] is not None
    assert seen["roots"] == ROOTS and not seen["wanted"](out / "two-and-two" / "two-and-two.json")
    printed = capsys.readouterr().out.splitlines()
    assert printed.count("built") == 2 and printed[-1] == "stopped watching"  # smitten-2's change: no rebuild
    # --push after a good rebuild: a game TTS cannot be reached for is one line, and the watch goes on
    lines = seen["after"]()
    assert len(lines) == 1 and lines[0].startswith("two-and-two: not pushed: ")
    assert cli.main(["build", "--all", "--watch", "--out", str(out)]) == 0
    assert seen["argv"] == ["--all", "--out", str(out)] and seen["after"] is None


@pytest.mark.parametrize("name", [".art.json.swp", ".art.json.swo", ".art.json.swpx", "4913", "5036", ".#art.json",
                                  "#art.json#", "art.json~", "art.json.bak", ".goutputstream-AB12CD",
                                  "art.json___jb_tmp___", ".art.json.kate-swp", "art.json.~1~"])
def test_editors_temporary_files_call_for_no_rebuild(tmp_path, name):
    wanted = ChangeFilter(skip_folders(["two-and-two"], tmp_path / "build"))
    assert not wanted(ART / "two-and-two" / name)
    code, out, _ = _run([{(1, str(ART / "two-and-two" / name))}], Recorder())
    assert not [line for line in out if line.startswith("changed:")]  # never listed as a change
    assert wanted(ART / "two-and-two" / "art.json")  # the file itself still is


def test_a_no_op_start_does_not_say_rebuilt(tmp_path):
    """The first build finds the output up to date: its line, then the watch; no "rebuilt in"."""
    up_to_date = "two-and-two: up to date (build/two-and-two/two-and-two.json); nothing to do (--force rebuilds)"
    rebuild = Recorder(Outcome(True, (up_to_date,), built=False), Outcome(True, ("two-and-two: built",)))
    code, out, _ = _run([{(2, str(ART / "two-and-two" / "art.json"))}], rebuild)
    assert out == [up_to_date, "watching for changes (Ctrl-C to stop)", "changed: art_src/two-and-two/art.json",
                   "two-and-two: built", "rebuilt in 1.0 s", "stopped watching"]


def test_the_rebuild_process_tells_up_to_date_from_built(tmp_path):
    out = tmp_path / "out"
    first = subprocess_rebuild(["obren-buttons", "--out", str(out)])()
    assert first.ok and first.built
    again = subprocess_rebuild(["obren-buttons", "--out", str(out)])()
    assert again.ok and not again.built and "up to date" in again.lines[0]
