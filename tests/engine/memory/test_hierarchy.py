"""Three-tier memory with the real MiniLM embedder and a real vault."""

from __future__ import annotations

import os
from types import SimpleNamespace

import numpy as np
import pytest

from engine.errors import ModelOutputError
from engine.memory.hierarchy import HierarchicalMemory, ensure_facts_survive
from engine.memory.profile import ProfileStore
from engine.memory.store import Vault
from tests.engine.memory.conftest import PASSPHRASE, fast_settings

SCRIPT = [
    ("I'm allergic to penicillin and I have type 2 diabetes.",
     {"allergies": [{"name": "penicillin", "concept_id": "C0030842", "text": "penicillin"}],
      "conditions": [{"name": "type 2 diabetes", "concept_id": "C0011860", "text": "type 2 diabetes"}]}),
    ("I take metformin 500 mg twice daily.", {"medications": [{"name": "metformin", "dose": "500 mg", "frequency": "twice daily"}]}),
    ("My left knee hurts after running long distances.", {"symptoms": [{"name": "knee pain", "text": "knee hurts"}]}),
    ("How much water should I drink each day?", {}),
    ("What is a healthy breakfast?", {}),
    ("I sleep badly, maybe five hours a night.", {"symptoms": [{"name": "insomnia", "text": "sleep badly"}]}),
    ("Is coffee bad for me?", {}),
    ("My blood pressure was 138/88 this morning.",
     {"vitals": [{"type": "blood_pressure", "systolic": 138, "diastolic": 88, "unit": "mmHg"}]}),
    ("Should I walk every day?", {}),
    ("My HbA1c came back at 8.2 percent.", {"labs": [{"type": "hba1c", "value": 8.2, "unit": "%", "name": "HbA1c"}]}),
    ("What snacks are good in the afternoon?", {}),
    ("Can stress affect my sugar levels?", {}),
    ("I have a mild headache today.", {"symptoms": [{"name": "headache"}]}),
    ("Is it fine to fly next month?", {}),
]
TURN_15 = "I have a sinus infection. Can I take amoxicillin, and what exercises help my knee pain from running?"


def words(text: str) -> int:
    return len(text.split())


class ForgetfulSummariser:
    """Control-flow fake: a summary that drops every clinical fact."""

    def __init__(self):
        self.calls = []

    def summarise(self, text: str, max_tokens: int) -> str:
        self.calls.append((text, max_tokens))
        return "The patient asked several general lifestyle questions."


class BrokenSummariser:
    def summarise(self, text: str, max_tokens: int) -> str:
        raise ModelOutputError("not JSON")


def run_script(vault, memory, patient, session):
    turn_ids = []
    for i, (text, slots) in enumerate(SCRIPT, start=1):
        turn_id = memory.start_turn(session, text)
        if slots:
            memory.profile.update(patient, slots, turn_id)
        memory.finish_turn(turn_id, f"answer {i}", [{"doc_id": f"doc-{i}"}], [], {"nodes": []})
        turn_ids.append(turn_id)
    return turn_ids


@pytest.fixture(scope="module")
def scripted(tmp_path_factory, minilm):
    """One 14-turn conversation shared by the tests that only read it (embedding each
    turn with the real model is the slow part)."""
    folder = tmp_path_factory.mktemp("scripted_vault")
    with Vault.open(folder / "vault.db", PASSPHRASE, create=True, settings=fast_settings()) as vault:
        patient = vault.create_patient("Scripted Patient")
        session = vault.create_session(patient)
        summariser = ForgetfulSummariser()
        memory = HierarchicalMemory(vault, minilm, summariser, ProfileStore(vault))
        turn_ids = run_script(vault, memory, patient, session)
        yield SimpleNamespace(vault=vault, memory=memory, summariser=summariser, turn_ids=turn_ids,
                              patient=patient, session=session, folder=folder)


def test_turn_15_context_still_knows_turn_1(scripted):
    turn_ids = scripted.turn_ids
    context = scripted.memory.retrieve_context(TURN_15, 400, words, session_id=scripted.session)
    everything = "\n".join(context[tier] for tier in ("working", "compressed", "semantic"))
    assert "penicillin" in everything and "type 2 diabetes" in everything
    assert "penicillin" in context["semantic"].splitlines()[0]  # the allergy line comes first
    assert context["working_turn_ids"] == turn_ids[-5:]
    assert turn_ids[2] in context["related_turn_ids"]  # the knee turn, recalled by similarity
    assert "knee hurts after running" in context["semantic"]


