"""`Engine`: the one facade the CLI and the GUI talk to.

It composes a `ServiceContainer` (engine/container.py: the language model, the embedder and
the clinical rules, each built lazily from settings) and the per-area managers of
engine/managers/, each owning its state and its lock:

- `engine.patients`: the encrypted vault, patients, sessions, profile facts, exports;
- `engine.kb`: the one open knowledge base and its search service;
- `engine.models`: installed models, the device, the clinic model server;
- `engine.turns`: answering a turn, cancelling it, the response cache.

The engine itself keeps what spans areas (settings, warm-up, closing) and the flat methods
the GUI and the commands call, each a one-line delegation to its area. Every method is a
plain blocking call or a generator of `engine.events`; the GUI runs them in worker threads.
Without a built knowledge base the agent still answers and says so in the trace; without an
unlocked vault a turn runs against an in-process memory that is never written anywhere.
The layers and one turn's data flow: docs/ARCHITECTURE.md.
"""

from __future__ import annotations

import gc
import logging
import threading
import time
from pathlib import Path
from typing import Callable, Iterator

from engine.agent.pipeline import pipeline_mermaid
from engine.agent.prompting import safety_prompt as system_prompt
from engine.agent.services import AgentServices
from engine.cancel import CancelToken
from engine.container import UNSET, ServiceContainer
from engine.errors import ModelUnavailable
from engine.events import Event
from engine.llm.types import ChatMessage
from engine.managers.knowledge import KnowledgeManager
from engine.managers.models import ModelsManager
from engine.managers.patients import PatientsManager
from engine.managers.turns import DEGRADED_STATUS, MAX_MESSAGE_CHARS, TurnsManager, clean_message
from engine.settings import Settings, load_settings, save_settings
from engine.text import detect_language

Progress = Callable[[int, int, str], None]
WARM_UP_STEPS = ("model", "knowledge", "embedder", "clinical")
log = logging.getLogger(__name__)

__all__ = ["DEGRADED_STATUS", "MAX_MESSAGE_CHARS", "Engine", "clean_message", "detect_language", "system_prompt"]


