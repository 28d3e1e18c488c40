"""Korean -> English query expansion for retrieval."""

from __future__ import annotations

from engine.clinical import KoreanConceptExpander
from engine.protocols import QueryExpander


def test_expander_implements_the_protocol_and_maps_korean_concepts(clinical_pack):
    expander = KoreanConceptExpander(clinical_pack)
    assert isinstance(expander, QueryExpander)
    terms = expander.expand("당뇨약 먹으면 저혈당이 올 수 있나요?")
    assert "antidiabetic drugs" in terms and "hypoglycemia" in terms
    assert all(not any("\uac00" <= ch <= "\ud7a3" for ch in term) for term in terms)


def test_mixed_query_expands_only_the_korean_part_and_skips_negated_concepts(clinical_pack):
    expander = KoreanConceptExpander(clinical_pack)
    terms = expander.expand("metformin 먹는데 설사가 나요. 열은 없어요")
    assert "diarrhea" in terms
    assert "metformin" not in terms and "fever" not in terms


def test_english_or_unknown_queries_expand_to_nothing(clinical_pack):
    expander = KoreanConceptExpander(clinical_pack)
    assert expander.expand("What is the normal A1c?") == []
    assert expander.expand("안녕하세요 반갑습니다") == []


def test_everyday_names_and_upper_case_abbreviations_name_their_condition(clinical_pack):
    from engine.clinical import PackConceptFinder

    finder = PackConceptFinder(clinical_pack)

    def names(text):
        return [m["name"] for m in finder(text)]

    assert names("초등학생 아이가 아직도 밤에 오줌을 싸요") == ["bedwetting"]
    assert names("귀지가 꽉 막힌 것 같아요") == ["ear wax"]
    assert names("산후우울증이 뭐예요?") == ["postpartum depression"]
    assert names("어머니가 집에서 넘어지지 않으려면 어떻게 해야 하나요?") == ["falls"]
    assert names("애가 요충이 있대요") == ["pinworms"]
    assert names("비행기 오래 타는데 다리에 혈전 생기는 거 어떻게 막아요?") == ["deep vein thrombosis"]
    assert names("Why do my hands and feet tingle?") == ["numbness"]
    # Falling again and again is falls, frequency word and all; one fall is not.
    assert names("어르신이 자꾸 넘어지세요. 어떻게 예방하나요?") == ["falls"]
    assert names("어머니가 자주 넘어지세요") == ["falls"]
    assert "falls" not in names("넘어지면서 손목을 다쳤어요")
    # A fall that broke a bone names the break, not falls.
    assert "falls" not in names("애가 자전거 타다 넘어져서 팔이 부러진 것 같아요")
    assert names("How can I lower my baby's risk of SIDS?") == ["sudden infant death syndrome"]
    # Interstitial cystitis is a chronic bladder pain syndrome, not the bladder infection 방광염 names.
    assert names("간질성 방광염이 뭐예요?") == ["interstitial cystitis"]
    assert names("방광염이에요") == ["cystitis"]
    # Lowering blood pressure is about high blood pressure, not low.
    assert names("약 없이 혈압 낮추는 방법이 있나요?") == ["hypertension"]
    assert names("혈압이 낮아요") == ["hypotension"]
    assert names("How can I lower my blood pressure?") == ["hypertension"]
    assert names("How can I lower my cholesterol?") == ["high cholesterol"]
    assert names("콜레스테롤 낮추는 방법이 있나요?") == ["high cholesterol"]
    assert names("혈당 낮추는 음식이 있나요?") == ["hyperglycemia"]
    # A cold sore has its own page; herpes simplex's names its encephalitis too.
    assert names("입술포진이 자꾸 생겨요") == ["cold sores"]
    assert names("What causes cold sores?") == ["cold sores"]
    assert names("헤르페스가 뭐예요?") == ["herpes simplex"]
    # A family of medicines filed under a condition's id in concepts.tsv ("Blood Pressure Medicines" under the id
    # normal pressure hydrocephalus takes) is not a name of the condition.
    assert names("Can I stop taking my blood pressure medicine?") == ["antihypertensives"]
    # 당뇨발 is the diabetic foot, whose page gives its daily care; a diabetic foot ulcer is no stomach ulcer.
    assert names("당뇨발 관리는 어떻게 해요?") == ["diabetic foot"]
    assert names("당뇨병성 신경병증이 뭐예요?") == ["diabetic neuropathy"]
    assert names("How do I take care of a diabetic foot ulcer?") == ["diabetic foot"]
    assert names("I have a stomach ulcer.") == ["peptic ulcer"]
    # An abbreviation counts only written upper case: "all" is a word.
    assert names("What is ALS?") == ["amyotrophic lateral sclerosis"]
    assert names("all of them") == []
    # A medicine's mention carries its drug classes, which stand in when the medicine has no page.
    assert "antidepressants" in finder("sertraline side effects")[0]["classes"]


def test_lab_tests_are_mentions_and_a_measured_value_names_its_condition(clinical_pack):
    from engine.clinical import PackConceptFinder

    finder = PackConceptFinder(clinical_pack)

    def found(text):
        return [(m["name"], m["slot"]) for m in finder(text)]

    assert found("당화혈색소 정상 수치가 얼마예요?") == [("HbA1c", "test")]
    assert found("What is a normal A1C?") == [("HbA1c", "test")]
    assert found("갑상선 수치가 높대요") == [("TSH", "test")]
    # A measured value names the condition it shows, not the test and not a medicine.
    assert found("혈당이 250이에요. 어떻게 해야 돼요?") == [("hyperglycemia", "condition")]
    assert found("My potassium is 5.8. What does that mean?") == [("High potassium level", "symptom")]
    assert finder("My blood sugar is 300.")[0]["measured"]
    # So does a high blood pressure ("혈압이 160에 100인데 위험한가요?" named nothing and was refused); a normal
    # one names nothing, and a condition named beside it is not named twice.
    hypertension = [(m["name"], m["slot"]) for m in finder("high blood pressure")]
    assert found("혈압이 160에 100인데 위험한가요?") == hypertension
    assert found("My blood pressure is 160/100. Is that dangerous?") == hypertension
    assert finder("혈압이 150/95 나왔어요")[0]["measured"]
    assert found("혈압이 118/76이에요") == []
    assert found("고혈압 있어요. 혈압이 160/100이에요") == hypertension
    # A concept that covers the words wins over the test.
    assert found("콜레스테롤 수치가 높대요") == [("high cholesterol", "condition")]
    # Two-letter names (K, Na, Cr) name too much else.
    assert found("Vitamin K and Na") == [] or all(slot != "test" for _, slot in found("Vitamin K and Na"))
