"""The local LLM runtime over llama-cpp-python.

One `LlamaRuntime` holds the loaded GGUF models, keyed by manifest name, so that one model
can serve every role (generate, classify, judge, summarise). Each loaded model has its own
lock: llama.cpp contexts are not thread-safe. The chat prompt is rendered here (from the
GGUF's own template, or a named format as override) so that prompt token counts are exact
and the same prompt feeds streaming, classification and judging.

Answer generation gets its own llama.cpp context (`LLMSettings.generation_context_apart`;
by default only on the CPU, where weights are memory-mapped once):
llama.cpp keeps the key/value cache of the last prompt, so consecutive answers re-use the
evaluated safety prompt, but only if no judge or classification call ran in the same context
in between. On the CPU the second context shares the memory-mapped weights and costs only
its key/value cache; with GPU offload it would hold a second copy of the offloaded layers.
"""

from __future__ import annotations

import json
import os
import threading
import time
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterator

from engine.errors import GenerationCancelled, ModelOutputError, ModelUnavailable
from engine.llm.structured import StructuredCalls
from engine.cancel import CancelToken
from engine.llm.types import ChatMessage, GenerationMetrics, ModelInfo
from engine.models import ModelEntry, get_model, verify
from engine.settings import LLMSettings

ROLES = ("generate", "classify", "judge", "summarise")
AUXILIARY = "auxiliary"


@dataclass
class _Loaded:
    llama: object
    entry: ModelEntry
    info: ModelInfo
    lock: threading.Lock
    formatter: object


@lru_cache(maxsize=64)
def _grammar(schema_json: str):
    from llama_cpp import LlamaGrammar

    return LlamaGrammar.from_json_schema(schema_json, verbose=False)


def _physical_threads(requested: int) -> int:
    return requested if requested > 0 else max(1, os.cpu_count() or 1)


