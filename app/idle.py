"""Lock the store after a period without keyboard or mouse input."""

from __future__ import annotations

import time

from PySide6.QtCore import QEvent, QObject, QTimer, Signal
from PySide6.QtWidgets import QApplication

INPUT_EVENTS = {
    QEvent.Type.KeyPress, QEvent.Type.MouseButtonPress, QEvent.Type.MouseMove, QEvent.Type.Wheel,
    QEvent.Type.InputMethod, QEvent.Type.TouchBegin,
}
CHECK_INTERVAL_MS = 5_000


class IdleWatcher(QObject):
    """Emits `idle` once when no input arrived for `minutes` (0 = never)."""

    idle = Signal()

    def __init__(self, minutes: int, parent: QObject | None = None, *, clock=time.monotonic):
        super().__init__(parent)
        self._clock = clock
        self._last_input = clock()
        self._fired = False
        self.minutes = minutes
        self._timer = QTimer(self, interval=CHECK_INTERVAL_MS)
        self._timer.timeout.connect(self.check)
        self._timer.start()
        QApplication.instance().installEventFilter(self)

    def set_minutes(self, minutes: int) -> None:
        self.minutes = minutes
        self.touch()

    def touch(self) -> None:
        self._last_input = self._clock()
        self._fired = False

    def idle_seconds(self) -> float:
        return self._clock() - self._last_input

    def check(self) -> None:
        if self.minutes > 0 and not self._fired and self.idle_seconds() >= self.minutes * 60:
            self._fired = True
            self.idle.emit()

    def eventFilter(self, watched: QObject, event: QEvent) -> bool:  # noqa: N802  (Qt override)
        if event.type() in INPUT_EVENTS:
            self._last_input = self._clock()
            self._fired = False
        return False

    def stop(self) -> None:
        self._timer.stop()
        app = QApplication.instance()
        if app is not None:
            app.removeEventFilter(self)
