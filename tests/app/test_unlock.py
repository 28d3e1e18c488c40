"""Create, unlock, wrong passphrase, lock: against the real engine and its SQLCipher store."""

from __future__ import annotations

from app.passphrase import strength
from engine.facade import Engine
from engine.settings import Settings

from tests.app.conftest import add_patient, close_window, open_window, unlock


def real_engine() -> Engine:
    settings = Settings()
    settings.vault.kdf_iterations = 10_000
    return Engine(settings)


def test_strength_hint_grows_with_the_passphrase():
    assert strength("abc").score == 0
    assert strength("correct horse battery staple").score >= 2
    assert strength("정답 말 배터리 스테이플 2026!").score == 3


def test_first_run_create_lock_wrong_passphrase_unlock(qtbot, ui_language):
    engine = real_engine()
    window = open_window(qtbot, engine)
    page = window.unlock_page
    try:
        assert page.creating and page.warning.isVisible() and page.confirmation.isVisible()
        assert "cannot be recovered" in page.warning.text()

        page.passphrase.setText("short")
        page.button.click()
        assert "at least" in page.error.text()

        page.passphrase.setText("a long enough passphrase")
        page.confirmation.setText("a different passphrase!!")
        page.button.click()
        assert "do not match" in page.error.text()
        assert window.workspace is None and engine.patients.is_locked

        unlock(qtbot, window, "a long enough passphrase")
        assert not engine.patients.is_locked and engine.patients.vault_exists()
        assert page.passphrase.text() == "" and page.confirmation.text() == ""

        window.lock()
        assert window.workspace is None and window.stack.currentWidget() is page
        qtbot.waitUntil(lambda: engine.patients.is_locked, timeout=5000)
        assert not page.creating and not page.confirmation.isVisible()

        page.passphrase.setText("not the passphrase")
        page.button.click()
        qtbot.waitUntil(lambda: page.error.text() != "", timeout=10_000)
        assert page.error.text() == "Wrong passphrase. Nothing was opened or changed."
        assert engine.patients.is_locked and window.workspace is None

        unlock(qtbot, window, "a long enough passphrase")
        assert window.stack.currentWidget() is window.workspace
    finally:
        close_window(window)
    assert engine.patients.is_locked


def test_nothing_patient_related_is_visible_while_locked(qtbot, ui_language, fake_engine):
    window = open_window(qtbot, fake_engine)
    try:
        unlock(qtbot, window)
        window.workspace.patients.create_patient("Jane Roe")
        qtbot.waitUntil(lambda: window.workspace.patients.patients.count() == 1, timeout=5000)
        window.lock()
        assert window.workspace is None
        texts = [w.text() for w in window.findChildren(type(window.unlock_page.title)) if w.isVisible()]
        assert not any("Jane Roe" in text for text in texts)
        assert not window.export_patient_action.isEnabled() and not window.lock_action.isEnabled()
    finally:
        close_window(window)


def test_opening_a_patient_is_audited_once_per_selection(qtbot, ui_language):
    engine = real_engine()
    window = open_window(qtbot, engine)
    try:
        unlock(qtbot, window, "a long enough passphrase")
        first = add_patient(qtbot, window, "Audit One")
        second = add_patient(qtbot, window, "Audit Two")
        patients = window.workspace.patients
        patients.select_patient(first["id"])
        qtbot.waitUntil(lambda: len(engine.patients.vault.audit_log(event="patient.view")) == 3, timeout=10_000)
        patients.reload()
        qtbot.waitUntil(lambda: not window._test_runner.busy, timeout=10_000)
        views = engine.patients.vault.audit_log(event="patient.view")
        assert [row["patient_id"] for row in views] == [first["id"], second["id"], first["id"]]
    finally:
        close_window(window)
