"""The answer composer with the real MiniLM embedder, the real concept pack and lexicon."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest

from engine.agent.answer_framing import korean_key_terms, texts
from engine.agent.answer_framing import lead as lead_text
from engine.agent.composer import asked_part, compose, english_query, is_message, question_kind
from engine.passage import Passage
from engine.agent.support import SupportChecker
from engine.text import hangul_share, tokenize
from tests.engine.agent.kb_fixture import DOCUMENTS

DOCS = [Passage(doc_id, text, title=title) for doc_id, title, text in DOCUMENTS]
HYPO_FIRST = [DOCS[1], DOCS[0], DOCS[2], DOCS[7]]
CITED = re.compile(r"\[(\d)\]")


def scored_pool(minilm, page, question: str):
    """One page's candidate sentences, their vectors and the question's, as `select` takes them."""
    from engine.agent.composer import candidates
    from engine.agent.support import evidence_from

    checker = SupportChecker(minilm)
    pool = candidates(evidence_from([page]))
    return pool, checker.vectors([e.text for e in pool]), checker.vectors([question])[0]


@pytest.mark.parametrize("question, kind", [
    ("What is high blood pressure?", "definition"),
    ("What causes gout?", "causes"),
    ("What are the symptoms of low blood sugar?", "symptoms"),
    ("How is osteoporosis diagnosed?", "diagnosis"),
    ("How is asthma treated?", "treatment"),
    ("How can I prevent the flu?", "prevention"),
    ("How much metformin can I take?", "dosage"),
    ("Can I take ibuprofen with warfarin?", "interaction"),
    ("My child has a fever. What should I do?", "what_to_do"),
    ("통풍은 왜 생기나요?", "causes"),
    ("저혈당 증상이 뭐예요?", "symptoms"),
    ("고혈압 약을 먹고 있는데 두통이 심해요. 어떻게 해야 하나요?", "what_to_do"),
    ("와파린 먹는데 아스피린 같이 먹어도 되나요?", "interaction"),
    ("What are the side effects of metformin?", "side_effects"),
    ("대상포진 백신 맞아도 되나요? 부작용은요?", "side_effects"),
    ("설사를 하루에 열 번 해요. 어떻게 해야 하나요?", "what_to_do"),  # a count, not a dose
    ("타이레놀 하루에 몇 알까지 먹어도 돼요?", "dosage"),
    ("My child was diagnosed with croup. What are the symptoms?", "symptoms"),  # the sentence that asks
    ("아이 머리에 이가 생겼어요. 머릿니 어떻게 없애요?", "treatment"),
    ("How do you get rid of head lice?", "treatment"),
    ("노로바이러스 장염 안 걸리려면 어떻게 해요?", "prevention"),
    ("빈혈이 있으면 뭘 먹어야 하나요?", "what_to_do"),  # what to eat, not what anemia is
    ("성인은 하루에 칼슘을 얼마나 먹어야 하나요?", "dosage"),
    ("What helps a sore throat?", "treatment"),
    ("Is there a vaccine for shingles?", "prevention"),
    ("Does sunscreen prevent skin cancer?", "prevention"),  # "sunscreen" is no screening test
    ("Can I take ibuprofen while pregnant?", "definition"),  # a precaution, nothing taken with it
    ("Is grapefruit juice OK with simvastatin?", "interaction"),
    ("How much ibuprofen can I take in a day?", "dosage"),
    ("지르텍(세티리진) 먹으면 졸려요? 부작용 알려주세요", "side_effects"),  # the request asks too
    ("아이에게 해열제는 몇 시간마다 먹여요?", "dosage"),
    ("아기가 열이 38도인데 해열제 몇 ml 먹여야 해요?", "dosage"),
    ("How many ml of Tylenol can I give my baby?", "dosage"),
    ("갑상선 기능 저하증 약은 평생 먹어야 하나요?", "treatment"),
    ("아버지가 치매 초기 진단을 받았어요. 진행을 늦출 수 있나요?", "treatment"),
    ("Can dementia be slowed down?", "treatment"),
    ("무엇을 먹어야 하나요?", "what_to_do"),  # food, not a medicine
    ("편두통에 좋은 약은 뭐예요?", "treatment"),
    ("어지러운데 병원 가야 하나요?", "what_to_do"),
    ("임신 중에 타이레놀 먹어도 되나요?", "definition"),  # during pregnancy, not with another medicine
    ("메트로니다졸 먹는 중에 술 마셔도 돼요?", "interaction"),
    ("감기에 걸렸는데 어떻게 하면 빨리 나아요?", "treatment"),
    ("감기는 언제 나아요?", "definition"),  # when, not how: the outlook
    ("어머니가 자꾸 깜빡깜빡하시는데 치매 증상이 뭐예요?", "symptoms"),  # a forgetful mother, no forgotten dose
    ("glimepiride 아침에 깜빡했는데 어떡해요", "what_to_do"),
    ("아이가 중이염인지 어떻게 알 수 있나요?", "symptoms"),
    ("통풍인지 어떻게 알아요 검사 해야되나요", "diagnosis"),
    ("진통제 먹는 중에 술 한잔 해도 되나요?", "interaction"),
    ("독감은 어떻게 막아요?", "prevention"),
    ("Can I take ibuprofen for a headache if I have kidney disease?", "interaction"),  # a medicine with a condition
    ("신장병이 있는데 이부프로펜 먹어도 돼요?", "interaction"),
    ("How much calcium do adults need each day?", "dosage"),
    ("How do you find out if you have a food allergy?", "diagnosis"),
    ("How do I get earwax out safely?", "treatment"),
])
def test_question_kind(question, kind):
    assert question_kind(asked_part(question)) == kind


@pytest.mark.parametrize("question, kind", [
    ("I take lisinopril. Is it OK to take potassium supplements or a salt substitute too?", "interaction"),
    ("I take spironolactone. Can I use a salt substitute?", "interaction"),
    ("Is it safe to take sildenafil if I use nitroglycerin?", "interaction"),
    ("Can I take my levothyroxine at the same time as my calcium supplement?", "interaction"),
    ("I take metformin. What is diabetes?", "definition"),
    ("Can I use ibuprofen for a headache?", "treatment"),
    # "I'm on" names what is taken as "I am on" does; asked for a condition, it is still taken together
    ("I'm on warfarin. Can I take ibuprofen for my back pain?", "interaction"),
    ("I am on warfarin. Can I take ibuprofen?", "interaction"),
    ("Can I give my child ibuprofen for a fever?", "treatment"),
])
def test_what_is_taken_together_may_be_named_outside_the_sentence_that_asks(question, kind):
    from engine.agent.composer import asked_kind

    assert asked_kind(question) == kind


def _slots(medicines=(), symptoms=(), conditions=()):
    def items(names, asked):
        return [{"name": n, "negated": False, **({"asked_about": True} if asked else {})} for n in names]
    return {"medications": items(medicines, True), "symptoms": items(symptoms, False),
            "conditions": items(conditions, False)}


@pytest.mark.parametrize("question, slots, kind", [
    ("아이가 열이 나요. 해열제 먹여도 되나요?", _slots(["antipyretics"], ["fever"]), "treatment"),
    ("머리가 아픈데 타이레놀 먹어도 되나요?", _slots(["acetaminophen"], ["headache"]), "treatment"),
    ("두통이 있는데 타이레놀 먹어도 돼요?", _slots(["acetaminophen"], ["headache"]), "treatment"),
    ("I have a headache. Can I take Tylenol?", _slots(["acetaminophen"], ["headache"]), "treatment"),
    # a condition beside the medicine, or nothing the patient feels: whether it is safe
    ("신장병이 있는데 이부프로펜 먹어도 돼요?", _slots(["ibuprofen"], conditions=["kidney disease"]), "interaction"),
    ("임신 중에 타이레놀 먹어도 되나요?", _slots(["acetaminophen"]), "definition"),
    ("열이 나요. 해열제는 몇 시간마다 먹여요?", _slots(["antipyretics"], ["fever"]), "dosage"),
    # whether a medicine is needed for a condition asks how the condition is treated; whether it may be taken,
    # whether it is safe
    ("독감 걸렸는데 타미플루 먹어야 하나요?", _slots(["oseltamivir"], conditions=["flu"]), "treatment"),
    ("I have the flu. Should I take Tamiflu?", _slots(["oseltamivir"], conditions=["flu"]), "treatment"),
    ("Do I need antibiotics for a sinus infection?", _slots(["antibiotics"], conditions=["sinusitis"]), "treatment"),
    ("아이가 열이 39도예요. 해열제 뭐 먹여야 해요?", _slots(["antipyretics"], ["fever"]), "treatment"),
    ("I have diabetes. Can I take ibuprofen?", _slots(["ibuprofen"], conditions=["diabetes"]), "definition"),
])
def test_whether_a_medicine_may_be_taken_for_the_complaint_beside_it_asks_how_the_complaint_is_treated(
        question, slots, kind):
    from engine.agent.composer import asked_kind

    assert asked_kind(question, slots) == kind


@pytest.mark.parametrize("question", ["공복 혈당 126 mg/dL이면 당뇨인가요?", "My LDL is 160 mg/dL, is that high?",
                                      "How often should I get a mammogram?"])
def test_a_lab_value_or_a_screening_interval_is_no_dose_question(question):
    assert question_kind(question) != "dosage"


def test_which_medicine_to_give_is_no_question_about_food():
    from engine.agent.composer import asks_about_food

    assert not asks_about_food("아이가 열이 39도예요. 해열제 뭐 먹여야 해요?")
    assert not asks_about_food("감기약 뭘 먹어야 돼요?")
    assert asks_about_food("빈혈이 있으면 뭘 먹어야 하나요?")


def test_surgery_is_no_drink_taken_with_a_medicine():
    assert question_kind("수술 전에 아스피린 먹어도 돼요?") != "interaction"  # 수술 holds 술


def test_an_english_lead_names_the_topic_in_the_askers_words(minilm):
    slots = {"conditions": [{"text": "low blood sugar", "name": "hypoglycemia", "concept_id": "C0020615"}]}
    composition = compose(question="What are the symptoms of low blood sugar?", language="en", slots=slots,
                          documents=HYPO_FIRST, checker=SupportChecker(minilm))
    assert composition.text.startswith("Symptoms of low blood sugar (hypoglycemia) described in the sources:")


def test_english_answer_is_three_to_six_cited_source_sentences(minilm):
    slots = {"conditions": [{"name": "hypoglycemia", "concept_id": "C0020615"}]}
    composition = compose(question="What are the symptoms of low blood sugar?", language="en", slots=slots,
                          documents=HYPO_FIRST, checker=SupportChecker(minilm))
    sourced = [s for s in composition.sentences if s.kind == "sourced"]
    assert 3 <= len(sourced) <= 6
    assert all(s.source is not None and s.support >= 0.6 for s in sourced)
    assert sourced[0].text.startswith("Symptoms include shaking")  # the asked kind first
    texts = {d.text for d in HYPO_FIRST}
    for sentence in sourced:  # every sentence is its cited passage's own sentence
        assert sentence.text in HYPO_FIRST[sentence.source - 1].text
        assert f"{sentence.text} [{sentence.source}]" in composition.text
    assert composition.text.startswith("Symptoms of hypoglycemia described in the sources:")
    assert composition.sentences[-1].kind == "notice"
    assert texts


def test_alerts_and_patient_facts_frame_the_answer_once(minilm):
    alert = {"kind": "interaction", "message": "Bleeding risk: NSAIDs with warfarin."}
    composition = compose(question="Can I take ibuprofen with warfarin?", language="en",
                          slots={"medications": [{"name": "ibuprofen"}, {"name": "warfarin"}]}, documents=DOCS[6:7],
                          checker=SupportChecker(minilm), alerts=[alert, alert],
                          profile_summary="Allergies: none\nMedications: warfarin 5 mg", about_patient=True)
    kinds = [s.kind for s in composition.sentences]
    assert kinds[:3] == ["alert", "profile", "notice"]
    assert composition.text.count("Bleeding risk") == 1
    assert "Patient facts on file: Medications: warfarin 5 mg." in composition.text
    assert "bleeding" in composition.text.lower() and "[1]" in composition.text


def test_korean_question_gets_a_korean_frame_and_quoted_english_evidence(minilm, clinical_pack):
    from engine.clinical import extract

    question = "저혈당 증상이 뭐예요?"
    slots = extract(question)
    composition = compose(question=question, language="ko", slots=slots, documents=HYPO_FIRST,
                          checker=SupportChecker(minilm))
    assert composition.query.startswith("What are the symptoms of")
    lines = composition.text.splitlines()
    assert lines[0].startswith("저혈당의 증상")
    assert "영어 원문 근거 (English source text" in composition.text
    listed = [line for line in lines if line.startswith("- ")]
    quoted = [line for line in listed if '"' in line]
    assert 1 <= len(quoted) <= 6 and all(CITED.search(line) for line in quoted)
    # Besides the quotes, at most one line names in Korean what the unquoted sentences say.
    assert all(line.startswith("- 영어 원문을 싣지 않은") and CITED.search(line) for line in listed if line not in quoted)
    assert hangul_share(composition.text) >= 0.4
    assert any("증상" in line for line in quoted)  # the facet named in Korean
    assert "진단이 아닙니다" in composition.text


def test_nothing_relevant_gives_no_answer_rather_than_a_guess(minilm):
    composition = compose(question="What causes gout?", language="en", slots={}, documents=[],
                          checker=SupportChecker(minilm))
    assert not [s for s in composition.sentences if s.kind == "sourced"]
    assert "no answer is given" in composition.text


LONG_MESSAGE = ("Hi, I have had diabetes for ten years and my doctor changed my pills last month. Sometimes in the "
                "afternoon I get shaky and sweaty and feel really strange, and my wife keeps telling me to eat "
                "something. She thinks it is my sugar but I am not sure. What are the symptoms of low blood sugar? "
                "Thanks for any help.")


def test_a_long_message_is_answered_against_its_focus_and_question_kind(minilm, clinical_pack):
    from engine.clinical import PackConceptFinder, extract
    from engine.knowledge.translation import QueryTranslator

    plan = QueryTranslator(PackConceptFinder()).plan(LONG_MESSAGE)
    assert is_message(LONG_MESSAGE) and not is_message("What are the symptoms of low blood sugar?")
    composition = compose(question=LONG_MESSAGE, language="en", slots=extract(LONG_MESSAGE), documents=HYPO_FIRST,
                          checker=SupportChecker(minilm), plan=plan)
    assert composition.query == "What are the symptoms of hypoglycemia?"
    assert composition.kind == "symptoms"
    assert composition.text.startswith("Symptoms of hypoglycemia described in the sources:")
    sourced = [s for s in composition.sentences if s.kind == "sourced"]
    assert sourced and sourced[0].text.startswith("Symptoms include shaking")
    assert any("long message" in d for d in composition.decisions)
    assert not [d for d in composition.decisions if "sugar" in d or "diabetes" in d]  # nothing of the message


def test_without_a_plan_a_long_message_is_scored_by_the_sentences_that_ask():
    assert asked_part(LONG_MESSAGE) == "What are the symptoms of low blood sugar?"
    assert english_query(LONG_MESSAGE, {}, "symptoms") == "What are the symptoms of low blood sugar?"


def test_korean_key_terms_name_the_concepts_and_medical_words_of_a_sentence():
    assert korean_key_terms("Gout is caused by uric acid crystals that build up in a joint.") == \
        ["통풍", "요산", "결정", "관절"]
    assert korean_key_terms("Kidney stones are treated with shock wave lithotripsy.") == \
        ["요로결석", "치료", "체외충격파 쇄석술"]  # the longest name wins: not 신장 (kidney)
    assert korean_key_terms("It was a long day.") == []
    # A substance is named as a substance, not as the medicine a patient takes (염화칼륨, 칼슘제).
    assert korean_key_terms("Potassium channels keep a nerve cell at rest.")[0] == "칼륨"
    assert korean_key_terms("Milk is rich in calcium.")[-1] == "칼슘"
    # A word the sentence denies is not listed: "no cure" is no 완치, "do not get a fever" no 열.
    assert korean_key_terms("Asthma is a long-term disease that has no cure.") == ["천식", "장기", "질병"]
    assert korean_key_terms("Most people with shingles do not get a fever.") == ["대상포진"]
    # Blood pressure that falls is low blood pressure, not a fall (낙상).
    assert korean_key_terms("Your blood pressure drops when you stand up.") == ["혈압 저하"]
    assert "낙상" not in korean_key_terms("Blood pressure falls when you stand up quickly.")
    # "Measures" to take are steps, not measurements (측정).
    assert "측정" not in korean_key_terms("Measures should be taken to prevent tick bites.")
    assert "측정" in korean_key_terms("Blood pressure is measured with a cuff.")
    # Everyday health words too, not only concepts: what to do at home is named in Korean.
    assert korean_key_terms("Wash bedding and clothing in hot water.") == ["씻기", "침구", "의류", "뜨거운 물"]
    assert korean_key_terms("A hernia pushes through a weak spot in the muscle wall.") == ["탈장", "약한 부분", "근육"]
    assert "온몸" in korean_key_terms("Fibromyalgia causes long-term pain spread throughout the body.")
    assert korean_key_terms("Cancer of the fallopian tube may cause pain.")[1] == "나팔관"  # no bare 관 (a tube)
    # A word's food sense only where the sentence speaks of food; a cold pack is no common cold.
    assert korean_key_terms("Some pediculicides have an ovicidal effect (kill eggs).")[-1] == "알"
    assert "달걀" in korean_key_terms("Eat foods such as eggs and meat.")
    # The eye's lens only beside the eye: an endoscope's lens is 렌즈.
    assert korean_key_terms("A colonoscope is a thin, tube-like instrument with a light and a lens for viewing.") == ["렌즈"]
    assert "수정체" in korean_key_terms("A cataract is a clouding of the lens in the eye.")
    # Wrapping is care only when something is wrapped: sunglasses that wrap around the face wrap nothing.
    assert "감싸기" not in korean_key_terms("Wear sunglasses that wrap around the face.")
    assert korean_key_terms("Wrap the ice pack in a towel.")[0] == "감싸기"
    # Plurals in -es count as their word ("mouthwashes", "lenses"), not only those in -s.
    assert korean_key_terms("Mouthwashes may make your breath fresher.")[0] == "구강 청결제"
    assert korean_key_terms("Lenses for the eyes can correct vision.")[0] == "수정체"
    # Rest is 휴식 as a measure, not what remains ("the rest") nor a heart "at rest".
    remainder = "The rest is throughout the body in blood, muscle and the fluid between cells."
    assert "휴식" not in korean_key_terms(remainder)
    assert "휴식" in korean_key_terms("Get plenty of rest and drink fluids.")
    assert korean_key_terms("Apply a cold pack to the area.") == ["바르기", "냉찜질"]
    # A likeness names what something resembles, not what it is.
    assert "머리카락" not in korean_key_terms("The airways are lined with hair-like structures called cilia.")
    assert "독감" not in korean_key_terms("Some people have flu-like symptoms.")
    assert "독감" in korean_key_terms("Some people have the flu.")


def test_a_korean_answer_quotes_more_english_only_while_it_stays_korean_enough():
    from engine.agent import composer
    from engine.agent.support import Evidence, Support

    def quotes(sentence: str) -> list:
        return [(Evidence(1, f"{sentence} ({i})", i), Support(f"{sentence} ({i})", source=1)) for i in range(6)]

    def shown(kept) -> str:
        lead = Support(lead_text("treatment", "고혈압", "ko"), kind="notice")
        closing = Support(texts("ko")["disclaimer"], kind="notice")
        return composer.render_composition([], lead, [s for _, s in kept], closing, "ko")

    first = composer.KO_FIRST_QUOTES
    short_ones = quotes("Exercise lowers blood pressure.")
    kept = composer._within_korean_share(short_ones, [], composer.Reading("treatment"), "고혈압", texts("ko"))
    assert first < len(kept) and kept == short_ones[:len(kept)]
    assert hangul_share(shown(kept)) >= composer.KO_MIN_HANGUL

    # Long quotes: the first ones are kept, cut at a clause so that the answer reads more Korean.
    long_ones = quotes("The clinic recommends that people with this condition keep a written record of their "
                       "readings, bring it to every visit, and ask about each change in their care plan.")
    kept = composer._within_korean_share(long_ones, [], composer.Reading("treatment"), "고혈압", texts("ko"))
    assert [e for e, _ in kept] == [e for e, _ in long_ones[:first]]
    assert all(s.text.endswith("…") and long_ones[0][1].text.startswith(s.text[:-2]) for _, s in kept)
    assert hangul_share(shown(kept)) > hangul_share(shown(long_ones[:first]))

    # Quotes that have nowhere to be cut are quoted whole, and the least relevant dropped until the
    # answer reads Korean enough, down to KO_LEAST_QUOTES.
    uncut = quotes("The clinic recommends that people with this condition keep a written record of their "
                   "readings and bring it to every single visit to the clinic for review by the care team")
    assert hangul_share(shown(uncut[:first])) < composer.KO_MIN_HANGUL
    kept = composer._within_korean_share(uncut, [], composer.Reading("treatment"), "고혈압", texts("ko"))
    assert kept == uncut[:len(kept)] and composer.KO_LEAST_QUOTES <= len(kept) < first
    assert hangul_share(shown(kept)) >= composer.KO_MIN_HANGUL or len(kept) == composer.KO_LEAST_QUOTES



def test_a_long_quote_that_would_not_fit_does_not_keep_out_a_short_one_after_it():
    from engine.agent import composer
    from engine.agent.support import Evidence, Support

    def quote(text: str, i: int):
        return Evidence(1, text, i), Support(text, source=1)

    first = [quote(f"Regular exercise lowers high blood pressure in most adults ({i}).", i)
             for i in range(composer.KO_FIRST_QUOTES)]
    long_one = quote("The clinic recommends that people with this condition keep a written record of their "
                     "readings and bring it to every single visit to the clinic for review by the whole care "
                     "team and the pharmacist who knows their other medicines and supplements", 10)
    short_one = quote("Salt raises it.", 11)
    kept = composer._within_korean_share([*first, long_one, short_one], [], composer.Reading("treatment"),
                                         "고혈압", texts("ko"))
    assert kept == [*first, short_one]


def test_a_korean_answer_quotes_a_shorter_sentence_alone_when_its_best_one_reads_too_english():
    from engine.agent import composer
    from engine.agent.support import Evidence, Support

    def quote(text: str, i: int):
        return Evidence(1, text, i), Support(text, source=1)

    # A list the cut may not shorten: every cut point would drop its "not".
    unbreakable = quote("To prevent it, travelers should avoid: drinking tap water, using tap water to brush their "
                        "teeth, or using ice made from tap water; drinking unpasteurized milk or milk products; "
                        "eating raw fruits and vegetables, including lettuce and fruit salads, unless they peel "
                        "them themselves; eating raw or rare meat and fish; eating meat or shellfish that is not "
                        "hot when served; eating food from street vendors.", 0)
    short_one = quote("Washing hands often helps prevent it.", 1)
    lead = Support(lead_text("prevention", "설사", "ko"), kind="notice")
    closing = Support(texts("ko")["disclaimer"], kind="notice")

    def share(kept) -> float:
        return hangul_share(composer.render_composition([], lead, [s for _, s in kept], closing, "ko"))

    assert share([unbreakable]) < composer.KO_MIN_HANGUL
    kept = composer._within_korean_share([unbreakable, short_one], [], composer.Reading("prevention"), "설사",
                                         texts("ko"))
    assert kept == [short_one] and share(kept) >= composer.KO_MIN_HANGUL
    # With nothing shorter to quote, the best quote stays.
    assert composer._within_korean_share([unbreakable], [], composer.Reading("prevention"), "설사",
                                         texts("ko")) == [unbreakable]


def test_a_korean_answer_quotes_at_most_six_sentences_however_short():
    from engine.agent import composer
    from engine.agent.support import Evidence, Support

    many = [(Evidence(1, f"Exercise lowers it ({i}).", i), Support(f"Exercise lowers it ({i}).", source=1))
            for i in range(composer.MAX_SENTENCES_KO)]
    kept = composer._within_korean_share(many, [], composer.Reading("treatment"), "고혈압", texts("ko"))
    assert composer.KO_FIRST_QUOTES < len(kept) == composer.MAX_SENTENCES < composer.MAX_SENTENCES_KO


def test_the_glance_and_unquoted_lines_name_up_to_fifteen_terms():
    from engine.agent.answer_framing import TERMS_LISTED, korean_gist, korean_unquoted

    sentences = [("Symptoms include fever, cough, headache, rash, nausea, vomiting, diarrhea, dizziness, fatigue, "
                  "chills, sore throat, runny nose, back pain, chest pain and swelling.", 2)]
    line = korean_unquoted(sentences, "")
    assert line.startswith("영어 원문을 싣지 않은 근거 문장 [2]") and line.count("[2]") == TERMS_LISTED + 1 == 16
    assert korean_gist(sentences, "symptoms", "").count("[2]") == TERMS_LISTED

def test_a_korean_answer_says_at_a_glance_what_its_quotes_name():
    from engine.agent.answer_framing import korean_gist, qualifier_names

    lead = lead_text("causes", "통풍", "ko")
    gist = korean_gist([("Gout is caused by uric acid crystals in a joint.", 1),
                        ("Sudden swelling of a joint is common.", 2)], "causes", lead)
    assert gist.startswith("한눈에 보기") and "출처의 원인 관련 문장" in gist
    assert "요산 [1]" in gist and "관절 [1][2]" in gist
    assert "통풍" not in gist  # the topic is in the lead already
    assert "갑작스러운" in qualifier_names() and "갑작스러운" not in gist  # a qualifier is no fact
    assert korean_gist([("It was a long day.", 1)], "causes", lead) == ""
    # Symptoms are listed, not the diseases a symptom sentence compares them with.
    symptoms = korean_gist([("Gallstone pain may be similar to appendicitis and may come with nausea.", 1)],
                           "symptoms", lead_text("symptoms", "담석", "ko"))
    assert "메스꺼움 [1]" in symptoms and "맹장염" not in symptoms


def test_the_glance_line_takes_only_quotes_about_the_asked_kind_that_deny_nothing():
    from engine.agent import composer
    from engine.agent.support import Support

    lead = Support(lead_text("treatment", "인후통", "ko"), kind="notice")
    closing = Support(texts("ko")["disclaimer"], kind="notice")
    quotes = [Support("Antibiotics do not help a sore throat caused by a virus.", source=1),
              Support("Throat lozenges and warm salt water gargles treat the pain.", source=2),
              Support("Other possible causes of fever include blood clots and some antibiotics.", source=3)]
    shown = composer.render_composition([], lead, quotes, closing, "ko", composer.Reading("treatment"))
    glance = next(line for line in shown.splitlines() if line.startswith("한눈에 보기"))
    assert "출처의 치료 관련 문장" in glance and "[2]" in glance
    assert "항생제" not in glance  # denied in [1], a cause in [3]: neither is a treatment
    assert "[1]" not in glance and "[3]" not in glance
    # The line names what every backed sentence says, also one left unquoted to keep the answer Korean.
    unquoted = Support("Inhaled corticosteroids treat asthma.", source=4)
    gist = composer.glance_line([*quotes, unquoted], composer.Reading("treatment"), lead.text)
    shown = composer.render_composition([], lead, quotes, closing, "ko", composer.Reading("treatment"), gist=gist)
    glance = next(line for line in shown.splitlines() if line.startswith("한눈에 보기"))
    assert "[4]" in glance and "Inhaled corticosteroids" not in shown


def test_a_korean_answer_names_what_the_backed_sentences_it_does_not_quote_say():
    from engine.agent import composer
    from engine.agent.answer_framing import korean_unquoted
    from engine.agent.support import Evidence, Support

    lead = lead_text("definition", "유당불내증", "ko")
    line = korean_unquoted([("Lactose intolerance develops when the small intestine does not make enough "
                             "of this enzyme.", 4)], lead)
    assert line.startswith("영어 원문을 싣지 않은 근거 문장 [4]") and "효소 [4]" in line and "소장 [4]" in line
    assert "유당불내증" not in line  # the topic is in the lead already
    assert korean_unquoted([("It was a long day.", 2)], lead) == ""

    backed = [(Evidence(n, text, 0), Support(text, source=n)) for n, text in enumerate(
        ["Lactose is a sugar in milk.", "Antibiotics do not help lactose intolerance.",
         "The small intestine makes an enzyme."], 1)]
    line = composer.unquoted_line(backed, backed[:1], lead)
    assert "효소 [3]" in line and "항생제" not in line  # a sentence that denies something names nothing
    assert composer.unquoted_line(backed, backed, lead) == ""
    # Terms the glance line names already are not named twice.
    assert "효소" not in composer.unquoted_line(backed, backed[:1], f"{lead} 한눈에 보기 — … 효소 [3]")
    closing = Support(texts("ko")["disclaimer"], kind="notice")
    shown = composer.render_composition([], Support(lead, kind="notice"), [s for _, s in backed[:1]], closing, "ko",
                                        composer.Reading("definition"), unquoted=line)
    assert f"- {line}" in shown and shown.index('"Lactose is a sugar in milk." [1]') < shown.index(line)


def test_a_korean_answer_names_unquoted_terms_only_from_what_is_said_about_the_topic(minilm, clinical_pack):
    from engine.agent.writer import concept_reader
    from engine.clinical import extract

    hives = Passage("hives", "Hives are red and itchy bumps on your skin. Antihistamines relieve the itching of hives. "
                    "Hives usually go away on their own. Avoiding the trigger treats hives caused by an allergy.",
                    title="What are the treatments for Hives ?")
    other = Passage("dish", "Pain relievers such as acetaminophen or ibuprofen may be used to treat pain.",
                    title="What are the treatments for Diffuse idiopathic skeletal hyperostosis ?")
    question = "두드러기는 어떻게 치료해요?"
    checker = SupportChecker(minilm, concept_reader(SimpleNamespace(clinical=SimpleNamespace(extract=extract))))
    composition = compose(question=question, language="ko", slots=extract(question), documents=[hives, other],
                          checker=checker)
    for line in composition.text.splitlines():
        if "이부프로펜" in line or "진통제" in line:  # only beside the quote that says it
            assert '"' in line and "ibuprofen" in line


def test_a_restatement_from_another_source_is_not_quoted_twice(minilm):
    first = Passage("kb/a", "Warning Signs of Anemia The most common sign of anemia is tiredness. Other signs of "
                    "anemia include: Shortness of breath Dizziness Headache Pale skin These signs come from too "
                    "little oxygen.", title="Anemia")
    second = Passage("kb/b", "Anemia can also cause shortness of breath, dizziness, headache and pale skin. "
                     "Iron pills treat anemia caused by low iron.", title="Anemia signs")
    slots = {"conditions": [{"name": "anemia", "concept_id": "C0002871"}]}
    composition = compose(question="What are the symptoms of anemia?", language="en", slots=slots,
                          documents=[first, second], checker=SupportChecker(minilm))
    sourced = [s.text for s in composition.sentences if s.kind == "sourced"]
    assert "Other signs of anemia include: Shortness of breath; Dizziness; Headache; Pale skin." in sourced
    assert not any(s.startswith("Anemia can also cause") for s in sourced)
    assert not any("Warning Signs" in s for s in sourced)


AMLODIPINE = Passage("amlodipine-side", "Amlodipine may cause side effects. Tell your doctor if any of these symptoms "
                     "are severe or do not go away: headache; dizziness; swelling of the ankles.",
                     title="What are the side effects or risks of Amlodipine ?")
WARFARIN = Passage("warfarin-side", "Warfarin may cause serious bleeding. Aspirin and warfarin taken together raise "
                   "the risk of bleeding. Call your doctor if you notice unusual bruising.",
                   title="What are the side effects or risks of Warfarin ?")


def test_a_medicine_answer_quotes_no_other_medicine(minilm, clinical_pack):
    from engine.agent.writer import concept_reader
    from engine.clinical import extract

    checker = SupportChecker(minilm, concept_reader(SimpleNamespace(clinical=SimpleNamespace(extract=extract))))
    question = "What are the side effects of aspirin?"
    reactions = Passage("reactions", "Aspirin can upset your stomach and cause bleeding.",
                        title="What is (are) Drug Reactions ?")
    composition = compose(question=question, language="en", slots=extract(question),
                          documents=[AMLODIPINE, WARFARIN, reactions], checker=checker)
    sourced = [s for s in composition.sentences if s.kind == "sourced"]
    assert sourced and all("spirin" in s.text for s in sourced)  # only what names aspirin
    # ... and not on another medicine's own page: warfarin's page is about warfarin.
    assert all(s.source == 3 for s in sourced)
    assert "Amlodipine" not in composition.text
    assert any("another medicine" in d for d in composition.decisions)


@pytest.mark.parametrize("question, language, notice", [
    ("Does cetirizine have side effects?", "en", "The knowledge base has nothing about cetirizine to quote"),
    ("세티리진 부작용이 있나요?", "ko", "지식 베이스에 세티리진에 관해 인용할 내용이 없어"),
    # The medicine is named, not the fever it is for (there may well be pages on fever).
    ("아이가 열이 39도예요. 해열제는 얼마나 먹여야 하나요?", "ko", "지식 베이스에 해열제에 관해 인용할 내용이 없어"),
])
def test_a_medicine_without_a_page_is_named_in_the_refusal(minilm, clinical_pack, question, language, notice):
    from engine.agent.writer import concept_reader
    from engine.clinical import extract

    checker = SupportChecker(minilm, concept_reader(SimpleNamespace(clinical=SimpleNamespace(extract=extract))))
    composition = compose(question=question, language=language, slots=extract(question),
                          documents=[AMLODIPINE], checker=checker)
    assert not [s for s in composition.sentences if s.kind == "sourced"]
    assert composition.text.startswith(notice)
    assert "Amlodipine" not in composition.text


@pytest.mark.parametrize("question", ["Does cetirizine cause drowsiness?", "세티리진 먹으면 졸려요?"])
def test_a_question_whether_a_medicine_causes_a_symptom_asks_for_that_medicine_s_side_effects(
        minilm, clinical_pack, question):
    from engine.agent.writer import concept_reader
    from engine.clinical import extract

    checker = SupportChecker(minilm, concept_reader(SimpleNamespace(clinical=SimpleNamespace(extract=extract))))
    sleepy = Passage("sleepy", "Amlodipine may cause drowsiness and swelling of the ankles.",
                     title="What are the side effects or risks of Amlodipine ?")
    composition = compose(question=question, language="ko" if "먹" in question else "en",
                          slots=extract(question), documents=[sleepy], checker=checker)
    assert composition.kind == "side_effects"
    assert not [s for s in composition.sentences if s.kind == "sourced"]  # another medicine's drowsiness
    assert "Amlodipine" not in composition.text


def test_a_condition_answer_may_quote_a_broader_page(minilm, clinical_pack):
    from engine.agent.writer import concept_reader
    from engine.clinical import extract

    strep = Passage("strep", "Antibiotics are used to treat strep infections. Strep is short for Streptococcus, "
                    "a type of bacteria.", title="What is (are) Streptococcal Infections ?")
    question = "How is strep throat treated?"
    composition = compose(question=question, language="en", slots=extract(question), documents=[strep],
                          checker=SupportChecker(minilm, concept_reader(SimpleNamespace(
                              clinical=SimpleNamespace(extract=extract)))))
    assert "Antibiotics are used to treat strep infections. [1]" in composition.text


def test_the_page_that_answers_the_asked_kind_is_preferred(minilm):
    treatments = Passage("asthma-tx", "Asthma is treated with two kinds of medicines: long-term control medicines "
                         "such as inhaled corticosteroids, and quick-relief inhalers.",
                         title="What are the treatments for Asthma ?")
    research = Passage("asthma-research", "Researchers have found that asthma treatment could be improved for "
                       "children and adults.", title="what research (or clinical trials) is being done for Asthma ?")
    from engine.agent.composer import candidates, page_roles, select
    from engine.agent.support import evidence_from

    documents = [research, treatments]
    answering, aside = page_roles(documents, "treatment")
    assert (answering, aside) == ({2}, {1})
    foot_drop = Passage("foot-drop", "Treatment depends on the specific cause of foot drop.",
                        title="What are the treatments for Foot Drop ?")
    from engine.agent.composer import Topic

    by_name = lambda text: set()  # noqa: E731 - no concept ids: the names decide
    assert page_roles([foot_drop, treatments], "treatment", topic=Topic(names=[{"asthma"}]),
                      concepts=by_name)[0] == {2}  # another disease's treatment page answers nothing here
    checker = SupportChecker(minilm)
    pool = candidates(evidence_from(documents))
    query = "How is asthma treated?"
    common = dict(kind="treatment", topic_terms=["asthma"], sources=2, limit=1, query=query)
    vectors, query_vector = checker.vectors([e.text for e in pool]), checker.vectors([query])[0]
    (first, _), = select(query_vector, pool, vectors, answering=answering, aside=aside, **common)
    assert first.source == 2
    aware = {e.source: r for e, r in select(query_vector, pool, vectors, answering=answering, aside=aside,
                                            **{**common, "limit": 2})}
    plain = {e.source: r for e, r in select(query_vector, pool, vectors, **{**common, "limit": 2})}
    assert aware[2] > plain[2] and aware[1] < plain[1]  # the answering page up, the aside down


def test_a_sentence_from_the_topic_s_own_page_is_preferred(minilm, clinical_pack, monkeypatch):
    """What the whooping cough page says outranks a symptom list on the flu-in-children page."""
    from engine.agent import composer
    from engine.agent.composer import candidates, select
    from engine.agent.support import evidence_from
    from engine.agent.writer import concept_reader
    from engine.clinical import extract

    whooping = Passage("whooping", "Whooping cough is an infectious bacterial disease that causes uncontrollable "
                       "coughing. You may have choking spells or may cough so hard that you vomit.",
                       title="What is (are) Whooping Cough ? (Also called: Pertussis)")
    flu = Passage("flu-child", "Other symptoms you may notice: Chills, sore muscles, and headache; Runny nose; "
                  "Diarrhea and vomiting.", title="What is (are) Your child and the flu ?")
    question = "What are the signs of whooping cough in kids?"
    checker = SupportChecker(minilm, concept_reader(SimpleNamespace(clinical=SimpleNamespace(extract=extract))))
    seen = {}

    def spy(*args, **kwargs):
        seen.update(kwargs)
        return select(*args, **kwargs)

    monkeypatch.setattr(composer, "select", spy)
    compose(question=question, language="en", slots=extract(question), documents=[whooping, flu], checker=checker)
    assert seen["topic_pages"] == {1}
    pool = candidates(evidence_from([whooping, flu]))
    vectors, query_vector = checker.vectors([e.text for e in pool]), checker.vectors([question])[0]
    common = dict(kind="symptoms", topic_terms=["whooping cough"], sources=2, limit=len(pool), query=question)
    plain = {e.text: r for e, r in select(query_vector, pool, vectors, **common)}
    aware = {e.text: r for e, r in select(query_vector, pool, vectors, topic_pages={1}, **common)}
    spells = "You may have choking spells or may cough so hard that you vomit."
    assert aware[spells] == pytest.approx(plain[spells] + composer.RELEVANCE_WEIGHTS["topic_page"])
    assert aware[flu.text] == pytest.approx(plain[flu.text])


def test_a_sentence_about_another_kind_is_less_relevant(minilm, monkeypatch):
    """For a symptoms question a treatment sentence is less relevant than its similarity alone makes it."""
    from engine.agent import composer
    from engine.agent.composer import select

    page = Passage("shingles", "Antiviral medicines can treat shingles if they are started early. "
                   "Shingles causes a painful, blistering rash on one side of the body.",
                   title="What is (are) Shingles ?")
    question = "What are the symptoms of shingles?"
    pool, vectors, query_vector = scored_pool(minilm, page, question)
    common = dict(kind="symptoms", topic_terms=["shingles"], sources=1, limit=len(pool), query=question)
    penalised = {e.position: r for e, r in select(query_vector, pool, vectors, **common)}
    weight = composer.RELEVANCE_WEIGHTS["another_kind"]
    monkeypatch.setitem(composer.RELEVANCE_WEIGHTS, "another_kind", 0.0)
    plain = {e.position: r for e, r in select(query_vector, pool, vectors, **common)}
    assert weight < 0
    assert penalised[0] == pytest.approx(plain[0] + weight) and penalised[1] == pytest.approx(plain[1])


def test_a_list_of_another_kind_is_never_chosen(minilm):
    """What to do for a sprain: the page's list of symptoms is not quoted, however similar."""
    from engine.agent.composer import select

    page = Passage("sprains", "Symptoms include pain, swelling, bruising, and being unable to move your joint. "
                   "At first, treatment usually involves resting the injured area, icing it, and wearing a bandage.",
                   title="What is (are) Sprains and Strains ?")
    question = "What should I do for a sprained ankle?"
    pool, vectors, query_vector = scored_pool(minilm, page, question)
    chosen = select(query_vector, pool, vectors, kind="what_to_do", topic_terms=["sprain"], sources=1,
                    limit=len(pool), query=question)
    assert [e.text[:10] for e, _ in chosen] == ["At first, "]
    asked_symptoms = select(query_vector, pool, vectors, kind="symptoms", topic_terms=["sprain"], sources=1,
                            limit=len(pool), query="What are the symptoms of a sprain?")
    assert any(e.text.startswith("Symptoms include") for e, _ in asked_symptoms)


