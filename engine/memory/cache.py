"""The response cache table, inside the encrypted vault (answers can quote a patient).

The table's one owner: nothing else reads or writes `response_cache` with SQL.
- `CacheTable(vault)`; `put(key, query, response, embedding=None,
  profile_fingerprint=None, patient_id=None, ttl_seconds=None) -> entry id`.
  `profile_fingerprint=None` marks a profile-independent answer (valid for anyone);
  otherwise the entry is valid only while `ProfileStore.fingerprint(patient)` is equal.
- `get(key, profile_fingerprint=None)` -> the newest valid entry with that exact key.
- `similar(embedding, profile_fingerprint=None, threshold=None, limit=5)` -> valid
  entries with cosine ≥ threshold (default `settings.cache.similarity_threshold`), best
  first, each with `similarity`. Similarity is necessary, not sufficient: the caller
  still compares concepts, numbers and negations.
- `purge_expired()`, `clear(patient_id=None)`.
Expired entries are never returned; beyond `settings.cache.max_entries` the least
recently used are evicted. Hits update `last_used_at` and `hits`.

- `load()`, `save(record)`, `delete(entry_id)`: the persistence interface
  (`engine.agent.cache.CacheStore`) of the agent's guarded `engine.agent.cache.ResponseCache`,
  which keeps the entries in memory and writes new ones here.
"""

from __future__ import annotations

from datetime import datetime, timedelta

import numpy as np

from engine.memory import jsoncols, vectors
from engine.memory.store import Vault, fetch_rows, insert_row


class CacheTable:
    def __init__(self, vault: Vault):
        self.vault = vault
        self.settings = vault.settings.cache

    def put(
        self,
        key: str,
        query: str,
        response: dict,
        embedding: np.ndarray | None = None,
        profile_fingerprint: str | None = None,
        patient_id: int | None = None,
        ttl_seconds: int | None = None,
    ) -> int:
        now = self.vault.clock()
        ttl = ttl_seconds if ttl_seconds is not None else self.settings.ttl_seconds
        vector = None if embedding is None else vectors.normalise(embedding)
        with self.vault.transaction() as db:
            entry_id = insert_row(
                db,
                "response_cache",
                {
                    "key": key,
                    "query": query,
                    "embedding": None if vector is None else vectors.to_blob(vector),
                    "dimension": None if vector is None else int(vector.size),
                    "profile_fingerprint": profile_fingerprint,
                    "patient_id": patient_id,
                    "response": jsoncols.dumps(response),
                    "created_at": jsoncols.to_text(now),
                    "expires_at": jsoncols.to_text(now + timedelta(seconds=ttl)),
                    "last_used_at": jsoncols.to_text(now),
                    "hits": 0,
                },
            )
            self._evict(db)
        return entry_id

    def get(self, key: str, profile_fingerprint: str | None = None) -> dict | None:
        where, args = self._valid_where(profile_fingerprint)
        rows = fetch_rows(
            self.vault.db,
            f"select * from response_cache where key = ? and {where} order by id desc limit 1",
            [key, *args],
        )
        if not rows:
            return None
        self._touch(rows[0]["id"])
        return _decode(rows[0])

    def similar(
        self,
        embedding: np.ndarray,
        profile_fingerprint: str | None = None,
        threshold: float | None = None,
        limit: int = 5,
    ) -> list[dict]:
        threshold = self.settings.similarity_threshold if threshold is None else threshold
        where, args = self._valid_where(profile_fingerprint)
        rows = fetch_rows(self.vault.db, f"select * from response_cache where embedding is not null and {where}", args)
        query = vectors.normalise(embedding)
        rows = [r for r in rows if r["dimension"] == query.size]
        if not rows:
            return []
        matrix = np.stack([vectors.from_blob(r["embedding"], r["dimension"]) for r in rows])
        scores = vectors.cosine_scores(query, matrix)
        ranked = sorted(
            ({**_decode(r), "similarity": float(s)} for r, s in zip(rows, scores) if s >= threshold),
            key=lambda e: -e["similarity"],
        )[:limit]
        if ranked:
            self._touch(ranked[0]["id"])
        return ranked

    def purge_expired(self, now: datetime | None = None) -> int:
        moment = jsoncols.to_text(now or self.vault.clock())
        with self.vault.transaction() as db:
            return db.execute("delete from response_cache where expires_at <= ?", [moment]).rowcount

    def clear(self, patient_id: int | None = None) -> int:
        with self.vault.transaction() as db:
            if patient_id is None:
                return db.execute("delete from response_cache").rowcount
            return db.execute("delete from response_cache where patient_id = ?", [patient_id]).rowcount

    def count(self) -> int:
        return self.vault.db["response_cache"].count

    def load(self) -> list[dict]:
        """Every unexpired guarded-cache record (those with an embedding and a signature),
        oldest first, each with its `vector`."""
        self.purge_expired()
        rows = fetch_rows(self.vault.db, "select * from response_cache where embedding is not null order by id")
        records = []
        for row in rows:
            record = jsoncols.loads(row["response"], {})
            if "signature" not in record:
                continue
            record["vector"] = np.frombuffer(row["embedding"], dtype=np.float32).copy()
            records.append(record)
        return records

    def save(self, record: dict) -> None:
        """Store one guarded-cache record, tagged with the patient whose turn asked it, so
        that deleting the patient deletes it."""
        payload = {k: v for k, v in record.items() if k != "vector"}
        vector = record["vector"]
        if isinstance(vector, (bytes, bytearray)):
            vector = np.frombuffer(vector, dtype=np.float32)
        self.put(record["id"], record["query"], payload, embedding=vector,
                 profile_fingerprint=record["profile_fingerprint"] or None, patient_id=record.get("patient_id"))

    def delete(self, entry_id: str) -> None:
        with self.vault.transaction() as db:
            db.execute("delete from response_cache where key = ?", [entry_id])

    def _valid_where(self, fingerprint: str | None) -> tuple[str, list]:
        now = jsoncols.to_text(self.vault.clock())
        if fingerprint is None:
            return "expires_at > ? and profile_fingerprint is null", [now]
        return "expires_at > ? and (profile_fingerprint is null or profile_fingerprint = ?)", [now, fingerprint]

    def _touch(self, entry_id: int) -> None:
        with self.vault.transaction() as db:
            db.execute(
                "update response_cache set hits = hits + 1, last_used_at = ? where id = ?",
                [self.vault.now_text(), entry_id],
            )

    def _evict(self, db) -> None:
        excess = db["response_cache"].count - self.settings.max_entries
        if excess > 0:
            db.execute(
                "delete from response_cache where id in "
                "(select id from response_cache order by last_used_at, id limit ?)",
                [excess],
            )


def _decode(row: dict) -> dict:
    return {
        "id": row["id"],
        "key": row["key"],
        "query": row["query"],
        "response": jsoncols.loads(row["response"], {}),
        "profile_fingerprint": row["profile_fingerprint"],
        "patient_id": row["patient_id"],
        "created_at": row["created_at"],
        "expires_at": row["expires_at"],
        "hits": row["hits"],
    }
