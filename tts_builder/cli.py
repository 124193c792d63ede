"""The tts-builder command line.

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
from tts_builder.config import apply_config, setting_label
from tts_builder.errors import InputError, require_game
from tts_builder.fileio import MAX_JSON_DEPTH, parse_json_text, sweep_stale_temp
from tts_builder.parallel import WorkerDied
from tts_builder.progress import Progress, progress_mode
from tts_builder.stamp import add_build_arguments


#: what ``tts-builder --help`` says the tool is, in plain words
DESCRIPTION = ("Build Tabletop Simulator mods from board-game rules and data,\n"
               "and simulate, validate, show and replay recorded games.")


class UsageError(InputError):
    """A command line argparse refused, already naming the program and the subcommand
    (``tts-builder print: unrecognized arguments: -q``): printed as it is, exit 2."""


class _Parser(argparse.ArgumentParser):
    """One-line errors, and no abbreviated options: ``--out`` must not be guessed from
    ``--o``, and a new option must not silently change what an old abbreviation meant."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("allow_abbrev", False)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:  # argparse's default prints usage; keep one line
        raise UsageError(f"{self.prog}: {message}")

    def parse_args(self, args: Sequence[str] | None = None,  # type: ignore[override]
                   namespace: argparse.Namespace | None = None) -> argparse.Namespace:
        """As argparse's, but arguments no command takes are blamed on the subcommand given
        (argparse reports them from the top-level parser, without naming it)."""
        parsed, extras = self.parse_known_args(args, namespace)
        if extras:
            command = getattr(parsed, "command", None)
            prog = f"{self.prog} {command}" if command else self.prog
            raise UsageError(f"{prog}: unrecognized arguments: {' '.join(extras)}")
        return parsed


class _TopParser(_Parser):
    """The ``tts-builder`` parser. Its epilog names every game with its seat counts, which
    imports every game's engine: made only when the help is shown, not for every command."""

    def format_help(self) -> str:
        if self.epilog is None:
            from tts_builder.clihelp import epilog

            self.epilog = epilog()
        return super().format_help()


def _out_dir(value: str, option: str = "--out") -> Path:
    """``--out DIR`` as a Path, refused when it, or a folder above it, is not a folder (a file,
    a FIFO, a device). ``option`` names where the value came from: the flag, or the settings
    file and key (:func:`tts_builder.config.setting_label`)."""
    path = Path(value)
    _require_folders(path, (path, *path.parents), value, option)
    return path


def _out_file(value: str, option: str = "--out") -> Path:
    """``--out FILE`` as a Path, refused when it names a folder, a FIFO or a device (a write would
    replace it), or when a folder above it is not a folder."""
    from tts_builder.fileio import require_writable_target

    path = Path(value)
    require_writable_target(path, f"{option} {value}")
    _require_folders(path, path.parents, value, option)
    return path


def _require_folders(path: Path, places: Sequence[Path], value: str, option: str) -> None:
    """InputError when the nearest of ``places`` that exists is not a folder."""
    for place in places:
        if place.exists():
            if not place.is_dir():
                what = "names" if place == path else f"is inside {place}, which is"
                kind = "a file" if place.is_file() else "a device, FIFO or socket"
                raise InputError(f"{option} {value}: {what} {kind}, not a folder")
            break


def _setting_out(args: argparse.Namespace) -> Path:
    """The build folder (``--out``, the settings file's ``out`` or ``build``), checked."""
    return _out_dir(args.out, setting_label(args, "out", "--out"))


def _setting_base_url(args: argparse.Namespace) -> str | None:
    """``--base-url`` (or the settings file's ``base_url``), checked, the error naming its source."""
    from tts_builder.build import check_base_url

    if args.base_url is None:
        return None
    label = setting_label(args, "base_url", "--base-url")
    try:
        check_base_url(args.base_url)
    except InputError:
        raise InputError(f"{label}: expected an http:// or https:// URL, not {args.base_url!r}") from None
    return str(args.base_url)


