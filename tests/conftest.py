"""Shared test fixtures.

``../shared`` (rulebooks, docs, real TTS saves) sits beside the clone in CI; tests
that read it skip when it is absent. ``TTS_BUILDER_SHARED`` overrides the path.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
SHARED = Path(os.environ.get("TTS_BUILDER_SHARED", REPO.parent / "shared"))


@pytest.fixture(scope="session")
def shared_dir() -> Path:
    if not SHARED.is_dir():
        pytest.skip(f"{SHARED} is absent (the shared folder sits beside the clone in CI)")
    return SHARED


@pytest.fixture(scope="session")
def tts_save_fixtures(shared_dir: Path) -> list[Path]:
    saves = sorted((shared_dir / "fixtures" / "tts_saves").glob("*.json"))
    if not saves:
        pytest.skip("no TTS save fixtures in the shared folder")
    return saves


@pytest.fixture(autouse=True)
def _no_heartbeat(monkeypatch: pytest.MonkeyPatch) -> None:
    """No progress heartbeat in tests unless a test asks for one: on a loaded machine a build
    can pass the 5 s interval, and tests that count stderr lines would then see an extra line."""
    from tts_builder import progress

    monkeypatch.setattr(progress, "HEARTBEAT_SECONDS", float("inf"))
