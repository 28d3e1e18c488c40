"""Acceptance: patient data never leaves the vault, through the whole product.

A child process (tests/reliability/phi_canary_session.py) runs a clinic session with the
real GGUF model writing the answers (prompts carrying the canaries go through llama.cpp),
the real MedCAT pack, real retrieval on a copy of the installed knowledge
index, the response cache on (a cache hit included), every export format, and then the GUI
over a real Engine. Canaries, random per run: a patient name, a rare drug with a dose, a
Korean phrase (random Hangul syllables) and a phone-like number.

Then every file the run could have written outside the vault is searched for them in UTF-8,
UTF-16 (LE and BE), Hangul both composed (NFC) and decomposed (NFD), and case-folded:
the data folder (CHARTSIDE_HOME: vault included, logs, crash file, settings), the child's
HOME (so ~/.cache, ~/.config with any Qt or QSettings file, ~/.local), its TMPDIR,
XDG_CACHE_HOME / XDG_CONFIG_HOME / XDG_DATA_HOME, HF_HOME, TORCH_HOME, MEDCAT caches
(all pointed inside that fresh HOME), plus any file changed during the run under the
system temp folder, the repository and the Python environment; and the child's stdout and
stderr. The export folder is excluded: the exports are the user's deliberate output. They
are the positive control: the JSON and Markdown exports must contain the canaries, so the
search finds them where they are written.
"""

from __future__ import annotations

import json
import os
import random
import secrets
import shutil
import string
import subprocess
import sys
import tempfile
import time
import unicodedata
from pathlib import Path

import pytest

from engine.settings import Settings

REPO = Path(__file__).resolve().parents[2]
INSTALLED = Path(os.path.expanduser("~/.local/share/Chartside"))
SETTINGS = """[vault]
kdf_iterations = 10000

[llm]
max_answer_tokens = 24
n_ctx = 2048

[answer]
writer = "model"

[context]
total_budget = 1500
documents_tokens = 400
generation_reserve = 64
"""

pytestmark = [pytest.mark.real_model, pytest.mark.slow]


def make_canaries() -> dict[str, str]:
    letters = lambda n: "".join(secrets.choice(string.ascii_lowercase) for _ in range(n))  # noqa: E731
    rng = random.SystemRandom()
    hangul = "".join(chr(0xAC00 + rng.randrange(11172)) for _ in range(5))
    return {
        "name": f"Quillaby Zentr{letters(6)}",
        "drug": f"Morvex{letters(6)}",
        "dose": f"{rng.randrange(101, 999)}.{rng.randrange(1, 9)} mg",
        "korean": hangul,
        "phone": f"010-{rng.randrange(1000, 9999)}-{rng.randrange(1000, 9999)}",
    }


def needles(canaries: dict[str, str]) -> dict[bytes, str]:
    """Every byte form each canary could take in a file, mapped back to the canary's key."""
    forms: dict[bytes, str] = {}
    for key, text in canaries.items():
        parts = [text, text.split()[-1]] if key == "name" else [text]  # the surname alone is random
        for part in parts:
            for variant in {part, part.lower(), part.upper(), part.casefold(),
                            unicodedata.normalize("NFC", part), unicodedata.normalize("NFD", part)}:
                for codec in ("utf-8", "utf-16-le", "utf-16-be"):
                    forms[variant.encode(codec)] = key
    return forms


def scan(roots: list[Path], forms: dict[bytes, str], *, since: float | None = None,
         skip: tuple[Path, ...] = ()) -> tuple[list[str], int]:
    """(path: canary key) for every hit, and how many files were read. With `since`,
    only files changed after it."""
    hits, scanned = [], 0
    for root in roots:
        for folder, dirs, files in os.walk(root):
            if any(Path(folder).is_relative_to(s) for s in skip):
                dirs[:] = []
                continue
            dirs[:] = [d for d in dirs if not os.path.islink(os.path.join(folder, d))]
            for name in files:
                path = os.path.join(folder, name)
                try:
                    info = os.lstat(path)
                    if not os.path.isfile(path) or os.path.islink(path):
                        continue
                    if since is not None and max(info.st_mtime, info.st_ctime) < since:
                        continue
                    data = Path(path).read_bytes()
                except OSError:
                    continue  # removed meanwhile (another process's temp file)
                scanned += 1
                hits += [f"{path}: {key}" for form, key in forms.items() if form in data]
    return sorted(set(hits)), scanned


