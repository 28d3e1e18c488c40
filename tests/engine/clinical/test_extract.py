"""Slot extraction through the real MedCAT pack: Korean, English and mixed text."""

from __future__ import annotations

import pytest

from engine.clinical import extract
from engine.errors import InputError


def names(items, negated=False):
    return {item["name"] for item in items if bool(item.get("negated")) == negated}


def check_spans(text, slots):
    for key in ("conditions", "symptoms", "medications", "allergies", "vitals", "labs"):
        for item in slots[key]:
            assert text[item["start"]:item["end"]] == item["text"]


def test_korean_utterance_with_particles_negation_and_dosing(clinical_pack):
    text = "65세 남자인데 고혈압이 있고 암로디핀 5mg을 하루 한 번 먹어요. 머리가 너무 아프고 열은 없어요."
    slots = extract(text)
    assert slots["demographics"] == {"age": 65, "age_group": "60s", "gender": "male", "pregnant": None}
    assert names(slots["conditions"]) == {"hypertension"}
    assert names(slots["symptoms"]) == {"headache"} and names(slots["symptoms"], negated=True) == {"fever"}
    (drug,) = slots["medications"]
    assert (drug["name"], drug["dose"], drug["frequency"]) == ("amlodipine", "5 mg", "once daily")
    assert drug["concept_id"].startswith("MPlusDrugs:")
    check_spans(text, slots)


@pytest.mark.parametrize("text, name, negated", [
    ("변비 안 생기게 하려면 어떻게 해야 돼요?", "constipation", False),  # a goal, not a denial
    ("노로바이러스 장염 안 걸리려면 어떻게 해요?", "gastroenteritis", False),
    ("머릿니 어떻게 없애요?", "head lice", False),  # someone asking how to get rid of lice has them
    ("독감에 걸리지 않으려면 어떻게 해요?", "flu", False),
    ("열은 안 나요", "fever", True),
    ("기침은 없어요", "cough", True),
    ("통풍에 안 좋은 음식이 뭐예요?", "gout", False),  # bad for gout: the food is denied, not the gout
    ("두통에 효과가 없어요", "headache", False),
    ("당뇨의 합병증은 없어요", "diabetes", False),
    ("감기에 안 걸렸어요", "common cold", True),  # not catching the illness itself is a denial
    ("두통에 시달리지 않아요", "headache", True),
    ("열로 고생하지 않았어요", "fever", True),
    ("어지럼증에는 별 문제 없어요", "dizziness", True),
    ("고혈압으로 인한 문제는 없어요", "hypertension", False),
])
def test_korean_goals_are_not_denials(clinical_pack, text, name, negated):
    slots = extract(text)
    found = {item["name"]: bool(item.get("negated")) for key in ("conditions", "symptoms") for item in slots[key]}
    assert found[name] is negated


@pytest.mark.parametrize("text, negated", [
    ("오메프라졸을 오래 먹어도 괜찮아요?", False),  # asks whether it is all right
    ("타이레놀 먹어도 괜찮아요.", False),  # taking it is all right: permission, not a denial
])
def test_asking_whether_a_medicine_is_all_right_does_not_deny_it(clinical_pack, text, negated):
    slots = extract(text)
    assert [bool(item.get("negated")) for item in slots["medications"]] == [negated]


def test_a_finding_that_is_fine_is_denied(clinical_pack):
    slots = extract("두통은 괜찮아요. 열이 나요")
    found = {item["name"]: bool(item.get("negated")) for item in slots["symptoms"]}
    assert found == {"headache": True, "fever": False}


def test_english_utterance_with_vitals_and_list_negation(clinical_pack):
    text = "45-year-old woman with asthma. Denies fever, chills or cough. BP 150/95, HR 102, SpO2 93%, temp 38.4 C."
    slots = extract(text)
    assert slots["demographics"]["age"] == 45 and slots["demographics"]["gender"] == "female"
    assert names(slots["conditions"]) == {"asthma"}
    assert names(slots["symptoms"], negated=True) == {"fever", "chills", "cough"}
    vitals = {v["type"]: v for v in slots["vitals"]}
    assert (vitals["blood_pressure"]["systolic"], vitals["blood_pressure"]["diastolic"]) == (150, 95)
    assert vitals["heart_rate"]["value"] == 102 and vitals["spo2"]["value"] == 93
    assert (vitals["temperature"]["value"], vitals["temperature"]["unit"]) == (38.4, "°C")
    check_spans(text, slots)


