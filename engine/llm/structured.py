"""Constrained output: JSON schemas with bounded sizes, validated and clamped in code.

The default model is tiny, so the grammar keeps its output well-formed and short, and the
validators here decide what is usable. Anything that does not validate raises
`ModelOutputError`, on which callers fall back to rules or heuristics.
"""

from __future__ import annotations

import json
import math
from typing import Sequence

from engine.errors import ModelOutputError

JUDGE_SCORE_LEVELS = list(range(11))
JUDGE_SCHEMA: dict = {
    "type": "object",
    "properties": {
        "grounding": {"type": "integer", "enum": JUDGE_SCORE_LEVELS},
        "completeness": {"type": "integer", "enum": JUDGE_SCORE_LEVELS},
        "accuracy": {"type": "integer", "enum": JUDGE_SCORE_LEVELS},
        "missing_info": {
            "type": "array",
            "items": {"type": "string", "maxLength": 60},
            "maxItems": 3,
        },
        "safety_concerns": {
            "type": "array",
            "items": {"type": "string", "maxLength": 60},
            "maxItems": 3,
        },
        "suggested_query": {"type": "string", "maxLength": 120},
    },
    "required": ["grounding", "completeness", "accuracy", "missing_info", "safety_concerns", "suggested_query"],
}


def label_schema(labels: Sequence[str]) -> dict:
    return {
        "type": "object",
        "properties": {"label": {"type": "string", "enum": list(labels)}},
        "required": ["label"],
    }


def classification_messages(prompt: str, labels: Sequence[str], system: str | None = None) -> list[dict]:
    """The chat that asks any model, local or on a server, for one of `labels`."""
    messages = [{"role": "system", "content": system}] if system else []
    messages.append({"role": "user", "content": f"{prompt}\nAnswer with one label: {', '.join(labels)}."})
    return messages


def parse_json(text: str) -> dict:
    """Parse model JSON; raw control characters inside strings are tolerated (then cleaned)."""
    try:
        value = json.loads(text, strict=False)
    except (json.JSONDecodeError, TypeError) as exc:
        raise ModelOutputError(f"model output is not JSON: {exc}") from exc
    if not isinstance(value, dict):
        raise ModelOutputError("model output is not a JSON object")
    return value


def validate_label(label: object, labels: Sequence[str]) -> str:
    if isinstance(label, str):
        cleaned = label.strip().lower()
        for allowed in labels:
            if cleaned == allowed.lower():
                return allowed
    raise ModelOutputError(f"label {label!r} is not one of {list(labels)}")


class StructuredCalls:
    """`chat`, `complete_json` and `classify` on top of a backend's `stream_chat`, the same
    for the local runtime and a model server: the grammar (or the server's JSON mode) keeps
    the output to `schema`, the validators here decide what is usable."""

    last_metrics: object

    def chat(self, role: str, messages: list, **kwargs) -> str:
        return "".join(self.stream_chat(role, messages, **kwargs))

    def complete_json(self, role: str, messages: list, schema: dict, *, max_tokens: int = 256) -> dict:
        """JSON for `schema`; parsed here, validated by the caller."""
        text = self.chat(role, messages, max_tokens=max_tokens, temperature=0.0, grammar_schema=schema)
        if self.last_metrics.finish_reason == "length":
            raise ModelOutputError(f"JSON output hit the {max_tokens}-token limit")
        return parse_json(text)

    def classify(self, role: str, prompt: str, labels: Sequence[str], *, system: str | None = None) -> str:
        """Exactly one of `labels` (constrained, then validated)."""
        reply = self.complete_json(role, classification_messages(prompt, labels, system), label_schema(labels),
                                   max_tokens=32)
        return validate_label(reply.get("label"), labels)


def _score(value: object, field: str) -> float:
    """Scores arrive as 0..10 integers (or 0..1 floats from a stronger model); clamp to [0, 1]."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or math.isnan(value):
        raise ModelOutputError(f"judge field {field!r} is not a number: {value!r}")
    score = value / 10.0 if value > 1 else float(value)
    return min(1.0, max(0.0, score))


def _clean(text: str, length: int) -> str:
    return " ".join(text.split())[:length]


def _short_strings(value: object, limit: int, length: int) -> list[str]:
    if not isinstance(value, list):
        return []
    return [_clean(str(v), length) for v in value if str(v).strip()][:limit]


def validate_judgement(raw: dict, weights: tuple[float, float, float] = (0.4, 0.3, 0.3)) -> dict:
    """Validate and clamp a judge reply; add `overall` = weighted sum (seed: 0.4/0.3/0.3)."""
    scores = {f: _score(raw.get(f), f) for f in ("grounding", "completeness", "accuracy")}
    suggested = raw.get("suggested_query", "")
    result = {
        **scores,
        "missing_info": _short_strings(raw.get("missing_info"), 3, 60),
        "safety_concerns": _short_strings(raw.get("safety_concerns"), 3, 60),
        "suggested_query": _clean(suggested, 120) if isinstance(suggested, str) else "",
    }
    result["overall"] = round(
        weights[0] * scores["grounding"] + weights[1] * scores["completeness"] + weights[2] * scores["accuracy"], 4
    )
    return result