def test_canaries_reach_no_file_outside_the_vault_and_the_exports(tmp_path):
    if not (INSTALLED / "knowledge").is_dir() or not (INSTALLED / "clinical").is_dir():
        pytest.skip(f"no installed knowledge index and clinical pack under {INSTALLED}")
    canaries = make_canaries()
    forms = needles(canaries)
    home, user_home, temp_dir, exports = (tmp_path / name for name in ("data", "home", "tmp", "exports"))
    for folder in (home, user_home, temp_dir, exports):
        folder.mkdir()
    shutil.copytree(INSTALLED / "knowledge", home / "knowledge")
    shutil.copytree(INSTALLED / "clinical", home / "clinical")
    (home / "settings.toml").write_text(SETTINGS, encoding="utf-8")
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("XDG_", "HF_", "TORCH", "CHARTSIDE_", "MEDCAT"))}
    env.update({
        "CHARTSIDE_HOME": str(home), "HOME": str(user_home), "TMPDIR": str(temp_dir), "TMP": str(temp_dir),
        "TEMP": str(temp_dir), "XDG_CACHE_HOME": str(user_home / ".cache"),
        "XDG_CONFIG_HOME": str(user_home / ".config"), "XDG_DATA_HOME": str(user_home / ".local" / "share"),
        "XDG_RUNTIME_DIR": str(temp_dir), "HF_HOME": str(user_home / ".cache" / "huggingface"),
        "TORCH_HOME": str(user_home / ".cache" / "torch"), "QT_QPA_PLATFORM": "offscreen",
        "PYTHONPATH": str(REPO),
    })
    passphrase = secrets.token_urlsafe(12)
    started = time.time() - 1
    child = subprocess.run(
        [sys.executable, "-m", "tests.reliability.phi_canary_session"], cwd=REPO, env=env,
        input=(json.dumps({"canaries": canaries, "passphrase": passphrase, "exports": str(exports)}) + "\n").encode(),
        capture_output=True, timeout=1500)
    assert child.returncode == 0, child.stderr.decode(errors="replace")[-4000:]
    figures = json.loads(child.stdout.decode().strip().splitlines()[-1])
    print(f"\ncanary session: {json.dumps({k: v for k, v in figures.items() if k != 'exports'})}")

    assert figures["cache_hits"][4] is True  # the exact repeat came from the response cache
    assert figures["gui_answered"] is True
    assert figures["models"] and all(figures["models"]) and figures["llm_calls"] > 0  # the real model wrote
    assert figures["sources"] > 0 and figures["profile_facts"] > 0 and figures["service_notes"] == 0
    assert len(figures["exports"]) == 5
    control = (exports / "patient.json").read_bytes() + (exports / "conversation.md").read_bytes()
    assert {key for form, key in forms.items() if form in control} == set(canaries)

    inside, read = scan([home, user_home, temp_dir], forms)
    assert read > 0 and (home / "vault.db").exists() and (home / "logs" / "chartside.log").exists()
    assert inside == []
    changed, _ = scan([Path(tempfile.gettempdir()), REPO, Path(sys.prefix)], forms, since=started,
                      skip=(tmp_path,))
    assert changed == []
    print(f"canary scan: {read} files under the data folder, HOME and TMPDIR; "
          f"{len(changed)} hits among files changed elsewhere")
    assert not any(form in child.stdout + child.stderr for form in forms)
