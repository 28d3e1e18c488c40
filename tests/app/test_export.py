"""Export through the GUI (File menu actions, the save dialog answered by the test) over the
real engine facade and the real encrypted store: a Korean conversation and the patient
record, each to Markdown and to PDF. The PDFs are read back with pypdf; Hangul must be
drawn with the CJK font (no matplotlib "Glyph … missing" warning) and extract as text.

The language model is the scripted FakeLLM: the answer's wording is not what is tested."""

from __future__ import annotations

import stat
import warnings
from pathlib import Path

import pytest
from pypdf import PdfReader
from PySide6.QtWidgets import QFileDialog

from engine.facade import Engine
from engine.llm.fake import FakeLLM
from engine.settings import Settings

from tests.app.conftest import add_patient, close_window, open_window, unlock, wait_turn
from tests.engine.agent.fakes import FakeClinical, FakeKnowledge

PATIENT = "김하늘"
QUESTION = "당뇨병은 어떻게 치료하나요?"
ANSWER = "식이 조절과 운동, 그리고 메트포르민으로 치료합니다 [1]."


@pytest.fixture
def export_window(qtbot, ui_language, tmp_path):
    settings = Settings()
    settings.vault.kdf_iterations = 10_000
    settings.answer.writer = "model"  # the fake model's answer as written
    settings.answer.support_check = False
    engine = Engine(settings, llm=FakeLLM([ANSWER]), knowledge=FakeKnowledge(), clinical=FakeClinical(),
                    embedder=None, vault_path=tmp_path / "vault.db")
    window = open_window(qtbot, engine)
    unlock(qtbot, window)
    add_patient(qtbot, window, PATIENT)
    window.workspace.chat.send(QUESTION)
    wait_turn(qtbot, window)
    yield window
    close_window(window)


def export_through_menu(qtbot, monkeypatch, window, action, target: Path, chosen_filter: str) -> None:
    """Trigger the menu action; the save dialog 'answers' with `target` (without a suffix
    when the filter decides the format)."""
    asked = []

    def save_dialog(parent, title, suggested, filters):
        asked.append((title, suggested, filters))
        return str(target.with_suffix("")), chosen_filter

    monkeypatch.setattr(QFileDialog, "getSaveFileName", staticmethod(save_dialog))
    action.trigger()
    qtbot.waitUntil(lambda: window.last_export == str(target), timeout=60_000)
    assert asked and chosen_filter in asked[0][2]


def pdf_text(path: Path) -> tuple[int, str]:
    reader = PdfReader(str(path))
    return len(reader.pages), "\n".join(page.extract_text() for page in reader.pages)


def test_conversation_and_patient_record_to_markdown_and_pdf(qtbot, monkeypatch, export_window, tmp_path):
    window = export_window
    conversation, record = window.export_conversation_action, window.export_patient_action
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        export_through_menu(qtbot, monkeypatch, window, conversation, tmp_path / "conversation.md", "Markdown (*.md)")
        export_through_menu(qtbot, monkeypatch, window, conversation, tmp_path / "conversation.pdf", "PDF (*.pdf)")
        export_through_menu(qtbot, monkeypatch, window, record, tmp_path / "patient.md", "Markdown (*.md)")
        export_through_menu(qtbot, monkeypatch, window, record, tmp_path / "patient.pdf", "PDF (*.pdf)")
    glyphs = [str(w.message) for w in caught if "Glyph" in str(w.message)]
    assert glyphs == [], f"Hangul drawn without a CJK font: {glyphs[:3]}"

    markdown = (tmp_path / "conversation.md").read_text(encoding="utf-8")
    assert PATIENT in markdown and QUESTION in markdown and "메트포르민" in markdown
    assert PATIENT in (tmp_path / "patient.md").read_text(encoding="utf-8")

    pages, text = pdf_text(tmp_path / "conversation.pdf")
    assert pages > 0 and QUESTION in text and PATIENT in text and "메트포르민" in text
    pages, text = pdf_text(tmp_path / "patient.pdf")
    assert pages > 0 and PATIENT in text and QUESTION in text

    for name in ("conversation.md", "conversation.pdf", "patient.md", "patient.pdf"):
        assert stat.S_IMODE((tmp_path / name).stat().st_mode) == 0o600, name
    assert not list(tmp_path.glob("*.part"))
