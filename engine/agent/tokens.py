"""Token counting and the per-turn token plan.

Counts use the generating model's own tokenizer (through the LLM runtime); tiktoken's
cl100k is the fallback only when no model is loaded (the fake LLM in tests, or a turn
that never generates). The plan follows the seed: total budget (default 4,000), system
400, documents 900, the query exactly, a generation reserve, and of what remains the
profile ≤ 20 %, long-term memory ≤ 10 %, recent turns the rest. The sum never exceeds
the model's context.
"""

from __future__ import annotations

import re
from dataclasses import asdict, dataclass

from engine.errors import InputError
from engine.protocols import LLM
from engine.tokenizer import count_tokens_fallback

# Chat-template tokens per message (role markers, separators); ChatML uses ~4-5.
MESSAGE_OVERHEAD = 8
PROMPT_OVERHEAD = 16


@dataclass(frozen=True)
class BudgetPlan:
    total: int
    system: int
    documents: int
    query: int
    profile: int
    long_term: int
    recent: int
    reserve: int
    overhead: int

    def as_dict(self) -> dict:
        return asdict(self)

    @property
    def allocated(self) -> int:
        return (self.system + self.documents + self.query + self.profile + self.long_term + self.recent
                + self.reserve + self.overhead)


def plan_budget(*, total: int, n_ctx: int, system: int, documents: int, query: int, reserve: int,
                profile_share: float, long_term_share: float, overhead: int = PROMPT_OVERHEAD) -> BudgetPlan:
    """Split the budget. Documents shrink first when the fixed parts leave too little room.

    Raises InputError when the question alone (with system prompt and reserve) cannot fit.
    """
    if min(total, n_ctx, system, documents, query, reserve, overhead) < 0:
        raise ValueError("budget parts must be non-negative")
    if not (0.0 <= profile_share <= 1.0 and 0.0 <= long_term_share <= 1.0 and profile_share + long_term_share <= 1.0):
        raise ValueError("profile and long-term shares must be in [0, 1] and sum to at most 1")
    effective = min(total, n_ctx)
    fixed = system + query + reserve + overhead
    if fixed > effective:
        raise InputError(
            f"question of {query} tokens does not fit the {effective}-token budget",
            user_message="The question is too long for the model's context. Shorten it.",
        )
    documents = min(documents, effective - fixed)
    remaining = effective - fixed - documents
    profile = int(remaining * profile_share)
    long_term = int(remaining * long_term_share)
    recent = remaining - profile - long_term
    return BudgetPlan(total=effective, system=system, documents=documents, query=query, profile=profile,
                      long_term=long_term, recent=recent, reserve=reserve, overhead=overhead)


class TokenManager:
    """Counts and trims text in the generating model's tokens."""

    def __init__(self, llm: LLM | None = None, role: str = "generate"):
        self._llm = llm
        self._role = role
        self._cache: dict[str, int] = {}

    @property
    def uses_model_tokenizer(self) -> bool:
        return self._llm is not None

    def count(self, text: str) -> int:
        if not text:
            return 0
        cached = self._cache.get(text)
        if cached is not None:
            return cached
        if self.uses_model_tokenizer:
            value = self._llm.count_tokens(self._role, text)
        else:
            value = count_tokens_fallback(text)
        if len(self._cache) > 4096:
            self._cache.clear()
        self._cache[text] = value
        return value

    def count_messages(self, messages: list[dict]) -> int:
        """Prompt size of a chat: the rendered template when the runtime can render, else content + overhead."""
        rendered = self._llm.render_prompt(self._role, messages) if self._llm is not None else None
        if rendered is not None:
            return self.count(rendered[0])
        return sum(self.count(m["content"]) + MESSAGE_OVERHEAD for m in messages) + PROMPT_OVERHEAD

    def truncate(self, text: str, limit: int) -> str:
        """The longest prefix of whole lines (then words) that fits `limit` tokens.

        Always a true prefix of `text`, whatever its line separators.
        """
        if limit <= 0 or not text:
            return ""
        if self.count(text) <= limit:
            return text
        end = used = 0
        for line in text.splitlines(keepends=True):
            cost = self.count(line)
            if used + cost > limit:
                end += len(self._truncate_words(line, limit - used))
                break
            end += len(line)
            used += cost
        result = text[:end]
        while result and self.count(result) > limit:
            result = result[: max(0, len(result) - max(1, len(result) // 10))]
        return result

    def _truncate_words(self, line: str, limit: int) -> str:
        """The longest prefix of `line` ending at a word end that fits `limit` tokens (binary search)."""
        if limit <= 0:
            return ""
        ends = [match.end() for match in re.finditer(r"\S+", line)]
        low, high = 0, len(ends)
        while low < high:
            mid = (low + high + 1) // 2
            if self.count(line[: ends[mid - 1]]) <= limit:
                low = mid
            else:
                high = mid - 1
        return line[: ends[low - 1]] if low else ""
