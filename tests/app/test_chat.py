"""Chat over the demo engine (the real engine with the scripted fake model): alerts before
tokens, sources and citations, stop, copy, Korean input through the input method, history,
errors."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtGui import QGuiApplication, QInputMethodEvent
from PySide6.QtWidgets import QApplication, QMessageBox

from app.panels.chat import AlertBanner
from engine.demo import DEMO_QUESTION, DEMO_REPLY
from engine.errors import ModelOutputError
from engine.events import Alerts, Token

from tests.app.conftest import add_patient, unlock, wait_turn


def commit_korean(widget, text: str) -> None:
    """What a Hangul input method sends: preedit while composing, then a commit string."""
    preedit = QInputMethodEvent(text[-1], [])
    QApplication.sendEvent(widget, preedit)
    commit = QInputMethodEvent()
    commit.setCommitString(text)
    QApplication.sendEvent(widget, commit)


def test_streamed_answer_with_alert_sources_and_citation(qtbot, demo_window, fake_engine):
    unlock(qtbot, demo_window)
    add_patient(qtbot, demo_window, "Alex Kim")
    workspace = demo_window.workspace
    order = []
    workspace.chat.turn_event.connect(lambda event: order.append(event.kind))
    original = workspace.chat._on_event
    workspace.chat._on_event = lambda event: (order.append(event.kind) if isinstance(event, Token) else None,
                                              original(event))
    workspace.chat.send(DEMO_QUESTION["en"])
    result = wait_turn(qtbot, demo_window)

    assert order.index("Alerts") < order.index("Token")
    assert order.count("Token") >= 3, "one token per checked sentence and per notice"
    view = workspace.chat.turn_views()[-1]
    banners = view.findChildren(AlertBanner)
    assert [b.level for b in banners] == ["caution"] and "penicillin" in banners[0].text
    assert "penicillin-class antibiotic" in view.answer.text()
    assert "(cite:1:0)" in view.answer.text()
    assert len(workspace.sources.cards) == 5 == len(result["sources"]), "the demo's five passages"
    assert "CC BY 4.0" in workspace.sources.cards[0].text
    assert "Written for the Chartside demo" in workspace.sources.cards[0].text
    assert "People allergic to penicillin" in workspace.sources.cards[0].text
    footer = workspace.sources.attribution
    qtbot.waitUntil(lambda: footer.isVisibleTo(workspace.sources), timeout=10_000)
    assert footer.text() == "Knowledge base: Written for the Chartside demo (Chartside demo text, CC BY 4.0)", \
        "the engine's attribution of the demo's own passages, never MedQuAD"

    view.answer.linkActivated.emit("cite:2")
    assert workspace.side.currentWidget() is workspace.sources
    assert workspace.sources.highlighted == 2

    view.copy_button.click()
    assert QGuiApplication.clipboard().text() == view.text

    assert workspace.trace.ran()[:3] == ["extract_and_triage", "store_memory", "check_cache"]
    assert workspace.trace.values["query_complexity"].text() == "complex"
    assert "of 4000" in workspace.trace.tokens_text.text()

    demo_window.lock()
    assert QGuiApplication.clipboard().text() == ""


def test_emergency_alert_is_red_and_says_what_to_do(qtbot, demo_window):
    unlock(qtbot, demo_window)
    demo_window.workspace.chat.send("Crushing chest pain for 20 minutes, what should I do?")
    wait_turn(qtbot, demo_window)
    banner = demo_window.workspace.chat.turn_views()[-1].findChildren(AlertBanner)[0]
    assert banner.level == "emergency" and "#c62828" in banner.styleSheet()
    assert "What to do now:" in banner.text and "emergency department" in banner.text


def test_stop_keeps_the_partial_answer(qtbot, ui_language, fake_engine, demo_window):
    """Plain chat (llm mode) streams the model's words as they come; Stop ends it there."""
    fake_engine.llm.token_delay = 0.05
    fake_engine.settings.mode = "llm"
    unlock(qtbot, demo_window)
    chat = demo_window.workspace.chat
    chat.send(DEMO_QUESTION["en"])
    qtbot.waitUntil(lambda: len(chat.turn_views()[-1].text.split()) >= 3, timeout=10_000)
    assert chat.stop_button.isEnabled()
    qtbot.mouseClick(chat.stop_button, Qt.MouseButton.LeftButton)
    result = wait_turn(qtbot, demo_window, timeout=10_000)
    assert result["trace"]["cancelled"] is True
    words = len(result["answer"].split())
    assert 3 <= words < len(DEMO_REPLY["en"].split())
    view = chat.turn_views()[-1]
    assert view.status.text() == "Stopped." and view.copy_button.isEnabled()
    assert chat.send_button.isEnabled() and not chat.stop_button.isEnabled()


