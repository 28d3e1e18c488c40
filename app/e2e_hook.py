"""Test hook for the real-window end-to-end tests; off unless `CHARTSIDE_E2E_DUMP` is set.

With `CHARTSIDE_E2E_DUMP=/tmp/…/window.json` the app writes, every `DUMP_INTERVAL_MS`,
what is visible on screen: each shown top-level window (title, X window id, geometry) and
its visible widgets with their texts, as JSON (written to a temporary name, then renamed,
so a reader never sees half a file). Passphrase fields are reported by length only.
A test asks for a screenshot by writing a PNG path into `<dump>.shot`; the app grabs the
whole X screen (what the X server shows, dialogs included) into it and deletes the
request. The dump holds what the window shows, patient names included: the tests point it
into their own temporary folder, and nothing sets it in normal use.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

from PySide6.QtCore import QObject, QTimer
from PySide6.QtGui import QGuiApplication
from PySide6.QtWidgets import (QAbstractButton, QApplication, QComboBox, QLabel, QLineEdit, QListWidget,
                               QPlainTextEdit, QProgressBar, QTabWidget, QTextEdit, QWidget)

ENV_DUMP = "CHARTSIDE_E2E_DUMP"
DUMP_INTERVAL_MS = 250


def widget_texts(widget: QWidget) -> dict:
    """The user-visible state of one widget (texts, enabled, checked, items)."""
    info: dict = {}
    if isinstance(widget, QLabel):
        info["text"] = widget.text()
    elif isinstance(widget, QAbstractButton):
        info["text"] = widget.text()
        if widget.isCheckable():
            info["checked"] = widget.isChecked()
    elif isinstance(widget, QLineEdit):
        if widget.echoMode() == QLineEdit.EchoMode.Normal:
            info["text"] = widget.text()
        else:
            info["length"] = len(widget.text())
        info["placeholder"] = widget.placeholderText()
    elif isinstance(widget, (QPlainTextEdit, QTextEdit)):
        info["text"] = widget.toPlainText()
    elif isinstance(widget, QListWidget):
        info["items"] = [widget.item(row).text() for row in range(widget.count())]
        info["current"] = widget.currentRow()
    elif isinstance(widget, QComboBox):
        info["text"] = widget.currentText()
    elif isinstance(widget, QProgressBar):
        info["value"], info["maximum"] = widget.value(), widget.maximum()
    elif isinstance(widget, QTabWidget):
        info["tabs"] = [widget.tabText(index) for index in range(widget.count())]
        info["current"] = widget.currentIndex()
    return info


def describe(widget: QWidget) -> dict:
    """One widget: its texts, its whole rectangle and the part of it on screen ("shown": what
    its scroll area and parents leave visible, empty when scrolled out), in screen coordinates."""
    top_left = widget.mapToGlobal(widget.rect().topLeft())
    shown = widget.visibleRegion().boundingRect()
    shown_left = widget.mapToGlobal(shown.topLeft())
    return {"class": type(widget).__name__, "name": widget.objectName(), "enabled": widget.isEnabled(),
            "focus": widget.hasFocus(), "rect": [top_left.x(), top_left.y(), widget.width(), widget.height()],
            "shown": [shown_left.x(), shown_left.y(), shown.width(), shown.height()],
            **widget_texts(widget)}


def snapshot() -> dict:
    windows = []
    for top in QApplication.topLevelWidgets():
        if not top.isVisible():
            continue
        geometry = top.frameGeometry()
        windows.append({
            "class": type(top).__name__, "name": top.objectName(), "title": top.windowTitle(),
            "wid": int(top.winId()), "active": top.isActiveWindow(), "modal": top.isModal(),
            "rect": [geometry.x(), geometry.y(), geometry.width(), geometry.height()],
            "widgets": [describe(child) for child in top.findChildren(QWidget) if child.isVisible()],
        })
    focus = QApplication.focusWidget()
    return {"pid": os.getpid(), "focus": focus.objectName() if focus else None, "windows": windows}


class WindowDumper(QObject):
    def __init__(self, path: Path, parent: QObject | None = None):
        super().__init__(parent)
        self.path = path
        self.request = path.with_name(path.name + ".shot")
        self._timer = QTimer(self, interval=DUMP_INTERVAL_MS)
        self._timer.timeout.connect(self.tick)
        self._timer.start()

    def tick(self) -> None:
        self.grab_if_asked()
        partial = self.path.with_name(self.path.name + ".partial")
        partial.write_text(json.dumps(snapshot(), ensure_ascii=False), encoding="utf-8")
        os.replace(partial, self.path)

    def grab_if_asked(self) -> None:
        if not self.request.exists():
            return
        target = self.request.read_text(encoding="utf-8").strip()
        self.request.unlink()
        screen = QGuiApplication.primaryScreen()
        if target and screen is not None:
            partial = f"{target}.partial"
            if screen.grabWindow(0).save(partial, "PNG"):
                os.replace(partial, target)


def install_if_asked(app: QApplication) -> WindowDumper | None:
    path = os.environ.get(ENV_DUMP)
    return WindowDumper(Path(path), app) if path else None
