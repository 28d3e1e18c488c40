"""Value types of the LLM runtime."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Literal, TypedDict


class ChatMessage(TypedDict):
    role: Literal["system", "user", "assistant"]
    content: str


@dataclass
class GenerationMetrics:
    """Per-call figures. Times are seconds; rates are tokens per second."""

    model: str = ""
    prompt_tokens: int = 0
    completion_tokens: int = 0
    time_to_first_token: float = 0.0
    total_time: float = 0.0
    cancelled: bool = False
    finish_reason: str | None = None
    extra: dict = field(default_factory=dict)

    @property
    def prompt_tokens_per_s(self) -> float:
        return self.prompt_tokens / self.time_to_first_token if self.time_to_first_token else 0.0

    @property
    def generation_tokens_per_s(self) -> float:
        gen_time = self.total_time - self.time_to_first_token
        return (self.completion_tokens - 1) / gen_time if gen_time > 0 and self.completion_tokens > 1 else 0.0

    def as_dict(self) -> dict:
        data = asdict(self)
        data["prompt_tokens_per_s"] = self.prompt_tokens_per_s
        data["generation_tokens_per_s"] = self.generation_tokens_per_s
        return data


@dataclass(frozen=True)
class ModelInfo:
    name: str
    path: str
    n_ctx: int
    n_ctx_train: int
    parameters: int | None
    chat_format: str | None
    chat_template: str | None
    architecture: str | None
    n_gpu_layers: int
    load_seconds: float
