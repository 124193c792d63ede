"""The tree at a git ref, for the benchmarks' ``--against REF`` (before/after in one run)."""

from __future__ import annotations

import subprocess
import tarfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def export_tree(ref: str, into: Path) -> Path:
    """The files of git ``ref`` (``git archive``) unpacked under ``into``; returns their folder."""
    archive = into / "tree.tar"
    subprocess.run(["git", "-C", str(ROOT), "archive", "--format=tar", "-o", str(archive), ref], check=True)
    with tarfile.open(archive) as tar:
        tar.extractall(into / "tree", filter="data")
    return into / "tree"