def test_summaries_every_five_turns_restore_what_the_model_dropped(scripted):
    summariser = scripted.summariser
    summaries = scripted.memory.summaries(session_id=scripted.session)
    assert [(s["first_position"], s["last_position"]) for s in summaries] == [(1, 5), (6, 10)]
    assert len(summariser.calls) == 2 and summariser.calls[0][1] == 200
    first, second = summaries
    assert first["summary"].startswith("The patient asked several general lifestyle questions.")
    assert "allergy to penicillin (unconfirmed)" in first["restored"]
    assert "type 2 diabetes" in first["restored"] and "metformin 500 mg twice daily" in first["restored"]
    assert "HbA1c 8.2 % (abnormal)" in second["restored"]
    for fact in ("penicillin", "type 2 diabetes", "metformin"):
        assert fact in second["summary"]


def test_budget_splits_50_30_20_and_is_never_exceeded(scripted):
    context = scripted.memory.retrieve_context(TURN_15, 60, words, session_id=scripted.session)
    assert sum(context["tokens"].values()) <= 60
    for tier in ("working", "compressed", "semantic"):
        assert words(context[tier]) == context["tokens"][tier] <= context["budgets"][tier]
    assert context["budgets"]["working"] >= 30 and context["budgets"]["compressed"] >= 18
    assert context["semantic"].startswith("Allergies: penicillin")


def test_unused_budget_flows_to_the_other_tiers(vault, patient, session):
    memory = HierarchicalMemory(vault, profile=ProfileStore(vault))
    for i in range(3):
        memory.add_turn(session, "long question " + "word " * 40, "long answer " + "word " * 40)
    context = memory.retrieve_context("question", 200, words, session_id=session)
    assert context["compressed"] == ""
    assert len(context["working_turn_ids"]) == 3
    assert context["tokens"]["working"] > 100  # more than its 50 % share


def test_turn_embeddings_live_only_inside_the_vault(scripted):
    rows = list(scripted.vault.db["memory_embeddings"].rows_where())
    assert len(rows) == len(SCRIPT)
    vector = np.frombuffer(rows[0]["vector"], dtype=np.float32)
    assert vector.shape == (384,) and rows[0]["model"] == "all-minilm-l6-v2"
    assert np.linalg.norm(vector) == pytest.approx(1.0, abs=1e-4)
    assert set(os.listdir(scripted.folder)) <= {"vault.db", "vault.db-wal", "vault.db-shm"}


def test_semantic_memory_rules(vault, patient, session):
    store = ProfileStore(vault)
    memory = HierarchicalMemory(vault, profile=store)
    store.update(patient, {"conditions": [{"name": "hypertension"}, {"name": "common cold"}, {"name": "gastritis"}],
                           "medications": [{"name": "omeprazole"}, {"name": "amlodipine"}],
                           "allergies": [{"name": "sulfa"}]})
    store.update(patient, {"conditions": [{"name": "gastritis"}], "medications": [{"name": "amlodipine"}]})
    facts = memory.semantic_facts(patient)
    assert [e["name"] for _, e in facts["allergies"]] == ["sulfa"]  # at once, pending included
    assert sorted(e["name"] for _, e in facts["chronic_conditions"]) == ["gastritis", "hypertension"]
    assert [e["name"] for _, e in facts["chronic_medications"]] == ["amlodipine"]


def test_failed_summariser_falls_back_to_an_extractive_summary(vault, patient, session):
    memory = HierarchicalMemory(vault, summariser=BrokenSummariser(), profile=ProfileStore(vault))
    for i in range(5):
        memory.add_turn(session, f"Question number {i}. More detail here.", "answer")
    [summary] = memory.summaries(session_id=session)
    assert summary["summary"].startswith("Question number 0.")


def test_fact_survival_check_is_deterministic():
    required = [("allergies", {"name": "penicillin", "status": "active"}),
                ("labs", {"name": "HbA1c", "type": "hba1c", "value": 8.2, "unit": "%", "abnormal": True})]
    kept, restored = ensure_facts_survive("Penicillin allergy noted; HbA1c 8.2 percent.", required)
    assert restored == [] and kept == "Penicillin allergy noted; HbA1c 8.2 percent."
    text, restored = ensure_facts_survive("HbA1c was discussed.", required)
    assert restored == ["allergy to penicillin", "HbA1c 8.2 % (abnormal)"]
    assert text.endswith("Key facts: allergy to penicillin; HbA1c 8.2 % (abnormal)")


def test_korean_labels(vault, patient, session):
    store = ProfileStore(vault)
    memory = HierarchicalMemory(vault, profile=store)
    store.update(patient, {"allergies": [{"name": "penicillin", "text": "페니실린"}]})
    memory.add_turn(session, "페니실린 알레르기가 있어요", "알겠습니다")
    context = memory.retrieve_context("질문", 200, words, patient_id=patient, language="ko")
    assert context["semantic"].startswith("알레르기: 페니실린 (penicillin) (미확인)")
    assert context["working"].startswith("사용자: 페니실린")
