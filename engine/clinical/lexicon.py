"""The team's own lexicons in resources/clinical/: parsing and Korean phrase expansion.

Term files (`ko_terms.tsv`, `en_terms.tsv`) have three tab-separated columns:
`terms` (alternatives separated by `|`), `english` (the canonical English name) and
`slot` (condition, symptom, medication, allergen). A Korean term written `noun+stem`
is a lay phrase ("머리+아프" = my head hurts): it expands to every particle and
conjugation listed for the stem in `ko_predicates.tsv`, plus the same forms negated with
"안" ("머리는 안 아파"); those are recorded so that the match itself reads as negated.
Terms whose own meaning contains "안" ("잠이 안 와" = insomnia) are plain terms.
An English term may hold `{my}` (or `{a}`) where a lay phrase names whose body part or which
thing ("bleach in {my} eye", "stung by {a} bee"): it expands to each word of `ENGLISH_DETERMINERS`,
so that "bleach in his eye" and "stung by a bee" match as written.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from engine.errors import ConfigError
from engine.paths import resources_dir

SLOTS = ("condition", "symptom", "medication", "allergen")
IGNORE = "ignore"
# The lexicon files a pack is built from (the drug-class and rule tables are read at run time).
PACK_LEXICON_FILES = ("ko_terms.tsv", "en_terms.tsv", "ko_predicates.tsv", "en_blocklist.txt")

# What `{my}` (or `{a}`) in an English term stands for: the words that name whose or which thing.
ENGLISH_DETERMINERS = ("my", "his", "her", "their", "your", "our", "the", "a", "an")
_DETERMINER_SLOT = re.compile(r"\{(?:my|a)\}")

# Particles that may sit between a noun and its predicate ("머리가 아파", "열은 없어").
_PHRASE_PARTICLES = ("", "이", "가", "은", "는", "도")


def lexicon_dir() -> Path:
    return resources_dir() / "clinical"


@dataclass(frozen=True)
class LexiconTerm:
    """One surface form that names a concept."""

    text: str
    english: str
    slot: str
    language: str
    negated: bool = False
    # The first name of its row, when that is a name and not a lay phrase: what a reader is
    # shown for the concept ("대상포진 백신", not the brand "조스타박스" further on).
    primary: bool = False


@dataclass
class Lexicon:
    terms: list[LexiconTerm] = field(default_factory=list)
    blocklist: set[str] = field(default_factory=set)


def read_rows(path: Path, columns: int) -> list[list[str]]:
    """Rows of a tab-separated lexicon file; `#` starts a comment line."""
    rows = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        parts = [part.strip() for part in line.split("\t")]
        if len(parts) < columns:
            raise ConfigError(f"{path.name}:{number}: expected {columns} tab-separated columns")
        rows.append(parts)
    return rows


def predicate_forms(directory: Path) -> dict[str, tuple[str, ...]]:
    return {stem: tuple(forms.split("|")) for stem, forms in read_rows(directory / "ko_predicates.tsv", 2)}


def expand_phrase(noun: str, stem: str, forms: dict[str, tuple[str, ...]]) -> list[tuple[str, bool]]:
    """All surface forms of a Korean lay phrase as (text, negated) pairs."""
    if stem not in forms:
        raise ConfigError(f"ko_predicates.tsv has no stem {stem!r} (used by {noun}+{stem})")
    particles = _PHRASE_PARTICLES if noun else ("",)
    variants = []
    for particle in particles:
        for form in forms[stem]:
            variants.append((f"{noun}{particle} {form}".strip(), False))
            variants.append((f"{noun}{particle} 안 {form}".strip(), True))
    return variants


# A Korean lay phrase ends in a verb form or says "안" ("소변이 안 나와", "축 늘어", "배가 아파"); a
# long last word ending in 파 is a name ("레보도파 카르비도파").
_LAY_PHRASE = re.compile(r"\s안\s|\s\S*[와어아요해워져돼]$|\s\S{1,2}파$")


def _is_lay_phrase(text: str) -> bool:
    return bool(_LAY_PHRASE.search(text))


def expand_determiners(text: str) -> list[str]:
    """An English term with `{my}`/`{a}` slots as every phrase it stands for (one slot at a time,
    each taking each of ENGLISH_DETERMINERS); a term without a slot as itself."""
    match = _DETERMINER_SLOT.search(text)
    if match is None:
        return [text]
    return [phrase for word in ENGLISH_DETERMINERS
            for phrase in expand_determiners(f"{text[:match.start()]}{word}{text[match.end():]}")]


def _terms_from(path: Path, language: str, forms: dict[str, tuple[str, ...]]) -> list[LexiconTerm]:
    terms: list[LexiconTerm] = []
    for surface, english, slot in (row[:3] for row in read_rows(path, 3)):
        if slot not in SLOTS and slot != IGNORE:
            raise ConfigError(f"{path.name}: unknown slot {slot!r} for {surface!r}")
        for position, alternative in enumerate(filter(None, (part.strip() for part in surface.split("|")))):
            if language == "en" and _DETERMINER_SLOT.search(alternative):
                terms.extend(LexiconTerm(text, english, slot, language) for text in expand_determiners(alternative))
            elif position == 0 and "+" not in alternative and not _is_lay_phrase(alternative):
                terms.append(LexiconTerm(alternative, english, slot, language, primary=True))
            elif "+" in alternative:
                noun, _, stem = alternative.partition("+")
                for text, negated in expand_phrase(noun.strip(), stem.strip(), forms):
                    terms.append(LexiconTerm(text, english, slot, language, negated))
            else:
                terms.append(LexiconTerm(alternative, english, slot, language))
    return terms


@lru_cache(maxsize=4)
def load_lexicon(directory: Path | None = None) -> Lexicon:
    directory = directory or lexicon_dir()
    forms = predicate_forms(directory)
    terms = _terms_from(directory / "ko_terms.tsv", "ko", forms) + _terms_from(directory / "en_terms.tsv", "en", forms)
    blocklist = {
        line.strip().lower()
        for line in (directory / "en_blocklist.txt").read_text(encoding="utf-8").splitlines()
        if line.strip() and not line.startswith("#")
    }
    return Lexicon(terms=terms, blocklist=blocklist)


@lru_cache(maxsize=1)
def korean_names() -> dict[str, str]:
    """English canonical name (lower case) -> the lexicon's Korean name for it, for naming
    concepts to a Korean reader: the first name of its row ("대상포진 백신", "제2형 당뇨"),
    else a one-word name ("아목시실린"), never a lay phrase when a name exists."""
    terms = [t for t in load_lexicon().terms if t.language == "ko" and not t.negated and t.slot != IGNORE]
    names: dict[str, str] = {}
    for term in terms:
        if term.primary:
            names.setdefault(term.english.lower(), term.text)
    for term in terms:
        if " " not in term.text.strip():
            names.setdefault(term.english.lower(), term.text)
    for term in terms:
        names.setdefault(term.english.lower(), term.text)
    return names


_WORD = re.compile(r"[A-Za-z][A-Za-z0-9']*")


@lru_cache(maxsize=1)
def english_display_names() -> dict[str, str]:
    """English canonical name (lower case) -> the same name with the letter case its own row
    writes ("gerd" -> "GERD", "hiv/aids" -> "HIV/AIDS", "ace inhibitors" -> "ACE inhibitors"),
    only for the canonical names whose row spells a word of them with capitals inside it. A
    word is cased from its own row's terms only, so "aids" elsewhere stays "aids"."""
    cased: dict[str, dict[str, str]] = {}
    for term in load_lexicon().terms:
        if term.language != "en" or term.negated:
            continue
        for word in _WORD.findall(term.text):
            if any(letter.isupper() for letter in word[1:]):
                cased.setdefault(term.english.lower(), {}).setdefault(word.lower(), word)
    names = {}
    for canonical, words in cased.items():
        display = _WORD.sub(lambda m: words.get(m.group(0).lower(), m.group(0)), canonical)
        if display != canonical:
            names[canonical] = display
    return names


