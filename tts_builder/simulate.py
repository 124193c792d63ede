"""Play complete games with simulated players and record them as transcripts."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterator

import rules
from rules.core import Game, IllegalMove, Move, State
from rules.players import choose, seat_policies
from tts_builder.errors import InputError, require_game
from tts_builder.fileio import atomic_write_json, atomic_write_text, dump_json
from tts_builder.parallel import ordered_map
from tts_builder.transcript import new_transcript


def play_game(game_id: str, seed: int, *, policy: str = "heuristic",
              options: dict[str, Any] | None = None, num_players: int | None = None) -> dict[str, Any]:
    """One complete game as a transcript. Same arguments, same transcript.

    ``policy`` is one name for the table or one per seat, comma-separated
    (:func:`rules.players.seat_policies`); the source records it and each seat's policy.

    >>> t = play_game("two-and-two", 1, policy="heuristic,random")
    >>> t["result"]["reason"] in ("most-sets", "largest-set", "draw"), t["source"]["policies"]
    (True, ['heuristic', 'random'])
    """
    table = new_game(game_id, seed, policy=policy, options=options, num_players=num_players)
    state, transcript, game, per_seat, rng = table.state, table.transcript, table.game, table.per_seat, table.rng
    moves = transcript["moves"]
    # NewGame.moves inlined (the same moves): a designer's run spends its time here, per move
    append, apply, player_of, is_terminal = moves.append, state.apply, state.player_of, state.is_terminal
    limit = game.max_game_length
    while not is_terminal():
        if len(moves) >= limit:
            raise RuntimeError(f"{game.id} seed {seed}: no end after {len(moves)} moves")
        move = choose(game, state, per_seat, rng)
        player = player_of(move)  # the seat whose move it is, when several may decide
        try:
            apply(move)
        except IllegalMove as exc:  # an enumerated move refused: an engine bug, never input
            raise RuntimeError(f"{game_id} seed {seed}: legal move refused: {exc}") from exc
        append({"player": player, **move})
    result = state.result()
    transcript["result"] = result.to_json() if result else None
    return transcript


@dataclass
class NewGame:
    """A simulated game before its first move (:func:`new_game`)."""

    game: Game
    seed: int
    #: the start position
    state: State
    #: the transcript so far: setup, options, players and source; no moves yet
    transcript: dict[str, Any]
    #: each seat's policy, as :func:`rules.players.choose` takes it
    per_seat: str | tuple[str, ...]
    rng: random.Random

    def moves(self, state: State) -> Iterator[tuple[Any, Move]]:
        """``(player, move)`` for each move of the game played on ``state`` (the start position or
        an equal one): each chosen for the position it is yielded at, so the caller makes each move
        on ``state`` before it asks for the next."""
        game = self.game
        played = 0
        while not state.is_terminal():
            if played >= game.max_game_length:
                raise RuntimeError(f"{game.id} seed {self.seed}: no end after {played} moves")
            move = choose(game, state, self.per_seat, self.rng)
            yield state.player_of(move), move  # the seat whose move it is, when several may decide
            played += 1


def new_game(game_id: str, seed: int, *, policy: str = "heuristic",
             options: dict[str, Any] | None = None, num_players: int | None = None) -> NewGame:
    """What :func:`play_game` starts from: the start position, the transcript without moves, the
    players' rng. ``NewGame.moves`` then plays the moves :func:`play_game` records (check-lua
    checks each as it is played)."""
    game = rules.get_game(game_id)
    state = game.new_state(seed=seed, options=options, num_players=num_players)
    seats = seat_policies(policy, state.num_players())
    policy = canonical_policy(policy, seats)
    per_seat: str | tuple[str, ...] = policy if "," not in policy else seats
    transcript = new_transcript(game, state)
    transcript["source"] = {"tool": "tts-builder simulate", "seed": seed, "policy": policy,
                            "policies": list(seats)}
    return NewGame(game, seed, state, transcript, per_seat, random.Random(f"{game_id}/{seed}/{policy}"))


def canonical_policy(spec: str, seats: tuple[str, ...]) -> str:
    """``spec`` without spaces, and one name when every seat plays it ("random,random" is
    "random"): the same table of players is the same game.

    >>> canonical_policy("heuristic, random", ("heuristic", "random")), canonical_policy("random,random", ("random",) * 2)
    ('heuristic,random', 'random')
    >>> canonical_policy("mixed", ("heuristic",))
    'heuristic'
    """
    if "," not in spec:  # "mixed" at a lone seat is the heuristic alone: the same game, the same name
        name = spec.strip()
        return seats[0] if name == "mixed" and len(seats) == 1 else name
    return seats[0] if len(set(seats)) == 1 else ",".join(seats)


def check_settings(game_id: str, options: dict[str, Any] | None, num_players: int | None) -> int:
    """InputError naming ``--players`` or ``--options`` when the game cannot be played so; else
    the seat count the game is played with (:func:`tts_builder.config.check_game_settings`)."""
    from tts_builder.config import check_game_settings

    return check_game_settings(require_game(game_id), options, num_players)


def check_policy(policy: str, num_players: int) -> tuple[str, ...]:
    """Each seat's policy from ``--policy``, or InputError naming it."""
    try:
        return seat_policies(policy, num_players)
    except ValueError as exc:
        raise InputError(f"--policy {policy}: {exc}") from None


