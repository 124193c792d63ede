"""Keep the memory a build frees for its next picture, where the C library is glibc.

A build makes and drops one large picture after another: 3 MB card canvases, scaled cells, sheets
of up to 55 MB and their palette and PSNR copies. glibc's ``malloc`` gives blocks that large back
to the system as soon as they are freed (``munmap``, or trimming the top of the heap), so each new
picture faults its pages in again, zero-filled by the kernel: 15% of a cold build's CPU time.
Raised mmap and trim thresholds keep the freed blocks in the heap for the next picture. The peak
memory stays the same (a build's pictures do not outlive the next ones); the process just does
not hand memory back before it ends.
"""

from __future__ import annotations

import sys

#: glibc's ``mallopt`` parameters (malloc.h)
_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3
#: blocks up to this size come from the heap, not their own mapping (larger than any sheet's copy)
MMAP_THRESHOLD = 256 << 20
#: free memory at the heap's top kept up to this size
TRIM_THRESHOLD = 1 << 30


def keep_freed_memory() -> bool:
    """Raise glibc's mmap and trim thresholds for this process (and the workers it forks).

    Returns whether the C library took them: False where it is not glibc (macOS, Windows, musl)
    and nothing changed."""
    if not sys.platform.startswith("linux"):
        return False
    import ctypes  # here: only a build needs it (~2 ms of imports)
    try:
        mallopt = ctypes.CDLL(None).mallopt
    except (OSError, AttributeError):  # no C library symbols to look up
        return False
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    # glibc returns 1 when it takes a value; musl's mallopt is a stub returning 0
    return bool(mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD)) and bool(mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD))
