"""Question types: what a question asks, and which document answers that kind of question.

MedQuAD documents are questions written from one template per question type ("What are
the symptoms of Hypothyroidism ?", "How should Metformin be used and what is the dosage ?"):
the title names the focus and the MedQuAD `qtype`. `title_facets` reads both back from a
title (the templates are MedQuAD's own, one per qtype), `QuestionIndex` lists every
document by focus, and `detect_qtypes` finds which of those types a Korean or English
question asks, so that retrieval can search "What are the symptoms of X?" and prefer the
document that answers it, not any page about X.
"""

from __future__ import annotations

import re
import threading
from typing import Sequence
from dataclasses import dataclass

from engine.knowledge.corpus import ALSO_CALLED

# (MedQuAD qtype, title template with the focus as group 1), most specific first.
TITLE_TEMPLATES: tuple[tuple[str, str], ...] = (
    ("symptoms", r"what are the symptoms of (.+)"),
    ("causes", r"what causes (.+)"),
    ("treatment", r"what are the treatments for (.+)"),
    ("exams and tests", r"how to diagnose (.+)"),
    ("prevention", r"how to prevent (.+)"),
    ("outlook", r"what is the outlook for (.+)"),
    ("inheritance", r"is (.+) inherited"),
    ("genetic changes", r"what are the genetic changes related to (.+)"),
    ("frequency", r"how many people are affected by (.+)"),
    ("susceptibility", r"who is at risk for (.+?)\??"),
    ("considerations", r"what to do for (.+)"),
    ("stages", r"what are the stages of (.+)"),
    ("complications", r"what are the complications of (.+)"),
    ("research", r"what research \(or clinical trials\) is being done for (.+)"),
    ("support groups", r"where to find support for people with (.+)"),
    ("usage", r"how should (.+) be used and what is the dosage"),
    ("usage", r"how should (.+) be used"),
    ("side effects", r"what are the side effects or risks of (.+)"),
    ("side effects", r"what side effects can (.+) cause"),
    ("forget a dose", r"what should i do if i forget a dose of (.+)"),
    ("precautions", r"are there safety concerns or special precautions about (.+)"),
    ("precautions", r"what special precautions should i follow for (.+)"),
    ("important warning", r"what important warning or information should i know about (.+)"),
    ("indication", r"who should get (.+) and why is it prescribed"),
    ("dietary", r"what special dietary instructions should i follow with (.+)"),
    ("storage and disposal", r"what should i know about storage and disposal of (.+)"),
    ("emergency or overdose", r"what to do in case of emergency or overdose of (.+)"),
    ("other information", r"what other information should i know about (.+)"),
    ("brand names of combination products", r"what are the brand names of combination products of (.+)"),
    ("brand names", r"what are the brand names of (.+)"),
    ("information", r"do you have information about (.+)"),
    ("information", r"what is \(are\) (.+)"),
    ("information", r"what (?:is|are) (.+)"),
)
_TITLE_PATTERNS = tuple((qtype, re.compile(rf"^{template}\s*\??\s*$", re.IGNORECASE))
                        for qtype, template in TITLE_TEMPLATES)

# The knowledge base's own wording of each question type, to search with.
QUESTION_FORMS = {
    "symptoms": "What are the symptoms of {}?",
    "causes": "What causes {}?",
    "treatment": "What are the treatments for {}?",
    "exams and tests": "How to diagnose {}?",
    "prevention": "How to prevent {}?",
    "outlook": "What is the outlook for {}?",
    "inheritance": "Is {} inherited?",
    "susceptibility": "Who is at risk for {}?",
    "considerations": "What to do for {}?",
    "complications": "What are the complications of {}?",
    "usage": "How should {} be used and what is the dosage?",
    "side effects": "What are the side effects or risks of {}?",
    "forget a dose": "What should I do if I forget a dose of {}?",
    "precautions": "Are there safety concerns or special precautions about {}?",
    "information": "What is (are) {}?",
}
# Short labels for the searched query shown to the user ("hypothyroidism symptoms").
QTYPE_LABELS = {"exams and tests": "diagnosis", "considerations": "what to do", "forget a dose": "missed dose"}

