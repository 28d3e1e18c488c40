"""Driving the real `chartside` app in a real X server (Xvfb) with real input events (xdotool).

`XServer` starts Xvfb on a free display. `AppProcess` starts `python -m app.entry` on it
with the app's opt-in window dump (`app.e2e_hook`): the test reads what the window shows
(visible widgets, their texts and screen rectangles) from that JSON file, moves the X
pointer and clicks or types with xdotool, and asks the app to photograph the X screen.

Typing Hangul: there is no input-method daemon on a bare X server, so `xdotool type`
delivers each syllable as its Unicode keysym (it maps a spare keycode to it for the
keystroke); Qt receives a key press whose text is the committed syllable, which is what a
Hangul IME hands the application once a syllable is composed.
"""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Callable

REPO = Path(__file__).parents[3]
NEEDED_TOOLS = ("Xvfb", "xdotool")
INSTALL_HINT = "as root, `make e2e-deps` installs Xvfb, xdotool and the X11 libraries Qt's xcb plugin loads"
SCREEN = (1400, 900)


def missing_tools() -> list[str]:
    return [tool for tool in NEEDED_TOOLS if shutil.which(tool) is None]


class XServer:
    """Xvfb on the first free display number (Xvfb picks it and tells us through a pipe)."""

    def __init__(self, log: Path):
        read, write = os.pipe()
        self._log = open(log, "wb")
        self.process = subprocess.Popen(
            ["Xvfb", "-displayfd", str(write), "-screen", "0", f"{SCREEN[0]}x{SCREEN[1]}x24", "-nolisten", "tcp",
             "-noreset"], pass_fds=(write,), stdout=self._log, stderr=subprocess.STDOUT)
        os.close(write)
        number = b""
        deadline = time.monotonic() + 30
        with os.fdopen(read, "rb") as pipe:
            while not number.endswith(b"\n") and time.monotonic() < deadline:
                chunk = pipe.read(1)
                if not chunk:
                    break
                number += chunk
        if not number.strip():
            self.stop()
            raise RuntimeError(f"Xvfb did not start (see {log})")
        self.display = f":{number.decode().strip()}"

    def env(self) -> dict[str, str]:
        return {"DISPLAY": self.display}

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()
        self._log.close()


