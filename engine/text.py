"""The one text toolkit (Korean and English), shared by the clinical rules, the knowledge base and the agent.

Everything here is deterministic and dependency-free (the medical vocabulary is a resource
file): Hangul detection, Korean particle stripping, the stop-word lists, the three stemmers,
the two sentence splitters, the BM25 tokenizer, word tokens and content words, number
normalisation, negation and population/direction markers, question types and medical words.
Where two helpers look alike but differ (stop words, stemmers, sentence splitters), each one
says what it is for and why it differs; they are not interchangeable.

The BM25 tokenizer handles English and Korean in the same string, with no network model:
- Latin letters and digits: NFKC, lower-case, English stop words dropped, Porter stemming.
- Hangul: each run is split into overlapping syllable bigrams (a one-syllable run stays a
  unigram), so "당뇨병이" matches "당뇨병" through 당뇨/뇨병 whatever particle follows.
- Other letters (CJK ideographs, Cyrillic, ...) are kept as lower-cased words.

`TOKENIZER_VERSION` goes into the index manifest: change it whenever the output of
`tokenize` changes, so that a stale BM25 index is rebuilt instead of misused.
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from typing import Iterable

from engine.paths import resources_dir

# --- Hangul and language ----------------------------------------------------------------

HANGUL_SYLLABLE = "\uac00-\ud7a3"
HANGUL = re.compile(f"[{HANGUL_SYLLABLE}]")
HANGUL_WORD = re.compile(f"[{HANGUL_SYLLABLE}]+")


def deletions(text: str) -> set[str]:
    """Every string one character shorter than `text`: the key of a deletion index, which
    finds the names one edit away from a word with a few dictionary look-ups."""
    return {text[:i] + text[i + 1:] for i in range(len(text))}


def has_hangul(text: str) -> bool:
    return bool(HANGUL.search(text))


def is_korean(text: str) -> bool:
    """True when the text should be answered in Korean (any Hangul at all)."""
    return has_hangul(text)


def hangul_syllables(text: str) -> int:
    return sum(1 for ch in text if "\uac00" <= ch <= "\ud7a3")


def latin_letters(text: str) -> int:
    return sum(1 for ch in text if ch.isascii() and ch.isalpha())


_LATIN_WORD = re.compile(r"[A-Za-z][A-Za-z'\-]*")


def latin_words(text: str) -> list[str]:
    """The English words of `text` (letters, apostrophes and hyphens; no numbers)."""
    return _LATIN_WORD.findall(text)


def hangul_share(text: str) -> float:
    """Hangul syllables / (Hangul syllables + Latin letters): how Korean a text reads."""
    hangul, latin = hangul_syllables(text), latin_letters(text)
    return hangul / (hangul + latin) if hangul + latin else 0.0


def detect_language(text: str) -> str:
    """'ko' when the text has at least half as many Hangul syllables as Latin letters, else 'en'."""
    hangul = hangul_syllables(text)
    return "ko" if hangul and hangul * 2 >= latin_letters(text) else "en"


# --- Korean particles -------------------------------------------------------------------

KOREAN_PARTICLES = (
    "으로부터", "에게서", "이라고", "에서는", "으로는", "에서도", "이랑", "에서", "에게", "께서", "부터", "까지",
    "으로", "처럼", "보다", "하고", "라고", "은요", "는요", "이요", "은", "는", "이", "가", "을", "를", "에",
    "의", "로", "와", "과", "도", "만", "랑", "요",
)


def strip_particle(word: str) -> str:
    """Drop one trailing Korean particle ("당뇨병이" -> "당뇨병") when a stem of ≥ 2 syllables remains."""
    if not HANGUL.match(word):
        return word
    for particle in KOREAN_PARTICLES:
        if word.endswith(particle) and len(word) - len(particle) >= 2:
            return word[: -len(particle)]
    return word


def _strip_any_particle(word: str) -> str:
    for particle in KOREAN_PARTICLES:
        if word.endswith(particle) and len(word) > len(particle):
            return word[: -len(particle)]
    return word


# --- stop words -------------------------------------------------------------------------

CONTENT_STOP_WORDS_EN = frozenset(
    """a an the and or but if of to in on at by for with from as is are was were be been being am do does did
    doing have has had having i me my we our you your he she it its they them their this that these those what
    which who whom whose when where why how can could should would will shall may might must about into over
    under again further then once there here all any both each few more most other some such only own same so
    than too very just also please tell know want like get got much many one's i'm it's what's let's ok okay
    thanks thank hi hello hey yes yeah sure doctor dr patient""".split()
)
CONTENT_STOP_WORDS_KO = frozenset(
    """그 이 저 것 수 좀 더 및 등 제가 저는 저희 우리 그리고 그러면 그런데 그럼 혹시 어떻게 어떤 무엇 뭐 뭔가 왜 언제 어디
    얼마나 있나요 있어요 있습니까 인가요 인지 하나요 해요 해야 하면 되나요 될까요 알려 주세요 주세요 궁금해요 궁금합니다 대해
    대해서 관련 경우 때 요즘 지금 선생님 환자 환자분 네 예 아니요 감사합니다 고맙습니다""".split()
)
"""Stop words of the content words the cache guard, judge and compression compare: chat filler ("doctor") too."""

BM25_STOP_WORDS = frozenset(
    """a about above after again against all am an and any are aren as at be because been
    before being below between both but by can cannot could couldn did didn do does doesn
    doing don down during each few for from further had hadn has hasn have haven having he
    her here hers herself him himself his how i if in into is isn it its itself just let
    ll me more most mustn my myself no nor not now of off on once only or other ought our
    ours ourselves out over own re s same shan she should shouldn so some such t than that
    the their theirs them themselves then there these they this those through to too under
    until up ve very was wasn we were weren what when where which while who whom why will
    with won would wouldn you your yours yourself yourselves also get got please thank
    thanks hi hello dear would like know""".split()
)
"""The BM25 tokenizer's stop words: a retrieval list, fixed by `TOKENIZER_VERSION`, that keeps "doctor"."""


