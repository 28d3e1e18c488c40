"""Acceptance: after a scripted 20-turn conversation mentioning a made-up patient name and
a made-up drug, neither string appears in any file under CHARTSIDE_HOME, the temp
directory or the logs (byte search, WAL and -shm included, while the vault is open and
after it closed), nor in the process's output; both are still readable through the engine.

The conversation runs in a child process whose TMPDIR is a fresh folder, so "the temp
directory" is exactly the one the engine and its libraries (torch, sentence-transformers,
SQLite) would use. The strings are random per run, so they exist nowhere else.
"""

from __future__ import annotations

import json
import os
import secrets
import string
import subprocess
import sys
from pathlib import Path

from engine.memory.profile import ProfileStore
from engine.memory.store import Vault, default_vault_path
from engine.settings import Settings

REPO = Path(__file__).resolve().parents[3]


def made_up(prefix: str) -> str:
    return prefix + "".join(secrets.choice(string.ascii_lowercase) for _ in range(8))


def encodings(text: str) -> list[bytes]:
    variants = {text, text.lower(), text.upper(), text.casefold()}
    return [v.encode(codec) for v in variants for codec in ("utf-8", "utf-16-le", "utf-16-be")]


def files_containing(root: Path, needles: list[bytes]) -> list[str]:
    hits, scanned = [], 0
    for path in root.rglob("*"):
        if path.is_file() and not path.is_symlink():
            scanned += 1
            data = path.read_bytes()
            hits += [str(path) for needle in needles if needle in data]
    assert scanned > 0
    return hits


def test_canary_strings_never_reach_plain_files(tmp_path, chartside_home):
    name, drug = made_up("Quillaby Zentravox "), made_up("Morvexaline")
    passphrase, new_passphrase = secrets.token_urlsafe(12), secrets.token_urlsafe(12)
    temp_dir = tmp_path / "tmp"
    temp_dir.mkdir()
    env = {**os.environ, "CHARTSIDE_HOME": str(chartside_home), "TMPDIR": str(temp_dir), "TMP": str(temp_dir),
           "TEMP": str(temp_dir), "PYTHONPATH": str(REPO)}
    env.pop("CHARTSIDE_PASSPHRASE", None)
    child = subprocess.Popen(
        [sys.executable, "-m", "tests.engine.memory.canary_conversation"],
        cwd=REPO, env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    request = {"name": name, "drug": drug, "passphrase": passphrase, "new_passphrase": new_passphrase}
    child.stdin.write((json.dumps(request) + "\n").encode())
    child.stdin.flush()
    first = child.stdout.readline()
    needles = encodings(name) + encodings(drug) + encodings(name.split()[1])

    assert first == b"PAUSE\n", child.stderr.read().decode(errors="replace")[-3000:]
    assert (chartside_home / "vault.db-wal").exists()  # the live WAL is part of the scan
    assert files_containing(tmp_path, needles) == []
    child.stdin.write(b"\n")
    child.stdin.flush()
    out, err = child.communicate(timeout=120)
    assert child.returncode == 0, err.decode(errors="replace")[-3000:]
    assert out.strip() == b"DONE"

    assert (chartside_home / "logs" / "chartside.log").stat().st_size > 0
    assert files_containing(tmp_path, needles) == []
    assert not any(needle in out + err for needle in needles)

    with Vault.open(default_vault_path(), new_passphrase, settings=Settings()) as vault:
        [patient] = [p for p in vault.list_patients() if p["display_name"] == name]
        turns = vault.list_turns(patient_id=patient["id"])
        assert len(turns) == 20
        assert name in turns[0]["user_text"] and drug in turns[1]["user_text"]
        medications = ProfileStore(vault).profile(patient["id"])["medications"]
        assert [m["name"] for m in medications] == [drug]
        assert len(vault.list_patients()) == 1  # the duplicate record was deleted
