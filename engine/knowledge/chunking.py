"""Cutting a document into chunks for the knowledge base: cleaning, token counting, balanced chunks."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Callable

from engine.text import split_document_sentences
from engine.tokenizer import cl100k

_SPACES = re.compile(r"[ \t\r\f\v]+")
# MedQuAD's pages lost their line breaks; a paragraph break is left as a wide gap before the next
# paragraph ("… - Meningitis       How the diagnosis is made …"), a bullet as a narrow one
# ("include:  - Allergies"). Without the break a list's last item swallows the paragraph after it.
_PARAGRAPH_GAP = re.compile(r"[ \t]{3,}(?=[A-Z(\"])")
# Such a break is marked while the text is cut into chunks and counted as the space it was, so
# that chunk boundaries, token counts and what the indexes read stay those of the collapsed text;
# the chunk's text then shows it as a blank line (a paragraph to engine.text's splitters).
_GAP_MARK = "\u2029"


def clean_text(text: str) -> str:
    """Collapse runs of spaces and blank lines; keep single newlines (lists, headings); a wide
    gap before a capital (a lost paragraph break) becomes `_GAP_MARK`."""
    text = unicodedata.normalize("NFC", text).replace("\u00a0", " ")
    lines = [_SPACES.sub(" ", _PARAGRAPH_GAP.sub(_GAP_MARK, line)).strip() for line in text.splitlines()]
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


def _separator(before: str, after: str) -> str:
    """What stood between two of a chunk's sentences: a piece that ends without a full stop
    (a heading, a list line) was cut at a blank line, and keeps it unless a bullet follows."""
    if before.endswith((".", "!", "?")) or after.startswith(("-", "*", "•")):
        return " "
    return "\n\n"


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

    def count(piece: str) -> int:
        return counter.count(piece.replace(_GAP_MARK, " "))

    def shown(pieces: list[str]) -> str:
        joined = pieces[0]
        for before, piece in zip(pieces, pieces[1:]):
            joined += _separator(before, piece) + piece
        return joined.replace(_GAP_MARK, "\n\n")

    total = count(text)
    if total <= limit:
        return [(shown([text]), total)]
    sentences: list[tuple[str, int]] = []
    for sentence in split_document_sentences(text):
        n = count(sentence)
        if n > limit:
            # An over-long sentence is cut at words as before; its paragraph breaks are dropped.
            sentences.extend((piece, count(piece)) for piece in counter.split(sentence.replace(_GAP_MARK, " "), limit))
        else:
            sentences.append((sentence, n))
    parts = -(-total // limit)
    target = total / parts
    chunks: list[tuple[str, int]] = []
    current: list[str] = []
    size = 0
    for sentence, n in sentences:
        if current and (size + n > limit or size >= target):
            chunks.append((shown(current), size))
            current, size = [], 0
        current.append(sentence)
        size += n
    if current:
        chunks.append((shown(current), size))
    return chunks
