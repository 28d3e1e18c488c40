"""Ordered, named schema migrations, recorded in the vault's `schema_migrations` table.

Each migration is `(name, function(db))`; `apply_migrations` runs the missing ones in
order, each in its own transaction together with its record, so a crash leaves either
the old or the new schema. Never edit or reorder a released migration: append a new one.

Columns are always declared explicitly (`create_table`, `add_column`), never through
`insert(..., alter=True)`: sqlite-utils only recognises the `OperationalError` of the
sqlite3 module it imported, so its "add missing columns and retry" path does not fire
on a sqlcipher3 connection (verified with sqlite-utils 4.2 / sqlcipher3 0.6).
"""

from __future__ import annotations

from datetime import datetime, timezone
from typing import Callable

import sqlite_utils

from engine.errors import VaultError

Migration = tuple[str, Callable[[sqlite_utils.Database], None]]


def _create_core(db: sqlite_utils.Database) -> None:
    db["patients"].create(
        {"id": int, "display_name": str, "created_at": str, "updated_at": str},
        pk="id",
        not_null={"display_name", "created_at", "updated_at"},
    )
    db["sessions"].create(
        {"id": int, "patient_id": int, "title": str, "created_at": str, "updated_at": str},
        pk="id",
        foreign_keys=[("patient_id", "patients", "id")],
        not_null={"patient_id", "created_at", "updated_at"},
    )
    db["sessions"].create_index(["patient_id"])
    db["turns"].create(
        {
            "id": int,
            "session_id": int,
            "patient_id": int,
            "position": int,
            "user_text": str,
            "answer": str,
            "sources": str,
            "alerts": str,
            "trace": str,
            "created_at": str,
            "finished_at": str,
        },
        pk="id",
        foreign_keys=[("session_id", "sessions", "id"), ("patient_id", "patients", "id")],
        not_null={"session_id", "patient_id", "position", "user_text", "created_at"},
    )
    db["turns"].create_index(["session_id", "position"], unique=True)
    db["turns"].create_index(["patient_id"])


def _create_audit_log(db: sqlite_utils.Database) -> None:
    """Append-only: triggers refuse UPDATE and DELETE, even from engine code."""
    db["audit_log"].create(
        {"id": int, "at": str, "event": str, "patient_id": int, "detail": str},
        pk="id",
        not_null={"at", "event"},
    )
    db["audit_log"].create_index(["patient_id"])
    db.execute(
        "CREATE TRIGGER audit_log_no_update BEFORE UPDATE ON audit_log "
        "BEGIN SELECT RAISE(ABORT, 'audit log is append-only'); END"
    )
    db.execute(
        "CREATE TRIGGER audit_log_no_delete BEFORE DELETE ON audit_log "
        "BEGIN SELECT RAISE(ABORT, 'audit log is append-only'); END"
    )


def _create_profile(db: sqlite_utils.Database) -> None:
    db["profile_facts"].create(
        {
            "id": int,
            "patient_id": int,
            "slot": str,
            "name": str,
            "concept_id": str,
            "negated": int,
            "item": str,
            "status": str,
            "status_reason": str,
            "conflicts_with": int,
            "confidence": float,
            "source_span": str,
            "first_turn_id": int,
            "last_turn_id": int,
            "first_seen": str,
            "observed_at": str,
            "updated_at": str,
            "mentions": int,
        },
        pk="id",
        foreign_keys=[("patient_id", "patients", "id")],
        not_null={"patient_id", "slot", "name", "item", "status", "first_seen", "observed_at", "updated_at"},
        defaults={"negated": 0, "mentions": 1, "confidence": 1.0},
    )
    db["profile_facts"].create_index(["patient_id", "slot", "status"])
    db["fact_mentions"].create(
        {"id": int, "fact_id": int, "turn_id": int, "observed_at": str},
        pk="id",
        foreign_keys=[("fact_id", "profile_facts", "id")],
        not_null={"fact_id", "observed_at"},
    )
    db["fact_mentions"].create_index(["fact_id"])


