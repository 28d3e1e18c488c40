"""`chartside bench extract`'s scorers: extraction and triage against the team's labelled sets (resources/clinical/eval/).

Extraction gold (JSONL, one utterance per line): `text` plus any of `demographics`
(the complete set of stated fields; `age_group` is scored only where given),
`conditions`, `symptoms`, `allergies` (names; a leading "!" marks a negated finding),
`medications` (`{"name", "dose"?, "frequency"?}`), `vitals`, `labs`
(`{"type", "value"}` or `{"type": "blood_pressure", "systolic", "diastolic"}`).
Gold names are resolved to concept ids through the pack, so a synonym in the gold
("high blood pressure") matches the concept the extractor reports ("hypertension").

`extraction.jsonl` is the team's set the lexicons were developed against;
`extraction_fresh.jsonl` was written afterwards as a check on generalisation (score it
with `chartside bench extract --set resources/clinical/eval/extraction_fresh.jsonl`).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass, field

from engine.clinical.pack import ClinicalPack
from engine.clinical.slot_model import CONCEPT_SLOTS, MEASUREMENT_SLOTS

DEMOGRAPHIC_FIELDS = ("age", "gender", "pregnant")


@dataclass
class Counts:
    tp: int = 0
    fp: int = 0
    fn: int = 0

    def add(self, gold: set, predicted: set) -> None:
        self.tp += len(gold & predicted)
        self.fp += len(predicted - gold)
        self.fn += len(gold - predicted)

    def report(self) -> dict:
        precision = self.tp / (self.tp + self.fp) if self.tp + self.fp else 1.0
        recall = self.tp / (self.tp + self.fn) if self.tp + self.fn else 1.0
        f1 = 2 * precision * recall / (precision + recall) if precision + recall else 0.0
        return {"precision": round(precision, 4), "recall": round(recall, 4), "f1": round(f1, 4),
                "tp": self.tp, "fp": self.fp, "fn": self.fn}


@dataclass
class ExtractionScore:
    per_slot: dict[str, Counts] = field(default_factory=lambda: defaultdict(Counts))
    errors: list[dict] = field(default_factory=list)

    def overall(self) -> dict:
        total = Counts()
        for counts in self.per_slot.values():
            total.tp, total.fp, total.fn = total.tp + counts.tp, total.fp + counts.fp, total.fn + counts.fn
        return total.report()


class NameResolver:
    """Gold name -> concept id through the pack's canonical names and synonyms."""

    def __init__(self, pack: ClinicalPack) -> None:
        self.index: dict[str, str] = {}
        for concept in pack.concepts.values():
            self.index.setdefault(concept.name.lower(), concept.concept_id)
        for concept in pack.concepts.values():
            for synonym in concept.synonyms:
                self.index.setdefault(synonym.lower(), concept.concept_id)

    def key(self, name: str) -> str:
        return self.index.get(name.lower(), name.lower())


def _gold_concepts(items: list, resolver: NameResolver) -> set[tuple]:
    keys = set()
    for item in items:
        name = item if isinstance(item, str) else item["name"]
        negated = name.startswith("!") or (isinstance(item, dict) and bool(item.get("negated")))
        keys.add((resolver.key(name.lstrip("!")), negated))
    return keys


def _predicted_concepts(items: list[dict]) -> set[tuple]:
    return {(item.get("concept_id") or item["name"].lower(), bool(item.get("negated"))) for item in items}


def _measure_key(item: dict) -> tuple:
    if item["type"] == "blood_pressure":
        return ("blood_pressure", float(item["systolic"]), float(item["diastolic"]))
    return (item["type"], round(float(item["value"]), 3))


