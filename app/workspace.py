"""Everything patient-related, shown only while the store is unlocked: patients and
conversations on the left, the chat in the middle, sources/profile/trace on the right.

The main window destroys the whole workspace on lock, so no patient data stays in any
widget while the store is locked.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QSplitter, QTabWidget, QVBoxLayout, QWidget

from app.panels.chat import ChatPanel
from app.panels.patients import PatientsPanel
from app.panels.profile import ProfilePanel
from app.panels.sources import SourcesPanel
from app.panels.trace import TracePanel
from app.workers import EngineRunner
from engine.events import Done


class Workspace(QWidget):
    def __init__(self, engine, runner: EngineRunner, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("workspace")
        self._engine, self._runner = engine, runner
        self.patients = PatientsPanel(engine, runner)
        self.chat = ChatPanel(engine, runner)
        self.sources = SourcesPanel()
        self.profile = ProfilePanel(engine, runner)
        self.trace = TracePanel()
        self.side = QTabWidget(objectName="sideTabs")
        self.side.addTab(self.sources, self.tr("Sources"))
        self.side.addTab(self.profile, self.tr("Profile"))
        self.side.addTab(self.trace, self.tr("Trace"))

        splitter = QSplitter(Qt.Orientation.Horizontal, objectName="workspaceSplitter")
        splitter.addWidget(self.patients)
        splitter.addWidget(self.chat)
        splitter.addWidget(self.side)
        splitter.setStretchFactor(0, 0)
        splitter.setStretchFactor(1, 3)
        splitter.setStretchFactor(2, 2)
        splitter.setSizes([220, 600, 500])
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        layout.addWidget(splitter)

        self.patients.patient_changed.connect(self._patient_changed)
        self.patients.patient_updated.connect(self.chat.rename_header)
        self.patients.session_changed.connect(self._session_changed)
        self.chat.turn_started.connect(self._turn_started)
        self.chat.question_sent.connect(self.patients.title_if_untitled)
        self.chat.turn_event.connect(self.trace.on_event)
        self.chat.turn_finished.connect(self._turn_finished)
        self.chat.citation_clicked.connect(self.show_citation)
        self.chat.turn_activated.connect(self.show_turn)

    def start(self, patient_id: object = None, session_id: object = None) -> None:
        """Load the patient list (selecting the patient and conversation given, if any) and
        the pipeline graph (both in workers)."""
        if patient_id is not None:
            self.patients.restore(patient_id, session_id)
        else:
            self.patients.reload()
        self._runner.call(self, self._engine.pipeline_mermaid, on_result=self.trace.set_pipeline)

    # -- selection -------------------------------------------------------------------------
    def current_patient(self) -> dict | None:
        return self.patients.current_patient()

    def current_session(self) -> dict | None:
        return self.patients.current_session()

    def _patient_changed(self, patient: dict | None) -> None:
        self.sources.clear()
        self.trace.start_turn()
        self.profile.load((patient or {}).get("id"))
        if patient is None:
            self.chat.set_context(None, None)

    def _session_changed(self, session: dict | None) -> None:
        self.sources.clear()
        self.chat.set_context(self.current_patient(), session)

    # -- turns -----------------------------------------------------------------------------
    def _turn_started(self) -> None:
        self.sources.clear()
        self.trace.start_turn()

    def _turn_finished(self, result: dict) -> None:
        # The Sources tab is filled once, with the final answer's own sources: laying out the
        # cards while the worker composes the answer made the window miss its 100 ms frames
        # on two cores, and a replaced draft's sources would flash before the final ones.
        self.sources.set_sources(result.get("sources") or [])
        if self.chat.patient_id is not None:
            self.profile.reload()
            self.patients.refresh_titles()

    def show_citation(self, number: int, sentence: str = "") -> None:
        """Source `number` in the Sources tab, with `sentence` (the source sentence that
        backs the cited statement) highlighted and scrolled into view."""
        self.side.setCurrentWidget(self.sources)
        self.sources.scroll_to(number, sentence)

    def show_turn(self, result: dict) -> None:
        """Show the sources and trace of an earlier turn (history)."""
        self.sources.set_sources(result.get("sources") or [])
        self.trace.start_turn()
        self.trace.on_event(Done(result))
