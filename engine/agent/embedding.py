"""A memo in front of the embedding model: one turn embeds its question once, not four times.

The response cache, dense retrieval and the conversation memory (storing the turn and
recalling related turns) all embed the same question. Single-text calls are remembered
(LRU, in memory only: the texts are patient questions); batch calls, e.g. index builds,
pass straight through. Everything else (`fingerprint`, `dimension`, `load`...) is the
wrapped embedder's.
"""

from __future__ import annotations

import threading
from collections import OrderedDict

import numpy as np


class MemoEmbedder:
    def __init__(self, inner, size: int = 256):
        self._inner = inner
        self._size = size
        self._memo: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()

    def __getattr__(self, name: str):
        return getattr(self._inner, name)

    @property
    def inner(self):
        return self._inner

    def remembered(self) -> int:
        """How many question texts the memo holds (no `__len__`: an empty memo must stay truthy)."""
        return len(self._memo)

    def holds(self, text: str) -> bool:
        """Whether `text`'s embedding is remembered (the next embed of it is a memo hit)."""
        with self._lock:
            return text in self._memo

    def embed(self, texts, *args, **kwargs) -> np.ndarray:
        texts = list(texts)
        if len(texts) != 1 or args or kwargs:
            return self._inner.embed(texts, *args, **kwargs)
        key = texts[0]
        with self._lock:
            cached = self._memo.get(key)
            if cached is not None:
                self._memo.move_to_end(key)
                return cached[None, :].copy()
        vector = np.asarray(self._inner.embed(texts), dtype=np.float32)[0]
        with self._lock:
            self._memo[key] = vector
            while len(self._memo) > self._size:
                self._memo.popitem(last=False)
        return vector[None, :].copy()

    def clear(self) -> None:
        with self._lock:
            self._memo.clear()
