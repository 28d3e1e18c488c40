"""The team's own lexicons in resources/clinical/: parsing and Korean phrase expansion.

Term files (`ko_terms.tsv`, `en_terms.tsv`) have three tab-separated columns:
`terms` (alternatives separated by `|`), `english` (the canonical English name) and
`slot` (condition, symptom, medication, allergen). A Korean term written `noun+stem`
is a lay phrase ("머리+아프" = my head hurts): it expands to every particle and
conjugation listed for the stem in `ko_predicates.tsv`. The negator "안" needs no
variants: the Hangul tagger skips it, so "머리는 안 아파" matches the phrase and the
negation rules see the "안" inside the span. Terms whose meaning contains "안"
("잠이 안 와" = insomnia) are listed by `inherent_negation_terms`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from engine.clinical.text import KOREAN_NEGATOR
from engine.errors import ConfigError
from engine.paths import resources_dir

SLOTS = ("condition", "symptom", "medication", "allergen")
IGNORE = "ignore"
LEXICON_FILES = (
    "ko_terms.tsv",
    "en_terms.tsv",
    "ko_predicates.tsv",
    "en_blocklist.txt",
    "drug_classes.tsv",
    "classes.tsv",
    "interactions.tsv",
    "contraindications.tsv",
)

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


@dataclass
class Lexicon:
    terms: list[LexiconTerm] = field(default_factory=list)
    blocklist: set[str] = field(default_factory=set)

    def canonical_slots(self) -> dict[str, str]:
        """English canonical name (lower case) -> slot, first declaration wins."""
        slots: dict[str, str] = {}
        for term in self.terms:
            slots.setdefault(term.english.lower(), term.slot)
        return slots


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


def expand_phrase(noun: str, stem: str, forms: dict[str, tuple[str, ...]]) -> list[str]:
    """All surface forms of a Korean lay phrase."""
    if stem not in forms:
        raise ConfigError(f"ko_predicates.tsv has no stem {stem!r} (used by {noun}+{stem})")
    particles = _PHRASE_PARTICLES if noun else ("",)
    return [f"{noun}{particle} {form}".strip() for particle in particles for form in forms[stem]]


def _terms_from(path: Path, language: str, forms: dict[str, tuple[str, ...]]) -> list[LexiconTerm]:
    terms: list[LexiconTerm] = []
    for surface, english, slot in (row[:3] for row in read_rows(path, 3)):
        if slot not in SLOTS and slot != IGNORE:
            raise ConfigError(f"{path.name}: unknown slot {slot!r} for {surface!r}")
        for alternative in filter(None, (part.strip() for part in surface.split("|"))):
            if "+" in alternative:
                noun, _, stem = alternative.partition("+")
                for text in expand_phrase(noun.strip(), stem.strip(), forms):
                    terms.append(LexiconTerm(text, english, slot, language))
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


def korean_term_count(directory: Path | None = None) -> int:
    """Distinct Korean names written in the lexicon (phrase expansions not counted)."""
    directory = directory or lexicon_dir()
    names = set()
    for surface, _english, _slot in (row[:3] for row in read_rows(directory / "ko_terms.tsv", 3)):
        names.update(part.strip() for part in surface.split("|") if part.strip())
    return len(names)


def inherent_negation_terms(lexicon: Lexicon) -> list[str]:
    """Korean terms that contain the negator "안" as part of their meaning."""
    return [term.text for term in lexicon.terms if term.language == "ko" and KOREAN_NEGATOR.search(term.text)]