# Caring for someone ill ("어머니가 치매인데 어떻게 돌봐야 해요?", "How do I care for someone with dementia?"):
# what to do, and what the condition's home-care pages say.
CARING = re.compile(r"돌보|돌봐|돌볼|보살피|보살펴|간병|\bcare for\b|\bcaring for\b|\btake care of\b|\blook after\b"
                    r"|\bcaregiv", re.I)
# "Food" in a condition's name ("food poisoning", "food allergy", "foodborne illness", "음식 알레르기")
# asks nothing about what to eat.
FOOD_WORD = r"\bfoods?\b(?![\s-]+(?:poisoning|allerg|intoleran|borne|safety))"
FOOD_WORD_KO = r"음식(?!\s*알레르기)"
# Question-type cues, Korean and English. Order = priority when one phrase could be read
# two ways (a missed dose before "what to do", side effects before symptoms).
QTYPE_CUES: tuple[tuple[str, str], ...] = (
    # A forgotten dose, not a forgetful parent ("부모님이 자꾸 깜빡깜빡하시는데, 치매 증상은?").
    ("forget a dose", r"(?<!자꾸 )(?<!자꾸)(?<!깜빡)(?:깜빡(?!깜빡)|까먹|잊어버|잊고|빼먹|놓쳤)|"
                      r"forg[oe]t|missed (?:a |my |one )?dose|miss(?:ed)? (?:a|my) dose"),
    ("side effects", r"부작용|이상\s*반응|(?:먹|복용하|맞)으면\s+(?!좋|되|돼|안\s*되|안\s*돼)[^?.!]{1,12}\?|"
                     r"side[- ]?effects?|adverse|risks? of (?:taking|using)"),
    ("usage", r"용량|용법|복용\s*법|복용\s*방법|먹는\s*법|먹는\s*방법|어떻게\s*먹|몇\s*번\s*먹|몇\s*알|얼마나\s*먹|주사\s*어떻게|"
              r"언제\s*먹|식전|식후|몇\s*시에\s*먹|몇\s*살부터|몇\s*(?:ml|cc|mg|밀리|미리|방울|스푼|숟가락|티스푼|포|정)|when (?:should|do|can) (?:i|you|we|he|she) take|"
              r"before or after (?:meals|food|eating)|"
              r"복용량|하루\s*(?:에\s*)?(?:몇|얼마|최대)|얼마나\s*자주|몇\s*시간\s*(?:마다|간격)|"
              r"dos(?:e|age|ing)\b|how (?:should|do|much|often|many)\b.{0,45}\b(?:take(?!\s+care)|use|used|taken|give|given)|"
              r"how much\b.{1,30}\b(?:do|does|should)\b.{1,20}\b(?:need|get)\b|"
              r"how is .{1,30} (?:taken|used|given)|how many (?:mg|milligrams|ml|milliliters|teaspoons|tsp|drops|pills|tablets|capsules|times|hours)\b|"
              r"\d*\s*mg\b(?!\s*/)"),
    ("precautions", r"주의\s*사항|주의할|주의해야|조심|상호\s*작용|같이\s*먹어도|함께\s*먹어도|먹어도\s*되|먹어도\s*돼|먹여도\s*(?:되|돼)|"
                    r"술\s*(?:마셔|먹어|마시면|한\s*잔)|마셔도\s*(?:되|돼)|alcohol|drink (?:beer|wine)|"
                    r"같이\s*(?:먹|복용)|함께\s*(?:먹|복용)|병용|"
                    r"precautions?|interact|together|combine|while (?:taking|on)\b|if (?:i am|i'm) on\b|safe to take|"
                    r"can (?:i|she|he|they|we) (?:take|use|give)\b|(?:ok|okay) (?:to take|with)\b|with other (?:drugs|medicines)|"
                    r"at the same time as\b"),
    ("complications", r"합병증|후유증|방치하면|안\s*고치면|치료\s*안\s*하면|complications?|untreated|left alone"),
    ("inheritance", r"유전|inherit|hereditary|genetic|run(?:s)? in (?:the )?famil"),
    ("susceptibility", r"잘\s*걸(?:리|려|린|릴)|걸리기\s*쉬|위험\s*(?:이|인자|군|요인)|누가\s*(?:잘\s*)?걸|(?:저|나|제)도\s*걸리|걸릴\s*(?:수|확률|가능성)|"
                       r"at risk|risk factors?|who (?:gets|is likely|tends)|likely to get|(?:could|will|might) i get"),
    ("prevention", r"예방|안\s*(?:오게|생기게|걸리게)|(?:안|않)\s*(?:생기|걸리|오|하)려면|재발\s*(?:안|방지|을?\s*막)|"
                   r"위험\s*(?:을|를)?\s*(?:줄이|줄일|낮추|낮출)|"
                   r"(?:걸리|생기)지\s*않|지\s*않(?:게|으려면|도록)|안\s*(?:걸리|생기)는|막으려면|어떻게\s*(?:하면\s*)?막|백신|예방\s*접종|"
                   r"prevent|avoid|keep (?:.{1,20} )?from|stop .{1,20} coming back|(?:don't|doesn't|won't) come back|"
                   r"stop getting|stop (?:.{1,20} )?from (?:getting|catching)|protect (?:\w+ ){0,2}(?:from|against)|vaccin|"
                   r"(?:lower|reduce|decrease|cut)\s+(?:[\w']+\s+){0,2}?(?:risk|chance)"),
    ("exams and tests", r"진단(?!\s*(?:을|를)?\s*받았)|검사|알아보|diagnos(?!ed (?:with|as)\b)|test(?:s|ed|ing)?\b|\bscreen|check(?:ed)? for|"
                        r"\bfind out (?:if|whether)\b|\bcheck (?:if|whether)\b|"
                        r"\bscans?\b|x-?rays?\b|\bmri\b|ultrasound"),
    ("outlook", r"예후|완치|생존율|회복|얼마나\s*(?:가|오래|살)|진행되면|다\s*낫|낫나|낫는\s*데|나을\s*수|재발|"
                r"outlook|prognosis|surviv|recover|cured?\b|how long does|go away|progress|come back|recur|life expectancy|how long (?:will|can|do)"),
    ("causes", r"원인|이유|왜\s*(?:생|걸|오|그런|이런|높|나)|(?<![가-힣])왜(?![가-힣])|때문인가|(?:뭐|무엇|무슨\s*일)\s*때문|"
               r"때문에\s*(?:생기|생겨|그런|와|오|나|걸)|cause[sd]?\b|why (?:do|does|did|is|am)|reason|trigger|"
               r"what makes\b|\bmakes? (?:you|me|people|him|her)\b|where does .{1,30} come from"),
    # "어떻게 알 수 있어요?" asks, as "how can I tell if" does, how it shows, unless a test is asked for
    # ("통풍인지 어떻게 알아요 검사 해야되나요").
    ("symptoms", r"증상|증세|징후|전조|느낌|^(?!.*(?:검사|진단)).*?어떻게\s*알|symptoms?|signs?\b|feels? like|"
                 r"how does it feel|"
                 r"how (?:can|do|would) (?:i|you|we) (?:tell|know) if"),
    # What to eat or feed ("뭘 먹여야 하나요?"), not which medicine ("해열제 뭐 먹여야 해요?" asks how a fever is treated).
    ("considerations", r"(?<![약제]\s)(?<![약제])(?:뭘|뭐|무엇을)\s*먹(?:어야|으면|여야|이면)|" + FOOD_WORD_KO + r"|식단|식이|대처|어떻게\s*해야|어떻게\s*하(?:죠|지|면\s*좋)|어떡|"
                       r"해야\s*(?:하나요|할까요|돼요|되나요)|가야\s*(?:하|할|돼|되)|응급\s*처치|first aid|"
                       r"what (?:should|do|can) (?:i|we) (?:eat|do)|what to (?:do|eat)|should (?:i|we) (?:go|see|call)|"
                       + CARING.pattern + "|"
                       r"do (?:i|we) need (?:to see|to go|a doctor)|"
                       r"diet\b|" + FOOD_WORD),
    ("treatment", r"치료|낫게|낫는\s*(?:방법|법)|고치|수술|약\s*(?:있|먹어야|꼭)|"
                  # "갑상선 기능 저하증 약은 평생 먹어야 하나요?", "진행을 늦출 수 있나요?"
                  r"약\S{0,2}\s+(?:\S+\s+)?먹어야\s*(?:하|돼|되|할)|복용해야\s*(?:하|돼|되|할)|늦출|늦추|"
                  # "약 없이 혈압 낮추는 방법이 있나요?", "How can I lower my blood pressure?"
                  r"낮추|낮출|낮춰|내리는\s*(?:방법|법)|내리려면|내릴\s*수\s*있|"
                  r"\b(?:lower|reduce|bring down|get down)\s+(?:my|his|her|your|their|the)?\s*"
                  r"(?:blood pressure|cholesterol|blood sugar|sugar|fever|temperature|a1c|uric acid)\b|"
                  r"slow (?:down )?(?:the |its )?(?:progress|decline)|\bbe slowed\b|"
                  r"치료제|(?:좋은|먹는|무슨|어떤)\s*약|(?:뭐가|무엇이|어떤\s*게)\s*좋|"
                  r"어떻게\s*관리|없애|없앨|어떻게\s*하면[^?.!]{0,10}(?:나아|낫|나을)|(?:take|use|give)\b.{0,25}\bfor\b|"
                  r"treat|therap|cure|(?:medicines?|medications?|drugs?|pills?)\b.{0,20}\b(?:to|for)\b|surgery|manage|"
                  r"get rid of|\bget (?:\w+ ){1,3}out\b|what helps\b(?!\s+(?:to\s+)?(?:prevent|avoid|stop|lower|reduce))|helps? (?:with|for)\b|relie(?:f|ve)"),
    ("information", r"뭐예요|뭐에요|뭔가요|뭔지|뭐죠|무엇인가요|무엇입니까|이란|란\s*뭐|(?:무슨|어떤)\s*(?:병|질환|질병)|설명해|"
                    r"what (?:exactly )?(?:is|are)\b|what's|\bmeans?\b|\bexplain\b|tell me about"),
)
_CUE_PATTERNS = tuple((qtype, re.compile(cue, re.IGNORECASE)) for qtype, cue in QTYPE_CUES)
# Drug questions and condition questions use different question types.
DRUG_QTYPES = frozenset({"usage", "side effects", "forget a dose", "precautions"})
# The question types only a medicine's own page answers (a MedlinePlus drug page is about one medicine).
MEDICINE_PAGE_QTYPES = DRUG_QTYPES | {"important warning", "indication", "dietary", "storage and disposal",
                                      "emergency or overdose", "other information", "brand names",
                                      "brand names of combination products"}


