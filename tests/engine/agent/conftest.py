"""Session-scoped real services for the agent tests (loaded once: they are slow to start)."""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session")
def minilm():
    """The real all-MiniLM-L6-v2 embedder (sha256-verified), behind the agent's memo."""
    from engine.agent.embedding import MemoEmbedder
    from engine.knowledge import make_embedder
    from engine.settings import Settings

    embedder = MemoEmbedder(make_embedder(Settings()))
    embedder.embed(["warm up"])
    return embedder
