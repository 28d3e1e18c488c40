"""ProfileStore: each patient's clinical facts, with provenance, status and temporal weight.

Interface:
- `ProfileStore(vault)`; `update(patient_id, slots, turn_id=None, observed_at=None)` takes
  the slot JSON of `chartside extract --json` and returns the list of changes
  (`{"action", "slot", "fact_id", "name", "status", ...}`).
- `profile(patient_id)` returns the same slot JSON shape; every list item also carries
  `fact_id`, `status`, `status_reason`, `weight` and `provenance` (turns, times, source
  span, confidence, mentions); `demographics_provenance` sits beside `demographics`.
- `summary(patient_id, language="en"|"ko")` renders a compact profile, allergies first.
- `fingerprint(patient_id)` is a stable hash of the active (and pending) profile for the
  response cache; timestamps and mention counts do not change it.
- `alert_items(patient_id)`: allergies/contraindications (pending included) and current
  medications for the conflict checks.
- `confirm`, `reject`, `retract`, `edit` on one fact; `pending(patient_id)`.
Every change is written to the audit log (ids and slot names only).

Policies (seed): demographics overwrite; conditions accumulate and a contradiction is kept
as a pending fact beside the one it contradicts; medications are time-based (a new dose
replaces the old, a stopped drug is retracted); vitals and labs keep their time series,
newest first (only the latest reading restated within 6 h and the tolerance merges);
symptoms decay and a newer opposite statement replaces the older; new allergies and
contraindications wait for confirmation (status "pending-confirmation") but are already
returned by `alert_items`, and so does any item marked `uncertain` (the rules could not tell
whether the message states it about this patient). Items marked `asked_about` (the topic of a question, "what is
low blood sugar?", see engine.clinical.assertion) are not facts about the patient and are
not stored. De-duplication: concept id, then fuzzy name, then numeric
tolerance (see `engine.memory.policies`).
Weights are exp(-λ·hours since the last mention) with λ from `settings.memory.decay_per_hour`.
"""

from __future__ import annotations

import hashlib
from datetime import datetime, timedelta
from typing import Any, Iterable

from engine.errors import InputError, VaultError
from engine.memory import jsoncols
from engine.clinical import slot_model
from engine.memory.policies import fuzzy_limit, lab_is_abnormal, same_concept, same_reading, temporal_weight
from engine.memory.store import Vault, fetch_rows, insert_row, update_row

ACTIVE = "active"
PENDING = "pending-confirmation"
RETRACTED = "retracted"
LIVE = (ACTIVE, PENDING)

# The profile stores the extracted slots plus contraindications (which no message extracts:
# they come from the clinician's edits and the conflict rules).
CONCEPT_SLOTS = (*slot_model.CONCEPT_SLOTS, "contraindications")
MEASUREMENT_SLOTS = slot_model.MEASUREMENT_SLOTS
DEMOGRAPHIC_FIELDS = slot_model.DEMOGRAPHIC_FIELDS
LIST_SLOTS = CONCEPT_SLOTS + MEASUREMENT_SLOTS
CONFIRMABLE_SLOTS = ("allergies", "contraindications")
# A reading within tolerance of the latest one and this close in time is the same
# measurement restated; further apart it is a new point of the series (the seed's
# example keeps 145/92 and 150/95 taken 36 h apart as two readings).
RESTATEMENT_WINDOW = timedelta(hours=6)
EDITABLE_FIELDS = {
    "name", "concept_id", "negated", "dose", "frequency", "value", "unit", "systolic", "diastolic", "type",
}


