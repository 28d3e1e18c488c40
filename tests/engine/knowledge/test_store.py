"""Knowledge-base persistence: manifest invalidation, incremental user documents, progress."""

from __future__ import annotations

import json
from dataclasses import replace

import numpy as np
import pytest

from engine.errors import KnowledgeIndexError
from engine.cancel import CancelToken
from engine.errors import BuildCancelled
from engine.knowledge import HybridRetriever, IndexParams, KnowledgeBase
from engine.knowledge.corpus import CLINIC_DOCUMENTS, MEDQUAD_ATTRIBUTION, Document

from .conftest import HashingEmbedder

DOCS = [
    Document("d/1", "What is diabetes?", "Diabetes means high blood glucose. Insulin and metformin treat it.",
             url="https://example.org/1", licence="CC BY 4.0"),
    Document("d/2", "What is a migraine?", "A migraine is a headache with nausea. Triptans help.",
             url="https://example.org/2", licence="CC BY 4.0"),
    Document("d/3", "What is asthma?", "Asthma narrows the airways and causes wheezing.",
             url="https://example.org/3", licence="CC BY 4.0", aliases=["ADAM_1_Sec1.txt"]),
]


def make_kb(folder, embedder=None, params=None, version="v1", docs=DOCS):
    return KnowledgeBase(folder, embedder or HashingEmbedder(), params or IndexParams(chunk_tokens=64),
                         corpus_source=lambda: list(docs), corpus_version=lambda: version)


def test_first_open_builds_with_progress_and_second_open_only_loads(tmp_path):
    embedder = HashingEmbedder()
    stages = []
    kb = make_kb(tmp_path, embedder).open(progress=lambda p: stages.append(p.stage))
    assert {"reading", "chunking", "tokenizing", "embedding", "indexing"} <= set(stages)
    assert kb.size == 3 and embedder.embedded == 3
    manifest = json.loads((tmp_path / "manifest.json").read_text())
    assert manifest["embedding"] == "hashing-64:v1" and manifest["corpus"] == "v1" and manifest["rows"] == 3
    again = HashingEmbedder()
    kb2 = make_kb(tmp_path, again).open(build=False)
    assert again.embedded == 0 and kb2.size == 3
    assert kb2.aliases() == {"ADAM_1_Sec1.txt": "d/3"}
    assert kb2.chunk_ids == ["d/1#0", "d/2#0", "d/3#0"]


def test_changing_the_embedding_model_rebuilds_vectors_and_never_uses_stale_ones(tmp_path):
    make_kb(tmp_path).open()
    other = HashingEmbedder(fingerprint="other-model:v1")
    kb = make_kb(tmp_path, other)
    assert kb.stale_parts() == {"vectors", "dense"}
    with pytest.raises(KnowledgeIndexError):
        make_kb(tmp_path, HashingEmbedder(fingerprint="other-model:v1")).open(build=False)
    kb.open()
    assert other.embedded == 3
    assert json.loads((tmp_path / "manifest.json").read_text())["embedding"] == "other-model:v1"
    assert make_kb(tmp_path, HashingEmbedder(fingerprint="other-model:v1")).stale_parts() == set()


def test_tokenizer_bm25_dense_type_and_corpus_changes_rebuild_the_right_parts(tmp_path, monkeypatch):
    make_kb(tmp_path).open()
    assert make_kb(tmp_path, params=IndexParams(chunk_tokens=64, bm25_k1=1.2)).stale_parts() == {"bm25"}
    assert make_kb(tmp_path, params=IndexParams(chunk_tokens=64, dense_index="hnsw")).stale_parts() == {"dense"}
    assert make_kb(tmp_path, params=IndexParams(chunk_tokens=128)).stale_parts() == {"all"}
    assert make_kb(tmp_path, version="v2").stale_parts() == {"all"}
    import engine.knowledge.store as store

    monkeypatch.setattr(store, "TOKENIZER_VERSION", "changed")
    assert make_kb(tmp_path).stale_parts() == {"bm25"}
    embedder = HashingEmbedder()
    make_kb(tmp_path, embedder).open()
    assert embedder.embedded == 0  # BM25 rebuilt, vectors reused


