"""The knowledge base: what is indexed, adding files and folders with progress, ETA and
cancel, removing documents, rebuilding, exporting and importing bundles for the clinic's
other desktops. The engine persists the index and its progress, so the counts shown on
opening are those that survived the last run.

The knowledge base is not encrypted and bundles copy it, so the dialog says so where
documents are added; documents that look like patient data are refused with their lines
(masked) unless the confirm box is ticked, which the engine records in the audit log."""

from __future__ import annotations

import time
from pathlib import Path

from PySide6.QtCore import QCoreApplication, QT_TRANSLATE_NOOP, Qt, Signal
from PySide6.QtWidgets import (QCheckBox, QDialog, QFileDialog, QFormLayout, QHBoxLayout, QLabel, QListWidget,
                               QListWidgetItem, QMessageBox, QProgressBar, QPushButton, QVBoxLayout, QWidget)

from app.engine_messages import attribution_text
from app.errors import user_message
from app.folders import remember, start_folder
from app.workers import EngineRunner, ProgressBridge
from engine.errors import PatientDataFound
from engine.cancel import CancelToken

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
FINDING_KINDS = {
    "resident_registration_number": QT_TRANSLATE_NOOP("KnowledgeBaseDialog", "resident registration number"),
    "phone_number": QT_TRANSLATE_NOOP("KnowledgeBaseDialog", "phone number"),
    "chart_number": QT_TRANSLATE_NOOP("KnowledgeBaseDialog", "chart number"),
    "birth_date": QT_TRANSLATE_NOOP("KnowledgeBaseDialog", "date of birth"),
    "name_and_date": QT_TRANSLATE_NOOP("KnowledgeBaseDialog", "name beside a date"),
}
# The engine's progress stages (`engine.knowledge.store.Progress.stage`, the bundle's
# meters) as the progress line names them; a stage not listed is shown as it comes.
STAGE_TEXTS = {
    "reading": QT_TRANSLATE_NOOP("KnowledgeBaseDialog", "Reading documents…"),
    "chunking": QT_TRANSLATE_NOOP("KnowledgeBaseDialog", "Splitting documents into passages…"),
    "tokenizing": QT_TRANSLATE_NOOP("KnowledgeBaseDialog", "Indexing the passages' words…"),
    "embedding": QT_TRANSLATE_NOOP("KnowledgeBaseDialog", "Embedding passages…"),
    "indexing": QT_TRANSLATE_NOOP("KnowledgeBaseDialog", "Building the search index…"),
    "adding": QT_TRANSLATE_NOOP("KnowledgeBaseDialog", "Adding documents…"),
    "exporting": QT_TRANSLATE_NOOP("KnowledgeBaseDialog", "Writing the bundle…"),
    "verifying": QT_TRANSLATE_NOOP("KnowledgeBaseDialog", "Verifying the bundle…"),
    "installing": QT_TRANSLATE_NOOP("KnowledgeBaseDialog", "Installing the bundle…"),
}
MIB_STAGES = ("exporting", "verifying")  # counted in MiB, the others in documents or passages
BUNDLE_FILTER = "*.kbundle *.zip"
BUNDLE_NAME = "chartside-knowledge.kbundle"
FINDINGS_SHOWN = 12


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


def stage_text(stage: str, done: int, total: int) -> str:
    """A progress report as the dialog shows it: "Reading documents… 3/40" (the count
    only where a stage has more than one step)."""
    source = STAGE_TEXTS.get(stage)
    text = QCoreApplication.translate("KnowledgeBaseDialog", source) if source else stage
    if text and total > 1:
        text += f" {min(done, total)}/{total}" + (" MiB" if stage in MIB_STAGES else "")
    return text


def document_label(document: object) -> tuple[str, object]:
    if isinstance(document, dict):
        shown = document.get("title") or document.get("path") or document.get("doc_id") or str(document)
        return str(shown), document.get("doc_id") or document.get("path") or shown
    return str(document), document