def test_mixed_text_labs_and_typos(clinical_pack):
    slots = extract("diabetis 있어요. HbA1c 7.8%, 공복혈당 150, LDL 130, eGFR 45, 크레아티닌 1.6")
    assert names(slots["conditions"]) == {"diabetes"}
    labs = {lab["type"]: lab["value"] for lab in slots["labs"]}
    assert labs == {"hba1c": 7.8, "glucose": 150, "ldl": 130, "egfr": 45, "creatinine": 1.6}


def test_allergies_with_reaction_are_not_medications(clinical_pack):
    slots = extract("페니실린 알레르기가 있고 아스피린 먹으면 두드러기가 나요. 지금은 와파린 먹어요.")
    assert names(slots["allergies"]) == {"penicillin", "aspirin"}
    assert {a["name"]: a.get("reaction") for a in slots["allergies"]}["aspirin"] == "hives"
    assert names(slots["medications"]) == {"warfarin"}
    assert not slots["symptoms"]


def test_english_allergy_list_and_no_known_allergies(clinical_pack):
    assert names(extract("I'm allergic to sulfa drugs, codeine and shellfish.")["allergies"]) == {
        "sulfa drugs", "codeine", "shellfish"}
    none = extract("I don't have any allergies.")
    assert not none["allergies"] and not none["conditions"]


def test_pregnancy_and_infant_demographics(clinical_pack):
    pregnant = extract("임신 20주인데 타이레놀 먹어도 되나요?")["demographics"]
    assert pregnant["pregnant"] is True and pregnant["pregnancy_weeks"] == 20 and pregnant["gender"] == "female"
    assert extract("I'm 35 and not pregnant.")["demographics"]["pregnant"] is False
    infant = extract("생후 2개월 아기가 열이 나요")["demographics"]
    assert (infant["age"], infant["age_group"]) == (0, "infant")
    assert extract("60대 여성이에요")["demographics"]["age_group"] == "60s"


def test_an_age_group_named_in_the_plural_is_found():
    from engine.clinical.demographics import find_demographics

    groups = {"What causes ear infections in kids?": "child", "How is ADHD diagnosed in children?": "child",
              "애들 중이염은 왜 생기는 거예요?": "child", "아이들이 기침을 해요": "child",
              "Acne in teenagers": "adolescent", "Falls in older adults": "older_adult", "Colic in infants": "infant",
              "kidney stones": None, "childhood asthma": None, "애정이 없어요": None}
    assert {text: find_demographics(text)["age_group"] for text in groups} == groups


def test_korean_word_edges_reject_inner_matches(clinical_pack):
    slots = extract("열심히 운동하고 열량을 줄였어요. 손목이 아파요.")
    assert "fever" not in names(slots["symptoms"]) and "sore throat" not in names(slots["symptoms"])
    assert "joint pain" in names(slots["symptoms"])


@pytest.mark.parametrize("text", ["아이가 넘어져서 머리를 부딪쳤어요.", "어제 머리를 세게 부딪혔어요.", "머리를 다쳤어요.",
                                  "I hit my head.", "My son bumped his head on the table."])
def test_a_blow_to_the_head_is_a_head_injury(clinical_pack, text):
    assert "head injuries" in names(extract(text)["conditions"])


@pytest.mark.parametrize("text, slot, name", [
    ("좌골신경통이 뭐예요?", "symptoms", "sciatica"),
    ("강아지한테 손을 물려서 피가 나요.", "conditions", "animal bites"),
    ("The dog bit my son on the arm.", "conditions", "animal bites"),
])
def test_lay_names_of_sciatica_and_an_animal_bite(clinical_pack, text, slot, name):
    assert name in names(extract(text)[slot])


@pytest.mark.parametrize("text, name", [("철결핍성 빈혈의 원인은 무엇인가요?", "iron deficiency anemia"),
                                        ("빈혈이 있어요.", "anemia")])
def test_iron_deficiency_anemia_is_its_own_concept(clinical_pack, text, name):
    assert names(extract(text)["conditions"]) == {name}


def test_food_stuck_in_the_throat_with_no_speech_is_choking_not_slurred_speech(clinical_pack):
    found = extract("사람이 음식이 목에 걸려서 말을 못 해요.")
    assert names(found["conditions"]) == {"choking"}
    assert "slurred speech" not in names(found["symptoms"])