# Whether a medicine is needed for what the asker has ("독감 걸렸는데 타미플루 먹어야 하나요?", "I have the flu.
# Should I take Tamiflu?", "Do I need antibiotics for a sinus infection?") asks how that is treated; whether it
# may be taken ("Can I take …", "먹어도 되나요") asks whether it is safe.
ASKS_IF_NEEDED = re.compile(r"(?:먹어야|먹여야|복용해야|맞아야|써야)\s*(?:하|해|돼|되|할)|"
                            r"\bshould (?:i|we|she|he|they|my \w+) (?:take|give|use|get|be on)\b|"
                            r"\b(?:do|does) (?:i|we|she|he|they|my \w+) need\b|\bis (?:it|\w+) needed\b", re.I)


# A question about what to eat ("빈혈이 있으면 뭘 먹어야 하나요?", "What should I eat if I have gout?",
# "통풍에 안 좋은 음식") is answered by sentences about foods and nutrients, whatever its kind; which
# medicine to take ("해열제 뭐 먹여야 해요?", "감기약 뭘 먹어요?") is not.
ASKS_ABOUT_FOOD = re.compile(r"(?<![약제]\s)(?<![약제])(?:뭘|뭐|무엇을|어떤\s*걸)\s*(?:먹|섭취)|" + FOOD_WORD_KO + r"|식단|식이|식사|"
                             r"\beat\b|\beating\b|\bdiet\b|" + FOOD_WORD, re.I)


