"""Knowledge-base bundles: one desktop builds the index, the others import it in seconds.

A bundle is a zip file:

    bundle.json          format name and version, when and by which Chartside it was made,
                         the embedding model (name, full sha256, fingerprint, dimension), the
                         build settings (chunking, tokenizer, BM25 k1/b/epsilon, dense index
                         type), counts, the index manifest, and a sha256 + size per member
    index/kb.sqlite      documents (default and clinic) and chunks
    index/rows.npz       row order of the indexes
    index/bm25.npz       BM25 term frequencies
    index/vectors.npy    embeddings
    index/dense.faiss    FAISS index (only when the dense index type is not `flat`)
    index/manifest.json  the index manifest itself

Export reads one consistent snapshot of the live index (no commit in progress, the same
manifest before and after every file was opened) and writes the zip beside the target
name, renaming it into place at the end. Members are stored, not compressed: vectors do
not compress, and an import then costs one read, one hash and one write per byte.

Import refuses, with a named error and nothing changed, a file that is not a bundle
(`NotAKnowledgeBundle`), an unknown bundle or index version (`BundleVersionUnknown`),
members that do not match the manifest (`BundleManifestMismatch`: missing, extra, wrong
size or sha256), another embedding model or embedding settings (`EmbeddingModelMismatch`)
and other index settings or default corpus (`KnowledgeBundleError`). It stages the files
in a `.staging-*` folder inside the index folder, verifying each sha256 while writing,
loads the staged index once, and then publishes it with the store's commit (fsync, one
rename as the commit point): a killed import leaves the old index, or the new one.

The knowledge base is not encrypted, and neither is a bundle: it carries the clinic's own
documents in plain text (see `patient_data.py` for what `kb add` refuses).
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import time
import zipfile
from dataclasses import asdict
from pathlib import Path
from typing import BinaryIO, Callable

from engine.errors import (BuildCancelled, BundleManifestMismatch, BundleVersionUnknown, EmbeddingModelMismatch,
                           InputError, KnowledgeBundleError, KnowledgeIndexError, NotAKnowledgeBundle)
from engine.knowledge.store import (COMMIT_FOLDER, FORMAT_VERSION, MANIFEST, KnowledgeBase, Manifest,
                                    Progress, ProgressFn, _fsync_dir, new_staging, publish, recover)

BUNDLE_FORMAT = "chartside-knowledge-bundle"
BUNDLE_VERSION = 1
BUNDLE_MANIFEST = "bundle.json"
MEMBER_FOLDER = "index/"
INDEX_FILES = ("kb.sqlite", "rows.npz", "bm25.npz", "vectors.npy", "dense.faiss", MANIFEST)
REQUIRED_FILES = ("kb.sqlite", "rows.npz", "bm25.npz", "vectors.npy", MANIFEST)
BLOCK = 1 << 20
MIB = 1 << 20
SNAPSHOT_TRIES = 20
SETTINGS_DIFFER = ("The bundle was built with other index settings (or another default corpus) than this desktop's, "
                   "so it would be rebuilt rather than used. Nothing was changed.")
NO_SPACE = "Not enough disk space to import the bundle beside the current index. Nothing was changed."
NOT_FOUND = "The bundle file was not found. Nothing was changed."
NO_FOLDER = "The folder to export the bundle to does not exist."


def export_bundle(kb: KnowledgeBase, target: Path, progress: ProgressFn | None = None,
                  cancelled: Callable[[], bool] | None = None) -> dict:
    """Write the open, up-to-date index of `kb` to the bundle `target`; returns its summary."""
    target = Path(target)
    if not target.parent.is_dir():
        raise InputError(f"no folder {target.parent}", user_message=NO_FOLDER)
    started = time.perf_counter()
    with kb._lock:
        manifest_bytes, handles = _snapshot(kb.folder)
    try:
        manifest = json.loads(manifest_bytes)
        if manifest.get("embedding") != kb._embedding_fp():
            raise KnowledgeIndexError(f"index embedding {manifest.get('embedding')} is not {kb._embedding_fp()}; "
                                      "run `chartside kb build` first")
        partial = target.with_name(f".{target.name}.partial-{os.getpid()}")
        total = sum(os.fstat(h.fileno()).st_size for h in handles.values())
        meter = _Meter("exporting", total, progress, cancelled)
        members: dict[str, dict] = {}
        try:
            with zipfile.ZipFile(partial, "w", compression=zipfile.ZIP_STORED, allowZip64=True) as bundle:
                for name, handle in handles.items():
                    members[name] = _write_member(bundle, MEMBER_FOLDER + name, handle, meter)
                info = _bundle_info(kb, manifest, members)
                bundle.writestr(BUNDLE_MANIFEST, json.dumps(info, indent=2, ensure_ascii=False))
            with open(partial, "r+b") as written:
                os.fsync(written.fileno())
            os.replace(partial, target)
            _fsync_dir(target.parent)
        finally:
            partial.unlink(missing_ok=True)
        meter.finish()
    finally:
        for handle in handles.values():
            handle.close()
    return {"file": str(target), "bytes": target.stat().st_size, **info["counts"], "embedding": info["embedding"],
            "seconds": round(time.perf_counter() - started, 2)}


def read_bundle_info(source: Path) -> dict:
    """The checked `bundle.json` of `source` (members listed exactly, known versions)."""
    source = Path(source)
    _require_file(source)
    try:
        with zipfile.ZipFile(source) as bundle:
            return _checked_info(bundle, source)
    except (zipfile.BadZipFile, OSError) as exc:
        raise NotAKnowledgeBundle(f"{source.name}: {exc}") from exc


def import_bundle(source: Path, folder: Path, embedder, params, *, progress: ProgressFn | None = None,
                  cancelled: Callable[[], bool] | None = None, corpus_version: Callable[[], str] | None = None) -> dict:
    """Replace the index in `folder` by the bundle `source`, verified first, atomically.

    `embedder` and `params` are this desktop's (IndexParams): the bundle must match them,
    so that the imported index is searched as it is, never rebuilt."""
    source, folder = Path(source), Path(folder)
    started = time.perf_counter()
    _require_file(source)
    try:
        bundle = zipfile.ZipFile(source)
    except (zipfile.BadZipFile, OSError) as exc:
        raise NotAKnowledgeBundle(f"{source.name}: {exc}") from exc
    created = not folder.exists()
    with bundle:
        info = _checked_info(bundle, source)
        local = KnowledgeBase(folder, embedder, params, corpus_source=lambda: [], corpus_version=corpus_version)
        _check_compatible(info, local)
        folder.mkdir(parents=True, exist_ok=True)
        recover(folder)
        total = sum(m["size"] for m in info["members"].values())
        _check_free_space(folder, total)
        staging = new_staging(folder)
        try:
            meter = _Meter("verifying", total, progress, cancelled)
            for name, expected in info["members"].items():
                _extract_member(bundle, name, expected, staging / name, meter)
            meter.finish()
            _check_staged(staging, info, local)
            if cancelled is not None and cancelled():
                raise BuildCancelled("import cancelled before the index was replaced")
            if progress is not None:
                progress(Progress("installing", 0, 1))
            remove = [name for name in INDEX_FILES if name not in info["members"] and (folder / name).exists()]
            publish(folder, staging, remove)
            if progress is not None:
                progress(Progress("installing", 1, 1))
        except BaseException:
            if created:
                shutil.rmtree(folder, ignore_errors=True)
            raise
        finally:
            shutil.rmtree(staging, ignore_errors=True)
    return {"file": str(source), **info["counts"], "embedding": info["embedding"]["fingerprint"],
            "created_at": info["created_at"], "seconds": round(time.perf_counter() - started, 2)}


# -- export helpers ---------------------------------------------------------------------------
def _snapshot(folder: Path) -> tuple[bytes, dict[str, BinaryIO]]:
    """Open every index file such that they belong to one commit: no commit folder and the
    same manifest bytes before and after the opens (every commit rewrites the manifest,
    last). Open handles keep reading the files they opened even if a commit follows."""
    for _ in range(SNAPSHOT_TRIES):
        before = _manifest_bytes(folder)
        if before is not None and not (folder / COMMIT_FOLDER).exists():
            handles = {name: open(folder / name, "rb") for name in INDEX_FILES if (folder / name).exists()}
            if _manifest_bytes(folder) == before and not (folder / COMMIT_FOLDER).exists() \
                    and all(name in handles for name in REQUIRED_FILES):
                return handles[MANIFEST].read(), handles
            for handle in handles.values():
                handle.close()
        time.sleep(0.25)
    raise KnowledgeIndexError(f"no complete, settled index in {folder} to export (is a build running?)")


def _manifest_bytes(folder: Path) -> bytes | None:
    try:
        return (folder / MANIFEST).read_bytes()
    except OSError:
        return None


def _write_member(bundle: zipfile.ZipFile, arcname: str, handle: BinaryIO, meter: "_Meter") -> dict:
    digest = hashlib.sha256()
    size = 0
    handle.seek(0)
    info = zipfile.ZipInfo(arcname, date_time=time.localtime(time.time())[:6])
    info.compress_type = zipfile.ZIP_STORED
    with bundle.open(info, "w", force_zip64=True) as out:
        while block := handle.read(BLOCK):
            digest.update(block)
            out.write(block)
            size += len(block)
            meter.advance(len(block))
    return {"sha256": digest.hexdigest(), "size": size}


def _bundle_info(kb: KnowledgeBase, manifest: dict, members: dict[str, dict]) -> dict:
    from engine import __version__

    embedder = kb.embedder
    return {
        "format": BUNDLE_FORMAT,
        "version": BUNDLE_VERSION,
        "created_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "created_by": f"Chartside {__version__}",
        "embedding": {
            "model": manifest.get("embedding_model") or str(getattr(embedder, "name", "")),
            "sha256": str(getattr(embedder, "sha256", "")),
            "fingerprint": manifest.get("embedding", ""),
            "dimension": manifest.get("dimension", 0),
        },
        "build_settings": {
            "index_format": manifest.get("format"),
            "params": asdict(kb.params),
            "chunking": manifest.get("chunking"),
            "tokenizer": manifest.get("tokenizer"),
            "bm25": manifest.get("bm25"),
            "dense_index": manifest.get("dense_index"),
            "corpus": manifest.get("corpus"),
        },
        "counts": {"documents": manifest.get("documents", 0), "clinic_documents": manifest.get("user_documents", 0),
                   "chunks": manifest.get("rows", 0)},
        "index_manifest": manifest,
        "members": members,
    }


# -- import helpers ---------------------------------------------------------------------------
def _require_file(source: Path) -> None:
    if not source.is_file():
        raise InputError(f"{source} is not a file", user_message=NOT_FOUND)


def _checked_info(bundle: zipfile.ZipFile, source: Path) -> dict:
    names = set(bundle.namelist())
    if BUNDLE_MANIFEST not in names:
        raise NotAKnowledgeBundle(f"{source.name} has no {BUNDLE_MANIFEST}")
    try:
        info = json.loads(bundle.read(BUNDLE_MANIFEST))
    except (ValueError, zipfile.BadZipFile) as exc:
        raise NotAKnowledgeBundle(f"{source.name}: unreadable {BUNDLE_MANIFEST}: {exc}") from exc
    if not isinstance(info, dict) or info.get("format") != BUNDLE_FORMAT:
        raise NotAKnowledgeBundle(f"{source.name}: {BUNDLE_MANIFEST} is not a {BUNDLE_FORMAT} manifest")
    if info.get("version") != BUNDLE_VERSION:
        raise BundleVersionUnknown(f"bundle version {info.get('version')!r}; this Chartside reads {BUNDLE_VERSION}")
    index_format = (info.get("index_manifest") or {}).get("format")
    if index_format != FORMAT_VERSION:
        raise BundleVersionUnknown(f"index format {index_format!r}; this Chartside reads {FORMAT_VERSION}")
    members = info.get("members")
    if not isinstance(members, dict) or not all(
            isinstance(m, dict) and isinstance(m.get("sha256"), str) and isinstance(m.get("size"), int)
            for m in members.values()):
        raise BundleManifestMismatch(f"{source.name}: the member list of {BUNDLE_MANIFEST} is malformed")
    unknown = set(members) - set(INDEX_FILES)
    missing = set(REQUIRED_FILES) - set(members)
    listed = {MEMBER_FOLDER + name for name in members} | {BUNDLE_MANIFEST}
    if unknown or missing or listed != names:
        raise BundleManifestMismatch(
            f"{source.name}: members do not match {BUNDLE_MANIFEST} (unknown {sorted(unknown)}, missing "
            f"{sorted(missing)}, not listed {sorted(names - listed)}, absent {sorted(listed - names)})")
    for name, expected in members.items():
        if bundle.getinfo(MEMBER_FOLDER + name).file_size != expected["size"]:
            raise BundleManifestMismatch(f"{name}: size differs from {BUNDLE_MANIFEST}")
    return info


def _check_compatible(info: dict, local: KnowledgeBase) -> None:
    """Refuse a bundle this desktop would not search as it is (it would be rebuilt)."""
    ours = local._embedding_fp()
    theirs = info.get("embedding") or {}
    our_sha = str(getattr(local.embedder, "sha256", "") or "")
    if theirs.get("fingerprint") != ours or (our_sha and theirs.get("sha256") and theirs["sha256"] != our_sha):
        raise EmbeddingModelMismatch(f"bundle embedding {theirs.get('fingerprint')} (sha256 {theirs.get('sha256')}); "
                                     f"this desktop {ours} (sha256 {our_sha or 'unknown'})")
    manifest = Manifest(**{k: v for k, v in info["index_manifest"].items() if k in Manifest.__dataclass_fields__})
    differences = {
        "chunking": (manifest.chunking, local._chunking()),
        "tokenizer": (manifest.tokenizer, Manifest().tokenizer),
        "bm25": (manifest.bm25, local._bm25_params()),
        "dense index": (manifest.dense_index, local.params.dense_index),
    }
    try:
        differences["default corpus"] = (manifest.corpus, local._corpus_version())
    except KnowledgeIndexError:
        pass  # no default sources on this desktop (a release build): the bundle's corpus is taken as it is
    differing = {name: pair for name, pair in differences.items() if pair[0] != pair[1]}
    if differing:
        raise KnowledgeBundleError(
            "; ".join(f"{name}: bundle {theirs!r}, this desktop {ours!r}" for name, (theirs, ours) in differing.items()),
            user_message=SETTINGS_DIFFER)


def _check_free_space(folder: Path, needed: int) -> None:
    free = shutil.disk_usage(folder).free
    if free < needed * 1.05 + 16 * MIB:
        raise KnowledgeBundleError(
            f"{free // MIB} MiB free in {folder}, {needed // MIB} MiB needed",
            user_message=NO_SPACE)


def _extract_member(bundle: zipfile.ZipFile, name: str, expected: dict, target: Path, meter: "_Meter") -> None:
    """Copy one member out, checking its size and sha256 (and the zip's CRC) on the way."""
    digest = hashlib.sha256()
    size = 0
    try:
        with bundle.open(MEMBER_FOLDER + name) as member, open(target, "wb") as out:
            while block := member.read(BLOCK):
                size += len(block)
                if size > expected["size"]:
                    raise BundleManifestMismatch(f"{name}: longer than {BUNDLE_MANIFEST} says")
                digest.update(block)
                out.write(block)
                meter.advance(len(block))
    except zipfile.BadZipFile as exc:
        raise BundleManifestMismatch(f"{name}: {exc}") from exc
    if size != expected["size"] or digest.hexdigest() != expected["sha256"]:
        raise BundleManifestMismatch(f"{name}: sha256 {digest.hexdigest()} does not match {expected['sha256']}")


def _check_staged(staging: Path, info: dict, local: KnowledgeBase) -> None:
    """The staged files form the index the bundle describes, and it loads."""
    staged = KnowledgeBase(staging, local.embedder, local.params, corpus_source=lambda: [],
                           corpus_version=lambda: info["index_manifest"].get("corpus", ""))
    manifest = Manifest.read(staging)
    if manifest is None or asdict(manifest) != {**asdict(Manifest()), **info["index_manifest"]}:
        raise BundleManifestMismatch(f"index/{MANIFEST} differs from the index manifest in {BUNDLE_MANIFEST}")
    stale = staged.stale_parts(manifest)
    if stale:
        raise BundleManifestMismatch(f"the staged index is inconsistent ({', '.join(sorted(stale))})")
    try:
        staged._load()
    except Exception as exc:  # any reader failure: numpy, FAISS, SQLite
        raise BundleManifestMismatch(f"the staged index does not load: {exc}") from exc
    finally:
        staged.close()


class _Meter:
    """Progress in MiB with an ETA from the rate so far; checks cancellation per block."""

    def __init__(self, stage: str, total_bytes: int, progress: ProgressFn | None, cancelled: Callable[[], bool] | None):
        self.stage, self.total, self.progress, self.cancelled = stage, total_bytes, progress, cancelled
        self.done = 0
        self.started = time.perf_counter()
        self._last_report = -1
        self._report()

    def advance(self, n: int) -> None:
        if self.cancelled is not None and self.cancelled():
            raise BuildCancelled(f"{self.stage} cancelled; nothing was changed")
        self.done += n
        if self.done // (8 * MIB) != self._last_report:
            self._report()

    def finish(self) -> None:
        self.done = self.total
        self._report()

    def _report(self) -> None:
        self._last_report = self.done // (8 * MIB)
        if self.progress is None:
            return
        elapsed = time.perf_counter() - self.started
        eta = (self.total - self.done) * elapsed / self.done if self.done else None
        total_mib = max(1, -(-self.total // MIB))
        done_mib = total_mib if self.done >= self.total else min(total_mib - 1, self.done // MIB)
        self.progress(Progress(self.stage, done_mib, total_mib, eta, "MiB"))
