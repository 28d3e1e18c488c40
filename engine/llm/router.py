"""Per-role routing between this desktop's GGUF runtime and a clinic model server.

`RoutedLLM` has the runtime's call shape, so the agent does not know where a role runs.
Roles named in `settings.remote.roles` go to the server; the others, and every role
while the server is failing, run locally:

- a failure before the first piece (unreachable, timeout, wrong certificate, refused
  token, malformed reply) falls back to the local model when `fallback_to_local` is on
  (else the `RemoteModelError` is raised), and for `retry_after_s` the server is not tried
  again, so turns do not each wait for a connect timeout;
- a failure after text was streamed raises `RemoteStreamInterrupted` (a
  `GenerationCancelled`): the answer so far stands, as after a stop, and the next call
  runs locally;
- JSON calls (classification, judging, summaries) fall back whole, since nothing of them
  was shown.

`answered_by(role)` says which model on which machine served the role's last call, and
why the server was passed over if it was; the facade puts it in the turn trace.
"""

from __future__ import annotations

import threading
import time
from dataclasses import asdict, dataclass
from typing import Callable, Iterator, Sequence

from engine.llm.remote import RemoteChatClient, RemoteModelError, RemoteStreamInterrupted
from engine.llm.types import ChatMessage, ModelInfo
from engine.tokenizer import count_tokens_fallback

THIS_DESKTOP = "this desktop"


@dataclass(frozen=True)
class Answered:
    model: str
    host: str
    remote: bool
    fallback_reason: str | None = None

    def as_dict(self) -> dict:
        return asdict(self)

    def describe(self) -> str:
        where = f"{self.model} on {self.host}"
        return f"{where} ({self.fallback_reason})" if self.fallback_reason else where


class RoutedLLM:
    def __init__(self, local, remote: RemoteChatClient, roles: Sequence[str], *, fallback: bool = True,
                 retry_after_s: float = 30.0, clock: Callable[[], float] = time.monotonic):
        self.local = local
        self.remote = remote
        self.roles = tuple(roles)
        self.fallback = fallback
        self.retry_after_s = retry_after_s
        self._clock = clock
        self._state = threading.Lock()
        self._down_until = 0.0
        self._down_reason: str | None = None
        self._answered: dict[str, Answered] = {}
        self.last_metrics = remote.last_metrics

    # -- where a role runs -------------------------------------------------------------
    def is_remote(self, role: str) -> bool:
        return role in self.roles

    def _server_down(self) -> str | None:
        with self._state:
            return self._down_reason if self._clock() < self._down_until else None

    def _failed(self, exc: RemoteModelError) -> None:
        with self._state:
            self._down_until = self._clock() + self.retry_after_s
            self._down_reason = exc.user_message

    def _routed(self, role: str) -> bool:
        return self.is_remote(role) and self._server_down() is None

    def answered_by(self, role: str) -> dict | None:
        answered = self._answered.get(role)
        return answered.as_dict() if answered else None

    def _local_answered(self, role: str, reason: str | None) -> None:
        try:
            name = self.local.info(role).name
        except Exception:  # noqa: BLE001  (the local model failing is reported by the call itself)
            name = "local model"
        self._answered[role] = Answered(name, THIS_DESKTOP, False, reason)

    # -- the runtime's interface -------------------------------------------------------
    def info(self, role: str) -> ModelInfo:
        return self.remote.info(role) if self._routed(role) else self.local.info(role)

    def context_key(self, role: str):
        if self.is_remote(role):
            return ("remote", role)
        return self.local.context_key(role)

    def count_tokens(self, role: str, text: str) -> int:
        if not self._routed(role):
            return self.local.count_tokens(role, text)
        return count_tokens_fallback(text) if text else 0

    def render_prompt(self, role: str, messages: list[ChatMessage]) -> tuple[str, list[str]]:
        """Locally the exact prompt; for the server an estimate in ChatML (its template is not known here)."""
        if not self._routed(role):
            return self.local.render_prompt(role, messages)
        return "".join(f"<|im_start|>{m['role']}\n{m['content']}<|im_end|>\n" for m in messages), []

    def stream_chat(self, role: str, messages: list[ChatMessage], **kwargs) -> Iterator[str]:
        reason = self._server_down() if self.is_remote(role) else None
        if self.is_remote(role) and reason is None:
            pieces = 0
            self._answered[role] = Answered(self.remote.remote.model, self.remote.host, True)
            try:
                for piece in self.remote.stream_chat(role, messages, **kwargs):
                    pieces += 1
                    yield piece
                return
            except RemoteModelError as exc:
                self._failed(exc)
                if pieces:
                    self._answered[role] = Answered(self.remote.remote.model, self.remote.host, True,
                                                    exc.user_message)
                    raise RemoteStreamInterrupted(exc) from exc
                if not self.fallback:
                    raise
                reason = exc.user_message
            finally:
                self.last_metrics = self.remote.last_metrics
        try:
            yield from self.local.stream_chat(role, messages, **kwargs)
        finally:
            self.last_metrics = self.local.last_metrics
            self._local_answered(role, reason)

    def chat(self, role: str, messages: list[ChatMessage], **kwargs) -> str:
        return "".join(self.stream_chat(role, messages, **kwargs))

    def _whole(self, role: str, call: str, *args, **kwargs):
        reason = self._server_down() if self.is_remote(role) else None
        if self.is_remote(role) and reason is None:
            try:
                value = getattr(self.remote, call)(role, *args, **kwargs)
                self._answered[role] = Answered(self.remote.remote.model, self.remote.host, True)
                return value
            except RemoteModelError as exc:
                self._failed(exc)
                if not self.fallback:
                    raise
                reason = exc.user_message
            finally:
                self.last_metrics = self.remote.last_metrics
        try:
            return getattr(self.local, call)(role, *args, **kwargs)
        finally:
            self.last_metrics = self.local.last_metrics
            self._local_answered(role, reason)

    def complete_json(self, role: str, messages: list[ChatMessage], schema: dict, **kwargs) -> dict:
        return self._whole(role, "complete_json", messages, schema, **kwargs)

    def classify(self, role: str, prompt: str, labels: Sequence[str], **kwargs) -> str:
        return self._whole(role, "classify", prompt, labels, **kwargs)

    def forget_prompts(self) -> None:
        """Wipes this desktop's contexts; the server's cache of the last prompt is the server's (SECURITY.md)."""
        self.local.forget_prompts()

    def close(self) -> None:
        self.remote.close()
        self.local.close()
