"""Local LLM runtime (llama-cpp-python) and its scripted fake for tests."""

from engine.llm.fake import FakeLLM
from engine.llm.runtime import ROLES, LlamaRuntime
from engine.llm.structured import JUDGE_SCHEMA, validate_judgement
from engine.llm.types import ChatMessage, GenerationMetrics, ModelInfo

__all__ = [
    "ROLES",
    "JUDGE_SCHEMA",
    "ChatMessage",
    "FakeLLM",
    "GenerationMetrics",
    "LlamaRuntime",
    "ModelInfo",
    "validate_judgement",
]
