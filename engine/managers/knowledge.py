"""The knowledge-base area: the one open knowledge base and the search service over it.

Both live here only. Their fields change under `_lock` (held briefly: opening, replacing or
dropping); writes to the index (add, remove, import, rebuild, all from the GUI's background
lane) run one at a time under `_writing`, so two never interleave, while turns keep
searching the index they opened until a write replaces it.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Callable

from engine.cancel import CancelToken
from engine.container import UNSET, ServiceContainer
from engine.errors import KnowledgeIndexError, VaultError
from engine.managers.patients import PatientsManager

Progress = Callable[[int, int, str], None]


class KnowledgeManager:
    def __init__(self, container: ServiceContainer, patients: PatientsManager, search=UNSET):
        """`search`: the search service to use as given (None: run without documents);
        by default the default knowledge base, opened on first use."""
        self._container = container
        self._patients = patients
        self._search = search
        self._base = None
        self._lock = threading.RLock()
        self._writing = threading.Lock()

    # -- searching ---------------------------------------------------------------------
    @property
    def search(self):
        """The agent's search service (`engine.agent.services.Knowledge`), or None when the
        knowledge base is not built (noted in the service notes)."""
        with self._lock:
            if self._search is UNSET:
                self._search = self._open_search()
            return self._search

    def use_search(self, search) -> None:
        """Search with `search` (any `engine.agent.services.Knowledge`) until the knowledge base changes."""
        with self._lock:
            self._search = search

    def _open_search(self):
        try:
            self._base = self._base or self._open_base()
        except KnowledgeIndexError as exc:
            self._container.notes.append(f"knowledge base unavailable: {exc}")
            return None
        return self._search_over(self._base)

    def _search_over(self, base):
        from engine.agent.wiring import KnowledgeService
        from engine.knowledge import HybridRetriever

        settings = self._container.settings
        return KnowledgeService(HybridRetriever.from_settings(base, settings, self._expander(), self._translator()))

    def use_knowledge_base(self, base) -> None:
        """Search `base` (an open engine.knowledge.KnowledgeBase) instead of the default one."""
        with self._lock:
            self._base = base
            self._search = self._search_over(base)

    def _expander(self):
        """Expanders plugged into the knowledge package, plus the clinical Korean -> English one."""
        from engine.knowledge.expansion import ChainExpander, plugged_expander

        expanders = [e for e in (plugged_expander(),) if e is not None]
        if self._container.clinical is not None:
            try:
                from engine.clinical import KoreanConceptExpander

                expanders.append(KoreanConceptExpander())
            except ImportError as exc:
                self._container.notes.append(f"Korean query expansion unavailable: {exc}")
        if not expanders:
            return None
        return expanders[0] if len(expanders) == 1 else ChainExpander(expanders)

    def _translator(self):
        """Query translation by concept and question type (needs the clinical pack)."""
        if self._container.clinical is None:
            return None
        from engine.clinical import PackConceptFinder
        from engine.knowledge.translation import QueryTranslator

        return QueryTranslator(PackConceptFinder())

    # -- the open knowledge base ---------------------------------------------------------
    @property
    def base(self):
        """The open knowledge base (opened now if needed), or KnowledgeIndexError."""
        with self._lock:
            if self._base is None:
                self._base = self._open_base()
                self._search = UNSET
            return self._base

    @property
    def opened(self):
        """The knowledge base if it is open, without opening it."""
        return self._base

    def _open_base(self, build: bool = False, progress: Progress | None = None, cancel: CancelToken | None = None):
        from engine.knowledge import open_default

        return open_default(self._container.settings, build=build, embedder=self._container.embedder,
                            progress=_kb_progress(progress), cancelled=cancel)

    def reset(self) -> None:
        """Reopen the knowledge base on next use (its embedding or retrieval settings changed)."""
        with self._lock:
            if self._base is not None:
                self._search = UNSET
            self._base = None

    def drop(self) -> None:
        """Run without documents (the knowledge base failed to load)."""
        with self._lock:
            self._search = None

    def _replaced(self) -> None:
        """The index on disk was replaced: close ours; the next use opens the live one."""
        with self._lock:
            if self._base is not None:
                self._base.close()
            self._base = None
            self._search = UNSET

    # -- administration ------------------------------------------------------------------
    def stats(self) -> dict:
        """What the open knowledge base holds: counts, embedding, the clinic's documents and
        `attribution`, whom its documents are owed to as their records say
        (`KnowledgeBase.attribution`); ready False with a message when it cannot be opened."""
        try:
            base = self.base
        except KnowledgeIndexError as exc:
            return {"ready": False, "message": exc.user_message, "detail": str(exc)}
        manifest = base.manifest
        return {"ready": True, "chunks": base.size, **base.document_count(),
                "embedding": manifest.embedding if manifest else None,
                "user_documents": base.list_documents("user"), "attribution": base.attribution()}

    def add(self, paths, progress: Progress | None = None, cancel: CancelToken | None = None,
            allow_patient_data: bool = False) -> dict:
        """Add clinic documents; PatientDataFound (nothing added) when one looks like patient
        data, unless `allow_patient_data`: that override is written to the vault's audit log
        first, so it needs the vault unlocked."""
        with self._writing:
            result = self.base.add_files([Path(p) for p in paths], progress=_kb_progress(progress), cancelled=cancel,
                                         allow_patient_data=allow_patient_data,
                                         on_patient_data=self._audit_patient_data_override)
        return result if isinstance(result, dict) else {"result": result}

    def _audit_patient_data_override(self, summary: dict) -> None:
        from engine.knowledge.patient_data import audit_override

        vault = self._patients.open_vault
        if vault is None:
            raise VaultError("patient-data override with the vault locked",
                             user_message="Unlock the patient store first: adding documents that look like patient "
                                          "data is recorded in its audit log. Nothing was added.")
        audit_override(vault, summary)

    def export(self, path, progress: Progress | None = None, cancel: CancelToken | None = None) -> dict:
        """Write the knowledge base to a bundle file for the clinic's other desktops."""
        from engine.knowledge.bundle import export_bundle

        with self._writing:
            return export_bundle(self.base, Path(path), progress=_kb_progress(progress), cancelled=cancel)

    def import_bundle(self, path, progress: Progress | None = None, cancel: CancelToken | None = None) -> dict:
        """Replace the knowledge base by a bundle (verified first, atomic); searches reopen it."""
        from engine.knowledge import IndexParams, default_kb_dir
        from engine.knowledge.bundle import import_bundle

        with self._writing:
            try:
                return import_bundle(Path(path), default_kb_dir(), self._container.embedder,
                                     IndexParams.from_settings(self._container.settings),
                                     progress=_kb_progress(progress), cancelled=cancel)
            finally:
                self._replaced()

    def remove(self, doc_ids_or_paths) -> list[str]:
        with self._writing:
            return self.base.remove([str(p) for p in doc_ids_or_paths])

    def rebuild(self, progress: Progress | None = None, cancel: CancelToken | None = None) -> dict:
        """Build the default knowledge base again where it is stale (the old handle is let go
        first); searches then use the rebuilt one."""
        with self._writing:
            with self._lock:
                self._base = None
            base = self._open_base(build=True, progress=progress, cancel=cancel)
            with self._lock:
                self._base = base
                self._search = UNSET
        return {"chunks": base.size, **base.document_count()}

    def close(self) -> None:
        retriever = getattr(self._search, "retriever", None)
        if retriever is not None:
            retriever.close()
        if self._base is not None:
            self._base.close()


def _kb_progress(progress: Progress | None):
    if progress is None:
        return None

    def report(p) -> None:
        progress(int(p.done), int(p.total), str(getattr(p, "stage", "")))
    return report
