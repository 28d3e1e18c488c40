"""`chartside` (no command) opens the app; `chartside --screenshot FILE.png` photographs it.

Start-up does only cheap work before the window shows: the font, the translator and an
`Engine` whose services load lazily. Checking the store and the device, loading models
and indexes all happen in workers after the window is up.
"""

from __future__ import annotations

import os

from PySide6.QtCore import QObject
from PySide6.QtWidgets import QMessageBox

from app.i18n import UiLanguage
from app.main_window import MainWindow
from app.qt_app import application
from app.system_check import check_display_libraries
from app.workers import EngineRunner, retire
from engine.errors import ConfigError
from engine.settings import Settings, load_settings

SHUTDOWN_WAIT_MS = 15_000
class Shell(QObject):
    """Owns the engine, the worker runner and the current main window; rebuilds the window
    when the UI language changes (keeping the store unlocked and the patient selected)."""

    def __init__(self, engine, language: UiLanguage, parent: QObject | None = None):
        super().__init__(parent)
        self.engine = engine
        self.language = language
        # Not parented to the shell: windows and panels hold it, so it lives as long as
        # anything that can still start a call.
        self.runner = EngineRunner()
        self.window: MainWindow | None = None

    def open_window(self) -> MainWindow:
        window = MainWindow(self.engine, self.runner)
        window.language_changed.connect(self.change_language)
        self.window = window
        window.show()
        window.start()
        return window

    def change_language(self, language: str) -> None:
        if language == self.language.language:
            return
        self.language.set(language)
        old = self.window
        patient = old.workspace.current_patient() if old and old.workspace else None
        geometry = old.saveGeometry() if old else None
        if old is not None:
            old.language_changed.disconnect(self.change_language)
            old.idle.stop()
            old.hide()
            retire(old)
        window = self.open_window()
        if geometry is not None:
            window.restoreGeometry(geometry)
        if patient is not None and window.workspace is not None:
            window.workspace.patients.reload(select_id=patient["id"])

    def shutdown(self) -> None:
        """Stop a running turn, then close the engine on its own worker thread."""
        self.engine.turns.cancel()
        self.runner.call(self, self.engine.close)
        self.runner.wait(SHUTDOWN_WAIT_MS)


def _settings_or_defaults() -> tuple[Settings, str | None]:
    try:
        return load_settings(), None
    except ConfigError as exc:
        return Settings(), exc.user_message


def run_app(screenshot: str | None = None) -> int:
    """Open the desktop app (blocking until it closes), or save a screenshot and exit."""
    if screenshot and not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    check_display_libraries()
    app = application()
    settings, settings_problem = _settings_or_defaults()
    language = UiLanguage(app)
    language.set(settings.ui.language)
    if screenshot:
        from app.screenshot import save_demo_screenshot

        return save_demo_screenshot(screenshot, settings.ui.language)
    from engine.facade import Engine

    from app.e2e_hook import install_if_asked

    install_if_asked(app)
    shell = Shell(Engine(settings), language)
    window = shell.open_window()
    if settings_problem:
        QMessageBox.warning(window, "Chartside", settings_problem)
    try:
        return app.exec()
    finally:
        shell.shutdown()
