"""Cutting a document into chunks for the knowledge base: cleaning, token counting, balanced chunks."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Callable

from engine.text import split_document_sentences
from engine.tokenizer import cl100k

_SPACES = re.compile(r"[ \t\r\f\v]+")


def clean_text(text: str) -> str:
    """Collapse runs of spaces and blank lines; keep single newlines (lists, headings)."""
    text = unicodedata.normalize("NFC", text).replace("\u00a0", " ")
    lines = [_SPACES.sub(" ", line).strip() for line in text.splitlines()]
    out, blank = [], False
    for line in lines:
        if line:
            out.append(line)
            blank = False
        elif not blank and out:
            out.append("")
            blank = True
    return "\n".join(out).strip()


class TokenCounter:
    """Counts model tokens with tiktoken's cl100k_base (shipped offline), else estimates."""

    name = "cl100k_base"

    def __init__(self) -> None:
        self._encode: Callable[[str], list[int]] | None = None
        try:
            self._encode = cl100k().encode_ordinary
        except Exception:  # no tiktoken data: a word-based estimate keeps chunking working
            self.name = "words*1.3"

    def count(self, text: str) -> int:
        if self._encode is not None:
            return len(self._encode(text))
        return int(len(text.split()) * 1.3) + 1

    def split(self, text: str, limit: int) -> list[str]:
        """Cut one over-long sentence at word boundaries into pieces of ~`limit` tokens."""
        words, pieces, current, size = text.split(" "), [], [], 0
        for word in words:
            n = self.count(" " + word)
            if current and size + n > limit:
                pieces.append(" ".join(current))
                current, size = [], 0
            current.append(word)
            size += n
        if current:
            pieces.append(" ".join(current))
        return pieces


@lru_cache(maxsize=1)
def default_counter() -> TokenCounter:
    return TokenCounter()


def chunk_text(text: str, limit: int, counter: TokenCounter | None = None) -> list[tuple[str, int]]:
    """Split `text` into chunks of at most ~`limit` tokens on sentence boundaries.

    Chunks are balanced (a 300-token answer with limit 256 becomes two of ~150, not 256 +
    44). Returns (chunk text, token count) pairs; an empty text gives [].
    """
    counter = counter or default_counter()
    text = clean_text(text)
    if not text:
        return []
    total = counter.count(text)
    if total <= limit:
        return [(text, total)]
    sentences: list[tuple[str, int]] = []
    for sentence in split_document_sentences(text):
        n = counter.count(sentence)
        if n > limit:
            sentences.extend((piece, counter.count(piece)) for piece in counter.split(sentence, limit))
        else:
            sentences.append((sentence, n))
    parts = -(-total // limit)
    target = total / parts
    chunks: list[tuple[str, int]] = []
    current: list[str] = []
    size = 0
    for sentence, n in sentences:
        if current and (size + n > limit or size >= target):
            chunks.append((" ".join(current), size))
            current, size = [], 0
        current.append(sentence)
        size += n
    if current:
        chunks.append((" ".join(current), size))
    return chunks

