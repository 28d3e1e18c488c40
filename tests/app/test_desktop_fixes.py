"""What a clinician noticed in a real window, checked offscreen: missing X libraries named
before Qt aborts, unlock back to the open patient and conversation, save dialogs in the
Documents folder with Qt's Korean labels, conversations titled from their first question
(and renamed), the token-budget figures beside (not over) the bar, Ctrl+Q, and the
progress/ETA line under a streaming answer.

Titles and restore run over the real engine facade with the real encrypted store (the
language model is the scripted FakeLLM); the rest over the demo engine (engine.demo)."""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest
from PySide6.QtCore import QCoreApplication, Qt, QTimer
from PySide6.QtGui import QKeySequence
from PySide6.QtTest import QTest
from PySide6.QtWidgets import QApplication, QFileDialog, QInputDialog, QLabel

from app import folders
from app.panels.chat import AnswerProgress
from app.panels.patients import session_title
from app.system_check import advice, check_display_libraries, debian_package
from engine.demo import DEMO_QUESTION
from engine.facade import Engine
from engine.llm.fake import FakeLLM
from engine.settings import Settings

from tests.app.conftest import add_patient, close_window, open_window, unlock, wait_turn
from tests.engine.agent.fakes import FakeClinical, FakeKnowledge

REPO = Path(__file__).parents[2]


# -- missing system libraries -----------------------------------------------------------------
def fake_ldd(folder: Path, missing: list[str]) -> Path:
    """An `ldd` on PATH that reports `missing` as not found (what a bare desktop shows)."""
    folder.mkdir(parents=True, exist_ok=True)
    script = folder / "ldd"
    lines = "\n".join(f"echo '\t{name} => not found'" for name in missing)
    script.write_text(f"#!/bin/sh\necho '\tlibc.so.6 => /lib/libc.so.6'\n{lines}\n", encoding="utf-8")
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    return folder


def test_package_names_follow_debian_naming():
    assert debian_package("libxcb-cursor.so.0") == "libxcb-cursor0"
    assert debian_package("libxkbcommon-x11.so.0") == "libxkbcommon-x11-0"
    assert debian_package("libxcb-render-util.so.0") == "libxcb-render-util0"
    assert debian_package("libEGL.so.1") == "libegl1"
    assert debian_package("libglib-2.0.so.0") == "libglib2.0-0"
    text = advice(["libxcb-cursor.so.0", "libxcb-icccm.so.4"])
    assert "sudo apt-get install -y libxcb-cursor0 libxcb-icccm4" in text


def test_the_real_plugin_resolves_here(monkeypatch):
    """On this machine (the libraries installed) the check finds nothing and says nothing."""
    monkeypatch.setenv("DISPLAY", ":0")
    monkeypatch.delenv("QT_QPA_PLATFORM", raising=False)
    monkeypatch.delenv("WAYLAND_DISPLAY", raising=False)
    assert check_display_libraries() == []


