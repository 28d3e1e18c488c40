"""The guarded response cache (LRU + TTL).

Embedding similarity ≥ threshold (0.85) is necessary but never sufficient: a cached answer
is reused only when the new question carries the same clinical concepts, numbers,
negation, direction (hypo- vs hyper-, 저- vs 고-), population (child vs adult, pregnant),
medical words (so one different drug never hits), question type and language, and when
the answer did not depend on a patient profile other than the current one (same profile
fingerprint). Every entry also carries the clinical context it was written in (allergies,
current medications, conditions, pregnancy, age group: `clinical_context_key`), and is
reused only for a patient with the same: an answer written without an allergy is never
served to a patient who has one. Korean text gets an extra lexical floor because the default embedding model
cannot read Hangul. A hit is re-phrased lightly without touching any sentence that holds
a number, a medical word or a warning.

Entries live in memory; `store` (the encrypted vault's cache table, when a patient store
is open) persists them, because cached answers derive from patient questions (PHI).
"""

from __future__ import annotations

import hashlib
import re
import time
from collections import OrderedDict
from dataclasses import dataclass, field
from typing import Callable, Protocol

import numpy as np

from engine.knowledge.questions import question_kinds
from engine.text import (
    content_words,
    detect_language,
    direction_markers,
    has_hangul,
    is_negated,
    medical_words,
    numbers,
    population_markers,
    split_answer_sentences,
    words,
)

KOREAN_LEXICAL_FLOOR = 0.35
_CONTEXT_SLOTS = ("allergies", "contraindications", "medications", "conditions")


def clinical_context_key(profile: dict | None) -> str:
    """A hash of the patient facts that can change an answer (empty profile included).

    Allergies and contraindications count whatever their status (a pending allergy still
    raises alerts); negated items do not.
    """
    profile = profile or {}
    facts = []
    for slot in _CONTEXT_SLOTS:
        for item in profile.get(slot) or []:
            if isinstance(item, str):
                item = {"name": item}
            if item.get("negated"):
                continue
            key = item.get("concept_id") or str(item.get("name") or "").strip().lower()
            if key:
                facts.append(f"{slot}:{key}")
    demographics = profile.get("demographics") or {}
    facts += [f"pregnant:{bool(demographics.get('pregnant'))}", f"age_group:{demographics.get('age_group') or ''}"]
    return hashlib.sha256("\n".join(sorted(set(facts))).encode()).hexdigest()[:16]


EMPTY_CLINICAL_CONTEXT = clinical_context_key(None)


@dataclass(frozen=True)
class QuerySignature:
    concepts: frozenset[str]
    numbers: frozenset[str]
    negated: bool
    directions: frozenset[str]
    population: frozenset[str]
    medical: frozenset[str]
    question_types: frozenset[str]
    language: str

    def to_dict(self) -> dict:
        return {k: sorted(v) if isinstance(v, frozenset) else v for k, v in self.__dict__.items()}

    @classmethod
    def from_dict(cls, data: dict) -> "QuerySignature":
        return cls(**{k: frozenset(v) if isinstance(v, list) else v for k, v in data.items()})


def query_signature(text: str, concepts: frozenset[str] | set[str] = frozenset()) -> QuerySignature:
    return QuerySignature(
        concepts=frozenset(concepts),
        numbers=numbers(text),
        negated=is_negated(text),
        directions=direction_markers(text),
        population=population_markers(text),
        medical=medical_words(text),
        question_types=question_kinds(text),
        language=detect_language(text),
    )


def guard_mismatches(new: QuerySignature, cached: QuerySignature) -> list[str]:
    """Names of the signature parts that differ; empty means the cached answer may be reused."""
    return [name for name in ("language", "concepts", "numbers", "negated", "directions", "population", "medical",
                              "question_types") if getattr(new, name) != getattr(cached, name)]


def lexical_similarity(a: str, b: str) -> float:
    """Dice coefficient of character bigrams over particle-stripped words (for Hangul text)."""
    def bigrams(text: str) -> set[str]:
        joined = "".join(words(text))
        return {joined[i:i + 2] for i in range(len(joined) - 1)}

    first, second = bigrams(a), bigrams(b)
    if not first or not second:
        return 0.0
    return 2 * len(first & second) / (len(first) + len(second))


