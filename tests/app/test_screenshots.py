"""`chartside --screenshot FILE.png` and the screenshots of every main screen (ko, en).

The PNGs land in tests/app/screenshots/ (git-ignored) for a person to look at."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from PySide6.QtGui import QColor, QImage

from app.panels.sources import SENTENCE_COLOUR
from app.screenshot import save_all

from tests.app.conftest import SCREENSHOTS

REPO = Path(__file__).parents[2]


def distinct_colours(path: Path) -> int:
    image = QImage(str(path))
    step = max(1, image.width() // 80)
    return len({image.pixel(x, y) for x in range(0, image.width(), step) for y in range(0, image.height(), step)})


def test_cli_screenshot_contract(tmp_path):
    target = tmp_path / "window.png"
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    env.pop("DISPLAY", None)
    done = subprocess.run([sys.executable, "-m", "app.entry", "--screenshot", str(target)], cwd=REPO, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    image = QImage(str(target))
    assert (image.width(), image.height()) == (1320, 820)
    assert distinct_colours(target) > 20
    home = Path(env["CHARTSIDE_HOME"])
    assert not any(p.suffix in (".db", ".sqlite", ".md", ".json") for p in home.rglob("*")), "demo wrote files"


def colour_pixels(path: Path, colour: str) -> int:
    image = QImage(str(path))
    wanted = QColor(colour).rgb()
    return sum(1 for y in range(image.height()) for x in range(image.width()) if image.pixel(x, y) == wanted)


def test_every_main_screen_in_korean_and_english(ui_language):
    saved = save_all(SCREENSHOTS)
    assert len(saved) == 18
    for path in saved:
        assert path.stat().st_size > 5_000 and distinct_colours(path) > 8, path
    for path in (p for p in saved if p.name.endswith("-2-chat-sources.png")):
        # the cited sentence's source sentence, highlighted in the Sources tab
        assert colour_pixels(path, SENTENCE_COLOUR) > 1_000, path
