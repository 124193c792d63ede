"""``tts-builder build`` per CPU-second, against the build goals of issue 12.

    python benchmarks/bench_build.py [--rounds N] [--games G ...] [--against GIT_REF] [--no-jobs]

Each round, per game, in a fresh interpreter each (the command as a user runs it,
``python -m tts_builder build GAME --out DIR --jobs 1``), measured in CPU-seconds of that
process (user + system, from ``os.wait4``: the neighbours on a shared machine do not count):

* ``cold``: into an empty folder;
* ``no-op``: the same command again (nothing changed);

and in this process (with the allocator settings a build runs with:
:func:`tts_builder.allocator.keep_freed_memory`), on the images that cold build wrote (decoded first):

* ``encode``: the bare encode of its final images as the build encodes them
  (:func:`tts_builder.art.pipeline.encode_png`: palette PNGs), and ``encode-lossless``
  (the lossless PNG encode, the floor as issue 12 first measured it);
* the images' bytes against a ``--lossless`` build of the same game, and their lowest PSNR;
* where a cold build's CPU goes (one more cold build per game, in this process, its steps timed):
  drawing the cards, scaling them to their cells (from the art's 300 dpi: bicubic, Lanczos
  with ``--lossless``), the picture cache, composing sheets, encoding, the save and its check; and the ratio a build could reach
  if everything but the encode and the card scaling took no time at all (the floor of the
  cold / encode goal while the cards are drawn at 300 dpi and scaled as today).

The commands run as on a user's machine: with their modules' bytecode cached (``.pyc`` files,
in the benchmark's own folder through ``PYTHONPYCACHEPREFIX``, written by one warm-up build of
the games in each tree before the rounds), even where the environment sets ``PYTHONDONTWRITEBYTECODE`` (this
project's sandbox does: every command then compiled its ~50 modules from source, 0.1 to 0.3 s
that no installed tool spends).

Rounds are interleaved (every game, then the next round) and each figure is the median.
With ``--against REF`` the tree at git ``REF`` (``git archive``) is measured in the same
rounds (cold and no-op), for the speed-up. ``--jobs`` is measured in wall time (the only
time it can save): ``build --jobs 1`` against ``--jobs 2`` over the games, cold.

Goals (issue 12): no-op <= 5% of cold; cold <= 2.5x the bare encode of the final images;
images <= 50% of the lossless bytes with PSNR >= 40 dB; ``--jobs`` less wall time.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from gitref import export_tree

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(ROOT))

NOOP_GOAL = 0.05
COLD_GOAL = 2.5
BYTES_GOAL = 0.50
PSNR_GOAL = 40.0
DEFAULT_GAMES = ("two-and-two", "twin-tower-city")


#: where the commands' bytecode is cached (set by :func:`main`: a folder of the benchmark's own)
PYCACHE: Path | None = None


def run_cpu(argv: list[str], tree: Path | None = None) -> tuple[float, float, str]:
    """Run ``python -m tts_builder ARGV`` (from ``tree`` when given); (CPU seconds, wall seconds, stdout)."""
    env = dict(os.environ)
    if PYCACHE is not None:  # the modules' .pyc files kept, as an installed tool has them
        env.pop("PYTHONDONTWRITEBYTECODE", None)
        env["PYTHONPYCACHEPREFIX"] = str(PYCACHE)
    if tree is not None:
        env["PYTHONPATH"] = str(tree)
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "tts_builder", *argv], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, env=env, cwd=tree or ROOT)
    assert proc.stdout is not None
    out = proc.stdout.read().decode("utf-8", "replace")
    _pid, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        raise SystemExit(f"bench_build: {' '.join(argv)} exited {proc.returncode}")
    return usage.ru_utime + usage.ru_stime, wall, out


def final_images(game_dir: Path) -> list[Path]:
    """The images a build wrote: the save's images and the thumbnail."""
    return sorted((game_dir / "images").glob("*.png")) + [game_dir / f"{game_dir.name}.png"]


