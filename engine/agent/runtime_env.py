"""Process settings for long agent runs on a shared machine.

llama.cpp (and torch) use OpenMP; by default idle OpenMP threads spin. On a busy 2-core
desk machine the spinning threads fight the working ones: measured here, one 634-token
prompt plus 32 tokens took 80 s with the default policy and 10.5 s with
OMP_WAIT_POLICY=PASSIVE (2 threads, load average ~7). The variable must be set before the
OpenMP runtime starts, i.e. before llama_cpp or torch is imported.

glibc's allocator keeps the pages a turn frees (the composer's embedding batches, retrieval
rows) in its free lists, and their shapes differ every turn, so a desktop process's resident
size creeps up over a clinic day: measured here, +150 MB over 1,000 turns with the fast test
model, against +21 MB when the free pages are handed back after each turn (`malloc_trim`).
Other platforms' allocators are left alone.
"""

from __future__ import annotations

import ctypes
import os
import sys
from functools import lru_cache


def passive_openmp_waits() -> None:
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")


@lru_cache(maxsize=1)
def _malloc_trim():
    """glibc's `malloc_trim`, or None (another C library or platform)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL("libc.so.6")
    except OSError:
        return None
    return getattr(libc, "malloc_trim", None)


def release_freed_memory() -> None:
    """Hand the allocator's free pages back to the system (a no-op where that is not glibc)."""
    trim = _malloc_trim()
    if trim is not None:
        trim(0)
