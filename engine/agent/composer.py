"""The answer composer: an answer built from the best passages' own sentences, each cited.

1. The question's kind (definition, causes, symptoms, diagnosis, treatment, prevention,
   dosage, interaction, "what should I do") from cue words in English and Korean, read in
   the sentences that ask ("My child was diagnosed with croup. What are the symptoms?").
2. Candidate sentences from the retrieved passages (bullet lists joined to their lead-in),
   scored by a weighted sum of features (`RELEVANCE_FEATURES`, weights fitted on the tuning
   sets by `chartside bench relevance`): embedding similarity to the question (an English
   query built from the linked concepts for a Korean question), whether the sentence speaks
   to the asked kind, whether it stands on the page written to answer the asked kind (its
   knowledge-base question, "What are the treatments for Asthma ?") or on a page that
   answers an aside (research, support groups), its passage's rank, and its shape;
   a list item that only names a group of people ("People who have weak immune systems …")
   is no candidate, nor a sentence the knowledge base repeats on many pages (its sites'
   boilerplate, engine.knowledge.boilerplate); a sentence that opens with a bare pronoun ("It",
   "Some remove …", "If you do, …") is chosen only with the sentence before it ("Croup is an inflammation
   ... It causes a barking cough ..."), quoted as those two sentences ("it" or "they" going on from a
   sentence that opens the same way, with the one that names what they stand for); a list item whose head was
   lost with the page's layout ("is used to treat ...") is no candidate. A question about a
   medicine quotes only sentences that name it or come from its own pages, and one about what
   something is only sentences of the topic itself (`of_the_topic_itself`); no question quotes
   a page on an unrelated topic that does not name its own while three sentences or more are
   about its topic (a sentence that names the topic only as an entry of another page's list,
   "Abdominal pain can be a sign of: …; Stomach ulcer; …", is not about it: `listed_as_an_item`),
   and an answer none of whose sentences is says so in its lead, as does one that quotes other
   topics' pages because fewer than three are (`about_the_topic`).
3. Maximal marginal relevance over the sentence embeddings picks 3-6 of them (diverse,
   not the same fact twice; none far from the question, `QUESTION_FLOOR`; and never without the
   sentence that gives the whole of the asked kind when one stands among them, `gives_the_whole_kind`:
   "Asthma is treated with two types of medicines: …"); they are ordered the way a clinician reads (what it is,
   why, how it shows, how it is found, what to do about it) and keep their passage order
   within a facet.
4. The frame: alerts, the patient facts on file when the question is about the patient,
   a lead naming the topic, and the standing notice, all in the question's language.
   A Korean answer quotes the English sentences as English source text with Korean key
   terms (engine.agent.answer_framing), a very long quote ending with "…" at a list item.
Every selected sentence is a sentence of its source, so each carries its support score
(the support check runs on it like on any model sentence) and its [n].
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Sequence

import numpy as np

from engine.agent import answer_framing as framing
from engine.agent.support import (ALERT, NOTICE, PROFILE, Evidence, SentenceVectors, Support, SupportChecker,
                                  evidence_from, is_bare_list, item_headings)
from engine.clinical.assertion import asks_something
from engine.clinical.drug_alerts import class_names
from engine.clinical.lexicon import english_names
from engine.clinical.slot_model import NAMING_SLOTS, TOPIC_SLOTS, only_asked_about
from engine.knowledge.boilerplate import normalised
from engine.knowledge.corpus import title_question
from engine.knowledge.questions import (ASKS_ABOUT_FOOD, ASKS_IF_NEEDED, MEDICINE_PAGE_QTYPES, PREGNANCY_MEDICINES,
                                       detect_qtypes, question_kinds, title_facets)
from engine.text import (has_hangul, hangul_share, is_negated, latin_letters, latin_words, medical_words,
                         population_markers, split_answer_sentences, tokenize)

# A Korean answer weighs up to MAX_SENTENCES_KO sentences: it quotes fewer to stay Korean enough,
# and its glance and unquoted lines name in Korean what the others say (each line lists at most
# answer_framing.TERMS_LISTED terms, so weighing more sentences names more facts, not longer lines).
MIN_SENTENCES, MAX_SENTENCES, MAX_SENTENCES_KO = 3, 6, 16
# An English answer quotes up to MAX_SENTENCES and weighs this many more, whose key terms one line
# names with their [n] (as a Korean answer's unquoted line does).
NAMED_EN = MAX_SENTENCES_KO - MAX_SENTENCES
HEADING_WORDS = 3  # a unit of fewer words is a heading, not a sentence
# Words: a longer sentence is penalised (a Korean answer prefers short quotes, and is judged by the
# quote it would show once cut at KO_TIGHTER_LETTERS[0]).
LONGEST, LONGEST_KO = 45, 28
# A Korean answer quotes its KO_FIRST_QUOTES most relevant English sentences, and more (up to
# MAX_SENTENCES) only while the answer stays at least KO_MIN_HANGUL Korean by letters
# (Hangul syllables against Latin letters; the Korean frame of lead, facet and key terms
# grows with each quote).
KO_FIRST_QUOTES = 3
# A Korean answer's quote longer than this many Latin letters ends, with "…", at a list item or
# clause boundary (never mid-clause, and keeping at least KO_MIN_QUOTE_WORDS words).
KO_QUOTE_LETTERS, KO_MIN_QUOTE_WORDS = 220, 8
# Shorter cuts, tried in turn, for the quotes of a Korean answer that would read too English.
KO_TIGHTER_LETTERS = (160, 120, 80)
# Quotes that even cut read too English are dropped, the least relevant first, down to this many
# (the target is per answer: two long quotes that cannot be cut read too English on their own);
# the unquoted line still names their terms in Korean with their [n].
KO_LEAST_QUOTES = 1
KO_MIN_HANGUL = 0.4
MMR_LAMBDA = 0.7
# Two sources often say the same thing in other words ("Anemia can cause shortness of breath,
# dizziness ..." after "Signs include: Shortness of breath; Dizziness ..."): a sentence that
# shares this much of its content stems (the question's own words aside) with a chosen one
# adds nothing, however far apart their embeddings are.
LEXICAL_DUPLICATE = 0.7
PAIR_MARGIN = 0.1  # a sentence with its pronoun follower wins over the sentence alone within this much relevance
PAIR_TERMS = 2
RELEVANCE_FLOOR = 0.4
# A sentence this far from the question (cosine) is about something else, whatever its cues and page
# ("Beta blockers are used to treat HBP …" for whooping cough's symptoms, "During the test, you lie on a
# table …" for how hepatitis C is found): it is neither quoted nor named.
QUESTION_FLOOR = 0.12
# A sentence that names medical things beyond the question's own words (drugs, tests, body
# parts, symptoms) says something specific; "The symptoms of appendicitis can vary" does not.
# (feature specific_words, counted up to SPECIFIC_WORDS).
SPECIFIC_WORDS = 4
# A sentence with the asked kind's cue words ('caused by' for a causes question), one whose only
# cue is the kind's own word ('treatment', see _GENERIC_CUES), and one on the wrong side of a cause
# for it (off_side): features names_the_means, speaks_to_the_kind and wrong_side.
# A sentence about a kind that does not answer the asked one (`_LISTS_ANOTHER_KIND`: "Antiviral
# medicines can treat shingles" for its symptoms), though it does not say what it lists: feature
# another_kind.
PASSAGES_USED = 5
# A passage written to answer the asked kind of question (a MedQuAD title "What are the
# treatments for Asthma ?" for "천식은 어떻게 치료하나요?") states the answer, most directly
# in its first sentences; other pages about the topic mention it in passing: features answering_page
# and answering_opening (its first OPENING_SENTENCES).
OPENING_SENTENCES = 3
# A sentence on the topic's own page speaks of the topic even where it does not name it ("You may
# have choking spells or may cough so hard that you vomit" on the whooping cough page); a symptom
# list on a related page ("Your child and the flu") speaks of something else: feature topic_page.
# A sentence whose subject is the main one of the asked kind ("The most common cause is heavy alcohol
# use", "The main symptoms are …") answers the question outright, though short and without the
# topic's name it sits far from the question's embedding: feature main_one.
# Pages that answer another kind of question than any a clinic asks of the composer
# ("what research is being done", "where to find support", "how many people are affected").
ASIDE_QTYPES = frozenset({"research", "support groups", "frequency", "genetic changes", "brand names",
                          "brand names of combination products", "storage and disposal"})
# A sentence from a page about an unrelated topic that does not name the question's own ("CRPS most
# often affects one of the arms, legs, hands, or feet" for croup's symptoms) answers another question.
# Unrelated: the page's topic is further than UNRELATED_PAGE (cosine) from every name of the
# question's; a closely related page ("Streptococcal Infections" for strep throat, 0.59) may still
# answer, a page that only shares a body part does not ("Saline nasal washes" for a nosebleed, 0.37).
UNRELATED_PAGE = 0.55
# A page whose own topic is another concept of the pack ("Common Cold" for cold sores, 0.61: they share a
# word) is held to ANOTHER_CONCEPT_PAGE instead, once the topic's own sentences fill an answer.
ANOTHER_CONCEPT_PAGE = 0.8
# A question none of whose words the clinical pack links ("I splashed bleach in my eye") has no
# topic to hold its pages to: a page is kept when its topic is this close (cosine) to the question
# itself ("Eye Injuries", 0.44; not "Cleaning to prevent the spread of germs", 0.25).
QUESTION_PAGE = 0.4
KIND_QTYPES = {"definition": ("information",), "causes": ("causes", "susceptibility"), "symptoms": ("symptoms",),
               "diagnosis": ("exams and tests",), "treatment": ("treatment",), "prevention": ("prevention",),
               "dosage": ("usage",), "side_effects": ("side effects",), "interaction": ("precautions",),
               "what_to_do": ("considerations", "treatment")}
READING_ORDER = ("definition", "causes", "symptoms", "diagnosis", "treatment", "prevention", "dosage",
                 "side_effects", "interaction", "what_to_do", "other")

# The most specific kind wins: "how can I prevent it, what should I do?" asks about prevention.
_KIND_ORDER = ("interaction", "side_effects", "dosage", "diagnosis", "prevention", "treatment", "what_to_do", "causes", "symptoms",
               "definition")

# "Folic acid may significantly reduce the incidence of neural tube defects" is about prevention,
# however much its "risk of" sounds like causes.
_LOWERS_RISK = re.compile(r"\b(?:lower|reduce|decrease)s?(?:\s+\w+){0,3}?\s+(?:risk|chance|incidence|odds)\b", re.I)
_CHECKS = r"\b(?:check|checks|checking|determine|determines|find out|finds out|tell|tells)"
_CHECKS_WHETHER = _CHECKS + r" (?:whether|if)\b"
# What is checked is not what something is: "… check whether your palpitations are the symptom of a heart
# problem" does not say what palpitations are (the definition cue's "are the" only outside such a clause).
_NOT_WHAT_IS_CHECKED = r"^(?:(?!\bwhether\b|" + _CHECKS_WHETHER + r").)*?"
# What a doctor or a test checks is how a condition is found, whatever the checked clause names
# ("Your doctor will want to check whether your palpitations are the symptom of a heart problem");
# "Check if the person is breathing" is first aid.
_DOCTOR_CHECKS = r"\b(?:doctors?|providers?|tests?|exams?)\b[^.;:]{0,40}?" + _CHECKS_WHETHER
_DOCTOR_CHECKS_RE = re.compile(_DOCTOR_CHECKS, re.I)
# A diagnosis, treatment or prevention sentence either names the means (a test, a medicine, rest,
# a vaccine) or only says the word ("Small stones don't usually need treatment", "ADHD is diagnosed
# more often in boys"): the second kind answers less (feature speaks_to_the_kind). Being diagnosed with
# or in something, or commonly diagnosed, is not how it is diagnosed.
_GENERIC_CUES = {
    "diagnosis": r"(?<!commonly )(?<!often )(?<!frequently )(?<!newly )\bdiagnos(?!ed\s+(?:with|in|at|as|during|among|"
                 r"before|after|between|much|more|most|usually|often|mainly|mostly|later|early|each|every)\b)"
                 r"|" + _DOCTOR_CHECKS,
    "treatment": r"\btreat",
    "prevention": r"\bprevent",
}
# A healthy diet or weight is a means; a child who appears healthy, otherwise healthy people and what the
# body needs for healthy bones are not.
_HEALTHY_HABIT = (r"(?<!appear )(?<!appears )(?<!look )(?<!looks )(?<!seem )(?<!seems )(?<!otherwise )(?<!be )(?<!for )"
                  r"\bhealthy")
_MEANS_CUES = {
    "diagnosis": r"\btests?\b|\bexam|\bbiops|\bmeasur|\bscreen|\bx-ray|\bscan\b|\breading|\bcriteri"
                 r"|\bconsidered to have\b|\b(?:medical|health) history\b|\bultrasound|\bmammogra|\bimaging\b|\bMRI\b"
                 r"|\bCT\b|\bendoscop|\bcolonoscop|\belectrocardiogra|\bECG\b|\bEKG\b|\bdoppler\b|\bsamples?\b",
    "treatment": r"\btherap|\bmedicine|\bmedication|\bsurgery|\bdrugs?\b|\bprescri|\binhaler|\bantibiotic|\binsulin"
                 r"|\bover-the-counter\b|\bointments?\b|\bcreams?\b|\b(?:eye|ear|nose|nasal) drops\b"
                 r"|\bhormone|\bdrink(?:ing)? (?:lots|plenty|more|extra)\b|\blozenges?\b|\bgargl|\brelieves?\b|\bsoothes?\b"
                 r"|\bease[sd]? (?:the |your )?(?:pain|symptoms|discomfort|itch)"
                 r"|\b(?:lower|reduce|bring down)s?(?:\s+\w+)?\s+(?:a |the |your )?(?:fever|temperature)\b"
                 r"|\bapply(?:ing)? (?:ice|heat|an? (?:cold|warm|ice))\b"
                 r"|\bice packs?\b|\blifestyle changes?\b|\bcalori|\bphysical(?:ly)? activ|\bexercis|" + framing.REST_AS_CARE,
    "prevention": r"\bavoid|" + _LOWERS_RISK.pattern + r"|\bprotect(s|ing)? (you|your|them|children|people)\b"
                  r"|\b(?:steps|tips|rules|keys?) (?:to|for) (?:\w+ )?safety\b|\bsafety (?:steps|tips|rules|measures)\b"
                  r"|\bvaccin|\bflu shot|" + _HEALTHY_HABIT + r"|\bexercise|\bquit",
}
_NAMES_MEANS = {name: re.compile(means, re.I) for name, means in _MEANS_CUES.items()}
# "Early symptoms of dementia can include: Difficulty performing tasks …" lists what it names.
_LISTS = re.compile(r"\b(?:include|includes|including|are|such as)\s*:", re.I)
# Two things combined ("combined with", "in combination"), not a pill that combines two hormones.
_COMBINED = r"\bcombin\w* with\b|\bin combination\b|\bbe combined\b"
# An instruction: one that forbids ("Do NOT make a person throw up unless told to …"), or one after its
# condition ("If the person breathed in the poison, immediately move him or her to fresh air"). A bare
# "Never …" or "Keep …" is as often a page's general advice ("Never change your medicine without …").
_INSTRUCTION = (r"^(?:do not|don't)\b|^(?:if|when|after|before|while)\b[^,;:]{0,80},\s*(?:(?:immediately|gently|"
                r"then|first|also|quickly|carefully)\s+)?(?:do not|don't|apply|press|pinch|hold|keep|lie|lay|put|"
                r"place|give|take|wash|clean|rinse|flush|cool|cover|move|stop|elevate|raise|sit|lean|loosen)\b")
# Steps of daily care given as a list of commands ("Good foot hygiene is also crucial: Check your feet every
# day; Wash your feet every day; …"), each opening the sentence or an item of its list.
_CARE_STEPS = r"(?:^|[:;]\s*)(?:check|wash|wear|inspect|trim|protect|dry)\s+(?:your|the)\b"
_FACET_CUES: dict[str, re.Pattern] = {
    "definition": re.compile(_NOT_WHAT_IS_CHECKED + r"\b(is|are) (?:(?:considered|thought to be|known as|classified as|"
                             r"regarded as) )?(a|an|the|one|when)\b|\brefers? to\b|\bmeans?\b|\bis called\b", re.I),
    "causes": re.compile(r"\b(is|are|be|often|usually|mostly) caused\b|\bcauses? of\b|\bdue to\b|\bbecause\b"
                         r"|\bcauses? (?:is|are|include|includes|(?:can|may) include)\b"
                         r"|\b(?:happen|form|develop|occur)s? when\b|\bresult(s|ing)? (of|from)\b|\brisk factor"
                         r"|\btrigger|\bbuild(s)? up\b|\binherit|\bgenetic|\b(?:can|may|might|could) (?:also |sometimes )?cause\b|\blead(s)? to\b|\bmore likely to\b|\bat risk\b"
                         r"|\brisk of\b|\b(?:increase|raise)s? (?:the|your) (?:risk|chance|likelihood|odds)\b|\bplays? a (?:role|part)\b",
                         re.I),
    "symptoms": re.compile(r"\bsymptom|\bsigns?\b|\bfeel|\bpain(?!less)|\bnumb|\bweak|\btired|\bthirst|\bsweat", re.I),
    **{name: re.compile(f"{_GENERIC_CUES[name]}|{means}", re.I) for name, means in _MEANS_CUES.items()},
    "dosage": re.compile(r"\bmg\b|\bmilligram|\bdoses?\b|\bdaily\b|\bper day\b|\beach day\b|\bevery \d+|\bunits?\b",
                         re.I),
    "side_effects": re.compile(r"\bside effects?\b|\badverse\b|\breactions?\b|\bsoreness\b|\bredness\b|\bswelling\b"
                              r"|\bitching\b|\bnausea\b|\bdizz|\bdrows|\bheadache\b|\brash\b|\bupset stomach\b", re.I),
    "interaction": re.compile(rf"\binteract|\btogether\b|{_COMBINED}|\bbleed|\bwith (other|another)|\bavoid\b"
                              r"|\bshould not\b|\bdo not (?:take|use)\b|\bcan harm\b|\bmake \w+ worse\b|\bcaution\b"
                              r"|\bespecially if\b", re.I),
    "what_to_do": re.compile(r"\bcall\b|\bsee (a|your) (doctor|health)|\bseek\b|\bemergency\b|\bright away\b|\b911\b"
                             r"|\bhealth care provider\b|\bshould\b|\bremove\b|\bdrink\b|" + framing.REST_AS_CARE
                             + "|" + _INSTRUCTION + "|" + _CARE_STEPS, re.I),
}
# Which side of a cause the topic is on. What the topic itself causes is a complication, not a
# cause ("Varicose veins can lead to dermatitis", "pain caused by your varicose veins"); what
# causes the topic is not a symptom of it ("conditions that can cause dementia").
_CAUSES_FORWARD = re.compile(r"^\W*(?:(?:can|may|might|could|will|also|often|usually|sometimes|commonly|do|does|did|not)\s+)*"
                             r"(?:cause[sd]?|lead(?:s)? to|result(?:s)? in)\b(?! of| by)", re.I)
# The topic just after "caused by", or in the list it gives ("Indigestion can be caused by a condition
# in the digestive tract such as GERD, peptic ulcer disease, …").
_CAUSED_BY = re.compile(r"\b(?:caused by|due to|because of|results? from|(?:a|the) result of|triggered by|brought on by)"
                        r"\s+(?:(?:\w+\s+){0,2}?|[^.;:]{0,80}?\b(?:such as|including|like)\s+[^.;:]*?)$", re.I)
# The topic among what a symptom is a sign of ("Abdominal pain can be a sign of: Appendicitis;
# Gallstones; Stomach ulcer; …"), unless the sentence goes on to say what causes those signs.
_SIGN_OF = re.compile(r"\b(?:signs?|symptoms?) of\b:?[^.]*$", re.I)
_CAUSES_BEFORE = re.compile(r"\b(?:cause[sd]?|lead(?:s)? to|trigger(?:s|ed)?)\s+(?!of\b)(?:\w+\s+){0,3}?$", re.I)
_IS_CAUSED = re.compile(r"^\W*(?:is|are)\s+(?:\w+\s+)?(?:caused by|due to|the result of|triggered by)\b", re.I)
CAUSE, EFFECT = "cause", "effect"


def causal_role(sentence: str, topic_terms: Sequence[str]) -> str:
    """CAUSE when the sentence tells what the topic causes (the topic just before "causes"/"can
    lead to", just after "caused by"/"due to" or in its list, among what a sign is a sign of);
    EFFECT when it tells what causes the topic ("can cause dementia", "Gout is caused by ...");
    "" otherwise."""
    lowered = sentence.lower()
    for term in (t for t in topic_terms if t):
        at = lowered.find(term)
        while at >= 0:
            before, after = lowered[:at], lowered[at + len(term):]
            if _CAUSED_BY.search(before) or _CAUSES_FORWARD.match(after):
                return CAUSE
            if _CAUSES_BEFORE.search(before) or _IS_CAUSED.match(after):
                return EFFECT
            if _SIGN_OF.search(before):
                return CAUSE
            at = lowered.find(term, at + 1)
    return ""


# A sentence on the wrong side of a cause for the asked kind: a complication for "what causes it?",
# a cause for "what are its symptoms?".
_OFF_SIDE = {"causes": CAUSE, "symptoms": EFFECT}


# Other conditions that look like the topic ("A number of disorders can cause symptoms similar to
# those of Parkinson disease", "symptoms that resemble …") are not its symptoms.
_LOOKALIKE = re.compile(r"\bsimilar to (?:those|that) of\b|\bresembl|\bmimic|\bmistaken for\b|\bconfused with\b"
                        r"|\bother,? (?:\w+,? ){0,3}(?:disorders|conditions|diseases)\b", re.I)


# Advice for someone with another condition ("If you have arthritis, follow your health care
# provider's treatment plan" for a twisted ankle) is not advice for the asker.
_IF_YOU_HAVE = re.compile(r"^(?:\w+,?\s+)?if (?:you|your child|they|he|she) (?:have|has|had|are diagnosed with|"
                          r"develop|get)\s+([^,;:]{1,60})", re.I)
# So are the symptoms, causes or treatments of another condition ("Symptoms of a cold or the flu
# include sore throat, fatigue …" for bronchitis).
_OF_ANOTHER = re.compile(r"^(?:\w+\s+){0,2}?(?:symptoms?|signs?|causes?|treatments?|risk factors?)(?: and symptoms)?"
                         r" (?:of|for) ([^.;:]{1,50}?)\s+(?:include|includes|are|can include|may include"
                         r"|(?:usually |often |typically |generally |may )?(?:consists? of|involves?))\b", re.I)


# So is how a medicine is given for another condition ("When this medication is used to relieve the symptoms
# of dermatitis herpetiformis, it should be taken in the smallest effective dose …" for atopic dermatitis).
_USED_FOR_ANOTHER = re.compile(r"\b(?:medications?|medicines?|drugs?)\s+(?:is|are)\s+used\s+to\s+(?:treat|relieve)\s+"
                               r"(?:the\s+symptoms\s+of\s+)?([^,;:.]{1,50})", re.I)
_SUBTYPE_WORDS = frozenset(tokenize("type 1 2 i ii acute chronic mild moderate severe early late childhood adult"))


# A sentence that says what something is ("Athlete's foot is a common infection caused by a fungus",
# "PLMD is a condition in which …"): its subject is what it speaks of.
_DEFINES = re.compile(r"^(?:the\s+)?([\w'/-]+(?:\s+[\w'/-]+){0,5}?)\s+(?:is|are|refers? to|means)"
                      r"\s+(?:a|an|the|one|when)\b", re.I)
_GENERIC_SUBJECT = frozenset(tokenize("it this that these those they condition disease disorder illness problem "
                                      "syndrome infection type form kind most common one"))


# The kinds asked about a condition itself: what another condition is, or what causes it, answers none.
_ABOUT_THE_CONDITION = frozenset({"definition", "causes", "symptoms"})


def defines_another(sentence: str, asked: set[str]) -> bool:
    """The sentence says what something is whose name shares no word with `asked` (the stems of the
    question, its topic and the sentence's page topic) beyond a generic one ("This condition is …")."""
    subject = _DEFINES.match(sentence.strip())
    if not subject:
        return False
    words = set(tokenize(subject.group(1))) - _GENERIC_SUBJECT
    return bool(words) and not words & asked


def for_another_condition(sentence: str, asked: set[str], unnamed: bool = False) -> bool:
    """The sentence's advice is for people with a condition that `asked` (the stems of the question,
    its topic and the sentence's page topic) does not name. With `unnamed`, a condition the lexicon
    does not know counts too, by its words, where the sentence says whose treatment or symptoms it
    gives: on another topic's page, "Treatment of rheumatic fever usually consists of antibiotics …"
    is not how a fever is treated ("If you have pain …" names a complaint, not a condition). So is a
    medicine's use for a condition the lexicon names (`_USED_FOR_ANOTHER`)."""
    of_another = _OF_ANOTHER.match(sentence.strip())
    clause = _IF_YOU_HAVE.match(sentence.strip()) or of_another or _USED_FOR_ANOTHER.search(sentence)
    if not clause:
        return False
    names = [set(tokenize(m.group(0))) - _SUBTYPE_WORDS for m in _condition_names().finditer(clause.group(1))]
    if unnamed and not names and clause is of_another:
        names = [set(tokenize(clause.group(1))) - _SUBTYPE_WORDS - _GENERIC_SUBJECT]
    return any(name and not name <= asked for name in names)


def off_side(sentence: str, kind: str, topic_terms: Sequence[str]) -> bool:
    if kind == "symptoms" and _LOOKALIKE.search(sentence):
        return True
    return kind in _OFF_SIDE and causal_role(sentence, topic_terms) == _OFF_SIDE[kind]


# The kinds of question asked about a medicine (its nausea is a side effect, a disease's a symptom).
MEDICINE_KINDS = frozenset({"side_effects", "dosage", "interaction"})
# The facets of quotes that answer an asked kind: first aid ("To treat a spider bite: Wash the area …")
# answers what to do.
ANSWERING_FACETS = {"what_to_do": {"what_to_do", "treatment"}}
# About a medicine, "drugs" or "medicine" says little; its interactions, doses and side effects say more.
_MEDICINE_FACETS_FIRST = (*(k for k in READING_ORDER if k in MEDICINE_KINDS),
                          *(k for k in READING_ORDER[:-1] if k not in MEDICINE_KINDS))
_PURPOSE_VERBS = {"treatment": ("treat", "relieve", "ease", "soothe", "manage"),
                  "prevention": ("prevent", "avoid", "protect"), "diagnosis": ("diagnose",)}
_PURPOSE = re.compile(r"^(?:to|in order to)\s+(?:help\s+)?("
                      + "|".join(v for vs in _PURPOSE_VERBS.values() for v in vs) + r")\b", re.I)


def _stated_purpose(sentence: str) -> str:
    """The kind a sentence's opening purpose names ("To treat a spider bite: …" → treatment), or ""."""
    opening = _PURPOSE.match(sentence)
    verb = opening.group(1).lower() if opening else ""
    return next((name for name, verbs in _PURPOSE_VERBS.items() if verb in verbs), "")


# A sentence that names what is used to treat something is about treatment ("Other medications used to
# treat Bell's palsy include acyclovir … and ibuprofen (to relieve pain)"), whatever symptom it names.
_USED_TO_TREAT = re.compile(r"\b(?:medicines?|medications?|drugs?|therap(?:y|ies))\s+(?:\w+\s+)?(?:used|given|prescribed)"
                            r"\s+to\s+treat\b", re.I)
# A sentence that says what it lists ("Other possible causes of fever include: ...", "Signs of
# stroke are ...") is about that, whatever else its words hint at (the antibiotics among those
# causes make it no treatment).
_STATED_SUBJECT = re.compile(r"^(?:\w+\s+){0,3}?(causes?|risk factors?|contributing factors?|symptoms?|signs?|side effects?|treatments?|complications?)\b"
                             r"(?: and symptoms)?(?: of| for)?[^.;:]{0,60}?\b(?:include|includes|are|is|may be|can be)\b",
                             re.I)
# Or says what kind it is after its subject: "A burning stomach pain is the most common symptom", "Surgery is
# the main treatment for appendicitis". Not a cause: "Bell's palsy is the most common cause of facial
# paralysis" says what the topic is.
_STATED_PREDICATE = re.compile(r"\b(?:is|are)\s+(?:the|a|an|one of the)\s+(?:most\s+common|main|usual|first|primary|"
                               r"common|leading|major|chief|earliest)\s+(symptoms?|signs?|treatments?|side effects?)\b",
                               re.I)
_SUBJECTS = {"cause": "causes", "risk factor": "causes", "contributing factor": "causes", "symptom": "symptoms",
             "sign": "symptoms", "side effect": "side_effects", "treatment": "treatment",
             "complication": "complications"}
# Side effects may be named anywhere before their list ("Call your provider if your child notices side
# effects such as: Stomach pain; …").
_SIDE_EFFECTS_LISTED = re.compile(r"\bside effects?\b[^.;:]{0,30}?\b(?:such as|include|includes|including|like)\s*:",
                                  re.I)
# A list that says it is of another kind answers something else: "Symptoms of menopause include …"
# is no treatment of hot flashes nor what to do for them, "Treatment may include medicines …" no prevention, "Heredity can cause
# hearing loss" no test for it. Symptoms still serve a diagnosis, and risk factors a prevention. What a
# condition leads to ("The complications of benign prostatic hyperplasia may include: acute urinary
# retention …") is none of these kinds, and a medicine's side effects are none of a condition's causes,
# symptoms, tests or prevention.
_LISTS_ANOTHER_KIND = {kind: others | {"complications"} for kind, others in {
    "treatment": {"symptoms", "causes"}, "what_to_do": {"symptoms", "causes"},
    "prevention": {"symptoms", "treatment", "side_effects"}, "causes": {"symptoms", "treatment", "side_effects"},
    "symptoms": {"treatment", "causes", "side_effects"}, "diagnosis": {"treatment", "causes", "side_effects"}}.items()}


_MAIN_ONE = re.compile(r"^(?:\w+\s+){0,2}?(?:most common|most frequent|main|leading|usual|primary|chief|commonest)\s+"
                       r"(causes?|risk factors?|symptoms?|signs?|side effects?|treatments?)\b(?: of [^.;:]{1,60}?)?"
                       r"\s+(?:is|are|include|includes)\b", re.I)


# A sentence that says, in the passive, by what the topic is treated, caused, found or prevented ("Asthma
# is treated with two types of medicines: …", "Gout is caused by too much uric acid") gives the whole
# of the asked kind, not one of its items; "Some cases can be treated …" and "… is not caused by …" do not.
_PASSIVE_OVERVIEW = {
    "treatment": r"(?:treated|managed|controlled)\s+(?:\w+\s+){0,3}?(?:with|by|using|through)",
    "causes": r"(?:caused|triggered)\s+by|due\s+to",
    "diagnosis": r"diagnosed\s+(?:\w+\s+){0,3}?(?:with|by|using|through|based on|from)",
    "prevention": r"prevented\s+(?:\w+\s+){0,3}?(?:with|by|through)"}
_PASSIVE_SUBJECT = re.compile(r"^([^.;:,]{2,60}?)\s+(?:is|are|can\s+(?:often\s+|usually\s+)?be|may\s+be)\s+"
                              r"(?:(?:usually|often|most often|mostly|commonly|generally|typically|mainly|almost always|"
                              r"best)\s+)?(" + "|".join(f"(?:{v})" for v in _PASSIVE_OVERVIEW.values()) + r")\b",
                              re.I)


# "… may be treated by your regular doctor or by a urologist" says who treats, not with what.
_BY_WHOM = re.compile(r"^\s*(?:(?:your|a|an|the|their)\s+)?(?:[\w-]+\s+){0,2}?(?:doctors?|physicians?|providers?|practitioners?|"
                      r"teams?|surgeons?|nurses?|\w+ists?)\b", re.I)


# The same in the active voice: "For most patients, health care providers diagnose high blood pressure when
# readings are consistently 140/90 mmHg or above", "Doctors treat gout with …".
_ACTIVE_OVERVIEW = re.compile(r"^(?:[\w,]+\s+){0,6}?(?:doctors?|providers?|physicians?|clinicians?)\s+"
                              r"(?:(?:can|may|usually|often|will|generally|typically)\s+)?(diagnose|treat|prevent)\s+"
                              r"(.{2,60}?)\s+(?:by|with|using|when|if|based on|through|from)\b", re.I)
_ACTIVE_KINDS = {"diagnose": "diagnosis", "treat": "treatment", "prevent": "prevention"}


def _whole_kind(kind: str) -> str:
    """The kind whose whole answers the asked one: what to do for a condition is its treatment."""
    return "treatment" if kind == "what_to_do" else kind


def overview_subject(sentence: str, kind: str) -> str:
    """The subject of a sentence that says by what it is treated, caused, found or prevented (in the
    passive, or in the active with doctors as its subject), when that is the asked kind ("Asthma is
    treated with …" → "Asthma"; "Providers diagnose high blood pressure when …" → "high blood
    pressure"), else ""."""
    asked = _whole_kind(kind)
    active = _ACTIVE_OVERVIEW.match(sentence.strip())
    if active:
        return active.group(2) if _ACTIVE_KINDS[active.group(1).lower()] == asked else ""
    stated = _PASSIVE_SUBJECT.match(sentence.strip())
    wanted = _PASSIVE_OVERVIEW.get(asked)
    if not stated or not wanted or not re.fullmatch(wanted, stated.group(2), re.I):
        return ""
    if _BY_WHOM.match(sentence.strip()[stated.end():]):
        return ""
    return stated.group(1)


# "The symptoms of gout include …", "Glaucoma treatments include …": a list that says it is the topic's own,
# whole (not "Some", "Other"), of the asked kind.
_LISTS_THE_KIND = re.compile(r"^(?:the\s+)?(?:(?:most\s+)?common\s+|usual\s+|typical\s+)?"
                             r"(signs and symptoms|causes?|symptoms?|signs?|treatments?|risk factors?|side effects?)"
                             r"\s+(?:of|for)\s+(.{2,60}?)\s+(?:include|includes|are|can include|may include)\b"
                             r"|^(.{2,60}?)\s+(causes|symptoms|signs|treatments|risk factors|side effects)\s+"
                             r"(?:include|includes|are|can include|may include)\b", re.I)


# "A blood test will show if you have hepatitis C": the test that finds the topic, said outright.
_TEST_SHOWS = re.compile(r"^(?:a|an|the)?\s*(?:[\w-]+\s+){0,3}?(?:tests?|exams?|examinations?|scans?|biops(?:y|ies)|x-rays?)"
                         r"(?:,[^,.;:]{1,60},)?\s+(?:will|can|may|usually)?\s*(?:help\s+)?"
                         r"(?:shows?|tells?|confirms?|finds?|detects?|determines?)\s+(?:if|whether)\s+"
                         r"(?:you|a person|someone|your child|they|he|she)\s+(?:has|have)\s+(.{2,60}?)\W*$", re.I)


def names_only_the_topic(subject: str, topic_terms: Sequence[str], names: Sequence[set[str]] = ()) -> bool:
    """The subject is the topic by one of its names ("Asthma", "the flu (influenza)"; `names`, the stems
    of the topic's names and synonyms, `Topic.names`), not a kind of it or something that bears its name
    ("Some cases of asthma", "Obesity hypoventilation syndrome")."""
    if names and set(tokenize(re.sub(r"\([^)]*\)", " ", subject))) in names:
        return True
    named = re.sub(r"^(?:the|a|an)\s+", "", " ".join(re.sub(r"\([^)]*\)", " ", subject.lower()).split()))
    return any(term and (named in (term.lower(), f"{term.lower()}s", f"{term.lower()}es") or f"{named}s" == term.lower())
               for term in topic_terms)


def gives_the_whole_kind(sentence: str, kind: str, topic_terms: Sequence[str], names: Sequence[set[str]] = ()) -> bool:
    """The sentence gives the whole of the asked kind for the topic itself: its main one ("The most
    common cause is …"), by what it is treated, caused, found or prevented ("Asthma is treated with
    two types of medicines: …", "A blood test will show if you have hepatitis C"), or its list ("The
    symptoms of gout include …", "These are warning signs of a stroke: …"). Stricter than `overview`, which only orders: it decides what
    `select` must not leave out."""
    if states_the_main_one(sentence, kind) or announces_the_kind(sentence, kind, topic_terms):
        return True
    subject = overview_subject(sentence, kind)
    if subject:
        return names_only_the_topic(subject, topic_terms, names)
    shows = _TEST_SHOWS.match(sentence.strip())
    if shows:
        return kind == "diagnosis" and names_only_the_topic(shows.group(1), topic_terms, names)
    listed = _LISTS_THE_KIND.match(sentence.strip())
    if not listed:
        return False
    word, subject = (listed.group(1), listed.group(2)) if listed.group(1) else (listed.group(4), listed.group(3))
    return kind_named(word) == _whole_kind(kind) and names_only_the_topic(subject, topic_terms, names)


def kind_named(word: str) -> str:
    """The kind a word of `_SUBJECTS` names, in either number ("causes" → causes, "signs and symptoms" →
    symptoms), or ""."""
    word = word.lower()
    return _SUBJECTS.get(re.sub(r"s$", "", word), "symptoms" if word.startswith("signs and") else "")


def states_the_main_one(sentence: str, kind: str) -> bool:
    """The sentence's subject is the most common or main one of the asked kind."""
    stated = _MAIN_ONE.match(sentence)
    return bool(stated) and kind_named(stated.group(1)) == kind


def _stated_kind(sentence: str) -> str:
    """The kind a sentence says it lists ("Other causes of fever include …" → causes), or ""."""
    stated = _STATED_SUBJECT.match(sentence) or _STATED_PREDICATE.search(sentence)
    if stated:
        return kind_named(stated.group(1))
    return "side_effects" if _SIDE_EFFECTS_LISTED.search(sentence) else ""


def lists_another_kind(sentence: str, kind: str) -> bool:
    return _stated_kind(sentence) in _LISTS_ANOTHER_KIND.get(kind, ())


def lists_protection(sentence: str) -> bool:
    """A list of what protects or prevents ("To help protect yourself and your family, you should: Use a
    chemical repellent …", "To prevent animal bites and complications from bites: …")."""
    return ": " in sentence and _stated_purpose(sentence) == "prevention"


# A sentence that only gives a name ("The technical name for the throat is pharynx.", "Conjunctivitis
# is the medical name for pink eye."): it tells what something is called, which answers no question
# but what something is.
_ONLY_NAMES = re.compile(r"^(?:the\s+)?(?:[\w-]+\s+){0,2}?(?:name|term)s?\s+for\s+[^.;:]{1,60}?\s+(?:is|are)\s+"
                         r"[^.;:,]{1,40}\.?$"
                         r"|^[^.;:,]{1,60}?\s+(?:is|are)\s+(?:the|a|another)\s+(?:[\w-]+\s+)?(?:name|term)s?\s+for\s+"
                         r"[^.;:,]{1,40}\.?$", re.I)


def only_names(sentence: str) -> bool:
    return bool(_ONLY_NAMES.match(sentence.strip()))


_SIDE_EFFECTS_NAMED = re.compile(r"\bside effects?\b|\badverse\b", re.I)
# Outside a question about a medicine, a sentence is about taking things together only if it names
# something taken (these words or a medicine of the lexicon): "A computer puts the pictures together …"
# (a virtual colonoscopy) or "Severe bleeding may require first aid" are not.
_NAMES_SOMETHING_TAKEN = re.compile(r"\binteract|\bdrugs?\b|\bmedicines?\b|\bmedications?\b|\bpills?\b|\balcohol"
                                    r"|\bsupplements?\b|\bprescri|\bherbs?\b|\bherbal\b", re.I)
# A sentence whose subject is a bare pronoun says something about whatever its passage
# spoke of before ("However, it is caused by calcium phosphate" is about pseudogout; "Examples of
# these diseases include HIV", "Some remove extra fluid and salt from the body", "If you do, I.V.
# antibiotics during labor can save your baby's life", "Or, they may vomit, have a fever and cough"
# after "Newborns and infants may not show any signs of the infection." name what they stand for
# only with the sentence before; so does a clause that opens the sentence, "Unless this pressure is
# controlled, it may cause damage to the optic nerve"):
# out of its context it can state a wrong fact, so it is never quoted alone.
_PRONOUN_SUBJECT = re.compile(r"^(?:(?:however|but|also|and|so|or|yet|then|otherwise|in addition|therefore|thus|instead|"
                              r"for example|for instance|in fact|often|sometimes|usually|normally|in most cases|"
                              r"unless|if|when|whenever|although|though|because|until|once|while),?\s+)?"
                              r"(?:(?:examples|some|many|most|all|one|each|none|any|several|few)\s+of\s+)?"
                              r"(it|this|these|they|them|that|those|he|she|such|its|their|both|either|neither|others"
                              r"|(?:each|some)(?=\s+(?:has|have|is|are|was|were|can|may|might|contains?|works?|should|"
                              r"must|will|also|remove|lower|help|block|relax|slow|cause|need)\b)"
                              r"|if (?:so|not|(?:you|they|he|she) (?:do|does|did|are|is|have|has|can)(?:n't| not)?)(?=,))\b",
                              re.I)
# So does one that names "these types of anemia" or "this condition" anywhere ("Dietary changes or supplements
# can prevent these types of anemia from occurring again", "The antibiotic dapsone is extremely effective in
# treating this condition": which one?), or points above ("Follow the steps above
# and: …", "… such as those listed above"), or opens on "these feelings" ("You may have these feelings
# in your chest": which feelings?) without giving them in a list after a colon.
_BACK_REFERENCE = re.compile(r"\b(?:these|those|such|both) (?:types?|kinds?|forms?|sorts?) of\b"
                             r"|\bthis (?:medicine|medication|drug|condition|disease|disorder|illness|infection|syndrome)\b"
                             r"|\b(?:listed|mentioned|described|named|given|shown|noted) above\b"
                             r"|\b(?:steps|tips|measures|things|ones|advice|list|symptoms|signs) above\b|\bsee above\b"
                             r"|^(?:[\w']+\s+){0,3}(?:these|those) (?:feelings|sensations|symptoms|signs|changes|problems|steps|measures)\b"
                             r"(?![^:]*:\s*\S)",
                             re.I)
# And so does one whose subject is "the infection", "the condition", "the medication" …: which one,
# only the sentence before says ("Rarely, the infection may be caused by a fungus" is about swimmer's
# ear, not about the middle-ear infection a child gets; "As the fluid builds up, the pressure inside the
# eye rises": which fluid?); so does "Some common ones are: …".
_DEFINITE_SUBJECT = re.compile(r"^(?:(?:rarely|occasionally|sometimes|often|usually|in (?:rare|some|most) cases|however|"
                               r"but|also|in addition|as|when|once|while|if|because),?\s+)?the (?:infection|condition|"
                               r"disease|disorder|illness|syndrome|problem|injury|medication|medicine|drug|procedure|"
                               r"surgery|operation|fluid|growth|tumou?r|lump|cyst|stone|virus|bacteria|parasite)\b"
                               r"|^(?:some |the )?(?:(?:most )?common |main |other |serious )?ones\b", re.I)
# A list item that names a group of people without saying anything of them ("People who have
# weak immune systems as a result of diseases or other factors.", under "Pneumonia tends to be
# more serious for:") reads as a claim it does not make once out of its list. The group is a
# statement's subject only when a verb follows its own clause ("People who smoke have a higher
# risk"), so the first word after "who" or "that" is the clause's and does not count.
_GROUP_SUBJECT = re.compile(r"^(?:people|persons|those|anyone|children|adults|older adults|infants|babies|women|men|"
                            r"patients|teens|teenagers)\s+(?:(?:who|that|whose)\s+\S+|with|over|under|aged|ages)\b",
                            re.I)
_GROUP_VERB = re.compile(r"\b(?:are|is|was|were|be|should|can|cannot|can't|could|may|might|must|need|needs|will|would|"
                         r"have|has|had|get|do|does|don't|develop|tend|face|experience|benefit|require|respond|"
                         r"receive|suffer|often|usually|also|generally|typically|inherit|begin|feel|become|live|die|control|retain|"
                         r"take|appear|lose|grow|show|look|lack|carry|produce|make|notice|see|find|want|use|gain)\b",
                         re.I)
# And so does one that tells what happens next ("But then the vocal cords and windpipe become swollen,
# causing the hoarseness and the cough." after "Croup often starts out like a cold."): next after what,
# only the sentence before says.
_SEQUEL = re.compile(r"^(?:(?:but|and|so)\s+)?(?:then|after that|afterwards?|next|later on)\b(?!\s+(?:is|are)\b)", re.I)
# List items that each open on an infinitive ("To be admitted to the hospital so they can be watched closely;
# Blood tests …" under "Your child may need:") say whose need they are only with the lead-in before them; a
# purpose that opens its sentence ("To give the correct dose, you will need …", "To prevent bites: …") does not.
_INFINITIVE_ITEMS = re.compile(r"^to \w+\b[^,:;]*;", re.I)
# A sentence wholly in brackets glosses a word of the sentence before ("("Sedated" means you're given
# medicine to make you sleepy.)" after one on a procedure done under sedation).
_ASIDE = re.compile(r"^\(.*\)\W*$", re.S)
# "These are warning signs of a stroke: sudden numbness ...; ..." says what it lists.
_ANNOUNCED_LIST = re.compile(r"^(?:these|they|the following)\s+(?:are|include)\b[^:]{0,80}:\s*\S", re.I)


def leans_on_the_sentence_before(text: str) -> bool:
    """The sentence names what it speaks of only with the sentence before it (`_PRONOUN_SUBJECT`,
    `_BACK_REFERENCE`, `_DEFINITE_SUBJECT`, `_SEQUEL`, `_ASIDE`, `_INFINITIVE_ITEMS`); one that announces a list it gives
    ("These are warning signs of a stroke: …") does not."""
    text = text.strip()
    return (bool(_PRONOUN_SUBJECT.match(text) or _BACK_REFERENCE.search(text) or _DEFINITE_SUBJECT.match(text)
                 or _SEQUEL.match(text) or _ASIDE.match(text) or _INFINITIVE_ITEMS.match(text))
            and not _ANNOUNCED_LIST.match(text))


_JUNK = re.compile(r"https?://|www\.|\b1-800\b|^\(?(see|source|for more|learn more|read more|call \d)"
                   r"|\bpress the [^.;:]{1,30}\b(?:button|key)\b|\bon your keyboard\b"
                   r"|^(?:to )?(?:find out|learn) more\b|\bfind it by\b"
                   r"|^more information\b[^.;:]{0,80}?\b(?:is|are|can be)\s+(?:provided|available|found)\b", re.I)
# A sentence about the page, not the topic: "Diagnosis Here is how these anxiety disorders are
# diagnosed.", "This fact sheet describes ...", "The information below ...", "(Watch the video to
# learn more about glaucoma.", "(This short video discusses causes, symptoms, and treatments for dry eye.)",
# "If you drink and would like tips on how to cut back, watch the video …", "… click the brackets …",
# "More information about ... is provided in the NIDDK health topic, ...",
# also at the end of a list run into it ("… Dementia with Lewy bodies More information on each of these
# conditions is available in …"), and a figure the reader cannot see ("The middle image shows where varicose veins might appear").
_ABOUT_THE_PAGE = re.compile(r"(?:^|^\w+ )(?:here (?:is|are)\b|this (?:page|section|fact sheet|summary|topic|booklet)\b"
                             r"|the (?:information|sections?|list) below\b|(?:listed|described) below\b"
                             r"|(?:these|the following) (?:resources|links|websites|web sites)\b)"
                             r"|^\(?(?:watch|view|see|play) (?:the|this|a) (?:video|animation|slide|figure|picture)"
                             r"|\b(?:watch|view|play) the (?:video|animation)\b|\bclick (?:the|on|here)\b"
                             r"|^\(?this (?:short |brief )?(?:video|animation|slide ?show)\b"
                             r"|(?:^|\s)more information (?:about|on)\b.*\b(?:is|are|can be) (?:provided|available|found)\b"
                             r"|^(?:in )?(?:the (?:top|middle|bottom|left|right|upper|lower) (?:image|figure|picture|illustration|drawing|panel)"
                             r"|figure [a-z0-9]{1,3}\b)", re.I)
# A pointer to another resource ("Go to the National Heart, Lung, and Blood Institute's ... for a
# sample plan.", "Visit GeneReviews for ...") names a place, not a fact; "Go to the nearest hospital
# emergency room." and "Visit your doctor ..." are advice and stay (case matters here); so is one in
# brackets ("(For a sample plan, go to the National Heart, Lung, and Blood Institute's ...)"). So is
# a pointer to a list or a database ("Check NCI's list of cancer clinical trials for …").
_RESOURCE_POINTER = re.compile(r"^(?:\((?:[Ff]or [^,)]{1,40}, )?)?(?:Please\s+)?(?:Go to|Visit|go to|visit)\s+(?:the\s+|our\s+)?"
                               r"(?:[A-Z\"]|website\b|link\b)"
                               r"|^(?:Check|Search|Browse)\s+(?:the\s+)?(?:[A-Z][\w-]*'s\s+)?(?:list|database|directory|website)\b")
# The rare-disease pages' symptom tables (a list of phenotype terms with frequencies) and the
# notes around them read as one run-on sentence of terms, not a statement.
_SYMPTOM_TABLE = re.compile(r"approximate number of patients|human phenotype ontology|\borphanet\b"
                            r"|medical dictionary to look up|frequency of a sign or symptom|\bthe tables? below\b"
                            r"|(?:\d+(?:\.\d+)?% [^%]{1,40}){3}", re.I)
# A note on who funds research ("The NINDS supports a broad range of research on neural tube
# defects ...") or what it seeks ("Research programs of the NINDS ... seek to address unanswered
# questions about the causes of ADHD") tells a clinic nothing about the patient's question.
_RESEARCH_NOTE = re.compile(r"\b(?:supports?|conducts?|funds?|sponsors?)\b(?:[\s,]+[\w-]+){0,6}[\s,]+research\b"
                            r"|\b(?:research|study|studies|trials?|programs?|projects?)\b[^.;:]{0,200}?\b(?:seeks?|aims?)"
                            r"\s+to\b", re.I)
# Work still under way ("Scientists are studying the underlying causes of the epilepsies", "NINDS-funded
# scientists are studying the factors that lead to …", "Research
# is ongoing to determine optimal doses", "Significant advances ... continue to be made") answers
# nothing yet; a finding ("Researchers have found that ...") and a doubt ("More research is
# needed") are kept.
_RESEARCH_UNDER_WAY = re.compile(r"^(?:[\w-]+-(?:funded|supported)\s+)?(?:scientists|researchers|investigators)\b"
                                 r"(?:\s+\w+){0,2}?\s+(?:are|continue to)\s+"
                                 r"(?:\w+ly\s+)?(?:study|investigat|improv|test|develop|explor|work|try|look"
                                 r"|examin|evaluat)\w*"
                                 r"|^(?:(?:ongoing|current|further|other)\s+)?research\s+(?:is|continues)\s+"
                                 r"(?:ongoing|under\s?way)|\bresearch (?:is )?focus(?:ed|ing) on\b|\bcontinue to be made\b"
                                 r"|^other areas of (?:study|research)\b", re.I)
# An announcement whose list did not follow it says nothing: "There are many things you can do to
# prevent constipation.", "There are several different types of glaucoma." (with its list joined,
# "...: eat more fiber; ..." is kept).
_EMPTY_ANNOUNCEMENT = re.compile(r"^there (?:are|is) (?:many|several|some|a few|a number of|two|three|four)"
                                 r" (?:(?:different|main|common) )?(?:(?:things|ways|steps) (?:you|people|that you) can"
                                 r" (?:do|take)\b|(?:types|kinds|forms)\b)[^:;]*\.$", re.I)


@dataclass
class Composition:
    text: str
    sentences: list[Support] = field(default_factory=list)
    kind: str = "definition"
    query: str = ""
    decisions: list[str] = field(default_factory=list)


def question_kind(text: str) -> str:
    """The kind of answer `text` asks for, the most specific first (`_KIND_ORDER`)."""
    found = question_kinds(text)
    return next((kind for kind in _KIND_ORDER if kind in found), "definition")


def _affirmed(slots: dict, key: str) -> list[dict]:
    """The slot's extracted items the text does not negate."""
    return [i for i in (slots or {}).get(key, []) if isinstance(i, dict) and not i.get("negated")]


def _medicines(slots: dict) -> list[dict]:
    return _affirmed(slots, "medications")


def _asks_about_a_medicine(slots: dict) -> bool:
    return any(only_asked_about(i) for i in _medicines(slots))


def asked_kind(question: str, slots: dict | None = None) -> str:
    """The kind of answer a question or message asks for, read from the sentences that ask (and
    from the whole message for what is taken together); with its extracted `slots`, whether a
    medicine causes something asks for a side effect ("Does atorvastatin cause muscle pain?")."""
    asked = asked_part(question)
    kind = question_kind(asked)
    # "I take lisinopril. Is it OK to take potassium supplements?", "I'm on warfarin. Can I take ibuprofen for
    # my back pain?": the other party is in a sentence that does not ask.
    if kind in ("definition", "treatment") and asked != question and question_kind(question) == "interaction":
        kind = "interaction"
    if kind in ("definition", "interaction") and _for_the_complaint(asked, slots):
        kind = "treatment"
    if kind == "definition" and _needed_for_what_it_has(asked, slots):
        kind = "treatment"
    if kind in ("causes", "definition") and _blames_a_medicine(asked, question, kind, slots):
        return "side_effects"
    if kind in ("definition", "treatment") and _complaint_after_a_medicine(question, slots):
        return "side_effects"
    return "side_effects" if kind == "causes" and _asks_about_a_medicine(slots) else kind


# Asking whether a complaint comes from a medicine ("약 때문인가요?", "Is it from the medicine?", "리시노프릴 먹고
# 나서 기침이 나요"): its side effects are asked.
_FROM_THE_MEDICINE = re.compile(
    r"약\s*(?:때문|탓)|(?:약|[가-힣]+)을?\s*(?:먹고|먹은|복용하고|복용한)\s*(?:나서|난\s*(?:뒤|후)|뒤|후|다음)"
    r"|\b(?:from|because of|due to|caused by|a side effect of)\s+(?:the|my|this|that|his|her|these|those)?\s*"
    r"(?:new\s+)?(?:medicines?|medications?|meds|pills?|drugs?|tablets?)\b", re.I)


def _blames_a_medicine(asked: str, question: str, kind: str, slots: dict | None) -> bool:
    """Whether the question asks if a complaint it states comes from a medicine: by a cue
    (`_FROM_THE_MEDICINE`) in the sentence that asks, or, asking a cause, anywhere ("메트포르민 먹고 나서
    설사해요. 왜 그래요?") or by naming the medicine in the sentence that asks ("Could my cough be caused by
    my lisinopril?"). Not without a complaint and a medicine."""
    medicines = _medicines(slots or {})
    if not medicines or not _affirmed(slots or {}, "symptoms"):
        return False
    if _FROM_THE_MEDICINE.search(asked) or (kind == "causes" and _FROM_THE_MEDICINE.search(question)):
        return True
    return kind == "causes" and any(str(m.get("text") or "").lower() in asked.lower() for m in medicines
                                    if m.get("text"))


def _complaint_after_a_medicine(question: str, slots: dict | None) -> bool:
    """A statement that asks nothing and names a complaint after a medicine taken ("메트포르민 먹고 설사를 해요",
    "I'm on metformin and my stomach is upset all the time"): whether it is a side effect is what a clinician
    reads it for. A complaint named first is what the medicine was taken for ("열이 나서 타이레놀 먹였어요")."""
    medicines, complaints = _medicines(slots or {}), _affirmed(slots or {}, "symptoms")
    if not medicines or not complaints or asks_something(question):
        return False
    return min(int(m.get("start", 0)) for m in medicines) < min(int(c.get("start", 0)) for c in complaints)


def _for_the_complaint(asked: str, slots: dict | None) -> bool:
    """Whether the question asks if one medicine may be taken for the complaint stated beside it
    ("아이가 열이 나요. 해열제 먹여도 되나요?", "머리가 아픈데 타이레놀 먹어도 되나요?", "I have a headache.
    Can I take Tylenol?"): that asks how the complaint is treated. A condition beside the medicine
    ("I have diabetes. Can I take ibuprofen?") or a second medicine asks about taking them together."""
    if not slots or "precautions" not in detect_qtypes(asked):
        return False
    medicines = _medicines(slots)
    stated = [i for i in _affirmed(slots, "conditions") if not only_asked_about(i)]
    complaints = [i for i in _affirmed(slots, "symptoms") if not only_asked_about(i)]
    return len(medicines) == 1 and only_asked_about(medicines[0]) and not stated and bool(complaints)


def _needed_for_what_it_has(asked: str, slots: dict | None) -> bool:
    """Whether the question asks if one medicine is needed for the one condition or complaint it names
    ("독감 걸렸는데 타미플루 먹어야 하나요?", "I have the flu. Should I take Tamiflu?"): that asks how the
    condition is treated (`ASKS_IF_NEEDED`); whether it may be taken asks whether it is safe."""
    if not slots or not ASKS_IF_NEEDED.search(asked):
        return False
    medicines = _medicines(slots)
    had = _affirmed(slots, "conditions") + _affirmed(slots, "symptoms")
    return len(medicines) == 1 and len({i.get("name") for i in had}) == 1


_PHRASING = {"definition": "What is {f}?", "causes": "What causes {f}?", "symptoms": "What are the symptoms of {f}?",
             "diagnosis": "How is {f} diagnosed?", "treatment": "How is {f} treated?",
             "prevention": "How can {f} be prevented?", "dosage": "What is the dose of {f}?",
             "side_effects": "What are the side effects of {f}?",
             "interaction": "Can {f} be taken together?", "what_to_do": "What should I do about {f}?"}
# A message longer than this (or of several sentences) is a consumer's or clinician's
# message, not a question: its sentences are scored against its focus and question type.
MESSAGE_WORDS = 30


def is_message(question: str) -> bool:
    return len(split_answer_sentences(question)) >= 3 or len(question.split()) > MESSAGE_WORDS


# A request asks as a question does: "지르텍 먹으면 졸려요? 부작용 알려주세요".
_REQUEST = re.compile(r"알려\s*주|설명해\s*주|가르쳐\s*주|\btell me\b|\bexplain\b", re.I)


def asked_part(question: str) -> str:
    """The sentences of a message that ask something or request an answer (all of it when none does)."""
    sentences = split_answer_sentences(question)
    asked = [s for s in sentences if s.rstrip().endswith("?") or _REQUEST.search(s)]
    return " ".join(asked) if asked else question


def plan_focus(plan) -> list[str]:
    """The English focus names of a query plan (engine.knowledge.translation.QueryPlan):
    the first name of each sub-query's focus, in order."""
    names: list[str] = []
    for sub in getattr(plan, "subqueries", None) or []:
        focus = getattr(sub, "focus", None) or []
        if focus and getattr(sub, "qtype", None) is not None and focus[0] not in names:
            names.append(focus[0])
    if not names:
        for sub in getattr(plan, "subqueries", None) or []:
            focus = getattr(sub, "focus", None) or []
            if focus and focus[0] not in names:
                names.append(focus[0])
    return names[:2]


def plan_names(plan, focus: Sequence[str]) -> list[str]:
    """`focus` with every name the query plan searched each by (its sub-queries' focus lists)."""
    names = list(focus)
    for sub in getattr(plan, "subqueries", None) or []:
        found = getattr(sub, "focus", None) or []
        if found and found[0] in focus:
            names += [n for n in found[1:] if n not in names]
    return names


# A question about how long something lasts ("감기 얼마나 오래 가요?", "How long does shingles last?") is
# answered by sentences that give a time span, whatever its kind; not how long a medicine is taken.
_ASKS_HOW_LONG = re.compile(r"얼마나\s*(?:오래|가|지속|걸리|걸려)|며칠|몇\s*(?:일|주|달)\s*(?:동안|정도|이나|가|만에)|언제까지|"
                            r"얼마\s*동안|\bhow long (?:does|do|will|would|did|is|are|can)\b(?! \w+ (?:take|use|stay on)\b)"
                            r"|\bhow many (?:days|weeks)\b", re.I)
_NOT_HOW_LONG = re.compile(r"(?:먹어야|복용해야|먹여야|맞아야|써야|발라야)", re.I)
_A_TIME_SPAN = re.compile(r"\b(?:lasts?|lasted|lasting|go(?:es)? away|clears? up|heals?|subsides?|gone|crust over|improve)\b"
                          r"|\b(?:for|within|after|over|in|up to|about|around|takes?)\s+(?:about\s+|another\s+|the next\s+)?"
                          r"(?:\d+|a few|several|one|two|three|four|five|six|seven|ten|a|an)"
                          r"(?:\s*(?:to|or|-)\s*(?:\d+|\w+))?\s+(?:days?|weeks?|months?|years?|hours?)\b", re.I)


def asks_how_long(question: str) -> bool:
    asked = asked_part(question)
    return bool(_ASKS_HOW_LONG.search(asked)) and not _NOT_HOW_LONG.search(asked)


# A question whether or how an illness passes from person to person ("건선은 전염되나요?", "독감은 어떻게 옮아요?",
# "Is pink eye contagious?", "How is strep throat spread?") is answered by sentences about how it spreads.
_ASKS_HOW_IT_SPREADS = re.compile(r"전염|옮(?:나|아|는|을|기|길|긴|겨요|겨지)|\bcontagious\b|\binfectious\b"
                                  r"|\bspread(?:s|ing)?\b|\bcatch(?:ing)?\b|\btransmit\w*|\bpass(?:ed)? (?:it )?on\b", re.I)
_SPREADS = re.compile(r"\bcontagious\b|\binfectious\b|\bspread|\btransmi|\bperson[- ]to[- ]person\b|\bcatch\b|\bcaught\b"
                      r"|\bpass(?:ed|es|ing)? (?:\w+ ){0,3}(?:to|from) (?:others|other people|another|someone|a person)\b"
                      r"|\bthrough (?:contact|the air|droplets|coughing|sneezing)\b", re.I)
# A question about a medicine or a condition in pregnancy or while breastfeeding ("임신 중에 타이레놀 먹어도
# 돼요?", "Is it safe to take metformin during pregnancy?") is answered first by the sentences about pregnancy
# and nursing that speak of medicines or safety ("Not all medicines are safe to take when you are pregnant.",
# "Tell your doctor if you are pregnant or plan to become pregnant"), not of vitamins for pregnant women.
_ASKS_IN_PREGNANCY = re.compile(r"임신|임산부|수유|모유|\bpregnan|\bbreast-?\s?feed|\bnursing\b", re.I)
_IN_PREGNANCY = re.compile(r"^(?=.*(?:\bpregnan|\bbreast-?\s?fe(?:e|d)|\bnursing (?:a baby|mothers?|women)\b|\bunborn\b"
                           r"|\bfetus))(?=.*(?:\bsafe|\bharm|\brisks?\b|\bavoid|\bshould not\b|\bshouldn't\b|\bdo not\b"
                           r"|\bdon't\b|\b(?:tell|call|ask) your\b|\btalk (?:to|with)\b|\bspeak with\b|\bmedicines?\b"
                           r"|\bmedications?\b|\bdrugs?\b|\bprescri|\bcause))", re.I | re.S)
# What a question asks of its topic besides its kind, and the sentences that answer it.
_ASPECT_SENTENCES = {"how_long": _A_TIME_SPAN, "spread": _SPREADS, "pregnancy": _IN_PREGNANCY}


def asks_how_it_spreads(question: str) -> bool:
    return bool(_ASKS_HOW_IT_SPREADS.search(asked_part(question)))


def asked_aspect(question: str) -> str:
    """"how_long" for a question about how long something lasts, "spread" for one about whether or how it
    spreads, "pregnancy" for one about pregnancy or breastfeeding, else ""."""
    if asks_how_long(question):
        return "how_long"
    if asks_how_it_spreads(question):
        return "spread"
    return "pregnancy" if _ASKS_IN_PREGNANCY.search(asked_part(question)) else ""


def answers_the_aspect(sentence: str, aspect: str) -> bool:
    """Whether the sentence answers what a question asks of its topic (`asked_aspect`)."""
    return bool(aspect) and bool(_ASPECT_SENTENCES[aspect].search(sentence))


# A Korean question about an aspect, as the English embedder reads it.
_ASPECT_PHRASING = {"how_long": "How long does {f} last?", "spread": "How is {f} spread? Is it contagious?",
                    "pregnancy": "Is {f} safe during pregnancy or breastfeeding?"}


@lru_cache(maxsize=2)
def _names_of(slot: str) -> re.Pattern:
    names = sorted(english_names(slot), key=len, reverse=True)
    return re.compile(r"\b(?:" + "|".join(re.escape(n) for n in names) + r")(?:s|es)?\b", re.I)


def _symptom_names() -> re.Pattern:
    return _names_of("symptom")


# "your ability to cough … helps stop the germs" names a body's ability, not a symptom.
_AN_ABILITY = re.compile(r"\b(?:ability|able) to\s+$", re.I)


def names_a_symptom(sentence: str) -> bool:
    """The sentence names a symptom the lexicon knows, other than as something the body is able to do."""
    return any(not _AN_ABILITY.search(sentence[:m.start()]) for m in _symptom_names().finditer(sentence))


# "Take acetaminophen every 4 to 6 hours", "Your health care provider may recommend using over-the-counter
# medicines such as …": a medicine named, by its name or as one.
_A_MEDICINE = re.compile(r"\b(?:medicines?|medications?|drugs?|pain relievers?|fever reducers?)\b", re.I)


def names_a_medicine(sentence: str) -> bool:
    return bool(_A_MEDICINE.search(sentence) or _names_of("medication").search(sentence))


def _condition_names() -> re.Pattern:
    return _names_of("condition")


# The kinds a sentence speaks to by naming a symptom.
_NAMED_SYMPTOM_KINDS = frozenset({"symptoms", "side_effects"})


def speaks_to(sentence: str, kind: str, food: bool = False, aspect: str = "") -> bool:
    """The sentence has the asked kind's cue words, or, for a symptoms or side-effects question, names
    a symptom the lexicon knows ("It causes a barking cough and a hoarse voice"), or, for a question
    about an `aspect` (`asked_aspect`), answers it (a time span, how it spreads), or, for a side-effects
    question, says what the medicine can cause (`_MAY_CAUSE`). For a question about what to eat, only a
    sentence that speaks of food (`speaks_of_food`) does: "prevent future attacks" says nothing of eating."""
    if answers_the_aspect(sentence, aspect):
        return True
    if kind == "what_to_do" and _TAKES_A_SAMPLE.search(sentence):
        return False
    if food:
        return speaks_of_food(sentence)
    if _FACET_CUES[kind].search(sentence):
        return True
    return (kind in _NAMED_SYMPTOM_KINDS and names_a_symptom(sentence)
            or kind == "side_effects" and bool(_MAY_CAUSE.search(sentence)))


# How a sample is taken for a test ("Your health care provider will use a cotton swab to collect the sample
# from inside the outer ear canal") is how something is found, not what to do.
_TAKES_A_SAMPLE = re.compile(r"\b(?:collect|collects|collected|take|takes|taken|obtain|obtains|obtained)\s+"
                             r"(?:a |the |your )?(?:\w+ )?(?:samples?|specimens?|swabs?)\b", re.I)


# Asked what a medicine's side effects are, what it can cause is one ("They can also cause serious
# muscle problems"); said of anything else, it is a cause.
_MAY_CAUSE = re.compile(r"\b(?:can|may|might|could) (?:also |sometimes |rarely )?cause\b", re.I)


def names_the_means(sentence: str, kind: str) -> bool:
    """A diagnosis, treatment or prevention sentence names a test, a medicine or a measure, and a
    symptoms sentence names a symptom or lists them, not only the word ("Symptoms of vascular
    dementia may develop gradually"); any sentence does for the other kinds."""
    if kind == "symptoms":
        return names_a_symptom(sentence) or bool(_LISTS.search(sentence))
    return kind not in _NAMES_MEANS or bool(_NAMES_MEANS[kind].search(sentence))


# The food cues (`framing.FOOD_CUES`) that name no food. A poor diet as a cause ("might be the result of a poor
# diet") says nothing of what to eat; a named food or nutrient as a cause ("eats too many high-purine foods, such
# as liver") is what to avoid.
_NO_FOOD_NAMED = frozenset({"eat", "diet", "nutri", "supplement", "supplements"})
_NUTRIENTS = re.compile(r"\bpurines?\b|\bsodium\b|\bsalt\b", re.I)


def speaks_of_food(sentence: str) -> bool:
    """The sentence speaks of food, other than only as an unnamed diet that causes something."""
    cues = {m.group(0).lower() for m in framing.FOOD_CUES.finditer(sentence)}
    return bool(cues) and (not _FACET_CUES["causes"].search(sentence) or bool(cues - _NO_FOOD_NAMED)
                           or bool(_NUTRIENTS.search(sentence)))


def asks_about_food(question: str) -> bool:
    return bool(ASKS_ABOUT_FOOD.search(asked_part(question)))


def _names_nothing(slots: dict) -> bool:
    """Whether the question names no condition, medicine, symptom or allergy the record can hold."""
    return not any(isinstance(i, dict) and i.get("name") for key in NAMING_SLOTS for i in (slots or {}).get(key, []))


def english_query(question: str, slots: dict, kind: str, focus: Sequence[str] = ()) -> str:
    """The question as the English embedder can read it: itself; for Korean the English
    names of its linked concepts plus the kind ("What causes gout?"); for a long message
    its focus (the query plan's) plus the kind, else the sentences that ask."""
    if focus and (has_hangul(question) or is_message(question)):
        return _PHRASING[kind].format(f=" and ".join(focus))
    if not has_hangul(question):
        return asked_part(question) if is_message(question) else question
    names = [i.get("name", "") for key in NAMING_SLOTS
             for i in (slots or {}).get(key, []) if isinstance(i, dict) and i.get("name") and not i.get("negated")]
    latin = " ".join(latin_words(question))
    focus_text = " and ".join(dict.fromkeys(names)) or latin
    if focus_text and kind == "what_to_do" and asks_about_food(question):
        return f"What foods should people with {focus_text} eat?"
    aspect = asked_aspect(question) if focus_text and kind == "definition" else ""
    if aspect:
        return _ASPECT_PHRASING[aspect].format(f=focus_text)
    return _PHRASING[kind].format(f=focus_text) if focus_text else question


def facet(sentence: str, kind: str = "", medicine: bool = False, food: bool = False) -> str:
    """What the sentence is about, as the Korean answer labels it and the reading order sorts it.
    A sentence that opens with its purpose ("To treat a spider bite: wash ...") is about that; one
    that says what it lists ("Other causes of fever include ...") is about that; one
    that fits the asked kind is about the asked kind ("Gallstones can cause sudden pain" answers
    "what are the symptoms?"), and so is one about food for a question about what to eat; nausea or
    a rash are side effects only of a medicine, and outside a question about a medicine only a
    sentence that names something taken is about taking things together."""
    purpose = _stated_purpose(sentence)
    if purpose:
        return purpose
    name = _stated_kind(sentence)
    if name:
        if name == "symptoms" and medicine:
            return "side_effects"
        # What a condition leads to (complications) is none of the kinds an answer reads by.
        return name if name in READING_ORDER else "other"
    if _USED_TO_TREAT.search(sentence):
        return "treatment"
    if _DOCTOR_CHECKS_RE.search(sentence):
        return "diagnosis"
    if kind in _FACET_CUES and speaks_to(sentence, kind, food) and not _a_test_for_a_symptom(sentence, kind):
        return kind
    if _LOWERS_RISK.search(sentence):
        return "prevention"
    for name in _MEDICINE_FACETS_FIRST if medicine else READING_ORDER[:-1]:
        if _FACET_CUES[name].search(sentence):
            if name == "side_effects" and not medicine and not _SIDE_EFFECTS_NAMED.search(sentence):
                return "symptoms"
            if name == "interaction" and not medicine and not names_something_taken(sentence):
                continue
            return name
    return "other"


def names_something_taken(sentence: str) -> bool:
    return bool(_NAMES_SOMETHING_TAKEN.search(sentence) or _names_of("medication").search(sentence))


def _a_test_for_a_symptom(sentence: str, kind: str) -> bool:
    """For a symptoms question, a sentence that names a symptom only as what a test is done on or
    for ("Your doctor may look at a sample of sputum collected from you after a deep cough") tells
    how the condition is found, not what it feels like."""
    return (kind == "symptoms" and not _FACET_CUES["symptoms"].search(sentence)
            and bool(_FACET_CUES["diagnosis"].search(sentence)))


@dataclass(frozen=True)
class Reading:
    """How an answer reads its sentences: the asked `kind`, whether the question is about a
    `medicine` (its nausea is a side effect, a disease's a symptom), and whether it asks what to
    eat (`food`: sentences about food answer it), and what else it asks of the topic (`aspect`:
    `asked_aspect`)."""

    kind: str = ""
    medicine: bool = False
    food: bool = False
    aspect: str = ""

    def facet(self, sentence: str) -> str:
        return facet(sentence, self.kind, self.medicine, self.food)


def pronoun_pairs(evidence: Sequence[Evidence]) -> dict[str, tuple[Evidence, Evidence]]:
    """The units to choose from besides the single sentences: each sentence whose subject is a bare
    pronoun with the sentence before it in its passage ("Croup is an inflammation of the vocal cords
    and windpipe. It causes a barking cough and a hoarse voice."), keyed by their joined text. Chosen,
    such a unit is quoted as its two sentences, each cited, one after the other: the pronoun then
    says what it stands for (alone it is never quoted). "It" or "they" after a sentence that itself
    goes on with "it" or "they" names the same subject, and is joined to the sentence that names it
    ("Statins are relatively safe for most people. [But they are not recommended for pregnant
    patients …] They can also cause serious muscle problems."). So is a sentence that the next one takes
    back or qualifies (`qualified_by_the_next`), with that one."""
    previous = {(e.source, e.position): e for e in evidence}
    units = {}
    for item in evidence:
        before = previous.get((item.source, item.position - 1))
        if before is None or not quotable(item.text):
            continue
        if not leans_on_the_sentence_before(item.text):
            if qualified_by_the_next(before, previous) and before.text.rstrip().endswith(".") and quotable(before.text):
                units[f"{before.text.strip()} {item.text.strip()}"] = (before, item)
            continue
        if leans_on_the_sentence_before(before.text):
            pronoun = _leading_pronoun(item.text)
            if pronoun not in _SAME_SUBJECT or _leading_pronoun(before.text) != pronoun:
                continue
            before = previous.get((item.source, item.position - 2))
            if before is None or leans_on_the_sentence_before(before.text):
                continue
        if before.text.rstrip().endswith(".") and quotable(before.text):
            units[f"{before.text.strip()} {item.text.strip()}"] = (before, item)
    return units


_SAME_SUBJECT = frozenset({"it", "they"})


def _leading_pronoun(text: str) -> str:
    """The bare pronoun a sentence opens with (`_PRONOUN_SUBJECT`), in lower case, or ""."""
    match = _PRONOUN_SUBJECT.match(text.strip())
    return match.group(1).lower() if match else ""


def in_pairs(ordered: Sequence[Evidence], follows: dict[int, Evidence]) -> list[Evidence]:
    """`ordered` with each pronoun sentence moved to just after the sentence it follows, a chain
    ("… stone will pass." / "But sometimes a stone will not go away." / "It may get stuck …") in its
    own order. A follower whose sentence is not in `ordered` keeps its place: nothing is lost."""
    present = {id(item) for item in ordered}

    def leader(item: Evidence) -> Evidence | None:
        before = follows.get(id(item))
        return before if before is not None and id(before) in present else None

    followers: dict[int, list[Evidence]] = {}
    for item in ordered:
        if leader(item) is not None:
            followers.setdefault(id(leader(item)), []).append(item)
    out: list[Evidence] = []
    placed: set[int] = set()

    def place(item: Evidence) -> None:
        if id(item) in placed:
            return
        placed.add(id(item))
        out.append(item)
        for follower in sorted(followers.get(id(item), ()), key=lambda f: f.position):
            place(follower)

    for item in ordered:
        if leader(item) is None:
            place(item)
    for item in ordered:  # a cycle has no leader outside it; pairs follow the page's order, so none is expected
        place(item)
    return out


def with_their_leaders(backed: Sequence[tuple], follows: dict[int, Evidence]) -> list[tuple]:
    """The (evidence, support) pairs less each follower whose sentence is not among them, down a
    chain: a follower of a follower goes with it."""
    kept = list(backed)
    while True:
        present = {id(e) for e, _ in kept}
        pruned = [(e, s) for e, s in kept if id(e) not in follows or id(follows[id(e)]) in present]
        if len(pruned) == len(kept):
            return pruned
        kept = pruned


# A list item whose head was cut off with the page's layout ("is used to treat long-term psoriasis
# …; reduces inflammation", "the tumor is larger than 2 centimeters …"): a statement starts with a
# capital, or with a name spelt in mixed case ("mTOR inhibitors stop cells from dividing").
_HEADLESS = re.compile(r"^[a-z]+(?![A-Za-z]*[A-Z])\b")


def quotable(text: str) -> bool:
    """A sentence that can stand in an answer as a statement, whatever its subject: not a question,
    a heading, a bare list, a pointer elsewhere or a note about the page."""
    text = text.strip()
    if (text.rstrip(".").endswith("?") or _JUNK.search(text) or _ABOUT_THE_PAGE.search(text) or _EMPTY_ANNOUNCEMENT.match(text)
            or _SYMPTOM_TABLE.search(text) or _RESEARCH_NOTE.search(text) or _RESEARCH_UNDER_WAY.search(text)
            or _RESOURCE_POINTER.match(text)
            or has_hangul(text)):
        return False
    if text.isupper() or not text.rstrip().endswith((".", "!", ")", '"')):
        return False
    if len(latin_words(text)) < HEADING_WORDS or _a_title(text):  # a heading run into the text: "Preventing constipation."
        return False
    return (not is_bare_list(text) and not is_group_fragment(text) and not repeats_itself(text)
            and not _HEADLESS.match(text))


def _a_title(text: str) -> bool:
    """A title, not a sentence: no full stop, and most of its words after the first capitalised
    ("Emergency Use Authorization (EUA) of Medical Products and Devices (including antiviral drugs)")."""
    if text.rstrip().endswith((".", "!", '."', '.)')):
        return False
    words = re.findall(r"[A-Za-z][A-Za-z'-]*", text)[1:]
    capitalised = [w for w in words if w[0].isupper()]
    return len(capitalised) >= TITLE_WORDS and len(capitalised) >= len(words) / 2


TITLE_WORDS = 3
REPEAT_WORDS = 8


def repeats_itself(text: str) -> bool:
    """The sentence runs the same words twice (a page's list run on into its own copy, bullets
    lost: "… fentanyl (Duragesic), which is … morphine (MS Contin, Kadian, Avinza), which …")."""
    words = re.findall(r"\w+(?:\.\w+)?", text.lower())  # numbers count: "fever of 102.2F" is not "fever of 105F"
    runs = [tuple(words[i:i + REPEAT_WORDS]) for i in range(len(words) - REPEAT_WORDS + 1)]
    return len(set(runs)) < len(runs)


def is_group_fragment(text: str) -> bool:
    """A list item that only names a group of people, with no verb of its own (`_GROUP_SUBJECT`)."""
    text = text.strip()
    group = _GROUP_SUBJECT.match(text)
    return bool(group) and not _GROUP_VERB.search(text[group.end():])


# A sentence the next one opens by taking back or qualifying ("An alcoholic drink before bedtime might make it
# easier for you to fall asleep. However, alcohol triggers sleep that tends to be lighter than normal.") says,
# alone, what its passage does not.
_QUALIFIES = re.compile(r"^(?:however|but)\b", re.I)


def qualified_by_the_next(item: Evidence, at: dict[tuple[int, int], Evidence]) -> bool:
    """`at`: the evidence by (source, position)."""
    after = at.get((item.source, item.position + 1))
    return after is not None and bool(_QUALIFIES.match(after.text.strip()))


def candidates(evidence: Sequence[Evidence]) -> list[Evidence]:
    """The quotable sentences, each once; none whose subject is a bare pronoun, nor one the next sentence
    qualifies (both are quoted only in a unit, `pronoun_pairs`)."""
    out, seen = [], set()
    at = {(e.source, e.position): e for e in evidence}
    for item in evidence:
        text = item.text.strip()
        key = text.lower()
        if key in seen or not quotable(text):
            continue
        if leans_on_the_sentence_before(text) or qualified_by_the_next(item, at):
            continue
        seen.add(key)
        out.append(item)
    return out


def without_boilerplate(pool: list[Evidence], pairs: dict[str, tuple[Evidence, Evidence]],
                        boilerplate: frozenset[str]) -> tuple[list[Evidence], int]:
    """The pool without the knowledge base's boilerplate: a sentence it repeats on many pages, or a
    pronoun pair (`pairs`) either of whose sentences it repeats."""
    if not boilerplate:
        return pool, 0

    def repeated(item: Evidence) -> bool:
        return any(normalised(e.text) in boilerplate for e in pairs.get(item.text, (item,)))

    kept = [item for item in pool if not repeated(item)]
    return kept, len(pool) - len(kept)


# A name of this many words or more stands for the longer names that contain it (`Topic.holds_name`).
NAME_KIND_WORDS = 2


@dataclass
class Topic:
    """What the question is about: concept ids and the stems of its names and synonyms."""

    ids: set[str] = field(default_factory=set)
    names: list[set[str]] = field(default_factory=list)
    medicine: bool = False
    pages: frozenset[str] = frozenset()  # focus keys of pages about it whatever their title names
    # Focus keys of the pages on what a medicine class asked about treats (`pages_on_what_it_treats`): of
    # them, only a sentence that names a medicine is about the class.
    treats: frozenset[str] = frozenset()

    def __bool__(self) -> bool:
        return bool(self.ids or self.names)

    def named_in(self, text: str, concepts) -> bool:
        words = set(tokenize(text))
        return bool(concepts(text) & self.ids) or any(name <= words for name in self.names)

    def holds_name(self, key: set[str]) -> bool:
        """`key` (a name's stems) is one of the topic's names, or a longer name holding one of
        NAME_KIND_WORDS words or more: "Non-alcoholic fatty liver disease" is a fatty liver disease,
        but "diabetes insipidus" is no diabetes."""
        return any(name == key or (len(name) >= NAME_KIND_WORDS and name <= key) for name in self.names)


# What holds for a drug class holds for its members: "Opioids can slow your breathing" answers whether
# oxycodone is safe with alcohol, and "NSAIDs can cause stomach bleeding" what ibuprofen's risks are. A
# dose does not carry over.
CLASS_WIDE_KINDS = frozenset({"side_effects", "interaction"})


def question_topic(focus: Sequence[str], slots: dict, concepts, kind: str = "") -> Topic:
    """The question's focus, else its linked conditions, medicines and symptoms; for a question
    about a medicine's side effects, dose or interactions, the medicines it asks about ("Does
    atorvastatin cause muscle pain?" is about atorvastatin, not about any cause of muscle pain)."""
    if focus:
        return Topic(set().union(*(concepts(name) for name in focus)), [set(tokenize(f)) for f in focus if tokenize(f)])
    items = [i for key in TOPIC_SLOTS for i in _affirmed(slots, key)]
    medicines = _medicines(slots)
    # Whether a medicine is safe with a condition is about both ("NSAIDs can harm your kidneys").
    with_condition = kind == "interaction" and framing.medicine_with_condition(slots) is not None
    # Side effects are a medicine's, also one the asker takes ("I take amlodipine and my ankles are swollen. Is it
    # from the medicine?").
    if kind in MEDICINE_KINDS and (_asks_about_a_medicine(slots) or (kind == "side_effects" and medicines)) \
            and not with_condition:
        items = medicines
    names = [n for i in items for n in _english_names(i, kind in CLASS_WIDE_KINDS and i in medicines)]
    return Topic({str(i["concept_id"]).upper() for i in items if i.get("concept_id")},
                 [set(tokenize(n)) for n in names if tokenize(n)],
                 medicine=bool(items) and all(i in medicines for i in items))


def pages_on_what_it_treats(plan, slots: dict) -> frozenset[str]:
    """The pages on what an asked medicine class treats that the query plan searched in place of a page of
    its own (`QueryPlan.treats`): fever's for fever reducers ("Take acetaminophen every 4 to 6 hours"). Not
    for side effects or interactions: what fever does is no side effect of a fever reducer."""
    treats = getattr(plan, "treats", None) or {}
    return frozenset(treats[item["name"]] for item in _medicines(slots) if item.get("name") in treats)


# Kinds asked of a condition: a medicine named with one ("Can I give my child ibuprofen for a fever?") is the
# means asked about, not what is treated; the lead names the condition ("How fever is treated"), not "How
# ibuprofen and fever are treated". Asked what to do, the medicine taken is part of the situation ("I take
# blood pressure pills and I have a bad headache"), and the lead names both.
_CONDITION_KINDS = frozenset({"causes", "symptoms", "diagnosis", "treatment", "prevention"})


# The kinds asked of a medicine alone: its side effects and its dose (an interaction names both parties).
_MEDICINE_ALONE_KINDS = frozenset({"side_effects", "dosage"})


def _named_in_the_lead(slots: dict, kind: str) -> dict:
    """The slots whose items the lead names: for a kind asked of a condition, its conditions and symptoms
    alone when the question names any; for a medicine's side effects or dose, its medicines alone ("I take
    metformin and have diarrhea. Is that a side effect?" asks of metformin's side effects, not diarrhea's)."""
    keys = (("conditions", "symptoms") if kind in _CONDITION_KINDS
            else ("medications",) if kind in _MEDICINE_ALONE_KINDS else ())
    if not keys:
        return slots
    named = {key: [i for i in (slots or {}).get(key, []) if isinstance(i, dict) and not i.get("negated")]
             for key in keys}
    return named if any(named.values()) else slots


def topic_words(slots: dict) -> list[str]:
    """The linked topics' names, and as the question wrote them ("stomach ulcers" for peptic
    ulcer, a plural's "s" dropped so that "Stomach ulcer" in a list matches), in lower case."""
    items = [i for key in TOPIC_SLOTS for i in (slots or {}).get(key, []) if isinstance(i, dict)]
    written = [str(i.get("text") or "").lower() for i in items]
    written = [w[:-1] if w.endswith("s") and len(w) > 5 else w for w in written if w and not has_hangul(w)]
    return list(dict.fromkeys([*(i.get("name", "").lower() for i in items), *written]))


def with_other_names(topic: Topic, documents: Sequence) -> Topic:
    """The topic with the other names a retrieved page gives it: "What is (are) Foodborne Illness ?
    (Also called: Food Poisoning)" makes NIDDK's "How to prevent Foodborne Illnesses ?" a page
    on food poisoning, though the pack links the two names to different concepts."""
    names = list(topic.names)
    for doc in documents:
        focus, _, aliases = title_facets(getattr(doc, "title", "") or "")
        if not aliases:
            continue
        keys = [set(tokenize(key)) for key in (focus, *aliases) if tokenize(key)]
        if any(topic.holds_name(key) for key in keys):
            names += [key for key in keys if key not in names]
    return replace(topic, names=names) if len(names) > len(topic.names) else topic


def _english_names(item: dict, with_class: bool) -> list[str]:
    """An extracted item's English name and synonyms, and with `with_class` its drug classes."""
    names = [n for n in [item.get("name", ""), *(item.get("synonyms") or [])] if n and not has_hangul(n)]
    return names + (class_names(item.get("name", "")) if with_class else [])


def interaction_parties(slots: dict) -> list[Topic]:
    """Each medicine and condition an interaction question names, as its own topic."""
    medicines = _medicines(slots)
    return [Topic({str(i["concept_id"]).upper()} if i.get("concept_id") else set(),
                  [set(tokenize(n)) for n in _english_names(i, with_class=i in medicines) if tokenize(n)])
            for i in medicines + _affirmed(slots, "conditions")]


# A sentence that speaks of taking something with something else.
_COMBINING = re.compile(rf"\binteract|\btogether\b|{_COMBINED}|\bwith (?:other|another|any)\b"
                        r"|\b(?:use|take|taking|using|mix|mixing)\b[^.;]{0,40}?\bwith\b", re.I)


def of_both(pool: list[Evidence], documents: Sequence, parties: Sequence[Topic], concepts) -> tuple[list[Evidence], int]:
    """Whether two medicines (or a medicine and a condition) go together is answered by sentences
    that speak of both: the sentence names one and itself or its page the other ("Tell your provider
    if you take ... St. John's wort" on the birth-control page). A page on one of them says much
    else ("There are 5 types of combination birth control pills"). When no sentence speaks of both,
    one that names one of them and speaks of taking it with something may still answer ("DO NOT use
    these drugs with nitroglycerin" on the erectile-dysfunction page); a dose instruction or another
    warning does not ("Do not take a double dose", "Children should not take tetracycline"), nor one
    about taking something else with it (`_taken_with_a_party`). Returns the pool and how many
    sentences were left out."""
    if len(parties) < 2:
        return pool, 0

    on_page = {source: {n for n, party in enumerate(parties) if page_names(documents[source - 1], party, concepts)}
               for source in {item.source for item in pool} if 0 < source <= len(documents)}
    in_text = [{n for n, party in enumerate(parties) if party.named_in(item.text, concepts)} for item in pool]
    kept = [item for item, named in zip(pool, in_text) if named and len(named | on_page.get(item.source, set())) >= 2]
    if not kept:
        kept = [item for item, named in zip(pool, in_text)
                if named and _taken_with_a_party(item.text, parties, concepts)]
    return kept, len(pool) - len(kept)


def _taken_with_a_party(text: str, parties: Sequence[Topic], concepts) -> bool:
    """The sentence speaks of taking something with something (`_COMBINING`), and what it says is taken
    is one of the parties or nothing the concept reader names: "DO NOT use these drugs with
    nitroglycerin" (on the erectile-dysfunction page) speaks of the page's drugs, while "taking
    glucosamine hydrochloride with or without chondroitin increases the effect of warfarin" says
    nothing of ibuprofen with warfarin."""
    match = _COMBINING.search(text)
    if not match:
        return False
    said = match.group(0)
    return not concepts(said) or any(party.named_in(said, concepts) for party in parties)


def page_names(doc, topic: Topic, concepts) -> bool:
    """The passage's knowledge-base question names what the question is about, or the page is one
    of the topic's own (`Topic.pages`)."""
    title = getattr(doc, "title", "") or ""
    return topic.named_in(title_question(title), concepts) or (bool(topic.pages) and title_facets(title)[0] in topic.pages)


def _page_of(item: Evidence, documents: Sequence):
    """The retrieved passage the sentence was read from (its [n]), or None for a number outside them."""
    return documents[item.source - 1] if 0 < item.source <= len(documents) else None


def is_on_topic(item: Evidence, documents: Sequence, topic: Topic, concepts) -> bool:
    """The sentence's passage's question names what the question is about, or the sentence
    does, or the heading of the bullet item it sits in (`item_headings`), unless the passage is
    another medicine's own page ("Methylprednisolone makes your stomach more susceptible to
    aspirin" says nothing of aspirin's side effects)."""
    doc = _page_of(item, documents)
    if topic.treats and _focus_key(doc) in topic.treats:
        # Not a medicine among the causes ("There can be many other causes, including: Medicines; …").
        return names_a_medicine(item.text) and not re.search(r"\bcaus", item.text, re.I)
    if page_names(doc, topic, concepts):
        return True
    heading = item_headings(getattr(doc, "passage", "") or getattr(doc, "text", "")).get(item.position, "")
    return _qtype(doc) not in MEDICINE_PAGE_QTYPES and topic.named_in(f"{heading} {item.text}", concepts)


def of_the_topic_itself(pool: list[Evidence], documents: Sequence, topic: Topic, concepts) -> tuple[list[Evidence], int]:
    """For what something is, only sentences that name the topic or come from a page that does
    (`is_on_topic`), and not only as an item of another page's list (`only_listed`): a related page's
    own definition ("Cancer of the endometrium is different from …" for endometriosis) defines
    something else; the pool unchanged when fewer than MIN_SENTENCES would be left. Returns the pool
    and how many sentences were left out."""
    kept = [item for item in pool if is_on_topic(item, documents, topic, concepts)
            and not only_listed(item, documents, topic, concepts)]
    return (kept, len(pool) - len(kept)) if len(kept) >= MIN_SENTENCES else (pool, 0)


def only_listed(item: Evidence, documents: Sequence, topic: Topic, concepts) -> bool:
    """The sentence names the topic only as an item of a list its lead-in says is about something
    else ("Secondary dysmenorrhea … is often related to problems in the uterus …, such as:
    Endometriosis; Fibroids; …"), on a page whose question does not name the topic."""
    lead, colon, items = item.text.partition(":")
    if not colon or not items.strip():
        return False
    return not page_names(_page_of(item, documents), topic, concepts) and not topic.named_in(lead, concepts)


ITEM_HEAD_WORDS = 3
_ITEM_SEPARATOR = re.compile(r";|\s-\s")


def listed_as_an_item(item: Evidence, documents: Sequence, topic: Topic, concepts) -> bool:
    """`only_listed`, with the topic heading one of the list's items ("Abdominal pain can be a sign
    of: Appendicitis; Gallstones; Stomach ulcer; …" on a question about ulcers): the sentence is
    about something else, of which the topic is one entry. A topic named further into an item
    ("Treatment may include: Antihistamines to relieve mild symptoms such as rash, hives, …") is what
    that item speaks to. A medicine's entry is not: the list's lead-in says what each medicine on it
    does ("Antihistamines that may cause sleepiness: Diphenhydramine (Benadryl); …")."""
    if topic.medicine or not only_listed(item, documents, topic, concepts):
        return False
    entries = _ITEM_SEPARATOR.split(item.text.partition(":")[2])
    return any(topic.named_in(" ".join(entry.split()[:ITEM_HEAD_WORDS]), concepts) for entry in entries)


_DRINKING = re.compile(r"\bdrink(?:ing)?\b(?! (?:water|plenty|fluids|liquids|lots|enough|more|glass|glasses|fountains?"
                       r"|straws?|cups?))", re.I)


def about_drinking(pool: list[Evidence]) -> tuple[list[Evidence], int]:
    """For "Can I drink alcohol with …?", only sentences that speak of alcohol: a page on the medicine
    says much else ("Withdrawal from opiates is painful, but usually not life-threatening" would read
    as reassurance). Returns the pool and how many sentences were left out."""
    kept = [e for e in pool if framing.ALCOHOL.search(e.text) or _DRINKING.search(e.text)]
    return kept, len(pool) - len(kept)


# A sentence that speaks of adults and of no child ("Aspirin is very effective for treating
# fever in adults.") does not answer a question about a child, and may be wrong for one.
YOUNG_AGE_GROUPS = ("infant", "child")


def _only_adults(text: str) -> bool:
    who = population_markers(text)
    return "adult" in who and "child" not in who


def for_the_young(pool: list[Evidence], slots: dict) -> tuple[list[Evidence], int]:
    """The pool without sentences only about adults, when the question is about an infant or a child."""
    if ((slots or {}).get("demographics") or {}).get("age_group") not in YOUNG_AGE_GROUPS:
        return pool, 0
    kept = [e for e in pool if not _only_adults(e.text)]
    return kept, len(pool) - len(kept)


def _only_children(text: str) -> bool:
    who = population_markers(text)
    return "child" in who and not who & {"adult", "elderly"}


def is_about_an_adult(question: str, slots: dict) -> bool:
    """The patient's age is an adult's ("20s", "older_adult"), or the question speaks of an adult
    and of no child ("How much acetaminophen can an adult take in one day?")."""
    group = ((slots or {}).get("demographics") or {}).get("age_group") or ""
    if group == "older_adult" or group[:1].isdigit():
        return True
    who = population_markers(question)
    return bool(who & {"adult", "elderly"}) and "child" not in who


def for_grown_ups(pool: list[Evidence], slots: dict, question: str) -> tuple[list[Evidence], int]:
    """The pool without sentences only about children ("If your child weighs 24 to 35 lbs: give
    5 mL"), when the question is about an adult: a child's dose is no answer, and a wrong one, for
    an adult."""
    if not is_about_an_adult(question, slots):
        return pool, 0
    kept = [e for e in pool if not _only_children(e.text)]
    return kept, len(pool) - len(kept)


# A sentence that says something is harmless or needs no care: true of its own page's product or
# condition ("Since bubble bath soap is fairly nonpoisonous, recovery is very likely."), and a wrong
# reassurance when quoted for another (a child who swallowed laundry detergent).
_REASSURES = re.compile(
    r"\b(?:may|might|will|does|do) not (?:be )?needed?\b|\bnot (?:be )?needed\b|\bnon-?poisonous\b|"
    r"\bnot (?:very |usually |generally )?(?:poisonous|toxic|harmful|dangerous)\b|\bharmless\b|"
    r"\brecovery is (?:very |quite )?likely\b|\bno (?:further )?(?:treatment|care) is (?:usually )?needed\b", re.I)


def reassured_elsewhere(pool: list[Evidence], documents: Sequence, topic: Topic) -> tuple[list[Evidence], int]:
    """The pool without reassuring sentences (`_REASSURES`) read from a page that is not the topic's
    own (`_is_the_topic_page`). Returns the pool and how many sentences were left out."""
    kept = [e for e in pool if not (_REASSURES.search(e.text)
                                    and not _is_the_topic_page(_page_of(e, documents), topic))]
    return kept, len(pool) - len(kept)


# Conditions named as each other's opposite: what treats low blood sugar ("have a serving of a quick-fix food")
# harms someone whose blood sugar is high.
_OPPOSITE_WORDS = {"hyper": "hypo", "hypo": "hyper", "high": "low", "low": "high"}
_OPPOSITE_PART = re.compile(r"\b(hyper|hypo)(?=[a-z])|\b(high|low)\b")


def opposite_terms(topic_terms: Sequence[str]) -> list[str]:
    """The names of the opposite of each topic term ("hyperglycemia" → "hypoglycemia", "high blood pressure" →
    "low blood pressure"), but not one that is itself a topic term (a question about both)."""
    terms = {t.lower() for t in topic_terms if t}
    opposites = [_OPPOSITE_PART.sub(lambda m: _OPPOSITE_WORDS[m.group(0)], term) for term in sorted(terms)]
    return list(dict.fromkeys(o for o, t in zip(opposites, sorted(terms)) if o != t and o not in terms))


def not_the_opposite(pool: list[Evidence], documents: Sequence,
                     topic_terms: Sequence[str]) -> tuple[list[Evidence], int]:
    """The pool without sentences about the opposite of the topic: one that names it and not the topic
    ("To treat hypoglycemia, people should have a serving of a quick-fix food" for high blood sugar), or
    one on a page about the opposite that does not name the topic ("When people with diabetes think their
    blood glucose level is low, …"). Returns the pool and how many sentences were left out."""
    opposites = opposite_terms(topic_terms)
    if not opposites:
        return pool, 0
    names_topic = _any_name([t.lower() for t in topic_terms if t])
    names_opposite = _any_name(opposites)
    opposite_pages = {n for n in {e.source for e in pool}
                      if 0 < n <= len(documents) and _page_is_one_of(documents[n - 1], opposites)}
    kept = [item for item in pool if names_topic.search(item.text)
            or not (item.source in opposite_pages or names_opposite.search(item.text))]
    return kept, len(pool) - len(kept)


def _any_name(names: Sequence[str]) -> re.Pattern:
    """One pattern for any of `names`, each from a word's start ("hypoglycemia" in "Hypoglycemia's")."""
    return re.compile(r"\b(?:" + "|".join(re.escape(n) for n in names) + ")", re.I)


def _page_is_one_of(doc, keys: Sequence[str]) -> bool:
    """The page's focus or one of its other names is one of `keys` (focus keys)."""
    focus, _, aliases = title_facets(getattr(doc, "title", "") or "")
    return any(key in keys for key in (focus, *aliases))


def about_the_medicine(pool: list[Evidence], documents: Sequence, topic: Topic, concepts) -> tuple[list[Evidence], int]:
    """A medicine's answer quotes only sentences about that medicine ("Amlodipine may cause side
    effects" is no answer about aspirin); the pool unchanged for any other topic, since a
    condition's answer may rightly quote a broader page (strep throat on "Streptococcal
    Infections"). Returns the pool and how many sentences were left out."""
    if not topic.medicine:
        return pool, 0
    kept = [item for item in pool if is_on_topic(item, documents, topic, concepts)]
    return kept, len(pool) - len(kept)


def about_the_topic(pool: list[Evidence], documents: Sequence, topic: Topic, checker: SupportChecker,
                    names: Sequence[str], closest: float = UNRELATED_PAGE,
                    reading: Reading = Reading()) -> tuple[list[Evidence], int, list[Evidence]]:
    """The pool without sentences that neither name the topic nor come from a page about it or a
    related one (`closest` from one of `names`), unless fewer than MIN_SENTENCES would be left: then
    the pool stays whole, since the topic may have been linked to a narrower concept than its pages
    name, and the answer's lead says when none of it is about the topic. Once the topic's own sentences
    fill an answer and one of them speaks to the asked kind (`reading`), a page about another concept of the pack
    must be ANOTHER_CONCEPT_PAGE close: name similarity reads a shared word as relatedness ("Common
    Cold" for cold sores), while a broader page may still be the one that answers ("Streptococcal
    Infections" on treating strep throat, whose own page says how it spreads). Returns the pool, how
    many sentences were left out and those about the topic."""
    names = [n for n in names if n]
    if not names or not pool:
        return pool, 0, list(pool)
    focus = {n: _focus_key(documents[n - 1]) for n in {e.source for e in pool}}
    pages = sorted(set(focus.values()))
    vectors = checker.vectors([*names, *pages])
    nearest = dict(zip(pages, (vectors[len(names):] @ vectors[:len(names)].T).max(axis=1)))
    own = [bool(topic) and is_on_topic(e, documents, topic, checker.concepts)
           and not listed_as_an_item(e, documents, topic, checker.concepts) for e in pool]
    bar = dict.fromkeys(pages, closest)
    if sum(own) >= MIN_SENTENCES and any(on_topic and answers_the_kind(e.text, reading)
                                         for e, on_topic in zip(pool, own)):
        bar.update({page: max(closest, ANOTHER_CONCEPT_PAGE) for page in pages
                    if another_concept(page, topic, checker.concepts)})
    kept = [e for e, on_topic in zip(pool, own)
            if on_topic or float(nearest[focus[e.source]]) >= bar[focus[e.source]]]
    return (kept, len(pool) - len(kept), kept) if len(kept) >= MIN_SENTENCES else (pool, 0, kept)


def answers_the_kind(sentence: str, reading: Reading) -> bool:
    """The sentence has the cue words of the asked kind or of a facet that answers it
    (`ANSWERING_FACETS`); any sentence does for a kind without cue words."""
    if reading.kind not in _FACET_CUES:
        return True
    answering = ANSWERING_FACETS.get(reading.kind, {reading.kind})
    return any(speaks_to(sentence, kind, reading.food, reading.aspect) for kind in answering)


def another_concept(page: str, topic: Topic, concepts) -> bool:
    """The page's own topic is linked to a concept, none of them the question's."""
    ids = concepts(page)
    return bool(topic.ids) and bool(ids) and not ids & topic.ids


def _qtype(doc) -> str:
    return title_facets(getattr(doc, "title", "") or "")[1]


def _focus_key(doc) -> str:
    return title_facets(getattr(doc, "title", "") or "")[0]


def page_roles(documents: Sequence, kind: str, numbers: Sequence[int] | None = None, topic: Topic | None = None,
               concepts=None) -> tuple[set[int], set[int]]:
    """The [n] (of `numbers`, else all) of the passages whose knowledge-base question asks the
    asked kind about the topic (any topic when none is known: "What are the treatments for Foot
    Drop ?" does not answer how athlete's foot is treated), and of those that answer an aside
    (research, support groups, how many are affected). Where the topic's own page answers, a
    narrower condition's page that names the topic ("Obesity Hypoventilation Syndrome") does not."""
    numbers = range(1, len(documents) + 1) if numbers is None else numbers
    qtypes = {n: _qtype(documents[n - 1]) for n in numbers}
    wanted = KIND_QTYPES.get(kind, ())
    answering = {n for n, q in qtypes.items() if q in wanted}
    if topic and concepts is not None:
        answering = {n for n in answering if page_names(documents[n - 1], topic, concepts)}
        own = {n for n in answering if _is_the_topic_page(documents[n - 1], topic)}
        answering = own or answering
    return answering, {n for n, q in qtypes.items() if q in ASIDE_QTYPES}


def page_topic_words(documents: Sequence, topic: Topic | None = None) -> dict[int, set[str]]:
    """The word stems of each passage's topic and its other names, by [n]: a sentence about its own
    page's topic ("Symptoms of myocardial infarction include …" on the heart attack page) is not
    about another condition, whatever the question called it."""
    out = {}
    for n, doc in enumerate(documents, 1):
        if topic and not _is_the_topic_page(doc, topic):
            continue
        focus, _, aliases = title_facets(getattr(doc, "title", "") or "")
        out[n] = set(tokenize(" ".join((focus, *aliases))))
    return out


def _is_the_topic_page(doc, topic: Topic) -> bool:
    """The page's focus, one of its other names, or one of the topics it joins ("Overweight and
    Obesity") is the topic."""
    focus, _, aliases = title_facets(getattr(doc, "title", "") or "")
    return any(set(tokenize(name)) in topic.names for name in (focus, *focus.split(" and "), *aliases))


def passages_used(documents: Sequence, kind: str, topic: Topic, concepts) -> list[int]:
    """The [n] of the passages the answer quotes: the first PASSAGES_USED, and, when none of
    them is the page that asks the asked kind about the topic, the first later one that is
    ("How to prevent Viral Gastroenteritis ?" ranked sixth for "노로바이러스 장염 안 걸리려면?")."""
    used = list(range(1, min(len(documents), PASSAGES_USED) + 1))
    wanted = KIND_QTYPES.get(kind, ())
    if not wanted or not topic or concepts is None:
        return used

    def answers(n: int) -> bool:
        return _qtype(documents[n - 1]) in wanted and page_names(documents[n - 1], topic, concepts)

    if any(answers(n) for n in used):
        return used
    later = next((n for n in range(len(used) + 1, len(documents) + 1) if answers(n)), None)
    return used + [later] if later else used


# What a candidate sentence's relevance weighs (`relevance_features`): its similarity to the
# question, the kind cues and pages described above, whether it names the topic, how many specific
# medical words it adds, its passage's retrieval rank (1 for the first, falling to 0), whether it
# stands on an aside page ("what research is being done", ASIDE_QTYPES), whether it reads as a
# fragment (under FRAGMENT_WORDS words) or runs long, whether it opens its passage, holds a number,
# how many list items it strings together (up to LIST_ITEMS) and what share of the question's words
# it repeats.
RELEVANCE_FEATURES = ("similarity", "names_the_means", "speaks_to_the_kind", "wrong_side", "main_one",
                      "another_kind", "treatment_for_what_to_do", "names_the_topic", "topic_page",
                      "specific_words", "retrieval_rank", "answering_page", "answering_opening",
                      "aside_page", "fragment", "long", "opening", "has_number", "list_items",
                      "question_words")
FRAGMENT_WORDS = 6
_NUMBER = re.compile(r"\d")
_LIST_SEPARATOR = re.compile(r";|,(?=\s)|\s-\s")
LIST_ITEMS = 6
# Fitted, not set by hand: `chartside bench relevance` (a conditional logit over each question's
# candidates, labelled by the tuning sets' fact phrases; engine/bench/relevance.py), in units of
# similarity, the scale RELEVANCE_FLOOR is written in. Fitted this way a sentence that names the
# topic is less likely to hold a fact (it defines the topic), and a long one or a list more likely.
RELEVANCE_WEIGHTS = {"similarity": 1.0, "names_the_means": 1.13, "speaks_to_the_kind": -0.041,
                     "wrong_side": -0.111, "main_one": 0.285, "another_kind": -0.237,
                     "treatment_for_what_to_do": -0.025, "names_the_topic": -0.234, "topic_page": 0.206,
                     "specific_words": 0.166, "retrieval_rank": 0.254, "answering_page": 0.152,
                     "answering_opening": 0.054, "aside_page": -0.114, "fragment": -0.457, "long": 0.132,
                     "opening": -0.14, "has_number": 0.009, "list_items": 0.102, "question_words": 0.032}


def relevance_weights() -> np.ndarray:
    """RELEVANCE_WEIGHTS in the order of RELEVANCE_FEATURES (read when called, so a weight can be tried)."""
    return np.array([RELEVANCE_WEIGHTS[name] for name in RELEVANCE_FEATURES])


def relevance_features(query_vector: np.ndarray, pool: Sequence[Evidence], vectors: np.ndarray, *, kind: str,
                       topic_terms: Sequence[str], sources: int, longest: int = 45, query: str = "",
                       answering: set[int] = frozenset(), aside: set[int] = frozenset(), food: bool = False,
                       aspect: str = "", pairs: dict[str, tuple[Evidence, Evidence]] | None = None,
                       page_words: dict[int, set[str]] | None = None, quote_letters: int = 0,
                       topic_pages: set[int] = frozenset()) -> np.ndarray:
    """One row of RELEVANCE_FEATURES per sentence of the pool (see `select`)."""
    similarity = vectors @ query_vector if len(pool) else np.zeros(0)
    pairs = pairs or {}
    asked_medical = medical_words(f"{query} {' '.join(topic_terms)}")
    asked_words = set(tokenize(query))
    asked_topic = asked_words | set(tokenize(" ".join(topic_terms)))
    rows = []
    for item, sim in zip(pool, similarity):
        named = asked_topic | (page_words or {}).get(item.source, set())
        wrong_side = (off_side(item.text, kind, topic_terms) or lists_another_kind(item.text, kind)
                      or for_another_condition(item.text, named)
                      or (bool(topic_pages) and item.source not in topic_pages
                          and for_another_condition(item.text, asked_topic, unnamed=True))
                      or (kind in _ABOUT_THE_CONDITION and item.source not in topic_pages
                          and defines_another(item.text, named)))
        said = beyond_the_topic(item.text, topic_terms) if kind in _NAMED_SYMPTOM_KINDS else item.text
        speaks = speaks_to(said, kind, food, aspect) and not wrong_side
        means = speaks and names_the_means(said, kind)
        main_one = not wrong_side and states_the_main_one(item.text, kind)
        another = (not wrong_side and not main_one
                   and facet(said, kind, food=food) in _LISTS_ANOTHER_KIND.get(kind, ()))
        lifted = (kind == "what_to_do" and not speaks and bool(_FACET_CUES["treatment"].search(item.text)))
        lowered = item.text.lower()
        shown = shortened_quote(item.text, quote_letters) if quote_letters else item.text
        parts = [e.text for e in pairs.get(item.text, ())]
        rows.append([float(sim), means, speaks and not means, wrong_side, main_one, another, lifted,
                     any(term and term in lowered for term in topic_terms), item.source in topic_pages,
                     min(SPECIFIC_WORDS, len(medical_words(item.text) - asked_medical)),
                     1 - (item.source - 1) / max(1, sources), item.source in answering,
                     item.source in answering and item.position < OPENING_SENTENCES,
                     item.source not in answering and item.source in aside,
                     len(latin_words(shown)) < FRAGMENT_WORDS,
                     max((len(latin_words(p)) for p in parts), default=len(latin_words(shown))) > longest,
                     item.position < OPENING_SENTENCES, bool(_NUMBER.search(shown)),
                     min(LIST_ITEMS, len(_LIST_SEPARATOR.findall(shown))),
                     len(asked_words & set(tokenize(item.text))) / max(1, len(asked_words))])
    return np.array(rows, dtype=float).reshape(len(rows), len(RELEVANCE_FEATURES))


def select(query_vector: np.ndarray, pool: Sequence[Evidence], vectors: np.ndarray, *, kind: str,
           topic_terms: Sequence[str], sources: int, limit: int, longest: int = 45,
           query: str = "", answering: set[int] = frozenset(),
           aside: set[int] = frozenset(), food: bool = False, aspect: str = "",
           pairs: dict[str, tuple[Evidence, Evidence]] | None = None,
           complete_pairs: bool = False,
           page_words: dict[int, set[str]] | None = None,
           quote_letters: int = 0, topic_pages: set[int] = frozenset(),
           topic_names: Sequence[set[str]] = ()) -> list[tuple[Evidence, float]]:
    """MMR over the pool: relevance (`relevance_features` weighed by RELEVANCE_WEIGHTS)
    against redundancy with what is already chosen; a restatement of a chosen sentence
    (`LEXICAL_DUPLICATE`) is never chosen, nor a list that says it is of another kind
    (`lists_another_kind`: "Symptoms include pain, swelling …" tells no one what to do for a
    sprain), nor, but for what something is, a sentence that only gives a name (`only_names`).
    For a question about what to eat (`food`), a sentence about foods (only) speaks to the asked kind, and for one
    about how long something lasts or how it spreads (`aspect`), a sentence that answers that. With
    `complete_pairs` (an English answer, where quotes are not rationed by the Korean share), a
    definition's sentence chosen alone is quoted with its pronoun follower instead when the pair is
    nearly as relevant (`PAIR_MARGIN`) and the follower says more (`_says_more`): "Conjunctivitis is
    the medical name for pink eye." alone names it; "It involves inflammation of …" says what it is.
    With `quote_letters` (a Korean answer, which cuts a long quote at a list item or clause), a
    sentence is as long as the quote it would show."""
    pairs = pairs or {}
    features = relevance_features(query_vector, pool, vectors, kind=kind, topic_terms=topic_terms,
                                  sources=sources, longest=longest, query=query, answering=answering,
                                  aside=aside, food=food, aspect=aspect, pairs=pairs, page_words=page_words,
                                  quote_letters=quote_letters, topic_pages=topic_pages)
    relevance = [float(r) for r in features @ relevance_weights()]
    # Asked what to do now, another topic's list of protections is for another hazard and for next time
    # (the tick-bite page's "To help protect yourself …: Use a chemical repellent …" for a dog bite); the
    # topic's own ("… from bites: …; Get a tetanus booster …") may hold what to do after it too.
    never_chosen = [lists_another_kind(item.text, kind) or (kind != "definition" and only_names(item.text))
                    or similarity < QUESTION_FLOOR
                    or (kind == "what_to_do" and item.source not in topic_pages and lists_protection(item.text))
                    for item, similarity in zip(pool, features[:, RELEVANCE_FEATURES.index("similarity")])]
    asked = set(tokenize(query))
    stems = [set(tokenize(item.text)) - asked for item in pool]
    # A unit of two sentences (`pairs`) counts as two towards the limit.
    size = [2 if item.text in pairs else 1 for item in pool]
    index = {item.text: i for i, item in enumerate(pool)}
    headed = {index[head.text]: index[key] for key, (head, _) in pairs.items() if key in index and head.text in index}
    chosen: list[int] = []
    sentences = 0
    while sentences < limit and len(chosen) < len(pool):
        best, best_score = None, -1e9
        room = limit - sentences
        for i, rel in enumerate(relevance):
            if i in chosen or size[i] > room or never_chosen[i]:
                continue
            redundancy = max((float(vectors[i] @ vectors[j]) for j in chosen), default=0.0)
            score = MMR_LAMBDA * rel - (1 - MMR_LAMBDA) * redundancy
            if redundancy > 0.9 or any(_overlap(stems[i], stems[j]) >= LEXICAL_DUPLICATE for j in chosen):
                continue
            if score > best_score:
                best, best_score = i, score
        if best is None:
            break
        if sentences >= MIN_SENTENCES and relevance[best] < RELEVANCE_FLOOR:
            break
        if relevance[best] < RELEVANCE_FLOOR / 2:
            break
        unit = headed.get(best)
        if (complete_pairs and unit is not None and size[unit] <= room
                and relevance[unit] >= relevance[best] - PAIR_MARGIN
                and _says_more(pairs[pool[unit].text][1].text, kind)):
            best = unit
        chosen.append(best)
        sentences += size[best]
    whole = [kind != "definition" and gives_the_whole_kind(item.text, kind, topic_terms, topic_names)
             for item in pool]
    overview_at = _overview_left_out(chosen, relevance, never_chosen, size, stems, whole)
    if overview_at is not None:
        if sentences + 1 > limit:
            # It takes the place of the weakest single sentence, or of the weakest pair when only pairs were
            # chosen ("The most common symptom of anemia is fatigue" before three pairs of details).
            singles = [i for i in chosen if size[i] == 1]
            chosen.remove(min(singles or chosen, key=lambda i: relevance[i]))
        chosen.append(overview_at)
    # The overview heads the list, which is in order of weight: a Korean answer quotes its first ones.
    overviews = [i for i in chosen if whole[i]]
    if overviews:
        first = max(overviews, key=lambda i: relevance[i])
        chosen = [first, *(i for i in chosen if i != first)]
    return [(pool[i], relevance[i]) for i in chosen]


def _overview_left_out(chosen: list[int], relevance: list[float], never_chosen: list[bool], size: list[int],
                       stems: list[set], whole: list[bool]) -> int | None:
    """The most relevant sentence that gives the whole of the asked kind (`gives_the_whole_kind`: "Asthma is treated
    with two types of medicines: …") when MMR chose none: a clinician reads it first, and a choice among
    sentences of nearly equal weight must not leave it out for a detail. None when one is chosen,
    none qualifies (at least RELEVANCE_FLOOR, not a restatement of a chosen one) or nothing was chosen."""
    if not chosen or any(whole[i] for i in chosen):
        return None
    left_out = [i for i, gives in enumerate(whole)
                if gives and i not in chosen and not never_chosen[i] and size[i] == 1 and relevance[i] >= RELEVANCE_FLOOR
                and not any(_overlap(stems[i], stems[j]) >= LEXICAL_DUPLICATE for j in chosen)]
    return max(left_out, key=lambda i: relevance[i], default=None)


def beyond_the_topic(sentence: str, topic_terms: Sequence[str]) -> str:
    """The sentence with the topic's names taken out: a sentence that names "whooping cough" or
    "hay fever" names no symptom by that alone."""
    terms = sorted((t for t in topic_terms if t), key=len, reverse=True)
    if not terms:
        return sentence
    return re.sub("|".join(rf"\b{re.escape(t)}\w*" for t in terms), "", sentence, flags=re.I)


def _says_more(follower: str, kind: str) -> bool:
    """For what something is, the pronoun sentence names medical things (`PAIR_TERMS` key terms:
    "It involves inflammation of the outer layer of the eye", not "It was more common in the
    past"). For other kinds a pair is chosen on its own relevance only ("It is described as
    iron-refractory because …" explains a name, not a cause)."""
    return kind == "definition" and len(framing.korean_key_terms(follower)) >= PAIR_TERMS


def _overlap(a: set, b: set) -> float:
    return len(a & b) / min(len(a), len(b)) if a and b else 0.0


_SOME_OF_THEM = re.compile(r"^(?:other|another|additional|also|more|some|these|those|this)\b", re.I)


# A sentence that announces the list after it as the topic's own ones of a kind: "People should watch for the
# following signs and symptoms of dehydration in infants …: dry mouth …", "These are warning signs of a stroke: …".
_ANNOUNCES_THE_KIND = re.compile(r"\b(?:the following|these)\s+(?:are\s+|may be\s+)?(?:(?:common|main|warning|early)\s+)?"
                                 r"(signs and symptoms|signs|symptoms|causes|treatments|side effects|risk factors)\s+"
                                 r"(?:of|for)\s+([^:;,.()]{2,50}?)(?=\s+(?:in|that|which|when)\b|\s*[:;,.(])", re.I)


def announces_the_kind(sentence: str, kind: str, topic_terms: Sequence[str]) -> bool:
    """The sentence says the list it opens gives the topic's own ones of the asked kind."""
    announced = _ANNOUNCES_THE_KIND.search(sentence)
    if announced is None or ":" not in sentence[announced.end():]:
        return False
    return kind_named(announced.group(1)) == kind and names_only_the_topic(announced.group(2), topic_terms)


def overview(sentence: str, kind: str, topic_terms: Sequence[str]) -> bool:
    """The sentence gives the main one of the asked kind ("The most common symptom of anemia is
    fatigue"), or says in its subject that it lists the asked kind of the topic ("Glaucoma
    treatments include …"), not some or more of them ("Other danger signs … include", "Some signs
    of hypoglycemia during sleep include"), nor those of something else whose list names the
    topic ("Common causes of skin lumps include: …; warts")."""
    if states_the_main_one(sentence, kind) or announces_the_kind(sentence, kind, topic_terms):
        return True
    subject = overview_subject(sentence, kind)
    if subject:
        return names_only_the_topic(subject, topic_terms)
    stated = _STATED_SUBJECT.match(sentence)
    if not stated or _stated_kind(sentence) != kind or _SOME_OF_THEM.match(sentence):
        return False
    subject = stated.group(0).lower()
    return any(term in subject for term in topic_terms)


# Names other or further ones of a kind than those said before it ("People who have pneumonia may have other
# symptoms, including nausea …", "Less common symptoms include …"), or opens on a few or rare cases or on what
# it adds ("Rarely, …", "Some people also …", "Also, …", "In addition, …").
_OTHER_ONES = re.compile(r"\b(?:other|additional|further|less common|rarer|uncommon)\s+(?:\w+\s+)?"
                         r"(causes?|risk factors?|symptoms?|signs?|side effects?|treatments?|complications?)\b", re.I)
_FEW_OR_RARE = re.compile(r"^(?:rarely|in rare cases|less often|some people (?:also|may also)|also|in addition|"
                          r"additionally|furthermore|moreover)\b", re.I)


def names_other_ones(sentence: str, kind: str) -> bool:
    """The sentence gives other or further ones of the asked kind, or a few or rare ones: read after the
    main ones."""
    other = _OTHER_ONES.search(sentence)
    return bool(_FEW_OR_RARE.match(sentence)) or (
        other is not None and kind_named(other.group(1)) == kind)


def reading_order(selected: Sequence[Evidence], reading: Reading, topic_terms: Sequence[str] = ()) -> list[Evidence]:
    """The asked kind's sentences first (a definition question starts with what it is), then
    the other facets in reading order; passage rank and position inside a facet. A definition
    question's answer opens with the sentences that name its topic (`topic_terms`): "Common
    locations for aneurysms are the aorta …", from a page on high blood pressure, reads like a
    definition too, but not of what was asked. Another kind's answer opens with a sentence that
    says it gives the topic's main ones or lists them ("Glaucoma treatments include medicines,
    laser surgery, …"; `overview`), the sentences of a higher-ranked passage going on from it; never with one
    that gives other or further ones ("… may have other symptoms, including nausea"). A question
    about an aspect of its topic (how long it lasts, whether it spreads) opens with the sentences that answer
    that."""
    order = {name: i for i, name in enumerate(READING_ORDER)}
    terms = [term for term in topic_terms if term]
    aspect = reading.aspect if reading.kind == "definition" else ""
    places = {(item.source, item.position) for item in selected}

    def key(item: Evidence):
        name = reading.facet(item.text)
        lowered = item.text.lower()
        if reading.kind == "definition":
            unnamed = name == "definition" and not any(t in lowered for t in terms)
        else:
            unnamed = not overview(item.text, reading.kind, terms)
        return (not answers_the_aspect(item.text, aspect), 0 if name == reading.kind else 1, unnamed, order[name],
                item.source, item.position)

    ordered = sorted(selected, key=key)
    # An answer does not open with other or rare ones ("… may have other symptoms, including nausea"): the
    # first sentence that gives main ones opens it instead. Right after "The most common cause is …" in its
    # passage, "Other causes include …" goes on from it, and stays.
    if reading.kind != "definition" and ordered and names_other_ones(ordered[0].text, reading.kind) and (
            ordered[0].source, ordered[0].position - 1) not in places:
        main = next((i for i, item in enumerate(ordered) if not names_other_ones(item.text, reading.kind)), None)
        if main is not None:
            ordered.insert(0, ordered.pop(main))
    return ordered


# What a condition has, not a medicine: "How antidepressants is treated", "How vaccines can be prevented" say
# nothing; a medicine asked about under such a kind is led as what the sources say of it.
_CONDITION_KINDS = frozenset({"causes", "symptoms", "diagnosis", "treatment", "prevention"})


def _lead_kind(kind: str, asked: Topic) -> str:
    """The kind the lead names: a medicine asked about under a kind only a condition has, or a dose asked of
    what is no medicine ("혈당은 하루에 몇 번 재야 해요?" is no "dose of blood sugar"), leads as what it is."""
    if (asked.medicine and kind in _CONDITION_KINDS) or (kind == "dosage" and asked and not asked.medicine):
        return "definition"
    return kind


def _profile_line(profile_summary: str, language: str) -> str:
    none_words = ("none", "없음")
    lines = [line.strip() for line in profile_summary.splitlines()
             if line.strip() and not line.strip().lower().endswith(none_words)]
    if not lines:
        return ""
    facts = "; ".join(lines)
    facts = framing.in_korean(facts) if language == "ko" else framing.in_english(facts)
    return framing.texts(language)["profile"].format(facts=facts)


def compose(*, question: str, language: str, slots: dict, documents: Sequence, checker: SupportChecker,
            alerts: Sequence[dict] = (), profile_summary: str = "", about_patient: bool = False,
            plan=None, boilerplate: frozenset[str] = frozenset()) -> Composition:
    """Compose the answer; `checker.embedder` embeds (the engine's sentence-transformers model).
    `plan` is the knowledge base's query plan for the question (its focus concepts), used
    for a long message: its sentences are scored against "focus + asked kind", since the
    whole message (history, worries, thanks) is far from every passage sentence.
    `boilerplate`: sentences the knowledge base repeats on many pages (engine.knowledge.boilerplate),
    never quoted."""
    message = is_message(question)
    # "My child was diagnosed with croup. What are the symptoms?" asks for symptoms.
    kind = asked_kind(question, slots)
    # A long message is scored against its plan's focus; so is a question that names nothing the record
    # holds: a lab test ("당화혈색소 정상 수치가 얼마예요?") or the condition a measured value names ("My
    # potassium is 5.8. What does that mean?" is about high potassium).
    focus = plan_focus(plan) if plan is not None and (message or _names_nothing(slots)) else []
    query = english_query(question, slots, kind, focus)
    texts = framing.texts(language)
    messages = dict.fromkeys(a["message"] for a in alerts if a.get("message") and a.get("kind") != "emergency")
    frame_top: list[Support] = [Support(message, kind=ALERT) for message in messages]
    if profile_summary and (about_patient or alerts):
        line = _profile_line(profile_summary, language)
        if line:
            frame_top.append(Support(line, kind=PROFILE))
    # A short question's topic is its focus under any of the plan's names for it ("High blood glucose can
    # happen if you ..." is about hyperglycemia).
    topic_names = focus if message else plan_names(plan, focus)
    asked = question_topic(topic_names, slots, checker.concepts, kind) if checker.concepts is not None else Topic()
    if asked.medicine and ((slots or {}).get("demographics") or {}).get("pregnant"):
        # A pregnant asker's medicine question is answered by the page on medicines in pregnancy too.
        asked = replace(asked, pages=frozenset({PREGNANCY_MEDICINES}))
    if asked.medicine and kind not in CLASS_WIDE_KINDS:
        asked = replace(asked, treats=pages_on_what_it_treats(plan, slots))
    asked = with_other_names(asked, documents)
    used = passages_used(documents, kind, asked, checker.concepts)
    evidence = evidence_from(documents, used)
    joined = pronoun_pairs(evidence)
    pool = candidates(evidence) + [Evidence(before.source, text, before.position) for text, (before, _) in joined.items()]
    pool, repeated = without_boilerplate(pool, joined, boilerplate)
    decisions = [f"compose: question kind {kind}; {len(pool)} candidate sentences from passages "
                 f"{', '.join(map(str, used)) or 'none'}"]
    if repeated:
        decisions.append(f"compose: {repeated} sentences left out: the knowledge base repeats them word for word on "
                         f"many pages (its sites' boilerplate)")
    if focus and message:
        decisions.append(f"compose: a long message; sentences scored against its focus ({len(focus)} concepts) "
                         f"and question kind")
    chosen: list[tuple[Evidence, float]] = []
    weighed: list[Evidence] = []  # an English answer's further sentences, named but not quoted
    no_medicine_page = not_together = other_topics = False
    about: set[tuple[int, int]] | None = None  # where the sentences about the topic stand, when others may be quoted
    embed = SentenceVectors(checker)
    evidence_texts = [e.text for e in evidence]
    medicine = asked.medicine or kind in MEDICINE_KINDS
    food = asks_about_food(question)
    aspect = asked_aspect(question)
    reading = Reading(kind, medicine, food, aspect)
    # A Korean question none of whose terms was recognised cannot be put to the English embedder: any
    # passage it retrieved matches its words by chance (air pollution for "결절종이 뭐예요?").
    unrecognised = language == "ko" and has_hangul(query)
    if unrecognised:
        decisions.append("compose: no medical term of the Korean question was recognised, so no passage is matched "
                         "to it")
    if pool and checker.embedder is not None and not unrecognised:
        query_vector = checker.vectors([query])[0]
        # A long message's other concepts (history, other medicines) are not its topic.
        topic_terms = [f.lower() for f in focus] or topic_words(slots)
        pool, opposite = not_the_opposite(pool, documents, topic_terms)
        if opposite:
            decisions.append(f"compose: {opposite} sentences left out: they are about the opposite of what is asked "
                             f"({', '.join(opposite_terms(topic_terms))})")
        if checker.concepts is not None:
            pool, left_out = about_the_medicine(pool, documents, asked, checker.concepts)
            if left_out:
                decisions.append(f"compose: {left_out} sentences left out: they and their passage name another "
                                 f"medicine than the one asked about")
                no_medicine_page = not pool
        if checker.concepts is not None:
            # A question none of whose words is linked is held to pages about what it asks.
            names, closest = (topic_terms, UNRELATED_PAGE) if asked else ([query], QUESTION_PAGE)
            pool, elsewhere, on_topic = about_the_topic(pool, documents, asked, checker, names, closest=closest,
                                                        reading=reading)
            if elsewhere:
                decisions.append(f"compose: {elsewhere} sentences left out: neither they nor their page are about "
                                 f"{'the question' if asked else 'what the question asks'} or a topic close to it")
            other_topics = bool(pool) and not on_topic
            if kind == "what_to_do" and len(on_topic) < len(pool):
                # What to do now is read as instructions: another topic's first aid ("If you see something
                # blocking the airway, try to remove it", "Gently blow your nose") must not be followed for a
                # nosebleed. Only the topic's own sentences are quoted, or none.
                decisions.append(f"compose: {len(pool) - len(on_topic)} sentences left out: the question asks "
                                 f"what to do, and they are instructions for another topic")
                pool, other_topics = list(on_topic), False
            if 0 < len(on_topic) < len(pool):
                decisions.append(f"compose: only {len(on_topic)} sentences are about the question's topic; the pool "
                                 f"stays whole, and the lead says so if a quote comes from another topic's page")
                about = {_place(e) for e in on_topic}
            if other_topics:
                decisions.append("compose: no sentence found is about the question's topic; the lead says the quotes "
                                 "come from pages on other topics")
        if kind == "definition" and asked and checker.concepts is not None:
            pool, aside_topics = of_the_topic_itself(pool, documents, asked, checker.concepts)
            if aside_topics:
                decisions.append(f"compose: {aside_topics} sentences left out: what something is is said of "
                                 f"the topic itself, and they and their page name it at most as an item of "
                                 f"another's list")
        if kind == "interaction" and framing.ALCOHOL.search(asked_part(question)):
            pool, silent = about_drinking(pool)
            if silent:
                decisions.append(f"compose: {silent} sentences left out: they say nothing of alcohol")
        elif kind == "interaction" and checker.concepts is not None:
            pool, one_sided = of_both(pool, documents, interaction_parties(slots), checker.concepts)
            if one_sided:
                decisions.append(f"compose: {one_sided} sentences left out: they speak of only one of the things "
                                 f"asked about together")
                not_together = not pool
        pool, adult_only = for_the_young(pool, slots)
        if adult_only:
            decisions.append(f"compose: {adult_only} sentences left out: they speak only of adults, and the "
                             f"question is about a child")
        pool, child_only = for_grown_ups(pool, slots, question)
        if child_only:
            decisions.append(f"compose: {child_only} sentences left out: they speak only of children, and the "
                             f"question is about an adult")
        pool, reassuring = reassured_elsewhere(pool, documents, asked)
        if reassuring:
            decisions.append(f"compose: {reassuring} sentences left out: they say something is harmless or needs "
                             f"no care, and their page is about something other than the question's topic")
        limit = MAX_SENTENCES_KO if language == "ko" else MAX_SENTENCES
        answering, aside = page_roles(documents, kind, used, asked, checker.concepts)
        if pool:
            embed(evidence_texts)  # the passages' sentences as one batch, as the support check reads them
            vectors = embed([e.text for e in pool])
            # With a topic, only its own pages have page words (`page_topic_words`).
            page_words = page_topic_words(documents, asked)
            weighing = dict(kind=kind, topic_terms=topic_terms, sources=min(len(documents), PASSAGES_USED),
                            longest=LONGEST_KO if language == "ko" else LONGEST, query=query,
                            answering=answering, aside=aside, food=food, aspect=aspect, pairs=joined,
                            complete_pairs=language != "ko", page_words=page_words,
                            topic_pages=set(page_words) if asked else set(),
                            quote_letters=KO_TIGHTER_LETTERS[0] if language == "ko" else 0,
                            topic_names=asked.names)
            chosen = select(query_vector, pool, vectors, limit=limit, **weighing)
            if language != "ko" and NAMED_EN:
                taken = {id(e) for e, _ in chosen}
                weighed = [e for e, _ in select(query_vector, pool, vectors, limit=limit + NAMED_EN, **weighing)
                           if id(e) not in taken]
    picked, follows = _with_followers(chosen, joined)
    verdicts = checker.check([e.text for e in picked], evidence, embed=embed)
    backed = [(e, s) for e, s in zip(picked, verdicts) if s.source is not None]
    # A pronoun sentence is quoted only after the sentence it follows.
    backed = with_their_leaders(backed, follows)
    topic = framing.focus_name(focus, language) if focus else framing.topic_name(_named_in_the_lead(slots, kind),
                                                                                   language)
    lead_text = (kind == "interaction" and not focus and framing.interaction_lead(slots, question, language)
                 or framing.lead(_lead_kind(kind, asked), topic, language, food, aspect))
    gist, named = "", backed
    if language == "ko":
        # The Korean glance line names what all backed sentences say, quoted or not (a Korean
        # answer quotes fewer of them, and cuts some short, to stay Korean enough). Terms with no
        # quote around them name only what is said about the topic: a pain reliever from a page on
        # another disease must not read as a treatment for hives.
        if asked and checker.concepts is not None:
            named = [(e, s) for e, s in backed if is_on_topic(e, documents, asked, checker.concepts)]
        gist = glance_line([s for _, s in named], reading, lead_text)
    if language == "ko" and KO_QUOTE_LETTERS:
        backed = _shortened(backed, KO_QUOTE_LETTERS)
    unquoted = ""
    if language == "ko" and KO_MIN_HANGUL and backed:
        every = backed
        backed = _within_korean_share(backed, frame_top, reading, topic, texts, gist=gist, named=named,
                                      lead_text=lead_text, follows=follows)
        if len(backed) < len(every):
            decisions.append(f"compose: {len(backed)} of {len(every)} sentences quoted, so that the Korean answer "
                             f"stays at least {KO_MIN_HANGUL:.0%} Korean")
            unquoted = unquoted_line(named, backed, f"{lead_text} {gist}")
    named_terms = [f.lower() for f in focus] or topic_words(slots)
    order = {id(e): i for i, e in enumerate(in_pairs(reading_order([e for e, _ in backed], reading, named_terms),
                                                     follows))}
    sourced = [s for e, s in sorted(backed, key=lambda pair: order[id(pair[0])])]
    newer = newer_than_the_sources(slots, [_page_of(e, documents) for e, _ in backed])
    if newer:
        decisions.append(f"compose: {len(sourced)} sentences not quoted: the knowledge base predates {newer}, and "
                         f"pages on older, related illnesses are out of date for it")
        sourced, backed = [], []
    if sourced and other_topics:
        lead_text = (texts["other_topics"].format(topic=topic) if topic else texts["other_topics_no_topic"])
    elif sourced and topic and about is not None and not all(_place(follows.get(id(e), e)) in about
                                                             for e, _ in backed):
        lead_text = texts["little_on_topic"].format(topic=topic)
        decisions.append("compose: some quotes come from pages on other topics; the lead says so")
    elif sourced and _lead_kind(kind, asked) in framing.KIND_PHRASES_EN and not any(
            reading.facet(s.source_sentence or s.text) in ANSWERING_FACETS.get(kind, {kind}) for s in sourced):
        lead_text = framing.off_kind_lead(kind, topic, language)
        decisions.append(f"compose: no quoted sentence speaks to the asked kind ({kind}); the lead says so")
    elif sourced and kind == "definition" and reading.aspect and not any(
            answers_the_aspect(s.source_sentence or s.text, reading.aspect) for s in sourced):
        lead_text = framing.off_kind_lead(reading.aspect, topic, language)
        decisions.append(f"compose: no quoted sentence speaks to what is asked ({reading.aspect}); the lead says so")
    if not sourced:
        # No page of the medicine: the refusal names the medicine, not the fever it is taken for.
        medicine_name = framing.topic_name({"medications": _medicines(slots)}, language) or topic
        lead_text = (texts["newer_than_sources"].format(topic=topic or newer) if newer
                     else texts["no_medicine_page"].format(name=medicine_name) if no_medicine_page and medicine_name
                     else texts["not_together"].format(name=topic) if not_together and topic
                     else texts["unrecognised"] if unrecognised else texts["nothing"])
    if sourced and weighed:
        unquoted = _also_named(weighed, joined, checker, evidence, documents, asked,
                               " ".join([lead_text, *(s.text for s in sourced)]), embed)
    lead = Support(lead_text, kind=NOTICE)
    # "General information from the cited sources" closes an answer that cites some; a declined one
    # says itself whom to ask.
    closing = Support(texts["disclaimer"], kind=NOTICE) if sourced else None
    decisions.append(f"compose: {len(sourced)} sentences selected (MMR λ={MMR_LAMBDA})")
    sentences = [*frame_top, lead, *sourced, *([closing] if closing else [])]
    return Composition(render_composition(frame_top, lead, sourced, closing, language, reading,
                                          gist=gist, unquoted=unquoted), sentences,
                       kind, query, decisions)


# Illnesses that arose after the knowledge base was written (its pages predate COVID-19), with the word a page
# about one has in its title (a clinic's own document may be): pages on older, related illnesses are out of date
# for them ("There is no vaccine to prevent coronavirus infection."), so none is quoted.
NEWER_THAN_THE_SOURCES = {"covid-19": "covid"}


def newer_than_the_sources(slots: dict, pages: Sequence) -> str:
    """The name of the illness newer than the knowledge base that is all the question names, with its vaccine
    ("코로나 증상이 뭐예요?", not "I have COVID and a cough; what helps the cough?"), when none of `pages` (those
    of the sentences to quote) is about it; else ""."""
    # Its vaccine is about it too ("Is there a vaccine for COVID?").
    named = {i.get("name", "") for key in NAMING_SLOTS for i in _affirmed(slots, key)} - {"vaccines"}
    if len(named) != 1:
        return ""
    name = named.pop()
    word = NEWER_THAN_THE_SOURCES.get(name)
    return name if word and not any(word in (getattr(page, "title", "") or "").lower() for page in pages) else ""


def _with_followers(chosen: Sequence[tuple[Evidence, float]], joined: dict[str, tuple[Evidence, Evidence]]
                    ) -> tuple[list[Evidence], dict[int, Evidence]]:
    """The chosen sentences with each pronoun follower after its sentence (`pronoun_pairs`), and
    which sentence each follower follows (by id)."""
    picked, follows, taken = [], {}, set()
    for e, _ in chosen:
        before, after = joined.get(e.text, (e, None))
        for item in (before, after):
            if item is not None and id(item) not in taken:  # two units may open with the same sentence
                picked.append(item)
                taken.add(id(item))
        if after is not None:
            follows[id(after)] = before
    # Units may chain (a sentence, the "But …" that qualifies it, the "It …" after that) and be chosen
    # in any order: each chain stands together, where its first chosen sentence stood.
    def chain_of(item: Evidence) -> int:
        seen = set()
        while id(item) in follows and id(item) not in seen:
            seen.add(id(item))
            item = follows[id(item)]
        return id(item)

    first: dict[int, int] = {}
    for rank, e in enumerate(picked):
        first.setdefault(chain_of(e), rank)
    return in_pairs(sorted(picked, key=lambda e: first[chain_of(e)]), follows), follows


def _place(item: Evidence) -> tuple[int, int]:
    """Where a sentence stands: its passage's [n] and its position there."""
    return item.source, item.position


def _also_named(weighed: Sequence[Evidence], joined, checker: SupportChecker, evidence, documents, asked: Topic,
                said: str, embed: SentenceVectors) -> str:
    """The English answer's line naming the key terms of the further sentences it weighed
    (`NAMED_EN`) that the support check backs, are about the topic and deny nothing."""
    picked, _ = _with_followers([(e, 0.0) for e in weighed], joined)
    verdicts = checker.check([e.text for e in picked], evidence, embed=embed)
    backed = [(e, s) for e, s in zip(picked, verdicts) if s.source is not None and not is_negated(s.text)]
    if asked and checker.concepts is not None:
        backed = [(e, s) for e, s in backed if is_on_topic(e, documents, asked, checker.concepts)]
    return framing.also_named([(s.text, s.source) for _, s in backed], said)


_CUT_POINTS = re.compile(r"; |, (?:and |or )?")
# A sentence that opens with a condition or a time ("If the owner is unwilling to have this done,
# the animal should be …") says its point after the clause: a cut at the clause's end quotes the
# condition alone.
_OPENING_CLAUSE = re.compile(r"^(?:if|when|whenever|although|though|because|since|while|unless|after|before|once|"
                             r"until|even if|even though|as long as)\b", re.I)


def shortened_quote(text: str, letters: int) -> str:
    """A long quote cut, with "…", at the last list item or clause that keeps it within
    `letters` Latin letters (a Korean answer quotes the English evidence verbatim; its key
    terms say the rest in Korean). A sentence that cannot be cut there stays whole, and so does
    one whose negation the cut would drop."""
    if latin_letters(text) <= letters:
        return text
    cut, negated = None, is_negated(text)
    opening_clause = bool(_OPENING_CLAUSE.match(text))
    for match in _CUT_POINTS.finditer(text):
        head = text[:match.start()]
        if latin_letters(head) > letters:
            break
        if opening_clause and not _CUT_POINTS.search(head):
            continue
        # A cut that leaves a "not" behind would quote the sentence saying something else.
        if len(latin_words(head)) >= KO_MIN_QUOTE_WORDS and is_negated(head) == negated:
            cut = match.start()
    return f"{text[:cut].rstrip(' ;,:')} …" if cut else text


def _shortened(pairs, letters: int) -> list:
    """The (evidence, support) pairs with each quote cut by `shortened_quote` to `letters`."""
    return [(e, replace(s, text=shortened_quote(s.text, letters))) for e, s in pairs]


def _within_korean_share(backed, frame_top, reading: Reading, topic, texts, gist=None, named=None, lead_text=None,
                         follows=None):
    """The backed sentences a Korean answer quotes so that it stays at least KO_MIN_HANGUL
    Hangul: the first KO_FIRST_QUOTES (in order of relevance), then each further one, in that order,
    that keeps it so, up to MAX_SENTENCES sentences (a long quote that would not fit does not keep
    out a short one after it). When even the first read too English, they are cut shorter at list items or
    clauses (`KO_TIGHTER_LETTERS`), as far as `shortened_quote` allows, and only when even
    the shortest cuts read too English are the least relevant dropped, down to KO_LEAST_QUOTES
    (dropping them earlier lost more facts on the tuning sets than the share was worth). When
    even those read too English, the most relevant quote that keeps the answer Korean enough is
    quoted instead, alone. A pronoun sentence and the sentence it follows (`follows`, by id)
    count as one quote and are kept or dropped together."""
    lead = Support(lead_text or framing.lead(reading.kind, topic, "ko", reading.food, reading.aspect), kind=NOTICE)
    closing = Support(texts["disclaimer"], kind=NOTICE)

    named = backed if named is None else named

    def korean_enough(pairs) -> bool:
        shown = render_composition(frame_top, lead, [s for _, s in pairs], closing, "ko", reading, gist=gist,
                                   unquoted=unquoted_line(named, pairs, f"{lead.text} {gist or ''}"))
        return hangul_share(shown) >= KO_MIN_HANGUL

    followers = set(follows or ())
    # Where a quote (a sentence, or a pair) ends: the prefixes that may be kept.
    ends = [count for count in range(1, len(backed) + 1)
            if count == len(backed) or id(backed[count][0]) not in followers]
    if not ends:
        return backed
    kept = backed[:ends[min(KO_FIRST_QUOTES, len(ends)) - 1]]
    for start, end in zip(ends[KO_FIRST_QUOTES - 1:], ends[KO_FIRST_QUOTES:]):
        more = kept + backed[start:end]
        if len(more) <= MAX_SENTENCES and korean_enough(more):
            kept = more
    if korean_enough(kept):
        return kept
    for letters in KO_TIGHTER_LETTERS:
        kept = _shortened(kept, letters)
        if korean_enough(kept):
            return kept
    while len(kept) > KO_LEAST_QUOTES and not korean_enough(kept):
        kept = kept[:max((end for end in ends if end < len(kept)), default=0)]
    if korean_enough(kept):
        return kept
    # Even the most relevant quote alone reads too English (a long sentence with nowhere it may be
    # cut): the most relevant quote that keeps the answer Korean enough stands in for it, and the
    # terms of the one left out are named in Korean on the unquoted line.
    for start, end in zip([0, *ends[:-1]], ends):
        for letters in (KO_QUOTE_LETTERS, *KO_TIGHTER_LETTERS):
            alone = _shortened(backed[start:end], letters)
            if korean_enough(alone):
                return alone
    return kept


def unquoted_line(backed, quoted, said: str) -> str:
    """The Korean line naming what the backed sentences left unquoted say (none that denies
    something), less the terms the answer's lead and glance line (`said`) already name."""
    shown = {id(e) for e, _ in quoted}
    return framing.korean_unquoted([(s.text, s.source) for e, s in backed
                                    if id(e) not in shown and not is_negated(s.text)], said)


def glance_line(backed: Sequence[Support], reading: Reading, lead_text: str) -> str:
    """The Korean answer's at-a-glance line: what the backed sentences about the asked kind
    name, none that denies something."""
    on_kind = [(i.text, i.source) for i in backed if reading.facet(i.text) == reading.kind and not is_negated(i.text)]
    return framing.korean_gist(on_kind, reading.kind, lead_text)


def render_composition(frame_top: Sequence[Support], lead: Support, sourced: Sequence[Support], closing: Support | None,
                       language: str, reading: Reading = Reading(), gist: str | None = None,
                       unquoted: str = "") -> str:
    """The answer text. A Korean answer's `gist` is its glance line, made once by `compose`
    from every backed sentence; without one it is made from the quotes shown."""
    blocks = [item.text for item in frame_top]
    if language == "ko":
        lines = [lead.text]
        if sourced:
            if gist is None:
                gist = glance_line(sourced, reading, lead.text)
            if gist:
                lines += ["", gist]
            lines.append("")
            lines.append(framing.texts("ko")["how_to_read"])
            lines.append(framing.texts("ko")["evidence"])
        for item in sourced:
            # Labelled, and its key terms named, by the whole source sentence, also when the quote is cut
            # short: the key terms say in Korean what the cut left out.
            terms = framing.korean_key_terms(item.source_sentence or item.text)
            label = framing.FACET_NAMES_KO[reading.facet(item.source_sentence or item.text)]
            prefix = f"{label} · {framing.texts('ko')['key_terms']}: {', '.join(terms)}" if terms else label
            lines.append(f'- {prefix} — "{item.text}" [{item.source}]')
        if sourced and unquoted:
            lines.append(f"- {unquoted}")
        blocks.append("\n".join(lines))
    else:
        body = " ".join(f"{item.text} [{item.source}]" for item in sourced)
        if body and unquoted:
            body = f"{body}\n\n{unquoted}"  # its own paragraph: the GUI's Markdown joins single lines
        blocks.append(f"{lead.text}\n{body}" if body else lead.text)
    if closing is not None:
        blocks.append(closing.text)
    return "\n\n".join(blocks)