def test_a_sentence_far_from_the_question_is_never_chosen(minilm):
    """How hepatitis C is found: where to lie after the biopsy says nothing of it, however high the
    test page and its cue word lift it."""
    from engine.agent import composer
    from engine.agent.composer import select

    page = Passage("hepc-dx", "A blood test shows whether you have hepatitis C. "
                   "After the test you rest on your right side for a couple of hours before going home.",
                   title="How to diagnose What I need to know about Hepatitis C ?")
    question = "How is hepatitis C diagnosed?"
    pool, vectors, query_vector = scored_pool(minilm, page, question)
    similarity = {e.text[:10]: float(v @ query_vector) for e, v in zip(pool, vectors)}
    assert similarity["After the "] < composer.QUESTION_FLOOR < similarity["A blood te"]
    chosen = select(query_vector, pool, vectors, kind="diagnosis", topic_terms=["hepatitis c"], sources=1,
                    limit=len(pool), query=question, answering={1})
    assert [e.text[:10] for e, _ in chosen] == ["A blood te"]


@pytest.mark.parametrize("sentence, kind, expected", [
    ("Asthma is treated with two types of medicines: long-term control and quick-relief medicines.", "treatment", True),
    ("Gout is caused by too much uric acid in the blood.", "causes", True),
    ("Hepatitis C is diagnosed with a blood test.", "diagnosis", True),
    ("A blood test will show if you have hepatitis C.", "diagnosis", True),
    ("A blood test will show if you have hepatitis C.", "treatment", False),
    ("A blood test will show if you have hepatitis C or another liver disease.", "diagnosis", False),
    ("The most common symptoms of scabies are intense itching and a rash.", "symptoms", True),
    ("Symptoms of type 2 diabetes include thirst and tiredness.", "symptoms", True),
    ("Asthma is treated with inhalers.", "what_to_do", True),
    ("Some cases of asthma can be treated with one medicine.", "treatment", False),
    ("Asthma is not treated with antibiotics.", "treatment", False),
    ("Kidney stones may be treated by your regular doctor or by a urologist.", "treatment", False),
    ("Treatments for obesity hypoventilation syndrome (OHS) include breathing support.", "treatment", False),
    ("Gallstone symptoms may be similar to those of other conditions.", "symptoms", False),
    ("The treatment for kidney stones usually depends on their size and what they are made of.", "treatment", False),
    ("Gout is caused by too much uric acid in the blood.", "treatment", False),
])
def test_a_sentence_that_gives_the_whole_of_the_asked_kind(sentence, kind, expected):
    from engine.agent.composer import gives_the_whole_kind

    topics = ["asthma", "gout", "hepatitis c", "scabies", "type 2 diabetes", "kidney stone", "obesity", "gallstones"]
    assert gives_the_whole_kind(sentence, kind, topics) is expected


def test_the_whole_kind_is_said_of_the_topic_by_any_of_its_names():
    """A Korean question's topic is the concept's name ("hypertension"); the page says "high blood pressure"."""
    from engine.agent.composer import gives_the_whole_kind
    from engine.text import tokenize

    sentence = ("For most patients, health care providers diagnose high blood pressure when blood pressure readings "
                "are consistently 140/90 mmHg or above.")
    names = [set(tokenize("hypertension")), set(tokenize("high blood pressure"))]
    assert gives_the_whole_kind(sentence, "diagnosis", ["hypertension"], names)
    assert not gives_the_whole_kind(sentence, "diagnosis", ["hypertension"])
    assert not gives_the_whole_kind(sentence, "treatment", ["hypertension"], names)


def test_the_sentence_that_gives_the_whole_kind_is_never_left_out(minilm, monkeypatch):
    """How asthma is treated: two detail sentences about the medicine's dose and plan outweigh, one by one,
    the sentence that says asthma is treated with two types of medicines; it is quoted in place of the
    weaker detail."""
    from engine.agent import composer
    from engine.agent.composer import select

    page = Passage("asthma-tx", "Your doctor may raise the dose of your medicine if your symptoms are not "
                   "under control. A written action plan made with your doctor says which medicine to take each day "
                   "and when. Asthma is treated with two types of medicines: long-term "
                   "control and quick-relief medicines.", title="What are the treatments for Asthma ?")
    question = "What is the treatment for asthma?"
    pool, vectors, query_vector = scored_pool(minilm, page, question)
    common = dict(kind="treatment", topic_terms=["asthma"], sources=1, limit=2, query=question, answering={1})
    # The details weigh more, whatever the embedder says.
    monkeypatch.setitem(composer.RELEVANCE_WEIGHTS, "names_the_topic", -1.0)
    monkeypatch.setattr(composer, "_overview_left_out", lambda *args: None)
    assert not any(e.text.startswith("Asthma is treated") for e, _ in select(query_vector, pool, vectors, **common))
    monkeypatch.undo()
    monkeypatch.setitem(composer.RELEVANCE_WEIGHTS, "names_the_topic", -1.0)
    chosen = [e.text for e, _ in select(query_vector, pool, vectors, **common)]
    assert len(chosen) == 2 and any(text.startswith("Asthma is treated") for text in chosen)


