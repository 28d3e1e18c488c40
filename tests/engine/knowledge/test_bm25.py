"""BM25 scores must equal rank_bm25.BM25Okapi (1e-6 relative), on the real corpus too."""

import numpy as np
import pytest
from rank_bm25 import BM25Okapi

from engine.knowledge.bm25 import SparseBM25, top_k
from engine.knowledge.chunking import chunk_text
from engine.text import tokenize

from .conftest import real_shared_data

QUERIES = [
    "What are the symptoms of Noonan syndrome and polycystic kidney disease?",
    "I have celiac disease, does zolmitriptan contain gluten? gluten gluten",
    "metformin dose for type 2 diabetes in older adults",
    "unknownwordxyz",
    "the of and",  # only stop words: no tokens at all
    "당뇨병 metformin",
]


def assert_equal_scores(ours: SparseBM25, reference: BM25Okapi, queries):
    for query in queries:
        tokens = tokenize(query)
        expected = np.asarray(reference.get_scores(tokens))
        got = ours.get_scores(tokens)
        np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-12)


def test_equal_to_rank_bm25_on_a_small_corpus_with_negative_idf_terms():
    docs = ["diabetes diabetes insulin", "diabetes kidney", "diabetes migraine", "kidney stones", "당뇨병 환자"]
    corpus = [tokenize(d) for d in docs]
    ours = SparseBM25.from_tokens(corpus)
    reference = BM25Okapi(corpus)
    assert_equal_scores(ours, reference, ["diabetes", "kidney diabetes diabetes", "insulin stones 당뇨병", "none"])


def test_append_and_remove_keep_scores_equal_to_a_fresh_build():
    docs = [tokenize(d) for d in ["a diabetes text", "kidney kidney disease", "migraine triptan", "gluten celiac"]]
    ours = SparseBM25.from_tokens(docs[:2])
    ours.append(docs[2:])
    ours.remove([1])
    remaining = [docs[0], docs[2], docs[3]]
    assert_equal_scores(ours, BM25Okapi(remaining), ["kidney diabetes", "migraine gluten", "celiac"])


def test_save_and_load_round_trip(tmp_path):
    docs = [tokenize(d) for d in ["diabetes insulin", "kidney disease", "migraine"]]
    ours = SparseBM25.from_tokens(docs, k1=1.2, b=0.6)
    ours.save(tmp_path / "bm25.npz")
    loaded = SparseBM25.load(tmp_path / "bm25.npz")
    assert (loaded.k1, loaded.b) == (1.2, 0.6)
    np.testing.assert_array_equal(loaded.get_scores(["diabet"]), ours.get_scores(["diabet"]))


def test_top_k_orders_by_score_then_row_and_drops_zeros():
    rows, scores = top_k(np.array([0.0, 2.0, 1.0, 2.0, 0.5]), 3)
    assert rows.tolist() == [1, 3, 2] and scores.tolist() == [2.0, 2.0, 1.0]
    assert top_k(np.zeros(4), 3)[0].size == 0


@pytest.mark.slow
def test_equal_to_rank_bm25_on_the_real_default_corpus():
    """Every chunk of the real MedQuAD + LiveQA corpus, as the knowledge base chunks it."""
    from engine.knowledge.corpus import load_default_documents
    from engine.knowledge.store import bm25_text

    real_shared_data()
    corpus = []
    for doc in load_default_documents():
        for text, _ in chunk_text(doc.text, 256):
            corpus.append(tokenize(bm25_text(doc.title, text)))
    assert len(corpus) > 25_000
    ours = SparseBM25.from_tokens(corpus)
    reference = BM25Okapi(corpus)
    assert_equal_scores(ours, reference, QUERIES)
