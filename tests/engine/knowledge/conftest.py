"""Fixtures for the knowledge tests: a deterministic embedder and a tiny shared-data folder."""

from __future__ import annotations

import gzip
import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from engine.paths import shared_data_dir
from engine.text import tokenize


class HashingEmbedder:
    """Bag of stemmed words hashed into 64 dims: similar texts get similar vectors.

    Counts how many texts it embedded, so tests can check what was (re-)embedded.
    """

    name = "hashing-64"
    dimension = 64

    def __init__(self, fingerprint: str = "hashing-64:v1"):
        self.fingerprint = fingerprint
        self.embedded = 0

    def embed(self, texts):
        self.embedded += len(texts)
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        for i, text in enumerate(texts):
            for token in tokenize(text):
                h = int.from_bytes(hashlib.md5(token.encode()).digest()[:4], "little")
                out[i, h % self.dimension] += 1.0
        norms = np.linalg.norm(out, axis=1, keepdims=True)
        norms[norms == 0] = 1.0
        return out / norms


TINY_MEDQUAD = [
    ("5_NIDDK_QA", "0000001-1", "NIDDK", "Diabetes", "What is (are) Diabetes ?",
     "Diabetes is a disease in which blood glucose levels are above normal. Insulin helps glucose get into cells. "
     "Metformin is a medicine often used first for type 2 diabetes."),
    ("5_NIDDK_QA", "0000002-1", "NIDDK", "Kidney Disease", "What is (are) Kidney Disease ?",
     "Chronic kidney disease means the kidneys are damaged and cannot filter blood as they should. "
     "High blood pressure and diabetes are the most common causes."),
    ("6_NINDS_QA", "0000003-1", "NINDS", "Migraine", "What are the treatments for Migraine ?",
     "Migraine attacks are treated with pain relievers and triptans such as sumatriptan or zolmitriptan. "
     "Rest in a dark quiet room helps."),
    ("3_GHR_QA", "0000004-1", "GHR", "Noonan syndrome", "What is (are) Noonan syndrome ?",
     "Noonan syndrome is a genetic condition that affects many areas of the body, including the heart. "
     "Some people have kidney abnormalities."),
    ("10_MPlus_ADAM_QA", "0000005-1", "ADAM", "Asthma", "What is (are) Asthma ?", ""),
]
TINY_JUDGED = [
    ("ADAM_0000005_Sec1.txt", "What is (are) Asthma ?", "https://example.org/asthma",
     "Asthma is a disease that causes the airways to swell and narrow, leading to wheezing and shortness of breath."),
    ("NIDDK_0000001_Sec1.txt", "What is (are) Diabetes ?", "https://example.org/diabetes",
     "Diabetes is a disease in which blood glucose levels are above normal. Insulin helps glucose get into cells. "
     "Metformin is a medicine often used first for type 2 diabetes."),
]


def write_tiny_shared(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    with gzip.open(folder / "medquad.jsonl.gz", "wt", encoding="utf-8") as handle:
        for collection, qid, source, focus, question, answer in TINY_MEDQUAD:
            handle.write(json.dumps({
                "qid": qid, "collection": collection, "source": source, "url": f"https://example.org/{qid}",
                "focus": focus, "synonyms": [], "cuis": [], "semantic_types": [], "semantic_group": "",
                "qtype": "information", "question": question, "answer": answer,
            }) + "\n")
    with gzip.open(folder / "liveqa_judged_answers.jsonl.gz", "wt", encoding="utf-8") as handle:
        for answer_id, question, url, answer in TINY_JUDGED:
            text = f"Question: {question}\nURL: {url}\nAnswer: {answer}"
            handle.write(json.dumps({"answer_id": answer_id, "text": text}) + "\n")
    (folder / "concepts.tsv").write_text(
        "concept_id\tname\tpreferred\tsemantic_types\tcategory\tcollection\n"
        "C0011849\tDiabetes\t1\tT047\tDisease\t5_NIDDK_QA\n"
        "C0011849\tsugar diabetes\t0\tT047\tDisease\t5_NIDDK_QA\n",
        encoding="utf-8",
    )
    return folder


@pytest.fixture
def tiny_shared(tmp_path, monkeypatch) -> Path:
    folder = write_tiny_shared(tmp_path / "shared_data")
    monkeypatch.setenv("CHARTSIDE_SHARED_DATA", str(folder))
    return folder


@pytest.fixture
def hashing_embedder(monkeypatch) -> HashingEmbedder:
    """Replaces the sentence-transformers model wherever the engine makes one."""
    embedder = HashingEmbedder()
    import engine.knowledge as knowledge

    monkeypatch.setattr(knowledge, "make_embedder", lambda settings, verify=True: embedder)
    return embedder


def real_shared_data() -> Path:
    folder = shared_data_dir()
    if not (folder / "medquad.jsonl.gz").exists():
        pytest.skip(f"shared data not found at {folder}")
    return folder
