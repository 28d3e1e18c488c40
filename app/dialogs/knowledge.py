"""The knowledge base: what is indexed, adding files and folders with progress, ETA and
cancel, removing documents, rebuilding. The engine persists the index and its progress,
so the counts shown on opening are those that survived the last run."""

from __future__ import annotations

import time

from PySide6.QtCore import QCoreApplication, QT_TRANSLATE_NOOP, Qt
from PySide6.QtWidgets import (QDialog, QFileDialog, QFormLayout, QHBoxLayout, QLabel, QListWidget, QListWidgetItem,
                               QProgressBar, QPushButton, QVBoxLayout, QWidget)

from app.errors import user_message
from app.folders import remember, start_folder
from app.panels.sources import MEDQUAD_ATTRIBUTION
from app.workers import EngineRunner, ProgressBridge
from engine.llm.types import CancelToken

ROLE = Qt.ItemDataRole.UserRole
STAT_LABELS = {
    "documents": QT_TRANSLATE_NOOP("KnowledgeBaseDialog", "Documents"),
    "chunks": QT_TRANSLATE_NOOP("KnowledgeBaseDialog", "Passages (chunks)"),
    "default": QT_TRANSLATE_NOOP("KnowledgeBaseDialog", "Built-in documents"),
    "user": QT_TRANSLATE_NOOP("KnowledgeBaseDialog", "Your documents"),
    "embedding": QT_TRANSLATE_NOOP("KnowledgeBaseDialog", "Embedding model"),
    "embedding_model": QT_TRANSLATE_NOOP("KnowledgeBaseDialog", "Embedding model"),
}
DOCUMENT_FILTER = "*.txt *.md *.pdf *.jsonl *.json"