# --- stemmers ----------------------------------------------------------------------------

_VOWELS = frozenset("aeiou")


def _is_consonant(word: str, i: int) -> bool:
    ch = word[i]
    if ch in _VOWELS:
        return False
    if ch == "y":
        return i == 0 or not _is_consonant(word, i - 1)
    return True


def _measure(stem_: str) -> int:
    """m in [C](VC)^m[V]."""
    m, i, n = 0, 0, len(stem_)
    while i < n and _is_consonant(stem_, i):
        i += 1
    while i < n:
        while i < n and not _is_consonant(stem_, i):
            i += 1
        if i >= n:
            break
        while i < n and _is_consonant(stem_, i):
            i += 1
        m += 1
    return m


def _has_vowel(stem_: str) -> bool:
    return any(not _is_consonant(stem_, i) for i in range(len(stem_)))


def _ends_double_consonant(word: str) -> bool:
    return len(word) >= 2 and word[-1] == word[-2] and _is_consonant(word, len(word) - 1)


def _cvc(word: str) -> bool:
    n = len(word)
    return (
        n >= 3
        and _is_consonant(word, n - 3)
        and not _is_consonant(word, n - 2)
        and _is_consonant(word, n - 1)
        and word[-1] not in "wxy"
    )


_STEP2 = (
    ("ational", "ate"), ("tional", "tion"), ("enci", "ence"), ("anci", "ance"),
    ("izer", "ize"), ("abli", "able"), ("alli", "al"), ("entli", "ent"), ("eli", "e"),
    ("ousli", "ous"), ("ization", "ize"), ("ation", "ate"), ("ator", "ate"),
    ("alism", "al"), ("iveness", "ive"), ("fulness", "ful"), ("ousness", "ous"),
    ("aliti", "al"), ("iviti", "ive"), ("biliti", "ble"),
)
_STEP3 = (
    ("icate", "ic"), ("ative", ""), ("alize", "al"), ("iciti", "ic"), ("ical", "ic"),
    ("ful", ""), ("ness", ""),
)
_STEP4 = (
    "al", "ance", "ence", "er", "ic", "able", "ible", "ant", "ement", "ment", "ent",
    "ion", "ou", "ism", "ate", "iti", "ous", "ive", "ize",
)


