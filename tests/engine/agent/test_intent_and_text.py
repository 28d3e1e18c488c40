"""Active-retrieval rules and the text signals the guard and judge rely on (ko/en)."""

from __future__ import annotations

import pytest

from engine.clinical.slot_model import empty_slots
from engine.agent.intent import classify_by_rules, complexity_by_rules
from engine.text import (
    detect_language,
    direction_markers,
    is_negated,
    medical_words,
    numbers,
    population_markers,
    strip_particle,
)


@pytest.mark.parametrize("text,intent", [
    ("Hello", "greeting"), ("안녕하세요", "greeting"), ("Good morning!", "greeting"),
    ("Thanks, that helps.", "acknowledgement"), ("네, 알겠습니다.", "acknowledgement"), ("감사합니다", "acknowledgement"),
])
def test_small_talk_skips_retrieval(text, intent):
    result = classify_by_rules(text, empty_slots())
    assert result.intent == intent and not result.needs_retrieval and result.sure


@pytest.mark.parametrize("text", ["Hello, can I take aspirin with warfarin?", "네, 고혈압약은 언제 먹어요?",
                                  "Thanks. What about metformin side effects?"])
def test_medical_content_is_never_small_talk(text):
    assert classify_by_rules(text, empty_slots()).needs_retrieval


def test_seed_complexity_rules():
    assert complexity_by_rules(1, 20) == "simple"
    assert complexity_by_rules(3, 50) == "moderate"
    assert complexity_by_rules(4, 30) == "complex"
    assert complexity_by_rules(0, 80) == "complex"
    slots = empty_slots()
    slots["conditions"] = [{"name": "diabetes"}]
    assert classify_by_rules("당뇨 증상?", slots).complexity == "simple"


def test_a_korean_question_is_as_complex_as_its_english_twin():
    slots = empty_slots()
    slots["conditions"] = [{"name": "asthma"}]
    korean = classify_by_rules("천식은 어떻게 치료하나요?", slots)  # 14 characters
    english = classify_by_rules("How is asthma treated?", slots)  # 22 characters
    assert korean.complexity == english.complexity == "moderate"


def test_rules_are_unsure_without_medical_or_question_cues():
    assert not classify_by_rules("Could you go over everything again in detail please?", empty_slots()).sure
    assert classify_by_rules("What are the symptoms of gout?", empty_slots()).sure


def test_a_message_that_asks_something_is_never_small_talk_whatever_the_model_labels_it():
    from engine.agent.intent import Intent, settle

    small_talk = Intent("acknowledgement", False, None, True)
    for text in ("귀지가 꽉 막힌 것 같은데 어떻게 빼요? 면봉으로 파도 돼요?", "Could you go over that again?"):
        rules = classify_by_rules(text, empty_slots())
        assert not rules.sure
        settled = settle(rules, small_talk, text)
        assert settled.needs_retrieval and settled.intent == "question" and settled.complexity == rules.complexity
    assert settle(classify_by_rules("좋은 하루 보내세요", empty_slots()), small_talk, "좋은 하루 보내세요") == small_talk


def test_language_and_particles():
    assert detect_language("당뇨병 증상이 뭐예요?") == "ko"
    assert detect_language("What is HbA1c?") == "en"
    assert detect_language("HbA1c가 7.5인데 괜찮나요?") == "ko"
    assert strip_particle("당뇨병이") == "당뇨병" and strip_particle("혈압을") == "혈압"


