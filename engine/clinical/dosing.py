"""Dose and frequency of a medication mention ("500mg 하루 두 번", "10 mg twice daily")."""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.clinical.mentions import Mention

_KOREAN_COUNTS = {"한": 1, "하나": 1, "두": 2, "둘": 2, "세": 3, "셋": 3, "네": 4, "넷": 4, "다섯": 5, "반": 0.5}
_ENGLISH_COUNTS = {"once": 1, "twice": 2, "thrice": 3, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "half": 0.5, "a": 1}
_TIMES = {1: "once", 2: "twice", 3: "three times", 4: "four times", 5: "five times"}

_DOSE = re.compile(
    r"(?<![\d.])(?P<value>\d+(?:\.\d+)?|½)\s*(?P<unit>mg|mcg|µg|μg|ug|g|ml|mL|cc|iu|IU|units?|unit|단위|밀리그램|밀리|미리|그램|"
    r"정|알|tablets?|tabs?|pills?|capsules?|caps?|캡슐|포|puffs?|spray|sprays|방울|drops?|패치|patch(?:es)?|앰플|병)"
    r"(?![A-Za-z]|\s*/\s*(?:d[lL]|L\b|kg|m2|min))",
)
_KOREAN_COUNT_DOSE = re.compile(r"(?P<count>한|두|세|네|반)\s*(?P<unit>알|정|캡슐|포|번\s*뿌|방울)")
_ENGLISH_COUNT_DOSE = re.compile(r"\b(?P<count>one|two|three|half\s+a|a)\s+(?P<unit>tablet|pill|capsule|puff|drop|spray)s?\b", re.IGNORECASE | re.ASCII)

_FREQUENCY_RULES: list[tuple[re.Pattern, object]] = [
    (re.compile(r"(?:하루|1일|일일|매일)\s*(?:에)?\s*(?P<n>한|두|세|네|다섯|\d)\s*(?:번|회|차례|알씩\s*\d*\s*번)"), "times_daily"),
    (re.compile(r"(?:하루|1일)\s*(?P<n>\d)\s*x", re.IGNORECASE | re.ASCII), "times_daily"),
    (re.compile(r"(?P<n>\d)\s*(?:x|times)\s*(?:a|per|/)\s*day|(?P<w>once|twice|thrice|three\s+times|four\s+times)\s+(?:a|per|each|every)\s+day"
                r"|(?P<w2>once|twice|thrice|three\s+times|four\s+times)\s+daily", re.IGNORECASE | re.ASCII), "times_daily"),
    (re.compile(r"\b(?:qd|od|q\.d\.|daily|every\s+day|each\s+day|once\s+a\s+day)\b", re.IGNORECASE | re.ASCII), "once daily"),
    (re.compile(r"\b(?:bid|b\.i\.d\.)\b", re.IGNORECASE | re.ASCII), "twice daily"),
    (re.compile(r"\b(?:tid|t\.i\.d\.)\b", re.IGNORECASE | re.ASCII), "three times daily"),
    (re.compile(r"\b(?:qid|q\.i\.d\.)\b", re.IGNORECASE | re.ASCII), "four times daily"),
    (re.compile(r"\bq\s*(?P<h>\d{1,2})\s*h(?:rs?|ours?)?\b|every\s+(?P<h2>\d{1,2})\s*(?:hours|hrs?|h)\b|(?P<h3>\d{1,2})\s*시간\s*(?:마다|간격|에\s*한\s*번)", re.IGNORECASE | re.ASCII), "every_hours"),
    (re.compile(r"아침\s*(?:,|과|하고|이랑)?\s*저녁(?:으로|에)?|morning\s+and\s+(?:evening|night)", re.IGNORECASE | re.ASCII), "twice daily"),
    (re.compile(r"아침\s*,?\s*점심\s*,?\s*(?:과|하고)?\s*저녁|세\s*끼\s*(?:식후|식전)?|매\s*식후|매\s*끼"), "three times daily"),
    (re.compile(r"이틀에\s*한\s*번|격일|every\s+other\s+day", re.IGNORECASE | re.ASCII), "every other day"),
    (re.compile(r"(?:일주일|1주일|주)\s*(?:에)?\s*(?P<n>한|두|세|\d)\s*(?:번|회)|(?P<w>once|twice)\s+(?:a|per)\s+week|weekly", re.IGNORECASE | re.ASCII), "weekly"),
    (re.compile(r"필요할\s*때|필요시|아플\s*때(?:만)?|증상이\s*있을\s*때|열\s*날\s*때|\bprn\b|as\s+needed|when\s+needed|if\s+needed", re.IGNORECASE | re.ASCII), "as needed"),
    (re.compile(r"자기\s*전|취침\s*전|잠들기\s*전|잘\s*때|at\s+bedtime|before\s+bed|\bqhs\b|\bhs\b|nightly|at\s+night", re.IGNORECASE | re.ASCII), "at bedtime"),
    (re.compile(r"매일\s*(?:아침|하루)?|날마다|하루\s*(?:에\s*)?한\s*알|every\s+(?:morning|evening|night)|in\s+the\s+morning|아침마다|저녁마다|"
                r"(?:아침|저녁|점심)(?:에|에만)?\s*(?:한\s*(?:번|알|정|캡슐)|1\s*(?:번|알|정|회))", re.IGNORECASE | re.ASCII), "once daily"),
]
MAX_DISTANCE = 30
_SENTENCE_END = re.compile(r"[!?;\n]|\.(?!\d)")


@dataclass
class _Found:
    start: int
    end: int
    value: dict


