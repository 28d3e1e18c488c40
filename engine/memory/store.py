"""The encrypted patient store ("vault"): one SQLCipher file, queried through sqlite-utils.

Interface used by the agent, GUI and CLI:

- `Vault.open(path, passphrase, create=False, settings=None) -> Vault` — decrypts (KDF
  included), runs `cipher_integrity_check`, applies missing migrations, audits
  `vault.open` (or `vault.create`). A wrong passphrase raises `WrongPassphrase` and leaves
  the file byte-identical. `default_vault_path()` is `data_dir() / "vault.db"`.
  `close()`, `rekey(new)`, `lock()` / `unlock(passphrase)` (idle lock), context manager.
- Patients: `create_patient`, `list_patients`, `get_patient`, `view_patient` (audited),
  `rename_patient`, `delete_patient` (every row of the patient, then VACUUM and a WAL
  truncate; the audit log keeps the opaque id and no content).
- Sessions: `create_session`, `list_sessions`, `get_session`, `latest_session`.
- Turns: `add_turn(session_id, user_text, answer, sources, alerts, trace) -> turn_id`, or
  `start_turn` + `finish_turn` when the profile must reference the turn before the answer
  exists; `list_turns`, `get_turn`.
- `audit(event, patient_id=None, detail=None)`: append-only (triggers refuse UPDATE and
  DELETE). Details carry ids, slot names and counts, never patient text, so they stay
  valid after the patient is deleted. `audit_log(patient_id, event, last)` reads it.
- `export_patient(patient_id, path, fmt)` ("json" or "markdown"), audited.

Every write runs inside `transaction()` (a lock plus one SQLite transaction), so a commit
that returned is durable (WAL, synchronous=FULL by default) and a crash never leaves half
a turn. `CHARTSIDE_PASSPHRASE` is read by the CLI and the facade, never here.
"""

from __future__ import annotations

import contextlib
import threading
from datetime import datetime
from pathlib import Path
from typing import Any, Callable, Iterator, Sequence

import sqlite_utils

from engine.errors import VaultError
from engine.memory import cipher, jsoncols
from engine.memory.migrations import applied_migrations, apply_migrations
from engine.settings import Settings, data_dir, default_vault_path, load_settings


# Tables holding rows of one patient, in deletion order (children before parents).
PATIENT_TABLES = (
    "safety_events",
    "response_cache",
    "memory_embeddings",
    "memory_summaries",
    "fact_mentions",
    "profile_facts",
    "turns",
    "sessions",
    "patients",
)


