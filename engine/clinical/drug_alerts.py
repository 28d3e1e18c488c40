"""Deterministic allergy, interaction and contraindication alerts from drug classes.

`conflicts(profile, slots)` compares the medicines, allergies and conditions of a stored
profile with those in a new message (both in the slot JSON shape). An alert is raised
when at least one side of the pair is new, so a newly reported pregnancy also checks the
medicines already on file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from engine.clinical.lexicon import korean_names, lexicon_dir, read_rows
from engine.clinical.measurements import measured_conditions
from engine.clinical.slot_model import CONCEPT_SLOTS
from engine.clinical.slots import GENERIC_MEDICATIONS
from engine.text import has_hangul

_DOSAGE_WORDS = re.compile(
    r"\s+(?:injection|oral|topical|tablets?|capsules?|extended-release|er|xr|sr|cr|inhalation|solution|suspension|\d.*)$",
    re.IGNORECASE | re.ASCII,
)


@dataclass(frozen=True)
class DrugClass:
    id: str
    label_en: str
    label_ko: str
    allergy_relevant: bool
    cross_reactive: tuple[str, ...]


@dataclass(frozen=True)
class Rule:
    a: str
    b: str
    message_en: str
    message_ko: str


@dataclass
class Knowledge:
    classes: dict[str, DrugClass] = field(default_factory=dict)
    drug_classes: dict[str, set[str]] = field(default_factory=dict)
    interactions: list[Rule] = field(default_factory=list)
    contraindications: list[tuple[str, set[str], str, str]] = field(default_factory=list)


@lru_cache(maxsize=2)
def load_knowledge(directory: Path | None = None) -> Knowledge:
    directory = directory or lexicon_dir()
    knowledge = Knowledge()
    for class_id, label_en, label_ko, relevant, cross in read_rows(directory / "classes.tsv", 5):
        knowledge.classes[class_id] = DrugClass(
            class_id, label_en, label_ko, relevant == "yes", tuple(c for c in cross.split("|") if c and c != "-"))
    for drug, classes in (row[:2] for row in read_rows(directory / "drug_classes.tsv", 2)):
        knowledge.drug_classes[drug.lower()] = {c for c in classes.split("|") if c and c != "-"}
    for a, b, en, ko in (row[:4] for row in read_rows(directory / "interactions.tsv", 4)):
        knowledge.interactions.append(Rule(a.lower(), b.lower(), en, ko))
    for drug, conditions, en, ko in (row[:4] for row in read_rows(directory / "contraindications.tsv", 4)):
        knowledge.contraindications.append((drug.lower(), {c.lower() for c in conditions.split("|")}, en, ko))
    return knowledge


@dataclass(frozen=True)
class _Entry:
    name: str
    display: str
    new: bool


def conflicts(profile: dict | None, slots: dict | None, language: str | None = None) -> list[dict]:
    """Alerts `{"kind", "drug", "because", "message", "messages", "severity"}` for the new message.

    `language` ("ko"/"en") picks the language of `message` and `because`; by default Korean
    when the new message's items were written in Korean. `messages` holds the message in
    both languages (`{"en": ..., "ko": ...}`), so a reader in the other language (the
    desktop app's UI language) gets it in theirs.
    """
    profile, slots = profile or {}, slots or {}
    language = language or ("ko" if _written_in_korean(slots) else "en")
    by_language = {code: _alerts(profile, slots, code) for code in LANGUAGES}
    alerts = by_language[language]
    for index, alert in enumerate(alerts):
        alert["messages"] = {code: found[index]["message"] for code, found in by_language.items()}
    return _unique(alerts)


LANGUAGES = ("en", "ko")


def _alerts(profile: dict, slots: dict, language: str) -> list[dict]:
    """Every alert in one language (the same alerts in the same order for each language)."""
    knowledge = load_knowledge()
    drugs = _entries(profile, slots, "medications")
    allergies = _entries(profile, slots, "allergies")
    conditions = _entries(profile, slots, "conditions") + _entries(profile, slots, "symptoms") + _states(profile, slots)
    alerts: list[dict] = []
    alerts += _allergy_alerts(knowledge, drugs, allergies, language)
    alerts += _interaction_alerts(knowledge, drugs, language)
    alerts += _contraindication_alerts(knowledge, drugs, conditions, language)
    return alerts


def _written_in_korean(slots: dict) -> bool:
    return any(has_hangul(str(item.get("text", ""))) for key in CONCEPT_SLOTS
               for item in slots.get(key, []) or [])


def _entries(profile: dict, slots: dict, key: str) -> list[_Entry]:
    entries = []
    for source, new in ((profile, False), (slots, True)):
        for item in source.get(key, []) or []:
            if isinstance(item, str):
                item = {"name": item}
            if item.get("negated") or not item.get("name"):
                continue
            entries.append(_Entry(_normalise(item["name"]), item["name"], new))
    return entries


def _states(profile: dict, slots: dict) -> list[_Entry]:
    """Conditions implied by demographics and measurements: pregnancy, breastfeeding,
    childhood, and what a measured value names (`measured_conditions`: a blood pressure of 140/90 or
    more, an eGFR under 60, a high INR, hyperkalemia, high blood sugar)."""
    entries = []
    for source, new in ((profile, False), (slots, True)):
        entries += [_Entry(condition, measured, new) for condition, measured in measured_conditions(source)]
        demographics = source.get("demographics") or {}
        if demographics.get("pregnant") is True:
            entries.append(_Entry("pregnancy", "pregnancy", new))
        if demographics.get("breastfeeding") is True:
            entries.append(_Entry("breastfeeding", "breastfeeding", new))
        age, group = demographics.get("age"), demographics.get("age_group")
        if (isinstance(age, int) and age < 18) or group in {"infant", "child", "adolescent"}:
            entries.append(_Entry("child", "child", new))
        if (isinstance(age, int) and age < 2) or group == "infant":
            entries.append(_Entry("infant", "infant", new))
    return entries


def _normalise(name: str) -> str:
    lowered = name.strip().lower()
    return _DOSAGE_WORDS.sub("", lowered).strip() or lowered


def classes_of(knowledge: Knowledge, name: str) -> set[str]:
    if name in knowledge.drug_classes:
        return knowledge.drug_classes[name]
    stripped = _normalise(name)
    if stripped in knowledge.drug_classes:
        return knowledge.drug_classes[stripped]
    first = stripped.split(" ")[0]
    return knowledge.drug_classes.get(first, set())


def class_names(medicine: str) -> list[str]:
    """The English names of the medicine's drug classes: the class, its label and the class words
    that stand for it ("steroids" for prednisone's corticosteroids)."""
    knowledge = load_knowledge()
    classes = classes_of(knowledge, medicine.lower())
    words = [d for d, of in knowledge.drug_classes.items() if d in GENERIC_MEDICATIONS and of and of <= classes]
    labels = [knowledge.classes[c].label_en.split(" (")[0] for c in classes if c in knowledge.classes]
    return list(dict.fromkeys([*(c.replace("_", " ") for c in classes), *labels, *words]))


def _label(knowledge: Knowledge, class_id: str, language: str) -> str:
    drug_class = knowledge.classes.get(class_id)
    if drug_class is None:
        return class_id
    return drug_class.label_ko if language == "ko" else drug_class.label_en


def _allergy_alerts(knowledge: Knowledge, drugs: list[_Entry], allergies: list[_Entry], language: str) -> list[dict]:
    alerts = []
    for drug in drugs:
        drug_classes = classes_of(knowledge, drug.name)
        for allergy in allergies:
            if not (drug.new or allergy.new):
                continue
            allergy_classes = classes_of(knowledge, allergy.name)
            shared = sorted(c for c in drug_classes & allergy_classes if knowledge.classes.get(c, None) and knowledge.classes[c].allergy_relevant)
            cross = sorted(c for a in allergy_classes if a in knowledge.classes for c in knowledge.classes[a].cross_reactive if c in drug_classes)
            if drug.name == allergy.name:
                message = (f"{korean_display(drug.display)}: 이 약에 알레르기가 있다고 하셨습니다. 복용하지 마시고 의사·약사와 상의하세요."
                           if language == "ko" else
                           f"{drug.display}: you reported an allergy to this medicine. Do not take it; ask your doctor or pharmacist.")
                alerts.append(_alert("allergy_conflict", drug, allergy.display, message, "high"))
            elif shared or cross:
                alerts.append(_class_allergy_alert(knowledge, drug, allergy, shared, cross, language))
    return alerts


# For an allergy to a class the medicine belongs to ("shared") or rarely cross-reacts with
# ("cross"): the message in Korean and English, what the alert names as its cause, severity.
_CLASS_ALLERGY_ALERTS = {
    "shared": ("{drug}은(는) {label}입니다. {allergy} 알레르기가 있으면 같은 계열 약에도 반응할 수 있으니 복용 전 반드시 의사·약사와 상의하세요.",
               "{drug} belongs to the {label}; with an allergy to {allergy} it can cause the same reaction. Check with your doctor or pharmacist before taking it.",
               "{allergy} ({label})", "high"),
    "cross": ("{drug}({label})는 {allergy} 알레르기와 교차반응이 드물게 있을 수 있습니다. 의사·약사에게 알레르기 사실을 꼭 알리세요.",
              "{drug} ({label}) can rarely cross-react with an allergy to {allergy}. Tell your doctor or pharmacist about the allergy.",
              "{allergy} (cross-reactivity)", "caution"),
}


def _class_allergy_alert(knowledge: Knowledge, drug: _Entry, allergy: _Entry, shared: list[str], cross: list[str],
                         language: str) -> dict:
    """The alert for a shared allergy-relevant class, or else for a cross-reactive one."""
    kind, class_id = ("shared", shared[0]) if shared else ("cross", cross[0])
    message_ko, message_en, because, severity = _CLASS_ALLERGY_ALERTS[kind]
    names = {"drug": drug.display, "allergy": allergy.display, "label": _label(knowledge, class_id, language)}
    if language == "ko":
        message = message_ko.format(**{**names, "drug": korean_display(drug.display),
                                       "allergy": korean_display(allergy.display)})
    else:
        message = message_en.format(**names)
    return _alert("allergy_conflict", drug, because.format(**names), message, severity)


def korean_display(name: str) -> str:
    """A medicine or allergen as a Korean message names it: its Korean name with the English
    one beside it ("아목시실린(amoxicillin)"), or the English name when the lexicon has none."""
    korean = korean_names().get(name.lower())
    return f"{korean}({name})" if korean else name


def _matches(knowledge: Knowledge, side: str, name: str, classes: set[str]) -> bool:
    return side[1:] in classes if side.startswith("@") else side == name


def _interaction_alerts(knowledge: Knowledge, drugs: list[_Entry], language: str) -> list[dict]:
    alerts = []
    for i, first in enumerate(drugs):
        for second in drugs[i + 1:]:
            if first.name == second.name or not (first.new or second.new):
                continue
            first_classes, second_classes = classes_of(knowledge, first.name), classes_of(knowledge, second.name)
            for rule in knowledge.interactions:
                forward = _matches(knowledge, rule.a, first.name, first_classes) and _matches(knowledge, rule.b, second.name, second_classes)
                backward = _matches(knowledge, rule.a, second.name, second_classes) and _matches(knowledge, rule.b, first.name, first_classes)
                if forward or backward:
                    drug, other = (first, second) if first.new else (second, first)
                    message = rule.message_ko if language == "ko" else rule.message_en
                    alerts.append(_alert("interaction", drug, other.display, message, "high"))
                    break
    return alerts


def _contraindication_alerts(knowledge: Knowledge, drugs: list[_Entry], conditions: list[_Entry], language: str) -> list[dict]:
    alerts = []
    for drug in drugs:
        drug_classes = classes_of(knowledge, drug.name)
        for side, condition_names, message_en, message_ko in knowledge.contraindications:
            if not _matches(knowledge, side, drug.name, drug_classes):
                continue
            for condition in conditions:
                if condition.name in condition_names and (drug.new or condition.new):
                    because = _condition_label(condition.display, language)
                    alerts.append(_alert("contraindication", drug, because, message_ko if language == "ko" else message_en, "high"))
                    break
    return alerts


_STATE_LABELS_KO = {"pregnancy": "임신", "breastfeeding": "수유 중", "child": "소아·청소년", "infant": "영유아"}


def _condition_label(name: str, language: str) -> str:
    if language != "ko":
        return name
    if name.startswith("blood pressure "):
        return "혈압 " + name.removeprefix("blood pressure ")
    return _STATE_LABELS_KO.get(name, name)


def _alert(kind: str, drug: _Entry, because: str, message: str, severity: str) -> dict:
    return {"kind": kind, "drug": drug.display, "because": because, "message": message, "severity": severity}


def _unique(alerts: list[dict]) -> list[dict]:
    seen, unique = set(), []
    for alert in alerts:
        key = (alert["kind"], alert["drug"].lower(), alert["because"].lower())
        if key not in seen:
            seen.add(key)
            unique.append(alert)
    return unique
