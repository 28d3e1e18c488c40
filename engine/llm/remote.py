"""An LLM role served by an OpenAI-compatible chat server on the clinic network.

llama.cpp's `llama-server`, llama-cpp-python's `llama_cpp.server`, Ollama and vLLM all
speak `POST /v1/chat/completions` with server-sent events. `RemoteChatClient` has the
local runtime's call shape (`stream_chat`, `complete_json`, `classify`, `info`,
`last_metrics`), so `engine.llm.router.RoutedLLM` can put it behind any role.

The link: httpx with `trust_env=False` (no proxy, netrc or CA bundle from the
environment), no redirects, connect and read timeouts, TLS through
`engine.llm.tls.client_context` (pin or clinic CA) and the bearer token handed in by the
caller (kept in the vault). Every failure is a `RemoteModelError` with a `kind` and a
message that names the server and never carries the prompt.
"""

from __future__ import annotations

import json
import time
from typing import Callable, Iterator
from urllib.parse import urlsplit

import httpx

from engine.errors import GenerationCancelled, ModelUnavailable
from engine.llm.structured import StructuredCalls
from engine.llm.tls import CertificatePinMismatch, client_context
from engine.cancel import CancelToken
from engine.llm.types import ChatMessage, GenerationMetrics, ModelInfo
from engine.settings import LLMSettings, RemoteModelSettings
from engine.tokenizer import count_tokens_fallback

CHAT_PATH = "/v1/chat/completions"
MODELS_PATH = "/v1/models"


class RemoteModelError(ModelUnavailable):
    """The model server could not answer. `kind` is one of: unreachable, timeout,
    certificate, auth, refused, protocol, interrupted."""

    def __init__(self, kind: str, host: str, detail: str, user_message: str):
        super().__init__(f"model server {host}: {kind}: {detail}", user_message=user_message)
        self.kind = kind
        self.host = host


class RemoteStreamInterrupted(GenerationCancelled):
    """The server stopped in the middle of an answer: the text so far stands, like a stop."""

    def __init__(self, cause: RemoteModelError):
        super().__init__(str(cause), user_message=cause.user_message)
        self.cause = cause


def server_address(url: str) -> tuple[str, str, int]:
    """(scheme, host, port) of the configured server URL."""
    parts = urlsplit(url)
    port = parts.port or (443 if parts.scheme == "https" else 80)
    return parts.scheme, parts.hostname or "", port


def json_constraint(server: str, schema: dict) -> dict:
    """The request fields that constrain the reply to `schema` on each kind of server."""
    if server == "llama-cpp-python":
        return {"response_format": {"type": "json_object", "schema": schema}}
    return {"response_format": {"type": "json_schema", "json_schema": {"name": "reply", "schema": schema,
                                                                       "strict": True}}}


def sampling_fields(server: str, llm: LLMSettings) -> dict:
    fields = {"top_p": llm.top_p, "seed": llm.seed}
    if server in ("llama-server", "llama-cpp-python"):
        fields["repeat_penalty"] = llm.repeat_penalty
    elif server == "vllm":
        fields["repetition_penalty"] = llm.repeat_penalty
    return fields