class Vault:
    """An open, decrypted vault. Create it with `Vault.open`."""

    def __init__(self, path: Path, conn, settings: Settings, clock: Callable[[], datetime] = jsoncols.utc_now):
        self.path = path
        self.settings = settings
        self.clock = clock
        self._lock = threading.RLock()
        self._db: sqlite_utils.Database | None = None
        self._attach(conn)

    # ----------------------------------------------------------------- opening
    @classmethod
    def open(cls, path: Path | str, passphrase: str, create: bool = False, settings: Settings | None = None) -> "Vault":
        """Open the vault at `path`; with `create=True` a missing vault is created."""
        path = Path(path)
        settings = settings or load_settings()
        existed = path.exists() and path.stat().st_size > 0
        conn = cls._connect(path, passphrase, settings, create)
        vault = cls(path, conn, settings)
        try:
            vault._migrate()
            vault.audit("vault.open" if existed else "vault.create")
        except BaseException:
            vault.close()
            raise
        return vault

    @staticmethod
    def _connect(path: Path, passphrase: str, settings: Settings, create: bool):
        return cipher.connect(
            path,
            passphrase,
            kdf_iterations=settings.vault.kdf_iterations,
            synchronous=settings.vault.synchronous,
            create=create,
        )

    def _attach(self, conn) -> None:
        self._db = sqlite_utils.Database(conn, execute_plugins=False)

    def _migrate(self) -> list[str]:
        with self._lock:
            return apply_migrations(self.db)

    @property
    def db(self) -> sqlite_utils.Database:
        if self._db is None:
            raise VaultError("the vault is locked or closed", user_message="The patient store is locked.")
        return self._db

    @property
    def is_open(self) -> bool:
        return self._db is not None

    def migrations(self) -> list[str]:
        """Names of the migrations recorded in this vault, in order."""
        return applied_migrations(self.db)

    def integrity_problems(self) -> list[str]:
        with self._lock:
            return cipher.integrity_problems(self.db.conn)

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                self._db.conn.close()
                self._db = None

    def lock(self) -> None:
        """Audit `vault.lock`, then drop the decrypted connection (even if the audit row
        could not be written); `unlock` needs the passphrase again."""
        try:
            if self.is_open:
                self.audit("vault.lock")
        finally:
            self.close()

    def unlock(self, passphrase: str) -> None:
        with self._lock:
            if self.is_open:
                return
            self._attach(self._connect(self.path, passphrase, self.settings, create=False))
        self.audit("vault.unlock")

    def rekey(self, new_passphrase: str) -> None:
        """Change the passphrase (re-encrypts every page in place, WAL included)."""
        with self._lock:
            self.db.conn.commit()
            cipher.rekey(self.db.conn, new_passphrase)
        self.audit("vault.rekey")

    def __enter__(self) -> "Vault":
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()

    @contextlib.contextmanager
    def transaction(self) -> Iterator[sqlite_utils.Database]:
        """One SQLite transaction under the vault lock (nested calls use savepoints)."""
        with self._lock:
            with self.db.atomic():
                yield self.db

    def now_text(self) -> str:
        return jsoncols.to_text(self.clock())

    # ------------------------------------------------------------------- audit
    def audit(self, event: str, patient_id: int | None = None, detail: dict | None = None) -> int:
        """Append one audit row. `detail` must hold ids and counts only, never patient text."""
        with self.transaction() as db:
            detail_text = jsoncols.dumps(detail or {})
            row = {"at": self.now_text(), "event": event, "patient_id": patient_id, "detail": detail_text}
            return insert_row(db, "audit_log", row)

    def audit_log(self, patient_id: int | None = None, event: str | None = None,
                  last: int | None = None) -> list[dict]:
        """Audit rows, oldest first (`last=n`: only the n most recent)."""
        where, args = [], []
        if patient_id is not None:
            where.append("patient_id = ?")
            args.append(patient_id)
        if event is not None:
            where.append("event = ?")
            args.append(event)
        rows = list(self.db["audit_log"].rows_where(" and ".join(where) or None, args, order_by="id desc",
                                                    limit=None if last is None else int(last)))
        return [{**row, "detail": jsoncols.loads(row["detail"], {})} for row in reversed(rows)]

    # ---------------------------------------------------------------- patients
    def create_patient(self, display_name: str) -> int:
        name = _required_text(display_name, "display name")
        with self.transaction() as db:
            now = self.now_text()
            patient_id = insert_row(db, "patients", {"display_name": name, "created_at": now, "updated_at": now})
            self.audit("patient.create", patient_id)
        return patient_id

    def list_patients(self) -> list[dict]:
        return list(self.db["patients"].rows_where(order_by="display_name collate nocase, id"))

    def get_patient(self, patient_id: int) -> dict:
        rows = fetch_rows(self.db, "select * from patients where id = ?", [patient_id])
        if not rows:
            raise VaultError(f"no patient {patient_id}", user_message="That patient does not exist.")
        return rows[0]

    def view_patient(self, patient_id: int) -> dict:
        """The patient row with its sessions, for display; audited as a view."""
        patient = {**self.get_patient(patient_id), "sessions": self.list_sessions(patient_id)}
        self.audit("patient.view", patient_id)
        return patient

    def rename_patient(self, patient_id: int, display_name: str) -> None:
        name = _required_text(display_name, "display name")
        with self.transaction() as db:
            self.get_patient(patient_id)
            update_row(db, "patients", patient_id, {"display_name": name, "updated_at": self.now_text()})
            self.audit("patient.rename", patient_id)

    def touch_patient(self, patient_id: int) -> None:
        with self.transaction() as db:
            update_row(db, "patients", patient_id, {"updated_at": self.now_text()})

    def delete_patient(self, patient_id: int) -> dict[str, int]:
        """Remove every row of the patient, then VACUUM and truncate the WAL so no freed
        page keeps old (encrypted) content around. Returns rows deleted per table."""
        with self._lock:
            counts: dict[str, int] = {}
            with self.transaction() as db:
                self.get_patient(patient_id)
                fact_ids = "select id from profile_facts where patient_id = ?"
                counts["fact_mentions"] = db.execute(
                    f"delete from fact_mentions where fact_id in ({fact_ids})", [patient_id]
                ).rowcount
                for table in PATIENT_TABLES:
                    if table == "fact_mentions":
                        continue
                    column = "id" if table == "patients" else "patient_id"
                    counts[table] = db.execute(f"delete from {table} where {column} = ?", [patient_id]).rowcount
                self.audit("patient.delete", patient_id, {"rows": counts})
            self.db.execute("VACUUM")
            self.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            return counts

    # ---------------------------------------------------------------- sessions
    def create_session(self, patient_id: int, title: str | None = None) -> int:
        with self.transaction() as db:
            self.get_patient(patient_id)
            now = self.now_text()
            session_id = insert_row(
                db, "sessions", {"patient_id": patient_id, "title": title, "created_at": now, "updated_at": now}
            )
            self.audit("session.create", patient_id, {"session_id": session_id})
        return session_id

    def rename_session(self, session_id: int, title: str) -> None:
        """Give a conversation a title (the app names it after its first question)."""
        text = _required_text(title, "title")
        with self.transaction() as db:
            session = self.get_session(session_id)
            update_row(db, "sessions", session_id, {"title": text, "updated_at": self.now_text()})
            self.audit("session.rename", session["patient_id"], {"session_id": session_id})

    def list_sessions(self, patient_id: int) -> list[dict]:
        return list(self.db["sessions"].rows_where("patient_id = ?", [patient_id], order_by="id"))

    def get_session(self, session_id: int) -> dict:
        rows = fetch_rows(self.db, "select * from sessions where id = ?", [session_id])
        if not rows:
            raise VaultError(f"no session {session_id}", user_message="That conversation does not exist.")
        return rows[0]

    def latest_session(self, patient_id: int) -> dict | None:
        rows = list(self.db["sessions"].rows_where("patient_id = ?", [patient_id], order_by="id desc", limit=1))
        return rows[0] if rows else None

    # ------------------------------------------------------------------- turns
    def add_turn(
        self,
        session_id: int,
        user_text: str,
        answer: str,
        sources: Sequence[dict] = (),
        alerts: Sequence[dict] = (),
        trace: dict | None = None,
    ) -> int:
        """Store one complete turn in one transaction and return its id."""
        with self.transaction():
            turn_id = self.start_turn(session_id, user_text)
            self.finish_turn(turn_id, answer, sources, alerts, trace)
        return turn_id

    def start_turn(self, session_id: int, user_text: str) -> int:
        """Record the user's message before the answer exists (answer stays NULL)."""
        with self.transaction() as db:
            session = self.get_session(session_id)
            position = db.execute(
                "select coalesce(max(position), 0) + 1 from turns where session_id = ?", [session_id]
            ).fetchone()[0]
            now = self.now_text()
            turn_id = insert_row(
                db,
                "turns",
                {
                    "session_id": session_id,
                    "patient_id": session["patient_id"],
                    "position": position,
                    "user_text": user_text,
                    "created_at": now,
                },
            )
            self.audit("turn.add", session["patient_id"], {"session_id": session_id, "turn_id": turn_id})
            update_row(db, "sessions", session_id, {"updated_at": now})
            update_row(db, "patients", session["patient_id"], {"updated_at": now})
        return turn_id

    def finish_turn(
        self,
        turn_id: int,
        answer: str,
        sources: Sequence[dict] = (),
        alerts: Sequence[dict] = (),
        trace: dict | None = None,
    ) -> None:
        """Store the answer; an emergency alert is also recorded as a safety event of the
        patient (the alert, when, and what was shown, stopped or not)."""
        with self.transaction() as db:
            turn = self.get_turn(turn_id)
            finished = self.now_text()
            update_row(
                db,
                "turns",
                turn_id,
                {
                    "answer": answer,
                    "sources": jsoncols.dumps(list(sources)),
                    "alerts": jsoncols.dumps(list(alerts)),
                    "trace": jsoncols.dumps(trace or {}),
                    "finished_at": finished,
                },
            )
            for alert in alerts:
                if alert.get("kind") == "emergency":
                    insert_row(db, "safety_events", {
                        "patient_id": turn["patient_id"], "session_id": turn["session_id"], "turn_id": turn_id,
                        "kind": "emergency", "category": alert.get("category"), "message": alert.get("message", ""),
                        "shown": answer, "stopped": int(bool((trace or {}).get("cancelled"))), "created_at": finished})
                    self.audit("safety.emergency", turn["patient_id"], {"turn_id": turn_id,
                                                                         "category": alert.get("category")})

    def safety_events(self, patient_id: int) -> list[dict]:
        """The patient's recorded emergency alerts, oldest first."""
        return [{**row, "stopped": bool(row["stopped"])}
                for row in fetch_rows(self.db, "select * from safety_events where patient_id = ? order by id",
                                      [patient_id])]

    def get_turn(self, turn_id: int) -> dict:
        rows = fetch_rows(self.db, "select * from turns where id = ?", [turn_id])
        if not rows:
            raise VaultError(f"no turn {turn_id}")
        return _decode_turn(rows[0])

    def list_turns(
        self, session_id: int | None = None, patient_id: int | None = None, last: int | None = None
    ) -> list[dict]:
        """Turns of a session (or of every session of a patient), oldest first;
        `last=n` returns only the n most recent."""
        if (session_id is None) == (patient_id is None):
            raise ValueError("give exactly one of session_id or patient_id")
        column, value = ("session_id", session_id) if session_id is not None else ("patient_id", patient_id)
        limit = "" if last is None else f" limit {int(last)}"
        rows = fetch_rows(self.db, f"select * from turns where {column} = ? order by id desc{limit}", [value])
        return [_decode_turn(row) for row in reversed(rows)]

    def count_turns(self, session_id: int, finished_only: bool = True) -> int:
        extra = " and finished_at is not null" if finished_only else ""
        return self.db.execute(f"select count(*) from turns where session_id = ?{extra}", [session_id]).fetchone()[0]


