"""Every engine call runs off the GUI thread; results and events come back as signals.

Two lanes:
- `serial`: one long-lived thread for the vault, patients and turns. The facade keeps an
  SQLCipher connection, which belongs to the thread that opened it, and a turn must not
  race a profile edit, so these calls run one after the other on the same thread.
- `background`: knowledge-base indexing and model verification, which are long and do not
  touch the vault, so chat stays usable while they run.

Callbacks are delivered through a small relay object parented to the widget that asked;
when that widget is destroyed (for example the workspace on lock), late results are
dropped instead of reaching a deleted widget.
"""

from __future__ import annotations

from typing import Callable, Iterator

from PySide6.QtCore import QObject, QThreadPool, Signal, Slot
from superqt.utils import FunctionWorker, GeneratorWorker

from app.errors import show_error

Callback = Callable[[object], None] | None


class _Relay(QObject):
    """Receives worker signals in the GUI thread and forwards them to plain callbacks."""

    def __init__(self, owner: QObject, on_result: Callback, on_error: Callback, on_event: Callback,
                 on_finished: Callable[[], None] | None):
        super().__init__(owner)
        self._owner = owner
        self._on_result, self._on_error = on_result, on_error
        self._on_event, self._on_finished = on_event, on_finished

    @Slot(object)
    def result(self, value: object) -> None:
        if self._on_result:
            self._on_result(value)

    @Slot(object)
    def yielded(self, value: object) -> None:
        if self._on_event:
            self._on_event(value)

    @Slot(object)
    def error(self, exc: object) -> None:
        if self._on_error:
            self._on_error(exc)
        else:
            widget = self._owner if hasattr(self._owner, "window") else None
            show_error(widget.window() if widget else None, exc)

    @Slot()
    def finished(self) -> None:
        if self._on_finished:
            self._on_finished()
        self.deleteLater()


class ProgressBridge(QObject):
    """Turns a `progress(done, total, message)` callback from a worker into a signal."""

    progressed = Signal(int, int, str)

    def __call__(self, done: int, total: int, message: str = "") -> None:
        self.progressed.emit(int(done), int(total), str(message))


class EngineRunner(QObject):
    """Starts engine calls in worker threads and reports how many are running."""

    busy_changed = Signal(int)

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._serial = QThreadPool(self)
        self._serial.setMaxThreadCount(1)
        self._serial.setExpiryTimeout(-1)
        self._background = QThreadPool(self)
        self._background.setMaxThreadCount(2)
        self._running: set[object] = set()

    @property
    def busy(self) -> int:
        return len(self._running)

    def call(self, owner: QObject, fn: Callable, *args, on_result: Callback = None, on_error: Callback = None,
             on_finished: Callable[[], None] | None = None, lane: str = "serial", **kwargs) -> FunctionWorker:
        """Run `fn(*args, **kwargs)` in a worker; `on_result(value)` in the GUI thread."""
        worker = FunctionWorker(fn, *args, **kwargs)
        self._start(worker, owner, lane, on_result, on_error, None, on_finished)
        return worker

    def stream(self, owner: QObject, fn: Callable[..., Iterator], *args, on_event: Callback = None,
               on_error: Callback = None, on_finished: Callable[[], None] | None = None, lane: str = "serial",
               **kwargs) -> GeneratorWorker:
        """Run a generator in a worker; each yielded value reaches `on_event` in order."""
        worker = GeneratorWorker(fn, *args, **kwargs)
        self._start(worker, owner, lane, None, on_error, on_event, on_finished)
        return worker

    def wait(self, msecs: int = 30_000) -> bool:
        """Block until running calls end (application shutdown only)."""
        return self._serial.waitForDone(msecs) and self._background.waitForDone(msecs)

    def _start(self, worker, owner, lane, on_result, on_error, on_event, on_finished) -> None:
        relay = _Relay(owner, on_result, on_error, on_event, on_finished)
        worker.returned.connect(relay.result)
        worker.errored.connect(relay.error)
        if isinstance(worker, GeneratorWorker):
            worker.yielded.connect(relay.yielded)
        worker.finished.connect(relay.finished)
        worker.signals._finished.connect(self._done)
        self._running.add(worker)
        self.busy_changed.emit(self.busy)
        pool = self._background if lane == "background" else self._serial
        pool.start(worker)

    @Slot(object)
    def _done(self, worker) -> None:
        self._running.discard(worker)
        self.busy_changed.emit(self.busy)
