"""`Engine`: the one facade the CLI and the GUI talk to.

Every method is a plain blocking call or a generator of `engine.events`; the GUI runs them
in worker threads. Services are created lazily from settings so that a command that does
not need a model never loads one:

- `llm`: the local GGUF runtime (or the `llm=` passed in, e.g. a FakeLLM in tests);
- `knowledge`: the default knowledge base (built with `chartside kb build`); without it
  the agent still answers and says in the trace that no documents were available;
- `clinical`: extraction, triage and conflicts;
- the vault (encrypted patient store) after `unlock`; without it a turn runs against an
  in-process memory that is never written anywhere.
"""

from __future__ import annotations

import logging
import re
import threading
import time
from pathlib import Path
from typing import Callable, Iterator

from engine.agent.cache import ResponseCache
from engine.agent.ephemeral import EphemeralMemory
from engine.agent.meter import MeteredLLM
from engine.agent.pipeline import pipeline_mermaid, run_turn
from engine.agent.prompting import safety_prompt as system_prompt
from engine.agent.services import AgentServices
from engine.agent.text import detect_language
from engine.agent.tokens import TokenManager, plan_budget
from engine.errors import ChartsideError, InputError, KnowledgeIndexError, ModelUnavailable, VaultError
from engine.events import Done, Event, Status
from engine.cancel import CancelToken
from engine.llm.types import ChatMessage
from engine.settings import Settings, load_settings, save_settings

Progress = Callable[[int, int, str], None]
_UNSET = object()
WARM_UP_STEPS = ("model", "knowledge", "embedder", "clinical")
log = logging.getLogger(__name__)
# Far above any token budget: longer messages are refused before they are even tokenized.
MAX_MESSAGE_CHARS = 200_000
_LONE_SURROGATE = re.compile("[\ud800-\udfff]")  # undecodable bytes from a command line
DEGRADED_STATUS = "The language model is unavailable: answering with the alerts and retrieved passages only."

__all__ = ["Engine", "detect_language", "system_prompt"]


