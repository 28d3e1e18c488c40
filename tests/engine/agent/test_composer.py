"""The answer composer with the real MiniLM embedder, the real concept pack and lexicon."""

from __future__ import annotations

import re

import pytest

from engine.agent.composer import compose, question_kind
from engine.passage import Passage
from engine.agent.support import SupportChecker
from tests.engine.agent.kb_fixture import DOCUMENTS

DOCS = [Passage(doc_id, text, title=title) for doc_id, title, text in DOCUMENTS]
HYPO_FIRST = [DOCS[1], DOCS[0], DOCS[2], DOCS[7]]
CITED = re.compile(r"\[(\d)\]")


@pytest.mark.parametrize("question, kind", [
    ("What is high blood pressure?", "definition"),
    ("What causes gout?", "causes"),
    ("What are the symptoms of low blood sugar?", "symptoms"),
    ("How is osteoporosis diagnosed?", "diagnosis"),
    ("How is asthma treated?", "treatment"),
    ("How can I prevent the flu?", "prevention"),
    ("How much metformin can I take?", "dosage"),
    ("Can I take ibuprofen with warfarin?", "interaction"),
    ("My child has a fever. What should I do?", "what_to_do"),
    ("통풍은 왜 생기나요?", "causes"),
    ("저혈당 증상이 뭐예요?", "symptoms"),
    ("고혈압 약을 먹고 있는데 두통이 심해요. 어떻게 해야 하나요?", "what_to_do"),
    ("와파린 먹는데 아스피린 같이 먹어도 되나요?", "interaction"),
])
def test_question_kind(question, kind):
    assert question_kind(question) == kind


def test_english_answer_is_three_to_six_cited_source_sentences(minilm):
    slots = {"conditions": [{"name": "hypoglycemia", "concept_id": "C0020615"}]}
    composition = compose(question="What are the symptoms of low blood sugar?", language="en", slots=slots,
                          documents=HYPO_FIRST, checker=SupportChecker(minilm))
    sourced = [s for s in composition.sentences if s.kind == "sourced"]
    assert 3 <= len(sourced) <= 6
    assert all(s.source is not None and s.support >= 0.6 for s in sourced)
    assert sourced[0].text.startswith("Symptoms include shaking")  # the asked kind first
    texts = {d.text for d in HYPO_FIRST}
    for sentence in sourced:  # every sentence is its cited passage's own sentence
        assert sentence.text in HYPO_FIRST[sentence.source - 1].text
        assert f"{sentence.text} [{sentence.source}]" in composition.text
    assert composition.text.startswith("Symptoms of hypoglycemia described in the sources:")
    assert composition.sentences[-1].kind == "notice"
    assert texts


def test_alerts_and_patient_facts_frame_the_answer_once(minilm):
    alert = {"kind": "interaction", "message": "Bleeding risk: NSAIDs with warfarin."}
    composition = compose(question="Can I take ibuprofen with warfarin?", language="en",
                          slots={"medications": [{"name": "ibuprofen"}, {"name": "warfarin"}]}, documents=DOCS[6:7],
                          checker=SupportChecker(minilm), alerts=[alert, alert],
                          profile_summary="Allergies: none\nMedications: warfarin 5 mg", about_patient=True)
    kinds = [s.kind for s in composition.sentences]
    assert kinds[:3] == ["alert", "profile", "notice"]
    assert composition.text.count("Bleeding risk") == 1
    assert "Patient facts on file: Medications: warfarin 5 mg." in composition.text
    assert "bleeding" in composition.text.lower() and "[1]" in composition.text


def test_korean_question_gets_a_korean_frame_and_quoted_english_evidence(minilm, clinical_pack):
    from engine.clinical import extract

    question = "저혈당 증상이 뭐예요?"
    slots = extract(question)
    composition = compose(question=question, language="ko", slots=slots, documents=HYPO_FIRST,
                          checker=SupportChecker(minilm))
    assert composition.query.startswith("What are the symptoms of")
    lines = composition.text.splitlines()
    assert lines[0].startswith("저혈당의 증상")
    assert "영어 원문 근거 (English source text" in composition.text
    quoted = [line for line in lines if line.startswith("- ")]
    assert 1 <= len(quoted) <= 3 and all(CITED.search(line) and '"' in line for line in quoted)
    assert any("증상" in line for line in quoted)  # the facet named in Korean
    assert "진단이 아닙니다" in composition.text


def test_nothing_relevant_gives_no_answer_rather_than_a_guess(minilm):
    composition = compose(question="What causes gout?", language="en", slots={}, documents=[],
                          checker=SupportChecker(minilm))
    assert not [s for s in composition.sentences if s.kind == "sourced"]
    assert "no answer is given" in composition.text
