"""The window is interactive within 2 s of launch (a cold interpreter, the real engine:
models and indexes load later, in workers)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).parents[2]
LIMIT_S = 2.0
PROBE = """
import time
started = time.perf_counter()
from PySide6.QtCore import QTimer
from app.i18n import UiLanguage
from app.main import Shell, _settings_or_defaults, application
from engine.facade import Engine

app = application()
settings, _ = _settings_or_defaults()
language = UiLanguage(app)
language.set(settings.ui.language)
shell = Shell(Engine(settings), language)
window = shell.open_window()
shown = time.perf_counter() - started

def check():
    if window.unlock_page.button.isEnabled():
        print(f"shown {shown:.3f} interactive {time.perf_counter() - started:.3f}", flush=True)
        app.quit()
    else:
        QTimer.singleShot(5, check)

QTimer.singleShot(0, check)
app.exec()
shell.shutdown()
"""


def launch() -> float:
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    done = subprocess.run([sys.executable, "-c", PROBE], cwd=REPO, env=env, capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0, done.stderr[-2000:]
    line = next(text for text in done.stdout.splitlines() if text.startswith("shown"))
    print(f"\n{line}")
    return float(line.split()[-1])


def test_window_is_interactive_within_two_seconds():
    """Best of two launches: the test machine is shared, and one slow launch there says
    more about the neighbours than about the app."""
    assert min(launch(), launch()) <= LIMIT_S
