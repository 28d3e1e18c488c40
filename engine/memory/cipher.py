"""Opening an SQLCipher file safely: key first, prove the key, only then touch anything.

The order matters for the "wrong passphrase changes nothing" promise: until the key has
decrypted page 1 (`SELECT count(*) FROM sqlite_master`), no pragma that could write
(journal mode, migrations) runs, so a wrong passphrase leaves the file byte-identical
and creates no `-wal`/`-shm` files. SQLCipher cannot tell a wrong passphrase from a file
that is not a vault at all; both surface as `WrongPassphrase`.

Cipher defaults are SQLCipher 4's: PBKDF2-HMAC-SHA512 (iterations from settings,
256,000 by default), HMAC-SHA512 on every page, 4 KiB pages. `kdf_iter` is not stored
in the file, so a vault opens only with the iteration count it was created with.
"""

from __future__ import annotations

from pathlib import Path

import sqlcipher3
from sqlcipher3 import dbapi2

from engine.errors import InputError, VaultError, WrongPassphrase

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
        path.parent.mkdir(parents=True, exist_ok=True)
    conn = sqlcipher3.connect(str(path), check_same_thread=False)
    try:
        conn.execute("PRAGMA cipher_log_level = NONE")
        conn.execute(f"PRAGMA key = {quote_literal(passphrase)}")
        conn.execute(f"PRAGMA kdf_iter = {int(kdf_iterations)}")
        try:
            conn.execute("SELECT count(*) FROM sqlite_master").fetchone()
        except DatabaseError as exc:
            raise WrongPassphrase(f"cannot decrypt {path.name}: {exc}") from None
        _apply_runtime_pragmas(conn, synchronous)
        problems = integrity_problems(conn)
        if problems:
            raise VaultError(f"cipher_integrity_check failed: {problems[:3]}")
        return conn
    except BaseException:
        conn.close()
        raise


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
