"""Selftest check for the agent: the ten-node graph runs end to end and keeps its budget."""

from __future__ import annotations

from engine.settings import Settings


def check_agent_graph(settings: Settings) -> str:
    """A scripted turn (fake LLM, in-process memory) visits every node and fits the budget."""
    from engine.agent.cache import ResponseCache
    from engine.agent.ephemeral import EphemeralMemory
    from engine.agent.meter import MeteredLLM
    from engine.agent.pipeline import run_turn
    from engine.agent.services import AgentServices
    from engine.passage import Passage
    from engine.agent.tokens import TokenManager
    from engine.events import Done
    from engine.llm.fake import FakeLLM

    class _OneDocument:
        def search(self, query, k, **_kwargs):
            return [Passage("selftest/1", "Hypertension is treated with lifestyle changes and medicines.",
                             "Hypertension", "selftest/1#0")]

    llm = FakeLLM(["Hypertension is treated with lifestyle changes and medicines [1]."])
    services = AgentServices(settings=settings, llm=MeteredLLM(llm), tokens=TokenManager(llm),
                             knowledge=_OneDocument(), memory=EphemeralMemory(), cache=ResponseCache())
    result = next(e for e in run_turn("How is hypertension treated?", services) if isinstance(e, Done)).result
    trace_nodes = result["trace"]["nodes"]
    expected = {"extract_and_triage", "plan_retrieval", "store_memory", "assemble_context", "retrieve",
                "generate_answer", "judge_answer", "quality_check", "store_response"}
    if not expected <= set(trace_nodes):
        raise RuntimeError(f"agent graph skipped nodes: {sorted(expected - set(trace_nodes))}")
    budget = result["trace"]["budget"]
    if result["trace"]["prompt_tokens"] + budget["reserve"] > budget["total"]:
        raise RuntimeError("prompt + reserve exceeds the token budget")
    return f"agent graph ran {len(trace_nodes)} nodes; prompt {result['trace']['prompt_tokens']} tokens of {budget['total']}"
