"""The ten nodes of the turn graph (docs/ARCHITECTURE.md), each `node(state, services) -> update`."""

from engine.agent.nodes.answer import generate_answer, generate_plain
from engine.agent.nodes.context import assemble_context
from engine.agent.nodes.quality import judge_answer, quality_check
from engine.agent.nodes.response_cache import check_cache, store_response
from engine.agent.nodes.retrieval import retrieve
from engine.agent.nodes.understanding import extract_and_triage, plan_retrieval, store_memory

__all__ = [
    "assemble_context", "check_cache", "extract_and_triage", "generate_answer", "generate_plain", "judge_answer",
    "plan_retrieval", "quality_check", "retrieve", "store_memory", "store_response",
]
