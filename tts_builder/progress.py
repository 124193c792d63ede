"""Progress of the long commands (build, simulate, validate, check-lua), on stderr only.

Stdout carries a command's results (``--json`` stays one clean document); progress
never touches it. How progress shows depends on where stderr goes:

* a terminal: a live line drawn by ``rich`` (count, bar, rate and time left), erased
  when the command ends;
* anything else (a log file, CI): one plain heartbeat line every few seconds
  (``simulate: 1200/5000 games, 410/s, 9 s left``), so a long run shows it is alive
  without filling the log; a run shorter than the interval prints nothing;
* ``--quiet``: nothing at all.

The heartbeat reads an injectable clock, so its timing is tested without waiting::

    >>> import io
    >>> ticks = iter([0.0, 1.0, 6.0, 7.0])
    >>> err = io.StringIO()
    >>> with Progress("simulate", 10, "games", stream=err, mode="plain", clock=lambda: next(ticks)) as p:
    ...     p.advance(4)   # 1 s in: too soon for a heartbeat
    ...     p.advance(2)   # 6 s in: one line
    >>> print(err.getvalue(), end="")
    simulate: 6/10 games, 1.0/s, 4 s left
    simulate: 6/10 games, 0.86/s, done in 7 s
"""

from __future__ import annotations

import sys
import time
from typing import Any, Callable, Literal, TextIO

Mode = Literal["auto", "tty", "plain", "off"]

#: Seconds between two heartbeat lines when stderr is not a terminal.
HEARTBEAT_SECONDS = 5.0


def _rate_text(rate: float) -> str:
    """"410/s", "2.5/s", "0.04/s": enough digits to tell slow runs apart."""
    if rate >= 100:
        return f"{rate:.0f}/s"
    if rate >= 1:
        return f"{rate:.1f}/s"
    return f"{rate:.2g}/s"


def _duration_text(seconds: float) -> str:
    """"9 s", "3 min 20 s", "1 h 05 min"."""
    seconds = max(0, round(seconds))
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min {seconds % 60:02d} s"
    return f"{seconds // 3600} h {seconds % 3600 // 60:02d} min"


