"""Stated about the patient, or only asked about?

"What is low blood sugar?" and "저혈당이 뭐예요?" make hypoglycemia the topic of a
question; they say nothing about the patient, so the profile must not gain a condition.
"I have diabetes" and "당뇨가 있어요" state a fact. An item is marked `asked_about` when it
sits in a question and nothing around it ties it to the patient:

- English: no first-person word (I, my, me, we, our...) in its clause (the sentence cut at
  commas, semicolons and colons). A medicine after "can I take" / "is it safe to use" is
  asked about even with "I": the patient is asking, not taking it.
- Korean (the predicate follows its arguments, and the subject is usually dropped): no
  asserting predicate after it in the sentence ("있어요", "있는데", "앓고", "진단받았",
  "먹고", "아파요", a background clause in "-는데"/"-인데"...).

Requests count as questions: "Write an overview of asthma", "Explain inhalers to me",
"천식에 대해 설명해 주세요" ask for information and state nothing about the patient.

When unsure, the item is kept but marked `uncertain` (the profile stores it as waiting for
confirmation): in a message that asks something, a mention in a statement sentence that
nothing ties to the patient ("Asthma. What inhalers are there?"); and a mention the message
only suspects ("Could my son have ADHD?", "How do I know if I have a food allergy?",
"아이가 ADHD인지 어떻게 진단해요?", "폐렴인 것 같아요"). A fact the patient stated must never be
lost; a topic or a suspicion must not silently become a fact.

A disease named as what a vaccine is against ("I got the pneumonia vaccine", "a tetanus shot",
"홍역 예방접종을 맞았어요") is the vaccine's topic in any sentence, never the patient's condition; so is
the family's ("family history of colon cancer", "가족 중에 대장암 환자가 있어요") and one the writer only fears
getting ("치매에 걸릴까 봐 걱정돼요"). A measure the writer wants lowered ("How can I lower my blood pressure?")
waits for confirmation.
"""

from __future__ import annotations

import re

from engine.clinical.slot_model import CONCEPT_SLOTS
from engine.text import HANGUL, HANGUL_SYLLABLE

_H = HANGUL_SYLLABLE
# A decimal point ends no sentence ("열이 38.5도까지 올랐어요.").
_SENTENCE = re.compile(r"(?:[^.!?。\n]|(?<=\d)\.(?=\d))+[.!?。]*")
_CLAUSE_BREAK = re.compile(r"[,;:]")

_EN_QUESTION_START = re.compile(
    r"^\s*(?:(?:please|pls|now|so|and|ok(?:ay)?|also)[,\s]+)*"
    r"(?:what(?:'s)?|whats|how|why|when|which|who|where|is|are|was|were|can|could|should|does|do|did|will|"
    r"would|may|might|tell\s+me|explain|define|describe|write|draft|give\s+me|show\s+me|summari[sz]e|outline|"
    r"provide\s+(?:me\s+)?(?:an?|some|the|information|details)|list\s+(?:the|all|some|common|possible)|compare|help\s+me\s+(?:understand|with)|i(?:\s+want|\s+would\s+like|'d\s+like|\s+need)\s+to\s+(?:know|"
    r"learn|understand|read)|overview|information\s+(?:on|about))\b", re.IGNORECASE)
# Not the patient: "type I diabetes" (a numeral), the "me" of a request ("tell me about",
# "give me an overview", "for me"), "I want to know".
_EN_NOT_PERSONAL = re.compile(
    r"\btype\s+i{1,2}\b|\b(?:tell|give|show|send|help|to|write|draft|for)\s+me\b|"
    r"\bi(?:\s+want|\s+would\s+like|'d\s+like|\s+need)\s+to\s+(?:know|learn|understand|read)\b|\bcan\s+you\b",
    re.IGNORECASE)
# Ties a statement to a patient other than the writer: a clinician's note.
_EN_PATIENT = re.compile(
    r"\b(?:he|she|his|her|him|they|their|patient|pt|y/?o|years?[-\s]old|year-old|(?:wo)?man|male|female|boy|girl|"
    r"child|son|daughter|mother|father|mom|dad|wife|husband|baby|infant|history\s+of|hx|on|taking|takes|diagnosed|"
    r"has|had|have|with|presents?|complains?)\b", re.IGNORECASE)
_EN_FIRST_PERSON = re.compile(r"\b(?:i|i'm|im|i've|ive|i'd|i'll|me|my|mine|myself|we|we're|we've|our|ours|us)\b",
                              re.IGNORECASE)
_EN_TAKE_QUESTION = re.compile(
    r"\b(?:(?:can|could|should|may|might|shall)\s+(?:i|we|you|he|she|they)|is\s+it\s+(?:ok|okay|safe|alright|fine)"
    r"\s+to)\s+(?:take|use|try|have|start|give)\s+(?:\S+\s+){0,2}$", re.IGNORECASE)

