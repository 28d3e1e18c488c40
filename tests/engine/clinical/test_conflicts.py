"""Allergy, interaction and contraindication alerts from the drug-class tables."""

from __future__ import annotations

from engine.clinical import conflicts, extract


def kinds(alerts):
    return {alert["kind"] for alert in alerts}


def test_acceptance_pairs_each_produce_an_alert():
    cases = [
        ({"allergies": [{"name": "penicillin"}]}, {"medications": [{"name": "amoxicillin"}]}, "allergy_conflict"),
        ({"allergies": [{"name": "sulfa drugs"}]}, {"medications": [{"name": "sulfamethoxazole and trimethoprim"}]}, "allergy_conflict"),
        ({"allergies": [{"name": "aspirin"}]}, {"medications": [{"name": "ibuprofen"}]}, "allergy_conflict"),
        ({"medications": [{"name": "warfarin"}]}, {"medications": [{"name": "naproxen"}]}, "interaction"),
        ({"medications": [{"name": "warfarin"}]}, {"medications": [{"name": "ibuprofen"}]}, "interaction"),
    ]
    for profile, slots, expected in cases:
        alerts = conflicts(profile, slots)
        assert expected in kinds(alerts), (profile, slots, alerts)
        for alert in alerts:
            assert set(alert) >= {"kind", "drug", "because", "message"} and alert["message"]


def test_unrelated_drugs_do_not_alert():
    assert conflicts({"allergies": [{"name": "penicillin"}]}, {"medications": [{"name": "acetaminophen"}]}) == []
    assert conflicts({"medications": [{"name": "warfarin"}]}, {"medications": [{"name": "omeprazole"}]}) == []
    assert conflicts({"allergies": [{"name": "peanut"}]}, {"medications": [{"name": "metformin"}]}) == []


def test_cephalosporin_after_penicillin_allergy_is_a_caution():
    (alert,) = conflicts({"allergies": [{"name": "penicillin"}]}, {"medications": [{"name": "cefaclor"}]})
    assert alert["kind"] == "allergy_conflict" and alert["severity"] == "caution"


def test_new_pregnancy_checks_medicines_already_on_file():
    profile = {"medications": [{"name": "losartan"}, {"name": "acetaminophen"}]}
    slots = {"demographics": {"pregnant": True}}
    alerts = conflicts(profile, slots, language="en")
    assert [(a["kind"], a["drug"], a["because"]) for a in alerts] == [("contraindication", "losartan", "pregnancy")]


def test_kidney_disease_and_child_contraindications():
    assert "contraindication" in kinds(conflicts({"conditions": [{"name": "chronic kidney disease"}]},
                                                 {"medications": [{"name": "ibuprofen"}]}))
    assert "contraindication" in kinds(conflicts({"demographics": {"age": 8}}, {"medications": [{"name": "aspirin"}]}))


def test_measurements_imply_conditions():
    high_bp = {"vitals": [{"type": "blood_pressure", "systolic": 150, "diastolic": 95}]}
    (alert,) = conflicts(high_bp, {"medications": [{"name": "ibuprofen"}]}, language="en")
    assert (alert["kind"], alert["because"]) == ("contraindication", "blood pressure 150/95")
    low_egfr = {"labs": [{"type": "egfr", "value": 35}]}
    assert "contraindication" in kinds(conflicts(low_egfr, {"medications": [{"name": "metformin"}]}))
    normal = {"vitals": [{"type": "blood_pressure", "systolic": 118, "diastolic": 76}], "labs": [{"type": "egfr", "value": 95}]}
    assert conflicts(normal, {"medications": [{"name": "ibuprofen"}, {"name": "metformin"}]}) == []


def test_an_inr_above_every_warfarin_target_raises_a_bleeding_caution():
    (alert,) = conflicts({"medications": [{"name": "warfarin"}]}, {"labs": [{"type": "inr", "value": 4.5}]},
                         language="en")
    assert (alert["kind"], alert["drug"], alert["because"]) == ("contraindication", "warfarin", "INR 4.5")
    assert "bleeding" in alert["message"] and "prescriber today" in alert["message"]
    korean = conflicts({}, {"medications": [{"name": "warfarin"}], "labs": [{"type": "inr", "value": 5.2}]},
                       language="ko")
    assert korean and "출혈 위험" in korean[0]["message"]
    # in range, or an INR without warfarin: nothing
    assert conflicts({"medications": [{"name": "warfarin"}]}, {"labs": [{"type": "inr", "value": 2.6}]}) == []
    assert conflicts({}, {"labs": [{"type": "inr", "value": 4.5}], "medications": [{"name": "metformin"}]}) == []