class LlamaRuntime(StructuredCalls):
    """Loads GGUF models lazily by role and runs chat, JSON and classification calls."""

    def __init__(self, settings: LLMSettings | None = None):
        self.settings = settings or LLMSettings()
        self._loaded: dict[tuple[str, str], _Loaded] = {}
        self._load_lock = threading.Lock()
        self.last_metrics = GenerationMetrics()

    # -- loading -----------------------------------------------------------------------
    def model_name(self, role: str) -> str:
        if role not in ROLES:
            raise ValueError(f"unknown LLM role {role!r}")
        return getattr(self.settings, f"{role}_model")

    def context_key(self, role: str) -> tuple[str, str]:
        """(model name, context): roles with the same key share one llama.cpp context."""
        name = self.model_name(role)
        apart = role == "generate" and self.generation_apart()
        return name, role if apart else AUXILIARY

    def generation_apart(self) -> bool:
        chosen = self.settings.generation_context_apart
        return self.settings.n_gpu_layers == 0 if chosen is None else chosen

    def load(self, role: str) -> _Loaded:
        key = self.context_key(role)
        with self._load_lock:
            if key not in self._loaded:
                self._loaded[key] = self._load_entry(get_model(key[0]))
            return self._loaded[key]

    def _load_entry(self, entry: ModelEntry) -> _Loaded:
        if entry.kind != "gguf":
            raise ModelUnavailable(f"model {entry.name} is not a GGUF model")
        path = verify(entry) if self.settings.verify_sha256_on_load else entry.location()
        try:
            from llama_cpp import Llama
        except (ImportError, OSError) as exc:  # the llama.cpp shared library itself is missing or broken
            raise ModelUnavailable(f"llama.cpp could not be loaded: {exc}") from exc

        start = time.perf_counter()
        try:
            llama = Llama(
                model_path=str(path),
                n_ctx=self.settings.n_ctx,
                n_threads=_physical_threads(self.settings.n_threads),
                n_threads_batch=_physical_threads(self.settings.n_threads),
                n_gpu_layers=self.settings.n_gpu_layers,
                n_batch=self.settings.n_batch,
                seed=self.settings.seed,
                verbose=False,
            )
        except (ValueError, RuntimeError, OSError) as exc:
            raise ModelUnavailable(f"model {entry.name} failed to load: {exc}") from exc
        load_seconds = time.perf_counter() - start
        metadata = dict(getattr(llama, "metadata", {}) or {})
        template = metadata.get("tokenizer.chat_template")
        chat_format = self.settings.chat_format or (None if template else entry.chat_format) or "chatml"
        formatter = _make_formatter(llama, template if not self.settings.chat_format else None, chat_format)
        info = ModelInfo(
            name=entry.name,
            path=str(path),
            n_ctx=llama.n_ctx(),
            n_ctx_train=int(llama._model.n_ctx_train()),
            parameters=entry.parameters or _int_or_none(metadata.get("general.parameter_count")),
            chat_format=None if template and not self.settings.chat_format else chat_format,
            chat_template=template,
            architecture=metadata.get("general.architecture"),
            n_gpu_layers=self.settings.n_gpu_layers,
            load_seconds=load_seconds,
        )
        return _Loaded(llama=llama, entry=entry, info=info, lock=threading.Lock(), formatter=formatter)

    def info(self, role: str) -> ModelInfo:
        return self.load(role).info

    def answered_by(self, role: str) -> None:
        """Always this desktop (only a model server's router says who answered)."""
        return None

    def close(self) -> None:
        with self._load_lock:
            for loaded in self._loaded.values():
                with loaded.lock:
                    close = getattr(loaded.llama, "close", None)
                    if close:
                        close()
            self._loaded.clear()

    def forget_prompts(self) -> None:
        """Wipe what each loaded context remembers of its last prompt (which may hold a
        patient's profile): the key/value cache with its data buffers, the prompt tokens and
        their logits. The weights stay loaded; the next prompt is evaluated in full."""
        with self._load_lock:
            contexts = list(self._loaded.values())
        for loaded in contexts:
            with loaded.lock:
                llama = loaded.llama
                llama._ctx.kv_cache_clear()
                llama.input_ids.fill(0)
                llama.scores.fill(0)
                llama.reset()

    # -- tokens ------------------------------------------------------------------------
    def count_tokens(self, role: str, text: str) -> int:
        if not text:
            return 0
        llama = self.load(role).llama
        return len(llama.tokenize(text.encode("utf-8"), add_bos=False, special=False))

    def render_prompt(self, role: str, messages: list[ChatMessage]) -> tuple[str, list[str]]:
        """The exact prompt text and stop strings the model will see for `messages`."""
        response = self.load(role).formatter(messages=messages)
        stop = response.stop if isinstance(response.stop, list) else ([response.stop] if response.stop else [])
        return response.prompt, stop

    # -- generation --------------------------------------------------------------------
    def stream_chat(
        self,
        role: str,
        messages: list[ChatMessage],
        *,
        max_tokens: int | None = None,
        temperature: float | None = None,
        cancel: CancelToken | None = None,
        grammar_schema: dict | None = None,
    ) -> Iterator[str]:
        """Yield text pieces as the model produces them; stop early when `cancel` is set.

        Raises GenerationCancelled after a cancel (the pieces already yielded stand).
        `self.last_metrics` holds the call's figures when the generator finishes.
        """
        loaded = self.load(role)
        prompt, stop = self.render_prompt(role, messages)
        prompt_tokens = loaded.llama.tokenize(prompt.encode("utf-8"), add_bos=False, special=True)
        budget = loaded.info.n_ctx - len(prompt_tokens)
        if budget <= 0:
            raise ModelOutputError(
                f"prompt of {len(prompt_tokens)} tokens does not fit the model context of {loaded.info.n_ctx}",
                user_message="The conversation is too long for the model's context. Start a new session or shorten the question.",
            )
        max_tokens = min(max_tokens or self.settings.max_answer_tokens, budget)
        metrics = GenerationMetrics(model=loaded.entry.name, prompt_tokens=len(prompt_tokens))
        self.last_metrics = metrics
        grammar = _grammar(json.dumps(grammar_schema)) if grammar_schema else None
        with loaded.lock:
            start = time.perf_counter()
            stream = loaded.llama.create_completion(
                prompt=prompt_tokens,
                max_tokens=max_tokens,
                temperature=self.settings.temperature if temperature is None else temperature,
                top_p=self.settings.top_p,
                repeat_penalty=self.settings.repeat_penalty,
                stop=stop or None,
                grammar=grammar,
                stream=True,
            )
            try:
                for chunk in stream:
                    if cancel is not None and cancel.cancelled:
                        metrics.cancelled = True
                        break
                    choice = chunk["choices"][0]
                    if metrics.completion_tokens == 0:
                        metrics.time_to_first_token = time.perf_counter() - start
                    if choice.get("finish_reason") is None:
                        metrics.completion_tokens += 1
                    else:
                        metrics.finish_reason = choice["finish_reason"]
                    if choice["text"]:
                        yield choice["text"]
            finally:
                stream.close()
                metrics.total_time = time.perf_counter() - start
        if metrics.cancelled:
            raise GenerationCancelled("generation cancelled by the user")



def _make_formatter(llama, template: str | None, chat_format: str):
    from llama_cpp import llama_chat_format

    if template:
        eos = llama._model.token_get_text(llama.token_eos()) if llama.token_eos() >= 0 else ""
        bos = llama._model.token_get_text(llama.token_bos()) if llama.token_bos() >= 0 else ""
        return llama_chat_format.Jinja2ChatFormatter(template=template, eos_token=eos, bos_token=bos)
    named = getattr(llama_chat_format, f"format_{chat_format.replace('-', '_')}", None)
    if named is None:
        raise ModelUnavailable(f"unknown chat format {chat_format!r}")
    return named


def _int_or_none(value: object) -> int | None:
    try:
        return int(value) if value is not None else None
    except (TypeError, ValueError):
        return None
