"""Active retrieval widens for real: the k the turn chooses is the number of documents it
retrieves, and the documents section is fitted into its token budget by compression.

Real default model, real hybrid retrieval (BM25 + MiniLM + FAISS) on the fixture knowledge
base, real clinical pack. The documents budget is set small enough that a cap of
`budget // average chunk tokens` would cut every k to one or two documents."""

from __future__ import annotations

import pytest

from engine.events import Done
from tests.engine.agent.kb_fixture import DOCUMENTS

DOCUMENTS_BUDGET = 120
QUESTIONS = [
    "What is metformin?",
    "I have type 2 diabetes and take metformin; how do exercise, foot care, kidney tests and HbA1c targets fit "
    "together, and what should I do about low blood sugar when walking?",
]


def _engine(fixture_kb, minilm):
    from engine.agent.wiring import KnowledgeService
    from engine.facade import Engine
    from engine.knowledge import HybridRetriever
    from engine.settings import Settings

    settings = Settings()
    settings = settings.model_copy(update={
        "llm": settings.llm.model_copy(update={"max_answer_tokens": 24}),
        "context": settings.context.model_copy(update={"documents_tokens": DOCUMENTS_BUDGET}),
        "features": settings.features.model_copy(update={"response_cache": False, "self_refine": False})})
    return Engine(settings, knowledge=KnowledgeService(HybridRetriever(fixture_kb)), embedder=minilm)


def _trace(engine, text: str) -> dict:
    result = {}
    for event in engine.ask(text):
        if isinstance(event, Done):
            result = event.result
    return result


@pytest.mark.real_model
def test_chosen_k_is_the_k_retrieved_and_fits_the_budget_by_compression(fixture_kb, minilm, clinical_pack):
    engine = _engine(fixture_kb, minilm)
    average = fixture_kb.avg_chunk_tokens
    assert DOCUMENTS_BUDGET // average < 3  # the old cap would have allowed fewer than k_simple
    chosen = []
    for question in QUESTIONS:
        result = _trace(engine, question)
        trace = result["trace"]
        stats = trace["compression"]
        k = trace["dynamic_k"]
        chosen.append(k)
        assert k >= 3
        assert stats["k_chosen"] == k
        assert stats["documents_retrieved"] == min(k, len(DOCUMENTS)) == len(result["sources"])
        assert 1 <= stats["passages_kept"] <= stats["documents_retrieved"]
        assert trace["context_tokens"]["documents"] <= DOCUMENTS_BUDGET
        assert stats["original_tokens"] > DOCUMENTS_BUDGET and stats["strategy"] is not None
    assert chosen[1] > chosen[0]  # the broader question widens retrieval
