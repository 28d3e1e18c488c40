"""generate_answer: the streamed, grounded answer (and the plain `llm` mode's only node).

Small talk recognised by the rules gets a canned reply (no LLM call); an emergency turn
never does. An emergency's triage message opens every draft, streamed before the model's
words, whatever the model then says; without one, a question that asks what to do about
symptoms is opened by the warning signs that need care now (engine.agent.care_guidance); a corrective round's draft replaces the shown answer
(an `AnswerReplaced` event) instead of being appended to it. Each draft keeps the
documents it was written from, so its citations resolve to them if it is chosen.
Without a loadable model (degraded mode) the answer is the notice, the alerts and the
retrieved passages (engine.agent.degraded).
The rendered prompt is measured with the model's tokenizer and trimmed (oldest recent
turns first, then documents) until prompt + generation reserve fits the total budget.
"""

from __future__ import annotations

import re

from engine.agent.care_guidance import care_guidance
from engine.agent.degraded import degraded_answer, degraded_plain_answer, not_composed_notice, unavailable_notice
from engine.agent.prompting import (
    history_messages,
    safety_prompt,
    small_talk_reply,
    system_message,
    user_message,
)
from engine.agent.services import AgentServices
from engine.agent.state import TurnState
from engine.agent.support import ALERT, GUIDANCE, Support
from engine.agent.nodes.understanding import guidance_alone
from engine.agent.writer import sentence_records, write_answer
from engine.clinical.assertion import asks_something
from engine.errors import ChartsideError, GenerationCancelled
from engine.events import AnswerReplaced, Token

_PATIENT_REFERENCE = re.compile(
    r"\b(i|i'm|my|me|he|she|his|her|him|they|patient|patient's)\b|제가|저는|저도|제 |저의|환자|우리|아이|남편|아내|어머니|아버지",
    re.IGNORECASE)


def build_messages(state: TurnState, recent: list[dict], documents: str) -> list[dict]:
    sections = state.context_sections
    language = sections.get("prompt_language", state.language)
    system = system_message(language, safety=sections.get("system", ""), profile=sections.get("profile", ""),
                            long_term=sections.get("long_term", ""), alerts=state.alerts)
    return [{"role": "system", "content": system}, *history_messages(recent),
            {"role": "user", "content": user_message(language, state.text, documents, state.needs_retrieval)}]


def fitted_messages(state: TurnState, services: AgentServices) -> tuple[list[dict], int]:
    """Messages whose rendered prompt + reserve fits the total; returns (messages, prompt tokens)."""
    tokens = services.tokens
    total = int(state.budget.get("total", services.settings.context.total_budget))
    reserve = int(state.budget.get("reserve", services.settings.context.generation_reserve))
    recent = list(state.recent_turns)
    documents = state.context_sections.get("documents", "")
    while True:
        messages = build_messages(state, recent, documents)
        size = tokens.count_messages(messages)
        if size + reserve <= total:
            return messages, size
        if recent:
            recent = recent[1:]
        elif documents:
            documents = tokens.truncate(documents, max(0, tokens.count(documents) - (size + reserve - total) - 8))
        else:
            return messages, size


def answer_used_profile(state: TurnState, answer: str) -> bool:
    """Whether the answer is specific to this patient (then only the same profile may reuse it)."""
    if not state.profile_summary:
        return False
    if state.alerts or _PATIENT_REFERENCE.search(state.text):
        return True
    profile = state.profile_summary.lower()
    lowered = answer.lower()
    names = [line.split(":", 1)[1] for line in profile.splitlines() if ":" in line]
    terms = {t.strip() for chunk in names for t in chunk.split(",") if len(t.strip()) > 3}
    return any(term in lowered for term in terms)


def _stream(services: AgentServices, messages: list[dict], max_tokens: int):
    pieces: list[str] = []
    cancelled = False
    try:
        for piece in services.llm.stream_chat("generate", messages, max_tokens=max_tokens, cancel=services.cancel):
            pieces.append(piece)
            yield Token(piece)
    except GenerationCancelled:
        cancelled = True
    return "".join(pieces), cancelled


def emergency_guidance(alerts: list[dict]) -> str:
    """The first emergency alert's message (in the message's language), or ""."""
    return next((a.get("message", "") for a in alerts if a.get("kind") == "emergency" and a.get("message")), "")


def with_guidance(answer: str, alerts: list[dict]) -> str:
    """`answer` opened by the emergency guidance, exactly once."""
    guidance = emergency_guidance(alerts)
    if not guidance or answer.startswith(guidance):
        return answer
    return f"{guidance}\n\n{answer}" if answer else guidance


def opening(state: TurnState) -> tuple[str, list[Support]]:
    """What opens the answer before its body, with its sentence record: an emergency's
    guidance, then the "when to get help now" line where it belongs (never after an emergency
    the red-flag rules found; after one the message only resembles, yes), else nothing."""
    guidance = emergency_guidance(state.alerts)
    care = care_guidance(state.text, state.slots, state.alerts, state.language)
    opened = [Support(text, kind=kind) for text, kind in ((guidance, ALERT), (care, GUIDANCE)) if text]
    return "".join(f"{item.text}\n\n" for item in opened), opened


def opening_decision(opened_by: list[Support]) -> list[str]:
    if any(item.kind == GUIDANCE for item in opened_by):
        return ["answer: opened by the warning signs that need care now (symptoms and a what-to-do question)"]
    return []


