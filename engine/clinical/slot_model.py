"""The slot model: what `extract` returns, what a profile stores and what a turn carries.

`chartside extract --json` prints it. Every list item carries `name` (English canonical
where known) and `text` (the span as written); concept items add `concept_id` and
`negated`; vitals and labs add `type`, `value` (or `systolic`/`diastolic`) and `unit`.
The item types are open (`total=False`): extractors add provenance such as `start`/`end`,
`asked_about`, dose and frequency.
"""

from __future__ import annotations

from typing import TypedDict

CONCEPT_SLOTS = ("conditions", "symptoms", "medications", "allergies")
MEASUREMENT_SLOTS = ("vitals", "labs")
TOPIC_SLOTS = ("conditions", "medications", "symptoms")
"""The concept slots a question's topic comes from, in the order it is named (an allergy is context, not topic)."""
NAMING_SLOTS = TOPIC_SLOTS + ("allergies",)
"""The concept slots in the order a question's concept names are read: its topic, then the allergies it names."""
SLOT_LISTS = CONCEPT_SLOTS + MEASUREMENT_SLOTS
SUMMARY_SLOTS = ("allergies", "conditions", "medications", "symptoms") + MEASUREMENT_SLOTS
"""The order a profile summary lists the slots in (the prompt's and the scratch conversation's):
allergies first, a safety fact the model must not miss, then the conditions, medications,
symptoms and measurements."""
SUMMARY_DENIED_SLOTS = ("allergies", "conditions", "symptoms", "medications")
"""The order of the summary's `Denies:` line (allergies first too, but symptoms before
medications: the order it has always had, kept so the prompt text does not change)."""
DEMOGRAPHIC_FIELDS = ("age", "age_group", "gender", "pregnant")


class Demographics(TypedDict):
    age: int | None
    age_group: str | None
    gender: str | None  # "male" | "female" | None
    pregnant: bool | None


class SlotItem(TypedDict, total=False):
    name: str
    text: str
    concept_id: str
    negated: bool
    type: str
    value: float
    systolic: float
    diastolic: float
    unit: str


class Slots(TypedDict):
    demographics: Demographics
    conditions: list[SlotItem]
    symptoms: list[SlotItem]
    medications: list[SlotItem]
    allergies: list[SlotItem]
    vitals: list[SlotItem]
    labs: list[SlotItem]


def only_asked_about(item: dict) -> bool:
    """An item that is only the topic of a question ("How can I prevent the flu?", see
    engine.clinical.assertion): no fact about the patient, so no profile keeps it."""
    return bool(item.get("asked_about"))


def empty_slots() -> Slots:
    """Slots with nothing found (a fresh dict each call)."""
    return {"demographics": {"age": None, "age_group": None, "gender": None, "pregnant": None},
            **{name: [] for name in SLOT_LISTS}}  # type: ignore[typeddict-item]
