"""`extract(text)`: the slot JSON of `chartside extract --json` from MedCAT mentions plus regular expressions.

`get_pack()` is the process-wide pack that `extract` reads by default: loaded once, built first
when missing or stale, and warmed up by one extraction.
"""

from __future__ import annotations

import re
import threading
import time
from pathlib import Path

from engine.clinical.allergies import find_allergies
from engine.clinical.assertion import mark_asked_about
from engine.clinical.demographics import find_demographics
from engine.clinical.dosing import attach_dosing
from engine.clinical.measurements import find_measurements
from engine.clinical.mentions import Mention, find_mentions
from engine.clinical.negation import apply_negation, mark_discontinued
from engine.clinical.pack import (
    MANIFEST,
    WARM_UP_TEXT,
    ClinicalPack,
    build_pack,
    bundled_pack_dir,
    current_digest,
    is_current,
    load_pack,
    pack_dir,
)
from engine.clinical.slot_model import CONCEPT_SLOTS, Slots, empty_slots, only_asked_about
from engine.errors import InputError
from engine.paths import install_bundled

_LIST_FOR_SLOT = {"condition": "conditions", "symptom": "symptoms", "medication": "medications"}
MAX_TEXT_CHARS = 200_000


def extract(text: str, pack: ClinicalPack | None = None) -> Slots:
    """Structured clinical facts in `text` (Korean, English or mixed).

    Every list item carries `name` (English canonical), `text` and character
    `start`/`end`; concept items add `concept_id` and `negated`; vitals and labs add
    `type`, `value` (or `systolic`/`diastolic`) and `unit`. Items that are only the topic
    of a question ("what is low blood sugar?") add `asked_about: true`.
    """
    if not isinstance(text, str):
        raise InputError(f"extract() needs text, got {type(text).__name__}")
    if len(text) > MAX_TEXT_CHARS:
        raise InputError(f"text is longer than {MAX_TEXT_CHARS} characters")
    slots = empty_slots()
    if not text.strip():
        return slots
    pack = pack or get_pack()
    mentions = find_mentions(pack, text)
    apply_negation(text, mentions)
    mark_discontinued(text, mentions)
    allergies = find_allergies(text, mentions)
    measurements = find_measurements(text)
    lab_spans = [(m.start, m.end) for m in measurements if m.kind == "lab"]
    remaining = [m for i, m in enumerate(mentions) if i not in allergies.consumed and not _inside(m, lab_spans)]
    remaining = drop_class_beside_member(text, remaining)
    remaining = [m for m in remaining if not _when_it_happens(text, m)]

    slots["demographics"] = find_demographics(text)
    slots["allergies"] = allergies.items
    medications = [m for m in remaining if m.slot == "medication"]
    dosing = attach_dosing(text, [m for m in medications if not m.negated])
    for mention in remaining:
        list_name = _LIST_FOR_SLOT.get(mention.slot)
        if list_name is None:
            continue
        item = mention.as_item()
        if list_name == "medications":
            item.update(dosing.get(mention.start, {}))
        slots[list_name].append(item)
    for measurement in measurements:
        slots["vitals" if measurement.kind == "vital" else "labs"].append(measurement.item)
    mark_asked_about(text, slots)
    for list_name in CONCEPT_SLOTS:
        slots[list_name] = _deduplicate(slots[list_name])
    return slots


# A symptom word used, after the complaint, as one of the moments it happens is no complaint of its own:
# "I leak urine when I cough or laugh", "기침하거나 웃을 때 소변이 새요" (the leak is the complaint, coughing one
# of its triggers). "When I cough, I bring up phlegm" and "기침할 때 가슴이 아파요" still say the patient coughs.
_EN_WHEN_DOING = re.compile(r"(?<=\w)[^.!?]*?\s(?:when|whenever|if|while|as)\s+(?:i|you|he|she|we|they)\s+(?:\w+\s+)?$",
                            re.IGNORECASE)
_EN_ACTION_WORDS = frozenset({"cough", "coughs", "sneeze", "sneezes", "laugh", "laughs", "strain", "strains"})
_KO_ONE_OF_THE_MOMENTS = re.compile(r"^\s*(?:을|를)?\s*하거나\s+[가-힣]+\s*때")


def _when_it_happens(text: str, mention: Mention) -> bool:
    """Whether a symptom mention only names one of the moments another complaint happens
    (`_EN_WHEN_DOING`, `_KO_ONE_OF_THE_MOMENTS`)."""
    if mention.slot != "symptom":
        return False
    if mention.text.lower() in _EN_ACTION_WORDS:
        sentence_start = max(text.rfind(mark, 0, mention.start) for mark in ".!?\n") + 1
        return bool(_EN_WHEN_DOING.search(text[sentence_start: mention.start]))
    return bool(_KO_ONE_OF_THE_MOMENTS.match(text[mention.end: mention.end + 20]))


