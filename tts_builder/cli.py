"""The ``tts-builder`` command line.

Exit codes are the same for every command: 0 success, 1 the input was read and
found wanting (an illegal move, an invalid save, a Lua/Python disagreement),
2 the input could not be used (one line on stderr naming the file and field).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any, Callable, NoReturn, Sequence

import rules
import rules.players
from tts_builder import __version__
from tts_builder.errors import InputError, require_game
from tts_builder.fileio import MAX_JSON_DEPTH, parse_json_text, sweep_stale_temp
from tts_builder.parallel import WorkerDied


class _Parser(argparse.ArgumentParser):
    """One-line errors, and no abbreviated options: ``--out`` must not be guessed from
    ``--o``, and a new option must not silently change what an old abbreviation meant."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:  # argparse's default prints usage; keep one line
        raise InputError(f"{self.prog}: {message}")


def _out_dir(value: str, option: str = "--out") -> Path:
    """``--out DIR`` as a Path, refused when it, or a folder above it, is not a folder."""
    path = Path(value)
    for place in (path, *path.parents):
        if place.exists():
            if not place.is_dir():
                what = "names" if place == path else f"is inside {place}, which is"
                raise InputError(f"{option} {value}: {what} a file, not a folder")
            break
    return path


def _options_arg(text: str | None) -> dict[str, Any]:
    if not text:
        return {}
    value = parse_json_text(text, "--options")
    if not isinstance(value, dict):
        raise InputError("--options: expected a JSON object such as '{\"deny_window\": \"always\"}'")
    return value


def _game_arg(game_id: str) -> str:
    return require_game(game_id).id


def _progress(enabled: bool) -> Callable[[int, int], None] | None:
    if not enabled:
        return None

    def show(done: int, total: int) -> None:
        sys.stderr.write(f"\r{done}/{total}")
        if done == total:
            sys.stderr.write("\n")
        sys.stderr.flush()
    return show


# -- commands ---------------------------------------------------------------

def cmd_games(args: argparse.Namespace) -> int:
    for game in rules.all_games():
        if args.json:
            print(json.dumps(game.describe(), sort_keys=True))
        else:
            print(f"{game.id:18} {game.name} ({game.min_players}-{game.max_players} players)")
    return 0


def _outcome_tally(paths: list[Path]) -> str:
    """"outcomes: 12 loss, 3 win (win rate 20.0%)": how the written games ended, the win rate for
    cooperative and solo games (where the table or the player wins or loses)."""
    tally: dict[str, int] = {}
    table_games = 0
    for path in paths:
        result = json.loads(path.read_text("utf-8")).get("result") or {}
        outcome = str(result.get("outcome", "none"))
        tally[outcome] = tally.get(outcome, 0) + 1
        table_games += result.get("kind") in ("cooperative", "solo")
    text = "outcomes: " + ", ".join(f"{n} {k}" for k, n in sorted(tally.items()))
    if table_games:
        text += f" (win rate {100 * tally.get('win', 0) / len(paths):.1f}%)"
    return text


def cmd_simulate(args: argparse.Namespace) -> int:
    from tts_builder.simulate import simulate

    game_id = _game_arg(args.game)
    jobs = _jobs_arg(args.jobs)
    out = _out_dir(args.out)
    sweep_stale_temp(out, recursive=False)  # what a killed run left
    paths = simulate(game_id, args.games, args.seed, out, policy=args.policy,
                     options=_options_arg(args.options), num_players=_players_arg(args.players),
                     progress=_progress(sys.stderr.isatty()), jobs=jobs)
    print(f"wrote {len(paths)} transcript(s) to {args.out}")
    print(_outcome_tally(paths))
    return 0


def _players_arg(players: int | None) -> int | None:
    if players is not None and players < 1:
        raise InputError(f"--players must be at least 1, not {players}")
    return players


def _jobs_arg(jobs: int | None) -> int:
    from tts_builder.parallel import check_jobs

    try:
        return check_jobs(jobs)
    except ValueError as exc:
        raise InputError(str(exc)) from None


