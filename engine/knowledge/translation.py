"""Query translation by concept and question type: a question (Korean, English or mixed,
one line or a long clinical message) -> focused English sub-queries in the knowledge
base's own question forms.

    "갑상선 기능저하증이면 어떤 증상이 나타나요?"
        -> concepts: hypothyroidism          (the clinical pack: Korean names, lay terms)
        -> question type: symptoms           (questions.detect_qtypes)
        -> "What are the symptoms of hypothyroidism?"   shown as "hypothyroidism symptoms"

A long message ("58-year-old woman, allergic to penicillin, on amlodipine 5 mg. She has
a sore throat and fever. Can she take amoxicillin?") is searched by what it asks: the
concepts of the question sentence with the asked type (amoxicillin, precautions), the
presenting complaint (sore throat, fever) and, for a drug question, the patient's allergy
(penicillin allergy). Ages, doses, other medications and negated findings are the
patient's facts, never query words. Several sub-queries are fused with RRF.

The patient's facts weigh as boosts instead (`QueryPlan.boost_keys`, `QueryPlan.facts`):
who the patient is picks the knowledge base's pages for that group ("asthma in children",
"diabetes and pregnancy"), an allergy beside a drug question picks the allergy's page and
the drug's safety documents (side effects, warnings) next to its precautions, and the
other medications and conditions only reorder what the question found.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable, Mapping, Sequence

from engine.knowledge.questions import (ALCOHOL, ASKS_ABOUT_FOOD, ASKS_IF_NEEDED, CARING, DRUG_QTYPES, MEDICINE_WORDS,
                                       PREGNANCY_MEDICINES, QuestionIndex, as_plural_class, detect_qtypes, focus_key,
                                       label, question_form, treated_by)
from engine.text import tokenize

# concepts(text) -> mentions as mappings: name, synonyms, slot, start, end, negated.
ConceptFinder = Callable[[str], Sequence[Mapping]]

# A sentence ends at . ? ! or a line break, not at the point of a number ("TSH 9.8이고").
_SENTENCE = re.compile(r"(?:[^.?!\n。]|\.(?=\d))+[.?!。]*")
_QUESTION = re.compile(
    r"\?|^\s*(?:what|how|why|can|could|is|are|does|do|should|who|when|which|will)\b|"
    r"(?:까요|가요|는지|을까|인가|되나|알려|궁금|할까|있나|하나요|어떡|뭐|는요|은요)\s*[.?!]*\s*$|"
    r"알려\s*주|알려줘|가르쳐\s*주",
    re.IGNORECASE,
)
# Endings that ask in speech but also end statements ("열이 나요", "항상 추워해요"): they
# make a sentence the question only when no sentence asks more plainly, and then the last.
_WEAK_QUESTION = re.compile(r"(?:나요|되요|돼요|있어요|해요)\s*[.?!]*\s*$")
# Patient facts that make a message a clinical case description: ages, doses, vitals, labs.
_PATIENT_FACTS = re.compile(
    r"\b\d{1,3}[- ]?(?:years?[- ]old|yo|y/o)\b|\d{1,3}\s*(?:세|살)|\b\d+(?:\.\d+)?\s*(?:mg|mcg|ml|units?|kg)\b|"
    r"\b\d{2,3}/\d{2,3}\b|\b(?:hba1c|a1c|inr|bmi|spo2|ldl|tsh|creatinine|egfr)\b|당화혈색소|크레아티닌|산소포화도|혈압\s*\d",
    re.IGNORECASE,
)
_ALLERGY = re.compile(r"allerg|알레르기|알러지|과민", re.IGNORECASE)
# A pregnancy the asker states: a medicine question is then also a question about medicines in pregnancy.
_PREGNANT = re.compile(r"임신|임산부|pregnan", re.IGNORECASE)
# A vaccine named by what it prevents ("대상포진 백신", "the MMR vaccine", "flu shot").
_VACCINE = re.compile(r"백신|예방\s*접종|접종|vaccin\w*|\bshots?\b", re.IGNORECASE)
_BEFORE_VACCINE = re.compile(r"([A-Za-z][A-Za-z0-9-]*(?:\s+[A-Za-z][A-Za-z0-9-]*)?)[\s-]*$")
# Two medicines written side by side ("글리부라이드 메트포르민 복합제", "glyburide and metformin")
# may be one combination product the knowledge base has a page on.
# A dosage form written after a medicine ("니코틴 껌", "estradiol patch"): the knowledge
# base may have a page on that product; the form's words as its page names spell them.
_FORMS = (
    (re.compile(r"^\s*(?:껌|gum)"), ("gum",)),
    (re.compile(r"^\s*(?:패치|첩부제|patch)", re.I), ("patch", "transdermal")),
    (re.compile(r"^\s*(?:코\s*스프레이|비강\s*스프레이|nasal spray|spray)", re.I), ("nasal", "spray")),
    (re.compile(r"^\s*(?:스프레이|분무)", re.I), ("spray", "nasal")),
    (re.compile(r"^\s*(?:크림|연고|겔|젤|cream|ointment|gel)", re.I), ("topical", "cream")),
    (re.compile(r"^\s*(?:안약|점안액|점안|eye\s*drops?|ophthalmic)", re.I), ("ophthalmic",)),
    (re.compile(r"^\s*(?:흡입기|흡입제|흡입용|흡입|inhaler|inhalation|inhaled)", re.I), ("inhalation",)),
    (re.compile(r"^\s*(?:주사|injection|shot)", re.I), ("injection",)),
    (re.compile(r"^\s*(?:좌약|좌제|suppositor)", re.I), ("rectal",)),
    (re.compile(r"^\s*(?:질정|질크림|vaginal)", re.I), ("vaginal",)),
    (re.compile(r"^\s*(?:사탕|로젠지|트로키|lozenge)", re.I), ("lozenges", "lozenge")),
)
_COMBINATION_GAP = re.compile(r"^\s*(?:and|&|\+|/|,|및|과|와|랑|하고)?\s*$", re.IGNORECASE)
_FOCUS_SLOTS = ("condition", "medication")
_ALLERGY_WORDS = {"allergy", "allergies", "anaphylaxis"}
MAX_SUBQUERIES = 4
_KNOWN_TEST_PASSAGES = 3
# What holds for a drug class holds for its members (its side effects and precautions, not its
# dose): a question about one medicine the knowledge base has no page on is also searched by its
# class's page ("Antidepressants" for sertraline). Not a clinical message or a question about two
# things: their other searches (the other medicine, the allergy) find more than a class page does.
_CLASS_WIDE_QTYPES = ("side effects", "precautions")
# The questions the page on what a medicine class treats answers of the class (`treated_by`).
_PURPOSE_QTYPES = ("considerations", "treatment")
# Documents that also answer a question type: a drug's safety question is answered by its
# side effects and warnings too; MedQuAD's genetics pages split inheritance in two.
RELATED_QTYPES = {
    "precautions": ("side effects", "important warning", "contraindication"),
    "inheritance": ("genetic changes",),
}
# The knowledge base's pages for a group of patients, by the patient's demographics.
_GROUP_FORMS = {
    "child": ("{} in children", "{} in children and teens"),
    "pregnant": ("{} and pregnancy", "{} in pregnancy"),
    "adult": ("{} in adults",),
    "female": ("{} in women",),
    "male": ("{} in men",),
}
_CHILD_GROUPS = {"infant", "child", "adolescent"}


@dataclass
class SubQuery:
    """One focused English search: the question form, with names to weigh in BM25."""

    text: str
    focus: list[str]
    qtype: str | None
    shown: str
    weight: float = 1.0
    terms: list[str] = field(default_factory=list)
    by_class: bool = False  # the page of the asked medicine's drug class

    @property
    def bm25_text(self) -> str:
        return " ".join([self.text, *self.terms])


@dataclass
class QueryPlan:
    original: str
    subqueries: list[SubQuery]
    qtypes: list[str]
    focus_keys: list[str]
    message: bool = False  # a clinical case (several sentences with patient facts): searched by its sub-queries
    long: bool = False  # several sentences
    # The patient's facts, as boosts (never query words): knowledge-base foci of pages for
    # this patient (their group's page on the focus, the allergy's page), question types
    # that answer the asked one too, and names of the other medications and conditions,
    # which only reorder the documents the question found.
    boost_keys: list[str] = field(default_factory=list)
    related_qtypes: list[str] = field(default_factory=list)
    facts: list[str] = field(default_factory=list)
    # A medicine the knowledge base has no page on, asked about by its class's page: searched, as a
    # Korean question is, by the plan alone (the question as written finds other medicines' pages).
    by_class: bool = False
    # A medicine class the knowledge base has no page on, searched in the page on what it treats
    # (`treated_by`): the class's name -> that page's focus ("antipyretics" -> "fever").
    treats: dict[str, str] = field(default_factory=dict)

    @property
    def english(self) -> str:
        """What was searched, as shown to the user: "hypothyroidism symptoms; ..."."""
        return "; ".join(s.shown for s in self.subqueries)


def _has_hangul(text: str) -> bool:
    return any("\uac00" <= c <= "\ud7a3" for c in text)


def _sentences(text: str) -> list[tuple[int, int, str]]:
    return [(m.start(), m.end(), m.group(0)) for m in _SENTENCE.finditer(text) if m.group(0).strip()]


def _questions(sentences: list[tuple[int, int, str]]) -> list[tuple[int, int, str]]:
    asked = [s for s in sentences if _QUESTION.search(s[2])]
    if not asked:
        asked = [s for s in sentences if _WEAK_QUESTION.search(s[2])][-1:]
    return asked or sentences[-1:]


# Swelling of a part of the body the knowledge base has its own page on ("발목이 부었어요" is ankle swelling,
# not facial swelling), named in the mention or just before it ("My ankles are swollen").
_SWOLLEN_PARTS = (
    (re.compile(r"발목|\bankles?\b", re.I), "ankle swelling"),
    (re.compile(r"종아리|다리|\blegs?\b", re.I), "leg swelling"),
    (re.compile(r"(?<![가-힣])발(?:이|은|도|에|등|\s|$)|\bfeet\b|\bfoot\b", re.I), "foot swelling"),
    (re.compile(r"얼굴|눈두덩|눈꺼풀|(?<![가-힣])눈이|\bface\b|\bfacial\b", re.I), "facial swelling"),
    (re.compile(r"관절|무릎|\bjoints?\b|\bknees?\b", re.I), "joint swelling"),
    (re.compile(r"잇몸|\bgums?\b", re.I), "swollen gums"),
)
_PART_BEFORE = 20


def _swollen_part(query: str, mention: Mapping) -> list[str]:
    """The page name of the swollen part of the body a swelling mention names, if any."""
    if mention.get("name") != "swelling":
        return []
    start = mention.get("start", 0)
    around = query[max(0, start - _PART_BEFORE): mention.get("end", start)]
    return [page for part, page in _SWOLLEN_PARTS if part.search(around)][:1]


def _groups(patient: Mapping | None) -> list[str]:
    """The patient's groups that the knowledge base may have pages for."""
    if not patient:
        return []
    groups = []
    age, age_group = patient.get("age"), patient.get("age_group")
    if age_group in _CHILD_GROUPS or (age is not None and age < 18):
        groups.append("child")
    elif age is not None:
        groups.append("adult")
    if patient.get("pregnant"):
        groups.append("pregnant")
    if patient.get("gender") in ("female", "male"):
        groups.append(patient["gender"])
    return groups


