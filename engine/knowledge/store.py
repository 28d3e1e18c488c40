"""The persisted knowledge base: documents, chunks, BM25 and dense indexes, one manifest.

Layout of a knowledge-base folder (default: `<CHARTSIDE_HOME>/knowledge/`):
    kb.sqlite      documents (metadata, full text, aliases) and chunks (`doc_id#n`, text)
    rows.npz       chunk id and token count of every index row, in row order
    bm25.npz       term-frequency matrix + vocabulary (BM25 weights are derived on load)
    vectors.npy    one L2-normalised embedding per row (float32)
    dense.faiss    the FAISS index when it is not `flat` (flat is rebuilt from vectors)
    manifest.json  what the indexes were built from: corpus version, embedding model name
                   + sha256 + sequence length, tokenizer version, chunking and BM25
                   parameters, dense index type, row count and a hash of the row ids.

`KnowledgeBase.open` compares the manifest with what is configured now and rebuilds only
what is stale (never silently uses a stale part): a new corpus or chunking -> everything;
a new embedding model -> vectors; a new tokenizer or BM25 parameters -> BM25; another dense
index type -> FAISS only. With `build=False` a stale index raises KnowledgeIndexError.

User documents (`add_files`) are incremental: a file whose content hash is unchanged is
skipped, a changed file replaces its old chunks, and only new chunks are embedded.
The knowledge base holds public reference text and clinic documents, never patient data.

Crash safety: every change (a build, a partial rebuild, an add, a removal) writes the
files it changes into a staging folder inside the index folder (`.staging-*`; an add
changes a copy of kb.sqlite), fsyncs them and renames the folder to `.commit`: that
rename is the commit point. The files are then moved into place and `.commit` removed.
A process killed before the rename leaves the old index (the staging folder is ignored
and cleaned up later); killed after it, the next open finishes the moves. So a reader
sees the old or the new index, never a mix (`tests/reliability/test_index_crash_safety.py`).
"""

from __future__ import annotations

import hashlib
import inspect
import json
import os
import shutil
import sqlite3
import sys
import threading
import time
import uuid
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Callable, Iterable, Sequence

import numpy as np

from engine.errors import BuildCancelled, InputError, KnowledgeIndexError, PatientDataFound
from engine.knowledge import corpus as corpus_mod
from engine.knowledge.bm25 import SparseBM25
from engine.knowledge.chunking import chunk_text, default_counter
from engine.knowledge.corpus import ATTRIBUTION_SEPARATOR, CLINIC_DOCUMENTS, Document
from engine.knowledge.dense import DenseIndex
from engine.knowledge.patient_data import scan_text, summarise
from engine.protocols import Embedder
from engine.text import TOKENIZER_VERSION, tokenize

FORMAT_VERSION = 1
CHUNKING_VERSION = "sent-balanced-2"
MANIFEST = "manifest.json"
STAGING_PREFIX = ".staging-"
COMMIT_FOLDER = ".commit"
REMOVE_LIST = ".remove"  # inside a commit: live files the commit deletes (one name a line)
STALE_STAGING_S = 3600  # a staging folder this old belongs to a writer that died


def chunk_id(doc_id: str, n: int) -> str:
    """The id of a document's `n`-th chunk (from 0): the one place that spells the format."""
    return f"{doc_id}#{n}"


def document_of(chunk: str) -> str:
    """The document id of a chunk id (`chunk_id`'s inverse)."""
    return chunk.rpartition("#")[0]


@dataclass
class Progress:
    """A progress report: `stage` (reading, chunking, tokenizing, embedding, indexing,
    adding), `done`/`total` in that stage's unit (documents), and the ETA in seconds."""

    stage: str
    done: int
    total: int
    eta_s: float | None = None
    message: str = ""


ProgressFn = Callable[[Progress], None]


def print_progress(p: Progress) -> None:
    """A ProgressFn for command lines: one updating line on stderr per stage."""
    eta = f", ETA {p.eta_s:.0f}s" if p.eta_s is not None else ""
    end = "\n" if p.done >= p.total else "\r"
    print(f"  {p.stage}: {p.done}/{p.total}{eta}   ", end=end, file=sys.stderr, flush=True)


@dataclass
class Chunk:
    chunk_id: str
    doc_id: str
    title: str
    text: str
    tokens: int
    url: str = ""
    source: str = ""
    licence: str = ""
    attribution: str = ""


@dataclass(frozen=True)
class IndexParams:
    chunk_tokens: int = 256
    bm25_k1: float = 1.5
    bm25_b: float = 0.75
    dense_index: str = "flat"

    @classmethod
    def from_settings(cls, settings) -> "IndexParams":
        r = settings.retrieval
        return cls(chunk_tokens=r.chunk_tokens, bm25_k1=r.bm25_k1, bm25_b=r.bm25_b, dense_index=r.dense_index)


