"""Progress on the long commands: a heartbeat line every few seconds when stderr is not a
terminal, a live line on a terminal, nothing with --quiet, and stdout never touched."""

from __future__ import annotations

import io
import json

import pytest

from tts_builder import progress as progress_module
from tts_builder.cli import main
from tts_builder.progress import Progress


class FakeClock:
    """A clock the test moves by hand."""

    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


class Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_heartbeat_every_interval_not_every_step():
    clock, err = FakeClock(), io.StringIO()
    with Progress("simulate", 5000, "games", stream=err, mode="auto", clock=clock, interval=5.0) as shown:
        assert shown.mode == "plain"  # a StringIO is not a terminal
        for _ in range(1200):  # 1200 games in 2.9 s: no line yet
            clock.now += 2.9 / 1200
            shown.advance()
        assert err.getvalue() == ""
        clock.now += 0.1  # 3 s after the start: still quiet (the interval is 5 s)
        shown.advance(0)
        assert err.getvalue() == ""
        clock.now = 105.0
        shown.update(2050)  # 5 s in: one line, with the rate and the time left
        assert err.getvalue() == "simulate: 2050/5000 games, 410/s, 7 s left\n"
        clock.now = 107.0
        shown.update(2870)  # 2 s after the last line: nothing
        assert err.getvalue().count("\n") == 1
        clock.now = 110.0
        shown.update(4100)
        clock.now = 112.5
        shown.update(5000)
    lines = err.getvalue().splitlines()
    assert lines == ["simulate: 2050/5000 games, 410/s, 7 s left",
                     "simulate: 4100/5000 games, 410/s, 2 s left",
                     "simulate: 5000/5000 games, 400/s, done in 12 s"]


def test_a_short_run_prints_nothing_in_a_log():
    clock, err = FakeClock(), io.StringIO()
    with Progress("validate", 3, "files", stream=err, clock=clock) as shown:
        for _ in range(3):
            clock.now += 1.0
            shown.advance()
    assert err.getvalue() == ""


def test_heartbeat_names_the_current_step():
    clock, err = FakeClock(), io.StringIO()
    with Progress("build", 2, "games", stream=err, clock=clock, interval=1.0) as shown:
        clock.now += 2.0
        shown.note("two-and-two: render card 7")
    assert err.getvalue() == "build: 0/2 games (two-and-two: render card 7)\n"


def test_quiet_writes_nothing_even_on_a_terminal():
    clock, err = FakeClock(), Terminal()
    with Progress("simulate", 10, "games", stream=err, mode="off", clock=clock, interval=0.0) as shown:
        for _ in range(10):
            clock.now += 10.0
            shown.advance()
            shown.note("step")
    assert err.getvalue() == ""


def test_a_terminal_gets_the_rich_line_and_it_is_cleared():
    err = Terminal()
    with Progress("check-lua", 4, "games", stream=err) as shown:
        assert shown.mode == "tty"
        shown.update(2)
    text = err.getvalue()
    assert "check-lua" in text and "games" in text  # drawn on the given stream
    assert text.endswith("\x1b[2K") or "\x1b[2K" in text[-40:]  # transient: erased at the end


def test_a_closed_stderr_does_not_fail_the_command():
    err = io.StringIO()
    err.close()
    with Progress("simulate", 2, "games", stream=err, mode="plain", interval=0.0) as shown:
        shown.advance()  # writing fails; the command goes on


# -- the commands ---------------------------------------------------------------------


@pytest.fixture
def every_step(monkeypatch):
    """A heartbeat on every step (interval 0), as a very long run would print."""
    monkeypatch.setattr(progress_module, "HEARTBEAT_SECONDS", 0.0)


def test_simulate_heartbeat_on_stderr_stdout_unchanged(tmp_path, capsys, every_step):
    argv = ["simulate", "two-and-two", "--games", "3", "--jobs", "1"]
    assert main([*argv, "--out", str(tmp_path / "a")]) == 0
    loud = capsys.readouterr()
    assert main([*argv, "--out", str(tmp_path / "a"), "--quiet"]) == 0
    quiet = capsys.readouterr()
    assert quiet.err == ""
    assert loud.out == quiet.out and "wrote 3 transcript(s)" in loud.out
    lines = loud.err.splitlines()
    assert lines[0].startswith("simulate: 1/3 games, ") and lines[-1].startswith("simulate: 3/3 games, ")
    assert "done in" in lines[-1]


def test_validate_json_stays_pure_with_progress(tmp_path, capsys, every_step):
    assert main(["simulate", "two-and-two", "--games", "2", "--jobs", "1", "--quiet", "--out", str(tmp_path)]) == 0
    capsys.readouterr()
    files = sorted(str(p) for p in tmp_path.glob("*.json"))
    assert main(["validate", "--json", "--jobs", "1", *files]) == 0
    seen = capsys.readouterr()
    assert [e["verdict"] for e in json.loads(seen.out)] == ["legal", "legal"]
    assert "validate: 2/2 files" in seen.err
    assert main(["validate", "-q", "--json", "--jobs", "1", *files]) == 0
    assert capsys.readouterr().err == ""


def test_check_lua_progress_and_quiet(capsys, every_step):
    argv = ["check-lua", "two-and-two", "--games", "2", "--mutants", "0", "--jobs", "1"]
    assert main(argv) == 0
    loud = capsys.readouterr()
    assert "check-lua: 2/2 games" in loud.err
    assert main([*argv, "--quiet"]) == 0
    quiet = capsys.readouterr()
    assert quiet.err == "" and quiet.out == loud.out


def test_build_heartbeat_names_the_step_and_quiet_silences_it(tmp_path, capsys, every_step):
    out = tmp_path / "out"
    assert main(["build", "two-and-two", "--out", str(out)]) == 0
    loud = capsys.readouterr()
    assert "build: 0/1 games (two-and-two: art)" in loud.err.splitlines()
    assert any(line.startswith("build: 1/1 games, ") for line in loud.err.splitlines())
    assert "build:" not in loud.out and loud.out.startswith("two-and-two: ")
    assert main(["build", "two-and-two", "--out", str(out), "--quiet"]) == 0
    quiet = capsys.readouterr()
    assert "build:" not in quiet.err and quiet.out.startswith("two-and-two: ")


def test_on_a_terminal_output_lines_stay_on_stdout_whole(capsys):
    """rich must not take over stdout (it would send it to stderr, wrapped at the terminal's width)."""
    err = Terminal()
    long_line = "two-and-two: " + "x" * 300
    with Progress("build", 2, "games", stream=err) as shown:
        shown.note("two-and-two: art")
        shown.echo(long_line)
        print("a plain print")
        shown.echo("a warning", err)
        shown.advance()
    assert capsys.readouterr().out == long_line + "\na plain print\n"
    text = err.getvalue()
    assert "x" * 50 not in text and "a warning\n" in text
    # the live line is erased before the warning and drawn again after it
    before, after = text.split("a warning\n")
    assert before.endswith("\r\x1b[2K") and "1/2" in after


def test_echo_without_a_terminal_is_a_plain_print(capsys):
    err = io.StringIO()
    with Progress("build", 1, "games", stream=err, mode="plain") as shown:
        shown.echo("summary")
        shown.echo("note", err)
    assert capsys.readouterr().out == "summary\n" and err.getvalue() == "note\n"
