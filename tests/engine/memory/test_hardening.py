"""Hardening of the vault on disk and in memory: owner-only files, SQLCipher's memory
security, and the audit log printed by `chartside vault audit` (real SQLCipher files)."""

from __future__ import annotations

import os
import stat

import pytest

from engine.cli import main
from engine.errors import WrongPassphrase
from engine.memory.export import export_patient
from engine.memory.store import Vault, default_vault_path
from engine.settings import data_dir
from tests.engine.memory.conftest import PASSPHRASE


def mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


@pytest.fixture(autouse=True)
def usual_umask():
    """The common 022 umask, under which files are world-readable unless Chartside says otherwise."""
    previous = os.umask(0o022)
    yield
    os.umask(previous)


def test_data_directory_is_created_and_tightened_owner_only(chartside_home, monkeypatch, tmp_path):
    chartside_home.chmod(0o755)
    assert data_dir() == chartside_home and mode(chartside_home) == 0o700
    fresh = tmp_path / "not" / "yet" / "there"
    monkeypatch.setenv("CHARTSIDE_HOME", str(fresh))
    assert data_dir() == fresh and mode(fresh) == 0o700


def test_vault_and_its_wal_files_are_owner_only(vault, vault_path):
    vault.create_patient("Mode Patient")
    for suffix in ("", "-wal", "-shm"):
        member = vault_path.with_name(vault_path.name + suffix)
        assert member.exists() and mode(member) == 0o600, suffix


def test_an_older_world_readable_vault_is_tightened_only_by_the_right_passphrase(vault_path, settings):
    Vault.open(vault_path, PASSPHRASE, create=True, settings=settings).close()
    vault_path.chmod(0o644)
    with pytest.raises(WrongPassphrase):
        Vault.open(vault_path, "not the passphrase", settings=settings)
    assert mode(vault_path) == 0o644
    with Vault.open(vault_path, PASSPHRASE, settings=settings):
        assert mode(vault_path) == 0o600


def test_sqlcipher_memory_security_is_on(vault):
    assert vault.db.execute("PRAGMA cipher_memory_security").fetchone()[0] == "1"


def test_vault_audit_prints_events_and_ids_but_no_patient_text(monkeypatch, capsys, settings):
    monkeypatch.setenv("CHARTSIDE_PASSPHRASE", PASSPHRASE)
    name, question = "Audit Canary Hwang", "Canary question about warfarin 5 mg"
    with Vault.open(default_vault_path(), PASSPHRASE, create=True) as vault:
        patient = vault.create_patient(name)
        vault.add_turn(vault.create_session(patient), question, "Canary answer")
        export_patient(vault, patient, default_vault_path().parent / "record.json")
    capsys.readouterr()

    assert main(["vault", "audit"]) == 0
    out = capsys.readouterr().out
    lines = out.splitlines()
    assert lines[0] == "time\tevent\tpatient\tdetail"
    rows = [line.split("\t") for line in lines[1:]]
    assert [row[1] for row in rows] == ["vault.create", "patient.create", "session.create", "turn.add",
                                        "patient.export", "vault.open"]
    assert all(row[2] == str(patient) for row in rows[1:5]) and rows[0][2] == rows[-1][2] == "-"
    assert '"format": "json"' in rows[4][3]
    for secret in (name, "Hwang", question, "warfarin", "Canary answer", "record.json"):
        assert secret not in out

    assert main(["vault", "audit", "--limit", "2"]) == 0
    assert [line.split("\t")[1] for line in capsys.readouterr().out.splitlines()[1:]] == ["vault.open", "vault.open"]
    assert main(["vault", "audit", "--limit", "0"]) == 2