@dataclass
class CacheEntry:
    id: str
    query: str
    vector: np.ndarray
    signature: QuerySignature
    answer: str
    sources: list[dict]
    used_profile: bool
    profile_fingerprint: str
    created: float
    prompt_tokens: int = 0
    completion_tokens: int = 0
    generation_ms: float = 0.0
    hits: int = 0
    last_used: float = 0.0
    patient_id: int | None = None  # whose turn asked it: the entry is deleted with that patient
    # clinical_context_key of the patient it was written for; None (an entry stored before
    # the key existed): never reused
    clinical_key: str | None = EMPTY_CLINICAL_CONTEXT

    def to_record(self) -> dict:
        return {"id": self.id, "query": self.query, "vector": self.vector.astype(np.float32).tobytes(),
                "signature": self.signature.to_dict(), "answer": self.answer, "sources": self.sources,
                "used_profile": self.used_profile, "profile_fingerprint": self.profile_fingerprint,
                "created": self.created, "prompt_tokens": self.prompt_tokens,
                "completion_tokens": self.completion_tokens, "generation_ms": self.generation_ms, "hits": self.hits,
                "patient_id": self.patient_id, "clinical_key": self.clinical_key}

    @classmethod
    def from_record(cls, record: dict) -> "CacheEntry":
        vector = record["vector"]
        if isinstance(vector, (bytes, bytearray, memoryview)):
            vector = np.frombuffer(bytes(vector), dtype=np.float32)
        return cls(id=record["id"], query=record["query"], vector=np.asarray(vector, dtype=np.float32),
                   signature=QuerySignature.from_dict(record["signature"]), answer=record["answer"],
                   sources=list(record.get("sources") or []), used_profile=bool(record["used_profile"]),
                   profile_fingerprint=record.get("profile_fingerprint") or "", created=float(record["created"]),
                   prompt_tokens=int(record.get("prompt_tokens") or 0),
                   completion_tokens=int(record.get("completion_tokens") or 0),
                   generation_ms=float(record.get("generation_ms") or 0.0), hits=int(record.get("hits") or 0),
                   patient_id=record.get("patient_id"), clinical_key=record.get("clinical_key"))


@dataclass
class CacheLookup:
    entry: CacheEntry | None
    similarity: float
    rejected: list[tuple[str, list[str]]] = field(default_factory=list)


class CacheStore(Protocol):
    """Persistence of entries (the vault's cache table); all methods may be no-ops."""

    def load(self) -> list[dict]: ...

    def save(self, record: dict) -> None: ...

    def delete(self, entry_id: str) -> None: ...


@dataclass
class CacheCounters:
    lookups: int = 0
    hits: int = 0
    guard_rejections: int = 0
    tokens_saved: int = 0
    ms_saved: float = 0.0

    def as_dict(self) -> dict:
        rate = self.hits / self.lookups if self.lookups else 0.0
        return {"lookups": self.lookups, "hits": self.hits, "hit_rate": round(rate, 4),
                "guard_rejections": self.guard_rejections, "tokens_saved": self.tokens_saved,
                "ms_saved": round(self.ms_saved, 1)}


