"""The second emergency check: similarity to the team's labelled emergencies (real MiniLM)."""

from __future__ import annotations

import numpy as np
import pytest

from engine.agent.wiring import ClinicalService
from engine.clinical.similar_emergencies import CharNgrams, SimilarEmergencies, labelled_messages, triage_with_similar


@pytest.fixture(scope="module")
def similar():
    from engine.knowledge import make_embedder
    from engine.settings import Settings

    embedder = make_embedder(Settings())
    return SimilarEmergencies(lambda texts: embedder.embed(list(texts)))


def test_the_examples_are_labelled_emergencies_and_ordinary_messages():
    messages = labelled_messages()
    categories = {category for _, category in messages if category}
    assert len(categories) == 11 and sum(category is None for _, category in messages) > 200


def test_char_ngrams_score_a_text_against_itself_highest():
    grams = CharNgrams(["숨을 못 쉬겠어요", "무릎이 아파요", "열이 나요"])
    scores = grams.matrix @ grams.vector("숨을 못 쉬겠어요")
    assert int(np.argmax(scores)) == 0 and scores[0] == pytest.approx(1.0)


@pytest.mark.parametrize("text,category", [
    ("I swallowed every pill in my cupboard an hour ago.", "overdose"),
    ("동생이 갑자기 쓰러져서 숨을 안 쉬는 것 같아요.", "unconscious"),
])
def test_an_emergency_the_rules_miss_is_caught_by_similarity(similar, text, category):
    verdict = triage_with_similar(text, similar)
    assert verdict["emergency"] and verdict["category"] == category and verdict["detected_by"] == "similar"
    assert verdict["message"].startswith(("This message resembles", "응급 상황을 설명하는"))


def test_the_rules_answer_first(similar):
    verdict = triage_with_similar("my wife is having a seizure", similar)
    assert verdict["detected_by"] == "rules" and "resembles" not in verdict["message"]


@pytest.mark.parametrize("text", [
    "What is the treatment for asthma?",
    "I have a mild cold and a runny nose.",
    "요즘 무릎이 조금 아파요.",
    "고혈압 약은 아침에 먹는 게 좋나요?",
])
def test_ordinary_messages_and_general_questions_are_not_flagged(similar, text):
    assert triage_with_similar(text, similar)["emergency"] is False


def test_a_failing_similarity_check_leaves_the_rules_verdict():
    class Broken:
        def match(self, text):
            raise RuntimeError("no embedder")

    service = ClinicalService(similar=Broken())
    assert service.triage("I swallowed every pill in my cupboard an hour ago.")["emergency"] is False
    assert service.triage("my wife is having a seizure")["category"] == "seizure"
