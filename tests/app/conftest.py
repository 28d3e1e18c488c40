"""GUI test fixtures: one QApplication with the CJK font, English UI unless a test asks
for Korean, and windows over the real engine: with the default model, or the demo engine
(engine.demo: the real engine with the scripted fake model, a throw-away vault and a tiny
knowledge base). The embedder and the clinical pack are loaded once per test session."""

from __future__ import annotations

import gc
import time
from pathlib import Path

import pytest
from PySide6.QtCore import QEvent
from PySide6.QtWidgets import QApplication

import engine  # noqa: F401  (offline switches first)
from app.i18n import UiLanguage
from app.main import application
from app.main_window import MainWindow
from app.workers import EngineRunner

SCREENSHOTS = Path(__file__).parent / "screenshots"


@pytest.fixture(scope="session", autouse=True)
def chartside_qapp():
    """Created before pytest-qt's `qapp`, so every GUI test gets the app's font."""
    return application()


@pytest.fixture(autouse=True)
def destroy_earlier_windows(chartside_qapp):
    """Windows that pytest-qt closed after an earlier test are destroyed now, before this
    test starts workers, with the collector paused (see app.workers.retire)."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        QApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete)
    finally:
        if enabled:
            gc.enable()


@pytest.fixture
def ui_language(chartside_qapp):
    language = UiLanguage(chartside_qapp)
    language.set("en")
    yield language
    language.set("en")


@pytest.fixture(scope="session")
def demo_embedder():
    """The real sentence-transformers embedder, loaded once for every demo engine."""
    from engine.knowledge import make_embedder
    from engine.settings import Settings

    return make_embedder(Settings())


@pytest.fixture(scope="session")
def demo_knowledge(tmp_path_factory, demo_embedder):
    """The demo's knowledge base, built once; each demo engine works on a copy."""
    from engine.demo import build_knowledge_base, demo_settings

    folder = tmp_path_factory.mktemp("demo") / "knowledge"
    build_knowledge_base(folder, demo_embedder, demo_settings()).close()
    return folder


@pytest.fixture
def make_demo_engine(demo_embedder, demo_knowledge, clinical_pack):
    """Demo engines sharing this session's embedder, knowledge base (copied) and clinical
    pack (the process pack). Call it as `make_demo_engine(settings=None, token_delay=0.0)`."""
    from engine.demo import demo_engine

    engines = []

    def make(settings=None, token_delay: float = 0.0):
        engines.append(demo_engine(settings, token_delay=token_delay, embedder=demo_embedder,
                                   knowledge_from=demo_knowledge))
        return engines[-1]
    yield make
    for made in engines:
        made.close()


@pytest.fixture
def fake_engine(make_demo_engine):
    """The demo engine: the real engine with the scripted fake model (engine.demo)."""
    return make_demo_engine()


def open_window(qtbot, engine_) -> MainWindow:
    runner = EngineRunner()
    window = MainWindow(engine_, runner)
    runner.setParent(window)
    qtbot.addWidget(window)
    window.resize(1320, 820)
    window.show()
    window.start()
    qtbot.waitUntil(lambda: window.unlock_page.button.isEnabled(), timeout=10_000)
    window._test_runner = runner
    return window


def unlock(qtbot, window: MainWindow, passphrase: str = "correct horse battery staple") -> None:
    page = window.unlock_page
    page.passphrase.setText(passphrase)
    if page.creating:
        page.confirmation.setText(passphrase)
    page.button.click()
    qtbot.waitUntil(lambda: window.workspace is not None, timeout=20_000)


def add_patient(qtbot, window: MainWindow, name: str) -> dict:
    workspace = window.workspace
    workspace.patients.create_patient(name)
    qtbot.waitUntil(lambda: (workspace.patients.current_patient() or {}).get("name") == name
                    and workspace.chat.session_id is not None, timeout=10_000)
    return workspace.patients.current_patient()


def wait_turn(qtbot, window: MainWindow, timeout: int = 60_000) -> dict:
    chat = window.workspace.chat
    qtbot.waitUntil(lambda: not chat.running, timeout=timeout)
    return chat.turn_views()[-1].result


def close_window(window: MainWindow, timeout: float = 180.0) -> None:
    """Close, then let running calls (a warm-up loading models, a lock) finish while events
    are processed, so their results are delivered before the window is deleted."""
    window.close()
    runner = window._test_runner
    end = time.monotonic() + timeout
    while runner.busy and time.monotonic() < end:
        QApplication.processEvents()
        time.sleep(0.01)
    runner.wait(20_000)


@pytest.fixture
def demo_window(qtbot, ui_language, fake_engine):
    window = open_window(qtbot, fake_engine)
    yield window
    close_window(window)


def wait_seconds(seconds: float) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        QApplication.processEvents()
        time.sleep(0.005)
