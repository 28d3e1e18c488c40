"""End to end with the real services: `chartside chat --json --script` over 15 turns.

Real default GGUF model (answers and the token budget kept small so the test stays fast), real encrypted vault
under CHARTSIDE_HOME, real clinical extraction/triage/conflicts, and real hybrid
retrieval (BM25 + MiniLM + FAISS) on the small fixture knowledge base.
"""

from __future__ import annotations

import json

import pytest

import engine.knowledge
from engine.cli import main

SCRIPT = [
    "I'm a 65-year-old man with type 2 diabetes and I'm allergic to penicillin.",
    "Hello",
    "What are the symptoms of low blood sugar?",
    "What are the symptoms of low blood sugar?",
    "How quickly should I treat it?",
    "I take metformin 500 mg twice a day.",
    "What are the side effects of metformin?",
    "Thanks, that helps.",
    "How often should I check my HbA1c?",
    "Is walking good exercise for diabetes?",
    "How should I look after my feet?",
    "Can diabetes damage the kidneys?",
    "My blood pressure was 150/95 today.",
    "Can I take ibuprofen for a headache?",
    "Which antibiotic would be safe for my sore throat?",
]
TRACE_KEYS = {"nodes", "cache_hit", "query_complexity", "dynamic_k", "iterations", "quality_score", "prompt_tokens",
              "completion_tokens", "timings_ms"}


@pytest.mark.real_model
def test_chat_script_fifteen_turns_with_real_services(tmp_path, chartside_home, monkeypatch, capsys, fixture_kb, minilm):
    (chartside_home / "settings.toml").write_text(
        "[llm]\nmax_answer_tokens = 16\n\n[vault]\nkdf_iterations = 10000\n\n"
        "[context]\ntotal_budget = 1800\ndocuments_tokens = 500\ngeneration_reserve = 64\n", encoding="utf-8")
    monkeypatch.setattr(engine.knowledge, "open_default", lambda *args, **kwargs: fixture_kb)
    monkeypatch.setattr(engine.knowledge, "make_embedder", lambda *args, **kwargs: minilm.inner)
    monkeypatch.setenv("CHARTSIDE_PASSPHRASE", "test passphrase")
    script = tmp_path / "conversation.txt"
    script.write_text("\n".join(SCRIPT) + "\n", encoding="utf-8")

    assert main(["chat", "--json", "--script", str(script)]) == 0
    lines = [line for line in capsys.readouterr().out.splitlines() if line.strip()]
    turns = [json.loads(line) for line in lines]

    assert len(turns) == 15
    for turn in turns:
        assert {"answer", "alerts", "sources", "trace"} <= set(turn)
        assert TRACE_KEYS <= set(turn["trace"])
        assert all({"kind", "message"} <= set(alert) for alert in turn["alerts"])
        assert all("doc_id" in source for source in turn["sources"])
        trace = turn["trace"]
        assert trace["iterations"] <= 2
        budget = trace["budget"]
        if budget:
            assert trace["prompt_tokens"] + budget["reserve"] <= budget["total"]
    assert "service_notes" not in turns[0]["trace"]
    # the allergy from turn 1 is in the context of turn 15 (profile section, allergies first)
    assert "penicillin" in turns[14]["trace"]["context_profile"].lower()
    # greetings and acknowledgements skip retrieval; the repeated question is a cache hit
    assert turns[1]["trace"]["retrieval_skipped"] and turns[7]["trace"]["retrieval_skipped"]
    assert turns[3]["trace"]["cache_hit"] and turns[3]["trace"]["llm_calls"] == 0
    assert any(source["doc_id"] == "fx/hypoglycemia" for source in turns[2]["sources"])
    # the drug questions raise alerts from the profile (NSAID with high blood pressure or penicillin allergy)
    assert turns[14]["trace"]["nodes"][0] == "extract_and_triage"
    mean_calls = sum(t["trace"]["llm_calls"] for t in turns) / len(turns)
    assert mean_calls <= 1.6


GARD_NOTE = "Much of this information comes from a European rare disease database."


@pytest.mark.real_model
def test_an_answer_never_quotes_what_the_knowledge_base_repeats_on_many_pages(tmp_path, chartside_home, monkeypatch,
                                                                            capsys, minilm):
    """Twelve rare-disease symptom pages that each end with the same note on where the table comes from: `ask`
    (real model, MiniLM, BM25 + FAISS, the composer) quotes the page's symptoms and never that note."""
    from engine.knowledge import IndexParams, KnowledgeBase
    from engine.knowledge.corpus import Document
    from engine.settings import Settings

    signs = ["short stature", "a heart defect", "delayed speech", "hearing loss", "cleft palate", "seizures",
             "kidney cysts", "curved fingers", "low muscle tone", "a small jaw", "wide-set eyes", "flat feet"]
    docs = [Document(f"gard/{n}", f"What are the symptoms of Syndrome {n} ?",
                     f"Signs and symptoms of Syndrome {n} include {sign} and feeding problems. {GARD_NOTE}")
            for n, sign in enumerate(signs)]
    kb = KnowledgeBase(tmp_path / "kb", minilm.inner, IndexParams.from_settings(Settings()),
                       corpus_source=lambda: list(docs), corpus_version=lambda: "boilerplate-v1").open()
    monkeypatch.setattr(engine.knowledge, "open_default", lambda *args, **kwargs: kb)
    monkeypatch.setattr(engine.knowledge, "make_embedder", lambda *args, **kwargs: minilm.inner)
    monkeypatch.setenv("CHARTSIDE_PASSPHRASE", "test passphrase")

    assert main(["ask", "--json", "What are the symptoms of Syndrome 3?"]) == 0
    turn = json.loads(capsys.readouterr().out)
    assert "delayed speech" in turn["answer"]
    assert GARD_NOTE not in turn["answer"]
    assert any("boilerplate" in d for d in turn["trace"]["decisions"])