def variants(game_id: str, policy: str, options: dict[str, Any] | None, num_players: int | None, *,
             swap: bool = False, vary: str | None = None) -> list[tuple[str, dict[str, Any] | None]]:
    """The (policy, options) each seed is played with: once as given; with ``swap``, once per
    distinct rotation of the seats' policies (seat i takes the policy of seat i+k), so each policy
    plays each seat on the same deal; with ``vary``, once per value of that option (e.g. which side
    seat 0 plays), so a seat's own advantage cancels out of a side's win rate. Refusals name the option.

    >>> variants("two-and-two", "heuristic,random", None, None, swap=True)
    [('heuristic,random', None), ('random,heuristic', None)]
    """
    game = require_game(game_id)
    option_sets: list[dict[str, Any] | None] = [options]
    if vary is not None:
        if vary not in game.options:
            from tts_builder.errors import did_you_mean

            known = sorted(game.options)
            raise InputError(f"--vary {vary}: {game.id} has no such option{did_you_mean(vary, known)} "
                             f"(known: {', '.join(known) or 'none'})")
        values = game.option_values(vary)
        if len(values) < 2:
            raise InputError(f"--vary {vary}: the option has one value only ({values[0]!r}); name a choice or a true/false option")
        option_sets = [{**(options or {}), vary: value} for value in values]
    out: list[tuple[str, dict[str, Any] | None]] = []
    played: dict[str, Any] = {}  # the value each option set plays as -> the value asked for
    for opts in option_sets:
        try:
            seat_count = check_settings(game_id, opts, num_players)
        except InputError as exc:
            if vary is None or opts is None:
                raise
            raise InputError(f"--vary {vary}={json.dumps(opts[vary])}: {exc}") from None
        if vary is not None and opts is not None:
            # a value the game overrides (Twin Tower City plays 4 seats as teams whatever teams says)
            # would play one run twice under two names: refused, not reported as two
            effective = game.new_state(seed=0, options=opts, num_players=num_players).options().get(vary)
            key = json.dumps(effective, sort_keys=True)
            if key in played:
                where = f" at {seat_count} players" if num_players is not None else ""
                raise InputError(f"--vary {vary}: {vary}={json.dumps(opts[vary])} plays as "
                                 f"{vary}={json.dumps(played[key])}{where}: the values must play differently")
            played[key] = opts[vary]
        seats = check_policy(policy, seat_count)
        specs = [canonical_policy(policy, seats)]
        if swap:
            rotations = [seats[k:] + seats[:k] for k in range(1, len(seats))]
            specs = list(dict.fromkeys(specs + [canonical_policy(",".join(r), r) for r in rotations if r != seats]))
        out += [(spec, opts) for spec in specs]
    return out


