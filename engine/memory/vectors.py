"""Embeddings as float32 blobs inside the encrypted database (never a plain FAISS file).

Memory and cache collections are small (hundreds to a few thousand vectors per vault),
so an exact dot product over the decrypted blobs is fast enough and keeps every vector
under SQLCipher's encryption.
"""

from __future__ import annotations

import numpy as np


def to_blob(vector: np.ndarray) -> bytes:
    array = np.asarray(vector, dtype=np.float32).reshape(-1)
    return array.tobytes()


def from_blob(blob: bytes, dimension: int) -> np.ndarray:
    array = np.frombuffer(blob, dtype=np.float32)
    if array.size != dimension:
        raise ValueError(f"embedding blob has {array.size} values, expected {dimension}")
    return array


def normalise(vector: np.ndarray) -> np.ndarray:
    array = np.asarray(vector, dtype=np.float32).reshape(-1)
    norm = float(np.linalg.norm(array))
    return array / norm if norm > 0 else array


def cosine_scores(query: np.ndarray, matrix: np.ndarray) -> np.ndarray:
    """Cosine similarity of `query` against each row of `matrix`."""
    if matrix.size == 0:
        return np.zeros(0, dtype=np.float32)
    rows = matrix / np.maximum(np.linalg.norm(matrix, axis=1, keepdims=True), 1e-12)
    return rows @ normalise(query)
