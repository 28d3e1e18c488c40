"""The "when to get help now" line: which questions get it, how it reads, and where a turn
puts it (real clinical rules and pack inside the real agent graph; the FakeLLM's words do not
matter here). The labelled sets resources/eval/answers/seek_care_*.jsonl are scored by
`chartside bench care`; the dev set is checked here as a regression."""

from __future__ import annotations

import pytest

from engine.agent.care_guidance import asks_what_to_do, care_guidance
from engine.agent.pipeline import run_turn
from engine.agent.support import GUIDANCE
from engine.agent.wiring import ClinicalService
from engine.bench.care import default_sets, read_cases, score_case, summarise
from engine.events import Done, Token
from engine.llm.fake import FakeLLM
from engine.text import detect_language
from tests.engine.agent.fakes import make_services

DIZZY = {"symptoms": [{"name": "dizziness"}, {"name": "palpitations"}]}


@pytest.mark.parametrize("text", ["What should I do?", "Should I go to the hospital?", "Do I need to go to the ER?",
                                  "어떻게 해야 하나요?", "병원에 가야 할까요?", "어떡하죠?",
                                  # whether a symptom is dangerous asks when to get care
                                  "Is a fever of 38 dangerous for a baby?", "아기가 열이 38도인데 위험한가요?"])
def test_what_to_do_and_seek_care_questions_ask_what_to_do(text):
    assert asks_what_to_do(text)


@pytest.mark.parametrize("text", ["What is vertigo?", "What causes dizziness?", "How much ibuprofen can I take a day?",
                                  "What tests will the hospital do for dizziness?", "How can I prevent the flu?",
                                  "어지럼증의 원인은 뭔가요?", "두통약은 하루에 몇 번 먹어야 하나요?"])
def test_questions_for_information_do_not(text):
    assert not asks_what_to_do(text)


def test_the_line_names_the_symptoms_and_their_signs_in_the_question_language():
    english = care_guidance("I'm dizzy and my heart races. What should I do?", DIZZY, [], "en")
    assert english.startswith("When to get help now: with dizziness and palpitations, call 119")
    assert "fainting or passing out" in english and "chest pain" in english
    korean = care_guidance("어지럽고 가슴이 두근거려요. 어떻게 해야 하나요?", DIZZY, [], "ko")
    assert korean.startswith("지금 바로 도움을 받아야 할 때: 어지럼증, 두근거림 증상이 있으면서")
    assert "119" in korean and "실신(기절)" in korean and "가슴 통증" in korean


def test_after_an_injury_the_line_names_the_signs_that_may_follow_it():
    injury = {"conditions": [{"name": "head injuries"}], "demographics": {"age_group": "child"}}
    english = care_guidance("My son hit his head. What should I do?", injury, [], "en")
    assert english.startswith("When to get help now: after head injuries, call 119")
    assert "vomiting more than once" in english
    korean = care_guidance("아이가 넘어져서 머리를 부딪쳤어요. 어떻게 해야 하나요?", injury, [], "ko")
    assert korean.startswith("지금 바로 도움을 받아야 할 때: 머리 부상 뒤에 다음 중 하나라도")
    assert "두 번 이상 토함" in korean


def test_a_message_that_only_resembles_an_emergency_still_gets_the_line():
    resembles = [{"kind": "emergency", "detected_by": "similar",
                  "message": "This message resembles descriptions of an emergency. If this is happening now: …"}]
    line = care_guidance("I hit my head. What should I do?", {"conditions": [{"name": "head injuries"}]}, resembles, "en")
    assert line.startswith("When to get help now: after head injuries")


def test_an_answer_opens_with_a_resemblance_notice_then_the_line_but_a_rule_s_emergency_alone():
    from engine.agent.nodes.answer import opening
    from engine.agent.state import TurnState
    from engine.agent.support import ALERT

    slots = {"conditions": [{"name": "head injuries"}]}
    notice = {"kind": "emergency", "message": "If this is happening now: go to the emergency department."}
    similar = TurnState(text="I hit my head. What should I do?", slots=slots,
                        alerts=[{**notice, "detected_by": "similar"}])
    text, opened = opening(similar)
    assert [item.kind for item in opened] == [ALERT, GUIDANCE]
    assert text.startswith(notice["message"] + "\n\nWhen to get help now: after head injuries")
    ruled = TurnState(text="I hit my head. What should I do?", slots=slots, alerts=[{**notice, "detected_by": "rules"}])
    assert [item.kind for item in opening(ruled)[1]] == [ALERT]