class RemoteChatClient(StructuredCalls):
    """One connection pool to the configured server; safe to share between threads
    except `last_metrics`, which (as in the local runtime) describes this client's last call."""

    def __init__(self, remote: RemoteModelSettings, llm: LLMSettings | None = None,
                 token: Callable[[], str | None] = lambda: None):
        self.remote = remote
        self.llm = llm or LLMSettings()
        self._token = token
        scheme, host, port = server_address(remote.url)
        self.host = f"{host}:{port}"
        self.base_url = f"{scheme}://{host}:{port}" if ":" not in host else f"{scheme}://[{host}]:{port}"
        # Plain http is allowed by the settings only to the loopback address: no TLS at all then.
        verify = client_context(remote.tls_pin_sha256, remote.ca_file) if scheme == "https" else False
        self._client = httpx.Client(
            base_url=self.base_url, verify=verify, trust_env=False, follow_redirects=False,
            timeout=httpx.Timeout(connect=remote.connect_timeout_s, read=remote.read_timeout_s,
                                  write=remote.read_timeout_s, pool=remote.connect_timeout_s),
        )
        self.last_metrics = GenerationMetrics(model=remote.model)

    @property
    def model_label(self) -> str:
        return f"{self.remote.model} @ {self.host}"

    def close(self) -> None:
        self._client.close()

    def info(self, role: str = "generate") -> ModelInfo:
        """What the settings say of the server's model (no request is made)."""
        return ModelInfo(name=self.remote.model, path=f"{self.base_url}{CHAT_PATH}", n_ctx=self.remote.n_ctx,
                         n_ctx_train=self.remote.n_ctx, parameters=self.remote.parameters, chat_format=None,
                         chat_template=None, architecture="remote", n_gpu_layers=0, load_seconds=0.0)

    def _headers(self) -> dict:
        headers = {"Accept": "text/event-stream"}
        token = self._token()
        if token:
            headers["Authorization"] = f"Bearer {token}"
        return headers

    # -- calls -------------------------------------------------------------------------
    def check(self) -> list[str]:
        """The model ids the server offers (`GET /v1/models`): proves address, TLS and token."""
        try:
            response = self._client.get(MODELS_PATH, headers=self._headers())
            self._raise_for_status(response)
            return [str(m.get("id")) for m in response.json().get("data", []) if isinstance(m, dict)]
        except httpx.HTTPError as exc:
            raise self._translate(exc) from exc
        except (json.JSONDecodeError, AttributeError) as exc:
            raise self._error("protocol", f"bad /v1/models reply: {exc}",
                              "The model server's reply was not understood.") from exc

    def stream_chat(self, role: str, messages: list[ChatMessage], *, max_tokens: int | None = None,
                    temperature: float | None = None, cancel: CancelToken | None = None,
                    grammar_schema: dict | None = None) -> Iterator[str]:
        """Yield text pieces as the server sends them; stop before the next piece when
        `cancel` is set (closing the stream tells the server to stop)."""
        body = {
            "model": self.remote.model,
            "messages": list(messages),
            "max_tokens": max_tokens or self.llm.max_answer_tokens,
            "temperature": self.llm.temperature if temperature is None else temperature,
            "stream": True,
            **sampling_fields(self.remote.server, self.llm),
        }
        if grammar_schema:
            body.update(json_constraint(self.remote.server, grammar_schema))
        metrics = GenerationMetrics(model=self.model_label)
        self.last_metrics = metrics
        start = time.perf_counter()
        try:
            with self._client.stream("POST", CHAT_PATH, json=body, headers=self._headers()) as response:
                self._raise_for_status(response)
                for piece in self._pieces(response, metrics, start):
                    if cancel is not None and cancel.cancelled:
                        metrics.cancelled = True
                        break
                    yield piece
        except httpx.HTTPError as exc:
            raise self._translate(exc, started=metrics.completion_tokens > 0) from exc
        finally:
            metrics.total_time = time.perf_counter() - start
            if not metrics.prompt_tokens:
                metrics.prompt_tokens = count_tokens_fallback("\n".join(m["content"] for m in messages))
        if metrics.cancelled:
            raise GenerationCancelled("generation cancelled by the user")

    def _pieces(self, response: httpx.Response, metrics: GenerationMetrics, start: float) -> Iterator[str]:
        if "text/event-stream" not in response.headers.get("content-type", ""):
            yield from self._whole_reply(response, metrics, start)
            return
        for line in response.iter_lines():
            if not line.startswith("data:"):
                continue
            data = line[5:].strip()
            if data == "[DONE]":
                return
            chunk = self._json(data)
            if chunk.get("usage"):
                metrics.prompt_tokens = int(chunk["usage"].get("prompt_tokens") or 0)
            choices = chunk.get("choices") or []
            if not choices:
                continue
            choice = choices[0] if isinstance(choices[0], dict) else {}
            if choice.get("finish_reason"):
                metrics.finish_reason = choice["finish_reason"]
            text = (choice.get("delta") or {}).get("content")
            if isinstance(text, str) and text:
                if metrics.completion_tokens == 0:
                    metrics.time_to_first_token = time.perf_counter() - start
                metrics.completion_tokens += 1
                yield text
        if metrics.finish_reason is None:
            raise self._error("interrupted", "stream ended without [DONE]",
                              "The model server stopped in the middle of the answer.")

    def _whole_reply(self, response: httpx.Response, metrics: GenerationMetrics, start: float) -> Iterator[str]:
        """A server that ignored `stream`: one JSON completion."""
        reply = self._json(response.read().decode("utf-8", "replace"))
        try:
            choice = reply["choices"][0]
            text = choice["message"]["content"] or ""
        except (KeyError, IndexError, TypeError) as exc:
            raise self._error("protocol", f"no choices[0].message.content: {exc}",
                              "The model server's reply was not understood.") from exc
        metrics.finish_reason = choice.get("finish_reason") or "stop"
        metrics.time_to_first_token = time.perf_counter() - start
        usage = reply.get("usage") or {}
        metrics.prompt_tokens = int(usage.get("prompt_tokens") or 0)
        metrics.completion_tokens = int(usage.get("completion_tokens") or 1)
        if text:
            yield text

    # -- errors ------------------------------------------------------------------------
    def _json(self, data: str) -> dict:
        try:
            value = json.loads(data)
        except json.JSONDecodeError as exc:
            raise self._error("protocol", f"malformed JSON from the server: {exc}",
                              "The model server sent a reply that is not valid JSON.") from exc
        if not isinstance(value, dict):
            raise self._error("protocol", "a reply chunk is not a JSON object",
                              "The model server sent a reply that is not valid JSON.")
        return value

    def _error(self, kind: str, detail: str, message: str) -> RemoteModelError:
        return RemoteModelError(kind, self.host, detail, f"{message} ({self.host})")

    def _raise_for_status(self, response: httpx.Response) -> None:
        status = response.status_code
        if status < 300:
            return
        if 300 <= status < 400:
            raise self._error("refused", f"HTTP {status} redirect (not followed)",
                              "The model server answered with a redirect, which Chartside does not follow.")
        if status in (401, 403):
            raise self._error("auth", f"HTTP {status}",
                              "The model server refused the access token. Set the token again in Settings → Models.")
        if status == 404:
            raise self._error("refused", "HTTP 404",
                              "The model server has no such model or address. Check the URL and model name.")
        raise self._error("refused", f"HTTP {status}", f"The model server refused the request (HTTP {status}).")

    def _translate(self, exc: httpx.HTTPError, started: bool = False) -> RemoteModelError:
        if isinstance(exc, httpx.ConnectTimeout) or isinstance(exc, httpx.PoolTimeout):
            return self._error("unreachable", f"connect timeout: {exc}", "The model server did not answer in time.")
        if isinstance(exc, httpx.TimeoutException):
            return self._error("timeout", f"{type(exc).__name__}: {exc}",
                               f"The model server went silent for more than {self.remote.read_timeout_s:g} s.")
        if isinstance(exc, httpx.ConnectError):
            cause = exc.__context__ or exc.__cause__
            if isinstance(cause, CertificatePinMismatch) or "CERTIFICATE" in str(exc).upper():
                return self._error("certificate", str(exc),
                                   "The model server's certificate is not the clinic's. Nothing was sent.")
            return self._error("unreachable", str(exc), "The model server cannot be reached.")
        if started or isinstance(exc, (httpx.RemoteProtocolError, httpx.ReadError)):
            return self._error("interrupted", f"{type(exc).__name__}: {exc}",
                               "The model server stopped in the middle of the answer.")
        return self._error("unreachable", f"{type(exc).__name__}: {exc}", "The model server cannot be reached.")
