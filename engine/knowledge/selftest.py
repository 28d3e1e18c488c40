"""Selftest check for the knowledge service (add "engine.knowledge.selftest:check_index"
to engine.selftest.CHECKS)."""

from __future__ import annotations


def check_index(settings) -> str:
    """The default index loads without a rebuild, and BM25, dense and hybrid search answer."""
    from engine.knowledge import HybridRetriever, open_default

    kb = open_default(settings, build=False)
    retriever = HybridRetriever.from_settings(kb, settings)
    try:
        for mode in ("bm25", "dense", "hybrid"):
            if not retriever.rank("What are the symptoms of diabetes?", mode=mode, k=3).doc_ids:
                raise RuntimeError(f"{mode} search returned nothing")
    finally:
        retriever.close()
    return f"knowledge index: {kb.size} chunks, loaded in {kb.load_seconds:.2f}s; bm25/dense/hybrid ok"