# A medicine class named for what it treats ("fever reducers", "cough medicine", "allergy medicines"): with no
# page of its own, the page on what it treats says how it is taken ("Take acetaminophen every 4 to 6 hours").
# The word that names it a medicine, singular -> plural.
_MEDICINE_WORDS = {"reducer": "reducers", "medicine": "medicines", "medication": "medications", "remedy": "remedies",
                   "reliever": "relievers"}
MEDICINE_WORDS = tuple(_MEDICINE_WORDS.values())
_FOR_WHAT = re.compile(rf"^(.+?)\s+({'|'.join([*_MEDICINE_WORDS, *MEDICINE_WORDS])})$", re.I)


def treated_by(names: Sequence[str]) -> list[str]:
    """What a medicine class named for what it treats treats, by each of its `names` that says it."""
    return [match.group(1) for match in (_FOR_WHAT.match(n.strip()) for n in names) if match]


def as_plural_class(names: Sequence[str]) -> list[str]:
    """The `names` of a medicine class named for what it treats, in the plural a page's title gives ("cough
    medicine" -> "cough medicines", within "Cold and Cough Medicines")."""
    matches = (_FOR_WHAT.match(n.strip().lower()) for n in names)
    return [f"{m.group(1)} {_MEDICINE_WORDS.get(m.group(2), m.group(2))}" for m in matches if m]


