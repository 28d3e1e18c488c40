"""The vault itself: encryption, migrations, patients/sessions/turns, audit, rekey, delete."""

from __future__ import annotations

import os

import pytest
import sqlcipher3
import sqlite_utils

from engine.errors import InputError, VaultError, WrongPassphrase
from engine.memory import migrations
from engine.memory.store import Vault, default_vault_path
from tests.engine.memory.conftest import PASSPHRASE


def test_default_path_is_under_chartside_home(chartside_home):
    assert default_vault_path() == chartside_home / "vault.db"


def test_file_is_encrypted_and_uses_sqlcipher_defaults(vault, vault_path):
    vault.add_turn(vault.create_session(vault.create_patient("Plaintext Probe")), "hello", "world")
    header = vault_path.read_bytes()[:16]
    assert header != b"SQLite format 3\x00"
    conn = vault.db.conn
    assert conn.execute("PRAGMA cipher_kdf_algorithm").fetchone()[0] == "PBKDF2_HMAC_SHA512"
    assert conn.execute("PRAGMA cipher_hmac_algorithm").fetchone()[0] == "HMAC_SHA512"
    assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert conn.execute("PRAGMA temp_store").fetchone()[0] == 2  # MEMORY
    assert conn.execute("PRAGMA synchronous").fetchone()[0] == 2  # FULL
    assert vault.integrity_problems() == []
    plain = sqlcipher3.connect(str(vault_path))
    with pytest.raises(sqlcipher3.dbapi2.DatabaseError):
        plain.execute("select count(*) from sqlite_master").fetchone()
    plain.close()


def test_missing_vault_without_create_creates_nothing(chartside_home, settings):
    path = chartside_home / "absent.db"
    with pytest.raises(VaultError):
        Vault.open(path, PASSPHRASE, settings=settings)
    assert sorted(os.listdir(chartside_home)) == []


@pytest.mark.parametrize("bad", ["", "a\x00b"])
def test_empty_or_nul_passphrase_is_refused(chartside_home, settings, bad):
    with pytest.raises(InputError):
        Vault.open(chartside_home / "v.db", bad, create=True, settings=settings)
    assert not (chartside_home / "v.db").exists()


def test_wrong_passphrase_is_a_named_error(vault_path, settings):
    Vault.open(vault_path, PASSPHRASE, create=True, settings=settings).close()
    with pytest.raises(WrongPassphrase) as caught:
        Vault.open(vault_path, PASSPHRASE + "x", settings=settings)
    assert "passphrase" in caught.value.user_message.lower()


def test_passphrase_with_quotes_round_trips(chartside_home, settings):
    path = chartside_home / "quotes.db"
    tricky = "it's a 'quoted' pass; --"
    Vault.open(path, tricky, create=True, settings=settings).close()
    with Vault.open(path, tricky, settings=settings) as vault:
        assert vault.list_patients() == []


def test_migrations_are_named_ordered_recorded_and_applied_once(vault, vault_path, settings):
    names = [name for name, _ in migrations.MIGRATIONS]
    assert vault.migrations() == names
    vault.close()
    with Vault.open(vault_path, PASSPHRASE, settings=settings) as again:
        assert again.migrations() == names
        rows = list(again.db["schema_migrations"].rows_where(order_by="position"))
        assert [r["position"] for r in rows] == list(range(1, len(names) + 1))


def test_a_new_migration_is_applied_on_open_with_explicit_columns(vault, vault_path, settings, monkeypatch):
    vault.close()

    def add_column(db: sqlite_utils.Database) -> None:
        db["patients"].add_column("date_of_birth", str)

    monkeypatch.setattr(migrations, "MIGRATIONS", migrations.MIGRATIONS + [("0099_test_add_column", add_column)])
    with Vault.open(vault_path, PASSPHRASE, settings=settings) as upgraded:
        assert upgraded.migrations()[-1] == "0099_test_add_column"
        assert "date_of_birth" in upgraded.db["patients"].columns_dict


def test_a_vault_from_a_newer_version_is_refused(vault, vault_path, settings):
    with vault.transaction() as db:
        db["schema_migrations"].insert({"name": "9999_from_the_future", "position": 9999, "applied_at": "x"})
    vault.close()
    with pytest.raises(VaultError):
        Vault.open(vault_path, PASSPHRASE, settings=settings)


