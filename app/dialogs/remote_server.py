"""Settings → Models: the clinic model server that may answer some LLM roles (off by default).

Switching it on shows, in plain words, which patient data then crosses the clinic network
in a prompt. The bearer token goes straight into the vault (`engine.models.set_remote_token`),
never into settings.toml; it can be set only while the patient store is unlocked.
"""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QT_TRANSLATE_NOOP
from PySide6.QtWidgets import (QCheckBox, QComboBox, QDoubleSpinBox, QFileDialog, QFormLayout, QGroupBox,
                               QHBoxLayout, QLabel, QLineEdit, QPushButton, QVBoxLayout, QWidget)

from app.workers import EngineRunner
from engine.settings import REMOTE_SERVERS, RemoteModelSettings

ROLE_LABELS = {
    "generate": QT_TRANSLATE_NOOP("RemoteServerBox", "Answers"),
    "classify": QT_TRANSLATE_NOOP("RemoteServerBox", "Question triage"),
    "judge": QT_TRANSLATE_NOOP("RemoteServerBox", "Answer checking"),
    "summarise": QT_TRANSLATE_NOOP("RemoteServerBox", "Summaries"),
}
PHI_NOTICE = QT_TRANSLATE_NOOP(
    "RemoteServerBox",
    "Patient data leaves this desktop: for the roles chosen here, each prompt crosses the clinic network to the "
    "server — the question, the patient's profile summary (allergies, medications, conditions, recent vitals), "
    "recent conversation turns and the retrieved passages. Use only a server inside the clinic, with TLS.")


class RemoteServerBox(QGroupBox):
    def __init__(self, engine, runner: EngineRunner, remote: RemoteModelSettings, parent: QWidget | None = None):
        super().__init__(self.tr("Model server on the clinic network"), parent, objectName="remoteServer")
        self._engine, self._runner = engine, runner
        self.enabled = QCheckBox(self.tr("Use a model server for some roles"), objectName="remoteEnabled")
        self.enabled.setChecked(remote.enabled)
        self.url = QLineEdit(remote.url, objectName="remoteUrl", placeholderText="https://gpu-box.clinic.lan:8443")
        self.server = QComboBox(objectName="remoteKind")
        for kind in REMOTE_SERVERS:
            self.server.addItem(kind, kind)
        self.server.setCurrentIndex(self.server.findData(remote.server))
        self.model = QLineEdit(remote.model, objectName="remoteModel")
        self.roles: dict[str, QCheckBox] = {}
        roles_row = QHBoxLayout()
        for role, label in ROLE_LABELS.items():
            box = QCheckBox(QCoreApplication.translate("RemoteServerBox", label), objectName=f"remoteRole_{role}")
            box.setChecked(role in remote.roles)
            self.roles[role] = box
            roles_row.addWidget(box)
        self.pin = QLineEdit(remote.tls_pin_sha256, objectName="remotePin")
        self.ca_file = QLineEdit(remote.ca_file, objectName="remoteCaFile")
        browse = QPushButton(self.tr("Choose…"), objectName="remoteCaBrowse")
        ca_row = QHBoxLayout()
        ca_row.addWidget(self.ca_file, 1)
        ca_row.addWidget(browse)
        self.read_timeout = QDoubleSpinBox(objectName="remoteReadTimeout", minimum=1.0, maximum=600.0,
                                           value=remote.read_timeout_s, suffix=" s")
        self.fallback = QCheckBox(self.tr("Answer on this desktop when the server fails"),
                                  objectName="remoteFallback")
        self.fallback.setChecked(remote.fallback_to_local)
        self.token = QLineEdit(objectName="remoteToken", echoMode=QLineEdit.EchoMode.Password)
        self.keep_token = QPushButton(self.tr("Keep the token in the vault"), objectName="remoteKeepToken")
        token_row = QHBoxLayout()
        token_row.addWidget(self.token, 1)
        token_row.addWidget(self.keep_token)
        self.test_button = QPushButton(self.tr("Test the connection"), objectName="remoteTest")
        self.result = QLabel(objectName="remoteResult", wordWrap=True)
        self.notice = QLabel(QCoreApplication.translate("RemoteServerBox", PHI_NOTICE), objectName="remotePhiNotice",
                             wordWrap=True)
        self.notice.setStyleSheet("color: #b71c1c;")

        self.details = QWidget()
        form = QFormLayout(self.details)
        form.addRow(self.tr("Address"), self.url)
        form.addRow(self.tr("Server software"), self.server)
        form.addRow(self.tr("Model name on the server"), self.model)
        form.addRow(self.tr("Roles on the server"), roles_row)
        form.addRow(self.tr("Certificate sha256 pin"), self.pin)
        form.addRow(self.tr("Clinic CA file"), ca_row)
        form.addRow(self.tr("Longest silence"), self.read_timeout)
        form.addRow("", self.fallback)
        form.addRow(self.tr("Access token"), token_row)
        form.addRow("", self.test_button)
        layout = QVBoxLayout(self)
        layout.addWidget(self.enabled)
        layout.addWidget(self.notice)
        layout.addWidget(self.details)
        layout.addWidget(self.result)
        self.enabled.toggled.connect(self._show_enabled)
        browse.clicked.connect(self._choose_ca)
        self.keep_token.clicked.connect(self.keep_token_in_vault)
        self._show_enabled(remote.enabled)

    def _show_enabled(self, on: bool) -> None:
        self.notice.setVisible(on)
        self.details.setEnabled(on)
        unlocked = not self._engine.patients.is_locked
        self.keep_token.setEnabled(on and unlocked)
        self.token.setEnabled(on and unlocked)
        self.token.setPlaceholderText("" if unlocked else self.tr("Unlock the patient store to set the token"))

    def _choose_ca(self) -> None:
        path, _ = QFileDialog.getOpenFileName(self, self.tr("Choose the clinic CA certificate"), "",
                                              self.tr("Certificates (*.pem *.crt)"))
        if path:
            self.ca_file.setText(path)

    def values(self, current: RemoteModelSettings) -> dict:
        """The `remote` section as edited (validated with the rest of the settings)."""
        return {**current.model_dump(), "enabled": self.enabled.isChecked(), "url": self.url.text().strip(),
                "server": self.server.currentData(), "model": self.model.text().strip(),
                "roles": [role for role, box in self.roles.items() if box.isChecked()],
                "tls_pin_sha256": self.pin.text().strip(), "ca_file": self.ca_file.text().strip(),
                "read_timeout_s": self.read_timeout.value(), "fallback_to_local": self.fallback.isChecked()}

    def keep_token_in_vault(self) -> None:
        token = self.token.text()
        self.token.clear()
        self._runner.call(self, self._engine.models.set_remote_token, token,
                          on_result=lambda _r: self.result.setText(self.tr("The token is kept in the vault.")),
                          on_error=self._failed)

    def test_connection(self, settings) -> None:
        """Reach the server with the settings as edited in the dialog."""
        self.result.setText(self.tr("Connecting…"))
        self._runner.call(self, self._engine.models.check_remote, settings, on_result=self._checked,
                          on_error=self._failed, lane="background")

    def _checked(self, result: dict) -> None:
        if result.get("ok"):
            text = self.tr("Reached %1 in %2 ms.").replace("%1", result["host"]).replace("%2", str(result["ms"]))
            if not result.get("model_offered"):
                text += " " + self.tr("The server does not offer this model name.")
            self.result.setText(text)
        else:
            self.result.setText(str(result.get("message")))

    def _failed(self, exc: BaseException) -> None:
        from app.errors import user_message

        self.result.setText(user_message(exc))