def cmd_validate(args: argparse.Namespace) -> int:
    from tts_builder.validate import Report, batch_exit_code, batch_tally, validate_batch

    entries = validate_batch(args.files, lenient=args.lenient, players=_players_arg(args.players),
                             options=_options_arg(args.options) or None, jobs=_jobs_arg(args.jobs))
    if args.json:
        print(json.dumps([e.to_json() for e in entries], sort_keys=True))
    else:
        for entry in entries:
            if isinstance(entry, Report):
                print(entry.summary())
            else:
                print(f"tts-builder: {entry.error}", file=sys.stderr)
        if len(entries) > 1:
            print(batch_tally(entries))
    return batch_exit_code(entries)


def cmd_schema_check(args: argparse.Namespace) -> int:
    from tts_builder.savecheck import run_schema_check

    return run_schema_check(args.file, out=sys.stdout, as_json=args.json)


def cmd_check_lua(args: argparse.Namespace) -> int:
    from tts_builder.agreement import check_lua

    game_id = _game_arg(args.game)
    if args.games < 1:
        raise InputError(f"--games must be at least 1, not {args.games}")
    if args.mutants < 0:
        raise InputError(f"--mutants must be at least 0, not {args.mutants}")
    report = check_lua(game_id, args.games, args.seed, policy=args.policy, mutants_per_move=args.mutants,
                       progress=_progress(sys.stderr.isatty()), players=_players_arg(args.players),
                       options=_options_arg(args.options) if args.options is not None else None,
                       jobs=_jobs_arg(args.jobs))
    print(report.summary())
    return 0 if report.agree else 1


def cmd_build(args: argparse.Namespace) -> int:
    from tts_builder.build import build_command

    return build_command(args.games, all_games=args.all, out_root=_out_dir(args.out), base_url=args.base_url,
                         progress=sys.stderr.isatty(), lossless=args.lossless, force=args.force,
                         jobs=_jobs_arg(args.jobs))


def cmd_sheets(args: argparse.Namespace) -> int:
    from tts_builder import art

    game_id = _game_arg(args.game)
    command: Callable[[str, Path], int] | None = getattr(art, "render_sheets_command", None)
    if command is None:
        raise InputError("sheets: the art module has no render_sheets_command")
    out = _out_dir(args.out)
    sweep_stale_temp(out / game_id)  # what a killed run left
    return command(game_id, out)


