"""tts_builder.allocator: a build keeps the memory it frees for its next picture (glibc only)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tts_builder import allocator

#: in a fresh interpreter: page faults of a second 64 MB allocation, made after the first was freed
_SECOND_ALLOCATION_FAULTS = """
import resource, sys
from tts_builder.allocator import keep_freed_memory
took = keep_freed_memory() if sys.argv[1] == "tuned" else None
block = bytearray(64 << 20); block[::4096] = b"x" * len(block[::4096]); del block
before = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
block = bytearray(64 << 20); block[::4096] = b"x" * len(block[::4096])
print(took, resource.getrusage(resource.RUSAGE_SELF).ru_minflt - before)
"""


def _second_allocation(mode: str) -> tuple[str, int]:
    out = subprocess.run([sys.executable, "-c", _SECOND_ALLOCATION_FAULTS, mode], capture_output=True,
                         text=True, check=True).stdout.split()
    return out[0], int(out[1])


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's mallopt: Linux only")
def test_freed_blocks_are_reused_instead_of_faulted_in_again() -> None:
    took, tuned = _second_allocation("tuned")
    if took != "True":
        pytest.skip("this C library is not glibc")
    _, untuned = _second_allocation("untuned")
    pages = (64 << 20) // 4096
    assert untuned > pages // 2  # each big block is a fresh mapping, faulted in page by page
    assert tuned < pages // 10   # the freed block is taken again from the heap


def test_elsewhere_nothing_changes(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(allocator.sys, "platform", "darwin")
    assert allocator.keep_freed_memory() is False
