"""Turn-path safety through the Engine facade over a real encrypted vault, with the real
clinical rules (MedCAT pack): two patients sharing a vault and a cache, emergency turns
in the record, stopped turns marked in exports, questions that add no facts."""

from __future__ import annotations

import json

import pytest

from engine.agent.wiring import ClinicalService
from engine.clinical.red_flags import MESSAGES
from engine.events import Done, Token
from engine.facade import Engine
from engine.llm.fake import FakeLLM
from engine.settings import Settings
from tests.engine.agent.fakes import FakeKnowledge, HashEmbedder

PASSPHRASE = "correct horse battery staple"
QUESTION = "Can I take amoxicillin for strep throat?"


def make_engine(path, llm, *, refine: bool = False) -> Engine:
    settings = Settings()
    settings.vault.kdf_iterations = 10_000
    settings.features.self_refine = refine
    settings.answer.writer = "model"  # the fake model's words as written: this is about the turn path
    settings.answer.support_check = False
    return Engine(settings, llm=llm, knowledge=FakeKnowledge(), clinical=ClinicalService(), embedder=HashEmbedder(),
                  vault_path=path / "vault.db")


def ask(engine, text, patient):
    return [e for e in engine.ask(text, patient_id=patient["id"]) if isinstance(e, Done)][0].result


@pytest.fixture
def engine(tmp_path, clinical_pack):
    engine = make_engine(tmp_path, FakeLLM(["Amoxicillin treats strep throat [1]."] * 6))
    engine.patients.unlock(PASSPHRASE, create=True)
    yield engine
    engine.close()


def test_an_answer_without_an_allergy_is_never_served_to_a_patient_with_one(tmp_path, clinical_pack):
    engine = make_engine(tmp_path, FakeLLM(["Answer written for A [1].", "Noted.", "Answer written for B [1]."]))
    engine.patients.unlock(PASSPHRASE, create=True)
    first, allergic, third = (engine.patients.create_patient(name) for name in ("A", "B", "C"))
    assert not ask(engine, QUESTION, first)["trace"]["cache_hit"]
    ask(engine, "I'm allergic to penicillin.", allergic)
    result = ask(engine, QUESTION, allergic)
    assert not result["trace"]["cache_hit"] and "written for B" in result["answer"]
    assert any("patient facts" in d for d in result["trace"]["decisions"])
    assert any(a["kind"] == "allergy_conflict" for a in result["alerts"])
    reused = ask(engine, QUESTION, third)
    assert reused["trace"]["cache_hit"] and "written for A" in reused["answer"]
    engine.close()
    # the key is kept with each entry in the vault: after a restart each patient still gets
    # only the answer written for its own clinical facts
    reopened = make_engine(tmp_path, FakeLLM([]))
    reopened.patients.unlock(PASSPHRASE)
    again = ask(reopened, QUESTION, allergic)
    assert again["trace"]["cache_hit"] and "written for B" in again["answer"]
    assert "written for A" in ask(reopened, QUESTION, reopened.patients.create_patient("D"))["answer"]
    reopened.close()


@pytest.mark.parametrize("text,language", [("ok, I want to kill myself", "en"), ("감사 근데 자살하고 싶어요", "ko")])
def test_an_emergency_turn_is_recorded_with_what_was_shown(engine, tmp_path, text, language):
    patient = engine.patients.create_patient("Kim")
    result = ask(engine, text, patient)
    guidance = MESSAGES[language]["suicidal_thoughts"]
    assert result["answer"].startswith(guidance)
    events = engine.patients.vault.safety_events(patient["id"])
    assert [(e["category"], e["message"], e["shown"], e["stopped"]) for e in events] == [
        ("suicidal_thoughts", guidance, result["answer"], False)]
    assert engine.patients.vault.audit_log(patient["id"], event="safety.emergency")
    record = json.loads(engine.patients.export_patient(patient["id"], tmp_path / "kim.json").read_text(encoding="utf-8"))
    assert record["safety_events"][0]["category"] == "suicidal_thoughts"
    markdown = engine.patients.export_patient(patient["id"], tmp_path / "kim.md", "md").read_text(encoding="utf-8")
    assert "## Safety events" in markdown and guidance[:20] in markdown


def test_a_stopped_turn_is_marked_everywhere(engine, tmp_path):
    engine.container.use_llm(FakeLLM(["one two three four five six seven eight"]))
    patient = engine.patients.create_patient("Lee")
    for event in engine.ask("How is asthma treated?", patient_id=patient["id"]):
        if isinstance(event, Token):
            engine.turns.cancel()
    session = engine.patients.list_sessions(patient["id"])[0]
    assert engine.patients.session_turns(session["id"])[0]["trace"]["cancelled"]
    conversation = engine.patients.export_conversation(session["id"], tmp_path / "c.md").read_text(encoding="utf-8")
    record = engine.patients.export_patient(patient["id"], tmp_path / "p.md", "md").read_text(encoding="utf-8")
    assert "stopped by the user" in conversation and "stopped by the user" in record


@pytest.mark.parametrize("text", ["Write a detailed overview of asthma and how inhalers are used.",
                                  "What causes a chronic cough?", "천식에 대해 자세히 설명해 주세요."])
def test_general_questions_add_no_patient_facts(engine, text):
    patient = engine.patients.create_patient("Park")
    ask(engine, text, patient)
    profile = engine.patients.profile(patient["id"])
    assert not any(profile[slot] for slot in ("conditions", "symptoms", "medications", "allergies"))


def test_an_unsure_mention_waits_for_confirmation(engine):
    patient = engine.patients.create_patient("Choi")
    ask(engine, "Asthma. What inhalers are there?", patient)
    conditions = engine.patients.profile(patient["id"])["conditions"]
    assert [(c["name"], c["status"]) for c in conditions] == [("asthma", "pending-confirmation")]


def test_the_engine_adds_the_similar_emergency_check_to_the_rules(tmp_path, clinical_pack):
    """The default clinical service: the rules, then similarity over the real MiniLM."""
    from engine.agent.embedding import MemoEmbedder
    from engine.knowledge import make_embedder

    settings = Settings()
    settings.vault.kdf_iterations = 10_000
    engine = Engine(settings, llm=FakeLLM([]), knowledge=FakeKnowledge(),
                    embedder=MemoEmbedder(make_embedder(settings)), vault_path=tmp_path / "vault.db")
    engine.patients.unlock(PASSPHRASE, create=True)
    patient = engine.patients.create_patient("Lee")
    result = ask(engine, "I swallowed every pill in my cupboard an hour ago.", patient)
    emergency = [a for a in result["alerts"] if a.get("kind") == "emergency"]
    assert [a["category"] for a in emergency] == ["overdose"]
    assert result["answer"].startswith("This message resembles descriptions of an emergency.")
    assert emergency[0]["detected_by"] == "similar"
    assert [e["category"] for e in engine.patients.vault.safety_events(patient["id"])] == ["overdose"]
    engine.close()
