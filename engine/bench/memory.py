"""`chartside bench memory`: vault open time (KDF included) and store latencies.

Runs against a throwaway vault in a temporary directory holding synthetic data only.
Baselines measured in the same process: `key_only_ms` is bare sqlcipher3 (connect, key,
first read — essentially the PBKDF2 cost) so the vault's own open overhead (integrity
check, migration check, audit row) is visible; `bare_commit_ms` is one insert + commit
on the same connection, the floor under every durable write.
"""

from __future__ import annotations

import json
import statistics
import tempfile
import time
from pathlib import Path

from engine.settings import load_settings

PASSPHRASE = "bench-passphrase-not-secret"


def register(subparsers) -> None:
    parser = subparsers.add_parser("memory", help="vault open (KDF included) and store latencies")
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--opens", type=int, default=10)
    parser.add_argument("--updates", type=int, default=200)
    parser.add_argument("--kdf-iterations", type=int, default=None, help="override settings (default 256000)")
    parser.add_argument("--synchronous", choices=["NORMAL", "FULL"], default=None, help="override settings")
    parser.set_defaults(func=run)


def _ms(values: list[float]) -> dict:
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, int(round(0.95 * (len(ordered) - 1))))]
    return {"p50": round(statistics.median(ordered) * 1000, 3), "p95": round(p95 * 1000, 3), "n": len(ordered)}


def _slots(i: int) -> dict:
    """Synthetic slot JSON that exercises every policy over the run."""
    return {
        "demographics": {"age": 60 + i % 3, "age_group": None, "gender": "female", "pregnant": None},
        "conditions": [{"name": f"condition {i % 7}", "concept_id": f"C{i % 7:07d}", "text": f"condition {i % 7}"}],
        "symptoms": [{"name": "cough", "negated": bool(i % 2), "text": "cough"}],
        "medications": [{"name": "metformin", "dose": f"{500 * (1 + i % 2)} mg", "frequency": "twice daily"}],
        "allergies": [{"name": "penicillin", "concept_id": "C0030842", "text": "penicillin"}] if i % 5 == 0 else [],
        "vitals": [{"type": "blood_pressure", "systolic": 120 + i % 30, "diastolic": 80, "unit": "mmHg"}],
        "labs": [{"type": "glucose", "value": 90 + i % 60, "unit": "mg/dL"}],
    }


def run(args) -> int:
    import sqlcipher3

    from engine.memory.hierarchy import HierarchicalMemory
    from engine.memory.profile import ProfileStore
    from engine.memory.store import Vault

    settings = load_settings()
    if args.kdf_iterations:
        settings.vault.kdf_iterations = args.kdf_iterations
    if args.synchronous:
        settings.vault.synchronous = args.synchronous
    with tempfile.TemporaryDirectory(prefix="chartside-bench-") as folder:
        path = Path(folder) / "bench-vault.db"
        start = time.perf_counter()
        Vault.open(path, PASSPHRASE, create=True, settings=settings).close()
        create_s = time.perf_counter() - start

        opens, key_only = [], []
        for _ in range(args.opens):
            start = time.perf_counter()
            Vault.open(path, PASSPHRASE, settings=settings).close()
            opens.append(time.perf_counter() - start)
            start = time.perf_counter()
            conn = sqlcipher3.connect(str(path))
            conn.execute("PRAGMA cipher_log_level = NONE")
            conn.execute(f"PRAGMA key = '{PASSPHRASE}'")
            conn.execute(f"PRAGMA kdf_iter = {settings.vault.kdf_iterations}")
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
            conn.close()
            key_only.append(time.perf_counter() - start)

        with Vault.open(path, PASSPHRASE, settings=settings) as vault:
            profile = ProfileStore(vault)
            memory = HierarchicalMemory(vault, profile=profile)
            patient = vault.create_patient("bench patient")
            session = vault.create_session(patient)
            updates, turns, contexts, bare = [], [], [], []
            vault.db["bench_floor"].create({"x": str})
            for i in range(args.updates):
                start = time.perf_counter()
                turn_id = memory.add_turn(session, f"synthetic question {i}", f"synthetic answer {i}")
                turns.append(time.perf_counter() - start)
                start = time.perf_counter()
                profile.update(patient, _slots(i), turn_id)
                updates.append(time.perf_counter() - start)
                start = time.perf_counter()
                memory.retrieve_context("synthetic question", 1000, lambda text: len(text.split()), session_id=session)
                contexts.append(time.perf_counter() - start)
                start = time.perf_counter()
                with vault.transaction() as db:
                    db["bench_floor"].insert({"x": "y" * 200})
                bare.append(time.perf_counter() - start)
            facts = len(profile.facts(patient, statuses=("active", "pending-confirmation", "retracted")))

    result = {
        "kdf_iterations": settings.vault.kdf_iterations,
        "synchronous": settings.vault.synchronous,
        "vault_create_ms": round(create_s * 1000, 3),
        "vault_open_ms": _ms(opens),
        "key_only_ms": _ms(key_only),
        "profile_update_ms": _ms(updates),
        "add_turn_ms": _ms(turns),
        "retrieve_context_ms": _ms(contexts),
        "bare_commit_ms": _ms(bare),
        "facts_at_end": facts,
    }
    if args.json:
        print(json.dumps(result))
    else:
        for key, value in result.items():
            print(f"{key}: {value}")
    return 0
