"""Drug names written in Hangul, found by their sound (engine.clinical.transliteration)."""

from __future__ import annotations

import pytest

from engine.clinical import PackConceptFinder
from engine.clinical.transliteration import DrugSounds, english_sounds, korean_sound

NAMES = ["Metformin", "Phentermine", "Quinine", "Dicyclomine", "Glucagon", "Nicotine", "Amlodipine", "Cefprozil",
         "Bosentan", "Salsalate", "Palm Oil", "Codeine", "Zolpidem"]


@pytest.fixture(scope="module")
def sounds():
    return DrugSounds(NAMES)


def test_both_languages_come_to_the_same_sound():
    assert korean_sound("메트포르민") in english_sounds("metformin")
    assert korean_sound("메트포민") in english_sounds("metformin")  # the r left out, as often written
    assert korean_sound("퀴닌") in english_sounds("quinine")


@pytest.mark.parametrize("text, name", [
    ("펜터민 부작용 뭐 있어요?", "Phentermine"),
    ("누가 퀴닌 먹으라던데", "Quinine"),
    ("디사이클로민을 하루 네번", "Dicyclomine"),
    ("글루카곤 주사는 어떻게 놓아요", "Glucagon"),
    ("니코틴껌 씹어도 돼요?", "Nicotine"),
])
def test_a_transliterated_drug_is_found_without_its_particle(sounds, text, name):
    found = sounds.find(text)
    assert [m.name for m in found] == [name]
    assert not found[0].text.endswith(("을", "껌"))


@pytest.mark.parametrize("text", [
    "다섯 살짜리 아이가 쓰러질 것 같아요",
    "발목을 접질렀는데 붓기가 90퍼센트 빠졌어요",
    "걷기는 괜찮은데 계단은 힘들어요",
    "정의됨 신뢰도가 필요할 때",
])
def test_everyday_words_that_sound_like_a_drug_are_not_drugs(sounds, text):
    assert sounds.find(text) == []


def test_covered_words_are_left_alone(sounds):
    assert sounds.find("메트포르민 먹어요", covered=[(0, 5)]) == []


def test_the_pack_finder_adds_sounded_drugs(clinical_pack):
    mentions = PackConceptFinder(clinical_pack)("펜터민 부작용 뭐 있어요?")
    drug = [m for m in mentions if m["slot"] == "medication"]
    assert drug and drug[0]["name"].lower() == "phentermine" and drug[0]["text"] == "펜터민"


def test_labs_and_other_concepts_that_sound_like_a_drug_are_not_drugs(clinical_pack):
    finder = PackConceptFinder(clinical_pack)
    mentions = finder("크레아티닌 1.2, 고지 못 했어요")  # creatinine (a lab) ~ creatine; 고지 ~ goji
    assert not [m for m in mentions if m["slot"] == "medication"]
