"""The knowledge service: documents with stable ids, chunks, BM25 and dense indexes.

    kb = open_default(settings)                    # builds on first use, then loads (<1 s)
    retriever = HybridRetriever.from_settings(kb, settings, expander)
    hits = retriever.search("metformin and kidney disease", k=8, docs_budget=900)

See store.py for the on-disk layout and manifest, hybrid.py for fusion, README.md for the
benchmark figures and how they were measured.
"""

from __future__ import annotations

from pathlib import Path
from typing import Callable

from engine.knowledge.hybrid import HybridRetriever, budget_k, profile_rewrite, reciprocal_rank_fusion
from engine.knowledge.store import (
    IndexParams,
    MANIFEST,
    KnowledgeBase,
    Progress,
)
from engine.paths import install_bundled

__all__ = [
    "HybridRetriever", "IndexParams", "KnowledgeBase",
    "Progress", "budget_k", "bundled_kb_dir", "default_kb_dir", "open_default", "profile_rewrite",
    "reciprocal_rank_fusion",
]

KB_FOLDER = "knowledge"
BUNDLED_FOLDER = "knowledge_index"


def default_kb_dir() -> Path:
    from engine.settings import data_dir

    return data_dir() / KB_FOLDER


def bundled_kb_dir() -> Path:
    """Where a release build ships the prebuilt default index (next to resources/)."""
    from engine.paths import bundle_root

    return bundle_root() / BUNDLED_FOLDER


def make_embedder(settings, *, verify: bool = True):
    from engine.knowledge.dense import SentenceTransformerEmbedder

    return SentenceTransformerEmbedder.from_settings(settings, verify=verify)


def open_default(
    settings=None,
    *,
    build: bool = True,
    progress: Callable[[Progress], None] | None = None,
    cancelled: Callable[[], bool] | None = None,
    embedder=None,
    folder: Path | None = None,
    force: bool = False,
) -> KnowledgeBase:
    """The default knowledge base in the data folder, built (or installed from the
    release bundle) when missing, rebuilt where the manifest says it is stale (`force`:
    rebuilt entirely)."""
    from engine.settings import load_settings

    settings = settings or load_settings()
    folder = folder or default_kb_dir()
    install_bundled(bundled_kb_dir(), folder, MANIFEST)
    kb = KnowledgeBase(folder, embedder or make_embedder(settings), IndexParams.from_settings(settings))
    return kb.open(build=build, progress=progress, cancelled=cancelled, force=force)
