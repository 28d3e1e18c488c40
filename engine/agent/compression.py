"""Fitting retrieved documents into the document budget.

The documents section of the prompt is rendered as numbered sources (`[1] title: text`)
so that citations in the answer map to `sources`. When it is over budget it is compressed:

- extractive: sentence importance = 0.4 query overlap + 0.3 medical-entity density
  + 0.2 position + 0.1 normalised entropy; greedy by importance to the budget, then the
  kept sentences in their original order (no LLM call);
- abstractive: an LLM summary that keeps numbers and drug names; retried once with a
  shorter target when the summary is still over budget; ModelOutputError otherwise;
- hybrid: extractive to 60 % of the budget, then abstractive; falls back to the
  extractive result when the model fails.

Whatever the strategy, the rendered section never exceeds the budget (checked with the
same token counter as the plan).
"""

from __future__ import annotations

import math
import time
from collections import Counter
from dataclasses import dataclass

from engine.passage import Passage
from engine.agent.tokens import TokenManager
from engine.errors import ModelOutputError, ModelUnavailable
from engine.agent.support import passage_units
from engine.text import content_words, is_medical_word

WEIGHTS = (0.4, 0.3, 0.2, 0.1)
HYBRID_EXTRACTIVE_SHARE = 0.6


@dataclass
class _Sentence:
    doc: int
    index: int
    text: str
    score: float
    tokens: int


def render_documents(documents: list[Passage], texts: list[str] | None = None) -> str:
    texts = texts if texts is not None else [d.text for d in documents]
    blocks = []
    for number, (doc, text) in enumerate(zip(documents, texts), 1):
        if not text.strip():
            continue
        title = f" {doc.title}:" if doc.title else ""
        blocks.append(f"[{number}]{title} {text.strip()}")
    return "\n".join(blocks)


def sentence_importance(sentence: str, query_words: set[str], position: int, count: int) -> float:
    """Seed formula; every component is in [0, 1], so is the score."""
    words = content_words(sentence)
    if not words:
        return 0.0
    unique = set(words)
    overlap = len(unique & query_words) / len(query_words) if query_words else 0.0
    density = min(1.0, sum(1 for w in words if is_medical_word(w)) / len(words) / 0.5)
    position_score = 1.0 - position / count if count > 1 else 1.0
    frequencies = Counter(words)
    entropy = -sum((n / len(words)) * math.log2(n / len(words)) for n in frequencies.values())
    normalised_entropy = entropy / math.log2(len(words)) if len(words) > 1 else 0.0
    w_overlap, w_density, w_position, w_entropy = WEIGHTS
    return w_overlap * overlap + w_density * density + w_position * position_score + w_entropy * normalised_entropy


def extractive(documents: list[Passage], query: str, budget: int, tokens: TokenManager) -> str:
    """The most important sentences that fit `budget` tokens, rendered in original order."""
    if budget <= 0 or not documents:
        return ""
    query_words = set(content_words(query))
    sentences: list[_Sentence] = []
    for d, doc in enumerate(documents):
        parts = passage_units(doc.text)
        for i, part in enumerate(parts):
            sentences.append(_Sentence(d, i, part, sentence_importance(part, query_words, i, len(parts)),
                                       tokens.count(part) + 1))
    header_cost = {d: tokens.count(f"[{d + 1}] {doc.title}:") + 1 for d, doc in enumerate(documents)}
    chosen: list[_Sentence] = []
    used = 0
    opened: set[int] = set()
    for sentence in sorted(sentences, key=lambda s: (-s.score, s.doc, s.index)):
        cost = sentence.tokens + (0 if sentence.doc in opened else header_cost[sentence.doc])
        if used + cost <= budget:
            chosen.append(sentence)
            opened.add(sentence.doc)
            used += cost
    text = _render_chosen(documents, chosen)
    while chosen and tokens.count(text) > budget:
        chosen.remove(min(chosen, key=lambda s: s.score))
        text = _render_chosen(documents, chosen)
    return text


