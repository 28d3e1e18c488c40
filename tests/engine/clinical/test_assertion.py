"""Stated about the patient or only asked about: the `asked_about` mark (real MedCAT pack)."""

from __future__ import annotations

import pytest

from engine.clinical import extract


def marks(text):
    slots = extract(text)
    return {item["name"]: bool(item.get("asked_about"))
            for key in ("conditions", "symptoms", "medications", "allergies") for item in slots[key]}


@pytest.mark.parametrize("text, expected", [
    ("What is low blood sugar?", {"hypoglycemia": True}),
    ("저혈당이 뭐예요?", {"hypoglycemia": True}),
    ("How is hypertension treated?", {"hypertension": True}),
    ("고혈압은 어떻게 치료하나요?", {"hypertension": True}),
    ("What is metformin used for?", {"metformin": True}),
    ("I have diabetes", {"diabetes": False}),
    ("당뇨가 있어요", {"diabetes": False}),
    ("I have diabetes, what is low blood sugar?", {"diabetes": False, "hypoglycemia": True}),
    ("저는 당뇨가 있는데 저혈당이 뭐예요?", {"diabetes": False, "hypoglycemia": True}),
    ("I'm a 65-year-old man with type 2 diabetes and I'm allergic to penicillin. "
     "What are the symptoms of low blood sugar?",
     {"type 2 diabetes": False, "penicillin": False, "hypoglycemia": True}),
    ("저는 65세 남성이고 2형 당뇨병이 있어요. 페니실린 알레르기가 있습니다. 저혈당 증상이 뭐예요?",
     {"type 2 diabetes": False, "penicillin": False, "hypoglycemia": True}),
    ("당뇨병과 고혈압이 있는데 운동해도 되나요?", {"diabetes": False, "hypertension": False}),
    ("두통이 있는데 어떻게 해야 하나요?", {"headache": False}),
    ("I have a headache, what should I do?", {"headache": False}),
    ("Can I take amoxicillin for a sore throat?", {"amoxicillin": True, "sore throat": False}),
    ("목이 아픈데 아목시실린 먹어도 되나요?", {"amoxicillin": True, "sore throat": False}),
    ("메트포르민 복용 중인데 술 마셔도 되나요?", {"metformin": False}),
    ("My mother has asthma. Is it hereditary?", {"asthma": False}),
    # What a question asks to prevent, or the risk of, is not what the patient has.
    ("How can I lower my baby's risk of SIDS?", {"sudden infant death syndrome": True}),
    ("How can I avoid getting malaria?", {"malaria": True}),
    ("How can I protect myself from hepatitis B?", {"hepatitis b": True}),
    ("I have diabetes. How do I prevent complications of diabetes?", {"diabetes": False}),
    # the pack's mention can hold the verb ("prevent food poisoning")
    ("How can I prevent food poisoning at home?", {"food poisoning": True}),
])
def test_topics_of_questions_are_marked_and_statements_are_not(clinical_pack, text, expected):
    assert marks(text) == expected


@pytest.mark.parametrize("text, expected", [
    ("I got the pneumonia vaccine last year.", {"pneumonia": True, "vaccines": False}),
    ("My son got the measles vaccine yesterday and now has a fever.",
     {"measles": True, "vaccines": False, "fever": False}),
    ("I got a tetanus shot.", {"tetanus": True}),
    ("I have pneumonia and got the flu vaccine.", {"pneumonia": False, "flu": True, "vaccines": False}),
])
def test_a_disease_a_vaccine_is_named_for_is_not_the_patients(clinical_pack, text, expected):
    assert marks(text) == expected


