"""A second emergency check: is the message close to an emergency someone has described before?

The red-flag rules (red_flags.py) catch the phrasings they were written for. On each hold-out
set written after a rule change they caught only 0.32-0.80 of the new emergencies, because
people describe the same emergency in endless ways. This check compares the message with the
team's labelled messages instead: the emergencies and ordinary messages of the triage sets
the rules were written against (`triage.jsonl` to `triage_holdout4.jsonl`) and the ordinary
statements of the extraction tuning sets. English text is compared by sentence embedding
(the knowledge base's embedder); Korean by character n-gram TF-IDF, because the English
embedder cannot read Hangul. A message is flagged when its nearest labelled emergency is at
least `similarity` alike and at least `margin` nearer than the nearest ordinary message; the
category is that emergency's.

The thresholds were chosen by leave-one-set-out cross-validation over those five sets, by a
rule fixed before looking: the highest cross-validated recall with at most 5 % false alarms
on the sets' ordinary messages and at most 1 % on ordinary questions (LiveQA, MedQuAD and the
Korean retrieval questions). `triage_holdout5.jsonl` was not used for anything but the report
(resources/clinical/eval/README.md).
"""

from __future__ import annotations

import math
import re
import threading
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from engine.clinical.eval_sets import eval_dir, read_jsonl
from engine.clinical.red_flags import MESSAGES, RESEMBLES, triage
from engine.text import is_korean

EMERGENCY_SETS = ("triage.jsonl", "triage_holdout.jsonl", "triage_holdout2.jsonl", "triage_holdout3.jsonl",
                  "triage_holdout4.jsonl")
ORDINARY_SETS = ("extraction.jsonl", "extraction_fresh.jsonl")


@dataclass(frozen=True)
class Threshold:
    similarity: float
    margin: float


ENGLISH = Threshold(similarity=0.50, margin=0.05)
KOREAN = Threshold(similarity=0.35, margin=0.0)

Embed = Callable[[Sequence[str]], np.ndarray]


@dataclass(frozen=True)
class Match:
    category: str
    similarity: float
    nearest_ordinary: float


def labelled_messages(directory: Path | None = None) -> list[tuple[str, str | None]]:
    """(text, category or None for an ordinary message) from the sets named above."""
    directory = directory or eval_dir()
    messages = [(row["text"], row["category"] if row["emergency"] else None)
                for name in EMERGENCY_SETS for row in read_jsonl(directory / name)]
    messages += [(row["text"], None) for name in ORDINARY_SETS for row in read_jsonl(directory / name)]
    return messages


class CharNgrams:
    """TF-IDF over character 1-3-grams inside space-separated words (padded with a space each
    side; sublinear term frequency, smoothed IDF), L2-normalised."""

    def __init__(self, texts: Sequence[str]):
        documents = [self._grams(text) for text in texts]
        frequency = Counter(gram for grams in documents for gram in set(grams))
        self.vocabulary = {gram: index for index, gram in enumerate(sorted(frequency))}
        total = len(documents)
        self.idf = np.array([math.log((1 + total) / (1 + frequency[gram])) + 1 for gram in sorted(frequency)])
        self.matrix = np.vstack([self.vector(text) for text in texts]) if texts else np.zeros((0, len(self.idf)))

    @staticmethod
    def _grams(text: str) -> list[str]:
        grams = []
        for word in text.lower().split():
            padded = f" {word} "
            grams += [padded[i: i + n] for n in (1, 2, 3) for i in range(max(len(padded) - n + 1, 1))]
        return grams

    def vector(self, text: str) -> np.ndarray:
        out = np.zeros(len(self.idf))
        for gram, count in Counter(self._grams(text)).items():
            index = self.vocabulary.get(gram)
            if index is not None:
                out[index] = (1 + math.log(count)) * self.idf[index]
        norm = np.linalg.norm(out)
        return out / norm if norm else out


class SimilarEmergencies:
    """`match(text)`: the nearest labelled emergency when the message is close enough, else None.
    The labelled messages are embedded by `load()` (about a second, holding the GIL for much of
    it), which the engine's warm-up calls so that the first turn does not; otherwise on first use."""

    def __init__(self, embed: Embed, messages: list[tuple[str, str | None]] | None = None):
        self._embed = embed
        self._messages = messages
        self._lock = threading.Lock()
        self._ready = False

    def load(self) -> None:
        with self._lock:
            if self._ready:
                return
            messages = self._messages if self._messages is not None else labelled_messages()
            english = [(text, category) for text, category in messages if not is_korean(text)]
            korean = [(text, category) for text, category in messages if is_korean(text)]
            self._english_labels = [category for _, category in english]
            self._english = _normalised(self._embed([text for text, _ in english]))
            self._korean_labels = [category for _, category in korean]
            self._korean = CharNgrams([text for text, _ in korean])
            self._ready = True

    def match(self, text: str) -> Match | None:
        if not text or not text.strip():
            return None
        self.load()
        if is_korean(text):
            similarities = self._korean.matrix @ self._korean.vector(text)
            return _nearest(similarities, self._korean_labels, KOREAN)
        vector = _normalised(self._embed([text]))[0]
        return _nearest(self._english @ vector, self._english_labels, ENGLISH)


def _normalised(vectors: np.ndarray) -> np.ndarray:
    vectors = np.asarray(vectors, dtype=np.float32)
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / np.where(norms == 0, 1, norms)


def _nearest(similarities: np.ndarray, labels: list[str | None], threshold: Threshold) -> Match | None:
    emergency = np.array([label is not None for label in labels])
    if not emergency.any():
        return None
    best_emergency = int(np.argmax(np.where(emergency, similarities, -np.inf)))
    best_ordinary = float(np.max(np.where(~emergency, similarities, -np.inf))) if (~emergency).any() else -1.0
    similarity = float(similarities[best_emergency])
    if similarity >= threshold.similarity and similarity - best_ordinary >= threshold.margin:
        return Match(labels[best_emergency], round(similarity, 4), round(best_ordinary, 4))
    return None


# An English question about a condition in general ("What is the treatment for asthma?") is
# close to emergencies about that condition, but asks for information: the check is for
# messages about a person.
_GENERAL_QUESTION = re.compile(r"^\s*(?:what|how|why|which|when|where|who|is|are|can|could|do|does|should)\b", re.I)
_ABOUT_A_PERSON = re.compile(
    r"\b(?:i|i'm|im|i've|i'd|me|my|mine|we|our|us|he|she|his|her|him|they|their|them|you|your|"
    r"son|daughter|mum|mom|mother|dad|father|wife|husband|partner|baby|child|kid|toddler|friend|"
    r"brother|sister|grand\w*|uncle|aunt|patient|someone|somebody)\b", re.I)


def _general_question(text: str) -> bool:
    return not is_korean(text) and bool(_GENERAL_QUESTION.match(text)) and not _ABOUT_A_PERSON.search(text)


def triage_with_similar(text: str, similar: SimilarEmergencies | None) -> dict:
    """The red-flag rules, then (when they find nothing) the similarity check.

    `{"emergency", "category", "message", "detected_by"}`: "rules", "similar" or None.
    """
    verdict = dict(triage(text))
    verdict["detected_by"] = "rules" if verdict["emergency"] else None
    if verdict["emergency"] or similar is None or _general_question(text):
        return verdict
    match = similar.match(text)
    if match is None:
        return verdict
    language = "ko" if is_korean(text) else "en"
    return {"emergency": True, "category": match.category,
            "message": RESEMBLES[language] + MESSAGES[language][match.category],
            "detected_by": "similar", "similarity": match.similarity}
