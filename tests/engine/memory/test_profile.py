"""ProfileStore policies against a real vault: overwrite, accumulate, time-based, series,
decay, pending allergies, contradictions, summary, fingerprint, audit."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from engine.errors import InputError
from engine.memory.profile import ACTIVE, PENDING, RETRACTED, ProfileStore

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=timezone.utc)


def hours_ago(hours: float) -> datetime:
    return NOW - timedelta(hours=hours)


def bp(systolic: int, diastolic: int) -> dict:
    return {"vitals": [{"type": "blood_pressure", "systolic": systolic, "diastolic": diastolic, "unit": "mmHg",
                        "name": "blood pressure", "text": f"{systolic}/{diastolic}"}]}


@pytest.fixture
def store(vault):
    return ProfileStore(vault)


def actions(changes):
    return [(c["slot"], c["action"]) for c in changes]


def test_blood_pressure_series_newest_first_with_seed_weights(store, patient):
    store.update(patient, bp(145, 92), observed_at=hours_ago(48))
    store.update(patient, bp(150, 95), observed_at=hours_ago(12))
    store.update(patient, bp(140, 90), observed_at=hours_ago(1))
    vitals = store.profile(patient, now=NOW)["vitals"]
    assert [(v["systolic"], v["diastolic"]) for v in vitals] == [(140, 90), (150, 95), (145, 92)]
    assert [round(v["weight"], 2) for v in vitals] == [0.90, 0.30, 0.01]
    assert vitals[0]["provenance"]["source_span"] == "140/90"


def test_restated_latest_reading_within_5_mmhg_merges(store, patient):
    store.update(patient, bp(140, 90), observed_at=hours_ago(2))
    changes = store.update(patient, bp(143, 88), observed_at=hours_ago(1))
    assert actions(changes) == [("vitals", "merged")]
    [reading] = store.profile(patient, now=NOW)["vitals"]
    assert (reading["systolic"], reading["diastolic"], reading["provenance"]["mentions"]) == (143, 88, 2)
    assert round(reading["weight"], 2) == 0.90
    assert actions(store.update(patient, bp(150, 90), observed_at=NOW)) == [("vitals", "added")]


def test_an_older_reading_is_a_series_point_not_a_duplicate(store, patient):
    store.update(patient, bp(140, 90), observed_at=hours_ago(30))
    store.update(patient, bp(160, 100), observed_at=hours_ago(20))
    assert actions(store.update(patient, bp(141, 91), observed_at=hours_ago(10))) == [("vitals", "added")]
    assert len(store.profile(patient, now=NOW)["vitals"]) == 3


def test_demographics_overwrite(store, patient):
    store.update(patient, {"demographics": {"age": 64, "gender": "male", "age_group": None, "pregnant": None}})
    changes = store.update(patient, {"demographics": {"age": 65, "gender": None}})
    assert [(c["action"], c["name"]) for c in changes] == [("overwritten", "age")]
    profile = store.profile(patient)
    assert profile["demographics"] == {"age": 65, "age_group": None, "gender": "male", "pregnant": None}
    history = store.facts(patient, slot="demographics", statuses=(RETRACTED,))
    assert [(f["item"]["value"], f["status_reason"]) for f in history] == [(64, "superseded")]


def test_conditions_accumulate_and_deduplicate(store, patient, session, vault):
    t1 = vault.add_turn(session, "I have type 2 diabetes", "ok")
    t2 = vault.add_turn(session, "diabetes again", "ok")
    store.update(patient, {"conditions": [{"name": "type 2 diabetes", "concept_id": "C0011860", "text": "type 2 diabetes"}]}, t1)
    store.update(patient, {"conditions": [{"name": "Type 2 diabetes mellitus", "concept_id": "C0011860"}]}, t2)
    store.update(patient, {"conditions": [{"name": "hypertensoin"}]})
    store.update(patient, {"conditions": [{"name": "hypertension"}]})  # fuzzy, distance 1
    store.update(patient, {"conditions": [{"name": "type 1 diabetes", "concept_id": "C0011854"}]})
    conditions = store.profile(patient)["conditions"]
    assert sorted(c["name"] for c in conditions) == ["hypertensoin", "type 1 diabetes", "type 2 diabetes"]
    diabetes = next(c for c in conditions if c["name"] == "type 2 diabetes")
    assert diabetes["provenance"]["mentions"] == 2
    assert (diabetes["provenance"]["first_turn_id"], diabetes["provenance"]["last_turn_id"]) == (t1, t2)
    assert [m["turn_id"] for m in store.mentions(diabetes["fact_id"])] == [t1, t2]


def test_condition_contradiction_is_kept_pending_until_confirmed(store, patient):
    [added] = store.update(patient, {"conditions": [{"name": "asthma", "concept_id": "C0004096"}]})
    [conflict] = store.update(patient, {"conditions": [{"name": "asthma", "concept_id": "C0004096", "negated": True}]})
    assert (conflict["action"], conflict["status"], conflict["previous_fact_id"]) == ("conflict", PENDING, added["fact_id"])
    assert store.fact(added["fact_id"])["status"] == ACTIVE
    store.confirm(conflict["fact_id"])
    assert store.fact(added["fact_id"])["status"] == RETRACTED
    assert store.fact(added["fact_id"])["status_reason"] == "contradicted"
    assert store.fact(conflict["fact_id"])["status"] == ACTIVE


def test_rejecting_a_contradiction_keeps_the_original(store, patient):
    [added] = store.update(patient, {"conditions": [{"name": "gout"}]})
    [conflict] = store.update(patient, {"conditions": [{"name": "gout", "negated": True}]})
    store.reject(conflict["fact_id"])
    assert store.fact(conflict["fact_id"])["status"] == RETRACTED
    assert store.fact(added["fact_id"])["status"] == ACTIVE
    with pytest.raises(InputError):
        store.confirm(conflict["fact_id"])


def test_medication_new_dose_replaces_old_and_stop_retracts(store, patient):
    store.update(patient, {"medications": [{"name": "metformin", "dose": "500 mg", "frequency": "twice daily"}]})
    assert actions(store.update(patient, {"medications": [{"name": "Metformin", "dose": "500 mg"}]})) == [("medications", "merged")]
    [replaced] = store.update(patient, {"medications": [{"name": "metformin", "dose": "1000 mg", "frequency": "twice daily"}]})
    assert replaced["action"] == "replaced"
    assert store.fact(replaced["previous_fact_id"])["status_reason"] == "superseded"
    [current] = store.profile(patient)["medications"]
    assert current["dose"] == "1000 mg"
    [stopped] = store.update(patient, {"medications": [{"name": "metfromin", "status": "stopped"}]})
    assert (stopped["action"], stopped["fact_id"]) == ("stopped", replaced["fact_id"])
    assert store.profile(patient)["medications"] == []


def test_look_alike_drugs_are_not_merged(store, patient):
    store.update(patient, {"medications": [{"name": "amoxicillin"}]})
    store.update(patient, {"medications": [{"name": "ampicillin"}]})
    assert sorted(m["name"] for m in store.profile(patient)["medications"]) == ["amoxicillin", "ampicillin"]


def test_symptoms_decay_and_newer_statement_wins(store, patient):
    store.update(patient, {"symptoms": [{"name": "headache"}]}, observed_at=hours_ago(200))
    store.update(patient, {"symptoms": [{"name": "fever"}]}, observed_at=hours_ago(2))
    profile = store.profile(patient, now=NOW)
    assert [s["name"] for s in profile["symptoms"]] == ["fever", "headache"]
    assert round(profile["symptoms"][1]["weight"], 3) == round(2.718281828 ** (-0.02 * 200), 3)
    summary = store.summary(patient, now=NOW)
    assert "fever" in summary and "headache" not in summary  # decayed below 0.1
    [resolved] = store.update(patient, {"symptoms": [{"name": "fever", "negated": True}]}, observed_at=NOW)
    assert resolved["action"] == "replaced"
    assert store.fact(resolved["previous_fact_id"])["status_reason"] == "resolved"
    assert "Denies: fever" in store.summary(patient, now=NOW)


def test_new_allergy_is_pending_but_already_alerts(store, patient):
    [change] = store.update(patient, {"allergies": [{"name": "penicillin", "concept_id": "C0030842", "text": "페니실린"}]})
    assert (change["action"], change["status"]) == ("pending", PENDING)
    alerts = store.alert_items(patient)
    assert [(a["name"], a["status"]) for a in alerts["allergies"]] == [("penicillin", PENDING)]
    assert [p["id"] for p in store.pending(patient)] == [change["fact_id"]]
    store.confirm(change["fact_id"])
    assert store.alert_items(patient)["allergies"][0]["status"] == ACTIVE
    [entry] = store.profile(patient, now=NOW + timedelta(days=3650))["allergies"]
    assert entry["weight"] == 1.0


def test_contraindications_wait_for_confirmation_too(store, patient):
    [change] = store.update(patient, {"contraindications": [{"name": "NSAIDs"}]})
    assert change["status"] == PENDING
    assert store.alert_items(patient)["contraindications"][0]["name"] == "NSAIDs"


def test_summary_puts_allergies_first_in_both_languages(store, patient):
    store.update(
        patient,
        {
            "demographics": {"age": 65, "gender": "male"},
            "conditions": [{"name": "type 2 diabetes", "text": "당뇨"}],
            "medications": [{"name": "metformin", "dose": "500 mg", "frequency": "twice daily"}],
            "allergies": [{"name": "penicillin", "text": "페니실린"}],
            "labs": [{"type": "hba1c", "value": 8.1, "unit": "%", "name": "HbA1c"}],
            "vitals": [{"type": "blood_pressure", "systolic": 140, "diastolic": 90, "unit": "mmHg"}],
        },
    )
    english = store.summary(patient, "en").splitlines()
    assert english[0] == "Allergies: penicillin (unconfirmed)"
    assert english[1:] == [
        "Patient: 65-year-old male",
        "Conditions: type 2 diabetes",
        "Medications: metformin 500 mg twice daily",
        "Vitals: BP 140/90 mmHg",
        "Labs: HbA1c 8.1 % (abnormal)",
    ]
    korean = store.summary(patient, "ko").splitlines()
    assert korean[0] == "알레르기: 페니실린 (penicillin) (미확인)"
    assert "환자: 65세 남성" in korean and "질환: 당뇨 (type 2 diabetes)" in korean
    assert "검사: 당화혈색소(HbA1c) 8.1 % (이상)" in korean


def test_summary_without_allergies_still_starts_with_them(store, patient):
    assert store.summary(patient) == "Allergies: none recorded"
    assert store.summary(patient, "ko") == "알레르기: 기록 없음"


def test_fingerprint_is_stable_under_restatement_and_changes_with_content(store, patient):
    empty = store.fingerprint(patient)
    store.update(patient, {"conditions": [{"name": "asthma"}]}, observed_at=hours_ago(5))
    first = store.fingerprint(patient)
    store.update(patient, {"conditions": [{"name": "Asthma"}]}, observed_at=hours_ago(1))
    assert store.fingerprint(patient) == first != empty
    store.update(patient, {"allergies": [{"name": "sulfa"}]})
    assert store.fingerprint(patient) != first


def test_edit_and_retract_are_audited_without_patient_text(store, patient, vault):
    [added] = store.update(patient, {"medications": [{"name": "lisinopril", "dose": "10 mg"}]})
    edited = store.edit(added["fact_id"], {"dose": "20 mg"})
    assert edited["item"]["dose"] == "20 mg"
    with pytest.raises(InputError):
        store.edit(added["fact_id"], {"status": "active"})
    store.retract(added["fact_id"])
    events = vault.audit_log(patient_id=patient)
    assert [e["event"] for e in events if e["event"].startswith("profile.")] == [
        "profile.update", "profile.edit", "profile.retract"
    ]
    assert "lisinopril" not in repr(events) and "20 mg" not in repr(events)
    assert store.profile(patient)["medications"] == []
    assert store.profile(patient, include_retracted=True)["medications"][0]["status"] == RETRACTED


def test_profile_has_the_slot_json_shape(store, patient):
    profile = store.profile(patient)
    assert set(profile) == {
        "demographics", "demographics_provenance", "conditions", "symptoms", "medications", "allergies",
        "contraindications", "vitals", "labs",
    }
    assert set(profile["demographics"]) == {"age", "age_group", "gender", "pregnant"}


def test_items_only_asked_about_are_not_stored(store, patient):
    slots = {"conditions": [{"name": "hypoglycemia", "concept_id": "C1", "text": "low blood sugar", "asked_about": True},
                            {"name": "type 2 diabetes", "concept_id": "C2", "text": "type 2 diabetes"}],
             "medications": [{"name": "amoxicillin", "concept_id": "C3", "text": "amoxicillin", "asked_about": True}]}
    changes = store.update(patient, slots)
    assert actions(changes) == [("conditions", "added")]
    profile = store.profile(patient)
    assert [c["name"] for c in profile["conditions"]] == ["type 2 diabetes"] and profile["medications"] == []


def test_uncertain_mentions_wait_for_confirmation_and_topics_are_not_stored(store, patient):
    slots = {"conditions": [{"name": "asthma", "concept_id": "C0004096", "uncertain": True},
                            {"name": "gout", "concept_id": "C0018099", "asked_about": True}],
             "medications": [{"name": "salbutamol", "uncertain": True}]}
    changes = store.update(patient, slots)
    assert sorted(actions(changes)) == [("conditions", "pending"), ("medications", "pending")]
    profile = store.profile(patient)
    assert [(c["name"], c["status"]) for c in profile["conditions"]] == [("asthma", PENDING)]
    assert [(m["name"], m["status"]) for m in profile["medications"]] == [("salbutamol", PENDING)]
    asthma = profile["conditions"][0]["fact_id"]
    store.confirm(asthma)
    assert store.profile(patient)["conditions"][0]["status"] == ACTIVE
    # a later statement of the same fact merges into it rather than adding another
    store.update(patient, {"medications": [{"name": "salbutamol", "uncertain": True}]})
    assert len(store.profile(patient)["medications"]) == 1
