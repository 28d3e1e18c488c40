"""The scratch patient memory used when no encrypted store is open."""

from __future__ import annotations

import pytest

from engine.agent.ephemeral import EphemeralMemory


@pytest.mark.parametrize("language, taken, denied", [("en", "Medications: warfarin", "Denies: aspirin"),
                                                     ("ko", "복용약: warfarin", "부인: aspirin")])
def test_the_scratch_memory_summary_lists_what_the_patient_denies_as_the_store_does(language, taken, denied):
    memory = EphemeralMemory()
    memory.update_profile({"medications": [{"name": "warfarin"}, {"name": "aspirin", "negated": True}]}, "")
    lines = memory.profile_summary(language).splitlines()
    assert taken in lines and denied in lines
    assert not any(line.split(": ", 1)[1].startswith("no ") for line in lines)


def test_the_scratch_memory_keeps_no_topic_a_question_only_asks_about():
    """As the encrypted store: "How can I prevent the flu?" does not give the patient the flu."""
    memory = EphemeralMemory()
    memory.update_profile({"conditions": [{"name": "flu", "asked_about": True}, {"name": "asthma"}]}, "")
    assert memory.profile_summary("en").splitlines() == ["Conditions: asthma"]


@pytest.mark.parametrize("language, line", [("en", "Conditions: adhd (unconfirmed), asthma"),
                                            ("ko", "질환: adhd (미확인), asthma")])
def test_the_scratch_memory_shows_a_suspected_fact_unconfirmed_as_the_store_does(language, line):
    """"Could my son have ADHD?" suspects ADHD: the answer's facts line must not read it as a diagnosis."""
    memory = EphemeralMemory()
    memory.update_profile({"conditions": [{"name": "adhd", "uncertain": True}, {"name": "asthma"}]}, "")
    assert memory.profile_summary(language).splitlines() == [line]


@pytest.mark.parametrize("language, line", [("en", "Labs: potassium 6.1 mmol/L, INR 4.5"),
                                            ("ko", "검사: 칼륨 6.1 mmol/L, INR 4.5")])
def test_the_scratch_memory_names_a_lab_as_the_store_does(language, line):
    """A Korean facts line read "검사: 염화칼륨 6.0 mmol/L": the lab's English name, translated as the medicine."""
    memory = EphemeralMemory()
    memory.update_profile({"labs": [{"type": "potassium", "name": "potassium", "value": 6.1, "unit": "mmol/L"},
                                    {"type": "inr", "name": "INR", "value": 4.5, "unit": None}]}, "")
    assert line in memory.profile_summary(language).splitlines()
