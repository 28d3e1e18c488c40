"""Session-scoped real services for the agent tests (loaded once: they are slow to start)."""

from __future__ import annotations

import pytest

from engine.agent.runtime_env import passive_openmp_waits

passive_openmp_waits()  # before torch or llama_cpp start OpenMP (see engine.agent.runtime_env)


@pytest.fixture(scope="session")
def minilm():
    """The real all-MiniLM-L6-v2 embedder (sha256-verified), behind the agent's memo."""
    from engine.agent.embedding import MemoEmbedder
    from engine.knowledge import make_embedder
    from engine.settings import Settings

    embedder = MemoEmbedder(make_embedder(Settings()))
    embedder.embed(["warm up"])
    return embedder


@pytest.fixture(scope="session")
def fixture_kb(tmp_path_factory, minilm):
    """The small test knowledge base, built once with real BM25 + MiniLM + FAISS."""
    from tests.engine.agent.kb_fixture import build_fixture_kb

    return build_fixture_kb(tmp_path_factory.mktemp("agent_kb"), minilm)