class Engine:
    def __init__(self, settings: Settings | None = None, *, llm=None, knowledge=UNSET, clinical=UNSET,
                 embedder=UNSET, vault_path: Path | None = None):
        """`knowledge` (a search service), `clinical` and `embedder` default to the real
        services (lazily); pass an object to inject one, or None to run without it."""
        self.container = ServiceContainer(settings or load_settings(), llm=llm, clinical=clinical, embedder=embedder)
        self.patients = PatientsManager(self.container, vault_path)
        self.models = ModelsManager(self.container, self.patients)
        self.kb = KnowledgeManager(self.container, self.patients, knowledge)
        self.turns = TurnsManager(self.container, self.patients, self.kb, self.models)
        self.container.token_source = self.models.remote_token
        self.patients.listeners.append(self.turns)
        self._warm_up_lock = threading.Lock()

    # -- settings ----------------------------------------------------------------------
    @property
    def settings(self) -> Settings:
        return self.container.settings

    def update_settings(self, settings: Settings) -> None:
        """Apply and save new settings; services that depend on them are recreated lazily."""
        old = self.container.settings
        self.container.settings = settings
        save_settings(settings)
        if settings.llm != old.llm or settings.remote != old.remote:
            self.container.reset_llm()
        if settings.cache != old.cache:
            self.turns.reset_cache()
        if settings.embedding != old.embedding or settings.retrieval != old.retrieval:
            self.kb.reset()

    # -- services ----------------------------------------------------------------------
    @property
    def llm(self):
        return self.container.llm

    @property
    def clinical(self):
        return self.container.clinical

    @property
    def embedder(self):
        return self.container.embedder

    @property
    def knowledge(self):
        """The retrieval service, or None when the knowledge base is not built."""
        return self.kb.search

    @property
    def service_notes(self) -> list[str]:
        return self.container.notes

    @property
    def cache(self):
        return self.turns.cache

    def services(self, memory, settings: Settings | None = None, *,
                 llm_unavailable: ModelUnavailable | None = None) -> AgentServices:
        return self.turns.services(memory, settings, llm_unavailable=llm_unavailable)

    def close(self) -> None:
        self.container.close()
        self.kb.close()
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
            settle_long_lived_objects()
            if progress is not None:
                progress(len(WARM_UP_STEPS), len(WARM_UP_STEPS), "ready")
            return {"loaded": loaded, "notes": notes, "seconds": seconds}

    def _drop_service(self, step: str) -> None:
        """Turns run without a service that failed to load (the model cannot be dropped:
        a turn then reports it in plain words)."""
        if step == "knowledge":
            self.kb.drop()
        elif step in ("embedder", "clinical"):
            self.container.drop(step)

    def _warm_model(self) -> bool:
        from engine.llm.runtime import ROLES

        llm = self.llm
        contexts = set()
        for role in ROLES:
            context = llm.context_key(role)
            if context not in contexts:
                contexts.add(context)
                llm.info(role)
        return True

    def _warm_knowledge(self) -> bool:
        return self.kb.search is not None

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
        clinical.warm_up()
        return True

    # -- the vault (engine.patients) ---------------------------------------------------
    def vault_path(self) -> Path:
        return self.patients.vault_path()

    def vault_exists(self) -> bool:
        return self.patients.vault_exists()

    def unlock(self, passphrase: str, create: bool = False) -> None:
        """Open the encrypted store (raises WrongPassphrase; nothing is changed then)."""
        self.patients.unlock(passphrase, create=create)

    def lock(self) -> None:
        """Close the store (audited as `vault.lock`) and forget everything patient-derived held
        in memory: the response cache, the conversation memories, the scratch conversation
        and the embedding memo of recent question texts, and wipe the language model's
        key/value cache of the last prompt."""
        self.patients.lock()

    @property
    def is_locked(self) -> bool:
        return self.patients.is_locked

    @property
    def vault(self):
        return self.patients.vault

    # -- patients, sessions and the profile (engine.patients) --------------------------
    def list_patients(self, search: str = "") -> list[dict]:
        return self.patients.list_patients(search)

    def create_patient(self, name: str) -> dict:
        return self.patients.create_patient(name)

    def rename_patient(self, patient_id: int, name: str) -> None:
        self.patients.rename_patient(patient_id, name)

    def delete_patient(self, patient_id: int) -> None:
        self.patients.delete_patient(patient_id)

    def list_sessions(self, patient_id: int) -> list[dict]:
        return self.patients.list_sessions(patient_id)

    def open_patient(self, patient_id: int) -> list[dict]:
        return self.patients.open_patient(patient_id)

    def new_session(self, patient_id: int) -> dict:
        return self.patients.new_session(patient_id)

    def rename_session(self, session_id: int, title: str) -> dict:
        return self.patients.rename_session(session_id, title)

    def session_turns(self, session_id: int) -> list[dict]:
        return self.patients.session_turns(session_id)

    def profile(self, patient_id: int) -> dict:
        return self.patients.profile(patient_id)

    def confirm_fact(self, fact_id: int) -> None:
        self.patients.confirm_fact(fact_id)

    def reject_fact(self, fact_id: int) -> None:
        self.patients.reject_fact(fact_id)

    def retract_fact(self, fact_id: int) -> None:
        self.patients.retract_fact(fact_id)

    def edit_fact(self, fact_id: int, changes: dict) -> None:
        self.patients.edit_fact(fact_id, changes)

    def export_conversation(self, session_id: int, path, fmt: str = "md") -> Path:
        return self.patients.export_conversation(session_id, path, fmt)

    def export_patient(self, patient_id: int, path, fmt: str = "json") -> Path:
        return self.patients.export_patient(patient_id, path, fmt)

    # -- turns (engine.turns) ----------------------------------------------------------
    def ask(self, text: str, *, patient_id: int | None = None, session_id: int | None = None, mode: str | None = None,
            settings: Settings | None = None, history: list[ChatMessage] | None = None) -> Iterator[Event]:
        """Answer one turn, yielding events; the last event is `Done` with the turn result."""
        return self.turns.ask(text, patient_id=patient_id, session_id=session_id, mode=mode, settings=settings,
                              history=history)

    def cancel(self) -> None:
        """Stop the running turn before its next token (safe from any thread)."""
        self.turns.cancel()

    def cache_stats(self) -> dict:
        return self.turns.cache_stats()

    def clear_response_cache(self) -> None:
        self.turns.clear_response_cache()

    # -- models and the model server (engine.models) -----------------------------------
    def add_model(self, path, roles, progress: Progress | None = None) -> dict:
        return self.models.add(path, roles, progress)

    def device_info(self) -> dict:
        return self.models.device_info()

    def answered_by(self, role: str = "generate") -> dict | None:
        return self.models.answered_by(role)

    def set_remote_token(self, token: str | None) -> None:
        self.models.set_remote_token(token)

    def has_remote_token(self) -> bool:
        return self.models.has_remote_token()

    def check_remote(self, settings: Settings | None = None) -> dict:
        return self.models.check_remote(settings)

    # -- knowledge base (engine.kb) ----------------------------------------------------
    def use_knowledge_base(self, kb) -> None:
        self.kb.use_knowledge_base(kb)

    def kb_stats(self) -> dict:
        return self.kb.stats()

    def kb_add(self, paths, progress: Progress | None = None, cancel: CancelToken | None = None,
               allow_patient_data: bool = False) -> dict:
        return self.kb.add(paths, progress, cancel, allow_patient_data)

    def kb_export(self, path, progress: Progress | None = None, cancel: CancelToken | None = None) -> dict:
        return self.kb.export(path, progress, cancel)

    def kb_import(self, path, progress: Progress | None = None, cancel: CancelToken | None = None) -> dict:
        return self.kb.import_bundle(path, progress, cancel)

    def kb_remove(self, doc_ids_or_paths) -> list[str]:
        return self.kb.remove(doc_ids_or_paths)

    def kb_rebuild(self, progress: Progress | None = None, cancel: CancelToken | None = None) -> dict:
        return self.kb.rebuild(progress, cancel)

    # -- documentation -----------------------------------------------------------------
    @staticmethod
    def pipeline_mermaid() -> str:
        return pipeline_mermaid()


def settle_long_lived_objects() -> None:
    """Collect once, then move every object alive now (the loaded models, the concept pack,
    the indexes: millions of objects that live as long as the process) out of the garbage
    collector's reach. Without this, the first full collection during a turn walks all of them
    with the GIL held (about 0.6 s on the 2-core test machine) and the window freezes."""
    gc.collect()
    gc.freeze()
