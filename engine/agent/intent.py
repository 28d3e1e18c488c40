"""Active retrieval: does this turn need documents, and how many?

Rules first (greetings and acknowledgements skip retrieval — only when the message is
nothing but pleasantries: "ok, I want to kill myself" starts like an acknowledgement and is
not one), then the seed's slot/length
complexity (concepts ≤ 1 and ≤ 20 characters: simple; ≤ 3 and ≤ 50: moderate; else
complex; a Hangul syllable counts as 2.5 characters), and the LLM (label-constrained) only when the rules are unsure: a message with
no medical content that is not small talk either.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.clinical.assertion import asks_something
from engine.knowledge.questions import question_kinds
from engine.text import hangul_syllables, medical_words

_GREETING = re.compile(r"^\s*(hi|hello|hey|good (morning|afternoon|evening)|greetings|안녕|반갑|반가워|처음 뵙)", re.I)
_ACK = re.compile(
    r"^\s*(ok(ay)?|thanks?( you)?|thank you( very much)?|got it|i see|understood|sure|alright|all right|great|"
    r"perfect|cool|noted|네|예|알겠|감사|고맙|그렇군요|좋아요|좋습니다|잘 알겠|이해했)", re.I)
_QUESTION_MARK = re.compile(r"[?？]")
# What may follow a greeting or an acknowledgement for the message to stay small talk.
_PLEASANTRY = re.compile(
    r"\s*(?:ok(?:ay)?|thanks?(?: you)?(?: (?:so|very) much)?|thank you|thx|ty|got it|i see|understood|sure|alright|"
    r"all right|good (?:morning|afternoon|evening|night)|great|perfect|cool|noted|nice|good|fine|hi|hello|hey|"
    r"greetings|doctor|doc|again|a lot|for (?:the|your) (?:help|answer|information|info)|that(?:'s| is)? (?:helps?|"
    r"helped|helpful|clear|great|good|all)|(?:very )?helpful|(?:that )?makes sense|will do|bye|goodbye|see you|"
    r"네|예|응|알겠(?:습니다|어요|어)?|감사(?:합니다|해요|드려요|드립니다)?|고맙(?:습니다|어요|네요)?|그렇군요|"
    r"좋아요|좋습니다|잘|이해했(?:습니다|어요)?|안녕(?:하세요|하십니까)?|반갑(?:습니다|네요)?|반가워요?|"
    r"처음 뵙겠습니다|선생님|정말|너무|많이|수고(?:하셨습니다|하세요)?|[.,!~^;:)(\s]|ㅎ|ㅋ)", re.I)


def only_pleasantries(text: str) -> bool:
    """Whether `text` is nothing but greetings, thanks and acknowledgements."""
    rest = text.strip()
    while rest:
        match = _PLEASANTRY.match(rest)
        if not match or not match.group(0):
            return False
        rest = rest[match.end():]
    return True

LABELS = ("small_talk", "simple", "moderate", "complex")


@dataclass(frozen=True)
class Intent:
    intent: str              # greeting | acknowledgement | question
    needs_retrieval: bool
    complexity: str | None   # simple | moderate | complex (None for small talk)
    sure: bool               # False: the rules want the LLM's opinion


def concept_count(slots: dict) -> int:
    return sum(len(slots.get(name) or []) for name in ("symptoms", "conditions", "medications", "vitals", "labs"))


def classify_by_rules(text: str, slots: dict) -> Intent:
    stripped = text.strip()
    medical = medical_words(stripped)
    count = max(concept_count(slots), len(medical))
    if not medical and not concept_count(slots) and len(stripped) < 30 and only_pleasantries(stripped):
        if _GREETING.match(stripped):
            return Intent("greeting", False, None, True)
        if _ACK.match(stripped) and not _QUESTION_MARK.search(stripped):
            return Intent("acknowledgement", False, None, True)
    complexity = complexity_by_rules(count, comparable_length(stripped))
    sure = bool(count) or bool(question_kinds(stripped))
    return Intent("question", True, complexity, sure)


# The seed's length thresholds count English characters. A Hangul syllable carries about
# what two or three Latin letters do ("천식은 어떻게 치료하나요?", 14 characters, asks what
# "How is asthma treated?", 22, asks), so a syllable counts this much: without it every
# short Korean question was "simple" and got 3 documents where its English twin got 8.
HANGUL_SYLLABLE_LENGTH = 2.5


def comparable_length(text: str) -> int:
    """The text's length in English-character terms (a Hangul syllable counts 2.5)."""
    syllables = hangul_syllables(text)
    return round(len(text) + (HANGUL_SYLLABLE_LENGTH - 1) * syllables)


def complexity_by_rules(count: int, length: int) -> str:
    if count <= 1 and length <= 20:
        return "simple"
    if count <= 3 and length <= 50:
        return "moderate"
    return "complex"


def settle(rules: Intent, labelled: Intent, text: str) -> Intent:
    """The model's label for a message the rules were unsure of, except that a message that asks
    something is never small talk: a tiny model labelled "귀지가 꽉 막힌 것 같은데 어떻게 빼요?"
    small talk, and the asker was told "네, 알겠습니다" with nothing looked up."""
    if labelled.needs_retrieval or not asks_something(text):
        return labelled
    return Intent("question", True, rules.complexity, True)


def classify_with_llm(llm, text: str) -> Intent:
    """Ask the classify model for one label (grammar-constrained); raises ModelOutputError."""
    label = llm.classify(
        "classify",
        f"Message: {text}\nIs this small talk, or a simple, moderate or complex medical question?",
        LABELS,
        system="You label messages sent to a medical assistant.",
    )
    if label == "small_talk":
        return Intent("acknowledgement", False, None, True)
    return Intent("question", True, label, True)
