"""Korean names written with one letter wrong ("갑상성기능저하증", "류마치스관절염", "고지혈쯩").

People type a long Korean disease name as they hear it: a final consonant swapped (선 ->
성), a tensed initial (증 -> 쯩), a vowel (티 -> 치). The lexicon lists the common
misspellings it knows of; any other is found here: a Hangul word that no lexicon term
covers is compared, letter (jamo) by letter, with the lexicon's Korean names of four or
more syllables, and taken as that name when exactly one jamo is added, dropped or changed.

Short names are left out on purpose: one jamo is a large part of a three-syllable word
("고혈압" and "저혈압" differ by one), so only long names, where one slip cannot turn one
disease into another, are matched this way. Candidates come from a deletion index over the
names' jamo strings, so a word costs a few dictionary look-ups.
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Iterable

from engine.text import HANGUL_WORD, deletions

MIN_SYLLABLES = 4
# What may follow a name inside the same written word.
_ENDINGS = tuple(sorted((
    "이", "가", "은", "는", "을", "를", "도", "의", "에", "로", "으로", "과", "와", "랑", "이랑", "만", "하고", "에서",
    "이면", "면", "인가요", "인데", "이에요", "예요", "이라", "이라서", "이라고", "일까요", "인지", "때문에", "이나",
    "증상", "환자", "진단", "치료", "검사", "약",
), key=len, reverse=True))
_FINAL_NONE = "_"


def jamo(word: str) -> str:
    """'증' -> 'ㅈㅡ_' : initial, vowel and final (or '_') of each syllable."""
    out = []
    for char in word:
        code = ord(char) - 0xAC00
        if 0 <= code < 11172:
            out.append(chr(0x1100 + code // 588) + chr(0x1161 + (code % 588) // 28)
                       + (chr(0x11A7 + code % 28) if code % 28 else _FINAL_NONE))
    return "".join(out)


def _one_edit(a: str, b: str) -> bool:
    """True when `a` and `b` differ by exactly one insertion, deletion or substitution."""
    if a == b or abs(len(a) - len(b)) > 1:
        return False
    if len(a) == len(b):
        return sum(x != y for x, y in zip(a, b)) == 1
    short, long_ = (a, b) if len(a) < len(b) else (b, a)
    return any(long_[:i] + long_[i + 1:] == short for i in range(len(long_)))


@dataclass(frozen=True)
class SpellingMatch:
    start: int
    end: int
    text: str
    concept: str


class KoreanSpellings:
    """The lexicon's long Korean names, indexed to find a word one jamo away from one."""

    def __init__(self, names: Iterable[tuple[str, str]]) -> None:
        """`names`: (Korean name, the concept it names)."""
        self.concept_of: dict[str, str] = {}
        self.by_deletion: dict[str, set[str]] = defaultdict(set)
        for name, concept in names:
            name = name.replace(" ", "")
            if len(name) < MIN_SYLLABLES or not HANGUL_WORD.fullmatch(name):
                continue
            key = jamo(name)
            self.concept_of[key] = concept
            for deleted in deletions(key):
                self.by_deletion[deleted].add(key)

    def match_word(self, word: str) -> str | None:
        """The concept whose name `word` misspells by one jamo; None for a name written
        right, for none, and when two concepts' names are that close."""
        key = jamo(word)
        if key in self.concept_of:
            return None  # written right: the lexicon's own match, not a misspelling
        found = set(self.by_deletion.get(key, ()))
        for deleted in deletions(key):
            found |= self.by_deletion.get(deleted, set())
            if deleted in self.concept_of:
                found.add(deleted)
        concepts = {self.concept_of[k] for k in found if _one_edit(k, key)}
        return concepts.pop() if len(concepts) == 1 else None

    def find(self, text: str, covered: Iterable[tuple[int, int]] = ()) -> list[SpellingMatch]:
        """Misspelt long names in `text` outside the `covered` spans: the whole word, or the
        word less a particle or ending ("갑상성기능저하증이면")."""
        taken = list(covered)
        out = []
        for word in HANGUL_WORD.finditer(text):
            if any(start < word.end() and word.start() < end for start, end in taken):
                continue
            value = word.group(0)
            stems = [value, *(value[: -len(e)] for e in _ENDINGS if value.endswith(e) and len(value) > len(e))]
            for stem in stems:
                if len(stem) < MIN_SYLLABLES:
                    continue
                concept = self.match_word(stem)
                if concept is not None:
                    out.append(SpellingMatch(word.start(), word.start() + len(stem), stem, concept))
                    break
        return out
