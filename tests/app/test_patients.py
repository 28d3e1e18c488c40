"""Patients and conversations against the real encrypted store: create, search, rename,
delete with confirmation, switch, sessions per patient."""

from __future__ import annotations

from PySide6.QtWidgets import QInputDialog, QMessageBox

from tests.app.conftest import close_window, open_window, unlock
from tests.app.test_unlock import real_engine


def names(panel) -> list[str]:
    return [panel.patients.item(row).text() for row in range(panel.patients.count())]


def test_patient_lifecycle_through_the_panel(qtbot, ui_language):
    engine = real_engine()
    window = open_window(qtbot, engine)
    try:
        unlock(qtbot, window)
        panel = window.workspace.patients
        assert not panel.delete_button.isEnabled()

        panel.prompt_new_patient()
        dialog = panel.findChild(QInputDialog, "newPatientPrompt")
        dialog.setTextValue("Kim Minji")
        dialog.accept()
        qtbot.waitUntil(lambda: names(panel) == ["Kim Minji"], timeout=5000)
        qtbot.waitUntil(lambda: panel.sessions.count() == 1, timeout=5000)
        first = panel.current_patient()
        assert window.workspace.chat.patient_id == first["id"]

        panel.create_patient("Lee Joon")
        qtbot.waitUntil(lambda: len(names(panel)) == 2 and panel.current_patient()["name"] == "Lee Joon",
                        timeout=5000)

        panel.search.setText("kim")
        qtbot.waitUntil(lambda: names(panel) == ["Kim Minji"], timeout=5000)
        panel.search.clear()
        qtbot.waitUntil(lambda: len(names(panel)) == 2, timeout=5000)

        panel.select_patient(first["id"])
        qtbot.waitUntil(lambda: window.workspace.chat.patient_id == first["id"], timeout=5000)
        panel.start_session()
        qtbot.waitUntil(lambda: panel.sessions.count() == 2, timeout=5000)

        panel.prompt_rename()
        dialog = panel.findChild(QInputDialog, "renamePrompt")
        dialog.setTextValue("Kim Minji (chart 0042)")
        dialog.accept()
        qtbot.waitUntil(lambda: "Kim Minji (chart 0042)" in names(panel), timeout=5000)
        qtbot.waitUntil(lambda: "Kim Minji (chart 0042)" in window.workspace.chat.header.text(), timeout=5000)

        panel.prompt_delete()
        box = panel.findChild(QMessageBox, "deletePatientPrompt")
        assert "cannot be undone" in box.text()
        next(b for b in box.buttons() if b.objectName() == "confirmCancel").click()
        qtbot.wait(200)
        assert len(names(panel)) == 2

        panel.prompt_delete()
        box = panel.findChild(QMessageBox, "deletePatientPrompt")
        next(b for b in box.buttons() if b.objectName() == "confirmYes").click()
        qtbot.waitUntil(lambda: names(panel) == ["Lee Joon"], timeout=5000)
        assert [p["name"] for p in engine.patients.list_patients()] == ["Lee Joon"]
    finally:
        close_window(window)