@lru_cache(maxsize=200_000)
def porter_stem(word: str) -> str:
    """Porter stem of a lower-case ASCII word for the BM25 tokens; digits and short words are left alone."""
    if len(word) <= 2 or not word.isalpha():
        return word
    w = word
    # step 1a
    if w.endswith("sses"):
        w = w[:-2]
    elif w.endswith("ies"):
        w = w[:-2]
    elif w.endswith("ss"):
        pass
    elif w.endswith("s"):
        w = w[:-1]
    # step 1b
    extra = False
    if w.endswith("eed"):
        if _measure(w[:-3]) > 0:
            w = w[:-1]
    elif w.endswith("ed") and _has_vowel(w[:-2]):
        w, extra = w[:-2], True
    elif w.endswith("ing") and _has_vowel(w[:-3]):
        w, extra = w[:-3], True
    if extra:
        if w.endswith(("at", "bl", "iz")):
            w += "e"
        elif _ends_double_consonant(w) and w[-1] not in "lsz":
            w = w[:-1]
        elif _measure(w) == 1 and _cvc(w):
            w += "e"
    # step 1c
    if w.endswith("y") and _has_vowel(w[:-1]):
        w = w[:-1] + "i"
    # step 2
    for suffix, repl in _STEP2:
        if w.endswith(suffix):
            if _measure(w[: -len(suffix)]) > 0:
                w = w[: -len(suffix)] + repl
            break
    # step 3
    for suffix, repl in _STEP3:
        if w.endswith(suffix):
            if _measure(w[: -len(suffix)]) > 0:
                w = w[: -len(suffix)] + repl
            break
    # step 4
    for suffix in _STEP4:
        if w.endswith(suffix):
            base = w[: -len(suffix)]
            if _measure(base) > 1 and (suffix != "ion" or base.endswith(("s", "t"))):
                w = base
            break
    # step 5
    if w.endswith("e"):
        base = w[:-1]
        m = _measure(base)
        if m > 1 or (m == 1 and not _cvc(base)):
            w = base
    if _measure(w) > 1 and _ends_double_consonant(w) and w.endswith("l"):
        w = w[:-1]
    return w


# -ing words whose stem means something else ("burning" is not "burns").
_NOT_STEMMED = frozenset({
    "burning", "feeling", "feelings", "morning", "mornings", "evening", "evenings", "nothing", "something",
    "anything", "everything", "building", "during", "being", "thing", "things", "ceiling", "wedding",
    "pudding", "spring", "string", "bring", "sling", "sting", "stings", "swing", "wing", "king", "ring",
})


def concept_stem(lower: str) -> str:
    """A light, symmetric stemmer for English tokens (plurals and -ing), for matching concept names.

    It is applied to concept names and to text alike, so "headaches" meets "headache"
    and "coughing" meets "cough"; collisions between unrelated words are rare at the
    lengths MedCAT normalises (5+ letters).
    """
    if not lower.isascii() or not lower.isalpha() or lower in _NOT_STEMMED:
        return lower
    if lower.endswith("ies") and len(lower) > 4:
        return lower[:-3] + "y"
    if lower.endswith("aches"):
        return lower[:-1]
    if lower.endswith(("shes", "ches", "xes", "sses")):
        return lower[:-2]
    if lower.endswith("s") and not lower.endswith(("ss", "us", "is")):
        return lower[:-1]
    if lower.endswith("ing") and len(lower) >= 7:
        stem = lower[:-3]
        if len(stem) > 3 and stem[-1] == stem[-2] and stem[-1] not in "lsz":
            stem = stem[:-1]
        return stem
    return lower


def _singular(word: str) -> str:
    """English plurals folded (no -ing): the content words' only stemming, so that overlaps stay literal."""
    if len(word) > 4 and word.endswith("ies"):
        return word[:-3] + "y"
    if len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        return word[:-1]
    return word


# --- sentences ---------------------------------------------------------------------------

# A Korean sentence may end at its ending without punctuation ("아파요 열도 나요"); when it has
# punctuation, the first alternative splits after it, so the sentence keeps its "." or "?".
# A Korean sentence may end with no full stop ("열이 나요 어떻게 해요?"); "마다", "보다", "필요"
# and "중요" end words inside one ("몇 시간마다 먹여요?").
_ANSWER_SENTENCE_END = re.compile(r"(?<=[.!?。])\s+|\n+|(?<=[다요죠까])(?<!마다)(?<!보다)(?<!필요)(?<!중요)\s+"
                                  r"(?=[\uac00-\ud7a3A-Z])")
_DOCUMENT_SENTENCE_END = re.compile(r"(?<=[.!?。])\s+|\n\s*\n|\n(?=\s*[-*•]\s)")
# A passage's sentence also ends after a sentence in brackets ("(See the General Information section.) Some
# tests …", "… on your keyboard.) Prevention If you are at risk …"). Chunking keeps the pattern above: its
# boundaries are the index's.
_PASSAGE_SENTENCE_END = re.compile(_DOCUMENT_SENTENCE_END.pattern + r"|(?<=[.!?]\))\s+(?=[A-Z\"(])")


