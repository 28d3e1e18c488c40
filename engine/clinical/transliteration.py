"""Korean transliterations of drug names the lexicon does not list ("펜터민", "글루카곤").

Korean writes a foreign drug name by its sound, and it does so regularly: 메트포르민 is
metformin, 퀴닌 quinine, 디사이클로민 dicyclomine. The lexicon cannot list all 1,400 drugs
of the knowledge base, so a Hangul word that no lexicon term covers is compared by sound
with the pack's English drug names:

- both sides become a rough phonetic string: consonants folded into the classes Korean
  keeps apart (p, t, k, s, l, m, n, h, ng; f/v/b -> p, d -> t, r/l -> l, z/j/ch -> s),
  vowels into a, e, i, o, u, the epenthetic ㅡ of 트/드/르 dropped;
- candidates come from a deletion index over the consonant skeletons (one consonant
  more or less, l and h optional: 메트포민 and 메트포르민 are both metformin);
- the best candidate by string similarity is taken only when it is close: an exact
  sound for a two-syllable word, 0.9 for three syllables and 0.85 for longer ones.

The thresholds were chosen on the lexicon's Korean drug names of the time (155 of 172
transliterations found, none wrong above the threshold) and on ordinary Korean prose (the
design documents, the app's own Korean text), where short everyday words ("쓰러질",
"퍼센트") sound like drug names at 0.86-0.88; hence the stricter bar for short words.
With today's lexicon, the first Korean name of each of its 667 medication rows is found as
that row's drug by sound alone for 540, as another drug for 2 (이매티닙 -> osimertinib,
칼시포트리올 -> calcitriol) and not at all for 125 (mostly classes such as 진통제). Korean
names of the lexicon's other concepts and of labs are never drugs ("크레아티닌" sounds
like creatine), and names shorter than five sounds ("goji" ~ 고지) are left out.
"""

from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Iterable

from engine.text import HANGUL_WORD, deletions

_INITIALS = ("k", "k", "n", "t", "t", "l", "m", "p", "p", "s", "s", "", "s", "s", "s", "k", "t", "p", "h")
_VOWELS = ("a", "e", "a", "e", "e", "e", "o", "e", "o", "a", "e", "e", "o", "u", "o", "e", "i", "u", "", "i", "i")
_FINALS = ("", "k", "k", "k", "n", "n", "n", "t", "l", "l", "m", "l", "l", "l", "p", "l", "m", "p", "p", "t",
           "t", "N", "t", "t", "k", "t", "p", "")
_ENGLISH_VOWEL_RULES = ((r"ate$", "eit"), (r"ide$", "aid"), (r"(?<=[sm])y(?=[^aeiou])", "ai"), (r"ine$", "in"),
                        (r"one$", "on"), (r"e$", ""))
_ENGLISH_CONSONANT_RULES = (
    (r"ph", "p"), (r"th", "t"), (r"ch", "k"), (r"sh", "s"), (r"ck", "k"), (r"x", "ks"), (r"qu", "k"), (r"q", "k"),
    (r"c(?=[eiy])", "s"), (r"c", "k"), (r"g", "k"), (r"[bfv]", "p"), (r"d", "t"), (r"[zj]", "s"), (r"r", "l"),
    (r"ng(?![aeiouy])", "N"),
)
_VOWEL = re.compile(r"[aeiou]")
_DOUBLE_CONSONANT = re.compile(r"([^aeiou])\1+")
# Particles and dosage forms written onto a drug name ("글루카곤을", "니코틴껌", "퀴닌정").
_SUFFIXES = tuple(sorted((
    "이", "가", "은", "는", "을", "를", "도", "의", "에", "로", "으로", "과", "와", "랑", "이랑", "만", "하고", "에서",
    "이나", "나", "이요", "요", "이에요", "예요", "인가요", "이라", "라", "처럼", "까지", "부터", "보다",
    "정", "약", "주사", "주사제", "크림", "연고", "시럽", "패치", "캡슐", "껌", "알약", "제",
), key=len, reverse=True))
EXACT_ONLY_SYLLABLES = 2
THRESHOLDS = {3: 0.9}
LONG_THRESHOLD = 0.85
MIN_SKELETON = 4
# A name shorter than this by sound is too close to everyday words ("goji" ~ 고지, 고치).
MIN_SOUND = 5


