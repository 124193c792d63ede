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
    state, transcript = table.state, table.transcript
    moves = transcript["moves"]
    for player, move in table.moves(state):
        try:
            state.apply(move)
        except IllegalMove as exc:  # an enumerated move refused: an engine bug, never input
            raise RuntimeError(f"{game_id} seed {seed}: legal move refused: {exc}") from exc
        moves.append({"player": player, **move})
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
    """
    if "," not in spec:
        return spec.strip()
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
    for opts in option_sets:
        try:
            seat_count = check_settings(game_id, opts, num_players)
        except InputError as exc:
            if vary is None or opts is None:
                raise
            raise InputError(f"--vary {vary}={json.dumps(opts[vary])}: {exc}") from None
        seats = check_policy(policy, seat_count)
        specs = [canonical_policy(policy, seats)]
        if swap:
            rotations = [seats[k:] + seats[:k] for k in range(1, len(seats))]
            specs = list(dict.fromkeys(specs + [canonical_policy(",".join(r), r) for r in rotations if r != seats]))
        out += [(spec, opts) for spec in specs]
    return out


def _play_and_write(job: tuple[str, int, str, dict[str, Any] | None, int | None, Path]) -> Path:
    """One game of :func:`simulate`, written; module-level so a worker process can run it."""
    game_id, seed, policy, options, num_players, path = job
    atomic_write_json(path, play_game(game_id, seed, policy=policy, options=options, num_players=num_players))
    return path


def _play_to_text(job: tuple[str, int, str, dict[str, Any] | None, int | None, Path]) -> tuple[Path, str]:
    """One game of :func:`simulate` as the text of its file, for a Dask worker, whose folders may
    not be this machine's: the client writes it."""
    game_id, seed, policy, options, num_players, path = job
    return path, dump_json(play_game(game_id, seed, policy=policy, options=options, num_players=num_players))


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


def simulate(game_id: str, games: int, seed: int, out: Path, *, policy: str = "heuristic",
             options: dict[str, Any] | None = None, num_players: int | None = None,
             progress: Callable[[int, int], None] | None = None, jobs: int = 1,
             scheduler: str | None = None, swap: bool = False, vary: str | None = None) -> list[Path]:
    """Write the transcripts of ``games`` seeds into ``out``; game i uses seed ``seed + i``.
    ``num_players`` None plays the game's default seat count for the options. ``jobs`` worker
    processes, or the Dask cluster at ``scheduler``, share the games; the files are the same
    whatever runs them. With ``swap`` or ``vary`` each seed is played once per :func:`variants`
    entry (files ``GAME-SEED-K.json``)."""
    require_game(game_id)
    if games < 1:
        raise InputError(f"--games must be at least 1, not {games}")
    check_seed(seed)
    plays = variants(game_id, policy, options, num_players, swap=swap, vary=vary)
    width = max(3, len(str(seed + games - 1)))  # one width for the run: the names sort in seed order
    total = games * len(plays)
    work = ((game_id, seed + i, spec, opts, num_players,
             out / f"{game_id}-{seed + i:0{width}d}{f'-{k}' if len(plays) > 1 else ''}.json")
            for i in range(games) for k, (spec, opts) in enumerate(plays))
    paths = []
    if scheduler is not None:
        for path, text in ordered_map(_play_to_text, work, scheduler=scheduler, total=total):
            atomic_write_text(path, text)
            paths.append(path)
            if progress:
                progress(len(paths), total)
        return paths
    for path in ordered_map(_play_and_write, work, jobs, total=total):
        paths.append(path)
        if progress:
            progress(len(paths), total)
    return paths