def test_the_main_symptom_takes_the_place_of_a_pair_when_only_pairs_were_chosen(minilm):
    """The symptoms of anemia: a pair of detail sentences outweighs "The most common symptom of anemia is
    fatigue" and fills the answer; the main symptom is quoted in place of the pair."""
    from engine.agent import composer
    from engine.agent.composer import pronoun_pairs, select
    from engine.agent.support import evidence_from

    page = Passage("anemia-sx", "The most common symptom of anemia is fatigue. Other signs of anemia include dizziness, "
                   "headache and pale skin. These signs occur because the heart has to work harder.",
                   title="What are the symptoms of Anemia ?")
    question = "What are the symptoms of anemia?"
    pairs = pronoun_pairs(evidence_from([page]))
    pool, _, query_vector = scored_pool(minilm, page, question)
    pool = pool + [composer.Evidence(before.source, text, before.position) for text, (before, _) in pairs.items()]
    vectors = SupportChecker(minilm).vectors([e.text for e in pool])
    chosen = select(query_vector, pool, vectors, kind="symptoms", topic_terms=["anemia"], sources=1, limit=2,
                    query=question, answering={1}, pairs=pairs)
    assert [e.text for e, _ in chosen] == ["The most common symptom of anemia is fatigue."]


def test_the_main_cause_is_more_relevant(minilm, monkeypatch):
    """"The most common cause is heavy alcohol use" names pancreatitis' main cause without its name."""
    from engine.agent import composer
    from engine.agent.composer import select

    page = Passage("pancreatitis", "Pancreatitis is inflammation of the pancreas. "
                   "The most common cause is heavy alcohol use.", title="What is (are) Pancreatitis ?")
    question = "What causes pancreatitis?"
    pool, vectors, query_vector = scored_pool(minilm, page, question)
    common = dict(kind="causes", topic_terms=["pancreatitis"], sources=1, limit=len(pool), query=question)
    main = {e.position: r for e, r in select(query_vector, pool, vectors, **common)}
    weight = composer.RELEVANCE_WEIGHTS["main_one"]
    monkeypatch.setitem(composer.RELEVANCE_WEIGHTS, "main_one", 0.0)
    plain = {e.position: r for e, r in select(query_vector, pool, vectors, **common)}
    assert weight > 0
    assert main[1] == pytest.approx(plain[1] + weight) and main[0] == pytest.approx(plain[0])


@pytest.mark.parametrize("sentence, kind, main", [
    ("The most common cause is heavy alcohol use.", "causes", True),
    ("The main symptoms of flu are fever and cough.", "symptoms", True),
    ("The most common side effects include nausea.", "side_effects", True),
    ("The most common cause is heavy alcohol use.", "symptoms", False),
    ("Heart disease is the leading cause of death.", "causes", False),
])
def test_a_sentence_about_the_main_one_of_a_kind(sentence, kind, main):
    from engine.agent.composer import states_the_main_one

    assert states_the_main_one(sentence, kind) is main


def test_the_topic_s_own_name_is_no_symptom_named():
    from engine.agent.composer import beyond_the_topic, facet, speaks_to

    treated = "If you have whooping cough, treatment with antibiotics may help if given early."
    assert speaks_to(treated, "symptoms")  # "cough", inside the topic's name
    said = beyond_the_topic(treated, ["whooping cough"])
    assert not speaks_to(said, "symptoms") and facet(said, "symptoms") == "treatment"
    spells = "You may have choking spells or may cough so hard that you vomit."
    assert beyond_the_topic(spells, ["whooping cough"]) == spells and speaks_to(spells, "symptoms")
    assert beyond_the_topic("Pancreatitis causes pain.", ["pancreatiti"]).strip() == "causes pain."


def test_what_another_condition_is_does_not_say_what_the_topic_is_or_what_causes_it():
    from engine.agent.composer import defines_another
    from engine.text import tokenize

    asked = set(tokenize("What causes an ingrown toenail? ingrown toenail"))
    assert defines_another("Athlete's foot is a common infection caused by a fungus.", asked)
    assert defines_another("PLMD is a condition in which a person's legs twitch during sleep.", asked)
    assert not defines_another("An ingrown toenail is a nail that grows into the skin.", asked)
    assert not defines_another("It is a common problem.", asked)
    assert not defines_another("This condition is a common one in teenagers.", asked)
    assert not defines_another("Shoes that are too tight can cause ingrown toenails.", asked)


def test_a_long_korean_quote_ends_at_a_list_item_never_mid_clause():
    from engine.agent.composer import shortened_quote

    text = ("Symptoms of a calcium carbonate overdose include: abdominal pain; bone pain; coma; confusion; "
            "constipation; depression; diarrhea; headache; irregular heartbeat.")
    short = shortened_quote(text, 80)
    assert short.endswith(" …") and text.startswith(short[:-2]) and short[:-2].endswith("confusion")
    assert shortened_quote(text, 400) == text
    unbreakable = "A" * 30 + " sentence without any list or clause boundary at all in it that is long enough."
    assert shortened_quote(unbreakable, 20) == unbreakable


def test_a_shortened_quote_never_quotes_its_opening_condition_alone():
    from engine.agent.composer import shortened_quote

    text = ("If the owner is unwilling to have this done, the animal should be placed in strict isolation for 6 "
            "months and vaccinated 1 month before being released.")
    assert shortened_quote(text, 80) == text
    listed = ("When a dog bites, clean the wound with soap and water, apply an antibiotic cream, and cover it with a "
              "clean bandage every day until it heals.")
    assert shortened_quote(listed, 80) == "When a dog bites, clean the wound with soap and water, apply an antibiotic cream …"


def test_a_footnote_mark_after_a_full_stop_ends_the_sentence_and_is_not_quoted():
    """"The pain usually lasts from 1 to several hours.1 Gallbladder attacks often follow heavy meals …" was
    quoted as one sentence, with the footnote read as a number."""
    from engine.agent.support import passage_units

    text = ("The pain usually lasts from 1 to several hours.1 Gallbladder attacks often follow heavy meals. "
            "They affect about 17 percent of the population.2,3 Take 2.5 mg daily.")
    assert passage_units(text) == ["The pain usually lasts from 1 to several hours.",
                                   "Gallbladder attacks often follow heavy meals.",
                                   "They affect about 17 percent of the population.", "Take 2.5 mg daily."]


def test_a_quote_cut_short_names_the_key_terms_of_its_whole_sentence():
    """The cut BPH list ("… may include: urinary frequency …") named only the terms before the cut, so the
    Korean reader saw nothing of what followed it."""
    from engine.agent import composer
    from engine.agent.support import Support

    whole = ("Symptoms may include: a frequent need to urinate; trouble starting a urine stream; blood in the urine; "
             "pain after ejaculation or during urination.")
    cut = composer.shortened_quote(whole, 60)
    assert cut.endswith(" …") and "blood" not in cut
    lead = Support(lead_text("symptoms", "전립선비대증", "ko"), kind="notice")
    quote = Support(cut, source=1, source_sentence=whole)
    shown = composer.render_composition([], lead, [quote], None, "ko", composer.Reading("symptoms"))
    label = next(line for line in shown.splitlines() if line.startswith("- "))
    assert "혈뇨" in label and cut in label


def test_a_shortened_quote_keeps_the_negation_of_its_sentence():
    from engine.agent.composer import shortened_quote
    from engine.agent.support import Evidence, SupportChecker

    text = ("You can give your child acetaminophen for the fever, plenty of fluids and rest, a cool cloth on the "
            "forehead, and light clothing, but do not give aspirin to a child or a teenager.")
    short = shortened_quote(text, 60)
    assert short == text  # every cut point would drop the "do not"
    checker = SupportChecker(None)
    assert checker.check([short], [Evidence(1, text, 0)])[0].source == 1


def test_a_sentence_about_the_page_is_not_quoted():
    from engine.agent.composer import candidates
    from engine.agent.support import Evidence

    texts = ["The most common form of the disease is open-angle glaucoma.",
             "(Watch the video to learn more about glaucoma.",
             "(This short video discusses causes, symptoms, and treatments for dry eye.)",
             "To find out more, visit Shingles Vaccination: What You Need to Know.",
             "Diagnosis Here is how these anxiety disorders are diagnosed.",
             "Medications for glaucoma (eye drops or pills) lower eye pressure.",
             "More information about how to prevent constipation is provided in the NIDDK health topic, Constipation.",
             "There are many things you can do to prevent constipation.",
             "There are many things you can do to prevent constipation: eat more fiber; drink plenty of water.",
             "If the information is available, the table below includes how often the symptom is seen.",
             "Signs and Symptoms Approximate number of patients (when available) Anteverted nares 90% Aplasia 50%.",
             "The NINDS supports a broad range of research on neural tube defects aimed at finding ways to prevent them.",
             "The middle image shows where varicose veins might appear in a leg.",
             "Figure B shows a varicose vein with a deformed valve, abnormal blood flow, and thin, stretched walls.",
             "The images can show the presence of kidney stones in the urinary tract.",
             "Go to the National Heart, Lung, and Blood Institute's (NHLBI's) \"Asthma Action Plan\" for a sample plan.",
             "Visit GeneReviews for more detailed information about the signs and symptoms of this syndrome.",
             "(For a sample plan, go to the National Heart, Lung, and Blood Institute's \"Asthma Action Plan.\")",
             "Go to the nearest hospital emergency room if the bleeding does not stop.",
             "Visit your doctor for regular checkups and recommended tests.",
             "Research programs of the NINDS and the NIMH seek to address unanswered questions about the causes "
             "of ADHD, as well as to improve diagnosis and treatment.",
             "Treatment aims to address the underlying cause of the condition.",
             "Recent studies have shown that folic acid in the diet of women of child-bearing age lowers the risk.",
             "Scientists are continually improving MRI and other brain scans that may assist in diagnosing epilepsy.",
             "Research is ongoing to determine optimal doses of vitamin D supplementation.",
             "Significant advances in preventing and treating osteoporosis continue to be made.",
             "More research is needed to know whether it helps.",
             "Essential tremor Normal pressure hydrocephalus Multiple system atrophy More information on each of "
             "these conditions is available in the NINDS publication."]
    kept = [e.text for e in candidates([Evidence(1, t, i) for i, t in enumerate(texts)])]
    assert kept == [texts[0], texts[5], texts[8], texts[14], texts[18], texts[19], texts[-7], texts[-6], texts[-2]]


def test_a_quote_is_labelled_by_its_purpose_the_asked_kind_and_whether_a_medicine_was_asked_about():
    from engine.agent.composer import facet, names_the_means

    assert facet("To treat a spider bite: Wash the area well with soap and water; Take over-the-counter pain "
                 "medicine, if needed.") == "treatment"
    assert facet("To prevent insect bites: Use insect repellant; Wear protective clothing.") == "prevention"
    assert facet("Gallstones can cause sudden pain in the upper right abdomen.", "symptoms") == "symptoms"
    assert facet("Gallstones can cause sudden pain in the upper right abdomen.") == "causes"
    assert facet("The rest is throughout the body in blood, muscle and the fluid between cells.", "dosage") != "treatment"
    assert facet("Get plenty of rest and drink fluids.") in ("treatment", "what_to_do")
    norovirus = "People infected with norovirus typically experience nausea, vomiting and diarrhea."
    assert facet(norovirus, "prevention") == "symptoms"
    # A symptom named only as what a test is done on tells how the condition is found.
    sputum = "Your doctor may look at a sample of sputum (spit) collected from you after a deep cough."
    assert facet(sputum, "symptoms") == "diagnosis"
    assert facet("Symptoms include a cough that a chest x-ray may explain.", "symptoms") == "symptoms"
    assert facet("Aspirin may cause nausea and an upset stomach.", "side_effects", medicine=True) == "side_effects"
    assert facet("Common reactions are nausea and an upset stomach.", "", medicine=True) == "side_effects"
    assert facet("Side effects can include soreness and redness where the shot was given.") == "side_effects"
    # Outside a question about a medicine, "together" or "bleeding" alone is no interaction.
    assert facet("A computer puts the pictures together to create detailed images of the colon.",
                 "diagnosis") == "other"
    assert facet("Severe bleeding may require first aid or a trip to the emergency room.", "what_to_do") == "what_to_do"
    assert facet("Do not take aspirin together with warfarin.", "diagnosis") == "interaction"
    assert facet("A computer puts the pictures together.", "", medicine=True) == "interaction"
    # "the rest of your body" is no advice to rest.
    assert facet("Your blood does not carry enough oxygen to the rest of your body.", "what_to_do") != "what_to_do"
    assert facet("Get plenty of rest and drink fluids.", "what_to_do") == "what_to_do"
    interactions = "One problem is interactions between two drugs, such as aspirin and blood thinners."
    assert facet(interactions, "side_effects", medicine=True) == "interaction"  # not treatment for its "drugs"
    # Lowering a risk is prevention, whatever the asked kind; raising one is a cause.
    folic = "Adding folic acid to the diet of women may significantly reduce the incidence of neural tube defects."
    assert facet(folic, "prevention") == facet(folic, "definition") == "prevention"
    assert facet("Taking aspirin can lower your risk of a heart attack.", "definition") == "prevention"
    assert facet("Smoking increases the risk of a heart attack.", "definition") == "causes"
    assert facet("A neural tube defect affects the spine and its protective coverings.", "prevention") != "prevention"
    # A healthy diet is a means of prevention; a child who appears healthy is none.
    assert facet("Eat a healthy diet and stay active.", "prevention") == "prevention"
    assert facet("Infants who are affected generally appear healthy before the incident.", "prevention") != "prevention"
    # Home measures that ease a symptom treat it; the pain they ease does not make them a symptom.
    lozenges = "Sucking on lozenges, drinking lots of liquids, and gargling may ease the pain."
    assert facet(lozenges, "treatment") == "treatment"
    assert names_the_means(lozenges, "treatment")
    assert names_the_means("Decongestants help clear a runny nose and relieve postnasal drip.", "treatment")
    assert not names_the_means("Often, colds and flu cause sore throats.", "treatment")



def test_a_list_of_complications_is_labelled_ordered_and_shown_as_other_in_both_languages():
    from engine.agent import composer
    from engine.agent.support import Evidence, Support

    complications = "The complications of benign prostatic hyperplasia may include: acute urinary retention; bladder stones."
    assert composer.facet(complications, "symptoms") == composer.facet(complications) == "other"
    reading = composer.Reading("symptoms")
    symptom = "A weak urine stream is a symptom of benign prostatic hyperplasia."
    ordered = composer.reading_order([Evidence(1, complications, 0), Evidence(1, symptom, 1)], reading)
    assert [e.text for e in ordered] == [symptom, complications]
    closing = Support(texts("ko")["disclaimer"], kind="notice")
    quotes = [Support(symptom, source=1), Support(complications, source=1)]
    shown = composer.render_composition([], Support(lead_text("symptoms", "전립선비대증", "ko"), kind="notice"), quotes,
                                        closing, "ko", reading)
    assert any(line.startswith("- 참고") and "complications" in line for line in shown.splitlines())

def test_a_definition_answer_opens_with_what_the_topic_is():
    from engine.agent import composer
    from engine.agent.support import Evidence

    aneurysms = Evidence(1, "Common locations for aneurysms are the aorta and the arteries in your brain.", 9)
    defined = Evidence(2, "High blood pressure is a common disease in which blood flows at higher than normal pressures.", 0)
    reading = composer.Reading("definition")
    assert composer.facet(aneurysms.text, "definition") == composer.facet(defined.text, "definition") == "definition"
    assert composer.reading_order([aneurysms, defined], reading) == [aneurysms, defined]  # passage rank alone
    ordered = composer.reading_order([aneurysms, defined], reading, ["hypertension", "high blood pressure"])
    assert ordered == [defined, aneurysms]
    # Other kinds keep passage rank and position.
    treatment = composer.Reading("treatment")
    assert composer.reading_order([aneurysms, defined], treatment, ["high blood pressure"]) == [aneurysms, defined]


def test_an_answer_opens_with_the_sentence_that_says_it_lists_the_topics_asked_kind():
    from engine.agent import composer
    from engine.agent.support import Evidence

    drugs = Evidence(1, "Some drugs reduce pressure by slowing the flow of fluid into the eye.", 0)
    overview = Evidence(2, "Glaucoma treatments include medicines, laser surgery, conventional surgery, or a "
                           "combination of any of these.", 0)
    treatment = composer.Reading("treatment")
    assert composer.reading_order([drugs, overview], treatment, ["glaucoma"]) == [overview, drugs]
    assert composer.reading_order([drugs, overview], treatment) == [drugs, overview]  # no topic: passage rank

    main = Evidence(3, "The main symptom is pain in the abdomen, often on the right side.", 0)
    later = Evidence(1, "Later symptoms include: Chills and shaking; Diarrhea; Fever.", 0)
    assert composer.reading_order([later, main], composer.Reading("symptoms"), ["appendicitis"]) == [main, later]
    # Some or more of them, or another thing's list that names the topic, do not open the answer.
    for text in ("Some signs of hypoglycemia during sleep include: crying out or having nightmares.",
                 "Other symptoms of hypoglycemia include: sweating; shakiness."):
        assert not composer.overview(text, "symptoms", ["hypoglycemia"])
    assert not composer.overview("Common causes of skin lumps include: Lipomas; Cysts; Warts.", "causes", ["wart"])


def test_the_page_that_answers_the_asked_kind_is_read_even_when_ranked_after_the_first_five():
    from engine.agent.composer import Topic, passages_used
    from engine.passage import Passage
    from engine.text import tokenize

    titles = ["What is (are) Gastroenteritis ?", "What is (are) Norovirus Infections ?",
              "What causes Viral Gastroenteritis ?", "How to diagnose Viral Gastroenteritis ?",
              "What to do for Viral Gastroenteritis ?", "How to prevent Gastritis ?",
              "How to prevent Viral Gastroenteritis ?", "How to diagnose Gastroenteritis ?"]
    documents = [Passage(doc_id=str(n), text="Text.", title=t) for n, t in enumerate(titles)]
    topic = Topic(set(), [set(tokenize("gastroenteritis"))])
    no_concepts = lambda text: set()  # noqa: E731
    assert passages_used(documents, "prevention", topic, no_concepts) == [1, 2, 3, 4, 5, 7]
    assert passages_used(documents, "diagnosis", topic, no_concepts) == [1, 2, 3, 4, 5]  # the fourth answers it
    assert passages_used(documents, "treatment", topic, no_concepts) == [1, 2, 3, 4, 5]  # none does
    assert passages_used(documents[:3], "prevention", topic, no_concepts) == [1, 2, 3]


def test_a_page_that_gives_the_topic_another_name_makes_pages_under_that_name_about_the_topic():
    from engine.agent.composer import Topic, passages_used, with_other_names
    from engine.passage import Passage
    from engine.text import tokenize

    titles = ["What is (are) Foodborne Illness ? (Also called: Food Poisoning)", "What is (are) Poisoning ?",
              "How to prevent Marine Toxins ?", "What is (are) Food Safety ?", "What causes Foodborne Illnesses ?",
              "How to prevent Parasites ?", "How to prevent Foodborne Illnesses ?"]
    documents = [Passage(doc_id=str(n), text="Text.", title=t) for n, t in enumerate(titles)]
    topic = Topic({"C0016479"}, [set(tokenize("food poisoning"))])
    no_concepts = lambda text: set()  # noqa: E731
    assert passages_used(documents, "prevention", topic, no_concepts) == [1, 2, 3, 4, 5]
    widened = with_other_names(topic, documents)
    assert set(tokenize("foodborne illness")) in widened.names and widened.ids == topic.ids
    assert passages_used(documents, "prevention", widened, no_concepts) == [1, 2, 3, 4, 5, 7]
    # A page that names only itself widens nothing, nor does an alias list of a page on another topic.
    assert with_other_names(topic, documents[1:]).names == topic.names
    assert with_other_names(Topic(set(), [set(tokenize("poisoning"))]), documents[:1]).names == [set(tokenize("poisoning"))]
    # A longer name that holds a name of two words or more is a kind of it; one word stands for no kinds.
    nash = Passage(doc_id="n", text="Text.", title="What causes Nonalcoholic steatohepatitis ? (Also called: NASH; "
                                                   "Non-alcoholic fatty liver disease)")
    fatty = with_other_names(Topic(set(), [set(tokenize("fatty liver disease"))]), [nash])
    assert set(tokenize("nonalcoholic steatohepatitis")) in fatty.names
    insipidus = Passage(doc_id="d", text="Text.", title="What is (are) Diabetes insipidus ? (Also called: DI; "
                                                        "Nephrogenic diabetes insipidus)")
    assert with_other_names(Topic(set(), [set(tokenize("diabetes"))]), [insipidus]).names == [set(tokenize("diabetes"))]


def test_what_something_is_is_quoted_from_the_topic_itself_not_from_a_related_page():
    from engine.agent.composer import MIN_SENTENCES, Topic, of_the_topic_itself
    from engine.agent.support import Evidence
    from engine.passage import Passage
    from engine.text import tokenize

    documents = [Passage("e", "Text.", title="What is (are) Endometriosis ?"),
                 Passage("c", "Text.", title="What is (are) Endometrial Cancer ?")]
    topic = Topic(set(), [set(tokenize("endometriosis"))])
    no_concepts = lambda text: set()  # noqa: E731
    own = [Evidence(1, f"Endometriosis sentence {i}.", i) for i in range(MIN_SENTENCES)]
    related = [Evidence(2, "Cancer of the endometrium is different from cancer of the muscle of the uterus.", 0),
               Evidence(2, "Endometriosis can look like endometrial cancer on a scan.", 1)]
    assert of_the_topic_itself(own + related, documents, topic, no_concepts) == (own + related[1:], 1)
    # Too few sentences of the topic's own: the pool stays whole.
    assert of_the_topic_itself(own[:1] + related, documents, topic, no_concepts) == (own[:1] + related, 0)
    # A list on another page that holds the topic as one item is not about it; one the topic heads is.
    listed = Evidence(2, "Pelvic pain is often related to problems such as: Endometriosis; Fibroids; Infection.", 2)
    headed = Evidence(2, "Endometriosis can cause: Pain; Infertility; Heavy periods.", 3)
    assert of_the_topic_itself(own + [listed, headed], documents, topic, no_concepts) == (own + [headed], 1)


def test_a_count_of_types_without_the_types_is_not_quoted():
    from engine.agent.composer import candidates
    from engine.agent.support import Evidence

    texts = ["There are several different types of glaucoma.",
             "There are two main types of diabetes: type 1 and type 2.",
             "The most common form of the disease is open-angle glaucoma."]
    kept = [e.text for e in candidates([Evidence(1, t, i) for i, t in enumerate(texts)])]
    assert kept == texts[1:]


def test_a_question_about_a_child_quotes_no_sentence_only_about_adults():
    from engine.agent.composer import for_the_young
    from engine.agent.support import Evidence

    pool = [Evidence(1, "Aspirin is very effective for treating fever in adults.", 0),
            Evidence(1, "Younger children get ear infections more often than older children or adults.", 1),
            Evidence(2, "Give your child plenty of fluids.", 0)]
    child = {"demographics": {"age_group": "child"}}
    assert for_the_young(pool, child) == (pool[1:], 1)
    assert for_the_young(pool, {"demographics": {"age_group": "older_adult"}}) == (pool, 0)
    assert for_the_young(pool, {}) == (pool, 0)


