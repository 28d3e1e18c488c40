"""The heuristic judge and the LLM judge's validation path."""

from __future__ import annotations

from engine.agent.judge import heuristic_judgement, llm_judgement
from engine.agent.nodes.quality import judge_is_too_small
from engine.errors import ModelOutputError
from engine.llm.fake import FakeLLM
from engine.settings import Settings
from tests.engine.agent.fakes import make_services

SOURCES = ["Metformin is a first-line medicine for type 2 diabetes. It is taken with meals to reduce stomach upset. "
           "Common side effects include nausea and diarrhea."]


def test_supported_complete_answer_scores_high():
    answer = "Metformin is a first-line medicine for type 2 diabetes [1]. Common side effects include nausea and diarrhea [1]."
    judged = heuristic_judgement("What are the side effects of metformin?", answer, SOURCES)
    assert judged["grounding"] == 1.0 and judged["completeness"] == 1.0 and judged["accuracy"] == 1.0
    assert judged["overall"] == 1.0 and judged["judge"] == "heuristic"


def test_unsupported_answer_scores_low_and_suggests_a_query():
    answer = "You should drink plenty of green tea every morning and sleep twelve hours nightly."
    judged = heuristic_judgement("What are the side effects of metformin?", answer, SOURCES)
    assert judged["grounding"] == 0.0
    assert judged["overall"] < 0.5
    assert "metformin" in judged["missing_info"]
    assert judged["suggested_query"].startswith("What are the side effects of metformin?")


def test_invented_numbers_and_ignored_alerts_cost_accuracy():
    alert = {"kind": "allergy_conflict", "drug": "amoxicillin", "message": "penicillin allergy"}
    judged = heuristic_judgement("Can I take amoxicillin?", "Yes, take amoxicillin 875 mg.", [], alerts=[alert])
    assert judged["accuracy"] <= 0.4
    assert any("amoxicillin" in c for c in judged["safety_concerns"])
    careful = heuristic_judgement("Can I take amoxicillin?", "Avoid amoxicillin: you are allergic to penicillin.", [],
                                  alerts=[alert])
    assert careful["accuracy"] == 1.0


def test_emergency_must_be_stated():
    alert = {"kind": "emergency", "message": "Call 119 now."}
    assert heuristic_judgement("chest pain", "Rest a little.", [], alerts=[alert])["accuracy"] == 0.5
    assert heuristic_judgement("chest pain", "Go to the emergency department now.", [], alerts=[alert])["accuracy"] == 1.0


def test_llm_judge_validates_and_clamps():
    llm = FakeLLM([{"grounding": 8, "completeness": 6, "accuracy": 10, "missing_info": ["dose"], "safety_concerns": [],
                    "suggested_query": "metformin dose"}])
    judged = llm_judgement(llm, "q", "a", "s")
    assert judged["overall"] == round(0.4 * 0.8 + 0.3 * 0.6 + 0.3 * 1.0, 4)
    assert judged["judge"] == "llm"
    bad = FakeLLM([{"grounding": "high"}])
    try:
        llm_judgement(bad, "q", "a", "s")
    except ModelOutputError:
        pass
    else:
        raise AssertionError("an invalid judgement must raise")


def test_small_models_use_the_heuristic_judge_by_default():
    assert judge_is_too_small(make_services(FakeLLM(parameters=135_000_000)))
    assert not judge_is_too_small(make_services(FakeLLM(parameters=7_000_000_000)))
    settings = Settings().with_flags({"heuristic_judge_for_small_models": False})
    assert not judge_is_too_small(make_services(FakeLLM(parameters=135_000_000), settings=settings))
