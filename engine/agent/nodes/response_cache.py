"""check_similarity and store_response: the guarded response cache and the turn's storage."""

from __future__ import annotations

from engine.agent.cache import CacheEntry, entry_id, query_signature, vary_phrasing
from engine.agent.nodes.understanding import concept_ids, turn_slots
from engine.agent.result import turn_result
from engine.agent.services import AgentServices
from engine.agent.state import TurnState
from engine.events import Alerts, Sources, Token


def _cache_active(services: AgentServices) -> bool:
    return services.flags.response_cache and services.cache is not None and services.embedder is not None


def _fingerprint(services: AgentServices) -> str:
    if services.memory is None or not services.flags.profile_memory:
        return ""
    return services.memory.fingerprint()


def check_similarity(state: TurnState, services: AgentServices):
    if not _cache_active(services):
        return {}
    slots = turn_slots(state, services)
    update: dict = {"slots": slots}
    if services.clinical is not None and services.clinical.triage(state.text).get("emergency"):
        update["decisions"] = [*state.decisions, "cache: emergency messages are always answered fresh"]
        return update
    vector = services.embedder.embed([state.text])[0]
    signature = query_signature(state.text, concept_ids(slots))
    fingerprint = _fingerprint(services)
    found = services.cache.lookup(state.text, vector, signature, fingerprint)
    decisions = [*state.decisions] + [f"cache: entry {rejected_id[:8]} similar but guarded ({', '.join(reasons)})"
                                      for rejected_id, reasons in found.rejected[:3]]
    update.update(query_vector=vector, cache_similarity=round(found.similarity, 4), decisions=decisions)
    if found.entry is None:
        return update
    entry = found.entry
    alerts: list[dict] = []
    if services.clinical is not None and services.flags.conflict_alerts:
        profile = services.memory.profile() if services.memory is not None and services.flags.profile_memory else slots
        alerts = [dict(a) for a in services.clinical.conflicts(profile, slots)]
    answer = vary_phrasing(entry.answer, state.text, state.language)
    yield Alerts(alerts)
    yield Sources(entry.sources)
    yield Token(answer)
    update.update(cache_hit=True, cache_entry_id=entry.id, answer=answer, alerts=alerts,
                  profile_fingerprint=fingerprint, intent="question", needs_retrieval=False,
                  documents=[], used_profile=entry.used_profile, context_sections={"cached_sources": entry.sources},
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
            patient_id=None if state.patient_id is None else int(state.patient_id)))
        decisions.append("cache: stored the answer")
    if services.memory is not None:
        result = turn_result(state, services)
        result["trace"]["nodes"].append("store_response")
        result["trace"]["decisions"] = decisions
        services.memory.add_turn(state.text, result)
    return {"decisions": decisions}
