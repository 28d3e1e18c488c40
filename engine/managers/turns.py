"""The turns area: answering one message, cancelling it, the response cache and the
in-memory conversation memories (one per open session, plus the scratch conversation).

Everything here that derives from patients is forgotten when the vault locks (and the
cache and memories when it opens or a patient is deleted): this area is a listener of
`engine.managers.patients.PatientsManager`.
"""

from __future__ import annotations

import logging
import re
import threading
from typing import Iterator

from engine.agent.cache import ResponseCache
from engine.agent.ephemeral import EphemeralMemory
from engine.agent.meter import MeteredLLM
from engine.agent.pipeline import run_turn
from engine.agent.runtime_env import release_freed_memory
from engine.agent.services import AgentServices
from engine.agent.tokens import TokenManager, plan_budget
from engine.cancel import CancelToken
from engine.container import ServiceContainer
from engine.errors import ChartsideError, InputError, ModelUnavailable
from engine.events import Done, Event, Status
from engine.llm.types import ChatMessage
from engine.managers.knowledge import KnowledgeManager
from engine.managers.models import ModelsManager
from engine.managers.patients import PatientsManager
from engine.settings import Settings

log = logging.getLogger(__name__)
# Far above any token budget: longer messages are refused before they are even tokenized.
MAX_MESSAGE_CHARS = 200_000
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")  # undecodable bytes from a command line
DEGRADED_STATUS = "The language model is unavailable: answering with the alerts and retrieved passages only."