def encode_seconds(paths: list[Path]) -> tuple[float, float]:
    """CPU seconds to encode the decoded ``paths`` as the build does, and losslessly."""
    from PIL import Image

    from tts_builder.art import pipeline
    from tts_builder.art.pipeline import encode_png
    from tts_builder.art.render import png_bytes
    pictures = []
    for path in paths:
        with Image.open(path) as img:
            pictures.append(img.convert("RGB") if img.mode == "P" else img.copy())
    # each image encoded, every round: encode_png remembers small pictures it encoded in this process
    small, pipeline.SMALL_IMAGE_PX = pipeline.SMALL_IMAGE_PX, -1
    try:
        start = time.process_time()
        for picture in pictures:
            encode_png(picture)
        palette = time.process_time() - start
    finally:
        pipeline.SMALL_IMAGE_PX = small
    start = time.process_time()
    for picture in pictures:
        png_bytes(picture)
    return palette, time.process_time() - start


def quality(palette_dir: Path, lossless_dir: Path) -> tuple[int, int, float]:
    """(palette bytes, lossless bytes, lowest PSNR) over the final images."""
    from PIL import Image

    from tts_builder.art.pipeline import psnr
    worst = float("inf")
    for p, q in zip(final_images(palette_dir), final_images(lossless_dir)):
        with Image.open(p) as a, Image.open(q) as b:
            worst = min(worst, psnr(b, a))
    return (sum(p.stat().st_size for p in final_images(palette_dir)),
            sum(p.stat().st_size for p in final_images(lossless_dir)), worst)


#: (module, function, step) wrapped by :func:`cold_steps`; the steps are disjoint
STEPS = (
    ("tts_builder.art.cache", "resolve_card", "resolve templates"),
    ("tts_builder.art.cache", "draw_resolved", "draw cards (300 dpi, cut box)"),
    ("tts_builder.art.cache", "scale_to", "scale to cells"),
    ("tts_builder.art.cache", "_tga_bytes", "picture cache writes"),
    ("tts_builder.art.pipeline", "compose_sheet", "compose sheets"),
    ("tts_builder.art.pipeline", "encode_png", "encode (art)"),
    ("tts_builder.build", "encode_png", "encode (mat, kit)"),
    ("tts_builder.build", "render_mat", "draw the mat"),
    ("tts_builder.build", "assemble", "save + Lua"),
    ("tts_builder.build", "_check_against", "check the save"),
)


def cold_steps(game: str, folder: Path) -> tuple[float, dict[str, float]]:
    """One cold ``build_game`` in this process: its CPU seconds and each step's (:data:`STEPS`)."""
    import functools
    import importlib

    from tts_builder.build import build_game
    spent: dict[str, float] = {step: 0.0 for _m, _f, step in STEPS}
    undo = []
    for module_name, name, step in STEPS:
        module = importlib.import_module(module_name)
        original = getattr(module, name)

        def timed(*args: object, _f: object = original, _step: str = step, **kwargs: object) -> object:
            start = time.process_time()
            try:
                return _f(*args, **kwargs)  # type: ignore[operator]
            finally:
                spent[_step] += time.process_time() - start

        setattr(module, name, functools.wraps(original)(timed))
        undo.append((module, name, original))
    try:
        start = time.process_time()
        build_game(game, folder, jobs=1)
        return time.process_time() - start, spent
    finally:
        for module, name, original in undo:
            setattr(module, name, original)


