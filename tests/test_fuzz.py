"""Fuzzing the command line with corrupted real files: truncations, byte flips, deep
nesting, wrong types, huge numbers, bad UTF-8, fed to ``validate``, ``schema-check``,
``install`` and ``--options`` through :func:`tts_builder.cli.main` in-process (and a few
through a subprocess). Whatever the input, the command must end with exit 0, 1 or 2,
with exactly one line on stderr for 2, and never a traceback or a hang.

The seeds are a simulated Two & Two transcript, a TTS save carrying it, and small real
saves from ``../shared`` when present. Hypothesis draws the corruptions (about 15 s in all).
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tts_builder.cli import main

GAME = "two-and-two"
REPO = Path(__file__).resolve().parents[1]
WILD = Path(os.environ.get("TTS_BUILDER_SHARED", REPO.parent / "shared")) / "fixtures" / "tts_saves_wild"
SMALL_WILD = ["savedobject_custom_dice.json", "ws2015_batman_deckcustom_only.json", "gloomhaven_savedobject_pdf.json"]
FUZZ = settings(max_examples=250, deadline=None, derandomize=True,
                suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])


def run(argv: list[str]) -> tuple[int, str, str]:
    """``main(argv)`` with its output captured; any exception escaping main fails the test."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(argv)
    return code, out.getvalue(), err.getvalue()


def assert_clean(argv: list[str], code: int, out: str, err: str) -> None:
    assert code in (0, 1, 2), (argv, code, err)
    assert "Traceback" not in out + err, err
    if code == 2:
        assert err.count("\n") == 1 and re.match(r"tts-builder( [a-z-]+)?: ", err), (argv, err)


@pytest.fixture(scope="module")
def seeds(tmp_path_factory: pytest.TempPathFactory) -> dict[str, bytes]:
    folder = tmp_path_factory.mktemp("seeds")
    code, _, err = run(["simulate", GAME, "--games", "1", "--seed", "3", "--out", str(folder)])
    assert code == 0, err
    (path,) = folder.glob("*.json")
    transcript = path.read_bytes()
    save = {"SaveName": "x", "ObjectStates": [],
            "LuaScriptState": json.dumps({"tts_builder_transcript": json.loads(transcript)})}
    found = {"transcript": transcript, "save": json.dumps(save).encode()}
    for name in SMALL_WILD:
        if (WILD / name).is_file():
            found[name] = (WILD / name).read_bytes()
    return found


# --- corruptions ------------------------------------------------------------------------------

WRONG_VALUES: list[Any] = [None, True, -1, 2**70, 1.5, "", "x" * 300, [], {}, [[[]]], {"a": {"b": None}}]


def _replace_random_value(data: Any, rng: random.Random) -> Any:
    """A copy of ``data`` with one value somewhere replaced by a value of another type."""
    if not isinstance(data, (dict, list)) or not data or rng.random() < 0.15:
        return rng.choice(WRONG_VALUES)
    if isinstance(data, dict):
        key = rng.choice(sorted(data))
        return {**data, key: _replace_random_value(data[key], rng)}
    i = rng.randrange(len(data))
    return [*data[:i], _replace_random_value(data[i], rng), *data[i + 1:]]


def corrupt(raw: bytes, kind: str, rng: random.Random) -> bytes:
    if kind == "truncate":
        return raw[: rng.randrange(len(raw))]
    if kind == "flip":
        data = bytearray(raw)
        for _ in range(rng.randint(1, 8)):
            data[rng.randrange(len(data))] = rng.randrange(256)
        return bytes(data)
    if kind == "deep":
        depth = rng.choice([99, 100, 101, 5_000, 100_000])
        at = rng.randrange(len(raw))
        return raw[:at] + b"[" * depth + raw[at:]
    if kind == "nesting":
        depth = rng.choice([40, 99, 200, 100_000])
        return b'{"ObjectStates": ' + b"[" * depth + b"]" * depth + b"}"
    if kind == "number":
        token = rng.choice([b"NaN", b"Infinity", b"-Infinity", b"9" * 5000, b"1e999", b"-0", b"1" * 65])
        at = raw.find(b":", rng.randrange(len(raw)))
        return raw if at < 0 else raw[: at + 1] + token + b"," + raw[at + 1:]
    if kind == "types":
        try:
            data = json.loads(raw)
        except ValueError:
            return raw
        return json.dumps(_replace_random_value(data, rng)).encode()
    if kind == "utf8":
        at = rng.randrange(len(raw))
        return raw[:at] + rng.choice([b"\xff", b"\xc3", b"\xed\xa0\x80", b"\x00", b"\xef\xbb\xbf"]) + raw[at:]
    raise AssertionError(kind)


