"""The main window: the unlock page while locked, the workspace while unlocked.

Locking (on demand, or after the idle minutes of the settings) stops a running turn,
destroys the workspace with every patient-related widget in it, clears an answer the
user copied from the clipboard, and closes the store in the engine.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from PySide6.QtCore import QCoreApplication, QT_TRANSLATE_NOOP, Qt, QTimer, Signal, Slot
from PySide6.QtGui import QAction, QCloseEvent, QGuiApplication, QKeySequence
from PySide6.QtWidgets import QLabel, QMainWindow, QProgressBar, QStackedWidget, QWidget

from app import export
from app.idle import IdleWatcher
from app.unlock_page import UnlockPage
from app.workers import EngineRunner, LatestProgress, retire
from app.workspace import Workspace
from engine.settings import Settings

if TYPE_CHECKING:
    from app.dialogs.about import AboutDialog
    from app.dialogs.knowledge import KnowledgeBaseDialog
    from app.dialogs.settings import SettingsDialog

# Warm-up (engine.warm_up: the language model, knowledge base, embedding model and clinical
# pack) starts once the window is up and the store check is answered, so the unlock page
# is usable first. Importing torch and MedCAT holds Python's GIL for up to a few hundred
# ms at a time, which is better spent while the user types the passphrase than during
# the first answer.
WARM_UP_POLL_MS = 100
WARM_UP_STEPS = {
    "model": QT_TRANSLATE_NOOP("MainWindow", "Loading model…"),
    "knowledge": QT_TRANSLATE_NOOP("MainWindow", "Opening the knowledge base…"),
    "embedder": QT_TRANSLATE_NOOP("MainWindow", "Loading the search model…"),
    "clinical": QT_TRANSLATE_NOOP("MainWindow", "Loading the clinical checks…"),
}


class MainWindow(QMainWindow):
    language_changed = Signal(str)
    locked = Signal()

    def __init__(self, engine, runner: EngineRunner, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("mainWindow")
        self.setWindowTitle("Chartside")
        self.resize(1320, 820)
        self.engine, self.runner = engine, runner
        self.workspace: Workspace | None = None
        self.settings_dialog: "SettingsDialog | None" = None
        self.knowledge_dialog: "KnowledgeBaseDialog | None" = None
        self.about_dialog: "AboutDialog | None" = None
        self.warm_up_result: dict | None = None
        self._warm_up_seen = LatestProgress(0, len(WARM_UP_STEPS), "model")
        self._warm_up_poll = QTimer(self, interval=WARM_UP_POLL_MS)
        self._warm_up_poll.timeout.connect(self._show_warm_up_step)
        self.last_export: str | None = None
        self.knowledge_attribution = ""   # the open knowledge base's, from the engine's kb.stats()
        # Ids only (no names or text): where the user was when the store was locked.
        self.resume_at: tuple[object, object] | None = None

        self.stack = QStackedWidget(objectName="mainStack")
        self.unlock_page = UnlockPage(engine, runner)
        self.stack.addWidget(self.unlock_page)
        self.setCentralWidget(self.stack)
        self.unlock_page.unlocked.connect(self.show_workspace)

        self.device_label = QLabel(objectName="deviceLabel")
        self.knowledge_label = QLabel(objectName="knowledgeLabel")
        self.busy_label = QLabel(objectName="busyLabel")
        self.warm_up_label = QLabel(objectName="warmUpLabel")
        self.warm_up_bar = QProgressBar(objectName="warmUpProgress", minimum=0, maximum=len(WARM_UP_STEPS),
                                        textVisible=False)
        self.warm_up_bar.setFixedSize(90, 10)
        self.warm_up_bar.hide()
        self.statusBar().addPermanentWidget(self.warm_up_label)
        self.statusBar().addPermanentWidget(self.warm_up_bar)
        self.statusBar().addPermanentWidget(self.busy_label)
        self.statusBar().addPermanentWidget(self.knowledge_label)
        self.statusBar().addPermanentWidget(self.device_label)
        self.services_ready = False
        self.runner.busy_changed.connect(self._busy_changed)

        self._build_menus()
        self.idle = IdleWatcher(engine.settings.vault.idle_lock_minutes, self)
        self.idle.idle.connect(self.lock)
        self._update_actions()

    # -- menus -----------------------------------------------------------------------------
    def _action(self, text: str, name: str, slot, shortcut: str | QKeySequence.StandardKey | None = None) -> QAction:
        action = QAction(text, self, objectName=name)
        if shortcut:
            action.setShortcut(QKeySequence(shortcut))
        action.triggered.connect(slot)
        return action

    def _build_menus(self) -> None:
        self.lock_action = self._action(self.tr("Lock now"), "lockAction", self.lock, "Ctrl+L")
        self.export_conversation_action = self._action(self.tr("Export conversation…"), "exportConversation",
                                                       lambda: self.export_conversation())
        self.export_patient_action = self._action(self.tr("Export patient record…"), "exportPatient",
                                                  lambda: self.export_patient())
        # Application-wide, and on the window itself (not only in the menu), so Ctrl+Q quits
        # from any widget and any of the app's windows.
        self.quit_action = self._action(self.tr("Quit"), "quitAction", self.quit, QKeySequence.StandardKey.Quit)
        if self.quit_action.shortcut().isEmpty():
            self.quit_action.setShortcut(QKeySequence("Ctrl+Q"))
        self.quit_action.setShortcutContext(Qt.ShortcutContext.ApplicationShortcut)
        self.addAction(self.quit_action)
        self.settings_action = self._action(self.tr("Settings…"), "settingsAction", self.open_settings, "Ctrl+,")
        self.knowledge_action = self._action(self.tr("Knowledge base…"), "knowledgeAction", self.open_knowledge)
        self.about_action = self._action(self.tr("About Chartside"), "aboutAction", self.open_about)
        file_menu = self.menuBar().addMenu(self.tr("&File"))
        for action in (self.export_conversation_action, self.export_patient_action):
            file_menu.addAction(action)
        file_menu.addSeparator()
        file_menu.addAction(self.lock_action)
        file_menu.addAction(self.quit_action)
        tools = self.menuBar().addMenu(self.tr("&Tools"))
        tools.addAction(self.knowledge_action)
        tools.addAction(self.settings_action)
        help_menu = self.menuBar().addMenu(self.tr("&Help"))
        help_menu.addAction(self.about_action)
        toolbar = self.addToolBar(self.tr("Main"))
        toolbar.setObjectName("mainToolbar")
        toolbar.setMovable(False)
        for action in (self.lock_action, self.export_conversation_action, self.knowledge_action, self.settings_action):
            toolbar.addAction(action)

    def _update_actions(self) -> None:
        unlocked = self.workspace is not None
        for action in (self.lock_action, self.export_conversation_action, self.export_patient_action):
            action.setEnabled(unlocked)

    # -- start-up --------------------------------------------------------------------------
    def start(self) -> None:
        """Ask the engine (in a worker) whether a store exists, then warm it up."""
        if self.engine.patients.is_locked:
            self.unlock_page.vault_checked.connect(self._first_warm_up)
            self.unlock_page.check_vault()
        else:
            self.show_workspace()
            self.warm_up()

    @Slot()
    def _first_warm_up(self) -> None:
        self.unlock_page.vault_checked.disconnect(self._first_warm_up)
        self.warm_up()

    def warm_up(self) -> None:
        """Load the models and indexes in a background worker, with progress in the status
        bar; the device and knowledge-base state follow when it is done. The worker only
        records its step; a timer here shows it (no Qt object is touched from the worker,
        so closing the window mid-way is safe)."""
        progress = LatestProgress(0, len(WARM_UP_STEPS), "model")
        self._warm_up_seen = progress
        self.warm_up_result = None
        self._show_warm_up_step()
        self._warm_up_poll.start()
        self.runner.call(self, self.engine.warm_up, progress, lane="background", on_result=self._warmed_up,
                         on_error=self._warm_up_failed)

    @Slot()
    def _show_warm_up_step(self) -> None:
        done, total, step = self._warm_up_seen.latest
        if step not in WARM_UP_STEPS:
            return
        self.warm_up_bar.setMaximum(max(1, total))
        self.warm_up_bar.setValue(done)
        self.warm_up_bar.show()
        self.warm_up_label.setText(QCoreApplication.translate("MainWindow", WARM_UP_STEPS[step]))

    def _warmed_up(self, result: dict) -> None:
        self.warm_up_result = result
        self._end_warm_up(result.get("notes") or [])

    def _warm_up_failed(self, exc: BaseException) -> None:
        from app.errors import log_unexpected, user_message

        log_unexpected(exc)
        self.warm_up_result = {"loaded": [], "notes": [user_message(exc)], "seconds": {}}
        self._end_warm_up(self.warm_up_result["notes"])

    def _end_warm_up(self, notes: list[str]) -> None:
        """Degraded mode is allowed: a missing service is named in the tooltip, not a dialog."""
        self._warm_up_poll.stop()
        self.warm_up_bar.hide()
        self.warm_up_label.clear()
        self.warm_up_label.setToolTip("\n".join(notes))
        if notes:
            self.statusBar().showMessage(self.tr("Some services could not be loaded; answers may be limited."),
                                         10_000)
        self.refresh_services()

    def refresh_services(self) -> None:
        """Device and knowledge-base state for the status bar."""
        self.refresh_device()
        self.refresh_knowledge_state()

    def refresh_device(self) -> None:
        self.runner.call(self, self.engine.models.device_info, on_result=self._show_device, lane="background",
                         on_error=lambda _exc: self.device_label.setText(self.tr("Model: unavailable")))

    def refresh_knowledge_state(self) -> None:
        self.runner.call(self, self.engine.kb.stats, on_result=self._show_knowledge_state, lane="background",
                         on_error=self._knowledge_state_failed)

    def _show_knowledge_state(self, stats: dict) -> None:
        self.services_ready = True
        self._knowledge_stats(stats)

    def _knowledge_stats(self, stats: dict) -> None:
        """The knowledge base's state in the status bar and its attribution in the Sources
        footer (also when the knowledge-base dialog read them after a change)."""
        ready = stats.get("ready", True)
        if ready:
            self.knowledge_label.setText(self.tr("Knowledge base: ready"))
        else:
            self.knowledge_label.setText(self.tr("Knowledge base: not built (Tools → Knowledge base)"))
        self.knowledge_attribution = str(stats.get("attribution") or "") if ready else ""
        if self.workspace is not None:
            self.workspace.sources.set_attribution(self.knowledge_attribution)

    def _knowledge_state_failed(self, exc: BaseException) -> None:
        from app.errors import user_message

        self.services_ready = True
        self.knowledge_label.setText(user_message(exc))

    def _show_device(self, info: dict) -> None:
        supported = info.get("gpu_offload_supported", info.get("gpu_offload"))
        layers = int(info.get("n_gpu_layers") or 0)
        where = self.tr("GPU (%1 layers)").replace("%1", self.tr("all") if layers < 0 else str(layers)) \
            if supported and layers else self.tr("CPU")
        model = str(info.get("model", "?"))
        remote = info.get("remote") or {}
        if "generate" in remote.get("roles", []):
            model, where = remote["model"], self.tr("server %1").replace("%1", remote["host"])
        self.device_label.setText(self.tr("Model: %1 · %2").replace("%1", model).replace("%2", where))

    def _show_answered_by(self, result: dict) -> None:
        """With a model server configured: which model on which machine gave the last answer."""
        answered = (result.get("trace") or {}).get("answered_by")
        if answered:
            where = self.tr("server %1").replace("%1", answered["host"]) if answered["remote"] \
                else self.tr("this desktop")
            self.device_label.setText(self.tr("Model: %1 · %2").replace("%1", answered["model"]).replace("%2", where))

    def _busy_changed(self, count: int) -> None:
        self.busy_label.setText(self.tr("Working…") if count else "")

    # -- lock and unlock -----------------------------------------------------------------------
    def show_workspace(self) -> None:
        """After an unlock: back to the patient and conversation that were open at lock."""
        if self.workspace is not None:
            return
        self.workspace = Workspace(self.engine, self.runner)
        self.workspace.chat.turn_finished.connect(self._show_answered_by)
        self.workspace.sources.set_attribution(self.knowledge_attribution)
        self.stack.addWidget(self.workspace)
        self.stack.setCurrentWidget(self.workspace)
        patient_id, session_id = self.resume_at or (None, None)
        self.resume_at = None
        self.workspace.start(patient_id, session_id)
        self.idle.touch()
        self._update_actions()

    def lock(self) -> None:
        """Hide and destroy every patient-related widget now; close the store after."""
        workspace = self.workspace
        if workspace is None:
            return
        if workspace.chat.running:
            workspace.chat.stop()
        self._clear_copied_answer(workspace)
        patient, session = workspace.current_patient(), workspace.current_session()
        self.resume_at = ((patient or {}).get("id"), (session or {}).get("id")) if patient else None
        for dialog in (self.settings_dialog, self.knowledge_dialog):
            if dialog is not None:
                dialog.close()
        self.workspace = None
        self.stack.setCurrentWidget(self.unlock_page)
        self.stack.removeWidget(workspace)
        retire(workspace)
        self.unlock_page.set_mode(create=False)
        self._update_actions()
        self.runner.call(self, self.engine.patients.lock, on_result=lambda _r: self.locked.emit())

    def _clear_copied_answer(self, workspace: Workspace) -> None:
        clipboard = QGuiApplication.clipboard()
        copied = clipboard.text()
        if copied and any(copied == view.text for view in workspace.chat.turn_views()):
            clipboard.clear()

    # -- dialogs ---------------------------------------------------------------------------
    def open_settings(self) -> None:
        from app.dialogs.settings import SettingsDialog

        self.settings_dialog = SettingsDialog(self.engine, self.runner, self)
        self.settings_dialog.applied.connect(self.apply_settings)
        self.settings_dialog.open()

    def apply_settings(self, new: Settings) -> None:
        self.idle.set_minutes(new.vault.idle_lock_minutes)
        self.warm_up()
        self.language_changed.emit(new.ui.language)

    def open_knowledge(self) -> None:
        from app.dialogs.knowledge import KnowledgeBaseDialog

        if self.knowledge_dialog is None:
            self.knowledge_dialog = KnowledgeBaseDialog(self.engine, self.runner, self)
            self.knowledge_dialog.stats_read.connect(self._knowledge_stats)
        else:
            self.knowledge_dialog.refresh()
        self.knowledge_dialog.show()
        self.knowledge_dialog.raise_()

    def open_about(self) -> None:
        from app.dialogs.about import AboutDialog

        self.about_dialog = AboutDialog(self, getattr(getattr(self.engine, "settings", None), "remote", None),
                                        self.knowledge_attribution)
        self.about_dialog.open()

    # -- export ----------------------------------------------------------------------------
    def export_conversation(self, path: str | None = None, fmt: str | None = None) -> None:
        session = self.workspace.current_session() if self.workspace else None
        if session is None:
            self.statusBar().showMessage(self.tr("Select a conversation to export."), 5000)
            return
        export.export_conversation(self, self.runner, self.engine, session["id"], path=path, fmt=fmt,
                                   done=self._exported)

    def export_patient(self, path: str | None = None, fmt: str | None = None) -> None:
        patient = self.workspace.current_patient() if self.workspace else None
        if patient is None:
            self.statusBar().showMessage(self.tr("Select a patient to export."), 5000)
            return
        export.export_patient(self, self.runner, self.engine, patient["id"], path=path, fmt=fmt, done=self._exported)

    def _exported(self, path: str) -> None:
        self.last_export = path
        self.statusBar().showMessage(self.tr("Saved %1").replace("%1", path), 8000)

    # -- shutdown --------------------------------------------------------------------------
    def quit(self) -> None:
        """Ctrl+Q: close this window (locking the store) and end the application, even when
        another of its windows (the knowledge base) is still open."""
        if self.close():
            QCoreApplication.quit()

    def closeEvent(self, event: QCloseEvent) -> None:  # noqa: N802  (Qt override)
        self.idle.stop()
        if self.workspace is not None:
            self.lock()
        event.accept()
