"""Merge the shared concept dictionary (concepts.tsv) with the team's lexicons.

The result is one table of concepts that can fill a slot (condition, symptom,
medication, allergen) and the names that point at them, each name owned by exactly one
concept so MedCAT's primary-name linker never meets an ambiguous name.
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass, field
from pathlib import Path

from engine.clinical.lexicon import IGNORE, Lexicon
from engine.text import concept_stem

# Semantic types (UMLS TUIs) that make a concepts.tsv row a symptom or a condition.
SYMPTOM_TYPES = {"T184", "T033"}
CONDITION_TYPES = {"T047", "T019", "T191", "T046", "T048", "T037", "T020", "T190", "T049", "T005", "T007"}
# MedlinePlus page titles that are about care, tests or procedures, not about a disease.
_TOPIC_WORDS = re.compile(
    r"\b(test|tests|testing|exam|examination|scan|screening|surgery|procedure|care|diet|guide|"
    r"removal|repair|replacement|transplant|therapy|discharge|what to ask|series|overview|"
    r"monitoring|insertion|biopsy|vaccine|vaccines|recovery|prevention|in children|"
    r"and pregnancy|during pregnancy|clinical trials|resources|information)\b|"
    r"(ectomy|otomy|ostomy|plasty|scopy|graphy|gram)\b",
    re.IGNORECASE,
)
_DOSAGE_FORM = re.compile(
    r"\s+(injection|oral inhalation|oral|topical|nasal spray|ophthalmic|otic|transdermal|"
    r"rectal|vaginal|sublingual|buccal|inhalation|extended-release|chewable|solution|patch)\b.*$",
    re.IGNORECASE,
)
# "Peanut allergy", "Latex Allergy": allergies are built from the allergen and the cue.
_ALLERGY_NAME = re.compile(r"\S\s+allerg(?:y|ies)\b", re.IGNORECASE)
_ACRONYM = re.compile(r"^[A-Z0-9][A-Z0-9+/.,-]*[A-Z0-9+]?$")
_PARENTHESIS = re.compile(r"\s*\([^)]*\)")
MIN_ENGLISH_NAME = 4
IGNORED_ID = "CS:ignore"
# Longer concepts.tsv names are page titles ("High blood pressure and eye disease").
MAX_ENGLISH_WORDS = 5
MAX_SYNONYMS = 8


@dataclass
class Concept:
    concept_id: str
    name: str
    slot: str
    synonyms: list[str] = field(default_factory=list)
    from_lexicon: bool = False


@dataclass
class ConceptTable:
    concepts: dict[str, Concept] = field(default_factory=dict)
    names: dict[str, str] = field(default_factory=dict)
    surfaces: dict[str, str] = field(default_factory=dict)
    name_status: dict[str, str] = field(default_factory=dict)
    negated_names: set[str] = field(default_factory=set)

    def add_name(self, surface: str, concept_id: str, *, primary: bool) -> bool:
        """Give `surface` to `concept_id` unless an earlier concept already owns it."""
        key = surface.lower()
        if key in self.names:
            return False
        self.names[key] = concept_id
        self.surfaces[key] = surface
        self.name_status[key] = "P" if primary else "A"
        return True


@dataclass
class _Row:
    concept_id: str
    name: str
    preferred: bool
    types: set[str]
    category: str
    collection: str


def read_concepts_tsv(path: Path) -> list[_Row]:
    rows = []
    with path.open(encoding="utf-8", newline="") as handle:
        for record in csv.DictReader(handle, delimiter="\t", quoting=csv.QUOTE_NONE):
            rows.append(_Row(
                concept_id=(record.get("concept_id") or "").strip(),
                name=(record.get("name") or "").strip(),
                preferred=(record.get("preferred") or "").strip() == "1",
                types=set((record.get("semantic_types") or "").split()),
                category=(record.get("category") or "").strip(),
                collection=(record.get("collection") or "").strip(),
            ))
    return [row for row in rows if row.concept_id and row.name]


def slot_for_row(row: _Row) -> str | None:
    """The slot a concepts.tsv row fills, or None when it names no clinical fact."""
    if row.collection.startswith("12_"):
        return None
    if row.category == "Drug":
        return "medication"
    if row.category == "Other":
        return None
    if row.types & CONDITION_TYPES:
        return "condition"
    if row.types & SYMPTOM_TYPES:
        return "symptom"
    if row.category in {"Disease", "Disorders"}:
        return "condition"
    return None


def english_variants(name: str, drug: bool = False) -> list[str]:
    """Usable English surface forms of one concepts.tsv name ([] when it is a page title).
    Drug names also yield the name without its dosage form ("Acetaminophen Injection")."""
    if " - " in name or _TOPIC_WORDS.search(name) or _ALLERGY_NAME.search(name):
        return []
    variants = []
    plain = _PARENTHESIS.sub("", name).strip()
    if plain:
        variants.append(plain)
    stripped = _DOSAGE_FORM.sub("", plain).strip() if drug else plain
    if stripped and stripped != plain:
        variants.append(stripped)
    if plain.count(",") == 1:
        head, tail = (part.strip() for part in plain.split(","))
        if head and tail and len(tail.split()) <= 3:
            variants.append(f"{tail} {head}")
    return variants


def _usable_english(surface: str, blocklist: set[str]) -> bool:
    lowered = surface.lower()
    if lowered in blocklist or len(surface) < MIN_ENGLISH_NAME:
        return False
    if len(surface.split()) > MAX_ENGLISH_WORDS:
        return False
    if _ACRONYM.match(surface) and len(surface) <= 6:
        return False
    return any(ch.isalpha() for ch in surface)


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")


def build_table(rows: list[_Row], lexicon: Lexicon) -> ConceptTable:
    """Lexicon concepts first (they win every name), then concepts.tsv."""
    table = ConceptTable()
    by_name: dict[str, list[_Row]] = {}
    for row in rows:
        by_name.setdefault(row.name.lower(), []).append(row)
        for variant in english_variants(row.name, row.category == "Drug"):
            by_name.setdefault(variant.lower(), []).append(row)

    canonical_ids = _assign_lexicon_ids(lexicon, by_name)
    written = {term.text.lower() for term in lexicon.terms}
    for term in lexicon.terms:
        if term.slot == IGNORE:
            table.concepts.setdefault(IGNORED_ID, Concept(IGNORED_ID, "-", IGNORE, from_lexicon=True))
            table.add_name(term.text, IGNORED_ID, primary=True)
            continue
        concept_id = canonical_ids[term.english.lower()]
        concept = table.concepts.get(concept_id)
        if concept is None:
            concept = table.concepts[concept_id] = Concept(concept_id, term.english, term.slot, from_lexicon=True)
        for surface in (term.text, term.english):
            if surface is term.english and not _canonical_is_a_name(term.english, written, lexicon.blocklist):
                continue
            table.add_name(surface, concept_id, primary=surface == term.english)
        if term.negated:
            table.negated_names.add(term.text)
        if term.language == "en" and term.text.lower() != term.english.lower():
            _add_synonym(concept, term.text)

    anchors = _anchor_names(rows)
    for row in rows:
        slot = slot_for_row(row)
        concept = table.concepts.get(row.concept_id)
        if concept is None:
            if slot is None:
                continue
            concept = table.concepts[row.concept_id] = Concept(row.concept_id, anchors[row.concept_id], slot)
        if not _belongs(row, anchors[row.concept_id]) or (concept.slot != "medication" and _MEDICINE_FAMILY.search(row.name)):
            continue
        for variant in english_variants(row.name, row.category == "Drug"):
            _add_synonym(concept, variant)
            if _usable_english(variant, lexicon.blocklist):
                table.add_name(variant, row.concept_id, primary=row.preferred)
    return table


def _canonical_is_a_name(english: str, written: set[str], blocklist: set[str]) -> bool:
    """A lexicon line's English canonical name is also a name to find, unless it is one of the
    blocklist's ordinary words and no line writes it as a term: "쇼크 → shock" and "낙상 → falls"
    must not make "I was in shock" or "last fall" a mention, while "stroke", blocked from
    concepts.tsv but written in `en_terms.tsv`, still links."""
    lowered = english.lower()
    return lowered not in blocklist or lowered in written


def _anchor_names(rows: list[_Row]) -> dict[str, str]:
    """Per concept, its shortest usable preferred name (else its shortest name)."""
    anchors: dict[str, tuple[bool, int, str]] = {}
    for row in rows:
        usable = english_variants(row.name, row.category == "Drug")
        name = min(usable, key=len) if usable else row.name
        rank = (not (row.preferred and bool(usable)), len(name), name)
        if row.concept_id not in anchors or rank < anchors[row.concept_id]:
            anchors[row.concept_id] = rank
    return {concept_id: rank[2] for concept_id, rank in anchors.items()}


# A family of medicines ("Blood Pressure Medicines", filed under the id the lexicon's normal pressure hydrocephalus
# takes) names no condition or symptom.
_MEDICINE_FAMILY = re.compile(r"\b(?:medicines?|medications?|drugs?|pills?)\s*$|^(?:medicines?|medications?|drugs?)\s+for\b",
                              re.I)


def _content_words(text: str) -> set[str]:
    return {concept_stem(word) for word in re.findall(r"[a-z]{4,}", text.lower())}


def _belongs(row: _Row, anchor: str) -> bool:
    """MedlinePlus groups whole article families under one id ("Bronchodilators" under
    asthma); keep such a name only when it shares a content word with the concept's
    anchor name. GARD/GHR synonyms are real synonyms and are kept."""
    if not row.collection.startswith(("10_", "4_")) or row.name == anchor:
        return True
    return bool(_content_words(row.name) & _content_words(anchor))


def _assign_lexicon_ids(lexicon: Lexicon, by_name: dict[str, list[_Row]]) -> dict[str, str]:
    """Concept id per lexicon canonical name (lower case).

    A canonical name takes a concepts.tsv id when it is that concept's preferred name;
    in a second pass, when it is any name of a concept no other canonical took and the
    slots agree. Everything else gets a Chartside id, so that two findings the team
    keeps apart ("sore throat" and "pharyngitis") never collapse into one.
    """
    canonicals: dict[str, str] = {}
    for term in lexicon.terms:
        if term.slot != IGNORE:
            canonicals.setdefault(term.english.lower(), term.slot)
    assigned: dict[str, str] = {}
    claimed: set[str] = set()
    for preferred_only in (True, False):
        for key, slot in canonicals.items():
            if key in assigned:
                continue
            for row in by_name.get(key, []):
                if row.concept_id in claimed or (preferred_only and not (row.preferred and row.name.lower() == key)):
                    continue
                if slot_for_row(row) not in {slot, None}:
                    continue
                assigned[key] = row.concept_id
                claimed.add(row.concept_id)
                break
    for key in canonicals:
        assigned.setdefault(key, f"CS:{_slug(key)}")
    return assigned


def _add_synonym(concept: Concept, surface: str) -> None:
    if len(concept.synonyms) >= MAX_SYNONYMS:
        return
    if surface.lower() == concept.name.lower():
        return
    if surface.lower() not in (s.lower() for s in concept.synonyms):
        concept.synonyms.append(surface)
