"""A CJK-capable UI font, loaded at start-up so Hangul renders on machines without one.

Which font files to try is the engine's answer (`engine.fonts`, shared with PDF export);
this module registers the first loadable one with Qt and makes it the application font.
"""

from __future__ import annotations

import logging

from PySide6.QtGui import QFont, QFontDatabase
from PySide6.QtWidgets import QApplication

from engine.fonts import KOREAN_FAMILIES, cjk_font_files, korean_family

log = logging.getLogger(__name__)

PREFERRED_FAMILIES = KOREAN_FAMILIES
UI_POINT_SIZE = 10


def load_cjk_font() -> str | None:
    """Register the first loadable CJK font file; return the Korean family name, if any."""
    families: list[str] = []
    for path in cjk_font_files():
        font_id = QFontDatabase.addApplicationFont(str(path))
        if font_id < 0:
            log.warning("could not load font file %s", path)
            continue
        families = QFontDatabase.applicationFontFamilies(font_id)
        break
    return korean_family([*families, *QFontDatabase.families()])


def apply_ui_font(app: QApplication) -> str | None:
    """Make the CJK family the application font (it carries Latin glyphs as well)."""
    family = load_cjk_font()
    if family:
        font = QFont(family, UI_POINT_SIZE)
        app.setFont(font)
    return family