def score_extraction(gold_rows: list[dict], predictions: list[dict], pack: ClinicalPack) -> ExtractionScore:
    resolver = NameResolver(pack)
    score = ExtractionScore()
    for gold, predicted in zip(gold_rows, predictions):
        before = {slot: (c.tp, c.fp, c.fn) for slot, c in score.per_slot.items()}
        for slot in CONCEPT_SLOTS:
            score.per_slot[slot].add(_gold_concepts(gold.get(slot, []), resolver), _predicted_concepts(predicted[slot]))
        _score_medication_details(score, gold, predicted, resolver)
        for slot in MEASUREMENT_SLOTS:
            score.per_slot[slot].add({_measure_key(i) for i in gold.get(slot, [])}, {_measure_key(i) for i in predicted[slot]})
        _score_demographics(score, gold.get("demographics", {}), predicted["demographics"])
        after = {slot: (c.tp, c.fp, c.fn) for slot, c in score.per_slot.items()}
        if any(after[slot][1:] != before.get(slot, (0, 0, 0))[1:] for slot in after):
            score.errors.append({"id": gold.get("id"), "text": gold["text"], "gold": {k: v for k, v in gold.items() if k not in {"id", "lang", "text"}},
                                 "predicted": _compact(predicted)})
    return score


def _score_medication_details(score: ExtractionScore, gold: dict, predicted: dict, resolver: NameResolver) -> None:
    predicted_by_key = {(item.get("concept_id") or item["name"].lower()): item for item in predicted["medications"]}
    for detail, slot in (("dose", "medication_dose"), ("frequency", "medication_frequency")):
        gold_set, predicted_set = set(), set()
        for item in gold.get("medications", []):
            if isinstance(item, dict) and item.get(detail):
                gold_set.add((resolver.key(item["name"]), item[detail]))
        for key, item in predicted_by_key.items():
            if item.get(detail):
                predicted_set.add((key, item[detail]))
        score.per_slot[slot].add(gold_set, predicted_set)


def _score_demographics(score: ExtractionScore, gold: dict, predicted: dict) -> None:
    counts = score.per_slot["demographics"]
    for name in DEMOGRAPHIC_FIELDS:
        expected, got = gold.get(name), predicted.get(name)
        if expected is None and got is None:
            continue
        counts.add({(name, expected)} if expected is not None else set(), {(name, got)} if got is not None else set())
    if "age_group" in gold:
        counts.add({("age_group", gold["age_group"])}, {("age_group", predicted.get("age_group"))})


def _compact(predicted: dict) -> dict:
    out: dict = {"demographics": {k: v for k, v in predicted["demographics"].items() if v is not None}}
    for slot in CONCEPT_SLOTS:
        out[slot] = [("!" if i.get("negated") else "") + i["name"] + (f" [{i.get('dose', '')}|{i.get('frequency', '')}]" if slot == "medications" and (i.get("dose") or i.get("frequency")) else "")
                     for i in predicted[slot]]
    for slot in MEASUREMENT_SLOTS:
        out[slot] = [_measure_key(i) for i in predicted[slot]]
    return {k: v for k, v in out.items() if v}


def score_triage(rows: list[dict], results: list[dict]) -> dict:
    red = [(row, result) for row, result in zip(rows, results) if row["emergency"]]
    ordinary = [(row, result) for row, result in zip(rows, results) if not row["emergency"]]
    caught = sum(result["emergency"] for _row, result in red)
    right_category = sum(result["category"] == row["category"] for row, result in red)
    false_alarms = sum(result["emergency"] for _row, result in ordinary)
    return {
        "messages": len(rows),
        "red_flags": len(red),
        "red_flag_recall": round(caught / len(red), 4) if red else 1.0,
        "category_accuracy": round(right_category / len(red), 4) if red else 1.0,
        "ordinary": len(ordinary),
        "false_alarm_rate": round(false_alarms / len(ordinary), 4) if ordinary else 0.0,
        "missed": [row["id"] for row, result in red if not result["emergency"]],
        "false_alarms": [row["id"] for row, result in ordinary if result["emergency"]],
        "wrong_category": [row["id"] for row, result in red if result["emergency"] and result["category"] != row["category"]],
    }
