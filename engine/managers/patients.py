"""The patients area: the encrypted vault, its patients, sessions, profile facts and exports.

The vault is opened and closed here only. Areas that keep patient-derived data in memory
(the turns area: response cache, conversation memories) register as listeners and are told
when the vault opens, when a patient is deleted and when the vault locks, so that nothing
patient-derived outlives it.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Protocol

from engine.container import ServiceContainer
from engine.errors import InputError, VaultError


class VaultListener(Protocol):
    def vault_opened(self) -> None: ...

    def patient_deleted(self) -> None: ...

    def vault_locked(self) -> None: ...


class PatientsManager:
    def __init__(self, container: ServiceContainer, vault_path: Path | None = None):
        self._container = container
        self._vault_path = vault_path
        self._vault = None
        self._lock = threading.RLock()
        self.listeners: list[VaultListener] = []

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
            self._vault = Vault.open(self.vault_path(), passphrase, create=create, settings=self._container.settings)
            for listener in self.listeners:
                listener.vault_opened()

    def lock(self) -> None:
        """Close the store (audited as `vault.lock`) and have every listener forget what it
        holds of patients in memory."""
        with self._lock:
            if self._vault is not None:
                self._vault.lock()
            self._vault = None
        for listener in self.listeners:
            listener.vault_locked()

    @property
    def is_locked(self) -> bool:
        return self._vault is None

    @property
    def vault(self):
        vault = self._vault
        if vault is None:
            raise VaultError("the vault is locked", user_message="Unlock the patient store first.")
        return vault

    @property
    def open_vault(self):
        """The vault when unlocked, else None (for optional uses: audit, cache persistence)."""
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
        for listener in self.listeners:
            listener.patient_deleted()

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

    # -- export ------------------------------------------------------------------------
    def export_conversation(self, session_id: int, path, fmt: str = "md") -> Path:
        from engine.memory.export import conversation_markdown, write_document

        session = self.vault.get_session(int(session_id))
        patient = self.vault.get_patient(session["patient_id"])
        markdown = conversation_markdown(patient["display_name"], session, self.session_turns(int(session_id)))
        target = write_document(markdown, Path(path), fmt)
        self.vault.audit("session.export", session["patient_id"], {"session_id": int(session_id), "format": fmt})
        return target

    def export_patient(self, patient_id: int, path, fmt: str = "json") -> Path:
        from engine.memory.export import export_patient, patient_record, to_markdown, write_document

        if fmt in ("json", "md", "markdown"):
            return export_patient(self.vault, int(patient_id), Path(path), "markdown" if fmt == "md" else fmt)
        if fmt != "pdf":
            raise InputError(f"unknown format {fmt}", user_message="Export format must be JSON, Markdown or PDF.")

        target = write_document(to_markdown(patient_record(self.vault, int(patient_id))), Path(path), "pdf")
        self.vault.audit("patient.export", int(patient_id), {"format": "pdf"})
        return target


def _patient(row: dict) -> dict:
    return {"id": row["id"], "name": row["display_name"], "created": row["created_at"], "updated": row["updated_at"]}


def _session(row: dict) -> dict:
    return {"id": row["id"], "patient_id": row["patient_id"], "started": row["created_at"], "title": row.get("title")}
