"""Acceptance: a child writing turns is killed with SIGKILL at 50 random moments; every
time the vault opens, passes cipher_integrity_check and holds every acknowledged turn,
complete, and no multi-row profile change is half-applied.

The children fork from a forkserver that has already imported the engine, so each round
costs milliseconds, and the vault uses the minimum KDF count (the key derivation has
nothing to do with crash safety; the WAL, synchronous=FULL and the cipher do).
"""

from __future__ import annotations

import multiprocessing
import os
import random
import signal
import time

from engine.memory.profile import ProfileStore
from engine.memory.store import Vault
from tests.engine.memory.conftest import FAST_KDF, PASSPHRASE, fast_settings
from tests.engine.memory.crash_writer import turn_content, write_turns

KILLS = 50
MAX_DELAY_S = 0.15


def collect(channel, acknowledged: dict[int, str]) -> None:
    """Read every complete acknowledgement; a message cut by the kill does not count."""
    while True:
        try:
            if not channel.poll(0):
                return
            message = channel.recv()
        except (EOFError, OSError):
            return
        if message != "ready":
            turn_id, marker = message
            acknowledged[turn_id] = marker


def test_sigkill_at_random_moments_loses_no_committed_turn(vault_path):
    settings = fast_settings()
    with Vault.open(vault_path, PASSPHRASE, create=True, settings=settings) as vault:
        patient = vault.create_patient("Crash Test")
        session = vault.create_session(patient)

    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["tests.engine.memory.crash_writer"])
    seed = int.from_bytes(os.urandom(4), "big")
    rng = random.Random(seed)
    acknowledged: dict[int, str] = {}
    killed_while_writing = 0
    start = time.perf_counter()
    for round_number in range(KILLS):
        receiver, sender = context.Pipe(duplex=False)
        child = context.Process(
            target=write_turns, args=(str(vault_path), PASSPHRASE, FAST_KDF, patient, session, sender)
        )
        child.start()
        sender.close()
        assert receiver.poll(60), f"round {round_number}: child never became ready (seed {seed})"
        assert receiver.recv() == "ready"
        before = len(acknowledged)
        deadline = time.monotonic() + rng.uniform(0.0, MAX_DELAY_S)
        while time.monotonic() < deadline:
            if receiver.poll(max(0.0, deadline - time.monotonic())):
                collect(receiver, acknowledged)
        os.kill(child.pid, signal.SIGKILL)
        child.join(10)
        assert child.exitcode == -signal.SIGKILL
        collect(receiver, acknowledged)
        receiver.close()
        killed_while_writing += len(acknowledged) > before

        with Vault.open(vault_path, PASSPHRASE, settings=settings) as vault:
            assert vault.integrity_problems() == [], f"round {round_number} (seed {seed})"
            turns = {t["id"]: t for t in vault.list_turns(session_id=session)}
            missing = sorted(set(acknowledged) - set(turns))
            assert not missing, f"round {round_number}: acknowledged turns lost {missing[:5]} (seed {seed})"
            for turn_id, marker in acknowledged.items():
                expected = turn_content(marker)
                stored = turns[turn_id]
                assert {k: stored[k] for k in expected} == expected, f"turn {turn_id} incomplete (seed {seed})"
            assert all(t["finished_at"] for t in turns.values()), "a turn without its answer"
            positions = sorted(t["position"] for t in turns.values())
            assert positions == list(range(1, len(positions) + 1))
            store = ProfileStore(vault)
            written = store.facts(patient, slot="medications", statuses=("active", "retracted"))
            active = [f for f in written if f["status"] == "active"]
            assert len(active) == (1 if written else 0), f"half-applied dose change (seed {seed})"
    elapsed = time.perf_counter() - start
    print(f"\n{KILLS} SIGKILLs in {elapsed:.1f} s; {len(acknowledged)} acknowledged turns, "
          f"{killed_while_writing} rounds killed after writing began (seed {seed})")
    assert len(acknowledged) > KILLS  # the children really were writing when killed