@pytest.mark.parametrize("text, expected", [
    ("There's a history of colon cancer in my family.", {"colorectal cancer": True}),
    ("I have diabetes and a family history of heart disease.", {"diabetes": False, "coronary heart disease": True}),
    ("Heart disease runs in my family.", {"coronary heart disease": True}),
    ("가족 중에 대장암 환자가 있어요", {"colorectal cancer": True}),
    ("대장암 가족력이 있어요", {"colorectal cancer": True}),
    ("I'm worried about getting Alzheimer's.", {"alzheimer disease": True}),
    ("치매에 걸릴까 봐 걱정돼요", {"dementia": True}),
    ("My family doctor says I have asthma.", {"asthma": False}),
    ("I read about lupus online.", {"lupus": True}),
])
def test_the_familys_conditions_and_feared_ones_are_not_the_patients(clinical_pack, text, expected):
    assert marks(text) == expected


def test_negated_items_are_left_alone(clinical_pack):
    slots = extract("No fever. What is a cough?")
    assert [(s["name"], s["negated"], bool(s.get("asked_about"))) for s in slots["symptoms"]] == [
        ("fever", True, False), ("cough", False, True)]


@pytest.mark.parametrize("question, statement", [
    ("What is low blood sugar?", "I have diabetes"),
    ("저혈당이 뭐예요?", "당뇨가 있어요"),
])
def test_the_profile_gains_stated_conditions_only(clinical_pack, tmp_path, question, statement):
    from engine.memory.profile import ProfileStore
    from engine.memory.store import Vault
    from engine.settings import Settings

    settings = Settings()
    settings.vault.kdf_iterations = 10_000
    with Vault.open(tmp_path / "vault.db", "pass phrase", create=True, settings=settings) as vault:
        store = ProfileStore(vault)
        patient = vault.create_patient("Test")
        assert store.update(patient, extract(question)) == []
        assert store.profile(patient)["conditions"] == []
        store.update(patient, extract(statement))
        assert [c["name"] for c in store.profile(patient)["conditions"]] == ["diabetes"]


def test_a_topic_asked_about_and_also_stated_is_stated(clinical_pack):
    assert marks("What is diabetes? The doctor said I have diabetes.") == {"diabetes": False}
    # in either order: a later question does not make the stated fact a topic
    assert marks("I have diabetes. What is diabetes?") == {"diabetes": False}
    assert marks("I leak urine when I cough. What are the treatments for urinary incontinence?") == {
        "urinary incontinence": False}


def kinds(text):
    slots = extract(text)
    return {item["name"]: "asked" if item.get("asked_about") else "uncertain" if item.get("uncertain") else "asserted"
            for key in ("conditions", "symptoms", "medications", "allergies") for item in slots[key]}


