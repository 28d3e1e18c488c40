"""Small interfaces shared between services, so that each can be built and tested alone."""

from __future__ import annotations

from typing import Protocol, Sequence, runtime_checkable

import numpy as np


@runtime_checkable
class QueryExpander(Protocol):
    """Adds retrieval terms for a query (e.g. Korean concept mentions -> English names)."""

    def expand(self, query: str) -> list[str]:
        """Return extra terms/phrases to add to the query; [] when there is nothing to add."""
        ...


@runtime_checkable
class Embedder(Protocol):
    """Turns texts into L2-normalised float32 vectors (shape: len(texts) x dimension)."""

    dimension: int

    def embed(self, texts: Sequence[str]) -> np.ndarray: ...


@runtime_checkable
class Summariser(Protocol):
    """Summarises conversation text in at most `max_tokens` model tokens."""

    def summarise(self, text: str, max_tokens: int) -> str: ...
