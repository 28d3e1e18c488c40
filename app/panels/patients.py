"""Patients (search, create, rename, delete, switch) and each patient's sessions."""

from __future__ import annotations

import re

from PySide6.QtCore import Qt, QTimer, Signal
from PySide6.QtGui import QAction
from PySide6.QtWidgets import QLineEdit, QListWidget, QListWidgetItem, QPushButton, QWidget

from app.panels.widgets import hbox, heading, vbox
from app.prompts import ask_text, confirm
from app.workers import EngineRunner

ROLE = Qt.ItemDataRole.UserRole
TITLE_CHARS = 48


def session_title(question: str) -> str:
    """A conversation's title from its first question: the first line, whitespace folded,
    cut at a word boundary to `TITLE_CHARS` characters (Hangul counts one per syllable)."""
    line = next((part for part in question.strip().splitlines() if part.strip()), "")
    text = re.sub(r"\s+", " ", line).strip()
    if len(text) <= TITLE_CHARS:
        return text
    cut = text[:TITLE_CHARS]
    space = cut.rfind(" ")
    return (cut[:space] if space >= TITLE_CHARS // 2 else cut).rstrip(" ,.;:?!") + "…"


def short_time(stamp: object) -> str:
    """'2026-11-22T17:23:05+00:00' → '2026-11-22 17:23'."""
    text = str(stamp or "")
    return text[:16].replace("T", " ")


class PatientsPanel(QWidget):
    patient_changed = Signal(object)   # dict or None: another patient was selected
    patient_updated = Signal(object)   # dict: the same patient, renamed or touched
    session_changed = Signal(object)   # dict or None

    def __init__(self, engine, runner: EngineRunner, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("patientsPanel")
        self._engine, self._runner = engine, runner
        self._pending_patient: object = None
        self._pending_session: object = None
        self._emitted_patient: object = None
        self._emitted_session: object = None
        self._restore_session: object = None

        self.heading = heading(self.tr("Patients"), "patientsHeading")
        self.search = QLineEdit(objectName="patientSearch", placeholderText=self.tr("Search patients"))
        self.search.setClearButtonEnabled(True)
        self.patients = QListWidget(objectName="patientList")
        self.new_button = QPushButton(self.tr("New"), objectName="newPatient")
        self.rename_button = QPushButton(self.tr("Rename"), objectName="renamePatient")
        self.delete_button = QPushButton(self.tr("Delete"), objectName="deletePatient")
        self.sessions_heading = heading(self.tr("Conversations"), "sessionsHeading")
        self.sessions = QListWidget(objectName="sessionList")
        for widget in (self.patients, self.sessions):
            widget.setTextElideMode(Qt.TextElideMode.ElideRight)
            widget.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.new_session_button = QPushButton(self.tr("New conversation"), objectName="newSession")
        self.rename_session_action = QAction(self.tr("Rename conversation…"), self, objectName="renameSession")
        self.rename_session_action.triggered.connect(self.prompt_rename_session)
        self.sessions.addAction(self.rename_session_action)
        self.sessions.setContextMenuPolicy(Qt.ContextMenuPolicy.ActionsContextMenu)
        self.sessions.itemDoubleClicked.connect(lambda _item: self.prompt_rename_session())

        buttons = hbox(self.new_button, self.rename_button, self.delete_button)
        vbox(self.heading, self.search, (self.patients, 3), buttons, self.sessions_heading, (self.sessions, 2),
             self.new_session_button, parent=self, margins=(6, 6, 6, 6))

        self._search_timer = QTimer(self, singleShot=True, interval=250)
        self._search_timer.timeout.connect(self.reload)
        self.search.textChanged.connect(self._search_timer.start)
        self.patients.currentItemChanged.connect(self._sync_patient)
        self.sessions.currentItemChanged.connect(self._sync_session)
        self.new_button.clicked.connect(self.prompt_new_patient)
        self.rename_button.clicked.connect(self.prompt_rename)
        self.delete_button.clicked.connect(self.prompt_delete)
        self.new_session_button.clicked.connect(self.start_session)
        self._update_buttons()

    # -- state -----------------------------------------------------------------------------
    def current_patient(self) -> dict | None:
        item = self.patients.currentItem()
        return item.data(ROLE) if item else None

    def current_session(self) -> dict | None:
        item = self.sessions.currentItem()
        return item.data(ROLE) if item else None

    def _update_buttons(self) -> None:
        has_patient = self.current_patient() is not None
        for button in (self.rename_button, self.delete_button, self.new_session_button):
            button.setEnabled(has_patient)

    # -- patients --------------------------------------------------------------------------
    def restore(self, patient_id: object, session_id: object) -> None:
        """Select the patient and conversation that were open (after an unlock)."""
        self._restore_session = session_id
        self.reload(select_id=patient_id)

    def reload(self, select_id: object = None) -> None:
        current = self.current_patient()
        self._pending_patient = select_id if select_id is not None else (current or {}).get("id")
        self._runner.call(self, self._engine.patients.list_patients, self.search.text(), on_result=self._show_patients)

    def _show_patients(self, patients: list[dict]) -> None:
        wanted = self._pending_patient
        self.patients.blockSignals(True)
        self.patients.clear()
        for patient in patients:
            item = QListWidgetItem(patient["name"])
            item.setData(ROLE, patient)
            item.setToolTip(self.tr("Last change: %1").replace("%1", short_time(patient.get("updated"))))
            self.patients.addItem(item)
            if patient["id"] == wanted:
                self.patients.setCurrentItem(item)
        self.patients.blockSignals(False)
        self._sync_patient()

    def select_patient(self, patient_id: object) -> None:
        for row in range(self.patients.count()):
            item = self.patients.item(row)
            if item.data(ROLE)["id"] == patient_id:
                self.patients.setCurrentItem(item)
                return

    def _sync_patient(self) -> None:
        """Tell the workspace when the selected patient changes (not on every list refresh)."""
        self._update_buttons()
        patient = self.current_patient()
        patient_id = (patient or {}).get("id")
        if patient_id == self._emitted_patient:
            if patient is not None:
                self.patient_updated.emit(patient)
            return
        self._emitted_patient = patient_id
        self._emitted_session = None
        self.sessions.clear()
        self.patient_changed.emit(patient)
        if patient is None:
            self.session_changed.emit(None)
        else:
            self._pending_session, self._restore_session = self._restore_session, None
            self._runner.call(self, self._engine.patients.open_patient, patient_id,
                              on_result=lambda rows: self._show_sessions(patient_id, rows))

    def prompt_new_patient(self) -> None:
        ask_text(self, self.tr("New patient"), self.tr("Name or chart number:"), self.create_patient,
                 name="newPatientPrompt")

    def create_patient(self, name: str) -> None:
        self._runner.call(self, self._engine.patients.create_patient, name,
                          on_result=lambda patient: self._created(patient))

    def _created(self, patient: dict) -> None:
        self.search.blockSignals(True)
        self.search.clear()
        self.search.blockSignals(False)
        self.reload(select_id=patient["id"])

    def prompt_rename(self) -> None:
        patient = self.current_patient()
        if patient is None:
            return
        ask_text(self, self.tr("Rename patient"), self.tr("New name:"),
                 lambda name: self.rename_patient(patient["id"], name), text=patient["name"], name="renamePrompt")

    def rename_patient(self, patient_id: object, name: str) -> None:
        self._runner.call(self, self._engine.patients.rename_patient, patient_id, name,
                          on_result=lambda _r: self.reload(select_id=patient_id))

    def prompt_delete(self) -> None:
        patient = self.current_patient()
        if patient is None:
            return
        text = self.tr("Delete %1 and all of their conversations and profile? This cannot be undone.")
        confirm(self, self.tr("Delete patient"), text.replace("%1", patient["name"]), self.tr("Delete"),
                lambda: self.delete_patient(patient["id"]), name="deletePatientPrompt")

    def delete_patient(self, patient_id: object) -> None:
        self._runner.call(self, self._engine.patients.delete_patient, patient_id, on_result=lambda _r: self.reload())

    # -- sessions --------------------------------------------------------------------------
    def reload_sessions(self, patient_id: object, select_id: object = None) -> None:
        current = self.current_session()
        self._pending_session = select_id if select_id is not None else (current or {}).get("id")
        self._runner.call(self, self._engine.patients.list_sessions, patient_id,
                          on_result=lambda rows: self._show_sessions(patient_id, rows))

    def _show_sessions(self, patient_id: object, sessions: list[dict]) -> None:
        if (self.current_patient() or {}).get("id") != patient_id:
            return
        if not sessions:
            self.start_session()
            return
        wanted = self._pending_session
        self.sessions.blockSignals(True)
        self.sessions.clear()
        for session in sessions:
            item = QListWidgetItem()
            self._show_session_item(item, session)
            self.sessions.addItem(item)
            if session["id"] == wanted:
                self.sessions.setCurrentItem(item)
        if self.sessions.currentItem() is None:
            self.sessions.setCurrentRow(0)
        self.sessions.blockSignals(False)
        self._sync_session()

    def _show_session_item(self, item: QListWidgetItem, session: dict) -> None:
        title = (session.get("title") or "").strip() or self.tr("New conversation")
        item.setText(f"{title}\n{short_time(session.get('started'))}")
        item.setToolTip(title)
        item.setData(ROLE, session)

    def _sync_session(self) -> None:
        session = self.current_session()
        session_id = (session or {}).get("id")
        if session_id != self._emitted_session:
            self._emitted_session = session_id
            self.session_changed.emit(session)

    def start_session(self) -> None:
        patient = self.current_patient()
        if patient is None:
            return
        self._runner.call(self, self._engine.patients.new_session, patient["id"],
                          on_result=lambda session: self.reload_sessions(patient["id"], select_id=session["id"]))

    def prompt_rename_session(self) -> None:
        session = self.current_session()
        if session is None:
            return
        ask_text(self, self.tr("Rename conversation"), self.tr("Title:"),
                 lambda title: self.rename_session(session["id"], title), text=session.get("title") or "",
                 name="renameSessionPrompt")

    def rename_session(self, session_id: object, title: str) -> None:
        patient = self.current_patient()
        if patient is None:
            return
        self._runner.call(self, self._engine.patients.rename_session, session_id, title,
                          on_result=lambda _r: self.reload_sessions(patient["id"], select_id=session_id))

    def title_if_untitled(self, session_id: object, question: str) -> None:
        """Name a conversation after its first question (the user may rename it later)."""
        session = self.current_session()
        title = session_title(question)
        if session is None or session.get("id") != session_id or (session.get("title") or "").strip() or not title:
            return
        self._show_session_item(self.sessions.currentItem(), {**session, "title": title})
        self.rename_session(session_id, title)

    def refresh_titles(self) -> None:
        """After a turn: the session title and the patient order may have changed."""
        patient = self.current_patient()
        if patient is not None:
            self.reload_sessions(patient["id"])
