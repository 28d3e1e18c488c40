"""Every engine call runs off the GUI thread; results and events come back as signals.

Two lanes:
- `serial`: one long-lived thread for the vault, patients and turns. The facade keeps an
  SQLCipher connection, which belongs to the thread that opened it, and a turn must not
  race a profile edit, so these calls run one after the other on the same thread.
- `background`: knowledge-base indexing and model verification, which are long and do not
  touch the vault, so chat stays usable while they run.

Callbacks are delivered through a small relay object parented to the widget that asked;
when that widget is destroyed (for example the workspace on lock), late results are
dropped instead of reaching a deleted widget. Widgets are deleted through `retire`, which
keeps the workers' garbage collections away from a tree that is being destroyed.
"""

from __future__ import annotations

import gc
import time
from collections import deque
from typing import Callable, Iterator

from PySide6.QtCore import QObject, QThreadPool, QTimer, Signal, Slot
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


class LatestProgress:
    """A `progress(done, total, message)` callback that only remembers the latest call, for
    a GUI timer to show: nothing Qt is touched from the worker thread."""

    def __init__(self, done: int = 0, total: int = 0, message: str = ""):
        self.latest = (done, total, message)

    def __call__(self, done: int, total: int, message: str = "") -> None:
        self.latest = (int(done), int(total), str(message))


RELEASE_AFTER_S = 5.0


class EngineRunner(QObject):
    """Starts engine calls in worker threads and reports how many are running.

    A worker is a QRunnable that owns QObjects living in the GUI thread (its signals, a
    progress bridge). The pool deletes a finished runnable in its own thread; had that
    dropped the last reference, those QObjects would be destroyed there while the GUI thread
    deletes the relays connected to them: a race that crashed the app (a segfault in
    `~QObject`, about one `--screenshot` run in 80). So the runner keeps a reference to each
    worker until `RELEASE_AFTER_S` after it reported its end, long after the pool has
    deleted the C++ side, and the last reference goes in the GUI thread.
    """

    busy_changed = Signal(int)

    def __init__(self, parent: QObject | None = None):
        super().__init__(parent)
        self._serial = QThreadPool(self)
        self._serial.setMaxThreadCount(1)
        self._serial.setExpiryTimeout(-1)
        self._background = QThreadPool(self)
        self._background.setMaxThreadCount(2)
        self._running: set[object] = set()
        self._ended: deque[tuple[float, object]] = deque()

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
        done = self._serial.waitForDone(msecs) and self._background.waitForDone(msecs)
        if done:
            self._release_ended(everything=True)
        return done

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
        self._ended.append((time.monotonic(), worker))
        self._release_ended()
        self.busy_changed.emit(self.busy)

    def _release_ended(self, everything: bool = False) -> None:
        cutoff = time.monotonic() - RELEASE_AFTER_S
        while self._ended and (everything or self._ended[0][0] < cutoff):
            self._ended.popleft()


RETIRE_FALLBACK_MS = 10_000
_gc_pauses = {"count": 0, "disabled": False}


def retire(widget: QObject) -> None:
    """`widget.deleteLater()`, with Python's cyclic garbage collector paused until it is gone.

    Qt destroys the tree in the event loop without the GIL, and PySide takes the GIL back
    for each Python-made child. A collection that a worker thread starts in between (the
    warm-up importing libraries, a turn) can visit half-destroyed wrappers and crash the
    process: seen with PySide6 6.12 as a segfault in `visit_decref`. Collection resumes
    once the tree is gone (or after `RETIRE_FALLBACK_MS` should it never be deleted).
    """
    if _gc_pauses["count"] == 0 and gc.isenabled():
        gc.disable()
        _gc_pauses["disabled"] = True
    _gc_pauses["count"] += 1
    resumed = []

    def resume() -> None:
        if resumed:
            return
        resumed.append(True)
        _gc_pauses["count"] -= 1
        if _gc_pauses["count"] == 0 and _gc_pauses["disabled"]:
            _gc_pauses["disabled"] = False
            gc.enable()

    widget.destroyed.connect(lambda *_: QTimer.singleShot(0, resume))
    QTimer.singleShot(RETIRE_FALLBACK_MS, resume)
    widget.deleteLater()

