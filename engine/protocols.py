"""Small interfaces shared between services, so that each can be built and tested alone."""

from __future__ import annotations

from typing import Any, Hashable, Iterator, Protocol, Sequence, runtime_checkable

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


@runtime_checkable
class LLM(Protocol):
    """The language models by role ("generate", "classify", "judge", "summarise"), local or
    served: `engine.llm.runtime.LlamaRuntime`, `engine.llm.router.RoutedLLM` and the
    scripted `engine.llm.fake.FakeLLM` all implement every method, so no caller probes."""

    last_metrics: Any

    def info(self, role: str) -> Any:
        """The `engine.llm.types.ModelInfo` of the model serving `role` (loads it)."""

    def context_key(self, role: str) -> Hashable:
        """Roles with the same key share one loaded model context."""

    def count_tokens(self, role: str, text: str) -> int: ...

    def render_prompt(self, role: str, messages: list[dict]) -> tuple[str, list[str]] | None:
        """The prompt exactly as the model sees it and its stop strings; None when the
        backend has no chat template to render (token counts then estimate the overhead)."""

    def stream_chat(self, role: str, messages: list[dict], **kwargs) -> Iterator[str]: ...

    def chat(self, role: str, messages: list[dict], **kwargs) -> str: ...

    def complete_json(self, role: str, messages: list[dict], schema: dict, **kwargs) -> dict: ...

    def classify(self, role: str, prompt: str, labels: Sequence[str], **kwargs) -> str: ...

    def answered_by(self, role: str) -> dict | None:
        """Which model on which machine served `role` last; None without a model server."""

    def forget_prompts(self) -> None:
        """Wipe the key/value cache of the last prompts (they can quote a patient)."""

    def close(self) -> None: ...