# Drinking alcohol, by its name or a drink's ("맥주 마셔도 되나요?", "Can I drink wine with …?").
ALCOHOL = re.compile(r"\balcohol|\bbeer\b|\bwine\b|\bliquor\b|(?<!수)술|음주|맥주|소주|와인|막걸리|양주", re.I)


# The knowledge base's page on medicines in pregnancy (its focus key): a pregnant asker's question about
# any medicine is also answered there.
PREGNANCY_MEDICINES = "pregnancy and medicines"


def focus_key(text: str) -> str:
    """A focus name as a comparable key: lower case, words only ("Parkinson's Disease" ->
    "parkinson s disease")."""
    return " ".join(re.findall(r"[a-z0-9]+", text.lower()))


def title_facets(title: str) -> tuple[str, str | None, list[str]]:
    """(focus key, qtype or None, also-called keys) of a knowledge-base title."""
    question, _, also = title.partition(ALSO_CALLED)
    question = question.strip()
    aliases = [focus_key(a) for a in also.rstrip(")").split(";") if a.strip()] if also else []
    for qtype, pattern in _TITLE_PATTERNS:
        match = pattern.match(question)
        if match:
            return focus_key(match.group(1)), qtype, aliases
    return focus_key(question.rstrip("?")), None, aliases


# The kind of answer each question type asks for, as the answer composer, the judge and the
# response cache's guard name them. Safety precautions are an interaction question only when
# two things are taken together, or a medicine with a condition ("Can I take ibuprofen if I have
# kidney disease?", "신장병이 있는데 이부프로펜 먹어도 돼요?"); "Can she take amoxicillin?" is no kind of its own (nor a
# question of what to do: it asks whether a medicine is safe, not when to get care).
QTYPE_KINDS = {"information": "definition", "causes": "causes", "susceptibility": "causes", "inheritance": "causes",
               "symptoms": "symptoms", "exams and tests": "diagnosis", "treatment": "treatment",
               "prevention": "prevention", "usage": "dosage", "side effects": "side_effects",
               "precautions": "interaction", "considerations": "what_to_do", "forget a dose": "what_to_do",
               "complications": "definition", "outlook": "definition"}