def test_a_damaged_index_is_detected(tmp_path):
    make_kb(tmp_path).open()
    np.savez(tmp_path / "rows.npz", chunk_ids=np.asarray(["x#0"]), tokens=np.asarray([1]))
    assert make_kb(tmp_path).stale_parts() == {"vectors", "bm25", "dense"}
    (tmp_path / "kb.sqlite").unlink()
    assert make_kb(tmp_path).stale_parts() == {"all"}


def test_cancelled_build_keeps_nothing(tmp_path):
    token = CancelToken()
    token.cancel()
    with pytest.raises(BuildCancelled):
        make_kb(tmp_path).open(cancelled=token)
    assert not (tmp_path / "manifest.json").exists()


def test_user_documents_are_incremental_and_removable(tmp_path):
    files = tmp_path / "files"
    files.mkdir()
    (files / "protocol.md").write_text("# Clinic hypertension protocol\n\nCheck blood pressure twice. Amlodipine first.",
                                       encoding="utf-8")
    (files / "notes.txt").write_text("Influenza vaccine is offered every autumn to staff.", encoding="utf-8")
    (files / "ignored.docx").write_text("not supported", encoding="utf-8")
    embedder = HashingEmbedder()
    kb = make_kb(tmp_path / "kb", embedder).open()
    base = embedder.embedded
    reports = []
    result = kb.add_files([files], progress=reports.append)
    assert (result["added"], result["updated"], result["unchanged"]) == (2, 0, 0)
    assert embedder.embedded - base == result["chunks_embedded"] == 2
    assert reports[-1].done == reports[-1].total == 2 and reports[-1].eta_s == 0

    listed = {d["title"]: d for d in kb.list_documents()}
    assert set(listed) == {"Clinic hypertension protocol", "notes"}
    hits = HybridRetriever(kb).search("amlodipine blood pressure", k=2)
    assert hits[0].title == "Clinic hypertension protocol" and hits[0].licence == "clinic document"

    # Unchanged files are not re-embedded; a changed file replaces its chunks.
    before = embedder.embedded
    (files / "notes.txt").write_text("Influenza vaccine every autumn. Hand washing stops spread.", encoding="utf-8")
    result = kb.add_files([files / "notes.txt", files / "protocol.md"])
    assert (result["added"], result["updated"], result["unchanged"]) == (0, 1, 1)
    assert embedder.embedded - before == 1
    assert kb.size == 5

    # Reopening loads the same rows; removal by path and by id.
    reopened = make_kb(tmp_path / "kb", HashingEmbedder()).open(build=False)
    assert reopened.size == 5 and reopened.manifest.user_documents == 2
    removed = reopened.remove([str(files / "notes.txt")])
    assert len(removed) == 1 and reopened.size == 4
    removed = reopened.remove([listed["Clinic hypertension protocol"]["doc_id"]])
    assert len(removed) == 1 and reopened.size == 3
    assert reopened.list_documents() == []
    with pytest.raises(KnowledgeIndexError):
        reopened.remove(["d/1"])  # default documents cannot be removed
    fresh = make_kb(tmp_path / "kb", HashingEmbedder()).open(build=False)
    assert fresh.size == 3 and fresh.bm25.get_scores(["amlodipin"]).max() == 0


def test_the_attribution_is_what_the_documents_record(tmp_path):
    """Each source's attribution once, most documents first, with its licence where the
    attribution does not name it; the clinic's own documents are noted as such."""
    docs = [*(replace(doc, attribution=MEDQUAD_ATTRIBUTION) for doc in DOCS),
            Document("x/1", "Fever", "A fever is 38 degrees or more.", licence="Demo text",
                     attribution="Written for a test")]
    kb = make_kb(tmp_path / "kb", docs=docs).open()
    assert kb.attribution() == f"{MEDQUAD_ATTRIBUTION} · Written for a test (Demo text)"
    note = tmp_path / "note.txt"
    note.write_text("Influenza vaccine is offered every autumn to staff.", encoding="utf-8")
    kb.add_files([note])
    assert kb.attribution() == f"{MEDQUAD_ATTRIBUTION} · Written for a test (Demo text) · {CLINIC_DOCUMENTS}"
    assert make_kb(tmp_path / "empty", docs=[]).open().attribution() == ""