def _create_memory(db: sqlite_utils.Database) -> None:
    db["memory_summaries"].create(
        {
            "id": int,
            "session_id": int,
            "patient_id": int,
            "first_position": int,
            "last_position": int,
            "summary": str,
            "restored": str,
            "created_at": str,
        },
        pk="id",
        foreign_keys=[("session_id", "sessions", "id"), ("patient_id", "patients", "id")],
        not_null={"session_id", "patient_id", "first_position", "last_position", "summary", "created_at"},
    )
    db["memory_summaries"].create_index(["session_id", "last_position"], unique=True)
    db["memory_embeddings"].create(
        {"turn_id": int, "patient_id": int, "model": str, "dimension": int, "vector": bytes},
        pk="turn_id",
        foreign_keys=[("turn_id", "turns", "id"), ("patient_id", "patients", "id")],
        not_null={"patient_id", "model", "dimension", "vector"},
    )
    db["memory_embeddings"].create_index(["patient_id"])


def _create_response_cache(db: sqlite_utils.Database) -> None:
    db["response_cache"].create(
        {
            "id": int,
            "key": str,
            "query": str,
            "embedding": bytes,
            "dimension": int,
            "profile_fingerprint": str,
            "patient_id": int,
            "response": str,
            "created_at": str,
            "expires_at": str,
            "last_used_at": str,
            "hits": int,
        },
        pk="id",
        not_null={"key", "query", "response", "created_at", "expires_at", "last_used_at"},
        defaults={"hits": 0},
    )
    db["response_cache"].create_index(["key"])
    db["response_cache"].create_index(["patient_id"])
    db["response_cache"].create_index(["last_used_at"])


def _create_safety_events(db: sqlite_utils.Database) -> None:
    """Every emergency alert raised in a turn: what fired, when, and what the user was shown."""
    db["safety_events"].create(
        {
            "id": int,
            "patient_id": int,
            "session_id": int,
            "turn_id": int,
            "kind": str,
            "category": str,
            "message": str,
            "shown": str,
            "stopped": int,
            "created_at": str,
        },
        pk="id",
        foreign_keys=[("patient_id", "patients", "id"), ("session_id", "sessions", "id"), ("turn_id", "turns", "id")],
        not_null={"patient_id", "turn_id", "kind", "created_at"},
        defaults={"stopped": 0},
    )
    db["safety_events"].create_index(["patient_id"])


def _create_secrets(db: sqlite_utils.Database) -> None:
    db["secrets"].create({"name": str, "value": str, "updated_at": str}, pk="name",
                         not_null={"value", "updated_at"})


MIGRATIONS: list[Migration] = [
    ("0001_core_patients_sessions_turns", _create_core),
    ("0002_audit_log_append_only", _create_audit_log),
    ("0003_profile_facts_and_mentions", _create_profile),
    ("0004_memory_summaries_and_embeddings", _create_memory),
    ("0005_response_cache", _create_response_cache),
    ("0006_safety_events", _create_safety_events),
    ("0007_secrets", _create_secrets),
]

MIGRATIONS_TABLE = "schema_migrations"


def applied_migrations(db: sqlite_utils.Database) -> list[str]:
    if MIGRATIONS_TABLE not in db.table_names():
        return []
    return [row["name"] for row in db[MIGRATIONS_TABLE].rows_where(order_by="position")]


def apply_migrations(db: sqlite_utils.Database, migrations: list[Migration] | None = None) -> list[str]:
    """Run the migrations this vault lacks, in order; return the names applied now.

    A vault that records a migration this code does not know was written by a newer
    Chartside: refuse it rather than guess.
    """
    migrations = MIGRATIONS if migrations is None else migrations
    known = [name for name, _ in migrations]
    with db.atomic():
        if MIGRATIONS_TABLE not in db.table_names():
            db[MIGRATIONS_TABLE].create(
                {"name": str, "position": int, "applied_at": str}, pk="name", not_null={"position", "applied_at"}
            )
    done = applied_migrations(db)
    unknown = [name for name in done if name not in known]
    if unknown or done != known[: len(done)]:
        raise VaultError(
            f"vault schema {done} does not match this version's migrations",
            user_message="The patient store was written by a newer or different Chartside version.",
        )
    newly_applied = []
    for position, (name, migrate) in enumerate(migrations, start=1):
        if name in done:
            continue
        with db.atomic():
            migrate(db)
            db[MIGRATIONS_TABLE].insert(
                {"name": name, "position": position, "applied_at": datetime.now(timezone.utc).isoformat()}
            )
        newly_applied.append(name)
    return newly_applied
