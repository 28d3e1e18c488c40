"""Deterministic red-flag triage (no pack involved)."""

from __future__ import annotations

import pytest

from engine.clinical import triage
from engine.text import has_hangul

RED_FLAGS = [
    ("가슴이 조이듯 아프고 왼팔로 통증이 퍼져요", "chest_pain"),
    ("chest pain spreading to my jaw and I'm sweating", "chest_pain"),
    ("심장마비가 온 것 같은 사람이 있으면 어떻게 해야 하나요?", "chest_pain"),  # with the particle 가
    ("아버지가 심근경색이 온 것 같아요", "chest_pain"),
    ("갑자기 얼굴 한쪽이 처지고 말이 어눌해요", "stroke"),
    ("my dad's face is drooping and his speech is slurred", "stroke"),
    ("새우를 먹고 목이 붓고 숨쉬기가 힘들어요", "anaphylaxis"),
    ("my throat is closing after a bee sting", "anaphylaxis"),
    ("숨을 못 쉬겠어요", "breathing_difficulty"),
    ("I can't breathe and my lips are blue", "breathing_difficulty"),
    ("죽고 싶어요", "suicidal_thoughts"),
    ("I want to kill myself", "suicidal_thoughts"),
    ("수면제를 한꺼번에 20알 먹었어요", "overdose"),
    ("I took a whole bottle of pills", "overdose"),
    ("피를 토했어요", "major_bleeding"),
    ("I'm vomiting blood", "major_bleeding"),
    ("태어나서 제일 심한 두통이 갑자기 왔어요", "worst_headache"),
    ("worst headache of my life", "worst_headache"),
    ("아이가 경련을 해요", "seizure"),
    ("my wife is having a seizure", "seizure"),
    ("생후 1개월 아기가 열이 38.2도예요", "infant_fever"),
    ("my 6-week-old has a fever", "infant_fever"),
    # a baby who struggles to breathe, however it is said
    ("아기가 기침을 심하게 하고 숨쉬기 힘들어해요", "breathing_difficulty"),
    ("My baby is having trouble breathing", "breathing_difficulty"),
    ("생후 5개월 아기가 숨이 차 보여요", "breathing_difficulty"),
]


@pytest.mark.parametrize("text,category", RED_FLAGS)
def test_red_flags_are_flagged_in_both_languages(text, category):
    result = triage(text)
    assert result["emergency"] is True and result["category"] == category
    assert has_hangul(result["message"]) == has_hangul(text)


@pytest.mark.parametrize("text", [
    "가슴 통증은 없어요",
    "I don't have chest pain",
    "What are the warning signs of a stroke?",
    "항우울제가 자살 충동을 일으킬 수 있나요?",
    "어제 축구 경기를 했어요",
    "5살 아이가 열이 38도예요",
    "I am short of breath when I climb stairs",  # an adult's breathlessness only when severe
    "아기가 숨쉬기 힘들어하지는 않아요",
    "고혈압약은 언제 먹나요?",
])
def test_ordinary_messages_are_not_emergencies(text):
    result = triage(text)
    assert result == {"emergency": False, "category": None, "message": result["message"]}
    assert result["message"]


@pytest.mark.parametrize("text,category", [
    ("Mum can't find her words and the left side of her face has dropped.", "stroke"),
    ("Sudden numbness down my whole right side and my vision went double.", "stroke"),
    ("예방주사 맞고 나서 두드러기가 나고 숨이 가빠요.", "anaphylaxis"),
    ("하혈이 너무 많아서 패드가 금방 젖어요.", "major_bleeding"),
    ("갑자기 뒷머리가 벼락 맞은 것처럼 아파요.", "worst_headache"),
])
def test_broader_descriptions_of_emergencies(text, category):
    assert triage(text)["category"] == category


@pytest.mark.parametrize("text", [
    "I had numbness down my left side after sleeping on it.",
    "생리대가 젖었어요.",
    "Is double vision a sign of stroke?",
])
def test_near_misses_of_the_broader_descriptions_are_not_emergencies(text):
    assert triage(text)["emergency"] is False


@pytest.mark.parametrize("text,category", [
    ("He's been fitting for about five minutes and it won't stop.", "seizure"),
    ("남편이 경련을 5분 넘게 하고 있어요.", "seizure"),
    ("She fainted and has not come round yet.", "unconscious"),
    ("화장실에서 기절해서 아직 정신을 못 차려요.", "unconscious"),
    ("I'm throwing up what looks like coffee grounds.", "major_bleeding"),
    ("I've been thinking about ending my life.", "suicidal_thoughts"),
    ("Stung by a wasp, now hives everywhere and my throat feels like it's closing.", "anaphylaxis"),
    ("갑자기 벼락 치듯 두통이 오고 목이 뻣뻣해요.", "worst_headache"),
])
def test_third_round_of_broader_descriptions(text, category):
    assert triage(text)["category"] == category


def test_a_childhood_event_is_history():
    assert triage("I had a seizure as a teenager; is it safe for me to drive now?")["emergency"] is False


@pytest.mark.parametrize("text", [
    "사람이 음식이 목에 걸려서 말을 못 해요. 어떻게 해야 하나요?",
    "떡이 목에 걸려서 기침도 못 해요.",
    "Food got stuck in his throat and he can't speak.",
])
def test_something_stuck_in_the_throat_with_no_speech_is_choking_not_a_stroke(text):
    result = triage(text)
    assert result["category"] == "breathing_difficulty"
    # The guidance says what to do for choking, as the knowledge base's first-aid page does.
    assert ("하임리히법" in result["message"]) if has_hangul(text) else ("abdominal thrusts" in result["message"])


@pytest.mark.parametrize("text", ["음식이 목에 걸린 느낌이 있어요.", "I feel like food gets stuck in my throat."])
def test_the_feeling_of_food_sticking_is_no_emergency(text):
    assert triage(text)["emergency"] is False
