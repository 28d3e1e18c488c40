"""A scripted fake LLM for unit tests of control flow (never the only test of a feature).

`enqueue()` queues replies; each call pops the next one. A reply is a string (streamed
word by word), a dict (returned by `complete_json`), or an exception instance (raised).
With `default`, a call finding the queue empty gets that reply instead of an error (the
`fake` LLM backend of the settings, for demos and GUI tests that do not script each call);
with `respond(role, messages)`, a call finding the queue empty gets what it returns, or
the default when it returns None (a reply that depends on the prompt: engine/demo.py).
`token_delay` seconds pass before each streamed word (a slow model, for testing Stop).
It implements the whole `engine.protocols.LLM` interface.
"""

from __future__ import annotations

import json
import time
from collections import deque
from typing import Callable, Iterator, Sequence

from engine.errors import GenerationCancelled, ModelOutputError
from engine.llm.structured import validate_label
from engine.cancel import CancelToken
from engine.llm.types import ChatMessage, GenerationMetrics, ModelInfo


class FakeLLM:
    def __init__(self, replies: Sequence[object] = (), *, n_ctx: int = 4096, parameters: int = 135_000_000,
                 default: object | None = None,
                 respond: Callable[[str, list[ChatMessage]], object | None] | None = None, token_delay: float = 0.0,
                 name: str = "fake"):
        self.name = name
        self._replies: deque[object] = deque(replies)
        self._default = default
        self._respond = respond
        self.token_delay = token_delay
        self.calls: list[dict] = []
        self.last_metrics = GenerationMetrics(model=name)
        self._n_ctx = n_ctx
        self._parameters = parameters

    def enqueue(self, *replies: object) -> "FakeLLM":
        self._replies.extend(replies)
        return self

    def _next(self, role: str = "", messages: list[ChatMessage] | None = None) -> object:
        if not self._replies and self._respond is not None:
            reply = self._respond(role, messages or [])
            if reply is not None:
                return reply
        if not self._replies and self._default is not None:
            return self._default
        if not self._replies:
            raise AssertionError("FakeLLM: no reply queued for this call")
        reply = self._replies.popleft()
        if isinstance(reply, BaseException):
            raise reply
        return reply

    def stream_chat(self, role: str, messages: list[ChatMessage], *, max_tokens: int = 256,
                    temperature: float | None = None, cancel: CancelToken | None = None) -> Iterator[str]:
        self.calls.append({"kind": "stream_chat", "role": role, "messages": messages})
        reply = self._next(role, messages)
        text = reply if isinstance(reply, str) else json.dumps(reply)
        pieces = [w + " " for w in text.split(" ")]
        pieces[-1] = pieces[-1].rstrip(" ")
        self.last_metrics = GenerationMetrics(model=self.name, prompt_tokens=self.count_tokens(role, _flatten(messages)))
        for piece in pieces[:max_tokens]:
            if self.token_delay:
                time.sleep(self.token_delay)
            if cancel is not None and cancel.cancelled:
                self.last_metrics.cancelled = True
                raise GenerationCancelled("cancelled")
            self.last_metrics.completion_tokens += 1
            yield piece

    def chat(self, role: str, messages: list[ChatMessage], **kwargs) -> str:
        return "".join(self.stream_chat(role, messages, **kwargs))

    def complete_json(self, role: str, messages: list[ChatMessage], schema: dict, *, max_tokens: int = 256) -> dict:
        self.calls.append({"kind": "complete_json", "role": role, "messages": messages, "schema": schema})
        reply = self._next(role, messages)
        if isinstance(reply, str):
            try:
                reply = json.loads(reply)
            except json.JSONDecodeError as exc:
                raise ModelOutputError(f"not JSON: {exc}") from exc
        return reply

    def classify(self, role: str, prompt: str, labels: Sequence[str], *, system: str | None = None) -> str:
        self.calls.append({"kind": "classify", "role": role, "prompt": prompt, "labels": list(labels)})
        reply = self._next(role, [{"role": "user", "content": prompt}])
        label = reply.get("label") if isinstance(reply, dict) else reply
        return validate_label(label, labels)

    def count_tokens(self, role: str, text: str) -> int:
        return max(1, len(text) // 4) if text else 0

    def render_prompt(self, role: str, messages: list[ChatMessage]) -> None:
        """No chat template: token counts estimate the per-message overhead."""
        return None

    def context_key(self, role: str) -> str:
        return role

    def answered_by(self, role: str) -> None:
        return None

    def forget_prompts(self) -> None:
        self.calls.append({"kind": "forget_prompts"})

    def close(self) -> None:
        pass

    def info(self, role: str) -> ModelInfo:
        return ModelInfo(name=self.name, path="", n_ctx=self._n_ctx, n_ctx_train=self._n_ctx,
                         parameters=self._parameters, chat_format="chatml", chat_template=None,
                         architecture="fake", n_gpu_layers=0, load_seconds=0.0)


def _flatten(messages: list[ChatMessage]) -> str:
    return "\n".join(m["content"] for m in messages)
