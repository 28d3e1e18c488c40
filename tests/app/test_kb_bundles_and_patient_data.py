"""The knowledge-base dialog over the real engine facade, the real store (SQLite, BM25,
FAISS) and the real encrypted vault: the plain-text notice where documents are added, a
record refused with its masked lines, the override refused while the vault is locked and
audited once it is open, then Export… and Import… in the background with progress.

Only the embedding is the deterministic hashing embedder of the knowledge tests (what is
tested is the dialog and the files, not the vectors)."""

from __future__ import annotations

import zipfile

import pytest

from engine.facade import Engine
from engine.knowledge import open_default
from engine.knowledge.patient_data import OVERRIDE_EVENT
from engine.llm.fake import FakeLLM
from engine.settings import Settings
from tests.app.conftest import close_window, open_window, unlock
from tests.engine.agent.fakes import FakeClinical
from tests.engine.knowledge.conftest import HashingEmbedder, write_tiny_shared

RECORD = "외래 기록\n주민등록번호 800101-1234567\nMetformin 500 mg twice daily.\n"


@pytest.fixture
def kb_window(qtbot, ui_language, tmp_path, monkeypatch):
    monkeypatch.setenv("CHARTSIDE_SHARED_DATA", str(write_tiny_shared(tmp_path / "shared")))
    embedder = HashingEmbedder()
    open_default(embedder=embedder, build=True).close()
    settings = Settings()
    settings.vault.kdf_iterations = 10_000
    engine = Engine(settings, llm=FakeLLM(["ok"]), clinical=FakeClinical(), embedder=embedder,
                    vault_path=tmp_path / "vault.db")
    window = open_window(qtbot, engine)
    window.open_knowledge()
    yield window, window.knowledge_dialog
    close_window(window)


def run(qtbot, dialog, action, *args) -> None:
    action(*args)
    qtbot.waitUntil(lambda: not dialog.running, timeout=30_000)


def test_patient_data_is_refused_then_overridden_with_an_audit_row(qtbot, kb_window, tmp_path):
    window, dialog = kb_window
    assert "not encrypted" in dialog.plain_notice.text() and "never patient records" in dialog.plain_notice.text()
    record = tmp_path / "clinic_record.txt"
    record.write_text(RECORD, encoding="utf-8")

    run(qtbot, dialog, dialog.add, [str(record)])
    assert "look like patient records" in dialog.progress_text.text()
    assert dialog.findings.isVisible()
    shown = dialog.findings.text()
    assert "clinic_record.txt" in shown and "line 2: resident registration number: " in shown
    assert "######-#######" in shown and "800101" not in shown
    assert dialog.documents.count() == 0

    dialog.allow_patient_data.setChecked(True)
    run(qtbot, dialog, dialog.add, [str(record)])
    assert "Unlock the patient store first" in dialog.progress_text.text()

    unlock(qtbot, window)
    window.open_knowledge()
    dialog = window.knowledge_dialog
    dialog.allow_patient_data.setChecked(True)
    run(qtbot, dialog, dialog.add, [str(record)])
    assert dialog.progress_text.text() == "Done." and not dialog.allow_patient_data.isChecked()
    qtbot.waitUntil(lambda: dialog.documents.count() == 1, timeout=10_000)
    (row,) = window.engine.patients.vault.audit_log(event=OVERRIDE_EVENT)
    assert row["detail"] == {"files": {"clinic_record.txt": {"resident_registration_number": 1}}, "findings": 1}


def test_export_and_import_run_in_the_background(qtbot, kb_window, tmp_path):
    window, dialog = kb_window
    protocol = tmp_path / "protocol.md"
    protocol.write_text("# Flu clinic\n\nFlu shots on Tuesdays.", encoding="utf-8")
    run(qtbot, dialog, dialog.add, [str(protocol)])
    qtbot.waitUntil(lambda: dialog.documents.count() == 1, timeout=10_000)

    bundle = tmp_path / "clinic.kbundle"
    seen = []
    dialog.progress.valueChanged.connect(seen.append)
    run(qtbot, dialog, dialog.export, str(bundle))
    assert dialog.progress_text.text() == "Done." and zipfile.is_zipfile(bundle) and seen
    assert dialog.export_button.isEnabled() and dialog.import_button.isEnabled()

    dialog.documents.item(0).setSelected(True)
    dialog.remove_selected()
    qtbot.waitUntil(lambda: dialog.documents.count() == 0, timeout=10_000)
    run(qtbot, dialog, dialog.import_bundle, str(bundle))
    assert dialog.progress_text.text() == "Done."
    qtbot.waitUntil(lambda: dialog.documents.count() == 1, timeout=10_000)
    assert window.engine.kb.search is not None

    bad = tmp_path / "not-a-bundle.kbundle"
    bad.write_text("hello", encoding="utf-8")
    run(qtbot, dialog, dialog.import_bundle, str(bad))
    assert dialog.progress_text.text() == "This file is not a Chartside knowledge-base bundle. Nothing was changed."
    qtbot.waitUntil(lambda: dialog.documents.count() == 1, timeout=10_000)
