"""Play complete games with simulated players and record them as transcripts."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any, Callable

import rules
from rules.core import IllegalMove
from rules.players import choose
from tts_builder.errors import InputError, require_game
from tts_builder.fileio import atomic_write_json, atomic_write_text, dump_json
from tts_builder.parallel import ordered_map
from tts_builder.transcript import new_transcript


def play_game(game_id: str, seed: int, *, policy: str = "heuristic",
              options: dict[str, Any] | None = None, num_players: int | None = None) -> dict[str, Any]:
    """One complete game as a transcript. Same arguments, same transcript.

    >>> t = play_game("two-and-two", 1)
    >>> t["result"]["reason"] in ("most-sets", "largest-set", "draw")
    True
    """
    game = rules.get_game(game_id)
    state = game.new_state(seed=seed, options=options, num_players=num_players)
    transcript = new_transcript(game, state)
    transcript["source"] = {"tool": "tts-builder simulate", "seed": seed, "policy": policy}
    rng = random.Random(f"{game_id}/{seed}/{policy}")
    moves = transcript["moves"]
    while not state.is_terminal():
        if len(moves) >= game.max_game_length:
            raise RuntimeError(f"{game_id} seed {seed}: no end after {len(moves)} moves")
        move = choose(game, state, policy, rng)
        player = state.player_of(move)  # the seat whose move it is, when several may decide
        try:
            state.apply(move)
        except IllegalMove as exc:  # an enumerated move refused: an engine bug, never input
            raise RuntimeError(f"{game_id} seed {seed}: legal move refused: {exc}") from exc
        moves.append({"player": player, **move})
    result = state.result()
    transcript["result"] = result.to_json() if result else None
    return transcript


def check_settings(game_id: str, options: dict[str, Any] | None, num_players: int | None) -> None:
    """InputError naming ``--players`` or ``--options`` when the game cannot be played so."""
    game = require_game(game_id)
    if num_players is not None and num_players not in game.seat_counts():
        counts = ", ".join(map(str, game.seat_counts()))
        raise InputError(f"--players: {game.id} is played by {counts} players, not {num_players}")
    try:
        game.resolve_options(options)
        game.new_state(seed=0, options=options, num_players=num_players)
    except rules.SetupError as exc:
        raise InputError(f"{'--options/--players' if num_players is not None else '--options'}: {exc}") from None


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


def simulate(game_id: str, games: int, seed: int, out: Path, *, policy: str = "heuristic",
             options: dict[str, Any] | None = None, num_players: int | None = None,
             progress: Callable[[int, int], None] | None = None, jobs: int = 1,
             scheduler: str | None = None) -> list[Path]:
    """Write ``games`` transcripts into ``out``; game i uses seed ``seed + i``.
    ``num_players`` None plays the game's default seat count for the options. ``jobs`` worker
    processes, or the Dask cluster at ``scheduler``, share the games; the files are the same
    whatever runs them."""
    require_game(game_id)
    if games < 1:
        raise InputError(f"--games must be at least 1, not {games}")
    check_settings(game_id, options, num_players)
    width = max(3, len(str(games - 1)))
    work = ((game_id, seed + i, policy, options, num_players, out / f"{game_id}-{seed + i:0{width}d}.json")
            for i in range(games))
    paths = []
    if scheduler is not None:
        for path, text in ordered_map(_play_to_text, work, scheduler=scheduler, total=games):
            atomic_write_text(path, text)
            paths.append(path)
            if progress:
                progress(len(paths), games)
        return paths
    for path in ordered_map(_play_and_write, work, jobs, total=games):
        paths.append(path)
        if progress:
            progress(len(paths), games)
    return paths