def test_liver_disease_in_korean_is_not_epilepsy(clinical_pack):
    """간질환 (liver disease) begins with 간질, an old name of epilepsy."""
    conditions = names(extract("간질환이 있어요.")["conditions"])
    assert conditions == {"liver diseases"}


@pytest.mark.parametrize("text, name", [("차멀미가 심해요.", "motion sickness"),
                                        ("경도인지장애는 어떻게 치료하나요?", "mild cognitive impairment")])
def test_consumer_health_topics_have_korean_names(clinical_pack, text, name):
    assert name in names(extract(text)["conditions"])


@pytest.mark.parametrize("text, slot, name", [
    ("유리 조각에 베였는데 피가 멈추지 않아요.", "conditions", "cuts and puncture wounds"),
    ("유리 조각에 베였는데 피가 멈추지 않아요.", "symptoms", "bleeding"),
    ("아들이 동전 건전지를 삼킨 것 같아요.", "conditions", "button batteries"),
    ("청소하다가 표백제가 눈에 들어갔어요.", "conditions", "eye injuries"),
    ("아기가 캡슐 세제를 입에 넣었어요.", "conditions", "detergent poisoning"),
    ("축구하다 이가 부러졌어요.", "conditions", "broken or knocked out tooth"),
    ("아이가 넘어져서 앞니가 통째로 빠졌어요.", "conditions", "broken or knocked out tooth"),
])
def test_everyday_accidents_products_and_foods_have_korean_names(clinical_pack, text, slot, name):
    assert name in names(extract(text)[slot])


@pytest.mark.parametrize("text, slot, name", [
    ("I burned my hand on a hot pan.", "conditions", "burns"),
    ("My husband scalded himself with boiling water.", "conditions", "burns"),
    ("Got stung by a bee at the park.", "conditions", "insect bites and stings"),
    ("I splashed bleach in my eye while cleaning.", "conditions", "eye injuries"),
    ("I think I got something in my eye.", "conditions", "eye - foreign object in"),
    ("My kid swallowed a coin.", "conditions", "foreign object - inhaled or swallowed"),
    ("Our toddler swallowed some magnets.", "conditions", "foreign object - inhaled or swallowed"),
    ("My son swallowed a watch battery.", "conditions", "button batteries"),
    ("My toddler drank some bleach.", "conditions", "sodium hypochlorite poisoning"),
    ("My son bit into a tide pod.", "conditions", "detergent poisoning"),
    ("The baby got into the drain cleaner.", "conditions", "drain cleaner poisoning"),
    ("My dad drank weed killer.", "conditions", "grass and weed killer poisoning"),
    ("My kid ate some of my pills.", "conditions", "poisoning"),
    ("I cut my finger while cooking.", "conditions", "cuts and puncture wounds"),
    ("My son broke his ankle.", "conditions", "fractures"),
    ("My daughter knocked out her front tooth.", "conditions", "broken or knocked out tooth"),
    ("My child fell and knocked out a front tooth.", "conditions", "broken or knocked out tooth"),
    ("I was bitten by a snake on a hike.", "conditions", "snake bites"),
    ("A jellyfish stung me at the beach.", "conditions", "jellyfish stings"),
    ("There's a tick embedded in my son's scalp.", "conditions", "tick bites"),
    ("My son choked on a grape.", "conditions", "choking"),
    ("My fingers are frozen after skiing.", "conditions", "frostbite"),
    ("I got sunburned at the beach.", "conditions", "sunburn"),
    ("My baby has nappy rash.", "conditions", "diaper rash"),
    ("I'm lactose intolerant.", "conditions", "lactose intolerance"),
    ("I can't fall asleep at night.", "conditions", "insomnia"),
    ("My nose is bleeding and won't stop.", "symptoms", "nosebleed"),
    ("I almost fainted at work.", "symptoms", "fainting"),
    ("Grandma slipped and fell in the bathroom.", "symptoms", "falls"),
    ("My baby is cutting teeth.", "symptoms", "teething"),
    ("My baby spits up after every feeding.", "symptoms", "spitting up - self-care"),
    ("I get heartburn after meals and acid coming up.", "symptoms", "heartburn"),
    ("There is ringing in my ear.", "symptoms", "tinnitus"),
    ("My nose is stuffy.", "symptoms", "nasal congestion"),
    ("My foot fell asleep.", "symptoms", "numbness"),
])
def test_everyday_english_phrasings_link_their_concepts(clinical_pack, text, slot, name):
    assert name in names(extract(text)[slot])