def test_app_names_missing_libraries_before_qt_aborts(tmp_path):
    """`chartside` on an X display whose xcb libraries are missing: the apt line is printed
    first; then Qt fails as it would (here: no X server on that display)."""
    env = {**os.environ, "DISPLAY": ":97", "CHARTSIDE_HOME": str(tmp_path / "home")}
    env.pop("QT_QPA_PLATFORM", None)
    env.pop("WAYLAND_DISPLAY", None)
    env["PATH"] = f"{fake_ldd(tmp_path / 'bin', ['libxcb-cursor.so.0'])}{os.pathsep}{env['PATH']}"
    done = subprocess.run([sys.executable, "-m", "app.entry"], cwd=REPO, env=env, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode != 0
    assert "libxcb-cursor.so.0  (package libxcb-cursor0)" in done.stderr
    assert done.stderr.index("sudo apt-get install -y libxcb-cursor0") < done.stderr.index("Could not load the Qt platform")


# -- the real store: titles and unlock -----------------------------------------------------------
@pytest.fixture
def store_window(qtbot, ui_language, tmp_path):
    settings = Settings()
    settings.vault.kdf_iterations = 10_000
    engine = Engine(settings, llm=FakeLLM(["Rest and fluids help [1].", "Paracetamol can ease it [1]."]),
                    knowledge=FakeKnowledge(), clinical=FakeClinical(), embedder=None,
                    vault_path=tmp_path / "vault.db")
    window = open_window(qtbot, engine)
    yield window
    close_window(window)


def session_texts(window) -> list[str]:
    sessions = window.workspace.patients.sessions
    return [sessions.item(row).text().split("\n")[0] for row in range(sessions.count())]


def test_conversation_titled_from_first_question_then_renamed(qtbot, store_window):
    window = store_window
    unlock(qtbot, window)
    patient = add_patient(qtbot, window, "Test Patient 02")
    workspace = window.workspace
    assert session_texts(window) == ["New conversation"]
    workspace.chat.send("  My throat has been sore for three days,\nwhat should I do?")
    assert session_texts(window) == ["My throat has been sore for three days,"], "titled at once"
    wait_turn(qtbot, window)
    workspace.chat.send("Can I take paracetamol?")
    wait_turn(qtbot, window)
    qtbot.waitUntil(lambda: window.engine.patients.list_sessions(patient["id"])[0]["title"]
                    == "My throat has been sore for three days,", timeout=10_000)
    assert session_texts(window) == ["My throat has been sore for three days,"], "the second question kept it"

    workspace.patients.prompt_rename_session()
    dialog = workspace.patients.findChild(QInputDialog, "renameSessionPrompt")
    assert dialog.textValue() == "My throat has been sore for three days,"
    dialog.setTextValue("인후통 상담")
    dialog.accept()
    qtbot.waitUntil(lambda: session_texts(window) == ["인후통 상담"], timeout=10_000)
    assert window.engine.patients.list_sessions(patient["id"])[0]["title"] == "인후통 상담"


def test_titles_are_cut_at_a_word():
    long = "Is it safe to take ibuprofen together with my blood pressure tablets every morning?"
    title = session_title(long)
    assert title.endswith("…") and len(title) <= 49 and long.startswith(title[:-1])
    assert session_title("열이 나고 목이 아파요") == "열이 나고 목이 아파요"


def test_unlock_returns_to_the_open_patient_and_conversation(qtbot, store_window):
    window = store_window
    unlock(qtbot, window)
    add_patient(qtbot, window, "Test Patient 03")
    first = add_patient(qtbot, window, "Test Patient 04")
    workspace = window.workspace
    qtbot.waitUntil(lambda: workspace.current_session() is not None
                    and workspace.chat.session_id == workspace.current_session()["id"], timeout=10_000)
    workspace.chat.send("First conversation question")
    wait_turn(qtbot, window)
    first_session = workspace.current_session()["id"]
    workspace.patients.start_session()
    qtbot.waitUntil(lambda: workspace.patients.sessions.count() == 2 and workspace.chat.session_id != first_session,
                    timeout=10_000)
    workspace.patients.sessions.setCurrentRow(next(
        row for row in range(2) if workspace.patients.sessions.item(row).data(Qt.ItemDataRole.UserRole)["id"]
        == first_session))
    qtbot.waitUntil(lambda: len(workspace.chat.turn_views()) == 1, timeout=10_000)

    window.lock()
    qtbot.waitUntil(lambda: window.engine.patients.is_locked, timeout=10_000)
    unlock(qtbot, window)
    workspace = window.workspace
    qtbot.waitUntil(lambda: (workspace.current_patient() or {}).get("id") == first["id"]
                    and workspace.chat.session_id == first_session, timeout=10_000)
    qtbot.waitUntil(lambda: [v.question.text() for v in workspace.chat.turn_views()]
                    == ["First conversation question"], timeout=10_000)
    assert workspace.chat.header.text() == "Patient: Test Patient 04"


# -- dialogs -----------------------------------------------------------------------------------
def test_save_dialog_opens_in_documents_with_korean_labels(qtbot, ui_language, tmp_path, monkeypatch,
                                                           make_demo_engine):
    home = tmp_path / "user"
    (home / "Documents").mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("XDG_DOCUMENTS_DIR", raising=False)
    folders.forget()
    ui_language.set("ko")
    window = open_window(qtbot, make_demo_engine())
    seen = {}

    def inspect_dialog():
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, QFileDialog):
            QTimer.singleShot(50, inspect_dialog)
            return
        seen["folder"] = dialog.directory().absolutePath()
        seen["labels"] = [label.text() for label in dialog.findChildren(QLabel) if label.text()]
        seen["file"] = dialog.selectedFiles()
        dialog.reject()

    try:
        unlock(qtbot, window)
        add_patient(qtbot, window, "김하늘")
        window.workspace.chat.send(DEMO_QUESTION["ko"])
        wait_turn(qtbot, window)
        QTimer.singleShot(50, inspect_dialog)
        window.export_conversation_action.trigger()
        assert seen["folder"] == str(home / "Documents")
        assert seen["file"] == [str(home / "Documents" / "conversation.md")]
        assert "다음에서 찾기(&L):" in seen["labels"] and "파일 형식(&T):" in seen["labels"]
        assert all(not label.isascii() for label in seen["labels"]), seen["labels"]
    finally:
        close_window(window)