#: what one game of :func:`simulate` hands back beside its record: nothing (written, or not kept),
#: or its text (a run file's line, or a file a Dask client writes)
_Job = tuple[str, int, str, "dict[str, Any] | None", "int | None", "Path | None", str]



def _play_one(job: _Job) -> tuple[Path | None, str | None, dict[str, Any]]:
    """One game of :func:`simulate`: (its file, its text or None, its :func:`tts_builder.report.game_record`).
    ``mode`` "file" writes it to ``path``, "text" returns the file's text (a Dask worker, whose
    folders may not be this machine's), "line" one compact line of a run file, "none" nothing.
    Module-level so a worker process can run it."""
    from tts_builder.report import game_record

    game_id, seed, policy, options, num_players, path, mode = job
    try:
        transcript = play_game(game_id, seed, policy=policy, options=options, num_players=num_players)
    except rules.SetupError as exc:  # options seed 0 deals but this seed cannot (an Obren deal bound)
        raise InputError(f"--options: seed {seed} cannot be dealt so: {exc}") from None
    record = game_record(transcript)
    if mode == "line":
        return None, _LINE.encode(transcript) + "\n", record
    if mode == "file":
        assert path is not None
        atomic_write_json(path, transcript)
    elif mode == "text":
        return path, dump_json(transcript), record
    return path, None, record


#: a run file's line: compact, keys in the order the transcript is made (the same for the same
#: game: sorting them cost a fifth of the writing)
_LINE = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, check_circular=False)  # a tenth faster; no cycles

#: ``--out`` names a run file when it ends so: one file for the whole run
RUN_FILE_SUFFIXES = (".zip", ".jsonl")


def is_run_file(out: Path) -> bool:
    return out.suffix.lower() in RUN_FILE_SUFFIXES


