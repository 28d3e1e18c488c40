"""Crash safety of the knowledge index: SIGKILL during builds, adds and removals.

Every kill must leave an index that opens (`open(build=False)`), whose parts agree with
each other (database, rows, BM25, vectors, FAISS, manifest), that answers a query, and
that is either the state before the interrupted operation or the state after it.

1. Many kills: a forkserver child runs a cycle of add / update / rebuild / remove on real
   MedQuAD documents (hashing embedder, see kb_writer.py) and is killed at random moments.
2. The real command (slow): `chartside kb build` (real embedding model) and `chartside kb
   add` killed at random moments around their write phase, then run to completion.
"""

from __future__ import annotations

import multiprocessing
import os
import random
import shutil
import signal
import sqlite3
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from engine.knowledge import IndexParams, KnowledgeBase
from engine.knowledge.store import COMMIT_FOLDER, STAGING_PREFIX, Manifest
from engine.settings import Settings
from engine.text import tokenize
from tests.reliability import kb_writer
from tests.reliability.conftest import PER_TOPIC, write_subset

KILLS = 30
MAX_DELAY_S = 1.0


def check_index(folder: Path, embedder, params: IndexParams, query: str = "chest pain blood pressure") -> tuple:
    """Open the index as a reader does and check that all its parts agree; its signature."""
    kb = KnowledgeBase(folder, embedder, params, corpus_source=lambda: [],
                       corpus_version=lambda: Manifest.read(folder).corpus)
    kb.open(build=False)
    try:
        assert not (folder / COMMIT_FOLDER).exists(), "an interrupted commit was not finished on open"
        manifest = kb.manifest
        db = sqlite3.connect(f"file:{folder / 'kb.sqlite'}?mode=ro", uri=True)
        try:
            assert db.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
            chunk_ids = {row[0] for row in db.execute("SELECT chunk_id FROM chunks")}
            documents = db.execute("SELECT COUNT(*) FROM documents").fetchone()[0]
            user = db.execute("SELECT COUNT(*) FROM documents WHERE origin = 'user'").fetchone()[0]
        finally:
            db.close()
        assert (documents, user) == (manifest.documents, manifest.user_documents)
        assert kb.size == manifest.rows == len(kb.vectors) == kb.bm25.size == kb.dense.size == len(chunk_ids)
        assert set(kb.chunk_ids) == chunk_ids
        lexical = kb.search_bm25(tokenize(query), 3)
        dense = kb.search_dense(embedder.embed([query])[0], 3)
        assert lexical and dense, "the index answers no query"
        hits = sorted({cid for cid, _ in lexical + dense})
        assert [chunk.chunk_id for chunk in kb.chunks(hits)] == hits, "a hit has no text in the database"
        return manifest.documents, manifest.user_documents, manifest.rows_sha
    finally:
        kb.close()


def collect(channel, acknowledged: int) -> int:
    """The last complete acknowledgement in the pipe (a message cut by the kill does not count)."""
    while True:
        try:
            if not channel.poll(0):
                return acknowledged
            message = channel.recv()
        except (EOFError, OSError):
            return acknowledged
        if message != "ready":
            acknowledged = message


def test_sigkill_during_index_writes_leaves_the_old_or_the_new_state(tmp_path, small_shared_data):
    files = tmp_path / "files"
    files.mkdir()
    documents = kb_writer.corpora(small_shared_data)
    cycle = len(kb_writer.CYCLE)

    reference = tmp_path / "reference"
    kb_writer.open_kb(reference, "X", documents).close()
    states = [kb_writer.signature(reference)]
    for step in range(cycle):
        kb_writer.apply(step, reference, files, documents)
        states.append(kb_writer.signature(reference))
    assert states[-1] == states[0] and len(set(states[:-1])) == cycle, "the cycle's states must be distinct"
    position = {state: i for i, state in enumerate(states[:-1])}

    folder = tmp_path / "kb"
    kb_writer.open_kb(folder, "X", documents).close()
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(["tests.reliability.kb_writer"])
    seed = int.from_bytes(os.urandom(4), "big")
    rng = random.Random(seed)
    step = 0
    figures = {"kills": 0, "old_state": 0, "new_state": 0, "killed_while_staging": 0, "killed_after_commit_point": 0}
    start = time.perf_counter()
    for round_number in range(KILLS):
        staging_before = set(folder.glob(STAGING_PREFIX + "*"))
        receiver, sender = context.Pipe(duplex=False)
        child = context.Process(target=kb_writer.write_forever,
                                args=(str(folder), str(small_shared_data), str(files), step, sender))
        child.start()
        sender.close()
        assert receiver.poll(60), f"round {round_number}: the writer never started (seed {seed})"
        assert receiver.recv() == "ready"
        acknowledged = step
        deadline = time.monotonic() + rng.uniform(0.0, MAX_DELAY_S)
        while time.monotonic() < deadline:
            if receiver.poll(max(0.0, deadline - time.monotonic())):
                acknowledged = collect(receiver, acknowledged)
        os.kill(child.pid, signal.SIGKILL)
        child.join(10)
        assert child.exitcode == -signal.SIGKILL
        acknowledged = collect(receiver, acknowledged)
        receiver.close()
        figures["kills"] += 1
        figures["killed_after_commit_point"] += (folder / COMMIT_FOLDER).exists()
        figures["killed_while_staging"] += bool(set(folder.glob(STAGING_PREFIX + "*")) - staging_before)

        found = check_index(folder, kb_writer.HashingEmbedder(), kb_writer.PARAMS)
        assert found in position, f"round {round_number}: the index is in no state of the cycle (seed {seed})"
        index = position[found]
        allowed = {acknowledged % cycle: "old_state", (acknowledged + 1) % cycle: "new_state"}
        assert index in allowed, (f"round {round_number}: state S{index} after acknowledging S{acknowledged % cycle} "
                                  f"(seed {seed})")
        figures[allowed[index]] += 1
        step = acknowledged if allowed[index] == "old_state" else acknowledged + 1
    elapsed = time.perf_counter() - start
    print(f"\nindex crash safety: {figures['kills']} SIGKILLs in {elapsed:.1f} s over {step} index operations "
          f"(add/update/rebuild/remove); after each: {figures['old_state']} old state, {figures['new_state']} new "
          f"state, 0 broken; {figures['killed_while_staging']} killed while staging, "
          f"{figures['killed_after_commit_point']} killed after the commit point (finished on open) (seed {seed})")
    assert step >= cycle, "every kind of operation must have run (and been killed around)"
    assert figures["killed_while_staging"] + figures["killed_after_commit_point"] > 0, "no kill hit a write"


