"""Acceptance: 100 wrong passphrases give 100 clean errors and change no byte.

Uses the default KDF (PBKDF2-HMAC-SHA512, 256,000 iterations): each attempt pays the
full key derivation, about 0.15 s here, so 100 attempts take about 15 s.
"""

from __future__ import annotations

import hashlib
import os
import time

import pytest

from engine.errors import WrongPassphrase
from engine.memory.store import Vault
from engine.settings import Settings
from tests.engine.memory.conftest import PASSPHRASE

ATTEMPTS = 100


def snapshot(folder) -> dict[str, str]:
    return {name: hashlib.sha256((folder / name).read_bytes()).hexdigest() for name in sorted(os.listdir(folder))}


def test_one_hundred_wrong_passphrases_change_nothing(chartside_home, vault_path):
    settings = Settings()
    assert settings.vault.kdf_iterations == 256_000
    with Vault.open(vault_path, PASSPHRASE, create=True, settings=settings) as vault:
        session = vault.create_session(vault.create_patient("Wrong Passphrase Target"))
        vault.add_turn(session, "question", "answer")
    before = snapshot(chartside_home)
    assert list(before) == ["vault.db"]
    mtime = os.stat(vault_path).st_mtime_ns

    start = time.perf_counter()
    messages = set()
    for attempt in range(ATTEMPTS):
        with pytest.raises(WrongPassphrase) as caught:
            Vault.open(vault_path, f"{PASSPHRASE}-wrong-{attempt}", settings=settings)
        messages.add(caught.value.user_message)
    elapsed = time.perf_counter() - start
    print(f"\n{ATTEMPTS} wrong-passphrase attempts in {elapsed:.1f} s ({elapsed / ATTEMPTS * 1000:.0f} ms each)")

    assert messages == {"Wrong passphrase. Nothing was opened or changed."}
    assert snapshot(chartside_home) == before
    assert os.stat(vault_path).st_mtime_ns == mtime
    with Vault.open(vault_path, PASSPHRASE, settings=settings) as vault:
        assert [p["display_name"] for p in vault.list_patients()] == ["Wrong Passphrase Target"]


def test_wrong_passphrase_while_the_vault_is_open_elsewhere(chartside_home, vault_path):
    """With a live WAL beside the file, a wrong passphrase touches neither the database
    nor the WAL. (The `-shm` wal-index may change: a reader records a read mark there
    before the decryption of page 1 fails. It holds frame indexes, never content.)"""
    settings = Settings()
    with Vault.open(vault_path, PASSPHRASE, create=True, settings=settings) as vault:
        vault.create_patient("Open Elsewhere")
        before = snapshot(chartside_home)
        assert "vault.db-wal" in before
        for attempt in range(3):
            with pytest.raises(WrongPassphrase):
                Vault.open(vault_path, f"nope-{attempt}", settings=settings)
        after = snapshot(chartside_home)
        for name in ("vault.db", "vault.db-wal"):
            assert after[name] == before[name]
        assert vault.list_patients()[0]["display_name"] == "Open Elsewhere"
