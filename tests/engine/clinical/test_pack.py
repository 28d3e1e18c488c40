"""The concept pack: built from concepts.tsv + lexicons, JSON-serialised, rebuilt when stale."""

from __future__ import annotations

import json
import shutil

from engine.clinical import pack as pack_module
from engine.clinical import slots
from engine.clinical.lexicon import korean_term_count, lexicon_dir


def test_build_writes_a_json_medcat_pack_with_a_manifest(built_pack_dir):
    manifest = json.loads((built_pack_dir / "manifest.json").read_text())
    assert manifest["inputs_sha256"] == pack_module.inputs_hash()
    assert manifest["concepts"] > 5000 and manifest["names"] > 20000
    medcat_dir = built_pack_dir / "medcat"
    assert (medcat_dir / ".serialised_by").read_text().strip() == "json"
    for path in medcat_dir.rglob("*"):
        if path.is_file() and path.suffix in {".dat", ".json"}:
            json.loads(path.read_text(encoding="utf-8"))  # every stored part is JSON, no pickle
    assert not list(built_pack_dir.rglob("*.pkl")) and not list(built_pack_dir.rglob("*.pickle"))


def test_loaded_pack_links_korean_and_english_names_to_the_same_concept(clinical_pack):
    doc_ko = clinical_pack.cat("당뇨병이 있어요")
    doc_en = clinical_pack.cat("I have diabetes")
    korean = {clinical_pack.concept(e.cui).concept_id for e in doc_ko.linked_ents}
    english = {clinical_pack.concept(e.cui).concept_id for e in doc_en.linked_ents}
    assert korean & english
    concept = clinical_pack.concept(next(iter(korean & english)))
    assert concept.name == "diabetes" and concept.slot == "condition"
    assert concept.concept_id.startswith("C")  # the UMLS CUI from concepts.tsv


def test_lexicon_has_at_least_600_korean_names():
    assert korean_term_count() >= 600


def test_inputs_hash_follows_the_naming_lexicons_but_not_the_rule_tables(tmp_path):
    copy = tmp_path / "clinical"
    shutil.copytree(lexicon_dir(), copy)
    before = pack_module.inputs_hash(lexicons=copy)
    with (copy / "ko_terms.tsv").open("a", encoding="utf-8") as handle:
        handle.write("새로운증상\tnew symptom\tsymptom\n")
    after_terms = pack_module.inputs_hash(lexicons=copy)
    assert after_terms != before
    with (copy / "interactions.tsv").open("a", encoding="utf-8") as handle:
        handle.write("# rule tables are read at run time and do not touch the pack\n")
    assert pack_module.inputs_hash(lexicons=copy) == after_terms


def test_get_pack_builds_when_missing_and_rebuilds_when_stale(built_pack_dir, tmp_path, monkeypatch):
    target = tmp_path / "clinical" / "pack"
    monkeypatch.setattr(slots, "pack_dir", lambda: target)
    previous = slots.install_process_pack(None)
    built = []
    real_build = pack_module.build_pack
    monkeypatch.setattr(slots, "build_pack", lambda t=None, c=None: built.append(t) or real_build(t, c))
    try:
        shutil.copytree(built_pack_dir, target)
        manifest = json.loads((target / "manifest.json").read_text())
        manifest["inputs_sha256"] = "stale"
        (target / "manifest.json").write_text(json.dumps(manifest))
        pack = slots.get_pack()
        assert built == [target]
        assert pack_module.is_current(target)
        assert slots.get_pack() is pack  # loaded once per process
    finally:
        slots.install_process_pack(previous)


def test_every_korean_name_is_a_name_not_a_lay_phrase():
    """A Korean answer names its topic by the lexicon's Korean name ("족저근막염, 발 통증의 치료"), never by
    a phrase a patient says ("발 아프", "늘어져")."""
    from engine.clinical.lexicon import _is_lay_phrase, korean_names

    named_by_phrase = {english: name for english, name in korean_names().items()
                       if _is_lay_phrase(name) or name.endswith(("아프", "붓", "쑤시", "결리", "져"))}
    assert not named_by_phrase
    assert not _is_lay_phrase("레보도파 카르비도파") and _is_lay_phrase("배가 아파")
    assert korean_names()["levodopa and carbidopa"] == "레보도파 카르비도파"