# What a question asks to prevent or to lower the risk of is not what the patient has ("How can
# I lower my baby's risk of SIDS?", "How can I avoid getting malaria?").
_EN_NOT_HAD = re.compile(
    r"\b(?:prevent(?:s|ing)?|avoid(?:ing)?|protect\w*(?:\s+\w+){0,2}\s+(?:from|against)|(?:risks?|chances?|odds)\s+(?:of|for)"
    r"|(?:stop|keep)\w*(?:\s+\w+){0,2}\s+from|vaccin\w*(?:\s+\w+){0,2}\s+(?:for|against))"
    r"\s+(?:(?:getting|catching|developing|having|a|an|the)\s+)*$", re.IGNORECASE)

# A mention that holds the verb ("How can I prevent food poisoning?" is one mention, "prevent food
# poisoning", in the pack) is read with that verb before it.
_EN_LEADING_VERB = re.compile(r"^(?:prevent\w*|avoid\w*)\s+", re.IGNORECASE)
_EN_LEADING_HAVE = re.compile(r"^(?:has|have|had|got)\s+", re.IGNORECASE)
# Asking whether the patient has something only suspects it ("How do I know if I have a food allergy?",
# "Could my son have ADHD?", "Is this a migraine?"): kept, waiting for confirmation.
_EN_SUSPECTED = re.compile(
    r"(?:\b(?:whether|if)\s+(?:i|we|he|she|they|it|this|my\s+\w+|our\s+\w+|his\s+\w+|her\s+\w+|the\s+patient)"
    r"(?:\s+(?:might|may|could|really|still))?\s+(?:have|has|had|is|are|got)"
    r"|^\s*(?:do|does|did|could|can|might|may)\s+(?:i|we|he|she|they|my\s+\w+|our\s+\w+|his\s+\w+|her\s+\w+)"
    r"\s+(?:have|be\s+having|have\s+got|be\s+getting)"
    r"|^\s*(?:is|could|might)\s+(?:it|this|that)(?:\s+be)?)"
    r"\s+(?:(?:a|an|the|some|getting|developing)\s+)?(?:[\w'-]+\s+){0,2}$", re.IGNORECASE)
# A diagnosis the writer thinks or fears the patient has ("I'm scared I have cancer", "I don't think I have the
# flu", "I think my son has lice"); a complaint said so ("I think I have a fever") is still the complaint.
_EN_THINKS_SO = re.compile(
    r"\b(?:think|thought|worried|afraid|scared|fear|suspect|wonder(?:ing)?|guess)\s+(?:that\s+)?"
    r"(?:i|we|he|she|they|it|my\s+\w+|our\s+\w+)\s+(?:might\s+|may\s+|could\s+)?(?:have|has|had|got|is|am)"
    r"\s+(?:(?:a|an|the|some)\s+)?(?:[\w'-]+\s+){0,2}$", re.IGNORECASE)
# "ADHD인지", "감기일까", "폐렴인 것 같아요", "대상포진 아닌지": whether it is so, not that it is.
_KO_SUSPECTED = re.compile(r"^\s*(?:(?:인|일)(?:지|까|가|\s*것\s*같|\s*수도)|(?:이|가)?\s*아닌(?:지|가)|(?:이|가)?\s*아닐까"
                           r"|같(?:아|은데|습))")
_KO_QUESTION = re.compile(
    r"[?？]|뭐|무엇|무슨|어떻게|어떤|어때|왜|언제|얼마나|어디|어느|몇"
    r"|(?:[되하있없]나요|[인는은]가요|까요|니까|[을할]까|[되하]나)\s*[.!]*$"
    r"|(?:알려|설명해|정리해|요약해|써|작성해|비교해|말해|소개해|찾아)\s*(?:주세요|주실래요|줘|줄래|줘요|주십시오|봐)")
_KO_ASSERTS = re.compile(
    r"있(?:어|었|습|고|는데|다고|거든|으니|음)|앓|진단|걸렸|걸려|복용\s*중|복용하고|복용했|먹고|먹는|먹었|맞고|"
    r"아파|아프|아픈|아팠|데(?=[\s,]|$)|거든|라서|여서|해서"
    # "열이 나요", "피가 났어요" (a fever, bleeding); "머리를 부딪쳤어요", "다쳤어요" (hit, hurt); "이가 생겼어요" (got lice)
    r"|(?<![가-힣])(?:나요|났|나서|나고)|부딪|쳤어|다쳐|생겼"
    # A reading stated: "열이 39도예요", "38.5도까지 올랐어요".
    r"|\d\s*도(?:예요|에요|이에요|입니다|였|까지|가\s*넘|를\s*넘|\s*넘)|올랐|올라요")


