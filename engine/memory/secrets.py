"""Named secrets inside the encrypted vault (the model server's bearer token).

A secret is never written to settings, logs or the audit detail; the audit log records
only that a named secret was set or removed.
"""

from __future__ import annotations

from engine.memory.store import Vault

REMOTE_TOKEN = "remote.bearer_token"


class SecretStore:
    def __init__(self, vault: Vault):
        self.vault = vault

    def get(self, name: str) -> str | None:
        rows = list(self.vault.db["secrets"].rows_where("name = ?", [name]))
        return rows[0]["value"] if rows else None

    def set(self, name: str, value: str) -> None:
        with self.vault.transaction() as db:
            db["secrets"].upsert({"name": name, "value": value, "updated_at": self.vault.now_text()}, pk="name")
        self.vault.audit("secret.set", None, {"name": name})

    def delete(self, name: str) -> bool:
        with self.vault.transaction() as db:
            removed = db.execute("DELETE FROM secrets WHERE name = ?", [name]).rowcount > 0
        if removed:
            self.vault.audit("secret.delete", None, {"name": name})
        return removed