def met(ok: bool) -> str:
    return "met" if ok else "NOT met"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--games", nargs="+", default=list(DEFAULT_GAMES))
    parser.add_argument("--against", metavar="GIT_REF", help="also measure the tree at this git ref")
    parser.add_argument("--no-jobs", action="store_true", help="skip the --jobs wall-time figure")
    args = parser.parse_args(argv)
    from tts_builder.allocator import keep_freed_memory
    keep_freed_memory()  # the bare encode (in this process) under the allocator settings a build runs with
    global PYCACHE
    work = Path(tempfile.mkdtemp(prefix="bench-build-"))
    PYCACHE = work / "pycache"
    try:
        old = export_tree(args.against, work) if args.against else None
        for tree in (None, old) if old is not None else (None,):  # warm-up: writes the .pyc files
            run_cpu(["build", *args.games, "--out", str(work / "warm-up")], tree)
            shutil.rmtree(work / "warm-up", ignore_errors=True)
        cold: dict[str, list[float]] = {g: [] for g in args.games}
        noop: dict[str, list[float]] = {g: [] for g in args.games}
        old_cold: dict[str, list[float]] = {g: [] for g in args.games}
        old_noop: dict[str, list[float]] = {g: [] for g in args.games}
        enc: dict[str, list[float]] = {g: [] for g in args.games}
        enc_lossless: dict[str, list[float]] = {g: [] for g in args.games}
        for r in range(args.rounds):
            for game in args.games:
                out = work / f"new-{r}"
                c, _, _ = run_cpu(["build", game, "--out", str(out), "--jobs", "1"])
                n, _, text = run_cpu(["build", game, "--out", str(out), "--jobs", "1"])
                assert "up to date" in text, text
                cold[game].append(c)
                noop[game].append(n)
                palette, lossless = encode_seconds(final_images(out / game))
                enc[game].append(palette)
                enc_lossless[game].append(lossless)
                if old is not None:
                    out = work / f"old-{r}"
                    oc, _, _ = run_cpu(["build", game, "--out", str(out)], old)
                    on, _, _ = run_cpu(["build", game, "--out", str(out)], old)
                    old_cold[game].append(oc)
                    old_noop[game].append(on)
                print(f"round {r + 1}/{args.rounds} {game}: cold {c:.2f} s, no-op {n:.3f} s", file=sys.stderr)
        for game in args.games:
            run_cpu(["build", game, "--out", str(work / "lossless"), "--lossless", "--jobs", "1"])
        med = statistics.median
        print(f"tts-builder build, CPU-seconds per run (median of {args.rounds} interleaved rounds)")
        all_met = True
        for game in args.games:
            c, n, e, el = med(cold[game]), med(noop[game]), med(enc[game]), med(enc_lossless[game])
            small, big, worst = quality(work / "new-0" / game, work / "lossless" / game)
            print(f"\n{game}:")
            print(f"  cold build           {c:7.3f} s" + (f"   (at {args.against}: {med(old_cold[game]):.3f} s, "
                                                          f"{med(old_cold[game]) / c:.2f}x faster now)" if old else ""))
            print(f"  no-op rebuild        {n:7.3f} s" + (f"   (at {args.against}: {med(old_noop[game]):.3f} s)"
                                                          if old else ""))
            print(f"  bare encode          {e:7.3f} s palette as built, {el:.3f} s lossless")
            goals = [
                (f"no-op <= {NOOP_GOAL:.0%} of cold", f"{n / c:.1%}", n / c <= NOOP_GOAL),
                (f"cold <= {COLD_GOAL}x bare encode (palette, as built)", f"{c / e:.2f}x", c / e <= COLD_GOAL),
                (f"cold <= {COLD_GOAL}x bare encode (lossless floor)", f"{c / el:.2f}x", c / el <= COLD_GOAL),
                (f"images <= {BYTES_GOAL:.0%} of lossless bytes", f"{small / big:.1%} ({small // 1024} of "
                 f"{big // 1024} KB)", small / big <= BYTES_GOAL),
                (f"lowest PSNR >= {PSNR_GOAL:g} dB", f"{worst:.1f} dB", worst >= PSNR_GOAL),
            ]
            for goal, figure, ok in goals:
                all_met &= ok
                print(f"  goal: {goal:48s} {figure:>24s}  {met(ok)}")
            total, spent = cold_steps(game, work / "steps")
            print(f"  where a cold build's CPU goes (one build_game in this process, modules already imported: "
                  f"{total:.3f} s; the command's median adds {max(0.0, c - total):.3f} s of start-up, imports "
                  f"and the machine's noise):")
            for step, seconds in spent.items():
                print(f"    {step:28s} {seconds:7.3f} s  {seconds / total:6.1%}")
            scale = spent["scale to cells"]
            print(f"  floor: bare encode + scaling the cards alone would be {(e + scale) / e:.2f}x the bare encode")
        if not args.no_jobs and len(args.games) > 1:
            walls = {1: [], 2: []}  # type: dict[int, list[float]]
            for r in range(args.rounds):
                for jobs in (1, 2):
                    out = work / f"jobs-{jobs}-{r}"
                    shutil.rmtree(out, ignore_errors=True)
                    _, wall, _ = run_cpu(["build", *args.games, "--out", str(out), "--jobs", str(jobs)])
                    walls[jobs].append(wall)
            one, two = med(walls[1]), med(walls[2])
            print(f"\n--jobs (wall seconds, cold, {len(args.games)} games; the machine's other load counts here)")
            print(f"  goal: --jobs 2 less wall time than --jobs 1    {two:.2f} s vs {one:.2f} s  {met(two < one)}")
            all_met &= two < one
        print(f"\nevery goal met: {'yes' if all_met else 'no'}")
        return 0
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    raise SystemExit(main())
