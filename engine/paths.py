"""Where the read-only resources live, in a source checkout and in a frozen build."""

from __future__ import annotations

import sys
from pathlib import Path


def bundle_root() -> Path:
    """The repository root, or PyInstaller's unpack directory in a frozen build."""
    frozen = getattr(sys, "_MEIPASS", None)
    return Path(frozen) if frozen else Path(__file__).resolve().parents[1]


def resources_dir() -> Path:
    return bundle_root() / "resources"


def models_dir() -> Path:
    return bundle_root() / "models"


def shared_data_dir() -> Path:
    """`../shared/data` beside the checkout (read at build time, never committed)."""
    import os

    override = os.environ.get("CHARTSIDE_SHARED_DATA")
    if override:
        return Path(override)
    return bundle_root().parent / "shared" / "data"
