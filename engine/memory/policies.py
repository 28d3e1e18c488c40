"""The seed's profile rules as small pure functions: temporal weight, de-duplication
(concept id, then fuzzy name, then numeric tolerance), abnormal labs, chronic terms.

Fuzzy names use edit distance < 3 as the seed says (optimal string alignment, so a
swapped pair of letters counts once), with guards the seed lacks, because a false merge
is clinically dangerous: names that differ in a number ("type 1 diabetes" / "type 2
diabetes") never match; names shorter than 5 characters ("ALT" / "AST") must match
exactly; and drug and allergen names allow a distance of 1 only, because look-alike drug
names often differ by two letters ("amoxicillin" / "ampicillin", "prednisone" /
"prednisolone").
"""

from __future__ import annotations

import math
import re
import unicodedata
from datetime import datetime

FUZZY_MAX_DISTANCE = 2
DRUG_FUZZY_MAX_DISTANCE = 1
DRUG_SLOTS = ("medications", "allergies", "contraindications")
FUZZY_MIN_LENGTH = 5

# Same reading restated: within these tolerances (in the item's own unit) a new vital or
# lab merges into the latest one of its type instead of adding a series point.
NUMERIC_TOLERANCE = {
    "blood_pressure": 5.0,
    "heart_rate": 5.0,
    "respiratory_rate": 2.0,
    "temperature": 0.2,
    "spo2": 1.0,
    "weight": 0.5,
    "height": 1.0,
    "glucose": 5.0,
    "hba1c": 0.1,
    "ldl": 5.0,
    "egfr": 3.0,
    "tsh": 0.2,
}

# Adult reference intervals (low, high) by lab type and unit; outside = abnormal. Sources:
# common laboratory reference values (ADA for glucose/HbA1c, KDIGO for eGFR).
REFERENCE_RANGES = {
    ("glucose", "mg/dl"): (70.0, 99.0),
    ("glucose", "mmol/l"): (3.9, 5.5),
    ("hba1c", "%"): (4.0, 5.6),
    ("ldl", "mg/dl"): (0.0, 129.0),
    ("ldl", "mmol/l"): (0.0, 3.3),
    ("egfr", "ml/min/1.73m2"): (60.0, math.inf),
    ("egfr", "ml/min/1.73m²"): (60.0, math.inf),
    ("egfr", "ml/min"): (60.0, math.inf),
    ("tsh", "miu/l"): (0.4, 4.0),
    ("tsh", "uiu/ml"): (0.4, 4.0),
    ("tsh", "μiu/ml"): (0.4, 4.0),
}

CHRONIC_TERMS = (
    "diabetes",
    "hypertension",
    "heart",
    "cardiac",
    "kidney",
    "renal",
    "cancer",
    "asthma",
    "copd",
    "chronic",
    "hyperlipidemia",
    "dyslipidemia",
    "thyroid",
    "당뇨",
    "고혈압",
    "심장",
    "신장",
    "암",
    "천식",
    "만성",
    "갑상선",
    "고지혈",
)


def temporal_weight(observed_at: datetime, now: datetime, rate_per_hour: float) -> float:
    """exp(-λ·hours); a future timestamp counts as now."""
    hours = max(0.0, (now - observed_at).total_seconds() / 3600.0)
    return math.exp(-rate_per_hour * hours)


def normalise_name(name: str) -> str:
    text = unicodedata.normalize("NFKC", name or "").casefold()
    text = re.sub(r"[^\w\s]", " ", text)
    return " ".join(text.split())


def edit_distance(a: str, b: str, limit: int | None = None) -> int:
    """Optimal-string-alignment distance (Levenshtein plus adjacent transpositions); stops
    early and returns limit + 1 once the distance must exceed `limit`."""
    if a == b:
        return 0
    if limit is not None and abs(len(a) - len(b)) > limit:
        return limit + 1
    before_previous: list[int] = []
    previous = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        current = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = a[i - 1] != b[j - 1]
            current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                current[j] = min(current[j], before_previous[j - 2] + 1)
        if limit is not None and min(current) > limit:
            return limit + 1
        before_previous, previous = previous, current
    return previous[-1]


def names_match(a: str, b: str, max_distance: int = FUZZY_MAX_DISTANCE) -> bool:
    left, right = normalise_name(a), normalise_name(b)
    if not left or not right:
        return False
    if left == right:
        return True
    if re.findall(r"\d+", left) != re.findall(r"\d+", right):
        return False
    if min(len(left), len(right)) < FUZZY_MIN_LENGTH:
        return False
    return edit_distance(left, right, max_distance) <= max_distance


def fuzzy_limit(slot: str) -> int:
    return DRUG_FUZZY_MAX_DISTANCE if slot in DRUG_SLOTS else FUZZY_MAX_DISTANCE


def same_concept(a: dict, b: dict, max_distance: int = FUZZY_MAX_DISTANCE) -> bool:
    """Concept id first; two different ids are different concepts; otherwise fuzzy name."""
    id_a, id_b = a.get("concept_id"), b.get("concept_id")
    if id_a and id_b:
        return id_a == id_b
    return names_match(a.get("name", ""), b.get("name", ""), max_distance)


def _unit(item: dict) -> str:
    return normalise_unit(item.get("unit"))


def normalise_unit(unit: str | None) -> str:
    return "".join((unit or "").split()).casefold()


def same_reading(a: dict, b: dict) -> bool:
    """Same measurement type and unit, and every value within the type's tolerance."""
    kind = a.get("type")
    if not kind or kind != b.get("type") or _unit(a) != _unit(b):
        return False
    tolerance = NUMERIC_TOLERANCE.get(kind, 0.0)
    fields = ("systolic", "diastolic") if kind == "blood_pressure" else ("value",)
    for field in fields:
        left, right = a.get(field), b.get(field)
        if left is None or right is None:
            return False
        try:
            if abs(float(left) - float(right)) > tolerance + 1e-9:
                return False
        except (TypeError, ValueError):
            return False
    return True


def lab_is_abnormal(item: dict) -> bool:
    """An explicit flag from the extractor wins; else the reference interval, if known."""
    if isinstance(item.get("abnormal"), bool):
        return item["abnormal"]
    flag = str(item.get("flag") or "").casefold()
    if flag in {"high", "low", "h", "l", "abnormal", "critical"}:
        return True
    bounds = REFERENCE_RANGES.get((item.get("type"), _unit(item)))
    if bounds is None:
        return False
    try:
        value = float(item.get("value"))
    except (TypeError, ValueError):
        return False
    low, high = bounds
    return value < low or value > high


def is_chronic_term(name: str) -> bool:
    text = normalise_name(name)
    return any(term in text for term in CHRONIC_TERMS)