def format_eta(seconds: float) -> str:
    seconds = max(0, int(round(seconds)))
    minutes, secs = divmod(seconds, 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{secs:02d}" if hours else f"{minutes}:{secs:02d}"


def eta_seconds(started: float, done: int, total: int, now: float | None = None) -> float | None:
    """Remaining time from the average rate so far; None until there is a rate."""
    if done <= 0 or total <= 0 or done > total:
        return None
    elapsed = (now if now is not None else time.monotonic()) - started
    return elapsed / done * (total - done)


def document_label(document: object) -> tuple[str, object]:
    if isinstance(document, dict):
        shown = document.get("title") or document.get("path") or document.get("doc_id") or str(document)
        return str(shown), document.get("doc_id") or document.get("path") or shown
    return str(document), document


class KnowledgeBaseDialog(QDialog):
    def __init__(self, engine, runner: EngineRunner, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("knowledgeDialog")
        self.setWindowTitle(self.tr("Knowledge base"))
        self.resize(620, 520)
        self._engine, self._runner = engine, runner
        self._cancel: CancelToken | None = None
        self._started = 0.0
        self.last_result: dict | None = None

        self.stats_form = QFormLayout()
        self.state = QLabel(objectName="kbState", wordWrap=True)
        self.stats_form.addRow(self.tr("State"), self.state)
        self.stat_values: dict[str, QLabel] = {}
        self.documents = QListWidget(objectName="kbDocuments")
        self.documents.setSelectionMode(QListWidget.SelectionMode.ExtendedSelection)
        self.add_files_button = QPushButton(self.tr("Add files…"), objectName="kbAddFiles")
        self.add_folder_button = QPushButton(self.tr("Add folder…"), objectName="kbAddFolder")
        self.remove_button = QPushButton(self.tr("Remove"), objectName="kbRemove")
        self.rebuild_button = QPushButton(self.tr("Rebuild index"), objectName="kbRebuild")
        self.progress = QProgressBar(objectName="kbProgress", minimum=0, maximum=1, value=0, textVisible=False)
        self.progress_text = QLabel(objectName="kbProgressText", wordWrap=True)
        self.eta = QLabel(objectName="kbEta")
        self.cancel_button = QPushButton(self.tr("Cancel"), objectName="kbCancel", enabled=False)
        attribution = QLabel(self.tr("Built-in knowledge: %1. Shown with every answer that uses it.")
                             .replace("%1", MEDQUAD_ATTRIBUTION), wordWrap=True, objectName="kbAttribution")
        attribution.setStyleSheet("color: #546e7a;")

        actions = QHBoxLayout()
        for button in (self.add_files_button, self.add_folder_button, self.remove_button, self.rebuild_button):
            actions.addWidget(button)
        progress_row = QHBoxLayout()
        progress_row.addWidget(self.progress, 1)
        progress_row.addWidget(self.eta)
        progress_row.addWidget(self.cancel_button)
        layout = QVBoxLayout(self)
        layout.addLayout(self.stats_form)
        layout.addWidget(QLabel(self.tr("Documents you added:")))
        layout.addWidget(self.documents, 1)
        layout.addLayout(actions)
        layout.addLayout(progress_row)
        layout.addWidget(self.progress_text)
        layout.addWidget(attribution)

        self.add_files_button.clicked.connect(self.choose_files)
        self.add_folder_button.clicked.connect(self.choose_folder)
        self.remove_button.clicked.connect(self.remove_selected)
        self.rebuild_button.clicked.connect(self.rebuild)
        self.cancel_button.clicked.connect(self.cancel)
        self.refresh()

    # -- stats -----------------------------------------------------------------------------
    def refresh(self) -> None:
        self.state.setText(self.tr("Reading…"))
        self._runner.call(self, self._engine.kb_stats, on_result=self._show_stats, lane="background")

    def _show_stats(self, stats: dict) -> None:
        ready = stats.get("ready", True)
        self.state.setText(self.tr("Ready") if ready else (stats.get("message") or self.tr("Not built yet")))
        for key, label in STAT_LABELS.items():
            if key not in stats or isinstance(stats[key], (list, dict)) and key != "embedding":
                continue
            value = stats[key]
            if isinstance(value, dict):
                value = value.get("model") or value.get("name") or ", ".join(f"{k}: {v}" for k, v in value.items())
            if key not in self.stat_values:
                self.stat_values[key] = QLabel(objectName=f"kb_{key}", wordWrap=True)
                self.stats_form.addRow(QCoreApplication.translate("KnowledgeBaseDialog", label), self.stat_values[key])
            self.stat_values[key].setText(str(value))
        self.documents.clear()
        for document in stats.get("user_documents") or []:
            shown, key = document_label(document)
            item = QListWidgetItem(shown)
            item.setData(ROLE, key)
            self.documents.addItem(item)

    # -- jobs ------------------------------------------------------------------------------
    @property
    def running(self) -> bool:
        return self._cancel is not None

    def choose_files(self) -> None:
        paths, _ = QFileDialog.getOpenFileNames(self, self.tr("Add documents"), str(start_folder()),
                                                self.tr("Documents (%1)").replace("%1", DOCUMENT_FILTER))
        if paths:
            remember(paths[0])
            self.add(paths)

    def choose_folder(self) -> None:
        folder = QFileDialog.getExistingDirectory(self, self.tr("Add a folder of documents"), str(start_folder()))
        if folder:
            remember(folder, is_folder=True)
            self.add([folder])

    def add(self, paths: list[str]) -> None:
        self._start(self.tr("Adding documents…"), self._engine.kb_add, list(paths))

    def rebuild(self) -> None:
        self._start(self.tr("Rebuilding the index…"), self._engine.kb_rebuild)

    def remove_selected(self) -> None:
        keys = [item.data(ROLE) for item in self.documents.selectedItems()]
        if keys:
            self._runner.call(self, self._engine.kb_remove, keys, lane="background",
                              on_result=lambda _r: self.refresh(), on_error=self._failed)

    def _start(self, message: str, method, *args) -> None:
        if self.running:
            return
        self._cancel = CancelToken()
        self._started = time.monotonic()
        bridge = ProgressBridge(self)
        bridge.progressed.connect(self._progressed)
        self.progress.setRange(0, 0)
        self.progress_text.setText(message)
        self.eta.clear()
        self._set_running(True)
        self._runner.call(self, method, *args, progress=bridge, cancel=self._cancel, lane="background",
                          on_result=self._finished, on_error=self._failed, on_finished=self._ended)

    def cancel(self) -> None:
        if self._cancel is not None:
            self._cancel.cancel()
            self.progress_text.setText(self.tr("Stopping after the current document…"))
            self.cancel_button.setEnabled(False)

    def _progressed(self, done: int, total: int, message: str) -> None:
        if total > 0:
            self.progress.setRange(0, total)
            self.progress.setValue(min(done, total))
        if message:
            self.progress_text.setText(message)
        remaining = eta_seconds(self._started, done, total)
        if remaining is not None:
            self.eta.setText(self.tr("about %1 left").replace("%1", format_eta(remaining)))

    def _finished(self, result: object) -> None:
        self.last_result = result if isinstance(result, dict) else {"result": result}
        cancelled = self._cancel is not None and self._cancel.cancelled
        self.progress_text.setText(self.tr("Stopped. What was indexed so far is kept.") if cancelled
                                   else self.tr("Done."))

    def _failed(self, exc: BaseException) -> None:
        if self._cancel is not None and self._cancel.cancelled:
            self.progress_text.setText(self.tr("Stopped. What was indexed so far is kept."))
        else:
            self.progress_text.setText(user_message(exc))

    def _ended(self) -> None:
        self._cancel = None
        self._set_running(False)
        if self.progress.maximum() == 0:
            self.progress.setRange(0, 1)
        self.eta.clear()
        self.refresh()

    def _set_running(self, running: bool) -> None:
        self.progress.setTextVisible(running)
        for button in (self.add_files_button, self.add_folder_button, self.remove_button, self.rebuild_button):
            button.setEnabled(not running)
        self.cancel_button.setEnabled(running)
