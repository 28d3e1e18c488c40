"""Screenshots of the app with a short demo conversation, for release checks and the README.

`chartside --screenshot FILE.png` saves the main window (chat, alert, sources) in the UI
language of the settings. `python -m app.screenshot --all DIR` saves every main screen in
Korean and English (the README shows those of `docs/screenshots`). Both drive the real window
through its widgets, against the demo engine (`engine.demo`: the real engine with the
scripted fake model, a throw-away vault and a tiny knowledge base in a temporary folder that
is deleted afterwards), so no model file, index or patient file of the user is touched and
nothing is kept except the PNG files. `python -m app.screenshot --real DIR` (`make screenshots`)
photographs the same window over the real engine: the default model answering a real
question from the installed knowledge base, in English and in Korean.
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

from engine.demo import DEMO_QUESTION, demo_engine
from app.main_window import MainWindow
from app.qt_app import application
from app.workers import EngineRunner, retire
from engine.settings import Settings

DEMO_PATIENT = {"ko": "김하늘 (데모)", "en": "Alex Kim (demo)"}
WINDOW_SIZE = (1320, 820)
DEMO_TURN_SECONDS = 180


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


def open_last_citation(workspace) -> None:
    """Click the `[n]` of the answer's last cited sentence, as a reader checking it would:
    the Sources tab then shows the sentence of the source that backs it."""
    view = workspace.chat.turn_views()[-1]
    cited = [(index, record["source"]) for index, record in enumerate(view.sentence_records())
             if record.get("kind") == "sourced" and record.get("source") is not None
             and f"(cite:{record['source']}:{index})" in view.answer.text()]
    if cited:
        index, number = cited[-1]
        view.answer.linkActivated.emit(f"cite:{number}:{index}")
    workspace.side.setCurrentWidget(workspace.sources)


class DemoSession:
    """A main window over a demo engine, driven step by step (`embedder`: one to share
    between sessions, by default the engine loads its own)."""

    def __init__(self, language: str, embedder=None):
        settings = Settings()
        settings.ui.language = language
        self.language = language
        self.engine = demo_engine(settings, embedder=embedder)
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
             and workspace.chat.turn_views()[-1].result is not None, DEMO_TURN_SECONDS)
        pump(lambda: bool(workspace.profile.profile))
        pump(lambda: self.window.services_ready, DEMO_TURN_SECONDS)

    def close(self) -> None:
        self.window.idle.stop()
        self.window.close()
        while self.runner.busy:
            settle(0.1)
        self.runner.wait(30_000)
        self.engine.close()
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
    print(f"screenshot saved: {path}", flush=True)
    return 0


def save_all(folder: Path, languages: tuple[str, ...] = ("ko", "en")) -> list[Path]:
    """Every main screen, in each language: unlock (create), chat + sources, profile,
    trace, settings, knowledge base, about."""
    from app.i18n import UiLanguage

    ui = UiLanguage(QApplication.instance())
    saved: list[Path] = []
    embedder = None
    for language in languages:
        ui.set(language)
        session = DemoSession(language, embedder)
        embedder = session.engine.embedder
        try:
            window = session.window
            window.unlock_page.passphrase.setText("correct horse battery staple")
            saved.append(save(window, folder / f"{language}-1-create-store.png"))
            window.unlock_page.passphrase.clear()
            session.unlock()
            session.add_patient_and_ask()
            workspace = window.workspace
            open_last_citation(workspace)
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


REAL_QUESTION = {"en": "What helps a sore throat?", "ko": "목이 아프고 열이 나요. 어떻게 해야 하나요?"}
REAL_PATIENT = {"en": "Test patient", "ko": "테스트 환자"}
REAL_TURN_SECONDS = 600


def save_real_screenshots(folder: Path, languages: tuple[str, ...] = ("en", "ko")) -> list[Path]:
    """The window over the real engine: the default model answering a real question from the
    installed knowledge base, one PNG per language (`real-en.png`, `real-ko.png`). The patient
    store is a throw-away one in a temporary folder and the answer cache is off, so nothing
    is written to the data folder."""
    import tempfile

    from app.i18n import UiLanguage
    from engine.facade import Engine
    from engine.settings import load_settings

    ui = UiLanguage(QApplication.instance())
    saved: list[Path] = []
    for language in languages:
        ui.set(language)
        settings = load_settings()
        settings.ui.language = language
        settings.features.response_cache = False
        with tempfile.TemporaryDirectory(prefix="chartside-screenshot-") as scratch:
            engine = Engine(settings, vault_path=Path(scratch) / "vault.db")
            runner = EngineRunner()
            window = MainWindow(engine, runner)
            window.resize(*WINDOW_SIZE)
            window.show()
            window.start()
            try:
                pump(lambda: window.services_ready and window.unlock_page.button.isEnabled(), REAL_TURN_SECONDS)
                page = window.unlock_page
                page.passphrase.setText(secrets.token_urlsafe(16))
                page.confirmation.setText(page.passphrase.text())
                page.button.click()
                pump(lambda: window.workspace is not None, 60)
                workspace = window.workspace
                workspace.patients.create_patient(REAL_PATIENT[language])
                pump(lambda: workspace.chat.session_id is not None and workspace.current_session() is not None, 60)
                workspace.chat.send(REAL_QUESTION[language])
                pump(lambda: not workspace.chat.running and workspace.chat.turn_views()[-1].result is not None,
                     REAL_TURN_SECONDS)
                open_last_citation(workspace)
                saved.append(save(window, folder / f"real-{language}.png"))
            finally:
                window.idle.stop()
                window.close()
                while runner.busy:
                    settle(0.1)
                runner.wait(30_000)
                engine.close()
                retire(window)
                QApplication.processEvents()
    return saved


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m app.screenshot", description=__doc__.splitlines()[0])
    parser.add_argument("--all", metavar="DIR", help="save every main screen in Korean and English into DIR")
    parser.add_argument("--real", metavar="DIR", help="save the window over the real engine and default model, "
                        "answering a real question in English and Korean, into DIR/real-{en,ko}.png")
    parser.add_argument("--language", choices=("ko", "en"), default="ko")
    parser.add_argument("file", nargs="?", help="save the main window to FILE.png")
    args = parser.parse_args(argv)
    if not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY"):
        os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    application()
    if args.all or args.real:
        for path in save_all(Path(args.all)) if args.all else []:
            print(path)
        for path in save_real_screenshots(Path(args.real)) if args.real else []:
            print(path)
        return 0
    if not args.file:
        parser.error("give FILE.png or --all DIR")
    from app.i18n import UiLanguage

    UiLanguage(QApplication.instance()).set(args.language)
    return save_demo_screenshot(args.file, args.language)


if __name__ == "__main__":
    sys.exit(main())
