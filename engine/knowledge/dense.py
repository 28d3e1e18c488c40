"""Dense retrieval: a sentence-transformers embedder and a FAISS inner-product index.

Vectors are L2-normalised, so inner product = cosine. The index type is a setting:
- `flat` (default): exact search. On the default knowledge base (~27,000 chunks x 384 dims)
  a query costs about a millisecond, so there is nothing to gain from approximation.
- `hnsw`: graph index (M=32, efSearch=128); sub-linear search, slower to build; worth it
  above a few hundred thousand chunks, where flat search passes ~10 ms per query.
- `ivf`: inverted lists (nlist = 4*sqrt(n), nprobe = 16); the cheapest to build at millions
  of chunks, at the cost of recall. Needs at least `nlist` training vectors.
`chartside bench liveqa --dense-recall` reports each type's recall@10 against flat on the real
corpus (the numbers are in engine/knowledge/README.md).
"""

from __future__ import annotations

import math
import os
import threading
from pathlib import Path
from typing import Callable, Sequence

import numpy as np

from engine.errors import BuildCancelled, ModelUnavailable

ProgressFn = Callable[[int, int], None]
CancelFn = Callable[[], bool]

DENSE_TYPES = ("flat", "hnsw", "ivf")
BACKENDS = ("torch", "torch-int8")
DEFAULT_BACKEND = "torch-int8"
DOC_MAX_SEQ_LENGTH = 128
QUERY_THREADS = 1


class SentenceTransformerEmbedder:
    """The `Embedder` protocol over a local sentence-transformers folder (no hub access).

    `fingerprint` names everything that changes the vectors (model name and sha256,
    sequence length, backend); the index manifest records it.
    """

    def __init__(
        self,
        name: str,
        path: Path,
        sha256: str,
        *,
        max_seq_length: int = DOC_MAX_SEQ_LENGTH,
        query_max_seq_length: int = 256,
        backend: str = DEFAULT_BACKEND,
        batch_size: int = 64,
        threads: int | None = None,
    ):
        if backend not in BACKENDS:
            raise ValueError(f"embedding backend must be one of {BACKENDS}, not {backend!r}")
        self.name = name
        self.path = Path(path)
        self.sha256 = sha256
        self.max_seq_length = max_seq_length
        self.query_max_seq_length = query_max_seq_length
        self.backend = backend
        self.batch_size = batch_size
        self.threads = threads
        self._model = None
        self._lock = threading.Lock()
        self.dimension = 0

    @classmethod
    def from_settings(cls, settings, *, verify: bool = True) -> "SentenceTransformerEmbedder":
        from engine import models

        entry = models.get_model(settings.embedding.model)
        location = models.verify(entry) if verify else entry.location()
        emb = settings.embedding
        embedder = cls(
            entry.name,
            location,
            entry.sha256,
            max_seq_length=emb.document_max_seq_length,
            query_max_seq_length=emb.max_seq_length,
            backend=emb.backend,
            batch_size=emb.batch_size,
        )
        embedder.dimension = int(entry.dimension or 0)
        return embedder

    @property
    def fingerprint(self) -> str:
        """Everything that changes document vectors (the query length does not). An int8 index
        is embedded one text at a time (`embed_documents`); one made in batches is rebuilt."""
        alone = ":alone" if self.backend == "torch-int8" else ""
        return f"{self.name}:{self.sha256[:16]}:{self.backend}{alone}:seq{self.max_seq_length}"

    def load(self):
        if self._model is None:
            try:
                import torch
                from sentence_transformers import SentenceTransformer
            except ImportError as exc:  # pragma: no cover - dependency missing
                raise ModelUnavailable(f"sentence-transformers is not installed: {exc}") from exc
            if self.threads:
                torch.set_num_threads(self.threads)
            if not self.path.exists():
                raise ModelUnavailable(f"embedding model folder {self.path} is missing")
            model = SentenceTransformer(str(self.path), device="cpu", local_files_only=True)
            model.eval()
            if self.backend == "torch-int8":
                import warnings

                with warnings.catch_warnings():
                    warnings.simplefilter("ignore")
                    model = torch.ao.quantization.quantize_dynamic(model, {torch.nn.Linear}, dtype=torch.qint8)
            self._model = model
            get_dim = getattr(model, "get_embedding_dimension", None) or model.get_sentence_embedding_dimension
            self.dimension = int(get_dim())
        return self._model

    def embed_query(self, text: str) -> np.ndarray:
        """One query vector, on one thread: a single short sequence gains little from more,
        and the other core is left to BM25, which runs at the same time."""
        import torch

        model = self.load()
        with self._lock:
            model.max_seq_length = self.query_max_seq_length
            threads = torch.get_num_threads()
            torch.set_num_threads(QUERY_THREADS)
            try:
                vector = model.encode([text], normalize_embeddings=True, convert_to_numpy=True, show_progress_bar=False)
            finally:
                torch.set_num_threads(threads)
        return vector[0].astype(np.float32, copy=False)

    def embed(
        self,
        texts: Sequence[str],
        progress: ProgressFn | None = None,
        cancelled: CancelFn | None = None,
    ) -> np.ndarray:
        """Vectors in batches (progress, cancellation): fast, for the sentences a turn compares.
        A single text with neither callback is a query: it goes through `embed_query`."""
        texts = list(texts)
        if len(texts) == 1 and progress is None and cancelled is None:
            return self.embed_query(texts[0])[None, :]
        return self._encode(texts, self.batch_size, progress, cancelled)

    def embed_documents(
        self,
        texts: Sequence[str],
        progress: ProgressFn | None = None,
        cancelled: CancelFn | None = None,
    ) -> np.ndarray:
        """The knowledge index's vectors. Dynamic int8 quantisation scales a batch's activations
        together, so in a batch a text's vector depends on the texts batched with it (two builds
        of the same chunks agreed only to a median cosine of 0.98); an int8 index embeds one
        text at a time, as a query is, which on two cores costs about a fifth more build time."""
        return self._encode(list(texts), 1 if self.backend == "torch-int8" else self.batch_size, progress, cancelled)

    def _encode(self, texts: list[str], batch: int, progress: ProgressFn | None, cancelled: CancelFn | None) -> np.ndarray:
        model = self.load()
        out = np.zeros((len(texts), self.dimension), dtype=np.float32)
        if not texts:
            return out
        # Sort by length once so each batch pads little; longest first, so the ETA
        # (from the rate so far) errs on the long side; report progress per group.
        order = sorted(range(len(texts)), key=lambda i: -len(texts[i]))
        group = max(self.batch_size * 4, 1)
        done = 0
        for start in range(0, len(order), group):
            if cancelled is not None and cancelled():
                raise BuildCancelled("embedding cancelled")
            ids = order[start : start + group]
            with self._lock:
                model.max_seq_length = self.max_seq_length
                vectors = model.encode(
                    [texts[i] for i in ids],
                    batch_size=batch,
                    normalize_embeddings=True,
                    convert_to_numpy=True,
                    show_progress_bar=False,
                )
            out[ids] = vectors.astype(np.float32, copy=False)
            done += len(ids)
            if progress is not None:
                progress(done, len(texts))
        return out


