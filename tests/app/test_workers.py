"""Engine calls run off the GUI thread; results and events come back in order, in the GUI
thread; a result for a destroyed widget is dropped."""

from __future__ import annotations

import gc
import threading
import time

import pytest
from PySide6.QtWidgets import QWidget

from app.workers import EngineRunner, ProgressBridge
from engine.errors import WrongPassphrase


@pytest.fixture
def runner(qtbot):
    """A runner shut down as the application shuts its own down: its calls are waited for before
    it and the workers it holds go."""
    made = EngineRunner()
    yield made
    assert made.wait(10_000)
    qtbot.wait(50)


@pytest.fixture
def owner(qtbot, runner):
    """The widget the calls report to, deleted the way the application deletes widgets
    (`deleteLater`, in the event loop) once the runner's calls have ended. Freed by reference
    count as the test returned, while a worker could still be finishing, it crashed the test run
    twice (a segfault in pytest-qt's event processing right after the test)."""
    widget = QWidget()
    yield widget
    assert runner.wait(10_000)
    widget.deleteLater()
    qtbot.wait(50)


def test_stream_events_arrive_in_order_in_the_gui_thread(qtbot, runner, owner):
    gui = threading.get_ident()
    seen, done = [], []

    def generate():
        for number in range(20):
            yield number, threading.get_ident()

    runner.stream(owner, generate, on_event=lambda e: seen.append((e, threading.get_ident())),
                  on_finished=lambda: done.append(True))
    qtbot.waitUntil(lambda: bool(done), timeout=5000)
    assert [event[0] for event, _ in seen] == list(range(20))
    assert all(worker != gui for (_, worker), _ in seen)
    assert all(receiver == gui for _, receiver in seen)
    qtbot.waitUntil(lambda: runner.busy == 0, timeout=2000)


def test_serial_lane_runs_calls_one_after_another_on_one_thread(qtbot, runner, owner):
    threads, order = [], []

    def work(number):
        threads.append(threading.get_ident())
        time.sleep(0.02)
        order.append(number)
        return number

    results = []
    for number in range(4):
        runner.call(owner, work, number, on_result=results.append)
    qtbot.waitUntil(lambda: len(results) == 4, timeout=5000)
    assert order == [0, 1, 2, 3] and results == [0, 1, 2, 3]
    assert len(set(threads)) == 1


def test_errors_reach_the_error_callback(qtbot, runner, owner):
    errors = []

    def fail():
        raise WrongPassphrase()

    runner.call(owner, fail, on_error=errors.append)
    qtbot.waitUntil(lambda: bool(errors), timeout=5000)
    assert isinstance(errors[0], WrongPassphrase)


def test_results_for_a_destroyed_widget_are_dropped(qtbot, runner):
    owner = QWidget()
    results, gate = [], threading.Event()
    runner.call(owner, lambda: gate.wait(5) and "late", on_result=results.append)
    owner.deleteLater()
    qtbot.wait(50)
    gate.set()
    qtbot.waitUntil(lambda: runner.busy == 0, timeout=5000)
    qtbot.wait(50)
    assert results == []


def test_progress_bridge_carries_progress_from_a_worker(qtbot, runner, owner):
    bridge, seen = ProgressBridge(owner), []
    bridge.progressed.connect(lambda done, total, message: seen.append((done, total, message)))

    def job(progress):
        for done in range(1, 4):
            progress(done, 3, f"file {done}")
        return "ok"

    results = []
    runner.call(owner, job, bridge, on_result=results.append, lane="background")
    qtbot.waitUntil(lambda: bool(results), timeout=5000)
    qtbot.waitUntil(lambda: len(seen) == 3, timeout=2000)
    assert seen[-1] == (3, 3, "file 3")


def test_a_finished_worker_outlives_its_pool_thread_and_dies_in_the_gui_thread(qtbot, runner, owner):
    """A worker's signals live in the GUI thread; had the pool thread dropped the last
    reference when it deleted the finished runnable, they would be destroyed there, racing
    with the GUI thread deleting the relays connected to them (a segfault in ~QObject)."""
    import weakref

    results, destroyed_on = [], []
    worker = runner.call(owner, lambda: 42, on_result=results.append)
    worker.signals.destroyed.connect(lambda *_: destroyed_on.append(threading.get_ident()))
    alive = weakref.ref(worker)
    del worker
    qtbot.waitUntil(lambda: results == [42] and runner.busy == 0, timeout=10_000)
    qtbot.wait(300)  # the pool thread has deleted its runnable by now
    assert alive() is not None and destroyed_on == []

    assert runner.wait(5_000)
    gc.collect()
    qtbot.wait(100)
    # superqt's worker may stay referenced by `warnings.showwarning` (it swaps that global
    # from the worker thread); when it is freed, it is freed here.
    assert set(destroyed_on) <= {threading.get_ident()}
