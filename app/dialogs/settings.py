"""Settings: models per role, threads and GPU layers, feature flags and thresholds,
language and the idle lock. Saving goes through `engine.update_settings`."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QT_TRANSLATE_NOOP, Signal
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDialog, QDialogButtonBox, QDoubleSpinBox, QFileDialog,
                               QFormLayout, QGroupBox, QLabel, QProgressBar, QPushButton, QScrollArea,
                               QSpinBox, QTabWidget, QVBoxLayout, QWidget)

from app.dialogs.remote_server import RemoteServerBox
from app.folders import remember, start_folder
from app.i18n import LANGUAGES
from app.workers import EngineRunner, ProgressBridge
from engine.settings import FeatureFlags, Settings

LLM_ROLES = {
    "generate": QT_TRANSLATE_NOOP("SettingsDialog", "Answers"),
    "classify": QT_TRANSLATE_NOOP("SettingsDialog", "Question triage (complexity)"),
    "judge": QT_TRANSLATE_NOOP("SettingsDialog", "Answer checking (judge)"),
    "summarise": QT_TRANSLATE_NOOP("SettingsDialog", "Conversation summaries"),
}
FLAG_LABELS = {
    "response_cache": QT_TRANSLATE_NOOP("SettingsDialog", "Reuse answers to the same question (cache)"),
    "active_retrieval": QT_TRANSLATE_NOOP("SettingsDialog", "Decide per question whether to search"),
    "slot_extraction": QT_TRANSLATE_NOOP("SettingsDialog", "Extract clinical facts from messages"),
    "profile_memory": QT_TRANSLATE_NOOP("SettingsDialog", "Keep a patient profile"),
    "hierarchical_memory": QT_TRANSLATE_NOOP("SettingsDialog", "Summarise long conversations"),
    "profile_query_rewrite": QT_TRANSLATE_NOOP("SettingsDialog", "Use the profile in searches"),
    "query_expansion": QT_TRANSLATE_NOOP("SettingsDialog", "Expand searches with synonyms and Korean terms"),
    "bm25": QT_TRANSLATE_NOOP("SettingsDialog", "Keyword search (BM25)"),
    "dense": QT_TRANSLATE_NOOP("SettingsDialog", "Meaning search (embeddings)"),
    "compression": QT_TRANSLATE_NOOP("SettingsDialog", "Shorten long documents to fit"),
    "self_refine": QT_TRANSLATE_NOOP("SettingsDialog", "Check answers and search again when weak"),
    "heuristic_judge_for_small_models": QT_TRANSLATE_NOOP("SettingsDialog", "Rule-based checking for small models"),
    "triage": QT_TRANSLATE_NOOP("SettingsDialog", "Emergency warnings"),
    "conflict_alerts": QT_TRANSLATE_NOOP("SettingsDialog", "Allergy and interaction warnings"),
}


def _tr(text: str) -> str:
    return QCoreApplication.translate("SettingsDialog", text)


class SettingsDialog(QDialog):
    applied = Signal(object)   # the new Settings, after the engine saved them

    def __init__(self, engine, runner: EngineRunner, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("settingsDialog")
        self.setWindowTitle(self.tr("Settings"))
        self.resize(640, 560)
        self._engine, self._runner = engine, runner
        self.settings: Settings = engine.settings
        self.models: list[dict] = []

        self.tabs = QTabWidget(objectName="settingsTabs")
        self.tabs.addTab(self._models_tab(), self.tr("Models"))
        self.tabs.addTab(self._performance_tab(), self.tr("Performance"))
        self.tabs.addTab(self._features_tab(), self.tr("Features"))
        self.tabs.addTab(self._general_tab(), self.tr("General"))
        self.error = QLabel(objectName="settingsError", wordWrap=True)
        self.error.setStyleSheet("color: #c62828;")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
        buttons.button(QDialogButtonBox.StandardButton.Save).setObjectName("saveSettings")
        buttons.accepted.connect(self.save)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addWidget(self.tabs, 1)
        layout.addWidget(self.error)
        layout.addWidget(buttons)
        self.refresh()

    # -- tabs ------------------------------------------------------------------------------
    def _models_tab(self) -> QWidget:
        page = QWidget()
        form = QFormLayout()
        self.role_boxes: dict[str, QComboBox] = {}
        for role, label in LLM_ROLES.items():
            box = QComboBox(objectName=f"model_{role}")
            self.role_boxes[role] = box
            form.addRow(_tr(label), box)
        self.embed_box = QComboBox(objectName="model_embed")
        form.addRow(self.tr("Search embeddings"), self.embed_box)
        self.add_model_button = QPushButton(self.tr("Add a GGUF model file…"), objectName="addModel")
        self.add_model_progress = QProgressBar(objectName="addModelProgress", visible=False)
        self.add_model_status = QLabel(objectName="addModelStatus", wordWrap=True)
        note = QLabel(self.tr("Every model file is checked against its sha256 before it is used. "
                              "Models never download anything."), wordWrap=True)
        note.setStyleSheet("color: #616161;")
        layout = QVBoxLayout(page)
        layout.addLayout(form)
        layout.addWidget(self.add_model_button)
        layout.addWidget(self.add_model_progress)
        layout.addWidget(self.add_model_status)
        layout.addWidget(note)
        self.remote_box = RemoteServerBox(self._engine, self._runner, self.settings.remote)
        self.remote_box.test_button.clicked.connect(self.test_remote)
        layout.addWidget(self.remote_box)
        layout.addStretch(1)
        self.add_model_button.clicked.connect(self.choose_model_file)
        scroll = QScrollArea(widgetResizable=True)
        scroll.setWidget(page)
        return scroll

    def _performance_tab(self) -> QWidget:
        page = QWidget()
        llm = self.settings.llm
        self.threads = QSpinBox(objectName="threads", minimum=0, maximum=256, value=llm.n_threads)
        self.threads.setSpecialValueText(self.tr("automatic"))
        self.gpu_layers = QSpinBox(objectName="gpuLayers", minimum=-1, maximum=999, value=llm.n_gpu_layers)
        self.gpu_layers.setSpecialValueText(self.tr("all layers"))
        self.context = QSpinBox(objectName="contextSize", minimum=256, maximum=131072, singleStep=256, value=llm.n_ctx)
        self.answer_tokens = QSpinBox(objectName="answerTokens", minimum=8, maximum=8192, value=llm.max_answer_tokens)
        self.device = QLabel(self.tr("Detecting…"), objectName="deviceInfo", wordWrap=True)
        form = QFormLayout(page)
        form.addRow(self.tr("CPU threads"), self.threads)
        form.addRow(self.tr("GPU layers (0 = CPU only)"), self.gpu_layers)
        form.addRow(self.tr("Context size (tokens)"), self.context)
        form.addRow(self.tr("Longest answer (tokens)"), self.answer_tokens)
        form.addRow(self.tr("Device"), self.device)
        return page

    def _features_tab(self) -> QWidget:
        inner = QWidget()
        layout = QVBoxLayout(inner)
        self.mode = QComboBox(objectName="mode")
        self.mode.addItem(self.tr("Full assistant (agent)"), "agent")
        self.mode.addItem(self.tr("Plain chat with the model (llm)"), "llm")
        self.mode.setCurrentIndex(self.mode.findData(self.settings.mode))
        mode_form = QFormLayout()
        mode_form.addRow(self.tr("Mode"), self.mode)
        layout.addLayout(mode_form)
        flags_box = QGroupBox(self.tr("Features"))
        flags_layout = QVBoxLayout(flags_box)
        self.flags: dict[str, QCheckBox] = {}
        for name in FeatureFlags.model_fields:
            box = QCheckBox(_tr(FLAG_LABELS.get(name, name)), objectName=f"flag_{name}")
            box.setChecked(bool(getattr(self.settings.features, name)))
            self.flags[name] = box
            flags_layout.addWidget(box)
        layout.addWidget(flags_box)
        thresholds = QGroupBox(self.tr("Thresholds"))
        form = QFormLayout(thresholds)
        self.cache_threshold = QDoubleSpinBox(objectName="cacheThreshold", minimum=0.0, maximum=1.0, singleStep=0.01,
                                              value=self.settings.cache.similarity_threshold)
        self.quality_threshold = QDoubleSpinBox(objectName="qualityThreshold", minimum=0.0, maximum=1.0,
                                                singleStep=0.05, value=self.settings.refine.quality_threshold)
        self.max_iterations = QSpinBox(objectName="maxIterations", minimum=0, maximum=5,
                                       value=self.settings.refine.max_iterations)
        self.token_budget = QSpinBox(objectName="tokenBudget", minimum=512, maximum=131072, singleStep=500,
                                     value=self.settings.context.total_budget)
        form.addRow(self.tr("Cache similarity"), self.cache_threshold)
        form.addRow(self.tr("Minimum answer quality"), self.quality_threshold)
        form.addRow(self.tr("Most refine rounds"), self.max_iterations)
        form.addRow(self.tr("Token budget per turn"), self.token_budget)
        layout.addWidget(thresholds)
        scroll = QScrollArea(widgetResizable=True)
        scroll.setWidget(inner)
        return scroll

    def _general_tab(self) -> QWidget:
        page = QWidget()
        self.language = QComboBox(objectName="language")
        for code, name in LANGUAGES.items():
            self.language.addItem(name, code)
        self.language.setCurrentIndex(self.language.findData(self.settings.ui.language))
        self.idle_minutes = QSpinBox(objectName="idleMinutes", minimum=0, maximum=240,
                                     value=self.settings.vault.idle_lock_minutes)
        self.idle_minutes.setSpecialValueText(self.tr("never"))
        self.idle_minutes.setSuffix(self.tr(" min"))
        form = QFormLayout(page)
        form.addRow(self.tr("Language"), self.language)
        form.addRow(self.tr("Lock after idle"), self.idle_minutes)
        return page

    # -- data ------------------------------------------------------------------------------
    def refresh(self) -> None:
        self._runner.call(self, self._engine.models.installed, on_result=self._show_models, lane="background")
        self._runner.call(self, self._engine.models.device_info, on_result=self._show_device, lane="background")

    def _show_models(self, models: list[dict]) -> None:
        self.models = models
        chosen = {role: getattr(self.settings.llm, f"{role}_model") for role in LLM_ROLES}
        chosen["embed"] = self.settings.embedding.model
        for role, box in [*self.role_boxes.items(), ("embed", self.embed_box)]:
            box.clear()
            for model in models:
                if role in (model.get("roles") or []):
                    mark = "✓" if model.get("verified") else "✗ " + self.tr("not verified")
                    box.addItem(f"{model['name']}  {mark}", model["name"])
            index = box.findData(chosen[role])
            if index < 0:
                box.addItem(f"{chosen[role]}  ✗ " + self.tr("missing"), chosen[role])
                index = box.count() - 1
            box.setCurrentIndex(index)

    def _show_device(self, info: dict) -> None:
        supported = info.get("gpu_offload_supported", info.get("gpu_offload"))
        lines = [self.tr("GPU offload available: %1").replace("%1", self.tr("yes") if supported else self.tr("no"))]
        if info.get("model"):
            lines.append(self.tr("Answer model: %1").replace("%1", str(info["model"])))
        if info.get("llama_cpp_version"):
            lines.append(f"llama.cpp (llama-cpp-python) {info['llama_cpp_version']}")
        if info.get("backend"):
            lines.append(str(info["backend"]))
        self.device.setText("\n".join(lines))

    # -- adding a model ----------------------------------------------------------------------
    def choose_model_file(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Choose a GGUF model"), str(start_folder()),
                                              self.tr("GGUF models (*.gguf)"))
        if path:
            remember(path)
            self.add_model(path, ["generate", "classify", "judge", "summarise"])

    def add_model(self, path: str, roles: list[str]) -> None:
        bridge = ProgressBridge(self)
        bridge.progressed.connect(self._model_progress)
        self.add_model_button.setEnabled(False)
        self.add_model_progress.setVisible(True)
        self.add_model_progress.setRange(0, 0)
        self.add_model_status.setText(self.tr("Checking the model file…"))
        self._runner.call(self, self._engine.models.add, path, roles, progress=bridge, lane="background",
                          on_result=self._model_added, on_error=self._model_failed,
                          on_finished=lambda: self.add_model_button.setEnabled(True))

    def _model_progress(self, done: int, total: int, _message: str) -> None:
        if total > 0:
            self.add_model_progress.setRange(0, total)
            self.add_model_progress.setValue(done)

    def _model_added(self, entry: dict) -> None:
        self.add_model_progress.setVisible(False)
        self.add_model_status.setText(self.tr("Added %1.").replace("%1", str(entry.get("name"))))
        self.refresh()

    def _model_failed(self, exc: BaseException) -> None:
        from app.errors import user_message

        self.add_model_progress.setVisible(False)
        self.add_model_status.setText(user_message(exc))

    # -- saving ----------------------------------------------------------------------------
    def collected(self) -> Settings:
        """The settings as edited in the dialog (validated by pydantic)."""
        s = self.settings
        llm = s.llm.model_copy(update={
            **{f"{role}_model": box.currentData() for role, box in self.role_boxes.items() if box.currentData()},
            "n_threads": self.threads.value(), "n_gpu_layers": self.gpu_layers.value(),
            "n_ctx": self.context.value(), "max_answer_tokens": self.answer_tokens.value()})
        embedding = s.embedding.model_copy(update={"model": self.embed_box.currentData() or s.embedding.model})
        features = s.features.model_copy(update={name: box.isChecked() for name, box in self.flags.items()})
        return Settings.model_validate({
            **s.model_dump(),
            "mode": self.mode.currentData(),
            "llm": llm.model_dump(), "embedding": embedding.model_dump(), "features": features.model_dump(),
            "cache": {**s.cache.model_dump(), "similarity_threshold": round(self.cache_threshold.value(), 2)},
            "refine": {**s.refine.model_dump(), "quality_threshold": round(self.quality_threshold.value(), 2),
                       "max_iterations": self.max_iterations.value()},
            "context": {**s.context.model_dump(), "total_budget": self.token_budget.value()},
            "vault": {**s.vault.model_dump(), "idle_lock_minutes": self.idle_minutes.value()},
            "ui": {**s.ui.model_dump(), "language": self.language.currentData()},
            "remote": self.remote_box.values(s.remote),
        })

    def test_remote(self) -> None:
        try:
            self.remote_box.test_connection(self.collected())
        except ValueError as exc:
            self.error.setText(str(exc))

    def save(self) -> None:
        try:
            new = self.collected()
        except ValueError as exc:
            self.error.setText(str(exc))
            return
        self._runner.call(self, self._engine.update_settings, new, on_result=lambda _r: self._saved(new),
                          on_error=self._save_failed)

    def _saved(self, new: Settings) -> None:
        self.applied.emit(new)
        self.accept()

    def _save_failed(self, exc: BaseException) -> None:
        from app.errors import user_message

        self.error.setText(user_message(exc))
