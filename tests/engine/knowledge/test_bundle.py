"""Knowledge-base bundles: `kb export` on one desktop, `kb import` on another (a fresh
CHARTSIDE_HOME), the same answers; and every refusal leaves the index as it was."""

from __future__ import annotations

import hashlib
import json
import zipfile
from pathlib import Path

import pytest

from engine.cli import main
from engine.errors import (BundleManifestMismatch, BundleVersionUnknown, EmbeddingModelMismatch, KnowledgeBundleError,
                           NotAKnowledgeBundle)
from engine.knowledge import IndexParams, default_kb_dir
from engine.knowledge.bundle import BUNDLE_MANIFEST, export_bundle, import_bundle, read_bundle_info
from engine.knowledge.store import STAGING_PREFIX
from tests.engine.knowledge.conftest import HashingEmbedder

QUERIES = ("flu shots tuesday", "asthma wheezing", "metformin kidney", "triptan migraine")


def search(capsys, query: str) -> list:
    assert main(["kb", "search", "--json", "-k", "4", query]) == 0
    return [(hit["doc_id"], hit["chunk_id"], round(hit["score"], 6)) for hit in json.loads(capsys.readouterr().out)["hits"]]


@pytest.fixture
def exported(tiny_shared, hashing_embedder, tmp_path, capsys) -> tuple[Path, dict]:
    """A built index with one clinic document, exported; the search results it gives."""
    assert main(["kb", "build"]) == 0
    note = tmp_path / "flu_clinic.md"
    note.write_text("# Flu clinic\n\nFlu shots on Tuesdays for everyone over 65.", encoding="utf-8")
    assert main(["kb", "add", str(note)]) == 0
    capsys.readouterr()
    results = {query: search(capsys, query) for query in QUERIES}
    bundle = tmp_path / "clinic.kbundle"
    assert main(["kb", "export", str(bundle), "--json"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["documents"] == 6 and summary["clinic_documents"] == 1 and summary["bytes"] == bundle.stat().st_size
    return bundle, results


def fresh_home(tmp_path: Path, monkeypatch, name: str) -> Path:
    home = tmp_path / name
    home.mkdir()
    monkeypatch.setenv("CHARTSIDE_HOME", str(home))
    return home


def test_round_trip_into_a_fresh_home_gives_the_same_answers(exported, tmp_path, monkeypatch, capsys):
    bundle, results = exported
    info = read_bundle_info(bundle)
    assert info["embedding"]["fingerprint"] == "hashing-64:v1" and info["counts"]["chunks"] > 0
    assert set(info["members"]) == {"kb.sqlite", "rows.npz", "bm25.npz", "vectors.npy", "manifest.json"}
    with zipfile.ZipFile(bundle) as archive:
        for name, member in info["members"].items():
            assert hashlib.sha256(archive.read(f"index/{name}")).hexdigest() == member["sha256"]

    fresh_home(tmp_path, monkeypatch, "desktop2")
    assert main(["kb", "import", str(bundle), "--json"]) == 0
    out = capsys.readouterr()
    assert json.loads(out.out)["clinic_documents"] == 1
    assert "verifying: " in out.err  # progress on stderr
    assert {query: search(capsys, query) for query in QUERIES} == results
    assert main(["kb", "status", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["stale"] == []
    assert main(["kb", "list", "--json"]) == 0
    assert [d["title"] for d in json.loads(capsys.readouterr().out)] == ["Flu clinic"]
    assert not list(default_kb_dir().glob(STAGING_PREFIX + "*"))


def test_import_replaces_an_existing_index(exported, tmp_path, monkeypatch, capsys):
    bundle, results = exported
    fresh_home(tmp_path, monkeypatch, "desktop2")
    assert main(["kb", "build"]) == 0  # its own index, without the clinic document
    capsys.readouterr()
    assert search(capsys, "flu shots tuesday") != results["flu shots tuesday"]
    assert main(["kb", "import", str(bundle)]) == 0
    assert "imported 6 documents (1 added by the clinic)" in capsys.readouterr().out
    assert search(capsys, "flu shots tuesday") == results["flu shots tuesday"]


def rewrite(bundle: Path, target: Path, *, info_change=None, member_change=None, extra: str | None = None) -> Path:
    """A copy of `bundle` with bundle.json and/or one member's bytes changed."""
    with zipfile.ZipFile(bundle) as source, zipfile.ZipFile(target, "w") as out:
        for item in source.infolist():
            data = source.read(item.filename)
            if item.filename == BUNDLE_MANIFEST and info_change:
                info = json.loads(data)
                info_change(info)
                data = json.dumps(info).encode()
            elif member_change and item.filename == f"index/{member_change[0]}":
                data = member_change[1](data)
            out.writestr(item.filename, data)
        if extra:
            out.writestr(extra, b"#!/bin/sh\n")
    return target


def flip_last_byte(data: bytes) -> bytes:
    return data[:-1] + bytes([data[-1] ^ 0xFF])


def set_key(path: tuple, value):
    def change(info: dict) -> None:
        node = info
        for key in path[:-1]:
            node = node[key]
        node[path[-1]] = value
    return change


REFUSALS = [
    ("text", NotAKnowledgeBundle),
    ("other zip", NotAKnowledgeBundle),
    ("newer bundle version", BundleVersionUnknown),
    ("newer index format", BundleVersionUnknown),
    ("altered vectors", BundleManifestMismatch),
    ("altered database, sha256 updated in the index manifest only", BundleManifestMismatch),
    ("extra member", BundleManifestMismatch),
    ("missing member", BundleManifestMismatch),
    ("truncated", NotAKnowledgeBundle),
]


@pytest.mark.parametrize("case, error", REFUSALS)
def test_a_bad_bundle_is_refused_and_nothing_changes(case, error, exported, tmp_path, hashing_embedder):
    bundle, _ = exported
    folder = default_kb_dir()
    before = {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}
    bad = tmp_path / "bad.kbundle"
    if case == "text":
        bad.write_text("not a bundle", encoding="utf-8")
    elif case == "other zip":
        with zipfile.ZipFile(bad, "w") as archive:
            archive.writestr("readme.txt", "hello")
    elif case == "newer bundle version":
        rewrite(bundle, bad, info_change=set_key(("version",), 2))
    elif case == "newer index format":
        rewrite(bundle, bad, info_change=set_key(("index_manifest", "format"), 99))
    elif case == "altered vectors":
        rewrite(bundle, bad, member_change=("vectors.npy", flip_last_byte))
    elif case == "altered database, sha256 updated in the index manifest only":
        rewrite(bundle, bad, member_change=("kb.sqlite", flip_last_byte),
                info_change=set_key(("index_manifest", "rows"), 999))
    elif case == "extra member":
        rewrite(bundle, bad, extra="index/../../evil.sh")
    elif case == "missing member":
        with zipfile.ZipFile(bundle) as source, zipfile.ZipFile(bad, "w") as out:
            for item in source.infolist():
                if item.filename != "index/bm25.npz":
                    out.writestr(item.filename, source.read(item.filename))
    elif case == "truncated":
        bad.write_bytes(bundle.read_bytes()[: bundle.stat().st_size // 2])
    with pytest.raises(error) as refused:
        import_bundle(bad, folder, hashing_embedder, IndexParams())
    assert refused.value.user_message.endswith("Nothing was changed.")
    assert {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()} == before
    assert not list(folder.glob(STAGING_PREFIX + "*")) and not (folder.parent / "evil.sh").exists()


def test_another_embedding_model_is_refused_with_a_clear_message(exported, tmp_path, monkeypatch, capsys):
    bundle, _ = exported
    fresh_home(tmp_path, monkeypatch, "desktop2")
    other = HashingEmbedder(fingerprint="hashing-64:v2")
    monkeypatch.setattr("engine.knowledge.make_embedder", lambda settings, verify=True: other)
    assert main(["kb", "import", str(bundle)]) == 2
    err = capsys.readouterr().err
    assert "another embedding model" in err and "hashing-64:v1" in err and "hashing-64:v2" in err
    assert not default_kb_dir().exists()
    with pytest.raises(EmbeddingModelMismatch):
        import_bundle(bundle, default_kb_dir(), other, IndexParams())


def test_other_index_settings_are_refused(exported, hashing_embedder):
    bundle, _ = exported
    with pytest.raises(KnowledgeBundleError, match="chunking") as refused:
        import_bundle(bundle, default_kb_dir(), hashing_embedder, IndexParams(chunk_tokens=128))
    assert "other index settings" in refused.value.user_message and "chunking: bundle" in str(refused.value)
    with pytest.raises(KnowledgeBundleError, match="dense index"):
        import_bundle(bundle, default_kb_dir(), hashing_embedder, IndexParams(dense_index="hnsw"))


def test_export_refuses_a_stale_index_and_writes_nothing(tiny_shared, hashing_embedder, tmp_path, monkeypatch, capsys):
    assert main(["kb", "build"]) == 0
    monkeypatch.setattr(hashing_embedder, "fingerprint", "hashing-64:v9")
    target = tmp_path / "stale.kbundle"
    assert main(["kb", "export", str(target)]) == 2
    assert "out of date" in capsys.readouterr().err
    assert not target.exists() and not list(tmp_path.glob(".stale.kbundle.partial-*"))


def test_cancelled_import_changes_nothing(exported, tmp_path, hashing_embedder):
    from engine.errors import BuildCancelled

    bundle, _ = exported
    folder = default_kb_dir()
    before = (folder / "manifest.json").read_bytes()
    with pytest.raises(BuildCancelled):
        import_bundle(bundle, folder, hashing_embedder, IndexParams(), cancelled=lambda: True)
    assert (folder / "manifest.json").read_bytes() == before and not list(folder.glob(STAGING_PREFIX + "*"))


def test_missing_files_and_folders_are_named(exported, tmp_path, hashing_embedder, capsys):
    bundle, _ = exported
    assert main(["kb", "import", str(tmp_path / "nowhere.kbundle")]) == 2
    assert "The bundle file was not found. Nothing was changed." in capsys.readouterr().err
    assert main(["kb", "export", str(tmp_path / "no" / "such" / "folder.kbundle")]) == 2
    assert "does not exist" in capsys.readouterr().err
