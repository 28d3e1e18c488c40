"""Turn-path safety, adversarially: the real clinical rules (red flags, extraction,
conflicts) inside the real agent graph. The FakeLLM writes the model's words, which do not
matter here; what is checked is what the turn path does around them.

- every red-flag category, in both languages, wrapped in small talk, is an emergency turn:
  no canned reply, no cache hit, the guidance first in the final answer;
- negated red flags raise nothing;
- whichever draft wins, the emergency guidance opens it and its citations resolve to the
  documents it was written from;
- a cache hit still stores the facts its message states.
"""

from __future__ import annotations

import pytest

from engine.agent.cache import CacheEntry, ResponseCache, query_signature
from engine.agent.ephemeral import EphemeralMemory
from engine.agent.nodes import quality
from engine.agent.pipeline import run_turn
from engine.agent.prompting import SMALL_TALK
from engine.passage import Passage
from engine.agent.wiring import ClinicalService
from engine.clinical.red_flags import MESSAGES
from engine.events import Alerts, AnswerReplaced, Done, Sources, Token
from engine.llm.fake import FakeLLM
from tests.engine.agent.fakes import FakeKnowledge, HashEmbedder, make_services

# One statement per red-flag category, written from the category (not from any report).
RED_FLAGS = {
    "unconscious": ("my dad collapsed and is unresponsive", "아버지가 쓰러져서 의식이 없어요"),
    "anaphylaxis": ("my throat is closing up after eating peanuts", "땅콩 먹고 나서 목이 부어서 숨쉬기가 힘들어요"),
    "breathing_difficulty": ("I can't breathe and my lips are turning blue", "숨을 못 쉬겠어요 입술이 파래요"),
    "chest_pain": ("crushing chest pain going down my left arm", "가슴이 쥐어짜듯 아프고 식은땀이 나요"),
    "stroke": ("her face is drooping and her speech is slurred", "갑자기 한쪽 팔에 힘이 빠지고 말이 어눌해요"),
    "suicidal_thoughts": ("I want to end my life", "요즘 살고 싶지 않아요"),
    "overdose": ("I took a whole bottle of sleeping pills", "수면제를 한꺼번에 20알 먹었어요"),
    "major_bleeding": ("I'm vomiting blood", "피를 토했어요"),
    "worst_headache": ("worst headache of my life, came on suddenly", "갑자기 머리가 깨질 것 같은 극심한 두통이 와요"),
    "seizure": ("my son is having a seizure right now", "아이가 경련을 하고 있어요"),
    "infant_fever": ("my 2-month-old baby has a fever of 38.5", "생후 2개월 아기가 열이 나요"),
}
# Small talk around the statement: the shapes an acknowledgement rule could mistake.
WRAPPERS = {
    "en": ("ok, {}", "thanks, {}", "Thank you so much. {}", "hi, {}", "great, {} thanks"),
    "ko": ("네 그런데 {}", "감사 근데 {}", "알겠어요. {}", "안녕하세요 {}", "좋아요 {} 감사합니다"),
}
CRISIS = ("I keep thinking about hurting myself", "I don't want to be alive anymore", "thanks, I overdosed",
          "자해를 하고 싶어요", "죽고 싶다는 생각이 들어요", "약을 많이 먹었어요")
NEGATED = ("ok thanks, no chest pain today", "she denies chest pain or shortness of breath",
           "no vomiting blood, just nausea", "감사합니다, 가슴 통증은 없어요", "경련은 없었어요 감사합니다",
           "피를 토하지는 않았어요")
CASES = [(category, language, wrapper.format(statement))
         for category, statements in RED_FLAGS.items()
         for language, statement in zip(("en", "ko"), statements)
         for wrapper in WRAPPERS[language]]


@pytest.fixture(scope="module")
def clinical(clinical_pack):
    return ClinicalService()


def run(text, services):
    events = list(run_turn(text, services))
    assert isinstance(events[-1], Done)
    return events, events[-1].result


def answer_services(clinical, *replies, **kwargs):
    llm = FakeLLM(list(replies) or ["Please get help now [1]."] * 3)
    return make_services(llm, clinical=clinical, **kwargs)