def test_korean_typed_through_the_input_method_is_sent(qtbot, demo_window, fake_engine):
    unlock(qtbot, demo_window)
    add_patient(qtbot, demo_window, "김하늘")
    chat = demo_window.workspace.chat
    commit_korean(chat.composer, DEMO_QUESTION["ko"])
    assert chat.composer.toPlainText() == DEMO_QUESTION["ko"]
    qtbot.keyClick(chat.composer, Qt.Key.Key_Return)
    result = wait_turn(qtbot, demo_window)
    assert chat.turn_views()[-1].question.text() == DEMO_QUESTION["ko"]
    assert "페니실린" in result["answer"] and result["alerts"][0]["kind"] == "allergy_conflict"
    assert chat.composer.toPlainText() == ""


def test_enter_during_hangul_composition_does_not_send(qtbot, demo_window):
    unlock(qtbot, demo_window)
    chat = demo_window.workspace.chat
    QApplication.sendEvent(chat.composer, QInputMethodEvent("ㅎ", []))
    qtbot.keyClick(chat.composer, Qt.Key.Key_Return)
    assert chat.turn_views() == []
    commit = QInputMethodEvent()
    commit.setCommitString("혈압")
    QApplication.sendEvent(chat.composer, commit)
    qtbot.keyClick(chat.composer, Qt.Key.Key_Return, Qt.KeyboardModifier.ShiftModifier)
    assert chat.turn_views() == [] and "혈압" in chat.composer.toPlainText()


def test_history_of_a_session_is_shown_again(qtbot, demo_window):
    unlock(qtbot, demo_window)
    patient = add_patient(qtbot, demo_window, "Alex Kim")
    workspace = demo_window.workspace
    workspace.chat.send(DEMO_QUESTION["en"])
    wait_turn(qtbot, demo_window)
    first_session = workspace.chat.session_id
    workspace.patients.start_session()
    qtbot.waitUntil(lambda: workspace.patients.sessions.count() == 2, timeout=5000)
    qtbot.waitUntil(lambda: workspace.chat.turn_views() == [], timeout=5000)
    sessions = workspace.patients.sessions
    row = next(r for r in range(sessions.count()) if sessions.item(r).data(Qt.ItemDataRole.UserRole)["id"] == first_session)
    sessions.setCurrentRow(row)
    qtbot.waitUntil(lambda: len(workspace.chat.turn_views()) == 1, timeout=5000)
    old = workspace.chat.turn_views()[0]
    assert "penicillin" in old.text and old.findChildren(AlertBanner)
    qtbot.waitUntil(lambda: len(workspace.sources.cards) == 5, timeout=5000)
    assert patient["name"] in workspace.chat.header.text()


def test_engine_errors_become_plain_language_dialogs(qtbot, demo_window, fake_engine, monkeypatch):
    unlock(qtbot, demo_window)

    def broken(*_args, **_kwargs):
        yield Alerts([])
        raise ModelOutputError("prompt of 5000 tokens does not fit",
                               user_message="The conversation is too long for the model's context. "
                                            "Start a new session or shorten the question.")

    monkeypatch.setattr(fake_engine, "ask", broken)
    demo_window.workspace.chat.send("a long question")
    qtbot.waitUntil(lambda: demo_window.findChild(QMessageBox, "errorDialog") is not None, timeout=5000)
    box = demo_window.findChild(QMessageBox, "errorDialog")
    assert box.text().startswith("The conversation is too long")
    assert "5000 tokens" not in box.text()
    assert demo_window.workspace.chat.turn_views()[-1].status.text().startswith("The conversation is too long")
    box.close()


