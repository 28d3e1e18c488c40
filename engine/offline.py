"""Offline switches, applied before any library that could reach a network is imported.

`engine/__init__.py` imports this module first, so every entry point (CLI, GUI, tests,
frozen build) gets the switches without having to remember them.
"""

from __future__ import annotations

import os

OFFLINE_ENV = {
    "HF_HUB_OFFLINE": "1",
    "TRANSFORMERS_OFFLINE": "1",
    "HF_DATASETS_OFFLINE": "1",
    "HF_HUB_DISABLE_TELEMETRY": "1",
    "HF_HUB_DISABLE_IMPLICIT_TOKEN": "1",
    "HF_HUB_DISABLE_UPDATE_CHECK": "1",
    "DISABLE_TELEMETRY": "1",
    "DO_NOT_TRACK": "1",
    "MEDCAT_DISABLE_VERSION_CHECK": "true",
    "TOKENIZERS_PARALLELISM": "false",
    "HF_HUB_DISABLE_PROGRESS_BARS": "1",  # no "Loading weights" bars on every model load
    "TIKTOKEN_CACHE_DIR": "",  # empty: tiktoken reads the BPE file without caching it
}


def apply() -> None:
    """Set every known offline switch unless the caller already set it explicitly."""
    for key, value in OFFLINE_ENV.items():
        os.environ.setdefault(key, value)
    os.environ["HF_HUB_OFFLINE"] = "1"
    os.environ["TRANSFORMERS_OFFLINE"] = "1"
    os.environ["MEDCAT_DISABLE_VERSION_CHECK"] = "true"


apply()
