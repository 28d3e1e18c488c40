"""Query translation by concept and question type: a question (Korean, English or mixed,
one line or a long clinical message) -> focused English sub-queries in the knowledge
base's own question forms.

    "갑상선 기능저하증이면 어떤 증상이 나타나요?"
        -> concepts: hypothyroidism          (the clinical pack: Korean names, lay terms)
        -> question type: symptoms           (questions.detect_qtypes)
        -> "What are the symptoms of hypothyroidism?"   shown as "hypothyroidism symptoms"

A long message ("58-year-old woman, allergic to penicillin, on amlodipine 5 mg. She has
a sore throat and fever. Can she take amoxicillin?") is searched by what it asks: the
concepts of the question sentence with the asked type (amoxicillin, precautions), the
presenting complaint (sore throat, fever) and, for a drug question, the patient's allergy
(penicillin allergy). Ages, doses, other medications and negated findings are the
patient's facts, never query words. Several sub-queries are fused with RRF.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable, Mapping, Sequence

from engine.knowledge.questions import DRUG_QTYPES, QuestionIndex, detect_qtypes, label, question_form

# concepts(text) -> mentions as mappings: name, synonyms, slot, start, end, negated.
ConceptFinder = Callable[[str], Sequence[Mapping]]

_SENTENCE = re.compile(r"[^.?!\n。]+[.?!。]*")
_QUESTION = re.compile(
    r"\?|^\s*(?:what|how|why|can|could|is|are|does|do|should|who|when|which|will)\b|"
    r"(?:나요|까요|가요|는지|을까|인가|되요|돼요|되나|알려|궁금|할까|있어요|있나|해요|하나요|어떡|뭐)\s*[.?!]*\s*$",
    re.IGNORECASE,
)
# Patient facts that make a message a clinical case description: ages, doses, vitals, labs.
_PATIENT_FACTS = re.compile(
    r"\b\d{1,3}[- ]?(?:years?[- ]old|yo|y/o)\b|\d{1,3}\s*(?:세|살)|\b\d+(?:\.\d+)?\s*(?:mg|mcg|ml|units?|kg)\b|"
    r"\b\d{2,3}/\d{2,3}\b|\b(?:hba1c|a1c|inr|bmi|spo2|ldl|tsh|creatinine|egfr)\b|당화혈색소|크레아티닌|산소포화도|혈압\s*\d",
    re.IGNORECASE,
)
_ALLERGY = re.compile(r"allerg|알레르기|알러지|과민", re.IGNORECASE)
_FOCUS_SLOTS = ("condition", "medication")
MAX_SUBQUERIES = 4


@dataclass
class SubQuery:
    """One focused English search: the question form, with names to weigh in BM25."""

    text: str
    focus: list[str]
    qtype: str | None
    shown: str
    weight: float = 1.0
    terms: list[str] = field(default_factory=list)

    @property
    def bm25_text(self) -> str:
        return " ".join([self.text, *self.terms])


@dataclass
class QueryPlan:
    original: str
    subqueries: list[SubQuery]
    qtypes: list[str]
    focus_keys: list[str]
    message: bool = False  # a clinical case (several sentences with patient facts): searched by its sub-queries
    long: bool = False  # several sentences

    @property
    def english(self) -> str:
        """What was searched, as shown to the user: "hypothyroidism symptoms; ..."."""
        return "; ".join(s.shown for s in self.subqueries)


def _has_hangul(text: str) -> bool:
    return any("\uac00" <= c <= "\ud7a3" for c in text)


def _sentences(text: str) -> list[tuple[int, int, str]]:
    return [(m.start(), m.end(), m.group(0)) for m in _SENTENCE.finditer(text) if m.group(0).strip()]


def _questions(sentences: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    asked = [s for s in sentences if _QUESTION.search(s[2])]
    return asked or sentences[-1:]


def is_clinical_case(text: str) -> bool:
    """Several sentences with patient facts (an age, a dose, vitals or labs)."""
    return len(_sentences(text)) >= 3 and bool(_PATIENT_FACTS.search(text))


def _inside(mention: Mapping, spans: list[tuple[int, int, str]]) -> bool:
    return any(start <= mention["start"] < end for start, end, _ in spans)


class QueryTranslator:
    """Builds a `QueryPlan` for a query; None when it names no concept it can search by."""

    def __init__(self, concepts: ConceptFinder, synonyms: int = 2):
        self.concepts = concepts
        self.synonyms = synonyms
        self.index = QuestionIndex()

    def plan(self, query: str, kb=None) -> QueryPlan | None:
        mentions = [m for m in self.concepts(query) if not m.get("negated")]
        if not mentions:
            return None
        if kb is not None:
            self.index.refresh(kb)
        sentences = _sentences(query)
        asked = _questions(sentences)
        qtypes = detect_qtypes(" ".join(s[2] for s in asked))
        in_question = [m for m in mentions if _inside(m, asked)]
        focus = ([m for m in in_question if m["slot"] in _FOCUS_SLOTS]
                 or [m for m in in_question if m["slot"] == "symptom"]
                 or [m for m in mentions if m["slot"] in _FOCUS_SLOTS]
                 or mentions)
        focus = self._unique(focus)[:2]
        allergic = [m for m in mentions if m not in focus and m["slot"] in ("medication", "allergen")
                    and any(_ALLERGY.search(s[2]) and s[0] <= m["start"] < s[1] for s in sentences)]
        subqueries: list[SubQuery] = []
        focus_keys: list[str] = []
        for mention in focus:
            names = self._names(mention)
            own = self.index.best_focus(names, qtypes) if kb is not None else None
            if own:
                focus_keys.append(own)
            name = own or mention["name"]
            is_drug = mention["slot"] == "medication"
            types = [q for q in qtypes if (q in DRUG_QTYPES) == is_drug] or qtypes[:1] or [None]
            if is_drug and types == [None]:
                types = ["usage"]
            for qtype in types[:2]:
                shown = f"{name} {label(qtype)}".strip()
                # A focus the knowledge base has no document on is searched by its names:
                # the question form's own words would find the same question about other foci.
                text = question_form(qtype, name) if own or kb is None else shown
                subqueries.append(SubQuery(text, names, qtype, shown, terms=names[: 1 + self.synonyms]))
            if is_drug:
                for allergen in self._unique(allergic)[:1]:
                    subqueries.append(SubQuery(f"{allergen['name']} allergy", [allergen["name"]], None,
                                               f"{allergen['name']} allergy", weight=0.5))
        message = is_clinical_case(query)
        if message:  # a clinical message: its presenting complaint is searched too
            complaint = [m for m in self._unique(mentions) if m["slot"] == "symptom" and m not in focus]
            if complaint:
                words = [m["name"] for m in complaint[:3]]
                subqueries.append(SubQuery(" ".join(words), words, None, " ".join(words), weight=0.5))
        if not subqueries:
            return None
        return QueryPlan(query, subqueries[:MAX_SUBQUERIES], qtypes, focus_keys, message, len(sentences) >= 3)

    def _names(self, mention: Mapping) -> list[str]:
        names = [mention["name"], *mention.get("synonyms", [])]
        return [n for n in dict.fromkeys(names) if n and not _has_hangul(n)]

    @staticmethod
    def _unique(mentions: Sequence[Mapping]) -> list[Mapping]:
        seen, out = set(), []
        for mention in mentions:
            if mention["name"] not in seen:
                seen.add(mention["name"])
                out.append(mention)
        return out