_TAKEN_WITH = re.compile(r"\b(?:take|taking|use|using|drink|drinking|mix|mixing)\b.{1,40}\bwith\b", re.I)
_TOGETHER = re.compile(r"\btogether\b|\bcombin|\balcohol|\bbeer\b|\bwine\b|\bwhile (?:taking|on)\b"
                       r"|\bif (?:i am|i'm) on\b|\band\b|\bwith\b|\bif (?:i|you|she|he|they|we) (?:have|has|had)\b"
                       r"|\bif (?:i|you|she|he|they|we) (?:use|take|am taking|'m taking)\b|\bat the same time\b|\btoo\s*\?"
                       r"|(?:^|[.!?]\s+)(?:i|my \w+) (?:take|takes|am taking|use|uses|am on|is on)\b"
                       r"|(?:^|[.!?]\s+)i[’']?m (?:on|taking)\b"
                       r"|있(?:는데|으면|어도)|환자|같이|함께|병용|상호\s*작용|(?<!수)술|\S(?:이)?랑\s|\S하고\s|"
                       r"(?:복용|먹는|투약)\s*중|(?:먹|복용하)는데", re.I)


def question_kinds(text: str) -> frozenset[str]:
    """The kinds of answer `text` asks for (`QTYPE_KINDS`); "definition" only when nothing more
    specific is asked, nothing when no cue is found."""
    text = _without_abstinence(text)
    qtypes = _asked_qtypes(text, limit=len(QTYPE_CUES))
    kinds = {QTYPE_KINDS[q] for q in qtypes if q != "precautions"}
    if "precautions" in qtypes and _TOGETHER.search(text):
        kinds.add("interaction")
    if _TAKEN_WITH.search(text):
        kinds.add("interaction")
    if len(kinds) > 1:
        kinds.discard("definition")
    return frozenset(kinds)


# "어떻게 해요?" asks what to do only when nothing more specific is asked ("고지혈증 치료 어떻게 해요"
# asks for the treatment, "팔이 부러진 것 같아요 어떻게 해요?" what to do now).
_WHAT_TO_DO_ALONE = re.compile(r"어떻게\s*해요")


# Drinking the asker says they do not do names no second party ("What causes fatty liver disease
# if I hardly drink alcohol?" asks for causes, not about alcohol with something).
_ABSTINENCE = re.compile(r"\b(?:hardly|barely|rarely|never|seldom|don't|do not|doesn't|does not|didn't|did not)"
                         r"\s+(?:ever\s+)?drinks?(?:\s+(?:any|much|a lot of))?(?:\s+(?:alcohol|beer|wine|liquor))?\b"
                         r"|\bnon-?drinkers?\b|\b(?:no|without) alcohol\b", re.I)


def _without_abstinence(text: str) -> str:
    return _ABSTINENCE.sub(" ", text)


# "What symptoms does an overactive thyroid cause?" asks for symptoms: the cause is the topic.
_SYMPTOMS_IT_CAUSES = re.compile(r"\b(?:symptoms?|signs?)\b.{0,60}\bcause[sd]?\b(?!\s+of\b)", re.I)


def detect_qtypes(text: str, limit: int = 3) -> list[str]:
    """Question types `text` asks, most specific first (at most `limit`)."""
    return _asked_qtypes(_without_abstinence(text), limit)


def _asked_qtypes(text: str, limit: int) -> list[str]:
    """`detect_qtypes` of a text whose abstinence is already left out."""
    asked = [qtype for qtype, pattern in _CUE_PATTERNS if pattern.search(text)]
    if "symptoms" in asked and _SYMPTOMS_IT_CAUSES.search(text):
        asked = [q for q in asked if q != "causes"]
    if not [q for q in asked if q != "information"] and _WHAT_TO_DO_ALONE.search(text):
        asked = ["considerations"]
    return _drop_generic(asked)[:limit]