def test_a_question_about_an_adult_quotes_no_sentence_only_about_children():
    from engine.agent.composer import for_grown_ups
    from engine.agent.support import Evidence

    pool = [Evidence(1, "If your child weighs 24 to 35 lbs, give 5 mL.", 0),
            Evidence(1, "Acetaminophen helps reduce fever in children and adults.", 1),
            Evidence(2, "Take acetaminophen every 4 to 6 hours.", 0)]
    question = "How much acetaminophen (Tylenol) can an adult take in one day?"
    assert for_grown_ups(pool, {}, question) == (pool[1:], 1)
    assert for_grown_ups(pool, {"demographics": {"age_group": "40s"}}, "How much acetaminophen can I take?") == (pool[1:], 1)
    assert for_grown_ups(pool, {}, "How much acetaminophen can I take?") == (pool, 0)
    assert for_grown_ups(pool, {}, "How much acetaminophen can a child or an adult take?") == (pool, 0)


def test_a_sentence_in_a_bullet_item_headed_by_the_medicine_is_about_that_medicine(minilm):
    """"Do not take more than 4 grams …" names no medicine; its item's heading does."""
    otc = Passage("otc", "- Acetaminophen. Try this medicine first for your pain. Do not take more than 4 grams "
                  "(4,000 mg) on any 1 day. - Ibuprofen. You can buy it without a prescription. Do not take it for "
                  "more than 10 days.", title="Do you have information about Over-the-counter medicines")
    slots = {"medications": [{"name": "acetaminophen", "asked_about": True}]}
    composition = compose(question="How much acetaminophen can an adult take in one day?", language="en",
                          slots=slots, documents=[otc], checker=SupportChecker(minilm, lambda text: set()))
    quoted = [s.text for s in composition.sentences if s.kind == "sourced"]
    assert "Do not take more than 4 grams (4,000 mg) on any 1 day." in quoted
    assert "Do not take it for more than 10 days." not in quoted


def test_a_list_of_names_without_a_lead_in_is_not_quoted():
    from engine.agent.composer import candidates
    from engine.agent.support import Evidence

    bare = Evidence(1, "Vaginal yeast infection; Vaginitis.", 0)
    led = Evidence(1, "Common causes include: Bacterial infections; Trichomoniasis.", 1)
    long_items = Evidence(2, "Women can get vaginal yeast infections, causing itchiness, pain and discharge; "
                             "Yeast infections of the skin cause itching and rashes.", 0)
    assert candidates([bare, led, long_items]) == [led, long_items]


@pytest.mark.parametrize("sentence, role", [
    ("Varicose veins can lead to dermatitis, an itchy rash.", "cause"),
    ("Sometimes varicose veins cause mild to moderate pain, blood clots, or skin ulcers.", "cause"),
    ("You may need a procedure for skin disorders caused by your varicose veins.", "cause"),
    ("Varicose veins are caused by weak or damaged valves.", "effect"),
    ("Weak or damaged valves can cause varicose veins.", "effect"),
    ("Doctors have identified other conditions that can cause dementia or dementia-like symptoms.", "effect"),
    ("The causes of varicose veins include older age.", ""),
    ("If too many uric acid crystals form as a result of hyperuricemia, gout can develop.", ""),
    ("Memory loss is a common symptom of dementia.", "cause"),
    ("Indigestion can be caused by a condition such as reflux disease, gout, or cancer.", "cause"),
    ("Joint pain can be a sign of: Arthritis; Gout; Lupus.", "cause"),
    ("The symptoms of gout are caused by uric acid crystals.", "effect"),
])
def test_which_side_of_a_cause_the_topic_is_on(sentence, role):
    from engine.agent.composer import causal_role

    assert causal_role(sentence, ["varicose veins", "dementia", "gout"]) == role


def test_a_complication_does_not_answer_what_causes_it_nor_a_cause_what_its_symptoms_are(minilm):
    from engine.agent.composer import off_side, select

    assert off_side("Varicose veins can lead to dermatitis, an itchy rash.", "causes", ["varicose veins"])
    assert not off_side("Varicose veins can lead to dermatitis, an itchy rash.", "symptoms", ["varicose veins"])
    assert off_side("Strokes can cause dementia.", "symptoms", ["dementia"])
    assert off_side("A number of disorders can cause symptoms similar to those of Parkinson disease.", "symptoms",
                    ["parkinson disease"])
    assert off_side("Gallstone symptoms may be similar to those of other conditions, such as appendicitis.",
                    "symptoms", ["gallstones"])
    assert not off_side("The four main symptoms of Parkinson's disease are: tremor; rigidity.", "symptoms",
                        ["parkinson disease"])
    page = Passage("veins", "Varicose veins can lead to dermatitis, an itchy rash, and to skin ulcers. "
                   "Weak or damaged valves in the veins can cause varicose veins.", title="Varicose Veins")
    query = "What causes varicose veins?"
    pool, vectors, query_vector = scored_pool(minilm, page, query)
    (first, _), = select(query_vector, pool, vectors, kind="causes", topic_terms=["varicose veins"], sources=1,
                         limit=1, query=query)
    assert first.text.startswith("Weak or damaged valves")


def test_what_causes_it_is_answered_by_its_causes_not_by_what_it_is_a_sign_of(minilm):
    from engine.agent.composer import candidates, select, speaks_to, topic_words
    from engine.agent.support import evidence_from

    slots = {"conditions": [{"name": "peptic ulcer", "text": "stomach ulcers", "negated": False}]}
    assert topic_words(slots) == ["peptic ulcer", "stomach ulcer"]
    assert speaks_to("The most common cause is infection with a bacterium called Helicobacter pylori.", "causes")
    assert speaks_to("Common causes include: bacterial infections; trichomoniasis.", "causes")
    ulcer = Passage("ulcer", "The most common cause is infection with a bacterium called Helicobacter pylori.",
                    title="Peptic Ulcer")
    others = Passage("pain", "Abdominal pain can be a sign of: Appendicitis; Gallstones; Stomach ulcer; Hernia. "
                     "Indigestion can be caused by a condition such as reflux disease, peptic ulcer disease, or cancer.",
                     title="Abdominal pain")
    checker = SupportChecker(minilm)
    pool = candidates(evidence_from([ulcer, others]))
    query = "What causes stomach ulcers?"
    vectors, query_vector = checker.vectors([e.text for e in pool]), checker.vectors([query])[0]
    (first, _), = select(query_vector, pool, vectors, kind="causes", topic_terms=topic_words(slots), sources=2,
                         limit=1, query=query)
    assert "Helicobacter pylori" in first.text



def test_a_korean_answer_weighs_a_long_list_by_the_quote_it_would_show(minilm):
    from engine.agent.composer import (KO_TIGHTER_LETTERS, LONGEST_KO, RELEVANCE_FEATURES,
                                       relevance_features, relevance_weights, select)
    from engine.agent.support import SupportChecker, evidence_from

    steps = ("Ways to reduce the risk include: placing babies on their backs to sleep; using a firm sleep surface, "
             "such as a crib mattress covered with a fitted sheet; keeping soft objects and loose bedding away from "
             "the sleep area; keeping babies from getting too hot.")
    page = Passage("sids", steps, title="Sudden Infant Death Syndrome")
    query = "sudden infant death syndrome prevention"
    pool, vectors, query_vector = scored_pool(minilm, page, query)
    common = dict(kind="prevention", topic_terms=["sudden infant death syndrome"], sources=1, query=query,
                  longest=LONGEST_KO)
    long = RELEVANCE_FEATURES.index("long")
    whole = relevance_features(query_vector, pool, vectors, **common)
    as_cut = relevance_features(query_vector, pool, vectors, quote_letters=KO_TIGHTER_LETTERS[0], **common)
    assert whole[0][long] == 1 and as_cut[0][long] == 0
    (_, relevance), = select(query_vector, pool, vectors, limit=1, quote_letters=KO_TIGHTER_LETTERS[0], **common)
    assert relevance == pytest.approx(float(as_cut[0] @ relevance_weights()))

KIDNEY_TREATMENT = Passage("kidney-tx", "Non-steroidal anti-inflammatory drugs (NSAIDs) can harm your kidneys, "
                           "especially if you have kidney disease. If you have kidney disease, do not use NSAIDs. "
                           "Treatment for kidney disease may include medicines that lower blood pressure.",
                           title="What are the treatments for Kidney Disease ?")
OTC = Passage("otc", "You can buy some NSAIDs, such as ibuprofen and naproxen, without a prescription. Take "
              "ibuprofen every 6 to 8 hours. Ibuprofen helps reduce fever in children and adults.",
              title="Do you have information about Over-the-counter medicines")


@pytest.mark.parametrize("question, language, lead", [
    ("Can I take ibuprofen for a headache if I have kidney disease?", "en",
     "What the sources say about taking ibuprofen with kidney disease:"),
    ("신장병이 있는데 이부프로펜 먹어도 돼요?", "ko", "환자의 이부프로펜 복용에 대해 출처에서 찾은 내용입니다."),
])
def test_whether_a_medicine_is_safe_with_a_condition_is_answered_about_both(minilm, question, language, lead):
    """Not only sentences that name the medicine: the kidney page's warning about NSAIDs is the answer."""
    slots = {"conditions": [{"name": "kidney disease", "concept_id": "C0022658"}],
             "medications": [{"name": "ibuprofen", "concept_id": "C0020740", "asked_about": True}]}
    by_name = lambda text: set()  # noqa: E731 - no concept ids: the names decide
    checker = SupportChecker(minilm, by_name)
    composition = compose(question=question, language=language, slots=slots, documents=[KIDNEY_TREATMENT, OTC],
                          checker=checker)
    assert composition.kind == "interaction"
    first_line = composition.text.splitlines()[0]
    assert first_line == lead if language == "en" else first_line.endswith(lead) and "kidney" not in first_line
    sourced = [s.text for s in composition.sentences if s.kind == "sourced"]
    assert any("do not use NSAIDs" in text for text in sourced)
    # A dose or a use of the medicine alone says nothing of the kidneys.
    assert not any("every 6 to 8 hours" in text or "reduce fever" in text for text in sourced)
    assert any("speak of only one of the things asked about together" in d for d in composition.decisions)


def test_two_medicines_no_source_speaks_of_together_get_a_notice_saying_so(minilm):
    lisinopril = Passage("lisinopril", "Lisinopril controls high blood pressure but does not cure it. Do not take a "
                         "double dose to make up for a missed one.", title="How should Lisinopril be used ?")
    slots = {"medications": [{"name": "naproxen", "asked_about": True}, {"name": "lisinopril", "asked_about": True}]}
    by_name = lambda text: set()  # noqa: E731 - no concept ids: the names decide
    composition = compose(question="Can I take naproxen with lisinopril?", language="en", slots=slots,
                          documents=[lisinopril], checker=SupportChecker(minilm, by_name))
    assert not [s for s in composition.sentences if s.kind == "sourced"]
    assert "no passage that speaks of naproxen and lisinopril together" in composition.text


def test_a_lead_joining_two_topics_agrees_in_number():
    assert lead_text("treatment", "asthma and eczema", "en") == "How asthma and eczema are treated, according to the sources:"
    assert lead_text("treatment", "asthma", "en") == "How asthma is treated, according to the sources:"


def test_a_question_about_what_to_eat_quotes_what_the_sources_say_about_food(minilm):
    anemia = Passage("anemia-tx", "Treatment for anemia depends on the type, cause, and severity of the condition. "
                     "Hemoglobin is the protein in red blood cells that carries oxygen to the body. To raise your "
                     "iron level, your doctor may ask you to change your diet or take iron supplements. Your body "
                     "can more easily absorb iron from meats than from vegetables or other foods. Blood "
                     "transfusions may be needed for severe anemia.", title="What are the treatments for Anemia ?")
    slots = {"conditions": [{"name": "anemia", "concept_id": "C0002871"}]}
    composition = compose(question="빈혈이 있으면 뭘 먹어야 하나요?", language="ko", slots=slots, documents=[anemia],
                          checker=SupportChecker(minilm))
    assert composition.query == "What foods should people with anemia eat?"
    # Its sentences about food are what to do, labelled and glanced at as such.
    food_line = next(line for line in composition.text.splitlines() if "absorb iron" in line)
    assert food_line.startswith("- 대처 · ") and "한눈에 보기" in composition.text
    # Its lead names food, not "what can be done now".
    assert composition.text.startswith("빈혈에 관련된 음식과 식사에 대해 출처에서 찾은 내용입니다.")
    assert lead_text("what_to_do", "gout", "en", food=True) == "What the sources say about eating and diet with gout:"
    assert lead_text("causes", "gout", "en", food=True) == "What causes gout, according to the sources:"
    from engine.agent.composer import candidates, select
    from engine.agent.support import evidence_from

    checker = SupportChecker(minilm)
    pool = candidates(evidence_from([anemia]))
    vectors, query_vector = checker.vectors([e.text for e in pool]), checker.vectors([composition.query])[0]
    common = dict(kind="what_to_do", topic_terms=["anemia"], sources=1, limit=2, query=composition.query)
    chosen = [e.text for e, _ in select(query_vector, pool, vectors, food=True, **common)]
    assert all(re.search(r"\bdiet\b|\bfoods\b", text) for text in chosen)
    assert "Hemoglobin" in " ".join(e.text for e, _ in select(query_vector, pool, vectors, **common))


CROUP = Passage("croup", "Croup is an inflammation of the vocal cords (larynx) and windpipe (trachea). It causes "
                "difficulty breathing, a barking cough, and a hoarse voice. The cause is usually a virus. "
                "The symptoms are usually worse at night, and last for about three to five days.",
                title="What is (are) Croup ?")
CRPS = Passage("crps", "CRPS most often affects one of the arms, legs, hands, or feet, and the pain often spreads "
               "throughout the entire affected arm or leg. Other signs and symptoms may include swelling and changes "
               "in skin temperature. The key symptom of CRPS is continuous, intense pain.",
               title="What are the symptoms of Complex regional pain syndrome ?")


def _croup_answer(minilm, language="en", question="What are the symptoms of croup?"):
    slots = {"conditions": [{"name": "croup", "concept_id": "C0010380"}]}
    by_name = lambda text: set()  # noqa: E731 - no concept ids: the names decide
    return compose(question=question, language=language, slots=slots, documents=[CRPS, CROUP],
                   checker=SupportChecker(minilm, by_name))


def test_a_pronoun_sentence_is_quoted_right_after_the_sentence_it_follows(minilm):
    composition = _croup_answer(minilm)
    sourced = [s.text for s in composition.sentences if s.kind == "sourced"]
    pronoun = "It causes difficulty breathing, a barking cough, and a hoarse voice."
    assert pronoun in sourced
    assert sourced[sourced.index(pronoun) - 1].startswith("Croup is an inflammation")
    assert f"(trachea). [2] {pronoun} [2]" in composition.text  # each sentence cited
    assert 3 <= len(sourced) <= 6


def test_a_page_about_an_unrelated_topic_is_not_quoted(minilm):
    composition = _croup_answer(minilm)
    assert "CRPS" not in " ".join(s.text for s in composition.sentences if s.kind == "sourced")
    assert any("neither they nor their page are about" in d for d in composition.decisions)


SALINE_WASH = Passage("saline", "Tilt your head to one side over a sink. The water should come out the left nostril. "
                      "Gently blow your nose to remove remaining water and mucus. Be sure you only use distilled, "
                      "boiled, or filtered water.", title="Do you have information about Saline nasal washes")
CLEANING = Passage("cleaning", "Spray the towels with the bleach solution and wait for 20 minutes. When cleaning up "
                   "large blood spills, use an approved solution to kill any viruses such as hepatitis.",
                   title="Do you have information about Cleaning to prevent the spread of germs")
EYE_INJURIES = Passage("eye", "Chemicals or heat can burn your eyes. With chemicals, the pain may cause you to close "
                       "your eyes. You should wash out your eye with water right away and get medical help.",
                       title="What is (are) Eye Injuries ?")
NOSEBLEED = {"symptoms": [{"name": "nosebleed", "concept_id": "CS:nosebleed"}]}


def _answer_by_names(minilm, question: str, slots: dict, documents: list, language: str = "en"):
    """The composition with no concept ids: the names decide what is on topic."""
    return compose(question=question, language=language, slots=slots, documents=documents,
                   checker=SupportChecker(minilm, lambda text: set()))


def _quoted_by_names(minilm, question: str, slots: dict, documents: list) -> list[str]:
    """The sentences `_answer_by_names` quotes from the sources, in order."""
    composition = _answer_by_names(minilm, question, slots, documents)
    return [s.text for s in composition.sentences if s.kind == "sourced"]


def test_an_answer_with_nothing_about_its_topic_says_its_quotes_are_about_other_topics(minilm):
    for language, lead in (("en", "The knowledge base has no passage about nosebleed; the sentences below come "
                                  "from pages on other topics"),
                           ("ko", "다른 주제의 페이지에서 찾은 문장입니다")):
        composition = _answer_by_names(minilm, "What causes nosebleeds?", NOSEBLEED, [SALINE_WASH], language)
        assert [s for s in composition.sentences if s.kind == "sourced"]
        assert lead in composition.text
        assert any("no sentence found is about the question's topic" in d for d in composition.decisions)


CHOKING = Passage("choking", "If you see something blocking the airway and it is loose, try to remove it. Anyone who "
                  "is choking should have a medical examination. Chest compressions may help dislodge the object.",
                  title="Do you have information about Choking - adult or child over 1 year")
SALINE_NAMING_NOSEBLEEDS = Passage("saline", f"{SALINE_WASH.text} Blowing too hard after a wash can start a "
                                   "nosebleed.", title=SALINE_WASH.title)


def test_an_answer_with_little_about_its_topic_says_most_quotes_are_about_other_topics(minilm):
    for language, lead in (("en", "The knowledge base says little about nosebleed; most sentences below come from "
                                  "pages on other topics, so check that they apply:"),
                           ("ko", "대부분 다른 주제의 페이지에서 찾은 것입니다")):
        composition = _answer_by_names(minilm, "What causes nosebleeds?", NOSEBLEED,
                                       [CHOKING, SALINE_NAMING_NOSEBLEEDS], language)
        sourced = [s.text for s in composition.sentences if s.kind == "sourced"]
        assert sourced and not all("nosebleed" in text for text in sourced)
        assert lead in composition.text
        assert any("only 1 sentences are about the question's topic" in d for d in composition.decisions)


def test_asked_what_to_do_another_topic_s_instructions_are_never_quoted(minilm):
    """"My son has a nosebleed. What should I do?" was answered with choking first aid ("… try to remove it")
    and a nasal wash's "Gently blow your nose", under a lead saying they came from other topics."""
    question = "My son has a nosebleed. What should I do?"
    for language in ("en", "ko"):
        composition = _answer_by_names(minilm, question, NOSEBLEED, [CHOKING, SALINE_NAMING_NOSEBLEEDS], language)
        sourced = [s.text for s in composition.sentences if s.kind == "sourced"]
        assert sourced == ["Blowing too hard after a wash can start a nosebleed."]
        assert any("they are instructions for another topic" in d for d in composition.decisions)
        alone = _answer_by_names(minilm, question, NOSEBLEED, [SALINE_WASH], language)
        assert not [s for s in alone.sentences if s.kind == "sourced"]


def test_an_answer_quoting_only_the_few_sentences_about_its_topic_says_nothing_of_other_topics(minilm):
    own = Passage("nosebleed", "A nosebleed is loss of blood from the tissue lining the nose.",
                  title="What is (are) Nosebleed ?")
    composition = _answer_by_names(minilm, "What is a nosebleed?", NOSEBLEED, [own])
    assert "loss of blood from the tissue lining the nose" in composition.text
    assert "says little about" not in composition.text


def test_pages_on_a_loosely_related_topic_are_left_out_when_the_topic_s_own_pages_answer(minilm):
    own = Passage("nosebleed", "A nosebleed is loss of blood from the tissue lining the nose. Pinch the soft part "
                  "of the nose for 10 minutes. Lean forward so that the blood does not run down the throat.",
                  title="What to do for Nosebleed ?")
    composition = _answer_by_names(minilm, "My son has a nosebleed. What should I do?", NOSEBLEED, [own, SALINE_WASH])
    sourced = " ".join(s.text for s in composition.sentences if s.kind == "sourced")
    assert "Pinch the soft part" in sourced and "left nostril" not in sourced
    assert not composition.text.startswith("The knowledge base has no passage about")


COLD_SORES = Passage("cold-sores", "Cold sores are small blisters on or around the lips. They are caused by the herpes "
                     "simplex virus. The virus spreads through close contact such as kissing. Cold sores often come "
                     "back when you are stressed or have a fever.", title="What causes Cold Sores ?")
COMMON_COLD = Passage("common-cold", "The common cold most often causes a runny nose, congestion, and sneezing. You may "
                      "also have a sore throat, cough, headache, or body aches. Colds are caused by more than 200 "
                      "different viruses.", title="What causes Common Cold ?")


def _cold_sore_concepts(text: str) -> set[str]:
    lowered = text.lower()
    return {"C0019345"} if "cold sore" in lowered else {"C0009443"} if "common cold" in lowered else set()


def test_another_concept_s_page_that_shares_a_word_is_left_out_when_the_topic_s_own_page_answers(minilm):
    slots = {"conditions": [{"name": "cold sores", "concept_id": "C0019345"}]}
    composition = compose(question="What causes cold sores?", language="en", slots=slots,
                          documents=[COMMON_COLD, COLD_SORES], checker=SupportChecker(minilm, _cold_sore_concepts))
    sourced = " ".join(s.text for s in composition.sentences if s.kind == "sourced")
    assert "herpes simplex virus" in sourced
    assert "common cold" not in sourced.lower() and "200 different viruses" not in sourced


def test_another_concept_s_close_page_still_answers_when_the_topic_has_few_sentences_of_its_own(minilm):
    slots = {"conditions": [{"name": "cold sores", "concept_id": "C0019345"}]}
    few = Passage("cold-sores", "Cold sores are small blisters on or around the lips.", title="What is (are) Cold Sores ?")
    composition = compose(question="What causes cold sores?", language="en", slots=slots,
                          documents=[COMMON_COLD, few], checker=SupportChecker(minilm, _cold_sore_concepts))
    assert "200 different viruses" in " ".join(s.text for s in composition.sentences if s.kind == "sourced")


def test_a_broader_page_answers_what_the_topic_s_own_page_does_not_say(minilm):
    slots = {"conditions": [{"name": "strep throat", "concept_id": "C0152485"}]}
    own = Passage("strep-throat", "Strep throat is most common in children between ages 5 and 15. Strep throat is "
                  "spread by contact with fluids from the nose or saliva. Strep throat commonly spreads among family "
                  "and household members.", title="What is (are) Strep Throat ?")
    broader = Passage("strep", "Antibiotics such as penicillin cure group A bacterial infections. Group B bacteria can cause blood "
                      "infections in newborns.", title="What is (are) Streptococcal Infections ?")
    concepts = lambda text: ({"C0152485"} if "strep throat" in text.lower()  # noqa: E731
                             else {"C0038402"} if "streptococcal" in text.lower() else set())
    composition = compose(question="How is strep throat treated?", language="en", slots=slots,
                          documents=[own, broader], checker=SupportChecker(minilm, concepts))
    assert "Antibiotics such as penicillin cure group A bacterial infections." in [s.text for s in composition.sentences]