# A full stop after an abbreviation ("the U.S. Food and Drug Administration", "e.g. ibuprofen")
# or before a lowercase word ends no sentence; cut there, a passage's sentence turned into two
# fragments that each said something else.
_ABBREVIATION = re.compile(r"(?:\b(?:U\.S|U\.K|e\.g|i\.e|Dr|Mr|Mrs|Ms|St|vs|approx|al|Jr|Sr|Inc|Ltd|Ph\.D|M\.D))\.$")


def _split(text: str, boundary: re.Pattern) -> list[str]:
    parts, start = [], 0
    for match in boundary.finditer(text):
        before, after = text[start:match.start()], text[match.end():match.end() + 1]
        inside = "\n" not in match.group() and before.endswith(".")
        if inside and (_ABBREVIATION.search(before) or after.islower()):
            continue
        parts.append(before)
        start = match.end()
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip()]


def split_answer_sentences(text: str) -> list[str]:
    """Sentences of a message, answer or quoted passage: every line break, and a Korean ending, ends one."""
    return _split(text, _ANSWER_SENTENCE_END)


def split_passage_sentences(text: str) -> list[str]:
    """Sentences of a passage to quote or check against: a line break inside a paragraph does
    not end one, a list item does."""
    return _split(text, _PASSAGE_SENTENCE_END)


def split_document_sentences(text: str) -> list[str]:
    """Sentences of a document to chunk, cut at every full stop: the chunk boundaries are the
    index's (engine.knowledge.store.CHUNKING_VERSION), so they change only with it."""
    parts = (p.strip() for p in _DOCUMENT_SENTENCE_END.split(text))
    return [p for p in parts if p]


# --- BM25 tokens ----------------------------------------------------------------------------

TOKENIZER_VERSION = "ko-en-1"

_TOKEN_RE = re.compile(rf"[a-z0-9]+|[{HANGUL_SYLLABLE}]+|[^\W\d_a-z{HANGUL_SYLLABLE}]+")


def tokenize(text: str) -> list[str]:
    """BM25 tokens of `text` (English words stemmed, Hangul as syllable bigrams)."""
    text = unicodedata.normalize("NFKC", text).lower()
    out: list[str] = []
    for piece in _TOKEN_RE.findall(text):
        first = piece[0]
        if "\uac00" <= first <= "\ud7a3":
            if len(piece) == 1:
                out.append(piece)
            else:
                out.extend(piece[i : i + 2] for i in range(len(piece) - 1))
        elif first.isascii():
            if piece in BM25_STOP_WORDS:
                continue
            out.append(porter_stem(piece))
        else:
            out.append(piece)
    return out


def tokenize_many(texts: Iterable[str]) -> list[list[str]]:
    return [tokenize(t) for t in texts]


# --- words, content words, numbers, negation, markers, question types ------------------------

_WORD = re.compile(r"[a-z0-9]+(?:['.\-][a-z0-9]+)*|[\uac00-\ud7a3]+", re.IGNORECASE)

NEGATION_EN = frozenset("no not never without none nor cannot can't don't doesn't didn't isn't aren't wasn't weren't "
                        "won't denies deny denied negative absent".split())
NEGATION_KO = ("않", "없", "못", "아니", "말고", "금지")
NEGATION_KO_WORDS = frozenset({"안", "노"})

_NUMBER = re.compile(r"(?<![a-z])(\d+(?:[.,]\d+)*)", re.IGNORECASE)
_ROMAN_TYPE = re.compile(r"\btype\s*(iv|iii|ii|i)\b", re.IGNORECASE)
_EN_NUMBER_WORDS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
                    "nine": 9, "ten": 10, "twice": 2, "once": 1, "thrice": 3, "single": 1, "double": 2}
_KO_COUNTED = re.compile(r"(한|두|세|네|다섯|여섯)\s?(번|알|개|정|시간|회|살|잔|달|주|캡슐|포)")
_KO_NATIVE = {"한": 1, "두": 2, "세": 3, "네": 4, "다섯": 5, "여섯": 6}