@pytest.mark.parametrize("text", [
    "I cut the cake.", "I fell asleep on the couch.", "She burned the toast.", "The dog bit into the bone.",
    "The sun burned off the morning fog.", "My phone battery died.", "I need to buy bleach for the laundry.",
    "He broke the leg of the chair.", "I love cooking dinner for my family.", "My boss scolded me.",
    "The kids splashed in the pool all day.", "He choked under pressure in the final.",
    "I was stung by her harsh comment.", "Prices are falling.", "The storm knocked out the power.",
])
def test_everyday_english_sentences_name_no_condition_or_symptom(clinical_pack, text):
    """The verbs of first-aid phrases (cut, burn, bite, fall, choke) say nothing medical on their own."""
    slots = extract(text)
    assert not (slots["conditions"] or slots["symptoms"])


@pytest.mark.parametrize("text", [
    "It's cold outside today.", "My feet are cold.", "The cold weather makes my joints ache.",
    "I had a cold drink.", "Put a cold compress on it.", "I had surgery last fall.", "We travel every fall.",
    "I'm tired of waiting for the results.", "I was in shock when I heard the news.", "My dog bites his toys.",
])
def test_everyday_senses_of_cold_fall_tired_shock_and_bites_are_no_concept(clinical_pack, text):
    """The canonical names "shock" and "falls" of Korean lines (쇼크, 낙상) are ordinary English words the
    blocklist keeps out; "the weather's cold", "this fall" and "tired of" say nothing medical."""
    slots = extract(text)
    found = names(slots["conditions"]) | names(slots["symptoms"])
    assert not found & {"common cold", "falls", "fatigue", "shock", "animal bites"}


@pytest.mark.parametrize("text, slot, name", [
    ("I have a cold and a cough.", "conditions", "common cold"),
    ("She gets frequent colds.", "conditions", "common cold"),
    ("I am so tired all the time.", "symptoms", "fatigue"),
    ("My mother had a fall yesterday.", "symptoms", "falls"),
    ("She keeps drifting off and we can't keep her awake after the fall.", "symptoms", "falls"),
    ("He went into shock after the accident.", "conditions", "shock"),
    ("Can I take potassium supplements with lisinopril?", "medications", "potassium"),
    ("My dog bit me on the hand.", "conditions", "animal bites"),
    ("I broke out in a cold sweat.", "symptoms", "sweating"),
])
def test_the_medical_senses_of_those_words_still_link(clinical_pack, text, slot, name):
    assert name in names(extract(text)[slot])


@pytest.mark.parametrize("text", ["자몽 주스를 마셔도 되나요?", "애주가예요.", "스트레스를 받으면 커피를 마셔요.",
                                  "Can I drink grapefruit juice?", "I drink alcohol and coffee."])
def test_foods_drinks_and_habits_are_not_conditions_or_medicines(clinical_pack, text):
    slots = extract(text)
    assert not (slots["conditions"] or slots["medications"] or slots["symptoms"])


@pytest.mark.parametrize("text", ["유산소 운동을 해요.", "눈에 이물감이 있어요."])
def test_a_longer_everyday_word_wins_over_the_condition_inside_it(clinical_pack, text):
    """유산소 holds 유산 (miscarriage); 눈에 이물감 is not trouble swallowing."""
    slots = extract(text)
    assert "miscarriage" not in names(slots["conditions"]) and "dysphagia" not in names(slots["symptoms"])


@pytest.mark.parametrize("text", ["진드기에 물렸어요. 어떻게 해야 하나요?", "I was bitten by a tick.", "A tick bite on my leg."])
def test_a_tick_bite_is_a_tick_bite_not_any_insect_bite(clinical_pack, text):
    """Its own page says how to remove the tick and which diseases follow; an insect-bite page does not."""
    conditions = names(extract(text)["conditions"])
    assert "tick bites" in conditions and "insect bites and stings" not in conditions


def test_weight_change_is_a_symptom_not_a_weight(clinical_pack):
    slots = extract("3달 사이에 5kg 빠졌어요. 몸무게 62킬로예요.")
    assert "weight loss" in names(slots["symptoms"])
    assert [(v["type"], v["value"]) for v in slots["vitals"]] == [("weight", 62)]