def test_open_dialogs_start_in_documents_then_where_the_user_was(qtbot, demo_window, tmp_path, monkeypatch):
    home = tmp_path / "user"
    (home / "Documents").mkdir(parents=True)
    (home / "notes").mkdir()
    monkeypatch.setenv("HOME", str(home))
    folders.forget()
    asked = []

    def open_files(parent, title, folder, filters):
        asked.append(folder)
        return [str(home / "notes" / "clinic-note.txt")], filters

    monkeypatch.setattr(QFileDialog, "getOpenFileNames", staticmethod(open_files))
    demo_window.open_knowledge()
    dialog = demo_window.knowledge_dialog
    monkeypatch.setattr(dialog, "add", lambda paths: None)
    dialog.choose_files()
    dialog.choose_files()
    dialog.close()
    assert asked == [str(home / "Documents"), str(home / "notes")]


# -- layout, quit, progress --------------------------------------------------------------------
def test_token_budget_figures_sit_below_the_bar(qtbot, demo_window):
    unlock(qtbot, demo_window)
    add_patient(qtbot, demo_window, "Alex Kim")
    workspace = demo_window.workspace
    workspace.chat.send(DEMO_QUESTION["en"])
    wait_turn(qtbot, demo_window)
    workspace.side.setCurrentWidget(workspace.trace)
    trace = workspace.trace
    qtbot.waitUntil(lambda: trace.tokens_text.isVisible(), timeout=5_000)
    assert not trace.tokens.isTextVisible()
    assert "of 4000" in trace.tokens_text.text() and trace.tokens.value() > 0
    bar = trace.tokens.geometry()
    label = trace.tokens_text.geometry()
    assert not bar.intersects(label) and label.top() >= bar.bottom()


def test_ctrl_q_quits_from_the_composer(qtbot, demo_window, monkeypatch):
    quits = []
    monkeypatch.setattr(QCoreApplication, "quit", staticmethod(lambda: quits.append(True)))
    unlock(qtbot, demo_window)
    demo_window.activateWindow()
    composer = demo_window.workspace.chat.composer
    composer.setFocus()
    qtbot.waitUntil(lambda: composer.hasFocus(), timeout=5_000)
    standard = QKeySequence.keyBindings(QKeySequence.StandardKey.Quit)   # empty on the offscreen platform
    assert demo_window.quit_action.shortcut() in (standard or [QKeySequence("Ctrl+Q")])
    assert demo_window.quit_action.shortcutContext() == Qt.ShortcutContext.ApplicationShortcut
    QTest.keyClick(composer, Qt.Key.Key_Q, Qt.KeyboardModifier.ControlModifier)
    qtbot.waitUntil(lambda: bool(quits), timeout=5_000)
    assert not demo_window.isVisible() and demo_window.workspace is None


def test_progress_numbers():
    progress = AnswerProgress(max_tokens=200, started=100.0)
    assert progress.rate() is None and progress.seconds_left() is None
    for index in range(21):
        progress.token(now=110.0 + index * 0.5)
    assert progress.tokens == 21
    assert progress.rate() == pytest.approx(2.0)
    assert progress.seconds_left() == pytest.approx((200 - 21) / 2.0)
    assert progress.waited(now=125.0) == pytest.approx(25.0)


def test_progress_line_under_a_streaming_answer(qtbot, ui_language, tmp_path, make_demo_engine):
    """Plain chat (llm mode): the model's words are shown as they stream."""
    settings = Settings()
    settings.mode = "llm"
    settings.llm.max_answer_tokens = 300
    window = open_window(qtbot, make_demo_engine(settings, token_delay=0.03))
    try:
        unlock(qtbot, window)
        add_patient(qtbot, window, "Alex Kim")
        chat = window.workspace.chat
        chat.send(DEMO_QUESTION["en"])
        view = chat.turn_views()[-1]
        assert view.status.text().startswith("Searching the sources and preparing the answer…")
        qtbot.waitUntil(lambda: "tokens/s" in view.status.text(), timeout=20_000)
        line = view.status.text()
        assert line.startswith("Writing: ") and "tokens so far" in line and "at most about" in line
        wait_turn(qtbot, window)
        assert view.status.text().endswith(" s.") and "tokens in" in view.status.text()
    finally:
        close_window(window)
