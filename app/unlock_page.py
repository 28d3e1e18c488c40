"""First run and unlock: create the encrypted store, or open it with the passphrase.

The passphrase lives only in the line edits and the single worker call that opens the
store; both fields are cleared as soon as the attempt is made.
"""

from __future__ import annotations

from PySide6.QtCore import Signal
from PySide6.QtWidgets import (QFormLayout, QFrame, QHBoxLayout, QLabel, QLineEdit, QProgressBar, QPushButton, QVBoxLayout,
                               QWidget)

from app.errors import user_message
from app.passphrase import MIN_LENGTH, strength
from app.workers import EngineRunner
from engine.errors import ChartsideError

STRENGTH_COLOURS = ("#c62828", "#ef6c00", "#2e7d32", "#1b5e20")


class UnlockPage(QWidget):
    unlocked = Signal()
    vault_checked = Signal()   # the page knows whether to create or unlock, and is usable

    def __init__(self, engine, runner: EngineRunner, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("unlockPage")
        self._engine, self._runner = engine, runner
        self._create = False

        self.title = QLabel(objectName="unlockTitle")
        self.title.setStyleSheet("font-size: 18pt; font-weight: 600;")
        self.explanation = QLabel(objectName="unlockExplanation", wordWrap=True)
        self.passphrase = QLineEdit(objectName="passphrase", echoMode=QLineEdit.EchoMode.Password)
        self.confirmation = QLineEdit(objectName="confirmPassphrase", echoMode=QLineEdit.EchoMode.Password)
        self.strength_bar = QProgressBar(objectName="strengthBar", minimum=0, maximum=3, textVisible=False)
        self.strength_bar.setFixedHeight(8)
        self.strength_label = QLabel(objectName="strengthLabel")
        self.warning = QLabel(objectName="lossWarning", wordWrap=True)
        self.warning.setStyleSheet("background: #fff3e0; border: 1px solid #ef6c00; border-radius: 4px; padding: 8px;")
        self.error = QLabel(objectName="unlockError", wordWrap=True)
        self.error.setStyleSheet("color: #c62828; font-weight: 600;")
        self.button = QPushButton(objectName="unlockButton")
        self.button.setDefault(True)

        form = QFormLayout()
        self.passphrase_label = QLabel()
        self.confirmation_label = QLabel()
        form.addRow(self.passphrase_label, self.passphrase)
        form.addRow(self.confirmation_label, self.confirmation)
        form.addRow("", self.strength_bar)
        form.addRow("", self.strength_label)

        card = QFrame(objectName="unlockCard")
        card.setFrameShape(QFrame.Shape.StyledPanel)
        card.setFixedWidth(540)
        inner = QVBoxLayout(card)
        inner.setContentsMargins(28, 28, 28, 28)
        inner.setSpacing(12)
        for widget in (self.title, self.explanation):
            inner.addWidget(widget)
        inner.addLayout(form)
        inner.addWidget(self.warning)
        inner.addWidget(self.error)
        inner.addWidget(self.button)

        row = QHBoxLayout()
        row.addStretch(1)
        row.addWidget(card)
        row.addStretch(1)
        outer = QVBoxLayout(self)
        outer.addStretch(1)
        outer.addLayout(row)
        outer.addStretch(2)

        self.passphrase.textChanged.connect(self._update_strength)
        self.passphrase.returnPressed.connect(self._submit)
        self.confirmation.returnPressed.connect(self._submit)
        self.button.clicked.connect(self._submit)
        self.set_mode(create=False)
        self.button.setEnabled(False)

    # -- modes -----------------------------------------------------------------------------
    def check_vault(self) -> None:
        """Ask the engine whether a store exists, then show create or unlock."""
        self.button.setEnabled(False)
        self._runner.call(self, self._engine.patients.vault_exists,
                          on_result=lambda exists: self.set_mode(create=not exists),
                          on_error=self._failed, on_finished=self.vault_checked.emit)

    def set_mode(self, *, create: bool) -> None:
        self._create = create
        self.error.clear()
        self.button.setEnabled(True)
        if create:
            self.title.setText(self.tr("Create the patient store"))
            self.explanation.setText(self.tr(
                "Chartside keeps patient profiles and conversations in an encrypted store on this computer. "
                "Choose a passphrase to protect it."))
            self.button.setText(self.tr("Create store"))
        else:
            self.title.setText(self.tr("Unlock Chartside"))
            self.explanation.setText(self.tr("Enter the passphrase of the patient store on this computer."))
            self.button.setText(self.tr("Unlock"))
        self.passphrase_label.setText(self.tr("Passphrase"))
        self.confirmation_label.setText(self.tr("Repeat passphrase"))
        self.warning.setText(self.tr(
            "Write the passphrase down and keep it safe. If it is lost, the patient data cannot be "
            "recovered by anyone, including the Chartside team."))
        for widget in (self.confirmation, self.confirmation_label, self.strength_bar, self.strength_label,
                       self.warning):
            widget.setVisible(create)
        self._update_strength(self.passphrase.text())
        self.passphrase.setFocus()

    @property
    def creating(self) -> bool:
        return self._create

    # -- input -----------------------------------------------------------------------------
    def _update_strength(self, text: str) -> None:
        if not self._create:
            return
        result = strength(text)
        labels = (self.tr("Weak: use at least %n characters, or several unrelated words.", "", MIN_LENGTH),
                  self.tr("Fair: longer is better."), self.tr("Good."), self.tr("Strong."))
        self.strength_bar.setValue(result.score if text else 0)
        self.strength_bar.setStyleSheet(f"QProgressBar::chunk {{ background: {STRENGTH_COLOURS[result.score]}; }}")
        self.strength_label.setText(labels[result.score] if text else "")

    def _submit(self) -> None:
        passphrase = self.passphrase.text()
        if not passphrase:
            self.error.setText(self.tr("Enter the passphrase."))
            return
        if self._create:
            if len(passphrase) < MIN_LENGTH:
                self.error.setText(self.tr("The passphrase needs at least %n characters.", "", MIN_LENGTH))
                return
            if passphrase != self.confirmation.text():
                self.error.setText(self.tr("The two passphrases do not match."))
                return
        self.error.clear()
        self.passphrase.clear()
        self.confirmation.clear()
        self.button.setEnabled(False)
        self.button.setText(self.tr("Opening…"))
        self._runner.call(self, self._engine.patients.unlock, passphrase, create=self._create,
                          on_result=self._opened, on_error=self._failed)

    def _opened(self, _result: object) -> None:
        self.error.clear()
        self.unlocked.emit()

    def _failed(self, exc: BaseException) -> None:
        self.set_mode(create=self._create)
        if not isinstance(exc, ChartsideError):
            from app.errors import log_unexpected

            log_unexpected(exc)
        self.error.setText(user_message(exc))
