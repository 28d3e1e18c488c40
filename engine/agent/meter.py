"""An LLM proxy that counts one turn's calls, their time and their prompt tokens.

The turn trace reports LLM calls per turn and pipeline time excluding LLM time; the
nodes stay unaware of the accounting because they call the proxy like the runtime.
"""

from __future__ import annotations

import time
from typing import Iterator

from engine.protocols import LLM


class MeteredLLM:
    def __init__(self, llm: LLM):
        self._llm = llm
        self.calls = 0
        self.ms = 0.0
        self.prompt_tokens = 0
        self.completion_tokens = 0
        self.by_role: dict[str, int] = {}

    def __getattr__(self, name: str):
        return getattr(self._llm, name)

    @property
    def inner(self):
        return self._llm

    def _count(self, role: str) -> None:
        self.calls += 1
        self.by_role[role] = self.by_role.get(role, 0) + 1

    def _settle(self, started: float) -> None:
        self.ms += (time.perf_counter() - started) * 1000
        metrics = self._llm.last_metrics
        if metrics is not None:
            self.prompt_tokens += int(metrics.prompt_tokens or 0)
            self.completion_tokens += int(metrics.completion_tokens or 0)

    def stream_chat(self, role: str, messages, **kwargs) -> Iterator[str]:
        self._count(role)
        started = time.perf_counter()
        paused = 0.0
        try:
            for piece in self._llm.stream_chat(role, messages, **kwargs):
                handed = time.perf_counter()
                yield piece
                paused += time.perf_counter() - handed
        finally:
            self.ms -= paused * 1000
            self._settle(started)

    def chat(self, role: str, messages, **kwargs) -> str:
        return "".join(self.stream_chat(role, messages, **kwargs))

    def complete_json(self, role: str, messages, schema, **kwargs) -> dict:
        self._count(role)
        started = time.perf_counter()
        try:
            return self._llm.complete_json(role, messages, schema, **kwargs)
        finally:
            self._settle(started)

    def classify(self, role: str, prompt: str, labels, **kwargs) -> str:
        self._count(role)
        started = time.perf_counter()
        try:
            return self._llm.classify(role, prompt, labels, **kwargs)
        finally:
            self._settle(started)
