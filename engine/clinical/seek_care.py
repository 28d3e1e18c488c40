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
# A measured blood glucose this high names high blood sugar ("her sugar is 300"): above 240 mg/dL the
# usual advice is to check for ketones, and the signs of ketoacidosis are what must not wait.
HIGH_GLUCOSE_MG_DL = 250
HIGH_GLUCOSE_MMOL_L = 13.9


def symptoms_with_signs(slots: dict) -> list[str]:
    """The symptoms and injuries of `slots` (not negated, in the order written) that the table covers,
    and high blood sugar when a measured glucose is HIGH_GLUCOSE_MG_DL or more."""
    names: list[str] = []
    for item in (i for slot in SLOTS for i in (slots or {}).get(slot, [])):
        if not isinstance(item, dict) or item.get("negated"):
            continue
        name = str(item.get("name") or "").lower()
        if name in table() and name not in names:
            names.append(name)
    if "hyperglycemia" in table() and "hyperglycemia" not in names and _high_glucose(slots):
        names.append("hyperglycemia")
    return names


def _high_glucose(slots: dict) -> bool:
    for lab in (slots or {}).get("labs", []) or []:
        if not isinstance(lab, dict) or lab.get("type") != "glucose" or not isinstance(lab.get("value"), (int, float)):
            continue
        value = lab["value"]
        limit = HIGH_GLUCOSE_MMOL_L if str(lab.get("unit") or "").lower() == "mmol/l" else HIGH_GLUCOSE_MG_DL
        if value >= limit:
            return True
    return False


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