class KnowledgeBaseDialog(QDialog):
    stats_read = Signal(dict)   # the engine's kb.stats(), each time the dialog reads them

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
        self.export_button = QPushButton(self.tr("Export…"), objectName="kbExport")
        self.import_button = QPushButton(self.tr("Import…"), objectName="kbImport")
        self.export_button.setToolTip(self.tr("Write the knowledge base, with your documents, to a bundle file for "
                                              "the clinic's other desktops."))
        self.import_button.setToolTip(self.tr("Replace this desktop's knowledge base by a bundle exported on another "
                                              "desktop. The bundle is verified first."))
        self.plain_notice = QLabel(self.tr("The knowledge base is not encrypted, and Export copies it to other "
                                           "desktops: add clinic reference documents (protocols, leaflets), never "
                                           "patient records."), objectName="kbPlainNotice", wordWrap=True)
        self.plain_notice.setStyleSheet("background: #fff3e0; border: 1px solid #ef6c00; border-radius: 4px; "
                                        "padding: 6px;")
        self.allow_patient_data = QCheckBox(self.tr("Add even if a document looks like patient data (recorded in "
                                                    "the audit log)"), objectName="kbAllowPatientData")
        self.findings = QLabel(objectName="kbFindings", wordWrap=True, visible=False)
        self.findings.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.progress = QProgressBar(objectName="kbProgress", minimum=0, maximum=1, value=0, textVisible=False)
        self.progress_text = QLabel(objectName="kbProgressText", wordWrap=True)
        self.eta = QLabel(objectName="kbEta")
        self.cancel_button = QPushButton(self.tr("Cancel"), objectName="kbCancel", enabled=False)
        self.attribution = QLabel(wordWrap=True, objectName="kbAttribution", visible=False)
        self.attribution.setStyleSheet("color: #546e7a;")

        actions = QHBoxLayout()
        for button in (self.add_files_button, self.add_folder_button, self.remove_button, self.rebuild_button):
            actions.addWidget(button)
        bundles = QHBoxLayout()
        bundles.addWidget(QLabel(self.tr("Other desktops:")))
        bundles.addWidget(self.export_button)
        bundles.addWidget(self.import_button)
        bundles.addStretch(1)
        progress_row = QHBoxLayout()
        progress_row.addWidget(self.progress, 1)
        progress_row.addWidget(self.eta)
        progress_row.addWidget(self.cancel_button)
        layout = QVBoxLayout(self)
        layout.addLayout(self.stats_form)
        layout.addWidget(QLabel(self.tr("Documents you added:")))
        layout.addWidget(self.documents, 1)
        layout.addWidget(self.plain_notice)
        layout.addLayout(actions)
        layout.addWidget(self.allow_patient_data)
        layout.addLayout(bundles)
        layout.addLayout(progress_row)
        layout.addWidget(self.progress_text)
        layout.addWidget(self.findings)
        layout.addWidget(self.attribution)

        self.add_files_button.clicked.connect(self.choose_files)
        self.add_folder_button.clicked.connect(self.choose_folder)
        self.remove_button.clicked.connect(self.remove_selected)
        self.rebuild_button.clicked.connect(self.rebuild)
        self.export_button.clicked.connect(self.choose_export)
        self.import_button.clicked.connect(self.choose_import)
        self.cancel_button.clicked.connect(self.cancel)
        self.refresh()

    # -- stats -----------------------------------------------------------------------------
    def refresh(self) -> None:
        self.state.setText(self.tr("Reading…"))
        self._runner.call(self, self._engine.kb.stats, on_result=self._show_stats, lane="background")

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
        attribution = stats.get("attribution") if ready else ""
        self.attribution.setText(self.tr("Knowledge base: %1\nShown with every answer that uses it.")
                                 .replace("%1", attribution_text(attribution)) if attribution else "")
        self.attribution.setVisible(bool(attribution))
        self.documents.clear()
        for document in stats.get("user_documents") or []:
            shown, key = document_label(document)
            item = QListWidgetItem(shown)
            item.setData(ROLE, key)
            self.documents.addItem(item)
        self.stats_read.emit(stats)

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
        override = {"allow_patient_data": True} if self.allow_patient_data.isChecked() else {}
        self._start(self.tr("Adding documents…"), self._engine.kb.add, list(paths), **override)

    def choose_export(self) -> None:
        path, _ = QFileDialog.getSaveFileName(self, self.tr("Export the knowledge base"), BUNDLE_NAME,
                                              self.tr("Knowledge-base bundles (%1)").replace("%1", BUNDLE_FILTER))
        if path:
            self.export(path)

    def export(self, path: str) -> None:
        self._start(self.tr("Exporting the knowledge base…"), self._engine.kb.export, path)

    def choose_import(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Import a knowledge base"), "",
                                              self.tr("Knowledge-base bundles (%1)").replace("%1", BUNDLE_FILTER))
        if path and QMessageBox.question(
                self, self.tr("Import a knowledge base"),
                self.tr("Replace this desktop's knowledge base, including the documents added here, by the bundle? "
                        "It is verified before anything is replaced.")) == QMessageBox.StandardButton.Yes:
            self.import_bundle(path)

    def import_bundle(self, path: str) -> None:
        self._start(self.tr("Verifying and importing the bundle…"), self._engine.kb.import_bundle, path)

    def rebuild(self) -> None:
        self._start(self.tr("Rebuilding the index…"), self._engine.kb.rebuild)

    def remove_selected(self) -> None:
        keys = [item.data(ROLE) for item in self.documents.selectedItems()]
        if keys:
            self._runner.call(self, self._engine.kb.remove, keys, lane="background",
                              on_result=lambda _r: self.refresh(), on_error=self._failed)

    def _start(self, message: str, method, *args, **kwargs) -> None:
        if self.running:
            return
        self.findings.hide()
        self._cancel = CancelToken()
        self._started = time.monotonic()
        bridge = ProgressBridge(self)
        bridge.progressed.connect(self._progressed)
        self.progress.setRange(0, 0)
        self.progress_text.setText(message)
        self.eta.clear()
        self._set_running(True)
        self._runner.call(self, method, *args, progress=bridge, cancel=self._cancel, lane="background",
                          on_result=self._finished, on_error=self._failed, on_finished=self._ended, **kwargs)

    def cancel(self) -> None:
        if self._cancel is not None:
            self._cancel.cancel()
            self.progress_text.setText(self.tr("Stopping after the current document…"))
            self.cancel_button.setEnabled(False)

    def _progressed(self, done: int, total: int, stage: str) -> None:
        if total > 0:
            self.progress.setRange(0, total)
            self.progress.setValue(min(done, total))
        if stage:
            self.progress_text.setText(stage_text(stage, done, total))
        remaining = eta_seconds(self._started, done, total)
        if remaining is not None:
            self.eta.setText(self.tr("about %1 left").replace("%1", format_eta(remaining)))

    def _finished(self, result: object) -> None:
        self.last_result = result if isinstance(result, dict) else {"result": result}
        cancelled = self._cancel is not None and self._cancel.cancelled
        self.progress_text.setText(self.tr("Stopped. What was indexed so far is kept.") if cancelled
                                   else self.tr("Done."))
        self.allow_patient_data.setChecked(False)  # an override covers one add, never the next

    def _failed(self, exc: BaseException) -> None:
        if self._cancel is not None and self._cancel.cancelled:
            self.progress_text.setText(self.tr("Stopped. What was indexed so far is kept."))
        else:
            self.progress_text.setText(user_message(exc))
        if isinstance(exc, PatientDataFound):
            self._show_findings(exc.findings)

    def _show_findings(self, findings: dict) -> None:
        """The refused files' lines, as the engine masked them (digits as #, names cut short)."""
        lines = []
        for path, found in findings.items():
            lines.append(self.tr("%1: looks like patient data").replace("%1", Path(path).name))
            for finding in found[:FINDINGS_SHOWN]:
                kind = QCoreApplication.translate("KnowledgeBaseDialog", FINDING_KINDS.get(finding.kind, finding.kind))
                lines.append("  " + self.tr("line %1: %2: %3").replace("%1", str(finding.line)).replace("%2", kind)
                             .replace("%3", finding.excerpt))
            if len(found) > FINDINGS_SHOWN:
                lines.append("  " + self.tr("… and %1 more").replace("%1", str(len(found) - FINDINGS_SHOWN)))
        self.findings.setText("\n".join(lines))
        self.findings.show()

    def _ended(self) -> None:
        self._cancel = None
        self._set_running(False)
        if self.progress.maximum() == 0:
            self.progress.setRange(0, 1)
        self.eta.clear()
        self.refresh()

    def _set_running(self, running: bool) -> None:
        self.progress.setTextVisible(running)
        for button in (self.add_files_button, self.add_folder_button, self.remove_button, self.rebuild_button,
                       self.export_button, self.import_button):
            button.setEnabled(not running)
        self.cancel_button.setEnabled(running)