# A complaint told in a sentence of its own ends in a plain statement ("아이가 토하고 설사해요.", "기침을 오래
# 해요.", "요즘 자꾸 어지러워요."): stated, as "I have a cough" is. Not when the sentence says only that the
# writer wants to know about it ("두통에 대해 궁금해요.").
_KO_STATEMENT_END = re.compile(r"(?:요|다|니다|음)\s*[.!~…]*\s*$")
_KO_ABOUT = re.compile(r"에\s*(?:대해|대한|관해|관한)|궁금|알고\s*싶|정보|필요")
# An injury told as what happened ("벌에 쏘였어요", "개한테 물렸어요", "손을 데었어요", "발목을 삐었어요"): the
# pack's mention holds the verb, so it is read from the mention's start.
_KO_INJURED = re.compile(r"쏘였|쏘여서|물렸|물려서|데었|데였|데여서|삐었|삐끗했|베였|베여서|찔렸|긁혔|까졌|다쳤")


# A condition in the family, not the patient ("family history of colon cancer", "heart disease runs in my
# family", "가족 중에 대장암 환자가 있어요", "대장암 가족력이 있어요"), one the writer only fears getting ("I'm
# worried about getting Alzheimer's", "치매에 걸릴까 봐 걱정돼요"), and one read or heard about ("I read about
# lupus online").
_EN_NOT_THE_PATIENTS_BEFORE = re.compile(
    r"\bfamily (?:medical )?(?:history|hx) of\s+(?:\w+\s+){0,2}$"
    r"|\b(?:worried|afraid|scared|concerned|anxious|worry|fear)\s+(?:about|of)\s+(?:getting|developing|catching|having)"
    r"\s+(?:a\s+|an\s+|the\s+)?$"
    r"|\b(?:read|heard|learned|saw|seen|watched)\s+(?:\w+\s+){0,2}?(?:about|of|on)\s+(?:a\s+|an\s+|the\s+)?$", re.IGNORECASE)
_EN_NOT_THE_PATIENTS_AFTER = re.compile(r"^[^.;!?]{0,30}?\b(?:runs?|running) in (?:my|our|the|his|her) family\b"
                                        r"|^\s*(?:\w+\s+){0,2}in (?:my|our|the|his|her) family\b", re.IGNORECASE)
_KO_NOT_THE_PATIENTS_BEFORE = re.compile(r"(?:가족력|가족\s*중에?|집안에|친척\s*중에?)\s*(?:[가-힣]+\s+){0,2}$")
_KO_NOT_THE_PATIENTS_AFTER = re.compile(r"^\s*(?:이|가|의)?\s*가족력|^\s*(?:에|이|가)?\s*(?:걸릴까|생길까|올까)\s*(?:봐|봐서|걱정|두려)")
# A measure the writer wants lowered ("How can I lower my blood pressure?", "혈당 낮추는 음식"), named by a
# mention that holds the verb: likely, but not stated, that it is high.
_LOWERING = re.compile(r"^(?:lower|lowering|reduce|bring|get)\b|(?:낮추|낮출|낮춰|내리|내릴)$", re.IGNORECASE)
# The vaccine or shot written right after a disease's name: the disease is what it protects against.
_VACCINE_AFTER = re.compile(r"^\s*-?\s*(?:(?:vaccines?|vaccinations?|shots?|jabs?|immuni[sz]ations?|boosters?)\b"
                            r"|백신|예방\s*접종|접종)", re.IGNORECASE)


def mark_asked_about(text: str, slots: dict, lists=CONCEPT_SLOTS) -> None:
    """Set `asked_about: true` on the items of `slots` that are only the topic of a question
    or request or the disease a vaccine is named for (`_VACCINE_AFTER`), and `uncertain: true`
    on those the rules cannot tie to the patient."""
    sentences = [(m.start(), m.end()) for m in _SENTENCE.finditer(text)]
    questions: dict[tuple[int, int], tuple[bool, bool]] = {}  # per sentence: (Korean, a question)
    asks = any(_sentence_kind(text[s:e])[1] for s, e in sentences)
    for list_name in lists:
        for item in slots.get(list_name) or []:
            start, end = item.get("start"), item.get("end")
            if start is None or end is None or item.get("negated"):
                continue
            sentence = next(((s, e) for s, e in sentences if s <= start < e), None)
            if sentence is None:
                continue
            if list_name == "conditions" and (_VACCINE_AFTER.match(text[end:end + 16])
                                              or _not_the_patients(text[sentence[0]:start], text[end:sentence[1]])):
                item["asked_about"] = True
                continue
            if sentence not in questions:
                questions[sentence] = _sentence_kind(text[sentence[0]: sentence[1]])
            korean, question = questions[sentence]
            korean = korean or bool(HANGUL.search(text[start:end]))
            if question and _asked_about(text, sentence, start, end, korean, list_name == "medications"):
                item["asked_about"] = True
            elif (_suspected(text, sentence, start, end, korean) or _LOWERING.search(text[start:end])
                  or (list_name == "conditions" and _thinks_so(text, sentence, start, end, korean))
                  or (asks and not question and not _tied_to_patient(text, sentence, start, end, korean,
                                                                     complaint=list_name == "symptoms"))):
                item["uncertain"] = True


