"""The turn result in the `chartside chat --json` format (README, docs/ARCHITECTURE.md)."""

from __future__ import annotations

import time

from engine.agent.services import AgentServices
from engine.agent.state import TurnState


def llm_figures(services: AgentServices) -> dict:
    llm = services.llm
    return {"calls": getattr(llm, "calls", 0), "ms": round(getattr(llm, "ms", 0.0), 3),
            "prompt_tokens": getattr(llm, "prompt_tokens", 0), "completion_tokens": getattr(llm, "completion_tokens", 0),
            "by_role": dict(getattr(llm, "by_role", {}))}


def turn_result(state: TurnState, services: AgentServices, *, started: float | None = None, model: str = "") -> dict:
    figures = llm_figures(services)
    timings = dict(state.timings_ms)
    nodes_ms = sum(timings.values())
    timings["total"] = round((time.perf_counter() - started) * 1000, 3) if started else round(nodes_ms, 3)
    timings["llm"] = figures["ms"]
    timings["pipeline"] = round(max(0.0, timings["total"] - figures["ms"]), 3)
    sources = [d.source(n) for n, d in enumerate(state.documents, 1)] if not state.cache_hit else state_sources(state)
    sentences = answer_sentences(state)
    return {
        "answer": state.answer,
        "alerts": list(state.alerts),
        "sources": sources,
        "sentences": [{k: s.get(k) for k in ("text", "source", "support", "kind")} for s in sentences],
        "trace": {
            "support": sentences,
            "mode": state.mode,
            "model": model,
            "llm_unavailable": getattr(services.llm_unavailable, "user_message", None),
            "language": state.language,
            "nodes": list(state.nodes),
            "intent": state.intent,
            "intent_source": state.intent_source,
            "needs_retrieval": state.needs_retrieval,
            "retrieval_skipped": state.retrieval_skipped,
            "cache_hit": state.cache_hit,
            "cache_similarity": state.cache_similarity,
            "query_complexity": state.query_complexity,
            "dynamic_k": state.dynamic_k,
            "iterations": state.iterations,
            "quality_score": state.quality_score,
            "quality_history": list(state.quality_history),
            "judgement": {k: v for k, v in state.judgement.items()} if state.judgement else None,
            "prompt_tokens": state.prompt_tokens,
            "completion_tokens": state.completion_tokens,
            "llm_calls": figures["calls"],
            "llm_calls_by_role": figures["by_role"],
            "llm_prompt_tokens_total": figures["prompt_tokens"],
            "budget": dict(state.budget),
            "context_tokens": dict(state.context_sections.get("tokens", {})),
            "context_profile": state.context_sections.get("profile", ""),
            "used_profile": state.used_profile,
            "compression": dict(state.compression),
            "retrieval_query": state.retrieval_query,
            "query_en": state.query_en or None,
            "decisions": list(state.decisions),
            "cancelled": state.cancelled,
            "timings_ms": timings,
        },
    }


def answer_sentences(state: TurnState) -> list[dict]:
    """The support records of the draft that became the answer (the refine loop may pick an
    earlier one); each has text, source, support, kind, source_sentence and reason."""
    for draft in reversed(state.drafts):
        if draft.get("answer") == state.answer and "sentences" in draft:
            return list(draft["sentences"])
    return list(state.sentences) if not state.drafts else []


def state_sources(state: TurnState) -> list[dict]:
    return list(state.context_sections.get("cached_sources", []))