def cmd_install(args: argparse.Namespace) -> int:
    from tts_builder.install import install_command

    game_id = _game_arg(args.game)
    return install_command(game_id, out_root=_out_dir(args.out),
                           tts_dir=_out_dir(args.tts_dir, "--tts-dir") if args.tts_dir else None)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="tts-builder", description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--version", action="version", version=f"tts-builder {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    p = sub.add_parser("games", help="list the registered games")
    p.add_argument("--json", action="store_true", help="one JSON object per game")
    p.set_defaults(func=cmd_games)

    p = sub.add_parser("simulate", help="play complete games with simulated players, one transcript each")
    p.add_argument("game")
    p.add_argument("--games", type=int, default=10, help="how many games (default 10)")
    p.add_argument("--seed", type=int, default=0, help="seed of the first game; game i uses seed+i")
    p.add_argument("--out", required=True, help="folder for the transcripts")
    p.add_argument("--policy", choices=rules.players.POLICIES, default="heuristic")
    p.add_argument("--options", help="game options as a JSON object")
    p.add_argument("--players", type=int, help="seat count (default: the game's for the options)")
    p.add_argument("--jobs", type=int, help="worker processes (default: the machine's cores); "
                   "the output is the same for any number")
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser("validate", help="replay transcripts (or TTS saves carrying one) through the rules")
    p.add_argument("files", nargs="+", metavar="FILE")
    p.add_argument("--json", action="store_true", help="one JSON document: a list with a report per file")
    p.add_argument("--lenient", action="store_true",
                   help="ignore move and result fields the game does not know (other tools' recorders)")
    p.add_argument("--players", type=int, help="require this seat count (a check: the transcript records its own)")
    p.add_argument("--options", help="require these option values, a JSON object (a check, not an override)")
    p.add_argument("--jobs", type=int, help="worker processes (default: the machine's cores); "
                   "the output is the same for any number")
    p.set_defaults(func=cmd_validate)

    p = sub.add_parser("schema-check", help="check a TTS save against the save schema and deck rules")
    p.add_argument("file", metavar="FILE")
    p.add_argument("--json", action="store_true", help="one JSON object with errors and warnings")
    p.set_defaults(func=cmd_schema_check)

    p = sub.add_parser("check-lua", help="prove the generated Lua rules agree with the Python engine")
    p.add_argument("game")
    p.add_argument("--games", type=int, default=100, help="simulated games (default 100)")
    p.add_argument("--seed", type=int, default=0, help="seed of the first game; game i uses seed+i")
    p.add_argument("--policy", choices=rules.players.POLICIES, default="mixed")
    p.add_argument("--mutants", type=int, default=3, help="illegal variants checked per move (default 3)")
    p.add_argument("--players", type=int,
                   help="seat count (default: every count the game declares, games split across them)")
    p.add_argument("--options", help="game options as a JSON object (default: every option value in turn)")
    p.add_argument("--jobs", type=int, help="worker processes (default: the machine's cores); "
                   "the output is the same for any number")
    p.set_defaults(func=cmd_check_lua)

    p = sub.add_parser("build", help="build the TTS mod (save, thumbnail, images) of one or more games")
    p.add_argument("games", nargs="*", metavar="GAME")
    p.add_argument("--all", action="store_true", help="every registered game")
    p.add_argument("--out", default="build", help="output folder (default build/); the mod goes to OUT/GAME/")
    p.add_argument("--base-url", metavar="URL",
                   help="image URLs become URL/GAME/images/FILE (default: file:/// paths, this computer only)")
    p.add_argument("--lossless", action="store_true",
                   help="write lossless PNGs (default: 256-colour palette PNGs, about a third of the bytes, "
                   "each at least 40 dB PSNR, else lossless)")
    p.add_argument("--force", action="store_true", help="build even when the output is up to date")
    p.add_argument("--jobs", type=int, help="worker processes, one game each (default: the machine's cores); "
                   "the output is the same for any number")
    p.set_defaults(func=cmd_build)

    p = sub.add_parser("sheets", help="render a game's card sheets and thumbnail only")
    p.add_argument("game")
    p.add_argument("--out", default="build", help="output folder (default build/); images go to OUT/GAME/images/")
    p.set_defaults(func=cmd_sheets)

    p = sub.add_parser("install", help="copy a built mod into Tabletop Simulator's Saves folder")
    p.add_argument("game")
    p.add_argument("--out", default="build", help="the folder the mod was built into (default build/)")
    p.add_argument("--tts-dir", metavar="DIR",
                   help="TTS's data folder, the one holding Saves/ (default: the platform's standard place)")
    p.set_defaults(func=cmd_install)
    return parser


def _stdout_to_devnull() -> None:
    """After a broken pipe: point stdout at the null device, so the interpreter's last
    flush has nowhere to fail (it would print "Exception ignored ... BrokenPipeError")."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError, AttributeError):  # stdout is not a real file (captured in tests)
        pass


def _one_line(message: str) -> str:
    """The message on one line: its lines (a lint's findings, a template error's context) joined by "; "."""
    return "; ".join(line.strip() for line in message.splitlines() if line.strip())


def main(argv: Sequence[str] | None = None) -> int:
    """Run one command; every failure the user can cause is one line on stderr and exit 2.

    A reader that stops early (``tts-builder validate ... | head``) ends the command
    quietly with exit 0: the output it wanted was delivered.
    """
    try:
        args = build_parser().parse_args(argv)
        code: int = args.func(args)
        sys.stdout.flush()  # a closed pipe shows here, not in the interpreter's exit
        return code
    except InputError as exc:
        print(f"tts-builder: {_one_line(str(exc))}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 130
    except WorkerDied as exc:  # not the input's fault, and neither "illegal" (1) nor bad input (2)
        print(f"tts-builder: {exc}", file=sys.stderr)
        return 3
    except BrokenPipeError:
        _stdout_to_devnull()
        return 0
    except RecursionError:  # the readers' depth limit stops this first; never a traceback
        print(f"tts-builder: input nested too deep (the limit is {MAX_JSON_DEPTH} levels)", file=sys.stderr)
        return 2
    except MemoryError:
        print("tts-builder: out of memory: the input is too large", file=sys.stderr)
        return 2
    except OSError as exc:  # a file the command had to write or read failed: name it
        where = f"{exc.filename}: " if exc.filename else ""
        print(f"tts-builder: {where}{exc.strerror or exc}", file=sys.stderr)
        return 2