class ProfileStore:
    def __init__(self, vault: Vault):
        self.vault = vault
        self.decay = dict(vault.settings.memory.decay_per_hour)
        self.decay.setdefault("contraindications", self.decay.get("allergies", 0.0))

    # ------------------------------------------------------------------ update
    def update(
        self, patient_id: int, slots: dict, turn_id: int | None = None, observed_at: datetime | None = None
    ) -> list[dict]:
        """Apply one turn's slot JSON; returns what changed (empty when nothing did)."""
        if not isinstance(slots, dict):
            raise InputError("slots must be a JSON object")
        when = jsoncols.to_text(observed_at or self.vault.clock())
        changes: list[dict] = []
        with self.vault.transaction() as db:
            self.vault.get_patient(patient_id)
            live = self._live_facts(patient_id)
            writer = _FactWriter(db, patient_id, turn_id, when, live, changes)
            writer.demographics(slots.get("demographics") or {})
            for slot in LIST_SLOTS:
                for raw in slots.get(slot) or []:
                    item = _clean_item(slot, raw)
                    if item is not None:
                        writer.item(slot, item)
            if changes:
                update_row(db, "patients", patient_id, {"updated_at": when})
                self.vault.audit(
                    "profile.update",
                    patient_id,
                    {
                        "turn_id": turn_id,
                        "changes": [{k: c[k] for k in ("action", "slot", "fact_id")} for c in changes],
                    },
                )
        return changes

    # ------------------------------------------------------------------- reads
    def facts(self, patient_id: int, slot: str | None = None, statuses: Iterable[str] = LIVE) -> list[dict]:
        """Decoded fact rows (item JSON parsed), oldest first."""
        statuses = tuple(statuses)
        where = f"patient_id = ? and status in ({', '.join('?' for _ in statuses)})"
        args: list[Any] = [patient_id, *statuses]
        if slot is not None:
            where += " and slot = ?"
            args.append(slot)
        rows = fetch_rows(self.vault.db, f"select * from profile_facts where {where} order by id", args)
        return [_decode(row) for row in rows]

    def fact(self, fact_id: int) -> dict:
        rows = fetch_rows(self.vault.db, "select * from profile_facts where id = ?", [fact_id])
        if not rows:
            raise VaultError(f"no profile fact {fact_id}")
        return _decode(rows[0])

    def mentions(self, fact_id: int) -> list[dict]:
        return list(self.vault.db["fact_mentions"].rows_where("fact_id = ?", [fact_id], order_by="id"))

    def profile(self, patient_id: int, now: datetime | None = None, include_retracted: bool = False) -> dict:
        now = now or self.vault.clock()
        statuses = (*LIVE, RETRACTED) if include_retracted else LIVE
        out: dict[str, Any] = {"demographics": {f: None for f in DEMOGRAPHIC_FIELDS}, "demographics_provenance": {}}
        for slot in LIST_SLOTS:
            out[slot] = []
        for fact in self.facts(patient_id, statuses=statuses):
            if fact["slot"] == "demographics":
                if fact["status"] == ACTIVE:
                    out["demographics"][fact["name"]] = fact["item"].get("value")
                    out["demographics_provenance"][fact["name"]] = _provenance(fact)
                continue
            out[fact["slot"]].append(self._entry(fact, now))
        for slot in LIST_SLOTS:
            if slot in MEASUREMENT_SLOTS:
                out[slot].sort(key=lambda e: e["provenance"]["observed_at"], reverse=True)
            else:
                out[slot].sort(key=lambda e: (e["weight"], e["provenance"]["observed_at"]), reverse=True)
        return out

    def pending(self, patient_id: int) -> list[dict]:
        return self.facts(patient_id, statuses=(PENDING,))

    def alert_items(self, patient_id: int) -> dict[str, list[dict]]:
        """What the allergy/interaction checks must see: unconfirmed allergies included."""
        result: dict[str, list[dict]] = {"allergies": [], "contraindications": [], "medications": []}
        for fact in self.facts(patient_id):
            if fact["slot"] in result and not fact["negated"] and not fact["conflicts_with"]:
                result[fact["slot"]].append({**fact["item"], "fact_id": fact["id"], "status": fact["status"]})
        return result

    def fingerprint(self, patient_id: int) -> str:
        """sha256 over the live profile's content (no timestamps, weights or counts)."""
        canonical = []
        for fact in self.facts(patient_id):
            values = {k: v for k, v in sorted(fact["item"].items()) if k not in {"text", "confidence"}}
            canonical.append(
                [fact["slot"], fact["name"].casefold(), fact["concept_id"], fact["negated"], fact["status"], values]
            )
        canonical.sort(key=jsoncols.dumps)
        return hashlib.sha256(jsoncols.dumps(canonical).encode("utf-8")).hexdigest()

    def summary(self, patient_id: int, language: str = "en", now: datetime | None = None) -> str:
        from engine.memory.summary import render_summary

        return render_summary(self.profile(patient_id, now=now), language)

    # --------------------------------------------------------- user decisions
    def confirm(self, fact_id: int) -> None:
        """Accept a pending fact; a confirmed contradiction retracts what it contradicts."""
        with self.vault.transaction():
            fact = self._require_status(fact_id, PENDING)
            self._set_status(fact_id, ACTIVE, "confirmed")
            if fact["conflicts_with"]:
                self._set_status(fact["conflicts_with"], RETRACTED, "contradicted")
            self.vault.audit(
                "profile.confirm", fact["patient_id"], {"fact_id": fact_id, "retracted": fact["conflicts_with"]}
            )

    def reject(self, fact_id: int) -> None:
        with self.vault.transaction():
            fact = self._require_status(fact_id, PENDING)
            self._set_status(fact_id, RETRACTED, "rejected")
            self.vault.audit("profile.reject", fact["patient_id"], {"fact_id": fact_id})

    def retract(self, fact_id: int, reason: str = "retracted by user") -> None:
        with self.vault.transaction():
            fact = self.fact(fact_id)
            if fact["status"] == RETRACTED:
                return
            self._set_status(fact_id, RETRACTED, reason)
            self.vault.audit("profile.retract", fact["patient_id"], {"fact_id": fact_id})

    def edit(self, fact_id: int, changes: dict) -> dict:
        """Correct fields of one fact (e.g. a dose); returns the updated fact."""
        unknown = set(changes) - EDITABLE_FIELDS
        if unknown:
            raise InputError(f"cannot edit {sorted(unknown)}")
        with self.vault.transaction() as db:
            fact = self.fact(fact_id)
            if fact["slot"] == "demographics":
                raise InputError("edit demographics through update()")
            item = {**fact["item"], **changes}
            update_row(
                db,
                "profile_facts",
                fact_id,
                {
                    "item": jsoncols.dumps(item),
                    "name": item.get("name") or fact["name"],
                    "concept_id": item.get("concept_id"),
                    "negated": int(bool(item.get("negated"))),
                    "updated_at": self.vault.now_text(),
                },
            )
            self.vault.audit("profile.edit", fact["patient_id"], {"fact_id": fact_id, "fields": sorted(changes)})
        return self.fact(fact_id)

    # ---------------------------------------------------------------- helpers
    def _live_facts(self, patient_id: int) -> dict[str, list[dict]]:
        live: dict[str, list[dict]] = {}
        for fact in self.facts(patient_id):
            live.setdefault(fact["slot"], []).append(fact)
        return live

    def _require_status(self, fact_id: int, status: str) -> dict:
        fact = self.fact(fact_id)
        if fact["status"] != status:
            raise InputError(f"fact {fact_id} is {fact['status']}, not {status}")
        return fact

    def _set_status(self, fact_id: int, status: str, reason: str) -> None:
        values = {"status": status, "status_reason": reason, "updated_at": self.vault.now_text()}
        update_row(self.vault.db, "profile_facts", fact_id, values)

    def _entry(self, fact: dict, now: datetime) -> dict:
        observed = jsoncols.from_text(fact["observed_at"])
        weight = temporal_weight(observed, now, self.decay.get(fact["slot"], 0.0))
        return {
            **fact["item"],
            "name": fact["name"],
            "concept_id": fact["concept_id"],
            "negated": bool(fact["negated"]),
            "fact_id": fact["id"],
            "status": fact["status"],
            "status_reason": fact["status_reason"],
            "conflicts_with": fact["conflicts_with"],
            "weight": weight,
            "abnormal": lab_is_abnormal(fact["item"]) if fact["slot"] == "labs" else None,
            "provenance": _provenance(fact),
        }