def _decode_turn(row: dict[str, Any]) -> dict[str, Any]:
    return {
        **row,
        "sources": jsoncols.loads(row.get("sources"), []),
        "alerts": jsoncols.loads(row.get("alerts"), []),
        "trace": jsoncols.loads(row.get("trace"), {}),
    }


def _required_text(value: str, what: str) -> str:
    text = (value or "").strip()
    if not text:
        raise VaultError(f"empty {what}", user_message=f"The {what} must not be empty.")
    return text


def insert_row(db: sqlite_utils.Database, table: str, row: dict[str, Any]) -> int:
    """A plain INSERT through `db.execute`: sqlite-utils' `insert` introspects the table
    (several PRAGMAs and a savepoint per call), which costs milliseconds on hot paths.
    Table and column names are code constants, never user input."""
    columns = ", ".join(row)
    marks = ", ".join("?" for _ in row)
    return int(db.execute(f"insert into {table} ({columns}) values ({marks})", list(row.values())).lastrowid)


def update_row(db: sqlite_utils.Database, table: str, row_id: int, values: dict[str, Any]) -> None:
    assignments = ", ".join(f"{column} = ?" for column in values)
    db.execute(f"update {table} set {assignments} where id = ?", [*values.values(), row_id])


def fetch_rows(db: sqlite_utils.Database, sql: str, params: Sequence[Any] = ()) -> list[dict[str, Any]]:
    """Rows as dicts via `db.execute` (no savepoint or table check, unlike `db.query`)."""
    cursor = db.execute(sql, list(params))
    names = [column[0] for column in cursor.description]
    return [dict(zip(names, row)) for row in cursor.fetchall()]
