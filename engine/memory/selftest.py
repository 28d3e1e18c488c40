"""`chartside selftest` check for the encrypted store: a throwaway vault in a temporary
directory (encrypted, holding only a synthetic turn), removed afterwards."""

from __future__ import annotations

import secrets
import tempfile
from pathlib import Path

from engine.errors import WrongPassphrase
from engine.memory.store import Vault
from engine.settings import Settings


def check_vault(settings: Settings) -> str:
    passphrase = secrets.token_urlsafe(16)
    with tempfile.TemporaryDirectory(prefix="chartside-selftest-") as folder:
        path = Path(folder) / "selftest-vault.db"
        with Vault.open(path, passphrase, create=True, settings=settings) as vault:
            patient = vault.create_patient("selftest")
            session = vault.create_session(patient)
            turn_id = vault.add_turn(session, "selftest question", "selftest answer", [{"doc_id": "x"}], [], {})
        with Vault.open(path, passphrase, settings=settings) as vault:
            turn = vault.get_turn(turn_id)
            if turn["answer"] != "selftest answer" or turn["sources"] != [{"doc_id": "x"}]:
                raise AssertionError("turn read back differs from what was written")
            problems = vault.integrity_problems()
            if problems:
                raise AssertionError(f"cipher_integrity_check: {problems}")
            migrations = len(vault.migrations())
        try:
            Vault.open(path, passphrase + "-wrong", settings=settings).close()
        except WrongPassphrase:
            pass
        else:
            raise AssertionError("a wrong passphrase opened the vault")
    return f"encrypted vault: write/read turn, {migrations} migrations, integrity ok, wrong passphrase rejected"
