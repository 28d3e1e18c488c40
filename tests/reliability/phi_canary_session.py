"""Child process for the whole-product PHI canary: a scripted clinic session through the
real product, in a process whose HOME, TMPDIR, XDG folders and model caches are fresh.

Phase 1 (the engine as the CLI drives it): `Engine.ask` with the real GGUF model, the real
MedCAT pack, real retrieval on the copied knowledge index and the response cache on;
Korean and English turns carrying the canaries, an exact repeat (a cache hit), then every
export format of a patient and of a conversation, written to the export folder given.
Phase 2 (the GUI): the main window offscreen over a second real Engine on the same data
folder: unlock, open the patient, send one more canary turn through the chat panel, lock
by closing. Library logging goes at DEBUG into CHARTSIDE_HOME/logs, faulthandler into a
crash file there, so anything a library would log is in the scan.

Reads {"canaries": {...}, "passphrase", "exports"} as one JSON line on stdin (never argv,
never a file) and prints one JSON line of figures without any canary: turn traces' cache
hits and the export paths.
"""

from __future__ import annotations

import faulthandler
import json
import logging
import sys
import time
from pathlib import Path

import engine  # noqa: F401  (offline switches first)
from engine.events import Done
from engine.facade import Engine
from engine.settings import data_dir, load_settings

EXPORTS = {"patient": ("json", "md", "pdf"), "conversation": ("md", "pdf")}


def turns(c: dict) -> list[str]:
    return [
        f"My name is {c['name']}. I am 58 and I take {c['drug']} {c['dose']} every morning.",
        f"제 이름은 {c['name']}입니다. {c['korean']} 때문에 이틀째 머리가 아파요. 연락처는 {c['phone']}입니다.",
        f"Can {c['drug']} {c['dose']} cause headaches? Call me back at {c['phone']}.",
        "What is high blood pressure?",
        "What is high blood pressure?",  # exact repeat: answered from the response cache
        f"{c['korean']} 증상이 있는데 {c['drug']}을 계속 먹어도 되나요?",
    ]


def ask(engine_: Engine, text: str, patient_id: int, session_id: int) -> dict:
    result = {}
    for event in engine_.ask(text, patient_id=patient_id, session_id=session_id):
        if isinstance(event, Done):
            result = event.result
    return result


def engine_phase(request: dict) -> dict:
    canaries, exports = request["canaries"], Path(request["exports"])
    product = Engine(load_settings())
    product.patients.unlock(request["passphrase"], create=True)
    patient = product.patients.create_patient(canaries["name"])
    session = product.patients.new_session(patient["id"])
    hits, models, calls, sources, notes = [], set(), 0, 0, []
    for text in turns(canaries):
        result = ask(product, text, patient["id"], session["id"])
        trace = result["trace"]
        hits.append(bool(trace.get("cache_hit")))
        models.add(trace.get("model") or "")
        calls += int(trace.get("llm_calls") or 0)
        sources += len(result.get("sources") or [])
        notes += list(trace.get("service_notes") or [])
    facts = sum(len(v) for v in product.patients.profile(patient["id"]).values() if isinstance(v, list))
    written = []
    for fmt in EXPORTS["patient"]:
        written.append(str(product.patients.export_patient(patient["id"], exports / f"patient.{fmt}", fmt)))
    for fmt in EXPORTS["conversation"]:
        written.append(str(product.patients.export_conversation(session["id"], exports / f"conversation.{fmt}", fmt)))
    product.patients.lock()
    product.close()
    return {"cache_hits": hits, "exports": written, "patient_id": patient["id"], "models": sorted(models),
            "llm_calls": calls, "sources": sources, "profile_facts": facts, "service_notes": len(notes)}


def gui_phase(request: dict, patient_id: int) -> dict:
    """The main window over a real Engine: unlock, pick the patient, one chat turn, close."""
    from PySide6.QtWidgets import QApplication

    from app.main import application
    from app.main_window import MainWindow
    from app.workers import EngineRunner

    app = application()
    product = Engine(load_settings())
    runner = EngineRunner()
    window = MainWindow(product, runner)
    runner.setParent(window)
    window.show()
    window.start()
    wait(app, lambda: window.unlock_page.button.isEnabled(), 60)
    window.unlock_page.passphrase.setText(request["passphrase"])
    window.unlock_page.button.click()
    wait(app, lambda: window.workspace is not None, 60)
    patients = window.workspace.patients
    patients.reload(select_id=patient_id)
    chat = window.workspace.chat
    wait(app, lambda: chat.session_id is not None, 30)
    chat.send(f"{request['canaries']['name']}: {request['canaries']['korean']} 약 {request['canaries']['dose']}")
    wait(app, lambda: chat.turn_views() and not chat.running, 600)
    answered = bool(chat.turn_views()[-1].result.get("answer"))
    window.close()
    wait(app, lambda: not runner.busy, 180)
    runner.wait(20_000)
    app.processEvents()
    return {"gui_answered": answered}


def wait(app, condition, seconds: float) -> None:
    end = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > end:
            raise TimeoutError("the GUI did not reach the expected state")
        app.processEvents()
        time.sleep(0.01)


def main() -> int:
    request = json.loads(sys.stdin.readline())
    logs = data_dir() / "logs"
    logs.mkdir(exist_ok=True)
    logging.basicConfig(filename=logs / "chartside.log", level=logging.DEBUG)
    crash = open(logs / "crash.txt", "w")  # noqa: SIM115  (open for the whole run)
    faulthandler.enable(crash)
    figures = engine_phase(request)
    figures.update(gui_phase(request, figures["patient_id"]))
    print(json.dumps(figures), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