def draft(state: TurnState, answer: str, sentences: list[dict] | None = None) -> dict:
    """One draft with what it was written from: its documents and its checked sentences."""
    return {"answer": answer, "iteration": state.iterations, "documents": list(state.documents),
            "sentences": list(sentences or [])}


def generate_answer(state: TurnState, services: AgentServices):
    if state.intent in ("greeting", "acknowledgement") and not state.emergency:
        reply = small_talk_reply(state.intent, state.language)
        yield Token(reply)
        return {"answer": reply, "drafts": [*state.drafts, draft(state, reply)]}
    if state.intent == "emergency":
        guidance = with_guidance("", state.alerts)
        sentences = sentence_records([Support(guidance, kind=ALERT)] if guidance else [])
        yield Token(guidance)
        return {"answer": guidance, "sentences": sentences, "drafts": [*state.drafts, draft(state, guidance, sentences)]}
    prefix, opened_by = opening(state)
    if services.llm_unavailable is not None:
        # opens with an emergency's guidance itself
        body = degraded_answer(state, unavailable_notice(services.llm_unavailable, state.language))
        answer = body if prefix and body.startswith(prefix.strip()) else prefix + body
        yield Token(answer) if state.iterations == 0 else AnswerReplaced(answer)
        return {"answer": answer, "drafts": [*state.drafts, draft(state, answer)]}
    messages, prompt_size = fitted_messages(state, services)
    if state.iterations:
        yield AnswerReplaced(prefix)
    elif prefix:
        yield Token(prefix)
    reserve = int(state.budget.get("reserve", services.settings.context.generation_reserve))
    max_tokens = min(services.settings.llm.max_answer_tokens, reserve)
    try:
        written = yield from compose_or_generate(state, services, messages, max_tokens)
    except ChartsideError:
        raise
    except Exception as fault:  # noqa: BLE001 - a fault in writing must not cost the turn its alerts and sources
        return (yield from _not_composed(state, fault, prefix))
    metrics = services.llm.last_metrics
    answer = prefix + written.text
    sentences = sentence_records([*opened_by, *written.sentences])
    return {
        "answer": answer,
        "messages": messages,
        "cancelled": written.cancelled,
        "prompt_tokens": max(state.prompt_tokens, int(metrics.prompt_tokens or prompt_size)),
        "completion_tokens": state.completion_tokens + int(metrics.completion_tokens or 0),
        "used_profile": state.used_profile or answer_used_profile(state, answer),
        "sentences": sentences,
        "decisions": [*state.decisions, *opening_decision(opened_by), *written.decisions],
        "drafts": [*state.drafts, draft(state, answer, sentences)],
    }


def _not_composed(state: TurnState, fault: Exception, prefix: str):
    """The answer when writing it failed on a fault of the engine's own: the alerts and the retrieved
    passages, as in degraded mode, shown in place of whatever was streamed. The trace names the
    fault's type only: its message may quote the patient's words."""
    body = degraded_answer(state, not_composed_notice(state.language))  # opens with an emergency's guidance itself
    answer = body if prefix and body.startswith(prefix.strip()) else prefix + body
    yield AnswerReplaced(answer)
    decision = f"answer: writing the answer failed ({type(fault).__name__}); the alerts and retrieved passages are shown"
    return {"answer": answer, "sentences": [], "decisions": [*state.decisions, decision],
            "drafts": [*state.drafts, draft(state, answer)]}


def compose_or_generate(state: TurnState, services: AgentServices, messages: list[dict], max_tokens: int):
    """The answer body by the configured writer (engine.agent.writer): composer, model, or both."""
    about_patient = bool(state.alerts) or bool(_PATIENT_REFERENCE.search(state.text))
    return (yield from write_answer(state, services, messages, max_tokens, _stream, about_patient))


def generate_plain(state: TurnState, services: AgentServices):
    """`llm` mode: safety system prompt, the conversation so far, the question; nothing else
    (triage still ran first, and an emergency's guidance opens the answer)."""
    recent = services.memory.working_turns(services.settings.memory.working_turns) if services.memory else []
    messages = [{"role": "system", "content": safety_prompt(state.language)}, *history_messages(recent),
                {"role": "user", "content": state.text}]
    if services.llm_unavailable is not None:
        answer = with_guidance(degraded_plain_answer(state.language, services.llm_unavailable), state.alerts)
        yield Token(answer)
        return {"answer": answer, "messages": messages, "intent": "question", "needs_retrieval": False,
                "dynamic_k": 0}
    guidance = emergency_guidance(state.alerts)
    if guidance and guidance_alone(state.text, state.alerts):
        yield Token(guidance)
        return {"answer": guidance, "messages": messages, "intent": "emergency", "needs_retrieval": False,
                "dynamic_k": 0}
    prefix = f"{guidance}\n\n" if guidance else ""
    if prefix:
        yield Token(prefix)
    text, cancelled = yield from _stream(services, messages, services.settings.llm.max_answer_tokens)
    metrics = services.llm.last_metrics
    return {"answer": prefix + text.strip(), "cancelled": cancelled, "messages": messages,
            "prompt_tokens": int(metrics.prompt_tokens or 0), "completion_tokens": int(metrics.completion_tokens or 0),
            "intent": "question", "needs_retrieval": False, "dynamic_k": 0}

