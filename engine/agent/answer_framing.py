"""The fixed words around a composed answer, in the question's language.

A Korean question gets its lead, headings, key terms, patient facts and the standing
notice in Korean; the evidence stays the English source sentences, quoted with their [n]
and labelled as English source text (nothing is machine-translated, so nothing is changed).
Korean names of concepts come from the team's lexicon (the names the concept pack is built
from) and, for a concept id, from the loaded pack's synonyms.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Sequence

from engine.clinical.lexicon import english_display_names, korean_name_slots, korean_names
from engine.clinical.measurements import korean_lab_names
from engine.clinical.slot_model import NAMING_SLOTS
from engine.knowledge.questions import ALCOHOL
from engine.text import has_hangul, tokenize

QUESTION_KINDS = ("definition", "causes", "symptoms", "diagnosis", "treatment", "prevention", "dosage",
                  "side_effects", "interaction", "what_to_do")

# The advice every lead of a dose answer carries.
DOSE_CHECK_EN = "(confirm any dose with a pharmacist or clinician)"
DOSE_CHECK_KO = "실제 용량은 반드시 약사나 의사와 확인하세요."

LEADS = {
    "en": {
        "definition": "What the sources say about {topic}:",
        "causes": "What causes {topic}, according to the sources:",
        "symptoms": "Symptoms of {topic} described in the sources:",
        "diagnosis": "How {topic} is diagnosed, according to the sources:",
        "treatment": "How {topic} is treated, according to the sources:",
        "prevention": "How {topic} can be prevented, according to the sources:",
        "dosage": f"What the sources say about the dose of {{topic}} {DOSE_CHECK_EN}:",
        "side_effects": "Side effects of {topic} described in the sources:",
        "interaction": "What the sources say about taking {topic} together:",
        "what_to_do": "What the sources advise about {topic}:",
        "food": "What the sources say about eating and diet with {topic}:",
        "how_long": "The duration of {topic}, according to the sources:",
        "spread": "Whether and how {topic} spreads, according to the sources:",
        "pregnancy": "What the sources say about {topic} in pregnancy and breastfeeding:",
        "precaution": "What the sources say about taking {medicine} with {condition}:",
        "with_alcohol": "What the sources say about drinking alcohol while taking {medicine}:",
        "alcohol_with_condition": "What the sources say about drinking alcohol with {condition}:",
        "with_others": "What the sources say about taking {medicine} with other medicines, food or drink:",
    },
    "ko": {
        "definition": "{topic}에 대해 출처에서 찾은 설명입니다.",
        "causes": "{topic}의 원인에 대해 출처에서 찾은 내용입니다.",
        "symptoms": "{topic}의 증상에 대해 출처에서 찾은 내용입니다.",
        "diagnosis": "{topic}의 진단 방법에 대해 출처에서 찾은 내용입니다.",
        "treatment": "{topic}의 치료에 대해 출처에서 찾은 내용입니다.",
        "prevention": "{topic}의 예방에 대해 출처에서 찾은 내용입니다.",
        "dosage": f"{{topic}}의 용량에 대해 출처에서 찾은 내용입니다. {DOSE_CHECK_KO}",
        "side_effects": "{topic}의 부작용에 대해 출처에서 찾은 내용입니다.",
        "interaction": "{topic} 병용(함께 복용)에 대해 출처에서 찾은 내용입니다.",
        "what_to_do": "{topic}에 관해 지금 할 수 있는 일을 출처에서 찾은 내용입니다.",
        "food": "{topic}에 관련된 음식과 식사에 대해 출처에서 찾은 내용입니다.",
        "how_long": "{topic}의 지속 기간에 대해 출처에서 찾은 내용입니다.",
        "spread": "{topic}의 전염(옮는지, 어떻게 옮는지)에 대해 출처에서 찾은 내용입니다.",
        "pregnancy": "임신·수유 중의 {topic}에 대해 출처에서 찾은 내용입니다.",
        "precaution": "{condition} 환자의 {medicine} 복용에 대해 출처에서 찾은 내용입니다.",
        "with_alcohol": "{medicine} 복용 중 음주에 대해 출처에서 찾은 내용입니다.",
        "alcohol_with_condition": "{condition} 환자의 음주에 대해 출처에서 찾은 내용입니다.",
        "with_others": "{medicine} 복용 시 다른 약이나 음식과의 병용에 대해 출처에서 찾은 내용입니다.",
    },
}
# Leads for a question none of whose terms names a topic ("Is it OK to drink grapefruit juice with my
# medicines?"): "taking this question together" is no sentence.
LEADS_NO_TOPIC = {
    "en": {
        "definition": "What the sources say about this question:",
        "causes": "What causes it, according to the sources:",
        "symptoms": "Symptoms described in the sources:",
        "diagnosis": "How it is diagnosed, according to the sources:",
        "treatment": "How it is treated, according to the sources:",
        "prevention": "How it can be prevented, according to the sources:",
        "dosage": f"What the sources say about the dose {DOSE_CHECK_EN}:",
        "side_effects": "Side effects described in the sources:",
        "interaction": "What the sources say about taking these together:",
        "what_to_do": "What the sources advise:",
        "food": "What the sources say about eating and diet:",
        "how_long": "How long it lasts, according to the sources:",
        "spread": "Whether and how it spreads, according to the sources:",
        "pregnancy": "What the sources say about pregnancy and breastfeeding:",
    },
    "ko": {
        "definition": "이 질문에 대해 출처에서 찾은 설명입니다.",
        "causes": "원인에 대해 출처에서 찾은 내용입니다.",
        "symptoms": "증상에 대해 출처에서 찾은 내용입니다.",
        "diagnosis": "진단 방법에 대해 출처에서 찾은 내용입니다.",
        "treatment": "치료에 대해 출처에서 찾은 내용입니다.",
        "prevention": "예방에 대해 출처에서 찾은 내용입니다.",
        "dosage": f"용량에 대해 출처에서 찾은 내용입니다. {DOSE_CHECK_KO}",
        "side_effects": "부작용에 대해 출처에서 찾은 내용입니다.",
        "interaction": "함께 복용하는 것에 대해 출처에서 찾은 내용입니다.",
        "what_to_do": "지금 할 수 있는 일을 출처에서 찾은 내용입니다.",
        "food": "음식과 식사에 대해 출처에서 찾은 내용입니다.",
        "how_long": "지속 기간에 대해 출처에서 찾은 내용입니다.",
        "spread": "전염(옮는지, 어떻게 옮는지)에 대해 출처에서 찾은 내용입니다.",
        "pregnancy": "임신·수유 중의 사용과 안전에 대해 출처에서 찾은 내용입니다.",
    },
}
TEXTS = {
    "en": {
        "evidence": "",
        "profile": "Patient facts on file: {facts}.",
        "disclaimer": "This is general information from the cited sources, not a diagnosis; "
                      "check it with a clinician who knows the patient.",
        "nothing": "The knowledge base has no passage that answers this question well enough to quote, "
                   "so no answer is given; ask a clinician or rephrase the question.",
        "no_medicine_page": "The knowledge base has nothing about {name} to quote, so no answer is given; "
                            "ask a pharmacist or the prescriber about {name}.",
        "other_topics": "The knowledge base has no passage about {topic}; the sentences below come from pages on "
                        "other topics, so check that they apply:",
        "newer_than_sources": "The knowledge base was written before {topic} and has no page on it; pages on older, "
                              "related illnesses may be out of date for it (vaccines and treatments among them), so "
                              "none is quoted. Check current public-health guidance or ask a clinician.",
        "little_on_topic": "The knowledge base says little about {topic}; most sentences below come from pages on "
                           "other topics, so check that they apply:",
        "other_topics_no_topic": "No page found speaks of what this question asks; the sentences below come from "
                                 "pages on other topics, so check that they apply:",
        "not_together": "The knowledge base has no passage that speaks of {name} together, so no answer is given; "
                        "ask a pharmacist or the prescriber.",
        "unrecognised": "No medical term of this question was recognised, so no source can be matched to it and "
                        "no answer is given; name the condition, symptom or medicine (an English name works too).",
        "key_terms": "",
        "unquoted": "Also named in other sentences of the sources {sources}: {terms}.",
        "how_to_read": "",
        "weak": "Some sentences were left out because no source supported them.",
        "off_kind": "The sentences found do not seem to speak directly to {what}; what the sources say:",
    },
    "ko": {
        "evidence": "영어 원문 근거 (English source text, 번역하지 않고 출처 번호와 함께 인용):",
        "profile": "기록된 환자 정보: {facts}.",
        "disclaimer": "이 내용은 인용한 출처의 일반적인 의학 정보이며 진단이 아닙니다. "
                      "환자를 아는 의사나 약사와 꼭 상의하세요.",
        "nothing": "지식 베이스에서 이 질문에 인용할 만한 근거 문장을 찾지 못해 답변을 드리지 않습니다. "
                   "의사와 상의하시거나 질문을 바꿔 다시 물어봐 주세요.",
        "no_medicine_page": "지식 베이스에 {name}에 관해 인용할 내용이 없어 답변을 드리지 않습니다. "
                            "{name}에 대해서는 약사나 처방한 의사에게 물어봐 주세요.",
        "other_topics": "지식 베이스에 {topic}에 관한 문장이 없어, 아래는 다른 주제의 페이지에서 찾은 문장입니다. "
                        "해당되는지 꼭 확인하세요.",
        "newer_than_sources": "지식 베이스는 {topic} 이전에 만들어져 {topic}에 관한 페이지가 없습니다. 비슷한 예전 질환의 "
                              "페이지는 {topic}에는 맞지 않을 수 있어(백신, 치료 등) 인용하지 않습니다. 최신 보건 당국 "
                              "지침을 확인하거나 의료진에게 물어봐 주세요.",
        "little_on_topic": "지식 베이스에는 {topic}에 관한 문장이 거의 없어, 아래 문장은 대부분 다른 주제의 페이지에서 "
                           "찾은 것입니다. 해당되는지 꼭 확인하세요.",
        "other_topics_no_topic": "이 질문이 묻는 내용을 다룬 페이지를 찾지 못해, 아래는 다른 주제의 페이지에서 찾은 "
                                 "문장입니다. 해당되는지 꼭 확인하세요.",
        "not_together": "지식 베이스에는 {name}에 대해 둘을 함께 다룬 근거 문장이 없어 답변을 드리지 않습니다. "
                        "약사나 처방한 의사에게 물어봐 주세요.",
        "unrecognised": "질문에서 의학 용어를 알아보지 못해 출처와 맞춰 볼 수 없으므로 답변을 드리지 않습니다. "
                        "질환, 증상이나 약 이름을 넣어 다시 물어봐 주세요(영어 이름도 됩니다).",
        "key_terms": "핵심어",
        "gist": "한눈에 보기 — 출처의 {facet} 관련 문장에 나오는 용어: {terms}.",
        "unquoted": "영어 원문을 싣지 않은 근거 문장 {sources}에 나오는 용어: {terms}.",
        "how_to_read": "아래 근거는 영어 출처의 원문 그대로이며, 각 문장 앞에 그 문장이 다루는 주제와 핵심어를 한국어로 적었습니다.",
        "weak": "출처로 뒷받침되지 않는 문장은 뺐습니다.",
        "off_kind": "{topic}의 {what}에 관해 직접 다룬 문장은 출처에서 찾지 못한 것 같습니다. 관련해 출처에서 찾은 내용입니다.",
        "off_kind_no_topic": "질문한 {what}에 관해 직접 다룬 문장은 출처에서 찾지 못한 것 같습니다. 관련해 출처에서 찾은 내용입니다.",
        "off_kind_in_pregnancy": "임신·수유 중의 {topic}에 관해 직접 다룬 문장은 출처에서 찾지 못한 것 같습니다. 관련해 출처에서 "
                                 "찾은 내용입니다.",
    },
}
FACET_NAMES_KO = {
    "definition": "정의", "causes": "원인", "symptoms": "증상", "diagnosis": "진단", "treatment": "치료",
    "prevention": "예방", "dosage": "용량", "side_effects": "부작용", "interaction": "상호작용", "what_to_do": "대처", "other": "참고",
    "how_long": "지속 기간", "spread": "전염", "pregnancy": "임신·수유 중 안전",
}

# What each asked kind asks, in a lead that says no quoted sentence speaks to it.
KIND_PHRASES_EN = {"causes": "the causes of {topic}", "symptoms": "the symptoms of {topic}",
                   "diagnosis": "how {topic} is diagnosed", "treatment": "how {topic} is treated",
                   "prevention": "how {topic} is prevented",
                   "dosage": f"the dose of {{topic}} {DOSE_CHECK_EN}",
                   "side_effects": "the side effects of {topic}", "what_to_do": "what to do about {topic}",
                   "how_long": "how long {topic} lasts", "spread": "whether and how {topic} spreads",
                   "pregnancy": "{topic} in pregnancy or breastfeeding"}


def off_kind_lead(kind: str, topic: str, language: str) -> str:
    """The lead of an answer none of whose quotes speaks to the asked kind: it says so, so that
    sentences about a medicine's lab checks do not read as its side effects. Whether two things go
    together has its own leads (`interaction_lead`, and none when no sentence speaks of both)."""
    if language == "ko":
        if kind == "pregnancy" and topic:
            # "임신 중 허리 아픈 거 정상이에요?" is no question of back pain's "safety in pregnancy".
            return texts(language)["off_kind_in_pregnancy"].format(topic=topic)
        template = texts(language)["off_kind" if topic else "off_kind_no_topic"]
        lead = template.format(what=FACET_NAMES_KO[kind], topic=topic)
        return f"{lead} {DOSE_CHECK_KO}" if kind == "dosage" else lead
    return texts(language)["off_kind"].format(what=KIND_PHRASES_EN[kind].format(topic=topic or "it"))


def texts(language: str) -> dict:
    return TEXTS.get(language, TEXTS["en"])


# The kinds whose lead names food when the question asks what to eat ("빈혈이 있으면 뭘 먹어야
# 하나요?" is not "what can be done now").
FOOD_LEAD_KINDS = ("what_to_do", "treatment", "prevention")


def lead(kind: str, topic: str, language: str, food: bool = False, aspect: str = "") -> str:
    """The answer's first line: what the sources say about the asked kind of `topic`; for a question about
    what to eat, its food, and for a definition question about an `aspect` ("how_long", "spread", "pregnancy"),
    that."""
    if food and kind in FOOD_LEAD_KINDS:
        kind = "food"
    elif aspect and kind == "definition":
        kind = aspect
    if not topic:
        templates = LEADS_NO_TOPIC.get(language, LEADS_NO_TOPIC["en"])
        return templates.get(kind, templates["definition"])
    templates = LEADS.get(language, LEADS["en"])
    text = templates.get(kind, templates["definition"]).format(topic=topic)
    # "How kidney disease and ibuprofen are treated", not "... is treated".
    return text.replace(" is ", " are ", 1) if language != "ko" and " and " in (topic or "") else text


def medicine_with_condition(slots: dict, language: str = "en") -> tuple[str, str] | None:
    """(medicine, condition) when a question names one medicine and a condition, as a question
    whether the medicine is safe with the condition does ("Can I take ibuprofen if I have kidney
    disease?"); None otherwise."""
    medicines = _names(slots, ("medications",), language)
    conditions = _names(slots, ("conditions",), language)
    return (medicines[0], conditions[0]) if len(medicines) == 1 and conditions else None


def interaction_lead(slots: dict, question: str, language: str) -> str:
    """The lead of an interaction question that does not name two medicines: "taking ibuprofen with
    kidney disease" (not "taking kidney disease and ibuprofen together"), "drinking alcohol while
    taking oxycodone", "taking simvastatin with other medicines, food or drink", "drinking alcohol with
    gout"; "" when the question names two medicines ("taking warfarin and aspirin together")."""
    templates = LEADS.get(language, LEADS["en"])
    pair = medicine_with_condition(slots, language)
    if pair:
        return templates["precaution"].format(medicine=pair[0], condition=pair[1])
    medicines = _names(slots, ("medications",), language)
    if len(medicines) == 1 and ALCOHOL.search(question):
        return templates["with_alcohol"].format(medicine=medicines[0])
    if len(medicines) == 1 and len(_names(slots, NAMING_SLOTS, language)) == 1:
        return templates["with_others"].format(medicine=medicines[0])
    conditions = _names(slots, ("conditions",), language)
    if not medicines and len(conditions) == 1 and ALCOHOL.search(question):
        return templates["alcohol_with_condition"].format(condition=conditions[0])
    return ""


def korean_name(english: str, concept_id: str | None = None) -> str | None:
    """The Korean name of a concept: the lexicon's, else a lab test's ("HbA1c" -> "당화혈색소"), else a
    Hangul synonym in the loaded pack."""
    name = korean_names().get((english or "").lower()) or korean_lab_names().get((english or "").lower())
    if name:
        return name
    if concept_id:
        try:
            from engine.clinical.slots import get_pack

            concept = get_pack().concept(concept_id)
        except Exception:  # noqa: BLE001 - no pack: no Korean name, the English one is shown
            concept = None
        if concept is not None:
            return next((s for s in concept.synonyms if has_hangul(s)), None)
    return None


@lru_cache(maxsize=1)
def _glossary_rows() -> list[tuple[str, str, str]]:
    """(section, English forms, Korean) of resources/agent/ko_glossary.tsv; a section starts
    with a "# ---- name" line."""
    from engine.paths import resources_dir

    rows, section = [], ""
    path = resources_dir() / "agent" / "ko_glossary.tsv"
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("# ----"):
            section = line.removeprefix("# ----").strip()
        if not line.strip() or line.startswith("#") or "\t" not in line:
            continue
        english, korean = line.split("\t")[:2]
        rows.append((section, english, korean.strip()))
    return rows


@lru_cache(maxsize=1)
def glossary() -> dict[str, str]:
    """English word or phrase (lower case) -> Korean, from resources/agent/ko_glossary.tsv:
    the general medical words (body parts, substances, tests, treatments) that the concept
    lexicon does not name."""
    names: dict[str, str] = {}
    for _section, english, korean in _glossary_rows():
        for form in english.split("|"):
            if form.strip() and korean:
                names.setdefault(form.strip().lower(), korean)
    return names


@lru_cache(maxsize=1)
def qualifier_names() -> frozenset[str]:
    """The Korean words of the glossary's qualifiers ("심한", "갑작스러운", "만성")."""
    return frozenset(korean for section, _english, korean in _glossary_rows() if section == _QUALIFIERS_SECTION)


@lru_cache(maxsize=1)
def key_term_names() -> dict[str, str]:
    """The Korean name of every English word a key term can be: the lexicon's concept names
    first, then the glossary's general words. A substance the glossary names keeps the
    glossary's word: the lexicon names the medicine a patient takes ("염화칼륨", "칼슘제"), and
    "Potassium channels keep a nerve cell at rest" speaks of 칼륨."""
    general, slots = glossary(), korean_name_slots()
    concepts = {english: name for english, name in korean_names().items()
                if not (english in general and slots.get(name) == "medication")}
    return {**general, **concepts}


def _pattern(names) -> re.Pattern:
    """The names, each also in its plural ("lenses", "rashes", "viruses" as well as "cysts")."""
    ordered = sorted(names, key=len, reverse=True)
    return re.compile(r"\b(" + "|".join(re.escape(n) for n in ordered) + r")(?:s|(?<=[sxz])es|(?<=[cs]h)es)?\b",
                      re.IGNORECASE)


@lru_cache(maxsize=1)
def _english_pattern() -> re.Pattern:
    return _pattern(n for n in korean_names() if len(n) >= 4)


@lru_cache(maxsize=1)
def _key_term_pattern() -> re.Pattern:
    return _pattern(n for n in key_term_names() if len(n) >= 3)


def korean_key_terms(sentence: str, limit: int = 8) -> list[str]:
    """Korean names of the concepts and medical words an English sentence names, in order of
    appearance ("Gout is caused by uric acid crystals in a joint" -> 통풍, 요산, 결정, 관절);
    the longest name wins ("kidney stones" -> 신장 결석, not 신장)."""
    return list(_key_terms(sentence, limit))


# A sentence that speaks of eating, foods or nutrients.
FOOD_CUES = re.compile(r"\beat|\bfoods?\b|\bdiet|\bnutri|\bmeals?\b|\brich in\b|\bfruits?\b|\bvegetables?\b"
                       r"|\bwhole grains?\b|\bmeat\b|\bdairy\b|\bsupplements?\b", re.I)
# Words whose Korean name holds only where the sentence speaks of its sense (word -> that context, the
# name elsewhere): an egg is a food's (달걀) only beside food, cooking or allergy, since lice and ovaries
# have eggs too ("kill eggs" is 알); a lens is the eye's (수정체) only beside the eye, since an endoscope
# has one too ("a thin, tube-like instrument with a light and a lens for viewing" is 렌즈); wrapping is
# care (감싸기) only when something is wrapped ("wrap it in a towel"), not "sunglasses that wrap around the face".
_FOOD_CONTEXT = re.compile(rf"{FOOD_CUES.pattern}|\ballerg|\bcook|\bprotein", re.I)
_EYE_CONTEXT = re.compile(r"\beyes?\b|\bcataract|\bvision\b|\bsight\b|\bretina|\bpupil|\bcornea|\bocular", re.I)
_WRAPPED = re.compile(r"\bwrap(?:ping)?\s+(?:it|them|the|a|an|in|with|your|his|her|their|up)\b|\bwrapped\b", re.I)
_SENSES = {"egg": (_FOOD_CONTEXT, "알"), "eggs": (_FOOD_CONTEXT, "알"), "lens": (_EYE_CONTEXT, "렌즈"),
           "wrap": (_WRAPPED, ""), "wrapping": (_WRAPPED, "")}


# Rest as a measure ("resting the injured area", "plenty of rest"), not a heart "at rest", "the rest
# of" nor what remains ("The rest is throughout the body in blood, muscle …" of calcium is no 휴식).
REST_AS_CARE = r"(?<!at )(?<!the )\brest(?:ing)?\b(?! of)"
_REST_AS_CARE = re.compile(REST_AS_CARE, re.I)


# A word made into a likeness names what something resembles, not what it is: "flu-like symptoms" are
# no flu (독감), "hair-like structures called cilia" no hair (머리카락).
_LIKENESS = re.compile(r"-like\b", re.I)
# A word the sentence denies is no key term of it: "Asthma has no cure" lists no 완치, which a
# Korean reader would take for the sentence's claim.
_DENIED = re.compile(r"\b(?:no|not|never|without)\s+(?:\w+\s+){0,2}$", re.I)


def _key_terms(sentence: str, limit: int) -> tuple[str, ...]:
    return tuple(name for name, _ in _key_term_matches(sentence, limit))


@lru_cache(maxsize=1024)
def _key_term_matches(sentence: str, limit: int) -> tuple[tuple[str, str], ...]:
    """(Korean name, the words as the sentence writes them) of each key term. Cached: a Korean
    answer is rendered several times while it is fitted to its Hangul share."""
    found: dict[str, str] = {}
    names = key_term_names()
    for match in _key_term_pattern().finditer(sentence):
        if _LIKENESS.match(sentence, match.end()) or _DENIED.search(sentence, 0, match.start()):
            continue
        word = match.group(1).lower()
        if word in ("rest", "resting") and not _REST_AS_CARE.match(sentence, match.start()):
            continue
        context, elsewhere = _SENSES.get(word, (None, ""))
        name = names.get(word) if context is None or context.search(sentence) else elsewhere
        if name and name not in found:
            found[name] = match.group(0).lower()
        if len(found) >= limit:
            break
    return tuple(found.items())


# Key terms that name the kind of fact ("증상" in a symptoms answer) or a person, not a fact.
_GIST_GENERIC = frozenset({*FACET_NAMES_KO.values(), "징후", "의사", "사람", "환자", "위험", "질환", "질병", "상태"})
# The glossary section whose words only qualify a fact ("심한", "갑작스러운").
_QUALIFIERS_SECTION = "qualifiers and time"


# The most key terms the glance line and the unquoted line each list.
TERMS_LISTED = 15

# What the glance line of an asked kind leaves out: a sentence about symptoms also names the
# diseases they resemble ("similar to appendicitis, ulcers"), one about treatment the symptoms treated.
_GLANCE_LEAVES_OUT = {"symptoms": {"condition"}, "side_effects": {"condition"},
                      **{kind: {"condition", "symptom"}
                         for kind in ("treatment", "prevention", "diagnosis", "dosage", "what_to_do")}}


def korean_unquoted(sentences: Sequence[tuple[str, int]], lead_text: str, limit: int = TERMS_LISTED) -> str:
    """One Korean line naming what the backed sentences a Korean answer does not quote say
    (it quotes fewer to stay Korean enough): their key terms, each with its [n], leaving out
    the topic, words that only name a kind of fact and mere qualifiers. Empty when nothing is left."""
    cited = _cited_terms(sentences, lead_text, set(), limit)
    if not cited:
        return ""
    sources = "".join(f"[{n}]" for n in dict.fromkeys(n for _, n in sentences))
    return TEXTS["ko"]["unquoted"].format(sources=sources, terms=_listed(cited, limit))


def _cited_terms(sentences: Sequence[tuple[str, int]], lead_text: str, other_sorts: set, limit: int) -> dict[str, list[int]]:
    """Korean key terms of `sentences` with the [n] of each sentence that names them."""
    left_out, slots = _GIST_GENERIC | qualifier_names(), korean_name_slots()
    lead_letters = "".join(lead_text.split())  # the lead's "비타민D" is the key term "비타민 D"
    cited: dict[str, list[int]] = {}
    for text, source in sentences:
        for term in korean_key_terms(text, limit=limit * 2):
            if term in left_out or "".join(term.split()) in lead_letters or slots.get(term) in other_sorts:
                continue
            numbers = cited.setdefault(term, [])
            if source not in numbers:
                numbers.append(source)
    return cited


# What a term of the English "also named" line is not: words that say who, how, how long or what
# sort of fact (a list of terms shows no sentence to qualify; "chronic" or "risk" alone names nothing).
_NOT_NAMED_EN = frozenset({"어린이", "의료진", "나이", "성인", "영아", "여성", "남성", "몸", "가족", "만성", "급성",
                           "위험", "위험 요인", "합병증", "장애", "환경", "과다", "정신", "정서", "에너지", "압력",
                           "힘", "손상", "피하기", "바르기", "연구", "노출", "세포", "검사", "약"})


def also_named(sentences: Sequence[tuple[str, int]], said: str, limit: int = TERMS_LISTED) -> str:
    """The English answer's line naming what the backed sentences it weighed but does not quote
    say (it quotes at most six): their key terms as the sources write them, each with its [n],
    less the words the answer already shows (`said`: its lead and quotes) and words that name
    no fact on their own (`_NOT_NAMED_EN`). The line lists what those sentences name and claims
    nothing of its own; the caller gives none that denies something. Empty when nothing is left."""
    said_words = set(tokenize(said))
    left_out = _GIST_GENERIC | qualifier_names() | _NOT_NAMED_EN
    cited: dict[str, tuple[str, list[int]]] = {}
    for text, source in sentences:
        for name, words in _key_term_matches(text, limit * 2):
            if name in left_out or set(tokenize(words)) <= said_words:
                continue
            if name not in cited and len(cited) >= limit:
                break
            _, numbers = cited.setdefault(name, (words, []))
            if source not in numbers:
                numbers.append(source)
    if not cited:
        return ""
    sources = "".join(f"[{n}]" for n in dict.fromkeys(n for _, n in sentences))
    terms = ", ".join(f"{words} {''.join(f'[{n}]' for n in numbers)}" for words, numbers in cited.values())
    return TEXTS["en"]["unquoted"].format(sources=sources, terms=terms)


def _listed(cited: dict[str, list[int]], limit: int) -> str:
    return ", ".join(f"{term} {''.join(f'[{n}]' for n in numbers)}" for term, numbers in list(cited.items())[:limit])


def korean_gist(quotes: Sequence[tuple[str, int]], kind: str, lead_text: str, limit: int = TERMS_LISTED) -> str:
    """One Korean line that says at a glance what the source sentences about the asked `kind`
    of fact (치료, 증상 …) name, of the sort that kind asks for (no diseases among symptoms): the Korean names of their concepts and medical words,
    each with the [n] of the quotes that name it (one link each in the GUI), leaving out the
    topic (already in the lead), words that only name the kind of fact and mere qualifiers
    ("심한": "증상: 심한" would read as a symptom). Empty when nothing is left. The caller
    gives only sentences the support check backed and that deny nothing: "Antibiotics do not
    help" must not put 항생제 under 치료. The line lists what those sentences name and claims
    nothing of its own."""
    cited = _cited_terms(quotes, lead_text, _GLANCE_LEAVES_OUT.get(kind, set()), limit)
    if not cited:
        return ""
    return TEXTS["ko"]["gist"].format(facet=FACET_NAMES_KO.get(kind, FACET_NAMES_KO["other"]),
                                      terms=_listed(cited, limit))


def topic_name(slots: dict, language: str, fallback: str = "") -> str:
    """The question's main concept(s) as the reader should see them: Korean names for Korean."""
    names = _names(slots, NAMING_SLOTS, language)
    joiner = ", " if language == "ko" else " and "
    return joiner.join(names[:2]) if names else fallback


def _names(slots: dict | None, keys: Sequence[str], language: str) -> list[str]:
    """The reader's names of the items extracted into `keys` (not negated ones), Korean names
    for Korean, each once."""
    names: list[str] = []
    seen: set[str] = set()
    for key in keys:
        for item in (slots or {}).get(key, []):
            if not isinstance(item, dict) or item.get("negated"):
                continue
            english = item.get("name") or ""
            if english and english in seen:
                continue  # "high blood pressure" and "hypertension" in one question are one name
            seen.add(english)
            if language == "ko":
                name = korean_name(english, item.get("concept_id")) or (item.get("text") or "").strip() or english
            elif key in ASKED_NAME_SLOTS:
                name = asked_name(item)
            else:
                name = display_name(english) or (item.get("text") or "").strip()
            if name and name not in names:
                names.append(name)
    return names


# An English reader sees the words they asked with, and the name the answer's pages use beside them:
# "What causes cold sores (herpes simplex)", not "What causes herpes simplex". A phrase that speaks
# of the asker ("bleach in my eye"), a long one, or one whose words hold the name's or are held by
# it ("migraine headaches", "mononucleosis") needs no second name, and the pack's name stands alone.
# Symptoms keep the pack's name: an asker's "swollen" or "itchy" is no name to put beside "swelling"; so does
# a phrase that tells what happens ("leak urine" for urinary incontinence).
ASKED_NAME_SLOTS = ("conditions", "medications")
ASKED_NAME_WORDS = 4
_NOT_A_NAME = frozenset("my your his her our their me i we you he she it a an the this that some "
                        "leak leaks leaking leaked wet is are was were has have had".split())


def asked_name(item: dict) -> str:
    """An extracted item's English name as the reader should see it (see ASKED_NAME_WORDS)."""
    raw = item.get("name") or ""
    english = display_name(raw)
    written = " ".join(str(item.get("text") or "").split())
    if not english:
        return written
    words = written.lower().split()
    asked, named = set(tokenize(written)), set(tokenize(english))
    if (not written or has_hangul(written) or len(words) > ASKED_NAME_WORDS or _NOT_A_NAME & set(words)
            or asked <= named or named <= asked or _letters(written) == _letters(english)):
        return english
    if raw == raw.lower() and written[:1].isupper() and written[1:2].islower():
        written = written[0].lower() + written[1:]  # "Cold sores" began the question, it is no proper name
    return f"{written} ({english})"


def display_name(english: str) -> str:
    """An English concept name with the capitals its lexicon row writes ("GERD", "HIV/AIDS")."""
    return english_display_names().get(english.lower(), english)


def _letters(text: str) -> str:
    return "".join(c for c in text.lower() if c.isalnum())  # "earwax" is "ear wax"


def focus_name(focus, language: str) -> str:
    """English focus names (a query plan's) as the reader should see them."""
    if language == "ko":
        return ", ".join(dict.fromkeys(korean_name(name) or name for name in focus[:2]))
    return " and ".join(display_name(name) for name in focus[:2])


def in_english(text: str) -> str:
    """English concept names in `text` with their lexicon capitals (profile lines: "gerd" -> "GERD")."""
    names = english_display_names()
    if not names:
        return text
    return _display_pattern().sub(lambda m: names.get(m.group(0).lower(), m.group(0)), text)


@lru_cache(maxsize=1)
def _display_pattern() -> re.Pattern:
    ordered = sorted(english_display_names(), key=len, reverse=True)
    return re.compile(r"(?<![\w/])(" + "|".join(re.escape(n) for n in ordered) + r")(?![\w/])", re.IGNORECASE)


def in_korean(text: str) -> str:
    """English concept names in `text` replaced by their Korean names (profile lines)."""
    return _english_pattern().sub(lambda m: korean_names().get(m.group(1).lower(), m.group(0)), text)