def _render_chosen(documents: list[Passage], chosen: list[_Sentence]) -> str:
    per_doc: dict[int, list[_Sentence]] = {}
    for sentence in chosen:
        per_doc.setdefault(sentence.doc, []).append(sentence)
    texts = [" ".join(s.text for s in sorted(per_doc.get(d, []), key=lambda s: s.index)) for d in range(len(documents))]
    return render_documents(documents, texts)


def abstractive(section: str, query: str, budget: int, tokens: TokenManager, llm, stats: dict) -> str:
    """LLM summary of `section` within `budget` tokens (counts calls in `stats`). Raises ModelOutputError."""
    if budget <= 0:
        return ""
    target = budget
    for _attempt in range(2):
        stats["llm_calls"] = stats.get("llm_calls", 0) + 1
        messages = [
            {"role": "system", "content": "You summarise medical sources for a clinician. Keep every number, dose, "
                                          "drug name and warning exactly. Keep the source numbers like [1]."},
            {"role": "user", "content": f"Question: {query}\n\nSources:\n{section}\n\n"
                                        f"Summarise what answers the question in at most {max(16, target * 3 // 4)} words."},
        ]
        summary = llm.chat("summarise", messages, max_tokens=target, temperature=0.0).strip()
        if summary and tokens.count(summary) <= budget:
            return summary
        target = max(8, int(target * 0.6))
    raise ModelOutputError(f"abstractive summary stayed over {budget} tokens")


def compress(documents: list[Passage], query: str, budget: int, strategy: str, tokens: TokenManager,
             llm=None, *, enabled: bool = True) -> tuple[str, dict]:
    """Render the documents within `budget`, compressing when needed. Returns (section, stats)."""
    started = time.perf_counter()
    full = render_documents(documents)
    original = tokens.count(full)
    stats = {"strategy": None, "original_tokens": original, "tokens": original, "llm_calls": 0, "fallback": None}
    if original <= budget:
        return full, _finish(stats, started)
    if not enabled:
        section = _truncate_documents(documents, budget, tokens)
        stats.update(strategy="truncate", tokens=tokens.count(section))
        return section, _finish(stats, started)
    if strategy == "extractive" or llm is None:
        section = extractive(documents, query, budget, tokens)
        stats.update(strategy="extractive", tokens=tokens.count(section))
        return section, _finish(stats, started)
    source = full if strategy == "abstractive" else extractive(documents, query, int(budget * HYBRID_EXTRACTIVE_SHARE), tokens)
    try:
        summary = abstractive(source, query, budget, tokens, llm, stats)
        numbers = ", ".join(f"[{i}]" for i in range(1, len(documents) + 1))
        section = tokens.truncate(f"Summary of sources {numbers}: {summary}", budget)
        stats.update(strategy=strategy, tokens=tokens.count(section))
    except (ModelOutputError, ModelUnavailable) as exc:
        section = source if strategy == "hybrid" else extractive(documents, query, budget, tokens)
        stats.update(strategy="extractive", fallback=str(exc), tokens=tokens.count(section))
    return section, _finish(stats, started)


def _truncate_documents(documents: list[Passage], budget: int, tokens: TokenManager) -> str:
    """Compression switched off: keep whole documents in rank order while they fit, cut the next one."""
    kept: list[str] = []
    for number, doc in enumerate(documents, 1):
        block = f"[{number}] {doc.title + ':' if doc.title else ''} {doc.text.strip()}"
        candidate = "\n".join(kept + [block])
        if tokens.count(candidate) <= budget:
            kept.append(block)
            continue
        rest = tokens.truncate(block, budget - tokens.count("\n".join(kept)) - 1)
        if rest:
            kept.append(rest)
        break
    section = "\n".join(kept)
    return section if tokens.count(section) <= budget else tokens.truncate(section, budget)


def _finish(stats: dict, started: float) -> dict:
    stats["ms"] = round((time.perf_counter() - started) * 1000, 3)
    stats["ratio"] = round(stats["tokens"] / stats["original_tokens"], 4) if stats["original_tokens"] else 1.0
    return stats