class ResponseCache:
    def __init__(self, *, threshold: float = 0.85, max_entries: int = 1000, ttl_seconds: float = 86400,
                 store: CacheStore | None = None, clock: Callable[[], float] = time.time):
        self.threshold = threshold
        self.max_entries = max_entries
        self.ttl_seconds = ttl_seconds
        self.store = store
        self.clock = clock
        self.counters = CacheCounters()
        self._entries: OrderedDict[str, CacheEntry] = OrderedDict()
        self._matrix: np.ndarray | None = None
        if store is not None:
            for record in store.load():
                entry = CacheEntry.from_record(record)
                self._entries[entry.id] = entry
            self._evict()

    def __len__(self) -> int:
        return len(self._entries)

    def clear(self) -> None:
        for entry_id in list(self._entries):
            self._remove(entry_id)

    def lookup(self, query: str, vector: np.ndarray, signature: QuerySignature, profile_fingerprint: str,
               clinical_key: str = EMPTY_CLINICAL_CONTEXT) -> CacheLookup:
        """The best reusable entry, or none; guard rejections are listed for the trace.

        `clinical_key` is the asking patient's `clinical_context_key`; an entry written for
        other clinical facts (or with none recorded) is rejected as "patient facts".
        """
        self.counters.lookups += 1
        self._expire()
        if not self._entries:
            return CacheLookup(None, 0.0)
        ids = list(self._entries)
        if self._matrix is None or len(self._matrix) != len(ids):
            self._matrix = np.stack([self._entries[i].vector for i in ids]).astype(np.float32)
        scores = self._matrix @ np.asarray(vector, dtype=np.float32)
        best_similarity = float(scores.max())
        rejected: list[tuple[str, list[str]]] = []
        for index in np.argsort(-scores):
            similarity = float(scores[index])
            if similarity < self.threshold:
                break
            entry = self._entries[ids[index]]
            reasons = guard_mismatches(signature, entry.signature)
            if entry.used_profile and entry.profile_fingerprint != profile_fingerprint:
                reasons.append("profile")
            if entry.clinical_key is None or entry.clinical_key != clinical_key:
                reasons.append("patient facts")
            if has_hangul(query) or has_hangul(entry.query):
                if lexical_similarity(query, entry.query) < KOREAN_LEXICAL_FLOOR:
                    reasons.append("lexical")
            if reasons:
                rejected.append((entry.id, reasons))
                continue
            entry.hits += 1
            entry.last_used = self.clock()
            self._entries.move_to_end(entry.id)
            self.counters.hits += 1
            self.counters.tokens_saved += entry.prompt_tokens + entry.completion_tokens
            self.counters.ms_saved += entry.generation_ms
            return CacheLookup(entry, similarity, rejected)
        self.counters.guard_rejections += 1 if rejected else 0
        return CacheLookup(None, best_similarity, rejected)

    def put(self, entry: CacheEntry) -> None:
        entry.last_used = entry.last_used or entry.created
        self._entries[entry.id] = entry
        self._entries.move_to_end(entry.id)
        self._matrix = None
        if self.store is not None:
            self.store.save(entry.to_record())
        self._evict()

    def _expire(self) -> None:
        now = self.clock()
        for entry_id in [i for i, e in self._entries.items() if now - e.created > self.ttl_seconds]:
            self._remove(entry_id)

    def _evict(self) -> None:
        self._expire()
        while len(self._entries) > self.max_entries:
            self._remove(next(iter(self._entries)))

    def _remove(self, entry_id: str) -> None:
        self._entries.pop(entry_id, None)
        self._matrix = None
        if self.store is not None:
            self.store.delete(entry_id)


def entry_id(query: str, fingerprint: str, created: float) -> str:
    return hashlib.sha256(f"{query}\x00{fingerprint}\x00{created}".encode()).hexdigest()[:24]


_LEAD_INS = {
    "en": ("As noted earlier: ", "To recap: ", "In short: ", "Here is the same information again. "),
    "ko": ("앞서 말씀드린 내용을 정리하면, ", "다시 말씀드리면, ", "요약하자면, ", "이전 답변과 같은 내용입니다. "),
}
_CONNECTORS = {
    "en": {"Also,": "In addition,", "In addition,": "Also,", "However,": "That said,", "So,": "Therefore,"},
    "ko": {"또한": "그리고", "따라서": "그러므로", "그리고": "또한", "하지만": "그러나"},
}
_WARNING = re.compile(r"warn|danger|emergenc|allerg|avoid|do not|don't|never|stop|call|hospital|119|911|"
                      r"주의|경고|위험|응급|알레르기|금지|피하|중단|병원|즉시", re.IGNORECASE)


def vary_phrasing(answer: str, query: str, language: str) -> str:
    """A light rewording of a cached answer; sentences with numbers, medical words or warnings stay verbatim."""
    language = language if language in _LEAD_INS else "en"
    choice = int(hashlib.sha256(query.encode()).hexdigest(), 16)
    lead = _LEAD_INS[language][choice % len(_LEAD_INS[language])]
    varied = answer
    for sentence in split_answer_sentences(answer):
        if numbers(sentence) or medical_words(sentence) or _WARNING.search(sentence):
            continue
        replacement = next((new + sentence[len(old):] for old, new in _CONNECTORS[language].items()
                            if sentence.startswith(old)), None)
        if replacement is not None:
            varied = varied.replace(sentence, replacement, 1)
            break
    return lead + varied if content_words(varied) else varied
