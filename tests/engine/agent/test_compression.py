"""Compression never exceeds its budget; extractive keeps order; abstractive retries and falls back."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.agent.compression import compress, extractive, render_documents, sentence_importance
from engine.passage import Passage
from engine.agent.tokens import TokenManager
from engine.errors import ModelOutputError
from engine.llm.fake import FakeLLM

TOKENS = TokenManager(None)
WORDS = ["metformin", "lowers", "blood", "glucose", "the", "patient", "insulin", "dose", "500", "mg", "kidney",
         "weather", "today", "and", "is", "with", "meals", "당뇨병", "혈당", "운동"]

sentence = st.lists(st.sampled_from(WORDS), min_size=1, max_size=25).map(lambda ws: " ".join(ws) + ".")
document = st.lists(sentence, min_size=1, max_size=12).map(" ".join)


@given(texts=st.lists(document, min_size=1, max_size=8), budget=st.integers(0, 400),
       strategy=st.sampled_from(["extractive", "abstractive", "hybrid"]), enabled=st.booleans())
@settings(max_examples=120, deadline=None)
def test_compressed_section_never_exceeds_the_budget(texts, budget, strategy, enabled):
    docs = [Passage(f"d/{i}", t, f"Doc {i}") for i, t in enumerate(texts)]
    llm = FakeLLM(["word " * 2000, "word " * 2000, "word " * 2000])
    section, stats = compress(docs, "metformin dose", budget, strategy, TOKENS, llm, enabled=enabled)
    assert TOKENS.count(section) <= budget
    assert stats["tokens"] <= budget


def test_under_budget_documents_pass_unchanged():
    docs = [Passage("d/1", "Metformin lowers glucose.", "Metformin")]
    section, stats = compress(docs, "metformin", 900, "extractive", TOKENS)
    assert section == render_documents(docs) == "[1] Metformin: Metformin lowers glucose."
    assert stats["strategy"] is None


def test_extractive_keeps_relevant_sentences_in_original_order():
    doc = Passage("d/1", "The weather was mild that year. Metformin lowers blood glucose in type 2 diabetes. "
                          "Many people enjoy long walks. Take metformin 500 mg with meals to reduce stomach upset.",
                   "Metformin")
    section = extractive([doc], "How should I take metformin?", 40, TOKENS)
    assert "Metformin lowers blood glucose" in section and "500 mg with meals" in section
    assert "weather" not in section
    assert section.index("lowers blood glucose") < section.index("500 mg")


def test_importance_weights_follow_the_seed():
    query = {"metformin", "dose"}
    relevant = sentence_importance("Metformin dose is 500 mg.", query, 0, 4)
    irrelevant = sentence_importance("The weather was mild.", query, 3, 4)
    assert 0.0 <= irrelevant < relevant <= 1.0


def test_abstractive_retries_shorter_then_succeeds():
    docs = [Passage("d/1", "Metformin lowers glucose. " * 60, "Metformin")]
    llm = FakeLLM(["pneumonoultramicroscopic " * 500, "Metformin lowers glucose [1]."])
    section, stats = compress(docs, "metformin", 60, "abstractive", TOKENS, llm)
    assert "Metformin lowers glucose [1]." in section
    assert stats["llm_calls"] == 2 and stats["strategy"] == "abstractive"


def test_hybrid_falls_back_to_extractive_when_the_model_fails():
    docs = [Passage("d/1", "Metformin lowers glucose. The sky is blue. " * 30, "Metformin")]
    llm = FakeLLM([ModelOutputError("broken"), ModelOutputError("broken")])
    section, stats = compress(docs, "metformin glucose", 60, "hybrid", TOKENS, llm)
    assert stats["strategy"] == "extractive" and stats["fallback"]
    assert TOKENS.count(section) <= 60 * 0.6 + 1
    assert "Metformin lowers glucose" in section


def test_compression_off_truncates_in_rank_order():
    docs = [Passage("d/1", "First document text. " * 5, "A"), Passage("d/2", "Second document. " * 80, "B")]
    section, stats = compress(docs, "x", 60, "extractive", TOKENS, enabled=False)
    assert stats["strategy"] == "truncate"
    assert section.startswith("[1] A: First document text.")
    assert TOKENS.count(section) <= 60