@pytest.mark.parametrize("category,language,text", CASES, ids=[f"{c}-{l}-{i % 5}" for i, (c, l, _t) in enumerate(CASES)])
def test_red_flag_wrapped_in_small_talk_is_an_emergency_turn(clinical, category, language, text):
    events, result = run(text, answer_services(clinical))
    guidance = MESSAGES[language][category]
    emergency = [a for a in result["alerts"] if a["kind"] == "emergency"]
    assert [a["category"] for a in emergency] == [category]
    # a statement of the emergency alone: the guidance is the whole answer, no model words
    assert result["answer"] == guidance and result["answer"] not in SMALL_TALK.values()
    assert result["trace"]["intent"] == "emergency" and result["trace"]["llm_calls"] == 0
    assert not result["trace"]["cache_hit"] and result["trace"]["nodes"][0] == "extract_and_triage"
    kinds = [type(e) for e in events]
    first_token = next(e for e in events if isinstance(e, Token))
    assert kinds.index(Alerts) < kinds.index(Token) and first_token.text.startswith(guidance)


@pytest.mark.parametrize("category,language,text", CASES[::5], ids=[c for c, _l, _t in CASES[::5]])
def test_red_flag_with_a_question_is_answered_after_the_guidance(clinical, category, language, text):
    question = text + (" 어떻게 해야 하나요?" if language == "ko" else " What should I do?")
    events, result = run(question, answer_services(clinical, "Model words [1].", "Model words [1].",
                                                   "Model words [1]."))
    assert [a["category"] for a in result["alerts"] if a["kind"] == "emergency"] == [category]
    assert result["trace"]["intent"] == "question"
    assert result["answer"].startswith(MESSAGES[language][category] + "\n\nModel words")


def test_a_statement_that_only_resembles_an_emergency_is_answered_after_the_notice(clinical_pack):
    from engine.clinical.similar_emergencies import SimilarEmergencies
    from engine.knowledge import make_embedder
    from engine.settings import Settings

    embedder = make_embedder(Settings())
    clinical = ClinicalService(similar=SimilarEmergencies(lambda texts: embedder.embed(list(texts))))
    text = "I swallowed every pill in my cupboard an hour ago."  # no red-flag rule, a close labelled emergency
    _events, result = run(text, answer_services(clinical, "Model words [1].", "Model words [1].", "Model words [1]."))
    emergency = [a for a in result["alerts"] if a["kind"] == "emergency"]
    assert [(a["category"], a["detected_by"]) for a in emergency] == [("overdose", "similar")]
    assert result["trace"]["intent"] == "question"
    assert result["answer"].startswith(emergency[0]["message"] + "\n\nModel words")
    # A red-flag rule's statement alone is still answered by its guidance only.
    _events, result = run("I'm vomiting blood", answer_services(clinical))
    assert result["trace"]["intent"] == "emergency" and result["answer"] == MESSAGES["en"]["major_bleeding"]


@pytest.mark.parametrize("text", CRISIS)
def test_crisis_wording_in_both_languages_is_an_emergency(clinical, text):
    _events, result = run(text, answer_services(clinical))
    assert [a["category"] for a in result["alerts"] if a["kind"] == "emergency"] in (["suicidal_thoughts"],
                                                                                       ["overdose"])


@pytest.mark.parametrize("text", NEGATED)
def test_negated_red_flags_raise_no_emergency(clinical, text):
    _events, result = run(text, answer_services(clinical, "Noted.", "Noted.", "Noted."))
    assert not [a for a in result["alerts"] if a["kind"] == "emergency"]
    assert not any(result["answer"].startswith(m) for m in MESSAGES["en"].values() if m)
    assert not any(result["answer"].startswith(m) for m in MESSAGES["ko"].values() if m)