class _Stderr:
    """Reads a child's stderr as it comes, so the test can wait for a progress stage."""

    def __init__(self, process: subprocess.Popen):
        self.text = ""
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._read, args=(process.stderr,), daemon=True)
        self._thread.start()

    def _read(self, stream) -> None:
        while block := stream.read1(4096) if hasattr(stream, "read1") else stream.read(4096):
            with self._lock:
                self.text += block.decode("utf-8", "replace")

    def wait_for(self, marker: str, timeout: float) -> bool:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            with self._lock:
                if marker in self.text:
                    return True
            time.sleep(0.01)
        return False


def run_cli(args: list[str], env: dict, *, kill_after: str | None = None, delay: float = 0.0) -> str:
    """Run `chartside ARGS`; with `kill_after`, SIGKILL it `delay` s after that text appears on
    stderr. Returns what happened: 'completed' or 'killed'."""
    process = subprocess.Popen([sys.executable, "-m", "engine.cli", *args], env=env, stdout=subprocess.DEVNULL,
                               stderr=subprocess.PIPE)
    stderr = _Stderr(process)
    if kill_after is None:
        assert process.wait(300) == 0, stderr.text
        return "completed"
    assert stderr.wait_for(kill_after, 300), f"never reached {kill_after!r}: {stderr.text[-2000:]}"
    time.sleep(delay)
    process.send_signal(signal.SIGKILL)
    code = process.wait(30)
    return "killed" if code == -signal.SIGKILL else "completed"


@pytest.mark.slow  # five command runs with the real embedding model: 35 s to 3 min on this machine
@pytest.mark.real_model
def test_killed_kb_build_and_kb_add_commands_keep_the_old_or_the_new_index(tmp_path, chartside_home, kb_template,
                                                                           minilm):
    folder = chartside_home / "knowledge"
    shutil.copytree(kb_template, folder)
    params = IndexParams.from_settings(Settings())
    old = check_index(folder, minilm, params)
    bigger = write_subset(tmp_path / "bigger", per_topic=PER_TOPIC + 2)
    env = {**os.environ, "CHARTSIDE_HOME": str(chartside_home), "CHARTSIDE_SHARED_DATA": str(bigger)}
    seed = int.from_bytes(os.urandom(4), "big")
    rng = random.Random(seed)

    build_kills = []
    for marker, delay in (("embedding: 0/", rng.uniform(0.5, 3.0)), ("indexing:", rng.uniform(0.0, 0.4))):
        outcome = run_cli(["kb", "build"], env, kill_after=marker, delay=delay)
        build_kills.append((marker, round(delay, 2), outcome, check_index(folder, minilm, params)))
    run_cli(["kb", "build"], env)
    new = check_index(folder, minilm, params)
    assert new != old and new[0] > old[0]
    for marker, delay, outcome, state in build_kills:
        assert state in (old, new), f"kb build killed {delay} s after {marker!r}: neither old nor new (seed {seed})"

    clinic = tmp_path / "clinic"
    clinic.mkdir()
    for n, topic in enumerate(("chest pain pathway", "asthma inhalers", "diabetes foot checks")):
        (clinic / f"protocol_{n}.txt").write_text(f"Clinic protocol on {topic}. " * 20, encoding="utf-8")
    delay = rng.uniform(0.0, 0.4)
    add_outcome = run_cli(["kb", "add", str(clinic)], env, kill_after="adding: 3/3", delay=delay)
    after_kill = check_index(folder, minilm, params)
    run_cli(["kb", "add", str(clinic)], env)
    added = check_index(folder, minilm, params)
    assert added[:2] == (new[0] + 3, 3)
    assert after_kill in (new, added), f"kb add killed {delay:.2f} s into its commit: neither old nor new (seed {seed})"
    states = [("before" if s == old else "after") for *_, s in build_kills]
    print(f"\nchartside kb build killed twice ({', '.join(f'{o} {d} s after {m!r}: {s} state' for (m, d, o, _), s in zip(build_kills, states))}); "
          f"kb add killed {delay:.2f} s after its last file ({add_outcome}): "
          f"{'before' if after_kill == new else 'after'} state; every index opened and answered (seed {seed})")