def test_guard_signals():
    from engine.knowledge.questions import question_kinds

    assert numbers("type II diabetes, 500 mg twice a day") == {"2", "500"}
    assert numbers("하루 두 번 500mg") == {"2", "500"}
    assert is_negated("I have no fever") and is_negated("열은 없어요") and not is_negated("I have a fever")
    assert direction_markers("hypoglycemia") == {"low"} and direction_markers("고혈당") == {"high"}
    assert population_markers("dose for a child") == {"child"} and population_markers("임산부") == {"pregnant"}
    assert medical_words("Can I take ibuprofen with warfarin?") == {"ibuprofen", "warfarin"}
    assert "저혈당" in medical_words("저혈당 증상이 뭐예요?")
    assert question_kinds("How is asthma treated?") == {"treatment"}
    assert question_kinds("What is asthma?") == {"definition"}
    assert question_kinds("How much acetaminophen (Tylenol) can an adult take in one day?") == {"dosage"}
    assert question_kinds("Hello there") == frozenset()
    # Protecting oneself from something, or keeping someone from getting it, is preventing it.
    assert question_kinds("How can I protect myself from hepatitis B?") == {"prevention"}
    assert question_kinds("How do I stop my child from getting lice?") == {"prevention"}
    # What to feed a child is what to do; which medicine to give, how its complaint is treated.
    assert question_kinds("아이가 구토를 해요. 뭘 먹여야 하나요?") == {"what_to_do"}
    assert "what_to_do" not in question_kinds("아이가 열이 39도예요. 해열제 뭐 먹여야 해요?")
    # Taking care of something is what to do, not how a medicine is taken.
    assert question_kinds("How should people with diabetes take care of their feet?") == {"what_to_do"}
    assert question_kinds("How should I take metformin?") == {"dosage"}


def test_everyday_phrasings_ask_their_kind():
    from engine.knowledge.questions import question_kinds

    assert question_kinds("왜 자꾸 두드러기가 나요") == {"causes"}
    assert question_kinds("비염은 뭐 때문에 생기나요") == {"causes"}
    assert question_kinds("왜소증이 뭐예요?") == {"definition"}  # 왜 inside a word asks no cause
    assert question_kinds("Does lisinopril make you cough?") == {"causes"}
    assert question_kinds("무좀 빨리 낫는 방법 있나요") == {"treatment"}
    assert question_kinds("뼈가 약해지지 않게 하려면요?") == {"prevention"}
    assert question_kinds("식중독 안 걸리는 방법") == {"prevention"}
    assert question_kinds("화상 입었을 때 응급처치는?") == {"what_to_do"}
    assert question_kinds("What is the first aid for a burn?") == {"what_to_do"}
    # Having been diagnosed is a fact about the asker, not a question about the tests.
    assert question_kinds("I was just diagnosed with gout, what is it?") == {"definition"}
    assert question_kinds("통풍 진단을 받았는데 어떤 병이에요?") == {"definition"}
    assert question_kinds("How is gout diagnosed?") == {"diagnosis"}
    assert question_kinds("두드러기가 났는데 어떻게 해요?") == {"what_to_do"}
    assert question_kinds("천식 치료는 어떻게 해요?") == {"treatment"}
    assert question_kinds("Can you explain what lupus is?") == {"definition"}
    assert question_kinds("천식은 어떤 질환이에요") == {"definition"}


def test_food_in_a_condition_s_name_asks_nothing_about_what_to_eat():
    from engine.agent.composer import asks_about_food
    from engine.knowledge.questions import question_kinds

    assert question_kinds("How can I prevent food poisoning at home?") == {"prevention"}
    assert not asks_about_food("How can I prevent food poisoning at home?")
    assert not asks_about_food("how do you find out if you have a food allergy")
    assert "what_to_do" not in question_kinds("음식 알레르기가 있는지 어떻게 알아요?")
    assert asks_about_food("What foods should I avoid with a food allergy?")
    assert asks_about_food("통풍에 좋은 음식은?") and question_kinds("통풍에 좋은 음식은?") == {"what_to_do"}


def test_korean_sentences_keep_their_own_punctuation_when_split():
    from engine.text import split_answer_sentences

    assert split_answer_sentences("아목시실린은 피해야 합니다. 인후통은 대개 저절로 낫습니다.") == [
        "아목시실린은 피해야 합니다.", "인후통은 대개 저절로 낫습니다."]
    assert split_answer_sentences("어떻게 해야 하나요? 병원에 가야 할까요?") == ["어떻게 해야 하나요?", "병원에 가야 할까요?"]
    assert split_answer_sentences("목이 아파요 열도 나요") == ["목이 아파요", "열도 나요"]
    assert split_answer_sentences("아이에게 해열제는 몇 시간마다 먹여요?") == ["아이에게 해열제는 몇 시간마다 먹여요?"]
    assert split_answer_sentences("어제보다 더 아파요") == ["어제보다 더 아파요"]
    assert split_answer_sentences("I have a fever. What should I do?\nThanks") == [
        "I have a fever.", "What should I do?", "Thanks"]
