"""Where the read-only resources live, in a source checkout and in a frozen build."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path


def is_frozen() -> bool:
    """True inside the PyInstaller release build."""
    return bool(getattr(sys, "frozen", False))


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
    override = os.environ.get("CHARTSIDE_SHARED_DATA")
    if override:
        return Path(override)
    return bundle_root().parent / "shared" / "data"


def install_bundled(bundled: Path, target: Path, marker: str = "manifest.json") -> bool:
    """Copy a prebuilt folder shipped in a release build (knowledge index, clinical pack)
    into the data folder once, atomically: a copy interrupted half-way is never mistaken
    for an installed one because the marker file only appears with the final rename."""
    import shutil

    if (target / marker).exists() or not (bundled / marker).exists():
        return False
    target.parent.mkdir(parents=True, exist_ok=True)
    staging = target.with_name(target.name + ".installing")
    shutil.rmtree(staging, ignore_errors=True)
    shutil.copytree(bundled, staging)
    if target.exists():
        shutil.rmtree(target)
    os.replace(staging, target)
    return True


def private_dir(path: Path) -> Path:
    """Create `path` (and its parents) as an owner-only folder (0700), tightening it if it
    already exists with group or other permissions. Returns the path."""
    path = Path(path)
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    restrict_to_owner(path)
    return path


def private_file(path: Path) -> Path:
    """Create (or empty) `path` as an owner-only file (0600) before anything writes to it,
    so that no moment exists in which another account could open it. Later opens that
    truncate it (`open(path, "wb")`, PdfPages, SQLite) keep the mode."""
    path = Path(path)
    os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600))
    restrict_to_owner(path)  # the O_CREAT mode does not apply to a file that already existed
    return path


def restrict_to_owner(path: Path) -> None:
    """Drop the group and other permission bits of a file or folder this account owns.
    POSIX only: Windows has no such bits (its per-user folders are private already)."""
    if os.name == "nt":
        return
    info = os.stat(path)
    mode = stat.S_IMODE(info.st_mode)
    if mode & 0o077 and info.st_uid == os.getuid():
        os.chmod(path, mode & 0o700)