class Progress:
    """Progress of ``total`` steps of one command, counted in ``unit`` ("games", "files").

    Use as a context manager; :meth:`advance` after each finished step, :meth:`note` to name
    what is being done now (a build's "render card 12"). ``mode`` "auto" picks "tty" when
    ``stream`` is a terminal, else "plain"; "off" (``--quiet``) shows nothing.
    """

    def __init__(self, label: str, total: int, unit: str, *, stream: TextIO | None = None, mode: Mode = "auto",
                 clock: Callable[[], float] = time.monotonic, interval: float | None = None) -> None:
        self.label, self.total, self.unit = label, max(0, total), unit
        self.stream = sys.stderr if stream is None else stream
        if mode == "auto":
            isatty = getattr(self.stream, "isatty", None)
            mode = "tty" if isatty is not None and isatty() else "plain"
        self.mode: Mode = mode
        self.clock = clock
        self.interval = HEARTBEAT_SECONDS if interval is None else interval
        self.done = 0
        self.detail = ""
        self.lines = 0  # heartbeat lines written
        self._start = 0.0
        self._last = 0.0
        self._rich: Any = None
        self._task: Any = None
        self._drawn = float("-inf")

    # -- the context ---------------------------------------------------------

    def __enter__(self) -> Progress:
        self._start = self._last = self.clock()
        if self.mode == "tty":
            self._start_rich()
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _start_rich(self) -> None:
        from rich.console import Console
        from rich.progress import (BarColumn, MofNCompleteColumn, Progress as RichProgress, ProgressColumn,
                                   Task, TextColumn, TimeRemainingColumn)
        from rich.table import Column
        from rich.text import Text

        class RateColumn(ProgressColumn):
            """Steps per second, as the heartbeat writes it."""

            def render(self, task: Task) -> Text:
                speed = task.finished_speed or task.speed
                return Text("" if speed is None else _rate_text(speed), style="progress.data.speed")

        console = Console(file=self.stream, stderr=self.stream is sys.stderr)
        # No stdout redirection (rich would send stdout through the stderr console, wrapped) and no
        # refresh thread: the line is redrawn by update()/note(), so echo() can print between redraws.
        self._rich = RichProgress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                                  TextColumn(self.unit), RateColumn(), TimeRemainingColumn(),
                                  TextColumn("{task.fields[detail]}",
                                             table_column=Column(no_wrap=True, overflow="ellipsis")),
                                  console=console, transient=True, auto_refresh=False,
                                  redirect_stdout=False, redirect_stderr=False)
        self._rich.start()
        self._task = self._rich.add_task(self.label, total=self.total or None, detail="")

    def close(self) -> None:
        """Stop the live line (a terminal); a heartbeat log gets a last line if it had any."""
        if self._rich is not None:
            self._rich.stop()
            self._rich = None
        elif self.mode == "plain" and self.lines and self.done:
            elapsed = self.clock() - self._start
            rate = self.done / elapsed if elapsed > 0 else 0.0
            count = f"{self.done}/{self.total}" if self.total else str(self.done)
            self._write(f"{self.label}: {count} {self.unit}, {_rate_text(rate)}, "
                        f"done in {_duration_text(elapsed)}")

    # -- reporting ------------------------------------------------------------

    def advance(self, steps: int = 1) -> None:
        """``steps`` more are finished."""
        self.update(self.done + steps)

    def update(self, done: int) -> None:
        """``done`` steps are finished in all."""
        self.done = done
        if self.mode == "tty" and self._rich is not None:
            self._rich.update(self._task, completed=done, detail=self.detail)
            self._redraw()
        elif self.mode == "plain":
            self._maybe_heartbeat()

    def note(self, detail: str) -> None:
        """What is being done now, shown beside the count (a build's current step)."""
        self.detail = detail
        if self.mode == "tty" and self._rich is not None:
            self._rich.update(self._task, detail=detail)
            self._redraw()
        elif self.mode == "plain":
            self._maybe_heartbeat()

    def echo(self, text: str, file: TextIO | None = None) -> None:
        """Print a line of the command's own output (``file``, default stdout) while progress
        shows: on a terminal the live line is erased first and drawn again below it."""
        out = sys.stdout if file is None else file
        if self._rich is not None:
            self.stream.write("\r\x1b[2K")
            self.stream.flush()
            print(text, file=out, flush=True)
            self._rich.refresh()
            self._drawn = self.clock()
        else:
            print(text, file=out)

    def _redraw(self) -> None:
        """Draw the live line again, at most ten times a second."""
        now = self.clock()
        if now - self._drawn >= 0.1 or 0 < self.total <= self.done:
            self._drawn = now
            self._rich.refresh()

    def callback(self) -> Callable[[int, int], None]:
        """A ``progress(done, total)`` function for the engines' loops."""
        def report(done: int, total: int) -> None:
            self.total = total
            self.update(done)
        return report

    def heartbeat_text(self, now: float) -> str:
        """"simulate: 1200/5000 games, 410/s, 9 s left" (and the current step, if any)."""
        elapsed = now - self._start
        rate = self.done / elapsed if elapsed > 0 else 0.0
        # a total of 0: not known beforehand (a folder of transcripts), so the count only
        text = f"{self.label}: {self.done}/{self.total} {self.unit}" if self.total else \
            f"{self.label}: {self.done} {self.unit}"
        if rate > 0:
            text += f", {_rate_text(rate)}"
        if rate > 0 and self.total > self.done:
            text += f", {_duration_text((self.total - self.done) / rate)} left"
        if self.detail:
            text += f" ({self.detail})"
        return text

    def _maybe_heartbeat(self) -> None:
        now = self.clock()
        if now - self._last >= self.interval:
            self._last = now
            self._write(self.heartbeat_text(now))

    def _write(self, line: str) -> None:
        self.lines += 1
        try:
            self.stream.write(line + "\n")
            self.stream.flush()
        except (OSError, ValueError):  # stderr closed: progress is never worth failing over
            pass


def progress_mode(quiet: bool) -> Mode:
    """The mode a command's ``--quiet`` asks for."""
    return "off" if quiet else "auto"
