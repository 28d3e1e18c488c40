"""The answer bench's grader: whether an answer meets a reference fact or states a wrong claim.

Kept apart from the pipeline it grades (`engine.text` reads negation its own way) and used by every
bench that scores answers (`answers`, `answer_gaps`, `relevance`, the ablation's `evaluation`).
"""

from __future__ import annotations

import re

from engine.text import has_hangul

_SHORT_PHRASE = 4


def _occurrences(phrase: str, text: str) -> list[int]:
    """Where `phrase` starts in `text` (case-insensitive). An English phrase inside a longer
    word counts ("steroid" in "corticosteroids", "weight" in "overweight") unless the word
    negates it ("nonsteroidal", "anti-inflammatory") or the phrase is a short word ("eat" is
    not in "treat"). Korean phrases match anywhere, since Korean writes compounds as one word."""
    pattern = re.escape(phrase.lower())
    if phrase[:1].isascii() and phrase[:1].isalnum():
        pattern = r"(?<!non)(?<!non-)(?<!anti)(?<!anti-)" + pattern
        if len(phrase) <= _SHORT_PHRASE:
            pattern = r"(?<![a-z0-9])" + pattern
    return [m.start() for m in re.finditer(pattern, text.lower())]


def phrase_in(phrase: str, text: str) -> bool:
    return bool(_occurrences(phrase, text))


_NEGATED_BEFORE = re.compile(r"\b(?:not|no|never|don't|do not|avoid|without|cannot|can't)\W+(?:\w+\W+){0,2}$")
_NEGATED_AFTER_KO = re.compile(r"^\S{0,3}\s?(?:지 ?않|지 ?마|지 ?말|면 안)")


def stated(phrase: str, text: str) -> bool:
    """Whether the answer states `phrase`, not its denial: "do not drive yourself" does not
    claim "drive yourself", nor "저절로 낫지 않습니다" "저절로 낫". Written apart from
    `engine.text.is_negated` on purpose: the grader must not read negation the way the
    pipeline it grades does."""
    lowered = text.lower()
    for start in _occurrences(phrase, text):
        if _NEGATED_BEFORE.search(lowered[max(0, start - 40):start]):
            continue
        if has_hangul(phrase) and _NEGATED_AFTER_KO.match(lowered[start + len(phrase):]):
            continue
        return True
    return False


def nugget_recall(answer: str, nuggets: list[list[str]]) -> float:
    if not nuggets:
        return 1.0
    return sum(1 for group in nuggets if any(phrase_in(p, answer) for p in group)) / len(nuggets)


def wrong_claim(answer: str, forbidden: list[str]) -> bool:
    return any(stated(p, answer) for p in forbidden)
