"""The typed state of one turn as it flows through the graph.

Nodes never mutate the state in place: each returns a dict of updates that the runner
applies with `TurnState.apply`, which rejects unknown fields so a typo in a node is an
error, not a silently dropped value.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from typing import Any

from engine.passage import Passage


@dataclass
class TurnState:
    # inputs
    text: str
    mode: str = "agent"
    language: str = "en"
    patient_id: str | None = None
    session_id: str | None = None
    turn_index: int = 0
    # understanding
    slots: dict = field(default_factory=dict)
    slots_extracted: bool = False  # set by extract_and_triage, so the slots are extracted once
    alerts: list[dict] = field(default_factory=list)
    emergency: bool = False
    intent: str = "question"
    intent_source: str = "rules"
    needs_retrieval: bool = True
    query_complexity: str | None = None
    dynamic_k: int = 0
    # cache
    cache_hit: bool = False
    cache_similarity: float | None = None
    cache_entry_id: str | None = None
    query_vector: Any = None
    # memory and profile
    profile_summary: str = ""
    profile_fingerprint: str = ""
    long_term: str = ""
    recent_turns: list[dict] = field(default_factory=list)
    # context
    budget: dict = field(default_factory=dict)
    context_sections: dict = field(default_factory=dict)
    messages: list[dict] = field(default_factory=list)
    used_profile: bool = False
    # retrieval
    retrieval_query: str = ""
    query_en: str = ""  # the English query searched for a translated (Korean or clinical) message
    documents: list[Passage] = field(default_factory=list)
    prefetched: list[Passage] | None = None
    document_hashes: list[list[str]] = field(default_factory=list)
    compression: dict = field(default_factory=dict)
    retrieval_skipped: bool = False
    # answer and quality
    answer: str = ""
    drafts: list[dict] = field(default_factory=list)
    sentences: list[dict] = field(default_factory=list)
    judgement: dict = field(default_factory=dict)
    quality_score: float | None = None
    quality_history: list[float] = field(default_factory=list)
    iterations: int = 0
    decisions: list[str] = field(default_factory=list)
    # accounting
    llm_calls: int = 0
    prompt_tokens: int = 0
    completion_tokens: int = 0
    llm_ms: float = 0.0
    cancelled: bool = False
    nodes: list[str] = field(default_factory=list)
    timings_ms: dict = field(default_factory=dict)

    def apply(self, update: dict | None) -> None:
        if not update:
            return
        known = _field_names()
        unknown = set(update) - known
        if unknown:
            raise KeyError(f"unknown turn-state field(s): {', '.join(sorted(unknown))}")
        for name, value in update.items():
            setattr(self, name, value)


_FIELDS: frozenset[str] | None = None


def _field_names() -> frozenset[str]:
    global _FIELDS
    if _FIELDS is None:
        _FIELDS = frozenset(f.name for f in fields(TurnState))
    return _FIELDS
