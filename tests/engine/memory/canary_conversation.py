"""Child process for the canary test: a 20-turn conversation through the real engine
parts (vault, profile, hierarchical memory with the real MiniLM embedder, response
cache, a patient deletion with VACUUM, a rekey), logging at DEBUG into CHARTSIDE_HOME.

Reads {"name", "drug", "passphrase", "new_passphrase"} as one JSON line on stdin (never
argv or a file), prints PAUSE while the vault is still open (so the parent can scan the
live WAL), waits for a line, closes and prints DONE.
"""

from __future__ import annotations

import json
import logging
import sys

import engine  # noqa: F401  (offline switches first)
from engine.memory.cache import CacheTable
from engine.memory.hierarchy import HierarchicalMemory
from engine.memory.profile import ProfileStore
from engine.memory.store import Vault, default_vault_path
from engine.settings import data_dir, load_settings
from tests.engine.memory.conftest import MiniLMEmbedder


def script(name: str, drug: str) -> list[tuple[str, dict]]:
    medication = {"medications": [{"name": drug, "dose": "20 mg", "frequency": "daily", "text": f"{drug} 20 mg"}]}
    lines = [
        (f"My name is {name} and I have type 2 diabetes.", {"conditions": [{"name": "type 2 diabetes"}]}),
        (f"I started {drug} 20 mg daily last week.", medication),
        ("I am allergic to penicillin.", {"allergies": [{"name": "penicillin"}]}),
        (f"Does {drug} interact with alcohol?", medication),
        ("My blood pressure was 135/85.", {"vitals": [{"type": "blood_pressure", "systolic": 135, "diastolic": 85, "unit": "mmHg"}]}),
    ]
    while len(lines) < 20:
        i = len(lines) + 1
        if i % 4 == 0:
            lines.append((f"{name} here again: should I keep taking {drug}?", medication))
        else:
            lines.append((f"General question number {i} about diet and sleep.", {}))
    return lines


def main() -> int:
    request = json.loads(sys.stdin.readline())
    name, drug = request["name"], request["drug"]
    logs = data_dir() / "logs"
    logs.mkdir(exist_ok=True)
    logging.basicConfig(filename=logs / "chartside.log", level=logging.DEBUG)
    logging.getLogger("chartside").info("canary child started")

    settings = load_settings()
    embedder = MiniLMEmbedder()
    vault = Vault.open(default_vault_path(), request["passphrase"], create=True, settings=settings)
    profile = ProfileStore(vault)
    memory = HierarchicalMemory(vault, embedder, None, profile)
    cache = CacheTable(vault)
    patient = vault.create_patient(name)
    session = vault.create_session(patient, title=f"visit of {name}")
    other = vault.create_patient(f"{name} duplicate record")
    vault.add_turn(vault.create_session(other), f"{drug} question for the duplicate", "answer")

    for number, (text, slots) in enumerate(script(name, drug), start=1):
        turn_id = memory.start_turn(session, text)
        if slots:
            profile.update(patient, slots, turn_id)
        context = memory.retrieve_context(text, 300, lambda t: len(t.split()), session_id=session)
        answer = f"Answer {number} for {name} about {drug}. " + context["semantic"][:200]
        memory.finish_turn(turn_id, answer, [{"doc_id": f"doc-{number}"}],
                           [{"kind": "interaction", "message": f"{drug} and alcohol"}], {"nodes": ["all"]})
        cache.put(f"key-{number}", text, {"answer": answer}, embedder.embed([text])[0],
                  profile_fingerprint=profile.fingerprint(patient), patient_id=patient)
        if number == 10:
            vault.delete_patient(other)
        if number == 15:
            vault.rekey(request["new_passphrase"])

    print("PAUSE", flush=True)
    sys.stdin.readline()
    vault.close()
    print("DONE", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
