"""Small text helpers shared by the clinical modules (no MedCAT import)."""

from __future__ import annotations

import re

HANGUL_SYLLABLE = "\uac00-\ud7a3"
HANGUL = re.compile(f"[{HANGUL_SYLLABLE}]")


def has_hangul(text: str) -> bool:
    return bool(HANGUL.search(text))


def is_korean(text: str) -> bool:
    """True when the text should be answered in Korean (any Hangul at all)."""
    return has_hangul(text)


# -ing words whose stem means something else ("burning" is not "burns").
_NOT_STEMMED = frozenset({
    "burning", "feeling", "feelings", "morning", "mornings", "evening", "evenings", "nothing", "something",
    "anything", "everything", "building", "during", "being", "thing", "things", "ceiling", "wedding",
    "pudding", "spring", "string", "bring", "sling", "sting", "stings", "swing", "wing", "king", "ring",
})


def english_stem(lower: str) -> str:
    """A light, symmetric stemmer for English tokens (plurals and -ing).

    It is applied to concept names and to text alike, so "headaches" meets "headache"
    and "coughing" meets "cough"; collisions between unrelated words are rare at the
    lengths MedCAT normalises (5+ letters).
    """
    if not lower.isascii() or not lower.isalpha() or lower in _NOT_STEMMED:
        return lower
    if lower.endswith("ies") and len(lower) > 4:
        return lower[:-3] + "y"
    if lower.endswith("aches"):
        return lower[:-1]
    if lower.endswith(("shes", "ches", "xes", "sses")):
        return lower[:-2]
    if lower.endswith("s") and not lower.endswith(("ss", "us", "is")):
        return lower[:-1]
    if lower.endswith("ing") and len(lower) >= 7:
        stem = lower[:-3]
        if len(stem) > 3 and stem[-1] == stem[-2] and stem[-1] not in "lsz":
            stem = stem[:-1]
        return stem
    return lower
