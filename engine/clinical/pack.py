"""Build, save and load the MedCAT concept pack (JSON serialiser only, no pickles).

The pack lives in `data_dir()/clinical/pack` with a `manifest.json` recording the
sha256 of its inputs (concepts.tsv, every lexicon file, the build code's format
number and the medcat version). `engine.clinical.slots.get_pack()` rebuilds when the
pack is missing or its inputs changed, and keeps one loaded pack per process, warmed up
by one extraction (it lives beside `extract`, so that this module never imports the
extractor that reads the pack).
"""

from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
import time
from dataclasses import dataclass
from pathlib import Path

import engine  # noqa: F401  (offline switches before medcat is imported)
from engine.clinical import hangul
from engine.clinical.concept_table import ConceptTable, build_table, read_concepts_tsv
from engine.clinical.lexicon import PACK_LEXICON_FILES, lexicon_dir, load_lexicon
from engine.errors import ClinicalPackError
from engine.paths import bundle_root, is_frozen, shared_data_dir
from engine.settings import data_dir
from engine.text import has_hangul

log = logging.getLogger(__name__)

PACK_FORMAT = 2
MEDCAT_FOLDER = "medcat"
SIDECAR = "concepts.json"
MANIFEST = "manifest.json"
# One call right after loading builds MedCAT's lazy name indexes, so the first real
# message is as fast as the rest.
WARM_UP_TEXT = "warm-up: fever 열이 나요"


def pack_dir() -> Path:
    return data_dir() / "clinical" / "pack"


def bundled_pack_dir() -> Path:
    """Where a release build ships the prebuilt pack (copied into the data folder once)."""
    return bundle_root() / "clinical_pack"


def concepts_path() -> Path:
    return shared_data_dir() / "concepts.tsv"


# The code that decides which names exist and how they are tokenised: a change there
# changes the pack as surely as a lexicon edit does (the shared engine/text.py included:
# the concept stemmer and the Hangul range live there).
BUILD_CODE = ("hangul.py", "concept_table.py", "lexicon.py", "pack.py")


def inputs_hash(concepts: Path | None = None, lexicons: Path | None = None) -> str:
    """sha256 over everything the pack is built from: concepts.tsv, the lexicons that
    name concepts, the build code and the medcat version."""
    import medcat

    digest = hashlib.sha256(f"format={PACK_FORMAT};medcat={medcat.__version__}".encode())
    concepts = concepts or concepts_path()
    lexicons = lexicons or lexicon_dir()
    code = Path(__file__).resolve().parent
    inputs = [concepts, *(lexicons / name for name in PACK_LEXICON_FILES), *(code / name for name in BUILD_CODE),
              code.parent / "text.py"]
    for path in inputs:
        if not path.exists():
            raise ClinicalPackError(f"pack input missing: {path}")
        digest.update(path.name.encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()


def _medcat_config():
    from medcat.config import Config

    config = Config()
    config.general.nlp.provider = hangul.TOKENIZER_NAME
    config.general.usage_monitor.enabled = False
    config.general.show_nested_entities = True
    config.general.spell_check = True
    config.general.spell_check_len_limit = 7
    config.general.log_level = logging.WARNING
    config.components.tagging.comp_name = hangul.TAGGER_NAME
    config.components.linking.comp_name = "primary_name_only_linker"
    config.components.ner.min_name_len = 1
    config.components.ner.upper_case_limit_len = 1
    config.components.ner.check_upper_case_names = True
    config.components.ner.max_skip_tokens = 4
    config.cdb_maker.min_letters_required = 0
    config.cdb_maker.remove_parenthesis = 0
    config.preprocessing.keep_punct = set()
    return config


def _build_cdb(table: ConceptTable):
    import pandas as pd
    from medcat.model_creation.cdb_maker import CDBMaker

    rows = [
        (concept_id, _case_for_medcat(table.surfaces[key]), table.name_status[key], "")
        for key, concept_id in table.names.items()
    ]
    frame = pd.DataFrame(rows, columns=["cui", "name", "name_status", "type_ids"])
    maker = CDBMaker(_medcat_config())
    cdb = maker.prepare_csvs([frame], full_build=False)
    _make_names_unambiguous(cdb, table)
    return cdb, maker.pipeline


def _case_for_medcat(surface: str) -> str:
    """Korean names are lower-cased: "B형 간염" would otherwise count as an all-capitals
    name (its only cased letter is upper case) and match only upper-case text."""
    return surface.lower() if has_hangul(surface) else surface


def _make_names_unambiguous(cdb, table: ConceptTable) -> None:
    """Different surfaces can normalise to one MedCAT name; keep one owner per name."""
    by_medcat_id = {concept_id.upper(): concept for concept_id, concept in table.concepts.items()}
    for info in cdb.name2info.values():
        statuses = info["per_cui_status"]
        if len(statuses) < 2:
            continue
        ranked = sorted(statuses, key=lambda cui: (
            not by_medcat_id[cui].from_lexicon, statuses[cui] != "P", cui))
        keep = ranked[0]
        info["per_cui_status"] = {keep: "P"}


def _medcat_name(pipeline, surface: str, separator: str) -> str:
    doc = pipeline.tokenizer_with_tag(surface)
    return separator.join(token.base.lower for token in doc if not token.to_skip)


def build_pack(target: Path | None = None, concepts: Path | None = None) -> dict:
    """Build the pack into `target` (default `pack_dir()`), atomically. Returns the manifest."""
    from medcat.cat import CAT

    target = target or pack_dir()
    concepts = concepts or concepts_path()
    started = time.perf_counter()
    digest = inputs_hash(concepts)
    lexicon = load_lexicon(lexicon_dir())
    table = build_table(read_concepts_tsv(concepts), lexicon)
    cdb, pipeline = _build_cdb(table)
    cat = CAT(cdb, vocab=None, config=cdb.config)

    target.parent.mkdir(parents=True, exist_ok=True)
    staging = target.parent / f".{target.name}.building-{os.getpid()}"
    shutil.rmtree(staging, ignore_errors=True)
    staging.mkdir()
    cat.save_model_pack(str(staging), pack_name=MEDCAT_FOLDER, serialiser_type="json",
                        make_archive=False, add_hash_to_pack_name=False)
    separator = cdb.config.general.separator
    sidecar = {
        "concepts": {cid.upper(): [cid, c.name, c.slot, c.synonyms] for cid, c in table.concepts.items()},
        "negated_names": sorted({_medcat_name(pipeline, term, separator) for term in table.negated_names}),
    }
    (staging / SIDECAR).write_text(json.dumps(sidecar, ensure_ascii=False), encoding="utf-8")
    manifest = {
        "format": PACK_FORMAT,
        "inputs_sha256": digest,
        "concepts": len(table.concepts),
        "names": len(cdb.name2info),
        "build_seconds": round(time.perf_counter() - started, 2),
        "built_at": time.strftime("%Y-%m-%dT%H:%M:%S"),
    }
    (staging / MANIFEST).write_text(json.dumps(manifest, indent=2), encoding="utf-8")
    old = target.parent / f".{target.name}.old-{os.getpid()}"
    if target.exists():
        os.replace(target, old)
    os.replace(staging, target)
    shutil.rmtree(old, ignore_errors=True)
    log.info("clinical pack built: %s concepts, %s names in %.1f s",
             manifest["concepts"], manifest["names"], manifest["build_seconds"])
    return manifest


def read_manifest(target: Path | None = None) -> dict | None:
    path = (target or pack_dir()) / MANIFEST
    if not path.exists():
        return None
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError):
        return None