@pytest.mark.parametrize("text, expected", [
    # requests for information, imperative or polite, state nothing about the patient
    ("Write a detailed overview of asthma and how inhalers are used.", {"asthma": "asked", "inhalers": "asked"}),
    ("Give me an overview of COPD treatment with inhalers.",
     {"chronic obstructive pulmonary disease": "asked", "inhalers": "asked"}),
    ("Explain the side effects of metformin to me.", {"metformin": "asked"}),
    ("Please describe the symptoms of pneumonia.", {"pneumonia": "asked"}),
    ("I'd like to know about gout.", {"gout": "asked"}),
    ("Summarize the treatment of migraine", {"migraine": "asked"}),
    ("List the common side effects of statins", {"statins": "asked"}),
    ("What causes a chronic cough?", {"cough": "asked"}),
    ("천식에 대해 자세히 설명해 주세요.", {"asthma": "asked"}),
    ("고혈압 약 종류를 정리해 줘", {"antihypertensives": "asked"}),
    ("당뇨병 합병증을 알려주세요", {"diabetes": "asked"}),
    # a bare mention beside a question: kept, but waits for confirmation
    ("Asthma. What inhalers are there?", {"asthma": "uncertain", "inhalers": "asked"}),
    ("천식. 흡입기는 어떤 게 있나요?", {"asthma": "uncertain", "inhalers": "asked"}),
    # statements about the writer or another patient stay facts
    ("I have asthma. What inhalers are there?", {"asthma": "asserted", "inhalers": "asked"}),
    ("58-year-old woman on amlodipine 5 mg. Can she take amoxicillin?",
     {"amlodipine": "asserted", "amoxicillin": "asked"}),
    ("He has gout. What should he avoid?", {"gout": "asserted"}),
    ("Hypertension, on lisinopril.", {"hypertension": "asserted", "lisinopril": "asserted"}),
    # asking whether the patient has something, or saying it seems so, only suspects it
    ("아이가 ADHD인지 어떻게 진단해요?", {"adhd": "uncertain"}),
    ("How do I know if I have a food allergy?", {"allergy": "uncertain"}),
    ("Could my son have ADHD?", {"adhd": "uncertain"}),
    ("폐렴인 것 같아요. 어떻게 해야 하나요?", {"pneumonia": "uncertain"}),
    ("대상포진이 아닌지 걱정돼요. 어떻게 알 수 있나요?", {"shingles": "uncertain"}),
    # wanting a measure lowered makes it likely, not stated, that it is high
    ("How can I lower my blood pressure?", {"hypertension": "uncertain"}),
    ("혈당 낮추려고 운동해요", {"hyperglycemia": "uncertain"}),
    ("I have high blood pressure. How can I lower it?", {"hypertension": "asserted"}),
    # a diagnosis the writer thinks or fears the patient has; a complaint said so is still the complaint
    ("I think my son has lice", {"head lice": "uncertain"}),
    ("I'm scared I have cancer.", {"cancer": "uncertain"}),
    ("I don't think I have the flu.", {"flu": "uncertain"}),
    ("I think I have a fever", {"fever": "asserted"}),
    ("My son has ADHD. How is it treated?", {"adhd": "asserted"}),
    ("두통이 있는데 어떻게 해야 하나요?", {"headache": "asserted"}),
    # a fever that comes on, a head that was hit: stated
    ("아이가 열이 나요. 어떻게 해야 하나요?", {"fever": "asserted"}),
    ("아이가 넘어져서 머리를 부딪쳤어요. 어떻게 해야 하나요?", {"head injuries": "asserted"}),
    ("열이 나는 이유가 뭐예요?", {"fever": "asked"}),
    ("아이 머리에 이가 생겼어요. 머릿니 어떻게 없애요?", {"head lice": "asserted"}),
    ("머릿니는 왜 생겨요?", {"head lice": "asked"}),
    # a temperature read out states the fever
    ("아이가 열이 39도예요. 해열제 먹여도 되나요?", {"fever": "asserted", "antipyretics": "asked"}),
    ("열이 38.5도까지 올랐어요. 병원 가야 하나요?", {"fever": "asserted"}),
    # a complaint told in a plain statement of its own is stated; wanting to know about it is not
    ("아이가 토하고 설사해요. 어떻게 해야 하나요?", {"vomiting": "asserted", "diarrhea": "asserted"}),
    ("아이가 기침을 오래 해요. 병원에 가야 하나요?", {"cough": "asserted"}),
    ("요즘 자꾸 어지러워요. 왜 그래요?", {"dizziness": "asserted"}),
    ("두통에 대해 궁금해요. 원인이 뭐예요?", {"headache": "uncertain"}),
    ("두통. 원인이 뭐예요?", {"headache": "uncertain"}),
    # an injury told as what happened is stated; one that only seems so is not
    ("아이가 벌에 쏘였어요. 어떻게 해야 하나요?", {"insect bites and stings": "asserted"}),
    ("개한테 물렸어요. 어떻게 해요?", {"animal bites": "asserted"}),
    ("손을 데었어요. 어떻게 해요?", {"burns": "asserted"}),
    ("발목을 삐었어요. 어떻게 해요?", {"sprains": "asserted"}),
    ("팔이 부러진 것 같아요. 어떻게 해요?", {"fractures": "uncertain"}),
    ("벌에 쏘였을 때 어떻게 해요?", {"insect bites and stings": "asked"}),
])
def test_requests_are_topics_and_unsure_mentions_are_marked(clinical_pack, text, expected):
    assert kinds(text) == expected
