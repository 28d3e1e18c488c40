"""assemble_context: the token plan and everything in the prompt except the documents.

The plan (engine.agent.tokens.plan_budget) caps each section; the profile (allergies
first, so a cut keeps them) and long-term memory are trimmed to their caps, and recent
turns are kept newest-first while they fit. `retrieve` fills the documents section and
`generate_answer` checks the rendered prompt once more against the total.
"""

from __future__ import annotations

from engine.agent.prompting import safety_prompt
from engine.agent.services import AgentServices
from engine.agent.state import TurnState
from engine.agent.tokens import TokenManager, plan_budget
from engine.errors import ChartsideError


def model_context(services: AgentServices) -> int:
    try:
        return int(services.llm.info("generate").n_ctx)
    except (AttributeError, ChartsideError):  # no model loaded (degraded mode): the configured size
        return services.settings.llm.n_ctx


def prompt_language(services: AgentServices, language: str) -> str:
    """The question's language, unless the generating model cannot write it (then English)."""
    if language == "en":
        return language
    try:
        from engine.models import get_model

        languages = get_model(services.llm.info("generate").name).languages
    except (AttributeError, ChartsideError):
        return language
    return language if not languages or language in languages else "en"


def fit_turns(turns: list[dict], budget: int, tokens: TokenManager) -> list[dict]:
    """The newest turns that fit `budget` (user text and answer), oldest first."""
    kept: list[dict] = []
    used = 0
    for turn in reversed(turns):
        cost = tokens.count(turn["user"]) + tokens.count(turn.get("answer", "")) + 16
        if used + cost > budget:
            break
        kept.append(turn)
        used += cost
    return list(reversed(kept))


def assemble_context(state: TurnState, services: AgentServices) -> dict:
    settings, tokens, flags = services.settings, services.tokens, services.flags
    memory = services.memory
    context = settings.context
    plan = plan_budget(
        total=context.total_budget, n_ctx=model_context(services), system=context.system_tokens,
        documents=context.documents_tokens if state.needs_retrieval else 0, query=tokens.count(state.text),
        reserve=context.generation_reserve, profile_share=context.profile_share,
        long_term_share=context.long_term_share,
    )
    profile = ""
    if memory is not None and flags.profile_memory:
        profile = tokens.truncate(memory.profile_summary(state.language), plan.profile)
    long_term = ""
    recent: list[dict] = []
    if memory is not None:
        if flags.hierarchical_memory:
            long_term = tokens.truncate(memory.long_term(state.text, plan.long_term, state.language), plan.long_term)
            recent = fit_turns(memory.working_turns(settings.memory.working_turns), plan.recent, tokens)
        else:
            recent = fit_turns(memory.working_turns(10_000), plan.recent + plan.long_term, tokens)
    language = prompt_language(services, state.language)
    system = tokens.truncate(safety_prompt(language), plan.system)
    sections = {
        "system": system, "profile": profile, "long_term": long_term, "prompt_language": language,
        "tokens": {"system": tokens.count(system), "profile": tokens.count(profile),
                   "long_term": tokens.count(long_term), "query": plan.query,
                   "recent": sum(tokens.count(t["user"]) + tokens.count(t.get("answer", "")) for t in recent)},
    }
    return {"budget": plan.as_dict(), "context_sections": sections, "recent_turns": recent,
            "profile_summary": profile, "long_term": long_term}