class AppProcess:
    """One run of the real app; what it shows is read from its window dump."""

    def __init__(self, xserver: XServer, env: dict[str, str], artefacts: Path, run: str):
        self.xserver = xserver
        self.artefacts = artefacts
        self.run = run
        self.dump_path = Path(env["CHARTSIDE_E2E_DUMP"])
        self.dump_path.unlink(missing_ok=True)
        self.log_path = artefacts / f"{run}-app.log"
        self._log = open(self.log_path, "wb")
        full = {**os.environ, **env, **xserver.env(), "PYTHONPATH": str(REPO), "PYTHONUNBUFFERED": "1"}
        for name in ("QT_QPA_PLATFORM", "WAYLAND_DISPLAY"):
            full.pop(name, None)
        self.process = subprocess.Popen([sys.executable, "-m", "app.entry"], cwd=REPO, env=full, stdout=self._log,
                                        stderr=subprocess.STDOUT)
        self.shots = 0

    # -- reading the window ----------------------------------------------------------------
    def dump(self) -> dict:
        try:
            return json.loads(self.dump_path.read_text(encoding="utf-8"))
        except (FileNotFoundError, json.JSONDecodeError):
            return {"windows": []}

    def widgets(self, dump: dict | None = None) -> list[dict]:
        dump = dump or self.dump()
        return [widget for window in dump["windows"] for widget in window["widgets"]]

    def find(self, name: str | None = None, *, cls: str | None = None, text: str | None = None,
             dump: dict | None = None) -> dict | None:
        for widget in self.widgets(dump):
            if name is not None and widget["name"] != name:
                continue
            if cls is not None and widget["class"] != cls:
                continue
            if text is not None and widget.get("text") != text:
                continue
            return widget
        return None

    def find_all(self, name: str, dump: dict | None = None) -> list[dict]:
        return [widget for widget in self.widgets(dump) if widget["name"] == name]

    def window(self, name: str | None = None, *, cls: str | None = None) -> dict | None:
        for window in self.dump()["windows"]:
            if (name is None or window["name"] == name) and (cls is None or window["class"] == cls):
                return window
        return None

    def wait(self, predicate: Callable[[dict], object], timeout: float, what: str) -> object:
        """Poll the dump until `predicate(dump)` is truthy; return its value."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise AssertionError(f"the app exited ({self.process.returncode}) while waiting for {what}; "
                                     f"log: {self.log_path}")
            value = predicate(self.dump())
            if value:
                return value
            time.sleep(0.2)
        self.screenshot(f"timeout-{what.replace(' ', '-')[:40]}")
        raise AssertionError(f"timed out after {timeout:.0f} s waiting for {what}; last dump in {self.dump_path}")

    def wait_widget(self, name: str, timeout: float = 30, **match) -> dict:
        return self.wait(lambda d: self.find(name, dump=d, **match), timeout, f"widget {name}")

    # -- real input --------------------------------------------------------------------------
    def xdotool(self, *args: str) -> None:
        subprocess.run(["xdotool", *args], env={**os.environ, **self.xserver.env()}, check=True, timeout=60)

    def focus_window(self, window: dict) -> None:
        """No window manager runs on the bare X server: give the window the X input focus."""
        self.xdotool("windowfocus", "--sync", str(window["wid"]))

    def click(self, widget: dict) -> None:
        x, y, width, height = widget["rect"]
        self.xdotool("mousemove", "--sync", str(x + width // 2), str(y + height // 2))
        self.xdotool("click", "1")

    def type(self, text: str) -> None:
        self.xdotool("type", "--delay", "40", "--", text)

    def type_into(self, name: str, text: str, timeout: float = 10, attempts: int = 3) -> None:
        """Type `text` into the focused widget `name` one character at a time, each after the
        previous one has arrived (xdotool maps a character missing from the keyboard map to a
        spare keycode just for its keystroke; typed faster, a remapping can overtake the
        previous key press and the character is lost). On a loaded machine a remapped key can
        still be lost: a character that has not arrived within `timeout` while the text is
        unchanged is typed again, up to `attempts` times; any other text fails at once."""
        start = self.find(name)
        before = (start or {}).get("text", "")
        for index, character in enumerate(text):
            previous, expected = before + text[:index], before + text[:index + 1]
            for attempt in range(1, attempts + 1):
                self.xdotool("type", "--delay", "80", "--", character)
                shown = self._settled_text(name, previous, timeout)
                if shown == expected:
                    break
                if shown != previous or attempt == attempts:
                    self.screenshot(f"lost-{index}-in-{name}")
                    raise AssertionError(f"{character!r} did not arrive in {name} after {attempt} attempt(s) "
                                         f"(shown: {shown!r}); last dump in {self.dump_path}")

    def _settled_text(self, name: str, previous: str, timeout: float) -> str | None:
        """The widget's text as soon as it differs from `previous`, or `previous` after `timeout`."""
        deadline = time.monotonic() + timeout
        while True:
            if self.process.poll() is not None:
                raise AssertionError(f"the app exited ({self.process.returncode}) while typing; log: {self.log_path}")
            shown = (self.find(name) or {}).get("text")
            if shown != previous or time.monotonic() >= deadline:
                return shown
            time.sleep(0.2)

    def key(self, *keys: str) -> None:
        self.xdotool("key", "--delay", "60", *keys)

    # -- pictures ----------------------------------------------------------------------------
    def screenshot(self, name: str, timeout: float = 15) -> Path:
        """The whole X screen, grabbed by the app (Qt reads the X server's root window)."""
        self.shots += 1
        target = self.artefacts / f"{self.run}-{self.shots:02d}-{name}.png"
        request = self.dump_path.with_name(self.dump_path.name + ".shot")
        request.write_text(str(target), encoding="utf-8")
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and (request.exists() or not target.exists()):
            if self.process.poll() is not None:
                break
            time.sleep(0.1)
        return target

    # -- the end -----------------------------------------------------------------------------
    def wait_exit(self, timeout: float) -> int:
        try:
            return self.process.wait(timeout)
        finally:
            self._log.close()

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(10)
        if not self._log.closed:
            self._log.close()