def _setting_tts_dir(args: argparse.Namespace) -> Path | None:
    """``--tts-dir`` (or the settings file's ``tts_dir``): an existing folder, the error naming its source."""
    if not args.tts_dir:
        return None
    label = setting_label(args, "tts_dir", "--tts-dir")
    path = _out_dir(args.tts_dir, label)
    if not path.is_dir():
        raise InputError(f"{label} {args.tts_dir}: no such folder")
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


def _add_quiet(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--quiet", "-q", action="store_true",
                        help="no progress on stderr (results on stdout are the same)")


# -- commands ---------------------------------------------------------------

def cmd_games(args: argparse.Namespace) -> int:
    from tts_builder.clihelp import games_command

    return games_command(args.game, options=args.options, as_json=args.json)


def cmd_new(args: argparse.Namespace) -> int:
    from tts_builder.scaffold import new_game

    written = new_game(Path(args.root), args.game, like=args.like, players=args.players)
    print(f"{args.game}: wrote {len(written)} files ({', '.join(written)}); next: tts-builder build {args.game}, "
          f"then change the rules (docs/authoring.md)")
    return 0


def cmd_help(args: argparse.Namespace) -> int:
    if args.game is None:
        build_parser().print_help()
        return 0
    return cmd_games(argparse.Namespace(game=args.game, options=True, json=False))


def cmd_print(args: argparse.Namespace) -> int:
    from tts_builder.printplay import print_command

    game_id = _game_arg(args.game)
    out = _setting_out(args)
    sweep_stale_temp(out / game_id)  # what a killed run left
    return print_command(game_id, out, args.paper, backs=not args.no_backs, as_json=args.json, kit=args.kit,
                         progress=progress_mode(args.quiet))


def cmd_completion(args: argparse.Namespace) -> int:
    from tts_builder.clihelp import completion_script

    print(completion_script(build_parser(), args.shell), end="")
    return 0


def cmd_simulate(args: argparse.Namespace) -> int:
    from tts_builder.report import report_from_records
    from tts_builder.simulate import check_seed, is_run_file, simulate_run

    game_id = _game_arg(args.game)
    check_seed(args.seed)  # before the folder is made
    jobs = _jobs_arg(args.jobs)
    run_file = is_run_file(Path(args.out))
    if run_file and args.no_transcripts:
        raise InputError(f"--no-transcripts: --out names the folder for the report (report.json, report.svg, "
                         f"report.png), not a run file ({args.out})")
    out = _out_file(args.out) if run_file else _out_dir(args.out)
    sweep_stale_temp(out.parent if run_file else out, recursive=False)  # what a killed run left
    with Progress("simulate", args.games, "games", mode=progress_mode(args.quiet)) as shown:
        records, _ = simulate_run(game_id, args.games, args.seed, None if args.no_transcripts else out,
                                  policy=args.policy, swap=args.swap, vary=args.vary,
                                  options=_options_arg(args.options), num_players=_players_arg(args.players),
                                  progress=shown.callback(), jobs=jobs, scheduler=_scheduler_arg(args.scheduler),
                                  append=args.append)
    report = report_from_records(records)
    if args.no_transcripts:
        from tts_builder.fileio import atomic_write_json

        atomic_write_json(out / "report.json", report)
        heading = f"played {len(records)} games; wrote the report to {out / 'report.json'} (no transcripts kept)"
    elif run_file:
        heading = f"wrote {len(records)} transcript(s) to {args.out}"
    else:
        heading = f"wrote {len(records)} transcript(s) to {args.out}" + (
            " beside the earlier ones (`tts-builder report` of the folder: a table per run)" if args.append else "")
    chart = (out.parent, out.stem) if run_file else (out, "report")
    return _print_report_of(report, as_json=args.json, chart=chart, heading=heading)


def _print_report(items: Sequence[str | Path], *, as_json: bool, chart: Path | None, heading: str = "") -> int:
    """The report over the transcripts ``items`` on stdout (one JSON object with ``as_json``),
    its chart written into ``chart``."""
    from tts_builder.report import build_report, iter_transcripts

    report = build_report(iter_transcripts(items))
    return _print_report_of(report, as_json=as_json, chart=(chart, "report") if chart is not None else None,
                            heading=heading)


