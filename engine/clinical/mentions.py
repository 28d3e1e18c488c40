"""Concept mentions: MedCAT's linked entities, checked at Korean word edges, overlaps resolved.

MedCAT is run with nested entities kept (a pack-wide setting) so that overlaps are
resolved here, in one place, by a rule the rest of the code can rely on: the longest
span wins, and on equal length the earlier one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from engine.clinical.lexicon import IGNORE
from engine.clinical.pack import ClinicalPack
from engine.text import HANGUL, HANGUL_SYLLABLE

# Syllables that, right after a one-syllable noun, are particles rather than part of a word.
_PARTICLE_SYLLABLES = set("이가은는을를도의에와과랑만")
# What may follow a one-syllable Korean term inside the same word ("열이", "열나요", "열감").
_ONE_SYLLABLE_CONTINUATION = re.compile(
    r"(?:이|가|은|는|을|를|도|에|의|만|나|난|났|날|남|이나|이랑|랑|과|와|까지|부터|이고|이요|이에|이었|였|"
    r"예요|이라|라|감|기운|기|증상|환자|진단|치료|수술|검사|때문|으로|로|처럼|같|걸|에서|한테|쪽)"
)
_COUNTER_AFTER_SPACE = re.compile(rf"\s+(?:살|번|개|시|명|일|달|시간|분|배|째|번째|가지|장|권)(?![{HANGUL_SYLLABLE}])")


@dataclass
class Mention:
    """One concept found in the text: a character span linked to a concept id."""

    start: int
    end: int
    text: str
    concept_id: str
    name: str
    slot: str
    medcat_name: str
    negated: bool = False
    negated_form: bool = False

    def as_item(self) -> dict:
        return {
            "name": self.name,
            "concept_id": self.concept_id,
            "text": self.text,
            "start": self.start,
            "end": self.end,
            "negated": self.negated,
        }


def find_mentions(pack: ClinicalPack, text: str) -> list[Mention]:
    """Linked concept mentions in `text`, non-overlapping, in reading order."""
    doc = pack.cat(text)  # type: ignore[operator]
    candidates: list[Mention] = []
    for entity in doc.linked_ents:
        concept = pack.concept(entity.cui)
        if concept is None:
            continue
        start, end = entity.base.start_char_index, entity.base.end_char_index
        if not _fits_korean_word_edges(text, start, end):
            continue
        span = text[start:end]
        candidates.append(Mention(
            start=start, end=end, text=span, concept_id=concept.concept_id, name=concept.name,
            slot=concept.slot, medcat_name=entity.detected_name,
            negated_form=entity.detected_name in pack.negated_names,
        ))
    chosen = _longest_first(candidates)
    return [mention for mention in chosen if mention.slot != IGNORE]


def _longest_first(candidates: list[Mention]) -> list[Mention]:
    """Greedy by length with a character occupancy map: linear in the text, not
    quadratic in the number of candidates (a long note has hundreds)."""
    if not candidates:
        return []
    occupied = bytearray(max(m.end for m in candidates))
    taken: list[Mention] = []
    for mention in sorted(candidates, key=lambda m: (-(m.end - m.start), m.start)):
        if not any(occupied[mention.start: mention.end]):
            occupied[mention.start: mention.end] = b"\x01" * (mention.end - mention.start)
            taken.append(mention)
    return sorted(taken, key=lambda m: m.start)


def _is_hangul(char: str) -> bool:
    return bool(HANGUL.match(char))


def _fits_korean_word_edges(text: str, start: int, end: int) -> bool:
    """Reject Korean matches that are really the inside of another word.

    Hangul syllables are single tokens, so "목이 아파" (sore throat) also matches inside
    "손목이 아파" and "열" (fever) inside "열심히". A match may start inside a word
    only when its own first word has two or more syllables, and a one-syllable term
    must stand as a word of its own, followed only by a particle or ending.
    """
    if not _is_hangul(text[start]):
        return True
    starts_mid_word = start > 0 and _is_hangul(text[start - 1])
    one_syllable = end - start == 1
    if starts_mid_word:
        if one_syllable:
            return False
        second = text[start + 1]
        if second.isspace() or second in _PARTICLE_SYLLABLES:
            return False
    if one_syllable:
        rest = text[end:]
        if rest and _is_hangul(rest[0]) and not _ONE_SYLLABLE_CONTINUATION.match(rest):
            return False
        if _COUNTER_AFTER_SPACE.match(rest):
            return False
    return True