def is_current(target: Path | None = None, digest: str | None = None) -> bool:
    manifest = read_manifest(target)
    if manifest is None:
        return False
    return manifest.get("inputs_sha256") == (digest or inputs_hash())


@dataclass(frozen=True)
class PackConcept:
    concept_id: str
    name: str
    slot: str
    synonyms: list[str]


@dataclass
class ClinicalPack:
    """A loaded pack: the MedCAT pipeline plus the concept table it links into."""

    cat: object
    concepts: dict[str, PackConcept]
    negated_names: frozenset[str]
    manifest: dict
    load_seconds: float
    path: Path | None = None

    def concept(self, medcat_id: str) -> PackConcept | None:
        """The concept for an id as MedCAT reports it (upper-cased at build time)."""
        return self.concepts.get(medcat_id.upper())


def load_pack(target: Path | None = None) -> ClinicalPack:
    from medcat.cat import CAT

    target = target or pack_dir()
    manifest = read_manifest(target)
    if manifest is None:
        raise ClinicalPackError(f"no clinical pack at {target}")
    started = time.perf_counter()
    cat = CAT.load_model_pack(str(target / MEDCAT_FOLDER))
    cat(WARM_UP_TEXT)
    sidecar = json.loads((target / SIDECAR).read_text(encoding="utf-8"))
    concepts = {key: PackConcept(*value) for key, value in sidecar["concepts"].items()}
    return ClinicalPack(cat, concepts, frozenset(sidecar["negated_names"]), manifest,
                        time.perf_counter() - started, target)


def current_digest(target: Path) -> str | None:
    """The inputs' hash, or None when an installed pack is used as is: in a release build
    (built there from the same inputs) or when concepts.tsv is absent."""
    if is_frozen() and read_manifest(target) is not None:
        return None
    if concepts_path().exists():
        return inputs_hash()
    if read_manifest(target) is None:
        raise ClinicalPackError(f"concepts.tsv not found at {concepts_path()} and no pack at {target}")
    log.warning("concepts.tsv not found; using the installed clinical pack without a freshness check")
    return None
