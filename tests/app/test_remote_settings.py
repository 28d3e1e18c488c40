"""Settings → Models: the clinic model server. Switching it on shows which patient data
crosses the network; the token goes into the vault, never into settings.toml; a test
connection reaches a real server; an unsafe address is refused with the reason."""

from __future__ import annotations

from engine.llm.serve import MODEL_ALIAS, LlamaServer
from engine.settings import load_settings, settings_path

from tests.app.conftest import close_window, open_window, unlock
from tests.app.test_unlock import real_engine

TOKEN = "gui-token-5b1d"


def test_switching_a_remote_role_on_warns_keeps_the_token_in_the_vault_and_reaches_the_server(
        qtbot, ui_language, tmp_path):
    server = LlamaServer(tmp_path, api_key=TOKEN)
    engine = real_engine()
    window = open_window(qtbot, engine)
    try:
        unlock(qtbot, window)
        window.open_settings()
        box = window.settings_dialog.remote_box
        assert not box.enabled.isChecked() and box.notice.isHidden()
        box.enabled.setChecked(True)
        assert not box.notice.isHidden() and "profile summary" in box.notice.text()
        box.url.setText("http://192.168.0.20:8080")
        box.model.setText(MODEL_ALIAS)
        window.settings_dialog.save()
        assert "https on the network" in window.settings_dialog.error.text()
        box.url.setText(server.url)
        box.server.setCurrentIndex(box.server.findData("llama-cpp-python"))
        box.token.setText(TOKEN)
        box.keep_token.click()
        qtbot.waitUntil(lambda: "vault" in box.result.text(), timeout=10_000)
        assert engine.models.has_remote_token() and box.token.text() == ""
        box.test_button.click()
        qtbot.waitUntil(lambda: "Reached" in box.result.text(), timeout=30_000)
        applied = []
        window.settings_dialog.applied.connect(applied.append)
        window.settings_dialog.save()
        qtbot.waitUntil(lambda: bool(applied), timeout=10_000)
        saved = load_settings()
        assert saved.remote.enabled and saved.remote.roles == ["generate"] and saved.remote.url == server.url
        assert TOKEN not in settings_path().read_text()
    finally:
        close_window(window)
        server.stop()
