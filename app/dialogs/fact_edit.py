"""Edit one profile fact: only the fields the engine accepts, only the ones that changed."""

from __future__ import annotations

from PySide6.QtCore import QCoreApplication, QT_TRANSLATE_NOOP, Signal
from PySide6.QtWidgets import QCheckBox, QDialog, QDialogButtonBox, QFormLayout, QLabel, QLineEdit, QVBoxLayout, QWidget

FIELD_LABELS = {
    "name": QT_TRANSLATE_NOOP("FactEditDialog", "Name"),
    "value": QT_TRANSLATE_NOOP("FactEditDialog", "Value"),
    "systolic": QT_TRANSLATE_NOOP("FactEditDialog", "Systolic"),
    "diastolic": QT_TRANSLATE_NOOP("FactEditDialog", "Diastolic"),
    "unit": QT_TRANSLATE_NOOP("FactEditDialog", "Unit"),
    "dose": QT_TRANSLATE_NOOP("FactEditDialog", "Dose"),
    "frequency": QT_TRANSLATE_NOOP("FactEditDialog", "Frequency"),
}
FIELDS_BY_SLOT = {
    "vitals": ("name", "value", "systolic", "diastolic", "unit"),
    "labs": ("name", "value", "unit"),
    "medications": ("name", "dose", "frequency"),
}
NUMERIC_FIELDS = {"value", "systolic", "diastolic"}


def _number(text: str) -> float | int | str:
    try:
        number = float(text.replace(",", "."))
    except ValueError:
        return text
    return int(number) if number.is_integer() else number


class FactEditDialog(QDialog):
    edited = Signal(dict)

    def __init__(self, fact: dict, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("factEditDialog")
        self.setWindowTitle(self.tr("Edit profile entry"))
        self.fact = fact
        self.fields: dict[str, QLineEdit] = {}
        form = QFormLayout()
        for field in FIELDS_BY_SLOT.get(fact.get("slot", ""), ("name",)):
            value = fact.get(field)
            edit = QLineEdit("" if value is None else str(value), objectName=f"field_{field}")
            self.fields[field] = edit
            form.addRow(QCoreApplication.translate("FactEditDialog", FIELD_LABELS[field]), edit)
        self.negated = QCheckBox(self.tr("Negated (the patient does not have this)"), objectName="field_negated")
        self.negated.setChecked(bool(fact.get("negated")))
        form.addRow("", self.negated)
        note = QLabel(self.tr("The change is recorded in the audit log."), wordWrap=True)
        note.setStyleSheet("color: #616161;")
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.accept)
        buttons.rejected.connect(self.reject)
        layout = QVBoxLayout(self)
        layout.addLayout(form)
        layout.addWidget(note)
        layout.addWidget(buttons)

    def changes(self) -> dict:
        changes: dict = {}
        for field, edit in self.fields.items():
            text = edit.text().strip()
            old = self.fact.get(field)
            new = _number(text) if field in NUMERIC_FIELDS and text else (text or None)
            if new != old and not (new is None and old in (None, "")):
                changes[field] = new
        if self.negated.isChecked() != bool(self.fact.get("negated")):
            changes["negated"] = self.negated.isChecked()
        return changes

    def accept(self) -> None:
        changes = self.changes()
        if changes:
            self.edited.emit(changes)
        super().accept()
