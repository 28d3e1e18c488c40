"""The patient profile: slots with values, units, dates and provenance.

New allergies and contraindications wait for a clinician to confirm or reject them.
Facts can be edited or retracted. Every change goes through the engine, which audits it;
the panel then reloads the profile from the engine rather than patching its own copy.
"""

from __future__ import annotations

import re
from datetime import datetime

from PySide6.QtCore import QCoreApplication, Qt, QT_TRANSLATE_NOOP, Signal
from PySide6.QtWidgets import (QFrame, QGridLayout, QHeaderView, QPushButton, QTreeWidget, QTreeWidgetItem,
                               QWidget)

from app.dialogs.fact_edit import FactEditDialog
from app.panels.patients import short_time
from app.panels.widgets import WrappedLabel, hbox, heading, muted, vbox
from app.prompts import confirm
from app.workers import EngineRunner, retire

ROLE = Qt.ItemDataRole.UserRole
PENDING_STATUSES = {"pending-confirmation", "pending"}
SLOT_LABELS = {
    "allergies": QT_TRANSLATE_NOOP("ProfilePanel", "Allergies"),
    "contraindications": QT_TRANSLATE_NOOP("ProfilePanel", "Contraindications"),
    "conditions": QT_TRANSLATE_NOOP("ProfilePanel", "Conditions"),
    "medications": QT_TRANSLATE_NOOP("ProfilePanel", "Medications"),
    "symptoms": QT_TRANSLATE_NOOP("ProfilePanel", "Symptoms"),
    "vitals": QT_TRANSLATE_NOOP("ProfilePanel", "Vital signs"),
    "labs": QT_TRANSLATE_NOOP("ProfilePanel", "Laboratory results"),
}
DEMOGRAPHIC_LABELS = {
    "age": QT_TRANSLATE_NOOP("ProfilePanel", "Age"),
    "age_group": QT_TRANSLATE_NOOP("ProfilePanel", "Age group"),
    "gender": QT_TRANSLATE_NOOP("ProfilePanel", "Sex"),
    "pregnant": QT_TRANSLATE_NOOP("ProfilePanel", "Pregnant"),
}
AGE_GROUPS = {
    "infant": QT_TRANSLATE_NOOP("ProfilePanel", "infant"),
    "child": QT_TRANSLATE_NOOP("ProfilePanel", "child"),
    "adolescent": QT_TRANSLATE_NOOP("ProfilePanel", "adolescent"),
    "adult": QT_TRANSLATE_NOOP("ProfilePanel", "adult"),
    "older adult": QT_TRANSLATE_NOOP("ProfilePanel", "older adult"),
    "older_adult": QT_TRANSLATE_NOOP("ProfilePanel", "older adult"),
}
DECADE = re.compile(r"^(\d+)s$")
STATUS_LABELS = {
    "active": QT_TRANSLATE_NOOP("ProfilePanel", "active"),
    "pending-confirmation": QT_TRANSLATE_NOOP("ProfilePanel", "to confirm"),
    "pending": QT_TRANSLATE_NOOP("ProfilePanel", "to confirm"),
    "retracted": QT_TRANSLATE_NOOP("ProfilePanel", "retracted"),
}


def _tr(text: str) -> str:
    return QCoreApplication.translate("ProfilePanel", text)


def short_date(stamp: object) -> str:
    """Dates of this year without the year ('11-22 17:47'), older ones in full."""
    text = short_time(stamp)
    return text[5:] if text[:4] == str(datetime.now().year) else text


def fact_id(item: dict) -> object:
    return item.get("id", item.get("fact_id"))


def format_value(item: dict) -> str:
    """The value as a clinician reads it: 150/95 mmHg, 5 mg daily, 7.2 %, …"""
    unit = item.get("unit") or ""
    if item.get("systolic") is not None and item.get("diastolic") is not None:
        return f"{item['systolic']}/{item['diastolic']} {unit or 'mmHg'}".strip()
    if item.get("value") is not None:
        return f"{item['value']} {unit}".strip()
    if item.get("value_text"):
        return str(item["value_text"])
    dose = " ".join(str(item[k]) for k in ("dose", "frequency") if item.get(k))
    return dose


def format_name(item: dict) -> str:
    name = str(item.get("name") or item.get("type") or item.get("text") or "?")
    return QCoreApplication.translate("ProfilePanel", "no %1").replace("%1", name) if item.get("negated") else name


def provenance_text(item: dict) -> tuple[str, str]:
    """(date, where it came from) from either the engine's provenance or a plain one."""
    provenance = item.get("provenance") or {}
    when = provenance.get("observed_at") or provenance.get("time") or provenance.get("first_seen") or ""
    turn = provenance.get("last_turn_id", provenance.get("turn"))
    span = provenance.get("source_span") or provenance.get("text") or item.get("text") or ""
    said = f"“{span}”" if span else ""
    if turn is None:
        return short_date(when), said
    where = QCoreApplication.translate("ProfilePanel", "turn %1").replace("%1", str(turn))
    return short_date(when), f"{where}: {said}" if said else where


