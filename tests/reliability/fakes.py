"""A scripted LLM that never runs dry: for the control flow of many turns, not for answers.

`engine.llm.fake.FakeLLM` raises when its queue is empty and records every call; over
hundreds of turns that record would itself grow memory. `EndlessLLM` answers every call
(queued replies first, then `answer`), keeps only a call count, and reports the number
of parameters it is told (>= 1e9 makes the refine step use the LLM judge).
"""

from __future__ import annotations

from typing import Sequence

from engine.llm.fake import FakeLLM

DEFAULT_ANSWER = "See a clinician about this. The sources describe the condition and its treatment [1]."


class EndlessLLM(FakeLLM):
    def __init__(self, answer: str = DEFAULT_ANSWER, *, replies: Sequence[object] = (), judge: object = None,
                 parameters: int = 135_000_000, n_ctx: int = 4096):
        super().__init__(replies, n_ctx=n_ctx, parameters=parameters)
        self.answer = answer
        self.judge = judge
        self.call_count = 0
        self.json_calls = 0

    def _next(self, role: str = "", messages=None) -> object:
        self.call_count += 1
        self.calls.clear()
        if self._replies:
            reply = self._replies.popleft()
            if isinstance(reply, BaseException):
                raise reply
            return reply
        return self.answer

    def complete_json(self, role, messages, schema, *, max_tokens: int = 256) -> dict:
        self.json_calls += 1
        if self.judge is not None and not self._replies:
            self._replies.append(self.judge)
        return super().complete_json(role, messages, schema, max_tokens=max_tokens)

    def classify(self, role: str, prompt: str, labels: Sequence[str], *, system: str | None = None) -> str:
        self.call_count += 1
        return "moderate" if "moderate" in labels else labels[0]
