"""Text analysis for the knowledge base: the BM25 tokenizer, sentence splitting, chunking.

The tokenizer handles English and Korean in the same string, with no network model:
- Latin letters and digits: NFKC, lower-case, English stop words dropped, Porter stemming.
- Hangul: each run is split into overlapping syllable bigrams (a one-syllable run stays a
  unigram), so "당뇨병이" matches "당뇨병" through 당뇨/뇨병 whatever particle follows.
- Other letters (CJK ideographs, Cyrillic, ...) are kept as lower-cased words.

`TOKENIZER_VERSION` goes into the index manifest: change it whenever the output of
`tokenize` changes, so that a stale BM25 index is rebuilt instead of misused.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Callable, Iterable

from engine.tokenizer import cl100k

TOKENIZER_VERSION = "ko-en-1"

_HANGUL = "\uac00-\ud7a3"
_TOKEN_RE = re.compile(rf"[a-z0-9]+|[{_HANGUL}]+|[^\W\d_a-z{_HANGUL}]+")

STOP_WORDS = frozenset(
    """a about above after again against all am an and any are aren as at be because been
    before being below between both but by can cannot could couldn did didn do does doesn
    doing don down during each few for from further had hadn has hasn have haven having he
    her here hers herself him himself his how i if in into is isn it its itself just let
    ll me more most mustn my myself no nor not now of off on once only or other ought our
    ours ourselves out over own re s same shan she should shouldn so some such t than that
    the their theirs them themselves then there these they this those through to too under
    until up ve very was wasn we were weren what when where which while who whom why will
    with won would wouldn you your yours yourself yourselves also get got please thank
    thanks hi hello dear would like know""".split()
)


def tokenize(text: str) -> list[str]:
    """BM25 tokens of `text` (English words stemmed, Hangul as syllable bigrams)."""
    text = unicodedata.normalize("NFKC", text).lower()
    out: list[str] = []
    for piece in _TOKEN_RE.findall(text):
        first = piece[0]
        if "\uac00" <= first <= "\ud7a3":
            if len(piece) == 1:
                out.append(piece)
            else:
                out.extend(piece[i : i + 2] for i in range(len(piece) - 1))
        elif first.isascii():
            if piece in STOP_WORDS:
                continue
            out.append(stem(piece))
        else:
            out.append(piece)
    return out


# --- Porter stemmer (M. F. Porter, 1980), cached per word -------------------------------

_VOWELS = frozenset("aeiou")


def _is_consonant(word: str, i: int) -> bool:
    ch = word[i]
    if ch in _VOWELS:
        return False
    if ch == "y":
        return i == 0 or not _is_consonant(word, i - 1)
    return True


def _measure(stem_: str) -> int:
    """m in [C](VC)^m[V]."""
    m, i, n = 0, 0, len(stem_)
    while i < n and _is_consonant(stem_, i):
        i += 1
    while i < n:
        while i < n and not _is_consonant(stem_, i):
            i += 1
        if i >= n:
            break
        while i < n and _is_consonant(stem_, i):
            i += 1
        m += 1
    return m


def _has_vowel(stem_: str) -> bool:
    return any(not _is_consonant(stem_, i) for i in range(len(stem_)))


def _ends_double_consonant(word: str) -> bool:
    return len(word) >= 2 and word[-1] == word[-2] and _is_consonant(word, len(word) - 1)


def _cvc(word: str) -> bool:
    n = len(word)
    return (
        n >= 3
        and _is_consonant(word, n - 3)
        and not _is_consonant(word, n - 2)
        and _is_consonant(word, n - 1)
        and word[-1] not in "wxy"
    )


_STEP2 = (
    ("ational", "ate"), ("tional", "tion"), ("enci", "ence"), ("anci", "ance"),
    ("izer", "ize"), ("abli", "able"), ("alli", "al"), ("entli", "ent"), ("eli", "e"),
    ("ousli", "ous"), ("ization", "ize"), ("ation", "ate"), ("ator", "ate"),
    ("alism", "al"), ("iveness", "ive"), ("fulness", "ful"), ("ousness", "ous"),
    ("aliti", "al"), ("iviti", "ive"), ("biliti", "ble"),
)
_STEP3 = (
    ("icate", "ic"), ("ative", ""), ("alize", "al"), ("iciti", "ic"), ("ical", "ic"),
    ("ful", ""), ("ness", ""),
)
_STEP4 = (
    "al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent",
    "ion", "ou", "ism", "ate", "iti", "ous", "ive", "ize",
)


@lru_cache(maxsize=200_000)
def stem(word: str) -> str:
    """Porter stem of a lower-case ASCII word; digits and short words are left alone."""
    if len(word) <= 2 or not word.isalpha():
        return word
    w = word
    # step 1a
    if w.endswith("sses"):
        w = w[:-2]
    elif w.endswith("ies"):
        w = w[:-2]
    elif w.endswith("ss"):
        pass
    elif w.endswith("s"):
        w = w[:-1]
    # step 1b
    extra = False
    if w.endswith("eed"):
        if _measure(w[:-3]) > 0:
            w = w[:-1]
    elif w.endswith("ed") and _has_vowel(w[:-2]):
        w, extra = w[:-2], True
    elif w.endswith("ing") and _has_vowel(w[:-3]):
        w, extra = w[:-3], True
    if extra:
        if w.endswith(("at", "bl", "iz")):
            w += "e"
        elif _ends_double_consonant(w) and w[-1] not in "lsz":
            w = w[:-1]
        elif _measure(w) == 1 and _cvc(w):
            w += "e"
    # step 1c
    if w.endswith("y") and _has_vowel(w[:-1]):
        w = w[:-1] + "i"
    # step 2
    for suffix, repl in _STEP2:
        if w.endswith(suffix):
            if _measure(w[: -len(suffix)]) > 0:
                w = w[: -len(suffix)] + repl
            break
    # step 3
    for suffix, repl in _STEP3:
        if w.endswith(suffix):
            if _measure(w[: -len(suffix)]) > 0:
                w = w[: -len(suffix)] + repl
            break
    # step 4
    for suffix in _STEP4:
        if w.endswith(suffix):
            base = w[: -len(suffix)]
            if _measure(base) > 1 and (suffix != "ion" or base.endswith(("s", "t"))):
                w = base
            break
    # step 5
    if w.endswith("e"):
        base = w[:-1]
        m = _measure(base)
        if m > 1 or (m == 1 and not _cvc(base)):
            w = base
    if _measure(w) > 1 and _ends_double_consonant(w) and w.endswith("l"):
        w = w[:-1]
    return w


# --- sentences and chunks ---------------------------------------------------------------

_SENTENCE_END = re.compile(r"(?<=[.!?。])\s+|\n\s*\n|\n(?=\s*[-*•]\s)")
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


def split_sentences(text: str) -> list[str]:
    parts = (p.strip() for p in _SENTENCE_END.split(text))
    return [p for p in parts if p]


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
    for sentence in split_sentences(text):
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


def tokenize_many(texts: Iterable[str]) -> list[list[str]]:
    return [tokenize(t) for t in texts]