def korean_sound(word: str) -> str:
    """'메트포르민' -> 'metpolmin' (see the module docstring)."""
    out = []
    for char in word:
        code = ord(char) - 0xAC00
        if 0 <= code < 11172:
            out.append(_INITIALS[code // 588] + _VOWELS[(code % 588) // 28] + _FINALS[code % 28])
    return _DOUBLE_CONSONANT.sub(r"\1", "".join(out))


def english_sounds(name: str) -> set[str]:
    """'metformin' -> {'metpolmin', 'metpomin'}: Korean writes an r before a consonant
    (메트포르민) or leaves it out (펜터민 phentermine), so both are kept."""
    word = re.sub(r"[^a-z]", "", name.lower())
    return {english_sound(word), english_sound(re.sub(r"(?<=[aeiou])r(?=[^aeiouy])", "", word))}


def english_sound(name: str) -> str:
    """'metformin' -> 'metpolmin'."""
    word = re.sub(r"[^a-z]", "", name.lower())
    for pattern, repl in _ENGLISH_VOWEL_RULES:
        word = re.sub(pattern, repl, word)
    for pattern, repl in _ENGLISH_CONSONANT_RULES:
        word = re.sub(pattern, repl, word)
    word = re.sub(r"(?<=[aeiou])y|y(?=[aeiou])", "", word).replace("y", "i").replace("w", "")
    word = re.sub(r"(?<![aeiou])h|h(?![aeiou])", "", word)
    return _DOUBLE_CONSONANT.sub(r"\1", word)


def _skeleton(sound: str) -> str:
    return _DOUBLE_CONSONANT.sub(r"\1", _VOWEL.sub("", sound))


def _variants(skeleton: str) -> set[str]:
    return {skeleton, re.sub(r"[lh]", "", skeleton)}


@dataclass(frozen=True)
class SoundMatch:
    start: int
    end: int
    text: str
    name: str
    similarity: float


class DrugSounds:
    """English drug names indexed by sound, for Hangul words the lexicon does not cover."""

    def __init__(self, names: Iterable[str], not_drugs: Iterable[str] = ()) -> None:
        """`not_drugs`: Korean words that sound like a drug but name something else (the
        lab "크레아티닌" sounds like creatine)."""
        self.not_drugs = frozenset(w.replace(" ", "") for w in not_drugs)
        self.sounds: dict[str, set[str]] = defaultdict(set)
        self.by_sound: dict[str, set[str]] = defaultdict(set)
        self.by_skeleton: dict[str, set[str]] = defaultdict(set)
        self.by_deletion: dict[str, set[str]] = defaultdict(set)
        for name in names:
            if not name or not name.isascii() or " " in name.strip():
                continue
            for sound in english_sounds(name):
                if len(sound) < MIN_SOUND:
                    continue
                self.sounds[name].add(sound)
                self.by_sound[sound].add(name)
                for variant in _variants(_skeleton(sound)):
                    self.by_skeleton[variant].add(name)
                    for deleted in deletions(variant):
                        self.by_deletion[deleted].add(name)

    def match_word(self, word: str) -> tuple[str, float] | None:
        """The drug name `word` (Hangul, no particle) sounds like, with its similarity."""
        if word in self.not_drugs:
            return None
        sound = korean_sound(word)
        exact = sorted(self.by_sound.get(sound, ()))
        if exact:
            return exact[0], 1.0
        if len(word) <= EXACT_ONLY_SYLLABLES:
            return None
        skeleton = _skeleton(sound)
        if len(skeleton) < MIN_SKELETON:
            return None
        found: set[str] = set()
        for variant in _variants(skeleton):
            found |= self.by_skeleton.get(variant, set()) | self.by_deletion.get(variant, set())
            for deleted in deletions(variant):
                found |= self.by_skeleton.get(deleted, set()) | self.by_deletion.get(deleted, set())
        if not found:
            return None
        score, name = max((max(SequenceMatcher(None, sound, s).ratio() for s in self.sounds[n]), n)
                          for n in sorted(found))
        return (name, score) if score >= THRESHOLDS.get(len(word), LONG_THRESHOLD) else None

    def find(self, text: str, covered: Iterable[tuple[int, int]] = ()) -> list[SoundMatch]:
        """Drug names written in Hangul in `text`, outside the `covered` spans."""
        taken = list(covered)
        out = []
        for word in HANGUL_WORD.finditer(text):
            if any(start < word.end() and word.start() < end for start, end in taken):
                continue
            hits = [(hit[1], -len(stem), stem, hit[0]) for stem in _stems(word.group(0))
                    if (hit := self.match_word(stem)) is not None]
            if hits:
                score, _, stem, name = max(hits)
                out.append(SoundMatch(word.start(), word.start() + len(stem), stem, name, round(score, 3)))
        return out


def _stems(word: str) -> list[str]:
    """The word, then the word without one or two particles or dosage forms."""
    stems = [word]
    for _ in range(2):
        base = stems[-1]
        stripped = next((base[: -len(s)] for s in _SUFFIXES if base.endswith(s) and len(base) - len(s) >= 2), None)
        if stripped is None:
            break
        stems.append(stripped)
    return stems
