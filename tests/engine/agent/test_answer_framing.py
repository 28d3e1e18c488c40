"""The reader's names of what a question asks about."""

from __future__ import annotations

import pytest

from engine.agent.answer_framing import asked_name, focus_name, in_english, korean_gist, topic_name


@pytest.mark.parametrize("text, name, shown", [
    ("cold sores", "herpes simplex", "cold sores (herpes simplex)"),
    ("Cold sores", "herpes simplex", "cold sores (herpes simplex)"),
    ("high blood pressure", "hypertension", "high blood pressure (hypertension)"),
    ("gout", "gout", "gout"),
    ("Gout", "gout", "gout"),
    ("nosebleeds", "nosebleed", "nosebleed"),  # the same words, inflected
    ("bleach in my eye", "eye emergencies", "eye emergencies"),  # speaks of the asker
    ("a really bad pain in the lower back", "low back pain", "low back pain"),  # no name
    ("", "asthma", "asthma"),
    ("ADHD", "attention deficit hyperactivity disorder", "ADHD (attention deficit hyperactivity disorder)"),
    ("Crohn's", "Crohn disease", "Crohn disease"),  # the asked words are in the name
    ("migraine headaches", "migraine", "migraine"),  # the name is in the asked words
    ("mononucleosis", "infectious mononucleosis", "infectious mononucleosis"),
    ("earwax", "ear wax", "ear wax"),
    ("prevent food poisoning", "food poisoning", "food poisoning"),
    ("pink eye", "conjunctivitis", "pink eye (conjunctivitis)"),
    ("acid reflux", "gerd", "acid reflux (GERD)"),  # the pack's lower-case name, cased as the lexicon writes it
    ("Acid reflux", "gerd", "acid reflux (GERD)"),
    ("hiv", "hiv/aids", "HIV/AIDS"),
])
def test_an_english_reader_sees_the_words_they_asked_with(text, name, shown):
    assert asked_name({"text": text, "name": name}) == shown


def test_one_concept_written_twice_is_named_once():
    slots = {"conditions": [{"text": "high blood pressure", "name": "hypertension", "concept_id": "C0020538"},
                            {"text": "hypertension", "name": "hypertension", "concept_id": "C0020538"}]}
    assert topic_name(slots, "en") == "high blood pressure (hypertension)"


def test_a_symptom_keeps_the_packs_name():
    slots = {"conditions": [{"text": "sprained ankle", "name": "sprains", "concept_id": "C0038048"}],
             "symptoms": [{"text": "swollen", "name": "swelling", "concept_id": "C0038999"}]}
    assert topic_name(slots, "en") == "sprains and swelling"


def test_a_korean_reader_sees_the_korean_name():
    slots = {"conditions": [{"text": "고혈압", "name": "hypertension", "concept_id": "C0020538"}]}
    assert topic_name(slots, "ko") == "고혈압"


def test_the_glance_line_leaves_out_the_topic_however_it_is_spaced():
    quotes = [("Most adults need 600 units of vitamin D a day, with calcium from food.", 1)]
    gist = korean_gist(quotes, "dosage", "비타민D의 용량에 대해 출처에서 찾은 내용입니다.")
    assert "비타민" not in gist and "칼슘 [1]" in gist


def test_focus_and_symptom_names_keep_the_capitals_of_an_acronym():
    assert focus_name(["gerd", "heartburn"], "en") == "GERD and heartburn"
    assert topic_name({"conditions": [{"text": "", "name": "nsaids"}]}, "en") == "NSAIDs"


def test_profile_lines_show_an_acronym_in_capitals_and_leave_other_words_alone():
    assert in_english("Conditions: gerd, asthma") == "Conditions: GERD, asthma"
    assert in_english("Conditions: hiv/aids") == "Conditions: HIV/AIDS"
    assert in_english("Medications: nsaids; hearing aids") == "Medications: NSAIDs; hearing aids"