@dataclass
class Manifest:
    format: int = FORMAT_VERSION
    corpus: str = ""
    embedding: str = ""
    embedding_model: str = ""
    dimension: int = 0
    tokenizer: str = TOKENIZER_VERSION
    chunking: dict = field(default_factory=dict)
    bm25: dict = field(default_factory=dict)
    dense_index: str = "flat"
    rows: int = 0
    rows_sha: str = ""
    documents: int = 0
    user_documents: int = 0
    built_at: str = ""
    timings_s: dict = field(default_factory=dict)

    @classmethod
    def read(cls, folder: Path) -> "Manifest | None":
        path = folder / MANIFEST
        if not path.exists():
            return None
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            known = set(cls.__dataclass_fields__)
            return cls(**{k: v for k, v in data.items() if k in known})
        except (OSError, ValueError, TypeError):
            return None

    def write(self, folder: Path) -> None:
        _atomic_write_bytes(folder / MANIFEST, json.dumps(asdict(self), indent=2).encode("utf-8"))


def _atomic_write_bytes(path: Path, data: bytes) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)


def _fsync_file(path: Path) -> None:
    with open(path, "r+b") as handle:  # writable: Windows cannot flush a read-only handle
        os.fsync(handle.fileno())


def _fsync_dir(path: Path) -> None:
    """Make renames inside `path` durable (POSIX; Windows has no directory handles to sync)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def new_staging(folder: Path) -> Path:
    """An empty staging folder inside the index folder (same file system: renames are atomic)."""
    staging = folder / f"{STAGING_PREFIX}{os.getpid()}-{uuid.uuid4().hex[:8]}"
    staging.mkdir(parents=True)
    return staging


def publish(folder: Path, staging: Path, remove: Sequence[str] = ()) -> None:
    """Make the files in `staging` (and the removal of `remove`) live, all or nothing."""
    if remove:
        (staging / REMOVE_LIST).write_text("\n".join(remove), encoding="utf-8")
    for path in staging.iterdir():
        _fsync_file(path)
    _fsync_dir(staging)
    recover(folder)  # a commit left by a killed writer goes first
    os.replace(staging, folder / COMMIT_FOLDER)  # the commit point
    _fsync_dir(folder)
    finish_commit(folder)


def finish_commit(folder: Path) -> None:
    """Move a committed folder's files into place (idempotent: safe to repeat after a kill)."""
    commit = folder / COMMIT_FOLDER
    if not commit.is_dir():
        return
    remove_list = commit / REMOVE_LIST
    if remove_list.exists():
        for name in remove_list.read_text(encoding="utf-8").split():
            (folder / name).unlink(missing_ok=True)
    names = sorted((p.name for p in commit.iterdir() if p.name != REMOVE_LIST), key=lambda n: n == MANIFEST)
    for name in names:  # the manifest last
        os.replace(commit / name, folder / name)
    _fsync_dir(folder)
    shutil.rmtree(commit)
    _fsync_dir(folder)


def recover(folder: Path) -> None:
    """Finish a commit a killed writer left, and drop staging folders of dead writers."""
    if not folder.is_dir():
        return
    finish_commit(folder)
    now = time.time()
    for staging in folder.glob(STAGING_PREFIX + "*"):
        try:
            if now - staging.stat().st_mtime > STALE_STAGING_S:
                shutil.rmtree(staging, ignore_errors=True)
        except OSError:
            pass


def _rows_sha(chunk_ids: Sequence[str]) -> str:
    return hashlib.sha256("\n".join(chunk_ids).encode("utf-8")).hexdigest()[:16]


def embed_text(title: str, text: str) -> str:
    """What the dense index embeds for a chunk: its title (question / focus) then the text."""
    return f"{title}\n{text}" if title else text


def bm25_text(title: str, text: str) -> str:
    return f"{title}\n{text}" if title else text


_SCHEMA = """
CREATE TABLE IF NOT EXISTS documents (
    doc_id TEXT PRIMARY KEY, title TEXT, text TEXT, source TEXT, url TEXT, licence TEXT,
    attribution TEXT, origin TEXT, path TEXT, content_hash TEXT, aliases TEXT,
    added_at REAL
);
CREATE TABLE IF NOT EXISTS chunks (
    chunk_id TEXT PRIMARY KEY, doc_id TEXT, n INTEGER, title TEXT, text TEXT, tokens INTEGER
);
CREATE INDEX IF NOT EXISTS chunks_doc ON chunks(doc_id);
"""


def _new_database(path: Path) -> sqlite3.Connection:
    db = sqlite3.connect(path, check_same_thread=False)
    db.executescript(_SCHEMA)
    return db


