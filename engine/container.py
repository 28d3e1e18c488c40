"""The engine's services, built lazily from settings (one place decides which backend runs).

- `llm`: `settings.llm.backend` picks the local GGUF runtime (`llama-cpp`, behind the router
  when a clinic model server is configured) or the scripted `FakeLLM` (`fake`); an `llm=`
  passed in (a FakeLLM in tests) is used as given.
- `embedder`: the sentence-transformers model of `settings.embedding`, behind a per-text
  memo so that the cache, the knowledge base and the memory embed a question once.
- `clinical`: engine.clinical's extraction, triage and conflict checks (and the second,
  similarity-based emergency check over the embedder).

Each is imported and built on first use, so a command that does not need a model never
loads one. A service passed as None is off: the engine runs without it. A service that
cannot be built is noted in `notes` (the facade's `service_notes`) and left off.
"""

from __future__ import annotations

import threading
from typing import Callable

from engine.protocols import LLM, Embedder
from engine.settings import Settings

UNSET = object()


class ServiceContainer:
    def __init__(self, settings: Settings, *, llm: LLM | None = None, clinical=UNSET, embedder=UNSET):
        self.settings = settings
        self.notes: list[str] = []
        self._llm = llm
        self._clinical = clinical
        self._embedder = embedder
        self._lock = threading.RLock()
        self.token_source: Callable[[], str | None] | None = None

    # -- the language model ------------------------------------------------------------
    @property
    def llm(self) -> LLM:
        with self._lock:
            if self._llm is None:
                self._llm = self._build_llm()
            return self._llm

    @property
    def llm_loaded(self) -> LLM | None:
        """The language model if it has been built, without building it."""
        return self._llm

    def use_llm(self, llm: LLM | None) -> None:
        """Replace the language model (None: rebuild it from the settings on next use)."""
        with self._lock:
            self._llm = llm

    def reset_llm(self) -> None:
        """Close the model; the next use builds it again from the (new) settings."""
        with self._lock:
            llm, self._llm = self._llm, None
        if llm is not None:
            llm.close()

    def _build_llm(self) -> LLM:
        if self.settings.llm.backend == "fake":
            from engine.llm.fake import FakeLLM

            return FakeLLM(default="This is a demonstration answer from the fake model.")
        from engine.llm.runtime import LlamaRuntime

        local = LlamaRuntime(self.settings.llm)
        return self._routed(local) if self.settings.remote.enabled else local

    def _routed(self, local: LLM) -> LLM:
        """The local runtime behind a router that sends `settings.remote.roles` to the server."""
        from engine.llm.remote import RemoteChatClient
        from engine.llm.router import RoutedLLM

        remote = self.settings.remote
        client = RemoteChatClient(remote, self.settings.llm, token=self.remote_token)
        return RoutedLLM(local, client, remote.roles, fallback=remote.fallback_to_local,
                         retry_after_s=remote.retry_after_s)

    def remote_token(self) -> str | None:
        """The model server's bearer token, read for each request through `token_source`
        (the facade points it at the vault; None while locked)."""
        return self.token_source() if self.token_source is not None else None

    # -- the embedding model -----------------------------------------------------------
    @property
    def embedder(self) -> Embedder | None:
        with self._lock:
            if self._embedder is UNSET:
                from engine.agent.embedding import MemoEmbedder
                from engine.knowledge import make_embedder

                self._embedder = MemoEmbedder(make_embedder(self.settings))
            return self._embedder

    @property
    def has_embedder(self) -> bool:
        """False when the embedder is off or failed to load (not built: still True)."""
        return self._embedder is not None

    def forget_embedded_questions(self) -> None:
        """Drop the memo of recent question texts (patient-derived) without unloading the model."""
        from engine.agent.embedding import MemoEmbedder

        if isinstance(self._embedder, MemoEmbedder):
            self._embedder.clear()

    # -- clinical rules ----------------------------------------------------------------
    @property
    def clinical(self):
        with self._lock:
            if self._clinical is UNSET:
                self._clinical = self._build_clinical()
            return self._clinical

    def _build_clinical(self):
        """The clinical service (what engine.clinical provides of extract/triage/conflicts; gaps noted)."""
        try:
            import engine.clinical as clinical
        except ImportError as exc:
            self.notes.append(f"clinical service unavailable: {exc}")
            return None
        from engine.agent.wiring import ClinicalService

        service = ClinicalService(clinical, similar=self._similar_emergencies())
        if len(service.missing) == 3:
            self.notes.append("clinical service unavailable (engine.clinical has no extract/triage/conflicts)")
            return None
        if service.missing:
            self.notes.append(f"clinical service incomplete (missing {', '.join(service.missing)})")
        return service

    def _similar_emergencies(self):
        """The second emergency check (similar described emergencies), over the shared embedder;
        None when this engine has no embedder."""
        if self._embedder is None:
            return None
        from engine.clinical.similar_emergencies import SimilarEmergencies

        def embed(texts):
            embedder = self.embedder
            if embedder is None:
                raise RuntimeError("no embedder")
            return embedder.embed(list(texts))
        return SimilarEmergencies(embed)

    # -- lifecycle ---------------------------------------------------------------------
    def drop(self, name: str) -> None:
        """Run without a service that failed to load ("embedder" or "clinical")."""
        with self._lock:
            if name == "embedder":
                self._embedder = None
            elif name == "clinical":
                self._clinical = None

    def close(self) -> None:
        if self._llm is not None:
            self._llm.close()
