"""The window is interactive before the models have loaded (a cold interpreter, the real
engine), and stays usable while `Engine.warm_up` loads the model, knowledge base, embedding
model and clinical pack in a background worker. The times are printed, not asserted: speed is
measured on a quiet machine, not in a test on a shared one."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

from tests.app.conftest import close_window, open_window

REPO = Path(__file__).parents[2]
PROBE = """
import json, time
started = time.perf_counter()
from PySide6.QtCore import QCoreApplication, QElapsedTimer, QTimer
from app.i18n import UiLanguage
from app.main import Shell, _settings_or_defaults, application
from engine.facade import Engine

app = application()
settings, _ = _settings_or_defaults()
language = UiLanguage(app)
language.set(settings.ui.language)
shell = Shell(Engine(settings), language)
window = shell.open_window()
report = {"shown": time.perf_counter() - started, "steps": [],
          "first_step": QCoreApplication.translate("MainWindow", "Loading model…")}
clock = QElapsedTimer()
clock.start()
gap = {"last": 0, "longest": 0}

def tick():
    now = clock.elapsed()
    if window.warm_up_label.text():
        gap["longest"] = max(gap["longest"], now - gap["last"])
        step = window.warm_up_label.text()
        if not report["steps"] or report["steps"][-1] != step:
            report["steps"].append(step)
            window.unlock_page.passphrase.insert("x")
    gap["last"] = now
    if "interactive" not in report and window.unlock_page.button.isEnabled():
        report["interactive"] = time.perf_counter() - started
    if window.warm_up_result is not None and "interactive" in report:
        report.update(warm_up=window.warm_up_result, longest_gap_ms=gap["longest"],
                      typed=window.unlock_page.passphrase.text(), ready=time.perf_counter() - started)
        app.quit()

ticker = QTimer(interval=10)
ticker.timeout.connect(tick)
ticker.start()
app.exec()
shell.shutdown()
print("REPORT " + json.dumps(report), flush=True)
"""


def launch() -> dict:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=REPO, env=env, capture_output=True, text=True,
                          timeout=240)
    assert done.returncode == 0, done.stderr[-2000:]
    line = next(text for text in done.stdout.splitlines() if text.startswith("REPORT "))
    report = json.loads(line.removeprefix("REPORT "))
    print(f"\nsteps {report['steps']}; shown {report['shown']:.3f} s, interactive {report['interactive']:.3f} s, warm-up done "
          f"{report['ready']:.1f} s {report['warm_up']['seconds']}, longest event-loop gap during warm-up "
          f"{report['longest_gap_ms']} ms")
    return report


def test_window_is_interactive_while_models_load():
    report = launch()
    assert report["steps"][0] == report["first_step"], "warm-up did not report its first step"
    assert "model" in report["warm_up"]["loaded"], report["warm_up"]["notes"]
    assert len(report["typed"]) == len(report["steps"]), "typing did not reach the window during warm-up"
    assert report["interactive"] < report["ready"], "the window became usable only after the warm-up"


def test_warm_up_shows_its_step_and_names_what_could_not_load(qtbot, ui_language, fake_engine):
    """Status-bar progress while the (scripted) warm-up runs; a missing service afterwards
    is a status message and a tooltip, not a dialog."""
    gate = threading.Event()

    def warm_up(progress=None):
        progress(0, 4, "model")
        gate.wait(10)
        progress(2, 4, "embedder")
        return {"loaded": ["model", "embedder", "clinical"], "notes": ["knowledge base unavailable: not built"],
                "seconds": {}}

    fake_engine.warm_up = warm_up
    window = open_window(qtbot, fake_engine)
    try:
        qtbot.waitUntil(lambda: window.warm_up_label.text() == "Loading model…", timeout=5000)
        assert window.warm_up_bar.isVisible() and window.unlock_page.button.isEnabled()
        gate.set()
        qtbot.waitUntil(lambda: window.warm_up_result is not None, timeout=5000)
        assert not window.warm_up_bar.isVisible() and window.warm_up_label.text() == ""
        assert window.warm_up_label.toolTip() == "knowledge base unavailable: not built"
        assert window.statusBar().currentMessage() == "Some services could not be loaded; answers may be limited."
        qtbot.waitUntil(lambda: window.services_ready, timeout=5000)
    finally:
        gate.set()
        close_window(window)