class _FactWriter:
    """Applies the per-slot policies for one `update` call inside its transaction."""

    def __init__(self, db, patient_id: int, turn_id: int | None, when: str, live: dict, changes: list):
        self.db, self.patient_id, self.turn_id, self.when = db, patient_id, turn_id, when
        self.live, self.changes = live, changes

    # demographics: overwrite field by field; null means "not mentioned", not "unknown"
    def demographics(self, demo: dict) -> None:
        for field in DEMOGRAPHIC_FIELDS:
            value = demo.get(field)
            if value is None:
                continue
            current = next((f for f in self.live.get("demographics", []) if f["name"] == field), None)
            if current is not None and current["item"].get("value") == value:
                self._merge(current, {})
                continue
            new_id = self._insert("demographics", {"name": field, "value": value}, ACTIVE)
            if current is not None:
                self._retract(current, "superseded")
                self._record("overwritten", "demographics", new_id, field, ACTIVE, previous_fact_id=current["id"])
            else:
                self._record("added", "demographics", new_id, field, ACTIVE)

    def item(self, slot: str, item: dict) -> None:
        if item.get("uncertain") and slot not in MEASUREMENT_SLOTS and not item["negated"]:
            self._unconfirmed(slot, item)
        elif slot in MEASUREMENT_SLOTS:
            self._measurement(slot, item)
        elif slot == "medications":
            self._medication(item)
        elif slot == "symptoms":
            self._symptom(item)
        else:
            self._accumulating(slot, item)

    # conditions, allergies, contraindications: accumulate; contradictions wait as pending
    def _accumulating(self, slot: str, item: dict) -> None:
        same, opposite = self._matches(slot, item)
        if same is not None:
            self._merge(same, item)
            return
        if opposite is not None:
            self._insert_conflict(slot, item, opposite)
            return
        confirmable = slot in CONFIRMABLE_SLOTS and not item["negated"]
        status = PENDING if confirmable else ACTIVE
        fact_id = self._insert(slot, item, status)
        self._record("pending" if confirmable else "added", slot, fact_id, item["name"], status)

    # a mention the rules could not tie to the patient: waits for confirmation (or adds a
    # mention to the fact it restates)
    def _unconfirmed(self, slot: str, item: dict) -> None:
        same, _opposite = self._matches(slot, item)
        if same is not None:
            self._merge(same, item)
            return
        fact_id = self._insert(slot, item, PENDING)
        self._record("pending", slot, fact_id, item["name"], PENDING)

    # symptoms: the newer statement wins (they change quickly and decay anyway)
    def _symptom(self, item: dict) -> None:
        same, opposite = self._matches("symptoms", item)
        if same is not None:
            self._merge(same, item)
            return
        fact_id = self._insert("symptoms", item, ACTIVE)
        if opposite is not None:
            self._retract(opposite, "resolved" if item["negated"] else "recurred")
            self._record("replaced", "symptoms", fact_id, item["name"], ACTIVE, previous_fact_id=opposite["id"])
        else:
            self._record("added", "symptoms", fact_id, item["name"], ACTIVE)

    # medications: time-based; a new dose replaces, a stopped drug is retracted
    def _medication(self, item: dict) -> None:
        same, opposite = self._matches("medications", item)
        if item["negated"]:
            if opposite is not None:
                self._retract(opposite, "stopped")
                self._record("stopped", "medications", opposite["id"], item["name"], RETRACTED)
            elif same is not None:
                self._merge(same, item)
            else:
                fact_id = self._insert("medications", item, ACTIVE)
                self._record("added", "medications", fact_id, item["name"], ACTIVE)
            return
        if same is not None and not _regimen_changed(same["item"], item):
            self._merge(same, item)
            return
        fact_id = self._insert("medications", item, ACTIVE)
        if opposite is not None:
            self._retract(opposite, "restarted")
        if same is not None:
            self._retract(same, "superseded")
            self._record("replaced", "medications", fact_id, item["name"], ACTIVE, previous_fact_id=same["id"])
        else:
            self._record("added", "medications", fact_id, item["name"], ACTIVE)

    # vitals and labs: a time series; only a restatement of the latest reading merges
    def _measurement(self, slot: str, item: dict) -> None:
        if item["negated"] or not item.get("type"):
            return
        series = [f for f in self.live.get(slot, []) if f["item"].get("type") == item["type"]]
        latest = max(series, key=lambda f: (f["observed_at"], f["id"]), default=None)
        if latest is not None and same_reading(latest["item"], item) and self._within_restatement_window(latest):
            self._merge(latest, item)
            return
        fact_id = self._insert(slot, item, ACTIVE)
        self._record("added", slot, fact_id, item["name"], ACTIVE)

    def _within_restatement_window(self, fact: dict) -> bool:
        gap = jsoncols.from_text(self.when) - jsoncols.from_text(fact["observed_at"])
        return abs(gap) <= RESTATEMENT_WINDOW

    def _matches(self, slot: str, item: dict) -> tuple[dict | None, dict | None]:
        """(live fact with the same concept and polarity, live fact contradicting it)."""
        same = opposite = None
        for fact in self.live.get(slot, []):
            if not same_concept({"name": fact["name"], "concept_id": fact["concept_id"]}, item, fuzzy_limit(slot)):
                continue
            if bool(fact["negated"]) == item["negated"]:
                same = same or fact
            elif not fact["conflicts_with"]:
                opposite = opposite or fact
        return same, opposite

    def _insert_conflict(self, slot: str, item: dict, contradicted: dict) -> None:
        fact_id = self._insert(slot, item, PENDING, conflicts_with=contradicted["id"])
        self._record("conflict", slot, fact_id, item["name"], PENDING, previous_fact_id=contradicted["id"])

    def _insert(self, slot: str, item: dict, status: str, conflicts_with: int | None = None) -> int:
        row = {
            "patient_id": self.patient_id,
            "slot": slot,
            "name": item["name"],
            "concept_id": item.get("concept_id"),
            "negated": int(bool(item.get("negated"))),
            "item": jsoncols.dumps(item),
            "status": status,
            "conflicts_with": conflicts_with,
            "confidence": float(item["confidence"]) if item.get("confidence") is not None else 1.0,
            "source_span": item.get("text"),
            "first_turn_id": self.turn_id,
            "last_turn_id": self.turn_id,
            "first_seen": self.when,
            "observed_at": self.when,
            "updated_at": self.when,
            "mentions": 1,
        }
        fact_id = insert_row(self.db, "profile_facts", row)
        insert_row(self.db, "fact_mentions", {"fact_id": fact_id, "turn_id": self.turn_id, "observed_at": self.when})
        fact = _decode({**row, "id": fact_id, "status_reason": None})
        self.live.setdefault(slot, []).append(fact)
        return fact_id

    def _merge(self, fact: dict, item: dict) -> None:
        """A restatement: refresh time and turn, count the mention, fill in new details."""
        merged = {**fact["item"], **{k: v for k, v in item.items() if v is not None and k != "name"}}
        update = {
            "item": jsoncols.dumps(merged),
            "concept_id": fact["concept_id"] or item.get("concept_id"),
            "confidence": max(float(fact["confidence"] or 0.0), float(item.get("confidence", 0.0) or 0.0)),
            "observed_at": max(fact["observed_at"], self.when),
            "last_turn_id": self.turn_id if self.turn_id is not None else fact["last_turn_id"],
            "updated_at": self.when,
            "mentions": int(fact["mentions"]) + 1,
        }
        update_row(self.db, "profile_facts", fact["id"], update)
        insert_row(self.db, "fact_mentions", {"fact_id": fact["id"], "turn_id": self.turn_id, "observed_at": self.when})
        fact.update(update)
        fact["item"] = merged
        self._record("merged", fact["slot"], fact["id"], fact["name"], fact["status"])

    def _retract(self, fact: dict, reason: str) -> None:
        values = {"status": RETRACTED, "status_reason": reason, "updated_at": self.when}
        update_row(self.db, "profile_facts", fact["id"], values)
        self.live[fact["slot"]] = [f for f in self.live.get(fact["slot"], []) if f["id"] != fact["id"]]

    def _record(self, action: str, slot: str, fact_id: int, name: str, status: str, **extra) -> None:
        change = {"action": action, "slot": slot, "fact_id": fact_id, "name": name, "status": status}
        self.changes.append({**change, **extra})


