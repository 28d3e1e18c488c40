"""Cross-lingual query expansion: Korean concept mentions -> English names and synonyms.

The embedding model is English-only, so a Korean query reaches English documents
through the concepts it names: "당뇨약 먹으면 저혈당 오나요" adds "antidiabetic drugs",
"hypoglycemia", "low blood sugar", ...
"""

from __future__ import annotations

from engine.clinical.allergies import ALLERGY_WORDS, find_allergies
from engine.clinical.demographics import find_demographics
from engine.clinical.drug_alerts import class_names
from engine.clinical.lexicon import IGNORE, load_lexicon
from engine.clinical.measurements import find_measurements, lab_names, load_specs, measured_conditions
from engine.clinical.mentions import Mention, find_mentions
from engine.clinical.misspelling import KoreanSpellings
from engine.clinical.negation import apply_negation
from engine.clinical.pack import ClinicalPack
from engine.clinical.slots import get_pack
from engine.clinical.transliteration import DrugSounds
from engine.text import has_hangul


class KoreanConceptExpander:
    """`engine.protocols.QueryExpander` for Korean and mixed Korean-English queries."""

    def __init__(self, pack: ClinicalPack | None = None, synonyms_per_concept: int = 3) -> None:
        self._pack = pack
        self.synonyms_per_concept = synonyms_per_concept

    @property
    def pack(self) -> ClinicalPack:
        if self._pack is None:
            self._pack = get_pack()
        return self._pack

    def expand(self, query: str) -> list[str]:
        """English preferred names and synonyms of the (non-negated) concepts written in
        Korean in `query`; [] for English-only queries or when nothing is recognised."""
        if not query or not has_hangul(query):
            return []
        mentions = find_mentions(self.pack, query)
        apply_negation(query, mentions)
        terms: list[str] = []
        seen = {word.lower() for word in query.split()}
        for mention in mentions:
            if mention.negated or not has_hangul(mention.text):
                continue
            concept = self.pack.concept(mention.concept_id)
            if concept is None:
                continue
            for term in [concept.name, *concept.synonyms[: self.synonyms_per_concept]]:
                key = term.lower()
                if key not in seen:
                    seen.add(key)
                    terms.append(term)
        return terms