def test_no_line_with_an_emergency_alert_an_information_question_or_no_symptom():
    emergency = [{"kind": "emergency", "message": "Call 119 now.", "detected_by": "rules"}]
    assert care_guidance("What should I do?", DIZZY, emergency, "en") == ""
    assert care_guidance("What causes dizziness?", DIZZY, [], "en") == ""
    assert care_guidance("What should I do?", {"symptoms": [{"name": "dizziness", "negated": True}]}, [], "en") == ""
    assert care_guidance("What should I do?", {}, [], "en") == ""


@pytest.fixture(scope="module")
def clinical(clinical_pack):
    return ClinicalService()


@pytest.mark.parametrize("text,language", [("I feel dizzy and my heart is racing. What should I do?", "en"),
                                           ("어지럽고 가슴이 두근거려요. 어떻게 해야 하나요?", "ko")])
def test_a_turn_opens_with_the_line_before_the_answer_and_marks_it_as_guidance(clinical, text, language):
    services = make_services(FakeLLM(["Rest and drink water [1]."] * 3), clinical=clinical)
    events = list(run_turn(text, services))
    result = events[-1].result
    assert isinstance(events[-1], Done) and not [a for a in result["alerts"] if a["kind"] == "emergency"]
    line = care_guidance(text, {"symptoms": [{"name": "dizziness"}, {"name": "palpitations"}]}, [], language)
    assert line and result["answer"].startswith(line + "\n\n")
    assert next(e for e in events if isinstance(e, Token)).text.startswith(line)
    assert result["sentences"][0] == {"text": line, "source": None, "support": None, "kind": GUIDANCE}
    assert any("warning signs" in d for d in result["trace"]["decisions"])


def test_an_information_question_about_a_symptom_gets_no_line(clinical):
    services = make_services(FakeLLM(["Dizziness is a feeling of imbalance [1]."] * 3), clinical=clinical)
    result = list(run_turn("What causes dizziness?", services))[-1].result
    assert not result["answer"].startswith("When to get help now")
    assert all(s["kind"] != GUIDANCE for s in result["sentences"])


def test_the_dev_set_passes_through_the_real_rules(clinical):
    """In-sample (the table was written looking at it); the held-out set is reported by the bench only."""
    dev = next(path for path in default_sets() if "dev" in path.name)
    verdicts = []
    for case in read_cases(dev):
        verdict = clinical.triage(case["q"])
        emergency = verdict["message"] if verdict["emergency"] else ""
        alerts = [{"kind": "emergency", "message": emergency}] if emergency else []
        line = care_guidance(case["q"], clinical.extract(case["q"]), alerts, detect_language(case["q"]))
        verdicts.append(score_case(case, line, emergency))
    summary = summarise(verdicts)
    assert summary["passed"] == summary["cases"] == 24, [v for v in verdicts if not v["passed"]]
    assert summary["false_guidance"] == 0


def test_a_nosebleed_gets_the_signs_with_which_it_needs_care_now():
    nosebleed = {"symptoms": [{"name": "nosebleed"}], "demographics": {"age_group": "child"}}
    english = care_guidance("My son has a nosebleed. What should I do?", nosebleed, [], "en")
    assert english.startswith("When to get help now: with nosebleed, call 119")
    assert "does not stop after 20 minutes" in english and "blood thinner" in english
    korean = care_guidance("아이가 코피가 나요. 어떻게 해야 하나요?", nosebleed, [], "ko")
    assert korean.startswith("지금 바로 도움을 받아야 할 때: 코피 증상이 있으면서")
    assert "20분" in korean and "항응고제" in korean


@pytest.mark.parametrize("value, unit, named", [(300, "mg/dL", True), (250, "mg/dL", True), (180, "mg/dL", False),
                                                (15, "mmol/L", True), (9, "mmol/L", False)])
def test_a_high_measured_blood_sugar_gets_the_signs_of_ketoacidosis(value, unit, named):
    slots = {"conditions": [{"name": "diabetes"}], "labs": [{"type": "glucose", "value": value, "unit": unit}]}
    line = care_guidance("My mother has diabetes and her sugar is high. What should we do?", slots, [], "en")
    assert line.startswith("When to get help now: with hyperglycemia, call 119") is named
    if named:
        assert "fruity smell on the breath" in line


def test_high_blood_sugar_said_in_korean_reads_with_it_not_after_it():
    line = care_guidance("혈당이 너무 높아요. 어떻게 해요?", {"conditions": [{"name": "hyperglycemia"}]}, [], "ko")
    assert line.startswith("지금 바로 도움을 받아야 할 때: 고혈당 증상이 있으면서") and "과일 냄새" in line