class RunFile:
    """One file for a whole run, written as the games come and renamed into place when whole (a
    killed run leaves the previous file whole): JSON Lines, one compact transcript a line, or a
    zip holding them as one deflated member ``STEM.jsonl`` (compressed as one stream, so a game
    costs a few hundred bytes), with fixed dates and modes: same games, same bytes."""

    def __init__(self, path: Path) -> None:
        import zipfile

        from tts_builder.fileio import temp_path_in

        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        self.tmp = temp_path_in(path.parent, path.name)
        self.archive: zipfile.ZipFile | None = None
        if path.suffix.lower() == ".zip":
            # level 5: a fifth larger than 6 at 60% of its CPU (Two by Two: 490 bytes a game, 54 -> 33 us)
            self.archive = zipfile.ZipFile(self.tmp, "w", zipfile.ZIP_DEFLATED, compresslevel=5)
            info = zipfile.ZipInfo(f"{path.stem}.jsonl", date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            # the member's own level (ZipFile.open of a ZipInfo does not take the archive's):
            # compress_level since Python 3.13, _compresslevel before
            setattr(info, "compress_level" if hasattr(zipfile.ZipInfo, "compress_level") else "_compresslevel", 5)
            info.external_attr = 0o644 << 16
            self.stream: Any = self.archive.open(info, "w", force_zip64=True)
        else:
            self.stream = open(self.tmp, "wb")

    def write(self, line: str) -> None:
        self.stream.write(line.encode("utf-8"))

    def close(self, keep: bool) -> None:
        """Close; with ``keep`` rename into place, else remove what was written."""
        import os

        try:
            self.stream.close()
            if self.archive is not None:
                self.archive.close()
            if keep:
                os.replace(self.tmp, self.path)
        finally:
            if self.tmp.exists():
                self.tmp.unlink()


def earlier_transcripts(out: Path, ours: Callable[[], set[str]]) -> str | None:
    """The first file ``report`` would read in the folder ``out`` that this run does not write
    (its names: ``ours()``, asked only when the folder holds any), or None. A run killed part
    way and run again replaces its own files: that mixes nothing."""
    from tts_builder.sources import expand_one

    if not out.is_dir():
        return None
    names: set[str] | None = None
    try:
        for source in expand_one(str(out)):
            if names is None:
                names = ours()
            if source.name not in names:
                return source.name
    except InputError:
        return None
    return None


def check_seed(seed: int) -> int:
    """``--seed``, refused when negative: Python's generator deals seed -3 as it deals seed 3 (the
    same game twice under two names), and ``GAME--03.json`` would neither read nor sort well.

    >>> check_seed(-3)
    Traceback (most recent call last):
    tts_builder.errors.InputError: --seed must be at least 0, not -3 (a negative seed deals the same game as its positive)
    """
    if seed < 0:
        raise InputError(f"--seed must be at least 0, not {seed} (a negative seed deals the same game as its positive)")
    return seed


def simulate(game_id: str, games: int, seed: int, out: Path | None, **kwargs: Any) -> list[Path]:
    """:func:`simulate_run`, returning the files written: the transcripts in order, or the run file."""
    return simulate_run(game_id, games, seed, out, **kwargs)[1]


def simulate_run(game_id: str, games: int, seed: int, out: Path | None, *, policy: str = "heuristic",
                 options: dict[str, Any] | None = None, num_players: int | None = None,
                 progress: Callable[[int, int], None] | None = None, jobs: int = 1,
                 scheduler: str | None = None, swap: bool = False, vary: str | None = None,
                 append: bool = False) -> tuple[list[dict[str, Any]], list[Path]]:
    """Play ``games`` seeds (game i uses seed ``seed + i``) and record them: one transcript file
    each in the folder ``out``, or one run file for them all when ``out`` ends in ``.zip`` or
    ``.jsonl`` (:class:`RunFile`), or nowhere when ``out`` is None (the report alone). Returns
    each game's :func:`tts_builder.report.game_record`, in order, for the report, and the files
    written (the transcripts in order, or the run file).
    ``num_players`` None plays the game's default seat count for the options. ``jobs`` worker
    processes, or the Dask cluster at ``scheduler``, share the games; the files are the same
    whatever runs them. With ``swap`` or ``vary`` each seed is played once per :func:`variants`
    entry (files ``GAME-SEED-K.json``). A folder that already holds transcripts is refused unless
    ``append`` (a later report would pool the runs)."""
    require_game(game_id)
    if games < 1:
        raise InputError(f"--games must be at least 1, not {games}")
    check_seed(seed)
    plays = variants(game_id, policy, options, num_players, swap=swap, vary=vary)
    run_file = out is not None and is_run_file(out)
    if append and (out is None or run_file):
        raise InputError("--append adds this run's transcripts to a folder of earlier ones; "
                         "a run file is written whole and --no-transcripts writes none")
    mode = "none" if out is None else "line" if run_file else "text" if scheduler is not None else "file"
    width = max(3, len(str(seed + games - 1)))  # one width for the run: the names sort in seed order
    total = games * len(plays)

    def path_of(i: int, k: int, mode: str) -> Path | None:
        if mode not in ("file", "text"):
            return None
        assert out is not None
        return out / f"{game_id}-{seed + i:0{width}d}{f'-{k}' if len(plays) > 1 else ''}.json"

    if out is not None and not run_file and not append:
        earlier = earlier_transcripts(out, lambda: {str(path_of(i, k, "file")) for i in range(games)
                                                    for k in range(len(plays))})
        if earlier is not None:
            raise InputError(f"--out {out}: already holds transcripts of an earlier run ({earlier}); "
                             "give a new or empty folder, or --append to add this run beside them")
    work = ((game_id, seed + i, spec, opts, num_players, path_of(i, k, mode), mode)
            for i in range(games) for k, (spec, opts) in enumerate(plays))
    records: list[dict[str, Any]] = []
    paths: list[Path] = []
    writer = RunFile(out) if run_file and out is not None else None
    done = False
    try:
        for path, text, record in ordered_map(_play_one, work, jobs, scheduler=scheduler, total=total):
            if text is not None:
                if writer is not None:
                    writer.write(text)
                elif path is not None:  # a Dask worker's file, written here
                    atomic_write_text(path, text)
            if path is not None:
                paths.append(path)
            records.append(record)
            if progress:
                progress(len(records), total)
        done = True
    finally:
        if writer is not None:
            writer.close(keep=done)
    return records, [out] if writer is not None and out is not None else paths