@pytest.mark.parametrize("sentence, names_only", [
    ("The technical name for the throat is pharynx.", True),
    ("Conjunctivitis is the medical name for pink eye.", True),
    ("Another name for mono is the kissing disease.", True),
    ("The name for this condition comes from its shape.", False),
    ("Pharyngitis is inflammation of the pharynx, which is the back of the throat.", False),
    ("It is a common term for several conditions that cause pain in the joints.", False),
])
def test_a_sentence_that_only_gives_a_name(sentence, names_only):
    from engine.agent.composer import only_names

    assert only_names(sentence) is names_only


def test_a_name_is_no_answer_to_what_helps(minilm):
    slots = {"symptoms": [{"name": "sore throat", "concept_id": "C0242429"}]}
    page = Passage("sore-throat", "Your throat is a tube that carries food to your esophagus and air to your windpipe. "
                   "The technical name for the throat is pharynx. Sucking on lozenges, drinking lots of liquids, and "
                   "gargling may ease the pain. Over-the-counter pain relievers can also help.",
                   title="What is (are) Sore Throat ?")
    composition = compose(question="What helps a sore throat?", language="en", slots=slots, documents=[page],
                          checker=SupportChecker(minilm, lambda text: {"C0242429"} if "sore throat" in text.lower()
                                                 else set()))
    sourced = [s.text for s in composition.sentences if s.kind == "sourced"]
    assert "Sucking on lozenges, drinking lots of liquids, and gargling may ease the pain." in sourced
    assert "The technical name for the throat is pharynx." not in sourced


def test_a_question_with_no_recognised_topic_quotes_only_pages_about_what_it_asks(minilm):
    composition = _answer_by_names(minilm, "I splashed bleach in my eye what do I do", {}, [CLEANING, EYE_INJURIES])
    sourced = " ".join(s.text for s in composition.sentences if s.kind == "sourced")
    assert "wash out your eye with water" in sourced
    assert "towels" not in sourced and "blood spills" not in sourced
    assert any("what the question asks or a topic close to it" in d for d in composition.decisions)


def test_a_korean_answer_quotes_a_pronoun_sentence_with_the_sentence_it_follows(minilm, clinical_pack):
    composition = _croup_answer(minilm, "ko", "크룹 증상이 뭐예요?")
    quotes = [line for line in composition.text.splitlines() if line.startswith("- ") and '"' in line]
    first = next(i for i, line in enumerate(quotes) if "Croup is an inflammation" in line)
    assert "It causes difficulty breathing" in quotes[first + 1]
    assert hangul_share(composition.text) >= 0.4


def test_the_korean_share_keeps_or_drops_a_pair_whole():
    from engine.agent import composer
    from engine.agent.support import Evidence, Support

    sentences = ["The symptoms are usually worse at night, and last for about three to five days or longer.",
                 "Most children with croup get better at home with rest, fluids and cool or moist air at night.",
                 "Croup is an inflammation of the vocal cords (larynx) and windpipe (trachea) in young children.",
                 "It causes a sound that parents often describe as something like the bark of a seal, and it tends "
                 "to come and go over several nights in a row before settling down completely without anything."]
    backed = [(Evidence(1, text, i), Support(text, source=1, support=1.0)) for i, text in enumerate(sentences)]
    alone = composer._within_korean_share(backed, [], composer.Reading("symptoms"), "크룹", texts("ko"))
    assert len(alone) == 3  # without the pair: the third quote is the definition, cut from its follower
    follows = {id(backed[3][0]): backed[2][0]}
    kept = composer._within_korean_share(backed, [], composer.Reading("symptoms"), "크룹", texts("ko"), follows=follows)
    shown = [e.text for e, _ in kept]
    assert (sentences[2] in shown) == (sentences[3] in shown)
    assert shown == sentences[:len(shown)]


def test_a_symptoms_question_hears_symptoms_the_lexicon_names():
    from engine.agent.composer import facet, speaks_to

    sentence = "It causes difficulty breathing, a barking cough, and a hoarse voice."
    assert speaks_to(sentence, "symptoms") and facet(sentence, "symptoms") == "symptoms"
    assert not speaks_to(sentence, "prevention")


def test_a_symptom_named_as_an_ability_is_not_a_symptom_sentence():
    from engine.agent.composer import facet, names_a_symptom

    ability = ("Your immune system, the shape of your nose and throat, your ability to cough, and fine, "
               "hair-like structures called cilia help stop the germs from reaching your lungs.")
    assert not names_a_symptom(ability) and facet(ability, "symptoms") != "symptoms"
    assert names_a_symptom("The inability to cough up mucus is common.")
    assert names_a_symptom("You may be able to walk, but a cough with phlegm remains.")


def test_a_pronoun_after_or_leans_on_the_sentence_before():
    from engine.agent.composer import leans_on_the_sentence_before

    assert leans_on_the_sentence_before("Or, they may vomit, have a fever and cough, or appear restless.")
    assert leans_on_the_sentence_before("For example, it can cause a rash.")
    assert not leans_on_the_sentence_before("Or a doctor may order a chest x ray.")


def test_a_definite_subject_after_an_opening_conjunction_leans_on_the_sentence_before():
    from engine.agent.composer import leans_on_the_sentence_before

    assert leans_on_the_sentence_before("As the fluid builds up, the pressure inside the eye rises.")
    assert leans_on_the_sentence_before("When the virus reactivates, it causes shingles.")
    assert leans_on_the_sentence_before("The bacteria live in soil, saliva, dust, and manure.")
    assert not leans_on_the_sentence_before("As people age, the lens of the eye becomes cloudy.")
    assert not leans_on_the_sentence_before("When fluid builds up in the middle ear, it can cause pain.")


def test_these_feelings_near_the_start_lean_on_the_sentence_before_unless_a_list_follows():
    """"You may have these feelings in your chest …" was quoted under 증상 without the sentence that says
    what the feelings are (palpitations)."""
    from engine.agent.composer import leans_on_the_sentence_before

    assert leans_on_the_sentence_before("You may have these feelings in your chest, throat, or neck.")
    assert leans_on_the_sentence_before("These symptoms often get worse at night.")
    assert not leans_on_the_sentence_before("Tell your doctor if any of these symptoms are severe or do not go away: "
                                            "headache; dizziness.")
    assert not leans_on_the_sentence_before("Some women take hormone replacement therapy (HRT) to relieve these "
                                            "symptoms.")


def test_a_pronoun_in_an_opening_clause_leans_on_the_sentence_before():
    from engine.agent.composer import leans_on_the_sentence_before

    assert leans_on_the_sentence_before("Unless this pressure is controlled, it may cause damage to the optic nerve.")
    assert leans_on_the_sentence_before("When this happens, the eye may become red and painful.")
    assert not leans_on_the_sentence_before("If you have glaucoma, see your eye doctor every year.")
    assert not leans_on_the_sentence_before("When glaucoma is found early, treatment can protect vision.")


def test_a_sentence_in_brackets_leans_on_the_sentence_before():
    from engine.agent.composer import leans_on_the_sentence_before

    assert leans_on_the_sentence_before('("Sedated" means you\'re given medicine to make you sleepy.)')
    assert not leans_on_the_sentence_before("Pneumonia (an infection of the lungs) can be mild or severe.")


def test_list_items_that_open_on_an_infinitive_lean_on_their_lead_in():
    """"Your child may need: - To get activated charcoal. … - To be admitted to the hospital …; Blood tests …"
    was quoted from its second item on, in an answer on how much acetaminophen a child may take."""
    from engine.agent.composer import leans_on_the_sentence_before

    assert leans_on_the_sentence_before("To be admitted to the hospital so they can be watched closely; Blood tests "
                                        "to see what the medicine is doing; To have their heart rate monitored.")
    assert not leans_on_the_sentence_before("To give the correct dose, you will need to know your child's weight.")
    assert not leans_on_the_sentence_before("To prevent insect bites and their complications: Don't bother insects; "
                                            "Use insect repellant.")


def test_the_infection_or_the_condition_leans_on_the_sentence_before():
    """Which infection "the infection" is, only its passage says: out of it, a swimmer's ear fact
    reads as one about a child's middle-ear infection."""
    from engine.agent.composer import leans_on_the_sentence_before, pronoun_pairs
    from engine.agent.support import Evidence

    assert leans_on_the_sentence_before("Rarely, the infection may be caused by a fungus.")
    assert leans_on_the_sentence_before("The condition is inherited in an autosomal dominant pattern.")
    assert not leans_on_the_sentence_before("Infection of the middle ear is common in children.")
    assert not leans_on_the_sentence_before("The conditions listed below are common.")
    before = Evidence("5", "Swimmer's ear is an infection of the outer ear canal.", 3)
    after = Evidence("5", "Rarely, the infection may be caused by a fungus.", 4)
    assert list(pronoun_pairs([before, after]).values()) == [(before, after)]


def test_this_condition_or_this_medicine_leans_on_the_sentence_before():
    """Which condition "this condition" is, only the passage says: on the page on dermatitis herpetiformis,
    "The antibiotic dapsone is extremely effective in treating this condition." is no answer for eczema."""
    from engine.agent.composer import leans_on_the_sentence_before

    assert leans_on_the_sentence_before("The antibiotic dapsone is extremely effective in treating this condition.")
    assert leans_on_the_sentence_before("Try this medicine first for your pain.")
    assert not leans_on_the_sentence_before("Dapsone is used to treat dermatitis herpetiformis.")


def test_what_happens_next_leans_on_the_sentence_before():
    """"But then the vocal cords … become swollen, causing the hoarseness" follows what croup starts
    as; alone it says neither what happens first nor which hoarseness. Quoted, it comes with the
    sentence before it."""
    from engine.agent.composer import leans_on_the_sentence_before, pronoun_pairs
    from engine.agent.support import Evidence

    assert leans_on_the_sentence_before("Then the virus spreads to the lungs.")
    assert leans_on_the_sentence_before("Later on, the joints may become stiff.")
    assert not leans_on_the_sentence_before("Thenar muscles may become weak.")
    assert not leans_on_the_sentence_before("Next is a blood test to check the iron level.")
    assert not leans_on_the_sentence_before("The cough then gets worse at night.")
    before = Evidence("3", "Croup often starts out like a cold.", 2)
    after = Evidence("3", "But then the vocal cords and windpipe become swollen, causing the hoarseness and the cough.", 3)
    assert list(pronoun_pairs([before, after]).values()) == [(before, after)]


def test_a_sentence_the_next_one_qualifies_is_quoted_only_with_it():
    """"An alcoholic drink before bedtime might make it easier for you to fall asleep." alone tells an
    insomniac to drink; its passage goes on "However, alcohol triggers sleep that tends to be lighter"."""
    from engine.agent.composer import candidates, pronoun_pairs
    from engine.agent.support import Evidence

    head = Evidence("1", "An alcoholic drink before bedtime might make it easier for you to fall asleep.", 4)
    qualifier = Evidence("1", "However, alcohol triggers sleep that tends to be lighter than normal.", 5)
    other = Evidence("1", "Your bedroom also should be dark and quiet.", 7)
    assert candidates([head, qualifier, other]) == [qualifier, other]
    assert list(pronoun_pairs([head, qualifier, other]).values()) == [(head, qualifier)]


def test_a_rare_disease_symptom_table_is_not_quoted():
    from engine.agent.composer import candidates
    from engine.agent.support import Evidence

    table = "7.5% Paresthesia 7.5% Seizures 7.5% Splenomegaly 7.5% Tapered finger 7.5% Cachexia."
    assert candidates([Evidence(1, table, 0)]) == []


@pytest.mark.parametrize("slots, question, language, lead", [
    ({"medications": [{"name": "oxycodone"}]}, "Is it safe to drink alcohol while taking oxycodone?", "en",
     "What the sources say about drinking alcohol while taking oxycodone:"),
    ({"medications": [{"name": "warfarin"}]}, "와파린 먹는데 술 마셔도 돼요?", "ko",
     "와파린 복용 중 음주에 대해 출처에서 찾은 내용입니다."),
    ({"medications": [{"name": "simvastatin"}]}, "Is grapefruit juice OK with simvastatin?", "en",
     "What the sources say about taking simvastatin with other medicines, food or drink:"),
    ({"medications": [{"name": "ibuprofen"}, {"name": "warfarin"}]}, "Can I take ibuprofen with warfarin?", "en", ""),
    ({"conditions": [{"name": "gout"}]}, "Can I drink beer if I have gout?", "en",
     "What the sources say about drinking alcohol with gout:"),
    ({"conditions": [{"name": "gout"}]}, "통풍이 있는데 맥주 마셔도 되나요?", "ko", "통풍 환자의 음주에 대해 출처에서 찾은 내용입니다."),
])
def test_an_interaction_lead_names_what_the_medicine_is_taken_with(slots, question, language, lead):
    from engine.agent.answer_framing import interaction_lead

    assert interaction_lead(slots, question, language) == lead


def test_a_pronoun_sentence_that_could_not_stand_as_a_statement_forms_no_pair():
    from engine.agent.composer import pronoun_pairs
    from engine.agent.support import evidence_from

    passage = Passage("p", "Croup is an inflammation of the vocal cords and windpipe. This fact sheet describes "
                      "croup in young children. The cause is usually a virus. It spreads through coughing and "
                      "sneezing.", title="Croup")
    pairs = pronoun_pairs(evidence_from([passage]))
    assert [after.text for _, after in pairs.values()] == ["It spreads through coughing and sneezing."]


def test_a_sentence_that_names_these_types_of_something_is_quoted_only_after_the_sentence_before():
    from engine.agent.composer import candidates, pronoun_pairs
    from engine.agent.support import evidence_from

    passage = Passage("p", "Anemia caused by a lack of iron or vitamins is common in pregnancy. Dietary changes or "
                      "supplements can prevent these types of anemia from occurring again.", title="Anemia")
    evidence = evidence_from([passage])
    assert [e.text for e in candidates(evidence)] == [evidence[0].text]
    assert [after.text for _, after in pronoun_pairs(evidence).values()] == [evidence[1].text]


def test_a_korean_question_with_no_recognised_term_quotes_nothing(minilm):
    """Its passages were retrieved by chance: nothing can be matched to the question."""
    air = Passage("air", "Air pollution is a mixture of solid particles and gases in the air. Ozone, a gas, is a "
                  "major part of air pollution in cities. Air pollution can harm the heart and lungs.",
                  title="Do you have information about Air Pollution")
    composition = compose(question="결절종이 뭐예요?", language="ko", slots={}, documents=[air],
                          checker=SupportChecker(minilm, lambda text: set()))
    assert not [s for s in composition.sentences if s.kind == "sourced"]
    assert composition.text.startswith(texts("ko")["unrecognised"])
    assert any("no medical term" in d for d in composition.decisions)
    # Nothing is cited, so the answer does not close as "general information from the cited sources".
    assert texts("ko")["disclaimer"] not in composition.text
    assert [s.kind for s in composition.sentences] == ["notice"]


def test_a_poor_diet_as_a_cause_does_not_answer_what_to_eat():
    from engine.agent.composer import speaks_to

    assert speaks_to("To raise your iron level, your doctor may ask you to change your diet.", "what_to_do", food=True)
    assert not speaks_to("These low levels might be the result of a poor diet.", "what_to_do", food=True)


def test_a_named_food_as_a_cause_answers_what_to_eat_and_a_sentence_without_food_does_not():
    """Which foods bring the condition on is what to avoid; a sentence with only the kind's cue words
    ("prevent future attacks") says nothing of eating."""
    from engine.agent.composer import speaks_to

    assert speaks_to("Eating too many foods that are rich in purines such as liver can cause or aggravate gout.",
                     "what_to_do", food=True)
    assert not speaks_to("The goals for treatment are to ease the pain and prevent future attacks.", "prevention",
                         food=True)
    assert speaks_to("The goals for treatment are to ease the pain and prevent future attacks.", "prevention")


def test_a_sentence_that_only_names_the_condition_is_quoted_with_the_pronoun_sentence_that_explains_it(minilm):
    """"Conjunctivitis is the medical name for pink eye." says nothing of what it is; the sentence
    after it does, and is quoted with it."""
    pinkeye = Passage("pinkeye", "Conjunctivitis is the medical name for pink eye. It involves inflammation of the "
                      "outer layer of the eye and the inside of the eyelid. Pink eye can spread from one person to "
                      "another. Bacterial pink eye is treated with antibiotic eye drops.",
                      title="What is (are) Pinkeye ?")
    composition = compose(question="What is pink eye?", language="en", slots={}, documents=[pinkeye],
                          checker=SupportChecker(minilm, lambda text: set()))
    quoted = [s.text for s in composition.sentences if s.kind == "sourced"]
    named = quoted.index("Conjunctivitis is the medical name for pink eye.")
    assert quoted[named + 1].startswith("It involves inflammation")


def test_a_sentence_about_some_of_these_is_not_quoted_alone():
    from engine.agent.composer import candidates
    from engine.agent.support import Evidence

    texts = ["Examples of these diseases and factors include HIV/AIDS and cancer.", "Some of them need a hospital stay.",
             "Each has only progestin, and no estrogen.",
             "Most people begin to improve after 1 to 3 days of antibiotic treatment.",
             "Each year, about 2 million people get sick with this infection.",
             "Some remove extra fluid and salt from the body.", "Others may need surgery.",
             "If you do, I.V. antibiotics during labor can save your baby's life.", "If so, call your doctor.",
             "Some people need a second dose.", "If you do not have symptoms, no treatment is needed.",
             "Are there any foods I should avoid when taking this medicine?."]
    kept = [e.text for e in candidates([Evidence(1, t, i) for i, t in enumerate(texts)])]
    # "this infection" names which one only with the sentence before it (`_BACK_REFERENCE`).
    assert kept == [texts[3], "Some people need a second dose.", "If you do not have symptoms, no treatment is needed."]


def test_where_the_topic_s_own_page_answers_a_narrower_condition_s_page_does_not():
    from engine.agent.composer import Topic, page_roles
    from engine.text import tokenize

    narrower = Passage("ohs", "Treatments for OHS include breathing support.",
                       title="What are the treatments for Obesity Hypoventilation Syndrome ?")
    own = Passage("obesity", "Lifestyle changes are the main treatment.",
                  title="What are the treatments for Overweight and Obesity ?")
    topic = Topic(names=[set(tokenize("obesity"))])
    by_name = lambda text: set()  # noqa: E731 - no concept ids: the names decide
    assert page_roles([narrower, own], "treatment", topic=topic, concepts=by_name)[0] == {2}
    assert page_roles([narrower], "treatment", topic=topic, concepts=by_name)[0] == {1}


@pytest.mark.parametrize("text, fragment", [
    ("People who have weak immune systems as a result of diseases or other factors.", True),
    ("People with medical devices that stay in for some time such as urinary catheters.", True),
    ("People who inject illegal drugs.", True),
    ("People who smoke have a higher risk of lung cancer.", False),
    ("People who have diabetes should check their feet every day.", False),
    ("People with type 1 diabetes control their blood sugar with insulin.", False),
    ("Children who develop hemolytic uremic syndrome become pale, tired, and irritable.", False),
])
def test_a_list_item_that_only_names_a_group_of_people_is_not_a_statement(text, fragment):
    from engine.agent.composer import is_group_fragment, quotable

    assert is_group_fragment(text) is fragment
    assert quotable(text) is not fragment


_CHILD_FEVER = ("Call a doctor right away if your child: Is 3 months or younger and has a rectal temperature of "
                "100.4F (38C) or higher; Is 3 to 12 months old and has a fever of 102.2F (39C) or higher; Has a "
                "fever of 105F (40.5C) or higher, unless it comes down readily with treatment.")
_RUN_ON = ("Common opioid medications include: morphine (MS Contin, Kadian), which is used to treat severe pain; "
           "codeine, which is prescribed for mild pain morphine (MS Contin, Kadian), which is used to treat severe pain.")


@pytest.mark.parametrize("text, statement", [
    ("Skin Cancer Prevention: Skin Cancer Treatment; Melanoma Treatment; Genetics of Skin Cancer.", False),
    ("Check NCI's list of cancer clinical trials for melanoma prevention trials that are now accepting patients.",
     False),
    ("VACCINE-PREVENTABLE DISEASES OR, find it by Vaccine Anthrax Cervical Cancer Diphtheria.", False),
    ("More information is provided in the NIDDK health topic, Thyroid Tests.", False),
    ("More information about testing for thyroid problems is provided in the NIDDK health topic, Thyroid Tests.",
     False),
    ("More information on the risks of surgery helps people choose.", True),
    (_RUN_ON, False),
    (_CHILD_FEVER, True),
    ("Symptoms include: Fever; Cough; Rash.", True),
    ("Check your blood sugar every day.", True),
    ("is used to treat long-term psoriasis and hard-to-treat plaques; reduces inflammation.", False),
    ("the tumor is larger than 2 centimeters but not larger than 5 centimeters.", False),
    ("mTOR inhibitors stop cells from dividing and may prevent the growth of new blood vessels.", True),
])
def test_page_titles_pointers_lists_run_into_their_copy_and_headless_list_items_are_not_statements(text, statement):
    from engine.agent.composer import quotable

    assert quotable(text) is statement


def test_a_group_named_in_a_list_item_heads_no_pair():
    """Under "Pneumonia tends to be more serious for:", the item and the sentence after it would
    read as a claim about who is treated how."""
    from engine.agent.composer import pronoun_pairs
    from engine.agent.support import evidence_from

    passage = Passage("p", "Pneumonia tends to be more serious for:\n\nInfants and young children.\n\nPeople who have "
                      "weak immune systems as a result of diseases or other factors. Examples of these diseases and "
                      "factors include HIV/AIDS, chemotherapy (a treatment for cancer), and an organ transplant.",
                      title="What is (are) Pneumonia ?")
    assert not pronoun_pairs(evidence_from([passage]))


@pytest.mark.parametrize("sentence, kind, speaks", [
    ("ADHD is diagnosed much more often in boys than in girls.", "diagnosis", False),
    ("Most people diagnosed with IBS can control their symptoms with diet.", "diagnosis", False),
    ("It is the most commonly diagnosed behavioral disorder in children.", "diagnosis", False),
    ("Gout is diagnosed by finding uric acid crystals in the joint fluid.", "diagnosis", True),
    ("Only when a person has had two or more seizures is he or she considered to have epilepsy.", "diagnosis", True),
    ("The doctor will take a careful medical history.", "diagnosis", True),
    ("The person should drink lots of fluids to help move the stone along.", "treatment", True),
    ("If joint swelling occurs after an injury, apply ice packs to reduce pain.", "treatment", True),
    ("Your heart rate at rest is normal.", "treatment", False),
    ("At first, treatment of sprains usually involves resting the injured area and icing it.", "what_to_do", True),
    ("Your heart rate at rest is normal.", "what_to_do", False),
    ("A chest x ray is a painless test that creates pictures of the structures inside your chest.", "symptoms", False),
    ("The pain may spread to the back.", "symptoms", True),
])
def test_being_diagnosed_with_something_is_not_how_it_is_diagnosed_and_self_care_is_treatment(sentence, kind,
                                                                                               speaks):
    from engine.agent.composer import speaks_to

    assert speaks_to(sentence, kind) is speaks


