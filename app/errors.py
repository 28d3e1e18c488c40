"""Engine errors become plain-language dialogs here, once, at the GUI boundary.

`ChartsideError.user_message` is written for clinicians and never carries PHI. Any other
exception is a bug: the dialog says so, and the log gets the exception type and stack
frames only (an exception's text may quote patient data, so it is never logged).
"""

from __future__ import annotations

import logging
import traceback

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QMessageBox, QWidget

from app.engine_messages import translated
from engine.errors import ChartsideError

log = logging.getLogger(__name__)


def user_message(exc: BaseException) -> str:
    if isinstance(exc, ChartsideError):
        return translated(exc.user_message)
    return QCoreApplication.translate(
        "Errors", "Something went wrong inside Chartside. Your data was not changed. "
        "If this keeps happening, restart the app and tell your administrator.")


def log_unexpected(exc: BaseException) -> None:
    if isinstance(exc, ChartsideError):
        return
    frames = "".join(traceback.format_tb(exc.__traceback__))
    log.error("unexpected %s in an engine call\n%s", type(exc).__name__, frames)


def show_error(parent: QWidget | None, exc: BaseException, title: str | None = None) -> QMessageBox:
    """A non-blocking warning box (tests and workers never wait on a nested event loop)."""
    log_unexpected(exc)
    box = QMessageBox(QMessageBox.Icon.Warning, title or QCoreApplication.translate("Errors", "Chartside"),
                      user_message(exc), QMessageBox.StandardButton.Ok, parent)
    box.setObjectName("errorDialog")
    box.setModal(True)
    box.open()
    return box