_DIRECTION_EN = {
    "low": ("hypo", "low", "lower", "lowering", "lowered", "decrease", "decreased", "reduce", "reduced", "drop",
            "deficiency", "deficient", "under", "go down", "goes down", "going down", "went down", "fall", "falls"),
    "high": ("hyper", "high", "higher", "raise", "raised", "elevated", "increase", "increased", "excess",
             "overactive", "over", "go up", "goes up", "going up", "went up", "rise", "rises", "spike"),
}
_DIRECTION_KO = {
    "low": ("저혈", "저칼", "저나트", "저체", "저하", "낮", "감소", "내리", "떨어", "부족", "결핍"),
    "high": ("고혈", "고지혈", "고칼", "고나트", "고열", "항진", "높", "증가", "올라", "올리", "과다", "초과"),
}
_POPULATION = {
    "child": ("child", "children", "kid", "kids", "pediatric", "paediatric", "infant", "infants", "baby", "babies",
              "toddler", "toddlers", "newborn", "newborns", "teen", "teens", "teenager", "teenagers", "adolescent",
              "adolescents", "boy", "boys", "girl", "girls", "childhood", "young people",
              "소아", "어린이", "아이", "아기", "영아", "유아", "신생아", "청소년", "학생", "애기"),
    "adult": ("adult", "adults", "grown-up", "성인", "어른"),
    "elderly": ("elderly", "older", "senior", "seniors", "aged", "geriatric", "노인", "어르신", "고령"),
    "pregnant": ("pregnant", "pregnancy", "breastfeeding", "lactating", "nursing", "임신", "임산부", "수유"),
    "male": ("man", "men", "male", "males", "남성", "남자"),
    "female": ("woman", "women", "female", "females", "여성", "여자"),
}

# Words that show an answer covers the kind of answer asked for (the kinds of
# engine.knowledge.questions.QTYPE_KINDS, read there from the question).
ANSWER_CUES: dict[str, tuple[str, ...]] = {
    "definition": ("is a", "are a", "is an", "refers", "condition", "disease", "질환", "병", "상태", "말합니다"),
    "causes": ("cause", "because", "due to", "result", "risk", "원인", "때문", "위험"),
    "symptoms": ("symptom", "sign", "feel", "pain", "증상", "나타", "느끼"),
    "diagnosis": ("test", "diagnos", "exam", "measure", "blood", "검사", "진단", "측정"),
    "treatment": ("treat", "therapy", "medication", "medicine", "manage", "surgery", "치료", "약", "관리"),
    "prevention": ("prevent", "avoid", "reduce", "vaccin", "예방", "피하", "줄이"),
    "dosage": ("dose", "mg", "daily", "tablet", "times", "용량", "하루", "복용"),
    "side_effects": ("side effect", "adverse", "may cause", "nausea", "부작용", "생길"),
    "interaction": ("interact", "together", "combination", "avoid", "risk", "함께", "같이", "상호작용", "주의"),
    "what_to_do": ("should", "call", "doctor", "health care provider", "emergency", "rest", "drink", "diet", "food",
                   "eat", "exercise", "activity", "alcohol", "병원", "진료", "응급", "휴식", "식단", "음식", "운동", "술"),
}


def words(text: str) -> list[str]:
    """Lower-cased word tokens; Korean tokens lose one trailing particle."""
    return [strip_particle(w.lower()) for w in _WORD.findall(text)]


def content_words(text: str) -> list[str]:
    """Words without stop words, English plurals folded; the unit of overlap measures."""
    out = []
    for word in words(text):
        if word in CONTENT_STOP_WORDS_EN or word in CONTENT_STOP_WORDS_KO or len(word) < 2 and not word.isdigit():
            continue
        out.append(_singular(word) if word.isascii() else word)
    return out


def numbers(text: str) -> frozenset[str]:
    """Normalised numbers, including 'type II' -> 2, 'twice' -> 2 and Korean counted numerals."""
    found: set[str] = set()
    for match in _NUMBER.findall(text):
        value = match.replace(",", "")
        try:
            number = float(value)
        except ValueError:
            continue
        found.add(f"{number:g}")
    roman = {"i": 1, "ii": 2, "iii": 3, "iv": 4}
    for match in _ROMAN_TYPE.findall(text):
        found.add(str(roman[match.lower()]))
    lowered = text.lower()
    for word in re.findall(r"[a-z]+", lowered):
        if word in _EN_NUMBER_WORDS:
            found.add(str(_EN_NUMBER_WORDS[word]))
    for native, _counter in _KO_COUNTED.findall(text):
        found.add(str(_KO_NATIVE[native]))
    return frozenset(found)


