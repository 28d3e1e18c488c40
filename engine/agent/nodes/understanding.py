"""classify_intent, extract_slots and store_memory: understanding the message.

Safety first: triage and conflict checks are deterministic code, and their alerts are
emitted (an `Alerts` event) by store_memory, before any answer token.
"""

from __future__ import annotations

from engine.agent.ephemeral import empty_slots
from engine.agent.intent import Intent, classify_by_rules, classify_with_llm
from engine.agent.services import AgentServices
from engine.agent.state import TurnState
from engine.errors import ModelOutputError, ModelUnavailable
from engine.events import Alerts


def turn_slots(state: TurnState, services: AgentServices) -> dict:
    """The message's slots, extracted once per turn (check_similarity may have done it)."""
    if "demographics" in state.slots:
        return state.slots
    if services.clinical is None or not services.flags.slot_extraction:
        return empty_slots()
    return services.clinical.extract(state.text)


def concept_ids(slots: dict) -> set[str]:
    ids = set()
    for name in ("conditions", "symptoms", "medications", "allergies", "vitals", "labs"):
        for item in slots.get(name) or []:
            key = item.get("concept_id") or item.get("type") or item.get("name")
            if key:
                ids.add(f"{name}:{'-' if item.get('negated') else ''}{str(key).lower()}")
    return ids


def classify_intent(state: TurnState, services: AgentServices) -> dict:
    settings = services.settings
    slots = turn_slots(state, services)
    update: dict = {"slots": slots}
    if not services.flags.active_retrieval:
        update.update(intent="question", needs_retrieval=True, query_complexity="moderate",
                      dynamic_k=settings.retrieval.k_moderate, intent_source="fixed")
        return update
    intent = classify_by_rules(state.text, slots)
    source = "rules"
    if not intent.sure and services.llm_unavailable is not None:
        intent = Intent(intent.intent, intent.needs_retrieval, intent.complexity, True)
        source = "rules-fallback"
    elif not intent.sure:
        try:
            intent = classify_with_llm(services.llm, state.text)
            source = "llm"
        except (ModelOutputError, ModelUnavailable) as exc:
            services.log.append(f"classify_intent: LLM label rejected ({exc}); kept the rule result")
            intent = Intent(intent.intent, intent.needs_retrieval, intent.complexity, True)
            source = "rules-fallback"
    k = {"simple": settings.retrieval.k_simple, "moderate": settings.retrieval.k_moderate,
         "complex": settings.retrieval.k_complex}.get(intent.complexity or "", 0)
    update.update(intent=intent.intent, needs_retrieval=intent.needs_retrieval, query_complexity=intent.complexity,
                  dynamic_k=k if intent.needs_retrieval else 0, intent_source=source,
                  retrieval_skipped=not intent.needs_retrieval)
    return update


def extract_slots(state: TurnState, services: AgentServices) -> dict:
    slots = turn_slots(state, services)
    alerts: list[dict] = []
    emergency = False
    if services.clinical is not None and services.flags.triage:
        verdict = services.clinical.triage(state.text)
        if verdict.get("emergency"):
            emergency = True
            alerts.append({"kind": "emergency", "category": verdict.get("category"), "message": verdict.get("message", "")})
    return {"slots": slots, "alerts": alerts, "emergency": emergency}


def store_memory(state: TurnState, services: AgentServices):
    """Update the profile, check conflicts against it, and emit every alert before the answer."""
    memory = services.memory
    alerts = list(state.alerts)
    profile = state.slots
    if memory is not None and services.flags.profile_memory:
        memory.update_profile(state.slots, state.text)
        profile = memory.profile()
    if services.clinical is not None and services.flags.conflict_alerts:
        alerts += [dict(a) for a in services.clinical.conflicts(profile, state.slots)]
    fingerprint = memory.fingerprint() if memory is not None and services.flags.profile_memory else ""
    yield Alerts(alerts)
    return {"alerts": alerts, "profile_fingerprint": fingerprint}
