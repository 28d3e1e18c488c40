"""Adapters to the real memory service: VaultMemory and the vault-backed response cache (real SQLCipher)."""

from __future__ import annotations

import numpy as np

from engine.agent.cache import CacheEntry, ResponseCache, query_signature
from engine.agent.wiring import ClinicalService, VaultMemory
from engine.memory.cache import CacheTable
from engine.settings import Settings


def open_vault(tmp_path):
    from engine.memory.store import Vault

    settings = Settings()
    settings.vault.kdf_iterations = 10_000
    return Vault.open(tmp_path / "vault.db", "pass phrase", create=True, settings=settings)


def test_vault_memory_records_turns_profile_and_long_term(tmp_path):
    vault = open_vault(tmp_path)
    patient = vault.create_patient("Test")
    session = vault.create_session(patient)
    memory = VaultMemory(vault, patient, session)
    slots = {"demographics": {"age": 65}, "allergies": [{"name": "penicillin", "text": "penicillin"}]}
    memory.update_profile(slots, "I am 65 and allergic to penicillin.")
    memory.add_turn("I am 65 and allergic to penicillin.", {"answer": "Noted.", "sources": [], "alerts": [], "trace": {}})
    for number in range(1, 8):
        memory.add_turn(f"question {number}", {"answer": f"answer {number}"})
    assert "penicillin" in memory.profile_summary("en").lower()
    assert memory.profile()["allergies"][0]["name"] == "penicillin"
    fingerprint = memory.fingerprint()
    assert len(fingerprint) == 16 and fingerprint == memory.fingerprint()
    recent = memory.working_turns(5)
    assert [t["user"] for t in recent] == [f"question {n}" for n in range(3, 8)]
    assert recent[-1]["answer"] == "answer 7"
    provenance = memory.profile()["allergies"][0]["provenance"]
    assert provenance
    long_term = memory.long_term("penicillin", 200, "en")
    assert "turns 1-5" in long_term
    vault.close()


def test_cache_entries_persist_encrypted_and_reload(tmp_path):
    vault = open_vault(tmp_path)
    cache = ResponseCache(store=CacheTable(vault))
    vector = np.ones(8, dtype=np.float32) / np.sqrt(8)
    question = "How is gout treated?"
    cache.put(CacheEntry(id="k1", query=question, vector=vector, signature=query_signature(question),
                         answer="Gout is treated with anti-inflammatory medicines.", sources=[{"doc_id": "d"}],
                         used_profile=False, profile_fingerprint="", created=cache.clock()))
    vault.close()
    assert b"anti-inflammatory" not in (tmp_path / "vault.db").read_bytes()
    vault = open_vault(tmp_path)
    reloaded = ResponseCache(store=CacheTable(vault))
    found = reloaded.lookup(question, vector, query_signature(question), "")
    assert found.entry is not None and found.entry.answer.startswith("Gout is treated")
    reloaded.clear()
    assert ResponseCache(store=CacheTable(vault)).lookup(question, vector, query_signature(question), "").entry is None
    vault.close()


def test_clinical_service_uses_the_package_functions_and_fills_gaps():
    import types

    import engine.clinical
    import engine.clinical.red_flags  # noqa: F401  (the submodule must not shadow the function)

    assert callable(engine.clinical.triage)
    real = ClinicalService(engine.clinical)
    assert real.missing == []
    assert real.triage("I have crushing chest pain and can't breathe")["emergency"] is True
    package = types.ModuleType("partial_clinical")
    package.triage = lambda text: {"emergency": True, "category": "x", "message": "go now"}
    package.extract = lambda text: {"demographics": {}}
    service = ClinicalService(package)
    assert service.missing == ["conflicts"]
    assert service.triage("chest pain")["emergency"] is True
    assert service.conflicts({}, {}) == []
