"""A killed `chartside kb import` leaves the old index working (or the new one complete).

The real command runs as a child process over a real index (real MiniLM vectors, BM25,
FAISS, SQLite) and is SIGKILLed at random moments between the start of its verification
and its exit (the first as verification starts); after every kill the index must open as a reader opens it, agree with
itself, answer a query and be either the index before the import or the bundle's.
Each round starts again from the old index, so every kill tests that transition.
"""

from __future__ import annotations

import os
import random
import shutil
import subprocess
import sys
import time

import pytest

from engine.knowledge import IndexParams
from engine.knowledge.bundle import export_bundle
from engine.knowledge.store import STAGING_PREFIX
from engine.settings import Settings
from tests.reliability.conftest import default_kb
from tests.reliability.test_index_crash_safety import _Stderr, check_index, run_cli

ROUNDS = 8
MARKER = "verifying: 0/"


@pytest.mark.slow  # ten command runs: about a minute on this machine
@pytest.mark.real_model
def test_killed_kb_import_leaves_the_old_or_the_new_index(tmp_path, chartside_home, kb_template, minilm,
                                                           small_shared_data):
    params = IndexParams.from_settings(Settings())
    folder = chartside_home / "knowledge"
    shutil.copytree(kb_template, folder)
    old = check_index(folder, minilm, params)

    source = tmp_path / "desktop1" / "knowledge"
    shutil.copytree(kb_template, source)
    clinic = tmp_path / "protocols"
    clinic.mkdir()
    for n, topic in enumerate(("chest pain pathway", "asthma inhalers")):
        (clinic / f"protocol_{n}.txt").write_text(f"Clinic protocol on {topic}. " * 30, encoding="utf-8")
    kb = default_kb(source, minilm, small_shared_data).open(build=False)
    kb.add_files([clinic])
    bundle = tmp_path / "clinic.kbundle"
    export_bundle(kb, bundle)
    kb.close()
    new = check_index(source, minilm, params)
    assert new != old and new[1] == 2

    env = {**os.environ, "CHARTSIDE_HOME": str(chartside_home), "CHARTSIDE_SHARED_DATA": str(small_shared_data)}
    # How long an import takes from its first progress line to its exit, on a throwaway copy.
    spare = tmp_path / "spare_home"
    shutil.copytree(kb_template, spare / "knowledge")
    process = subprocess.Popen([sys.executable, "-m", "engine.cli", "kb", "import", str(bundle)],
                               env={**env, "CHARTSIDE_HOME": str(spare)}, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE)
    stderr = _Stderr(process)
    assert stderr.wait_for(MARKER, 120), stderr.text
    marked = time.monotonic()
    assert process.wait(120) == 0, stderr.text
    window = time.monotonic() - marked
    assert check_index(spare / "knowledge", minilm, params) == new

    seed = int.from_bytes(os.urandom(4), "big")
    rng = random.Random(seed)
    outcomes = {"old": 0, "new": 0}
    kills = 0
    for round_number in range(ROUNDS):
        # The first run is killed as verification starts, so that one kill at least is tested whatever the
        # machine's speed (a window measured on a cold first run can outlast every later run); the rest at random.
        delay = 0.0 if round_number == 0 else rng.uniform(0.0, window * 1.2)
        outcome = run_cli(["kb", "import", str(bundle)], env, kill_after=MARKER, delay=delay)
        kills += outcome == "killed"
        found = check_index(folder, minilm, params)
        assert found in (old, new), f"round {round_number}: killed {delay:.3f} s in: neither old nor new (seed {seed})"
        outcomes["old" if found == old else "new"] += 1
        shutil.rmtree(folder)
        shutil.copytree(kb_template, folder)

    run_cli(["kb", "import", str(bundle)], env)
    assert check_index(folder, minilm, params) == new
    assert not list(folder.glob(STAGING_PREFIX + "*"))
    print(f"\nchartside kb import: {kills} of {ROUNDS} runs SIGKILLed within {window * 1.2:.2f} s of starting to "
          f"verify; after each the index opened and answered: {outcomes['old']} old, {outcomes['new']} new, 0 broken "
          f"(seed {seed})")
    assert kills > 0, "no run was killed"