def _print_report_of(report: dict[str, Any], *, as_json: bool, chart: tuple[Path, str] | None,
                     heading: str = "") -> int:
    """``report`` on stdout (one JSON object with ``as_json``), its chart written as
    ``chart`` = (folder, stem)."""
    from tts_builder.report import report_text, write_charts

    charts = write_charts(report, *chart) if chart is not None else []
    if as_json:
        print(json.dumps(report, sort_keys=True))
        return 0
    if heading:
        print(heading)
    print(report_text(report))
    if charts:
        print("chart: " + ", ".join(str(p) for p in charts))
    return 0


def cmd_report(args: argparse.Namespace) -> int:
    return _print_report(args.paths, as_json=args.json,
                         chart=_out_dir(args.chart, "--chart") if args.chart else None)


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
    from tts_builder.sources import is_collection
    from tts_builder.validate import Report, Tally, iter_validate

    scheduler = _scheduler_arg(args.scheduler)
    players, options = _players_arg(args.players), _options_arg(args.options) or None
    _check_validate_settings(args.files, options, players)
    entries = iter_validate(args.files, lenient=args.lenient, players=players, options=options,
                            jobs=_jobs_arg(args.jobs), scheduler=scheduler)
    tally = Tally()
    entries_seen = 0
    # streamed: a million transcripts print as they are judged, in order, in constant memory;
    # a folder, zip or pattern has no count known beforehand (the progress line counts up)
    known = 0 if any(is_collection(f) for f in args.files) else len(args.files)
    with Progress("validate", known, "files", mode=progress_mode(args.quiet)) as shown:
        for entry in entries:
            tally.add(entry)
            entries_seen += 1
            if args.json:  # byte for byte json.dumps of the whole list
                sys.stdout.write(("[" if entries_seen == 1 else ", ") + json.dumps(entry.to_json(), sort_keys=True))
            elif isinstance(entry, Report):
                shown.echo(entry.summary())
            else:
                shown.echo(f"tts-builder: {entry.error}", file=sys.stderr)
            shown.update(tally.files)
    if args.json:
        sys.stdout.write("]\n" if entries_seen else "[]\n")
    elif tally.files > 1 or (tally.files and any(is_collection(f) for f in args.files)):
        print(tally)
    return tally.exit_code


def _check_validate_settings(files: Sequence[str], options: dict[str, Any] | None, players: int | None) -> None:
    """``validate --options/--players``, a usage error (one line, exit 2) before any verdict when
    no game has them or the batch's game (its first transcript's) does not."""
    if not options and players is None:
        return
    from tts_builder.config import check_any_game_settings, check_game_settings
    from tts_builder.validate import batch_game

    game_id = batch_game(files)
    if game_id in rules.game_ids():
        check_game_settings(rules.get_game(game_id), options, players)
    else:  # the files will say what is wrong with them; the flags must still fit some game
        check_any_game_settings(options, players)


def _scheduler_arg(address: str | None) -> str | None:
    from tts_builder.parallel import check_scheduler

    return check_scheduler(address)


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
    from tts_builder.simulate import check_seed

    check_seed(args.seed)
    players = _players_arg(args.players)
    options = _options_arg(args.options) if args.options is not None else None
    from tts_builder.config import check_game_settings

    check_game_settings(require_game(game_id), options, players, deal=False)  # the typo named, as simulate does
    jobs = _jobs_arg(args.jobs)
    scheduler = _scheduler_arg(args.scheduler)
    with Progress("check-lua", args.games, "games", mode=progress_mode(args.quiet)) as shown:
        report = check_lua(game_id, args.games, args.seed, policy=args.policy, mutants_per_move=args.mutants,
                           progress=shown.callback(), players=players, options=options, jobs=jobs,
                           scheduler=scheduler)
    print(report.summary())
    return 0 if report.agree else 1


