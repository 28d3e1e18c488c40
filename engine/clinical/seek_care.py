"""When to get help now: the warning signs of a symptom that need emergency care.

A person who describes symptoms and asks what to do should read, before anything the
sources say, the signs with which they must not wait: fainting with dizziness, a stiff
neck with fever, blood in the vomit. The red-flag rules (engine.clinical.red_flags) raise
an emergency when a message already describes one; this table covers the common case where
it does not, so the answer can say what would make it one. Deterministic, from
resources/clinical/seek_care.tsv (English and Korean), keyed by the symptom's English
canonical name as the extractor gives it; an injury ("head injuries") is covered the same way.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Sequence

from engine.clinical.lexicon import lexicon_dir, read_rows
from engine.clinical.measurements import measured_conditions

LANGUAGES = ("en", "ko")
MAX_SIGNS = 7


@dataclass(frozen=True)
class WarningSigns:
    symptom: str
    signs: dict[str, tuple[str, ...]]
    injury: bool = False  # its signs come after it ("after head injuries"), not with it


@lru_cache(maxsize=1)
def table() -> dict[str, WarningSigns]:
    """Symptom (English canonical, lower case) -> its warning signs in each language."""
    rows = read_rows(lexicon_dir() / "seek_care.tsv", 3)
    entries: dict[str, WarningSigns] = {}
    for row in rows:
        symptom, english, korean = row[:3]
        signs = {"en": tuple(s.strip() for s in english.split("|") if s.strip()),
                 "ko": tuple(s.strip() for s in korean.split("|") if s.strip())}
        entries[symptom.lower()] = WarningSigns(symptom.lower(), signs, injury=row[3:4] == ["injury"])
    return entries


# The slots whose items the table may cover: symptoms, and injuries such as head injuries.
SLOTS = ("symptoms", "conditions")


def symptoms_with_signs(slots: dict) -> list[str]:
    """The symptoms and injuries of `slots` (not negated, in the order written) that the table covers,
    then what a measured value names that it covers (high blood sugar from a blood glucose of 250 mg/dL or
    more: `measured_conditions`)."""
    names: list[str] = []
    for item in (i for slot in SLOTS for i in (slots or {}).get(slot, [])):
        if not isinstance(item, dict) or item.get("negated"):
            continue
        name = str(item.get("name") or "").lower()
        if name in table() and name not in names:
            names.append(name)
    for name, _measured in measured_conditions(slots):
        if name in table() and name not in names:
            names.append(name)
    return names


def warning_signs(symptoms: Sequence[str], language: str, limit: int = MAX_SIGNS) -> list[str]:
    """The warning signs of `symptoms` in `language`, taken in turn from each symptom (its
    most important first) so that every symptom is represented, without repeats."""
    language = language if language in LANGUAGES else "en"
    lists = [table()[name].signs[language] for name in symptoms if name in table()]
    signs: list[str] = []
    for rank in range(max((len(signs_) for signs_ in lists), default=0)):
        for signs_ in lists:
            if rank < len(signs_) and signs_[rank] not in signs:
                signs.append(signs_[rank])
    return signs[:limit]