def _clean_item(slot: str, raw: Any) -> dict | None:
    """One slot item as stored: a copy with `name`, `negated` and, for medications, a
    stop statement (`status: stopped` or `stopped: true`) folded into `negated`; None for
    an item only asked about."""
    if isinstance(raw, str):
        raw = {"name": raw}
    if not isinstance(raw, dict) or slot_model.only_asked_about(raw):
        return None
    item = {k: v for k, v in raw.items() if v is not None}
    name = str(item.get("name") or item.get("type") or item.get("text") or "").strip()
    if not name:
        return None
    item["name"] = name
    stopped = str(item.pop("status", "")).casefold() in {"stopped", "discontinued"} or bool(item.pop("stopped", False))
    item["negated"] = bool(item.get("negated")) or (slot == "medications" and stopped)
    return item


def _regimen_changed(old: dict, new: dict) -> bool:
    for field in ("dose", "frequency"):
        if new.get(field) is not None and _norm(new.get(field)) != _norm(old.get(field)):
            return True
    return False


def _norm(value: Any) -> str:
    return " ".join(str(value or "").casefold().split())


def _decode(row: dict) -> dict:
    return {**row, "item": jsoncols.loads(row["item"], {}), "negated": bool(row.get("negated"))}


def _provenance(fact: dict) -> dict:
    return {
        "first_turn_id": fact["first_turn_id"],
        "last_turn_id": fact["last_turn_id"],
        "first_seen": fact["first_seen"],
        "observed_at": fact["observed_at"],
        "source_span": fact["source_span"],
        "confidence": fact["confidence"],
        "mentions": fact["mentions"],
    }
