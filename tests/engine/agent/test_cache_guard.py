"""The guarded response cache with the real MiniLM embedder: paraphrases hit, near-misses never do."""

from __future__ import annotations

import numpy as np
import pytest

from engine.agent.cache import CacheEntry, ResponseCache, entry_id, query_signature, vary_phrasing
from engine.text import medical_words, numbers

PARAPHRASES = [
    ("What are the symptoms of type 2 diabetes?", "What are the signs and symptoms of type 2 diabetes?"),
    ("How is high blood pressure treated?", "How do you treat high blood pressure?"),
    ("Can I take ibuprofen with warfarin?", "Is it safe to take ibuprofen with warfarin?"),
    ("What foods raise blood pressure?", "Which foods make blood pressure go up?"),
    ("당뇨병 증상이 뭐예요?", "당뇨병의 증상은 무엇인가요?"),
    ("저혈당 증상이 뭐예요?", "저혈당의 증상은 무엇인가요?"),
]
NEAR_MISSES = [
    ("Can I take ibuprofen with warfarin?", "Can I take naproxen with warfarin?"),                      # one drug
    ("Is 500 mg of metformin twice a day too much?", "Is 1000 mg of metformin twice a day too much?"),  # one number
    ("What are the symptoms of type 1 diabetes?", "What are the symptoms of type 2 diabetes?"),       # type 1 vs 2
    ("제1형 당뇨병 증상이 뭐예요?", "제2형 당뇨병 증상이 뭐예요?"),
    ("What is the dose of acetaminophen for a child?", "What is the dose of acetaminophen for an adult?"),
    ("아이에게 타이레놀 용량은 얼마예요?", "성인에게 타이레놀 용량은 얼마예요?"),
    ("What are the symptoms of hypoglycemia?", "What are the symptoms of hyperglycemia?"),            # hypo/hyper
    ("What causes hypothyroidism?", "What causes hyperthyroidism?"),
    ("저혈당 증상이 뭐예요?", "고혈당 증상이 뭐예요?"),
    ("Is low blood pressure dangerous?", "Is high blood pressure dangerous?"),
    ("I have a fever, can I take aspirin?", "I have no fever, can I take aspirin?"),                  # negation
    ("How is diabetes treated?", "What are the symptoms of diabetes?"),                              # question type
]


def lookup_after_storing(embedder, cached: str, asked: str, *, used_profile=False, stored_fp="", asked_fp=""):
    cache = ResponseCache(threshold=0.85)
    vector = embedder.embed([cached])[0]
    cache.put(CacheEntry(id=entry_id(cached, stored_fp, 1.0), query=cached, vector=vector,
                         signature=query_signature(cached), answer="cached answer", sources=[],
                         used_profile=used_profile, profile_fingerprint=stored_fp, created=cache.clock()))
    return cache.lookup(asked, embedder.embed([asked])[0], query_signature(asked), asked_fp), cache


@pytest.mark.parametrize("cached,asked", PARAPHRASES)
def test_paraphrases_hit(minilm, cached, asked):
    found, cache = lookup_after_storing(minilm, cached, asked)
    assert found.entry is not None, (found.similarity, found.rejected)
    assert cache.counters.hits == 1


@pytest.mark.parametrize("cached,asked", NEAR_MISSES)
def test_near_misses_never_hit(minilm, cached, asked):
    for first, second in ((cached, asked), (asked, cached)):
        found, _cache = lookup_after_storing(minilm, first, second)
        assert found.entry is None


def test_near_misses_that_embed_alike_are_stopped_by_the_guard(minilm):
    guarded = 0
    for cached, asked in NEAR_MISSES:
        found, cache = lookup_after_storing(minilm, cached, asked)
        if found.similarity >= 0.85:
            assert found.rejected, (cached, asked)
            guarded += 1
    assert guarded >= 3  # type 1/2, child/adult, 저혈당/고혈당 embed at ≥ 0.85 with MiniLM


def test_profile_specific_answers_need_the_same_fingerprint(minilm):
    question = "Can I take amoxicillin with my allergy?"
    found, _ = lookup_after_storing(minilm, question, question, used_profile=True, stored_fp="aaa", asked_fp="bbb")
    assert found.entry is None and "profile" in found.rejected[0][1]
    found, _ = lookup_after_storing(minilm, question, question, used_profile=True, stored_fp="aaa", asked_fp="aaa")
    assert found.entry is not None
    found, _ = lookup_after_storing(minilm, question, question, used_profile=False, asked_fp="zzz")
    assert found.entry is not None


def test_ttl_and_lru_bounds():
    now = [1000.0]
    cache = ResponseCache(threshold=0.5, max_entries=3, ttl_seconds=60, clock=lambda: now[0])
    for i in range(5):
        vector = np.zeros(4, dtype=np.float32)
        vector[i % 4] = 1.0
        cache.put(CacheEntry(id=f"e{i}", query=f"q{i}", vector=vector, signature=query_signature(f"q{i}"),
                             answer="a", sources=[], used_profile=False, profile_fingerprint="", created=now[0]))
    assert len(cache) == 3
    now[0] += 61
    probe = np.array([1, 0, 0, 0], dtype=np.float32)
    assert cache.lookup("q4", probe, query_signature("q4"), "").entry is None
    assert len(cache) == 0


def test_counters_add_up_tokens_and_time_saved(minilm):
    question = "How is high blood pressure treated?"
    cache = ResponseCache()
    cache.put(CacheEntry(id="x", query=question, vector=minilm.embed([question])[0], signature=query_signature(question),
                         answer="a", sources=[], used_profile=False, profile_fingerprint="", created=cache.clock(),
                         prompt_tokens=700, completion_tokens=120, generation_ms=2500.0))
    cache.lookup(question, minilm.embed([question])[0], query_signature(question), "")
    counters = cache.counters.as_dict()
    assert counters["hits"] == 1 and counters["tokens_saved"] == 820 and counters["ms_saved"] == 2500.0


def test_phrasing_varies_without_touching_numbers_drugs_or_warnings():
    answer = ("Metformin 500 mg is usually taken twice a day with meals [1]. Also, it is a first-line medicine. "
              "Do not take it if your kidney function is very low. Also, regular checks help.")
    varied = vary_phrasing(answer, "How do I take metformin?", "en")
    assert varied != answer
    assert numbers(varied) == numbers(answer)
    assert medical_words(varied) >= medical_words(answer)
    assert "Do not take it if your kidney function is very low." in varied
    assert "Metformin 500 mg is usually taken twice a day with meals [1]." in varied
    korean = vary_phrasing("메트포르민 500mg은 하루 두 번 복용합니다. 또한 식사와 함께 드세요.", "메트포르민 복용법", "ko")
    assert "500mg" in korean and "하루 두 번" in korean
