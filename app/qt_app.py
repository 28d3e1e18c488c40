"""The one QApplication of the process (the desktop app, screenshots, tests), with the CJK
font applied and Qt's messages sent to logging."""

from __future__ import annotations

import logging
import sys

from PySide6.QtCore import Qt, QtMsgType, qInstallMessageHandler
from PySide6.QtWidgets import QApplication

from app.fonts import apply_ui_font

log = logging.getLogger(__name__)
# Harmless notices of Qt's offscreen platform (screenshots, tests) that would drown real warnings.
QUIET_QT_MESSAGES = ("This plugin does not support propagateSizeHints()", "This plugin does not support raise()")


def _qt_message(kind: QtMsgType, _context, message: str) -> None:
    if any(message.startswith(quiet) for quiet in QUIET_QT_MESSAGES):
        return
    level = logging.DEBUG if kind == QtMsgType.QtDebugMsg else logging.WARNING
    logging.getLogger("qt").log(level, "%s", message)


def application() -> QApplication:
    """The QApplication (created once), with the CJK font applied."""
    app = QApplication.instance()
    if app is None:
        qInstallMessageHandler(_qt_message)
        QApplication.setHighDpiScaleFactorRoundingPolicy(Qt.HighDpiScaleFactorRoundingPolicy.PassThrough)
        app = QApplication(sys.argv[:1])
        app.setApplicationName("Chartside")
        app.setOrganizationName("Chartside")
        family = apply_ui_font(app)
        if family is None:
            log.warning("no CJK font found: Korean text may not render")
    return app