def cmd_build(args: argparse.Namespace) -> int:
    from tts_builder.build import build_command

    if args.push and not args.watch:
        raise InputError("build: --push goes with --watch (after a single build, run `tts-builder push GAME`)")
    if args.watch:
        from tts_builder.watch import watch_command

        if args.all and args.games:
            raise InputError("build: give game ids or --all, not both")
        games = rules.game_ids() if args.all else [_game_arg(g) for g in dict.fromkeys(args.games)]
        base_url = _setting_base_url(args)
        return watch_command(games, out_root=_setting_out(args), base_url=base_url, push=args.push,
                             all_games=args.all, lossless=args.lossless)

    out_root = _setting_out(args)
    return build_command(args.games, all_games=args.all, out_root=out_root, base_url=_setting_base_url(args),
                         progress=progress_mode(args.quiet), lossless=args.lossless, force=args.force,
                         jobs=_jobs_arg(args.jobs))


def cmd_sheets(args: argparse.Namespace) -> int:
    from tts_builder import art

    game_id = _game_arg(args.game)
    command: Callable[[str, Path], int] | None = getattr(art, "render_sheets_command", None)
    if command is None:
        raise InputError("sheets: the art module has no render_sheets_command")
    out = _setting_out(args)
    sweep_stale_temp(out / game_id)  # what a killed run left
    return command(game_id, out)


def cmd_install(args: argparse.Namespace) -> int:
    from tts_builder.install import install_command

    game_id = _game_arg(args.game)
    if args.replace and args.saved_object:
        raise InputError("install: --replace and --saved-object do not go together (a saved object is always "
                         "replaced in place)")
    return install_command(game_id, out_root=_setting_out(args), tts_dir=_setting_tts_dir(args),
                           replace=args.replace, as_saved_object=args.saved_object)


def cmd_push(args: argparse.Namespace) -> int:
    from tts_builder.push import push_command

    return push_command(_game_arg(args.game), out_root=Path(args.out), port=args.port,
                        editor_port=args.editor_port, force=args.force)


def _trace_arg(address: str, lenient: bool) -> Any:
    """The trace of the one recorded game ``address`` names: a file, an archive's member or a run
    file's line (``run.zip:run.jsonl:17``, as validate names it)."""
    from tts_builder.fileio import parse_json_bytes
    from tts_builder.replay import trace_data
    from tts_builder.sources import read_address

    raw, name = read_address(address)
    return trace_data(parse_json_bytes(raw, name), name, lenient=lenient)


def cmd_show(args: argparse.Namespace) -> int:
    from tts_builder.replay import show_json, show_text

    trace = _trace_arg(args.file, args.lenient)
    if args.json:
        print(json.dumps(show_json(trace, args.at), sort_keys=True))
    else:
        print(show_text(trace, args.at))
    return 0 if trace.report.legal else 1


def cmd_replay(args: argparse.Namespace) -> int:
    from tts_builder.fileio import atomic_write_text
    from tts_builder.replay import replay_html

    out = _out_file(args.out)  # a folder, FIFO or device is not replaced by the page
    trace = _trace_arg(args.file, args.lenient)
    atomic_write_text(out, replay_html(trace))
    print(f"wrote {args.out}: {trace.summary()}")
    return 0 if trace.report.legal else 1  # the page is written either way; exit 1 as show and validate


