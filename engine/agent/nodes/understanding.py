"""extract_and_triage, store_memory and plan_retrieval: understanding the message.

Safety first: `extract_and_triage` is the first node of every turn. It extracts the slots once,
runs the deterministic red-flag rules and the allergy/interaction checks, and emits
every alert (an `Alerts` event) before the cache, the intent rules or the model have a
say. An emergency turn is never small talk and never a cache hit: its guidance opens the
answer whichever draft is shown.
"""

from __future__ import annotations

from engine.clinical.slot_model import SLOT_LISTS, empty_slots
from engine.agent.intent import Intent, classify_by_rules, classify_with_llm, settle
from engine.agent.services import AgentServices
from engine.clinical.assertion import asks_something
from engine.clinical.red_flags import guidance_messages
from engine.agent.state import TurnState
from engine.errors import ChartsideError, ModelOutputError, ModelUnavailable
from engine.events import Alerts


def turn_slots(state: TurnState, services: AgentServices) -> dict:
    """The message's slots, extracted once per turn (by `extract_and_triage`)."""
    if state.slots_extracted:
        return state.slots
    if services.clinical is None or not services.flags.slot_extraction:
        return empty_slots()
    return services.clinical.extract(state.text)


def concept_ids(slots: dict) -> set[str]:
    ids = set()
    for name in SLOT_LISTS:
        for item in slots.get(name) or []:
            key = item.get("concept_id") or item.get("type") or item.get("name")
            if key:
                ids.add(f"{name}:{'-' if item.get('negated') else ''}{str(key).lower()}")
    return ids


def stored_profile(services: AgentServices) -> dict | None:
    if services.memory is None or not services.flags.profile_memory:
        return None
    return services.memory.profile()


def emergency_alert(services: AgentServices, text: str) -> dict | None:
    if services.clinical is None or not services.flags.triage:
        return None
    verdict = services.clinical.triage(text)
    if not verdict.get("emergency"):
        return None
    alert = {"kind": "emergency", "category": verdict.get("category"), "message": verdict.get("message", "")}
    if verdict.get("detected_by"):
        alert["detected_by"] = verdict["detected_by"]
    messages = guidance_messages(alert["category"], resembles=verdict.get("detected_by") == "similar")
    if messages and alert["message"] in messages.values():
        alert["messages"] = messages
    return alert


def only_resembles_an_emergency(alerts: list[dict]) -> bool:
    """Whether the turn's emergency alert comes from the similarity check alone, not a red-flag rule."""
    emergency = [a for a in alerts if a.get("kind") == "emergency"]
    return bool(emergency) and all(a.get("detected_by") == "similar" for a in emergency)


def guidance_alone(text: str, alerts: list[dict]) -> bool:
    """Whether an emergency turn is answered by its guidance alone: a red-flag rule fired and the message
    asks nothing ("ok, I want to kill myself"). One that asks something, or only resembles an emergency
    (the similarity check: "혈압약 먹고 어지러워요" near a description of bleeding, which may well be none),
    is answered as a question after the guidance."""
    return not asks_something(text) and not only_resembles_an_emergency(alerts)


def in_question_language(alert: dict, language: str) -> dict:
    """A conflict alert whose `message` is in the question's language (the language of the
    answer it frames); `messages` keeps both for a reader in the other language."""
    alert = dict(alert)
    message = (alert.get("messages") or {}).get(language)
    if message:
        alert["message"] = message
    return alert


def extract_and_triage(state: TurnState, services: AgentServices):
    """Red flags, slots and conflict checks, once per turn; every alert before anything else.

    The red-flag rules are plain regular expressions and run first: an extraction failure
    (the concept pack) can cost the conflict checks, never the emergency alert.
    """
    alerts: list[dict] = []
    emergency = emergency_alert(services, state.text)
    if emergency is not None:
        alerts.append(emergency)
    try:
        slots = turn_slots(state, services)
    except ChartsideError as exc:
        services.log.append(f"extract_and_triage: extraction failed ({exc}); no slots this turn")
        slots = empty_slots()
    if services.clinical is not None and services.flags.conflict_alerts:
        profile = stored_profile(services)
        alerts += [in_question_language(a, state.language)
                   for a in services.clinical.conflicts(profile if profile is not None else slots, slots)]
    yield Alerts(alerts)
    decisions = list(state.decisions)
    if emergency is not None:
        decisions.append(f"extract_and_triage: {emergency['category']} red flag: an emergency turn (no small talk, no cache)")
    return {"slots": slots, "slots_extracted": True, "alerts": alerts, "emergency": emergency is not None, "decisions": decisions}


def store_memory(state: TurnState, services: AgentServices) -> dict:
    """Store what the message asserts about the patient (every turn, cache hits included)."""
    memory = services.memory
    if memory is None or not services.flags.profile_memory:
        return {}
    memory.update_profile(state.slots, state.text)
    return {"profile_fingerprint": memory.fingerprint()}


def plan_retrieval(state: TurnState, services: AgentServices) -> dict:
    """Active retrieval: small talk, a question (how complex, so how many documents), or an
    emergency statement.

    An emergency turn is never small talk: when the message also asks something it is
    answered as a question (the guidance first); when it only states the emergency
    ("ok, I want to kill myself") the guidance is the whole answer, with no retrieval and
    no model words after it; so is one that only resembles an emergency (`guidance_alone`).
    """
    settings = services.settings
    if state.emergency and not guidance_alone(state.text, state.alerts):
        why = "asks something" if asks_something(state.text) else "only resembles an emergency"
        return {"intent": "question", "needs_retrieval": True, "query_complexity": "moderate",
                "dynamic_k": settings.retrieval.k_moderate, "intent_source": "triage",
                "decisions": [*state.decisions, f"plan_retrieval: emergency turn that {why}: answered "
                                                "as a question after the guidance"]}
    if state.emergency:
        return {"intent": "emergency", "needs_retrieval": False, "query_complexity": None, "dynamic_k": 0,
                "intent_source": "triage", "retrieval_skipped": True,
                "decisions": [*state.decisions, "plan_retrieval: emergency statement: the guidance is the answer"]}
    if not services.flags.active_retrieval:
        return {"intent": "question", "needs_retrieval": True, "query_complexity": "moderate",
                "dynamic_k": settings.retrieval.k_moderate, "intent_source": "fixed"}
    intent = classify_by_rules(state.text, state.slots)
    source = "rules"
    if not intent.sure and services.llm_unavailable is not None:
        intent = Intent(intent.intent, intent.needs_retrieval, intent.complexity, True)
        source = "rules-fallback"
    elif not intent.sure:
        try:
            labelled = classify_with_llm(services.llm, state.text)
            source = "llm" if labelled.needs_retrieval or not asks_something(state.text) else "rules (asks something)"
            intent = settle(intent, labelled, state.text)
        except (ModelOutputError, ModelUnavailable) as exc:
            services.log.append(f"plan_retrieval: LLM label rejected ({exc}); kept the rule result")
            intent = Intent(intent.intent, intent.needs_retrieval, intent.complexity, True)
            source = "rules-fallback"
    k = {"simple": settings.retrieval.k_simple, "moderate": settings.retrieval.k_moderate,
         "complex": settings.retrieval.k_complex}.get(intent.complexity or "", 0)
    return {"intent": intent.intent, "needs_retrieval": intent.needs_retrieval, "query_complexity": intent.complexity,
            "dynamic_k": k if intent.needs_retrieval else 0, "intent_source": source,
            "retrieval_skipped": not intent.needs_retrieval}