KINDS = ["truncate", "flip", "deep", "nesting", "number", "types", "utf8"]


@FUZZ
@given(st.sampled_from(KINDS), st.integers(0, 2**32), st.sampled_from(["validate", "schema-check"]),
       st.integers(0, 4))
def test_corrupted_files(seeds: dict[str, bytes], tmp_path_factory: pytest.TempPathFactory, kind: str, seed: int,
                         command: str, which: int) -> None:
    names = sorted(seeds)
    raw = corrupt(seeds[names[which % len(names)]], kind, random.Random(seed))
    path = tmp_path_factory.mktemp("fuzz") / "input.json"
    path.write_bytes(raw)
    argv = [command, str(path)]
    assert_clean(argv, *run(argv))


@FUZZ
@given(st.one_of(
    st.text(max_size=40),
    st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=8),
                 lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=8), inner, max_size=3),
                 max_leaves=12).map(lambda v: json.dumps(v)),
    st.sampled_from(['{"deny_window": "always"}', '{"deny_window": 7}', "[" * 100_000, '{"a": NaN}',
                     '{"x": ' + "9" * 5000 + "}", '{"deny_window": "never", "extra": true}']),
))
def test_options(tmp_path_factory: pytest.TempPathFactory, options: str) -> None:
    argv = ["simulate", GAME, "--games", "1", "--out", str(tmp_path_factory.mktemp("sim")), "--options", options]
    assert_clean(argv, *run(argv))


@settings(max_examples=60, deadline=None, derandomize=True)
@given(st.lists(st.tuples(st.sampled_from(["Saves", "Saves/TS_Save_1.json", "Saves/TS_Save_2.png",
                                           "Saves/TS_Save_3.json", "out/two-and-two/two-and-two.json",
                                           "out/two-and-two/two-and-two.png", "out/two-and-two"]),
                          st.sampled_from(["file", "folder", "fifo", "empty", "absent"])),
                max_size=6),
       st.booleans())
def test_install_into_odd_folders(tmp_path_factory: pytest.TempPathFactory,
                                  layout: list[tuple[str, str]], built: bool) -> None:
    root = tmp_path_factory.mktemp("install")
    (root / "tts").mkdir()
    if built:  # install copies bytes and never parses them, so stand-ins will do
        (root / "out" / GAME).mkdir(parents=True)
        (root / "out" / GAME / f"{GAME}.json").write_text('{"SaveName": "x"}')
        (root / "out" / GAME / f"{GAME}.png").write_bytes(b"\x89PNG")
    for rel, what in layout:
        place = (root / "out" / rel.removeprefix("out/")) if rel.startswith("out") else root / "tts" / rel
        if what == "absent":
            continue
        if place.exists() or not place.parent.is_dir():
            continue
        if what == "folder":
            place.mkdir()
        elif what == "fifo":
            os.mkfifo(place)
        else:
            place.write_text("{}" if what == "file" else "")
    argv = ["install", GAME, "--out", str(root / "out"), "--tts-dir", str(root / "tts")]
    assert_clean(argv, *run(argv))


def test_a_few_corruptions_through_a_subprocess(seeds: dict[str, bytes], tmp_path: Path) -> None:
    rng = random.Random(8)
    for i, kind in enumerate(["truncate", "deep", "number", "utf8"]):
        path = tmp_path / f"in-{i}.json"
        path.write_bytes(corrupt(seeds["transcript"], kind, rng))
        for command in ("validate", "schema-check"):
            proc = subprocess.run([sys.executable, "-m", "tts_builder", command, str(path)],
                                  capture_output=True, text=True, timeout=120)
            assert_clean([command, str(path)], proc.returncode, proc.stdout, proc.stderr)
