"""Non-blocking question boxes (`open()`, never `exec()`).

A nested event loop would freeze nothing, but it would make the flows impossible to drive
from tests and easy to re-enter from a worker callback; every prompt here returns the
dialog so callers and tests can reach it.
"""

from __future__ import annotations

from typing import Callable

from PySide6.QtCore import QCoreApplication
from PySide6.QtWidgets import QInputDialog, QLineEdit, QMessageBox, QWidget


def ask_text(parent: QWidget, title: str, label: str, on_accept: Callable[[str], None], *, text: str = "",
             name: str = "textPrompt") -> QInputDialog:
    dialog = QInputDialog(parent)
    dialog.setObjectName(name)
    dialog.setWindowTitle(title)
    dialog.setLabelText(label)
    dialog.setTextValue(text)
    dialog.setTextEchoMode(QLineEdit.EchoMode.Normal)
    dialog.setOkButtonText(QCoreApplication.translate("Prompts", "OK"))
    dialog.setCancelButtonText(QCoreApplication.translate("Prompts", "Cancel"))
    dialog.textValueSelected.connect(lambda value: on_accept(value.strip()) if value.strip() else None)
    dialog.finished.connect(dialog.deleteLater)
    dialog.open()
    return dialog


def confirm(parent: QWidget, title: str, text: str, yes_label: str, on_yes: Callable[[], None], *,
            name: str = "confirmPrompt", destructive: bool = True) -> QMessageBox:
    box = QMessageBox(QMessageBox.Icon.Warning if destructive else QMessageBox.Icon.Question, title, text,
                      QMessageBox.StandardButton.NoButton, parent)
    box.setObjectName(name)
    yes = box.addButton(yes_label, QMessageBox.ButtonRole.DestructiveRole if destructive
                        else QMessageBox.ButtonRole.AcceptRole)
    yes.setObjectName("confirmYes")
    cancel = box.addButton(QCoreApplication.translate("Prompts", "Cancel"), QMessageBox.ButtonRole.RejectRole)
    cancel.setObjectName("confirmCancel")
    box.setDefaultButton(cancel)
    box.buttonClicked.connect(lambda button: on_yes() if button is yes else None)
    box.finished.connect(box.deleteLater)
    box.open()
    return box
