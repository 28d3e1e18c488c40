"""Settings saved through the real engine (settings.toml), language switch rebuilds the
window, idle lock, knowledge-base progress/ETA/cancel, export."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QCoreApplication

from app.dialogs.knowledge import eta_seconds, format_eta, stage_text
from app.i18n import UiLanguage
from app.main import Shell
from engine.settings import load_settings

from tests.app.conftest import add_patient, close_window, open_window, unlock, wait_turn
from tests.app.test_unlock import real_engine


def test_settings_dialog_saves_through_the_engine(qtbot, ui_language):
    engine = real_engine()
    window = open_window(qtbot, engine)
    try:
        window.open_settings()
        dialog = window.settings_dialog
        qtbot.waitUntil(lambda: dialog.role_boxes["generate"].count() > 0, timeout=20_000)
        assert dialog.role_boxes["generate"].currentData() == "smollm2-135m-instruct-q4_1"
        qtbot.waitUntil(lambda: "GPU offload available" in dialog.device.text(), timeout=20_000)
        dialog.flags["self_refine"].setChecked(False)
        dialog.threads.setValue(1)
        dialog.gpu_layers.setValue(0)
        dialog.idle_minutes.setValue(3)
        dialog.quality_threshold.setValue(0.6)
        applied = []
        dialog.applied.connect(applied.append)
        dialog.save()
        qtbot.waitUntil(lambda: bool(applied), timeout=5000)
        saved = load_settings()
        assert saved.features.self_refine is False and saved.llm.n_threads == 1
        assert saved.vault.idle_lock_minutes == 3 and saved.refine.quality_threshold == 0.6
        assert engine.settings.features.self_refine is False and window.idle.minutes == 3
    finally:
        close_window(window)


def test_language_switch_rebuilds_the_window_in_korean(qtbot, chartside_qapp, fake_engine):
    language = UiLanguage(chartside_qapp)
    language.set("en")
    shell = Shell(fake_engine, language)
    window = shell.open_window()
    try:
        qtbot.waitUntil(lambda: window.unlock_page.button.isEnabled(), timeout=5000)
        unlock(qtbot, window)
        patient = add_patient(qtbot, window, "김하늘")
        assert window.lock_action.text() == "Lock now"
        shell.change_language("ko")
        new = shell.window
        assert new is not window
        assert new.lock_action.text() == "지금 잠그기"
        qtbot.waitUntil(lambda: new.workspace is not None
                        and (new.workspace.patients.current_patient() or {}).get("id") == patient["id"], timeout=5000)
        assert new.workspace.side.tabText(0) == "출처"
    finally:
        language.set("en")
        shell.window.close()
        shell.runner.wait(5000)


def test_idle_minutes_lock_the_store(qtbot, demo_window):
    unlock(qtbot, demo_window)
    clock = [1000.0]
    idle = demo_window.idle
    idle._clock = lambda: clock[0]
    idle.set_minutes(1)
    idle.check()
    assert demo_window.workspace is not None
    clock[0] += 61
    idle.check()
    assert demo_window.workspace is None
    assert demo_window.stack.currentWidget() is demo_window.unlock_page


def test_knowledge_base_progress_eta_and_cancel(qtbot, demo_window, fake_engine, tmp_path):
    """Adding clinic notes to the demo's real knowledge base (each one embedded), then
    stopping: what was added so far is kept and counted."""
    assert "user" not in fake_engine.kb.stats()
    demo_window.open_knowledge()
    dialog = demo_window.knowledge_dialog
    attribution = dialog.findChild(type(dialog.state), "kbAttribution")
    qtbot.waitUntil(lambda: attribution.isVisibleTo(dialog), timeout=5000)
    assert "Written for the Chartside demo (Chartside demo text, CC BY 4.0)" in attribution.text()
    assert "MedQuAD" not in attribution.text(), "the demo's passages are its own"
    files = []
    words = ("blood pressure", "salt", "exercise", "sleep", "kidney", "heart", "stroke", "diet")
    for index in range(40):
        path = tmp_path / f"note{index}.txt"
        body = " ".join(f"Hypertension care leaflet about {words[(index + k) % len(words)]} and daily habits."
                        for k in range(40))
        path.write_text(body, encoding="utf-8")
        files.append(str(path))
    dialog.add(files)
    qtbot.waitUntil(lambda: dialog.progress.value() >= 3
                    and dialog.progress_text.text() == f"Adding documents… {dialog.progress.value()}/40",
                    timeout=20_000)
    assert dialog.progress.maximum() == 40 and "left" in dialog.eta.text()
    assert not dialog.add_files_button.isEnabled()
    dialog.cancel_button.click()
    qtbot.waitUntil(lambda: not dialog.running, timeout=20_000)
    assert "Stopped" in dialog.progress_text.text()
    added = fake_engine.kb.stats()["user"]
    assert 3 <= added < 40, "stopped part way, with what was added kept"
    qtbot.waitUntil(lambda: dialog.stat_values.get("user") is not None
                    and dialog.stat_values["user"].text() == str(added) and dialog.documents.count() == added,
                    timeout=5000)
    assert attribution.text().startswith("Knowledge base: Written for the Chartside demo (Chartside demo text, "
                                         "CC BY 4.0) · Documents added by this clinic\n")
    assert demo_window.knowledge_attribution == fake_engine.kb.stats()["attribution"], \
        "what the dialog read reaches the window (the Sources footer)"


def test_progress_stages_in_words(ui_language):
    assert stage_text("reading", 3, 40) == "Reading documents… 3/40"
    assert stage_text("indexing", 0, 1) == "Building the search index…"
    assert stage_text("exporting", 2, 9) == "Writing the bundle… 2/9 MiB"
    assert stage_text("unheard-of", 1, 2) == "unheard-of 1/2"
    ui_language.set("ko")
    assert stage_text("adding", 3, 40) == f"{QCoreApplication.translate('KnowledgeBaseDialog', 'Adding documents…')} 3/40"
    assert stage_text("adding", 3, 40) != "Adding documents… 3/40"


def test_eta_and_its_format():
    assert eta_seconds(100.0, 10, 40, now=110.0) == 30.0
    assert eta_seconds(100.0, 0, 40, now=110.0) is None
    assert format_eta(30.2) == "0:30" and format_eta(3725) == "1:02:05"


def test_export_conversation_and_patient(qtbot, demo_window, tmp_path):
    unlock(qtbot, demo_window)
    add_patient(qtbot, demo_window, "Alex Kim")
    demo_window.workspace.chat.send("What is hypertension?")
    wait_turn(qtbot, demo_window)
    target = tmp_path / "conversation.md"
    demo_window.export_conversation(path=str(target), fmt="md")
    qtbot.waitUntil(lambda: demo_window.last_export == str(target), timeout=5000)
    assert "What is hypertension?" in target.read_text(encoding="utf-8")
    record = tmp_path / "patient.json"
    demo_window.export_patient(path=str(record), fmt="json")
    qtbot.waitUntil(lambda: demo_window.last_export == str(record), timeout=5000)
    assert "Alex Kim" in Path(record).read_text(encoding="utf-8")


def test_adding_a_broken_model_file_explains_why(qtbot, ui_language, tmp_path):
    engine = real_engine()
    window = open_window(qtbot, engine)
    try:
        window.open_settings()
        dialog = window.settings_dialog
        broken = tmp_path / "not-a-model.gguf"
        broken.write_bytes(b"this is not a GGUF file" * 10)
        dialog.add_model(str(broken), ["generate"])
        qtbot.waitUntil(lambda: dialog.add_model_button.isEnabled(), timeout=20_000)
        assert dialog.add_model_status.text() == "This file is not a GGUF model."
        assert not dialog.add_model_progress.isVisible()
    finally:
        close_window(window)
