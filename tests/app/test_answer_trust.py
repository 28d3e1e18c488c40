"""What a clinician needs to trust each sentence, in both UI languages: a note under an
answer the support check did not fully back, the sentences it left out in the Trace tab,
`[n]` opening its source with the backing sentence highlighted and in view, and every
engine text around the answer (alerts, steps, progress) in the UI's language."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QCoreApplication
from PySide6.QtGui import QColor

from app.citations import citation_target, link_citations, sentence_markers
from app.dialogs.about import AboutDialog
from app.panels.chat import AlertBanner, TurnView, support_findings
from app.panels.sources import SENTENCE_COLOUR, SourcesPanel, locate
from engine.agent.answer_framing import texts as framing_texts
from engine.demo import DEMO_BACKED, DEMO_LEFT_OUT, DEMO_QUESTION
from engine.events import NodeStarted, Status
from engine.settings import RemoteModelSettings

from tests.app.conftest import add_patient, unlock, wait_turn


def translate(context: str, text: str, n: int = -1) -> str:
    return QCoreApplication.translate(context, text, None, n)


def highlighted_pixels(widget) -> int:
    """Pixels of the sentence highlight colour in what `widget` shows."""
    image = widget.grab().toImage()
    colour = QColor(SENTENCE_COLOUR).rgb()
    return sum(1 for y in range(0, image.height(), 2) for x in range(0, image.width(), 2)
               if image.pixel(x, y) == colour)


@pytest.mark.parametrize("language", ["en", "ko"])
def test_a_weakly_supported_answer_says_so_in_the_chat_and_the_trace(qtbot, ui_language, demo_window, language):
    ui_language.set(language)
    unlock(qtbot, demo_window)
    add_patient(qtbot, demo_window, "Alex Kim")
    workspace = demo_window.workspace
    workspace.chat.send(DEMO_QUESTION[language])
    result = wait_turn(qtbot, demo_window)
    view = workspace.chat.turn_views()[-1]

    note = translate("TurnView", "Sentences left out of this answer because no source supported them: %n "
                                 "(see the Trace tab).", 1)
    assert view.support_note.isVisible() and view.support_note.text() == note
    assert ("left out" in note) == (language == "en") and ("출처" in note) == (language == "ko")
    left_out_notice = framing_texts(language)["weak"]
    assert left_out_notice in view.text, "copy and export keep the whole answer"
    assert left_out_notice not in view.answer.text(), "the note says it once, with the count"
    assert all(sentence.rstrip(".") in view.answer.text() for sentence in DEMO_BACKED[language])

    trace = workspace.trace
    assert trace.dropped.isVisibleTo(trace)
    assert DEMO_LEFT_OUT[language] in trace.dropped.text()
    summary = translate("TracePanel", "%1 of %2 sentences backed by a source").replace("%1", "2").replace("%2", "3")
    assert trace.support_summary.text() == summary + " · " + translate("TracePanel", "%n left out of the answer:", 1)
    reason = result["trace"]["support"][2]["reason"]
    shown_reason = ("'infection' is not in the source" if language == "en"
                    else translate("SupportCheck", reason))
    assert shown_reason in trace.dropped.text().replace("&#x27;", "'")


def test_support_findings_name_dropped_weak_and_unchecked_answers():
    sourced = {"text": "Backed.", "source": 1, "support": 0.8, "kind": "sourced"}
    dropped = {"text": "Left out.", "source": None, "support": 0.2, "kind": "sourced"}
    weak = {"text": "Shown but weak.", "source": 1, "support": 0.4, "kind": "sourced"}
    answer = "Backed. [1] Shown but weak. [1]"
    found = support_findings({"answer": answer, "trace": {"support": [sourced, dropped, weak]}}, 0.6)
    assert found["dropped"] == [dropped] and found["weak"] == [weak] and not found["unchecked"]
    clean = support_findings({"answer": "Backed. [1]", "trace": {"support": [sourced]}}, 0.6)
    assert clean == {"dropped": [], "weak": [], "unchecked": False}
    plain = support_findings({"answer": "The model's own words.", "sources": [], "trace": {"mode": "llm"}})
    assert plain["unchecked"]
    emergency_only = support_findings({"answer": "Call 119.", "sources": [], "trace": {"mode": "agent"}})
    assert not emergency_only["unchecked"]


def test_a_sentence_links_to_its_source_sentence_and_an_unsourced_one_has_no_link():
    records = [{"text": "Lead:", "source": None, "kind": "notice"},
               {"text": "Gout is caused by uric acid.", "source": 2, "kind": "sourced"},
               {"text": "Made up.", "source": None, "kind": "sourced"},
               {"text": "Fluids help.", "source": 1, "kind": "sourced"}]
    answer = 'Lead:\n- 원인 — "Gout is caused by uric acid." [2] Fluids help. [1] Made up. [3]'
    markers = sentence_markers(answer, records)
    assert sorted(markers.values()) == [1, 3]
    linked = link_citations(answer, 2, records)
    assert "(cite:2:1)" in linked and "(cite:1:3)" in linked
    assert "Made up. [3]" in linked, "no source 3: no link"
    assert citation_target("cite:2:1") == (2, 1) and citation_target("cite:2") == (2, None)
    assert citation_target("https://example.org") is None


def test_locate_finds_a_source_sentence_as_the_support_check_saw_it():
    passage = "Symptoms include:\n- thirst\n- frequent  urination\nSee a doctor."
    start, end = locate(passage, "Symptoms include: thirst; frequent urination.")
    assert passage[start:end].startswith("Symptoms include") and passage[start:end].endswith("urination")
    assert locate(passage, "See a doctor.") == (passage.index("See"), len(passage))
    assert locate(passage, "Nothing like it.") is None


@pytest.mark.parametrize("language", ["en", "ko"])
def test_a_citation_opens_its_source_with_the_backing_sentence_highlighted(qtbot, ui_language, demo_window,
                                                                           language):
    ui_language.set(language)
    unlock(qtbot, demo_window)
    workspace = demo_window.workspace
    workspace.chat.send(DEMO_QUESTION[language])
    result = wait_turn(qtbot, demo_window)
    view = workspace.chat.turn_views()[-1]
    assert "(cite:1:0)" in view.answer.text() and "(cite:2:1)" in view.answer.text()
    workspace.side.setCurrentWidget(workspace.profile)

    view.answer.linkActivated.emit("cite:2:1")
    assert workspace.side.currentWidget() is workspace.sources
    backing = result["trace"]["support"][1]["source_sentence"]
    assert workspace.sources.marked == (2, backing)
    card = workspace.sources.cards[1]
    assert SENTENCE_COLOUR in card.text and workspace.sources.cards[0].marked is None
    qtbot.waitUntil(lambda: highlighted_pixels(workspace.sources.scroll.viewport()) > 200, timeout=5000)

    view.answer.linkActivated.emit("cite:1:0")
    assert workspace.sources.marked == (1, "Amoxicillin is a penicillin-class antibiotic, so it should be avoided "
                                           "by people with a penicillin allergy.")
    assert SENTENCE_COLOUR not in workspace.sources.cards[1].text


def test_a_backing_sentence_past_the_preview_opens_the_passage_and_is_scrolled_into_view(qtbot, ui_language):
    panel = SourcesPanel()
    qtbot.addWidget(panel)
    panel.resize(420, 300)
    panel.show()
    filler = "Antibiotics treat infections caused by bacteria and have side effects. " * 25
    last = "Amoxicillin can cause a rash in people with a penicillin allergy."
    sources = [{"n": 1, "doc_id": "d1", "title": "Other", "passage": filler, "licence": "CC BY 4.0"},
               {"n": 2, "doc_id": "d2", "title": "Amoxicillin", "passage": filler + last, "licence": "CC BY 4.0"}]
    panel.set_sources(sources)
    assert panel.scroll_to(2, last)
    card = panel.cards[1]
    assert card.expanded and card.marked_text() == last
    qtbot.waitUntil(lambda: highlighted_pixels(panel.scroll.viewport()) > 200, timeout=5000)
    assert panel.scroll.verticalScrollBar().value() > 0


def test_korean_ui_shows_alerts_steps_and_progress_in_korean(qtbot, ui_language, demo_window):
    ui_language.set("ko")
    unlock(qtbot, demo_window)
    chat = demo_window.workspace.chat
    chat.send("Crushing chest pain for 20 minutes, what should I do?")
    result = wait_turn(qtbot, demo_window)
    banner = chat.turn_views()[-1].findChildren(AlertBanner)[0]
    messages = result["alerts"][0]["messages"]
    assert result["alerts"][0]["kind"] == "emergency" and messages["ko"] != messages["en"]
    assert banner.message == messages["ko"]
    assert messages["en"] in banner.text, "the English question also gets the alert in English"
    assert "응급" in banner.text and "What to do now" not in banner.text

    chat._turn = chat._add_turn("질문")
    chat._on_event(NodeStarted("generate_answer"))
    assert chat.status.text() == "단계: 답변 작성"
    chat._on_event(Status("Preparing the answer…"))
    assert chat.status.text() == translate("EngineStatus", "Preparing the answer…") != "Preparing the answer…"


@pytest.mark.parametrize("language", ["en", "ko"])
def test_emergency_guidance_in_the_banner_is_not_repeated_in_the_answer(qtbot, ui_language, language):
    """The emergency path answers with the guidance its red banner already shows: the
    answer shows the rest only, and nothing at all when that is all it said."""
    ui_language.set(language)
    guidance = {"en": "Chest pain spreading to the arm can be a heart attack. Call emergency services now.",
                "ko": "팔로 퍼지는 가슴 통증은 심근경색일 수 있습니다. 지금 119에 전화하세요."}
    alert = {"kind": "emergency", "message": guidance[language], "messages": guidance}
    alone = TurnView("chest pain")
    qtbot.addWidget(alone)
    alone.finish({"answer": guidance[language], "alerts": [alert], "sources": [], "trace": {}})
    banner = alone.findChildren(AlertBanner)[0]
    assert guidance[language] in banner.text
    assert alone.answer.isHidden() and alone.text == guidance[language], "copy and export keep the whole answer"

    more = TurnView("chest pain")
    qtbot.addWidget(more)
    rest = "Aspirin may be advised by the dispatcher. [1]"
    more.finish({"answer": f"{guidance['en']}\n\n{rest}", "alerts": [alert],
                 "sources": [{"n": 1, "doc_id": "d1", "passage": "Aspirin."}], "trace": {}})
    assert not more.answer.isHidden()
    assert "heart attack" not in more.answer.text() and "Aspirin may be advised" in more.answer.text()

    calm = TurnView("sore throat")
    qtbot.addWidget(calm)
    calm.finish({"answer": guidance["en"], "alerts": [], "sources": [], "trace": {}})
    assert not calm.answer.isHidden() and "heart attack" in calm.answer.text()


def test_english_ui_shows_a_korean_questions_alert_in_english_and_korean(qtbot, ui_language, demo_window):
    unlock(qtbot, demo_window)
    chat = demo_window.workspace.chat
    chat.send("가슴 통증이 심해요")
    result = wait_turn(qtbot, demo_window)
    banner = chat.turn_views()[-1].findChildren(AlertBanner)[0]
    messages = result["alerts"][0]["messages"]
    assert result["alerts"][0]["kind"] == "emergency" and messages["ko"] != messages["en"]
    assert banner.message == messages["en"] and messages["ko"] in banner.text


def test_about_says_what_goes_to_an_enabled_model_server(qtbot, ui_language):
    local = AboutDialog()
    qtbot.addWidget(local)
    assert "stay on this computer" in local.text
    remote = RemoteModelSettings(enabled=True, url="https://gpu-box.clinic.lan:8443", roles=["generate", "judge"],
                                 tls_pin_sha256="ab" * 32, model="qwen2.5-7b-instruct")
    dialog = AboutDialog(None, remote)
    qtbot.addWidget(dialog)
    assert "stay on this computer;" not in dialog.text and "https://gpu-box.clinic.lan:8443" in dialog.text
    assert "patient facts on file" in dialog.text and "checking answers" in dialog.text
    assert "classifying questions" not in dialog.text
    ui_language.set("ko")
    korean = AboutDialog(None, remote)
    qtbot.addWidget(korean)
    assert "gpu-box.clinic.lan" in korean.text and "이 컴퓨터" in korean.text


def test_engine_texts_around_the_answer_are_translated_once_at_the_boundary(ui_language):
    from app.engine_messages import alert_message, reason_text, step_name, with_host

    alert = {"kind": "interaction", "message": "Warfarin and ibuprofen raise the bleeding risk.",
             "messages": {"en": "Warfarin and ibuprofen raise the bleeding risk.", "ko": "와파린과 이부프로펜은 출혈 위험을 높입니다."}}
    assert alert_message(alert) == alert["messages"]["en"]
    assert with_host("The model server cannot be reached. (gpu-box:8443)") == \
        "The model server cannot be reached. (gpu-box:8443)"
    ui_language.set("ko")
    assert alert_message(alert) == alert["messages"]["ko"]
    assert alert_message({"message": "Only one language."}) == "Only one language."
    assert with_host("The model server cannot be reached. (gpu-box:8443)") == "모델 서버에 연결할 수 없습니다. (gpu-box:8443)"
    assert step_name("retrieve") == "지식 베이스 검색" and step_name("new_node") == "new node"
    assert reason_text("number 5 not in the source") == "숫자 5이(가) 출처에 없음"
    assert reason_text("'ulcer' is not in the source") == "'ulcer'이(가) 출처에 없음"
    assert reason_text("an unknown reason") == "an unknown reason"


@pytest.mark.parametrize("language,question", [("en", "I feel dizzy and my heart is racing. What should I do?"),
                                               ("ko", "어지럽고 가슴이 두근거려요. 어떻게 해야 하나요?")])
def test_the_when_to_get_help_line_opens_the_answer_in_bold(qtbot, ui_language, demo_window, language, question):
    ui_language.set(language)
    unlock(qtbot, demo_window)
    add_patient(qtbot, demo_window, "Alex Kim")
    demo_window.workspace.chat.send(question)
    result = wait_turn(qtbot, demo_window)
    guidance = [s["text"] for s in result["sentences"] if s["kind"] == "guidance"]
    assert len(guidance) == 1 and result["answer"].startswith(guidance[0])
    assert ("119" in guidance[0]) and (("실신" in guidance[0]) == (language == "ko"))
    view = demo_window.workspace.chat.turn_views()[-1]
    assert view.answer.text().startswith(f"**{guidance[0]}**")
    assert view.text.startswith(guidance[0]), "copy and export keep the plain text"
