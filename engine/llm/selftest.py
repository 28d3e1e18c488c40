"""Selftest checks for the models and the local LLM."""

from __future__ import annotations

from engine.models import load_manifest, verify
from engine.settings import Settings


def check_models(settings: Settings) -> str:
    """Every default model file is present with the sha256 of the manifest."""
    needed = {settings.llm.generate_model, settings.llm.classify_model, settings.llm.judge_model,
              settings.llm.summarise_model, settings.embedding.model, "cl100k_base"}
    entries = [m for m in load_manifest() if m.name in needed]
    missing = needed - {m.name for m in entries}
    if missing:
        raise LookupError(f"not in the manifest: {', '.join(sorted(missing))}")
    for entry in entries:
        verify(entry)
    return f"{len(entries)} model(s) verified by sha256: {', '.join(sorted(m.name for m in entries))}"


def check_generation(settings: Settings) -> str:
    """The generate model loads and produces tokens."""
    from engine.llm.runtime import LlamaRuntime

    runtime = LlamaRuntime(settings.llm)
    try:
        text = runtime.chat("generate", [{"role": "user", "content": "Say hello."}], max_tokens=5, temperature=0.0)
        metrics = runtime.last_metrics
        info = runtime.info("generate")
    finally:
        runtime.close()
    if metrics.completion_tokens == 0 or not text.strip():
        raise RuntimeError("the model produced no tokens")
    return f"{info.name} loaded in {info.load_seconds:.2f}s, generated {metrics.completion_tokens} tokens"
