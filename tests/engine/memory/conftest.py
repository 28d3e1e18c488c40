"""Fixtures for the encrypted store: real SQLCipher files under the test's CHARTSIDE_HOME.

Unit tests use a vault created with the minimum KDF count the settings allow (10,000)
so that each open costs milliseconds; the acceptance tests (wrong passphrase, canary)
use the default 256,000. The cipher, HMAC, WAL and everything else are the real thing.
"""

from __future__ import annotations

from typing import Sequence

import numpy as np
import pytest

from engine.memory.store import Vault, default_vault_path
from engine.settings import Settings

PASSPHRASE = "correct horse battery 스테이플"
FAST_KDF = 10_000


def fast_settings() -> Settings:
    settings = Settings()
    settings.vault.kdf_iterations = FAST_KDF
    return settings


@pytest.fixture
def settings() -> Settings:
    return fast_settings()


@pytest.fixture
def vault_path(chartside_home):
    return default_vault_path()


@pytest.fixture
def vault(vault_path, settings):
    with Vault.open(vault_path, PASSPHRASE, create=True, settings=settings) as opened:
        yield opened


@pytest.fixture
def patient(vault):
    return vault.create_patient("Test Patient")


@pytest.fixture
def session(vault, patient):
    return vault.create_session(patient)


class MiniLMEmbedder:
    """engine.protocols.Embedder over the real all-MiniLM-L6-v2 from the model manifest."""

    model_name = "all-minilm-l6-v2"

    def __init__(self):
        from sentence_transformers import SentenceTransformer

        from engine.models import get_model, verify

        self.model = SentenceTransformer(str(verify(get_model(self.model_name))), device="cpu")
        self.dimension = int(self.model.get_embedding_dimension())

    def embed(self, texts: Sequence[str]) -> np.ndarray:
        vectors = self.model.encode(list(texts), normalize_embeddings=True, convert_to_numpy=True)
        return np.asarray(vectors, dtype=np.float32)


@pytest.fixture(scope="session")
def minilm() -> MiniLMEmbedder:
    return MiniLMEmbedder()
