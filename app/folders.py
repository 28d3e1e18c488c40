"""Where file dialogs open: the folder the user last picked in this run, else the user's
Documents folder, else home — never the process's working directory (the source checkout
when started with `make run`). The last folder is kept in memory only."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QStandardPaths

_last_folder: dict[str, str] = {}


def start_folder() -> Path:
    remembered = _last_folder.get("path")
    if remembered and Path(remembered).is_dir():
        return Path(remembered)
    for location in (QStandardPaths.StandardLocation.DocumentsLocation, QStandardPaths.StandardLocation.HomeLocation):
        folder = QStandardPaths.writableLocation(location)
        if folder and Path(folder).is_dir():
            return Path(folder)
    return Path.home()


def remember(path: str | Path, *, is_folder: bool = False) -> None:
    """Open the next dialog where this one ended (the file's folder, or the folder itself)."""
    folder = Path(path) if is_folder else Path(path).parent
    _last_folder["path"] = str(folder)


def forget() -> None:
    _last_folder.clear()
