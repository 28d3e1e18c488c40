"""sqlcipher3's C extension is imported from `dbapi2`; name it so it is never missed."""

hiddenimports = ["sqlcipher3.dbapi2", "sqlcipher3._sqlite3"]
