"""Child process for the crash-safety test: writes turns (and a profile change per turn)
until it is killed, acknowledging each turn only after its commit returned."""

from __future__ import annotations

import os
from pathlib import Path

from engine.memory.profile import ProfileStore
from engine.memory.store import Vault
from engine.settings import Settings


def turn_content(marker: str) -> dict:
    """Deterministic content, so the parent can check each row is complete."""
    return {
        "user_text": f"user text {marker} " + "u" * 300,
        "answer": f"answer {marker} " + "a" * 1200,
        "sources": [{"doc_id": f"doc-{marker}", "score": 0.5}],
        "alerts": [{"kind": "test", "message": marker}],
        "trace": {"marker": marker, "nodes": ["a", "b"]},
    }


def write_turns(path: str, passphrase: str, kdf_iterations: int, patient_id: int, session_id: int, channel) -> None:
    settings = Settings()
    settings.vault.kdf_iterations = kdf_iterations
    vault = Vault.open(Path(path), passphrase, settings=settings)
    profile = ProfileStore(vault)
    channel.send("ready")
    count = 0
    while True:
        marker = f"{os.getpid()}-{count}"
        content = turn_content(marker)
        turn_id = vault.add_turn(session_id, content["user_text"], content["answer"], content["sources"],
                                 content["alerts"], content["trace"])
        channel.send((turn_id, marker))
        profile.update(patient_id, {"medications": [{"name": "metformin", "dose": f"{count} mg"}]}, turn_id)
        count += 1
