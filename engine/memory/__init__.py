"""Encrypted patient store and memory.

- `engine.memory.store`: `Vault` — the SQLCipher file (via sqlcipher3, queried through
  sqlite-utils): patients, sessions, turns, audit log, export/delete, migrations.
- `engine.memory.profile`: `ProfileStore` — clinical facts with provenance, status and
  temporal weight; summary and fingerprint.
- `engine.memory.hierarchy`: `HierarchicalMemory` — working / compressed / semantic tiers.
- `engine.memory.cache`: `CacheTable` — the response cache table (the guarded cache's store).
- `engine.memory.export`: JSON / Markdown export of one patient.

Nothing in this package writes patient-derived data anywhere but the encrypted file,
except an export the user explicitly asks for.
"""
