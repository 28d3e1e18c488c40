"""Allergies: which drug or allergen mentions are stated as allergies, and their reactions.

"페니실린 알레르기", "설파제에 알레르기가 있어요", "아스피린 먹으면 두드러기가 나요",
"allergic to penicillin and sulfa", "aspirin-sensitive", "codeine gave me hives".
Mentions used here (the allergen, the reaction, the word "allergy" itself) are consumed,
so they are not also reported as medications, symptoms or conditions.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from engine.clinical.mentions import Mention

ALLERGEN_SLOTS = {"medication", "allergen"}
# Reactions that make "X gave me ..." an allergy (a cough after an ACE inhibitor or
# diarrhoea after metformin is a side effect, not an allergy).
ALLERGIC_REACTIONS = {"hives", "rash", "itching", "swelling", "angioedema", "anaphylaxis", "wheezing", "red eye"}
# Reactions attached to an allergy stated by other words ("allergic to codeine: vomiting").
REACTIONS = ALLERGIC_REACTIONS | {
    "shortness of breath", "nausea", "vomiting", "diarrhea", "dizziness", "abdominal pain", "fainting",
    "sore throat", "runny nose", "sneezing", "nasal congestion", "cough", "headache", "palpitations",
}
ALLERGY_WORDS = {"allergy", "anaphylaxis"}

_CUE = re.compile(
    r"알레르기|알러지|알르레기|앨러지|알레르|과민\s*반응|과민증|과민성|쇼크|아나필락시스|"
    r"allerg(?:y|ies|ic)|hypersensitiv(?:e|ity)|anaphylaxis|anaphylactic|"
    r"sensitiv(?:e|ity)\s+to|intoleran(?:t|ce)\s+(?:to|of)|reactions?\s+to|(?<=[a-z])-sensitive|\bsensitivity\b",
    re.IGNORECASE | re.ASCII,
)
_GAP_BEFORE_CUE = re.compile(
    r"^[\s,\-]*(?:(?:에|에는|에도|에\s*대한|에\s*대해서?|이|가|은|는|도|을|를|와|과|이랑|랑|하고|계열|계|류|성|약|약물|제|"
    r"항생제|성분|주사|drug|drugs|medication|medications|antibiotics?|family|class)[\s,\-]*)*$",
    re.IGNORECASE | re.ASCII,
)
_GAP_AFTER_CUE = re.compile(
    r"^[\s:,\-]*(?:(?:to|is|are|include|includes|including|both|the|a|an|any|all|like|such\s+as|e\.g\.|eg|"
    r"가|는|이|있는|약|약물|약은|약물은|음식|음식은|:|-|,)[\s:,\-]*)*$",
    re.IGNORECASE | re.ASCII,
)
_KOREAN_TRIGGER = re.compile(
    r"(?:을|를|은|는)?\s*(?:먹으면|먹고|먹었더니|먹었을\s*때|먹을\s*때|먹으니까|먹자마자|맞으면|맞고|맞았더니|맞았을\s*때|"
    r"복용하면|복용\s*후|복용하고|바르면|바르고|쓰면|드시면|먹은\s*후|먹은\s*뒤|먹고\s*나서|만지면|닿으면|쏘이면|쏘였더니|쏘여서)"
)
_ENGLISH_TRIGGER = re.compile(
    r"\b(?:gives?|gave|causes?|caused|makes?|made|triggers?|triggered|brings?\s+on|broke\s+me\s+out\s+in|breaks?\s+me\s+out\s+in)\b"
    r"(?:\s+me)?(?:\s+(?:break\s+out\s+in|get|have|develop|swell|itch))?|\bfrom\b|\bafter\s+(?:taking|eating|using)\b",
    re.IGNORECASE | re.ASCII,
)
_NO_KNOWN = re.compile(
    r"\bNKDA\b|\bNKA\b|\bno\s+(?:known\s+)?(?:drug\s+|food\s+)?allerg|(?:don'?t|do\s+not|doesn'?t|does\s+not|never)\s+(?:have\s+)?(?:any\s+)?(?:known\s+)?(?:drug\s+)?allerg"
    r"|not\s+allergic\s+to\s+anything|알레르기(?:는|가)?\s*(?:전혀\s*)?없|알러지(?:는|가)?\s*없|알레르기\s*(?:체질은?\s*)?아니",
    re.IGNORECASE | re.ASCII,
)
MAX_CUE_GAP = 14
MAX_REACTION_GAP = 40


@dataclass
class AllergyResult:
    items: list[dict] = field(default_factory=list)
    consumed: set[int] = field(default_factory=set)
    none_known: bool = False


def find_allergies(text: str, mentions: list[Mention]) -> AllergyResult:
    result = AllergyResult(none_known=bool(_NO_KNOWN.search(text)))
    cues = [cue for cue in _CUE.finditer(text)]
    allergic: dict[int, Mention] = {}
    for index, mention in enumerate(mentions):
        if mention.slot not in ALLERGEN_SLOTS:
            continue
        if _next_to_cue(text, mentions, index, cues) or _triggers_reaction(text, mentions, index):
            allergic[index] = mention
    _spread_along_lists(text, mentions, allergic)
    for index in sorted(allergic):
        mention = allergic[index]
        item = mention.as_item()
        reaction = _reaction_for(text, mentions, index)
        if reaction is not None:
            item["reaction"] = mentions[reaction].name
            result.consumed.add(reaction)
            result.consumed.update(_listed_after(text, mentions, reaction, REACTIONS))
        result.items.append(item)
        result.consumed.add(index)
    for index, mention in enumerate(mentions):
        if mention.name in ALLERGY_WORDS and (result.none_known or _cue_word_beside_allergen(index, allergic, mentions, text)):
            result.consumed.add(index)
    return result


def _listed_after(text: str, mentions: list[Mention], first: int, names: set[str]) -> list[int]:
    """Reactions listed after the first one ("hives and vomiting")."""
    listed = []
    for index in range(first + 1, len(mentions)):
        gap = text[mentions[index - 1].end: mentions[index].start]
        if mentions[index].name not in names or not _LIST.match(gap):
            break
        listed.append(index)
    return listed


def _between_is_free(mentions: list[Mention], start: int, end: int, skip: int) -> bool:
    return all(m.end <= start or m.start >= end for i, m in enumerate(mentions) if i != skip and m.name not in ALLERGY_WORDS)


def _next_to_cue(text: str, mentions: list[Mention], index: int, cues: list[re.Match]) -> bool:
    mention = mentions[index]
    for cue in cues:
        if cue.start() >= mention.end:
            gap = text[mention.end: cue.start()]
            if len(gap) <= MAX_CUE_GAP and _GAP_BEFORE_CUE.match(gap):
                return True
        elif cue.end() <= mention.start:
            gap = text[cue.end(): mention.start]
            if len(gap) <= MAX_CUE_GAP + 6 and _GAP_AFTER_CUE.match(gap) and _between_is_free(mentions, cue.end(), mention.start, index):
                return True
    return False


def _triggers_reaction(text: str, mentions: list[Mention], index: int) -> bool:
    """"아스피린 먹으면 두드러기가 나요", "codeine gave me hives", "a rash with amoxicillin"."""
    mention = mentions[index]
    after = text[mention.end: mention.end + MAX_REACTION_GAP]
    trigger = _KOREAN_TRIGGER.match(after) or _ENGLISH_TRIGGER.match(after.lstrip())
    reaction = _reaction_for(text, mentions, index, ALLERGIC_REACTIONS) if trigger else None
    if reaction is not None and mentions[reaction].start >= mention.end:
        return True
    for other in reversed(mentions[max(0, index - 3): index]):
        if other.name in ALLERGIC_REACTIONS and not other.negated:
            gap = text[other.end: mention.start]
            if len(gap) <= 25 and _REACTION_BEFORE_DRUG.match(gap):
                return True
    return False


_REACTION_BEFORE_DRUG = re.compile(
    r"^[^.!?;]{0,12}?\b(?:with|from|after|to|when\s+i\s+(?:take|took|use)|whenever\s+i\s+(?:take|use)|after\s+(?:taking|eating|using))\s+(?:the\s+|my\s+|a\s+)?$",
    re.IGNORECASE | re.ASCII,
)


def _reaction_for(text: str, mentions: list[Mention], index: int, reactions: set[str] = REACTIONS) -> int | None:
    """The nearest reaction after the allergen (or before it, joined by "from/with/때문"),
    with no other drug or allergen in between."""
    mention = mentions[index]
    for other_index in range(index + 1, len(mentions)):
        other = mentions[other_index]
        if other.start - mention.end > MAX_REACTION_GAP:
            break
        if other.slot in ALLERGEN_SLOTS:
            break
        if other.name in reactions and not other.negated and not _SENTENCE_END.search(text[mention.end: other.start]):
            return other_index
    for other_index in range(index - 1, -1, -1):
        other = mentions[other_index]
        if mention.start - other.end > MAX_REACTION_GAP or other.slot in ALLERGEN_SLOTS:
            break
        gap = text[other.end: mention.start]
        if (other.name in reactions and not other.negated and not _SENTENCE_END.search(gap)
                and re.search(r"\b(?:from|after|with)\b|때문", gap, re.IGNORECASE | re.ASCII)):
            return other_index
    return None


_SENTENCE_END = re.compile(r"[!?;\n]|\.(?!\d)")


_LIST = re.compile(r"^[\s,/·]*(?:(?:이나|나|이랑|랑|하고|과|와|및|또는|,|or|and|as\s+well\s+as|&|/)[\s,]*)+$|^\s*,?\s*$", re.IGNORECASE | re.ASCII)


def _spread_along_lists(text: str, mentions: list[Mention], allergic: dict[int, Mention]) -> None:
    """"penicillin, sulfa and aspirin": the cue reaches one of them, the list carries it."""
    changed = True
    while changed:
        changed = False
        for index, mention in enumerate(mentions):
            if index in allergic or mention.slot not in ALLERGEN_SLOTS:
                continue
            for neighbour in (index - 1, index + 1):
                if neighbour in allergic:
                    low, high = sorted((index, neighbour))
                    gap = text[mentions[low].end: mentions[high].start]
                    if _LIST.match(gap):
                        allergic[index] = mention
                        changed = True
                        break


def _cue_word_beside_allergen(index: int, allergic: dict[int, Mention], mentions: list[Mention], text: str) -> bool:
    word = mentions[index]
    for allergen in allergic.values():
        low, high = (allergen.end, word.start) if allergen.end <= word.start else (word.end, allergen.start)
        if 0 <= high - low <= MAX_CUE_GAP + 6:
            return True
    return False
