"""A patient memory that lives only in this process (never written anywhere).

Used when no encrypted store is unlocked (`chartside ask` without a patient, the GUI's
scratch conversation) so that the graph runs the same nodes either way. When the store
is open, `engine.agent.wiring.VaultMemory` takes its place.
"""

from __future__ import annotations

import hashlib
import json

from engine.clinical.slot_model import (MEASUREMENT_SLOTS, SLOT_LISTS, SUMMARY_DENIED_SLOTS, SUMMARY_SLOTS, empty_slots,
                                       only_asked_about)
from engine.memory.summary import LABELS, demographics_line, describe


def item_label(item: dict) -> str:
    name = item.get("name") or item.get("text") or item.get("type") or ""
    value = item.get("value")
    if item.get("systolic") is not None:
        value = f"{item.get('systolic')}/{item.get('diastolic')}"
    extra = " ".join(str(p) for p in (value, item.get("unit")) if p not in (None, ""))
    dose = " ".join(str(p) for p in (item.get("dose"), item.get("frequency")) if p)
    return " ".join(p for p in (str(name), extra, dose) if p).strip()


class EphemeralMemory:
    def __init__(self) -> None:
        self._profile = empty_slots()
        self._turns: list[dict] = []

    def profile(self) -> dict:
        return json.loads(json.dumps(self._profile))

    def fingerprint(self) -> str:
        return hashlib.sha256(json.dumps(self._profile, sort_keys=True, ensure_ascii=False).encode()).hexdigest()[:16]

    def profile_summary(self, language: str) -> str:
        labels = LABELS.get(language, LABELS["en"])
        lines = []
        demo = {k: v for k, v in self._profile["demographics"].items() if v not in (None, "", False)}
        for slot in SUMMARY_SLOTS:
            # What the rules could not tie to the patient is shown unconfirmed, as the encrypted store shows it.
            items = [self._label(i, slot, language) + (f" ({labels['unconfirmed']})" if i.get("uncertain") else "")
                     for i in self._profile[slot] if item_label(i) and not i.get("negated")]
            if items:
                lines.append(f"{labels[slot]}: {', '.join(items)}")
            patient = demographics_line(demo, language) if slot == "allergies" else ""
            if patient:
                lines.append(f"{labels['patient']}: {patient}")
        # What the patient denies, in its own line as the encrypted store's summary writes it.
        denied = [item_label(i) for slot in SUMMARY_DENIED_SLOTS for i in self._profile[slot]
                  if i.get("negated") and item_label(i)]
        if denied:
            lines.append(f"{labels['denies']}: {', '.join(denied)}")
        return "\n".join(lines)

    @staticmethod
    def _label(item: dict, slot: str, language: str) -> str:
        """A vital or a lab as the encrypted store's summary names it ("칼륨 6.0 mmol/L", not the medicine
        "potassium" that a Korean profile line would otherwise read as 염화칼륨); anything else by its name."""
        return describe(item, slot, language) if slot in MEASUREMENT_SLOTS else item_label(item)

    def update_profile(self, slots: dict, text: str) -> list[dict]:
        changes = []
        for key, value in (slots.get("demographics") or {}).items():
            if value not in (None, "") and self._profile["demographics"].get(key) != value:
                self._profile["demographics"][key] = value
                changes.append({"slot": "demographics", "field": key})
        for slot in SLOT_LISTS:
            for item in (i for i in slots.get(slot) or [] if not only_asked_about(i)):
                key = _identity(item)
                kept = [i for i in self._profile[slot] if _identity(i) != key]
                if len(kept) == len(self._profile[slot]):
                    changes.append({"slot": slot, "name": item.get("name")})
                self._profile[slot] = kept + [dict(item)]
        return changes

    def working_turns(self, count: int) -> list[dict]:
        return [dict(t) for t in self._turns[-count:]] if count > 0 else []

    def all_turns(self) -> list[dict]:
        return [dict(t) for t in self._turns]

    def long_term(self, query: str, budget_tokens: int, language: str) -> str:
        """Older turns (beyond the working window) as short lines, newest first; the caller trims."""
        older = self._turns[:-5]
        return "\n".join(f"- {t['user'][:200]}" for t in reversed(older))

    def add_turn(self, user: str, result: dict) -> None:
        self._turns.append({"user": user, "answer": result.get("answer", "")})


def _identity(item: dict) -> str:
    return str(item.get("concept_id") or item.get("type") or (item.get("name") or item.get("text") or "")).lower()