def _inside(mention: Mention, spans: list[tuple[int, int]]) -> bool:
    """A concept named by a lab value ("potassium 5.9", "vitamin D level 12") is the
    analyte being measured, not a medicine or a symptom."""
    return any(start <= mention.start and mention.end <= end for start, end in spans)


_APPOSITION = re.compile(r"^\s*(?:으로|로|인|은|는|:|\(|중에|중|계열인|계열의|like|such\s+as|called|named|namely)?\s*$", re.IGNORECASE | re.ASCII)
# Medicine words that name a class or a purpose rather than one drug.
GENERIC_MEDICATIONS = frozenset({
    "statins", "nsaids", "anticoagulants", "antiplatelet drugs", "ace inhibitors", "angiotensin receptor blockers",
    "beta blockers", "calcium channel blockers", "diuretics", "antidepressants", "benzodiazepines",
    "antidiabetic drugs", "steroids", "cephalosporins", "sulfa drugs", "penicillin", "antibiotics", "antihistamines",
    "antihypertensives", "analgesics", "antipyretics", "laxatives", "antacids", "anticonvulsants",
    "proton pump inhibitors", "cold medicine", "cough medicine", "vitamins", "inhalers", "muscle relaxants", "opioids",
    "sleep medicines",
})
# "옥시코돈 같은 마약성 진통제", "ibuprofen, an NSAID": the class after the drug it is said of.
_CLASS_AFTER = re.compile(r"^\s*(?:같은|등의|등|,\s*(?:an?|the)|\()?\s*$", re.IGNORECASE)


def drop_class_beside_member(text: str, mentions: list[Mention]) -> list[Mention]:
    """"콜레스테롤 약으로 리피토", "a statin called atorvastatin", "a tiotropium inhaler", "옥시코돈 같은
    마약성 진통제": keep the named drug only."""
    dropped = set()
    for index, (mention, following) in enumerate(zip(mentions, mentions[1:])):
        if mention.slot != "medication" or following.slot != "medication":
            continue
        first_is_class = mention.name.lower() in GENERIC_MEDICATIONS
        if first_is_class == (following.name.lower() in GENERIC_MEDICATIONS):
            continue
        between = text[mention.end: following.start]
        if first_is_class and _APPOSITION.match(between):
            dropped.add(index)
        elif not first_is_class and _CLASS_AFTER.match(between):
            dropped.add(index + 1)
    return [m for i, m in enumerate(mentions) if i not in dropped]


_MENTION_FLAGS = frozenset({"asked_about", "uncertain"})


def _deduplicate(items: list[dict]) -> list[dict]:
    """One item per (concept, negation): the first mention, completed by later details;
    stated once, it is stated, however often it was also asked about."""
    seen: dict[tuple, dict] = {}
    for item in items:
        key = (item.get("concept_id") or item["name"].lower(), bool(item.get("negated")))
        if key not in seen:
            seen[key] = item
            continue
        if not only_asked_about(item):
            seen[key].pop("asked_about", None)
        for field, value in item.items():
            # Whether it was only asked about, or is unsure, is the first mention's or a statement's: a later
            # question does not make a stated fact a topic ("I leak urine … What are the treatments for
            # urinary incontinence?").
            if field not in _MENTION_FLAGS:
                seen[key].setdefault(field, value)
    return list(seen.values())


# --- the process-wide pack: loaded once, warmed up by one extraction ------------------------

_lock = threading.Lock()
_loaded: ClinicalPack | None = None


def get_pack() -> ClinicalPack:
    """The process-wide pack: loaded once, built first when missing or stale."""
    global _loaded
    with _lock:
        if _loaded is not None:
            return _loaded
        target = pack_dir()
        install_bundled(bundled_pack_dir(), target, MANIFEST)
        digest = current_digest(target)
        if digest is not None and not is_current(target, digest):
            build_pack(target)
        _loaded = load_and_warm_up(target)
        return _loaded


def load_and_warm_up(target: Path | None = None) -> ClinicalPack:
    """`load_pack` plus one extraction, so the first real message is as fast as the rest;
    `load_seconds` covers both."""
    pack = load_pack(target)
    _warm_up_extraction(pack)
    return pack


def _warm_up_extraction(pack: ClinicalPack) -> None:
    """Compile the extractors' regular expressions now rather than on the first message."""
    started = time.perf_counter()
    extract(WARM_UP_TEXT + " 혈압 120/80, 500mg 하루 두 번", pack)
    pack.load_seconds += time.perf_counter() - started


def process_pack() -> ClinicalPack | None:
    """The process-wide pack if it is loaded, without loading it."""
    return _loaded


def install_process_pack(pack: ClinicalPack | None) -> ClinicalPack | None:
    """Make `pack` the process-wide pack (None forgets it); returns the previous one.
    For callers that load a pack from a place of their own (tests, a rebuilt pack)."""
    global _loaded
    with _lock:
        previous, _loaded = _loaded, pack
        return previous


def reset_loaded_pack() -> None:
    """Forget the process-wide pack (used after an explicit rebuild)."""
    global _loaded
    with _lock:
        _loaded = None
