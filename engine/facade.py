"""`Engine`: the one facade the CLI and the GUI talk to.

It composes a `ServiceContainer` (engine/container.py: the language model, the embedder and
the clinical rules, each built lazily from settings) and the per-area managers of
engine/managers/, each owning its state and its lock. Callers reach an area through its
manager, as a GUI reaches a collection's parts through its managers:

- `engine.patients`: the encrypted vault, patients, sessions, profile facts, exports
  (`engine.patients.unlock(...)`, `engine.patients.create_patient(...)`);
- `engine.kb`: the one open knowledge base and its search service (`engine.kb.add(...)`,
  `engine.kb.stats()`, `engine.kb.search`);
- `engine.models`: installed models, the device, the clinic model server
  (`engine.models.device_info()`, `engine.models.check_remote()`);
- `engine.turns`: answering a turn, cancelling it, the response cache
  (`engine.turns.cancel()`, `engine.turns.cache_stats()`).

The engine itself keeps only what spans areas: the settings (`settings`, `update_settings`,
which resets the services and areas that depend on them), the shared services of the
container (`llm`, `clinical`, `embedder`, `service_notes`), `warm_up`, `close`, the
documentation's `pipeline_mermaid`, and `ask`: the one convenience, kept because every
caller (GUI, commands, benchmarks, tests) starts a turn with it; it is `engine.turns.ask`.
Every method is a plain blocking call or a generator of `engine.events`; the GUI runs them
in worker threads. Without a built knowledge base the agent still answers and says so in
the trace; without an unlocked vault a turn runs against an in-process memory that is never
written anywhere. The layers and one turn's data flow: docs/ARCHITECTURE.md.
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
from engine.container import UNSET, ServiceContainer
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
        self.apply_settings(settings)
        save_settings(settings)

    def apply_settings(self, settings: Settings) -> None:
        """Use new settings without saving them (`update_settings` saves too)."""
        old = self.container.settings
        self.container.settings = settings
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
    def service_notes(self) -> list[str]:
        return self.container.notes

    def close(self) -> None:
        """Release the services and the knowledge base, then lock the vault (`engine.patients.lock`)."""
        self.container.close()
        self.kb.close()
        self.patients.lock()

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

    # -- the turn entry point (engine.turns) -------------------------------------------
    def ask(self, text: str, *, patient_id: int | None = None, session_id: int | None = None, mode: str | None = None,
            settings: Settings | None = None, history: list[ChatMessage] | None = None) -> Iterator[Event]:
        """Answer one turn, yielding events; the last event is `Done` with the turn result.
        The one convenience the facade keeps over an area: it is `engine.turns.ask`."""
        return self.turns.ask(text, patient_id=patient_id, session_id=session_id, mode=mode, settings=settings,
                              history=history)

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
