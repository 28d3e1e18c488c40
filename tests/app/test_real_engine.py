"""The GUI over the real engine and the real default model (SmolLM2-135M GGUF through
llama.cpp), the real SQLCipher store, the real clinical checks and a small real knowledge
base (MedQuAD and LiveQA records picked from ../shared/data at test time, embedded with the
real MiniLM model).

Acceptance flow: unlock → create patient → ask → streamed text, a source with the passage
the prompt carried and an alert → confirm the allergy → export → lock. And: once the
window's warm-up has loaded the services, the event loop stays responsive (longest gap
between 10 ms timer ticks ≤ 100 ms) while a turn generates, the first turn included; stop
ends a real generation.
"""

from __future__ import annotations

import gzip
import json
import re
import time
from pathlib import Path

import pytest
from PySide6.QtCore import QElapsedTimer, QTimer
from PySide6.QtWidgets import QPushButton

from app.panels.chat import AlertBanner
from app.panels.widgets import escape
from engine.facade import Engine
from engine.paths import shared_data_dir
from engine.settings import Settings

from tests.app.conftest import add_patient, close_window, open_window, unlock, wait_turn

pytestmark = pytest.mark.real_model
MAX_GAP_MS = 100


def fast_settings(mode: str, answer_tokens: int) -> Settings:
    """The real engine, sized for a 2-core test machine (figures, not features, are cut)."""
    settings = Settings()
    settings.mode = mode
    settings.vault.kdf_iterations = 10_000
    settings.llm.max_answer_tokens = answer_tokens
    settings.llm.n_ctx = 2048
    settings.context.total_budget = 1500
    settings.context.documents_tokens = 400
    settings.context.generation_reserve = 64
    settings.features.response_cache = False
    settings.features.self_refine = False
    return settings


class GapMeter:
    """Records the longest interval between ticks of a 10 ms timer on the GUI thread."""

    def __init__(self):
        self.clock = QElapsedTimer()
        self.timer = QTimer(interval=10)
        self.timer.timeout.connect(self.tick)
        self.last = 0
        self.longest = 0
        self.ticks = 0

    def start(self) -> None:
        self.clock.start()
        self.last = 0
        self.timer.start()

    def tick(self) -> None:
        now = self.clock.elapsed()
        self.longest = max(self.longest, now - self.last)
        self.last = now
        self.ticks += 1

    def stop(self) -> None:
        self.timer.stop()


def test_llm_mode_streams_stays_responsive_and_stops(qtbot, ui_language):
    engine = Engine(fast_settings("llm", 24))
    window = open_window(qtbot, engine)
    try:
        qtbot.waitUntil(lambda: window.warm_up_result is not None, timeout=240_000)
        assert "model" in window.warm_up_result["loaded"]
        unlock(qtbot, window)
        chat = window.workspace.chat
        lengths: list[int] = []
        chat.turn_event.connect(lambda _e: None)
        meter = GapMeter()
        sampler = QTimer(interval=100)
        sampler.timeout.connect(lambda: chat.turn_views() and lengths.append(len(chat.turn_views()[-1].text)))
        meter.start()
        sampler.start()
        chat.send("What is high blood pressure?")
        result = wait_turn(qtbot, window, timeout=240_000)
        meter.stop()
        sampler.stop()
        print(f"\nllm turn: longest event-loop gap {meter.longest} ms over {meter.ticks} ticks; "
              f"{result['trace']['completion_tokens']} tokens")
        assert result["answer"] and result["trace"]["mode"] == "llm"
        assert len(set(lengths)) >= 3, "the answer did not grow while streaming"
        assert meter.longest <= MAX_GAP_MS

        engine.update_settings(fast_settings("llm", 400))
        chat.send("Explain in detail how blood pressure is measured.")
        qtbot.waitUntil(lambda: len(chat.turn_views()[-1].text.split()) >= 3, timeout=240_000)
        chat.stop()
        stopped = wait_turn(qtbot, window, timeout=60_000)
        assert stopped["trace"]["cancelled"] is True
        assert stopped["trace"]["completion_tokens"] < 400
        assert chat.turn_views()[-1].status.text() == "Stopped."
    finally:
        close_window(window)


