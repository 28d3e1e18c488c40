"""Judging an answer: the LLM judge (bounded JSON) and the heuristic judge.

The LLM judge returns grounding, completeness and accuracy as 0..10 integers under a
grammar (`engine.llm.structured.JUDGE_SCHEMA`), validated and clamped to [0, 1]; overall
= 0.4/0.3/0.3. When the judge fails, or the judging model is too small to judge (below
`settings.refine.small_model_params`, on by default), the heuristic judge scores:

- grounding: the share of the answer's substantive sentences supported by the sources
  (most of their content words occur in one source sentence, or in the cited source);
- completeness: question-type coverage (a "treatment" question needs treatment words in
  the answer) and coverage of the question's medical words;
- accuracy: alerts respected (an allergy-conflicting drug is not recommended without a
  warning, emergencies tell the patient to seek care now) and no numbers that appear
  in neither the sources, the question nor the profile.
"""

from __future__ import annotations

import re

from engine.text import (
    answer_covers,
    content_words,
    detect_language,
    medical_words,
    numbers,
    split_answer_sentences,
)
from engine.errors import ModelOutputError
from engine.knowledge.questions import question_kinds
from engine.llm.structured import JUDGE_SCHEMA, validate_judgement

_CITATION = re.compile(r"\[(\d{1,2})\]")
_CAUTION = re.compile(r"allerg|avoid|not take|do not|don't|caution|careful|contraindicat|warning|risk|instead|"
                      r"알레르기|피하|주의|금기|복용하지|드시지|위험|대신", re.IGNORECASE)
_EMERGENCY = re.compile(r"emergency|911|119|hospital|immediately|right away|urgent|응급|병원|즉시|바로", re.IGNORECASE)
_MISSING_EVIDENCE = re.compile(r"no (information|evidence)|not (in|covered by) the sources|evidence is missing|"
                               r"근거가 (없|부족)|출처에 (없|정보가)", re.IGNORECASE)
SUPPORT_THRESHOLD = 0.5


def heuristic_judgement(question: str, answer: str, sources: list[str], *, alerts: list[dict] = (),
                        profile_text: str = "", weights: tuple[float, float, float] = (0.4, 0.3, 0.3)) -> dict:
    grounding = _grounding(answer, sources)
    completeness, missing = _completeness(question, answer)
    accuracy, concerns = _accuracy(answer, sources, question, profile_text, alerts)
    suggested = " ".join([question, *missing]).strip()[:120] if missing else ""
    overall = weights[0] * grounding + weights[1] * completeness + weights[2] * accuracy
    return {"grounding": round(grounding, 4), "completeness": round(completeness, 4), "accuracy": round(accuracy, 4),
            "missing_info": missing, "safety_concerns": concerns, "suggested_query": suggested,
            "overall": round(overall, 4), "judge": "heuristic"}


def _substantive(sentence: str) -> bool:
    return len(content_words(sentence)) >= 3


def _grounding(answer: str, sources: list[str]) -> float:
    sentences = [s for s in split_answer_sentences(answer) if _substantive(s)]
    if not sentences:
        return 0.0
    if not sources:
        return 1.0 if _MISSING_EVIDENCE.search(answer) else 0.0
    source_sentences = [set(content_words(s)) for text in sources for s in split_answer_sentences(text)]
    source_words = [set(content_words(text)) for text in sources]
    supported = 0
    for sentence in sentences:
        words = set(content_words(sentence))
        cited = [int(n) - 1 for n in _CITATION.findall(sentence) if 0 < int(n) <= len(sources)]
        best = max((len(words & other) / len(words) for other in source_sentences), default=0.0)
        if cited:
            best = max(best, max(len(words & source_words[i]) / len(words) for i in cited) - 0.1)
        if best >= SUPPORT_THRESHOLD:
            supported += 1
    return supported / len(sentences)


def _completeness(question: str, answer: str) -> tuple[float, list[str]]:
    types = question_kinds(question)
    answer_lower = answer.lower()
    type_score = sum(1 for t in types if answer_covers(t, answer)) / len(types) if types else 1.0
    wanted = sorted(medical_words(question)) or sorted(set(content_words(question)))[:5]
    present = [w for w in wanted if w in answer_lower]
    term_score = len(present) / len(wanted) if wanted else 1.0
    missing = [w for w in wanted if w not in present][:2] + [t.replace("_", " ") for t in sorted(types)
                                                             if not answer_covers(t, answer)][:1]
    if not answer.strip():
        return 0.0, missing[:3]
    return 0.5 * type_score + 0.5 * term_score, missing[:3]


def _accuracy(answer: str, sources: list[str], question: str, profile_text: str, alerts) -> tuple[float, list[str]]:
    concerns: list[str] = []
    penalty = 0.0
    for alert in alerts:
        kind = alert.get("kind", "")
        if kind == "emergency" and not _EMERGENCY.search(answer):
            concerns.append("emergency not stated")
            penalty += 0.5
        drug = str(alert.get("drug") or "").lower()
        if drug and drug in answer.lower() and not _CAUTION.search(answer):
            concerns.append(f"{drug} mentioned without a warning"[:60])
            penalty += 0.5
    known = numbers(" ".join(sources)) | numbers(question) | numbers(profile_text)
    invented = [n for n in numbers(_CITATION.sub(" ", answer)) if n not in known]
    if invented:
        concerns.append(f"unsupported numbers: {', '.join(sorted(invented)[:3])}"[:60])
        penalty += min(0.4, 0.1 * len(invented))
    return max(0.0, 1.0 - penalty), concerns[:3]


def llm_judgement(llm, question: str, answer: str, sources_text: str, *, weights=(0.4, 0.3, 0.3)) -> dict:
    """One grammar-constrained judge call; raises ModelOutputError when the reply does not validate."""
    language = detect_language(question)
    messages = [
        {"role": "system", "content": "You grade answers of a medical assistant. Scores are integers 0-10. "
                                      "grounding: supported by the sources. completeness: answers the question. "
                                      "accuracy: medically correct and safe. Reply in JSON."},
        {"role": "user", "content": f"Question ({language}): {question}\n\nSources:\n{sources_text or '(none)'}\n\n"
                                    f"Answer:\n{answer}"},
    ]
    raw = llm.complete_json("judge", messages, JUDGE_SCHEMA, max_tokens=200)
    if not isinstance(raw, dict):
        raise ModelOutputError("judge reply is not an object")
    result = validate_judgement(raw, weights)
    result["judge"] = "llm"
    return result