class KnowledgeBase:
    """Documents, chunks and both indexes in one folder; thread-safe for search vs. update."""

    def __init__(self, folder: Path, embedder: Embedder, params: IndexParams | None = None,
                 corpus_source: Callable[[], list[Document]] | None = None,
                 corpus_version: Callable[[], str] | None = None):
        self.folder = Path(folder)
        self.embedder = embedder
        self.params = params or IndexParams()
        # The default corpus: MedQuAD + LiveQA judged answers from ../shared/data.
        self._corpus_source = corpus_source or corpus_mod.load_default_documents
        self._corpus_version = corpus_version or corpus_mod.corpus_fingerprint
        self._lock = threading.RLock()
        self._db: sqlite3.Connection | None = None
        self.bm25: SparseBM25 | None = None
        self.vectors = np.zeros((0, 0), dtype=np.float32)
        self.dense: DenseIndex | None = None
        self.chunk_ids: list[str] = []
        self.row_tokens = np.zeros(0, dtype=np.int32)
        self.row_doc: list[str] = []
        self.manifest: Manifest | None = None
        self.load_seconds = 0.0

    # --- configuration fingerprints -----------------------------------------------------
    def _embedding_fp(self) -> str:
        return str(getattr(self.embedder, "fingerprint", type(self.embedder).__name__))

    def _chunking(self) -> dict:
        return {"tokens": self.params.chunk_tokens, "counter": default_counter().name, "version": CHUNKING_VERSION}

    def _bm25_params(self) -> dict:
        return {"k1": self.params.bm25_k1, "b": self.params.bm25_b, "epsilon": 0.25}

    def stale_parts(self, manifest: Manifest | None = None, *, check_corpus: bool = True) -> set[str]:
        """Which parts would be rebuilt: subset of {"all", "vectors", "bm25", "dense"}."""
        recover(self.folder)
        m = manifest if manifest is not None else Manifest.read(self.folder)
        if m is None or m.format != FORMAT_VERSION or m.chunking != self._chunking():
            return {"all"}
        if check_corpus:
            try:
                if m.corpus != self._corpus_version():
                    return {"all"}
            except KnowledgeIndexError:
                pass  # sources absent (e.g. a release build): keep the shipped corpus
        if not (self.folder / "kb.sqlite").exists():
            return {"all"}
        if not self._files_consistent(m):
            return {"vectors", "bm25", "dense"}
        stale: set[str] = set()
        if m.embedding != self._embedding_fp():
            stale |= {"vectors", "dense"}
        if m.tokenizer != TOKENIZER_VERSION or m.bm25 != self._bm25_params():
            stale.add("bm25")
        if m.dense_index != self.params.dense_index:
            stale.add("dense")
        return stale

    def _files_consistent(self, m: Manifest) -> bool:
        needed = ["kb.sqlite", "rows.npz", "bm25.npz", "vectors.npy"]
        if not all((self.folder / name).exists() for name in needed):
            return False
        try:
            with np.load(self.folder / "rows.npz", allow_pickle=False) as rows:
                ids = rows["chunk_ids"].tolist()
        except (OSError, ValueError, KeyError):
            return False
        return len(ids) == m.rows and _rows_sha(ids) == m.rows_sha

    # --- opening ----------------------------------------------------------------------
    def open(self, *, build: bool = True, progress: ProgressFn | None = None,
             cancelled: Callable[[], bool] | None = None, force: bool = False) -> "KnowledgeBase":
        """Load the index, first rebuilding whatever is stale (or raise if `build` is False).

        `force` rebuilds everything from the sources; the old index stays usable until the
        new one is complete (a cancelled or killed rebuild leaves it as it was).
        """
        with self._lock:
            self.folder.mkdir(parents=True, exist_ok=True)
            recover(self.folder)
            stale = {"all"} if force else self.stale_parts()
            if stale:
                if not build:
                    raise KnowledgeIndexError(
                        f"knowledge index in {self.folder} is stale ({', '.join(sorted(stale))}); "
                        "run `chartside kb build`"
                    )
                self._rebuild(stale, progress, cancelled)
            self._load()
        return self

    def _connect(self) -> sqlite3.Connection:
        if self._db is None:
            self._db = sqlite3.connect(self.folder / "kb.sqlite", check_same_thread=False)
            self._db.executescript(_SCHEMA)
        return self._db

    def close(self) -> None:
        with self._lock:
            if self._db is not None:
                self._db.close()
                self._db = None

    def _load(self) -> None:
        start = time.perf_counter()
        self.manifest = Manifest.read(self.folder)
        with np.load(self.folder / "rows.npz", allow_pickle=False) as rows:
            self.chunk_ids = rows["chunk_ids"].tolist()
            self.row_tokens = rows["tokens"]
        self.row_doc = [document_of(cid) for cid in self.chunk_ids]
        self.bm25 = SparseBM25.load(self.folder / "bm25.npz")
        self.vectors = np.load(self.folder / "vectors.npy", mmap_mode=None)
        self.dense = DenseIndex(self.params.dense_index).load(self.folder / "dense.faiss", self.vectors)
        self._connect()
        self.load_seconds = time.perf_counter() - start

    # --- (re)building -----------------------------------------------------------------
    def _rebuild(self, stale: set[str], progress: ProgressFn | None, cancelled) -> None:
        timings: dict[str, float] = {}
        if "all" in stale:
            self._build_all(progress, cancelled, timings)
            return
        m = Manifest.read(self.folder)
        assert m is not None
        db = self._connect()
        chunk_ids = self._sqlite_row_order(db)
        rows = self._fetch_rows(db, chunk_ids)
        bm25 = vectors = dense = None
        if "bm25" in stale or not (self.folder / "bm25.npz").exists():
            t = time.perf_counter()
            self._report(progress, "tokenizing", 0, len(rows))
            bm25 = SparseBM25.from_tokens([tokenize(bm25_text(r[1], r[2])) for r in rows], k1=self.params.bm25_k1, b=self.params.bm25_b)
            timings["bm25"] = time.perf_counter() - t
        if "vectors" in stale:
            t = time.perf_counter()
            vectors = self._embed([embed_text(r[1], r[2]) for r in rows], progress, cancelled)
            timings["embedding"] = time.perf_counter() - t
        if "dense" in stale or "vectors" in stale:
            t = time.perf_counter()
            self._report(progress, "indexing", 0, 1)
            current = vectors if vectors is not None else np.load(self.folder / "vectors.npy")
            dense = DenseIndex(self.params.dense_index).build(current)
            timings["dense"] = time.perf_counter() - t
            dimension = current.shape[1] if current.ndim == 2 else 0
        else:
            dimension = m.dimension
        staging = new_staging(self.folder)
        try:
            if bm25 is not None:
                bm25.save(staging / "bm25.npz")
            if vectors is not None:
                self._save_vectors(staging, vectors)
            if dense is not None:
                dense.save(staging / "dense.faiss")
            self._save_rows(staging, chunk_ids, [r[3] for r in rows])
            self._write_manifest(staging, db, m.corpus, chunk_ids, dimension, timings)
            self._publish(staging, removes_dense=dense is not None)
        finally:
            shutil.rmtree(staging, ignore_errors=True)

    def _build_all(self, progress: ProgressFn | None, cancelled, timings: dict) -> None:
        t0 = time.perf_counter()
        self._report(progress, "reading", 0, 1, message="reading the default corpus")
        corpus_version = self._corpus_version()
        documents = self._corpus_source()
        user_docs = self._live_user_documents()  # kept across a full rebuild (re-chunked)
        documents = documents + user_docs
        timings["read"] = time.perf_counter() - t0

        t = time.perf_counter()
        chunk_rows: list[tuple[str, str, int, str, str, int]] = []
        for i, doc in enumerate(documents):
            chunk_rows.extend(self._chunk(doc))
            if progress and i % 2000 == 0:
                self._report(progress, "chunking", i, len(documents))
        timings["chunk"] = time.perf_counter() - t

        t = time.perf_counter()
        self._report(progress, "tokenizing", 0, len(chunk_rows))
        bm25 = SparseBM25.from_tokens(
            [tokenize(bm25_text(r[3], r[4])) for r in chunk_rows], k1=self.params.bm25_k1, b=self.params.bm25_b
        )
        timings["bm25"] = time.perf_counter() - t

        t = time.perf_counter()
        vectors = self._embed([embed_text(r[3], r[4]) for r in chunk_rows], progress, cancelled)
        timings["embedding"] = time.perf_counter() - t

        t = time.perf_counter()
        self._report(progress, "indexing", 0, 1)
        dense = DenseIndex(self.params.dense_index).build(vectors)
        timings["dense"] = time.perf_counter() - t

        # Every file of the new index is written to a staging folder, then published at once.
        chunk_ids = [r[0] for r in chunk_rows]
        staging = new_staging(self.folder)
        try:
            db = _new_database(staging / "kb.sqlite")
            try:
                with db:
                    self._insert_documents(db, documents)
                    db.executemany("INSERT INTO chunks VALUES (?,?,?,?,?,?)", chunk_rows)
                bm25.save(staging / "bm25.npz")
                self._save_vectors(staging, vectors)
                dense.save(staging / "dense.faiss")
                self._save_rows(staging, chunk_ids, [r[5] for r in chunk_rows])
                timings["total"] = time.perf_counter() - t0
                self._write_manifest(staging, db, corpus_version, chunk_ids,
                                     vectors.shape[1] if vectors.ndim == 2 else 0, timings)
            finally:
                db.close()
            self._publish(staging, removes_dense=True)
        finally:
            shutil.rmtree(staging, ignore_errors=True)

    def _publish(self, staging: Path, *, removes_dense: bool) -> None:
        """Make the staged files live; the live database connection is reopened afterwards."""
        remove = ["dense.faiss"] if removes_dense and not (staging / "dense.faiss").exists() else []
        if self._db is not None and (staging / "kb.sqlite").exists():
            self._db.close()
            self._db = None
        publish(self.folder, staging, remove)

    def _live_user_documents(self) -> list[Document]:
        """The clinic's documents in the live database (none when there is no database yet)."""
        if not (self.folder / "kb.sqlite").exists():
            return []
        return self._user_documents(self._connect())

    def _chunk(self, doc: Document) -> list[tuple[str, str, int, str, str, int]]:
        pieces = chunk_text(doc.text, self.params.chunk_tokens) or [(doc.title, default_counter().count(doc.title))]
        return [(chunk_id(doc.doc_id, n), doc.doc_id, n, doc.title, text, tokens) for n, (text, tokens) in enumerate(pieces)]

    def _embed(self, texts: list[str], progress: ProgressFn | None, cancelled) -> np.ndarray:
        start = time.perf_counter()

        def report(done: int, total: int) -> None:
            if progress is not None:
                elapsed = time.perf_counter() - start
                eta = (total - done) * elapsed / done if done else None
                progress(Progress("embedding", done, total, eta, "chunks embedded"))

        self._report(progress, "embedding", 0, len(texts), message="chunks embedded")
        if cancelled is not None and cancelled():
            raise BuildCancelled("cancelled before embedding")
        embed = getattr(self.embedder, "embed_documents", None) or self.embedder.embed
        params = inspect.signature(embed).parameters
        if "progress" in params or any(p.kind is p.VAR_KEYWORD for p in params.values()):
            vectors = embed(texts, progress=report, cancelled=cancelled)  # type: ignore[call-arg]
        else:  # a plain Embedder: one call, progress at the end
            vectors = embed(texts)
            report(len(texts), len(texts))
        return np.ascontiguousarray(vectors, dtype=np.float32)

    @staticmethod
    def _report(progress: ProgressFn | None, stage: str, done: int, total: int, eta: float | None = None,
                message: str = "") -> None:
        if progress is not None:
            progress(Progress(stage, done, total, eta, message))

    @staticmethod
    def _save_vectors(folder: Path, vectors: np.ndarray) -> None:
        with open(folder / "vectors.npy", "wb") as handle:
            np.save(handle, np.ascontiguousarray(vectors, dtype=np.float32))

    @staticmethod
    def _save_rows(folder: Path, chunk_ids: list[str], tokens: Sequence[int]) -> None:
        with open(folder / "rows.npz", "wb") as handle:
            np.savez(handle, chunk_ids=np.asarray(chunk_ids, dtype=str), tokens=np.asarray(tokens, dtype=np.int32))

    def _write_manifest(self, folder: Path, db: sqlite3.Connection, corpus_version: str, chunk_ids: list[str],
                        dimension: int, timings: dict) -> None:
        n_docs = db.execute("SELECT COUNT(*) FROM documents").fetchone()[0]
        n_user = db.execute("SELECT COUNT(*) FROM documents WHERE origin = 'user'").fetchone()[0]
        Manifest(
            corpus=corpus_version,
            embedding=self._embedding_fp(),
            embedding_model=str(getattr(self.embedder, "name", "")),
            dimension=int(dimension),
            chunking=self._chunking(),
            bm25=self._bm25_params(),
            dense_index=self.params.dense_index,
            rows=len(chunk_ids),
            rows_sha=_rows_sha(chunk_ids),
            documents=n_docs,
            user_documents=n_user,
            built_at=time.strftime("%Y-%m-%dT%H:%M:%S"),
            timings_s={k: round(v, 2) for k, v in timings.items()},
        ).write(folder)

    @staticmethod
    def _insert_documents(db: sqlite3.Connection, documents: Iterable[Document]) -> None:
        now = time.time()
        db.executemany(
            "INSERT OR REPLACE INTO documents VALUES (?,?,?,?,?,?,?,?,?,?,?,?)",
            [
                (d.doc_id, d.title, d.text, d.source, d.url, d.licence, d.attribution, d.origin, d.path,
                 d.content_hash, json.dumps(d.aliases), now)
                for d in documents
            ],
        )

    def _sqlite_row_order(self, db: sqlite3.Connection) -> list[str]:
        """The row order of the index: the current rows file when it matches the
        database, else the database's own order (documents as inserted, chunks by n)."""
        ids = [r[0] for r in db.execute("SELECT chunk_id FROM chunks ORDER BY rowid")]
        try:
            with np.load(self.folder / "rows.npz", allow_pickle=False) as rows:
                current = rows["chunk_ids"].tolist()
            if sorted(current) == sorted(ids):
                return current
        except (OSError, ValueError, KeyError):
            pass
        return ids

    @staticmethod
    def _fetch_rows(db: sqlite3.Connection, chunk_ids: list[str]) -> list[tuple[str, str, str, int]]:
        found = {r[0]: r for r in db.execute("SELECT chunk_id, title, text, tokens FROM chunks")}
        return [found[cid] for cid in chunk_ids]

    @staticmethod
    def _user_documents(db: sqlite3.Connection) -> list[Document]:
        rows = db.execute(
            "SELECT doc_id, title, text, source, url, licence, attribution, origin, path, aliases "
            "FROM documents WHERE origin = 'user' ORDER BY added_at, doc_id"
        ).fetchall()
        return [
            Document(doc_id=r[0], title=r[1], text=r[2], source=r[3], url=r[4], licence=r[5],
                     attribution=r[6], origin=r[7], path=r[8], aliases=json.loads(r[9] or "[]"))
            for r in rows
        ]

    # --- user documents ---------------------------------------------------------------
    def add_files(self, paths: Sequence[Path], progress: ProgressFn | None = None,
                  cancelled: Callable[[], bool] | None = None, *, allow_patient_data: bool = False,
                  on_patient_data: Callable[[dict], None] | None = None) -> dict:
        """Add or update txt/md/pdf files (folders are searched). Returns counts.

        Every new or changed file is read and scanned for what looks like patient data
        first (`patient_data.scan_text`): if any is found, PatientDataFound is raised and
        nothing is added, unless `allow_patient_data`; then `on_patient_data({file name:
        {kind: count}})` runs before anything is embedded (the caller audits the override;
        if it raises, nothing is added).

        Progress is reported per document (done/total, ETA). On cancel, the documents
        finished so far are kept and BuildCancelled is raised.
        """
        files = list(corpus_mod.expand_paths([Path(p) for p in paths]))
        result: dict = {"added": 0, "updated": 0, "unchanged": 0, "chunks_embedded": 0, "errors": []}
        self._require_loaded()
        documents = self._read_user_files(files, result, progress)
        self._screen_for_patient_data(documents, allow_patient_data, on_patient_data)
        start = time.perf_counter()
        pending: list[tuple[Document, list[tuple]]] = []
        self._report(progress, "adding", 0, len(files))
        # Reading and embedding run without the lock, so searches go on meanwhile; only
        # the commit (a second or so) holds it.
        try:
            for i, (path, doc, known) in enumerate(documents):
                if cancelled is not None and cancelled():
                    raise BuildCancelled(f"cancelled after {i} of {len(files)} documents")
                if doc is not None and known == doc.content_hash:
                    result["unchanged"] += 1
                elif doc is not None:
                    chunks = self._chunk(doc)
                    vectors = self._embed([embed_text(c[3], c[4]) for c in chunks], None, None)
                    pending.append((doc, list(zip(chunks, vectors))))
                    result["updated" if known is not None else "added"] += 1
                    result["chunks_embedded"] += len(chunks)
                done = i + 1
                elapsed = time.perf_counter() - start
                self._report(progress, "adding", done, len(files), (len(files) - done) * elapsed / done, str(path))
        finally:
            if pending:
                with self._lock:
                    self._commit_user_documents(pending)
        return result

    def _read_user_files(self, files: list[Path], result: dict,
                         progress: ProgressFn | None) -> list[tuple[Path, Document | None, str | None]]:
        """(path, document or None when unreadable, content hash already stored or None)."""
        documents = []
        for i, path in enumerate(files):
            try:
                doc = corpus_mod.read_user_file(path)
            except InputError as exc:
                doc = None
                result["errors"].append(f"{path}: {exc}")
            known = None
            if doc is not None:
                with self._lock:
                    row = self._connect().execute(
                        "SELECT content_hash FROM documents WHERE doc_id = ?", (doc.doc_id,)).fetchone()
                known = row[0] if row is not None else None
            documents.append((path, doc, known))
            self._report(progress, "reading", i + 1, len(files))
        return documents

    @staticmethod
    def _screen_for_patient_data(documents: list[tuple[Path, Document | None, str | None]], allow: bool,
                                 on_patient_data: Callable[[dict], None] | None) -> None:
        """Refuse (or, when allowed, report through `on_patient_data`) new or changed
        documents that look like patient data; unchanged ones were screened when added."""
        findings = {}
        for path, doc, known in documents:
            if doc is not None and known != doc.content_hash:
                found = scan_text(doc.text)
                if found:
                    findings[str(path)] = found
        if not findings:
            return
        lines = sum(len({f.line for f in found}) for found in findings.values())
        if not allow:
            raise PatientDataFound(f"{lines} lines in {len(findings)} of {len(documents)} files look like patient data",
                                   findings=findings)
        if on_patient_data is not None:
            on_patient_data({Path(path).name: summarise(found) for path, found in findings.items()})

    def _commit_user_documents(self, pending: list[tuple[Document, list[tuple]]]) -> None:
        doc_ids = [doc.doc_id for doc, _ in pending]
        new_chunks = [c for _, pairs in pending for c, _ in pairs]
        new_vectors = [v for _, pairs in pending for _, v in pairs]

        def change(db: sqlite3.Connection) -> None:
            self._remove_rows(doc_ids)
            with db:
                db.executemany("DELETE FROM chunks WHERE doc_id = ?", [(d,) for d in doc_ids])
                self._insert_documents(db, [doc for doc, _ in pending])
                db.executemany("INSERT INTO chunks VALUES (?,?,?,?,?,?)", new_chunks)
            assert self.bm25 is not None
            self.bm25.append([tokenize(bm25_text(c[3], c[4])) for c in new_chunks])
            if new_vectors:
                stacked = np.vstack(new_vectors).astype(np.float32)
                self.vectors = stacked if self.vectors.size == 0 else np.vstack([self.vectors, stacked])
            self.chunk_ids += [c[0] for c in new_chunks]
            self.row_tokens = np.concatenate([self.row_tokens, np.asarray([c[5] for c in new_chunks], dtype=np.int32)])

        self._change_atomically(change)

    def remove(self, ids_or_paths: Sequence[str]) -> list[str]:
        """Remove user documents by doc id or by the path they were added from."""
        with self._lock:
            self._require_loaded()
            db = self._connect()
            targets: list[str] = []
            for item in ids_or_paths:
                doc_id = item
                row = db.execute("SELECT origin FROM documents WHERE doc_id = ?", (doc_id,)).fetchone()
                if row is None:  # not an id: the path the document was added from
                    doc_id = corpus_mod.user_doc_id(Path(item))
                    row = db.execute("SELECT origin FROM documents WHERE doc_id = ?", (doc_id,)).fetchone()
                if row is None:
                    continue
                if row[0] != "user":
                    raise KnowledgeIndexError(f"{doc_id} is part of the default knowledge base and cannot be removed")
                targets.append(doc_id)
            if not targets:
                return []

            def change(staged_db: sqlite3.Connection) -> None:
                self._remove_rows(targets)
                with staged_db:
                    staged_db.executemany("DELETE FROM chunks WHERE doc_id = ?", [(d,) for d in targets])
                    staged_db.executemany("DELETE FROM documents WHERE doc_id = ?", [(d,) for d in targets])

            self._change_atomically(change)
            return targets

    def _remove_rows(self, doc_ids: Sequence[str]) -> None:
        wanted = set(doc_ids)
        rows = [i for i, d in enumerate(self.row_doc) if d in wanted]
        if not rows:
            return
        assert self.bm25 is not None
        self.bm25.remove(rows)
        keep = np.ones(len(self.chunk_ids), dtype=bool)
        keep[rows] = False
        self.vectors = self.vectors[keep]
        self.row_tokens = self.row_tokens[keep]
        self.chunk_ids = [c for c, k in zip(self.chunk_ids, keep) if k]
        self.row_doc = [document_of(cid) for cid in self.chunk_ids]

    def _change_atomically(self, change: Callable[[sqlite3.Connection], None]) -> None:
        """Apply `change` (to a staged copy of the database and to the loaded rows), write
        every derived file beside it and publish them together. Any failure leaves the
        live index as it was, and the loaded rows are read back from it."""
        assert self.bm25 is not None and self.manifest is not None
        staging = new_staging(self.folder)
        try:
            db = _new_database(staging / "kb.sqlite")
            try:
                self._connect().backup(db)
                change(db)
                self.row_doc = [document_of(cid) for cid in self.chunk_ids]
                self.bm25.save(staging / "bm25.npz")
                self._save_vectors(staging, self.vectors)
                self.dense = DenseIndex(self.params.dense_index).build(self.vectors)
                self.dense.save(staging / "dense.faiss")
                self._save_rows(staging, self.chunk_ids, self.row_tokens)
                dim = self.vectors.shape[1] if self.vectors.ndim == 2 and self.vectors.size else self.manifest.dimension
                self._write_manifest(staging, db, self.manifest.corpus, self.chunk_ids, dim,
                                     dict(self.manifest.timings_s))
            finally:
                db.close()
            self._publish(staging, removes_dense=True)
        except BaseException:
            self._load()  # back to what is on disk
            raise
        finally:
            shutil.rmtree(staging, ignore_errors=True)
        self.manifest = Manifest.read(self.folder)

    def _require_loaded(self) -> None:
        if self.bm25 is None:
            raise KnowledgeIndexError("the knowledge base is not open")

    # --- reading ----------------------------------------------------------------------
    def list_documents(self, origin: str | None = "user") -> list[dict]:
        db = self._connect()
        query = ("SELECT d.doc_id, d.title, d.origin, d.path, d.url, d.licence, d.content_hash, d.added_at, "
                 "COUNT(c.chunk_id) FROM documents d LEFT JOIN chunks c ON c.doc_id = d.doc_id")
        args: tuple = ()
        if origin:
            query += " WHERE d.origin = ?"
            args = (origin,)
        query += " GROUP BY d.doc_id ORDER BY d.added_at, d.doc_id"
        with self._lock:
            rows = db.execute(query, args).fetchall()
        keys = ("doc_id", "title", "origin", "path", "url", "licence", "content_hash", "added_at", "chunks")
        return [dict(zip(keys, r)) for r in rows]

    def document_count(self) -> dict:
        db = self._connect()
        with self._lock:
            rows = db.execute("SELECT origin, COUNT(*) FROM documents GROUP BY origin").fetchall()
        return dict(rows)

    def attribution(self) -> str:
        """Whom the documents here are owed to, as their records say: the built-in documents'
        distinct attributions, most documents first (each with its licence where the
        attribution does not name it), then `CLINIC_DOCUMENTS` when the clinic added some;
        "" when there are no documents."""
        db = self._connect()
        with self._lock:
            built_in = db.execute(
                "SELECT attribution, licence FROM documents WHERE origin != 'user' "
                "GROUP BY attribution, licence ORDER BY COUNT(*) DESC, attribution, licence").fetchall()
            clinic = db.execute("SELECT EXISTS (SELECT 1 FROM documents WHERE origin = 'user')").fetchone()[0]
        parts: list[str] = []
        for attribution, licence in built_in:
            attribution, licence = (attribution or "").strip(), (licence or "").strip()
            part = attribution if not licence or licence in attribution else (
                f"{attribution} ({licence})" if attribution else licence)
            if part and part not in parts:
                parts.append(part)
        if clinic:
            parts.append(CLINIC_DOCUMENTS)
        return ATTRIBUTION_SEPARATOR.join(parts)

    def chunks(self, chunk_ids: Sequence[str]) -> list[Chunk]:
        """Chunk text and its document's metadata, in the order asked (unknown ids dropped)."""
        if not len(chunk_ids):
            return []
        found: dict[str, tuple] = {}
        with self._lock:
            db = self._connect()
            ids = list(chunk_ids)
            for start in range(0, len(ids), 500):  # SQLite limits bound parameters
                part = ids[start : start + 500]
                marks = ",".join("?" * len(part))
                for r in db.execute(
                    "SELECT c.chunk_id, c.doc_id, c.title, c.text, c.tokens, d.url, d.source, d.licence, "
                    f"d.attribution FROM chunks c JOIN documents d ON d.doc_id = c.doc_id WHERE c.chunk_id IN ({marks})",
                    part,
                ):
                    found[r[0]] = r
        return [Chunk(*found[cid]) for cid in ids if cid in found]

    def document_texts(self, doc_ids: Sequence[str] | None = None) -> dict[str, str]:
        """The whole text of each document asked for (unknown ids left out); every document's
        without `doc_ids`."""
        found: dict[str, str] = {}
        with self._lock:
            db = self._connect()
            if doc_ids is None:
                return dict(db.execute("SELECT doc_id, text FROM documents"))
            ids = list(dict.fromkeys(doc_ids))
            for start in range(0, len(ids), 500):  # SQLite limits bound parameters
                part = ids[start : start + 500]
                marks = ",".join("?" * len(part))
                found.update(db.execute(f"SELECT doc_id, text FROM documents WHERE doc_id IN ({marks})", part))
        return found

    def document_titles(self) -> list[tuple[str, str]]:
        """(doc id, title) of every document."""
        db = self._connect()
        with self._lock:
            return db.execute("SELECT doc_id, title FROM documents").fetchall()

    def aliases(self) -> dict[str, str]:
        """alias id -> document id (e.g. a LiveQA answer_id -> its MedQuAD twin)."""
        db = self._connect()
        out: dict[str, str] = {}
        with self._lock:
            for doc_id, aliases in db.execute("SELECT doc_id, aliases FROM documents WHERE aliases != '[]'"):
                for alias in json.loads(aliases):
                    out[alias] = doc_id
        return out

    def search_bm25(self, tokens: Sequence[str], n: int) -> list[tuple[str, float]]:
        """(chunk id, score) of the best `n` chunks by BM25 (consistent with updates)."""
        with self._lock:
            self._require_loaded()
            rows, scores = self.bm25.top(tokens, n)  # type: ignore[union-attr]
            return [(self.chunk_ids[r], s) for r, s in zip(rows.tolist(), scores.tolist())]

    def search_dense(self, vector: np.ndarray, n: int) -> list[tuple[str, float]]:
        """(chunk id, inner product) of the `n` nearest chunks."""
        with self._lock:
            self._require_loaded()
            rows, scores = self.dense.search(vector, n)  # type: ignore[union-attr]
            return [(self.chunk_ids[r], s) for r, s in zip(rows.tolist(), scores.tolist())]

    @property
    def avg_chunk_tokens(self) -> float:
        return float(self.row_tokens.mean()) if len(self.row_tokens) else 0.0

    @property
    def size(self) -> int:
        return len(self.chunk_ids)

    @property
    def version(self) -> tuple:
        """Changes whenever the documents do (a build, an added or removed document, another
        folder): what is derived from them (`questions.QuestionIndex`, `boilerplate`) is kept
        until it changes."""
        return (id(self), self.size, getattr(self.manifest, "rows_sha", None), getattr(self.manifest, "built_at", None))
