"""The ten nodes of the turn graph (docs/ARCHITECTURE.md), each `node(state, services) -> update`."""

from engine.agent.nodes.answer import generate_answer, generate_plain
from engine.agent.nodes.context import assemble_context
from engine.agent.nodes.quality import quality_check, refine
from engine.agent.nodes.response_cache import check_similarity, store_response
from engine.agent.nodes.retrieval import retrieve
from engine.agent.nodes.understanding import classify_intent, store_memory, triage

__all__ = [
    "assemble_context", "check_similarity", "classify_intent", "generate_answer", "generate_plain",
    "quality_check", "refine", "retrieve", "store_memory", "store_response", "triage",
]
