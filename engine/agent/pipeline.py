"""The two graphs (`agent`: the ten nodes of docs/ARCHITECTURE.md; `llm`: plain chat) and one turn's run.

Both start with `extract_and_triage` (slots, red flags, conflict checks, alerts), so no path
answers before the deterministic safety rules have had their say.

    extract_and_triage -> store_memory -> check_cache --hit--> store_response
                                               |miss
    plan_retrieval -> assemble_context
        --needs retrieval--> retrieve -> generate_answer      (else straight to generate_answer)
    generate_answer --judge--> judge_answer -> quality_check --again--> retrieve
                    --skip---> store_response <-------------- done ----/

    llm: extract_and_triage -> generate_answer (plain) -> store_response
"""

from __future__ import annotations

import time
from typing import Iterator

from engine.agent import nodes
from engine.agent.graph import END, START, Branch, Graph
from engine.agent.nodes.quality import wants_another_round
from engine.agent.result import turn_result
from engine.agent.services import AgentServices
from engine.agent.state import TurnState
from engine.events import Done, Event
from engine.text import detect_language


def after_cache(state: TurnState) -> str:
    return "hit" if state.cache_hit else "miss"


def after_context(state: TurnState) -> str:
    return "retrieve" if state.needs_retrieval else "skip retrieval"


def _after_answer(services: AgentServices):
    def after_answer(state: TurnState) -> str:
        judged = (services.flags.self_refine and state.intent == "question" and state.needs_retrieval
                  and not state.cancelled and services.llm_unavailable is None)
        return "judge" if judged else "skip"
    return after_answer


def agent_graph(services: AgentServices) -> Graph:
    return Graph(
        "agent",
        nodes={
            "extract_and_triage": nodes.extract_and_triage,
            "store_memory": nodes.store_memory,
            "check_cache": nodes.check_cache,
            "plan_retrieval": nodes.plan_retrieval,
            "assemble_context": nodes.assemble_context,
            "retrieve": nodes.retrieve,
            "generate_answer": nodes.generate_answer,
            "judge_answer": nodes.judge_answer,
            "quality_check": nodes.quality_check,
            "store_response": nodes.store_response,
        },
        edges={
            START: "extract_and_triage",
            "extract_and_triage": "store_memory",
            "store_memory": "check_cache",
            "check_cache": Branch(after_cache, {"hit": "store_response", "miss": "plan_retrieval"}),
            "plan_retrieval": "assemble_context",
            "assemble_context": Branch(after_context, {"retrieve": "retrieve", "skip retrieval": "generate_answer"}),
            "retrieve": "generate_answer",
            "generate_answer": Branch(_after_answer(services), {"judge": "judge_answer", "skip": "store_response"}),
            "judge_answer": "quality_check",
            "quality_check": Branch(wants_another_round, {"retrieve": "retrieve", "done": "store_response"}),
            "store_response": END,
        },
    )


def llm_graph() -> Graph:
    return Graph("llm", nodes={"extract_and_triage": nodes.extract_and_triage,
                               "generate_answer": nodes.generate_plain, "store_response": _store_plain},
                 edges={START: "extract_and_triage", "extract_and_triage": "generate_answer",
                        "generate_answer": "store_response", "store_response": END})


def _store_plain(state: TurnState, services: AgentServices) -> dict:
    if services.memory is not None:
        result = turn_result(state, services)
        result["trace"]["nodes"].append("store_response")
        services.memory.add_turn(state.text, result)
    return {}


def pipeline_mermaid() -> str:
    """Mermaid flowchart of the agent graph (routers do not run for printing)."""
    from engine.settings import Settings
    from engine.agent.tokens import TokenManager

    return agent_graph(AgentServices(settings=Settings(), llm=None, tokens=TokenManager())).mermaid()


def run_turn(text: str, services: AgentServices, *, mode: str = "agent", patient_id: str | None = None,
             session_id: str | None = None, turn_index: int = 0, model: str = "") -> Iterator[Event]:
    """Run one turn through the graph of `mode`, yielding events; the last is `Done(result)`."""
    started = time.perf_counter()
    state = TurnState(text=text, mode=mode, language=detect_language(text), patient_id=patient_id,
                      session_id=session_id, turn_index=turn_index)
    graph = agent_graph(services) if mode == "agent" else llm_graph()
    yield from graph.run(state, services)
    result = turn_result(state, services, started=started, model=model)
    if services.log:
        result["trace"]["log"] = list(services.log)
    yield Done(result)
