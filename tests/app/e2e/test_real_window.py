"""The desktop app as a clinician uses it: the real `chartside` process in a real X server
(Xvfb), driven with real mouse and keyboard events (xdotool), over the real engine — the
default GGUF model through llama.cpp, SQLCipher, the MedCAT pack and a small real
knowledge index (MedQuAD/LiveQA records picked at test time, embedded with MiniLM) in a
temporary CHARTSIDE_HOME.

First run (English UI): create the store, add a patient, ask in English (a progress line
shows while it runs; the conversation takes the question as its title), ask in Korean
(typed as committed Hangul), lock (nothing of the patient stays on screen), a wrong then
the right passphrase (back to the patient and conversation), export through the save
dialog (opens in Documents), Ctrl+Q. Restart (Korean UI): the patient, the titled
conversation and its turns are still there; in a new conversation a long answer streams
with its progress line (tokens, speed, time left) and Stop ends it, keeping what came.

Assertions read what the window shows through the app's opt-in window dump
(`app.e2e_hook`) and check the screenshots for content. Screenshots and app logs of each
run stay in tests/app/screenshots/e2e/<time>/ (or $CHARTSIDE_E2E_ARTEFACTS)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from PySide6.QtGui import QImage

from engine.settings import Settings, save_settings

from tests.app.conftest import SCREENSHOTS
from tests.app.e2e.xsession import INSTALL_HINT, REPO, AppProcess, XServer, missing_tools
from tests.app.test_real_engine import write_small_corpus

pytestmark = [pytest.mark.slow, pytest.mark.real_model]

PASSPHRASE = "correct horse 42"
PATIENT = "Test Patient E2E"
ENGLISH_QUESTION = "What helps a sore throat?"
KOREAN_QUESTION = "목이 아프고 열이 나요. 어떻게 해야 하나요?"
LONG_QUESTION = "Explain in detail how blood pressure is measured at home, step by step."
ANSWER_TOKENS = 160
TURN_TIMEOUT = 240
KEEP_RUNS = 5
RETAKES = 3
PROGRESS = ("Searching the sources and preparing the answer…", "Writing: ")


def artefacts_dir() -> Path:
    configured = os.environ.get("CHARTSIDE_E2E_ARTEFACTS")
    root = Path(configured) if configured else SCREENSHOTS / "e2e"
    root.mkdir(parents=True, exist_ok=True)
    for old in sorted(p for p in root.iterdir() if p.is_dir())[:-(KEEP_RUNS - 1)]:
        shutil.rmtree(old, ignore_errors=True)
    run = root / time.strftime("%Y%m%d-%H%M%S")
    run.mkdir()
    return run


MIN_VISIBLE_PX = 20  # about one line of text


def dark_share(image: QImage, rect: list[int]) -> float:
    """The share of dark pixels (text) inside `rect` of a screenshot."""
    x0, y0, width, height = rect
    dark = total = 0
    for y in range(max(0, y0), min(image.height(), y0 + height), 2):
        for x in range(max(0, x0), min(image.width(), x0 + width), 2):
            colour = image.pixelColor(x, y)
            total += 1
            dark += colour.lightness() < 110
    return dark / max(1, total)


def screenshot_problem(path: Path, text_rects: list[list[int]]) -> str | None:
    """Why the screenshot is not right (blank, or no text where the window says there is
    text), or None."""
    if not path.exists():
        return f"no screenshot {path}"
    image = QImage(str(path))
    if image.isNull() or image.width() < 1000:
        return f"{path.name} is not a screen image"
    colours = {image.pixel(x, y) for x in range(0, image.width(), 7) for y in range(0, image.height(), 7)}
    if len(colours) <= 20:
        return f"{path.name} looks blank ({len(colours)} colours)"
    for rect in text_rects:
        # Each rectangle is the part of a widget on screen; one scrolled (mostly) out of the view, a
        # question above a long answer, shows too little of itself to judge.
        if visible_height(image, rect) < MIN_VISIBLE_PX:
            continue
        if dark_share(image, rect) <= 0.005:
            return f"no text drawn in {rect} of {path.name}"
    return None


def visible_height(image: QImage, rect: list[int]) -> int:
    _, y0, _, height = rect
    return max(0, min(image.height(), y0 + height) - max(0, y0))


def photograph(app: AppProcess, name: str, with_text: Callable[[], list[dict]] = list) -> Path:
    """A screenshot checked for content: the widgets `with_text` finds (read from the window
    dump again after each shot, so a scroll between the two cannot stale their place) must show
    text where they are on screen. Retaken (up to 3 times, a second apart) when the window has
    not painted yet: while the warm-up imports torch or MedCAT, a repaint can wait for Python's
    GIL."""
    problem = None
    for attempt in range(RETAKES + 1):
        path = app.screenshot(name if attempt == 0 else f"{name}-retake{attempt}")
        problem = screenshot_problem(path, [widget["shown"] for widget in with_text()])
        if problem is None:
            return path
        time.sleep(1.0)
    raise AssertionError(problem)


@pytest.fixture(scope="module")
def e2e_home(tmp_path_factory):
    """A CHARTSIDE_HOME with the real clinical pack and a small real knowledge index, and a
    HOME with a Documents folder."""
    if sys.platform != "linux":
        pytest.skip("the real-window tests need Linux with Xvfb")
    missing = missing_tools()
    if missing:
        pytest.skip(f"no X server can run here: {', '.join(missing)} not installed ({INSTALL_HINT})")
    root = tmp_path_factory.mktemp("e2e")
    shared = write_small_corpus(root / "shared")
    env = {**os.environ, "CHARTSIDE_HOME": str(root / "home"), "CHARTSIDE_SHARED_DATA": str(shared),
           "PYTHONPATH": str(REPO)}
    for command in (["clinical", "build-pack"], ["kb", "build"]):
        done = subprocess.run([sys.executable, "-m", "app.entry", *command], cwd=REPO, env=env, capture_output=True,
                              text=True, timeout=600)
        assert done.returncode == 0, done.stderr[-2000:]
    (root / "user" / "Documents").mkdir(parents=True)
    return root


@pytest.fixture(scope="module")
def xserver(e2e_home):
    from app.system_check import missing_libraries, xcb_plugin

    plugin = xcb_plugin()
    missing = missing_libraries(plugin) if plugin else ["the PySide6 xcb plugin"]
    if missing:
        pytest.skip(f"Qt's xcb plugin cannot load here ({', '.join(missing)} missing; {INSTALL_HINT})")
    server = XServer(e2e_home / "xvfb.log")
    yield server
    server.stop()


def write_settings(home: Path, language: str, mode: str = "agent") -> None:
    settings = Settings()
    settings.mode = mode
    settings.ui.language = language
    settings.vault.kdf_iterations = 10_000
    settings.llm.max_answer_tokens = ANSWER_TOKENS
    home.mkdir(parents=True, exist_ok=True)
    save_settings(settings, home / "settings.toml")


def start_app(xserver: XServer, root: Path, artefacts: Path, run: str) -> AppProcess:
    env = {"CHARTSIDE_HOME": str(root / "home"), "CHARTSIDE_E2E_DUMP": str(root / "window.json"),
           "HOME": str(root / "user"), "XDG_CONFIG_HOME": str(root / "user" / ".config"),
           "CHARTSIDE_SHARED_DATA": str(root / "shared")}
    env.pop("XDG_DOCUMENTS_DIR", None)
    return AppProcess(xserver, env, artefacts, run)


def texts(app: AppProcess, name: str, dump: dict | None = None) -> list[str]:
    return [widget.get("text", "") for widget in app.find_all(name, dump)]


def ask(app: AppProcess, question: str) -> None:
    app.click(app.find("composer"))
    app.type_into("composer", question)
    app.key("Return")
    app.wait(lambda d: question in texts(app, "question", d), 20, "the question to show")


def wait_answered(app: AppProcess, count: int) -> None:
    app.wait(lambda d: len(app.find_all("answer", d)) == count and (app.find("sendButton", dump=d) or {})
             .get("enabled") and not (app.find("stopButton", dump=d) or {}).get("enabled"), TURN_TIMEOUT,
             f"answer {count}")


def test_first_run_questions_stop_lock_export_and_restart(e2e_home, xserver):
    artefacts = artefacts_dir()
    root = e2e_home
    write_settings(root / "home", "en")
    app = start_app(xserver, root, artefacts, "1-first-run")
    try:
        # -- first run: create the store --------------------------------------------------------
        app.wait(lambda d: (app.find("unlockButton", dump=d) or {}).get("enabled"), 60, "the unlock page")
        assert app.find("unlockTitle")["text"] == "Create the patient store"
        app.click(app.find("passphrase"))
        app.type(PASSPHRASE)
        app.click(app.find("confirmPassphrase"))
        app.type(PASSPHRASE)
        app.wait(lambda d: (app.find("confirmPassphrase", dump=d) or {}).get("length") == len(PASSPHRASE), 10,
                 "the repeated passphrase")
        assert app.find("strengthLabel")["text"]
        photograph(app, "create-store", lambda: [app.find("unlockTitle")])
        app.key("Return")
        app.wait_widget("workspace", 60)

        # -- a new patient, through the New button and its name prompt --------------------------
        app.click(app.find("newPatient"))
        prompt = app.wait(lambda d: app.window("newPatientPrompt"), 20, "the new-patient prompt")
        app.focus_window(prompt)
        app.type(PATIENT)
        app.key("Return")
        app.wait(lambda d: (app.find("chatHeader", dump=d) or {}).get("text") == f"Patient: {PATIENT}", 30,
                 "the patient's conversation")
        app.wait(lambda d: (app.find("knowledgeLabel", dump=d) or {}).get("text") == "Knowledge base: ready", 300,
                 "the warm-up")

        # -- English question: a progress line while it runs, then the answer --------------------
        ask(app, ENGLISH_QUESTION)
        app.wait(lambda d: any(t.startswith(PROGRESS) for t in texts(app, "turnStatus", d)), TURN_TIMEOUT,
                 "the progress line")
        wait_answered(app, 1)
        answer = app.find("answer")
        assert answer["text"].strip(), "an empty answer"
        sessions = app.find("sessionList")
        assert sessions["items"][0].split("\n")[0] == ENGLISH_QUESTION, "the conversation is titled by its question"
        photograph(app, "english-answer", lambda: [app.find("question"), app.find("answer")])

        # -- Korean question, typed as committed Hangul ------------------------------------------
        ask(app, KOREAN_QUESTION)
        wait_answered(app, 2)
        assert texts(app, "question")[-1] == KOREAN_QUESTION
        assert texts(app, "answer")[-1].strip()
        photograph(app, "korean-answer", lambda: [app.find_all("question")[-1], app.find_all("answer")[-1]])

        # -- lock: nothing of the patient on screen; wrong, then right passphrase ----------------
        app.focus_window(app.window("mainWindow"))
        app.key("ctrl+l")
        app.wait(lambda d: (app.find("unlockTitle", dump=d) or {}).get("text") == "Unlock Chartside", 30, "the lock")
        shown = [str(w.get("text", "")) + " ".join(w.get("items", [])) for w in app.widgets()]
        assert not any(PATIENT in text or ENGLISH_QUESTION in text for text in shown)
        photograph(app, "locked")
        app.wait(lambda d: (app.find("unlockButton", dump=d) or {}).get("enabled"), 30, "unlock enabled")
        app.click(app.find("passphrase"))
        app.type("not the passphrase")
        app.key("Return")
        app.wait(lambda d: (app.find("unlockError", dump=d) or {}).get("text"), 60, "the wrong-passphrase message")
        assert app.find("workspace") is None
        app.click(app.find("passphrase"))
        app.type(PASSPHRASE)
        app.key("Return")
        app.wait(lambda d: texts(app, "question", d) == [ENGLISH_QUESTION, KOREAN_QUESTION], 60,
                 "the conversation open at lock")
        assert app.find("chatHeader")["text"] == f"Patient: {PATIENT}"
        photograph(app, "unlocked-back", lambda: [app.find("chatHeader")])

        # -- export through the save dialog, which opens in Documents ----------------------------
        export_button = app.find(cls="QToolButton", text="Export conversation")
        assert export_button is not None and export_button["enabled"]
        app.click(export_button)
        dialog = app.wait(lambda d: app.window(cls="QFileDialog"), 30, "the save dialog")
        documents = root / "user" / "Documents"
        app.wait(lambda d: (app.find("fileNameEdit", dump=d) or {}).get("text") == "conversation.md", 10,
                 "the suggested file name")
        assert app.find("lookInCombo")["text"] == str(documents)
        photograph(app, "save-dialog")
        app.focus_window(dialog)
        app.key("ctrl+a")
        app.type("visit-note")
        app.key("Return")
        target = documents / "visit-note.md"
        app.wait(lambda d: target.exists() and KOREAN_QUESTION in target.read_text(encoding="utf-8"), 60,
                 "the exported file")
        assert ENGLISH_QUESTION in target.read_text(encoding="utf-8")

        # -- Ctrl+Q -----------------------------------------------------------------------------
        app.wait(lambda d: app.window(cls="QFileDialog") is None, 10, "the dialog to close")
        app.focus_window(app.window("mainWindow"))
        app.key("ctrl+q")
        assert app.wait_exit(60) == 0
    finally:
        app.kill()

    # -- restart, Korean UI: everything is still there -----------------------------------------
    # Plain-chat mode for the Stop: with sources in its prompt the default 135M model tends to
    # end after a few tokens ("The answer is:"), leaving nothing to stop.
    write_settings(root / "home", "ko", mode="llm")
    app = start_app(xserver, root, artefacts, "2-restart")
    try:
        app.wait(lambda d: (app.find("unlockButton", dump=d) or {}).get("enabled"), 60, "the unlock page")
        assert app.find("unlockTitle")["text"] == "Chartside 잠금 해제"
        app.click(app.find("passphrase"))
        app.type(PASSPHRASE)
        app.key("Return")
        patients = app.wait(lambda d: (app.find("patientList", dump=d) or {}).get("items") == [PATIENT] and
                            app.find("patientList", dump=d), 60, "the patient list")
        x, y, width, _ = patients["rect"]
        app.click({"rect": [x, y + 2, width, 20]})
        app.wait(lambda d: texts(app, "question", d) == [ENGLISH_QUESTION, KOREAN_QUESTION], 60,
                 "the conversation after a restart")
        assert app.find("chatHeader")["text"] == f"환자: {PATIENT}"
        assert app.find("sessionList")["items"][0].split("\n")[0] == ENGLISH_QUESTION
        photograph(app, "restart-korean-ui", lambda: [app.find_all("question")[1], app.find("chatHeader")])

        # -- Stop during a streaming answer (its progress line with the speed and time left) -----
        # In a new conversation: the model echoes the style of earlier answers in the history.
        app.wait(lambda d: (app.find("knowledgeLabel", dump=d) or {}).get("text"), 300, "the warm-up")
        app.click(app.find("newSession"))
        app.wait(lambda d: len((app.find("sessionList", dump=d) or {}).get("items", [])) == 2
                 and not texts(app, "question", d), 30, "a new conversation")
        ask(app, LONG_QUESTION)
        app.wait(lambda d: "초당" in texts(app, "turnStatus", d)[-1], TURN_TIMEOUT, "streaming")
        streaming = app.find_all("turnStatus")[-1]
        assert "남은 시간 최대 약" in streaming["text"], streaming["text"]
        photograph(app, "streaming-progress", lambda: [app.find_all("turnStatus")[-1]])
        app.click(app.find("stopButton"))
        wait_answered(app, 1)
        assert texts(app, "turnStatus")[-1] == "중지됨."
        assert texts(app, "answer")[-1].strip(), "what was streamed before Stop stays"
        app.focus_window(app.window("mainWindow"))
        app.key("ctrl+q")
        assert app.wait_exit(60) == 0
    finally:
        app.kill()