@pytest.mark.parametrize("text", ["ok, I want to kill myself", "네 그런데 죽고 싶어요"])
def test_an_emergency_is_never_served_from_the_cache(clinical, text):
    embedder = HashEmbedder()
    cache = ResponseCache()
    cache.put(CacheEntry(id="x", query=text, vector=embedder.embed([text])[0], signature=query_signature(text),
                         answer="You're welcome.", sources=[], used_profile=False, profile_fingerprint="",
                         created=cache.clock()))
    _events, result = run(text, answer_services(clinical, cache=cache))
    assert not result["trace"]["cache_hit"]
    assert result["answer"].startswith(MESSAGES["ko" if "죽" in text else "en"]["suicidal_thoughts"])


def scripted_judge(*scores):
    """A judge with fixed scores, asking for more each time (so the loop retrieves again)."""
    remaining = list(scores)

    def judge(state, services):
        score = remaining.pop(0)
        return {"overall": score, "missing_info": [f"detail {len(remaining)}"], "suggested_query": ""}
    return judge


DOCS = [Passage(f"kb/{i}", f"Passage {i} about chest pain care.", f"Doc {i}", f"kb/{i}#0") for i in range(6)]


@pytest.mark.parametrize("scores,winner", [((0.2, 0.6), 1), ((0.45, 0.2), 0), ((0.3, 0.4, 0.35), 1)])
def test_the_chosen_draft_keeps_its_documents_and_the_guidance(clinical, monkeypatch, scores, winner):
    monkeypatch.setattr(quality, "judge", scripted_judge(*scores))
    knowledge = FakeKnowledge(DOCS, rotate=True)
    drafts = [f"Draft {i} says see a doctor [1]." for i in range(3)]
    services = answer_services(clinical, *drafts, knowledge=knowledge)
    events, result = run("thanks, crushing chest pain going down my left arm. Can I take aspirin?", services)
    guidance = MESSAGES["en"]["chest_pain"]
    assert result["trace"]["iterations"] >= 1
    assert result["answer"] == f"{guidance}\n\n{drafts[winner]}"
    sources_events = [e.sources for e in events if isinstance(e, Sources)]
    retrieved = [[s["doc_id"] for s in sources] for sources in sources_events]
    assert [s["doc_id"] for s in result["sources"]] == retrieved[winner]
    assert retrieved[-1] == retrieved[winner]
    replaced = [e.text for e in events if isinstance(e, AnswerReplaced)]
    assert replaced and all(text.startswith(guidance) for text in replaced)
    shown = ""
    for event in events:
        if isinstance(event, Token):
            shown += event.text
        elif isinstance(event, AnswerReplaced):
            shown = event.text
    assert shown == result["answer"]


class RecordingMemory(EphemeralMemory):
    def __init__(self):
        super().__init__()
        self.updates: list[str] = []

    def update_profile(self, slots, text):
        self.updates.append(text)
        return super().update_profile(slots, text)


def test_a_cache_hit_still_stores_the_facts_of_its_message(clinical):
    memory = RecordingMemory()
    services = answer_services(clinical, "Amoxicillin treats strep throat [1].", memory=memory)
    services.settings.features.self_refine = False
    question = "Can I take amoxicillin for my strep throat?"
    assert not run(question, services)[1]["trace"]["cache_hit"]
    hit = run(question, services)[1]
    assert hit["trace"]["cache_hit"]
    assert hit["trace"]["nodes"][:3] == ["extract_and_triage", "store_memory", "check_cache"]
    assert memory.updates == [question, question]
    assert [c["name"] for c in memory.profile()["conditions"]] == ["strep throat"]