def test_a_long_passage_shows_its_start_and_opens_in_full(qtbot, ui_language):
    from app.panels.sources import TOGGLE_LINK, SourcesPanel

    panel = SourcesPanel()
    qtbot.addWidget(panel)
    passage = "Amoxicillin is a penicillin & may cross-react. " * 30
    source = {"n": 1, "doc_id": "d1", "title": "Amoxicillin", "score": 0.5, "passage": passage, "licence": "CC BY 4.0"}
    panel.set_sources([source])
    card = panel.cards[0]
    assert "Amoxicillin is a penicillin &amp; may cross-react." in card.text and "Show the whole passage" in card.text
    assert len(card.text) < len(passage)
    card.label.linkActivated.emit(TOGGLE_LINK)
    assert passage.strip().replace("&", "&amp;") in card.text and "Show less" in card.text
    panel.set_sources([source])
    assert panel.cards[0] is card, "the same sources again (Done after Sources) are not rebuilt"


def test_the_sources_show_the_attributions_the_engine_gives(qtbot, ui_language):
    from app.panels.sources import SourcesPanel

    panel = SourcesPanel()
    qtbot.addWidget(panel)
    assert not panel.attribution.isVisibleTo(panel), "no footer before the engine said what the base holds"
    panel.set_sources([{"n": 1, "doc_id": "d1", "title": "Notes", "passage": "Plain text."},
                       {"n": 2, "doc_id": "d2", "title": "Leaflet", "passage": "Text.", "licence": "clinic document",
                        "attribution": "Added by this clinic from leaflet.pdf"}])
    assert "Licence" not in panel.cards[0].text and "MedQuAD" not in panel.cards[0].text
    assert "clinic document — Added by this clinic from leaflet.pdf" in panel.cards[1].text
    panel.set_attribution("MedQuAD (…), CC BY 4.0 · Documents added by this clinic")
    assert panel.attribution.text() == "Knowledge base: MedQuAD (…), CC BY 4.0 · Documents added by this clinic"
    ui_language.set("ko")
    korean = SourcesPanel()
    qtbot.addWidget(korean)
    korean.set_attribution("MedQuAD (…), CC BY 4.0 · Documents added by this clinic")
    assert "MedQuAD (…), CC BY 4.0 · " in korean.attribution.text()
    assert "Documents added by this clinic" not in korean.attribution.text()
    korean.set_attribution("")
    assert not korean.attribution.isVisibleTo(korean)


def test_the_attribution_note_the_app_translates_is_the_engines():
    from app.engine_messages import ATTRIBUTION_SEPARATOR, KNOWN_ATTRIBUTION_PARTS
    from engine.knowledge import corpus

    assert ATTRIBUTION_SEPARATOR == corpus.ATTRIBUTION_SEPARATOR
    assert corpus.CLINIC_DOCUMENTS in KNOWN_ATTRIBUTION_PARTS


def test_a_replaced_draft_is_replaced_on_screen(qtbot, demo_window, fake_engine):
    from engine.events import AnswerReplaced

    unlock(qtbot, demo_window)
    chat = demo_window.workspace.chat
    chat._turn = chat._add_turn("How is asthma treated?")
    for event in (Token("Emergency guidance.\n\n"), Token("First draft."), AnswerReplaced("Emergency guidance.\n\n"),
                  Token("Second draft.")):
        chat._on_event(event)
    chat._turn.render()
    shown = chat._turn.answer.text()
    assert "Emergency guidance." in shown and "Second draft." in shown and "First draft." not in shown
    chat._on_event(AnswerReplaced("Emergency guidance.\n\nFirst draft."))
    chat._turn.render()
    assert "First draft." in chat._turn.answer.text() and "Second draft." not in chat._turn.answer.text()