def attach_dosing(text: str, medications: list[Mention]) -> dict[int, dict]:
    """Dose and frequency per medication (keyed by the mention's start offset)."""
    details: dict[int, dict] = {id(m): {} for m in medications}
    if not medications:
        return {}
    mention_spans = [(m.start, m.end) for m in medications]
    for found in _doses(text, list(mention_spans)):
        owner = _nearest(text, medications, found)
        if owner is not None:
            details[id(owner)].setdefault("dose", found.value)
    for found in _frequencies(text, list(mention_spans)):
        owner = _nearest(text, medications, found)
        if owner is not None:
            details[id(owner)].setdefault("frequency", found.value["frequency"])
    return {m.start: _flatten(details[id(m)]) for m in medications if details[id(m)]}


def _flatten(detail: dict) -> dict:
    out: dict = {}
    dose = detail.get("dose")
    if dose:
        out["dose"] = dose["text"]
        if dose.get("value") is not None:
            out["dose_value"] = dose["value"]
        out["dose_unit"] = dose["unit"]
    if "frequency" in detail:
        out["frequency"] = detail["frequency"]
    return out


def _free(taken: list[tuple[int, int]], start: int, end: int) -> bool:
    return all(end <= a or start >= b for a, b in taken)


def _doses(text: str, taken: list[tuple[int, int]]):
    for match in _DOSE.finditer(text):
        if _free(taken, match.start(), match.end()):
            raw = match["value"]
            value = 0.5 if raw == "½" else float(raw)
            value = int(value) if float(value).is_integer() else value
            unit = _normalise_dose_unit(match["unit"])
            taken.append((match.start(), match.end()))
            yield _Found(match.start(), match.end(), {"text": f"{value} {unit}", "value": value, "unit": unit})
    for pattern, counts in ((_KOREAN_COUNT_DOSE, _KOREAN_COUNTS), (_ENGLISH_COUNT_DOSE, _ENGLISH_COUNTS)):
        for match in pattern.finditer(text):
            if _free(taken, match.start(), match.end()):
                count = counts[match["count"].lower().split()[0]]
                unit = _normalise_dose_unit(match["unit"])
                taken.append((match.start(), match.end()))
                yield _Found(match.start(), match.end(), {"text": f"{count} {unit}", "value": count, "unit": unit})


def _normalise_dose_unit(unit: str) -> str:
    lowered = unit.lower().replace(" ", "")
    table = {
        "밀리그램": "mg", "밀리": "mg", "미리": "mg", "그램": "g", "µg": "mcg", "μg": "mcg", "ug": "mcg", "cc": "mL", "ml": "mL",
        "units": "unit", "단위": "unit", "iu": "IU", "정": "tablet", "알": "tablet", "tablets": "tablet", "tabs": "tablet",
        "tab": "tablet", "pill": "tablet", "pills": "tablet", "캡슐": "capsule", "capsules": "capsule", "caps": "capsule",
        "cap": "capsule", "포": "packet", "puffs": "puff", "sprays": "spray", "방울": "drop", "drops": "drop",
        "패치": "patch", "patches": "patch", "앰플": "ampoule", "병": "bottle",
    }
    if lowered.startswith("번"):
        return "spray"
    return table.get(lowered, lowered)


def _frequencies(text: str, taken: list[tuple[int, int]]):
    for pattern, kind in _FREQUENCY_RULES:
        for match in pattern.finditer(text):
            if not _free(taken, match.start(), match.end()):
                continue
            frequency = _frequency_text(kind, match)
            if frequency:
                taken.append((match.start(), match.end()))
                yield _Found(match.start(), match.end(), {"frequency": frequency})


def _frequency_text(kind: object, match: re.Match) -> str | None:
    groups = match.groupdict()
    if kind == "times_daily":
        raw = groups.get("n") or groups.get("w") or groups.get("w2")
        count = _count(raw)
        return f"{_TIMES[count]} daily" if count in _TIMES else None
    if kind == "every_hours":
        hours = groups.get("h") or groups.get("h2") or groups.get("h3")
        return f"every {int(hours)} hours"
    if kind == "weekly":
        count = _count(groups.get("n") or groups.get("w") or "once")
        return "weekly" if count == 1 else f"{_TIMES.get(count, str(count))} weekly"
    return str(kind)


def _count(raw: str | None) -> int | None:
    if raw is None:
        return None
    raw = raw.lower().strip()
    if raw.isdigit():
        return int(raw)
    if raw in _KOREAN_COUNTS:
        return int(_KOREAN_COUNTS[raw])
    first = raw.split()[0]
    return {"once": 1, "twice": 2, "thrice": 3, "three": 3, "four": 4}.get(first)


def _nearest(text: str, medications: list[Mention], found: _Found) -> Mention | None:
    """The medication this dose/frequency belongs to: the closest one in the same
    sentence, preferring one written before it ("metformin 500 mg", "메트포르민 500mg")."""
    best, best_score = None, None
    for mention in medications:
        if mention.end <= found.start:
            gap_start, gap_end, penalty = mention.end, found.start, 0
        elif mention.start >= found.end:
            gap_start, gap_end, penalty = found.end, mention.start, 5
        else:
            continue
        distance = gap_end - gap_start
        # Distance first: slicing the gap of every far pair made long texts cubic.
        if distance > MAX_DISTANCE or _SENTENCE_END.search(text, gap_start, gap_end):
            continue
        score = distance + penalty
        if best_score is None or score < best_score:
            best, best_score = mention, score
    return best
