"""judge_answer and quality_check: judge the answer and decide on corrective retrieval.

quality_check loops back to `retrieve` only when every guard passes, and logs each
decision in the trace:
1. the score is below the threshold (0.5);
2. fewer than `max_iterations` (2) corrective rounds have run;
3. the score is still improving (≥ 0.05 over the previous round; stagnation guard);
4. the rewritten query brings documents that are < 80 % the same as the last round's
   (Jaccard of document hashes; duplicate guard) — checked by fetching them here, and
   handed to `retrieve` so the search is not repeated.
When the loop stops, the best-scoring draft becomes the answer together with the
documents it was written from (its citations point at them), and replaces the shown
answer (`AnswerReplaced`, then its `Sources`).
"""

from __future__ import annotations

from engine.agent.judge import heuristic_judgement, llm_judgement
from engine.agent.nodes.answer import with_guidance
from engine.agent.nodes.retrieval import document_hash, search
from engine.agent.services import AgentServices
from engine.agent.state import TurnState
from engine.errors import ModelOutputError, ModelUnavailable
from engine.events import AnswerReplaced, Sources


def judge_is_too_small(services: AgentServices) -> bool:
    if not services.flags.heuristic_judge_for_small_models:
        return False
    try:
        parameters = services.llm.info("judge").parameters
    except AttributeError:
        return False
    return parameters is not None and parameters < services.settings.refine.small_model_params


def judge(state: TurnState, services: AgentServices) -> dict:
    weights = tuple(services.settings.refine.weights)
    documents = [d.text for d in state.documents]
    profile = state.context_sections.get("profile", "")
    if not judge_is_too_small(services):
        try:
            return llm_judgement(services.llm, state.text, state.answer,
                                 services.tokens.truncate(state.context_sections.get("documents", ""), 600),
                                 weights=weights)
        except (ModelOutputError, ModelUnavailable) as exc:
            services.log.append(f"judge_answer: LLM judge failed ({exc}); heuristic judge used")
    return heuristic_judgement(state.text, state.answer, documents, alerts=state.alerts, profile_text=profile,
                               weights=weights)


def judge_answer(state: TurnState, services: AgentServices) -> dict:
    judgement = judge(state, services)
    drafts = list(state.drafts)
    if drafts:
        drafts[-1] = {**drafts[-1], "score": judgement["overall"]}
    return {"judgement": judgement, "quality_score": judgement["overall"],
            "quality_history": [*state.quality_history, judgement["overall"]], "drafts": drafts}


def jaccard(first: list[str], second: list[str]) -> float:
    a, b = set(first), set(second)
    if not a and not b:
        return 1.0
    return len(a & b) / len(a | b)


def rewritten_query(state: TurnState) -> str:
    judgement = state.judgement or {}
    suggested = (judgement.get("suggested_query") or "").strip()
    if suggested and suggested.lower() != state.retrieval_query.lower():
        return suggested
    missing = [m for m in judgement.get("missing_info") or [] if m.lower() not in state.retrieval_query.lower()]
    return f"{state.retrieval_query} {' '.join(missing)}".strip() if missing else ""


def quality_check(state: TurnState, services: AgentServices):
    refine_settings = services.settings.refine
    decisions = list(state.decisions)
    score = state.quality_score if state.quality_score is not None else 1.0
    history = state.quality_history
    if score >= refine_settings.quality_threshold:
        decisions.append(f"quality_check: score {score:.2f} ≥ {refine_settings.quality_threshold}: done")
    elif state.iterations >= refine_settings.max_iterations:
        decisions.append(f"quality_check: score {score:.2f} low but {state.iterations} iterations reached: stop")
    elif len(history) >= 2 and history[-1] - history[-2] < refine_settings.min_improvement:
        decisions.append(f"quality_check: improvement {history[-1] - history[-2]:+.2f} < "
                         f"{refine_settings.min_improvement}: stagnating, stop")
    else:
        query = rewritten_query(state)
        if not query:
            decisions.append("quality_check: score low but nothing to add to the query: stop")
        else:
            candidates = search(services, state, query)
            overlap = jaccard([document_hash(d) for d in candidates], state.document_hashes[-1] if state.document_hashes else [])
            if overlap >= refine_settings.duplicate_jaccard:
                decisions.append(f"quality_check: new documents {overlap:.0%} the same (≥ "
                                 f"{refine_settings.duplicate_jaccard:.0%}): stop")
            else:
                decisions.append(f"quality_check: score {score:.2f} < {refine_settings.quality_threshold}, documents "
                                 f"{overlap:.0%} the same: retrieve again")
                return {"iterations": state.iterations + 1, "retrieval_query": query, "prefetched": candidates,
                        "decisions": decisions}
    restored = best_draft(state)
    if restored:
        decisions.append(f"quality_check: draft {restored['iteration']} (score {restored['quality_score']:.2f}) "
                         f"is the best: shown with its own {len(restored['documents'])} documents")
        yield AnswerReplaced(restored["answer"])
        yield Sources([d.source(n) for n, d in enumerate(restored["documents"], 1)])
        restored = {k: v for k, v in restored.items() if k != "iteration"}
    return {"decisions": decisions, **restored}


def best_draft(state: TurnState) -> dict:
    """The best-scoring draft with its documents, when it is not the one last shown."""
    scored = [d for d in state.drafts if "score" in d]
    if len(scored) < 2:
        return {}
    best = max(scored, key=lambda d: d["score"])
    if best is state.drafts[-1]:
        return {}
    return {"answer": with_guidance(best["answer"], state.alerts), "quality_score": best["score"],
            "documents": list(best["documents"]), "sentences": list(best.get("sentences") or []),
            "iteration": best["iteration"]}


def wants_another_round(state: TurnState) -> str:
    return "retrieve" if state.prefetched is not None else "done"
