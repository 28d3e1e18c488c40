"""Screenshots of the app with a short demo conversation, for release checks and the README.

`chartside --screenshot FILE.png` saves the main window (chat, alert, sources) in the UI
language of the settings. `python -m app.screenshot --all DIR` saves every main screen in
Korean and English (the README shows those of `docs/screenshots`). Both drive the real window through its widgets, against the
in-memory `DemoEngine`, so no model, index or patient file is touched and nothing is
written except the PNG files.
"""

from __future__ import annotations

import argparse
import os
import secrets
import sys
import time
from pathlib import Path
from typing import Callable

from PySide6.QtCore import QEventLoop
from PySide6.QtWidgets import QApplication, QWidget

from app.demo import DEMO_QUESTION, DemoEngine
from app.main_window import MainWindow
from app.workers import EngineRunner, retire
from engine.settings import Settings

DEMO_PATIENT = {"ko": "김하늘 (데모)", "en": "Alex Kim (demo)"}
WINDOW_SIZE = (1320, 820)


def pump(predicate: Callable[[], bool], timeout: float = 15.0) -> None:
    """Process events until `predicate()` holds (screenshots run without app.exec())."""
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise TimeoutError("the demo window did not reach the expected state")
        QApplication.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 50)
        time.sleep(0.005)
    QApplication.processEvents()


def settle(seconds: float = 0.2) -> None:
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        QApplication.processEvents(QEventLoop.ProcessEventsFlag.AllEvents, 20)
        time.sleep(0.01)


def save(widget: QWidget, path: Path) -> Path:
    settle()
    path.parent.mkdir(parents=True, exist_ok=True)
    if not widget.grab().save(str(path)):
        raise OSError(f"could not write {path}")
    return path


class DemoSession:
    """A main window over a DemoEngine, driven step by step."""

    def __init__(self, language: str):
        settings = Settings()
        settings.ui.language = language
        self.language = language
        self.engine = DemoEngine(settings)
        self.runner = EngineRunner()
        self.window = MainWindow(self.engine, self.runner)
        self.window.resize(*WINDOW_SIZE)
        self.window.show()
        self.window.start()
        page = self.window.unlock_page
        pump(lambda: page.button.isEnabled())

    def unlock(self) -> None:
        page = self.window.unlock_page
        passphrase = secrets.token_urlsafe(16)
        page.passphrase.setText(passphrase)
        page.confirmation.setText(passphrase)
        page.button.click()
        pump(lambda: self.window.workspace is not None)

    def add_patient_and_ask(self) -> None:
        workspace = self.window.workspace
        workspace.patients.create_patient(DEMO_PATIENT[self.language])
        pump(lambda: workspace.chat.session_id is not None)
        workspace.chat.send(DEMO_QUESTION[self.language])
        pump(lambda: not workspace.chat.running and bool(workspace.chat.turn_views())
             and workspace.chat.turn_views()[-1].result is not None)
        pump(lambda: bool(workspace.profile.profile))
        pump(lambda: self.window.services_ready)

    def close(self) -> None:
        self.window.idle.stop()
        self.window.close()
        self.runner.wait(5_000)
        retire(self.window)
        QApplication.processEvents()


def save_demo_screenshot(path: str, language: str = "ko") -> int:
    """The `--screenshot` contract: main window with a demo conversation, exit code 0."""
    session = DemoSession(language)
    try:
        session.unlock()
        session.add_patient_and_ask()
        save(session.window, Path(path))
    finally:
        session.close()
    print(f"screenshot saved: {path}")
    return 0


def save_all(folder: Path, languages: tuple[str, ...] = ("ko", "en")) -> list[Path]:
    """Every main screen, in each language: unlock (create), chat + sources, profile,
    trace, settings, knowledge base, about."""
    from app.i18n import UiLanguage

    ui = UiLanguage(QApplication.instance())
    saved: list[Path] = []
    for language in languages:
        ui.set(language)
        session = DemoSession(language)
        try:
            window = session.window
            window.unlock_page.passphrase.setText("correct horse battery staple")
            saved.append(save(window, folder / f"{language}-1-create-store.png"))
            window.unlock_page.passphrase.clear()
            session.unlock()
            session.add_patient_and_ask()
            workspace = window.workspace
            workspace.side.setCurrentWidget(workspace.sources)
            saved.append(save(window, folder / f"{language}-2-chat-sources.png"))
            workspace.side.setCurrentWidget(workspace.profile)
            saved.append(save(window, folder / f"{language}-3-profile.png"))
            workspace.side.setCurrentWidget(workspace.trace)
            saved.append(save(window, folder / f"{language}-4-trace.png"))
            window.open_settings()
            dialog = window.settings_dialog
            pump(lambda: dialog.models != [])
            saved.append(save(dialog, folder / f"{language}-5-settings-models.png"))
            dialog.tabs.setCurrentIndex(2)
            saved.append(save(dialog, folder / f"{language}-6-settings-features.png"))
            dialog.reject()
            window.open_knowledge()
            saved.append(save(window.knowledge_dialog, folder / f"{language}-7-knowledge-base.png"))
            window.knowledge_dialog.close()
            window.open_about()
            saved.append(save(window.about_dialog, folder / f"{language}-8-about.png"))
            window.about_dialog.close()
            window.lock()
            pump(lambda: window.unlock_page.button.isEnabled())
            saved.append(save(window, folder / f"{language}-9-locked.png"))
        finally:
            session.close()
    return saved


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m app.screenshot", description=__doc__.splitlines()[0])
    parser.add_argument("--all", metavar="DIR", help="save every main screen in Korean and English into DIR")
    parser.add_argument("--language", choices=("ko", "en"), default="ko")
    parser.add_argument("file", nargs="?", help="save the main window to FILE.png")
    args = parser.parse_args(argv)
    if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    from app.main import application

    application()
    if args.all:
        for path in save_all(Path(args.all)):
            print(path)
        return 0
    if not args.file:
        parser.error("give FILE.png or --all DIR")
    from app.i18n import UiLanguage

    UiLanguage(QApplication.instance()).set(args.language)
    return save_demo_screenshot(args.file, args.language)


if __name__ == "__main__":
    sys.exit(main())
