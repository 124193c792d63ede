"""Issue 12's build work: the stamp (a no-op rebuild says "up to date" before the heavy imports),
palette PNGs with their PSNR, ``--lossless`` (today's encoder), ``--jobs`` across games.

One palette build and one lossless build of Two & Two serve the module; the tests that change
an input or an output work on copies. Speed itself is ``benchmarks/bench_build.py``'s business.
"""

from __future__ import annotations

import argparse

import hashlib
import io
import json
import math
import os
import random
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from PIL import Image

from tts_builder import cli, stamp
from tts_builder import build as build_mod
from tts_builder.build import art_name
from tts_builder.art.pipeline import PSNR_FLOOR, encode_png, psnr
from tts_builder.art.render import png_bytes

GAME = "two-and-two"
OTHER = "obren-buttons"


def _files(root: Path) -> dict[str, str]:
    return {p.relative_to(root).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


def _images(game_dir: Path) -> dict[str, bytes]:
    """The images the save uses, plus the thumbnail, by the art's name (content hash taken off)."""
    out = {art_name(p.name): p.read_bytes() for p in sorted((game_dir / "images").glob("*.png"))}
    out[f"{game_dir.name}.png"] = (game_dir / f"{game_dir.name}.png").read_bytes()
    return out


@pytest.fixture(scope="module")
def built(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    root = tmp_path_factory.mktemp("speed")
    assert cli.main(["build", GAME, "--out", str(root / "palette"), "--jobs", "1"]) == 0
    assert cli.main(["build", GAME, "--out", str(root / "lossless"), "--lossless", "--jobs", "1"]) == 0
    return {"palette": root / "palette", "lossless": root / "lossless"}


def _copy(built: dict[str, Path], kind: str, tmp_path: Path) -> Path:
    """A module build copied to another folder and built there (warm: the save's file:/// URLs
    and the stamp name the folder)."""
    out = tmp_path / kind
    shutil.copytree(built[kind], out)
    assert stamp.quick_build([GAME, "--out", str(out)]) is None  # another folder: not up to date
    assert cli.main(["build", GAME, "--out", str(out), *(["--lossless"] if kind == "lossless" else [])]) == 0
    return out


# --------------------------------------------------------------------------- the stamp


def test_a_no_op_rebuild_is_up_to_date_and_changes_nothing(built: dict[str, Path],
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    out = built["palette"]
    before = _files(out)
    assert stamp.STAMP in {Path(k).name for k in before}
    assert stamp.main(["build", GAME, "--out", str(out)]) == 0  # the entry point's quick path
    assert capsys.readouterr().out == stamp.up_to_date_line(out, GAME) + "\n"
    assert cli.main(["build", GAME, "--out", str(out)]) == 0  # the full command checks it too
    assert "up to date" in capsys.readouterr().out
    assert _files(out) == before


def test_the_quick_path_imports_none_of_the_heavy_libraries(built: dict[str, Path]) -> None:
    probe = ("import sys; from tts_builder.stamp import main; code = main(sys.argv[1:]); "
             "print([m for m in ('PIL', 'jinja2', 'jsonschema', 'lupa', 'tts_builder.cli') if m in sys.modules]); "
             "sys.exit(code)")
    proc = subprocess.run([sys.executable, "-c", probe, "build", GAME, "--out", str(built["palette"])],
                          capture_output=True, text=True, timeout=120)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines() == [stamp.up_to_date_line(built["palette"], GAME), "[]"]


def test_the_stamp_is_written_last_and_is_reproducible(built: dict[str, Path], tmp_path: Path) -> None:
    out = built["palette"]
    data = json.loads(stamp.stamp_path(out, GAME).read_text("utf-8"))
    assert data["outputs"] == stamp.output_digests(out / GAME)  # every output as it is now
    assert f"{GAME}.json" in data["outputs"] and any(art_name(k) == "images/deck-1.png" for k in data["outputs"])
    assert not [k for k in data["outputs"] if k.startswith(stamp.CACHE_DIR)]
    copy = tmp_path / "copy"  # same inputs and outputs: same stamp bytes
    shutil.copytree(out, copy)
    stamp.remove_stamp(copy, GAME)
    options = stamp.options_of(out, base_url=None, lossless=False)
    assert stamp.stamp_bytes(stamp.inputs_digest(GAME, options), stamp.output_digests(copy / GAME)) == \
        stamp.stamp_path(out, GAME).read_bytes()


def test_a_changed_input_file_is_seen(built: dict[str, Path], tmp_path: Path,
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Every file of the packages a build reads is in the digest: a package of the test's
    own, added to them, stands for art_src, lua_templates or the rules data."""
    package = tmp_path / "lib" / "ttsb_probe_inputs"
    package.mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "cards.json").write_text('{"label": "Alpha"}')
    out = _copy(built, "palette", tmp_path)
    monkeypatch.syspath_prepend(str(tmp_path / "lib"))
    monkeypatch.setattr(stamp, "PACKAGES", (*stamp.PACKAGES, "ttsb_probe_inputs"))
    assert stamp.quick_build([GAME, "--out", str(out)]) is None  # one more package: new inputs
    assert cli.main(["build", GAME, "--out", str(out)]) == 0  # its stamp now covers the probe package
    options = stamp.options_of(out, base_url=None, lossless=False)
    assert stamp.is_current(out, GAME, stamp.inputs_digest(GAME, options))
    memo = stamp.code_memo(out, GAME)  # the build remembered the code's digest by the files' stats
    assert stamp.code_digest(memo) == stamp.code_state()[1] == stamp.code_digest()
    assert stamp.quick_build([GAME, "--out", str(out)]) == 0
    before = (package / "cards.json").stat()
    (package / "cards.json").write_text('{"label": "Alphb"}')  # same size, new time: read again
    os.utime(package / "cards.json", ns=(before.st_atime_ns, before.st_mtime_ns + 1_000_000))
    assert stamp.code_digest(memo) == stamp.code_digest() != json.loads(memo.read_text())["digest"]
    assert stamp.quick_build([GAME, "--out", str(out)]) is None
    assert cli.main(["build", GAME, "--out", str(out)]) == 0
    (package / "cards.json").write_text('{"label": "Alpha prime"}')
    assert not stamp.is_current(out, GAME, stamp.inputs_digest(GAME, options))
    assert stamp.quick_build([GAME, "--out", str(out)]) is None  # the full command will build


def test_a_deleted_or_edited_output_is_rebuilt(built: dict[str, Path], tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    out = _copy(built, "palette", tmp_path)
    before = _files(out)
    next((out / GAME / "images").glob("*back-*.png")).unlink()  # the cards' back
    assert stamp.quick_build([GAME, "--out", str(out)]) is None
    assert cli.main(["build", GAME, "--out", str(out)]) == 0
    assert "card pictures rendered" in capsys.readouterr().out  # built, not "up to date"
    assert _files(out) == before  # the image is back, byte for byte
    save = out / GAME / f"{GAME}.json"
    save.write_text(save.read_text("utf-8").replace('"Nickname"', '"Nickname" ', 1), encoding="utf-8")
    assert stamp.quick_build([GAME, "--out", str(out)]) is None
    assert cli.main(["build", GAME, "--out", str(out)]) == 0
    assert _files(out) == before
    (out / GAME / "images" / "stray.png").write_bytes(b"not ours")  # a file beside the outputs
    assert stamp.quick_build([GAME, "--out", str(out)]) is None


@pytest.mark.parametrize("argv", [["--base-url", "https://example.org/mods"], ["--lossless"]])
def test_other_options_are_not_up_to_date(built: dict[str, Path], argv: list[str]) -> None:
    out = built["palette"]
    assert stamp.quick_build([GAME, "--out", str(out)]) == 0
    assert stamp.quick_build([GAME, "--out", str(out), *argv]) is None


def test_options_that_change_the_output_change_the_digest(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    def digest(out: Path, base_url: str | None = None, lossless: bool = False) -> str:
        return stamp.inputs_digest(GAME, stamp.options_of(out, base_url=base_url, lossless=lossless))
    plain = digest(tmp_path / "a")
    assert len({plain, digest(tmp_path / "b"), digest(tmp_path / "a", "https://x.org/m"),
                digest(tmp_path / "a", lossless=True), stamp.inputs_digest(OTHER, stamp.options_of(
                    tmp_path / "a", base_url=None, lossless=False))}) == 5
    assert digest(tmp_path / "a", "https://x.org/m") == digest(tmp_path / "a", "https://x.org/m/")  # same URLs
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "86400")  # the save's date
    assert digest(tmp_path / "a") != plain


def test_a_no_op_sweeps_what_a_killed_build_left(built: dict[str, Path], tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    from tts_builder.fileio import TEMP_PREFIX
    assert stamp.TEMP_PREFIX == TEMP_PREFIX
    out = built["palette"]
    dead = out / GAME / "images" / f"{TEMP_PREFIX}deck-1.png-999999999-0123abcd"  # no such process
    dead.write_bytes(b"half a png")
    assert stamp.quick_build([GAME, "--out", str(out)]) == 0
    assert "up to date" in capsys.readouterr().out and not dead.exists()


def test_unusual_arguments_take_the_full_path(built: dict[str, Path]) -> None:
    out = str(built["palette"])
    for argv in ([GAME, "--out", out, "--force"], [GAME, "--all", "--out", out], ["--out", out],
                 [GAME, "--out"], [GAME, "--out", out, "--jobs", "0"], [GAME, "--out", out, "--help"],
                 # the full command refuses a game after the options: so does the fast path's parser
                 [GAME, f"--out={out}", "--jobs", "2", GAME], [GAME, "--out", out, "--jobs", "two"]):
        assert stamp.quick_build(argv) is None, argv
    assert stamp.quick_build([GAME, GAME, f"--out={out}", "--jobs", "2", "-q"]) == 0


# --------------------------------------------------------------------------- encoding


def test_psnr_of_a_known_case() -> None:
    a = Image.new("RGB", (2, 2), (0, 0, 0))
    b = a.copy()
    b.putpixel((1, 0), (10, 0, 0))  # one channel of one pixel off by 10: MSE = 100 / 12
    assert psnr(a, b) == pytest.approx(10 * math.log10(255 ** 2 / (100 / 12)))
    assert psnr(a, b) == pytest.approx(38.9226, abs=1e-4)  # 10 log10(7803)
    assert psnr(a, a.copy()) == math.inf
    with pytest.raises(ValueError):
        psnr(a, Image.new("RGB", (1, 2)))


def test_noise_falls_back_to_lossless() -> None:
    rng = random.Random(7)
    noise = Image.frombytes("RGB", (64, 64), bytes(rng.randrange(256) for _ in range(64 * 64 * 3)))
    quantized = noise.quantize(256, method=Image.Quantize.FASTOCTREE)
    assert psnr(noise, quantized) < PSNR_FLOOR  # 12288 random colours do not fit 256
    encoded = encode_png(noise)
    assert encoded.psnr is None and encoded.data == png_bytes(noise)
    assert encode_png(noise.convert("RGBA")).data == png_bytes(noise.convert("RGBA"))  # transparency: lossless


def test_small_and_transparent_images() -> None:
    """A small image is never larger than its lossless PNG; a cut-out token keeps its alpha."""
    from PIL import ImageDraw
    flat = Image.new("RGB", (64, 64), (200, 30, 30))
    ImageDraw.Draw(flat).rectangle((8, 8, 40, 40), fill=(20, 20, 120))
    encoded = encode_png(flat)
    assert len(encoded.data) <= len(png_bytes(flat)) and encoded.psnr is None  # two colours: exact
    with Image.open(io.BytesIO(encoded.data)) as back:
        assert back.convert("RGB").tobytes() == flat.tobytes()
    token = Image.new("RGBA", (256, 256), (0, 0, 0, 0))
    ImageDraw.Draw(token).ellipse((10, 10, 245, 245), fill=(40, 110, 200, 255), outline=(10, 30, 60, 255), width=6)
    token = token.resize((128, 128), Image.Resampling.LANCZOS)  # soft, half-transparent edges
    encoded = encode_png(token)
    with Image.open(io.BytesIO(encoded.data)) as back:
        assert back.mode == "P" and "transparency" in back.info
        quality = psnr(token, back)
        assert back.convert("RGBA").getpixel((0, 0))[3] == 0  # still cut out
    assert quality >= PSNR_FLOOR and encoded.psnr == pytest.approx(quality, abs=0.01)
    assert len(encoded.data) < len(png_bytes(token))


def test_palette_images_are_smaller_and_above_the_bound(built: dict[str, Path],
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    palette, lossless = _images(built["palette"] / GAME), _images(built["lossless"] / GAME)
    assert palette.keys() == lossless.keys() and len(palette) >= 5
    assert sum(map(len, palette.values())) <= 0.5 * sum(map(len, lossless.values()))
    manifest = json.loads((built["palette"] / GAME / "images" / "manifest.json").read_text("utf-8"))
    for name, data in palette.items():
        with Image.open(io.BytesIO(data)) as p, Image.open(io.BytesIO(lossless[name])) as q:
            assert p.mode == "P" and q.mode == "RGB", name
            quality = psnr(q, p)
        assert len(data) < len(lossless[name]) and quality >= PSNR_FLOOR, name
        record = manifest["files"].get(name if name != f"{GAME}.png" else "thumbnail.png")
        if record is not None:  # the art's images carry their PSNR against the picture drawn: the
            # encoder's loss alone, no more than the loss against the lossless build (Lanczos-scaled
            # cards: the palette build's are bicubic); equal where nothing was scaled
            assert record["psnr"] >= quality - 0.01, name
            if name in ("table-mat.png", "thumbnail.png", f"{GAME}.png"):
                assert record["psnr"] == pytest.approx(quality, abs=0.01), name
    assert "psnr" not in json.dumps(json.loads((built["lossless"] / GAME / "images" / "manifest.json")
                                               .read_text("utf-8")))


def test_the_summary_reports_each_images_psnr(built: dict[str, Path], tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    out = _copy(built, "palette", tmp_path)
    capsys.readouterr()
    assert cli.main(["build", GAME, "--out", str(out), "--force"]) == 0  # every image reused: PSNR from the manifest
    line = [ln for ln in capsys.readouterr().out.splitlines() if "PSNR" in ln]
    assert len(line) == 1
    for name in set(_images(out / GAME)) - {"thumbnail.png"}:  # the art's thumbnail is reported as GAME.png
        assert f"{name} " in line[0] and f"{name} lossless" not in line[0], name
    assert float(line[0].split("PSNR ")[1].split(" dB")[0]) >= PSNR_FLOOR  # "PSNR 43.3 dB or better: ..."


def test_lossless_is_todays_encoder(built: dict[str, Path]) -> None:
    """``--lossless`` writes what the encoder before issue 12 wrote: RGB PNGs through
    :func:`png_bytes` (re-encoding the decoded pixels gives the same bytes), and the
    palette build's pictures are those pixels, quantized, where no card was scaled to a cell
    (the palette build scales its cards with bicubic, the lossless one with Lanczos)."""
    palette = _images(built["palette"] / GAME)
    same = 0
    for name, data in _images(built["lossless"] / GAME).items():
        with Image.open(io.BytesIO(data)) as img:
            assert img.mode == "RGB" and png_bytes(img.convert("RGB")) == data, name
            again = encode_png(img.convert("RGB"))
        if name in ("table-mat.png", "thumbnail.png", f"{GAME}.png"):
            assert again.data == palette[name], name
            same += 1
    assert same == 3


def test_builds_are_byte_reproducible_with_any_jobs(built: dict[str, Path], tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "jobs"
    assert cli.main(["build", GAME, OTHER, "--out", str(out), "--jobs", "2"]) == 0
    printed = capsys.readouterr().out
    assert printed.index(f"{GAME}: ") < printed.index(f"{OTHER}: ")  # in the order asked
    assert _images(out / GAME) == _images(built["palette"] / GAME)
    for name in ("images/manifest.json",):
        assert (out / GAME / name).read_bytes() == (built["palette"] / GAME / name).read_bytes()
    one = tmp_path / "one"
    shutil.copytree(out / OTHER / stamp.CACHE_DIR, one / OTHER / stamp.CACHE_DIR)  # warm: quicker
    assert cli.main(["build", OTHER, "--out", str(one), "--jobs", "1"]) == 0
    assert _images(one / OTHER) == _images(out / OTHER)
    assert os.path.exists(stamp.stamp_path(out, OTHER))


def test_one_game_with_jobs_makes_the_same_images_and_cache(built: dict[str, Path], tmp_path: Path) -> None:
    """One game and --jobs 3: its sheets and images are made in worker processes."""
    out = tmp_path / "three"
    assert cli.main(["build", GAME, "--out", str(out), "--jobs", "3"]) == 0
    assert _images(out / GAME) == _images(built["palette"] / GAME)
    for folder in ("images", stamp.CACHE_DIR):
        assert _files(out / GAME / folder) == _files(built["palette"] / GAME / folder), folder


def test_a_game_of_many_images_names_the_lowest_psnr_and_sums_up_the_rest() -> None:
    from types import SimpleNamespace

    from tts_builder.build import QUALITY_LISTED, _quality

    psnr: dict[str, float | None] = {f"piece-{i}.png": 50.0 + i for i in range(20)}
    psnr.update({"board.png": 44.5, "water-1.png": None, "water-2.png": None})
    line = _quality(SimpleNamespace(game_id="g", psnr=psnr, image_bytes=2048))  # type: ignore[arg-type]
    assert line.startswith("g: images 2 KB, PSNR 44.5 dB or better: lowest board.png 44.5 dB, piece-0.png 50.0 dB")
    shown = QUALITY_LISTED // 2
    assert f"piece-{shown - 2}.png" in line and f"piece-{shown - 1}.png " not in line
    assert line.endswith(f"; {21 - shown} more from {50.0 + shown - 1:.1f} to 69.0 dB; 2 lossless")
    few = _quality(SimpleNamespace(game_id="g", psnr={"a.png": 45.0, "b.png": None}, image_bytes=1024))  # type: ignore[arg-type]
    assert few == "g: images 1 KB, PSNR 45.0 dB or better: a.png 45.0 dB, b.png lossless"


def test_the_quick_path_leaves_a_settings_file_to_the_full_command(built: dict[str, Path], tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch,
                                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """An up-to-date build answers from the stamp, unless a settings file could change what the
    command means (a ``base_url`` beside ``--out``): then the full command reads it and builds."""
    from tts_builder import config

    assert (stamp.CONFIG_FILE, stamp.PYPROJECT, stamp.CONFIG_TABLE) == (config.CONFIG_FILE, config.PYPROJECT,
                                                                         config.TABLE)
    _copy(built, "palette", tmp_path)
    monkeypatch.chdir(tmp_path)
    argv = [GAME, "--out", "palette"]
    assert stamp.quick_build(argv) == 0  # up to date
    (tmp_path / "pyproject.toml").write_text('[project]\nname = "x"\n', "utf-8")
    assert stamp.quick_build(argv) == 0  # a pyproject without the table changes nothing
    (tmp_path / "pyproject.toml").write_text('[tool.tts-builder]\nbase_url = "https://example.org/m"\n', "utf-8")
    assert stamp.quick_build(argv) is None
    (tmp_path / "pyproject.toml").unlink()
    (tmp_path / "tts-builder.toml").write_text('base_url = "https://example.org/m"\n', "utf-8")
    assert stamp.quick_build(argv) is None
    capsys.readouterr()
    assert stamp.main(["build", *argv, "-q"]) == 0
    assert "https://example.org/m/two-and-two/images/" in (tmp_path / "palette" / GAME / f"{GAME}.json").read_text()


def test_the_fast_path_reads_builds_arguments_as_the_full_parser_does() -> None:
    """One definition (stamp.add_build_arguments) serves both parsers: every option of the full
    ``build`` subcommand is known to the fast path, with the same defaults."""
    from tts_builder.cli import build_parser

    full = build_parser()
    sub = next(a for a in full._actions if isinstance(a, argparse._SubParsersAction)).choices["build"]
    fast = argparse.ArgumentParser(add_help=False)
    stamp.add_build_arguments(fast)
    options = lambda p: {s: (a.dest, a.default) for a in p._actions for s in a.option_strings if s != "-h" and s != "--help"}
    assert options(sub) == options(fast) and "--lossless" in options(fast)
    argv = [GAME, "--out", "x", "--base-url", "http://h/", "--lossless", "--jobs", "3", "-q"]
    assert vars(stamp._parse_build_argv(argv)) == {k: v for k, v in vars(sub.parse_args(argv)).items() if k != "func"}


def _result(psnr: dict[str, float | None]) -> build_mod.BuildResult:
    return build_mod.BuildResult(game_id="g", save_path=Path("g.json"), thumbnail_path=Path("g.png"),
                                 images_dir=Path("images"), objects=1, cards=1, save_bytes=1, images=tuple(psnr),
                                 psnr=psnr, image_bytes=2048)


def test_the_quality_line_of_a_large_lossless_build_reads_right() -> None:
    """``--lossless`` on a game of more than QUALITY_LISTED images (Two by Two's 37) said
    "all lossless: lowest ; 37 lossless"; a few are named in full, many in brief."""
    many = build_mod.QUALITY_LISTED + 25
    line = build_mod._quality(_result({f"piece-{i}-0123456789.png": None for i in range(many)}))
    assert line == f"g: images 2 KB, all lossless: {many} images"
    few = build_mod._quality(_result({"a-0123456789.png": None, "b.png": None}))
    assert few == "g: images 2 KB, all lossless: a.png lossless, b.png lossless"
    mixed = build_mod._quality(_result({**{f"p{i}.png": 40.0 + i for i in range(20)}, "x.png": None}))
    assert "lowest p0.png 40.0 dB" in mixed and "; 14 more from 46.0 to 59.0 dB; 1 lossless" in mixed