class TurnsManager:
    def __init__(self, container: ServiceContainer, patients: PatientsManager, kb: KnowledgeManager,
                 models: ModelsManager):
        self._container = container
        self._patients = patients
        self._kb = kb
        self._models = models
        self._lock = threading.RLock()
        self._cancel = CancelToken()
        self._scratch = EphemeralMemory()
        self._cache: ResponseCache | None = None
        self._sessions_memory: dict[int, object] = {}

    # -- answering -----------------------------------------------------------------------
    def ask(self, text: str, *, patient_id: int | None = None, session_id: int | None = None, mode: str | None = None,
            settings: Settings | None = None, history: list[ChatMessage] | None = None) -> Iterator[Event]:
        """Answer one turn, yielding events; the last event is `Done` with the turn result.

        `settings` overrides the engine's settings for this turn only (ablation runs);
        `history` (llm mode without a patient) seeds the scratch conversation.
        """
        text = clean_message(text)
        self._cancel = CancelToken()
        mode = mode or self._container.settings.mode
        model, llm_unavailable = self._generation_model()
        if mode == "agent":
            self._check_fits(text, settings or self._container.settings, llm_unavailable)
        memory, patient_id, session_id = self._memory(patient_id, session_id)
        if history:
            for user, answer in zip(history[::2], history[1::2]):
                memory.add_turn(user["content"], {"answer": answer["content"]})
        yield Status("Preparing the answer…")
        if llm_unavailable is not None:
            yield Status(DEGRADED_STATUS)
        services = self.services(memory, settings, llm_unavailable=llm_unavailable)
        turn_index = len(memory.working_turns(10_000))
        yield from self._with_route(run_turn(text, services, mode=mode, patient_id=patient_id,
                                             session_id=session_id, turn_index=turn_index, model=model))

    def cancel(self) -> None:
        """Stop the running turn before its next token (safe from any thread)."""
        self._cancel.cancel()

    def _with_route(self, events: Iterator[Event]) -> Iterator[Event]:
        """The turn's events; with a model server configured, the result's trace says who answered.
        When the turn ends (done, failed or abandoned) the memory it freed goes back to the system."""
        try:
            for event in events:
                if isinstance(event, Done) and self._container.settings.remote.enabled:
                    event.result["trace"]["answered_by"] = self._models.answered_by("generate")
                yield event
        finally:
            release_freed_memory()

    def services(self, memory, settings: Settings | None = None, *,
                 llm_unavailable: ModelUnavailable | None = None) -> AgentServices:
        """One turn's services (a fresh LLM meter each turn). With `llm_unavailable` (degraded
        mode) tokens are counted with the fallback tokenizer and no node calls the model."""
        settings = settings or self._container.settings
        llm = self._container.llm
        counter = TokenManager(None if llm_unavailable is not None else llm)
        return AgentServices(settings=settings, llm=MeteredLLM(llm), tokens=counter,
                             clinical=self._container.clinical, knowledge=self._kb.search, memory=memory,
                             cache=self.cache, embedder=self._cache_embedder(settings), cancel=self._cancel,
                             llm_unavailable=llm_unavailable)

    def _generation_model(self) -> tuple[str, ModelUnavailable | None]:
        """The generating model's name, or why it cannot be loaded (the turn then runs degraded).
        Tried again every turn, so a model restored on disk is used from the next message."""
        try:
            return self._container.llm.info("generate").name, None
        except ModelUnavailable as exc:
            log.warning("language model unavailable, degraded mode: %s", exc)
            return "", exc

    def _check_fits(self, text: str, settings: Settings, llm_unavailable: ModelUnavailable | None) -> None:
        """Refuse a question that cannot fit the token plan before anything is stored."""
        context = settings.context
        llm = None if llm_unavailable is not None else self._container.llm
        tokens = TokenManager(llm)
        n_ctx = settings.llm.n_ctx if llm is None else llm.info("generate").n_ctx
        plan_budget(total=context.total_budget, n_ctx=n_ctx, system=context.system_tokens, documents=0,
                    query=tokens.count(text), reserve=context.generation_reserve,
                    profile_share=context.profile_share, long_term_share=context.long_term_share)

    def _cache_embedder(self, settings: Settings):
        if not settings.features.response_cache:
            return None
        try:
            return self._container.embedder
        except ChartsideError as exc:
            self._container.notes.append(f"response cache off: {exc}")
            return None

    # -- conversation memory -------------------------------------------------------------
    def _memory(self, patient_id, session_id):
        if patient_id is None and session_id is None:
            return self._scratch, None, None
        vault = self._patients.vault
        if session_id is None:
            latest = vault.latest_session(int(patient_id))
            session_id = latest["id"] if latest else vault.create_session(int(patient_id))
        session = vault.get_session(int(session_id))
        if patient_id is not None and int(patient_id) != session["patient_id"]:
            raise InputError("session belongs to another patient",
                             user_message="That conversation belongs to another patient.")
        with self._lock:
            memory = self._sessions_memory.get(session["id"])
            if memory is None:
                from engine.agent.wiring import RoleSummariser, VaultMemory

                memory = VaultMemory(vault, session["patient_id"], session["id"], embedder=self._memory_embedder(),
                                     summariser=RoleSummariser(self._container.llm))
                self._sessions_memory[session["id"]] = memory
        return memory, session["patient_id"], session["id"]

    def _memory_embedder(self):
        try:
            return self._container.embedder
        except ChartsideError as exc:
            self._container.notes.append(f"memory recall without embeddings: {exc}")
            return None

    # -- the response cache --------------------------------------------------------------
    @property
    def cache(self) -> ResponseCache:
        with self._lock:
            if self._cache is None:
                vault = self._patients.open_vault
                store = None
                if vault is not None:
                    from engine.memory.cache import CacheTable

                    store = CacheTable(vault)
                c = self._container.settings.cache
                self._cache = ResponseCache(threshold=c.similarity_threshold, max_entries=c.max_entries,
                                            ttl_seconds=c.ttl_seconds, store=store)
            return self._cache

    def reset_cache(self) -> None:
        """Rebuild the cache on next use (its settings changed)."""
        with self._lock:
            self._cache = None

    def cache_stats(self) -> dict:
        """Response-cache counters since start: lookups, hits, hit rate, tokens and time saved."""
        cache = self.cache
        return {**cache.counters.as_dict(), "entries": len(cache)}

    def clear_response_cache(self) -> None:
        """Forget every cached answer (in memory and in the vault's cache table)."""
        with self._lock:
            self.cache.clear()
            vault = self._patients.open_vault
            if vault is not None:
                from engine.memory.cache import CacheTable

                CacheTable(vault).clear()
            self._cache = None

    # -- the vault's listener ------------------------------------------------------------
    def vault_opened(self) -> None:
        with self._lock:
            self._cache = None
            self._sessions_memory.clear()

    def patient_deleted(self) -> None:
        self._forget_patient_turns()

    def vault_locked(self) -> None:
        """Forget everything patient-derived held in memory: the response cache, the
        conversation memories, the scratch conversation and the embedding memo of recent
        question texts, and wipe the language model's key/value cache of the last prompt."""
        with self._lock:
            self._forget_patient_turns()
            self._scratch = EphemeralMemory()
        llm = self._container.llm_loaded
        if llm is not None:  # outside the lock: it waits for a running answer's context
            llm.forget_prompts()

    def _forget_patient_turns(self) -> None:
        """Drop the in-memory copies of patients' turns (the vault keeps what it should)."""
        with self._lock:
            self._cache = None
            self._sessions_memory.clear()
            self._container.forget_embedded_questions()


def clean_message(text) -> str:
    """The message as the pipeline takes it, or InputError: lone surrogates (undecodable
    bytes passed on a command line) become U+FFFD, surrounding space is dropped, and an
    empty or absurdly long message is refused."""
    if text is None:
        text = ""
    if not isinstance(text, str):
        raise InputError(f"message must be text, not {type(text).__name__}", user_message="The message is not text.")
    text = _LONE_SURROGATE.sub("\ufffd", text).strip()
    if not text:
        raise InputError("empty message", user_message="Type a question first.")
    if len(text) > MAX_MESSAGE_CHARS:
        raise InputError(f"message of {len(text)} characters",
                         user_message="The question is too long for the model's context. Shorten it.")
    return text
