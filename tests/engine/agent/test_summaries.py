"""The compressed memory tier's summaries come from the "summarise" model role when it can
answer, and from the deterministic extractive summary when it cannot.

Real default GGUF model, real SQLCipher vault, real retrieval on the fixture knowledge base,
real clinical pack; summaries every two turns so the test stays short."""

from __future__ import annotations

import pytest

from engine.events import Done
from engine.memory.hierarchy import HierarchicalMemory, extractive_summary

QUESTIONS = ["I take metformin 500 mg twice a day for type 2 diabetes.",
             "What are the side effects of metformin?"]


def _engine(fixture_kb, minilm, tmp_path, summarise_model: str | None = None):
    from engine.agent.wiring import KnowledgeService
    from engine.facade import Engine
    from engine.knowledge import HybridRetriever
    from engine.settings import Settings

    settings = Settings()
    settings.vault.kdf_iterations = 10_000
    settings.memory.summarise_every = 2
    settings.memory.summary_tokens = 48
    settings.llm.max_answer_tokens = 24
    settings.features.response_cache = False
    settings.features.self_refine = False
    if summarise_model is not None:
        settings.llm.summarise_model = summarise_model
    engine = Engine(settings, knowledge=KnowledgeService(HybridRetriever(fixture_kb)), embedder=minilm,
                    vault_path=tmp_path / "vault.db")
    engine.patients.unlock("summaries test", create=True)
    return engine


def _session_summaries(engine) -> tuple[list[dict], list[dict]]:
    patient = engine.patients.create_patient("Summary Test")
    session = engine.patients.new_session(patient["id"])
    for question in QUESTIONS:
        for event in engine.ask(question, patient_id=patient["id"], session_id=session["id"]):
            if isinstance(event, Done):
                assert event.result["answer"]
    summaries = HierarchicalMemory(engine.patients.vault).summaries(session_id=session["id"])
    turns = engine.patients.vault.list_turns(session_id=session["id"])
    return summaries, turns


@pytest.mark.real_model
def test_the_summarise_role_writes_the_conversation_summary(fixture_kb, minilm, clinical_pack, tmp_path):
    engine = _engine(fixture_kb, minilm, tmp_path)
    summaries, turns = _session_summaries(engine)
    assert len(summaries) == 1 and summaries[0]["first_position"] == 1 and summaries[0]["last_position"] == 2
    text = summaries[0]["summary"]
    assert text and not text.startswith(extractive_summary(turns))  # the model wrote it
    assert "metformin" in text.lower()  # written by the model, or restored by the fact check
    engine.close()


@pytest.mark.real_model
def test_without_a_summarise_model_the_summary_is_the_extractive_one(fixture_kb, minilm, clinical_pack, tmp_path):
    engine = _engine(fixture_kb, minilm, tmp_path, summarise_model="no-such-summariser")
    summaries, turns = _session_summaries(engine)
    assert len(summaries) == 1
    assert summaries[0]["summary"].startswith(extractive_summary(turns))
    engine.close()
