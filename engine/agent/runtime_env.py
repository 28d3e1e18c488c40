"""Process settings for long agent runs on a shared machine.

llama.cpp (and torch) use OpenMP; by default idle OpenMP threads spin. On a busy 2-core
desk machine the spinning threads fight the working ones: measured here, one 634-token
prompt plus 32 tokens took 80 s with the default policy and 10.5 s with
OMP_WAIT_POLICY=PASSIVE (2 threads, load average ~7). The variable must be set before the
OpenMP runtime starts, i.e. before llama_cpp or torch is imported.
"""

from __future__ import annotations

import os


def passive_openmp_waits() -> None:
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