def test_empty_text_gives_empty_slots_and_bad_input_is_rejected(clinical_pack):
    slots = extract("   ")
    assert slots["demographics"]["age"] is None and all(not slots[k] for k in ("conditions", "labs"))
    with pytest.raises(InputError):
        extract(None)  # type: ignore[arg-type]


@pytest.mark.parametrize("text,name", [
    ("He stopped taking simvastatin because of muscle aches.", "simvastatin"),
    ("The doctor took me off ibuprofen after my stomach ulcer.", "ibuprofen"),
    ("I'm not on warfarin anymore.", "warfarin"),
    ("Lisinopril was stopped last week.", "lisinopril"),
    ("메트포르민은 속이 안 좋아서 끊었어요.", "metformin"),
    ("아스피린은 지난주부터 안 먹고 있어요.", "aspirin"),
])
def test_a_stopped_medicine_is_stored_as_stopped(clinical_pack, text, name):
    medications = extract(text)["medications"]
    assert [(m["name"], m["negated"]) for m in medications] == [(name, True)]


@pytest.mark.parametrize("text", [
    "Can I quit taking metformin?",
    "Should I stop taking warfarin?",
    "메트포르민 그만 먹어도 되나요?",
    "아스피린 먹고 담배는 끊었어요.",
    "I take aspirin daily and I quit smoking.",
])
def test_a_question_about_stopping_or_another_stop_is_not_a_stopped_medicine(clinical_pack, text):
    assert all(not m["negated"] for m in extract(text)["medications"])


def test_a_drug_named_with_its_device_is_one_medicine(clinical_pack):
    medications = extract("Dad has COPD and uses a tiotropium inhaler every morning.")["medications"]
    assert [(m["name"], m.get("frequency")) for m in medications] == [("tiotropium", "once daily")]


@pytest.mark.parametrize("text, names", [
    ("Is it safe to drink alcohol while taking an opioid painkiller like oxycodone?", ["oxycodone"]),
    ("옥시코돈 같은 마약성 진통제 먹는 중에 술 한잔 해도 되나요?", ["oxycodone"]),
    ("I take ibuprofen, an NSAID, and warfarin.", ["ibuprofen", "warfarin"]),
    ("마약성 진통제 먹으면 변비가 생기나요?", ["opioids"]),
])
def test_a_class_said_of_a_drug_named_beside_it_is_that_drug(clinical_pack, text, names):
    assert [m["name"] for m in extract(text)["medications"]] == names


@pytest.mark.parametrize("text, expected", [
    # a cough or a sneeze named only as when the complaint happens is no complaint of its own
    ("I leak urine when I cough or laugh. What are the treatments for urinary incontinence?",
     {"urinary incontinence"}),
    ("기침하거나 웃을 때 소변이 새요. 어떻게 치료해요?", {"urinary incontinence"}),
    ("My chest hurts when I cough.", {"chest pain"}),
    ("When I cough, I bring up yellow phlegm.", {"cough", "sputum"}),
    ("기침할 때 가슴이 아파요", {"cough", "chest pain"}),
    ("I cough a lot at night.", {"cough"}),
])
def test_a_symptom_named_as_when_another_happens_is_not_extracted(clinical_pack, text, expected):
    slots = extract(text)
    assert {item["name"] for key in ("conditions", "symptoms") for item in slots[key]} == expected


@pytest.mark.parametrize("text, name", [
    ("독감 검사했는데 음성이에요", "flu"),
    ("당뇨 검사 했는데 정상이래요", "diabetes"),
])
def test_a_test_that_came_back_normal_negates_its_condition(clinical_pack, text, name):
    from engine.clinical import extract

    (item,) = extract(text)["conditions"]
    assert item["name"] == name and item["negated"]
    (item,) = extract("독감 검사 양성이에요")["conditions"]
    assert not item["negated"]


@pytest.mark.parametrize("text, name", [
    ("I used to have asthma as a kid but it went away.", "asthma"),
    ("예전에 천식이 있었는데 지금은 괜찮아요", "asthma"),
    ("I used to take lisinopril", "lisinopril"),
])
def test_what_the_patient_had_or_took_and_no_longer_does_is_negated(clinical_pack, text, name):
    from engine.clinical import extract

    slots = extract(text)
    (item,) = slots["conditions"] + slots["medications"]
    assert item["name"] == name and item["negated"]
    (item,) = extract("천식이 있었는데 지금도 가끔 숨이 차요")["conditions"]
    assert not item["negated"]