def build_parser() -> argparse.ArgumentParser:
    from tts_builder.clihelp import SHELLS

    parser = _TopParser(prog="tts-builder", description=DESCRIPTION,
                        formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--version", action="version", version=f"tts-builder {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    p = sub.add_parser("new", help="write a new, complete, minimal game into this checkout (docs/authoring.md)")
    p.add_argument("game", metavar="GAME", help="the new game's id: lowercase words joined by '-' (drop-four)")
    p.add_argument("--like", default="board", help="board (discs on a board), tiles (square tiles) or cards (a deck, hands and a pile)")
    p.add_argument("--players", default="2", metavar="N-M", help="the seat counts, N or N-M (2 to 4)")
    p.add_argument("--root", default=".", metavar="DIR", help="the checkout to write into (default: here)")
    p.set_defaults(func=cmd_new)

    p = sub.add_parser("games", help="list the registered games")
    p.add_argument("game", nargs="?", metavar="GAME", help="one game, with its options")
    p.add_argument("--json", action="store_true", help="one JSON object per game")
    p.add_argument("--options", action="store_true",
                   help="each game's options (defaults, allowed values) and seat counts")
    p.set_defaults(func=cmd_games)

    p = sub.add_parser("help", help="this help, or a game's options and seat counts")
    p.add_argument("game", nargs="?", metavar="GAME")
    p.set_defaults(func=cmd_help)

    p = sub.add_parser("simulate", help="play complete games with simulated players, one transcript each")
    p.add_argument("game")
    p.add_argument("--games", type=int, default=10, help="how many games (default 10)")
    p.add_argument("--seed", type=int, default=0, help="seed of the first game; game i uses seed+i")
    p.add_argument("--out", required=True, metavar="DIR|RUN.zip|RUN.jsonl",
                   help="a folder for the transcripts (one file each), or one run file for them all: RUN.zip "
                   "(compressed) or RUN.jsonl (JSON Lines); validate, report and show read either")
    p.add_argument("--append", action="store_true",
                   help="add this run's transcripts to a folder that holds earlier ones (refused otherwise)")
    p.add_argument("--no-transcripts", action="store_true",
                   help="keep only the report: report.json and its chart in the --out folder")
    p.add_argument("--policy", default="heuristic", metavar="POLICY[,POLICY...]",
                   help="random, heuristic or mixed (seat 0 heuristic, the others random) for every seat, "
                   "or one of random/heuristic per seat: heuristic,random (default heuristic)")
    p.add_argument("--swap", action="store_true",
                   help="play each seed once per rotation of the seats' policies, so each policy plays "
                   "each seat on the same deal")
    p.add_argument("--vary", metavar="OPTION",
                   help="play each seed once per value of this game option (e.g. seat0_side, the side "
                   "seat 0 plays), so a seat's own advantage cancels out of the side win rates")
    p.add_argument("--options", help="game options as a JSON object")
    p.add_argument("--players", type=int, help="seat count (default: the game's for the options)")
    p.add_argument("--jobs", type=int, help="worker processes (default: the machine's cores); "
                   "the output is the same for any number")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="run on the Dask cluster at ADDRESS (tcp://host:8786) instead of local processes; "
                   "the output is the same")
    _add_quiet(p)
    p.add_argument("--json", action="store_true", help="the report as one JSON object on stdout")
    p.set_defaults(func=cmd_simulate)

    p = sub.add_parser("report", help="the simulation report (win rates, lengths, end reasons) over transcripts")
    p.add_argument("paths", nargs="+", metavar="PATH", help="transcript files or folders of them")
    p.add_argument("--json", action="store_true", help="the report as one JSON object on stdout")
    p.add_argument("--chart", metavar="DIR", help="write report.svg and report.png into this folder")
    p.set_defaults(func=cmd_report)

    p = sub.add_parser("validate", help="replay transcripts (or TTS saves carrying one) through the rules")
    p.add_argument("files", nargs="+", metavar="FILE",
                   help="a transcript, a TTS save carrying one, a folder of them, a .zip of them, or a glob pattern")
    p.add_argument("--json", action="store_true", help="one JSON document: a list with a report per file")
    p.add_argument("--lenient", action="store_true",
                   help="ignore move and result fields the game does not know (other tools' recorders)")
    p.add_argument("--players", type=int, help="require this seat count (a check: the transcript records its own)")
    p.add_argument("--options", help="require these option values, a JSON object (a check, not an override)")
    p.add_argument("--jobs", type=int, help="worker processes (default: the machine's cores); "
                   "the output is the same for any number")
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="run on the Dask cluster at ADDRESS (tcp://host:8786) instead of local processes; "
                   "the output is the same")
    _add_quiet(p)
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
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="run on the Dask cluster at ADDRESS (tcp://host:8786) instead of local processes; "
                   "the output is the same")
    _add_quiet(p)
    p.set_defaults(func=cmd_check_lua)

    p = sub.add_parser("build", help="build the TTS mod (save, thumbnail, images) of one or more games")
    add_build_arguments(p)  # defined once, with the fast path's no-op check (tts_builder.stamp)
    p.set_defaults(func=cmd_build)

    p = sub.add_parser("sheets", help="render a game's card sheets and thumbnail only")
    p.add_argument("game")
    p.add_argument("--out", help="output folder (default build/); images go to OUT/GAME/images/")
    p.set_defaults(func=cmd_sheets)

    p = sub.add_parser("install", help="copy a built mod into Tabletop Simulator's Saves folder")
    p.add_argument("game")
    p.add_argument("--out", help="the folder the mod was built into (default build/)")
    p.add_argument("--tts-dir", metavar="DIR",
                   help="TTS's data folder, the one holding Saves/ (default: the platform's standard place)")
    p.add_argument("--replace", action="store_true",
                   help="overwrite the save slot of this game's earlier install instead of taking a new TS_Save_N")
    p.add_argument("--saved-object", action="store_true",
                   help="install the game's components as one bag in Saves/Saved Objects/ (without the rules script)")
    p.set_defaults(func=cmd_install)

    p = sub.add_parser("print", help="print-and-play: a PDF of every card at size with crop marks, a PNG per card")
    p.add_argument("game")
    p.add_argument("--paper", choices=("a4", "letter"), default="a4", help="paper size (default a4)")
    p.add_argument("--out", help="the build folder (default build/); files go to OUT/GAME/print/")
    p.add_argument("--no-backs", action="store_true", help="fronts only (default: each page's backs follow it)")
    p.add_argument("--kit", choices=("table", "fit"), default="table",
                   help="the boards and pieces at the table's scale, a large board in tiles (default), "
                        "or shrunk together so that each board fits a page")
    p.add_argument("--json", action="store_true", help="one JSON object: the files, pages and counts")
    p.add_argument("--quiet", "-q", action="store_true", help="no progress on stderr (results on stdout are the same)")
    p.set_defaults(func=cmd_print)

    p = sub.add_parser("completion", help="print a shell completion script (bash, zsh or tcsh)")
    p.add_argument("shell", choices=SHELLS)
    p.set_defaults(func=cmd_completion)

    p = sub.add_parser("push", help="send a built game's Lua and XmlUI to a running TTS (Save & Play, no new save)")
    p.add_argument("game")
    p.add_argument("--out", help="the folder the mod was built into (default build/)")
    p.add_argument("--port", type=int, default=39999, help="TTS's External Editor API port (default 39999)")
    p.add_argument("--editor-port", type=int, default=39998,
                   help="where TTS answers, to tell which game it runs (default 39998)")
    p.add_argument("--force", action="store_true",
                   help="push without checking that TTS runs this game's mod")
    p.set_defaults(func=cmd_push)

    p = sub.add_parser("show", help="a recorded game in words: the moves, a position, an illegal move's context")
    p.add_argument("file", metavar="FILE", help="a transcript, or a TTS save carrying one")
    p.add_argument("--at", type=int, metavar="N",
                   help="the position after move N (0: the start; default: the end, or where an illegal move was judged)")
    p.add_argument("--json", action="store_true", help="one JSON object: moves, verdicts, the position, the report")
    p.add_argument("--lenient", action="store_true", help="ignore move and result fields the game does not know, as validate does")
    p.set_defaults(func=cmd_show)

    p = sub.add_parser("replay", help="write one self-contained web page that steps through a recorded game")
    p.add_argument("file", metavar="FILE", help="a transcript, or a TTS save carrying one")
    p.add_argument("--out", required=True, metavar="PAGE.html", help="the page to write")
    p.add_argument("--lenient", action="store_true", help="ignore move and result fields the game does not know, as validate does")
    p.set_defaults(func=cmd_replay)
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
        apply_config(args)  # settings file: fills what the command line left off
        code: int = args.func(args)
        sys.stdout.flush()  # a closed pipe shows here, not in the interpreter's exit
        return code
    except UsageError as exc:  # names the program (and subcommand) itself
        print(_one_line(str(exc)), file=sys.stderr)
        return 2
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