def test_patients_sessions_and_turns(vault):
    first = vault.create_patient("Kim Minji")
    second = vault.create_patient("Lee Junho")
    vault.rename_patient(second, "Lee Jun-ho")
    assert [p["display_name"] for p in vault.list_patients()] == ["Kim Minji", "Lee Jun-ho"]
    session = vault.create_session(first, title="first visit")
    sources = [{"doc_id": "5_NIDDK_QA/0000001-1", "title": "Diabetes"}]
    alerts = [{"kind": "allergy", "message": "penicillin"}]
    trace = {"nodes": ["extract_slots"], "cache_hit": False}
    turn_id = vault.add_turn(session, "질문입니다", "answer", sources, alerts, trace)
    turn = vault.get_turn(turn_id)
    assert (turn["user_text"], turn["answer"], turn["position"]) == ("질문입니다", "answer", 1)
    assert (turn["sources"], turn["alerts"], turn["trace"]) == (sources, alerts, trace)
    started = vault.start_turn(session, "second question")
    assert vault.get_turn(started)["answer"] is None
    assert vault.count_turns(session) == 1
    vault.finish_turn(started, "second answer")
    assert [t["position"] for t in vault.list_turns(session_id=session)] == [1, 2]
    assert [t["id"] for t in vault.list_turns(patient_id=first, last=1)] == [started]
    assert vault.view_patient(first)["sessions"][0]["title"] == "first visit"
    with pytest.raises(VaultError):
        vault.create_session(9999)
    with pytest.raises(VaultError):
        vault.create_patient("   ")


def test_audit_log_is_append_only_and_holds_no_patient_text(vault):
    patient = vault.create_patient("Audit Name Zq")
    session = vault.create_session(patient)
    vault.add_turn(session, "secret symptom text", "answer")
    vault.view_patient(patient)
    events = [row["event"] for row in vault.audit_log()]
    assert events[0] == "vault.create"
    assert {"patient.create", "session.create", "turn.add", "patient.view"} <= set(events)
    dumped = repr(vault.audit_log())
    assert "Audit Name Zq" not in dumped and "secret symptom" not in dumped
    for statement in ("update audit_log set event = 'x'", "delete from audit_log"):
        with pytest.raises(sqlcipher3.dbapi2.IntegrityError, match="append-only"):
            with vault.transaction() as db:
                db.execute(statement)
    assert [row["event"] for row in vault.audit_log()] == events


def test_reopen_is_audited_as_open(vault, vault_path, settings):
    vault.close()
    with Vault.open(vault_path, PASSPHRASE, settings=settings) as again:
        assert [r["event"] for r in again.audit_log()][:2] == ["vault.create", "vault.open"]


def test_rekey_changes_the_passphrase(vault, vault_path, settings):
    patient = vault.create_patient("Rekey Patient")
    vault.rekey("new passphrase ✓")
    vault.close()
    with pytest.raises(WrongPassphrase):
        Vault.open(vault_path, PASSPHRASE, settings=settings)
    with Vault.open(vault_path, "new passphrase ✓", settings=settings) as again:
        assert again.get_patient(patient)["display_name"] == "Rekey Patient"
        assert again.integrity_problems() == []
        assert "vault.rekey" in [r["event"] for r in again.audit_log()]


def test_lock_and_unlock(vault):
    patient = vault.create_patient("Locked")
    vault.lock()
    with pytest.raises(VaultError):
        vault.get_patient(patient)
    with pytest.raises(WrongPassphrase):
        vault.unlock("not it")
    vault.unlock(PASSPHRASE)
    assert vault.get_patient(patient)["display_name"] == "Locked"
    assert [r["event"] for r in vault.audit_log()][-2:] == ["vault.lock", "vault.unlock"]


def test_delete_patient_removes_every_row_then_vacuums(vault):
    from engine.memory.cache import CacheTable
    from engine.memory.hierarchy import HierarchicalMemory
    from engine.memory.profile import ProfileStore

    keep = vault.create_patient("Keep")
    gone = vault.create_patient("Gone")
    memory = HierarchicalMemory(vault, profile=ProfileStore(vault))
    for patient in (keep, gone):
        session = vault.create_session(patient)
        for i in range(5):
            turn = memory.add_turn(session, f"turn {i} " + "x" * 2000, "answer")
            memory.profile.update(patient, {"conditions": [{"name": f"condition {i}"}]}, turn)
        CacheTable(vault).put(f"key{patient}", "q", {"answer": "a"}, patient_id=patient, profile_fingerprint="f")
    counts = vault.delete_patient(gone)
    assert counts["turns"] == 5 and counts["profile_facts"] == 5 and counts["memory_summaries"] == 1
    for table in ("sessions", "turns", "profile_facts", "memory_summaries", "memory_embeddings", "response_cache"):
        assert vault.db.execute(f"select count(*) from {table} where patient_id = ?", [gone]).fetchone()[0] == 0
    assert vault.db.execute("select count(*) from fact_mentions").fetchone()[0] == 5
    assert vault.db.execute("PRAGMA freelist_count").fetchone()[0] == 0
    assert [p["id"] for p in vault.list_patients()] == [keep]
    deletion = vault.audit_log(event="patient.delete")
    assert deletion[0]["patient_id"] == gone and deletion[0]["detail"]["rows"]["turns"] == 5
    with pytest.raises(VaultError):
        vault.get_patient(gone)


def test_sqlite_utils_alter_path_needs_explicit_columns(vault):
    """The feasibility note: on a sqlcipher3 connection sqlite-utils does not recognise the
    'no such column' error, so migrations declare columns explicitly."""
    with pytest.raises(sqlcipher3.dbapi2.OperationalError, match="no column"):
        vault.db["patients"].insert(
            {"display_name": "x", "created_at": "t", "updated_at": "t", "undeclared": 1}, alter=True
        )
