"""A CJK-capable UI font, loaded at start-up so Hangul renders on machines without one.

The font comes from the `noto-cjk-sans-otc` package (Noto Sans CJK, SIL OFL 1.1), never
from a committed file. A release build may instead bundle a font file in
`resources/fonts/` (the PyInstaller spec copies it there); that folder is tried first.
"""

from __future__ import annotations

import logging
from pathlib import Path

from PySide6.QtGui import QFont, QFontDatabase
from PySide6.QtWidgets import QApplication

from engine.paths import resources_dir

log = logging.getLogger(__name__)

PREFERRED_FAMILIES = ("Noto Sans CJK KR", "Noto Sans KR")
FONT_SUFFIXES = (".ttc", ".otc", ".ttf", ".otf")
UI_POINT_SIZE = 10


def candidate_font_files() -> list[Path]:
    """Bundled fonts first (frozen builds), then the font package."""
    bundled = resources_dir() / "fonts"
    files = sorted(p for p in bundled.glob("*") if p.suffix.lower() in FONT_SUFFIXES) if bundled.is_dir() else []
    try:
        import noto_cjk_sans_otc

        files.append(Path(str(noto_cjk_sans_otc.FONT_PATH)))
    except ImportError:
        log.warning("noto-cjk-sans-otc is not installed; Korean text needs a system CJK font")
    return files


def load_cjk_font() -> str | None:
    """Register the first loadable CJK font file; return the Korean family name, if any."""
    families: list[str] = []
    for path in candidate_font_files():
        if not path.is_file():
            continue
        font_id = QFontDatabase.addApplicationFont(str(path))
        if font_id < 0:
            log.warning("could not load font file %s", path)
            continue
        families = QFontDatabase.applicationFontFamilies(font_id)
        break
    available = set(families) | set(QFontDatabase.families())
    return next((name for name in PREFERRED_FAMILIES if name in available), None)


def apply_ui_font(app: QApplication) -> str | None:
    """Make the CJK family the application font (it carries Latin glyphs as well)."""
    family = load_cjk_font()
    if family:
        font = QFont(family, UI_POINT_SIZE)
        app.setFont(font)
    return family
