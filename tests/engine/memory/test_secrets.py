"""The model server's bearer token lives in the vault: encrypted, audited by name only,
kept across lock and unlock, never in settings.toml."""

from __future__ import annotations

import pytest

from engine.errors import VaultError
from engine.facade import Engine
from engine.llm.fake import FakeLLM
from engine.memory.secrets import REMOTE_TOKEN, SecretStore
from engine.settings import Settings, settings_path

PASSPHRASE = "correct horse battery staple"
TOKEN = "tok-91c2e5d0"


def make_engine(tmp_path) -> Engine:
    settings = Settings.model_validate({"remote": {"enabled": True, "url": "http://127.0.0.1:9", "model": "m"}})
    settings.vault.kdf_iterations = 10_000
    return Engine(settings, llm=FakeLLM(), knowledge=None, clinical=None, embedder=None,
                  vault_path=tmp_path / "vault.db")


def test_the_token_is_kept_in_the_vault_across_lock_and_never_in_plain_files(tmp_path):
    engine = make_engine(tmp_path)
    with pytest.raises(VaultError):
        engine.models.set_remote_token(TOKEN)
    engine.patients.unlock(PASSPHRASE, create=True)
    engine.models.set_remote_token(TOKEN)
    engine.update_settings(engine.settings)
    assert engine.models.has_remote_token() and engine.models.remote_token() == TOKEN
    engine.patients.lock()
    assert not engine.models.has_remote_token() and engine.models.remote_token() is None
    engine.patients.unlock(PASSPHRASE)
    assert engine.models.remote_token() == TOKEN
    audit = engine.patients.vault.audit_log(event="secret.set")
    assert audit and audit[-1]["detail"] == {"name": REMOTE_TOKEN}
    engine.models.set_remote_token("")
    assert engine.models.remote_token() is None and engine.patients.vault.audit_log(event="secret.delete")
    engine.close()
    assert TOKEN not in settings_path().read_text()
    assert TOKEN.encode() not in (tmp_path / "vault.db").read_bytes()


def test_secret_store_replaces_a_value(tmp_path):
    engine = make_engine(tmp_path)
    engine.patients.unlock(PASSPHRASE, create=True)
    secrets = SecretStore(engine.patients.vault)
    secrets.set("a", "1")
    secrets.set("a", "2")
    assert secrets.get("a") == "2" and secrets.get("b") is None
    assert secrets.delete("a") and not secrets.delete("a")
    engine.close()