def write_small_corpus(folder: Path) -> Path:
    """A few real records about sore throats and drug allergy, picked at run time."""
    source = shared_data_dir()
    if not (source / "medquad.jsonl.gz").exists():
        pytest.skip(f"shared data not found at {source}")
    folder.mkdir(parents=True)
    picked = 0
    with gzip.open(source / "medquad.jsonl.gz", "rt", encoding="utf-8") as src, \
            gzip.open(folder / "medquad.jsonl.gz", "wt", encoding="utf-8") as out:
        for line in src:
            record = json.loads(line)
            focus = (record.get("focus") or "").lower()
            if record.get("answer") and ("sore throat" in focus or "allerg" in focus) and picked < 12:
                out.write(line)
                picked += 1
    seen = set()
    with gzip.open(source / "liveqa_judged_answers.jsonl.gz", "rt", encoding="utf-8") as src, \
            gzip.open(folder / "liveqa_judged_answers.jsonl.gz", "wt", encoding="utf-8") as out:
        for line in src:
            record = json.loads(line)
            text = record["text"].lower()
            if "penicillin" in text and "allerg" in text and record["answer_id"] not in seen:
                seen.add(record["answer_id"])
                out.write(line)
    for name in ("concepts.tsv",):
        if (source / name).exists():
            (folder / name).symlink_to(source / name)
    return folder