@pytest.mark.parametrize("sentence, kind, names", [
    ("Small stones don't usually need treatment.", "treatment", False),
    ("Still, the person may need pain medication and should drink lots of fluids.", "treatment", True),
    ("A complete evaluation by a trained professional is the only way to diagnose it.", "diagnosis", False),
    ("These tests may include stool sampling tests, blood tests, and x-rays.", "diagnosis", True),
    ("A mammogram or an ultrasound can find a lump too small to feel.", "diagnosis", True),
    ("A Doppler ultrasound shows how blood flows in the legs.", "diagnosis", True),
    ("Vaccines can prevent several types of HPV.", "prevention", True),
    ("Tell your doctor if the rash spreads.", "symptoms", True),
    ("Successful weight-loss treatments include setting goals and making lifestyle changes, such as eating fewer "
     "calories and being physically active.", "treatment", True),
    ("Treatment may take several months.", "treatment", False),
    ("Try over-the-counter remedies such as artificial tears, gels, gel inserts, and ointments.", "treatment", True),
    ("Use lubricating eye drops while performing these tasks.", "treatment", True),
    ("Symptoms of vascular dementia may develop gradually or may progress after each small stroke.", "symptoms", False),
    ("Early symptoms of dementia can include: Getting lost on familiar routes; Misplacing items.", "symptoms", True),
])
def test_a_sentence_names_the_means_of_a_diagnosis_treatment_or_prevention_or_only_the_word(sentence, kind, names):
    from engine.agent.composer import names_the_means

    assert names_the_means(sentence, kind) is names


def test_a_treatment_answer_prefers_the_treatment_to_a_sentence_that_only_says_the_word(minilm):
    from engine.agent.composer import select

    page = Passage("stones", "Kidney stones may be treated by your regular doctor or by a urologist. "
                   "Pain medication and lots of fluids help move the stone along.",
                   title="What are the treatments for Kidney Stones ?")
    query = "How are kidney stones treated?"
    pool, vectors, query_vector = scored_pool(minilm, page, query)
    (first, _), = select(query_vector, pool, vectors, kind="treatment", topic_terms=["kidney stones"], sources=1,
                         limit=1, query=query)
    assert first.text.startswith("Pain medication")


@pytest.mark.parametrize("sentence, another", [
    ("If you have arthritis, follow your health care provider's treatment plan.", True),
    ("If you have diabetes, check your feet every day.", True),
    ("If you have a sprain, rest the injured area.", False),
    ("But if you have too much in your blood, it can stick to the walls of your arteries.", False),
    ("If you have any of these symptoms, call your doctor.", False),
])
def test_advice_for_people_with_another_condition_is_not_advice_for_the_asker(sentence, another):
    from engine.agent.composer import for_another_condition
    from engine.text import tokenize

    asked = set(tokenize("I twisted my ankle and it's swollen. What should I do? sprains swelling"))
    assert for_another_condition(sentence, asked) is another


def test_how_a_medicine_is_given_for_another_condition_is_not_how_the_topic_is_treated():
    from engine.agent.composer import for_another_condition
    from engine.text import tokenize

    asked = set(tokenize("How is atopic dermatitis treated? atopic dermatitis"))
    said = ("When this medication is used to relieve the symptoms of dermatitis herpetiformis, it should be taken in "
            "the smallest effective dose and for the shortest period possible.")
    assert for_another_condition(said, asked)
    assert not for_another_condition("Topical corticosteroids are medicines used to treat atopic dermatitis.", asked)


def test_the_symptoms_of_another_condition_are_not_the_topics_unless_its_page_is_about_that_condition():
    from engine.agent.composer import for_another_condition, page_topic_words
    from engine.text import tokenize

    asked = set(tokenize("What are the symptoms of bronchitis?"))
    assert for_another_condition("Symptoms of a cold or the flu include sore throat, fatigue and fever.", asked)
    assert not for_another_condition("Other symptoms of acute bronchitis include wheezing and low fever.", asked)
    heart = set(tokenize("심근경색 증상 myocardial infarction"))
    sentence = "Symptoms of a heart attack include chest pain and shortness of breath."
    assert for_another_condition(sentence, heart)
    page = Passage("ha", sentence, title="What are the symptoms of Heart Attack ? (Also called: Myocardial infarction)")
    assert not for_another_condition(sentence, heart | page_topic_words([page])[1])


def test_on_another_topics_page_a_condition_the_lexicon_does_not_know_is_another_condition():
    from engine.agent.composer import for_another_condition
    from engine.text import tokenize

    fever = set(tokenize("아이가 열이 39도예요. 해열제 먹여도 되나요? antipyretics fever"))
    sentence = ("Treatment of rheumatic fever usually consists of antibiotics to treat the underlying group A "
                "Streptococcus bacterial infection and anti-inflammatory medications such as aspirin.")
    assert for_another_condition(sentence, fever, unnamed=True)
    assert not for_another_condition(sentence, fever)
    assert not for_another_condition("Treatment of fever usually involves rest and fluids.", fever, unnamed=True)
    assert not for_another_condition("Treatments for this condition include rest.", fever, unnamed=True)
    falls = set(tokenize("연세 드신 어머니가 집에서 넘어지지 않으려면 어떻게 해야 하나요? falls"))
    assert not for_another_condition("If you have pain, dizziness, or problems breathing during or after any "
                                     "exercise, stop.", falls, unnamed=True)


def test_a_narrower_condition_named_after_the_topic_is_another_condition_but_a_type_of_it_is_not():
    from engine.agent.composer import Topic, for_another_condition, page_topic_words
    from engine.text import tokenize

    obesity = set(tokenize("How is obesity treated?"))
    assert for_another_condition("Treatments for obesity hypoventilation syndrome (OHS) include breathing support, "
                                 "weight loss, and medicines.", obesity)
    diabetes = set(tokenize("How is diabetes treated?"))
    assert not for_another_condition("Treatments for type 2 diabetes include diet, exercise and metformin.", diabetes)
    topic = Topic(names=[set(tokenize("obesity"))])
    narrower = Passage("ohs", "", title="What are the treatments for Obesity Hypoventilation Syndrome ?")
    own = Passage("obesity", "", title="What are the treatments for Overweight and Obesity ?")
    assert list(page_topic_words([narrower, own], topic)) == [2]
    assert list(page_topic_words([narrower, own])) == [1, 2]


def test_a_medicines_side_effects_and_interactions_are_also_its_classes_but_not_its_dose():
    from engine.agent.composer import question_topic
    from engine.clinical.drug_alerts import class_names
    from engine.text import tokenize

    assert class_names("prednisone") == ["corticosteroids", "steroids"]
    assert "cephalosporins" not in class_names("amoxicillin") and "penicillins" in class_names("amoxicillin")
    assert class_names("loratadine") == []
    slots = {"medications": [{"name": "oxycodone", "concept_id": "MPlusDrugs:0000924", "asked_about": True}]}
    no_ids = lambda text: set()  # noqa: E731 - the names decide
    for kind, named in (("interaction", True), ("side_effects", True), ("dosage", False)):
        topic = question_topic([], slots, no_ids, kind)
        assert (set(tokenize("opioids")) in topic.names) is named, kind


def test_a_question_about_drinking_with_a_medicine_quotes_only_what_speaks_of_alcohol():
    from engine.agent.composer import about_drinking
    from engine.agent.support import Evidence

    pool = [Evidence(1, "Withdrawal from opiates is painful, but usually not life-threatening.", 0),
            Evidence(1, "Do not drink alcohol while taking opioids: together they can slow your breathing.", 1),
            Evidence(2, "Drink plenty of fluids.", 0),
            Evidence(2, "Drinking beer or wine with metronidazole can cause nausea and flushing.", 1),
            Evidence(3, "Avoid drinking while you take this medicine.", 2),
            Evidence(3, "Your kidneys filter waste from drinks and food.", 3)]
    kept, left_out = about_drinking(pool)
    assert [(e.source, e.position) for e in kept] == [(1, 1), (2, 1), (3, 2)] and left_out == 3


def test_whether_two_things_go_together_is_answered_by_sentences_that_speak_of_both():
    from engine.agent.composer import interaction_parties, of_both
    from engine.agent.support import Evidence

    slots = {"medications": [{"name": "st. john's wort"}, {"name": "birth control pills"}],
             "conditions": [{"name": "depression", "negated": True}]}
    parties = interaction_parties(slots)
    assert len(parties) == 2
    documents = [Passage("pill", "…", title="What is (are) Birth control pills - combination ?"),
                 Passage("mood", "…", title="What are the treatments for Depression ?")]
    pool = [Evidence(1, "There are 5 types of combination birth control pills.", 0),
            Evidence(1, "Tell your provider if you take any other medicines, such as St. John's wort.", 1),
            Evidence(2, "St. John's wort can interact unfavorably with other drugs.", 0),
            Evidence(2, "St. John's wort can make birth control pills work less well.", 1),
            Evidence(2, "Talk therapy helps many people.", 2)]
    no_ids = lambda text: set()  # noqa: E731 - the names decide
    kept, left_out = of_both(pool, documents, parties, no_ids)
    assert [(e.source, e.position) for e in kept] == [(1, 1), (2, 1)] and left_out == 3
    # When nothing speaks of both, a sentence on taking one of them with something else may still answer;
    # a dose instruction or another warning does not, and then nothing is left to quote.
    alone = [pool[0], pool[2], Evidence(1, "Do not take a double dose of birth control pills.", 2)]
    assert of_both(alone, documents, parties, no_ids) == ([pool[2]], 2)
    assert of_both([pool[0], alone[2]], documents, parties, no_ids) == ([], 2)
    one = interaction_parties({"medications": [{"name": "warfarin"}]})
    assert of_both(pool, documents, one, no_ids) == (pool, 0)


def test_a_sentence_about_taking_a_third_thing_with_one_of_them_does_not_answer_whether_the_two_go_together():
    from engine.agent.composer import interaction_parties, of_both
    from engine.agent.support import Evidence

    ids = {"glucosamine": "CS:GLUCOSAMINE", "ibuprofen": "D:IBUPROFEN", "warfarin": "D:WARFARIN"}

    def concepts(text: str) -> set[str]:
        return {code for name, code in ids.items() if name in text.lower()}

    slots = {"medications": [{"name": "ibuprofen", "concept_id": "D:IBUPROFEN"},
                             {"name": "warfarin", "concept_id": "D:WARFARIN"}]}
    parties = interaction_parties(slots)
    documents = [Passage("g", "…", title="Are there interactions between Glucosamine hydrochloride and other "
                                          "medications ?"),
                 Passage("ed", "…", title="What are the treatments for Erectile dysfunction ?")]
    third = Evidence(1, "Taking glucosamine hydrochloride with or without chondroitin increases the effect of "
                        "warfarin on blood clotting.", 0)
    own = Evidence(2, "Do not use these drugs with warfarin.", 0)
    assert of_both([third, own], documents, parties, concepts) == ([own], 1)
    assert of_both([third], documents, parties, concepts) == ([], 1)


def test_a_resource_s_list_of_pages_a_note_on_resources_and_a_polite_pointer_are_not_quoted():
    from engine.agent.composer import quotable

    assert not quotable("Restless Leg Syndrome Foundation: Diagnosis; Restless Leg Syndrome Foundation: Treatment "
                        "Options.")
    assert not quotable("These resources from MedlinePlus offer information about the diagnosis and management of "
                        "various health conditions: Diagnostic Tests; Drug Therapy.")
    assert not quotable("Please visit the Center for Disease Control and Prevention's Web site for a more "
                        "comprehensive list of symptoms.")
    assert quotable("Please visit your doctor if the rash spreads.")
    assert quotable("Treatment options include: Medicines; Surgery; Physical therapy.")
    assert quotable("The following tips can help: wash your hands often; avoid sharing towels.")


@pytest.mark.parametrize("sentence, kind, other", [
    ("Symptoms of menopause include the following: Hot flashes; Night sweats.", "treatment", True),
    ("Treatment may include medicines to reduce stomach acids.", "prevention", True),
    ("Common symptoms of a cold include: Fever; Headache.", "causes", True),
    ("Symptoms of PCOS include: Infertility; Pelvic pain.", "diagnosis", False),  # symptoms serve a diagnosis
    ("Risk factors include smoking and being overweight.", "prevention", False),  # and risk factors a prevention
    ("Treatments for hives include antihistamines.", "treatment", False),
    ("Causes of hearing loss include noise and aging.", "diagnosis", True),  # no test among them
    ("Causes of hives include insect bites and medicines.", "treatment", True),
    # What to do for a sprain is no list of its symptoms or causes.
    ("Symptoms include pain, swelling, bruising, and being unable to move your joint.", "what_to_do", True),
    ("Causes include falling and twisting.", "what_to_do", True),
    ("The complications of benign prostatic hyperplasia may include: acute urinary retention; blood in the urine.",
     "symptoms", True),
])
def test_a_list_of_another_kind_is_on_the_wrong_side(sentence, kind, other):
    from engine.agent.composer import lists_another_kind

    assert lists_another_kind(sentence, kind) is other


@pytest.mark.parametrize("kind", ["definition", "causes", "symptoms", "diagnosis", "treatment", "prevention",
                                  "dosage", "side_effects", "interaction", "what_to_do"])
def test_a_question_without_a_topic_gets_a_lead_that_reads_as_a_sentence(kind):
    english, korean = lead_text(kind, "", "en"), lead_text(kind, "", "ko")
    assert "{" not in english + korean
    assert "this question together" not in english and "this question can" not in english
    assert kind == "definition" or ("this question" not in english and "이 질문" not in korean)
    assert lead_text("interaction", "", "en") == "What the sources say about taking these together:"


def test_an_answer_none_of_whose_quotes_speaks_to_the_asked_kind_says_so_in_its_lead(minilm):
    from engine.agent.answer_framing import off_kind_lead

    checks = Passage("combo-info", "Keep all appointments with your doctor and the laboratory. Your doctor may order "
                     "certain lab tests to check your body's response to hydrochlorothiazide. Take hydrochlorothiazide "
                     "exactly as directed.", title="What other information should I know about Hydrochlorothiazide ?")
    slots = {"medications": [{"name": "hydrochlorothiazide", "concept_id": "C0020261"}]}
    composition = compose(question="What are the side effects of hydrochlorothiazide?", language="en", slots=slots,
                          documents=[checks], checker=SupportChecker(minilm))
    assert composition.text.startswith("The sentences found do not seem to speak directly to the side effects of "
                                       "hydrochlorothiazide")
    assert any("no quoted sentence speaks to the asked kind" in d for d in composition.decisions)
    side = Passage("side", "Hydrochlorothiazide may cause side effects: frequent urination; dizziness; muscle cramps.",
                   title="What are the side effects or risks of Hydrochlorothiazide ?")
    composition = compose(question="What are the side effects of hydrochlorothiazide?", language="en", slots=slots,
                          documents=[side, checks], checker=SupportChecker(minilm))
    assert "speak directly" not in composition.text and "frequent urination" in composition.text
    assert off_kind_lead("what_to_do", "", "en") == ("The sentences found do not seem to speak directly to what to do "
                                                     "about it; what the sources say:")
    assert off_kind_lead("side_effects", "이뇨제", "ko").startswith("이뇨제의 부작용에 관해 직접 다룬 문장은")
    # "임신 중 허리 아픈 거 정상이에요?": back pain in pregnancy, not back pain's "safety in pregnancy".
    assert off_kind_lead("pregnancy", "요통", "ko").startswith("임신·수유 중의 요통에 관해 직접 다룬 문장은")
    assert "confirm any dose" in off_kind_lead("dosage", "naproxen", "en")
    assert off_kind_lead("dosage", "나프록센", "ko").endswith("약사나 의사와 확인하세요.")


FREQUENCY_NOTE = "Sometimes, no information is available on how often each symptom of the syndrome occurs."
RARE_SYMPTOMS = Passage("gard/foo", "Symptoms of Foo syndrome include short stature, a heart defect and delayed "
                        "speech. Most children with Foo syndrome have feeding problems in infancy. "
                        f"The frequency may also be listed as a fraction. {FREQUENCY_NOTE}",
                        title="What are the symptoms of Foo syndrome ?")


def test_the_knowledge_base_s_boilerplate_is_never_quoted(minilm):
    """A sentence the knowledge base repeats on many pages (GARD's note on its frequency table) says
    nothing of this topic: it is quoted when nothing says it is boilerplate, and left out when it is."""
    def sourced(boilerplate):
        composition = compose(question="What are the symptoms of Foo syndrome?", language="en", slots={},
                              documents=[RARE_SYMPTOMS], checker=SupportChecker(minilm), boilerplate=boilerplate)
        return [s.text for s in composition.sentences if s.kind == "sourced"], composition.decisions

    quoted, _ = sourced(frozenset())
    assert FREQUENCY_NOTE in quoted
    repeated = frozenset({FREQUENCY_NOTE, "The frequency may also be listed as a fraction."})
    quoted, decisions = sourced(repeated)
    assert quoted and not set(quoted) & repeated
    assert any("2 sentences left out" in d and "boilerplate" in d for d in decisions)


def test_a_pronoun_pair_is_left_out_with_its_boilerplate_sentence():
    from engine.agent.composer import without_boilerplate
    from engine.agent.support import Evidence

    head = Evidence(1, "Keep all appointments with your doctor.", 0)
    follower = Evidence(1, "It helps to write down your questions.", 1)
    other = Evidence(1, "Amlodipine can cause swollen ankles.", 2)
    pair = Evidence(1, f"{head.text} {follower.text}", 0)
    kept, left_out = without_boilerplate([head, follower, other, pair], {pair.text: (head, follower)},
                                         frozenset({"Keep all appointments with your doctor."}))
    assert kept == [follower, other] and left_out == 2


def test_an_english_answer_names_the_key_terms_of_the_backed_sentences_it_weighs_but_does_not_quote():
    from engine.agent.answer_framing import TERMS_LISTED, also_named, texts

    said = "What causes gout, according to the sources: Gout happens when uric acid builds up in your body."
    line = also_named([("Gout often starts in the big toe, and can affect the ankles, heels and knees.", 2),
                       ("Chronic gout can damage the kidneys.", 3)], said)
    assert line.startswith("Also named in other sentences of the sources [2][3]: ")
    assert "big toe [2]" in line and "ankles [2]" in line and "kidneys [3]" in line
    assert "gout" not in line.lower() and "uric" not in line  # the answer shows them already
    assert "chronic" not in line.lower() and "damage" not in line  # they name no fact on their own
    assert also_named([("It was a long day.", 1)], said) == ""
    many = [("Symptoms include fever, cough, headache, rash, nausea, vomiting, diarrhea, dizziness, fatigue, "
             "chills, sore throat, runny nose, back pain, chest pain, swelling and itching.", 4)]
    assert also_named(many, "").count("[4]") == TERMS_LISTED + 1
    assert texts("en")["unquoted"].startswith("Also named")


GOUT_CAUSES = Passage("gout", "Gout is a kind of arthritis caused by a buildup of uric acid crystals in the joints. "
                      "Gout usually attacks the big toe first. Gout can also affect the ankles, heels, knees and "
                      "wrists. Uric acid comes from the breakdown of purines, which are found in liver and dried "
                      "beans. Drinking alcohol and being overweight raise the level of uric acid. "
                      "Some medicines, such as diuretics, raise the level of uric acid. "
                      "A diet rich in meat and seafood can raise uric acid levels. "
                      "Kidney disease can keep the body from removing uric acid. "
                      "Lead poisoning can also cause gout.", title="What causes Gout ?")
GOUT_SLOTS = {"conditions": [{"name": "gout", "concept_id": "C0018099"}]}


def test_an_english_answer_quotes_six_sentences_and_names_what_further_backed_ones_say(minilm):
    from engine.agent.composer import MAX_SENTENCES

    composition = compose(question="What causes gout?", language="en", slots=GOUT_SLOTS, documents=[GOUT_CAUSES],
                          checker=SupportChecker(minilm, lambda text: set()))
    sourced = [s.text for s in composition.sentences if s.kind == "sourced"]
    assert len(sourced) == MAX_SENTENCES
    line = next(line for line in composition.text.splitlines() if line.startswith("Also named"))
    assert re.search(r"\[1\]$|\[1\]\.$", line) and line.count("[1]") >= 2
    # The line claims nothing: it is no sentence record, and names nothing a quote already shows.
    assert not any(s.text.startswith("Also named") for s in composition.sentences)
    quoted = " ".join(sourced).lower()
    assert all(term.split(" [")[0] not in quoted for term in line.split(": ", 1)[1].rstrip(".").split(", "))


def test_a_composed_answer_embeds_each_passage_sentence_once(minilm):
    """The composer's selection and both support checks of an English answer read one vector per
    sentence: none is embedded twice."""
    from collections import Counter

    class Counting:
        def __init__(self, inner):
            self.inner, self.seen = inner, Counter()

        def embed(self, texts):
            self.seen.update(texts)
            return self.inner.embed(texts)

    counting = Counting(minilm)
    composition = compose(question="What causes gout?", language="en", slots=GOUT_SLOTS, documents=[GOUT_CAUSES],
                          checker=SupportChecker(counting, lambda text: set()))
    assert "Also named" in composition.text  # both checks ran
    sentences = [t for t in counting.seen if t.startswith(("Gout", "Uric", "Kidney", "Lead"))]
    assert len(sentences) >= 6
    assert all(counting.seen[t] == 1 for t in sentences)


def test_a_reassurance_is_quoted_only_from_the_topics_own_page():
    from engine.agent.composer import Topic, reassured_elsewhere
    from engine.agent.support import Evidence
    from engine.text import tokenize

    documents = [Passage("p", "Text.", title="What is (are) Poisoning ?"),
                 Passage("b", "Text.", title="Do you have information about Bubble bath soap poisoning")]
    call = Evidence(1, "If you suspect someone has been poisoned, call your local poison control center right away.", 0)
    calm = [Evidence(2, "A visit to the emergency room may not be needed.", 0),
            Evidence(2, "Since bubble bath soap is fairly nonpoisonous, recovery is very likely.", 1)]
    steps = Evidence(2, "Have this information ready: Person's age, weight, and condition.", 2)
    detergent = Topic(set(), [set(tokenize("detergent poisoning"))])
    assert reassured_elsewhere([call, *calm, steps], documents, detergent) == ([call, steps], 2)
    # On the page about the asked product itself, its reassurance stands.
    bubble_bath = Topic(set(), [set(tokenize("bubble bath soap poisoning"))])
    assert reassured_elsewhere([call, *calm, steps], documents, bubble_bath) == ([call, *calm, steps], 0)


@pytest.mark.parametrize(("sentence", "topic", "listed"), [
    ("Abdominal pain can be a sign of: Appendicitis; Gallstones; Stomach ulcer; Hernia.", "stomach ulcer", True),
    ("The following are risk factors for lung cancer:; Cigarette smoking; Secondhand smoke; HIV infection; Radon.",
     "hiv", True),
    ("- The following are risk factors for anal cancer: - Anal HPV infection - HIV infection/AIDS - Smoking",
     "hiv", True),
    ("Treatment may include: Antihistamines to relieve mild symptoms such as rash, hives, and itching; "
     "Bronchodilators such as albuterol.", "hives", False),
    ("One problem is interactions, which may occur between: Two drugs, such as aspirin and blood thinners; "
     "Drugs and diseases, such as aspirin and peptic ulcers.", "aspirin", False),
    ("Stomach ulcers can cause: Bleeding; Perforation; Blockage.", "stomach ulcer", False),
])
def test_a_sentence_that_names_the_topic_only_as_an_entry_of_another_s_list(sentence, topic, listed):
    from engine.agent.composer import Topic, listed_as_an_item
    from engine.agent.support import Evidence

    page = Passage("other", sentence, title="What is (are) Something Else ?")
    asked = Topic(set(), [set(tokenize(topic))])
    assert listed_as_an_item(Evidence(1, sentence, 0), [page], asked, lambda text: set()) is listed