class DenseIndex:
    """FAISS inner-product search over normalised vectors (row i = chunk row i)."""

    def __init__(self, kind: str = "flat"):
        if kind not in DENSE_TYPES:
            raise ValueError(f"dense index type must be one of {DENSE_TYPES}, not {kind!r}")
        self.kind = kind
        self.index = None
        self.size = 0

    def build(self, vectors: np.ndarray) -> "DenseIndex":
        import faiss

        faiss.omp_set_num_threads(os.cpu_count() or 1)  # building: every core

        vectors = np.ascontiguousarray(vectors, dtype=np.float32)
        n, d = vectors.shape if vectors.ndim == 2 else (0, 0)
        self.size = n
        if n == 0:
            self.index = None
            return self
        if self.kind == "hnsw":
            index = faiss.IndexHNSWFlat(d, 32, faiss.METRIC_INNER_PRODUCT)
            index.hnsw.efConstruction = 80
            index.hnsw.efSearch = 128
        elif self.kind == "ivf" and n >= 256:
            nlist = max(8, int(4 * math.sqrt(n)))
            nlist = min(nlist, n // 8)
            quantizer = faiss.IndexFlatIP(d)
            index = faiss.IndexIVFFlat(quantizer, d, nlist, faiss.METRIC_INNER_PRODUCT)
            index.train(vectors)
            index.nprobe = 16
        else:  # flat, or an IVF too small to train (exact search is then the right choice)
            index = faiss.IndexFlatIP(d)
        index.add(vectors)
        self.index = index
        return self

    def search(self, query: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
        if self.index is None or k <= 0:
            return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.float32)
        import faiss

        # One query: one thread (2.8 ms vs 24 ms with two on a busy 2-core machine: no
        # fork/join or spinning), which also leaves the other core to BM25.
        faiss.omp_set_num_threads(1)
        query = np.ascontiguousarray(query.reshape(1, -1), dtype=np.float32)
        scores, rows = self.index.search(query, min(k, self.size))
        keep = rows[0] >= 0
        return rows[0][keep].astype(np.int64), scores[0][keep]

    def save(self, path: Path) -> None:
        import faiss

        if self.index is not None and self.kind != "flat":
            faiss.write_index(self.index, str(path))
        else:  # flat is rebuilt from the vectors; never leave an older index file behind
            Path(path).unlink(missing_ok=True)

    def load(self, path: Path, vectors: np.ndarray) -> "DenseIndex":
        """Flat indexes are rebuilt from the vectors (fast); others are read from `path`."""
        import faiss

        if self.kind == "flat" or not path.exists():
            return self.build(vectors)
        self.index = faiss.read_index(str(path))
        self.size = self.index.ntotal
        if self.size != len(vectors):
            return self.build(vectors)
        if self.kind == "hnsw":
            self.index.hnsw.efSearch = 128
        elif hasattr(self.index, "nprobe"):
            self.index.nprobe = 16
        return self