def test_acceptance_flow_with_the_real_engine(qtbot, ui_language, tmp_path, monkeypatch):
    """Importing torch and the MedCAT pack holds Python's GIL for a few hundred ms; the
    window's warm-up does that in the background right after start, so by the first turn
    they are loaded. Gaps are asserted while adding documents and during both turns; the
    first build is timed and printed."""
    monkeypatch.setenv("CHARTSIDE_SHARED_DATA", str(write_small_corpus(tmp_path / "shared")))
    engine = Engine(fast_settings("agent", 32))
    window = open_window(qtbot, engine)
    started = time.monotonic()
    try:
        qtbot.waitUntil(lambda: window.services_ready, timeout=240_000)
        window.open_knowledge()
        kb = window.knowledge_dialog
        first_build = GapMeter()
        first_build.start()
        kb.rebuild()
        qtbot.waitUntil(lambda: not kb.running, timeout=300_000)
        first_build.stop()
        assert kb.progress_text.text() == "Done."
        qtbot.waitUntil(lambda: kb.state.text() == "Ready", timeout=60_000)
        chunks = int(kb.stat_values["chunks"].text())
        assert chunks > 0
        notes = []
        for index, text in enumerate(("Penicillin allergy: avoid amoxicillin and ampicillin.",
                                      "Sore throat: most are viral; rest and fluids help.")):
            notes.append(tmp_path / f"clinic-note-{index}.txt")
            notes[-1].write_text(text, encoding="utf-8")
        indexing = GapMeter()
        indexing.start()
        kb.add([str(path) for path in notes])
        qtbot.waitUntil(lambda: not kb.running, timeout=120_000)
        indexing.stop()
        qtbot.waitUntil(lambda: kb.documents.count() == 2, timeout=60_000)
        kb.close()
        built = time.monotonic()

        unlock(qtbot, window)
        patient = add_patient(qtbot, window, "Test Patient 01")
        workspace = window.workspace
        tokens = []
        workspace.chat.turn_started.connect(lambda: tokens.clear())
        original = workspace.chat._on_event
        workspace.chat._on_event = lambda event: (tokens.append(event) if event.kind == "Token" else None,
                                                  original(event))
        first_turn = GapMeter()
        first_turn.start()
        workspace.chat.send("I am allergic to penicillin. Can I take amoxicillin for my sore throat?")
        result = wait_turn(qtbot, window, timeout=300_000)
        first_turn.stop()
        answered = time.monotonic()

        assert len(tokens) >= 2 and result["answer"]
        view = workspace.chat.turn_views()[-1]
        banners = view.findChildren(AlertBanner)
        assert any(alert["kind"] == "allergy_conflict" for alert in result["alerts"])
        assert banners and banners[0].level == "caution" and "amoxicillin" in banners[0].text.lower()
        assert result["sources"], "no source retrieved from the small knowledge base"
        assert len(workspace.sources.cards) == len(result["sources"])
        assert workspace.sources.cards[0].source["doc_id"] == result["sources"][0]["doc_id"]
        assert all(source["passage"].strip() for source in result["sources"]), "a source without its passage"
        shown = result["sources"][0]["passage"].split("\n")[0][:60]
        assert escape(shown) in workspace.sources.cards[0].text

        # Each backed sentence's [n] opens its source with the real support check's
        # source sentence highlighted; no [n] of a sentence the check did not back.
        records = result["trace"]["support"]
        cited = [(i, r) for i, r in enumerate(records) if r["kind"] == "sourced" and r["source"] is not None]
        assert cited, records
        index, record = cited[-1]
        assert f"(cite:{record['source']}:{index})" in view.answer.text()
        view.answer.linkActivated.emit(f"cite:{record['source']}:{index}")
        assert workspace.side.currentWidget() is workspace.sources
        assert workspace.sources.marked is not None and workspace.sources.marked[0] == record["source"]
        card = next(c for c in workspace.sources.cards if c.number == record["source"])
        # Compared by words: a bullet list is marked as the passage writes it ("include: - Allergies - …"),
        # the record holds it joined ("include: Allergies; …").
        assert re.findall(r"\w+", card.marked_text())[:6] == re.findall(r"\w+", record["source_sentence"])[:6]
        linked = {int(i) for i in re.findall(r"\(cite:\d+:(\d+)\)", view.answer.text())}
        assert linked and all(records[i]["source"] is not None for i in linked)

        profile = workspace.profile
        qtbot.waitUntil(lambda: any(a.get("status") == "pending-confirmation"
                                    for a in profile.profile.get("allergies", [])), timeout=10_000)
        allergy = next(a for a in profile.profile["allergies"] if a["status"] == "pending-confirmation")
        profile.findChild(QPushButton, f"confirm_{allergy['id']}").click()
        qtbot.waitUntil(lambda: all(a.get("status") == "active" for a in profile.profile.get("allergies", [])),
                        timeout=10_000)
        assert engine.patients.profile(patient["id"])["allergies"][0]["status"] == "active"

        second_turn = GapMeter()
        second_turn.start()
        workspace.chat.send("Which antibiotic could be used instead?")
        second = wait_turn(qtbot, window, timeout=300_000)
        second_turn.stop()
        assert second["answer"] and len(workspace.chat.turn_views()) == 2

        target = tmp_path / "conversation.md"
        window.export_conversation(path=str(target), fmt="md")
        qtbot.waitUntil(lambda: window.last_export == str(target), timeout=30_000)
        assert "amoxicillin" in target.read_text(encoding="utf-8").lower()

        window.lock()
        qtbot.waitUntil(lambda: engine.patients.is_locked, timeout=10_000)
        assert window.workspace is None
        print(f"\nacceptance: build {built - started:.1f} s ({chunks} chunks), first turn {answered - built:.1f} s; "
              f"longest event-loop gaps: first build {first_build.longest} ms, adding documents "
              f"{indexing.longest} ms, first turn {first_turn.longest} ms, second turn {second_turn.longest} ms")
        assert indexing.longest <= MAX_GAP_MS
        assert first_turn.longest <= MAX_GAP_MS and second_turn.longest <= MAX_GAP_MS
    finally:
        close_window(window)
