"""The warning-sign table behind "when to get help now" (engine.clinical.seek_care)."""

from __future__ import annotations

from engine.clinical.lexicon import load_lexicon
from engine.clinical.seek_care import MAX_SIGNS, symptoms_with_signs, table, warning_signs
from engine.text import has_hangul


def test_every_row_names_a_lexicon_symptom_or_injury_with_signs_in_both_languages():
    named = {term.english.lower() for term in load_lexicon().terms if term.slot in ("symptom", "condition")}
    assert len(table()) >= 15
    for name, entry in table().items():
        assert name in named, f"{name} is not a symptom or injury the extractor gives"
        english, korean = entry.signs["en"], entry.signs["ko"]
        assert len(english) == len(korean) >= 3, name
        assert not any(has_hangul(sign) for sign in english) and all(has_hangul(sign) for sign in korean), name


def test_signs_are_taken_in_turn_from_each_symptom_without_repeats():
    signs = warning_signs(["dizziness", "palpitations"], "en")
    dizziness, palpitations = table()["dizziness"].signs["en"], table()["palpitations"].signs["en"]
    assert signs[:2] == [dizziness[0], palpitations[0]]
    assert len(signs) == len(set(signs)) <= MAX_SIGNS
    assert set(signs) <= set(dizziness) | set(palpitations)
    assert warning_signs(["fever"], "ko")[0] == table()["fever"].signs["ko"][0]
    assert warning_signs(["not a symptom"], "en") == []


def test_only_named_symptoms_the_table_covers_and_not_negated_ones_count():
    slots = {"symptoms": [{"name": "fever", "negated": True}, {"name": "Headache"}, {"name": "hiccups"},
                          {"name": "headache"}, {"name": "cough"}]}
    assert symptoms_with_signs(slots) == ["headache", "cough"]
    assert symptoms_with_signs({}) == []


def test_an_injury_the_table_covers_counts_like_a_symptom():
    slots = {"conditions": [{"name": "head injuries"}, {"name": "asthma"}], "symptoms": [{"name": "nausea"}]}
    assert symptoms_with_signs(slots) == ["nausea", "head injuries"]
    assert "a seizure" in warning_signs(["head injuries"], "en")
    assert "trouble breathing or wheezing" in warning_signs(["insect bites and stings"], "en")