def test_user_documents_survive_a_full_rebuild(tmp_path):
    note = tmp_path / "note.txt"
    note.write_text("Our clinic opens at eight.", encoding="utf-8")
    kb = make_kb(tmp_path / "kb").open()
    kb.add_files([note])
    rebuilt = make_kb(tmp_path / "kb", version="v2").open()
    assert rebuilt.size == 4 and len(rebuilt.list_documents()) == 1


def test_cancelled_add_keeps_finished_documents(tmp_path):
    for i in range(3):
        (tmp_path / f"f{i}.txt").write_text(f"document number {i} about topic {i}", encoding="utf-8")
    kb = make_kb(tmp_path / "kb").open()
    calls = {"n": 0}

    def cancel_after_first():
        calls["n"] += 1
        return calls["n"] > 1

    with pytest.raises(BuildCancelled):
        kb.add_files(sorted(tmp_path.glob("f*.txt")), cancelled=cancel_after_first)
    assert len(kb.list_documents()) == 1
    assert make_kb(tmp_path / "kb").open(build=False).size == 4


def test_pdf_and_bad_files(tmp_path):
    pdf = tmp_path / "leaflet.pdf"
    pdf.write_bytes(_minimal_pdf("Warfarin interacts with aspirin"))
    missing = tmp_path / "missing.txt"
    kb = make_kb(tmp_path / "kb").open()
    result = kb.add_files([pdf, missing])
    assert result["added"] == 1 and len(result["errors"]) == 1
    hits = HybridRetriever(kb).search("warfarin aspirin", k=1, mode="bm25")
    assert hits and hits[0].title == "leaflet"


def test_search_returns_document_level_hits_with_sources(tmp_path):
    kb = make_kb(tmp_path).open()
    retriever = HybridRetriever(kb)
    for mode in ("bm25", "dense", "hybrid"):
        hits = retriever.search("metformin insulin glucose", k=2, mode=mode)
        assert hits[0].doc_id == "d/1", mode
        assert hits[0].url == "https://example.org/1" and hits[0].licence == "CC BY 4.0"
    assert retriever.search("metformin", k=8, docs_budget=0) == []
    ranking = retriever.rank("metformin migraine", k=3)
    assert len(set(ranking.doc_ids)) == len(ranking.doc_ids)


def test_expander_terms_reach_both_retrievers(tmp_path):
    class KoreanToEnglish:
        def expand(self, query):
            return ["migraine headache"] if "편두통" in query else []

    kb = make_kb(tmp_path).open()
    plain = HybridRetriever(kb)
    assert plain.rank("편두통", mode="bm25").doc_ids == []
    expanded = HybridRetriever(kb, expander=KoreanToEnglish())
    bm25_text, dense_text = expanded.prepare("편두통이 심해요")
    assert bm25_text.endswith("migraine headache") and dense_text == "migraine headache"
    assert expanded.search("편두통이 심해요", k=1)[0].doc_id == "d/2"


def test_korean_words_without_english_are_not_embedded(tmp_path):
    """The English embedder would match unrecognised Hangul by chance: such a query is not
    searched densely at all, and its Latin words are."""
    kb = make_kb(tmp_path).open()
    retriever = HybridRetriever(kb)
    assert retriever.prepare("눈에 락스가 튀었어요") == ("눈에 락스가 튀었어요", "")
    assert retriever.prepare("MRI 검사가 무서워요")[1] == "MRI"
    assert retriever.rank("눈에 락스가 튀었어요", mode="dense").doc_ids == []
    assert retriever.rank("눈에 락스가 튀었어요").doc_ids == []


def _minimal_pdf(text: str) -> bytes:
    """A one-page PDF with `text` in Helvetica (no PDF library needed to write it)."""
    stream = f"BT /F1 12 Tf 72 720 Td ({text}) Tj ET".encode()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = bytearray(b"%PDF-1.4\n")
    offsets = []
    for i, body in enumerate(objects, start=1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % i + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    for offset in offsets:
        out += b"%010d 00000 n \n" % offset
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


def test_document_texts_are_the_whole_documents_asked_for(tmp_path):
    kb = make_kb(tmp_path / "kb").open()
    texts = kb.document_texts(["d/3", "d/1", "d/missing", "d/1"])
    assert texts == {"d/3": DOCS[2].text, "d/1": DOCS[0].text}
    assert kb.document_texts([]) == {}