def test_a_medicine_named_as_an_entry_of_a_list_is_what_the_list_says_of_it():
    from engine.agent.composer import Topic, listed_as_an_item
    from engine.agent.support import Evidence

    sentence = "Antihistamines that may cause sleepiness: Diphenhydramine (Benadryl); chlorpheniramine."
    page = Passage("antihistamines", sentence, title="Do you have information about Antihistamines")
    asked = Topic(set(), [set(tokenize("diphenhydramine"))], medicine=True)
    assert not listed_as_an_item(Evidence(1, sentence, 0), [page], asked, lambda text: set())


def test_an_answer_leaves_out_a_list_on_another_page_that_names_its_topic_as_an_entry(minilm):
    slots = {"conditions": [{"name": "stomach ulcer", "concept_id": "C0038358", "synonyms": ["peptic ulcer"]}]}
    own = Passage("ulcer", "The most common cause is infection with a bacterium called Helicobacter pylori. Another "
                  "cause is the long-term use of NSAIDs such as aspirin and ibuprofen. Stress and spicy foods do not "
                  "cause ulcers, but can make them worse.", title="What causes Peptic Ulcer ?")
    pain = Passage("pain", "Abdominal pain can be a sign of: Appendicitis; Gallstones; Stomach ulcer; Hernia. Almost "
                   "everyone has pain in the abdomen at some point.", title="What causes Abdominal pain ?")

    def concepts(text: str) -> set[str]:
        lowered = text.lower()
        return ({"C0038358"} if "ulcer" in lowered else set()) | ({"C0000737"} if "abdominal pain" in lowered else set())

    composition = compose(question="What causes stomach ulcers?", language="en", slots=slots, documents=[own, pain],
                          checker=SupportChecker(minilm, concepts))
    sourced = " ".join(s.text for s in composition.sentences if s.kind == "sourced")
    assert "Helicobacter pylori" in sourced and "Appendicitis" not in sourced


@pytest.mark.parametrize(("sentence", "instruction"), [
    ("Do NOT make a person throw up unless poison control tells you to.", True),
    ("Don't rub the burn.", True),
    ("If the person breathed in the fumes, immediately move them to fresh air.", True),
    ("After cooling the burn, cover it with a clean dry cloth.", True),
    ("Never change your medicine without first talking to your doctor.", False),
    ("Keep hazards out of a toddler's reach.", False),
    ("Drain cleaners hold strong acids.", False),
])
def test_an_instruction_speaks_to_what_to_do(sentence, instruction):
    from engine.agent.composer import speaks_to

    assert speaks_to(sentence, "what_to_do") is instruction


def test_what_to_do_quotes_what_not_to_do(minilm):
    """Swallowed cleaner: "do not make them throw up" is the page's instruction, not the list of
    where the product is found."""
    from engine.agent.composer import select

    page = Passage("cleaner", "Drain cleaners hold strong acids and lye, which burn the mouth and throat. "
                   "Do NOT make the child throw up unless poison control tells you to. "
                   "Such products are found in kitchens, garages and under bathroom sinks.",
                   title="What is (are) Drain cleaner poisoning ?")
    question = "My child swallowed drain cleaner. What should I do?"
    pool, vectors, query_vector = scored_pool(minilm, page, question)
    chosen = select(query_vector, pool, vectors, kind="what_to_do", topic_terms=["poisoning"], sources=1,
                    limit=1, query=question)
    assert [e.text[:6] for e, _ in chosen] == ["Do NOT"]


def test_they_after_a_sentence_that_goes_on_with_they_is_joined_to_the_sentence_that_names_them():
    """"They can also cause serious muscle problems" follows "But they are not recommended …", which
    follows "Statins are relatively safe …": the muscle problems are said of statins, and quoted with
    the sentence that names them."""
    from engine.agent.composer import pronoun_pairs
    from engine.agent.support import Evidence

    head = Evidence(1, "Statins are relatively safe for most people.", 8)
    middle = Evidence(1, "But they are not recommended for pregnant patients or those with liver disease.", 9)
    last = Evidence(1, "They can also cause serious muscle problems.", 10)
    assert list(pronoun_pairs([head, middle, last]).values()) == [(head, middle), (head, last)]
    switched = Evidence(1, "This can slow the formation of plaques in your arteries.", 10)
    assert list(pronoun_pairs([head, middle, switched]).values()) == [(head, middle)]


def test_two_followers_of_one_sentence_are_both_quoted_after_it(minilm):
    from engine.agent.composer import in_pairs
    from engine.agent.support import Evidence

    head = Evidence(1, "Statins are relatively safe for most people.", 8)
    middle = Evidence(1, "But they are not recommended for pregnant patients or those with liver disease.", 9)
    last = Evidence(1, "They can also cause serious muscle problems.", 10)
    other = Evidence(2, "Statins lower cholesterol.", 0)
    assert in_pairs([last, other, head, middle], {id(last): head, id(middle): head}) == [other, head, middle, last]


def test_statin_side_effects_quote_the_muscle_problems(minilm):
    slots = {"medications": [{"name": "statins", "concept_id": "C0360714"}]}
    page = Passage("statins", "Statins are drugs used to lower cholesterol. Statins interfere with the production of "
                   "cholesterol in your liver. Statins are relatively safe for most people. But they are not "
                   "recommended for pregnant patients or those with active liver disease. They can also cause "
                   "serious muscle problems. You may have fewer side effects with one statin drug than another.",
                   title="Do you have information about Statins")
    sourced = _quoted_by_names(minilm, "What are the side effects of statins?", slots, [page])
    muscle = sourced.index("They can also cause serious muscle problems.")
    assert "Statins are relatively safe for most people." in sourced[max(0, muscle - 2):muscle]


def test_what_a_medicine_can_cause_speaks_to_its_side_effects_and_nothing_else_s():
    from engine.agent.composer import facet, speaks_to

    assert speaks_to("They can also cause serious muscle problems.", "side_effects")
    assert not speaks_to("They can also cause serious muscle problems.", "symptoms")
    # Said in an answer about something else, what may cause it is no side effect or symptom.
    assert facet("Other problems in your mouth, such as dry mouth, may also cause it.") not in ("side_effects",
                                                                                                 "symptoms")


@pytest.mark.parametrize("sentence", [
    "Multiple sclerosis is considered an autoimmune disorder.",
    "Fibromyalgia is thought to be a disorder of how the brain processes pain.",
    "Pertussis is known as the hundred-day cough.",
])
def test_what_something_is_considered_speaks_to_what_it_is(sentence):
    from engine.agent.composer import speaks_to

    assert speaks_to(sentence, "definition")


def test_what_lowers_a_risk_named_in_several_words_names_the_means_of_prevention():
    from engine.agent.composer import names_the_means

    assert names_the_means("The best way to reduce your skin cancer risk is to reduce your exposure to UV rays.",
                           "prevention")
    assert names_the_means("Sunscreen protects your skin from the sun.", "prevention")
    assert not names_the_means("It protects against heat, sunlight, injury, and infection.", "prevention")


def test_what_the_skin_protects_against_is_not_labelled_prevention():
    """The Korean skin-cancer prevention answer labelled the skin's own job 예방 (prevention)."""
    from engine.agent.composer import facet

    assert facet("It protects against heat, sunlight, injury, and infection.", "prevention") != "prevention"
    assert facet("Vaccines protect children from measles.", "prevention") == "prevention"


@pytest.mark.parametrize("sentence", ["Medicines may cause dizziness, or problems with your ear.",
                                      "Colds and allergies may cause too much mucus to be made."])
def test_what_may_cause_a_condition_is_read_as_a_cause(sentence):
    from engine.agent.composer import facet

    assert facet(sentence, "what_to_do") == "causes"
    assert facet(sentence, "causes") == "causes"


def test_a_sentence_that_points_to_steps_above_is_not_quoted_alone():
    from engine.agent.composer import leans_on_the_sentence_before

    assert leans_on_the_sentence_before("Follow the steps above and: take all medicines your doctor prescribes.")
    assert leans_on_the_sentence_before("Avoid triggers, such as those listed above.")
    assert not leans_on_the_sentence_before("Keep your blood pressure above 90 and below 130.")


def test_a_list_of_a_medicine_s_side_effects_answers_no_question_about_a_condition():
    """"How is ADHD diagnosed?" quoted the ADHD medicines page's list of side effects to call about."""
    from engine.agent.composer import facet, lists_another_kind

    listed = ("Call your provider if you or your child notices side effects such as: Stomach pain; Problems falling "
              "or staying asleep; Tics or jerky movements.")
    assert all(lists_another_kind(listed, kind) for kind in ("diagnosis", "causes", "symptoms", "prevention"))
    assert not lists_another_kind(listed, "what_to_do") and not lists_another_kind(listed, "side_effects")
    assert facet(listed, "diagnosis") == "side_effects"



@pytest.mark.parametrize("sentence", ["Some common ones are: Joint pain or swelling; Muscle pain; Fatigue.",
                                      "The medication does not reliably kill pinworm eggs."])
def test_a_sentence_about_the_ones_or_the_medication_named_before_leans_on_it(sentence):
    from engine.agent.composer import leans_on_the_sentence_before

    assert leans_on_the_sentence_before(sentence)
    assert not leans_on_the_sentence_before("The medicines used for pinworm are mebendazole and albendazole.")


def test_what_is_used_to_treat_a_condition_is_labelled_treatment_whatever_symptom_it_names():
    """The Korean Bell's palsy answer labelled the medicines 증상 (symptoms) for "(to relieve pain)"."""
    from engine.agent.composer import facet

    medicines = ("Other medications used to treat Bell's palsy include acyclovir (to fight viral infections) and "
                 "aspirin, acetaminophen, or ibuprofen (to relieve pain).")
    assert facet(medicines, "definition") == "treatment"
    assert facet("Side effects of the medicines used to treat acne include dry skin.", "side_effects") == "side_effects"



def test_a_sentence_that_says_it_names_the_main_symptom_or_treatment_is_labelled_so():
    """"A burning stomach pain is the most common symptom." was labelled 정의 (definition) for its "is the"."""
    from engine.agent.composer import facet

    assert facet("A burning stomach pain is the most common symptom.", "causes") == "symptoms"
    assert facet("Pain is the main symptom of fibromyalgia.", "definition") == "symptoms"
    assert facet("The most common symptom is a burning stomach pain.") == "symptoms"
    assert facet("Surgery is the main treatment for appendicitis.") == "treatment"
    # what the topic is the cause of says what the topic is
    assert facet("Bell's palsy is the most common cause of facial paralysis.", "definition") == "definition"


def test_a_treatment_lead_names_the_condition_not_the_medicine_asked_about(minilm):
    """"Can I give my child ibuprofen for a fever?" read as a definition question, under "What the sources say
    about ibuprofen and fever"; as a treatment question its lead named "ibuprofen and fever" as what is treated."""
    question = "Can I give my child ibuprofen for a fever?"
    assert question_kind(question) == "treatment"
    slots = {"medications": [{"name": "ibuprofen", "text": "ibuprofen", "asked_about": True}],
             "symptoms": [{"name": "fever", "text": "fever"}]}
    fever = Passage("fever", "Acetaminophen (Tylenol) and ibuprofen (Advil, Motrin) help lower fever in children.",
                    title="What is (are) Fever ?")
    # "help lower fever" is a means of treatment, so the lead says how fever is treated
    assert _answer_by_names(minilm, question, slots, [fever]).text.startswith("How fever is treated")


def test_a_side_effects_lead_names_the_medicine_not_the_symptom_asked_about(minilm):
    """"I take metformin and have diarrhea. Is that a side effect?" was led by "Side effects of metformin and
    diarrhea"."""
    question = "I take metformin and have diarrhea. Is that a side effect?"
    slots = {"medications": [{"name": "metformin", "text": "metformin"}],
             "symptoms": [{"name": "diarrhea", "text": "diarrhea"}]}
    page = Passage("metformin", "Metformin may cause side effects such as diarrhea, nausea and stomach pain.",
                   title="What are the side effects or risks of Metformin ?")
    assert _answer_by_names(minilm, question, slots, [page]).text.startswith("Side effects of metformin described")


def test_steps_to_safety_are_labelled_prevention():
    """The food-safety steps were labelled "other" and read after the food-poisoning symptoms."""
    from engine.agent.composer import facet

    steps = ("There are four basic steps to food safety at home: Clean - always wash your fruits and vegetables; "
             "Separate - keep raw foods to themselves.")
    assert facet(steps) == "prevention"
    assert facet("Safety tips for using a space heater include keeping it away from curtains.") == "prevention"
    assert facet("Statins are relatively safe for most people.") != "prevention"


def test_what_a_doctor_checks_is_labelled_diagnosis_not_what_the_checked_clause_defines():
    """The Korean palpitations answer labelled this sentence 정의 (definition) for its "are the"."""
    from engine.agent.composer import facet

    checked = ("Your doctor will want to check whether your palpitations are the symptom of a heart problem, "
               "such as an arrhythmia.")
    assert facet(checked, "what_to_do") == "diagnosis"
    assert facet("Blood tests can tell if you have diabetes.") == "diagnosis"
    assert facet("Palpitations are the feeling that your heart is racing.") == "definition"
    assert facet("Check if the person is breathing.", "what_to_do") != "diagnosis"


ANIMAL_BITES = Passage("bites", "Most animal bites come from pets. If an animal bites you, clean the wound with soap "
                       "and water as soon as possible. Animal bites rarely are life-threatening, but if they become "
                       "infected, you can develop serious medical problems. To prevent animal bites and complications "
                       "from bites: - Never pet unknown animals - Get a tetanus booster if you have not had one "
                       "recently", title="What is (are) Animal Bites ? (Also called: Dog bites)")
TICK_BITES = Passage("ticks", "Ticks are small bugs. To help protect yourself and your family, you should: - Use a "
                     "chemical repellent with DEET - Wear light-colored protective clothing - Tuck pant legs into "
                     "socks - Avoid tick-infested areas - Check your pets daily for ticks",
                     title="What is (are) Tick Bites ?")


def test_another_bite_s_list_of_protections_is_not_what_to_do_after_a_dog_bite(minilm):
    from engine.agent.composer import lists_protection, speaks_to

    assert lists_protection("To help protect yourself and your family, you should: Use a chemical repellent; Tuck "
                            "pant legs into socks.")
    assert not lists_protection("To treat a spider bite: Wash the area well with soap and water; Apply an ice pack.")
    assert speaks_to("If an animal bites you, clean the wound with soap and water as soon as possible.", "what_to_do")
    sourced = _quoted_by_names(minilm, "A dog bit me and broke the skin. What should I do?",
                               {"conditions": [{"name": "animal bites", "concept_id": "C0001394"}]},
                               [ANIMAL_BITES, TICK_BITES])
    assert sourced[0] == "If an animal bites you, clean the wound with soap and water as soon as possible."
    assert not any("repellent" in s for s in sourced)
    assert any("tetanus booster" in s for s in sourced)


def test_contributing_factors_are_causes_and_what_the_body_needs_for_health_is_no_prevention():
    from engine.agent.composer import facet, lists_another_kind, quotable

    factors = "Contributing factors include trauma or injury to the wrist that causes swelling, and thyroid disease."
    assert facet(factors, "symptoms") == "causes" and lists_another_kind(factors, "symptoms")
    assert facet("Calcium is needed by the body for healthy bones, muscles, nervous system, and heart.",
                 "dosage") != "prevention"
    assert facet("Eating a healthy diet can help.", "prevention") == "prevention"
    assert not quotable("NINDS-funded scientists are studying the factors that lead to long-lasting nerve pain "
                        "disorders.")


def test_the_page_on_medicines_in_pregnancy_is_about_a_pregnant_askers_medicine():
    from engine.agent.composer import Topic, page_names
    from engine.knowledge.questions import PREGNANCY_MEDICINES

    page = Passage("m", "", title="Do you have information about Pregnancy and Medicines")
    medicine = Topic(names=[set(tokenize("cold medicine"))], medicine=True)
    no_concepts = lambda text: set()  # noqa: E731
    assert not page_names(page, medicine, no_concepts)
    assert page_names(page, Topic(names=medicine.names, medicine=True, pages=frozenset({PREGNANCY_MEDICINES})),
                      no_concepts)


def test_a_pregnant_askers_medicine_question_may_quote_the_page_on_medicines_in_pregnancy(minilm):
    pages = [Passage("cold", "There are lots of different cold and cough medicines, and they do different things. "
                             "Read labels, because many cold and cough medicines contain the same active ingredients.",
                     title="Do you have information about Cold and Cough Medicines"),
             Passage("pregnancy", "Not all medicines are safe to take when you are pregnant. Some medicines can harm "
                                  "your baby. Always speak with your health care provider before you start or stop "
                                  "any medicine.", title="Do you have information about Pregnancy and Medicines")]
    slots = {"demographics": {"pregnant": True, "gender": "female"},
             "medications": [{"name": "cold and cough medicines", "concept_id": "C1", "negated": False,
                              "asked_about": True}]}
    checker = SupportChecker(minilm, lambda text: {"C1"} if "cold and cough medicine" in text.lower() else set())
    composed = compose(question="Can I take cold and cough medicines while pregnant?", language="en", slots=slots,
                       documents=pages, checker=checker)
    assert any(s.source == 2 for s in composed.sentences)
    not_pregnant = {**slots, "demographics": {"pregnant": None}}
    composed = compose(question="Can I take cold and cough medicines?", language="en", slots=not_pregnant,
                       documents=pages, checker=checker)
    assert not any(s.source == 2 for s in composed.sentences)


def test_the_opposite_of_the_topic_is_never_quoted():
    """"혈당이 너무 높아요. 어떻게 해요?" quoted the low-blood-sugar page's "To treat hypoglycemia, people should
    have a serving of a quick-fix food …": sugar for someone whose sugar is high."""
    from engine.agent.composer import not_the_opposite, opposite_terms
    from engine.agent.support import Evidence

    assert opposite_terms(["hyperglycemia"]) == ["hypoglycemia"]
    assert opposite_terms(["high blood pressure"]) == ["low blood pressure"]
    assert opposite_terms(["hypoglycemia", "hyperglycemia"]) == []  # a question about both
    assert opposite_terms(["highlights", "diabetes"]) == []
    low = Passage("low", "", title="What is (are) Hypoglycemia ? (Also called: Low blood sugar)")
    high = Passage("high", "", title="What is (are) Hyperglycemia ? (Also called: High blood sugar)")
    pool = [Evidence(1, "To treat hypoglycemia, people should have a serving of a quick-fix food.", 0),
            Evidence(1, "When people with diabetes think their blood glucose level is low, they should check it.", 1),
            Evidence(1, "Hypoglycemia is the opposite of hyperglycemia, which is high blood sugar.", 2),
            Evidence(2, "High blood glucose can happen if you miss taking your diabetes medicines.", 0)]
    kept, left_out = not_the_opposite(pool, [low, high], ["hyperglycemia", "high blood glucose"])
    assert [e.text[:20] for e in kept] == [pool[2].text[:20], pool[3].text[:20]] and left_out == 2
    assert not_the_opposite(pool, [low, high], ["hypoglycemia", "low blood sugar"])[1] == 1


def test_an_answer_about_high_blood_sugar_quotes_no_advice_for_low_blood_sugar(minilm):
    low = Passage("low", "When people with diabetes think their blood glucose level is low, they should check it and "
                         "treat the problem right away. To treat hypoglycemia, people should have a serving of a "
                         "quick-fix food, wait 15 minutes, and check their blood glucose again.",
                  title="What to do for Hypoglycemia ? (Also called: Low blood sugar)")
    high = Passage("high", "High blood glucose can happen if you miss taking your diabetes medicines, eat too much or "
                           "get sick. Call your health care provider if your blood sugar stays high.",
                   title="What is (are) Hyperglycemia ? (Also called: High blood sugar)")
    slots = {"conditions": [{"name": "hyperglycemia", "text": "blood sugar is too high"}]}
    composition = compose(question="My blood sugar is too high. What should I do?", language="en", slots=slots,
                          documents=[low, high], checker=SupportChecker(minilm, lambda text: set()))
    assert "quick-fix" not in composition.text and "glucose level is low" not in composition.text
    assert "[2]" in composition.text


@pytest.mark.parametrize("question, kind", [
    ("65세 여자, 고혈압으로 암로디핀 5mg 복용 중인데 발목이 부어요. 약 때문인가요?", "side_effects"),
    ("I take amlodipine and my ankles are swollen. Is it from the medicine?", "side_effects"),
    ("Could my cough be caused by my lisinopril?", "side_effects"),
    ("메트포르민 먹고 나서 설사해요. 왜 그래요?", "side_effects"),
    # a medicine taken beside a cause asked about generally, or no complaint
    ("What causes diarrhea? I take metformin.", "causes"),
])
def test_asking_whether_a_complaint_comes_from_a_medicine_asks_its_side_effects(question, kind):
    from engine.agent.composer import asked_kind

    medicine = next(m for m in ("amlodipine", "lisinopril", "metformin", "암로디핀", "메트포르민") if m in question)
    slots = {"medications": [{"name": medicine, "text": medicine, "negated": False}],
             "symptoms": [{"name": "complaint", "text": "x", "negated": False}]}
    assert asked_kind(question, slots) == kind


def test_the_side_effects_of_a_medicine_the_asker_takes_are_about_that_medicine():
    """The Korean amlodipine question quoted "Many factors can affect blood pressure …" from the
    high-blood-pressure page under 부작용: the topic held the condition and the complaint too."""
    from engine.agent.composer import question_topic

    slots = {"conditions": [{"name": "hypertension", "concept_id": "C1"}],
             "symptoms": [{"name": "swelling", "concept_id": "C2"}],
             "medications": [{"name": "amlodipine", "concept_id": "C3"}]}
    topic = question_topic([], slots, lambda text: set(), "side_effects")
    assert topic.ids == {"C3"} and topic.medicine
    assert question_topic([], slots, lambda text: set(), "causes").ids == {"C1", "C2", "C3"}


def test_a_korean_question_about_a_lab_test_is_answered_from_the_page_on_the_test(minilm, clinical_pack):
    """"당화혈색소 정상 수치가 얼마예요?" names no condition, medicine or symptom, only a test: the query
    plan's focus is its topic, the lead names the test in Korean, and the answer is not refused."""
    from engine.agent.writer import concept_reader
    from engine.clinical import PackConceptFinder, extract
    from engine.knowledge.translation import QueryTranslator

    a1c = Passage("a1c", "A1C is a blood test for type 2 diabetes and prediabetes. It measures your average blood "
                  "glucose, or blood sugar, level over the past 3 months. A normal A1C level is below 5.7 percent.",
                  title="What is (are) A1C ?")
    air = Passage("air", "Air pollution is a mixture of solid particles and gases in the air.",
                  title="Do you have information about Air Pollution")
    question = "당화혈색소 정상 수치가 얼마예요?"
    plan = QueryTranslator(PackConceptFinder()).plan(question)
    checker = SupportChecker(minilm, concept_reader(SimpleNamespace(clinical=SimpleNamespace(extract=extract))))
    composition = compose(question=question, language="ko", slots=extract(question), documents=[a1c, air],
                          checker=checker, plan=plan)
    assert composition.text.startswith("당화혈색소에 대해")
    sourced = [s.text for s in composition.sentences if s.kind == "sourced"]
    assert "A normal A1C level is below 5.7 percent." in sourced
    assert not any("Air pollution" in s for s in sourced)
    assert not [d for d in composition.decisions if "long message" in d or "no medical term" in d]


