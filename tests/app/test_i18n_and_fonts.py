"""Korean UI: the catalogue covers every string, the compiled .qm matches the .ts, the
engine's clinician messages are translated, and the CJK font draws Hangul (no tofu)."""

from __future__ import annotations

import inspect
import shutil
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

from PySide6.QtGui import QFont, QFontMetrics, QImage, QPainter, QColor
from PySide6.QtCore import QCoreApplication, Qt

import engine.errors as engine_errors
from app.engine_messages import KNOWN_MESSAGES
from app.errors import user_message
from app.fonts import PREFERRED_FAMILIES, load_cjk_font
from app.i18n import catalogue_path

TOOLS = Path(sys.executable).parent


def messages(ts: Path) -> list[ET.Element]:
    return list(ET.parse(ts).getroot().iter("message"))


def test_catalogue_is_complete_and_up_to_date_with_the_sources(tmp_path):
    ts = tmp_path / "check.ts"
    shutil.copy(catalogue_path("ko", ".ts"), ts)
    sources = sorted(str(p) for p in (Path(__file__).parents[2] / "app").rglob("*.py"))
    subprocess.run([str(TOOLS / "pyside6-lupdate"), *sources, "-no-obsolete", "-locations", "none", "-ts", str(ts)],
                   check=True, capture_output=True)
    unfinished = [m.find("source").text for m in messages(ts)
                  if m.find("translation").get("type") in ("unfinished", "vanished", "obsolete")]
    assert unfinished == [], f"strings without Korean: {unfinished}"
    assert len(messages(ts)) >= 250


def test_compiled_catalogue_matches_the_ts(tmp_path):
    qm = tmp_path / "check.qm"
    subprocess.run([str(TOOLS / "pyside6-lrelease"), str(catalogue_path("ko", ".ts")), "-qm", str(qm)],
                   check=True, capture_output=True)
    assert qm.read_bytes() == catalogue_path("ko").read_bytes(), "run: python -m app.i18n --release"


def test_korean_translation_is_used(ui_language):
    ui_language.set("ko")
    assert QCoreApplication.translate("MainWindow", "Lock now") == "지금 잠그기"
    assert QCoreApplication.translate("QPlatformTheme", "Cancel") == "취소"
    assert user_message(engine_errors.WrongPassphrase()) == "암호문이 틀렸습니다. 아무것도 열거나 바꾸지 않았습니다."
    ui_language.set("en")
    assert QCoreApplication.translate("MainWindow", "Lock now") == "Lock now"


def test_every_engine_error_message_has_a_korean_translation():
    classes = [c for _, c in inspect.getmembers(engine_errors, inspect.isclass)
               if issubclass(c, engine_errors.ChartsideError)]
    missing = [c.user_message for c in classes if c.user_message not in KNOWN_MESSAGES]
    assert missing == []


def test_cjk_font_is_loaded_and_draws_hangul(chartside_qapp):
    family = load_cjk_font()
    assert family in PREFERRED_FAMILIES
    assert chartside_qapp.font().family() == family
    metrics = QFontMetrics(QFont(family, 14))
    for char in "환자 알레르기 혈압약":
        assert char == " " or metrics.inFontUcs4(ord(char)), char
    image = QImage(200, 40, QImage.Format.Format_RGB32)
    image.fill(QColor("white"))
    painter = QPainter(image)
    painter.setFont(QFont(family, 20))
    painter.setPen(QColor("black"))
    painter.drawText(image.rect(), Qt.AlignmentFlag.AlignCenter, "혈압")
    painter.end()
    dark = sum(1 for x in range(200) for y in range(40) if image.pixelColor(x, y).lightness() < 128)
    assert dark > 60, "Hangul did not render"