@lru_cache(maxsize=8)
def english_names(slot: str) -> frozenset[str]:
    """The lexicon's English names (lower case) of the things in `slot` ("symptom": "cough",
    "hoarseness", "shortness of breath", ...): the canonical names of its Korean and English rows
    and the English rows' own terms."""
    lexicon = load_lexicon()
    names = {t.english.lower() for t in lexicon.terms if t.slot == slot and not t.negated}
    names |= {t.text.lower() for t in lexicon.terms if t.slot == slot and t.language == "en" and not t.negated}
    return frozenset(n for n in names if n.isascii())


@lru_cache(maxsize=1)
def korean_name_slots() -> dict[str, str]:
    """The lexicon's Korean name (as `korean_names` gives it) -> its slot (condition, symptom,
    medication, allergen): what kind of thing a Korean name names."""
    english_slot = {t.english.lower(): t.slot for t in load_lexicon().terms if t.language == "ko" and t.slot != IGNORE}
    return {name: english_slot[english] for english, name in korean_names().items() if english in english_slot}


def korean_term_count(directory: Path | None = None) -> int:
    """Distinct Korean names written in the lexicon (a lay phrase counts once; the
    disambiguation words of the `ignore` slot do not count)."""
    directory = directory or lexicon_dir()
    names = set()
    for surface, _english, slot in (row[:3] for row in read_rows(directory / "ko_terms.tsv", 3)):
        if slot != IGNORE:
            names.update(part.strip() for part in surface.split("|") if part.strip())
    return len(names)
