"""The writer that test_index_crash_safety kills: a knowledge base changed in a cycle.

Seven operations cycle through seven distinct index states (S0 = corpus X alone):
add a.txt, add b.md, update a.txt (longer, more chunks), full rebuild on corpus Y,
remove b.md, full rebuild on corpus X, remove a.txt (back to S0). Each state is
recognised on disk by (documents, clinic documents, hash of the row ids), so after a
kill the test knows whether the index is the last acknowledged state or the next one.

It runs the real store (SQLite, BM25 arrays, FAISS HNSW, manifest, staging and commit)
on real MedQuAD documents; only the embedding is a deterministic hashing function
(crash safety is about the writes, and each kill round then costs milliseconds).
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np

from engine.knowledge import IndexParams, KnowledgeBase
from engine.knowledge.corpus import load_default_documents
from engine.knowledge.store import Manifest
from engine.knowledge.chunking import default_counter
from engine.text import tokenize

CYCLE = ("add a", "add b", "update a", "rebuild Y", "remove b", "rebuild X", "remove a")
CORPUS_OF = ("X", "X", "X", "X", "Y", "Y", "X")  # the corpus of state S_i
PARAMS = IndexParams(chunk_tokens=64, dense_index="hnsw")
SIZES = {"X": 24, "Y": 36}
A_V1 = "Clinic note on chest pain triage. Call an ambulance for crushing chest pain with sweating."
A_V2 = " ".join(f"Clinic chest pain protocol step {n}: record the ECG within ten minutes, give aspirin unless "
                f"allergic, and watch blood pressure and oxygen saturation." for n in range(1, 9))
B_TEXT = "# Asthma action plan\n\nUse the reliever inhaler for wheeze. Seek care if it does not help."


class HashingEmbedder:
    """Stemmed words hashed into 32 dimensions, L2-normalised (deterministic, instant)."""

    name = fingerprint = "hashing-32:reliability"
    dimension = 32

    def embed(self, texts):
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        for i, text in enumerate(texts):
            for token in tokenize(text):
                out[i, int(hashlib.md5(token.encode()).hexdigest()[:8], 16) % self.dimension] += 1.0
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        norms[norms == 0] = 1.0
        return out / norms


def corpora(shared: Path) -> dict:
    documents = load_default_documents(shared)
    return {name: documents[:size] for name, size in SIZES.items()}


def open_kb(folder: Path, corpus: str, documents: dict) -> KnowledgeBase:
    return KnowledgeBase(folder, HashingEmbedder(), PARAMS, corpus_source=lambda: list(documents[corpus]),
                         corpus_version=lambda: f"reliability-{corpus}").open(build=True)


def apply(step: int, folder: Path, files: Path, documents: dict) -> None:
    """Operation `step` of the cycle (taking S_step to S_step+1)."""
    op = CYCLE[step % len(CYCLE)]
    a, b = files / "a.txt", files / "b.md"
    if op == "rebuild Y":
        open_kb(folder, "Y", documents).close()
        return
    if op == "rebuild X":
        open_kb(folder, "X", documents).close()
        return
    kb = open_kb(folder, CORPUS_OF[step % len(CYCLE)], documents)
    try:
        if op == "add a":
            a.write_text(A_V1, encoding="utf-8")
            kb.add_files([a])
        elif op == "add b":
            b.write_text(B_TEXT, encoding="utf-8")
            kb.add_files([b])
        elif op == "update a":
            a.write_text(A_V2, encoding="utf-8")
            kb.add_files([a])
        elif op == "remove b":
            kb.remove([str(b)])
        elif op == "remove a":
            kb.remove([str(a)])
    finally:
        kb.close()


def signature(folder: Path) -> tuple:
    manifest = Manifest.read(folder)
    return (manifest.documents, manifest.user_documents, manifest.rows_sha) if manifest else None


def warm_up() -> None:
    """Imported by the forkserver: the tokenizer tables load once, before any fork."""
    default_counter().count("warm up")
    import faiss  # noqa: F401


def write_forever(folder: str, shared: str, files: str, start: int, channel) -> None:
    """Child process: from state `start`, apply the cycle forever, acknowledging each state."""
    documents = corpora(Path(shared))
    channel.send("ready")
    step = start
    while True:
        apply(step, Path(folder), Path(files), documents)
        step += 1
        channel.send(step)


warm_up()
