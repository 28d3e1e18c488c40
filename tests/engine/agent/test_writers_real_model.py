"""The three answer writers end to end with the real default model, real retrieval on the
fixture knowledge base, the real embedder and the real clinical pack."""

from __future__ import annotations

import json

import pytest

from engine.events import Done, Token

QUESTION = "What are the symptoms of low blood sugar?"


def _engine(fixture_kb, minilm, writer: str, support_check: bool = True, pack=None):
    """An engine over the fixture index; with `pack`, Korean questions are translated by its concepts
    (the English embedder is not given Hangul it cannot read)."""
    from engine.agent.wiring import KnowledgeService
    from engine.clinical import PackConceptFinder
    from engine.facade import Engine
    from engine.knowledge import HybridRetriever
    from engine.knowledge.translation import QueryTranslator
    from engine.settings import Settings

    settings = Settings()
    settings = settings.model_copy(update={
        "answer": settings.answer.model_copy(update={"writer": writer, "support_check": support_check}),
        "llm": settings.llm.model_copy(update={"max_answer_tokens": 48}),
        "features": settings.features.model_copy(update={"response_cache": False, "self_refine": False})})
    translator = QueryTranslator(PackConceptFinder(pack)) if pack is not None else None
    retriever = HybridRetriever(fixture_kb, translator=translator)
    return Engine(settings, knowledge=KnowledgeService(retriever), embedder=minilm)


def _ask(engine, text: str) -> tuple[str, dict]:
    streamed, result = [], {}
    for event in engine.ask(text):
        if isinstance(event, Token):
            streamed.append(event.text)
        elif isinstance(event, Done):
            result = event.result
    return "".join(streamed), result


@pytest.mark.real_model
def test_default_writer_for_the_small_model_is_the_composer(fixture_kb, minilm, clinical_pack):
    engine = _engine(fixture_kb, minilm, "auto")
    try:
        streamed, result = _ask(engine, QUESTION)
    finally:
        engine.close()
    assert streamed == result["answer"]
    sourced = [s for s in result["sentences"] if s["kind"] == "sourced"]
    assert 3 <= len(sourced) <= 6
    assert all(s["source"] and s["support"] >= 0.6 for s in sourced)
    assert all(f"{s['text']} [{s['source']}]" in result["answer"] for s in sourced)
    cited_docs = {result["sources"][s["source"] - 1]["doc_id"] for s in sourced}
    assert "fx/hypoglycemia" in cited_docs
    assert {s["kind"] for s in result["sentences"]} == {"sourced", "notice"}
    assert all(s["source_sentence"] for s in result["trace"]["support"] if s["kind"] == "sourced")
    assert json.loads(json.dumps(result))["sentences"][0]["kind"] == "notice"


@pytest.mark.real_model
def test_model_writer_keeps_only_supported_sentences(fixture_kb, minilm, clinical_pack):
    engine = _engine(fixture_kb, minilm, "model")
    try:
        streamed, result = _ask(engine, QUESTION)
    finally:
        engine.close()
    assert streamed == result["answer"]  # nothing withdrawn after it was shown
    records = result["trace"]["support"]
    assert records
    for record in records:
        if record["kind"] != "sourced":
            continue
        if record["source"] is None:
            assert record["text"] not in result["answer"]
            assert record["reason"]
        else:
            assert f"{record['text']} [{record['source']}]" in result["answer"]
    assert any("answer:" in d for d in result["trace"]["decisions"])
    sourced = [r for r in records if r["kind"] == "sourced"]
    left_out = [r for r in records if r["kind"] == "notice" and r["reason"] == "left out"]
    composed = any("the composer's answer is given" in d for d in result["trace"]["decisions"])
    kept_some_dropped_some = (not composed and any(r["source"] for r in sourced)
                              and any(r["source"] is None for r in sourced))
    assert len(left_out) == (1 if kept_some_dropped_some else 0)
    assert all(r["text"] in result["answer"] for r in left_out)


@pytest.mark.real_model
def test_composer_with_a_model_lead_keeps_the_lead_only_when_supported(fixture_kb, minilm, clinical_pack):
    engine = _engine(fixture_kb, minilm, "composer+model")
    try:
        _, result = _ask(engine, QUESTION)
    finally:
        engine.close()
    decisions = [d for d in result["trace"]["decisions"] if d.startswith("composer+model")]
    assert len(decisions) == 1
    sourced = [s for s in result["sentences"] if s["kind"] == "sourced"]
    assert sourced and all(s["source"] for s in sourced)


@pytest.mark.real_model
def test_korean_question_is_answered_in_korean_with_quoted_english_evidence(fixture_kb, minilm, clinical_pack):
    engine = _engine(fixture_kb, minilm, "auto", pack=clinical_pack)
    try:
        _, result = _ask(engine, "저혈당 증상이 뭐예요?")
    finally:
        engine.close()
    answer = result["answer"]
    assert answer.startswith("저혈당의 증상")
    assert "English source text" in answer and '"' in answer
    hangul = sum("\uac00" <= c <= "\ud7a3" for c in answer)
    latin = sum(c.isascii() and c.isalpha() for c in answer)
    assert hangul / (hangul + latin) > 0.25
    assert all(s["source"] for s in result["sentences"] if s["kind"] == "sourced")