def is_clinical_case(text: str) -> bool:
    """Several sentences with patient facts (an age, a dose, vitals or labs)."""
    return len(_sentences(text)) >= 3 and bool(_PATIENT_FACTS.search(text))


def _inside(mention: Mapping, spans: list[tuple[int, int, str]]) -> bool:
    return any(start <= mention["start"] < end for start, end, _ in spans)


class QueryTranslator:
    """Builds a `QueryPlan` for a query; None when it names no concept it can search by."""

    def __init__(self, concepts: ConceptFinder, synonyms: int = 2):
        self.concepts = concepts
        self.synonyms = synonyms
        self.index = QuestionIndex()
        self._last: tuple[tuple, QueryPlan | None] | None = None

    def plan(self, query: str, kb=None) -> QueryPlan | None:
        """The plan of `query`; the last one is kept, since a turn asks for its plan twice (the search,
        then the composer)."""
        key = (query, id(kb), getattr(kb, "size", None))
        last = self._last
        if last is not None and last[0] == key:
            return last[1]
        plan = self._plan(query, kb)
        self._last = (key, plan)
        return plan

    def _plan(self, query: str, kb=None) -> QueryPlan | None:
        mentions = [m for m in self.concepts(query) if not m.get("negated")]
        if kb is not None and mentions:
            self.index.refresh(kb)
            mentions = [m for m in mentions if m["slot"] != "test" or self._known_test(m, kb)]
        if not mentions:
            return None
        sentences = _sentences(query)
        asked = _questions(sentences)
        asked_text = " ".join(s[2] for s in asked)
        qtypes = detect_qtypes(asked_text)
        message = is_clinical_case(query)
        allergic = self._allergic(mentions, sentences)
        if kb is not None:
            mentions = self._combinations(query, mentions, allergic)
        in_question = [m for m in mentions if _inside(m, asked) and m not in allergic]
        vaccine = self._vaccine(query, asked, in_question) if kb is not None else None
        if vaccine is not None:
            in_question = [vaccine]
        elif any(q in DRUG_QTYPES for q in qtypes) and not any(m["slot"] == "medication" for m in in_question):
            # "빼먹은 약은 어떻게 해요?": a drug question that names no drug asks about the
            # message's medicines, the last named first.
            named = [m for m in mentions if m["slot"] == "medication" and m not in allergic]
            in_question = list(reversed(named))[:1] or in_question
        complaint = [m for m in self._unique(mentions) if m["slot"] == "symptom" and m not in allergic]
        # A question about "this" in a case message asks about the presenting complaint,
        # not about the patient's other conditions and medications.
        focus = ([m for m in in_question if m["slot"] in _FOCUS_SLOTS]
                 or [m for m in in_question if m["slot"] == "symptom"]
                 or (complaint if message else [])
                 or [m for m in mentions if m["slot"] in _FOCUS_SLOTS and m not in allergic]
                 or mentions)
        focus = self._unique(focus)[:2]
        treated = ([] if message or allergic or not all(m in in_question for m in focus)
                   else self._treated_complaint(focus, complaint, qtypes)
                   or self._needed_for(focus, mentions, asked_text, qtypes))
        if treated:
            focus = [*[m for m in focus if m not in treated][:1], *treated]
        focus_names = {m["name"] for m in focus}
        subqueries: list[SubQuery] = []
        focus_keys: list[str] = []
        treats: dict[str, str] = {}
        boost_keys: list[str] = []
        groups = _groups(self._patient(query)) if _PATIENT_FACTS.search(query) or _PREGNANT.search(query) else []
        drug_question = False
        for mention in focus:
            names = self._names(mention)
            # The words as written first when written in English: "iron deficiency anemia"
            # may be a synonym of the concept "anemia", and the page the asker meant.
            # Not a measured lab's name: "blood sugar is 300" is about hyperglycemia.
            written = ([mention.get("text") or ""] if not _has_hangul(mention.get("text") or "")
                       and not mention.get("measured") else [])
            written = [*_swollen_part(query, mention), *written]
            own = self.index.best_focus([*written, *names], qtypes) if kb is not None else None
            is_drug = mention["slot"] == "medication"
            drug_question = drug_question or is_drug
            purpose = None
            if is_drug and own is None and kb is not None:
                # "cough medicine": the page on "Cold and Cough Medicines".
                own = self.index.product_focus(as_plural_class(names), MEDICINE_WORDS)
                purpose = None if own else self._purpose_searches(mention, names, qtypes)
            if purpose:
                # "해열제 몇 시간마다 먹여요?": fever reducers have no page; fever's says how they are taken.
                treats[mention["name"]], searches = purpose
                focus_keys.append(treats[mention["name"]])
                subqueries += searches
                continue
            if own:
                focus_keys.append(own)
            name = own or mention["name"]
            types = [q for q in qtypes if (q in DRUG_QTYPES) == is_drug] or qtypes[:1] or [None]
            if mention in treated:
                types = ["treatment"]
            if is_drug and types == [None]:
                types = ["usage"]
            for qtype in types[:2]:
                shown = f"{name} {label(qtype)}".strip()
                # A focus the knowledge base has no document on is searched by its names:
                # the question form's own words would find the same question about other foci.
                text = question_form(qtype, name) if own or kb is None else shown
                subqueries.append(SubQuery(text, names, qtype, shown, terms=names[: 1 + self.synonyms]))
            if own:
                boost_keys += self._group_pages(own, groups, is_drug)
            elif is_drug and kb is not None and not message and len(focus) == 1:
                subqueries += self._class_page(mention, [q for q in types if q in _CLASS_WIDE_QTYPES], focus_keys)
            if is_drug:
                for allergen in self._unique([m for m in allergic if m["slot"] in ("medication", "allergen")])[:1]:
                    subqueries.append(SubQuery(f"{allergen['name']} allergy", [allergen["name"]], None,
                                               f"{allergen['name']} allergy", weight=0.5))
                    boost_keys += self._allergy_pages(allergen)
        if not drug_question and not message and focus_keys:
            # "통풍이 있는데 맥주 마셔도 되나요?", "통풍에 안 좋은 음식", "치매 환자 어떻게 돌봐야 해요?": what the
            # condition's pages say of alcohol, of eating, or of care at home.
            about = (("alcohol", "drinking") if ALCOHOL.search(asked_text)
                     else ("diet", "foods") if ASKS_ABOUT_FOOD.search(asked_text)
                     else ("home care", "caring") if CARING.search(asked_text) else ())
            if about:
                text = f"{focus_keys[0]} {about[0]}"
                subqueries[1:1] = [SubQuery(text, [focus_keys[0]], None, text, terms=[focus_keys[0], *about])]
        if drug_question and "pregnant" in groups and not message:
            subqueries[1:1] = self._pregnancy_page(focus_keys)
        if message:  # a clinical message: its presenting complaint is searched too
            words = [m["name"] for m in complaint if m["name"] not in focus_names][:3]
            if words:
                subqueries.append(SubQuery(" ".join(words), words, None, " ".join(words), weight=0.5))
        if not subqueries:
            return None
        related = [r for q in qtypes for r in RELATED_QTYPES.get(q, ()) if r not in qtypes]
        by_class = any(s.by_class for s in subqueries[:MAX_SUBQUERIES])
        if by_class:  # a class's overview page speaks of its members' side effects and cautions
            related.append("information")
        facts = [m["name"] for m in self._unique(mentions) if message and m["name"] not in focus_names
                 and m not in allergic and m["slot"] in ("condition", "medication")
                 and m["name"] not in _ALLERGY_WORDS and not _has_hangul(m["name"])]
        return QueryPlan(query, subqueries[:MAX_SUBQUERIES], qtypes, focus_keys, message, len(sentences) >= 3,
                         list(dict.fromkeys(k for k in boost_keys if k not in focus_keys)),
                         list(dict.fromkeys(related)) if drug_question or "inheritance" in qtypes else [],
                         facts[:4], by_class=by_class, treats=treats)

    def _known_test(self, mention: Mapping, kb) -> bool:
        """Whether the knowledge base speaks of a lab test: a page on it, or a one-word name of it (TSH,
        PSA) in a few passages. One it does not know ("INR", in one passage's list of liver tests) is not
        searched: the closest passages to its bare name merely share its letters."""
        names = self._names(mention)
        if self.index.best_focus(names, []):
            return True
        return any(len(kb.search_bm25(tokenize(name), _KNOWN_TEST_PASSAGES)) >= _KNOWN_TEST_PASSAGES
                   for name in names if len(tokenize(name)) == 1)

    @staticmethod
    def _treated_complaint(focus: list[Mapping], complaint: list[Mapping], qtypes: list[str]) -> list[Mapping]:
        """The complaint a medicine is asked about for: "아이가 열이 나요. 해열제 먹여도 되나요?" and
        "머리가 아픈데 타이레놀 먹어도 되나요?" ask whether the medicine treats the fever or the headache,
        so the complaint's treatment is searched beside the medicine (an English question finds it
        by its own words). Not when the question asks anything more (a dose, side effects, what to do),
        or names no medicine; nor in a clinical message or beside an allergy, whose complaint and allergy
        are searched of their own."""
        if not focus or any(m["slot"] != "medication" for m in focus) or len(focus) > 1:
            return []
        if any(q != "precautions" for q in qtypes):
            return []
        return [m for m in complaint if m["name"] not in {f["name"] for f in focus}][:1]

    def _needed_for(self, focus: list[Mapping], mentions: Sequence[Mapping], asked: str,
                    qtypes: list[str]) -> list[Mapping]:
        """The condition a medicine is asked to be needed for, in the question or stated before it
        ("독감 걸렸는데 타미플루 먹어야 하나요?", "I have the flu. Should I take Tamiflu?"): its treatment is
        searched beside the medicine (`ASKS_IF_NEEDED`)."""
        medicines = [m for m in focus if m["slot"] == "medication"]
        if len(medicines) != 1 or qtypes or not ASKS_IF_NEEDED.search(asked):
            return []
        conditions = ([m for m in focus if m["slot"] in ("condition", "symptom")]
                      or [m for m in self._unique(mentions) if m["slot"] in ("condition", "symptom")])
        return conditions if len(conditions) == 1 else []

    def _pregnancy_page(self, focus_keys: list[str]) -> list[SubQuery]:
        """"임신 중인데 감기약 먹어도 되나요?": a medicine asked about in pregnancy is also searched by the
        knowledge base's page on medicines in pregnancy, whether or not the medicine has a page of its own."""
        page = PREGNANCY_MEDICINES
        if page not in self.index.by_focus or page in focus_keys:
            return []
        focus_keys.append(page)
        return [SubQuery(question_form("information", page), [page], "information", page, terms=[page])]

    def _purpose_searches(self, mention: Mapping, names: list[str], qtypes: list[str]
                          ) -> tuple[str, list[SubQuery]] | None:
        """For a medicine class named for what it treats (`treated_by`) that has no page of its own: the page
        on what it treats and its searches (the asked drug question of "<it> medicine", and the page's
        what-to-do and treatment questions), or None when no such page answers them."""
        purpose = self.index.best_focus(treated_by(names), list(_PURPOSE_QTYPES))
        answered = [q for q in _PURPOSE_QTYPES if purpose and q in {d.qtype for d in self.index.by_focus[purpose]}]
        if not answered:
            return None
        medicine = f"{purpose} medicine"
        asked = [SubQuery(question_form(q, medicine), [mention["name"], purpose], q, f"{medicine} {label(q)}",
                          terms=[purpose, "medicine", *names[:1]]) for q in qtypes if q in DRUG_QTYPES][:1]
        return purpose, asked + [SubQuery(question_form(q, purpose), [mention["name"], purpose], q,
                                          f"{purpose} {label(q)}", terms=[purpose, *names[:1]]) for q in answered]

    def _class_page(self, mention: Mapping, qtypes: list[str], focus_keys: list[str]) -> list[SubQuery]:
        """Searches of the page on the medicine's drug class for the class-wide question types."""
        page = self.index.best_focus(list(mention.get("classes") or []), qtypes) if qtypes else None
        if page is None:
            return []
        focus_keys.append(page)
        answered = {d.qtype for d in self.index.by_focus.get(page, [])}
        return [SubQuery(question_form(q, page) if q in answered else f"{page} {label(q)}", [page], q,
                         f"{page} {label(q)}", terms=[page], by_class=True) for q in qtypes]

    def _allergic(self, mentions: Sequence[Mapping], sentences: list[tuple[int, int, str]]) -> list[Mapping]:
        """Mentions stated as the patient's allergies: as the concept finder marks them,
        else drugs and allergens in a sentence that speaks of an allergy."""
        if any("allergy" in m for m in mentions):
            return [m for m in mentions if m.get("allergy")]
        return [m for m in mentions if m["slot"] in ("medication", "allergen")
                and any(_ALLERGY.search(s[2]) and s[0] <= m["start"] < s[1] for s in sentences)]

    def _vaccine(self, query: str, asked: list[tuple[int, int, str]], in_question: Sequence[Mapping]) -> Mapping | None:
        """The vaccine a question asks about, as a mention of the knowledge base's page on it:
        the disease named just before "백신/접종/vaccine/shot" (a concept or a Latin word)."""
        for start, _end, sentence in asked:
            for cue in _VACCINE.finditer(sentence):
                at = start + cue.start()
                phrases = [name for m in in_question if m["slot"] != "medication" and 0 <= at - m["end"] <= 3
                           for name in self._names(m)]
                latin = _BEFORE_VACCINE.search(query[max(0, at - 40): at])
                if latin:
                    words = latin.group(1).split()
                    phrases += [" ".join(words), words[-1]]
                key = self.index.vaccine_focus(phrases)
                if key:
                    return {"name": key, "synonyms": [], "slot": "medication", "start": at, "end": at,
                            "negated": False, "text": cue.group(0)}
        return None

    def _combinations(self, query: str, mentions: Sequence[Mapping], allergic: Sequence[Mapping]) -> list[Mapping]:
        """Two medicines side by side that the knowledge base has one page on ("glyburide and
        metformin") become one mention of that page."""
        out: list[Mapping] = []
        for mention in mentions:
            last = out[-1] if out else None
            if (last is not None and last["slot"] == mention["slot"] == "medication" and last not in allergic
                    and mention not in allergic and _COMBINATION_GAP.match(query[last["end"]: mention["start"]])):
                key = next((f"{a} and {b}" for a in map(focus_key, self._names(last)[:3])
                            for b in map(focus_key, self._names(mention)[:3])
                            for a, b in ((a, b), (b, a)) if f"{a} and {b}" in self.index.by_focus), None)
                if key:
                    out[-1] = {**last, "name": key, "synonyms": [], "end": mention["end"]}
                    continue
            out.append(mention)
        return [self._product(query, m) if m["slot"] == "medication" else m for m in out]

    def _product(self, query: str, mention: Mapping) -> Mapping:
        """A medicine followed by its dosage form, as the knowledge base's page on that
        product when it has one ("nicotine gum", "estradiol transdermal patch")."""
        after = query[mention["end"]: mention["end"] + 12]
        words = next((words for pattern, words in _FORMS if pattern.match(after)), None)
        if words is None:
            return mention
        key = self.index.product_focus([focus_key(n) for n in self._names(mention)[:3]], words)
        return {**mention, "name": key, "synonyms": []} if key else mention

    def _patient(self, query: str) -> Mapping | None:
        describe = getattr(self.concepts, "patient", None)
        return describe(query) if describe is not None else None

    def _group_pages(self, key: str, groups: list[str], is_drug: bool) -> list[str]:
        """Foci of the knowledge base's pages on `key` for the patient's groups
        ("urinary tract infections in children"); for a drug in pregnancy, the page on
        medicines in pregnancy."""
        keys = []
        for group in groups:
            for form in _GROUP_FORMS[group]:
                keys += [focus_key(form.format(key)), focus_key(form.format(key + "s"))]
        if is_drug and "pregnant" in groups:
            keys.append(PREGNANCY_MEDICINES)
        return [k for k in dict.fromkeys(keys) if k in self.index.by_focus]

    def _allergy_pages(self, allergen: Mapping) -> list[str]:
        """The knowledge base's page on this allergy (a drug's: on drug allergies) and on
        allergies in general."""
        names = [f"{n} allergy" for n in self._names(allergen)]
        own = [focus_key(n) for n in names if focus_key(n) in self.index.by_focus][:1]
        if not own and allergen.get("slot") == "medication":
            own = ["drug allergies"]
        return [k for k in [*own, "allergy"] if k in self.index.by_focus]

    def _names(self, mention: Mapping) -> list[str]:
        names = [mention["name"], *mention.get("synonyms", [])]
        return [n for n in dict.fromkeys(names) if n and not _has_hangul(n)]

    @staticmethod
    def _unique(mentions: Sequence[Mapping]) -> list[Mapping]:
        seen, out = set(), []
        for mention in mentions:
            if mention["name"] not in seen:
                seen.add(mention["name"])
                out.append(mention)
        return out