class PackConceptFinder:
    """Concept mentions of any text (Korean, English, mixed) for query translation
    (`engine.knowledge.translation.ConceptFinder`): English name, synonyms, slot, span,
    negation, and a medicine's drug classes. Korean synonyms are left out: the knowledge base is English. Beyond the
    lexicon, a drug written in Hangul is found by its sound (engine.clinical.transliteration)
    and a long Korean name with one letter wrong by its spelling (engine.clinical.misspelling)."""

    def __init__(self, pack: ClinicalPack | None = None, synonyms: int = 6) -> None:
        self._pack = pack
        self.synonyms = synonyms
        self._sounds: DrugSounds | None = None
        self._spellings: KoreanSpellings | None = None
        self._drugs: dict[str, str] = {}
        self._by_name: dict[str, str] = {}
        self._by_synonym: dict[str, str] | None = None

    @property
    def pack(self) -> ClinicalPack:
        if self._pack is None:
            self._pack = get_pack()
        return self._pack

    def __call__(self, text: str) -> list[dict]:
        if not text or not text.strip():
            return []
        mentions = find_mentions(self.pack, text)
        if has_hangul(text):
            mentions = self._beyond_lexicon(text, mentions)
        apply_negation(text, mentions)
        found = find_allergies(text, mentions)
        allergic = {item["start"] for item in found.items}
        allergic.update(mentions[i].start for i in found.consumed if mentions[i].name in ALLERGY_WORDS)
        out = []
        for mention in mentions:
            concept = self.pack.concept(mention.concept_id)
            synonyms = [s for s in (concept.synonyms if concept else []) if not has_hangul(s)]
            out.append({"name": mention.name, "synonyms": synonyms[: self.synonyms], "slot": mention.slot,
                        "start": mention.start, "end": mention.end, "negated": mention.negated,
                        "text": mention.text, "allergy": mention.start in allergic,
                        "classes": class_names(mention.name) if mention.slot == "medication" else []})
        return self._with_lab_tests(text, out)

    def _with_lab_tests(self, text: str, mentions: list[dict]) -> list[dict]:
        """Lab tests no concept covers, as mentions of slot "test": "당화혈색소 정상 수치가 얼마예요?"
        and "What does a high ALT mean?" name no condition, yet the knowledge base has pages on the
        tests. A concept that covers the words wins ("콜레스테롤이 높아요" is high cholesterol), and so
        does the condition a measured value names: "혈당이 250이에요" is about hyperglycemia, and
        "혈압이 160에 100인데 위험한가요?" about high blood pressure."""
        found = find_measurements(text)
        measured = {m.start: m.item for m in found if m.kind == "lab"}
        tests = []
        for pressure in (m for m in found if m.item.get("type") == "blood_pressure"):
            named = measured_conditions({"vitals": [pressure.item]})
            concept = self._concept_named(named[0][0]) if named else None
            if concept is None or any((m["start"] < pressure.end and pressure.start < m["end"]) or m["name"] == concept.name
                                      for m in mentions):
                continue
            tests.append(self._measured(_span(pressure.start, pressure.end, pressure.item["text"]), concept))
        for lab in lab_names(text):
            named = measured_conditions({"labs": [measured[lab.start]]}) if lab.start in measured else []
            concept = self._concept_named(named[0][0]) if named else None
            overlapping = [m for m in mentions if m["start"] < lab.end and lab.start < m["end"]]
            span = _span(lab.start, lab.end, lab.text)
            if concept is not None:
                # "My potassium is 5.8" is not about the potassium taken as a medicine.
                mentions = [m for m in mentions if m not in overlapping]
                tests.append(self._measured(span, concept))
            elif lab.english and not overlapping:
                tests.append({**span, "name": lab.english[0], "synonyms": lab.english[1:], "slot": "test"})
        return sorted([*mentions, *tests], key=lambda m: m["start"]) if tests else mentions

    def _measured(self, span: dict, concept) -> dict:
        """The mention of the condition a measured value names, at the value's `span`."""
        synonyms = [s for s in concept.synonyms if not has_hangul(s)]
        return {**span, "name": concept.name, "synonyms": synonyms[: self.synonyms], "slot": concept.slot,
                "measured": True}

    def _concept_named(self, name: str):
        """The pack's concept of that name, else of that synonym ("hyperkalemia" is "High potassium level")."""
        if self._by_synonym is None:
            self._by_synonym = {}
            for concept in self.pack.concepts.values():
                self._by_name.setdefault(concept.name.lower(), concept.concept_id)
                for synonym in concept.synonyms:
                    self._by_synonym.setdefault(synonym.lower(), concept.concept_id)
        concept_id = self._by_name.get(name.lower()) or self._by_synonym.get(name.lower())
        return self.pack.concept(concept_id) if concept_id else None

    def _beyond_lexicon(self, text: str, mentions: list[Mention]) -> list[Mention]:
        """Drugs written in Hangul that no lexicon term covers, found by their sound, and long
        Korean names written with one letter wrong."""
        if self._sounds is None:
            for concept in self.pack.concepts.values():
                self._by_name.setdefault(concept.name.lower(), concept.concept_id)
                if concept.slot == "medication":
                    for name in [concept.name, *concept.synonyms]:
                        self._drugs.setdefault(name, concept.concept_id)
            # Hangul names of the lexicon's other concepts and of labs and vitals are not drugs,
            # however they sound ("크레아티닌" ~ creatine, "에를리키아증" ~ eliquis).
            others = [t.text for t in load_lexicon().terms if t.language == "ko" and t.slot != "medication"]
            labs = [name for spec in load_specs() for name in spec.names if has_hangul(name)]
            self._sounds = DrugSounds(self._drugs, not_drugs=[*others, *labs])
            self._spellings = KoreanSpellings((t.text, t.english.lower()) for t in load_lexicon().terms
                                              if t.language == "ko" and not t.negated and t.slot != IGNORE)
        found = [(m.start, m.end, m.text, self._drugs[m.name], f"sound:{m.name}")
                 for m in self._sounds.find(text, [(m.start, m.end) for m in mentions])]
        # A misspelt name may hold a shorter name written right ("류마치스관절염" holds
        # "관절염"): the whole misspelt name wins over the mention inside it.
        found += [(m.start, m.end, m.text, self._by_name.get(m.concept, ""), f"spelling:{m.concept}")
                  for m in self._spellings.find(text, [(start, end) for start, end, *_ in found])]  # type: ignore[union-attr]
        added = []
        for start, end, written, concept_id, how in found:
            concept = self.pack.concept(concept_id) if concept_id else None
            if concept is not None:
                added.append(Mention(start=start, end=end, text=written, concept_id=concept.concept_id,
                                     name=concept.name, slot=concept.slot, medcat_name=how))
        kept = [m for m in mentions if not any(a.start <= m.start and m.end <= a.end and (a.end - a.start) > (m.end - m.start)
                                               for a in added)]
        added = [a for a in added if not any(k.start < a.end and a.start < k.end for k in kept)]
        return sorted([*kept, *added], key=lambda m: m.start)

    @staticmethod
    def patient(text: str) -> dict:
        """Who the text is about (age, age group, gender, pregnancy), as `extract` reports it."""
        return find_demographics(text)


def _span(start: int, end: int, text: str) -> dict:
    """Where a lab test or measured value stands in the text, as a mention's fields."""
    return {"start": start, "end": end, "negated": False, "text": text, "allergy": False, "classes": []}