def test_a_measured_value_makes_its_condition_the_topic_of_an_english_question(minilm, clinical_pack):
    """"My potassium is 5.8" is about high potassium: a page on a disease that potassium aggravates is not."""
    from engine.agent.writer import concept_reader
    from engine.clinical import PackConceptFinder, extract
    from engine.knowledge.translation import QueryTranslator

    high = Passage("high", "High potassium level is a problem in which the amount of potassium in the blood is "
                   "higher than normal. The medical name of this condition is hyperkalemia. The kidneys may not "
                   "remove enough potassium when they do not work well. Some blood pressure drugs can cause a high "
                   "potassium level.",
                   title="Do you have information about High potassium level")
    myotonia = Passage("myotonia", "Potassium aggravated myotonia is a group of diseases that causes tensing and "
                       "stiffness of skeletal muscles.", title="What is (are) Potassium aggravated myotonia ?")
    question = "My potassium is 5.8. What does that mean?"
    plan = QueryTranslator(PackConceptFinder()).plan(question)
    checker = SupportChecker(minilm, concept_reader(SimpleNamespace(clinical=SimpleNamespace(extract=extract))))
    composition = compose(question=question, language="en", slots=extract(question), documents=[high, myotonia],
                          checker=checker, plan=plan)
    sourced = [s.text for s in composition.sentences if s.kind == "sourced"]
    assert sourced and sourced[0].startswith("High potassium level is a problem")
    assert not any("myotonia" in s for s in sourced), composition.decisions
    assert composition.query == question  # an English question is embedded as asked


@pytest.mark.parametrize("question, asks", [
    ("감기 얼마나 오래 가요?", True),
    ("독감은 며칠 동안 아파요?", True),
    ("장염은 며칠이나 가요?", True),
    ("How long does shingles last?", True),
    ("How long will my cough last after a cold?", True),
    # how long a medicine is taken is its dose, not how long the illness lasts
    ("항생제는 며칠 먹어야 해요?", False),
    ("How long should I take antibiotics for a UTI?", False),
    ("How long does it take to use an inhaler?", False),
    ("What causes gout?", False),
])
def test_a_question_about_how_long_something_lasts(question, asks):
    from engine.agent.composer import asks_how_long

    assert asks_how_long(question) is asks


def test_asked_how_long_a_sentence_that_gives_a_time_span_answers_it():
    from engine.agent.composer import speaks_to

    assert speaks_to("The rash clears up within 2 to 4 weeks.", "definition", aspect="how_long")
    assert speaks_to("Rotavirus typically causes vomiting and watery diarrhea for 3 to 7 days.", "definition",
                     aspect="how_long")
    assert not speaks_to("Shingles is caused by the chickenpox virus.", "definition", aspect="how_long")
    assert not speaks_to("The rash clears up within 2 to 4 weeks.", "causes")


def test_a_korean_question_about_how_long_an_illness_lasts_quotes_the_time_span(minilm, clinical_pack):
    from engine.agent.writer import concept_reader
    from engine.clinical import extract

    shingles = Passage("shingles", "Shingles is an outbreak of rash or blisters on the skin. It is caused by the same "
                       "virus that causes chickenpox. The leading risk factor for shingles is a history of chickenpox. "
                       "Shingles is more common after age 50. The rash forms blisters that scab over in 7 to 10 days "
                       "and clear up within 2 to 4 weeks.", title="What is (are) Shingles ?")
    question = "대상포진은 얼마나 오래 가요?"
    checker = SupportChecker(minilm, concept_reader(SimpleNamespace(clinical=SimpleNamespace(extract=extract))))
    composition = compose(question=question, language="ko", slots=extract(question), documents=[shingles],
                          checker=checker)
    assert composition.text.startswith("대상포진의 지속 기간에 대해")
    assert composition.query == "How long does shingles last?"
    sourced = [s.text for s in composition.sentences if s.kind == "sourced"]
    assert any("within 2 to 4 weeks" in s for s in sourced), sourced


@pytest.mark.parametrize("question, aspect", [
    ("건선은 전염되나요?", "spread"),
    ("독감은 어떻게 옮아요?", "spread"),
    ("Is pink eye contagious?", "spread"),
    ("How is strep throat spread?", "spread"),
    ("Can you catch shingles from someone?", "spread"),
    ("감기 얼마나 오래 가요?", "how_long"),
    ("What is psoriasis?", ""),
    ("집을 옮겼어요. 건선 약은 어떻게 먹어요?", ""),
    ("임신 중에 타이레놀 먹어도 돼요?", "pregnancy"),
    ("Is it safe to take metformin during pregnancy?", "pregnancy"),
    ("Can I take Tylenol while breastfeeding?", "pregnancy"),
])
def test_what_a_question_asks_of_its_topic_besides_its_kind_is_its_aspect(question, aspect):
    from engine.agent.composer import asked_aspect

    assert asked_aspect(question) == aspect


def test_a_question_whether_an_illness_spreads_opens_with_what_the_sources_say_of_it(minilm, clinical_pack):
    from engine.agent.writer import concept_reader
    from engine.clinical import extract

    eczema = Passage("eczema", "Eczema is a term for several different types of skin swelling. Eczema is also called "
                     "dermatitis. Most types cause dry, itchy skin and rashes on the face, inside the elbows and behind "
                     "the knees. Eczema is not contagious. The most common type of eczema is atopic dermatitis.",
                     title="What is (are) Eczema ?")
    checker = SupportChecker(minilm, concept_reader(SimpleNamespace(clinical=SimpleNamespace(extract=extract))))
    for question, lead in (("Is eczema contagious?", "Whether and how eczema spreads"),
                           ("습진은 전염되나요?", "습진의 전염")):
        _assert_led_and_opened(question, eczema, checker, lead, "not contagious")
    # Nothing on the page says whether it spreads: the lead says so.
    page = Passage("psoriasis", "Psoriasis is a chronic skin disease. It causes itchy patches of thick, red skin "
                   "with silvery scales. Psoriasis occurs when the skin cells grow too quickly.",
                   title="What is (are) Psoriasis ?")
    composition = compose(question="Is psoriasis contagious?", language="en", slots=extract("Is psoriasis contagious?"),
                          documents=[page], checker=checker)
    assert "do not seem to speak directly to whether and how psoriasis spreads" in composition.text, composition.text


def test_a_medicine_in_pregnancy_opens_with_what_the_sources_say_of_medicines_in_pregnancy(minilm, clinical_pack):
    """Asked whether a medicine is safe in pregnancy, the sentences on medicines and safety in pregnancy
    lead, under a lead that says so; vitamins for pregnant women are no answer to it."""
    from engine.agent.composer import answers_the_aspect
    from engine.agent.writer import concept_reader
    from engine.clinical import extract

    assert answers_the_aspect("Not all medicines are safe to take when you are pregnant.", "pregnancy")
    assert answers_the_aspect("Tell your doctor if you are pregnant or plan to become pregnant.", "pregnancy")
    assert not answers_the_aspect("There are special vitamins for pregnant women.", "pregnancy")
    page = Passage("acetaminophen", "Acetaminophen is used to relieve mild to moderate pain from headaches, muscle "
                   "aches and colds. Acetaminophen is in a class of medications called analgesics. Tell your doctor "
                   "if you are pregnant, plan to become pregnant, or are breast-feeding. Take acetaminophen exactly "
                   "as directed on the label.", title="What is (are) Acetaminophen ?")
    checker = SupportChecker(minilm, concept_reader(SimpleNamespace(clinical=SimpleNamespace(extract=extract))))
    for question, lead in (("Is it safe to take Tylenol during pregnancy?",
                            "What the sources say about tylenol (acetaminophen) in pregnancy"),
                           ("임신 중에 타이레놀 먹어도 돼요?", "임신·수유 중의 아세트아미노펜")):
        _assert_led_and_opened(question, page, checker, lead, "pregnant")


def _assert_led_and_opened(question: str, page: Passage, checker, lead: str, first_quote_holds: str) -> None:
    """The answer to `question` from `page` opens with `lead`, and its first quote holds `first_quote_holds`."""
    from engine.clinical import extract
    from engine.text import has_hangul

    composition = compose(question=question, language="ko" if has_hangul(question) else "en",
                          slots=extract(question), documents=[page], checker=checker)
    assert composition.text.startswith(lead), composition.text
    sourced = [s.text for s in composition.sentences if s.kind == "sourced"]
    assert first_quote_holds in sourced[0], sourced


def test_on_the_page_on_what_a_medicine_class_treats_only_a_sentence_naming_a_medicine_is_about_the_class():
    """Asked how often to give fever reducers, fever's page answers with "Take acetaminophen every 4 to 6
    hours"; what a fever is, or medicines among its causes, says nothing of fever reducers."""
    from engine.agent.composer import Topic, is_on_topic, pages_on_what_it_treats
    from engine.agent.support import Evidence

    slots = {"medications": [{"name": "antipyretics", "concept_id": "CS:antipyretics"}]}
    treats = pages_on_what_it_treats(SimpleNamespace(treats={"antipyretics": "fever"}), slots)
    assert treats == {"fever"}
    topic = Topic({"CS:ANTIPYRETICS"}, [{"antipyret"}], medicine=True, treats=treats)
    documents = [SimpleNamespace(title="What to do for Fever ? (Also called: Pyrexia)", text="")]

    def about(text: str) -> bool:
        return is_on_topic(Evidence(1, text, 0), documents, topic, lambda text: set())

    assert about("Take acetaminophen every 4 to 6 hours.")
    assert not about("A fever is a body temperature that is higher than normal.")
    assert not about("There can be many other causes, including: Medicines; Heat exhaustion.")


def test_how_often_to_measure_something_is_not_led_as_its_dose(minilm, clinical_pack):
    """"혈당은 하루에 몇 번 재야 해요?" reads as a dose question; blood sugar has no dose."""
    from engine.agent.writer import concept_reader
    from engine.clinical import extract

    page = Passage("bs", "Blood sugar, or glucose, is the main sugar found in your blood. You may need to check your "
                   "blood sugar several times each day.", title="What is (are) Blood Sugar ?")
    checker = SupportChecker(minilm, concept_reader(SimpleNamespace(clinical=SimpleNamespace(extract=extract))))
    plan = SimpleNamespace(subqueries=[SimpleNamespace(focus=["blood glucose"], qtype="usage")], treats={})
    question = "혈당은 하루에 몇 번 재야 해요?"
    composition = compose(question=question, language="ko", slots=extract(question), documents=[page],
                          checker=checker, plan=plan)
    assert composition.text.startswith("혈당에 대해 출처에서 찾은 설명입니다."), composition.text
    assert "용량" not in composition.text.split("\n")[0]


def test_an_illness_newer_than_the_knowledge_base_is_not_answered_from_older_related_pages(minilm, clinical_pack):
    """The knowledge base predates COVID-19: its coronavirus page's "There is no vaccine to prevent coronavirus
    infection." is out of date for it. A clinic's own page on COVID-19 is quoted."""
    from engine.agent.writer import concept_reader
    from engine.clinical import extract

    old = Passage("cov", "Coronaviruses are common viruses that most people get some time in their life. If you get "
                  "infected, symptoms may include: Runny nose; Cough; Sore throat; Fever. There is no vaccine to "
                  "prevent coronavirus infection.", title="What is (are) Coronavirus Infections ?")
    checker = SupportChecker(minilm, concept_reader(SimpleNamespace(clinical=SimpleNamespace(extract=extract))))
    for question, language, notice in (("Is there a vaccine for COVID?", "en", "was written before COVID-19"),
                                       ("코로나 증상이 뭐예요?", "ko", "이전에 만들어져")):
        composition = compose(question=question, language=language, slots=extract(question), documents=[old],
                              checker=checker)
        assert notice in composition.text, composition.text
        assert not [s for s in composition.sentences if s.kind == "sourced"]
    own = Passage("clinic", "COVID-19 vaccines are recommended for everyone 6 months and older.",
                  title="What is (are) COVID-19 vaccines ?")
    composition = compose(question="Is there a vaccine for COVID?", language="en",
                          slots=extract("Is there a vaccine for COVID?"), documents=[own], checker=checker)
    assert any("recommended" in s.text for s in composition.sentences if s.kind == "sourced"), composition.text


@pytest.mark.parametrize("text, kind", [
    ("메트포르민 먹고 설사를 해요", "side_effects"),
    ("I am on metformin and my stomach is upset all the time", "side_effects"),
    ("열이 나서 타이레놀 먹였어요", "definition"),  # the fever is what the medicine was given for
    ("메트포르민 먹고 설사를 해요. 당뇨는 어떤 병이에요?", "definition"),  # it asks something else
])
def test_a_complaint_stated_after_a_medicine_is_read_for_its_side_effects(clinical_pack, text, kind):
    from engine.agent.composer import asked_kind
    from engine.clinical import extract

    assert asked_kind(text, extract(text)) == kind


def test_a_medicine_asked_about_under_a_kind_only_a_condition_has_is_led_as_itself(minilm, clinical_pack):
    from engine.agent.writer import concept_reader
    from engine.clinical import extract

    page = Passage("ad", "Antidepressants are prescription medicines you may take to help with depression, anxiety, "
                   "or pain. They work to balance some of the natural chemicals in our brains. It is important to keep "
                   "taking your medicines, even if you feel better.", title="What is (are) Antidepressants ?")
    question = "How long does it take for antidepressants to work?"
    checker = SupportChecker(minilm, concept_reader(SimpleNamespace(clinical=SimpleNamespace(extract=extract))))
    composition = compose(question=question, language="en", slots=extract(question), documents=[page], checker=checker)
    assert composition.text.startswith("What the sources say about antidepressants:"), composition.text
    assert "is treated" not in composition.text


def test_a_title_is_not_quoted():
    from engine.agent.composer import quotable

    assert not quotable("Emergency Use Authorization (EUA) of Medical Products and Devices (including antiviral drugs)")
    assert quotable("Some NSAIDs can be bought over the counter, such as aspirin, ibuprofen (Advil, Motrin), and "
                    "naproxen (Aleve, Naprosyn).")
    assert quotable("(Cholesterol is measured as milligrams (mg) of cholesterol per deciliter (dL) of blood.)")


def test_a_drinking_glass_says_nothing_of_alcohol_and_a_video_is_not_quoted():
    from engine.agent.composer import about_drinking, quotable
    from engine.agent.support import Evidence

    glasses = Evidence(1, "HCV cannot be spread by casual contact, such as sharing eating utensils or drinking glasses.", 0)
    drink = Evidence(1, "Avoid drinking alcohol, which can harm the liver.", 1)
    assert about_drinking([glasses, drink]) == ([drink], 1)
    assert not quotable('If you drink and would like tips on how to cut back, watch the video "How To Cut Back on '
                        'Your Drinking."')
    assert quotable("Drinking too much alcohol can raise your blood pressure.")


def test_a_list_of_daily_care_steps_is_what_to_do():
    from engine.agent.composer import speaks_to

    assert speaks_to("Good foot hygiene is also crucial: Check your feet every day; Wash your feet every day; "
                     "Keep the skin soft and smooth.", "what_to_do")
    assert speaks_to("Wear shoes and socks at all times; Protect your feet from hot and cold.", "what_to_do")
    assert not speaks_to("The doctor will check your feet for sores at each visit.", "what_to_do")


def test_how_a_sample_is_taken_for_a_test_is_not_what_to_do():
    from engine.agent.composer import speaks_to

    said = "Your health care provider will use a cotton swab to collect the sample from inside the outer ear canal."
    assert not speaks_to(said, "what_to_do")
    assert speaks_to("If you cannot remove the wax plug, consult a health care provider.", "what_to_do")


def _stone_chain():
    from engine.agent.support import Evidence

    head = Evidence(1, "Most kidney stones pass out of the body without help from a doctor.", 2)
    but = Evidence(1, "But sometimes a stone will not go away.", 3)
    it = Evidence(1, "It may get stuck in the urinary tract, block the flow of urine and cause great pain.", 4)
    return head, but, it


def test_a_chain_of_followers_is_quoted_in_its_own_order_and_none_is_lost():
    """"But sometimes …" follows the sentence it qualifies and "It may get stuck …" follows that: in whatever
    order they were chosen, the three stand together, and a follower whose sentence is missing is kept, not
    dropped (the answer's order must hold every quote)."""
    from engine.agent.composer import in_pairs
    from engine.agent.support import Evidence

    head, but, it = _stone_chain()
    other = Evidence(5, "People with kidney stones may have pain while urinating.", 0)
    follows = {id(but): head, id(it): but}
    assert in_pairs([it, other, but, head], follows) == [other, head, but, it]
    assert in_pairs([it, other, but], follows) == [other, but, it]


def test_chained_units_chosen_out_of_order_stand_together_where_the_first_was_chosen():
    from engine.agent.composer import _with_followers
    from engine.agent.support import Evidence

    head, but, it = _stone_chain()
    other = Evidence(5, "People with kidney stones may have pain while urinating.", 0)
    joined = {but.text: (but, it), head.text: (head, but)}
    picked, follows = _with_followers([(other, 0.9), (but, 0.8), (head, 0.1)], joined)
    assert picked == [other, head, but, it]
    assert follows == {id(it): but, id(but): head}


def test_a_follower_goes_when_the_sentence_it_follows_goes_down_the_chain():
    from engine.agent.composer import with_their_leaders

    head, but, it = _stone_chain()
    follows = {id(but): head, id(it): but}
    assert [e for e, _ in with_their_leaders([(but, None), (it, None)], follows)] == []
    assert [e for e, _ in with_their_leaders([(head, None), (but, None), (it, None)], follows)] == [head, but, it]


def test_an_answer_quotes_a_chain_of_followers_together(minilm):
    """"신장결석 증상이 뭐예요?" failed the turn: a chain of followers chosen out of order lost its head to the
    Korean share, and the answer's order had no place for the rest."""
    slots = {"conditions": [{"name": "kidney stones"}]}
    stones = Passage("stones", "A kidney stone is a solid piece of material that forms in the kidney. Most kidney "
                     "stones pass out of the body without help from a doctor. But sometimes a stone will not go "
                     "away. It may get stuck in the urinary tract, block the flow of urine and cause great pain. "
                     "The following may be signs of kidney stones that need a doctor's help: extreme pain in your "
                     "back or side; blood in your urine; fever and chills; vomiting.",
                     title="Kidney Stones")
    symptoms = Passage("symptoms", "People with kidney stones may have pain while urinating, see blood in the "
                       "urine, or feel a sharp pain in the back or lower abdomen. People may experience nausea and "
                       "vomiting with the pain. However, people who have small stones that pass easily through the "
                       "urinary tract may not have symptoms at all.",
                       title="What are the symptoms of Kidney Stones?")
    for language, question in (("ko", "신장결석 증상이 뭐예요?"), ("en", "What are the symptoms of kidney stones?")):
        composition = _answer_by_names(minilm, question, slots, [stones, symptoms], language)
        quoted = [s.text for s in composition.sentences if s.kind == "sourced"]
        assert quoted
        for at, text in enumerate(quoted):
            if text.startswith("It may get stuck"):
                assert at > 0 and quoted[at - 1] == "But sometimes a stone will not go away."
            if text.startswith("But sometimes") and "Most kidney stones pass" in " ".join(quoted):
                assert quoted[at - 1].startswith("Most kidney stones pass")


def test_an_answer_does_not_open_with_other_or_rare_ones_of_the_asked_kind():
    """"People who have pneumonia may have other symptoms, including nausea …" from the first passage opened
    the answer, before the second passage's main symptoms; it now reads after them. "Other causes include …"
    right after "The most common cause is …" in its passage goes on from it and keeps its place."""
    from engine.agent import composer
    from engine.agent.support import Evidence

    symptoms = composer.Reading("symptoms")
    other = Evidence(1, "People who have pneumonia may have other symptoms, including nausea, vomiting, and diarrhea.", 4)
    rare = Evidence(1, "In rare cases, heart failure or seizures may occur.", 6)
    main = Evidence(2, "The air sacs may fill up with fluid or pus, causing symptoms such as a cough with phlegm, "
                       "fever, chills, and trouble breathing.", 1)
    assert composer.reading_order([other, rare, main], symptoms, ["pneumonia"]) == [main, other, rare]
    # Other ones of another kind than the asked one are no reason to move.
    care = composer.Reading("considerations")
    alert = Evidence(1, "Persons bitten by a tick should consult a physician if fever, rash, or other symptoms "
                        "develop.", 0)
    prevent = Evidence(2, "Measures should be taken to prevent tick bites.", 0)
    assert composer.reading_order([alert, prevent], care, ["tick bites"]) == [alert, prevent]

    causes = composer.Reading("causes")
    common = Evidence(1, "The most common cause is heavy alcohol use.", 2)
    others = Evidence(1, "Other causes include cystic fibrosis and some medicines.", 3)
    attack = Evidence(2, "Gallstones can block the pancreatic duct.", 0)
    assert composer.reading_order([common, others, attack], causes, ["pancreatitis"])[:2] == [common, others]
    lone = Evidence(1, "Other causes are stress, a low protein diet, or poor nutrition.", 3)
    assert composer.reading_order([lone, attack], causes, ["hair loss"]) == [attack, lone]
    prevention = composer.Reading("prevention")
    adds = Evidence(1, "In addition, your doctor may prescribe a medication to slow bone loss.", 1)
    food = Evidence(1, "Calcium and vitamin D help keep bones strong.", 5)
    assert composer.reading_order([adds, food], prevention, ["osteoporosis"]) == [food, adds]


def test_a_note_on_the_page_s_video_or_a_pointer_in_brackets_is_not_quoted():
    from engine.agent.composer import quotable

    assert not quotable("To reduce the video, press the Escape (Esc) button on your keyboard.)")
    assert not quotable("(See the General Information section for a list of tests.)")
    assert quotable("(This situation is known as reduced penetrance.)")


def test_a_sentence_that_announces_the_topic_s_own_list_of_the_asked_kind_opens_the_answer():
    """"People should watch for the following signs and symptoms of dehydration in infants …: dry mouth …" gives
    the signs asked for; it reads before "Taking too much all at once can … make you throw up"."""
    from engine.agent import composer
    from engine.agent.support import Evidence

    signs = ("People should watch for the following signs and symptoms of dehydration in infants and young children: "
             "dry mouth and tongue; no tears when crying; no wet diapers for 3 hours or more.")
    assert composer.announces_the_kind(signs, "symptoms", ["dehydration"])
    assert composer.announces_the_kind("These are warning signs of a stroke: sudden numbness; confusion.", "symptoms",
                                       ["stroke"])
    assert not composer.announces_the_kind(signs, "causes", ["dehydration"])
    assert not composer.announces_the_kind("Watch for the following signs of infection: fever; chills.", "symptoms",
                                           ["dehydration"])
    throw_up = Evidence(1, "Taking too much all at once can overload your stomach and make you throw up.", 3)
    listed = Evidence(2, signs, 0)
    assert composer.reading_order([throw_up, listed], composer.Reading("symptoms"), ["dehydration"]) == [listed, throw_up]
