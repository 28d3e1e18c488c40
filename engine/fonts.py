"""Where a CJK font is found, for everything that draws Korean (the app's UI, PDF exports).

The font comes from the `noto-cjk-sans-otc` package (Noto Sans CJK, SIL OFL 1.1), never
from a committed file. A release build may instead bundle a font file in
`resources/fonts/`; that folder is tried first.
"""

from __future__ import annotations

import logging
from pathlib import Path

from engine.paths import resources_dir

log = logging.getLogger(__name__)

KOREAN_FAMILIES = ("Noto Sans CJK KR", "Noto Sans KR")
FONT_SUFFIXES = (".ttc", ".otc", ".ttf", ".otf")


def cjk_font_files() -> list[Path]:
    """Existing font files, bundled ones first (frozen builds), then the font package's."""
    bundled = resources_dir() / "fonts"
    files = sorted(p for p in bundled.glob("*") if p.suffix.lower() in FONT_SUFFIXES) if bundled.is_dir() else []
    try:
        import noto_cjk_sans_otc

        files.append(Path(str(noto_cjk_sans_otc.FONT_PATH)))
    except ImportError:
        log.warning("noto-cjk-sans-otc is not installed; Korean text needs a system CJK font")
    return [path for path in files if path.is_file()]


def korean_family(families) -> str | None:
    """The preferred Korean family among `families` (names a font file or system provides)."""
    available = set(families)
    return next((name for name in KOREAN_FAMILIES if name in available), None)