def test_allergy_alert_and_no_cache_reuse_across_patients(clinical):
    cache = ResponseCache()
    embedder = HashEmbedder()
    first = EphemeralMemory()
    services = answer_services(clinical, "Amoxicillin treats strep throat [1].", memory=first, cache=cache)
    services.settings.features.self_refine = False
    services.embedder = embedder
    assert not run("Can I take amoxicillin for strep throat?", services)[1]["trace"]["cache_hit"]
    allergic = EphemeralMemory()
    allergic.update_profile(clinical.extract("I'm allergic to penicillin."), "I'm allergic to penicillin.")
    other = answer_services(clinical, "Use a non-penicillin antibiotic [1].", memory=allergic, cache=cache)
    other.settings.features.self_refine = False
    other.embedder = embedder
    result = run("Can I take amoxicillin for strep throat?", other)[1]
    assert not result["trace"]["cache_hit"]
    assert any("patient facts" in d for d in result["trace"]["decisions"])
    assert any(a["kind"] != "emergency" and "penicillin" in a["message"].lower() for a in result["alerts"])
    same_facts = answer_services(clinical, memory=EphemeralMemory(), cache=cache)
    same_facts.settings.features.self_refine = False
    same_facts.embedder = embedder
    assert run("Can I take amoxicillin for strep throat?", same_facts)[1]["trace"]["cache_hit"]


def test_llm_mode_triages_first(clinical):
    services = answer_services(clinical, "I am a language model.")
    events = list(run_turn("ok, I want to kill myself", services, mode="llm"))
    result = events[-1].result
    assert result["trace"]["nodes"] == ["extract_and_triage", "generate_answer", "store_response"]
    assert result["answer"].startswith(MESSAGES["en"]["suicidal_thoughts"])
    assert any(isinstance(e, Alerts) and e.alerts for e in events)


@pytest.mark.parametrize("text,language", [("crushing chest pain going down my left arm", "en"),
                                           ("가슴이 쥐어짜듯 아프고 식은땀이 나요", "ko")])
def test_alerts_carry_their_message_in_both_languages(clinical, text, language):
    _events, result = run(text, answer_services(clinical))
    (alert,) = [a for a in result["alerts"] if a["kind"] == "emergency"]
    assert alert["messages"] == {"en": MESSAGES["en"]["chest_pain"], "ko": MESSAGES["ko"]["chest_pain"]}
    assert alert["message"] == MESSAGES[language]["chest_pain"]


def test_a_korean_question_naming_the_drug_in_english_gets_the_korean_alert(clinical):
    """The conflict alert frames a Korean answer: its message is in the question's language
    even when the medicines were typed in English; `messages` keeps both."""
    services = answer_services(clinical, "Model words [1].", "Model words [1].", "Model words [1].")
    _events, result = run("amoxicillin 먹어도 되나요? penicillin 알레르기가 있어요. 어떻게 해야 하나요?", services)
    conflicts = [a for a in result["alerts"] if a["kind"] == "allergy_conflict"]
    assert conflicts, result["alerts"]
    for alert in conflicts:
        assert set(alert["messages"]) == {"en", "ko"}
        assert alert["message"] == alert["messages"]["ko"] and any("\uac00" <= c <= "\ud7a3" for c in alert["message"])


@pytest.mark.parametrize("text,language,notice", [
    ("amoxicillin 먹어도 되나요? penicillin 알레르기가 있어요.", "ko", "출처로 답변을 구성하지 못했습니다"),
    ("I'm allergic to penicillin. Can I take amoxicillin?", "en", "could not put an answer together"),
])
def test_a_fault_in_writing_the_answer_still_gives_the_alerts_and_the_sources(clinical, monkeypatch, text, language,
                                                                            notice):
    """A bug in the composer (a KeyError, say) must not cost the turn its allergy alert or its sources: the
    answer is the notice, the alerts and the retrieved passages, and the trace names the fault's type only."""
    from engine.agent.nodes import answer

    def broken(*_args, **_kwargs):
        raise KeyError(140112039329296)
        yield  # a generator, like the writer it stands in for

    monkeypatch.setattr(answer, "write_answer", broken)
    services = answer_services(clinical)
    services.settings.features.self_refine = False
    events, result = run(text, services)
    conflicts = [a for a in result["alerts"] if a["kind"] == "allergy_conflict"]
    assert conflicts
    assert notice in result["answer"]
    assert conflicts[0]["message"] in result["answer"]
    assert "[1]" in result["answer"]
    assert any(isinstance(e, AnswerReplaced) for e in events)
    assert any("writing the answer failed (KeyError)" in d for d in result["trace"]["decisions"])
    assert not any("140112039329296" in d for d in result["trace"]["decisions"])
