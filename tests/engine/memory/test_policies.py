"""The seed's numbers for temporal weight and de-duplication, as pure functions."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from engine.memory.policies import (
    edit_distance,
    fuzzy_limit,
    is_chronic_term,
    lab_is_abnormal,
    names_match,
    same_concept,
    same_reading,
    temporal_weight,
)
from engine.settings import Settings

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=timezone.utc)
RATES = Settings().memory.decay_per_hour


@pytest.mark.parametrize("hours, expected", [(1, 0.90), (12, 0.30), (48, 0.01)])
def test_blood_pressure_weights_match_the_seed_example(hours, expected):
    weight = temporal_weight(NOW - timedelta(hours=hours), NOW, RATES["vitals"])
    assert round(weight, 2) == expected


@pytest.mark.parametrize(
    "slot, half_life_hours",
    [("vitals", 7), ("labs", 14), ("symptoms", 35), ("medications", 139), ("conditions", 693)],
)
def test_half_lives_match_the_seed_table(slot, half_life_hours):
    weight = temporal_weight(NOW - timedelta(hours=half_life_hours), NOW, RATES[slot])
    assert weight == pytest.approx(0.5, abs=0.01)


def test_allergies_never_decay_and_future_times_count_as_now():
    assert temporal_weight(NOW - timedelta(days=3650), NOW, RATES["allergies"]) == 1.0
    assert temporal_weight(NOW + timedelta(hours=5), NOW, RATES["vitals"]) == 1.0


def test_edit_distance():
    assert edit_distance("metformin", "metformin") == 0
    assert edit_distance("metformin", "metfromin") == 1  # one transposition
    assert edit_distance("kitten", "sitting") == 3
    assert edit_distance("a" * 10, "b" * 10, limit=2) == 3


@pytest.mark.parametrize(
    "a, b, expected",
    [
        ("Metformin", "metformin", True),
        ("hypertension", "hypertensoin", True),
        ("hypertension", "hypertensionn", True),
        ("pneumonia", "pnuemona", True),  # distance 2 < 3
        ("bronchitis", "bronchiolitis", False),  # distance 3
        ("type 1 diabetes", "type 2 diabetes", False),  # numbers differ
        ("ALT", "AST", False),  # too short for fuzzy matching
        ("", "penicillin", False),
    ],
)
def test_fuzzy_condition_names(a, b, expected):
    assert names_match(a, b, fuzzy_limit("conditions")) is expected


@pytest.mark.parametrize(
    "a, b, expected",
    [
        ("metformin", "metfromin", True),  # a typo: one transposition
        ("penicillin", "penicilin", True),
        ("amoxicillin", "ampicillin", False),  # look-alike drugs, distance 2
        ("prednisone", "prednisolone", False),
    ],
)
def test_fuzzy_drug_names_allow_only_one_edit(a, b, expected):
    assert names_match(a, b, fuzzy_limit("medications")) is expected


def test_concept_id_decides_before_the_name():
    assert same_concept({"name": "high blood pressure", "concept_id": "C0020538"}, {"name": "hypertension", "concept_id": "C0020538"})
    assert not same_concept({"name": "diabetes", "concept_id": "C0011849"}, {"name": "diabetes", "concept_id": "C0011860"})
    assert same_concept({"name": "asthma", "concept_id": "C0004096"}, {"name": "asthma"})


@pytest.mark.parametrize(
    "new, expected",
    [
        ({"systolic": 145, "diastolic": 95}, True),  # ±5 mmHg on both
        ({"systolic": 146, "diastolic": 90}, False),
        ({"systolic": 140, "diastolic": 84}, False),
    ],
)
def test_blood_pressure_tolerance_is_five_mmhg(new, expected):
    old = {"type": "blood_pressure", "systolic": 140, "diastolic": 90, "unit": "mmHg"}
    assert same_reading(old, {"type": "blood_pressure", "unit": "mmHg", **new}) is expected


def test_readings_of_other_types_or_units_never_merge():
    assert not same_reading({"type": "glucose", "value": 100, "unit": "mg/dL"}, {"type": "glucose", "value": 100, "unit": "mmol/L"})
    assert not same_reading({"type": "glucose", "value": 100, "unit": "mg/dL"}, {"type": "ldl", "value": 100, "unit": "mg/dL"})
    assert same_reading({"type": "glucose", "value": 100, "unit": "mg/dL"}, {"type": "glucose", "value": 104, "unit": "mg / dl"})


@pytest.mark.parametrize(
    "item, expected",
    [
        ({"type": "hba1c", "value": 8.1, "unit": "%"}, True),
        ({"type": "hba1c", "value": 5.2, "unit": "%"}, False),
        ({"type": "egfr", "value": 45, "unit": "mL/min/1.73m2"}, True),
        ({"type": "tsh", "value": 2.0, "unit": "mIU/L"}, False),
        ({"type": "glucose", "value": 180, "unit": "mg/dL"}, True),
        ({"type": "unknown_lab", "value": 1, "unit": "x"}, False),
        ({"type": "unknown_lab", "value": 1, "unit": "x", "flag": "H"}, True),
        ({"type": "hba1c", "value": 9.0, "unit": "%", "abnormal": False}, False),
    ],
)
def test_abnormal_labs(item, expected):
    assert lab_is_abnormal(item) is expected


def test_chronic_terms_in_english_and_korean():
    assert is_chronic_term("Type 2 diabetes mellitus")
    assert is_chronic_term("고혈압")
    assert not is_chronic_term("common cold")
