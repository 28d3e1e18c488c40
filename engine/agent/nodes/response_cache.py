"""check_cache and store_response: the guarded response cache and the turn's storage.

The cache runs after `extract_and_triage` and `store_memory`: an emergency turn is always answered
fresh, the message's facts are stored on a hit too, and the patient's clinical context
(allergies, medications, conditions, pregnancy, age group) is part of the key.
"""

from __future__ import annotations

from engine.agent.cache import CacheEntry, clinical_context_key, entry_id, query_signature, vary_phrasing
from engine.agent.nodes.understanding import concept_ids, stored_profile
from engine.agent.result import turn_result
from engine.agent.services import AgentServices
from engine.agent.state import TurnState
from engine.events import Sources, Token


def _cache_active(services: AgentServices) -> bool:
    return services.flags.response_cache and services.cache is not None and services.embedder is not None


def _fingerprint(services: AgentServices) -> str:
    if services.memory is None or not services.flags.profile_memory:
        return ""
    return services.memory.fingerprint()


def _clinical_key(state: TurnState, services: AgentServices) -> str:
    profile = stored_profile(services)
    return clinical_context_key(profile if profile is not None else state.slots)


def check_cache(state: TurnState, services: AgentServices):
    if not _cache_active(services):
        return {}
    if state.emergency:
        return {"decisions": [*state.decisions, "cache: emergency messages are always answered fresh"]}
    vector = services.embedder.embed([state.text])[0]
    signature = query_signature(state.text, concept_ids(state.slots))
    fingerprint = _fingerprint(services)
    found = services.cache.lookup(state.text, vector, signature, fingerprint, _clinical_key(state, services))
    decisions = [*state.decisions] + [f"cache: entry {rejected_id[:8]} similar but guarded ({', '.join(reasons)})"
                                      for rejected_id, reasons in found.rejected[:3]]
    update: dict = {"query_vector": vector, "cache_similarity": round(found.similarity, 4), "decisions": decisions}
    if found.entry is None:
        return update
    entry = found.entry
    answer = vary_phrasing(entry.answer, state.text, state.language)
    yield Sources(entry.sources)
    yield Token(answer)
    update.update(cache_hit=True, cache_entry_id=entry.id, answer=answer, profile_fingerprint=fingerprint,
                  intent="question", needs_retrieval=False, documents=[], used_profile=entry.used_profile,
                  context_sections={"cached_sources": entry.sources},
                  decisions=[*decisions, f"cache: hit at similarity {found.similarity:.3f}"])
    return update


def cacheable(state: TurnState, services: AgentServices) -> bool:
    threshold = services.settings.refine.quality_threshold
    return (state.intent == "question" and not state.emergency and not state.cancelled and bool(state.answer.strip())
            and services.llm_unavailable is None  # a degraded answer must not outlive the outage
            and (state.quality_score is None or state.quality_score >= threshold))


def store_response(state: TurnState, services: AgentServices) -> dict:
    """Cache a good fresh answer; append the turn (with its full result) to the patient's memory."""
    decisions = list(state.decisions)
    if not state.cache_hit and _cache_active(services) and cacheable(state, services):
        vector = state.query_vector if state.query_vector is not None else services.embedder.embed([state.text])[0]
        now = services.cache.clock()
        services.cache.put(CacheEntry(
            id=entry_id(state.text, state.profile_fingerprint, now), query=state.text, vector=vector,
            signature=query_signature(state.text, concept_ids(state.slots)), answer=state.answer,
            sources=[d.source(n) for n, d in enumerate(state.documents, 1)], used_profile=state.used_profile,
            profile_fingerprint=state.profile_fingerprint if state.used_profile else "", created=now,
            prompt_tokens=state.prompt_tokens, completion_tokens=state.completion_tokens,
            generation_ms=getattr(services.llm, "ms", 0.0),
            patient_id=None if state.patient_id is None else int(state.patient_id),
            clinical_key=_clinical_key(state, services)))
        decisions.append("cache: stored the answer")
    if services.memory is not None:
        result = turn_result(state, services)
        result["trace"]["nodes"].append("store_response")
        result["trace"]["decisions"] = decisions
        services.memory.add_turn(state.text, result)
    return {"decisions": decisions}