def test_high_potassium_with_a_medicine_that_raises_it_is_a_caution():
    (alert,) = conflicts({"medications": [{"name": "lisinopril"}]}, {"labs": [{"type": "potassium", "value": 6.1}]},
                         language="en")
    assert (alert["kind"], alert["drug"], alert["because"]) == ("contraindication", "lisinopril", "potassium 6.1")
    assert "ACE inhibitors can raise it further" in alert["message"]
    assert conflicts({"medications": [{"name": "lisinopril"}]}, {"labs": [{"type": "potassium", "value": 4.8}]}) == []
    assert conflicts({}, {"labs": [{"type": "potassium", "value": 6.1}], "medications": [{"name": "metformin"}]}) == []


def test_negated_items_and_old_pairs_do_not_alert():
    assert conflicts({"allergies": [{"name": "penicillin", "negated": True}]}, {"medications": [{"name": "amoxicillin"}]}) == []
    old = {"allergies": [{"name": "penicillin"}], "medications": [{"name": "amoxicillin"}]}
    assert conflicts(old, {}) == []


def test_end_to_end_from_korean_messages_gives_korean_messages(clinical_pack):
    profile = extract("페니실린 알레르기가 있어요. 와파린을 먹고 있어요.")
    slots = extract("아목시실린이랑 이부프로펜 먹어도 되나요?")
    alerts = conflicts(profile, slots)
    assert {("allergy_conflict", "amoxicillin"), ("interaction", "ibuprofen")} <= {(a["kind"], a["drug"]) for a in alerts}
    assert all(any("\uac00" <= ch <= "\ud7a3" for ch in a["message"]) for a in alerts)


def test_every_alert_carries_its_message_in_both_languages():
    cases = [({"allergies": [{"name": "penicillin"}]}, {"medications": [{"name": "amoxicillin"}]}),
             ({"medications": [{"name": "warfarin"}]}, {"medications": [{"name": "ibuprofen"}]}),
             ({"demographics": {"pregnant": True}}, {"medications": [{"name": "losartan"}]}),
             ({"allergies": [{"name": "penicillin"}]}, {"medications": [{"name": "cefaclor"}]})]
    for profile, slots in cases:
        english, korean = conflicts(profile, slots, language="en"), conflicts(profile, slots, language="ko")
        assert english and len(english) == len(korean)
        for en, ko in zip(english, korean):
            assert en["messages"] == ko["messages"] == {"en": en["message"], "ko": ko["message"]}
            assert any("\uac00" <= c <= "\ud7a3" for c in ko["message"])


def test_a_korean_allergy_alert_names_the_medicines_in_korean_with_the_english_beside():
    (alert,) = [a for a in conflicts({"allergies": [{"name": "penicillin"}]}, {"medications": [{"name": "amoxicillin"}]},
                                     language="ko") if a["kind"] == "allergy_conflict"]
    assert alert["message"].startswith("아목시실린(amoxicillin)은(는) ")
    assert "페니실린(penicillin) 알레르기" in alert["message"]
    assert alert["drug"] == "amoxicillin", "the structured fields stay the English canonical names"


def test_sleeping_pills_are_sleep_medicines_not_one_of_them_and_still_warn_beside_an_opioid(clinical_pack):
    names = [m["name"] for m in extract("I take sleeping pills every night.")["medications"]]
    assert names == ["sleep medicines"]
    assert [m["name"] for m in extract("수면제 먹고 있어요")["medications"]] == ["sleep medicines"]
    assert [m["name"] for m in extract("I take Ambien.")["medications"]] == ["zolpidem"]
    slots = extract("수면제 먹는데 옥시코돈 먹어도 돼요?")
    assert "interaction" in kinds(conflicts(slots, slots))