def _drop_generic(qtypes: list[str]) -> list[str]:
    """'What is X' and 'what to do' only count when nothing more specific is asked."""
    specific = [q for q in qtypes if q not in ("information", "considerations")]
    if specific and "considerations" in qtypes and any(q in DRUG_QTYPES for q in specific):
        qtypes = [q for q in qtypes if q != "considerations"]
    if specific:
        qtypes = [q for q in qtypes if q != "information"]
    return qtypes


def question_form(qtype: str | None, focus: str) -> str:
    return QUESTION_FORMS.get(qtype or "", "{}").format(focus)


def label(qtype: str | None) -> str:
    return QTYPE_LABELS.get(qtype or "", qtype or "")


@dataclass(frozen=True)
class FocusDoc:
    doc_id: str
    qtype: str | None


class QuestionIndex:
    """Every document of a knowledge base by focus (from its title), rebuilt when the
    knowledge base changes. Reading 18k titles and matching them takes about 0.1 s, once."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._version: object = None
        self.by_focus: dict[str, list[FocusDoc]] = {}
        self.qtype_of: dict[str, str | None] = {}
        self.vaccines: list[str] = []
        self._products: dict[tuple[str, ...], list[str]] = {}

    def refresh(self, kb) -> "QuestionIndex":
        version = kb.version
        with self._lock:
            if version == self._version:
                return self
            by_focus: dict[str, list[FocusDoc]] = {}
            qtype_of: dict[str, str | None] = {}
            for doc_id, title in kb.document_titles():
                focus, qtype, aliases = title_facets(title)
                qtype_of[doc_id] = qtype
                for key in dict.fromkeys([focus, *aliases]):
                    if key:
                        by_focus.setdefault(key, []).append(FocusDoc(doc_id, qtype))
            self.by_focus, self.qtype_of, self._version = by_focus, qtype_of, version
            self.vaccines = [key for key in by_focus if "vaccin" in key]
            self._products = {}
        return self

    def product_focus(self, names: list[str], forms: Sequence[str]) -> str | None:
        """The knowledge base's page on a medicine in a dosage form: a focus with every word
        of one of `names` and any of the `forms` words; most documents, then shortest name."""
        wanted = tuple(forms)
        if wanted not in self._products:
            self._products[wanted] = [key for key in self.by_focus if set(wanted) & set(key.split())]
        for name in names:
            words = set(name.split())
            found = [key for key in self._products[wanted] if words <= set(key.split())]
            if words and found:
                return max(found, key=lambda key: (len(self.by_focus[key]), -len(key)))
        return None

    def vaccine_focus(self, phrases: list[str]) -> str | None:
        """The knowledge base's page on the vaccine against any of `phrases` ("shingles",
        "herpes zoster", "mmr"): a focus naming a vaccine and every word of the longest
        phrase that has one; the focus with most documents, then the shortest name."""
        for phrase in sorted({focus_key(p) for p in phrases if len(focus_key(p)) > 1}, key=len, reverse=True):
            words = set(phrase.split())
            found = [key for key in self.vaccines if words <= set(key.split())]
            if found:
                return max(found, key=lambda key: (len(self.by_focus[key]), -len(key)))
        return None

    def best_focus(self, names: list[str], qtypes: list[str]) -> str | None:
        """The knowledge base's own name for a concept called any of `names`: the one
        whose documents answer the asked question types, else the one with most documents.
        The first names (the words as written, the concept's own name) win over a synonym
        whenever they answer the asked type: a pack synonym may name a broader or another page (Kawasaki disease lists
        "secondary glomerular disease", hyperthyroidism "Graves disease")."""
        best, best_score = None, (-1, -1, -1, -1)
        for position, name in enumerate(names):
            key = focus_key(name)
            docs = self.by_focus.get(key)
            if not docs:
                continue
            answering = sum(d.qtype in qtypes for d in docs)
            score = (answering > 0, -min(position, 2), answering, len(docs))
            if score > best_score:
                best, best_score = key, score
        return best
