"""Sentences a knowledge base repeats on many pages: its sites' boilerplate.

MedQuAD's pages are written from templates. Every GARD symptom page explains how its frequency
table is read ("The first number of the fraction is how many people had the symptom, …", on
2,243 pages), MedlinePlus drug pages close with "Do not let anyone else take your medication."
(20 pages), NCI pages describe clinical trials in the same words. Such a sentence says the
same of every topic, so it answers no question about one; the composer leaves it out.

A sentence is boilerplate when MIN_PAGES documents or more hold it word for word (split at
sentence ends, spacing ignored). Counted once per knowledge-base version: about 0.6 s over the
default 17,925 documents on two cores.
"""

from __future__ import annotations

import re
import threading
from collections import Counter

MIN_PAGES = 10
_SENTENCE_END = re.compile(r"(?<=[.!?])\s+")


def normalised(sentence: str) -> str:
    return " ".join(sentence.split())


def repeated_sentences(texts, min_pages: int = MIN_PAGES) -> frozenset[str]:
    """The sentences of `texts` (one per document) that at least `min_pages` of them hold."""
    pages: Counter[str] = Counter()
    for text in texts:
        pages.update({normalised(s) for s in _SENTENCE_END.split(text or "") if s.strip()})
    return frozenset(s for s, n in pages.items() if n >= min_pages)


class Boilerplate:
    """The repeated sentences of one knowledge base, counted again when its documents change."""

    def __init__(self, min_pages: int = MIN_PAGES) -> None:
        self.min_pages = min_pages
        self._lock = threading.Lock()
        self._version: object = None
        self._sentences: frozenset[str] = frozenset()

    def sentences(self, kb) -> frozenset[str]:
        with self._lock:
            if kb.version != self._version:
                self._sentences = repeated_sentences(kb.document_texts().values(), self.min_pages)
                self._version = kb.version
            return self._sentences