class Engine:
    def __init__(self, settings: Settings | None = None, *, llm=None, knowledge=_UNSET, clinical=_UNSET,
                 embedder=_UNSET, vault_path: Path | None = None):
        """`knowledge`, `clinical` and `embedder` default to the real services (lazily);
        pass an object to inject one, or None to run without it."""
        self.settings = settings or load_settings()
        self._llm = llm
        self._knowledge = knowledge
        self._kb = None
        self._clinical = clinical
        self._embedder = embedder
        self._vault_path = vault_path
        self._vault = None
        self._lock = threading.RLock()
        self._warm_up_lock = threading.Lock()
        self._cancel = CancelToken()
        self._scratch = EphemeralMemory()
        self._cache: ResponseCache | None = None
        self._sessions_memory: dict[int, object] = {}
        self.service_notes: list[str] = []

    # -- settings ----------------------------------------------------------------------
    def update_settings(self, settings: Settings) -> None:
        """Apply and save new settings; services that depend on them are recreated lazily."""
        old = self.settings
        self.settings = settings
        save_settings(settings)
        if (settings.llm != old.llm or settings.remote != old.remote) and self._llm is not None \
                and hasattr(self._llm, "close"):
            self._llm.close()
            self._llm = None
        if settings.cache != old.cache:
            self._cache = None
        if settings.embedding != old.embedding or settings.retrieval != old.retrieval:
            self._knowledge = _UNSET if self._kb is not None else self._knowledge
            self._kb = None

    # -- services ----------------------------------------------------------------------
    @property
    def llm(self):
        with self._lock:
            if self._llm is None:
                from engine.llm.runtime import LlamaRuntime

                self._llm = LlamaRuntime(self.settings.llm)
                if self.settings.remote.enabled:
                    self._llm = self._routed(self._llm)
            return self._llm

    # -- the clinic model server (off by default) --------------------------------------
    def _routed(self, local):
        """The local runtime behind a router that sends `settings.remote.roles` to the server."""
        from engine.llm.remote import RemoteChatClient
        from engine.llm.router import RoutedLLM

        remote = self.settings.remote
        client = RemoteChatClient(remote, self.settings.llm, token=self._remote_token)
        return RoutedLLM(local, client, remote.roles, fallback=remote.fallback_to_local,
                         retry_after_s=remote.retry_after_s)

    def _remote_token(self) -> str | None:
        """The server's bearer token, read from the vault for each request (none while locked)."""
        from engine.memory.secrets import REMOTE_TOKEN, SecretStore

        vault = self._vault
        return SecretStore(vault).get(REMOTE_TOKEN) if vault is not None else None

    def set_remote_token(self, token: str | None) -> None:
        """Keep the model server's bearer token in the vault (None or empty removes it)."""
        from engine.memory.secrets import REMOTE_TOKEN, SecretStore

        secrets = SecretStore(self.vault)
        if token and token.strip():
            secrets.set(REMOTE_TOKEN, token.strip())
        else:
            secrets.delete(REMOTE_TOKEN)

    def has_remote_token(self) -> bool:
        return self._vault is not None and self._remote_token() is not None

    def check_remote(self, settings: Settings | None = None) -> dict:
        """Reach the configured server once (`GET /v1/models`): its models, or why not."""
        from engine.llm.remote import RemoteChatClient, RemoteModelError

        settings = settings or self.settings
        client = RemoteChatClient(settings.remote, settings.llm, token=self._remote_token)
        started = time.perf_counter()
        try:
            models = client.check()
        except RemoteModelError as exc:
            return {"ok": False, "host": client.host, "kind": exc.kind, "message": exc.user_message}
        finally:
            client.close()
        return {"ok": True, "host": client.host, "models": models, "model_offered": settings.remote.model in models,
                "ms": round((time.perf_counter() - started) * 1000, 1)}

    def answered_by(self, role: str = "generate") -> dict | None:
        """Which model on which machine served `role` last (None before any call or without a server)."""
        answered_by = getattr(self._llm, "answered_by", None)
        return answered_by(role) if answered_by else None

    def _with_route(self, events: Iterator[Event]) -> Iterator[Event]:
        """The turn's events; with a model server configured, the result's trace says who answered."""
        for event in events:
            if isinstance(event, Done) and hasattr(self._llm, "answered_by"):
                event.result["trace"]["answered_by"] = self.answered_by("generate")
            yield event

    @property
    def clinical(self):
        with self._lock:
            if self._clinical is _UNSET:
                self._clinical = _load_clinical(self.service_notes, self._similar_emergencies())
            return self._clinical

    @property
    def knowledge(self):
        """The retrieval service, or None when the knowledge base is not built."""
        with self._lock:
            if self._knowledge is _UNSET:
                self._knowledge = self._open_knowledge()
            return self._knowledge

    def _open_knowledge(self):
        from engine.agent.wiring import KnowledgeService
        from engine.knowledge import HybridRetriever, open_default

        try:
            self._kb = open_default(self.settings, build=False, embedder=self._shared_embedder())
        except KnowledgeIndexError as exc:
            self.service_notes.append(f"knowledge base unavailable: {exc}")
            return None
        return KnowledgeService(HybridRetriever.from_settings(self._kb, self.settings, self._expander(),
                                                              self._translator()))

    def use_knowledge_base(self, kb) -> None:
        """Search `kb` (an open engine.knowledge.KnowledgeBase) instead of the default one."""
        from engine.agent.wiring import KnowledgeService
        from engine.knowledge import HybridRetriever

        with self._lock:
            self._kb = kb
            self._knowledge = KnowledgeService(HybridRetriever.from_settings(kb, self.settings, self._expander(),
                                                                             self._translator()))

    def _expander(self):
        """Expanders plugged into the knowledge package, plus the clinical Korean -> English one."""
        from engine.knowledge.expansion import ChainExpander, plugged_expander

        expanders = [e for e in (plugged_expander(),) if e is not None]
        if self.clinical is not None:
            try:
                from engine.clinical import KoreanConceptExpander

                expanders.append(KoreanConceptExpander())
            except ImportError as exc:
                self.service_notes.append(f"Korean query expansion unavailable: {exc}")
        if not expanders:
            return None
        return expanders[0] if len(expanders) == 1 else ChainExpander(expanders)

    def _translator(self):
        """Query translation by concept and question type (needs the clinical pack)."""
        if self.clinical is None:
            return None
        from engine.clinical import PackConceptFinder
        from engine.knowledge.translation import QueryTranslator

        return QueryTranslator(PackConceptFinder())

    def _shared_embedder(self):
        """One embedder (behind a per-text memo) for the cache, the knowledge base and memory."""
        with self._lock:
            if self._embedder is _UNSET:
                from engine.agent.embedding import MemoEmbedder
                from engine.knowledge import make_embedder

                self._embedder = MemoEmbedder(make_embedder(self.settings))
            return self._embedder

    @property
    def embedder(self):
        return self._shared_embedder()

    def _similar_emergencies(self):
        """The second emergency check (similar described emergencies), over the shared embedder;
        None when this engine has no embedder."""
        if self._embedder is None:
            return None
        from engine.clinical.similar_emergencies import SimilarEmergencies

        def embed(texts):
            embedder = self._shared_embedder()
            if embedder is None:
                raise RuntimeError("no embedder")
            return embedder.embed(list(texts))
        return SimilarEmergencies(embed)

    @property
    def cache(self) -> ResponseCache:
        with self._lock:
            if self._cache is None:
                store = None
                if self._vault is not None:
                    from engine.memory.cache import CacheTable

                    store = CacheTable(self._vault)
                c = self.settings.cache
                self._cache = ResponseCache(threshold=c.similarity_threshold, max_entries=c.max_entries,
                                            ttl_seconds=c.ttl_seconds, store=store)
            return self._cache

    def cache_stats(self) -> dict:
        """Response-cache counters since start: lookups, hits, hit rate, tokens and time saved."""
        return {**self.cache.counters.as_dict(), "entries": len(self.cache)}

    def clear_response_cache(self) -> None:
        """Forget every cached answer (in memory and in the vault's cache table)."""
        with self._lock:
            self.cache.clear()
            if self._vault is not None:
                from engine.memory.cache import CacheTable

                CacheTable(self._vault).clear()
            self._cache = None

    def close(self) -> None:
        if self._llm is not None and hasattr(self._llm, "close"):
            self._llm.close()
        retriever = getattr(self._knowledge, "retriever", None)
        if retriever is not None:
            retriever.close()
        if self._kb is not None:
            self._kb.close()
        self.lock()

    # -- warm-up -----------------------------------------------------------------------
    def warm_up(self, progress: Progress | None = None) -> dict:
        """Load what the first turn needs, one service after the other, so that it does not
        wait for them: the language model(s), the knowledge base (if built), the embedding
        model and the clinical pack. `progress(done, total, step)` is called before each
        step (`step` is one of `WARM_UP_STEPS`) and with `"ready"` at the end.

        Safe from a worker thread and safe to call again (loaded services are kept; calls
        run one at a time). A service that fails to load, or is not there (no knowledge base
        built), is left out of `loaded` and explained in `notes` (also kept in
        `service_notes`): the engine then runs without it, as it would on first use.
        Returns `{"loaded", "notes", "seconds"}`.
        """
        with self._warm_up_lock:
            loaded: list[str] = []
            notes: list[str] = []
            seconds: dict[str, float] = {}
            for done, step in enumerate(WARM_UP_STEPS):
                if progress is not None:
                    progress(done, len(WARM_UP_STEPS), step)
                started = time.perf_counter()
                noted = len(self.service_notes)
                try:
                    if getattr(self, f"_warm_{step}")():
                        loaded.append(step)
                except Exception as exc:  # noqa: BLE001  (any failure degrades, none stops the app)
                    self.service_notes.append(f"{step} unavailable: {getattr(exc, 'user_message', None) or exc}")
                    log.warning("warm-up: %s failed", step, exc_info=True)
                    self._drop_service(step)
                notes += self.service_notes[noted:]
                seconds[step] = round(time.perf_counter() - started, 3)
            if progress is not None:
                progress(len(WARM_UP_STEPS), len(WARM_UP_STEPS), "ready")
            return {"loaded": loaded, "notes": notes, "seconds": seconds}

    def _drop_service(self, step: str) -> None:
        """Turns run without a service that failed to load (the model cannot be dropped:
        a turn then reports it in plain words)."""
        with self._lock:
            if step == "knowledge":
                self._knowledge = None
            elif step == "embedder":
                self._embedder = None
            elif step == "clinical":
                self._clinical = None

    def _warm_model(self) -> bool:
        from engine.llm.runtime import ROLES

        llm = self.llm
        contexts = set()
        for role in ROLES:
            context = llm.context_key(role) if hasattr(llm, "context_key") else role
            if context not in contexts:
                contexts.add(context)
                llm.info(role)
        return True

    def _warm_knowledge(self) -> bool:
        return self.knowledge is not None

    def _warm_embedder(self) -> bool:
        embedder = self.embedder
        if embedder is None:
            return False
        embedder.embed(["warm-up"])
        return True

    def _warm_clinical(self) -> bool:
        clinical = self.clinical
        if clinical is None:
            return False
        clinical.extract("warm-up: aspirin 100 mg daily")
        return True

    # -- the vault ---------------------------------------------------------------------
    def vault_path(self) -> Path:
        from engine.settings import default_vault_path

        return self._vault_path or default_vault_path()

    def vault_exists(self) -> bool:
        path = self.vault_path()
        return path.exists() and path.stat().st_size > 0

    def unlock(self, passphrase: str, create: bool = False) -> None:
        """Open the encrypted store (raises WrongPassphrase; nothing is changed then)."""
        from engine.memory.store import Vault

        with self._lock:
            if self._vault is not None:
                return
            if not create and not self.vault_exists():
                raise VaultError("no vault yet", user_message="There is no patient store yet. Create one first.")
            self._vault = Vault.open(self.vault_path(), passphrase, create=create, settings=self.settings)
            self._cache = None
            self._sessions_memory.clear()

    def lock(self) -> None:
        """Close the store (audited as `vault.lock`) and forget everything patient-derived held
        in memory: the response cache, the conversation memories, the scratch conversation
        and the embedding memo of recent question texts, and wipe the language model's
        key/value cache of the last prompt."""
        with self._lock:
            if self._vault is not None:
                self._vault.lock()
            self._vault = None
            self._forget_patient_turns()
            self._scratch = EphemeralMemory()
            llm = self._llm
        if llm is not None:  # outside the engine lock: it waits for a running answer's context
            llm.forget_prompts()

    def _forget_patient_turns(self) -> None:
        """Drop the in-memory copies of patients' turns (the vault keeps what it should)."""
        from engine.agent.embedding import MemoEmbedder

        self._cache = None
        self._sessions_memory.clear()
        if isinstance(self._embedder, MemoEmbedder):
            self._embedder.clear()

    @property
    def is_locked(self) -> bool:
        return self._vault is None

    @property
    def vault(self):
        if self._vault is None:
            raise VaultError("the vault is locked", user_message="Unlock the patient store first.")
        return self._vault

    # -- patients and sessions ---------------------------------------------------------
    def list_patients(self, search: str = "") -> list[dict]:
        needle = search.strip().casefold()
        return [_patient(row) for row in self.vault.list_patients()
                if not needle or needle in row["display_name"].casefold()]

    def create_patient(self, name: str) -> dict:
        return _patient(self.vault.get_patient(self.vault.create_patient(name)))

    def rename_patient(self, patient_id: int, name: str) -> None:
        self.vault.rename_patient(int(patient_id), name)

    def delete_patient(self, patient_id: int) -> None:
        self.vault.delete_patient(int(patient_id))
        self._forget_patient_turns()

    def list_sessions(self, patient_id: int) -> list[dict]:
        return [_session(row) for row in self.vault.list_sessions(int(patient_id))]

    def open_patient(self, patient_id: int) -> list[dict]:
        """The sessions of a patient the user opens, audited as `patient.view` (listing
        sessions for a refresh is not a view)."""
        return [_session(row) for row in self.vault.view_patient(int(patient_id))["sessions"]]

    def new_session(self, patient_id: int) -> dict:
        return _session(self.vault.get_session(self.vault.create_session(int(patient_id))))

    def rename_session(self, session_id: int, title: str) -> dict:
        self.vault.rename_session(int(session_id), title)
        return _session(self.vault.get_session(int(session_id)))

    def session_turns(self, session_id: int) -> list[dict]:
        turns = self.vault.list_turns(session_id=int(session_id))
        return [{"user": t["user_text"], "answer": t["answer"] or "", "alerts": t["alerts"], "sources": t["sources"],
                 "trace": t["trace"]} for t in turns if t["finished_at"]]

    # -- the profile -------------------------------------------------------------------
    def _profiles(self):
        from engine.memory.profile import ProfileStore

        return ProfileStore(self.vault)

    def profile(self, patient_id: int) -> dict:
        """The patient's facts by slot, plus `safety_events`: the emergency alerts raised in
        the patient's turns (what fired, when, what was shown)."""
        profile = self._profiles().profile(int(patient_id))
        for slot, items in profile.items():
            if isinstance(items, list):
                for item in items:
                    item.setdefault("id", item.get("fact_id"))
        profile["safety_events"] = self.vault.safety_events(int(patient_id))
        return profile

    def confirm_fact(self, fact_id: int) -> None:
        self._profiles().confirm(int(fact_id))

    def reject_fact(self, fact_id: int) -> None:
        self._profiles().reject(int(fact_id))

    def retract_fact(self, fact_id: int) -> None:
        self._profiles().retract(int(fact_id))

    def edit_fact(self, fact_id: int, changes: dict) -> None:
        self._profiles().edit(int(fact_id), changes)

    # -- turns -------------------------------------------------------------------------
    def cancel(self) -> None:
        """Stop the running turn before its next token (safe from any thread)."""
        self._cancel.cancel()

    def _memory(self, patient_id, session_id):
        if patient_id is None and session_id is None:
            return self._scratch, None, None
        vault = self.vault
        if session_id is None:
            latest = vault.latest_session(int(patient_id))
            session_id = latest["id"] if latest else vault.create_session(int(patient_id))
        session = vault.get_session(int(session_id))
        if patient_id is not None and int(patient_id) != session["patient_id"]:
            raise InputError("session belongs to another patient",
                             user_message="That conversation belongs to another patient.")
        memory = self._sessions_memory.get(session["id"])
        if memory is None:
            from engine.agent.wiring import RoleSummariser, VaultMemory

            memory = VaultMemory(vault, session["patient_id"], session["id"], embedder=self._memory_embedder(),
                                 summariser=RoleSummariser(self.llm))
            self._sessions_memory[session["id"]] = memory
        return memory, session["patient_id"], session["id"]

    def _memory_embedder(self):
        try:
            return self.embedder
        except ChartsideError as exc:
            self.service_notes.append(f"memory recall without embeddings: {exc}")
            return None

    def services(self, memory, settings: Settings | None = None, *,
                 llm_unavailable: ModelUnavailable | None = None) -> AgentServices:
        """One turn's services (a fresh LLM meter each turn). With `llm_unavailable` (degraded
        mode) tokens are counted with the fallback tokenizer and no node calls the model."""
        settings = settings or self.settings
        counter = TokenManager(None if llm_unavailable is not None else self.llm)
        return AgentServices(settings=settings, llm=MeteredLLM(self.llm), tokens=counter,
                             clinical=self.clinical, knowledge=self.knowledge, memory=memory,
                             cache=self.cache, embedder=self._cache_embedder(settings), cancel=self._cancel,
                             llm_unavailable=llm_unavailable)

    def _generation_model(self) -> tuple[str, ModelUnavailable | None]:
        """The generating model's name, or why it cannot be loaded (the turn then runs degraded).
        Tried again every turn, so a model restored on disk is used from the next message."""
        try:
            return self.llm.info("generate").name, None
        except ModelUnavailable as exc:
            log.warning("language model unavailable, degraded mode: %s", exc)
            return "", exc

    def _check_fits(self, text: str, settings: Settings, llm_unavailable: ModelUnavailable | None) -> None:
        """Refuse a question that cannot fit the token plan before anything is stored."""
        context = settings.context
        tokens = TokenManager(None if llm_unavailable is not None else self.llm)
        n_ctx = settings.llm.n_ctx if llm_unavailable is not None else self.llm.info("generate").n_ctx
        plan_budget(total=context.total_budget, n_ctx=n_ctx, system=context.system_tokens, documents=0,
                    query=tokens.count(text), reserve=context.generation_reserve,
                    profile_share=context.profile_share, long_term_share=context.long_term_share)

    def _cache_embedder(self, settings: Settings):
        if not settings.features.response_cache:
            return None
        try:
            return self.embedder
        except ChartsideError as exc:
            self.service_notes.append(f"response cache off: {exc}")
            return None

    def ask(self, text: str, *, patient_id: int | None = None, session_id: int | None = None, mode: str | None = None,
            settings: Settings | None = None, history: list[ChatMessage] | None = None) -> Iterator[Event]:
        """Answer one turn, yielding events; the last event is `Done` with the turn result.

        `settings` overrides the engine's settings for this turn only (ablation runs);
        `history` (llm mode without a patient) seeds the scratch conversation.
        """
        text = clean_message(text)
        self._cancel = CancelToken()
        mode = mode or self.settings.mode
        model, llm_unavailable = self._generation_model()
        if mode == "agent":
            self._check_fits(text, settings or self.settings, llm_unavailable)
        memory, patient_id, session_id = self._memory(patient_id, session_id)
        if history:
            for user, answer in zip(history[::2], history[1::2]):
                memory.add_turn(user["content"], {"answer": answer["content"]})
        yield Status("Preparing the answer…")
        if llm_unavailable is not None:
            yield Status(DEGRADED_STATUS)
        services = self.services(memory, settings, llm_unavailable=llm_unavailable)
        turn_index = len(memory.working_turns(10_000)) if hasattr(memory, "working_turns") else 0
        yield from self._with_route(run_turn(text, services, mode=mode, patient_id=patient_id,
                                             session_id=session_id, turn_index=turn_index, model=model))

    # -- models and device -------------------------------------------------------------
    def models(self) -> list[dict]:
        from engine.models import load_manifest, verify

        rows = []
        for entry in load_manifest():
            try:
                verify(entry)
                verified = True
            except ChartsideError:
                verified = False
            rows.append({**entry.to_dict(), "roles": list(entry.roles), "verified": verified})
        return rows

    def add_model(self, path, roles, progress: Progress | None = None) -> dict:
        from engine.llm.gguf import add_gguf_model

        entry = add_gguf_model(Path(path), roles=roles, progress=progress)
        return {**entry.to_dict(), "roles": list(entry.roles), "verified": True}

    def device_info(self) -> dict:
        info: dict = {"n_gpu_layers": self.settings.llm.n_gpu_layers, "threads": self.settings.llm.n_threads or None,
                      "model": self.settings.llm.generate_model, "gpu_offload_supported": False}
        try:
            import llama_cpp

            info["gpu_offload_supported"] = bool(llama_cpp.llama_supports_gpu_offload())
            info["llama_cpp_version"] = getattr(llama_cpp, "__version__", "")
        except (ImportError, AttributeError):
            info["llama_cpp_version"] = None
        if self._llm is not None and hasattr(self._llm, "info"):
            loaded = self._llm.info("generate")
            info.update(model=loaded.name, n_ctx=loaded.n_ctx, model_load_seconds=round(loaded.load_seconds, 3))
        if self.settings.remote.enabled:
            from engine.llm.remote import server_address

            _scheme, host, port = server_address(self.settings.remote.url)
            info["remote"] = {"host": f"{host}:{port}", "model": self.settings.remote.model,
                              "roles": list(self.settings.remote.roles), "answered_by": self.answered_by("generate")}
        return info

    # -- knowledge base ----------------------------------------------------------------
    def _kb_or_raise(self, build: bool = False, progress: Progress | None = None, cancel: CancelToken | None = None):
        if self._kb is None:
            from engine.knowledge import open_default

            self._kb = open_default(self.settings, build=build, embedder=self._shared_embedder(),
                                    progress=_kb_progress(progress),
                                    cancelled=cancel)
            self._knowledge = _UNSET
        return self._kb

    def kb_stats(self) -> dict:
        try:
            kb = self._kb_or_raise()
        except KnowledgeIndexError as exc:
            return {"ready": False, "message": exc.user_message, "detail": str(exc)}
        manifest = kb.manifest
        return {"ready": True, "chunks": kb.size, **kb.document_count(),
                "embedding": manifest.embedding if manifest else None,
                "user_documents": kb.list_documents("user"),
                "attribution": "MedQuAD (Ben Abacha & Demner-Fushman, BMC Bioinformatics 2019), CC BY 4.0"}

    def kb_add(self, paths, progress: Progress | None = None, cancel: CancelToken | None = None,
               allow_patient_data: bool = False) -> dict:
        """Add clinic documents; PatientDataFound (nothing added) when one looks like patient
        data, unless `allow_patient_data`: that override is written to the vault's audit log
        first, so it needs the vault unlocked."""
        kb = self._kb_or_raise()
        result = kb.add_files([Path(p) for p in paths], progress=_kb_progress(progress),
                              cancelled=cancel,
                              allow_patient_data=allow_patient_data, on_patient_data=self._audit_patient_data_override)
        return result if isinstance(result, dict) else {"result": result}

    def _audit_patient_data_override(self, summary: dict) -> None:
        from engine.knowledge.patient_data import audit_override

        if self._vault is None:
            raise VaultError("patient-data override with the vault locked",
                             user_message="Unlock the patient store first: adding documents that look like patient "
                                          "data is recorded in its audit log. Nothing was added.")
        audit_override(self._vault, summary)

    def kb_export(self, path, progress: Progress | None = None, cancel: CancelToken | None = None) -> dict:
        """Write the knowledge base to a bundle file for the clinic's other desktops."""
        from engine.knowledge.bundle import export_bundle

        return export_bundle(self._kb_or_raise(), Path(path), progress=_kb_progress(progress),
                             cancelled=cancel)

    def kb_import(self, path, progress: Progress | None = None, cancel: CancelToken | None = None) -> dict:
        """Replace the knowledge base by a bundle (verified first, atomic); searches reopen it."""
        from engine.knowledge import IndexParams, default_kb_dir
        from engine.knowledge.bundle import import_bundle

        try:
            return import_bundle(Path(path), default_kb_dir(), self._shared_embedder(),
                                 IndexParams.from_settings(self.settings), progress=_kb_progress(progress),
                                 cancelled=cancel)
        finally:
            with self._lock:  # the next search or kb_* call opens whichever index is live now
                if self._kb is not None:
                    self._kb.close()
                self._kb = None
                self._knowledge = _UNSET

    def kb_remove(self, doc_ids_or_paths) -> list[str]:
        return self._kb_or_raise().remove([str(p) for p in doc_ids_or_paths])

    def kb_rebuild(self, progress: Progress | None = None, cancel: CancelToken | None = None) -> dict:
        self._kb = None
        kb = self._kb_or_raise(build=True, progress=progress, cancel=cancel)
        return {"chunks": kb.size, **kb.document_count()}

    # -- export ------------------------------------------------------------------------
    def export_conversation(self, session_id: int, path, fmt: str = "md") -> Path:
        from engine.agent.export import conversation_markdown, write_document

        session = self.vault.get_session(int(session_id))
        patient = self.vault.get_patient(session["patient_id"])
        markdown = conversation_markdown(patient["display_name"], session, self.session_turns(int(session_id)))
        target = write_document(markdown, Path(path), fmt)
        self.vault.audit("session.export", session["patient_id"], {"session_id": int(session_id), "format": fmt})
        return target

    def export_patient(self, patient_id: int, path, fmt: str = "json") -> Path:
        from engine.agent.export import write_document

        if fmt in ("json", "md", "markdown"):
            return self.vault.export_patient(int(patient_id), Path(path), "markdown" if fmt == "md" else fmt)
        if fmt != "pdf":
            raise InputError(f"unknown format {fmt}", user_message="Export format must be JSON, Markdown or PDF.")
        from engine.memory.export import patient_record, to_markdown

        target = write_document(to_markdown(patient_record(self.vault, int(patient_id))), Path(path), "pdf")
        self.vault.audit("patient.export", int(patient_id), {"format": "pdf"})
        return target

    # -- documentation -----------------------------------------------------------------
    @staticmethod
    def pipeline_mermaid() -> str:
        return pipeline_mermaid()


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


def _patient(row: dict) -> dict:
    return {"id": row["id"], "name": row["display_name"], "created": row["created_at"], "updated": row["updated_at"]}


def _session(row: dict) -> dict:
    return {"id": row["id"], "patient_id": row["patient_id"], "started": row["created_at"], "title": row.get("title")}


def _kb_progress(progress: Progress | None):
    if progress is None:
        return None

    def report(p) -> None:
        progress(int(p.done), int(p.total), str(getattr(p, "stage", "")))
    return report


def _load_clinical(notes: list[str], similar=None):
    """The clinical service (what engine.clinical provides of extract/triage/conflicts; gaps noted)."""
    try:
        import engine.clinical as clinical
    except ImportError as exc:
        notes.append(f"clinical service unavailable: {exc}")
        return None
    from engine.agent.wiring import ClinicalService

    service = ClinicalService(clinical, similar=similar)
    if len(service.missing) == 3:
        notes.append("clinical service unavailable (engine.clinical has no extract/triage/conflicts)")
        return None
    if service.missing:
        notes.append(f"clinical service incomplete (missing {', '.join(service.missing)})")
    return service