class ProfilePanel(QWidget):
    changed = Signal()

    def __init__(self, engine, runner: EngineRunner, parent: QWidget | None = None):
        super().__init__(parent)
        self.setObjectName("profilePanel")
        self._engine, self._runner = engine, runner
        self.patient_id: object = None
        self.profile: dict = {}
        self._request = 0

        self.demographics = WrappedLabel(objectName="demographics")
        self.pending_box = QFrame(objectName="pendingBox")
        self.pending_box.setStyleSheet("QFrame#pendingBox { background: #fff8e1; border: 1px solid #f9a825;"
                                       " border-radius: 6px; }")
        self.pending_layout = QGridLayout(self.pending_box)
        self.tree = QTreeWidget(objectName="profileTree")
        self.tree.setHeaderLabels([self.tr("Fact"), self.tr("Value"), self.tr("Status"), self.tr("Date"),
                                   self.tr("Said in")])
        header = self.tree.header()
        header.setStretchLastSection(False)
        for column, mode in enumerate((QHeaderView.ResizeMode.Stretch, QHeaderView.ResizeMode.ResizeToContents,
                                       QHeaderView.ResizeMode.ResizeToContents, QHeaderView.ResizeMode.ResizeToContents,
                                       QHeaderView.ResizeMode.Stretch)):
            header.setSectionResizeMode(column, mode)
        self.tree.setTextElideMode(Qt.TextElideMode.ElideRight)
        self.tree.setHorizontalScrollBarPolicy(Qt.ScrollBarPolicy.ScrollBarAlwaysOff)
        self.tree.setRootIsDecorated(True)
        self.tree.setAlternatingRowColors(True)
        self.edit_button = QPushButton(self.tr("Edit…"), objectName="editFact")
        self.retract_button = QPushButton(self.tr("Retract"), objectName="retractFact")
        self.empty = muted(self.tr("Select a patient to see the profile."), "profileEmpty")

        vbox(self.empty, self.demographics, self.pending_box, (self.tree, 1),
             hbox(1, self.edit_button, self.retract_button), parent=self, margins=(4, 4, 4, 4))

        self.tree.currentItemChanged.connect(self._update_buttons)
        self.tree.itemDoubleClicked.connect(lambda *_: self.edit_selected())
        self.edit_button.clicked.connect(self.edit_selected)
        self.retract_button.clicked.connect(self.retract_selected)
        self.edit_dialog: FactEditDialog | None = None
        self.clear()

    # -- loading ---------------------------------------------------------------------------
    def load(self, patient_id: object) -> None:
        self.patient_id = patient_id
        if patient_id is None:
            self.clear()
            return
        self._request += 1
        request = self._request
        self._runner.call(self, self._engine.patients.profile, patient_id,
                          on_result=lambda profile: self._show(request, patient_id, profile))

    def reload(self) -> None:
        self.load(self.patient_id)

    def clear(self) -> None:
        self.profile = {}
        self.tree.clear()
        self.demographics.clear()
        self._clear_pending()
        self.pending_box.hide()
        self.empty.setVisible(self.patient_id is None)
        self._update_buttons()

    def _show(self, request: int, patient_id: object, profile: dict) -> None:
        if request != self._request or patient_id != self.patient_id:
            return
        self.clear()
        self.empty.hide()
        self.profile = profile
        self._show_demographics(profile.get("demographics") or {})
        pending = []
        for slot, label in SLOT_LABELS.items():
            items = [i for i in profile.get(slot) or [] if isinstance(i, dict)]
            group = self._group(f"{_tr(label)} ({len(items)})")
            for item in items:
                when, where = provenance_text(item)
                status = str(item.get("status") or "active")
                row = QTreeWidgetItem([format_name(item), format_value(item), _tr(STATUS_LABELS.get(status, status)),
                                       when, where])
                row.setData(0, ROLE, {**item, "slot": slot})
                row.setToolTip(4, where)
                if status in PENDING_STATUSES:
                    pending.append((slot, item))
                    for column in range(5):
                        row.setForeground(column, Qt.GlobalColor.darkYellow)
                group.addChild(row)
            group.setExpanded(bool(items))
        self._show_safety_events(profile.get("safety_events") or [])
        self._show_pending(pending)

    def _group(self, title: str) -> QTreeWidgetItem:
        """A bold top-level heading row spanning the tree's columns."""
        group = QTreeWidgetItem([title])
        group.setFirstColumnSpanned(True)
        font = group.font(0)
        font.setBold(True)
        group.setFont(0, font)
        self.tree.addTopLevelItem(group)
        return group

    def _show_safety_events(self, events: list[dict]) -> None:
        """Emergency alerts raised in this patient's turns: what fired, when, and whether the
        answer was stopped before it was finished."""
        group = self._group(self.tr("Emergency alerts (%1)").replace("%1", str(len(events))))
        for event in events:
            shown = self.tr("stopped") if event.get("stopped") else self.tr("shown")
            row = QTreeWidgetItem([str(event.get("message") or ""), str(event.get("category") or ""), shown,
                                   str(event.get("created_at") or "")[:16].replace("T", " "), ""])
            row.setToolTip(0, str(event.get("message") or ""))
            for column in range(5):
                row.setForeground(column, Qt.GlobalColor.darkRed)
            group.addChild(row)
        group.setExpanded(bool(events))

    def _show_demographics(self, demographics: dict) -> None:
        parts = []
        for key, label in DEMOGRAPHIC_LABELS.items():
            value = demographics.get(key)
            if value is None:
                continue
            if isinstance(value, bool):
                value = self.tr("yes") if value else self.tr("no")
            elif key == "gender":
                value = {"female": self.tr("female"), "male": self.tr("male")}.get(str(value), value)
            elif key == "age_group":
                decade = DECADE.match(str(value))
                value = (self.tr("%1s").replace("%1", decade.group(1)) if decade
                         else _tr(AGE_GROUPS.get(str(value), str(value))))
            parts.append(f"<b>{_tr(label)}:</b> {value}")
        self.demographics.setText(" · ".join(parts) if parts else self.tr("No demographics recorded yet."))

    def _clear_pending(self) -> None:
        while self.pending_layout.count():
            widget = self.pending_layout.takeAt(0).widget()
            if widget is not None:
                retire(widget)

    def _show_pending(self, pending: list[tuple[str, dict]]) -> None:
        self._clear_pending()
        self.pending_box.setVisible(bool(pending))
        if not pending:
            return
        title = heading(self.tr("Please confirm: the patient mentioned these. Alerts already use them."),
                        "pendingTitle", "border: none;")
        title.setWordWrap(True)
        self.pending_layout.addWidget(title, 0, 0, 1, 3)
        for row, (slot, item) in enumerate(pending, start=1):
            identifier = fact_id(item)
            _, where = provenance_text(item)
            label = WrappedLabel(f"<b>{_tr(SLOT_LABELS[slot])}: {format_name(item)}</b><br>"
                                 f"<span style='color:#5d4037'>{where}</span>")
            label.setStyleSheet("border: none;")
            yes = QPushButton(self.tr("Confirm"), objectName=f"confirm_{identifier}")
            no = QPushButton(self.tr("Reject"), objectName=f"reject_{identifier}")
            yes.clicked.connect(lambda _=False, i=identifier: self.confirm_fact(i))
            no.clicked.connect(lambda _=False, i=identifier: self.reject_fact(i))
            self.pending_layout.addWidget(label, row, 0)
            self.pending_layout.addWidget(yes, row, 1)
            self.pending_layout.addWidget(no, row, 2)

    # -- changes ---------------------------------------------------------------------------
    def selected_fact(self) -> dict | None:
        item = self.tree.currentItem()
        data = item.data(0, ROLE) if item else None
        return data if isinstance(data, dict) else None

    def _update_buttons(self, *_args) -> None:
        has_fact = self.selected_fact() is not None
        self.edit_button.setEnabled(has_fact)
        self.retract_button.setEnabled(has_fact)

    def _apply(self, method, *args) -> None:
        self._runner.call(self, method, *args, on_result=lambda _r: (self.reload(), self.changed.emit()))

    def confirm_fact(self, identifier: object) -> None:
        self._apply(self._engine.patients.confirm_fact, identifier)

    def reject_fact(self, identifier: object) -> None:
        self._apply(self._engine.patients.reject_fact, identifier)

    def retract_selected(self) -> None:
        fact = self.selected_fact()
        if fact is None:
            return
        text = self.tr("Retract “%1” from the profile? It stays in the audit log.").replace("%1", format_name(fact))
        confirm(self, self.tr("Retract fact"), text, self.tr("Retract"),
                lambda: self._apply(self._engine.patients.retract_fact, fact_id(fact)), name="retractPrompt")

    def edit_selected(self) -> None:
        fact = self.selected_fact()
        if fact is None:
            return
        self.edit_dialog = FactEditDialog(fact, self)
        self.edit_dialog.edited.connect(
            lambda changes, i=fact_id(fact): self._apply(self._engine.patients.edit_fact, i, changes))
        self.edit_dialog.open()
