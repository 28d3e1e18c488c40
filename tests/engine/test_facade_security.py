"""Security behaviour of the Engine facade over a real encrypted vault (SQLCipher): cached
answers leave with their patient, locking is audited and forgets in-memory patient
data, exports are owner-only. A fake LLM and a hash embedder drive the control flow."""

from __future__ import annotations

import os
import secrets
import stat

import pytest

from engine.agent.embedding import MemoEmbedder
from engine.llm.fake import FakeLLM
from tests.engine.agent.fakes import HashEmbedder
from tests.engine.test_facade import PASSPHRASE, ask, make_engine


def cache_rows(engine) -> list[tuple]:
    return engine.patients.vault.db.execute("select patient_id, query, response from response_cache").fetchall()


def test_deleting_a_patient_deletes_the_cached_answers_of_their_turns(tmp_path):
    canary = f"zq{secrets.token_hex(4)}"
    engine = make_engine(tmp_path, FakeLLM([f"Metformin is taken with meals, {canary} [1]."]),
                         embedder=HashEmbedder())
    engine.patients.unlock(PASSPHRASE, create=True)
    patient = engine.patients.create_patient("Cache Patient")
    ask(engine, f"How is diabetes treated in {canary}?", patient_id=patient["id"])
    rows = cache_rows(engine)
    assert rows and all(row[0] == patient["id"] for row in rows)
    assert any(canary in row[1] and canary in row[2] for row in rows)

    engine.patients.delete_patient(patient["id"])
    assert not [row for row in cache_rows(engine) if canary in f"{row[1]}{row[2]}"]
    assert len(engine.turns.cache) == 0
    engine.close()


def test_locking_from_the_facade_is_audited(tmp_path):
    engine = make_engine(tmp_path)
    engine.patients.unlock(PASSPHRASE, create=True)
    engine.patients.lock()
    engine.patients.unlock(PASSPHRASE)
    assert [row["event"] for row in engine.patients.vault.audit_log()] == ["vault.create", "vault.lock", "vault.open"]
    engine.close()


def test_lock_forgets_the_embedding_memo_cache_and_conversation_memory(tmp_path):
    memo = MemoEmbedder(HashEmbedder())
    engine = make_engine(tmp_path, FakeLLM(["Diet and metformin [1]."]), embedder=memo)
    engine.patients.unlock(PASSPHRASE, create=True)
    patient = engine.patients.create_patient("Memo Patient")
    ask(engine, "How is diabetes treated?", patient_id=patient["id"])
    assert memo.remembered() > 0 and len(engine.turns.cache) > 0 and engine.turns._sessions_memory

    engine.patients.lock()
    assert memo.remembered() == 0
    assert engine.turns._sessions_memory == {} and len(engine.turns.cache) == 0
    assert {"kind": "forget_prompts"} in engine.llm.calls


@pytest.mark.parametrize("fmt", ["md", "pdf"])
def test_conversation_exports_are_owner_only(tmp_path, fmt):
    previous = os.umask(0o022)
    try:
        engine = make_engine(tmp_path, FakeLLM(["Diet and metformin [1]."]))
        engine.patients.unlock(PASSPHRASE, create=True)
        patient = engine.patients.create_patient("Export Patient")
        ask(engine, "How is diabetes treated?", patient_id=patient["id"])
        target = tmp_path / f"conversation.{fmt}"
        target.write_bytes(b"an older export")
        target.chmod(0o644)
        engine.patients.export_conversation(engine.patients.list_sessions(patient["id"])[0]["id"], target, fmt)
        assert stat.S_IMODE(target.stat().st_mode) == 0o600
        assert target.read_bytes() != b"an older export"
        engine.close()
    finally:
        os.umask(previous)
