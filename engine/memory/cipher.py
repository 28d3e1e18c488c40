"""Opening an SQLCipher file safely: key first, prove the key, only then touch anything.

The order matters for the "wrong passphrase changes nothing" promise: until the key has
decrypted page 1 (`SELECT count(*) FROM sqlite_master`), no pragma that could write
(journal mode, migrations) runs, so a wrong passphrase leaves the file byte-identical
and creates no `-wal`/`-shm` files. SQLCipher cannot tell a wrong passphrase from a file
that is not a vault at all; both surface as `WrongPassphrase`.

`cipher_memory_security` is switched on before the key (process-wide; SQLCipher cannot
switch it off again): every buffer SQLite frees, decrypted pages included, is overwritten
first, so closing the vault (locking) leaves no decrypted page in freed memory, and
buffers are `mlock`ed out of swap where the OS allows (best effort). It costs about 2 ms
of CPU per profile update and makes VACUUM about 3x slower (docs/SECURITY.md §1 has the
measurements). Python's own copies of rows are not covered. The vault file and its
`-wal`/`-shm` are owner-only (0600).

Cipher defaults are SQLCipher 4's: PBKDF2-HMAC-SHA512 (iterations from settings,
256,000 by default), HMAC-SHA512 on every page, 4 KiB pages. `kdf_iter` is not stored
in the file, so a vault opens only with the iteration count it was created with.
"""

from __future__ import annotations

from pathlib import Path

import sqlcipher3
from sqlcipher3 import dbapi2

from engine.errors import InputError, VaultError, WrongPassphrase
from engine.paths import private_file, restrict_to_owner

DatabaseError = dbapi2.DatabaseError
OperationalError = dbapi2.OperationalError


def quote_literal(text: str) -> str:
    """A SQL string literal; PRAGMA key accepts no bound parameters."""
    return "'" + text.replace("'", "''") + "'"


def check_passphrase(passphrase: str) -> None:
    """SQLCipher treats an empty key as "no encryption": refuse it outright."""
    if not isinstance(passphrase, str) or passphrase == "":
        raise InputError("empty passphrase", user_message="The passphrase must not be empty.")
    if "\x00" in passphrase:
        raise InputError("NUL in passphrase", user_message="The passphrase contains an invalid character.")


def connect(path: Path, passphrase: str, *, kdf_iterations: int, synchronous: str, create: bool) -> dbapi2.Connection:
    """Open (or create) the encrypted file and return a keyed, verified connection."""
    check_passphrase(passphrase)
    exists = path.exists() and path.stat().st_size > 0
    if not exists and not create:
        raise VaultError(f"no vault at {path}", user_message="No encrypted patient store exists yet.")
    if not exists:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        private_file(path)
    conn = sqlcipher3.connect(str(path), check_same_thread=False)
    try:
        conn.execute("PRAGMA cipher_log_level = NONE")
        conn.execute("PRAGMA cipher_memory_security = ON")
        conn.execute(f"PRAGMA key = {quote_literal(passphrase)}")
        conn.execute(f"PRAGMA kdf_iter = {int(kdf_iterations)}")
        try:
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        except DatabaseError as exc:
            raise WrongPassphrase(f"cannot decrypt {path.name}: {exc}") from None
        _restrict_vault_files(path)
        _apply_runtime_pragmas(conn, synchronous)
        problems = integrity_problems(conn)
        if problems:
            raise VaultError(f"cipher_integrity_check failed: {problems[:3]}")
        return conn
    except BaseException:
        conn.close()
        raise


def _restrict_vault_files(path: Path) -> None:
    """Make the vault and any WAL files owner-only (0600), once the key is proven (so a wrong
    passphrase changes nothing). SQLite creates `-wal` and `-shm` later with the main
    file's mode; this also tightens vaults and leftovers made before Chartside did so."""
    for suffix in ("", "-wal", "-shm"):
        member = path.with_name(path.name + suffix)
        if member.exists():
            restrict_to_owner(member)


def _apply_runtime_pragmas(conn: dbapi2.Connection, synchronous: str) -> None:
    """Pragmas that hold for this connection. temp_store=MEMORY keeps sort/VACUUM temp
    data out of the temp directory; secure_delete zeroes freed pages."""
    conn.execute("PRAGMA temp_store = MEMORY")
    conn.execute("PRAGMA secure_delete = ON")
    conn.execute("PRAGMA foreign_keys = ON")
    conn.execute("PRAGMA busy_timeout = 5000")
    mode = conn.execute("PRAGMA journal_mode = WAL").fetchone()[0]
    if str(mode).lower() != "wal":
        raise VaultError(f"could not switch the vault to WAL (got {mode})")
    conn.execute(f"PRAGMA synchronous = {'FULL' if synchronous == 'FULL' else 'NORMAL'}")


def integrity_problems(conn: dbapi2.Connection) -> list[str]:
    """Rows reported by `PRAGMA cipher_integrity_check` (HMAC of every page); [] = intact."""
    return [str(row[0]) for row in conn.execute("PRAGMA cipher_integrity_check").fetchall()]


def rekey(conn: dbapi2.Connection, new_passphrase: str) -> None:
    check_passphrase(new_passphrase)
    conn.execute(f"PRAGMA rekey = {quote_literal(new_passphrase)}")
