"""Clinical understanding: MedCAT concept pack, slot extraction, triage, conflict alerts.

- `extract(text)` -> slot JSON (`chartside extract --json`), Korean, English or mixed.
- `triage(text)` -> {"emergency", "category", "message"} (deterministic red flags).
- `conflicts(profile, slots)` -> allergy / interaction / contraindication alerts.
- `KoreanConceptExpander` -> `engine.protocols.QueryExpander` for retrieval;
  `PackConceptFinder` -> concept mentions for query translation.
- `get_pack()` / `build_pack()` -> the MedCAT pack, built from concepts.tsv + lexicons.

Names are resolved lazily so that `triage` (pure regular expressions) does not import
MedCAT.
"""

from __future__ import annotations

from importlib import import_module

_EXPORTS = {
    "extract": "engine.clinical.slots",
    "empty_slots": "engine.clinical.slot_model",
    "triage": "engine.clinical.red_flags",
    "conflicts": "engine.clinical.drug_alerts",
    "KoreanConceptExpander": "engine.clinical.expander",
    "PackConceptFinder": "engine.clinical.expander",
    "get_pack": "engine.clinical.slots",
    "build_pack": "engine.clinical.pack",
    "load_pack": "engine.clinical.pack",
    "ClinicalPack": "engine.clinical.pack",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str):
    if name in _EXPORTS:
        return getattr(import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'engine.clinical' has no attribute {name!r}")