def is_negated(text: str) -> bool:
    lowered = text.lower()
    tokens = set(re.findall(r"[a-z']+", lowered))
    if tokens & NEGATION_EN or "n't" in lowered:
        return True
    korean_words = set(re.findall(r"[\uac00-\ud7a3]+", text))
    if korean_words & NEGATION_KO_WORDS:
        return True
    return any(cue in word for word in korean_words for cue in NEGATION_KO)


def _tagged(text: str, table: dict[str, tuple[str, ...]], *, prefix_match: bool) -> frozenset[str]:
    lowered = text.lower()
    latin = re.findall(r"[a-z][a-z\-]*", lowered)
    korean = re.findall(r"[\uac00-\ud7a3]+", text)
    tags = set()
    for tag, cues in table.items():
        for cue in cues:
            if HANGUL.match(cue) or " " in cue:
                if (" " in cue and cue in lowered) or any(cue in word for word in korean):
                    tags.add(tag)
                    break
            elif any(word == cue or (prefix_match and word.startswith(cue) and len(cue) >= 4) for word in latin):
                tags.add(tag)
                break
    return frozenset(tags)


def direction_markers(text: str) -> frozenset[str]:
    """'low' / 'high' markers: hypo- vs hyper-, 저혈당 vs 고혈당, low vs high, decrease vs increase."""
    return _tagged(text, {"low": _DIRECTION_EN["low"] + _DIRECTION_KO["low"],
                          "high": _DIRECTION_EN["high"] + _DIRECTION_KO["high"]}, prefix_match=True)


def population_markers(text: str) -> frozenset[str]:
    """Who the question is about: child, adult, elderly, pregnant, male, female."""
    return _tagged(text, dict(_POPULATION), prefix_match=False)


def answer_covers(kind: str, answer: str) -> bool:
    lowered = answer.lower()
    return any(cue in lowered for cue in ANSWER_CUES[kind])


# --- medical words ---------------------------------------------------------------------------

_MEDICAL_SUFFIX = re.compile(
    r"(itis|osis|emia|aemia|pathy|ectomy|plasty|algia|oma|uria|cillin|mycin|cycline|floxacin|pril|sartan|olol|"
    r"dipine|statin|azole|prazole|tidine|formin|gliptin|gliflozin|glitazone|profen|coxib|mab|nib|vir|parin|"
    r"xaban|gatran|farin|semide|thiazide|lukast|terol|sone|olone|asone|tropin|zepam|zolam|oxetine|aline|"
    r"triptyline|azine|idone|apine|codone|morphine|caine|cillins|vaccine|insulin)$"
)


@lru_cache(maxsize=1)
def medical_vocabulary() -> frozenset[str]:
    """Hand-written medical words (diseases, drugs, body parts, tests) in English and Korean."""
    path = resources_dir() / "agent" / "medical_vocabulary.txt"
    terms = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            terms.update(w.lower() for w in line.split())
    return frozenset(terms)


def is_medical_word(word: str) -> bool:
    word = word.lower()
    if word in medical_vocabulary() or _singular(word) in medical_vocabulary():
        return True
    if word.isascii():
        return len(word) > 4 and _MEDICAL_SUFFIX.search(word) is not None
    return any(term in word for term in _korean_medical_stems())


@lru_cache(maxsize=1)
def _korean_medical_stems() -> tuple[str, ...]:
    return tuple(sorted((t for t in medical_vocabulary() if HANGUL.match(t) and len(t) >= 2), key=len, reverse=True))


def medical_words(text: str) -> frozenset[str]:
    """The medical words of a text, normalised: the unit of the cache guard's drug/term check."""
    vocabulary = medical_vocabulary()
    out = set()
    for raw in _WORD.findall(text):
        word = raw.lower()
        if word.isascii():
            if word in CONTENT_STOP_WORDS_EN:
                continue
            if word in vocabulary:
                out.add(word)
            elif _singular(word) in vocabulary or (len(word) > 4 and _MEDICAL_SUFFIX.search(word)):
                out.add(_singular(word))
            continue
        bare = _strip_any_particle(word)
        if bare in vocabulary:
            out.add(bare)
            continue
        out.update(stem for stem in _korean_medical_stems() if stem in word and not _is_substring_of_longer(stem, word))
    return frozenset(out)


def _is_substring_of_longer(stem: str, word: str) -> bool:
    """'혈압' inside '고혈압' counts once, as the longer stem."""
    return any(len(other) > len(stem) and stem in other and other in word for other in _korean_medical_stems())