def _not_the_patients(before: str, after: str) -> bool:
    """Whether a condition is named as the family's, as one the writer fears getting or as one read about
    (`_EN_NOT_THE_PATIENTS_BEFORE` and the rest), by its sentence `before` and `after` it."""
    return bool(_EN_NOT_THE_PATIENTS_BEFORE.search(before) or _EN_NOT_THE_PATIENTS_AFTER.search(after)
                or _KO_NOT_THE_PATIENTS_BEFORE.search(before) or _KO_NOT_THE_PATIENTS_AFTER.search(after))


def asks_something(text: str) -> bool:
    """Whether any sentence of `text` is a question or a request for information."""
    return any(_sentence_kind(m.group(0))[1] for m in _SENTENCE.finditer(text or "") if m.group(0).strip())


def _sentence_kind(sentence_text: str) -> tuple[bool, bool]:
    """(written in Korean, is a question), computed once per sentence: long notes have
    many mentions in few sentences."""
    if HANGUL.search(sentence_text):
        return True, bool(_KO_QUESTION.search(sentence_text.strip()))
    return False, sentence_text.rstrip().endswith("?") or bool(_EN_QUESTION_START.match(sentence_text))


def _suspected(text: str, sentence: tuple[int, int], start: int, end: int, korean: bool) -> bool:
    """Whether a question asks if the patient has the mentioned thing (`_EN_SUSPECTED`, `_KO_SUSPECTED`)."""
    if korean:
        return bool(_KO_SUSPECTED.search(text[end: sentence[1]]))
    return bool(_EN_SUSPECTED.search(_clause_before(text, sentence, start, end)))


def _thinks_so(text: str, sentence: tuple[int, int], start: int, end: int, korean: bool) -> bool:
    """Whether the writer only thinks or fears the patient has the mentioned diagnosis (`_EN_THINKS_SO`)."""
    return not korean and bool(_EN_THINKS_SO.search(_clause_before(text, sentence, start, end)))


def _clause_before(text: str, sentence: tuple[int, int], start: int, end: int) -> str:
    """The clause of `sentence` before a mention, with "has"/"have" when the pack's mention holds it ("has lice")."""
    clause_start = max([sentence[0]] + [m.end() for m in _CLAUSE_BREAK.finditer(text, sentence[0], start)])
    verb = _EN_LEADING_HAVE.match(text[start:end])
    return text[clause_start:start] + (verb.group(0) if verb else "")


def _tied_to_patient(text: str, sentence: tuple[int, int], start: int, end: int, korean: bool,
                     complaint: bool = False) -> bool:
    """Whether a statement sentence says something about a patient (the writer or another): a Korean
    one by an asserting predicate after the mention, an injury that happened (`_KO_INJURED`), or, for a
    `complaint` (a symptom), a plain statement's ending (`_KO_STATEMENT_END`)."""
    if korean:
        after = text[end - 1: sentence[1]]
        return (bool(_KO_ASSERTS.search(after)) or bool(_KO_INJURED.search(text[start: sentence[1]]))
                or (complaint and bool(_KO_STATEMENT_END.search(after))
                    and not _KO_ABOUT.search(text[sentence[0]: sentence[1]])))
    words = text[sentence[0]: sentence[1]]
    return bool(_EN_FIRST_PERSON.search(_EN_NOT_PERSONAL.sub(" ", words)) or _EN_PATIENT.search(words))


def _asked_about(text: str, sentence: tuple[int, int], start: int, end: int, korean: bool, medicine: bool) -> bool:
    """Whether a mention inside a question sentence is only its topic."""
    if korean:
        # From the mention's last syllable: "목이 아픈데" ends the mention in "픈", the clause in "데".
        return not _KO_ASSERTS.search(text[end - 1: sentence[1]])
    clause_start = max([sentence[0]] + [m.end() for m in _CLAUSE_BREAK.finditer(text, sentence[0], start)])
    clause_end = next((m.start() for m in _CLAUSE_BREAK.finditer(text, end, sentence[1])), sentence[1])
    before = text[clause_start:start]
    if medicine and _EN_TAKE_QUESTION.search(before):
        return True
    verb = _EN_LEADING_VERB.match(text[start:end])
    if _EN_NOT_HAD.search(before + (verb.group(0) if verb else "")):
        return True
    clause = _EN_NOT_PERSONAL.sub(" ", text[clause_start:clause_end])
    return not _EN_FIRST_PERSON.search(clause)
