"""Profile panel over the demo engine: pending allergy confirm/reject, edit, retract; every
change goes through the engine (which audits it in the vault) and the panel reloads."""

from __future__ import annotations

from PySide6.QtWidgets import QMessageBox, QPushButton

from app.panels.profile import format_value, provenance_text
from engine.demo import DEMO_QUESTION

from tests.app.conftest import add_patient, unlock, wait_turn


def ask_demo(qtbot, window) -> None:
    unlock(qtbot, window)
    add_patient(qtbot, window, "Alex Kim")
    window.workspace.chat.send(DEMO_QUESTION["en"])
    wait_turn(qtbot, window)
    qtbot.waitUntil(lambda: bool(window.workspace.profile.profile.get("allergies")), timeout=5000)


def audited(engine) -> list[tuple[str, int | None]]:
    """The vault's audit log: (event, fact id) of each row."""
    return [(row["event"], row["detail"].get("fact_id")) for row in engine.patients.vault.audit_log()]


def rows(panel) -> dict[str, list[str]]:
    tree = panel.tree
    out = {}
    for index in range(tree.topLevelItemCount()):
        group = tree.topLevelItem(index)
        out[group.text(0).split(" (")[0]] = [group.child(i).text(0) for i in range(group.childCount())]
    return out


def test_pending_allergy_is_confirmed_through_the_engine(qtbot, demo_window, fake_engine):
    ask_demo(qtbot, demo_window)
    panel = demo_window.workspace.profile
    assert panel.pending_box.isVisibleTo(panel)
    allergy = panel.profile["allergies"][0]
    assert allergy["status"] == "pending-confirmation"
    assert rows(panel)["Allergies"] == ["penicillin"] and rows(panel)["Medications"] == ["amlodipine"]
    assert "Age:</b> 58" in panel.demographics.text()

    panel.findChild(QPushButton, f"confirm_{allergy['id']}").click()
    qtbot.waitUntil(lambda: panel.profile.get("allergies", [{}])[0].get("status") == "active", timeout=5000)
    assert not panel.pending_box.isVisibleTo(panel)
    assert ("profile.confirm", allergy["id"]) in audited(fake_engine)


def test_reject_edit_and_retract(qtbot, demo_window, fake_engine):
    ask_demo(qtbot, demo_window)
    panel = demo_window.workspace.profile
    allergy_id = panel.profile["allergies"][0]["id"]
    panel.findChild(QPushButton, f"reject_{allergy_id}").click()
    qtbot.waitUntil(lambda: panel.profile.get("allergies") == [], timeout=5000)

    medication = panel.tree.topLevelItem(3).child(0)
    assert medication.text(1) == "5 mg"
    panel.tree.setCurrentItem(medication)
    panel.edit_selected()
    dialog = panel.edit_dialog
    dialog.fields["dose"].setText("10 mg")
    assert dialog.changes() == {"dose": "10 mg"}
    dialog.accept()
    qtbot.waitUntil(lambda: panel.profile["medications"][0].get("dose") == "10 mg", timeout=5000)

    panel.tree.setCurrentItem(panel.tree.topLevelItem(2).child(0))
    panel.retract_selected()
    box = panel.findChild(QMessageBox, "retractPrompt")
    assert "hypertension" in box.text()
    next(b for b in box.buttons() if b.objectName() == "confirmYes").click()
    qtbot.waitUntil(lambda: panel.profile.get("conditions") == [], timeout=5000)
    assert [event for event, _ in audited(fake_engine) if event.startswith("profile.") and event != "profile.update"] == \
        ["profile.reject", "profile.edit", "profile.retract"]


def test_values_and_provenance_as_a_clinician_reads_them():
    assert format_value({"systolic": 150, "diastolic": 95, "unit": "mmHg"}) == "150/95 mmHg"
    assert format_value({"value": 7.2, "unit": "%"}) == "7.2 %"
    assert format_value({"dose": "5 mg", "frequency": "daily"}) == "5 mg daily"
    when, where = provenance_text({"provenance": {"last_turn_id": 3, "observed_at": "2025-01-02T03:04:05+00:00",
                                                  "source_span": "BP 150/95"}})
    assert when == "2025-01-02 03:04" and where == "turn 3: “BP 150/95”"


def test_emergency_alerts_are_listed_in_the_record(qtbot, demo_window, fake_engine):
    ask_demo(qtbot, demo_window)
    panel = demo_window.workspace.profile
    event = {"kind": "emergency", "category": "suicidal_thoughts", "message": "Call a crisis line now.",
             "shown": "Call a crisis line now.", "stopped": False, "created_at": "2026-11-23T21:00:00"}
    panel._show(panel._request, panel.patient_id, {**panel.profile, "safety_events": [event]})
    assert rows(panel)["Emergency alerts"] == ["Call a crisis line now."]
    group = panel.tree.topLevelItem(panel.tree.topLevelItemCount() - 1)
    assert group.child(0).text(1) == "suicidal_thoughts" and group.child(0).text(3) == "2026-11-23 21:00"
